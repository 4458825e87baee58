//! Reading a trace file and replaying it: the work of the `untrace` binary as a library.
//!
//! [`replay_file`] reads a text or binary trace, runs every entry through the [`Executor`]
//! and answers an [`Outcome`] with the documented exit code and a one-line message that
//! names `FILE:LINE`. [`Exit`] lists the exit codes.

use crate::executor::{ExecConfig, ExecError, Executor};
use model::trace::{self, Trace};
use std::path::Path;

/// The exit codes of `untrace` (documented in `--help` and untrace/README.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Replayed, and every recorded result matched.
    Ok = 0,
    /// A replayed result differs from the recorded one.
    Mismatch = 1,
    /// Usage error, unreadable or unwritable file.
    Usage = 2,
    /// Malformed or unsupported trace.
    Malformed = 3,
    /// Z3 reported an API error.
    Z3 = 4,
}

/// How a replay ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub exit: Exit,
    /// One line, `FILE:LINE[:COL]: ...`; empty on success.
    pub message: String,
    /// Entries executed.
    pub executed: usize,
}

/// Options of a replay.
#[derive(Clone, Debug, Default)]
pub struct ReplayOptions {
    pub config: ExecConfig,
    /// Execute only the calls on lines `<= stop_after`.
    pub stop_after: Option<u32>,
}

/// Reads a trace file (either format); errors are `(exit, message)`.
pub fn read_trace(path: &Path) -> Result<Trace, (Exit, String)> {
    let name = path.display();
    let bytes =
        std::fs::read(path).map_err(|e| (Exit::Usage, format!("{name}: cannot read: {e}")))?;
    trace::parse(&bytes).map_err(|e| (Exit::Malformed, format!("{name}:{e}")))
}

/// Replays a parsed trace; `name` is the file name used in messages.
pub fn replay_trace(name: &str, trace: &Trace, options: &ReplayOptions) -> Outcome {
    let mut executor = Executor::new(options.config.clone());
    let mut executed = 0;
    for (entry, &line) in trace.entries.iter().zip(&trace.lines) {
        if options.stop_after.is_some_and(|n| line > n) {
            break;
        }
        if let Err(error) = executor.replay(entry) {
            let exit = match error {
                ExecError::Malformed(_) => Exit::Malformed,
                ExecError::Mismatch { .. } => Exit::Mismatch,
                ExecError::Z3(_) => Exit::Z3,
                ExecError::Io(_) => Exit::Usage,
            };
            return Outcome {
                exit,
                message: format!("{name}:{line}: {error}"),
                executed,
            };
        }
        executed += 1;
    }
    Outcome {
        exit: Exit::Ok,
        message: String::new(),
        executed,
    }
}

/// Reads and replays a trace file.
pub fn replay_file(path: &Path, options: &ReplayOptions) -> Outcome {
    match read_trace(path) {
        Ok(trace) => replay_trace(&path.display().to_string(), &trace, options),
        Err((exit, message)) => Outcome {
            exit,
            message,
            executed: 0,
        },
    }
}
