//! ARCHITECTURE.md stays true where a test can tell: its code map names every source file of
//! the checkout (one bullet a file) and nothing that does not exist, every path it names
//! elsewhere exists, and the cheap invariants hold in the sources (checked by reading them
//! as text, std only):
//!
//! - `model` and `smtlib` never link Z3 and never start a process: no such dependency in
//!   their manifests, no such call in their `src/`;
//! - a `match` over `Call` has no catch-all arm (`_ =>`, `other =>`) beyond the known ones
//!   listed in [`CALL_CATCH_ALLS`], each a match that picks out a few calls on purpose.
//!
//! What counts as a source file: every `.rs`, `.sh` and `.py` file of a workspace member
//! (its `src/`, `tests/`, `benches/`, `examples/`, `build.rs`, scripts), the scripts of
//! `bench/`, every file of `scale/` and `.ci/` (but READMEs and links), the fuzz targets, the
//! pages of `docs/`, and every folder of `traces/`.

use e2e::repo_root;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn architecture() -> String {
    std::fs::read_to_string(repo_root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md")
}

/// The text between the first pair of backticks of `line`.
fn first_code(line: &str) -> Option<&str> {
    let rest = &line[line.find('`')? + 1..];
    Some(&rest[..rest.find('`')?])
}

/// `path` relative to the checkout, with `/` separators and a trailing `/` for folders.
fn relative(root: &Path, path: &Path) -> String {
    let rel = path
        .strip_prefix(root)
        .unwrap()
        .to_string_lossy()
        .replace('\\', "/");
    if path.is_dir() {
        format!("{rel}/")
    } else {
        rel
    }
}

/// What the code map names (checkout-relative paths, folders with a trailing `/`), or the
/// bullets whose path does not exist. A bullet's path is relative to the folder of its
/// section (`### \`mbt/\``) or, in a crate's section, to its `src/`; a bullet nested below a
/// folder's bullet is relative to that folder.
fn code_map(text: &str, root: &Path) -> (BTreeSet<String>, Vec<String>) {
    let mut named = BTreeSet::new();
    let mut missing = Vec::new();
    let mut in_map = false;
    let mut section: Option<PathBuf> = None;
    let mut folders: Vec<(usize, PathBuf)> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let at = format!("ARCHITECTURE.md:{}", n + 1);
        if line.starts_with("## ") {
            in_map = line == "## Code map";
            continue;
        }
        if !in_map {
            continue;
        }
        if let Some(heading) = line.strip_prefix("### ") {
            let folder = first_code(heading)
                .unwrap_or_else(|| panic!("{at}: a code map section names its folder: {line}"));
            let dir = root.join(folder);
            if !dir.is_dir() {
                missing.push(format!("{at}: section `{folder}` is no folder"));
            }
            named.insert(relative(root, &dir));
            section = Some(dir);
            folders.clear();
            continue;
        }
        let trimmed = line.trim_start();
        if !trimmed.starts_with("- `") {
            continue;
        }
        let indent = line.len() - trimmed.len();
        let item = first_code(trimmed).unwrap();
        let Some(section_dir) = &section else {
            missing.push(format!("{at}: a bullet before the first section: {line}"));
            continue;
        };
        while folders.last().is_some_and(|(i, _)| *i >= indent) {
            folders.pop();
        }
        let candidates = match folders.last() {
            Some((_, dir)) => vec![dir.join(item)],
            None => vec![section_dir.join(item), section_dir.join("src").join(item)],
        };
        match candidates.iter().find(|c| c.exists()) {
            Some(found) => {
                if item.ends_with('/') {
                    folders.push((indent, found.clone()));
                }
                named.insert(relative(root, found));
            }
            None => missing.push(format!(
                "{at}: `{item}` is none of {}",
                candidates
                    .iter()
                    .map(|c| relative(root, c))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }
    (named, missing)
}

/// The workspace members of the root manifest (`members = [...]`, one line).
fn members(root: &Path) -> Vec<String> {
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let line = manifest
        .lines()
        .find(|l| l.starts_with("members = ["))
        .expect("the root Cargo.toml lists its members on one line");
    line["members = [".len()..line.rfind(']').unwrap()]
        .split(',')
        .map(|m| m.trim().trim_matches('"').to_string())
        .filter(|m| !m.is_empty())
        .collect()
}

/// The files below `dir` (recursively; not `target/`, hidden folders or links) that `keep`
/// accepts; with `folders`, the folders below `dir` too.
fn walk(dir: &Path, folders: bool, keep: &dyn Fn(&Path) -> bool, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_symlink() || name.starts_with('.') {
            continue;
        }
        if kind.is_dir() {
            if name == "target" {
                continue;
            }
            if folders {
                out.push(path.clone());
            }
            walk(&path, folders, keep, out);
        } else if keep(&path) {
            out.push(path);
        }
    }
}

fn has_extension(path: &Path, extensions: &[&str]) -> bool {
    path.extension()
        .is_some_and(|e| extensions.iter().any(|x| e == *x))
}

/// The source files and folders the code map must name (module doc).
fn sources(root: &Path) -> BTreeSet<String> {
    let mut found = Vec::new();
    let scripts = |p: &Path| has_extension(p, &["rs", "sh", "py"]);
    for member in members(root) {
        walk(&root.join(member), false, &scripts, &mut found);
    }
    walk(
        &root.join("bench"),
        false,
        &|p| has_extension(p, &["sh"]),
        &mut found,
    );
    let not_readme = |p: &Path| !has_extension(p, &["md"]);
    walk(&root.join("scale"), false, &not_readme, &mut found);
    // `.ci/` is hidden: its files one by one (its `venv` is a link or a folder, not source).
    for entry in std::fs::read_dir(root.join(".ci")).unwrap().flatten() {
        if entry.file_type().is_ok_and(|t| t.is_file()) {
            found.push(entry.path());
        }
    }
    walk(
        &root.join("fuzz/fuzz_targets"),
        false,
        &|p| has_extension(p, &["rs"]),
        &mut found,
    );
    walk(
        &root.join("docs"),
        false,
        &|p| has_extension(p, &["md"]),
        &mut found,
    );
    let mut traces = vec![root.join("traces")];
    walk(&root.join("traces"), true, &|_| false, &mut traces);
    found.extend(traces);
    found.iter().map(|p| relative(root, p)).collect()
}

#[test]
fn the_code_map_names_every_source_file_and_only_files_that_exist() {
    let root = repo_root();
    let (named, missing) = code_map(&architecture(), &root);
    assert!(
        missing.is_empty(),
        "the code map names what does not exist:\n{}",
        missing.join("\n")
    );
    let unnamed: Vec<String> = sources(&root).difference(&named).cloned().collect();
    assert!(
        unnamed.is_empty(),
        "ARCHITECTURE.md's code map has no line for (add `- \\`PATH\\`: what it is` under the \
         crate's or folder's section):\n{}",
        unnamed.join("\n")
    );
}

/// Paths in backticks anywhere in ARCHITECTURE.md (a `/` in them, a file ending of source or
/// documentation) exist: from the checkout's root, or from the folder (or its `src/`) of the
/// code map section they stand in.
#[test]
fn every_path_the_document_names_exists() {
    let root = repo_root();
    let text = architecture();
    let mut section = root.clone();
    let mut in_map = false;
    let mut missing = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with("## ") {
            section = root.clone();
            in_map = line == "## Code map";
        }
        // A code map bullet's own path is checked with the code map (it may be relative to
        // the folder of the bullet above it): here only the paths in its text.
        let bullet_path = (in_map && line.trim_start().starts_with("- `"))
            .then(|| first_code(line))
            .flatten();
        if let Some(heading) = line.strip_prefix("### ") {
            if let Some(folder) = first_code(heading) {
                section = root.join(folder);
            }
        }
        for (i, code) in line.split('`').enumerate() {
            let is_path = i % 2 == 1
                && !(i == 1 && bullet_path == Some(code))
                && code.contains('/')
                && !code.contains([' ', '*', '<'])
                && has_extension(Path::new(code), &["rs", "sh", "md", "py", "toml"]);
            if is_path
                && ![&root, &section, &section.join("src")]
                    .iter()
                    .any(|base| base.join(code).exists())
            {
                missing.push(format!("ARCHITECTURE.md:{}: `{code}`", n + 1));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names paths that do not exist:\n{}",
        missing.join("\n")
    );
}

/// The `.rs` files below `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    walk(dir, false, &|p| has_extension(p, &["rs"]), &mut files);
    files.sort();
    files
}

/// Lines of `text` that are not `//` comments, numbered from 1.
fn code_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(n, l)| (n + 1, l))
        .filter(|(_, l)| !l.trim_start().starts_with("//"))
}

#[test]
fn model_and_smtlib_never_link_z3_and_never_start_a_process() {
    let root = repo_root();
    let mut found = Vec::new();
    for krate in ["model", "smtlib"] {
        // Their manifests: no crate that links Z3 or starts processes.
        let manifest = std::fs::read_to_string(root.join(krate).join("Cargo.toml")).unwrap();
        let mut in_dependencies = false;
        for (n, line) in code_lines(&manifest) {
            if line.starts_with('[') {
                in_dependencies = line.trim() == "[dependencies]";
                continue;
            }
            let name = line.split(['=', '.', ' ']).next().unwrap_or("").trim();
            let banned = [
                "z3", "z3-sys", "z3lib", "z3log", "untrace", "libffi", "libc", "nix",
            ];
            if in_dependencies && banned.contains(&name) {
                found.push(format!("{krate}/Cargo.toml:{n}: depends on {name}"));
            }
        }
        // Their sources: no call into Z3, no process.
        for file in rust_files(&root.join(krate).join("src")) {
            let text = std::fs::read_to_string(&file).unwrap();
            for (n, line) in code_lines(&text) {
                for pattern in [
                    "z3::",
                    "z3_sys::",
                    "process::Command",
                    "process::Child",
                    "fork(",
                    "execv",
                    "libc::",
                    "nix::",
                    "dlopen",
                ] {
                    if line.contains(pattern) {
                        found.push(format!("{}:{n}: {}", relative(&root, &file), line.trim()));
                    }
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "model and smtlib must build and test without Z3 and never start a process:\n{}",
        found.join("\n")
    );
}

/// The catch-all arms of matches over `Call` that are there on purpose (file, the arm's first
/// line): each such match picks out a few calls and says nothing about the others, so a new
/// call needs no arm there. Every other match over `Call` is exhaustive, so the compiler names
/// each place a new call needs.
const CALL_CATCH_ALLS: &[(&str, &str)] = &[
    // The SMT-LIB form of the three set calls that are array operations underneath.
    ("model/src/call_text.rs", "_ => return None,"),
    // Z3's other maker of a sort: only floating-point and set sorts have one.
    ("mbt/src/round_state.rs", "call => call,"),
    // The value of a term of Z3's finite sets and prime fields: the state keeps only those
    // calls in `fsets`, so any other is no term of theirs.
    (
        "model/src/fset.rs",
        "other => return Err(format!(\"`{}` is no finite-set call\", other.name())),",
    ),
    // The reference state: the free variables of term-building calls (others build none),
    // and the result sort of term-building calls (others: `None`).
    ("model/src/state.rs", "_ => BTreeSet::new(),"),
    ("model/src/state.rs", "_ => return Ok(None),"),
    // How a term was made: the read-backs judge literals, constants, applications and
    // quantifiers; every other term-building call is `Origin::Other`.
    ("model/src/state.rs", "_ => Origin::Other,"),
    // The interval of an RCF number, whether it is made of rationals: only the calls that
    // make one have them.
    ("model/src/state.rs", "_ => None,"),
    ("model/src/state.rs", "_ => false,"),
    // What made an RCF number, for `read_rcf`'s oracle: only π, e, ε and roots are told apart.
    ("model/src/state.rs", "_ => RcfMade::Other,"),
    // The interval of an algebraic number: only the algebraic calls that make one have it.
    ("model/src/state.rs", "_ => None,"),
    // The SMT-LIB text of what a call builds: only term- and sort-building calls have one.
    ("model/src/call_text.rs", "_ => return None,"),
    ("model/src/call_args.rs", "_ => None,"),
    // `untrace --smt2`: calls without an SMT-LIB form are said so, one line each.
    ("untrace/src/smt2.rs", "_ => {"),
    ("untrace/src/smt2.rs", "_ if new_term.is_some() => {"),
    (
        "untrace/src/smt2.rs",
        "_ if call.ret_kind() == model::RetKind::Sort => {}",
    ),
    (
        "untrace/src/smt2.rs",
        "_ => self.none(line, call, \"a second solver\"),",
    ),
    ("untrace/src/executor/term_text.rs", "_ => {"),
    // The typing probe looks at the calls that build terms of a probed kind.
    ("untrace/src/executor/typing.rs", "_ => Ok(None),"),
    // The executor: handles a release or delete drops; refusals Z3 may give.
    ("untrace/src/executor/mod.rs", "_ => {}"),
    ("untrace/src/executor/mod.rs", "_ => false,"),
    // ddtrace's passes look for the calls they can shrink.
    ("ddtrace/src/analysis.rs", "_ => {}"),
    ("ddtrace/src/passes/numbers.rs", "other => other.clone(),"),
    ("ddtrace/src/passes/numbers.rs", "_ => Vec::new(),"),
    ("ddtrace/src/passes/datatypes.rs", "_ => Vec::new(),"),
    ("ddtrace/src/passes/simpler.rs", "_ => return None,"),
    // The dry-run system under test answers the queries it models; others get a fresh id.
    (
        "mbt/src/sut.rs",
        "_ => self.state.fresh(call.ret_kind()).map(Ret::Id),",
    ),
];

fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// The catch-all arms (`_ =>`, `_ if`, `name =>`) of the matches over `Call` in `text`: a
/// match whose arms (at one indentation below the `match` line, as rustfmt writes them)
/// include one that starts with `Call::`.
fn call_catch_alls(text: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let is_catch_all = |arm: &str| {
        let word: String = arm
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let rest = arm[word.len()..].trim_start();
        (word == "_" || word.starts_with(|c: char| c.is_ascii_lowercase()))
            && word != "ref"
            && word != "mut"
            && (rest.starts_with("=>") || rest.starts_with("if "))
    };
    let mut found = Vec::new();
    let mut matches_seen = BTreeSet::new();
    for (i, line) in lines.iter().enumerate() {
        let arm = line.trim_start();
        if !(arm.starts_with("Call::") || arm.starts_with("| Call::")) {
            continue;
        }
        let depth = indent(line);
        // Up to the line that opens the block the arm stands in.
        let mut start = i;
        while start > 0 && (lines[start - 1].trim().is_empty() || indent(lines[start - 1]) >= depth)
        {
            start -= 1;
        }
        if start == 0 || !lines[start - 1].contains("match ") || !matches_seen.insert(start) {
            continue;
        }
        let mut end = i;
        while end + 1 < lines.len()
            && (lines[end + 1].trim().is_empty() || indent(lines[end + 1]) >= depth)
        {
            end += 1;
        }
        for (n, candidate) in lines.iter().enumerate().take(end + 1).skip(start) {
            if indent(candidate) == depth && is_catch_all(candidate.trim_start()) {
                found.push((n + 1, candidate.trim().to_string()));
            }
        }
    }
    found
}

#[test]
fn matches_over_call_have_no_new_catch_all_arm() {
    let root = repo_root();
    let mut seen = Vec::new();
    for member in members(&root) {
        for file in rust_files(&root.join(member)) {
            let text = std::fs::read_to_string(&file).unwrap();
            for (n, arm) in call_catch_alls(&text) {
                seen.push((relative(&root, &file), n, arm));
            }
        }
    }
    // Each listed arm allows one such arm in its file: a second one is new.
    let mut allowed: Vec<(&str, &str)> = CALL_CATCH_ALLS.to_vec();
    let mut unknown = Vec::new();
    for (file, n, arm) in &seen {
        match allowed.iter().position(|(f, a)| f == file && a == arm) {
            Some(i) => {
                allowed.remove(i);
            }
            None => unknown.push(format!("{file}:{n}: {arm}")),
        }
    }
    assert!(
        unknown.is_empty(),
        "a match over Call with a catch-all arm hides the place a new call needs from the \
         compiler; name the calls (or, for a match that picks out a few calls on purpose, add \
         it to CALL_CATCH_ALLS with the reason):\n{}",
        unknown.join("\n")
    );
    let stale: Vec<String> = allowed
        .iter()
        .map(|(file, arm)| format!("{file}: {arm}"))
        .collect();
    assert!(
        stale.is_empty(),
        "CALL_CATCH_ALLS lists arms that are gone (remove them):\n{}",
        stale.join("\n")
    );
}

/// The scanner finds what it is for, so the test above can fail.
#[test]
fn the_catch_all_scanner_finds_catch_alls_in_matches_over_call_only() {
    // Written with `CALL` so that this file itself has no match over `Call` to find.
    let text = "\
fn f(call: &CALL) -> u8 {
    match call {
        CALL::Push(_) => 1,
        CALL::Pop { .. } => {
            match n {
                _ => 3,
            }
        }
        other => 2,
    }
}
fn g(x: u8) -> u8 {
    match x {
        1 => 1,
        _ => 0,
    }
}
"
    .replace("CALL", "Call");
    assert_eq!(call_catch_alls(&text), vec![(9, "other => 2,".to_string())]);
}
