//! The trace format, text and binary.
//!
//! A [`Trace`] is a list of [`Entry`]s (a call and its recorded result) with the source line
//! of each call, so that every later error can name `file:line`. The text format
//! ([`text`]) is the one people read and minimizers cut; the binary format ([`binary`]) is a
//! compact, lossless `bincode` encoding of the same entries. `docs/trace-format.md` is the
//! reference.

pub mod binary;
pub mod text;

use crate::call::Entry;
use std::fmt;

/// The version this crate writes and reads.
pub const VERSION: u32 = 1;

/// A parsed trace.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    pub entries: Vec<Entry>,
    /// For each entry, the 1-based line of its call (text) or its 1-based entry number (binary).
    pub lines: Vec<u32>,
    /// The full version of the Z3 the trace was recorded on, from the `; z3 VERSION` comment
    /// right after the text header; `None` when the trace does not say (binary traces never do).
    pub z3_version: Option<String>,
}

impl Trace {
    pub fn from_entries(entries: Vec<Entry>) -> Trace {
        let lines = (1..=entries.len() as u32).collect();
        Trace {
            entries,
            lines,
            z3_version: None,
        }
    }
}

/// The rules on entries that both readers enforce, so that they accept exactly the same
/// traces: a recorded result fits its call (an id of the kind the call creates, an answer for
/// a check, a value for an evaluation; `return error` fits any call), and only the last call
/// may lack the result that names the object it creates (a recorder writes each call line
/// before the call runs, so a crash leaves the crashing call last without one); an operation
/// has its number of indices and an arity it admits.
pub fn validate(trace: &Trace) -> Result<(), ReadError> {
    use crate::call::Ret;
    let last = trace.entries.len().saturating_sub(1);
    for (i, entry) in trace.entries.iter().enumerate() {
        let line = trace.lines.get(i).copied().unwrap_or(i as u32 + 1);
        let fail = |message: String| ReadError {
            kind: ErrorKind::Return,
            line,
            column: 1,
            message,
        };
        let kind = entry.call.ret_kind();
        let name = entry.call.name();
        // The text reader reads exactly the operation's indices and checks its arity while
        // parsing; a decoded binary entry has vectors of any length, so the same rule is here.
        if let crate::call::Call::Op { op, indices, args } = &entry.call {
            let spec = op.spec();
            if indices.len() != spec.indices || !spec.arity.admits(args.len()) {
                return Err(ReadError {
                    kind: ErrorKind::Arity,
                    line,
                    column: 1,
                    message: format!(
                        "`{name}` takes {} indices and {} term arguments, got {} and {}",
                        spec.indices,
                        match spec.arity {
                            crate::ops::Arity::Fixed(k) => k.to_string(),
                            crate::ops::Arity::AtLeast(k) => format!("at least {k}"),
                        },
                        indices.len(),
                        args.len()
                    ),
                });
            }
        }
        match &entry.ret {
            None => {
                let creates = kind.makes_object();
                if creates && i != last {
                    return Err(fail(format!(
                        "`{name}` creates an object but no `return` line names it"
                    )));
                }
            }
            Some(Ret::Error(_)) => {}
            Some(ret) => {
                let fits = kind.admits(ret);
                if !fits {
                    return Err(fail(format!(
                        "`{name}` cannot return `{}`",
                        text::format_ret(ret)
                    )));
                }
            }
        }
    }
    Ok(())
}

/// What went wrong while reading a trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The version header is missing or names another version.
    Header,
    /// A word that is no call name.
    UnknownCall,
    /// Wrong number of arguments.
    Arity,
    /// An argument of the wrong form (an id where a number belongs, ...).
    Argument,
    BadNumeral,
    BadString,
    /// A `return` line that does not fit its call, or is missing.
    Return,
    /// Not a bincode trace.
    Binary,
}

/// A located error: `line:column: message`. The caller adds the file name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    pub kind: ErrorKind,
    pub line: u32,
    pub column: u32,
    pub message: String,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for ReadError {}

/// Reads a trace in either format, told apart by the binary magic.
pub fn parse(bytes: &[u8]) -> Result<Trace, ReadError> {
    if bytes.starts_with(binary::MAGIC) {
        binary::parse(bytes)
    } else {
        match std::str::from_utf8(bytes) {
            Ok(text) => text::parse(text),
            Err(e) => {
                let before = &bytes[..e.valid_up_to()];
                let line = before.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
                let column = (before.len()
                    - before
                        .iter()
                        .rposition(|&b| b == b'\n')
                        .map_or(0, |p| p + 1)) as u32
                    + 1;
                Err(ReadError {
                    kind: ErrorKind::Binary,
                    line,
                    column,
                    message: "neither a text trace (invalid UTF-8) nor a binary trace (no magic)"
                        .into(),
                })
            }
        }
    }
}
