//! Reading and writing traces as ddtrace needs them: [`Format`] (text or binary, kept from the
//! input), [`read`] (which also accepts a trace cut short by a crash) and [`render`].
//!
//! A recorder writes and flushes each call line before the call runs, so a crash inside a call
//! that creates an object leaves that call as the last line without its `return` line. The
//! strict parser of `model` rejects such a trace; [`read`] keeps the call with `ret: None`,
//! because that last call is usually the failure being minimized.

use model::trace::{binary, text, ErrorKind, ReadError};
use model::{Entry, Trace};

/// The on-disk format of a trace; the output keeps the input's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Binary,
}

impl Format {
    /// The format `bytes` are in (binary traces start with a magic).
    pub fn detect(bytes: &[u8]) -> Format {
        if bytes.starts_with(binary::MAGIC) {
            Format::Binary
        } else {
            Format::Text
        }
    }
}

/// Renders entries in `format`.
pub fn render(entries: &[Entry], format: Format) -> Vec<u8> {
    match format {
        Format::Text => text::write(entries).into_bytes(),
        Format::Binary => binary::write(entries),
    }
}

/// Lines of the text form of `entries` (header, calls, `return` lines): the size measure
/// ddtrace reports, whatever the format.
pub fn line_count(entries: &[Entry]) -> usize {
    1 + entries.len() + entries.iter().filter(|e| e.ret.is_some()).count()
}

/// Parses a trace in either format; a text trace may end with an object-creating call
/// without its `return` line (see the module documentation).
pub fn read(bytes: &[u8]) -> Result<(Vec<Entry>, Format), ReadError> {
    let format = Format::detect(bytes);
    match model::trace::parse(bytes) {
        Ok(trace) => Ok((trace.entries, format)),
        Err(err) if format == Format::Text && err.kind == ErrorKind::Return => {
            read_cut_short(bytes, &err)
                .ok_or(err)
                .map(|t| (t.entries, format))
        }
        Err(err) => Err(err),
    }
}

/// Retries a text trace whose error is a missing `return` line on its last line: a
/// placeholder `return` line is added so that the call parses, then its result is dropped.
fn read_cut_short(bytes: &[u8], err: &ReadError) -> Option<Trace> {
    let source = std::str::from_utf8(bytes).ok()?;
    let last_line = source
        .lines()
        .enumerate()
        .filter(|(_, l)| {
            let l = l.trim_start();
            !l.is_empty() && !l.starts_with(';')
        })
        .map(|(i, _)| i as u32 + 1)
        .last()?;
    if err.line != last_line {
        return None;
    }
    // The placeholder must have the kind of id the call creates; only one of them parses.
    ["s0", "t0", "f0", "z0", "m0"].iter().find_map(|id| {
        let mut patched = source.trim_end().to_string();
        patched.push_str("\nreturn ");
        patched.push_str(id);
        patched.push('\n');
        let mut trace = text::parse(&patched).ok()?;
        trace.entries.last_mut()?.ret = None;
        Some(trace)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRACE: &str =
        "z3-trace 1\nsort_bv 8\nreturn s1\nconst s1 \"x\"\nreturn t1\nbvadd t1 t1\n";

    #[test]
    fn reads_a_trace_cut_short_by_a_crash() {
        let (entries, format) = read(TRACE.as_bytes()).expect("lenient read");
        assert_eq!(format, Format::Text);
        assert_eq!(entries.len(), 3);
        assert_eq!(entries[2].call.name(), "bvadd");
        assert_eq!(entries[2].ret, None);
        // Written back, the last call again has no `return` line.
        let back = String::from_utf8(render(&entries, Format::Text)).unwrap();
        assert_eq!(back, TRACE);
        assert_eq!(line_count(&entries), 6);
    }

    #[test]
    fn a_missing_return_in_the_middle_is_still_an_error() {
        let bad = "z3-trace 1\nsort_bv 8\nsort_int\nreturn s2\n";
        let err = read(bad.as_bytes()).unwrap_err();
        assert_eq!(err.kind, ErrorKind::Return);
        assert_eq!(err.line, 2);
    }

    #[test]
    fn binary_round_trip_keeps_the_format() {
        let (entries, _) = read(TRACE.as_bytes()).unwrap();
        let bytes = render(&entries, Format::Binary);
        let (again, format) = read(&bytes).unwrap();
        assert_eq!(format, Format::Binary);
        assert_eq!(again, entries);
    }
}
