//! The binary trace format is pinned: `golden/every_call.trace` (one line of every call, check
//! and result kind) must encode to exactly the bytes of `golden/every_call.btrace` (format 2),
//! and both golden binaries, format 2 and the older format 1 (`every_call.v1.btrace`, no Z3
//! version), must decode to its entries. A failure here means an encoding changed: append new
//! enum variants instead of reordering, or bump `binary::FORMAT` and keep reading the old one.
//!
//! `GOLDEN_WRITE=1 cargo test -p model --test binary_golden` rewrites the format-2 file after
//! a deliberate, appending change (never for format 1).

use model::trace::{self, binary, text};
use std::path::PathBuf;

fn golden(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name)
}

fn source() -> trace::Trace {
    let text = std::fs::read_to_string(golden("every_call.trace")).unwrap();
    text::parse(&text).expect("the golden text trace parses")
}

#[test]
fn the_golden_trace_holds_every_call_and_check() {
    let names: Vec<&str> = source().entries.iter().map(|e| e.call.name()).collect();
    for check in model::Check::names() {
        assert!(
            names.contains(check),
            "{check} missing from every_call.trace"
        );
    }
    for call in [
        "var",
        "forall",
        "exists",
        "simplify_with",
        "from_string",
        "to_smt2",
        "model_eval",
        "release",
        "declare_datatypes",
        "sort_datatype",
        "dt_cons",
        "dt_is",
        "dt_sel",
        "dt_update",
    ] {
        assert!(
            names.contains(&call),
            "{call} missing from every_call.trace"
        );
    }
}

#[test]
fn the_encoding_is_byte_for_byte_the_golden_one() {
    let trace = source();
    let bytes = binary::write_trace(&trace);
    let path = golden("every_call.btrace");
    if std::env::var_os("GOLDEN_WRITE").is_some() {
        std::fs::write(&path, &bytes).unwrap();
    }
    let expected = std::fs::read(&path).unwrap();
    assert!(
        bytes == expected,
        "the binary encoding of every_call.trace changed ({} bytes, golden {}): an enum \
         variant was reordered or removed, or a field changed",
        bytes.len(),
        expected.len()
    );
}

#[test]
fn both_formats_decode_to_the_golden_entries() {
    let trace = source();
    let v2 = trace::parse(&std::fs::read(golden("every_call.btrace")).unwrap()).unwrap();
    assert_eq!(v2.entries, trace.entries);
    assert_eq!(v2.z3_version.as_deref(), Some("4.8.12.0"));
    // Format 1 predates simplify_with, check_literal, check_simplify and every call appended
    // after them (from the quantifiers' `var` on, entry 83: quantifiers, datatypes, context
    // configurations, tactics, goals, Optimize): its trace is the golden one without them.
    let v1 = trace::parse(&std::fs::read(golden("every_call.v1.btrace")).unwrap()).unwrap();
    let older: Vec<_> = trace
        .entries
        .iter()
        .take_while(|e| e.call.name() != "var")
        .filter(|e| {
            !matches!(
                e.call.name(),
                "simplify_with" | "check_literal" | "check_simplify"
            ) && !e.call.is_datatype()
        })
        .cloned()
        .collect();
    assert_eq!(v1.entries, older);
    assert_eq!(v1.z3_version, None);
}

#[test]
fn text_to_binary_to_text_is_lossless() {
    let text_in = std::fs::read_to_string(golden("every_call.trace")).unwrap();
    let bytes = binary::write_trace(&source());
    let back = trace::parse(&bytes).unwrap();
    assert_eq!(
        text::write_recorded_on(&back.entries, back.z3_version.as_deref()),
        text_in
    );
}

#[test]
fn truncated_and_corrupted_binaries_are_errors_not_panics() {
    let bytes = std::fs::read(golden("every_call.btrace")).unwrap();
    for cut in 0..bytes.len() {
        let _ = trace::parse(&bytes[..cut]);
    }
    for i in 0..bytes.len() {
        for flip in [0x01u8, 0x80, 0xff] {
            let mut corrupted = bytes.clone();
            corrupted[i] ^= flip;
            if let Err(e) = trace::parse(&corrupted) {
                assert!(!e.message.contains('\n'), "a multi-line error: {e}");
            }
        }
    }
}
