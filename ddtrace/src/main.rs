//! The `ddtrace` binary: `ddtrace [options] INTRACE OUTTRACE [-- untrace options]`.
//! See `ddtrace --help`; the work is done by [`ddtrace::minimize`].

use clap::Parser;
use ddtrace::trace_io::{self, line_count};
use ddtrace::{minimize, Config, Passes};
use reduce::error::{EXIT_IO, EXIT_OK, EXIT_USAGE};
use reduce::{exit_code, EngineError, Matching, OutputSnapshot, StopFlag};
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

const AFTER_HELP: &str = "\
The behaviour to keep is that of the golden replay `untrace [untrace options] INTRACE`: its exit
code or signal always, stdout, and by default the error message of stderr (its last line
without the FILE:LINE: location, which names each candidate's temporary file). Use
--exact-err, --match-err STR or --ignore-err to change that.

Exit codes:
  0    minimization finished; OUTTRACE holds the result
  1    INTRACE cannot be read or parsed, or OUTTRACE cannot be written
  2    bad command line, or a --z3-lib file that is missing, not a shared library, not a
       libz3, or lacks a Z3 function untrace calls
  3    untrace cannot be started
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
    /// The failing trace (text or binary; the output keeps its format).
    intrace: PathBuf,
    /// Where the minimized trace goes (always the best so far).
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
    /// No summary line.
    #[arg(short, long)]
    quiet: bool,
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
    config.jobs = cli
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    config.passes = Passes {
        remove: !cli.no_remove,
        results: !cli.no_results,
        args: !cli.no_args,
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
    reduce::check_output(&cli.intrace, &cli.outtrace)?;
    let bytes = std::fs::read(&cli.intrace)
        .map_err(|e| EngineError::Io(format!("{}: cannot read: {e}", cli.intrace.display())))?;
    let (entries, format) = trace_io::read(&bytes)
        .map_err(|e| EngineError::Input(format!("{}:{e}", cli.intrace.display())))?;
    let recorded_on = model::trace::parse(&bytes)
        .ok()
        .and_then(|trace| trace.z3_version);
    let lines_before = line_count(&entries);
    let stop = StopFlag::new();
    stop.install_signal_handlers()
        .map_err(|e| EngineError::Io(format!("cannot install signal handlers: {e}")))?;
    let config = config(cli, z3_lib);
    if cli.verbose > 0 {
        // ddtrace does not load Z3 itself: the replays run on --z3-lib, else on the libz3
        // the untrace binary links against.
        match z3_lib
            .cloned()
            .map_or_else(|| z3lib::default_for(&config.untrace), Ok)
        {
            Ok(library) => eprintln!(
                "ddtrace: Z3 {} ({})",
                library.version,
                library.path.display()
            ),
            Err(e) => eprintln!("ddtrace: Z3 unknown: {e}"),
        }
    }
    let done = minimize(&config, entries, format, Some(&cli.outtrace), &stop)?;
    if recorded_on.is_some() {
        // The replays never needed it; the bug report does.
        let bytes = trace_io::render_recorded_on(&done.entries, format, recorded_on.as_deref());
        reduce::write_atomically(&cli.outtrace, &bytes)?;
    }
    if cli.verbose > 0 {
        let g = &done.golden;
        eprintln!(
            "ddtrace: golden replay: exit {}, {} bytes stdout, {} bytes stderr, {:.3} s",
            g.exit,
            g.stdout.len(),
            g.stderr.len(),
            g.duration.as_secs_f64()
        );
        for (pass, s) in &done.stats {
            eprintln!(
                "ddtrace:   {pass:<15} tried {:>5}  replays {:>5}  accepted {:>4}  {:>7.2} s",
                s.tried,
                s.checks,
                s.succeeded,
                s.time.as_secs_f64()
            );
        }
    }
    if !cli.quiet {
        eprintln!(
            "ddtrace: {} -> {} lines, {} replays, {} rounds, {:.2} s",
            lines_before,
            line_count(&done.entries),
            done.replays,
            done.rounds,
            start.elapsed().as_secs_f64()
        );
    }
    Ok(())
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
                    "ddtrace: {e}; {} holds the best trace so far",
                    cli.outtrace.display()
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
