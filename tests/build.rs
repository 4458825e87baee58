//! Marks the tests that need a second Z3 as ignored when there is none (`cfg(no_other_z3)`,
//! used as `#[cfg_attr(no_other_z3, ignore = "...")]`), so that cargo's summary counts them
//! as ignored, with the reason, instead of as passed. The tests check again when they run.

#[path = "src/other_z3.rs"]
#[allow(dead_code)]
mod other_z3;

use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ sits in the repository root");
    println!("cargo::rustc-check-cfg=cfg(no_other_z3)");
    println!("cargo::rerun-if-env-changed={}", other_z3::OTHER_LIB_VAR);
    println!("cargo::rerun-if-changed=src/other_z3.rs");
    match other_z3::find(root) {
        Some(lib) => println!("cargo::rerun-if-changed={}", lib.display()),
        None => {
            // Installing the wheel creates .ci/venv: the folder's listing changes.
            println!("cargo::rerun-if-changed={}", root.join(".ci").display());
            println!("cargo::rustc-cfg=no_other_z3");
            println!("cargo::warning={}", other_z3::NO_OTHER_Z3);
        }
    }
}
