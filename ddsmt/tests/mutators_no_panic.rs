//! Every mutator on inputs that parse but are odd (wrong arity binders, atoms where lists are
//! expected, empty lists, unknown heads) returns candidates or nothing; it never panics. The
//! three cases of issue 16 are named regressions; the property test builds random S-expressions
//! over the SMT-LIB keywords the mutators look at.

use ddsmt::mutators::{registry, Cx};
use model::smtlib::{infer_sorts_lenient, Tree};
use proptest::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Runs every mutator at every node and globally; returns the names of those that panicked.
fn panicking_mutators(text: &str) -> Vec<String> {
    let Ok(tree) = Tree::parse(text) else {
        return Vec::new();
    };
    let sorts = infer_sorts_lenient(&tree);
    let cx = Cx {
        tree: &tree,
        sorts: &sorts,
    };
    let mut failed = Vec::new();
    for m in registry() {
        let ran = catch_unwind(AssertUnwindSafe(|| {
            for id in tree.ids() {
                if m.filter(&cx, id) {
                    for mutation in m.mutations(&cx, id) {
                        let _ = tree.print_with(&mutation.edits);
                    }
                }
            }
            for mutation in m.global_mutations(&cx) {
                let _ = tree.print_with(&mutation.edits);
            }
        }));
        if ran.is_err() {
            failed.push(m.name().to_string());
        }
    }
    failed
}

fn assert_no_panic(text: &str) {
    let failed = panicking_mutators(text);
    assert!(failed.is_empty(), "mutators {failed:?} panic on:\n{text}");
}

#[test]
fn match_case_whose_pattern_is_an_atom() {
    assert_no_panic(
        "(declare-datatypes ((L 0)) (((nil) (cons (hd Int) (tl L)))))\n(declare-const l L)\n(assert (= 0 (match l (nil 0))))\n(assert (match l x))\n(assert (match l (x)))",
    );
}

#[test]
fn bare_let() {
    assert_no_panic("(declare-const p Bool)\n(assert (let))\n(assert (and p (let)))");
    assert_no_panic("(assert (let ((x true))))\n(assert (let x x))\n(assert (let (x) x))");
}

#[test]
fn exists_with_bound_variables_and_no_body() {
    assert_no_panic("(assert (exists ((x Int) (y Int))))\n(assert (forall ((x Int) (y Bool))))");
    assert_no_panic("(assert (let ((x 1) (y 2))))");
    assert_no_panic("(assert (exists))\n(assert (forall x x))\n(assert (exists (x) x))");
}

#[test]
fn other_odd_shapes() {
    for text in [
        "(assert (!))\n(assert (! true :named))\n(assert (let (let x) (!)))",
        "(assert (ite))\n(assert (ite true))\n(assert (=))\n(assert (not))",
        "(assert ((_ extract 1) #b01))\n(assert ((_)))\n(assert (_ bv))",
        "(declare-fun)\n(define-fun f)\n(define-fun f ((x)) Int x)\n(declare-const)",
        "(push)\n(pop)\n(push x)\n(pop 1 2)\n(check-sat-assuming)\n(get-value)",
        "(declare-datatypes)\n(declare-datatypes ((D 0)))\n(declare-datatype D)",
        "(assert (bvadd))\n(assert (concat))\n(assert (fp))\n(assert (str.++))",
    ] {
        assert_no_panic(text);
    }
}

/// Heads the mutators dispatch on, and atoms of many sorts.
const HEADS: &[&str] = &[
    "let",
    "exists",
    "forall",
    "match",
    "!",
    "ite",
    "and",
    "or",
    "not",
    "=>",
    "xor",
    "=",
    "distinct",
    "+",
    "-",
    "*",
    "div",
    "mod",
    "<",
    "<=",
    "bvadd",
    "bvnot",
    "concat",
    "extract",
    "_",
    "str.++",
    "str.len",
    "fp.add",
    "select",
    "store",
    "assert",
    "declare-fun",
    "define-fun",
    "declare-const",
    "declare-datatypes",
    "push",
    "pop",
    "check-sat",
    "set-logic",
    "set-info",
    "as",
    "const",
    "par",
];
const ATOMS: &[&str] = &[
    "x", "y", "p", "true", "false", "0", "1", "2.5", "#b01", "#x1f", "\"s\"", ":named", "Int",
    "Bool", "BitVec", "nil", "cons", "RNE", "|q r|",
];

fn sexpr() -> impl Strategy<Value = String> {
    let leaf = prop::sample::select(ATOMS).prop_map(str::to_string);
    leaf.prop_recursive(5, 40, 5, |inner| {
        (
            prop::sample::select(HEADS),
            prop::collection::vec(inner, 0..5),
        )
            .prop_map(|(head, args)| {
                let mut text = format!("({head}");
                for a in args {
                    text.push(' ');
                    text.push_str(&a);
                }
                text.push(')');
                text
            })
    })
}

fn script() -> impl Strategy<Value = String> {
    let command = prop_oneof![
        sexpr().prop_map(|t| format!("(assert {t})")),
        sexpr(),
        Just("(declare-const x Int)".to_string()),
        Just("(declare-fun p () Bool)".to_string()),
        Just("(push 1)".to_string()),
        Just("(pop 1)".to_string()),
    ];
    prop::collection::vec(command, 1..6).prop_map(|cs| cs.join("\n"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]
    #[test]
    fn no_mutator_panics_on_generated_scripts(text in script()) {
        let failed = panicking_mutators(&text);
        prop_assert!(failed.is_empty(), "mutators {:?} panic on:\n{}", failed, text);
    }
}
