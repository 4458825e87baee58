//! The hand-written traces of `traces/`: each replays with exit 0, together they use every
//! call kind, sort and operation, they survive conversion to binary and back, and their
//! SMT-LIB form gives Z3's command line the recorded answers. Also the other exit codes.

mod common;

use common::{stderr, untrace, write_trace};
use model::call::Call;
use model::trace::{self, Trace};
use model::Sort;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn traces_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../traces")
}

fn trace_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(traces_dir())
        .expect("traces/ exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "trace"))
        .collect();
    files.sort();
    files
}

fn parse(path: &Path) -> Trace {
    trace::parse(&std::fs::read(path).expect("readable")).expect("a valid trace")
}

#[test]
fn every_trace_replays_with_exit_0() {
    let files = trace_files();
    assert!(files.len() >= 10, "only {} traces", files.len());
    for file in files {
        let out = untrace(&[file.as_os_str()]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}: {}",
            file.display(),
            stderr(&out)
        );
    }
}

fn sort_kind(sort: &Sort) -> &'static str {
    match sort {
        Sort::Bool => "Bool",
        Sort::Int => "Int",
        Sort::Real => "Real",
        Sort::BitVec(_) => "BitVec",
        Sort::Array(..) => "Array",
        Sort::FloatingPoint(..) => "FloatingPoint",
        Sort::RoundingMode => "RoundingMode",
        Sort::String => "String",
        Sort::RegLan => "RegLan",
        Sort::Seq(_) => "Seq",
        Sort::FiniteSet(_) => "FiniteSet",
        Sort::FiniteField(_) => "FiniteField",
        Sort::Named(..) => "uninterpreted",
    }
}

#[test]
fn traces_cover_every_call_sort_and_operation() {
    let mut calls = BTreeSet::new();
    let mut sorts = BTreeSet::new();
    // The calls of functions only newer Z3s have are covered by `traces/newer/`, which
    // 4.8.12 refuses to replay (`tests/tests/reads.rs` replays them on the newer Z3).
    let newer = std::fs::read_dir(traces_dir().join("newer"))
        .expect("traces/newer/ exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "trace"));
    for file in trace_files().into_iter().chain(newer) {
        let trace = parse(&file);
        let mut state = model::State::new();
        for entry in &trace.entries {
            calls.insert(entry.call.name());
            // `new_solver` kinds count as separate calls.
            if let Call::NewSolver(kind) = &entry.call {
                calls.insert(match kind {
                    model::SolverKind::Default => "new_solver",
                    model::SolverKind::Logic(_) => "new_solver logic",
                    model::SolverKind::Tactic(_) => "new_solver tactic",
                    model::SolverKind::FromTactic(_) => "new_solver from_tactic",
                });
            }
            if let Ok(Some(sort)) = state.result_sort(&entry.call) {
                sorts.insert(sort_kind(&sort));
            }
            state.apply(&entry.call, entry.ret.as_ref()).expect("valid");
        }
    }
    let mut wanted: Vec<&str> = Call::action_names().to_vec();
    wanted.extend(model::ops::OPS.iter().map(|op| op.name));
    wanted.extend([
        "new_solver logic",
        "new_solver tactic",
        "new_solver from_tactic",
    ]);
    let missing: Vec<&&str> = wanted.iter().filter(|n| !calls.contains(*n)).collect();
    assert!(missing.is_empty(), "no trace uses {missing:?}");
    for sort in [
        "Bool",
        "Int",
        "Real",
        "BitVec",
        "Array",
        "FloatingPoint",
        "RoundingMode",
        "String",
        "Seq",
        "FiniteSet",
        "FiniteField",
        "uninterpreted",
    ] {
        assert!(
            sorts.contains(sort),
            "no trace builds a term of sort {sort}"
        );
    }
}

#[test]
fn binary_conversion_replays_and_converts_back() {
    let dir = tempfile::tempdir().expect("temp dir");
    for file in trace_files() {
        let bin = dir.path().join("t.bin");
        let text = dir.path().join("t.trace");
        let out = untrace(&[file.as_os_str(), "--convert".as_ref(), bin.as_os_str()]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let bytes = std::fs::read(&bin).expect("written");
        assert!(bytes.starts_with(model::trace::binary::MAGIC));
        let out = untrace(&[bin.as_os_str()]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let out = untrace(&[bin.as_os_str(), "--convert".as_ref(), text.as_os_str()]);
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(
            parse(&text).entries,
            parse(&file).entries,
            "{}",
            file.display()
        );
    }
}

/// The check-sat answers Z3's command line gives on the SMT-LIB form equal the recorded ones.
#[test]
fn smt2_scripts_give_the_recorded_answers() {
    let Ok(version) = Command::new("z3").arg("-version").output() else {
        eprintln!("skipped: no `z3` executable on PATH");
        return;
    };
    assert!(version.status.success());
    let dir = tempfile::tempdir().expect("temp dir");
    let script = dir.path().join("t.smt2");
    for file in trace_files() {
        let out = untrace(&[file.as_os_str(), "--smt2".as_ref(), script.as_os_str()]);
        assert_eq!(out.status.code(), Some(0));
        let text = std::fs::read_to_string(&script).expect("written");
        let recorded: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("; recorded: "))
            .collect();
        let z3 = Command::new("z3").arg(&script).output().expect("z3 runs");
        let stdout = String::from_utf8_lossy(&z3.stdout);
        assert!(!stdout.contains("(error"), "{}: {stdout}", file.display());
        let answers: Vec<&str> = stdout
            .lines()
            .filter(|l| matches!(*l, "sat" | "unsat" | "unknown"))
            .collect();
        assert_eq!(answers, recorded, "{}", file.display());
        assert!(!answers.is_empty(), "{}", file.display());
    }
}

const TWO_BOOLS: &str =
    "sort_bool\nreturn s1\nconst s1 \"p\"\nreturn t1\nnot t1\nreturn t2\nnew_solver\nreturn z1\n";

#[test]
fn a_trace_cut_short_inside_an_object_creating_call_replays_to_that_call() {
    let dir = tempfile::tempdir().expect("temp dir");
    // What a recorder leaves when Z3 crashes inside the last call: no `return` line.
    let path = write_trace(dir.path(), "cut.trace", &format!("{TWO_BOOLS}and t1 t2\n"));
    let out = untrace(&[path.as_os_str()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // The last call does run: a failure injected there reproduces.
    let out = Command::new(env!("CARGO_BIN_EXE_untrace"))
        .arg(&path)
        .env("UNTRACE_FAIL_ON", "and t1 t2")
        .output()
        .expect("untrace runs");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(6), "a crash: {err}");
    assert!(
        err.contains("cut.trace:10: killed by SIGABRT in `and`"),
        "{err}"
    );
}

#[test]
fn a_different_answer_is_a_mismatch_with_exit_1() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = write_trace(
        dir.path(),
        "m.trace",
        &format!("{TWO_BOOLS}assert z1 t1\nassert z1 t2\ncheck_sat z1\nreturn sat\n"),
    );
    let out = untrace(&[path.as_os_str()]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("m.trace:12: replay mismatch"), "{err}");
    // Without checks the same trace replays.
    let out = untrace(&[path.as_os_str(), "--no-check".as_ref()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn a_different_value_or_core_size_is_a_mismatch() {
    let dir = tempfile::tempdir().expect("temp dir");
    let value = write_trace(
        dir.path(),
        "v.trace",
        &format!("{TWO_BOOLS}assert z1 t1\ncheck_sat z1\nreturn sat\nget_model z1\nreturn m1\nmodel_eval m1 t2 true\nreturn \"true\"\n"),
    );
    let out = untrace(&[value.as_os_str()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let core = write_trace(
        dir.path(),
        "c.trace",
        &format!("{TWO_BOOLS}assert z1 t2\ncheck_sat_assuming z1 t1\nreturn unsat\nget_unsat_core z1\nreturn t1 t1\n"),
    );
    let out = untrace(&[core.as_os_str()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("c.trace:13:"));
}

#[test]
fn a_bad_parameter_is_a_z3_error_with_exit_4() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = write_trace(
        dir.path(),
        "p.trace",
        &format!(
            "{TWO_BOOLS}set_param z1 \"no_such_parameter\" \"true\"\ncheck_sat z1\nreturn sat\n"
        ),
    );
    let out = untrace(&[path.as_os_str()]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(4), "{err}");
    // Z3 reports the bad parameter at the next check, as the contract says.
    assert!(
        err.contains("p.trace:11: z3 error: Exception: unknown parameter"),
        "{err}"
    );
    assert!(err.len() < 400, "{err}");
    // The message, then the finding's signature: where (`solving` for an exception of a
    // call that processes the assertions) and the message without numbers.
    assert_eq!(err.trim().lines().count(), 2, "{err}");
    assert!(
        err.ends_with(
            "untrace: signature: z3-error|solving: Exception: unknown parameter 'no_such_parameter'\n"
        ),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn a_parse_error_in_from_string_is_a_z3_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = write_trace(
        dir.path(),
        "f.trace",
        "new_solver\nreturn z1\nfrom_string z1 \"(assert (> y\"\n",
    );
    let out = untrace(&[path.as_os_str()]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(4), "{err}");
    assert!(err.contains("f.trace:4: z3 error:"), "{err}");
}

#[test]
fn usage_errors_exit_2() {
    let out = untrace(&["/nonexistent/x.trace".as_ref()]);
    assert_eq!(out.status.code(), Some(2));
    let out = untrace(&["--no-such-flag".as_ref()]);
    assert_eq!(out.status.code(), Some(2));
    let out = untrace(&["--help".as_ref()]);
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(
        help.contains("Exit codes") && help.contains("5  an oracle check failed"),
        "{help}"
    );
}

#[test]
fn stop_after_skips_later_lines() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = write_trace(
        dir.path(),
        "s.trace",
        &format!("{TWO_BOOLS}assert z1 t1\nassert z1 t2\ncheck_sat z1\nreturn sat\n"),
    );
    let out = untrace(&[path.as_os_str(), "--stop-after".as_ref(), "11".as_ref()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = untrace(&[
        path.as_os_str(),
        "-v".as_ref(),
        "--stop-after".as_ref(),
        "12".as_ref(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("check_sat z1"));
}

#[test]
fn fail_on_aborts_at_the_matching_call() {
    let file = traces_dir().join("core_bool.trace");
    let out = Command::new(env!("CARGO_BIN_EXE_untrace"))
        .arg(&file)
        .env("UNTRACE_FAIL_ON", "xor t1")
        .output()
        .expect("untrace runs");
    // The replay runs in a child: its abort is a crash with exit 6 and a signature.
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(6), "{err}");
    assert!(err.contains("xor t1 t2"), "{err}");
    assert!(err.contains("signature: crash|SIGABRT in xor"), "{err}");
}
