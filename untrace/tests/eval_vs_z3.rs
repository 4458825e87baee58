//! Differential test of `model::eval` against Z3: random ground terms of each supported theory
//! (Core, Ints, Reals, bit-vectors of several widths including division by zero and large
//! shifts, arrays, strings) are evaluated by our evaluator and by Z3 (`(assert (= v t))`, then
//! the model's value of `v`). Z3's answer must be a literal, which we read back and compare.
//! Regular-expression membership and sequences are compared the same way; `str.replace_re`,
//! which Z3 does not evaluate (it answers unknown), is compared with cvc5.

use model::eval::value::values_equal;
use model::eval::{evaluate_str, Model};
use model::smtlib::{Atom, NodeId, Tree};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRunner};
use z3::ast::Dynamic;
use z3::{SatResult, Solver, Sort};

/// Z3's value of `term` (of SMT-LIB sort `sort`, built as a z3 sort by `z3_sort`), as text.
fn z3_value(sort: &str, z3_sort: &Sort, term: &str) -> Result<String, String> {
    let solver = Solver::new();
    solver.from_string(format!("(declare-fun v () {sort})\n(assert (= v {term}))"));
    if solver.get_assertions().len() != 1 {
        return Err("Z3 did not parse the term".into());
    }
    if solver.check() != SatResult::Sat {
        return Err("Z3 did not answer sat".into());
    }
    let model = solver.get_model().ok_or("no model")?;
    let v = Dynamic::new_const("v", z3_sort);
    model
        .eval(&v, true)
        .map(|value| value.to_string())
        .ok_or_else(|| "Z3's eval failed".to_string())
}

/// Whether printed text is a value literal (not a term Z3 left unevaluated).
fn is_literal(tree: &Tree, node: NodeId) -> bool {
    match tree.atom(node) {
        Some(Atom::Symbol(s)) => s == "true" || s == "false",
        Some(Atom::Keyword(_)) => false,
        Some(_) => true,
        None => match tree.head(node) {
            Some("-" | "/" | "fp") => tree.children(node)[1..]
                .iter()
                .all(|&c| is_literal(tree, c)),
            // Indexed constants: (_ bv5 8), (_ +zero 8 24), (_ NaN 5 11).
            Some("_") => true,
            _ => false,
        },
    }
}

/// Whether Z3 proves `term` equal to `value` (used when Z3's eval leaves a term unevaluated,
/// as 4.8.12 does for array equalities).
fn z3_proves_equal(term: &str, value: &str) -> Result<bool, String> {
    let solver = Solver::new();
    solver.from_string(format!("(assert (not (= {value} {term})))"));
    if solver.get_assertions().len() != 1 {
        return Err(format!("Z3 did not parse (= {value} {term})"));
    }
    match solver.check() {
        SatResult::Unsat => Ok(true),
        SatResult::Sat => Ok(false),
        SatResult::Unknown => Err("Z3 answered unknown".into()),
    }
}

fn agree(sort: &str, z3_sort: &Sort, term: &str) -> Result<(), TestCaseError> {
    let ours = evaluate_str(term, &Model::default())
        .map_err(|e| TestCaseError::fail(format!("our evaluator failed on {term}: {e}")))?;
    let theirs = z3_value(sort, z3_sort, term).map_err(TestCaseError::fail)?;
    let tree = Tree::parse(&theirs).map_err(|e| TestCaseError::fail(e.to_string()))?;
    if !(tree.roots().len() == 1 && is_literal(&tree, tree.roots()[0])) {
        let proved = z3_proves_equal(term, &ours.to_string()).map_err(TestCaseError::fail)?;
        prop_assert!(proved, "Z3 refutes {term} = {ours} (its eval: {theirs})");
        return Ok(());
    }
    let theirs_value = evaluate_str(&theirs, &Model::default())
        .map_err(|e| TestCaseError::fail(format!("cannot read Z3's value {theirs}: {e}")))?;
    prop_assert!(
        values_equal(&ours, &theirs_value),
        "{term}\n  ours: {ours}\n  Z3:   {theirs}"
    );
    Ok(())
}

fn run(cases: u32, strategy: impl Strategy<Value = String>, sort: &str, z3_sort: Sort) {
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let result = runner.run(&strategy, |term| agree(sort, &z3_sort, &term));
    if let Err(e) = result {
        panic!("{e}");
    }
}

fn int_literal() -> impl Strategy<Value = String> {
    (-30i64..30).prop_map(|n| {
        if n < 0 {
            format!("(- {})", -n)
        } else {
            n.to_string()
        }
    })
}

fn nonzero_literal() -> impl Strategy<Value = String> {
    prop_oneof![
        (-7i64..-1).prop_map(|n| format!("(- {})", -n)),
        (1i64..8).prop_map(|n| n.to_string())
    ]
}

fn int_term() -> BoxedStrategy<String> {
    int_literal()
        .prop_recursive(4, 24, 3, |inner| {
            prop_oneof![
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("(+ {a} {b})")),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("(- {a} {b})")),
                inner.clone().prop_map(|a| format!("(- {a})")),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("(* {a} {b})")),
                (inner.clone(), nonzero_literal()).prop_map(|(a, k)| format!("(div {a} {k})")),
                (inner.clone(), nonzero_literal()).prop_map(|(a, k)| format!("(mod {a} {k})")),
                inner.clone().prop_map(|a| format!("(abs {a})")),
                (inner.clone(), inner.clone(), inner.clone())
                    .prop_map(|(a, b, c)| format!("(ite (< {a} {b}) {b} {c})")),
            ]
        })
        .boxed()
}

fn real_term() -> BoxedStrategy<String> {
    let leaf = prop_oneof![
        int_literal().prop_map(|n| format!("(to_real {n})")),
        (0u32..100, 1u32..9).prop_map(|(n, d)| format!("(/ {n}.0 {d}.0)")),
        (0u32..50, 0u32..100).prop_map(|(i, f)| format!("{i}.{f:02}")),
    ];
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("(+ {a} {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("(- {a} {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("(* {a} {b})")),
            (inner.clone(), nonzero_literal()).prop_map(|(a, k)| format!("(/ {a} (to_real {k}))")),
            inner
                .clone()
                .prop_map(|a| format!("(to_real (to_int {a}))")),
            (inner.clone(), inner.clone())
                .prop_map(|(a, b)| format!("(ite (<= {a} {b}) {a} (- {b}))")),
        ]
    })
    .boxed()
}

fn bool_term() -> BoxedStrategy<String> {
    let atom = prop_oneof![
        Just("true".to_string()),
        Just("false".to_string()),
        (int_term(), int_term()).prop_map(|(a, b)| format!("(< {a} {b})")),
        (int_term(), int_term()).prop_map(|(a, b)| format!("(= {a} {b})")),
        (real_term(), real_term()).prop_map(|(a, b)| format!("(>= {a} {b})")),
        (int_term(), int_term(), int_term())
            .prop_map(|(a, b, c)| format!("(distinct {a} {b} {c})")),
        real_term().prop_map(|a| format!("(is_int {a})")),
    ];
    atom.prop_recursive(3, 12, 3, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("(and {a} {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("(or {a} {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("(xor {a} {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("(=> {a} {b})")),
            inner.clone().prop_map(|a| format!("(not {a})")),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(a, b, c)| format!("(ite {a} {b} {c})")),
        ]
    })
    .boxed()
}

/// Bit-vector terms of width `w`, including zero divisors and shift distances >= w.
fn bv_term(w: u32) -> BoxedStrategy<String> {
    let leaf = prop_oneof![
        any::<u128>().prop_map(move |v| format!("(_ bv{} {w})", v % (1u128 << w.min(127)))),
        Just(format!("(_ bv0 {w})")),
        Just(format!("(_ bv{} {w})", w)),
        Just(format!("(bvnot (_ bv0 {w}))")),
    ];
    let binary = [
        "bvadd", "bvsub", "bvmul", "bvudiv", "bvurem", "bvsdiv", "bvsrem", "bvsmod", "bvshl",
        "bvlshr", "bvashr", "bvand", "bvor", "bvxor", "bvnand", "bvnor", "bvxnor",
    ];
    leaf.prop_recursive(3, 16, 2, move |inner| {
        prop_oneof![
            (
                proptest::sample::select(binary.to_vec()),
                inner.clone(),
                inner.clone()
            )
                .prop_map(|(op, a, b)| format!("({op} {a} {b})")),
            inner.clone().prop_map(|a| format!("(bvneg {a})")),
            (inner.clone(), inner.clone(), 0..w).prop_map(move |(a, b, k)| {
                format!("((_ extract {} {k}) (concat {a} {b}))", k + w - 1)
            }),
            (inner.clone(), 0..2 * w).prop_map(|(a, k)| format!("((_ rotate_left {k}) {a})")),
            (inner.clone(), 0..w).prop_map(move |(a, k)| {
                if k == 0 {
                    format!("((_ zero_extend 0) {a})")
                } else {
                    format!("((_ sign_extend {k}) ((_ extract {} 0) {a}))", w - k - 1)
                }
            }),
            (inner.clone(), inner.clone(), inner.clone(), inner.clone()).prop_map(
                |(a, b, c, d)| {
                    format!("(ite (bvslt {a} {b}) {c} (ite (bvuge {a} {b}) {d} {a}))")
                }
            ),
        ]
    })
    .boxed()
}

fn string_literal() -> impl Strategy<Value = String> {
    proptest::sample::select(vec![
        "\"\"",
        "\"a\"",
        "\"b\"",
        "\"ab\"",
        "\"ba\"",
        "\"aab\"",
        "\"12\"",
        "\"\\u{e9}\"",
    ])
    .prop_map(str::to_string)
}

fn small_int() -> impl Strategy<Value = String> {
    (-2i64..6).prop_map(|n| {
        if n < 0 {
            format!("(- {})", -n)
        } else {
            n.to_string()
        }
    })
}

fn string_term() -> BoxedStrategy<String> {
    string_literal()
        .prop_recursive(3, 12, 3, |inner| {
            prop_oneof![
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("(str.++ {a} {b})")),
                (inner.clone(), small_int()).prop_map(|(a, i)| format!("(str.at {a} {i})")),
                (inner.clone(), small_int(), small_int())
                    .prop_map(|(a, i, n)| format!("(str.substr {a} {i} {n})")),
                (inner.clone(), inner.clone(), inner.clone())
                    .prop_map(|(a, b, c)| format!("(str.replace {a} {b} {c})")),
                small_int().prop_map(|i| format!("(str.from_int {i})")),
                (inner.clone(), inner.clone(), inner.clone()).prop_map(|(a, b, c)| {
                    format!("(ite (str.prefixof {a} {b}) {c} (ite (str.contains {b} {a}) {a} {b}))")
                }),
            ]
        })
        .boxed()
}

/// Integer observations of strings: lengths, positions, conversions.
fn string_int_term() -> BoxedStrategy<String> {
    prop_oneof![
        string_term().prop_map(|s| format!("(str.len {s})")),
        (string_term(), string_term(), small_int())
            .prop_map(|(s, t, i)| format!("(str.indexof {s} {t} {i})")),
        string_term().prop_map(|s| format!("(str.to_int {s})")),
        (string_term(), string_term()).prop_map(|(s, t)| {
            format!("(ite (str.suffixof {s} {t}) 1 (ite (str.in_re {s} (re.* (re.union (str.to_re \"a\") (str.to_re \"b\")))) 2 3))")
        }),
    ]
    .boxed()
}

/// Reads of store chains over constant arrays, and array equalities.
fn array_term() -> BoxedStrategy<String> {
    let array = (
        int_literal(),
        proptest::collection::vec((0i64..4, int_literal()), 0..5),
    )
        .prop_map(|(d, stores)| {
            let mut a = format!("((as const (Array Int Int)) {d})");
            for (i, v) in stores {
                a = format!("(store {a} {i} {v})");
            }
            a
        })
        .boxed();
    prop_oneof![
        (array.clone(), 0i64..5).prop_map(|(a, j)| format!("(select {a} {j})")),
        (array.clone(), array).prop_map(|(a, b)| format!("(ite (= {a} {b}) 1 0)")),
    ]
    .boxed()
}

fn rounding_mode() -> impl Strategy<Value = String> {
    proptest::sample::select(vec!["RNE", "RNA", "RTP", "RTN", "RTZ"]).prop_map(str::to_string)
}

/// Floating-point terms of format `(eb, sb)`: rounded decimals, special values, arithmetic in
/// every rounding mode (not `fp.min`/`fp.max`, unspecified on zeros of both signs).
fn fp_term(eb: u32, sb: u32) -> BoxedStrategy<String> {
    let leaf = prop_oneof![
        (rounding_mode(), -2000i64..2000, 0u32..4).prop_map(move |(rm, n, scale)| {
            let d = 10u32.pow(scale);
            let value = if n < 0 {
                format!("(- (/ {}.0 {d}.0))", -n)
            } else {
                format!("(/ {n}.0 {d}.0)")
            };
            format!("((_ to_fp {eb} {sb}) {rm} {value})")
        }),
        proptest::sample::select(vec!["+zero", "-zero", "+oo", "-oo", "NaN"])
            .prop_map(move |c| format!("(_ {c} {eb} {sb})")),
        (0u64..(1 << (eb + sb).min(20)))
            .prop_map(move |bits| { format!("((_ to_fp {eb} {sb}) (_ bv{bits} {}))", eb + sb) }),
    ];
    let arith = vec!["fp.add", "fp.sub", "fp.mul", "fp.div"];
    let compare = vec!["fp.lt", "fp.leq", "fp.eq", "="];
    leaf.prop_recursive(3, 12, 3, move |inner| {
        prop_oneof![
            (
                proptest::sample::select(arith.clone()),
                rounding_mode(),
                inner.clone(),
                inner.clone()
            )
                .prop_map(|(op, rm, a, b)| format!("({op} {rm} {a} {b})")),
            (rounding_mode(), inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(rm, a, b, c)| format!("(fp.fma {rm} {a} {b} {c})")),
            (rounding_mode(), inner.clone()).prop_map(|(rm, a)| format!("(fp.sqrt {rm} {a})")),
            (rounding_mode(), inner.clone())
                .prop_map(|(rm, a)| format!("(fp.roundToIntegral {rm} {a})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("(fp.rem {a} {b})")),
            inner.clone().prop_map(|a| format!("(fp.neg (fp.abs {a}))")),
            (
                proptest::sample::select(compare.clone()),
                inner.clone(),
                inner.clone(),
                inner.clone()
            )
                .prop_map(|(op, a, b, c)| format!("(ite ({op} {a} {b}) {c} {a})")),
        ]
    })
    .boxed()
}

#[test]
fn floating_point_agrees_with_z3() {
    for (eb, sb) in [(3u32, 5u32), (5, 11), (8, 24)] {
        let sort = format!("(_ FloatingPoint {eb} {sb})");
        run(15, fp_term(eb, sb), &sort, Sort::float(eb, sb));
        // Z3's IEEE encoding, where it is specified (not of NaN).
        let w = eb + sb;
        let encoding = fp_term(eb, sb)
            .prop_map(move |t| format!("(ite (fp.isNaN {t}) (_ bv0 {w}) (fp.to_ieee_bv {t}))"))
            .boxed();
        run(10, encoding, &format!("(_ BitVec {w})"), Sort::bitvector(w));
    }
}

#[test]
fn ints_agree_with_z3() {
    run(30, int_term(), "Int", Sort::int());
}

#[test]
fn reals_agree_with_z3() {
    run(30, real_term(), "Real", Sort::real());
}

#[test]
fn core_agrees_with_z3() {
    run(30, bool_term(), "Bool", Sort::bool());
}

#[test]
fn bit_vectors_agree_with_z3() {
    for w in [1u32, 3, 8, 64, 65, 100] {
        run(
            10,
            bv_term(w),
            &format!("(_ BitVec {w})"),
            Sort::bitvector(w),
        );
    }
}

/// Regular expressions over short words, built with every constructor of the regex theory.
fn regex_term() -> BoxedStrategy<String> {
    let char_literal = || proptest::sample::select(vec!["\"a\"", "\"b\"", "\"c\"", "\"ab\""]);
    let leaf = prop_oneof![
        string_literal().prop_map(|s| format!("(str.to_re {s})")),
        proptest::sample::select(vec!["re.all", "re.none", "re.allchar"]).prop_map(str::to_string),
        (char_literal(), char_literal()).prop_map(|(a, b)| format!("(re.range {a} {b})")),
    ];
    leaf.prop_recursive(3, 16, 3, |inner| {
        prop_oneof![
            (
                proptest::sample::select(vec!["re.*", "re.+", "re.opt", "re.comp"]),
                inner.clone()
            )
                .prop_map(|(op, r)| format!("({op} {r})")),
            (
                proptest::sample::select(vec!["re.union", "re.++", "re.inter", "re.diff"]),
                inner.clone(),
                inner.clone()
            )
                .prop_map(|(op, a, b)| format!("({op} {a} {b})")),
            (inner.clone(), 0u32..3, 0u32..4)
                .prop_map(|(r, lo, hi)| format!("((_ re.loop {lo} {hi}) {r})")),
            (inner, 0u32..3).prop_map(|(r, n)| format!("((_ re.^ {n}) {r})")),
        ]
    })
    .boxed()
}

/// Sequences of integers: empty, units, concatenations, `seq.at`.
fn seq_term() -> BoxedStrategy<String> {
    prop_oneof![
        Just("(as seq.empty (Seq Int))".to_string()),
        small_int().prop_map(|i| format!("(seq.unit {i})")),
    ]
    .prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("(seq.++ {a} {b})")),
            (inner, small_int()).prop_map(|(a, i)| format!("(seq.at {a} {i})")),
        ]
    })
    .boxed()
}

/// Integer and Boolean observations of sequences (`seq.nth` only inside the sequence, where
/// Z3 defines it).
fn seq_int_term() -> BoxedStrategy<String> {
    prop_oneof![
        seq_term().prop_map(|s| format!("(seq.len {s})")),
        (seq_term(), 0i64..3)
            .prop_map(|(s, i)| format!("(ite (< {i} (seq.len {s})) (seq.nth {s} {i}) 7)")),
        (seq_term(), seq_term())
            .prop_map(|(s, t)| format!("(ite (seq.contains {s} {t}) 1 (ite (= {s} {t}) 2 3))")),
    ]
    .boxed()
}

#[test]
fn regex_membership_agrees_with_z3() {
    let membership = (string_term(), regex_term())
        .prop_map(|(s, r)| format!("(str.in_re {s} {r})"))
        .boxed();
    run(60, membership, "Bool", Sort::bool());
}

#[test]
fn sequences_agree_with_z3() {
    run(25, seq_term(), "(Seq Int)", Sort::seq(&Sort::int()));
    run(25, seq_int_term(), "Int", Sort::int());
}

/// Whether cvc5 1.0.3 reads a regex right: it finds "1" in `((_ re.loop 0 0) re.all)` and in
/// `((_ re.^ 0) re.all)`, whose language is the empty word alone, and not "a" in
/// `(re.diff (re.range "a" "b") (re.range "b" "c"))` (Z3 agrees with SMT-LIB on both, and
/// membership is compared with Z3 above). The `str.replace_re` cases leave those out.
fn cvc5_reads(regex: &str) -> bool {
    !(regex.contains("(_ re.^ 0)")
        || regex.contains("re.diff")
        || regex.contains("re.comp")
        || (0..3).any(|lo| regex.contains(&format!("(_ re.loop {lo} 0)"))))
}

/// `str.replace_re` and `str.replace_re_all` against cvc5 (Z3 leaves them unevaluated): one
/// script with a constant per case, whose values cvc5 reports with `get-value`.
#[test]
fn replace_re_agrees_with_cvc5() {
    let case = (
        string_term(),
        regex_term().prop_filter("cvc5 misreads it", |r| cvc5_reads(r)),
        string_literal(),
        proptest::bool::ANY,
    )
        .prop_map(|(s, r, t, all)| {
            let op = if all {
                "str.replace_re_all"
            } else {
                "str.replace_re"
            };
            format!("({op} {s} {r} {t})")
        });
    let mut runner = TestRunner::new(Config {
        failure_persistence: None,
        ..Config::default()
    });
    let terms: Vec<String> = (0..40)
        .map(|_| case.new_tree(&mut runner).unwrap().current())
        .collect();
    let mut script = String::from("(set-logic ALL)\n");
    for (i, t) in terms.iter().enumerate() {
        script += &format!("(declare-fun v{i} () String)\n(assert (= v{i} {t}))\n");
    }
    script += "(check-sat)\n";
    for i in 0..terms.len() {
        script += &format!("(get-value (v{i}))\n");
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("replace_re.smt2");
    std::fs::write(&path, &script).unwrap();
    let out = std::process::Command::new("cvc5")
        .args(["--strings-exp", "--produce-models"])
        .arg(&path)
        .output()
        .expect("cvc5 runs (installed by .ci/install-deps)");
    let text = String::from_utf8_lossy(&out.stdout);
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("sat"), "cvc5: {text}");
    let values: Vec<&str> = lines.collect();
    assert_eq!(values.len(), terms.len(), "cvc5: {text}");
    for (i, (term, line)) in terms.iter().zip(values).enumerate() {
        let tree = Tree::parse(line).unwrap();
        let pair = tree.children(tree.children(tree.roots()[0])[0]).to_vec();
        let theirs = evaluate_str(&tree.print_node(pair[1]), &Model::default()).unwrap();
        let ours = evaluate_str(term, &Model::default()).unwrap();
        assert_eq!(ours, theirs, "v{i} = {term}");
    }
}

#[test]
fn strings_agree_with_z3() {
    run(25, string_term(), "String", Sort::string());
    run(25, string_int_term(), "Int", Sort::int());
}

#[test]
fn arrays_agree_with_z3() {
    run(25, array_term(), "Int", Sort::int());
}
