//! The bodies of the fuzz targets: one function per parser of user files, each taking any
//! bytes and panicking only when a property fails (a panic is the finding).
//!
//! The cargo-fuzz targets of `fuzz/` (nightly, libFuzzer) call these functions, and so does
//! the stable test `model/tests/fuzz_targets.rs`, which runs every target over its seed corpus
//! and a fixed number of deterministic mutations on each `cargo test`, so a panic in a parser
//! shows without a nightly toolchain. [`TARGETS`] lists them by name.

use crate::eval::{check_texts, check_texts_interleaved, Limits};
use crate::smtlib::{infer_sorts, infer_sorts_lenient, Tree};
use crate::trace::{self, binary, text};

/// A fuzz target: its name (the binary's name in `fuzz/`) and its body.
pub struct Target {
    pub name: &'static str,
    pub run: fn(&[u8]),
}

/// Every target, in the order of `fuzz/Cargo.toml`.
pub const TARGETS: &[Target] = &[
    Target {
        name: "trace_text",
        run: trace_text,
    },
    Target {
        name: "trace_binary",
        run: trace_binary,
    },
    Target {
        name: "smtlib_parse",
        run: smtlib_parse,
    },
    Target {
        name: "checkmodel",
        run: checkmodel,
    },
];

/// The text trace reader and the reference state: any bytes give a trace or a located error;
/// a trace that parses writes back to text that parses to the same entries.
pub fn trace_text(data: &[u8]) {
    if let Ok(source) = std::str::from_utf8(data) {
        if let Ok(parsed) = text::parse(source) {
            let written = text::write_recorded_on(&parsed.entries, parsed.z3_version.as_deref());
            let again = text::parse(&written).expect("a written trace parses");
            assert_eq!(again.entries, parsed.entries);
            let mut state = crate::State::new();
            for entry in &parsed.entries {
                if state.apply(&entry.call, entry.ret.as_ref()).is_err() {
                    break;
                }
            }
        }
    }
    let _ = trace::parse(data);
}

/// The binary trace reader on the bytes after the magic: a trace or an error, never an
/// allocation larger than the input; a trace that decodes encodes back to the same entries,
/// and its text form parses to them too (both readers accept the same traces).
pub fn trace_binary(data: &[u8]) {
    let mut bytes = binary::MAGIC.to_vec();
    bytes.extend_from_slice(data);
    if let Ok(parsed) = trace::parse(&bytes) {
        let again = trace::parse(&binary::write_trace(&parsed)).expect("re-encoded decodes");
        assert_eq!(again.entries, parsed.entries);
        let as_text = text::write_recorded_on(&parsed.entries, parsed.z3_version.as_deref());
        let from_text = text::parse(&as_text).expect("the text reader accepts it too");
        assert_eq!(from_text.entries, parsed.entries);
    }
}

/// The SMT-LIB parser, printer and sort inference (strict and lenient): any text parses or
/// fails with a located error; what parses prints to text that parses to the same tree.
pub fn smtlib_parse(data: &[u8]) {
    let Ok(source) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(tree) = Tree::parse(source) {
        let _ = infer_sorts_lenient(&tree);
        let _ = infer_sorts(&tree);
        let printed = tree.print();
        let again = Tree::parse(&printed).expect("printed SMT-LIB parses");
        assert_eq!(again.print(), printed);
    }
}

/// The model checker in both modes: a problem and a response, split at the first NUL byte,
/// give the same verdict in the full and the interleaved mode, or a located one-line error
/// in both. Without a NUL byte every `check-sat` of the problem is answered `sat` with an empty
/// model, so the evaluator still runs on every assertion's ground parts.
pub fn checkmodel(data: &[u8]) {
    let Ok(source) = std::str::from_utf8(data) else {
        return;
    };
    let (problem, response) = match source.split_once('\0') {
        Some((problem, response)) => (problem, response.to_string()),
        None => {
            let answers = source.matches("check-sat").count().max(1);
            (source, "sat\n(model)\n".repeat(answers))
        }
    };
    let outcome = |interleaved: bool| {
        let check = if interleaved {
            check_texts_interleaved
        } else {
            check_texts
        };
        check(
            problem,
            "problem.smt2",
            &response,
            "response",
            Limits::default(),
        )
        .map(|report| report.verdict())
        .map_err(|e| e.to_string())
    };
    let (full, interleaved) = (outcome(false), outcome(true));
    for message in [&full, &interleaved]
        .into_iter()
        .filter_map(|o| o.as_ref().err())
    {
        assert_eq!(message.lines().count(), 1, "a multi-line error: {message}");
    }
    // The interleaved mode reads the whole problem for its scopes before it evaluates, so of
    // two errors in a problem the modes may name different ones; the verdicts must agree.
    match (&full, &interleaved) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "the modes give different verdicts"),
        (Err(_), Err(_)) => {}
        _ => panic!("one mode fails and the other does not: {full:?} / {interleaved:?}"),
    }
}
