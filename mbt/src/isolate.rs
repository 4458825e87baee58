//! Isolation: every round runs in a forked child process with a memory limit (`setrlimit`)
//! and a CPU limit, its stdout/stderr captured in the round's folder, its trace written there
//! as it goes and its report written at the end. The parent ([`Worker::poll`]) kills a child
//! past its time limit and turns the way a child ended into a [`RoundReport`] with a
//! [`Failure`] when it did not end well. The parent must stay single-threaded to fork safely.

use crate::cx::RoundConfig;
use crate::failure::{Failure, FailureKind};
use crate::round::{run_recorded_round, RoundReport};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Resource limits of one round.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub timeout: Duration,
    /// Address-space limit in MiB (0: none).
    pub memout_mb: u64,
}

/// File names inside a round's folder.
pub const TRACE: &str = "round.trace";
pub const REPORT: &str = "report.json";
pub const OUTPUT: &str = "output.txt";

/// A running child.
#[derive(Debug)]
pub struct Worker {
    pub pid: libc::pid_t,
    pub seed: u64,
    pub dir: PathBuf,
    started: Instant,
    killed: bool,
}

/// Prepares the parent before its first fork, so that no child pays for it again: creates the
/// `z3` crate's thread-local context (every round's executor uses it; creating it is about a
/// sixth of a round's CPU time) and reads the solver parameter kinds the executor needs (about
/// a quarter). Both are exactly what the first executor of a process does, so every child
/// starts from the state it would have reached itself, and a replay with `untrace` reaches the
/// same one. Z3 starts no threads here, so the parent stays single-threaded.
pub fn warm_up() {
    let context = z3::Context::thread_local();
    let _ = untrace::executor::solver_param_kinds(&context);
}

/// Forks a child that runs round `seed` in `dir`.
pub fn spawn(config: &RoundConfig, seed: u64, dir: &Path, limits: Limits) -> io::Result<Worker> {
    fs::create_dir_all(dir)?;
    let trace = fs::File::create(dir.join(TRACE))?;
    let output = fs::File::create(dir.join(OUTPUT))?;
    // SAFETY: the parent is single-threaded (no progress-bar thread, no Z3 threads), so the
    // child may allocate and run arbitrary code.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return Err(io::Error::last_os_error());
    }
    if pid == 0 {
        child(config, seed, dir, limits, trace, output);
    }
    Ok(Worker {
        pid,
        seed,
        dir: dir.to_path_buf(),
        started: Instant::now(),
        killed: false,
    })
}

/// The child: limits, redirected output, the round, its report; never returns.
fn child(
    config: &RoundConfig,
    seed: u64,
    dir: &Path,
    limits: Limits,
    trace: fs::File,
    output: fs::File,
) -> ! {
    use std::os::fd::AsRawFd;
    // SAFETY: plain system calls on this process's own limits and file descriptors.
    unsafe {
        if limits.memout_mb > 0 {
            let bytes = limits.memout_mb << 20;
            let lim = libc::rlimit {
                rlim_cur: bytes,
                rlim_max: bytes,
            };
            libc::setrlimit(libc::RLIMIT_AS, &lim);
        }
        // A CPU limit as a backstop should the parent die; the parent's wall clock is tighter.
        let cpu = limits.timeout.as_secs() + 2;
        let lim = libc::rlimit {
            rlim_cur: cpu,
            rlim_max: cpu + 1,
        };
        libc::setrlimit(libc::RLIMIT_CPU, &lim);
        libc::dup2(output.as_raw_fd(), 1);
        libc::dup2(output.as_raw_fd(), 2);
    }
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        // Buffered: the executor flushes after every line (one write per line, no fsync).
        run_recorded_round(config, seed, Box::new(io::BufWriter::new(trace)))
    }));
    let report = result.unwrap_or_else(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic with a non-string payload".into());
        RoundReport {
            seed,
            failure: Some(Failure::new(FailureKind::Panic, message)),
            ..RoundReport::default()
        }
    });
    let code = match serde_json::to_vec(&report) {
        Ok(json) if fs::write(dir.join(REPORT), &json).is_ok() => 0,
        _ => 3,
    };
    // SAFETY: ends the child without running the parent's exit handlers twice.
    unsafe { libc::_exit(code) }
}

impl Worker {
    /// Checks on the child: `Some(report)` once it ended (killing it first when it ran past
    /// `timeout`), `None` while it runs.
    pub fn poll(&mut self, timeout: Duration) -> Option<RoundReport> {
        let mut status = 0;
        // SAFETY: waits for our own child without blocking.
        let r = unsafe { libc::waitpid(self.pid, &mut status, libc::WNOHANG) };
        if r == 0 {
            if !self.killed && self.started.elapsed() > timeout {
                // SAFETY: our own child, by its id.
                unsafe { libc::kill(self.pid, libc::SIGKILL) };
                self.killed = true;
            }
            return None;
        }
        let mut report = self.collect(r, status);
        if let Some(f) = &mut report.failure {
            if f.last_call.is_none() {
                f.last_call = last_call(&self.dir.join(TRACE));
            }
        }
        Some(report)
    }

    fn collect(&self, r: libc::pid_t, status: i32) -> RoundReport {
        let failed = |failure: Failure| RoundReport {
            seed: self.seed,
            failure: Some(failure),
            ..RoundReport::default()
        };
        if r < 0 {
            return failed(Failure::new(
                FailureKind::Crash,
                format!("waitpid failed: {}", io::Error::last_os_error()),
            ));
        }
        let output = fs::read_to_string(self.dir.join(OUTPUT)).unwrap_or_default();
        if libc::WIFSIGNALED(status) {
            let sig = libc::WTERMSIG(status);
            if self.killed {
                return failed(Failure::new(
                    FailureKind::Timeout,
                    "the round ran past its time limit",
                ));
            }
            return failed(classify_signal(sig, &output));
        }
        let code = libc::WEXITSTATUS(status);
        match fs::read(self.dir.join(REPORT))
            .ok()
            .and_then(|b| serde_json::from_slice::<RoundReport>(&b).ok())
        {
            Some(report) if code == 0 => report,
            _ => failed(Failure::new(
                FailureKind::Crash,
                format!("the round exited with code {code}: {}", last_line(&output)),
            )),
        }
    }
}

/// Names a fatal signal, recognising stack overflows, memory exhaustion and CPU limits from
/// what the child printed.
pub fn classify_signal(sig: i32, output: &str) -> Failure {
    if output.contains("has overflowed its stack") {
        return Failure::new(FailureKind::StackOverflow, "stack overflow");
    }
    if output.contains("memory allocation of")
        || output.contains("std::bad_alloc")
        || output.contains("out of memory")
    {
        return Failure::new(FailureKind::Memout, "the round ran out of its memory limit");
    }
    if sig == libc::SIGXCPU {
        return Failure::new(FailureKind::Timeout, "the round ran past its CPU limit");
    }
    let name = match sig {
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGILL => "SIGILL",
        libc::SIGKILL => "SIGKILL",
        _ => "signal",
    };
    let tail = last_line(output);
    let message = if tail.is_empty() {
        format!("killed by {name} ({sig})")
    } else {
        format!("killed by {name}: {tail}")
    };
    Failure::new(FailureKind::Crash, message)
}

fn last_line(text: &str) -> String {
    text.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim()
        .to_string()
}

/// The name of the last call line of a trace (the call that was running or failed).
pub fn last_call(trace: &Path) -> Option<String> {
    let text = fs::read_to_string(trace).ok()?;
    text.lines()
        .skip(1)
        .filter(|l| !l.starts_with("return") && !l.trim().is_empty())
        .last()
        .and_then(|l| l.split_whitespace().next())
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signals_are_classified_from_output() {
        assert_eq!(
            classify_signal(libc::SIGABRT, "thread 'main' has overflowed its stack\n").kind,
            FailureKind::StackOverflow
        );
        assert_eq!(
            classify_signal(libc::SIGABRT, "memory allocation of 64 bytes failed\n").kind,
            FailureKind::Memout
        );
        let f = classify_signal(libc::SIGSEGV, "");
        assert_eq!(
            (f.kind, f.message.as_str()),
            (FailureKind::Crash, "killed by SIGSEGV (11)")
        );
    }

    #[test]
    fn last_call_skips_returns() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("t.trace");
        fs::write(&p, "z3-trace 1\nsort_bool\nreturn s1\ncheck_sat z1\n").unwrap();
        assert_eq!(last_call(&p).as_deref(), Some("check_sat"));
        fs::write(&p, "z3-trace 1\n").unwrap();
        assert_eq!(last_call(&p), None);
    }
}
