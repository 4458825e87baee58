//! `check_propagator`: Z3's user propagator (`Z3_solver_propagate_*`, `Z3_solver_next_split`)
//! and clause observation (`Z3_solver_register_on_clause`) on a fresh simple solver given a
//! solver's assertions, judged by what the solver answers (`model::Check::Propagator`).
//!
//! Every function is looked up by name in the loaded libz3, never linked
//! ([`PROPAGATOR_FUNCTIONS`]): 4.8.12 has a few of them with other callback signatures
//! (identifiers where newer releases pass terms), and the signatures settled with the
//! release that added `Z3_solver_propagate_on_binding` (4.15.3), so the check runs where the
//! loaded libz3 has all of them (a replay elsewhere is refused, `read::missing_function`).
//!
//! The callbacks are `extern "C"` functions that Z3 calls during the check with a pointer to
//! a [`Watch`], which lives on the stack of [`Executor::check_propagator`] until after the
//! solver is released (declared before it, so dropped after it). Nothing unwinds out of a
//! callback (`catch_unwind`; a panic is recorded and ends the check without a verdict), no
//! borrow of the watch is held while a callback calls back into Z3 (Z3 may call another
//! callback from inside that call), and the callback functions of the API
//! (`Z3_solver_propagate_consequence`, `Z3_solver_next_split`,
//! `Z3_solver_propagate_register_cb`) are called only inside callbacks, with the callback
//! handle Z3 passed. Z3's log shows none of the functions that take a callback nor the calls
//! made inside callbacks: they are counted with `unlogged::note`.

use super::checks::SOLVER_CHECK_RLIMIT;
use super::raw_solver::RawSolver;
use super::read::kinds::{APP_AST, QUANTIFIER_AST};
use super::read::typed;
use super::{guard, unlogged, ExecError, Executor};
use model::call::{Check, SolverId, TermId, PROPAGATOR_MAX_MODELS};
use std::cell::{Cell, RefCell};
use std::collections::BTreeSet;
use std::ffi::{c_uint, c_void, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use z3::ast::{Ast, Bool, Dynamic};
use z3::{Context, SatResult};
use z3_sys::{Z3_ast, Z3_ast_vector, Z3_context, Z3_func_decl, Z3_lbool, Z3_solver, Z3_sort};

/// The functions of `check_propagator`, which only releases from 4.15.3 have with these
/// signatures; the first is the one that says so (the others came earlier).
pub const PROPAGATOR_FUNCTIONS: &[&str] = &[
    "Z3_solver_propagate_on_binding",
    "Z3_solver_propagate_init",
    "Z3_solver_propagate_register",
    "Z3_solver_propagate_fixed",
    "Z3_solver_propagate_final",
    "Z3_solver_propagate_eq",
    "Z3_solver_propagate_diseq",
    "Z3_solver_propagate_decide",
    "Z3_solver_propagate_created",
    "Z3_solver_propagate_declare",
    "Z3_solver_propagate_register_cb",
    "Z3_solver_propagate_consequence",
    "Z3_solver_next_split",
    "Z3_solver_register_on_clause",
];

/// The most clauses `on_clause` reports that the check keeps (inferred or deleted, and
/// input or definitions: [`routine_clause`]), and the most it judges.
const MAX_CLAUSES_KEPT: usize = 48;
const MAX_ROUTINE_KEPT: usize = 8;
const MAX_CLAUSES_JUDGED: usize = 4;
/// The most final callbacks in mode `enumerate` before the propagator stops blocking (a
/// clause Z3 forgets may bring an assignment back).
const MAX_FINALS: usize = 2 * PROPAGATOR_MAX_MODELS;

/// The solver callback handle Z3 passes to callbacks (`Z3_solver_callback`).
type Cb = *mut c_void;
type PushEh = unsafe extern "C" fn(*mut c_void, Cb);
type PopEh = unsafe extern "C" fn(*mut c_void, Cb, c_uint);
type FreshEh = unsafe extern "C" fn(*mut c_void, Z3_context) -> *mut c_void;
type FixedEh = unsafe extern "C" fn(*mut c_void, Cb, Z3_ast, Z3_ast);
type EqEh = unsafe extern "C" fn(*mut c_void, Cb, Z3_ast, Z3_ast);
type FinalEh = unsafe extern "C" fn(*mut c_void, Cb);
type CreatedEh = unsafe extern "C" fn(*mut c_void, Cb, Z3_ast);
type DecideEh = unsafe extern "C" fn(*mut c_void, Cb, Z3_ast, c_uint, bool);
type BindingEh = unsafe extern "C" fn(*mut c_void, Cb, Z3_ast, Z3_ast) -> bool;
// The proof hint may be null.
type ClauseEh =
    unsafe extern "C" fn(*mut c_void, Option<Z3_ast>, c_uint, *const c_uint, Z3_ast_vector);

type Init = unsafe extern "C" fn(Z3_context, Z3_solver, *mut c_void, PushEh, PopEh, FreshEh);
type SetFixed = unsafe extern "C" fn(Z3_context, Z3_solver, FixedEh);
type SetEq = unsafe extern "C" fn(Z3_context, Z3_solver, EqEh);
type SetFinal = unsafe extern "C" fn(Z3_context, Z3_solver, FinalEh);
type SetCreated = unsafe extern "C" fn(Z3_context, Z3_solver, CreatedEh);
type SetDecide = unsafe extern "C" fn(Z3_context, Z3_solver, DecideEh);
type SetBinding = unsafe extern "C" fn(Z3_context, Z3_solver, BindingEh);
type Register = unsafe extern "C" fn(Z3_context, Z3_solver, Z3_ast);
type RegisterCb = unsafe extern "C" fn(Z3_context, Cb, Z3_ast);
type Consequence = unsafe extern "C" fn(
    Z3_context,
    Cb,
    c_uint,
    *const Z3_ast,
    c_uint,
    *const Z3_ast,
    *const Z3_ast,
    Z3_ast,
) -> bool;
type NextSplit = unsafe extern "C" fn(Z3_context, Cb, Z3_ast, c_uint, Z3_lbool) -> bool;
type Declare = unsafe extern "C" fn(
    Z3_context,
    z3_sys::Z3_symbol,
    c_uint,
    *const Z3_sort,
    Z3_sort,
) -> Option<Z3_func_decl>;
type OnClause = unsafe extern "C" fn(Z3_context, Z3_solver, *mut c_void, ClauseEh);
// Kinds read as numbers: a release may answer a kind the z3-sys enums do not have.
type DeclKind = unsafe extern "C" fn(Z3_context, Z3_func_decl) -> c_uint;
type AstKind = unsafe extern "C" fn(Z3_context, Z3_ast) -> c_uint;

/// The functions, looked up once a check.
#[derive(Clone, Copy)]
struct Functions {
    init: Init,
    fixed: SetFixed,
    final_: SetFinal,
    eq: SetEq,
    diseq: SetEq,
    created: SetCreated,
    decide: SetDecide,
    binding: SetBinding,
    register: Register,
    register_cb: RegisterCb,
    consequence: Consequence,
    next_split: NextSplit,
    declare: Declare,
    on_clause: OnClause,
    decl_kind: DeclKind,
    ast_kind: AstKind,
}

impl Functions {
    fn load() -> Result<Functions, String> {
        // SAFETY: each type is the function's z3_api.h signature in releases from 4.15.3
        // (the kinds as numbers).
        unsafe {
            Ok(Functions {
                init: typed("Z3_solver_propagate_init")?,
                fixed: typed("Z3_solver_propagate_fixed")?,
                final_: typed("Z3_solver_propagate_final")?,
                eq: typed("Z3_solver_propagate_eq")?,
                diseq: typed("Z3_solver_propagate_diseq")?,
                created: typed("Z3_solver_propagate_created")?,
                decide: typed("Z3_solver_propagate_decide")?,
                binding: typed("Z3_solver_propagate_on_binding")?,
                register: typed("Z3_solver_propagate_register")?,
                register_cb: typed("Z3_solver_propagate_register_cb")?,
                consequence: typed("Z3_solver_propagate_consequence")?,
                next_split: typed("Z3_solver_next_split")?,
                declare: typed("Z3_solver_propagate_declare")?,
                on_clause: typed("Z3_solver_register_on_clause")?,
                decl_kind: typed("Z3_get_decl_kind")?,
                ast_kind: typed("Z3_get_ast_kind")?,
            })
        }
    }
}

/// What the propagator saw on the current branch of the search.
enum Event {
    /// `fixed`: the term has the value.
    Fixed(Dynamic, Dynamic),
    /// `eq` (true) or `diseq` (false) of two terms.
    Eq(Dynamic, Dynamic, bool),
}

/// What the callbacks record, behind the pointer Z3 passes them.
#[derive(Default)]
struct Record {
    /// The events of the current branch; `scopes` holds the trail's length at each push.
    trail: Vec<Event>,
    scopes: Vec<usize>,
    /// Mode `enumerate`: the assignments of the terms blocked in final callbacks.
    blocked: Vec<Vec<bool>>,
    finals: usize,
    /// Mode `enumerate`: a final callback found a term without a value or too many finals
    /// came; the propagator stopped blocking, so the answer says nothing of the projections.
    gave_up: bool,
    /// Terms registered inside callbacks (`created` applications).
    extra: Vec<Dynamic>,
    created: usize,
    bindings: usize,
    splits: usize,
    /// Callbacks that named what they should not (a term not registered, two sorts, ...).
    problems: Vec<String>,
    /// Clauses `on_clause` reported: the proof hint's name and the literals.
    clauses: Vec<(String, Vec<Dynamic>)>,
    clauses_seen: usize,
}

/// The propagator's state: fixed at set-up, and what the callbacks record.
struct Watch {
    ctx: Context,
    raw: Z3_context,
    f: Functions,
    enumerate: bool,
    /// The registered terms, in the trace's order.
    terms: Vec<Dynamic>,
    /// Mode `observe`: the function declared for the propagator.
    declared: Option<Z3_func_decl>,
    record: RefCell<Record>,
    panicked: Cell<bool>,
}

impl Watch {
    fn position(&self, t: Z3_ast) -> Option<usize> {
        self.terms.iter().position(|r| r.get_z3_ast() == t)
    }

    fn registered(&self, t: Z3_ast, record: &Record) -> bool {
        self.position(t).is_some() || record.extra.iter().any(|r| r.get_z3_ast() == t)
    }

    fn wrap(&self, t: Z3_ast) -> Dynamic {
        // SAFETY: Z3 passes live terms of the solver's context, which `wrap` references.
        unsafe { Dynamic::wrap(&self.ctx, t) }
    }

    /// The values of the registered terms on the current branch (`None` for a term `fixed`
    /// has not reported).
    fn assignment(&self, record: &Record) -> Vec<Option<bool>> {
        let mut values = vec![None; self.terms.len()];
        for event in &record.trail {
            if let Event::Fixed(t, v) = event {
                if let Some(i) = self.position(t.get_z3_ast()) {
                    values[i] = v.as_bool().and_then(|b| b.as_bool());
                }
            }
        }
        values
    }
}

/// Runs a callback body on the watch behind `ctx` (none for a null pointer: a solver Z3
/// spawned, see [`fresh`]), never unwinding into Z3.
fn with_watch<R>(ctx: *mut c_void, otherwise: R, body: impl FnOnce(&Watch) -> R) -> R {
    if ctx.is_null() {
        return otherwise;
    }
    // SAFETY: Z3 passes back the pointer given to `Z3_solver_propagate_init` or
    // `Z3_solver_register_on_clause`: the watch, which outlives the solver.
    let watch = unsafe { &*(ctx as *const Watch) };
    match catch_unwind(AssertUnwindSafe(|| body(watch))) {
        Ok(r) => r,
        Err(_) => {
            watch.panicked.set(true);
            otherwise
        }
    }
}

unsafe extern "C" fn push(ctx: *mut c_void, _cb: Cb) {
    with_watch(ctx, (), |w| {
        let mut r = w.record.borrow_mut();
        let len = r.trail.len();
        r.scopes.push(len);
    })
}

unsafe extern "C" fn pop(ctx: *mut c_void, _cb: Cb, n: c_uint) {
    with_watch(ctx, (), |w| {
        let mut r = w.record.borrow_mut();
        let n = n as usize;
        let pushed = r.scopes.len();
        if n > pushed {
            r.problems
                .push(format!("pop of {n} scopes where {pushed} were pushed"));
            r.scopes.clear();
            r.trail.clear();
            return;
        }
        let keep = r.scopes.len() - n;
        let len = r.scopes[keep];
        r.scopes.truncate(keep);
        r.trail.truncate(len);
    })
}

/// A solver Z3 spawns from this one gets no propagator: its callbacks see a null context
/// and do nothing (the simple solver spawns none).
unsafe extern "C" fn fresh(_ctx: *mut c_void, _new: Z3_context) -> *mut c_void {
    std::ptr::null_mut()
}

unsafe extern "C" fn fixed(ctx: *mut c_void, _cb: Cb, t: Z3_ast, value: Z3_ast) {
    with_watch(ctx, (), |w| {
        let (t, value) = (w.wrap(t), w.wrap(value));
        let mut r = w.record.borrow_mut();
        if !w.registered(t.get_z3_ast(), &r) {
            r.problems.push(format!(
                "fixed reported {} which was not registered",
                one_line(&t)
            ));
        }
        r.trail.push(Event::Fixed(t, value));
    })
}

fn eq_event(ctx: *mut c_void, s: Z3_ast, t: Z3_ast, equal: bool) {
    with_watch(ctx, (), |w| {
        let (s, t) = (w.wrap(s), w.wrap(t));
        let mut r = w.record.borrow_mut();
        let name = if equal { "eq" } else { "diseq" };
        for u in [&s, &t] {
            if !w.registered(u.get_z3_ast(), &r) {
                r.problems.push(format!(
                    "{name} reported {} which was not registered",
                    one_line(u)
                ));
            }
        }
        if s.get_sort() != t.get_sort() {
            r.problems.push(format!(
                "{name} reported {} of sort {} and {} of sort {}",
                one_line(&s),
                s.get_sort(),
                one_line(&t),
                t.get_sort()
            ));
        }
        r.trail.push(Event::Eq(s, t, equal));
    })
}

unsafe extern "C" fn eq(ctx: *mut c_void, _cb: Cb, s: Z3_ast, t: Z3_ast) {
    eq_event(ctx, s, t, true)
}

unsafe extern "C" fn diseq(ctx: *mut c_void, _cb: Cb, s: Z3_ast, t: Z3_ast) {
    eq_event(ctx, s, t, false)
}

/// Mode `enumerate`: blocks the current assignment of the registered terms by a conflict
/// (the terms as antecedents, `false` as the consequence) and records it. Mode `observe`
/// counts the call and lets the solver finish.
unsafe extern "C" fn final_(ctx: *mut c_void, cb: Cb) {
    with_watch(ctx, (), |w| {
        let block = {
            let mut r = w.record.borrow_mut();
            r.finals += 1;
            if !w.enumerate || r.gave_up {
                None
            } else if r.finals > MAX_FINALS || r.blocked.len() >= PROPAGATOR_MAX_MODELS {
                r.gave_up = true;
                None
            } else {
                let values: Option<Vec<bool>> = w.assignment(&r).into_iter().collect();
                if values.is_none() {
                    r.gave_up = true;
                }
                values
            }
        };
        let Some(values) = block else {
            return;
        };
        let antecedents: Vec<Z3_ast> = w.terms.iter().map(|t| t.get_z3_ast()).collect();
        let conflict = Bool::from_bool(false);
        unlogged::note("Z3_solver_propagate_consequence");
        // SAFETY: inside a callback with Z3's callback handle; the terms are live.
        unsafe {
            (w.f.consequence)(
                w.raw,
                cb,
                antecedents.len() as c_uint,
                antecedents.as_ptr(),
                0,
                std::ptr::null(),
                std::ptr::null(),
                conflict.get_z3_ast(),
            )
        };
        w.record.borrow_mut().blocked.push(values);
    })
}

/// Mode `enumerate`: the next split is the first registered term without a value other
/// than the one Z3 chose, in the phase that alternates with the final callbacks; the
/// assignments found cannot depend on the order of splits.
unsafe extern "C" fn decide(ctx: *mut c_void, cb: Cb, t: Z3_ast, _idx: c_uint, _phase: bool) {
    with_watch(ctx, (), |w| {
        let pick = {
            let r = w.record.borrow();
            let values = w.assignment(&r);
            let phase = if r.finals % 2 == 0 {
                z3_sys::Z3_L_TRUE
            } else {
                z3_sys::Z3_L_FALSE
            };
            w.terms
                .iter()
                .zip(values)
                .find(|(u, v)| v.is_none() && u.get_z3_ast() != t)
                .map(|(u, _)| (u.get_z3_ast(), phase))
        };
        let Some((u, phase)) = pick else {
            return;
        };
        unlogged::note("Z3_solver_next_split");
        // SAFETY: inside a callback with Z3's callback handle; the term is live.
        unsafe { (w.f.next_split)(w.raw, cb, u, 0, phase) };
        w.record.borrow_mut().splits += 1;
    })
}

/// Mode `observe`: an application of the declared function; registered in turn
/// (`Z3_solver_propagate_register_cb`), so its values are judged like the others'.
unsafe extern "C" fn created(ctx: *mut c_void, cb: Cb, t: Z3_ast) {
    with_watch(ctx, (), |w| {
        let term = w.wrap(t);
        // SAFETY: a live term of the context.
        let head = unsafe {
            ((w.f.ast_kind)(w.raw, t) == APP_AST)
                .then(|| z3_sys::Z3_to_app(w.raw, t))
                .flatten()
                .and_then(|app| z3_sys::Z3_get_app_decl(w.raw, app))
        };
        let ours = match (head, w.declared) {
            (Some(h), Some(d)) => {
                unlogged::note("Z3_is_eq_func_decl");
                // SAFETY: two live declarations of the context.
                unsafe { z3_sys::Z3_is_eq_func_decl(w.raw, h, d) }
            }
            _ => false,
        };
        if !ours {
            w.record.borrow_mut().problems.push(format!(
                "created reported {}, no application of the declared function",
                one_line(&term)
            ));
            return;
        }
        unlogged::note("Z3_solver_propagate_register_cb");
        // SAFETY: inside a callback with Z3's callback handle; the term is live.
        unsafe { (w.f.register_cb)(w.raw, cb, t) };
        let mut r = w.record.borrow_mut();
        r.created += 1;
        r.extra.push(term);
    })
}

/// A quantifier instantiation: allowed (the answer must not change), the quantifier judged
/// to be one.
unsafe extern "C" fn binding(ctx: *mut c_void, _cb: Cb, q: Z3_ast, _inst: Z3_ast) -> bool {
    with_watch(ctx, true, |w| {
        // SAFETY: a live term of the context.
        let kind = unsafe { (w.f.ast_kind)(w.raw, q) };
        let mut r = w.record.borrow_mut();
        r.bindings += 1;
        if kind != QUANTIFIER_AST {
            let q = w.wrap(q);
            r.problems.push(format!(
                "on_binding reported {}, no quantifier",
                one_line(&q)
            ));
        }
        true
    })
}

unsafe extern "C" fn clause(
    ctx: *mut c_void,
    hint: Option<Z3_ast>,
    _n: c_uint,
    _deps: *const c_uint,
    literals: Z3_ast_vector,
) {
    with_watch(ctx, (), |w| {
        w.record.borrow_mut().clauses_seen += 1;
        let name = hint
            .map(|h| w.wrap(h))
            .and_then(|h| h.safe_decl().ok())
            .map(|d| d.name())
            .unwrap_or_default();
        let routine = routine_clause(&name);
        let kept = {
            let r = w.record.borrow();
            r.clauses
                .iter()
                .filter(|(h, _)| routine_clause(h) == routine)
                .count()
        };
        if kept
            >= if routine {
                MAX_ROUTINE_KEPT
            } else {
                MAX_CLAUSES_KEPT
            }
        {
            return;
        }
        // SAFETY: Z3 passes a live vector for the callback's duration; `wrap` references
        // what is kept.
        let lits: Vec<Dynamic> = unsafe {
            (0..z3_sys::Z3_ast_vector_size(w.raw, literals))
                .filter_map(|i| z3_sys::Z3_ast_vector_get(w.raw, literals, i))
                .map(|a| w.wrap(a))
                .collect()
        };
        w.record.borrow_mut().clauses.push((name, lits));
    })
}

/// Whether a clause with this proof hint is an input clause or a definition of a
/// subformula (`assumption`, `tseitin`), which say less about the search than the clauses
/// it infers (theory lemmas, conflicts) and deletes.
fn routine_clause(hint: &str) -> bool {
    matches!(hint, "assumption" | "tseitin")
}

fn one_line(t: &Dynamic) -> String {
    guard::one_line(&t.to_string())
}

/// The declarations `terms` apply that are no theory's (uninterpreted, recursive, Z3's
/// internal), by AST id; `None` when a term holds a quantifier (its body is not read).
///
/// # Safety
/// `raw` must be the live context of the terms.
unsafe fn symbols(f: &Functions, raw: Z3_context, terms: &[&Dynamic]) -> Option<BTreeSet<u32>> {
    // SAFETY: as the caller promises; every handle read is a live child of a term.
    unsafe {
        let sort = z3_sys::Z3_mk_bool_sort(raw)?;
        let prefix = CString::new("mbt").ok()?;
        let probe = z3_sys::Z3_mk_fresh_const(raw, prefix.as_ptr(), sort)?;
        let probe = z3_sys::Z3_get_app_decl(raw, z3_sys::Z3_to_app(raw, probe)?)?;
        let uninterpreted = (f.decl_kind)(raw, probe);
        // Z3's own declarations (the recursive-function engine's round guard,
        // `(_ recfun-num-rounds 0)`, which `on_clause` reports as an assumption) are of the
        // kinds `Z3_OP_INTERNAL` and `Z3_OP_RECURSIVE`, just before `Z3_OP_UNINTERPRETED` in
        // every release's enumeration: symbols too, so that a clause over one the formula
        // does not hold is not judged (recursive functions the formula applies it holds).
        let owned = |kind: c_uint| {
            kind == uninterpreted || kind + 1 == uninterpreted || kind + 2 == uninterpreted
        };
        let (mut seen, mut found) = (BTreeSet::new(), BTreeSet::new());
        let mut todo: Vec<Z3_ast> = terms.iter().map(|t| t.get_z3_ast()).collect();
        while let Some(a) = todo.pop() {
            if !seen.insert(z3_sys::Z3_get_ast_id(raw, a)) {
                continue;
            }
            match (f.ast_kind)(raw, a) {
                APP_AST => {}
                QUANTIFIER_AST => return None,
                _ => continue,
            }
            let app = z3_sys::Z3_to_app(raw, a)?;
            for i in 0..z3_sys::Z3_get_app_num_args(raw, app) {
                todo.extend(z3_sys::Z3_get_app_arg(raw, app, i));
            }
            let decl = z3_sys::Z3_get_app_decl(raw, app)?;
            if owned((f.decl_kind)(raw, decl)) {
                found.insert(z3_sys::Z3_get_ast_id(
                    raw,
                    z3_sys::Z3_func_decl_to_ast(raw, decl)?,
                ));
            }
        }
        Some(found)
    }
}

/// The value of `t` in the model (`Z3_model_eval` with completion), referenced.
///
/// # Safety
/// `raw` must be the live context of the model and the term.
unsafe fn eval(
    ctx: &Context,
    raw: Z3_context,
    model: z3_sys::Z3_model,
    t: &Dynamic,
) -> Option<Dynamic> {
    // SAFETY: as the caller promises.
    unsafe {
        let mut out: Option<Z3_ast> = None;
        let done = z3_sys::Z3_model_eval(
            raw,
            model,
            t.get_z3_ast(),
            true,
            &mut out as *mut _ as *mut _,
        );
        out.filter(|_| done).map(|v| Dynamic::wrap(ctx, v))
    }
}

/// Whether `t` is a value: `true`, `false` or a numeral.
fn is_value(raw: Z3_context, t: &Dynamic) -> bool {
    // SAFETY: a live term of the context.
    unsafe {
        z3_sys::Z3_get_bool_value(raw, t.get_z3_ast()) != z3_sys::Z3_L_UNDEF
            || z3_sys::Z3_is_numeral_ast(raw, t.get_z3_ast())
    }
}

fn same(raw: Z3_context, a: &Dynamic, b: &Dynamic) -> bool {
    unlogged::note("Z3_is_eq_ast");
    // SAFETY: two live terms of the context.
    unsafe { z3_sys::Z3_is_eq_ast(raw, a.get_z3_ast(), b.get_z3_ast()) }
}

/// What a check found.
enum Outcome {
    /// Nothing to judge (an unknown answer, a propagator that gave up, a panic).
    Open(&'static str),
    Agreed,
    /// A finding: the message and the cause of its signature.
    Finding(String, String),
}

/// The assignments of `terms` that blocking clauses enumerate with a reference solver given
/// `asserted`: `None` when a check is unknown, a term has no Boolean value or there are more
/// than [`PROPAGATOR_MAX_MODELS`].
fn projections(asserted: &[Bool], terms: &[Bool]) -> Option<BTreeSet<Vec<bool>>> {
    let solver = RawSolver::reference(SOLVER_CHECK_RLIMIT, asserted)?;
    let (raw, s) = solver.raw();
    let ctx = Context::thread_local();
    let mut found = BTreeSet::new();
    loop {
        match solver.check_assumptions(&[]) {
            SatResult::Unsat => return Some(found),
            SatResult::Unknown => return None,
            SatResult::Sat => {}
        }
        if found.len() >= PROPAGATOR_MAX_MODELS {
            return None;
        }
        // SAFETY: a live solver after sat; the model is referenced while read.
        let values: Option<Vec<bool>> = unsafe {
            let model = z3_sys::Z3_solver_get_model(raw, s)?;
            z3_sys::Z3_model_inc_ref(raw, model);
            let values = terms
                .iter()
                .map(|t| {
                    eval(&ctx, raw, model, &Dynamic::from_ast(t))
                        .and_then(|v| v.as_bool()?.as_bool())
                })
                .collect();
            z3_sys::Z3_model_dec_ref(raw, model);
            values
        };
        let values = values?;
        let block = Bool::or(
            &terms
                .iter()
                .zip(&values)
                .map(|(t, v)| if *v { t.not() } else { t.clone() })
                .collect::<Vec<_>>(),
        );
        solver.assert(&block);
        found.insert(values);
    }
}

/// Whether `asserted` and the literals of `values` over `terms` are sat for a reference
/// solver (`None`: unknown).
fn consistent(asserted: &[Bool], terms: &[Bool], values: &[bool]) -> Option<bool> {
    // Asserted, not assumed: a watched term may be any Boolean formula.
    let solver = RawSolver::reference(SOLVER_CHECK_RLIMIT, asserted)?;
    for (t, v) in terms.iter().zip(values) {
        solver.assert(&if *v { t.clone() } else { t.not() });
    }
    match solver.check_assumptions(&[]) {
        SatResult::Sat => Some(true),
        SatResult::Unsat => Some(false),
        SatResult::Unknown => None,
    }
}

fn show(values: &[bool]) -> String {
    values.iter().map(|v| if *v { '1' } else { '0' }).collect()
}

/// A fresh simple solver with the propagator of `watch` and its callbacks for the mode;
/// in mode `observe` also the declared function applied to the first term, equated with a
/// fresh Boolean (which changes no projection), and the clause observer.
///
/// # Safety
/// `watch` must outlive the solver (it is the callbacks' context).
unsafe fn propagated_solver(watch: &mut Watch, asserted: &[Bool]) -> Option<RawSolver> {
    let solver = RawSolver::simple(SOLVER_CHECK_RLIMIT, asserted)?;
    let (raw, s) = solver.raw();
    let f = watch.f;
    // SAFETY: a live solver; the watch outlives it, as the caller promises.
    unsafe {
        // Every atom gets a value before the final callback: an assignment there is whole.
        let params = z3_sys::Z3_mk_params(raw)?;
        z3_sys::Z3_params_inc_ref(raw, params);
        let key = CString::new("smt.relevancy").ok()?;
        z3_sys::Z3_params_set_uint(
            raw,
            params,
            z3_sys::Z3_mk_string_symbol(raw, key.as_ptr())?,
            0,
        );
        z3_sys::Z3_solver_set_params(raw, s, params);
        z3_sys::Z3_params_dec_ref(raw, params);
        if !watch.enumerate {
            let bool_sort = z3_sys::Z3_mk_bool_sort(raw)?;
            let first = watch.terms.first()?;
            let domain = [z3_sys::Z3_get_sort(raw, first.get_z3_ast())?];
            let name = CString::new("mbt_watched").ok()?;
            let symbol = z3_sys::Z3_mk_string_symbol(raw, name.as_ptr())?;
            let decl = (f.declare)(raw, symbol, 1, domain.as_ptr(), bool_sort)?;
            watch.declared = Some(decl);
            let app = z3_sys::Z3_mk_app(raw, decl, 1, [first.get_z3_ast()].as_ptr())?;
            let app = Dynamic::wrap(&watch.ctx, app);
            let prefix = CString::new("mbt_watched").ok()?;
            let fresh = z3_sys::Z3_mk_fresh_const(raw, prefix.as_ptr(), bool_sort)?;
            let fresh = Dynamic::wrap(&watch.ctx, fresh);
            let link = z3_sys::Z3_mk_eq(raw, fresh.get_z3_ast(), app.get_z3_ast())?;
            solver.assert(&Bool::wrap(&watch.ctx, link));
        }
        let user = watch as *mut Watch as *mut c_void;
        unlogged::note("Z3_solver_propagate_init");
        (f.init)(raw, s, user, push, pop, fresh);
        unlogged::note("Z3_solver_propagate_fixed");
        (f.fixed)(raw, s, fixed);
        unlogged::note("Z3_solver_propagate_final");
        (f.final_)(raw, s, final_);
        if watch.enumerate {
            unlogged::note("Z3_solver_propagate_decide");
            (f.decide)(raw, s, decide);
        } else {
            unlogged::note("Z3_solver_propagate_eq");
            (f.eq)(raw, s, eq);
            unlogged::note("Z3_solver_propagate_diseq");
            (f.diseq)(raw, s, diseq);
            unlogged::note("Z3_solver_propagate_created");
            (f.created)(raw, s, created);
            unlogged::note("Z3_solver_propagate_on_binding");
            (f.binding)(raw, s, binding);
            unlogged::note("Z3_solver_register_on_clause");
            (f.on_clause)(raw, s, user, clause);
        }
        for t in &watch.terms {
            (f.register)(raw, s, t.get_z3_ast());
        }
    }
    Some(solver)
}

impl Executor {
    /// `check_propagator`: see [`model::Check::Propagator`]. A formula the checks cannot
    /// name, unknown answers and a propagator that gave up are no verdict.
    pub(super) fn check_propagator(
        &mut self,
        check: &Check,
        z: SolverId,
        mode: &str,
        terms: &[TermId],
    ) -> Result<(), ExecError> {
        let Some((assertions, ctx, foreign)) = self.assertions_of(z) else {
            self.count("propagator: skipped: formula not named");
            return Ok(());
        };
        let Some(watched) = self.terms_of(terms.iter().copied()) else {
            return Ok(());
        };
        let f = Functions::load().map_err(ExecError::Malformed)?;
        let wrong = matches!(
            self.config.inject,
            Some(super::inject::Fault::WrongPropagator)
        );
        let enumerate = mode == "enumerate";
        let judged = guard::in_context(&ctx, || -> Option<Outcome> {
            let local = |t: &Dynamic| super::into_context(t, &ctx, foreign);
            let asserted: Vec<Bool> = assertions
                .iter()
                .filter_map(|t| local(t).as_bool())
                .collect();
            let raw = ctx.get_z3_context();
            let mut watch = Watch {
                ctx: ctx.clone(),
                raw,
                f,
                enumerate,
                terms: watched.iter().map(local).collect(),
                declared: None,
                record: RefCell::new(Record::default()),
                panicked: Cell::new(false),
            };
            // SAFETY: `watch` is declared before the solver, so it outlives it.
            let solver = unsafe { propagated_solver(&mut watch, &asserted)? };
            let answer = solver.check_assumptions(&[]);
            if watch.panicked.get() {
                return Some(Outcome::Open("a callback panicked"));
            }
            let outcome = if enumerate {
                drop(solver);
                judge_enumeration(&watch, &asserted, answer, wrong)
            } else {
                let outcome = judge_observation(&watch, &solver, &asserted, answer, wrong);
                drop(solver);
                outcome
            };
            Some(outcome)
        });
        match judged {
            Err(message) => self.check_error(check, message),
            Ok(None) => Err(ExecError::Z3(format!(
                "{}: Z3 returned no object",
                check.name()
            ))),
            Ok(Some(Outcome::Open(why))) => {
                self.count(&format!("propagator: no verdict: {why}"));
                Ok(())
            }
            Ok(Some(Outcome::Agreed)) => {
                self.count(&format!("propagator: {mode}: agreed"));
                Ok(())
            }
            Ok(Some(Outcome::Finding(message, cause))) => Err(Self::finding(check, message, cause)),
        }
    }
}

/// Mode `enumerate`: the assignments blocked until unsat against the projections blocking
/// clauses enumerate.
fn judge_enumeration(watch: &Watch, asserted: &[Bool], answer: SatResult, wrong: bool) -> Outcome {
    let record = watch.record.borrow();
    if let Some(problem) = record.problems.first() {
        return Outcome::Finding(
            format!("the user propagator's callbacks: {problem}"),
            "a callback names what was not registered".into(),
        );
    }
    match answer {
        SatResult::Unknown => return Outcome::Open("unknown"),
        SatResult::Sat if record.gave_up => return Outcome::Open("propagator gave up"),
        SatResult::Sat => {
            return Outcome::Finding(
                format!(
                    "the solver answered sat although the user propagator blocked every assignment of the registered terms in its final callback ({} finals)",
                    record.finals
                ),
                "sat past a conflict of the final callback".into(),
            )
        }
        SatResult::Unsat if record.gave_up => return Outcome::Open("propagator gave up"),
        SatResult::Unsat => {}
    }
    let mut blocked: BTreeSet<Vec<bool>> = record.blocked.iter().cloned().collect();
    if wrong {
        let first = blocked.iter().next().cloned();
        if let Some(first) = first {
            blocked.remove(&first);
        }
    }
    let terms: Vec<Bool> = watch.terms.iter().filter_map(|t| t.as_bool()).collect();
    let Some(reference) = projections(asserted, &terms) else {
        return Outcome::Open("blocking clauses did not finish");
    };
    if let Some(missed) = reference.difference(&blocked).next() {
        return Outcome::Finding(
            format!(
                "blocking clauses find the assignment {} of the registered terms, which the user propagator never saw in a final callback before the solver answered unsat ({} assignments against {})",
                show(missed),
                blocked.len(),
                reference.len()
            ),
            "a projection the propagated search misses".into(),
        );
    }
    for extra in blocked.difference(&reference) {
        // A final callback may come before another theory's final check rejects the
        // assignment: such an assignment is no projection, and the formula says so.
        match consistent(asserted, &terms, extra) {
            Some(false) | None => {}
            Some(true) => {
                return Outcome::Finding(
                    format!(
                        "the assignment {} of the registered terms is consistent with the formula, and the user propagator saw it, but blocking clauses never found it ({} projections)",
                        show(extra),
                        reference.len()
                    ),
                    "a projection blocking clauses miss".into(),
                )
            }
        }
    }
    Outcome::Agreed
}

/// Mode `observe`: after sat, the values and equalities of the last branch hold in the
/// model; clauses observed follow from the assertions.
fn judge_observation(
    watch: &Watch,
    solver: &RawSolver,
    asserted: &[Bool],
    answer: SatResult,
    wrong: bool,
) -> Outcome {
    let record = watch.record.borrow();
    if let Some(problem) = record.problems.first() {
        return Outcome::Finding(
            format!("the user propagator's callbacks: {problem}"),
            "a callback names what was not registered".into(),
        );
    }
    if answer == SatResult::Sat {
        let (raw, s) = solver.raw();
        // SAFETY: a live solver after sat; the model is referenced while read.
        let model = unsafe {
            let Some(model) = z3_sys::Z3_solver_get_model(raw, s) else {
                return Outcome::Open("no model");
            };
            z3_sys::Z3_model_inc_ref(raw, model);
            model
        };
        let mut negate = wrong;
        let mut verdict = None;
        for event in &record.trail {
            // SAFETY: the model and the terms are live in the context.
            let value = |t: &Dynamic| {
                unsafe { eval(&watch.ctx, raw, model, t) }.filter(|v| is_value(raw, v))
            };
            match event {
                Event::Fixed(t, v) => {
                    let mut v = v.clone();
                    if negate {
                        if let Some(b) = v.as_bool() {
                            v = Dynamic::from_ast(&b.not().simplify());
                            negate = false;
                        }
                    }
                    if let Some(m) = value(t) {
                        if !same(raw, &m, &v) {
                            verdict = Some(format!(
                                "fixed reported {} = {} but the model gives {}",
                                one_line(t),
                                one_line(&v),
                                one_line(&m)
                            ));
                        }
                    }
                }
                Event::Eq(a, b, equal) => {
                    if let (Some(va), Some(vb)) = (value(a), value(b)) {
                        if same(raw, &va, &vb) != *equal {
                            verdict = Some(format!(
                                "{} reported {} and {} but the model gives {} and {}",
                                if *equal { "eq" } else { "diseq" },
                                one_line(a),
                                one_line(b),
                                one_line(&va),
                                one_line(&vb)
                            ));
                        }
                    }
                }
            }
            if verdict.is_some() {
                break;
            }
        }
        // SAFETY: referenced above.
        unsafe { z3_sys::Z3_model_dec_ref(raw, model) };
        if let Some(message) = verdict {
            return Outcome::Finding(
                format!("after sat: {message}"),
                "a propagator's value the model does not have".into(),
            );
        }
    }
    judge_clauses(watch, &record, asserted)
}

/// A sample of the clauses `on_clause` reported over the formula's own symbols: each must
/// follow from the assertions (they and the clause's negation are unsat for a reference
/// solver).
fn judge_clauses(watch: &Watch, record: &Record, asserted: &[Bool]) -> Outcome {
    let formula: Vec<Dynamic> = asserted.iter().map(|b| Dynamic::from_ast(b)).collect();
    let refs: Vec<&Dynamic> = formula.iter().collect();
    // SAFETY: live terms of the context.
    let Some(known) = (unsafe { symbols(&watch.f, watch.raw, &refs) }) else {
        return Outcome::Agreed;
    };
    let mut judged = 0;
    let mut seen: BTreeSet<Vec<usize>> = BTreeSet::new();
    // Inferred clauses first: the input's own clauses say less about the search.
    let mut order: Vec<&(String, Vec<Dynamic>)> = record.clauses.iter().collect();
    order.sort_by_key(|(hint, _)| routine_clause(hint));
    for (hint, lits) in order {
        if judged >= MAX_CLAUSES_JUDGED {
            break;
        }
        let refs: Vec<&Dynamic> = lits.iter().collect();
        // SAFETY: live terms of the context.
        let Some(used) = (unsafe { symbols(&watch.f, watch.raw, &refs) }) else {
            continue;
        };
        let key: Vec<usize> = lits
            .iter()
            .map(|l| l.get_z3_ast().as_ptr() as usize)
            .collect();
        if !used.is_subset(&known)
            || lits.iter().any(|l| l.as_bool().is_none())
            || !seen.insert(key)
        {
            continue;
        }
        judged += 1;
        let Some(solver) = RawSolver::reference(SOLVER_CHECK_RLIMIT, asserted) else {
            return Outcome::Open("no reference solver");
        };
        for l in lits.iter().filter_map(|l| l.as_bool()) {
            solver.assert(&l.not());
        }
        if solver.check_assumptions(&[]) == SatResult::Sat {
            let text: Vec<String> = lits.iter().map(one_line).collect();
            return Outcome::Finding(
                format!(
                    "on_clause reported the clause ({}) with proof hint {:?}, which the assertions do not imply",
                    text.join(" | "),
                    hint
                ),
                "a clause observed that does not follow".into(),
            );
        }
    }
    Outcome::Agreed
}
