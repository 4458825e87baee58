//! Incremental scripts: `push`/`pop` scopes.
//!
//! - [`scopes_are_valid`]: no `pop` takes more levels than are open. Every candidate ddsmt
//!   tries keeps this when the input has it ([`admissible`] is the reducer's filter), so no
//!   intermediate or final output ends with unmatched `(pop)`s.
//! - [`scopes`]: a pass that works on whole scopes first: ddmin over the scopes (a `push`, its
//!   matching `pop` and everything between), then over matched `push`/`pop` pairs alone
//!   (their contents move to the enclosing level). Big, always-valid cuts before the
//!   command-by-command ddmin.

use smtlib::{NodeId, Tree};

use super::edits::print_without;
use super::Session;
use reduce::ddmin as engine_ddmin;

/// Levels a `push`/`pop` command opens or closes (`(push)` = 1); `None` for other commands
/// and for a level count that is not a numeral.
fn levels(tree: &Tree, root: NodeId) -> Option<(bool, u64)> {
    let push = match tree.head(root)? {
        "push" => true,
        "pop" => false,
        _ => return None,
    };
    let n = match tree.children(root).get(1) {
        None => 1,
        Some(&arg) => tree.atom(arg)?.text().parse().ok()?,
    };
    Some((push, n))
}

/// Whether no `pop` in `tree` closes more levels than are open (`reset` closes all).
pub fn scopes_are_valid(tree: &Tree) -> bool {
    let mut depth: u64 = 0;
    for &root in tree.roots() {
        if tree.head(root) == Some("reset") {
            depth = 0;
            continue;
        }
        match levels(tree, root) {
            Some((true, n)) => depth = depth.saturating_add(n),
            Some((false, n)) => match depth.checked_sub(n) {
                Some(d) => depth = d,
                None => return false,
            },
            None => {}
        }
    }
    true
}

/// The reducer's filter for inputs whose scopes are valid: a candidate must parse and keep
/// its scopes valid.
pub fn admissible(text: &[u8]) -> bool {
    std::str::from_utf8(text)
        .ok()
        .and_then(|t| Tree::parse(t).ok())
        .is_some_and(|tree| scopes_are_valid(&tree))
}

/// Matched scopes as (index of the `push`, index of its `pop`) among the roots, outermost
/// first; only `(push)`/`(push 1)` and `(pop)`/`(pop 1)` pair up.
pub fn matched_scopes(tree: &Tree) -> Vec<(usize, usize)> {
    let mut open: Vec<usize> = Vec::new();
    let mut pairs = Vec::new();
    for (i, &root) in tree.roots().iter().enumerate() {
        match levels(tree, root) {
            Some((true, 1)) => open.push(i),
            Some((false, 1)) => {
                if let Some(p) = open.pop() {
                    pairs.push((p, i));
                }
            }
            // Multi-level push/pop or reset: scopes across it are left alone.
            Some(_) => open.clear(),
            None if tree.head(root) == Some("reset") => open.clear(),
            None => {}
        }
    }
    pairs.sort_by_key(|&(p, q)| (p, std::cmp::Reverse(q)));
    pairs
}

/// ddmin over whole scopes, then over bare push/pop pairs. Returns whether anything changed.
pub fn scopes(s: &mut Session) -> bool {
    let before = s.reducer.successes();
    for (pass, whole) in [("ddmin-scopes", true), ("ddmin-push-pop-pairs", false)] {
        let Some(cur) = s.current() else { break };
        let pairs = matched_scopes(&cur.tree);
        if pairs.is_empty() || s.reducer.stopped() {
            break;
        }
        s.reducer.set_phase(&format!("ddmin: {pass}"));
        let print = s.print;
        let tree = &cur.tree;
        let roots = tree.roots();
        engine_ddmin(s.reducer, pass, pairs.len(), |keep| {
            let mut drop = vec![false; roots.len()];
            for (&(p, q), _) in pairs.iter().zip(keep).filter(|(_, k)| !**k) {
                if whole {
                    drop[p..=q].iter_mut().for_each(|d| *d = true);
                } else {
                    drop[p] = true;
                    drop[q] = true;
                }
            }
            let dropped = roots.iter().zip(&drop).filter(|(_, d)| **d);
            Some(print_without(tree, dropped.map(|(&node, _)| node), &print))
        });
    }
    s.reducer.successes() > before
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(text: &str) -> Tree {
        Tree::parse(text).unwrap()
    }

    #[test]
    fn pops_never_close_more_than_is_open() {
        assert!(scopes_are_valid(&tree("(push)(push 2)(pop 3)(push)")));
        assert!(!scopes_are_valid(&tree("(push)(pop)(pop)")));
        assert!(!scopes_are_valid(&tree("(push 1)(pop 2)")));
        assert!(scopes_are_valid(&tree("(push)(reset)(assert true)")));
        assert!(!scopes_are_valid(&tree("(push)(reset)(pop)")));
    }

    #[test]
    fn scopes_pair_up_outermost_first() {
        let t = tree("(push)(assert a)(push)(check-sat)(pop)(pop)(push 1)(pop 1)");
        assert_eq!(matched_scopes(&t), vec![(0, 5), (2, 4), (6, 7)]);
    }
}
