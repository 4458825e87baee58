//! Isolation: rounds run in forked worker processes ([`Worker`]) with a memory limit
//! (`setrlimit`) and a CPU limit. A worker runs a batch of consecutive rounds (at most
//! [`BATCH_ROUNDS`], none started after [`BATCH_TIME`]): the parent sends each round's seed
//! over a pipe, the worker runs the round in its private folder (mode 0700, the worker's
//! working directory during the round, so that whatever Z3 writes lands there and nowhere
//! else; stdout/stderr captured there, trace written as it goes, report at the end) and
//! answers on another pipe. Every round starts from
//! the Z3 state a fresh process has: global parameters no round changed, and a fresh context
//! prepared as a replay's is (the first round uses the one the parent prepared). The parent
//! ([`Worker::poll`]) applies the time limit to the round in progress, kills the worker past
//! it, and turns a worker's death into a [`Finished`] round with a [`Failure`] for the round
//! in progress; the next round gets a new worker. A worker also ends after any failed round,
//! and after a round that set or reset Z3's global parameters.
//! One call may use at most [`CALL_SHARE`] of the round's time limit: the parent watches the
//! trace, which the worker writes and flushes before each call, and a round whose trace has
//! not grown for that much CPU time is stuck in one call and killed as if at its limit.
//! A round killed at a limit is a finding only where Z3's resource limit should have
//! stopped the call it was in, and that call itself ran past its share
//! ([`timeout_is_finding`]); such a check is not killed at the round's limit before its share
//! is used up. The parent must stay single-threaded to fork safely.

use crate::failure::{Failure, FailureKind};
use crate::interrupt;
use crate::round::{run_recorded_round, RoundReport};
use crate::round_state::RoundConfig;
use nix::fcntl::{fcntl, FcntlArg, OFlag};
use nix::poll::{PollFd, PollFlags, PollTimeout};
use nix::sys::resource::{getrusage, setrlimit, Resource, UsageWho};
use nix::sys::signal::{kill, Signal};
use nix::sys::wait::{waitpid, WaitPidFlag, WaitStatus};
use nix::unistd::{ForkResult, Pid};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The default time limit of a round in seconds (`--timeout`).
pub const DEFAULT_TIMEOUT_SECONDS: f64 = 2.0;
/// The share of a round's time limit one call may take. Why not the whole limit: a call Z3's
/// resource limit should bound and does not is a hang (a finding), found as well at half the
/// time, and hangs of known bugs recur every few hundred rounds: at 2 s each they were a
/// third of a campaign's CPU time. Normal calls stay far below it (the slowest of 1,000 rounds
/// took 0.65 s, an Optimize check).
pub const CALL_SHARE: f64 = 0.5;
/// The messages of a round killed at its time limit, of one killed in a long call, and of
/// one that waited past the wall-clock limit ([`WALL_NET_FACTOR`]).
const ROUND_OVERRAN: &str = "the round ran past its time limit";
const CALL_OVERRAN: &str = "a call ran past its share of the round's time limit";
const WALL_OVERRAN: &str = "the round waited past its wall-clock limit";
/// The default memory limit of a round in MiB (`--memout`).
pub const DEFAULT_MEMOUT_MIB: u64 = 2048;

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

/// What a worker writes when its round is done and it takes another.
const ROUND_DONE: u8 = 1;
/// What a worker writes when its round is done and it exits (the round failed, or changed
/// Z3's global parameters): the parent gives it no other round.
const LAST_ROUND_DONE: u8 = 2;

/// At most this many rounds run in one worker process, and a worker takes no new round once
/// it is this old: a fork and exit per round cost about a third of a round's CPU (copying the
/// parent's pages, faulting in a fresh heap), while a bounded batch keeps the effect of any
/// state a round leaves behind small. 64 rounds cut the kernel time per round by a
/// third against 16 (5.8 -> 4.1 ms); traces stayed byte-identical to the same seeds run alone (67 seeds checked).
pub const BATCH_ROUNDS: u32 = 64;
pub const BATCH_TIME: Duration = Duration::from_secs(4);

/// A round a worker runs now.
#[derive(Debug)]
struct Current {
    seed: u64,
    dir: PathBuf,
    started: Instant,
    /// The worker's CPU time when the round started.
    cpu_at_start: Duration,
    /// The trace's length at the last poll, and the round's CPU time when it last grew.
    trace_len: u64,
    cpu_at_growth: Duration,
    /// Whether the call in progress is a check under Z3's resource limit, once asked (the
    /// round is past its limit) and until the trace grows.
    in_limited_check: Option<bool>,
}

/// How many times the time limit a round may take in wall-clock time: the limit itself is
/// CPU time, which other load on the machine does not stretch (a round of 0.3 s of CPU took
/// over 2 s at a load of 14 on 2 cores, a timeout that no replay reproduced); the wall clock
/// only catches a round that waits without using CPU.
const WALL_NET_FACTOR: u32 = 10;

/// The CPU time (user and system) that process `pid` has used, from `/proc/PID/stat`; `None`
/// where it cannot be read.
fn cpu_time(pid: Pid) -> Option<Duration> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command name start with the state (field 3); utime and stime
    // are fields 14 and 15, in clock ticks.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // SAFETY: sysconf reads a configuration value; libc has no safe wrapper.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    (per_second > 0).then(|| Duration::from_secs_f64(ticks as f64 / per_second as f64))
}

/// A running worker child: it reads round seeds from `cmd` (8 bytes each, end of file: exit),
/// runs each round in its folder and answers with one byte on `done` once the round's report
/// is written.
#[derive(Debug)]
pub struct Worker {
    pub pid: Pid,
    root: PathBuf,
    cmd: Option<fs::File>,
    done: fs::File,
    current: Option<Current>,
    rounds: u32,
    born: Instant,
    /// Why the parent killed the worker (which time limit), once it did.
    killed: Option<&'static str>,
    exited: bool,
}

/// A finished round: its folder (trace, output) and report.
#[derive(Debug)]
pub struct Finished {
    pub dir: PathBuf,
    pub report: RoundReport,
    /// The round was killed at a time limit that is no finding ([`timeout_is_finding`] says
    /// no: a call Z3's resource limit does not bound ran long, or the round as a whole ran out
    /// of time): a performance note for the statistics, and `report.failure` is `None`.
    pub timeout_not_finding: bool,
}

/// Prepares the parent before its first fork, so that no child pays for it again: creates the
/// `z3` crate's thread-local context (every round's executor uses it; creating it is about a
/// sixth of a round's CPU time) and reads the solver parameter kinds the executor needs (about
/// a quarter; in a scratch context of their own, so the round's context stays as fresh as a
/// replay's), and resolves the functions of the plain calls. Z3 starts no threads here, so
/// the parent stays single-threaded. Last, the heap's free memory goes back to the kernel:
/// every fork copies the parent's page tables and every worker's exit tears them down, and
/// the measurement of `--shadows` leaves some 600 MB free in the heap on Z3 5.4.1 (a parent of
/// 675 MB against 72 MB after the trim; each worker's start and end cost that much more
/// kernel time).
pub fn warm_up() {
    let _ = z3::Context::thread_local();
    let _ = untrace::executor::solver_param_kinds();
    untrace::executor::adapt_model_to_loaded_z3();
    let _ = untrace::executor::simplify_bool_params();
    untrace::executor::plain::prepare();
    // SAFETY: glibc's malloc_trim only returns free heap pages (no safe wrapper in libc).
    unsafe { libc::malloc_trim(0) };
}

fn pipe() -> io::Result<(fs::File, fs::File)> {
    let (read, write) = nix::unistd::pipe2(OFlag::O_CLOEXEC)?;
    Ok((read.into(), write.into()))
}

/// Forks a worker child for rounds of `config`; give it rounds with [`Worker::start`].
/// Round `seed` runs in the folder `root/r<SEED>`.
pub fn spawn(config: &RoundConfig, limits: Limits, root: &Path) -> io::Result<Worker> {
    use std::os::fd::AsRawFd;
    let (cmd_read, cmd_write) = pipe()?;
    let (done_read, done_write) = pipe()?;
    // SAFETY: the parent is single-threaded (no progress-bar thread, no Z3 threads), so the
    // child may allocate and run arbitrary code.
    let pid = match unsafe { nix::unistd::fork() }? {
        ForkResult::Parent { child } => child,
        ForkResult::Child => {
            // Other workers' pipe ends, inherited from the parent, would keep their pipes open.
            close_other_fds(&[cmd_read.as_raw_fd(), done_write.as_raw_fd()]);
            std::mem::forget((cmd_write, done_read));
            child(config, limits, root, cmd_read, done_write);
        }
    };
    // The parent's read end of `done` never blocks, so polling never waits.
    fcntl(&done_read, FcntlArg::F_SETFL(OFlag::O_NONBLOCK))?;
    Ok(Worker {
        pid,
        root: root.to_path_buf(),
        cmd: Some(cmd_write),
        done: done_read,
        current: None,
        rounds: 0,
        born: Instant::now(),
        killed: None,
        exited: false,
    })
}

/// Closes every open descriptor from 3 up except `keep` (the files of [`spawn`] that own some
/// of them are leaked in the child, never dropped). The open ones are listed in
/// `/proc/self/fd`: trying every number up to the descriptor limit costs a million system
/// calls where the limit is that high.
fn close_other_fds(keep: &[i32]) {
    let open: Vec<i32> = fs::read_dir("/proc/self/fd")
        .map(|dir| {
            dir.filter_map(|entry| entry.ok()?.file_name().to_str()?.parse().ok())
                .collect()
        })
        .unwrap_or_default();
    for fd in open {
        if fd >= 3 && !keep.contains(&fd) {
            // The listing's own descriptor is closed already: EBADF is fine.
            let _ = nix::unistd::close(fd);
        }
    }
}

/// The child: the memory limit, then rounds until the parent closes `cmd` or a round fails;
/// never returns.
fn child(
    config: &RoundConfig,
    limits: Limits,
    root: &Path,
    mut cmd: fs::File,
    mut done: fs::File,
) -> ! {
    use std::io::{Read, Write};
    interrupt::ignore_in_worker();
    untrace::crash::install();
    if limits.memout_mb > 0 {
        let bytes = limits.memout_mb << 20;
        let _ = setrlimit(Resource::RLIMIT_AS, bytes, bytes);
    }
    // Freed memory stays in the heap for the next round of the batch instead of going back to
    // the kernel, which would fault it in again (page faults were a tenth of a round).
    // SAFETY: allocator tuning of this single-threaded process, before its rounds (glibc's
    // mallopt has no safe wrapper).
    unsafe {
        libc::mallopt(libc::M_TRIM_THRESHOLD, 512 << 20);
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
    }
    let mut buf = [0u8; 8];
    let mut rounds = 0u32;
    let code = loop {
        if cmd.read_exact(&mut buf).is_err() {
            break 0;
        }
        let seed = u64::from_le_bytes(buf);
        let fresh = rounds > 0;
        rounds += 1;
        let report = match child_round(config, seed, &round_dir(root, seed), limits, fresh) {
            Ok(report) => report,
            Err(_) => break 3,
        };
        // A failed round may leave Z3 in any state, and so does a round that set or reset the
        // global parameters: a reset does not give back a fresh process's (Z3 5.4.1: a module's
        // parameter set after a reset makes the rewriter's unknown for the rest of the process,
        // see `globals_changed`), and a later round that met it would be a finding its own
        // trace cannot replay. The next round gets a fresh process; the parent learns so with
        // the round's end.
        let goes_on = report.failure.is_none() && !untrace::executor::globals_changed();
        let ended = if goes_on { ROUND_DONE } else { LAST_ROUND_DONE };
        if done.write_all(&[ended]).is_err() || !goes_on {
            break 0;
        }
    };
    // SAFETY: ends the child without running the parent's exit handlers twice (nix has no
    // wrapper for _exit).
    unsafe { libc::_exit(code) }
}

/// Runs one round in a worker: a CPU limit as a backstop should the parent die (the parent's
/// wall clock is tighter), the round's folder as working directory and output, the round, its
/// report. The global parameters are a fresh process's: a round that changed them was its
/// worker's last.
fn child_round(
    config: &RoundConfig,
    seed: u64,
    dir: &Path,
    limits: Limits,
    fresh: bool,
) -> io::Result<RoundReport> {
    use std::io::Write;
    let started = untrace::profile::start();
    let _ = io::stdout().flush();
    let trace = fs::File::create(dir.join(TRACE))?;
    let output = fs::File::create(dir.join(OUTPUT))?;
    // Files Z3 writes (a parameter the option model missed, a debug switch) land in the
    // round's private folder, which the parent removes or keeps with the failure.
    std::env::set_current_dir(dir)?;
    let used = getrusage(UsageWho::RUSAGE_SELF)
        .map(|u| (u.user_time().tv_sec() + u.system_time().tv_sec()) as u64 + 1)
        .unwrap_or(0);
    let cpu = used + limits.timeout.as_secs() + 2;
    let _ = setrlimit(Resource::RLIMIT_CPU, cpu, cpu + 1);
    flush_c_streams();
    nix::unistd::dup2_stdout(&output)?;
    nix::unistd::dup2_stderr(&output)?;
    // Opened before the round's context is made, so its configuration calls count too.
    let api_log = config
        .count_z3_functions
        .then(|| crate::api_coverage::RoundLog::open(dir));
    // The first round of a worker uses the context the parent prepared (see `warm_up`); every
    // later one a fresh context prepared the same way: a context that earlier rounds used
    // answers differently (measured: traces of the same seed differed), and a round must be
    // a function of its seed.
    let context = if fresh {
        untrace::executor::fresh_context().map_err(io::Error::other)?
    } else {
        z3::Context::thread_local()
    };
    let report = z3::with_z3_context(&context, || {
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            // Buffered: the executor flushes after every line (one write per line, no fsync).
            run_recorded_round(config, seed, Box::new(io::BufWriter::new(trace)))
        }));
        result.unwrap_or_else(|payload| {
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
        })
    });
    drop(context);
    let mut report = report;
    report.stats.z3_functions = api_log.map(|log| log.finish()).unwrap_or_default();
    untrace::profile::record("round", &seed.to_string(), started);
    if let (None, Some(differential)) = (&report.failure, &config.differential) {
        compare_round(differential, &dir.join(TRACE), limits, &mut report);
    }
    let _ = io::stdout().flush();
    flush_c_streams();
    let json = serde_json::to_vec(&report).map_err(io::Error::other)?;
    fs::write(dir.join(REPORT), json)?;
    Ok(report)
}

/// Runs a round that passed again on the other side of a differential campaign: a
/// disagreement becomes the round's failure; what was compared goes into its statistics.
fn compare_round(
    differential: &crate::round_state::Differential,
    trace_path: &Path,
    limits: Limits,
    report: &mut RoundReport,
) {
    use untrace::differential::{compare, SideLimits};
    let side = SideLimits {
        timeout: limits.timeout,
        memout_mb: (limits.memout_mb > 0).then_some(limits.memout_mb),
    };
    let counts = &mut report.stats.differential;
    *counts.entry("rounds".into()).or_default() += 1;
    let trace = match fs::read(trace_path).map(|b| model::trace::parse(&b)) {
        Ok(Ok(trace)) => trace,
        _ => {
            *counts.entry("unreadable-trace".into()).or_default() += 1;
            return;
        }
    };
    match compare(
        trace_path,
        &trace,
        &differential.other,
        &differential.replayer,
        side,
    ) {
        Ok(verdict) => {
            for (k, n) in verdict.counts {
                *counts.entry(k).or_default() += n;
            }
            report.failure = verdict.failure.map(|mut f| {
                f.last_call = f.last_call.or_else(|| last_call(trace_path));
                f
            });
        }
        Err(message) => {
            *counts.entry("side-error".into()).or_default() += 1;
            eprintln!("mbt: differential: {message}");
        }
    }
}

impl Worker {
    /// Whether the worker may take another round (it is idle, alive, and its batch not full).
    pub fn can_take(&self) -> bool {
        self.current.is_none()
            && self.cmd.is_some()
            && !self.exited
            && self.rounds < BATCH_ROUNDS
            && self.born.elapsed() < BATCH_TIME
    }

    /// Starts round `seed` in the worker (its private folder is created here).
    pub fn start(&mut self, seed: u64) -> io::Result<()> {
        use std::io::Write;
        use std::os::unix::fs::DirBuilderExt;
        let dir = round_dir(&self.root, seed);
        fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&dir)?;
        self.current = Some(Current {
            seed,
            dir,
            started: Instant::now(),
            cpu_at_start: cpu_time(self.pid).unwrap_or_default(),
            trace_len: 0,
            cpu_at_growth: Duration::ZERO,
            in_limited_check: None,
        });
        self.rounds += 1;
        if let Some(cmd) = &mut self.cmd {
            // A worker that died meanwhile shows at the next poll, with this round in progress.
            let _ = cmd.write_all(&seed.to_le_bytes());
        }
        Ok(())
    }

    /// Whether the worker waits for a round and may still be given one or retired.
    pub fn is_idle(&self) -> bool {
        self.current.is_none() && self.cmd.is_some() && !self.exited
    }

    /// Whether the worker counts as one of the running jobs (not exiting).
    pub fn is_active(&self) -> bool {
        !self.exited && (self.cmd.is_some() || self.current.is_some())
    }

    /// Lets the worker exit once its current round is done.
    pub fn retire(&mut self) {
        self.cmd = None;
    }

    /// Whether the worker process ended and was reaped.
    pub fn exited(&self) -> bool {
        self.exited
    }

    /// Kills the worker and reaps it, dropping the round in progress (a campaign that stops
    /// early). A worker starts no processes of its own (Z3 starts none), so its id is all
    /// there is to kill.
    pub fn kill(&mut self) {
        if self.exited {
            return;
        }
        // Our own child, not reaped yet, so the id is still ours; after SIGKILL the blocking
        // wait ends at once.
        let _ = kill(self.pid, Signal::SIGKILL);
        let _ = waitpid(self.pid, None);
        self.exited = true;
        self.cmd = None;
        self.current = None;
    }

    /// Checks on the worker: the round it finished, or the failure of the round in progress if
    /// it died (killing it first when the round ran past `timeout`); `None` otherwise.
    pub fn poll(&mut self, timeout: Duration) -> Option<Finished> {
        if let Some(ended) = self.read_done() {
            if ended == LAST_ROUND_DONE {
                // The worker exits after this round (see `child`).
                self.retire();
            }
            return self.current.take().map(finished_from_report);
        }
        let status = waitpid(self.pid, Some(WaitPidFlag::WNOHANG));
        if let Ok(WaitStatus::StillAlive) = status {
            if let (Some(c), None) = (&mut self.current, self.killed) {
                if let Some(why) = c.over(self.pid, timeout) {
                    let _ = kill(self.pid, Signal::SIGKILL);
                    self.killed = Some(why);
                }
            }
            return None;
        }
        self.exited = true;
        // The round may have finished just before the worker ended.
        if self.read_done().is_some() {
            return self.current.take().map(finished_from_report);
        }
        let current = self.current.take()?;
        let mut report = self.collect(&current, status);
        let trace = current.dir.join(TRACE);
        let mut timeout_not_finding = false;
        if let Some(f) = &mut report.failure {
            if f.last_call.is_none() {
                f.last_call = last_call(&trace);
            }
            if f.kind == FailureKind::Timeout {
                let text = fs::read_to_string(&trace).unwrap_or_default();
                timeout_not_finding = !timeout_is_finding(&text, self.killed);
            }
        }
        if timeout_not_finding {
            report.failure = None;
        }
        Some(Finished {
            dir: current.dir,
            report,
            timeout_not_finding,
        })
    }

    /// The round's CPU time so far (the wall-clock time where the CPU time cannot be read).
    fn round_cpu(&self) -> Option<Duration> {
        let c = self.current.as_ref()?;
        Some(match cpu_time(self.pid) {
            Some(now) => now.saturating_sub(c.cpu_at_start),
            None => c.started.elapsed(),
        })
    }

    /// Reads one "round done" byte ([`ROUND_DONE`] or [`LAST_ROUND_DONE`]), if there is one.
    fn read_done(&mut self) -> Option<u8> {
        use std::io::Read;
        let mut byte = [0u8; 1];
        matches!(self.done.read(&mut byte), Ok(1)).then_some(byte[0])
    }

    fn collect(&self, current: &Current, status: nix::Result<WaitStatus>) -> RoundReport {
        let failed = |failure: Failure| RoundReport {
            seed: current.seed,
            failure: Some(failure),
            ..RoundReport::default()
        };
        let status = match status {
            Ok(status) => status,
            Err(e) => {
                return failed(Failure::new(
                    FailureKind::Crash,
                    format!("waitpid failed: {e}"),
                ))
            }
        };
        let output = fs::read_to_string(current.dir.join(OUTPUT)).unwrap_or_default();
        let call = last_call(&current.dir.join(TRACE));
        if let WaitStatus::Signaled(_, sig, _) = status {
            if let Some(why) = self.killed {
                // The same cause as untrace's `--timeout` gives, so round and replay agree.
                let call = call.as_deref().unwrap_or("-");
                return failed(
                    Failure::new(FailureKind::Timeout, why).with_cause(format!("in {call}")),
                );
            }
            return failed(classify_signal(sig as i32, &output, call.as_deref()));
        }
        let code = match status {
            WaitStatus::Exited(_, code) => code,
            _ => -1,
        };
        failed(model::finding::classify_death(
            None,
            Some(code),
            &output,
            call.as_deref(),
            &untrace::crash::function_at,
        ))
    }
}

impl Current {
    /// Why the round, run by worker `pid`, is over its limits, if it is: its current call has
    /// used more than [`CALL_SHARE`] of `timeout` of CPU time; or the round more than
    /// [`WALL_NET_FACTOR`] times `timeout` of wall-clock time; or more than `timeout` of CPU
    /// time, unless its current call is a check under Z3's resource limit: that check may use
    /// its whole share first, so that a hang Z3's limit should have stopped is one wherever in
    /// the round it starts, and a quick check that slow calls before it left no time is not
    /// killed in the middle (and so never reported as a hang: [`timeout_is_finding`]).
    fn over(&mut self, pid: Pid, timeout: Duration) -> Option<&'static str> {
        let cpu = cpu_time(pid).map(|now| now.saturating_sub(self.cpu_at_start));
        let cpu = cpu.unwrap_or_else(|| self.started.elapsed());
        let trace_len = fs::metadata(self.dir.join(TRACE)).map_or(0, |m| m.len());
        if trace_len != self.trace_len {
            self.trace_len = trace_len;
            self.cpu_at_growth = cpu;
            self.in_limited_check = None;
        }
        if cpu.saturating_sub(self.cpu_at_growth) > timeout.mul_f64(CALL_SHARE) {
            return Some(CALL_OVERRAN);
        }
        if self.started.elapsed() > timeout * WALL_NET_FACTOR {
            return Some(WALL_OVERRAN);
        }
        (cpu > timeout && !self.in_limited_check()).then_some(ROUND_OVERRAN)
    }

    /// Whether the call in progress is a check under Z3's resource limit (read from the
    /// trace once per call: only a round past its CPU limit asks).
    fn in_limited_check(&mut self) -> bool {
        let dir = &self.dir;
        *self.in_limited_check.get_or_insert_with(|| {
            let text = fs::read_to_string(dir.join(TRACE)).unwrap_or_default();
            check_in_progress_is_limited(&text)
        })
    }
}

/// Blocks until one of `workers` may have news (a round done, a worker ended) or a round in
/// progress reaches its time limit, but at most `at_most`: waiting in `poll(2)` instead of
/// sleeping between checks hands a worker its next round as soon as it is free. A signal ends
/// the wait early (`poll` fails with EINTR, which is fine: the caller checks
/// [`interrupt::requested`] next).
pub fn wait_for_news(workers: &[Worker], timeout: Duration, at_most: Duration) {
    use std::os::fd::AsFd;
    // CPU time runs no faster than the wall clock (a round uses one thread), so a limit is
    // no nearer than the CPU time it has left (the call's counted from the last poll that
    // saw the trace grow: later growth only makes the wait shorter than needed).
    let wait = workers
        .iter()
        .filter(|w| w.killed.is_none())
        .filter_map(|w| {
            let c = w.current.as_ref()?;
            let used = w.round_cpu()?;
            let call_left = timeout
                .mul_f64(CALL_SHARE)
                .saturating_sub(used.saturating_sub(c.cpu_at_growth));
            // A check under the resource limit past the round's limit runs to its share.
            Some(if c.in_limited_check == Some(true) {
                call_left
            } else {
                timeout.saturating_sub(used).min(call_left)
            })
        })
        .fold(at_most, Duration::min);
    let mut fds: Vec<PollFd> = workers
        .iter()
        .filter(|w| !w.exited)
        .map(|w| PollFd::new(w.done.as_fd(), PollFlags::POLLIN))
        .collect();
    // Rounded up: waking a little after a time limit is fine, spinning before it is not.
    let millis = wait.as_micros().div_ceil(1000).min(i32::MAX as u128) as i32;
    let _ = nix::poll::poll(
        &mut fds,
        PollTimeout::try_from(millis).unwrap_or(PollTimeout::MAX),
    );
}

/// Flushes C's output streams (Z3 prints through them) into the current output file.
fn flush_c_streams() {
    // SAFETY: fflush(NULL) flushes every C output stream of this process; libc has no safe
    // wrapper for it.
    unsafe { libc::fflush(std::ptr::null_mut()) };
}

/// The folder of round `seed` under `root`.
pub fn round_dir(root: &Path, seed: u64) -> PathBuf {
    root.join(format!("r{seed}"))
}

/// A round the worker reported done: its report from its folder.
fn finished_from_report(current: Current) -> Finished {
    let report = fs::read(current.dir.join(REPORT))
        .ok()
        .and_then(|b| serde_json::from_slice::<RoundReport>(&b).ok())
        .unwrap_or_else(|| RoundReport {
            seed: current.seed,
            failure: Some(Failure::new(
                FailureKind::Crash,
                "the round's report is missing or unreadable",
            )),
            ..RoundReport::default()
        });
    Finished {
        dir: current.dir,
        report,
        timeout_not_finding: false,
    }
}

/// Names how a worker died during a round: a CPU-limit signal is a timeout; everything else
/// is classified as `untrace` classifies a replay's death (`model::finding::classify_death`:
/// Z3's assertion location, the crash reporter's place in libz3, stack overflow, memory), so
/// that a round and its replay get the same signature.
pub fn classify_signal(sig: i32, output: &str, last_call: Option<&str>) -> Failure {
    if sig == libc::SIGXCPU {
        return Failure::new(FailureKind::Timeout, "the round ran past its CPU limit");
    }
    model::finding::classify_death(
        Some(sig),
        None,
        output,
        last_call,
        &untrace::crash::function_at,
    )
}

/// Whether a round killed at a time limit (`killed`: which one; its trace `trace`) is a
/// timeout finding: the call it was in ran past its own share of the limit
/// ([`CALL_OVERRAN`]) or waited past the wall-clock limit ([`WALL_OVERRAN`]: a deadlock uses
/// no CPU), and is a check on a solver with a resource limit
/// ([`check_in_progress_is_limited`]). Any other call that runs long ignores the limit by
/// design: a performance note, not a bug report. (A round past its whole CPU limit is not
/// killed in such a check before the check's share is used up: [`Current::over`].)
pub fn timeout_is_finding(trace: &str, killed: Option<&str>) -> bool {
    matches!(killed, Some(CALL_OVERRAN | WALL_OVERRAN)) && check_in_progress_is_limited(trace)
}

/// Whether the call running at the end of trace `trace` is a check on a solver with a
/// resource limit ([`model::finding::overran_resource_limit`]). The running call is the last
/// one and has no `return` line yet; one that has returned means the round is elsewhere. A
/// trace that does not parse is no such check.
fn check_in_progress_is_limited(trace: &str) -> bool {
    model::trace::text::parse(trace).is_ok_and(|t| {
        t.entries.last().is_some_and(|e| e.ret.is_none())
            && model::finding::overran_resource_limit(&t.entries)
    })
}

/// The files anything in round folder `dir` wrote besides the round's own trace, output,
/// report and API log (Z3 writes into its working directory, the round's folder), as paths relative to it.
pub fn produced_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    collect_files(dir, Path::new(""), &mut found);
    found.retain(|p| {
        ![TRACE, OUTPUT, REPORT, crate::api_coverage::ROUND_LOG]
            .iter()
            .any(|own| p == Path::new(own))
    });
    found.sort();
    found
}

fn collect_files(root: &Path, relative: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(root.join(relative)) else {
        return;
    };
    for entry in entries.flatten() {
        let path = relative.join(entry.file_name());
        match entry.file_type() {
            Ok(t) if t.is_dir() => collect_files(root, &path, found),
            Ok(t) if t.is_file() => found.push(path),
            // Symbolic links and other special files are not copied anywhere.
            _ => {}
        }
    }
}

/// Copies the [`produced_files`] of round folder `dir` into `to` (created only when there is
/// something to copy); returns how many there were.
pub fn keep_produced_files(dir: &Path, to: &Path) -> io::Result<usize> {
    let files = produced_files(dir);
    for relative in &files {
        let target = to.join(relative);
        if let Some(parent) = target.parent() {
            fs::create_dir_all(parent)?;
        }
        fs::copy(dir.join(relative), target)?;
    }
    Ok(files.len())
}

/// The last call line of a text trace: the call that was running or failed (where a round
/// injected with `MBT_INJECT` stopped).
pub fn last_call_line(trace: &Path) -> Option<String> {
    let text = fs::read_to_string(trace).ok()?;
    text.lines()
        .skip(1)
        .filter(|l| !l.starts_with("return") && !l.starts_with(';') && !l.trim().is_empty())
        .last()
        .map(str::to_string)
}

/// The name of the last call line of a trace ([`last_call_line`]).
pub fn last_call(trace: &Path) -> Option<String> {
    last_call_line(trace)?
        .split_whitespace()
        .next()
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signals_are_classified_from_output() {
        assert_eq!(
            classify_signal(
                libc::SIGABRT,
                "thread 'main' has overflowed its stack\n",
                None
            )
            .kind,
            FailureKind::StackOverflow
        );
        assert_eq!(
            classify_signal(
                libc::SIGABRT,
                "memory allocation of 64 bytes failed\n",
                None
            )
            .kind,
            FailureKind::Memout
        );
        assert_eq!(
            classify_signal(libc::SIGXCPU, "", None).kind,
            FailureKind::Timeout
        );
        let f = classify_signal(
            libc::SIGSEGV,
            "crash: SIGSEGV in push at libz3.so.4+0x10\n",
            Some("push"),
        );
        assert_eq!(
            (f.kind, f.signature().to_string().as_str()),
            (FailureKind::Crash, "crash|SIGSEGV at libz3.so.4+0x10")
        );
    }

    #[test]
    fn timeouts_are_findings_only_in_checks_under_an_rlimit() {
        let limited = "z3-trace 1\nnew_solver\nreturn z1\nset_param z1 \"rlimit\" \"100000\"\n";
        for (trace, finding) in [
            (format!("{limited}check_sat z1\n"), true),
            (format!("{limited}check_sat_assuming z1 t3 t4\n"), true),
            // The check had returned: the round hung somewhere else.
            (format!("{limited}check_sat z1\nreturn unknown\n"), false),
            // Another call than a check ignores the limit by design.
            (format!("{limited}simplify t2\n"), false),
            // The limit is on another solver.
            (
                format!("{limited}new_solver\nreturn z2\ncheck_sat z2\n"),
                false,
            ),
            // No limit, a zero limit (none), a refused limit.
            (
                "z3-trace 1\nnew_solver\nreturn z1\ncheck_sat z1\n".into(),
                false,
            ),
            (
                "z3-trace 1\nnew_solver\nreturn z1\nset_param z1 \"rlimit\" \"0\"\ncheck_sat z1\n"
                    .into(),
                false,
            ),
            (
                format!("{limited}return error \"Exception: bad\"\ncheck_sat z1\n"),
                false,
            ),
            ("z3-trace 1\n".into(), false),
            (String::new(), false),
        ] {
            assert_eq!(
                timeout_is_finding(&trace, Some(CALL_OVERRAN)),
                finding,
                "{trace}"
            );
            assert_eq!(
                timeout_is_finding(&trace, Some(WALL_OVERRAN)),
                finding,
                "{trace}"
            );
            assert!(!timeout_is_finding(&trace, Some(ROUND_OVERRAN)), "{trace}");
        }
    }

    #[test]
    fn produced_files_leave_out_the_rounds_own() {
        let dir = tempfile::tempdir().unwrap();
        for name in [
            TRACE,
            OUTPUT,
            REPORT,
            crate::api_coverage::ROUND_LOG,
            "lemma_1.smt2",
        ] {
            fs::write(dir.path().join(name), "x").unwrap();
        }
        fs::create_dir(dir.path().join("sub")).unwrap();
        fs::write(dir.path().join("sub/z3.log"), "y").unwrap();
        assert_eq!(
            produced_files(dir.path()),
            [PathBuf::from("lemma_1.smt2"), PathBuf::from("sub/z3.log")]
        );
        let to = dir.path().join("kept");
        assert_eq!(keep_produced_files(dir.path(), &to).unwrap(), 2);
        assert_eq!(fs::read_to_string(to.join("sub/z3.log")).unwrap(), "y");
        let empty = tempfile::tempdir().unwrap();
        assert_eq!(
            keep_produced_files(empty.path(), &to.join("none")).unwrap(),
            0
        );
        assert!(!to.join("none").exists());
    }

    #[test]
    fn last_call_skips_returns_and_comments() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("t.trace");
        fs::write(&p, "z3-trace 1\nsort_bool\nreturn s1\ncheck_sat z1\n").unwrap();
        assert_eq!(last_call(&p).as_deref(), Some("check_sat"));
        fs::write(&p, "z3-trace 1\n").unwrap();
        assert_eq!(last_call(&p), None);
        // A round that made no call left only the header and the Z3 version.
        fs::write(&p, "z3-trace 1\n; z3 4.8.12.0\n").unwrap();
        assert_eq!(last_call(&p), None);
    }
}
