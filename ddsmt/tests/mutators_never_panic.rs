//! Every mutator on every node of inputs that parse but break the shape of their commands
//! and binders (a `match` case that is an atom, a bare `(let)`, a quantifier without a body,
//! an indexed identifier without indices, ...) must return candidates or none, never panic:
//! ddsmt reduces files from fuzzers, which are made of exactly such inputs.

use ddsmt::mutators::{registry, MutationInput};
use proptest::prelude::*;
use smtlib::{infer_sorts_lenient, Tree};

/// Runs every mutator on every node and globally.
fn mutate_everything(text: &str) {
    let Ok(tree) = Tree::parse(text) else {
        return;
    };
    let sorts = infer_sorts_lenient(&tree);
    let input = MutationInput {
        tree: &tree,
        sorts: &sorts,
    };
    for mutator in registry() {
        for node in tree.ids() {
            if mutator.filter(&input, node) {
                let _ = mutator.mutations(&input, node);
            }
        }
        let _ = mutator.global_mutations(&input);
    }
}

/// Heads whose shape the mutators and sort inference take apart.
const HEADS: &[&str] = &[
    "let",
    "match",
    "exists",
    "forall",
    "lambda",
    "!",
    "_",
    "as",
    "ite",
    "=",
    "and",
    "not",
    "select",
    "store",
    "bvadd",
    "extract",
    "re.loop",
    "str.++",
    "define-fun",
    "declare-fun",
    "declare-const",
    "declare-datatype",
    "declare-datatypes",
    "define-sort",
    "push",
    "pop",
    "assert",
    "check-sat-assuming",
    "par",
    "+",
    "fp",
    "to_fp",
];

const ATOMS: &[&str] = &[
    "x",
    "l",
    "nil",
    "cons",
    "Int",
    "Bool",
    "(_ BitVec 8)",
    "0",
    "1",
    "#x0f",
    "#b1",
    "\"s\"",
    ":named",
    ":pattern",
    "()",
    "(x)",
    "((x Int))",
    "((x 1))",
    "(x 1)",
    "((nil 0))",
];

fn term() -> impl Strategy<Value = String> {
    let leaf = proptest::sample::select(ATOMS).prop_map(str::to_string);
    leaf.prop_recursive(4, 24, 4, |inner| {
        (
            proptest::sample::select(HEADS),
            proptest::collection::vec(inner, 0..4),
        )
            .prop_map(|(head, args)| format!("({head} {})", args.join(" ")))
    })
}

const PRELUDE: &str = "(declare-datatype L ((nil) (cons (hd Int) (tl L))))\n\
                       (declare-const l L)\n(declare-const x Int)\n";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn mutators_never_panic_on_odd_shapes(terms in proptest::collection::vec(term(), 1..4)) {
        let body: String = terms.iter().map(|t| format!("(assert {t})\n")).collect();
        mutate_everything(&format!("{PRELUDE}{body}(check-sat)\n"));
        // The same terms as commands of their own.
        mutate_everything(&terms.join("\n"));
    }
}

#[test]
fn the_shapes_from_issue_16_do_not_panic() {
    for body in [
        "(assert (match l (x 1)))",
        "(assert (match l ((x) 1)))",
        "(assert (let))",
        "(assert (let ()))",
        "(assert (exists ((x Int))))",
        "(assert (forall ()))",
        "(assert (! ))",
        "(assert ((_) 1))",
        "(assert (let (let x) (!)))",
    ] {
        mutate_everything(&format!("{PRELUDE}{body}\n(check-sat)\n"));
    }
}
