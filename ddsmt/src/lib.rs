//! ddsmt
pub mod cli;
pub mod mutators;
pub mod strategies;
