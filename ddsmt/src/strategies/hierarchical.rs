//! The hierarchical strategy: passes over the tree, top down (preorder). At each node every
//! enabled mutator proposes its mutations (mutators in registry order, each mutator's
//! mutations most reducing first); the first candidate that keeps the behaviour is accepted,
//! the result is re-parsed with fresh sorts, and the pass continues at the same position
//! (which now holds the replacement). Passes repeat until one accepts nothing.
//!
//! Order within a pass: first the commands that are not declarations (with all their terms),
//! then the global mutations (e.g. removing many commands at once, renaming symbols), then the
//! declarations and the header commands (`set-logic`, `set-info`, `set-option`). Declarations
//! come last because deleting one only works once the terms that use it are gone, and symbols
//! are renamed only once most of them have been removed; header commands because removing one
//! mostly changes the behaviour, which is cheapest to learn once the input is small.
//!
//! Last resort: at the fixpoint, the mutators that ignore sorts and the shape of commands
//! (`Mutator::last_resort`: erase any node, replace a list by any item) sweep the tree once;
//! most of their candidates are not well-formed SMT-LIB, so they only pay off for properties
//! that do not need a solver to accept the input (a pattern in the input, an error), and are
//! tried only when nothing well-formed is left to try.

use smtlib::NodeId;

use super::ddmin::is_declaration;
use super::{Current, Session};
use crate::mutators::Mutation;
use reduce::Candidate;

/// Run passes to the fixpoint; then the last-resort mutators (which ignore sorts and the
/// shape of commands) get a sweep of their own, and while they change something the passes
/// run to the fixpoint again.
pub fn run(s: &mut Session) {
    let mut pass = 1;
    loop {
        s.reducer.set_phase(&format!("hierarchical: pass {pass}"));
        let before = s.reducer.successes();
        with_mutators(s, false, |s| {
            nodes(s, false);
            global(s);
            nodes(s, true);
        });
        pass += 1;
        if s.reducer.stopped() {
            return;
        }
        if s.reducer.successes() != before {
            continue;
        }
        s.reducer.set_phase("hierarchical: last resort");
        let before = s.reducer.successes();
        with_mutators(s, true, |s| {
            nodes(s, false);
            nodes(s, true);
        });
        if s.reducer.successes() == before || s.reducer.stopped() {
            return;
        }
    }
}

/// Runs `body` with only the last-resort mutators (`last_resort`) or only the others enabled.
fn with_mutators(s: &mut Session, last_resort: bool, body: impl FnOnce(&mut Session)) {
    let all = s.mutators.clone();
    s.mutators.retain(|m| m.last_resort() == last_resort);
    if !s.mutators.is_empty() {
        body(s);
    }
    s.mutators = all;
}

/// Candidates `(mutator name, mutation)`, in trying order.
type Proposals = Vec<(&'static str, Mutation)>;

/// Try `proposals` on `cur`; true if one was accepted.
fn try_proposals(s: &mut Session, cur: &Current, proposals: &Proposals) -> bool {
    let print = s.print;
    s.reducer
        .first_success(proposals.len(), |i| {
            let (name, m) = &proposals[i];
            Some(Candidate::new(
                *name,
                cur.tree.print_with_options(&m.edits, &print),
            ))
        })
        .is_some()
}

/// Global mutations of all mutators, until none is accepted.
fn global(s: &mut Session) {
    while !s.reducer.stopped() {
        let Some(cur) = s.current() else { return };
        let cx = cur.cx();
        let proposals: Proposals = s
            .mutators
            .iter()
            .flat_map(|m| {
                m.global_mutations(&cx)
                    .into_iter()
                    .map(move |mu| (m.name(), mu))
            })
            .collect();
        if proposals.is_empty() || !try_proposals(s, &cur, &proposals) {
            return;
        }
    }
}

/// One preorder sweep over the nodes of the commands that come last (`last`, see
/// [`preorder`]) or of all other commands.
fn nodes(s: &mut Session, last: bool) {
    let Some(mut cur) = s.current() else { return };
    let mut order = preorder(&cur, last);
    let mut i = 0;
    while i < order.len() && !s.reducer.stopped() {
        let node = order[i];
        let cx = cur.cx();
        let proposals: Proposals = s
            .mutators
            .iter()
            .filter(|m| m.filter(&cx, node))
            .flat_map(|m| {
                m.mutations(&cx, node)
                    .into_iter()
                    .map(move |mu| (m.name(), mu))
            })
            .collect();
        if !proposals.is_empty() && try_proposals(s, &cur, &proposals) {
            match s.current() {
                Some(next) => cur = next,
                None => return,
            }
            order = preorder(&cur, last);
            // Stay at `i`: it now holds the replacement (or the next node, after a deletion).
        } else {
            i += 1;
        }
    }
}

/// The nodes of the commands that come last (`last`: declarations and header commands) or of
/// all other commands, in preorder.
fn preorder(cur: &Current, last: bool) -> Vec<NodeId> {
    let comes_last = |r: NodeId| {
        is_declaration(&cur.tree, r)
            || matches!(
                cur.tree.head(r),
                Some("set-logic" | "set-info" | "set-option")
            )
    };
    cur.tree
        .roots()
        .iter()
        .filter(|&&r| comes_last(r) == last)
        .flat_map(|&r| cur.tree.preorder(r))
        .collect()
}
