//! `check_qe_skolem` and `check_qe_witness` (`model::Check::QeMap`): model-based projection
//! with the map of the eliminated constants (`Z3_qe_model_project_skolem`, and
//! `Z3_qe_model_project_with_witness` of releases after 4.8.12, looked up by name).
//!
//! The `z3` crate gives no raw handle of a model: the projection runs on a model made
//! through z3-sys (`Z3_mk_model`) that gives the formula's constants their literal values
//! in the trace's model (others, and functions, completed by Z3's evaluation). The
//! judgement is the copy's: where the copy does not satisfy the formula, no verdict.

use super::solver_queries::{applied, Kinds};
use super::{guard, inject, into_context, read, unlogged, ExecError, Executor};
use model::{Check, ModelId, TermId};
use std::ffi::c_uint;
use z3::ast::{Ast, Dynamic};
use z3_sys::{Z3_app, Z3_ast, Z3_ast_map, Z3_context, Z3_model};

/// The functions only releases after 4.8.12 have that `check_qe_witness` needs.
pub const QE_WITNESS_FUNCTIONS: &[&str] = &["Z3_qe_model_project_with_witness"];

type Project = unsafe extern "C" fn(
    Z3_context,
    Z3_model,
    c_uint,
    *const Z3_app,
    Z3_ast,
    Z3_ast_map,
) -> Option<Z3_ast>;

/// What a projection with a map came to.
enum Judged {
    Held,
    /// No copy of the model, or the model does not satisfy the formula.
    Open(&'static str),
    Wrong(String),
}

/// `Z3_model_eval` with completion of `t` in `m`: `Some(true/false)`, `None` where it has
/// no Boolean value.
///
/// # Safety
/// Live model and term of `c`.
unsafe fn truth(c: Z3_context, m: Z3_model, t: Z3_ast) -> Option<bool> {
    let mut out: Option<Z3_ast> = None;
    let done = z3_sys::Z3_model_eval(c, m, t, true, &mut out as *mut _ as *mut _);
    let v = out.filter(|_| done)?;
    match z3_sys::Z3_get_bool_value(c, v) {
        z3_sys::Z3_L_TRUE => Some(true),
        z3_sys::Z3_L_FALSE => Some(false),
        _ => None,
    }
}

/// `Z3_model_eval` with completion of `t` in `m`, referenced.
///
/// # Safety
/// Live model and term of `c`, the thread-local context.
unsafe fn value_in(c: Z3_context, m: Z3_model, t: Z3_ast) -> Option<Dynamic> {
    let mut out: Option<Z3_ast> = None;
    let done = z3_sys::Z3_model_eval(c, m, t, true, &mut out as *mut _ as *mut _);
    out.filter(|_| done)
        .map(|v| Dynamic::wrap(&z3::Context::thread_local(), v))
}

impl Executor {
    /// `check_qe_skolem` / `check_qe_witness`: see [`model::Check::QeMap`].
    pub(super) fn check_qe_map(
        &mut self,
        check: &Check,
        witness: bool,
        model: ModelId,
        formula: TermId,
        vars: &[TermId],
    ) -> Result<(), ExecError> {
        let slot = self
            .models
            .get(&model)
            .ok_or_else(|| ExecError::Malformed(format!("model {model} is not defined")))?;
        let f = self.z3_term(formula)?.clone();
        let vs: Vec<Dynamic> = self.arg_terms(vars)?.into_iter().cloned().collect();
        let function = if witness {
            "Z3_qe_model_project_with_witness"
        } else {
            "Z3_qe_model_project_skolem"
        };
        // SAFETY: both have the signature of `Project` (z3_spacer.h).
        let project: Project = if witness {
            unsafe { read::typed(function) }.map_err(ExecError::Malformed)?
        } else {
            z3_sys::Z3_qe_model_project_skolem
        };
        let negate = matches!(self.config.inject, Some(inject::Fault::WrongRead));
        let (ctx, foreign) = (slot.ctx.clone(), slot.foreign);
        let judged = guard::in_context(&ctx, || {
            let f = into_context(&f, &ctx, foreign);
            let vs: Vec<Dynamic> = vs.iter().map(|v| into_context(v, &ctx, foreign)).collect();
            let c = ctx.get_z3_context();
            // SAFETY: live terms of `ctx`; the copy of the model and the map are referenced
            // while used and released before the block ends.
            unsafe { project_in_copy(c, &slot.model, project, &f, &vs, witness, negate) }
        });
        match judged {
            Err(message) => self.check_error(check, message),
            Ok(Judged::Held) => {
                self.count("qe maps: held");
                Ok(())
            }
            Ok(Judged::Open(why)) => {
                self.count(&format!("qe maps: skipped: {why}"));
                Ok(())
            }
            Ok(Judged::Wrong(problem)) => Err(Self::finding(
                check,
                format!("{function} of {formula} on {model}: {problem}"),
                format!(
                    "{function}: {}",
                    problem.split(':').next().unwrap_or("wrong")
                ),
            )),
        }
    }
}

/// The projection of `f` on a copy of `m` (see the module's overview), judged.
///
/// # Safety
/// `c` is the live context of `f`, `vs` and `m`, and the thread-local one.
unsafe fn project_in_copy(
    c: Z3_context,
    m: &z3::Model,
    project: Project,
    f: &Dynamic,
    vs: &[Dynamic],
    witness: bool,
    negate: bool,
) -> Judged {
    let Ok(k) = Kinds::load(c) else {
        return Judged::Open("kinds");
    };
    let found = applied(&k, c, &[f.get_z3_ast()]);
    if found.binders {
        return Judged::Open("binders");
    }
    let Some(copy) = z3_sys::Z3_mk_model(c) else {
        return Judged::Open("no model");
    };
    z3_sys::Z3_model_inc_ref(c, copy);
    let judged = (|| {
        let ctx = z3::Context::thread_local();
        for (d, _) in found.decls.iter().filter(|(_, arity)| *arity == 0) {
            let Some(constant) = z3_sys::Z3_mk_app(c, *d, 0, std::ptr::null()) else {
                return Judged::Open("no constant");
            };
            let constant = Dynamic::wrap(&ctx, constant);
            let Some(value) = m.eval(&constant, true) else {
                return Judged::Open("no value");
            };
            let literal = z3_sys::Z3_is_numeral_ast(c, value.get_z3_ast())
                || z3_sys::Z3_get_bool_value(c, value.get_z3_ast()) != z3_sys::Z3_L_UNDEF
                || z3_sys::Z3_is_string(c, value.get_z3_ast());
            // Other values name the model's own objects; the copy completes them.
            if literal {
                z3_sys::Z3_add_const_interp(c, copy, *d, value.get_z3_ast());
            }
        }
        if truth(c, copy, f.get_z3_ast()) != Some(true) {
            return Judged::Open("the model does not satisfy the formula");
        }
        let Some(map) = z3_sys::Z3_mk_ast_map(c) else {
            return Judged::Open("no map");
        };
        z3_sys::Z3_ast_map_inc_ref(c, map);
        let judged = judge_projection(c, copy, map, project, f, vs, witness, negate);
        z3_sys::Z3_ast_map_dec_ref(c, map);
        judged
    })();
    z3_sys::Z3_model_dec_ref(c, copy);
    judged
}

/// The projection with `map` on `copy`: true in it, the map's keys among the eliminated
/// constants, and for a witness map, the formula with the keys replaced by their values
/// still true in it.
///
/// # Safety
/// As [`project_in_copy`]; `copy` satisfies `f`, `map` is live and empty.
#[allow(clippy::too_many_arguments)]
unsafe fn judge_projection(
    c: Z3_context,
    copy: Z3_model,
    map: Z3_ast_map,
    project: Project,
    f: &Dynamic,
    vs: &[Dynamic],
    witness: bool,
    negate: bool,
) -> Judged {
    let ctx = z3::Context::thread_local();
    let apps: Vec<Z3_app> = vs
        .iter()
        .filter_map(|v| z3_sys::Z3_to_app(c, v.get_z3_ast()))
        .collect();
    let Some(projection) = project(
        c,
        copy,
        apps.len() as c_uint,
        apps.as_ptr(),
        f.get_z3_ast(),
        map,
    ) else {
        return Judged::Open("no projection");
    };
    let projection = Dynamic::wrap(&ctx, projection);
    let holds = truth(c, copy, projection.get_z3_ast()).map(|h| h != negate);
    if holds == Some(false) {
        return Judged::Wrong(format!(
            "false in the model: the projection `{projection}` is false in a model of the \
             formula"
        ));
    }
    let Some(keys) = z3_sys::Z3_ast_map_keys(c, map) else {
        return Judged::Held;
    };
    z3_sys::Z3_ast_vector_inc_ref(c, keys);
    let keys_of = |i| z3_sys::Z3_ast_vector_get(c, keys, i);
    let (mut from, mut to) = (Vec::new(), Vec::new());
    let mut judged = Judged::Held;
    for i in 0..z3_sys::Z3_ast_vector_size(c, keys) {
        let Some(key) = keys_of(i) else { continue };
        let Some(value) = z3_sys::Z3_ast_map_find(c, map, key) else {
            continue;
        };
        let (key, value) = (Dynamic::wrap(&ctx, key), Dynamic::wrap(&ctx, value));
        unlogged::note("Z3_is_eq_ast");
        if witness
            && !vs
                .iter()
                .any(|v| z3_sys::Z3_is_eq_ast(c, v.get_z3_ast(), key.get_z3_ast()))
        {
            judged = Judged::Wrong(format!(
                "a key not eliminated: the witness map binds `{key}`, which is none of the \
                 constants eliminated"
            ));
            break;
        }
        // The skolem map binds subterms of the formula to what the projection put for them
        // under the model: both have one value in it.
        if !witness {
            let (a, b) = (
                value_in(c, copy, key.get_z3_ast()),
                value_in(c, copy, value.get_z3_ast()),
            );
            unlogged::note("Z3_is_eq_ast");
            let differ = match (a, b, negate) {
                (Some(a), Some(b), _) => !z3_sys::Z3_is_eq_ast(c, a.get_z3_ast(), b.get_z3_ast()),
                _ => false,
            };
            if differ {
                judged = Judged::Wrong(format!(
                    "a binding of another value: the map binds `{key}` to `{value}`, which \
                     differ in a model of the formula"
                ));
                break;
            }
        }
        from.push(key);
        to.push(value);
    }
    z3_sys::Z3_ast_vector_dec_ref(c, keys);
    if !witness || !matches!(judged, Judged::Held) || from.is_empty() {
        return judged;
    }
    let (from_raw, to_raw): (Vec<Z3_ast>, Vec<Z3_ast>) = (
        from.iter().map(|a| a.get_z3_ast()).collect(),
        to.iter().map(|a| a.get_z3_ast()).collect(),
    );
    let Some(put) = z3_sys::Z3_substitute(
        c,
        f.get_z3_ast(),
        from_raw.len() as c_uint,
        from_raw.as_ptr(),
        to_raw.as_ptr(),
    ) else {
        return Judged::Open("no substitution");
    };
    let put = Dynamic::wrap(&ctx, put);
    if truth(c, copy, put.get_z3_ast()).map(|h| h != negate) == Some(false) {
        return Judged::Wrong(format!(
            "a witness false in the model: the formula with the map's witnesses ({}) is \
             false in a model of the formula",
            from.iter()
                .zip(&to)
                .map(|(k, v)| format!("{k} := {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Judged::Held
}
