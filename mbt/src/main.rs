//! The `mbt` binary: runs a fuzzing campaign, merges the output folders of shards, records
//! findings across nights and triages them (`mbt db`, `mbt triage`). Exit codes:
//! [`EXIT_HELP`], [`TRIAGE_EXIT_HELP`].

use anyhow::{bail, Context as _};
use clap::{Args, Parser, Subcommand};
use mbt::campaign::{self, CampaignConfig};
use mbt::failure::FailureKind;
use mbt::findings_db::{self, FindingsDb, Status};
use mbt::inject::Inject;
use mbt::interrupt;
use mbt::isolate::{Limits, DEFAULT_MEMOUT_MIB, DEFAULT_TIMEOUT_SECONDS};
use mbt::known::KnownSignatures;
use mbt::options::{why_not_fuzzed, OptionModel, ParamDescr, ParamKind};
use mbt::round_state::{Differential, RoundConfig};
use model::Theory;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;
use untrace::executor::solver_param_descrs;

/// Z3's resource limit per check. A check that reaches it answers unknown, which no oracle can
/// use; at 400,000 such checks were a fifth of all CPU time, and 100,000 cut the CPU per round
/// by a quarter (32.8 -> 24.7 ms, seeds 1..300) while 98% of the definite answers stay
/// definite (seeds 1..500).
const DEFAULT_RLIMIT: u64 = 100_000;

/// Exit codes (and the output folder rule), shown after `--help`.
const EXIT_HELP: &str = "\
Output folder: --out must not hold a campaign already (summary.json, failures/, traces/, or
the mbt.lock of a running or unfinished campaign); such a folder is refused, never mixed.
There is no resume: give each campaign a new folder (mbt merge combines them).

Progress: on a terminal a bar with rounds/s, ETA and findings; otherwise (a CI log) one
status line every --status-interval (default 10 s): UTC time, progress, rate, answers,
findings. -q silences both. The end prints a short summary (--stats: the full tables);
OUT/summary.json holds every figure (docs/json-schemas.md).

Exit codes (campaign and merge):
  0    finished, nothing new found (known failures and timeouts outside limited checks
       do not count)
  1    finished, at least one new failure (see OUT/summary.json, new_failures)
  2    usage or set-up error: bad flags, unreadable --known, an output folder that holds a
       campaign or cannot be written, a --z3-lib file that is missing, not a shared library,
       not a libz3, lacks a Z3 function mbt calls, or is not the one the loader took (a
       missing system libz3 stops the dynamic loader before mbt starts, with the loader's
       own code, 127); a --db file that is not a findings database (not SQLite, another
       application's, a newer schema), checked before the rounds, or a recording into it
       that failed at the end (the results stay in OUT: `mbt db record OUT --db PATH`)
  130  interrupted by SIGINT (Ctrl-C), 143 by SIGTERM: the workers are killed, OUT/summary.json
       holds every finding so far with \"interrupted\": true; a second signal exits at once";
/// Model-based API fuzzer for Z3: random valid call sequences, every round isolated and
/// recorded as a trace that `untrace` replays.
#[derive(Parser, Debug)]
#[command(
    name = "mbt",
    version,
    args_conflicts_with_subcommands = true,
    after_help = EXIT_HELP
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    run: RunArgs,
    /// Run on this libz3 instead of the one mbt was linked against (a source build's
    /// libz3.so, the z3-solver wheel's, Debian's); checked first, exit 2 if unusable. The
    /// replays of --known and --minimize and the reproduce commands use it too.
    #[arg(long, value_name = "PATH", global = true)]
    z3_lib: Option<PathBuf>,
}

/// Exit codes of `mbt triage`, shown after its `--help`.
const TRIAGE_EXIT_HELP: &str = "\
Exit codes:
  0  every finding that was not fixed replays cleanly on this Z3 and is now marked fixed in
     its version (also when there was none to replay)
  1  at least one finding stays open: its replay still fails with its signature, fails
     otherwise (another signature: not verified fixed), or decided nothing (ran past its
     time limit, or ended without a signature)
  2  usage or set-up error: a missing or unusable database (not SQLite, another
     application's, a newer schema), an unusable --z3-lib, a replayer that cannot run";

#[derive(Subcommand, Debug)]
enum Command {
    /// Findings across nights: record a campaign's output folder into a findings database,
    /// list its findings or campaigns, print a stored trace. Exit 0, or 2 on any error.
    Db {
        #[command(subcommand)]
        command: DbCommand,
    },
    /// Replay every finding of the database that is not fixed (its stored trace, minimized
    /// where possible) on this Z3 (--z3-lib PATH, else the linked one): one that passes is
    /// marked fixed in this Z3 version, one that still fails with its signature gets the
    /// version added to "reproduces on"; prints a table.
    #[command(after_help = TRIAGE_EXIT_HELP)]
    Triage {
        /// The findings database.
        #[arg(long, value_name = "PATH")]
        db: PathBuf,
    },
    /// Merge the output folders of many shards into the new folder OUT (deduplicated failures,
    /// summed counts).
    Merge {
        out: PathBuf,
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
    },
    /// Render the self-contained HTML report of a campaign folder (several folders: shards,
    /// merged first) into DIR/report.html or FILE; exit 0 when written, 2 on an error.
    Report {
        #[arg(required = true, value_name = "DIR")]
        dirs: Vec<PathBuf>,
        /// An earlier campaign's folder (e.g. last night's): its findings are not new, and
        /// those not met again are listed.
        #[arg(long, value_name = "DIR")]
        baseline: Option<PathBuf>,
        /// Where to write the page (default DIR/report.html; required with several folders).
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// The findings database of the nightly campaigns (`--db`): the page shows each
        /// finding's history across nights.
        #[arg(long, value_name = "PATH")]
        db: Option<PathBuf>,
    },
    /// Replay a trace as `untrace` does: the same options, exit codes and signature line (the
    /// replayer of --minimize, --known, triage and the commands in failure folders).
    #[command(after_help = untrace::cli::EXIT_CODES)]
    Replay(untrace::cli::ReplayArgs),
    /// Check that the loaded Z3 types every operation as the API model does (each operation
    /// on constants of sample sorts): exit 0 when they agree, else 1 with one line per
    /// disagreement (a campaign leaves those operations out).
    Typing,
    /// List the solver parameters the option model reads from Z3 and whether it fuzzes them.
    Params {
        /// As JSON (name, kind, documentation), as a differential campaign reads them from
        /// the other libz3.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Subcommand, Debug)]
enum DbCommand {
    /// Record the finished campaign in the output folder OUT (a merged one too); recording a
    /// folder again replaces what it recorded before.
    Record {
        out: PathBuf,
        /// The findings database (created when missing).
        #[arg(long, value_name = "PATH")]
        db: PathBuf,
    },
    /// List the findings, the most recently seen first: status, kind, nights and rounds seen,
    /// first and last seen, the Z3 versions it reproduces on, the version it was fixed in.
    List {
        /// The findings database.
        #[arg(long, value_name = "PATH")]
        db: PathBuf,
        /// Only findings of this status.
        #[arg(long, value_enum)]
        status: Option<Status>,
        /// As JSON (every field, with the campaigns, signatures and triage replays).
        #[arg(long)]
        json: bool,
    },
    /// List the recorded campaigns (nights), the latest first: start, end, Z3 version,
    /// rounds, findings, findings first seen there, output folder.
    Campaigns {
        /// The findings database.
        #[arg(long, value_name = "PATH")]
        db: PathBuf,
        /// As JSON (with the command lines).
        #[arg(long)]
        json: bool,
    },
    /// Print the trace stored for finding ID (its id in `mbt db list`) to stdout.
    Trace {
        id: i64,
        /// The findings database.
        #[arg(long, value_name = "PATH")]
        db: PathBuf,
    },
}

#[derive(Args, Debug)]
struct RunArgs {
    /// Number of rounds (default 1000 unless --time is given).
    #[arg(long)]
    rounds: Option<u64>,
    /// Stop starting rounds after this long: seconds (`3600`) or a duration such as `90s`,
    /// `30m`, `8h`, `1h30m`.
    #[arg(long, value_name = "DURATION", value_parser = progress::parse_duration)]
    time: Option<Duration>,
    /// Seed of the first round (default: from the clock, printed).
    #[arg(long)]
    seed: Option<u64>,
    /// Rounds run in parallel (default: the number of cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// Output folder; must not hold a campaign (see below).
    #[arg(long, default_value = "mbt-out")]
    out: PathBuf,
    /// Known failures: a file of signatures (one a line, `#` comments, e.g. the output of
    /// `mbt db list`'s signatures) or a folder searched for failure.json files (earlier
    /// campaigns' output folders), *.trace/*.btrace files and Z3 API logs of any name (files
    /// that start with a log's `V "..."` line), each replayed once (e.g. traces/regress,
    /// traces/logs); or one trace or log. Findings with a known signature are known, not new;
    /// with --db the database's findings that are not fixed are known too.
    #[arg(long, value_name = "PATH")]
    known: Option<PathBuf>,
    /// Comma-separated theories: core,arith,bv,array,uf,fp,strings,regex,quant,datatypes (default: all).
    #[arg(long, value_delimiter = ',')]
    theories: Option<Vec<String>>,
    /// Do not fuzz solver and global parameters (solver kinds are still chosen at random).
    #[arg(long)]
    no_option_fuzzing: bool,
    /// Do not check models with the independent evaluator (only with Z3's model_eval).
    #[arg(long)]
    no_independent_check: bool,
    /// Do not count the Z3 functions the rounds call (`summary.json`'s `z3_functions` and
    /// `api_coverage`, the report's "Z3's C API"). Counting keeps Z3's API log open in every
    /// round, which writes and flushes each line of each call: about a tenth of a round's CPU
    /// (bench/README.md). The rounds themselves are the same either way.
    #[arg(long)]
    no_api_coverage: bool,
    /// Which solvers shadow clones translate: `all`, or `cheap` (not the default solver nor
    /// logic ALL, whose translate takes about 0.9 s in Z3 5.x). Default: measured on the
    /// loaded Z3 at start (`cheap` when one such translate takes over 200 ms of CPU time); recorded in the
    /// rerun commands, so a round stays a function of its seed and flags.
    #[arg(long, value_parser = ["all", "cheap"])]
    shadows: Option<String>,
    /// Time limit per round in seconds of CPU time; one call may take half of it. A round
    /// killed at a limit is a finding only when a check under Z3's rlimit ran past its half;
    /// otherwise it is counted in summary.json (timeouts_not_findings).
    #[arg(long, default_value_t = DEFAULT_TIMEOUT_SECONDS, value_name = "SECONDS")]
    timeout: f64,
    /// Memory limit per round in MiB (0: none).
    #[arg(long, default_value_t = DEFAULT_MEMOUT_MIB, value_name = "MIB")]
    memout: u64,
    /// Z3 resource limit per check (deterministic, unlike a time limit).
    #[arg(long, default_value_t = DEFAULT_RLIMIT)]
    rlimit: u64,
    /// Run shard K of N (0-based): the seed space is split so shards never repeat rounds.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Differential: run every round that passes again on this second libz3, in a process of
    /// its own (`untrace --z3-lib PATH --answers-only`). A definite check answer that differs,
    /// or a Z3 error, failed check or crash on it alone, is a `version-diff` finding; unknowns
    /// and its timeouts are counted in summary.json (stats.differential), not findings.
    #[arg(long, value_name = "PATH", conflicts_with = "cross_check")]
    diff_lib: Option<PathBuf>,
    /// Differential: run this solver command (e.g. `cvc5 --incremental`, `z3 -smt2`; split
    /// into words, never run by a shell) on the standard SMT-LIB script of every round that
    /// passes, appended as its last argument. A definite check answer that differs from
    /// Z3's is a `solver-diff` finding; the solver's `unsupported`, errors, unknowns and
    /// timeouts are counted in summary.json, not findings.
    #[arg(long, value_name = "CMD")]
    cross_check: Option<String>,
    /// Keep the trace of every round under OUT/traces/.
    #[arg(long)]
    keep_all: bool,
    /// Minimize every unique new failure that an untrace replay reproduces with ddtrace, after
    /// the rounds, into failures/ID/min.trace; failures whose signatures agree after
    /// minimization are merged into one.
    #[arg(long)]
    minimize: bool,
    /// With --minimize: the time all minimizations may take together, shared out evenly
    /// among the findings left (a finding's best trace so far is kept when its share runs
    /// out); seconds or a duration such as `10m`.
    #[arg(long, value_name = "DURATION", value_parser = progress::parse_duration,
          default_value = "10m", requires = "minimize")]
    minimize_time: Duration,
    /// With --minimize: only the findings of these kinds (comma-separated, e.g.
    /// `crash,z3-error`: minimize the crashes of a long night first, or leave out timeouts,
    /// whose every replay takes the limit); the others keep their round's trace.
    #[arg(long, value_name = "KINDS", value_delimiter = ',', value_parser = parse_failure_kind,
          requires = "minimize")]
    minimize_kinds: Vec<FailureKind>,
    /// No progress: neither the bar (stderr a terminal) nor the status lines (otherwise).
    #[arg(long, short)]
    quiet: bool,
    /// When stderr is not a terminal (a CI log), print a status line this often: seconds or
    /// a duration such as `30s`, `5m`.
    #[arg(long, value_name = "DURATION", value_parser = progress::parse_duration,
          default_value = "10")]
    status_interval: Duration,
    /// At the end, print the full statistics tables (states, actions, calls, checks, oracles)
    /// and every finding, instead of the short summary (summary.json holds them either way).
    #[arg(long)]
    stats: bool,
    /// Record the findings into this findings database at the end (also of an interrupted
    /// campaign): one SQLite file shared by every night's campaign (created when missing,
    /// checked before the rounds). See `mbt db` and `mbt triage`.
    #[arg(long, value_name = "PATH")]
    db: Option<PathBuf>,
}

/// A failure kind by its name (`crash`, `model`, ...), as summary.json writes it.
fn parse_failure_kind(name: &str) -> anyhow::Result<FailureKind> {
    FailureKind::from_name(name).with_context(|| {
        let names: Vec<&str> = FailureKind::ALL.iter().map(|k| k.name()).collect();
        format!("no failure kind `{name}` (kinds: {})", names.join(", "))
    })
}

fn parse_shard(text: &str) -> anyhow::Result<(u64, u64)> {
    let (k, n) = text
        .split_once('/')
        .context("--shard expects K/N, e.g. 0/4")?;
    let (k, n): (u64, u64) = (
        k.parse().context("--shard K")?,
        n.parse().context("--shard N")?,
    );
    if n == 0 || k >= n {
        bail!("--shard {text}: need 0 <= K < N");
    }
    Ok((k, n))
}

/// Runs the campaign `args` describes; the exit code says whether it found something new.
fn campaign(args: RunArgs) -> anyhow::Result<ExitCode> {
    let mut round_flags = Vec::new();
    let theories = match &args.theories {
        Some(names) => {
            let mut theories = Vec::new();
            for name in names {
                theories.push(Theory::from_name(name).with_context(|| {
                    format!(
                        "unknown theory `{name}` (core, arith, bv, array, uf, fp, strings, regex)"
                    )
                })?);
            }
            round_flags.push(format!("--theories {}", names.join(",")));
            theories
        }
        None => Theory::ALL.to_vec(),
    };
    if args.no_option_fuzzing {
        round_flags.push("--no-option-fuzzing".into());
    }
    if args.no_independent_check {
        round_flags.push("--no-independent-check".into());
    }
    if args.rlimit != DEFAULT_RLIMIT {
        round_flags.push(format!("--rlimit {}", args.rlimit));
    }
    let differential = differential(&args, &mut round_flags)?;
    let translate_default = match args.shadows.as_deref() {
        Some(choice) => choice == "all",
        // The other Z3 may be slow at it (5.x: 0.9 s a translate).
        None if args.diff_lib.is_some() => false,
        None => {
            let cost = untrace::executor::default_translate_cost();
            let fast = cost < Duration::from_millis(200);
            if !fast {
                eprintln!(
                    "mbt: translating a default solver takes {:.2} s on this Z3: shadow clones \
                     only of solvers for a logic and from a tactic (--shadows all to change)",
                    cost.as_secs_f64()
                );
            }
            fast
        }
    };
    round_flags.push(format!(
        "--shadows {}",
        if translate_default { "all" } else { "cheap" }
    ));
    // A round is a function of its seed and of the Z3 it runs on.
    if let Some(library) = z3lib::applied() {
        let path = library.path.to_string_lossy();
        round_flags.push(format!("--z3-lib {}", mbt::summary::shell_word(&path)));
    }
    // The limits decide whether a round times out or runs out of memory: a rerun needs them.
    if args.timeout != DEFAULT_TIMEOUT_SECONDS {
        round_flags.push(format!("--timeout {}", args.timeout));
    }
    if args.memout != DEFAULT_MEMOUT_MIB {
        round_flags.push(format!("--memout {}", args.memout));
    }
    let inject = Inject::from_env().map_err(anyhow::Error::msg)?;
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_secs())
    });
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let rounds = match (args.rounds, args.time) {
        (None, None) => Some(1000),
        (r, _) => r,
    };
    // Checked here: a Duration from a negative, NaN or huge number panics.
    let seconds = |flag: &str, value: f64| -> anyhow::Result<Duration> {
        Duration::try_from_secs_f64(value)
            .ok()
            .filter(|d| !d.is_zero())
            .with_context(|| format!("{flag} must be a positive number of seconds, not {value}"))
    };
    let timeout = seconds("--timeout", args.timeout)?;
    let shard = args
        .shard
        .as_deref()
        .map(parse_shard)
        .transpose()?
        .unwrap_or((0, 1));
    // Claimed after the flags are checked (a usage error creates no folder) and before the
    // --known replays (a refused folder must not wait for them).
    // From here on a signal stops the campaign cleanly (no stale lock), even before it starts.
    interrupt::install().context("cannot install the SIGINT/SIGTERM handlers")?;
    // A usage error creates nothing: --known must exist before the database or the output
    // folder is created (it is replayed only after the folder is claimed).
    if let Some(path) = &args.known {
        std::fs::metadata(path).with_context(|| {
            format!(
                "--known {}: a file of signatures or a folder of earlier campaigns and traces",
                path.display()
            )
        })?;
    }
    // Checked (and created) before the rounds, closed while they run: the workers fork. Its
    // findings that are not fixed are known: "new" means new to the database too.
    let (mut db_known, mut db_unminimized) = (Vec::new(), Vec::new());
    if let Some(path) = &args.db {
        let db = FindingsDb::open(path, true)?;
        db_known = db.open_signatures()?;
        db_unminimized = db.unminimized_signatures()?;
        if args.shard.is_some() {
            eprintln!(
                "mbt: warning: --db with --shard records this shard as a night of its own; \
                 record the merged folder instead (mbt merge, then mbt db record)"
            );
        }
    }
    let out_lock = mbt::summary::OutLock::claim(&args.out)?;
    let mut known = match &args.known {
        Some(path) => KnownSignatures::load(path)?,
        None => KnownSignatures::default(),
    };
    known.extend(db_known);
    // Read in the parent before any fork, so that every child sees the same option model.
    let mut descrs = solver_param_descrs();
    if let Some(path) = &args.diff_lib {
        // Parameters one version lacks or types differently are refused there: no finding.
        let other = other_param_descrs(path)?;
        let before = descrs.len();
        descrs.retain(|d| other.iter().any(|o| same_param(d, o)));
        eprintln!(
            "mbt: differential: fuzzing the {} of {before} solver parameters both Z3s know alike",
            descrs.len()
        );
    }
    let options = OptionModel::new(&descrs);
    let cfg = CampaignConfig {
        rounds,
        time: args.time,
        seed,
        jobs,
        out: args.out.clone(),
        keep_all: args.keep_all,
        shard,
        limits: Limits {
            timeout,
            memout_mb: args.memout,
        },
        round: RoundConfig {
            theories,
            option_fuzzing: !args.no_option_fuzzing,
            options: Arc::new(options),
            rlimit: args.rlimit,
            inject,
            independent: !args.no_independent_check,
            translate_default,
            differential,
            left_out_ops: ops_typed_otherwise(),
            count_z3_functions: !args.no_api_coverage,
        },
        round_flags,
        quiet: args.quiet,
        status_interval: args.status_interval,
        minimize: args.minimize,
        minimize_time: args.minimize_time,
        minimize_kinds: args.minimize_kinds.clone(),
        known,
        unminimized_known: db_unminimized.into_iter().collect(),
    };
    eprintln!(
        "mbt: Z3 {}, seed {seed}, {jobs} jobs, {} known signatures, output in {}",
        campaign::z3_version(),
        cfg.known.len(),
        args.out.display()
    );
    let started = findings_db::unix_now();
    let summary = campaign::run(&cfg, out_lock)?;
    if args.stats {
        print!("{}", summary.report());
    } else {
        print!("{}", summary.brief(&args.out));
    }
    if let Some(path) = &args.db {
        let run = findings_db::CampaignRun {
            started,
            ended: findings_db::unix_now(),
            command: Some(findings_db::command_line()),
        };
        let recorded = FindingsDb::open(path, true)
            .and_then(|mut db| db.record(&args.out, &summary, &run))
            .with_context(|| {
                format!(
                    "the results are in {0}; record them with `mbt db record {0} --db {1}`",
                    args.out.display(),
                    path.display()
                )
            })?;
        report_recorded(path, &recorded);
        // The report written at the end of the rounds is written again with the history of
        // the findings across nights, now that this night is in it.
        match findings_db::History::load(path) {
            Ok(history) => mbt::report::write_beside(&args.out, &summary, Some(&history), true),
            Err(e) => eprintln!("mbt: warning: report without history: {e:#}"),
        }
    }
    Ok(match interrupt::requested() {
        Some(signal) if summary.interrupted => ExitCode::from(interrupt::exit_code(signal)),
        _ => findings_exit_code(&summary),
    })
}

/// The operations the loaded Z3 types otherwise than the model, each disagreement printed,
/// and those whose constructor only newer releases have where it lacks it.
fn ops_typed_otherwise() -> Vec<&'static str> {
    let mut ops = Vec::new();
    for d in untrace::executor::typing::probe() {
        // An operation only newer releases can build is left out silently where the loaded
        // libz3 is older: no disagreement of the model's.
        if untrace::executor::ops::op_available(d.op) {
            eprintln!(
                "mbt: left out, Z3 {} types it otherwise: {d}",
                campaign::z3_version()
            );
        }
        if !ops.contains(&d.op) {
            ops.push(d.op);
        }
    }
    for op in untrace::executor::ops::ops_without_constructor() {
        if !ops.contains(&op) {
            ops.push(op);
        }
    }
    ops
}

/// The other side of a differential campaign (`--diff-lib`, `--cross-check`), with its flag
/// for the rerun commands.
fn differential(
    args: &RunArgs,
    round_flags: &mut Vec<String>,
) -> anyhow::Result<Option<Differential>> {
    use untrace::differential::Other;
    let other = match (&args.diff_lib, &args.cross_check) {
        (Some(path), _) => Other::library(path),
        (_, Some(command)) => Other::solver(command),
        _ => return Ok(None),
    }
    .map_err(anyhow::Error::msg)?;
    let words: Vec<String> = other
        .untrace_args()
        .iter()
        .map(|a| mbt::summary::shell_word(&a.to_string_lossy()))
        .collect();
    round_flags.push(words.join(" "));
    eprintln!(
        "mbt: differential: every round that passes runs again on {}",
        other.name()
    );
    Ok(Some(Differential {
        other,
        replayer: untrace::cli::replayer(),
    }))
}

/// The solver parameter descriptions of the libz3 at `path` (`mbt --z3-lib PATH params
/// --json` in a process of its own).
fn other_param_descrs(path: &std::path::Path) -> anyhow::Result<Vec<ParamDescr>> {
    let exe = std::env::current_exe().context("cannot find the mbt binary")?;
    let output = std::process::Command::new(exe)
        .args(["params", "--json", "--z3-lib"])
        .arg(path)
        .stdin(std::process::Stdio::null())
        .output()
        .context("cannot run mbt params on the --diff-lib library")?;
    if !output.status.success() {
        bail!(
            "{}: cannot read its parameters: {}",
            path.display(),
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    serde_json::from_slice(&output.stdout)
        .with_context(|| format!("{}: unreadable parameter list", path.display()))
}

/// Whether two Z3 versions know a parameter alike: name and kind, and for a symbol the same
/// documentation (which lists its values).
fn same_param(a: &ParamDescr, b: &ParamDescr) -> bool {
    a.name == b.name && a.kind == b.kind && (a.kind != ParamKind::Symbol || a.doc == b.doc)
}

/// The line that says what recording a campaign into the findings database at `path` did.
fn report_recorded(path: &std::path::Path, recorded: &findings_db::Recorded) {
    eprintln!(
        "mbt: recorded {} findings into {} ({} not seen in an earlier night, {} fixed before and seen again)",
        recorded.findings,
        path.display(),
        recorded.new,
        recorded.reopened
    );
}

/// Writes `bytes` to stdout; a reader that went away (`mbt db list | head`) is no error.
fn write_stdout(bytes: &[u8]) -> anyhow::Result<()> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}

/// `mbt db ...`.
fn db_command(command: DbCommand) -> anyhow::Result<ExitCode> {
    match command {
        DbCommand::Record { out, db } => {
            let recorded = findings_db::record_folder(&mut FindingsDb::open(&db, true)?, &out)?;
            report_recorded(&db, &recorded);
        }
        DbCommand::List { db, status, json } => {
            let mut rows = FindingsDb::open(&db, false)?.history()?;
            rows.retain(|r| status.is_none_or(|s| r.status == s));
            let text = match json {
                true => serde_json::to_string_pretty(&rows)? + "\n",
                false => findings_db::table(&rows),
            };
            write_stdout(text.as_bytes())?;
        }
        DbCommand::Campaigns { db, json } => {
            let campaigns = FindingsDb::open(&db, false)?.campaigns()?;
            let text = match json {
                true => serde_json::to_string_pretty(&campaigns)? + "\n",
                false => findings_db::campaigns_table(&campaigns),
            };
            write_stdout(text.as_bytes())?;
        }
        DbCommand::Trace { id, db } => {
            let (_, trace) = FindingsDb::open(&db, false)?.trace(id)?;
            write_stdout(&trace)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `mbt triage --db PATH`: replays the findings that are not fixed on the loaded Z3.
fn triage_command(db: &std::path::Path) -> anyhow::Result<ExitCode> {
    let mut db = FindingsDb::open(db, false)?;
    let version = campaign::z3_version();
    let triaged = mbt::triage::triage(&mut db, &version)?;
    write_stdout(mbt::triage::table(&triaged, &version).as_bytes())?;
    let all_fixed = (triaged.iter()).all(|t| t.result == findings_db::ReplayResult::Passes);
    Ok(ExitCode::from(u8::from(!all_fixed)))
}

/// 1 when `summary` holds a new failure, else 0.
fn findings_exit_code(summary: &mbt::summary::Summary) -> ExitCode {
    if summary.new_failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn main() -> ExitCode {
    untrace::cli::set_replayer_prefix(&["replay"]);
    let cli = Cli::parse();
    // First, before anything touches Z3: these may re-execute mbt, a campaign with huge pages
    // for its heap (kept through the library's re-exec), then on the library.
    if cli.command.is_none() {
        mbt::huge_pages::reexec_with_huge_pages();
    }
    if let Some(path) = &cli.z3_lib {
        if let Err(e) = z3lib::run_on(path) {
            eprintln!("mbt: {e}");
            return ExitCode::from(2);
        }
    }
    mbt::huge_pages::restore_environment();
    let result = match cli.command {
        Some(Command::Merge { out, dirs }) => mbt::merge::merge(&out, &dirs).map(|s| {
            print!("{}", s.brief(&out));
            findings_exit_code(&s)
        }),
        Some(Command::Db { command }) => db_command(command),
        Some(Command::Triage { db }) => triage_command(&db),
        Some(Command::Report {
            dirs,
            baseline,
            output,
            db,
        }) => db
            .as_deref()
            .map(findings_db::History::load)
            .transpose()
            .and_then(|history| {
                mbt::report::run(
                    &dirs,
                    baseline.as_deref(),
                    output.as_deref(),
                    history.as_ref(),
                )
            })
            .map(|path| {
                eprintln!("mbt: report in {}", path.display());
                ExitCode::SUCCESS
            }),
        Some(Command::Replay(args)) => return untrace::cli::run(args),
        Some(Command::Typing) => {
            let found: Vec<_> = untrace::executor::typing::probe()
                .into_iter()
                .filter(|d| untrace::executor::ops::op_available(d.op))
                .collect();
            for d in &found {
                println!("{d}");
            }
            eprintln!(
                "mbt: Z3 {}: {}",
                campaign::z3_version(),
                if found.is_empty() {
                    "every operation is typed as the model types it".to_string()
                } else {
                    format!("{} applications typed otherwise", found.len())
                }
            );
            Ok(ExitCode::from(u8::from(!found.is_empty())))
        }
        Some(Command::Params { json: true }) => serde_json::to_string(&solver_param_descrs())
            .map(|json| {
                println!("{json}");
                ExitCode::SUCCESS
            })
            .map_err(anyhow::Error::from),
        Some(Command::Params { json: false }) => {
            for d in solver_param_descrs() {
                let note = why_not_fuzzed(&d)
                    .map_or(String::new(), |why| format!("  (not fuzzed: {why})"));
                println!("{:<40} {:?}{note}", d.name, d.kind);
            }
            Ok(ExitCode::SUCCESS)
        }
        None => campaign(cli.run),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("mbt: {e:#}");
            ExitCode::from(2)
        }
    }
}
