//! Tactics and goals in the executor: tactic objects by name and by combinator
//! ([`model::TacticExpr`]), probes, goals, `goal_apply` with the resource limit the trace
//! names, subgoals, goal formulas, the goal readers (`goal_read`, `probe_apply`), and the
//! `check_goal` oracle: a goal and the subgoals a tactic made of it are equisatisfiable.
//!
//! Tactics, probes, goals and application results are held through z3-sys (the `z3` crate
//! wraps neither `Z3_tactic_par_or`, `_par_and_then`, `_fail_if_not_decided` nor
//! `Z3_goal_convert_model`, `_to_dimacs_string`, and gives no raw handle of its objects);
//! a tactic the crate can express is built through the crate too, for the solvers made from
//! it (`new_solver from_tactic`).
//!
//! Parameters of `tactic_using_params` are set by the kind the named tactics below the
//! combinator declare (`Z3_tactic_get_param_descrs`, read once per name in a scratch
//! context), so that the trace's text values become the parameter kinds Z3 wants.

use super::{guard, z3err, ExecError, Executor, Outcome};
use model::finding::{Failure, FailureKind};
use model::options::{ParamDescr, ParamKind};
use model::{Check, GoalId, ProbeCmp, ProbeTest, TacticExpr, TacticId};
use std::collections::HashMap;
use std::ffi::CString;
use z3::ast::{Ast, Bool};
use z3::{Params, Probe, SatResult, Tactic};
use z3_sys::{Z3_apply_result, Z3_context, Z3_goal, Z3_probe, Z3_tactic};

/// The resource limit of each solver that `check_goal` asks (deterministic; unknown is no
/// verdict).
pub const GOAL_CHECK_RLIMIT: u32 = 100_000;

/// A Z3 object of the thread-local context held through z3-sys: referenced when made,
/// released on drop.
pub struct RawObj<T: Copy> {
    ctx: Z3_context,
    obj: T,
    release: unsafe extern "C" fn(Z3_context, T),
}

impl<T: Copy> RawObj<T> {
    /// Takes a reference to `obj` (made or returned by Z3 in `ctx`).
    ///
    /// # Safety
    /// `obj` is a live object of `ctx`, `retain` and `release` its reference functions.
    unsafe fn adopt(
        ctx: Z3_context,
        obj: T,
        retain: unsafe extern "C" fn(Z3_context, T),
        release: unsafe extern "C" fn(Z3_context, T),
    ) -> RawObj<T> {
        retain(ctx, obj);
        RawObj { ctx, obj, release }
    }

    pub fn get(&self) -> T {
        self.obj
    }
}

impl<T: Copy> Drop for RawObj<T> {
    fn drop(&mut self) {
        // SAFETY: referenced in `adopt`.
        unsafe { (self.release)(self.ctx, self.obj) }
    }
}

type RawTactic = RawObj<Z3_tactic>;
type RawGoal = RawObj<Z3_goal>;
type RawProbe = RawObj<Z3_probe>;
type RawApplyResult = RawObj<Z3_apply_result>;

fn tactic_obj(ctx: Z3_context, t: Option<Z3_tactic>) -> Result<RawTactic, String> {
    let t = t.ok_or("Z3 made no tactic")?;
    // SAFETY: a tactic Z3 just made in `ctx`.
    Ok(unsafe { RawObj::adopt(ctx, t, z3_sys::Z3_tactic_inc_ref, z3_sys::Z3_tactic_dec_ref) })
}

fn goal_obj(ctx: Z3_context, g: Option<Z3_goal>) -> Result<RawGoal, String> {
    let g = g.ok_or("Z3 made no goal")?;
    // SAFETY: a goal Z3 just made or returned in `ctx`.
    Ok(unsafe { RawObj::adopt(ctx, g, z3_sys::Z3_goal_inc_ref, z3_sys::Z3_goal_dec_ref) })
}

fn probe_obj(ctx: Z3_context, p: Option<Z3_probe>) -> Result<RawProbe, String> {
    let p = p.ok_or("Z3 made no probe")?;
    // SAFETY: a probe Z3 just made in `ctx`.
    Ok(unsafe { RawObj::adopt(ctx, p, z3_sys::Z3_probe_inc_ref, z3_sys::Z3_probe_dec_ref) })
}

/// A tactic object with the names of the tactics it is built from.
pub struct TacticSlot {
    pub raw: RawTactic,
    /// The same tactic through the `z3` crate, where the crate can express it.
    pub tactic: Option<Tactic>,
    pub names: Vec<String>,
    /// Made by `tactic_skip` (its applications are judged).
    pub skip: bool,
}

/// A goal, with what its last `goal_apply` made of it.
pub struct GoalSlot {
    pub goal: RawGoal,
    pub last_apply: Option<Applied>,
    /// For a subgoal: the formulas of the goal it came from when the tactic was applied
    /// (what a converted model must satisfy).
    pub origin: Option<Vec<Bool>>,
}

/// One application of a tactic to a goal.
pub struct Applied {
    /// The goal's formulas when the tactic was applied.
    pub formulas: Vec<Bool>,
    pub result: RawApplyResult,
    pub subgoals: Vec<RawGoal>,
}

/// The formulas of a goal (`Z3_goal_formula` of each).
pub fn goal_formulas(goal: &RawGoal) -> Vec<Bool> {
    let ctx = z3::Context::thread_local();
    // SAFETY: indices below the goal's size; `wrap` references each formula.
    unsafe {
        (0..z3_sys::Z3_goal_size(goal.ctx, goal.obj))
            .filter_map(|i| z3_sys::Z3_goal_formula(goal.ctx, goal.obj, i))
            .map(|f| Bool::wrap(&ctx, f))
            .collect()
    }
}

/// Copies a string Z3 returned (empty for NULL).
fn z3_text(p: z3_sys::Z3_string) -> String {
    if p.is_null() {
        return String::new();
    }
    // SAFETY: a NUL-terminated string Z3 owns until its next call; copied at once.
    unsafe { std::ffi::CStr::from_ptr(p).to_string_lossy().into_owned() }
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

    fn raw_ctx(&self) -> Z3_context {
        self.main.get_z3_context()
    }

    pub(super) fn new_goal(&self, models: bool) -> Result<Outcome, ExecError> {
        let c = self.raw_ctx();
        // SAFETY: a plain constructor on the live context.
        let goal = self
            .main(|| goal_obj(c, unsafe { z3_sys::Z3_mk_goal(c, models, false, false) }))?
            .map_err(z3err)?;
        Ok(Outcome::Goal(GoalSlot {
            goal,
            last_apply: None,
            origin: None,
        }))
    }

    pub(super) fn goal_assert(&self, g: GoalId, t: &z3::ast::Dynamic) -> Result<(), ExecError> {
        let goal = &self.goal_slot(g)?.goal;
        // SAFETY: a live goal and a term of its context.
        self.main(|| unsafe { z3_sys::Z3_goal_assert(goal.ctx, goal.obj, t.get_z3_ast()) })
    }

    pub(super) fn mk_tactic(&self, expr: &TacticExpr) -> Result<Outcome, ExecError> {
        let operands = expr
            .operands()
            .into_iter()
            .map(|k| self.tactic_slot(k))
            .collect::<Result<Vec<_>, _>>()?;
        let mut names: Vec<String> = operands.iter().flat_map(|s| s.names.clone()).collect();
        if let TacticExpr::Named(name) = expr {
            names.push(name.clone());
        }
        let kinds: Vec<ParamKind> = match expr {
            TacticExpr::UsingParams(_, params) => params
                .iter()
                .map(|(key, _)| tactic_param_kind(&names, key))
                .collect(),
            _ => Vec::new(),
        };
        let c = self.raw_ctx();
        let raw = |i: usize| operands[i].raw.obj;
        let (raw_tactic, tactic) = self
            .main(|| -> Result<_, String> {
                // SAFETY: plain z3-sys constructors over live tactics of the context; every
                // object made on the way is referenced while it is used.
                let made = unsafe {
                    match expr {
                        TacticExpr::Named(name) => {
                            let name = CString::new(name.as_str()).map_err(|e| e.to_string())?;
                            z3_sys::Z3_mk_tactic(c, name.as_ptr())
                        }
                        TacticExpr::AndThen(..) => z3_sys::Z3_tactic_and_then(c, raw(0), raw(1)),
                        TacticExpr::OrElse(..) => z3_sys::Z3_tactic_or_else(c, raw(0), raw(1)),
                        TacticExpr::Repeat(_, max) => z3_sys::Z3_tactic_repeat(c, raw(0), *max),
                        TacticExpr::TryFor(_, ms) => z3_sys::Z3_tactic_try_for(c, raw(0), *ms),
                        TacticExpr::When(p, _) => {
                            let p = raw_probe(c, p)?;
                            z3_sys::Z3_tactic_when(c, p.obj, raw(0))
                        }
                        TacticExpr::Cond(p, ..) => {
                            let p = raw_probe(c, p)?;
                            z3_sys::Z3_tactic_cond(c, p.obj, raw(0), raw(1))
                        }
                        TacticExpr::FailIf(p) => {
                            let p = raw_probe(c, p)?;
                            z3_sys::Z3_tactic_fail_if(c, p.obj)
                        }
                        TacticExpr::UsingParams(_, params) => {
                            let p = raw_params(c, params, &kinds)?;
                            let t = z3_sys::Z3_tactic_using_params(c, raw(0), p);
                            z3_sys::Z3_params_dec_ref(c, p);
                            t
                        }
                        TacticExpr::Skip => z3_sys::Z3_tactic_skip(c),
                        TacticExpr::Fail => z3_sys::Z3_tactic_fail(c),
                        TacticExpr::FailIfNotDecided => z3_sys::Z3_tactic_fail_if_not_decided(c),
                        TacticExpr::ParOr(..) => {
                            let ts = [raw(0), raw(1)];
                            z3_sys::Z3_tactic_par_or(c, 2, ts.as_ptr())
                        }
                        TacticExpr::ParAndThen(..) => {
                            z3_sys::Z3_tactic_par_and_then(c, raw(0), raw(1))
                        }
                    }
                };
                let raw_tactic = tactic_obj(c, made)?;
                Ok((raw_tactic, crate_tactic(expr, &operands, &kinds)))
            })?
            .map_err(z3err)?;
        Ok(Outcome::Tactic(TacticSlot {
            raw: raw_tactic,
            tactic,
            names,
            skip: matches!(expr, TacticExpr::Skip),
        }))
    }

    pub(super) fn apply_tactic(
        &mut self,
        k: TacticId,
        g: GoalId,
        rlimit: u32,
        params: Option<&[(String, String)]>,
    ) -> Result<Outcome, ExecError> {
        let slot = self.tactic_slot(k)?;
        let tactic = &slot.raw;
        let kinds: Vec<ParamKind> = params
            .unwrap_or_default()
            .iter()
            .map(|(key, _)| tactic_param_kind(&slot.names, key))
            .collect();
        let goal = &self.goal_slot(g)?.goal;
        let c = self.raw_ctx();
        // A tactic validates the parameters of `Z3_tactic_apply_ex` against its own, which
        // have no `rlimit`: the limit is the context's for the call (the application reads
        // it), and back to none after.
        let (formulas, applied) = self
            .main(|| -> Result<_, String> {
                let formulas = goal_formulas(goal);
                let _limit = ContextRlimit::set(rlimit);
                // SAFETY: a live tactic and goal of the context; the parameters are referenced
                // around the call.
                let applied = unsafe {
                    let r = match params {
                        None => z3_sys::Z3_tactic_apply(c, tactic.obj, goal.obj),
                        Some(params) => {
                            let p = raw_params(c, params, &kinds)?;
                            let r = z3_sys::Z3_tactic_apply_ex(c, tactic.obj, goal.obj, p);
                            z3_sys::Z3_params_dec_ref(c, p);
                            r
                        }
                    };
                    r.map(|r| {
                        RawObj::adopt(
                            c,
                            r,
                            z3_sys::Z3_apply_result_inc_ref,
                            z3_sys::Z3_apply_result_dec_ref,
                        )
                    })
                };
                Ok((formulas, applied))
            })?
            .map_err(z3err)?;
        let result = applied.ok_or_else(|| z3err("Exception: the tactic failed".into()))?;
        let subgoals = self
            .main(|| {
                // SAFETY: indices below the result's number of subgoals.
                unsafe {
                    (0..z3_sys::Z3_apply_result_get_num_subgoals(c, result.obj))
                        .map(|i| goal_obj(c, z3_sys::Z3_apply_result_get_subgoal(c, result.obj, i)))
                        .collect::<Result<Vec<RawGoal>, String>>()
                }
            })?
            .map_err(z3err)?;
        let n = subgoals.len();
        self.judge_skip(k, g, &formulas, &subgoals)?;
        if let Some(slot) = self.goals.get_mut(&g) {
            slot.last_apply = Some(Applied {
                formulas,
                result,
                subgoals,
            });
        }
        Ok(Outcome::Value(n.to_string()))
    }

    /// A tactic made by `tactic_skip` leaves the goal as it is: one subgoal with the goal's
    /// formulas.
    fn judge_skip(
        &self,
        k: TacticId,
        g: GoalId,
        formulas: &[Bool],
        subgoals: &[RawGoal],
    ) -> Result<(), ExecError> {
        if !self.config.run_checks || !self.tactic_slot(k)?.skip {
            return Ok(());
        }
        let inject = matches!(
            self.config.inject,
            Some(super::inject::Fault::WrongGoalRead)
        );
        let same = self.main(|| match subgoals {
            [one] if !inject => goal_formulas(one) == formulas,
            _ => false,
        })?;
        if same {
            return Ok(());
        }
        Err(ExecError::Oracle(
            Failure::new(
                FailureKind::Tactic,
                format!(
                    "tactic_skip {k} made {} subgoals of goal {g}, not the goal itself",
                    subgoals.len()
                ),
            )
            .with_cause("goal_apply: tactic_skip changed the goal")
            .at_call("goal_apply"),
        ))
    }

    pub(super) fn subgoal(&self, g: GoalId, i: u32) -> Result<Outcome, ExecError> {
        let applied = self
            .goal_slot(g)?
            .last_apply
            .as_ref()
            .ok_or_else(|| ExecError::Malformed(format!("goal {g} has no subgoal {i}")))?;
        let goal = applied
            .subgoals
            .get(i as usize)
            .ok_or_else(|| ExecError::Malformed(format!("goal {g} has no subgoal {i}")))?;
        // SAFETY: the subgoal is live; the new slot takes its own reference.
        let goal = unsafe {
            RawObj::adopt(
                goal.ctx,
                goal.obj,
                z3_sys::Z3_goal_inc_ref,
                z3_sys::Z3_goal_dec_ref,
            )
        };
        Ok(Outcome::Goal(GoalSlot {
            goal,
            last_apply: None,
            origin: Some(applied.formulas.clone()),
        }))
    }

    pub(super) fn goal_formula(&self, g: GoalId) -> Result<Outcome, ExecError> {
        let goal = &self.goal_slot(g)?.goal;
        let formula = self.main(|| conjunction(&goal_formulas(goal)))?;
        Ok(Outcome::Term(z3::ast::Dynamic::from_ast(&formula)))
    }

    /// `check_goal`: the goal's formulas (as they were when the tactic was applied) are
    /// satisfiable iff one of the subgoals is. Only precise subgoals are judged (a tactic may
    /// under- or over-approximate and say so); unknown answers are no verdict.
    pub(super) fn check_goal(&mut self, check: &Check, g: GoalId) -> Result<(), ExecError> {
        let Some(applied) = self.goals.get(&g).and_then(|s| s.last_apply.as_ref()) else {
            return Ok(());
        };
        let precise = self.main(|| applied.subgoals.iter().all(is_precise))?;
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
                let mut formulas = goal_formulas(subgoal);
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

/// Whether Z3 says the goal is precise (neither under- nor over-approximated).
fn is_precise(goal: &RawGoal) -> bool {
    // SAFETY: a live goal.
    unsafe { z3_sys::Z3_goal_precision(goal.ctx, goal.obj) == z3_sys::GoalPrec::Precise }
}

/// The tactic through the `z3` crate, where the crate can express it and its operands.
fn crate_tactic(
    expr: &TacticExpr,
    operands: &[&TacticSlot],
    kinds: &[ParamKind],
) -> Option<Tactic> {
    let ops: Vec<&Tactic> = operands
        .iter()
        .map(|s| s.tactic.as_ref())
        .collect::<Option<Vec<_>>>()?;
    let t = |i: usize| ops[i];
    Some(match expr {
        TacticExpr::Named(name) => Tactic::new(name),
        TacticExpr::AndThen(..) => t(0).and_then(t(1)),
        TacticExpr::OrElse(..) => t(0).or_else(t(1)),
        TacticExpr::Repeat(_, max) => Tactic::repeat(t(0), *max),
        TacticExpr::TryFor(_, ms) => t(0).try_for(std::time::Duration::from_millis(u64::from(*ms))),
        TacticExpr::When(p, _) => t(0).when(&probe(p)),
        TacticExpr::Cond(p, ..) => Tactic::cond(&probe(p), t(0), t(1)),
        TacticExpr::FailIf(p) => Tactic::fail_if(&probe(p)),
        TacticExpr::UsingParams(_, params) => {
            let mut p = Params::new();
            for ((key, value), kind) in params.iter().zip(kinds) {
                super::set_param(&mut p, key, value, *kind);
            }
            t(0).with(&p)
        }
        TacticExpr::Skip => Tactic::create_skip(),
        TacticExpr::Fail => Tactic::create_fail(),
        TacticExpr::FailIfNotDecided | TacticExpr::ParOr(..) | TacticExpr::ParAndThen(..) => {
            return None
        }
    })
}

/// The probe test as a Z3 probe through z3-sys.
///
/// # Safety
/// `c` is the live thread-local context.
unsafe fn raw_probe(c: Z3_context, test: &ProbeTest) -> Result<RawProbe, String> {
    let p = named_probe(c, &test.probe)?;
    let k = probe_obj(c, z3_sys::Z3_probe_const(c, f64::from(test.value)))?;
    let made = match test.cmp {
        ProbeCmp::Lt => z3_sys::Z3_probe_lt(c, p.obj, k.obj),
        ProbeCmp::Le => z3_sys::Z3_probe_le(c, p.obj, k.obj),
        ProbeCmp::Gt => z3_sys::Z3_probe_gt(c, p.obj, k.obj),
        ProbeCmp::Ge => z3_sys::Z3_probe_ge(c, p.obj, k.obj),
        ProbeCmp::Eq => z3_sys::Z3_probe_eq(c, p.obj, k.obj),
    };
    probe_obj(c, made)
}

/// The probe named `name` (`Z3_mk_probe`).
///
/// # Safety
/// `c` is the live thread-local context.
pub(super) unsafe fn named_probe(c: Z3_context, name: &str) -> Result<RawProbe, String> {
    let name = CString::new(name).map_err(|e| e.to_string())?;
    probe_obj(c, z3_sys::Z3_mk_probe(c, name.as_ptr()))
}

/// A parameter set of the given kinds, referenced once (the caller releases it).
///
/// # Safety
/// `c` is the live thread-local context.
unsafe fn raw_params(
    c: Z3_context,
    params: &[(String, String)],
    kinds: &[ParamKind],
) -> Result<z3_sys::Z3_params, String> {
    let p = z3_sys::Z3_mk_params(c).ok_or("Z3 made no parameters")?;
    z3_sys::Z3_params_inc_ref(c, p);
    for ((key, value), kind) in params.iter().zip(kinds) {
        let key = CString::new(key.as_str()).map_err(|e| e.to_string())?;
        let Some(k) = z3_sys::Z3_mk_string_symbol(c, key.as_ptr()) else {
            continue;
        };
        let as_bool = match value.as_str() {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        };
        // As `super::set_param` does for the crate's parameters.
        match (kind, as_bool, value.parse::<u32>(), value.parse::<f64>()) {
            (ParamKind::Bool, Some(v), _, _) => z3_sys::Z3_params_set_bool(c, p, k, v),
            (ParamKind::Uint, _, Ok(v), _) => z3_sys::Z3_params_set_uint(c, p, k, v),
            (ParamKind::Double, _, _, Ok(v)) => z3_sys::Z3_params_set_double(c, p, k, v),
            (ParamKind::Symbol | ParamKind::String, _, _, _) => set_symbol(c, p, k, value)?,
            (_, Some(v), _, _) => z3_sys::Z3_params_set_bool(c, p, k, v),
            (_, _, Ok(v), _) => z3_sys::Z3_params_set_uint(c, p, k, v),
            (_, _, _, Ok(v)) => z3_sys::Z3_params_set_double(c, p, k, v),
            _ => set_symbol(c, p, k, value)?,
        }
    }
    Ok(p)
}

/// # Safety
/// `c` is live, `p` a live parameter set of it.
unsafe fn set_symbol(
    c: Z3_context,
    p: z3_sys::Z3_params,
    k: z3_sys::Z3_symbol,
    value: &str,
) -> Result<(), String> {
    let v = CString::new(value).map_err(|e| e.to_string())?;
    if let Some(v) = z3_sys::Z3_mk_string_symbol(c, v.as_ptr()) {
        z3_sys::Z3_params_set_symbol(c, p, k, v);
    }
    Ok(())
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

/// A goal reader's finding.
fn goal_finding(function: &str, message: String) -> ExecError {
    ExecError::Oracle(
        Failure::new(FailureKind::Tactic, message)
            .with_cause(format!("goal_read: {function}"))
            .at_call("goal_read"),
    )
}

impl Executor {
    /// `goal_read`: a reader of goal `g`, judged (see `model::goals::GOAL_READERS`).
    pub(super) fn goal_read(&mut self, function: &str, g: GoalId) -> Result<Outcome, ExecError> {
        let (answer, _) = model::goals::goal_reader(function)
            .ok_or_else(|| ExecError::Malformed(format!("`{function}` is no goal reader")))?;
        let slot = self.goal_slot(g)?;
        let (c, goal) = (slot.goal.ctx, slot.goal.obj);
        let judge = self.config.run_checks;
        let inject = matches!(
            self.config.inject,
            Some(super::inject::Fault::WrongGoalRead)
        );
        // SAFETY (every block below): z3-sys reads of the live goal and of objects made from
        // it, each referenced while used and released after.
        let problem: Option<String> = match function {
            "Z3_goal_depth" => {
                let depth = self.main(|| unsafe { z3_sys::Z3_goal_depth(c, goal) })?;
                let made_new = slot.origin.is_none() && judge;
                if made_new && (depth != 0) != inject {
                    return Err(goal_finding(
                        function,
                        format!("goal {g}, made by goal_new, has depth {depth}"),
                    ));
                }
                return Ok(Outcome::Value(depth.to_string()));
            }
            "Z3_goal_num_exprs" => {
                let (n, size) = self.main(|| unsafe {
                    (
                        z3_sys::Z3_goal_num_exprs(c, goal),
                        z3_sys::Z3_goal_size(c, goal),
                    )
                })?;
                if judge && (n < size) != inject {
                    return Err(goal_finding(
                        function,
                        format!("goal {g} has {size} formulas but {n} expressions"),
                    ));
                }
                return Ok(Outcome::Value(n.to_string()));
            }
            "Z3_goal_inconsistent" | "Z3_goal_is_decided_sat" | "Z3_goal_is_decided_unsat" => {
                let flag = self.main(|| unsafe {
                    match function {
                        "Z3_goal_inconsistent" => z3_sys::Z3_goal_inconsistent(c, goal),
                        "Z3_goal_is_decided_sat" => z3_sys::Z3_goal_is_decided_sat(c, goal),
                        _ => z3_sys::Z3_goal_is_decided_unsat(c, goal),
                    }
                })?;
                if flag && judge {
                    self.judge_decided(function, g, function == "Z3_goal_is_decided_sat")?;
                }
                return Ok(Outcome::Value(flag.to_string()));
            }
            "Z3_goal_to_string" => {
                self.main(|| z3_text(unsafe { z3_sys::Z3_goal_to_string(c, goal) }))?;
                None
            }
            "Z3_goal_to_dimacs_string" => {
                self.main(|| z3_text(unsafe { z3_sys::Z3_goal_to_dimacs_string(c, goal, true) }))?;
                None
            }
            "Z3_goal_translate" => self.main(|| unsafe { translated_differs(c, goal, inject) })?,
            "Z3_goal_reset" => {
                let size = self.main(|| unsafe {
                    z3_sys::Z3_goal_reset(c, goal);
                    z3_sys::Z3_goal_size(c, goal)
                })?;
                (size != 0).then(|| format!("goal {g} holds {size} formulas after its reset"))
            }
            "Z3_apply_result_to_string" => {
                let result = slot
                    .last_apply
                    .as_ref()
                    .ok_or_else(|| ExecError::Malformed(format!("no tactic applied to {g}")))?
                    .result
                    .obj;
                self.main(|| z3_text(unsafe { z3_sys::Z3_apply_result_to_string(c, result) }))?;
                None
            }
            "Z3_goal_convert_model" => self.convert_model(g)?,
            "Z3_get_tactic_name" | "Z3_get_probe_name" => {
                let tactics = function == "Z3_get_tactic_name";
                self.main(|| unsafe { catalog_problem(c, tactics, inject) })?
            }
            _ => {
                return Err(ExecError::Malformed(format!(
                    "`{function}` is no goal reader"
                )))
            }
        };
        match problem {
            Some(message) if judge => Err(goal_finding(function, message)),
            _ => Ok(Outcome::Value(match answer {
                model::goals::Answer::Done => "ok".into(),
                _ => String::new(),
            })),
        }
    }

    /// A goal Z3 calls decided: decided sat (`sat`) or inconsistent or decided unsat. The
    /// goal's own formulas and, for a precise subgoal, the formulas of the goal it came
    /// from, are not the opposite by a fresh solver (unknown is no verdict).
    fn judge_decided(&mut self, function: &str, g: GoalId, sat: bool) -> Result<(), ExecError> {
        let slot = self.goal_slot(g)?;
        let inject = matches!(
            self.config.inject,
            Some(super::inject::Fault::WrongGoalRead)
        );
        let wrong = if sat {
            SatResult::Unsat
        } else {
            SatResult::Sat
        };
        let found = self.main(|| {
            let mut sides = vec![("its formulas", goal_formulas(&slot.goal))];
            if let (Some(origin), true) = (&slot.origin, is_precise(&slot.goal)) {
                sides.push(("the goal it came from", origin.clone()));
            }
            sides.into_iter().find_map(|(what, mut formulas)| {
                if inject {
                    formulas = vec![conjunction(&formulas).not()];
                }
                (check_bounded(&formulas) == wrong).then_some(what)
            })
        })?;
        match found {
            Some(what) => Err(goal_finding(
                function,
                format!(
                    "goal {g} is decided {}, but {what} are {}",
                    if sat { "sat" } else { "unsat" },
                    if sat { "unsat" } else { "sat" }
                ),
            )),
            None => {
                self.count("goals: decided and confirmed");
                Ok(())
            }
        }
    }

    /// `Z3_goal_convert_model` on subgoal `g`: a model of the subgoal (a fresh simple
    /// solver's, under a resource limit), converted, makes every formula of the goal the
    /// tactic was applied to true (`Z3_model_eval` with completion). Only precise subgoals
    /// are judged; unsat or unknown is no verdict.
    fn convert_model(&mut self, g: GoalId) -> Result<Option<String>, ExecError> {
        let slot = self.goal_slot(g)?;
        let origin = slot
            .origin
            .clone()
            .ok_or_else(|| ExecError::Malformed(format!("goal {g} is no subgoal")))?;
        let inject = matches!(
            self.config.inject,
            Some(super::inject::Fault::WrongGoalRead)
        );
        let goal = &slot.goal;
        let verdict = self.main(|| -> Option<Option<String>> {
            let precise = is_precise(goal);
            let own = goal_formulas(goal);
            let solver = super::raw_solver::RawSolver::simple(GOAL_CHECK_RLIMIT, &own)?;
            if solver.check_assumptions(&[]) != SatResult::Sat {
                return None;
            }
            let (c, s) = solver.raw();
            // SAFETY: the solver's model and the converted one are referenced while read.
            unsafe {
                let m = z3_sys::Z3_solver_get_model(c, s)?;
                z3_sys::Z3_model_inc_ref(c, m);
                // A model that `model_eval` finds falsifying the subgoal itself is a bug of
                // the solver or of the evaluation (other checks judge those), not of the
                // conversion: no verdict.
                let own_false = first_false(c, m, own.iter().cloned());
                let converted = z3_sys::Z3_goal_convert_model(c, goal.obj, m);
                z3_sys::Z3_model_dec_ref(c, m);
                let converted = converted?;
                z3_sys::Z3_model_inc_ref(c, converted);
                let negate = |f: &Bool| if inject { f.not() } else { f.clone() };
                let false_at = first_false(c, converted, origin.iter().map(negate));
                z3_sys::Z3_model_dec_ref(c, converted);
                if own_false.is_some() || !precise {
                    return None;
                }
                Some(false_at.map(|i| {
                    format!(
                        "the converted model of subgoal {g} makes formula {i} of its goal false"
                    )
                }))
            }
        })?;
        match verdict {
            Some(found) => {
                self.count("goals: converted model judged");
                Ok(found)
            }
            None => Ok(None),
        }
    }

    /// `probe_apply`: the probe combination's value on goal `g`, which must be what its
    /// probes' own values make it (`model::goals::probe_combined`).
    pub(super) fn probe_apply(
        &mut self,
        g: GoalId,
        op: &str,
        first: &str,
        second: &str,
    ) -> Result<Outcome, ExecError> {
        let goal = &self.goal_slot(g)?.goal;
        let c = self.raw_ctx();
        let names: Vec<&str> = [first, second]
            .into_iter()
            .filter(|p| !p.is_empty())
            .collect();
        let (values, combined) = self
            .main(|| -> Result<(Vec<f64>, f64), String> {
                // SAFETY: probes of the live context, referenced while applied to the goal.
                unsafe {
                    let probes = names
                        .iter()
                        .map(|n| named_probe(c, n))
                        .collect::<Result<Vec<RawProbe>, String>>()?;
                    let values = probes
                        .iter()
                        .map(|p| z3_sys::Z3_probe_apply(c, p.obj, goal.obj))
                        .collect();
                    let p = |i: usize| probes[i].obj;
                    let made = match op {
                        "value" => probe_obj(c, Some(p(0)))?,
                        "not" => probe_obj(c, z3_sys::Z3_probe_not(c, p(0)))?,
                        "and" => probe_obj(c, z3_sys::Z3_probe_and(c, p(0), p(1)))?,
                        _ => probe_obj(c, z3_sys::Z3_probe_or(c, p(0), p(1)))?,
                    };
                    Ok((values, z3_sys::Z3_probe_apply(c, made.obj, goal.obj)))
                }
            })?
            .map_err(z3err)?;
        let combined = match (&self.config.inject, op) {
            (Some(super::inject::Fault::WrongGoalRead), "and" | "or" | "not") => 1.0 - combined,
            _ => combined,
        };
        let expected = model::goals::probe_combined(op, &values);
        if let (Some(expected), true) = (expected, self.config.run_checks) {
            if expected != combined {
                return Err(ExecError::Oracle(
                    Failure::new(
                        FailureKind::Tactic,
                        format!(
                            "probe `{op}` of {names:?} on goal {g} is {combined}, its probes' \
                             values {values:?} make it {expected}"
                        ),
                    )
                    .with_cause(format!("probe_apply: {op}"))
                    .at_call("probe_apply"),
                ));
            }
        }
        Ok(Outcome::Value(format!("{combined}")))
    }
}

/// What is wrong with Z3's catalog of tactics (`tactics`) or probes: a name the model
/// knows missing, a description or (for a tactic made by name) help empty.
///
/// # Safety
/// `c` is the live thread-local context.
unsafe fn catalog_problem(c: Z3_context, tactics: bool, inject: bool) -> Option<String> {
    let (n, expected): (u32, &[&str]) = if tactics {
        (z3_sys::Z3_get_num_tactics(c), model::options::GOAL_TACTICS)
    } else {
        (z3_sys::Z3_get_num_probes(c), model::options::PROBES)
    };
    let mut names = Vec::new();
    for i in 0..n {
        let name = if tactics {
            z3_sys::Z3_get_tactic_name(c, i)
        } else {
            z3_sys::Z3_get_probe_name(c, i)
        };
        names.push(z3_text(name));
    }
    if inject {
        names.clear();
    }
    if let Some(missing) = expected.iter().find(|e| !names.iter().any(|n| n == *e)) {
        return Some(format!("`{missing}` is not among Z3's {n} names"));
    }
    for name in expected {
        let cname = CString::new(*name).ok()?;
        let descr = if tactics {
            z3_sys::Z3_tactic_get_descr(c, cname.as_ptr())
        } else {
            z3_sys::Z3_probe_get_descr(c, cname.as_ptr())
        };
        if z3_text(descr).trim().is_empty() {
            return Some(format!("`{name}` has no description"));
        }
    }
    if tactics {
        let name = CString::new(expected[0]).ok()?;
        let t = tactic_obj(c, z3_sys::Z3_mk_tactic(c, name.as_ptr())).ok()?;
        if z3_text(z3_sys::Z3_tactic_get_help(c, t.obj))
            .trim()
            .is_empty()
        {
            return Some(format!("tactic `{}` has no help", expected[0]));
        }
    }
    None
}

/// The index of the first formula `m` evaluates (with completion) to false.
///
/// # Safety
/// `c` is live and `m` a live model of it.
unsafe fn first_false(
    c: Z3_context,
    m: z3_sys::Z3_model,
    formulas: impl Iterator<Item = Bool>,
) -> Option<usize> {
    for (i, f) in formulas.enumerate() {
        let mut out = std::mem::MaybeUninit::<z3_sys::Z3_ast>::uninit();
        let ok = z3_sys::Z3_model_eval(c, m, f.get_z3_ast(), true, out.as_mut_ptr());
        // Z3 wrote the value where it answered true.
        if ok && z3_sys::Z3_get_bool_value(c, out.assume_init()) == z3_sys::Z3_L_FALSE {
            return Some(i);
        }
    }
    None
}

/// `Z3_goal_translate` of the goal into a fresh context made by `Z3_mk_context` (the maker
/// without reference counting of terms): the copy must print as the goal does.
///
/// # Safety
/// `c` is the live thread-local context and `goal` one of its goals.
unsafe fn translated_differs(c: Z3_context, goal: Z3_goal, inject: bool) -> Option<String> {
    let cfg = z3_sys::Z3_mk_config()?;
    let target = z3_sys::Z3_mk_context(cfg);
    z3_sys::Z3_del_config(cfg);
    let target = target?;
    z3_sys::Z3_set_error_handler(target, None);
    let mut problem = None;
    if let Some(copy) = z3_sys::Z3_goal_translate(c, goal, target) {
        z3_sys::Z3_goal_inc_ref(target, copy);
        let theirs = z3_text(z3_sys::Z3_goal_to_string(target, copy));
        let ours = z3_text(z3_sys::Z3_goal_to_string(c, goal));
        if (theirs != ours) != inject {
            problem = Some(format!(
                "the goal translated prints `{}`, the goal `{}`",
                guard::one_line(&theirs),
                guard::one_line(&ours)
            ));
        }
        z3_sys::Z3_goal_dec_ref(target, copy);
    }
    z3_sys::Z3_del_context(target);
    problem
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
