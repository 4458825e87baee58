//! `mbt merge OUT DIR...`: merges the output folders of many shards into one deduplicated
//! result in the new folder OUT: summed statistics, failures deduplicated by signature (the
//! first shard's copy is kept, counts are added, seeds widened; paths and commands point at
//! the copy), kept traces copied, one `OUT/summary.json` and every `failure.json` with the
//! merged counts. Failures whose signatures after minimization agree are merged too.

use crate::campaign::{self, OutLock, Summary};
use anyhow::Context as _;
use std::fs;
use std::path::{Path, PathBuf};

/// Copies folder `from` into `to`, subfolders included.
fn copy_dir(from: &Path, to: &Path) -> anyhow::Result<()> {
    fs::create_dir_all(to).with_context(|| format!("cannot create {}", to.display()))?;
    let entries = fs::read_dir(from).with_context(|| format!("cannot read {}", from.display()))?;
    for entry in entries {
        let entry = entry?;
        let kind = entry.file_type()?;
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else if kind.is_file() {
            fs::copy(entry.path(), &target)
                .with_context(|| format!("cannot write {}", target.display()))?;
        }
    }
    Ok(())
}

/// Merges shard folders into the new folder `out`.
pub fn merge(out: &Path, dirs: &[PathBuf]) -> anyhow::Result<Summary> {
    let _lock = OutLock::claim(out)?;
    let out = std::path::absolute(out)?;
    let mut merged = Summary {
        run: progress::RunRecord::start("mbt", env!("CARGO_PKG_VERSION"), campaign::SCHEMA_VERSION),
        ..Summary::default()
    };
    // The merged campaign ran from the first shard's start to the last shard's end (RFC 3339
    // UTC times order as text); command line and host are the merge's.
    let (mut first_start, mut last_end) = (None::<String>, None::<String>);
    for (n, dir) in dirs.iter().enumerate() {
        let path = dir.join("summary.json");
        let text =
            fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
        let shard: Summary = serde_json::from_str(&text)
            .with_context(|| format!("{}: not an mbt summary", path.display()))?;
        if n == 0 {
            merged.seed = shard.seed;
            merged.shard = (0, shard.shard.1);
            merged.z3_version = shard.z3_version.clone();
        }
        if !shard.run.start_time.is_empty() {
            let (start, end) = (&shard.run.start_time, &shard.run.end_time);
            if first_start.as_ref().is_none_or(|first| start < first) {
                first_start = Some(start.clone());
            }
            if last_end.as_ref().is_none_or(|last| end > last) {
                last_end = Some(end.clone());
            }
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
        let shard_failures = std::path::absolute(dir.join("failures"))?;
        for mut entry in shard.failure_list {
            let (from, to) = (
                shard_failures.join(&entry.id),
                out.join("failures").join(&entry.id),
            );
            if merged
                .failure_list
                .iter()
                .all(|e| e.signature != entry.signature)
            {
                copy_dir(&from, &to)?;
                entry.relocate(&from, &to);
            }
            campaign::add_by_signature(&mut merged.failure_list, entry);
        }
        let traces = dir.join("traces");
        if traces.is_dir() {
            copy_dir(&traces, &out.join("traces"))?;
        }
    }
    // Shards may have found one root cause through different first signatures.
    campaign::merge_same_root_cause(&out.join("failures"), &mut merged.failure_list)?;
    merged.finish();
    merged.run.finish();
    if let (Some(start), Some(end)) = (first_start, last_end) {
        (merged.run.start_time, merged.run.end_time) = (start, end);
    }
    merged.write_all(&out)?;
    Ok(merged)
}
