//! `mbt merge OUT DIR...`: merges the output folders of many shards into one deduplicated
//! result: summed statistics, failures deduplicated by signature (the first folder's copy is
//! kept, counts are added), kept traces copied, one `OUT/summary.json`.

use crate::campaign::Summary;
use anyhow::Context as _;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

fn copy_dir(from: &Path, to: &Path) -> anyhow::Result<()> {
    fs::create_dir_all(to)?;
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        if entry.file_type()?.is_file() {
            fs::copy(entry.path(), to.join(entry.file_name()))?;
        }
    }
    Ok(())
}

/// Merges shard folders into `out`.
pub fn merge(out: &Path, dirs: &[PathBuf]) -> anyhow::Result<Summary> {
    fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let mut merged = Summary::default();
    let mut by_signature: BTreeMap<String, usize> = BTreeMap::new();
    for (n, dir) in dirs.iter().enumerate() {
        let path = dir.join("summary.json");
        let text =
            fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
        let shard: Summary = serde_json::from_str(&text)
            .with_context(|| format!("{}: not an mbt summary", path.display()))?;
        if n == 0 {
            merged.seed = shard.seed;
            merged.shard = (0, shard.shard.1);
        }
        merged.rounds += shard.rounds;
        // Shards run side by side: the campaign took as long as the slowest shard.
        merged.seconds = merged.seconds.max(shard.seconds);
        merged.failed_rounds += shard.failed_rounds;
        merged.failed_seeds.extend(&shard.failed_seeds);
        merged.stats.merge(&shard.stats);
        for entry in shard.failure_list {
            match by_signature.get(&entry.signature) {
                Some(&i) => merged.failure_list[i].count += entry.count,
                None => {
                    copy_dir(
                        &dir.join("failures").join(&entry.id),
                        &out.join("failures").join(&entry.id),
                    )?;
                    by_signature.insert(entry.signature.clone(), merged.failure_list.len());
                    merged.failure_list.push(entry);
                }
            }
        }
        let traces = dir.join("traces");
        if traces.is_dir() {
            copy_dir(&traces, &out.join("traces"))?;
        }
    }
    merged.finish();
    merged.write(out)?;
    Ok(merged)
}
