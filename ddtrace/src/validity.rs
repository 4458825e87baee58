//! Candidate validity without Z3, by the reference [`State`] of `model`.
//!
//! [`Validity`] says how strictly candidates are judged: when the input trace is itself valid,
//! a candidate that breaks a precondition is dropped before any replay ([`Validity::accepts`]),
//! and removals are completed by [`Validity::repair`], which also drops every later call that
//! the removal made invalid (the calls that use a removed result, a `pop` whose `push` is gone,
//! a `get_model` whose `check_sat` is gone, ...). When the input is not valid (its recorded
//! behaviour may be the rejection itself), nothing is filtered or repaired.

use model::{Entry, RetKind, State};

/// How candidates are judged (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Validity {
    /// The input is valid: candidates must be valid too.
    Enforced,
    /// The input is not valid: every candidate goes to the replay.
    Off,
}

impl Validity {
    /// `Enforced` when `entries` is valid, else `Off`.
    pub fn for_input(entries: &[Entry]) -> Validity {
        if is_valid(entries) {
            Validity::Enforced
        } else {
            Validity::Off
        }
    }

    /// Whether a candidate may go to the replay.
    pub fn accepts(self, entries: &[Entry]) -> bool {
        self == Validity::Off || is_valid(entries)
    }

    /// `entries` without the ones whose `removed` flag is set and without every later entry
    /// that becomes invalid by that (only when enforced).
    pub fn repair(self, entries: &[Entry], removed: &[bool]) -> Vec<Entry> {
        let kept = entries
            .iter()
            .zip(removed)
            .filter(|(_, r)| !**r)
            .map(|(e, _)| e);
        match self {
            Validity::Off => kept.cloned().collect(),
            Validity::Enforced => {
                let mut state = State::new();
                let mut out = Vec::new();
                let kept: Vec<&Entry> = kept.collect();
                for (i, entry) in kept.iter().enumerate() {
                    if step(&mut state, entry, i + 1 == kept.len()) {
                        out.push((*entry).clone());
                    }
                }
                out
            }
        }
    }
}

/// Advances `state` by `entry`; false if the entry is not valid there. The last entry of a
/// trace cut short by a crash may create an object without a recorded id: it only has to
/// pass the preconditions.
fn step(state: &mut State, entry: &Entry, last: bool) -> bool {
    let creates = matches!(
        entry.call.ret_kind(),
        RetKind::Sort | RetKind::Term | RetKind::Func | RetKind::Solver | RetKind::Model
    );
    if last && creates && entry.ret.is_none() {
        return state.check(&entry.call).is_ok();
    }
    state.apply(&entry.call, entry.ret.as_ref()).is_ok()
}

/// Whether every entry is valid in the state its predecessors leave.
pub fn is_valid(entries: &[Entry]) -> bool {
    let mut state = State::new();
    entries
        .iter()
        .enumerate()
        .all(|(i, e)| step(&mut state, e, i + 1 == entries.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(text: &str) -> Vec<Entry> {
        crate::trace_io::read(text.as_bytes()).unwrap().0
    }

    const TRACE: &str = "z3-trace 1
sort_bv 8
return s1
const s1 \"x\"
return t1
new_solver
return z1
push z1
bvadd t1 t1
return t2
pop z1 1
check_sat z1
return sat
get_model z1
return m1
model_eval m1 t2 true
return \"#x00\"
";

    #[test]
    fn repair_drops_what_a_removal_invalidates() {
        let all = entries(TRACE);
        assert_eq!(Validity::for_input(&all), Validity::Enforced);
        // Remove the const: bvadd and model_eval use it (transitively).
        let mut removed = vec![false; all.len()];
        removed[1] = true;
        let out = Validity::Enforced.repair(&all, &removed);
        let names: Vec<&str> = out.iter().map(|e| e.call.name()).collect();
        assert_eq!(
            names,
            [
                "sort_bv",
                "new_solver",
                "push",
                "pop",
                "check_sat",
                "get_model"
            ]
        );
        // Remove push: the pop has nothing to pop.
        let mut removed = vec![false; all.len()];
        removed[3] = true;
        let out = Validity::Enforced.repair(&all, &removed);
        assert!(out.iter().all(|e| e.call.name() != "pop"));
        assert_eq!(out.len(), all.len() - 2);
        // Remove check_sat: no model, no evaluation.
        let mut removed = vec![false; all.len()];
        removed[6] = true;
        let out = Validity::Enforced.repair(&all, &removed);
        assert_eq!(out.len(), all.len() - 3);
        assert!(is_valid(&out));
    }

    #[test]
    fn an_invalid_input_switches_checking_off() {
        let mut all = entries(TRACE);
        all.remove(0); // the sort is gone: the const is invalid
        assert_eq!(Validity::for_input(&all), Validity::Off);
        assert!(Validity::Off.accepts(&all));
        assert!(!Validity::Enforced.accepts(&all));
        assert_eq!(Validity::Off.repair(&all, &vec![false; all.len()]), all);
    }

    #[test]
    fn a_crashed_last_call_without_id_is_valid() {
        let all =
            entries("z3-trace 1\nsort_bv 8\nreturn s1\nconst s1 \"x\"\nreturn t1\nbvadd t1 t1\n");
        assert!(is_valid(&all));
        let all =
            entries("z3-trace 1\nsort_bv 8\nreturn s1\nconst s1 \"x\"\nreturn t1\nbvadd t1 t9\n");
        assert!(!is_valid(&all));
    }
}
