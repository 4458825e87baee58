//! [`EngineError`]: everything that stops a reduction before it is done, and the exit code
//! each one maps to ([`exit_code`]). The codes are documented in `ddsmt --help` and the README:
//!
//! | code | meaning |
//! | ---- | ------- |
//! | 0    | reduction finished (the output file holds the result) |
//! | 1    | input/output error, or the input cannot be parsed |
//! | 2    | bad command line (also: the output is the input) |
//! | 3    | the command (or cross-check command) cannot be started |
//! | 130  | interrupted by SIGINT (the output file holds the best result so far) |
//! | 143  | interrupted by SIGTERM (likewise) |

use std::fmt;

/// Exit code: finished.
pub const EXIT_OK: i32 = 0;
/// Exit code: input/output or parse error.
pub const EXIT_IO: i32 = 1;
/// Exit code: bad command line (the code clap uses).
pub const EXIT_USAGE: i32 = 2;
/// Exit code: the command cannot be started.
pub const EXIT_COMMAND: i32 = 3;
/// Exit code: the input shows no failure to keep (ddtrace: its replay succeeds).
pub const EXIT_NOT_FAILING: i32 = 4;

/// Why a reduction could not run or finish.
#[derive(Debug)]
pub enum EngineError {
    /// Reading or writing a file failed; the string names the file.
    Io(String),
    /// The command cannot be started (missing binary, no permission, ...).
    Command(String),
    /// The input is not valid for the reducer (e.g. a parse error as FILE:LINE:COL: message).
    Input(String),
    /// Stopped by a signal (SIGINT = 2, SIGTERM = 15).
    Interrupted(i32),
    /// A request that cannot be carried out as asked (e.g. the output is the input).
    Usage(String),
    /// The golden run shows no failure, so there is nothing a reduction could keep.
    NotFailing(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Io(m)
            | EngineError::Command(m)
            | EngineError::Input(m)
            | EngineError::Usage(m)
            | EngineError::NotFailing(m) => f.write_str(m),
            EngineError::Interrupted(sig) => write!(f, "interrupted by signal {sig}"),
        }
    }
}

impl std::error::Error for EngineError {}

/// The process exit code for `err`.
pub fn exit_code(err: &EngineError) -> i32 {
    match err {
        EngineError::Io(_) | EngineError::Input(_) => EXIT_IO,
        EngineError::Command(_) => EXIT_COMMAND,
        EngineError::Usage(_) => EXIT_USAGE,
        EngineError::Interrupted(sig) => 128 + sig,
        EngineError::NotFailing(_) => EXIT_NOT_FAILING,
    }
}
