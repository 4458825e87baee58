//! Z3's finite sets (`sort_finite_set`, `fset_*`, `check_fset`) and prime fields
//! (`sort_finite_field`, `ff_*`, `check_ff`), releases after 4.8.12 only, end to end: 4.8.12
//! refuses the example traces before any call runs (exit 3, naming the function it lacks);
//! the newer Z3 replays them, and a wrong value (injected: the check's first atom is read
//! wrong) is an `eval-disagreement` finding that replays and that ddtrace minimizes on that
//! Z3; the reproducers of the trace run on it.

use e2e::{other_z3, replay, run, stderr};
use std::path::PathBuf;

fn trace() -> PathBuf {
    e2e::repo_root().join("traces/newer/finite-sets.trace")
}

fn fields() -> PathBuf {
    e2e::repo_root().join("traces/newer/finite-fields.trace")
}

#[test]
fn finite_sets_are_refused_by_4_8_12() {
    let out = replay(&trace(), None, &[]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("finite-sets.trace:9: the trace calls Z3_mk_finite_set_sort, which the"),
        "{err}"
    );
    let out = replay(&fields(), None, &[]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("finite-fields.trace:7: the trace calls Z3_mk_finite_field_sort, which the"),
        "{err}"
    );
}

#[test]
#[cfg_attr(no_other_z3, ignore = "no second Z3: run .ci/install-deps")]
fn finite_fields_replay_on_the_other_z3_and_a_wrong_value_is_a_finding() {
    let Some(lib) = other_z3("finite_fields_replay_on_the_other_z3_and_a_wrong_value_is_a_finding")
    else {
        return;
    };
    let out = replay(&fields(), Some(&lib), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = replay(&fields(), Some(&lib), &[("UNTRACE_INJECT", "wrong-fset")]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(5), "{err}");
    assert!(
        err.contains("signature: eval-disagreement|check_ff: values disagree"),
        "{err}"
    );
    let out = replay(&fields(), Some(&lib), &[("UNTRACE_INJECT", "wrong-read")]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(5), "{err}");
    assert!(err.contains("Z3_get_finite_field_sort_size"), "{err}");
}

#[test]
#[cfg_attr(no_other_z3, ignore = "no second Z3: run .ci/install-deps")]
fn finite_sets_replay_on_the_other_z3_and_a_wrong_value_minimizes() {
    let Some(lib) = other_z3("finite_sets_replay_on_the_other_z3_and_a_wrong_value_minimizes")
    else {
        return;
    };
    let out = replay(&trace(), Some(&lib), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));

    let inject = [("UNTRACE_INJECT", "wrong-fset")];
    let out = replay(&trace(), Some(&lib), &inject);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(5), "{err}");
    let signature = "signature: eval-disagreement|check_fset: values disagree";
    assert!(err.contains(signature), "{err}");

    let dir = tempfile::tempdir().expect("temp dir");
    let min = dir.path().join("min.trace");
    let out = run(
        "ddtrace",
        &[
            "-j".as_ref(),
            "2".as_ref(),
            "--z3-lib".as_ref(),
            lib.as_os_str(),
            trace().as_os_str(),
            min.as_os_str(),
        ],
        &inject,
    );
    assert!(out.status.success(), "ddtrace: {}", stderr(&out));
    let text = std::fs::read_to_string(&min).expect("minimized trace");
    let calls = text
        .lines()
        .filter(|l| !l.starts_with(';') && !l.starts_with("return") && !l.starts_with("z3-trace"))
        .count();
    assert!(calls < 10, "{text}");
    assert!(text.contains("check_fset"), "{text}");
    let again = replay(&min, Some(&lib), &inject);
    assert_eq!(again.status.code(), Some(5), "{}", stderr(&again));
    assert!(stderr(&again).contains(signature), "{}", stderr(&again));
    let clean = replay(&min, Some(&lib), &[]);
    assert_eq!(clean.status.code(), Some(0), "{}", stderr(&clean));
}

#[test]
#[cfg_attr(no_other_z3, ignore = "no second Z3: run .ci/install-deps")]
fn the_python_reproducer_of_finite_sets_runs_on_the_other_z3() {
    let Some(lib) = other_z3("the_python_reproducer_of_finite_sets_runs_on_the_other_z3") else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    e2e::python_reproducer_runs_on_the_wheel(
        &lib,
        &trace(),
        &[
            "Z3_mk_finite_set_sort",
            "Z3_mk_finite_set_map",
            "Z3_mk_lambda_const",
        ],
        dir.path(),
    );
}
