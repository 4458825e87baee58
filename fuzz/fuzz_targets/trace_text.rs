//! The text trace reader and the reference state: any bytes give a trace or a located error,
//! never a panic; a trace that parses writes back to text that parses to the same entries.
//! The body is `model::fuzz::trace_text`, which the stable test `model/tests/fuzz_targets.rs`
//! runs too.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| model::fuzz::trace_text(data));
