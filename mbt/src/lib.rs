//! mbt: the model-based API fuzzer for Z3 (after BtorMBT and Murxla).
//!
//! A campaign runs rounds; a round is a pure function of its seed and walks the state machine
//! of [`machine`] (New, Set Options, Generate Initial Expressions, Main, Dump Formula, Sat,
//! Query Model, Reset for Incremental Usage, Delete). Its transitions run [`actions`], small
//! units that generate calls ([`gen`] builds terms from the operation table) and check the
//! oracles. Every call goes through [`round_state::RoundState::run`] to the one executor of the `untrace`
//! crate ([`sut`]), which writes the trace line before the call runs.
//!
//! - [`families`]: actions of the tactic and Optimize families.
//! - [`options`]: the option model read from Z3's parameter descriptions.
//! - [`round`]: one round and its [`round::RoundReport`].
//! - [`isolate`]: each round in a forked child with time and memory limits.
//! - [`huge_pages`]: a campaign re-executes itself once so that its workers' heaps use huge
//!   pages.
//! - [`campaign`]: many rounds, deduplicated failures, statistics.
//! - [`summary`]: the campaign's output types (`summary.json`, `failure.json`), read and
//!   written in one place.
//! - [`interrupt`]: SIGINT/SIGTERM stop a campaign cleanly.
//! - [`known`]: signatures of known failures (`--known`).
//! - [`merge`]: merges the output folders of shards.
//! - [`findings_db`]: findings across nights in one SQLite file (`--db`, `mbt db`);
//!   [`triage`] replays them on a given Z3 and marks the fixed ones.
//! - [`timeline`]: the campaign's counts over time, for the report.
//! - [`report`]: the self-contained HTML report (`mbt report`, `OUT/report.html`).
//! - [`inject`]: TEST-ONLY failure injection (`MBT_INJECT`).

pub mod actions;
pub mod api_coverage;
pub mod campaign;
pub mod failure;
pub mod families;
pub mod findings_db;
pub mod gen;
pub mod huge_pages;
pub mod inject;
pub mod interrupt;
pub mod isolate;
pub mod known;
pub mod machine;
pub mod merge;
pub mod minimize;
pub mod options;
pub mod pool;
pub mod report;
pub mod round;
pub mod round_state;
pub mod stats;
pub mod summary;
pub mod sut;
pub mod term_makers;
pub mod timeline;
pub mod triage;
