//! Does the loaded Z3 type every operation as the model does? [`probe`] applies each operation
//! of `model::ops::OPS` to constants of every combination of sample sorts the model accepts,
//! in a scratch context, and reports where Z3's result sort differs from the model's or Z3
//! refuses the application. Typing changes between Z3 versions (`^` on Ints: Real in 4.8.12,
//! Int in 5.x); a fuzzer that generated such an application would report the model's error as
//! Z3's. [`super::adapt_model_to_loaded_z3`] adapts the known cases first; a fuzzer leaves out
//! the operations that still disagree.

use super::guard;
use super::ops::apply_op;
use super::terms::z3_sort;
use model::ops::{sample_applications, OpSpec, OPS};
use model::Sort;
use std::fmt;
use z3::ast::{Ast, Dynamic};

/// An application the loaded Z3 types differently from the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    pub op: &'static str,
    pub indices: Vec<u32>,
    pub args: Vec<Sort>,
    /// The model's result sort.
    pub model: Sort,
    /// Z3's result sort, or its refusal.
    pub z3: Result<String, String>,
}

impl fmt::Display for Disagreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let args: Vec<String> = self.args.iter().map(Sort::to_string).collect();
        let indices: Vec<String> = self.indices.iter().map(u32::to_string).collect();
        let applied = format!("{} {}({})", self.op, indices.join(" "), args.join(", "));
        match &self.z3 {
            Ok(sort) => write!(f, "{applied}: Z3 says {sort}, the model {}", self.model),
            Err(e) => write!(
                f,
                "{applied}: Z3 refuses it ({e}), the model says {}",
                self.model
            ),
        }
    }
}

/// Every application of the sample sorts that the loaded Z3 types otherwise than the model
/// (after [`super::adapt_model_to_loaded_z3`]); empty when they agree.
pub fn probe() -> Vec<Disagreement> {
    super::adapt_model_to_loaded_z3();
    let Ok(scratch) = guard::fresh_context() else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for op in OPS {
        for (indices, args) in sample_applications(op) {
            let refs: Vec<&Sort> = args.iter().collect();
            let Ok(model) = op.result_sort(&indices, &refs) else {
                continue;
            };
            let z3 = guard::in_context(&scratch, || z3_result_sort(op, &indices, &refs, &model))
                .and_then(|r| r);
            let agrees = matches!(&z3, Ok(None));
            if !agrees {
                found.push(Disagreement {
                    op: op.name,
                    indices: indices.clone(),
                    args: args.clone(),
                    model,
                    z3: z3.map(|s| s.unwrap_or_default()),
                });
            }
        }
    }
    // Quantifiers over a variable of every sample sort (and an uninterpreted one) are Bool.
    let mut sorts = model::ops::sample_sorts();
    sorts.push(Sort::uninterpreted("U"));
    for sort in sorts {
        let z3 = guard::in_context(&scratch, || quantifier_sort(&sort)).and_then(|r| r);
        if !matches!(&z3, Ok(None)) {
            found.push(Disagreement {
                op: "forall",
                indices: Vec::new(),
                args: vec![sort],
                model: Sort::Bool,
                z3: z3.map(|s| s.unwrap_or_default()),
            });
        }
    }
    found
}

/// Builds `forall x. x = x` over a fresh variable of `sort` as the executor does: `None`
/// when Z3 types it Bool, else Z3's sort.
fn quantifier_sort(sort: &Sort) -> Result<Option<String>, String> {
    let x = Dynamic::fresh_const("probe", &z3_sort(sort)?);
    let body = Dynamic::from_ast(&x.eq(&x));
    let q = super::terms::quantifier(true, 0, &[&x], &body, &[], &[])?;
    let sort = q.get_sort();
    Ok((sort != z3::Sort::bool()).then(|| sort.to_string()))
}

/// Builds `op` on fresh constants of `args` in the current context: `None` when Z3's result
/// sort is the model's `expected`, else Z3's.
fn z3_result_sort(
    op: &OpSpec,
    indices: &[u32],
    args: &[&Sort],
    expected: &Sort,
) -> Result<Option<String>, String> {
    let consts: Vec<Dynamic> = args
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let sort = z3_sort(s)?;
            Ok(Dynamic::new_const(format!("probe{i}"), &sort))
        })
        .collect::<Result<_, String>>()?;
    let refs: Vec<&Dynamic> = consts.iter().collect();
    let term = apply_op(op, indices, &refs, args);
    let sort = term.get_sort();
    Ok((sort != z3_sort(expected)?).then(|| sort.to_string()))
}
