//! The whole flow across tools: fuzz -> trace -> replay -> minimize, and trace -> SMT-LIB ->
//! solver -> model check / reduce.

use e2e::{on_path, repo_root, run, stderr, traces_in};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

/// An mbt campaign with `args` that keeps every trace under `out/traces`.
fn keep_all_campaign(out: &Path, args: &[&str]) {
    let mut all: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    all.extend(["--keep-all", "-q", "--out"].map(OsStr::new));
    all.push(out.as_os_str());
    let done = run("mbt", &all, &[]);
    // Exit 1: the campaign found something new (a real Z3 bug in some seeds).
    assert!(
        matches!(done.status.code(), Some(0 | 1)),
        "mbt: {}",
        stderr(&done)
    );
}

fn call_lines(trace: &Path) -> usize {
    std::fs::read_to_string(trace)
        .expect("trace readable")
        .lines()
        .filter(|l| !l.starts_with("return") && !l.starts_with(';') && !l.trim().is_empty())
        .count()
        - 1 // the header
}

/// A short campaign whose every kept trace replays with `untrace` with every result matching.
#[test]
fn fuzzed_traces_replay_with_untrace() {
    let out_dir = tempfile::tempdir().expect("temp dir");
    // Without floating point: Z3's wrong rounding of FP numerals (traces/regress) fails many
    // rounds through check_literal, and this test is about the clean ones.
    keep_all_campaign(
        out_dir.path(),
        &[
            "--seed",
            "41",
            "--rounds",
            "12",
            "--jobs",
            "2",
            "--theories",
            "core,arith,bv,array,uf,strings",
        ],
    );
    let summary: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out_dir.path().join("summary.json")).expect("summary"),
    )
    .expect("summary.json is JSON");
    assert_eq!(summary["rounds"], 12, "{summary}");
    let failed_seeds: Vec<String> = summary["failed_seeds"]
        .as_array()
        .map(|seeds| seeds.iter().map(|s| s.to_string()).collect())
        .unwrap_or_default();
    let traces = traces_in(&out_dir.path().join("traces"));
    assert_eq!(traces.len(), 12, "one kept trace per round");
    let mut replayed = 0;
    for trace in &traces {
        let seed = trace
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .replace("seed-", "");
        // Failed rounds are mbt's own tests' business; every clean round must replay.
        if failed_seeds.contains(&seed) {
            continue;
        }
        let out = run("untrace", &[trace.as_os_str()], &[]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}: {}",
            trace.display(),
            stderr(&out)
        );
        replayed += 1;
    }
    assert!(replayed >= 8, "{replayed} clean rounds replayed");
}

/// A failure in replay (injected with the test-only `UNTRACE_FAIL_ON`) is minimized by
/// `ddtrace` to a few calls that still fail the same way.
#[test]
fn ddtrace_minimizes_a_fuzzed_trace_that_crashes_untrace() {
    let out_dir = tempfile::tempdir().expect("temp dir");
    keep_all_campaign(
        out_dir.path(),
        &[
            "--seed",
            "5",
            "--rounds",
            "6",
            "--jobs",
            "1",
            "--theories",
            "bv",
        ],
    );
    // The longest trace with a bvmul call: the failure we pretend Z3 has (a line that
    // starts with it: a read's answer may print a bvmul term too).
    let pattern = "bvmul ";
    let trace = traces_in(&out_dir.path().join("traces"))
        .into_iter()
        .filter(|t| {
            std::fs::read_to_string(t)
                .unwrap()
                .lines()
                .any(|l| l.starts_with(pattern))
        })
        .max_by_key(|t| call_lines(t))
        .expect("some round builds a bvmul");
    let before = call_lines(&trace);
    let crash = run(
        "untrace",
        &[trace.as_os_str()],
        &[("UNTRACE_FAIL_ON", pattern)],
    );
    assert_eq!(
        crash.status.code(),
        Some(6),
        "untrace reports the abort as a crash: {}",
        stderr(&crash)
    );

    let min = out_dir.path().join("min.trace");
    let out = run(
        "ddtrace",
        &[
            "-j".as_ref(),
            "2".as_ref(),
            trace.as_os_str(),
            min.as_os_str(),
        ],
        &[("UNTRACE_FAIL_ON", pattern)],
    );
    assert!(out.status.success(), "ddtrace: {}", stderr(&out));
    let after = call_lines(&min);
    assert!(after < before, "{after} calls left of {before}");
    assert!(
        after <= 6,
        "a bvmul needs a sort, a constant and the bvmul: {after} calls"
    );
    let text = std::fs::read_to_string(&min).unwrap();
    assert!(text.contains(pattern), "{text}");
    // The minimized trace still fails the same way, and replays cleanly without the failure.
    let again = run(
        "untrace",
        &[min.as_os_str()],
        &[("UNTRACE_FAIL_ON", pattern)],
    );
    assert_eq!(again.status.code(), Some(6), "{}", stderr(&again));
    let clean = run("untrace", &[min.as_os_str()], &[]);
    assert_eq!(clean.status.code(), Some(0), "{}", stderr(&clean));
}

/// `traces/NAME.trace` written as an SMT-LIB script by `untrace --smt2` into a private
/// directory; `None` (the test is skipped) when the z3 binary that runs it is missing.
fn export_smt2(name: &str) -> Option<(tempfile::TempDir, PathBuf)> {
    if !on_path("z3") {
        eprintln!("skipped: the z3 binary is not installed (.ci/install-deps installs it)");
        return None;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let trace = repo_root().join(format!("traces/{name}.trace"));
    let smt2 = dir.path().join(format!("{name}.smt2"));
    let out = run(
        "untrace",
        &["--smt2".as_ref(), smt2.as_os_str(), trace.as_os_str()],
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    Some((dir, smt2))
}

/// A trace exported as SMT-LIB gives the recorded answers with the z3 binary, and
/// `checkmodel` accepts z3's model of it.
#[test]
fn exported_smtlib_gives_recorded_answers_and_valid_models() {
    let Some((dir, smt2)) = export_smt2("bv_ops") else {
        return;
    };
    let script = std::fs::read_to_string(&smt2).expect("script written");
    assert!(script.contains("(check-sat"), "{script}");
    // Ask for a model after the first check-sat and check it independently.
    let first_check = script.find("(check-sat)").expect("a plain check-sat");
    let problem = format!("{}(check-sat)\n(get-model)\n", &script[..first_check]);
    let problem_path = dir.path().join("problem.smt2");
    std::fs::write(&problem_path, &problem).unwrap();
    let z3 = Command::new("z3")
        .arg(&problem_path)
        .output()
        .expect("z3 runs");
    let response = String::from_utf8_lossy(&z3.stdout).into_owned();
    let response_path = dir.path().join("response.txt");
    std::fs::write(&response_path, &response).unwrap();
    let out = run(
        "checkmodel",
        &[problem_path.as_os_str(), response_path.as_os_str()],
        &[],
    );
    if response.starts_with("sat") {
        assert_eq!(out.status.code(), Some(0), "{response}\n{}", stderr(&out));
    } else {
        assert!(response.starts_with("unsat"), "{response}");
    }
}

/// `ddsmt` reduces an SMT-LIB script exported from a trace while z3 keeps its answer.
#[test]
fn ddsmt_reduces_an_exported_script_keeping_z3s_answer() {
    let Some((dir, smt2)) = export_smt2("arith_int") else {
        return;
    };
    let golden = Command::new("z3").arg(&smt2).output().expect("z3 runs");
    let reduced = dir.path().join("out.smt2");
    let out = run(
        "ddsmt",
        &[
            "-q".as_ref(),
            "-j".as_ref(),
            "2".as_ref(),
            smt2.as_os_str(),
            reduced.as_os_str(),
            "z3".as_ref(),
        ],
        &[],
    );
    assert!(out.status.success(), "ddsmt: {}", stderr(&out));
    let before = std::fs::metadata(&smt2).unwrap().len();
    let after = std::fs::metadata(&reduced).unwrap().len();
    assert!(after < before, "{after} bytes of {before}");
    let again = Command::new("z3").arg(&reduced).output().expect("z3 runs");
    assert_eq!(again.stdout, golden.stdout, "same answers");
    assert_eq!(again.status.code(), golden.status.code());
}
