//! Running a command on one input file: [`CommandLine`] (an argument vector; the input file
//! path is appended last), [`RunLimits`] (timeout, memory limit) and [`run_on_file`], which
//! returns a [`RunOutcome`] (how it exited, what it printed, how long it took).
//!
//! The child runs in its own process group so that a timeout or Ctrl-C kills it together with
//! everything it started. Its stdout/stderr go to files in the check's private directory, which
//! avoids pipe deadlocks and cannot block on grandchildren that keep a pipe open.

use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use super::signals::StopFlag;

/// A command as an argument vector: `program args... INPUT`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandLine {
    pub program: OsString,
    pub args: Vec<OsString>,
}

impl CommandLine {
    /// From `[program, args...]`; `None` if `argv` is empty.
    pub fn from_argv<I, S>(argv: I) -> Option<CommandLine>
    where
        I: IntoIterator<Item = S>,
        S: Into<OsString>,
    {
        let mut it = argv.into_iter().map(Into::into);
        let program = it.next()?;
        Some(CommandLine {
            program,
            args: it.collect(),
        })
    }

    /// The command as one line for messages (not for execution).
    pub fn display(&self) -> String {
        std::iter::once(&self.program)
            .chain(&self.args)
            .map(|a| a.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Exit {
    /// Exited normally with this code.
    Code(i32),
    /// Killed by this signal (e.g. 11 for SIGSEGV, 6 for abort).
    Signal(i32),
    /// Killed by us because it ran past the timeout.
    Timeout,
    /// Killed by us because a stop was requested (Ctrl-C).
    Interrupted,
}

impl std::fmt::Display for Exit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Exit::Code(c) => write!(f, "{c}"),
            Exit::Signal(s) => write!(f, "signal {s}"),
            Exit::Timeout => f.write_str("timeout"),
            Exit::Interrupted => f.write_str("interrupted"),
        }
    }
}

/// Everything one run did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunOutcome {
    pub exit: Exit,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub duration: Duration,
}

/// Limits for one run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunLimits {
    /// Wall-clock limit; `None` = unlimited.
    pub timeout: Option<Duration>,
    /// Address-space limit in megabytes (RLIMIT_AS); `None` = unlimited.
    pub memout_mb: Option<u64>,
}

/// Run `cmd input` with cwd unchanged, stdout/stderr captured through files in `workdir`
/// (which must be private to this run). An error means the command could not be started.
pub fn run_on_file(
    cmd: &CommandLine,
    input: &Path,
    workdir: &Path,
    limits: &RunLimits,
    stop: &StopFlag,
) -> io::Result<RunOutcome> {
    let out_path = workdir.join("stdout");
    let err_path = workdir.join("stderr");
    let mut command = Command::new(&cmd.program);
    command
        .args(&cmd.args)
        .arg(input)
        .stdin(Stdio::null())
        .stdout(File::create(&out_path)?)
        .stderr(File::create(&err_path)?)
        .process_group(0);
    if let Some(mb) = limits.memout_mb {
        let bytes = mb.saturating_mul(1024 * 1024) as libc::rlim_t;
        // SAFETY: only async-signal-safe calls (setrlimit) between fork and exec.
        unsafe {
            command.pre_exec(move || {
                let lim = libc::rlimit {
                    rlim_cur: bytes,
                    rlim_max: bytes,
                };
                if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                    return Err(io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    let start = Instant::now();
    let mut child = command.spawn()?;
    let exit = wait_with_limits(&mut child, start, limits.timeout, stop)?;
    let duration = start.elapsed();
    Ok(RunOutcome {
        exit,
        stdout: std::fs::read(&out_path)?,
        stderr: std::fs::read(&err_path)?,
        duration,
    })
}

/// Poll the child with a short, growing sleep (fast runs are noticed within a fraction of
/// their run time); kill its process group on timeout or stop.
fn wait_with_limits(
    child: &mut Child,
    start: Instant,
    timeout: Option<Duration>,
    stop: &StopFlag,
) -> io::Result<Exit> {
    let mut nap = Duration::from_micros(200);
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(exit_of(status));
        }
        let timed_out = timeout.is_some_and(|t| start.elapsed() >= t);
        if timed_out || stop.is_set() {
            kill_group(child);
            child.wait()?;
            return Ok(if timed_out {
                Exit::Timeout
            } else {
                Exit::Interrupted
            });
        }
        std::thread::sleep(nap);
        // At most 1 ms late: a solver check often takes only a few tens of milliseconds.
        nap = (nap * 2).min(Duration::from_millis(1));
    }
}

/// SIGKILL the child's whole process group (its pid is the group id: `process_group(0)`).
/// Called before the child is reaped, so the group id cannot have been reused.
fn kill_group(child: &Child) {
    let pgid = child.id() as libc::pid_t;
    // SAFETY: plain syscall; failure (group already gone) is harmless.
    unsafe {
        libc::kill(-pgid, libc::SIGKILL);
    }
}

fn exit_of(status: ExitStatus) -> Exit {
    match (status.code(), status.signal()) {
        (Some(c), _) => Exit::Code(c),
        (None, Some(s)) => Exit::Signal(s),
        // Unreachable on Unix (a status is either an exit or a signal); map to a code
        // that never equals a real one.
        (None, None) => Exit::Code(i32::MIN),
    }
}
