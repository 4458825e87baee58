//! Z3's higher-order sequence operations (`seq_hof`, `seq.power`), complex numbers
//! (`check_complex`) and polymorphic datatypes (`check_poly_datatype`), releases after
//! 4.8.12 only, end to end: 4.8.12 refuses the example
//! traces before any call runs (exit 3, naming the function it lacks); the newer Z3 replays
//! them; a wrong value is a finding there (an injected wrong model evaluation of an equation
//! over the sequence terms departs from the independent evaluator, which applies each lambda
//! to each element; an injected wrong complex part disagrees with exact arithmetic, swapped
//! fields of the polymorphic pair with its arguments); the
//! Python reproducer of the sequence trace runs on that Z3.

use e2e::{other_z3, replay, stderr};
use std::path::PathBuf;

fn seq_hof() -> PathBuf {
    e2e::repo_root().join("traces/newer/seq-hof.trace")
}

fn complex() -> PathBuf {
    e2e::repo_root().join("traces/newer/complex.trace")
}

fn poly_datatype() -> PathBuf {
    e2e::repo_root().join("traces/newer/poly-datatype.trace")
}

#[test]
fn sequence_operations_complex_numbers_and_polymorphic_datatypes_are_refused_by_4_8_12() {
    for (trace, line, function) in [
        (seq_hof(), "seq-hof.trace:37", "Z3_mk_seq_map"),
        (complex(), "complex.trace:17", "Z3_mk_complex_sort"),
        (
            poly_datatype(),
            "poly-datatype.trace:13",
            "Z3_mk_type_variable",
        ),
    ] {
        let out = replay(&trace, None, &[]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(3), "{err}");
        assert!(
            err.contains(&format!("{line}: the trace calls {function}, which the")),
            "{err}"
        );
    }
}

#[test]
#[cfg_attr(no_other_z3, ignore = "no second Z3: run .ci/install-deps")]
fn sequence_operations_replay_on_the_other_z3_and_a_wrong_evaluation_is_a_finding() {
    let Some(lib) =
        other_z3("sequence_operations_replay_on_the_other_z3_and_a_wrong_evaluation_is_a_finding")
    else {
        return;
    };
    let out = replay(&seq_hof(), Some(&lib), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = replay(
        &seq_hof(),
        Some(&lib),
        &[("UNTRACE_INJECT", "wrong-eval@=")],
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(5), "{err}");
    assert!(
        err.contains(
            "signature: eval-disagreement|model_eval of = departs from the independent evaluator"
        ),
        "{err}"
    );
}

#[test]
#[cfg_attr(no_other_z3, ignore = "no second Z3: run .ci/install-deps")]
fn complex_numbers_replay_on_the_other_z3_and_a_wrong_part_is_a_finding() {
    let Some(lib) =
        other_z3("complex_numbers_replay_on_the_other_z3_and_a_wrong_part_is_a_finding")
    else {
        return;
    };
    let out = replay(&complex(), Some(&lib), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = replay(&complex(), Some(&lib), &[("UNTRACE_INJECT", "wrong-fset")]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(5), "{err}");
    assert!(
        err.contains("the real part of z simplifies to 2, expected 1"),
        "{err}"
    );
    assert!(
        err.contains("signature: eval-disagreement|check_complex"),
        "{err}"
    );
}

#[test]
#[cfg_attr(no_other_z3, ignore = "no second Z3: run .ci/install-deps")]
fn the_python_reproducer_of_the_sequence_operations_runs_on_the_other_z3() {
    let Some(lib) =
        other_z3("the_python_reproducer_of_the_sequence_operations_runs_on_the_other_z3")
    else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    e2e::python_reproducer_runs_on_the_wheel(
        &lib,
        &seq_hof(),
        &[
            "Z3_mk_seq_map",
            "Z3_mk_seq_mapi",
            "Z3_mk_seq_foldl",
            "Z3_mk_seq_foldli",
            "Z3_mk_seq_power",
            "Z3_mk_lambda_const",
        ],
        dir.path(),
    );
}

#[test]
#[cfg_attr(no_other_z3, ignore = "no second Z3: run .ci/install-deps")]
fn polymorphic_datatypes_replay_on_the_other_z3_and_a_wrong_field_is_a_finding() {
    let Some(lib) =
        other_z3("polymorphic_datatypes_replay_on_the_other_z3_and_a_wrong_field_is_a_finding")
    else {
        return;
    };
    let out = replay(&poly_datatype(), Some(&lib), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = replay(
        &poly_datatype(),
        Some(&lib),
        &[("UNTRACE_INJECT", "wrong-fset")],
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(5), "{err}");
    assert!(
        err.contains("poly-datatype.trace:13: check_poly_datatype failed"),
        "{err}"
    );
    assert!(
        err.contains("signature: eval-disagreement|check_poly_datatype"),
        "{err}"
    );
}
