//! Helpers shared by the integration tests that run the `untrace` binary.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

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
