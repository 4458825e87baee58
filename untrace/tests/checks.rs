//! The oracle checks (`check_*` lines) as the executor runs them: each holds on a correct
//! run, fails with its kind and cause under an injected fault, and holds vacuously where its
//! premise is missing (what keeps a minimizer from making false findings).

use model::finding::FailureKind;
use untrace::executor::inject::Fault;
use untrace::replay::{replay_trace, Exit, Outcome, ReplayOptions};
use z3::ast::Ast;

fn replay(text: &str, fault: Option<Fault>) -> Outcome {
    let trace = model::trace::text::parse(&format!("z3-trace 1\n{text}")).expect("parses");
    let mut options = ReplayOptions::default();
    options.config.check_results = false;
    options.config.inject = fault;
    replay_trace("t.trace", &trace, &options)
}

/// `x > 3` asserted to a default solver z1, checked sat, model m1; `t3` is `x > 3`, `t4` is
/// `x + 1`, `t5` is `x < 0` (not asserted).
const MODEL: &str = "sort_int\nreturn s1\nconst s1 \"x\"\nreturn t1\nlit s1 \"3\"\nreturn t2\n\
> t1 t2\nreturn t3\n+ t1 t2\nreturn t4\nlit s1 \"0\"\nreturn t6\n< t1 t6\nreturn t5\n\
new_solver\nreturn z1\nassert z1 t3\ncheck_sat z1\nget_model z1\nreturn m1\n";

fn assert_finding(outcome: &Outcome, kind: FailureKind, cause: &str) {
    assert_eq!(outcome.exit, Exit::Oracle, "{outcome:?}");
    let failure = outcome.failure.as_ref().expect("a finding");
    assert_eq!(failure.kind, kind, "{outcome:?}");
    assert_eq!(
        failure.signature().to_string(),
        format!("{}|{cause}", kind.name())
    );
}

#[test]
fn model_checks_hold_on_a_real_model() {
    let text = format!(
        "{MODEL}check_model m1 t3\ncheck_indep m1 t3\ncheck_eval m1 t4 true\ncheck_eval m1 t5 false\n"
    );
    assert_eq!(replay(&text, None).exit, Exit::Ok);
}

#[test]
fn a_wrong_model_fails_check_model_and_check_indep() {
    let model = replay(
        &format!("{MODEL}check_model m1 t3\n"),
        Some(Fault::WrongModel),
    );
    assert_finding(
        &model,
        FailureKind::Model,
        "check_model: a model of the default solver falsifies an assertion",
    );
    let indep = replay(
        &format!("{MODEL}check_indep m1 t3\n"),
        Some(Fault::WrongModel),
    );
    assert_finding(
        &indep,
        FailureKind::Model,
        "check_indep: the independent evaluator falsifies an assertion",
    );
}

#[test]
fn a_term_that_is_not_asserted_need_not_hold() {
    // `x < 0` is false under the model of `x > 3`, but nothing asked it to hold.
    let text = format!("{MODEL}check_model m1 t5\ncheck_indep m1 t5\n");
    assert_eq!(replay(&text, None).exit, Exit::Ok);
}

#[test]
fn models_of_a_context_with_models_off_are_not_judged() {
    // With `model` off in its context, the solver still hands out a model after sat, one that
    // falsifies `(select a i)` (Z3 4.8.12 and 5.4.1): nothing promised a model, so no
    // check may call it wrong. With models on, the same checks hold.
    let text = |config: &str| {
        format!(
            "sort_bool\nreturn s1\nsort_int\nreturn s2\nsort_array s2 s1\nreturn s3\n\
             const s2 \"i\"\nreturn t1\nconst s3 \"a\"\nreturn t2\nselect t2 t1\nreturn t3\n\
             new_solver_config {config}\nreturn z1\nassert z1 t3\ncheck_sat z1\nreturn sat\n\
             get_model z1\nreturn m1\ncheck_model m1 t3\ncheck_indep m1 t3\n"
        )
    };
    assert_eq!(replay(&text("\"model\" \"false\""), None).exit, Exit::Ok);
    assert_eq!(replay(&text("\"model\" \"true\""), None).exit, Exit::Ok);
    let wrong = replay(&text("\"model\" \"true\""), Some(Fault::WrongModel));
    assert_eq!(wrong.exit, Exit::Oracle, "{wrong:?}");
}

#[test]
fn a_wrong_evaluation_is_named_by_its_operation() {
    let fault = || Some(Fault::WrongEval(">".into()));
    let eval = replay(&format!("{MODEL}check_eval m1 t3 true\n"), fault());
    assert_finding(
        &eval,
        FailureKind::EvalDisagreement,
        "model_eval of > departs from the independent evaluator",
    );
    // The same root cause met by the model check is the same finding.
    let model = replay(&format!("{MODEL}check_model m1 t3\n"), fault());
    assert_eq!(
        model.failure.unwrap().signature(),
        eval.failure.unwrap().signature()
    );
}

/// z1 holds `p`, z2 is its translated copy with the same assertion; both checked.
const SHADOW: &str = "sort_bool\nreturn s1\nconst s1 \"p\"\nreturn t1\nnew_solver\nreturn z1\n\
assert z1 t1\ntranslate z1\nreturn z2\ncheck_sat z1\ncheck_sat z2\n";

#[test]
fn shadow_and_config_checks_compare_answers_on_the_same_formula() {
    let shadow = format!("{SHADOW}check_shadow z1 z2\n");
    assert_eq!(replay(&shadow, None).exit, Exit::Ok);
    assert_finding(
        &replay(&shadow, Some(Fault::FlipSolver(2))),
        FailureKind::Shadow,
        "check_shadow: default solver sat, default solver unsat",
    );
    let config = format!("{SHADOW}check_config z1 z2\n");
    assert_eq!(
        replay(&config, Some(Fault::FlipSolver(2)))
            .failure
            .unwrap()
            .kind,
        FailureKind::Config
    );
}

#[test]
fn answers_about_different_formulas_may_differ() {
    // z2 lost its assertion (as a minimizer might make it): the check holds vacuously.
    let text = "sort_bool\nreturn s1\nconst s1 \"p\"\nreturn t1\nnot t1\nreturn t2\n\
new_solver\nreturn z1\ntranslate z1\nreturn z2\nassert z1 t1\nassert z1 t2\n\
check_sat z1\ncheck_sat z2\ncheck_shadow z1 z2\n";
    assert_eq!(replay(text, None).exit, Exit::Ok);
    // An assertion after the last check makes its answer stale.
    let stale = format!("{SHADOW}assert z2 t1\ncheck_shadow z1 z2\n");
    assert_eq!(replay(&stale, Some(Fault::FlipSolver(2))).exit, Exit::Ok);
}

#[test]
fn the_dump_check_parses_the_dump_into_a_fresh_solver() {
    let text = format!("{SHADOW}check_dump z1\n");
    assert_eq!(replay(&text, None).exit, Exit::Ok);
    assert_finding(
        &replay(&text, Some(Fault::DumpFalse)),
        FailureKind::Dump,
        "check_dump: default solver sat, its dump unsat",
    );
}

/// `p` and `not p` as assumptions: unsat, core `[t1 t2]`.
const CORE: &str = "sort_bool\nreturn s1\nconst s1 \"p\"\nreturn t1\nnot t1\nreturn t2\n\
new_solver\nreturn z1\ncheck_sat_assuming z1 t1 t2\nreturn unsat\nget_unsat_core z1\n";

#[test]
fn the_core_check_rechecks_a_superset_of_the_core() {
    let text = format!("{CORE}check_sat_assuming z1 t1 t2\ncheck_core z1\n");
    assert_eq!(replay(&text, None).exit, Exit::Ok);
    assert_finding(
        &replay(
            &format!("{CORE}check_sat_assuming z1\ncheck_core z1\n"),
            Some(Fault::EmptyCore),
        ),
        FailureKind::Core,
        "check_core: default solver core re-checks sat",
    );
    // A re-check of fewer literals than the core (a minimizer dropped some) may be sat.
    let subset = format!("{CORE}check_sat_assuming z1 t1\ncheck_core z1\n");
    assert_eq!(replay(&subset, None).exit, Exit::Ok);
    // A core asked for after a sat answer is no core.
    let after_sat = "new_solver\nreturn z1\ncheck_sat_assuming z1\nreturn unsat\n\
get_unsat_core z1\ncheck_sat_assuming z1\ncheck_core z1\n";
    assert_eq!(replay(after_sat, None).exit, Exit::Ok);
}

#[test]
fn the_literal_check_builds_each_value_through_every_numeral_constructor() {
    // Values at the edges of the machine-integer constructors, a bit-vector with its top bit
    // set (built from a negative int64 too), a rational and floats a small format holds as
    // normal numbers (Z3 rounds doubles into subnormals and beyond the largest finite value
    // wrongly: traces/regress/fp-numeral-double-subnormal-check-literal.trace).
    let text = "sort_int\nreturn s1\nlit s1 \"-2147483648\"\nreturn t1\ncheck_literal t1\n\
lit s1 \"18446744073709551615\"\nreturn t2\ncheck_literal t2\nsort_bv 8\nreturn s2\n\
lit s2 \"200\"\nreturn t3\ncheck_literal t3\nsort_real\nreturn s3\nlit s3 \"-6/4\"\n\
return t4\ncheck_literal t4\nsort_fp 3 5\nreturn s4\nlit s4 \"-3\"\nreturn t5\n\
check_literal t5\nlit s4 \"15.5\"\nreturn t6\ncheck_literal t6\n";
    assert_eq!(replay(text, None).exit, Exit::Ok);
    // A constructor that builds another value is a finding named by the constructor.
    let wrong = replay(text, Some(Fault::WrongNumeral));
    assert_finding(
        &wrong,
        FailureKind::Literal,
        "check_literal: Int from Z3_mk_int differs from lit",
    );
    // A term that is no literal (a minimizer replaced it) holds vacuously.
    let not_a_literal = "sort_int\nreturn s1\nconst s1 \"x\"\nreturn t1\ncheck_literal t1\n";
    assert_eq!(
        replay(not_a_literal, Some(Fault::WrongNumeral)).exit,
        Exit::Ok
    );
}

#[test]
fn the_simplify_check_asks_a_fresh_solver_whether_the_simplification_can_differ() {
    let text = format!(
        "{MODEL}simplify t3\nreturn t7\ncheck_simplify t7\n\
         simplify_with t4 \"som\" \"true\" \"flat\" \"false\"\nreturn t8\ncheck_simplify t8\n"
    );
    assert_eq!(replay(&text, None).exit, Exit::Ok);
    let wrong = replay(&text, Some(Fault::WrongSimplify));
    assert_finding(
        &wrong,
        FailureKind::Simplify,
        "check_simplify: simplify changes a term's value",
    );
    // A term that is no simplification holds vacuously.
    let vacuous = format!("{MODEL}check_simplify t3\n");
    assert_eq!(replay(&vacuous, Some(Fault::WrongSimplify)).exit, Exit::Ok);
}

#[test]
fn no_oracles_skips_every_check() {
    let trace = model::trace::text::parse(&format!("z3-trace 1\n{MODEL}check_model m1 t3\n"))
        .expect("parses");
    let mut options = ReplayOptions::default();
    options.config.inject = Some(Fault::WrongModel);
    options.config.run_checks = false;
    options.config.check_results = false;
    assert_eq!(replay_trace("t.trace", &trace, &options).exit, Exit::Ok);
}

/// The model types `^` on Ints as the loaded Z3 does (Real in 4.8.12, Int in 5.x): the
/// executor asks the loaded Z3 before its first call, so a fuzzer builds no term the solver
/// types otherwise.
#[test]
fn the_power_of_ints_is_typed_as_the_loaded_z3_types_it() {
    use model::{Call, Op, Sort};
    let mut executor = untrace::Executor::new(untrace::ExecConfig::default());
    let int = executor.run(Call::SortInt).unwrap();
    let Some(model::Ret::Id(model::AnyId::Sort(int))) = int else {
        panic!("{int:?}")
    };
    let x = match executor.run(Call::Const {
        sort: int,
        name: "x".into(),
    }) {
        Ok(Some(model::Ret::Id(model::AnyId::Term(t)))) => t,
        other => panic!("{other:?}"),
    };
    let power = match executor.run(Call::Op {
        op: Op::lookup("^").unwrap(),
        indices: vec![],
        args: vec![x, x],
    }) {
        Ok(Some(model::Ret::Id(model::AnyId::Term(t)))) => t,
        other => panic!("{other:?}"),
    };
    let ours = executor.state().term(power).unwrap().sort.clone();
    let theirs = match executor.term(power).unwrap().get_sort().kind() {
        z3::SortKind::Int => Sort::Int,
        z3::SortKind::Real => Sort::Real,
        other => panic!("{other:?}"),
    };
    assert_eq!(ours, theirs);
}

#[test]
fn a_substitution_of_constants_is_judged_by_the_independent_evaluator() {
    // t5 is `x > 3` with y for x; t6 is `x > 3` with y for 3, a substitution of no constant.
    let text = "sort_int\nreturn s1\nconst s1 \"x\"\nreturn t1\nlit s1 \"3\"\nreturn t2\n\
> t1 t2\nreturn t3\nconst s1 \"y\"\nreturn t4\nsubstitute t3 t1 t4\nreturn t5\n\
substitute t3 t2 t4\nreturn t6\nnew_solver\nreturn z1\nassert z1 t5\nassert z1 t6\n\
check_sat z1\nget_model z1\nreturn m1\n";
    let checks = |t: &str| format!("{text}check_indep m1 {t}\n");
    assert_eq!(replay(&checks("t5"), None).exit, Exit::Ok);
    // Under a wrong model the substituted assertion fails the independent check: it was judged.
    assert_finding(
        &replay(&checks("t5"), Some(Fault::WrongModel)),
        FailureKind::Model,
        "check_indep: the independent evaluator falsifies an assertion",
    );
    // A replaced term that is no constant leaves the term without text: the check skips it.
    assert_eq!(
        replay(&checks("t6"), Some(Fault::WrongModel)).exit,
        Exit::Ok
    );
}

/// A partial order over U applied to a, b and b, c, both asserted to z1, checked sat, model m1.
const RELATION: &str = "sort_uninterpreted \"U\"\nreturn s1\nconst s1 \"a\"\nreturn t1\n\
const s1 \"b\"\nreturn t2\nconst s1 \"c\"\nreturn t3\npartial_order s1 0\nreturn f1\n\
apply f1 t1 t2\nreturn t4\napply f1 t2 t3\nreturn t5\nnew_solver\nreturn z1\n";

#[test]
fn the_relation_check_judges_the_axioms_on_the_models_values() {
    let asserted = format!(
        "{RELATION}assert z1 t4\nassert z1 t5\ncheck_sat z1\nget_model z1\nreturn m1\n\
         check_relation m1 f1 t1 t2 t3\n"
    );
    assert_eq!(replay(&asserted, None).exit, Exit::Ok);
    // The injected fault reads R(a, a) as false: reflexivity breaks.
    assert_finding(
        &replay(&asserted, Some(Fault::WrongRelation)),
        FailureKind::Model,
        "check_relation: partial_order breaks reflexivity",
    );
    // Without the relation in the checked formula nothing promised its axioms.
    let other = RELATION.to_string()
        + "sort_bool\nreturn s2\nconst s2 \"p\"\nreturn t6\nassert z1 t6\ncheck_sat z1\n\
           get_model z1\nreturn m1\ncheck_relation m1 f1 t1 t2 t3\n";
    assert_eq!(replay(&other, Some(Fault::WrongRelation)).exit, Exit::Ok);
}

#[test]
fn recursive_definitions_reach_the_independent_evaluator() {
    // sum(n) = ite(n <= 0, 0, n + sum(n - 1)); sum(x) = 6 has the model x = 3, which both Z3
    // and the independent evaluator (unfolding the definition) judge.
    let text = "sort_int\nreturn s1\nrec_fun \"sum\" s1 s1\nreturn f1\nvar s1 \"n\"\nreturn t1\n\
        lit s1 \"0\"\nreturn t2\nlit s1 \"1\"\nreturn t3\n<= t1 t2\nreturn t4\n- t1 t3\nreturn t5\n\
        apply f1 t5\nreturn t6\n+ t1 t6\nreturn t7\nite t4 t2 t7\nreturn t8\nrec_def f1 t1 body t8\n\
        const s1 \"x\"\nreturn t9\napply f1 t9\nreturn t10\nlit s1 \"6\"\nreturn t11\n= t10 t11\n\
        return t12\nnew_solver\nreturn z1\nassert z1 t12\ncheck_sat z1\nget_model z1\nreturn m1\n\
        check_model m1 t12\ncheck_indep m1 t12\ncheck_eval m1 t10 true\n";
    assert_eq!(replay(text, None).exit, Exit::Ok);
    // Asserting the negation instead (the injected fault) gives a model where sum(x) is not
    // 6, which the independent evaluator finds by unfolding the definition.
    let indep_only = text.replace("check_model m1 t12\n", "");
    assert_finding(
        &replay(&indep_only, Some(Fault::WrongModel)),
        FailureKind::Model,
        "check_indep: the independent evaluator falsifies an assertion",
    );
}

/// RCF numbers: r1 = 3/4, r2 = -2, r3 = r1 + r2 (-5/4), r4 = π, r5 = 3, r6 = ε, r7 = 0,
/// r8 = 1.
const RCF: &str = "rcf_rational \"3/4\"\nreturn r1\nrcf_small_int -2\nreturn r2\n\
rcf_add r1 r2\nreturn r3\nrcf_pi\nreturn r4\nrcf_small_int 3\nreturn r5\n\
rcf_infinitesimal\nreturn r6\nrcf_small_int 0\nreturn r7\nrcf_small_int 1\nreturn r8\n";

#[test]
fn the_rcf_check_holds_for_rationals_transcendentals_and_infinitesimals() {
    let text = format!(
        "{RCF}check_rcf r3 r2\ncheck_rcf r3 r1\ncheck_rcf r5 r4\ncheck_rcf r7 r6\n\
         check_rcf r6 r1\ncheck_rcf r4 r4\n"
    );
    assert_eq!(replay(&text, None).exit, Exit::Ok);
}

#[test]
fn a_sum_off_by_one_fails_the_rcf_check() {
    // -5/4 printed as -1/4: the fraction departs from exact arithmetic.
    let wrong = replay(&format!("{RCF}check_rcf r3 r1\n"), Some(Fault::WrongRcf));
    assert_finding(
        &wrong,
        FailureKind::Rcf,
        "check_rcf: rcf_num_to_string of a rational departs from exact arithmetic",
    );
    // π + 1 compared with 4: π + 1 > 4, exactly π < 4 - ... the comparison departs.
    let text =
        format!("{RCF}rcf_add r4 r7\nreturn r9\nrcf_small_int 4\nreturn r10\ncheck_rcf r9 r10\n");
    assert_eq!(replay(&text, None).exit, Exit::Ok);
    assert_finding(
        &replay(&text, Some(Fault::WrongRcf)),
        FailureKind::Rcf,
        "check_rcf: rcf < departs from exact arithmetic",
    );
}

#[test]
fn the_rcf_roots_check_counts_roots_by_sturm_sequences() {
    // x^2 - 2 (two roots), x^2 + 1 (none), x^2 + ε x - π (two, coefficients not rational).
    let text = format!(
        "{RCF}check_rcf_roots r2 r7 r8\ncheck_rcf_roots r8 r7 r8\nrcf_root 1 r2 r7 r8\nreturn r9\n\
         rcf_mul r9 r9\nreturn r10\nrcf_small_int 2\nreturn r11\ncheck_rcf r10 r11\n\
         rcf_neg r4\nreturn r12\ncheck_rcf_roots r12 r6 r8\n"
    );
    assert_eq!(replay(&text, None).exit, Exit::Ok);
    // A root index beyond Sturm's count, or a polynomial not known to be nonzero, is no trace.
    let malformed = |body: &str| {
        model::trace::text::parse(&format!("z3-trace 1\n{RCF}{body}"))
            .ok()
            .map(|t| replay_trace("t.trace", &t, &ReplayOptions::default()).exit)
    };
    assert_eq!(
        malformed("rcf_root 0 r8 r7 r8\nreturn r9\n"),
        Some(Exit::Malformed)
    );
    assert_eq!(
        malformed("rcf_roots r7 r7\nreturn \"0\"\n"),
        Some(Exit::Malformed)
    );
    assert_eq!(
        malformed("rcf_div r1 r7\nreturn r9\n"),
        Some(Exit::Malformed)
    );
}

#[test]
fn the_algebraic_check_judges_signs_and_comparisons_by_exact_arithmetic() {
    // t1 = 2, t2 = sqrt 2, t3 = -3/4, t4 = 2 + -3/4 = 5/4.
    let text = "sort_real\nreturn s1\nlit s1 \"2\"\nreturn t1\nalgebraic_root t1 2\nreturn t2\n\
                lit s1 \"-3/4\"\nreturn t3\nalgebraic_add t1 t3\nreturn t4\n\
                check_algebraic t2 t1\ncheck_algebraic t4 t2\ncheck_algebraic t3 t4\n";
    assert_eq!(replay(text, None).exit, Exit::Ok);
    // 9/4 > sqrt 2 where exactly 5/4 < sqrt 2.
    assert_finding(
        &replay(text, Some(Fault::WrongRcf)),
        FailureKind::Rcf,
        "check_algebraic: algebraic < departs from exact arithmetic",
    );
    // A term that is no numeral is no algebraic number.
    let trace = model::trace::text::parse(
        "z3-trace 1\nsort_real\nreturn s1\nconst s1 \"x\"\nreturn t1\nalgebraic_sign t1\nreturn \"0\"\n",
    )
    .unwrap();
    let exit = replay_trace("t.trace", &trace, &ReplayOptions::default()).exit;
    assert_eq!(exit, Exit::Malformed);
}

/// Algebraic numbers: t1 = 2, t2 = sqrt 2, t3 = -3/4, t4 = sqrt 2 - 3/4, t5 = the cube root
/// of -3/4, t6 = 0, t7 = 1, t8 = -1, t9 = -2.
const ALGEBRAIC: &str =
    "sort_real\nreturn s1\nlit s1 \"2\"\nreturn t1\nalgebraic_root t1 2\nreturn t2\n\
lit s1 \"-3/4\"\nreturn t3\nalgebraic_add t2 t3\nreturn t4\nalgebraic_root t3 3\nreturn t5\n\
lit s1 \"0\"\nreturn t6\nlit s1 \"1\"\nreturn t7\nlit s1 \"-1\"\nreturn t8\n\
lit s1 \"-2\"\nreturn t9\n";

#[test]
fn the_algebraic_polynomial_check_judges_roots_bounds_and_signs_by_exact_arithmetic() {
    let text = format!(
        "{ALGEBRAIC}check_algebraic_poly t2\ncheck_algebraic_poly t4\ncheck_algebraic_poly t5\n\
         check_algebraic_poly t3\ncheck_algebraic_poly t6\n"
    );
    assert_eq!(replay(&text, None).exit, Exit::Ok);
    // The signs of Z3_algebraic_eval read negated.
    assert_finding(
        &replay(
            &format!("{ALGEBRAIC}check_algebraic_poly t2\n"),
            Some(Fault::WrongRcf),
        ),
        FailureKind::Rcf,
        "check_algebraic_poly: eval at a rational departs from exact arithmetic",
    );
    assert_finding(
        &replay(
            &format!("{ALGEBRAIC}check_algebraic_poly t3\n"),
            Some(Fault::WrongRcf),
        ),
        FailureKind::Rcf,
        "check_algebraic_poly: eval at a rational departs from exact arithmetic",
    );
}

#[test]
fn the_subresultant_check_counts_the_euclidean_remainders() {
    // x^2 - 2 and x^3 - x (remainders x and -2); x^2 - 1 and -2x^2 + 2 (no remainder);
    // 2 + x^3 and -3/4 + x (one constant remainder).
    let text = format!(
        "{ALGEBRAIC}check_subresultants t9 t6 t7 and t6 t8 t6 t7\n\
         check_subresultants t8 t6 t7 and t1 t6 t9\ncheck_subresultants t1 t6 t6 t7 and t3 t7\n"
    );
    assert_eq!(replay(&text, None).exit, Exit::Ok);
    assert_finding(
        &replay(&text, Some(Fault::WrongRcf)),
        FailureKind::Rcf,
        "check_subresultants: the subresultant chain departs from the remainder sequence",
    );
    // Coefficients of 30 and 59 digits: Z3's chain has coefficients of over 200 digits, and a
    // negative one written as the negation of a numeral.
    let large = format!(
        "{ALGEBRAIC}lit s1 \"15241578753238836750495351562536198787501905199875019052100\"\nreturn t10\n\
         lit s1 \"123456789012345678901234567890\"\nreturn t11\nlit s1 \"-6\"\nreturn t12\n\
         check_subresultants t12 t10 t12 t11 and t12 t10 t12 t10 t11\n"
    );
    assert_eq!(replay(&large, None).exit, Exit::Ok);
    // A polynomial of degree 0, or with a coefficient not known exactly, is no trace.
    for body in [
        "check_subresultants t1 t6 and t7 t7\n",
        "check_subresultants t2 t7 and t7 t7\n",
    ] {
        let trace = model::trace::text::parse(&format!("z3-trace 1\n{ALGEBRAIC}{body}")).unwrap();
        let exit = replay_trace("t.trace", &trace, &ReplayOptions::default()).exit;
        assert_eq!(exit, Exit::Malformed, "{body}");
    }
}

/// A counter R over Int: R(0), R(x) and x < 3 give R(x + 1); t10 asks for an x > 5 in R
/// (unreachable), t11 for an x > 1 (reachable).
const HORN: &str = "sort_int\nreturn s1\nsort_bool\nreturn s2\nfun \"R\" s2 s1\nreturn f1\n\
fp_new \"spacer\"\nfp_register f1\nlit s1 \"0\"\nreturn t1\napply f1 t1\nreturn t2\n\
fp_rule t2 \"init\"\nvar s1 \"x\"\nreturn t3\napply f1 t3\nreturn t4\nlit s1 \"3\"\nreturn t5\n\
< t3 t5\nreturn t6\nand t4 t6\nreturn t7\nlit s1 \"1\"\nreturn t8\n+ t3 t8\nreturn t9\n\
apply f1 t9\nreturn t12\n=> t7 t12\nreturn t13\nforall 0 t3 body t13\nreturn t14\n\
fp_rule t14 \"step\"\nlit s1 \"5\"\nreturn t15\n> t3 t15\nreturn t16\nand t4 t16\nreturn t17\n\
exists 0 t3 body t17\nreturn t10\n> t3 t8\nreturn t18\nand t4 t18\nreturn t19\n\
exists 0 t3 body t19\nreturn t11\n";

#[test]
fn the_fixedpoint_check_holds_for_invariants_and_derivations() {
    let unsat = format!("{HORN}fp_query t10 1000000\nreturn unsat\ncheck_fp\n");
    assert_eq!(replay(&unsat, None).exit, Exit::Ok);
    let sat = format!("{HORN}fp_query t11 1000000\nreturn sat\ncheck_fp\n");
    assert_eq!(replay(&sat, None).exit, Exit::Ok);
}

#[test]
fn a_negated_answer_fails_the_fixedpoint_check() {
    let unsat = format!("{HORN}fp_query t10 1000000\nreturn unsat\ncheck_fp\n");
    assert_finding(
        &replay(&unsat, Some(Fault::WrongFixedpoint)),
        FailureKind::Fixedpoint,
        "check_fp: the invariant of an unsat answer is violated",
    );
    let sat = format!("{HORN}fp_query t11 1000000\nreturn sat\ncheck_fp\n");
    assert_finding(
        &replay(&sat, Some(Fault::WrongFixedpoint)),
        FailureKind::Fixedpoint,
        "check_fp: a step of the derivation of a sat answer does not follow",
    );
}

#[test]
fn a_query_asked_again_must_answer_as_before() {
    let text = format!(
        "{HORN}fp_query t10 1000000\nreturn unsat\nfp_read \"Z3_fixedpoint_query_from_lvl\"\n"
    );
    assert_eq!(replay(&text, None).exit, Exit::Ok);
    assert_finding(
        &replay(&text, Some(Fault::WrongFixedpoint)),
        FailureKind::Fixedpoint,
        "fp_read: Z3_fixedpoint_query_from_lvl answers otherwise",
    );
}

#[test]
fn the_fixedpoint_check_needs_an_answered_query() {
    // Without a query (or after a refused one) the check is malformed, never a pass.
    let text = format!("{HORN}check_fp\n");
    assert_eq!(replay(&text, None).exit, Exit::Malformed);
}

#[test]
fn a_fixed_floating_point_format_maker_must_make_the_sort_of_its_format() {
    let text = "sort_fp_fixed \"Z3_mk_fpa_sort_double\"\nreturn s1\nsort_fp 11 53\nreturn s2\n\
                const s1 \"x\"\nreturn t1\nconst s2 \"y\"\nreturn t2\n= t1 t2\nreturn t3\n";
    assert_eq!(replay(text, None).exit, Exit::Ok);
    assert_finding(
        &replay(text, Some(Fault::WrongRead)),
        FailureKind::ReadBack,
        "Z3_mk_fpa_sort_double: another sort",
    );
    // A name that makes no floating-point sort is a malformed trace, not a finding.
    let bogus = replay("sort_fp_fixed \"Z3_mk_bool_sort\"\nreturn s1\n", None);
    assert_eq!(bogus.exit, Exit::Malformed, "{bogus:?}");
}

const GOAL: &str = "sort_int\nreturn s1\nconst s1 \"x\"\nreturn t1\nlit s1 \"3\"\nreturn t2\n\
> t1 t2\nreturn t3\ngoal_new true\nreturn g1\ngoal_assert g1 t3\n";

#[test]
fn goal_readers_and_probes_hold_and_fail_under_injection() {
    let skip = format!("{GOAL}tactic_skip\nreturn k1\ngoal_apply k1 g1 100000\nreturn \"1\"\n");
    assert_eq!(replay(&skip, None).exit, Exit::Ok);
    assert_finding(
        &replay(&skip, Some(Fault::WrongGoalRead)),
        FailureKind::Tactic,
        "goal_apply: tactic_skip changed the goal",
    );
    let probe = format!("{GOAL}probe_apply g1 \"and\" \"is-qflia\" \"num-consts\"\nreturn \"1\"\n");
    assert_eq!(replay(&probe, None).exit, Exit::Ok);
    assert_finding(
        &replay(&probe, Some(Fault::WrongGoalRead)),
        FailureKind::Tactic,
        "probe_apply: and",
    );
    let depth = format!("{GOAL}goal_read \"Z3_goal_depth\" g1\nreturn \"0\"\n");
    assert_eq!(replay(&depth, None).exit, Exit::Ok);
    assert_finding(
        &replay(&depth, Some(Fault::WrongGoalRead)),
        FailureKind::Tactic,
        "goal_read: Z3_goal_depth",
    );
    let translate = format!("{GOAL}goal_read \"Z3_goal_translate\" g1\nreturn \"ok\"\n");
    assert_eq!(replay(&translate, None).exit, Exit::Ok);
    assert_finding(
        &replay(&translate, Some(Fault::WrongGoalRead)),
        FailureKind::Tactic,
        "goal_read: Z3_goal_translate",
    );
    let convert = format!(
        "{GOAL}tactic \"solve-eqs\"\nreturn k1\ngoal_apply k1 g1 100000\nreturn \"1\"\n\
goal_subgoal g1 0\nreturn g2\ngoal_read \"Z3_goal_convert_model\" g2\nreturn \"ok\"\n"
    );
    assert_eq!(replay(&convert, None).exit, Exit::Ok);
    assert_finding(
        &replay(&convert, Some(Fault::WrongGoalRead)),
        FailureKind::Tactic,
        "goal_read: Z3_goal_convert_model",
    );
}

#[test]
fn an_interrupted_check_leaves_the_solver_answering_as_before() {
    let text = format!(
        "{GOAL}new_solver\nreturn z1\nassert z1 t3\ncheck_sat z1\nreturn sat\n\
check_sat_interrupted z1 0\nreturn unknown\ncheck_sat z1\nreturn sat\ncheck_interrupt z1\n"
    );
    // A recorded `unknown` stands for either answer of an interrupted check.
    assert_eq!(replay(&text, None).exit, Exit::Ok);
    assert_finding(
        &replay(&text, Some(Fault::WrongInterrupt)),
        FailureKind::Shadow,
        "check_interrupt: answers differ around an interrupt",
    );
}

#[test]
fn solver_readers_are_judged() {
    let text = format!(
        "{GOAL}new_solver\nreturn z1\nassert z1 t3\npush z1\n\
solver_read \"Z3_solver_get_num_scopes\" z1\nreturn \"1\"\n"
    );
    assert_eq!(replay(&text, None).exit, Exit::Ok);
    assert_finding(
        &replay(&text, Some(Fault::WrongRead)),
        FailureKind::ReadBack,
        "solver_read: Z3_solver_get_num_scopes",
    );
    let parsed = format!(
        "{GOAL}new_solver\nreturn z1\nassert z1 t3\nsolver_read \"Z3_solver_to_string\" z1\n\
return \"ok\"\n"
    );
    assert_eq!(replay(&parsed, None).exit, Exit::Ok);
    assert_finding(
        &replay(&parsed, Some(Fault::WrongRead)),
        FailureKind::Dump,
        "solver_read: Z3_solver_to_string",
    );
}

#[test]
fn the_catalogs_and_the_solver_help_are_judged() {
    let catalog = format!("{GOAL}goal_read \"Z3_get_tactic_name\" g1\nreturn \"ok\"\n");
    assert_eq!(replay(&catalog, None).exit, Exit::Ok);
    assert_finding(
        &replay(&catalog, Some(Fault::WrongGoalRead)),
        FailureKind::Tactic,
        "goal_read: Z3_get_tactic_name",
    );
    let help = format!(
        "{GOAL}new_solver\nreturn z1\nsolver_read \"Z3_solver_get_param_descrs\" z1\n\
return \"ok\"\n"
    );
    assert_eq!(replay(&help, None).exit, Exit::Ok);
    assert_finding(
        &replay(&help, Some(Fault::WrongRead)),
        FailureKind::ReadBack,
        "solver_read: Z3_solver_get_param_descrs",
    );
}

/// An Optimize context o1 (`0 < x < 10` hard, `x` maximized, a soft `p` of group g, a scope
/// with `x + y` minimized) and a model m1 built by hand: `x` is 2, `f(1, true)` written 10,
/// `f(2, true)` 0, `f(1, true)` again 8, else 7.
const OPT_MODEL: &str = "sort_int\nreturn s1\nsort_bool\nreturn s2\nconst s1 \"x\"\nreturn t1\n\
const s1 \"y\"\nreturn t2\nconst s2 \"p\"\nreturn t3\nlit s1 \"0\"\nreturn t4\nlit s1 \"10\"\n\
return t5\n> t1 t4\nreturn t6\n< t1 t5\nreturn t7\n+ t1 t2\nreturn t8\nopt_new\nreturn o1\n\
opt_assert o1 t6\nopt_assert o1 t7\nopt_maximize o1 t1\nopt_assert_soft o1 t3 2 \"g\"\n\
opt_push o1\nopt_minimize o1 t8\nfun \"f\" s1 s1 s2\nreturn f1\nlit s1 \"1\"\nreturn t9\n\
lit s1 \"2\"\nreturn t10\nlit s2 \"true\"\nreturn t11\nlit s1 \"7\"\nreturn t12\n\
lit s1 \"8\"\nreturn t13\nmodel_new\nreturn m1\nmodel_const m1 t1 t10\n\
model_func m1 f1 t12 t9 t11 t5 t10 t11 t4 t9 t11 t13\n";

#[test]
fn optimize_readers_hold_and_fail_under_wrong_read() {
    for (function, kind) in [
        ("Z3_optimize_to_string", FailureKind::Dump),
        ("Z3_optimize_from_file", FailureKind::Dump),
        ("Z3_optimize_get_assertions", FailureKind::ReadBack),
        ("Z3_optimize_get_objectives", FailureKind::ReadBack),
        ("Z3_optimize_get_lower_as_vector", FailureKind::ReadBack),
        ("Z3_optimize_get_upper_as_vector", FailureKind::ReadBack),
        ("Z3_optimize_get_unsat_core", FailureKind::Core),
        ("Z3_optimize_get_reason_unknown", FailureKind::ReadBack),
        ("Z3_optimize_get_statistics", FailureKind::ReadBack),
    ] {
        let text = format!("{OPT_MODEL}opt_read \"{function}\" o1\nreturn \"ok\"\n");
        assert_eq!(replay(&text, None).exit, Exit::Ok, "{function}");
        assert_finding(
            &replay(&text, Some(Fault::WrongRead)),
            kind,
            &format!("opt_read: {function}"),
        );
    }
}

#[test]
fn a_hand_built_function_table_evaluates_and_reads_back_as_written() {
    // f(x, true) + f(1, true) = 0 + 8: the entry written last for (1, true) counts.
    let eval = format!(
        "{OPT_MODEL}apply f1 t1 t11\nreturn t14\napply f1 t9 t11\nreturn t15\n+ t14 t15\n\
return t16\nmodel_eval m1 t16 false\nreturn \"8\"\ncheck_eval m1 t16 false\n\
apply f1 t5 t11\nreturn t17\nmodel_eval m1 t17 true\nreturn \"7\"\ncheck_eval m1 t17 true\n"
    );
    let mut options = ReplayOptions::default();
    options.config.term_texts = true;
    let trace = model::trace::text::parse(&format!("z3-trace 1\n{eval}")).expect("parses");
    assert_eq!(replay_trace("t.trace", &trace, &options).exit, Exit::Ok);
    for function in model::introspect::MODEL_READERS {
        let text = format!("{OPT_MODEL}model_read \"{function}\" m1\nreturn \"ok\"\n");
        assert_eq!(replay(&text, None).exit, Exit::Ok, "{function}");
        assert_finding(
            &replay(&text, Some(Fault::WrongRead)),
            FailureKind::ReadBack,
            &format!("model_read: {function}"),
        );
    }
}

#[test]
fn a_function_table_takes_literals_of_its_signature_in_whole_entries() {
    let state_of = |entries: &str| {
        let text = format!("{OPT_MODEL}model_func m1 f1 {entries}\n");
        replay(&text, None).exit
    };
    // Not a whole entry; a constant as an argument; a Bool where an Int goes.
    assert_eq!(state_of("t12 t9 t11"), Exit::Malformed);
    assert_eq!(state_of("t12 t1 t11 t5"), Exit::Malformed);
    assert_eq!(state_of("t12 t11 t11 t5"), Exit::Malformed);
    assert_eq!(state_of("t12"), Exit::Ok);
}

/// A solver holding x + y = 3, y = z and f(x) > 0, checked sat (`traces/solver_queries.trace`).
const QUERIES: &str = "sort_int\nreturn s1\nconst s1 \"x\"\nreturn t1\nconst s1 \"y\"\nreturn t2\n\
const s1 \"z\"\nreturn t3\nlit s1 \"3\"\nreturn t4\n+ t1 t2\nreturn t5\n= t5 t4\nreturn t6\n\
= t2 t3\nreturn t7\nfun \"f\" s1 s1\nreturn f1\napply f1 t1\nreturn t8\nlit s1 \"0\"\nreturn t9\n\
> t8 t9\nreturn t10\nnew_solver\nreturn z1\nassert z1 t6\nassert z1 t7\nassert z1 t10\n\
check_sat z1\nreturn sat\n";

#[test]
fn the_solver_queries_hold_and_fail_under_wrong_read() {
    for (function, kind) in [
        ("Z3_solver_get_levels", FailureKind::ReadBack),
        ("Z3_get_implied_equalities", FailureKind::Consequence),
        ("Z3_parse_smtlib2_file", FailureKind::Dump),
    ] {
        let text = format!("{QUERIES}solver_read \"{function}\" z1\nreturn \"ok\"\n");
        assert_eq!(replay(&text, None).exit, Exit::Ok, "{function}");
        assert_finding(
            &replay(&text, Some(Fault::WrongRead)),
            kind,
            &format!("solver_read: {function}"),
        );
    }
    // A propositional solver's DIMACS text: its counts (the header's read one more under
    // the fault) and its clauses' answer.
    let dimacs = "sort_bool\nreturn s1\nconst s1 \"p\"\nreturn t1\nnot t1\nreturn t2\n\
new_solver\nreturn z1\nassert z1 t1\nassert z1 t2\n\
solver_read \"Z3_solver_to_dimacs_string\" z1\nreturn \"ok\"\n";
    assert_eq!(replay(dimacs, None).exit, Exit::Ok);
    assert_finding(
        &replay(dimacs, Some(Fault::WrongRead)),
        FailureKind::Dump,
        "solver_read: Z3_solver_to_dimacs_string",
    );
}

#[test]
fn projections_with_maps_hold_in_their_model() {
    let text = format!("{QUERIES}get_model z1\nreturn m1\ncheck_qe_skolem m1 t6 t1 t2\n");
    assert_eq!(replay(&text, None).exit, Exit::Ok);
    assert_finding(
        &replay(&text, Some(Fault::WrongRead)),
        FailureKind::ReadBack,
        "check_qe_skolem: Z3_qe_model_project_skolem: false in the model",
    );
}

#[test]
fn finite_domain_reachability_is_judged_by_the_closure() {
    let text = "check_finite_domain 4 \"0>1 1>2 2>1\"\ncheck_finite_domain 1 \"\"\n";
    assert_eq!(replay(text, None).exit, Exit::Ok);
    assert_finding(
        &replay(text, Some(Fault::WrongFixedpoint)),
        FailureKind::Fixedpoint,
        "check_finite_domain: reachability",
    );
}
