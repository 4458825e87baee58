//! ddtrace on the regression corpus (issue 24): minimizing each case of `traces/regress/`
//! again, with the `ddtrace` binary and `untrace` on the linked Z3, gives a trace of at most
//! 15 calls (a few cases need more: [`LARGER`]), never more calls than the case had, that
//! still behaves as the case records.
//! The cases run two at a time (the suite's machine has two cores), each ddtrace with one job.
//!
//! Minimizing all of them takes minutes, so `cargo test` runs the quick cases and the one
//! the issue names; the long ones ([`LONG`]) run with `--ignored` (a step of `.ci/run`):
//! `cargo test -p ddtrace --test regress_minimize -- --ignored`.

mod common;

use common::{ddtrace_bin, untrace_bin};
use ddtrace::regress::{cases, check_case, expectation, write_case};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// The most calls a minimized regression case may keep.
const MAX_CALLS: usize = 15;

/// Cases whose failure needs more calls than [`MAX_CALLS`], with the most they may keep: a
/// Horn system is at least two relations declared and registered, a fact, a rule that links
/// them with its quantifier, and a query with its own.
const LARGER: &[(&str, usize)] = &[("fixedpoint-inline-eager-off-answer-not-invariant", 24)];

/// The number of calls of a text trace (its `return` lines, comments and header not counted).
fn calls(text: &str) -> usize {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with(';') && !l.starts_with("return"))
        .filter(|l| !l.starts_with("z3-trace"))
        .count()
}

/// Minimizes `case` into `out_dir`; the result's calls, or what went wrong.
fn minimize(case: &Path, out_dir: &Path) -> Result<usize, String> {
    let name = case.file_stem().unwrap().to_string_lossy().to_string();
    let want = expectation(case)?;
    let output = out_dir.join(format!("{name}.min.trace"));
    let mut cmd = Command::new(ddtrace_bin());
    cmd.args(["-q", "-j", "1", "--untrace"])
        .arg(untrace_bin())
        .arg(case)
        .arg(&output);
    if let Some(seconds) = want.timeout {
        cmd.args(["--", "--timeout", &seconds.to_string()]);
    }
    let run = cmd.output().map_err(|e| format!("{name}: ddtrace: {e}"))?;
    if !run.status.success() {
        return Err(format!(
            "{name}: ddtrace failed ({}): {}",
            run.status,
            String::from_utf8_lossy(&run.stderr)
        ));
    }
    let before = calls(&std::fs::read_to_string(case).unwrap());
    let text = std::fs::read(&output).map_err(|e| format!("{name}: no output: {e}"))?;
    let after = calls(&String::from_utf8_lossy(&text));
    // The minimized trace is a case of its own: it must still fail as recorded.
    let again = write_case(out_dir, &name, &text, &want)?;
    check_case(&untrace_bin(), &again, None).map_err(|e| format!("{name}: minimized: {e}"))?;
    let most = LARGER
        .iter()
        .find(|(case, _)| *case == name)
        .map_or(MAX_CALLS, |(_, most)| *most);
    if after > most || after > before {
        return Err(format!(
            "{name}: minimized to {after} calls (from {before}; at most {most} and never more)"
        ));
    }
    Ok(after)
}

/// The cases whose minimization takes more than about 6 s in a release build (measured on
/// two shared cores): they run only with `--ignored`.
const LONG: &[&str] = &[
    "opt-unbounded-real-reported-bounded",
    "simplex-strategy-4-lar-solver-assertion",
    "simplex-strategy-4-quantified-rem-segfault",
    "to-smt2-parametric-constructor-without-its-sort",
    "fp-uf-rounding-mode-push-hang",
    "translate-tracked-into-proof-context-segfault",
    "fma-symbolic-rounding-mode-assertion",
    "parametric-datatype-cyclic-equation-segfault",
    "to-smt2-datatype-before-its-declare-sort",
    "proof-bvsle-contradiction-segfault",
    "solver2-unknown-combined-solver-assertion",
    "to-smt2-update-field-drops-the-field",
    "opt-strict-real-bound-wrong-optimum",
    "translate-tactic-solver-drops-trackers",
    "opt-seq-len-rlimit-abort",
    "translate-from-proof-context-diverges",
];

/// The quick cases, and `dt-update-field-same-constructor-wrong-sat`, which issue 24 found
/// at 16 calls.
#[test]
fn quick_regression_cases_minimize_to_at_most_15_calls() {
    minimize_all(|name| !LONG.contains(&name));
}

/// The long cases: with the quick ones of `cargo test`, every case of the corpus.
#[test]
#[ignore = "minutes: run by .ci/run with --ignored"]
fn long_regression_cases_minimize_to_at_most_15_calls() {
    minimize_all(|name| LONG.contains(&name));
}

/// Every text case of `traces/regress/` whose name `select` accepts, two at a time.
fn minimize_all(select: impl Fn(&str) -> bool) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../traces/regress");
    let all = cases(&dir).unwrap();
    for name in LONG {
        assert!(
            all.iter()
                .any(|c| c.file_stem().is_some_and(|s| s == *name)),
            "LONG names {name}, which is no case"
        );
    }
    let queue: Mutex<Vec<PathBuf>> = Mutex::new(
        all.into_iter()
            .filter(|c| c.extension().is_some_and(|x| x == "trace"))
            .filter(|c| select(&c.file_stem().unwrap().to_string_lossy()))
            .rev()
            .collect(),
    );
    let out = tempfile::tempdir().unwrap();
    // Built once before the workers start, so two workers never build it at once.
    untrace_bin();
    let results: Mutex<Vec<(String, Result<usize, String>)>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let Some(case) = queue.lock().unwrap().pop() else {
                    return;
                };
                let result = minimize(&case, out.path());
                let name = case.file_stem().unwrap().to_string_lossy().to_string();
                results.lock().unwrap().push((name, result));
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(!results.is_empty(), "no regression cases");
    for (name, result) in &results {
        if let Ok(n) = result {
            eprintln!("{name}: {n} calls");
        }
    }
    let failures: Vec<&String> = results
        .iter()
        .filter_map(|(_, r)| r.as_ref().err())
        .collect();
    assert!(
        failures.is_empty(),
        "{}",
        failures
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}
