//! [`smaller_numbers`]: make the numbers of a trace smaller, one entry at a time: bit-widths
//! (every `sort_bv` of one width at once, with the literals of those sorts cut to the new
//! width), floating-point formats, operation indices (`extract`, shift and rotate amounts,
//! extensions, conversions), literal values, `pop` counts, numeric option values; and the
//! simplest solver configuration and model completion flag.
//!
//! Every candidate must keep all dependants well-sorted in the reference state, which the
//! session checks before any replay. Each accepted change makes one number smaller, so the
//! pass ends.

use crate::analysis::Analysis;
use crate::session::Session;
use model::{Call, Entry, SolverKind, Sort};
use num_bigint::{BigInt, BigUint};
use num_traits::{One, Signed, Zero};

/// Candidate values below `v` (at least `min`), smallest first: the minimum, the middle,
/// the predecessor.
pub fn smaller_u32(v: u32, min: u32) -> Vec<u32> {
    if v <= min {
        return Vec::new();
    }
    let mut out = vec![min, min + (v - min) / 2, v - 1];
    out.dedup();
    out
}

/// Smaller literal values of `sort` than `value`, simplest first. Integer and bit-vector
/// literals get 0, 1 (with the sign) and their absolute value here; the magnitudes between
/// are bisected by [`bisect_literal`].
pub fn smaller_literals(sort: &Sort, value: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    match sort {
        Sort::BitVec(_) => {
            if let Some(v) = BigUint::parse_bytes(value.as_bytes(), 10) {
                if !v.is_zero() {
                    let one = BigUint::one();
                    for c in [BigUint::zero(), one] {
                        if c < v {
                            out.push(c.to_string());
                        }
                    }
                }
            }
        }
        Sort::Int => {
            if let Ok(v) = value.parse::<BigInt>() {
                let mag = v.abs();
                let sign = if v.is_negative() {
                    -BigInt::one()
                } else {
                    BigInt::one()
                };
                for c in [BigInt::zero(), sign] {
                    if c.abs() < mag {
                        out.push(c.to_string());
                    }
                }
                if v.is_negative() {
                    out.push(mag.to_string());
                }
            }
        }
        Sort::Real => {
            let integral = value
                .split(['/', '.'])
                .next()
                .filter(|p| value.contains(['/', '.']) && p.parse::<BigInt>().is_ok());
            if value != "0" {
                out.push("0".into());
            }
            if let Some(p) = integral {
                out.push(p.to_string());
            }
        }
        Sort::FloatingPoint(..) if value != "+zero" => out.push("+zero".into()),
        Sort::String if !value.is_empty() => {
            let chars: Vec<char> = value.chars().collect();
            out.push(String::new());
            out.push(chars[..chars.len() / 2].iter().collect());
            out.push(chars[..chars.len() - 1].iter().collect());
        }
        Sort::RoundingMode if value != "RNE" => out.push("RNE".into()),
        Sort::Bool if value == "true" => out.push("false".into()),
        _ => {}
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|c| c != value && seen.insert(c.clone()));
    out
}

/// The entries of `entries` with every `sort_bv from` made `sort_bv to`, and the literals of
/// those sorts cut to `to` bits.
fn change_width(entries: &[Entry], from: u32, to: u32) -> Vec<Entry> {
    let mut sorts = std::collections::HashSet::new();
    let modulus = BigUint::one() << to;
    entries
        .iter()
        .map(|e| {
            let call = match &e.call {
                Call::SortBv(w) if *w == from => {
                    if let Some(model::Ret::Id(model::AnyId::Sort(s))) = &e.ret {
                        sorts.insert(*s);
                    }
                    Call::SortBv(to)
                }
                Call::Lit { sort, value } if sorts.contains(sort) => Call::Lit {
                    sort: *sort,
                    value: BigUint::parse_bytes(value.as_bytes(), 10)
                        .map_or_else(|| value.clone(), |v| (v % &modulus).to_string()),
                },
                other => other.clone(),
            };
            Entry {
                call,
                ret: e.ret.clone(),
            }
        })
        .collect()
}

/// The candidates that make a number of entry `i` smaller, simplest first.
fn variants(entries: &[Entry], i: usize, a: &Analysis) -> Vec<Vec<Entry>> {
    let with = |call: Call| {
        let mut out = entries.to_vec();
        out[i].call = call;
        out
    };
    match &entries[i].call {
        Call::SortBv(w) => smaller_u32(*w, 1)
            .into_iter()
            .map(|to| change_width(entries, *w, to))
            .collect(),
        Call::SortFp(e, s) => smaller_u32(*e, 2)
            .into_iter()
            .map(|e2| with(Call::SortFp(e2, *s)))
            .chain(
                smaller_u32(*s, 2)
                    .into_iter()
                    .map(|s2| with(Call::SortFp(*e, s2))),
            )
            .collect(),
        Call::Op { op, indices, args } => {
            let mut out = Vec::new();
            if op.name() == "extract" && indices.len() == 2 && indices[1] > 0 {
                // Same width, lowest position.
                out.push(with(Call::Op {
                    op: *op,
                    indices: vec![indices[0] - indices[1], 0],
                    args: args.clone(),
                }));
            }
            for (k, v) in indices.iter().enumerate() {
                for c in smaller_u32(*v, 0) {
                    let mut idx = indices.clone();
                    idx[k] = c;
                    out.push(with(Call::Op {
                        op: *op,
                        indices: idx,
                        args: args.clone(),
                    }));
                }
            }
            out
        }
        Call::Lit { sort, value } => match a.sort_of.get(sort) {
            Some(s) => smaller_literals(s, value)
                .into_iter()
                .map(|v| {
                    with(Call::Lit {
                        sort: *sort,
                        value: v,
                    })
                })
                .collect(),
            None => Vec::new(),
        },
        Call::Pop(z, n) => smaller_u32(*n, 1)
            .into_iter()
            .map(|m| with(Call::Pop(*z, m)))
            .collect(),
        Call::SetParam { solver, key, value } => smaller_option(value)
            .into_iter()
            .map(|v| {
                with(Call::SetParam {
                    solver: *solver,
                    key: key.clone(),
                    value: v,
                })
            })
            .collect(),
        Call::SetGlobal { key, value } => smaller_option(value)
            .into_iter()
            .map(|v| {
                with(Call::SetGlobal {
                    key: key.clone(),
                    value: v,
                })
            })
            .collect(),
        Call::NewSolver(SolverKind::Logic(_) | SolverKind::Tactic(_)) => {
            vec![with(Call::NewSolver(SolverKind::Default))]
        }
        Call::ModelEval {
            model,
            term,
            completion: true,
        } => vec![with(Call::ModelEval {
            model: *model,
            term: *term,
            completion: false,
        })],
        _ => Vec::new(),
    }
}

/// Smaller values of a numeric option value.
fn smaller_option(value: &str) -> Vec<String> {
    match value.parse::<u64>() {
        Ok(v) if v > 0 => {
            let mut out = vec![0, v / 2, v - 1];
            out.dedup();
            out.into_iter().map(|n| n.to_string()).collect()
        }
        _ => Vec::new(),
    }
}

pub fn smaller_numbers(s: &mut Session) {
    let mut i = 0;
    while i < s.current.len() && !s.stopped() {
        let a = Analysis::of(&s.current);
        let cands = variants(&s.current, i, &a);
        // On success the same entry may get smaller still.
        if !cands.is_empty()
            && s.first_success("numbers", cands.len(), |_, k| Some(cands[k].clone()))
        {
            continue;
        }
        bisect_literal(s, i, &a);
        i += 1;
    }
}

/// Makes the magnitude of the integer or bit-vector literal of entry `i` as small as the
/// behaviour allows, once 0 and 1 have failed ([`variants`]).
///
/// Why bisection: a failure that needs a value above some bound (beyond 32 bits, say) is
/// common, and candidates tried from the simplest down (half, then the predecessor) reach
/// the bound from 2^63 only one step at a time, billions of replays; bisection takes at most
/// one replay per bit.
fn bisect_literal(s: &mut Session, i: usize, a: &Analysis) {
    let Call::Lit { sort, value } = &s.current[i].call else {
        return;
    };
    let sort = *sort;
    let (negative, magnitude) = match a.sort_of.get(&sort) {
        Some(Sort::Int) => match value.parse::<BigInt>() {
            Ok(v) => (v.is_negative(), v.magnitude().clone()),
            Err(_) => return,
        },
        Some(Sort::BitVec(_)) => match BigUint::parse_bytes(value.as_bytes(), 10) {
            Some(v) => (false, v),
            None => return,
        },
        _ => return,
    };
    bisect(BigUint::one(), magnitude, |m| {
        if s.stopped() {
            return false;
        }
        let value = if negative {
            format!("-{m}")
        } else {
            m.to_string()
        };
        s.first_success("numbers", 1, |current, _| {
            let mut out = current.to_vec();
            out[i].call = Call::Lit {
                sort,
                value: value.clone(),
            };
            Some(out)
        })
    });
}

/// The smallest value in `(rejected, accepted]` that `accepts` takes, by bisection (exact
/// when acceptance is monotone, a local minimum otherwise); every value asked is below the
/// last accepted one.
fn bisect(
    mut rejected: BigUint,
    mut accepted: BigUint,
    mut accepts: impl FnMut(&BigUint) -> bool,
) -> BigUint {
    while accepted > &rejected + 1u32 {
        let middle = (&rejected + &accepted) >> 1u32;
        if accepts(&middle) {
            accepted = middle;
        } else {
            rejected = middle;
        }
    }
    accepted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smaller_values() {
        assert_eq!(smaller_u32(32, 1), vec![1, 16, 31]);
        assert_eq!(smaller_u32(2, 1), vec![1]);
        assert!(smaller_u32(1, 1).is_empty());
        assert_eq!(smaller_literals(&Sort::BitVec(8), "200"), ["0", "1"]);
        assert_eq!(smaller_literals(&Sort::BitVec(8), "1"), ["0"]);
        assert!(smaller_literals(&Sort::BitVec(8), "0").is_empty());
        assert_eq!(smaller_literals(&Sort::Int, "-7"), ["0", "-1", "7"]);
        assert_eq!(smaller_literals(&Sort::Int, "2"), ["0", "1"]);
        assert_eq!(smaller_literals(&Sort::Real, "3/4"), ["0", "3"]);
        assert_eq!(smaller_literals(&Sort::String, "abcd"), ["", "ab", "abc"]);
        assert_eq!(
            smaller_literals(&Sort::FloatingPoint(8, 24), "1.5"),
            ["+zero"]
        );
        assert!(smaller_literals(&Sort::RoundingMode, "RNE").is_empty());
    }

    /// A literal that must stay above a bound far below it (a failure that needs a value
    /// beyond 32 bits) reaches the bound in one candidate per bit, not one step at a time.
    #[test]
    fn bisection_finds_the_bound() {
        let bound = BigUint::one() << 31u32;
        let mut asked = 0;
        let found = bisect(BigUint::one(), BigUint::one() << 63u32, |m| {
            asked += 1;
            *m > bound
        });
        assert_eq!(found, &bound + 1u32);
        assert!(asked <= 63, "{asked} candidates");
        assert_eq!(
            bisect(BigUint::one(), BigUint::from(2u32), |_| true),
            2u32.into()
        );
    }

    #[test]
    fn width_change_cuts_literals() {
        let (entries, _) = crate::trace_io::read(
            b"z3-trace 1\nsort_bv 8\nreturn s1\nlit s1 \"200\"\nreturn t1\nsort_bv 4\nreturn s2\nlit s2 \"9\"\nreturn t2\n",
        )
        .unwrap();
        let out = change_width(&entries, 8, 3);
        assert_eq!(out[0].call, Call::SortBv(3));
        assert_eq!(
            out[1].call,
            Call::Lit {
                sort: model::SortId(1),
                value: "0".into()
            }
        );
        assert_eq!(out[3], entries[3]);
        assert!(crate::validity::is_valid(&out));
    }
}
