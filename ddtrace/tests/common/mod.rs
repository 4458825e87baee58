//! Shared by ddtrace's tests: a deterministic generator of valid traces ([`synthetic`]), the simulated
//! `UNTRACE_FAIL_ON` tester (in process, no Z3), and the built binaries.
#![allow(dead_code)]

pub mod synthetic;

#[allow(unused_imports)]
pub use synthetic::*;

use ddtrace::trace_io;
use model::trace::text::format_call;
use model::{Entry, State};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

/// Behaves like `untrace` with `UNTRACE_FAIL_ON=pattern` as far as the reference state can
/// tell: a malformed prefix is rejected (exit 3), reaching a call whose line contains the
/// pattern is the failure.
pub fn fails_on(pattern: &str) -> impl Fn(&[u8]) -> bool + Sync + '_ {
    move |bytes: &[u8]| {
        let Ok((entries, _)) = trace_io::read(bytes) else {
            return false;
        };
        let mut state = State::new();
        for entry in &entries {
            if state.check(&entry.call).is_err() {
                return false;
            }
            if format_call(&entry.call).contains(pattern) {
                return true;
            }
            if state.apply(&entry.call, entry.ret.as_ref()).is_err() {
                return false;
            }
        }
        false
    }
}

/// `entries` without entry `i`.
pub fn without(entries: &[Entry], i: usize) -> Vec<Entry> {
    let mut out = entries.to_vec();
    out.remove(i);
    out
}

/// The `ddtrace` binary of this build.
/// Runs `ddtrace` (a command that writes `output`) and sends it SIGINT `after` the golden run
/// wrote the output, during the reduction; how it ended.
pub fn interrupted(mut ddtrace: Command, output: &Path, after: Duration) -> Output {
    let child = ddtrace.stderr(Stdio::piped()).spawn().unwrap();
    // The output exists from the golden run on; interrupt during the reduction.
    while !output.exists() {
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(after);
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    child.wait_with_output().unwrap()
}

pub fn ddtrace_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_ddtrace"))
}

/// The `untrace` binary beside `ddtrace`, built first if it is missing (`cargo test -p
/// ddtrace` alone does not build other packages' binaries).
pub fn untrace_bin() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| {
            let exe = ddtrace_bin();
            let dir = exe.parent().expect("binary directory").to_path_buf();
            let untrace = dir.join("untrace");
            if !untrace.is_file() {
                // <target>/<profile>/ddtrace: build untrace into the same target directory.
                let target = dir.parent().expect("target directory");
                let status = std::process::Command::new(env!("CARGO"))
                    .args(["build", "-p", "untrace", "--bin", "untrace", "--target-dir"])
                    .arg(target)
                    .status()
                    .expect("cargo runs");
                assert!(status.success(), "building untrace failed");
            }
            assert!(
                untrace.is_file(),
                "no untrace binary at {}",
                untrace.display()
            );
            untrace
        })
        .clone()
}
