//! Semantics-preserving rewrites (the "sound" reduction rules of Mafteiu-Scai's thesis,
//! Table 3.1): [`OneArgument`], [`Flatten`], [`NeutralElements`], [`AbsorbingElements`],
//! [`DoubleNegation`], [`NegatedComparisons`], [`NotConstants`], [`IteBranches`] and
//! [`UnusedBindings`].
//! Each keeps the meaning of the input, so the behaviour it triggers is likely to stay.

use super::util::{self, app, atom, bv_const, node, nodes, replace};
use super::{Group, Mutation, MutationInput, Mutator};
use num_bigint::BigUint;
use smtlib::NodeId;

/// Associative operators, whose nested applications may be flattened and whose
/// one-argument applications mean the argument.
const ASSOCIATIVE: &[&str] = &[
    "and", "or", "xor", "+", "*", "bvadd", "bvmul", "bvand", "bvor", "bvxor", "concat", "str.++",
    "re.++", "re.union", "re.inter",
];

/// `(and a)` -> `a`, `(+ a)` -> `a`.
pub struct OneArgument;

impl Mutator for OneArgument {
    mutator_info!(
        Group::Sound,
        "sound-one-argument",
        "replace one-argument and/or/+/... by the argument"
    );
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        util::head(cx.tree, id).is_some_and(|op| ASSOCIATIVE.contains(&op))
            && util::args(cx.tree, id).len() == 1
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        vec![replace(
            "one-argument operator",
            id,
            node(util::args(cx.tree, id)[0]),
        )]
    }
}

/// `(and (and a b) c)` -> `(and a b c)` for associative operators, all nested levels at once.
pub struct Flatten;

impl Flatten {
    fn flat_args(cx: &MutationInput, id: NodeId, op: &str, out: &mut Vec<NodeId>) {
        for &a in util::args(cx.tree, id) {
            if util::head(cx.tree, a) == Some(op) && util::sort(cx, a) == util::sort(cx, id) {
                Self::flat_args(cx, a, op, out);
            } else {
                out.push(a);
            }
        }
    }
}

impl Mutator for Flatten {
    mutator_info!(
        Group::Sound,
        "sound-flatten",
        "flatten nested associative operators"
    );
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        let Some(op) = util::head(cx.tree, id).filter(|op| ASSOCIATIVE.contains(op)) else {
            return false;
        };
        // `concat` changes width, so its nested sorts differ; compare operators only there.
        util::args(cx.tree, id).iter().any(|&a| {
            util::head(cx.tree, a) == Some(op)
                && (op == "concat" || util::sort(cx, a) == util::sort(cx, id))
        })
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        let op = util::head(cx.tree, id).unwrap_or_default();
        let mut flat = Vec::new();
        if op == "concat" {
            flatten_any(cx, id, op, &mut flat);
        } else {
            Self::flat_args(cx, id, op, &mut flat);
        }
        vec![replace(format!("flatten {op}"), id, app(op, nodes(&flat)))]
    }
}

fn flatten_any(cx: &MutationInput, id: NodeId, op: &str, out: &mut Vec<NodeId>) {
    for &a in util::args(cx.tree, id) {
        if util::head(cx.tree, a) == Some(op) {
            flatten_any(cx, a, op, out);
        } else {
            out.push(a);
        }
    }
}

/// Whether `arg` is the neutral element of `op` (at position `pos` among the arguments).
fn is_neutral(cx: &MutationInput, op: &str, arg: NodeId, pos: usize) -> bool {
    let tree = cx.tree;
    let bv = || bv_const(tree, arg);
    match op {
        "+" => util::is_arith_value(tree, arg, 0),
        "-" => pos > 0 && util::is_arith_value(tree, arg, 0),
        "*" => util::is_arith_value(tree, arg, 1),
        "and" => tree.symbol(arg) == Some("true"),
        "or" | "xor" => tree.symbol(arg) == Some("false"),
        "bvadd" | "bvor" | "bvxor" => bv().is_some_and(|(v, _)| v == BigUint::ZERO),
        "bvsub" => pos > 0 && bv().is_some_and(|(v, _)| v == BigUint::ZERO),
        "bvmul" => bv().is_some_and(|(v, _)| v == BigUint::from(1u8)),
        "bvand" => bv().is_some_and(|(v, w)| v == util::bv_ones(w)),
        "str.++" => util::text(tree, arg) == Some("\"\""),
        _ => false,
    }
}

/// Removes neutral elements: `(+ x 0)` -> `x`, `(* x 1)` -> `x`, `(and a true)` -> `a`,
/// `(bvadd x #x00)` -> `x`, `(str.++ s "")` -> `s`.
pub struct NeutralElements;

impl Mutator for NeutralElements {
    mutator_info!(
        Group::Sound,
        "sound-neutral-elements",
        "remove neutral elements (+ 0, * 1, and true...)"
    );
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        let Some(op) = util::head(cx.tree, id) else {
            return false;
        };
        util::is_term(cx, id)
            && util::args(cx.tree, id)
                .iter()
                .enumerate()
                .any(|(i, &a)| is_neutral(cx, op, a, i) && util::sort(cx, a) == util::sort(cx, id))
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        let op = util::head(cx.tree, id).unwrap_or_default();
        let args = util::args(cx.tree, id);
        let kept: Vec<NodeId> = args
            .iter()
            .enumerate()
            .filter(|&(i, &a)| {
                !(is_neutral(cx, op, a, i) && util::sort(cx, a) == util::sort(cx, id))
            })
            .map(|(_, &a)| a)
            .collect();
        let sx = match kept.as_slice() {
            // Everything was neutral: the value is the neutral element itself.
            [] => node(args[0]),
            // For `-` and `bvsub` the first argument is never dropped, so `[x]` is it.
            [x] => node(*x),
            _ => app(op, nodes(&kept)),
        };
        vec![replace(format!("remove neutral elements of {op}"), id, sx)]
    }
}

/// Whether `arg` absorbs an application of `op`.
fn is_absorbing(cx: &MutationInput, op: &str, arg: NodeId) -> bool {
    let tree = cx.tree;
    let bv = || bv_const(tree, arg);
    match op {
        "*" => util::is_arith_value(tree, arg, 0),
        "and" => tree.symbol(arg) == Some("false"),
        "or" => tree.symbol(arg) == Some("true"),
        "bvand" | "bvmul" => bv().is_some_and(|(v, _)| v == BigUint::ZERO),
        "bvor" => bv().is_some_and(|(v, w)| v == util::bv_ones(w)),
        _ => false,
    }
}

/// Replaces an application by its absorbing element: `(* x 0)` -> `0`, `(and a false)` ->
/// `false`, `(or a true)` -> `true`, `(bvand x #x00)` -> `#x00`.
pub struct AbsorbingElements;

impl AbsorbingElements {
    fn absorbing(cx: &MutationInput, id: NodeId) -> Option<NodeId> {
        let op = util::head(cx.tree, id)?;
        let sort = util::sort(cx, id)?;
        util::args(cx.tree, id)
            .iter()
            .copied()
            .find(|&a| is_absorbing(cx, op, a) && util::sort(cx, a) == Some(sort))
            .filter(|&a| !util::drops_used_name(cx.tree, id, Some(a)))
    }

    fn rewrite(cx: &MutationInput, id: NodeId) -> Option<Mutation> {
        let a = Self::absorbing(cx, id)?;
        Some(replace("absorbing element", id, node(a)))
    }
}

impl Mutator for AbsorbingElements {
    mutator_info!(
        Group::Sound,
        "sound-absorbing-elements",
        "evaluate absorbing elements (* 0, and false...)"
    );
    single_rewrite!(Self::rewrite);
}

/// An `ite` whose value is known without its condition's value: `(ite true a b)` -> `a`,
/// `(ite false a b)` -> `b`, `(ite c a a)` -> `a` (branches that are the same text).
pub struct IteBranches;

impl IteBranches {
    fn rewrite(cx: &MutationInput, id: NodeId) -> Option<Mutation> {
        let tree = cx.tree;
        let &[c, t, e] = util::app_args(tree, id, "ite")?;
        let kept = match util::name(tree, c) {
            Some("true") => t,
            Some("false") => e,
            _ if tree.print_node(t) == tree.print_node(e) => t,
            _ => return None,
        };
        if util::drops_used_name(tree, id, Some(kept)) {
            return None;
        }
        Some(replace("ite with a known branch", id, node(kept)))
    }
}

impl Mutator for IteBranches {
    mutator_info!(
        Group::Sound,
        "sound-ite-branches",
        "replace ite by its branch when the condition is constant or both branches agree"
    );
    single_rewrite!(Self::rewrite);
}

/// `(not (not a))` -> `a`, `(- (- x))` -> `x`.
pub struct DoubleNegation;

impl DoubleNegation {
    fn rewrite(cx: &MutationInput, id: NodeId) -> Option<Mutation> {
        let y = util::double_application(cx.tree, id, ["not", "-"])?;
        Some(replace("double negation", id, node(y)))
    }
}

impl Mutator for DoubleNegation {
    mutator_info!(
        Group::Sound,
        "sound-double-negation",
        "eliminate double negation (not, unary -)"
    );
    single_rewrite!(Self::rewrite);
}

/// `(not (< a b))` -> `(>= a b)`, `(not (= a b))` -> `(distinct a b)`, `(not (bvult a b))` ->
/// `(bvuge a b)` and so on.
pub struct NegatedComparisons;

impl NegatedComparisons {
    /// The negated operator and the comparison under `not`.
    fn negated(cx: &MutationInput, id: NodeId) -> Option<(&'static str, NodeId)> {
        let tree = cx.tree;
        let [x] = util::app_args(tree, id, "not")?;
        if util::args(tree, *x).len() != 2 {
            return None;
        }
        let arith = util::sort(cx, util::args(tree, *x)[0]).is_some_and(|s| s.is_arith());
        let negated = match util::head(tree, *x)? {
            "=" => "distinct",
            "distinct" => "=",
            "<" if arith => ">=",
            "<=" if arith => ">",
            ">" if arith => "<=",
            ">=" if arith => "<",
            "bvult" => "bvuge",
            "bvule" => "bvugt",
            "bvugt" => "bvule",
            "bvuge" => "bvult",
            "bvslt" => "bvsge",
            "bvsle" => "bvsgt",
            "bvsgt" => "bvsle",
            "bvsge" => "bvslt",
            _ => return None,
        };
        Some((negated, *x))
    }

    fn rewrite(cx: &MutationInput, id: NodeId) -> Option<Mutation> {
        let (op, x) = Self::negated(cx, id)?;
        Some(replace(
            format!("negated comparison to {op}"),
            id,
            app(op, nodes(util::args(cx.tree, x))),
        ))
    }
}

impl Mutator for NegatedComparisons {
    mutator_info!(
        Group::Sound,
        "sound-negated-comparisons",
        "push negation into comparison"
    );
    single_rewrite!(Self::rewrite);
}

/// `(not true)` -> `false`, `(not false)` -> `true`.
pub struct NotConstants;

impl Mutator for NotConstants {
    mutator_info!(
        Group::Sound,
        "sound-not-constants",
        "evaluate negated Boolean constant"
    );
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        util::is_app(cx.tree, id, "not")
            && matches!(
                util::args(cx.tree, id),
                [x] if matches!(cx.tree.symbol(*x), Some("true" | "false"))
            )
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        let value = match cx.tree.symbol(util::args(cx.tree, id)[0]) {
            Some("true") => "false",
            _ => "true",
        };
        vec![replace("negated constant", id, atom(value))]
    }
}

/// Drops bound variables the body does not use: from `let`, `forall`, `exists`, and the
/// whole binder when none is used.
pub struct UnusedBindings;

impl UnusedBindings {
    fn unused(cx: &MutationInput, id: NodeId) -> Option<(Vec<NodeId>, usize)> {
        let tree = cx.tree;
        if !matches!(tree.head(id), Some("let" | "forall" | "exists")) {
            return None;
        }
        let vars = util::binder_vars(tree, id)?;
        let body = tree.children(id)[2];
        let free = util::free_symbols(tree, body);
        let bindings = tree.children(tree.children(id)[1]);
        let unused: Vec<NodeId> = vars
            .iter()
            .zip(bindings)
            .filter(|((n, _), _)| tree.symbol(*n).is_some_and(|s| !free.contains(s)))
            .map(|(_, &b)| b)
            .collect();
        (!unused.is_empty()).then_some((unused, bindings.len()))
    }
}

impl Mutator for UnusedBindings {
    mutator_info!(
        Group::Sound,
        "sound-unused-bindings",
        "remove unused bound variables"
    );
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        Self::unused(cx, id).is_some()
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        let Some((unused, total)) = Self::unused(cx, id) else {
            return Vec::new();
        };
        let edits = if unused.len() == total {
            vec![util::edit(id, node(cx.tree.children(id)[2]))]
        } else {
            unused.into_iter().map(util::delete).collect()
        };
        vec![util::mutation("remove unused bindings", edits)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutators::testutil::check;

    const D: &str = "(declare-const a Bool)\n(declare-const b Bool)\n(declare-const x Int)\n(declare-const v (_ BitVec 4))\n";

    fn with(body: &str) -> String {
        format!("{D}{body}")
    }

    #[test]
    fn one_argument() {
        check(
            &OneArgument,
            &with("(assert (and (or (= x 0))))"),
            "(and (or (= x 0)))",
            &[&with("(assert (or (= x 0)))")],
        );
        check(&OneArgument, &with("(assert (and a b))"), "(and a b)", &[]);
    }

    #[test]
    fn flatten() {
        check(
            &Flatten,
            &with("(assert (and (and (or a) b) (and a (and b a))))"),
            "(and (and (or a) b) (and a (and b a)))",
            &[&with("(assert (and (or a) b a b a))")],
        );
        check(
            &Flatten,
            &with("(assert (= (+ (+ 1 2) 0) x))"),
            "(+ (+ 1 2) 0)",
            &[&with("(assert (= (+ 1 2 0) x))")],
        );
        check(
            &Flatten,
            &with("(assert (= (concat (concat v v) v) (concat v v v)))"),
            "(concat (concat v v) v)",
            &[&with("(assert (= (concat v v v) (concat v v v)))")],
        );
    }

    #[test]
    fn neutral_elements() {
        check(
            &NeutralElements,
            &with("(assert (= (+ x 0) 2))"),
            "(+ x 0)",
            &[&with("(assert (= x 2))")],
        );
        check(
            &NeutralElements,
            &with("(assert (= (* 1 x 1 x) 2))"),
            "(* 1 x 1 x)",
            &[&with("(assert (= (* x x) 2))")],
        );
        check(
            &NeutralElements,
            &with("(assert (and a true))"),
            "(and a true)",
            &[&with("(assert a)")],
        );
        check(
            &NeutralElements,
            &with("(assert (= (bvadd v #x0) v))"),
            "(bvadd v #x0)",
            &[&with("(assert (= v v))")],
        );
        check(
            &NeutralElements,
            &with("(assert (= (- x 0) 2))"),
            "(- x 0)",
            &[&with("(assert (= x 2))")],
        );
        // `(- 0 x)` is `-x`, not `x`.
        check(
            &NeutralElements,
            &with("(assert (= (- 0 x) 2))"),
            "(- 0 x)",
            &[],
        );
    }

    #[test]
    fn absorbing_elements() {
        check(
            &AbsorbingElements,
            &with("(assert (= (* 2 x 0) x))"),
            "(* 2 x 0)",
            &[&with("(assert (= 0 x))")],
        );
        check(
            &AbsorbingElements,
            &with("(assert (or a true))"),
            "(or a true)",
            &[&with("(assert true)")],
        );
        check(
            &AbsorbingElements,
            &with("(assert (= (bvand v #x0) v))"),
            "(bvand v #x0)",
            &[&with("(assert (= #x0 v))")],
        );
    }

    #[test]
    fn double_negation() {
        check(
            &DoubleNegation,
            &with("(assert (not (not (< x 1))))"),
            "(not (not (< x 1)))",
            &[&with("(assert (< x 1))")],
        );
        check(
            &DoubleNegation,
            &with("(assert (= (- (- x)) 1))"),
            "(- (- x))",
            &[&with("(assert (= x 1))")],
        );
    }

    #[test]
    fn negated_comparisons() {
        check(
            &NegatedComparisons,
            &with("(assert (not (<= x 1)))"),
            "(not (<= x 1))",
            &[&with("(assert (> x 1))")],
        );
        check(
            &NegatedComparisons,
            &with("(assert (not (= a b)))"),
            "(not (= a b))",
            &[&with("(assert (distinct a b))")],
        );
        check(
            &NegatedComparisons,
            &with("(assert (not (bvslt v #x1)))"),
            "(not (bvslt v #x1))",
            &[&with("(assert (bvsge v #x1))")],
        );
    }

    #[test]
    fn not_constants() {
        check(
            &NotConstants,
            &with("(assert (not false))"),
            "(not false)",
            &[&with("(assert true)")],
        );
    }

    #[test]
    fn unused_bindings() {
        check(
            &UnusedBindings,
            &with("(assert (let ((p 1) (q 2)) (> x q)))"),
            "(let ((p 1) (q 2)) (> x q))",
            &[&with("(assert (let ((q 2)) (> x q)))")],
        );
        check(
            &UnusedBindings,
            &with("(assert (forall ((y Int)) (> x 0)))"),
            "(forall ((y Int)) (> x 0))",
            &[&with("(assert (> x 0))")],
        );
    }

    #[test]
    fn ite_branches() {
        check(
            &IteBranches,
            &with("(assert (= x (ite a (+ x 1) (+ x 1))))"),
            "(ite a (+ x 1) (+ x 1))",
            &[&with("(assert (= x (+ x 1)))")],
        );
        check(
            &IteBranches,
            &with("(assert (ite true a b))"),
            "(ite true a b)",
            &[&with("(assert a)")],
        );
        check(
            &IteBranches,
            &with("(assert (ite false a b))"),
            "(ite false a b)",
            &[&with("(assert b)")],
        );
        check(
            &IteBranches,
            &with("(assert (ite a a b))"),
            "(ite a a b)",
            &[],
        );
    }
}
