//! A replay in a forked child process, so that every way Z3 can fail ends in an exit code and
//! a signature: the child replays (and reports mismatches, Z3 errors and failed checks
//! itself, and hands its [`Failure`] to the parent as JSON in an unnamed file they share);
//! the parent forwards the child's stderr, keeps its tail, applies the time limit, and
//! classifies a death (signal, Z3's fatal exit, stack overflow, panic, memory) with
//! [`model::finding::classify_death`], which names a crash's function with
//! [`crate::crash::function_at`]. The index of the entry in progress lives in a page
//! shared with the child, so the parent knows which call was running.
//!
//! The parent must be single-threaded and must not have touched Z3 before [`replay_isolated`].

use crate::crash::function_at;
use crate::replay::{replay_trace_with, Exit, Outcome, ReplayOptions};
use model::finding::{classify_death, overran_resource_limit, Failure, FailureKind};
use model::trace::Trace;
use std::io::{Read, Seek, Write};
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

/// The finding the child wrote into `file` (JSON of an `Option<Failure>`), if any.
fn read_handed_over(file: &mut std::fs::File) -> Option<Failure> {
    let mut json = Vec::new();
    file.rewind().ok()?;
    file.read_to_end(&mut json).ok()?;
    serde_json::from_slice::<Option<Failure>>(&json)
        .ok()
        .flatten()
}

/// A replay run in the child: told the index of each entry before it runs.
pub type RunReplay<'a> = &'a dyn Fn(&mut dyn FnMut(usize)) -> Outcome;

/// A replay to run in a child process: how to run it there, and what the parent needs to know
/// about the entry in progress when the child dies.
pub struct Job<'a> {
    /// The file name in messages.
    pub name: &'a str,
    /// Runs the replay (in the child), telling `progress` the index of each entry before it
    /// runs.
    pub replay: RunReplay<'a>,
    /// The API call of entry `i` (for messages and signatures).
    pub call_name: &'a dyn Fn(usize) -> Option<String>,
    /// The line of entry `i`.
    pub line: &'a dyn Fn(usize) -> Option<u32>,
    /// Whether a replay stopped at its time limit in entry `i` overran Z3's resource limit
    /// (then the timeout is a finding of the call, else of the missing limit).
    pub overran_resource_limit: &'a dyn Fn(usize) -> bool,
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
    let job = Job {
        name,
        replay: &|progress| replay_trace_with(name, trace, options, progress),
        call_name: &|i| trace.entries.get(i).map(|e| e.call.name().to_string()),
        line: &|i| trace.lines.get(i).copied(),
        overran_resource_limit: &|i| trace.entries.get(..=i).is_some_and(overran_resource_limit),
    };
    run_isolated(&job, limits)
}

/// Runs `job` in a child process under `limits` (see [`replay_isolated`]).
pub fn run_isolated(job: &Job, limits: Limits) -> Outcome {
    match spawn(job, limits) {
        Ok(outcome) => outcome,
        Err(e) => {
            let outcome = Outcome {
                exit: Exit::Usage,
                message: format!("{}: cannot start the replay process: {e}", job.name),
                executed: 0,
                failure: None,
            };
            report(&outcome);
            outcome
        }
    }
}

fn spawn(job: &Job, limits: Limits) -> std::io::Result<Outcome> {
    use nix::sys::mman::{mmap_anonymous, munmap, MapFlags, ProtFlags};
    use nix::sys::wait::{waitpid, WaitPidFlag, WaitStatus};
    use nix::unistd::{fork, ForkResult};
    const PAGE: std::num::NonZeroUsize = std::num::NonZeroUsize::new(4096).unwrap();
    // SAFETY: a fresh anonymous shared page, unmapped when this function returns.
    let page = unsafe {
        mmap_anonymous(
            None,
            PAGE,
            ProtFlags::PROT_READ | ProtFlags::PROT_WRITE,
            MapFlags::MAP_SHARED,
        )
    }?;
    // SAFETY: the page is zeroed and aligned for three AtomicU32s and outlives every use.
    let (progress, reported, executed_in_child): (&AtomicU32, &AtomicU32, &AtomicU32) = unsafe {
        let words = page.as_ptr() as *const AtomicU32;
        (&*words, &*words.add(1), &*words.add(2))
    };
    progress.store(u32::MAX, Ordering::Relaxed);
    // The child's finding, as JSON: an unnamed file (gone with its last descriptor), which
    // the parent reads once the child has ended, so neither ever waits for the other.
    let mut handed_over = tempfile::tempfile()?;
    let (reader, writer) = nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC)?;
    let mut reader = std::fs::File::from(reader);
    let _ = std::io::stderr().flush();
    let supervisor = nix::unistd::getpid();
    // SAFETY: the caller is single-threaded, so the child may run arbitrary code.
    let pid = match unsafe { fork() }? {
        ForkResult::Parent { child } => child,
        ForkResult::Child => {
            // The replay dies with its supervisor: whoever kills untrace (a minimizer's or
            // mbt's time limit) must not leave a hanging replay behind.
            let _ = nix::sys::prctl::set_pdeathsig(nix::sys::signal::Signal::SIGKILL);
            if nix::unistd::getppid() != supervisor {
                // SAFETY: see the `_exit` below; the supervisor died before the line above.
                unsafe { libc::_exit(1) }
            }
            drop(reader);
            let _ = nix::unistd::dup2_stderr(&writer);
            if let Some(mb) = limits.memout_mb {
                let bytes = mb << 20;
                let _ = nix::sys::resource::setrlimit(
                    nix::sys::resource::Resource::RLIMIT_AS,
                    bytes,
                    bytes,
                );
            }
            crate::crash::install();
            let outcome = (job.replay)(&mut |i| progress.store(i as u32, Ordering::Relaxed));
            report(&outcome);
            let _ = std::io::stderr().flush();
            let _ = serde_json::to_writer(&handed_over, &outcome.failure);
            let _ = handed_over.flush();
            executed_in_child.store(outcome.executed as u32, Ordering::SeqCst);
            // Z3 may end the process itself, even with exit code 0 (Z3 5.4.1 after "NOT
            // IMPLEMENTED YET"): only an exit after this mark is the replay's own outcome.
            reported.store(1, Ordering::SeqCst);
            // SAFETY: ends the child without running the parent's exit handlers (nix has no
            // wrapper for _exit; `std::process::exit` would run Z3's static destructors).
            unsafe { libc::_exit(outcome.exit as i32) }
        }
    };
    drop(writer);
    // The parent never blocks on the child's stderr.
    nix::fcntl::fcntl(
        &reader,
        nix::fcntl::FcntlArg::F_SETFL(nix::fcntl::OFlag::O_NONBLOCK),
    )?;
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
        let status = waitpid(pid, Some(WaitPidFlag::WNOHANG))?;
        if status != WaitStatus::StillAlive {
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
        if let Some(limit) = limits.timeout {
            if !timed_out && start.elapsed() > limit {
                let _ = nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGKILL);
                timed_out = true;
            }
        }
        let mut fds = [nix::poll::PollFd::new(
            std::os::fd::AsFd::as_fd(&reader),
            nix::poll::PollFlags::POLLIN,
        )];
        let wait: u16 = if open { 50 } else { 5 };
        let _ = nix::poll::poll(&mut fds, wait);
    };
    let index = progress.load(Ordering::Relaxed);
    let child_reported = reported.load(Ordering::SeqCst) == 1;
    let executed_reported = executed_in_child.load(Ordering::SeqCst) as usize;
    // SAFETY: unmaps the page mapped above; `progress` is not used after this.
    let _ = unsafe { munmap(page, PAGE.get()) };
    let entry = (index != u32::MAX).then_some(index as usize);
    let name = job.name;
    let call_name = entry.and_then(|i| (job.call_name)(i));
    let call = call_name.as_deref();
    let at = match entry.and_then(|i| (job.line)(i)) {
        Some(line) => format!("{name}:{line}"),
        None => name.to_string(),
    };
    let executed = entry.unwrap_or(0);
    let output = String::from_utf8_lossy(&tail);
    let failure = if timed_out {
        let call = call.unwrap_or("-");
        // As the fuzzer judges a round: only a check under a resource limit overruns it, so
        // a minimizer that drops the limit changes the signature and is refused.
        let cause = if entry.is_some_and(|i| (job.overran_resource_limit)(i)) {
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
    } else if let WaitStatus::Signaled(_, signal, _) = status {
        classify_death(Some(signal as i32), None, &output, call, &function_at)
    } else {
        let code = match status {
            WaitStatus::Exited(_, code) => code,
            _ => -1,
        };
        if let Some(exit) = Exit::from_code(code).filter(|_| child_reported) {
            // The child reported its own outcome, and handed over its finding.
            return Ok(Outcome {
                exit,
                message: String::new(),
                executed: executed_reported,
                failure: read_handed_over(&mut handed_over),
            });
        }
        if output.contains("panicked at") {
            Failure::new(
                FailureKind::Panic,
                format!("panic in `{}`", call.unwrap_or("-")),
            )
            .with_cause(format!("in {}", call.unwrap_or("-")))
        } else {
            classify_death(None, Some(code), &output, call, &function_at)
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
