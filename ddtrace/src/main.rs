//! The `ddtrace` binary: `ddtrace [options] INTRACE OUTTRACE [-- untrace options]`.
//! See `ddtrace --help`; the work is done by [`ddtrace::minimize`].

use clap::Parser;
use ddtrace::trace_io::{self, line_count};
use ddtrace::{logs, minimize_log, minimize_observed, Config, Passes};
use progress::{Display, Progress, RunRecord};
use reduce::error::{EXIT_IO, EXIT_OK, EXIT_USAGE};
use reduce::{exit_code, EngineError, Figures, Matching, OutputSnapshot, Status, StopFlag};
use serde::Serialize;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The version of the `--json` result's schema (docs/json-schemas.md).
const SCHEMA_VERSION: u32 = 1;

/// What `--json PATH` writes (docs/json-schemas.md).
#[derive(Serialize)]
struct JsonResult {
    #[serde(flatten)]
    run: RunRecord,
    /// The Z3 the replays ran on (`--z3-lib`, else the one untrace links), if it could be
    /// named, and the trace's recorded one.
    z3_version: Option<String>,
    z3_lib: Option<String>,
    recorded_z3_version: Option<String>,
    /// The replay command without the trace.
    replay_command: Vec<String>,
    input: String,
    output: String,
    jobs: usize,
    /// Stopped by SIGINT/SIGTERM: OUTTRACE holds the best trace so far, and the figures are
    /// those of the last progress report (no per-pass figures).
    interrupted: bool,
    input_lines: usize,
    output_lines: Option<usize>,
    /// For a Z3 API log: its calls before and after, and the calls of the result that
    /// neither make the context nor count references.
    #[serde(skip_serializing_if = "Option::is_none")]
    input_calls: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    output_calls: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    output_essential_calls: Option<usize>,
    /// For a Z3 API log: where its lifted trace went, its lines as lifted and after the trace
    /// passes, and why they did not run (if they did not).
    #[serde(skip_serializing_if = "Option::is_none")]
    lifted_trace: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lifted_lines: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lifted_output_lines: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lifted_note: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lifted_replays: Option<u64>,
    /// Rounds of passes until nothing changed.
    rounds: Option<usize>,
    golden_exit: Option<String>,
    reduction_percent: f64,
    #[serde(flatten)]
    figures: Figures,
}

const AFTER_HELP: &str = "\
The behaviour to keep is that of the golden replay `untrace [untrace options] INTRACE`: its exit
code or signal always, stdout, and by default the error message of stderr (its last line
without the FILE:LINE: location, which names each candidate's temporary file). Use
--exact-err, --match-err STR or --ignore-err to change that.

A Z3 API log (Z3_open_log; recognized by its content, not its name) is minimized as a log:
reference counting, queries and messages first, then calls with every call that uses what
they made, then elements of input arrays; OUTTRACE is a log in Z3's format, which `z3 -log`
of the same release replays. With --z3-binary PATH (Z3's own `z3` of the log's release),
every candidate must also end under `PATH -log` as the input does. The result is then lifted
into a trace (--lifted PATH, default OUTTRACE with the extension .trace; --no-lift), which the
trace passes minimize when it replays to the log's signature. See docs/z3-log.md.

Progress: on a terminal a bar; otherwise one status line every --status-interval (UTC time,
replays, size against the input, reduction, rate). -q silences it and the summary.

Exit codes:
  0    minimization finished; OUTTRACE holds the result
  1    INTRACE cannot be read or parsed, or OUTTRACE cannot be written
  2    bad command line, or a --z3-lib file that is missing, not a shared library, not a
       libz3, or lacks a Z3 function untrace calls
  3    untrace cannot be started, or cannot replay INTRACE (it exits 2 or 3: usage error,
       unreadable or malformed trace): no evidence of a failure to keep
  4    INTRACE does not fail: its golden replay exits 0, there is nothing to minimize
  130  interrupted by SIGINT (Ctrl-C); OUTTRACE holds the best trace so far
  143  interrupted by SIGTERM; likewise";

fn seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v.is_finite() => Ok(v),
        _ => Err(format!("'{s}' is not a positive number of seconds")),
    }
}

/// Minimize a Z3 API trace while its replay by untrace keeps its behaviour (after ddMBT).
#[derive(Parser, Debug)]
#[command(
    name = "ddtrace",
    version,
    override_usage = "ddtrace [options] INTRACE OUTTRACE [-- untrace options]",
    after_help = AFTER_HELP
)]
struct Cli {
    /// The failing trace (text or binary; the output keeps its format), or a Z3 API log
    /// (recognized by its content; the output is a log).
    intrace: PathBuf,
    /// Where the minimized trace (or log) goes (always the best so far).
    outtrace: PathBuf,
    /// Options for untrace, given before the trace file.
    #[arg(last = true, allow_hyphen_values = true)]
    untrace_args: Vec<OsString>,
    /// The untrace binary (default: the one beside ddtrace, else `untrace` from PATH).
    #[arg(long, value_name = "PATH")]
    untrace: Option<PathBuf>,
    /// Replay on this libz3 (checked here, then passed to every untrace replay as its
    /// --z3-lib).
    #[arg(long, value_name = "PATH")]
    z3_lib: Option<PathBuf>,
    /// Number of parallel replays (the result does not depend on it).
    #[arg(short = 'j', long)]
    jobs: Option<usize>,
    /// Wall-clock timeout of each replay (default: a CPU-time limit of 10 x the golden run's CPU time, at least 1 s, with a wall-clock net of at least 10 s).
    #[arg(long, value_parser = seconds, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// For a Z3 API log: Z3's own binary of the release that wrote it (`z3`); every
    /// candidate must also end under `PATH -log CANDIDATE` as the input does (exit code or
    /// signal), so the result still reproduces with Z3's own replayer.
    #[arg(long, value_name = "PATH")]
    z3_binary: Option<PathBuf>,
    /// For a Z3 API log: where the lifted trace of the minimized log goes, minimized with
    /// the trace passes when it replays to the log's failure (default: OUTTRACE with the
    /// extension `.trace`, or `.lifted.trace` when it has that one).
    #[arg(long, value_name = "PATH")]
    lifted: Option<PathBuf>,
    /// For a Z3 API log: do not lift the minimized log into a trace.
    #[arg(long)]
    no_lift: bool,
    /// Memory limit of each replay in megabytes.
    #[arg(long, value_name = "MB")]
    memout: Option<u64>,
    /// Ignore stdout and stderr, only consider the exit code or signal.
    #[arg(long)]
    ignore_output: bool,
    /// Ignore stdout.
    #[arg(long)]
    ignore_out: bool,
    /// Ignore stderr.
    #[arg(long)]
    ignore_err: bool,
    /// stdout must contain STR (instead of being equal).
    #[arg(long, value_name = "STR")]
    match_out: Option<String>,
    /// stderr must contain STR (instead of the golden error message).
    #[arg(long, value_name = "STR")]
    match_err: Option<String>,
    /// stderr must equal the golden stderr byte for byte.
    #[arg(long)]
    exact_err: bool,
    /// Do not remove calls.
    #[arg(long)]
    no_remove: bool,
    /// Do not drop recorded results.
    #[arg(long)]
    no_results: bool,
    /// Do not shrink n-ary argument lists.
    #[arg(long)]
    no_args: bool,
    /// Do not remove datatypes, constructors and fields from datatype declarations.
    #[arg(long)]
    no_datatypes: bool,
    /// Do not remove arguments of uninterpreted functions.
    #[arg(long)]
    no_domains: bool,
    /// Do not replace tracked assertions, assumptions and configured solvers by plain ones.
    #[arg(long)]
    no_simpler_calls: bool,
    /// Do not substitute arguments by existing terms.
    #[arg(long)]
    no_subst_existing: bool,
    /// Do not substitute arguments by fresh constants.
    #[arg(long)]
    no_subst_fresh: bool,
    /// Do not make numbers smaller.
    #[arg(long)]
    no_numbers: bool,
    /// Do not renumber ids at the end.
    #[arg(long)]
    no_renumber: bool,
    /// More output: the Z3 the replays run on, the golden run and statistics per pass.
    #[arg(short, long, action = clap::ArgAction::Count)]
    verbose: u8,
    /// No progress (bar or status lines) and no summary line.
    #[arg(short, long)]
    quiet: bool,
    /// When stderr is not a terminal, print a status line this often: seconds or a duration
    /// such as `30s`, `5m`.
    #[arg(long, value_name = "DURATION", value_parser = progress::parse_duration,
          default_value = "10")]
    status_interval: Duration,
    /// Write the result as JSON to PATH: Z3 version, command line, times, host, line and byte
    /// counts, replays, cache hits, timeouts, wall and CPU time, per-pass figures
    /// (docs/json-schemas.md).
    #[arg(long, value_name = "PATH")]
    json: Option<PathBuf>,
}

fn default_untrace() -> PathBuf {
    std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.join("untrace")))
        .filter(|p| p.is_file())
        .unwrap_or_else(|| PathBuf::from("untrace"))
}

/// `z3_lib` is the checked `--z3-lib` library, which every replay gets too.
fn config(cli: &Cli, z3_lib: Option<&z3lib::Library>) -> Config {
    let mut config = Config::new(cli.untrace.clone().unwrap_or_else(default_untrace));
    if let Some(library) = z3_lib {
        config.untrace_args = vec![z3lib::FLAG.into(), library.path.clone().into()];
    }
    config.untrace_args.extend(cli.untrace_args.iter().cloned());
    config.matching = Matching {
        ignore_out: cli.ignore_output || cli.ignore_out,
        ignore_err: cli.ignore_output || cli.ignore_err,
        match_out: cli.match_out.clone(),
        match_err: cli.match_err.clone(),
    };
    config.message_only = !cli.exact_err;
    config.timeout = cli.timeout.map(Duration::from_secs_f64);
    config.memout_mb = cli.memout;
    config.z3_binary = cli.z3_binary.clone();
    config.jobs = cli
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    config.passes = Passes {
        remove: !cli.no_remove,
        results: !cli.no_results,
        args: !cli.no_args,
        datatypes: !cli.no_datatypes,
        domains: !cli.no_domains,
        simpler_calls: !cli.no_simpler_calls,
        subst_existing: !cli.no_subst_existing,
        subst_fresh: !cli.no_subst_fresh,
        numbers: !cli.no_numbers,
        renumber: !cli.no_renumber,
    };
    config
}

fn run(cli: &Cli, z3_lib: Option<&z3lib::Library>) -> Result<(), EngineError> {
    let start = Instant::now();
    let record = RunRecord::start("ddtrace", env!("CARGO_PKG_VERSION"), SCHEMA_VERSION);
    if let Some(json) = &cli.json {
        reduce::check_json_output(&cli.intrace, &cli.outtrace, json)?;
    }
    reduce::check_output(&cli.intrace, &cli.outtrace)?;
    let bytes = std::fs::read(&cli.intrace)
        .map_err(|e| EngineError::Io(format!("{}: cannot read: {e}", cli.intrace.display())))?;
    if z3log::parse::looks_like_log(&bytes) {
        return run_log(cli, z3_lib, start, record);
    }
    if cli.z3_binary.is_some() {
        return Err(EngineError::Usage(
            "--z3-binary applies to Z3 API logs, not to traces".into(),
        ));
    }
    let (entries, format) = trace_io::read(&bytes)
        .map_err(|e| EngineError::Input(format!("{}:{e}", cli.intrace.display())))?;
    let recorded_on = model::trace::parse(&bytes)
        .ok()
        .and_then(|trace| trace.z3_version);
    let lines_before = line_count(&entries);
    let session = Session::new(cli, z3_lib, start, None)?;
    let outcome = minimize_observed(
        &session.config,
        entries,
        format,
        Some(&cli.outtrace),
        &session.stop,
        session.observer(),
    );
    session.finish();
    if let Some(path) = &cli.json {
        let finished = outcome.as_ref().ok().map(|done| Finished {
            figures: done.reduction.figures.clone(),
            rounds: done.reduction.rounds,
            golden_exit: done.golden.exit.to_string(),
        });
        let output_lines = outcome
            .as_ref()
            .ok()
            .map(|done| line_count(&done.reduction.entries));
        let interrupted = matches!(outcome, Err(EngineError::Interrupted(_)));
        if let Some(result) = session.json_result(
            record,
            finished,
            interrupted,
            recorded_on.clone(),
            (lines_before, output_lines),
        ) {
            write_json(path, &result)?;
        }
    }
    let done = outcome?;
    if recorded_on.is_some() {
        // The replays never needed it; the bug report does.
        let bytes =
            trace_io::render_recorded_on(&done.reduction.entries, format, recorded_on.as_deref());
        reduce::write_atomically(&cli.outtrace, &bytes)?;
    }
    if cli.verbose > 0 {
        print_passes(&done.golden, None, &done.reduction.stats);
    }
    if !cli.quiet {
        eprintln!(
            "ddtrace: {} -> {} lines, {} replays, {} rounds, {:.2} s",
            lines_before,
            line_count(&done.reduction.entries),
            done.reduction.replays,
            done.reduction.rounds,
            start.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

/// What `run` does for a Z3 API log: the same golden run, progress, JSON result and exit
/// codes, with the log passes ([`ddtrace::logs`]); the output is a log.
fn run_log(
    cli: &Cli,
    z3_lib: Option<&z3lib::Library>,
    start: Instant,
    record: RunRecord,
) -> Result<(), EngineError> {
    let loaded = z3log::load(&cli.intrace).map_err(|e| {
        if e.io {
            EngineError::Io(e.message)
        } else {
            EngineError::Input(e.message)
        }
    })?;
    let z3log::Loaded { log, table } = loaded;
    let lifted_path = (!cli.no_lift).then(|| lifted_path(cli));
    if let Some(path) = &lifted_path {
        reduce::check_output(&cli.intrace, path)?;
        if path == &cli.outtrace {
            return Err(EngineError::Usage(format!(
                "--lifted {} is OUTTRACE: the log and its lifted trace need two files",
                path.display()
            )));
        }
    }
    let before = logs::size(&log, &table);
    let session = Session::new(cli, z3_lib, start, Some(&table.version))?;
    let (config, stop, observer) = (&session.config, &session.stop, session.observer());
    let original = (!cli.no_lift).then(|| log.clone());
    let outcome = minimize_log(config, log, &table, Some(&cli.outtrace), stop, &observer);
    // The lifted trace of the minimized log, minimized with the trace passes.
    let lifted = match (&outcome, &lifted_path, &original) {
        (Ok(done), Some(path), Some(original)) => Some(ddtrace::minimize_lifted(
            config, original, done, &table, path, stop, &observer,
        )),
        _ => None,
    };
    session.finish();
    // Stopped while the trace passes ran: both outputs hold their best so far.
    let (outcome, lifted) = match lifted {
        Some(Err(e)) => (Err(e), None),
        Some(Ok(lifted)) => (outcome, Some(lifted)),
        None => (outcome, None),
    };
    let after = outcome
        .as_ref()
        .ok()
        .map(|done| logs::size(&done.log, &table));
    if let Some(path) = &cli.json {
        let finished = outcome.as_ref().ok().map(|done| Finished {
            figures: done.figures.clone(),
            rounds: done.rounds,
            golden_exit: done.golden.exit.to_string(),
        });
        let interrupted = matches!(outcome, Err(EngineError::Interrupted(_)));
        let lines = (before.lines, after.map(|a| a.lines));
        let recorded = Some(table.version.clone());
        if let Some(result) = session.json_result(record, finished, interrupted, recorded, lines) {
            let result = JsonResult {
                input_calls: Some(before.calls),
                output_calls: after.map(|a| a.calls),
                output_essential_calls: after.map(|a| a.essential_calls),
                lifted_trace: lifted_path.as_ref().map(|p| p.display().to_string()),
                lifted_lines: lifted.as_ref().map(|l| l.lifted_lines),
                lifted_output_lines: lifted
                    .as_ref()
                    .filter(|l| !l.entries.is_empty())
                    .map(|l| line_count(&l.entries)),
                lifted_note: lifted.as_ref().and_then(|l| l.note.clone()),
                lifted_replays: lifted.as_ref().and_then(|l| l.replays),
                ..result
            };
            write_json(path, &result)?;
        }
    }
    let done = outcome?;
    let after = logs::size(&done.log, &table);
    if cli.verbose > 0 {
        let z3_golden = done.z3_golden.as_ref().map(|z| {
            format!(
                "ddtrace: golden run of `z3 -log`: exit {}, {:.3} s",
                z.exit,
                z.duration.as_secs_f64()
            )
        });
        print_passes(&done.golden, z3_golden, &done.stats);
    }
    if !cli.quiet {
        eprintln!(
            "ddtrace: {} -> {} lines, {} -> {} calls ({} besides the context and reference \
             counting), {} replays, {} rounds, {:.2} s",
            before.lines,
            after.lines,
            before.calls,
            after.calls,
            after.essential_calls,
            done.replays,
            done.rounds,
            start.elapsed().as_secs_f64()
        );
        if let (Some(path), Some(lifted)) = (&lifted_path, &lifted) {
            match (&lifted.note, lifted.entries.is_empty()) {
                (_, true) => eprintln!(
                    "ddtrace: no lifted trace: {}",
                    lifted.note.as_deref().unwrap_or("nothing lifts")
                ),
                (None, false) => eprintln!(
                    "ddtrace: lifted trace {}: {} -> {} lines, {} replays",
                    path.display(),
                    lifted.lifted_lines,
                    line_count(&lifted.entries),
                    lifted.replays.unwrap_or(0)
                ),
                (Some(note), false) => eprintln!(
                    "ddtrace: lifted trace {}: {} lines, not minimized: {note}",
                    path.display(),
                    lifted.lifted_lines
                ),
            }
        }
    }
    Ok(())
}

/// What a run shares whatever its input (a trace or a Z3 API log): the stop flag, the
/// configuration, the Z3 the replays run on, the progress display and the last figures the
/// engine reported.
struct Session<'a> {
    cli: &'a Cli,
    start: Instant,
    stop: StopFlag,
    config: Config,
    /// Named for `-v` and `--json` only.
    replays_on: Option<Result<z3lib::Library, z3lib::Error>>,
    live: Progress,
    /// The last figures the engine reported, for the JSON result of an interrupted run.
    last: std::cell::RefCell<Figures>,
    /// Ticks the display while the engine runs; stopped by [`Session::finish`].
    ticker: std::cell::RefCell<Option<progress::Ticker>>,
}

/// What a finished reduction reports in the JSON result.
struct Finished {
    figures: Figures,
    rounds: usize,
    golden_exit: String,
}

impl<'a> Session<'a> {
    /// Signal handlers, configuration, the Z3 the replays run on (`-v` names it, and the
    /// release that wrote a log, `written_by`), the progress display.
    fn new(
        cli: &'a Cli,
        z3_lib: Option<&z3lib::Library>,
        start: Instant,
        written_by: Option<&str>,
    ) -> Result<Session<'a>, EngineError> {
        let stop = StopFlag::new();
        stop.install_signal_handlers()
            .map_err(|e| EngineError::Io(format!("cannot install signal handlers: {e}")))?;
        let config = config(cli, z3_lib);
        // ddtrace does not load Z3 itself: the replays run on --z3-lib, else on the libz3
        // the untrace binary links against.
        let replays_on = (cli.verbose > 0 || cli.json.is_some()).then(|| {
            z3_lib
                .cloned()
                .map_or_else(|| z3lib::default_for(&config.untrace), Ok)
        });
        if cli.verbose > 0 {
            let written = written_by
                .map(|v| format!("; the log was written by Z3 {v}"))
                .unwrap_or_default();
            match &replays_on {
                Some(Ok(library)) => eprintln!(
                    "ddtrace: Z3 {} ({}){written}",
                    library.version,
                    library.path.display(),
                ),
                Some(Err(e)) => eprintln!("ddtrace: Z3 unknown: {e}"),
                None => {}
            }
        }
        let live = Progress::new(
            "ddtrace",
            Display::choose(cli.quiet, cli.status_interval),
            None,
            "",
        );
        let ticker = live.ticker();
        Ok(Session {
            cli,
            start,
            stop,
            config,
            replays_on,
            live,
            last: Default::default(),
            ticker: std::cell::RefCell::new(Some(ticker)),
        })
    }

    /// Stops the ticking, then the display.
    fn finish(&self) {
        drop(self.ticker.borrow_mut().take());
        self.live.finish();
    }

    /// What the engine calls with its progress.
    fn observer(&self) -> impl Fn(&Status) + '_ {
        |st: &Status| {
            self.live.update(st.checks, status_message(st, self.start));
            let mut last = self.last.borrow_mut();
            (last.input_size, last.output_size) = (st.initial_size, st.best_size);
            (last.checks, last.accepted) = (st.checks, st.successes);
        }
    }

    /// The JSON result of a finished or interrupted run (`None` after another error), with
    /// `lines` of input and output; the fields of a log are the caller's to fill.
    fn json_result(
        &self,
        mut record: RunRecord,
        finished: Option<Finished>,
        interrupted: bool,
        recorded_z3_version: Option<String>,
        lines: (usize, Option<usize>),
    ) -> Option<JsonResult> {
        if finished.is_none() && !interrupted {
            return None;
        }
        let config = &self.config;
        let mut replay_command = vec![config.untrace.to_string_lossy().into_owned()];
        replay_command.extend(
            config
                .untrace_args
                .iter()
                .map(|a| a.to_string_lossy().into_owned()),
        );
        let ok = finished.is_some();
        let (figures, rounds, golden_exit) = match finished {
            Some(f) => (f.figures, Some(f.rounds), Some(f.golden_exit)),
            None => (self.last.borrow().clone(), None, None),
        };
        let mut figures = Figures {
            wall_seconds: self.start.elapsed().as_secs_f64(),
            cpu_seconds: progress::cpu_time().as_secs_f64(),
            ..figures
        };
        if !ok {
            figures.passes.clear();
        }
        record.finish();
        let library = self.replays_on.as_ref().and_then(|r| r.as_ref().ok());
        Some(JsonResult {
            run: record,
            z3_version: library.map(|l| l.version.clone()),
            z3_lib: library.map(|l| l.path.display().to_string()),
            recorded_z3_version,
            replay_command,
            input: self.cli.intrace.display().to_string(),
            output: self.cli.outtrace.display().to_string(),
            jobs: config.jobs,
            interrupted,
            input_lines: lines.0,
            output_lines: lines.1,
            input_calls: None,
            output_calls: None,
            output_essential_calls: None,
            lifted_trace: None,
            lifted_lines: None,
            lifted_output_lines: None,
            lifted_note: None,
            lifted_replays: None,
            rounds,
            golden_exit,
            reduction_percent: 100.0
                * (1.0 - figures.output_size as f64 / figures.input_size.max(1) as f64),
            figures,
        })
    }
}

/// `-v`: the golden replay (and `extra`, a line about it), then each pass's figures.
fn print_passes(
    golden: &reduce::RunOutcome,
    extra: Option<String>,
    stats: &[(String, reduce::PassStats)],
) {
    eprintln!(
        "ddtrace: golden replay: exit {}, {} bytes stdout, {} bytes stderr, {:.3} s",
        golden.exit,
        golden.stdout.len(),
        golden.stderr.len(),
        golden.duration.as_secs_f64()
    );
    if let Some(line) = extra {
        eprintln!("{line}");
    }
    for (pass, s) in stats {
        eprintln!(
            "ddtrace:   {pass:<15} tried {:>5}  replays {:>5}  accepted {:>4}  {:>7.2} s",
            s.tried,
            s.checks,
            s.succeeded,
            s.time.as_secs_f64()
        );
    }
}

/// Where the lifted trace of a minimized log goes by default: OUTTRACE with the extension
/// `.trace`, or `.lifted.trace` when OUTTRACE has that one already.
fn lifted_path(cli: &Cli) -> PathBuf {
    cli.lifted.clone().unwrap_or_else(|| {
        let path = cli.outtrace.with_extension("trace");
        if path == cli.outtrace {
            cli.outtrace.with_extension("lifted.trace")
        } else {
            path
        }
    })
}

/// The status message of the progress display: replays and their rate, size against the
/// input, the pass.
fn status_message(st: &Status, start: Instant) -> String {
    format!(
        "replays {} ({:.1}/s), size {} of {} bytes ({:.1}% reduced), {} accepted, {}",
        st.checks,
        st.checks as f64 / start.elapsed().as_secs_f64().max(1e-9),
        st.best_size,
        st.initial_size,
        100.0 * (1.0 - st.best_size as f64 / st.initial_size.max(1) as f64),
        st.successes,
        st.phase
    )
}

/// Writes `result` to `path` as pretty JSON (temporary file and rename).
fn write_json(path: &Path, result: &JsonResult) -> Result<(), EngineError> {
    let mut json = serde_json::to_vec_pretty(result)
        .map_err(|e| EngineError::Io(format!("{}: cannot write: {e}", path.display())))?;
    json.push(b'\n');
    reduce::write_atomically(path, &json)
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { EXIT_USAGE } else { EXIT_OK } as u8);
        }
    };
    let z3_lib = match cli.z3_lib.as_deref().map(z3lib::inspect).transpose() {
        Ok(library) => library,
        Err(e) => {
            eprintln!("ddtrace: {e}");
            return ExitCode::from(EXIT_USAGE as u8);
        }
    };
    let snapshot = OutputSnapshot::take(&cli.outtrace);
    match run(&cli, z3_lib.as_ref()) {
        Ok(()) => ExitCode::from(EXIT_OK as u8),
        Err(e) => {
            match &e {
                EngineError::Interrupted(_) if snapshot.written() => eprintln!(
                    "ddtrace: {e}; {} holds the best {} so far",
                    cli.outtrace.display(),
                    if z3log::is_log_file(&cli.intrace) {
                        "log"
                    } else {
                        "trace"
                    }
                ),
                EngineError::Interrupted(_) => {
                    eprintln!("ddtrace: {e} before the golden run ended; no output was written")
                }
                EngineError::NotFailing(_) => {
                    eprintln!("ddtrace: {}: {e}", cli.intrace.display())
                }
                _ => eprintln!("ddtrace: error: {e}"),
            }
            let code = exit_code(&e);
            ExitCode::from(if code == 0 { EXIT_IO } else { code } as u8)
        }
    }
}
