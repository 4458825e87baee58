//! AST maps and vectors (`ast_map`, `ast_vector`), the global reads (`read_global`) and the
//! print modes end to end: the example traces replay on both Z3s, the newer reads are refused
//! by 4.8.12 before any call runs, and a wrong answer (injected: every size and integer a
//! read gets is one more) is a `read-back` finding that names the function, replays and
//! that ddtrace minimizes.

use e2e::{example, other_z3, replay, run, stderr};
use std::path::{Path, PathBuf};

fn newer() -> PathBuf {
    e2e::repo_root().join("traces/newer/globals.trace")
}

/// A trace in a private folder.
fn written(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("trace written");
    path
}

const TERMS: &str = "z3-trace 1\nsort_int\nreturn s1\nconst s1 \"x\"\nreturn t1\n\
                     lit s1 \"3\"\nreturn t2\n+ t1 t2\nreturn t3\n";

#[test]
fn handles_replay_on_the_linked_z3_and_newer_reads_are_refused() {
    let out = replay(&example("handles.trace"), None, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = replay(&newer(), None, &[]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.contains("globals.trace:5: the trace calls Z3_get_global_param_descrs, which"),
        "{err}"
    );
}

#[test]
#[cfg_attr(no_other_z3, ignore = "no second Z3: run .ci/install-deps")]
fn handles_replay_on_the_other_z3_with_its_newer_reads() {
    let Some(lib) = other_z3("handles_replay_on_the_other_z3_with_its_newer_reads") else {
        return;
    };
    for trace in [example("handles.trace"), newer()] {
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
fn a_wrong_answer_of_a_map_a_vector_or_a_global_read_is_a_finding() {
    let dir = tempfile::tempdir().expect("temp dir");
    let inject = [("UNTRACE_INJECT", "wrong-read")];
    let cases = [
        (
            "map.trace",
            "ast_map t1 t3 t2 t2\n",
            "read-back|Z3_ast_map_size",
        ),
        (
            "vector.trace",
            "ast_vector t3 t1\n",
            "read-back|Z3_ast_vector_push",
        ),
        (
            "global.trace",
            "read_global \"Z3_global_param_get\" \"smt.random_seed\"\n",
            "read-back|Z3_global_param_get",
        ),
    ];
    for (name, call, signature) in cases {
        let trace = written(dir.path(), name, &format!("{TERMS}{call}"));
        let clean = replay(&trace, None, &[]);
        assert_eq!(clean.status.code(), Some(0), "{name}: {}", stderr(&clean));
        let out = replay(&trace, None, &inject);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(5), "{name}: {err}");
        assert!(err.contains(&format!("signature: {signature}")), "{err}");
    }
    // The example trace meets the fault at its first map, and ddtrace cuts it down to the
    // map and the terms it needs.
    let trace = example("handles.trace");
    let out = replay(&trace, None, &inject);
    assert_eq!(out.status.code(), Some(5), "{}", stderr(&out));
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
    // A sort, a term and a map of one pair.
    assert!(calls <= 3, "{text}");
    assert!(text.contains("ast_map"), "{text}");
    let again = replay(&min, None, &inject);
    assert!(
        stderr(&again).contains("signature: read-back|Z3_ast_map_size"),
        "{}",
        stderr(&again)
    );
}

#[test]
fn a_global_parameter_reads_back_the_trace_setting_and_its_default_after_reset() {
    let dir = tempfile::tempdir().expect("temp dir");
    let trace = written(
        dir.path(),
        "reset.trace",
        "z3-trace 1\nset_global \"rewriter.som\" \"true\"\n\
         read_global \"Z3_global_param_get\" \"rewriter.som\"\n\
         read_global \"Z3_global_param_reset_all\" \"\"\n\
         read_global \"Z3_global_param_get\" \"rewriter.som\"\n\
         read_global \"Z3_global_param_get\" \"proof\"\n",
    );
    let out = replay(&trace, None, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// Z3 5.4.1 forgets the rewriter's parameters once a module's parameter is set after
/// `Z3_global_param_reset_all` (`traces/regress-5x/global-param-set-after-reset-forgets-modules`).
/// mbt's workers used to reset the parameters before every round, so a round that set one left
/// the later rounds of its worker failing to read `rewriter.flat` (seeds 700000-700011),
/// findings that their own traces did not replay, since a replay's process never reset. Now a
/// worker never resets the parameters and ends after a round that set or reset them, so every
/// round starts with a fresh process's, and every global read-back finding of a campaign on
/// 5.4.1 replays from its own trace. The campaign is checked to hold a round that sets a
/// parameter before a later one reads one, so that the test cannot pass without it.
#[test]
#[cfg_attr(no_other_z3, ignore = "no second Z3: run .ci/install-deps")]
fn a_round_starts_with_the_global_parameters_of_a_fresh_process() {
    let Some(lib) = other_z3("a_round_starts_with_the_global_parameters_of_a_fresh_process") else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("campaign");
    let args = [
        "--z3-lib".as_ref(),
        lib.as_os_str(),
        "--seed".as_ref(),
        "700000".as_ref(),
        "--rounds".as_ref(),
        "12".as_ref(),
        "--jobs".as_ref(),
        "1".as_ref(),
        "--keep-all".as_ref(),
        "-q".as_ref(),
        "--out".as_ref(),
        out.as_os_str(),
    ];
    let campaign = run("mbt", &args, &[]);
    assert!(
        matches!(campaign.status.code(), Some(0 | 1)),
        "{}",
        stderr(&campaign)
    );
    let trace_of = |seed: u64| {
        std::fs::read_to_string(out.join(format!("traces/seed-{seed}.trace"))).unwrap_or_default()
    };
    let setter = (700000..700012).find(|&s| trace_of(s).contains("\nset_global "));
    let reader = setter.and_then(|first| {
        (first + 1..700012).find(|&s| trace_of(s).contains("read_global \"Z3_global_param_"))
    });
    assert!(
        reader.is_some(),
        "no round sets a global parameter before a later one reads one: choose other seeds"
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    for f in summary["failure_list"].as_array().unwrap() {
        let signature = f["signature"].as_str().unwrap();
        if !signature.starts_with("read-back|Z3_global_param") {
            continue;
        }
        let trace = Path::new(f["trace"].as_str().unwrap());
        let replayed = replay(trace, Some(&lib), &[]);
        let err = stderr(&replayed);
        assert!(
            err.contains(&format!("signature: {signature}")),
            "{signature} of seed {} does not replay from its own trace: {err}",
            f["seed"]
        );
    }
}
