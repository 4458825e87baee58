//! `untrace --report FILE`: the outcome of a replay as data (exit code, failure, typed
//! signature), written for a pass, a malformed trace, a crash and an oracle finding alike,
//! and agreeing with the signature line people read on stderr.

mod common;

use common::{stderr, write_trace};
use model::finding::{FailureKind, SIGNATURE_LINE};
use std::path::Path;
use std::process::{Command, Output};
use untrace::replay::{Exit, ReplayReport};

/// `x > 3` asserted to a solver, checked sat, with a model check.
const MODEL_CHECK: &str = "sort_int\nreturn s1\nconst s1 \"x\"\nreturn t1\nlit s1 \"3\"\n\
return t2\n> t1 t2\nreturn t3\nnew_solver\nreturn z1\nassert z1 t3\ncheck_sat z1\n\
return sat\nget_model z1\nreturn m1\ncheck_model m1 t3\n";

/// Replays `trace` with `--report` into `dir`, under the fault `inject` if any.
fn replay(dir: &Path, trace: &Path, inject: Option<&str>) -> (Output, ReplayReport) {
    let report = dir.join("report.json");
    let _ = std::fs::remove_file(&report);
    let mut command = Command::new(env!("CARGO_BIN_EXE_untrace"));
    command
        .arg("--report")
        .arg(&report)
        .arg(trace)
        .env_remove("UNTRACE_FAIL_ON")
        .env_remove("UNTRACE_INJECT");
    if let Some(fault) = inject {
        command.env("UNTRACE_INJECT", fault);
    }
    let out = command.output().expect("untrace runs");
    let read = ReplayReport::read(&report).unwrap_or_else(|| {
        panic!("no report written; stderr: {}", stderr(&out));
    });
    assert_eq!(
        out.status.code(),
        Some(read.exit),
        "the report's exit is the process's"
    );
    (out, read)
}

/// The signature line of `out`'s stderr (what people and ddtrace read).
fn signature_line(out: &Output) -> Option<String> {
    let text = stderr(out);
    let line = text.lines().last()?;
    let at = line.find(SIGNATURE_LINE)?;
    Some(line[at + SIGNATURE_LINE.len()..].to_string())
}

#[test]
fn a_passing_replay_reports_exit_0_and_no_failure() {
    let dir = tempfile::tempdir().unwrap();
    let trace = write_trace(dir.path(), "pass.trace", MODEL_CHECK);
    let (_, report) = replay(dir.path(), &trace, None);
    assert_eq!(report.exit_code(), Some(Exit::Ok));
    assert_eq!(report.failure, None);
    assert_eq!(report.signature, None);
}

#[test]
fn a_malformed_trace_reports_exit_3_and_no_failure() {
    let dir = tempfile::tempdir().unwrap();
    let trace = write_trace(dir.path(), "bad.trace", "bvfrobnicate t2 t2\n");
    let (out, report) = replay(dir.path(), &trace, None);
    assert_eq!(
        report.exit_code(),
        Some(Exit::Malformed),
        "{}",
        stderr(&out)
    );
    assert_eq!(report.failure, None);
    assert_eq!(report.signature, None);
}

#[test]
fn a_crash_reports_its_failure_and_signature() {
    let dir = tempfile::tempdir().unwrap();
    let trace = write_trace(dir.path(), "crash.trace", MODEL_CHECK);
    let (out, report) = replay(dir.path(), &trace, Some("abort@check_sat"));
    assert_eq!(report.exit_code(), Some(Exit::Crash), "{}", stderr(&out));
    let failure = report.failure.clone().expect("a failure");
    let signature = report.signature.clone().expect("a signature");
    assert_eq!(failure.kind, FailureKind::Crash);
    assert_eq!(signature, failure.signature());
    assert_eq!(failure.last_call.as_deref(), Some("check_sat"));
    assert_eq!(signature_line(&out), Some(signature.to_string()));
}

#[test]
fn an_oracle_finding_reports_its_typed_signature() {
    let dir = tempfile::tempdir().unwrap();
    let trace = write_trace(dir.path(), "eval.trace", MODEL_CHECK);
    // Z3's evaluation of `>` is wrong: the model check finds where it departs, and the
    // finding names that operation as data.
    let (out, report) = replay(dir.path(), &trace, Some("wrong-eval@>"));
    assert_eq!(report.exit_code(), Some(Exit::Oracle), "{}", stderr(&out));
    let signature = report.signature.clone().expect("a signature");
    assert_eq!(signature.kind, FailureKind::EvalDisagreement);
    assert_eq!(signature.operation.as_deref(), Some(">"));
    assert_eq!(
        signature.to_string(),
        "eval-disagreement|model_eval of > departs from the independent evaluator"
    );
    assert_eq!(
        Some(&signature),
        report.failure.map(|f| f.signature()).as_ref()
    );
    assert_eq!(signature_line(&out), Some(signature.to_string()));
}

#[test]
fn the_report_never_overwrites_the_trace() {
    let dir = tempfile::tempdir().unwrap();
    let trace = write_trace(dir.path(), "t.trace", MODEL_CHECK);
    let before = std::fs::read(&trace).unwrap();
    let out = common::untrace(&["--report".as_ref(), trace.as_os_str(), trace.as_os_str()]);
    assert_eq!(out.status.code(), Some(Exit::Usage as i32));
    assert!(stderr(&out).contains("--report"), "{}", stderr(&out));
    assert_eq!(std::fs::read(&trace).unwrap(), before);
}
