//! The evaluator through its library API, theory by theory: each test evaluates SMT-LIB terms
//! under a small model and compares with values computed by hand.

use smtlib::eval::{evaluate_str, EvalError, Model};

fn model(defs: &str) -> Model {
    Model::parse(&format!("(model {defs})")).expect("test model parses")
}

/// The printed value of `term` under `m`.
fn ev(m: &Model, term: &str) -> String {
    match evaluate_str(term, m) {
        Ok(v) => v.to_string(),
        Err(e) => format!("<{e}>"),
    }
}

#[test]
fn core() {
    let m = model("(define-fun p () Bool true) (define-fun q () Bool false)");
    assert_eq!(ev(&m, "(and p (not q))"), "true");
    assert_eq!(ev(&m, "(=> p q)"), "false");
    assert_eq!(ev(&m, "(xor p q p)"), "false");
    assert_eq!(ev(&m, "(= p q false)"), "false");
    assert_eq!(ev(&m, "(distinct p q)"), "true");
    assert_eq!(ev(&m, "(ite q 1 2)"), "2");
    // An open operand does not matter when another decides.
    assert_eq!(ev(&m, "(or open p)"), "true");
    assert!(
        matches!(evaluate_str("(and open p)", &m), Err(EvalError::Open(r)) if r[0].contains("open has no value"))
    );
}

#[test]
fn ints_and_reals() {
    let m = model("(define-fun x () Int (- 7)) (define-fun r () Real (/ 3.0 4.0))");
    assert_eq!(ev(&m, "(div x 2)"), "(- 4)");
    assert_eq!(ev(&m, "(mod x 2)"), "1");
    assert_eq!(ev(&m, "(div x (- 2))"), "4");
    assert_eq!(ev(&m, "(abs x)"), "7");
    assert_eq!(
        ev(&m, "(* x x x x x x x x x x x x x x x x x x x x x x x x)"),
        "191581231380566414401"
    );
    assert_eq!(ev(&m, "(+ r 1)"), "(/ 7.0 4.0)");
    assert_eq!(ev(&m, "(- r)"), "(- (/ 3.0 4.0))");
    assert_eq!(ev(&m, "(/ x 2)"), "(- (/ 7.0 2.0))");
    assert_eq!(ev(&m, "(to_int (- r))"), "(- 1)");
    assert_eq!(ev(&m, "(to_real x)"), "(- 7.0)");
    assert_eq!(ev(&m, "(is_int (* r 4))"), "true");
    assert_eq!(ev(&m, "(< x r 1.0)"), "true");
    assert_eq!(ev(&m, "((_ divisible 7) x)"), "true");
    assert_eq!(ev(&m, "0.125"), "(/ 1.0 8.0)");
    assert!(ev(&m, "(div x 0)").contains("(div (- 7) 0) is undefined"));
    assert!(ev(&m, "(+ x true)").contains("expects Int or Real"));
}

#[test]
fn division_by_zero_extensions() {
    let m = model(
        "(define-fun div ((a Int) (b Int)) Int (ite (= a 1) 13 (div a b)))
         (define-fun /0 ((a Real) (b Real)) Real 0.5)",
    );
    assert_eq!(ev(&m, "(div 1 0)"), "13");
    // The model's div only applies at a zero divisor; inside it, div is the builtin.
    assert_eq!(ev(&m, "(div 1 1)"), "1");
    assert!(ev(&m, "(div 2 0)").contains("(div 2 0) is undefined"));
    assert_eq!(ev(&m, "(/ 3 0)"), "(/ 1.0 2.0)");
    assert_eq!(ev(&m, "(/ 3 0 2)"), "(/ 1.0 4.0)");
}

#[test]
fn bit_vectors() {
    let m = model("(define-fun s () (_ BitVec 8) #xf0) (define-fun t () (_ BitVec 3) #b101)");
    assert_eq!(ev(&m, "(bvudiv s #x00)"), "#xff");
    assert_eq!(ev(&m, "(bvsdiv s #x00)"), "#x01");
    assert_eq!(ev(&m, "(bvsrem s #x07)"), "#xfe");
    assert_eq!(ev(&m, "(bvsmod s #x07)"), "#x05");
    assert_eq!(ev(&m, "(bvashr s #x02)"), "#xfc");
    assert_eq!(ev(&m, "(bvshl s #x10)"), "#x00");
    assert_eq!(ev(&m, "(concat t s)"), "#b10111110000");
    assert_eq!(ev(&m, "((_ extract 2 1) t)"), "#b10");
    assert_eq!(ev(&m, "((_ repeat 2) t)"), "#b101101");
    assert_eq!(ev(&m, "((_ rotate_left 1) t)"), "#b011");
    assert_eq!(ev(&m, "(bvcomp t #b101)"), "#b1");
    assert_eq!(ev(&m, "(bvneg t)"), "#b011");
    assert_eq!(ev(&m, "(bvsge t #b011)"), "false");
    assert_eq!(ev(&m, "(bv2nat t)"), "5");
    assert_eq!(ev(&m, "((_ int2bv 4) (- 3))"), "#xd");
    assert_eq!(ev(&m, "(_ bv300 12)"), "#x12c");
    assert!(ev(&m, "(bvand s t)").contains("equal width"));
}

#[test]
fn arrays() {
    let m = model(
        "(define-fun a () (Array Int Int) (store ((as const (Array Int Int)) 0) 1 10))
         (define-fun f ((x!0 Int)) Int (ite (= x!0 1) 10 0))
         (define-fun g () (Array Int Int) (_ as-array f))
         (define-fun h () (Array Int (Array Int Bool)) ((as const (Array Int (Array Int Bool))) ((as const (Array Int Bool)) true)))",
    );
    assert_eq!(ev(&m, "(select a 1)"), "10");
    assert_eq!(ev(&m, "(select a 2)"), "0");
    assert_eq!(ev(&m, "(= a g)"), "true");
    assert_eq!(ev(&m, "(= a (store g 1 11))"), "false");
    assert_eq!(
        ev(&m, "(store (store a 2 5) 1 0)"),
        "(store ((as const (Array Int Int)) 0) 2 5)"
    );
    assert_eq!(ev(&m, "(select (select h 5) 9)"), "true");
    assert_eq!(
        ev(&m, "(select (lambda ((i Int)) (ite (= 3 i) 7 8)) 3)"),
        "7"
    );
    // An open index into a constant array still has a value.
    assert_eq!(
        ev(&m, "(select ((as const (Array Int Int)) 4) unknown_index)"),
        "4"
    );
}

#[test]
fn uninterpreted_functions() {
    let m = model(
        "(declare-fun U!val!0 () U) (declare-fun U!val!1 () U)
         (define-fun u () U U!val!0)
         (define-fun f ((x!0 U) (x!1 Int)) Int (ite (and (= x!0 U!val!0) (= x!1 2)) 5 (ite (= x!0 U!val!1) 6 7)))",
    );
    assert_eq!(ev(&m, "(f u 2)"), "5");
    assert_eq!(ev(&m, "(f u 3)"), "7");
    assert_eq!(ev(&m, "(f U!val!1 3)"), "6");
    assert_eq!(ev(&m, "(= u U!val!1)"), "false");
    assert!(ev(&m, "(f u)").contains("f expects 2 arguments"));
    assert!(ev(&m, "(g 1)").contains("g has no value"));
}

#[test]
fn strings() {
    let m = model("(define-fun s () String \"a\"\"b\\u{e9}\")");
    assert_eq!(ev(&m, "(str.len s)"), "4");
    assert_eq!(ev(&m, "s"), "\"a\"\"b\\u{e9}\"");
    assert_eq!(ev(&m, "(str.++ s \"!\")"), "\"a\"\"b\\u{e9}!\"");
    assert_eq!(ev(&m, "(str.substr \"hello\" 1 3)"), "\"ell\"");
    assert_eq!(ev(&m, "(str.indexof \"hello\" \"l\" 3)"), "3");
    assert_eq!(
        ev(&m, "(str.replace_all \"banana\" \"an\" \"o\")"),
        "\"booa\""
    );
    assert_eq!(ev(&m, "(str.to_int \"042\")"), "42");
    assert_eq!(ev(&m, "(str.from_int 17)"), "\"17\"");
    assert_eq!(ev(&m, "(str.is_digit \"7\")"), "true");
    assert_eq!(ev(&m, "(str.< \"abc\" \"abd\")"), "true");
    assert_eq!(ev(&m, "(str.in_re \"ab12\" (re.++ (re.* (re.range \"a\" \"z\")) (re.+ (re.range \"0\" \"9\"))))"), "true");
    assert_eq!(
        ev(&m, "(str.in_re \"ab\" (re.comp (str.to_re \"ab\")))"),
        "false"
    );
    assert_eq!(
        ev(
            &m,
            "(str.in_re \"aaa\" ((_ re.loop 1 2) (str.to_re \"a\")))"
        ),
        "false"
    );
    assert_eq!(
        ev(
            &m,
            "(str.in_re \"x\" (re.inter re.allchar (re.diff re.all (str.to_re \"y\"))))"
        ),
        "true"
    );
}

#[test]
fn lets_and_errors_are_located() {
    let m = model("(define-fun x () Int 2)");
    assert_eq!(ev(&m, "(let ((x 5) (y x)) (let ((x (* x y))) x))"), "10");
    let err = evaluate_str("(+ 1\n  (bvadd #x1 #x01))", &m).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("<term>:2:3: bvadd expects bit-vectors of equal width"),
        "{err}"
    );
}

#[test]
fn library_api_for_callers_with_their_own_trees() {
    use smtlib::eval::{evaluate, Src, Value};
    use smtlib::Tree;
    let tree = Tree::parse("(assert (= (bvadd x #x01) y))").expect("parses");
    let src = Src::from_tree(tree, "<fuzzer>");
    let term = src.tree.children(src.tree.roots()[0])[1];
    let m = Model::from_values([
        ("x".to_string(), Value::bv(8, 0xff)),
        ("y".to_string(), Value::bv(8, 0)),
    ]);
    assert_eq!(evaluate(&src, term, &m), Ok(Value::Bool(true)));
    let partial = Model::from_values([("x".to_string(), Value::bv(8, 0xff))]);
    assert!(
        matches!(evaluate(&src, term, &partial), Err(EvalError::Open(r)) if r == ["y has no value in the model"])
    );
}

#[test]
fn floating_point() {
    let m = model(
        "(define-fun f () Float16 ((_ to_fp 5 11) RNE 1.5)) (define-fun r () RoundingMode RTZ)",
    );
    assert_eq!(ev(&m, "f"), "(fp #b0 #b01111 #b1000000000)");
    assert_eq!(ev(&m, "(fp.add RNE f f)"), "(fp #b0 #b10000 #b1000000000)");
    assert_eq!(ev(&m, "(fp.div RNE f (_ +zero 5 11))"), "(_ +oo 5 11)");
    assert_eq!(ev(&m, "(fp.sqrt RNE (_ -oo 5 11))"), "(_ NaN 5 11)");
    assert_eq!(ev(&m, "(fp.to_real f)"), "(/ 3.0 2.0)");
    assert_eq!(ev(&m, "((_ fp.to_sbv 4) r (fp.neg f))"), "#xf");
    assert_eq!(
        ev(&m, "(fp.roundToIntegral RNE f)"),
        "(fp #b0 #b10000 #b0000000000)"
    );
    assert_eq!(ev(&m, "(fp.lt (fp.neg f) (_ -zero 5 11) f)"), "true");
    assert_eq!(
        ev(&m, "(fp.isSubnormal ((_ to_fp 5 11) RNE 0.00001))"),
        "true"
    );
    assert_eq!(
        ev(&m, "((_ to_fp 5 11) RTZ 70000.0)"),
        "(fp #b0 #b11110 #b1111111111)"
    );
    assert_eq!(ev(&m, "((_ to_fp 5 11) RNE 70000.0)"), "(_ +oo 5 11)");
    assert_eq!(
        ev(&m, "((_ to_fp_unsigned 5 11) RNE #xff)"),
        "(fp #b0 #b10110 #b1111111000)"
    );
    assert!(ev(&m, "(fp.to_real (_ NaN 5 11))").contains("is undefined"));
    assert!(ev(&m, "(fp.add RNE f ((_ to_fp 8 24) RNE 1.0))").contains("one floating-point format"));
}

/// Recursive definitions unfold up to a bound (`docs/limits.md`): within it they have their
/// value, beyond it (or when they never terminate) the value is open, never a hang.
#[test]
fn recursive_definitions_unfold_to_a_bound() {
    let m = model(
        "(define-fun-rec fact ((n Int)) Int (ite (<= n 0) 1 (* n (fact (- n 1)))))
         (define-fun-rec loop ((n Int)) Int (+ 1 (loop n)))
         (define-funs-rec ((even ((n Int)) Bool) (odd ((n Int)) Bool))
                          ((ite (= n 0) true (odd (- n 1))) (ite (= n 0) false (even (- n 1)))))
         (define-fun k () Int 10)",
    );
    assert_eq!(ev(&m, "(fact 5)"), "120");
    assert_eq!(ev(&m, "(fact k)"), "3628800");
    assert_eq!(ev(&m, "(even 10)"), "true");
    assert_eq!(ev(&m, "(odd 7)"), "true");
    // 31 nested calls are within the bound, 1000 are not.
    assert_eq!(ev(&m, "(> (fact 30) 0)"), "true");
    for beyond in ["(fact 1000)", "(loop 0)", "(even 1000)"] {
        match evaluate_str(beyond, &m) {
            Err(EvalError::Open(reasons)) => assert!(
                reasons
                    .iter()
                    .any(|r| r.contains("unfolds beyond the bound")),
                "{beyond}: {reasons:?}"
            ),
            other => panic!("{beyond}: expected an open value, got {other:?}"),
        }
    }
    // An open recursive call does not matter where the rest decides.
    assert_eq!(ev(&m, "(or (= (loop 0) 1) true)"), "true");
}
