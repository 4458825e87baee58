//! `ddsmt`: minimize an SMT-LIB v2 input while a command keeps its behaviour (ddSMT 2
//! compatible). See `ddsmt --help` and ddsmt/README.md; exit codes are listed in
//! [`ddsmt::cli::AFTER_HELP`].

use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use ddsmt::cli::{self, Options};
use ddsmt::mutators::{detect_groups, registry, registry_with, MutatorConfig, VariableMode};
use ddsmt::strategies::{self, Session};
use progress::{Display, Progress, RunRecord};
use reduce::error::{EXIT_OK, EXIT_USAGE};
use reduce::{
    exit_code, CommandLine, CommandTester, EngineError, Figures, OutputSnapshot, Reducer,
    ReducerOptions, StopFlag,
};
use serde::Serialize;
use smtlib::{PrintOptions, Tree};

/// The version of the `--json` result's schema (docs/json-schemas.md).
const SCHEMA_VERSION: u32 = 1;

/// What `--json PATH` writes (docs/json-schemas.md).
#[derive(Serialize)]
struct JsonResult {
    #[serde(flatten)]
    run: RunRecord,
    /// The command that judged the candidates (ddsmt runs no solver of its own).
    command: Vec<String>,
    cross_check: Option<Vec<String>>,
    input: String,
    output: String,
    strategy: String,
    jobs: usize,
    /// Stopped by SIGINT/SIGTERM (the output holds the best result so far).
    interrupted: bool,
    /// Why the reduction stopped early otherwise (the output could not be written).
    error: Option<String>,
    reduction_percent: f64,
    #[serde(flatten)]
    figures: Figures,
}

fn argv_of(command: &CommandLine) -> Vec<String> {
    std::iter::once(&command.program)
        .chain(&command.args)
        .map(|a| a.to_string_lossy().into_owned())
        .collect()
}

/// Width used by `--wrap-lines`.
const WRAP_WIDTH: usize = 80;

fn main() -> ExitCode {
    let registry = registry();
    let matches = match cli::command(&registry).try_get_matches() {
        Ok(m) => m,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() {
                EXIT_USAGE as u8
            } else {
                EXIT_OK as u8
            });
        }
    };
    let options = match Options::from_matches(&matches) {
        Ok(o) => o,
        Err(msg) => {
            eprintln!("ddsmt: error: {msg}");
            return ExitCode::from(EXIT_USAGE as u8);
        }
    };
    // The flags come from the default registry; the mode only changes how one mutator works.
    let mode = match matches
        .get_one::<String>("replace-by-variable-mode")
        .map(String::as_str)
    {
        Some("dec") => VariableMode::Dec,
        _ => VariableMode::Inc,
    };
    let registry = registry_with(&MutatorConfig {
        replace_by_variable_mode: mode,
    });
    let snapshot = OutputSnapshot::take(&options.outfile);
    match run(&options, &matches, &registry) {
        Ok(()) => ExitCode::from(EXIT_OK as u8),
        Err(e) => {
            match &e {
                EngineError::Interrupted(_) if snapshot.written() => eprintln!(
                    "ddsmt: {e}; {} holds the best result so far",
                    options.outfile.display()
                ),
                EngineError::Interrupted(_) => {
                    eprintln!("ddsmt: {e} before the golden run ended; no output was written")
                }
                _ => eprintln!("ddsmt: error: {e}"),
            }
            ExitCode::from(exit_code(&e) as u8)
        }
    }
}

fn info(opts: &Options, level: i32, msg: impl AsRef<str>) {
    if opts.verbosity >= level {
        eprintln!("[ddsmt] {}", msg.as_ref());
    }
}

fn run(
    opts: &Options,
    matches: &clap::ArgMatches,
    registry: &[Box<dyn ddsmt::mutators::Mutator>],
) -> Result<(), EngineError> {
    let start = Instant::now();
    let mut record = RunRecord::start("ddsmt", env!("CARGO_PKG_VERSION"), SCHEMA_VERSION);
    if let Some(json) = &opts.json {
        reduce::check_json_output(&opts.infile, &opts.outfile, json)?;
    }
    reduce::check_output(&opts.infile, &opts.outfile)?;
    let infile = opts.infile.display().to_string();
    let original = std::fs::read(&opts.infile)
        .map_err(|e| EngineError::Io(format!("{infile}: cannot read: {e}")))?;
    let text = std::str::from_utf8(&original)
        .map_err(|e| EngineError::Input(format!("{infile}: not UTF-8 text: {e}")))?;
    let tree = Tree::parse(text).map_err(|e| EngineError::Input(format!("{infile}:{e}")))?;
    let print = PrintOptions {
        pretty: opts.pretty_print,
        wrap: opts.wrap_lines.then_some(WRAP_WIDTH),
        ..PrintOptions::default()
    };
    if opts.parser_test {
        print!("{}", tree.print_options(&print));
        return Ok(());
    }

    let detected = detect_groups(&tree);
    let (mutators, auto_off) = cli::enabled_mutators(matches, registry, &detected);
    for g in auto_off {
        info(
            opts,
            1,
            format!(
                "automatically disabling {} mutators. Use --{} to enable.",
                g.name(),
                g.name()
            ),
        );
    }
    info(opts, 1, format!("input file: '{infile}'"));
    info(
        opts,
        1,
        format!("output file: '{}'", opts.outfile.display()),
    );
    info(
        opts,
        1,
        format!("command: '{}'", opts.primary.command.display()),
    );
    info(
        opts,
        2,
        format!(
            "mutators: {}",
            mutators
                .iter()
                .map(|m| m.name())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    );

    let stop = StopFlag::new();
    stop.install_signal_handlers()
        .map_err(|e| EngineError::Io(format!("cannot install signal handlers: {e}")))?;
    info(opts, 1, "starting initial run...");
    let tester = CommandTester::new(
        opts.primary.clone(),
        opts.cross_check.clone(),
        &original,
        ".smt2",
        opts.memout_mb,
        stop.clone(),
    )?;
    for (what, p) in std::iter::once(("golden", &tester.primary))
        .chain(tester.cross_check.iter().map(|p| ("cross-check golden", p)))
    {
        info(opts, 1, format!("{what} exit: {}", p.golden.exit));
        info(
            opts,
            1,
            format!("{what} out:\n{}", String::from_utf8_lossy(&p.golden.stdout)),
        );
        info(
            opts,
            1,
            format!("{what} err:\n{}", String::from_utf8_lossy(&p.golden.stderr)),
        );
        info(
            opts,
            1,
            format!(
                "{what} runtime: {:.3} s ({:.3} s CPU), limit per check: {}",
                p.golden.duration.as_secs_f64(),
                p.golden.cpu.as_secs_f64(),
                match p.cpu_limit {
                    Some(cpu) => format!(
                        "{:.0} s CPU ({:.0} s wall-clock net)",
                        cpu.as_secs_f64(),
                        p.timeout.as_secs_f64()
                    ),
                    None => format!("{:.3} s wall-clock", p.timeout.as_secs_f64()),
                }
            ),
        );
    }

    let mut reducer = Reducer::new(
        &tester,
        original.clone(),
        ReducerOptions {
            jobs: opts.jobs,
            unchecked: opts.unchecked,
            check_loops: opts.check_loops,
        },
        stop.clone(),
    );
    reducer.set_output(&opts.outfile)?;
    if strategies::scopes::scopes_are_valid(&tree) {
        // Every candidate keeps valid push/pop scopes (and parses), so no intermediate output
        // is invalid SMT-LIB.
        reducer.set_admissible(strategies::scopes::admissible);
    }
    let live = Progress::new(
        "ddsmt",
        Display::choose(opts.verbosity < 0, opts.status_interval),
        None,
        "",
    );
    {
        let live = live.clone();
        reducer.set_observer(move |st| live.update(st.checks, status_message(st, start)));
    }
    let ticker = live.ticker();
    if opts.dump_diffs {
        reducer.set_accept_hook(|old, new| {
            let (old, new) = (String::from_utf8_lossy(old), String::from_utf8_lossy(new));
            let diff = similar::TextDiff::from_lines(old.as_ref(), new.as_ref());
            eprint!(
                "{}",
                diff.unified_diff()
                    .context_radius(2)
                    .header("before", "after")
            );
        });
    }
    let mut session = Session {
        reducer: &mut reducer,
        mutators,
        print,
    };
    strategies::run(opts.strategy, &mut session);
    drop(ticker);
    live.finish();
    let failure = reducer.take_failure();
    if let Some(path) = &opts.json {
        let mut figures = reducer.figures();
        figures.timeouts = tester.timeouts();
        figures.wall_seconds = start.elapsed().as_secs_f64();
        figures.cpu_seconds = progress::cpu_time().as_secs_f64();
        record.finish();
        let result = JsonResult {
            run: record,
            command: argv_of(&opts.primary.command),
            cross_check: opts.cross_check.as_ref().map(|cc| argv_of(&cc.command)),
            input: opts.infile.display().to_string(),
            output: opts.outfile.display().to_string(),
            strategy: format!("{:?}", opts.strategy).to_lowercase(),
            jobs: opts.jobs,
            interrupted: matches!(failure, Some(EngineError::Interrupted(_))),
            error: match &failure {
                Some(EngineError::Interrupted(_)) | None => None,
                Some(e) => Some(e.to_string()),
            },
            reduction_percent: reduction_percent(figures.input_size, figures.output_size),
            figures,
        };
        write_json(path, &result)?;
    }
    if opts.verbosity >= 0 {
        summary(
            &reducer,
            start.elapsed(),
            &opts.outfile.display().to_string(),
        );
    }
    match failure {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The status message of the progress display: checks and their rate, size against the
/// input, the phase.
fn status_message(st: &reduce::Status, start: Instant) -> String {
    format!(
        "checks {} ({:.1}/s), size {} of {} bytes ({:.1}% reduced), {} accepted, {}",
        st.checks,
        st.checks as f64 / start.elapsed().as_secs_f64().max(1e-9),
        st.best_size,
        st.initial_size,
        reduction_percent(st.initial_size, st.best_size),
        st.successes,
        st.phase
    )
}

fn reduction_percent(input: usize, output: usize) -> f64 {
    100.0 * (1.0 - output as f64 / input.max(1) as f64)
}

/// Writes `result` to `path` as pretty JSON (temporary file and rename).
fn write_json(path: &Path, result: &JsonResult) -> Result<(), EngineError> {
    let mut json = serde_json::to_vec_pretty(result)
        .map_err(|e| EngineError::Io(format!("{}: cannot write: {e}", path.display())))?;
    json.push(b'\n');
    reduce::write_atomically(path, &json)
}

fn summary(r: &Reducer, elapsed: Duration, outfile: &str) {
    let (initial, best) = (r.initial_size(), r.best().len());
    let pct = reduction_percent(initial, best);
    eprintln!("[ddsmt] input size:  {initial} bytes");
    eprintln!("[ddsmt] output size: {best} bytes ({pct:.1}% reduced), written to {outfile}");
    eprintln!(
        "[ddsmt] checks: {} run, {} answered from the cache, {} accepted; time {:.2} s",
        r.checks(),
        r.cache_hits(),
        r.successes(),
        elapsed.as_secs_f64()
    );
    if !r.stats().is_empty() {
        eprintln!(
            "[ddsmt] {:<32} {:>8} {:>8} {:>10} {:>10}",
            "mutator", "tried", "success", "checks", "time [s]"
        );
        for (name, st) in r.stats() {
            eprintln!(
                "[ddsmt] {name:<32} {:>8} {:>8} {:>10} {:>10.2}",
                st.tried,
                st.succeeded,
                st.checks,
                st.time.as_secs_f64()
            );
        }
    }
}
