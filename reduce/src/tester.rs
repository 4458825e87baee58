//! [`Tester`]: "does this candidate keep the behaviour?". [`CommandTester`] answers it the way
//! ddSMT does: write the candidate to `input<suffix>` in a private temporary directory, run the
//! command on it, compare with the golden run ([`matches_golden`]); with a cross-check
//! command, that one must match its own golden run too.
//!
//! [`Property`] is one command with its golden run, matching rules and per-check timeout;
//! [`PropertySpec`] is what the user asked for, turned into a [`Property`] by its golden run.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use super::command::{run_on_file, CommandLine, Exit, RunLimits, RunOutcome};
use super::error::EngineError;
use super::matching::{matches_golden, Matching};
use super::signals::StopFlag;

/// The answer for one candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Behaves as the original: the candidate may be accepted.
    Keeps,
    /// Behaves differently (or could not be run).
    Differs,
    /// A stop was requested while checking; nothing is known.
    Interrupted,
}

/// Decides whether a candidate keeps the behaviour. Called from several threads at once.
pub trait Tester: Sync {
    fn test(&self, candidate: &[u8]) -> Verdict;
}

/// Any `Fn(&[u8]) -> bool` is a tester (handy for unit tests and in-process properties).
impl<F: Fn(&[u8]) -> bool + Sync> Tester for F {
    fn test(&self, candidate: &[u8]) -> Verdict {
        if self(candidate) {
            Verdict::Keeps
        } else {
            Verdict::Differs
        }
    }
}

/// What the user asked for one command (the main one or the cross-check).
#[derive(Clone, Debug)]
pub struct PropertySpec {
    pub command: CommandLine,
    pub matching: Matching,
    /// Per-check wall-clock timeout. When set, the golden run is limited by it too. `None`:
    /// checks are limited by CPU time, [`CPU_FACTOR`] x the golden run's, at least
    /// [`MIN_CPU_LIMIT`], with a generous wall-clock safety net ([`default_limits`]).
    pub timeout: Option<Duration>,
}

/// Lower bound of the default per-check CPU limit (RLIMIT_CPU counts whole seconds).
pub const MIN_CPU_LIMIT: Duration = Duration::from_secs(1);
/// Default CPU limit of a check as a multiple of the golden run's CPU time.
pub const CPU_FACTOR: u32 = 10;
/// Lower bound of the default wall-clock safety net.
pub const MIN_WALL_NET: Duration = Duration::from_secs(10);

/// The default limits of a check after a golden run `golden`: (CPU limit, wall-clock net).
/// CPU time hardly changes with machine load, so verdicts (and the output) do not depend on
/// `-j`; the wall-clock net only catches commands that sleep or wait, and is far enough away
/// that load alone does not reach it.
pub fn default_limits(golden: &RunOutcome) -> (Duration, Duration) {
    let cpu = (golden.cpu * CPU_FACTOR).max(MIN_CPU_LIMIT);
    let wall = (golden.duration * CPU_FACTOR)
        .max(cpu * 4)
        .max(MIN_WALL_NET);
    (cpu, wall)
}

/// A command together with its golden run.
#[derive(Clone, Debug)]
pub struct Property {
    pub command: CommandLine,
    pub matching: Matching,
    pub golden: RunOutcome,
    /// Wall-clock limit of a check.
    pub timeout: Duration,
    /// CPU-time limit of a check (`None` with an explicit `--timeout`).
    pub cpu_limit: Option<Duration>,
}

/// Tests candidates by running one or two commands.
#[derive(Debug)]
pub struct CommandTester {
    pub primary: Property,
    pub cross_check: Option<Property>,
    suffix: String,
    memout_mb: Option<u64>,
    stop: StopFlag,
    /// Checks killed at their time limit (CPU or wall clock), for the figures.
    timeouts: AtomicU64,
}

impl CommandTester {
    /// Do the golden run(s) on `original` and build the tester. Errors: the command cannot be
    /// started ([`EngineError::Command`]), temp files fail ([`EngineError::Io`]), or a stop
    /// was requested ([`EngineError::Interrupted`]).
    pub fn new(
        primary: PropertySpec,
        cross_check: Option<PropertySpec>,
        original: &[u8],
        suffix: &str,
        memout_mb: Option<u64>,
        stop: StopFlag,
    ) -> Result<CommandTester, EngineError> {
        remove_stale_check_dirs();
        // Checks run in private working directories: relative paths in the commands must
        // keep naming what they named where the user started us.
        let base = std::env::current_dir()
            .map_err(|e| EngineError::Io(format!("cannot read the working directory: {e}")))?;
        let golden = |mut spec: PropertySpec| -> Result<Property, EngineError> {
            spec.command = spec.command.resolved_against(&base);
            let limits = RunLimits {
                timeout: spec.timeout,
                memout_mb,
                cpu: None,
            };
            let out = run_candidate(&spec.command, original, suffix, &limits, &stop)?;
            if out.exit == Exit::Interrupted {
                return Err(EngineError::Interrupted(stop.signal().unwrap_or(2)));
            }
            let (timeout, cpu_limit) = match spec.timeout {
                Some(t) => (t, None),
                None => {
                    let (cpu, wall) = default_limits(&out);
                    (wall, Some(cpu))
                }
            };
            Ok(Property {
                command: spec.command,
                matching: spec.matching,
                golden: out,
                timeout,
                cpu_limit,
            })
        };
        let primary = golden(primary)?;
        let cross_check = cross_check.map(golden).transpose()?;
        Ok(CommandTester {
            primary,
            cross_check,
            suffix: suffix.to_string(),
            memout_mb,
            stop,
            timeouts: AtomicU64::new(0),
        })
    }

    /// Checks so far that ran past their time limit (each counts as behaving differently).
    pub fn timeouts(&self) -> u64 {
        self.timeouts.load(Ordering::Relaxed)
    }

    fn check(&self, prop: &Property, candidate: &[u8]) -> Verdict {
        let limits = RunLimits {
            timeout: Some(prop.timeout),
            memout_mb: self.memout_mb,
            cpu: prop.cpu_limit,
        };
        let outcome = run_candidate(&prop.command, candidate, &self.suffix, &limits, &self.stop);
        if outcome.as_ref().is_ok_and(|out| out.exit == Exit::Timeout) {
            self.timeouts.fetch_add(1, Ordering::Relaxed);
        }
        match outcome {
            Ok(out) if out.exit == Exit::Interrupted => Verdict::Interrupted,
            Ok(out) if matches_golden(&prop.golden, &out, &prop.matching) => Verdict::Keeps,
            Ok(_) => Verdict::Differs,
            // The command started for the golden run; a later failure to start it (e.g. no
            // more processes) says nothing good about the candidate.
            Err(_) => Verdict::Differs,
        }
    }
}

impl Tester for CommandTester {
    fn test(&self, candidate: &[u8]) -> Verdict {
        match self.check(&self.primary, candidate) {
            Verdict::Keeps => match &self.cross_check {
                Some(cc) => self.check(cc, candidate),
                None => Verdict::Keeps,
            },
            other => other,
        }
    }
}

/// Check directories are `ddsmt-check-PID-XXXXXX` in the temporary directory, so that those
/// of a killed run (whose process is gone) can be told from those of a running one.
const CHECK_DIR_PREFIX: &str = "ddsmt-check-";

/// Remove check directories left behind by runs that were killed (SIGKILL leaves no chance to
/// clean up): those whose PID names no running process. Errors are ignored: another run may be
/// removing the same directory.
pub fn remove_stale_check_dirs() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(CHECK_DIR_PREFIX)) else {
            continue;
        };
        let Some(pid) = rest.split('-').next().and_then(|p| p.parse::<i32>().ok()) else {
            continue;
        };
        // No signal: only asks whether the process exists.
        let gone = nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), None)
            == Err(nix::errno::Errno::ESRCH);
        if gone && pid != std::process::id() as i32 {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Write `content` to `input<suffix>` in a fresh private directory and run `cmd` on it.
fn run_candidate(
    cmd: &CommandLine,
    content: &[u8],
    suffix: &str,
    limits: &RunLimits,
    stop: &StopFlag,
) -> Result<RunOutcome, EngineError> {
    use std::io::Write;
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    // Private to the user: candidates may hold what the input held.
    let dir = tempfile::Builder::new()
        .prefix(&format!("{CHECK_DIR_PREFIX}{}-", std::process::id()))
        .permissions(std::fs::Permissions::from_mode(0o700))
        .tempdir()
        .map_err(|e| EngineError::Io(format!("cannot create a temporary directory: {e}")))?;
    let input = dir.path().join(format!("input{suffix}"));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&input)
        .and_then(|mut f| f.write_all(content))
        .map_err(|e| EngineError::Io(format!("{}: cannot write: {e}", input.display())))?;
    run_on_file(cmd, &input, dir.path(), limits, stop).map_err(|e| {
        EngineError::Command(format!(
            "cannot run command '{}': {e}",
            cmd.program.to_string_lossy()
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The check's directory is 0700 and the candidate and captured output files are 0600.
    #[test]
    fn check_files_are_private() {
        let cmd = CommandLine::from_argv([
            "sh",
            "-c",
            "stat -c %a \"$(dirname \"$0\")\" \"$0\" \"$(dirname \"$0\")/stdout\"",
        ])
        .unwrap();
        let out = run_candidate(
            &cmd,
            b"(check-sat)",
            ".smt2",
            &RunLimits::default(),
            &StopFlag::new(),
        )
        .unwrap();
        assert_eq!(String::from_utf8_lossy(&out.stdout), "700\n600\n600\n");
    }

    /// A check directory of a process that no longer exists is removed; one of a running
    /// process is kept.
    #[test]
    fn stale_check_directories_are_removed() {
        // A PID above the kernel's maximum (4194304) never names a process.
        let stale = std::env::temp_dir().join(format!("{CHECK_DIR_PREFIX}4999999-test"));
        let live =
            std::env::temp_dir().join(format!("{CHECK_DIR_PREFIX}1-test-{}", std::process::id()));
        std::fs::create_dir_all(&stale).unwrap();
        std::fs::create_dir_all(&live).unwrap();
        remove_stale_check_dirs();
        let (stale_left, live_left) = (stale.exists(), live.exists());
        let _ = std::fs::remove_dir_all(&live);
        assert!(!stale_left && live_left);
    }
}
