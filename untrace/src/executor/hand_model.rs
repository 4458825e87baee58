//! Models built by hand through z3-sys: `model_new` (`Z3_mk_model`), `model_const`
//! (`Z3_add_const_interp`), `model_func` (`Z3_add_func_interp`, `Z3_func_interp_add_entry`,
//! `Z3_func_interp_set_else`), and the readers of `model_read`
//! (`model::introspect::MODEL_READERS`), each judged against what the trace wrote.
//!
//! The `z3` crate has no `Z3_add_func_interp` and gives no raw handle of its models, so a
//! model built by hand is held here ([`HandModel`]): `model_eval` evaluates it, and the
//! independent evaluator of `check_eval` is given what the trace wrote, as SMT-LIB
//! definitions ([`HandModel::definitions`]), not Z3's reading of it. The crate model of its
//! slot holds the same constants (quantifier elimination reads it), not the functions.

use super::{guard, z3err, ExecError, Executor, Outcome};
use model::finding::{Failure, FailureKind};
use model::{FuncId, ModelId, TermId};
use z3::ast::{Ast, Bool, Dynamic};
use z3_sys::{Z3_context, Z3_func_decl, Z3_model};

/// A function's table as the trace wrote it: the function, its else value, its entries
/// (arguments, value).
type Written = (FuncId, TermId, Vec<(Vec<TermId>, TermId)>);

/// A model built by hand, with what the trace wrote into it; released on drop.
pub struct HandModel {
    c: Z3_context,
    raw: Z3_model,
    /// Constants and their values, in the order written (a later one replaces).
    consts: Vec<(TermId, TermId)>,
    /// Functions with their else value and entries (arguments, value), in the order written
    /// (a later `model_func` of the same function replaces its table).
    funcs: Vec<Written>,
    /// A `model_eval` with completion ran: Z3 completes the model with an interpretation
    /// of every symbol it met (documented), so a symbol not written may be interpreted.
    completed: std::cell::Cell<bool>,
}

impl Drop for HandModel {
    fn drop(&mut self) {
        // SAFETY: the main context outlives the executor's models.
        unsafe { z3_sys::Z3_model_dec_ref(self.c, self.raw) };
    }
}

impl HandModel {
    /// An empty model of the live context `c` (`Z3_mk_model`).
    pub fn new(c: Z3_context) -> Option<HandModel> {
        // SAFETY: a new model of a live context, referenced until drop.
        let raw = unsafe { z3_sys::Z3_mk_model(c)? };
        unsafe { z3_sys::Z3_model_inc_ref(c, raw) };
        Some(HandModel {
            c,
            raw,
            consts: Vec::new(),
            funcs: Vec::new(),
            completed: std::cell::Cell::new(false),
        })
    }

    /// Z3's value of `t` (`Z3_model_eval`), if it gives one.
    pub fn eval(&self, t: &Dynamic, completion: bool) -> Option<Dynamic> {
        if completion {
            self.completed.set(true);
        }
        let mut out = std::mem::MaybeUninit::<z3_sys::Z3_ast>::uninit();
        // SAFETY: a live model and term of the main context; Z3 writes `out` where it
        // answers true.
        unsafe {
            let ok = z3_sys::Z3_model_eval(
                self.c,
                self.raw,
                t.get_z3_ast(),
                completion,
                out.as_mut_ptr(),
            );
            ok.then(|| Dynamic::wrap(&z3::Context::thread_local(), out.assume_init()))
        }
    }

    /// The constants' last values, in the order first written.
    fn const_values(&self) -> Vec<(TermId, TermId)> {
        let mut out: Vec<(TermId, TermId)> = Vec::new();
        for (c, v) in &self.consts {
            match out.iter_mut().find(|(d, _)| d == c) {
                Some(slot) => slot.1 = *v,
                None => out.push((*c, *v)),
            }
        }
        out
    }

    /// The last table written of each function.
    fn func_tables(&self) -> Vec<&Written> {
        let mut out: Vec<&Written> = Vec::new();
        for table in &self.funcs {
            match out.iter_mut().find(|t| t.0 == table.0) {
                Some(slot) => *slot = table,
                None => out.push(table),
            }
        }
        out
    }

    /// What the trace wrote as SMT-LIB definitions for the independent evaluator, `None`
    /// where a name or value has no text. A function's entries become an `ite` chain whose
    /// last written entry is tested first (Z3 replaces an entry written again).
    pub fn definitions(
        &self,
        texts: &super::term_text::TermTexts,
        state: &model::State,
    ) -> Option<String> {
        let mut out = String::from("(");
        for (c, v) in self.const_values() {
            let sort = &state.terms.get(&c)?.sort;
            out.push_str(&format!(
                "(define-fun {} () {sort} {})",
                texts.text(c).ok()?,
                texts.text(v).ok()?
            ));
        }
        for (f, default, entries) in self.func_tables() {
            let (domain, range) = state.funcs.get(f)?;
            let params: Vec<String> = (0..domain.len()).map(|i| format!("x!{i}")).collect();
            let mut body = texts.text(*default).ok()?;
            for (args, value) in entries {
                let tests: Option<Vec<String>> = params
                    .iter()
                    .zip(args)
                    .map(|(p, a)| Some(format!("(= {p} {})", texts.text(*a).ok()?)))
                    .collect();
                body = format!(
                    "(ite (and {} true) {} {body})",
                    tests?.join(" "),
                    texts.text(*value).ok()?
                );
            }
            let formals: Vec<String> = params
                .iter()
                .zip(domain)
                .map(|(p, s)| format!("({p} {s})"))
                .collect();
            out.push_str(&format!(
                "(define-fun {} ({}) {range} {body})",
                texts.func_name(*f)?,
                formals.join(" ")
            ));
        }
        out.push(')');
        Some(out)
    }
}

/// A table read back against the one written: its entries, one per distinct arguments
/// (the same terms), with the last value written for them, in the order first written.
fn expected_entries(entries: &[(Vec<Dynamic>, Dynamic)]) -> Vec<(Vec<Dynamic>, Dynamic)> {
    let mut out: Vec<(Vec<Dynamic>, Dynamic)> = Vec::new();
    for (args, value) in entries {
        match out.iter_mut().find(|(a, _)| a == args) {
            Some(slot) => slot.1 = value.clone(),
            None => out.push((args.clone(), value.clone())),
        }
    }
    out
}

fn model_finding(function: &str, message: String) -> ExecError {
    ExecError::Oracle(
        Failure::new(FailureKind::ReadBack, message)
            .with_cause(format!("model_read: {function}"))
            .at_call("model_read"),
    )
}

/// A written table as Z3 terms.
struct Table {
    decl: Z3_func_decl,
    name: String,
    arity: usize,
    default: Dynamic,
    rows: Vec<(Vec<Dynamic>, Dynamic)>,
    /// The function applied to each distinct entry's arguments, with the value written.
    apps: Vec<(Dynamic, Dynamic)>,
}

/// The declaration of a constant (`Z3_get_app_decl`).
///
/// # Safety
/// `c` is live and `t` a term of it.
unsafe fn const_decl(c: Z3_context, t: &Dynamic) -> Option<Z3_func_decl> {
    z3_sys::Z3_get_app_decl(c, z3_sys::Z3_to_app(c, t.get_z3_ast())?)
}

impl Executor {
    /// The Z3 declaration of function `f`: its application to fresh constants of the trace's
    /// own sorts of its domain (a datatype sort made again would be another sort), asked for
    /// its declaration; `None` where a domain sort is none of the trace's.
    fn decl_raw(&self, f: FuncId) -> Option<Z3_func_decl> {
        let decl = self.funcs.get(&f)?;
        let (domain, _) = self.state.funcs.get(&f)?;
        let sorts: Vec<z3::Sort> = domain
            .iter()
            .map(|s| {
                self.state
                    .sorts
                    .iter()
                    .filter(|(_, sort)| *sort == s)
                    .find_map(|(id, _)| self.sorts.get(id).cloned())
            })
            .collect::<Option<_>>()?;
        let c = self.main.get_z3_context();
        guard::guarded(&self.main, || {
            let args: Vec<Dynamic> = sorts
                .iter()
                .map(|s| Dynamic::fresh_const("decl_arg", s))
                .collect();
            let refs: Vec<&dyn Ast> = args.iter().map(|a| a as &dyn Ast).collect();
            let app = decl.apply(&refs);
            // SAFETY: `app` is a live application; its declaration lives as long as `decl`.
            unsafe { const_decl(c, &app) }
        })
        .ok()
        .flatten()
    }

    fn hand(&self, m: ModelId) -> Result<&HandModel, ExecError> {
        self.models
            .get(&m)
            .and_then(|slot| slot.hand.as_ref())
            .ok_or_else(|| ExecError::Malformed(format!("model {m} is no model built by hand")))
    }

    /// `model_const` of a model built by hand: `Z3_add_const_interp`, in the crate model too.
    pub(super) fn hand_const(
        &mut self,
        m: ModelId,
        constant: TermId,
        value: TermId,
    ) -> Result<(), ExecError> {
        let (c, v) = (
            self.z3_term(constant)?.clone(),
            self.z3_term(value)?.clone(),
        );
        let slot = self
            .models
            .get(&m)
            .ok_or_else(|| ExecError::Malformed(format!("model {m} is not defined")))?;
        self.main(|| slot.model.add_const_interp(&c.decl(), &v))?;
        if let Some(hand) = slot.hand.as_ref() {
            // SAFETY: a live model and terms of the main context.
            self.main(|| unsafe {
                if let Some(decl) = const_decl(hand.c, &c) {
                    z3_sys::Z3_add_const_interp(hand.c, hand.raw, decl, v.get_z3_ast());
                }
            })?;
        }
        if let Some(slot) = self.models.get_mut(&m) {
            if let Some(hand) = slot.hand.as_mut() {
                hand.consts.push((constant, value));
            }
            // The independent evaluator reads the model again.
            slot.independent = Default::default();
        }
        Ok(())
    }

    /// `model_func`: F's table written into model M built by hand.
    pub(super) fn model_func(
        &mut self,
        m: ModelId,
        func: FuncId,
        default: TermId,
        entries: &[TermId],
    ) -> Result<Outcome, ExecError> {
        let decl = self
            .decl_raw(func)
            .ok_or_else(|| z3err(format!("no declaration of function {func}")))?;
        let width = self.func_decl(func)?.arity() + 1;
        let rows: Vec<(Vec<TermId>, TermId)> = entries
            .chunks(width)
            .filter(|row| row.len() == width)
            .map(|row| (row[..width - 1].to_vec(), row[width - 1]))
            .collect();
        let terms = rows
            .iter()
            .map(|(args, value)| {
                Ok((
                    self.arg_terms(args)?
                        .into_iter()
                        .cloned()
                        .collect::<Vec<_>>(),
                    self.z3_term(*value)?.clone(),
                ))
            })
            .collect::<Result<Vec<_>, ExecError>>()?;
        let else_value = self.z3_term(default)?.clone();
        let hand = self.hand(m)?;
        let (c, raw) = (hand.c, hand.raw);
        // SAFETY: a live model, declaration and terms of the main context; the
        // interpretation and each argument vector referenced while written.
        self.main(|| unsafe {
            let Some(fi) = z3_sys::Z3_add_func_interp(c, raw, decl, else_value.get_z3_ast()) else {
                return;
            };
            z3_sys::Z3_func_interp_inc_ref(c, fi);
            for (args, value) in &terms {
                let Some(v) = z3_sys::Z3_mk_ast_vector(c) else {
                    continue;
                };
                z3_sys::Z3_ast_vector_inc_ref(c, v);
                for a in args {
                    z3_sys::Z3_ast_vector_push(c, v, a.get_z3_ast());
                }
                z3_sys::Z3_func_interp_add_entry(c, fi, v, value.get_z3_ast());
                z3_sys::Z3_ast_vector_dec_ref(c, v);
            }
            z3_sys::Z3_func_interp_set_else(c, fi, else_value.get_z3_ast());
            z3_sys::Z3_func_interp_dec_ref(c, fi);
        })?;
        if let Some(slot) = self.models.get_mut(&m) {
            if let Some(hand) = slot.hand.as_mut() {
                hand.funcs.push((func, default, rows));
            }
            slot.independent = Default::default();
        }
        Ok(Outcome::Nothing)
    }

    /// `model_read`: a reader of model M built by hand, judged against what was written.
    pub(super) fn model_read(&mut self, function: &str, m: ModelId) -> Result<Outcome, ExecError> {
        if !model::introspect::model_reader(function) {
            return Err(ExecError::Malformed(format!(
                "`{function}` is no reader of a model"
            )));
        }
        let hand = self.hand(m)?;
        let consts: Vec<(Dynamic, Dynamic)> = hand
            .const_values()
            .iter()
            .map(|(c, v)| Ok((self.z3_term(*c)?.clone(), self.z3_term(*v)?.clone())))
            .collect::<Result<_, ExecError>>()?;
        let func_tables: Vec<Written> = hand.func_tables().into_iter().cloned().collect();
        let mut tables = Vec::new();
        for (f, default, rows) in &func_tables {
            let rows = rows
                .iter()
                .map(|(args, value)| {
                    Ok((
                        self.arg_terms(args)?
                            .into_iter()
                            .cloned()
                            .collect::<Vec<_>>(),
                        self.z3_term(*value)?.clone(),
                    ))
                })
                .collect::<Result<Vec<_>, ExecError>>()?;
            let d = self.func_decl(*f)?;
            let apps = self.main(|| {
                expected_entries(&rows)
                    .into_iter()
                    .map(|(args, value)| {
                        let refs: Vec<&dyn Ast> = args.iter().map(|a| a as &dyn Ast).collect();
                        (d.apply(&refs), value)
                    })
                    .collect::<Vec<_>>()
            })?;
            let decl = self
                .decl_raw(*f)
                .ok_or_else(|| z3err(format!("no declaration of function {f}")))?;
            tables.push(Table {
                decl,
                name: d.name(),
                arity: d.arity(),
                default: self.z3_term(*default)?.clone(),
                rows,
                apps,
            });
        }
        let written: Vec<FuncId> = func_tables.iter().map(|t| t.0).collect();
        let other_ids: Vec<FuncId> = self
            .funcs
            .keys()
            .filter(|f| !written.contains(f) && !self.state.relations.contains_key(f))
            .copied()
            .collect();
        let mut others: Vec<(Z3_func_decl, String)> = Vec::new();
        for f in other_ids {
            if let Some(decl) = self.decl_raw(f) {
                others.push((decl, self.func_decl(f)?.name()));
            }
        }
        others.sort_by(|a, b| a.1.cmp(&b.1));
        let hand = self.hand(m)?;
        // After a completing evaluation, the functions not written are not judged.
        if hand.completed.get() {
            others.clear();
        }
        let (c, raw) = (hand.c, hand.raw);
        let inject = matches!(self.config.inject, Some(super::inject::Fault::WrongRead));
        // SAFETY (every arm): z3-sys reads of the live model and terms of the main context;
        // what they return referenced while read.
        let problem = self
            .main(|| -> Result<Option<String>, String> {
                Ok(match function {
                    "Z3_model_get_func_interp" => unsafe { tables_differ(c, raw, &tables, inject) },
                    "Z3_model_has_interp" => {
                        let interpreted = consts
                            .iter()
                            .filter_map(|(k, _)| {
                                Some((unsafe { const_decl(c, k) }?, k.to_string(), true))
                            })
                            .chain(tables.iter().map(|t| (t.decl, t.name.clone(), true)));
                        let all =
                            interpreted.chain(others.iter().map(|(d, n)| (*d, n.clone(), false)));
                        let mut problem = None;
                        for (i, (d, name, expected)) in all.enumerate() {
                            let has = unsafe { z3_sys::Z3_model_has_interp(c, raw, d) }
                                != (inject && i == 0);
                            if has != expected {
                                problem = Some(format!(
                                    "Z3_model_has_interp of `{name}` is {has}, the trace \
                                     interpreted it: {expected}"
                                ));
                                break;
                            }
                        }
                        problem
                    }
                    "Z3_model_to_string" => {
                        let text =
                            super::read::text(unsafe { z3_sys::Z3_model_to_string(c, raw) })?;
                        consts
                            .iter()
                            .map(|(k, _)| k.to_string())
                            .chain(tables.iter().map(|t| t.name.clone()))
                            .map(|n| if inject { format!("{n}!!") } else { n })
                            .find(|n| !text.contains(n.as_str()))
                            .map(|n| format!("its text does not name `{n}`"))
                    }
                    "Z3_model_translate" => {
                        let probes = probes(&consts, &tables);
                        unsafe { translated_differs(c, raw, &probes, inject) }?
                    }
                    "Z3_model_extrapolate" => {
                        let equations: Vec<Bool> = probes(&consts, &tables)
                            .iter()
                            .filter_map(|(t, v)| t.safe_eq(v).ok())
                            .collect();
                        let fml = Bool::and(&equations);
                        let result =
                            unsafe { z3_sys::Z3_model_extrapolate(c, raw, fml.get_z3_ast()) };
                        match result {
                            None => None,
                            Some(r) => {
                                let r = unsafe { Dynamic::wrap(&z3::Context::thread_local(), r) };
                                let r = if inject {
                                    r.as_bool()
                                        .map(|b| Dynamic::from_ast(&b.not()))
                                        .unwrap_or(r)
                                } else {
                                    r
                                };
                                let hand_eval = |t: &Dynamic| -> Option<bool> {
                                    let mut out = std::mem::MaybeUninit::<z3_sys::Z3_ast>::uninit();
                                    unsafe {
                                        z3_sys::Z3_model_eval(
                                            c,
                                            raw,
                                            t.get_z3_ast(),
                                            true,
                                            out.as_mut_ptr(),
                                        )
                                        .then(|| {
                                            Dynamic::wrap(
                                                &z3::Context::thread_local(),
                                                out.assume_init(),
                                            )
                                        })
                                        .and_then(|v| v.as_bool()?.as_bool())
                                    }
                                };
                                match hand_eval(&r) {
                                    Some(false) => Some(format!(
                                        "Z3_model_extrapolate of a formula true in the model gives \
                                         `{}`, false in it",
                                        guard::one_line(&r.to_string())
                                    )),
                                    _ => None,
                                }
                            }
                        }
                    }
                    _ => return Err(format!("`{function}` is no reader of a model")),
                })
            })?
            .map_err(z3err)?;
        match problem {
            Some(problem) if self.config.run_checks => {
                Err(model_finding(function, format!("model {m}: {problem}")))
            }
            Some(_) => Ok(Outcome::Value("ok".into())),
            None => {
                self.count("model reads: as written");
                Ok(Outcome::Value("ok".into()))
            }
        }
    }
}

/// The terms whose values the model was given: each constant with its value, each
/// function applied to each entry's arguments with the last value written for them.
fn probes(consts: &[(Dynamic, Dynamic)], tables: &[Table]) -> Vec<(Dynamic, Dynamic)> {
    let mut out: Vec<(Dynamic, Dynamic)> = consts.to_vec();
    for table in tables {
        out.extend(table.apps.iter().cloned());
    }
    out
}

/// Each table read back (`Z3_model_get_func_interp`) against the one written: arity, entries
/// (arguments and value, through `Z3_func_entry_*`) and else value.
///
/// # Safety
/// `c` is live and `raw` a model of it.
unsafe fn tables_differ(
    c: Z3_context,
    raw: Z3_model,
    tables: &[Table],
    inject: bool,
) -> Option<String> {
    let ctx = z3::Context::thread_local();
    for Table {
        decl,
        name,
        arity: declared,
        default,
        rows,
        ..
    } in tables
    {
        let Some(fi) = z3_sys::Z3_model_get_func_interp(c, raw, *decl) else {
            return Some(format!("`{name}` has no interpretation"));
        };
        z3_sys::Z3_func_interp_inc_ref(c, fi);
        let arity = z3_sys::Z3_func_interp_get_arity(c, fi) as usize + usize::from(inject);
        let expected = expected_entries(rows);
        let n = z3_sys::Z3_func_interp_get_num_entries(c, fi) as usize;
        let mut read = Vec::new();
        for i in 0..n as u32 {
            let Some(e) = z3_sys::Z3_func_interp_get_entry(c, fi, i) else {
                continue;
            };
            z3_sys::Z3_func_entry_inc_ref(c, e);
            let args: Vec<Dynamic> = (0..z3_sys::Z3_func_entry_get_num_args(c, e))
                .filter_map(|j| z3_sys::Z3_func_entry_get_arg(c, e, j))
                .map(|a| Dynamic::wrap(&ctx, a))
                .collect();
            let value = z3_sys::Z3_func_entry_get_value(c, e).map(|v| Dynamic::wrap(&ctx, v));
            z3_sys::Z3_func_entry_dec_ref(c, e);
            read.push((args, value));
        }
        let else_value = z3_sys::Z3_func_interp_get_else(c, fi).map(|v| Dynamic::wrap(&ctx, v));
        z3_sys::Z3_func_interp_dec_ref(c, fi);
        if arity != *declared {
            return Some(format!("`{name}` has arity {arity}, declared {declared}"));
        }
        let same_entries = read.len() == expected.len()
            && read
                .iter()
                .zip(&expected)
                .all(|((a, v), (ea, ev))| a == ea && v.as_ref() == Some(ev));
        if !same_entries {
            return Some(format!(
                "`{name}` reads back {} entries, {} written",
                read.len(),
                expected.len()
            ));
        }
        if else_value.as_ref() != Some(default) {
            return Some(format!(
                "`{name}` reads back the else value {}, written {default}",
                else_value.map(|v| v.to_string()).unwrap_or_default()
            ));
        }
    }
    None
}

/// `Z3_model_translate` into a fresh context: every probe evaluates to the same value there
/// (each term translated with `Z3_translate`; values compared as text).
///
/// # Safety
/// `c` is live and `raw` a model of it.
unsafe fn translated_differs(
    c: Z3_context,
    raw: Z3_model,
    probes: &[(Dynamic, Dynamic)],
    inject: bool,
) -> Result<Option<String>, String> {
    let cfg = z3_sys::Z3_mk_config().ok_or("no config")?;
    let target = z3_sys::Z3_mk_context_rc(cfg);
    z3_sys::Z3_del_config(cfg);
    let target = target.ok_or("no context")?;
    z3_sys::Z3_set_error_handler(target, None);
    let text_in = |ctx: Z3_context, m: Z3_model, t: z3_sys::Z3_ast| -> Option<String> {
        let mut out = std::mem::MaybeUninit::<z3_sys::Z3_ast>::uninit();
        z3_sys::Z3_model_eval(ctx, m, t, true, out.as_mut_ptr()).then(|| {
            let v = out.assume_init();
            z3_sys::Z3_inc_ref(ctx, v);
            let text = super::read::text(z3_sys::Z3_ast_to_string(ctx, v)).unwrap_or_default();
            z3_sys::Z3_dec_ref(ctx, v);
            text
        })
    };
    let mut problem = None;
    if let Some(copy) = z3_sys::Z3_model_translate(c, raw, target) {
        z3_sys::Z3_model_inc_ref(target, copy);
        for (t, _) in probes {
            let Some(there) = z3_sys::Z3_translate(c, t.get_z3_ast(), target) else {
                continue;
            };
            z3_sys::Z3_inc_ref(target, there);
            let theirs = text_in(target, copy, there);
            z3_sys::Z3_dec_ref(target, there);
            let ours = text_in(c, raw, t.get_z3_ast()).map(|v| if inject { v + "!" } else { v });
            if let (Some(ours), Some(theirs)) = (ours, theirs) {
                if ours != theirs {
                    problem = Some(format!(
                        "`{}` is {ours} in the model and {theirs} in its translation",
                        guard::one_line(&t.to_string())
                    ));
                    break;
                }
            }
        }
        z3_sys::Z3_model_dec_ref(target, copy);
    }
    z3_sys::Z3_del_context(target);
    Ok(problem)
}
