//! A minimizer killed with SIGKILL leaves no check running: every check it started dies with
//! it (parent-death signal), whatever it was doing. (A process the check itself starts is
//! the check's to end; that a SIGKILL of the minimizer reaches it too is not done yet.)

use e2e::bin;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Whether a check (a process on a candidate file whose command line contains `marker`) is
/// alive.
fn running(marker: &str) -> bool {
    std::fs::read_dir("/proc").unwrap().flatten().any(|entry| {
        std::fs::read(entry.path().join("cmdline"))
            .map(|c| {
                let line = String::from_utf8_lossy(&c).replace('\0', " ");
                line.contains(marker) && line.contains("input.smt2")
            })
            .unwrap_or(false)
    })
}

#[test]
fn a_killed_ddsmt_leaves_no_check_running() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("a.smt2");
    std::fs::write(&input, "(check-sat)\n").unwrap();
    // The golden run's check sleeps; ddsmt is killed while it does.
    let marker = "31.4159265";
    let mut ddsmt = Command::new(bin("ddsmt"))
        .arg(&input)
        .arg(dir.path().join("out.smt2"))
        .args([
            "python3",
            "-c",
            &format!("import time; time.sleep({marker})"),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !running(marker) {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the check never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    ddsmt.kill().unwrap();
    ddsmt.wait().unwrap();
    let start = Instant::now();
    while running(marker) {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "the check outlived the SIGKILLed ddsmt"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}
