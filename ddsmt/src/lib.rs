//! ddsmt
pub mod engine;
