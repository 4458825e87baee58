//! Every kind of finding is a bug report. Each kind is produced on purpose with the executor's
//! test-only fault injection (`UNTRACE_INJECT`, inherited by every replay), found by an `mbt`
//! campaign, replayed by `untrace` with its documented exit code and the campaign's
//! signature, and minimized by `mbt --minimize` (ddtrace) to at most 30 lines that replay
//! with the same exit code and signature.
//!
//! Each test first looks for the first round (from seed 1, up to its limit) that shows its
//! fault, with campaigns that do not minimize over growing windows of seeds, then runs that round alone with
//! `--minimize`: a round's calls depend on its seed only, so this is the campaign's finding
//! at a fraction of the cost, and a change of the fuzzer's weights needs no new seeds here
//! (only a limit to raise when the fault's first round moves beyond it).

use e2e::{command, wait_at_most};
use serde_json::Value;
use std::ffi::OsStr;
use std::os::unix::process::CommandExt as _;
use std::path::Path;
use std::process::Output;

/// Runs `name` with `args`, the fault injected, and no other injection.
fn run(name: &str, args: &[&str], fault: &str) -> Output {
    let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    command(name, &args, &[("UNTRACE_INJECT", fault)])
        .output()
        .unwrap_or_else(|e| panic!("cannot run {name}: {e}"))
}

/// The exit code and the signature line of an untrace replay that does not compare the
/// trace's recorded answers (`--no-check`, as a round's replay command).
fn replay(trace: &Path, fault: &str, extra: &[&str]) -> (Option<i32>, Option<String>, String) {
    let mut args: Vec<&str> = vec!["--no-check"];
    args.extend(extra);
    replay_with(trace, fault, &args)
}

/// The exit code and the signature line of a replay with untrace's options `args`.
fn replay_with(trace: &Path, fault: &str, args: &[&str]) -> (Option<i32>, Option<String>, String) {
    let mut args = args.to_vec();
    let path = trace.to_str().unwrap();
    args.push(path);
    let out = run("untrace", &args, fault);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let signature = err
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("untrace: signature: "))
        .map(str::to_string);
    (out.status.code(), signature, err)
}

/// Runs a minimizing campaign under `fault` and checks every finding of `kind` as the issue
/// asks: replay exit code and signature, minimized size, kind and signature kept.
fn finding_is_a_bug_report(
    fault: &str,
    kind: &str,
    exit: i32,
    rounds: u32,
    mbt_args: &[&str],
    replay_args: &[&str],
) {
    findings_are_bug_reports(fault, &[kind], exit, rounds, mbt_args, replay_args)
}

/// [`finding_is_a_bug_report`] for several kinds that one fault produces in one campaign.
fn findings_are_bug_reports(
    fault: &str,
    kinds: &[&str],
    exit: i32,
    rounds: u32,
    mbt_args: &[&str],
    replay_args: &[&str],
) {
    check_findings(fault, kinds, exit, rounds, mbt_args, replay_args, true)
}

/// The seeds from the first round (from seed 1, at most `rounds` of them) that shows one of
/// `kinds` under `fault` to the first that shows the last of them, found by campaigns that do
/// not minimize (cheap), over windows of seeds that double in size until every kind showed:
/// a round depends on its seed only, so this finds what one campaign of `rounds` rounds
/// would, without running the rounds after the last first round.
fn first_rounds(
    fault: &str,
    kinds: &[&str],
    rounds: u32,
    mbt_args: &[&str],
) -> std::ops::RangeInclusive<u64> {
    let dir = tempfile::tempdir().unwrap();
    let mut firsts: Vec<Option<u64>> = vec![None; kinds.len()];
    let (mut seed, mut window) = (1u32, 10u32);
    while firsts.iter().any(Option::is_none) && seed <= rounds {
        let count = window.min(rounds + 1 - seed);
        let out = dir.path().join(format!("search-{seed}"));
        let (first, count_text) = (seed.to_string(), count.to_string());
        let mut args = vec![
            "--seed",
            &first,
            "--rounds",
            &count_text,
            "--jobs",
            "1",
            "-q",
        ];
        args.extend(mbt_args);
        args.extend(["--out", out.to_str().unwrap()]);
        let campaign = run("mbt", &args, fault);
        let err = String::from_utf8_lossy(&campaign.stderr);
        assert!(
            matches!(campaign.status.code(), Some(0 | 1)),
            "search campaign: {err}"
        );
        let summary: Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap())
                .unwrap();
        let list = summary["failure_list"].as_array().unwrap();
        for (kind, first) in kinds.iter().zip(firsts.iter_mut()) {
            // A Z3 error is the fault's only where its message says it was injected: real
            // Z3 errors (dumps that do not parse, models Z3 cannot build) come first in some
            // rounds.
            let of_the_fault = |f: &&Value| {
                f["kind"] == *kind
                    && f["known"] != true
                    && (*kind != "z3-error"
                        || f["message"]
                            .as_str()
                            .is_some_and(|m| m.contains("injected")))
            };
            if first.is_none() {
                *first = list
                    .iter()
                    .filter(of_the_fault)
                    .filter_map(|f| f["first_seed"].as_u64())
                    .min();
            }
        }
        seed += count;
        window *= 2;
    }
    let firsts: Vec<u64> = kinds
        .iter()
        .zip(&firsts)
        .map(|(kind, first)| {
            first.unwrap_or_else(|| {
                panic!("no {kind} finding under {fault} in {rounds} rounds (raise the limit)")
            })
        })
        .collect();
    *firsts.iter().min().unwrap()..=*firsts.iter().max().unwrap()
}

/// Checks the findings of a campaign under `fault`. Without the fault the minimized trace
/// replays cleanly when `clean` is set; a fault that changes what Z3 answers (the recorded
/// `sat` may be unsat without it) only has to leave the finding's signature behind.
fn check_findings(
    fault: &str,
    kinds: &[&str],
    exit: i32,
    rounds: u32,
    mbt_args: &[&str],
    replay_args: &[&str],
    clean: bool,
) {
    let seeds = first_rounds(fault, kinds, rounds, mbt_args);
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("campaign");
    // Only the fault's kinds are minimized: the others a campaign meets on the way (a
    // timeout under load, a second kind an injected wrong answer causes) are not this test's.
    let minimize_kinds = kinds.join(",");
    let (first, rounds) = (seeds.start().to_string(), seeds.count().to_string());
    let mut args = vec!["--seed", &first, "--rounds", &rounds, "--jobs", "1", "-q"];
    args.extend(["--minimize", "--minimize-kinds", &minimize_kinds]);
    args.extend(mbt_args);
    args.extend(["--out", out.to_str().unwrap()]);
    let campaign = run("mbt", &args, fault);
    let err = String::from_utf8_lossy(&campaign.stderr);
    assert_eq!(campaign.status.code(), Some(1), "new findings: {err}");
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let all = summary["failure_list"].as_array().unwrap();
    for kind in kinds {
        assert!(
            all.iter().any(|f| f["kind"] == *kind),
            "no {kind} finding under {fault}: {summary:#}"
        );
    }
    // Known findings (`--known`) are Z3's own bugs that the campaign meets too, not the fault's.
    let of_the_fault = |f: &&Value| f["known"] != true && kinds.iter().any(|k| f["kind"] == *k);
    for f in all.iter().filter(of_the_fault) {
        let kind = f["kind"].as_str().unwrap();
        let signature = f["signature"].as_str().unwrap();
        let trace = Path::new(f["trace"].as_str().unwrap());
        let (code, replayed, err) = replay(trace, fault, replay_args);
        assert_eq!(
            code,
            Some(exit),
            "{kind}: replay of {}: {err}",
            trace.display()
        );
        assert_eq!(replayed.as_deref(), Some(signature), "{err}");
        // The replay command failure.json shows reproduces it as it stands (a timeout
        // finding's carries the round's limit, or it would hang the user's shell).
        let command = f["replay"].as_str().unwrap();
        let mut shown = std::process::Command::new("sh")
            .args(["-c", command])
            .env_remove("UNTRACE_FAIL_ON")
            .env("UNTRACE_INJECT", fault)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .process_group(0)
            .spawn()
            .unwrap();
        let status = wait_at_most(&mut shown, std::time::Duration::from_secs(60))
            .unwrap_or_else(|| panic!("{kind}: `{command}` still runs after 60 s"));
        assert_eq!(status.code(), Some(exit), "{command}");
        let min = Path::new(f["minimized_trace"].as_str().expect("minimized"));
        // failure.json names the reproducers, made from the minimized trace (the injected
        // fault is the suite's own, so they are not run here: tests/tests/reproducers.rs runs
        // those of real Z3 bugs).
        let reproducers: Vec<&str> = f["reproducers"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        for name in ["repro.c", "repro.py"] {
            let path = reproducers
                .iter()
                .find(|p| p.ends_with(name))
                .unwrap_or_else(|| panic!("{kind}: no {name} in {reproducers:?}"));
            let text = std::fs::read_to_string(path).unwrap();
            assert!(
                text.contains("Reproducer of min.trace"),
                "{kind}: {name}:\n{text}"
            );
            // The header says what the finding is: its signature and its round's message.
            let message = f["message"].as_str().unwrap();
            for said in [
                format!("finding: {}", f["signature"].as_str().unwrap()),
                format!("in its round: {}", untrace::repro::comment_text(message)),
            ] {
                assert!(
                    text.contains(&said),
                    "{kind}: {name} lacks `{said}`:\n{text}"
                );
            }
        }
        let text = std::fs::read_to_string(min).unwrap();
        let lines = text.lines().count();
        assert!(lines <= 30, "{kind}: {lines} lines:\n{text}");
        // It replays to the finding without comparing its recorded answers, and with: they are
        // the ones its calls give, so a plain `untrace min.trace` reaches the failure too (no
        // stale `unsat` of a removed call stops it), and so does the command failure.json
        // shows for it.
        for (how, (code, replayed, err)) in [
            ("--no-check", replay(min, fault, replay_args)),
            ("plain", replay_with(min, fault, replay_args)),
        ] {
            assert_eq!(
                code,
                Some(exit),
                "{kind}: {how} replay of the minimized trace: {err}\n{text}"
            );
            assert_eq!(replayed.as_deref(), Some(signature), "{how}: {text}");
        }
        let shown = f["minimized_replay"].as_str().unwrap();
        assert!(!shown.contains("--no-check"), "{kind}: {shown}");
        // And the minimized trace is a bug report of the fault, not of the trace: without the
        // injected fault the finding is gone. (The replay may still stop elsewhere: a fault
        // that changed an answer leaves calls that only the faulty answer allows, such as
        // `get_model` after a check that is unsat without the fault.)
        let (code, without, err) = replay(min, "", replay_args);
        if clean {
            assert!(
                code == Some(0) || (code != Some(exit) && without.as_deref() != Some(signature)),
                "{kind} without the fault: {err}\n{text}"
            );
        } else {
            assert_ne!(without.as_deref(), Some(signature), "{err}\n{text}");
        }
    }
}

#[test]
fn crashes_are_bug_reports() {
    finding_is_a_bug_report("abort@check_sat", "crash", 6, 10, &[], &[]);
}

#[test]
fn a_crash_after_an_unsat_check_keeps_what_makes_it_unsat() {
    // The crash comes at `get_unsat_core`, which the reference state allows only after an
    // unsat answer. Minimized without comparing answers, the trace kept the check's recorded
    // `unsat` and none of the assertions that made it so (`new_solver`, `check_sat`,
    // `get_unsat_core`), and a plain replay stopped at that check as a mismatch.
    finding_is_a_bug_report("abort@get_unsat_core", "crash", 6, 40, &[], &[]);
}

#[test]
fn z3_errors_are_bug_reports() {
    finding_is_a_bug_report("error@push", "z3-error", 4, 10, &[], &[]);
}

#[test]
fn timeouts_are_bug_reports() {
    finding_is_a_bug_report(
        "hang@check_sat",
        "timeout",
        7,
        10,
        &["--timeout", "0.5"],
        &["--timeout", "0.5"],
    );
}

#[test]
fn memouts_are_bug_reports() {
    finding_is_a_bug_report(
        "alloc@check_sat",
        "memout",
        8,
        10,
        &["--memout", "400"],
        &["--memout", "400"],
    );
}

#[test]
fn wrong_models_are_bug_reports() {
    finding_is_a_bug_report(
        "wrong-model",
        "model",
        5,
        30,
        &["--theories", "arith,uf"],
        &[],
    );
}

#[test]
fn evaluation_disagreements_are_bug_reports() {
    finding_is_a_bug_report(
        "wrong-eval@and",
        "eval-disagreement",
        5,
        60,
        // Without bit-vectors: Z3 4.8.12's own bvsmul_noovfl bug would be a second,
        // real evaluation disagreement, which the fault-free replay rightly still fails.
        &["--theories", "arith,uf,array"],
        &[],
    );
}

#[test]
fn shadow_and_config_disagreements_are_bug_reports() {
    // The second solver of a round is a shadow clone or a second configuration.
    findings_are_bug_reports("flip-solver@2", &["shadow", "config"], 5, 40, &[], &[]);
}

#[test]
fn satisfiable_cores_are_bug_reports() {
    // Theories without Z3 4.8.12's own FP, bit-vector and array bugs, which end rounds early.
    let args = ["--theories", "core,uf"];
    // Seed 34 before check_sat_assuming outweighed check_sat (issue 29), seed 103 since.
    finding_is_a_bug_report("empty-core", "core", 5, 150, &args, &[]);
}

#[test]
fn numeral_disagreements_are_bug_reports() {
    // Without floating point: Z3 4.8.12's own FP literal bug (1e10 in Float(2,4)) would be
    // a real literal finding, which the fault-free replay rightly still fails.
    let args = ["--theories", "arith,bv"];
    finding_is_a_bug_report("wrong-numeral", "literal", 5, 10, &args, &[]);
}

#[test]
fn wrong_values_of_quantifiers_are_bug_reports() {
    // Z3 given `exists` for `forall`: its model satisfies the wrong formula, and model_eval
    // of the quantifier departs from the independent evaluator. The minimized formula is
    // typically unsat without the fault, so its fault-free replay fails elsewhere.
    // Bit-vectors give the quantifiers finite domains, and meet Z3 4.8.12's own
    // `bvsmul_noovfl` evaluation bug (traces/regress), known here so as not to be taken for
    // the fault's.
    let known = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(
        known.path(),
        "eval-disagreement|model_eval of bvmul_no_overflow_s departs from the independent evaluator\n",
    )
    .unwrap();
    let known = known.path().to_str().unwrap();
    check_findings(
        "wrong-quantifier",
        &["eval-disagreement"],
        5,
        150,
        &["--theories", "core,bv,uf,quant", "--known", known],
        &[],
        false,
    );
}

#[test]
fn wrong_simplifications_are_bug_reports() {
    finding_is_a_bug_report("wrong-simplify", "simplify", 5, 30, &[], &[]);
}

#[test]
fn wrong_consequences_are_bug_reports() {
    finding_is_a_bug_report("wrong-consequence", "consequence", 5, 150, &[], &[]);
}

#[test]
fn wrong_cubes_are_bug_reports() {
    let args = ["--theories", "core,arith"];
    finding_is_a_bug_report("wrong-cube", "cube", 5, 120, &args, &[]);
}

#[test]
fn missing_proofs_are_bug_reports() {
    // Real Z3 errors (dumps that do not parse, models Z3 cannot build) come first in some
    // rounds; the search takes the first round whose error is the injected one.
    finding_is_a_bug_report("no-proof", "z3-error", 4, 80, &[], &[]);
}

#[test]
fn dump_disagreements_are_bug_reports() {
    let args = ["--theories", "arith,uf,array"];
    finding_is_a_bug_report("dump-false", "dump", 5, 30, &args, &[]);
}

#[test]
fn tactic_subgoal_losses_are_bug_reports() {
    finding_is_a_bug_report("drop-subgoal", "tactic", 5, 30, &[], &[]);
}

#[test]
fn wrong_optimum_values_are_bug_reports() {
    let args = ["--theories", "core,arith"];
    finding_is_a_bug_report("wrong-opt-value", "optimize", 5, 30, &args, &[]);
}

#[test]
fn beaten_optima_are_bug_reports() {
    let args = ["--theories", "core,arith"];
    finding_is_a_bug_report("worse-optimum", "optimize", 5, 30, &args, &[]);
}

#[test]
fn wrong_fixedpoint_answers_are_bug_reports() {
    // `check_fp` reads Z3's answer negated: the invariant of an unsat answer, or each fact a
    // sat answer's derivation derives.
    let args = ["--theories", "core,arith"];
    finding_is_a_bug_report("wrong-fixedpoint", "fixedpoint", 5, 30, &args, &[]);
}

#[test]
fn wrong_rcf_numbers_are_bug_reports() {
    // `rcf_add` and `algebraic_add` one too large: `check_rcf` / `check_algebraic` find a
    // sum printed or compared against exact rational arithmetic.
    let args = ["--theories", "arith"];
    finding_is_a_bug_report("wrong-rcf", "rcf", 5, 30, &args, &[]);
}
