//! Interrupts and solver introspection in the executor: `check_sat_interrupted` (a check
//! interrupted from a second thread by `Z3_interrupt`), the `check_interrupt` oracle (the
//! solver stays usable and answers as before), and the solver readers of `solver_read`
//! (`model::goals::SOLVER_READERS`).
//!
//! The `z3` crate gives no raw handle of a solver: the readers it does not wrap are asked
//! of a copy made through z3-sys in the solver's context (a default solver given the
//! solver's assertions, a push between its scopes), which says so in each finding.

use super::checks::Interrupted;
use super::raw_solver::RawSolver;
use super::{guard, into_context, sat, unlogged, z3err, ExecError, Executor, Outcome};
use model::finding::{Failure, FailureKind};
use model::{Check, SatResult, SolverId};
use std::time::Duration;
use z3::ast::{Ast, Bool, Dynamic};

/// The resource limit of the copies a solver reader checks, and of the solvers that judge
/// a unit (deterministic; unknown is no verdict).
pub const READ_RLIMIT: u32 = 50_000;

/// At most this many units or trail literals are judged per read (a fresh check each).
const MAX_JUDGED_LITERALS: usize = 3;

/// Copies a string Z3 returned (empty for NULL).
fn z3_text(p: z3_sys::Z3_string) -> String {
    if p.is_null() {
        return String::new();
    }
    // SAFETY: a NUL-terminated string Z3 owns until its next call; copied at once.
    unsafe { std::ffi::CStr::from_ptr(p).to_string_lossy().into_owned() }
}

/// The names of the parameters solver `s` describes (`Z3_solver_get_param_descrs`).
///
/// # Safety
/// `c` is live and `s` a live solver of it.
unsafe fn param_names(c: z3_sys::Z3_context, s: z3_sys::Z3_solver) -> Vec<String> {
    let Some(d) = z3_sys::Z3_solver_get_param_descrs(c, s) else {
        return Vec::new();
    };
    z3_sys::Z3_param_descrs_inc_ref(c, d);
    let names = (0..z3_sys::Z3_param_descrs_size(c, d))
        .filter_map(|i| z3_sys::Z3_param_descrs_get_name(c, d, i))
        .map(|sym| z3_text(z3_sys::Z3_get_symbol_string(c, sym)))
        .collect();
    z3_sys::Z3_param_descrs_dec_ref(c, d);
    names
}

/// A Z3 handle moved to the interrupting thread (Z3 documents `Z3_interrupt` and
/// `Z3_solver_interrupt` as callable from another thread).
struct SendPtr<T>(T);
// SAFETY: only the interrupt functions use it on the other thread.
unsafe impl<T> Send for SendPtr<T> {}

fn read_finding(kind: FailureKind, function: &str, message: String) -> ExecError {
    ExecError::Oracle(
        Failure::new(kind, message)
            .with_cause(format!("solver_read: {function}"))
            .at_call("solver_read"),
    )
}

impl Executor {
    /// `check_sat_interrupted`: Z's check, interrupted by `Z3_interrupt` of Z's context from
    /// a second thread after `delay_us`; records the answer and the reason of an unknown one
    /// for `check_interrupt`.
    pub(super) fn check_sat_interrupted(
        &mut self,
        z: SolverId,
        delay_us: u32,
    ) -> Result<Outcome, ExecError> {
        let slot = self.slot(z)?;
        let before = slot
            .formula
            .definite()
            .filter(|_| slot.formula.assumed.is_empty());
        let (answer, reason) = super::solver_call(slot, || {
            let handle = slot.ctx.handle();
            std::thread::scope(|scope| {
                scope.spawn(|| {
                    std::thread::sleep(Duration::from_micros(u64::from(delay_us)));
                    handle.interrupt();
                });
                let answer = slot.solver.check();
                let reason = match answer {
                    z3::SatResult::Unknown => slot.solver.get_reason_unknown().unwrap_or_default(),
                    _ => String::new(),
                };
                (answer, reason)
            })
        })?;
        let slot = self.slot_mut(z)?;
        slot.assumptions.clear();
        // Nothing relies on an answer that depends on the clock.
        slot.formula.checked(SatResult::Unknown, None);
        slot.formula.interrupted = Some(Interrupted {
            before,
            answer: sat(answer),
            reason,
            after: None,
        });
        Ok(Outcome::Sat(sat(answer)))
    }

    /// `check_interrupt`: the interrupted check answered unknown with a reason, or a definite
    /// answer; the definite answers before it, of it and of the next check agree.
    pub(super) fn check_interrupt(&mut self, check: &Check, z: SolverId) -> Result<(), ExecError> {
        let Some(i) = self.slot(z)?.formula.interrupted.clone() else {
            self.count("interrupts: skipped: changed since");
            return Ok(());
        };
        let fail = |message: String, cause: &str| {
            Err(ExecError::Oracle(
                Failure::new(FailureKind::Shadow, message)
                    .with_cause(format!("{}: {cause}", check.name()))
                    .at_call(check.name()),
            ))
        };
        if i.answer == SatResult::Unknown && i.reason.trim().is_empty() {
            return fail(
                format!("the interrupted check of {z} answered unknown without a reason"),
                "unknown without a reason",
            );
        }
        let after = match (&self.config.inject, i.after) {
            (Some(super::inject::Fault::WrongInterrupt), Some(SatResult::Sat)) => {
                Some(SatResult::Unsat)
            }
            (Some(super::inject::Fault::WrongInterrupt), Some(SatResult::Unsat)) => {
                Some(SatResult::Sat)
            }
            (_, a) => a,
        };
        let definite: Vec<(&str, SatResult)> = [
            ("before", i.before),
            ("interrupted", Some(i.answer)),
            ("after", after),
        ]
        .into_iter()
        .filter_map(|(w, a)| a.filter(|a| *a != SatResult::Unknown).map(|a| (w, a)))
        .collect();
        if let Some(((w1, a1), (w2, a2))) = definite
            .iter()
            .flat_map(|x| definite.iter().map(move |y| (x, y)))
            .find(|((_, a), (_, b))| a != b)
        {
            return fail(
                format!(
                    "solver {z} answered {} {w1} an interrupted check and {} {w2}",
                    a1.name(),
                    a2.name()
                ),
                "answers differ around an interrupt",
            );
        }
        self.count("interrupts: consistent");
        Ok(())
    }

    /// `solver_read`: a reader of solver `z` (`model::goals::SOLVER_READERS`), judged.
    pub(super) fn solver_read(
        &mut self,
        function: &str,
        z: SolverId,
    ) -> Result<Outcome, ExecError> {
        model::goals::solver_reader(function)
            .ok_or_else(|| ExecError::Malformed(format!("`{function}` is no solver reader")))?;
        let slot = self.slot(z)?;
        match function {
            "Z3_solver_get_reason_unknown" => {
                let reason = super::solver_call(slot, || slot.solver.get_reason_unknown())?;
                if reason.is_none_or(|r| r.trim().is_empty()) && self.config.run_checks {
                    return Err(read_finding(
                        FailureKind::ReadBack,
                        function,
                        format!("solver {z} answered unknown without a reason"),
                    ));
                }
                return Ok(Outcome::Value("ok".into()));
            }
            "Z3_solver_to_string" | "Z3_solver_from_file" => {
                let text = super::solver_call(slot, || slot.solver.to_string())?;
                let held = super::solver_call(slot, || slot.solver.get_assertions().len())?;
                return self.parse_back(function, z, &text, held);
            }
            _ => {}
        }
        let depth = self.state.solver(z).map_err(super::malformed)?.depth;
        let Some(scopes) = self.scopes_of(z) else {
            // Parsed assertions the trace cannot name: no copy, no verdict.
            self.count("solver reads: skipped: opaque");
            return Ok(Outcome::Value(match function {
                "Z3_solver_get_num_scopes" => depth.to_string(),
                _ => "ok".into(),
            }));
        };
        let slot = self.slot(z)?;
        let (ctx, foreign) = (slot.ctx.clone(), slot.foreign);
        let inject = matches!(self.config.inject, Some(super::inject::Fault::WrongRead));
        let run = guard::in_context(&ctx, || -> Result<String, String> {
            let scopes: Vec<Vec<Bool>> = scopes
                .iter()
                .map(|s| {
                    s.iter()
                        .filter_map(|t| into_context(t, &ctx, foreign).as_bool())
                        .collect()
                })
                .collect();
            let copy = RawSolver::default_solver(READ_RLIMIT, &[]).ok_or("no solver")?;
            let (c, s) = copy.raw();
            for (i, scope) in scopes.iter().enumerate() {
                if i > 0 {
                    // SAFETY: a live solver.
                    unsafe { z3_sys::Z3_solver_push(c, s) };
                }
                for b in scope {
                    copy.assert(b);
                }
            }
            let all: Vec<Bool> = scopes.concat();
            // SAFETY (every block below): z3-sys calls on the live copy; vectors referenced
            // while read.
            match function {
                "Z3_solver_get_num_scopes" => {
                    let n = unsafe { z3_sys::Z3_solver_get_num_scopes(c, s) };
                    let n = if inject { n + 1 } else { n };
                    if n != depth {
                        return Err(format!(
                            "finding: a copy of solver {z} given its {} scopes has {n}, the \
                             trace pushed {depth}",
                            scopes.len()
                        ));
                    }
                    Ok(n.to_string())
                }
                "Z3_solver_get_param_descrs" => {
                    let help = z3_text(unsafe { z3_sys::Z3_solver_get_help(c, s) });
                    let names = unsafe { param_names(c, s) };
                    let missing = names.iter().find(|n| !help.contains(n.as_str()) || inject);
                    if let Some(name) = missing {
                        return Err(format!(
                            "finding: the help of a copy of solver {z} does not name its \
                             parameter `{name}`"
                        ));
                    }
                    Ok("ok".into())
                }
                "Z3_solver_get_units" | "Z3_solver_get_non_units" | "Z3_solver_get_trail" => {
                    copy.check_assumptions(&[]);
                    let literals = unsafe {
                        let v = match function {
                            "Z3_solver_get_units" => z3_sys::Z3_solver_get_units(c, s),
                            "Z3_solver_get_non_units" => z3_sys::Z3_solver_get_non_units(c, s),
                            _ => z3_sys::Z3_solver_get_trail(c, s),
                        };
                        let Some(v) = v else {
                            return Ok("ok".into());
                        };
                        z3_sys::Z3_ast_vector_inc_ref(c, v);
                        let n = z3_sys::Z3_ast_vector_size(c, v);
                        let mut levels = vec![0u32; n as usize];
                        if function == "Z3_solver_get_trail" && n > 0 {
                            z3_sys::Z3_solver_get_levels(c, s, v, n, levels.as_mut_ptr());
                        }
                        let ctx = z3::Context::thread_local();
                        let items: Vec<(Dynamic, u32)> = (0..n)
                            .filter_map(|i| z3_sys::Z3_ast_vector_get(c, v, i))
                            .map(|a| Dynamic::wrap(&ctx, a))
                            .zip(levels)
                            .collect();
                        z3_sys::Z3_ast_vector_dec_ref(c, v);
                        items
                    };
                    if function == "Z3_solver_get_non_units" {
                        return Ok("ok".into());
                    }
                    // Units, and trail literals at level 0, follow from the assertions.
                    // Literals over Z3's own names (`!`: Skolem constants, names its
                    // preprocessing introduced) are about what the assertions do not mention.
                    let implied = literals
                        .iter()
                        .filter(|(l, level)| *level == 0 && !l.to_string().contains('!'))
                        .filter_map(|(l, _)| l.as_bool())
                        .take(MAX_JUDGED_LITERALS);
                    for lit in implied {
                        let lit = if inject { lit.not() } else { lit };
                        let mut negated = all.clone();
                        negated.push(lit.not());
                        let judge =
                            RawSolver::reference(READ_RLIMIT, &negated).ok_or("no solver")?;
                        if judge.check_assumptions(&[]) == z3::SatResult::Sat {
                            return Err(format!(
                                "finding: {function} of a copy of solver {z} gives `{lit}`, \
                                 which its assertions do not imply"
                            ));
                        }
                    }
                    Ok("ok".into())
                }
                "Z3_solver_import_model_converter" => {
                    let answer = copy.check_assumptions(&[]);
                    let target = RawSolver::simple(READ_RLIMIT, &all).ok_or("no solver")?;
                    let (_, t) = target.raw();
                    unsafe { z3_sys::Z3_solver_import_model_converter(c, s, t) };
                    let again = target.check_assumptions(&[]);
                    let again = match (inject, again) {
                        (true, z3::SatResult::Sat) => z3::SatResult::Unsat,
                        (true, z3::SatResult::Unsat) => z3::SatResult::Sat,
                        (_, a) => a,
                    };
                    if answer != z3::SatResult::Unknown
                        && again != z3::SatResult::Unknown
                        && answer != again
                    {
                        return Err(format!(
                            "finding: a simple solver given solver {z}'s assertions and model \
                             converter answers {again:?}, the copy it came from {answer:?}"
                        ));
                    }
                    Ok("ok".into())
                }
                "Z3_solver_interrupt" => {
                    let target = SendPtr((c, s));
                    let first = std::thread::scope(|scope| {
                        scope.spawn(move || {
                            let target = target;
                            std::thread::sleep(Duration::from_micros(200));
                            // SAFETY: the copy lives until the scope ends.
                            unsafe { z3_sys::Z3_solver_interrupt(target.0 .0, target.0 .1) };
                            // No log shows it (`z3log::table::NOT_LOGGED`).
                            unlogged::note("Z3_solver_interrupt");
                        });
                        copy.check_assumptions(&[])
                    });
                    let second = copy.check_assumptions(&[]);
                    let second = match (inject, second) {
                        (true, z3::SatResult::Sat) => z3::SatResult::Unsat,
                        (true, z3::SatResult::Unsat) => z3::SatResult::Sat,
                        (_, a) => a,
                    };
                    if first != z3::SatResult::Unknown
                        && second != z3::SatResult::Unknown
                        && first != second
                    {
                        return Err(format!(
                            "finding: a copy of solver {z} answered {first:?} interrupted by \
                             Z3_solver_interrupt and {second:?} after"
                        ));
                    }
                    Ok("ok".into())
                }
                other => super::solver_queries::query(other, &copy, &all, z, inject)
                    .unwrap_or_else(|| Err(format!("`{function}` is no solver reader"))),
            }
        })
        .map_err(z3err)?;
        match run {
            Ok(value) => Ok(Outcome::Value(value)),
            Err(message) => match message.strip_prefix("finding: ") {
                Some(found) if self.config.run_checks => {
                    let kind = match function {
                        "Z3_solver_get_num_scopes" | "Z3_solver_get_param_descrs" => {
                            FailureKind::ReadBack
                        }
                        "Z3_solver_import_model_converter" | "Z3_solver_interrupt" => {
                            FailureKind::Shadow
                        }
                        "Z3_solver_get_levels" | "Z3_substitute_funs" => FailureKind::ReadBack,
                        "Z3_solver_to_dimacs_string" | "Z3_parse_smtlib2_file" => FailureKind::Dump,
                        _ => FailureKind::Consequence,
                    };
                    Err(read_finding(kind, function, found.to_string()))
                }
                Some(_) => Ok(Outcome::Value(match function {
                    "Z3_solver_get_num_scopes" => depth.to_string(),
                    _ => "ok".into(),
                })),
                None => Err(z3err(message)),
            },
        }
    }

    /// Z's assertions per scope as terms of the thread-local context, or `None` where Z
    /// holds assertions the trace cannot name.
    fn scopes_of(&self, z: SolverId) -> Option<Vec<Vec<Dynamic>>> {
        let slot = self.slot(z).ok()?;
        if slot.formula.opaque() {
            return None;
        }
        slot.formula
            .scopes()
            .iter()
            .map(|s| s.iter().map(|t| self.term(*t).cloned()).collect())
            .collect()
    }

    /// `Z3_solver_to_string`'s text of Z parsed back into a fresh solver of the thread-local
    /// context, from the string (`Z3_solver_from_string`) or from a file of a private folder
    /// (`Z3_solver_from_file`): it holds no more assertions than Z. Text Z3 cannot parse back
    /// (names it printed for its own objects) is no verdict.
    fn parse_back(
        &mut self,
        function: &str,
        z: SolverId,
        text: &str,
        held: usize,
    ) -> Result<Outcome, ExecError> {
        let slot = self.slot(z)?;
        if slot.foreign {
            // Its text names sorts and functions of another context.
            return Ok(Outcome::Value("ok".into()));
        }
        let folder = tempfile::Builder::new()
            .prefix("solver-read")
            .tempdir()
            .map_err(|e| ExecError::Io(e.to_string()))?;
        let file = folder.path().join("solver.smt2");
        let from_file = function == "Z3_solver_from_file";
        if from_file {
            std::fs::write(&file, text).map_err(|e| ExecError::Io(e.to_string()))?;
        }
        let inject = matches!(self.config.inject, Some(super::inject::Fault::WrongRead));
        let parsed = guard::guarded(&self.main, || {
            let fresh = RawSolver::simple(READ_RLIMIT, &[])?;
            let (c, s) = fresh.raw();
            let source = std::ffi::CString::new(if from_file {
                file.to_string_lossy().into_owned()
            } else {
                text.to_string()
            })
            .ok()?;
            // SAFETY: a live solver; the string lives across the call; the vector is
            // referenced while its size is read.
            unsafe {
                if from_file {
                    z3_sys::Z3_solver_from_file(c, s, source.as_ptr());
                } else {
                    z3_sys::Z3_solver_from_string(c, s, source.as_ptr());
                }
                let v = z3_sys::Z3_solver_get_assertions(c, s)?;
                z3_sys::Z3_ast_vector_inc_ref(c, v);
                let n = z3_sys::Z3_ast_vector_size(c, v) as usize;
                z3_sys::Z3_ast_vector_dec_ref(c, v);
                Some(n)
            }
        });
        match parsed {
            Ok(Some(n)) => {
                let n = if inject { n + held + 1 } else { n };
                // Z3 prints a solver after a check with its preprocessed assertions, which
                // may be fewer than those given: more would be assertions from nowhere.
                if n > held && self.config.run_checks {
                    return Err(read_finding(
                        FailureKind::Dump,
                        function,
                        format!(
                            "solver {z} holds {held} assertions, its text parsed back holds {n}"
                        ),
                    ));
                }
                self.count("solver reads: parsed back");
            }
            _ => self.count("solver reads: skipped: text not parsed back"),
        }
        Ok(Outcome::Value("ok".into()))
    }
}
