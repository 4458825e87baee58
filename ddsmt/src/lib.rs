//! ddsmt
pub mod engine;
pub mod mutators;
pub mod cli;
pub mod strategies;
