//! The model checker (`checkmodel`'s library function): a problem and a response, split at the
//! first NUL byte of the input, give a verdict or a located error, never a panic or a hang.
#![no_main]

use libfuzzer_sys::fuzz_target;
use smtlib::eval::{check_texts, Limits};

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else {
        return;
    };
    let (problem, response) = source.split_once('\0').unwrap_or((source, "sat\n(model)\n"));
    let _ = check_texts(problem, "problem.smt2", response, "response", Limits::default());
});
