//! ddsmt
