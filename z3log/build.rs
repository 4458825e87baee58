//! Lists the call tables (`tables/VERSION.tsv`) for `src/table.rs`, which compiles them in.

use std::fmt::Write as _;

fn main() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tables");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("z3log/tables is readable")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".tsv"))
        .collect();
    names.sort();
    let mut out = String::from(
        "/// Every table: (version, file text).\npub static TABLES: &[(&str, &str)] = &[\n",
    );
    for name in &names {
        let version = name.trim_end_matches(".tsv");
        let path = dir.join(name);
        let _ = writeln!(
            out,
            "    ({version:?}, include_str!({:?})),",
            path.display().to_string()
        );
    }
    out.push_str("];\n");
    let target = std::path::Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"))
        .join("tables.rs");
    std::fs::write(target, out).expect("OUT_DIR is writable");
}
