//! A campaign: many rounds in forked worker processes ([`crate::isolate`]), `--jobs` workers
//! at a time, each running a batch of consecutive rounds, from a single-threaded parent.
//! Failures are deduplicated by signature and each unique one is saved once under
//! `OUT/failures/<kind>-<hash>/` with its trace, the files the round wrote, and
//! `failure.json` ([`FailureEntry`] of [`crate::summary`]: the report, with the commands that
//! reproduce it);
//! `--keep-all` keeps every trace under `OUT/traces/`. Progress shows live (a bar on a
//! terminal, status lines in a log: the `progress` crate); the end writes `OUT/summary.json`
//! ([`Summary`], with the [`crate::timeline::Timeline`] of the campaign) and the HTML report
//! `OUT/report.html`
//! ([`crate::report`]), also when interrupted, and prints a short summary
//! ([`Summary::brief`]) or, with `--stats`, the statistics tables and every finding
//! ([`Summary::report`]).
//!
//! A campaign owns its output folder ([`OutLock`]: a folder that holds another campaign is
//! refused), leaves nothing elsewhere (rounds run in private folders under a scratch folder
//! that is removed), and stops cleanly on SIGINT/SIGTERM ([`crate::interrupt`]): the workers
//! are killed and the findings so far written, with `"interrupted": true`.

use crate::failure::FailureKind;
use crate::inject::{self, Inject, InjectKind};
use crate::interrupt;
use crate::isolate::{self, Finished, Limits, Worker};
use crate::known::KnownSignatures;
use crate::minimize;
use crate::report;
use crate::round_state::RoundConfig;
use crate::summary::{
    merge_same_root_cause, shell_word, FailureEntry, OutLock, Summary, SCHEMA_VERSION,
};
use anyhow::Context as _;
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
    /// The kinds `--minimize` minimizes (`--minimize-kinds`); empty: all.
    pub minimize_kinds: Vec<FailureKind>,
    /// Known findings of the database (`--db`) with no minimized trace stored: `--minimize`
    /// minimizes them too.
    pub unminimized_known: std::collections::BTreeSet<String>,
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

/// How a campaign shows its summary on the terminal.
impl Summary {
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
        api_coverage: match cfg.round.count_z3_functions {
            true => crate::api_coverage::ApiCoverage::of_running_libz3(),
            false => None,
        },
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
    if finished.timeout_not_finding {
        summary.timeouts_not_findings += 1;
        summary.timeout_seeds.push(report.seed);
        return Ok(());
    }
    let Some(failure) = report.failure else {
        return Ok(());
    };
    summary.failed_rounds += 1;
    summary.failed_seeds.push(report.seed);
    let signature = failure.signature().to_string();
    let seen = by_signature.get(&signature).copied();
    if let Some(i) = seen {
        let entry = &mut summary.failure_list[i];
        entry.count += 1;
        entry.first_seed = entry.first_seed.min(report.seed);
        entry.last_seed = entry.last_seed.max(report.seed);
        // The lowest seed represents a signature, whatever order the workers finish in, so
        // `--jobs` does not change which round is saved (`merge` keeps the lowest seed too).
        if report.seed >= entry.seed {
            return Ok(());
        }
    }
    let id = failure.signature_hash();
    let dir = cfg.out.join("failures").join(&id);
    fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let saved_trace = dir.join(isolate::TRACE);
    fs::copy(&trace, &saved_trace)
        .and_then(|_| minimize::declare_limits_in(&saved_trace, failure.kind, cfg.limits))
        .with_context(|| format!("cannot write {}", saved_trace.display()))?;
    // A round saved before (a higher seed that finished first) leaves none of its files.
    let _ = fs::remove_file(dir.join(isolate::OUTPUT));
    let _ = fs::copy(
        finished.dir.join(isolate::OUTPUT),
        dir.join(isolate::OUTPUT),
    );
    let files = dir.join("files");
    let _ = fs::remove_dir_all(&files);
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
        minimize::Answers::Ignored,
        &displayed_replay_args(failure.kind, cfg.limits, &replay_args),
    );
    let mut entry = FailureEntry {
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
        reproducers: Vec::new(),
        minimized_replay: None,
        minimized_signature: None,
        minimize_note: None,
        merged_ids: Vec::new(),
        merged_signatures: Vec::new(),
        found_after: Some(elapsed),
    };
    if let Some(i) = seen {
        // The counts and seeds so far, and when the signature was first found, stay.
        let before = &summary.failure_list[i];
        entry.count = before.count;
        entry.first_seed = before.first_seed;
        entry.last_seed = before.last_seed;
        entry.found_after = before.found_after;
    }
    entry.reproducers = write_reproducers(&dir, &entry.trace, &entry);
    // Written now, so that a campaign that dies leaves its findings; again at the end with the
    // final counts.
    entry.write(&dir)?;
    match seen {
        Some(i) => summary.failure_list[i] = entry,
        None => {
            by_signature.insert(signature, summary.failure_list.len());
            summary.failure_list.push(entry);
        }
    }
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

/// The command that replays `trace` (an absolute path) with the replayer beside `mbt`, the
/// recorded `answers` compared or not, and the options `extra`.
pub fn replay_command(trace: &Path, answers: minimize::Answers, extra: &[String]) -> String {
    let (program, args) = minimize::replayer(answers);
    let mut words = vec![shell_word(&program.to_string_lossy())];
    words.extend(args.iter().map(|a| shell_word(&a.to_string_lossy())));
    words.extend(extra.iter().map(|a| shell_word(a)));
    words.push(shell_word(&trace.to_string_lossy()));
    words.join(" ")
}

/// `--minimize`: minimizes every unique new failure a replay reproduces, records the result in
/// its entry, and merges the entries whose signatures agree after minimization. Stops early
/// (and marks the summary interrupted) on SIGINT/SIGTERM.
fn minimize_all(cfg: &CampaignConfig, summary: &mut Summary) -> anyhow::Result<()> {
    let started = Instant::now();
    // A known finding is minimized only when the database holds no minimized trace of it.
    let wanted_known = |e: &FailureEntry| {
        !e.known
            || e.signatures()
                .iter()
                .any(|s| cfg.unminimized_known.contains(*s))
    };
    let wanted_kind = |e: &FailureEntry| {
        cfg.minimize_kinds.is_empty() || cfg.minimize_kinds.contains(&e.failure.kind)
    };
    let wanted = |e: &FailureEntry| wanted_known(e) && wanted_kind(e);
    let to_minimize = summary.failure_list.iter().filter(|e| wanted(e)).count();
    let mut done = 0;
    for entry in &mut summary.failure_list {
        if interrupt::requested().is_some() {
            break;
        }
        if !wanted_known(entry) {
            entry.minimize_note = Some("not minimized: a known failure".into());
            continue;
        }
        if !wanted_kind(entry) {
            entry.minimize_note =
                Some("not minimized: not of the kinds --minimize-kinds asks for".into());
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
                answers,
            } => {
                let path = std::path::absolute(&path).unwrap_or(path);
                entry.minimized_replay = Some(replay_command(
                    &path,
                    answers,
                    &displayed_replay_args(entry.failure.kind, cfg.limits, &entry.replay_args),
                ));
                entry.reproducers = write_reproducers(&dir, &path, entry);
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

/// Writes a finding's reproducers (`untrace::repro::write_folder`) from `trace` into its
/// folder; a failure to write them is reported and leaves none named, the finding stays.
/// Their header says what the finding is: its signature, and its round's message (a crash's
/// names the function of libz3 where the library keeps its symbol table).
fn write_reproducers(dir: &Path, trace: &Path, entry: &FailureEntry) -> Vec<PathBuf> {
    let header = vec![
        format!("finding: {}", entry.signature),
        format!("in its round: {}", entry.failure.message),
        format!(
            "found by mbt, round seed {}, on Z3 {}",
            entry.seed, entry.z3_version
        ),
    ];
    match untrace::repro::write_folder(dir, trace, header) {
        Ok(files) => files,
        Err(e) => {
            eprintln!("mbt: {}: cannot write its reproducers: {e}", entry.id);
            Vec::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_z3_version_is_the_loaded_librarys() {
        assert!(z3_version().starts_with("4."), "{}", z3_version());
    }
}
