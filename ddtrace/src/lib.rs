//! `ddtrace`: minimize a failing Z3 API trace while its replay by `untrace` keeps behaving the
//! same (exit code or signal, stdout, stderr), after ddMBT (Niemetz, Preiner, Biere 2017,
//! section 5), on the reduction engine of the `reduce` crate (shared with `ddsmt`): the golden run,
//! behaviour matching, timeouts, `-j` parallel deterministic checks, the cache, and the best
//! trace always on disk come from there.
//!
//! Entry points:
//! - [`minimize`]: the whole job for a [`Config`] (untrace binary, its options, matching):
//!   golden run, passes, result. This is what `ddtrace` and `mbt --minimize` call.
//! - [`reduce`]: the passes on any [`Tester`] (an in-process predicate in tests).
//!
//! Modules: [`trace_io`] (formats; traces cut short by a crash), [`validity`] (reference-state
//! filtering and repair), [`analysis`] (sorts, definitions and sizes of objects), [`calls`]
//! (edits of single calls), [`session`] (the current trace next to the engine's reducer),
//! [`passes`] (the trace-specific passes and their order), [`regress`] (the regression corpus
//! of real Z3 failures in `traces/regress/`).
//!
//! Example (what `mbt --minimize` does):
//! ```no_run
//! # fn main() -> Result<(), reduce::EngineError> {
//! use ddtrace::{minimize, Config};
//! let bytes = std::fs::read("failure.trace").unwrap();
//! let (entries, format) = ddtrace::trace_io::read(&bytes).unwrap();
//! let config = Config::new("untrace".into());
//! let stop = reduce::StopFlag::new();
//! let done = minimize(&config, entries, format, Some("failure.min.trace".as_ref()), &stop)?;
//! println!("{} lines, {} replays", ddtrace::trace_io::line_count(&done.reduction.entries), done.reduction.replays);
//! # Ok(()) }
//! ```

pub mod analysis;
pub mod calls;
pub mod logs;
pub mod passes;
pub mod regress;
pub mod session;
pub mod trace_io;
pub mod validity;

pub use passes::Passes;
pub use trace_io::Format;

use model::Entry;
use reduce::{
    CommandLine, CommandTester, EngineError, Exit, Figures, Matching, PassStats, PropertySpec,
    Reducer, ReducerOptions, RunOutcome, Status, StopFlag, Tester,
};
use session::Session;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How to replay candidates and what to keep.
#[derive(Clone, Debug)]
pub struct Config {
    /// The `untrace` binary.
    pub untrace: PathBuf,
    /// Options for `untrace`, placed before the trace file.
    pub untrace_args: Vec<OsString>,
    /// Which parts of the golden run's output must stay (the exit code or signal always).
    pub matching: Matching,
    /// Per-replay timeout; `None` = 1.5 x the golden run, at least 0.5 s.
    pub timeout: Option<Duration>,
    /// Memory limit per replay in megabytes.
    pub memout_mb: Option<u64>,
    /// Replays run in parallel (the result does not depend on it).
    pub jobs: usize,
    pub passes: Passes,
    /// When stderr is neither ignored nor matched by a substring: keep only the golden run's
    /// error message, its last stderr line without the `FILE:LINE:` location (untrace names
    /// the candidate's temporary file and line, which every candidate changes), as ddMBT keeps
    /// "the exit code and the error message".
    pub message_only: bool,
    /// For a Z3 API log: Z3's own binary of the release that wrote the log. Every candidate
    /// is also replayed by `z3 -log` and must end there as the input does (its exit code or
    /// signal), so the minimized log still reproduces with Z3's own replayer.
    pub z3_binary: Option<PathBuf>,
}

impl Config {
    /// Defaults: the exit code or signal, stdout, and the error message of stderr
    /// ([`Config::message_only`]) must stay as in the golden run; one job; all passes.
    pub fn new(untrace: PathBuf) -> Config {
        Config {
            untrace,
            untrace_args: Vec::new(),
            matching: Matching::default(),
            timeout: None,
            memout_mb: None,
            jobs: 1,
            passes: Passes::default(),
            message_only: true,
            z3_binary: None,
        }
    }
}

/// What a reduction produced.
#[derive(Clone, Debug)]
pub struct Reduction {
    /// The minimized trace.
    pub entries: Vec<Entry>,
    /// Replays actually run (cache hits and candidates the reference state rejected are not
    /// counted).
    pub replays: u64,
    /// Candidates answered from the cache instead of a replay.
    pub cache_hits: u64,
    /// Statistics per pass, in order of first use.
    pub stats: Vec<(String, PassStats)>,
    /// Rounds of passes until nothing changed.
    pub rounds: usize,
    /// The engine's figures (sizes in bytes of the rendered trace, checks, cache, passes).
    pub figures: Figures,
}

/// The result of [`minimize`]: the reduction (its figures with the replays that timed out)
/// and the golden run it kept.
#[derive(Clone, Debug)]
pub struct Minimized {
    pub reduction: Reduction,
    pub golden: RunOutcome,
}

/// Minimizes `input` with `tester` (which is assumed to keep `input`). With `output`, that
/// file always holds the best trace so far (replaced atomically). A stop request ends the
/// reduction early with [`EngineError::Interrupted`]; the output file is then still valid.
pub fn reduce(
    tester: &dyn Tester,
    input: Vec<Entry>,
    format: Format,
    passes: &Passes,
    options: ReducerOptions,
    output: Option<&Path>,
    stop: &StopFlag,
) -> Result<Reduction, EngineError> {
    reduce_observed(tester, input, format, passes, options, output, stop, |_| {})
}

/// [`reduce`], calling `observer` after every batch of replays and every accepted candidate
/// (a progress display).
#[allow(clippy::too_many_arguments)]
pub fn reduce_observed(
    tester: &dyn Tester,
    input: Vec<Entry>,
    format: Format,
    passes: &Passes,
    options: ReducerOptions,
    output: Option<&Path>,
    stop: &StopFlag,
    observer: impl FnMut(&Status),
) -> Result<Reduction, EngineError> {
    let initial = trace_io::render(&input, format);
    let mut reducer = Reducer::new(tester, initial, options, stop.clone());
    reducer.set_observer(observer);
    // A trace without calls reproduces nothing of Z3's: never a result, whatever the check
    // says (a replay that cannot run "keeps" any behaviour).
    reducer.set_admissible(|candidate| trace_io::read(candidate).is_ok_and(|(e, _)| !e.is_empty()));
    if let Some(path) = output {
        reducer.set_output(path)?;
    }
    let rounds = {
        let mut session = Session::new(&mut reducer, format, input);
        passes::run(&mut session, passes)
    };
    if let Some(err) = reducer.take_failure() {
        return Err(err);
    }
    let entries = trace_io::read(reducer.best())
        .map_err(|e| EngineError::Input(format!("internal: the best trace does not parse: {e}")))?
        .0;
    Ok(Reduction {
        entries,
        replays: reducer.checks(),
        cache_hits: reducer.cache_hits(),
        stats: reducer.stats().to_vec(),
        rounds,
        figures: reducer.figures(),
    })
}

/// The golden replay of `input` with `config.untrace`, then [`reduce`] with an `untrace`
/// replay as the tester.
pub fn minimize(
    config: &Config,
    input: Vec<Entry>,
    format: Format,
    output: Option<&Path>,
    stop: &StopFlag,
) -> Result<Minimized, EngineError> {
    minimize_observed(config, input, format, output, stop, |_| {})
}

/// [`minimize`], calling `observer` as [`reduce_observed`] does.
pub fn minimize_observed(
    config: &Config,
    input: Vec<Entry>,
    format: Format,
    output: Option<&Path>,
    stop: &StopFlag,
    observer: impl FnMut(&Status),
) -> Result<Minimized, EngineError> {
    let original = trace_io::render(&input, format);
    let suffix = match format {
        Format::Text => ".trace",
        Format::Binary => ".btrace",
    };
    let tester = golden_tester(config, &original, suffix, None, stop)?;
    let golden = tester.primary.golden.clone();
    let options = ReducerOptions {
        jobs: config.jobs,
        ..ReducerOptions::default()
    };
    let mut reduction = reduce_observed(
        &tester,
        input,
        format,
        &config.passes,
        options,
        output,
        stop,
        observer,
    )?;
    reduction.figures.timeouts = tester.timeouts();
    Ok(Minimized { reduction, golden })
}

/// The result of [`minimize_log`]: the reduction and the golden run it kept.
#[derive(Clone, Debug)]
pub struct MinimizedLog {
    pub log: z3log::Log,
    /// For each entry of `log`, the index of the input's entry it came from.
    pub origins: Option<Vec<usize>>,
    pub golden: RunOutcome,
    /// Z3's own replayer's golden run, with [`Config::z3_binary`].
    pub z3_golden: Option<RunOutcome>,
    pub replays: u64,
    pub stats: Vec<(String, PassStats)>,
    pub rounds: usize,
    pub figures: Figures,
}

/// The golden replay of the Z3 API log `log` (written by the release of `table`) with
/// `config.untrace`, then [`logs::reduce_log`] with an `untrace` replay as the tester (and
/// `z3 -log` as a second one with [`Config::z3_binary`]).
pub fn minimize_log(
    config: &Config,
    log: z3log::Log,
    table: &z3log::Table,
    output: Option<&Path>,
    stop: &StopFlag,
    observer: impl FnMut(&Status),
) -> Result<MinimizedLog, EngineError> {
    let original = z3log::log::write(&log).into_bytes();
    let z3_log = match &config.z3_binary {
        Some(z3) => Some(PropertySpec {
            command: CommandLine::from_argv([z3.clone().into_os_string(), "-log".into()])
                .ok_or_else(|| EngineError::Command("no z3 command".into()))?,
            // Z3's replayer prints what the calls return; only how it ends is kept.
            matching: Matching {
                ignore_out: true,
                ignore_err: true,
                ..Matching::default()
            },
            timeout: config.timeout,
        }),
        None => None,
    };
    let tester = golden_tester(config, &original, ".log", z3_log, stop)?;
    let golden = tester.primary.golden.clone();
    let z3_golden = tester.cross_check.as_ref().map(|p| p.golden.clone());
    let options = ReducerOptions {
        jobs: config.jobs,
        ..ReducerOptions::default()
    };
    let done = logs::reduce_log(&tester, log, table, options, output, stop, observer)?;
    let mut figures = done.figures;
    figures.timeouts = tester.timeouts();
    Ok(MinimizedLog {
        log: done.log,
        origins: done.origins,
        golden,
        z3_golden,
        replays: done.replays,
        stats: done.stats,
        rounds: done.rounds,
        figures,
    })
}

/// What became of the lifted trace of a minimized log ([`minimize_lifted`]).
#[derive(Clone, Debug, Default)]
pub struct LiftedTrace {
    /// The trace written: minimized by the trace passes, or as lifted when it does not
    /// replay to the log's failure. Empty when nothing of the log lifts.
    pub entries: Vec<Entry>,
    /// Lines of the trace as lifted, before the trace passes.
    pub lifted_lines: usize,
    /// The trace passes' replays, when they ran.
    pub replays: Option<u64>,
    /// Why the trace passes did not run, when they did not.
    pub note: Option<String>,
}

/// Lifts the minimized log `done` (of `original`, of the release of `table`) into a trace
/// ([`z3log::lift::lift`], with the error-message queries of `original` that followed its
/// calls: [`logs::with_error_queries`]), writes it to `output`, and when its replay shows the
/// log's failure (the exit code and error message of the log's golden replay) runs the trace
/// passes on it, `output` always holding the best trace. A lifted trace that does
/// not replay to the log's failure (the lifter left the failing call out, the bug needs a
/// call the model does not express) is written as lifted, with a note that says why it was
/// not minimized.
pub fn minimize_lifted(
    config: &Config,
    original: &z3log::Log,
    done: &MinimizedLog,
    table: &z3log::Table,
    output: &Path,
    stop: &StopFlag,
    observer: impl FnMut(&Status),
) -> Result<LiftedTrace, EngineError> {
    let log_golden = &done.golden;
    let log = match &done.origins {
        Some(origins) => logs::with_error_queries(original, &done.log, origins, table),
        None => done.log.clone(),
    };
    let lifted = match z3log::lift::lift(&log, table, z3log::lift::Options::default()) {
        Ok(lifted) => lifted,
        Err(e) => {
            return Ok(LiftedTrace {
                note: Some(format!("the log does not lift into a trace: line {e}")),
                ..LiftedTrace::default()
            })
        }
    };
    if lifted.entries.is_empty() {
        return Ok(LiftedTrace {
            note: Some("nothing of the log lifts into a trace".into()),
            ..LiftedTrace::default()
        });
    }
    let version = Some(table.version.as_str());
    let render = |entries: &[Entry]| trace_io::render_recorded_on(entries, Format::Text, version);
    let text = render(&lifted.entries);
    reduce::write_atomically(output, &text)?;
    let as_lifted = |note: String| LiftedTrace {
        entries: lifted.entries.clone(),
        lifted_lines: trace_io::line_count(&lifted.entries),
        replays: None,
        note: Some(note),
    };
    // The trace must fail as the log does: its exit code, and the log's error message (its
    // signature line) on stderr.
    let Some(message) = error_message(&log_golden.stderr) else {
        return Ok(as_lifted(
            "the log's replay ends without an error message to keep".into(),
        ));
    };
    let mut trace_config = config.clone();
    let whole_line = format!("{message}\n");
    let golden_text = String::from_utf8_lossy(&log_golden.stderr);
    trace_config.matching.match_err = Some(if golden_text.contains(&whole_line) {
        whole_line
    } else {
        message
    });
    let tester = match golden_tester(&trace_config, &text, ".trace", None, stop) {
        Ok(tester) => tester,
        Err(e @ EngineError::Interrupted(_)) => return Err(e),
        Err(EngineError::NotFailing(_)) => {
            return Ok(as_lifted(lost_call_note(
                &lifted,
                "the lifted trace replays without a failure",
            )))
        }
        Err(e) => {
            return Ok(as_lifted(format!(
                "the lifted trace cannot be replayed: {e}"
            )))
        }
    };
    let golden = &tester.primary.golden;
    let shows = golden.exit == log_golden.exit
        && trace_config
            .matching
            .match_err
            .as_ref()
            .is_some_and(|m| String::from_utf8_lossy(&golden.stderr).contains(m.as_str()));
    if !shows {
        let stderr = String::from_utf8_lossy(&golden.stderr);
        let last = stderr.lines().rev().find(|l| !l.trim().is_empty());
        return Ok(as_lifted(lost_call_note(
            &lifted,
            &format!(
                "the lifted trace replays otherwise (exit {}: {})",
                golden.exit,
                last.unwrap_or("nothing on stderr").trim()
            ),
        )));
    }
    let options = ReducerOptions {
        jobs: config.jobs,
        ..ReducerOptions::default()
    };
    let done = reduce_observed(
        &tester,
        lifted.entries.clone(),
        Format::Text,
        &config.passes,
        options,
        Some(output),
        stop,
        observer,
    )?;
    // The replays never needed the version; the bug report does.
    reduce::write_atomically(output, &render(&done.entries))?;
    Ok(LiftedTrace {
        entries: done.entries,
        lifted_lines: trace_io::line_count(&lifted.entries),
        replays: Some(done.replays),
        note: None,
    })
}

/// `why`, and that the lifter left the log's last call out, if it did.
fn lost_call_note(lifted: &z3log::lift::Lifted, why: &str) -> String {
    match &lifted.last_call_lost {
        Some((line, function)) => {
            format!("{why}: the log's last call ({function}, line {line}) does not lift")
        }
        None => why.to_string(),
    }
}

/// The golden replay of `original` (written to a file ending in `suffix`) with
/// `config.untrace`, refused when it could not replay or does not fail, and the tester that
/// keeps its behaviour ([`Config::matching`], [`Config::message_only`]); `cross_check`, if
/// any, must keep its own golden run's behaviour too.
fn golden_tester(
    config: &Config,
    original: &[u8],
    suffix: &str,
    cross_check: Option<PropertySpec>,
    stop: &StopFlag,
) -> Result<CommandTester, EngineError> {
    let mut argv = vec![config.untrace.clone().into_os_string()];
    argv.extend(config.untrace_args.iter().cloned());
    let command = CommandLine::from_argv(argv)
        .ok_or_else(|| EngineError::Command("no untrace command".into()))?;
    let spec = PropertySpec {
        command,
        matching: config.matching.clone(),
        timeout: config.timeout,
    };
    let mut tester = CommandTester::new(
        spec,
        cross_check,
        original,
        suffix,
        config.memout_mb,
        stop.clone(),
    )?;
    // Exit 2 and 3 are untrace's "could not replay" (usage error, unreadable or malformed
    // trace): keeping that "behaviour" would minimize any trace to nothing.
    if let Exit::Code(code @ (2 | 3)) = tester.primary.golden.exit {
        let stderr = String::from_utf8_lossy(&tester.primary.golden.stderr);
        let last = stderr.lines().rev().find(|l| !l.trim().is_empty());
        return Err(EngineError::Command(format!(
            "`{}` could not replay the input (exit {code}: {}), so there is no failure to keep",
            config.untrace.display(),
            last.unwrap_or("nothing on stderr").trim()
        )));
    }
    if tester.primary.golden.exit == Exit::Code(0) {
        // A passing trace would "minimize" to nothing: refuse instead of presenting that.
        return Err(EngineError::NotFailing(format!(
            "the input does not fail: `{}` replays it with exit 0, so there is no failure to keep \
             (for an oracle finding, are the check_* lines there and not skipped?)",
            config.untrace.display()
        )));
    }
    let m = &mut tester.primary.matching;
    if config.message_only && !m.ignore_err && m.match_err.is_none() {
        match error_message(&tester.primary.golden.stderr) {
            Some(message) => {
                // Matched with its line end where the golden run has one: stderr must contain
                // the message, and a longer message that starts with it (a signature with
                // more to its cause) is another finding.
                let whole_line = format!("{message}\n");
                let golden = String::from_utf8_lossy(&tester.primary.golden.stderr);
                m.match_err = Some(if golden.contains(&whole_line) {
                    whole_line
                } else {
                    message
                });
            }
            // Only a location, or nothing: nothing stable to keep.
            None => m.ignore_err = !tester.primary.golden.stderr.is_empty(),
        }
    }
    Ok(tester)
}

/// The error message of a replay's stderr: its last non-empty line without the leading
/// `untrace: ` and without everything up to the first `FILE:LINE:` or `FILE:LINE:COL:`
/// location. `None` if nothing is left.
pub fn error_message(stderr: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(stderr);
    let line = text.lines().rev().find(|l| !l.trim().is_empty())?.trim();
    let line = line.strip_prefix("untrace: ").unwrap_or(line);
    let rest = strip_location(line).unwrap_or(line).trim();
    (!rest.is_empty()).then(|| rest.to_string())
}

/// The text after the first `:DIGITS:` (optionally `:DIGITS:DIGITS:`) in `line`.
fn strip_location(line: &str) -> Option<&str> {
    let bytes = line.as_bytes();
    let digits_at = |from: usize| {
        bytes[from..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    for (i, &b) in bytes.iter().enumerate() {
        if b != b':' {
            continue;
        }
        let n = digits_at(i + 1);
        if n == 0 || bytes.get(i + 1 + n) != Some(&b':') {
            continue;
        }
        let mut end = i + 1 + n + 1;
        let m = digits_at(end);
        if m > 0 && bytes.get(end + m) == Some(&b':') {
            end += m + 1;
        }
        return Some(&line[end..]);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_messages_lose_their_location() {
        let m = |s: &str| error_message(s.as_bytes());
        assert_eq!(
            m("untrace: /tmp/ddsmt-check-x/input.trace:57: z3 error: invalid argument\n"),
            Some("z3 error: invalid argument".into())
        );
        assert_eq!(
            m("untrace: /tmp/a.trace:3:14: term t9 is not defined\n"),
            Some("term t9 is not defined".into())
        );
        assert_eq!(
            m("UNTRACE_FAIL_ON (test-only): aborting before `bvadd t1 t2`\n"),
            Some("UNTRACE_FAIL_ON (test-only): aborting before `bvadd t1 t2`".into())
        );
        assert_eq!(m("warning\nuntrace: f.trace:2: \n"), None);
        assert_eq!(m(""), None);
    }
}
