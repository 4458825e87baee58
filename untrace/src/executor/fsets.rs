//! Z3's finite sets (`sort_finite_set`, `fset_*`, `check_fset`; releases after 4.8.12).
//! Every function is looked up by name in the loaded libz3, never linked: a trace with one
//! replays only where it is ([`FSET_FUNCTIONS`], `read::missing_function`). The calls that
//! are one Z3 function are plain calls (`executor::plain`); here are the sort (judged by
//! `Z3_is_finite_set_sort` and `Z3_get_finite_set_sort_basis`), `fset_map` and
//! `fset_filter` (their lambda made here) and the check, which judges Z3's values against
//! the ones `model::fset` computes.

use super::checks::SOLVER_CHECK_RLIMIT;
use super::raw_solver::RawSolver;
use super::read::typed;
use super::{guard, inject, ExecError, Executor, Outcome};
use model::call::{Check, TermId};
use model::fset::Value;
use model::Sort;
use std::collections::HashMap;
use z3::ast::{Ast, Bool, Dynamic, Int, BV};
use z3::{Context, SatResult};
use z3_sys::{Z3_ast, Z3_context, Z3_sort};

/// The functions of Z3's finite sets, which only releases after 4.8.12 have.
pub const FSET_FUNCTIONS: &[&str] = &[
    "Z3_mk_finite_set_sort",
    "Z3_is_finite_set_sort",
    "Z3_get_finite_set_sort_basis",
    "Z3_mk_finite_set_empty",
    "Z3_mk_finite_set_singleton",
    "Z3_mk_finite_set_union",
    "Z3_mk_finite_set_intersect",
    "Z3_mk_finite_set_difference",
    "Z3_mk_finite_set_member",
    "Z3_mk_finite_set_subset",
    "Z3_mk_finite_set_size",
    "Z3_mk_finite_set_range",
    "Z3_mk_finite_set_map",
    "Z3_mk_finite_set_filter",
];

/// The functions of Z3's prime fields, which only releases after 4.8.12 have.
pub const FF_FUNCTIONS: &[&str] = &[
    "Z3_mk_finite_field_sort",
    "Z3_get_finite_field_sort_size",
    "Z3_mk_ff_add",
    "Z3_mk_ff_mul",
    "Z3_mk_ff_neg",
    "Z3_mk_ff_bitsum",
];

type MkFieldSort = unsafe extern "C" fn(Z3_context, *const std::ffi::c_char) -> Option<Z3_sort>;
type FieldSize = unsafe extern "C" fn(Z3_context, Z3_sort) -> *const std::ffi::c_char;
type AstArray = unsafe extern "C" fn(Z3_context, std::ffi::c_uint, *const Z3_ast) -> Option<Z3_ast>;
type MkSort = unsafe extern "C" fn(Z3_context, Z3_sort) -> Option<Z3_sort>;
type IsSort = unsafe extern "C" fn(Z3_context, Z3_sort) -> bool;
type SortOfSort = unsafe extern "C" fn(Z3_context, Z3_sort) -> Option<Z3_sort>;
type OfSort = unsafe extern "C" fn(Z3_context, Z3_sort) -> Option<Z3_ast>;
type OfAst = unsafe extern "C" fn(Z3_context, Z3_ast) -> Option<Z3_ast>;
type OfAst2 = unsafe extern "C" fn(Z3_context, Z3_ast, Z3_ast) -> Option<Z3_ast>;

/// The Z3 sort `(FiniteSet element)` in the thread-local context.
pub fn finite_set_sort(element: &z3::Sort) -> Result<z3::Sort, String> {
    let ctx = Context::thread_local();
    // SAFETY: the function's z3_api.h signature; the result is wrapped (referenced) at once.
    unsafe {
        let mk: MkSort = typed("Z3_mk_finite_set_sort")?;
        let made = mk(ctx.get_z3_context(), element.get_z3_sort())
            .ok_or("Z3_mk_finite_set_sort returned no sort")?;
        Ok(super::datatypes::sort_of_raw(made))
    }
}

/// The Z3 sort `(_ FiniteField p)` in the thread-local context.
pub fn finite_field_sort(p: u32) -> Result<z3::Sort, String> {
    let ctx = Context::thread_local();
    let text = std::ffi::CString::new(p.to_string()).map_err(|e| e.to_string())?;
    // SAFETY: the function's z3_api.h signature; the string lives across the call.
    unsafe {
        let mk: MkFieldSort = typed("Z3_mk_finite_field_sort")?;
        let made = mk(ctx.get_z3_context(), text.as_ptr())
            .ok_or("Z3_mk_finite_field_sort returned no sort")?;
        Ok(super::datatypes::sort_of_raw(made))
    }
}

/// Z3's order of a field sort (`Z3_get_finite_field_sort_size`), as text.
fn field_size(sort: &z3::Sort) -> Result<String, String> {
    let ctx = Context::thread_local();
    // SAFETY: the function's z3_api.h signature; Z3 owns the string until its next call.
    unsafe {
        let size: FieldSize = typed("Z3_get_finite_field_sort_size")?;
        super::read::text(size(ctx.get_z3_context(), sort.get_z3_sort()))
    }
}

/// Whether Z3 says `set` is a finite set sort whose basis is `element`
/// (`Z3_is_finite_set_sort`, `Z3_get_finite_set_sort_basis`); why not where it does not.
fn judge_sort(set: &z3::Sort, element: &z3::Sort) -> Result<Option<String>, String> {
    let ctx = Context::thread_local();
    let raw = ctx.get_z3_context();
    // SAFETY: the functions' z3_api.h signatures; sorts of the live context.
    unsafe {
        let is: IsSort = typed("Z3_is_finite_set_sort")?;
        let basis: SortOfSort = typed("Z3_get_finite_set_sort_basis")?;
        if !is(raw, set.get_z3_sort()) {
            return Ok(Some(format!("Z3_is_finite_set_sort of {set} is false")));
        }
        if is(raw, element.get_z3_sort()) {
            return Ok(Some(format!("Z3_is_finite_set_sort of {element} is true")));
        }
        let b = basis(raw, set.get_z3_sort()).ok_or("no basis sort")?;
        let b = super::datatypes::sort_of_raw(b);
        Ok((b != *element)
            .then(|| format!("Z3_get_finite_set_sort_basis of {set} is {b}, expected {element}")))
    }
}

/// `fset_map` (`map`: λx. mul·x + add) or `fset_filter` (λx. low <= x <= high) of `set`,
/// its lambda made with `Z3_mk_lambda_const` over a fresh Int constant.
fn map_or_filter(set: &Dynamic, map: bool, a: i32, b: i32) -> Result<Dynamic, String> {
    let ctx = Context::thread_local();
    let x = Int::fresh_const("x");
    let body = if map {
        Dynamic::from_ast(&(Int::from_i64(i64::from(b)) * &x + Int::from_i64(i64::from(a))))
    } else {
        let (low, high) = (Int::from_i64(i64::from(a)), Int::from_i64(i64::from(b)));
        Dynamic::from_ast(&Bool::and(&[x.ge(&low), x.le(&high)]))
    };
    let lambda = z3::ast::lambda_const(&[&x], &body);
    let name = if map {
        "Z3_mk_finite_set_map"
    } else {
        "Z3_mk_finite_set_filter"
    };
    // SAFETY: the function's z3_api.h signature; terms of the live context, the result
    // wrapped (referenced) at once.
    unsafe {
        let f: OfAst2 = typed(name)?;
        let made = f(ctx.get_z3_context(), lambda.get_z3_ast(), set.get_z3_ast())
            .ok_or_else(|| format!("{name} returned no term"))?;
        Ok(Dynamic::wrap(&ctx, made))
    }
}

/// The Z3 term of a value of `sort` (a set as the union of its elements' singletons).
fn value_term(value: &Value, sort: &Sort, z3_sort: &z3::Sort) -> Result<Dynamic, String> {
    let ctx = Context::thread_local();
    let raw = ctx.get_z3_context();
    Ok(match (value, sort) {
        (Value::Bool(b), _) => Dynamic::from_ast(&Bool::from_bool(*b)),
        (Value::Int(n), _) => Dynamic::from_ast(
            &n.to_string()
                .parse::<Int>()
                .map_err(|_| "an Int Z3 does not read")?,
        ),
        (Value::Bv(bits), Sort::BitVec(w)) => {
            Dynamic::from_ast(&BV::from_str(*w, &bits.to_string()).ok_or("a bit-vector")?)
        }
        (Value::Field(n), Sort::FiniteField(_)) => {
            let text = std::ffi::CString::new(n.to_string()).map_err(|e| e.to_string())?;
            // SAFETY: a plain constructor call on the live context and sort; wrapped at once.
            unsafe {
                let made = z3_sys::Z3_mk_numeral(raw, text.as_ptr(), z3_sort.get_z3_sort())
                    .ok_or("no field numeral")?;
                Dynamic::wrap(&ctx, made)
            }
        }
        (Value::Set(items), Sort::FiniteSet(element)) => {
            let element_z3 = super::terms::z3_sort(element)?;
            // SAFETY: the functions' z3_api.h signatures; terms and sorts of the live
            // context, each result wrapped (referenced) at once.
            unsafe {
                let empty: OfSort = typed("Z3_mk_finite_set_empty")?;
                let single: OfAst = typed("Z3_mk_finite_set_singleton")?;
                let union: OfAst2 = typed("Z3_mk_finite_set_union")?;
                let mut set = Dynamic::wrap(
                    &ctx,
                    empty(raw, z3_sort.get_z3_sort()).ok_or("no empty set")?,
                );
                for item in items {
                    let e = value_term(item, element, &element_z3)?;
                    let s = Dynamic::wrap(&ctx, single(raw, e.get_z3_ast()).ok_or("no singleton")?);
                    set = Dynamic::wrap(
                        &ctx,
                        union(raw, set.get_z3_ast(), s.get_z3_ast()).ok_or("no union")?,
                    );
                }
                set
            }
        }
        (v, s) => return Err(format!("a value {v:?} of sort {s}")),
    })
}

/// What Z3 says an atom is, against its value.
enum Judged {
    Agreed,
    /// Neither the rewriter nor a reference solver decided.
    Open,
    Wrong(String),
}

/// One atom of the check: the term, its value's term and sort.
struct Atom {
    id: TermId,
    /// It applies `fset_map`: judged by the rewriter alone (`model::fset::applies_map`).
    rewriter_only: bool,
    term: Dynamic,
    value: Dynamic,
    shown: String,
}

/// Whether `term` (the witnessed atom) equals `value`: the rewriter first, then a reference
/// solver.
fn judge_value(term: &Dynamic, value: &Dynamic, rewriter_only: bool) -> Judged {
    let eq = term.eq(value);
    match eq.simplify().as_bool() {
        Some(true) => return Judged::Agreed,
        Some(false) => {
            return Judged::Wrong(format!(
                "{} simplifies to {}, expected {}",
                guard::one_line(&term.to_string()),
                guard::one_line(&term.simplify().to_string()),
                guard::one_line(&value.to_string())
            ))
        }
        None if rewriter_only => return Judged::Open,
        None => {}
    }
    let Some(solver) = RawSolver::reference(SOLVER_CHECK_RLIMIT, &[eq.not()]) else {
        return Judged::Open;
    };
    match solver.check_assumptions(&[]) {
        SatResult::Unsat => Judged::Agreed,
        SatResult::Unknown => Judged::Open,
        SatResult::Sat => Judged::Wrong(format!(
            "a reference solver finds {} other than {}",
            guard::one_line(&term.to_string()),
            guard::one_line(&value.to_string())
        )),
    }
}

/// The atoms, each asserted equal to its value with the constants free, are satisfiable
/// (the witnesses satisfy them): a default solver must not answer unsat, and its model
/// must not evaluate an equation false.
fn judge_planted(atoms: &[Atom]) -> Judged {
    let atoms: Vec<&Atom> = atoms.iter().filter(|a| !a.rewriter_only).collect();
    if atoms.is_empty() {
        return Judged::Open;
    }
    let equations: Vec<Bool> = atoms.iter().map(|a| a.term.eq(&a.value)).collect();
    let Some(solver) = RawSolver::default_solver(SOLVER_CHECK_RLIMIT, &equations) else {
        return Judged::Open;
    };
    match solver.check_assumptions(&[]) {
        SatResult::Unknown => Judged::Open,
        SatResult::Unsat => Judged::Wrong(format!(
            "a default solver answers unsat to {}, which the witnesses satisfy",
            guard::one_line(&Bool::and(&equations).to_string())
        )),
        SatResult::Sat => {
            let ctx = Context::thread_local();
            let (raw, z) = solver.raw();
            // SAFETY: a live solver after sat; the model is referenced while evaluated and
            // each value wrapped (referenced) at once.
            unsafe {
                let Some(model) = z3_sys::Z3_solver_get_model(raw, z) else {
                    return Judged::Open;
                };
                z3_sys::Z3_model_inc_ref(raw, model);
                let mut judged = Judged::Agreed;
                for (atom, eq) in atoms.iter().zip(&equations) {
                    let mut out: Option<Z3_ast> = None;
                    let done = z3_sys::Z3_model_eval(
                        raw,
                        model,
                        eq.get_z3_ast(),
                        true,
                        &mut out as *mut _ as *mut _,
                    );
                    let Some(v) = out.filter(|_| done).map(|v| Dynamic::wrap(&ctx, v)) else {
                        continue;
                    };
                    // Z3's models of sets are abstract (`set.unique`): an equation it
                    // cannot evaluate to a value is no verdict.
                    if v.as_bool().and_then(|b| b.as_bool()) == Some(false) {
                        judged = Judged::Wrong(format!(
                            "the model of a sat answer evaluates {} = {} false",
                            atom.shown,
                            guard::one_line(&atom.value.to_string())
                        ));
                        break;
                    }
                }
                z3_sys::Z3_model_dec_ref(raw, model);
                judged
            }
        }
    }
}

impl Executor {
    /// `sort_finite_set sE`: the sort, which Z3 must say is a finite set sort of basis E.
    pub(super) fn sort_finite_set(&mut self, element: model::SortId) -> Result<Outcome, ExecError> {
        let e = self.z3_sort(element)?.clone();
        let (made, wrong) = self
            .main(|| {
                let made = finite_set_sort(&e)?;
                let wrong = judge_sort(&made, &e)?;
                Ok::<_, String>((made, wrong))
            })?
            .map_err(ExecError::Z3)?;
        let wrong = match (self.config.inject.as_ref(), wrong) {
            (Some(inject::Fault::WrongRead), None) => {
                Some(format!("Z3_get_finite_set_sort_basis of {made} is not {e}"))
            }
            (_, wrong) => wrong,
        };
        if let (Some(problem), true) = (wrong, self.config.run_checks) {
            return Err(super::read_back_finding(
                problem,
                "sort_finite_set: Z3's reading of a finite set sort".into(),
            ));
        }
        Ok(Outcome::Sort(made))
    }

    /// `sort_finite_field P`: the sort, whose order Z3 must read as P.
    pub(super) fn sort_finite_field(&mut self, p: u32) -> Result<Outcome, ExecError> {
        let (made, size) = self
            .main(|| {
                let made = finite_field_sort(p)?;
                let size = field_size(&made)?;
                Ok::<_, String>((made, size))
            })?
            .map_err(ExecError::Z3)?;
        let size = match self.config.inject {
            Some(inject::Fault::WrongRead) => format!("{size}0"),
            _ => size,
        };
        if size != p.to_string() && self.config.run_checks {
            return Err(super::read_back_finding(
                format!("Z3_get_finite_field_sort_size of {made} is {size}, expected {p}"),
                "sort_finite_field: Z3's reading of a field's order".into(),
            ));
        }
        Ok(Outcome::Sort(made))
    }

    /// `fset_map` / `fset_filter` of the term `set`.
    pub(super) fn fset_map_or_filter(
        &mut self,
        set: TermId,
        map: bool,
        a: i32,
        b: i32,
    ) -> Result<Outcome, ExecError> {
        let s = self.z3_term(set)?.clone();
        let made = self
            .main(|| map_or_filter(&s, map, a, b))?
            .map_err(ExecError::Z3)?;
        Ok(Outcome::Term(made))
    }

    /// `check_fset`: see [`model::Check::FiniteSet`]. Unknown answers are no verdict
    /// (counted).
    pub(super) fn check_fset(
        &mut self,
        check: &Check,
        atoms: &[TermId],
        witnesses: &[(TermId, TermId)],
    ) -> Result<(), ExecError> {
        let given: HashMap<TermId, TermId> = witnesses.iter().copied().collect();
        let mut values = Vec::new();
        for a in atoms {
            let value = model::fset::value(&self.state, *a, &given)
                .map_err(|why| ExecError::Malformed(format!("check_fset: {a}: {why}")))?;
            let sort = self.state.term(*a).map_err(super::malformed)?.sort.clone();
            let rewriter_only = model::fset::applies_map(&self.state, *a);
            values.push((*a, value, sort, rewriter_only));
        }
        let mut from = Vec::new();
        let mut to = Vec::new();
        for (c, w) in witnesses {
            from.push(self.z3_term(*c)?.clone());
            to.push(self.z3_term(*w)?.clone());
        }
        let mut terms = Vec::new();
        for (a, ..) in &values {
            terms.push(self.z3_term(*a)?.clone());
        }
        let fault = matches!(self.config.inject, Some(inject::Fault::WrongFset));
        let judged = self.main(|| -> Result<(Judged, Judged), String> {
            let mut built = Vec::new();
            for ((id, value, sort, rewriter_only), term) in values.iter().zip(&terms) {
                let z3_sort = term.get_sort();
                built.push(Atom {
                    id: *id,
                    rewriter_only: *rewriter_only,
                    term: term.clone(),
                    value: value_term(value, sort, &z3_sort)?,
                    shown: guard::one_line(&term.to_string()),
                });
            }
            let pairs: Vec<(&Dynamic, &Dynamic)> = from.iter().zip(&to).collect();
            let mut by_value = Judged::Agreed;
            for (i, atom) in built.iter().enumerate() {
                let mut witnessed = atom.term.substitute(&pairs);
                if fault && i == 0 {
                    witnessed = perturbed(&witnessed)?;
                }
                match judge_value(&witnessed, &atom.value, atom.rewriter_only) {
                    Judged::Agreed => {}
                    Judged::Open => by_value = Judged::Open,
                    Judged::Wrong(why) => {
                        by_value = Judged::Wrong(format!("{}: {why}", atom.id));
                        break;
                    }
                }
            }
            Ok((by_value, judge_planted(&built)))
        })?;
        let (by_value, planted) = match judged {
            Ok(j) => j,
            Err(message) => return self.check_error(check, message),
        };
        for (what, judged) in [("values", by_value), ("witnessed atoms", planted)] {
            match judged {
                Judged::Agreed => self.count(&format!("{} {what}: agreed", check.name())),
                Judged::Open => self.count(&format!("{} {what}: unknown", check.name())),
                Judged::Wrong(problem) => {
                    return Err(Self::finding(
                        check,
                        format!("{}: {problem}", check.name()),
                        format!("{what} disagree with their reference values"),
                    ))
                }
            }
        }
        Ok(())
    }
}

/// Whether Z3 says `sort` is a finite set sort (false where the libz3 has no finite sets).
fn is_set_sort(sort: &z3::Sort) -> Result<bool, String> {
    let ctx = Context::thread_local();
    // SAFETY: the function's z3_api.h signature, a sort of the live context.
    unsafe {
        match typed::<IsSort>("Z3_is_finite_set_sort") {
            Ok(is) => Ok(is(ctx.get_z3_context(), sort.get_z3_sort())),
            Err(_) => Ok(false),
        }
    }
}

/// The term a faulty Z3 would give instead of `t` (`wrong-fset`): a Bool negated, an Int
/// one more, a set with one more element, a field element one more.
fn perturbed(t: &Dynamic) -> Result<Dynamic, String> {
    if let Some(b) = t.as_bool() {
        return Ok(Dynamic::from_ast(&b.not()));
    }
    if let Some(n) = t.as_int() {
        return Ok(Dynamic::from_ast(&(n + Int::from_i64(1))));
    }
    let ctx = Context::thread_local();
    let raw = ctx.get_z3_context();
    // A field element: one more (`Z3_mk_ff_add` with the numeral 1).
    // (The sort's kind is not asked: 5.x numbers kinds the `z3-sys` enum does not know.)
    if !is_set_sort(&t.get_sort())? {
        let one = std::ffi::CString::new("1").map_err(|e| e.to_string())?;
        // SAFETY: the functions' z3_api.h signatures; terms of the live context, results
        // wrapped (referenced) at once.
        unsafe {
            let one = z3_sys::Z3_mk_numeral(raw, one.as_ptr(), t.get_sort().get_z3_sort())
                .ok_or("no field numeral")?;
            let one = Dynamic::wrap(&ctx, one);
            let add: AstArray = typed("Z3_mk_ff_add")?;
            let args = [t.get_z3_ast(), one.get_z3_ast()];
            let sum = add(raw, 2, args.as_ptr()).ok_or("no sum")?;
            return Ok(Dynamic::wrap(&ctx, sum));
        }
    }
    // A set: add an element no value of the check has, a fresh constant.
    // SAFETY: the functions' z3_api.h signatures; terms of the live context, results
    // wrapped (referenced) at once.
    unsafe {
        let basis: SortOfSort = typed("Z3_get_finite_set_sort_basis")?;
        let single: OfAst = typed("Z3_mk_finite_set_singleton")?;
        let union: OfAst2 = typed("Z3_mk_finite_set_union")?;
        let element = super::datatypes::sort_of_raw(
            basis(raw, t.get_sort().get_z3_sort()).ok_or("no basis")?,
        );
        let extra = Dynamic::fresh_const("extra", &element);
        let s = Dynamic::wrap(&ctx, single(raw, extra.get_z3_ast()).ok_or("no singleton")?);
        Ok(Dynamic::wrap(
            &ctx,
            union(raw, t.get_z3_ast(), s.get_z3_ast()).ok_or("no union")?,
        ))
    }
}
