//! The binary trace reader: any bytes after the magic give a trace or an error, never a panic
//! or an allocation larger than the input; a trace that decodes encodes back to the same
//! entries, and the text form of it parses to them too (both readers accept the same traces).
//! The body is `model::fuzz::trace_binary`, which the stable test `model/tests/fuzz_targets.rs`
//! runs too.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| model::fuzz::trace_binary(data));
