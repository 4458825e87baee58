//! Reading terms: names, heads, arguments, indexed operators, sorts, sizes and positions.

use super::*;
use crate::mutators::MutationInput;
use smtlib::Sort;
use smtlib::{Atom, NodeId, Tree};

/// The name of a symbol node without `|...|` quotes (`|x|` and `x` are the same symbol).
pub fn name(tree: &Tree, id: NodeId) -> Option<&str> {
    tree.symbol(id).map(unquote)
}

/// The text of an atom node.
pub fn text(tree: &Tree, id: NodeId) -> Option<&str> {
    tree.atom(id).map(Atom::text)
}

/// The head symbol of an application `(f args...)`; `None` for atoms, `(_ ...)` and
/// applications of indexed operators.
pub fn head(tree: &Tree, id: NodeId) -> Option<&str> {
    tree.head(id).filter(|&h| h != "_")
}

/// The arguments of a list whose first child is its head (`(f a b)` -> `[a, b]`).
pub fn args(tree: &Tree, id: NodeId) -> &[NodeId] {
    let children = tree.children(id);
    if tree.is_list(id) && !children.is_empty() {
        &children[1..]
    } else {
        &[]
    }
}

/// The arguments of `id` if it is an application of `op` to exactly `N` arguments.
pub fn app_args<'t, const N: usize>(
    tree: &'t Tree,
    id: NodeId,
    op: &str,
) -> Option<&'t [NodeId; N]> {
    if is_app(tree, id, op) {
        args(tree, id).try_into().ok()
    } else {
        None
    }
}

/// Whether `id` is an application of `op` (a plain head symbol).
pub fn is_app(tree: &Tree, id: NodeId, op: &str) -> bool {
    head(tree, id) == Some(op)
}

/// The `y` of `(op (op y))` with `op` one of `ops`: a double negation such as
/// `(not (not y))`.
pub fn double_application(tree: &Tree, id: NodeId, ops: [&str; 2]) -> Option<NodeId> {
    let op = head(tree, id).filter(|op| ops.contains(op))?;
    let [x] = args(tree, id) else {
        return None;
    };
    match args(tree, *x) {
        [y] if is_app(tree, *x, op) => Some(*y),
        _ => None,
    }
}

/// An indexed identifier `(_ name i j ...)`: its name and indices as written.
pub fn indexed(tree: &Tree, id: NodeId) -> Option<(&str, Vec<&str>)> {
    if tree.head(id) != Some("_") {
        return None;
    }
    let children = tree.children(id);
    let name = tree.symbol(*children.get(1)?)?;
    let indices = children[2..]
        .iter()
        .map(|&c| text(tree, c))
        .collect::<Option<Vec<_>>>()?;
    Some((name, indices))
}

/// An application of an indexed operator `((_ name i...) args...)` with numeral indices.
pub fn indexed_op(tree: &Tree, id: NodeId) -> Option<(&str, Vec<u32>, &[NodeId])> {
    let first = *tree.children(id).first()?;
    if !tree.is_list(id) {
        return None;
    }
    let (name, indices) = indexed(tree, first)?;
    let indices = indices
        .iter()
        .map(|i| i.parse().ok())
        .collect::<Option<Vec<u32>>>()?;
    Some((name, indices, args(tree, id)))
}

pub fn sort<'a>(cx: &'a MutationInput, id: NodeId) -> Option<&'a Sort> {
    cx.sorts.get(id)
}

/// Whether `id` is a term whose sort is known (not a function head, not the name a binder
/// or a parameter list introduces).
pub fn is_term(cx: &MutationInput, id: NodeId) -> bool {
    let tree = cx.tree;
    if cx.sorts.get(id).is_none() {
        return false;
    }
    let Some(parent) = tree.parent(id) else {
        return false;
    };
    if child_index(tree, id) != Some(0) {
        return true;
    }
    if cx.sorts.get(parent).is_some() {
        return false;
    }
    // `(x t)` in a binder's list or a definition's parameter list.
    let declaring = tree
        .parent(parent)
        .and_then(|list| tree.parent(list))
        .is_some_and(|b| {
            matches!(
                tree.head(b),
                Some("let" | "forall" | "exists" | "lambda" | "define-fun" | "define-fun-rec")
            )
        });
    !declaring
}

/// The number of nodes of the subtree at `id`.
pub fn size(tree: &Tree, id: NodeId) -> usize {
    tree.preorder(id).count()
}

/// The top-level command containing `id`.
pub fn root_of(tree: &Tree, mut id: NodeId) -> NodeId {
    while let Some(p) = tree.parent(id) {
        id = p;
    }
    id
}

/// The position of a root among the top-level commands.
pub fn root_index(tree: &Tree, root: NodeId) -> Option<usize> {
    tree.roots().iter().position(|&r| r == root)
}

/// The index of `id` among its parent's children.
pub fn child_index(tree: &Tree, id: NodeId) -> Option<usize> {
    let parent = tree.parent(id)?;
    tree.children(parent).iter().position(|&c| c == id)
}
