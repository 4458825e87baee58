//! Z3's term, symbol and sort makers of `traces/terms.trace` and `traces/term_refusals.trace`
//! end to end: the makers replay on both Z3s, each judged as it is made (a wrong answer,
//! injected, is a read-back finding on both); what 4.8.12 refuses replays as its refusal
//! there, and a release without `Z3_mk_set_has_size` refuses the trace before any call runs;
//! a string written as bytes reads back as those bytes (`check_literal`).

use e2e::{example, other_z3, replay, stderr};
use std::path::Path;

#[test]
fn the_term_makers_replay_and_their_wrong_answers_are_findings_on_both_z3s() {
    let trace = example("terms.trace");
    let lib = other_z3("the_term_makers_replay_and_their_wrong_answers_are_findings_on_both_z3s");
    let libs: Vec<Option<&Path>> = std::iter::once(None)
        .chain(lib.as_deref().map(Some))
        .collect();
    for lib in libs {
        let clean = replay(&trace, lib, &[]);
        assert_eq!(clean.status.code(), Some(0), "{lib:?}: {}", stderr(&clean));
        let out = replay(&trace, lib, &[("UNTRACE_INJECT", "wrong-read")]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(5), "{lib:?}: {err}");
        // The first judged maker is the integer-named constant.
        assert!(err.contains("terms.trace:23:"), "{lib:?}: {err}");
        assert!(err.contains("signature: read-back|"), "{lib:?}: {err}");
    }
}

#[test]
fn what_4_8_12_refuses_replays_there_and_a_missing_maker_is_refused_elsewhere() {
    let trace = example("term_refusals.trace");
    let out = replay(&trace, None, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let Some(lib) =
        other_z3("what_4_8_12_refuses_replays_there_and_a_missing_maker_is_refused_elsewhere")
    else {
        return;
    };
    let out = replay(&trace, Some(&lib), &[]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains(
            "term_refusals.trace:17: the trace calls Z3_mk_set_has_size, which the loaded"
        ),
        "{err}"
    );
}

#[test]
fn string_literals_written_as_bytes_read_back_as_those_bytes() {
    let trace = example("literals.trace");
    let out = replay(&trace, None, &[("UNTRACE_INJECT", "wrong-numeral")]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(5), "{err}");
    let lib = other_z3("string_literals_written_as_bytes_read_back_as_those_bytes");
    if let Some(lib) = lib {
        let out = replay(&trace, Some(&lib), &[]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    }
}
