//! A replay in a forked child process, so that every way Z3 can fail ends in an exit code and
//! a signature: the child replays (and reports mismatches, Z3 errors and failed checks
//! itself); the parent forwards the child's stderr, keeps its tail, applies the time limit,
//! and classifies a death (signal, Z3's fatal exit, stack overflow, panic, memory) with
//! [`model::finding::classify_death`]. The index of the entry in progress lives in a page
//! shared with the child, so the parent knows which call was running.
//!
//! The parent must be single-threaded and must not have touched Z3 before [`replay_isolated`].

use crate::replay::{replay_trace_with, Exit, Outcome, ReplayOptions};
use model::finding::{classify_death, overran_resource_limit, Failure, FailureKind};
use model::trace::Trace;
use std::io::{Read, Write};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// Limits of an isolated replay.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// Wall-clock limit; past it the child is killed and the replay is a timeout.
    pub timeout: Option<Duration>,
    /// Address-space limit of the child in MiB.
    pub memout_mb: Option<u64>,
}

/// The most of the child's stderr kept for classification.
const TAIL: usize = 64 * 1024;

/// Prints the outcome of a replay as untrace does: the message, then the signature line.
pub fn report(outcome: &Outcome) {
    if !outcome.message.is_empty() {
        eprintln!("untrace: {}", outcome.message);
    }
    if let Some(f) = &outcome.failure {
        eprintln!(
            "untrace: {}{}",
            model::finding::SIGNATURE_LINE,
            f.signature()
        );
    }
}

/// Replays `trace` in a child process under `limits`. The child's stderr goes to this
/// process's stderr; the outcome's message and signature are printed by whichever process
/// knows them ([`report`]), so the caller prints nothing more.
pub fn replay_isolated(
    name: &str,
    trace: &Trace,
    options: &ReplayOptions,
    limits: Limits,
) -> Outcome {
    match spawn(name, trace, options, limits) {
        Ok(outcome) => outcome,
        Err(e) => {
            let outcome = Outcome {
                exit: Exit::Usage,
                message: format!("{name}: cannot start the replay process: {e}"),
                executed: 0,
                failure: None,
            };
            report(&outcome);
            outcome
        }
    }
}

fn spawn(
    name: &str,
    trace: &Trace,
    options: &ReplayOptions,
    limits: Limits,
) -> std::io::Result<Outcome> {
    use std::os::fd::{AsRawFd, FromRawFd};
    // SAFETY: a fresh anonymous shared page, unmapped when this function returns.
    let page = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            4096,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_SHARED | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if page == libc::MAP_FAILED {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: the page is zeroed and aligned for three AtomicU32s and outlives every use.
    let (progress, reported, executed_in_child): (&AtomicU32, &AtomicU32, &AtomicU32) = unsafe {
        (
            &*(page as *const AtomicU32),
            &*(page as *const AtomicU32).add(1),
            &*(page as *const AtomicU32).add(2),
        )
    };
    progress.store(u32::MAX, Ordering::Relaxed);
    let mut fds = [0; 2];
    // SAFETY: two new descriptors, owned by the files below.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: fresh descriptors nobody else owns.
    let (mut reader, writer) = unsafe {
        (
            std::fs::File::from_raw_fd(fds[0]),
            std::fs::File::from_raw_fd(fds[1]),
        )
    };
    let _ = std::io::stderr().flush();
    // SAFETY: the caller is single-threaded, so the child may run arbitrary code.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return Err(std::io::Error::last_os_error());
    }
    if pid == 0 {
        drop(reader);
        // SAFETY: plain system calls on this process's own descriptors and limits.
        unsafe {
            libc::dup2(writer.as_raw_fd(), 2);
            if let Some(mb) = limits.memout_mb {
                let bytes = mb << 20;
                let lim = libc::rlimit {
                    rlim_cur: bytes,
                    rlim_max: bytes,
                };
                libc::setrlimit(libc::RLIMIT_AS, &lim);
            }
        }
        crate::crash::install();
        let outcome = replay_trace_with(name, trace, options, &mut |i| {
            progress.store(i as u32, Ordering::Relaxed)
        });
        report(&outcome);
        let _ = std::io::stderr().flush();
        executed_in_child.store(outcome.executed as u32, Ordering::SeqCst);
        // Z3 may end the process itself, even with exit code 0 (Z3 5.4.1 after "NOT
        // IMPLEMENTED YET"): only an exit after this mark is the replay's own outcome.
        reported.store(1, Ordering::SeqCst);
        // SAFETY: ends the child without running the parent's exit handlers.
        unsafe { libc::_exit(outcome.exit as i32) }
    }
    drop(writer);
    // SAFETY: the parent never blocks on the child's stderr.
    unsafe { libc::fcntl(reader.as_raw_fd(), libc::F_SETFL, libc::O_NONBLOCK) };
    let start = Instant::now();
    let mut tail: Vec<u8> = Vec::new();
    let mut timed_out = false;
    let mut open = true;
    let mut buf = [0u8; 8192];
    let status = loop {
        if open {
            loop {
                match reader.read(&mut buf) {
                    Ok(0) => {
                        open = false;
                        break;
                    }
                    Ok(n) => {
                        let _ = std::io::stderr().write_all(&buf[..n]);
                        tail.extend_from_slice(&buf[..n]);
                        if tail.len() > TAIL {
                            tail.drain(..tail.len() - TAIL);
                        }
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(_) => break,
                }
            }
        }
        let mut status = 0;
        // SAFETY: waits for our own child without blocking.
        let r = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
        if r == pid {
            // Whatever the child wrote last is still in the pipe.
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let _ = std::io::stderr().write_all(&buf[..n]);
                tail.extend_from_slice(&buf[..n]);
            }
            break status;
        }
        if r < 0 {
            return Err(std::io::Error::last_os_error());
        }
        if let Some(limit) = limits.timeout {
            if !timed_out && start.elapsed() > limit {
                // SAFETY: our own child, by its id.
                unsafe { libc::kill(pid, libc::SIGKILL) };
                timed_out = true;
            }
        }
        let mut pfd = libc::pollfd {
            fd: reader.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        let wait = if open { 50 } else { 5 };
        // SAFETY: one valid pollfd for the duration of the call.
        unsafe { libc::poll(&mut pfd, 1, wait) };
    };
    let index = progress.load(Ordering::Relaxed);
    let child_reported = reported.load(Ordering::SeqCst) == 1;
    let executed_reported = executed_in_child.load(Ordering::SeqCst) as usize;
    // SAFETY: unmaps the page mapped above; `progress` is not used after this.
    unsafe { libc::munmap(page, 4096) };
    let entry = (index != u32::MAX).then_some(index as usize);
    let call = entry
        .and_then(|i| trace.entries.get(i))
        .map(|e| e.call.name());
    let at = match entry.and_then(|i| trace.lines.get(i)) {
        Some(line) => format!("{name}:{line}"),
        None => name.to_string(),
    };
    let executed = entry.unwrap_or(0);
    let output = String::from_utf8_lossy(&tail);
    let failure = if timed_out {
        let call = call.unwrap_or("-");
        // As the fuzzer judges a round: only a check under a resource limit overruns it, so
        // a minimizer that drops the limit changes the signature and is refused.
        let ran = entry.map_or(&trace.entries[..0], |i| &trace.entries[..=i]);
        let cause = if overran_resource_limit(ran) {
            format!("in {call}")
        } else {
            format!("in {call} without a resource limit")
        };
        Failure::new(
            FailureKind::Timeout,
            format!(
                "ran past the time limit of {:.1} s in `{call}`",
                limits.timeout.unwrap_or_default().as_secs_f64()
            ),
        )
        .at_call(call)
        .with_cause(cause)
    } else if libc::WIFSIGNALED(status) {
        classify_death(Some(libc::WTERMSIG(status)), None, &output, call)
    } else {
        let code = libc::WEXITSTATUS(status);
        if let Some(exit) = Exit::from_code(code).filter(|_| child_reported) {
            // The child reported its own outcome.
            return Ok(Outcome {
                exit,
                message: String::new(),
                executed: executed_reported,
                failure: model::finding::signature_in(&output).map(|sig| {
                    let kind = sig.split('|').next().and_then(FailureKind::from_name);
                    Failure::new(kind.unwrap_or(FailureKind::Crash), "").with_cause(
                        sig.split_once('|')
                            .map_or(String::new(), |(_, c)| c.to_string()),
                    )
                }),
            });
        }
        if output.contains("panicked at") {
            Failure::new(
                FailureKind::Panic,
                format!("panic in `{}`", call.unwrap_or("-")),
            )
            .with_cause(format!("in {}", call.unwrap_or("-")))
        } else {
            classify_death(None, Some(code), &output, call)
        }
    };
    let outcome = Outcome {
        exit: Exit::of(failure.kind),
        message: format!("{at}: {}", failure.message),
        executed,
        failure: Some(failure),
    };
    report(&outcome);
    Ok(outcome)
}
