//! ddsmt
pub mod cli;
pub mod engine;
pub mod mutators;
pub mod strategies;
