//! Bit-vector mutators: [`NormConstants`], [`ZeroConcat`], [`DoubleNegation`],
//! [`ElimBvcomp`], [`EvalExtend`], [`ExtractConstants`], [`ExtractZeroExtend`],
//! [`MergeReducedBw`], [`IteToBvcomp`], [`ReflexiveNand`], [`SimpConstants`], [`BvToBool`],
//! [`ZeroExtendPred`] and [`ReduceBitwidth`].

use super::util::{self, app, atom, bv_const, bv_literal, edit, indexed_app, node, not, replace};
use super::{Group, Mutation, MutationInput, Mutator};
use num_bigint::BigUint;
use smtlib::Sort;
use smtlib::{NodeId, Sx};

fn width(cx: &MutationInput, id: NodeId) -> Option<u32> {
    util::sort(cx, id).and_then(Sort::bv_width)
}

/// Writes a bit-vector literal in its shortest notation.
pub struct NormConstants;

impl NormConstants {
    fn shortest(cx: &MutationInput, id: NodeId) -> Option<String> {
        let (value, w) = bv_const(cx.tree, id)?;
        let current = cx.tree.print_node(id);
        [
            util::BvStyle::Binary,
            util::BvStyle::Hex,
            util::BvStyle::Indexed,
        ]
        .into_iter()
        .map(|s| bv_literal(&value, w, s))
        .filter(|t| t.len() < current.len())
        .min_by_key(|t| t.len())
    }

    fn rewrite(cx: &MutationInput, id: NodeId) -> Option<Mutation> {
        Self::shortest(cx, id).map(|t| replace(format!("normalize to {t}"), id, atom(t)))
    }
}

impl Mutator for NormConstants {
    mutator_info!(Group::Bv, "bv-norm-constants", "normalize bit-vector const");
    single_rewrite!(Self::rewrite);
}

/// `(concat #b000 x)` -> `((_ zero_extend 3) x)`.
pub struct ZeroConcat;

impl ZeroConcat {
    fn rewrite(cx: &MutationInput, id: NodeId) -> Option<Mutation> {
        let [zero, x] = util::app_args(cx.tree, id, "concat")?;
        let (value, w) = bv_const(cx.tree, *zero)?;
        (value == BigUint::ZERO).then(|| {
            replace(
                "concat to zero_extend",
                id,
                indexed_app("zero_extend", &[w.to_string()], vec![node(*x)]),
            )
        })
    }
}

impl Mutator for ZeroConcat {
    mutator_info!(Group::Bv, "bv-zero-concat", "replace concat by zero_extend");
    single_rewrite!(Self::rewrite);
}

/// `(bvnot (bvnot x))` -> `x`, `(bvneg (bvneg x))` -> `x`.
pub struct DoubleNegation;

impl DoubleNegation {
    fn rewrite(cx: &MutationInput, id: NodeId) -> Option<Mutation> {
        let y = util::double_application(cx.tree, id, ["bvnot", "bvneg"])?;
        Some(replace("eliminate double negation", id, node(y)))
    }
}

impl Mutator for DoubleNegation {
    mutator_info!(
        Group::Bv,
        "bv-double-negation",
        "eliminate double bit-vector negation"
    );
    single_rewrite!(Self::rewrite);
}

/// `(= (bvcomp a b) #b1)` -> `(= a b)`, `(= (bvcomp a b) #b0)` -> `(distinct a b)`.
pub struct ElimBvcomp;

impl ElimBvcomp {
    fn rewrite(cx: &MutationInput, id: NodeId) -> Option<Mutation> {
        let tree = cx.tree;
        let [a, b] = util::app_args(tree, id, "=")?;
        let (comp, bit) = if util::is_app(tree, *a, "bvcomp") {
            (*a, *b)
        } else {
            (*b, *a)
        };
        if !util::is_app(tree, comp, "bvcomp") {
            return None;
        }
        let (value, 1) = bv_const(tree, bit)? else {
            return None;
        };
        let op = if value == BigUint::ZERO {
            "distinct"
        } else {
            "="
        };
        Some(replace(
            "eliminate bvcomp",
            id,
            app(op, util::nodes(util::args(tree, comp))),
        ))
    }
}

impl Mutator for ElimBvcomp {
    mutator_info!(Group::Bv, "bv-elim-bvcomp", "eliminate bvcomp by equality");
    single_rewrite!(Self::rewrite);
}

/// `((_ zero_extend 4) #b1010)` -> `#b00001010` (also `sign_extend`).
pub struct EvalExtend;

impl EvalExtend {
    fn rewrite(cx: &MutationInput, id: NodeId) -> Option<Mutation> {
        let tree = cx.tree;
        let (op, idx, [c]) = util::indexed_op(tree, id)? else {
            return None;
        };
        let [k] = idx[..] else { return None };
        let (value, w) = bv_const(tree, *c)?;
        let value = match op {
            "zero_extend" => value,
            "sign_extend" if w > 0 && value.bit((w - 1) as u64) => {
                value + ((util::bv_ones(k)) << w)
            }
            "sign_extend" => value,
            _ => return None,
        };
        let text = bv_literal(&value, w + k, util::bv_style(tree, *c));
        Some(replace(format!("evaluate {op}"), id, atom(text)))
    }
}

impl Mutator for EvalExtend {
    mutator_info!(Group::Bv, "bv-eval-extend", "evaluate bit-vector extend");
    single_rewrite!(Self::rewrite);
}

/// `((_ extract 2 1) #b0110)` -> `#b11`.
pub struct ExtractConstants;

impl ExtractConstants {
    fn rewrite(cx: &MutationInput, id: NodeId) -> Option<Mutation> {
        let tree = cx.tree;
        let ("extract", idx, [c]) = util::indexed_op(tree, id)? else {
            return None;
        };
        let [hi, lo] = idx[..] else { return None };
        let (value, w) = bv_const(tree, *c)?;
        if hi < lo || hi >= w {
            return None;
        }
        let part = (value >> lo) & util::bv_ones(hi - lo + 1);
        let text = bv_literal(&part, hi - lo + 1, util::bv_style(tree, *c));
        Some(replace("evaluate extract", id, atom(text)))
    }
}

impl Mutator for ExtractConstants {
    mutator_info!(
        Group::Bv,
        "bv-extract-constants",
        "evaluate bit-vector extract on constant"
    );
    single_rewrite!(Self::rewrite);
}

/// `((_ extract i j) ((_ zero_extend k) x))`: only bits of `x` -> extract from `x`; only
/// extension bits -> zero.
pub struct ExtractZeroExtend;

impl ExtractZeroExtend {
    fn rewrite(cx: &MutationInput, id: NodeId) -> Option<Mutation> {
        let tree = cx.tree;
        let ("extract", idx, [inner]) = util::indexed_op(tree, id)? else {
            return None;
        };
        let [hi, lo] = idx[..] else { return None };
        let ("zero_extend", _, [x]) = util::indexed_op(tree, *inner)? else {
            return None;
        };
        let w = width(cx, *x)?;
        let sx = if hi + 1 == w && lo == 0 {
            node(*x)
        } else if hi < w {
            indexed_app("extract", &[hi.to_string(), lo.to_string()], vec![node(*x)])
        } else if lo >= w {
            atom(bv_literal(
                &BigUint::ZERO,
                hi - lo + 1,
                util::BvStyle::Binary,
            ))
        } else {
            return None;
        };
        Some(replace("simplify extract on zero_extend", id, sx))
    }
}

impl Mutator for ExtractZeroExtend {
    mutator_info!(
        Group::Bv,
        "bv-extract-zeroextend",
        "simplify bit-vector extract on zero_extend"
    );
    single_rewrite!(Self::rewrite);
}

/// Merges nested width changes that bit-width reduction leaves behind:
/// `((_ zero_extend a) ((_ zero_extend b) x))` -> `((_ zero_extend a+b) x)` (also
/// `sign_extend`), `((_ extract i j) ((_ extract k l) x))` -> `((_ extract i+l j+l) x)`.
pub struct MergeReducedBw;

impl MergeReducedBw {
    fn rewrite(cx: &MutationInput, id: NodeId) -> Option<Mutation> {
        let tree = cx.tree;
        let (op, outer, [inner]) = util::indexed_op(tree, id)? else {
            return None;
        };
        let (inner_op, inner_idx, [x]) = util::indexed_op(tree, *inner)? else {
            return None;
        };
        if op != inner_op {
            return None;
        }
        let indices = match (op, &outer[..], &inner_idx[..]) {
            ("zero_extend" | "sign_extend", [a], [b]) => vec![(a + b).to_string()],
            ("extract", [i, j], [_, l]) => vec![(i + l).to_string(), (j + l).to_string()],
            _ => return None,
        };
        Some(replace(
            format!("merge nested {op}"),
            id,
            indexed_app(op, &indices, vec![node(*x)]),
        ))
    }
}

impl Mutator for MergeReducedBw {
    mutator_info!(
        Group::Bv,
        "bv-merge-reduced-bw",
        "merge previous bit-width reductions"
    );
    single_rewrite!(Self::rewrite);
}

/// `(ite (= a b) #b1 #b0)` -> `(bvcomp a b)`; swapped cases give `(bvnot (bvcomp a b))`.
pub struct IteToBvcomp;

impl IteToBvcomp {
    fn rewrite(cx: &MutationInput, id: NodeId) -> Option<Mutation> {
        let tree = cx.tree;
        let [c, t, e] = util::app_args(tree, id, "ite")?;
        let [a, b] = util::app_args(tree, *c, "=")?;
        width(cx, *a)?;
        let (tv, 1) = bv_const(tree, *t)? else {
            return None;
        };
        let (ev, 1) = bv_const(tree, *e)? else {
            return None;
        };
        let comp = app("bvcomp", vec![node(*a), node(*b)]);
        let sx = match (tv == BigUint::ZERO, ev == BigUint::ZERO) {
            (false, true) => comp,
            (true, false) => app("bvnot", vec![comp]),
            _ => return None,
        };
        Some(replace("ite to bvcomp", id, sx))
    }
}

impl Mutator for IteToBvcomp {
    mutator_info!(
        Group::Bv,
        "bv-ite-to-bvcomp",
        "eliminate ite with bv1 / bv0 cases"
    );
    single_rewrite!(Self::rewrite);
}

/// `(bvnand x x)` -> `(bvnot x)` (also `bvnor`).
pub struct ReflexiveNand;

impl ReflexiveNand {
    fn rewrite(cx: &MutationInput, id: NodeId) -> Option<Mutation> {
        let tree = cx.tree;
        let [a, b] = util::args(tree, id) else {
            return None;
        };
        let op = util::head(tree, id).filter(|&op| op == "bvnand" || op == "bvnor")?;
        (tree.print_node(*a) == tree.print_node(*b)).then(|| {
            replace(
                format!("reflexive {op} to bvnot"),
                id,
                app("bvnot", vec![node(*a)]),
            )
        })
    }
}

impl Mutator for ReflexiveNand {
    mutator_info!(Group::Bv, "bv-reflexive-nand", "replace bvnand by bvnot");
    single_rewrite!(Self::rewrite);
}

/// Replaces a non-zero bit-vector literal by a smaller value: half of it, and the value
/// without its highest set bit.
pub struct SimpConstants;

impl SimpConstants {
    fn candidates(cx: &MutationInput, id: NodeId) -> Vec<String> {
        let Some((value, w)) = bv_const(cx.tree, id) else {
            return Vec::new();
        };
        if value == BigUint::ZERO {
            return Vec::new();
        }
        let style = util::bv_style(cx.tree, id);
        let half = &value >> 1u8;
        let mut without_top = value.clone();
        without_top.set_bit(value.bits() - 1, false);
        let mut out = vec![bv_literal(&half, w, style)];
        if without_top != half {
            out.push(bv_literal(&without_top, w, style));
        }
        out
    }
}

impl Mutator for SimpConstants {
    mutator_info!(
        Group::Bv,
        "bv-simp-constants",
        "simplify bit-vector constant"
    );
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        bv_const(cx.tree, id).is_some_and(|(v, _)| v != BigUint::ZERO)
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        Self::candidates(cx, id)
            .into_iter()
            .map(|t| replace(format!("simplify constant to {t}"), id, atom(t)))
            .collect()
    }
}

/// Turns a comparison of a one-bit term with `#b1` / `#b0` into a Boolean formula:
/// `(= (bvand a b) #b1)` -> `(and (= a #b1) (= b #b1))`.
pub struct BvToBool;

impl BvToBool {
    /// The Boolean meaning "`id` is one" of a one-bit term.
    fn as_bool(cx: &MutationInput, id: NodeId) -> Sx {
        let tree = cx.tree;
        let args = util::args(tree, id);
        let map = |op: &str| app(op, args.iter().map(|&a| Self::bit_is_one(a)).collect());
        match util::head(tree, id) {
            Some("bvand") => map("and"),
            Some("bvor") => map("or"),
            Some("bvxor") => map("xor"),
            Some("bvnot") if args.len() == 1 => not(Self::bit_is_one(args[0])),
            Some("bvcomp") => app("=", util::nodes(args)),
            _ => Self::bit_is_one(id),
        }
    }

    fn bit_is_one(id: NodeId) -> Sx {
        app("=", vec![node(id), atom("#b1")])
    }

    fn rewrite(cx: &MutationInput, id: NodeId) -> Option<Mutation> {
        let tree = cx.tree;
        let [a, b] = util::app_args(tree, id, "=")?;
        let (term, bit) = if bv_const(tree, *b).is_some() {
            (*a, *b)
        } else {
            (*b, *a)
        };
        let (value, 1) = bv_const(tree, bit)? else {
            return None;
        };
        if !matches!(
            util::head(tree, term),
            Some("bvand" | "bvor" | "bvxor" | "bvnot" | "bvcomp")
        ) || width(cx, term) != Some(1)
        {
            return None;
        }
        let formula = Self::as_bool(cx, term);
        let sx = if value == BigUint::ZERO {
            not(formula)
        } else {
            formula
        };
        Some(replace("bit-vector to Boolean", id, sx))
    }
}

impl Mutator for BvToBool {
    mutator_info!(Group::Bv, "bv-to-bool", "transform bit-vector to boolean");
    single_rewrite!(Self::rewrite);
}

/// `(bvult ((_ zero_extend k) a) ((_ zero_extend k) b))` -> `(bvult a b)`; the same for
/// `sign_extend` under signed predicates and equalities.
pub struct ZeroExtendPred;

impl ZeroExtendPred {
    fn rewrite(cx: &MutationInput, id: NodeId) -> Option<Mutation> {
        let tree = cx.tree;
        let pred = util::head(tree, id)?;
        let [a, b] = util::args(tree, id) else {
            return None;
        };
        let (op_a, ka, [x]) = util::indexed_op(tree, *a)? else {
            return None;
        };
        let (op_b, kb, [y]) = util::indexed_op(tree, *b)? else {
            return None;
        };
        let allowed = match op_a {
            "zero_extend" => matches!(
                pred,
                "=" | "distinct" | "bvult" | "bvule" | "bvugt" | "bvuge"
            ),
            "sign_extend" => matches!(
                pred,
                "=" | "distinct" | "bvslt" | "bvsle" | "bvsgt" | "bvsge"
            ),
            _ => false,
        };
        if !allowed || op_a != op_b || ka != kb || width(cx, *x) != width(cx, *y) {
            return None;
        }
        Some(replace(
            format!("eliminate {op_a} in {pred}"),
            id,
            app(pred, vec![node(*x), node(*y)]),
        ))
    }
}

impl Mutator for ZeroExtendPred {
    mutator_info!(
        Group::Bv,
        "bv-zeroextend-pred",
        "eliminate zero_extend when both operands of a predicate are zero extended"
    );
    single_rewrite!(Self::rewrite);
}

/// Reduces the width of a declared bit-vector constant: `(declare-const x (_ BitVec 8))`
/// becomes `(_ BitVec 4)` and every use of `x` becomes `((_ zero_extend 4) x)`.
pub struct ReduceBitwidth;

impl ReduceBitwidth {
    /// The declared name, its width and the sort node of a bit-vector constant declaration.
    fn declaration<'a>(cx: &MutationInput<'a>, id: NodeId) -> Option<(&'a str, u32, NodeId)> {
        let tree = cx.tree;
        if tree.parent(id).is_some() {
            return None;
        }
        let ch = tree.children(id);
        let sort_node = match tree.head(id)? {
            "declare-const" if ch.len() == 3 => ch[2],
            "declare-fun" if ch.len() == 4 && tree.children(ch[2]).is_empty() => ch[3],
            _ => return None,
        };
        let w = util::read_sort(tree, sort_node)?.bv_width()?;
        (w > 1).then_some((util::name(tree, ch[1])?, w, sort_node))
    }
}

impl Mutator for ReduceBitwidth {
    mutator_info!(
        Group::Bv,
        "bv-reduce-bitwidth",
        "reduce bit-width of variable"
    );
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        Self::declaration(cx, id).is_some()
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        let tree = cx.tree;
        let Some((name, w, sort_node)) = Self::declaration(cx, id) else {
            return Vec::new();
        };
        let uses: Vec<NodeId> = tree
            .roots()
            .iter()
            .filter(|&&r| r != id)
            .flat_map(|&r| tree.preorder(r))
            .filter(|&n| util::name(tree, n) == Some(name) && width(cx, n) == Some(w))
            .filter(|&n| !util::bound_names(tree, n).iter().any(|b| b == name))
            .collect();
        let mut widths = vec![w / 2];
        if w / 2 > 1 {
            widths.push(1);
        }
        widths
            .into_iter()
            .map(|nw| {
                let sort = Sx::List(vec![atom("_"), atom("BitVec"), atom(nw.to_string())]);
                let mut edits = vec![edit(sort_node, sort)];
                edits.extend(uses.iter().map(|&u| {
                    edit(
                        u,
                        indexed_app("zero_extend", &[(w - nw).to_string()], vec![node(u)]),
                    )
                }));
                util::mutation(format!("reduce width of {name} to {nw}"), edits)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutators::testutil::check;

    const D: &str = "(declare-const x (_ BitVec 4))\n(declare-const y (_ BitVec 4))\n(declare-const b (_ BitVec 1))\n";

    fn with(body: &str) -> String {
        format!("{D}{body}")
    }

    #[test]
    fn norm_constants() {
        check(
            &NormConstants,
            &with("(assert (= x (_ bv10 4)))"),
            "(_ bv10 4)",
            &[&with("(assert (= x #xa))")],
        );
        check(&NormConstants, &with("(assert (= x #xa))"), "#xa", &[]);
    }

    #[test]
    fn zero_concat() {
        check(
            &ZeroConcat,
            &with("(assert (= (concat #b00 (bvadd b b) #b0) x))"),
            "(bvadd b b)",
            &[],
        );
        let input = "(declare-const z (_ BitVec 2))\n(assert (= (concat #b00 z) #x0))";
        check(
            &ZeroConcat,
            input,
            "(concat #b00 z)",
            &["(declare-const z (_ BitVec 2))\n(assert (= ((_ zero_extend 2) z) #x0))"],
        );
    }

    #[test]
    fn double_negation() {
        check(
            &DoubleNegation,
            &with("(assert (= (bvnot (bvnot x)) y))"),
            "(bvnot (bvnot x))",
            &[&with("(assert (= x y))")],
        );
        check(
            &DoubleNegation,
            &with("(assert (= (bvneg (bvnot x)) y))"),
            "(bvneg (bvnot x))",
            &[],
        );
    }

    #[test]
    fn elim_bvcomp() {
        check(
            &ElimBvcomp,
            &with("(assert (= (bvcomp x y) #b1))"),
            "(= (bvcomp x y) #b1)",
            &[&with("(assert (= x y))")],
        );
        check(
            &ElimBvcomp,
            &with("(assert (= #b0 (bvcomp x y)))"),
            "(= #b0 (bvcomp x y))",
            &[&with("(assert (distinct x y))")],
        );
    }

    #[test]
    fn eval_extend() {
        check(
            &EvalExtend,
            &with("(assert (= ((_ zero_extend 2) #b10) x))"),
            "((_ zero_extend 2) #b10)",
            &[&with("(assert (= #b0010 x))")],
        );
        check(
            &EvalExtend,
            &with("(assert (= ((_ sign_extend 2) #b10) x))"),
            "((_ sign_extend 2) #b10)",
            &[&with("(assert (= #b1110 x))")],
        );
    }

    #[test]
    fn extract_constants() {
        check(
            &ExtractConstants,
            &with("(assert (= ((_ extract 2 1) #b0110) ((_ extract 1 0) x)))"),
            "((_ extract 2 1) #b0110)",
            &[&with("(assert (= #b11 ((_ extract 1 0) x)))")],
        );
    }

    #[test]
    fn extract_zero_extend() {
        let input = |e: &str| with(&format!("(assert (= {e} #b00))"));
        check(
            &ExtractZeroExtend,
            &input("((_ extract 1 0) ((_ zero_extend 4) x))"),
            "((_ extract 1 0) ((_ zero_extend 4) x))",
            &[&input("((_ extract 1 0) x)")],
        );
        check(
            &ExtractZeroExtend,
            &input("((_ extract 6 5) ((_ zero_extend 4) x))"),
            "((_ extract 6 5) ((_ zero_extend 4) x))",
            &[&input("#b00")],
        );
        check(
            &ExtractZeroExtend,
            &input("((_ extract 4 3) ((_ zero_extend 4) x))"),
            "((_ extract 4 3) ((_ zero_extend 4) x))",
            &[],
        );
    }

    #[test]
    fn merge_reduced_bw() {
        check(
            &MergeReducedBw,
            &with("(assert (= ((_ zero_extend 2) ((_ zero_extend 2) x)) #x00))"),
            "((_ zero_extend 2) ((_ zero_extend 2) x))",
            &[&with("(assert (= ((_ zero_extend 4) x) #x00))")],
        );
        check(
            &MergeReducedBw,
            &with("(assert (= ((_ extract 1 1) ((_ extract 3 1) x)) b))"),
            "((_ extract 1 1) ((_ extract 3 1) x))",
            &[&with("(assert (= ((_ extract 2 2) x) b))")],
        );
    }

    #[test]
    fn ite_to_bvcomp() {
        check(
            &IteToBvcomp,
            &with("(assert (= (ite (= x y) #b1 #b0) b))"),
            "(ite (= x y) #b1 #b0)",
            &[&with("(assert (= (bvcomp x y) b))")],
        );
        check(
            &IteToBvcomp,
            &with("(assert (= (ite (= x y) #b0 #b1) b))"),
            "(ite (= x y) #b0 #b1)",
            &[&with("(assert (= (bvnot (bvcomp x y)) b))")],
        );
    }

    #[test]
    fn reflexive_nand() {
        check(
            &ReflexiveNand,
            &with("(assert (= (bvnand x x) y))"),
            "(bvnand x x)",
            &[&with("(assert (= (bvnot x) y))")],
        );
        check(
            &ReflexiveNand,
            &with("(assert (= (bvnand x y) y))"),
            "(bvnand x y)",
            &[],
        );
    }

    #[test]
    fn simp_constants() {
        check(
            &SimpConstants,
            &with("(assert (= x #b1011))"),
            "#b1011",
            &[
                &with("(assert (= x #b0101))"),
                &with("(assert (= x #b0011))"),
            ],
        );
        check(
            &SimpConstants,
            &with("(assert (= x (_ bv1 4)))"),
            "(_ bv1 4)",
            &[&with("(assert (= x (_ bv0 4)))")],
        );
        check(&SimpConstants, &with("(assert (= x #x0))"), "#x0", &[]);
    }

    #[test]
    fn bv_to_bool() {
        let d = "(declare-const p (_ BitVec 1))\n(declare-const q (_ BitVec 1))\n";
        check(
            &BvToBool,
            &format!("{d}(assert (= (bvand p (bvnot q)) #b1))"),
            "(= (bvand p (bvnot q)) #b1)",
            &[&format!("{d}(assert (and (= p #b1) (= (bvnot q) #b1)))")],
        );
        check(
            &BvToBool,
            &format!("{d}(assert (= #b0 (bvcomp p q)))"),
            "(= #b0 (bvcomp p q))",
            &[&format!("{d}(assert (not (= p q)))")],
        );
    }

    #[test]
    fn zero_extend_pred() {
        check(
            &ZeroExtendPred,
            &with("(assert (bvult ((_ zero_extend 4) x) ((_ zero_extend 4) y)))"),
            "(bvult ((_ zero_extend 4) x) ((_ zero_extend 4) y))",
            &[&with("(assert (bvult x y))")],
        );
        check(
            &ZeroExtendPred,
            &with("(assert (bvslt ((_ zero_extend 4) x) ((_ zero_extend 4) y)))"),
            "(bvslt ((_ zero_extend 4) x) ((_ zero_extend 4) y))",
            &[],
        );
    }

    #[test]
    fn reduce_bitwidth() {
        let input = "(declare-const v (_ BitVec 8))\n(assert (= (bvadd v #x01) v))";
        check(
            &ReduceBitwidth,
            input,
            "(declare-const v (_ BitVec 8))",
            &[
                "(declare-const v (_ BitVec 4))\n(assert (= (bvadd ((_ zero_extend 4) v) #x01) ((_ zero_extend 4) v)))",
                "(declare-const v (_ BitVec 1))\n(assert (= (bvadd ((_ zero_extend 7) v) #x01) ((_ zero_extend 7) v)))",
            ],
        );
    }
}
