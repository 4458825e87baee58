//! `check_proof_callback`: a client proof checker (`Z3_set_proof_check_callback`, releases
//! from 5.3.2, looked up by name) on a fresh context that evaluates a solver's dump with
//! proofs on (`Z3_eval_smtlib2_string`), judged by what Z3 documents of it
//! (`model::Check::ProofCallback`).
//!
//! The callback is an `extern "C"` function with a pointer to a [`Seen`] on the check's stack,
//! which outlives the evaluation (the context is deleted before the function returns, and no
//! other evaluation runs on it); nothing unwinds out of it (`catch_unwind`).

use super::checks::SOLVER_CHECK_RLIMIT;
use super::read::typed;
use super::{guard, unlogged, ExecError, Executor};
use model::call::{Check, SatResult, SolverId};
use std::cell::Cell;
use std::ffi::{c_char, c_uint, c_void, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use z3_sys::{Z3_ast, Z3_ast_vector, Z3_context};

/// The functions of `check_proof_callback`, which only releases from 5.3.2 have.
pub const PROOF_CHECK_FUNCTIONS: &[&str] = &["Z3_set_proof_check_callback"];

/// The report the callback returns; Z3 writes it into the evaluation's output.
const REPORT: &std::ffi::CStr = c"mbt-proof-check-report";

type ProofCheckEh =
    unsafe extern "C" fn(*mut c_void, Z3_context, Z3_ast, Z3_ast_vector) -> *const c_char;
type SetProofCheck = unsafe extern "C" fn(Z3_context, *mut c_void, ProofCheckEh);

/// What the callback saw.
#[derive(Default)]
struct Seen {
    calls: Cell<u32>,
    /// The assertions of the last call.
    assertions: Cell<u32>,
    /// The last call's proof did not conclude `false` (its last argument).
    not_false: Cell<bool>,
    panicked: Cell<bool>,
}

unsafe extern "C" fn proof_checked(
    user: *mut c_void,
    ctx: Z3_context,
    proof: Z3_ast,
    assertions: Z3_ast_vector,
) -> *const c_char {
    if user.is_null() {
        return REPORT.as_ptr();
    }
    // SAFETY: the pointer given to `Z3_set_proof_check_callback`: a `Seen` that outlives the
    // context.
    let seen = unsafe { &*(user as *const Seen) };
    let judged = catch_unwind(AssertUnwindSafe(|| {
        seen.calls.set(seen.calls.get() + 1);
        // SAFETY: Z3 passes a live proof and vector of `ctx` for the call's duration.
        unsafe {
            seen.assertions
                .set(z3_sys::Z3_ast_vector_size(ctx, assertions));
            let concludes_false = z3_sys::Z3_to_app(ctx, proof).is_some_and(|app| {
                let n: c_uint = z3_sys::Z3_get_app_num_args(ctx, app);
                n > 0
                    && z3_sys::Z3_get_app_arg(ctx, app, n - 1)
                        .is_some_and(|c| z3_sys::Z3_get_bool_value(ctx, c) == z3_sys::Z3_L_FALSE)
            });
            seen.not_false.set(!concludes_false);
        }
    }));
    if judged.is_err() {
        seen.panicked.set(true);
    }
    REPORT.as_ptr()
}

/// The answer an evaluation's output begins with.
fn answer_of(output: &str) -> Option<SatResult> {
    match output.split_whitespace().next()? {
        "sat" => Some(SatResult::Sat),
        "unsat" => Some(SatResult::Unsat),
        "unknown" => Some(SatResult::Unknown),
        _ => None,
    }
}

impl Executor {
    /// `check_proof_callback`: see [`model::Check::ProofCallback`]. A dump Z3's parser
    /// refuses and an answer other than Z's definite one where the dump is weaker are no
    /// verdict.
    pub(super) fn check_proof_callback(
        &mut self,
        check: &Check,
        z: SolverId,
    ) -> Result<(), ExecError> {
        if !self.state.rec_funcs.is_empty() {
            // As for check_dump: a dump does not parse back where recursive functions are
            // defined.
            self.count("proof callback: skipped: recursive functions");
            return Ok(());
        }
        let slot = self.slot(z)?;
        let Some(original) = slot.formula.definite() else {
            return Ok(());
        };
        let weaker = !slot.trackers.is_empty() || slot.formula.assuming;
        let rlimit = slot
            .formula
            .param("rlimit")
            .map_or_else(|| SOLVER_CHECK_RLIMIT.to_string(), str::to_string);
        let wrong = matches!(
            self.config.inject,
            Some(super::inject::Fault::WrongPropagator)
        );
        let text = guard::in_context(&slot.ctx, || slot.solver.to_smt2()).map_err(ExecError::Z3)?;
        // SAFETY: the function's z3_api.h signature.
        let set = unsafe { typed::<SetProofCheck>("Z3_set_proof_check_callback") }
            .map_err(ExecError::Malformed)?;
        // The dump (`Z3_benchmark_to_smtlib_string`) ends with its own `(check-sat)`.
        let check_sat = if text.contains("(check-sat)") {
            ""
        } else {
            "(check-sat)\n"
        };
        let script = CString::new(format!(
            "(set-option :produce-proofs true)\n(set-option :rlimit {rlimit})\n{text}\n{check_sat}"
        ))
        .map_err(|e| ExecError::Malformed(format!("a dump with a NUL byte: {e}")))?;
        let seen = Seen::default();
        let fresh = guard::fresh_context().map_err(ExecError::Z3)?;
        let output = guard::in_context(&fresh, || {
            let raw = fresh.get_z3_context();
            unlogged::note("Z3_set_proof_check_callback");
            // SAFETY: a live context; `seen` outlives it (the context goes at the end of
            // this function).
            unsafe {
                set(raw, &seen as *const Seen as *mut c_void, proof_checked);
                let out = z3_sys::Z3_eval_smtlib2_string(raw, script.as_ptr());
                super::read::text(out).unwrap_or_default()
            }
        });
        drop(fresh);
        let output = match output {
            Ok(output) => output,
            Err(message) if message.contains("ParserError") || message.contains("error \"line") => {
                self.count("proof callback: no verdict: the dump does not parse");
                return Ok(());
            }
            Err(message) => return self.check_error(check, message),
        };
        if seen.panicked.get() {
            self.count("proof callback: no verdict: the callback panicked");
            return Ok(());
        }
        let Some(answer) = answer_of(&output) else {
            self.count("proof callback: no verdict: no answer");
            return Ok(());
        };
        if wrong && answer == SatResult::Unsat {
            seen.calls.set(seen.calls.get() + 1);
        }
        let problem = match answer {
            SatResult::Unsat if seen.calls.get() != 1 => Some(format!(
                "after unsat the proof checker was called {} times, not once",
                seen.calls.get()
            )),
            SatResult::Unsat if !output.contains(REPORT.to_str().unwrap_or_default()) => Some(
                "after unsat the evaluation's output does not hold the proof checker's report"
                    .to_string(),
            ),
            SatResult::Unsat if seen.assertions.get() == 0 => {
                Some("the proof checker was given no assertions".to_string())
            }
            SatResult::Unsat if seen.not_false.get() => {
                Some("the proof the checker was given does not conclude false".to_string())
            }
            SatResult::Sat | SatResult::Unknown if seen.calls.get() > 0 => Some(format!(
                "the proof checker was called after {}",
                answer.name()
            )),
            _ => None,
        };
        if let Some(problem) = problem {
            return Err(Self::finding(
                check,
                format!("{problem} (the dump of {z} evaluated with proofs on)"),
                "a proof checker called against its documentation".into(),
            ));
        }
        let contradicts = match (original, answer) {
            (SatResult::Sat, SatResult::Unsat) => true,
            (SatResult::Unsat, SatResult::Sat) => !weaker,
            _ => false,
        };
        if contradicts {
            return Err(Self::finding(
                check,
                format!(
                    "the dump of {z} evaluated with proofs on answers {} where {z} answered {}",
                    answer.name(),
                    original.name()
                ),
                format!(
                    "dump with proofs {}, solver {}",
                    answer.name(),
                    original.name()
                ),
            ));
        }
        self.count(&format!("proof callback: agreed: {}", answer.name()));
        Ok(())
    }
}
