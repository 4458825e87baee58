//! untrace: replays Z3 API traces.
//!
//! - [`executor`]: the one executor of API calls, shared with mbt.
//! - [`cli`]: the replay command line of `untrace` and `mbt replay`, and the [`cli::Replayer`]
//!   through which every tool starts replays of its own build.
//! - [`crash`]: names where in libz3 a fatal signal struck.
//! - [`supervise`]: runs a replay in a child process and classifies how it ended.
//! - [`smt2`]: writes a trace as an SMT-LIB script where the calls allow it.
//! - [`repro`]: reproducers without this suite: C, Python, Z3 API logs, SMT-LIB.
//! - [`replay`]: reads a trace file and replays it, with the exit codes of the binary.
//! - [`differential`]: compares a replay with another libz3 or another solver binary.
//! - [`profile`]: opt-in timings of calls, fuzzer actions and rounds (`MBT_PROFILE=FILE`).
//! - [`z3_log`]: replays Z3's own API logs (`Z3_open_log`) through the `z3log` crate, in a
//!   child process as for traces.
//! - [`z3_version`]: the full version of the libz3 this process runs on (which `--z3-lib`,
//!   through the `z3lib` crate, may have chosen).

pub mod cli;
pub mod crash;
pub mod differential;
pub mod executor;
pub mod profile;

pub use executor::{ExecConfig, ExecError, Executor};
pub mod replay;
pub mod repro;
pub mod smt2;
pub mod supervise;
pub mod z3_log;

/// The full version of the loaded libz3, e.g. `4.8.12.0` (`Z3_get_full_version`): what traces
/// record in their `; z3 VERSION` line and the tools print.
pub fn z3_version() -> String {
    // SAFETY: Z3 returns a static NUL-terminated string it owns.
    let text = unsafe { z3_sys::Z3_get_full_version() };
    if text.is_null() {
        return "unknown".into();
    }
    // SAFETY: non-null, NUL-terminated, static.
    unsafe { std::ffi::CStr::from_ptr(text) }
        .to_string_lossy()
        .into_owned()
}
