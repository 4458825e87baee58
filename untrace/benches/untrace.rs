//! Benchmark (run with `cargo bench -p untrace`; not a test): parse speed of a 1,000,000-line
//! trace in text and binary (lines/s), and the time of replaying a trace through the executor
//! relative to making the same calls directly against the `z3` crate in a hand-written loop.

use model::call::{AnyId, Call, Entry, Op, Ret, SolverId, SolverKind, SortId, TermId};
use model::trace::{self, binary, text};
use std::time::{Duration, Instant};
use untrace::{ExecConfig, Executor};
use z3::ast::BV;

/// A trace of `blocks` independent blocks: a fresh 32-bit constant `x`, `x + 1`, the
/// comparison `x <= x + 1` asserted to one solver; 7 lines per block after a 5-line prelude
/// (header, a sort, a solver and the literal 1).
fn bv_trace(blocks: u32) -> Vec<Entry> {
    let op = |name: &str| Op::lookup(name).expect("operation exists");
    let id = |t: u32| Some(Ret::Id(AnyId::Term(TermId(t))));
    let mut entries = vec![
        Entry {
            call: Call::SortBv(32),
            ret: Some(Ret::Id(AnyId::Sort(SortId(1)))),
        },
        Entry {
            call: Call::NewSolver(SolverKind::Default),
            ret: Some(Ret::Id(AnyId::Solver(SolverId(1)))),
        },
        Entry {
            call: Call::Lit {
                sort: SortId(1),
                value: "1".into(),
            },
            ret: id(1),
        },
    ];
    for i in 0..blocks {
        let x = 2 + 3 * i;
        entries.push(Entry {
            call: Call::Const {
                sort: SortId(1),
                name: format!("x{i}"),
            },
            ret: id(x),
        });
        entries.push(Entry {
            call: Call::Op {
                op: op("bvadd"),
                indices: vec![],
                args: vec![TermId(x), TermId(1)],
            },
            ret: id(x + 1),
        });
        entries.push(Entry {
            call: Call::Op {
                op: op("bvule"),
                indices: vec![],
                args: vec![TermId(x), TermId(x + 1)],
            },
            ret: id(x + 2),
        });
        entries.push(Entry {
            call: Call::Assert(SolverId(1), TermId(x + 2)),
            ret: None,
        });
    }
    entries
}

fn lines(entries: &[Entry]) -> usize {
    entries
        .iter()
        .map(|e| 1 + usize::from(e.ret.is_some()))
        .sum()
}

/// The same calls as `bv_trace`, straight against the z3 crate.
fn direct(blocks: u32) -> Duration {
    let start = Instant::now();
    let solver = z3::Solver::new();
    let one = BV::from_u64(1, 32);
    for i in 0..blocks {
        let x = BV::new_const(format!("x{i}"), 32);
        let sum = x.bvadd(&one);
        solver.assert(x.bvule(&sum));
    }
    start.elapsed()
}

fn replay(entries: &[Entry]) -> Duration {
    let start = Instant::now();
    let mut executor = Executor::new(ExecConfig::default());
    for entry in entries {
        executor.replay(entry).expect("the benchmark trace replays");
    }
    start.elapsed()
}

fn main() {
    // Parse speed on 1,000,000 lines.
    let blocks = (1_000_000 - 5) / 7 + 1;
    let entries = bv_trace(blocks);
    let n = lines(&entries);
    let text_form = text::write(&entries);
    let start = Instant::now();
    let parsed = trace::parse(text_form.as_bytes()).expect("parses");
    let text_time = start.elapsed();
    assert_eq!(parsed.entries.len(), entries.len());
    let binary_form = binary::write(&entries);
    let start = Instant::now();
    let decoded = trace::parse(&binary_form).expect("decodes");
    let binary_time = start.elapsed();
    assert_eq!(decoded.entries.len(), entries.len());
    let rate = |d: Duration| n as f64 / d.as_secs_f64();
    println!("trace of {n} lines ({} entries)", entries.len());
    println!(
        "text parse:   {:>8.3} s  {:>12.0} lines/s  ({} bytes)",
        text_time.as_secs_f64(),
        rate(text_time),
        text_form.len()
    );
    println!(
        "binary parse: {:>8.3} s  {:>12.0} lines/s  ({} bytes)",
        binary_time.as_secs_f64(),
        rate(binary_time),
        binary_form.len()
    );
    // Replay versus direct calls, on a smaller trace (Z3 work grows with the term count).
    let blocks = 20_000;
    let small = bv_trace(blocks);
    let direct_time = direct(blocks);
    let replay_time = replay(&small);
    println!(
        "replay of {} lines: {:.3} s; direct z3 calls: {:.3} s; ratio replay/direct = {:.2}",
        lines(&small),
        replay_time.as_secs_f64(),
        direct_time.as_secs_f64(),
        replay_time.as_secs_f64() / direct_time.as_secs_f64()
    );
}
