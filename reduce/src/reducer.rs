//! [`Reducer`]: the state of one reduction.
//!
//! It holds the best candidate so far (always also the content of the output file, replaced
//! atomically by writing a temporary file in the same directory and renaming it), a cache of
//! verdicts keyed by candidate content, and statistics per pass ([`PassStats`]).
//!
//! Determinism: [`Reducer::first_success`] is the only way candidates are checked. It builds
//! candidates in order and checks them in batches of `jobs` in parallel threads, accepting the
//! lowest-index candidate that keeps the behaviour: exactly the one a sequential run would
//! accept. So the result does not depend on `jobs` (only the number of checks does).
//!
//! Loops: a candidate equal to a result accepted before is never accepted again, so the
//! sequence of accepted results cannot cycle (with `check_loops`, each avoided loop is counted).

use std::collections::{HashMap, HashSet};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::error::EngineError;
use super::signals::StopFlag;
use super::tester::{Tester, Verdict};

/// Options of the engine itself.
#[derive(Clone, Debug)]
pub struct ReducerOptions {
    /// Number of checks run in parallel (at least 1).
    pub jobs: usize,
    /// Accept every candidate without running anything (`--unchecked`).
    pub unchecked: bool,
    /// Report each time a candidate is rejected because it would re-enter an earlier result.
    pub check_loops: bool,
}

impl Default for ReducerOptions {
    fn default() -> Self {
        ReducerOptions {
            jobs: 1,
            unchecked: false,
            check_loops: false,
        }
    }
}

/// One candidate: its text and the pass (mutator) that produced it, for statistics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub pass: String,
    pub text: Vec<u8>,
}

impl Candidate {
    pub fn new(pass: impl Into<String>, text: impl Into<Vec<u8>>) -> Candidate {
        Candidate {
            pass: pass.into(),
            text: text.into(),
        }
    }
}

/// Statistics of one pass or mutator.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PassStats {
    /// Candidates considered (checked or answered from the cache).
    pub tried: u64,
    /// Candidates actually checked by running the tester.
    pub checks: u64,
    /// Candidates accepted.
    pub succeeded: u64,
    /// Total time of this pass's checks (summed over parallel threads).
    pub time: Duration,
}

/// The figures of a reduction, as `ddsmt --json` and `ddtrace --json` write them
/// (docs/json-schemas.md).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Figures {
    /// Bytes of the input and of the best result.
    pub input_size: usize,
    pub output_size: usize,
    /// Checks run (candidates the tester ran on), verdicts taken from the cache instead, and
    /// candidates accepted.
    pub checks: u64,
    pub cache_hits: u64,
    pub accepted: u64,
    /// Checks killed at their time limit.
    pub timeouts: u64,
    /// Wall-clock time of the whole run, and CPU time of the tool and every check it ran.
    pub wall_seconds: f64,
    pub cpu_seconds: f64,
    /// Per pass (ddtrace) or mutator (ddsmt), in order of first use.
    pub passes: Vec<PassFigures>,
}

/// [`PassStats`] of one pass in [`Figures`].
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PassFigures {
    pub name: String,
    pub tried: u64,
    pub checks: u64,
    pub accepted: u64,
    /// Time of this pass's checks, summed over parallel checks.
    pub check_seconds: f64,
}

/// A snapshot for progress displays.
#[derive(Clone, Debug)]
pub struct Status<'a> {
    pub phase: &'a str,
    pub initial_size: usize,
    pub best_size: usize,
    pub checks: u64,
    pub successes: u64,
}

/// Cache key: length and two independent 64-bit hashes of the content (a collision would need
/// two candidates of equal length agreeing on 128 hash bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Key(usize, u64, u64);

impl Key {
    fn of(text: &[u8]) -> Key {
        let mut a = DefaultHasher::new();
        text.hash(&mut a);
        let mut b = DefaultHasher::new();
        0xa5u8.hash(&mut b);
        text.hash(&mut b);
        Key(text.len(), a.finish(), b.finish())
    }
}

type Observer<'t> = Box<dyn FnMut(&Status) + 't>;
type AcceptHook<'t> = Box<dyn FnMut(&[u8], &[u8]) + 't>;

/// The state of one reduction (see the module documentation).
pub struct Reducer<'t> {
    tester: &'t dyn Tester,
    options: ReducerOptions,
    stop: StopFlag,
    initial_size: usize,
    best: Vec<u8>,
    output: Option<PathBuf>,
    cache: HashMap<Key, bool>,
    accepted: HashSet<Key>,
    stats: Vec<(String, PassStats)>,
    checks: u64,
    cache_hits: u64,
    successes: u64,
    loops_avoided: u64,
    phase: String,
    failure: Option<EngineError>,
    observer: Option<Observer<'t>>,
    on_accept: Option<AcceptHook<'t>>,
    admissible: Option<Admissible<'t>>,
    inadmissible: u64,
}

type Admissible<'t> = Box<dyn Fn(&[u8]) -> bool + 't>;

impl<'t> Reducer<'t> {
    /// Start from `initial`, which the tester is assumed to keep (the golden input).
    pub fn new(
        tester: &'t dyn Tester,
        initial: Vec<u8>,
        options: ReducerOptions,
        stop: StopFlag,
    ) -> Reducer<'t> {
        let mut accepted = HashSet::new();
        accepted.insert(Key::of(&initial));
        Reducer {
            tester,
            options: ReducerOptions {
                jobs: options.jobs.max(1),
                ..options
            },
            stop,
            initial_size: initial.len(),
            best: initial,
            output: None,
            cache: HashMap::new(),
            accepted,
            stats: Vec::new(),
            checks: 0,
            cache_hits: 0,
            successes: 0,
            loops_avoided: 0,
            phase: String::new(),
            failure: None,
            observer: None,
            on_accept: None,
            admissible: None,
            inadmissible: 0,
        }
    }

    /// Keep `path` equal to the best result from now on (written at once).
    pub fn set_output(&mut self, path: &Path) -> Result<(), EngineError> {
        write_atomically(path, &self.best)?;
        self.output = Some(path.to_path_buf());
        Ok(())
    }

    /// Called after every batch of checks and every accepted candidate.
    pub fn set_observer(&mut self, f: impl FnMut(&Status) + 't) {
        self.observer = Some(Box::new(f));
    }

    /// Called with (previous best, new best) on every accepted candidate (e.g. `--dump-diffs`).
    pub fn set_accept_hook(&mut self, f: impl FnMut(&[u8], &[u8]) + 't) {
        self.on_accept = Some(Box::new(f));
    }

    /// Only candidates for which `f` holds are ever checked or accepted (e.g. ddsmt: scopes
    /// stay balanced); the others are skipped without running anything.
    pub fn set_admissible(&mut self, f: impl Fn(&[u8]) -> bool + 't) {
        self.admissible = Some(Box::new(f));
    }

    /// Candidates skipped because they were not admissible.
    pub fn inadmissible(&self) -> u64 {
        self.inadmissible
    }

    /// Name of the current phase, for progress displays.
    pub fn set_phase(&mut self, phase: &str) {
        self.phase = phase.to_string();
        self.notify();
    }

    pub fn best(&self) -> &[u8] {
        &self.best
    }
    pub fn initial_size(&self) -> usize {
        self.initial_size
    }
    pub fn checks(&self) -> u64 {
        self.checks
    }
    pub fn cache_hits(&self) -> u64 {
        self.cache_hits
    }
    pub fn successes(&self) -> u64 {
        self.successes
    }
    pub fn loops_avoided(&self) -> u64 {
        self.loops_avoided
    }
    /// Statistics per pass, in order of first use.
    pub fn stats(&self) -> &[(String, PassStats)] {
        &self.stats
    }
    /// The figures of the reduction so far, as the JSON results report them (the caller adds
    /// what the reducer does not know: timeouts, wall and CPU time).
    pub fn figures(&self) -> Figures {
        Figures {
            input_size: self.initial_size,
            output_size: self.best.len(),
            checks: self.checks,
            cache_hits: self.cache_hits,
            accepted: self.successes,
            passes: (self.stats.iter())
                .map(|(name, st)| PassFigures {
                    name: name.clone(),
                    tried: st.tried,
                    checks: st.checks,
                    accepted: st.succeeded,
                    check_seconds: st.time.as_secs_f64(),
                })
                .collect(),
            ..Figures::default()
        }
    }
    pub fn options(&self) -> &ReducerOptions {
        &self.options
    }

    /// True once a stop was requested or writing the output failed: strategies should return.
    pub fn stopped(&self) -> bool {
        self.failure.is_some() || self.stop.is_set()
    }

    /// Why the reduction stopped early, if it did: an output error, or the signal.
    pub fn take_failure(&mut self) -> Option<EngineError> {
        self.failure
            .take()
            .or_else(|| self.stop.signal().map(EngineError::Interrupted))
    }

    /// Consider candidates `0..count` in order (`build(i)` gives candidate `i`, or `None` to
    /// skip it) and accept the first that keeps the behaviour: it becomes the best result and
    /// the output file. Returns its index, or `None` if none does (or the reduction stopped).
    /// Candidates equal to the best result or to an earlier result are skipped.
    pub fn first_success(
        &mut self,
        count: usize,
        mut build: impl FnMut(usize) -> Option<Candidate>,
    ) -> Option<usize> {
        let mut next = 0;
        while next < count {
            if self.stopped() {
                return None;
            }
            // Assemble a batch of up to `jobs` candidates that need a check; a candidate
            // already known to keep the behaviour ends the batch (nothing after it matters).
            let mut batch: Vec<(usize, Candidate, Key)> = Vec::new();
            let mut known_good: Option<(usize, Candidate, Key)> = None;
            while next < count && batch.len() < self.options.jobs {
                let index = next;
                next += 1;
                let Some(cand) = build(index) else { continue };
                if cand.text == self.best {
                    continue;
                }
                if self.admissible.as_ref().is_some_and(|ok| !ok(&cand.text)) {
                    self.inadmissible += 1;
                    continue;
                }
                let key = Key::of(&cand.text);
                if self.accepted.contains(&key) {
                    self.loops_avoided += 1;
                    if self.options.check_loops {
                        eprintln!(
                            "[ddsmt] loop avoided: candidate {index} of pass '{}' repeats an earlier result",
                            cand.pass
                        );
                    }
                    continue;
                }
                if batch.iter().any(|(_, _, k)| *k == key) {
                    continue; // same text earlier in this batch: same verdict, lower index
                }
                self.pass_stats(&cand.pass).tried += 1;
                match self.cache.get(&key) {
                    Some(true) => {
                        self.cache_hits += 1;
                        known_good = Some((index, cand, key));
                        break;
                    }
                    Some(false) => self.cache_hits += 1,
                    None => batch.push((index, cand, key)),
                }
            }
            let verdicts = self.check_batch(&batch);
            if verdicts.iter().any(|(v, _)| *v == Verdict::Interrupted) {
                self.notify();
                return None;
            }
            let mut winner = known_good;
            for ((index, cand, key), (verdict, time)) in batch.into_iter().zip(verdicts) {
                let keeps = verdict == Verdict::Keeps;
                self.cache.insert(key, keeps);
                let stats = self.pass_stats(&cand.pass);
                stats.checks += 1;
                stats.time += time;
                if keeps && winner.as_ref().is_none_or(|(w, _, _)| index < *w) {
                    winner = Some((index, cand, key));
                }
            }
            if let Some((index, cand, key)) = winner {
                self.accept(cand, key);
                return Some(index);
            }
            self.notify();
        }
        None
    }

    /// Run the tester on every candidate of the batch, in parallel when there are several.
    fn check_batch(&mut self, batch: &[(usize, Candidate, Key)]) -> Vec<(Verdict, Duration)> {
        if self.options.unchecked {
            return batch
                .iter()
                .map(|_| (Verdict::Keeps, Duration::ZERO))
                .collect();
        }
        self.checks += batch.len() as u64;
        let tester = self.tester;
        let timed = |text: &[u8]| {
            let start = Instant::now();
            let v = tester.test(text);
            (v, start.elapsed())
        };
        if batch.len() == 1 {
            return vec![timed(&batch[0].1.text)];
        }
        std::thread::scope(|s| {
            let handles: Vec<_> = batch
                .iter()
                .map(|(_, cand, _)| s.spawn(|| timed(&cand.text)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or((Verdict::Differs, Duration::ZERO)))
                .collect()
        })
    }

    fn accept(&mut self, cand: Candidate, key: Key) {
        let previous = std::mem::replace(&mut self.best, cand.text);
        self.accepted.insert(key);
        self.successes += 1;
        self.pass_stats(&cand.pass).succeeded += 1;
        if let Some(path) = &self.output {
            if let Err(e) = write_atomically(path, &self.best) {
                self.failure = Some(e);
            }
        }
        if let Some(hook) = self.on_accept.as_mut() {
            hook(&previous, &self.best);
        }
        self.notify();
    }

    fn pass_stats(&mut self, pass: &str) -> &mut PassStats {
        let pos = match self.stats.iter().position(|(p, _)| p == pass) {
            Some(pos) => pos,
            None => {
                self.stats.push((pass.to_string(), PassStats::default()));
                self.stats.len() - 1
            }
        };
        &mut self.stats[pos].1
    }

    fn notify(&mut self) {
        if let Some(obs) = self.observer.as_mut() {
            obs(&Status {
                phase: &self.phase,
                initial_size: self.initial_size,
                best_size: self.best.len(),
                checks: self.checks,
                successes: self.successes,
            });
        }
    }
}

/// Replace `path` by `content` atomically: temporary file in the same directory, then rename.
pub fn write_atomically(path: &Path, content: &[u8]) -> Result<(), EngineError> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let fail =
        |e: std::io::Error| EngineError::Io(format!("{}: cannot write: {e}", path.display()));
    let mut tmp = tempfile::Builder::new()
        .prefix(".ddsmt-out-")
        .tempfile_in(dir)
        .map_err(fail)?;
    tmp.write_all(content).map_err(fail)?;
    // Readable like a file the user wrote (tempfile creates 0600).
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o644)).map_err(fail)?;
    tmp.persist(path).map_err(|e| fail(e.error))?;
    Ok(())
}
