//! `seq_hof`: Z3's higher-order sequence operations (`Z3_mk_seq_map`, `_mapi`, `_foldl`,
//! `_foldli`; releases after 4.8.12), looked up by name in the loaded libz3, never linked (a
//! trace with one replays only where it is: `read::missing_function`). The lambda is made
//! here with `Z3_mk_lambda_const` over fresh Int constants, its body as
//! `model::seq_hof::SeqHof::lambda` writes it; the term joins the pool, where `check_eval`
//! and `check_model` judge it by the independent evaluator.

use super::read::typed;
use super::{ExecError, Executor, Outcome};
use model::call::TermId;
use model::seq_hof::SeqHof;
use z3::ast::{Ast, Dynamic, Int};
use z3::Context;
use z3_sys::{Z3_ast, Z3_context};

type Hof1 = unsafe extern "C" fn(Z3_context, Z3_ast, Z3_ast) -> Option<Z3_ast>;
type Hof2 = unsafe extern "C" fn(Z3_context, Z3_ast, Z3_ast, Z3_ast) -> Option<Z3_ast>;
type Hof3 = unsafe extern "C" fn(Z3_context, Z3_ast, Z3_ast, Z3_ast, Z3_ast) -> Option<Z3_ast>;

/// The lambda `(+ (* mul x) add p...)` of `hof`'s parameters, made with `Z3_mk_lambda_const`.
fn lambda(hof: &SeqHof, add: i32, mul: i32) -> Dynamic {
    let params: Vec<Int> = hof.params.iter().map(|p| Int::fresh_const(p)).collect();
    let x = params
        .last()
        .expect("every operation has the element parameter");
    let mut terms = vec![
        Int::from_i64(i64::from(mul)) * x,
        Int::from_i64(i64::from(add)),
    ];
    terms.extend(params[..params.len() - 1].iter().cloned());
    let body = Int::add(&terms);
    let bound: Vec<&dyn Ast> = params.iter().map(|p| p as &dyn Ast).collect();
    z3::ast::lambda_const(&bound, &Dynamic::from_ast(&body)).into()
}

/// `hof` of the lambda and `args` (the terms after it, in the C function's order).
fn apply(hof: &'static SeqHof, args: &[Dynamic], add: i32, mul: i32) -> Result<Dynamic, String> {
    let ctx = Context::thread_local();
    let c = ctx.get_z3_context();
    let f = lambda(hof, add, mul);
    let a: Vec<Z3_ast> = args.iter().map(|t| t.get_z3_ast()).collect();
    let name = hof.function;
    // SAFETY: each arm names the function's z3_api.h signature (one, two or three terms
    // after the lambda, as the table's parameters say); terms of the live context, the
    // result wrapped (referenced) at once.
    unsafe {
        let made = match a.as_slice() {
            [s] => typed::<Hof1>(name)?(c, f.get_z3_ast(), *s),
            [x, s] => typed::<Hof2>(name)?(c, f.get_z3_ast(), *x, *s),
            [i, x, s] => typed::<Hof3>(name)?(c, f.get_z3_ast(), *i, *x, *s),
            _ => return Err(format!("{name} of {} terms", a.len())),
        };
        let made = made.ok_or_else(|| format!("{name} returned no term"))?;
        Ok(Dynamic::wrap(&ctx, made))
    }
}

impl Executor {
    /// `seq_hof`: see [`model::Call::SeqHof`].
    pub(super) fn seq_hof(
        &mut self,
        function: &str,
        args: &[TermId],
        add: i32,
        mul: i32,
    ) -> Result<Outcome, ExecError> {
        let hof = SeqHof::by_function(function)
            .ok_or_else(|| ExecError::Malformed(format!("seq_hof of `{function}`")))?;
        let terms: Vec<Dynamic> = self.arg_terms(args)?.into_iter().cloned().collect();
        let made = self
            .main(|| apply(hof, &terms, add, mul))?
            .map_err(ExecError::Z3)?;
        Ok(Outcome::Term(made))
    }
}
