//! A deterministic generator of valid synthetic traces (bit-vectors, Booleans, integers,
//! assertions, scopes, checks), for ddtrace's tests and `examples/synthetic.rs` (the
//! benchmark's input when mbt has no real failures).
#![allow(dead_code)]

use model::{AnyId, Call, Entry, Op, Ret, SolverId, SortId, TermId};

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
