//! Z3's higher-order sequence operations (releases after 4.8.12, looked up by name, never
//! linked): `seq_hof FUNCTION ADD MUL tX...` applies `Z3_mk_seq_map`, `Z3_mk_seq_mapi`,
//! `Z3_mk_seq_foldl` or `Z3_mk_seq_foldli` to a lambda over Ints that the executor makes with
//! `Z3_mk_lambda_const` and to the call's terms, in the C function's order (the sequence, of
//! Ints, last). The lambda's body is `(+ (* MUL x) ADD p...)`: `x` the element, `p` its other
//! parameters (the index of `mapi`/`foldli`, the accumulator of the folds), each once.
//!
//! [`SEQ_HOFS`] is the table the reference state types the call with, the SMT-LIB writers
//! write it with ([`SeqHof::smt2`], Z3's dialect) and the reproducer writers lower it with; the
//! independent evaluator (`smtlib::eval`) evaluates the written term by applying the lambda
//! to each element, so `check_eval` and `check_model` judge Z3's answers on it.

use crate::Sort;

/// One higher-order sequence operation.
#[derive(Debug, PartialEq, Eq)]
pub struct SeqHof {
    /// The Z3 C function.
    pub function: &'static str,
    /// Z3's SMT-LIB name of the operation.
    pub head: &'static str,
    /// The lambda's parameters in order (all Ints); the call takes as many terms, which are
    /// the C function's arguments after the lambda: the start index (`i`), the accumulator's
    /// initial value (`a`), then the sequence (for `x`).
    pub params: &'static [&'static str],
    /// Whether the result is the accumulator (an Int) rather than a sequence of Ints.
    pub folds: bool,
}

/// Every higher-order sequence operation of Z3's C API.
pub static SEQ_HOFS: &[SeqHof] = &[
    SeqHof {
        function: "Z3_mk_seq_map",
        head: "seq.map",
        params: &["x"],
        folds: false,
    },
    SeqHof {
        function: "Z3_mk_seq_mapi",
        head: "seq.mapi",
        params: &["i", "x"],
        folds: false,
    },
    SeqHof {
        function: "Z3_mk_seq_foldl",
        head: "seq.fold_left",
        params: &["a", "x"],
        folds: true,
    },
    SeqHof {
        function: "Z3_mk_seq_foldli",
        head: "seq.fold_lefti",
        params: &["i", "a", "x"],
        folds: true,
    },
];

/// The C functions of [`SEQ_HOFS`], for the trace header and the
/// replay's refusal where the loaded libz3 lacks one.
pub const SEQ_HOF_FUNCTIONS: &[&str] = &[
    "Z3_mk_seq_map",
    "Z3_mk_seq_mapi",
    "Z3_mk_seq_foldl",
    "Z3_mk_seq_foldli",
];

impl SeqHof {
    /// The operation of the C function `function`.
    pub fn by_function(function: &str) -> Option<&'static SeqHof> {
        SEQ_HOFS.iter().find(|h| h.function == function)
    }

    /// The sorts of the call's terms, in order.
    pub fn arg_sorts(&self) -> Vec<Sort> {
        let mut sorts = vec![Sort::Int; self.params.len() - 1];
        sorts.push(Sort::seq(Sort::Int));
        sorts
    }

    /// The sort of the result.
    pub fn result(&self) -> Sort {
        match self.folds {
            true => Sort::Int,
            false => Sort::seq(Sort::Int),
        }
    }

    /// The lambda's SMT-LIB text, integers as `int` writes them (`(- 3)` in SMT-LIB).
    pub fn lambda(&self, add: &str, mul: &str) -> String {
        let params: Vec<String> = self.params.iter().map(|p| format!("({p} Int)")).collect();
        let others: Vec<&str> = self.params.iter().copied().filter(|p| *p != "x").collect();
        let mut body = format!("(+ (* {mul} x) {add}");
        for p in others {
            body.push(' ');
            body.push_str(p);
        }
        body.push(')');
        format!("(lambda ({}) {body})", params.join(" "))
    }

    /// The term in Z3's SMT-LIB dialect, of the terms' texts `args`.
    pub fn smt2(&self, add: &str, mul: &str, args: &[String]) -> String {
        format!(
            "({} {} {})",
            self.head,
            self.lambda(add, mul),
            args.join(" ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lambda_takes_every_parameter_once() {
        let foldli = SeqHof::by_function("Z3_mk_seq_foldli").unwrap();
        assert_eq!(
            foldli.lambda("1", "(- 2)"),
            "(lambda ((i Int) (a Int) (x Int)) (+ (* (- 2) x) 1 i a))"
        );
        let map = SeqHof::by_function("Z3_mk_seq_map").unwrap();
        assert_eq!(
            map.smt2("0", "3", &["s".into()]),
            "(seq.map (lambda ((x Int)) (+ (* 3 x) 0)) s)"
        );
        assert_eq!(map.arg_sorts(), vec![Sort::seq(Sort::Int)]);
        assert_eq!(foldli.arg_sorts().len(), 3);
        assert_eq!(foldli.result(), Sort::Int);
        assert!(SeqHof::by_function("Z3_mk_seq_power").is_none());
    }

    #[test]
    fn every_function_is_listed() {
        let listed: Vec<&str> = SEQ_HOFS.iter().map(|h| h.function).collect();
        assert_eq!(listed, SEQ_HOF_FUNCTIONS);
    }
}
