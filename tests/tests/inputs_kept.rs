//! No tool overwrites its input: `ddsmt A A`, `ddtrace T T` and `untrace --convert T T` (also
//! through another name of the same file) are refused before any work, the input unchanged,
//! and an output folder that does not exist is an error before the golden run.

use e2e::run;
use std::ffi::OsStr;
use std::path::Path;

fn refused(name: &str, args: &[&OsStr], input: &Path, original: &[u8]) {
    let out = run(name, args, &[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0), "{name}: {err}");
    assert!(
        err.contains("input"),
        "{name} does not say why it refuses: {err}"
    );
    assert_eq!(err.lines().count(), 1, "{name}: {err}");
    assert_eq!(
        std::fs::read(input).unwrap(),
        original,
        "{name} changed its input"
    );
}

#[test]
fn no_tool_writes_over_its_input() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("t.trace");
    let text = b"z3-trace 1\nsort_bool\nreturn s1\nconst s1 \"p\"\nreturn t1\nnot t1\nreturn t2\n";
    std::fs::write(&trace, text).unwrap();
    let link = dir.path().join("link.trace");
    std::os::unix::fs::symlink(&trace, &link).unwrap();
    let smt2 = dir.path().join("a.smt2");
    let script = b"(declare-const p Bool)\n(assert (and p (not p)))\n(check-sat)\n";
    std::fs::write(&smt2, script).unwrap();

    refused(
        "untrace",
        &[
            OsStr::new("--convert"),
            trace.as_os_str(),
            trace.as_os_str(),
        ],
        &trace,
        text,
    );
    refused(
        "untrace",
        &[OsStr::new("--convert"), link.as_os_str(), trace.as_os_str()],
        &trace,
        text,
    );
    refused(
        "ddtrace",
        &[trace.as_os_str(), link.as_os_str()],
        &trace,
        text,
    );
    refused(
        "ddsmt",
        &[smt2.as_os_str(), smt2.as_os_str(), OsStr::new("z3")],
        &smt2,
        script,
    );
}

#[test]
fn an_output_folder_that_does_not_exist_is_an_error_before_any_run() {
    let dir = tempfile::tempdir().unwrap();
    let smt2 = dir.path().join("a.smt2");
    std::fs::write(&smt2, "(check-sat)\n").unwrap();
    let missing = dir.path().join("no/such/folder/out.smt2");
    // A command that would take long if ddsmt ran it: the check comes first.
    let out = run(
        "ddsmt",
        &[
            smt2.as_os_str(),
            missing.as_os_str(),
            OsStr::new("sleep"),
            OsStr::new("30"),
        ],
        &[],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("does not exist"), "{err}");
}

#[test]
fn an_interruption_before_any_result_says_no_output_was_written() {
    let dir = tempfile::tempdir().unwrap();
    let smt2 = dir.path().join("a.smt2");
    std::fs::write(&smt2, "(check-sat)\n").unwrap();
    let out = dir.path().join("out.smt2");
    // The golden run sleeps; Ctrl-C arrives during it.
    let ddsmt = std::process::Command::new(e2e::bin("ddsmt"))
        .arg(&smt2)
        .arg(&out)
        .args(["python3", "-c", "import time; time.sleep(27.1828)"])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    let golden_runs = || {
        std::fs::read_dir("/proc").unwrap().flatten().any(|entry| {
            std::fs::read(entry.path().join("cmdline")).is_ok_and(|c| {
                let line = String::from_utf8_lossy(&c).replace('\0', " ");
                line.contains("27.1828") && line.contains("input.smt2")
            })
        })
    };
    while !golden_runs() {
        assert!(
            start.elapsed().as_secs() < 20,
            "the golden run never started"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let status = std::process::Command::new("kill")
        .args(["-INT", &ddsmt.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let done = ddsmt.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.status.code(), Some(130), "{err}");
    assert!(err.contains("no output was written"), "{err}");
    assert!(!out.exists());
}
