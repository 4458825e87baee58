//! `untrace --convert OUT LOG [--with-checks]`: Z3 API logs lifted into traces. The crash
//! logs of `traces/logs/` (and logs recorded afresh with both Python bindings and a C
//! program) lift into traces that replay to the signature of their log, on the release that
//! wrote them and across releases; a passing program's lifted trace passes, and with
//! `--with-checks` a wrong answer (injected) is a finding. What the machine lacks (a binding,
//! the second Z3, a C compiler) is skipped with a message.

mod common;

use common::{debian_python, logs_dir, other_lib, record, run, run_env, signature, wheel_python};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Lifts `log` into `dir/NAME.trace` (with `extra` options): the trace's path and stderr.
fn lift(log: &Path, dir: &Path, extra: &[&str]) -> (PathBuf, String) {
    let name = log.file_stem().unwrap().to_string_lossy();
    let out = dir.join(format!("{name}.trace"));
    let mut args: Vec<&OsStr> = vec!["--convert".as_ref(), out.as_os_str()];
    args.extend(extra.iter().map(|a| OsStr::new(*a)));
    args.push(log.as_os_str());
    let (code, stderr) = run(&args);
    assert_eq!(code, 0, "{}: {stderr}", log.display());
    (out, stderr)
}

/// `log` and its lifted trace replay (with `--z3-lib LIB` where given) to the same exit code
/// and signature; returns them.
fn assert_same_outcome(log: &Path, trace: &Path, lib: Option<&Path>) -> (i32, Option<String>) {
    let with_lib = |file: &Path| {
        let mut args: Vec<&OsStr> = Vec::new();
        if let Some(lib) = lib {
            args.extend(["--z3-lib".as_ref(), lib.as_os_str()]);
        }
        args.extend(["--timeout".as_ref(), "60".as_ref(), file.as_os_str()]);
        run(&args)
    };
    let (log_code, log_err) = with_lib(log);
    let (trace_code, trace_err) = with_lib(trace);
    let context = || format!("{}:\nlog: {log_err}\ntrace: {trace_err}", log.display());
    assert_eq!(log_code, trace_code, "{}", context());
    assert_eq!(signature(&log_err), signature(&trace_err), "{}", context());
    (trace_code, signature(&trace_err))
}

/// The crash logs of `traces/logs/` with whether they crash 5.4.1 too.
const CRASHES: &[(&str, bool)] = &[
    ("translate_reset", false),
    ("cube_empty", true),
    ("proof_bvsle", false),
    ("max_steps_pop", true),
];

#[test]
fn stored_crash_logs_lift_into_traces_that_replay_to_the_same_signature() {
    let dir = tempfile::tempdir().unwrap();
    for (stem, _) in CRASHES {
        for version in ["4.8.12", "5.4.1"] {
            let log = logs_dir().join(format!("{stem}-{version}.log"));
            let (trace, stderr) = lift(&log, dir.path(), &[]);
            assert!(!stderr.contains("not lifted"), "{stem}: {stderr}");
            let (code, _) = assert_same_outcome(&log, &trace, None);
            assert_eq!(code, 6, "{stem}-{version}");
        }
    }
    let log = logs_dir().join("translate_reset_c-4.8.12.log");
    let (trace, _) = lift(&log, dir.path(), &[]);
    assert_eq!(assert_same_outcome(&log, &trace, None).0, 6);
}

#[test]
fn a_caught_z3_error_is_lifted_as_some_error() {
    // max_steps_pop's program catches the error of its assert_and_track (Python asked for
    // the message): the trace records `return error ""`, which any error matches, so the
    // replay goes on to the crash of the pop.
    let dir = tempfile::tempdir().unwrap();
    let log = logs_dir().join("max_steps_pop-4.8.12.log");
    let (trace, _) = lift(&log, dir.path(), &[]);
    let text = std::fs::read_to_string(&trace).unwrap();
    assert!(
        text.contains("assert_and_track z1 t1 t1\nreturn error \"\"\n"),
        "{text}"
    );
    assert!(text.trim_end().ends_with("pop z1 1"), "{text}");
}

#[test]
fn a_hanging_log_lifts_into_a_trace_that_times_out_in_push() {
    let dir = tempfile::tempdir().unwrap();
    let log = logs_dir().join("fp_uf_push_hang-4.8.12.log");
    let (trace, _) = lift(&log, dir.path(), &[]);
    let (code, stderr) = run(&["--timeout".as_ref(), "3".as_ref(), trace.as_os_str()]);
    assert_eq!(code, 7, "{stderr}");
    assert_eq!(
        signature(&stderr).as_deref(),
        Some("timeout|in push without a resource limit")
    );
}

#[test]
fn coverage_logs_lift_whole_and_replay_without_finding() {
    let dir = tempfile::tempdir().unwrap();
    for version in ["4.8.12", "5.4.1"] {
        let log = logs_dir().join(format!("coverage-{version}.log"));
        // Enumerations, tuples, a datatype named `List` (renamed), quantifiers, an FP
        // numeral in Z3's notation, escaped strings, Optimize: nothing left out.
        let (trace, stderr) = lift(&log, dir.path(), &["--with-checks"]);
        assert!(!stderr.contains("untrace:"), "{stderr}");
        assert_eq!(assert_same_outcome(&log, &trace, None).0, 0);
    }
}

#[test]
fn convert_never_overwrites_its_input_and_reports_bad_logs_by_line() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("in.log");
    std::fs::copy(logs_dir().join("cube_empty-4.8.12.log"), &log).unwrap();
    let before = std::fs::read(&log).unwrap();
    let (code, stderr) = run(&["--convert".as_ref(), log.as_os_str(), log.as_os_str()]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("would overwrite the input"), "{stderr}");
    assert_eq!(std::fs::read(&log).unwrap(), before);
    let bad = dir.path().join("bad.log");
    std::fs::write(&bad, "V \"4.8.12.0\"\nR\nP 0x1\nC 3\n").unwrap();
    let out = dir.path().join("bad.trace");
    let (code, stderr) = run(&["--convert".as_ref(), out.as_os_str(), bad.as_os_str()]);
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.contains("bad.log:3:"), "{stderr}");
    assert!(!out.exists());
    let (code, stderr) = run(&[
        "--with-checks".as_ref(),
        logs_dir().join("cube_empty-4.8.12.log").as_os_str(),
    ]);
    assert_eq!(code, 2, "{stderr}");
}

#[test]
fn lifted_traces_replay_across_releases_like_their_logs() {
    let Some(lib) = other_lib() else { return };
    let dir = tempfile::tempdir().unwrap();
    for (stem, crashes_there) in CRASHES {
        for version in ["4.8.12", "5.4.1"] {
            let log = logs_dir().join(format!("{stem}-{version}.log"));
            let (trace, _) = lift(&log, dir.path(), &[]);
            let (code, _) = assert_same_outcome(&log, &trace, Some(&lib));
            assert_eq!(code, if *crashes_there { 6 } else { 0 }, "{stem}-{version}");
        }
    }
}

/// Debian's Python (`python3-z3`, Z3 4.8.12) and the wheel's (Z3 5.4.1), those present.
fn pythons() -> Vec<PathBuf> {
    debian_python().into_iter().chain(wheel_python()).collect()
}

/// Programs of ordinary use (`traces/logs/programs/`) and the functions their logs call that
/// the model cannot express.
const ORDINARY: &[(&str, &[&str])] = &[
    // Integers, reals, bit-vectors, functions, arrays, quantifiers, datatypes, Optimize,
    // tactics and goals, models, cores.
    ("ordinary", &[]),
    // Every theory through the binding's helpers, parameters, a second context, tactics with
    // parameters, enumerations, recursive datatypes, patterns: `str.indexof` is no
    // operation of the model.
    ("theories", &["Z3_mk_seq_index"]),
];

#[test]
fn ordinary_programs_lifted_traces_pass_and_with_checks_find_a_wrong_model() {
    let dir = tempfile::tempdir().unwrap();
    for (tag, python) in pythons().iter().enumerate() {
        for (stem, missing) in ORDINARY {
            let log = record(python, stem, dir.path().join(format!("{stem}-{tag}.log")));
            let (trace, stderr) = lift(&log, dir.path(), &[]);
            let not_lifted: Vec<&str> = stderr
                .lines()
                .filter_map(|l| l.split_once("not lifted: "))
                .map(|(_, rest)| rest.split(' ').next().unwrap())
                .collect();
            assert_eq!(&not_lifted, missing, "{stem}: {stderr}");
            assert_eq!(assert_same_outcome(&log, &trace, None).0, 0, "{stem}");
            let checks_dir = dir.path().join(format!("checks-{stem}-{tag}"));
            std::fs::create_dir(&checks_dir).unwrap();
            let (checked, _) = lift(&log, &checks_dir, &["--with-checks"]);
            let text = std::fs::read_to_string(&checked).unwrap();
            for check in ["check_model", "check_indep"] {
                assert!(text.contains(check), "{stem}: {check} missing:\n{text}");
            }
            let (code, stderr) = run(&[checked.as_os_str()]);
            assert_eq!(code, 0, "{stem}: {stderr}");
            // A Z3 whose models falsify the assertions: the lifted checks find it.
            let inject = [("UNTRACE_INJECT", "wrong-model")];
            let (code, stderr) = run_env(&[checked.as_os_str()], &inject);
            assert_eq!(code, 5, "{stem}: {stderr}");
            assert!(
                signature(&stderr).is_some_and(|s| s.starts_with("model|")),
                "{stderr}"
            );
            if *stem == "ordinary" {
                for check in ["check_core", "check_opt_values", "check_opt_better"] {
                    assert!(text.contains(check), "{check} missing:\n{text}");
                }
                // Without the checks the same wrong answer goes unnoticed.
                let (code, stderr) = run_env(&[trace.as_os_str()], &inject);
                assert_eq!(code, 0, "{stderr}");
            }
        }
    }
}

#[test]
fn fresh_crash_logs_of_both_bindings_lift_to_their_signatures() {
    let dir = tempfile::tempdir().unwrap();
    for (tag, python) in pythons().iter().enumerate() {
        for (stem, _) in CRASHES {
            let log = record(python, stem, dir.path().join(format!("{stem}-{tag}.log")));
            let (trace, _) = lift(&log, dir.path(), &[]);
            assert_eq!(assert_same_outcome(&log, &trace, None).0, 6, "{stem}");
        }
    }
}

#[test]
fn a_c_programs_log_lifts_to_its_signature() {
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("translate_reset");
    let built = Command::new("cc")
        .arg("-o")
        .arg(&program)
        .arg(logs_dir().join("programs/translate_reset.c"))
        .arg("-lz3")
        .output();
    match built {
        Ok(out) if out.status.success() => {}
        Ok(out) => {
            let why = String::from_utf8_lossy(&out.stderr);
            eprintln!("skipped: cc cannot build against libz3: {why}");
            return;
        }
        Err(e) => {
            eprintln!("skipped: no C compiler: {e}");
            return;
        }
    }
    let log = dir.path().join("c.log");
    let _ = Command::new(&program).arg(&log).output().expect("runs");
    let (trace, _) = lift(&log, dir.path(), &[]);
    assert_eq!(assert_same_outcome(&log, &trace, None).0, 6);
    if let Some(lib) = other_lib() {
        assert_eq!(assert_same_outcome(&log, &trace, Some(&lib)).0, 0);
    }
}
