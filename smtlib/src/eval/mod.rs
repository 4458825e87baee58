//! An independent evaluator of ground SMT-LIB terms and a model validator (issue 4, parts 2
//! and 3), in the spirit of Dolmen's model checking, extended to strings.
//!
//! - [`value`]: [`Value`] and its canonical forms (exact integers and rationals, bit-vectors of
//!   any width, code-point strings, arrays as default + table, uninterpreted elements,
//!   datatype values);
//! - [`builtins`], `bv`, `strings`, [`regex`], `seq`: the interpreted operations with SMT-LIB 2.6
//!   semantics (total bit-vector division and shifts, Euclidean `div`/`mod`, ...);
//! - [`model`]: [`Model`] (a solver's `define-fun`s) and [`Env`] (the problem's definitions);
//! - [`evaluator`]: [`Evaluator`], three-valued: a term is true, false, or open when it depends
//!   on a missing value or an unextended partial operation (`div`/`mod`/`/` by zero, where a
//!   model's own `div`/`div0`/... applies, only where the builtin is undefined; likewise a
//!   model's definition of a datatype selector applied to the wrong constructor). Quantifiers
//!   are evaluated over finite domains (Bool, small bit-vectors, enumerations, a model's listed
//!   universe); sequences (`seq`) are Z3's, `seq.nth` outside the sequence is open;
//! - [`fp`]: IEEE floating point of any format with exact rounding;
//! - [`response`]: splitting a solver response into per-`check-sat` answers and models;
//! - [`checker`]: [`check_texts`] / [`check_files`] validate every assertion in scope at every
//!   `check-sat` and give a [`Report`] with a [`Verdict`]; full or interleaved low-memory mode;
//! - [`source`]: [`Src`] (a parsed, named piece of a file), [`Located`] errors.
//!
//! For library callers (the fuzzer): [`evaluate`] a term of a tree under a [`Model`], or
//! [`evaluate_str`] a term given as text.

pub mod builtins;
mod bv;
pub mod checker;
pub mod evaluator;
pub mod fp;
pub mod model;
pub mod regex;
pub mod response;
mod seq;
pub mod sort_aliases;
pub mod source;
mod strings;
pub mod value;

pub use checker::{
    check_files, check_texts, check_texts_interleaved, CheckResult, Failure, Limits, Outcome,
    Report, Verdict,
};
pub use evaluator::Evaluator;
pub use model::{Constructor, Env, FunDef, Model};
pub use response::{read_response, Answer, Response, Status};
pub use source::{Located, Src, TermRef};
pub use strings::decode_literal;
pub use value::{ArrayValue, BitVec, Value};

use crate::NodeId;
use std::fmt;

/// Why [`evaluate`] gives no value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// Ill-sorted or malformed term (or an evaluation limit), at a position.
    Error(Located),
    /// The value depends on what the model leaves open (the reasons say what).
    Open(Vec<String>),
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalError::Error(e) => write!(f, "{e}"),
            EvalError::Open(reasons) => write!(f, "no value: {}", reasons.join("; ")),
        }
    }
}

impl std::error::Error for EvalError {}

/// The value of the term at `node` of `src` under `model`, with no problem definitions in
/// scope: every free symbol takes its value from the model. Terms may nest about 2,000 deep.
pub fn evaluate(src: &Src, node: NodeId, model: &Model) -> Result<Value, EvalError> {
    evaluate_in(src, node, &Env::default(), model)
}

/// Like [`evaluate`], with the problem's definitions and declarations in `env`.
pub fn evaluate_in(src: &Src, node: NodeId, env: &Env, model: &Model) -> Result<Value, EvalError> {
    let mut ev = Evaluator::new(env, model);
    match ev.eval(src, node) {
        Ok(Some(v)) => Ok(v),
        Ok(None) => Err(EvalError::Open(ev.open_reasons())),
        Err(e) => Err(EvalError::Error(e)),
    }
}

/// The value of a term written in SMT-LIB under `model`.
pub fn evaluate_str(term: &str, model: &Model) -> Result<Value, EvalError> {
    evaluate_str_in(term, &Env::default(), model)
}

/// Like [`evaluate_str`], with the problem's declarations (such as datatypes) in `env`.
pub fn evaluate_str_in(term: &str, env: &Env, model: &Model) -> Result<Value, EvalError> {
    let src = Src::parse(term, "<term>", 0).map_err(EvalError::Error)?;
    match src.tree.roots() {
        [root] => evaluate_in(&src, *root, env, model),
        _ => Err(EvalError::Error(Located {
            file: "<term>".into(),
            line: 1,
            column: 1,
            message: "expected exactly one term".into(),
        })),
    }
}
