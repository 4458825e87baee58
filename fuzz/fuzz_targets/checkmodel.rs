//! The model checker (`checkmodel`'s library function): a problem and a response, split at the
//! first NUL byte of the input, give a verdict or a located error, never a panic or a hang.
//! The body is `model::fuzz::checkmodel`, which the stable test `model/tests/fuzz_targets.rs`
//! runs too.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| model::fuzz::checkmodel(data));
