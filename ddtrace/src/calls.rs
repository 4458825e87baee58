//! Edits of single calls that the passes share: [`map_ids`] (every id a call reads),
//! [`term_slots`] / [`set_term_slot`] (the term arguments a substitution may replace) and
//! [`list_len`] / [`remove_list_items`] (the argument lists of n-ary calls).

use model::ops::Arity;
use model::{AnyId, Call, Check, GoalId, ModelId, OptId, Ret, SolverKind, TacticId, TermId};

/// `call` with every id it reads replaced by `f(id)`.
pub fn map_ids(call: &Call, f: &mut dyn FnMut(AnyId) -> AnyId) -> Call {
    let mut sort = |s: model::SortId| match f(AnyId::Sort(s)) {
        AnyId::Sort(n) => n,
        _ => s,
    };
    // Sorts first: each closure borrows `f` in turn.
    let call = match call {
        Call::SortArray(i, e) => Call::SortArray(sort(*i), sort(*e)),
        Call::SortSeq(e) => Call::SortSeq(sort(*e)),
        Call::Const { sort: s, name } => Call::Const {
            sort: sort(*s),
            name: name.clone(),
        },
        Call::Lit { sort: s, value } => Call::Lit {
            sort: sort(*s),
            value: value.clone(),
        },
        Call::Var { sort: s, name } => Call::Var {
            sort: sort(*s),
            name: name.clone(),
        },
        Call::Fun {
            name,
            domain,
            range,
        } => Call::Fun {
            name: name.clone(),
            domain: domain.iter().map(|s| sort(*s)).collect(),
            range: sort(*range),
        },
        Call::ConstArray { index, value } => Call::ConstArray {
            index: sort(*index),
            value: *value,
        },
        Call::DeclareDatatypes {
            path,
            params,
            datatypes,
        } => {
            let mut datatypes = datatypes.clone();
            for field in datatypes
                .iter_mut()
                .flat_map(|d| &mut d.constructors)
                .flat_map(|c| &mut c.fields)
            {
                if let model::datatype::FieldSort::Sort(s) = field.sort {
                    field.sort = model::datatype::FieldSort::Sort(sort(s));
                }
            }
            Call::DeclareDatatypes {
                path: *path,
                params: params.clone(),
                datatypes,
            }
        }
        Call::SortDatatype { name, params } => Call::SortDatatype {
            name: name.clone(),
            params: params.iter().map(|s| sort(*s)).collect(),
        },
        Call::DtConstruct {
            sort: s,
            ctor,
            args,
        } => Call::DtConstruct {
            sort: sort(*s),
            ctor: ctor.clone(),
            args: args.clone(),
        },
        other => other.clone(),
    };
    let term = |f: &mut dyn FnMut(AnyId) -> AnyId, t: TermId| match f(AnyId::Term(t)) {
        AnyId::Term(n) => n,
        _ => t,
    };
    let solver = |f: &mut dyn FnMut(AnyId) -> AnyId, z: model::SolverId| match f(AnyId::Solver(z)) {
        AnyId::Solver(n) => n,
        _ => z,
    };
    match call {
        Call::Apply { func, args } => Call::Apply {
            func: match f(AnyId::Func(func)) {
                AnyId::Func(n) => n,
                _ => func,
            },
            args: args.into_iter().map(|t| term(f, t)).collect(),
        },
        Call::Op { op, indices, args } => Call::Op {
            op,
            indices,
            args: args.into_iter().map(|t| term(f, t)).collect(),
        },
        Call::ConstArray { index, value } => Call::ConstArray {
            index,
            value: term(f, value),
        },
        Call::Simplify(t) => Call::Simplify(term(f, t)),
        // In the order of `Call::uses`: variables, body, patterns, no-patterns.
        Call::Quantifier {
            forall,
            weight,
            vars,
            body,
            patterns,
            no_patterns,
        } => {
            let vars = vars.into_iter().map(|t| term(f, t)).collect();
            let body = term(f, body);
            let patterns = patterns
                .into_iter()
                .map(|group| group.into_iter().map(|t| term(f, t)).collect())
                .collect();
            let no_patterns = no_patterns.into_iter().map(|t| term(f, t)).collect();
            Call::Quantifier {
                forall,
                weight,
                vars,
                body,
                patterns,
                no_patterns,
            }
        }
        Call::DtConstruct { sort, ctor, args } => Call::DtConstruct {
            sort,
            ctor,
            args: args.into_iter().map(|t| term(f, t)).collect(),
        },
        Call::DtTest { ctor, term: t } => Call::DtTest {
            ctor,
            term: term(f, t),
        },
        Call::DtSelect { field, term: t } => Call::DtSelect {
            field,
            term: term(f, t),
        },
        Call::DtUpdate {
            field,
            term: t,
            value,
        } => {
            let t = term(f, t);
            Call::DtUpdate {
                field,
                term: t,
                value: term(f, value),
            }
        }
        Call::SimplifyWith { term: t, params } => Call::SimplifyWith {
            term: term(f, t),
            params,
        },
        Call::Substitute { term: t, pairs } => Call::Substitute {
            term: term(f, t),
            pairs: pairs
                .into_iter()
                .map(|(a, b)| (term(f, a), term(f, b)))
                .collect(),
        },
        Call::SetParam {
            solver: z,
            key,
            value,
        } => Call::SetParam {
            solver: solver(f, z),
            key,
            value,
        },
        Call::Push(z) => Call::Push(solver(f, z)),
        Call::Pop(z, n) => Call::Pop(solver(f, z), n),
        Call::Assert(z, t) => Call::Assert(solver(f, z), term(f, t)),
        Call::AssertAndTrack {
            solver: z,
            term: t,
            tracker,
        } => Call::AssertAndTrack {
            solver: solver(f, z),
            term: term(f, t),
            tracker: term(f, tracker),
        },
        Call::CheckSat(z) => Call::CheckSat(solver(f, z)),
        Call::CheckSatAssuming(z, ts) => {
            let z = solver(f, z);
            Call::CheckSatAssuming(z, ts.into_iter().map(|t| term(f, t)).collect())
        }
        Call::GetUnsatCore(z) => Call::GetUnsatCore(solver(f, z)),
        Call::GetModel(z) => Call::GetModel(solver(f, z)),
        Call::ModelEval {
            model,
            term: t,
            completion,
        } => Call::ModelEval {
            model: match f(AnyId::Model(model)) {
                AnyId::Model(n) => n,
                _ => model,
            },
            term: term(f, t),
            completion,
        },
        Call::Translate(z) => Call::Translate(solver(f, z)),
        Call::Reset(z) => Call::Reset(solver(f, z)),
        Call::ToSmt2(z) => Call::ToSmt2(solver(f, z)),
        Call::FromString(z, s) => Call::FromString(solver(f, z), s),
        Call::Release(id) => Call::Release(f(id)),
        Call::Delete(z) => Call::Delete(solver(f, z)),
        Call::Check(check) => {
            let mut model = |m: ModelId| match f(AnyId::Model(m)) {
                AnyId::Model(n) => n,
                _ => m,
            };
            Call::Check(match check {
                Check::Model { model: m, term: t } => Check::Model {
                    model: model(m),
                    term: term(f, t),
                },
                Check::Independent { model: m, term: t } => Check::Independent {
                    model: model(m),
                    term: term(f, t),
                },
                Check::Eval {
                    model: m,
                    term: t,
                    completion,
                } => Check::Eval {
                    model: model(m),
                    term: term(f, t),
                    completion,
                },
                Check::Shadow { original, clone } => Check::Shadow {
                    original: solver(f, original),
                    clone: solver(f, clone),
                },
                Check::Config { original, other } => Check::Config {
                    original: solver(f, original),
                    other: solver(f, other),
                },
                Check::Dump(z) => Check::Dump(solver(f, z)),
                Check::Core(z) => Check::Core(solver(f, z)),
                Check::Literal(t) => Check::Literal(term(f, t)),
                Check::Simplify(t) => Check::Simplify(term(f, t)),
                Check::Quant { model: m, term: t } => Check::Quant {
                    model: model(m),
                    term: term(f, t),
                },
                Check::Consequences {
                    solver: z,
                    assumptions,
                    variables,
                } => Check::Consequences {
                    solver: solver(f, z),
                    assumptions: assumptions.into_iter().map(|t| term(f, t)).collect(),
                    variables: variables.into_iter().map(|t| term(f, t)).collect(),
                },
                Check::Cubes(z) => Check::Cubes(solver(f, z)),
                Check::Goal(g) => Check::Goal(goal(f, g)),
                Check::OptValues { opt: o, model: m } => {
                    let model = model(m);
                    Check::OptValues {
                        opt: opt(f, o),
                        model,
                    }
                }
                Check::OptBetter { opt: o, model: m } => {
                    let model = model(m);
                    Check::OptBetter {
                        opt: opt(f, o),
                        model,
                    }
                }
            })
        }
        Call::NewSolver(SolverKind::FromTactic(k)) => {
            Call::NewSolver(SolverKind::FromTactic(tactic(f, k)))
        }
        Call::MkTactic(expr) => {
            let ops: Vec<TacticId> = expr.operands().into_iter().map(|k| tactic(f, k)).collect();
            Call::MkTactic(expr.with_operands(&ops))
        }
        Call::GoalAssert(g, t) => Call::GoalAssert(goal(f, g), term(f, t)),
        Call::ApplyTactic {
            tactic: k,
            goal: g,
            rlimit,
        } => Call::ApplyTactic {
            tactic: tactic(f, k),
            goal: goal(f, g),
            rlimit,
        },
        Call::Subgoal(g, i) => Call::Subgoal(goal(f, g), i),
        Call::GoalFormula(g) => Call::GoalFormula(goal(f, g)),
        Call::OptSetParam { opt: o, key, value } => Call::OptSetParam {
            opt: opt(f, o),
            key,
            value,
        },
        Call::OptAssert(o, t) => Call::OptAssert(opt(f, o), term(f, t)),
        Call::OptAssertSoft {
            opt: o,
            term: t,
            weight,
            group,
        } => Call::OptAssertSoft {
            opt: opt(f, o),
            term: term(f, t),
            weight,
            group,
        },
        Call::OptObjective {
            opt: o,
            term: t,
            direction,
        } => Call::OptObjective {
            opt: opt(f, o),
            term: term(f, t),
            direction,
        },
        Call::OptPush(o) => Call::OptPush(opt(f, o)),
        Call::OptPop(o) => Call::OptPop(opt(f, o)),
        Call::OptCheck(o) => Call::OptCheck(opt(f, o)),
        Call::OptGetModel(o) => Call::OptGetModel(opt(f, o)),
        Call::OptBound {
            opt: o,
            index,
            upper,
        } => Call::OptBound {
            opt: opt(f, o),
            index,
            upper,
        },
        Call::TranslateConfig { solver: z, config } => Call::TranslateConfig {
            solver: solver(f, z),
            config,
        },
        Call::GetProof(z) => Call::GetProof(solver(f, z)),
        other => other,
    }
}

fn tactic(f: &mut dyn FnMut(AnyId) -> AnyId, k: TacticId) -> TacticId {
    match f(AnyId::Tactic(k)) {
        AnyId::Tactic(n) => n,
        _ => k,
    }
}

fn goal(f: &mut dyn FnMut(AnyId) -> AnyId, g: GoalId) -> GoalId {
    match f(AnyId::Goal(g)) {
        AnyId::Goal(n) => n,
        _ => g,
    }
}

fn opt(f: &mut dyn FnMut(AnyId) -> AnyId, o: OptId) -> OptId {
    match f(AnyId::Opt(o)) {
        AnyId::Opt(n) => n,
        _ => o,
    }
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
        other => other.clone(),
    }
}

/// The term arguments of `call` that a substitution may replace, in argument order.
/// `release` is left out: it names an object, it does not compute with it.
pub fn term_slots(call: &Call) -> Vec<TermId> {
    match call {
        Call::Release(_) => Vec::new(),
        _ => call
            .uses()
            .into_iter()
            .filter_map(|id| match id {
                AnyId::Term(t) => Some(t),
                _ => None,
            })
            .collect(),
    }
}

/// `call` with its term slot number `slot` (as [`term_slots`] counts) replaced by `new`.
pub fn set_term_slot(call: &Call, slot: usize, new: TermId) -> Call {
    let mut seen = 0;
    let mut replace = |id: AnyId| match id {
        AnyId::Term(t) => {
            let this = seen;
            seen += 1;
            AnyId::Term(if this == slot { new } else { t })
        }
        other => other,
    };
    match call {
        Call::Release(_) => call.clone(),
        _ => map_ids(call, &mut replace),
    }
}

/// The length and the minimum length of the argument list of an n-ary call, if it has one
/// that may shrink: n-ary operations, `check_sat_assuming`, the pairs of `substitute`.
pub fn list_len(call: &Call) -> Option<(usize, usize)> {
    match call {
        Call::Op { op, args, .. } => match op.spec().arity {
            Arity::AtLeast(min) => Some((args.len(), min)),
            Arity::Fixed(_) => None,
        },
        Call::CheckSatAssuming(_, ts) => Some((ts.len(), 0)),
        Call::Substitute { pairs, .. } => Some((pairs.len(), 0)),
        // The patterns, then the no-patterns.
        Call::Quantifier {
            patterns,
            no_patterns,
            ..
        } if patterns.len() + no_patterns.len() > 0 => {
            Some((patterns.len() + no_patterns.len(), 0))
        }
        _ => None,
    }
}

/// `call` keeping only the list items whose `keep` entry is true (`keep` has the length
/// [`list_len`] reports).
pub fn remove_list_items(call: &Call, keep: &[bool]) -> Call {
    fn filter<T: Clone>(items: &[T], keep: &[bool]) -> Vec<T> {
        items
            .iter()
            .zip(keep)
            .filter(|(_, k)| **k)
            .map(|(x, _)| x.clone())
            .collect()
    }
    match call {
        Call::Op { op, indices, args } => Call::Op {
            op: *op,
            indices: indices.clone(),
            args: filter(args, keep),
        },
        Call::CheckSatAssuming(z, ts) => Call::CheckSatAssuming(*z, filter(ts, keep)),
        Call::Substitute { term, pairs } => Call::Substitute {
            term: *term,
            pairs: filter(pairs, keep),
        },
        Call::Quantifier {
            forall,
            weight,
            vars,
            body,
            patterns,
            no_patterns,
        } => {
            let (keep_p, keep_n) = keep.split_at(patterns.len().min(keep.len()));
            Call::Quantifier {
                forall: *forall,
                weight: *weight,
                vars: vars.clone(),
                body: *body,
                patterns: filter(patterns, keep_p),
                no_patterns: filter(no_patterns, keep_n),
            }
        }
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::{Op, SolverId, SortId};

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
