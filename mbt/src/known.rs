//! `--known PATH`: the signatures of failures already reported, so that a nightly campaign
//! tells new findings from known ones ([`KnownSignatures`]).
//!
//! PATH is a file of signatures (one a line, `#` starts a comment line) or a folder, searched
//! recursively: a `failure.json` (an earlier campaign's report) gives its `signature`, its
//! signature after minimization and the signatures merged into it; a `*.trace` or `*.btrace`
//! file, and a Z3 API log of any name (a file that starts with a log's `V "..."` line:
//! [`z3log::parse::starts_with_version`]), is replayed once with the replayer `--minimize`
//! uses ([`crate::minimize::replayer`]; a regression case that declares a `timeout` under
//! untrace's `--timeout`) and gives the signature its failing replay reports (untrace's
//! `--report`, the same text as its `untrace: signature: S` line). A folder that holds a
//! `failure.json` is read from it alone: its traces are the same finding. A trace or log
//! whose replay shows no signature is ignored with a warning. PATH may also be a single
//! trace or log, replayed so.

use crate::interrupt;
use crate::minimize;
use crate::summary::FailureEntry;
use anyhow::Context as _;
use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long one replay of a known trace may run.
const REPLAY_LIMIT: Duration = Duration::from_secs(20);

/// The signatures of known failures.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KnownSignatures {
    signatures: BTreeSet<String>,
}

impl KnownSignatures {
    pub fn contains(&self, signature: &str) -> bool {
        self.signatures.contains(signature)
    }

    pub fn len(&self) -> usize {
        self.signatures.len()
    }

    pub fn is_empty(&self) -> bool {
        self.signatures.is_empty()
    }

    /// Adds `signatures` (e.g. the findings database's open findings).
    pub fn extend(&mut self, signatures: impl IntoIterator<Item = String>) {
        self.signatures.extend(signatures);
    }

    /// Reads `path`, a file of signatures or a folder (see the module documentation); warnings
    /// about ignored traces go to stderr.
    pub fn load(path: &Path) -> anyhow::Result<KnownSignatures> {
        let mut known = KnownSignatures::default();
        let meta = fs::metadata(path).with_context(|| format!("--known {}", path.display()))?;
        if meta.is_dir() {
            known.read_folder(path)?;
        } else if is_replayable(path) {
            known.read_replay(path)?;
        } else {
            let text = fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            known.signatures.extend(signature_lines(&text));
        }
        Ok(known)
    }

    fn read_folder(&mut self, dir: &Path) -> anyhow::Result<()> {
        let report = dir.join(FailureEntry::FILE);
        if report.is_file() {
            // Its own signature, the one after minimization and those merged into it.
            let entry = FailureEntry::read(&report)?;
            self.signatures
                .extend(entry.signatures().into_iter().map(str::to_string));
            return Ok(());
        }
        let mut entries: Vec<PathBuf> = fs::read_dir(dir)
            .with_context(|| format!("cannot read {}", dir.display()))?
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()
            .with_context(|| format!("cannot read {}", dir.display()))?;
        entries.sort();
        for path in entries {
            // A Ctrl-C while traces replay: the campaign that follows stops at once and
            // reports the interruption; the remaining replays would only delay it.
            if interrupt::requested().is_some() {
                return Ok(());
            }
            if path.is_dir() {
                self.read_folder(&path)?;
            } else if is_replayable(&path) {
                self.read_replay(&path)?;
            }
        }
        Ok(())
    }

    /// The signature of a trace's or log's replay, or a warning that it has none.
    fn read_replay(&mut self, path: &Path) -> anyhow::Result<()> {
        match replay_signature(path)? {
            Ok(signature) => {
                self.signatures.insert(signature);
            }
            Err(why) => eprintln!("mbt: warning: --known: {}: {why}; ignored", path.display()),
        }
        Ok(())
    }
}

/// The signatures of a file of signatures: one a line, blank lines and `#` comment lines
/// skipped. (A `#` inside a line belongs to the signature: messages hold `#x` literals.)
pub fn signature_lines(text: &str) -> impl Iterator<Item = String> + '_ {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
}

/// A trace (by its extension, as mbt and ddtrace name them) or a Z3 API log (by its content).
fn is_replayable(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("trace" | "btrace")
    ) || z3log::is_versioned_log_file(path)
}

/// Replays `trace` once (in a private folder, see [`minimize::replay_once`]) and returns the
/// signature its replay reports, or why there is none. A regression case that declares a
/// `timeout` (`; timeout: 3` in traces/regress: it hangs) replays under it, so that its hang
/// shows as the timeout signature it stands for. An error only when the replayer cannot run
/// at all.
fn replay_signature(trace: &Path) -> anyhow::Result<Result<String, String>> {
    // A regression case that hangs declares its `; timeout:`, which the replayer applies.
    let replayer = minimize::replayer(minimize::Answers::Ignored);
    let replayed = minimize::replay_once(&replayer, trace, REPLAY_LIMIT)
        .with_context(|| format!("cannot run {}", replayer.0.display()))?;
    Ok(match replayed {
        minimize::Replayed::Fails(signature) => Ok(signature.to_string()),
        minimize::Replayed::Passes => Err("its replay shows no signature (it passes)".into()),
        other => Err(format!(
            "its replay shows no signature: {}",
            other.describe()
        )),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signature_files_skip_comments_and_blank_lines() {
        let text = "# nightly known bugs\n\ncrash|killed by SIGSEGV|check_sat\n  model|assertion #xNf|model_eval  \n";
        let lines: Vec<String> = signature_lines(text).collect();
        assert_eq!(
            lines,
            [
                "crash|killed by SIGSEGV|check_sat",
                "model|assertion #xNf|model_eval"
            ]
        );
    }

    #[test]
    fn folders_are_read_from_failure_reports() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("failures/crash-1");
        fs::create_dir_all(&a).unwrap();
        let mut entry =
            crate::summary::tests::entry("crash-1", "crash|a|push", Some("crash|root|push"), 1);
        entry.merged_signatures = vec!["crash|b|pop".into()];
        entry.write(&a).unwrap();
        // Beside a report, traces are not replayed (this one would not even parse).
        fs::write(a.join("round.trace"), "not a trace").unwrap();
        let known = KnownSignatures::load(dir.path()).unwrap();
        assert_eq!(known.len(), 3);
        assert!(known.contains("crash|root|push") && known.contains("crash|b|pop"));
        let bad = dir.path().join("bad");
        fs::create_dir_all(&bad).unwrap();
        fs::write(bad.join("failure.json"), "{").unwrap();
        let err = KnownSignatures::load(dir.path()).unwrap_err();
        assert!(
            format!("{err:#}").contains("not a failure report"),
            "{err:#}"
        );
    }
}
