//! What the integration tests of `smtlib` share.

use std::path::PathBuf;

/// The `*.smt2` scripts of the real-world corpus `tests/smtlib-corpus/`, sorted.
pub fn corpus_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/smtlib-corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "smt2"))
        .collect();
    files.sort();
    files
}
