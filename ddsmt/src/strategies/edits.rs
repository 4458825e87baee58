//! Combining the edits of several mutations into one candidate. Mutations chosen together
//! must not touch overlapping subtrees (one edited node inside another edited node); a
//! mutation that would is left out, so the earlier one wins ([`EditSet`]).

use std::collections::HashSet;

use smtlib::{Edit, NodeId, PrintOptions, Tree};

/// Edits of non-overlapping mutations.
#[derive(Default)]
pub struct EditSet {
    pub edits: Vec<Edit>,
    /// Edited nodes.
    touched: HashSet<NodeId>,
    /// Edited nodes and all their ancestors.
    covered: HashSet<NodeId>,
}

impl EditSet {
    /// Add all of `edits`, or none of them if one overlaps an edit already in the set.
    /// Returns whether they were added.
    pub fn add(&mut self, tree: &Tree, edits: &[Edit]) -> bool {
        let overlaps = edits.iter().any(|e| {
            self.covered.contains(&e.node)
                || ancestors(tree, e.node).any(|a| self.touched.contains(&a))
        });
        if overlaps {
            return false;
        }
        for e in edits {
            self.touched.insert(e.node);
            self.covered.insert(e.node);
            self.covered.extend(ancestors(tree, e.node));
        }
        self.edits.extend(edits.iter().cloned());
        true
    }
}

/// `tree` printed with `print` without the nodes of `dropped`: the candidate of a ddmin pass
/// over top-level commands.
pub fn print_without(
    tree: &Tree,
    dropped: impl IntoIterator<Item = NodeId>,
    print: &PrintOptions,
) -> Vec<u8> {
    let edits: Vec<Edit> = dropped
        .into_iter()
        .map(|node| Edit {
            node,
            replacement: None,
        })
        .collect();
    tree.print_with_options(&edits, print).into_bytes()
}

/// Strict ancestors of `node`, nearest first.
fn ancestors(tree: &Tree, node: NodeId) -> impl Iterator<Item = NodeId> + '_ {
    std::iter::successors(tree.parent(node), move |&p| tree.parent(p))
}
