//! Findings of a round: [`Failure`] of a [`FailureKind`] and its signature by root cause.
//! They live in `model::finding`, shared with `untrace` (which prints the signature of a
//! failing replay) and the minimizer; this module names them for the fuzzer.

pub use model::finding::{normalize, Failure, FailureKind};
