//! The API model of Z3 as the tools of this workspace see it.
//!
//! - [`sort`]: the one `Sort` type used by traces, SMT-LIB and the evaluator.
//! - [`ops`]: the operation table (names, indices, arity, sort rules).
//! - [`call`]: API calls and recorded results, the vocabulary of a trace.
//! - [`datatype`]: algebraic datatypes, declared and resolved.
//! - [`call_text`]: the SMT-LIB text of what calls build (symbols, literals, operations).
//! - [`state`]: the reference state with preconditions, so any tool can validate a call
//!   sequence without Z3.
//! - [`trace`]: the text and binary trace formats.
//! - [`finding`]: failure kinds and their signatures (dedup by root cause).
//! - [`options`]: logics and tactics the model accepts.
//!
//! Architecture invariant: this crate never links Z3 and never spawns a process.

pub mod call;
pub mod call_args;
pub mod call_text;
pub mod datatype;
pub mod eval;
pub mod finding;
pub mod ops;
pub mod options;
pub mod smtlib;
pub mod sort;
pub mod state;
pub mod trace;

pub use call::{
    AnyId, Call, Check, Direction, Entry, FuncId, GoalId, ModelId, Op, OptId, ProbeCmp, ProbeTest,
    Ret, RetKind, SatResult, SolverId, SolverKind, SortId, TacticExpr, TacticId, TermId,
};
pub use call_args::{ArgKind, CallSpec, Family, Smt2};
pub use sort::{Sort, Theory};
pub use state::{State, Violation};
pub use trace::Trace;
