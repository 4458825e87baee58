//! Running a command on one input file: [`CommandLine`] (an argument vector; the input file
//! path is appended last), [`RunLimits`] (timeout, memory limit) and [`run_on_file`], which
//! returns a [`RunOutcome`] (how it exited, what it printed, how long it took).
//!
//! The child runs in its own session so that a timeout or Ctrl-C kills it together with
//! everything it started, even processes that made a process group of their own (coreutils
//! `timeout` does); a parent-death signal ends it when ddsmt itself is killed. Its stdout/stderr go to files in the check's private directory, which
//! avoids pipe deadlocks and cannot block on grandchildren that keep a pipe open.

use nix::sys::resource::{setrlimit, Resource};
use nix::sys::signal::{kill, killpg, Signal};
use nix::unistd::Pid;
use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::os::unix::fs::DirBuilderExt;
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

    /// The command with its relative paths made absolute against `base` (where the user
    /// started the tool), because checks run in a private working directory of their own:
    /// a program given by a relative path (`./check.sh`), and every argument that names an
    /// existing file or folder relative to `base` (`check.py`, `../inputs/x`). Option-like
    /// arguments (`-T:5`, `--lang`) and words that name nothing are kept as they are.
    pub fn resolved_against(&self, base: &Path) -> CommandLine {
        let program = Path::new(&self.program);
        let program = if program.is_relative() && program.components().count() > 1 {
            base.join(program).into_os_string()
        } else {
            self.program.clone()
        };
        let args = self
            .args
            .iter()
            .map(|arg| {
                let path = Path::new(arg);
                let option_like = arg.to_string_lossy().starts_with('-');
                if !option_like && path.is_relative() && base.join(path).exists() {
                    base.join(path).into_os_string()
                } else {
                    arg.clone()
                }
            })
            .collect();
        CommandLine { program, args }
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
    /// CPU time (user + system) of the command and the children it waited for.
    pub cpu: Duration,
}

/// Limits for one run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunLimits {
    /// Wall-clock limit; `None` = unlimited.
    pub timeout: Option<Duration>,
    /// Address-space limit in megabytes (RLIMIT_AS); `None` = unlimited.
    pub memout_mb: Option<u64>,
    /// CPU-time limit per process (RLIMIT_CPU, whole seconds, rounded up); `None` = unlimited.
    /// Unlike the wall clock it does not depend on how loaded the machine is, so verdicts
    /// under it do not change with `-j`.
    pub cpu: Option<Duration>,
}

/// Run `cmd input` with stdout/stderr captured through files in `workdir` (which must be
/// private to this run) and the working directory `workdir/work`, so that commands that write
/// files (proofs, logs, `-o out`) do not collide under `-j` and never write into the caller's
/// directory. Relative paths in `cmd` must have been resolved ([`CommandLine::resolved_against`]).
/// An error means the command could not be started.
pub fn run_on_file(
    cmd: &CommandLine,
    input: &Path,
    workdir: &Path,
    limits: &RunLimits,
    stop: &StopFlag,
) -> io::Result<RunOutcome> {
    let out_path = workdir.join("stdout");
    let err_path = workdir.join("stderr");
    let cwd = workdir.join("work");
    std::fs::DirBuilder::new().mode(0o700).create(&cwd)?;
    let mut command = Command::new(&cmd.program);
    command
        .current_dir(&cwd)
        .args(&cmd.args)
        .arg(input)
        .stdin(Stdio::null())
        .stdout(private_file(&out_path)?)
        .stderr(private_file(&err_path)?);
    let memory = limits.memout_mb.map(|mb| mb.saturating_mul(1024 * 1024));
    let cpu_seconds = limits
        .cpu
        .map(|d| d.as_secs() + u64::from(d.subsec_nanos() > 0));
    let parent = Pid::this();
    // SAFETY: only async-signal-safe calls (setsid, prctl, getppid, setrlimit) between fork
    // and exec.
    unsafe {
        command.pre_exec(move || {
            // Its own session (and process group): the whole session is killed on timeout,
            // including helpers such as coreutils `timeout` that move to a group of their own.
            nix::unistd::setsid()?;
            // Die with the thread that started us, even when ddsmt is SIGKILLed; the check
            // after prctl closes the race with a parent that died just before it.
            nix::sys::prctl::set_pdeathsig(Signal::SIGKILL)?;
            if nix::unistd::getppid() != parent {
                // SAFETY: ends the forked child at once (nix has no wrapper for _exit).
                libc::_exit(137);
            }
            if let Some(bytes) = memory {
                setrlimit(Resource::RLIMIT_AS, bytes, bytes)?;
            }
            if let Some(seconds) = cpu_seconds {
                // SIGXCPU at the soft limit, SIGKILL one second later for a process that
                // ignores it.
                setrlimit(Resource::RLIMIT_CPU, seconds.max(1), seconds.max(1) + 1)?;
            }
            Ok(())
        });
    }
    let start = Instant::now();
    let mut child = command.spawn()?;
    let (mut exit, cpu) = wait_with_limits(&mut child, start, limits.timeout, stop)?;
    let duration = start.elapsed();
    if let (Exit::Signal(sig), Some(limit)) = (exit, limits.cpu) {
        // Killed at the CPU limit (SIGXCPU, or SIGKILL at the hard limit): a timeout.
        if sig == Signal::SIGXCPU as i32 || (sig == Signal::SIGKILL as i32 && cpu >= limit) {
            exit = Exit::Timeout;
        }
    }
    Ok(RunOutcome {
        exit,
        cpu,
        stdout: std::fs::read(&out_path)?,
        stderr: std::fs::read(&err_path)?,
        duration,
    })
}

/// A new file only the user can read (the command's output may quote the input).
fn private_file(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)
}

/// Poll the child with a short, growing sleep (fast runs are noticed within a fraction of
/// their run time); kill its session on timeout or stop. Reaps the child with `wait4` to learn
/// its CPU time.
fn wait_with_limits(
    child: &mut Child,
    start: Instant,
    timeout: Option<Duration>,
    stop: &StopFlag,
) -> io::Result<(Exit, Duration)> {
    let mut nap = Duration::from_micros(200);
    loop {
        if let Some((status, cpu)) = reap(child, false)? {
            // Whatever the command left running in its session (a backgrounded solver) goes
            // too: nothing a check started outlives it.
            for pid in session_members(child.id() as i32) {
                let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
            }
            return Ok((exit_of(status), cpu));
        }
        let timed_out = timeout.is_some_and(|t| start.elapsed() >= t);
        if timed_out || stop.is_set() {
            kill_group(child);
            let cpu = reap(child, true)?.map_or(Duration::ZERO, |(_, cpu)| cpu);
            return Ok((
                if timed_out {
                    Exit::Timeout
                } else {
                    Exit::Interrupted
                },
                cpu,
            ));
        }
        std::thread::sleep(nap);
        // At most 1 ms late: a solver check often takes only a few tens of milliseconds.
        nap = (nap * 2).min(Duration::from_millis(1));
    }
}

/// `wait4` on the child (blocking or not): its status and CPU time once it has ended (libc:
/// nix has no `wait4`, the one call that gives one child's CPU time).
fn reap(child: &Child, block: bool) -> io::Result<Option<(ExitStatus, Duration)>> {
    let mut status: libc::c_int = 0;
    // SAFETY: rusage is plain data that wait4 fills in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let flags = if block { 0 } else { libc::WNOHANG };
    loop {
        // SAFETY: waits for our own child; the pointers are valid for the call.
        let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, flags, &mut usage) };
        if pid < 0 {
            let err = io::Error::last_os_error();
            if err.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(err);
        }
        if pid == 0 {
            return Ok(None);
        }
        let time = |t: libc::timeval| {
            Duration::from_secs(t.tv_sec.max(0) as u64)
                + Duration::from_micros(t.tv_usec.max(0) as u64)
        };
        let cpu = time(usage.ru_utime) + time(usage.ru_stime);
        return Ok(Some((ExitStatus::from_raw(status), cpu)));
    }
}

/// SIGKILL the child's whole session: its process group (its pid is the group and session id,
/// from `setsid`) and every process in the session that moved to another group. Called before
/// the child is reaped, so the ids cannot have been reused.
fn kill_group(child: &Child) {
    let sid = child.id() as i32;
    // Failures (already gone) are harmless.
    let _ = killpg(Pid::from_raw(sid), Signal::SIGKILL);
    for pid in session_members(sid) {
        let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
    }
}

/// The processes whose session id is `sid`, read from `/proc/PID/stat` (field 6; the command
/// name in field 2 may contain spaces and parentheses, so fields are counted after its last ')').
fn session_members(sid: i32) -> Vec<i32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|&pid| {
            std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .ok()
                .and_then(|stat| {
                    let rest = &stat[stat.rfind(')')? + 1..];
                    rest.split_whitespace().nth(3)?.parse::<i32>().ok()
                })
                == Some(sid)
        })
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    fn gone(pid: libc::pid_t) -> bool {
        // A killed process whose parent is gone is reaped by init; until then it is a zombie.
        for _ in 0..500 {
            match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
                Err(_) => return true,
                Ok(stat)
                    if stat[stat.rfind(')').unwrap() + 1..]
                        .trim_start()
                        .starts_with('Z') =>
                {
                    return true
                }
                Ok(_) => std::thread::sleep(Duration::from_millis(20)),
            }
        }
        false
    }

    /// Runs the shell `script` on a file `input.smt2` (its `$0`) with `limits`; the script
    /// writes the pid of a process it starts to `$0.pid`. Returns how the run ended and
    /// that pid.
    fn run_leaving_a_process(script: &str, limits: &RunLimits) -> (Exit, libc::pid_t) {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("input.smt2");
        std::fs::write(&input, "x").unwrap();
        let cmd = CommandLine::from_argv(["sh", "-c", script]).unwrap();
        let outcome = run_on_file(&cmd, &input, dir.path(), limits, &StopFlag::new()).unwrap();
        let pid = std::fs::read_to_string(dir.path().join("input.smt2.pid"))
            .expect("the script started its process")
            .trim()
            .parse()
            .unwrap();
        (outcome.exit, pid)
    }

    /// A command that starts its solver under coreutils `timeout` (which makes a process group
    /// of its own) is still killed whole on timeout.
    #[test]
    fn a_timeout_kills_processes_that_left_the_process_group() {
        if Command::new("timeout").arg("--version").output().is_err() {
            return;
        }
        let limits = RunLimits {
            timeout: Some(Duration::from_millis(500)),
            memout_mb: None,
            cpu: None,
        };
        let (exit, pid) = run_leaving_a_process(
            "timeout 60 sh -c 'echo $$ > \"$0.pid\"; exec sleep 30' \"$0\"; sleep 30",
            &limits,
        );
        assert_eq!(exit, Exit::Timeout);
        assert!(gone(pid), "process {pid} outlived the timeout");
    }

    /// A command that spins past its CPU limit is a timeout, whatever the wall clock says.
    #[test]
    fn the_cpu_limit_ends_a_spinning_command_as_a_timeout() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("input.smt2");
        std::fs::write(&input, "x").unwrap();
        let cmd = CommandLine::from_argv(["sh", "-c", "while :; do :; done"]).unwrap();
        let limits = RunLimits {
            timeout: Some(Duration::from_secs(600)),
            memout_mb: None,
            cpu: Some(Duration::from_secs(1)),
        };
        let outcome = run_on_file(&cmd, &input, dir.path(), &limits, &StopFlag::new()).unwrap();
        assert_eq!(outcome.exit, Exit::Timeout);
        assert!(
            outcome.cpu >= Duration::from_millis(900),
            "{:?}",
            outcome.cpu
        );
    }

    /// A background process that the command leaves behind is killed when the command ends.
    #[test]
    fn nothing_outlives_a_finished_check() {
        let (exit, pid) = run_leaving_a_process(
            "sleep 30 > /dev/null 2>&1 & echo $! > \"$0.pid\"",
            &RunLimits::default(),
        );
        assert_eq!(exit, Exit::Code(0));
        assert!(gone(pid), "background process {pid} outlived the check");
    }

    /// Relative programs and arguments that name existing paths become absolute; options,
    /// absolute paths, programs found on PATH and words naming nothing stay.
    #[test]
    fn relative_paths_are_resolved_against_the_start_directory() {
        let base = tempfile::tempdir().unwrap();
        std::fs::write(base.path().join("check.py"), "").unwrap();
        std::fs::create_dir(base.path().join("data")).unwrap();
        let cmd = CommandLine::from_argv([
            "./run.sh", "check.py", "data", "-T:5", "--lang", "smt2", "/abs/x",
        ])
        .unwrap();
        let resolved = cmd.resolved_against(base.path());
        let b = |p: &str| base.path().join(p).into_os_string();
        assert_eq!(resolved.program, b("./run.sh"));
        assert_eq!(
            resolved.args,
            [
                b("check.py"),
                b("data"),
                "-T:5".into(),
                "--lang".into(),
                "smt2".into(),
                "/abs/x".into()
            ]
        );
        let on_path = CommandLine::from_argv(["z3", "-in"]).unwrap();
        assert_eq!(on_path.resolved_against(base.path()), on_path);
    }
}
