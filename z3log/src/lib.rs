//! z3log: Z3's own API logs (`Z3_open_log` in C, `z3.open_log` in Python), read and replayed
//! by function name, so that a log from one Z3 release replays on another.
//!
//! - [`parse`]: the reader, bytes to a [`Log`] or `LINE: message`; [`parse::looks_like_log`]
//!   recognizes a log by its content.
//! - [`log`]: the log's parts ([`Log`], [`Entry`], [`Call`], [`Value`]) and the writer.
//! - [`table`]: per Z3 release, what each call number is ([`Table`], [`Function`]), from the
//!   data files `tables/VERSION.tsv` that `tables/generate.py` makes from the release's API
//!   headers.
//! - [`replay`]: resolves a log against the loaded libz3 ([`replay::plan`]) and makes its
//!   calls through libffi ([`replay::Replayer`]). This crate links no Z3: it finds the
//!   functions in whatever libz3 the process has loaded.
//!
//! [`load`] ties reading, parsing and the table together for the tools; [`run`] replays.

pub mod lift;
pub mod log;
pub mod parse;
pub mod replay;
pub mod table;

pub use log::{Addr, Call, Entry, EntryKind, Log, Symbol, Value};
pub use table::{Function, Table};

use std::path::Path;

/// A log read from a file with the table of the release that wrote it.
pub struct Loaded {
    pub log: Log,
    pub table: Table,
}

/// Why a log cannot be loaded: the message, `FILE:LINE: ...` or `FILE: ...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    pub message: String,
    /// An unreadable file (not a malformed log).
    pub io: bool,
}

/// Whether the file at `path` starts like a log (see [`parse::looks_like_log`]); an
/// unreadable file is not.
pub fn is_log_file(path: &Path) -> bool {
    use std::io::Read;
    let mut head = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(4096).read_to_end(&mut head))
        .is_ok()
        && parse::looks_like_log(&head)
}

/// Whether the file at `path` starts with a log's `V` line (see
/// [`parse::starts_with_version`]); an unreadable file does not.
pub fn is_versioned_log_file(path: &Path) -> bool {
    use std::io::Read;
    let mut head = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(4096).read_to_end(&mut head))
        .is_ok()
        && parse::starts_with_version(&head)
}

/// Reads and parses the log at `path` and finds its release's table.
pub fn load(path: &Path) -> Result<Loaded, LoadError> {
    let name = path.display();
    let bytes = std::fs::read(path).map_err(|e| LoadError {
        message: format!("{name}: cannot read: {e}"),
        io: true,
    })?;
    let malformed = |message: String| LoadError { message, io: false };
    let log = parse::parse(&bytes).map_err(|e| malformed(format!("{name}:{e}")))?;
    let version = log.version.clone().ok_or_else(|| {
        malformed(format!(
            "{name}:1: no `V` line: the log does not say which Z3 wrote it"
        ))
    })?;
    let table = Table::for_version(&version).map_err(|e| malformed(format!("{name}: {e}")))?;
    Ok(Loaded { log, table })
}

/// How a replay of a log ended (short of a crash, which ends the process).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunEnd {
    /// Calls made (skipped ones included).
    pub executed: usize,
    /// A call this replay could not make: `(line, message)`.
    pub error: Option<(u32, String)>,
    /// Z3 ran out of memory in the call on this line (function name).
    pub memout: Option<(u32, String)>,
}

/// Replays the calls of a planned log in order, telling `on_call` the index of each entry and
/// the function's name before the call (for a crash report); stops after the entry on line
/// `stop_after`.
pub fn run(
    loaded: &Loaded,
    plan: &replay::Plan,
    stop_after: Option<u32>,
    on_call: &mut dyn FnMut(usize, &str),
) -> RunEnd {
    let mut replayer = replay::Replayer::new();
    let mut executed = 0;
    for (i, (entry, step)) in loaded.log.entries.iter().zip(&plan.steps).enumerate() {
        if stop_after.is_some_and(|n| entry.line > n) {
            break;
        }
        let EntryKind::Call(call) = &entry.kind else {
            continue;
        };
        let name = match step {
            replay::Step::Call { function, .. } | replay::Step::Skip { function } => {
                &*function.name
            }
            replay::Step::Message => "",
        };
        on_call(i, name);
        if let Err(message) = replayer.run(step, call) {
            return RunEnd {
                executed,
                error: Some((entry.line, message)),
                memout: None,
            };
        }
        executed += 1;
        if replayer.out_of_memory() {
            return RunEnd {
                executed,
                error: None,
                memout: Some((entry.line, name.to_string())),
            };
        }
    }
    RunEnd {
        executed,
        error: None,
        memout: None,
    }
}
