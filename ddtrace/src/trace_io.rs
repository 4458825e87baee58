//! Reading and writing traces as ddtrace needs them: [`Format`] (text or binary, kept from the
//! input), [`read`] and [`render`].

use model::trace::{binary, text, ReadError};
use model::Entry;

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
    render_recorded_on(entries, format, None)
}

/// Renders entries in `format` with the version of the Z3 they were recorded on (the text
/// form's `; z3 VERSION` line, the binary header's field), so that a minimized trace still
/// says where it comes from.
pub fn render_recorded_on(entries: &[Entry], format: Format, z3_version: Option<&str>) -> Vec<u8> {
    match format {
        Format::Text => text::write_recorded_on(entries, z3_version).into_bytes(),
        Format::Binary => binary::write_trace(&model::trace::Trace {
            z3_version: z3_version.map(str::to_string),
            ..model::trace::Trace::from_entries(entries.to_vec())
        }),
    }
}

/// Lines of the text form of `entries` (header, calls, `return` lines): the size measure
/// ddtrace reports, whatever the format.
pub fn line_count(entries: &[Entry]) -> usize {
    1 + entries.len() + entries.iter().filter(|e| e.ret.is_some()).count()
}

/// Parses a trace in either format (a text trace may end with an object-creating call
/// without its `return` line: what a crash inside that call leaves).
pub fn read(bytes: &[u8]) -> Result<(Vec<Entry>, Format), ReadError> {
    let format = Format::detect(bytes);
    model::trace::parse(bytes).map(|trace| (trace.entries, format))
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::trace::ErrorKind;

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
