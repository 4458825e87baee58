//! `ddtrace LOG OUT` on Z3's own API logs of real crashes (`traces/logs/`, recorded from the
//! Python bindings of Z3 4.8.12 and 5.4.1 and from a C program): the result is a smaller log
//! that untrace replays to the input's signature and that Z3's own replayer (`z3 -log` of the
//! release that wrote it, where the machine has it) still crashes on. The second Z3 is the one
//! of `tests/src/other_z3.rs` (`Z3_TEST_OTHER_LIB`, else the z3-solver wheel in `.ci/venv`);
//! what the machine lacks is skipped with a message.

mod common;

#[path = "../../tests/src/other_z3.rs"]
mod other_z3;

use common::{ddtrace_bin, interrupted, untrace_bin};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use z3log::Table;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn log(name: &str) -> PathBuf {
    repo().join("traces/logs").join(name)
}

fn ddtrace(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(ddtrace_bin())
        .arg("--untrace")
        .arg(untrace_bin())
        .args(["-j", "2", "-v"])
        .args(args)
        .output()
        .expect("ddtrace runs")
}

/// untrace's replay of `path` (with `lib_args` first): its exit code and signature line.
fn replay(lib_args: &[&std::ffi::OsStr], path: &Path) -> (Option<i32>, Option<String>) {
    let out = Command::new(untrace_bin())
        .args(lib_args)
        .arg(path)
        .output()
        .expect("untrace runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let signature = stderr
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("untrace: signature: "))
        .map(str::to_string);
    (out.status.code(), signature)
}

/// The signal that ends `z3 -log path`, if any.
fn z3_log_signal(z3: &Path, path: &Path) -> Option<i32> {
    Command::new(z3)
        .arg("-log")
        .arg(path)
        .output()
        .expect("z3 runs")
        .status
        .signal()
}

/// Z3's own binary of `version` (`4.8.12`): Debian's `z3` on PATH, or the one beside the
/// second libz3 (a wheel's `VENV/bin/z3`), if its `-version` says so.
fn z3_binary(version: &str) -> Option<PathBuf> {
    let mut candidates: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).map(|d| d.join("z3")).collect())
        .unwrap_or_default();
    if let Some(lib) = other_z3::find(&repo()) {
        // VENV/lib/python3.X/site-packages/z3/lib/libz3.so -> VENV/bin/z3
        if let Some(venv) = lib.ancestors().nth(6) {
            candidates.push(venv.join("bin/z3"));
        }
    }
    let found = candidates.into_iter().filter(|p| p.is_file()).find(|z3| {
        Command::new(z3).arg("-version").output().is_ok_and(|out| {
            String::from_utf8_lossy(&out.stdout).contains(&format!("version {version} "))
        })
    });
    if found.is_none() {
        eprintln!("skipped: no z3 binary of Z3 {version} (z3 -log checks)");
    }
    found
}

/// Minimizes `name` of traces/logs with `extra` options; checks the result and returns its
/// text and ddtrace's stderr.
fn minimizes(
    name: &str,
    lib_args: &[&std::ffi::OsStr],
    extra: &[&std::ffi::OsStr],
) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let input = log(name);
    let output = dir.path().join("min.log");
    let json = dir.path().join("result.json");
    let mut args: Vec<&std::ffi::OsStr> = lib_args.to_vec();
    args.extend(extra);
    args.extend([
        "--json".as_ref(),
        json.as_os_str(),
        input.as_os_str(),
        output.as_os_str(),
    ]);
    let out = ddtrace(&args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{name}: {stderr}");
    // The same failure: untrace replays the result to the input's signature.
    let (code, signature) = replay(lib_args, &input);
    assert_eq!(code, Some(6), "{name} crashes");
    assert_eq!(
        replay(lib_args, &output),
        (code, signature.clone()),
        "{name}"
    );
    // Smaller, and still a log of the same release.
    let text = std::fs::read_to_string(&output).unwrap();
    let before = z3log::load(&input).unwrap();
    let after = z3log::parse::parse(text.as_bytes()).unwrap();
    assert_eq!(after.version, before.log.version, "{text}");
    let table: &Table = &before.table;
    let size_before = ddtrace::logs::size(&before.log, table);
    let size_after = ddtrace::logs::size(&after, table);
    assert!(
        size_after.calls * 2 < size_before.calls,
        "{name}: {size_before:?} -> {size_after:?}\n{text}"
    );
    // Reference counting and queries go first; what is left is the program's work.
    assert!(
        size_after.essential_calls <= 11,
        "{name}: {size_after:?}\n{text}"
    );
    let result: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(result["input_calls"], size_before.calls);
    assert_eq!(result["output_calls"], size_after.calls);
    assert_eq!(result["output_essential_calls"], size_after.essential_calls);
    assert_eq!(result["recorded_z3_version"], table.version.as_str());
    // Its lifted trace (beside it, `min.trace`) is a trace of the same failure, minimized by
    // the trace passes: it replays to the log's signature.
    let lifted = dir.path().join("min.trace");
    assert!(result["lifted_note"].is_null(), "{name}: {result:#}");
    let (entries, _) = ddtrace::trace_io::read(&std::fs::read(&lifted).unwrap()).unwrap();
    assert_eq!(
        replay(lib_args, &lifted),
        (code, signature.clone()),
        "{name}"
    );
    assert!(entries.len() <= 10, "{name}: {entries:?}");
    assert_eq!(
        result["lifted_output_lines"],
        ddtrace::trace_io::line_count(&entries)
    );
    // Z3's own replayer of the release that wrote it crashes on the result as on the input.
    let version = table.version.trim_end_matches(".0");
    if let Some(z3) = z3_binary(version) {
        let signal = z3_log_signal(&z3, &input);
        assert!(signal.is_some(), "{name}: z3 -log crashes on the input");
        assert_eq!(z3_log_signal(&z3, &output), signal, "{name}:\n{text}");
    }
    (text, stderr)
}

#[test]
fn crash_logs_of_python_and_c_programs_minimize_to_the_same_signature() {
    for name in [
        "cube_empty-4.8.12.log",
        "translate_reset_c-4.8.12.log",
        "max_steps_pop-4.8.12.log",
        "proof_bvsle-4.8.12.log",
    ] {
        let (text, stderr) = minimizes(name, &[], &[]);
        assert!(stderr.contains("golden replay: exit 6"), "{stderr}");
        assert!(stderr.contains("log-noise"), "{stderr}");
        // The summary counts calls besides the context and reference counting.
        assert!(stderr.contains("besides the context"), "{stderr}");
        assert!(text.starts_with("V \"4.8.12.0\"\n"), "{text}");
    }
}

#[test]
fn with_z3_binary_every_candidate_crashes_z3s_own_replayer_too() {
    let Some(z3) = z3_binary("4.8.12") else {
        return;
    };
    let (_, stderr) = minimizes(
        "translate_reset-4.8.12.log",
        &[],
        &["--z3-binary".as_ref(), z3.as_os_str()],
    );
    assert!(
        stderr.contains("golden run of `z3 -log`: exit signal 11"),
        "{stderr}"
    );
}

#[test]
fn a_log_of_the_other_release_minimizes_on_its_own_libz3() {
    let Some(lib) = other_z3::find(&repo()) else {
        eprintln!("skipped: {}", other_z3::NO_OTHER_Z3);
        return;
    };
    let mut extra: Vec<&std::ffi::OsStr> = Vec::new();
    let z3 = z3_binary("5.4.1");
    if let Some(z3) = &z3 {
        extra.extend(["--z3-binary".as_ref(), z3.as_os_str()]);
    }
    let (text, _) = minimizes(
        "cube_empty-5.4.1.log",
        &["--z3-lib".as_ref(), lib.as_os_str()],
        &extra,
    );
    assert!(text.starts_with("V \"5.4.1.0\"\n"), "{text}");
}

#[test]
fn malformed_logs_and_logs_that_do_not_fail_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.log");
    let bad = dir.path().join("bad.log");
    let refused = |text: &str| {
        std::fs::write(&bad, text).unwrap();
        let result = ddtrace(&[bad.as_os_str(), out.as_os_str()]);
        (
            result.status.code(),
            String::from_utf8_lossy(&result.stderr).into_owned(),
        )
    };
    // A log is read before anything runs; a malformed one is `FILE:LINE: message`, exit 1
    // like a malformed trace (ddtrace's "INTRACE cannot be read or parsed").
    let (code, stderr) = refused("V \"4.8.12.0\"\nR\nP 0x99\nC 1\n");
    assert_eq!(code, Some(1), "{stderr}");
    let location = format!(
        "{}:3: object 0x99 is not one an earlier call returned",
        bad.display()
    );
    assert!(stderr.contains(&location), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let (code, stderr) = refused("V \"1.2.3.0\"\nR\nC 1\n");
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("has no call table"), "{stderr}");
    assert!(!out.exists(), "nothing written");
    // A log whose replay passes has no failure to keep (exit 4), nothing is written.
    let result = ddtrace(&[log("coverage-4.8.12.log").as_os_str(), out.as_os_str()]);
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert_eq!(result.status.code(), Some(4), "{stderr}");
    assert!(!out.exists(), "nothing written");
    // --z3-binary is for logs only.
    let trace = repo().join("traces/regress/cube-empty-solver-segfault.trace");
    let result = ddtrace(&[
        "--z3-binary".as_ref(),
        "/usr/bin/z3".as_ref(),
        trace.as_os_str(),
        out.as_os_str(),
    ]);
    assert_eq!(result.status.code(), Some(2));
}

#[test]
fn sigint_leaves_a_log_that_still_crashes_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let input = log("proof_bvsle-4.8.12.log");
    let output = dir.path().join("min.log");
    let json = dir.path().join("result.json");
    let mut ddtrace = Command::new(ddtrace_bin());
    ddtrace
        .arg("--untrace")
        .arg(untrace_bin())
        .args(["-j", "1", "-q", "--json"])
        .arg(&json)
        .arg(&input)
        .arg(&output);
    let out = interrupted(ddtrace, &output, std::time::Duration::from_millis(500));
    // 130 when the signal came in time; 0 if the reduction was already done.
    let code = out.status.code();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(matches!(code, Some(130) | Some(0)), "{code:?}: {stderr}");
    if code == Some(130) {
        assert!(stderr.contains("holds the best log so far"), "{stderr}");
    }
    let result: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(result["interrupted"], code == Some(130));
    // What is on disk is a log of the same crash.
    assert_eq!(replay(&[], &output), replay(&[], &input));
    assert!(z3log::load(&output).is_ok());
}

/// The lifted trace knows what the program knew: a call after which the program asked for
/// Z3's error message is refused in the trace (`return error ""`), although the minimized log
/// dropped the query (its replay does not need it).
#[test]
fn the_lifted_trace_keeps_the_refusals_the_program_saw() {
    let dir = tempfile::tempdir().unwrap();
    let output = dir.path().join("min.log");
    let lifted = dir.path().join("bug.trace");
    let input = log("max_steps_pop-4.8.12.log");
    let out = ddtrace(&[
        "--lifted".as_ref(),
        lifted.as_os_str(),
        input.as_os_str(),
        output.as_os_str(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("lifted trace"), "{stderr}");
    let text = std::fs::read_to_string(&lifted).unwrap();
    assert!(
        text.contains("assert_and_track z1 t1 t1\nreturn error \"\"\npop z1 1"),
        "{text}"
    );
    assert!(!text.contains("get_error"), "{text}");
    assert_eq!(replay(&[], &lifted), replay(&[], &input));
    // Without lifting, only the log is written.
    let bare = dir.path().join("bare.log");
    let out = ddtrace(&["--no-lift".as_ref(), input.as_os_str(), bare.as_os_str()]);
    assert!(out.status.success());
    assert!(!dir.path().join("bare.trace").exists());
    // The lifted trace cannot be the log's output.
    let out = ddtrace(&[
        "--lifted".as_ref(),
        output.as_os_str(),
        input.as_os_str(),
        output.as_os_str(),
    ]);
    assert_eq!(out.status.code(), Some(2));
}
