//! The crash reporter of a process that runs Z3 calls: on a fatal signal it writes one line,
//! `crash: SIGSEGV in push at libz3.so.4+0x1a65b1`, to stderr and lets the signal take its
//! course. The place in libz3 is what identifies a crash's root cause: one bug reached through
//! different API calls (a `translate`d solver after `reset` crashes in `push`, `check_sat`,
//! `assert` alike) faults at the same instruction, which the last call cannot tell.
//! `model::finding::classify_death` reads the line back.
//!
//! The process that classifies the death names the function that place falls in
//! ([`function_at`], given to `model::finding::classify_death`), where the libz3 file keeps its symbol table (a source build's, the z3-solver
//! wheel's; not Debian's, which is stripped): `(euf::completion::get_canonical+0x26f)` in the
//! finding's message, for the Z3 developer who reads it, and to tell two places of one function
//! from two bugs. The round's signature keeps the place, which a replay on any build
//! reproduces; a minimized finding's names the function (`model::finding::Signature::refined`),
//! so that two places of one function are merged into one finding.
//!
//! The handler only uses async-signal-safe operations: atomics, a stack buffer and `write(2)`.
//! The libz3 address range is found once at [`install`]; the executor names the call in
//! progress with [`set_current_call`] (two relaxed atomic stores per call).

use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicUsize, Ordering};
use std::sync::OnceLock;

static CALL_PTR: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());
static CALL_LEN: AtomicUsize = AtomicUsize::new(0);
static Z3_START: AtomicUsize = AtomicUsize::new(0);
static Z3_END: AtomicUsize = AtomicUsize::new(0);
static INSTALLED: AtomicBool = AtomicBool::new(false);
/// The file name of the loaded libz3 (NUL-padded).
static mut Z3_NAME: [u8; 64] = [0; 64];
static mut PREVIOUS: [std::mem::MaybeUninit<libc::sigaction>; 32] =
    [const { std::mem::MaybeUninit::zeroed() }; 32];

const SIGNALS: [libc::c_int; 4] = [libc::SIGSEGV, libc::SIGBUS, libc::SIGFPE, libc::SIGILL];

/// Names the API call now running, for a crash line.
pub fn set_current_call(name: &'static str) {
    CALL_LEN.store(name.len(), Ordering::Relaxed);
    CALL_PTR.store(name.as_ptr() as *mut u8, Ordering::Relaxed);
}

/// Installs the reporter for SIGSEGV, SIGBUS, SIGFPE and SIGILL (once per process; a forked
/// child inherits it). The previous handlers (Rust's stack-overflow detection among them)
/// run after the report.
pub fn install() {
    if INSTALLED.swap(true, Ordering::SeqCst) {
        return;
    }
    find_libz3();
    for sig in SIGNALS {
        // SAFETY: installs a handler that only uses async-signal-safe operations; the
        // previous action is stored before the handler can run.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_fatal_signal as *const () as usize;
            action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
            libc::sigemptyset(&mut action.sa_mask);
            let previous = std::ptr::addr_of_mut!(PREVIOUS[sig as usize]);
            libc::sigaction(sig, &action, (*previous).as_mut_ptr());
        }
    }
}

/// The function of the libz3 this process runs on that holds `place` (`libz3.so.4+0x6864ef`,
/// as the crash line names it), demangled without parameters, and the offset into it:
/// `euf::completion::get_canonical` and 0x26f. `None` where the library's file keeps no
/// symbol table that names it. The table is read once per process, on the first crash it
/// names.
pub fn function_at(place: &str) -> Option<model::finding::PlaceName> {
    static FUNCTIONS: OnceLock<Vec<z3lib::elf::Function>> = OnceLock::new();
    let (file, offset) = place.rsplit_once("+0x")?;
    if !file.starts_with("libz3") {
        return None;
    }
    let offset = u64::from_str_radix(offset, 16).ok()?;
    let functions = FUNCTIONS.get_or_init(|| {
        z3lib::running_on()
            .and_then(|library| z3lib::elf::functions(&library.path).ok())
            .unwrap_or_default()
    });
    let (function, within) = z3lib::elf::function_holding(functions, offset)?;
    // GCC moves a function's unlikely paths into a part of its own, `NAME.cold` (the
    // demangled name is the function's): the function is both.
    let size = match function.name.strip_suffix(".cold") {
        Some(hot) => {
            let hot = functions.iter().find(|f| f.name == hot);
            function.size + hot.map_or(0, |f| f.size)
        }
        None => function.size,
    };
    Some(model::finding::PlaceName {
        function: demangled(&function.name),
        offset: within,
        size,
    })
}

/// A C++ name demangled without its parameters and return type (`expr::get_sort`), or the
/// name as it is where it is no mangled C++ name (a C function of the API).
fn demangled(name: &str) -> String {
    let options = cpp_demangle::DemangleOptions::new()
        .no_params()
        .no_return_type();
    cpp_demangle::Symbol::new(name)
        .ok()
        .and_then(|symbol| symbol.demangle(&options).ok())
        .unwrap_or_else(|| name.to_string())
}

/// Finds the address range of the loaded libz3's segments.
fn find_libz3() {
    unsafe extern "C" fn each(
        info: *mut libc::dl_phdr_info,
        _size: libc::size_t,
        _data: *mut libc::c_void,
    ) -> libc::c_int {
        // SAFETY: the loader hands a valid info record for the duration of the callback.
        let info = unsafe { &*info };
        if info.dlpi_name.is_null() {
            return 0;
        }
        // SAFETY: a NUL-terminated path owned by the loader.
        let path = unsafe { std::ffi::CStr::from_ptr(info.dlpi_name) }.to_bytes();
        let name = path.rsplit(|b| *b == b'/').next().unwrap_or(path);
        if !name.starts_with(b"libz3") {
            return 0;
        }
        let (mut start, mut end) = (usize::MAX, 0usize);
        for i in 0..info.dlpi_phnum as usize {
            // SAFETY: `dlpi_phnum` program headers follow `dlpi_phdr`.
            let ph = unsafe { &*info.dlpi_phdr.add(i) };
            if ph.p_type == libc::PT_LOAD {
                let from = info.dlpi_addr as usize + ph.p_vaddr as usize;
                start = start.min(from);
                end = end.max(from + ph.p_memsz as usize);
            }
        }
        if start < end {
            Z3_START.store(info.dlpi_addr as usize, Ordering::Relaxed);
            Z3_END.store(end, Ordering::Relaxed);
            // SAFETY: written once, before any handler reads it.
            unsafe {
                let dst = &mut *std::ptr::addr_of_mut!(Z3_NAME);
                let n = name.len().min(dst.len() - 1);
                dst[..n].copy_from_slice(&name[..n]);
            }
        }
        1
    }
    // SAFETY: iterates the loaded objects with a callback that only reads them.
    unsafe { libc::dl_iterate_phdr(Some(each), std::ptr::null_mut()) };
}

/// The faulting instruction and the stack pointer of a signal context.
fn registers(context: *mut libc::c_void) -> Option<(usize, usize)> {
    if context.is_null() {
        return None;
    }
    // SAFETY: the kernel passes a valid ucontext to an SA_SIGINFO handler.
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    unsafe {
        let uc = &*(context as *const libc::ucontext_t);
        let gregs = &uc.uc_mcontext.gregs;
        Some((
            gregs[libc::REG_RIP as usize] as usize,
            gregs[libc::REG_RSP as usize] as usize,
        ))
    }
    // SAFETY: as above.
    #[cfg(all(target_os = "linux", target_arch = "aarch64"))]
    unsafe {
        let uc = &*(context as *const libc::ucontext_t);
        Some((uc.uc_mcontext.pc as usize, uc.uc_mcontext.sp as usize))
    }
    #[cfg(not(all(
        target_os = "linux",
        any(target_arch = "x86_64", target_arch = "aarch64")
    )))]
    {
        None
    }
}

/// The offset of `pc` in libz3, if it lies there.
fn in_libz3(pc: usize) -> Option<usize> {
    let (start, end) = (
        Z3_START.load(Ordering::Relaxed),
        Z3_END.load(Ordering::Relaxed),
    );
    (start != 0 && pc >= start && pc < end).then(|| pc - start)
}

/// A fixed buffer that text is appended to without allocating.
struct Line {
    buf: [u8; 256],
    len: usize,
}

impl Line {
    fn push(&mut self, bytes: &[u8]) {
        let n = bytes.len().min(self.buf.len() - self.len);
        self.buf[self.len..self.len + n].copy_from_slice(&bytes[..n]);
        self.len += n;
    }

    fn hex(&mut self, mut value: usize) {
        let mut digits = [0u8; 16];
        let mut i = digits.len();
        loop {
            i -= 1;
            digits[i] = b"0123456789abcdef"[value & 15];
            value >>= 4;
            if value == 0 {
                break;
            }
        }
        self.push(&digits[i..]);
    }
}

extern "C" fn on_fatal_signal(
    sig: libc::c_int,
    _info: *mut libc::siginfo_t,
    context: *mut libc::c_void,
) {
    let mut line = Line {
        buf: [0; 256],
        len: 0,
    };
    line.push(model::finding::CRASH_LINE.as_bytes());
    line.push(match sig {
        libc::SIGSEGV => b"SIGSEGV",
        libc::SIGBUS => b"SIGBUS",
        libc::SIGFPE => b"SIGFPE",
        _ => b"SIGILL",
    });
    let (ptr, len) = (
        CALL_PTR.load(Ordering::Relaxed),
        CALL_LEN.load(Ordering::Relaxed),
    );
    if !ptr.is_null() {
        line.push(b" in ");
        // SAFETY: a `&'static str` stored by `set_current_call`.
        line.push(unsafe { std::slice::from_raw_parts(ptr, len) });
    }
    if let Some((pc, sp)) = registers(context) {
        // A call through a null or wild pointer faults outside libz3: then the return
        // address on top of the stack says where in libz3 the call was made.
        let place = in_libz3(pc).or_else(|| {
            // SAFETY: the top of the faulting thread's stack is mapped.
            (sp != 0)
                .then(|| unsafe { *(sp as *const usize) })
                .and_then(in_libz3)
        });
        if let Some(offset) = place {
            line.push(b" at ");
            // SAFETY: written once at install, before the handler was installed.
            let name = unsafe { &*std::ptr::addr_of!(Z3_NAME) };
            let n = name.iter().position(|b| *b == 0).unwrap_or(name.len());
            line.push(&name[..n]);
            line.push(b"+0x");
            line.hex(offset);
        }
    }
    line.push(b"\n");
    // SAFETY: write(2) and sigaction(2) are async-signal-safe; the previous action was
    // stored by `install`. Returning re-runs the faulting instruction under it: Rust's
    // handler (which names a stack overflow) or the default action, which ends the process
    // with this signal.
    unsafe {
        libc::write(2, line.buf.as_ptr().cast(), line.len);
        let previous = std::ptr::addr_of!(PREVIOUS[sig as usize]);
        libc::sigaction(sig, (*previous).as_ptr(), std::ptr::null_mut());
    }
}
