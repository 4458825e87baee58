//! `mbt merge OUT DIR...`: merges the output folders of many shards into one deduplicated
//! result in the new folder OUT: summed statistics, failures deduplicated by signature (the
//! copy whose saved round has the lowest seed is kept, counts are added, seeds widened; paths and commands point at
//! the copy), kept traces copied, one `OUT/summary.json` and every `failure.json` with the
//! merged counts. Failures whose signatures after minimization agree are merged too. The
//! timelines of the shards add up ([`Timeline::merge`]), and `OUT/report.html` is written.
//! [`merge_summaries`] does the same in memory, for `mbt report` on shard folders.

use crate::campaign::{self, OutLock, Summary};
use crate::report;
use crate::timeline::Timeline;
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

/// Reads the `summary.json` of the campaign folder `dir`, with its failures' paths and
/// commands pointing at where their folders are now (a folder copied from a cluster node
/// keeps working).
pub fn read_summary(dir: &Path) -> anyhow::Result<Summary> {
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
pub fn merge_summaries(shards: &[Summary]) -> Summary {
    let mut merged = Summary {
        run: progress::RunRecord::start("mbt", env!("CARGO_PKG_VERSION"), campaign::SCHEMA_VERSION),
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
            campaign::add_by_signature(&mut merged.failure_list, entry.clone());
        }
    }
    let timelines: Vec<&Timeline> = shards.iter().map(|s| &s.timeline).collect();
    merged.timeline = Timeline::merge(&timelines);
    // Shards may have found one root cause through different first signatures.
    campaign::merge_root_causes(&mut merged.failure_list);
    merged.finish();
    merged
}

/// Merges shard folders into the new folder `out`, with its `report.html`.
pub fn merge(out: &Path, dirs: &[PathBuf]) -> anyhow::Result<Summary> {
    let _lock = OutLock::claim(out)?;
    let out = std::path::absolute(out)?;
    let shards = dirs
        .iter()
        .map(|dir| read_summary(dir))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut merged = merge_summaries(&shards);
    merged.merged_from = dirs
        .iter()
        .map(std::path::absolute)
        .collect::<Result<_, _>>()?;
    for entry in &mut merged.failure_list {
        let to = out.join("failures").join(&entry.id);
        let from = entry
            .trace
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        copy_dir(&from, &to)?;
        entry.relocate(&from, &to);
    }
    for dir in dirs {
        let traces = dir.join("traces");
        if traces.is_dir() {
            copy_dir(&traces, &out.join("traces"))?;
        }
    }
    merged.write_all(&out)?;
    report::write_beside(&out, &merged, None, false);
    Ok(merged)
}
