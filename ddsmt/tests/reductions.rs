//! Reductions that must reach ddSMT 2's size or less (issue 24), on cvc5 regression files
//! of the repository's corpus (`smtlib/tests/smtlib-corpus/`) with properties evaluated in
//! process, so they run without a solver and the same way everywhere:
//!
//! - grep-style properties (the reduced text must still contain a pattern): the last-resort
//!   mutators reach past well-formed SMT-LIB, and a pattern only a comment holds is kept by
//!   the line stage;
//! - push/pop scripts whose check-sat answers must stay the same: adjacent scopes merge.
//!
//! The sizes ddSMT 2 (2.0.6) reaches on the same tasks are in the comments; the figures of the
//! real runs (with z3 and cvc5) are measured by `bench/ddsmt-vs-ddsmt2.sh`.

mod common;

use common::reduce_in_process;
use ddsmt::strategies::Strategy;
use smtlib::Tree;
use std::path::Path;

fn corpus(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../smtlib/tests/smtlib-corpus")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Reduces `input` with the default (hybrid) strategy while `keep` holds, as `ddsmt` does
/// (candidates parse and keep valid scopes); the result.
fn reduce(input: &str, keep: impl Fn(&str) -> bool + Sync) -> String {
    let tester = |c: &[u8]| std::str::from_utf8(c).is_ok_and(&keep);
    assert!(keep(input), "the property holds on the input");
    reduce_in_process(input, Strategy::Hybrid, &tester)
}

/// The answers of a toy solver that knows only `(assert false)`, `(assert true)`,
/// `(check-sat)`, `(push)` and `(pop)`, and ignores `set-logic`, `set-info`, `set-option`
/// and declarations: `unsat` while an `(assert false)` is in scope. Anything else is an
/// error (`None`), as a real solver would answer ill-formed input.
fn toy_answers(text: &str) -> Option<Vec<&'static str>> {
    let tree = Tree::parse(text).ok()?;
    let mut frames: Vec<bool> = vec![false];
    let mut answers = Vec::new();
    for &root in tree.roots() {
        let printed = tree.print_node(root);
        match printed.as_str() {
            "(assert false)" => *frames.last_mut()? = true,
            "(assert true)" => {}
            "(check-sat)" => answers.push(if frames.contains(&true) {
                "unsat"
            } else {
                "sat"
            }),
            "(push)" | "(push 1)" => frames.push(false),
            "(pop)" | "(pop 1)" if frames.len() > 1 => {
                frames.pop();
            }
            _ if matches!(
                tree.head(root),
                Some("set-logic" | "set-info" | "set-option" | "declare-fun" | "declare-const")
            ) => {}
            _ => return None,
        }
    }
    Some(answers)
}

/// A pattern in a term: ddSMT 2 reaches `(forall)` (9 bytes with its newline).
#[test]
fn grep_for_a_pattern_reaches_past_well_formed_smtlib() {
    let input = corpus("regress1__push-pop__quant-fun-proc-unmacro.smt2");
    let out = reduce(&input, |t| t.contains("or"));
    assert!(out.contains("or"));
    assert!(out.len() <= 9, "{} bytes:\n{out}", out.len());
}

/// A pattern in a `(or ...)` of a push/pop script: ddSMT 2 reaches `((or))` (7 bytes).
#[test]
fn grep_for_an_operator_keeps_only_the_operator() {
    let input = corpus("regress0__push-pop__boolean__fuzz_22.smt2");
    let out = reduce(&input, |t| t.contains("(or"));
    assert!(out.contains("(or"));
    assert!(out.len() <= 7, "{} bytes:\n{out}", out.len());
}

/// A pattern only a comment holds: the tree has no comments, so before the line stage
/// nothing could be removed at all; ddSMT 2 reaches 46 bytes.
#[test]
fn grep_for_a_pattern_in_a_comment_keeps_the_comment_line() {
    let input = corpus("regress0__bug1247.smt2");
    let out = reduce(&input, |t| t.contains("supported"));
    assert_eq!(out, ";; define-const is not supported in Alethe\n");
}

/// Two scopes that answer alike merge into one: ddSMT 2 reaches 7 commands.
#[test]
fn push_pop_answers_merge_adjacent_scopes() {
    let input = "(set-logic QF_UF)\n(declare-fun p () Bool)\n(check-sat)\n\
        (push 1)\n(assert false)\n(check-sat)\n(pop 1)\n\
        (push 1)\n(assert true)\n(assert false)\n(check-sat)\n(pop 1)\n\
        (push 1)\n(assert true)\n(check-sat)\n(pop 1)\n(check-sat)\n";
    let golden = toy_answers(input).unwrap();
    assert_eq!(golden, ["sat", "unsat", "unsat", "sat", "sat"]);
    let out = reduce(input, |t| toy_answers(t).as_deref() == Some(&golden[..]));
    let commands = Tree::parse(&out).unwrap().roots().len();
    assert!(commands <= 8, "{commands} commands:\n{out}");
    assert!(
        !out.contains("(assert true)") && !out.contains("set-logic"),
        "{out}"
    );
}
