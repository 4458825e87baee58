//! `quant_rebuild`: a quantifier made again through another of Z3's makers
//! (`model::quant::MAKERS`), from Z3's own reading of it: its flag, weight, bound sorts and
//! names, its body over de Bruijn indices (`Z3_get_quantifier_body`), its patterns term by
//! term and its no-patterns. The makers over constants take the body with the quantifier's
//! variables put back (`Z3_substitute_vars`). [`rebuild`] returns the term made and, where it
//! is not what it must be, why: a quantifier maker's term is the quantifier itself
//! (`Z3_is_eq_ast`, or all its parts but the ids), and the two lambda makers give one term.
//! The makers over indices take the body with the variables put back and then replaced by
//! indices of `Z3_mk_bound` (`Z3_substitute`), not the body as read.

use model::quant::{Binding, Maker};
use z3::ast::{Ast, Dynamic};
use z3::Context;
use z3_sys::*;

/// The ASTs this module made and referenced, released when it goes (every early return
/// included).
struct Held(Z3_context, Vec<Z3_ast>);

impl Held {
    /// References `a` until the end (a fresh AST of a reference-counted context lives only
    /// until the next call otherwise).
    ///
    /// # Safety
    /// `a` is a live AST of context `self.0`.
    unsafe fn hold(&mut self, a: Z3_ast) -> Z3_ast {
        Z3_inc_ref(self.0, a);
        self.1.push(a);
        a
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        for a in self.1.drain(..) {
            // SAFETY: each was referenced once by `hold`, in this context.
            unsafe { Z3_dec_ref(self.0, a) };
        }
    }
}

/// What Z3 returned, or the error it left.
fn made<T>(what: &str, got: Option<T>) -> Result<T, String> {
    got.ok_or_else(|| format!("{what} returned nothing"))
}

/// The quantifier `q` (whose variables, in declaration order, are `vars`) made again by
/// `maker`, with its weight read `weight_shift` more (an injected wrong read), and the
/// problem with the term made, if any.
pub fn rebuild(
    maker: Maker,
    q: &Dynamic,
    vars: &[&Dynamic],
    weight_shift: u32,
) -> Result<(Dynamic, Option<String>), String> {
    let ctx = Context::thread_local();
    let c = ctx.get_z3_context();
    let a = q.get_z3_ast();
    let mut held = Held(c, Vec::new());
    // SAFETY: reads of a live quantifier of the thread-local context (the reference state
    // makes sure it is one, with `vars.len()` variables); every AST made is held while it is
    // used; arrays outlive the calls that read them.
    unsafe {
        let forall = Z3_is_quantifier_forall(c, a);
        let weight = Z3_get_quantifier_weight(c, a) + weight_shift;
        let n = Z3_get_quantifier_num_bound(c, a);
        if n as usize != vars.len() {
            return Err(format!(
                "the quantifier has {n} bound variables, the trace made it of {}",
                vars.len()
            ));
        }
        let body = made("Z3_get_quantifier_body", Z3_get_quantifier_body(c, a))?;
        let names: Vec<Z3_symbol> = (0..n)
            .map(|i| {
                made(
                    "Z3_get_quantifier_bound_name",
                    Z3_get_quantifier_bound_name(c, a, i),
                )
            })
            .collect::<Result<_, _>>()?;
        let sorts: Vec<Z3_sort> = (0..n)
            .map(|i| {
                made(
                    "Z3_get_quantifier_bound_sort",
                    Z3_get_quantifier_bound_sort(c, a, i),
                )
            })
            .collect::<Result<_, _>>()?;
        // Bound variable i (declaration order) has de Bruijn index n - 1 - i.
        let consts: Vec<Z3_ast> = (0..n as usize)
            .rev()
            .map(|i| vars[i].get_z3_ast())
            .collect();
        let apps: Vec<Z3_app> = vars
            .iter()
            .map(|v| made("Z3_to_app", Z3_to_app(c, v.get_z3_ast())))
            .collect::<Result<_, _>>()?;
        let with_consts = |held: &mut Held, t: Z3_ast| -> Result<Z3_ast, String> {
            let s = Z3_substitute_vars(c, t, n, consts.as_ptr());
            Ok(held.hold(made("Z3_substitute_vars", s)?))
        };
        let body_consts = with_consts(&mut held, body)?;
        // The makers over indices take the body with the constants replaced by de Bruijn
        // variables of our own making (`Z3_mk_bound`), not the quantifier's body as read.
        let var_asts: Vec<Z3_ast> = vars.iter().map(|v| v.get_z3_ast()).collect();
        let mut bounds = Vec::new();
        for (i, sort) in sorts.iter().enumerate() {
            let b = made("Z3_mk_bound", Z3_mk_bound(c, n - 1 - i as u32, *sort))?;
            bounds.push(held.hold(b));
        }
        let with_indices = |held: &mut Held, t: Z3_ast| -> Result<Z3_ast, String> {
            let s = Z3_substitute(c, t, n, var_asts.as_ptr(), bounds.as_ptr());
            Ok(held.hold(made("Z3_substitute", s)?))
        };
        // `Z3_substitute` does not shift indices under binders: with a quantifier inside
        // the body, the body as read is the one to take.
        let nested = has_quantifier(c, body_consts);
        let body = match nested {
            false => with_indices(&mut held, body_consts)?,
            true => body,
        };
        let mut patterns: Vec<Z3_pattern> = Vec::new();
        for i in 0..Z3_get_quantifier_num_patterns(c, a) {
            let p = made(
                "Z3_get_quantifier_pattern_ast",
                Z3_get_quantifier_pattern_ast(c, a, i),
            )?;
            let mut terms = Vec::new();
            for j in 0..Z3_get_pattern_num_terms(c, p) {
                let t = made("Z3_get_pattern", Z3_get_pattern(c, p, j))?;
                let t = with_consts(&mut held, t)?;
                terms.push(match maker.binding {
                    Binding::Indices if nested => made("Z3_get_pattern", Z3_get_pattern(c, p, j))?,
                    Binding::Indices => with_indices(&mut held, t)?,
                    Binding::Consts => t,
                });
            }
            let made_pattern = made(
                "Z3_mk_pattern",
                Z3_mk_pattern(c, terms.len() as u32, terms.as_ptr()),
            )?;
            held.hold(made(
                "Z3_pattern_to_ast",
                Z3_pattern_to_ast(c, made_pattern),
            )?);
            patterns.push(made_pattern);
        }
        let no_patterns: Vec<Z3_ast> = (0..Z3_get_quantifier_num_no_patterns(c, a))
            .map(|i| {
                made(
                    "Z3_get_quantifier_no_pattern_ast",
                    Z3_get_quantifier_no_pattern_ast(c, a, i),
                )
            })
            .collect::<Result<_, _>>()?;
        let symbol = |text: &str| {
            let text = std::ffi::CString::new(text).expect("no NUL");
            made("Z3_mk_string_symbol", Z3_mk_string_symbol(c, text.as_ptr()))
        };
        let np = patterns.len() as u32;
        let built = match (maker.name, maker.lambda) {
            (_, true) => {
                let lambda = made(
                    "Z3_mk_lambda",
                    Z3_mk_lambda(c, n, sorts.as_ptr(), names.as_ptr(), body),
                )?;
                let lambda = held.hold(lambda);
                let other = made(
                    "Z3_mk_lambda_const",
                    Z3_mk_lambda_const(c, n, apps.as_ptr(), body_consts),
                )?;
                let other = held.hold(other);
                let problem = (!Z3_is_eq_ast(c, lambda, other)).then(|| {
                    "Z3_mk_lambda and Z3_mk_lambda_const made different lambdas of one quantifier's body".to_string()
                });
                return Ok((Dynamic::wrap(&ctx, lambda), problem));
            }
            ("Z3_mk_forall_const" | "Z3_mk_exists_const", _) => {
                let f = if forall {
                    Z3_mk_forall_const
                } else {
                    Z3_mk_exists_const
                };
                f(
                    c,
                    weight,
                    n,
                    apps.as_ptr(),
                    np,
                    patterns.as_ptr(),
                    body_consts,
                )
            }
            ("Z3_mk_quantifier_const", _) => Z3_mk_quantifier_const(
                c,
                forall,
                weight,
                n,
                apps.as_ptr(),
                np,
                patterns.as_ptr(),
                body_consts,
            ),
            ("Z3_mk_forall" | "Z3_mk_exists", _) => {
                let f = if forall { Z3_mk_forall } else { Z3_mk_exists };
                f(
                    c,
                    weight,
                    np,
                    patterns.as_ptr(),
                    n,
                    sorts.as_ptr(),
                    names.as_ptr(),
                    body,
                )
            }
            ("Z3_mk_quantifier_ex", _) => Z3_mk_quantifier_ex(
                c,
                forall,
                weight,
                symbol("q")?,
                symbol("sk")?,
                np,
                patterns.as_ptr(),
                no_patterns.len() as u32,
                no_patterns.as_ptr(),
                n,
                sorts.as_ptr(),
                names.as_ptr(),
                body,
            ),
            _ => Z3_mk_quantifier(
                c,
                forall,
                weight,
                np,
                patterns.as_ptr(),
                n,
                sorts.as_ptr(),
                names.as_ptr(),
                body,
            ),
        };
        let built = held.hold(made(maker.name, built)?);
        let problem = (!Z3_is_eq_ast(c, built, a) && !same_parts(c, built, a))
            .then(|| format!("{} made a term other than the quantifier", maker.name));
        Ok((Dynamic::wrap(&ctx, built), problem))
    }
}

/// Whether a quantifier occurs in `t` (a walk of its DAG).
///
/// # Safety
/// `t` is a live AST of context `c`.
unsafe fn has_quantifier(c: Z3_context, t: Z3_ast) -> bool {
    let mut seen = std::collections::HashSet::new();
    let mut todo = vec![t];
    while let Some(t) = todo.pop() {
        if !seen.insert(Z3_get_ast_id(c, t)) {
            continue;
        }
        match Z3_get_ast_kind(c, t) {
            AstKind::Quantifier => return true,
            AstKind::App => {
                if let Some(app) = Z3_to_app(c, t) {
                    for i in 0..Z3_get_app_num_args(c, app) {
                        todo.extend(Z3_get_app_arg(c, app, i));
                    }
                }
            }
            _ => {}
        }
    }
    false
}

/// Whether two quantifiers agree in everything but their quantifier and skolem ids (which
/// only `Z3_mk_quantifier_ex` takes, and which Z3 5.x counts in a term's identity, 4.8.12
/// not): kind, weight, bound names and sorts, body, patterns and no-patterns.
///
/// # Safety
/// `x` and `y` are live ASTs of context `c`.
unsafe fn same_parts(c: Z3_context, x: Z3_ast, y: Z3_ast) -> bool {
    if Z3_get_ast_kind(c, x) != AstKind::Quantifier || Z3_get_ast_kind(c, y) != AstKind::Quantifier
    {
        return false;
    }
    let n = Z3_get_quantifier_num_bound(c, x);
    let eq = |a: Option<Z3_ast>, b: Option<Z3_ast>| match (a, b) {
        (Some(a), Some(b)) => Z3_is_eq_ast(c, a, b),
        _ => false,
    };
    let pattern = |q: Z3_ast, i: u32| {
        Z3_get_quantifier_pattern_ast(c, q, i).and_then(|p| Z3_pattern_to_ast(c, p))
    };
    Z3_is_quantifier_forall(c, x) == Z3_is_quantifier_forall(c, y)
        && Z3_is_lambda(c, x) == Z3_is_lambda(c, y)
        && Z3_get_quantifier_weight(c, x) == Z3_get_quantifier_weight(c, y)
        && n == Z3_get_quantifier_num_bound(c, y)
        && (0..n).all(|i| {
            let sorts = (
                Z3_get_quantifier_bound_sort(c, x, i),
                Z3_get_quantifier_bound_sort(c, y, i),
            );
            let names = (
                Z3_get_quantifier_bound_name(c, x, i),
                Z3_get_quantifier_bound_name(c, y, i),
            );
            matches!(sorts, (Some(a), Some(b)) if Z3_is_eq_sort(c, a, b))
                && matches!(names, (Some(a), Some(b)) if a == b)
        })
        && eq(Z3_get_quantifier_body(c, x), Z3_get_quantifier_body(c, y))
        && Z3_get_quantifier_num_patterns(c, x) == Z3_get_quantifier_num_patterns(c, y)
        && (0..Z3_get_quantifier_num_patterns(c, x)).all(|i| eq(pattern(x, i), pattern(y, i)))
        && Z3_get_quantifier_num_no_patterns(c, x) == Z3_get_quantifier_num_no_patterns(c, y)
        && (0..Z3_get_quantifier_num_no_patterns(c, x)).all(|i| {
            eq(
                Z3_get_quantifier_no_pattern_ast(c, x, i),
                Z3_get_quantifier_no_pattern_ast(c, y, i),
            )
        })
}
