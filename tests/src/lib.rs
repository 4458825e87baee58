//! Helpers shared by the end-to-end tests: where the workspace's binaries are, and how to
//! run them with an argument vector.
//!
//! `cargo test --workspace` builds the binaries of every package that has integration tests,
//! into the same target directory as this test; when one is missing (a filtered test run)
//! [`bin`] builds the workspace's binaries once.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Once;

mod other_z3;
pub use other_z3::{NO_OTHER_Z3, OTHER_LIB_VAR};

/// The directory that holds the binaries of the profile the tests were built with.
fn bin_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    // target/<profile>/deps/e2e-HASH -> target/<profile>
    exe.parent()
        .and_then(Path::parent)
        .expect("test executable lives in target/<profile>/deps")
        .to_path_buf()
}

/// The path of a workspace binary (`untrace`, `mbt`, `ddtrace`, `ddsmt`, `checkmodel`).
pub fn bin(name: &str) -> PathBuf {
    static BUILD: Once = Once::new();
    let path = bin_dir().join(name);
    if !path.exists() {
        BUILD.call_once(|| {
            let release = bin_dir().file_name().is_some_and(|p| p == "release");
            let mut cargo = Command::new(env!("CARGO"));
            cargo.args(["build", "--workspace", "--bins"]);
            if release {
                cargo.arg("--release");
            }
            let status = cargo.status().expect("run cargo build");
            assert!(status.success(), "cargo build --workspace --bins failed");
        });
    }
    assert!(path.exists(), "binary {} not found", path.display());
    path
}

/// The repository root.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ sits in the repository root")
        .to_path_buf()
}

/// A command for a workspace binary with `args` and `envs`, free of the test-only injection
/// variables a test run may inherit (`UNTRACE_FAIL_ON`, `UNTRACE_INJECT`,
/// `UNTRACE_INJECT_OTHER`, `MBT_INJECT`): a test sets the ones it means in `envs`.
pub fn command(name: &str, args: &[&std::ffi::OsStr], envs: &[(&str, &str)]) -> Command {
    let mut cmd = Command::new(bin(name));
    cmd.args(args)
        .env_remove("UNTRACE_FAIL_ON")
        .env_remove("UNTRACE_INJECT")
        .env_remove("UNTRACE_INJECT_OTHER")
        .env_remove("MBT_INJECT");
    for (k, v) in envs {
        cmd.env(k, v);
    }
    cmd
}

/// Runs [`command`]`(name, args, envs)` and returns its output.
pub fn run(name: &str, args: &[&std::ffi::OsStr], envs: &[(&str, &str)]) -> Output {
    command(name, args, envs)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {name}: {e}"))
}

/// `untrace TRACE` (with `--z3-lib LIB` where `lib` names one) and `envs`: its output.
pub fn replay(trace: &Path, lib: Option<&Path>, envs: &[(&str, &str)]) -> Output {
    let mut args = Vec::new();
    if let Some(lib) = lib {
        args.push("--z3-lib".as_ref());
        args.push(lib.as_os_str());
    }
    args.push(trace.as_os_str());
    run("untrace", &args, envs)
}

/// `untrace --emit FORMAT OUT TRACE`: the reproducer of `trace` in `format` written to `out`.
pub fn emit(format: &str, out: &Path, trace: &Path) -> Output {
    let args = [
        "--emit".as_ref(),
        format.as_ref(),
        out.as_os_str(),
        trace.as_os_str(),
    ];
    run("untrace", &args, &[])
}

/// The Python reproducer of `trace` (`untrace --emit python`, written into the private
/// folder `dir`), which must call each of `functions`, run by the z3-solver wheel's Python
/// (whose `z3` package holds the second Z3, `lib`): it must finish without a failure.
/// Skipped, saying so, where the wheel's Python is missing.
pub fn python_reproducer_runs_on_the_wheel(
    lib: &Path,
    trace: &Path,
    functions: &[&str],
    dir: &Path,
) {
    let script = dir.join("repro.py");
    let out = emit("python", &script, trace);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&script).expect("script");
    for f in functions {
        assert!(text.contains(f), "{f}: {text}");
    }
    let python = repo_root().join(".ci/venv/bin/python");
    if !python.is_file() {
        eprintln!("SKIPPED: no {} beside {}", python.display(), lib.display());
        return;
    }
    let out = Command::new(&python)
        .arg(&script)
        .output()
        .expect("python runs");
    assert!(out.status.success(), "{}", stderr(&out));
}

/// The standard error of `out` as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The example trace `traces/NAME`.
pub fn example(name: &str) -> PathBuf {
    repo_root().join("traces").join(name)
}

/// The `*.trace` files of `dir`, sorted (none when `dir` cannot be read).
pub fn traces_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "trace"));
    files.sort();
    files
}

/// The second libz3 the tests run on (`Z3_TEST_OTHER_LIB`, else the z3-solver wheel in
/// `.ci/venv`), for a test that does something else without one (and says so itself).
pub fn find_other_z3() -> Option<PathBuf> {
    other_z3::find(&repo_root())
}

/// The second libz3 the tests run on (`Z3_TEST_OTHER_LIB`, else the z3-solver wheel that
/// `.ci/install-deps` installs into `.ci/venv`). Without one, `None` after a `SKIPPED:` line on
/// stderr naming `test` and why; the tests that need it are also marked ignored (with
/// the reason) at build time, so cargo's summary counts them (`build.rs`).
pub fn other_z3(test: &str) -> Option<PathBuf> {
    let found = find_other_z3();
    if found.is_none() {
        eprintln!("SKIPPED: {test}: {NO_OTHER_Z3}");
    }
    found
}

/// Whether an external program is on PATH (for tests that need a solver binary).
pub fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

/// Waits for `child`, which runs in a process group of its own (`process_group(0)`), at most
/// `limit`: `None` after killing the whole group when it runs longer.
pub fn wait_at_most(
    child: &mut std::process::Child,
    limit: std::time::Duration,
) -> Option<std::process::ExitStatus> {
    let start = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait for a child") {
            return Some(status);
        }
        if start.elapsed() > limit {
            let group = nix::unistd::Pid::from_raw(child.id() as i32);
            let _ = nix::sys::signal::killpg(group, nix::sys::signal::Signal::SIGKILL);
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// The `summary.json` of a campaign folder.
pub fn summary(dir: &Path) -> serde_json::Value {
    let path = dir.join("summary.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The Z3 functions that make and delete a round's context.
const CONTEXT_LIFECYCLE: &[&str] = &[
    "Z3_mk_config",
    "Z3_del_config",
    "Z3_mk_context_rc",
    "Z3_del_context",
];

/// The Z3 functions called once per key of a statistics object.
const PER_STATISTICS_KEY: &[&str] = &[
    "Z3_stats_get_key",
    "Z3_stats_is_uint",
    "Z3_stats_is_double",
    "Z3_stats_get_uint_value",
    "Z3_stats_get_double_value",
];

/// Asserts that the campaign merged into `merged` (shards run by a scheduler and merged) is
/// the one run `single` over the same seeds: the same rounds, failed rounds and seeds,
/// statistics, and findings (kind, signature, count and seeds), and that it found something,
/// so the comparison compares findings. Timings may differ.
pub fn assert_same_campaign(merged: &Path, single: &Path) {
    let (mut a, mut b) = (summary(merged), summary(single));
    // The first round of a worker runs in the context prepared before the fork, so how often
    // Z3 made and deleted a context depends on how the rounds fell into workers
    // (docs/api-coverage.md); how many keys a statistics object holds, which the statistics
    // read-backs walk, is not the round's alone either (one campaign of two over the same
    // seeds saw one key more); every other count is the seeds'.
    for s in [&mut a, &mut b] {
        if let Some(functions) = s["stats"]["z3_functions"].as_object_mut() {
            for name in CONTEXT_LIFECYCLE.iter().chain(PER_STATISTICS_KEY) {
                functions.remove(*name);
            }
        }
    }
    for field in [
        "rounds",
        "failed_rounds",
        "failed_seeds",
        "stats",
        "failures",
    ] {
        assert_eq!(a[field], b[field], "{field}");
    }
    let findings = |s: &serde_json::Value| -> std::collections::BTreeSet<String> {
        let list = s["failure_list"].as_array().expect("failure_list");
        list.iter()
            .map(|f| {
                let fields = [
                    "kind",
                    "signature",
                    "count",
                    "seed",
                    "first_seed",
                    "last_seed",
                ];
                fields.map(|k| f[k].to_string()).join(" ")
            })
            .collect()
    };
    assert_eq!(findings(&a), findings(&b));
    assert!(!findings(&a).is_empty(), "the campaign found something");
}

/// Every link of a page but its own anchors (`#...`), percent-decoded.
pub fn links(html: &str) -> Vec<String> {
    let mut links = Vec::new();
    for part in html.split("href=\"").skip(1) {
        let href = &part[..part.find('"').unwrap()];
        if href.starts_with('#') {
            continue;
        }
        let mut bytes = Vec::new();
        let mut rest = href.as_bytes();
        while let Some((&byte, tail)) = rest.split_first() {
            if byte == b'%' {
                let hex = std::str::from_utf8(&tail[..2]).unwrap();
                bytes.push(u8::from_str_radix(hex, 16).unwrap());
                rest = &tail[2..];
            } else {
                bytes.push(byte);
                rest = tail;
            }
        }
        links.push(String::from_utf8(bytes).unwrap());
    }
    links
}

/// Waits (at most 5 minutes) until the mbt campaign writing into `out` with `--keep-all` has
/// finished a round (its kept trace shows it): a test that signals a campaign does so once it
/// has done something, however loaded the machine is.
pub fn wait_for_a_round(out: &Path) {
    wait_for_an_entry(&out.join("traces"), "round finished");
}

/// Waits (at most 5 minutes) until folder `dir` holds an entry, which shows that `what`
/// happened (the failure message says it did not).
pub fn wait_for_an_entry(dir: &Path, what: &str) {
    let start = std::time::Instant::now();
    while std::fs::read_dir(dir).map_or(true, |mut d| d.next().is_none()) {
        assert!(start.elapsed().as_secs() < 300, "no {what} in 5 minutes");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}
