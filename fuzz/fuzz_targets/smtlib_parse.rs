//! The SMT-LIB parser, printer and sort inference: any text parses or fails with a located
//! error, never a panic; what parses prints to text that parses to the same tree.
//! The body is `model::fuzz::smtlib_parse`, which the stable test `model/tests/fuzz_targets.rs`
//! runs too.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| model::fuzz::smtlib_parse(data));
