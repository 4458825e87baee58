//! The `; z3 VERSION` line right after the text header: read into `Trace::z3_version` only
//! there and only in its exact form, kept by the text writer, absent from binary traces.

use model::trace;

#[test]
fn the_z3_version_comment_right_after_the_header_is_read() {
    let check = |text: &str, expected: Option<&str>| {
        let t = trace::parse(text.as_bytes()).expect("valid");
        assert_eq!(t.z3_version.as_deref(), expected, "{text:?}");
    };
    check(
        "z3-trace 1\n; z3 4.8.12.0\nsort_int\nreturn s1\n",
        Some("4.8.12.0"),
    );
    check(
        "; a\nz3-trace 1\n; z3 5.4.1.0  \r\nsort_int\nreturn s1\n",
        Some("5.4.1.0"),
    );
    // Only directly after the header, and only the exact form.
    check("z3-trace 1\n\n; z3 4.8.12.0\nsort_int\nreturn s1\n", None);
    check("z3-trace 1\nsort_int\nreturn s1\n; z3 4.8.12.0\n", None);
    check("z3-trace 1\n; z3: 4.8.12.0\nsort_int\nreturn s1\n", None);
    check("z3-trace 1\n; z3 4.8 and more\nsort_int\nreturn s1\n", None);
    check("z3-trace 1\n", None);
}

#[test]
fn a_recorded_version_survives_writing_and_parsing() {
    let t = trace::parse(b"z3-trace 1\nsort_int\nreturn s1\n").unwrap();
    let text = trace::text::write_recorded_on(&t.entries, Some("4.8.12.0"));
    assert_eq!(text, "z3-trace 1\n; z3 4.8.12.0\nsort_int\nreturn s1\n");
    let back = trace::parse(text.as_bytes()).unwrap();
    assert_eq!(back.z3_version.as_deref(), Some("4.8.12.0"));
    assert_eq!(back.entries, t.entries);
    assert_eq!(back.lines, vec![3]);
    // The binary format (2) keeps it too.
    let binary = trace::parse(&trace::binary::write_trace(&back)).unwrap();
    assert_eq!(binary.z3_version.as_deref(), Some("4.8.12.0"));
    assert_eq!(binary.entries, t.entries);
}
