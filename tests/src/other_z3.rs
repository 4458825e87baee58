//! Where the tests find a second Z3: the libz3 that `Z3_TEST_OTHER_LIB` names, else the
//! z3-solver wheel's that `.ci/install-deps` installs into `.ci/venv` inside the checkout.
//!
//! Std only: `build.rs` includes this file too, to mark the tests that need a second Z3 as
//! ignored (with the reason) when there is none, so a plain `cargo test --workspace` says so
//! in its summary instead of reporting them "ok".

use std::path::{Path, PathBuf};

/// The variable that names a second libz3 (it overrides the one in `.ci/venv`).
pub const OTHER_LIB_VAR: &str = "Z3_TEST_OTHER_LIB";

/// Why the tests on a second Z3 skip when there is none.
pub const NO_OTHER_Z3: &str =
    "no second Z3: run .ci/install-deps (the z3-solver 5.4.1 wheel into .ci/venv) or set Z3_TEST_OTHER_LIB";

/// The libz3 of the z3-solver wheel in `ROOT/.ci/venv`, if one is installed there
/// (`.ci/venv/lib/python3.X/site-packages/z3/lib/libz3.so`).
pub fn wheel_lib(root: &Path) -> Option<PathBuf> {
    let lib = root.join(".ci/venv/lib");
    let mut pythons: Vec<PathBuf> = std::fs::read_dir(&lib)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("python3"))
        })
        .collect();
    pythons.sort();
    pythons
        .into_iter()
        .map(|p| p.join("site-packages/z3/lib/libz3.so"))
        .find(|p| p.is_file())
}

/// The second libz3 for the repository at `root`: `Z3_TEST_OTHER_LIB` when set (as given: a
/// test that uses it checks it), else the wheel's in `.ci/venv`; `None` without either.
pub fn find(root: &Path) -> Option<PathBuf> {
    match std::env::var_os(OTHER_LIB_VAR) {
        Some(path) if !path.is_empty() => Some(PathBuf::from(path)),
        _ => wheel_lib(root),
    }
}
