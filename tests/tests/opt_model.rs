//! Optimize readers (`opt_read`) and models built by hand with function tables
//! (`model_func`, `model_read`) end to end: the example traces replay on both Z3s, the
//! newer reader (`Z3_optimize_translate`) is refused by 4.8.12 before any call runs, and a
//! wrong answer (injected `wrong-read`) is a finding that names the reader, replays and
//! that ddtrace minimizes.

use e2e::{example, other_z3, replay, run, stderr};
use std::path::PathBuf;

fn newer() -> PathBuf {
    e2e::repo_root().join("traces/newer/opt-translate.trace")
}

#[test]
fn the_readers_replay_on_the_linked_z3_and_the_newer_one_is_refused() {
    let out = replay(&example("opt_model_reads.trace"), None, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = replay(&newer(), None, &[]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("Z3_optimize_translate"), "{err}");
}

#[test]
#[cfg_attr(no_other_z3, ignore = "no second Z3: run .ci/install-deps")]
fn the_readers_replay_on_the_other_z3_with_the_newer_one() {
    let Some(lib) = other_z3("the_readers_replay_on_the_other_z3_with_the_newer_one") else {
        return;
    };
    for trace in [example("opt_model_reads.trace"), newer()] {
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
fn a_wrong_read_of_a_function_table_is_a_finding_that_ddtrace_minimizes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let inject = [("UNTRACE_INJECT", "wrong-read")];
    // The example meets the fault at its first Optimize reader; its model readers only
    // after the Optimize context: cut the trace to the model part's reader first.
    let text = std::fs::read_to_string(example("opt_model_reads.trace")).unwrap();
    let kept: Vec<&str> = {
        let lines: Vec<&str> = text.lines().collect();
        let mut kept = Vec::new();
        let mut skip_return = false;
        for line in lines {
            if skip_return && line.starts_with("return") {
                skip_return = false;
                continue;
            }
            skip_return = false;
            if line.starts_with("opt_read") {
                skip_return = true;
                continue;
            }
            kept.push(line);
        }
        kept
    };
    let trace = dir.path().join("models.trace");
    std::fs::write(&trace, kept.join("\n") + "\n").unwrap();
    let clean = replay(&trace, None, &[]);
    assert_eq!(clean.status.code(), Some(0), "{}", stderr(&clean));
    let out = replay(&trace, None, &inject);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(5), "{err}");
    let signature = "signature: read-back|model_read: Z3_model_get_func_interp";
    assert!(err.contains(signature), "{err}");
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
    // The Optimize context, the evaluations and the other readers go; a model with a
    // function table stays (sorts, the function, literals, the model, the table, the read).
    assert!(calls < 14, "{text}");
    assert!(text.contains("model_func"), "{text}");
    let again = replay(&min, None, &inject);
    assert!(stderr(&again).contains(signature), "{}", stderr(&again));
}

#[test]
fn a_wrong_read_of_an_optimize_context_is_a_finding() {
    let inject = [("UNTRACE_INJECT", "wrong-read")];
    let out = replay(&example("opt_model_reads.trace"), None, &inject);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(5), "{err}");
    assert!(
        err.contains("signature: dump|opt_read: Z3_optimize_to_string"),
        "{err}"
    );
}
