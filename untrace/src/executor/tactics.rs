//! Tactics and goals in the executor: tactic objects by name and by combinator
//! ([`model::TacticExpr`] mapped to the `z3` crate's `Tactic`, probes to `Probe`), goals,
//! `goal_apply` with the resource limit the trace names, subgoals, goal formulas, and the
//! `check_goal` oracle: a goal and the subgoals a tactic made of it are equisatisfiable.
//!
//! Parameters of `tactic_using_params` are set by the kind the named tactics below the
//! combinator declare (`Z3_tactic_get_param_descrs`, read once per name in a scratch
//! context), so that the trace's text values become the parameter kinds Z3 wants.

use super::{guard, z3err, ExecError, Executor, Outcome};
use model::finding::{Failure, FailureKind};
use model::options::{ParamDescr, ParamKind};
use model::{Check, GoalId, ProbeCmp, ProbeTest, TacticExpr, TacticId};
use std::collections::HashMap;
use z3::ast::Bool;
use z3::{Goal, GoalPrec, Params, Probe, SatResult, Tactic};

/// The resource limit of each solver that `check_goal` asks (deterministic; unknown is no
/// verdict).
pub const GOAL_CHECK_RLIMIT: u32 = 100_000;

/// A tactic object with the names of the tactics it is built from.
pub struct TacticSlot {
    pub tactic: Tactic,
    pub names: Vec<String>,
}

/// A goal, with what its last `goal_apply` made of it.
pub struct GoalSlot {
    pub goal: Goal,
    pub last_apply: Option<Applied>,
}

/// One application of a tactic to a goal.
pub struct Applied {
    /// The goal's formulas when the tactic was applied.
    pub formulas: Vec<Bool>,
    pub subgoals: Vec<Goal>,
}

impl Executor {
    fn tactic_slot(&self, k: TacticId) -> Result<&TacticSlot, ExecError> {
        self.tactics
            .get(&k)
            .ok_or_else(|| ExecError::Malformed(format!("tactic {k} is not defined")))
    }

    fn goal_slot(&self, g: GoalId) -> Result<&GoalSlot, ExecError> {
        self.goals
            .get(&g)
            .ok_or_else(|| ExecError::Malformed(format!("goal {g} is not defined")))
    }

    pub(super) fn mk_tactic(&self, expr: &TacticExpr) -> Result<Outcome, ExecError> {
        let operands = expr
            .operands()
            .into_iter()
            .map(|k| self.tactic_slot(k))
            .collect::<Result<Vec<_>, _>>()?;
        let mut names: Vec<String> = operands.iter().flat_map(|s| s.names.clone()).collect();
        let t = |i: usize| &operands[i].tactic;
        let tactic = match expr {
            TacticExpr::Named(name) => {
                names.push(name.clone());
                self.main(|| Tactic::new(name))?
            }
            TacticExpr::AndThen(..) => self.main(|| t(0).and_then(t(1)))?,
            TacticExpr::OrElse(..) => self.main(|| t(0).or_else(t(1)))?,
            TacticExpr::Repeat(_, max) => self.main(|| Tactic::repeat(t(0), *max))?,
            TacticExpr::TryFor(_, ms) => {
                self.main(|| t(0).try_for(std::time::Duration::from_millis(u64::from(*ms))))?
            }
            TacticExpr::When(p, _) => self.main(|| t(0).when(&probe(p)))?,
            TacticExpr::Cond(p, ..) => self.main(|| Tactic::cond(&probe(p), t(0), t(1)))?,
            TacticExpr::UsingParams(_, params) => {
                let kinds: Vec<ParamKind> = params
                    .iter()
                    .map(|(key, _)| tactic_param_kind(&names, key))
                    .collect();
                self.main(|| {
                    let mut p = Params::new();
                    for ((key, value), kind) in params.iter().zip(kinds) {
                        super::set_param(&mut p, key, value, kind);
                    }
                    t(0).with(&p)
                })?
            }
        };
        Ok(Outcome::Tactic(TacticSlot { tactic, names }))
    }

    pub(super) fn apply_tactic(
        &mut self,
        k: TacticId,
        g: GoalId,
        rlimit: u32,
    ) -> Result<Outcome, ExecError> {
        let tactic = &self.tactic_slot(k)?.tactic;
        let goal = &self.goal_slot(g)?.goal;
        // A tactic validates the parameters of `Z3_tactic_apply_ex` against its own, which
        // have no `rlimit`: the limit is the context's for the call (`Z3_tactic_apply` reads
        // it), and back to none after.
        let (formulas, applied) = self.main(|| {
            let formulas = goal.get_formulas();
            let _limit = ContextRlimit::set(rlimit);
            let applied = tactic
                .apply(goal, None)
                .map(|r| r.list_subgoals().collect::<Vec<Goal>>());
            (formulas, applied)
        })?;
        let subgoals = applied.map_err(|e| z3err(format!("Exception: {}", guard::one_line(&e))))?;
        let n = subgoals.len();
        if let Some(slot) = self.goals.get_mut(&g) {
            slot.last_apply = Some(Applied { formulas, subgoals });
        }
        Ok(Outcome::Value(n.to_string()))
    }

    pub(super) fn subgoal(&self, g: GoalId, i: u32) -> Result<Outcome, ExecError> {
        let goal = self
            .goal_slot(g)?
            .last_apply
            .as_ref()
            .and_then(|a| a.subgoals.get(i as usize))
            .ok_or_else(|| ExecError::Malformed(format!("goal {g} has no subgoal {i}")))?;
        Ok(Outcome::Goal(GoalSlot {
            goal: goal.clone(),
            last_apply: None,
        }))
    }

    pub(super) fn goal_formula(&self, g: GoalId) -> Result<Outcome, ExecError> {
        let goal = &self.goal_slot(g)?.goal;
        let formula = self.main(|| conjunction(&goal.get_formulas()))?;
        Ok(Outcome::Term(z3::ast::Dynamic::from_ast(&formula)))
    }

    /// `check_goal`: the goal's formulas (as they were when the tactic was applied) are
    /// satisfiable iff one of the subgoals is. Only precise subgoals are judged (a tactic may
    /// under- or over-approximate and say so); unknown answers are no verdict.
    pub(super) fn check_goal(&mut self, check: &Check, g: GoalId) -> Result<(), ExecError> {
        let Some(applied) = self.goals.get(&g).and_then(|s| s.last_apply.as_ref()) else {
            return Ok(());
        };
        let precise = self.main(|| {
            applied
                .subgoals
                .iter()
                .all(|s| s.get_precision() == GoalPrec::Precise)
        })?;
        if !precise {
            self.count("goals: skipped: approximated");
            return Ok(());
        }
        let inject_drop = matches!(self.config.inject, Some(super::inject::Fault::DropSubgoal));
        let n = applied.subgoals.len();
        let (original, parts) = self.main(|| {
            let original = check_bounded(&applied.formulas);
            // Subgoals are checked only while they can change the verdict below: none when
            // the goal is unknown (skipped whatever they answer), and none after the first
            // sat subgoal (a finding under unsat, equisatisfiable under sat).
            let mut parts: Vec<SatResult> = Vec::new();
            for subgoal in &applied.subgoals {
                if original == SatResult::Unknown || parts.contains(&SatResult::Sat) {
                    break;
                }
                let mut formulas = subgoal.get_formulas();
                if inject_drop {
                    formulas.push(Bool::from_bool(false));
                }
                parts.push(check_bounded(&formulas));
            }
            (original, parts)
        })?;
        let some_sat = parts.contains(&SatResult::Sat);
        let all_unsat = parts.iter().all(|p| *p == SatResult::Unsat);
        let (answer, theirs) = match original {
            SatResult::Sat if all_unsat => ("sat", "every subgoal unsat"),
            SatResult::Unsat if some_sat => ("unsat", "a subgoal sat"),
            SatResult::Unknown => {
                self.count("goals: skipped: unknown");
                return Ok(());
            }
            _ if parts.contains(&SatResult::Unknown) && !some_sat => {
                self.count("goals: skipped: unknown");
                return Ok(());
            }
            _ => {
                self.count("goals: equisatisfiable");
                return Ok(());
            }
        };
        Err(ExecError::Oracle(
            Failure::new(
                FailureKind::Tactic,
                format!(
                    "goal {g} is {answer} but the {n} subgoals of its last goal_apply are not \
                     ({theirs})"
                ),
            )
            .with_cause(format!("{}: goal {answer}, {theirs}", check.name()))
            .at_call(check.name()),
        ))
    }
}

/// The resource limit of the thread-local context while it lives (none again after, also
/// when the call under it panics).
struct ContextRlimit;

impl ContextRlimit {
    fn set(limit: u32) -> ContextRlimit {
        set_context_rlimit(limit);
        ContextRlimit
    }
}

impl Drop for ContextRlimit {
    fn drop(&mut self) {
        set_context_rlimit(0);
    }
}

/// Sets the resource limit of the thread-local context (0: none).
fn set_context_rlimit(limit: u32) {
    let ctx = z3::Context::thread_local();
    let value = std::ffi::CString::new(limit.to_string()).expect("digits");
    // SAFETY: a live context; Z3 copies both strings.
    unsafe {
        z3_sys::Z3_update_param_value(ctx.get_z3_context(), c"rlimit".as_ptr(), value.as_ptr());
    }
}

/// The probe test as a Z3 probe.
fn probe(test: &ProbeTest) -> Probe {
    let p = Probe::new(&test.probe);
    let c = Probe::constant(f64::from(test.value));
    match test.cmp {
        ProbeCmp::Lt => p.lt(&c),
        ProbeCmp::Le => p.le(&c),
        ProbeCmp::Gt => p.gt(&c),
        ProbeCmp::Ge => p.ge(&c),
        ProbeCmp::Eq => p.eq(&c),
    }
}

/// The conjunction of formulas (`true` for none).
fn conjunction(formulas: &[Bool]) -> Bool {
    match formulas {
        [] => Bool::from_bool(true),
        [one] => one.clone(),
        many => Bool::and(many),
    }
}

/// A fresh reference solver's answer on the formulas, under [`GOAL_CHECK_RLIMIT`].
fn check_bounded(formulas: &[Bool]) -> SatResult {
    let solver = super::raw_solver::reference_solver(Some(GOAL_CHECK_RLIMIT));
    for f in formulas {
        solver.assert(f);
    }
    solver.check()
}

thread_local! {
    static TACTIC_PARAMS: std::cell::RefCell<HashMap<String, Vec<ParamDescr>>> =
        std::cell::RefCell::new(HashMap::new());
}

/// The parameters tactic `name` describes (`Z3_tactic_get_param_descrs`), sorted by name,
/// read once per thread in a scratch context (so no round's context changes). The fuzzer
/// picks `tactic_using_params` parameters from them; the executor sets values by their kinds.
pub fn tactic_param_descrs(name: &str) -> Vec<ParamDescr> {
    if let Some(known) = TACTIC_PARAMS.with(|c| c.borrow().get(name).cloned()) {
        return known;
    }
    let Ok(cname) = std::ffi::CString::new(name) else {
        return Vec::new();
    };
    // SAFETY: a scratch tactic, referenced while its descriptions are taken and referenced.
    let descrs = super::read_param_descrs(|raw| unsafe {
        let tactic = z3_sys::Z3_mk_tactic(raw, cname.as_ptr())?;
        z3_sys::Z3_tactic_inc_ref(raw, tactic);
        let descrs = z3_sys::Z3_tactic_get_param_descrs(raw, tactic);
        if let Some(d) = descrs {
            z3_sys::Z3_param_descrs_inc_ref(raw, d);
        }
        z3_sys::Z3_tactic_dec_ref(raw, tactic);
        descrs
    });
    TACTIC_PARAMS.with(|c| c.borrow_mut().insert(name.to_string(), descrs.clone()));
    descrs
}

/// The kind of parameter `key` as the first of the named tactics that describes it declares.
fn tactic_param_kind(names: &[String], key: &str) -> ParamKind {
    names
        .iter()
        .find_map(|name| {
            tactic_param_descrs(name)
                .into_iter()
                .find(|d| d.name == key)
                .map(|d| d.kind)
        })
        .unwrap_or(ParamKind::Other)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tactic_parameters_are_read_from_z3() {
        let descrs = tactic_param_descrs("simplify");
        assert!(descrs
            .iter()
            .any(|d| d.name == "som" && d.kind == ParamKind::Bool));
        assert_eq!(
            tactic_param_kind(&["simplify".into()], "som"),
            ParamKind::Bool
        );
        assert_eq!(
            tactic_param_kind(&["simplify".into()], "nope"),
            ParamKind::Other
        );
        assert!(tactic_param_descrs("no-such-tactic").is_empty());
    }
}
