//! Core mutators, independent of any theory: [`EraseNode`], [`SubstituteChildren`],
//! [`Constants`], [`MergeChildren`], [`ReplaceByVariable`], [`BinaryReduction`] (global) and
//! [`SortChildren`]; as a last resort, [`EraseAnyNode`] and [`UnwrapAnyNode`], which ignore
//! sorts and the shape of commands.

use super::util::{self, app, delete, node, replace};
use super::{Group, Mutation, MutationInput, Mutator};
use smtlib::Sort;
use smtlib::{Atom, NodeId, Tree};
use std::collections::HashSet;

/// Operators that take any number (at least two) of arguments of one sort, so that an argument
/// can be dropped or the arguments reordered without breaking sorts.
const NARY: &[&str] = &[
    "and", "or", "xor", "=>", "=", "distinct", "+", "-", "*", "<", "<=", ">", ">=", "bvadd",
    "bvmul", "bvand", "bvor", "bvxor", "str.++", "re.++", "re.union", "re.inter",
];

/// Operators whose arguments may be reordered.
const COMMUTATIVE: &[&str] = &[
    "and", "or", "xor", "=", "distinct", "+", "*", "bvadd", "bvmul", "bvand", "bvor", "bvxor",
    "re.union", "re.inter",
];

/// Whether top-level command `root` declares or defines a symbol or sort.
pub fn is_declaration(tree: &Tree, root: NodeId) -> bool {
    matches!(
        tree.head(root),
        Some(
            "declare-fun"
                | "declare-const"
                | "declare-sort"
                | "define-fun"
                | "define-fun-rec"
                | "define-funs-rec"
                | "define-sort"
                | "declare-datatype"
                | "declare-datatypes"
        )
    )
}

/// The names a top-level command declares.
pub fn root_declares(tree: &Tree, root: NodeId) -> Vec<String> {
    let ch = tree.children(root);
    let mut names = match tree.head(root) {
        Some(
            "declare-const" | "declare-fun" | "define-fun" | "define-fun-rec" | "declare-sort"
            | "define-sort" | "define-const",
        ) => ch
            .get(1)
            .and_then(|&n| util::name(tree, n))
            .map(|s| vec![s.to_string()])
            .unwrap_or_default(),
        Some("define-funs-rec") if ch.len() == 3 => tree
            .children(ch[1])
            .iter()
            .filter_map(|&d| tree.children(d).first().and_then(|&n| util::name(tree, n)))
            .map(String::from)
            .collect(),
        Some("declare-datatype" | "declare-datatypes") => {
            let mut out = Vec::new();
            for dt in super::datatypes::datatypes_of(tree, root) {
                out.push(dt.name.clone());
                for c in dt.constructors {
                    out.push(format!("is-{}", c.name));
                    out.push(c.name);
                    out.extend(c.selectors.into_iter().map(|(s, _)| s));
                }
            }
            out
        }
        _ => Vec::new(),
    };
    // `(! t :named n)` declares `n` for the commands that follow.
    names.extend(util::named_in(tree, root).into_iter().map(|(n, _)| n));
    names
}

/// The symbols a top-level command mentions, other than the ones it declares.
pub fn root_uses(tree: &Tree, root: NodeId) -> HashSet<String> {
    let own: HashSet<String> = root_declares(tree, root).into_iter().collect();
    tree.preorder(root)
        .filter_map(|id| util::name(tree, id))
        .filter(|s| !own.contains(*s))
        .map(String::from)
        .collect()
}

/// Whether deleting the roots in `removed` keeps the script well-formed: every remaining
/// command's symbols stay declared and no `pop` closes more scopes than are open.
fn removal_keeps_declarations(tree: &Tree, removed: &HashSet<NodeId>) -> bool {
    if removed
        .iter()
        .any(|&r| matches!(tree.head(r), Some("push" | "pop")))
    {
        let mut depth: i64 = 0;
        for &r in tree.roots().iter().filter(|r| !removed.contains(r)) {
            let levels = || {
                tree.children(r)
                    .get(1)
                    .and_then(|&n| util::text(tree, n))
                    .map_or(Some(1), |t| t.parse::<i64>().ok())
                    .unwrap_or(1)
            };
            match tree.head(r) {
                Some("push") => depth += levels(),
                Some("pop") => depth -= levels(),
                Some("reset") => depth = 0,
                _ => {}
            }
            if depth < 0 {
                return false;
            }
        }
    }
    let declared: HashSet<String> = removed
        .iter()
        .flat_map(|&r| root_declares(tree, r))
        .collect();
    if declared.is_empty() {
        return true;
    }
    // Scan the remaining commands without allocating: this runs for every declaration.
    tree.roots()
        .iter()
        .filter(|r| !removed.contains(r))
        .all(|&r| {
            let own = root_declares(tree, r);
            tree.preorder(r).all(|id| {
                util::name(tree, id)
                    .is_none_or(|s| !declared.contains(s) || own.iter().any(|o| o == s))
            })
        })
}

/// Erases a node: a command, an argument of an n-ary operator, an unused binding, an element
/// of a `get-value` / `check-sat-assuming` list.
pub struct EraseNode;

impl EraseNode {
    fn erasable(cx: &MutationInput, id: NodeId) -> bool {
        let tree = cx.tree;
        let Some(parent) = tree.parent(id) else {
            // `set-logic` too: many solvers behave the same without it, and the check decides.
            return removal_keeps_declarations(tree, &HashSet::from([id]));
        };
        if util::is_term(cx, parent) {
            // An argument (never the head) of an n-ary operator that keeps two arguments.
            let op = util::head(tree, parent).unwrap_or_default();
            return util::child_index(tree, id) != Some(0)
                && NARY.contains(&op)
                && util::args(tree, parent).len() > 2
                && !util::drops_used_name(tree, id, None);
        }
        let Some(grand) = tree.parent(parent) else {
            // `(push 1)` -> `(push)`: solvers read a missing count as one scope, as ddSMT 2 uses.
            return matches!(tree.head(parent), Some("push" | "pop"))
                && util::child_index(tree, id) == Some(1)
                && tree.atom(id) == Some(&Atom::Numeral("1".into()));
        };
        let siblings = tree.children(parent).len();
        match tree.head(grand) {
            Some("get-value") if tree.parent(grand).is_none() => siblings > 1,
            Some("check-sat-assuming") if tree.parent(grand).is_none() => true,
            Some(binder @ ("let" | "forall" | "exists"))
                if tree.children(grand).get(1) == Some(&parent) && siblings > 1 =>
            {
                // The erased variable must not occur in the body.
                let _ = binder;
                let name = tree
                    .children(id)
                    .first()
                    .and_then(|&n| util::name(tree, n))
                    .unwrap_or_default();
                // A binder without a body parses; there is nothing the name could occur in.
                match tree.children(grand).get(2) {
                    Some(&body) => !util::free_symbols(tree, body).contains(name),
                    None => true,
                }
            }
            _ => false,
        }
    }
}

impl Mutator for EraseNode {
    mutator_info!(Group::Core, "erase-node", "erase node");
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        Self::erasable(cx, id)
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        vec![util::mutation(
            format!("erase {}", short(cx.tree, id)),
            vec![delete(id)],
        )]
    }
    /// Every declaration that nothing uses, erased at once: once the terms are reduced, most
    /// declarations are unused, and one check removes them all.
    fn global_mutations(&self, cx: &MutationInput) -> Vec<Mutation> {
        let tree = cx.tree;
        // Every command that declares only names no other command uses, as one step; those
        // used only by other such commands go too (a sort used only by unused constants).
        let mut erasable: HashSet<NodeId> = tree
            .roots()
            .iter()
            .copied()
            .filter(|&r| !root_declares(tree, r).is_empty())
            .collect();
        loop {
            let used: HashSet<String> = tree
                .roots()
                .iter()
                .filter(|r| !erasable.contains(r))
                .flat_map(|&r| root_uses(tree, r))
                .collect();
            let before = erasable.len();
            erasable.retain(|&d| root_declares(tree, d).iter().all(|n| !used.contains(n)));
            if erasable.len() == before {
                break;
            }
        }
        if erasable.len() < 2 || !removal_keeps_declarations(tree, &erasable) {
            return Vec::new();
        }
        let mut edits: Vec<_> = erasable.into_iter().collect();
        edits.sort();
        vec![util::mutation(
            format!("erase {} commands", edits.len()),
            edits.into_iter().map(delete).collect(),
        )]
    }
}

/// A short description of a node for mutation descriptions.
pub fn short(tree: &Tree, id: NodeId) -> String {
    let text = tree.print_node(id);
    if text.len() <= 40 {
        text
    } else {
        let cut = (0..=40)
            .rev()
            .find(|&i| text.is_char_boundary(i))
            .unwrap_or(0);
        format!("{}...", &text[..cut])
    }
}

/// Replaces a term by one of its children of the same sort.
pub struct SubstituteChildren;

impl SubstituteChildren {
    fn candidates(cx: &MutationInput, id: NodeId) -> Vec<NodeId> {
        let tree = cx.tree;
        let Some(sort) = util::sort(cx, id) else {
            return Vec::new();
        };
        if !tree.is_list(id) || tree.head(id) == Some("_") || tree.head(id) == Some("as") {
            return Vec::new();
        }
        let bound: Vec<String> = util::binder_vars(tree, id)
            .unwrap_or_default()
            .iter()
            .filter_map(|&(n, _)| util::name(tree, n).map(String::from))
            .collect();
        tree.children(id)
            .iter()
            .skip(1)
            .copied()
            .filter(|&c| util::sort(cx, c) == Some(sort))
            .filter(|&c| !util::drops_used_name(tree, id, Some(c)))
            .filter(|&c| {
                bound.is_empty()
                    || util::free_symbols(tree, c)
                        .iter()
                        .all(|s| !bound.contains(s))
            })
            .collect()
    }
}

impl Mutator for SubstituteChildren {
    mutator_info!(Group::Core, "substitute-children", "replace by a child");
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        !Self::candidates(cx, id).is_empty()
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        Self::candidates(cx, id)
            .into_iter()
            .map(|c| {
                replace(
                    format!("replace by child {}", short(cx.tree, c)),
                    id,
                    node(c),
                )
            })
            .collect()
    }
}

/// Replaces a term by a simple constant of its sort.
pub struct Constants;

impl Mutator for Constants {
    mutator_info!(Group::Core, "constants", "substitute by a constant");
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        util::is_term(cx, id)
            && !util::is_constant(cx.tree, id)
            && !util::drops_used_name(cx.tree, id, None)
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        let Some(sort) = util::sort(cx, id) else {
            return Vec::new();
        };
        util::simple_constants(sort)
            .into_iter()
            .map(|c| replace(format!("replace by constant {c}"), id, util::atom(c)))
            .collect()
    }
}

/// Merges a child application of the same operator into its parent:
/// `(f a (f b c))` -> `(f a b c)`.
pub struct MergeChildren;

impl MergeChildren {
    fn mergeable(cx: &MutationInput, id: NodeId) -> Vec<NodeId> {
        let tree = cx.tree;
        let Some(op) = util::head(tree, id) else {
            return Vec::new();
        };
        let Some(sort) = util::sort(cx, id) else {
            return Vec::new();
        };
        if !NARY.contains(&op) {
            return Vec::new();
        }
        // The child's arguments must have the child's sort, as the node's arguments do:
        // `(= b (= x y))` with Int `x`, `y` cannot become `(= b x y)`.
        util::args(tree, id)
            .iter()
            .copied()
            .filter(|&c| {
                util::head(tree, c) == Some(op)
                    && util::sort(cx, c) == Some(sort)
                    && util::args(tree, c)
                        .iter()
                        .all(|&a| util::sort(cx, a) == Some(sort))
            })
            .collect()
    }
}

impl Mutator for MergeChildren {
    mutator_info!(Group::Core, "merge-children", "merge with child");
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        !Self::mergeable(cx, id).is_empty()
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        let tree = cx.tree;
        let op = util::head(tree, id).unwrap_or_default();
        Self::mergeable(cx, id)
            .into_iter()
            .map(|child| {
                let mut items = Vec::new();
                for &a in util::args(tree, id) {
                    if a == child {
                        items.extend(util::nodes(util::args(tree, a)));
                    } else {
                        items.push(node(a));
                    }
                }
                replace(
                    format!("merge child {}", short(tree, child)),
                    id,
                    app(op, items),
                )
            })
            .collect()
    }
}

/// Which existing variables [`ReplaceByVariable`] may use for a variable: larger or smaller
/// names (by length, then text), so that two variables never replace each other in a loop.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum VariableMode {
    #[default]
    Inc,
    Dec,
}

/// Replaces a term by a variable in scope of the same sort.
pub struct ReplaceByVariable {
    pub mode: VariableMode,
}

/// Variables visible at `id` with their sorts: global constants declared before its command,
/// then parameters and bound variables of enclosing binders (inner ones shadow outer ones).
pub fn scope_vars(cx: &MutationInput, id: NodeId) -> Vec<(String, Sort)> {
    let tree = cx.tree;
    let root = util::root_of(tree, id);
    let before = util::root_index(tree, root).unwrap_or(0);
    let mut vars = util::global_constants(tree, before);
    // Collect local variables from the innermost binder outwards.
    let mut local: Vec<(String, Sort)> = Vec::new();
    let mut child = id;
    while let Some(parent) = tree.parent(child) {
        let pos = util::child_index(tree, child).unwrap_or(0);
        let ch = tree.children(parent);
        match tree.head(parent) {
            Some(h @ ("let" | "forall" | "exists" | "lambda")) if pos == 2 => {
                for (name, second) in util::binder_vars(tree, parent).unwrap_or_default() {
                    let sort = if h == "let" {
                        util::sort(cx, second).cloned()
                    } else {
                        util::read_sort(tree, second)
                    };
                    if let (Some(n), Some(s)) = (tree.symbol(name), sort) {
                        local.push((n.to_string(), s));
                    }
                }
            }
            Some("define-fun" | "define-fun-rec") if pos == 4 => {
                for &p in tree.children(ch[2]) {
                    if let [n, s] = tree.children(p) {
                        if let (Some(n), Some(s)) = (tree.symbol(*n), util::read_sort(tree, *s)) {
                            local.push((n.to_string(), s));
                        }
                    }
                }
            }
            _ => {}
        }
        child = parent;
    }
    // Inner bindings come first in `local`; keep the first of each name.
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for (n, s) in local.into_iter().chain(vars.drain(..).rev()) {
        if seen.insert(n.clone()) {
            out.push((n, s));
        }
    }
    out
}

fn name_key(name: &str) -> (usize, &str) {
    (name.len(), name)
}

impl ReplaceByVariable {
    fn candidates(&self, cx: &MutationInput, id: NodeId) -> Vec<String> {
        let tree = cx.tree;
        let Some(sort) = util::sort(cx, id) else {
            return Vec::new();
        };
        if util::is_constant(tree, id) {
            return Vec::new();
        }
        let own = tree.symbol(id);
        let mut out: Vec<String> = scope_vars(cx, id)
            .into_iter()
            .filter(|(_, s)| s == sort)
            .map(|(n, _)| n)
            .filter(|n| match own {
                None => true,
                Some(own) => match self.mode {
                    VariableMode::Inc => name_key(n) > name_key(own),
                    VariableMode::Dec => name_key(n) < name_key(own),
                },
            })
            .collect();
        out.sort_by(|a, b| name_key(a).cmp(&name_key(b)));
        out
    }
}

impl Mutator for ReplaceByVariable {
    mutator_info!(
        Group::Core,
        "replace-by-variable",
        "substitute by existing variable"
    );
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        util::is_term(cx, id)
            && !util::is_constant(cx.tree, id)
            && !util::drops_used_name(cx.tree, id, None)
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        self.candidates(cx, id)
            .into_iter()
            .map(|v| replace(format!("replace by variable {v}"), id, util::atom(v)))
            .collect()
    }
}

/// Removes runs of consecutive commands, halves first, then quarters and so on (runs of one
/// command are left to [`EraseNode`]). Runs whose declarations are still used elsewhere are
/// skipped.
pub struct BinaryReduction;

impl Mutator for BinaryReduction {
    mutator_info!(Group::Core, "binary-reduction", "binary reduction");
    global_only!();
    fn global_mutations(&self, cx: &MutationInput) -> Vec<Mutation> {
        let tree = cx.tree;
        let removable: Vec<NodeId> = tree
            .roots()
            .iter()
            .copied()
            .filter(|&r| tree.head(r) != Some("set-logic"))
            .collect();
        let mut out = Vec::new();
        let mut size = removable.len() / 2;
        while size >= 2 {
            for chunk in removable.chunks(size).filter(|c| c.len() == size) {
                let set: HashSet<NodeId> = chunk.iter().copied().collect();
                if removal_keeps_declarations(tree, &set) {
                    out.push(util::mutation(
                        format!("remove {} commands", chunk.len()),
                        chunk.iter().map(|&r| delete(r)).collect(),
                    ));
                }
            }
            size /= 2;
        }
        out
    }
}

/// Sorts the arguments of a commutative operator by size (smaller first), which normalizes
/// terms and moves simple arguments to the front.
pub struct SortChildren;

impl SortChildren {
    fn sorted(cx: &MutationInput, id: NodeId) -> Option<Vec<NodeId>> {
        let tree = cx.tree;
        let op = util::head(tree, id)?;
        if !COMMUTATIVE.contains(&op) || !util::is_term(cx, id) {
            return None;
        }
        let args = util::args(tree, id);
        let mut sorted = args.to_vec();
        sorted.sort_by_cached_key(|&a| (util::size(tree, a), tree.print_node(a)));
        (sorted != args).then_some(sorted)
    }
}

impl Mutator for SortChildren {
    mutator_info!(Group::Core, "sort-children", "sort children");
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        Self::sorted(cx, id).is_some()
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        let op = util::head(cx.tree, id).unwrap_or_default();
        Self::sorted(cx, id)
            .map(|s| vec![replace("sort children", id, app(op, util::nodes(&s)))])
            .unwrap_or_default()
    }
}

/// Erases any node (a command, a term, a sort, a symbol, the head of an application), as
/// ddSMT 2's erase-node does: the result still parses, but is mostly not well-formed, so the
/// property decides alone. It reaches what a property that does not need a solver to accept
/// the input keeps (a pattern in the input, an error message): `(assert (or a b))` can lose
/// `assert`, `a` and `b`.
pub struct EraseAnyNode;

impl Mutator for EraseAnyNode {
    mutator_info!(
        Group::Core,
        "erase-any-node",
        "erase any node, whatever syntax it leaves (last resort)"
    );
    fn filter(&self, _cx: &MutationInput, _id: NodeId) -> bool {
        true
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        vec![util::mutation(
            format!("erase {} (any syntax)", short(cx.tree, id)),
            vec![delete(id)],
        )]
    }
    fn last_resort(&self) -> bool {
        true
    }
}

/// Replaces a list by any of its items (its head too), whatever their sorts: a command by
/// its term, a term by a child of another sort, ddSMT 2's replace-by-child without the sort
/// check. The smallest items first.
pub struct UnwrapAnyNode;

impl Mutator for UnwrapAnyNode {
    mutator_info!(
        Group::Core,
        "unwrap-any-node",
        "replace a list by any of its items, whatever syntax it leaves (last resort)"
    );
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        !cx.tree.children(id).is_empty()
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        let tree = cx.tree;
        let mut items: Vec<(usize, NodeId)> = tree
            .children(id)
            .iter()
            .map(|&c| (tree.print_node(c).len(), c))
            .collect();
        items.sort();
        items
            .into_iter()
            .map(|(_, c)| {
                replace(
                    format!(
                        "replace {} by {} (any syntax)",
                        short(tree, id),
                        short(tree, c)
                    ),
                    id,
                    node(c),
                )
            })
            .collect()
    }
    fn last_resort(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutators::testutil::{check, check_global};

    const DECLS: &str = "(declare-const x Int)\n(declare-const y Int)\n(declare-const b Bool)\n";

    fn with(body: &str) -> String {
        format!("{DECLS}{body}")
    }

    #[test]
    fn erase_node_erases_commands_and_nary_arguments() {
        let input = with("(assert (and b (< x y) (= x 1)))");
        check(
            &EraseNode,
            &input,
            "(< x y)",
            &[&with("(assert (and b (= x 1)))")],
        );
        check(
            &EraseNode,
            &input,
            "(assert (and b (< x y) (= x 1)))",
            &[DECLS],
        );
        // `x` is still used, so its declaration stays.
        check(&EraseNode, &input, "(declare-const x Int)", &[]);
        // Binary `and` keeps both arguments; substitute-children handles it.
        check(
            &EraseNode,
            &with("(assert (and b (< x y)))"),
            "b @ (and b (< x y))",
            &[],
        );
    }

    #[test]
    fn erase_node_erases_every_unused_declaration_at_once() {
        check_global(
            &EraseNode,
            "(declare-const a Int)\n(define-fun b () Int 1)\n(declare-const c Int)\n(assert (> c 0))\n(check-sat)",
            &["(declare-const c Int)\n(assert (> c 0))\n(check-sat)"],
        );
        // One unused declaration is left to the node-by-node pass.
        check_global(&EraseNode, "(declare-const a Int)\n(check-sat)", &[]);
    }

    #[test]
    fn erase_node_drops_a_scope_count_of_one() {
        let input = "(push 1)\n(assert true)\n(pop 1)";
        check(
            &EraseNode,
            input,
            "1 @ (push 1)",
            &["(push)\n(assert true)\n(pop 1)"],
        );
        check(&EraseNode, "(push 2)\n(pop 2)", "2 @ (push 2)", &[]);
    }

    #[test]
    fn erase_node_erases_unused_let_bindings() {
        let input = with("(assert (let ((u 1) (v 2)) (< x v)))");
        check(
            &EraseNode,
            &input,
            "(u 1)",
            &[&with("(assert (let ((v 2)) (< x v)))")],
        );
        check(&EraseNode, &input, "(v 2)", &[]);
    }

    #[test]
    fn substitute_children_keeps_sorts() {
        let input = with("(assert (ite b (< x y) (= x (+ x y))))");
        check(
            &SubstituteChildren,
            &input,
            "(ite b (< x y) (= x (+ x y)))",
            &[
                &with("(assert b)"),
                &with("(assert (< x y))"),
                &with("(assert (= x (+ x y)))"),
            ],
        );
        // `(< x y)` is Bool, its children are Int: nothing to do.
        check(&SubstituteChildren, &input, "(< x y)", &[]);
        check(
            &SubstituteChildren,
            &input,
            "(+ x y)",
            &[
                &with("(assert (ite b (< x y) (= x x)))"),
                &with("(assert (ite b (< x y) (= x y)))"),
            ],
        );
    }

    #[test]
    fn constants_by_sort() {
        let input = with("(assert (< (+ x y) 3))");
        check(
            &Constants,
            &input,
            "(+ x y)",
            &[&with("(assert (< 0 3))"), &with("(assert (< 1 3))")],
        );
        check(
            &Constants,
            &input,
            "(< (+ x y) 3)",
            &[&with("(assert false)"), &with("(assert true)")],
        );
        check(&Constants, &input, "3", &[]);
        let bv = "(declare-const v (_ BitVec 4))\n(assert (= (bvadd v v) v))";
        check(
            &Constants,
            bv,
            "(bvadd v v)",
            &[
                "(declare-const v (_ BitVec 4))\n(assert (= (_ bv0 4) v))",
                "(declare-const v (_ BitVec 4))\n(assert (= (_ bv1 4) v))",
            ],
        );
    }

    #[test]
    fn merge_children_splices_same_operator() {
        let input = with("(assert (and b (and (< x y) b)))");
        check(
            &MergeChildren,
            &input,
            "(and b (and (< x y) b))",
            &[&with("(assert (and b (< x y) b))")],
        );
        // `=` over Bool with an Int equality inside: the sorts differ, no merge.
        check(
            &MergeChildren,
            &with("(assert (= b (= x y)))"),
            "(= b (= x y))",
            &[],
        );
    }

    #[test]
    fn replace_by_variable_respects_mode_and_sort() {
        let input = "(declare-const a Int)\n(declare-const bb Int)\n(declare-const p Bool)\n(assert (< (+ a 1) bb))";
        let inc = ReplaceByVariable {
            mode: VariableMode::Inc,
        };
        let dec = ReplaceByVariable {
            mode: VariableMode::Dec,
        };
        let pre = "(declare-const a Int)\n(declare-const bb Int)\n(declare-const p Bool)\n";
        check(
            &inc,
            input,
            "(+ a 1)",
            &[
                &format!("{pre}(assert (< a bb))"),
                &format!("{pre}(assert (< bb bb))"),
            ],
        );
        let a = "a @ (+ a 1)";
        let bb = "bb @ (< (+ a 1) bb)";
        check(&inc, input, a, &[&format!("{pre}(assert (< (+ bb 1) bb))")]);
        check(&dec, input, a, &[]);
        check(&dec, input, bb, &[&format!("{pre}(assert (< (+ a 1) a))")]);
        check(&inc, input, bb, &[]);
        check(
            &inc,
            input,
            "(< (+ a 1) bb)",
            &[&format!("{pre}(assert p)")],
        );
    }

    #[test]
    fn replace_by_variable_sees_bound_variables() {
        let input = "(declare-const a Int)\n(assert (forall ((zz Int)) (> (* a 2) zz)))";
        check(
            &ReplaceByVariable {
                mode: VariableMode::Inc,
            },
            input,
            "(* a 2)",
            &[
                "(declare-const a Int)\n(assert (forall ((zz Int)) (> a zz)))",
                "(declare-const a Int)\n(assert (forall ((zz Int)) (> zz zz)))",
            ],
        );
    }

    #[test]
    fn binary_reduction_removes_halves() {
        let input =
            "(set-logic QF_LIA)\n(assert true)\n(assert false)\n(push 1)\n(pop 1)\n(check-sat)";
        check_global(
            &BinaryReduction,
            input,
            &[
                "(set-logic QF_LIA)\n(push 1)\n(pop 1)\n(check-sat)",
                "(set-logic QF_LIA)\n(assert true)\n(assert false)\n(check-sat)",
            ],
        );
    }

    #[test]
    fn binary_reduction_keeps_used_declarations() {
        let input = "(declare-const x Int)\n(declare-const y Int)\n(assert (> y 0))\n(check-sat)";
        check_global(
            &BinaryReduction,
            input,
            &["(declare-const x Int)\n(declare-const y Int)"],
        );
    }

    #[test]
    fn sort_children_orders_commutative_arguments() {
        let input = with("(assert (= (+ (* x y) x) 2))");
        check(
            &SortChildren,
            &input,
            "(+ (* x y) x)",
            &[&with("(assert (= (+ x (* x y)) 2))")],
        );
        check(
            &SortChildren,
            &input,
            "(= (+ (* x y) x) 2)",
            &[&with("(assert (= 2 (+ (* x y) x)))")],
        );
        check(&SortChildren, &input, "(* x y)", &[]);
    }

    #[test]
    fn erase_node_removes_unused_declarations_at_once() {
        check_global(
            &EraseNode,
            "(declare-sort U 0)\n(declare-const u U)\n(declare-const x Int)\n(declare-const y Int)\n(assert (> x 0))\n(check-sat)",
            &["(declare-const x Int)\n(assert (> x 0))\n(check-sat)"],
        );
        // A single unused declaration is erased at its node.
        check_global(
            &EraseNode,
            "(declare-const x Int)\n(declare-const y Int)\n(assert (> x 0))",
            &[],
        );
    }

    /// Issue 24: the last-resort mutators reach what a property on the text keeps:
    /// `(assert (or b b))` can lose its `assert` and its arguments.
    #[test]
    fn last_resort_mutators_ignore_sorts_and_commands() {
        let input = "(assert (or b b))";
        check(&EraseAnyNode, input, "assert", &["((or b b))"]);
        check(
            &UnwrapAnyNode,
            input,
            "(assert (or b b))",
            &["assert", "(or b b)"],
        );
        assert!(EraseAnyNode.last_resort() && UnwrapAnyNode.last_resort());
        assert!(!EraseNode.last_resort());
    }
}
