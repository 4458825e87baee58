//! Term substitution, ddMBT's phases 2 and 3: an argument is replaced by an existing term of
//! the same sort ([`by_existing`]) or by a fresh constant of its sort ([`by_fresh`], which
//! inserts the `const` call, and the `sort_*` calls if no sort id for it is in scope; a sort
//! without constants, `RegLan`, gets its first nullary operation, `re.all`, instead). The
//! subterm that was replaced often becomes unused and goes in the next removal round.
//!
//! Both passes use the engine's `substitute` (all units at once, then halves, ...).
//! Termination: an existing term only replaces a larger one (or an equally large one defined
//! later), and only non-leaf arguments get fresh constants. Bound variables stay in scope: a
//! replacement mentions no variable the replaced term does not, and a quantifier's variable
//! is only replaced by another variable (variables are leaves, never made fresh constants).

use crate::analysis::{build_sort, Analysis};
use crate::calls::{set_term_slot, term_slots};
use crate::session::Session;
use model::ops::{Arity, OPS};
use model::{AnyId, Call, Entry, Op, Ret, Sort, SortId, TermId};
use reduce::substitute;
use std::collections::HashMap;

/// Whether slot `k` of `call` only takes a Boolean constant (or its negation): the tracker of
/// `assert_and_track`, the assumptions of `check_sat_assuming`.
fn wants_const(call: &Call, k: usize) -> bool {
    matches!(
        (call, k),
        (Call::AssertAndTrack { .. }, 1) | (Call::CheckSatAssuming(..), _)
    )
}

/// Replace arguments by smaller existing terms of the same sort.
pub fn by_existing(s: &mut Session) {
    let current = s.current.clone();
    let a = Analysis::of(&current);
    // Terms by sort, smallest (then earliest) first.
    let mut by_sort: HashMap<&Sort, Vec<(u64, usize, TermId)>> = HashMap::new();
    for (t, sort) in &a.term_sort {
        let id = AnyId::Term(*t);
        if let (Some(size), Some(def)) = (a.size.get(t), a.def.get(&id)) {
            if !a.rebound.contains(&id) {
                by_sort.entry(sort).or_default().push((*size, *def, *t));
            }
        }
    }
    for list in by_sort.values_mut() {
        list.sort_unstable();
    }
    let mut units: Vec<(usize, usize, TermId)> = Vec::new();
    for (i, entry) in current.iter().enumerate() {
        for (k, t) in term_slots(&entry.call).into_iter().enumerate() {
            let (Some(sort), Some(size), Some(def)) = (
                a.term_sort.get(&t),
                a.size.get(&t),
                a.def.get(&AnyId::Term(t)),
            ) else {
                continue;
            };
            let here = (*size, *def);
            let replacement = by_sort[sort].iter().find(|(rs, rd, r)| {
                *r != t
                    && (*rs, *rd) < here
                    && a.usable_at(AnyId::Term(*r), i)
                    && a.scope_allows(t, *r)
                    && (!wants_const(&entry.call, k) || a.consts.contains(r))
            });
            if let Some((_, _, r)) = replacement {
                units.push((i, k, *r));
            }
        }
    }
    if units.is_empty() {
        return;
    }
    let (format, validity) = (s.format, s.validity);
    substitute(s.reducer, "subst-existing", units.len(), |mask| {
        let mut candidate = current.clone();
        for (&(i, k, r), _) in units.iter().zip(mask).filter(|(_, m)| **m) {
            candidate[i].call = set_term_slot(&candidate[i].call, k, r);
        }
        Session::render_checked(format, validity, &candidate)
    });
    s.sync();
}

/// A prefix such that `prefix` + a number names no existing constant.
fn fresh_prefix(a: &Analysis) -> String {
    let mut prefix = String::from("v");
    while a.const_names.iter().any(|n| n.starts_with(&prefix)) {
        prefix.insert(0, '_');
    }
    prefix
}

/// The first nullary operation of the table whose value has `sort`: the fresh term of a sort
/// that has no constants (no call makes the sort).
fn nullary_of(sort: &Sort) -> Option<Op> {
    OPS.iter()
        .find(|op| op.arity == Arity::Fixed(0) && op.result_sort(&[], &[]).as_ref() == Ok(sort))
        .map(Op)
}

/// Replace non-leaf arguments by fresh constants of their sort.
pub fn by_fresh(s: &mut Session) {
    let current = s.current.clone();
    let a = Analysis::of(&current);
    let mut units: Vec<(usize, usize, Sort)> = Vec::new();
    for (i, entry) in current.iter().enumerate() {
        for (k, t) in term_slots(&entry.call).into_iter().enumerate() {
            if a.leaves.contains(&t) {
                continue;
            }
            if let Some(sort) = a.term_sort.get(&t) {
                if a.sort_id_at(sort, i).is_some()
                    || build_sort(sort, &mut 0).is_some()
                    || nullary_of(sort).is_some()
                {
                    units.push((i, k, sort.clone()));
                }
            }
        }
    }
    if units.is_empty() {
        return;
    }
    let prefix = fresh_prefix(&a);
    let (format, validity) = (s.format, s.validity);
    substitute(s.reducer, "subst-fresh", units.len(), |mask| {
        let mut next_sort = a.max_id[0];
        let mut next_term = a.max_id[1];
        let mut made: HashMap<&Sort, SortId> = HashMap::new();
        let mut out: Vec<Entry> = Vec::with_capacity(current.len() + units.len());
        let mut unit = 0;
        for (i, entry) in current.iter().enumerate() {
            let mut call = entry.call.clone();
            while unit < units.len() && units[unit].0 == i {
                let (_, k, sort) = &units[unit];
                if mask[unit] {
                    if let (None, Some(op)) = (build_sort(sort, &mut 0), nullary_of(sort)) {
                        next_term += 1;
                        out.push(Entry {
                            call: Call::Op {
                                op,
                                indices: Vec::new(),
                                args: Vec::new(),
                            },
                            ret: Some(Ret::Id(AnyId::Term(TermId(next_term)))),
                        });
                        call = set_term_slot(&call, *k, TermId(next_term));
                        unit += 1;
                        continue;
                    }
                    let sort_id = match a.sort_id_at(sort, i).or_else(|| made.get(sort).copied()) {
                        Some(id) => id,
                        None => {
                            let (mut calls, id) = build_sort(sort, &mut next_sort)?;
                            out.append(&mut calls);
                            made.insert(sort, id);
                            id
                        }
                    };
                    next_term += 1;
                    out.push(Entry {
                        call: Call::Const {
                            sort: sort_id,
                            name: format!("{prefix}{next_term}"),
                        },
                        ret: Some(Ret::Id(AnyId::Term(TermId(next_term)))),
                    });
                    call = set_term_slot(&call, *k, TermId(next_term));
                }
                unit += 1;
            }
            out.push(Entry {
                call,
                ret: entry.ret.clone(),
            });
        }
        Session::render_checked(format, validity, &out)
    });
    s.sync();
}
