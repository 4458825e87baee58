//! The solver queries of `solver_read` (`model::goals::SOLVER_QUERIES`), each asked of a copy
//! of the trace's solver (see `introspect.rs`) and judged: the trail's decision levels
//! (`Z3_solver_get_levels`), the DIMACS text (`Z3_solver_to_dimacs_string`), implied
//! equalities (`Z3_get_implied_equalities`), the copy's text parsed from a file
//! (`Z3_parse_smtlib2_file`) and, in releases after 4.8.12 (looked up by name,
//! `model::goals::NEWER_SOLVER_READERS`), solutions (`Z3_solver_solve_for`) and function
//! substitution (`Z3_substitute_funs`).
//!
//! Each returns `Ok` with the recorded text (`ok`), `Err("finding: ...")` for a wrong answer
//! (the caller makes the finding), or another `Err` for what could not run. A refusal of
//! Z3 stops the query at once: the caller's guard records it.

use super::raw_solver::RawSolver;
use super::read::kinds::{APP_AST, BOOL_SORT, INT_SORT, QUANTIFIER_AST, REAL_SORT, VAR_AST};
use super::{guard, read, unlogged};
use model::SolverId;
use std::collections::HashMap;
use std::ffi::{c_char, c_uint, CString};
use z3::ast::{Ast, Bool, Dynamic};
use z3::Context;
use z3_sys::{Z3_ast, Z3_ast_vector, Z3_context, Z3_func_decl, Z3_solver};

/// At most this many pairs, solutions or terms are judged per query (a fresh check each).
const MAX_JUDGED: usize = 3;

/// At most this many constants are asked about (`Z3_get_implied_equalities`).
const MAX_TERMS: usize = 6;

/// The range of the core operation kinds (`Z3_OP_TRUE` = 0x100 ..., fixed in z3_api.h in
/// every release).
const CORE_KINDS: std::ops::Range<c_uint> = 0x100..0x200;

type KindOf<T> = unsafe extern "C" fn(Z3_context, T) -> c_uint;
type SolveFor =
    unsafe extern "C" fn(Z3_context, Z3_solver, Z3_ast_vector, Z3_ast_vector, Z3_ast_vector);
type SubstituteFuns = unsafe extern "C" fn(
    Z3_context,
    Z3_ast,
    c_uint,
    *const Z3_func_decl,
    *const Z3_ast,
) -> Option<Z3_ast>;

/// The query `function` of `copy` (given `all`, the solver's assertions), or `None` if it is
/// none of this module's.
pub(super) fn query(
    function: &str,
    copy: &RawSolver,
    all: &[Bool],
    z: SolverId,
    inject: bool,
) -> Option<Result<String, String>> {
    Some(match function {
        "Z3_solver_get_levels" => levels(all, z, inject),
        "Z3_solver_to_dimacs_string" => dimacs(copy, all, z, inject),
        "Z3_get_implied_equalities" => implied_equalities(copy, all, z, inject),
        "Z3_parse_smtlib2_file" => parse_file(copy, z, inject),
        "Z3_solver_solve_for" => solve_for(all, z, inject),
        "Z3_substitute_funs" => substitute_funs(all, z, inject),
        _ => return None,
    })
}

/// Whether Z3 set an error on `c` (the caller's guard records it as the call's refusal).
fn refused(c: Z3_context) -> bool {
    guard::z3_error(c).is_some()
}

/// Whether `assertions` and `extra` are unsat for a reference solver (`None`: unknown).
fn unsat_with(all: &[Bool], extra: &[Bool]) -> Result<Option<bool>, String> {
    let mut fml = all.to_vec();
    fml.extend_from_slice(extra);
    let judge = RawSolver::reference(super::introspect::READ_RLIMIT, &fml).ok_or("no solver")?;
    Ok(match judge.check_assumptions(&[]) {
        z3::SatResult::Unsat => Some(true),
        z3::SatResult::Sat => Some(false),
        z3::SatResult::Unknown => None,
    })
}

/// The kind functions, looked up by name (a release may answer a kind the z3-sys enums
/// lack).
pub(super) struct Kinds {
    ast: KindOf<Z3_ast>,
    decl: KindOf<Z3_func_decl>,
    sort: KindOf<z3_sys::Z3_sort>,
    /// `Z3_OP_UNINTERPRETED` of the loaded libz3 (it moves between releases).
    uninterpreted: c_uint,
}

impl Kinds {
    pub(super) fn load(c: Z3_context) -> Result<Kinds, String> {
        // SAFETY: each type is the function's z3_api.h signature, the kinds as numbers; the
        // probe is a fresh constant of the live context.
        unsafe {
            let ast: KindOf<Z3_ast> = read::typed("Z3_get_ast_kind")?;
            let decl: KindOf<Z3_func_decl> = read::typed("Z3_get_decl_kind")?;
            let sort: KindOf<z3_sys::Z3_sort> = read::typed("Z3_get_sort_kind")?;
            let prefix = CString::new("mbt").map_err(|e| e.to_string())?;
            let probe = z3_sys::Z3_mk_bool_sort(c)
                .and_then(|b| z3_sys::Z3_mk_fresh_const(c, prefix.as_ptr(), b))
                .and_then(|k| z3_sys::Z3_to_app(c, k))
                .and_then(|app| z3_sys::Z3_get_app_decl(c, app))
                .ok_or("no probe constant")?;
            Ok(Kinds {
                ast,
                decl,
                sort,
                uninterpreted: decl(c, probe),
            })
        }
    }
}

/// What the assertions apply: the uninterpreted declarations in the order met (with their
/// arity), and whether a bound variable or quantifier occurs.
pub(super) struct Applied {
    pub(super) decls: Vec<(Z3_func_decl, u32)>,
    pub(super) binders: bool,
}

/// # Safety
/// `c` is the live context of `terms`.
pub(super) unsafe fn applied(k: &Kinds, c: Z3_context, terms: &[Z3_ast]) -> Applied {
    let mut seen = std::collections::HashSet::new();
    let mut out = Applied {
        decls: Vec::new(),
        binders: false,
    };
    let mut todo: Vec<Z3_ast> = terms.iter().rev().copied().collect();
    while let Some(a) = todo.pop() {
        if !seen.insert(z3_sys::Z3_get_ast_id(c, a)) {
            continue;
        }
        match (k.ast)(c, a) {
            APP_AST => {}
            VAR_AST | QUANTIFIER_AST => {
                out.binders = true;
                continue;
            }
            _ => continue,
        }
        let Some(app) = z3_sys::Z3_to_app(c, a) else {
            continue;
        };
        let n = z3_sys::Z3_get_app_num_args(c, app);
        if let Some(d) = z3_sys::Z3_get_app_decl(c, app) {
            if (k.decl)(c, d) == k.uninterpreted && !out.decls.iter().any(|(e, _)| *e == d) {
                out.decls.push((d, n));
            }
        }
        for i in (0..n).rev() {
            todo.extend(z3_sys::Z3_get_app_arg(c, app, i));
        }
    }
    out
}

/// Whether `terms` are propositional: every subterm a Boolean, made by a core connective or
/// an uninterpreted constant. Z3's DIMACS writer writes any other atom (a bit-vector
/// comparison or a pseudo-Boolean constraint too: it does not bit-blast) as a Boolean
/// variable, which loses its theory.
///
/// # Safety
/// `c` is the live context of `terms`.
unsafe fn propositional(k: &Kinds, c: Z3_context, terms: &[Z3_ast]) -> bool {
    let found = applied(k, c, terms);
    if found.binders || found.decls.iter().any(|(_, arity)| *arity > 0) {
        return false;
    }
    let mut seen = std::collections::HashSet::new();
    let mut todo = terms.to_vec();
    while let Some(a) = todo.pop() {
        if !seen.insert(z3_sys::Z3_get_ast_id(c, a)) {
            continue;
        }
        let sort_ok = z3_sys::Z3_get_sort(c, a).is_some_and(|s| (k.sort)(c, s) == BOOL_SORT);
        if !sort_ok {
            return false;
        }
        if let Some(app) = z3_sys::Z3_to_app(c, a) {
            let kind = z3_sys::Z3_get_app_decl(c, app).map(|d| (k.decl)(c, d));
            let core =
                kind.is_some_and(|kind| kind == k.uninterpreted || CORE_KINDS.contains(&kind));
            if !core {
                return false;
            }
            for i in 0..z3_sys::Z3_get_app_num_args(c, app) {
                todo.extend(z3_sys::Z3_get_app_arg(c, app, i));
            }
        }
    }
    true
}

/// The trail after a check and its levels (`Z3_solver_get_levels`), of a simple solver given
/// the assertions (Z3 keeps no trail for the solvers its tactics run, a default solver's
/// among them): none above the number of literals on the trail, and never lower than an
/// earlier literal's (the trail is "in order of decision level").
fn levels(all: &[Bool], z: SolverId, inject: bool) -> Result<String, String> {
    let solver = RawSolver::simple(super::introspect::READ_RLIMIT, all).ok_or("no solver")?;
    let (c, s) = solver.raw();
    solver.check_assumptions(&[]);
    // SAFETY: a live solver after a check; the trail is referenced while read.
    let levels = unsafe {
        let Some(trail) = z3_sys::Z3_solver_get_trail(c, s) else {
            return Ok("ok".into());
        };
        if refused(c) {
            return Ok("ok".into());
        }
        z3_sys::Z3_ast_vector_inc_ref(c, trail);
        let n = z3_sys::Z3_ast_vector_size(c, trail);
        let mut levels = vec![0u32; n as usize];
        if n > 0 {
            z3_sys::Z3_solver_get_levels(c, s, trail, n, levels.as_mut_ptr());
        }
        z3_sys::Z3_ast_vector_dec_ref(c, trail);
        levels
    };
    let n = levels.len() as u32;
    let mut levels = levels;
    if inject {
        levels.push(n + 2);
    }
    if let Some((i, level)) = levels.iter().enumerate().find(|(_, l)| **l > n) {
        return Err(format!(
            "finding: Z3_solver_get_levels gives literal {i} of the trail of a simple solver \
             given the assertions of solver {z} level {level}, above the trail's {n} literals"
        ));
    }
    if let Some(i) = (1..levels.len()).find(|i| levels[*i] < levels[i - 1]) {
        return Err(format!(
            "finding: Z3_solver_get_levels gives literal {i} of the trail of a simple solver \
             given the assertions of solver {z} level {}, below level {} of the literal before \
             it",
            levels[i],
            levels[i - 1]
        ));
    }
    Ok("ok".into())
}

/// A DIMACS text: the header's variable and clause counts and the clauses (the literals
/// without their closing 0).
#[derive(Debug, PartialEq, Eq)]
pub struct Dimacs {
    pub variables: u64,
    pub clauses_declared: u64,
    pub clauses: Vec<Vec<i64>>,
}

/// Reads a DIMACS CNF text: comment lines (`c`), one header `p cnf V C`, clauses of
/// non-zero literals each closed by 0. An error names what is malformed.
pub fn parse_dimacs(text: &str) -> Result<Dimacs, String> {
    let mut header = None;
    let (mut clauses, mut clause) = (Vec::new(), Vec::new());
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('c') {
            continue;
        }
        if let Some(rest) = line.strip_prefix('p') {
            let fields: Vec<&str> = rest.split_whitespace().collect();
            match fields.as_slice() {
                ["cnf", v, c] if header.is_none() => {
                    let v = v
                        .parse()
                        .map_err(|_| format!("line {}: bad count", i + 1))?;
                    let c = c
                        .parse()
                        .map_err(|_| format!("line {}: bad count", i + 1))?;
                    header = Some((v, c));
                }
                _ => return Err(format!("line {}: a second or malformed header", i + 1)),
            }
            continue;
        }
        if header.is_none() {
            return Err(format!("line {}: a clause before the header", i + 1));
        }
        for word in line.split_whitespace() {
            let lit: i64 = word
                .parse()
                .map_err(|_| format!("line {}: `{word}` is no literal", i + 1))?;
            if lit == 0 {
                clauses.push(std::mem::take(&mut clause));
            } else {
                clause.push(lit);
            }
        }
    }
    if !clause.is_empty() {
        return Err("the last clause is not closed by 0".into());
    }
    let (variables, clauses_declared) = header.ok_or("no `p cnf` header")?;
    Ok(Dimacs {
        variables,
        clauses_declared,
        clauses,
    })
}

/// What is wrong with a DIMACS text's counts, if anything.
pub fn dimacs_count_error(d: &Dimacs) -> Option<String> {
    if d.clauses.len() as u64 != d.clauses_declared {
        return Some(format!(
            "its header declares {} clauses, it has {}",
            d.clauses_declared,
            d.clauses.len()
        ));
    }
    d.clauses
        .iter()
        .flatten()
        .find(|l| l.unsigned_abs() > d.variables)
        .map(|l| {
            format!(
                "literal {l} names a variable above the header's {}",
                d.variables
            )
        })
}

/// `Z3_solver_to_dimacs_string` of the copy (Z3 refuses some problems, and writes the atoms
/// of other theories as Boolean variables): the header's counts match the clauses, and,
/// where the assertions are propositional ([`propositional`]), the clauses
/// as a formula of fresh Boolean constants have the copy's definite answer for a reference
/// solver.
fn dimacs(copy: &RawSolver, all: &[Bool], z: SolverId, inject: bool) -> Result<String, String> {
    let (c, s) = copy.raw();
    // SAFETY: a live solver; the text is copied at once.
    let text = unsafe { z3_sys::Z3_solver_to_dimacs_string(c, s, true) };
    // Z3 logs it as `Z3_solver_to_string`.
    unlogged::note("Z3_solver_to_dimacs_string");
    if refused(c) || text.is_null() {
        return Ok("ok".into());
    }
    let text = read::text(text)?;
    let mut d = parse_dimacs(&text)
        .map_err(|e| format!("finding: the DIMACS text of a copy of solver {z}: {e}"))?;
    if inject {
        d.clauses_declared += 1;
    }
    if let Some(problem) = dimacs_count_error(&d) {
        return Err(format!(
            "finding: the DIMACS text of a copy of solver {z}: {problem}"
        ));
    }
    let k = Kinds::load(c)?;
    let asts: Vec<Z3_ast> = all.iter().map(|b| b.get_z3_ast()).collect();
    // SAFETY: live terms of the context.
    if !unsafe { propositional(&k, c, &asts) } {
        return Ok("ok".into());
    }
    let answer = copy.check_assumptions(&[]);
    if answer == z3::SatResult::Unknown {
        return Ok("ok".into());
    }
    let vars: Vec<Bool> = (1..=d.variables)
        .map(|i| Bool::new_const(format!("mbt!dimacs!{i}")))
        .collect();
    let clauses: Vec<Bool> = d
        .clauses
        .iter()
        .map(|clause| {
            let lits: Vec<Bool> = clause
                .iter()
                .map(|l| {
                    let v = &vars[(l.unsigned_abs() - 1) as usize];
                    if *l > 0 {
                        v.clone()
                    } else {
                        v.not()
                    }
                })
                .collect();
            Bool::or(&lits)
        })
        .collect();
    let back = match unsat_with(&clauses, &[])? {
        Some(true) => z3::SatResult::Unsat,
        Some(false) => z3::SatResult::Sat,
        None => return Ok("ok".into()),
    };
    if back != answer {
        return Err(format!(
            "finding: a copy of solver {z} answers {answer:?}, its DIMACS text ({} variables, \
             {} clauses) {back:?}",
            d.variables, d.clauses_declared
        ));
    }
    Ok("ok".into())
}

/// `Z3_get_implied_equalities` of the assertions' uninterpreted constants (at most
/// [`MAX_TERMS`]) on the copy: where it answers sat, two constants of one class are equal
/// in every model (their disequality with the assertions is unsat for a reference solver).
fn implied_equalities(
    copy: &RawSolver,
    all: &[Bool],
    z: SolverId,
    inject: bool,
) -> Result<String, String> {
    let (c, s) = copy.raw();
    let ctx = Context::thread_local();
    let k = Kinds::load(c)?;
    let asts: Vec<Z3_ast> = all.iter().map(|b| b.get_z3_ast()).collect();
    // SAFETY: live terms of the context; the constants are referenced by `wrap`.
    let terms: Vec<Dynamic> = unsafe {
        applied(&k, c, &asts)
            .decls
            .iter()
            .filter(|(_, arity)| *arity == 0)
            .filter_map(|(d, _)| z3_sys::Z3_mk_app(c, *d, 0, std::ptr::null()))
            .take(MAX_TERMS)
            .map(|a| Dynamic::wrap(&ctx, a))
            .collect()
    };
    let raw: Vec<Z3_ast> = terms.iter().map(|t| t.get_z3_ast()).collect();
    let mut classes = vec![0u32; raw.len()];
    // SAFETY: a live solver, arrays of the terms' length.
    let answer = unsafe {
        z3_sys::Z3_get_implied_equalities(
            c,
            s,
            raw.len() as c_uint,
            raw.as_ptr(),
            classes.as_mut_ptr(),
        )
    };
    if refused(c) || answer != z3_sys::Z3_L_TRUE {
        return Ok("ok".into());
    }
    let same_sort = |i: usize, j: usize| terms[i].get_sort() == terms[j].get_sort();
    let mut pairs: Vec<(usize, usize)> = (0..terms.len())
        .flat_map(|i| (i + 1..terms.len()).map(move |j| (i, j)))
        .filter(|(i, j)| classes[*i] == classes[*j] && same_sort(*i, *j))
        .collect();
    if inject {
        // Two constants of one sort in different classes read as one class.
        pairs.extend(
            (0..terms.len())
                .flat_map(|i| (i + 1..terms.len()).map(move |j| (i, j)))
                .filter(|(i, j)| classes[*i] != classes[*j] && same_sort(*i, *j))
                .take(1),
        );
        pairs.reverse();
    }
    for (i, j) in pairs.into_iter().take(MAX_JUDGED) {
        let differ = terms[i].eq(&terms[j]).not();
        if unsat_with(all, &[differ])? == Some(false) {
            return Err(format!(
                "finding: Z3_get_implied_equalities puts `{}` and `{}` of a copy of solver {z} \
                 in one class, and a model of its assertions tells them apart",
                terms[i], terms[j]
            ));
        }
    }
    Ok("ok".into())
}

/// The assertions of a vector Z3 parsed, referenced by `wrap`.
///
/// # Safety
/// `v` is a live vector of `c`, the thread-local context.
unsafe fn parsed(c: Z3_context, v: Z3_ast_vector) -> Vec<Dynamic> {
    debug_assert_eq!(c, Context::thread_local().get_z3_context());
    super::read::ast_vector_items(&Context::thread_local(), v)
}

/// The copy's text (`Z3_solver_to_string`) written to a file of a private folder and parsed
/// from it (`Z3_parse_smtlib2_file`) and from the text (`Z3_parse_smtlib2_string`): the
/// same assertions, one for one. A text Z3 parses neither way (names it printed for its own
/// objects) is no verdict; one way only is a finding.
fn parse_file(copy: &RawSolver, z: SolverId, inject: bool) -> Result<String, String> {
    let (c, s) = copy.raw();
    // SAFETY: a live solver; the text is copied at once.
    let text = read::text(unsafe { z3_sys::Z3_solver_to_string(c, s) })?;
    let folder = tempfile::Builder::new()
        .prefix("parse-file")
        .tempdir()
        .map_err(|e| e.to_string())?;
    let path = folder.path().join("solver.smt2");
    std::fs::write(&path, &text).map_err(|e| e.to_string())?;
    let path = CString::new(path.to_string_lossy().into_owned()).map_err(|e| e.to_string())?;
    let text = CString::new(text).map_err(|e| e.to_string())?;
    let ctx = Context::thread_local();
    let parse = |from_file: bool| {
        // Z3's refusal is no error of the query: a guard of its own, the code cleared after.
        let got = guard::guarded(&ctx, || {
            // SAFETY: a live context; the strings live across the calls.
            unsafe {
                let (symbols, sorts, decls) =
                    (std::ptr::null(), std::ptr::null(), std::ptr::null());
                let v = if from_file {
                    // Z3 logs it as `Z3_parse_smtlib2_string`.
                    unlogged::note("Z3_parse_smtlib2_file");
                    z3_sys::Z3_parse_smtlib2_file(
                        c,
                        path.as_ptr(),
                        0,
                        symbols,
                        sorts,
                        0,
                        symbols,
                        decls,
                    )
                } else {
                    z3_sys::Z3_parse_smtlib2_string(
                        c,
                        text.as_ptr(),
                        0,
                        symbols,
                        sorts,
                        0,
                        symbols,
                        decls,
                    )
                };
                v.map(|v| parsed(c, v))
            }
        });
        // SAFETY: a live context.
        unsafe { z3_sys::Z3_set_error(c, z3_sys::ErrorCode::Ok) };
        got.ok().flatten()
    };
    let (from_file, from_text) = (parse(true), parse(false));
    let (mut from_file, from_text) = match (from_file, from_text) {
        (None, None) => return Ok("ok".into()),
        (Some(f), Some(t)) => (f, t),
        (f, _) => {
            return Err(format!(
                "finding: the text of a copy of solver {z} parses {} and not {}",
                if f.is_some() {
                    "from a file"
                } else {
                    "as a string"
                },
                if f.is_some() {
                    "as a string"
                } else {
                    "from a file"
                },
            ))
        }
    };
    if inject {
        from_file.pop();
    }
    if from_file.len() != from_text.len() {
        return Err(format!(
            "finding: the text of a copy of solver {z} parses to {} assertions from a file, \
             {} as a string",
            from_file.len(),
            from_text.len()
        ));
    }
    for (i, (a, b)) in from_file.iter().zip(&from_text).enumerate() {
        unlogged::note("Z3_is_eq_ast");
        // SAFETY: live terms of one context.
        if !unsafe { z3_sys::Z3_is_eq_ast(c, a.get_z3_ast(), b.get_z3_ast()) } {
            return Err(format!(
                "finding: assertion {i} of the text of a copy of solver {z} parses to `{a}` \
                 from a file and to `{b}` as a string"
            ));
        }
    }
    Ok("ok".into())
}

/// An AST vector of the thread-local context, released on drop.
struct OutVector {
    c: Z3_context,
    v: Z3_ast_vector,
}

impl OutVector {
    fn new(c: Z3_context, items: &[Z3_ast]) -> Result<OutVector, String> {
        // SAFETY: a new vector of a live context, referenced until drop.
        unsafe {
            let v = z3_sys::Z3_mk_ast_vector(c).ok_or("no vector")?;
            z3_sys::Z3_ast_vector_inc_ref(c, v);
            for a in items {
                z3_sys::Z3_ast_vector_push(c, v, *a);
            }
            Ok(OutVector { c, v })
        }
    }

    fn items(&self) -> Vec<Dynamic> {
        let ctx = Context::thread_local();
        // SAFETY: indices below the size; `wrap` references each element.
        unsafe {
            (0..z3_sys::Z3_ast_vector_size(self.c, self.v))
                .filter_map(|i| z3_sys::Z3_ast_vector_get(self.c, self.v, i))
                .map(|a| Dynamic::wrap(&ctx, a))
                .collect()
        }
    }
}

impl Drop for OutVector {
    fn drop(&mut self) {
        // SAFETY: referenced in `new`.
        unsafe { z3_sys::Z3_ast_vector_dec_ref(self.c, self.v) }
    }
}

/// `Z3_solver_solve_for` of the assertions' Int and Real constants on a simple solver (the
/// SMT core, whose arithmetic gives solutions) after a check: under its guard, each
/// solution follows from the assertions (`v = t` with the assertions and the guard is not
/// sat for a reference solver).
fn solve_for(all: &[Bool], z: SolverId, inject: bool) -> Result<String, String> {
    // SAFETY: the function's z3_api.h signature.
    let solve: SolveFor = unsafe { read::typed("Z3_solver_solve_for")? };
    let solver = RawSolver::simple(super::introspect::READ_RLIMIT, all).ok_or("no solver")?;
    let (c, s) = solver.raw();
    let k = Kinds::load(c)?;
    let asts: Vec<Z3_ast> = all.iter().map(|b| b.get_z3_ast()).collect();
    let ctx = Context::thread_local();
    // SAFETY: live terms of the context; each constant is referenced (`wrap`) when made.
    let constants: Vec<Dynamic> = unsafe {
        applied(&k, c, &asts)
            .decls
            .iter()
            .filter(|(d, arity)| {
                *arity == 0
                    && z3_sys::Z3_get_range(c, *d)
                        .is_some_and(|r| matches!((k.sort)(c, r), INT_SORT | REAL_SORT))
            })
            .filter_map(|(d, _)| z3_sys::Z3_mk_app(c, *d, 0, std::ptr::null()))
            .take(MAX_JUDGED)
            .map(|a| Dynamic::wrap(&ctx, a))
            .collect()
    };
    let vars: Vec<Z3_ast> = constants.iter().map(|v| v.get_z3_ast()).collect();
    let held = OutVector::new(c, &vars)?;
    if solver.check_assumptions(&[]) != z3::SatResult::Sat {
        return Ok("ok".into());
    }
    let (terms, guards) = (OutVector::new(c, &[])?, OutVector::new(c, &[])?);
    // SAFETY: a live solver and vectors of its context.
    unsafe { solve(c, s, held.v, terms.v, guards.v) };
    if refused(c) {
        return Ok("ok".into());
    }
    let (solved, terms, guards) = (held.items(), terms.items(), guards.items());
    for ((v, t), g) in solved.iter().zip(&terms).zip(&guards) {
        let Some(g) = g.as_bool() else {
            continue;
        };
        let t = if inject {
            // The solution read one more.
            Dynamic::from_ast(
                &(t.as_int().map(|i| Dynamic::from_ast(&(i + 1)))).unwrap_or_else(|| t.clone()),
            )
        } else {
            t.clone()
        };
        if v.get_sort() != t.get_sort() {
            return Err(format!(
                "finding: Z3_solver_solve_for solves `{v}` of a copy of solver {z} as `{t}` of \
                 another sort"
            ));
        }
        if unsat_with(all, &[g.clone(), v.eq(&t).not()])? == Some(false) {
            return Err(format!(
                "finding: Z3_solver_solve_for solves `{v}` of a copy of solver {z} as `{t}` \
                 under `{g}`, which its assertions do not imply"
            ));
        }
    }
    Ok("ok".into())
}

/// `t` with every application of `f` replaced by `body` over its (replaced) arguments
/// (`Z3_substitute_vars`: variable i is argument i), rebuilt application by application.
///
/// # Safety
/// `c` is the live context of the terms; `t` holds no bound variable or quantifier.
unsafe fn substituted_by_hand(
    k: &Kinds,
    c: Z3_context,
    t: Z3_ast,
    f: Z3_func_decl,
    body: Z3_ast,
) -> Option<Z3_ast> {
    // Post-order on an explicit stack; results by AST id (the terms stay referenced by the
    // assertions and the result vector).
    let mut done: HashMap<c_uint, Z3_ast> = HashMap::new();
    let keep = OutVector::new(c, &[]).ok()?;
    let mut todo = vec![(t, false)];
    while let Some((a, expanded)) = todo.pop() {
        let id = z3_sys::Z3_get_ast_id(c, a);
        if done.contains_key(&id) {
            continue;
        }
        let app = ((k.ast)(c, a) == APP_AST)
            .then(|| z3_sys::Z3_to_app(c, a))
            .flatten();
        let Some(app) = app else {
            done.insert(id, a);
            continue;
        };
        let n = z3_sys::Z3_get_app_num_args(c, app);
        let args: Vec<Z3_ast> = (0..n)
            .filter_map(|i| z3_sys::Z3_get_app_arg(c, app, i))
            .collect();
        if !expanded {
            todo.push((a, true));
            todo.extend(args.iter().map(|x| (*x, false)));
            continue;
        }
        let new_args: Vec<Z3_ast> = args
            .iter()
            .map(|x| done[&z3_sys::Z3_get_ast_id(c, *x)])
            .collect();
        let decl = z3_sys::Z3_get_app_decl(c, app)?;
        let built = if decl == f {
            z3_sys::Z3_substitute_vars(c, body, n, new_args.as_ptr())?
        } else if new_args != args {
            z3_sys::Z3_mk_app(c, decl, n, new_args.as_ptr())?
        } else {
            a
        };
        z3_sys::Z3_ast_vector_push(c, keep.v, built);
        done.insert(id, built);
    }
    let out = done.get(&z3_sys::Z3_get_ast_id(c, t)).copied();
    // The result outlives the vector: referenced once more, released by `wrap`'s owner.
    if let Some(out) = out {
        z3_sys::Z3_inc_ref(c, out);
    }
    out
}

/// `Z3_substitute_funs` of the conjunction of the assertions without binders, the first
/// uninterpreted function they apply (a constant where they apply none) replaced by a body:
/// its first argument of its range's sort where it has one, a fresh constant otherwise. The result is the term substituted by hand
/// ([`substituted_by_hand`]), or a reference solver cannot tell the two apart.
fn substitute_funs(all: &[Bool], z: SolverId, inject: bool) -> Result<String, String> {
    // SAFETY: the function's z3_api.h signature.
    let substitute: SubstituteFuns = unsafe { read::typed("Z3_substitute_funs")? };
    let ctx = Context::thread_local();
    let c = ctx.get_z3_context();
    let k = Kinds::load(c)?;
    // The assertions without quantifiers or bound variables (the substitution by hand does
    // not go under binders).
    // SAFETY: live terms of the context.
    let plain: Vec<Bool> = all
        .iter()
        .filter(|b| !unsafe { applied(&k, c, &[b.get_z3_ast()]) }.binders)
        .cloned()
        .collect();
    if plain.is_empty() {
        return Ok("ok".into());
    }
    let conjunction = Bool::and(&plain);
    let t = conjunction.get_z3_ast();
    // SAFETY: live terms of the context; every AST made is referenced (by `wrap`, or held by
    // the terms it is part of) before the next call.
    unsafe {
        let found = applied(&k, c, &[t]);
        // A function where the assertions apply one, else a constant.
        let Some(&(f, arity)) = found
            .decls
            .iter()
            .find(|(_, arity)| *arity > 0)
            .or(found.decls.first())
        else {
            return Ok("ok".into());
        };
        let range = z3_sys::Z3_get_range(c, f).ok_or("no range")?;
        let same = (0..arity).find(|i| {
            z3_sys::Z3_get_domain(c, f, *i).is_some_and(|d| z3_sys::Z3_is_eq_sort(c, d, range))
        });
        let prefix = CString::new("mbt").map_err(|e| e.to_string())?;
        let body = match same {
            Some(i) => z3_sys::Z3_mk_bound(c, i, range),
            None => z3_sys::Z3_mk_fresh_const(c, prefix.as_ptr() as *const c_char, range),
        }
        .ok_or("no body")?;
        let body = Dynamic::wrap(&ctx, body);
        let got = substitute(c, t, 1, &f, &body.get_z3_ast());
        if refused(c) {
            return Ok("ok".into());
        }
        let got = Dynamic::wrap(&ctx, got.ok_or("no result")?);
        let by_hand = substituted_by_hand(&k, c, t, f, body.get_z3_ast()).ok_or("no result")?;
        // `wrap` takes its own reference: the one taken for the caller is released here.
        let by_hand_term = Dynamic::wrap(&ctx, by_hand);
        z3_sys::Z3_dec_ref(c, by_hand);
        let by_hand = match (inject, by_hand_term.as_bool()) {
            (true, Some(b)) => Dynamic::from_ast(&b.not()),
            _ => by_hand_term,
        };
        unlogged::note("Z3_is_eq_ast");
        if z3_sys::Z3_is_eq_ast(c, got.get_z3_ast(), by_hand.get_z3_ast()) {
            return Ok("ok".into());
        }
        let differ = got.eq(&by_hand).not();
        if unsat_with(&[], &[differ])? == Some(false) {
            return Err(format!(
                "finding: Z3_substitute_funs of the assertions of a copy of solver {z} gives \
                 `{got}`, substituted by hand `{by_hand}`: a model tells them apart"
            ));
        }
    }
    Ok("ok".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dimacs_texts_are_read_with_their_counts() {
        let d = parse_dimacs("c 1 x\np cnf 2 2\n1 -2 0\n2 0\n").unwrap();
        assert_eq!(d.variables, 2);
        assert_eq!(d.clauses, vec![vec![1, -2], vec![2]]);
        assert_eq!(dimacs_count_error(&d), None);
        let short = parse_dimacs("p cnf 2 3\n1 -2 0\n2 0\n").unwrap();
        assert!(dimacs_count_error(&short).unwrap().contains("declares 3"));
        let wide = parse_dimacs("p cnf 1 1\n1 -2 0\n").unwrap();
        assert!(dimacs_count_error(&wide).unwrap().contains("-2"));
        assert!(parse_dimacs("1 0\np cnf 1 1\n").is_err());
        assert!(parse_dimacs("p cnf 1 1\n1\n").is_err());
        assert!(parse_dimacs("c only\n").is_err());
    }
}
