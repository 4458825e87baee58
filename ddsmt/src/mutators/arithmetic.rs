//! Arithmetic mutators: [`NegateRelations`], [`SimplifyConstants`], [`SplitNaryRelations`] and
//! [`StrengthenRelations`].

use super::util::{self, app, atom, node, nodes, replace};
use super::{Group, Mutation, MutationInput, Mutator};
use smtlib::{Atom, NodeId};

const RELATIONS: &[&str] = &["<", "<=", ">", ">="];

/// Whether all arguments of `id` are Int or Real terms.
fn arith_args(cx: &MutationInput, id: NodeId) -> bool {
    let args = util::args(cx.tree, id);
    !args.is_empty()
        && args
            .iter()
            .all(|&a| util::sort(cx, a).is_some_and(|s| s.is_arith()))
}

/// A binary arithmetic relation `(op a b)` and its operator.
fn relation<'a>(cx: &'a MutationInput, id: NodeId) -> Option<&'a str> {
    let op = util::head(cx.tree, id)?;
    (RELATIONS.contains(&op) && util::args(cx.tree, id).len() == 2 && arith_args(cx, id))
        .then_some(op)
}

/// `(not (< a b))` -> `(>= a b)` and so on.
pub struct NegateRelations;

impl NegateRelations {
    fn inner(cx: &MutationInput, id: NodeId) -> Option<(NodeId, &'static str)> {
        let [x] = util::app_args(cx.tree, id, "not")?;
        let negated = match relation(cx, *x)? {
            "<" => ">=",
            "<=" => ">",
            ">" => "<=",
            _ => "<",
        };
        Some((*x, negated))
    }

    fn rewrite(cx: &MutationInput, id: NodeId) -> Option<Mutation> {
        let (x, op) = Self::inner(cx, id)?;
        Some(replace(
            format!("negate relation to {op}"),
            id,
            app(op, nodes(util::args(cx.tree, x))),
        ))
    }
}

impl Mutator for NegateRelations {
    mutator_info!(
        Group::Arithmetic,
        "arith-negate-relations",
        "push negation into arithmetic relation"
    );
    single_rewrite!(Self::rewrite);
}

/// Replaces a numeral or decimal by a simpler one: fewer digits, half the value.
pub struct SimplifyConstants;

impl SimplifyConstants {
    fn candidates(cx: &MutationInput, id: NodeId) -> Vec<String> {
        if !util::sort(cx, id).is_some_and(|s| s.is_arith()) {
            return Vec::new();
        }
        let mut out: Vec<String> = Vec::new();
        match cx.tree.atom(id) {
            Some(Atom::Numeral(n)) => {
                if n.len() > 1 {
                    out.push(n[..n.len() - 1].to_string());
                }
                if let Ok(v) = n.parse::<num_bigint::BigUint>() {
                    out.push((v / 2u8).to_string());
                }
            }
            Some(Atom::Decimal(d)) => {
                let (int, frac) = d.split_once('.').unwrap_or((d, "0"));
                if frac.len() > 1 {
                    out.push(format!("{int}.{}", &frac[..frac.len() - 1]));
                } else if frac != "0" {
                    out.push(format!("{int}.0"));
                }
                if int.len() > 1 {
                    out.push(format!("{}.{frac}", &int[..int.len() - 1]));
                }
            }
            _ => {}
        }
        let original = cx.tree.print_node(id);
        let mut seen = std::collections::HashSet::new();
        out.retain(|c| *c != original && seen.insert(c.clone()));
        out
    }
}

impl Mutator for SimplifyConstants {
    mutator_info!(
        Group::Arithmetic,
        "arith-constants",
        "simplify arithmetic constant"
    );
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        !Self::candidates(cx, id).is_empty()
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        Self::candidates(cx, id)
            .into_iter()
            .map(|c| replace(format!("simplify constant to {c}"), id, atom(c)))
            .collect()
    }
}

/// `(< a b c)` -> `(and (< a b) (< b c))`.
pub struct SplitNaryRelations;

impl Mutator for SplitNaryRelations {
    mutator_info!(
        Group::Arithmetic,
        "arith-split-nary-relations",
        "split arithmetic n-ary relation"
    );
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        util::head(cx.tree, id).is_some_and(|op| RELATIONS.contains(&op) || op == "=")
            && util::args(cx.tree, id).len() > 2
            && arith_args(cx, id)
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        let op = util::head(cx.tree, id).unwrap_or_default();
        let parts = util::args(cx.tree, id)
            .windows(2)
            .map(|w| app(op, vec![node(w[0]), node(w[1])]))
            .collect();
        vec![replace("split n-ary relation", id, app("and", parts))]
    }
}

/// `(<= a b)` -> `(< a b)` or `(= a b)`; `(>= a b)` -> `(> a b)` or `(= a b)`.
pub struct StrengthenRelations;

impl Mutator for StrengthenRelations {
    mutator_info!(
        Group::Arithmetic,
        "arith-strengthen-relations",
        "strengthen arithmetic relation"
    );
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        matches!(relation(cx, id), Some("<=" | ">="))
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        let strict = match relation(cx, id) {
            Some("<=") => "<",
            Some(">=") => ">",
            _ => return Vec::new(),
        };
        let args = nodes(util::args(cx.tree, id));
        vec![
            replace(
                format!("strengthen to {strict}"),
                id,
                app(strict, args.clone()),
            ),
            replace("strengthen to =", id, app("=", args)),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutators::testutil::check;

    const D: &str = "(declare-const x Int)\n(declare-const y Int)\n(declare-const r Real)\n";

    fn with(body: &str) -> String {
        format!("{D}{body}")
    }

    #[test]
    fn negate_relations() {
        check(
            &NegateRelations,
            &with("(assert (not (< x y)))"),
            "(not (< x y))",
            &[&with("(assert (>= x y))")],
        );
        check(
            &NegateRelations,
            &with("(assert (not (>= r 1.5)))"),
            "(not (>= r 1.5))",
            &[&with("(assert (< r 1.5))")],
        );
        check(
            &NegateRelations,
            &with("(assert (not (= x y)))"),
            "(not (= x y))",
            &[],
        );
    }

    #[test]
    fn simplify_constants() {
        check(
            &SimplifyConstants,
            &with("(assert (> x 1234))"),
            "1234",
            &[&with("(assert (> x 123))"), &with("(assert (> x 617))")],
        );
        check(
            &SimplifyConstants,
            &with("(assert (> r 12.75))"),
            "12.75",
            &[&with("(assert (> r 12.7))"), &with("(assert (> r 1.75))")],
        );
        check(&SimplifyConstants, &with("(assert (> x 0))"), "0", &[]);
        check(
            &SimplifyConstants,
            &with("(assert (> x 1))"),
            "1",
            &[&with("(assert (> x 0))")],
        );
    }

    #[test]
    fn split_nary_relations() {
        check(
            &SplitNaryRelations,
            &with("(assert (< x y 3))"),
            "(< x y 3)",
            &[&with("(assert (and (< x y) (< y 3)))")],
        );
        check(
            &SplitNaryRelations,
            &with("(assert (< x y))"),
            "(< x y)",
            &[],
        );
    }

    #[test]
    fn strengthen_relations() {
        check(
            &StrengthenRelations,
            &with("(assert (<= x y))"),
            "(<= x y)",
            &[&with("(assert (< x y))"), &with("(assert (= x y))")],
        );
        check(
            &StrengthenRelations,
            &with("(assert (< x y))"),
            "(< x y)",
            &[],
        );
    }
}
