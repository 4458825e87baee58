//! Z3's term, symbol and function makers that the `z3` crate has no wrapper of, or whose
//! answer the executor judges as it makes them: `Z3_mk_divides`, constants and functions
//! named by integer symbols (`Z3_mk_int_symbol`, read back by `Z3_get_symbol_int`),
//! `Z3_mk_fresh_func_decl` and `Z3_update_term`. Each maker answers `Err` for Z3's refusal,
//! else what it made with, where the answer is not what Z3 documents, what is [`Wrong`].

use super::guard;
use std::ffi::{CStr, CString};
use z3::ast::{Ast, Dynamic};
use z3::{Context, FuncDecl, Symbol};
use z3_sys::{Z3_ast, Z3_context, Z3_func_decl};

/// What a maker answered against what Z3 documents: the finding's message and cause.
pub struct Wrong {
    pub message: String,
    pub cause: String,
}

type Made<T> = Result<(T, Option<Wrong>), String>;

fn wrong(message: String, cause: &str) -> Wrong {
    Wrong {
        message,
        cause: cause.to_string(),
    }
}

/// `((_ divisible N) t)` by `Z3_mk_divides` of the numeral N (made by `Z3_mk_unsigned_int`).
pub fn divides(divisor: u32, t: &Dynamic) -> Result<Dynamic, String> {
    let ctx = Context::thread_local();
    let raw = ctx.get_z3_context();
    guard::guarded(&ctx, || {
        // SAFETY: constructors of the thread-local context; the numeral is wrapped
        // (referenced) before the next call that makes an AST.
        unsafe {
            let int = z3_sys::Z3_mk_int_sort(raw)?;
            let n = Dynamic::wrap(&ctx, z3_sys::Z3_mk_unsigned_int(raw, divisor, int)?);
            let made = z3_sys::Z3_mk_divides(raw, n.get_z3_ast(), t.get_z3_ast())?;
            Some(Dynamic::wrap(&ctx, made))
        }
    })?
    .ok_or_else(|| "Z3_mk_divides returned no term".to_string())
}

/// The declaration of application `t`, raw (the crate gives no raw handle of a declaration).
fn raw_decl(ctx: Z3_context, t: Z3_ast) -> Option<Z3_func_decl> {
    // SAFETY: `t` is a live application of `ctx` (the callers make it so).
    unsafe { z3_sys::Z3_get_app_decl(ctx, z3_sys::Z3_to_app(ctx, t)?) }
}

/// The integer of a declaration's name, `None` where the name is no integer symbol.
fn int_name(ctx: Z3_context, decl: Z3_func_decl) -> Option<u32> {
    // SAFETY: a live declaration of `ctx`.
    unsafe {
        let symbol = z3_sys::Z3_get_decl_name(ctx, decl)?;
        (z3_sys::Z3_get_symbol_kind(ctx, symbol) == z3_sys::SymbolKind::Int)
            .then(|| z3_sys::Z3_get_symbol_int(ctx, symbol) as u32)
    }
}

/// Whether the name of declaration `decl` reads back as the integer symbol `index`.
fn judge_int_name(
    ctx: Z3_context,
    decl: Option<Z3_func_decl>,
    index: u32,
    what: &str,
) -> Option<Wrong> {
    match decl.map(|d| int_name(ctx, d)) {
        Some(Some(read)) if read == index => None,
        Some(Some(read)) => Some(wrong(
            format!("{what} named by the integer symbol {index} reads back the integer {read}"),
            "Z3_get_symbol_int: another integer",
        )),
        _ => Some(wrong(
            format!("{what} named by the integer symbol {index} reads back no integer symbol"),
            "Z3_get_symbol_kind: no integer symbol",
        )),
    }
}

/// A constant of `sort` named by the integer symbol `index`, its name read back.
pub fn const_int_sym(index: u32, sort: &z3::Sort) -> Made<Dynamic> {
    let ctx = Context::thread_local();
    let raw = ctx.get_z3_context();
    guard::guarded(&ctx, || {
        let c = Dynamic::new_const(Symbol::Int(index), sort);
        let judged = judge_int_name(raw, raw_decl(raw, c.get_z3_ast()), index, "a constant");
        (c, judged)
    })
}

/// The function `decl` (raw, just made) as the crate's declaration, read off an application
/// of it to `args`, constants of its domain made before it: the application is the first
/// AST made after the declaration, so that nothing frees the unreferenced declaration first.
fn wrapped(ctx: &Context, decl: Z3_func_decl, args: &[Dynamic]) -> Option<FuncDecl> {
    let raw_args: Vec<Z3_ast> = args.iter().map(|a| a.get_z3_ast()).collect();
    // SAFETY: a live declaration of the thread-local context applied to arguments of its
    // domain; the application is wrapped (referenced) at once.
    unsafe {
        let app = z3_sys::Z3_mk_app(
            ctx.get_z3_context(),
            decl,
            raw_args.len() as u32,
            raw_args.as_ptr(),
        )?;
        Some(Dynamic::wrap(ctx, app).decl())
    }
}

/// A function from `domain` to `range` named by the integer symbol `index`, its name read
/// back.
pub fn fun_int_sym(index: u32, domain: &[&z3::Sort], range: &z3::Sort) -> Made<FuncDecl> {
    let ctx = Context::thread_local();
    let raw = ctx.get_z3_context();
    guard::guarded(&ctx, || {
        let f = FuncDecl::new(Symbol::Int(index), domain, range);
        let args: Vec<Dynamic> = domain
            .iter()
            .map(|s| Dynamic::fresh_const("fun!arg", s))
            .collect();
        let refs: Vec<&dyn Ast> = args.iter().map(|a| a as &dyn Ast).collect();
        let app = f.apply(&refs);
        let judged = judge_int_name(raw, raw_decl(raw, app.get_z3_ast()), index, "a function");
        (f, judged)
    })
}

/// A function from `domain` to `range` with a fresh name that starts with `prefix`
/// (`Z3_mk_fresh_func_decl`), judged: its name starts with the prefix, its domain and range
/// are the ones asked for.
pub fn fresh_func(prefix: &str, domain: &[&z3::Sort], range: &z3::Sort) -> Made<FuncDecl> {
    let ctx = Context::thread_local();
    let raw = ctx.get_z3_context();
    let text = CString::new(prefix).map_err(|_| format!("the prefix {prefix:?} holds NUL"))?;
    let raw_domain: Vec<z3_sys::Z3_sort> = domain.iter().map(|s| s.get_z3_sort()).collect();
    let made = guard::guarded(&ctx, || {
        let args: Vec<Dynamic> = domain
            .iter()
            .map(|s| Dynamic::fresh_const("fun!arg", s))
            .collect();
        // SAFETY: the function's z3_api.h signature; the sorts live across the call.
        let decl = unsafe {
            z3_sys::Z3_mk_fresh_func_decl(
                raw,
                text.as_ptr(),
                raw_domain.len() as u32,
                raw_domain.as_ptr(),
                range.get_z3_sort(),
            )
        }?;
        let f = wrapped(&ctx, decl, &args)?;
        // SAFETY: a live declaration of the thread-local context; Z3 owns the name's text
        // until its next call, and it is copied at once.
        let (name, arity, same_range) = unsafe {
            let symbol = z3_sys::Z3_get_decl_name(raw, decl)?;
            let name = z3_sys::Z3_get_symbol_string(raw, symbol);
            let name =
                (!name.is_null()).then(|| CStr::from_ptr(name).to_string_lossy().into_owned());
            let range_read = z3_sys::Z3_get_range(raw, decl)?;
            (
                name,
                z3_sys::Z3_get_domain_size(raw, decl),
                z3_sys::Z3_is_eq_sort(raw, range_read, range.get_z3_sort()),
            )
        };
        Some((f, name, arity, same_range))
    })?;
    let Some((f, name, arity, same_range)) = made else {
        return Err("Z3_mk_fresh_func_decl returned no function".into());
    };
    super::unlogged::note("Z3_is_eq_sort");
    if !name.as_deref().is_some_and(|n| n.starts_with(prefix)) {
        let w = wrong(
            format!("Z3_mk_fresh_func_decl with the prefix {prefix:?} named the function {name:?}"),
            "Z3_mk_fresh_func_decl: a name without its prefix",
        );
        return Ok((f, Some(w)));
    }
    if arity as usize != domain.len() || !same_range {
        let w = wrong(
            format!(
                "Z3_mk_fresh_func_decl of {} arguments made a function of {arity} arguments{}",
                domain.len(),
                if same_range { "" } else { " and another range" }
            ),
            "Z3_mk_fresh_func_decl: another signature",
        );
        return Ok((f, Some(w)));
    }
    Ok((f, None))
}

/// `t` with the arguments `args` (`Z3_update_term`), judged to be the very AST that `t`'s
/// declaration makes of `args` (`Z3_mk_app`).
pub fn update_term(t: &Dynamic, args: &[&Dynamic]) -> Made<Dynamic> {
    let ctx = Context::thread_local();
    let raw = ctx.get_z3_context();
    let raw_args: Vec<Z3_ast> = args.iter().map(|a| a.get_z3_ast()).collect();
    let made = guard::guarded(&ctx, || {
        // SAFETY: the function's z3_api.h signature; the arguments live across the call and
        // the result is wrapped (referenced) at once.
        let updated = unsafe {
            z3_sys::Z3_update_term(
                raw,
                t.get_z3_ast(),
                raw_args.len() as u32,
                raw_args.as_ptr(),
            )
        }
        .map(|u| unsafe { Dynamic::wrap(&ctx, u) })?;
        let refs: Vec<&dyn Ast> = args.iter().map(|a| *a as &dyn Ast).collect();
        let rebuilt = t.safe_decl().ok()?.apply(&refs);
        // SAFETY: two live ASTs of the thread-local context.
        let same = unsafe { z3_sys::Z3_is_eq_ast(raw, updated.get_z3_ast(), rebuilt.get_z3_ast()) };
        Some((updated, rebuilt, same))
    })?;
    super::unlogged::note("Z3_is_eq_ast");
    let Some((updated, rebuilt, same)) = made else {
        return Err("Z3_update_term returned no term".into());
    };
    if !same {
        let w = wrong(
            format!(
                "Z3_update_term of {} gives {}, its declaration applied to the new arguments is {}",
                one_line(t),
                one_line(&updated),
                one_line(&rebuilt)
            ),
            "Z3_update_term: another term than Z3_mk_app",
        );
        return Ok((updated, Some(w)));
    }
    Ok((updated, None))
}

fn one_line(t: &Dynamic) -> String {
    t.to_string()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The array sort from `domain` to `range` by `Z3_mk_array_sort_n`, and whether it is the
/// very sort `expected` (what `Z3_mk_array_sort` made of the same sorts).
pub fn array_sort_n(
    domain: &[&z3::Sort],
    range: &z3::Sort,
    expected: &z3::Sort,
) -> Result<(z3::Sort, bool), String> {
    let ctx = Context::thread_local();
    let raw = ctx.get_z3_context();
    let raw_domain: Vec<z3_sys::Z3_sort> = domain.iter().map(|s| s.get_z3_sort()).collect();
    super::unlogged::note("Z3_is_eq_sort");
    guard::guarded(&ctx, || {
        // SAFETY: the function's z3_api.h signature; the sorts live across the call and the
        // result is wrapped (referenced) before the next call that makes an AST.
        unsafe {
            let made = z3_sys::Z3_mk_array_sort_n(
                raw,
                raw_domain.len() as u32,
                raw_domain.as_ptr(),
                range.get_z3_sort(),
            )?;
            let same = z3_sys::Z3_is_eq_sort(raw, made, expected.get_z3_sort());
            Some((super::datatypes::sort_of_raw(made), same))
        }
    })?
    .ok_or_else(|| "Z3_mk_array_sort_n returned no sort".into())
}

/// The sort of regular expressions over the sequence sort `seq` (`Z3_mk_re_sort`).
pub fn re_sort(seq: &z3::Sort) -> Result<z3::Sort, String> {
    let ctx = Context::thread_local();
    let raw = ctx.get_z3_context();
    guard::guarded(&ctx, || {
        // SAFETY: the function's z3_api.h signature; the result is wrapped at once.
        unsafe {
            let made = z3_sys::Z3_mk_re_sort(raw, seq.get_z3_sort())?;
            Some(super::datatypes::sort_of_raw(made))
        }
    })?
    .ok_or_else(|| "Z3_mk_re_sort returned no sort".into())
}
