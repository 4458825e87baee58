//! Shared helpers for the mutators: reading terms (applications, indexed operators, constants,
//! binders), building replacement [`Sx`] material, capture-avoiding substitution, and inserting
//! new declarations before a command.
//!
//! Everything here is a plain function over a [`Tree`] (and sometimes the [`MutationInput`] sort map).
//!
//! By job: [`build`] (mutations and replacement terms), [`terms`] (reading terms),
//! [`constants`] (constants and literals), [`scopes`] (declarations, binders, substitution).
//! Symbol quoting and unquoting are the `model` crate's (`smtlib::symbols`).

mod build;
mod constants;
mod scopes;
mod terms;

pub use build::*;
pub use constants::*;
pub use scopes::*;
pub use smtlib::{is_simple_symbol, unquote};
pub use terms::*;
