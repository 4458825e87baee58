//! `mbt --minimize`: every unique failure that a replay with `untrace` reproduces is handed to
//! `ddtrace::minimize`, and the minimized trace is stored beside the original as
//! `trace.min.trace` with the `untrace` command that reproduces it ([`minimize_failure`]).
//!
//! Runs after the campaign's rounds, so that the reduction (which starts replay processes of
//! its own) neither delays the rounds' time limits nor runs in the forking parent meanwhile.
//! Only failures a replay shows are minimized: crashes, stack overflows, Z3 errors, memory
//! exhaustion; a replay of an oracle finding (shadow, model, core, dump, config, eval)
//! succeeds, since the trace records the answers Z3 gave, and there is nothing to keep.

use crate::failure::FailureKind;
use crate::isolate;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// The name of a minimized trace beside the original.
pub const MINIMIZED: &str = "trace.min.trace";

/// The failure kinds a replay reproduces.
pub fn replay_shows(kind: FailureKind) -> bool {
    matches!(
        kind,
        FailureKind::Crash
            | FailureKind::StackOverflow
            | FailureKind::Z3Error
            | FailureKind::Memout
    )
}

/// The replay command, program and arguments before the trace: the `untrace` binary beside
/// the running `mbt` (`untrace --no-check`), else `mbt replay --no-check` (the same replay
/// library and exit codes, for a build without the `untrace` binary).
pub fn replayer() -> (PathBuf, Vec<OsString>) {
    let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("mbt"));
    let untrace = exe.with_file_name("untrace");
    if untrace.is_file() {
        (untrace, vec!["--no-check".into()])
    } else {
        (exe, vec!["replay".into(), "--no-check".into()])
    }
}

/// The reproduce command of a trace at `path` (relative to the output folder).
pub fn reproduce_command(path: &str) -> String {
    let (program, args) = replayer();
    let name = program
        .file_name()
        .map_or("untrace".into(), |n| n.to_string_lossy().into_owned());
    let args: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    format!("{name} {} {path}", args.join(" "))
}

/// What minimizing one failure gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Written to `path` (lines before, lines after, replays). `signature` is the finding's
    /// signature after minimization (by root cause: findings whose signatures agree here are
    /// one bug, even where the campaign's first signatures differed).
    Done {
        path: PathBuf,
        signature: Option<String>,
        lines_before: usize,
        lines_after: usize,
        replays: u64,
    },
    /// Not minimized, and why.
    Skipped(String),
}

/// Replays `trace` once with a wall-clock limit: `None` on a timeout.
fn replay_status(
    (program, args): &(PathBuf, Vec<OsString>),
    trace: &Path,
    limit: Duration,
) -> std::io::Result<Option<ExitStatus>> {
    let mut child = Command::new(program)
        .args(args)
        .arg(trace)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()?;
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Some(status));
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn lines(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'\n').count()
}

/// The last call line of a text trace: where a round injected with `MBT_INJECT` stopped.
pub fn last_call_line(trace: &Path) -> Option<String> {
    let text = std::fs::read_to_string(trace).ok()?;
    let lines: Vec<&str> = text.lines().skip(1).collect();
    lines
        .into_iter()
        .rfind(|l| !l.starts_with("return") && !l.trim().is_empty())
        .map(str::to_string)
}

/// Minimizes the trace `dir/round.trace` of a failure of `kind` into `dir/trace.min.trace`.
///
/// TEST-ONLY: with `injected` (the campaign runs with `MBT_INJECT`, whose failure no replay
/// can show), every replay gets `UNTRACE_FAIL_ON` set to the trace's last call line, so that
/// a replay aborts where the round did, and the minimized trace is the smallest that reaches
/// that call.
pub fn minimize_failure(dir: &Path, kind: FailureKind, memout_mb: u64, injected: bool) -> Outcome {
    if !replay_shows(kind) {
        return Outcome::Skipped(format!(
            "a replay does not show a {} finding (the trace records Z3's answers)",
            kind.name()
        ));
    }
    let replay = replayer();
    let trace = dir.join(isolate::TRACE);
    if injected {
        match last_call_line(&trace) {
            // The rounds are over: no child inherits this but the replays below.
            Some(line) => std::env::set_var("UNTRACE_FAIL_ON", line),
            None => return Outcome::Skipped("the injected round made no call".into()),
        }
    }
    match replay_status(&replay, &trace, Duration::from_secs(20)) {
        Err(e) => return Outcome::Skipped(format!("cannot run {}: {e}", replay.0.display())),
        Ok(None) => return Outcome::Skipped("the replay runs past 20 s".into()),
        Ok(Some(status)) if status.success() => {
            return Outcome::Skipped("the replay does not reproduce the failure".into())
        }
        Ok(Some(_)) => {}
    }
    let bytes = match std::fs::read(&trace) {
        Ok(b) => b,
        Err(e) => return Outcome::Skipped(format!("cannot read {}: {e}", trace.display())),
    };
    let (entries, format) = match ddtrace::trace_io::read(&bytes) {
        Ok(read) => read,
        Err(e) => return Outcome::Skipped(format!("the trace does not parse: {e}")),
    };
    let (program, args) = replay;
    let mut config = ddtrace::Config::new(program);
    config.untrace_args = args;
    config.memout_mb = (memout_mb > 0).then_some(memout_mb);
    let out = dir.join(MINIMIZED);
    match ddtrace::minimize(&config, entries, format, Some(&out), &Default::default()) {
        Ok(m) => {
            let after = std::fs::read(&out).map(|b| lines(&b)).unwrap_or(0);
            Outcome::Done {
                path: out,
                signature: None,
                lines_before: lines(&bytes),
                lines_after: after,
                replays: m.replays,
            }
        }
        Err(e) => Outcome::Skipped(format!("ddtrace: {e}")),
    }
}
