//! `untrace LOG` on Z3's own API logs: the logs of `traces/logs/` (recorded from the programs
//! in `traces/logs/programs/`) and logs these tests record afresh with the Python bindings on
//! the machine (Debian's `python3-z3` for Z3 4.8.12, the z3-solver wheel's for Z3 5.4.1, found
//! from `Z3_TEST_OTHER_LIB`) and a C program compiled against the system libz3. A log of a
//! crash bug replays to exit 6 with the signature the trace of the same bug has
//! (`traces/regress/`), on the release that wrote it and, by function name, on the other.
//! What the machine lacks is skipped with a message.

mod common;

use common::{debian_python, logs_dir, other_lib, record, repo, run, signature, wheel_python};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The signature the regression trace `name` replays to here.
fn trace_signature(name: &str) -> String {
    let path = repo().join("traces/regress").join(format!("{name}.trace"));
    let (code, stderr) = run(&[path.as_os_str()]);
    assert_eq!(code, 6, "{name}: {stderr}");
    signature(&stderr).expect("a signature")
}

/// The bug each recorded program reproduces: (program stem, regression trace, crashes on
/// 5.4.1 too).
const BUGS: &[(&str, &str, bool)] = &[
    ("translate_reset", "translate-reset-segfault", false),
    ("cube_empty", "cube-empty-solver-segfault", true),
    ("proof_bvsle", "proof-bvsle-contradiction-segfault", false),
    ("max_steps_pop", "max-steps-zero-pop-segfault", true),
];

/// Replays `log` here and checks it crashes with the signature of `trace`.
fn assert_crashes_like(log: &Path, trace: &str) {
    let (code, stderr) = run(&[log.as_os_str()]);
    assert_eq!(code, 6, "{}: {stderr}", log.display());
    assert_eq!(
        signature(&stderr),
        Some(trace_signature(trace)),
        "{}: {stderr}",
        log.display()
    );
}

#[test]
fn stored_logs_of_both_releases_crash_like_the_traces_of_their_bugs() {
    for (stem, trace, _) in BUGS {
        for version in ["4.8.12", "5.4.1"] {
            assert_crashes_like(&logs_dir().join(format!("{stem}-{version}.log")), trace);
        }
    }
    assert_crashes_like(
        &logs_dir().join("translate_reset_c-4.8.12.log"),
        "translate-reset-segfault",
    );
}

#[test]
fn out_parameters_symbol_arrays_doubles_and_messages_replay_without_z3_errors() {
    // coverage.py: enumeration, tuple and list datatypes (objects bound by `*` and `@`), a
    // quantifier (symbol arrays), a double parameter and a float numeral, escaped strings,
    // `M` lines, Optimize. A wrong binding would make later calls fail (counted with -v).
    let lib = std::env::var_os("Z3_TEST_OTHER_LIB");
    for version in ["4.8.12", "5.4.1"] {
        let log = logs_dir().join(format!("coverage-{version}.log"));
        let text = std::fs::read_to_string(&log).unwrap();
        assert!(
            text.lines().any(|l| l.starts_with("@ ")),
            "{version}: out-arrays"
        );
        assert!(
            text.lines().any(|l| l.starts_with("s ")),
            "{version}: symbol arrays"
        );
        assert!(
            text.lines().any(|l| l.starts_with("M ")),
            "{version}: messages"
        );
        let (code, stderr) = run(&["-v".as_ref(), log.as_os_str()]);
        assert_eq!(code, 0, "{version}: {stderr}");
        assert!(!stderr.contains("Z3 error(s)"), "{version}: {stderr}");
        if let Some(lib) = &lib {
            let (code, stderr) = run(&["-v".as_ref(), "--z3-lib".as_ref(), lib, log.as_os_str()]);
            assert_eq!(code, 0, "{version} on the other Z3: {stderr}");
            assert!(!stderr.contains("Z3 error(s)"), "{version}: {stderr}");
        }
    }
}

#[test]
fn a_log_that_hangs_z3_is_a_timeout() {
    // fp-uf-rounding-mode-push-hang through Python: 4.8.12 never returns from the push; the
    // program was killed, its log ends with the push.
    let log = logs_dir().join("fp_uf_push_hang-4.8.12.log");
    let (code, stderr) = run(&["--timeout".as_ref(), "1".as_ref(), log.as_os_str()]);
    assert_eq!(code, 7, "{stderr}");
    assert!(
        stderr.contains("fp_uf_push_hang-4.8.12.log:1034: ran past the time limit"),
        "{stderr}"
    );
    assert_eq!(
        signature(&stderr).as_deref(),
        Some("timeout|in Z3_solver_push")
    );
}

#[test]
fn a_log_replay_out_of_memory_is_a_memout() {
    // 40 MiB of address space is less than libz3 and its first context need.
    let log = logs_dir().join("cube_empty-4.8.12.log");
    let (code, stderr) = run(&["--memout".as_ref(), "40".as_ref(), log.as_os_str()]);
    assert_eq!(code, 8, "{stderr}");
    assert!(
        signature(&stderr).is_some_and(|s| s.starts_with("memout|")),
        "{stderr}"
    );
}

#[test]
fn a_query_the_loaded_z3_lacks_is_skipped_with_a_warning() {
    // The 5.4.1 binding asks Z3_is_finite_set_sort of every term it wraps; 4.8.12 lacks it.
    let log = logs_dir().join("probe-5.4.1.log");
    let (code, stderr) = run(&[log.as_os_str()]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("warning: ")
            && stderr.contains("skipped 4 call(s) of Z3_is_finite_set_sort"),
        "{stderr}"
    );
    assert!(
        stderr.contains("written by Z3 5.4.1.0, replayed by function name"),
        "{stderr}"
    );
}

#[test]
fn z3_errors_the_program_caught_are_counted_not_findings() {
    // max_steps_pop catches Z3's "max. steps exceeded"; stopping before the crashing pop, the
    // replay passes and -v counts the error.
    let log = logs_dir().join("max_steps_pop-4.8.12.log");
    let (code, stderr) = run(&[
        "-v".as_ref(),
        "--stop-after".as_ref(),
        "280".as_ref(),
        log.as_os_str(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("1 Z3 error(s) during the replay"),
        "{stderr}"
    );
    assert!(stderr.contains("max. steps exceeded"), "{stderr}");
}

/// Writes `text` to a fresh file in `dir` and replays it: (exit code, stderr).
fn replay_text(dir: &Path, name: &str, text: &str) -> (i32, String, PathBuf) {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    let (code, stderr) = run(&[path.as_os_str()]);
    (code, stderr, path)
}

/// The number of function `name` in release `version`'s table.
fn number(version: &str, name: &str) -> u32 {
    z3log::Table::for_version(version)
        .unwrap()
        .by_name(name)
        .unwrap_or_else(|| panic!("{name} in {version}"))
        .number
}

/// A log of `version` that makes a context and then calls `function` on it.
fn context_then(version: &str, function: &str) -> String {
    format!(
        "V \"{version}\"\nR\nC {}\n= 0x10\nR\nP 0x10\nC {}\n= 0x20\nR\nP 0x20\nC {}\n= 0x30\n",
        number(version, "Z3_mk_config"),
        number(version, "Z3_mk_context_rc"),
        number(version, function)
    )
}

#[test]
fn malformed_logs_are_one_line_errors_with_exit_3() {
    let dir = tempfile::tempdir().unwrap();
    let cases: Vec<(&str, String, &str)> = vec![
        ("unknown-command.log", "V \"4.8.12.0\"\nR\nX\n".into(), ":3: unknown log command `X`"),
        ("unbound.log", "V \"4.8.12.0\"\nR\nP 0x99\nC 3\n".into(), ":3: object 0x99 is not one"),
        (
            "unknown-release.log",
            "V \"4.7.1.0\"\nR\nC 3\n".into(),
            "written by Z3 4.7.1.0, which has no call table (tables: 4.8.12.0,",
        ),
        ("no-version.log", "R\nC 3\n".into(), ":1: no `V` line"),
        (
            "wrong-arguments.log",
            format!("V \"4.8.12.0\"\nR\nC {}\n", number("4.8.12.0", "Z3_solver_check")),
            ":3: Z3_solver_check takes 2 logged arguments, the log has 0",
        ),
        (
            "wrong-kind.log",
            "V \"4.8.12.0\"\nR\nC 3\n= 0x10\nR\nS \"x\"\nC 4\n".into(),
            ":7: argument 0 of Z3_del_config is a string, the function takes a Z3 object (CONFIG)",
        ),
        (
            "number-beyond.log",
            "V \"4.8.12.0\"\nR\nC 9999\n".into(),
            ":3: call number 9999 is not a function of Z3 4.8.12.0 (its table has 688)",
        ),
        (
            "short-array.log",
            format!(
                "V \"4.8.12.0\"\nR\nC 3\n= 0x10\nR\nP 0x10\nC 7\n= 0x20\nR\nP 0x20\nU 5\nP 0\np 1\nC {}\n",
                number("4.8.12.0", "Z3_mk_add")
            ),
            ":14: argument 2 of Z3_mk_add is an array of 1, but its length argument says 5",
        ),
    ];
    for (name, text, expected) in cases {
        let (code, stderr, path) = replay_text(dir.path(), name, &text);
        assert_eq!(code, 3, "{name}: {stderr}");
        let line = stderr.trim_end();
        assert!(!line.contains('\n'), "{name}: one line: {stderr}");
        assert!(
            line.starts_with(&format!("untrace: {}", path.display())),
            "{name}: {line}"
        );
        assert!(line.contains(expected), "{name}: {line}");
    }
}

#[test]
fn a_function_the_loaded_z3_lacks_is_an_error_naming_it() {
    // Z3_mk_char_sort came after 4.8.12 and is no query: the replay cannot go on without it.
    let dir = tempfile::tempdir().unwrap();
    let text = context_then("5.4.1.0", "Z3_mk_char_sort");
    let (code, stderr, path) = replay_text(dir.path(), "char.log", &text);
    assert_eq!(code, 3, "{stderr}");
    assert!(
        stderr.contains(&format!(
            "untrace: {}:11: Z3_mk_char_sort is not in the loaded libz3 (Z3 4.8.12.0)",
            path.display()
        )),
        "{stderr}"
    );
}

#[test]
fn logs_replay_by_name_on_the_other_release() {
    let Some(lib) = other_lib() else { return };
    for (stem, _, crashes_there) in BUGS {
        for version in ["4.8.12", "5.4.1"] {
            let log = logs_dir().join(format!("{stem}-{version}.log"));
            let (code, stderr) = run(&["--z3-lib".as_ref(), lib.as_os_str(), log.as_os_str()]);
            let expected = if *crashes_there { 6 } else { 0 };
            assert_eq!(
                code,
                expected,
                "{stem}-{version} on {}: {stderr}",
                lib.display()
            );
        }
    }
}

#[test]
fn diff_lib_says_whether_the_log_still_crashes_the_other_z3() {
    let Some(lib) = other_lib() else { return };
    // Fixed in 5.4.1: a version difference.
    let log = logs_dir().join("translate_reset-4.8.12.log");
    let (code, stderr) = run(&["--diff-lib".as_ref(), lib.as_os_str(), log.as_os_str()]);
    assert_eq!(code, 9, "{stderr}");
    let sig = signature(&stderr).unwrap();
    assert!(
        sig.starts_with("version-diff|log: crash on 4.8.12.0, replays on 5."),
        "{sig}"
    );
    // Still there in 5.4.1: this side's crash stands, and a note says the other crashes too.
    let log = logs_dir().join("cube_empty-4.8.12.log");
    let (code, stderr) = run(&["--diff-lib".as_ref(), lib.as_os_str(), log.as_os_str()]);
    assert_eq!(code, 6, "{stderr}");
    assert!(stderr.contains("it ends in crash|SIGSEGV"), "{stderr}");
    assert_eq!(
        signature(&stderr),
        Some(trace_signature("cube-empty-solver-segfault"))
    );
}

#[test]
fn fresh_logs_of_debians_python_binding_replay_to_the_traces_signatures() {
    let Some(python) = debian_python() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for (stem, trace, _) in BUGS {
        let log = record(&python, stem, dir.path().join(format!("{stem}.log")));
        assert_crashes_like(&log, trace);
    }
}

#[test]
fn fresh_logs_of_the_wheels_python_binding_replay_on_both_releases() {
    let Some(python) = wheel_python() else { return };
    let Some(lib) = other_lib() else { return };
    let dir = tempfile::tempdir().unwrap();
    for (stem, trace, crashes_there) in BUGS {
        let log = record(&python, stem, dir.path().join(format!("{stem}.log")));
        assert_crashes_like(&log, trace);
        let (code, stderr) = run(&["--z3-lib".as_ref(), lib.as_os_str(), log.as_os_str()]);
        assert_eq!(code, if *crashes_there { 6 } else { 0 }, "{stem}: {stderr}");
    }
    // The wheel's binding asks what 4.8.12 cannot answer.
    let log = record(&python, "probe", dir.path().join("probe.log"));
    let (code, stderr) = run(&[log.as_os_str()]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("of Z3_is_finite_set_sort, which Z3 4.8.12.0 lacks"),
        "{stderr}"
    );
}

#[test]
fn a_c_programs_log_replays_to_the_traces_signature() {
    let dir = tempfile::tempdir().unwrap();
    let Some(program) = compiled(dir.path(), "translate_reset") else {
        return;
    };
    let log = dir.path().join("c.log");
    let _ = Command::new(&program)
        .arg(&log)
        .output()
        .expect("the program runs");
    assert_crashes_like(&log, "translate-reset-segfault");
    if let Some(lib) = other_lib() {
        let (code, stderr) = run(&["--z3-lib".as_ref(), lib.as_os_str(), log.as_os_str()]);
        assert_eq!(code, 0, "fixed in the other Z3: {stderr}");
    }
}

#[test]
fn a_context_holding_a_lambda_is_deleted_by_5_4_1_not_by_4_8_12() {
    // lambda_delete.c: a lambda made by Z3_mk_lambda_const, referenced, then
    // Z3_del_context. Its log from 5.4.1 (which deletes the context) replays by function
    // name on 4.8.12 to UNREACHABLE at ast.cpp:432 in Z3_del_context.
    let log = logs_dir().join("lambda_delete-5.4.1.log");
    let (code, stderr) = run(&[log.as_os_str()]);
    assert_eq!(code, 6, "{stderr}");
    assert_eq!(
        signature(&stderr).as_deref(),
        Some("crash|assertion violation at src/ast/ast.cpp:432"),
        "{stderr}"
    );
    assert!(stderr.contains("in `Z3_del_context`"), "{stderr}");
    if let Some(lib) = other_lib() {
        let (code, stderr) = run(&["--z3-lib".as_ref(), lib.as_os_str(), log.as_os_str()]);
        assert_eq!(code, 0, "5.4.1 deletes the context: {stderr}");
    }
    // 4.8.12's own log of the program cannot be replayed: Z3 4.8.12 logs no result of
    // Z3_mk_lambda_const, so the lambda's next use names an object no call returned. A
    // malformed log is a one-line error with exit 3, never evidence of the crash.
    let dir = tempfile::tempdir().unwrap();
    let Some(program) = compiled(dir.path(), "lambda_delete") else {
        return;
    };
    let log = dir.path().join("lambda_delete.log");
    let _ = Command::new(&program)
        .arg(&log)
        .output()
        .expect("the program runs");
    let (code, stderr) = run(&[log.as_os_str()]);
    assert_eq!(code, 3, "{stderr}");
    assert!(
        stderr.contains("is not one an earlier call returned"),
        "{stderr}"
    );
}

/// `traces/logs/programs/NAME.c` built against the system libz3 in `dir`; `None` (with a
/// message) where the machine has no C compiler or Z3 headers.
fn compiled(dir: &Path, name: &str) -> Option<PathBuf> {
    let program = dir.join(name);
    let source = logs_dir().join(format!("programs/{name}.c"));
    let built = Command::new("cc")
        .arg("-o")
        .arg(&program)
        .arg(&source)
        .arg("-lz3")
        .output();
    match built {
        Ok(out) if out.status.success() => Some(program),
        Ok(out) => {
            eprintln!(
                "skipped: cc cannot build against libz3: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            None
        }
        Err(e) => {
            eprintln!("skipped: no C compiler: {e}");
            None
        }
    }
}
