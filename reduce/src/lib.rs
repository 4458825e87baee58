//! The reduction engine shared by `ddsmt` and `ddtrace` (each depends on this crate, not on the other).
//!
//! It knows nothing about SMT-LIB or traces: a candidate is a byte string. The pieces:
//! - [`command`]: run a command on a file (argument vector, process group, timeout, memout);
//!   [`RunOutcome`] is what one run did.
//! - [`matching`]: [`Matching`] and [`matches_golden`], the behaviour comparison of ddSMT 2.
//! - [`tester`]: the [`Tester`] trait ("does this candidate keep the behaviour?") and
//!   [`CommandTester`], which answers it by running a command (and an optional cross-check).
//! - [`reducer`]: [`Reducer`], the state of one reduction: best candidate, output file, cache,
//!   parallel deterministic evaluation ([`Reducer::first_success`]) and statistics.
//! - [`algorithms`]: [`ddmin`] and [`substitute`] over any list of units.
//! - [`signals`]: Ctrl-C / SIGTERM handling ([`StopFlag`]).
//! - [`output`]: [`check_output`], the output path checked before the golden run.
//! - [`error`]: [`EngineError`] and the documented exit codes.

pub mod algorithms;
pub mod command;
pub mod error;
pub mod matching;
pub mod output;
pub mod reducer;
pub mod signals;
pub mod tester;

pub use algorithms::{ddmin, substitute};
pub use command::{CommandLine, Exit, RunLimits, RunOutcome};
pub use error::{exit_code, EngineError};
pub use matching::{matches_golden, Matching};
pub use output::{check_json_output, check_output, OutputSnapshot};
pub use reducer::{
    write_atomically, Candidate, Figures, PassFigures, PassStats, Reducer, ReducerOptions, Status,
};
pub use signals::StopFlag;
pub use tester::{CommandTester, Property, PropertySpec, Tester, Verdict};
