//! The `untrace` binary: replays a Z3 API trace (text or binary) against libz3.

use clap::{Parser, ValueEnum};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;
use untrace::differential::{Other, SideLimits};
use untrace::replay::{read_trace, replay_trace, Exit, ReplayOptions};
use untrace::supervise::{replay_isolated, Limits};
use untrace::ExecConfig;

const EXIT_CODES: &str = "\
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
deduplication key (mbt and ddtrace compare it). The replay runs in a child process, so a
crash is reported, not suffered.

Differential replays: --diff-lib PATH replays the trace here, then on the libz3 at PATH in a
process of its own (`untrace --z3-lib PATH --answers-only`), comparing check-sat answers
only; the other Z3's definite answer that differs, or its Z3 error, failed check or crash, is
exit 9 (`version-diff`). --cross-check CMD replays here, then runs `CMD SCRIPT` on the trace's
standard SMT-LIB script (checks with a recorded sat/unsat whose assertions all have a standard
form); a definite answer that differs is exit 9 (`solver-diff`). An unknown, a timeout, and
the solver's `unsupported` and errors are counted (-v), never a finding.

A trace recorded on another Z3 version (its `; z3 VERSION` line) replays with the warning
`untrace: warning: FILE was recorded on Z3 X, this is Z3 Y` first on stderr.

Test-only: UNTRACE_FAIL_ON=PATTERN aborts the process just before a call whose trace line
contains PATTERN (a synthetic crash for the minimizer's tests).";

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Binary,
}

/// Replays a Z3 API trace against libz3 and checks the recorded results.
#[derive(Parser, Debug)]
#[command(name = "untrace", version, after_help = EXIT_CODES)]
struct Cli {
    /// The trace file (text `z3-trace 1` or binary `Z3TRACE`).
    trace: PathBuf,
    /// Do not compare recorded results (for traces of nondeterministic runs); oracle checks
    /// still run.
    #[arg(long)]
    no_check: bool,
    /// Skip the oracle checks (the `check_*` lines).
    #[arg(long)]
    no_oracles: bool,
    /// Time limit of the replay in seconds (exit 7 past it).
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    timeout: Option<f64>,
    /// Memory limit of the replay in MiB (exit 8 when it runs out).
    #[arg(long, value_name = "MIB")]
    memout: Option<u64>,
    /// Replay in this process instead of a child (a crash then ends untrace itself; for
    /// debuggers).
    #[arg(long)]
    in_process: bool,
    /// Stop after the call on line N (entry N of a binary trace).
    #[arg(long, value_name = "N")]
    stop_after: Option<u32>,
    /// Print each executed call line to stderr.
    #[arg(short, long)]
    verbose: bool,
    /// Write the trace as an SMT-LIB script to FILE (calls without an SMT-LIB form become
    /// comments), then replay.
    #[arg(long, value_name = "FILE")]
    smt2: Option<PathBuf>,
    /// With --smt2: write the standard SMT-LIB script that --cross-check hands another solver
    /// (no Z3 operations or parameters, only the checks with a recorded sat/unsat whose
    /// assertions all have a standard form).
    #[arg(long, requires = "smt2")]
    standard: bool,
    /// Write the trace in the other format (or the one --to names) to OUT and exit without
    /// replaying.
    #[arg(long, value_name = "OUT")]
    convert: Option<PathBuf>,
    /// The format --convert writes.
    #[arg(long, value_enum, requires = "convert")]
    to: Option<Format>,
    /// Run on this libz3 instead of the one untrace was linked against (a source build's
    /// libz3.so, the z3-solver wheel's, Debian's); checked first, exit 2 if unusable.
    #[arg(long, value_name = "PATH")]
    z3_lib: Option<PathBuf>,
    /// Compare only check-sat answers with the recorded ones (a replay on another Z3, whose
    /// models, cores and error texts may differ); a definite answer that differs is exit 9.
    #[arg(long, conflicts_with = "no_check")]
    answers_only: bool,
    /// With --answers-only: the Z3 version the recorded answers come from, as messages name it
    /// (default: the trace's `; z3` line).
    #[arg(long, value_name = "VERSION", hide = true)]
    recorded_on: Option<String>,
    /// Also replay on this second libz3 and compare (see below; exit 9 when they disagree).
    #[arg(long, value_name = "PATH", conflicts_with = "cross_check")]
    diff_lib: Option<PathBuf>,
    /// Also run this solver command (e.g. `cvc5 --incremental`, `z3 -smt2`; split into words,
    /// never run by a shell) on the trace's standard SMT-LIB script, appended as its last
    /// argument, and compare check answers (see below; exit 9 when they disagree).
    #[arg(long, value_name = "CMD")]
    cross_check: Option<String>,
}

fn seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v.is_finite() => Ok(v),
        _ => Err(format!("'{s}' is not a positive number of seconds")),
    }
}

fn fail(exit: Exit, message: &str) -> ExitCode {
    eprintln!("untrace: {message}");
    ExitCode::from(exit as u8)
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|e| format!("{}: cannot write: {e}", path.display()))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // First, before anything touches Z3: this may re-execute untrace on the library.
    if let Some(path) = &cli.z3_lib {
        if let Err(e) = z3lib::run_on(path) {
            return fail(Exit::Usage, &e.to_string());
        }
    }
    if cli.verbose {
        let file = z3lib::running_on().map_or("?".into(), |l| l.path.display().to_string());
        eprintln!("untrace: Z3 {} ({file})", untrace::z3_version());
    }
    if untrace::z3_log::is_log(&cli.trace) {
        return replay_z3_log(&cli);
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
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => fail(Exit::Usage, &message),
        };
    }
    if let Some(out) = &cli.smt2 {
        let script = if cli.standard {
            untrace::smt2::write_portable(&name, &trace).text
        } else {
            untrace::smt2::write_script(&name, &trace)
        };
        if let Err(message) = write_file(out, script.as_bytes()) {
            return fail(Exit::Usage, &message);
        }
    }
    if let Some(warning) = untrace::replay::version_warning(&name, &trace) {
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
        untrace::crash::install();
        let outcome = replay_trace(&name, &trace, &options);
        untrace::supervise::report(&outcome);
        outcome
    } else {
        let limits = Limits {
            timeout: cli.timeout.map(Duration::from_secs_f64),
            memout_mb: cli.memout,
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
                return ExitCode::SUCCESS;
            }
            let limits = SideLimits {
                timeout: Duration::from_secs_f64(cli.timeout.unwrap_or(60.0)),
                memout_mb: cli.memout,
            };
            compare_with(&cli.trace, &trace, other, limits, cli.verbose)
        }
        _ => ExitCode::from(outcome.exit as u8),
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
) -> ExitCode {
    let name = path.display().to_string();
    let Some(untrace) = untrace::differential::untrace_binary() else {
        return fail(Exit::Usage, "cannot find the untrace binary");
    };
    let verdict = match untrace::differential::compare(path, trace, other, &untrace, limits) {
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
    match &verdict.failure {
        Some(failure) => {
            eprintln!("untrace: {name}: {}", failure.message);
            eprintln!(
                "untrace: {}{}",
                model::finding::SIGNATURE_LINE,
                failure.signature()
            );
            ExitCode::from(Exit::Differ as u8)
        }
        None => {
            if let Some(note) = verdict.note.filter(|_| verbose) {
                eprintln!("untrace: {}: {note}", other.name());
            }
            ExitCode::SUCCESS
        }
    }
}

/// `untrace LOG` for a Z3 API log (recognized by its content): replayed by function name in a
/// child process; `--diff-lib` compares how the replay ends on the other libz3.
fn replay_z3_log(cli: &Cli) -> ExitCode {
    let name = cli.trace.display();
    let inapplicable = [
        (cli.convert.is_some(), "--convert"),
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
    let options = untrace::z3_log::LogOptions {
        verbose: cli.verbose,
        stop_after: cli.stop_after,
        in_process: cli.in_process,
        limits,
    };
    let outcome = untrace::z3_log::replay_log(&cli.trace, &options);
    if let (Some(other), Exit::Ok | Exit::Crash | Exit::Timeout | Exit::Memout) =
        (&cli.diff_lib, outcome.exit)
    {
        let limits = Limits {
            timeout: Some(Duration::from_secs_f64(cli.timeout.unwrap_or(60.0))),
            memout_mb: cli.memout,
        };
        if let Some(verdict) =
            untrace::z3_log::compare_with_lib(&cli.trace, &outcome, other, limits)
        {
            untrace::supervise::report(&verdict);
            return ExitCode::from(verdict.exit as u8);
        }
    }
    ExitCode::from(outcome.exit as u8)
}
