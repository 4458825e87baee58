//! `check_initial_value`: an initial value (`Z3_solver_set_initial_value`,
//! `Z3_optimize_set_initial_value`, releases after 4.8.12) is a hint to the search, so a
//! solver and an Optimize context given one answer as the round's solver did. Both functions
//! are looked up by name in the loaded libz3 (never linked): a trace with the check replays
//! only where it has them ([`INITIAL_VALUE_FUNCTIONS`], `read::missing_function`).
//!
//! The hint goes to a fresh simple solver, the SMT core: Z3 refuses hints to its default
//! solver ("value initialization is only supported on the SMT solver"), and the executor's
//! solvers are `z3` crate objects, whose raw handles the crate does not give.

use super::checks::SOLVER_CHECK_RLIMIT;
use super::raw_solver::RawSolver;
use super::read::typed;
use super::{guard, ExecError, Executor};
use model::call::{Check, SolverId, TermId};
use z3::ast::{Ast, Bool, Dynamic};
use z3::SatResult;
use z3_sys::{Z3_ast, Z3_context, Z3_optimize, Z3_solver};

/// The functions of `check_initial_value`, which only releases after 4.8.12 have.
pub const INITIAL_VALUE_FUNCTIONS: &[&str] = &[
    "Z3_solver_set_initial_value",
    "Z3_optimize_set_initial_value",
];

type SolverHint = unsafe extern "C" fn(Z3_context, Z3_solver, Z3_ast, Z3_ast);
type OptimizeHint = unsafe extern "C" fn(Z3_context, Z3_optimize, Z3_ast, Z3_ast);

/// What the check's own solvers answered.
struct Answers {
    solver: SatResult,
    /// After sat: a term of the formula the solver's model does not make true.
    falsified: Option<String>,
    optimize: SatResult,
}

fn lbool(r: z3_sys::Z3_lbool) -> SatResult {
    match r {
        z3_sys::Z3_L_TRUE => SatResult::Sat,
        z3_sys::Z3_L_FALSE => SatResult::Unsat,
        _ => SatResult::Unknown,
    }
}

/// A fresh Optimize context of the thread-local context `raw` given `asserted` and the hint,
/// checked under `assumed` with `rlimit`.
///
/// # Safety
/// `raw` must be the live thread-local context, the terms its terms.
unsafe fn optimize_answer(
    hint: OptimizeHint,
    raw: Z3_context,
    asserted: &[Bool],
    assumed: &[Dynamic],
    (var, value): (Z3_ast, Z3_ast),
) -> Option<SatResult> {
    // SAFETY: as the caller promises; the context object is referenced until the end.
    unsafe {
        let opt = z3_sys::Z3_mk_optimize(raw)?;
        z3_sys::Z3_optimize_inc_ref(raw, opt);
        let params = z3_sys::Z3_mk_params(raw)?;
        z3_sys::Z3_params_inc_ref(raw, params);
        let key = std::ffi::CString::new("rlimit").ok()?;
        let symbol = z3_sys::Z3_mk_string_symbol(raw, key.as_ptr())?;
        z3_sys::Z3_params_set_uint(raw, params, symbol, SOLVER_CHECK_RLIMIT);
        z3_sys::Z3_optimize_set_params(raw, opt, params);
        z3_sys::Z3_params_dec_ref(raw, params);
        for a in asserted {
            z3_sys::Z3_optimize_assert(raw, opt, a.get_z3_ast());
        }
        hint(raw, opt, var, value);
        let asts: Vec<Z3_ast> = assumed.iter().map(|a| a.get_z3_ast()).collect();
        let r = z3_sys::Z3_optimize_check(raw, opt, asts.len() as u32, asts.as_ptr());
        z3_sys::Z3_optimize_dec_ref(raw, opt);
        Some(lbool(r))
    }
}

impl Executor {
    /// `check_initial_value`: see [`model::Check::InitialValue`]. Unknown answers, a formula
    /// the checks cannot name and a formula changed since Z's last check are no verdict.
    pub(super) fn check_initial_value(
        &mut self,
        check: &Check,
        z: SolverId,
        var: TermId,
        value: TermId,
    ) -> Result<(), ExecError> {
        let Some(super::checks::LastCheck {
            expected,
            assertions,
            assumed,
            ctx,
            foreign,
        }) = self.last_check(z, "initial value")
        else {
            return Ok(());
        };
        let Some(hint) = self.terms_of([var, value]) else {
            return Ok(());
        };
        // SAFETY: the functions' z3_api.h signatures.
        let (solver_hint, optimize_hint) = unsafe {
            (
                typed::<SolverHint>("Z3_solver_set_initial_value"),
                typed::<OptimizeHint>("Z3_optimize_set_initial_value"),
            )
        };
        let (solver_hint, optimize_hint) = (
            solver_hint.map_err(ExecError::Malformed)?,
            optimize_hint.map_err(ExecError::Malformed)?,
        );
        let judged = guard::in_context(&ctx, || -> Option<Answers> {
            let local = |t: &Dynamic| super::into_context(t, &ctx, foreign);
            let asserted: Vec<Bool> = assertions
                .iter()
                .filter_map(|t| local(t).as_bool())
                .collect();
            let assumed: Vec<Dynamic> = assumed.iter().map(local).collect();
            let (v, x) = (local(&hint[0]), local(&hint[1]));
            let pair = (v.get_z3_ast(), x.get_z3_ast());
            let solver = RawSolver::simple(SOLVER_CHECK_RLIMIT, &asserted)?;
            let (raw, s) = solver.raw();
            // SAFETY: a live solver and terms of its context.
            unsafe { solver_hint(raw, s, pair.0, pair.1) };
            let answer = solver.check_assumptions(&assumed);
            let falsified = match answer {
                SatResult::Sat => {
                    let formula: Vec<Dynamic> = asserted
                        .iter()
                        .map(|b| Dynamic::from_ast(b))
                        .chain(assumed.iter().cloned())
                        .collect();
                    solver
                        .first_false(&formula)
                        .flatten()
                        .map(|t| guard::one_line(&t.to_string()))
                }
                _ => None,
            };
            // SAFETY: the thread-local context is `ctx`; the terms are its terms.
            let optimize =
                unsafe { optimize_answer(optimize_hint, raw, &asserted, &assumed, pair)? };
            Some(Answers {
                solver: answer,
                falsified,
                optimize,
            })
        });
        let answers = match judged {
            Err(message) => return self.check_error(check, message),
            Ok(None) => {
                return Err(ExecError::Z3(format!(
                    "{}: Z3 returned no object",
                    check.name()
                )))
            }
            Ok(Some(answers)) => answers,
        };
        if let Some(term) = answers.falsified {
            return Err(Self::finding(
                check,
                format!(
                    "a simple solver given the initial value {var} := {value} gave a model in which {term} is not true"
                ),
                "model of a solver with an initial value falsifies the formula".into(),
            ));
        }
        for (who, answer) in [
            ("a simple solver", answers.solver),
            ("an Optimize context", answers.optimize),
        ] {
            match answer {
                SatResult::Unknown => self.count("initial value: unknown"),
                answer if super::sat(answer) == expected => self.count("initial value: agreed"),
                answer => {
                    return Err(Self::finding(
                        check,
                        format!(
                            "{who} given the initial value {var} := {value} answered {} where {z} ({}) answered {} on the same formula",
                            super::sat(answer).name(),
                            self.solver_kind(z),
                            expected.name()
                        ),
                        format!(
                            "{who} with an initial value {}, {} {}",
                            super::sat(answer).name(),
                            self.solver_class(z),
                            expected.name()
                        ),
                    ))
                }
            }
        }
        Ok(())
    }
}
