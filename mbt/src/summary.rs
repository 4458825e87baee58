//! The campaign's output folder as types: `summary.json` ([`Summary`]) and each finding's
//! `failure.json` ([`FailureEntry`]), read and written here only, with what every reader needs
//! of them: the signatures a finding goes by ([`FailureEntry::signatures`]), merging
//! summaries of shards ([`Summary::merge`]) and failures of one root cause
//! ([`merge_root_causes`]), and the claim on the folder ([`OutLock`]). The campaign writes
//! them; `merge`, `report`, `known` and `findings_db` read them.

use crate::api_coverage::ApiCoverage;
use crate::failure::Failure;
use crate::stats::{Count, Stats};
use crate::timeline::{Sample, Timeline};
use anyhow::{bail, Context as _};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};

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
    /// Reproducers Z3's developers run without this suite, made from the minimized trace (the
    /// round's when minimization did not finish): `repro.c`, `repro.py`, and `repro.smt2`
    /// where every call has an SMT-LIB form (docs/reproducers.md).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reproducers: Vec<PathBuf>,
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
    /// The file name of a failure's report in its folder.
    pub const FILE: &'static str = "failure.json";

    /// Reads the `failure.json` at `path`.
    pub fn read(path: &Path) -> anyhow::Result<FailureEntry> {
        let text =
            fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        serde_json::from_str(&text)
            .with_context(|| format!("{}: not a failure report", path.display()))
    }

    /// Every signature the finding goes by, each once: the one after minimization (the key
    /// of a new finding in the findings database) first, then the campaign's, then those
    /// merged into it.
    pub fn signatures(&self) -> Vec<&str> {
        let mut signatures: Vec<&str> = Vec::new();
        let all = (self.minimized_signature.as_deref().into_iter())
            .chain([self.signature.as_str()])
            .chain(self.merged_signatures.iter().map(String::as_str));
        for signature in all {
            if !signatures.contains(&signature) {
                signatures.push(signature);
            }
        }
        signatures
    }

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
        let path = dir.join(Self::FILE);
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
        self.reproducers = self.reproducers.iter().map(|p| moved(p)).collect();
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
    /// Rounds killed at a time limit in a call Z3's rlimit does not bound: a performance
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
    /// Per Z3 C function: the calls the rounds made (Z3's own API log of each round).
    pub z3_functions: BTreeMap<String, u64>,
    /// The functions of the libz3 the campaign ran on that the counts are measured against.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub api_coverage: Option<ApiCoverage>,
    /// Of those, how many the rounds called, and the ones they never called.
    pub api_called: usize,
    pub api_never_called: Vec<String>,
    pub failure_list: Vec<FailureEntry>,
    pub stats: Stats,
    /// Rounds, answers and failed rounds over time, for the report.
    pub timeline: Timeline,
    /// `mbt merge`: the shard folders merged into this summary.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub merged_from: Vec<PathBuf>,
}

impl Summary {
    /// Reads the `summary.json` of the campaign folder `dir`, with its failures' paths and
    /// commands pointing at where their folders are now (a folder copied from a cluster node
    /// keeps working).
    pub fn read(dir: &Path) -> anyhow::Result<Summary> {
        let path = dir.join("summary.json");
        let text =
            fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
        let mut summary: Summary = serde_json::from_str(&text)
            .with_context(|| format!("{}: not an mbt summary", path.display()))?;
        let failures = std::path::absolute(dir.join("failures"))?;
        for entry in &mut summary.failure_list {
            if let Some(recorded) = entry.trace.parent().map(Path::to_path_buf) {
                entry.relocate(&recorded, &failures.join(&entry.id));
            }
        }
        Ok(summary)
    }

    /// Merges the summaries of shards in memory: counts summed, timelines added
    /// ([`Timeline::merge`]), failures deduplicated by signature and by signature after
    /// minimization; each failure's paths still point into the shard folder it came from. The
    /// merged campaign ran from the first shard's start to the last shard's end; its command line
    /// and host are this process's (the merge's).
    pub fn merge(shards: &[Summary]) -> Summary {
        let mut merged = Summary {
            run: progress::RunRecord::start("mbt", env!("CARGO_PKG_VERSION"), SCHEMA_VERSION),
            ..Summary::default()
        };
        // RFC 3339 UTC times to the second order as text; shards of before the field have none.
        let times = |time: fn(&Summary) -> &String| {
            let times = shards.iter().map(time).filter(|t| !t.is_empty());
            (times.clone().min().cloned(), times.max().cloned())
        };
        let (first_start, _) = times(|s| &s.run.start_time);
        let (_, last_end) = times(|s| &s.run.end_time);
        merged.run.start_time = first_start.unwrap_or_default();
        merged.run.end_time = last_end.unwrap_or_default();
        for (n, shard) in shards.iter().enumerate() {
            if n == 0 {
                merged.seed = shard.seed;
                merged.shard = (0, shard.shard.1);
                merged.z3_version = shard.z3_version.clone();
                merged.api_coverage = shard.api_coverage.clone();
            }
            merged.rounds += shard.rounds;
            // Shards run side by side: the campaign took as long as the slowest shard.
            merged.seconds = merged.seconds.max(shard.seconds);
            merged.interrupted |= shard.interrupted;
            merged.failed_rounds += shard.failed_rounds;
            merged.failed_seeds.extend(&shard.failed_seeds);
            merged.timeouts_not_findings += shard.timeouts_not_findings;
            merged.timeout_seeds.extend(&shard.timeout_seeds);
            merged.stats.merge(&shard.stats);
            for entry in &shard.failure_list {
                add_by_signature(&mut merged.failure_list, entry.clone());
            }
        }
        let timelines: Vec<&Timeline> = shards.iter().map(|s| &s.timeline).collect();
        merged.timeline = Timeline::merge(&timelines);
        // Shards may have found one root cause through different first signatures.
        merge_root_causes(&mut merged.failure_list);
        merged.finish();
        merged
    }

    /// Fills the derived figures from the counts.
    pub fn finish(&mut self) {
        self.rounds_per_second = self.rounds as f64 / self.seconds.max(1e-9);
        self.calls_per_round = self.stats.n_calls() as f64 / self.rounds.max(1) as f64;
        self.checks_per_round = self.stats.n_checks() as f64 / self.rounds.max(1) as f64;
        self.operations = self.stats.calls.clone();
        self.unjudged_ops = self.stats.unjudged_ops.clone();
        self.rounds_per_theory = self.stats.rounds_per_theory.clone();
        self.z3_functions = self.stats.z3_functions.clone();
        if let Some(basis) = &self.api_coverage {
            self.api_never_called = basis.never_called(&self.z3_functions);
            self.api_called = basis.functions.len() - self.api_never_called.len();
        }
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
}

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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::failure::FailureKind;

    /// A failure entry for tests: a crash with `signature`, minimized to `root_cause`.
    pub(crate) fn entry(
        id: &str,
        signature: &str,
        root_cause: Option<&str>,
        seed: u64,
    ) -> FailureEntry {
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
            reproducers: Vec::new(),
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
    fn a_finding_goes_by_each_of_its_signatures_once_the_minimized_first() {
        let mut e = entry("a", "crash|x|push", Some("crash|root|push"), 1);
        e.merged_signatures = vec!["crash|y|pop".into(), "crash|root|push".into()];
        assert_eq!(
            e.signatures(),
            ["crash|root|push", "crash|x|push", "crash|y|pop"]
        );
        assert_eq!(
            entry("b", "crash|x|push", None, 1).signatures(),
            ["crash|x|push"]
        );
        // As written and read back from its folder.
        let dir = tempfile::tempdir().unwrap();
        e.write(dir.path()).unwrap();
        let read = FailureEntry::read(&dir.path().join(FailureEntry::FILE)).unwrap();
        assert_eq!(read, e);
        fs::write(dir.path().join(FailureEntry::FILE), "{").unwrap();
        let err = FailureEntry::read(&dir.path().join(FailureEntry::FILE)).unwrap_err();
        assert!(
            format!("{err:#}").contains("not a failure report"),
            "{err:#}"
        );
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
        // A replay command as the campaign writes one: program, options, trace.
        let replay_command = |trace: &Path, extra: &[String]| {
            let mut words = vec!["/bin/mbt".to_string(), "replay".into()];
            words.extend(extra.iter().map(|a| shell_word(a)));
            words.push(shell_word(&trace.to_string_lossy()));
            words.join(" ")
        };
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
}
