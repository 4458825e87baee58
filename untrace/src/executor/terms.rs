//! Building sorts and literals in Z3 from the model's [`Sort`] and literal text.
//!
//! [`z3_sort`] maps a model sort to a `z3::Sort`; [`literal`] builds the Z3 value a `lit`
//! call names. Both run inside a guard (see `guard`), so a rejected call becomes an error.

use model::call_text::real_parts;
use model::Sort;
use std::ffi::CString;
use z3::ast::{Ast, Bool, Dynamic, Int, Real, RoundingMode, Seq, BV};
use z3::{Context, Pattern, Symbol};

/// The Z3 sort of a model sort, in the thread-local context.
pub fn z3_sort(sort: &Sort) -> Result<z3::Sort, String> {
    Ok(match sort {
        Sort::Bool => z3::Sort::bool(),
        Sort::Int => z3::Sort::int(),
        Sort::Real => z3::Sort::real(),
        Sort::BitVec(w) => z3::Sort::bitvector(*w),
        Sort::Array(i, e) => z3::Sort::array(&z3_sort(i)?, &z3_sort(e)?),
        Sort::FloatingPoint(e, s) => z3::Sort::float(*e, *s),
        // The crate has no rounding-mode sort constructor: Z3's own, wrapped.
        Sort::RoundingMode => rounding_mode_sort()?,
        Sort::String => z3::Sort::string(),
        Sort::Seq(e) => z3::Sort::seq(&z3_sort(e)?),
        // Looked up by name (releases after 4.8.12 only), never linked.
        Sort::FiniteSet(e) => super::fsets::finite_set_sort(&z3_sort(e)?)?,
        Sort::FiniteField(p) => super::fsets::finite_field_sort(*p)?,
        Sort::Named(name, params) if params.is_empty() => {
            z3::Sort::uninterpreted(Symbol::String(name.clone()))
        }
        // The crate's regular-expression sort constructor is private; `re.all` carries it.
        Sort::RegLan => z3::ast::Regexp::full().get_sort(),
        Sort::Named(..) => return Err(format!("sort {sort} has no counterpart in the trace API")),
    })
}

fn wrap(raw: Option<z3_sys::Z3_ast>, what: &str) -> Dynamic {
    let ctx = Context::thread_local();
    let ast = raw.unwrap_or_else(|| panic!("{what} returned NULL"));
    // SAFETY: a non-NULL AST just returned by Z3 for the thread-local context.
    unsafe { Dynamic::wrap(&ctx, ast) }
}

/// The literal `value` of `sort` (`z3` is the Z3 form of `sort`). The reference state has
/// checked the text (`model::state::check_literal`).
pub fn literal(sort: &Sort, z3: &z3::Sort, value: &str) -> Result<Dynamic, String> {
    let ctx = Context::thread_local();
    let raw = ctx.get_z3_context();
    let bad = || format!("`{value}` is not a literal of sort {sort}");
    Ok(match sort {
        Sort::Bool => Bool::from_bool(value == "true").into(),
        Sort::Int => value.parse::<Int>().map_err(|_| bad())?.into(),
        Sort::Real => {
            let (num, den) = real_parts(value).ok_or_else(bad)?;
            Real::from_rational_str(&num, &den).ok_or_else(bad)?.into()
        }
        Sort::BitVec(w) => BV::from_str(*w, value).ok_or_else(bad)?.into(),
        Sort::FloatingPoint(..) => {
            let s = z3.get_z3_sort();
            // SAFETY: plain constructor calls on the thread-local context and a live sort.
            let ast = unsafe {
                match value {
                    "nan" => z3_sys::Z3_mk_fpa_nan(raw, s),
                    "+inf" => z3_sys::Z3_mk_fpa_inf(raw, s, false),
                    "-inf" => z3_sys::Z3_mk_fpa_inf(raw, s, true),
                    "+zero" | "-zero" => {
                        super::unlogged::note("Z3_mk_fpa_zero");
                        z3_sys::Z3_mk_fpa_zero(raw, s, value == "-zero")
                    }
                    text => {
                        let v: f64 = text.parse().map_err(|_| bad())?;
                        z3_sys::Z3_mk_fpa_numeral_double(raw, v, s)
                    }
                }
            };
            wrap(ast, "a floating-point literal")
        }
        Sort::RoundingMode => Dynamic::from_ast(&match value {
            "RNE" => RoundingMode::round_nearest_ties_to_even(),
            "RNA" => RoundingMode::round_nearest_ties_to_away(),
            "RTP" => RoundingMode::round_towards_positive(),
            "RTN" => RoundingMode::round_towards_negative(),
            "RTZ" => RoundingMode::round_towards_zero(),
            _ => return Err(bad()),
        }),
        // `Z3_mk_string` reads `\u{H}` escapes and takes every other byte as a character (a
        // UTF-8 `é` would be two): every character but printable ASCII, and the backslash
        // that would start an escape, goes as its escape.
        Sort::String => z3_string_text(value)
            .parse::<z3::ast::String>()
            .map_err(|_| format!("string literal {value:?} contains NUL"))?
            .into(),
        Sort::Seq(element) if value.is_empty() => Seq::empty(&z3_sort(element)?).into(),
        // A field element by its decimal value (`Z3_mk_numeral` of the field's sort).
        Sort::FiniteField(_) => {
            let text = CString::new(value).map_err(|_| bad())?;
            // SAFETY: a plain constructor call on the thread-local context and a live sort.
            let ast = unsafe { z3_sys::Z3_mk_numeral(raw, text.as_ptr(), z3.get_z3_sort()) };
            wrap(ast, "a field literal")
        }
        _ => return Err(bad()),
    })
}

/// The rounding-mode sort, made by Z3's maker of it (`Z3_mk_fpa_rounding_mode_sort`).
fn rounding_mode_sort() -> Result<z3::Sort, String> {
    let ctx = Context::thread_local();
    // SAFETY: a plain sort maker of the thread-local context; its sort is wrapped (referenced)
    // at once.
    unsafe {
        let made = z3_sys::Z3_mk_fpa_rounding_mode_sort(ctx.get_z3_context())
            .ok_or("Z3_mk_fpa_rounding_mode_sort returned no sort")?;
        Ok(super::datatypes::sort_of_raw(made))
    }
}

/// The text `Z3_mk_string` reads as the characters of `value` (the reproducers pass the same).
pub fn z3_string_text(value: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            ' '..='~' if c != '\\' => out.push(c),
            c => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
        }
    }
    out
}

/// `t` simplified with simplifier parameters (`Z3_simplify_ex`): `true`/`false` values are
/// Booleans, numerals unsigned integers, anything else a symbol, as Z3 reads them.
pub fn simplify_with(t: &Dynamic, params: &[(String, String)]) -> Result<Dynamic, String> {
    let ctx = Context::thread_local();
    let raw = ctx.get_z3_context();
    let names = params
        .iter()
        .map(|(k, v)| Ok((CString::new(k.as_str())?, CString::new(v.as_str())?, v)))
        .collect::<Result<Vec<_>, std::ffi::NulError>>()
        .map_err(|_| "a parameter with a NUL byte".to_string())?;
    // SAFETY: a parameter set made, reference-counted and released here; symbols and the
    // result belong to the thread-local context, and the result is wrapped (referenced)
    // before the parameter set is released.
    unsafe {
        let p = z3_sys::Z3_mk_params(raw).ok_or("Z3_mk_params failed")?;
        z3_sys::Z3_params_inc_ref(raw, p);
        for (key, text, value) in &names {
            let Some(k) = z3_sys::Z3_mk_string_symbol(raw, key.as_ptr()) else {
                continue;
            };
            match (value.as_str(), value.parse::<u32>()) {
                ("true", _) => z3_sys::Z3_params_set_bool(raw, p, k, true),
                ("false", _) => z3_sys::Z3_params_set_bool(raw, p, k, false),
                (_, Ok(n)) => z3_sys::Z3_params_set_uint(raw, p, k, n),
                _ => {
                    if let Some(v) = z3_sys::Z3_mk_string_symbol(raw, text.as_ptr()) {
                        z3_sys::Z3_params_set_symbol(raw, p, k, v)
                    }
                }
            }
        }
        let result = z3_sys::Z3_simplify_ex(raw, t.get_z3_ast(), p);
        let wrapped = result.map(|ast| Dynamic::wrap(&ctx, ast));
        z3_sys::Z3_params_dec_ref(raw, p);
        wrapped.ok_or_else(|| "simplify_with returned no term".to_string())
    }
}

/// The quantifier over the constants `vars` (made by `var`) of `body`, with one
/// (multi-)pattern per group of `patterns` (`Z3_mk_pattern`) and `no_patterns`
/// (`Z3_mk_quantifier_const_ex`). Its id symbols are fixed, so a replay builds the same term.
pub fn quantifier(
    forall: bool,
    weight: u32,
    vars: &[&Dynamic],
    body: &Dynamic,
    patterns: &[Vec<&Dynamic>],
    no_patterns: &[&Dynamic],
) -> Result<Dynamic, String> {
    let body = body
        .as_bool()
        .ok_or_else(|| "a quantifier body must be Bool".to_string())?;
    let patterns: Vec<Pattern> = patterns
        .iter()
        .map(|group| {
            let terms: Vec<&dyn Ast> = group.iter().map(|t| *t as &dyn Ast).collect();
            Pattern::new(&terms)
        })
        .collect();
    let pattern_refs: Vec<&Pattern> = patterns.iter().collect();
    let bounds: Vec<&dyn Ast> = vars.iter().map(|t| *t as &dyn Ast).collect();
    let no_patterns: Vec<&dyn Ast> = no_patterns.iter().map(|t| *t as &dyn Ast).collect();
    let q = z3::ast::quantifier_const(
        forall,
        weight,
        "q",
        "sk",
        &bounds,
        &pattern_refs,
        &no_patterns,
        &body,
    );
    Ok(Dynamic::from_ast(&q))
}

/// Whether Z3's maker of a fixed floating-point format (`model::call::FIXED_FP_FORMATS`)
/// returns `expected`, the sort `Z3_mk_fpa_sort` made of that format (`None`: no such
/// maker). None of these makers shows in Z3's log: the executor counts them.
pub fn same_as_fixed_fp_sort(function: &str, expected: &z3::Sort) -> Option<bool> {
    use z3_sys::*;
    let maker: unsafe extern "C" fn(Z3_context) -> Option<Z3_sort> = match function {
        "Z3_mk_fpa_sort_half" => Z3_mk_fpa_sort_half,
        "Z3_mk_fpa_sort_16" => Z3_mk_fpa_sort_16,
        "Z3_mk_fpa_sort_single" => Z3_mk_fpa_sort_single,
        "Z3_mk_fpa_sort_32" => Z3_mk_fpa_sort_32,
        "Z3_mk_fpa_sort_double" => Z3_mk_fpa_sort_double,
        "Z3_mk_fpa_sort_64" => Z3_mk_fpa_sort_64,
        "Z3_mk_fpa_sort_quadruple" => Z3_mk_fpa_sort_quadruple,
        "Z3_mk_fpa_sort_128" => Z3_mk_fpa_sort_128,
        _ => return None,
    };
    super::unlogged::note(function);
    super::unlogged::note("Z3_is_eq_sort");
    let ctx = Context::thread_local().get_z3_context();
    // SAFETY: a maker of the thread-local context; its sort is compared at once, while
    // `expected` keeps the sort it should be alive.
    Some(unsafe { maker(ctx).is_some_and(|made| Z3_is_eq_sort(ctx, made, expected.get_z3_sort())) })
}

/// `f` applied pointwise to `arrays` (`Z3_mk_map`), one array per argument of `f`; `f`'s
/// raw declaration is read off an application of it (the crate gives no raw handle).
pub fn array_map(f: &z3::FuncDecl, arrays: &[&Dynamic]) -> Result<Dynamic, String> {
    let args: Vec<Dynamic> = arrays
        .iter()
        .map(|a| {
            a.get_sort()
                .array_range()
                .map(|s| Dynamic::fresh_const("map!arg", &s))
                .ok_or_else(|| "array_map of a term that is no array".to_string())
        })
        .collect::<Result<_, _>>()?;
    let refs: Vec<&dyn Ast> = args.iter().map(|a| a as &dyn Ast).collect();
    let app = f.apply(&refs);
    let ctx = z3::Context::thread_local();
    let c = ctx.get_z3_context();
    let raw: Vec<z3_sys::Z3_ast> = arrays.iter().map(|a| a.get_z3_ast()).collect();
    // SAFETY: live terms of the thread-local context; the application `app` (and so its
    // declaration) lives across the call; the result is wrapped (referenced) at once.
    unsafe {
        let decl = z3_sys::Z3_to_app(c, app.get_z3_ast())
            .and_then(|a| z3_sys::Z3_get_app_decl(c, a))
            .ok_or("no declaration of the function")?;
        let made = z3_sys::Z3_mk_map(c, decl, raw.len() as u32, raw.as_ptr())
            .ok_or("Z3_mk_map returned nothing")?;
        Ok(Dynamic::wrap(&ctx, made))
    }
}
