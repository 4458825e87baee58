//! The read-backs (`read`, `read_sort`, `read_rcf`, `read_eq`, `read_stats`) end to end: the example
//! traces replay on both Z3s, a trace of functions only newer Z3s have is refused by 4.8.12
//! before any call runs, and a wrong read-back (injected) is a finding that replays, that
//! ddtrace minimizes and that a campaign meets.

use e2e::{example, other_z3, replay, run, stderr, summary};
use std::path::Path;

#[test]
fn read_backs_replay_on_the_linked_z3() {
    let out = replay(&example("reads.trace"), None, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn a_function_the_loaded_z3_lacks_is_refused_before_any_call() {
    let trace = e2e::repo_root().join("traces/newer/reads.trace");
    let out = replay(&trace, None, &[]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains(
            "reads.trace:18: the trace calls Z3_get_string_length, which the loaded libz3"
        ),
        "{err}"
    );
    let trace = e2e::repo_root().join("traces/newer/rcf-reads.trace");
    let out = replay(&trace, None, &[]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("rcf-reads.trace:8: the trace calls Z3_rcf_is_rational, which the loaded"),
        "{err}"
    );
    let trace = e2e::repo_root().join("traces/newer/congruence.trace");
    let out = replay(&trace, None, &[]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("congruence.trace:30: the trace calls Z3_solver_congruence_root, which"),
        "{err}"
    );
    let trace = e2e::repo_root().join("traces/newer/simplifier.trace");
    let out = replay(&trace, None, &[]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("simplifier.trace:36: the trace calls Z3_get_num_simplifiers, which"),
        "{err}"
    );
    let trace = e2e::repo_root().join("traces/newer/bv-to-str.trace");
    let out = replay(&trace, None, &[]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("bv-to-str.trace:13: the trace calls Z3_mk_sbv_to_str, which the loaded"),
        "{err}"
    );
    let trace = e2e::repo_root().join("traces/newer/propagator.trace");
    let out = replay(&trace, None, &[]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("propagator.trace:73: the trace calls Z3_solver_propagate_on_binding, which"),
        "{err}"
    );
    let trace = e2e::repo_root().join("traces/newer/initial-value.trace");
    let out = replay(&trace, None, &[]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("initial-value.trace:27: the trace calls Z3_solver_set_initial_value, whi"),
        "{err}"
    );
    let trace = e2e::repo_root().join("traces/newer/parser-context.trace");
    let out = replay(&trace, None, &[]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("parser-context.trace:34: the trace calls Z3_mk_parser_context, which the"),
        "{err}"
    );
    let trace = e2e::repo_root().join("traces/newer/rcf-sign-conditions.trace");
    let out = replay(&trace, None, &[]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("rcf-sign-conditions.trace:26: the trace calls Z3_rcf_is_algebraic, which"),
        "{err}"
    );
    let trace = e2e::repo_root().join("traces/newer/chars.trace");
    let out = replay(&trace, None, &[]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("chars.trace:11: the trace calls Z3_mk_char_sort, which the loaded libz3"),
        "{err}"
    );
}

#[test]
fn an_algebraic_polynomial_finding_replays_and_minimizes_on_both_z3s() {
    // `wrong-rcf` reads the signs of `Z3_algebraic_eval` negated in `check_algebraic_poly`.
    let trace = example("algebraic.trace");
    let inject = [("UNTRACE_INJECT", "wrong-rcf")];
    let signature = "signature: rcf|check_algebraic_poly: eval at a rational departs";
    let lib = other_z3("an_algebraic_polynomial_finding_replays_and_minimizes_on_both_z3s");
    let libs: Vec<Option<&Path>> = std::iter::once(None)
        .chain(lib.as_deref().map(Some))
        .collect();
    for lib in libs {
        let clean = replay(&trace, lib, &[]);
        assert_eq!(clean.status.code(), Some(0), "{lib:?}: {}", stderr(&clean));
        let out = replay(&trace, lib, &inject);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(5), "{lib:?}: {err}");
        assert!(err.contains(signature), "{lib:?}: {err}");
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let min = dir.path().join("min.trace");
    let out = run(
        "ddtrace",
        &[
            "-j".as_ref(),
            "2".as_ref(),
            trace.as_os_str(),
            min.as_os_str(),
        ],
        &inject,
    );
    assert!(out.status.success(), "ddtrace: {}", stderr(&out));
    let text = std::fs::read_to_string(&min).unwrap();
    let calls = text
        .lines()
        .filter(|l| !l.starts_with(';') && !l.starts_with("return") && !l.starts_with("z3-trace"))
        .count();
    // A sort, a literal and the check.
    assert!(calls <= 3, "{text}");
    let again = replay(&min, None, &inject);
    assert!(stderr(&again).contains(signature), "{}", stderr(&again));
}

#[test]
#[cfg_attr(no_other_z3, ignore = "no second Z3: run .ci/install-deps")]
fn read_backs_replay_on_the_other_z3_with_its_newer_functions() {
    let Some(lib) = other_z3("read_backs_replay_on_the_other_z3_with_its_newer_functions") else {
        return;
    };
    for trace in [
        example("reads.trace"),
        e2e::repo_root().join("traces/newer/reads.trace"),
        e2e::repo_root().join("traces/newer/rcf-reads.trace"),
        e2e::repo_root().join("traces/newer/congruence.trace"),
        e2e::repo_root().join("traces/newer/simplifier.trace"),
        e2e::repo_root().join("traces/newer/bv-to-str.trace"),
        e2e::repo_root().join("traces/newer/initial-value.trace"),
        e2e::repo_root().join("traces/newer/parser-context.trace"),
        e2e::repo_root().join("traces/newer/chars.trace"),
        e2e::repo_root().join("traces/newer/rcf-sign-conditions.trace"),
        e2e::repo_root().join("traces/newer/propagator.trace"),
    ] {
        let out = replay(&trace, Some(&lib), &[]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}: {}",
            trace.display(),
            stderr(&out)
        );
    }
}

#[test]
fn a_wrong_read_back_is_a_finding_that_replays_and_minimizes() {
    let inject = [("UNTRACE_INJECT", "wrong-read")];
    let trace = example("reads.trace");
    let out = replay(&trace, None, &inject);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(5), "{err}");
    let signature = "signature: read-back|Z3_get_numeral_string of Int";
    assert!(err.contains(signature), "{err}");

    let dir = tempfile::tempdir().expect("temp dir");
    let min = dir.path().join("min.trace");
    let out = run(
        "ddtrace",
        &[
            "-j".as_ref(),
            "2".as_ref(),
            trace.as_os_str(),
            min.as_os_str(),
        ],
        &inject,
    );
    assert!(out.status.success(), "ddtrace: {}", stderr(&out));
    let text = std::fs::read_to_string(&min).unwrap();
    let calls = text
        .lines()
        .filter(|l| !l.starts_with(';') && !l.starts_with("return") && !l.starts_with("z3-trace"))
        .count();
    // A sort, a literal and the read.
    assert!(calls <= 3, "{text}");
    let again = replay(&min, None, &inject);
    assert_eq!(again.status.code(), Some(5), "{}", stderr(&again));
    assert!(
        stderr(&again).contains("signature: read-back|"),
        "{}",
        stderr(&again)
    );
    let clean = replay(&min, None, &[]);
    assert_eq!(clean.status.code(), Some(0), "{}", stderr(&clean));
}

#[test]
fn a_campaign_meets_a_wrong_read_back() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out_dir = dir.path().join("out");
    let out = run(
        "mbt",
        &[
            "--seed".as_ref(),
            "1".as_ref(),
            "--rounds".as_ref(),
            "12".as_ref(),
            "--jobs".as_ref(),
            "1".as_ref(),
            "--theories".as_ref(),
            "arith".as_ref(),
            "-q".as_ref(),
            "--out".as_ref(),
            out_dir.as_os_str(),
        ],
        &[("UNTRACE_INJECT", "wrong-read")],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let s = summary(&out_dir);
    let found = s["failure_list"]
        .as_array()
        .expect("failure_list")
        .iter()
        .any(|f| {
            f["signature"]
                .as_str()
                .is_some_and(|x| x.starts_with("read-back|"))
        });
    assert!(found, "{}", s["failure_list"]);
}

#[test]
fn datatypes_of_special_shapes_replay_and_their_tuple_reads_are_judged() {
    let trace = example("datatype_shapes.trace");
    let clean = replay(&trace, None, &[]);
    assert_eq!(clean.status.code(), Some(0), "{}", stderr(&clean));
    if let Some(lib) =
        other_z3("datatypes_of_special_shapes_replay_and_their_tuple_reads_are_judged")
    {
        let other = replay(&trace, Some(&lib), &[]);
        assert_eq!(other.status.code(), Some(0), "{}", stderr(&other));
    }
    let out = replay(&trace, None, &[("UNTRACE_INJECT", "wrong-read")]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(5), "{err}");
    assert!(
        err.contains("signature: read-back|Z3_get_tuple_sort_num_fields"),
        "{err}"
    );
}

#[test]
fn quantifiers_made_again_through_other_makers_are_judged() {
    let trace = example("quant_makers.trace");
    let clean = replay(&trace, None, &[]);
    assert_eq!(clean.status.code(), Some(0), "{}", stderr(&clean));
    if let Some(lib) = other_z3("quantifiers_made_again_through_other_makers_are_judged") {
        let other = replay(&trace, Some(&lib), &[]);
        assert_eq!(other.status.code(), Some(0), "{}", stderr(&other));
    }
    // A wrong read of the weight makes another quantifier: a finding.
    let out = replay(&trace, None, &[("UNTRACE_INJECT", "wrong-read")]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(5), "{err}");
    assert!(
        err.contains("signature: read-back|Z3_mk_forall_const: another term"),
        "{err}"
    );
}

#[test]
fn arrays_of_functions_replay_and_their_reads_are_judged() {
    let trace = example("array_functions.trace");
    let clean = replay(&trace, None, &[]);
    assert_eq!(clean.status.code(), Some(0), "{}", stderr(&clean));
    if let Some(lib) = other_z3("arrays_of_functions_replay_and_their_reads_are_judged") {
        let other = replay(&trace, Some(&lib), &[]);
        assert_eq!(other.status.code(), Some(0), "{}", stderr(&other));
    }
    let out = replay(&trace, None, &[("UNTRACE_INJECT", "wrong-read")]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(5), "{err}");
    assert!(err.contains("signature: read-back|"), "{err}");
}

#[test]
fn quantifier_eliminations_hold_in_the_model_of_their_formula() {
    let trace = example("qe.trace");
    let clean = replay(&trace, None, &[]);
    assert_eq!(clean.status.code(), Some(0), "{}", stderr(&clean));
    if let Some(lib) = other_z3("quantifier_eliminations_hold_in_the_model_of_their_formula") {
        let other = replay(&trace, Some(&lib), &[]);
        assert_eq!(other.status.code(), Some(0), "{}", stderr(&other));
    }
    let out = replay(&trace, None, &[("UNTRACE_INJECT", "wrong-read")]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(5), "{err}");
    assert!(
        err.contains("signature: read-back|Z3_qe_model_project: false in the model"),
        "{err}"
    );
}
