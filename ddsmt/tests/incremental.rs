//! Incremental (push/pop) scripts: every candidate the reduction tries parses and keeps valid
//! scopes, and whole scopes go in few steps.

mod common;

use common::reduce_in_process;
use ddsmt::strategies::{scopes, Strategy};
use smtlib::Tree;
use std::sync::Mutex;

/// A script with nested scopes, several check-sats, and the line a property looks for deep in
/// the third scope.
fn script() -> String {
    let mut text = String::from("(set-logic QF_LIA)\n(declare-const x Int)\n");
    for i in 0..6 {
        text.push_str(&format!(
            "(push 1)\n(declare-const y{i} Int)\n(assert (> y{i} {i}))\n(push)\n(assert (< x {i}))\n(check-sat)\n(pop 1)\n"
        ));
        if i == 2 {
            text.push_str("(assert (= x 42))\n(check-sat)\n");
        }
        text.push_str("(check-sat)\n(pop)\n");
    }
    text
}

fn reduce_with(strategy: Strategy, keep: impl Fn(&str) -> bool + Sync) -> (String, Vec<String>) {
    let input = script();
    let seen = Mutex::new(Vec::new());
    let tester = |c: &[u8]| {
        let text = String::from_utf8(c.to_vec()).unwrap();
        let keeps = keep(&text);
        seen.lock().unwrap().push(text);
        keeps
    };
    assert!(scopes::scopes_are_valid(&Tree::parse(&input).unwrap()));
    let best = reduce_in_process(&input, strategy, &tester);
    let seen = std::mem::take(&mut *seen.lock().unwrap());
    (best, seen)
}

#[test]
fn every_candidate_parses_and_keeps_valid_scopes() {
    for strategy in [Strategy::Hybrid, Strategy::Ddmin, Strategy::Hierarchical] {
        // Needing a pop keeps some scope, so candidates that drop a push alone come up.
        let (best, seen) = reduce_with(strategy, |t| t.contains("(= x 42)") && t.contains("(pop"));
        assert!(!seen.is_empty());
        for c in &seen {
            let tree =
                Tree::parse(c).unwrap_or_else(|e| panic!("candidate does not parse: {e}\n{c}"));
            assert!(
                scopes::scopes_are_valid(&tree),
                "unbalanced candidate:\n{c}"
            );
        }
        assert!(best.contains("(= x 42)"), "{best}");
        assert!(
            !best.contains("y4"),
            "{strategy:?}: the other scopes are gone:\n{best}"
        );
    }
}

#[test]
fn a_scope_that_is_not_needed_goes_whole() {
    // The property needs two check-sats in one scope: scopes other than the third go whole.
    let (best, _) = reduce_with(Strategy::Hybrid, |t| {
        t.contains("(= x 42)") && t.matches("(check-sat)").count() >= 2
    });
    assert!(!best.contains("y0") && !best.contains("y5"), "{best}");
    assert!(scopes::scopes_are_valid(&Tree::parse(&best).unwrap()));
}
