//! The `ddtrace` binary against the real `untrace` with its test-only synthetic failure
//! (`UNTRACE_FAIL_ON=PATTERN` aborts before the first call whose line contains PATTERN).

mod common;

use common::{ddtrace_bin, interrupted, random_trace, untrace_bin, without};
use ddtrace::trace_io::{line_count, read, render, Format};
use ddtrace::validity::is_valid;
use model::trace::text::format_call;
use model::Entry;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// untrace's exit code for a crash (the replay runs in a child; an abort is a crash).
const CRASH: i32 = 6;

/// Replays `path` with untrace under `UNTRACE_FAIL_ON=pattern`: did it abort?
fn aborts(path: &Path, pattern: &str) -> bool {
    let status = Command::new(untrace_bin())
        .arg(path)
        .env("UNTRACE_FAIL_ON", pattern)
        .stderr(Stdio::null())
        .status()
        .expect("untrace runs");
    status.code() == Some(CRASH)
}

fn ddtrace(input: &Path, output: &Path, pattern: &str, extra: &[&str]) -> Output {
    Command::new(ddtrace_bin())
        .arg("--untrace")
        .arg(untrace_bin())
        .args(["-j", "2"])
        .args(extra)
        .arg(input)
        .arg(output)
        .env("UNTRACE_FAIL_ON", pattern)
        .output()
        .expect("ddtrace runs")
}

/// Every call of `entries` is needed: without it the trace is invalid or untrace no longer
/// aborts.
fn assert_one_minimal(entries: &[Entry], pattern: &str, dir: &Path) {
    for i in 0..entries.len() {
        let smaller = without(entries, i);
        if !is_valid(&smaller) {
            continue;
        }
        let path = dir.join(format!("without-{i}.trace"));
        std::fs::write(&path, render(&smaller, Format::Text)).unwrap();
        assert!(
            !aborts(&path, pattern),
            "still aborts without `{}`",
            format_call(&entries[i].call)
        );
    }
}

#[test]
fn minimizes_a_synthetic_crash_to_a_one_minimal_trace() {
    let dir = tempfile::tempdir().unwrap();
    let (input, output) = (dir.path().join("in.trace"), dir.path().join("out.trace"));
    let entries = random_trace(21, 90);
    std::fs::write(&input, render(&entries, Format::Text)).unwrap();
    let pattern = "bvudiv";
    assert!(aborts(&input, pattern), "the input must fail");
    let out = ddtrace(&input, &output, pattern, &["--ignore-output"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary = String::from_utf8_lossy(&out.stderr);
    assert!(summary.contains("replays"), "{summary}");
    let (minimized, format) = read(&std::fs::read(&output).unwrap()).unwrap();
    assert_eq!(format, Format::Text);
    assert!(aborts(&output, pattern), "the result still fails");
    assert!(
        line_count(&minimized) <= 7,
        "{} lines:\n{}",
        line_count(&minimized),
        String::from_utf8_lossy(&std::fs::read(&output).unwrap())
    );
    assert_one_minimal(&minimized, pattern, dir.path());
}

#[test]
fn keeps_the_error_message_by_default_and_the_binary_format() {
    let dir = tempfile::tempdir().unwrap();
    let (input, output) = (dir.path().join("in.btrace"), dir.path().join("out.btrace"));
    let entries = random_trace(4, 60);
    std::fs::write(&input, render(&entries, Format::Binary)).unwrap();
    let pattern = "rotate_left";
    let out = ddtrace(&input, &output, pattern, &["-v"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&output).unwrap();
    let (minimized, format) = read(&bytes).unwrap();
    assert_eq!(format, Format::Binary);
    assert!(aborts(&output, pattern));
    // The kept message is the finding's signature (a crash in `rotate_left`), not the line
    // it happened on: the failing call stays, its arguments may shrink.
    let last = format_call(&minimized.last().unwrap().call);
    assert!(last.starts_with("rotate_left"), "{last}");
    assert!(minimized.len() < entries.len() / 4);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("golden replay: exit 6"), "{stderr}");
}

#[test]
fn sigint_leaves_a_failing_trace_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let (input, output) = (dir.path().join("in.trace"), dir.path().join("out.trace"));
    let entries = random_trace(8, 400);
    std::fs::write(&input, render(&entries, Format::Text)).unwrap();
    let pattern = "bvshl";
    let json = dir.path().join("result.json");
    let mut ddtrace = Command::new(ddtrace_bin());
    ddtrace
        .arg("--untrace")
        .arg(untrace_bin())
        .args(["-j", "1", "--ignore-output", "--json"])
        .arg(&json)
        .arg(&input)
        .arg(&output)
        .env("UNTRACE_FAIL_ON", pattern);
    let out = interrupted(ddtrace, &output, std::time::Duration::from_millis(300));
    // 130 when the signal came in time; 0 if the reduction was already done.
    let code = out.status.code();
    assert!(
        matches!(code, Some(130) | Some(0)),
        "{code:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The JSON result says whether it was interrupted, with the figures so far.
    let result: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(result["interrupted"], code == Some(130));
    assert_eq!(
        result["output_size"],
        std::fs::metadata(&output).unwrap().len()
    );
    if code == Some(130) {
        assert!(String::from_utf8_lossy(&out.stderr).contains("holds the best trace so far"));
    }
    assert!(aborts(&output, pattern), "the trace on disk still fails");
}

#[test]
fn a_trace_that_does_not_fail_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("fine.trace");
    std::fs::write(&input, "z3-trace 1\nsort_bv 8\nreturn s1\n").unwrap();
    let output = dir.path().join("o.trace");
    let out = ddtrace(&input, &output, "no call has this", &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{stderr}");
    assert!(
        stderr.contains("fine.trace: the input does not fail") && stderr.lines().count() == 1,
        "{stderr}"
    );
    assert!(!output.exists(), "no result is presented");
}

#[test]
fn errors_name_the_file_and_have_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("bad.trace");
    std::fs::write(&input, "z3-trace 1\nsort_bv 8\nreturn s1\nfrobnicate s1\n").unwrap();
    let out = ddtrace(&input, &dir.path().join("o.trace"), "x", &[]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("bad.trace:4:1"), "{stderr}");
    std::fs::write(&input, "z3-trace 1\nsort_bv 8\nreturn s1\n").unwrap();
    let missing = Command::new(ddtrace_bin())
        .args(["--untrace", "/nonexistent/untrace"])
        .arg(&input)
        .arg(dir.path().join("o.trace"))
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(3));
    let usage = Command::new(ddtrace_bin()).arg(&input).output().unwrap();
    assert_eq!(usage.status.code(), Some(2));
}

#[test]
fn the_input_is_never_the_output() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("t.trace");
    let text = "z3-trace 1\nsort_bv 8\nreturn s1\n";
    std::fs::write(&input, text).unwrap();
    let out = ddtrace(&input, &input, "sort_bv", &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("refusing to overwrite the input"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&input).unwrap(), text);
}

/// With stderr a pipe (a CI log), ddtrace prints a status line every --status-interval
/// (replays, size, reduction); `--json` records the run: Z3 version, times, command line,
/// host, line counts and the engine's figures. `-q` prints nothing.
#[test]
fn status_lines_in_a_log_and_the_json_result() {
    let dir = tempfile::tempdir().unwrap();
    let (input, output) = (dir.path().join("in.trace"), dir.path().join("out.trace"));
    let json = dir.path().join("result.json");
    let entries = random_trace(21, 90);
    std::fs::write(&input, render(&entries, Format::Text)).unwrap();
    let json_arg = json.to_str().unwrap();
    let extra = [
        "--ignore-output",
        "--status-interval",
        "0.1",
        "--json",
        json_arg,
    ];
    let out = ddtrace(&input, &output, "bvudiv", &extra);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| progress::is_status_line(l, "ddtrace"))
        .collect();
    assert!(!lines.is_empty(), "no status line:\n{stderr}");
    let last = lines.last().unwrap();
    assert!(
        last.contains("replays") && last.contains("% reduced") && last.contains("elapsed"),
        "{last}"
    );
    let result: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(result["schema_version"], 1);
    assert_eq!(result["tool"], "ddtrace");
    for time in ["start_time", "end_time"] {
        let t = result[time].as_str().unwrap();
        assert!(t.ends_with('Z') && t.len() == 20, "{time}: {t}");
    }
    assert!(result["argv"]
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a == json_arg));
    assert!(!result["host"].as_str().unwrap().is_empty());
    assert!(
        result["z3_version"].as_str().unwrap().starts_with('4'),
        "{result}"
    );
    let minimized = read(&std::fs::read(&output).unwrap()).unwrap().0;
    assert_eq!(result["input_lines"], line_count(&entries) as u64);
    assert_eq!(result["output_lines"], line_count(&minimized) as u64);
    assert_eq!(
        result["output_size"],
        std::fs::metadata(&output).unwrap().len()
    );
    let checks = result["checks"].as_u64().unwrap();
    let passes = result["passes"].as_array().unwrap();
    let pass_checks: u64 = passes.iter().map(|p| p["checks"].as_u64().unwrap()).sum();
    assert!(checks > 0 && pass_checks == checks, "{result}");
    assert!(result["cpu_seconds"].as_f64().unwrap() > 0.0);
    assert_eq!(result["interrupted"], false);

    let quiet = dir.path().join("quiet.trace");
    let out = ddtrace(
        &input,
        &quiet,
        "bvudiv",
        &["--ignore-output", "-q", "--status-interval", "0.1"],
    );
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "",
        "-q printed something"
    );
}

/// A finding of the relations family (traces/relations.trace with the test-only fault
/// `wrong-relation`, which reads a special relation's first value as unrelated to itself)
/// replays to its signature and minimizes to a short trace that still does.
#[test]
fn an_injected_relation_finding_replays_and_minimizes() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("relations.trace");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../traces/relations.trace"),
        &input,
    )
    .unwrap();
    let replay = |path: &Path| {
        Command::new(untrace_bin())
            .arg(path)
            .env("UNTRACE_INJECT", "wrong-relation")
            .env_remove("UNTRACE_FAIL_ON")
            .output()
            .expect("untrace runs")
    };
    const SIGNATURE: &str = "signature: model|check_relation: partial_order breaks reflexivity";
    let before = replay(&input);
    assert_eq!(before.status.code(), Some(5), "{before:?}");
    assert!(String::from_utf8_lossy(&before.stderr).contains(SIGNATURE));
    let output = dir.path().join("min.trace");
    let run = Command::new(ddtrace_bin())
        .arg("--untrace")
        .arg(untrace_bin())
        .args(["-j", "2"])
        .arg(&input)
        .arg(&output)
        .env("UNTRACE_INJECT", "wrong-relation")
        .env_remove("UNTRACE_FAIL_ON")
        .output()
        .expect("ddtrace runs");
    assert!(run.status.success(), "{run:?}");
    let after = replay(&output);
    assert_eq!(after.status.code(), Some(5), "{after:?}");
    assert!(String::from_utf8_lossy(&after.stderr).contains(SIGNATURE));
    let minimized = read(&std::fs::read(&output).unwrap()).unwrap().0;
    assert!(
        minimized.len() < 15,
        "{} entries left:\n{}",
        minimized.len(),
        String::from_utf8_lossy(&render(&minimized, Format::Text))
    );
    assert!(minimized
        .iter()
        .any(|e| matches!(e.call, model::Call::Relation { .. })));
}
