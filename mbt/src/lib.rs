//! mbt
