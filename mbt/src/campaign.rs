//! A campaign: many rounds in forked worker processes ([`crate::isolate`]), `--jobs` workers
//! at a time, each running a batch of consecutive rounds, from a single-threaded parent. Failures are deduplicated by signature and each unique one is
//! saved once under `OUT/failures/<kind>-<hash>/` with its trace, seed, options and the
//! commands that reproduce it; `--keep-all` keeps every trace under `OUT/traces/`. A live
//! status line shows progress; the end prints the statistics table and writes
//! `OUT/summary.json` ([`Summary`]).

use crate::cx::RoundConfig;
use crate::failure::Failure;
use crate::isolate::{self, Finished, Limits, Worker};
use crate::minimize;
use crate::stats::{Count, Stats};
use anyhow::Context as _;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs;
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
    /// The flags that select the round configuration, for the reproduce command.
    pub round_flags: Vec<String>,
    pub quiet: bool,
    /// Minimize every unique failure with ddtrace after the rounds ([`crate::minimize`]).
    pub minimize: bool,
}

impl CampaignConfig {
    /// The seed of the `i`-th round of this shard: shards split the seed space so that no two
    /// shards of one campaign run the same round, and `--seed S --rounds 1` runs seed S.
    pub fn round_seed(&self, i: u64) -> u64 {
        let (k, n) = self.shard;
        self.seed.wrapping_add(k).wrapping_add(i.wrapping_mul(n))
    }
}

/// One unique failure of the campaign.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FailureEntry {
    pub signature: String,
    /// The folder name under `failures/`.
    pub id: String,
    pub failure: Failure,
    /// How many rounds failed with this signature.
    pub count: u64,
    /// The seed of the saved round.
    pub seed: u64,
    pub options: Vec<(String, String)>,
    /// Reruns the round.
    pub rerun: String,
    /// Replays the saved trace.
    pub untrace: String,
    /// `--minimize`: the minimized trace beside the original, relative to the output folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimized: Option<String>,
    /// `--minimize`: the `untrace` command that reproduces the failure with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimized_untrace: Option<String>,
    /// `--minimize`: the line counts, or why the failure was not minimized.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimize_note: Option<String>,
}

/// `summary.json`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub rounds: u64,
    pub seconds: f64,
    pub rounds_per_second: f64,
    /// Unique failures.
    pub failures: usize,
    /// Rounds that failed, duplicates included.
    pub failed_rounds: u64,
    /// The seeds of every failed round, sorted.
    pub failed_seeds: Vec<u64>,
    pub calls_per_round: f64,
    pub checks_per_round: f64,
    pub seed: u64,
    pub shard: (u64, u64),
    /// Per operation and solver action: tried / succeeded.
    pub operations: BTreeMap<String, Count>,
    pub failure_list: Vec<FailureEntry>,
    pub stats: Stats,
}

impl Summary {
    /// Fills the derived figures from the counts.
    pub fn finish(&mut self) {
        self.rounds_per_second = self.rounds as f64 / self.seconds.max(1e-9);
        self.calls_per_round = self.stats.n_calls() as f64 / self.rounds.max(1) as f64;
        self.checks_per_round = self.stats.n_checks() as f64 / self.rounds.max(1) as f64;
        self.operations = self.stats.calls.clone();
        self.failures = self.failure_list.len();
        self.failed_seeds.sort_unstable();
    }

    pub fn write(&self, out: &Path) -> anyhow::Result<()> {
        let path = out.join("summary.json");
        let json = serde_json::to_string_pretty(self)?;
        fs::write(&path, json).with_context(|| format!("cannot write {}", path.display()))
    }

    /// The final report: the statistics table, throughput, and the unique failures.
    pub fn report(&self) -> String {
        let mut text = self.stats.table();
        text.push_str(&format!(
            "{} rounds in {:.1} s: {:.1} rounds/s, {:.1} calls and {:.2} checks per round, {} unique failures ({} failed rounds)\n",
            self.rounds,
            self.seconds,
            self.rounds_per_second,
            self.calls_per_round,
            self.checks_per_round,
            self.failures,
            self.failed_rounds
        ));
        for f in &self.failure_list {
            text.push_str(&format!(
                "  {} x{} seed {}: {}\n",
                f.id, f.count, f.seed, f.failure.message
            ));
        }
        text
    }
}

/// Runs a campaign to its round or time limit.
pub fn run(cfg: &CampaignConfig) -> anyhow::Result<Summary> {
    fs::create_dir_all(&cfg.out).with_context(|| format!("cannot create {}", cfg.out.display()))?;
    let scratch = round_scratch().context("cannot create a temporary folder")?;
    let bar = if cfg.quiet {
        indicatif::ProgressBar::hidden()
    } else {
        // No steady tick: it would start a thread, and the parent must stay single-threaded.
        let bar = indicatif::ProgressBar::new_spinner();
        bar.set_style(indicatif::ProgressStyle::with_template("{msg}").expect("static template"));
        bar
    };
    isolate::warm_up();
    let start = Instant::now();
    let mut summary = Summary {
        seed: cfg.seed,
        shard: cfg.shard,
        ..Summary::default()
    };
    let mut by_signature: BTreeMap<String, usize> = BTreeMap::new();
    let mut running: Vec<Worker> = Vec::new();
    let mut next: u64 = 0;
    loop {
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
            if let Some(finished) = running[i].poll(cfg.limits.timeout) {
                finish_round(cfg, &mut summary, &mut by_signature, &finished)?;
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
            let secs = start.elapsed().as_secs_f64();
            bar.set_message(format!(
                "rounds {} ({:.1}/s)  sat {} unsat {} unknown {}  unique failures {}",
                summary.rounds,
                summary.rounds as f64 / secs.max(1e-9),
                summary.stats.sat,
                summary.stats.unsat,
                summary.stats.unknown,
                summary.failure_list.len()
            ));
        } else {
            // Wakes for the status line and the campaign's time limit at least this often.
            isolate::wait_for_news(&running, cfg.limits.timeout, Duration::from_millis(200));
        }
    }
    bar.finish_and_clear();
    summary.seconds = start.elapsed().as_secs_f64();
    if cfg.minimize {
        minimize_all(cfg, &mut summary)?;
    }
    summary.finish();
    summary.write(&cfg.out)?;
    Ok(summary)
}

/// The private folder the rounds run in. Every round creates and removes a folder with three
/// files, so it goes into memory (`/dev/shm`) where there is one: on a disk file system that
/// bookkeeping was about 3% of a round's CPU.
fn round_scratch() -> std::io::Result<tempfile::TempDir> {
    let mut builder = tempfile::Builder::new();
    builder.prefix("mbt-rounds-");
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
    let Some(failure) = report.failure else {
        return Ok(());
    };
    summary.failed_rounds += 1;
    summary.failed_seeds.push(report.seed);
    let signature = failure.signature();
    if let Some(&i) = by_signature.get(&signature) {
        summary.failure_list[i].count += 1;
        return Ok(());
    }
    let id = failure.signature_hash();
    let dir = cfg.out.join("failures").join(&id);
    fs::create_dir_all(&dir)?;
    fs::copy(&trace, dir.join(isolate::TRACE))?;
    let _ = fs::copy(
        finished.dir.join(isolate::OUTPUT),
        dir.join(isolate::OUTPUT),
    );
    let mut rerun = format!("mbt --seed {} --rounds 1 --jobs 1", report.seed);
    for flag in &cfg.round_flags {
        rerun.push(' ');
        rerun.push_str(flag);
    }
    let entry = FailureEntry {
        signature: signature.clone(),
        id: id.clone(),
        failure,
        count: 1,
        seed: report.seed,
        options: report.options,
        rerun,
        untrace: format!("untrace --no-check failures/{id}/{}", isolate::TRACE),
        minimized: None,
        minimized_untrace: None,
        minimize_note: None,
    };
    fs::write(
        dir.join("failure.json"),
        serde_json::to_string_pretty(&entry)?,
    )?;
    by_signature.insert(signature, summary.failure_list.len());
    summary.failure_list.push(entry);
    Ok(())
}

/// `--minimize`: minimizes every unique failure a replay reproduces and records the result in
/// its `failure.json`.
fn minimize_all(cfg: &CampaignConfig, summary: &mut Summary) -> anyhow::Result<()> {
    for entry in &mut summary.failure_list {
        let dir = cfg.out.join("failures").join(&entry.id);
        if !cfg.quiet {
            eprintln!("mbt: minimizing {} ...", entry.id);
        }
        match minimize::minimize_failure(
            &dir,
            entry.failure.kind,
            cfg.limits,
            cfg.round.inject.is_some(),
        ) {
            minimize::Outcome::Done {
                lines_before,
                lines_after,
                replays,
                ..
            } => {
                let path = format!("failures/{}/{}", entry.id, minimize::MINIMIZED);
                entry.minimized_untrace = Some(minimize::reproduce_command(&path));
                entry.minimized = Some(path);
                entry.minimize_note = Some(format!(
                    "{lines_before} lines minimized to {lines_after} with {replays} replays"
                ));
            }
            minimize::Outcome::Skipped(why) => {
                entry.minimize_note = Some(format!("not minimized: {why}"))
            }
        }
        fs::write(
            dir.join("failure.json"),
            serde_json::to_string_pretty(entry)?,
        )?;
    }
    Ok(())
}
