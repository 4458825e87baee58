//! The trace's fixedpoint context (`Z3_fixedpoint_*`, declared in z3-sys and called raw: the
//! `z3` crate wraps none of them) and `check_fp`, which judges its last answer.
//!
//! Z3 4.8.12's fixedpoint takes no `rlimit` parameter, so a query runs under the context's
//! resource limit (`Z3_update_param_value`), set to the trace's limit around the query and
//! back to none after it (the thread-local context has none: `guard::fresh_context`).

use super::{guard, inject, raw_solver, z3err, ExecError, Executor, Outcome};
use model::call::{Check, FuncId, SatResult, TermId};
use model::finding::{Failure, FailureKind};
use std::collections::BTreeSet;
use std::ffi::{CStr, CString};
use z3::ast::{Ast, Bool, Dynamic};
use z3::Context;
use z3_sys::{Z3_ast_vector, Z3_context, Z3_fixedpoint, Z3_func_decl};

/// The resource limit of each solver check of `check_fp`.
pub const FP_CHECK_RLIMIT: u32 = 50_000;
/// The resource limit of a query asked again (`Z3_fixedpoint_query_from_lvl`).
const QUERY_AGAIN_RLIMIT: u32 = 500_000;
/// The most derivation steps `check_fp` judges after a `sat`.
const MAX_STEPS: usize = 24;

/// A fixedpoint context of the thread-local context, released on drop.
pub(super) struct FpSlot {
    ctx: Context,
    raw: Z3_fixedpoint,
}

impl FpSlot {
    fn c(&self) -> Z3_context {
        self.ctx.get_z3_context()
    }
}

impl Drop for FpSlot {
    fn drop(&mut self) {
        // SAFETY: referenced once when made.
        unsafe { z3_sys::Z3_fixedpoint_dec_ref(self.c(), self.raw) }
    }
}

fn cstring(text: &str, what: &str) -> Result<CString, ExecError> {
    CString::new(text).map_err(|e| ExecError::Malformed(format!("{what} with a NUL byte: {e}")))
}

/// Reads a string Z3 returned (owned by Z3 until its next call).
fn z3_text(p: z3_sys::Z3_string) -> Option<String> {
    // SAFETY: a NUL-terminated string Z3 returned, read before any other Z3 call.
    (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
}

/// The elements of an AST vector Z3 returned, each wrapped (referenced), the vector released.
fn vector_items(ctx: &Context, v: Option<Z3_ast_vector>) -> Option<Vec<Dynamic>> {
    // SAFETY: a live vector Z3 just returned in `ctx`.
    Some(unsafe { super::read::ast_vector_items(ctx, v?) })
}

fn lbool(r: z3_sys::Z3_lbool) -> SatResult {
    match r {
        z3_sys::Z3_L_TRUE => SatResult::Sat,
        z3_sys::Z3_L_FALSE => SatResult::Unsat,
        _ => SatResult::Unknown,
    }
}

/// The symbols of an SMT-LIB text (what is not a parenthesis or white space), for the
/// relations a formula mentions.
fn tokens(text: &str) -> BTreeSet<String> {
    text.split(|c: char| c.is_whitespace() || c == '(' || c == ')')
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

impl Executor {
    fn fp_slot(&self) -> Result<&FpSlot, ExecError> {
        self.fixedpoint
            .as_ref()
            .ok_or_else(|| ExecError::Malformed("no fixedpoint context (fp_new)".into()))
    }

    /// The Z3 declaration of function `f`: its application to fresh constants of its domain,
    /// asked for its declaration (the `z3` crate gives no raw handle of a `FuncDecl`).
    fn raw_decl(&self, f: FuncId) -> Result<Z3_func_decl, ExecError> {
        let decl = self
            .funcs
            .get(&f)
            .ok_or_else(|| ExecError::Malformed(format!("function {f} is not defined")))?;
        let (domain, _) = self
            .state
            .funcs
            .get(&f)
            .ok_or_else(|| ExecError::Malformed(format!("function {f} is not defined")))?;
        let domain = domain.clone();
        let c = self.main.get_z3_context();
        self.main(|| -> Option<Z3_func_decl> {
            let args: Vec<Dynamic> = domain
                .iter()
                .map(|s| super::terms::z3_sort(s).map(|s| Dynamic::fresh_const("fp_arg", &s)))
                .collect::<Result<_, _>>()
                .ok()?;
            let refs: Vec<&dyn Ast> = args.iter().map(|a| a as &dyn Ast).collect();
            let app = decl.apply(&refs);
            // SAFETY: `app` is a live application; its declaration lives as long as `decl`.
            unsafe {
                let app = z3_sys::Z3_to_app(c, app.get_z3_ast())?;
                z3_sys::Z3_get_app_decl(c, app)
            }
        })?
        .ok_or_else(|| z3err(format!("no declaration of function {f}")))
    }

    fn symbol(&self, name: &str) -> Result<z3_sys::Z3_symbol, ExecError> {
        let text = cstring(name, "a name")?;
        let c = self.main.get_z3_context();
        // SAFETY: a plain constructor call on the live context.
        self.main(|| unsafe { z3_sys::Z3_mk_string_symbol(c, text.as_ptr()) })?
            .ok_or_else(|| z3err("Z3_mk_string_symbol failed".into()))
    }

    /// `fp_new "ENGINE"`.
    pub(super) fn fp_new(&mut self, engine: &str) -> Result<Outcome, ExecError> {
        let c = self.main.get_z3_context();
        let key = self.symbol("engine")?;
        let value = self.symbol(engine)?;
        // SAFETY: plain z3-sys calls on the live context; the new fixedpoint is referenced
        // by its slot, the parameters released after use.
        let raw = self.main(|| unsafe {
            let fp = z3_sys::Z3_mk_fixedpoint(c)?;
            z3_sys::Z3_fixedpoint_inc_ref(c, fp);
            let params = z3_sys::Z3_mk_params(c)?;
            z3_sys::Z3_params_inc_ref(c, params);
            z3_sys::Z3_params_set_symbol(c, params, key, value);
            z3_sys::Z3_fixedpoint_set_params(c, fp, params);
            z3_sys::Z3_params_dec_ref(c, params);
            Some(fp)
        })?;
        let raw = raw.ok_or_else(|| z3err("Z3_mk_fixedpoint failed".into()))?;
        self.fixedpoint = Some(FpSlot {
            ctx: self.main.clone(),
            raw,
        });
        Ok(Outcome::Nothing)
    }

    /// `fp_register fR`.
    pub(super) fn fp_register(&self, f: FuncId) -> Result<Outcome, ExecError> {
        let (c, d) = (self.main.get_z3_context(), self.fp_slot()?.raw);
        let decl = self.raw_decl(f)?;
        // SAFETY (here and below): plain z3-sys calls on the live fixedpoint and objects of
        // the thread-local context, guarded so that an error code becomes an error.
        self.main(|| unsafe { z3_sys::Z3_fixedpoint_register_relation(c, d, decl) })?;
        Ok(Outcome::Nothing)
    }

    /// `fp_rule tR "NAME"` (`update`: `fp_update_rule`).
    pub(super) fn fp_rule(
        &self,
        rule: TermId,
        name: &str,
        update: bool,
    ) -> Result<Outcome, ExecError> {
        let (c, d) = (self.main.get_z3_context(), self.fp_slot()?.raw);
        let a = self.z3_term(rule)?.get_z3_ast();
        let name = self.symbol(name)?;
        self.main(|| unsafe {
            if update {
                z3_sys::Z3_fixedpoint_update_rule(c, d, a, name)
            } else {
                z3_sys::Z3_fixedpoint_add_rule(c, d, a, Some(name))
            }
        })?;
        Ok(Outcome::Nothing)
    }

    /// `fp_assert tA`.
    pub(super) fn fp_assert(&self, t: TermId) -> Result<Outcome, ExecError> {
        let (c, d) = (self.main.get_z3_context(), self.fp_slot()?.raw);
        let a = self.z3_term(t)?.get_z3_ast();
        self.main(|| unsafe { z3_sys::Z3_fixedpoint_assert(c, d, a) })?;
        Ok(Outcome::Nothing)
    }

    /// `fp_query tQ RLIMIT`.
    pub(super) fn fp_query(&self, query: TermId, rlimit: u32) -> Result<Outcome, ExecError> {
        let (c, d) = (self.main.get_z3_context(), self.fp_slot()?.raw);
        let a = self.z3_term(query)?.get_z3_ast();
        let r = self.under_rlimit(rlimit, || unsafe { z3_sys::Z3_fixedpoint_query(c, d, a) })?;
        Ok(Outcome::Sat(lbool(r)))
    }

    /// `fp_query_relation fR RLIMIT`.
    pub(super) fn fp_query_relation(&self, f: FuncId, rlimit: u32) -> Result<Outcome, ExecError> {
        let (c, d) = (self.main.get_z3_context(), self.fp_slot()?.raw);
        let decl = self.raw_decl(f)?;
        let r = self.under_rlimit(rlimit, || unsafe {
            z3_sys::Z3_fixedpoint_query_relations(c, d, 1, &decl)
        })?;
        Ok(Outcome::Sat(lbool(r)))
    }

    /// `fp_from_string "TEXT"`.
    pub(super) fn fp_from_string(&self, text: &str) -> Result<Outcome, ExecError> {
        let (c, d) = (self.main.get_z3_context(), self.fp_slot()?.raw);
        let text = cstring(text, "a fixedpoint script")?;
        let v = self.main(|| unsafe { z3_sys::Z3_fixedpoint_from_string(c, d, text.as_ptr()) })?;
        vector_items(&self.main, v).ok_or_else(|| z3err("fp_from_string: no queries".into()))?;
        Ok(Outcome::Nothing)
    }

    /// `fp_set_param "KEY" "VALUE"`.
    pub(super) fn fp_set_param(&self, key: &str, value: &str) -> Result<Outcome, ExecError> {
        let (c, d) = (self.main.get_z3_context(), self.fp_slot()?.raw);
        let key = self.symbol(key)?;
        let symbol = self.symbol(value)?;
        let params = self.main(|| unsafe {
            let params = z3_sys::Z3_mk_params(c)?;
            z3_sys::Z3_params_inc_ref(c, params);
            match (value, value.parse::<u32>()) {
                ("true" | "false", _) => {
                    z3_sys::Z3_params_set_bool(c, params, key, value == "true")
                }
                (_, Ok(n)) => z3_sys::Z3_params_set_uint(c, params, key, n),
                _ => z3_sys::Z3_params_set_symbol(c, params, key, symbol),
            }
            Some(params)
        })?;
        let params = params.ok_or_else(|| z3err("Z3_mk_params failed".into()))?;
        let set = self.main(|| unsafe { z3_sys::Z3_fixedpoint_set_params(c, d, params) });
        // SAFETY: referenced above.
        unsafe { z3_sys::Z3_params_dec_ref(c, params) };
        set?;
        Ok(Outcome::Nothing)
    }

    /// `fp_read_rel "FUNCTION" fR`.
    pub(super) fn fp_read_relation(&self, function: &str, f: FuncId) -> Result<Outcome, ExecError> {
        let decl = self.raw_decl(f)?;
        self.fp_read_rel(function, decl)?;
        Ok(Outcome::Nothing)
    }

    /// Runs `f` with the context's resource limit at `rlimit`, then without one.
    fn under_rlimit<R>(&self, rlimit: u32, f: impl FnOnce() -> R) -> Result<R, ExecError> {
        let c = self.main.get_z3_context();
        let key = cstring("rlimit", "a parameter")?;
        let limit = cstring(&rlimit.to_string(), "a limit")?;
        let none = cstring("0", "a limit")?;
        self.main(|| {
            // SAFETY: updating a parameter of the live context.
            unsafe { z3_sys::Z3_update_param_value(c, key.as_ptr(), limit.as_ptr()) };
            let r = f();
            // SAFETY: as above. The guard keeps the first error, the query's.
            unsafe { z3_sys::Z3_update_param_value(c, key.as_ptr(), none.as_ptr()) };
            r
        })
    }

    /// `fp_read "Z3_fixedpoint_from_file"`: the context's text written to a file of a
    /// private folder and read into a fresh fixedpoint context of a fresh Z3 context; Z3
    /// must read back what it printed (a refusal is recorded, as every engine's may be).
    fn fp_text_through_file(&mut self) -> Result<(), ExecError> {
        let (c, d) = (self.main.get_z3_context(), self.fp_slot()?.raw);
        // SAFETY: the live fixedpoint's text, copied at once.
        let text = self
            .main(|| {
                z3_text(unsafe { z3_sys::Z3_fixedpoint_to_string(c, d, 0, std::ptr::null_mut()) })
            })?
            .unwrap_or_default();
        let folder = tempfile::Builder::new()
            .prefix("fixedpoint")
            .tempdir()
            .map_err(|e| ExecError::Io(e.to_string()))?;
        let file = folder.path().join("fixedpoint.smt2");
        std::fs::write(&file, text).map_err(|e| ExecError::Io(e.to_string()))?;
        let path = cstring(&file.to_string_lossy(), "a file name")?;
        // Into a fresh Z3 context: what the parser declares stays in the context it reads
        // into, and a second read of the same text into this one would declare it twice.
        let fresh = super::guard::fresh_context().map_err(z3err)?;
        let f = fresh.get_z3_context();
        // SAFETY: a fresh fixedpoint of the fresh context, referenced while it reads the
        // file, released after; the vector of queries likewise.
        let read = super::guard::in_context(&fresh, || unsafe {
            let fp = z3_sys::Z3_mk_fixedpoint(f)?;
            z3_sys::Z3_fixedpoint_inc_ref(f, fp);
            let queries = z3_sys::Z3_fixedpoint_from_file(f, fp, path.as_ptr());
            if let Some(q) = queries {
                z3_sys::Z3_ast_vector_inc_ref(f, q);
                z3_sys::Z3_ast_vector_dec_ref(f, q);
            }
            z3_sys::Z3_fixedpoint_dec_ref(f, fp);
            Some(queries.is_some())
        })
        .map_err(z3err)?;
        match read {
            Some(true) => Ok(()),
            _ => Err(z3err("Z3_fixedpoint_from_file read nothing".into())),
        }
    }

    /// `fp_read "FUNCTION"`: the reader called; what it answers must be there (a string, a
    /// vector, statistics with entries that read back).
    pub(super) fn fp_read(&mut self, function: &str) -> Result<(), ExecError> {
        if function == "Z3_fixedpoint_query_from_lvl" {
            return self.query_again();
        }
        if function == "Z3_fixedpoint_from_file" {
            return self.fp_text_through_file();
        }
        let slot = self.fp_slot()?;
        let (ctx, c, d) = (&slot.ctx, slot.c(), slot.raw);
        let missing = || z3err(format!("{function} answered nothing"));
        // SAFETY: plain z3-sys calls on the live fixedpoint; returned objects referenced
        // while read.
        let present = self.main(|| unsafe {
            match function {
                "Z3_fixedpoint_get_help" => z3_text(z3_sys::Z3_fixedpoint_get_help(c, d)).is_some(),
                "Z3_fixedpoint_get_reason_unknown" => {
                    z3_text(z3_sys::Z3_fixedpoint_get_reason_unknown(c, d)).is_some()
                }
                "Z3_fixedpoint_to_string" => z3_text(z3_sys::Z3_fixedpoint_to_string(
                    c,
                    d,
                    0,
                    std::ptr::null_mut(),
                ))
                .is_some(),
                "Z3_fixedpoint_get_rules" => {
                    vector_items(ctx, z3_sys::Z3_fixedpoint_get_rules(c, d)).is_some()
                }
                "Z3_fixedpoint_get_assertions" => {
                    vector_items(ctx, z3_sys::Z3_fixedpoint_get_assertions(c, d)).is_some()
                }
                "Z3_fixedpoint_get_rules_along_trace" => {
                    vector_items(ctx, z3_sys::Z3_fixedpoint_get_rules_along_trace(c, d)).is_some()
                }
                "Z3_fixedpoint_get_rule_names_along_trace" => {
                    z3_sys::Z3_fixedpoint_get_rule_names_along_trace(c, d).is_some()
                }
                "Z3_fixedpoint_get_answer" => z3_sys::Z3_fixedpoint_get_answer(c, d)
                    .map(|a| Dynamic::wrap(ctx, a).to_string())
                    .is_some(),
                "Z3_fixedpoint_get_ground_sat_answer" => {
                    z3_sys::Z3_fixedpoint_get_ground_sat_answer(c, d)
                        .map(|a| Dynamic::wrap(ctx, a).to_string())
                        .is_some()
                }
                "Z3_fixedpoint_get_statistics" => {
                    match z3_sys::Z3_fixedpoint_get_statistics(c, d) {
                        Some(stats) => {
                            z3_sys::Z3_stats_inc_ref(c, stats);
                            let n = z3_sys::Z3_stats_size(c, stats);
                            let keys = (0..n)
                                .filter(|i| {
                                    z3_text(z3_sys::Z3_stats_get_key(c, stats, *i)).is_some()
                                })
                                .count() as u32;
                            let text = z3_text(z3_sys::Z3_stats_to_string(c, stats));
                            z3_sys::Z3_stats_dec_ref(c, stats);
                            keys == n && text.is_some()
                        }
                        None => false,
                    }
                }
                "Z3_fixedpoint_get_param_descrs" => {
                    match z3_sys::Z3_fixedpoint_get_param_descrs(c, d) {
                        Some(descrs) => {
                            z3_sys::Z3_param_descrs_inc_ref(c, descrs);
                            let n = z3_sys::Z3_param_descrs_size(c, descrs);
                            let text = z3_text(z3_sys::Z3_param_descrs_to_string(c, descrs));
                            z3_sys::Z3_param_descrs_dec_ref(c, descrs);
                            n > 0 && text.is_some()
                        }
                        None => false,
                    }
                }
                _ => false,
            }
        })?;
        if present {
            Ok(())
        } else {
            Err(missing())
        }
    }

    /// `fp_read "Z3_fixedpoint_query_from_lvl"`: the last query asked again from level 0;
    /// a definite answer that is not the query's is a finding.
    fn query_again(&mut self) -> Result<(), ExecError> {
        let info = self.state.fp().map_err(|v| ExecError::Malformed(v.0))?;
        let Some((before, Some(query))) = info.answer else {
            return Err(ExecError::Malformed(
                "query_from_lvl needs a query (fp_query) answered".into(),
            ));
        };
        let (c, d) = (self.main.get_z3_context(), self.fp_slot()?.raw);
        let a = self.z3_term(query)?.get_z3_ast();
        // SAFETY: a plain z3-sys call on the live fixedpoint and query.
        let again = lbool(self.under_rlimit(QUERY_AGAIN_RLIMIT, || unsafe {
            z3_sys::Z3_fixedpoint_query_from_lvl(c, d, a, 0)
        })?);
        let wrong = matches!(self.config.inject, Some(inject::Fault::WrongFixedpoint));
        let again = match again {
            SatResult::Sat if wrong => SatResult::Unsat,
            SatResult::Unsat if wrong => SatResult::Sat,
            other => other,
        };
        if self.config.run_checks
            && before != SatResult::Unknown
            && again != SatResult::Unknown
            && before != again
        {
            return Err(ExecError::Oracle(
                Failure::new(
                    FailureKind::Fixedpoint,
                    format!(
                        "the query {query} answered {before:?}, asked again from level 0 {again:?}"
                    ),
                )
                .with_cause("fp_read: Z3_fixedpoint_query_from_lvl answers otherwise")
                .at_call("fp_read"),
            ));
        }
        self.count("fixedpoint: queries asked again");
        Ok(())
    }

    /// `fp_read_rel "FUNCTION" fR`.
    fn fp_read_rel(&self, function: &str, decl: Z3_func_decl) -> Result<(), ExecError> {
        let slot = self.fp_slot()?;
        let (ctx, c, d) = (&slot.ctx, slot.c(), slot.raw);
        // SAFETY: plain z3-sys calls on the live fixedpoint and declaration.
        let present = self.main(|| unsafe {
            match function {
                "Z3_fixedpoint_get_reachable" => z3_sys::Z3_fixedpoint_get_reachable(c, d, decl)
                    .map(|a| Dynamic::wrap(ctx, a).to_string())
                    .is_some(),
                "Z3_fixedpoint_set_predicate_representation" => {
                    match z3_sys::Z3_mk_string_symbol(c, c"interval_relation".as_ptr()) {
                        Some(kind) => {
                            z3_sys::Z3_fixedpoint_set_predicate_representation(
                                c, d, decl, 1, &kind,
                            );
                            true
                        }
                        None => false,
                    }
                }
                "Z3_fixedpoint_add_fact" => {
                    let arity = z3_sys::Z3_get_domain_size(c, decl);
                    let mut zeros = vec![0u32; arity as usize];
                    z3_sys::Z3_fixedpoint_add_fact(c, d, decl, arity, zeros.as_mut_ptr());
                    true
                }
                "Z3_fixedpoint_get_num_levels" => {
                    z3_sys::Z3_fixedpoint_get_num_levels(c, d, decl);
                    true
                }
                "Z3_fixedpoint_get_cover_delta" => {
                    z3_sys::Z3_fixedpoint_get_cover_delta(c, d, -1, decl)
                        .map(|a| Dynamic::wrap(ctx, a).to_string())
                        .is_some()
                }
                "Z3_fixedpoint_add_cover" | "Z3_fixedpoint_add_invariant" => {
                    match z3_sys::Z3_fixedpoint_get_cover_delta(c, d, -1, decl) {
                        Some(cover) => {
                            // Referenced while it is added back.
                            let cover = Dynamic::wrap(ctx, cover);
                            let a = cover.get_z3_ast();
                            if function == "Z3_fixedpoint_add_cover" {
                                z3_sys::Z3_fixedpoint_add_cover(c, d, -1, decl, a);
                            } else {
                                z3_sys::Z3_fixedpoint_add_invariant(c, d, decl, a);
                            }
                            true
                        }
                        None => false,
                    }
                }
                _ => false,
            }
        })?;
        if present {
            Ok(())
        } else {
            Err(z3err(format!("{function} answered nothing")))
        }
    }

    fn fp_finding(check: &Check, message: String, cause: &str) -> ExecError {
        ExecError::Oracle(
            Failure::new(FailureKind::Fixedpoint, message)
                .with_cause(format!("{}: {cause}", check.name()))
                .at_call(check.name()),
        )
    }

    /// `check_fp`.
    pub(super) fn check_fp(&mut self, check: &Check) -> Result<(), ExecError> {
        let info = self
            .state
            .fp()
            .map_err(|v| ExecError::Malformed(v.0))?
            .clone();
        let Some((answer, Some(query))) = info.answer else {
            return Err(ExecError::Malformed(
                "check_fp needs a query answered sat or unsat".into(),
            ));
        };
        let slot = self.fp_slot()?;
        let (c, d) = (slot.c(), slot.raw);
        let ctx = self.main.clone();
        // SAFETY: the answer of the live fixedpoint, wrapped (referenced) at once.
        let z3_answer = self
            .main(|| unsafe {
                z3_sys::Z3_fixedpoint_get_answer(c, d).map(|a| Dynamic::wrap(&ctx, a))
            })?
            .ok_or_else(|| z3err("check_fp: Z3_fixedpoint_get_answer answered nothing".into()))?;
        let wrong = matches!(self.config.inject, Some(inject::Fault::WrongFixedpoint));
        match answer {
            SatResult::Unsat => self.check_invariant(check, &info, query, &z3_answer, wrong),
            SatResult::Sat => self.check_derivation(check, &z3_answer, wrong),
            SatResult::Unknown => Ok(()),
        }
    }

    /// Relation names (as Z3 prints them) a formula mentions, of the registered ones.
    fn relations_in(&self, names: &[(FuncId, String)], formula: &str) -> BTreeSet<FuncId> {
        let tokens = tokens(formula);
        names
            .iter()
            .filter(|(_, n)| tokens.contains(n))
            .map(|(f, _)| *f)
            .collect()
    }

    /// After `unsat`: the invariant with each rule's negation, and with the query, is unsat.
    fn check_invariant(
        &mut self,
        check: &Check,
        info: &model::fixedpoint::FpInfo,
        query: TermId,
        answer: &Dynamic,
        wrong: bool,
    ) -> Result<(), ExecError> {
        let invariant = answer
            .as_bool()
            .ok_or_else(|| z3err("check_fp: the invariant is not a formula".into()))?;
        let invariant = if wrong { invariant.not() } else { invariant };
        let names: Vec<(FuncId, String)> = info
            .relations
            .iter()
            .filter_map(|f| self.funcs.get(f).map(|d| (*f, d.name())))
            .collect();
        let defined = self.relations_in(&names, &answer.to_string());
        let background: Vec<Bool> = info
            .assertions
            .iter()
            .filter_map(|t| self.terms.get(t).and_then(Dynamic::as_bool))
            .collect();
        let mut judged: Vec<(String, Bool)> = Vec::new();
        for (name, rule) in &info.rules {
            let Some(term) = self.terms.get(rule) else {
                continue;
            };
            let used = self.relations_in(&names, &term.to_string());
            if used.is_subset(&defined) {
                if let Some(b) = term.as_bool() {
                    judged.push((format!("rule `{name}`"), b.not()));
                }
            }
        }
        let q = self.z3_term(query)?;
        if self
            .relations_in(&names, &q.to_string())
            .is_subset(&defined)
        {
            if let Some(b) = q.as_bool() {
                judged.push(("the query".into(), b));
            }
        }
        for (what, negated) in judged {
            let verdict = self.main(|| {
                let solver = raw_solver::reference_solver(Some(FP_CHECK_RLIMIT));
                solver.assert(&invariant);
                for b in &background {
                    solver.assert(b);
                }
                solver.assert(&negated);
                solver.check()
            })?;
            match verdict {
                z3::SatResult::Sat => {
                    return Err(Self::fp_finding(
                        check,
                        format!(
                            "the invariant Z3 answered after unsat does not hold for {what}: {}",
                            guard::one_line(&answer.to_string())
                        ),
                        "the invariant of an unsat answer is violated",
                    ))
                }
                z3::SatResult::Unsat => self.count("fixedpoint: invariant steps confirmed"),
                z3::SatResult::Unknown => self.count("fixedpoint: invariant steps unknown"),
            }
        }
        Ok(())
    }

    /// After `sat`: the answer is a derivation of `false`; each hyper-resolution step's rule
    /// with its premises' facts implies its fact.
    fn check_derivation(
        &mut self,
        check: &Check,
        answer: &Dynamic,
        wrong: bool,
    ) -> Result<(), ExecError> {
        let conclusion = |proof: &Dynamic| proof.children().last().cloned();
        let mut steps: Vec<(Vec<Dynamic>, Dynamic)> = Vec::new();
        let mut root_false = false;
        self.main(|| {
            root_false = conclusion(answer)
                .and_then(|c| c.as_bool())
                .and_then(|b| b.as_bool())
                == Some(false);
            let mut stack = vec![answer.clone()];
            let mut seen = BTreeSet::new();
            while let Some(node) = stack.pop() {
                if !node.is_app() || !seen.insert(node.get_z3_ast().as_ptr() as usize) {
                    continue;
                }
                let children = node.children();
                let name = node.decl().name();
                if name == "hyper-res" && children.len() >= 2 && steps.len() < MAX_STEPS {
                    let (fact, premises) = children.split_last().expect("two children");
                    let premises: Vec<Dynamic> = premises.iter().filter_map(conclusion).collect();
                    steps.push((premises, fact.clone()));
                }
                if name == "hyper-res" || name == "mp" {
                    stack.extend(children);
                }
            }
        })?;
        if !root_false {
            return Err(Self::fp_finding(
                check,
                format!(
                    "the derivation Z3 answered after sat does not conclude false: {}",
                    guard::one_line(&answer.to_string())
                ),
                "the derivation of a sat answer does not conclude false",
            ));
        }
        for (premises, fact) in steps {
            let verdict = self.main(|| {
                let solver = raw_solver::reference_solver(Some(FP_CHECK_RLIMIT));
                for p in premises.iter().filter_map(Dynamic::as_bool) {
                    solver.assert(&p);
                }
                let fact = fact.as_bool()?;
                solver.assert(if wrong { fact } else { fact.not() });
                Some(solver.check())
            })?;
            match verdict {
                Some(z3::SatResult::Sat) => {
                    return Err(Self::fp_finding(
                        check,
                        format!(
                            "a step of the derivation Z3 answered after sat does not follow: {} from {}",
                            guard::one_line(&fact.to_string()),
                            guard::one_line(
                                &premises.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(", ")
                            )
                        ),
                        "a step of the derivation of a sat answer does not follow",
                    ))
                }
                Some(z3::SatResult::Unsat) => self.count("fixedpoint: derivation steps confirmed"),
                _ => self.count("fixedpoint: derivation steps unknown"),
            }
        }
        Ok(())
    }
}
