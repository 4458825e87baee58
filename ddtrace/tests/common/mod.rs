//! Shared by ddtrace's tests: a deterministic generator of valid traces, the simulated
//! `UNTRACE_FAIL_ON` tester (in process, no Z3), and the built binaries.
#![allow(dead_code)]

use ddtrace::trace_io;
use model::trace::text::format_call;
use model::{AnyId, Call, Entry, Op, Ret, SolverId, SortId, State, TermId};
use std::path::PathBuf;

/// A small linear congruential generator: tests need reproducible traces, not quality.
pub struct Lcg(u64);

impl Lcg {
    pub fn new(seed: u64) -> Lcg {
        Lcg(seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407))
    }
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Builds a trace call by call, assigning ids.
pub struct Builder {
    pub entries: Vec<Entry>,
    next: [u32; 5],
}

impl Builder {
    pub fn new() -> Builder {
        Builder {
            entries: Vec::new(),
            next: [0; 5],
        }
    }

    fn push(&mut self, call: Call, kind: usize) -> u32 {
        self.next[kind] += 1;
        let n = self.next[kind];
        let id = match kind {
            0 => AnyId::Sort(SortId(n)),
            1 => AnyId::Term(TermId(n)),
            _ => AnyId::Solver(SolverId(n)),
        };
        self.entries.push(Entry {
            call,
            ret: Some(Ret::Id(id)),
        });
        n
    }
    pub fn sort(&mut self, call: Call) -> SortId {
        SortId(self.push(call, 0))
    }
    pub fn term(&mut self, call: Call) -> TermId {
        TermId(self.push(call, 1))
    }
    pub fn solver(&mut self) -> SolverId {
        SolverId(self.push(Call::NewSolver(model::SolverKind::Default), 3))
    }
    pub fn op(&mut self, name: &str, indices: &[u32], args: &[TermId]) -> TermId {
        self.term(Call::Op {
            op: Op::lookup(name).unwrap_or_else(|| panic!("no op {name}")),
            indices: indices.to_vec(),
            args: args.to_vec(),
        })
    }
    pub fn action(&mut self, call: Call) {
        self.entries.push(Entry { call, ret: None });
    }
    pub fn text(&self) -> String {
        model::trace::text::write(&self.entries)
    }
}

/// A valid trace over bit-vectors, Booleans and integers with `n` random steps, assertions,
/// scopes and checks (`check_sat` without recorded answers, so any replay agrees with it).
pub fn random_trace(seed: u64, n: usize) -> Vec<Entry> {
    let mut rng = Lcg::new(seed);
    let mut b = Builder::new();
    let bv = b.sort(Call::SortBv(32));
    let boolean = b.sort(Call::SortBool);
    let int = b.sort(Call::SortInt);
    let mut bvs: Vec<TermId> = ["a", "b", "c"]
        .iter()
        .map(|n| {
            b.term(Call::Const {
                sort: bv,
                name: n.to_string(),
            })
        })
        .collect();
    let mut bools: Vec<TermId> = ["p", "q"]
        .iter()
        .map(|n| {
            b.term(Call::Const {
                sort: boolean,
                name: n.to_string(),
            })
        })
        .collect();
    let mut ints: Vec<TermId> = ["x", "y"]
        .iter()
        .map(|n| {
            b.term(Call::Const {
                sort: int,
                name: n.to_string(),
            })
        })
        .collect();
    let z = b.solver();
    let mut depth = 0;
    for _ in 0..n {
        let pick = |rng: &mut Lcg, v: &Vec<TermId>| v[rng.below(v.len())];
        match rng.below(12) {
            0..=2 => {
                let ops = [
                    "bvadd", "bvmul", "bvand", "bvor", "bvxor", "bvsub", "bvudiv", "bvshl",
                ];
                let op = ops[rng.below(ops.len())];
                let (x, y) = (pick(&mut rng, &bvs), pick(&mut rng, &bvs));
                bvs.push(b.op(op, &[], &[x, y]));
            }
            3 => {
                let v = (rng.below(1 << 20) + 300).to_string();
                bvs.push(b.term(Call::Lit { sort: bv, value: v }));
            }
            4 => {
                let lo = rng.below(8) as u32;
                let hi = lo + 8 + rng.below(8) as u32;
                let x = pick(&mut rng, &bvs);
                let e = b.op("extract", &[hi, lo], &[x]);
                bvs.push(b.op("zero_extend", &[31 - (hi - lo)], &[e]));
            }
            5 => {
                let x = pick(&mut rng, &bvs);
                bvs.push(b.op("rotate_left", &[1 + rng.below(20) as u32], &[x]));
            }
            6 => {
                let (x, y) = (pick(&mut rng, &bvs), pick(&mut rng, &bvs));
                bools.push(b.op(["bvult", "bvsle", "="][rng.below(3)], &[], &[x, y]));
            }
            7 => {
                let k = 2 + rng.below(3);
                let args: Vec<TermId> = (0..k).map(|_| pick(&mut rng, &bools)).collect();
                bools.push(b.op(["and", "or"][rng.below(2)], &[], &args));
            }
            8 => {
                let k = 2 + rng.below(2);
                let args: Vec<TermId> = (0..k).map(|_| pick(&mut rng, &ints)).collect();
                ints.push(b.op("+", &[], &args));
                let lit = b.term(Call::Lit {
                    sort: int,
                    value: (rng.below(1000) + 50).to_string(),
                });
                ints.push(lit);
                let (x, y) = (pick(&mut rng, &ints), pick(&mut rng, &ints));
                bools.push(b.op("<", &[], &[x, y]));
            }
            9 => {
                let t = pick(&mut rng, &bools);
                b.action(Call::Assert(z, t));
            }
            10 => {
                if depth > 0 && rng.below(2) == 0 {
                    b.action(Call::Pop(z, depth));
                    depth = 0;
                } else {
                    b.action(Call::Push(z));
                    depth += 1;
                }
            }
            _ => {
                let k = rng.below(3);
                let ts: Vec<TermId> = bools[..2].iter().copied().take(k).collect();
                b.action(Call::CheckSatAssuming(z, ts));
            }
        }
    }
    b.entries
}

/// Behaves like `untrace` with `UNTRACE_FAIL_ON=pattern` as far as the reference state can
/// tell: a malformed prefix is rejected (exit 3), reaching a call whose line contains the
/// pattern is the failure.
pub fn fails_on(pattern: &str) -> impl Fn(&[u8]) -> bool + Sync + '_ {
    move |bytes: &[u8]| {
        let Ok((entries, _)) = trace_io::read(bytes) else {
            return false;
        };
        let mut state = State::new();
        for entry in &entries {
            if state.check(&entry.call).is_err() {
                return false;
            }
            if format_call(&entry.call).contains(pattern) {
                return true;
            }
            if state.apply(&entry.call, entry.ret.as_ref()).is_err() {
                return false;
            }
        }
        false
    }
}

/// `entries` without entry `i`.
pub fn without(entries: &[Entry], i: usize) -> Vec<Entry> {
    let mut out = entries.to_vec();
    out.remove(i);
    out
}

/// The `ddtrace` binary of this build.
pub fn ddtrace_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_ddtrace"))
}

/// The `untrace` binary beside `ddtrace`, built first if it is missing (`cargo test -p
/// ddtrace` alone does not build other packages' binaries).
pub fn untrace_bin() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| {
            let exe = ddtrace_bin();
            let dir = exe.parent().expect("binary directory").to_path_buf();
            let untrace = dir.join("untrace");
            if !untrace.is_file() {
                // <target>/<profile>/ddtrace: build untrace into the same target directory.
                let target = dir.parent().expect("target directory");
                let status = std::process::Command::new(env!("CARGO"))
                    .args(["build", "-p", "untrace", "--bin", "untrace", "--target-dir"])
                    .arg(target)
                    .status()
                    .expect("cargo runs");
                assert!(status.success(), "building untrace failed");
            }
            assert!(
                untrace.is_file(),
                "no untrace binary at {}",
                untrace.display()
            );
            untrace
        })
        .clone()
}
