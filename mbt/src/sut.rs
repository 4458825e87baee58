//! The system under test as the fuzzer sees it: [`Sut`], one method to run a call.
//!
//! The real implementation is `untrace::executor::Executor` (the one executor shared with the
//! replayer, which writes each trace line before it runs the call); [`DrySut`] runs calls
//! against the reference [`model::State`] alone, answering checks with a fixed answer, so that
//! the generator and the state machine are tested without Z3.

use crate::failure::Failure;
use model::trace::text;
use model::{AnyId, Call, Check, Ret, SatResult, SolverId, State};
use std::collections::BTreeMap;
use std::io::Write;

/// Why a call did not return normally.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SutError {
    /// The call is not valid in the reference state (a fuzzer bug).
    Malformed(String),
    /// Z3 reported an error (or the binding would have panicked).
    Z3(String),
    /// Writing the trace failed.
    Io(String),
    /// An oracle check does not hold: a finding.
    Oracle(Failure),
}

/// Something that runs API calls and keeps the reference state.
pub trait Sut {
    /// Runs `call`; fresh ids are chosen by the implementation.
    fn run(&mut self, call: Call) -> Result<Option<Ret>, SutError>;
    /// The reference state after every call run so far.
    fn state(&self) -> &State;
    /// What the independent checks did (terms checked, agreements, skips by reason).
    fn counters(&self) -> BTreeMap<String, u64>;
}

/// Runs calls against the reference state only; every check answers `answer`, every model
/// evaluation answers `eval_answer` (a `check_model` fails unless it is `true`), an unsat
/// core is the whole assumption set, and every other oracle check holds.
pub struct DrySut {
    state: State,
    pub answer: SatResult,
    pub eval_answer: String,
    out: Option<Box<dyn Write>>,
    last_assumptions: std::collections::HashMap<SolverId, Vec<model::TermId>>,
}

impl DrySut {
    pub fn new(answer: SatResult) -> DrySut {
        DrySut {
            state: State::new(),
            answer,
            eval_answer: "true".into(),
            out: None,
            last_assumptions: Default::default(),
        }
    }

    /// Writes the trace as the executor would: header, then each call line before it runs
    /// (no `; z3 VERSION` line: no Z3 runs).
    pub fn record_to(&mut self, mut out: Box<dyn Write>) {
        let _ = writeln!(out, "{}", text::header());
        self.out = Some(out);
    }
}

impl Sut for DrySut {
    fn run(&mut self, call: Call) -> Result<Option<Ret>, SutError> {
        self.state
            .check(&call)
            .map_err(|v| SutError::Malformed(v.0))?;
        if let Some(out) = &mut self.out {
            let _ = writeln!(out, "{}", text::format_call(&call));
            let _ = out.flush();
        }
        let ret = match &call {
            Call::CheckSat(z) => {
                self.last_assumptions.insert(*z, Vec::new());
                Some(Ret::Sat(self.answer))
            }
            Call::CheckSatAssuming(z, ts) => {
                self.last_assumptions.insert(*z, ts.clone());
                Some(Ret::Sat(self.answer))
            }
            Call::GetUnsatCore(z) => Some(Ret::Core(
                self.last_assumptions.get(z).cloned().unwrap_or_default(),
            )),
            Call::ModelEval { .. } => Some(Ret::Value(self.eval_answer.clone())),
            // Two subgoals; Optimize answers like a solver, with objective bounds of 0.
            Call::ApplyTactic { .. } | Call::ApplyTacticWith { .. } => Some(Ret::Value("2".into())),
            Call::OptCheck(_) | Call::FpQuery { .. } | Call::FpQueryRelation { .. } => {
                Some(Ret::Sat(self.answer))
            }
            Call::OptBound { .. } => Some(Ret::Value("0".into())),
            Call::Check(check @ Check::Model { .. }) if self.eval_answer != "true" => {
                return Err(SutError::Oracle(
                    Failure::new(check.kind(), "the dry model falsifies an assertion")
                        .at_call(check.name()),
                ));
            }
            _ => self.state.fresh(call.ret_kind()).map(Ret::Id),
        };
        self.state
            .apply(&call, ret.as_ref())
            .map_err(|v| SutError::Malformed(v.0))?;
        if let (Some(out), Some(ret)) = (&mut self.out, &ret) {
            let _ = writeln!(out, "{}", text::format_ret(ret));
            let _ = out.flush();
        }
        if let Call::Release(AnyId::Solver(z)) | Call::Delete(z) = &call {
            self.last_assumptions.remove(z);
        }
        Ok(ret)
    }

    fn state(&self) -> &State {
        &self.state
    }

    /// No solver, no model text: the independent check skips dry rounds.
    fn counters(&self) -> BTreeMap<String, u64> {
        BTreeMap::new()
    }
}

impl Sut for untrace::Executor {
    fn run(&mut self, call: Call) -> Result<Option<Ret>, SutError> {
        untrace::Executor::run(self, call).map_err(|e| match e {
            untrace::ExecError::Malformed(m) => SutError::Malformed(m),
            untrace::ExecError::Z3(m) => SutError::Z3(m),
            untrace::ExecError::Io(m) => SutError::Io(m),
            untrace::ExecError::Oracle(f) => SutError::Oracle(f),
            // Record mode never compares results.
            other @ untrace::ExecError::Mismatch { .. } => SutError::Malformed(other.to_string()),
        })
    }

    fn state(&self) -> &State {
        untrace::Executor::state(self)
    }

    fn counters(&self) -> BTreeMap<String, u64> {
        untrace::Executor::counters(self).clone()
    }
}
