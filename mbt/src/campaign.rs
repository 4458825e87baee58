//! A campaign: many rounds in forked worker processes ([`crate::isolate`]), `--jobs` workers
//! at a time, each running a batch of consecutive rounds, from a single-threaded parent.
//! Failures are deduplicated by signature and each unique one is saved once under
//! `OUT/failures/<kind>-<hash>/` with its trace, the files the round wrote, and
//! `failure.json` ([`FailureEntry`]: the report, with the commands that reproduce it);
//! `--keep-all` keeps every trace under `OUT/traces/`. Progress shows live (a bar on a
//! terminal, status lines in a log: the `progress` crate); the end writes `OUT/summary.json`
//! ([`Summary`], with the [`Timeline`] of the campaign) and the HTML report `OUT/report.html`
//! ([`crate::report`]), also when interrupted, and prints a short summary
//! ([`Summary::brief`]) or, with `--stats`, the statistics tables and every finding
//! ([`Summary::report`]).
//!
//! A campaign owns its output folder ([`OutLock`]: a folder that holds another campaign is
//! refused), leaves nothing elsewhere (rounds run in private folders under a scratch folder
//! that is removed), and stops cleanly on SIGINT/SIGTERM ([`crate::interrupt`]): the workers
//! are killed and the findings so far written, with `"interrupted": true`.

use crate::failure::{Failure, FailureKind};
use crate::inject::{self, Inject, InjectKind};
use crate::interrupt;
use crate::isolate::{self, Finished, Limits, Worker};
use crate::known::KnownSignatures;
use crate::minimize;
use crate::report;
use crate::round_state::RoundConfig;
use crate::stats::{Count, Stats};
use crate::timeline::{Sample, Timeline};
use anyhow::{bail, Context as _};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How a campaign runs.
#[derive(Clone)]
pub struct CampaignConfig {
    pub rounds: Option<u64>,
    pub time: Option<Duration>,
    pub seed: u64,
    pub jobs: usize,
    pub out: PathBuf,
    pub keep_all: bool,
    /// `(K, N)`: this shard runs the rounds whose index is K modulo N.
    pub shard: (u64, u64),
    pub limits: Limits,
    pub round: RoundConfig,
    /// The flags that select the round configuration, for the rerun command.
    pub round_flags: Vec<String>,
    /// No progress display (`-q`).
    pub quiet: bool,
    /// How often a status line is printed when stderr is not a terminal.
    pub status_interval: Duration,
    /// Minimize every unique new failure with ddtrace after the rounds ([`crate::minimize`]).
    pub minimize: bool,
    /// How long all minimizations may take together (`--minimize-time`).
    pub minimize_time: Duration,
    /// Signatures of failures reported before (`--known`): such findings are not new.
    pub known: KnownSignatures,
}

impl CampaignConfig {
    /// How long a worker may take for one round: its time limit, and the differential run
    /// after it.
    pub fn round_wall(&self) -> Duration {
        let side = untrace::differential::SideLimits {
            timeout: self.limits.timeout,
            memout_mb: None,
        };
        match self.round.differential {
            Some(_) => self.limits.timeout + side.longest(),
            None => self.limits.timeout,
        }
    }

    /// The seed of the `i`-th round of this shard: shards split the seed space so that no two
    /// shards of one campaign run the same round, and `--seed S --rounds 1` runs seed S.
    pub fn round_seed(&self, i: u64) -> u64 {
        let (k, n) = self.shard;
        self.seed.wrapping_add(k).wrapping_add(i.wrapping_mul(n))
    }
}

/// One unique failure of the campaign: its `failure.json`. Paths and commands are absolute,
/// so that they work from any folder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FailureEntry {
    /// The folder name under `failures/`.
    pub id: String,
    /// Kind, message and last call of the saved round.
    #[serde(flatten)]
    pub failure: Failure,
    pub signature: String,
    /// The signature was given with `--known`: not a new finding.
    pub known: bool,
    /// How many rounds failed with this signature.
    pub count: u64,
    /// The seed of the saved round (its trace and the rerun command).
    pub seed: u64,
    /// The lowest and highest seed that failed with this signature.
    pub first_seed: u64,
    pub last_seed: u64,
    /// The options the saved round set, in order.
    pub options: Vec<(String, String)>,
    /// The full version of the Z3 the round ran against.
    pub z3_version: String,
    /// The saved round's trace.
    pub trace: PathBuf,
    /// The folder of the files the saved round wrote into its working directory, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub files: Option<PathBuf>,
    /// Reruns the round into a fresh output folder inside this failure's folder.
    pub rerun: String,
    /// Replays the saved trace.
    pub replay: String,
    /// The untrace options the replays of this finding need besides the trace (a differential
    /// finding's `--diff-lib PATH` or `--cross-check CMD`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replay_args: Vec<String>,
    /// `--minimize`: the minimized trace beside the original.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimized_trace: Option<PathBuf>,
    /// `--minimize`: replays the minimized trace.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimized_replay: Option<String>,
    /// `--minimize`: the signature after minimization, by root cause.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimized_signature: Option<String>,
    /// `--minimize`: the line counts, or why the failure was not minimized.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimize_note: Option<String>,
    /// `--minimize`: the ids and signatures of failures with the same signature after
    /// minimization, merged into this one (their folders removed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged_ids: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged_signatures: Vec<String>,
    /// Seconds into the campaign when the first round with this signature finished (the
    /// earliest of the shards' and merged failures'), for the report's findings over time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub found_after: Option<f64>,
}

impl FailureEntry {
    /// Adds the rounds of `other`, a failure of the same bug.
    fn absorb_counts(&mut self, other: &FailureEntry) {
        self.count += other.count;
        self.first_seed = self.first_seed.min(other.first_seed);
        self.last_seed = self.last_seed.max(other.last_seed);
        // One of the rounds is a known bug: so are the others.
        self.known |= other.known;
        self.found_after = match (self.found_after, other.found_after) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
    }

    pub fn write(&self, dir: &Path) -> anyhow::Result<()> {
        let path = dir.join("failure.json");
        let json = serde_json::to_string_pretty(self)?;
        fs::write(&path, json).with_context(|| format!("cannot write {}", path.display()))
    }

    /// Points the entry's paths and commands at `to` instead of `from` (its failure folder was
    /// copied there).
    pub fn relocate(&mut self, from: &Path, to: &Path) {
        let moved = |p: &Path| moved_path(p, from, to);
        // The commands keep their options (limits included): only the paths move.
        let in_command = |command: &str, old: &Path, new: &Path| {
            command.replace(
                &shell_word(&old.to_string_lossy()),
                &shell_word(&new.to_string_lossy()),
            )
        };
        let trace = moved(&self.trace);
        self.replay = in_command(&self.replay, &self.trace, &trace);
        self.trace = trace;
        self.files = self.files.as_deref().map(moved);
        if let Some(old) = self.minimized_trace.take() {
            let new = moved(&old);
            self.minimized_replay =
                (self.minimized_replay.as_deref()).map(|command| in_command(command, &old, &new));
            self.minimized_trace = Some(new);
        }
        self.rerun = in_command(&self.rerun, from, to);
    }
}

/// `path` with its prefix `from` replaced by `to` (unchanged when it is not under `from`).
fn moved_path(path: &Path, from: &Path, to: &Path) -> PathBuf {
    path.strip_prefix(from)
        .map_or_else(|_| path.to_path_buf(), |rest| to.join(rest))
}

/// The version of `summary.json`'s schema (docs/json-schemas.md): raised only when a field is
/// removed, renamed or changes its meaning.
pub const SCHEMA_VERSION: u32 = 1;

/// `summary.json` (docs/json-schemas.md). Readers of older files get defaults for the fields
/// those lack.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Summary {
    /// Schema version, tool, start and end time, command line, host.
    #[serde(flatten)]
    pub run: progress::RunRecord,
    pub rounds: u64,
    pub seconds: f64,
    pub rounds_per_second: f64,
    /// The campaign stopped early on SIGINT or SIGTERM.
    pub interrupted: bool,
    /// The full version of the Z3 the rounds ran against.
    pub z3_version: String,
    /// The libz3 file it was loaded from (a triage replays findings on it to prove them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub z3_lib: Option<String>,
    /// Unique failures, new and known.
    pub failures: usize,
    /// The ids of the unique failures that are new, and of those given with `--known`.
    pub new_failures: Vec<String>,
    pub known_failures: Vec<String>,
    /// Rounds that failed, duplicates included.
    pub failed_rounds: u64,
    /// The seeds of every failed round, sorted.
    pub failed_seeds: Vec<u64>,
    /// Rounds killed at their time limit in a call Z3's rlimit does not bound: a performance
    /// note, not a finding ([`isolate::timeout_is_finding`]), and their seeds, sorted.
    pub timeouts_not_findings: u64,
    pub timeout_seeds: Vec<u64>,
    pub calls_per_round: f64,
    pub checks_per_round: f64,
    pub seed: u64,
    pub shard: (u64, u64),
    /// Per operation and solver action: tried / succeeded.
    pub operations: BTreeMap<String, Count>,
    /// Per operation the independent evaluator cannot judge: the checks it made skip.
    pub unjudged_ops: BTreeMap<String, u64>,
    /// Per theory: the rounds that used its operations.
    pub rounds_per_theory: BTreeMap<String, u64>,
    pub failure_list: Vec<FailureEntry>,
    pub stats: Stats,
    /// Rounds, answers and failed rounds over time, for the report.
    pub timeline: Timeline,
    /// `mbt merge`: the shard folders merged into this summary.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub merged_from: Vec<PathBuf>,
}

impl Summary {
    /// Fills the derived figures from the counts.
    pub fn finish(&mut self) {
        self.rounds_per_second = self.rounds as f64 / self.seconds.max(1e-9);
        self.calls_per_round = self.stats.n_calls() as f64 / self.rounds.max(1) as f64;
        self.checks_per_round = self.stats.n_checks() as f64 / self.rounds.max(1) as f64;
        self.operations = self.stats.calls.clone();
        self.unjudged_ops = self.stats.unjudged_ops.clone();
        self.rounds_per_theory = self.stats.rounds_per_theory.clone();
        self.failures = self.failure_list.len();
        let ids = |known: bool| -> Vec<String> {
            let list = self.failure_list.iter().filter(|f| f.known == known);
            list.map(|f| f.id.clone()).collect()
        };
        (self.new_failures, self.known_failures) = (ids(false), ids(true));
        self.failed_seeds.sort_unstable();
        self.timeout_seeds.sort_unstable();
    }

    /// The counts so far, at `seconds` into the campaign.
    pub fn sample(&self, seconds: f64) -> Sample {
        Sample {
            seconds,
            rounds: self.rounds,
            sat: self.stats.sat,
            unsat: self.stats.unsat,
            unknown: self.stats.unknown,
            failed_rounds: self.failed_rounds,
        }
    }

    pub fn write(&self, out: &Path) -> anyhow::Result<()> {
        let path = out.join("summary.json");
        let json = serde_json::to_string_pretty(self)?;
        fs::write(&path, json).with_context(|| format!("cannot write {}", path.display()))
    }

    /// Writes `summary.json` and every failure's `failure.json` again, so that the counts
    /// agree everywhere.
    pub fn write_all(&self, out: &Path) -> anyhow::Result<()> {
        for entry in &self.failure_list {
            entry.write(&out.join("failures").join(&entry.id))?;
        }
        self.write(out)
    }

    /// The final report of `--stats`: the statistics table, throughput, and every unique
    /// failure, new ones first.
    pub fn report(&self) -> String {
        let mut text = self.stats.table();
        text.push_str(&self.throughput());
        text.push_str(&self.findings(usize::MAX));
        text
    }

    /// The short summary a campaign ends with: throughput, answers, unique findings (the
    /// first few of each kind listed), and where the results are (`out`).
    pub fn brief(&self, out: &Path) -> String {
        let mut text = self.throughput();
        let stats = &self.stats;
        text.push_str(&format!(
            "check-sat answers: {} sat, {} unsat, {} unknown\n",
            stats.sat, stats.unsat, stats.unknown
        ));
        text.push_str(&self.findings(BRIEF_LISTED));
        let out = std::path::absolute(out).unwrap_or_else(|_| out.to_path_buf());
        text.push_str(&format!(
            "results: {}, {}, one folder a finding under {} (--stats: the full tables)\n",
            out.join("summary.json").display(),
            out.join(crate::report::FILE).display(),
            out.join("failures").display()
        ));
        text
    }

    /// Rounds, time and rate, and the timeouts that are not findings.
    fn throughput(&self) -> String {
        let mut text = format!(
            "{} rounds in {:.1} s: {:.1} rounds/s, {:.1} calls and {:.2} checks per round\n",
            self.rounds,
            self.seconds,
            self.rounds_per_second,
            self.calls_per_round,
            self.checks_per_round,
        );
        if self.timeouts_not_findings > 0 {
            text.push_str(&format!(
                "{} rounds ran past their time limit outside a check under Z3's rlimit (not findings; seeds in summary.json)\n",
                self.timeouts_not_findings
            ));
        }
        text
    }

    /// The unique failures, new ones first, at most `listed` of each kind by name.
    fn findings(&self, listed: usize) -> String {
        let mut text = format!(
            "{} new and {} known unique failures ({} failed rounds)\n",
            self.new_failures.len(),
            self.known_failures.len(),
            self.failed_rounds
        );
        for (title, known) in [("new", false), ("known", true)] {
            let list: Vec<&FailureEntry> = self
                .failure_list
                .iter()
                .filter(|f| f.known == known)
                .collect();
            if list.is_empty() {
                continue;
            }
            text.push_str(&format!("{title}:\n"));
            for f in list.iter().take(listed) {
                text.push_str(&format!(
                    "  {} x{} seed {}: {}\n",
                    f.id, f.count, f.seed, f.failure.message
                ));
            }
            if list.len() > listed {
                let more = list.len() - listed;
                text.push_str(&format!("  ... and {more} more (summary.json)\n"));
            }
        }
        if self.interrupted {
            text.push_str("interrupted: the findings above are those until the signal\n");
        }
        text
    }
}

/// How many new (and known) findings the short summary lists by name.
const BRIEF_LISTED: usize = 10;

/// The lock file of a running campaign in its output folder.
pub const LOCK: &str = "mbt.lock";

/// A claimed output folder: [`OutLock::claim`] refuses a folder that holds a campaign, and
/// the lock file it writes marks this one as running until the lock is dropped.
#[derive(Debug)]
pub struct OutLock {
    path: PathBuf,
}

impl OutLock {
    /// Creates `out` if needed and claims it; an error (one line) when it holds a campaign's
    /// results or a lock file. There is no resume: results are never mixed.
    pub fn claim(out: &Path) -> anyhow::Result<OutLock> {
        fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
        for name in ["summary.json", "failures", "traces"] {
            if out.join(name).exists() {
                bail!(
                    "{} already holds a campaign ({name}); give a new --out folder (mbt does not resume or mix campaigns)",
                    out.display()
                );
            }
        }
        let path = out.join(LOCK);
        let mut file = match fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                let pid = fs::read_to_string(&path)
                    .ok()
                    .and_then(|t| t.trim().parse::<i32>().ok());
                let state = match pid {
                    Some(pid) if process_exists(pid) => format!("campaign {pid} runs there"),
                    Some(pid) => format!("campaign {pid} stopped there without finishing"),
                    None => "another campaign runs there".into(),
                };
                bail!(
                    "{} holds {LOCK}: {state}; give a new --out folder",
                    out.display()
                );
            }
            Err(e) => {
                return Err(e).with_context(|| format!("cannot write {}", path.display()));
            }
        };
        writeln!(file, "{}", std::process::id())
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(OutLock { path })
    }
}

impl Drop for OutLock {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
}

fn process_exists(pid: i32) -> bool {
    // No signal: only asks whether the process exists (EPERM: it does, someone else's).
    match nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), None) {
        Ok(()) => true,
        Err(e) => e == nix::errno::Errno::EPERM,
    }
}

/// The full version of the loaded libz3, e.g. `4.8.12.0`: the library `--z3-lib` chose, if
/// it was given.
pub fn z3_version() -> String {
    untrace::z3_version()
}

/// Runs a campaign to its round or time limit, or until SIGINT/SIGTERM (when
/// [`interrupt::install`] ran); the summary says which. `out_lock` is the claim on `cfg.out`
/// ([`OutLock::claim`]), released once the results are written.
pub fn run(cfg: &CampaignConfig, out_lock: OutLock) -> anyhow::Result<Summary> {
    // Absolute, so that the paths and commands in the reports work from any folder.
    let out = std::path::absolute(&cfg.out)
        .with_context(|| format!("cannot resolve {}", cfg.out.display()))?;
    let cfg = &CampaignConfig { out, ..cfg.clone() };
    let scratch = round_scratch().context("cannot create a temporary folder")?;
    // Ticked from the loop below, never from a thread: the parent must stay single-threaded.
    let display = progress::Display::choose(cfg.quiet, cfg.status_interval);
    let live = match (cfg.rounds, cfg.time) {
        (Some(rounds), _) => progress::Progress::new("mbt", display, Some(rounds), "rounds"),
        (None, time) => progress::Progress::new("mbt", display, time.map(|t| t.as_secs()), "s"),
    };
    let mut run_record =
        progress::RunRecord::start("mbt", env!("CARGO_PKG_VERSION"), SCHEMA_VERSION);
    isolate::warm_up();
    let start = Instant::now();
    let mut summary = Summary {
        seed: cfg.seed,
        shard: cfg.shard,
        z3_version: z3_version(),
        z3_lib: z3lib::running_on().map(|l| l.path.display().to_string()),
        ..Summary::default()
    };
    summary.timeline.record(summary.sample(0.0));
    let mut by_signature: BTreeMap<String, usize> = BTreeMap::new();
    let mut running: Vec<Worker> = Vec::new();
    let mut next: u64 = 0;
    loop {
        if interrupt::requested().is_some() {
            // The rounds in progress are dropped: a round is its seed, so they rerun as they were.
            for worker in &mut running {
                worker.kill();
            }
            summary.interrupted = true;
            break;
        }
        let more = |next: u64| {
            cfg.time.is_none_or(|t| start.elapsed() < t) && cfg.rounds.is_none_or(|n| next < n)
        };
        // Idle workers take the next rounds; workers that may not are told to exit.
        for worker in &mut running {
            if worker.can_take() && more(next) {
                worker.start(cfg.round_seed(next))?;
                next += 1;
            } else if worker.is_idle() {
                worker.retire();
            }
        }
        while more(next) && running.iter().filter(|w| w.is_active()).count() < cfg.jobs.max(1) {
            let mut worker = isolate::spawn(&cfg.round, cfg.limits, scratch.path())?;
            worker.start(cfg.round_seed(next))?;
            next += 1;
            running.push(worker);
        }
        if running.is_empty() {
            break;
        }
        let mut progressed = false;
        let mut i = 0;
        while i < running.len() {
            if let Some(finished) = running[i].poll(cfg.round_wall()) {
                let elapsed = start.elapsed().as_secs_f64();
                finish_round(cfg, &mut summary, &mut by_signature, &finished, elapsed)?;
                let _ = fs::remove_dir_all(&finished.dir);
                progressed = true;
            }
            if running[i].exited() {
                running.swap_remove(i);
            } else {
                i += 1;
            }
        }
        if progressed {
            summary
                .timeline
                .record(summary.sample(start.elapsed().as_secs_f64()));
        }
        show_progress(cfg, &summary, start.elapsed(), &live);
        if !progressed {
            // Wakes for the status line, the campaign's time limit and signals at least this
            // often.
            isolate::wait_for_news(&running, cfg.round_wall(), Duration::from_millis(200));
        }
    }
    live.finish();
    summary.seconds = start.elapsed().as_secs_f64();
    summary.timeline.finish(summary.sample(summary.seconds));
    if cfg.minimize && !summary.interrupted {
        minimize_all(cfg, &mut summary)?;
    }
    summary.finish();
    run_record.finish();
    summary.run = run_record;
    summary.write_all(&cfg.out)?;
    report::write_beside(&cfg.out, &summary, None, cfg.quiet);
    drop(out_lock);
    Ok(summary)
}

/// Shows where the campaign stands after `elapsed`: its position in rounds (or seconds of
/// `--time`), rate, answers and findings.
fn show_progress(
    cfg: &CampaignConfig,
    summary: &Summary,
    elapsed: Duration,
    live: &progress::Progress,
) {
    if live.display() == progress::Display::Off {
        return;
    }
    // The bar counts rounds, or with --time alone the seconds (then the rounds are told).
    let (position, rounds) = match cfg.rounds {
        Some(_) => (summary.rounds, String::new()),
        None => (elapsed.as_secs(), format!("rounds {}, ", summary.rounds)),
    };
    let new = summary.failure_list.iter().filter(|f| !f.known).count();
    let stats = &summary.stats;
    live.update(
        position,
        format!(
            "{rounds}{:.1} rounds/s, sat {} unsat {} unknown {}, findings {} ({new} new)",
            summary.rounds as f64 / elapsed.as_secs_f64().max(1e-9),
            stats.sat,
            stats.unsat,
            stats.unknown,
            summary.failure_list.len(),
        ),
    );
}

/// The private folder the rounds run in (mode 0700), removed when dropped. Every round creates
/// and removes a folder with three files, so it goes into memory (`/dev/shm`) where there is
/// one: on a disk file system that bookkeeping was about 3% of a round's CPU. The name holds
/// the campaign's process id, so that a test can tell that its campaign left nothing behind.
fn round_scratch() -> std::io::Result<tempfile::TempDir> {
    let mut builder = tempfile::Builder::new();
    let prefix = format!("mbt-rounds-{}-", std::process::id());
    builder.prefix(&prefix);
    let shm = Path::new("/dev/shm");
    if shm.is_dir() {
        if let Ok(dir) = builder.tempdir_in(shm) {
            return Ok(dir);
        }
    }
    builder.tempdir()
}

/// Accounts a finished round: statistics, deduplicated failure, kept trace.
fn finish_round(
    cfg: &CampaignConfig,
    summary: &mut Summary,
    by_signature: &mut BTreeMap<String, usize>,
    finished: &Finished,
    elapsed: f64,
) -> anyhow::Result<()> {
    let report = finished.report.clone();
    summary.rounds += 1;
    summary.stats.merge(&report.stats);
    let trace = finished.dir.join(isolate::TRACE);
    if cfg.keep_all {
        let dir = cfg.out.join("traces");
        fs::create_dir_all(&dir)?;
        fs::copy(&trace, dir.join(format!("seed-{}.trace", report.seed)))?;
    }
    if finished.unbounded_timeout {
        summary.timeouts_not_findings += 1;
        summary.timeout_seeds.push(report.seed);
        return Ok(());
    }
    let Some(failure) = report.failure else {
        return Ok(());
    };
    summary.failed_rounds += 1;
    summary.failed_seeds.push(report.seed);
    let signature = failure.signature();
    if let Some(&i) = by_signature.get(&signature) {
        let entry = &mut summary.failure_list[i];
        entry.count += 1;
        entry.first_seed = entry.first_seed.min(report.seed);
        entry.last_seed = entry.last_seed.max(report.seed);
        return Ok(());
    }
    let id = failure.signature_hash();
    let dir = cfg.out.join("failures").join(&id);
    fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let saved_trace = dir.join(isolate::TRACE);
    fs::copy(&trace, &saved_trace)
        .and_then(|_| minimize::declare_limits_in(&saved_trace, failure.kind, cfg.limits))
        .with_context(|| format!("cannot write {}", saved_trace.display()))?;
    let _ = fs::copy(
        finished.dir.join(isolate::OUTPUT),
        dir.join(isolate::OUTPUT),
    );
    let files = dir.join("files");
    let n_files = isolate::keep_produced_files(&finished.dir, &files)
        .with_context(|| format!("cannot write {}", files.display()))?;
    let replay_args = match &cfg.round.differential {
        Some(d) if failure.kind.is_differential() => d.other.untrace_args(),
        _ => Vec::new(),
    };
    let replay_args: Vec<String> = replay_args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let replay = replay_command(
        &saved_trace,
        &displayed_replay_args(failure.kind, cfg.limits, &replay_args),
    );
    let entry = FailureEntry {
        id: id.clone(),
        known: cfg.known.contains(&signature),
        signature: signature.clone(),
        failure,
        count: 1,
        seed: report.seed,
        first_seed: report.seed,
        last_seed: report.seed,
        options: report.options,
        z3_version: summary.z3_version.clone(),
        replay,
        replay_args,
        trace: saved_trace,
        files: (n_files > 0).then_some(files),
        rerun: rerun_command(cfg, report.seed, &dir.join("rerun")),
        minimized_trace: None,
        minimized_replay: None,
        minimized_signature: None,
        minimize_note: None,
        merged_ids: Vec::new(),
        merged_signatures: Vec::new(),
        found_after: Some(elapsed),
    };
    // Written now, so that a campaign that dies leaves its findings; again at the end with the
    // final counts.
    entry.write(&dir)?;
    by_signature.insert(signature, summary.failure_list.len());
    summary.failure_list.push(entry);
    Ok(())
}

/// The command that reruns round `seed` of the campaign into the fresh output folder `out`.
fn rerun_command(cfg: &CampaignConfig, seed: u64, out: &Path) -> String {
    let mut words = Vec::new();
    if let Some(injection) = &cfg.round.inject {
        // TEST-ONLY: an injected failure reproduces only with the same injection.
        words.push(format!("{}={}", inject::ENV, inject_spec(injection)));
    }
    let mbt = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("mbt"));
    words.push(shell_word(&mbt.to_string_lossy()));
    words.push(format!("--seed {seed} --rounds 1 --jobs 1"));
    words.extend(cfg.round_flags.iter().cloned());
    words.push(format!("--out {}", shell_word(&out.to_string_lossy())));
    words.join(" ")
}

/// The `MBT_INJECT` value of `injection` (`KIND@K[:SEED]`).
fn inject_spec(injection: &Inject) -> String {
    let kind = match injection.kind {
        InjectKind::Abort => "abort",
        InjectKind::Loop => "loop",
        InjectKind::Alloc => "alloc",
    };
    match injection.seed {
        Some(seed) => format!("{kind}@{}:{seed}", injection.at_call),
        None => format!("{kind}@{}", injection.at_call),
    }
}

/// The options of the replay command a report shows for a finding of `kind`: the round's
/// limits where the replay needs them (a timeout finding replayed without `--timeout` would
/// hang the user's shell), then `extra`.
fn displayed_replay_args(kind: FailureKind, limits: Limits, extra: &[String]) -> Vec<String> {
    let limits = minimize::limit_args(kind, limits);
    let limits = limits.iter().map(|a| a.to_string_lossy().into_owned());
    limits.chain(extra.iter().cloned()).collect()
}

/// The command that replays `trace` (an absolute path) with the replayer beside `mbt` and the
/// options `extra`.
pub fn replay_command(trace: &Path, extra: &[String]) -> String {
    let (program, args) = minimize::replayer();
    let mut words = vec![shell_word(&program.to_string_lossy())];
    words.extend(args.iter().map(|a| shell_word(&a.to_string_lossy())));
    words.extend(extra.iter().map(|a| shell_word(a)));
    words.push(shell_word(&trace.to_string_lossy()));
    words.join(" ")
}

/// `word` as one word of a POSIX shell command line: as it is when it holds only characters
/// no shell treats specially, else in single quotes.
pub fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./,=:@%+-".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// `--minimize`: minimizes every unique new failure a replay reproduces, records the result in
/// its entry, and merges the entries whose signatures agree after minimization. Stops early
/// (and marks the summary interrupted) on SIGINT/SIGTERM.
fn minimize_all(cfg: &CampaignConfig, summary: &mut Summary) -> anyhow::Result<()> {
    let started = Instant::now();
    let to_minimize = summary.failure_list.iter().filter(|e| !e.known).count();
    let mut done = 0;
    for entry in &mut summary.failure_list {
        if interrupt::requested().is_some() {
            break;
        }
        if entry.known {
            entry.minimize_note = Some("not minimized: a known failure".into());
            continue;
        }
        let dir = cfg.out.join("failures").join(&entry.id);
        // An even share of what is left of the budget, so that one slow finding cannot
        // starve the others.
        let left = cfg.minimize_time.saturating_sub(started.elapsed());
        let share = left / (to_minimize - done).max(1) as u32;
        done += 1;
        if !cfg.quiet {
            eprintln!(
                "mbt: minimizing {done}/{to_minimize} {} ({}, at most {:.0} s) ...",
                entry.id,
                entry.failure.kind.name(),
                share.as_secs_f64()
            );
        }
        let one = Instant::now();
        let outcome = minimize::minimize_failure(
            &dir,
            entry.failure.kind,
            &entry.signature,
            cfg.limits,
            &entry.replay_args,
            cfg.round.inject.is_some(),
            cfg.jobs,
            share,
        );
        let note = match outcome {
            minimize::Outcome::Done {
                path,
                signature,
                lines_before,
                lines_after,
                replays,
                stopped,
            } => {
                let path = std::path::absolute(&path).unwrap_or(path);
                entry.minimized_replay = Some(replay_command(
                    &path,
                    &displayed_replay_args(entry.failure.kind, cfg.limits, &entry.replay_args),
                ));
                entry.minimized_trace = Some(path);
                entry.known |= signature.as_deref().is_some_and(|s| cfg.known.contains(s));
                entry.minimized_signature = signature;
                let replays = replays.map_or(String::new(), |n| format!(" with {n} replays"));
                let stopped = if stopped {
                    " (stopped at its time share: the best so far)"
                } else {
                    ""
                };
                format!("{lines_before} lines minimized to {lines_after}{replays}{stopped}")
            }
            minimize::Outcome::Skipped(why) => format!("not minimized: {why}"),
        };
        if !cfg.quiet {
            eprintln!(
                "mbt: {}: {note} in {:.1} s",
                entry.id,
                one.elapsed().as_secs_f64()
            );
        }
        entry.minimize_note = Some(note);
    }
    summary.interrupted |= interrupt::requested().is_some();
    merge_same_root_cause(&cfg.out.join("failures"), &mut summary.failure_list)
}

/// Merges the failures whose signatures agree after minimization (one root cause found
/// through different first signatures) into the first of them: counts summed, seeds widened,
/// the others' ids and signatures recorded, their folders under `failures` removed.
pub fn merge_same_root_cause(failures: &Path, list: &mut Vec<FailureEntry>) -> anyhow::Result<()> {
    for id in merge_root_causes(list) {
        let dir = failures.join(&id);
        fs::remove_dir_all(&dir).with_context(|| format!("cannot remove {}", dir.display()))?;
    }
    Ok(())
}

/// [`merge_same_root_cause`] in memory: merges the entries and returns the ids merged away,
/// whose folders are no longer needed.
pub fn merge_root_causes(list: &mut Vec<FailureEntry>) -> Vec<String> {
    let mut merged_away = Vec::new();
    let mut kept: Vec<FailureEntry> = Vec::new();
    let mut by_root_cause: BTreeMap<String, usize> = BTreeMap::new();
    for entry in std::mem::take(list) {
        let root_cause = entry.minimized_signature.clone();
        match root_cause.as_ref().and_then(|s| by_root_cause.get(s)) {
            Some(&i) => {
                let into = &mut kept[i];
                into.absorb_counts(&entry);
                into.merged_ids.push(entry.id.clone());
                into.merged_ids.extend(entry.merged_ids);
                into.merged_signatures.push(entry.signature);
                into.merged_signatures.extend(entry.merged_signatures);
                merged_away.push(entry.id);
            }
            None => {
                if let Some(signature) = root_cause {
                    by_root_cause.insert(signature, kept.len());
                }
                kept.push(entry);
            }
        }
    }
    *list = kept;
    merged_away
}

/// Merges `entry` into `list` by signature: a new signature is appended, a known one adds its
/// counts to the entry there. The entry whose saved round has the lowest seed represents the
/// signature (the round a one-job campaign over all the seeds saves), so that the result does
/// not depend on the order in which shards are merged.
pub fn add_by_signature(list: &mut Vec<FailureEntry>, mut entry: FailureEntry) {
    match list.iter_mut().find(|e| e.signature == entry.signature) {
        Some(into) => {
            if entry.seed < into.seed {
                std::mem::swap(into, &mut entry);
            }
            into.absorb_counts(&entry);
            into.merged_ids.extend(entry.merged_ids);
            into.merged_ids.sort();
            into.merged_ids.dedup();
            into.merged_signatures.extend(entry.merged_signatures);
            into.merged_signatures.sort();
            into.merged_signatures.dedup();
        }
        None => list.push(entry),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::failure::FailureKind;

    fn entry(id: &str, signature: &str, root_cause: Option<&str>, seed: u64) -> FailureEntry {
        FailureEntry {
            id: id.into(),
            failure: Failure::new(FailureKind::Crash, signature),
            signature: signature.into(),
            known: false,
            count: 2,
            seed,
            first_seed: seed,
            last_seed: seed + 10,
            options: Vec::new(),
            z3_version: "4.8.12.0".into(),
            trace: PathBuf::from(format!("/out/failures/{id}/round.trace")),
            files: None,
            rerun: String::new(),
            replay: String::new(),
            replay_args: Vec::new(),
            minimized_trace: None,
            minimized_replay: None,
            minimized_signature: root_cause.map(str::to_string),
            minimize_note: None,
            merged_ids: Vec::new(),
            merged_signatures: Vec::new(),
            found_after: None,
        }
    }

    #[test]
    fn failures_with_one_root_cause_merge_after_minimization() {
        let out = tempfile::tempdir().unwrap();
        for id in ["a", "b", "c", "d"] {
            fs::create_dir_all(out.path().join(id)).unwrap();
        }
        let mut list = vec![
            entry("a", "crash|x|push", Some("crash|root|push"), 20),
            entry("b", "crash|y|pop", None, 5),
            entry("c", "crash|z|assert", Some("crash|root|push"), 3),
            entry("d", "crash|w|check", Some("crash|other|check"), 7),
        ];
        list[2].known = true;
        merge_same_root_cause(out.path(), &mut list).unwrap();
        let ids: Vec<&str> = list.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["a", "b", "d"]);
        let a = &list[0];
        assert_eq!((a.count, a.first_seed, a.last_seed), (4, 3, 30));
        assert!(a.known, "merged with a known failure");
        assert_eq!(a.merged_ids, ["c"]);
        assert_eq!(a.merged_signatures, ["crash|z|assert"]);
        assert!(!out.path().join("c").exists());
        assert!(out.path().join("a").is_dir() && out.path().join("d").is_dir());
        // Without a signature after minimization nothing merges.
        let mut list = vec![entry("a", "s1", None, 1), entry("b", "s2", None, 2)];
        merge_same_root_cause(out.path(), &mut list).unwrap();
        assert_eq!(list.len(), 2);
    }

    #[test]
    fn the_lowest_seed_represents_a_signature_in_any_merge_order() {
        let mut a = entry("x", "crash|x|push", None, 9);
        a.found_after = Some(3.0);
        let mut b = entry("x", "crash|x|push", None, 4);
        b.trace = PathBuf::from("/shard-1/failures/x/round.trace");
        b.found_after = Some(5.0);
        for order in [[a.clone(), b.clone()], [b.clone(), a.clone()]] {
            let mut list = Vec::new();
            for e in order {
                add_by_signature(&mut list, e);
            }
            let [merged] = list.as_slice() else {
                panic!("one signature: {list:?}")
            };
            assert_eq!((merged.seed, &merged.trace), (4, &b.trace));
            assert_eq!(
                (merged.count, merged.first_seed, merged.last_seed),
                (4, 4, 19)
            );
            assert_eq!(merged.found_after, Some(3.0), "the earliest");
        }
    }

    #[test]
    fn shell_words_are_quoted_only_when_needed() {
        assert_eq!(shell_word("/tmp/out-1/failures"), "/tmp/out-1/failures");
        assert_eq!(shell_word("/tmp/my out"), "'/tmp/my out'");
        assert_eq!(shell_word("it's"), r"'it'\''s'");
        assert_eq!(shell_word(""), "''");
    }

    #[test]
    fn relocate_points_paths_and_commands_at_the_copy() {
        let mut e = entry("a", "s", None, 1);
        e.trace = PathBuf::from("/shard/failures/a/round.trace");
        e.minimized_trace = Some(PathBuf::from("/shard/failures/a/min.trace"));
        // As the campaign writes them: a timeout finding's commands carry the round's limit.
        let limits = ["--timeout".to_string(), "2".to_string()];
        e.replay = replay_command(&e.trace, &limits);
        e.minimized_replay = e
            .minimized_trace
            .as_deref()
            .map(|t| replay_command(t, &limits));
        e.rerun = "mbt --seed 1 --out /shard/failures/a/rerun".into();
        e.relocate(Path::new("/shard/failures/a"), Path::new("/all/failures/a"));
        assert_eq!(e.trace, Path::new("/all/failures/a/round.trace"));
        assert!(
            e.replay
                .ends_with(" --timeout 2 /all/failures/a/round.trace"),
            "{}",
            e.replay
        );
        assert!(e
            .minimized_replay
            .unwrap()
            .ends_with(" --timeout 2 /all/failures/a/min.trace"));
        assert_eq!(e.rerun, "mbt --seed 1 --out /all/failures/a/rerun");
        // A differential finding replays against the other side too.
        let mut d = entry("d", "version-diff|x", None, 1);
        d.replay_args = vec!["--diff-lib".into(), "/opt/z3 dev/libz3.so".into()];
        d.trace = PathBuf::from("/shard/failures/d/round.trace");
        d.replay = replay_command(&d.trace, &d.replay_args);
        d.relocate(Path::new("/shard"), Path::new("/all"));
        assert!(
            d.replay
                .ends_with(" --diff-lib '/opt/z3 dev/libz3.so' /all/failures/d/round.trace"),
            "{}",
            d.replay
        );
    }

    #[test]
    fn a_folder_with_a_campaign_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let lock = OutLock::claim(&out).unwrap();
        let err = OutLock::claim(&out).unwrap_err().to_string();
        assert!(
            err.contains("mbt.lock") && err.contains("runs there"),
            "{err}"
        );
        drop(lock);
        assert!(!out.join(LOCK).exists());
        OutLock::claim(&out).unwrap();
        let done = dir.path().join("done");
        fs::create_dir_all(done.join("failures")).unwrap();
        let err = OutLock::claim(&done).unwrap_err().to_string();
        assert!(err.contains("already holds a campaign (failures)"), "{err}");
    }

    #[test]
    fn summaries_without_the_run_record_still_read() {
        // A summary.json of before schema_version: its figures read, the new fields empty.
        let mut before = Summary {
            rounds: 12,
            seed: 3,
            new_failures: vec!["crash-1".into()],
            ..Summary::default()
        };
        before.stats.sat = 4;
        let mut old = serde_json::to_value(&before).unwrap();
        let head = [
            "schema_version",
            "tool",
            "tool_version",
            "start_time",
            "end_time",
        ];
        for field in head.into_iter().chain(["argv", "host"]) {
            old.as_object_mut().unwrap().remove(field).unwrap();
        }
        let summary: Summary = serde_json::from_value(old).unwrap();
        assert_eq!(
            (summary.rounds, summary.seed, summary.stats.sat),
            (12, 3, 4)
        );
        assert_eq!(summary.new_failures, ["crash-1"]);
        assert_eq!(summary.run, progress::RunRecord::default());
        // A current one round-trips, the run record first and flat.
        let mut current = summary.clone();
        current.run = progress::RunRecord::start("mbt", "0.1.0", SCHEMA_VERSION);
        let json = serde_json::to_string(&current).unwrap();
        assert!(
            json.starts_with(r#"{"schema_version":1,"tool":"mbt""#),
            "{json}"
        );
        assert_eq!(serde_json::from_str::<Summary>(&json).unwrap(), current);
    }

    #[test]
    fn the_z3_version_is_the_loaded_librarys() {
        assert!(z3_version().starts_with("4."), "{}", z3_version());
    }
}
