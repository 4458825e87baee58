//! z3lib: runs a tool on a chosen libz3 (`--z3-lib PATH`) and names the Z3 a process runs on.
//!
//! The tools link libz3 dynamically under its soname (`libz3.so.4` for Debian's Z3 4.8.12).
//! [`run_on`] makes the running tool use another libz3 file: it checks the file
//! ([`inspect`]: a shared library, a libz3, with every Z3 function the tools call,
//! [`REQUIRED_SYMBOLS`]), then re-executes the same binary with the same arguments and a
//! private 0700 folder first on `LD_LIBRARY_PATH` that holds one link, named after the soname
//! the binary needs ([`elf::needed`]), to the file. The re-executed process sees a marker in
//! its environment, checks that the loader really took that file ([`loaded`]; a binary's
//! `DT_RPATH` or a preloaded libz3 would win over `LD_LIBRARY_PATH`), removes the folder and
//! restores the environment, so that its own children get `--z3-lib` explicitly and never
//! inherit the library path.
//!
//! [`Library`] is a libz3 file and its full version; [`Error`] says in one line, naming the
//! file, why a library cannot be used (the tools exit 2 on it).

pub mod elf;
mod symbols;

pub use symbols::REQUIRED_SYMBOLS;

use std::ffi::{CStr, CString, OsString};
use std::fmt;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The command-line flag every tool that runs Z3 takes.
pub const FLAG: &str = "--z3-lib";

/// The function whose presence makes a library a libz3, and whose answer names its version.
const VERSION_SYMBOL: &str = "Z3_get_full_version";

/// How many missing functions an error names.
const MAX_NAMED_MISSING: usize = 10;

/// The soname to link when the running binary's dynamic section names no libz3 (it always
/// does for binaries built against Debian's libz3-dev: `libz3.so.4`).
const DEFAULT_SONAME: &str = "libz3.so.4";

/// Set by the parent for the re-executed process: the canonical path of the library applied.
const ENV_APPLIED: &str = "Z3TESTING_Z3_LIB";
/// The version the parent read from the library, for the message when another one loads.
const ENV_VERSION: &str = "Z3TESTING_Z3_LIB_VERSION";
/// The private folder that holds the soname link; the re-executed process removes it.
const ENV_DIR: &str = "Z3TESTING_Z3_LIB_DIR";
/// `LD_LIBRARY_PATH` before the re-exec (absent when it was unset), restored afterwards.
const ENV_SAVED_LIBRARY_PATH: &str = "Z3TESTING_Z3_LIB_SAVED_LD_LIBRARY_PATH";

/// A libz3 file and its full version (`Z3_get_full_version`, e.g. `4.8.12.0`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Library {
    /// Canonical (absolute, links resolved).
    pub path: PathBuf,
    pub version: String,
}

/// Why a library cannot be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// No such file, or not a regular file.
    Missing,
    /// The dynamic loader refuses the file.
    NotALibrary,
    /// A shared library without `Z3_get_full_version`.
    NotZ3,
    /// A libz3 that lacks functions the tools call (an older Z3).
    MissingSymbols,
    /// The private library folder or the re-exec failed.
    Setup,
    /// After the re-exec the loader had taken another libz3.
    OtherLoaded,
}

/// One line: `--z3-lib PATH: what is wrong`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub kind: ErrorKind,
    pub path: PathBuf,
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{FLAG} {}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for Error {}

fn error(kind: ErrorKind, path: &Path, message: impl Into<String>) -> Error {
    Error {
        kind,
        path: path.to_path_buf(),
        message: message.into(),
    }
}

/// The last `dlerror` text, on one line, without the file name it usually starts with (the
/// error names the file already).
fn dl_error(path: &Path) -> String {
    // SAFETY: dlerror returns NULL or a NUL-terminated string valid until the next dl call.
    let text = unsafe { libc::dlerror() };
    if text.is_null() {
        return "unknown loader error".into();
    }
    // SAFETY: non-null and NUL-terminated, read before any other dl call.
    let text = unsafe { CStr::from_ptr(text) }.to_string_lossy();
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let prefix = format!("{}: ", path.display());
    text.strip_prefix(&prefix).unwrap_or(&text).to_string()
}

/// `Z3_get_full_version` at `address`, called.
///
/// # Safety
/// `address` must be the address of a libz3's `Z3_get_full_version`.
unsafe fn call_version(address: *mut libc::c_void) -> String {
    // SAFETY: the caller guarantees the address; the function takes nothing and returns a
    // static NUL-terminated string (or NULL).
    let function: extern "C" fn() -> *const libc::c_char = std::mem::transmute(address);
    let text = function();
    if text.is_null() {
        return "unknown".into();
    }
    CStr::from_ptr(text).to_string_lossy().into_owned()
}

fn symbol(handle: *mut libc::c_void, name: &str) -> *mut libc::c_void {
    let Ok(name) = CString::new(name) else {
        return std::ptr::null_mut();
    };
    // SAFETY: a valid handle (or RTLD_DEFAULT) and a NUL-terminated name.
    unsafe { libc::dlsym(handle, name.as_ptr()) }
}

/// Opens `path` (a file path or a soname the loader searches) with its own symbols first, so
/// that a second libz3 in the process does not resolve its calls into the first.
fn open(path: &Path) -> Result<*mut libc::c_void, String> {
    let name = CString::new(path.as_os_str().as_bytes()).map_err(|_| "a NUL in the path")?;
    // SAFETY: a NUL-terminated name. The library stays loaded (it is never closed): a checked
    // library is used right away, by an exec or by asking its version.
    let handle = unsafe {
        libc::dlopen(
            name.as_ptr(),
            libc::RTLD_LAZY | libc::RTLD_LOCAL | libc::RTLD_DEEPBIND,
        )
    };
    if handle.is_null() {
        Err(dl_error(path))
    } else {
        Ok(handle)
    }
}

/// Checks that `path` is a libz3 the tools can run on and reads its version: a regular file,
/// a shared library the loader accepts, with `Z3_get_full_version` and every function of
/// [`REQUIRED_SYMBOLS`]. Loads the library into this process (with its own symbols first).
pub fn inspect(path: &Path) -> Result<Library, Error> {
    let metadata = std::fs::metadata(path).map_err(|e| {
        let what = match e.kind() {
            std::io::ErrorKind::NotFound => "no such file".to_string(),
            _ => format!("cannot read: {e}"),
        };
        error(ErrorKind::Missing, path, what)
    })?;
    if !metadata.is_file() {
        return Err(error(ErrorKind::Missing, path, "not a regular file"));
    }
    let canonical = std::fs::canonicalize(path)
        .map_err(|e| error(ErrorKind::Missing, path, format!("cannot resolve: {e}")))?;
    let handle = open(&canonical).map_err(|why| {
        error(
            ErrorKind::NotALibrary,
            path,
            format!("not a shared library the loader accepts: {why}"),
        )
    })?;
    let version = symbol(handle, VERSION_SYMBOL);
    if version.is_null() {
        return Err(error(
            ErrorKind::NotZ3,
            path,
            format!("not a libz3: the library has no {VERSION_SYMBOL}"),
        ));
    }
    // SAFETY: the libz3's own Z3_get_full_version.
    let version = unsafe { call_version(version) };
    let missing: Vec<&str> = REQUIRED_SYMBOLS
        .iter()
        .copied()
        .filter(|name| symbol(handle, name).is_null())
        .collect();
    if !missing.is_empty() {
        // The first few name the gap; a library lacking hundreds is no libz3 for these tools.
        let named = missing.len().min(MAX_NAMED_MISSING);
        let mut list = missing[..named].join(", ");
        if missing.len() > named {
            list.push_str(&format!(" and {} more", missing.len() - named));
        }
        return Err(error(
            ErrorKind::MissingSymbols,
            path,
            format!(
                "Z3 {version} lacks {} function(s) the tools call: {list}",
                missing.len()
            ),
        ));
    }
    Ok(Library {
        path: canonical,
        version,
    })
}

/// The file of the loaded object that holds `address`, canonical (the loader names the path
/// it opened, e.g. a link in a private library folder).
fn file_of(address: *mut libc::c_void) -> Option<PathBuf> {
    // SAFETY: an all-zero Dl_info is a valid value to be filled in.
    let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
    // SAFETY: an address and a place for the answer.
    if unsafe { libc::dladdr(address, &mut info) } == 0 || info.dli_fname.is_null() {
        return None;
    }
    // SAFETY: dladdr filled in a NUL-terminated name owned by the loader.
    let name = unsafe { CStr::from_ptr(info.dli_fname) };
    let file = PathBuf::from(std::ffi::OsStr::from_bytes(name.to_bytes()));
    Some(std::fs::canonicalize(&file).unwrap_or(file))
}

/// The libz3 this process has loaded (through its dynamic section), if any: the file the
/// loader took and its version.
pub fn loaded() -> Option<Library> {
    let address = symbol(libc::RTLD_DEFAULT, VERSION_SYMBOL);
    if address.is_null() {
        return None;
    }
    Some(Library {
        path: file_of(address).unwrap_or_else(|| PathBuf::from("?")),
        // SAFETY: the loaded libz3's Z3_get_full_version.
        version: unsafe { call_version(address) },
    })
}

/// The libz3 a binary would load without `--z3-lib`: the soname its dynamic section names,
/// found as the loader finds it (`LD_LIBRARY_PATH`, the loader cache). For tools that do not
/// link Z3 themselves but run a binary that does (ddtrace runs untrace).
pub fn default_for(binary: &Path) -> Result<Library, Error> {
    let soname = soname_of(binary);
    let handle = open(Path::new(&soname))
        .map_err(|why| error(ErrorKind::NotALibrary, Path::new(&soname), why))?;
    let version = symbol(handle, VERSION_SYMBOL);
    if version.is_null() {
        return Err(error(
            ErrorKind::NotZ3,
            Path::new(&soname),
            format!("not a libz3: the library has no {VERSION_SYMBOL}"),
        ));
    }
    let path = file_of(version).unwrap_or_else(|| PathBuf::from(&soname));
    Ok(Library {
        path,
        // SAFETY: that libz3's own Z3_get_full_version.
        version: unsafe { call_version(version) },
    })
}

/// The libz3 soname `binary` links against ([`DEFAULT_SONAME`] when its dynamic section
/// cannot be read or names none).
pub fn soname_of(binary: &Path) -> String {
    elf::needed(binary)
        .ok()
        .and_then(|names| names.into_iter().find(|n| n.starts_with("libz3.")))
        .unwrap_or_else(|| DEFAULT_SONAME.to_string())
}

/// The library this process was set to run on by [`run_on`]: what its children must be
/// given as `--z3-lib` too. A process-wide fact, like the loaded library itself.
static APPLIED: OnceLock<Library> = OnceLock::new();

/// The library [`run_on`] applied to this process, if any.
pub fn applied() -> Option<&'static Library> {
    APPLIED.get()
}

/// The libz3 this process runs on: the one [`run_on`] applied (named by its file), else the
/// one the loader took.
pub fn running_on() -> Option<Library> {
    applied().cloned().or_else(loaded)
}

/// The `--z3-lib PATH` arguments that make a child tool run on the library this process runs
/// on (none without `--z3-lib`).
pub fn child_args() -> Vec<OsString> {
    applied().map_or_else(Vec::new, |library| {
        vec![FLAG.into(), library.path.clone().into_os_string()]
    })
}

/// Makes this process run on the libz3 at `path`; call it first thing in `main`, before
/// anything uses Z3 and before any thread starts. Answers the library once this process runs
/// on it: at once when the loader already took that file, else after re-executing the binary
/// (this call does not return in the parent then). An error names the file and what is wrong
/// with it, or says which other libz3 the loader took.
pub fn run_on(path: &Path) -> Result<Library, Error> {
    if let Some(applied) = std::env::var_os(ENV_APPLIED) {
        let expected_version = std::env::var(ENV_VERSION).unwrap_or_default();
        // Before the folder goes: the loader names the library by the link in it.
        let took = loaded();
        restore_environment();
        let applied = PathBuf::from(applied);
        if std::fs::canonicalize(path).is_ok_and(|p| p == applied) {
            return check_loaded(path, took, &applied, &expected_version);
        }
        // A marker for another library (inherited from elsewhere): not applied here.
    }
    let library = inspect(path)?;
    if loaded().is_some_and(|l| l.path == library.path) {
        let _ = APPLIED.set(library.clone());
        return Ok(library);
    }
    Err(reexec(path, &library))
}

/// In the re-executed process: whether the library the loader `took` is `applied`.
fn check_loaded(
    path: &Path,
    took: Option<Library>,
    applied: &Path,
    expected_version: &str,
) -> Result<Library, Error> {
    match took {
        Some(library) if library.path == applied => {
            let _ = APPLIED.set(library.clone());
            Ok(library)
        }
        Some(other) => Err(error(
            ErrorKind::OtherLoaded,
            path,
            format!(
                "the loader took {} (Z3 {}) instead of this file (Z3 {expected_version}): \
                 a preloaded libz3 (LD_PRELOAD) or the binary's RPATH takes precedence over \
                 LD_LIBRARY_PATH",
                other.path.display(),
                other.version
            ),
        )),
        None => Err(error(
            ErrorKind::OtherLoaded,
            path,
            "after the re-exec no libz3 is loaded",
        )),
    }
}

/// Removes the private library folder and the markers, and restores `LD_LIBRARY_PATH`: the
/// library is mapped by now, and children must not inherit the path.
fn restore_environment() {
    if let Some(dir) = std::env::var_os(ENV_DIR) {
        // Only the link the parent made, and the folder if that leaves it empty: a marker
        // from elsewhere must not cost anyone a file.
        let dir = PathBuf::from(dir);
        let soname =
            std::env::current_exe().map_or_else(|_| DEFAULT_SONAME.into(), |e| soname_of(&e));
        let link = dir.join(soname);
        if std::fs::symlink_metadata(&link).is_ok_and(|m| m.file_type().is_symlink()) {
            let _ = std::fs::remove_file(&link);
        }
        let _ = std::fs::remove_dir(&dir);
    }
    match std::env::var_os(ENV_SAVED_LIBRARY_PATH) {
        Some(saved) => std::env::set_var("LD_LIBRARY_PATH", saved),
        None => std::env::remove_var("LD_LIBRARY_PATH"),
    }
    for name in [ENV_APPLIED, ENV_VERSION, ENV_DIR, ENV_SAVED_LIBRARY_PATH] {
        std::env::remove_var(name);
    }
}

/// Re-executes this binary with the same arguments on `library`; answers only on failure.
fn reexec(path: &Path, library: &Library) -> Error {
    let setup = |message: String| error(ErrorKind::Setup, path, message);
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => return setup(format!("cannot find the running binary: {e}")),
    };
    let soname = soname_of(&exe);
    // tempfile creates the folder with mode 0700: no other user can swap the link.
    let dir = match tempfile::Builder::new().prefix("z3-lib-").tempdir() {
        Ok(dir) => dir,
        Err(e) => return setup(format!("cannot create a private library folder: {e}")),
    };
    if let Err(e) = std::os::unix::fs::symlink(&library.path, dir.path().join(&soname)) {
        return setup(format!(
            "cannot link {soname} in {}: {e}",
            dir.path().display()
        ));
    }
    let saved = std::env::var_os("LD_LIBRARY_PATH").filter(|p| !p.is_empty());
    let mut library_path = dir.path().as_os_str().to_owned();
    if let Some(saved) = &saved {
        library_path.push(":");
        library_path.push(saved);
    }
    let mut args = std::env::args_os();
    let arg0 = args.next().unwrap_or_else(|| exe.clone().into_os_string());
    let mut command = Command::new(&exe);
    command
        .arg0(arg0)
        .args(args)
        .env("LD_LIBRARY_PATH", library_path)
        .env(ENV_APPLIED, &library.path)
        .env(ENV_VERSION, &library.version)
        .env(ENV_DIR, dir.path());
    match &saved {
        Some(saved) => command.env(ENV_SAVED_LIBRARY_PATH, saved),
        None => command.env_remove(ENV_SAVED_LIBRARY_PATH),
    };
    // exec replaces the process on success; the folder must outlive this process then (the
    // re-executed one removes it), so it is kept here and removed only on failure.
    let dir = dir.keep();
    let failure = command.exec();
    let _ = std::fs::remove_dir_all(&dir);
    setup(format!("cannot re-execute {}: {failure}", exe.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_file_is_named() {
        let e = inspect(Path::new("/nonexistent/libz3.so")).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Missing);
        assert_eq!(
            e.to_string(),
            "--z3-lib /nonexistent/libz3.so: no such file"
        );
    }

    #[test]
    fn a_text_file_is_not_a_library() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notes.txt");
        std::fs::write(&path, "not a library\n").unwrap();
        let e = inspect(&path).unwrap_err();
        assert_eq!(e.kind, ErrorKind::NotALibrary, "{e}");
        assert!(!e.to_string().contains('\n'));
    }

    #[test]
    fn a_folder_is_not_a_library() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(inspect(dir.path()).unwrap_err().kind, ErrorKind::Missing);
    }

    #[test]
    fn libm_is_not_a_libz3() {
        let libm = Path::new("/lib/x86_64-linux-gnu/libm.so.6");
        if !libm.exists() {
            eprintln!("skipped: no {}", libm.display());
            return;
        }
        let e = inspect(libm).unwrap_err();
        assert_eq!(e.kind, ErrorKind::NotZ3, "{e}");
        assert!(e.to_string().contains("libm.so.6"), "{e}");
    }

    /// A library with `Z3_get_full_version` and nothing else, built with the C compiler.
    #[test]
    fn a_libz3_without_the_tools_functions_names_them() {
        let on_path = |p: &str| {
            std::env::var_os("PATH")
                .is_some_and(|v| std::env::split_paths(&v).any(|d| d.join(p).is_file()))
        };
        if !on_path("cc") {
            eprintln!("skipped: no C compiler `cc` on PATH");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let source = dir.path().join("fake.c");
        std::fs::write(
            &source,
            "const char *Z3_get_full_version(void) { return \"0.1.2.3\"; }\n\
             void Z3_mk_config(void) {}\n",
        )
        .unwrap();
        let library = dir.path().join("libfake.so");
        let built = Command::new("cc")
            .args(["-shared", "-fPIC", "-o"])
            .arg(&library)
            .arg(&source)
            .status()
            .unwrap();
        assert!(built.success());
        let e = inspect(&library).unwrap_err();
        assert_eq!(e.kind, ErrorKind::MissingSymbols, "{e}");
        let text = e.to_string();
        // All but the two it defines.
        let lacking = REQUIRED_SYMBOLS.len() - 2;
        assert!(
            text.starts_with(&format!(
                "--z3-lib {}: Z3 0.1.2.3 lacks {lacking} function(s) the tools call: ",
                library.display()
            )),
            "{text}"
        );
        // The first ten missing, in the list's order.
        assert!(text.contains(REQUIRED_SYMBOLS[0]) && !text.contains("Z3_mk_config"));
        assert!(
            text.ends_with(&format!(" and {} more", lacking - 10)),
            "{text}"
        );
        assert!(!text.contains('\n'));
    }

    #[test]
    fn no_libz3_is_loaded_in_a_crate_that_does_not_link_it() {
        assert_eq!(loaded(), None);
        assert!(child_args().is_empty());
    }
}
