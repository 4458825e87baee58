//! Differential replays end to end: `untrace --diff-lib` / `--cross-check` agree where the two
//! sides agree and report exit 9 with a `version-diff` / `solver-diff` signature where they do
//! not; ddtrace minimizes such a finding; `mbt --diff-lib` finds, records and minimizes it.
//!
//! Without a second Z3 at hand, the other side is the linked libz3 itself, made to differ with
//! the test-only `UNTRACE_INJECT_OTHER` (a fault injected into the other side alone), and the
//! other solver is a small shell script. With a second Z3 (`e2e::other_z3`: the z3-solver
//! wheel's 5.x libz3 that `.ci/install-deps` installs), the example traces, on which the
//! versions agree, and `traces/differential`, on which they do not, replay against it.

use e2e::{bin, example, on_path, other_z3, repo_root, run, stderr, traces_in};
use serde_json::Value;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Output;

/// The signature line a replay printed last (what people read and ddtrace matches).
fn signature(out: &Output) -> String {
    let prefix = format!("untrace: {}", model::finding::SIGNATURE_LINE);
    let text = stderr(out);
    let line = text.lines().rev().find_map(|l| l.strip_prefix(&prefix));
    line.unwrap_or_default().trim().to_string()
}

fn linked_library() -> PathBuf {
    z3lib::default_for(&bin("untrace"))
        .expect("the linked libz3 loads")
        .path
}

/// `out`, the replay of `trace`, ended with exit `code`.
fn assert_exit(trace: &Path, out: &Output, code: i32) {
    assert_eq!(
        out.status.code(),
        Some(code),
        "{}: {}",
        trace.display(),
        stderr(out)
    );
}

fn diff(trace: &Path, envs: &[(&str, &str)]) -> Output {
    let lib = linked_library();
    run(
        "untrace",
        &["--diff-lib".as_ref(), lib.as_os_str(), trace.as_os_str()],
        envs,
    )
}

#[test]
fn the_same_library_agrees_with_itself_on_every_example() {
    for trace in traces_in(&repo_root().join("traces")) {
        let out = diff(&trace, &[]);
        assert_exit(&trace, &out, 0);
    }
}

#[test]
fn an_answer_that_differs_on_the_other_side_is_a_version_diff() {
    let out = diff(
        &example("core_bool.trace"),
        &[("UNTRACE_INJECT_OTHER", "flip-solver@1")],
    );
    assert_eq!(out.status.code(), Some(9), "{}", stderr(&out));
    let sig = signature(&out);
    let version = untrace::z3_version();
    assert!(
        sig.starts_with("version-diff|check_sat") && sig.contains(&format!(" on {version}")),
        "{sig}"
    );
    // The message names the trace and the line once.
    let err = stderr(&out);
    let message = err.lines().rev().nth(1).unwrap_or_default();
    assert!(message.contains("core_bool.trace: at line "), "{message}");
}

#[test]
fn a_crash_or_error_of_the_other_side_alone_is_a_version_diff() {
    for (fault, kind) in [
        ("abort@check_sat", "crash"),
        ("error@check_sat", "z3-error"),
    ] {
        let out = diff(
            &example("core_bool.trace"),
            &[("UNTRACE_INJECT_OTHER", fault)],
        );
        assert_eq!(out.status.code(), Some(9), "{fault}: {}", stderr(&out));
        let sig = signature(&out);
        assert!(
            sig.starts_with(&format!("version-diff|{kind} on ")),
            "{fault}: {sig}"
        );
    }
    // A failure on this side is its own finding, not a difference.
    let out = diff(
        &example("core_bool.trace"),
        &[("UNTRACE_INJECT", "abort@check_sat")],
    );
    assert_eq!(out.status.code(), Some(6), "{}", stderr(&out));
}

#[test]
fn ddtrace_minimizes_a_version_diff() {
    let tmp = tempfile::tempdir().unwrap();
    let out_trace = tmp.path().join("min.trace");
    let input = example("solver_actions.trace");
    let lib = linked_library();
    let envs = [("UNTRACE_INJECT_OTHER", "flip-solver@1")];
    let golden = diff(&input, &envs);
    assert_eq!(golden.status.code(), Some(9), "{}", stderr(&golden));
    let args: [&OsStr; 6] = [
        "-j".as_ref(),
        "2".as_ref(),
        input.as_os_str(),
        out_trace.as_os_str(),
        "--".as_ref(),
        "--diff-lib".as_ref(),
    ];
    let mut all = args.to_vec();
    all.push(lib.as_os_str());
    let out = run("ddtrace", &all, &envs);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let lines = |p: &Path| std::fs::read_to_string(p).unwrap().lines().count();
    assert!(lines(&out_trace) < lines(&input), "nothing removed");
    let again = diff(&out_trace, &envs);
    assert_eq!(again.status.code(), Some(9), "{}", stderr(&again));
    assert_eq!(signature(&again), signature(&golden));
}

#[test]
fn mbt_diff_lib_finds_records_and_minimizes_version_diffs() {
    let tmp = tempfile::tempdir().unwrap();
    let out_dir = tmp.path().join("out");
    let lib = linked_library();
    // Only the version differences are minimized: the rounds' other findings (a fixedpoint
    // refusal of 4.8.12's) would share the budget on a loaded machine.
    let args: [&OsStr; 13] = [
        "--diff-lib".as_ref(),
        lib.as_os_str(),
        "--seed".as_ref(),
        "7".as_ref(),
        "--rounds".as_ref(),
        "2".as_ref(),
        "--jobs".as_ref(),
        "2".as_ref(),
        "--minimize".as_ref(),
        "--minimize-kinds".as_ref(),
        "version-diff".as_ref(),
        "-q".as_ref(),
        "--out".as_ref(),
    ];
    let mut all = args.to_vec();
    all.push(out_dir.as_os_str());
    let envs = [("UNTRACE_INJECT_OTHER", "flip-solver@1")];
    let out = run("mbt", &all, &envs);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("summary.json")).unwrap())
            .unwrap();
    let differential = &summary["stats"]["differential"];
    assert!(
        differential["rounds"].as_u64().unwrap_or(0) > 0,
        "{summary}"
    );
    let diffs: Vec<&Value> = summary["failure_list"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["kind"] == "version-diff")
        .collect();
    assert!(!diffs.is_empty(), "{summary}");
    for finding in diffs {
        let replay = finding["replay"].as_str().unwrap();
        assert!(replay.contains(" --diff-lib "), "{replay}");
        let minimized = PathBuf::from(
            finding["minimized_trace"]
                .as_str()
                .unwrap_or_else(|| panic!("not minimized: {}", finding["minimize_note"])),
        );
        let again = diff(&minimized, &envs);
        assert_eq!(again.status.code(), Some(9), "{}", stderr(&again));
        assert!(
            signature(&again).starts_with("version-diff|check_sat"),
            "{}",
            signature(&again)
        );
    }
}

/// A stand-in solver: `sh SCRIPT ANSWER FILE` answers every check of FILE with ANSWER, or
/// with the response lines ANSWER holds (`\n` separated) once.
fn fake_solver(dir: &Path) -> PathBuf {
    let script = dir.join("fake-solver.sh");
    std::fs::write(
        &script,
        "case \"$1\" in\n\
         sat|unsat|unknown) grep -o 'check-sat' \"$2\" | while read -r _; do echo \"$1\"; done ;;\n\
         sleep) sleep 30 ;;\n\
         *) printf '%b\\n' \"$1\" ;;\n\
         esac\n",
    )
    .unwrap();
    script
}

fn cross_check(command_line: &str, trace: &Path, extra: &[&str]) -> Output {
    let mut args: Vec<&OsStr> = vec![
        "-v".as_ref(),
        "--cross-check".as_ref(),
        command_line.as_ref(),
    ];
    args.extend(extra.iter().map(|a| OsStr::new(*a)));
    args.push(trace.as_os_str());
    run("untrace", &args, &[])
}

#[test]
fn a_solver_that_answers_otherwise_is_a_solver_diff() {
    let tmp = tempfile::tempdir().unwrap();
    let fake = fake_solver(tmp.path());
    let trace = example("core_bool.trace");
    // core_bool's checks answer sat, unsat, unsat, sat: a solver that says unsat differs at
    // the first, one that gives those answers agrees.
    let out = cross_check(&format!("sh {} unsat", fake.display()), &trace, &[]);
    assert_eq!(out.status.code(), Some(9), "{}", stderr(&out));
    let version = untrace::z3_version();
    assert_eq!(
        signature(&out),
        format!("solver-diff|check_sat: sat on Z3 {version}, unsat on sh")
    );
    let same = format!("sh {} 'sat\\nunsat\\nunsat\\nsat'", fake.display());
    let out = cross_check(&same, &trace, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("\"agreed\": 4"), "{}", stderr(&out));
}

#[test]
fn unsupported_errors_unknowns_and_timeouts_of_the_solver_are_counted_not_findings() {
    let tmp = tempfile::tempdir().unwrap();
    let fake = fake_solver(tmp.path());
    let trace = example("core_bool.trace");
    let cases = [
        (
            "unsupported\\nsat\\n(error \"no such thing\")\\nunsat",
            "\"solver-error\": 1",
        ),
        ("unknown", "\"unknown\": 4"),
        ("sleep", "\"timeout\": 1"),
    ];
    for (responses, counted) in cases {
        let command_line = format!("sh {} '{responses}'", fake.display());
        let out = cross_check(&command_line, &trace, &["--timeout", "1"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(0), "{responses}: {err}");
        assert!(err.contains(counted), "{responses}: {err}");
    }
    // The first response holds `unsupported` and one agreeing answer before the error.
    let command_line = format!("sh {} 'unsupported\\nsat\\n(error \"x\")'", fake.display());
    let err = stderr(&cross_check(&command_line, &trace, &[]));
    assert!(
        err.contains("\"unsupported\": 1") && err.contains("\"agreed\": 1"),
        "{err}"
    );
}

#[test]
fn a_missing_solver_is_a_usage_error() {
    let out = cross_check("no-such-solver-anywhere", &example("core_bool.trace"), &[]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no-such-solver-anywhere"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_z3_binary_agrees_with_the_api_on_every_example() {
    if !on_path("z3") {
        eprintln!("skipped: no `z3` binary on PATH");
        return;
    }
    for trace in traces_in(&repo_root().join("traces")) {
        let out = cross_check("z3 -smt2", &trace, &[]);
        assert_exit(&trace, &out, 0);
    }
}

#[test]
#[cfg_attr(no_other_z3, ignore = "no second Z3: run .ci/install-deps")]
fn the_other_version_agrees_on_the_examples_and_differs_on_the_differential_traces() {
    let Some(other) =
        other_z3("the_other_version_agrees_on_the_examples_and_differs_on_the_differential_traces")
    else {
        return;
    };
    let on_other = |trace: &Path| {
        run(
            "untrace",
            &["--diff-lib".as_ref(), other.as_os_str(), trace.as_os_str()],
            &[],
        )
    };
    for trace in traces_in(&repo_root().join("traces")) {
        let out = on_other(&trace);
        assert_exit(&trace, &out, 0);
    }
    for trace in traces_in(&repo_root().join("traces/differential")) {
        let text = std::fs::read_to_string(&trace).unwrap();
        let expected = text
            .lines()
            .find_map(|l| l.strip_prefix("; diff-lib: "))
            .expect("a `; diff-lib:` line");
        let out = on_other(&trace);
        assert_exit(&trace, &out, 9);
        // Up to the other version, which may be any 5.x.
        let (known, _) = expected
            .rsplit_once(" on ")
            .expect("names the other version");
        assert!(
            signature(&out).starts_with(known),
            "{}: {}",
            trace.display(),
            signature(&out)
        );
    }
}
