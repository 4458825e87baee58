//! The API model of Z3 as the tools of this workspace see it.
//!
//! - [`sort`]: the one `Sort` type used by traces, SMT-LIB and the evaluator.
//!
//! Architecture invariant: this crate never links Z3 and never spawns a process.

pub mod sort;

pub use sort::{Sort, Theory};
