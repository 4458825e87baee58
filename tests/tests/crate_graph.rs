//! The dependency invariants of ARCHITECTURE.md, read from the manifests by `cargo metadata`
//! (nothing is built): `smtlib` depends on no other crate of the workspace; `ddsmt` depends on
//! `smtlib`, `reduce` and `progress` only; every `[workspace.dependencies]` entry is used by a
//! member; the trace vocabulary (`model::call`, `model::trace`) does not import the findings.

use e2e::repo_root;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

/// `cargo metadata` of the workspace's own packages (no dependency resolution, no network).
fn metadata() -> Value {
    let out = Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(repo_root())
        .output()
        .expect("run cargo metadata");
    assert!(
        out.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON")
}

fn packages(meta: &Value) -> &Vec<Value> {
    meta["packages"].as_array().expect("packages")
}

fn members(meta: &Value) -> BTreeSet<String> {
    packages(meta)
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_string())
        .collect()
}

/// Every dependency of `package` (normal, dev and build alike), by package name.
fn dependencies(meta: &Value, package: &str) -> BTreeSet<String> {
    let found = packages(meta)
        .iter()
        .find(|p| p["name"] == package)
        .unwrap_or_else(|| panic!("no workspace member {package}"));
    found["dependencies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["name"].as_str().unwrap().to_string())
        .collect()
}

/// The workspace crates `package` depends on.
fn workspace_dependencies(meta: &Value, package: &str) -> BTreeSet<String> {
    let members = members(meta);
    dependencies(meta, package)
        .into_iter()
        .filter(|d| members.contains(d))
        .collect()
}

#[test]
fn smtlib_depends_on_no_other_crate_of_the_workspace() {
    let meta = metadata();
    assert_eq!(
        workspace_dependencies(&meta, "smtlib"),
        BTreeSet::new(),
        "smtlib must build alone"
    );
}

#[test]
fn ddsmt_depends_on_smtlib_reduce_and_progress_only() {
    let meta = metadata();
    let expected: BTreeSet<String> = ["smtlib", "reduce", "progress"].map(String::from).into();
    assert_eq!(workspace_dependencies(&meta, "ddsmt"), expected);
}

/// The keys of the root manifest's `[workspace.dependencies]` table (one `name = ...` a line).
fn workspace_dependency_table() -> Vec<String> {
    let manifest = std::fs::read_to_string(repo_root().join("Cargo.toml")).unwrap();
    let keys: Vec<String> = manifest
        .lines()
        .skip_while(|l| l.trim() != "[workspace.dependencies]")
        .skip(1)
        .take_while(|l| !l.trim_start().starts_with('['))
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|l| l.split('=').next().unwrap().trim().to_string())
        .collect();
    assert!(
        keys.iter().any(|k| k == "smtlib"),
        "the root Cargo.toml has no [workspace.dependencies] table: {keys:?}"
    );
    keys
}

#[test]
fn every_workspace_dependency_is_used_by_a_member() {
    let meta = metadata();
    let used: BTreeSet<String> = members(&meta)
        .iter()
        .flat_map(|m| dependencies(&meta, m))
        .collect();
    let unused: Vec<String> = workspace_dependency_table()
        .into_iter()
        .filter(|k| !used.contains(k))
        .collect();
    assert!(
        unused.is_empty(),
        "[workspace.dependencies] entries no member uses: {unused:?}"
    );
}

/// The `.rs` files of `path`: the file itself, or every file below the folder.
fn rust_files(path: &Path) -> Vec<std::path::PathBuf> {
    if path.is_file() {
        return vec![path.to_path_buf()];
    }
    let Ok(entries) = std::fs::read_dir(path) else {
        return Vec::new();
    };
    entries
        .flat_map(|e| rust_files(&e.unwrap().path()))
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect()
}

#[test]
fn the_trace_vocabulary_does_not_import_the_findings() {
    let src = repo_root().join("model/src");
    // `call` may be one file or a folder of them.
    let files: Vec<_> = ["call.rs", "call", "trace"]
        .iter()
        .flat_map(|p| rust_files(&src.join(p)))
        .collect();
    assert!(
        files.iter().any(|f| f.ends_with("trace/mod.rs")),
        "model/src/trace/ not found: {files:?}"
    );
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(
            !text.contains("finding::"),
            "{} names the findings module (model::finding builds on the trace vocabulary, not \
             the other way round)",
            file.display()
        );
    }
}
