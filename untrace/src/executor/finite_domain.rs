//! `check_finite_domain` (`model::Check::FiniteDomain`): Z3's finite-domain sorts
//! (`Z3_mk_finite_domain_sort`, `Z3_get_finite_domain_sort_size`) as Datalog's relations
//! use them, in a fresh fixedpoint context of the thread-local context held through z3-sys:
//! the reachability of a graph of facts (`Z3_fixedpoint_add_fact`) judged against
//! `model::fixedpoint::reachable`.
//!
//! Relation sorts (`Z3_get_relation_arity`, `_column`): Z3's SMT-LIB parser knows none (the
//! Datalog plugin declares no sort names); the relational engine makes them for its own
//! operations, which reach a caller only through the callbacks of `Z3_fixedpoint_init`
//! (`Z3_fixedpoint_set_reduce_app_callback`, `_assign_`) on a relation represented by
//! `external_relation`. A second fixedpoint does so: every relation sort its callbacks see
//! has columns of the finite domain (the relation is over it alone); its answer is not
//! judged (an external relation's contents are the client's, which here keeps none).

use super::read::kinds::RELATION_SORT;
use super::{guard, inject, unlogged, ExecError, Executor};
use model::Check;
use std::ffi::{c_uint, c_void, CString};
use z3::ast::{Ast, Dynamic};
use z3_sys::{Z3_ast, Z3_context, Z3_fixedpoint, Z3_func_decl, Z3_sort};

/// An AST vector that keeps what it holds referenced, released on drop.
struct OutVector {
    c: Z3_context,
    v: z3_sys::Z3_ast_vector,
}

impl OutVector {
    fn new(c: Z3_context) -> Result<OutVector, String> {
        // SAFETY: a new vector of a live context, referenced until drop.
        unsafe {
            let v = z3_sys::Z3_mk_ast_vector(c).ok_or("no vector")?;
            z3_sys::Z3_ast_vector_inc_ref(c, v);
            Ok(OutVector { c, v })
        }
    }

    fn push(&self, a: Z3_ast) {
        // SAFETY: a live vector and an AST of its context.
        unsafe { z3_sys::Z3_ast_vector_push(self.c, self.v, a) }
    }
}

impl Drop for OutVector {
    fn drop(&mut self) {
        // SAFETY: referenced in `new`.
        unsafe { z3_sys::Z3_ast_vector_dec_ref(self.c, self.v) }
    }
}

/// What the check came to.
enum Judged {
    Agreed,
    Wrong(String),
}

impl Executor {
    /// `check_finite_domain`: see [`model::Check::FiniteDomain`]. An unknown answer is no
    /// verdict.
    pub(super) fn check_finite_domain(
        &mut self,
        check: &Check,
        size: u32,
        edges: &str,
    ) -> Result<(), ExecError> {
        let edges = model::fixedpoint::domain_edges(size, edges).map_err(ExecError::Malformed)?;
        let flip = matches!(self.config.inject, Some(inject::Fault::WrongFixedpoint));
        let ctx = self.main.clone();
        // SAFETY: the thread-local context of the block is `ctx`; every object made in it is
        // referenced while used and the fixedpoint released before the block ends.
        let judged = guard::in_context(&ctx, || unsafe {
            judge(ctx.get_z3_context(), size, &edges, flip)
        });
        match judged {
            Err(message) => self.check_error(check, message),
            Ok(Ok(Judged::Agreed)) => {
                self.count("finite domains: agreed");
                Ok(())
            }
            Ok(Ok(Judged::Wrong(problem))) => Err(Self::finding(
                check,
                format!("a finite domain of {size} elements: {problem}"),
                problem
                    .split(':')
                    .next()
                    .unwrap_or("wrong answer")
                    .to_string(),
            )),
            Ok(Err(missing)) => Err(ExecError::Z3(format!("{}: {missing}", check.name()))),
        }
    }
}

fn symbol(c: Z3_context, name: &str) -> Result<z3_sys::Z3_symbol, String> {
    let name = CString::new(name).map_err(|e| e.to_string())?;
    // SAFETY: a live context; the string lives across the call.
    unsafe { z3_sys::Z3_mk_string_symbol(c, name.as_ptr()) }.ok_or_else(|| "no symbol".into())
}

/// # Safety
/// `c` is the live thread-local context.
unsafe fn judge(
    c: Z3_context,
    size: u32,
    edges: &[(u32, u32)],
    flip: bool,
) -> Result<Judged, String> {
    let ctx = z3::Context::thread_local();
    // The sorts and declarations, referenced as ASTs until the check ends (the thread-local
    // context counts references: an unreferenced object goes at Z3's next call).
    let held = OutVector::new(c)?;
    let hold_sort = |s: Option<Z3_sort>| -> Result<Z3_sort, String> {
        let s = s.ok_or("no sort")?;
        unlogged::note("Z3_sort_to_ast");
        held.push(z3_sys::Z3_sort_to_ast(c, s).ok_or("no AST")?);
        Ok(s)
    };
    let hold_decl = |f: Option<Z3_func_decl>| -> Result<Z3_func_decl, String> {
        let f = f.ok_or("no declaration")?;
        unlogged::note("Z3_func_decl_to_ast");
        held.push(z3_sys::Z3_func_decl_to_ast(c, f).ok_or("no AST")?);
        Ok(f)
    };
    let sort = hold_sort(z3_sys::Z3_mk_finite_domain_sort(
        c,
        symbol(c, "mbt!domain")?,
        size.into(),
    ))?;
    let mut read = 0u64;
    if !z3_sys::Z3_get_finite_domain_sort_size(c, sort, &mut read) || read != u64::from(size) {
        return Ok(Judged::Wrong(format!(
            "another size: Z3_get_finite_domain_sort_size reads {read}"
        )));
    }
    let bool_sort = hold_sort(z3_sys::Z3_mk_bool_sort(c))?;
    let relation = |name: &str| -> Result<Z3_func_decl, String> {
        hold_decl(z3_sys::Z3_mk_func_decl(
            c,
            symbol(c, name)?,
            2,
            [sort, sort].as_ptr(),
            bool_sort,
        ))
    };
    let (edge, path) = (relation("edge")?, relation("path")?);
    // Terms are kept alive by `wrap`.
    let keep = |a: Option<Z3_ast>| -> Result<Dynamic, String> {
        Ok(Dynamic::wrap(&ctx, a.ok_or("no term")?))
    };
    let apply =
        |f: Z3_func_decl, a: Z3_ast, b: Z3_ast| keep(z3_sys::Z3_mk_app(c, f, 2, [a, b].as_ptr()));
    let constant = |name: &str| keep(z3_sys::Z3_mk_const(c, symbol(c, name)?, sort));
    let (x, y, z) = (constant("x")?, constant("y")?, constant("z")?);
    let (xa, ya, za) = (x.get_z3_ast(), y.get_z3_ast(), z.get_z3_ast());
    let step = apply(edge, xa, ya)?;
    let base = keep(z3_sys::Z3_mk_implies(
        c,
        step.get_z3_ast(),
        apply(path, xa, ya)?.get_z3_ast(),
    ))?;
    let body = keep(z3_sys::Z3_mk_and(
        c,
        2,
        [
            apply(path, xa, ya)?.get_z3_ast(),
            apply(edge, ya, za)?.get_z3_ast(),
        ]
        .as_ptr(),
    ))?;
    let closed = keep(z3_sys::Z3_mk_implies(
        c,
        body.get_z3_ast(),
        apply(path, xa, za)?.get_z3_ast(),
    ))?;
    let forall = |vars: &[Z3_ast], rule: &Dynamic| {
        let apps: Vec<z3_sys::Z3_app> = vars
            .iter()
            .filter_map(|v| z3_sys::Z3_to_app(c, *v))
            .collect();
        unlogged::note("Z3_mk_forall_const");
        keep(z3_sys::Z3_mk_forall_const(
            c,
            0,
            apps.len() as u32,
            apps.as_ptr(),
            0,
            std::ptr::null(),
            rule.get_z3_ast(),
        ))
    };
    let rules = [forall(&[xa, ya], &base)?, forall(&[xa, ya, za], &closed)?];
    let fp: Z3_fixedpoint = z3_sys::Z3_mk_fixedpoint(c).ok_or("no fixedpoint")?;
    z3_sys::Z3_fixedpoint_inc_ref(c, fp);
    let answers = (|| -> Result<Vec<z3_sys::Z3_lbool>, String> {
        let params = z3_sys::Z3_mk_params(c).ok_or("no parameters")?;
        z3_sys::Z3_params_inc_ref(c, params);
        z3_sys::Z3_params_set_symbol(c, params, symbol(c, "engine")?, symbol(c, "datalog")?);
        z3_sys::Z3_fixedpoint_set_params(c, fp, params);
        z3_sys::Z3_params_dec_ref(c, params);
        z3_sys::Z3_fixedpoint_register_relation(c, fp, edge);
        z3_sys::Z3_fixedpoint_register_relation(c, fp, path);
        for &(a, b) in edges {
            let mut args = [a, b];
            z3_sys::Z3_fixedpoint_add_fact(c, fp, edge, 2, args.as_mut_ptr());
        }
        for (i, rule) in rules.iter().enumerate() {
            z3_sys::Z3_fixedpoint_add_rule(
                c,
                fp,
                rule.get_z3_ast(),
                Some(symbol(c, &format!("r{i}"))?),
            );
        }
        let zero = keep(z3_sys::Z3_mk_unsigned_int64(c, 0, sort))?;
        let mut answers = Vec::new();
        for k in 0..size {
            let target = keep(z3_sys::Z3_mk_unsigned_int64(c, k.into(), sort))?;
            let query = apply(path, zero.get_z3_ast(), target.get_z3_ast())?;
            answers.push(z3_sys::Z3_fixedpoint_query(c, fp, query.get_z3_ast()));
            if guard::z3_error(c).is_some() {
                break;
            }
        }
        Ok(answers)
    })();
    z3_sys::Z3_fixedpoint_dec_ref(c, fp);
    let answers = answers?;
    if let Some(problem) = relation_sorts(c, sort, edge, edges.first().copied())? {
        return Ok(Judged::Wrong(problem));
    }
    let reached = model::fixedpoint::reachable(size, edges, 0);
    for (k, (answer, &expected)) in answers.iter().zip(&reached).enumerate() {
        let expected = expected != (flip && k == 0);
        let got = match *answer {
            z3_sys::Z3_L_TRUE => true,
            z3_sys::Z3_L_FALSE => false,
            _ => continue,
        };
        if got != expected {
            return Ok(Judged::Wrong(format!(
                "reachability: path(0, {k}) is {} where {k} is {}reachable from 0",
                if got { "sat" } else { "unsat" },
                if expected { "" } else { "not " }
            )));
        }
    }
    Ok(Judged::Agreed)
}

/// What the callbacks of the external relation saw.
struct Seen {
    c: Z3_context,
    domain: Z3_sort,
    sort_kind: unsafe extern "C" fn(Z3_context, Z3_sort) -> c_uint,
    relations: u32,
    wrong: Option<String>,
}

/// Judges each relation sort among `sorts`: its columns are the domain.
///
/// # Safety
/// `seen.c` is live; the sorts are its.
unsafe fn judge_sorts(seen: &mut Seen, sorts: impl Iterator<Item = Z3_sort>) {
    for s in sorts {
        if (seen.sort_kind)(seen.c, s) != RELATION_SORT || seen.wrong.is_some() {
            continue;
        }
        seen.relations += 1;
        // Called inside the fixedpoint's query: no log shows them.
        unlogged::note("Z3_get_relation_arity");
        let arity = z3_sys::Z3_get_relation_arity(seen.c, s);
        for i in 0..arity {
            unlogged::note("Z3_get_relation_column");
            let column = z3_sys::Z3_get_relation_column(seen.c, s, i);
            if !column.is_some_and(|col| z3_sys::Z3_is_eq_sort(seen.c, col, seen.domain)) {
                seen.wrong = Some(format!(
                    "a relation column of another sort: column {i} of a relation sort of \
                     arity {arity} is not the finite domain"
                ));
            }
        }
    }
}

/// The argument and result sorts of a callback's application.
///
/// # Safety
/// Live declaration and `n` live arguments of `c`.
unsafe fn sorts_of(c: Z3_context, f: Z3_func_decl, n: c_uint, args: *const Z3_ast) -> Vec<Z3_sort> {
    let mut sorts: Vec<Z3_sort> = (0..n as usize)
        .filter_map(|i| z3_sys::Z3_get_sort(c, *args.add(i)))
        .collect();
    sorts.extend(z3_sys::Z3_get_range(c, f));
    sorts
}

unsafe extern "C" fn reduce_app(
    state: *mut c_void,
    f: Z3_func_decl,
    n: c_uint,
    args: *const Z3_ast,
    _result: *mut Z3_ast,
) {
    // SAFETY: `state` is the `Seen` of `relation_sorts`, alive across the query; Z3 passes
    // live objects. The result is left unset: Z3 builds the application itself.
    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let seen = &mut *(state as *mut Seen);
        let sorts = sorts_of(seen.c, f, n, args);
        judge_sorts(seen, sorts.into_iter());
    }));
}

unsafe extern "C" fn reduce_assign(
    state: *mut c_void,
    f: Z3_func_decl,
    n: c_uint,
    args: *const Z3_ast,
    _num_out: c_uint,
    _outs: *const Z3_ast,
) {
    reduce_app(state, f, n, args, std::ptr::null_mut());
}

/// A fixedpoint whose relation `edge` (over `domain`) is an external relation with one fact:
/// the relation sorts its callbacks see, judged. `Some` names what is wrong.
///
/// # Safety
/// `c` is the live thread-local context; `domain` and `edge` are its and referenced.
unsafe fn relation_sorts(
    c: Z3_context,
    domain: Z3_sort,
    edge: Z3_func_decl,
    fact: Option<(u32, u32)>,
) -> Result<Option<String>, String> {
    let ctx = z3::Context::thread_local();
    let mut seen = Seen {
        c,
        domain,
        sort_kind: super::read::typed("Z3_get_sort_kind")?,
        relations: 0,
        wrong: None,
    };
    let fp: Z3_fixedpoint = z3_sys::Z3_mk_fixedpoint(c).ok_or("no fixedpoint")?;
    z3_sys::Z3_fixedpoint_inc_ref(c, fp);
    let done = (|| -> Result<(), String> {
        let params = z3_sys::Z3_mk_params(c).ok_or("no parameters")?;
        z3_sys::Z3_params_inc_ref(c, params);
        z3_sys::Z3_params_set_symbol(c, params, symbol(c, "engine")?, symbol(c, "datalog")?);
        z3_sys::Z3_fixedpoint_set_params(c, fp, params);
        z3_sys::Z3_params_dec_ref(c, params);
        z3_sys::Z3_fixedpoint_init(c, fp, &mut seen as *mut Seen as *mut c_void);
        z3_sys::Z3_fixedpoint_set_reduce_app_callback(c, fp, Some(reduce_app));
        z3_sys::Z3_fixedpoint_set_reduce_assign_callback(c, fp, Some(reduce_assign));
        z3_sys::Z3_fixedpoint_register_relation(c, fp, edge);
        let external = symbol(c, "external_relation")?;
        z3_sys::Z3_fixedpoint_set_predicate_representation(c, fp, edge, 1, &external);
        let (a, b) = fact.unwrap_or((0, 0));
        let mut args = [a, b];
        z3_sys::Z3_fixedpoint_add_fact(c, fp, edge, 2, args.as_mut_ptr());
        let keep = |t: Option<Z3_ast>| -> Result<Dynamic, String> {
            Ok(Dynamic::wrap(&ctx, t.ok_or("no term")?))
        };
        let x = keep(z3_sys::Z3_mk_unsigned_int64(c, a.into(), domain))?;
        let y = keep(z3_sys::Z3_mk_unsigned_int64(c, b.into(), domain))?;
        let query = keep(z3_sys::Z3_mk_app(
            c,
            edge,
            2,
            [x.get_z3_ast(), y.get_z3_ast()].as_ptr(),
        ))?;
        z3_sys::Z3_fixedpoint_query(c, fp, query.get_z3_ast());
        Ok(())
    })();
    z3_sys::Z3_fixedpoint_dec_ref(c, fp);
    done?;
    Ok(seen.wrong)
}
