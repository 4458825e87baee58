//! Lexer, parser and printer of `smtlib`: data-driven `check` cases, located errors,
//! edits, layouts, the corpus round trip and a no-panic property.

use proptest::prelude::*;
use smtlib::{infer_sorts, infer_sorts_lenient, Atom, Edit, PrintOptions, Sx, Tree};
mod common;

use common::corpus_files;

/// Parses `input` and asserts that the faithful printer gives `expected`, and that the
/// printed text parses back to the same tree.
fn check(input: &str, expected: &str) {
    let tree = Tree::parse(input).unwrap_or_else(|e| panic!("parse of {input:?} failed: {e}"));
    let printed = tree.print();
    assert_eq!(printed, expected, "printing {input:?}");
    let again = Tree::parse(&printed).unwrap_or_else(|e| panic!("reparse failed: {e}"));
    assert!(tree.same_as(&again), "round trip changed {input:?}");
}

/// Asserts that parsing fails with exactly `expected` (`LINE:COL: message`).
fn check_error(input: &str, expected: &str) {
    match Tree::parse(input) {
        Ok(tree) => panic!("{input:?} parsed as {:?}", tree.print()),
        Err(e) => assert_eq!(e.to_string(), expected, "error for {input:?}"),
    }
}

#[test]
fn prints_every_syntax_element() {
    let cases = [
        ("", ""),
        ("; only a comment\n", ""),
        ("sat", "sat\n"),
        ("(check-sat) ; c\n(exit)", "(check-sat)\n(exit)\n"),
        ("(  assert\n\t(= x   y) )", "(assert (= x y))\n"),
        ("(declare-fun |a b| () Int)", "(declare-fun |a b| () Int)\n"),
        ("(declare-fun || () Int)", "(declare-fun || () Int)\n"),
        ("(echo \"say \"\"hi\"\"\")", "(echo \"say \"\"hi\"\"\")\n"),
        ("(echo \"two\nlines\")", "(echo \"two\nlines\")\n"),
        (
            "(f 0 42 3.14 0.0 #xDEADbeef #b0101)",
            "(f 0 42 3.14 0.0 #xDEADbeef #b0101)\n",
        ),
        ("((_ extract 7 0) x)", "((_ extract 7 0) x)\n"),
        ("(as const (Array Int Int))", "(as const (Array Int Int))\n"),
        (
            "(let ((a 1) (b 2)) (+ a b))",
            "(let ((a 1) (b 2)) (+ a b))\n",
        ),
        (
            "(forall ((x Int)) (! (> x 0) :pattern ((f x))))",
            "(forall ((x Int)) (! (> x 0) :pattern ((f x))))\n",
        ),
        (
            "(match l ((nil 0) ((cons h t) h)))",
            "(match l ((nil 0) ((cons h t) h)))\n",
        ),
        ("(! p :named a1)", "(! p :named a1)\n"),
        (
            "(set-info :source |multi\nline|)",
            "(set-info :source |multi\nline|)\n",
        ),
        ("(a)(b)", "(a)\n(b)\n"),
        ("()", "()\n"),
        ("x;comment", "x\n"),
        ("(a;c\nb)", "(a b)\n"),
        (
            "(model (define-fun x () Int (- 1)))",
            "(model (define-fun x () Int (- 1)))\n",
        ),
        ("((x 1) (y (_ bv3 8)))", "((x 1) (y (_ bv3 8)))\n"),
        ("(get-info :reason-unknown)", "(get-info :reason-unknown)\n"),
        ("+ - <= ~!@$%^&*_-+=<>.?/", "+\n-\n<=\n~!@$%^&*_-+=<>.?/\n"),
        ("\"\"\"\"", "\"\"\"\"\n"),
        ("\r\n(a)\r\n", "(a)\n"),
        ("\u{FEFF}(a)", "(a)\n"),
    ];
    for (input, expected) in cases {
        check(input, expected);
    }
}

#[test]
fn atoms_keep_their_kind_and_text() {
    let tree = Tree::parse("(f |q s| :k 7 7.5 #x0F #b01 \"s\"\"\")").unwrap();
    let list = tree.roots()[0];
    let atoms: Vec<&Atom> = tree
        .children(list)
        .iter()
        .map(|&c| tree.atom(c).unwrap())
        .collect();
    assert_eq!(
        atoms,
        [
            &Atom::Symbol("f".into()),
            &Atom::Symbol("|q s|".into()),
            &Atom::Keyword(":k".into()),
            &Atom::Numeral("7".into()),
            &Atom::Decimal("7.5".into()),
            &Atom::Hexadecimal("#x0F".into()),
            &Atom::Binary("#b01".into()),
            &Atom::String("\"s\"\"\"".into()),
        ]
    );
    assert_eq!(tree.head(list), Some("f"));
    assert_eq!(tree.len(), 9);
    for &c in tree.children(list) {
        assert_eq!(tree.parent(c), Some(list));
    }
}

#[test]
fn positions_are_line_and_character_column() {
    let tree = Tree::parse("(a\n  (b \"é\nx\" c))\n |é| d").unwrap();
    let pos: Vec<String> = tree
        .preorder(tree.roots()[0])
        .chain(tree.preorder(tree.roots()[1]))
        .chain(tree.preorder(tree.roots()[2]))
        .map(|id| tree.pos(id).to_string())
        .collect();
    assert_eq!(
        pos,
        ["1:1", "1:2", "2:3", "2:4", "2:6", "3:4", "4:2", "4:6"]
    );
}

#[test]
fn errors_are_located_and_say_what_was_expected() {
    let cases = [
        ("(assert (= x y)", "1:1: unbalanced parentheses: expected ')' before the end of input to close this '(' (1 still open)"),
        ("(a\n (b", "2:2: unbalanced parentheses: expected ')' before the end of input to close this '(' (2 still open)"),
        ("(a))", "1:4: unbalanced parentheses: unexpected ')' with no open '('"),
        ("(echo \"abc)", "1:7: unterminated string literal: expected a closing '\"'"),
        ("\n  |abc", "2:3: unterminated quoted symbol: expected a closing '|'"),
        ("(f #x)", "1:6: bad #x literal: expected at least one hexadecimal digit"),
        ("(f #x1G)", "1:7: bad #x literal: 'G' is not a hexadecimal digit"),
        ("(f #b012)", "1:8: bad #b literal: '2' is not a binary digit"),
        ("(f #o7)", "1:4: bad literal: expected 'x' or 'b' after '#' (#x hexadecimal or #b binary)"),
        ("(f 1.)", "1:6: bad decimal: expected a digit after '.'"),
        ("(f 12ab)", "1:6: unexpected 'a' in a numeral; expected whitespace or a parenthesis after it"),
        ("(f : x)", "1:4: expected a keyword name after ':'"),
        ("(f [x])", "1:4: unexpected character '['; expected '(', ')', a symbol, a keyword, a literal or a comment"),
        ("\u{FEFF}(a", "1:1: unbalanced parentheses: expected ')' before the end of input to close this '(' (1 still open)"),
        ("(é)", "1:2: unexpected character 'é'; expected '(', ')', a symbol, a keyword, a literal or a comment"),
        ("\"multi\nline\" (", "2:7: unbalanced parentheses: expected ')' before the end of input to close this '(' (1 still open)"),
    ];
    for (input, expected) in cases {
        check_error(input, expected);
    }
}

#[test]
fn error_names_the_file() {
    let e = Tree::parse("(").unwrap_err();
    assert!(e.in_file("a.smt2").starts_with("a.smt2:1:1: unbalanced"));
}

#[test]
fn edits_replace_delete_and_reuse_nodes() {
    let tree = Tree::parse("(assert (and (> x 0) (< y 1)))\n(check-sat)").unwrap();
    let assert = tree.roots()[0];
    let and = tree.children(assert)[1];
    let gt = tree.children(and)[1];
    let lt = tree.children(and)[2];
    // Replace the conjunction by its second conjunct.
    let edits = [Edit {
        node: and,
        replacement: Some(Sx::Node(lt)),
    }];
    assert_eq!(tree.print_with(&edits), "(assert (< y 1))\n(check-sat)\n");
    // Delete a conjunct and a whole command.
    let edits = [
        Edit {
            node: gt,
            replacement: None,
        },
        Edit {
            node: tree.roots()[1],
            replacement: None,
        },
    ];
    assert_eq!(tree.print_with(&edits), "(assert (and (< y 1)))\n");
    // New material around an existing node whose own inside is edited too.
    let x = tree.children(gt)[1];
    let edits = [
        Edit {
            node: gt,
            replacement: Some(Sx::List(vec![Sx::atom("not"), Sx::Node(gt)])),
        },
        Edit {
            node: x,
            replacement: Some(Sx::atom("z")),
        },
    ];
    assert_eq!(
        tree.print_with(&edits),
        "(assert (and (not (> z 0)) (< y 1)))\n(check-sat)\n"
    );
    // An edit that contains its own ancestor terminates and prints the original there.
    let edits = [Edit {
        node: x,
        replacement: Some(Sx::Node(assert)),
    }];
    assert_eq!(
        tree.print_with(&edits),
        "(assert (and (> (assert (and (> x 0) (< y 1))) 0) (< y 1)))\n(check-sat)\n"
    );
    assert_eq!(tree.print_with(&[]), tree.print());
    assert_eq!(
        tree.print_sx(&Sx::List(vec![Sx::atom("f"), Sx::Node(lt)])),
        "(f (< y 1))\n"
    );
    assert_eq!(
        tree.to_sx(lt),
        Sx::List(vec![Sx::atom("<"), Sx::atom("y"), Sx::atom("1")])
    );
}

#[test]
fn pretty_printing_indents_long_lists_and_keeps_the_tree() {
    let input = "(assert (and (> some_long_variable_name 0) (< another_long_variable_name 1) (= third_variable (+ a b))))\n(check-sat)";
    let tree = Tree::parse(input).unwrap();
    let pretty = tree.print_options(&PrintOptions::pretty());
    assert_eq!(
        pretty,
        "(assert\n  (and\n    (> some_long_variable_name 0)\n    (< another_long_variable_name 1)\n    (= third_variable (+ a b))))\n(check-sat)\n"
    );
    assert!(tree.same_as(&Tree::parse(&pretty).unwrap()));
}

#[test]
fn wrapping_breaks_lines_between_tokens() {
    let tree = Tree::parse("(assert (and (> x 0) (< y 1) (= z 2)))").unwrap();
    let wrapped = tree.print_options(&PrintOptions::wrapped(16));
    assert_eq!(wrapped, "(assert (and (>\nx 0) (< y 1) (=\nz 2)))\n");
    assert!(wrapped.lines().all(|l| l.len() <= 16));
    assert!(tree.same_as(&Tree::parse(&wrapped).unwrap()));
}

#[test]
fn deep_nesting_does_not_overflow() {
    let depth = 50_000;
    let text = format!("{}x{}", "(not ".repeat(depth), ")".repeat(depth));
    let tree = Tree::parse(&text).unwrap();
    let printed = tree.print();
    assert_eq!(printed.trim_end(), text);
    assert!(tree.same_as(&Tree::parse(&printed).unwrap()));
    assert_eq!(tree.preorder(tree.roots()[0]).count(), 2 * depth + 1);
    let pretty = tree.print_options(&PrintOptions::pretty());
    assert!(tree.same_as(&Tree::parse(&pretty).unwrap()));
}

#[test]
fn corpus_parses_prints_and_reparses_to_the_same_tree() {
    let files = corpus_files();
    assert!(files.len() >= 30, "only {} corpus files", files.len());
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let name = file.display();
        let tree =
            Tree::parse(&text).unwrap_or_else(|e| panic!("{}", e.in_file(&name.to_string())));
        assert!(!tree.roots().is_empty(), "{name} is empty");
        for options in [
            PrintOptions::default(),
            PrintOptions::pretty(),
            PrintOptions::wrapped(60),
        ] {
            let printed = tree.print_options(&options);
            let again = Tree::parse(&printed).unwrap_or_else(|e| panic!("{name} reprinted: {e}"));
            assert!(
                tree.same_as(&again),
                "{name} changed by printing with {options:?}"
            );
        }
        assert_eq!(tree.print(), tree.print_options(&PrintOptions::default()));
    }
}

proptest! {
    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(tree) = Tree::parse(&text) {
            let again = Tree::parse(&tree.print()).unwrap();
            prop_assert!(tree.same_as(&again));
        }
    }

    #[test]
    fn random_smtlib_like_text_never_panics(text in "[()|\";:#xb0-9a-z. \n\\\\é]{0,120}") {
        match Tree::parse(&text) {
            Ok(tree) => {
                let again = Tree::parse(&tree.print()).unwrap();
                prop_assert!(tree.same_as(&again));
                let pretty = Tree::parse(&tree.print_options(&PrintOptions::pretty())).unwrap();
                prop_assert!(tree.same_as(&pretty));
            }
            Err(e) => {
                prop_assert!(e.line >= 1 && e.column >= 1);
                prop_assert!(!e.message.is_empty());
            }
        }
    }

    /// Random S-expressions over SMT-LIB keywords, theory symbols and literals: parsing,
    /// printing and both sort inferences never panic, and strict success implies the
    /// lenient variant typed everything too.
    #[test]
    fn random_scripts_never_panic(script in random_script()) {
        let tree = Tree::parse(&script).unwrap();
        prop_assert!(tree.same_as(&Tree::parse(&tree.print()).unwrap()));
        let lenient = infer_sorts_lenient(&tree);
        if let Ok(strict) = infer_sorts(&tree) {
            prop_assert!(lenient.untyped_terms().is_empty());
            prop_assert_eq!(strict.n_typed(), lenient.n_typed());
        }
    }
}

/// One random S-expression of bounded depth over a vocabulary that hits every command and
/// binder of the sort inference, well-formed or not.
fn random_sx() -> impl Strategy<Value = String> {
    let atoms = prop::sample::select(vec![
        "assert",
        "declare-fun",
        "declare-const",
        "define-fun",
        "define-fun-rec",
        "define-funs-rec",
        "declare-sort",
        "define-sort",
        "declare-datatype",
        "declare-datatypes",
        "par",
        "push",
        "pop",
        "reset",
        "reset-assertions",
        "check-sat-assuming",
        "get-value",
        "model",
        "let",
        "forall",
        "exists",
        "lambda",
        "match",
        "!",
        ":named",
        ":pattern",
        "_",
        "as",
        "const",
        "x",
        "y",
        "f",
        "Int",
        "Real",
        "Bool",
        "BitVec",
        "Array",
        "Seq",
        "String",
        "and",
        "=",
        "+",
        "ite",
        "select",
        "store",
        "extract",
        "bvadd",
        "concat",
        "fp.add",
        "RNE",
        "to_fp",
        "str.++",
        "re.*",
        "seq.unit",
        "is",
        "0",
        "1",
        "4294967296",
        "2.5",
        "#x0f",
        "#b1",
        "\"s\"",
        "|q x|",
    ])
    .prop_map(str::to_string);
    atoms.prop_recursive(5, 40, 5, |inner| {
        prop::collection::vec(inner, 0..5).prop_map(|items| format!("({})", items.join(" ")))
    })
}

fn random_script() -> impl Strategy<Value = String> {
    let declarations = Just(
        "(declare-fun x () Int)(declare-fun f (Int) Int)(declare-datatype D ((c (s Int)) (n)))"
            .to_string(),
    );
    (declarations, prop::collection::vec(random_sx(), 1..8))
        .prop_map(|(decls, commands)| format!("{decls}\n{}", commands.join("\n")))
}
