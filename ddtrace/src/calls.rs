//! Edits of single calls that the passes share: [`map_ids`] (every id a call reads),
//! [`term_slots`] / [`set_term_slot`] (the term arguments a substitution may replace) and
//! [`list_len`] / [`remove_list_items`] (the argument lists of n-ary calls).

use model::{AnyId, Call, Ret, TermId};

/// `call` with every id it reads replaced by `f(id)` (derived from the call's one
/// description in `model::call_args`, so a new call cannot be left unmapped).
pub fn map_ids(call: &Call, f: &mut dyn FnMut(AnyId) -> AnyId) -> Call {
    call.map_ids(f)
}

/// `ret` with every id in it replaced by `f(id)`.
pub fn map_ret_ids(ret: &Ret, f: &mut dyn FnMut(AnyId) -> AnyId) -> Ret {
    match ret {
        Ret::Id(id) => Ret::Id(f(*id)),
        Ret::Core(ids) => Ret::Core(
            ids.iter()
                .map(|t| match f(AnyId::Term(*t)) {
                    AnyId::Term(n) => n,
                    _ => *t,
                })
                .collect(),
        ),
        Ret::Sat(_) | Ret::Value(_) | Ret::Error(_) => ret.clone(),
    }
}

/// The term arguments of `call` that a substitution may replace, in argument order.
/// `release` is left out: it names an object, it does not compute with it.
pub fn term_slots(call: &Call) -> Vec<TermId> {
    call.term_slots()
}

/// `call` with its term slot number `slot` (as [`term_slots`] counts) replaced by `new`.
pub fn set_term_slot(call: &Call, slot: usize, new: TermId) -> Call {
    call.set_term_slot(slot, new)
}

/// The length and the minimum length of the argument list of an n-ary call, if it has one
/// that may shrink: n-ary operations, `check_sat_assuming`, the pairs of `substitute`, the
/// patterns of a quantifier.
pub fn list_len(call: &Call) -> Option<(usize, usize)> {
    call.list_len()
}

/// `call` keeping only the list items whose `keep` entry is true (`keep` has the length
/// [`list_len`] reports).
pub fn remove_list_items(call: &Call, keep: &[bool]) -> Call {
    call.remove_list_items(keep)
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::{Check, ModelId, Op, SolverId, SortId};

    /// Every check names its objects through `map_ids`, so that substitution and
    /// renumbering reach check lines as they reach calls (a check left unchanged made
    /// `subst-fresh` insert unused constants forever).
    #[test]
    fn check_lines_have_their_ids_mapped() {
        let checks = [
            Check::Model {
                model: ModelId(1),
                term: TermId(2),
            },
            Check::Independent {
                model: ModelId(1),
                term: TermId(2),
            },
            Check::Eval {
                model: ModelId(1),
                term: TermId(2),
                completion: false,
            },
            Check::Shadow {
                original: SolverId(1),
                clone: SolverId(2),
            },
            Check::Config {
                original: SolverId(1),
                other: SolverId(2),
            },
            Check::Dump(SolverId(1)),
            Check::Core(SolverId(1)),
            Check::Literal(TermId(1)),
            Check::Consequences {
                solver: SolverId(1),
                assumptions: vec![TermId(1)],
                variables: vec![TermId(2), TermId(3)],
            },
            Check::Cubes(SolverId(1)),
        ];
        for check in checks {
            let call = Call::Check(check);
            let mapped = map_ids(&call, &mut |id| match id {
                AnyId::Term(t) => AnyId::Term(TermId(t.0 + 10)),
                AnyId::Model(m) => AnyId::Model(ModelId(m.0 + 10)),
                AnyId::Solver(z) => AnyId::Solver(SolverId(z.0 + 10)),
                other => other,
            });
            let shifted: Vec<AnyId> = call
                .uses()
                .iter()
                .map(|id| match id {
                    AnyId::Term(t) => AnyId::Term(TermId(t.0 + 10)),
                    AnyId::Model(m) => AnyId::Model(ModelId(m.0 + 10)),
                    AnyId::Solver(z) => AnyId::Solver(SolverId(z.0 + 10)),
                    other => *other,
                })
                .collect();
            assert_eq!(mapped.uses(), shifted, "{call:?}");
        }
        let eval = Call::Check(Check::Eval {
            model: ModelId(1),
            term: TermId(2),
            completion: false,
        });
        assert_eq!(term_slots(&eval), [TermId(2)]);
        assert_eq!(
            set_term_slot(&eval, 0, TermId(7)).uses(),
            [AnyId::Model(ModelId(1)), AnyId::Term(TermId(7))]
        );
    }

    /// Substitution and renumbering reach every id of the datatype calls.
    #[test]
    fn datatype_calls_have_their_ids_mapped() {
        let text = "z3-trace 1\nsort_int\nreturn s1\n\
            declare_datatypes parser par \"T\" datatype \"L\" ctor \"nil\" ctor \"cons\" \"hd\" p0 \"tl\" d0 \"n\" s1\n\
            sort_datatype \"L\" s1\nreturn s2\n\
            dt_cons s2 \"nil\"\nreturn t1\nconst s1 \"x\"\nreturn t2\n\
            dt_cons s2 \"cons\" t2 t1 t2\nreturn t3\ndt_is \"cons\" t3\nreturn t4\n\
            dt_sel \"hd\" t3\nreturn t5\ndt_update \"hd\" t3 t2\nreturn t6\n";
        let trace = model::trace::text::parse(text).unwrap();
        for entry in &trace.entries {
            let call = &entry.call;
            let shift = |id: AnyId| match id {
                AnyId::Term(t) => AnyId::Term(TermId(t.0 + 10)),
                AnyId::Sort(s) => AnyId::Sort(SortId(s.0 + 10)),
                other => other,
            };
            let mapped = map_ids(call, &mut |id| shift(id));
            let shifted: Vec<AnyId> = call.uses().into_iter().map(shift).collect();
            assert_eq!(mapped.uses(), shifted, "{call:?}");
        }
        let update = &trace.entries.last().unwrap().call;
        assert_eq!(term_slots(update), [TermId(3), TermId(2)]);
        assert_eq!(
            set_term_slot(update, 1, TermId(1)).uses(),
            [AnyId::Term(TermId(3)), AnyId::Term(TermId(1))]
        );
    }

    fn op(name: &str, args: &[u32]) -> Call {
        Call::Op {
            op: Op::lookup(name).unwrap(),
            indices: vec![],
            args: args.iter().map(|n| TermId(*n)).collect(),
        }
    }

    #[test]
    fn term_slots_follow_argument_order() {
        let c = Call::AssertAndTrack {
            solver: SolverId(1),
            term: TermId(4),
            tracker: TermId(2),
        };
        assert_eq!(term_slots(&c), vec![TermId(4), TermId(2)]);
        let c2 = set_term_slot(&c, 1, TermId(9));
        assert_eq!(term_slots(&c2), vec![TermId(4), TermId(9)]);
        let s = Call::Substitute {
            term: TermId(1),
            pairs: vec![(TermId(2), TermId(3))],
        };
        assert_eq!(
            set_term_slot(&s, 2, TermId(7)),
            Call::Substitute {
                term: TermId(1),
                pairs: vec![(TermId(2), TermId(7))]
            }
        );
        assert!(term_slots(&Call::Release(AnyId::Term(TermId(3)))).is_empty());
    }

    #[test]
    fn map_ids_reaches_every_kind() {
        let c = Call::Const {
            sort: SortId(3),
            name: "x".into(),
        };
        let mut bump = |id: AnyId| match id {
            AnyId::Sort(s) => AnyId::Sort(SortId(s.0 + 10)),
            AnyId::Term(t) => AnyId::Term(TermId(t.0 + 20)),
            other => other,
        };
        assert_eq!(
            map_ids(&c, &mut bump),
            Call::Const {
                sort: SortId(13),
                name: "x".into()
            }
        );
        assert_eq!(
            map_ids(&op("and", &[1, 2]), &mut bump),
            op("and", &[21, 22])
        );
    }

    #[test]
    fn lists_shrink_to_their_minimum() {
        let c = op("and", &[1, 2, 3]);
        assert_eq!(list_len(&c), Some((3, 1)));
        assert_eq!(
            remove_list_items(&c, &[true, false, true]),
            op("and", &[1, 3])
        );
        assert_eq!(list_len(&op("bvadd", &[1, 2])), None);
        assert_eq!(list_len(&op("distinct", &[1, 2, 3])), Some((3, 2)));
    }
}
