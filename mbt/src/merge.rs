//! `mbt merge OUT DIR...`: merges the output folders of many shards into one deduplicated
//! result in the new folder OUT: summed statistics, failures deduplicated by signature (the
//! copy whose saved round has the lowest seed is kept, counts are added, seeds widened; paths and commands point at
//! the copy), kept traces copied, one `OUT/summary.json` and every `failure.json` with the
//! merged counts. Failures whose signatures after minimization agree are merged too. The
//! timelines of the shards add up ([`Timeline::merge`]), and `OUT/report.html` is written.
//! [`Summary::merge`] does the same in memory, for `mbt report` on shard folders.

use crate::report;
use crate::summary::{OutLock, Summary};
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

/// Merges shard folders into the new folder `out`, with its `report.html`.
pub fn merge(out: &Path, dirs: &[PathBuf]) -> anyhow::Result<Summary> {
    let _lock = OutLock::claim(out)?;
    let out = std::path::absolute(out)?;
    let shards = dirs
        .iter()
        .map(|dir| Summary::read(dir))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut merged = Summary::merge(&shards);
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
