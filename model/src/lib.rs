//! The API model of Z3 as the tools of this workspace see it, on top of the [`smtlib`] crate.
//!
//! - [`sort`], [`ops`], [`smtlib`], [`eval`]: re-exported from the `smtlib` crate (the one
//!   `Sort` type, the operation table, the SMT-LIB language, the evaluator), so that
//!   `model::sort::Sort`, `model::ops::OPS`, `model::smtlib::Tree` and `model::eval::Value`
//!   name what they always named.
//! - [`call`]: API calls and recorded results, the vocabulary of a trace.
//! - [`datatype`]: algebraic datatypes, declared and resolved.
//! - [`call_text`]: the SMT-LIB text of what calls build (symbols, literals, operations).
//! - [`state`]: the reference state with preconditions, so any tool can validate a call
//!   sequence without Z3.
//! - [`trace`]: the text and binary trace formats.
//! - [`fixedpoint`]: the trace's fixedpoint context and its readers.
//! - [`goals`]: the readers of goals and solvers, and the probe combinators.
//! - [`handles`]: AST maps and vectors (their scripts and reference containers) and the
//!   global reads (`read_global`).
//! - [`finding`]: failure kinds and their signatures (dedup by root cause).
//! - [`options`]: logics and tactics the model accepts.
//! - [`read`]: the read-back functions and what the reference state expects them to answer.
//! - [`fuzz`]: the bodies of the fuzz targets (`fuzz/` and `tests/fuzz_targets.rs` run them).
//!
//! Architecture invariant: this crate never links Z3 and never spawns a process.

pub mod call;
pub mod call_args;
pub mod call_text;
pub mod complex;
pub mod datatype;
pub mod finding;
pub mod fixedpoint;
pub mod fset;
pub mod fuzz;
pub mod goals;
pub mod handles;
pub mod introspect;
pub mod options;
pub mod quant;
pub mod rcf;
pub mod read;
pub mod seq_hof;
pub mod state;
pub mod trace;

/// The SMT-LIB language: `model::smtlib::Tree` is `smtlib::Tree`.
pub use ::smtlib;
pub use call::{
    AnyId, Call, Check, Direction, Entry, FuncId, GoalId, ModelId, Op, OptId, ProbeCmp, ProbeTest,
    Ret, RetKind, SatResult, SolverId, SolverKind, SortId, TacticExpr, TacticId, TermId,
};
pub use call_args::{ArgKind, CallSpec, Family, Smt2};
pub use smtlib::{eval, ops, sort};
pub use smtlib::{Sort, Theory};
pub use state::{State, Violation};
pub use trace::Trace;
