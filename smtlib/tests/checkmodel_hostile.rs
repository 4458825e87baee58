//! Hostile inputs to the model checker (issue 16): each gets a correct verdict or a clean
//! one-line error, and the full and the low-memory interleaved mode agree on every one.
//! Their time and memory are measured by `bench/hostile.sh`, never asserted here.

use smtlib::eval::{check_files, Limits, Verdict};
use std::path::Path;

/// Runs both modes on `problem` and `response`; both must give the same verdict or the same
/// error, which is returned.
fn check(problem: &str, response: &str) -> Result<Verdict, String> {
    let dir = tempfile::tempdir().unwrap();
    let (p, r) = (dir.path().join("p.smt2"), dir.path().join("r.txt"));
    std::fs::write(&p, problem).unwrap();
    std::fs::write(&r, response).unwrap();
    // As the checkmodel binary runs: a thread with a 1 GiB stack and its depth limit.
    let run = |interleaved: bool| {
        let (p, r) = (p.clone(), r.clone());
        std::thread::Builder::new()
            .stack_size(1 << 30)
            .spawn(move || {
                let limits = Limits { max_depth: 200_000 };
                check_files(Path::new(&p), Path::new(&r), interleaved, limits)
                    .map(|report| report.verdict())
                    .map_err(|e| e.to_string())
            })
            .unwrap()
            .join()
            .unwrap()
    };
    let (full, low_memory) = (run(false), run(true));
    assert_eq!(full, low_memory, "the modes disagree on:\n{problem}");
    if let Err(e) = &full {
        assert_eq!(e.lines().count(), 1, "a multi-line error: {e}");
    }
    full
}

const X8: &str = "(declare-const x (_ BitVec 8))\n";
const MODEL_X8: &str = "sat\n(model (define-fun x () (_ BitVec 8) #x00))\n";

#[test]
fn widths_beyond_the_limit_are_errors_not_wrapped() {
    let problem = format!(
        "{X8}(assert (= ((_ zero_extend 4294967288) x) ((_ zero_extend 4294967288) (bvadd x #x01))))\n(check-sat)\n"
    );
    let e = check(&problem, MODEL_X8).unwrap_err();
    assert!(e.contains("more than the limit"), "{e}");
    let repeat = format!(
        "{X8}(assert (= ((_ repeat 100000000) x) ((_ repeat 100000000) x)))\n(check-sat)\n"
    );
    assert!(check(&repeat, MODEL_X8)
        .unwrap_err()
        .contains("more than the limit"));
    // Within the limit, repeat still computes: 3 copies of #x81.
    let small = format!("{X8}(assert (= ((_ repeat 3) (bvadd x #x81)) #x818181))\n(check-sat)\n");
    assert_eq!(check(&small, MODEL_X8), Ok(Verdict::Valid));
}

#[test]
fn an_indexed_identifier_without_indices_is_an_error() {
    let problem = "(declare-const x Int)\n(assert (= x ((_) 1)))\n(check-sat)\n";
    assert!(check(problem, "sat\n(model (define-fun x () Int 0))\n").is_err());
}

#[test]
fn a_hundred_million_pushes_cost_one_scope() {
    let problem = "(push 100000000)\n(declare-const x Int)\n(assert (= x 1))\n(check-sat)\n\
                   (pop 100000000)\n(assert (= 1 2))\n(check-sat)\n";
    let response = "sat\n(model (define-fun x () Int 1))\nunsat\n";
    assert_eq!(check(problem, response), Ok(Verdict::Valid));
    let too_many = "(push 3)\n(pop 4)\n(check-sat)\n";
    assert!(check(too_many, "sat\n(model)\n")
        .unwrap_err()
        .contains("pop without"));
}

#[test]
fn huge_regex_powers_and_loops_are_decided_without_unrolling() {
    let s = "(declare-const s String)\n";
    let model = "sat\n(model (define-fun s () String \"aaa\"))\n";
    let power =
        format!("{s}(assert (str.in_re s ((_ re.^ 1000000000) (str.to_re \"a\"))))\n(check-sat)\n");
    assert_eq!(check(&power, model), Ok(Verdict::Invalid));
    let range = format!(
        "{s}(assert (str.in_re s ((_ re.loop 1 1000000000) (str.to_re \"a\"))))\n(check-sat)\n"
    );
    assert_eq!(check(&range, model), Ok(Verdict::Valid));
    let mut nested = "(str.to_re \"a\")".to_string();
    for _ in 0..10 {
        nested = format!("(re.* (re.++ {nested} {nested}))");
    }
    let deep = format!("{s}(assert (str.in_re s {nested}))\n(check-sat)\n");
    let long = "sat\n(model (define-fun s () String \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab\"))\n";
    // Decided, or refused as too large: never a hang.
    match check(&deep, long) {
        Ok(verdict) => assert_eq!(verdict, Verdict::Invalid),
        Err(e) => assert!(e.contains("too large"), "{e}"),
    }
}

#[test]
fn shared_definitions_are_evaluated_once() {
    // f59 is x * 2^59 as a tree of 2^59 nodes: only shared evaluation answers.
    let mut problem = String::from("(declare-const x Int)\n(define-fun f0 () Int x)\n");
    for i in 1..60 {
        problem += &format!("(define-fun f{i} () Int (+ f{} f{}))\n", i - 1, i - 1);
    }
    problem += "(assert (= f59 0))\n(check-sat)\n";
    assert_eq!(
        check(&problem, "sat\n(model (define-fun x () Int 0))\n"),
        Ok(Verdict::Valid)
    );
}

#[test]
fn deeply_nested_lets_are_linear() {
    let n = 20_000;
    let mut problem = String::from("(declare-const x Int)\n(assert ");
    for i in 0..n {
        problem += &format!("(let ((v{i} x)) ");
    }
    problem += "(= x v0)";
    problem += &")".repeat(n);
    problem += ")\n(check-sat)\n";
    let model = "sat\n(model (define-fun x () Int 0))\n";
    let limits_ok = check(&problem, model);
    // The default depth limit may refuse the nesting cleanly; it never misjudges it.
    match limits_ok {
        Ok(verdict) => assert_eq!(verdict, Verdict::Valid),
        Err(e) => assert!(e.contains("deep") || e.contains("nest"), "{e}"),
    }
}

#[test]
fn an_empty_or_truncated_response_is_an_error() {
    let problem = "(declare-const x Int)\n(assert (= x 1))\n(check-sat)\n(check-sat)\n";
    let e = check(problem, "").unwrap_err();
    assert!(e.contains("empty or truncated"), "{e}");
    let e = check(problem, "sat\n(model (define-fun x () Int 1))\n").unwrap_err();
    assert!(e.contains("answers 1 of the problem's 2"), "{e}");
}

#[test]
fn both_modes_stop_reading_at_exit() {
    let problem = "(declare-const x Int)\n(assert (= x 1))\n(check-sat)\n(exit)\n(assert (= x\n";
    assert_eq!(
        check(problem, "sat\n(model (define-fun x () Int 1))\n"),
        Ok(Verdict::Valid)
    );
}
