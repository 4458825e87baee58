//! `mbt --minimize`: every unique failure that a replay with `untrace` reproduces is handed to
//! `ddtrace::minimize`, and the minimized trace is stored beside the original as
//! `min.trace` with the `untrace` command that reproduces it ([`minimize_failure`]).
//!
//! Runs after the campaign's rounds, so that the reduction (which starts replay processes of
//! its own) neither delays the rounds' time limits nor runs in the forking parent meanwhile.
//! Every kind of finding replays: crashes and Z3 errors as before, oracle findings because
//! their checks are trace lines that the replay runs again, timeouts and memory exhaustion
//! under untrace's `--timeout` and `--memout` (the round's limits). ddtrace keeps the
//! replay's exit code and its signature line, so kind and signature survive the reduction.
//! The finding's signature after minimization ([`Outcome::Done`]) adds, for the oracles that
//! compare answers, the operations left in the minimized trace: findings of one root cause
//! reduce to the same few operations.

use crate::failure::FailureKind;
use crate::isolate::{self, Limits};
use model::{Call, Entry};
use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The name of a minimized trace beside the original.
pub const MINIMIZED: &str = "min.trace";

/// The failure kinds a replay can reproduce: all but the fuzzer's own bugs (a call the
/// reference state rejects).
pub fn replay_shows(kind: FailureKind) -> bool {
    kind != FailureKind::Internal
}

/// The replay command, program and arguments before the trace: the `untrace` binary beside
/// the running `mbt` (`untrace --no-check`), else `mbt replay --no-check` (the same replay
/// library and exit codes, for a build without the `untrace` binary); with `--z3-lib PATH`
/// when mbt runs on a library given so, so that replays run on the same Z3.
pub fn replayer() -> (PathBuf, Vec<OsString>) {
    let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("mbt"));
    let untrace = exe.with_file_name("untrace");
    let (program, mut args): (PathBuf, Vec<OsString>) = if untrace.is_file() {
        (untrace, vec!["--no-check".into()])
    } else {
        (exe, vec!["replay".into(), "--no-check".into()])
    };
    args.extend(z3lib::child_args());
    (program, args)
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

/// How a single replay ended: its exit code (`None` for a signal) and the signature it
/// printed.
pub type Replayed = (Option<i32>, Option<String>);

/// Replays `trace` once with `replayer` under a wall-clock limit, in a private temporary
/// folder (a trace may set parameters that make Z3 write files), with the engine's runner
/// (`reduce::command::run_on_file`: its own session, killed whole at the limit, dies with
/// us): `None` on a timeout. An error only when the replayer cannot run at all.
pub fn replay_once(
    (program, args): &(PathBuf, Vec<OsString>),
    trace: &Path,
    limit: Duration,
) -> std::io::Result<Option<Replayed>> {
    // The replay runs in the scratch folder: a relative path (`--known traces/regress`) must
    // still name the trace.
    let trace = std::path::absolute(trace)?;
    let scratch = tempfile::Builder::new().prefix("mbt-replay-").tempdir()?;
    let command = reduce::command::CommandLine {
        program: program.clone().into_os_string(),
        args: args.clone(),
    };
    let limits = reduce::command::RunLimits {
        timeout: Some(limit),
        ..Default::default()
    };
    let stop = reduce::StopFlag::new();
    let ran = reduce::command::run_on_file(&command, &trace, scratch.path(), &limits, &stop)?;
    let code = match ran.exit {
        reduce::command::Exit::Code(code) => Some(code),
        reduce::command::Exit::Signal(_) => None,
        reduce::command::Exit::Timeout | reduce::command::Exit::Interrupted => return Ok(None),
    };
    let signature = model::finding::signature_in(&String::from_utf8_lossy(&ran.stderr));
    Ok(Some((code, signature)))
}

/// The untrace options that reproduce a finding of `kind` under the round's `limits`.
pub fn limit_args(kind: FailureKind, limits: Limits) -> Vec<OsString> {
    let mut args = Vec::new();
    // A differential replay also limits the other side's replay with it.
    if kind == FailureKind::Timeout || kind.is_differential() {
        args.push("--timeout".into());
        args.push(format!("{}", limits.timeout.as_secs_f64()).into());
    }
    if limits.memout_mb > 0 {
        args.push("--memout".into());
        args.push(limits.memout_mb.to_string().into());
    }
    args
}

/// The wall-clock limit of one replay of a finding found under the round's `limits`: a
/// timeout finding needs its whole limit and then some.
pub fn replay_budget(limits: Limits) -> Duration {
    limits.timeout.mul_f64(2.0) + Duration::from_secs(20)
}

/// The signature of a finding after minimization: the minimized replay's signature, and for
/// the oracles that compare answers (whose cause names no operation) the operations and
/// solver calls left in the minimized trace, sorted.
pub fn refined_signature(signature: &str, entries: &[Entry]) -> String {
    let kind = signature.split('|').next().and_then(FailureKind::from_name);
    let names_an_operation = signature.contains("departs from");
    if !kind.is_some_and(FailureKind::is_oracle) || names_an_operation {
        return signature.to_string();
    }
    let left: BTreeSet<&str> = entries
        .iter()
        .map(|e| &e.call)
        .filter(|c| {
            !matches!(
                c,
                Call::Const { .. }
                    | Call::Lit { .. }
                    | Call::Release(_)
                    | Call::Delete(_)
                    | Call::Check(_)
            ) && !c.name().starts_with("sort_")
        })
        .map(Call::name)
        .collect();
    format!(
        "{signature} [{}]",
        left.into_iter().collect::<Vec<_>>().join(" ")
    )
}

fn lines(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'\n').count()
}

/// Minimizes the trace `dir/round.trace` of a failure of `kind` into `dir/min.trace`,
/// replaying under the round's `limits`, `jobs` replays at a time (the rounds are over by
/// then, and ddtrace's result does not depend on it).
///
/// TEST-ONLY: with `injected` (the campaign runs with `MBT_INJECT`, whose failure no replay
/// can show), every replay gets `UNTRACE_FAIL_ON` set to the trace's last call line, so that
/// a replay aborts where the round did, and the minimized trace is the smallest that reaches
/// that call.
pub fn minimize_failure(
    dir: &Path,
    kind: FailureKind,
    limits: Limits,
    extra_args: &[String],
    injected: bool,
    jobs: usize,
) -> Outcome {
    if !replay_shows(kind) {
        return Outcome::Skipped(format!(
            "a {} finding is a bug of mbt itself, not of Z3",
            kind.name()
        ));
    }
    let (program, mut args) = replayer();
    args.extend(limit_args(kind, limits));
    args.extend(extra_args.iter().map(OsString::from));
    let replay = (program, args);
    let trace = dir.join(isolate::TRACE);
    if injected {
        match isolate::last_call_line(&trace) {
            // The rounds are over: no child inherits this but the replays below.
            Some(line) => std::env::set_var("UNTRACE_FAIL_ON", line),
            None => return Outcome::Skipped("the injected round made no call".into()),
        }
    }
    let budget = replay_budget(limits);
    match replay_once(&replay, &trace, budget) {
        Err(e) => return Outcome::Skipped(format!("cannot run {}: {e}", replay.0.display())),
        Ok(None) => {
            return Outcome::Skipped(format!(
                "the replay runs past {:.0} s",
                budget.as_secs_f64()
            ))
        }
        Ok(Some((Some(0), _))) => {
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
    let (program, args) = replay.clone();
    let mut config = ddtrace::Config::new(program);
    config.untrace_args = args;
    config.memout_mb = (limits.memout_mb > 0).then_some(limits.memout_mb);
    config.jobs = jobs.max(1);
    let out = dir.join(MINIMIZED);
    match ddtrace::minimize(&config, entries, format, Some(&out), &Default::default()) {
        Ok(m) => {
            let after = std::fs::read(&out).map(|b| lines(&b)).unwrap_or(0);
            let replayed = replay_once(&replay, &out, budget).ok().flatten();
            let signature = replayed
                .and_then(|(_, sig)| sig)
                .map(|sig| refined_signature(&sig, &m.entries));
            Outcome::Done {
                path: out,
                signature,
                lines_before: lines(&bytes),
                lines_after: after,
                replays: m.replays,
            }
        }
        Err(e) => Outcome::Skipped(format!("ddtrace: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trace(text: &str) -> Vec<Entry> {
        model::trace::text::parse(&format!("z3-trace 1\n{text}"))
            .unwrap()
            .entries
    }

    #[test]
    fn answer_oracles_are_refined_by_the_calls_left() {
        let entries = trace(
            "new_solver tactic \"qffp\"\nreturn z1\nsort_bv 1\nreturn s1\nconst s1 \"v\"\nreturn t1\nbvslt t1 t1\nreturn t2\nassert z1 t2\ntranslate z1\nreturn z2\ncheck_shadow z1 z2\n",
        );
        assert_eq!(
            refined_signature("shadow|check_shadow: a unsat, b sat", &entries),
            "shadow|check_shadow: a unsat, b sat [assert bvslt new_solver translate]"
        );
        // A crash, or an evaluation check that names its operation, is precise already.
        for sig in [
            "crash|SIGSEGV at libz3.so.4+0x1",
            "model|check_model: model_eval of bvadd departs from the independent evaluator",
        ] {
            assert_eq!(refined_signature(sig, &entries), sig);
        }
    }

    #[test]
    fn limits_become_untrace_options() {
        let limits = Limits {
            timeout: Duration::from_secs(2),
            memout_mb: 512,
        };
        assert_eq!(
            limit_args(FailureKind::Timeout, limits),
            ["--timeout", "2", "--memout", "512"]
        );
        assert_eq!(limit_args(FailureKind::Shadow, limits), ["--memout", "512"]);
    }
}
