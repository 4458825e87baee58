//! [`Analysis`]: what the passes need to know about the objects of a trace: the sort of each
//! term and sort id, where each object is defined and released, how big each term is, and the
//! largest id of each kind (to make fresh ones).

use model::{AnyId, Call, Entry, Ret, Sort, SortId, State, TermId};
use std::collections::{HashMap, HashSet};

/// Facts about the objects of one trace (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct Analysis {
    /// The sort of each term, as the reference state computed it.
    pub term_sort: HashMap<TermId, Sort>,
    /// The sort each sort id stands for.
    pub sort_of: HashMap<SortId, Sort>,
    /// The entry that defines each object.
    pub def: HashMap<AnyId, usize>,
    /// The first entry that releases each object.
    pub released: HashMap<AnyId, usize>,
    /// Objects bound more than once (an id reused after a release); substitutions avoid them.
    pub rebound: HashSet<AnyId>,
    /// The number of term-building calls in each term's defining tree (shared subterms
    /// counted each time they occur), saturating.
    pub size: HashMap<TermId, u64>,
    /// Terms made by `const`.
    pub consts: HashSet<TermId>,
    /// Terms that are leaves: made by `const`, `lit` or a nullary operation.
    pub leaves: HashSet<TermId>,
    /// The bound variables (made by `var`) each term mentions outside a quantifier over them.
    pub free_vars: HashMap<TermId, std::collections::BTreeSet<TermId>>,
    /// Names of all constants, so fresh ones do not alias them.
    pub const_names: HashSet<String>,
    /// The largest id number of each kind, as [`AnyId::slot`] numbers kinds (sorts, terms,
    /// funcs, solvers, models, tactics, goals, Optimize contexts).
    pub max_id: [u32; AnyId::KINDS],
}

fn slot(id: AnyId) -> (usize, u32) {
    id.slot()
}

impl Analysis {
    pub fn of(entries: &[Entry]) -> Analysis {
        let mut a = Analysis::default();
        let mut state = State::new();
        for (i, entry) in entries.iter().enumerate() {
            let new = match &entry.ret {
                Some(Ret::Id(id)) => Some(*id),
                _ => None,
            };
            // The result sort is computed before `apply` binds the new id.
            let sort = state.result_sort(&entry.call).ok().flatten();
            let _ = state.apply(&entry.call, entry.ret.as_ref());
            if let Call::Release(id) = &entry.call {
                a.released.entry(*id).or_insert(i);
            }
            let Some(id) = new else { continue };
            let (k, n) = slot(id);
            a.max_id[k] = a.max_id[k].max(n);
            if a.def.insert(id, i).is_some() {
                a.rebound.insert(id);
            }
            match id {
                AnyId::Sort(s) => {
                    if let Some(sort) = state.sorts.get(&s) {
                        a.sort_of.insert(s, sort.clone());
                    }
                }
                AnyId::Term(t) => {
                    if let Some(sort) = sort {
                        a.term_sort.insert(t, sort);
                    }
                    if let Some(info) = state.terms.get(&t).filter(|i| !i.is_closed()) {
                        a.free_vars.insert(t, info.free_vars.clone());
                    }
                    let size = crate::calls::term_slots(&entry.call)
                        .iter()
                        .map(|u| a.size.get(u).copied().unwrap_or(1))
                        .fold(1u64, u64::saturating_add);
                    a.size.insert(t, size);
                    match &entry.call {
                        Call::Const { name, .. } => {
                            a.consts.insert(t);
                            a.leaves.insert(t);
                            a.const_names.insert(name.clone());
                        }
                        Call::Lit { .. } | Call::Var { .. } => {
                            a.leaves.insert(t);
                        }
                        Call::Op { args, .. } if args.is_empty() => {
                            a.leaves.insert(t);
                        }
                        _ => {}
                    }
                }
                _ => {}
            }
        }
        a
    }

    /// Whether `r` may stand where `t` stands as far as bound variables go: it mentions no
    /// variable `t` does not (so none leaves its quantifier), and it is a variable exactly
    /// when `t` is (a quantifier binds variables only).
    pub fn scope_allows(&self, t: TermId, r: TermId) -> bool {
        let empty = std::collections::BTreeSet::new();
        let (ft, fr) = (
            self.free_vars.get(&t).unwrap_or(&empty),
            self.free_vars.get(&r).unwrap_or(&empty),
        );
        fr.is_subset(ft) && self.is_var(t) == self.is_var(r)
    }

    /// Whether `t` is a bound variable (free in itself).
    pub fn is_var(&self, t: TermId) -> bool {
        self.free_vars
            .get(&t)
            .is_some_and(|f| f.len() == 1 && f.contains(&t))
    }

    /// Whether `id` may be named at entry `at`: defined before it, once, and not released
    /// before it.
    pub fn usable_at(&self, id: AnyId, at: usize) -> bool {
        !self.rebound.contains(&id)
            && self.def.get(&id).is_some_and(|d| *d < at)
            && self.released.get(&id).is_none_or(|r| *r >= at)
    }

    /// The earliest sort id that stands for `sort` and may be named at entry `at`.
    pub fn sort_id_at(&self, sort: &Sort, at: usize) -> Option<SortId> {
        self.sort_of
            .iter()
            .filter(|(id, s)| *s == sort && self.usable_at(AnyId::Sort(**id), at))
            .map(|(id, _)| *id)
            .min_by_key(|id| self.def[&AnyId::Sort(*id)])
    }
}

/// The calls that make `sort` from nothing, innermost first, with the sort ids they return
/// taken after `next_sort` (which is advanced); `None` for sorts no call makes.
pub fn build_sort(sort: &Sort, next_sort: &mut u32) -> Option<(Vec<Entry>, SortId)> {
    let mut out = Vec::new();
    // A component no call makes ends the construction at once (`Err`).
    let call = Call::make_sort(sort, |component| {
        let (mut before, id) = build_sort(component, next_sort).ok_or(())?;
        out.append(&mut before);
        Ok::<_, ()>(Some(id))
    })
    .ok()??;
    *next_sort += 1;
    let id = SortId(*next_sort);
    out.push(Entry {
        call,
        ret: Some(Ret::Id(AnyId::Sort(id))),
    });
    Some((out, id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_sorts_and_definitions() {
        let (entries, _) = crate::trace_io::read(
            b"z3-trace 1\nsort_bv 8\nreturn s1\nconst s1 \"x\"\nreturn t1\nbvadd t1 t1\nreturn t2\nbvmul t2 t1\nreturn t3\nrelease t1\n",
        )
        .unwrap();
        let a = Analysis::of(&entries);
        assert_eq!(a.term_sort[&TermId(3)], Sort::BitVec(8));
        assert_eq!(a.size[&TermId(1)], 1);
        assert_eq!(a.size[&TermId(2)], 3);
        assert_eq!(a.size[&TermId(3)], 5);
        assert!(a.leaves.contains(&TermId(1)) && !a.leaves.contains(&TermId(2)));
        assert_eq!(a.max_id[1], 3);
        assert!(a.usable_at(AnyId::Term(TermId(1)), 3));
        assert!(!a.usable_at(AnyId::Term(TermId(1)), 5));
        assert!(!a.usable_at(AnyId::Term(TermId(3)), 3));
        assert_eq!(a.sort_id_at(&Sort::BitVec(8), 1), Some(SortId(1)));
        assert_eq!(a.sort_id_at(&Sort::BitVec(8), 0), None);
    }

    #[test]
    fn substitutions_keep_bound_variables_in_scope() {
        let (entries, _) = crate::trace_io::read(
            b"z3-trace 1\nsort_bv 8\nreturn s1\nconst s1 \"c\"\nreturn t1\nvar s1 \"x\"\nreturn t2\n\
              var s1 \"y\"\nreturn t3\nbvadd t2 t1\nreturn t4\nbvadd t4 t3\nreturn t5\n",
        )
        .unwrap();
        let a = Analysis::of(&entries);
        let t = TermId;
        assert!(a.is_var(t(2)) && !a.is_var(t(1)) && !a.is_var(t(4)));
        assert!(a.leaves.contains(&t(2)));
        // x + c may become c or x (fewer variables), not y (out of its scope).
        assert!(a.scope_allows(t(4), t(1)));
        assert!(!a.scope_allows(t(4), t(3)));
        assert!(a.scope_allows(t(5), t(4)));
        // A variable is never replaced: not by another one (which would leave its scope),
        // nor by a constant (a quantifier binds variables only).
        assert!(!a.scope_allows(t(2), t(3)));
        assert!(!a.scope_allows(t(2), t(1)));
        assert!(!a.scope_allows(t(1), t(2)));
    }

    #[test]
    fn builds_nested_sorts() {
        let mut next = 4;
        let (calls, id) = build_sort(&Sort::array(Sort::BitVec(4), Sort::Bool), &mut next).unwrap();
        assert_eq!(id, SortId(7));
        let names: Vec<&str> = calls.iter().map(|e| e.call.name()).collect();
        assert_eq!(names, ["sort_bv", "sort_bool", "sort_array"]);
        assert_eq!(calls[2].call, Call::SortArray(SortId(5), SortId(6)));
        assert!(build_sort(&Sort::RegLan, &mut next).is_none());
    }
}
