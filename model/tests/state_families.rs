//! The reference state of tactic objects, goals and Optimize contexts: a trace that uses them
//! validly is accepted, and removing the call that a later one depends on (what a minimizer
//! does) makes the trace invalid, so candidates without the premise are rejected without Z3.

use model::trace::text;
use model::State;

const VALID: &str = "z3-trace 1
sort_int
return s1
const s1 \"x\"
return t1
lit s1 \"3\"
return t2
< t1 t2
return t3
tactic \"simplify\"
return k1
tactic \"smt\"
return k2
tactic_and_then k1 k2
return k3
tactic_when \"size\" gt 2 k3
return k4
new_solver from_tactic k4
return z1
goal_new true
return g1
goal_assert g1 t3
goal_apply k3 g1 1000
return \"2\"
goal_subgoal g1 1
return g2
goal_formula g2
return t4
check_goal g1
opt_new
return o1
opt_assert o1 t3
opt_assert_soft o1 t3 2 \"a\"
opt_push o1
opt_maximize o1 t1
opt_assert_soft o1 t3 1 \"a\"
opt_check o1
return sat
opt_get_model o1
return m1
opt_upper o1 1
return \"2\"
check_opt_values o1 m1
opt_pop o1
release k1
release g1
release o1
";

/// Applies every entry of `trace`; the first violation.
fn run(trace: &str) -> Result<(), String> {
    let trace = text::parse(trace).map_err(|e| e.to_string())?;
    let mut state = State::new();
    for e in &trace.entries {
        state
            .apply(&e.call, e.ret.as_ref())
            .map_err(|v| format!("{}: {v}", e.call.name()))?;
    }
    Ok(())
}

fn without(line: &str) -> String {
    let mut lines: Vec<&str> = VALID.lines().collect();
    let at = lines
        .iter()
        .position(|l| *l == line)
        .expect("line in VALID");
    lines.remove(at);
    // The return line of a removed call goes with it.
    if lines.get(at).is_some_and(|l| l.starts_with("return")) {
        lines.remove(at);
    }
    lines.join("\n") + "\n"
}

#[test]
fn a_valid_trace_is_accepted() {
    assert_eq!(run(VALID), Ok(()));
}

#[test]
fn removing_a_premise_makes_the_trace_invalid() {
    for (line, error) in [
        ("tactic \"smt\"", "tactic k2 is not defined"),
        ("tactic_when \"size\" gt 2 k3", "tactic k4 is not defined"),
        ("goal_apply k3 g1 1000", "which no tactic was applied to"),
        ("goal_new true", "goal g1 is not defined"),
        ("opt_check o1", "whose last check was not sat"),
        ("opt_push o1", "at scope depth 0"),
        ("opt_maximize o1 t1", "objective 1 of o1, which has 1"),
        (
            "opt_get_model o1",
            "`check_opt_values` of m1, which is not defined",
        ),
    ] {
        let got = run(&without(line)).expect_err(line);
        assert!(got.contains(error), "without `{line}`: {got}");
    }
}

#[test]
fn state_rules_of_the_families() {
    // A second soft constraint of group `a` adds no objective: index 1 is the maximize.
    let bad = VALID.replace("opt_upper o1 1", "opt_upper o1 2");
    assert!(run(&bad)
        .unwrap_err()
        .contains("objective 2 of o1, which has 2"));
    let bad = VALID.replace("goal_subgoal g1 1", "goal_subgoal g1 2");
    assert!(run(&bad)
        .unwrap_err()
        .contains("subgoal 2 of goal g1, which has 2"));
    let bad = VALID.replace("tactic \"simplify\"", "tactic \"no-such\"");
    assert!(run(&bad).unwrap_err().contains("unknown tactic `no-such`"));
    let bad = VALID.replace("\"size\" gt", "\"memory\" gt");
    assert!(run(&bad).unwrap_err().contains("unknown probe `memory`"));
    let bad = VALID.replace("opt_maximize o1 t1", "opt_maximize o1 t3");
    assert!(run(&bad)
        .unwrap_err()
        .contains("expected Int, Real or a bit-vector"));
}

#[test]
fn a_union_takes_one_or_more_sets_of_one_sort() {
    let sets =
        "z3-trace 1\nsort_int\nreturn s1\nsort_bool\nreturn s2\nsort_array s1 s2\nreturn s3\n\
                sort_array s1 s1\nreturn s4\nconst s3 \"a\"\nreturn t1\nconst s3 \"b\"\nreturn t2\n\
                const s4 \"c\"\nreturn t3\n";
    let with = |line: &str| format!("{sets}{line}\nreturn t4\n");
    run(&with("set_union t1")).unwrap();
    run(&with("set_union t1 t2 t1")).unwrap();
    let union = text::parse(&with("set_union t1 t2")).unwrap();
    let mut state = State::new();
    for e in &union.entries {
        state.apply(&e.call, e.ret.as_ref()).unwrap();
    }
    assert_eq!(
        state.terms[&model::TermId(4)].sort.to_string(),
        "(Array Int Bool)"
    );
    for (line, error) in [
        ("set_union", "at least one set"),
        ("set_union t3", "expected a set"),
        ("set_union t1 t3", "expected (Array Int Bool)"),
    ] {
        let got = run(&with(line)).expect_err(line);
        assert!(got.contains(error), "{line}: {got}");
    }
}

/// `check_simplifier` takes a chain of known simplifiers and Boolean parameters that one of
/// them describes; anything else is malformed before Z3 runs.
#[test]
fn simplifier_checks_take_known_chains_and_their_parameters() {
    let head = "z3-trace 1\nnew_solver\nreturn z1\n";
    let accepts = |line: &str| {
        let trace = text::parse(&format!("{head}{line}\n")).expect("parses");
        let mut state = State::new();
        trace
            .entries
            .iter()
            .try_for_each(|e| state.apply(&e.call, e.ret.as_ref()))
            .is_ok()
    };
    assert!(accepts("check_simplifier z1 \"solve-eqs\""));
    assert!(accepts(
        "check_simplifier z1 \"simplify solve-eqs\" \"som\" \"true\" \"context_solve\" \"false\""
    ));
    assert!(!accepts("check_simplifier z1 \"no-such-simplifier\""));
    assert!(!accepts("check_simplifier z1 \"\""));
    assert!(!accepts("check_simplifier z1 \"simplify  solve-eqs\""));
    assert!(!accepts("check_simplifier z1 \"der\" \"som\" \"true\""));
    assert!(!accepts("check_simplifier z1 \"simplify\" \"som\" \"3\""));
    assert!(!accepts(
        "check_simplifier z1 \"simplify\" \"som\" \"true\" \"som\" \"false\""
    ));
    assert!(!accepts("check_simplifier z1 \"simplify der der der der\""));
    assert!(!accepts("check_simplifier z2 \"simplify\""));
}

/// `check_parser_context` takes one or more terms without quantifiers.
#[test]
fn parser_context_checks_take_terms_without_quantifiers() {
    let head = "z3-trace 1\nsort_int\nreturn s1\nconst s1 \"x\"\nreturn t1\nvar s1 \"v\"\n\
                return t2\n= t2 t2\nreturn t3\nforall 1 t2 body t3\nreturn t4\n";
    let accepts = |line: &str| {
        let trace = text::parse(&format!("{head}{line}\n")).expect("parses");
        let mut state = State::new();
        trace
            .entries
            .iter()
            .try_for_each(|e| state.apply(&e.call, e.ret.as_ref()))
            .is_ok()
    };
    assert!(accepts("check_parser_context t1"));
    assert!(!accepts("check_parser_context"));
    assert!(!accepts("check_parser_context t1 t4"));
    assert!(!accepts("check_parser_context t2"));
}

/// `check_propagator` watches one to six distinct closed terms without quantifiers: Booleans
/// in mode `enumerate`, Booleans and bit-vectors in mode `observe`; anything else is
/// malformed before Z3 runs.
#[test]
fn propagator_checks_take_known_modes_and_watchable_terms() {
    let base = "z3-trace 1\nsort_bool\nreturn s1\nsort_bv 4\nreturn s2\nsort_int\nreturn s3\n\
                const s1 \"a\"\nreturn t1\nconst s2 \"u\"\nreturn t2\nconst s3 \"x\"\nreturn t3\n\
                var s3 \"y\"\nreturn t4\n= t3 t4\nreturn t5\nexists 0 t4 body t5\nreturn t6\n\
                new_solver\nreturn z1\n";
    let with = |line: &str| format!("{base}{line}\n");
    run(&with("check_propagator z1 \"enumerate\" t1")).unwrap();
    run(&with("check_propagator z1 \"observe\" t1 t2")).unwrap();
    run(&with("check_proof_callback z1")).unwrap();
    for (line, error) in [
        ("check_propagator z1 \"guess\" t1", "mode \"guess\""),
        (
            "check_propagator z1 \"enumerate\" t2",
            "registers t2 of sort",
        ),
        (
            "check_propagator z1 \"observe\" t3",
            "registers t3 of sort Int",
        ),
        (
            "check_propagator z1 \"observe\" t1 t1",
            "registers t1 twice",
        ),
        ("check_propagator z1 \"observe\" t6", "holds a quantifier"),
        ("check_propagator z1 \"observe\" t5", "outside a quantifier"),
        (
            "check_propagator z1 \"observe\" t1 t1 t1 t1 t1 t1 t1",
            "1 to 6 terms, not 7",
        ),
        ("check_propagator z2 \"observe\" t1", "z2"),
    ] {
        let got = run(&with(line)).expect_err(line);
        assert!(got.contains(error), "{line}: {got}");
    }
}
