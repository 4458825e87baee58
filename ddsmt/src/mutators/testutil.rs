//! Test helpers shared by the mutator tests: `check(mutator, input, selector, expected)` parses
//! `input`, finds the first node (in pre-order) that prints as `selector`, runs the mutator
//! there and compares the printed candidates with `expected`. When the input is well-sorted,
//! every candidate must be well-sorted too.

use super::{MutationInput, Mutator};
use smtlib::{infer_sorts, infer_sorts_lenient, NodeId, Tree};
use std::collections::BTreeSet;

fn parse(input: &str) -> Tree {
    Tree::parse(input).unwrap_or_else(|e| panic!("test input does not parse: {e}"))
}

/// The first node in pre-order whose printed text is `selector`; `"x @ (+ x 1)"` means the
/// first `x` inside the first node printed as `(+ x 1)`.
pub fn find(tree: &Tree, selector: &str) -> NodeId {
    let (target, scope) = match selector.split_once(" @ ") {
        Some((target, outer)) => (target, vec![find(tree, outer)]),
        None => (selector, tree.roots().to_vec()),
    };
    scope
        .iter()
        .flat_map(|&r| tree.preorder(r))
        .find(|&id| tree.print_node(id) == target)
        .unwrap_or_else(|| panic!("no node prints as {selector:?}"))
}

fn normalize(text: &str) -> String {
    text.lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

fn compare(input: &str, tree: &Tree, candidates: Vec<String>, expected: &[&str]) {
    let got: Vec<String> = candidates.iter().map(|c| normalize(c)).collect();
    let want: Vec<String> = expected.iter().map(|e| normalize(e)).collect();
    assert_eq!(got, want, "candidates differ for input:\n{input}");
    if infer_sorts(tree).is_ok() {
        for c in &got {
            let out =
                Tree::parse(c).unwrap_or_else(|e| panic!("candidate does not parse: {e}\n{c}"));
            if let Err(e) = infer_sorts(&out) {
                panic!("candidate is not well-sorted: {e}\n{c}");
            }
        }
    }
}

/// Runs `mutator` at the node printed as `selector` and compares the candidates.
pub fn check(mutator: &dyn Mutator, input: &str, selector: &str, expected: &[&str]) {
    let tree = parse(input);
    let sorts = infer_sorts_lenient(&tree);
    let cx = MutationInput {
        tree: &tree,
        sorts: &sorts,
    };
    let id = find(&tree, selector);
    let candidates = if mutator.filter(&cx, id) {
        mutator
            .mutations(&cx, id)
            .into_iter()
            .map(|m| tree.print_with(&m.edits))
            .collect()
    } else {
        Vec::new()
    };
    compare(input, &tree, candidates, expected);
}

/// Runs the global mutations of `mutator` and compares the candidates.
pub fn check_global(mutator: &dyn Mutator, input: &str, expected: &[&str]) {
    let tree = parse(input);
    let sorts = infer_sorts_lenient(&tree);
    let cx = MutationInput {
        tree: &tree,
        sorts: &sorts,
    };
    let candidates = mutator
        .global_mutations(&cx)
        .into_iter()
        .map(|m| tree.print_with(&m.edits))
        .collect();
    compare(input, &tree, candidates, expected);
}

/// Runs every mutator of the registry at every node (and globally) and returns a message for
/// each candidate that does not parse, or is ill-sorted although the input is well-sorted,
/// and the names of the mutators that proposed something.
pub fn sweep(input: &str) -> (Vec<String>, BTreeSet<&'static str>) {
    let tree = parse(input);
    let sorts = infer_sorts_lenient(&tree);
    let well_sorted = infer_sorts(&tree).is_ok();
    let cx = MutationInput {
        tree: &tree,
        sorts: &sorts,
    };
    let mut problems = Vec::new();
    let mut fired = BTreeSet::new();
    for m in super::registry() {
        let mut candidates: Vec<(String, super::Mutation)> = Vec::new();
        for &root in tree.roots() {
            for id in tree.preorder(root) {
                if m.filter(&cx, id) {
                    for mu in m.mutations(&cx, id) {
                        candidates.push((tree.print_node(id), mu));
                    }
                }
            }
        }
        for mu in m.global_mutations(&cx) {
            candidates.push(("<global>".to_string(), mu));
        }
        if !candidates.is_empty() {
            fired.insert(m.name());
        }
        for (at, mu) in candidates {
            let text = tree.print_with(&mu.edits);
            let problem = match Tree::parse(&text) {
                Err(e) => Some(format!("does not parse: {e}")),
                // Last-resort mutators ignore sorts by design; their candidates must parse.
                Ok(out) if well_sorted && !m.last_resort() => {
                    infer_sorts(&out).err().map(|e| format!("ill-sorted: {e}"))
                }
                Ok(_) => None,
            };
            if let Some(p) = problem {
                problems.push(format!("{} at {at} ({}): {p}", m.name(), mu.description));
            }
        }
    }
    (problems, fired)
}
