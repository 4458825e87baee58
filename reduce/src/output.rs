//! Checks on the output path made before the golden run, so that a mistake is reported at
//! once and not after minutes of checks: the output must not be the input (same path, a
//! symlink to it, or a hard link: the same device and inode), and its directory must exist
//! and accept a new file.

use std::os::unix::fs::MetadataExt;
use std::path::Path;

use super::error::EngineError;

/// `Ok` if `json` can receive the JSON result (`--json`) of reducing `input` into `output`:
/// as [`check_output`], and it is not the output file either.
pub fn check_json_output(input: &Path, output: &Path, json: &Path) -> Result<(), EngineError> {
    let same = |a: &Path, b: &Path| match (std::path::absolute(a), std::path::absolute(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if same(json, output) {
        return Err(EngineError::Usage(format!(
            "{}: --json names the output file; give another path",
            json.display()
        )));
    }
    check_output(input, json)
}

/// `Ok` if `output` can receive the result of reducing `input` without touching `input`.
pub fn check_output(input: &Path, output: &Path) -> Result<(), EngineError> {
    if let (Ok(i), Ok(o)) = (std::fs::metadata(input), std::fs::metadata(output)) {
        if i.dev() == o.dev() && i.ino() == o.ino() {
            return Err(EngineError::Usage(format!(
                "{}: the output is the input file; refusing to overwrite the input",
                output.display()
            )));
        }
    }
    let dir = match output.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(EngineError::Io(format!(
            "{}: the output directory {} does not exist",
            output.display(),
            dir.display()
        )));
    }
    // The result is written by temp file + rename in this directory: try exactly that.
    tempfile::Builder::new()
        .prefix(".reduce-probe-")
        .tempfile_in(dir)
        .map(drop)
        .map_err(|e| {
            EngineError::Io(format!(
                "{}: cannot write to the output directory: {e}",
                output.display()
            ))
        })
}

/// What the output path was when a run started, to tell afterwards whether this run wrote it
/// (the result is always written by rename, so a new inode or time means a new file). An
/// early interruption must not claim that a stale or missing file holds the best result.
pub struct OutputSnapshot {
    path: std::path::PathBuf,
    before: Option<(u64, u64, i64, i64)>,
}

fn identity(path: &Path) -> Option<(u64, u64, i64, i64)> {
    let m = std::fs::metadata(path).ok()?;
    Some((m.dev(), m.ino(), m.mtime(), m.mtime_nsec()))
}

impl OutputSnapshot {
    pub fn take(path: &Path) -> OutputSnapshot {
        OutputSnapshot {
            path: path.to_path_buf(),
            before: identity(path),
        }
    }

    /// Whether the output was (re)written since [`OutputSnapshot::take`].
    pub fn written(&self) -> bool {
        match identity(&self.path) {
            Some(now) => Some(now) != self.before,
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_the_input_by_path_symlink_and_hard_link() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.smt2");
        std::fs::write(&input, "x").unwrap();
        assert!(matches!(
            check_output(&input, &input),
            Err(EngineError::Usage(_))
        ));
        let link = dir.path().join("link.smt2");
        std::os::unix::fs::symlink(&input, &link).unwrap();
        assert!(matches!(
            check_output(&input, &link),
            Err(EngineError::Usage(_))
        ));
        let hard = dir.path().join("hard.smt2");
        std::fs::hard_link(&input, &hard).unwrap();
        assert!(matches!(
            check_output(&input, &hard),
            Err(EngineError::Usage(_))
        ));
        assert!(check_output(&input, &dir.path().join("out.smt2")).is_ok());
    }

    #[test]
    fn a_snapshot_tells_whether_the_output_was_written() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out.smt2");
        let snap = OutputSnapshot::take(&out);
        assert!(!snap.written());
        std::fs::write(dir.path().join("tmp"), "y").unwrap();
        std::fs::rename(dir.path().join("tmp"), &out).unwrap();
        assert!(snap.written());
        let stale = OutputSnapshot::take(&out);
        assert!(
            !stale.written(),
            "a file from an earlier run is not this run's output"
        );
    }

    #[test]
    fn a_missing_output_directory_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.smt2");
        std::fs::write(&input, "x").unwrap();
        let out = dir.path().join("missing").join("out.smt2");
        let err = check_output(&input, &out).unwrap_err();
        assert!(matches!(err, EngineError::Io(_)));
        assert!(err.to_string().contains("does not exist"), "{err}");
    }
}
