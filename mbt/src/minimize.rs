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
//! Every replay mbt judges itself ([`replay_once`]) hands its outcome over as data (untrace's
//! `--report`: exit code, failure, typed signature). The finding's signature after
//! minimization ([`Outcome::Done`]) is refined by the calls left in the minimized trace
//! ([`model::finding::Signature::refined`]): findings of one root cause reduce to the same
//! few operations.

use crate::failure::FailureKind;
use crate::isolate::{self, Limits};
use model::finding::Signature;
use model::Entry;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;
use untrace::replay::ReplayReport;

/// The name of a minimized trace beside the original.
pub const MINIMIZED: &str = "min.trace";

/// The failure kinds a replay can reproduce: all but the fuzzer's own bugs (a call the
/// reference state rejects).
pub fn replay_shows(kind: FailureKind) -> bool {
    kind != FailureKind::Internal
}

/// Whether a replay compares the answers a trace records (check results, cores, values,
/// error messages) with the ones Z3 gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answers {
    /// Compared, as a plain `untrace TRACE` does: a trace that replays to its failure so
    /// records only answers this Z3 gives.
    Compared,
    /// Not compared (`--no-check`): a round's trace may record answers that depended on
    /// timing, and a known or triaged case may come from another Z3.
    Ignored,
}

/// The replay command, program and arguments before the trace: this build's own replayer
/// (`mbt replay`, [`untrace::cli::replayer`]: untrace's command line and executor, linked
/// into mbt, so it exists whatever was built and takes every untrace option), with
/// `--z3-lib PATH` when mbt runs on a library given so, so that replays run on the same Z3.
pub fn replayer(answers: Answers) -> (PathBuf, Vec<OsString>) {
    replayer_on(z3lib::child_args(), answers)
}

/// [`replayer`] with `z3_lib_args` (`--z3-lib PATH`, or none for the linked libz3) choosing
/// the Z3 the replay runs on.
pub fn replayer_on(z3_lib_args: Vec<OsString>, answers: Answers) -> (PathBuf, Vec<OsString>) {
    let replayer = untrace::cli::replayer();
    let mut args = replayer.prefix;
    if answers == Answers::Ignored {
        args.push("--no-check".into());
    }
    args.extend(z3_lib_args);
    (replayer.program, args)
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
        /// Replays made (unknown when the reduction was stopped).
        replays: Option<u64>,
        /// The time budget ran out: the best trace found so far.
        stopped: bool,
        /// How the minimized trace replays to its failure: [`Answers::Compared`] unless the
        /// round's own trace did not.
        answers: Answers,
    },
    /// Not minimized, and why.
    Skipped(String),
}

/// How a single replay ended, as evidence: only a replay that ran to a finding's exit code
/// (4-9) and reported its failure (`--report`) shows a failure, only exit 0 shows none. A
/// replay that could not run (exit 2 or 3: usage error, unreadable or malformed trace; the
/// replayer killed, or ending without a report of its finding) and one past its time limit
/// show nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Replayed {
    /// Exit 0: replayed, no failure.
    Passes,
    /// A finding's exit code, with the signature the replay reported.
    Fails(Signature),
    /// The replay could not run, and why: no evidence either way.
    CouldNotReplay(String),
    /// Past the wall-clock limit: no evidence either way.
    RanPast(Duration),
}

impl Replayed {
    /// Classifies a replay that ended with `exit`, wrote `report` (its `--report` file, if
    /// it wrote one) and printed `stderr` (only to say why a replay could not run).
    pub fn of(
        exit: &reduce::command::Exit,
        report: Option<&ReplayReport>,
        stderr: &[u8],
        limit: Duration,
    ) -> Replayed {
        use reduce::command::Exit as Ended;
        use untrace::replay::Exit as Code;
        let text = String::from_utf8_lossy(stderr);
        let last_line = || {
            text.lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("nothing on stderr")
                .trim()
                .to_string()
        };
        match *exit {
            Ended::Timeout | Ended::Interrupted => Replayed::RanPast(limit),
            Ended::Signal(signal) => {
                Replayed::CouldNotReplay(format!("the replayer was killed by signal {signal}"))
            }
            Ended::Code(code) => match Code::from_code(code) {
                Some(Code::Ok) => Replayed::Passes,
                Some(
                    Code::Z3
                    | Code::Oracle
                    | Code::Crash
                    | Code::Timeout
                    | Code::Memout
                    | Code::Differ,
                ) => match report
                    .filter(|r| r.exit == code)
                    .and_then(|r| r.signature.clone())
                {
                    Some(signature) => Replayed::Fails(signature),
                    None => Replayed::CouldNotReplay(format!(
                        "the replay exited {code} without a report of its finding: {}",
                        last_line()
                    )),
                },
                Some(Code::Mismatch | Code::Usage | Code::Malformed) | None => {
                    Replayed::CouldNotReplay(format!("exit {code}: {}", last_line()))
                }
            },
        }
    }

    /// How this replay ended, in words.
    pub fn describe(&self) -> String {
        match self {
            Replayed::Passes => "it passes".into(),
            Replayed::Fails(signature) => format!("it fails with `{signature}`"),
            Replayed::CouldNotReplay(why) => format!("it could not be replayed: {why}"),
            Replayed::RanPast(limit) => format!("it ran past {:.0} s", limit.as_secs_f64()),
        }
    }

    /// Whether this replay shows the failure of one of `signatures` (as it is, or refined by
    /// the operations left in `entries`, as a minimized finding's signature is).
    pub fn shows(&self, signatures: &[String], entries: &[Entry]) -> bool {
        let Replayed::Fails(signature) = self else {
            return false;
        };
        let (plain, refined) = (
            signature.to_string(),
            signature.refined(entries).to_string(),
        );
        signatures.iter().any(|s| *s == plain || *s == refined)
    }
}

/// Replays `trace` once with `replayer` under a wall-clock limit, in a private temporary
/// folder (a trace may set parameters that make Z3 write files), with the engine's runner
/// (`reduce::command::run_on_file`: its own session, killed whole at the limit, dies with
/// us). The replay reports its outcome into the scratch folder (`--report`), which is how its
/// finding is known. An error only when the replayer cannot be started at all.
pub fn replay_once(
    (program, args): &(PathBuf, Vec<OsString>),
    trace: &Path,
    limit: Duration,
) -> std::io::Result<Replayed> {
    // The replay runs in the scratch folder: a relative path (`--known traces/regress`) must
    // still name the trace.
    let trace = std::path::absolute(trace)?;
    let scratch = tempfile::Builder::new().prefix("mbt-replay-").tempdir()?;
    let report = scratch.path().join("report.json");
    let mut args = args.clone();
    args.extend([OsString::from("--report"), report.clone().into_os_string()]);
    let command = reduce::command::CommandLine {
        program: program.clone().into_os_string(),
        args,
    };
    let limits = reduce::command::RunLimits {
        timeout: Some(limit),
        ..Default::default()
    };
    let stop = reduce::StopFlag::new();
    let ran = reduce::command::run_on_file(&command, &trace, scratch.path(), &limits, &stop)?;
    let reported = ReplayReport::read(&report);
    Ok(Replayed::of(
        &ran.exit,
        reported.as_ref(),
        &ran.stderr,
        limit,
    ))
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

/// The limits a saved trace of a finding of `kind` declares (`; timeout:`, `; memout:`), so
/// that a plain `untrace TRACE` replays it to its failure: a timeout (or differential)
/// finding its round's time limit, a memout finding its memory limit. Other traces stay as
/// the round wrote them.
pub fn declared_limits(kind: FailureKind, limits: Limits) -> model::trace::text::DeclaredLimits {
    model::trace::text::DeclaredLimits {
        timeout: (kind == FailureKind::Timeout || kind.is_differential())
            .then_some(limits.timeout.as_secs_f64()),
        memout_mb: (kind == FailureKind::Memout && limits.memout_mb > 0)
            .then_some(limits.memout_mb),
    }
}

/// Writes the text trace `trace` again with `kind`'s declared limits in front (temporary file
/// and rename); a binary trace stays as it is.
pub fn declare_limits_in(trace: &Path, kind: FailureKind, limits: Limits) -> std::io::Result<()> {
    let bytes = std::fs::read(trace)?;
    let Ok(text) = String::from_utf8(bytes) else {
        return Ok(());
    };
    let declared = declared_limits(kind, limits);
    let already = model::trace::text::declared_limits(text.as_bytes());
    if text.as_bytes().starts_with(model::trace::binary::MAGIC)
        || declared == Default::default()
        || already == declared
    {
        return Ok(());
    }
    let declared = model::trace::text::declare_limits(&text, declared);
    let dir = trace.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    std::io::Write::write_all(&mut tmp, declared.as_bytes())?;
    tmp.persist(trace).map_err(|e| e.error)?;
    Ok(())
}

/// The wall-clock limit of one replay of a finding found under the round's `limits`: a
/// timeout finding needs its whole limit and then some.
pub fn replay_budget(limits: Limits) -> Duration {
    limits.timeout.mul_f64(2.0) + Duration::from_secs(20)
}

fn lines(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'\n').count()
}

/// Minimizes the trace `dir/round.trace` of a failure of `kind` with signature `signature`
/// into `dir/min.trace`, replaying under the round's `limits`, `jobs` replays at a time (the
/// rounds are over by then, and ddtrace's result does not depend on it), for at most
/// `budget` (the best trace so far is kept when it runs out).
///
/// Evidence first: the round's trace must replay to the finding's signature, or nothing is
/// minimized; the minimized trace is kept only when it has calls and replays to the same
/// signature, else it is removed and the round's trace stays the reproducer.
///
/// Recorded answers are compared in every replay when the round's trace replays to its
/// failure so (the rule): a removal that changes a later check's answer is then refused
/// unless the answer goes too, so the minimized trace never records an answer its own calls
/// no longer give, and a plain `untrace min.trace` (and the reproducers written from it)
/// reaches the failure. Minimized without comparing, a trace kept a stale `unsat` whose
/// replay stopped there as a mismatch. A round whose answers do not replay (they depended on
/// timing) is minimized with `--no-check`, as its replay command says.
///
/// TEST-ONLY: with `injected` (the campaign runs with `MBT_INJECT`, whose failure no replay
/// can show), every replay gets `UNTRACE_FAIL_ON` set to the trace's last call line, so that
/// a replay aborts where the round did, and the minimized trace is the smallest that reaches
/// that call.
#[allow(clippy::too_many_arguments)]
pub fn minimize_failure(
    dir: &Path,
    kind: FailureKind,
    signature: &str,
    limits: Limits,
    extra_args: &[String],
    injected: bool,
    jobs: usize,
    budget: Duration,
) -> Outcome {
    if !replay_shows(kind) {
        return Outcome::Skipped(format!(
            "a {} finding is a bug of mbt itself, not of Z3",
            kind.name()
        ));
    }
    let replay_with = |answers| {
        let (program, mut args) = replayer(answers);
        args.extend(limit_args(kind, limits));
        args.extend(extra_args.iter().map(OsString::from));
        (program, args)
    };
    let trace = dir.join(isolate::TRACE);
    if injected {
        match isolate::last_call_line(&trace) {
            // The rounds are over: no child inherits this but the replays below.
            Some(line) => std::env::set_var("UNTRACE_FAIL_ON", line),
            None => return Outcome::Skipped("the injected round made no call".into()),
        }
    }
    let bytes = match std::fs::read(&trace) {
        Ok(b) => b,
        Err(e) => return Outcome::Skipped(format!("cannot read {}: {e}", trace.display())),
    };
    let (entries, format) = match ddtrace::trace_io::read(&bytes) {
        Ok(read) => read,
        Err(e) => return Outcome::Skipped(format!("the trace does not parse: {e}")),
    };
    let replay_limit = replay_budget(limits);
    let shows_the_round = |replayed: &Replayed| replayed.shows(&[signature.to_string()], &entries);
    let mut answers = Answers::Compared;
    let mut replay = replay_with(answers);
    let mut first = replay_once(&replay, &trace, replay_limit);
    if !first.as_ref().is_ok_and(shows_the_round) {
        answers = Answers::Ignored;
        replay = replay_with(answers);
        first = replay_once(&replay, &trace, replay_limit);
    }
    let golden = match first {
        Err(e) => return Outcome::Skipped(format!("cannot run {}: {e}", replay.0.display())),
        Ok(Replayed::Fails(replayed)) => replayed,
        Ok(Replayed::Passes) => {
            return Outcome::Skipped("the replay does not reproduce the failure".into())
        }
        Ok(Replayed::CouldNotReplay(why)) => {
            return Outcome::Skipped(format!("the trace could not be replayed ({why})"))
        }
        Ok(Replayed::RanPast(limit)) => {
            return Outcome::Skipped(format!("the replay runs past {:.0} s", limit.as_secs_f64()))
        }
    };
    if !shows_the_round(&Replayed::Fails(golden.clone())) {
        return Outcome::Skipped(format!(
            "the replay fails otherwise: `{golden}`, not the round's `{signature}`"
        ));
    }
    let (program, args) = replay.clone();
    let mut config = ddtrace::Config::new(program);
    config.untrace_args = args;
    config.memout_mb = (limits.memout_mb > 0).then_some(limits.memout_mb);
    config.jobs = jobs.max(1);
    let out = dir.join(MINIMIZED);
    let stop = reduce::StopFlag::new();
    let _deadline = Deadline::arm(&stop, budget);
    let minimized = ddtrace::minimize(&config, entries, format, Some(&out), &stop);
    let discard = |why: String| {
        let _ = std::fs::remove_file(&out);
        Outcome::Skipped(why)
    };
    let (entries, replays) = match minimized {
        Ok(m) => (m.reduction.entries, Some(m.reduction.replays)),
        // Stopped by the budget or a signal: the output holds the best trace so far.
        Err(reduce::EngineError::Interrupted(_)) => {
            match std::fs::read(&out).map(|b| ddtrace::trace_io::read(&b)) {
                Ok(Ok((entries, _))) => (entries, None),
                _ => return discard("stopped before a smaller trace was found".into()),
            }
        }
        Err(e) => return discard(format!("ddtrace: {e}")),
    };
    if entries.is_empty() {
        return discard("ddtrace left no call".into());
    }
    let after = std::fs::read(&out).map(|b| lines(&b)).unwrap_or(0);
    if let Err(e) = declare_limits_in(&out, kind, limits) {
        return discard(format!("cannot write {}: {e}", out.display()));
    }
    match replay_once(&replay, &out, replay_limit) {
        Ok(Replayed::Fails(replayed))
            if Replayed::Fails(replayed.clone()).shows(&[golden.to_string()], &entries) =>
        {
            Outcome::Done {
                path: out,
                signature: Some(replayed.refined(&entries).to_string()),
                lines_before: lines(&bytes),
                lines_after: after,
                replays,
                stopped: stop.is_set(),
                answers,
            }
        }
        Ok(other) => discard(format!(
            "the minimized trace does not reproduce `{golden}` ({}), so the round's trace \
             stays the reproducer",
            other.describe()
        )),
        Err(e) => discard(format!("cannot run {}: {e}", replay.0.display())),
    }
}

/// Requests a stop of `flag` once `budget` has passed, unless dropped first.
struct Deadline {
    cancel: Option<std::sync::mpsc::Sender<()>>,
}

impl Deadline {
    fn arm(flag: &reduce::StopFlag, budget: Duration) -> Deadline {
        let (cancel, cancelled) = std::sync::mpsc::channel::<()>();
        let flag = flag.clone();
        let started = std::time::Instant::now();
        std::thread::spawn(move || loop {
            // A Ctrl-C of the campaign stops the minimization too (the best trace stays).
            if let Some(signal) = crate::interrupt::requested() {
                return flag.request(signal);
            }
            if started.elapsed() >= budget {
                // SIGALRM's number: the engine only records which signal asked it to stop.
                return flag.request(libc::SIGALRM);
            }
            match cancelled.recv_timeout(Duration::from_millis(100)) {
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                _ => return,
            }
        });
        Deadline {
            cancel: Some(cancel),
        }
    }
}

impl Drop for Deadline {
    fn drop(&mut self) {
        drop(self.cancel.take());
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
    fn a_replay_shows_a_finding_by_its_signature_or_as_refined() {
        let entries = trace("new_solver\nreturn z1\ntranslate z1\nreturn z2\ncheck_shadow z1 z2\n");
        let shadow = model::finding::Failure::new(FailureKind::Shadow, "m")
            .with_cause("check_shadow: a unsat, b sat")
            .signature();
        let replayed = Replayed::Fails(shadow.clone());
        assert!(replayed.shows(&[shadow.to_string()], &entries));
        // A minimized finding's signature is the refined one.
        let refined = "shadow|check_shadow: a unsat, b sat [new_solver translate]".to_string();
        assert!(replayed.shows(std::slice::from_ref(&refined), &entries));
        assert!(!replayed.shows(&["shadow|other".into()], &entries));
    }

    fn report(exit: i32, failure: Option<model::finding::Failure>) -> ReplayReport {
        ReplayReport {
            exit,
            signature: failure.as_ref().map(|f| f.signature()),
            failure,
        }
    }

    #[test]
    fn only_a_replay_that_ran_and_reported_is_evidence() {
        use reduce::command::Exit as Ended;
        let limit = Duration::from_secs(5);
        let crash =
            model::finding::Failure::new(FailureKind::Crash, "boom").with_cause("SIGSEGV at x");
        let reported = report(6, Some(crash.clone()));
        assert_eq!(
            Replayed::of(&Ended::Code(6), Some(&reported), b"", limit),
            Replayed::Fails(crash.signature())
        );
        assert_eq!(
            Replayed::of(&Ended::Code(0), Some(&report(0, None)), b"", limit),
            Replayed::Passes
        );
        // A signature line on stderr is for people: without a report it proves nothing.
        let printed = b"untrace: t.trace:9: boom\nuntrace: signature: crash|SIGSEGV at x\n";
        assert!(matches!(
            Replayed::of(&Ended::Code(6), None, printed, limit),
            Replayed::CouldNotReplay(_)
        ));
        // A usage error (the old fallback's unknown --memout), a malformed trace, a finding's
        // code whose report has no failure or another exit, a mismatch, a dead replayer: none
        // is evidence.
        for (ended, reported) in [
            (Ended::Code(2), None),
            (Ended::Code(3), Some(report(3, None))),
            (Ended::Code(6), Some(report(6, None))),
            (Ended::Code(6), Some(report(5, Some(crash.clone())))),
            (Ended::Code(1), Some(report(1, None))),
            (Ended::Signal(9), None),
        ] {
            assert!(
                matches!(
                    Replayed::of(&ended, reported.as_ref(), b"", limit),
                    Replayed::CouldNotReplay(_)
                ),
                "{ended:?}"
            );
        }
        assert_eq!(
            Replayed::of(&Ended::Timeout, None, b"", limit),
            Replayed::RanPast(limit)
        );
        assert!(!Replayed::CouldNotReplay("x".into()).shows(&["x".into()], &[]));
    }

    #[test]
    fn timeout_and_memout_findings_declare_their_limits() {
        let limits = Limits {
            timeout: Duration::from_secs(2),
            memout_mb: 512,
        };
        let dir = tempfile::tempdir().unwrap();
        let trace = dir.path().join("round.trace");
        std::fs::write(&trace, "z3-trace 1\n; z3 4.8.12.0\nnew_solver\nreturn z1\n").unwrap();
        declare_limits_in(&trace, FailureKind::Crash, limits).unwrap();
        assert!(std::fs::read_to_string(&trace)
            .unwrap()
            .starts_with("z3-trace 1"));
        declare_limits_in(&trace, FailureKind::Timeout, limits).unwrap();
        let text = std::fs::read_to_string(&trace).unwrap();
        let declared = model::trace::text::declared_limits(text.as_bytes());
        assert_eq!(declared.timeout, Some(2.0));
        assert_eq!(declared.memout_mb, None);
        // Still a trace with its call.
        assert_eq!(trace_entries(&text), 1);
    }

    fn trace_entries(text: &str) -> usize {
        model::trace::text::parse(text).unwrap().entries.len()
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
