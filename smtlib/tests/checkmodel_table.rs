//! The model checker on a table of (problem, response, expected verdict) cases: division by
//! zero and its extensions, bit-vector corner cases, arrays, UF tables, lets, push/pop scopes,
//! named terms, strings, response formats. Every case asserts its verdict; a few also assert
//! what the report says.

use smtlib::eval::{check_files, check_texts, Limits, Outcome, Report, Verdict};

/// What a case expects: a verdict, or an error whose message contains the text.
#[derive(Debug)]
enum Expect {
    V(Verdict),
    Error(&'static str),
}
use Expect::*;
const VALID: Expect = V(Verdict::Valid);
const INVALID: Expect = V(Verdict::Invalid);
const INCOMPLETE: Expect = V(Verdict::Incomplete);

fn run(problem: &str, response: &str) -> Result<Report, String> {
    check_texts(problem, "p.smt2", response, "r.txt", Limits::default()).map_err(|e| e.to_string())
}

/// A problem with `decls`, one assertion per entry of `asserts`, and one check-sat.
fn one_check(decls: &str, asserts: &[&str]) -> String {
    let mut p = format!("(set-logic ALL)\n{decls}\n");
    for a in asserts {
        p.push_str(&format!("(assert {a})\n"));
    }
    p.push_str("(check-sat)\n(get-model)\n");
    p
}

fn sat(defs: &str) -> String {
    format!("sat\n(\n{defs}\n)\n")
}

struct Case {
    name: &'static str,
    problem: String,
    response: String,
    expect: Expect,
}

fn case(name: &'static str, problem: String, response: String, expect: Expect) -> Case {
    Case {
        name,
        problem,
        response,
        expect,
    }
}

fn cases() -> Vec<Case> {
    let ints = "(declare-fun x () Int) (declare-fun y () Int) (declare-fun z () Int)";
    let bv8 = "(declare-fun s () (_ BitVec 8)) (declare-fun t () (_ BitVec 8))";
    let reals = "(declare-fun r () Real) (declare-fun q () Real)";
    let arr = "(declare-fun a () (Array Int Int)) (declare-fun b () (Array Int Int))";
    let dolmen = "(declare-fun a () Int) (declare-fun b () Int) (declare-fun c () Int) (declare-fun d () Int) (declare-fun z () Int)";
    let dolmen_asserts = [
        "(= z 0)",
        "(= c (div a z))",
        "(= d (div b z))",
        "(not (= c d))",
    ];
    vec![
        // --- Core and integer arithmetic
        case("ints valid", one_check(ints, &["(= (+ x y) z)", "(> z 2)"]),
            sat("(define-fun x () Int 1) (define-fun y () Int 2) (define-fun z () Int 3)"), VALID),
        case("ints invalid", one_check(ints, &["(= (+ x y) z)"]),
            sat("(define-fun x () Int 1) (define-fun y () Int 2) (define-fun z () Int 4)"), INVALID),
        case("negative literal in model", one_check(ints, &["(< x (- 5))"]),
            sat("(define-fun x () Int (- 6))"), VALID),
        case("euclidean div and mod of negatives", one_check(ints, &["(= (div x 2) (- 4))", "(= (mod x 2) 1)", "(= (div x (- 2)) 4)"]),
            sat("(define-fun x () Int (- 7))"), VALID),
        case("missing value decides nothing", one_check(ints, &["(or (> x 0) (= y y))"]),
            sat("(define-fun x () Int 1)"), VALID),
        case("missing value decides the assertion", one_check(ints, &["(> y 0)"]),
            sat("(define-fun x () Int 1)"), INCOMPLETE),
        case("ite with open condition but equal branches", one_check(ints, &["(= (ite (> y 0) 3 3) 3)"]),
            sat("(define-fun x () Int 1)"), VALID),
        case("xor and distinct", one_check(ints, &["(xor (= x 1) (= y 1))", "(distinct x y z)"]),
            sat("(define-fun x () Int 1) (define-fun y () Int 2) (define-fun z () Int 3)"), VALID),
        case("implication chain", one_check(ints, &["(=> (> x 0) (> y 0) (> z 0))"]),
            sat("(define-fun x () Int 1) (define-fun y () Int 1) (define-fun z () Int 0)"), INVALID),
        // --- Division by zero and model extensions (Dolmen's example and variants)
        case("dolmen: div shadowed by the model", one_check(dolmen, &dolmen_asserts),
            sat("(define-fun z () Int 0) (define-fun a () Int 1) (define-fun b () Int 2) (define-fun c () Int 13) (define-fun d () Int 42)
                 (define-fun div ((x Int) (y Int)) Int (ite (and (= x 1) (= y 0)) 13 (ite (and (= x 2) (= y 0)) 42 (div x y))))"), VALID),
        case("dolmen: z3's div0", one_check(dolmen, &dolmen_asserts),
            sat("(define-fun z () Int 0) (define-fun d () Int 1) (define-fun a () Int 7719) (define-fun b () Int 21238) (define-fun c () Int 0)
                 (define-fun div0 ((x!0 Int) (x!1 Int)) Int (ite (and (= x!0 21238) (= x!1 0)) 1 0))"), VALID),
        case("dolmen: no extension", one_check(dolmen, &dolmen_asserts),
            sat("(define-fun z () Int 0) (define-fun a () Int 1) (define-fun b () Int 2) (define-fun c () Int 13) (define-fun d () Int 42)"), INCOMPLETE),
        case("extension never overrides defined division", one_check(ints, &["(= (div x 2) 3)"]),
            sat("(define-fun x () Int 7) (define-fun div ((p Int) (q Int)) Int 99)"), VALID),
        case("a wrong extension does not make defined division wrong", one_check(ints, &["(= (div x 2) 99)"]),
            sat("(define-fun x () Int 7) (define-fun div ((p Int) (q Int)) Int 99)"), INVALID),
        case("extension contradicts the assertion", one_check(ints, &["(= (div x 0) 5)"]),
            sat("(define-fun x () Int 7) (define-fun div0 ((p Int) (q Int)) Int 4)"), INVALID),
        case("mod0 extension", one_check(ints, &["(= (mod x 0) 5)"]),
            sat("(define-fun x () Int 7) (define-fun mod0 ((p Int) (q Int)) Int 5)"), VALID),
        // Z3 4.8.12's model defines `mod0` 1 but evaluates `(rem 0 0)` to 0: `rem` has no
        // extension of its own here, so it is open, not `mod0`'s value.
        case("rem by zero does not borrow mod0", one_check(ints, &["(= (rem x 0) 1)"]),
            sat("(define-fun x () Int 0) (define-fun mod0 ((p Int) (q Int)) Int 1)"), INCOMPLETE),
        case("rem0 extension", one_check(ints, &["(= (rem x 0) 1)"]),
            sat("(define-fun x () Int 0) (define-fun rem0 ((p Int) (q Int)) Int 1)"), VALID),
        case("real division by zero with /0", one_check(reals, &["(= (/ r 0.0) q)"]),
            sat("(define-fun r () Real 1.0) (define-fun q () Real 2.5) (define-fun /0 ((a Real) (b Real)) Real (/ 5.0 2.0))"), VALID),
        case("undefined but irrelevant division", one_check(ints, &["(or (= x 7) (= (div x 0) 1))"]),
            sat("(define-fun x () Int 7)"), VALID),
        // --- Reals and mixed arithmetic
        case("exact rationals", one_check(reals, &["(= (* 3.0 r) 1.0)", "(< r 0.34)"]),
            sat("(define-fun r () Real (/ 1.0 3.0))"), VALID),
        case("to_int floors", one_check("(declare-fun r () Real) (declare-fun x () Int)", &["(= (to_int r) x)"]),
            sat("(define-fun r () Real (- (/ 1.0 2.0))) (define-fun x () Int (- 1))"), VALID),
        case("integer-valued model of a real", one_check(reals, &["(= r 2.0)"]), sat("(define-fun r () Real 2)"), VALID),
        // --- Bit-vectors
        case("bvudiv by zero is all ones", one_check(bv8, &["(= (bvudiv s #x00) #xff)"]), sat("(define-fun s () (_ BitVec 8) #x2a)"), VALID),
        case("bvurem by zero is the dividend", one_check(bv8, &["(= (bvurem s #x00) s)"]), sat("(define-fun s () (_ BitVec 8) #x2a)"), VALID),
        case("bvsdiv of a negative by zero is 1", one_check(bv8, &["(= (bvsdiv s #x00) #x01)"]), sat("(define-fun s () (_ BitVec 8) #xf0)"), VALID),
        case("bvsmod by zero is the dividend", one_check(bv8, &["(= (bvsmod s #x00) s)", "(= (bvsrem s #x00) s)"]), sat("(define-fun s () (_ BitVec 8) #xf0)"), VALID),
        case("shift by width or more", one_check(bv8, &["(= (bvshl s #x08) #x00)", "(= (bvlshr s #xff) #x00)", "(= (bvashr s #x09) #xff)"]),
            sat("(define-fun s () (_ BitVec 8) #x80)"), VALID),
        case("signed overflow wraps", one_check(bv8, &["(bvslt (bvadd s #x01) s)"]), sat("(define-fun s () (_ BitVec 8) #x7f)"), VALID),
        case("signed vs unsigned order", one_check(bv8, &["(bvult s t)", "(bvslt s t)"]),
            sat("(define-fun s () (_ BitVec 8) #x01) (define-fun t () (_ BitVec 8) #xff)"), INVALID),
        case("INT_MIN / -1", one_check(bv8, &["(= (bvsdiv s #xff) s)"]), sat("(define-fun s () (_ BitVec 8) #x80)"), VALID),
        case("extract concat extend", one_check(bv8, &["(= ((_ extract 11 4) (concat s ((_ zero_extend 0) #xa))) #x3a)", "(= ((_ sign_extend 8) s) #xfff3)"]),
            sat("(define-fun s () (_ BitVec 8) #xf3)"), INVALID),
        case("wide bit-vectors", one_check("(declare-fun w () (_ BitVec 100))", &["(= (bvadd w (_ bv1 100)) (_ bv0 100))"]),
            sat(&format!("(define-fun w () (_ BitVec 100) #b{})", "1".repeat(100))), VALID),
        case("bit-vector width mismatch is an error", one_check(bv8, &["(= (bvadd s #x001) s)"]),
            sat("(define-fun s () (_ BitVec 8) #x01)"), Error("equal width")),
        // --- Arrays
        case("constant array and store chain", one_check(arr, &["(= (select a 1) 5)", "(= (select a 7) 0)", "(= (select (store a 7 3) 7) 3)"]),
            sat("(define-fun a () (Array Int Int) (store (store ((as const (Array Int Int)) 0) 1 5) 2 6))"), VALID),
        case("array extensionality with canonical forms", one_check(arr, &["(= a b)"]),
            sat("(define-fun a () (Array Int Int) (store ((as const (Array Int Int)) 0) 1 0))
                 (define-fun b () (Array Int Int) ((as const (Array Int Int)) 0))"), VALID),
        case("arrays that differ at one index", one_check(arr, &["(= a b)"]),
            sat("(define-fun a () (Array Int Int) (store ((as const (Array Int Int)) 0) 1 1))
                 (define-fun b () (Array Int Int) ((as const (Array Int Int)) 0))"), INVALID),
        case("as-array of a table", one_check(arr, &["(= (select a 3) 4)", "(= (select a 9) 1)"]),
            sat("(define-fun a () (Array Int Int) (_ as-array k!0))
                 (define-fun k!0 ((x!0 Int)) Int (ite (= x!0 3) 4 (ite (= x!0 5) 6 1)))"), VALID),
        case("lambda array equals its store form", one_check(arr, &["(= a b)"]),
            sat("(define-fun a () (Array Int Int) (lambda ((i Int)) (ite (= i 2) 8 0)))
                 (define-fun b () (Array Int Int) (store ((as const (Array Int Int)) 0) 2 8))"), VALID),
        case("bool-indexed arrays are canonical", one_check("(declare-fun a () (Array Bool Int))", &["(= a ((as const (Array Bool Int)) 7))"]),
            sat("(define-fun a () (Array Bool Int) (store (store ((as const (Array Bool Int)) 1) true 7) false 7))"), VALID),
        // --- Uninterpreted functions and sorts
        case("uf table with ite chain", one_check("(declare-fun f (Int Int) Int) (declare-fun x () Int)", &["(= (f x 2) 3)", "(= (f 0 0) 9)"]),
            sat("(define-fun x () Int 1) (define-fun f ((x!0 Int) (x!1 Int)) Int (ite (and (= x!0 1) (= x!1 2)) 3 9))"), VALID),
        case("uf table violates congruence claim", one_check("(declare-fun f (Int) Int) (declare-fun x () Int)", &["(not (= (f x) (f 1)))"]),
            sat("(define-fun x () Int 1) (define-fun f ((x!0 Int)) Int (ite (= x!0 1) 3 9))"), INVALID),
        case("uninterpreted sort elements (z3 universe)", one_check("(declare-sort U 0) (declare-fun u () U) (declare-fun v () U)", &["(distinct u v)"]),
            "sat\n(\n(declare-fun U!val!0 () U)\n(declare-fun U!val!1 () U)\n(forall ((x U)) (or (= x U!val!0) (= x U!val!1)))\n(define-fun u () U U!val!0)\n(define-fun v () U U!val!1)\n)\n".into(), VALID),
        case("uninterpreted elements via as", one_check("(declare-sort U 0) (declare-fun u () U) (declare-fun v () U)", &["(= u v)"]),
            sat("(define-fun u () U (as @U_0 U)) (define-fun v () U (as @U_1 U))"), INVALID),
        case("missing function interpretation", one_check("(declare-fun f (Int) Int)", &["(= (f 1) 2)"]), sat(""), INCOMPLETE),
        // --- let, define-fun, named terms
        case("nested let with shadowing", one_check(ints, &["(let ((x 1) (y x)) (let ((x (+ x 10))) (= (+ x y) 16)))"]),
            sat("(define-fun x () Int 5)"), VALID),
        case("problem define-fun", "(declare-fun x () Int)\n(define-fun sq ((n Int)) Int (* n n))\n(assert (= (sq x) 49))\n(check-sat)\n".into(),
            sat("(define-fun x () Int (- 7))"), VALID),
        case("named terms are usable later", "(declare-fun x () Int)\n(assert (! (> x 3) :named big))\n(assert (=> big (> x 2)))\n(check-sat)\n".into(),
            sat("(define-fun x () Int 4)"), VALID),
        case("recursive definition", "(define-fun-rec fact ((n Int)) Int (ite (<= n 0) 1 (* n (fact (- n 1)))))\n(assert (= (fact 20) 2432902008176640000))\n(check-sat)\n".into(),
            sat(""), VALID),
        // --- Strings
        case("string operations", one_check("(declare-fun s () String)", &["(= (str.len s) 5)", "(str.prefixof \"he\" s)", "(= (str.at s 4) \"o\")", "(str.in_re s (re.+ (re.range \"a\" \"z\")))"]),
            sat("(define-fun s () String \"hello\")"), VALID),
        case("string escapes", one_check("(declare-fun s () String)", &["(= (str.len s) 3)", "(= (str.to_code (str.at s 0)) 34)"]),
            sat("(define-fun s () String \"\"\"\\u{48}\\u0049\")"), VALID),
        case("string replace is first occurrence only", one_check("(declare-fun s () String)", &["(= (str.replace s \"a\" \"b\") \"bbb\")"]),
            sat("(define-fun s () String \"aba\")"), INVALID),
        // --- Scopes and incremental responses
        case("push/pop: popped assertion is not checked",
            "(declare-fun x () Int)\n(assert (> x 0))\n(push 1)\n(assert (> x 10))\n(check-sat)\n(pop 1)\n(assert (< x 5))\n(check-sat)\n".into(),
            "sat\n((define-fun x () Int 11))\nsat\n((define-fun x () Int 1))\n".into(), VALID),
        case("push/pop: second model violates the outer assertion",
            "(declare-fun x () Int)\n(assert (> x 0))\n(push 1)\n(assert (> x 10))\n(check-sat)\n(pop 1)\n(check-sat)\n".into(),
            "sat\n((define-fun x () Int 11))\nsat\n((define-fun x () Int 0))\n".into(), INVALID),
        case("unsat answers are skipped",
            "(declare-fun x () Int)\n(push 1)\n(assert (and (> x 0) (< x 0)))\n(check-sat)\n(pop 1)\n(assert (= x 3))\n(check-sat)\n".into(),
            "unsat\nsat\n(model (define-fun x () Int 3))\n".into(), VALID),
        case("declarations are scoped",
            "(push 1)\n(declare-fun x () Bool)\n(assert x)\n(check-sat)\n(pop 1)\n(declare-fun x () Int)\n(assert (= x 2))\n(check-sat)\n".into(),
            "sat\n((define-fun x () Bool true))\nsat\n((define-fun x () Int 2))\n".into(), VALID),
        case("check-sat-assuming assumptions are checked",
            "(declare-fun p () Bool)\n(declare-fun q () Bool)\n(assert (or p q))\n(check-sat-assuming (p (not q)))\n".into(),
            "sat\n((define-fun p () Bool true) (define-fun q () Bool true))\n".into(), INVALID),
        case("sat without a model", one_check(ints, &["(> x 0)"]), "sat\n".into(), INCOMPLETE),
        case("pop without push is an error", "(pop 1)\n".into(), "".into(), Error("pop without a matching push")),
        case("unknown symbol is an error", one_check(ints, &["(> w 0)"]), sat("(define-fun x () Int 1)"), Error("p.smt2:3:12: unknown symbol w")),
        case("quantifiers are incomplete", one_check(ints, &["(forall ((k Int)) (> (* k k) (- 1)))"]), sat(""), INCOMPLETE),
        // --- Datatypes, quantifiers over finite domains, other commands
        case("datatype values, selectors, testers and match",
            "(declare-datatypes ((L 0)) (((nil) (cons (hd Int) (tl L)))))\n(declare-fun l () L)\n(assert ((_ is cons) l))\n(assert (= (hd (tl l)) 2))\n(assert (= 3 (match l ((nil 0) ((cons h t) (+ h (hd t)))))))\n(check-sat)\n".into(),
            sat("(define-fun l () L (cons 1 (cons 2 nil)))"), VALID),
        case("datatype equality", "(declare-datatype P ((mk (fst Int) (snd Bool))))\n(declare-fun p () P)\n(assert (= p (mk 1 false)))\n(check-sat)\n".into(),
            sat("(define-fun p () P (mk 1 true))"), INVALID),
        case("selector on the wrong constructor takes the model's extension",
            "(declare-datatypes ((L 0)) (((nil) (cons (hd Int) (tl L)))))\n(declare-fun l () L)\n(assert (= (hd l) 7))\n(check-sat)\n".into(),
            sat("(define-fun l () L nil) (define-fun hd ((x L)) Int 7)"), VALID),
        case("selector on the wrong constructor without extension",
            "(declare-datatypes ((L 0)) (((nil) (cons (hd Int) (tl L)))))\n(declare-fun l () L)\n(assert (= (hd l) 7))\n(check-sat)\n".into(),
            sat("(define-fun l () L nil)"), INCOMPLETE),
        case("old z3 datatype syntax and is- testers",
            "(declare-datatypes () ((Color red green blue)))\n(declare-fun c () Color)\n(assert (is-green c))\n(check-sat)\n".into(),
            sat("(define-fun c () Color green)"), VALID),
        case("forall over an enumeration", "(declare-datatype C ((r) (g)))\n(declare-fun f (C) Int)\n(assert (forall ((x C)) (> (f x) 0)))\n(check-sat)\n".into(),
            sat("(define-fun f ((x!0 C)) Int (ite (= x!0 r) 1 0))"), INVALID),
        case("forall over a model's universe", "(declare-sort U 0)\n(declare-fun p (U) Bool)\n(assert (forall ((x U)) (p x)))\n(check-sat)\n".into(),
            sat("(declare-fun U!val!0 () U) (declare-fun U!val!1 () U) (define-fun p ((x!0 U)) Bool true)"), VALID),
        case("exists over small bit-vectors", "(declare-fun s () (_ BitVec 4))\n(assert (exists ((y (_ BitVec 4))) (= (bvmul y #x3) s)))\n(check-sat)\n".into(),
            sat("(define-fun s () (_ BitVec 4) #x1)"), VALID),
        case("z3 abstract values without a universe", one_check("(declare-sort U 0) (declare-fun u () U) (declare-fun v () U)", &["(not (= u v))"]),
            sat("(define-fun u () U U!val!0) (define-fun v () U U!val!0)"), INVALID),
        case("define-const and solver-specific get commands", "(define-const k Int 5)\n(declare-fun x () Int)\n(assert (= x (* k 2)))\n(check-sat)\n(get-unsat-core-lemmas)\n".into(),
            sat("(define-fun x () Int 10)"), VALID),
        // --- Floating point
        case("NaN is NaN and equal to itself", one_check("(declare-fun f () Float32)", &["(fp.isNaN f)", "(= f f)", "(not (fp.eq f f))"]),
            sat("(define-fun f () Float32 (_ NaN 8 24))"), VALID),
        case("0.1f + 0.1f rounds to 0.2f", one_check("(declare-fun f () Float32)", &["(fp.eq (fp.add RNE f f) ((_ to_fp 8 24) RNE 0.2))", "(not (= (fp.to_real f) 0.1))"]),
            sat("(define-fun f () Float32 (fp #b0 #b01111011 #b10011001100110011001101))"), VALID),
        case("+0 and -0 are fp.eq but not =", one_check("(declare-fun f () Float32) (declare-fun g () Float32)", &["(= f g)"]),
            sat("(define-fun f () Float32 (_ +zero 8 24)) (define-fun g () Float32 (_ -zero 8 24))"), INVALID),
        case("fp.min of zeros of both signs is unspecified", one_check("(declare-fun f () Float32) (declare-fun g () Float32)", &["(fp.isNegative (fp.min f g))"]),
            sat("(define-fun f () Float32 (_ +zero 8 24)) (define-fun g () Float32 (_ -zero 8 24))"), INCOMPLETE),
        case("sequences are judged", one_check("(declare-fun s () (Seq Int))", &["(= (seq.len s) 0)"]),
            sat("(define-fun s () (Seq Int) (as seq.empty (Seq Int)))"), VALID),
        case("seq.nth outside the sequence is unspecified, not an error", one_check("(declare-fun s () (Seq Int))", &["(= (seq.nth s 5) 0)"]),
            sat("(define-fun s () (Seq Int) (as seq.empty (Seq Int)))"), INCOMPLETE),
        case("parse error in the response", one_check(ints, &["(> x 0)"]), "sat\n((define-fun x () Int 1)\n".into(), Error("r.txt:2:1")),
    ]
}

#[test]
fn table_of_verdicts() {
    let cases = cases();
    assert!(cases.len() >= 40, "the table has {} cases", cases.len());
    let mut wrong = Vec::new();
    for c in &cases {
        let got = run(&c.problem, &c.response);
        let ok = match (&c.expect, &got) {
            (V(v), Ok(report)) => report.verdict() == *v,
            (Error(text), Err(message)) => message.contains(text),
            _ => false,
        };
        if !ok {
            let shown = match &got {
                Ok(r) => r.to_string(),
                Err(e) => format!("error: {e}"),
            };
            wrong.push(format!("{}: expected {:?}, got\n{shown}", c.name, c.expect));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} cases failed:\n{}",
        wrong.len(),
        wrong.join("\n\n")
    );
}

/// The interleaved low-memory mode reads the same files and must reach the same verdicts.
#[test]
fn interleaved_mode_agrees_on_the_table() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let (p, r) = (dir.path().join("p.smt2"), dir.path().join("r.txt"));
    let mut disagreements = Vec::new();
    for c in cases() {
        std::fs::write(&p, &c.problem).expect("write problem");
        std::fs::write(&r, &c.response).expect("write response");
        let full = check_files(&p, &r, false, Limits::default()).map(|rep| rep.verdict());
        let interleaved = check_files(&p, &r, true, Limits::default()).map(|rep| rep.verdict());
        let same = match (&full, &interleaved) {
            (Ok(a), Ok(b)) => a == b,
            (Err(a), Err(b)) => a.message == b.message && a.line == b.line,
            _ => false,
        };
        if !same {
            disagreements.push(format!(
                "{}: full {full:?}, interleaved {interleaved:?}",
                c.name
            ));
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

#[test]
fn interleaved_mode_checks_each_assertion_under_every_model_in_its_scope() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let (p, r) = (dir.path().join("p.smt2"), dir.path().join("r.txt"));
    let problem = "(declare-fun x () Int)\n(assert (> x 0))\n(check-sat)\n(push 1)\n(assert (> x 5))\n(check-sat)\n(push 1)\n(check-sat)\n(pop 2)\n(check-sat)\n";
    // The third model violates the assertion of line 5, still in scope two levels down.
    let response = "sat\n((define-fun x () Int 1))\nsat\n((define-fun x () Int 6))\nsat\n((define-fun x () Int 3))\nsat\n((define-fun x () Int 2))\n";
    std::fs::write(&p, problem).expect("write problem");
    std::fs::write(&r, response).expect("write response");
    for interleaved in [false, true] {
        let report = check_files(&p, &r, interleaved, Limits::default()).expect("checks");
        let outcomes: Vec<&Outcome> = report.checks.iter().map(|c| &c.outcome).collect();
        assert_eq!(outcomes.len(), 4);
        assert_eq!(outcomes[0], &Outcome::Valid);
        assert_eq!(outcomes[1], &Outcome::Valid);
        assert!(
            matches!(outcomes[2], Outcome::Invalid(f) if f[0].location.ends_with("p.smt2:5:9")),
            "{report}"
        );
        assert_eq!(outcomes[3], &Outcome::Valid);
    }
}

#[test]
fn invalid_report_names_assertion_and_values() {
    let problem = "(declare-fun x () Int)\n(declare-fun y () Int)\n(assert (> x 0))\n(assert (= (+ x y) 3))\n(check-sat)\n";
    let report = run(
        problem,
        "sat\n((define-fun x () Int 1) (define-fun y () Int 5))\n",
    )
    .unwrap();
    let Outcome::Invalid(failures) = &report.checks[0].outcome else {
        panic!("expected invalid, got {report}");
    };
    assert_eq!(failures.len(), 1);
    assert_eq!(failures[0].location, "p.smt2:4:9");
    assert_eq!(failures[0].term, "(= (+ x y) 3)");
    assert_eq!(
        failures[0].values,
        vec![
            ("x".to_string(), "1".to_string()),
            ("y".to_string(), "5".to_string())
        ]
    );
    assert_eq!(report.checks[0].location, "p.smt2:5:1");
}

#[test]
fn incomplete_report_says_what_is_open() {
    let problem = "(declare-fun x () Int)\n(assert (= (div 1 x) 2))\n(check-sat)\n";
    let report = run(problem, "sat\n((define-fun x () Int 0))\n").unwrap();
    let Outcome::Incomplete(reasons) = &report.checks[0].outcome else {
        panic!("expected incomplete, got {report}");
    };
    assert_eq!(
        reasons,
        &vec![
            "assertion at p.smt2:2:9: (div 1 0) is undefined and the model does not extend it"
                .to_string()
        ]
    );
}
