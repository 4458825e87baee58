//! untrace: replays Z3 API traces.
//!
//! - [`executor`]: the one executor of API calls, shared with mbt.
//! - [`crash`]: names where in libz3 a fatal signal struck.
//! - [`supervise`]: runs a replay in a child process and classifies how it ended.
//! - [`smt2`]: writes a trace as an SMT-LIB script where the calls allow it.
//! - [`replay`]: reads a trace file and replays it, with the exit codes of the binary.

pub mod crash;
pub mod executor;

pub use executor::{ExecConfig, ExecError, Executor};
pub mod replay;
pub mod smt2;
pub mod supervise;
