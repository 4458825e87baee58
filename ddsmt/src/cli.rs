//! The `ddsmt` command line, compatible with ddSMT 2:
//! `ddsmt [options] INFILE OUTFILE CMD [CMD options]`.
//!
//! [`command`] builds the clap command; the `--[no-]MUTATOR` and `--[no-]GROUP` flags are
//! generated at run time from [`crate::mutators::registry`]. [`Options::from_matches`] turns
//! the parsed arguments into plain [`Options`]; [`enabled_mutators`] applies the flags and the
//! automatic theory detection to the registry.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use clap::{value_parser, Arg, ArgAction, ArgMatches, Command};

use crate::mutators::{Group, Mutator};
use crate::strategies::Strategy;
use reduce::{CommandLine, Matching, PropertySpec};

/// Text of `--help` after the option list: exit codes and notes.
pub const AFTER_HELP: &str = "\
Exit codes:
  0    reduction finished; OUTFILE holds the result
  1    INFILE cannot be read or parsed, or OUTFILE cannot be written
  2    bad command line
  3    CMD (or the cross-check command) cannot be started
  130  interrupted by SIGINT (Ctrl-C); OUTFILE holds the best result so far
  143  interrupted by SIGTERM; likewise

Progress: on a terminal a bar; otherwise one status line every --status-interval (UTC time,
checks, size against the input, reduction, rate). -q silences it and the summary.

CMD and its options are run as an argument vector (no shell), with the candidate file
appended as the last argument. The cross-check command of -c is split at whitespace.
A second Ctrl-C exits at once (OUTFILE is still a complete earlier result).";

/// Everything the command line says, as plain data.
#[derive(Clone, Debug)]
pub struct Options {
    pub infile: PathBuf,
    pub outfile: PathBuf,
    pub primary: PropertySpec,
    pub cross_check: Option<PropertySpec>,
    pub verbosity: i32,
    pub strategy: Strategy,
    pub jobs: usize,
    pub memout_mb: Option<u64>,
    pub unchecked: bool,
    pub parser_test: bool,
    pub pretty_print: bool,
    pub wrap_lines: bool,
    pub dump_diffs: bool,
    pub check_loops: bool,
    /// Where `--json` writes the result (docs/json-schemas.md).
    pub json: Option<PathBuf>,
    /// How often a status line is printed when stderr is not a terminal.
    pub status_interval: Duration,
}

fn flag(name: &'static str, help: impl Into<String>) -> Arg {
    Arg::new(name)
        .long(name)
        .action(ArgAction::SetTrue)
        .help(help.into())
}

fn seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v.is_finite() => Ok(v),
        _ => Err(format!("'{s}' is not a positive number of seconds")),
    }
}

/// A `--[no-]NAME` pair; the last one given wins.
fn toggle(cmd: Command, name: &'static str, help: &'static str, heading: &'static str) -> Command {
    let no: &'static str = Box::leak(format!("no-{name}").into_boxed_str());
    cmd.arg(
        flag(name, format!("enable: {help}"))
            .overrides_with(no)
            .help_heading(heading),
    )
    .arg(
        flag(no, format!("disable: {help}"))
            .overrides_with(name)
            .help_heading(heading),
    )
}

/// The clap command with one `--[no-]` pair per group and per mutator of `mutators`.
pub fn command(mutators: &[Box<dyn Mutator>]) -> Command {
    let default_jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut cmd = Command::new("ddsmt")
        .version(env!("CARGO_PKG_VERSION"))
        .about("Minimize an SMT-LIB v2 input while CMD keeps behaving as on the original (ddSMT 2 compatible)")
        .override_usage("ddsmt [options] INFILE OUTFILE CMD [CMD options]")
        .after_help(AFTER_HELP)
        .arg(Arg::new("infile").required(true).value_parser(value_parser!(PathBuf)).help("the input file (SMT-LIB v2)"))
        .arg(Arg::new("outfile").required(true).value_parser(value_parser!(PathBuf)).help("the output file"))
        .arg(
            Arg::new("cmd")
                .required(true)
                .num_args(1..)
                .trailing_var_arg(true)
                .allow_hyphen_values(true)
                .value_parser(value_parser!(OsString))
                .help("the command (with optional arguments)"),
        )
        .arg(Arg::new("verbose").short('v').action(ArgAction::Count).help("increase verbosity"))
        .arg(Arg::new("quiet").short('q').action(ArgAction::Count).help("decrease verbosity"))
        .arg(flag("parser-test", "only test the parser: parse INFILE, print it to stdout, exit"))
        .arg(flag("pretty-print", "pretty-print to the output file"))
        .arg(flag("wrap-lines", "wrap lines in the output file"))
        .arg(
            Arg::new("json")
                .long("json")
                .value_name("PATH")
                .value_parser(value_parser!(PathBuf))
                .help("write the result as JSON to PATH: command, times, host, sizes, checks, per-mutator figures (docs/json-schemas.md)"),
        )
        .arg(
            Arg::new("status-interval")
                .long("status-interval")
                .value_name("DURATION")
                .value_parser(progress::parse_duration)
                .default_value("10")
                .help("when stderr is not a terminal, print a status line this often (seconds, or e.g. 30s, 5m); -q: none"),
        )
        .arg(
            Arg::new("strategy")
                .long("strategy")
                .value_parser(["ddmin", "hierarchical", "hybrid"])
                .default_value("hybrid")
                .help("minimization strategy"),
        )
        .arg(flag("disable-all", "disable all mutators (enable some with --MUTATOR or --GROUP)"))
        .arg(
            Arg::new("replace-by-variable-mode")
                .long("replace-by-variable-mode")
                .value_parser(["inc", "dec"])
                .default_value("inc")
                .help("replace-by-variable uses variables with larger (inc) or smaller (dec) names"),
        )
        .next_help_heading("checker arguments")
        .arg(flag("unchecked", "assume every change is okay without checking"))
        .arg(
            Arg::new("jobs")
                .short('j')
                .long("jobs")
                .value_parser(value_parser!(u64).range(1..))
                .help(format!("number of parallel checks (default: number of cores, here {default_jobs})")),
        )
        .arg(Arg::new("memout").long("memout").value_parser(value_parser!(u64).range(1..)).value_name("MB").help("memory limit for each check in megabytes"))
        .arg(Arg::new("timeout").long("timeout").value_parser(seconds).value_name("SECONDS").help("wall-clock timeout for each check (default: a CPU-time limit of 10 x the golden run's CPU time, at least 1 s, with a wall-clock net of at least 10 s)"))
        .arg(flag("ignore-output", "ignore stdout and stderr, only consider the exit code"))
        .arg(flag("ignore-out", "ignore stdout"))
        .arg(flag("ignore-err", "ignore stderr"))
        .arg(Arg::new("match-out").long("match-out").value_name("STR").help("stdout must contain STR (instead of being equal)"))
        .arg(Arg::new("match-err").long("match-err").value_name("STR").help("stderr must contain STR (instead of being equal)"))
        .arg(Arg::new("cross-check").short('c').long("cross-check").value_name("CMD-CC").help("cross-check command that must keep its behaviour too"))
        .arg(Arg::new("timeout-cc").long("timeout-cc").value_parser(seconds).value_name("SECONDS").help("wall-clock timeout for the cross-check (default: CPU-time limit as for --timeout)"))
        .arg(flag("ignore-output-cc", "ignore stdout and stderr of the cross-check"))
        .arg(Arg::new("match-out-cc").long("match-out-cc").value_name("STR").help("stdout of the cross-check must contain STR"))
        .arg(Arg::new("match-err-cc").long("match-err-cc").value_name("STR").help("stderr of the cross-check must contain STR"))
        .next_help_heading("debug arguments")
        .arg(flag("check-loops", "report candidates rejected because they would re-enter an earlier result"))
        .arg(flag("dump-diffs", "print a diff of every accepted simplification to stderr"));

    let mut taken: BTreeSet<String> = cmd
        .get_arguments()
        .filter_map(|a| a.get_long().map(str::to_string))
        .collect();
    for group in Group::ALL {
        let heading: &'static str =
            Box::leak(format!("{} mutator arguments", group.name()).into_boxed_str());
        if taken.insert(group.name().to_string()) {
            cmd = toggle(cmd, group.name(), "all mutators of this theory", heading);
        }
        for m in mutators.iter().filter(|m| m.group() == group) {
            // Names are unique in the registry; a clash with another flag is skipped rather
            // than turned into a clap panic.
            if taken.insert(m.name().to_string()) && !taken.contains(&format!("no-{}", m.name())) {
                cmd = toggle(cmd, m.name(), m.help(), heading);
            }
        }
    }
    cmd
}

impl Options {
    /// Plain options from parsed arguments. Errors are one-line messages (exit code 2).
    pub fn from_matches(m: &ArgMatches) -> Result<Options, String> {
        let argv: Vec<OsString> = m
            .get_many::<OsString>("cmd")
            .into_iter()
            .flatten()
            .cloned()
            .collect();
        let command = CommandLine::from_argv(argv).ok_or("missing CMD")?;
        let secs = |name: &str| m.get_one::<f64>(name).map(|s| Duration::from_secs_f64(*s));
        let text = |name: &str| m.get_one::<String>(name).cloned();
        let ignore_output = m.get_flag("ignore-output");
        let primary = PropertySpec {
            command,
            matching: Matching {
                ignore_out: ignore_output || m.get_flag("ignore-out"),
                ignore_err: ignore_output || m.get_flag("ignore-err"),
                match_out: text("match-out"),
                match_err: text("match-err"),
            },
            timeout: secs("timeout"),
        };
        let cross_check = match text("cross-check") {
            None => None,
            Some(cc) => {
                let command = CommandLine::from_argv(cc.split_whitespace())
                    .ok_or("the cross-check command (-c) is empty")?;
                let ignore = m.get_flag("ignore-output-cc");
                Some(PropertySpec {
                    command,
                    matching: Matching {
                        ignore_out: ignore,
                        ignore_err: ignore,
                        match_out: text("match-out-cc"),
                        match_err: text("match-err-cc"),
                    },
                    timeout: secs("timeout-cc"),
                })
            }
        };
        let strategy = match m.get_one::<String>("strategy").map(String::as_str) {
            Some("ddmin") => Strategy::Ddmin,
            Some("hierarchical") => Strategy::Hierarchical,
            _ => Strategy::Hybrid,
        };
        Ok(Options {
            infile: m
                .get_one::<PathBuf>("infile")
                .cloned()
                .ok_or("missing INFILE")?,
            outfile: m
                .get_one::<PathBuf>("outfile")
                .cloned()
                .ok_or("missing OUTFILE")?,
            primary,
            cross_check,
            verbosity: i32::from(m.get_count("verbose")) - i32::from(m.get_count("quiet")),
            strategy,
            jobs: match m.get_one::<u64>("jobs") {
                Some(&j) => usize::try_from(j).unwrap_or(usize::MAX),
                None => std::thread::available_parallelism().map_or(1, |n| n.get()),
            },
            memout_mb: m.get_one::<u64>("memout").copied(),
            unchecked: m.get_flag("unchecked"),
            parser_test: m.get_flag("parser-test"),
            pretty_print: m.get_flag("pretty-print"),
            wrap_lines: m.get_flag("wrap-lines"),
            dump_diffs: m.get_flag("dump-diffs"),
            check_loops: m.get_flag("check-loops"),
            json: m.get_one::<PathBuf>("json").cloned(),
            status_interval: m
                .get_one::<Duration>("status-interval")
                .copied()
                .unwrap_or(progress::DEFAULT_STATUS_INTERVAL),
        })
    }
}

/// Whether the flag `name` was given on the command line (not defaulted).
fn given(m: &ArgMatches, name: &str) -> bool {
    m.try_get_one::<bool>(name)
        .ok()
        .flatten()
        .copied()
        .unwrap_or(false)
}

/// Which mutators run, and the groups switched off automatically (for the -v warning).
///
/// Precedence, most specific first: `--MUTATOR` / `--no-MUTATOR` (the last given wins), then
/// `--GROUP` / `--no-GROUP`, then `--disable-all`, then automatic detection (a group the
/// input does not use is off).
pub fn enabled_mutators<'a>(
    m: &ArgMatches,
    registry: &'a [Box<dyn Mutator>],
    detected: &BTreeSet<Group>,
) -> (Vec<&'a dyn Mutator>, Vec<Group>) {
    let disable_all = m.get_flag("disable-all");
    let group_state = |g: Group| -> Option<bool> {
        if given(m, g.name()) {
            Some(true)
        } else if given(m, &format!("no-{}", g.name())) {
            Some(false)
        } else {
            None
        }
    };
    let auto_off: Vec<Group> = Group::ALL
        .into_iter()
        .filter(|g| !detected.contains(g) && group_state(*g).is_none() && !disable_all)
        .collect();
    let enabled = registry
        .iter()
        .filter(|mu| {
            if given(m, mu.name()) {
                return true;
            }
            if given(m, &format!("no-{}", mu.name())) {
                return false;
            }
            match group_state(mu.group()) {
                Some(on) => on,
                None => !disable_all && detected.contains(&mu.group()),
            }
        })
        .map(|b| b.as_ref())
        .collect();
    (enabled, auto_off)
}
