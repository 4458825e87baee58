//! AST maps and vectors (`ast_map`, `ast_vector`), the global reads (`read_global`) and the
//! print modes (`read "Z3_set_ast_print_mode"`), through `z3-sys` on raw handles (the `z3`
//! crate wraps none of them), each judged against `model::handles`' reference containers or
//! what the model knows. A disagreement is a `read-back` finding.
//!
//! Every handle made here is referenced while used and released before the call returns;
//! print modes and global parameters are put back as they were (a round's settings are made
//! again after `Z3_global_param_reset_all`).

use super::{guard, inject, read, z3err, ExecError, Executor};
use model::call::TermId;
use model::finding::{Failure, FailureKind};
use model::handles::{MapOp, RefMap, RefVector, VectorOp};
use std::collections::HashMap;
use std::ffi::{c_char, c_uint, c_void, CString};
use std::sync::atomic::{AtomicBool, Ordering};
use z3::ast::Ast;
use z3_sys::*;

/// A check that does not hold: its message and the cause a finding's signature names.
type Verdict = Result<(), (String, String)>;

fn fail(message: String, cause: &str) -> Verdict {
    Err((message, cause.to_string()))
}

fn cstring(text: &str) -> Result<CString, ExecError> {
    CString::new(text).map_err(|_| ExecError::Malformed(format!("`{text}` holds a NUL")))
}

/// The string Z3 returned, copied (empty for NULL).
///
/// # Safety
/// `p` is NULL or a NUL-terminated string Z3 owns until its next call.
unsafe fn copied(p: *const c_char) -> String {
    read::text(p).unwrap_or_default()
}

/// The names of parameter descriptions (referenced by the caller).
///
/// # Safety
/// A live context and descriptions.
unsafe fn descr_names(ctx: Z3_context, d: Z3_param_descrs) -> Vec<(String, ParamKind)> {
    (0..Z3_param_descrs_size(ctx, d))
        .filter_map(|i| {
            let symbol = Z3_param_descrs_get_name(ctx, d, i)?;
            let name = copied(Z3_get_symbol_string(ctx, symbol));
            Some((name, Z3_param_descrs_get_kind(ctx, d, symbol)))
        })
        .collect()
}

impl Executor {
    /// Turns a verdict of the call named `call` into a `read-back` finding (with checks on).
    fn judged(&self, verdict: Verdict, call: &str) -> Result<(), ExecError> {
        match verdict {
            Err((message, cause)) if self.config.run_checks => Err(ExecError::Oracle(
                Failure::new(FailureKind::ReadBack, message)
                    .with_cause(cause)
                    .at_call(call),
            )),
            _ => Ok(()),
        }
    }

    fn wrong_read(&self) -> bool {
        matches!(self.config.inject, Some(inject::Fault::WrongRead))
    }

    /// `ast_map`: the script of `model::handles::map_ops` on a fresh `Z3_ast_map`, judged
    /// step by step against a reference map keyed by Z3's AST ids.
    pub(super) fn ast_map(&mut self, pairs: &[(TermId, TermId)]) -> Result<(), ExecError> {
        let mut asts: HashMap<TermId, Z3_ast> = HashMap::new();
        for (k, v) in pairs {
            asts.insert(*k, self.z3_term(*k)?.get_z3_ast());
            asts.insert(*v, self.z3_term(*v)?.get_z3_ast());
        }
        let ops = model::handles::map_ops(pairs);
        let ctx = self.main.get_z3_context();
        let wrong = self.wrong_read();
        // SAFETY: the map lives (referenced) within this block; keys and values are live
        // terms of the thread-local context, which the executor keeps.
        let verdict = self.main(|| unsafe {
            let Some(map) = Z3_mk_ast_map(ctx) else {
                return fail("Z3_mk_ast_map gave no map".into(), "Z3_mk_ast_map");
            };
            Z3_ast_map_inc_ref(ctx, map);
            // Printed with shared subterms as `let`s, as vectors are; the default put back.
            Z3_set_ast_print_mode(ctx, AstPrintMode::Smtlib2Compliant);
            let verdict = run_map(ctx, map, &ops, &asts, wrong);
            Z3_set_ast_print_mode(ctx, AstPrintMode::SmtlibFull);
            Z3_ast_map_dec_ref(ctx, map);
            verdict
        })?;
        self.judged(verdict, "ast_map")
    }

    /// `ast_vector`: the script of `model::handles::vector_ops` on a fresh `Z3_ast_vector`,
    /// judged against a reference vector; then its translation into a second context and
    /// back.
    pub(super) fn ast_vector(&mut self, terms: &[TermId]) -> Result<(), ExecError> {
        let mut asts: HashMap<TermId, Z3_ast> = HashMap::new();
        for t in terms {
            asts.insert(*t, self.z3_term(*t)?.get_z3_ast());
        }
        let ops = model::handles::vector_ops(terms);
        let ctx = self.main.get_z3_context();
        // The context vectors are translated into. A context costs milliseconds (10 to 20 on
        // 4.8.12), so one serves every round of the thread; but a context keeps what
        // translations into it declared (a datatype of an earlier round's name but other
        // parameters is refused there), so a round that declared datatypes or recursive
        // functions does not translate (counted). What a translation gives (the same terms
        // back) does not depend on what else the context holds.
        let declares = !self.state.datatypes.by_name.is_empty() || !self.state.rec_funcs.is_empty();
        let other_raw = if declares {
            self.count(
                "ast_vector: not translated: the round declared datatypes or recursive functions",
            );
            None
        } else {
            Some(
                SHARED_TARGET
                    .with(|t| {
                        t.get_or_init(|| guard::fresh_context().ok())
                            .as_ref()
                            .map(|c| c.get_z3_context())
                    })
                    .ok_or_else(|| z3err("no context to translate into".into()))?,
            )
        };
        let wrong = self.wrong_read();
        // SAFETY: every vector lives (referenced) within this block and is released in its
        // own context, which outlives it (the second is the thread's).
        let verdict = self.main(|| unsafe {
            let Some(v) = Z3_mk_ast_vector(ctx) else {
                return fail("Z3_mk_ast_vector gave no vector".into(), "Z3_mk_ast_vector");
            };
            Z3_ast_vector_inc_ref(ctx, v);
            // Printed with shared subterms as `let`s (the default mode writes a DAG out as a
            // tree); the default is put back.
            Z3_set_ast_print_mode(ctx, AstPrintMode::Smtlib2Compliant);
            let verdict = run_vector(ctx, v, &ops, &asts, wrong).and_then(|()| match other_raw {
                Some(other) => translated_alike(ctx, v, other),
                None => Ok(()),
            });
            Z3_set_ast_print_mode(ctx, AstPrintMode::SmtlibFull);
            Z3_ast_vector_dec_ref(ctx, v);
            verdict
        })?;
        self.judged(verdict, "ast_vector")
    }

    /// `read "Z3_set_ast_print_mode" tT`: T printed in the SMT-LIB2 compliant mode (the
    /// answer), the low-level mode and the default again. The compliant text must be SMT-LIB
    /// (our parser reads it) that Z3 parses back, given the trace's declarations, to T or to
    /// a term printed the same (numerals such as `(- 5)` parse back as applications); the
    /// default's text must be what it was before.
    pub(super) fn print_mode_read(&mut self, term: TermId) -> Result<String, ExecError> {
        let t = self.z3_term(term)?.get_z3_ast();
        let ctx = self.main.get_z3_context();
        let (names, decls, sort_names, sorts) = self.trace_declarations()?;
        let ambiguous = {
            let mut seen = std::collections::HashSet::new();
            !names
                .iter()
                .chain(&sort_names)
                .all(|n| seen.insert(n.clone()))
        };
        // SAFETY: a live term; every string is copied before the next call; the mode is
        // put back to the default (`Z3_PRINT_SMTLIB_FULL`, which the check confirms).
        let (compliant, verdict, parsed) = self.main(|| unsafe {
            let before = copied(Z3_ast_to_string(ctx, t));
            Z3_set_ast_print_mode(ctx, AstPrintMode::Smtlib2Compliant);
            let compliant = copied(Z3_ast_to_string(ctx, t));
            let parsed = if ambiguous {
                None
            } else {
                parse_back(ctx, t, &compliant, &names, &decls, &sort_names, &sorts)
            };
            Z3_set_ast_print_mode(ctx, AstPrintMode::LowLevel);
            let low = copied(Z3_ast_to_string(ctx, t));
            Z3_set_ast_print_mode(ctx, AstPrintMode::SmtlibFull);
            let after = copied(Z3_ast_to_string(ctx, t));
            let verdict = if low.trim().is_empty() {
                fail(
                    "the low-level print mode printed nothing".into(),
                    "Z3_set_ast_print_mode: low level",
                )
            } else if before != after {
                fail(
                    format!("the default print mode printed `{before}` first, `{after}` after"),
                    "Z3_set_ast_print_mode: default",
                )
            } else {
                Ok(())
            };
            (compliant, verdict, parsed)
        })?;
        self.judged(verdict, "read")?;
        let script = format!("(assert (= |mbt!print| {compliant}))");
        if model::smtlib::Tree::parse(&script).is_err() {
            self.judged(
                fail(
                    format!("the SMT-LIB2 compliant text `{compliant}` is no SMT-LIB"),
                    "Z3_set_ast_print_mode: SMT-LIB2 syntax",
                ),
                "read",
            )?;
        }
        match parsed {
            None if ambiguous => {
                self.count("print mode: not parsed back: declarations share names")
            }
            None => self.count("print mode: not parsed back: Z3 refused the text"),
            Some(Ok(())) => self.count("print mode: parsed back alike"),
            Some(Err(problem)) => self.judged(
                fail(
                    format!("`{compliant}` (SMT-LIB2 compliant) parsed back to {problem}"),
                    "Z3_set_ast_print_mode: round trip",
                ),
                "read",
            )?,
        }
        Ok(compliant)
    }

    /// The declarations the trace made (constants, variables, functions; recursive
    /// functions are left out) and its named sorts (uninterpreted, datatypes), with their
    /// names, for Z3's parser.
    #[allow(clippy::type_complexity)]
    fn trace_declarations(
        &self,
    ) -> Result<(Vec<String>, Vec<Z3_func_decl>, Vec<String>, Vec<Z3_sort>), ExecError> {
        use model::state::Origin;
        let ctx = self.main.get_z3_context();
        let mut found: Vec<Z3_func_decl> = Vec::new();
        let mut ids: Vec<&TermId> = self.terms.keys().collect();
        ids.sort();
        for id in ids {
            let Ok(info) = self.state.term(*id) else {
                continue;
            };
            if !matches!(info.origin, Origin::Const(_) | Origin::Var) {
                continue;
            }
            let a = self.terms[id].get_z3_ast();
            // SAFETY: a live constant of the thread-local context.
            let decl = unsafe { Z3_to_app(ctx, a).and_then(|app| Z3_get_app_decl(ctx, app)) };
            found.extend(decl);
        }
        let mut funcs: Vec<_> = self.funcs.iter().collect();
        funcs.sort_by_key(|(id, _)| **id);
        for (_, f) in funcs {
            // The `z3` crate gives no raw handle of a declaration: a constant's is its
            // application's, a function's its `as-array` term's (neither makes a fresh
            // name). One whose declaration cannot be had is left out: a term that applies it
            // is not parsed back (counted, not judged).
            let decl = guard::guarded(&self.main, || {
                // SAFETY: live terms of the thread-local context, read while alive.
                unsafe {
                    if f.arity() == 0 {
                        let app = f.apply(&[]);
                        Z3_to_app(ctx, app.get_z3_ast()).and_then(|a| Z3_get_app_decl(ctx, a))
                    } else {
                        let array = f.as_array();
                        Z3_get_as_array_func_decl(ctx, array.get_z3_ast())
                    }
                }
            });
            found.extend(decl.ok().flatten());
        }
        let mut seen = std::collections::HashSet::new();
        let mut names = Vec::new();
        let mut decls = Vec::new();
        for d in found {
            // SAFETY: a live declaration.
            let id = unsafe { Z3_get_func_decl_id(ctx, d) };
            if seen.insert(id) {
                let name =
                    read::symbol_text(ctx, unsafe { Z3_get_decl_name(ctx, d) }).map_err(z3err)?;
                names.push(name);
                decls.push(d);
            }
        }
        let mut sort_names = Vec::new();
        let mut sorts = Vec::new();
        let mut sort_ids: Vec<_> = self.sorts.iter().collect();
        sort_ids.sort_by_key(|(id, _)| **id);
        for (id, s) in sort_ids {
            if let Ok(model::Sort::Named(name, params)) = self.state.sort(*id) {
                if params.is_empty() && !sort_names.contains(name) {
                    sort_names.push(name.clone());
                    sorts.push(s.get_z3_sort());
                }
            }
        }
        Ok((names, decls, sort_names, sorts))
    }

    /// `read_global "FUNCTION" "SUBJECT"`.
    pub(super) fn read_global(&mut self, function: &str, subject: &str) -> Result<(), ExecError> {
        let Some((kind, newer)) = model::handles::global_reader(function) else {
            return Err(ExecError::Malformed(format!(
                "`{function}` is no global read function"
            )));
        };
        if newer && read::function(static_name(function)?).is_none() {
            return Err(ExecError::Malformed(format!(
                "{function} is not in the loaded libz3 (Z3 {})",
                crate::z3_version()
            )));
        }
        let ctx = self.main.get_z3_context();
        // SAFETY (every arm): plain reads of the live thread-local context; each helper
        // references what it makes and releases it before it returns.
        let verdict = match function {
            "Z3_get_version" => self.main(|| unsafe { version() })?,
            "Z3_get_tactic_name" => {
                let (verdict, extra) = self.main(|| unsafe { tactic_names(ctx) })?;
                for _ in 0..extra {
                    self.count("global reads: tactics only Z3 lists");
                }
                verdict
            }
            "Z3_get_probe_name" => self.main(|| unsafe { probe_names(ctx) })?,
            "Z3_get_estimated_alloc_size" => {
                super::unlogged::note(function);
                // Recorded nowhere, not judged: it depends on all the process did before.
                self.main(|| unsafe { Z3_get_estimated_alloc_size() })?;
                self.count("global reads: estimated alloc size read (unjudged)");
                Ok(())
            }
            "Z3_solver_get_help" | "Z3_simplify_get_help" | "Z3_optimize_get_help" => {
                let kinds = self.param_kinds.clone();
                self.main(|| unsafe { helped(ctx, function, "", &kinds) })?
            }
            "Z3_tactic_get_help" => {
                let kinds = Default::default();
                self.main(|| unsafe { helped(ctx, function, subject, &kinds) })?
            }
            "Z3_probe_get_descr" => {
                let name = cstring(subject)?;
                let descr =
                    self.main(|| unsafe { copied(Z3_probe_get_descr(ctx, name.as_ptr())) })?;
                if descr.trim().is_empty() {
                    fail(format!("probe `{subject}` has no description"), function)
                } else {
                    Ok(())
                }
            }
            "Z3_global_param_get" => {
                let got = self.main(|| global_get(subject))?;
                let got = got.map(|v| self.injected_read(v));
                let expected = model::handles::expected_global(&self.state.globals, subject);
                match (got, expected) {
                    (Some(got), Some(expected)) if got != expected => fail(
                        format!("global parameter {subject} reads `{got}`, the trace made it `{expected}`"),
                        function,
                    ),
                    (None, _) => fail(format!("global parameter {subject} cannot be read"), function),
                    _ => Ok(()),
                }
            }
            "Z3_global_param_reset_all" => {
                let set = self.state.globals.clone();
                self.main(|| reset_all(&set))?
            }
            "Z3_get_global_param_descrs" => self.main(|| unsafe { global_descrs(ctx) })?,
            "Z3_get_simplifier_name" => self.main(|| unsafe { simplifier_names(ctx) })?,
            _ => {
                return Err(ExecError::Malformed(format!(
                    "`{function}` ({kind:?}) has no implementation"
                )))
            }
        };
        self.judged(verdict, "read_global")
    }
}

thread_local! {
    /// The translation target of rounds without datatypes or recursive functions.
    static SHARED_TARGET: std::cell::OnceCell<Option<z3::Context>> =
        const { std::cell::OnceCell::new() };
}

/// The table's `&'static` name of a global read function.
fn static_name(function: &str) -> Result<&'static str, ExecError> {
    model::handles::GLOBAL_READERS
        .iter()
        .find(|(name, ..)| *name == function)
        .map(|(name, ..)| *name)
        .ok_or_else(|| ExecError::Malformed(format!("`{function}` is no global read function")))
}

/// Runs the map script on Z3's `map` and the reference side by side.
///
/// # Safety
/// A live context and map; `asts` holds live terms.
unsafe fn run_map(
    ctx: Z3_context,
    map: Z3_ast_map,
    ops: &[MapOp<TermId>],
    asts: &HashMap<TermId, Z3_ast>,
    wrong: bool,
) -> Verdict {
    let mut reference: RefMap<u32, Z3_ast> = RefMap::new();
    let id = |t: &TermId| Z3_get_ast_id(ctx, asts[t]);
    let mut keys_seen: Vec<(u32, Z3_ast)> = Vec::new();
    let step = |reference: &RefMap<u32, Z3_ast>, keys: &[(u32, Z3_ast)], what: &str| -> Verdict {
        let size = Z3_ast_map_size(ctx, map) as usize + usize::from(wrong);
        if size != reference.size() {
            return fail(
                format!(
                    "after {what} the AST map has size {size}, the reference {}",
                    reference.size()
                ),
                "Z3_ast_map_size",
            );
        }
        for (k, ast) in keys {
            let contains = Z3_ast_map_contains(ctx, map, *ast);
            if contains != reference.contains(k) {
                return fail(
                    format!("after {what} `contains` of key #{k} says {contains}"),
                    "Z3_ast_map_contains",
                );
            }
            if let Some(expected) = reference.find(k) {
                let found = Z3_ast_map_find(ctx, map, *ast);
                if !found.is_some_and(|f| Z3_is_eq_ast(ctx, f, *expected)) {
                    return fail(
                        format!("after {what} `find` of key #{k} is not the value inserted last"),
                        "Z3_ast_map_find",
                    );
                }
            }
        }
        Ok(())
    };
    for (i, op) in ops.iter().enumerate() {
        let what = match op {
            MapOp::Insert(k, v) => {
                Z3_ast_map_insert(ctx, map, asts[k], asts[v]);
                reference.insert(id(k), asts[v]);
                keys_seen.push((id(k), asts[k]));
                format!("step {} (insert)", i + 1)
            }
            MapOp::Erase(k) => {
                Z3_ast_map_erase(ctx, map, asts[k]);
                reference.erase(&id(k));
                keys_seen.push((id(k), asts[k]));
                format!("step {} (erase)", i + 1)
            }
        };
        step(&reference, &keys_seen, &what)?;
    }
    // The keys as a set.
    let Some(keys) = Z3_ast_map_keys(ctx, map) else {
        return fail("Z3_ast_map_keys gave no vector".into(), "Z3_ast_map_keys");
    };
    Z3_ast_vector_inc_ref(ctx, keys);
    let mut got: Vec<u32> = (0..Z3_ast_vector_size(ctx, keys))
        .filter_map(|i| Z3_ast_vector_get(ctx, keys, i))
        .map(|k| Z3_get_ast_id(ctx, k))
        .collect();
    Z3_ast_vector_dec_ref(ctx, keys);
    got.sort();
    if got != reference.keys() {
        return fail(
            format!(
                "the AST map's keys are ids {got:?}, the reference's {:?}",
                reference.keys()
            ),
            "Z3_ast_map_keys",
        );
    }
    if copied(Z3_ast_map_to_string(ctx, map)).is_empty() {
        return fail(
            "the AST map prints as nothing".into(),
            "Z3_ast_map_to_string",
        );
    }
    Z3_ast_map_reset(ctx, map);
    reference.reset();
    step(&reference, &keys_seen, "reset")?;
    if let Some(MapOp::Insert(k, v)) = ops.iter().find(|op| matches!(op, MapOp::Insert(..))) {
        Z3_ast_map_insert(ctx, map, asts[k], asts[v]);
        reference.insert(id(k), asts[v]);
        step(&reference, &keys_seen, "reset and insert")?;
    }
    Ok(())
}

/// Runs the vector script on Z3's `v` and the reference side by side.
///
/// # Safety
/// A live context and vector; `asts` holds live terms.
unsafe fn run_vector(
    ctx: Z3_context,
    v: Z3_ast_vector,
    ops: &[VectorOp<TermId>],
    asts: &HashMap<TermId, Z3_ast>,
    wrong: bool,
) -> Verdict {
    let mut reference: RefVector<Z3_ast> = RefVector::new();
    for (i, op) in ops.iter().enumerate() {
        let (cause, mapped) = match op {
            VectorOp::Push(t) => {
                Z3_ast_vector_push(ctx, v, asts[t]);
                ("Z3_ast_vector_push", VectorOp::Push(asts[t]))
            }
            VectorOp::Set(at, t) => {
                Z3_ast_vector_set(ctx, v, *at, asts[t]);
                ("Z3_ast_vector_set", VectorOp::Set(*at, asts[t]))
            }
            VectorOp::Resize(n) => {
                Z3_ast_vector_resize(ctx, v, *n);
                ("Z3_ast_vector_resize", VectorOp::Resize(*n))
            }
        };
        reference.apply(&mapped);
        let size = Z3_ast_vector_size(ctx, v) as usize + usize::from(wrong);
        if size != reference.size() {
            return fail(
                format!(
                    "after step {} the AST vector has size {size}, the reference {}",
                    i + 1,
                    reference.size()
                ),
                cause,
            );
        }
        for j in 0..reference.size() {
            // A grown slot not yet set is null in Z3: not read.
            let Some(expected) = reference.get(j) else {
                continue;
            };
            let got = Z3_ast_vector_get(ctx, v, j as c_uint);
            if !got.is_some_and(|g| Z3_is_eq_ast(ctx, g, *expected)) {
                return fail(
                    format!(
                        "after step {} element {j} of the AST vector is not the reference's",
                        i + 1
                    ),
                    cause,
                );
            }
        }
    }
    if copied(Z3_ast_vector_to_string(ctx, v)).is_empty() {
        return fail(
            "the AST vector prints as nothing".into(),
            "Z3_ast_vector_to_string",
        );
    }
    Ok(())
}

/// `v` translated into `other` and back: as long, each element the very term it was (Z3
/// shares equal terms, so a faithful round trip gives the same ASTs; printing both sides
/// costs milliseconds a term on large ones).
///
/// # Safety
/// Live contexts and vector (every slot set).
unsafe fn translated_alike(ctx: Z3_context, v: Z3_ast_vector, other: Z3_context) -> Verdict {
    let cause = "Z3_ast_vector_translate";
    let Some(copy) = Z3_ast_vector_translate(ctx, v, other) else {
        return fail("Z3_ast_vector_translate gave no vector".into(), cause);
    };
    Z3_ast_vector_inc_ref(other, copy);
    let n = Z3_ast_vector_size(ctx, v);
    let there = Z3_ast_vector_size(other, copy);
    let back = Z3_ast_vector_translate(other, copy, ctx);
    Z3_ast_vector_dec_ref(other, copy);
    if there != n {
        return fail(
            format!("the translated AST vector has {there} elements, not {n}"),
            cause,
        );
    }
    let Some(back) = back else {
        return fail("Z3_ast_vector_translate back gave no vector".into(), cause);
    };
    Z3_ast_vector_inc_ref(ctx, back);
    let verdict = (0..n).try_for_each(|i| {
        let same = match (
            Z3_ast_vector_get(ctx, v, i),
            Z3_ast_vector_get(ctx, back, i),
        ) {
            (Some(a), Some(b)) => Z3_is_eq_ast(ctx, a, b),
            _ => false,
        };
        if same {
            Ok(())
        } else {
            let printed = Z3_ast_vector_get(ctx, v, i).map(|a| copied(Z3_ast_to_string(ctx, a)));
            fail(
                format!("element {i} ({printed:?}) translated and back is another term"),
                cause,
            )
        }
    });
    Z3_ast_vector_dec_ref(ctx, back);
    verdict
}

/// Z3's parse of `(assert (= |mbt!print| TEXT))` given the trace's declarations: `None`
/// where Z3 refuses it (a declaration it lacks), else whether the right side is `t` or a
/// term printed as `text` (the compliant mode is on).
///
/// # Safety
/// A live context in the compliant print mode, live declarations and sorts.
unsafe fn parse_back(
    ctx: Z3_context,
    t: Z3_ast,
    text: &str,
    names: &[String],
    decls: &[Z3_func_decl],
    sort_names: &[String],
    sorts: &[Z3_sort],
) -> Option<Result<(), String>> {
    let sort = Z3_get_sort(ctx, t)?;
    let print_name = CString::new("mbt!print").ok()?;
    let print_symbol = Z3_mk_string_symbol(ctx, print_name.as_ptr())?;
    let print_decl = Z3_mk_func_decl(ctx, print_symbol, 0, std::ptr::null(), sort)?;
    let symbol = |name: &str| {
        CString::new(name)
            .ok()
            .and_then(|c| Z3_mk_string_symbol(ctx, c.as_ptr()))
    };
    let mut decl_symbols: Vec<Z3_symbol> =
        names.iter().map(|n| symbol(n)).collect::<Option<_>>()?;
    let mut all_decls = decls.to_vec();
    decl_symbols.push(print_symbol);
    all_decls.push(print_decl);
    let sort_symbols: Vec<Z3_symbol> = sort_names
        .iter()
        .map(|n| symbol(n))
        .collect::<Option<_>>()?;
    let script = CString::new(format!("(assert (= |mbt!print| {text}))")).ok()?;
    // Z3's refusal (an error code) is no verdict: the guard around the whole read must not
    // see it, so the parse runs under a guard of its own.
    let context = z3::Context::thread_local();
    let parsed = guard::guarded(&context, || {
        let v = Z3_parse_smtlib2_string(
            ctx,
            script.as_ptr(),
            sort_symbols.len() as c_uint,
            sort_symbols.as_ptr(),
            sorts.as_ptr(),
            all_decls.len() as c_uint,
            decl_symbols.as_ptr(),
            all_decls.as_ptr(),
        )?;
        Z3_ast_vector_inc_ref(ctx, v);
        let back = (Z3_ast_vector_size(ctx, v) == 1)
            .then(|| Z3_ast_vector_get(ctx, v, 0))
            .flatten()
            .and_then(|eq| Z3_to_app(ctx, eq))
            .filter(|app| Z3_get_app_num_args(ctx, *app) == 2)
            .and_then(|app| Z3_get_app_arg(ctx, app, 1));
        let verdict = back.map(|b| {
            if Z3_is_eq_ast(ctx, b, t) {
                return Ok(());
            }
            let printed = copied(Z3_ast_to_string(ctx, b));
            if printed == text {
                Ok(())
            } else {
                Err(format!("a term printed `{printed}`"))
            }
        });
        Z3_ast_vector_dec_ref(ctx, v);
        verdict
    });
    // A refusal is no verdict (see above).
    Z3_set_error(ctx, ErrorCode::Ok);
    parsed.ok().flatten()
}

/// `Z3_get_version` against `Z3_get_full_version`.
unsafe fn version() -> Verdict {
    let (mut major, mut minor, mut build, mut revision) = (0, 0, 0, 0);
    Z3_get_version(&mut major, &mut minor, &mut build, &mut revision);
    let full = copied(Z3_get_full_version());
    let numbers = format!("{major}.{minor}.{build}.{revision}");
    if full.starts_with(&numbers) && crate::z3_version() == full {
        Ok(())
    } else {
        fail(
            format!("Z3_get_version says {numbers}, Z3_get_full_version `{full}`"),
            "Z3_get_version",
        )
    }
}

/// Names listed by a count and an indexed name function.
unsafe fn listed(
    ctx: Z3_context,
    count: unsafe extern "C" fn(Z3_context) -> c_uint,
    name: unsafe extern "C" fn(Z3_context, c_uint) -> *const c_char,
) -> Vec<String> {
    (0..count(ctx)).map(|i| copied(name(ctx, i))).collect()
}

/// Each listed name distinct, and each made by `make` (released by `release`); the model's
/// names all listed. The number of listed names the model does not know.
unsafe fn names_make(
    ctx: Z3_context,
    names: &[String],
    model_names: &[&str],
    make: &dyn Fn(&CString) -> Option<*mut c_void>,
    what: &str,
    cause: &str,
) -> (Verdict, usize) {
    let mut seen = std::collections::HashSet::new();
    for name in names {
        if name.is_empty() || !seen.insert(name.as_str()) {
            return (
                fail(
                    format!("a {what} name `{name}` empty or listed twice"),
                    cause,
                ),
                0,
            );
        }
        let Ok(c) = CString::new(name.as_str()) else {
            return (fail(format!("a {what} name with a NUL"), cause), 0);
        };
        if make(&c).is_none() {
            return (
                fail(format!("the listed {what} `{name}` cannot be made"), cause),
                0,
            );
        }
    }
    let _ = ctx;
    if let Some(missing) = model_names.iter().find(|n| !seen.contains(**n)) {
        return (
            fail(
                format!("the model's {what} `{missing}` is not listed"),
                cause,
            ),
            0,
        );
    }
    let extra = names
        .iter()
        .filter(|n| !model_names.contains(&n.as_str()))
        .count();
    (Ok(()), extra)
}

unsafe fn tactic_names(ctx: Z3_context) -> (Verdict, usize) {
    let names = listed(ctx, Z3_get_num_tactics, Z3_get_tactic_name);
    let model_names: Vec<&str> = model::options::GOAL_TACTICS
        .iter()
        .chain(model::options::TACTICS)
        .copied()
        .collect();
    let make = |c: &CString| {
        let t = Z3_mk_tactic(ctx, c.as_ptr())?;
        Z3_tactic_inc_ref(ctx, t);
        Z3_tactic_dec_ref(ctx, t);
        Some(t.as_ptr().cast::<c_void>())
    };
    names_make(
        ctx,
        &names,
        &model_names,
        &make,
        "tactic",
        "Z3_get_tactic_name",
    )
}

unsafe fn probe_names(ctx: Z3_context) -> Verdict {
    let names = listed(ctx, Z3_get_num_probes, Z3_get_probe_name);
    let make = |c: &CString| {
        let p = Z3_mk_probe(ctx, c.as_ptr())?;
        Z3_probe_inc_ref(ctx, p);
        Z3_probe_dec_ref(ctx, p);
        Some(p.as_ptr().cast::<c_void>())
    };
    names_make(
        ctx,
        &names,
        model::options::PROBES,
        &make,
        "probe",
        "Z3_get_probe_name",
    )
    .0
}

type SimplifierCount = unsafe extern "C" fn(Z3_context) -> c_uint;
type SimplifierName = unsafe extern "C" fn(Z3_context, c_uint) -> *const c_char;
type MkSimplifier = unsafe extern "C" fn(Z3_context, *const c_char) -> *mut c_void;
type SimplifierRef = unsafe extern "C" fn(Z3_context, *mut c_void);
type SimplifierDescr = unsafe extern "C" fn(Z3_context, *const c_char) -> *const c_char;
type SimplifierHelp = unsafe extern "C" fn(Z3_context, *mut c_void) -> *const c_char;
type SimplifierDescrs = unsafe extern "C" fn(Z3_context, *mut c_void) -> Option<Z3_param_descrs>;
type GlobalDescrs = unsafe extern "C" fn(Z3_context) -> Option<Z3_param_descrs>;

/// Only releases after 4.8.12: every simplifier name makes a simplifier.
unsafe fn simplifier_names(ctx: Z3_context) -> Verdict {
    let found = (|| -> Result<_, String> {
        Ok((
            read::typed::<SimplifierCount>("Z3_get_num_simplifiers")?,
            read::typed::<SimplifierName>("Z3_get_simplifier_name")?,
            read::typed::<MkSimplifier>("Z3_mk_simplifier")?,
            read::typed::<SimplifierRef>("Z3_simplifier_inc_ref")?,
            read::typed::<SimplifierRef>("Z3_simplifier_dec_ref")?,
        ))
    })();
    let Ok((count, name, mk, inc, dec)) = found else {
        return fail(
            "the simplifier functions are not all in the loaded libz3".into(),
            "Z3_get_simplifier_name",
        );
    };
    let names = listed(ctx, count, name);
    if names.is_empty() {
        return fail("Z3 lists no simplifier".into(), "Z3_get_simplifier_name");
    }
    let make = |c: &CString| {
        let s = mk(ctx, c.as_ptr());
        (!s.is_null()).then(|| {
            inc(ctx, s);
            dec(ctx, s);
            s
        })
    };
    names_make(
        ctx,
        &names,
        &[],
        &make,
        "simplifier",
        "Z3_get_simplifier_name",
    )
    .0?;
    // Each simplifier's description, help and parameter descriptions (every described
    // name in the help), as for tactics.
    let found = (|| -> Result<_, String> {
        Ok((
            read::typed::<SimplifierDescr>("Z3_simplifier_get_descr")?,
            read::typed::<SimplifierHelp>("Z3_simplifier_get_help")?,
            read::typed::<SimplifierDescrs>("Z3_simplifier_get_param_descrs")?,
        ))
    })();
    let Ok((descr, help, descrs)) = found else {
        return fail(
            "the simplifier functions are not all in the loaded libz3".into(),
            "Z3_get_simplifier_name",
        );
    };
    for name in &names {
        let Ok(c) = CString::new(name.as_str()) else {
            continue;
        };
        if copied(descr(ctx, c.as_ptr())).trim().is_empty() {
            return fail(
                format!("simplifier `{name}` has no description"),
                "Z3_simplifier_get_descr",
            );
        }
        let s = mk(ctx, c.as_ptr());
        if s.is_null() {
            continue;
        }
        inc(ctx, s);
        let text = copied(help(ctx, s));
        let described = match descrs(ctx, s) {
            Some(d) => {
                Z3_param_descrs_inc_ref(ctx, d);
                let names = descr_names(ctx, d);
                Z3_param_descrs_dec_ref(ctx, d);
                names
            }
            None => Vec::new(),
        };
        dec(ctx, s);
        let words = help_words(&text);
        if let Some((missing, _)) = described
            .iter()
            .find(|(n, _)| !words.contains(&param_name(n)))
        {
            return fail(
                format!("`{missing}` is described but not in the help text of simplifier `{name}`"),
                &format!("Z3_simplifier_get_help of {name}"),
            );
        }
    }
    Ok(())
}

/// The words of a help text (a parameter's name stands alone, first on its line), as
/// [`param_name`] writes them.
fn help_words(help: &str) -> std::collections::HashSet<String> {
    help.split(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | ',' | ':'))
        .map(param_name)
        .collect()
}

/// A parameter name as Z3 compares them: case and `-`/`_` do not matter (the help of 5.4.1's
/// `propagate-bv-bounds` prints its `propagate-eq` as `propagate_eq`).
fn param_name(name: &str) -> String {
    name.to_lowercase().replace('-', "_")
}

/// Only releases after 4.8.12: the global parameters' descriptions name every parameter of
/// `model::handles::GLOBAL_DEFAULTS` outside a module.
unsafe fn global_descrs(ctx: Z3_context) -> Verdict {
    let Ok(get) = read::typed::<GlobalDescrs>("Z3_get_global_param_descrs") else {
        return fail(
            "Z3_get_global_param_descrs is not in the loaded libz3".into(),
            "Z3_get_global_param_descrs",
        );
    };
    let Some(d) = get(ctx) else {
        return fail(
            "Z3_get_global_param_descrs gave nothing".into(),
            "Z3_get_global_param_descrs",
        );
    };
    Z3_param_descrs_inc_ref(ctx, d);
    let names: Vec<String> = descr_names(ctx, d).into_iter().map(|(n, _)| n).collect();
    Z3_param_descrs_dec_ref(ctx, d);
    match model::handles::GLOBAL_DEFAULTS
        .iter()
        .map(|(k, _)| *k)
        .filter(|k| !k.contains('.'))
        .find(|k| !names.iter().any(|n| n == k))
    {
        Some(missing) => fail(
            format!("the global parameter descriptions lack `{missing}`"),
            "Z3_get_global_param_descrs",
        ),
        None => Ok(()),
    }
}

/// The help text and parameter descriptions of a solver, the simplifier, an Optimize
/// context or the tactic `tactic`: every described name in the help; a parameter object of
/// the described kinds validates and prints its names; one of a wrong kind is refused. A
/// solver's descriptions name what the executor read at start (`solver_kinds`).
unsafe fn helped(
    ctx: Z3_context,
    function: &str,
    tactic: &str,
    solver_kinds: &HashMap<String, model::options::ParamKind>,
) -> Verdict {
    let cause = if tactic.is_empty() {
        function.to_string()
    } else {
        format!("{function} of {tactic}")
    };
    let cause = cause.as_str();
    let (help, descrs) = match function {
        "Z3_solver_get_help" => {
            let Some(s) = Z3_mk_solver(ctx) else {
                return fail("Z3_mk_solver gave nothing".into(), cause);
            };
            Z3_solver_inc_ref(ctx, s);
            let help = copied(Z3_solver_get_help(ctx, s));
            let d = Z3_solver_get_param_descrs(ctx, s);
            d.inspect(|d| Z3_param_descrs_inc_ref(ctx, *d));
            Z3_solver_dec_ref(ctx, s);
            (help, d)
        }
        "Z3_simplify_get_help" => {
            let help = copied(Z3_simplify_get_help(ctx));
            let d = Z3_simplify_get_param_descrs(ctx);
            d.inspect(|d| Z3_param_descrs_inc_ref(ctx, *d));
            (help, d)
        }
        "Z3_optimize_get_help" => {
            let Some(o) = Z3_mk_optimize(ctx) else {
                return fail("Z3_mk_optimize gave nothing".into(), cause);
            };
            Z3_optimize_inc_ref(ctx, o);
            let help = copied(Z3_optimize_get_help(ctx, o));
            let d = Z3_optimize_get_param_descrs(ctx, o);
            d.inspect(|d| Z3_param_descrs_inc_ref(ctx, *d));
            Z3_optimize_dec_ref(ctx, o);
            (help, d)
        }
        _ => {
            let Ok(name) = CString::new(tactic) else {
                return fail("a tactic name with a NUL".into(), cause);
            };
            if copied(Z3_tactic_get_descr(ctx, name.as_ptr()))
                .trim()
                .is_empty()
            {
                return fail(
                    format!("tactic `{tactic}` has no description"),
                    "Z3_tactic_get_descr",
                );
            }
            let Some(t) = Z3_mk_tactic(ctx, name.as_ptr()) else {
                return fail(format!("tactic `{tactic}` cannot be made"), cause);
            };
            Z3_tactic_inc_ref(ctx, t);
            let help = copied(Z3_tactic_get_help(ctx, t));
            let d = Z3_tactic_get_param_descrs(ctx, t);
            d.inspect(|d| Z3_param_descrs_inc_ref(ctx, *d));
            Z3_tactic_dec_ref(ctx, t);
            (help, d)
        }
    };
    let Some(d) = descrs else {
        return fail("no parameter descriptions".into(), cause);
    };
    let described = descr_names(ctx, d);
    let verdict = judge_descrs(ctx, d, &described, &help, cause, function, solver_kinds);
    Z3_param_descrs_dec_ref(ctx, d);
    verdict
}

unsafe fn judge_descrs(
    ctx: Z3_context,
    d: Z3_param_descrs,
    described: &[(String, ParamKind)],
    help: &str,
    cause: &str,
    function: &str,
    solver_kinds: &HashMap<String, model::options::ParamKind>,
) -> Verdict {
    // The help's words (a name stands alone, first on its line): one pass over the text
    // rather than a search per name.
    let words = help_words(help);
    if let Some((missing, _)) = described
        .iter()
        .find(|(n, _)| !words.contains(&param_name(n)))
    {
        return fail(
            format!("`{missing}` is described but not in the help text"),
            cause,
        );
    }
    if function == "Z3_solver_get_help" && !solver_kinds.is_empty() {
        let names: std::collections::HashSet<&str> =
            described.iter().map(|(n, _)| n.as_str()).collect();
        if let Some(lost) = solver_kinds.keys().find(|k| !names.contains(k.as_str())) {
            return fail(
                format!("a default solver no longer describes `{lost}`, which it did at start"),
                "Z3_solver_get_param_descrs",
            );
        }
    }
    // One parameter of each kind the params object can take, in description order.
    let first = |kind: ParamKind| {
        described
            .iter()
            .find(|(_, k)| *k == kind)
            .map(|(n, _)| n.clone())
    };
    let bool_param = first(ParamKind::Bool);
    let uint_param = first(ParamKind::Uint);
    let double_param = first(ParamKind::Double);
    let params = || -> Option<Z3_params> {
        let p = Z3_mk_params(ctx)?;
        Z3_params_inc_ref(ctx, p);
        Some(p)
    };
    let symbol = |name: &str| {
        CString::new(name)
            .ok()
            .and_then(|c| Z3_mk_string_symbol(ctx, c.as_ptr()))
    };
    let Some(good) = params() else {
        return fail("Z3_mk_params gave nothing".into(), "Z3_mk_params");
    };
    let mut set_names = Vec::new();
    if let Some(name) = &bool_param {
        if let Some(s) = symbol(name) {
            Z3_params_set_bool(ctx, good, s, true);
            set_names.push(name.clone());
        }
    }
    if let Some(name) = &uint_param {
        if let Some(s) = symbol(name) {
            Z3_params_set_uint(ctx, good, s, 1);
            set_names.push(name.clone());
        }
    }
    if let Some(name) = &double_param {
        if let Some(s) = symbol(name) {
            Z3_params_set_double(ctx, good, s, 0.5);
            set_names.push(name.clone());
        }
    }
    let context = z3::Context::thread_local();
    let accepted = guard::guarded(&context, || Z3_params_validate(ctx, good, d));
    Z3_set_error(ctx, ErrorCode::Ok);
    let printed = copied(Z3_params_to_string(ctx, good));
    Z3_params_dec_ref(ctx, good);
    if let Err(message) = accepted {
        return fail(
            format!("parameters {set_names:?} of the described kinds do not validate: {message}"),
            "Z3_params_validate: right kinds",
        );
    }
    if let Some(name) = set_names.iter().find(|n| !printed.contains(n.as_str())) {
        return fail(
            format!("the parameters print as `{printed}`, without `{name}`"),
            "Z3_params_to_string",
        );
    }
    // A described parameter given a value of another kind.
    let wrong = bool_param
        .map(|n| (n, false))
        .or_else(|| uint_param.map(|n| (n, true)));
    let Some((name, as_bool)) = wrong else {
        return Ok(());
    };
    let Some(bad) = params() else {
        return fail("Z3_mk_params gave nothing".into(), "Z3_mk_params");
    };
    if let Some(s) = symbol(&name) {
        if as_bool {
            Z3_params_set_bool(ctx, bad, s, true);
        } else {
            Z3_params_set_uint(ctx, bad, s, 1);
        }
    }
    let refused = guard::guarded(&context, || Z3_params_validate(ctx, bad, d)).is_err();
    // The refusal was the point: it must not reach the guard around the whole read.
    Z3_set_error(ctx, ErrorCode::Ok);
    Z3_params_dec_ref(ctx, bad);
    if refused {
        Ok(())
    } else {
        fail(
            format!("`{name}` of the wrong kind validates"),
            "Z3_params_validate: wrong kind",
        )
    }
}

/// `Z3_global_param_get` of `key`: `None` where Z3 says it cannot.
fn global_get(key: &str) -> Option<String> {
    let key = CString::new(key).ok()?;
    let mut value: Z3_string = std::ptr::null();
    // SAFETY: Z3 writes a pointer to a string it owns until the next call; copied at once.
    unsafe {
        if !Z3_global_param_get(key.as_ptr(), &mut value) {
            return None;
        }
        Some(copied(value))
    }
}

/// Resets Z3's global parameters (`Z3_global_param_reset_all`) and returns the first
/// parameter of `GLOBAL_DEFAULTS` that then does not read its default, with what it reads.
fn reset_leaves_a_default_unread() -> Option<(&'static str, Option<String>, &'static str)> {
    GLOBALS_CHANGED.store(true, Ordering::Relaxed);
    // SAFETY: process-wide parameters; the caller makes the trace's settings again.
    unsafe { Z3_global_param_reset_all() };
    model::handles::GLOBAL_DEFAULTS
        .iter()
        .find_map(|&(key, default)| {
            let got = global_get(key);
            (got.as_deref() != Some(default)).then_some((key, got, default))
        })
}

/// Whether this process has set or reset Z3's global parameters (a trace's `set_global`, or
/// its `read_global "Z3_global_param_reset_all"`). They are process state that outlives any
/// executor, and a reset does not give back a fresh process's: on Z3 5.4.1 a module's parameter
/// set after a reset makes the rewriter's (`rewriter.flat`) unknown for the rest of the
/// process. A process that did either is not one a replay of another trace starts as.
static GLOBALS_CHANGED: AtomicBool = AtomicBool::new(false);

/// Whether this process has set or reset Z3's global parameters (see [`GLOBALS_CHANGED`]).
pub fn globals_changed() -> bool {
    GLOBALS_CHANGED.load(Ordering::Relaxed)
}

/// `Z3_global_param_set`, noted in [`GLOBALS_CHANGED`].
pub(super) fn set_global(key: &str, value: &str) -> Result<(), ExecError> {
    let (key, value) = (cstring(key)?, cstring(value)?);
    GLOBALS_CHANGED.store(true, Ordering::Relaxed);
    // SAFETY: two NUL-terminated strings Z3 copies.
    unsafe { Z3_global_param_set(key.as_ptr(), value.as_ptr()) };
    Ok(())
}

/// `Z3_global_param_reset_all`: every parameter of `GLOBAL_DEFAULTS` reads its default;
/// then the trace's settings `set` are made again, each reading back its value.
fn reset_all(set: &[(String, String)]) -> Verdict {
    let mut verdict = match reset_leaves_a_default_unread() {
        Some((key, got, default)) => fail(
            format!("after reset_all, global parameter {key} reads {got:?}, not its default `{default}`"),
            "Z3_global_param_reset_all",
        ),
        None => Ok(()),
    };
    for (key, value) in set {
        // A setting with a NUL was refused when the trace made it.
        let _ = set_global(key, value);
    }
    for (key, _) in set {
        let expected = model::handles::expected_global(set, key);
        let got = global_get(key);
        if verdict.is_ok() && got.is_some() && got != expected {
            verdict = fail(
                format!("global parameter {key} set again reads {got:?}, not {expected:?}"),
                "Z3_global_param_reset_all",
            );
        }
    }
    verdict
}
