//! Writes a synthetic valid trace: `synthetic SEED STEPS OUT [--binary]`. The benchmark
//! (bench/ddtrace-vs-generic.sh) makes failing traces from it with untrace's test-only
//! `UNTRACE_FAIL_ON` when mbt has found no real failures.

#[path = "../tests/common/synthetic.rs"]
mod synthetic;

use ddtrace::trace_io::{render, Format};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(seed), Some(steps), Some(out)) = (
        args.first().and_then(|s| s.parse::<u64>().ok()),
        args.get(1).and_then(|s| s.parse::<usize>().ok()),
        args.get(2),
    ) else {
        eprintln!("usage: synthetic SEED STEPS OUT [--binary]");
        return ExitCode::from(2);
    };
    let format = if args.iter().any(|a| a == "--binary") {
        Format::Binary
    } else {
        Format::Text
    };
    let entries = synthetic::random_trace(seed, steps);
    if let Err(e) = std::fs::write(out, render(&entries, format)) {
        eprintln!("synthetic: {out}: cannot write: {e}");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
