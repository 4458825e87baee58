//! The fresh solvers the oracle checks ask, in the current thread-local context; callers run
//! them inside a guard ([`super::guard::in_context`]), which turns Z3's errors into values.
//!
//! [`reference_solver`] is the one that judges (is this formula sat?): Z3's `smt` tactic as a
//! solver, not `Solver::new()`. Why: the first check of a fresh default solver builds Z3's
//! whole default tactic (a probe and a strategy per logic), about 4.3 ms on Z3 4.8.12 whatever
//! the formula, against 0.07 ms for the smt core on `x > 0`; the checks ask fresh solvers
//! several times a round, and that fixed cost was most of the fuzzer's time. The smt core
//! is also what a default solver runs incrementally, so its answers are Z3's own; where it
//! gives up (unknown), a check has no verdict.
//!
//! [`RawSolver`] drives a solver through z3-sys for the API functions the `z3` crate does not
//! wrap as the checks need them: `Z3_solver_get_consequences` (its answer and variables of
//! every sort) and `Z3_solver_cube`. [`RawSolver::default_solver`] is the object under test
//! (what `Solver::new()` gives a user); [`RawSolver::reference`] judges, like
//! [`reference_solver`].

use z3::ast::{Ast, Bool, Dynamic};
use z3::{Context, Params, SatResult, Solver, Tactic};
use z3_sys::{Z3_ast_vector, Z3_context, Z3_solver};

/// The tactic behind the reference solvers.
const REFERENCE_TACTIC: &str = "smt";

/// A fresh reference solver with a resource limit (none for `None`).
pub fn reference_solver(rlimit: Option<u32>) -> Solver {
    let solver = Tactic::new(REFERENCE_TACTIC).solver();
    if let Some(limit) = rlimit {
        let mut params = Params::new();
        params.set_u32("rlimit", limit);
        solver.set_params(&params);
    }
    solver
}

/// A fresh solver with a resource limit; released on drop.
pub struct RawSolver {
    ctx: Context,
    raw: Z3_context,
    solver: Z3_solver,
}

/// An AST vector built from or returned to the checks, released on drop.
struct Vector {
    raw: Z3_context,
    v: Z3_ast_vector,
}

impl Vector {
    fn new(raw: Z3_context, items: &[&Dynamic]) -> Option<Vector> {
        // SAFETY: a new vector of the live context, referenced until drop.
        unsafe {
            let v = z3_sys::Z3_mk_ast_vector(raw)?;
            z3_sys::Z3_ast_vector_inc_ref(raw, v);
            for item in items {
                z3_sys::Z3_ast_vector_push(raw, v, item.get_z3_ast());
            }
            Some(Vector { raw, v })
        }
    }

    /// Takes a reference to a vector Z3 returned.
    fn adopt(raw: Z3_context, v: Z3_ast_vector) -> Vector {
        // SAFETY: `v` is a live vector of `raw`, referenced until drop.
        unsafe { z3_sys::Z3_ast_vector_inc_ref(raw, v) };
        Vector { raw, v }
    }

    fn items(&self, ctx: &Context) -> Vec<Dynamic> {
        // SAFETY: indices below the size; `wrap` references each element.
        unsafe {
            (0..z3_sys::Z3_ast_vector_size(self.raw, self.v))
                .filter_map(|i| z3_sys::Z3_ast_vector_get(self.raw, self.v, i))
                .map(|a| Dynamic::wrap(ctx, a))
                .collect()
        }
    }
}

impl Drop for Vector {
    fn drop(&mut self) {
        // SAFETY: referenced in `new`/`adopt`.
        unsafe { z3_sys::Z3_ast_vector_dec_ref(self.raw, self.v) }
    }
}

fn lbool(r: z3_sys::Z3_lbool) -> SatResult {
    match r {
        z3_sys::Z3_L_TRUE => SatResult::Sat,
        z3_sys::Z3_L_FALSE => SatResult::Unsat,
        _ => SatResult::Unknown,
    }
}

impl RawSolver {
    /// A default solver (`Z3_mk_solver`) of the thread-local context with `rlimit`, given
    /// `assertions`: the object a check tests.
    pub fn default_solver(rlimit: u32, assertions: &[Bool]) -> Option<RawSolver> {
        // SAFETY: a plain constructor call on a live context.
        Self::new(rlimit, assertions, |raw| unsafe {
            z3_sys::Z3_mk_solver(raw)
        })
    }

    /// A reference solver (see [`reference_solver`]) with `rlimit`, given `assertions`.
    pub fn reference(rlimit: u32, assertions: &[Bool]) -> Option<RawSolver> {
        let name = std::ffi::CString::new(REFERENCE_TACTIC).ok()?;
        // SAFETY: plain constructor calls on a live context; the tactic is referenced while
        // the solver is made from it (which takes its own reference).
        Self::new(rlimit, assertions, |raw| unsafe {
            let tactic = z3_sys::Z3_mk_tactic(raw, name.as_ptr())?;
            z3_sys::Z3_tactic_inc_ref(raw, tactic);
            let solver = z3_sys::Z3_mk_solver_from_tactic(raw, tactic);
            z3_sys::Z3_tactic_dec_ref(raw, tactic);
            solver
        })
    }

    /// A simple solver (`Z3_mk_simple_solver`: the SMT core, without preprocessing
    /// tactics) with `rlimit`, given `assertions`.
    pub fn simple(rlimit: u32, assertions: &[Bool]) -> Option<RawSolver> {
        // SAFETY: a plain constructor call on a live context.
        Self::new(rlimit, assertions, |raw| unsafe {
            z3_sys::Z3_mk_simple_solver(raw)
        })
    }

    /// The context and the solver, for the functions only newer releases have (the caller
    /// looks them up by name and keeps to the solver's lifetime).
    pub fn raw(&self) -> (Z3_context, Z3_solver) {
        (self.raw, self.solver)
    }

    /// A solver `make` returns (for the functions only newer releases have, looked up by
    /// name) with `rlimit`, given `assertions`.
    pub fn made(
        rlimit: u32,
        assertions: &[Bool],
        make: impl FnOnce(Z3_context) -> Option<Z3_solver>,
    ) -> Option<RawSolver> {
        Self::new(rlimit, assertions, make)
    }

    /// After a sat answer: the first of `terms` that the solver's model (`Z3_model_eval`
    /// with completion) does not make true; `None` when there is no model or a term has no
    /// value.
    pub fn first_false(&self, terms: &[Dynamic]) -> Option<Option<Dynamic>> {
        // SAFETY: a live solver after a check; the model is referenced while evaluated.
        unsafe {
            let model = z3_sys::Z3_solver_get_model(self.raw, self.solver)?;
            z3_sys::Z3_model_inc_ref(self.raw, model);
            let mut found = Some(None);
            for t in terms {
                let mut out: Option<z3_sys::Z3_ast> = None;
                let done = z3_sys::Z3_model_eval(
                    self.raw,
                    model,
                    t.get_z3_ast(),
                    true,
                    &mut out as *mut _ as *mut _,
                );
                let Some(value) = out.filter(|_| done) else {
                    found = None;
                    break;
                };
                if z3_sys::Z3_get_bool_value(self.raw, value) != z3_sys::Z3_L_TRUE {
                    found = Some(Some(t.clone()));
                    break;
                }
            }
            z3_sys::Z3_model_dec_ref(self.raw, model);
            found
        }
    }

    fn new(
        rlimit: u32,
        assertions: &[Bool],
        make: impl FnOnce(Z3_context) -> Option<Z3_solver>,
    ) -> Option<RawSolver> {
        let ctx = Context::thread_local();
        let raw = ctx.get_z3_context();
        // SAFETY: plain calls on a live context; the solver is referenced until drop, the
        // parameters and the symbol live while they are used.
        let solver = unsafe {
            let solver = make(raw)?;
            z3_sys::Z3_solver_inc_ref(raw, solver);
            let params = z3_sys::Z3_mk_params(raw)?;
            z3_sys::Z3_params_inc_ref(raw, params);
            let key = std::ffi::CString::new("rlimit").ok()?;
            let symbol = z3_sys::Z3_mk_string_symbol(raw, key.as_ptr())?;
            z3_sys::Z3_params_set_uint(raw, params, symbol, rlimit);
            z3_sys::Z3_solver_set_params(raw, solver, params);
            z3_sys::Z3_params_dec_ref(raw, params);
            solver
        };
        let this = RawSolver { ctx, raw, solver };
        for a in assertions {
            this.assert(a);
        }
        Some(this)
    }

    pub fn assert(&self, b: &Bool) {
        // SAFETY: a live solver and a term of its context.
        unsafe { z3_sys::Z3_solver_assert(self.raw, self.solver, b.get_z3_ast()) }
    }

    pub fn check_assumptions(&self, assumptions: &[Dynamic]) -> SatResult {
        let asts: Vec<_> = assumptions.iter().map(|a| a.get_z3_ast()).collect();
        // SAFETY: a live solver; the assumptions are terms of its context.
        let r = unsafe {
            z3_sys::Z3_solver_check_assumptions(
                self.raw,
                self.solver,
                asts.len() as u32,
                asts.as_ptr(),
            )
        };
        lbool(r)
    }

    /// `Z3_solver_get_consequences`: its answer and the consequences.
    pub fn consequences(
        &self,
        assumptions: &[&Dynamic],
        variables: &[&Dynamic],
    ) -> Option<(SatResult, Vec<Dynamic>)> {
        let (a, v, out) = (
            Vector::new(self.raw, assumptions)?,
            Vector::new(self.raw, variables)?,
            Vector::new(self.raw, &[])?,
        );
        // SAFETY: a live solver and vectors of its context.
        let r =
            unsafe { z3_sys::Z3_solver_get_consequences(self.raw, self.solver, a.v, v.v, out.v) };
        Some((lbool(r), out.items(&self.ctx)))
    }

    /// The next cube (`Z3_solver_cube` with no variables and no backtracking limit).
    pub fn cube(&self) -> Option<Vec<Dynamic>> {
        let vars = Vector::new(self.raw, &[])?;
        // SAFETY: a live solver and a vector of its context.
        let cube = unsafe { z3_sys::Z3_solver_cube(self.raw, self.solver, vars.v, u32::MAX)? };
        Some(Vector::adopt(self.raw, cube).items(&self.ctx))
    }
}

impl Drop for RawSolver {
    fn drop(&mut self) {
        // SAFETY: referenced in `new`.
        unsafe { z3_sys::Z3_solver_dec_ref(self.raw, self.solver) }
    }
}
