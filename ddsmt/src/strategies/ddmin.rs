//! The ddmin strategy: [`commands`] removes top-level commands with the engine's ddmin; then
//! [`terms`] works through the tree level by level (depth 1 = arguments of commands), and for
//! each enabled mutator substitutes, with ddSMT's `substitute`, the first mutation of every
//! node of that level that the mutator applies to. Repeated until nothing changes.

use smtlib::{Edit, NodeId, Tree};

use super::edits::{print_without, EditSet};
use super::Session;
pub use crate::mutators::core::is_declaration;
use reduce::{ddmin as engine_ddmin, substitute};

/// ddmin over all top-level commands. Returns whether anything was removed.
pub fn commands(s: &mut Session) -> bool {
    commands_where(s, |_, _| true)
}

/// ddmin over the top-level commands that are not declarations or definitions, one command
/// kind at a time (every `assert`, then every `check-sat`, ...), as ddSMT's first round does:
/// dropping all commands of a kind at once is the cheapest large step, and removing a
/// declaration before the terms using it are gone mostly fails. Returns whether anything was
/// removed.
pub fn non_declarations(s: &mut Session) -> bool {
    let Some(cur) = s.current() else { return false };
    let mut kinds: Vec<String> = Vec::new();
    for &root in cur.tree.roots() {
        let head = cur.tree.head(root).unwrap_or_default();
        if !is_declaration(&cur.tree, root) && !kinds.iter().any(|k| k == head) {
            kinds.push(head.to_string());
        }
    }
    let mut progress = false;
    for kind in &kinds {
        progress |= commands_where(s, |tree, root| tree.head(root) == Some(kind.as_str()));
    }
    progress
}

/// ddmin over the top-level commands that `select` picks; the others stay.
fn commands_where(s: &mut Session, select: impl Fn(&Tree, NodeId) -> bool) -> bool {
    let Some(cur) = s.current() else { return false };
    s.reducer.set_phase("ddmin: commands");
    let roots: Vec<NodeId> = cur
        .tree
        .roots()
        .iter()
        .copied()
        .filter(|&r| select(&cur.tree, r))
        .collect();
    let before = s.reducer.successes();
    let print = s.print;
    let tree = &cur.tree;
    engine_ddmin(s.reducer, "ddmin-commands", roots.len(), |keep| {
        let dropped = roots.iter().zip(keep).filter(|(_, k)| !**k);
        Some(print_without(tree, dropped.map(|(&node, _)| node), &print))
    });
    s.reducer.successes() > before
}

/// The whole ddmin strategy: commands, then terms level by level, to a fixpoint.
pub fn run(s: &mut Session) {
    loop {
        let mut progress = commands(s);
        progress |= terms(s);
        if !progress || s.reducer.stopped() {
            return;
        }
    }
}

/// Nodes at `depth` below the roots (the roots have depth 0), in preorder.
fn level(tree: &Tree, depth: usize) -> Vec<NodeId> {
    let mut frontier: Vec<NodeId> = tree.roots().to_vec();
    for _ in 0..depth {
        frontier = frontier
            .iter()
            .flat_map(|&n| tree.children(n).iter().copied())
            .collect();
    }
    frontier
}

/// One sweep over all levels, top down. Returns whether anything changed.
pub fn terms(s: &mut Session) -> bool {
    let before = s.reducer.successes();
    let mut depth = 1;
    while let Some(cur) = s.current() {
        if level(&cur.tree, depth).is_empty() {
            break;
        }
        s.reducer
            .set_phase(&format!("ddmin: terms at depth {depth}"));
        for mi in 0..s.mutators.len() {
            if s.reducer.stopped() {
                return s.reducer.successes() > before;
            }
            let Some(cur) = s.current() else { break };
            let mutator = s.mutators[mi];
            let cx = cur.cx();
            let units: Vec<Vec<Edit>> = level(&cur.tree, depth)
                .into_iter()
                .filter(|&n| mutator.filter(&cx, n))
                .filter_map(|n| mutator.mutations(&cx, n).into_iter().next())
                .map(|m| m.edits)
                .collect();
            if units.is_empty() {
                continue;
            }
            let print = s.print;
            let tree = &cur.tree;
            substitute(s.reducer, mutator.name(), units.len(), |chosen| {
                let mut set = EditSet::default();
                let mut any = false;
                for (unit, _) in units.iter().zip(chosen).filter(|(_, c)| **c) {
                    any |= set.add(tree, unit);
                }
                any.then(|| tree.print_with_options(&set.edits, &print).into_bytes())
            });
        }
        depth += 1;
    }
    s.reducer.successes() > before
}
