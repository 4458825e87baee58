//! The one executor of API calls: maps each [`model::Call`] to the `z3` crate and keeps the
//! reference [`model::State`] in step.
//!
//! - [`Executor`]: the z3 objects behind trace ids, the reference state, an optional trace
//!   recorder. [`Executor::run`] (mbt) picks fresh ids; [`Executor::replay`] (untrace) uses
//!   the ids of a trace and compares recorded results, including recorded Z3 errors
//!   (`Ret::Error`: the replay must be refused with the same message).
//! - [`ExecConfig`], [`ExecError`]: configuration and the ways a call can fail.
//! - `guard`: Z3 errors and crate panics as values; `terms`: sorts and literals; `ops`: the
//!   operation table mapped to the crate.
//!
//! Contexts: every term lives in the thread-local context. `translate` copies a solver into a
//! fresh context, `translate_config` into a fresh context of another configuration, and
//! `new_solver_config` makes a solver in one; terms asserted to such a solver, assumptions
//! and model evaluations are translated on the fly into that solver's context.

mod algebraic;
mod chars;
mod checks;
mod complex;
mod datatypes;
mod finite_domain;
mod fixedpoint;
pub mod fsets;
mod guard;
mod hand_model;
mod handles;
mod initial_value;
pub mod inject;
mod introspect;
mod numerals;
pub mod ops;
mod opt_read;
mod optimize;
mod parser_context;
pub mod plain;
mod poly_datatype;
mod proof_check;
mod propagator;
mod qe_map;
mod quant;
mod raw_solver;
mod rcf;
pub mod read;
mod seq_hof;
pub mod simplifier;
mod solver_queries;
pub mod tactics;
mod term_makers;
pub mod term_text;
mod terms;
pub use terms::z3_string_text;
pub mod typing;
pub mod unlogged;
pub mod z3_model;

pub use checks::counters;

/// The exact value of a double as a fraction (numerator, denominator), as `check_literal`
/// builds it.
pub fn numerals_exact_ratio(v: f64) -> (String, String) {
    numerals::exact_ratio(v)
}
pub use guard::{fresh_context, one_line};
pub use handles::globals_changed;
pub use terms::z3_sort;

use model::call::{
    normalize_error, AnyId, Call, Entry, FuncId, GoalId, ModelId, OptId, PbCmp, RcfId,
    RelationKind, Ret, RetKind, SatResult, SolverId, SolverKind, SortId, TacticId, TermId,
};
use model::finding::Failure;
use model::options::{ParamDescr, ParamKind};
use model::trace::text::{format_call, format_ret, header, version_comment};
use model::{Sort, State};
use std::collections::HashMap;
use std::fmt;
use std::io::Write;
use std::rc::Rc;
use z3::ast::{Ast, Bool, Dynamic};
use z3::quantifier_elimination::QuantifierElimination;
use z3::{Context, FuncDecl, Model, Params, Solver, Symbol, Tactic, Translate};

/// How the executor runs.
#[derive(Clone, Debug)]
pub struct ExecConfig {
    /// Replay: compare recorded results (off for traces of nondeterministic runs).
    pub check_results: bool,
    /// With `check_results`: compare only check-sat answers, nothing else (a replay on another
    /// Z3 version, whose models, cores and error texts may differ without a bug).
    pub answers_only: bool,
    /// Print each executed call line to stderr.
    pub verbose: bool,
    /// TEST-ONLY fault injection ([`inject::Fault`]); when `None`, the environment
    /// (`UNTRACE_INJECT`, `UNTRACE_FAIL_ON`) is read instead.
    pub inject: Option<inject::Fault>,
    /// Run the oracle checks (`check_*` lines); off, they are skipped (`untrace --no-oracles`).
    pub run_checks: bool,
    /// Keep the SMT-LIB text of every term built, which `check_indep` and `check_eval` need.
    /// A replay turns it on when the trace has such checks.
    pub term_texts: bool,
}

impl Default for ExecConfig {
    fn default() -> ExecConfig {
        ExecConfig {
            check_results: true,
            answers_only: false,
            verbose: false,
            inject: None,
            run_checks: true,
            term_texts: false,
        }
    }
}

/// Why a call failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExecError {
    /// The call is not valid in the reference state / the trace is malformed (exit 3 in untrace).
    Malformed(String),
    /// The replayed result differs from the recorded one (exit 1). `actual` is `None` when
    /// the trace records an error and Z3 accepted the call without a result to show.
    Mismatch { expected: Ret, actual: Option<Ret> },
    /// Z3 reported an API error (error code != OK), or the crate would have panicked (exit 4).
    Z3(String),
    /// Writing the recorded trace failed (exit 2 in untrace).
    Io(String),
    /// An oracle check (`check_*` line) does not hold: a finding (exit 5 in untrace).
    Oracle(Failure),
}

impl fmt::Display for ExecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExecError::Malformed(m) => f.write_str(m),
            ExecError::Mismatch { expected, actual } => write!(
                f,
                "replay mismatch: the trace records `{}`, Z3 answered `{}`",
                format_ret(expected),
                actual
                    .as_ref()
                    .map(format_ret)
                    .unwrap_or_else(|| "no error".into())
            ),
            ExecError::Z3(m) => write!(f, "z3 error: {m}"),
            ExecError::Io(m) => write!(f, "cannot write the trace: {m}"),
            ExecError::Oracle(failure) => write!(
                f,
                "{} failed: {}",
                failure.last_call.as_deref().unwrap_or("a check"),
                failure.message
            ),
        }
    }
}

impl std::error::Error for ExecError {}

/// A solver with the context it lives in and the literals its unsat cores can name.
struct SolverSlot {
    solver: Solver,
    ctx: Context,
    /// Lives in a context other than the thread-local one (made by `translate`).
    foreign: bool,
    /// assert_and_track trackers, in the solver's context.
    trackers: Vec<(TermId, Dynamic)>,
    /// The assumptions of the last check, in the solver's context.
    assumptions: Vec<(TermId, Dynamic)>,
    /// What the oracle checks need to know about the solver's formula.
    formula: checks::Formula,
    /// 1 for the first solver the executor made, 2 for the next (for injected faults).
    ordinal: u32,
    /// Made by `new_solver_config` in a context with `proof` on: after an unsat answer it must
    /// give a proof. (A solver translated into such a context keeps its origin's setting: Z3
    /// 4.8.12 and 5.4.1 answer "there is no current proof" for it.)
    proofs: bool,
    /// Made by `new_solver_config` in a context with `model` off: what `get_model` gives is no
    /// model of the assertions (4.8.12 and 5.4.1 return one that falsifies them), so no check
    /// judges it. (A solver translated into such a context keeps its models.)
    models_off: bool,
}

impl SolverSlot {
    fn new(solver: Solver, ctx: Context, foreign: bool) -> SolverSlot {
        SolverSlot {
            solver,
            ctx,
            foreign,
            trackers: Vec::new(),
            assumptions: Vec::new(),
            formula: checks::Formula::default(),
            ordinal: 0,
            proofs: false,
            models_off: false,
        }
    }
}

struct ModelSlot {
    model: Model,
    ctx: Context,
    foreign: bool,
    /// The assertions and assumptions of the check this model satisfies (`check_model`'s
    /// premise).
    premises: Vec<TermId>,
    /// What the independent evaluator read of the model and computed under it.
    independent: Independent,
    /// A model built by hand (`model_new`): the model Z3 evaluates, with what was written.
    hand: Option<hand_model::HandModel>,
}

/// The independent evaluator's view of one model, each part once asked for; reset whole when
/// a model built by hand changes.
#[derive(Default)]
struct Independent {
    /// The model's values as the independent evaluator reads them.
    values: Option<Option<model::eval::Model>>,
    /// The evaluator's result per term under `values`: the model oracles (`check_indep`,
    /// `check_eval`, `check_quant`) ask for the same terms, and one quantifier over two 7-bit
    /// variables costs 16,384 evaluations of its body.
    evaluated: HashMap<TermId, Result<model::eval::Value, model::eval::EvalError>>,
}

/// What a call produced.
enum Outcome {
    Nothing,
    Sort(z3::Sort),
    Term(Dynamic),
    Func(FuncDecl),
    RecFunc(z3::RecFuncDecl),
    Solver(SolverSlot),
    Model(ModelSlot),
    Tactic(tactics::TacticSlot),
    Goal(tactics::GoalSlot),
    Opt(optimize::OptSlot),
    Rcf(rcf::RcfNum),
    Sat(SatResult),
    Core(Vec<TermId>),
    Value(String),
}

/// Runs API calls against Z3 and keeps the reference state in step.
pub struct Executor {
    config: ExecConfig,
    state: State,
    main: Context,
    sorts: HashMap<SortId, z3::Sort>,
    terms: HashMap<TermId, Dynamic>,
    funcs: HashMap<FuncId, FuncDecl>,
    /// Recursive functions (`rec_fun`), apart: only their own type takes a body.
    rec_funcs: HashMap<FuncId, z3::RecFuncDecl>,
    /// The special relations each term applies (only terms that apply one), for the
    /// premise of `check_relation`.
    relations_in: HashMap<TermId, std::collections::BTreeSet<FuncId>>,
    solvers: HashMap<SolverId, SolverSlot>,
    models: HashMap<ModelId, ModelSlot>,
    tactics: HashMap<TacticId, tactics::TacticSlot>,
    goals: HashMap<GoalId, tactics::GoalSlot>,
    opts: HashMap<OptId, optimize::OptSlot>,
    rcfs: HashMap<RcfId, rcf::RcfNum>,
    /// The trace's fixedpoint context (the last `fp_new`'s).
    fixedpoint: Option<fixedpoint::FpSlot>,
    recorder: Option<Box<dyn Write>>,
    /// Solver parameter kinds read from Z3's parameter descriptions, by name.
    param_kinds: Rc<HashMap<String, ParamKind>>,
    /// The SMT-LIB text of the terms built (with [`ExecConfig::term_texts`]).
    texts: Option<term_text::TermTexts>,
    /// Released terms, kept (with term texts on) so that a failed check can still evaluate
    /// the terms below an assertion: a released argument must not hide where Z3's
    /// evaluation departs. Calls never see them (the reference state rejects their ids).
    released: HashMap<TermId, Dynamic>,
    /// What the independent checks did: terms checked, agreements, skips by reason.
    counts: std::collections::BTreeMap<String, u64>,
    /// Solvers made so far (new and translated).
    solvers_made: u32,
    /// The operation that built each term, kept only for the injected `wrong-eval` fault.
    built_by: HashMap<TermId, &'static str>,
    /// The sort and value of each term made by `lit`, for `check_literal`.
    literals: HashMap<TermId, (Sort, String)>,
    /// The term each `simplify`/`simplify_with` result simplifies, for `check_simplify`.
    /// (The simplified term, whether `simplify_with` made it.)
    simplified_from: HashMap<TermId, (TermId, bool)>,
    /// The datatypes declared so far.
    datatypes: datatypes::Declared,
    /// Their constructors and selectors, for the independent evaluator.
    datatype_env: Rc<model::eval::Env>,
}

fn z3err(message: String) -> ExecError {
    ExecError::Z3(message)
}

fn malformed(v: model::Violation) -> ExecError {
    ExecError::Malformed(v.0)
}

impl Executor {
    pub fn new(mut config: ExecConfig) -> Executor {
        adapt_model_to_loaded_z3();
        if config.inject.is_none() {
            config.inject = inject::Fault::from_env();
        }
        let main = Context::thread_local();
        let param_kinds = solver_param_kinds();
        let texts = config.term_texts.then(term_text::TermTexts::default);
        Executor {
            texts,
            counts: Default::default(),
            released: HashMap::new(),
            solvers_made: 0,
            built_by: HashMap::new(),
            literals: HashMap::new(),
            simplified_from: HashMap::new(),
            datatypes: Default::default(),
            datatype_env: Default::default(),
            config,
            state: State::new(),
            main,
            sorts: HashMap::new(),
            terms: HashMap::new(),
            funcs: HashMap::new(),
            rec_funcs: HashMap::new(),
            relations_in: HashMap::new(),
            solvers: HashMap::new(),
            models: HashMap::new(),
            tactics: HashMap::new(),
            goals: HashMap::new(),
            opts: HashMap::new(),
            rcfs: HashMap::new(),
            fixedpoint: None,
            recorder: None,
            param_kinds,
        }
    }

    /// Record mode (mbt): every call line is written and flushed before the call runs, its
    /// `return` line after, so a crash leaves the trace complete up to the crashing call.
    /// A call Z3 refuses gets `return error "MESSAGE"` (the caller still gets the
    /// [`ExecError::Z3`]), so that a replay expects the same refusal. Writes the header
    /// line first, then the `; z3 VERSION` comment naming the loaded Z3, then the
    /// [`NEWER_FUNCTIONS_COMMENT`] where the loaded Z3 has any.
    pub fn record_to(&mut self, mut out: Box<dyn Write>) {
        // An error here shows again at the first call, which reports it.
        let newer = read::newer_functions_present();
        let _ = writeln!(out, "{}", header())
            .and_then(|_| writeln!(out, "{}", version_comment(&crate::z3_version())))
            .and_then(|_| match newer.is_empty() {
                true => Ok(()),
                false => writeln!(out, "{}{}", NEWER_FUNCTIONS_COMMENT, newer.join(" ")),
            })
            .and_then(|_| out.flush());
        self.recorder = Some(out);
    }

    /// mbt: runs a call; fresh ids are assigned by the executor; returns the result.
    pub fn run(&mut self, call: Call) -> Result<Option<Ret>, ExecError> {
        let started = crate::profile::start();
        let result = self.step(&call, None, false);
        crate::profile::record("call", call.name(), started);
        result
    }

    /// untrace: runs a trace entry with the ids the trace gives and checks the recorded
    /// result (unless `check_results` is off).
    pub fn replay(&mut self, entry: &Entry) -> Result<Option<Ret>, ExecError> {
        self.step(&entry.call, entry.ret.as_ref(), true)
    }

    pub fn state(&self) -> &State {
        &self.state
    }

    pub fn config(&self) -> &ExecConfig {
        &self.config
    }

    /// The z3 term behind an id (in the thread-local context).
    pub fn term(&self, id: TermId) -> Option<&Dynamic> {
        self.terms.get(&id)
    }

    pub fn solver(&self, id: SolverId) -> Option<&Solver> {
        self.solvers.get(&id).map(|s| &s.solver)
    }

    pub fn model(&self, id: ModelId) -> Option<&Model> {
        self.models.get(&id).map(|m| &m.model)
    }

    /// The SMT-LIB text of a term, as Z3 prints it.
    pub fn term_smtlib(&self, id: TermId) -> Option<String> {
        self.terms.get(&id).map(|t| t.to_string())
    }

    /// The current assertions of a solver as an SMT-LIB script (`Solver::to_smt2`).
    pub fn assertions_smtlib(&self, id: SolverId) -> Option<String> {
        let slot = self.solvers.get(&id)?;
        guard::guarded(&slot.ctx, || slot.solver.to_smt2()).ok()
    }

    fn step(
        &mut self,
        call: &Call,
        recorded: Option<&Ret>,
        replaying: bool,
    ) -> Result<Option<Ret>, ExecError> {
        self.state.check(call).map_err(malformed)?;
        if replaying {
            check_ret_shape(call, recorded)?;
        }
        let line_fault = self
            .config
            .inject
            .as_ref()
            .filter(|f| f.line_pattern().is_some());
        let wants_line = self.config.verbose || line_fault.is_some() || self.recorder.is_some();
        let mut injected = Ok(());
        if wants_line {
            let line = format_call(call);
            if self.config.verbose {
                eprintln!("{line}");
            }
            if let Some(out) = self.recorder.as_mut() {
                writeln!(out, "{line}")
                    .and_then(|_| out.flush())
                    .map_err(|e| ExecError::Io(e.to_string()))?;
            }
            if let Some(fault) = line_fault {
                injected = fault.before_call(&line);
            }
        }
        let recorded_error = recorded.and_then(Ret::error).filter(|_| replaying);
        crate::crash::set_current_call(call.name());
        let executed = match injected {
            Ok(()) => self.execute(call),
            Err(message) => Err(ExecError::Z3(message)),
        };
        let outcome = match executed {
            Ok(outcome) => outcome,
            Err(ExecError::Z3(message)) => return self.refused(call, message, recorded_error),
            Err(other) => return Err(other),
        };
        if let Some(expected) = recorded_error {
            return self.accepted_but_error_recorded(call, expected, &outcome);
        }
        let (actual, is_object) = match &outcome {
            Outcome::Nothing => (None, false),
            Outcome::Sat(r) => (Some(Ret::Sat(*r)), false),
            Outcome::Core(ids) => (Some(Ret::Core(ids.clone())), false),
            Outcome::Value(v) => (Some(Ret::Value(v.clone())), false),
            _ => (None, true),
        };
        let ret = if is_object {
            match recorded {
                Some(r) if replaying => Some(r.clone()),
                // Recording, or the last call of a trace cut short by a crash.
                _ => self.state.fresh(call.ret_kind()).map(Ret::Id),
            }
        } else {
            actual.clone()
        };
        // The state follows the trace's own record where there is one, so that a replay
        // without result checks stays valid in the trace's terms.
        let for_state = if replaying && recorded.is_some() {
            recorded
        } else {
            ret.as_ref()
        };
        self.state.apply(call, for_state).map_err(malformed)?;
        if let (Some(texts), Some(Ret::Id(id))) = (self.texts.as_mut(), &ret) {
            match id {
                AnyId::Term(t) => texts.record(call, *t, &self.state),
                AnyId::Func(f) => {
                    if let Call::Fun { name, .. } | Call::RecFun { name, .. } = call {
                        texts.record_func(*f, name)
                    }
                }
                _ => {}
            }
        }
        if let Some(Ret::Id(AnyId::Term(t))) = &ret {
            self.note_relations(call, *t);
        }
        if let (Some(Ret::Id(AnyId::Term(t))), Some(inject::Fault::WrongEval(_))) =
            (&ret, &self.config.inject)
        {
            self.built_by.insert(*t, call.name());
        }
        if let (
            Some(Ret::Id(AnyId::Term(t))),
            Call::Simplify(from) | Call::SimplifyWith { term: from, .. },
        ) = (&ret, call)
        {
            let with_params = matches!(call, Call::SimplifyWith { .. });
            self.simplified_from.insert(*t, (*from, with_params));
        }
        if let (Some(Ret::Id(AnyId::Term(t))), Call::Lit { sort, value }) = (&ret, call) {
            if let Ok(sort) = self.state.sort(*sort) {
                self.literals.insert(*t, (sort.clone(), value.clone()));
            }
        }
        if let (Some(Ret::Id(id)), true) = (&ret, is_object) {
            let mut outcome = outcome;
            if let Outcome::Solver(slot) = &mut outcome {
                self.solvers_made += 1;
                slot.ordinal = self.solvers_made;
            }
            if let (Call::OptGetModel(o), AnyId::Model(m)) = (call, id) {
                self.bind_opt_model(*o, *m);
            }
            self.bind(*id, outcome);
        }
        self.forget(call);
        if let (Some(out), Some(r)) = (self.recorder.as_mut(), ret.as_ref()) {
            writeln!(out, "{}", format_ret(r))
                .and_then(|_| out.flush())
                .map_err(|e| ExecError::Io(e.to_string()))?;
        }
        if replaying && self.config.check_results {
            let compared = |r: &&Ret| !self.config.answers_only || matches!(r, Ret::Sat(_));
            if let (Some(expected), Some(actual)) = (recorded.filter(compared), actual.as_ref()) {
                let differs = match (expected, actual) {
                    (Ret::Core(a), Ret::Core(b)) => a.len() != b.len(),
                    // An interrupted check answers `unknown` or its answer, as the clock
                    // falls: either stands for the other.
                    (Ret::Sat(a), Ret::Sat(b))
                        if matches!(call, Call::CheckSatInterrupted { .. }) =>
                    {
                        a != b && *a != SatResult::Unknown && *b != SatResult::Unknown
                    }
                    (a, b) => a != b,
                };
                if differs {
                    return Err(ExecError::Mismatch {
                        expected: expected.clone(),
                        actual: Some(actual.clone()),
                    });
                }
            }
        }
        Ok(ret)
    }

    /// Z3 refused `call` with `message`. Recording: the refusal becomes the call's
    /// `return error` line and the caller still gets the error. Replaying a trace that
    /// records an error: the same error (compared after [`normalize_error`]; for a call that
    /// [`may_refuse`], any refusal it may give without a bug) is the expected result; another
    /// error is a mismatch. Without a recorded error it is a Z3 error as
    /// before. A refused call changes no state.
    fn refused(
        &mut self,
        call: &Call,
        message: String,
        recorded_error: Option<&str>,
    ) -> Result<Option<Ret>, ExecError> {
        // A refusal that this call may meet whatever Z3's message says is marked as such,
        // in the record and in the error the fuzzer sees alike.
        let message = if !expected_error(&message) && self.refusal_expected(call) {
            format!("{message} {EXPECTED_REFUSAL}")
        } else {
            message
        };
        let Some(expected) = recorded_error else {
            // Only an expected refusal becomes part of the record: an unexpected one is a
            // finding, and a trace that recorded it would replay it as a success. Left without
            // a `return` line, the call is the trace's last, and its replay fails there again.
            if let (Some(out), true) = (self.recorder.as_mut(), expected_refusal(call, &message)) {
                writeln!(out, "{}", format_ret(&Ret::Error(message.clone())))
                    .and_then(|_| out.flush())
                    .map_err(|e| ExecError::Io(e.to_string()))?;
            }
            return Err(ExecError::Z3(message));
        };
        // An empty recorded message is "some error" (a lifted Z3 API log knows that Z3
        // refused the call, not what it said). A call that may refuse whatever its arguments
        // (a tactic, an engine) words its refusal after its input: a smaller trace (ddtrace
        // keeps the refusals it was recorded with) gets other words for the same refusal.
        let same = expected.is_empty()
            || normalize_error(expected) == normalize_error(&message)
            || (may_refuse(call)
                && expected_refusal(call, expected)
                && expected_refusal(call, &message));
        if self.compares_all() && !same {
            return Err(ExecError::Mismatch {
                expected: Ret::Error(expected.to_string()),
                actual: Some(Ret::Error(message)),
            });
        }
        let ret = Ret::Error(expected.to_string());
        self.state.apply(call, Some(&ret)).map_err(malformed)?;
        Ok(Some(ret))
    }

    /// Replay: the trace records an error but Z3 accepted the call. With result checks that
    /// is a mismatch; without, the replay goes on as the trace says (the call had no
    /// effect, and an object it made is dropped unbound).
    fn accepted_but_error_recorded(
        &mut self,
        call: &Call,
        expected: &str,
        outcome: &Outcome,
    ) -> Result<Option<Ret>, ExecError> {
        let expected = Ret::Error(expected.to_string());
        if self.compares_all() {
            let actual = match outcome {
                Outcome::Sat(r) => Some(Ret::Sat(*r)),
                Outcome::Core(ids) => Some(Ret::Core(ids.clone())),
                Outcome::Value(v) => Some(Ret::Value(v.clone())),
                _ => None,
            };
            return Err(ExecError::Mismatch { expected, actual });
        }
        self.state.apply(call, Some(&expected)).map_err(malformed)?;
        Ok(Some(expected))
    }

    /// Whether a replay compares every recorded result, errors included.
    fn compares_all(&self) -> bool {
        self.config.check_results && !self.config.answers_only
    }

    fn bind(&mut self, id: AnyId, outcome: Outcome) {
        match (id, outcome) {
            (AnyId::Sort(s), Outcome::Sort(v)) => drop(self.sorts.insert(s, v)),
            (AnyId::Term(t), Outcome::Term(v)) => drop(self.terms.insert(t, v)),
            (AnyId::Func(f), Outcome::Func(v)) => drop(self.funcs.insert(f, v)),
            (AnyId::Func(f), Outcome::RecFunc(v)) => drop(self.rec_funcs.insert(f, v)),
            (AnyId::Solver(z), Outcome::Solver(v)) => drop(self.solvers.insert(z, v)),
            (AnyId::Model(m), Outcome::Model(v)) => drop(self.models.insert(m, v)),
            (AnyId::Tactic(k), Outcome::Tactic(v)) => drop(self.tactics.insert(k, v)),
            (AnyId::Goal(g), Outcome::Goal(v)) => drop(self.goals.insert(g, v)),
            (AnyId::Opt(o), Outcome::Opt(v)) => drop(self.opts.insert(o, v)),
            (AnyId::Rcf(r), Outcome::Rcf(v)) => drop(self.rcfs.insert(r, v)),
            // State::apply has checked that the id kind fits the call.
            _ => {}
        }
    }

    /// Drops the handles a `release` or `delete` ends.
    fn forget(&mut self, call: &Call) {
        match call {
            Call::Release(AnyId::Sort(s)) => drop(self.sorts.remove(s)),
            Call::Release(AnyId::Term(t)) => {
                if let (Some(term), Some(_)) = (self.terms.remove(t), &self.texts) {
                    self.released.insert(*t, term);
                }
            }
            Call::Release(AnyId::Func(f)) => {
                self.funcs.remove(f);
                self.rec_funcs.remove(f);
            }
            Call::Release(AnyId::Solver(z)) | Call::Delete(z) => drop(self.solvers.remove(z)),
            Call::Release(AnyId::Model(m)) => drop(self.models.remove(m)),
            Call::Release(AnyId::Tactic(k)) => drop(self.tactics.remove(k)),
            Call::Release(AnyId::Goal(g)) => drop(self.goals.remove(g)),
            Call::Release(AnyId::Opt(o)) => drop(self.opts.remove(o)),
            Call::Release(AnyId::Rcf(r)) => drop(self.rcfs.remove(r)),
            _ => {}
        }
    }

    fn z3_sort(&self, id: SortId) -> Result<&z3::Sort, ExecError> {
        self.sorts
            .get(&id)
            .ok_or_else(|| ExecError::Malformed(format!("sort {id} is not defined")))
    }

    /// The Z3 sorts of a function's domain and range (`fun`, `rec_fun`).
    fn z3_signature(
        &self,
        domain: &[SortId],
        range: SortId,
    ) -> Result<(Vec<&z3::Sort>, &z3::Sort), ExecError> {
        let domain = domain
            .iter()
            .map(|s| self.z3_sort(*s))
            .collect::<Result<Vec<_>, _>>()?;
        Ok((domain, self.z3_sort(range)?))
    }

    fn z3_term(&self, id: TermId) -> Result<&Dynamic, ExecError> {
        self.terms
            .get(&id)
            .ok_or_else(|| ExecError::Malformed(format!("term {id} is not defined")))
    }

    fn slot(&self, id: SolverId) -> Result<&SolverSlot, ExecError> {
        self.solvers
            .get(&id)
            .ok_or_else(|| ExecError::Malformed(format!("solver {id} is not defined")))
    }

    fn slot_mut(&mut self, id: SolverId) -> Result<&mut SolverSlot, ExecError> {
        self.solvers
            .get_mut(&id)
            .ok_or_else(|| ExecError::Malformed(format!("solver {id} is not defined")))
    }

    /// Records the special relations the new term `t` applies: its own function, if `call`
    /// applies one, and those of its term arguments.
    fn note_relations(&mut self, call: &Call, t: TermId) {
        let mut found = std::collections::BTreeSet::new();
        if let Call::Apply { func, .. } = call {
            if self.state.relations.contains_key(func) {
                found.insert(*func);
            }
        }
        for id in call.uses() {
            if let AnyId::Term(u) = id {
                if let Some(inner) = self.relations_in.get(&u) {
                    found.extend(inner.iter().copied());
                }
            }
        }
        if !found.is_empty() {
            self.relations_in.insert(t, found);
        }
    }

    /// Gives the independent evaluator the definition `rec_def` gave Z3, where the body
    /// has a text; without one, applications of the function have no value there (open).
    fn define_recursive(&mut self, func: FuncId, vars: &[TermId], body: TermId) {
        let Some(texts) = self.texts.as_ref() else {
            return;
        };
        let Some(text) = texts.rec_definition(func, vars, body, &self.state) else {
            return;
        };
        let Ok(src) = model::eval::Src::parse(&text, "<rec_def>", 0) else {
            return;
        };
        let Some(&root) = src.tree.roots().first() else {
            return;
        };
        if let Ok(def) = model::eval::FunDef::from_define(&src, root, &Default::default()) {
            let env = Rc::make_mut(&mut self.datatype_env);
            env.defs.insert(def.name.clone(), Rc::new(def));
        }
    }

    /// Runs `f` guarded against the thread-local context.
    fn main<R>(&self, f: impl FnOnce() -> R) -> Result<R, ExecError> {
        guard::guarded(&self.main, f).map_err(z3err)
    }

    fn sort_outcome(&self, sort: Sort) -> Result<Outcome, ExecError> {
        let built = self.main(|| terms::z3_sort(&sort))?.map_err(z3err)?;
        Ok(Outcome::Sort(built))
    }

    fn execute(&mut self, call: &Call) -> Result<Outcome, ExecError> {
        Ok(match call {
            Call::SortBool => self.sort_outcome(Sort::Bool)?,
            Call::SortInt => self.sort_outcome(Sort::Int)?,
            Call::SortReal => self.sort_outcome(Sort::Real)?,
            Call::SortBv(w) => self.sort_outcome(Sort::BitVec(*w))?,
            Call::SortFp(e, s) => self.sort_outcome(Sort::FloatingPoint(*e, *s))?,
            Call::SortRm => self.sort_outcome(Sort::RoundingMode)?,
            Call::SortFpFixed(function) => {
                let (e, s) = model::call::fixed_fp_format(function).ok_or_else(|| {
                    ExecError::Malformed(format!("`{function}` makes no floating-point sort"))
                })?;
                let Outcome::Sort(expected) = self.sort_outcome(Sort::FloatingPoint(e, s))? else {
                    unreachable!("sort_outcome makes a sort")
                };
                // Sorts are hash-consed: the fixed format's maker must return the very sort
                // `Z3_mk_fpa_sort` made, which is the result the trace keeps.
                let same = self.main(|| terms::same_as_fixed_fp_sort(function, &expected))?;
                let same = match self.config.inject {
                    Some(inject::Fault::WrongRead) => same.map(|same| !same),
                    _ => same,
                };
                match same {
                    Some(true) => {}
                    Some(false) if self.config.run_checks => {
                        return Err(read_back_finding(
                            format!("{function} does not make the sort (_ FloatingPoint {e} {s})"),
                            format!("{function}: another sort"),
                        ))
                    }
                    Some(false) => {}
                    None => return Err(ExecError::Malformed(format!("`{function}` is unknown"))),
                }
                Outcome::Sort(expected)
            }
            Call::SortSet(e) => {
                let e = self.z3_sort(*e)?;
                unlogged::note("Z3_mk_set_sort");
                Outcome::Sort(self.main(|| z3::Sort::set(e))?)
            }
            Call::SortString => self.sort_outcome(Sort::String)?,
            Call::SortArray(i, e) => {
                let (i, e) = (self.z3_sort(*i)?, self.z3_sort(*e)?);
                Outcome::Sort(self.main(|| z3::Sort::array(i, e))?)
            }
            Call::SortSeq(e) => {
                let e = self.z3_sort(*e)?;
                Outcome::Sort(self.main(|| z3::Sort::seq(e))?)
            }
            Call::SortUninterpreted(name) => {
                Outcome::Sort(self.main(|| z3::Sort::uninterpreted(Symbol::String(name.clone())))?)
            }
            Call::Const { sort, name } => {
                let s = self.z3_sort(*sort)?;
                Outcome::Term(self.main(|| Dynamic::new_const(name.as_str(), s))?)
            }
            Call::Lit { sort, value } => {
                let model_sort = self.state.sort(*sort).map_err(malformed)?;
                let s = self.z3_sort(*sort)?;
                let term = self.main(|| terms::literal(model_sort, s, value))?;
                Outcome::Term(term.map_err(z3err)?)
            }
            Call::Fun {
                name,
                domain,
                range,
            } => {
                let (domain, range) = self.z3_signature(domain, *range)?;
                Outcome::Func(self.main(|| FuncDecl::new(name.as_str(), &domain, range))?)
            }
            Call::RecFun {
                name,
                domain,
                range,
            } => {
                let (domain, range) = self.z3_signature(domain, *range)?;
                Outcome::RecFunc(self.main(|| z3::RecFuncDecl::new(name.as_str(), &domain, range))?)
            }
            Call::RecDef { func, vars, body } => {
                let f = self.rec_funcs.get(func).ok_or_else(|| {
                    ExecError::Malformed(format!("recursive function {func} is not defined"))
                })?;
                let params = self.arg_terms(vars)?;
                let refs: Vec<&dyn Ast> = params.iter().map(|a| *a as &dyn Ast).collect();
                let b = self.z3_term(*body)?;
                self.main(|| f.add_def(&refs, b))?;
                self.define_recursive(*func, vars, *body);
                Outcome::Nothing
            }
            Call::NewModel => {
                let c = self.main.get_z3_context();
                let hand = self
                    .main(|| hand_model::HandModel::new(c))?
                    .ok_or_else(|| z3err("Z3_mk_model made no model".into()))?;
                Outcome::Model(ModelSlot {
                    model: self.main(Model::new)?,
                    ctx: self.main.clone(),
                    foreign: false,
                    premises: Vec::new(),
                    independent: Independent::default(),
                    hand: Some(hand),
                })
            }
            Call::ModelConst {
                model,
                constant,
                value,
            } => {
                self.hand_const(*model, *constant, *value)?;
                Outcome::Nothing
            }
            Call::ModelFunc {
                model,
                func,
                default,
                entries,
            } => self.model_func(*model, *func, *default, entries)?,
            Call::ModelRead { function, model } => self.model_read(function, *model)?,
            Call::Relation { kind, sort, index } => {
                let s = self.z3_sort(*sort)?;
                let index = *index as usize;
                Outcome::Func(self.main(|| match kind {
                    RelationKind::Linear => FuncDecl::linear_order(s, index),
                    RelationKind::Partial => FuncDecl::partial_order(s, index),
                    RelationKind::PiecewiseLinear => FuncDecl::piecewise_linear_order(s, index),
                    RelationKind::Tree => FuncDecl::tree_order(s, index),
                })?)
            }
            Call::TransitiveClosure(of) => {
                let f = self
                    .funcs
                    .get(of)
                    .ok_or_else(|| ExecError::Malformed(format!("function {of} is not defined")))?;
                Outcome::Func(self.main(|| FuncDecl::transitive_closure(f))?)
            }
            Call::Apply { func, args } => {
                let f = self
                    .funcs
                    .get(func)
                    .or_else(|| self.rec_funcs.get(func).map(|r| &**r))
                    .ok_or_else(|| {
                        ExecError::Malformed(format!("function {func} is not defined"))
                    })?;
                let args = self.arg_terms(args)?;
                let refs: Vec<&dyn Ast> = args.iter().map(|a| *a as &dyn Ast).collect();
                Outcome::Term(self.main(|| f.apply(&refs))?)
            }
            Call::Op { op, indices, args } => {
                let terms = self.arg_terms(args)?;
                let sorts = args
                    .iter()
                    .map(|a| self.state.term(*a).map(|t| &t.sort))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(malformed)?;
                let term = self.main(|| ops::apply_op(op.spec(), indices, &terms, &sorts))?;
                // Some of the functions operations end in never show in Z3's log.
                if let ops::OpLowering::Call(function, _) =
                    ops::op_lowering(op.spec(), indices, &sorts)
                {
                    unlogged::note(function);
                }
                Outcome::Term(term)
            }
            // Its description's one Z3 function, called by name (`plain.rs`).
            model::plain_call!() => self.run_plain(call)?,
            Call::SortArrayN { domain, range } => {
                let index = domain
                    .first()
                    .ok_or_else(|| ExecError::Malformed("sort_array_n without an index".into()))?;
                let expected = {
                    let (i, e) = (self.z3_sort(*index)?, self.z3_sort(*range)?);
                    self.main(|| z3::Sort::array(i, e))?
                };
                let (domain, range) = self.z3_signature(domain, *range)?;
                let (made, same) = self
                    .main(|| term_makers::array_sort_n(&domain, range, &expected))?
                    .map_err(z3err)?;
                let same = same && !matches!(self.config.inject, Some(inject::Fault::WrongRead));
                if !same && self.config.run_checks {
                    return Err(read_back_finding(
                        format!(
                            "Z3_mk_array_sort_n of one index does not make the sort {expected}"
                        ),
                        "Z3_mk_array_sort_n: another sort".into(),
                    ));
                }
                drop(made);
                Outcome::Sort(expected)
            }
            Call::SortRe(s) => {
                let s = self.z3_sort(*s)?.clone();
                Outcome::Sort(self.main(|| term_makers::re_sort(&s))?.map_err(z3err)?)
            }
            Call::Divides { divisor, term } => {
                let t = self.z3_term(*term)?.clone();
                Outcome::Term(
                    self.main(|| term_makers::divides(*divisor, &t))?
                        .map_err(z3err)?,
                )
            }
            Call::ConstIntSym { index, sort } => {
                let s = self.z3_sort(*sort)?.clone();
                let made = self.main(|| term_makers::const_int_sym(*index, &s))?;
                Outcome::Term(self.judged_maker(made)?)
            }
            Call::FunIntSym {
                index,
                domain,
                range,
            } => {
                let (domain, range) = self.z3_signature(domain, *range)?;
                let made = self.main(|| term_makers::fun_int_sym(*index, &domain, range))?;
                Outcome::Func(self.judged_maker(made)?)
            }
            Call::FreshFunc {
                prefix,
                domain,
                range,
            } => {
                let (domain, range) = self.z3_signature(domain, *range)?;
                let made = self.main(|| term_makers::fresh_func(prefix, &domain, range))?;
                Outcome::Func(self.judged_maker(made)?)
            }
            Call::UpdateTerm { term, args } => {
                let t = self.z3_term(*term)?.clone();
                let args: Vec<Dynamic> = self.arg_terms(args)?.into_iter().cloned().collect();
                let refs: Vec<&Dynamic> = args.iter().collect();
                let made = self.main(|| term_makers::update_term(&t, &refs))?;
                Outcome::Term(self.judged_maker(made)?)
            }
            Call::Simplify(t) => {
                let t = self.z3_term(*t)?;
                let simplified = self.main(|| t.simplify())?;
                Outcome::Term(self.injected_simplification(simplified))
            }
            Call::SimplifyWith { term, params } => {
                let t = self.z3_term(*term)?.clone();
                let simplified = self.main(|| terms::simplify_with(&t, params))?;
                Outcome::Term(self.injected_simplification(simplified.map_err(z3err)?))
            }
            Call::Substitute { term, pairs } => {
                let t = self.z3_term(*term)?;
                let pairs = pairs
                    .iter()
                    .map(|(a, b)| Ok((self.z3_term(*a)?, self.z3_term(*b)?)))
                    .collect::<Result<Vec<_>, ExecError>>()?;
                Outcome::Term(self.main(|| t.substitute(&pairs))?)
            }
            Call::NewSolver(kind) => {
                let solver = self.main(|| match kind {
                    SolverKind::Default => Ok(Solver::new()),
                    SolverKind::Logic(logic) => Solver::new_for_logic(logic.as_str())
                        .ok_or_else(|| format!("Z3 has no solver for logic `{logic}`")),
                    SolverKind::Tactic(tactic) => Ok(Tactic::new(tactic).solver()),
                    SolverKind::FromTactic(k) => {
                        match self.tactics.get(k).map(|slot| slot.tactic.as_ref()) {
                            Some(Some(tactic)) => Ok(tactic.solver()),
                            Some(None) => Err(format!("no solver can be made from tactic {k}")),
                            None => Err(format!("tactic {k} is not defined")),
                        }
                    }
                })?;
                Outcome::Solver(SolverSlot::new(
                    solver.map_err(z3err)?,
                    self.main.clone(),
                    false,
                ))
            }
            Call::SetParam { solver, key, value } => {
                let kind = self.param_kind(key);
                let slot = self.slot(*solver)?;
                guard::in_context(&slot.ctx, || {
                    let mut params = Params::new();
                    set_param(&mut params, key, value, kind);
                    slot.solver.set_params(&params);
                })
                .map_err(z3err)?;
                self.slot_mut(*solver)?
                    .formula
                    .params
                    .push((key.clone(), value.clone()));
                Outcome::Nothing
            }
            Call::SetGlobal { key, value } => {
                self.main(|| handles::set_global(key, value))??;
                Outcome::Nothing
            }
            Call::Push(z) => {
                let slot = self.slot(*z)?;
                solver_call(slot, || slot.solver.push())?;
                self.slot_mut(*z)?.formula.push();
                Outcome::Nothing
            }
            Call::Pop(z, n) => {
                let slot = self.slot(*z)?;
                solver_call(slot, || slot.solver.pop(*n))?;
                self.slot_mut(*z)?.formula.pop(*n);
                Outcome::Nothing
            }
            Call::Assert(z, id) => {
                let t = self.z3_term(*id)?;
                let slot = self.slot(*z)?;
                let negate = matches!(self.config.inject, Some(inject::Fault::WrongModel));
                solver_call(slot, || {
                    let b = local_bool(slot, t);
                    slot.solver.assert(if negate { b.not() } else { b })
                })?;
                self.slot_mut(*z)?.formula.assert(*id);
                Outcome::Nothing
            }
            Call::AssertAndTrack {
                solver,
                term,
                tracker,
            } => {
                let (t, p) = (self.z3_term(*term)?, self.z3_term(*tracker)?);
                let slot = self.slot(*solver)?;
                let tracker_local = solver_call(slot, || {
                    let p = local_bool(slot, p);
                    slot.solver.assert_and_track(local_bool(slot, t), &p);
                    Dynamic::from_ast(&p)
                })?;
                let slot = self.slot_mut(*solver)?;
                slot.trackers.push((*tracker, tracker_local));
                slot.formula.assert(*term);
                Outcome::Nothing
            }
            Call::CheckSat(z) => {
                let slot = self.slot(*z)?;
                let answer = solver_call(slot, || slot.solver.check())?;
                let answer = self.injected_answer(*z, answer);
                let slot = self.slot_mut(*z)?;
                slot.assumptions.clear();
                slot.formula.checked(sat(answer), None);
                slot.formula.after_interrupted(sat(answer));
                Outcome::Sat(sat(answer))
            }
            Call::CheckSatAssuming(z, ts) => {
                let terms = self.arg_terms(ts)?;
                let slot = self.slot(*z)?;
                let (answer, local) = solver_call(slot, || {
                    let local: Vec<Bool> = terms.iter().map(|t| local_bool(slot, t)).collect();
                    (slot.solver.check_assumptions(&local), local)
                })?;
                let answer = self.injected_answer(*z, answer);
                let slot = self.slot_mut(*z)?;
                slot.assumptions = ts
                    .iter()
                    .zip(local)
                    .map(|(id, b)| (*id, Dynamic::from_ast(&b)))
                    .collect();
                slot.formula.checked(sat(answer), Some(ts.clone()));
                Outcome::Sat(sat(answer))
            }
            Call::GetUnsatCore(z) => {
                let slot = self.slot(*z)?;
                let core = solver_call(slot, || slot.solver.get_unsat_core())?;
                // Core literals map back to the assumption or tracker ids that made them;
                // a literal the trace never named (e.g. from `from_string`) is left out.
                let ids = core
                    .iter()
                    .filter_map(|c| {
                        slot.assumptions
                            .iter()
                            .chain(&slot.trackers)
                            .find(|(_, d)| d.get_z3_ast() == c.get_z3_ast())
                            .map(|(id, _)| *id)
                    })
                    .collect::<Vec<TermId>>();
                let ids = match self.config.inject {
                    Some(inject::Fault::EmptyCore) => Vec::new(),
                    _ => ids,
                };
                self.slot_mut(*z)?.formula.got_core(&ids);
                Outcome::Core(ids)
            }
            Call::GetModel(z) => {
                let slot = self.slot(*z)?;
                let model = solver_call(slot, || slot.solver.get_model())?
                    .ok_or_else(|| z3err(format!("get_model: solver {z} has no model")))?;
                let premises = if slot.models_off {
                    Vec::new()
                } else {
                    let assumed = slot.assumptions.iter().map(|(id, _)| *id);
                    slot.formula.assertions().chain(assumed).collect()
                };
                let (ctx, foreign, models_off) = (slot.ctx.clone(), slot.foreign, slot.models_off);
                if models_off {
                    self.count("models: skipped: model generation off");
                }
                Outcome::Model(ModelSlot {
                    model,
                    ctx,
                    foreign,
                    premises,
                    independent: Independent::default(),
                    hand: None,
                })
            }
            Call::ModelEval {
                model,
                term,
                completion,
            } => Outcome::Value(self.model_eval(*model, *term, *completion)?),
            Call::Translate(z) => self.translate_into(*z, fresh_context().map_err(z3err)?)?,
            Call::TranslateConfig { solver, config } => {
                let ctx = guard::configured_context(config).map_err(z3err)?;
                self.translate_into(*solver, ctx)?
            }
            Call::NewSolverConfig(config) => {
                let ctx = guard::configured_context(config).map_err(z3err)?;
                let solver = guard::in_context(&ctx, Solver::new).map_err(z3err)?;
                let mut slot = SolverSlot::new(solver, ctx, true);
                let set =
                    |key: &str, value: &str| config.iter().any(|(k, v)| k == key && v == value);
                slot.proofs = set("proof", "true");
                slot.models_off = set("model", "false");
                Outcome::Solver(slot)
            }
            Call::GetProof(z) => {
                let slot = self.slot(*z)?;
                if matches!(self.config.inject, Some(inject::Fault::NoProof)) {
                    return Err(z3err(
                        "Exception: there is no current proof (injected no-proof)".into(),
                    ));
                }
                let proof = solver_call(slot, || slot.solver.get_proof().is_some())?;
                if !proof {
                    return Err(z3err(format!("get_proof: solver {z} gave no proof")));
                }
                Outcome::Nothing
            }
            Call::Reset(z) => {
                let slot = self.slot(*z)?;
                solver_call(slot, || slot.solver.reset())?;
                let slot = self.slot_mut(*z)?;
                slot.trackers.clear();
                slot.assumptions.clear();
                slot.formula.reset();
                Outcome::Nothing
            }
            Call::Cube(z) => {
                // The crate gives no raw handle of Z: the cube is asked of a default solver of
                // Z's context given Z's assertions (none where they came from parsed text).
                let slot = self.slot(*z)?;
                let (assertions, ctx, foreign) = self
                    .assertions_of(*z)
                    .unwrap_or_else(|| (Vec::new(), slot.ctx.clone(), slot.foreign));
                let cubed = guard::in_context(&ctx, || {
                    let asserted: Vec<Bool> = assertions
                        .iter()
                        .filter_map(|t| into_context(t, &ctx, foreign).as_bool())
                        .collect();
                    raw_solver::RawSolver::default_solver(0, &asserted)?.cube()
                })
                .map_err(z3err)?;
                if cubed.is_none() {
                    return Err(z3err("cube: Z3 returned no cube".into()));
                }
                Outcome::Nothing
            }
            Call::ToSmt2(z) => {
                let slot = self.slot(*z)?;
                solver_call(slot, || slot.solver.to_smt2())?;
                Outcome::Nothing
            }
            Call::FromString(z, text) => {
                let slot = self.slot(*z)?;
                solver_call(slot, || slot.solver.from_string(text.as_str()))?;
                self.slot_mut(*z)?.formula.parsed();
                Outcome::Nothing
            }
            Call::DeclareDatatypes {
                path,
                params,
                datatypes,
            } => {
                let (state, sorts) = (&self.state, &self.sorts);
                let field_sort =
                    |id: SortId| Some((state.sorts.get(&id)?.clone(), sorts.get(&id)?.clone()));
                let declared = &mut self.datatypes;
                guard::guarded(&self.main, || {
                    declared.declare(*path, params, datatypes, field_sort)
                })
                .map_err(z3err)?
                .map_err(z3err)?;
                let env = Rc::make_mut(&mut self.datatype_env);
                for d in datatypes {
                    let constructors: Vec<(String, Vec<String>)> = d
                        .constructors
                        .iter()
                        .map(|c| {
                            (
                                c.name.clone(),
                                c.fields.iter().map(|f| f.name.clone()).collect(),
                            )
                        })
                        .collect();
                    env.declare_datatype(&d.name, &constructors);
                }
                Outcome::Nothing
            }
            Call::SortDatatype { name, params } => {
                let params = params
                    .iter()
                    .map(|p| {
                        Ok((
                            self.state.sort(*p).map_err(malformed)?.clone(),
                            self.z3_sort(*p)?.clone(),
                        ))
                    })
                    .collect::<Result<Vec<_>, ExecError>>()?;
                let declared = &mut self.datatypes;
                let sort =
                    guard::guarded(&self.main, || declared.sort(name, &params)).map_err(z3err)?;
                Outcome::Sort(sort.map_err(z3err)?)
            }
            Call::DtConstruct { sort, ctor, args } => {
                let s = self.z3_sort(*sort)?;
                let args = self.arg_terms(args)?;
                Outcome::Term(self.main(|| datatypes::construct(s, ctor, &args))?)
            }
            Call::DtTest { ctor, term } => {
                let t = self.z3_term(*term)?;
                Outcome::Term(self.main(|| datatypes::test(ctor, t))?)
            }
            Call::DtSelect { field, term } => {
                let t = self.z3_term(*term)?;
                Outcome::Term(self.main(|| datatypes::select(field, t))?)
            }
            Call::DtUpdate { field, term, value } => {
                let (t, v) = (self.z3_term(*term)?, self.z3_term(*value)?);
                Outcome::Term(self.main(|| datatypes::update(field, t, v))?)
            }
            Call::Release(_) | Call::Delete(_) => Outcome::Nothing,
            Call::MkTactic(expr) => self.mk_tactic(expr)?,
            Call::NewGoal { models } => self.new_goal(*models)?,
            Call::GoalAssert(g, t) => {
                let t = self.z3_term(*t)?;
                self.goal_assert(*g, t)?;
                Outcome::Nothing
            }
            Call::GoalRead { function, goal } => self.goal_read(function, *goal)?,
            Call::ProbeApply {
                goal,
                op,
                first,
                second,
            } => self.probe_apply(*goal, op, first, second)?,
            Call::CheckSatInterrupted { solver, delay_us } => {
                self.check_sat_interrupted(*solver, *delay_us)?
            }
            Call::SolverRead { function, solver } => self.solver_read(function, *solver)?,
            Call::OptRead { function, opt } => self.opt_read(function, *opt)?,
            Call::ApplyTactic {
                tactic,
                goal,
                rlimit,
            } => self.apply_tactic(*tactic, *goal, *rlimit, None)?,
            Call::ApplyTacticWith {
                tactic,
                goal,
                rlimit,
                params,
            } => self.apply_tactic(*tactic, *goal, *rlimit, Some(params))?,
            Call::Subgoal(g, i) => self.subgoal(*g, *i)?,
            Call::GoalFormula(g) => self.goal_formula(*g)?,
            Call::NewOptimize
            | Call::OptSetParam { .. }
            | Call::OptAssert(..)
            | Call::OptAssertSoft { .. }
            | Call::OptObjective { .. }
            | Call::OptPush(_)
            | Call::OptPop(_)
            | Call::OptCheck(_)
            | Call::OptGetModel(_)
            | Call::OptBound { .. } => self.opt_call(call)?,
            Call::RcfMk(_)
            | Call::RcfArith { .. }
            | Call::RcfNeg(_)
            | Call::RcfInv(_)
            | Call::RcfPower(..)
            | Call::RcfCompare { .. }
            | Call::RcfToString { .. }
            | Call::RcfToDecimal(..)
            | Call::RcfRoots(_)
            | Call::RcfRoot { .. }
            | Call::RcfNumDen { .. } => self.rcf_call(call)?,
            Call::AlgebraicArith { .. }
            | Call::AlgebraicPower(..)
            | Call::AlgebraicRoot(..)
            | Call::AlgebraicCompare { .. }
            | Call::AlgebraicSign(_)
            | Call::AlgebraicIs { .. } => self.algebraic_call(call)?,
            Call::FpNew { engine } => self.fp_new(engine)?,
            Call::FpSetParam { key, value } => self.fp_set_param(key, value)?,
            Call::FpRegister(f) => self.fp_register(*f)?,
            Call::FpRule { rule, name } => self.fp_rule(*rule, name, false)?,
            Call::FpUpdateRule { rule, name } => self.fp_rule(*rule, name, true)?,
            Call::FpAssert(t) => self.fp_assert(*t)?,
            Call::FpQuery { query, rlimit } => self.fp_query(*query, *rlimit)?,
            Call::FpQueryRelation { relation, rlimit } => {
                self.fp_query_relation(*relation, *rlimit)?
            }
            Call::FpRead(function) => {
                self.fp_read(function)?;
                Outcome::Nothing
            }
            Call::FpReadRel { function, relation } => self.fp_read_relation(function, *relation)?,
            Call::FpFromString(text) => self.fp_from_string(text)?,
            Call::AstMap(pairs) => {
                self.ast_map(pairs)?;
                Outcome::Nothing
            }
            Call::AstVector(terms) => {
                self.ast_vector(terms)?;
                Outcome::Nothing
            }
            Call::ReadGlobal { function, subject } => {
                self.read_global(function, subject)?;
                Outcome::Nothing
            }
            Call::Check(check) => {
                if self.config.run_checks {
                    self.run_check(check)?;
                }
                Outcome::Nothing
            }
            Call::Var { sort, name } => {
                let s = self.z3_sort(*sort)?;
                Outcome::Term(self.main(|| Dynamic::fresh_const(name, s))?)
            }
            Call::Read { function, term } => Outcome::Value(self.read_term(function, *term)?),
            Call::ReadSort { function, sort } => Outcome::Value(self.read_sort(function, *sort)?),
            Call::ReadRcf { function, rcf } => Outcome::Value(self.read_rcf(function, *rcf)?),
            Call::ReadEq(a, b) => Outcome::Value(self.read_eq(*a, *b)?),
            Call::ReadStats(z) => {
                let slot = self.slot(*z)?;
                let problem = solver_call(slot, || read::read_stats(&slot.solver))?;
                if let (Some(problem), true) = (problem, self.config.run_checks) {
                    return Err(read_back_finding(
                        format!("the statistics of {z}: {problem}"),
                        "Z3_solver_get_statistics: shape".into(),
                    ));
                }
                Outcome::Nothing
            }
            Call::Pb { cmp, bound, terms } => {
                let args = terms
                    .iter()
                    .map(|(c, t)| {
                        let b = self.z3_term(*t)?.as_bool().ok_or_else(|| {
                            ExecError::Malformed(format!("pseudo-Boolean argument {t} is not Bool"))
                        })?;
                        Ok((b, *c))
                    })
                    .collect::<Result<Vec<(Bool, i32)>, ExecError>>()?;
                let refs: Vec<(&Bool, i32)> = args.iter().map(|(b, c)| (b, *c)).collect();
                // `Z3_mk_pbge` and `Z3_mk_pbeq` log as `Z3_mk_pble`, a bug of Z3's logging.
                unlogged::note(match cmp {
                    PbCmp::Le => "Z3_mk_pble",
                    PbCmp::Ge => "Z3_mk_pbge",
                    PbCmp::Eq => "Z3_mk_pbeq",
                });
                let made = self.main(|| match cmp {
                    PbCmp::Le => Bool::pb_le(&refs, *bound),
                    PbCmp::Ge => Bool::pb_ge(&refs, *bound),
                    PbCmp::Eq => Bool::pb_eq(&refs, *bound),
                })?;
                Outcome::Term(Dynamic::from_ast(&made))
            }
            Call::Quantifier {
                forall,
                weight,
                vars,
                body,
                patterns,
                no_patterns,
            } => {
                let vars = self.arg_terms(vars)?;
                let body = self.z3_term(*body)?;
                let patterns = patterns
                    .iter()
                    .map(|group| self.arg_terms(group))
                    .collect::<Result<Vec<_>, _>>()?;
                let no_patterns = self.arg_terms(no_patterns)?;
                let flip = matches!(self.config.inject, Some(inject::Fault::WrongQuantifier));
                let built = self.main(|| {
                    terms::quantifier(
                        *forall != flip,
                        *weight,
                        &vars,
                        body,
                        &patterns,
                        &no_patterns,
                    )
                })?;
                Outcome::Term(built.map_err(z3err)?)
            }
            Call::Qe {
                lite,
                model,
                formula,
                vars,
            } => {
                let slot = self
                    .models
                    .get(model)
                    .ok_or_else(|| ExecError::Malformed(format!("model {model} is not defined")))?;
                let f = self.z3_term(*formula)?;
                let vs = self.arg_terms(vars)?;
                let main = self.main.clone();
                // In the model's context: the projection, whether the model satisfies the
                // formula (the premise), and whether it satisfies the projection.
                let (built, premise, holds) = guard::guarded(&slot.ctx, || {
                    let local = |t: &Dynamic| into_context(t, &slot.ctx, slot.foreign);
                    let f = local(f)
                        .as_bool()
                        .expect("Bool checked by the reference state");
                    let vs: Vec<Dynamic> = vs.iter().map(|v| local(v)).collect();
                    let built = if *lite {
                        let vector = z3::AstVector::new();
                        vs.iter().for_each(|v| vector.push(v));
                        QuantifierElimination::lite(&vector, &f)
                    } else {
                        let refs: Vec<&dyn Ast> = vs.iter().map(|v| v as &dyn Ast).collect();
                        QuantifierElimination::model_project(&slot.model, &refs, &f)
                    };
                    let truth = |b: &Bool| slot.model.eval(b, true).and_then(|v| v.as_bool());
                    let (premise, holds) = (truth(&f), truth(&built));
                    let built = Dynamic::from_ast(&built);
                    let built = if slot.foreign {
                        built.translate(&main)
                    } else {
                        built
                    };
                    (built, premise, holds)
                })
                .map_err(z3err)?;
                // Under `wrong-read`, the result's value in the model is read negated.
                let holds = match self.config.inject {
                    Some(inject::Fault::WrongRead) => holds.map(|h| !h),
                    _ => holds,
                };
                if premise == Some(true) && holds == Some(false) && self.config.run_checks {
                    let function = if *lite {
                        "Z3_qe_lite"
                    } else {
                        "Z3_qe_model_project"
                    };
                    return Err(read_back_finding(
                        format!("{function} of {formula}: the result is false in {model}, which satisfies {formula}"),
                        format!("{function}: false in the model"),
                    ));
                }
                Outcome::Term(built)
            }
            Call::AsArray(func) => {
                let f = self.func_decl(*func)?;
                Outcome::Term(Dynamic::from_ast(&self.main(|| f.as_array())?))
            }
            Call::SortFiniteSet(element) => self.sort_finite_set(*element)?,
            Call::SortFiniteField(p) => self.sort_finite_field(*p)?,
            Call::FsetMap { set, add, mul } => self.fset_map_or_filter(*set, true, *add, *mul)?,
            Call::SeqHof {
                function,
                args,
                add,
                mul,
            } => self.seq_hof(function, args, *add, *mul)?,
            Call::FsetFilter { set, low, high } => {
                self.fset_map_or_filter(*set, false, *low, *high)?
            }
            Call::ArrayMap { func, arrays } => {
                let f = self.func_decl(*func)?;
                let arrays = self.arg_terms(arrays)?;
                let built = self.main(|| terms::array_map(f, &arrays))?;
                Outcome::Term(built.map_err(z3err)?)
            }
            Call::QuantRebuild { function, term } => {
                let maker = model::quant::Maker::by_name(function).ok_or_else(|| {
                    ExecError::Malformed(format!("`{function}` is no quantifier maker"))
                })?;
                let vars = match &self.state.term(*term).map(|i| &i.origin) {
                    Ok(model::state::Origin::Quantifier(shape)) => shape.vars.clone(),
                    _ => {
                        return Err(ExecError::Malformed(format!(
                            "quant_rebuild of {term}, which is no quantifier"
                        )))
                    }
                };
                let q = self.z3_term(*term)?;
                let vars = self.arg_terms(&vars)?;
                // Under `wrong-read`, the quantifier's weight is read one more.
                let shift = u32::from(matches!(self.config.inject, Some(inject::Fault::WrongRead)));
                // Most quantifier makers never show in Z3's log (they log as the `_ex` ones).
                unlogged::note(function);
                let (built, problem) = self
                    .main(|| quant::rebuild(maker, q, &vars, shift))?
                    .map_err(z3err)?;
                if let (Some(problem), true) = (problem, self.config.run_checks) {
                    return Err(read_back_finding(
                        format!("quant_rebuild of {term}: {problem}"),
                        format!("{}: another term", maker.name),
                    ));
                }
                Outcome::Term(built)
            }
        })
    }

    /// A copy of solver `z` in `ctx` (`Z3_solver_translate`), with its trackers.
    fn translate_into(&self, z: SolverId, ctx: Context) -> Result<Outcome, ExecError> {
        let slot = self.slot(z)?;
        let (solver, trackers) = solver_call(slot, || {
            let solver = slot.solver.translate(&ctx);
            let trackers: Vec<(TermId, Dynamic)> = slot
                .trackers
                .iter()
                .map(|(id, d)| (*id, d.translate(&ctx)))
                .collect();
            (solver, trackers)
        })?;
        let mut copy = SolverSlot::new(solver, ctx, true);
        copy.trackers = trackers;
        copy.formula = slot.formula.translated();
        Ok(Outcome::Solver(copy))
    }

    /// What a judged maker of `term_makers` made, or the read-back finding of its wrong
    /// answer (with checks on; the injected `wrong-read` fault makes every answer wrong).
    fn judged_maker<T>(
        &self,
        made: Result<(T, Option<term_makers::Wrong>), String>,
    ) -> Result<T, ExecError> {
        let (made, wrong) = made.map_err(z3err)?;
        let wrong = match (wrong, &self.config.inject) {
            (None, Some(inject::Fault::WrongRead)) => Some(term_makers::Wrong {
                message: "the injected wrong-read fault".into(),
                cause: "injected: another answer".into(),
            }),
            (wrong, _) => wrong,
        };
        match wrong {
            Some(w) if self.config.run_checks => Err(read_back_finding(w.message, w.cause)),
            _ => Ok(made),
        }
    }

    /// Whether Z3 may refuse `call` here without a bug, whatever the message: `get_proof` of a
    /// solver that is not bound to give a proof (not made with proofs on, or its last answer
    /// no current unsat).
    fn refusal_expected(&self, call: &Call) -> bool {
        match call {
            Call::GetProof(z) => self.solvers.get(z).is_none_or(|slot| {
                !slot.proofs || slot.formula.definite() != Some(SatResult::Unsat)
            }),
            _ => false,
        }
    }

    /// Z3's value of `term` under `model` (`Model::eval`), as Z3 prints it.
    fn model_eval(
        &self,
        model: ModelId,
        term: TermId,
        completion: bool,
    ) -> Result<String, ExecError> {
        let t = match self.released.get(&term) {
            Some(t) => t,
            None => self.z3_term(term)?,
        };
        let slot = self
            .models
            .get(&model)
            .ok_or_else(|| ExecError::Malformed(format!("model {model} is not defined")))?;
        let value = guard::guarded(&slot.ctx, || {
            let local = into_context(t, &slot.ctx, slot.foreign);
            match &slot.hand {
                Some(hand) => hand.eval(&local, completion).map(|v| v.to_string()),
                None => slot.model.eval(&local, completion).map(|v| v.to_string()),
            }
        })
        .map_err(z3err)?;
        let value =
            value.ok_or_else(|| z3err(format!("model_eval: {model} cannot evaluate {term}")))?;
        Ok(match &self.config.inject {
            Some(inject::Fault::WrongEval(op))
                if self.built_by.get(&term) == Some(&op.as_str()) =>
            {
                match value.as_str() {
                    "true" => "false".into(),
                    "false" => "true".into(),
                    _ => value,
                }
            }
            _ => value,
        })
    }

    /// The answer of a check of solver `z`, flipped by the injected `flip-solver` fault.
    /// A simplification as the injected `wrong-simplify` fault makes it: negated if Boolean.
    fn injected_simplification(&self, simplified: Dynamic) -> Dynamic {
        match (&self.config.inject, simplified.as_bool()) {
            (Some(inject::Fault::WrongSimplify), Some(b)) => Dynamic::from_ast(&b.not()),
            _ => simplified,
        }
    }

    fn injected_answer(&self, z: SolverId, answer: z3::SatResult) -> z3::SatResult {
        let flips = matches!(self.config.inject, Some(inject::Fault::FlipSolver(n))
            if self.solvers.get(&z).is_some_and(|s| s.ordinal == n));
        match (flips, answer) {
            (true, z3::SatResult::Sat) => z3::SatResult::Unsat,
            (true, z3::SatResult::Unsat) => z3::SatResult::Sat,
            _ => answer,
        }
    }

    /// The declaration of function `func` (uninterpreted or recursive).
    fn func_decl(&self, func: FuncId) -> Result<&FuncDecl, ExecError> {
        self.funcs
            .get(&func)
            .or_else(|| self.rec_funcs.get(&func).map(|r| &**r))
            .ok_or_else(|| ExecError::Malformed(format!("function {func} is not defined")))
    }

    fn arg_terms(&self, ids: &[TermId]) -> Result<Vec<&Dynamic>, ExecError> {
        ids.iter().map(|t| self.z3_term(*t)).collect()
    }

    /// The kind of a solver parameter from Z3's own descriptions. Module-prefixed names
    /// (`smt.relevancy`) are looked up without the module too.
    fn param_kind(&self, key: &str) -> ParamKind {
        let bare = key.split_once('.').map(|(_, rest)| rest);
        std::iter::once(key)
            .chain(bare)
            .find_map(|name| self.param_kinds.get(name).copied())
            .unwrap_or(ParamKind::Other)
    }
}

/// Z3 errors that are not findings: resource limits, and what a solver built from a tactic or
/// a logic may legitimately refuse. Matched as substrings of the lower-case error message.
pub const EXPECTED_ERRORS: &[&str] = &[
    "canceled",
    "timeout",
    "resource limit",
    "max. resource",
    "max. steps",
    "rlimit",
    "out of memory",
    "tactic failed",
    "not supported",
    "unsupported",
    "incomplete",
    "unknown parameter",
    "invalid parameter",
    "unsat core is not available",
    "model is not available",
    "there is no current model",
    "logic does not support",
    // A solver that states its limits: z3str3 (`string_solver`) refuses sequences of other
    // elements than characters ("Z3str3 does not support non-string sequence terms").
    "does not support",
    // Z3 documents that a solver can be translated at its base level only; a solver whose
    // scopes the reference state cannot see (pushed by `from_string`) refuses it rightly.
    "translation of contexts is only supported at base level",
    // Known-invalid combination of the option model: a fuzzed `arith.solver` with strings.
    "illegal arithmetic solver used with string solver",
    // The same for a fuzzed difference-logic `arith.solver` on Int and Real together.
    "difference logic does not work with mixed sorts",
    // Engines that are experimental in Z3 5.x say what they lack: `sls.enable` ("no plugin for
    // family id fpa", "no plugin for (forall ...)"), `bv.solver` 2 ("not implemented yet").
    "no plugin for",
    "not implemented yet",
    // `Z3_goal_to_dimacs_string` / `Z3_solver_to_dimacs_string` of what is not a Boolean
    // problem in conjunctive normal form (`goal_read`, `solver_read`).
    "preprocess by optional bit-blasting",
    // `Z3_solver_get_trail` of a solver that a tactic runs (`solver_read`).
    "cannot retrieve trail",
    // Z3 4.8.12's `Z3_mk_divides` passes its numeral on as an argument, not as the
    // parameter its arithmetic plugin asks for, and so refuses every application ("invalid
    // divides application. Expects integer parameter ..."); later releases build it.
    "invalid divides application",
    // The executor's mark of a refusal the call may meet in its state (`get_proof` of a
    // solver not bound to give a proof), see `Executor::refusal_expected`.
    "(expected refusal:",
];

/// The mark the executor appends to a refusal that is expected in the call's state.
const EXPECTED_REFUSAL: &str = "(expected refusal: the solver is not bound to give a proof)";
/// Calls that Z3 may refuse whatever their arguments: a tactic may refuse any goal, each in
/// its own words ("fail tactic", "goal is not diff neq", "bv1 blaster cannot be applied to
/// goal", ...), and a tactic may refuse parameter values outside its range ("illegal restart
/// strategy numeral").
pub fn may_refuse(call: &Call) -> bool {
    matches!(
        call,
        Call::ApplyTactic { .. }
            | Call::ApplyTacticWith { .. }
            | Call::MkTactic(model::TacticExpr::UsingParams(..))
            // The engines refuse what they do not handle (a rule that is no Horn clause,
            // a theory Spacer or Datalog does not support) with an exception.
            | Call::FpRule { .. }
            | Call::FpUpdateRule { .. }
            | Call::FpAssert(_)
            | Call::FpQuery { .. }
            | Call::FpQueryRelation { .. }
            | Call::FpFromString(_)
            | Call::FpRead(_)
            | Call::FpReadRel { .. }
            // Quantifier elimination refuses what its projections do not handle.
            | Call::Qe { .. }
    )
}

/// Whether Z3 may refuse `call` with `message` without a bug: an expected error
/// ([`EXPECTED_ERRORS`]), or an exception of a call that [`may_refuse`].
pub fn expected_refusal(call: &Call, message: &str) -> bool {
    expected_error(message) || (may_refuse(call) && message.starts_with("Exception"))
}

/// Whether Z3 may refuse a valid call with `message` without a bug (see [`EXPECTED_ERRORS`]).
pub fn expected_error(message: &str) -> bool {
    let lower = message.to_lowercase();
    EXPECTED_ERRORS.iter().any(|p| lower.contains(p))
}

/// Runs a call on a solver, guarded against the solver's own context.
/// The header comment that names the functions of releases after 4.8.12 the recording libz3
/// has (looked up by name at start): a trace that uses one replays only where it is.
pub const NEWER_FUNCTIONS_COMMENT: &str = "; newer functions: ";

/// A read-back that answered what the trace did not build.
fn read_back_finding(message: String, cause: String) -> ExecError {
    ExecError::Oracle(
        Failure::new(model::finding::FailureKind::ReadBack, message)
            .with_cause(cause)
            .at_call("read"),
    )
}

/// The sort's theory, as a read-back finding's cause names it (widths and formats apart).
fn sort_class(sort: &Sort) -> String {
    match sort {
        Sort::BitVec(_) => "BitVec".into(),
        Sort::FloatingPoint(..) => "FloatingPoint".into(),
        Sort::Array(..) => "Array".into(),
        Sort::Seq(_) => "Seq".into(),
        Sort::Named(..) => "datatype or uninterpreted".into(),
        other => other.to_string(),
    }
}

impl Executor {
    pub(super) fn reader(&self, function: &str) -> Result<model::read::Reader, ExecError> {
        let reader = model::read::Reader::from_name(function).ok_or_else(|| {
            ExecError::Malformed(format!("`{function}` is no read-back function"))
        })?;
        if !read::available(reader) {
            return Err(ExecError::Malformed(format!(
                "{function} is not in the loaded libz3 (Z3 {})",
                crate::z3_version()
            )));
        }
        Ok(reader)
    }

    /// The answer as the executor sees it, with the injected `wrong-read` fault applied.
    fn injected_read(&self, value: String) -> String {
        match (&self.config.inject, value.parse::<i128>()) {
            (Some(inject::Fault::WrongRead), Ok(n)) => (n + 1).to_string(),
            _ => value,
        }
    }

    /// Judges a read-back's answer by what the reference state expects.
    fn judge_read(
        &self,
        reader: model::read::Reader,
        expect: model::read::Expect,
        value: &str,
        returned_sort: Option<z3_sys::Z3_sort>,
        subject: String,
        sort: &Sort,
    ) -> Result<(), ExecError> {
        if !self.config.run_checks {
            return Ok(());
        }
        let verdict = match (&expect, returned_sort) {
            (model::read::Expect::Sort(s), Some(got)) => {
                match self.main(|| read::same_sort(got, s))? {
                    Some(false) => Err(format!("expected sort {s}, Z3 answered `{value}`")),
                    _ => Ok(()),
                }
            }
            _ => expect.judge(value),
        };
        verdict.map_err(|m| {
            read_back_finding(
                format!("`{}` of {subject}: {m}", reader.name()),
                format!("{} of {}", reader.name(), sort_class(sort)),
            )
        })
    }

    fn read_term(&mut self, function: &str, term: TermId) -> Result<String, ExecError> {
        let reader = self.reader(function)?;
        if reader == model::read::Reader::PrintMode {
            return self.print_mode_read(term);
        }
        let t = self.z3_term(term)?;
        let (value, returned) = self.main(|| read::read_term(reader, t))?.map_err(z3err)?;
        let value = self.injected_read(value);
        let expect = model::read::expected_for_term(reader, &self.state, term);
        let sort = self.state.term(term).map_err(malformed)?.sort.clone();
        let subject = format!("{term} (sort {sort})");
        // The term as Z3 prints it is what the expectation names (not the state's to know).
        let expect = match expect {
            model::read::Expect::Printed => model::read::Expect::Text(self.main(|| t.to_string())?),
            other => other,
        };
        self.judge_read(reader, expect, &value, returned, subject, &sort)?;
        Ok(value)
    }

    fn read_sort(&mut self, function: &str, sort: SortId) -> Result<String, ExecError> {
        let reader = self.reader(function)?;
        let s = self.z3_sort(sort)?;
        let (value, returned) = self.main(|| read::read_sort(reader, s))?.map_err(z3err)?;
        let value = self.injected_read(value);
        let expect = model::read::expected_for_sort(reader, &self.state, sort);
        let model_sort = self.state.sort(sort).map_err(malformed)?.clone();
        let subject = format!("{sort} ({model_sort})");
        self.judge_read(reader, expect, &value, returned, subject, &model_sort)?;
        Ok(value)
    }

    /// `read_eq`: Z3's equality of two terms, judged by what they share.
    fn read_eq(&mut self, a: TermId, b: TermId) -> Result<String, ExecError> {
        let (x, y) = (self.z3_term(a)?, self.z3_term(b)?);
        let (eq, problem) = self.main(|| read::read_eq(x, y))?;
        let (ia, ib) = (
            self.state.term(a).map_err(malformed)?,
            self.state.term(b).map_err(malformed)?,
        );
        use model::state::Origin;
        // Z3 shares terms: the same literal or constant of the same sort made twice is one
        // term.
        let shared = ia.sort == ib.sort
            && match (&ia.origin, &ib.origin) {
                (Origin::Lit(u), Origin::Lit(v)) | (Origin::Const(u), Origin::Const(v)) => u == v,
                _ => false,
            };
        let problem = problem
            .or_else(|| (shared && !eq).then(|| "the same term made twice is two terms".into()))
            .or_else(|| {
                (ia.sort != ib.sort && eq).then(|| "terms of different sorts are equal".into())
            });
        if let (Some(problem), true) = (problem, self.config.run_checks) {
            let sort = ia.sort.clone();
            return Err(read_back_finding(
                format!("`Z3_is_eq_ast` of {a} and {b}: {problem}"),
                format!("Z3_is_eq_ast of {}", sort_class(&sort)),
            ));
        }
        Ok(eq.to_string())
    }
}

fn solver_call<R>(slot: &SolverSlot, f: impl FnOnce() -> R) -> Result<R, ExecError> {
    guard::guarded(&slot.ctx, f).map_err(z3err)
}

/// `t` in context `ctx`: translated when the object it goes to lives in a context of its own
/// (`foreign`), else the term itself.
fn into_context(t: &Dynamic, ctx: &Context, foreign: bool) -> Dynamic {
    if foreign {
        t.translate(ctx)
    } else {
        t.clone()
    }
}

/// A Bool term in the solver's context (translated when the solver is foreign).
fn local_bool(slot: &SolverSlot, t: &Dynamic) -> Bool {
    into_context(t, &slot.ctx, slot.foreign)
        .as_bool()
        .expect("Bool checked by the reference state")
}

fn sat(r: z3::SatResult) -> SatResult {
    match r {
        z3::SatResult::Sat => SatResult::Sat,
        z3::SatResult::Unsat => SatResult::Unsat,
        z3::SatResult::Unknown => SatResult::Unknown,
    }
}

/// Sets a parameter by the kind Z3 declares; a value that does not parse as that kind, or a
/// name Z3 does not know, goes in as the kind the value looks like, so that Z3 itself
/// reports the problem (at the next check, as Z3 does).
fn set_param(params: &mut Params, key: &str, value: &str, kind: ParamKind) {
    let as_bool = match value {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    };
    match (kind, as_bool, value.parse::<u32>(), value.parse::<f64>()) {
        (ParamKind::Bool, Some(v), _, _) => params.set_bool(key, v),
        (ParamKind::Uint, _, Ok(v), _) => params.set_u32(key, v),
        (ParamKind::Double, _, _, Ok(v)) => params.set_f64(key, v),
        (ParamKind::Symbol | ParamKind::String, _, _, _) => params.set_symbol(key, value),
        (_, Some(v), _, _) => params.set_bool(key, v),
        (_, _, Ok(v), _) => params.set_u32(key, v),
        (_, _, _, Ok(v)) => params.set_f64(key, v),
        _ => params.set_symbol(key, value),
    }
}

/// A recorded result must be of the kind the call returns.
fn check_ret_shape(call: &Call, ret: Option<&Ret>) -> Result<(), ExecError> {
    let fits = match (call.ret_kind(), ret) {
        (_, None) | (_, Some(Ret::Error(_))) => true,
        (RetKind::None, Some(_)) => false,
        (RetKind::Sat, Some(r)) => matches!(r, Ret::Sat(_)),
        (RetKind::Core, Some(r)) => matches!(r, Ret::Core(_)),
        (RetKind::Value, Some(r)) => matches!(r, Ret::Value(_)),
        (_, Some(r)) => matches!(r, Ret::Id(_)),
    };
    if fits {
        Ok(())
    } else {
        Err(ExecError::Malformed(format!(
            "`{}` cannot return `{}`",
            call.name(),
            ret.map(format_ret).unwrap_or_default()
        )))
    }
}

thread_local! {
    static PARAM_KINDS: std::cell::OnceCell<Rc<HashMap<String, ParamKind>>> =
        const { std::cell::OnceCell::new() };
}

/// The kind of every solver parameter, read once per thread by [`solver_param_descrs`].
/// Reading them per `set_param` cost a quarter of a fuzzing round, and reading them in the
/// executor's own context would change that context's state (the descriptions create terms),
/// so a round would need the same reads as its replay. A fuzzer reads them once before it
/// forks its rounds.
pub fn solver_param_kinds() -> Rc<HashMap<String, ParamKind>> {
    PARAM_KINDS.with(|cell| {
        cell.get_or_init(|| {
            let kinds = solver_param_descrs()
                .into_iter()
                .map(|d| (d.name, d.kind))
                .collect();
            Rc::new(kinds)
        })
        .clone()
    })
}

/// Sets the typing facts of `model::ops` that differ between Z3 versions to the loaded Z3's,
/// once per process, from terms built in a scratch context (so no round's or replay's context
/// changes). A fuzzer calls it before it forks its rounds, so every round agrees.
pub fn adapt_model_to_loaded_z3() {
    static ADAPTED: std::sync::Once = std::sync::Once::new();
    ADAPTED.call_once(|| {
        let Ok(scratch) = guard::fresh_context() else {
            return;
        };
        let power = guard::in_context(&scratch, || {
            let x = z3::ast::Int::new_const("x");
            Dynamic::from_ast(&x.power(&x)).get_sort().kind()
        });
        if let Ok(kind) = power {
            model::ops::set_int_power_is_real(kind == z3::SortKind::Real);
        }
    });
}

/// How long the loaded Z3 takes to `translate` a fresh default solver, measured once in a
/// scratch context (Z3 4.8.12: about a millisecond; 5.x: about 0.9 s). A fuzzer budgets its
/// shadow clones by it.
pub fn default_translate_cost() -> std::time::Duration {
    let Ok(scratch) = guard::fresh_context() else {
        return std::time::Duration::ZERO;
    };
    let Ok(target) = guard::fresh_context() else {
        return std::time::Duration::ZERO;
    };
    // CPU time of this thread, not wall time: the choice it feeds must not depend on how busy
    // the machine is (a loaded machine once flipped campaigns between `all` and `cheap`).
    let start = thread_cpu_time();
    let _ = guard::in_context(&scratch, || drop(Solver::new().translate(&target)));
    thread_cpu_time().saturating_sub(start)
}

/// CPU time consumed so far by the calling thread.
fn thread_cpu_time() -> std::time::Duration {
    nix::time::clock_gettime(nix::time::ClockId::CLOCK_THREAD_CPUTIME_ID)
        .map(std::time::Duration::from)
        .unwrap_or_default()
}

/// Every parameter a default solver of the loaded Z3 describes (name, kind, documentation),
/// sorted by name so that choices drawn from them depend on names only; read from a scratch
/// context of its own, uncached. The one reader of Z3's parameter descriptions: the executor
/// sets parameters by the kinds, a fuzzer picks parameters and values from them.
pub fn solver_param_descrs() -> Vec<ParamDescr> {
    // (Tactics read theirs with `tactics::tactic_param_descrs`.)
    // SAFETY: a scratch solver, referenced while its descriptions are taken and referenced.
    read_param_descrs(|raw| unsafe {
        let solver = z3_sys::Z3_mk_solver(raw)?;
        z3_sys::Z3_solver_inc_ref(raw, solver);
        let descrs = z3_sys::Z3_solver_get_param_descrs(raw, solver);
        if let Some(d) = descrs {
            z3_sys::Z3_param_descrs_inc_ref(raw, d);
        }
        z3_sys::Z3_solver_dec_ref(raw, solver);
        descrs
    })
}

/// Every parameter of Z3's simplifier (`Z3_simplify_get_param_descrs`), sorted by name.
pub fn simplify_param_descrs() -> Vec<ParamDescr> {
    // SAFETY: the simplifier's descriptions of the scratch context, referenced once.
    read_param_descrs(|raw| unsafe {
        let descrs = z3_sys::Z3_simplify_get_param_descrs(raw);
        if let Some(d) = descrs {
            z3_sys::Z3_param_descrs_inc_ref(raw, d);
        }
        descrs
    })
}

/// The Boolean simplifier parameters a fuzzer may set in `simplify_with`, read once per
/// process: all but `hi_div0`, which changes what division by zero means (a simplification
/// under it is not equivalent to its input, by design).
pub fn simplify_bool_params() -> &'static [String] {
    static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        simplify_param_descrs()
            .into_iter()
            .filter(|d| d.kind == ParamKind::Bool && d.name != "hi_div0")
            .map(|d| d.name)
            .collect()
    })
}

/// Reads the parameter descriptions `get` returns (referenced once, released here) in a
/// scratch context of their own, sorted by name.
fn read_param_descrs(
    get: impl FnOnce(z3_sys::Z3_context) -> Option<z3_sys::Z3_param_descrs>,
) -> Vec<ParamDescr> {
    let Ok(scratch) = guard::fresh_context() else {
        return Vec::new();
    };
    let raw = scratch.get_z3_context();
    let mut descrs_read = Vec::new();
    let Some(descrs) = get(raw) else {
        return descrs_read;
    };
    // SAFETY: the descriptions are referenced by `get` and released below; strings are copied
    // before the next Z3 call.
    unsafe {
        for i in 0..z3_sys::Z3_param_descrs_size(raw, descrs) {
            let Some(symbol) = z3_sys::Z3_param_descrs_get_name(raw, descrs, i) else {
                continue;
            };
            let Some(name) = c_string(z3_sys::Z3_get_symbol_string(raw, symbol)) else {
                continue;
            };
            let kind = match z3_sys::Z3_param_descrs_get_kind(raw, descrs, symbol) {
                z3_sys::ParamKind::Uint => ParamKind::Uint,
                z3_sys::ParamKind::Bool => ParamKind::Bool,
                z3_sys::ParamKind::Double => ParamKind::Double,
                z3_sys::ParamKind::Symbol => ParamKind::Symbol,
                z3_sys::ParamKind::String => ParamKind::String,
                _ => ParamKind::Other,
            };
            let doc = c_string(z3_sys::Z3_param_descrs_get_documentation(
                raw, descrs, symbol,
            ))
            .unwrap_or_default();
            descrs_read.push(ParamDescr { name, kind, doc });
        }
        z3_sys::Z3_param_descrs_dec_ref(raw, descrs);
    }
    descrs_read.sort_by(|a, b| a.name.cmp(&b.name));
    descrs_read
}

/// Copies a C string Z3 returned; `None` for NULL.
///
/// # Safety
/// `p` is NULL or a valid NUL-terminated string.
unsafe fn c_string(p: *const std::ffi::c_char) -> Option<String> {
    (!p.is_null()).then(|| std::ffi::CStr::from_ptr(p).to_string_lossy().into_owned())
}
