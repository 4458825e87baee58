//! untrace: replays Z3 API traces.
//!
//! - [`executor`]: the one executor of API calls, shared with mbt.
//! - [`smt2`]: writes a trace as an SMT-LIB script where the calls allow it.
//! - [`replay`]: reads a trace file and replays it, with the exit codes of the binary.

pub mod executor;

pub use executor::{ExecConfig, ExecError, Executor};
pub mod replay;
pub mod smt2;
