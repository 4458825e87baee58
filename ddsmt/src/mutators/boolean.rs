//! Boolean mutators: [`DeMorgan`], [`DoubleNegation`], [`FalseEq`], [`Implications`],
//! [`NegateQuantifiers`], [`XorBinary`] and [`XorConstants`].

use super::core::short;
use super::util::{self, app, atom, node, nodes, not, replace};
use super::{Group, Mutation, MutationInput, Mutator};
use smtlib::NodeId;

/// The argument of `(not x)`.
fn negated(cx: &MutationInput, id: NodeId) -> Option<NodeId> {
    match util::args(cx.tree, id) {
        [x] if util::is_app(cx.tree, id, "not") => Some(*x),
        _ => None,
    }
}

/// Pushes a negation into a conjunction or disjunction:
/// `(not (and a b))` -> `(or (not a) (not b))`.
pub struct DeMorgan;

impl Mutator for DeMorgan {
    mutator_info!(Group::Boolean, "bool-de-morgan", "push negation inside");
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        negated(cx, id).is_some_and(|x| matches!(util::head(cx.tree, x), Some("and" | "or")))
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        let Some(inner) = negated(cx, id) else {
            return Vec::new();
        };
        let dual = if util::is_app(cx.tree, inner, "and") {
            "or"
        } else {
            "and"
        };
        let args = util::args(cx.tree, inner)
            .iter()
            .map(|&a| not(node(a)))
            .collect();
        vec![replace("de Morgan", id, app(dual, args))]
    }
}

/// `(not (not x))` -> `x`.
pub struct DoubleNegation;

impl Mutator for DoubleNegation {
    mutator_info!(
        Group::Boolean,
        "bool-double-negations",
        "eliminate double negation"
    );
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        negated(cx, id).and_then(|x| negated(cx, x)).is_some()
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        negated(cx, id)
            .and_then(|x| negated(cx, x))
            .map(|x| vec![replace("eliminate double negation", id, node(x))])
            .unwrap_or_default()
    }
}

/// `(= x false)` / `(= false x)` -> `(not x)`.
pub struct FalseEq;

impl FalseEq {
    fn other(cx: &MutationInput, id: NodeId) -> Option<NodeId> {
        let tree = cx.tree;
        match util::args(tree, id) {
            [a, b] if util::is_app(tree, id, "=") => {
                if tree.symbol(*b) == Some("false") {
                    Some(*a)
                } else if tree.symbol(*a) == Some("false") {
                    Some(*b)
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    fn rewrite(cx: &MutationInput, id: NodeId) -> Option<Mutation> {
        let x = Self::other(cx, id)?;
        Some(replace("equality with false to negation", id, not(node(x))))
    }
}

impl Mutator for FalseEq {
    mutator_info!(
        Group::Boolean,
        "bool-false-eq",
        "replace equality with false by negation"
    );
    single_rewrite!(Self::rewrite);
}

/// `(=> a b c)` -> `(or (not a) (not b) c)`.
pub struct Implications;

impl Mutator for Implications {
    mutator_info!(Group::Boolean, "bool-implications", "eliminate implication");
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        util::is_app(cx.tree, id, "=>") && util::args(cx.tree, id).len() >= 2
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        let args = util::args(cx.tree, id);
        let Some((last, premises)) = args.split_last() else {
            return Vec::new();
        };
        let mut items: Vec<_> = premises.iter().map(|&p| not(node(p))).collect();
        items.push(node(*last));
        vec![replace("implication to disjunction", id, app("or", items))]
    }
}

/// `(not (forall V b))` -> `(exists V (not b))` and dually.
pub struct NegateQuantifiers;

impl NegateQuantifiers {
    fn quantifier(cx: &MutationInput, id: NodeId) -> Option<NodeId> {
        negated(cx, id).filter(|&q| {
            matches!(util::head(cx.tree, q), Some("forall" | "exists"))
                && cx.tree.children(q).len() == 3
        })
    }
}

impl Mutator for NegateQuantifiers {
    mutator_info!(
        Group::Boolean,
        "bool-negate-quants",
        "push negation inside of quantifier"
    );
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        Self::quantifier(cx, id).is_some()
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        let Some(q) = Self::quantifier(cx, id) else {
            return Vec::new();
        };
        let ch = cx.tree.children(q);
        let dual = if util::is_app(cx.tree, q, "forall") {
            "exists"
        } else {
            "forall"
        };
        vec![replace(
            "push negation into quantifier",
            id,
            app(dual, vec![node(ch[1]), not(node(ch[2]))]),
        )]
    }
}

/// `(xor a b)` -> `(distinct a b)`.
pub struct XorBinary;

impl Mutator for XorBinary {
    mutator_info!(Group::Boolean, "bool-xor-binary", "eliminate binary xor");
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        util::is_app(cx.tree, id, "xor") && util::args(cx.tree, id).len() == 2
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        vec![replace(
            "binary xor to distinct",
            id,
            app("distinct", nodes(util::args(cx.tree, id))),
        )]
    }
}

/// Removes Boolean constants from `xor`: `false` disappears, `true` flips the polarity.
pub struct XorConstants;

impl Mutator for XorConstants {
    mutator_info!(
        Group::Boolean,
        "bool-xor-constants",
        "remove constants from xor"
    );
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        util::is_app(cx.tree, id, "xor")
            && util::args(cx.tree, id)
                .iter()
                .any(|&a| matches!(cx.tree.symbol(a), Some("true" | "false")))
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        let tree = cx.tree;
        let mut flip = false;
        let mut rest = Vec::new();
        for &a in util::args(tree, id) {
            match tree.symbol(a) {
                Some("true") => flip = !flip,
                Some("false") => {}
                _ => rest.push(a),
            }
        }
        let base = match rest.as_slice() {
            [] => atom("false"),
            [x] => node(*x),
            _ => app("xor", nodes(&rest)),
        };
        let result = match (flip, rest.is_empty()) {
            (true, true) => atom("true"),
            (true, false) => not(base),
            (false, _) => base,
        };
        vec![replace(
            format!("remove constants from {}", short(tree, id)),
            id,
            result,
        )]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutators::testutil::check;

    const D: &str = "(declare-const a Bool)\n(declare-const b Bool)\n(declare-const x Int)\n";

    fn with(body: &str) -> String {
        format!("{D}{body}")
    }

    #[test]
    fn de_morgan() {
        check(
            &DeMorgan,
            &with("(assert (not (and a b)))"),
            "(not (and a b))",
            &[&with("(assert (or (not a) (not b)))")],
        );
        check(
            &DeMorgan,
            &with("(assert (not (or a b)))"),
            "(not (or a b))",
            &[&with("(assert (and (not a) (not b)))")],
        );
        check(&DeMorgan, &with("(assert (not a))"), "(not a)", &[]);
    }

    #[test]
    fn double_negation() {
        check(
            &DoubleNegation,
            &with("(assert (not (not a)))"),
            "(not (not a))",
            &[&with("(assert a)")],
        );
        check(
            &DoubleNegation,
            &with("(assert (not (not a)))"),
            "(not a)",
            &[],
        );
    }

    #[test]
    fn false_eq() {
        check(
            &FalseEq,
            &with("(assert (= (> x 0) false))"),
            "(= (> x 0) false)",
            &[&with("(assert (not (> x 0)))")],
        );
        check(
            &FalseEq,
            &with("(assert (= false a))"),
            "(= false a)",
            &[&with("(assert (not a))")],
        );
        check(&FalseEq, &with("(assert (= a b))"), "(= a b)", &[]);
    }

    #[test]
    fn implications() {
        check(
            &Implications,
            &with("(assert (=> a b (> x 0)))"),
            "(=> a b (> x 0))",
            &[&with("(assert (or (not a) (not b) (> x 0)))")],
        );
    }

    #[test]
    fn negate_quantifiers() {
        check(
            &NegateQuantifiers,
            &with("(assert (not (forall ((y Int)) (> y x))))"),
            "(not (forall ((y Int)) (> y x)))",
            &[&with("(assert (exists ((y Int)) (not (> y x))))")],
        );
        check(
            &NegateQuantifiers,
            &with("(assert (not (exists ((y Int)) (> y x))))"),
            "(not (exists ((y Int)) (> y x)))",
            &[&with("(assert (forall ((y Int)) (not (> y x))))")],
        );
    }

    #[test]
    fn xor_binary() {
        check(
            &XorBinary,
            &with("(assert (xor a b))"),
            "(xor a b)",
            &[&with("(assert (distinct a b))")],
        );
        check(
            &XorBinary,
            &with("(assert (xor a b a))"),
            "(xor a b a)",
            &[],
        );
    }

    #[test]
    fn xor_constants() {
        check(
            &XorConstants,
            &with("(assert (xor a false b))"),
            "(xor a false b)",
            &[&with("(assert (xor a b))")],
        );
        check(
            &XorConstants,
            &with("(assert (xor a true))"),
            "(xor a true)",
            &[&with("(assert (not a))")],
        );
        check(
            &XorConstants,
            &with("(assert (xor true true))"),
            "(xor true true)",
            &[&with("(assert false)")],
        );
        check(&XorConstants, &with("(assert (xor a b))"), "(xor a b)", &[]);
    }
}
