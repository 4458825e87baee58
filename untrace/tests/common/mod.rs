//! Helpers shared by the integration tests that run the `untrace` binary, and the set-up of
//! the tests of Z3 API logs (`z3_log.rs`, `lift.rs`): the recorded logs, the second libz3,
//! the Python bindings that record logs afresh.
// Each test file uses its own part.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The recorded Z3 API logs, and their programs under `programs/`.
pub fn logs_dir() -> PathBuf {
    repo().join("traces/logs")
}

/// Runs untrace with `args` and `env` (without the test-only injection switches of the
/// environment): (exit code, stderr).
pub fn run_env(args: &[&OsStr], env: &[(&str, &str)]) -> (i32, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_untrace"));
    command
        .args(args)
        .env_remove("UNTRACE_INJECT")
        .env_remove("UNTRACE_FAIL_ON");
    for (k, v) in env {
        command.env(k, v);
    }
    let out = command.output().expect("untrace runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs untrace with `args`: (exit code, stderr).
pub fn run(args: &[&OsStr]) -> (i32, String) {
    run_env(args, &[])
}

/// The signature of untrace's last `untrace: signature:` line.
pub fn signature(stderr: &str) -> Option<String> {
    stderr
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("untrace: signature: "))
        .map(str::to_string)
}

/// The second libz3: `Z3_TEST_OTHER_LIB`, else the z3-solver wheel in `.ci/venv` (as
/// `tests/src/other_z3.rs` finds it), or `None` with a message.
pub fn other_lib() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("Z3_TEST_OTHER_LIB") {
        return Some(PathBuf::from(path));
    }
    let lib = std::fs::read_dir(repo().join(".ci/venv/lib"))
        .ok()?
        .flatten()
        .map(|e| e.path().join("site-packages/z3/lib/libz3.so"))
        .find(|p| p.is_file());
    if lib.is_none() {
        eprintln!("skipped: no second libz3 (Z3_TEST_OTHER_LIB, or .ci/install-deps's wheel)");
    }
    lib
}

/// `python` if it imports z3, else `None` with a message naming `what` provides it.
pub fn python_with_z3(python: &Path, what: &str) -> Option<PathBuf> {
    let works = Command::new(python)
        .args(["-c", "import z3"])
        .output()
        .is_ok_and(|o| o.status.success());
    if works {
        Some(python.to_path_buf())
    } else {
        eprintln!(
            "skipped: {} cannot import z3: install {what}",
            python.display()
        );
        None
    }
}

/// Debian's Python with its `python3-z3` (Z3 4.8.12), or `None` with a message.
pub fn debian_python() -> Option<PathBuf> {
    python_with_z3(
        Path::new("/usr/bin/python3"),
        "python3-z3 (apt-get install python3-z3)",
    )
}

/// The z3-solver wheel's Python: the `bin/python3` of the virtual environment whose libz3
/// [`other_lib`] names (`VENV/lib/python3.X/site-packages/z3/lib/libz3.so`).
pub fn wheel_python() -> Option<PathBuf> {
    let lib = other_lib()?;
    let venv = lib.ancestors().nth(6)?;
    python_with_z3(
        &venv.join("bin/python3"),
        "the z3-solver wheel's virtual environment",
    )
}

/// Runs `traces/logs/programs/STEM.py` under `python`, which writes its log to `log` (in a
/// private folder, its working directory too); the log's path.
pub fn record(python: &Path, stem: &str, log: PathBuf) -> PathBuf {
    let program = logs_dir().join("programs").join(format!("{stem}.py"));
    // The program may crash Z3 (and itself): the log is complete up to the crashing call.
    let _ = Command::new(python)
        .arg(&program)
        .arg(&log)
        .current_dir(log.parent().expect("a log in a folder"))
        .output()
        .expect("python runs");
    assert!(log.is_file(), "{stem}: no log written");
    log
}

/// Runs `untrace` with `args`, without the test-only failure switch of the environment.
pub fn untrace(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_untrace"))
        .args(args)
        .env_remove("UNTRACE_FAIL_ON")
        .output()
        .expect("untrace runs")
}

/// Writes `body` after the trace header to `dir/name`.
pub fn write_trace(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("z3-trace 1\n{body}")).expect("written");
    path
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}
