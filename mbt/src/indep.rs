//! The independent model check (issue 4, section 4): after a sat answer, every assertion and
//! assumption is evaluated by the project's own evaluator (`model::eval`) under the values of
//! Z3's model, from the SMT-LIB text the round's own calls give ([`crate::term_text`]), not
//! from Z3's printer or Z3's evaluation.
//!
//! [`ModelCheck`] holds one model of the main solver, parsed from Z3's model text. Its
//! [`ModelCheck::must_hold`] reports an invalid model when a term evaluates to false, and
//! [`ModelCheck::compare`] an `eval-disagreement` when Z3's `model_eval` of a term gives a
//! different value from ours. Terms our evaluator cannot decide (open: a value the model
//! leaves out, a partial operation; unsupported: an operation it does not know, sequences; or
//! no SMT-LIB text) are skipped and counted in [`Stats::independent`].

use crate::cx::Cx;
use crate::failure::{Failure, FailureKind};
use crate::stats::Stats;
use model::eval::{self, EvalError, Model, Value};
use model::{ModelId, TermId};

/// Counter names of [`Stats::independent`]: `assertions` for the terms that must hold,
/// `values` for the terms whose `model_eval` value is compared.
pub const CHECKED: &str = "checked";
pub const TRUE: &str = "assertions: true";
pub const AGREE: &str = "values: agree with model_eval";
pub const OPEN: &str = "skipped: open under the model";
pub const UNSUPPORTED: &str = "skipped: unsupported by the evaluator";
pub const NO_TEXT: &str = "skipped: no SMT-LIB text";
pub const NO_MODEL: &str = "models: text unreadable";
pub const MODELS: &str = "models: read";
pub const Z3_VALUE_OPEN: &str = "values: skipped: model_eval answer is no value";

/// A model of the main solver, parsed once for every term checked against it.
pub struct ModelCheck {
    id: ModelId,
    model: Model,
}

fn count(stats: &mut Stats, what: &str) {
    *stats.independent.entry(what.to_string()).or_default() += 1;
}

/// Counts `what` for the assertions or the compared values.
fn count_for(stats: &mut Stats, assertion: bool, what: &str) {
    let group = if assertion { "assertions" } else { "values" };
    count(stats, &format!("{group}: {what}"));
}

/// What our evaluator made of a term.
enum Ours {
    Value(Value),
    Skipped,
}

impl ModelCheck {
    /// Reads model `id` of the round from Z3's model text; `None` (counted) when there is no
    /// text or our reader refuses it.
    pub fn new(cx: &mut Cx<'_>, id: ModelId) -> Option<ModelCheck> {
        let text = cx.sut.model_smtlib(id)?;
        // Z3 prints the definitions one after another; the reader wants one list.
        match Model::parse(&format!("({text})")) {
            Ok(model) => {
                count(&mut cx.stats, MODELS);
                Some(ModelCheck { id, model })
            }
            Err(_) => {
                count(&mut cx.stats, NO_MODEL);
                None
            }
        }
    }

    /// Our value of term `t`, counting why there is none.
    fn evaluate(&self, cx: &mut Cx<'_>, t: TermId, assertion: bool) -> Ours {
        let text = match cx.texts.text(t) {
            Ok(text) => text,
            Err(_) => {
                count_for(&mut cx.stats, assertion, NO_TEXT);
                return Ours::Skipped;
            }
        };
        count_for(&mut cx.stats, assertion, CHECKED);
        match eval::evaluate_str(&text, &self.model) {
            Ok(v) => Ours::Value(v),
            Err(EvalError::Open(_)) => {
                count_for(&mut cx.stats, assertion, OPEN);
                Ours::Skipped
            }
            Err(EvalError::Error(_)) => {
                count_for(&mut cx.stats, assertion, UNSUPPORTED);
                Ours::Skipped
            }
        }
    }

    /// Every term of `terms` (assertions and assumptions) must be true under the model.
    pub fn must_hold(&self, cx: &mut Cx<'_>, terms: &[TermId]) -> Result<(), Failure> {
        for &t in terms {
            if let Ours::Value(v) = self.evaluate(cx, t, true) {
                if v == Value::Bool(true) {
                    count(&mut cx.stats, TRUE);
                } else {
                    return Err(Failure {
                        kind: FailureKind::Model,
                        message: format!(
                            "assertion or assumption {t} evaluates to {v} under model {} by the independent evaluator",
                            self.id
                        ),
                        last_call: Some("model_eval".into()),
                    });
                }
            }
        }
        Ok(())
    }

    /// Z3's `model_eval` of `t` gave `z3_value`: our value of `t` must be the same. Z3's
    /// answer is itself evaluated under the model (it may name the model's own functions,
    /// such as an array's `as-array`); an answer that is no value is skipped.
    pub fn compare(&self, cx: &mut Cx<'_>, t: TermId, z3_value: &str) -> Result<(), Failure> {
        let Ours::Value(ours) = self.evaluate(cx, t, false) else {
            return Ok(());
        };
        let Ok(theirs) = eval::evaluate_str(z3_value, &self.model) else {
            count(&mut cx.stats, Z3_VALUE_OPEN);
            return Ok(());
        };
        if ours == theirs {
            count(&mut cx.stats, AGREE);
            return Ok(());
        }
        let z3_value = one_line(z3_value);
        Err(Failure {
            kind: FailureKind::EvalDisagreement,
            message: format!(
                "model_eval of {t} under model {} gives {z3_value}, the independent evaluator {ours}",
                self.id
            ),
            last_call: Some("model_eval".into()),
        })
    }
}

/// A value text on one line, at most 200 characters (failure messages are one line).
fn one_line(text: &str) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match line.char_indices().nth(200) {
        Some((i, _)) => format!("{}...", &line[..i]),
        None => line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cx::{Cx, RoundConfig};
    use crate::options::OptionModel;
    use model::{Call, Op, SolverKind, Theory};
    use rand::SeedableRng;
    use std::sync::Arc;

    /// Builds `x > 3` and `x + 1` on the real executor, asserts the first, and reads the model.
    #[test]
    fn checks_assertions_and_values_against_a_real_model() {
        let mut executor = untrace::Executor::new(untrace::ExecConfig {
            check_results: false,
            verbose: false,
            fail_on: None,
        });
        let config = RoundConfig {
            theories: Theory::ALL.to_vec(),
            option_fuzzing: false,
            options: Arc::new(OptionModel::default()),
            rlimit: 0,
            inject: None,
            independent: true,
        };
        let rng = rand_chacha::ChaCha8Rng::seed_from_u64(0);
        let mut cx = Cx::new(&mut executor, config, 0, rng);
        let int = cx.run(Call::SortInt).unwrap().sort().unwrap();
        let x = cx
            .run(Call::Const {
                sort: int,
                name: "x".into(),
            })
            .unwrap()
            .term()
            .unwrap();
        let lit = |cx: &mut Cx<'_>, v: &str| {
            cx.run(Call::Lit {
                sort: int,
                value: v.into(),
            })
            .unwrap()
            .term()
            .unwrap()
        };
        let three = lit(&mut cx, "3");
        let one = lit(&mut cx, "1");
        let op = |cx: &mut Cx<'_>, name: &str, args: Vec<TermId>| {
            cx.run(Call::Op {
                op: Op::lookup(name).unwrap(),
                indices: vec![],
                args,
            })
            .unwrap()
            .term()
            .unwrap()
        };
        let gt = op(&mut cx, ">", vec![x, three]);
        let succ = op(&mut cx, "+", vec![x, one]);
        let z = cx
            .run(Call::NewSolver(SolverKind::Default))
            .unwrap()
            .solver()
            .unwrap();
        cx.run(Call::Assert(z, gt)).unwrap();
        cx.run(Call::CheckSat(z)).unwrap();
        let m = cx.run(Call::GetModel(z)).unwrap().model().unwrap();
        let check = ModelCheck::new(&mut cx, m).expect("the model reads");
        assert_eq!(check.must_hold(&mut cx, &[gt]), Ok(()));
        assert_eq!(cx.stats.independent.get("assertions: true"), Some(&1));
        let z3_value = match cx
            .run(Call::ModelEval {
                model: m,
                term: succ,
                completion: true,
            })
            .unwrap()
            .ret()
        {
            Some(model::Ret::Value(v)) => v.clone(),
            other => panic!("model_eval answered {other:?}"),
        };
        assert_eq!(check.compare(&mut cx, succ, &z3_value), Ok(()));
        // A value that is not x + 1 under the model is a disagreement; x > 3 is false when
        // the model's x is replaced by a wrong one.
        let failure = check.compare(&mut cx, succ, "(- 5)").unwrap_err();
        assert_eq!(failure.kind, FailureKind::EvalDisagreement);
        let wrong = ModelCheck {
            id: m,
            model: Model::parse("((define-fun x () Int 2))").unwrap(),
        };
        assert_eq!(
            wrong.must_hold(&mut cx, &[gt]).unwrap_err().kind,
            FailureKind::Model
        );
    }
}
