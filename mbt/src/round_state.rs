//! The context of one round, [`RoundState`]: the system under test, the round's random generator,
//! its [`Shape`] (size and shape parameters drawn in state New), the term [`Pool`], the main
//! solver and its shadow clone, the assertion scopes, budgets and statistics.
//!
//! Every call goes through [`RoundState::run`], which checks it against the reference state first (the
//! fuzzer generates only valid calls), counts it, fires a test-only injected failure, and
//! sorts Z3 errors into expected ones ([`Reply::Refused`]) and findings. [`RoundState::solver_call`]
//! runs a solver call on the main solver and mirrors it on the shadow clone.

use crate::failure::{Failure, FailureKind};
use crate::inject::Inject;
use crate::options::OptionModel;
use crate::pool::Pool;
use crate::stats::Stats;
use crate::sut::{Sut, SutError};
use model::trace::text;
use model::{AnyId, Call, Check, ModelId, Ret, SatResult, SolverId, Sort, SortId, TermId, Theory};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

/// What a round may do; the same for every round of a campaign.
#[derive(Clone)]
pub struct RoundConfig {
    pub theories: Vec<Theory>,
    pub option_fuzzing: bool,
    pub options: Arc<OptionModel>,
    /// Z3's deterministic resource limit per check (`rlimit`), so that hard formulas answer
    /// unknown the same way on every run instead of timing out.
    pub rlimit: u64,
    pub inject: Option<Inject>,
    /// Evaluate assertions and model values with the independent evaluator (`check_indep`,
    /// `check_eval`) as well as with Z3's `model_eval`.
    pub independent: bool,
    /// Shadow clones may `translate` default solvers and solvers for logic `ALL`. Z3 5.x takes
    /// 0.9 s for such a translate (4.8.12 a millisecond), so the campaign turns it off where
    /// the loaded Z3 is slow at it (`--shadows`); the other solver kinds translate fast.
    pub translate_default: bool,
    /// `--diff-lib`, `--cross-check`: every round that passes runs again on this other Z3 or
    /// solver, which must agree ([`untrace::differential`]).
    pub differential: Option<Differential>,
    /// Operations the loaded Z3 types otherwise than the model ([`untrace::executor::typing`]):
    /// never generated, since Z3 would refuse or mistype what the model deems valid.
    pub left_out_ops: Vec<&'static str>,
    /// Each round runs with Z3's API log open to count the Z3 functions it calls
    /// ([`crate::api_coverage::RoundLog`]); `--no-api-coverage` turns it off.
    pub count_z3_functions: bool,
}

/// The other side of a differential campaign and the untrace binary that replays on it.
#[derive(Clone, Debug)]
pub struct Differential {
    pub other: untrace::differential::Other,
    pub replayer: untrace::cli::Replayer,
}

impl RoundConfig {
    pub fn has(&self, theory: Theory) -> bool {
        theory == Theory::Core || self.theories.contains(&theory)
    }
}

/// Size and shape parameters of a round, drawn in state New and again for incremental steps.
#[derive(Clone, Debug)]
pub struct Shape {
    pub n_inputs: usize,
    pub n_initial: usize,
    pub n_main: usize,
    /// Probability to pick a term built after the initial set.
    pub p_deep: f64,
    pub n_params: usize,
    pub n_incremental: usize,
    pub bv_widths: Vec<u32>,
    pub fp_formats: Vec<(u32, u32)>,
    /// Whether the round declares datatypes while it builds its initial terms (with the
    /// datatypes theory enabled; the main phase may declare more either way).
    pub datatypes: bool,
}

impl Shape {
    pub fn draw(rng: &mut impl Rng) -> Shape {
        let mut bv_widths = vec![[1, 4, 8, 8, 16, 32][rng.random_range(0..6)]];
        if rng.random_bool(0.6) {
            bv_widths.push(rng.random_range(1..=24));
        }
        // Float32 in one draw of six: its bit-blasted multiplications and divisions are an
        // order of magnitude bigger than Float16's (a Float32 round cost 1.7 times the average),
        // and rounding bugs show in small formats as well.
        let formats = [(2, 4), (3, 5), (3, 5), (5, 11), (5, 11), (8, 24)];
        let mut fp_formats = vec![formats[rng.random_range(0..formats.len())]];
        if rng.random_bool(0.3) {
            fp_formats.push(formats[rng.random_range(0..formats.len())]);
        }
        Shape {
            n_inputs: rng.random_range(4..=16),
            n_initial: rng.random_range(4..=30),
            n_main: rng.random_range(5..=40),
            p_deep: rng.random_range(0.6..0.95),
            n_params: rng.random_range(0..=5),
            n_incremental: rng.random_range(0..=3),
            bv_widths,
            fp_formats,
            // Drawn in `NewRound`, only where datatypes are enabled, so that rounds without
            // them draw what they drew before datatypes existed.
            datatypes: false,
        }
    }

    /// Redraws the per-step budgets for an incremental step (narrower than in New).
    pub fn redraw_step(&mut self, rng: &mut impl Rng) {
        self.n_main = rng.random_range(3..=20);
        self.p_deep = rng.random_range(0.7..0.98);
    }
}

/// An assertion of the main solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asserted {
    Plain(TermId),
    Tracked { term: TermId, tracker: TermId },
}

/// The answer of a call that Z3 may refuse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    Done(Option<Ret>),
    /// Z3 reported an error the option model expects (the message).
    Refused(String),
}

impl Reply {
    pub fn ret(&self) -> Option<&Ret> {
        match self {
            Reply::Done(r) => r.as_ref(),
            Reply::Refused(_) => None,
        }
    }

    pub fn term(&self) -> Option<TermId> {
        match self.ret() {
            Some(Ret::Id(AnyId::Term(t))) => Some(*t),
            _ => None,
        }
    }

    pub fn rcf(&self) -> Option<model::call::RcfId> {
        match self.ret() {
            Some(Ret::Id(AnyId::Rcf(r))) => Some(*r),
            _ => None,
        }
    }

    pub fn sort(&self) -> Option<SortId> {
        match self.ret() {
            Some(Ret::Id(AnyId::Sort(s))) => Some(*s),
            _ => None,
        }
    }

    pub fn solver(&self) -> Option<SolverId> {
        match self.ret() {
            Some(Ret::Id(AnyId::Solver(z))) => Some(*z),
            _ => None,
        }
    }

    pub fn model(&self) -> Option<ModelId> {
        match self.ret() {
            Some(Ret::Id(AnyId::Model(m))) => Some(*m),
            _ => None,
        }
    }

    pub fn tactic(&self) -> Option<model::TacticId> {
        match self.ret() {
            Some(Ret::Id(AnyId::Tactic(k))) => Some(*k),
            _ => None,
        }
    }

    pub fn goal(&self) -> Option<model::GoalId> {
        match self.ret() {
            Some(Ret::Id(AnyId::Goal(g))) => Some(*g),
            _ => None,
        }
    }

    pub fn opt(&self) -> Option<model::OptId> {
        match self.ret() {
            Some(Ret::Id(AnyId::Opt(o))) => Some(*o),
            _ => None,
        }
    }

    /// A recorded value (`return "..."`).
    pub fn value(&self) -> Option<&str> {
        match self.ret() {
            Some(Ret::Value(v)) => Some(v),
            _ => None,
        }
    }

    pub fn sat(&self) -> Option<SatResult> {
        match self.ret() {
            Some(Ret::Sat(r)) => Some(*r),
            _ => None,
        }
    }
}

/// The context of one round.
pub struct RoundState<'s> {
    pub sut: &'s mut dyn Sut,
    pub rng: ChaCha8Rng,
    pub config: RoundConfig,
    pub seed: u64,
    pub shape: Shape,
    pub pool: Pool,
    /// Sorts created this round, reused by sort.
    pub sorts: BTreeMap<Sort, SortId>,
    pub funcs: Vec<(model::FuncId, Vec<Sort>, Sort)>,
    /// Special relations made this round, with the terms they were applied to (what
    /// `check_relation` judges them over).
    pub relations: Vec<(model::FuncId, Vec<TermId>)>,
    /// The datatype groups declared this round and the datatype sorts (instances) made.
    pub datatype_groups: usize,
    pub datatype_sorts: Vec<Sort>,
    pub solver: Option<SolverId>,
    pub shadow: Option<SolverId>,
    /// Assertions per scope; `scopes[0]` is the base level.
    pub scopes: Vec<Vec<Asserted>>,
    /// Terms the oracles still need (assertions, trackers): never released.
    pub pinned: HashSet<TermId>,
    /// Boolean constants usable as assumptions.
    pub bool_consts: Vec<TermId>,
    /// The assumptions of the last check and its answer.
    pub last_assumptions: Vec<TermId>,
    pub last_answer: Option<SatResult>,
    pub checks_done: u64,
    /// Options set this round, for the report and the invalid-combination table.
    pub options_set: Vec<(String, String)>,
    pub budget: Budget,
    pub stats: Stats,
    pub n_calls: u64,
    names: u32,
}

/// Counters that guard the transitions of the machine.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    pub inputs_left: usize,
    pub initial_left: usize,
    pub main_left: usize,
    pub params_left: usize,
    pub incremental_left: usize,
}

impl<'s> RoundState<'s> {
    pub fn new(
        sut: &'s mut dyn Sut,
        config: RoundConfig,
        seed: u64,
        rng: ChaCha8Rng,
    ) -> RoundState<'s> {
        RoundState {
            sut,
            rng,
            config,
            seed,
            shape: Shape {
                n_inputs: 0,
                n_initial: 0,
                n_main: 0,
                p_deep: 0.8,
                n_params: 0,
                n_incremental: 0,
                bv_widths: vec![8],
                fp_formats: vec![(3, 5)],
                datatypes: false,
            },
            pool: Pool::default(),
            sorts: BTreeMap::new(),
            funcs: Vec::new(),
            relations: Vec::new(),
            datatype_groups: 0,
            datatype_sorts: Vec::new(),
            solver: None,
            shadow: None,
            scopes: vec![Vec::new()],
            pinned: HashSet::new(),
            bool_consts: Vec::new(),
            last_assumptions: Vec::new(),
            last_answer: None,
            checks_done: 0,
            options_set: Vec::new(),
            budget: Budget::default(),
            stats: Stats::default(),
            n_calls: 0,
            names: 0,
        }
    }

    /// A fresh name with a prefix, unique in the round.
    pub fn fresh_name(&mut self, prefix: &str) -> String {
        self.names += 1;
        format!("{prefix}{}", self.names)
    }

    /// Runs one call through the system under test.
    pub fn run(&mut self, call: Call) -> Result<Reply, Failure> {
        self.n_calls += 1;
        if let Some(inject) = self.config.inject {
            if inject.fires(self.seed, self.n_calls) {
                inject.fire();
            }
        }
        let line = text::format_call(&call);
        let name = call.name();
        let located = |kind, message: String| Failure::new(kind, message).at_call(name);
        if let Err(v) = self.sut.state().check(&call) {
            return Err(located(
                FailureKind::Internal,
                format!("mbt generated an invalid call `{line}`: {v}"),
            ));
        }
        self.stats.call_tried(name);
        let may_refuse = untrace::executor::may_refuse(&call);
        match self.sut.run(call) {
            Ok(ret) => {
                self.stats.call_ok(name);
                Ok(Reply::Done(ret))
            }
            Err(SutError::Oracle(failure)) => Err(failure),
            Err(SutError::Malformed(m)) => Err(located(
                FailureKind::Internal,
                format!("the executor rejected `{line}`: {m}"),
            )),
            Err(SutError::Io(m)) => Err(located(
                FailureKind::Internal,
                format!("cannot write the trace at `{line}`: {m}"),
            )),
            Err(SutError::Z3(m)) => {
                let refusal = may_refuse && m.starts_with("Exception");
                if refusal || untrace::executor::expected_error(&m) {
                    Ok(Reply::Refused(m))
                } else {
                    Err(Failure::z3_error(name, &line, &m))
                }
            }
        }
    }

    /// Runs a solver call on the main solver and mirrors it on the shadow clone; after a
    /// check of both, `check_shadow` compares their answers.
    pub fn solver_call(&mut self, build: impl Fn(SolverId) -> Call) -> Result<Reply, Failure> {
        let Some(main) = self.solver else {
            return Ok(Reply::Refused("no solver".into()));
        };
        let reply = self.run(build(main))?;
        if let Some(shadow) = self.shadow {
            if self.sut.state().solvers.contains_key(&shadow) {
                let call = build(shadow);
                if self.sut.state().check(&call).is_ok() {
                    let mirrored = self.run(call)?;
                    if reply.sat().is_some() && mirrored.sat().is_some() {
                        self.run(Call::Check(Check::Shadow {
                            original: main,
                            clone: shadow,
                        }))?;
                    }
                }
            }
        }
        self.sync_scopes();
        Ok(reply)
    }

    /// Keeps the assertion scopes as deep as the reference state's main solver.
    pub fn sync_scopes(&mut self) {
        let depth = self
            .solver
            .and_then(|z| self.sut.state().solvers.get(&z).map(|s| s.depth as usize))
            .unwrap_or(0);
        self.scopes.truncate(depth + 1);
        while self.scopes.len() < depth + 1 {
            self.scopes.push(Vec::new());
        }
    }

    /// Counts the answer of a check of the main solver.
    pub fn count_answer(&mut self, answer: Option<SatResult>) {
        match answer {
            Some(SatResult::Sat) => self.stats.sat += 1,
            Some(SatResult::Unsat) => self.stats.unsat += 1,
            _ => self.stats.unknown += 1,
        }
        if self.checks_done > 0 {
            self.stats.incremental_checks += 1;
        }
        self.checks_done += 1;
        self.last_answer = answer;
    }

    /// Every assertion of every scope.
    pub fn assertions(&self) -> Vec<Asserted> {
        self.scopes.iter().flatten().copied().collect()
    }

    /// The sort id of `sort`, created (with its components) on first use.
    pub fn sort_id(&mut self, sort: &Sort) -> Result<Option<SortId>, Failure> {
        if let Some(id) = self.sorts.get(sort) {
            if self.sut.state().sorts.contains_key(id) {
                return Ok(Some(*id));
            }
        }
        let call = match sort {
            // A declared datatype's name (an uninterpreted sort's name otherwise).
            Sort::Named(name, params) if self.sut.state().datatypes.by_name.contains_key(name) => {
                let mut ids = Vec::new();
                for p in params {
                    let Some(id) = self.sort_id(p)? else {
                        return Ok(None);
                    };
                    ids.push(id);
                }
                Call::SortDatatype {
                    name: name.clone(),
                    params: ids,
                }
            }
            _ => match Call::make_sort(sort, |component| self.sort_id(component))? {
                Some(call) => self.other_maker(call),
                None => return Ok(None),
            },
        };
        let id = self.run(call)?.sort();
        if let Some(id) = id {
            self.sorts.insert(sort.clone(), id);
        }
        Ok(id)
    }

    /// Half the time, Z3's other maker of the sort `call` makes where it has one: a fixed
    /// floating-point format's own maker (`sort_fp_fixed`), the set sort's for arrays to
    /// Bool (`sort_set`).
    fn other_maker(&mut self, call: Call) -> Call {
        match call {
            Call::SortFp(e, s) => {
                let makers: Vec<&str> = model::call::FIXED_FP_FORMATS
                    .iter()
                    .filter(|(_, fe, fs)| (*fe, *fs) == (e, s))
                    .map(|(name, ..)| *name)
                    .collect();
                if makers.is_empty() || self.rng.random_bool(0.5) {
                    return call;
                }
                Call::SortFpFixed(makers[self.rng.random_range(0..makers.len())].to_string())
            }
            Call::SortArray(index, element)
                if self.sut.state().sorts.get(&element) == Some(&Sort::Bool)
                    && self.rng.random_bool(0.5) =>
            {
                Call::SortSet(index)
            }
            call => call,
        }
    }

    /// Runs a term-building call and adds the new term to the pool.
    pub fn new_term(&mut self, call: Call, initial: bool) -> Result<Option<TermId>, Failure> {
        let t = self.run(call)?.term();
        if let Some(t) = t {
            if let Ok(info) = self.sut.state().term(t) {
                let sort = info.sort.clone();
                self.pool.add(t, sort, initial);
            }
        }
        Ok(t)
    }
}
