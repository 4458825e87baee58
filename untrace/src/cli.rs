//! The replay command line, shared by `untrace` and `mbt replay` ([`ReplayArgs`], [`run`]), and
//! [`Replayer`]: how a tool starts a replay of its own build. Every replay a tool starts (mbt's
//! minimizer, `--known`, triage, the differential's other side, the commands written into
//! failure folders) goes through the replayer of the running binary, so it exists whatever
//! was built (`cargo run -p mbt` builds no `untrace`) and takes the same options.

use crate::differential::{Other, SideLimits};
use crate::replay::{read_trace, replay_trace, Exit, ReplayOptions, ReplayReport};
use crate::supervise::{replay_isolated, Limits};
use crate::ExecConfig;
use clap::{Args, ValueEnum};
use model::finding::Failure;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::OnceLock;
use std::time::Duration;

pub const EXIT_CODES: &str = "\
Exit codes:
  0  replayed, every recorded result matched and every check held (or --convert: written)
  1  replay mismatch: a sat answer, unsat-core size, model value or recorded Z3 error differs
  2  usage error, unreadable or unwritable file, a --z3-lib file that is missing, not a
     shared library, not a libz3, lacks a Z3 function untrace calls, or is not the one the
     loader took
  3  malformed or unsupported trace (FILE:LINE:COL: message), also a sort of more than
     1,000 nodes (the limit of a trace's sorts; see docs/limits.md)
  4  Z3 error on a call the API model says is valid (the trace records none)
  5  an oracle check failed (a check_* line: model, core, shadow, dump, config, eval)
  6  Z3 crashed: fatal signal, Z3's fatal exit (assertion violation), stack overflow, panic
  7  timeout: the replay ran past --timeout
  8  memout: the replay ran out of --memout, or Z3 ran out of memory
  9  differential: with --diff-lib or --cross-check, the other Z3 or solver disagrees (with
     --answers-only: this Z3's definite check answer differs from the recorded one)
For codes 4-9 the last stderr line is `untrace: signature: KIND|CAUSE`, the finding's
deduplication key, for people and ddtrace to read. --report FILE writes the outcome as JSON
for tools: `exit` (the code), and for codes 4-9 `failure` (kind, message, last call, cause)
and `signature` (kind, cause: what the signature line prints). The replay runs in a child
process, so a crash is reported, not suffered.

Differential replays: --diff-lib PATH replays the trace here, then on the libz3 at PATH in a
process of its own (`untrace --z3-lib PATH --answers-only`), comparing check-sat answers
only; the other Z3's definite answer that differs, or its Z3 error, failed check or crash, is
exit 9 (`version-diff`). --cross-check CMD replays here, then runs `CMD SCRIPT` on the trace's
standard SMT-LIB script (checks with a recorded sat/unsat whose assertions all have a standard
form); a definite answer that differs is exit 9 (`solver-diff`). An unknown, a timeout, and
the solver's `unsupported` and errors are counted (-v), never a finding.

A trace recorded on another Z3 version (its `; z3 VERSION` line) replays with the warning
`untrace: warning: FILE was recorded on Z3 X, this is Z3 Y` first on stderr.

Z3 API logs (written by Z3_open_log; recognized by their content, docs/z3-log.md) replay by
function name with the call table of the release that wrote them, on whichever libz3 runs:
exit 3 also for a log of a release without a table and for a call the loaded Z3 lacks (a
query it lacks, such as Z3_is_finite_set_sort on 4.8.12, is skipped with a warning). Z3
errors during a log replay are counted (-v), not findings. --diff-lib replays the log on the
other libz3 too: exit 9 when one replay crashes, times out or runs out of memory and the
other does not; when both end alike, this side's outcome stands.

Test-only: UNTRACE_FAIL_ON=PATTERN aborts the process just before a call whose trace line
contains PATTERN (a synthetic crash for the minimizer's tests).";

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Binary,
}

/// The replay command line: `untrace`'s arguments, and `mbt replay`'s, the same parser so
/// that every tool replays a trace with the same options. `--z3-lib` is not among them: it
/// belongs to the binary, which applies it before anything touches Z3.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The trace file (text `z3-trace 1` or binary `Z3TRACE`), or a Z3 API log
    /// (`Z3_open_log`, recognized by its content).
    pub trace: PathBuf,
    /// Do not compare recorded results (for traces of nondeterministic runs); oracle checks
    /// still run.
    #[arg(long)]
    pub no_check: bool,
    /// Skip the oracle checks (the `check_*` lines).
    #[arg(long)]
    pub no_oracles: bool,
    /// Time limit of the replay in seconds (exit 7 past it).
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    pub timeout: Option<f64>,
    /// Memory limit of the replay in MiB (exit 8 when it runs out).
    #[arg(long, value_name = "MIB")]
    pub memout: Option<u64>,
    /// Replay in this process instead of a child (a crash then ends untrace itself; for
    /// debuggers).
    #[arg(long)]
    pub in_process: bool,
    /// Stop after the call on line N (entry N of a binary trace).
    #[arg(long, value_name = "N")]
    pub stop_after: Option<u32>,
    /// Print each executed call line to stderr.
    #[arg(short, long)]
    pub verbose: bool,
    /// Write the trace as an SMT-LIB script to FILE (calls without an SMT-LIB form become
    /// comments), then replay.
    #[arg(long, value_name = "FILE")]
    pub smt2: Option<PathBuf>,
    /// With --smt2: write the standard SMT-LIB script that --cross-check hands another solver
    /// (no Z3 operations or parameters, only the checks with a recorded sat/unsat whose
    /// assertions all have a standard form).
    #[arg(long, requires = "smt2")]
    pub standard: bool,
    /// Write the trace in the other format (or the one --to names) to OUT and exit without
    /// replaying.
    #[arg(long, value_name = "OUT")]
    pub convert: Option<PathBuf>,
    /// The format --convert writes.
    #[arg(long, value_enum, requires = "convert")]
    pub to: Option<Format>,
    /// With --convert of a Z3 API log: add the model's oracle checks (`check_*` lines) after
    /// the calls they judge, so that a wrong answer becomes a finding.
    #[arg(long, requires = "convert")]
    pub with_checks: bool,
    /// Compare only check-sat answers with the recorded ones (a replay on another Z3, whose
    /// models, cores and error texts may differ); a definite answer that differs is exit 9.
    #[arg(long, conflicts_with = "no_check")]
    pub answers_only: bool,
    /// With --answers-only: the Z3 version the recorded answers come from, as messages name it
    /// (default: the trace's `; z3` line).
    #[arg(long, value_name = "VERSION", hide = true)]
    pub recorded_on: Option<String>,
    /// Also replay on this second libz3 and compare (see below; exit 9 when they disagree).
    #[arg(long, value_name = "PATH", conflicts_with = "cross_check")]
    pub diff_lib: Option<PathBuf>,
    /// Also run this solver command (e.g. `cvc5 --incremental`, `z3 -smt2`; split into words,
    /// never run by a shell) on the trace's standard SMT-LIB script, appended as its last
    /// argument, and compare check answers (see below; exit 9 when they disagree).
    #[arg(long, value_name = "CMD")]
    pub cross_check: Option<String>,
    /// Write the outcome as JSON to FILE: the exit code and, for a finding (exit 4-9), its
    /// failure and typed signature (see below). Written for every exit but a refused command
    /// line or --z3-lib (and a crash under --in-process); how mbt and the differential learn
    /// a replay's outcome.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
}

pub fn seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v.is_finite() => Ok(v),
        _ => Err(format!("'{s}' is not a positive number of seconds")),
    }
}

fn fail(exit: Exit, message: &str) -> (Exit, Option<Failure>) {
    eprintln!("untrace: {message}");
    (exit, None)
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|e| format!("{}: cannot write: {e}", path.display()))
}

/// Replays as `cli` says, printing messages and the signature line on stderr, and the
/// outcome to `--report`'s file: the exit code of `untrace` and `mbt replay`.
pub fn run(cli: ReplayArgs) -> ExitCode {
    if let Some(path) = cli.report.as_deref().filter(|p| is_an_input(&cli, p)) {
        let message = format!(
            "{}: --report would overwrite the input trace; give another path",
            path.display()
        );
        return ExitCode::from(fail(Exit::Usage, &message).0 as u8);
    }
    let (exit, failure) = replay(&cli);
    let written = match &cli.report {
        Some(path) => ReplayReport::new(exit, failure).write(path),
        None => Ok(()),
    };
    match written {
        Ok(()) => ExitCode::from(exit as u8),
        Err(message) => ExitCode::from(fail(Exit::Usage, &message).0 as u8),
    }
}

/// Whether `path` names a file the replay reads (the trace).
fn is_an_input(cli: &ReplayArgs, path: &Path) -> bool {
    same_file::is_same_file(&cli.trace, path).unwrap_or(false)
}

/// The replay itself: its exit code and finding.
fn replay(cli: &ReplayArgs) -> (Exit, Option<Failure>) {
    if cli.verbose {
        let file = z3lib::running_on().map_or("?".into(), |l| l.path.display().to_string());
        eprintln!("untrace: Z3 {} ({file})", crate::z3_version());
    }
    if crate::z3_log::is_log(&cli.trace) {
        return replay_z3_log(cli);
    }
    let name = cli.trace.display().to_string();
    let raw = match std::fs::read(&cli.trace) {
        Ok(raw) => raw,
        Err(e) => return fail(Exit::Usage, &format!("{name}: cannot read: {e}")),
    };
    let trace = match read_trace(&cli.trace) {
        Ok(trace) => trace,
        Err((exit, message)) => return fail(exit, &message),
    };
    // The limits a finding's trace declares (its round's), unless given here.
    let declared = model::trace::text::declared_limits(&raw);
    let timeout = cli.timeout.or(declared.timeout);
    let memout = cli.memout.or(declared.memout_mb);
    if cli.timeout.is_none() {
        if let Some(t) = timeout {
            eprintln!(
                "untrace: {name} declares its limit `; timeout: {t}`: replaying with --timeout {t}"
            );
        }
    }
    if cli.memout.is_none() {
        if let Some(m) = memout {
            eprintln!(
                "untrace: {name} declares its limit `; memout: {m}`: replaying with --memout {m}"
            );
        }
    }
    if cli.with_checks {
        return fail(
            Exit::Usage,
            &format!("{name}: --with-checks applies to the --convert of a Z3 API log"),
        );
    }
    if let Some(out) = &cli.convert {
        if same_file::is_same_file(&cli.trace, out).unwrap_or(false) {
            return fail(
                Exit::Usage,
                &format!(
                    "{}: --convert would overwrite the input trace; give another output path",
                    out.display()
                ),
            );
        }
        let was_binary = raw.starts_with(model::trace::binary::MAGIC);
        let to = cli.to.unwrap_or(if was_binary {
            Format::Text
        } else {
            Format::Binary
        });
        let bytes = match to {
            Format::Text => {
                model::trace::text::write_recorded_on(&trace.entries, trace.z3_version.as_deref())
                    .into_bytes()
            }
            Format::Binary => model::trace::binary::write_trace(&trace),
        };
        return match write_file(out, &bytes) {
            Ok(()) => (Exit::Ok, None),
            Err(message) => fail(Exit::Usage, &message),
        };
    }
    if let Some(out) = &cli.smt2 {
        let script = if cli.standard {
            crate::smt2::write_portable(&name, &trace).text
        } else {
            crate::smt2::write_script(&name, &trace)
        };
        if let Err(message) = write_file(out, script.as_bytes()) {
            return fail(Exit::Usage, &message);
        }
    }
    if let Some(warning) = crate::replay::version_warning(&name, &trace) {
        eprintln!("untrace: {warning}");
    }
    let other = match (&cli.diff_lib, &cli.cross_check) {
        (Some(path), _) => Some(Other::library(path)),
        (_, Some(command)) => Some(Other::solver(command)),
        _ => None,
    };
    let other = match other.transpose() {
        Ok(other) => other,
        Err(message) => return fail(Exit::Usage, &message),
    };
    let differential = other.is_some();
    let options = ReplayOptions {
        config: ExecConfig {
            check_results: !cli.no_check || differential,
            answers_only: cli.answers_only || differential,
            verbose: cli.verbose,
            run_checks: !cli.no_oracles,
            ..ExecConfig::default()
        },
        stop_after: cli.stop_after,
        recorded_on: cli.recorded_on.clone(),
    };
    let outcome = if cli.in_process {
        crate::crash::install();
        let outcome = replay_trace(&name, &trace, &options);
        crate::supervise::report(&outcome);
        outcome
    } else {
        let limits = Limits {
            timeout: timeout.map(Duration::from_secs_f64),
            memout_mb: memout,
        };
        replay_isolated(&name, &trace, &options, limits)
    };
    match &other {
        Some(other) if outcome.exit == Exit::Ok => {
            let ran = trace
                .lines
                .iter()
                .filter(|&&l| cli.stop_after.is_none_or(|n| l <= n))
                .count();
            if outcome.executed < ran {
                eprintln!("untrace: note: {name}: the replay here ended early, nothing compared");
                return (Exit::Ok, None);
            }
            let limits = SideLimits {
                timeout: Duration::from_secs_f64(timeout.unwrap_or(60.0)),
                memout_mb: memout,
            };
            compare_with(&cli.trace, &trace, other, limits, cli.verbose)
        }
        _ => (outcome.exit, outcome.failure),
    }
}

/// The second half of a differential replay: `trace` replayed here as recorded; now on
/// `other`.
fn compare_with(
    path: &Path,
    trace: &model::Trace,
    other: &Other,
    limits: SideLimits,
    verbose: bool,
) -> (Exit, Option<Failure>) {
    let name = path.display().to_string();
    let verdict = match crate::differential::compare(path, trace, other, &replayer(), limits) {
        Ok(verdict) => verdict,
        Err(message) => return fail(Exit::Usage, &format!("{name}: {message}")),
    };
    if verbose {
        eprintln!(
            "untrace: compared with {}: {:?}",
            other.name(),
            verdict.counts
        );
    }
    match verdict.failure {
        Some(failure) => {
            eprintln!("untrace: {name}: {}", failure.message);
            eprintln!(
                "untrace: {}{}",
                model::finding::SIGNATURE_LINE,
                failure.signature()
            );
            (Exit::Differ, Some(failure))
        }
        None => {
            if let Some(note) = verdict.note.filter(|_| verbose) {
                eprintln!("untrace: {}: {note}", other.name());
            }
            (Exit::Ok, None)
        }
    }
}

/// `untrace LOG` for a Z3 API log (recognized by its content): replayed by function name in a
/// child process; `--diff-lib` compares how the replay ends on the other libz3.
fn replay_z3_log(cli: &ReplayArgs) -> (Exit, Option<Failure>) {
    let name = cli.trace.display();
    if let Some(out) = &cli.convert {
        let options = z3log::lift::Options {
            with_checks: cli.with_checks,
        };
        let binary = cli.to == Some(Format::Binary);
        let (exit, message) = crate::z3_log::convert(&cli.trace, out, binary, options);
        if exit != Exit::Ok {
            return fail(exit, &message);
        }
        return (exit, None);
    }
    let inapplicable = [
        (cli.smt2.is_some(), "--smt2"),
        (cli.cross_check.is_some(), "--cross-check"),
        (cli.answers_only, "--answers-only"),
    ];
    if let Some((_, option)) = inapplicable.iter().find(|(given, _)| *given) {
        return fail(
            Exit::Usage,
            &format!("{name}: {option} does not apply to a Z3 API log"),
        );
    }
    let limits = Limits {
        timeout: cli.timeout.map(Duration::from_secs_f64),
        memout_mb: cli.memout,
    };
    let options = crate::z3_log::LogOptions {
        verbose: cli.verbose,
        stop_after: cli.stop_after,
        in_process: cli.in_process,
        limits,
    };
    let outcome = crate::z3_log::replay_log(&cli.trace, &options);
    if let (Some(other), Exit::Ok | Exit::Crash | Exit::Timeout | Exit::Memout) =
        (&cli.diff_lib, outcome.exit)
    {
        let limits = Limits {
            timeout: Some(Duration::from_secs_f64(cli.timeout.unwrap_or(60.0))),
            memout_mb: cli.memout,
        };
        if let Some(verdict) = crate::z3_log::compare_with_lib(&cli.trace, &outcome, other, limits)
        {
            crate::supervise::report(&verdict);
            return (verdict.exit, verdict.failure);
        }
    }
    (outcome.exit, outcome.failure)
}

/// How to start a replay of this build: a program and the arguments before the replay's own
/// (`untrace`, or `mbt replay`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replayer {
    pub program: PathBuf,
    pub prefix: Vec<OsString>,
}

static REPLAYER_PREFIX: OnceLock<Vec<OsString>> = OnceLock::new();

/// Declares how the running binary replays: the arguments that select its replay command
/// (none for `untrace`, `replay` for `mbt`). Called first thing in `main`.
pub fn set_replayer_prefix(prefix: &[&str]) {
    let _ = REPLAYER_PREFIX.set(prefix.iter().map(OsString::from).collect());
}

/// The replayer of the running binary ([`set_replayer_prefix`]); in a process whose binary
/// declared none (a test harness), the `untrace` binary beside it.
pub fn replayer() -> Replayer {
    let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("untrace"));
    match REPLAYER_PREFIX.get() {
        Some(prefix) => Replayer {
            program: exe,
            prefix: prefix.clone(),
        },
        None => Replayer {
            program: exe.with_file_name("untrace"),
            prefix: Vec::new(),
        },
    }
}
