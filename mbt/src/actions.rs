//! The fuzzer's actions: small self-contained units behind one trait, [`Action`], in the way
//! Murxla and proptest-state-machine declare them. `applies` is the precondition on the
//! round's context, `run` generates the calls (through [`RoundState::run`], so each is checked against
//! the reference state and written to the trace before it runs) and checks the oracles that
//! belong to it. The state machine in [`crate::machine`] wires them into states with weights.

use crate::failure::Failure;
use crate::gen;
use crate::options::{conflicts, GLOBALS, INVALID_WITH_THEORY};
use crate::round_state::{Asserted, RoundState, Shape};
use model::options::{CONTEXT_PARAMS, LOGICS, TACTICS};
use model::state::Phase;
use model::{AnyId, Call, Check, Op, Ret, SatResult, SolverId, SolverKind, Sort, TermId, Theory};
use rand::Rng;

/// One fuzzer action.
pub trait Action: Sync {
    /// The name in statistics.
    fn name(&self) -> &'static str;
    /// Whether the action may run now.
    fn applies(&self, cx: &RoundState<'_>) -> bool;
    /// Runs the action; `Ok(false)` when it found nothing to do, `Err` on a finding.
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure>;
}

fn depth(cx: &RoundState<'_>) -> u32 {
    cx.solver
        .and_then(|z| cx.sut.state().solvers.get(&z).map(|s| s.depth))
        .unwrap_or(0)
}

fn rlimit_call(cx: &RoundState<'_>, z: SolverId) -> Call {
    Call::SetParam {
        solver: z,
        key: "rlimit".into(),
        value: cx.config.rlimit.to_string(),
    }
}

/// Creates a solver of `kind` with the round's resource limit.
fn new_solver(cx: &mut RoundState<'_>, kind: SolverKind) -> Result<Option<SolverId>, Failure> {
    let Some(z) = cx.run(Call::NewSolver(kind))?.solver() else {
        return Ok(None);
    };
    let limit = rlimit_call(cx, z);
    cx.run(limit)?;
    Ok(Some(z))
}

// ---- New --------------------------------------------------------------------------------

/// State New: draws the round's size and shape parameters.
pub struct NewRound;
impl Action for NewRound {
    fn name(&self) -> &'static str {
        "new_round"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        cx.solver.is_none()
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        cx.shape = Shape::draw(&mut cx.rng);
        cx.shape.datatypes = cx.config.has(Theory::Datatypes) && cx.rng.random_bool(0.3);
        cx.budget.inputs_left = cx.shape.n_inputs;
        cx.budget.initial_left = cx.shape.n_initial;
        cx.budget.params_left = if cx.config.option_fuzzing {
            cx.shape.n_params
        } else {
            0
        };
        cx.budget.incremental_left = cx.shape.n_incremental;
        Ok(true)
    }
}

// ---- Set Options ------------------------------------------------------------------------

/// A global parameter, before the solver exists.
pub struct SetGlobalParam;
impl Action for SetGlobalParam {
    fn name(&self) -> &'static str {
        "set_global_param"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        cx.solver.is_none() && cx.budget.params_left > 0
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        cx.budget.params_left -= 1;
        let (key, values) = GLOBALS[cx.rng.random_range(0..GLOBALS.len())];
        let value = values[cx.rng.random_range(0..values.len())];
        if conflicts(&cx.options_set, key, value) {
            return Ok(false);
        }
        cx.options_set.push((key.into(), value.into()));
        cx.run(Call::SetGlobal {
            key: key.into(),
            value: value.into(),
        })?;
        Ok(true)
    }
}

/// The main solver: default, for a logic, from a tactic by name, or from a random tactic
/// object (`Z3_mk_solver_from_tactic`: its models go through the tactics' model converters,
/// and every one is checked against the original assertions like any model).
pub struct NewSolver(pub SolverChoice);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolverChoice {
    Default,
    Logic,
    Tactic,
    Composed,
}

impl Action for NewSolver {
    fn name(&self) -> &'static str {
        match self.0 {
            SolverChoice::Default => "new_solver_default",
            SolverChoice::Logic => "new_solver_logic",
            SolverChoice::Tactic => "new_solver_tactic",
            SolverChoice::Composed => "new_solver_composed",
        }
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        cx.solver.is_none()
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let kind = match self.0 {
            SolverChoice::Default => SolverKind::Default,
            SolverChoice::Logic => {
                let fitting = fitting_logics(cx);
                SolverKind::Logic(fitting[cx.rng.random_range(0..fitting.len())].into())
            }
            SolverChoice::Tactic => {
                SolverKind::Tactic(TACTICS[cx.rng.random_range(0..TACTICS.len())].into())
            }
            SolverChoice::Composed => match crate::families::solver_tactic(cx)? {
                Some(k) => SolverKind::FromTactic(k),
                None => return Ok(false),
            },
        };
        cx.solver = new_solver(cx, kind)?;
        // The solver holds its tactic: the tactic objects are released.
        let mut tactics: Vec<model::TacticId> = cx.sut.state().tactics.iter().copied().collect();
        // In id order: a round is a function of its seed (the set's order is not).
        tactics.sort();
        for k in tactics {
            cx.run(Call::Release(AnyId::Tactic(k)))?;
        }
        Ok(cx.solver.is_some())
    }
}

/// Logics and the theories their formulas may use. A solver for a logic is only sound on
/// formulas of that logic, so a round picks a logic that covers every enabled theory (the
/// generator mixes Int and Real and builds nonlinear terms, so the arithmetic logics never fit
/// a round with arithmetic).
pub const LOGIC_THEORIES: &[(&str, &[Theory])] = &[
    ("QF_UF", &[Theory::Core, Theory::Uf]),
    ("UF", &[Theory::Core, Theory::Uf, Theory::Quant]),
    ("QF_SLIA", &[Theory::Core, Theory::Strings, Theory::Regex]),
];

/// The logics whose theories cover the round's: always `ALL`.
pub fn fitting_logics(cx: &RoundState<'_>) -> Vec<&'static str> {
    let mut logics = vec!["ALL"];
    for (logic, theories) in LOGIC_THEORIES {
        if cx.config.theories.iter().all(|t| theories.contains(t)) && LOGICS.contains(logic) {
            logics.push(logic);
        }
    }
    logics
}

/// A solver parameter from the option model.
pub struct SetSolverParam;
impl Action for SetSolverParam {
    fn name(&self) -> &'static str {
        "set_solver_param"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        cx.solver.is_some() && cx.budget.params_left > 0
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        cx.budget.params_left -= 1;
        // The descriptions are the default solver's: solvers for a logic or from a tactic
        // reject some of them, so only the default solver gets fuzzed parameters.
        let kind = cx
            .solver
            .and_then(|z| cx.sut.state().solvers.get(&z).map(|s| s.kind.clone()));
        if kind != Some(SolverKind::Default) {
            return Ok(false);
        }
        let options = cx.config.options.clone();
        let Some((key, value)) = options.pick(&mut cx.rng) else {
            return Ok(false);
        };
        let invalid_here = INVALID_WITH_THEORY
            .iter()
            .any(|(k, theory)| *k == key && cx.config.has(*theory));
        if invalid_here || conflicts(&cx.options_set, &key, &value) {
            return Ok(false);
        }
        cx.options_set.push((key.clone(), value.clone()));
        cx.solver_call(|z| Call::SetParam {
            solver: z,
            key: key.clone(),
            value: value.clone(),
        })?;
        Ok(true)
    }
}

/// Leaves Set Options once the solver exists and the parameters are set.
pub struct EndOptions;
impl Action for EndOptions {
    fn name(&self) -> &'static str {
        "end_options"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        cx.solver.is_some() && cx.budget.params_left == 0
    }
    fn run(&self, _cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        Ok(true)
    }
}

// ---- Generate Initial Expressions -------------------------------------------------------

/// An input of the initial set.
pub struct InitInput;
impl Action for InitInput {
    fn name(&self) -> &'static str {
        "init_input"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        cx.budget.inputs_left > 0
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        cx.budget.inputs_left -= 1;
        // Make sure every input sort has a constant, then draw at random.
        let sorts = gen::input_sorts(cx);
        let missing = sorts.iter().find(|s| !cx.pool.has(s)).cloned();
        Ok(match missing {
            Some(sort) => gen::mk_const(cx, &sort, true)?.is_some(),
            None => gen::mk_input(cx, true)?.is_some(),
        })
    }
}

/// A non-input term of the initial set.
pub struct InitTerm;
impl Action for InitTerm {
    fn name(&self) -> &'static str {
        "init_term"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        cx.budget.inputs_left == 0 && cx.budget.initial_left > 0
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        cx.budget.initial_left -= 1;
        Ok(gen::mk_op(cx, true)?.is_some())
    }
}

/// A group of datatypes among the initial expressions (in rounds whose shape wants them).
pub struct InitDatatypes;
impl Action for InitDatatypes {
    fn name(&self) -> &'static str {
        "init_datatypes"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        cx.config.has(Theory::Datatypes)
            && cx.shape.datatypes
            && cx.datatype_groups == 0
            && cx.budget.inputs_left > 0
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        gen::mk_datatypes(cx)
    }
}

/// Leaves Generate Initial Expressions.
pub struct EndInit;
impl Action for EndInit {
    fn name(&self) -> &'static str {
        "end_init"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        cx.budget.inputs_left == 0 && cx.budget.initial_left == 0
    }
    fn run(&self, _cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        Ok(true)
    }
}

// ---- Main -------------------------------------------------------------------------------

fn in_main(cx: &RoundState<'_>) -> bool {
    cx.budget.main_left > 0
}

/// A new input (constant or literal).
pub struct MkInput;
impl Action for MkInput {
    fn name(&self) -> &'static str {
        "mk_input"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        in_main(cx)
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        Ok(gen::mk_input(cx, false)?.is_some())
    }
}

/// A term from the operation table.
pub struct MkTerm;
impl Action for MkTerm {
    fn name(&self) -> &'static str {
        "mk_term"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        in_main(cx) && !cx.pool.is_empty()
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        Ok(gen::mk_op(cx, false)?.is_some())
    }
}

/// A group of datatypes.
pub struct MkDatatypes;
impl Action for MkDatatypes {
    fn name(&self) -> &'static str {
        "mk_datatypes"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        in_main(cx) && cx.config.has(Theory::Datatypes) && cx.datatype_groups < 3
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        gen::mk_datatypes(cx)
    }
}

/// A constructor, tester, accessor or field update over a datatype of the round.
pub struct MkDatatypeTerm;
impl Action for MkDatatypeTerm {
    fn name(&self) -> &'static str {
        "mk_datatype_term"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        in_main(cx) && !cx.datatype_sorts.is_empty()
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        Ok(gen::mk_datatype_term(cx, false)?.is_some())
    }
}

/// An uninterpreted function.
pub struct MkFun;
impl Action for MkFun {
    fn name(&self) -> &'static str {
        "mk_fun"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        in_main(cx) && cx.config.has(Theory::Uf) && cx.funcs.len() < 4 && !cx.pool.is_empty()
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        gen::mk_fun(cx)
    }
}

/// An application of an uninterpreted function.
pub struct MkApply;
impl Action for MkApply {
    fn name(&self) -> &'static str {
        "mk_apply"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        in_main(cx) && !cx.funcs.is_empty()
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        Ok(gen::mk_apply(cx, false)?.is_some())
    }
}

/// A pseudo-Boolean constraint over Bool terms.
pub struct MkPb;
impl Action for MkPb {
    fn name(&self) -> &'static str {
        "mk_pb"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        in_main(cx) && cx.pool.has(&Sort::Bool)
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        Ok(gen::mk_pb(cx)?.is_some())
    }
}

/// The guard of the actions that build terms of the array theory (sets are arrays to Bool)
/// from the pool.
fn array_term_applies(cx: &RoundState<'_>) -> bool {
    in_main(cx) && cx.config.has(Theory::Array) && !cx.pool.is_empty()
}

/// A union of sets of the pool (`set_union`).
pub struct MkSetUnion;
impl Action for MkSetUnion {
    fn name(&self) -> &'static str {
        "mk_set_union"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        array_term_applies(cx)
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        Ok(gen::mk_set_union(cx)?.is_some())
    }
}

/// A set operation other than the union (`set_intersect`, `set_difference`,
/// `set_complement`, `set_subset`, `empty_set`, `full_set`).
pub struct MkSetOp;
impl Action for MkSetOp {
    fn name(&self) -> &'static str {
        "mk_set_op"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        array_term_applies(cx)
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        Ok(gen::mk_set_op(cx)?.is_some())
    }
}

/// An array read or write by the n-ary functions, an array's default, or arrays of
/// functions (`select_n`, `store_n`, `array_default`, `array_ext`, `as_array`, `array_map`).
pub struct MkArrayOp;
impl Action for MkArrayOp {
    fn name(&self) -> &'static str {
        "mk_array_op"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        array_term_applies(cx)
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        Ok(gen::mk_array_op(cx)?.is_some())
    }
}

/// A recursive function, defined and applied (`rec_fun`, `rec_def`, `apply`).
pub struct MkRecFun;
impl Action for MkRecFun {
    fn name(&self) -> &'static str {
        "mk_rec_fun"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        in_main(cx)
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        Ok(gen::mk_rec_fun(cx)?.is_some())
    }
}

/// A special relation (an order or a transitive closure), applied to terms of the pool.
pub struct MkRelation;
impl Action for MkRelation {
    fn name(&self) -> &'static str {
        "mk_relation"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        in_main(cx)
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        Ok(gen::mk_relation(cx)?.is_some())
    }
}

/// A model built by hand, terms evaluated under it and judged by the independent evaluator.
pub struct HandModel;
impl Action for HandModel {
    fn name(&self) -> &'static str {
        "hand_model"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        in_main(cx)
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        gen::mk_hand_model(cx)
    }
}

/// A constant array.
pub struct MkConstArray;
impl Action for MkConstArray {
    fn name(&self) -> &'static str {
        "mk_const_array"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        array_term_applies(cx)
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        Ok(gen::mk_const_array(cx, false)?.is_some())
    }
}

/// `simplify` of a term.
pub struct Simplify;
impl Action for Simplify {
    fn name(&self) -> &'static str {
        "simplify"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        in_main(cx) && !cx.pool.is_empty()
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        Ok(gen::mk_simplify(cx)?.is_some())
    }
}

/// A quantifier over fresh variables, its body from the term generators; asserted at once
/// half of the time (otherwise it waits in the pool like any Bool term).
pub struct MkQuantifier;
impl Action for MkQuantifier {
    fn name(&self) -> &'static str {
        "mk_quantifier"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        in_main(cx) && cx.config.has(Theory::Quant) && !cx.pool.is_empty()
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let Some(q) = gen::mk_quantifier(cx, 0)? else {
            return Ok(false);
        };
        // One in four made again through another of Z3's makers (no solver call: cheap).
        if cx.rng.random_bool(0.25) {
            gen::quant_rebuild(cx, q)?;
        }
        if cx.solver.is_some() && cx.rng.random_bool(0.5) {
            let reply = cx.solver_call(|z| Call::Assert(z, q))?;
            if matches!(reply, crate::round_state::Reply::Done(_)) {
                cx.pinned.insert(q);
                if let Some(scope) = cx.scopes.last_mut() {
                    scope.push(Asserted::Plain(q));
                }
            }
        }
        Ok(true)
    }
}

/// `substitute` in a term.
pub struct Substitute;
impl Action for Substitute {
    fn name(&self) -> &'static str {
        "substitute"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        in_main(cx) && !cx.pool.is_empty()
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        Ok(gen::mk_substitute(cx)?.is_some())
    }
}

/// Releases a term no oracle needs.
pub struct Release;
impl Action for Release {
    fn name(&self) -> &'static str {
        "release"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        in_main(cx) && cx.pool.len() > 4
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let free: Vec<TermId> = cx
            .pool
            .all()
            .into_iter()
            .filter(|t| !cx.pinned.contains(t) && !cx.bool_consts.contains(t))
            .collect();
        if free.is_empty() {
            return Ok(false);
        }
        let t = free[cx.rng.random_range(0..free.len())];
        cx.run(Call::Release(AnyId::Term(t)))?;
        cx.pool.remove(t);
        Ok(true)
    }
}

/// A Boolean term of the pool to assert, preferring non-constants.
fn pick_formula(cx: &mut RoundState<'_>) -> Option<TermId> {
    let p = cx.shape.p_deep;
    cx.pool.pick(&Sort::Bool, &mut cx.rng, p)
}

/// Asserts a Boolean term.
pub struct Assert;
impl Action for Assert {
    fn name(&self) -> &'static str {
        "assert"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        in_main(cx) && cx.solver.is_some() && cx.pool.has(&Sort::Bool)
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let Some(t) = pick_formula(cx) else {
            return Ok(false);
        };
        let reply = cx.solver_call(|z| Call::Assert(z, t))?;
        if matches!(reply, crate::round_state::Reply::Done(_)) {
            cx.pinned.insert(t);
            if let Some(scope) = cx.scopes.last_mut() {
                scope.push(Asserted::Plain(t));
            }
        }
        Ok(true)
    }
}

/// Asserts a Boolean term tracked by a fresh Boolean constant (for unsat cores).
pub struct AssertAndTrack;
impl Action for AssertAndTrack {
    fn name(&self) -> &'static str {
        "assert_and_track"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        in_main(cx) && cx.solver.is_some() && cx.pool.has(&Sort::Bool)
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let Some(term) = pick_formula(cx) else {
            return Ok(false);
        };
        let Some(bool_sort) = cx.sort_id(&Sort::Bool)? else {
            return Ok(false);
        };
        let name = cx.fresh_name("p");
        // The tracker stays out of the pool so that it occurs nowhere else.
        let Some(tracker) = cx
            .run(Call::Const {
                sort: bool_sort,
                name,
            })?
            .term()
        else {
            return Ok(false);
        };
        let reply = cx.solver_call(|z| Call::AssertAndTrack {
            solver: z,
            term,
            tracker,
        })?;
        if matches!(reply, crate::round_state::Reply::Done(_)) {
            cx.pinned.extend([term, tracker]);
            if let Some(scope) = cx.scopes.last_mut() {
                scope.push(Asserted::Tracked { term, tracker });
            }
        }
        Ok(true)
    }
}

/// Opens a scope.
pub struct Push;
impl Action for Push {
    fn name(&self) -> &'static str {
        "push"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        in_main(cx) && cx.solver.is_some() && depth(cx) < 8
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        cx.solver_call(Call::Push)?;
        Ok(true)
    }
}

/// Closes one or more scopes.
pub struct Pop;
impl Action for Pop {
    fn name(&self) -> &'static str {
        "pop"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        in_main(cx) && depth(cx) > 0
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let n = cx.rng.random_range(1..=depth(cx));
        cx.solver_call(|z| Call::Pop(z, n))?;
        Ok(true)
    }
}

/// Starts shadow clone testing: translates the main solver; every later solver call is
/// mirrored on the clone and the answers compared.
pub struct StartShadow;
impl Action for StartShadow {
    fn name(&self) -> &'static str {
        "start_shadow"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        in_main(cx)
            && cx.solver.is_some()
            && cx.shadow.is_none()
            && depth(cx) == 0
            && !beyond_limit(cx)
            && (cx.config.translate_default || !main_translates_slowly(cx))
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let Some(main) = cx.solver else {
            return Ok(false);
        };
        cx.shadow = cx.run(Call::Translate(main))?.solver();
        // `translate` does not carry the resource limit over: without it the clone may search
        // on where the main solver gave up with unknown, until the round times out.
        if let Some(shadow) = cx.shadow {
            let limit = rlimit_call(cx, shadow);
            cx.run(limit)?;
        }
        Ok(cx.shadow.is_some())
    }
}

/// Whether the main solver is of a kind whose `translate` some Z3 versions make slow: the
/// default solver, a solver from a tactic object, the solvers for logics `ALL`, `UF` and
/// `QF_SLIA` and from the tactics `qffp`, `qfnra` and `default` (see
/// `RoundConfig::translate_default`).
fn main_translates_slowly(cx: &RoundState<'_>) -> bool {
    let kind = cx
        .solver
        .and_then(|z| cx.sut.state().solvers.get(&z).map(|s| s.kind.clone()));
    match kind {
        // A solver from a tactic object may hold the default tactic (measured on 5.4.1: its
        // translate is as slow as the default solver's).
        Some(SolverKind::Default | SolverKind::FromTactic(_)) => true,
        // Measured on 5.4.1: 0.6 s to 1 s a translate, as the default solver's.
        Some(SolverKind::Logic(logic)) => ["ALL", "UF", "QF_SLIA"].contains(&logic.as_str()),
        Some(SolverKind::Tactic(name)) => ["qffp", "qfnra", "default"].contains(&name.as_str()),
        _ => false,
    }
}

/// Releases the shadow clone (it may be regenerated later).
pub struct StopShadow;
impl Action for StopShadow {
    fn name(&self) -> &'static str {
        "stop_shadow"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        in_main(cx) && cx.shadow.is_some()
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        if let Some(z) = cx.shadow.take() {
            cx.run(Call::Delete(z))?;
        }
        Ok(true)
    }
}

/// Leaves Main once its budget is spent (the target state is in the table).
pub struct EndMain;
impl Action for EndMain {
    fn name(&self) -> &'static str {
        "end_main"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        cx.budget.main_left == 0
    }
    fn run(&self, _cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        Ok(true)
    }
}

// ---- Sat --------------------------------------------------------------------------------

/// `check_sat` of the main solver (mirrored on the shadow).
pub struct CheckSat;
impl Action for CheckSat {
    fn name(&self) -> &'static str {
        "check_sat"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        cx.solver.is_some()
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let answer = cx.solver_call(Call::CheckSat)?.sat();
        cx.last_assumptions.clear();
        cx.count_answer(answer);
        Ok(answer.is_some())
    }
}

/// `check_sat_assuming` literals over the Boolean constants.
pub struct CheckSatAssuming;
impl Action for CheckSatAssuming {
    fn name(&self) -> &'static str {
        "check_sat_assuming"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        cx.solver.is_some() && cx.bool_consts.iter().any(|t| cx.pool.sort_of(*t).is_some())
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let consts: Vec<TermId> = cx
            .bool_consts
            .iter()
            .copied()
            .filter(|t| cx.pool.sort_of(*t).is_some())
            .collect();
        let mut lits = Vec::new();
        for _ in 0..cx.rng.random_range(1..=3) {
            let c = consts[cx.rng.random_range(0..consts.len())];
            let lit = if cx.rng.random_bool(0.3) {
                let not = Op::lookup("not").map(|op| Call::Op {
                    op,
                    indices: vec![],
                    args: vec![c],
                });
                match not {
                    Some(call) => cx.new_term(call, false)?,
                    None => Some(c),
                }
            } else {
                Some(c)
            };
            if let Some(lit) = lit {
                if !lits.contains(&lit) {
                    lits.push(lit);
                }
            }
        }
        let answer = cx
            .solver_call(|z| Call::CheckSatAssuming(z, lits.clone()))?
            .sat();
        cx.pinned.extend(lits.iter().copied());
        cx.last_assumptions = lits;
        cx.count_answer(answer);
        Ok(answer.is_some())
    }
}

/// A check of the main solver in the middle of building its formula (in Main, which goes on
/// after it): `check_sat` or `check_sat_assuming` as the Sat state makes them, without the
/// model queries. Incremental solving is where a solver keeps state between checks (learned
/// clauses, the switch from the default solver's tactic to its incremental core), and a check
/// of a small formula is the cheapest solver work a round can do: Murxla and BtorMBT check
/// several times in a run. Not once the last check answered unknown (`beyond_limit`).
pub struct IncrementalCheck;
impl Action for IncrementalCheck {
    fn name(&self) -> &'static str {
        "incremental_check"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        CheckSat.applies(cx) && !beyond_limit(cx)
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        if CheckSatAssuming.applies(cx) && cx.rng.random_bool(0.6) {
            CheckSatAssuming.run(cx)
        } else {
            CheckSat.run(cx)
        }
    }
}

// ---- Query Model ------------------------------------------------------------------------

/// The last check answered unknown: the formula is beyond the resource limit, so every later
/// check of it (incremental steps, a shadow clone, a dump) would spend the whole limit again
/// for another unknown, which no oracle can use. Such a round concludes instead.
fn beyond_limit(cx: &RoundState<'_>) -> bool {
    cx.last_answer == Some(SatResult::Unknown)
}

fn last_check_is_current(cx: &RoundState<'_>, answer: SatResult) -> bool {
    cx.solver
        .and_then(|z| cx.sut.state().solvers.get(&z).map(|s| s.phase))
        == Some(Phase::Checked(answer))
}

/// After sat: the model; every assertion and assumption must evaluate to true under it
/// (`check_model`, and `check_indep` by the independent evaluator), and every term of the
/// pool is evaluated (`model_eval`) and compared with the independent evaluator
/// (`check_eval`).
pub struct EvalModel;
impl Action for EvalModel {
    fn name(&self) -> &'static str {
        "eval_model"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        last_check_is_current(cx, SatResult::Sat)
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let Some(z) = cx.solver else {
            return Ok(false);
        };
        let Some(m) = cx.run(Call::GetModel(z))?.model() else {
            return Ok(false);
        };
        let mut must_hold: Vec<TermId> = cx
            .assertions()
            .iter()
            .map(|a| match a {
                Asserted::Plain(t) | Asserted::Tracked { term: t, .. } => *t,
            })
            .collect();
        must_hold.extend(cx.last_assumptions.iter().copied());
        for &term in &must_hold {
            cx.run(Call::Check(Check::Model { model: m, term }))?;
        }
        // Each special relation's axioms over the values of the terms it was applied to
        // (the executor judges only relations that occur in the checked formula).
        for (func, args) in cx.relations.clone() {
            let state = cx.sut.state();
            let alive: Vec<TermId> = args
                .into_iter()
                .filter(|t| state.term(*t).is_ok_and(|i| i.is_closed()))
                .take(6)
                .collect();
            if !alive.is_empty() && state.funcs.contains_key(&func) {
                cx.run(Call::Check(Check::Relation {
                    model: m,
                    func,
                    terms: alive,
                }))?;
            }
        }
        // One model in four: an assertion's Int and Real constants eliminated by the model
        // (`qe_project`) or by equalities (`qe_lite`), judged true in the model.
        let state = cx.sut.state();
        let unquantified: Vec<TermId> = must_hold
            .iter()
            .copied()
            .filter(|t| state.term(*t).is_ok_and(|i| !i.quantified))
            .collect();
        if !unquantified.is_empty() && cx.rng.random_bool(0.25) {
            let formula = unquantified[cx.rng.random_range(0..unquantified.len())];
            let state = cx.sut.state();
            let consts: Vec<TermId> = cx
                .pool
                .all()
                .into_iter()
                .filter(|t| {
                    state.term(*t).is_ok_and(|i| {
                        matches!(i.origin, model::state::Origin::Const(_))
                            && matches!(i.sort, Sort::Int | Sort::Real)
                    })
                })
                .collect();
            if !consts.is_empty() {
                let n = cx.rng.random_range(1..=consts.len().min(2));
                let mut vars = Vec::new();
                for _ in 0..n {
                    let v = consts[cx.rng.random_range(0..consts.len())];
                    if !vars.contains(&v) {
                        vars.push(v);
                    }
                }
                let lite = cx.rng.random_bool(0.5);
                cx.new_term(
                    Call::Qe {
                        lite,
                        model: m,
                        formula,
                        vars: vars.clone(),
                    },
                    false,
                )?;
                // The projection with its map (`check_qe_skolem`, on newer Z3s half the time
                // `check_qe_witness`).
                let witness =
                    untrace::executor::read::qe_witness_available() && cx.rng.random_bool(0.5);
                cx.run(Call::Check(Check::QeMap {
                    witness,
                    model: m,
                    formula,
                    vars,
                }))?;
            }
        }
        if cx.config.independent {
            for &term in &must_hold {
                cx.run(Call::Check(Check::Independent { model: m, term }))?;
            }
            // Quantified assertions the evaluator cannot judge go to a fresh solver.
            for &term in &must_hold {
                if cx.sut.state().term(term).is_ok_and(|i| i.quantified) {
                    cx.run(Call::Check(Check::Quant { model: m, term }))?;
                }
            }
        }
        for t in cx.pool.all() {
            let completion = cx.rng.random_bool(0.5);
            let reply = cx.run(Call::ModelEval {
                model: m,
                term: t,
                completion,
            })?;
            if cx.config.independent && matches!(reply.ret(), Some(Ret::Value(_))) {
                cx.run(Call::Check(Check::Eval {
                    model: m,
                    term: t,
                    completion,
                }))?;
            }
        }
        cx.run(Call::Release(AnyId::Model(m)))?;
        Ok(true)
    }
}

/// After unsat: the unsat core (failed assumptions or trackers) must stay unsat when checked
/// again as assumptions (`check_core`).
pub struct QueryCore;
impl Action for QueryCore {
    fn name(&self) -> &'static str {
        "query_core"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        last_check_is_current(cx, SatResult::Unsat)
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let Some(z) = cx.solver else {
            return Ok(false);
        };
        let reply = cx.run(Call::GetUnsatCore(z))?;
        let Some(Ret::Core(core)) = reply.ret().cloned() else {
            return Ok(false);
        };
        let recheck = Call::CheckSatAssuming(z, core.clone());
        if cx.sut.state().check(&recheck).is_err() {
            // The core names terms that are not assumption literals; nothing to re-check.
            return Ok(false);
        }
        let answer = cx.run(recheck)?.sat();
        cx.count_answer(answer);
        cx.last_assumptions = core;
        // The executor knows when a core is no real one (a tactic solver without unsat cores
        // switched on answers an empty core): the check holds vacuously there.
        if answer.is_some() {
            cx.run(Call::Check(Check::Core(z)))?;
        }
        Ok(true)
    }
}

/// The same formula under another configuration (a tactic, a logic, or defaults) must not
/// answer the opposite definite answer (`check_config`).
pub struct CrossCheck;
impl Action for CrossCheck {
    fn name(&self) -> &'static str {
        "cross_check"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        [SatResult::Sat, SatResult::Unsat]
            .into_iter()
            .any(|a| last_check_is_current(cx, a))
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let kind = match cx.rng.random_range(0..3) {
            0 => SolverKind::Default,
            1 => SolverKind::Tactic("smt".into()),
            _ => SolverKind::Logic("ALL".into()),
        };
        cross_check_with(cx, kind)
    }
}

/// Exception safety: the solver runs out of a tiny resource limit in a check, gets its limit
/// back and checks again; then it must answer as a fresh default solver given the same
/// formula (`check_config`). A solver left inconsistent by an interrupted check is Z3's bug.
pub struct RecoverAfterLimit;
impl Action for RecoverAfterLimit {
    fn name(&self) -> &'static str {
        "recover_after_limit"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        CrossCheck.applies(cx) && cx.last_assumptions.is_empty()
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let tiny = cx.rng.random_range(1..200u32).to_string();
        cx.solver_call(|z| Call::SetParam {
            solver: z,
            key: "rlimit".into(),
            value: tiny.clone(),
        })?;
        let interrupted = cx.solver_call(Call::CheckSat)?.sat();
        cx.count_answer(interrupted);
        let limit = cx.config.rlimit.to_string();
        cx.solver_call(|z| Call::SetParam {
            solver: z,
            key: "rlimit".into(),
            value: limit.clone(),
        })?;
        let answer = cx.solver_call(Call::CheckSat)?.sat();
        cx.count_answer(answer);
        if beyond_limit(cx) {
            return Ok(false);
        }
        cross_check_with(cx, SolverKind::Default)
    }
}

/// The formula of the main solver's last check: its assertions, then its assumptions.
fn checked_formula(cx: &RoundState<'_>) -> Vec<TermId> {
    let mut formula: Vec<TermId> = cx
        .assertions()
        .iter()
        .map(|a| match a {
            Asserted::Plain(t) | Asserted::Tracked { term: t, .. } => *t,
        })
        .collect();
    formula.extend(cx.last_assumptions.iter().copied());
    formula
}

/// A random context configuration: one to three parameters of `CONTEXT_PARAMS`, proof
/// generation on more often than not.
fn context_config(cx: &mut RoundState<'_>) -> Vec<(String, String)> {
    let mut config = vec![("proof".to_string(), cx.rng.random_bool(0.6).to_string())];
    for _ in 0..cx.rng.random_range(0..=2) {
        let key = CONTEXT_PARAMS[cx.rng.random_range(0..CONTEXT_PARAMS.len())];
        if config.iter().all(|(k, _)| k != key) {
            config.push((key.to_string(), cx.rng.random_bool(0.5).to_string()));
        }
    }
    config
}

/// The main solver's formula in a context of another configuration (`proof`, `unsat_core`,
/// `model`, `auto_config`, ...): the main solver translated into it (`translate_config`), or a
/// new solver made in it (`new_solver_config`) given the formula. It must answer as the main
/// solver did (`check_config`); its model must satisfy the formula (`check_model`,
/// `check_indep`); after unsat, a solver made with proofs on must give one (`get_proof`).
pub struct OtherContext;
impl Action for OtherContext {
    fn name(&self) -> &'static str {
        "other_context"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        CrossCheck.applies(cx)
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let (Some(main), Some(expected)) = (cx.solver, cx.last_answer) else {
            return Ok(false);
        };
        let config = context_config(cx);
        let slow = !cx.config.translate_default && main_translates_slowly(cx);
        let translate = depth(cx) == 0 && !slow && cx.rng.random_bool(0.5);
        // On a Z3 slow at translating the main solver (`--shadows cheap`), half the time a
        // solver that translates fast is translated instead: a stand-in made from the `smt`
        // tactic in the main context and given the main solver's assertions; now and then
        // (a small budget, by weight) the main solver itself. Rounds on a Z3 fast at it
        // draw nothing more.
        let copied = match translate {
            true => Some(main),
            false if slow && cx.rng.random_bool(0.5) => {
                match depth(cx) == 0 && cx.rng.random_ratio(1, EXPENSIVE_TRANSLATE_ONE_IN) {
                    true => Some(main),
                    false => stand_in(cx)?,
                }
            }
            false => None,
        };
        let formula = checked_formula(cx);
        let other = if let Some(from) = copied {
            let other = cx
                .run(Call::TranslateConfig {
                    solver: from,
                    config,
                })?
                .solver();
            if from != main {
                cx.run(Call::Delete(from))?;
            }
            other
        } else {
            let other = cx.run(Call::NewSolverConfig(config))?.solver();
            if let Some(z) = other {
                let asserted = formula.len() - cx.last_assumptions.len();
                for &t in &formula[..asserted] {
                    cx.run(Call::Assert(z, t))?;
                }
            }
            other
        };
        let Some(other) = other else {
            return Ok(false);
        };
        let limit = rlimit_call(cx, other);
        cx.run(limit)?;
        let answer = if cx.last_assumptions.is_empty() {
            cx.run(Call::CheckSat(other))?.sat()
        } else {
            cx.run(Call::CheckSatAssuming(other, cx.last_assumptions.clone()))?
                .sat()
        };
        if answer.is_some() && expected != SatResult::Unknown {
            cx.run(Call::Check(Check::Config {
                original: main,
                other,
            }))?;
        }
        match answer {
            Some(SatResult::Sat) => {
                if let Some(m) = cx.run(Call::GetModel(other))?.model() {
                    for &term in &formula {
                        cx.run(Call::Check(Check::Model { model: m, term }))?;
                        if cx.config.independent {
                            cx.run(Call::Check(Check::Independent { model: m, term }))?;
                        }
                    }
                    cx.run(Call::Release(AnyId::Model(m)))?;
                }
            }
            Some(SatResult::Unsat) => {
                cx.run(Call::GetProof(other))?;
            }
            _ => {}
        }
        cx.run(Call::Delete(other))?;
        Ok(true)
    }
}

/// How rarely `other_context` translates a main solver that the loaded Z3 is slow to
/// translate (0.6 s to 1 s on 5.4.1): one in this many of the times it translates. At one in
/// 12, the six such translates of 1,000 rounds on 5.4.1 took 10.8% of the campaign's CPU
/// (`bench/profile.sh`, seed 700000), and no crash came from one in the profiles; the stand-in
/// keeps `translate_config` in the rounds.
const EXPENSIVE_TRANSLATE_ONE_IN: u32 = 48;

/// A solver from the `smt` tactic (fast to translate on every Z3) given the main solver's
/// assertions, for `other_context` to translate where the main solver is slow to.
fn stand_in(cx: &mut RoundState<'_>) -> Result<Option<SolverId>, Failure> {
    let Some(z) = cx
        .run(Call::NewSolver(SolverKind::Tactic("smt".into())))?
        .solver()
    else {
        return Ok(None);
    };
    let formula = checked_formula(cx);
    let asserted = formula.len() - cx.last_assumptions.len();
    for &t in &formula[..asserted] {
        cx.run(Call::Assert(z, t))?;
    }
    Ok(Some(z))
}

/// `check_consequences` of the main solver: one or two assumptions among the Boolean
/// constants, as variables one to three constants of the pool and the first assumption.
pub struct Consequences;
impl Action for Consequences {
    fn name(&self) -> &'static str {
        "consequences"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        cx.solver.is_some() && !beyond_limit(cx)
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let Some(z) = cx.solver else {
            return Ok(false);
        };
        let consts: Vec<TermId> = cx
            .pool
            .all()
            .into_iter()
            .filter(|t| cx.sut.state().term(*t).is_ok_and(|i| i.is_const))
            .collect();
        if consts.is_empty() {
            return Ok(false);
        }
        let mut variables = Vec::new();
        for _ in 0..cx.rng.random_range(1..=3) {
            let t = consts[cx.rng.random_range(0..consts.len())];
            if !variables.contains(&t) {
                variables.push(t);
            }
        }
        let literals: Vec<TermId> = cx
            .bool_consts
            .iter()
            .copied()
            .filter(|t| cx.pool.sort_of(*t).is_some())
            .collect();
        let mut assumptions = Vec::new();
        for _ in 0..cx.rng.random_range(1..=2usize).min(literals.len()) {
            let t = literals[cx.rng.random_range(0..literals.len())];
            if !assumptions.contains(&t) {
                assumptions.push(t);
            }
        }
        // An assumed constant is a variable whose value Z3 must report: such a check has a
        // consequence to validate, where random constants are rarely fixed.
        if let Some(&a) = assumptions.first() {
            if !variables.contains(&a) {
                variables.push(a);
            }
        }
        cx.pinned
            .extend(variables.iter().chain(&assumptions).copied());
        cx.run(Call::Check(Check::Consequences {
            solver: z,
            assumptions,
            variables,
        }))?;
        Ok(true)
    }
}

/// `check_cubes` of the main solver, when it holds assertions: Z3 (4.8.12, 5.4.1) segfaults
/// cubing a solver without any (`traces/regress/cube-empty-solver-segfault.trace`), a known
/// bug a campaign would meet again in every round that pops its assertions.
pub struct Cubes;
impl Action for Cubes {
    fn name(&self) -> &'static str {
        "cubes"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        cx.solver.is_some() && !beyond_limit(cx) && !cx.assertions().is_empty()
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let Some(z) = cx.solver else {
            return Ok(false);
        };
        cx.run(Call::Check(Check::Cubes(z)))?;
        Ok(true)
    }
}

/// `check_congruence` after sat: one to three constants of the pool (their congruence classes
/// in a simple solver given the main solver's assertions). Applies only where the loaded
/// libz3 has the congruence functions (releases after 4.8.12), so rounds on 4.8.12 are what
/// they were.
pub struct Congruence;
impl Action for Congruence {
    fn name(&self) -> &'static str {
        "congruence"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        cx.solver.is_some()
            && cx.last_answer == Some(SatResult::Sat)
            && !beyond_limit(cx)
            && !cx.assertions().is_empty()
            && untrace::executor::read::congruence_available()
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let Some(z) = cx.solver else {
            return Ok(false);
        };
        let consts: Vec<TermId> = cx
            .pool
            .all()
            .into_iter()
            .filter(|t| cx.sut.state().term(*t).is_ok_and(|i| i.is_const))
            .collect();
        if consts.is_empty() {
            return Ok(false);
        }
        let terms: Vec<TermId> = (0..cx.rng.random_range(1..=3))
            .map(|_| consts[cx.rng.random_range(0..consts.len())])
            .collect();
        cx.run(Call::Check(Check::Congruence { solver: z, terms }))?;
        Ok(true)
    }
}

/// `check_simplifier` after a definite answer: one to three simplifiers of
/// `model::options::SIMPLIFIERS` chained in front of a fresh solver given the main solver's
/// formula, half the time with one or two of their Boolean parameters. Applies only
/// where the loaded libz3 has the simplifier functions (releases from 4.12.2 on), so rounds
/// on 4.8.12 are what they were.
pub struct SimplifierCheck;
impl Action for SimplifierCheck {
    fn name(&self) -> &'static str {
        "simplifier"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        CrossCheck.applies(cx)
            && !beyond_limit(cx)
            && untrace::executor::read::simplifiers_available()
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        use model::options::{SIMPLIFIERS, SIMPLIFIER_PARAMS};
        let Some(z) = cx.solver else {
            return Ok(false);
        };
        let mut chain: Vec<&str> = Vec::new();
        for _ in 0..cx.rng.random_range(1..=3) {
            let name = SIMPLIFIERS[cx.rng.random_range(0..SIMPLIFIERS.len())];
            if !chain.contains(&name) {
                chain.push(name);
            }
        }
        let keys: Vec<&str> = SIMPLIFIER_PARAMS
            .iter()
            .filter(|(s, _)| chain.contains(s))
            .map(|(_, k)| *k)
            .collect();
        let mut params: Vec<(String, String)> = Vec::new();
        if !keys.is_empty() && cx.rng.random_bool(0.5) {
            for _ in 0..cx.rng.random_range(1..=2) {
                let key = keys[cx.rng.random_range(0..keys.len())];
                if params.iter().all(|(k, _)| k != key) {
                    params.push((key.into(), cx.rng.random_bool(0.5).to_string()));
                }
            }
        }
        cx.run(Call::Check(Check::Simplifier {
            solver: z,
            simplifiers: chain.join(" "),
            params,
        }))?;
        Ok(true)
    }
}

/// `check_initial_value` after a definite answer: a constant of the pool (Bool, Int, Real or
/// a bit-vector) starts at a new literal of its sort in a fresh simple solver and a fresh
/// Optimize context given the main solver's formula; both must answer as it did. Applies
/// only where the loaded libz3 has the functions (releases after 4.8.12), so rounds on
/// 4.8.12 are what they were.
pub struct InitialValueCheck;
impl Action for InitialValueCheck {
    fn name(&self) -> &'static str {
        "initial_value"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        CrossCheck.applies(cx)
            && !beyond_limit(cx)
            && untrace::executor::read::initial_values_available()
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let Some(z) = cx.solver else {
            return Ok(false);
        };
        let consts: Vec<(TermId, Sort)> = cx
            .pool
            .all()
            .into_iter()
            .filter_map(|t| {
                let info = cx.sut.state().term(t).ok()?;
                let hinted = matches!(
                    info.sort,
                    Sort::Bool | Sort::Int | Sort::Real | Sort::BitVec(_)
                );
                (info.is_const && hinted).then(|| (t, info.sort.clone()))
            })
            .collect();
        if consts.is_empty() {
            return Ok(false);
        }
        let (var, sort) = consts[cx.rng.random_range(0..consts.len())].clone();
        let Some(value) = gen::mk_lit(cx, &sort, false)? else {
            return Ok(false);
        };
        cx.run(Call::Check(Check::InitialValue {
            solver: z,
            var,
            value,
        }))?;
        Ok(true)
    }
}

/// `check_propagator` after a definite answer: a user propagator on a fresh solver given the
/// main solver's formula, watching terms of the pool (closed, without quantifiers): half the
/// time one to three Boolean terms whose assignments it enumerates by conflicts, else one to
/// four Boolean or bit-vector terms it observes. Applies only where the loaded libz3 has the
/// user propagator's functions with terms in its callbacks (releases from 4.15.3), so rounds
/// on 4.8.12 are what they were.
pub struct PropagatorCheck;
impl Action for PropagatorCheck {
    fn name(&self) -> &'static str {
        "propagator"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        CrossCheck.applies(cx)
            && !beyond_limit(cx)
            && untrace::executor::read::propagators_available()
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let Some(z) = cx.solver else {
            return Ok(false);
        };
        let enumerate = cx.rng.random_bool(0.5);
        let candidates: Vec<TermId> = cx
            .pool
            .all()
            .into_iter()
            .filter(|t| {
                cx.sut.state().term(*t).is_ok_and(|i| {
                    !i.quantified
                        && i.free_vars.is_empty()
                        && (i.sort == Sort::Bool
                            || (!enumerate && matches!(i.sort, Sort::BitVec(_))))
                })
            })
            .collect();
        if candidates.is_empty() {
            return Ok(false);
        }
        let most = if enumerate { 3 } else { 4 };
        let mut terms: Vec<TermId> = Vec::new();
        for _ in 0..cx.rng.random_range(1..=most) {
            let t = candidates[cx.rng.random_range(0..candidates.len())];
            if !terms.contains(&t) {
                terms.push(t);
            }
        }
        let mode = if enumerate { "enumerate" } else { "observe" };
        cx.run(Call::Check(Check::Propagator {
            solver: z,
            mode: mode.into(),
            terms,
        }))?;
        Ok(true)
    }
}

/// `check_proof_callback` after a definite answer: the main solver's dump evaluated with
/// proofs on in a fresh context with a client proof checker. Applies only where the loaded
/// libz3 has `Z3_set_proof_check_callback` (releases from 5.3.2), so rounds on 4.8.12 are
/// what they were.
pub struct ProofCallbackCheck;
impl Action for ProofCallbackCheck {
    fn name(&self) -> &'static str {
        "proof_callback"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        CrossCheck.applies(cx)
            && !beyond_limit(cx)
            && untrace::executor::read::proof_checks_available()
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let Some(z) = cx.solver else {
            return Ok(false);
        };
        cx.run(Call::Check(Check::ProofCallback(z)))?;
        Ok(true)
    }
}

/// Gives a new solver of `kind` the main solver's formula and last assumptions, checks it and
/// compares the answers (`check_config`).
fn cross_check_with(cx: &mut RoundState<'_>, kind: SolverKind) -> Result<bool, Failure> {
    let Some(expected) = cx.last_answer else {
        return Ok(false);
    };
    let Some(other) = new_solver(cx, kind)? else {
        return Ok(false);
    };
    let mut formula: Vec<TermId> = cx
        .assertions()
        .iter()
        .map(|a| match a {
            Asserted::Plain(t) | Asserted::Tracked { term: t, .. } => *t,
        })
        .collect();
    formula.extend(cx.last_assumptions.iter().copied());
    for t in formula {
        cx.run(Call::Assert(other, t))?;
    }
    let answer = cx.run(Call::CheckSat(other))?.sat();
    if answer.is_some() && expected != SatResult::Unknown {
        if let Some(main) = cx.solver {
            cx.run(Call::Check(Check::Config {
                original: main,
                other,
            }))?;
        }
    }
    cx.run(Call::Delete(other))?;
    Ok(true)
}

/// Leaves a state without doing anything (Query Model when there is nothing to query).
pub struct Skip;
impl Action for Skip {
    fn name(&self) -> &'static str {
        "skip"
    }
    fn applies(&self, _cx: &RoundState<'_>) -> bool {
        true
    }
    fn run(&self, _cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        Ok(true)
    }
}

// ---- Numeral differential ---------------------------------------------------------------

/// `check_parser_context` of one to three terms of the pool without quantifiers: Z3's parser
/// contexts must read their SMT-LIB text back to them. Applies only where the loaded libz3
/// has the functions (releases after 4.8.12) and the round keeps term texts, so rounds on
/// 4.8.12 are what they were.
pub struct ParserContextCheck;
impl ParserContextCheck {
    fn subjects(cx: &RoundState<'_>) -> Vec<TermId> {
        cx.pool
            .all()
            .into_iter()
            .filter(|t| {
                cx.sut
                    .state()
                    .term(*t)
                    .is_ok_and(|i| !i.quantified && i.free_vars.is_empty())
            })
            .collect()
    }
}
impl Action for ParserContextCheck {
    fn name(&self) -> &'static str {
        "parser_context"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        in_main(cx)
            && cx.config.independent
            && untrace::executor::read::parser_contexts_available()
            && !cx.pool.all().is_empty()
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let subjects = Self::subjects(cx);
        if subjects.is_empty() {
            return Ok(false);
        }
        let mut terms: Vec<TermId> = Vec::new();
        for _ in 0..cx.rng.random_range(1..=3) {
            let t = subjects[cx.rng.random_range(0..subjects.len())];
            if !terms.contains(&t) {
                terms.push(t);
            }
        }
        cx.run(Call::Check(Check::ParserContext(terms)))?;
        Ok(true)
    }
}

/// A new String literal, then `check_chars`: Z3's characters of its code points must agree
/// with them. Applies only where the loaded libz3 has the character functions (releases
/// after 4.8.12) and the round has Strings, so rounds on 4.8.12 are what they were.
pub struct CharsCheck;
impl Action for CharsCheck {
    fn name(&self) -> &'static str {
        "chars"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        in_main(cx)
            && untrace::executor::read::chars_available()
            && cx.sut.state().sorts.values().any(|s| *s == Sort::String)
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let Some(t) = gen::mk_lit(cx, &Sort::String, false)? else {
            return Ok(false);
        };
        cx.run(Call::Check(Check::Chars(t)))?;
        Ok(true)
    }
}

/// Two terms of one sort of the pool, then `check_poly_datatype`: Z3's polymorphic pair
/// datatype instantiated at that sort must give them back through its accessors. Applies only
/// where the loaded libz3 has the polymorphic datatype functions (releases after 4.8.12), so
/// rounds on 4.8.12 are what they were.
pub struct PolyDatatypeCheck;
impl Action for PolyDatatypeCheck {
    fn name(&self) -> &'static str {
        "poly_datatype"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        in_main(cx) && !cx.pool.is_empty() && untrace::executor::read::poly_datatypes_available()
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let Some(a) = cx.pool.any(&mut cx.rng) else {
            return Ok(false);
        };
        let Some(sort) = cx.pool.sort_of(a).cloned() else {
            return Ok(false);
        };
        let p = cx.shape.p_deep;
        let b = cx.pool.pick(&sort, &mut cx.rng, p).unwrap_or(a);
        cx.run(Call::Check(Check::PolyDatatype(a, b)))?;
        Ok(true)
    }
}

/// Four new Real literals, then `check_complex`: the parts of Z3's complex numbers made of
/// them, and of their sum, difference, product and negation, must simplify to what exact
/// arithmetic gives. Applies only where the loaded libz3 has the complex functions (releases
/// after 4.8.12) and the round has Reals, so rounds on 4.8.12 are what they were.
pub struct ComplexCheck;
impl Action for ComplexCheck {
    fn name(&self) -> &'static str {
        "complex"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        in_main(cx)
            && untrace::executor::read::complex_available()
            && cx.sut.state().sorts.values().any(|s| *s == Sort::Real)
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let mut parts = Vec::new();
        for _ in 0..4 {
            let Some(t) = gen::mk_lit(cx, &Sort::Real, false)? else {
                return Ok(false);
            };
            parts.push(t);
        }
        cx.run(Call::Check(Check::Complex(parts)))?;
        Ok(true)
    }
}

/// Z3's finite sets (releases after 4.8.12 only, so rounds on 4.8.12 are what they were):
/// a set sort of Int (most often), Bool or small bit-vector elements, ground sets of
/// literals (empty, singletons, unions, a range of Ints), one or two set constants each with
/// a ground witness, a few set operations over them (`fset_map` and `fset_filter` on Ints),
/// then `check_fset` of memberships, subsets, sizes and sets. None of the terms joins the
/// pool: the round's formula never holds a finite set.
pub struct FiniteSets;
impl FiniteSets {
    fn term(cx: &mut RoundState<'_>, call: Call) -> Result<Option<TermId>, Failure> {
        Ok(cx.run(call)?.term())
    }

    fn pick(cx: &mut RoundState<'_>, from: &[TermId]) -> TermId {
        from[cx.rng.random_range(0..from.len())]
    }

    fn literal(
        cx: &mut RoundState<'_>,
        sort: model::SortId,
        element: &Sort,
    ) -> Result<Option<TermId>, Failure> {
        let value = match element {
            Sort::Bool => cx.rng.random_bool(0.5).to_string(),
            Sort::BitVec(w) => cx.rng.random_range(0..(1u32 << w)).to_string(),
            _ => cx.rng.random_range(-3i32..=6).to_string(),
        };
        Self::term(cx, Call::Lit { sort, value })
    }
}
impl Action for FiniteSets {
    fn name(&self) -> &'static str {
        "finite_sets"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        in_main(cx) && untrace::executor::read::finite_sets_available()
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let element = match cx.rng.random_range(0..5) {
            0 => Sort::Bool,
            1 => Sort::BitVec(cx.rng.random_range(2..=4)),
            _ => Sort::Int,
        };
        let ints = element == Sort::Int;
        let (Some(es), Some(ss)) = (
            cx.sort_id(&element)?,
            cx.sort_id(&Sort::finite_set(element.clone()))?,
        ) else {
            return Ok(false);
        };
        let mut elements = Vec::new();
        for _ in 0..cx.rng.random_range(2..=4) {
            elements.extend(Self::literal(cx, es, &element)?);
        }
        if elements.is_empty() {
            return Ok(false);
        }
        let mut ground: Vec<TermId> = Vec::new();
        ground.extend(Self::term(cx, Call::FsetEmpty(ss))?);
        for e in elements.clone() {
            ground.extend(Self::term(cx, Call::FsetSingleton(e))?);
        }
        for _ in 0..2 {
            let (a, b) = (Self::pick(cx, &ground), Self::pick(cx, &ground));
            ground.extend(Self::term(cx, Call::FsetUnion(a, b))?);
        }
        if ints {
            let (low, high) = (Self::pick(cx, &elements), Self::pick(cx, &elements));
            ground.extend(Self::term(cx, Call::FsetRange(low, high))?);
        }
        let mut sets = ground.clone();
        let mut witnesses = Vec::new();
        for _ in 0..cx.rng.random_range(1..=2) {
            let name = cx.fresh_name("fs");
            let Some(c) = Self::term(cx, Call::Const { sort: ss, name })? else {
                continue;
            };
            let w = Self::pick(cx, &ground);
            witnesses.push((c, w));
            sets.push(c);
        }
        for _ in 0..cx.rng.random_range(2..=5) {
            let (a, b) = (Self::pick(cx, &sets), Self::pick(cx, &sets));
            let call = match cx.rng.random_range(0..if ints { 5 } else { 3 }) {
                0 => Call::FsetUnion(a, b),
                1 => Call::FsetIntersect(a, b),
                2 => Call::FsetDifference(a, b),
                3 => Call::FsetMap {
                    set: a,
                    add: cx.rng.random_range(-3..=3),
                    mul: cx.rng.random_range(-2..=2),
                },
                _ => {
                    let low = cx.rng.random_range(-3..=4);
                    Call::FsetFilter {
                        set: a,
                        low,
                        high: low + cx.rng.random_range(0..=4),
                    }
                }
            };
            sets.extend(Self::term(cx, call)?);
        }
        let mut atoms = Vec::new();
        for _ in 0..cx.rng.random_range(2..=4) {
            let (a, b) = (Self::pick(cx, &sets), Self::pick(cx, &sets));
            let call = match cx.rng.random_range(0..4) {
                0 => Call::FsetMember(Self::pick(cx, &elements), a),
                1 => Call::FsetSubset(a, b),
                2 => Call::FsetSize(a),
                _ => {
                    atoms.push(a);
                    continue;
                }
            };
            atoms.extend(Self::term(cx, call)?);
        }
        atoms.dedup();
        if atoms.is_empty() {
            return Ok(false);
        }
        cx.run(Call::Check(Check::FiniteSet { atoms, witnesses }))?;
        Ok(true)
    }
}

/// Z3's prime fields (releases after 4.8.12 only, so rounds on 4.8.12 are what they were):
/// a field of a small or a large prime order, literals, one or two constants each with a
/// literal witness, sums, products, inverses and bit-sums over them, then `check_ff` of some
/// of them. None of the terms joins the pool.
pub struct FiniteFields;
impl Action for FiniteFields {
    fn name(&self) -> &'static str {
        "finite_fields"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        in_main(cx) && untrace::executor::read::finite_fields_available()
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        const PRIMES: [u32; 9] = [2, 3, 5, 7, 11, 13, 251, 65_521, 2_147_483_647];
        let p = PRIMES[cx.rng.random_range(0..PRIMES.len())];
        let Some(fs) = cx.sort_id(&Sort::FiniteField(p))? else {
            return Ok(false);
        };
        let literal = |cx: &mut RoundState<'_>| -> Result<Option<TermId>, Failure> {
            let value = cx.rng.random_range(0..p).to_string();
            Ok(cx.run(Call::Lit { sort: fs, value })?.term())
        };
        let mut terms = Vec::new();
        for _ in 0..cx.rng.random_range(2..=3) {
            terms.extend(literal(cx)?);
        }
        let mut witnesses = Vec::new();
        for _ in 0..cx.rng.random_range(1..=2) {
            let name = cx.fresh_name("ff");
            let (Some(c), Some(w)) = (cx.run(Call::Const { sort: fs, name })?.term(), literal(cx)?)
            else {
                continue;
            };
            witnesses.push((c, w));
            terms.push(c);
        }
        if terms.len() < 2 {
            return Ok(false);
        }
        let mut built = Vec::new();
        for _ in 0..cx.rng.random_range(2..=5) {
            let pick = |cx: &mut RoundState<'_>| terms[cx.rng.random_range(0..terms.len())];
            let args: Vec<TermId> = (0..cx.rng.random_range(2..=3)).map(|_| pick(cx)).collect();
            let call = match cx.rng.random_range(0..4) {
                0 => Call::FfAdd(args),
                1 => Call::FfMul(args),
                2 => Call::FfBitsum(args),
                _ => Call::FfNeg(args[0]),
            };
            if let Some(t) = cx.run(call)?.term() {
                built.push(t);
                terms.push(t);
            }
        }
        if built.is_empty() {
            return Ok(false);
        }
        let mut atoms = Vec::new();
        for _ in 0..cx.rng.random_range(1..=3) {
            let t = built[cx.rng.random_range(0..built.len())];
            if !atoms.contains(&t) {
                atoms.push(t);
            }
        }
        cx.run(Call::Check(Check::FiniteField { atoms, witnesses }))?;
        Ok(true)
    }
}

/// Z3's higher-order sequence operations (releases after 4.8.12 only, so rounds on 4.8.12
/// are what they were): `seq_hof` of a pooled sequence of Ints (with a pooled Int as the
/// start index or initial accumulator) over a small linear lambda. The term joins the pool:
/// the round's assertions use it, and `check_eval` and `check_model` judge Z3's values of it
/// by the independent evaluator, which applies the lambda to each element.
pub struct SeqHofs;
impl Action for SeqHofs {
    fn name(&self) -> &'static str {
        "seq_hofs"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        in_main(cx)
            && cx.pool.has(&Sort::seq(Sort::Int))
            && cx.pool.has(&Sort::Int)
            && untrace::executor::read::seq_hofs_available()
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let hofs = model::seq_hof::SEQ_HOFS;
        let hof = &hofs[cx.rng.random_range(0..hofs.len())];
        let p = cx.shape.p_deep;
        let mut args = Vec::new();
        for sort in hof.arg_sorts() {
            let Some(t) = cx.pool.pick(&sort, &mut cx.rng, p) else {
                return Ok(false);
            };
            args.push(t);
        }
        let call = Call::SeqHof {
            function: hof.function.into(),
            args,
            add: cx.rng.random_range(-3..=3),
            mul: cx.rng.random_range(-2..=2),
        };
        Ok(cx.new_term(call, false)?.is_some())
    }
}

/// A numeral of an Int, Real, bit-vector or floating-point sort of the round (or a String
/// literal), then `check_literal`: the executor builds the same value through every other
/// exact constructor of Z3's API and compares.
pub struct CheckLiteral;
impl Action for CheckLiteral {
    fn name(&self) -> &'static str {
        "check_literal"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        in_main(cx) && numeral_sorts(cx).next().is_some()
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let sorts: Vec<Sort> = numeral_sorts(cx).collect();
        let Some(sort) = sorts
            .get(cx.rng.random_range(0..sorts.len().max(1)))
            .cloned()
        else {
            return Ok(false);
        };
        let Some(value) = gen::numeral_value(&mut cx.rng, &sort) else {
            return Ok(false);
        };
        let Some(sid) = cx.sort_id(&sort)? else {
            return Ok(false);
        };
        let Some(t) = cx.new_term(Call::Lit { sort: sid, value }, false)? else {
            return Ok(false);
        };
        cx.run(Call::Check(Check::Literal(t)))?;
        Ok(true)
    }
}

/// The round's sorts that have numerals.
fn numeral_sorts<'a>(cx: &'a RoundState<'_>) -> impl Iterator<Item = Sort> + 'a {
    gen::input_sorts(cx).into_iter().filter(|s| {
        matches!(
            s,
            Sort::Int | Sort::Real | Sort::BitVec(_) | Sort::FloatingPoint(..) | Sort::String
        )
    })
}

// ---- Dump Formula -----------------------------------------------------------------------

/// Checks the solver, then `check_dump`: the executor dumps the assertions as SMT-LIB,
/// parses them into a fresh solver and compares the answers.
pub struct DumpRoundTrip;
impl Action for DumpRoundTrip {
    fn name(&self) -> &'static str {
        "dump_round_trip"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        cx.solver.is_some()
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let Some(z) = cx.solver else {
            return Ok(false);
        };
        let original = cx.solver_call(Call::CheckSat)?.sat();
        cx.last_assumptions.clear();
        cx.count_answer(original);
        if beyond_limit(cx) {
            // Nothing to compare the dump's answer with.
            return Ok(false);
        }
        cx.run(Call::ToSmt2(z))?;
        cx.run(Call::Check(Check::Dump(z)))?;
        Ok(true)
    }
}

// ---- Reset for Incremental Usage --------------------------------------------------------

/// An incremental step: new budgets, then maybe pop to the base level or reset the solver.
pub struct IncrementalStep;
impl Action for IncrementalStep {
    fn name(&self) -> &'static str {
        "incremental_step"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        cx.solver.is_some() && cx.budget.incremental_left > 0 && !beyond_limit(cx)
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        cx.budget.incremental_left -= 1;
        cx.shape.redraw_step(&mut cx.rng);
        match cx.rng.random_range(0..5) {
            0 => {
                cx.solver_call(Call::Reset)?;
                cx.scopes = vec![Vec::new()];
            }
            1 if depth(cx) > 0 => {
                let n = depth(cx);
                cx.solver_call(|z| Call::Pop(z, n))?;
            }
            _ => {}
        }
        Ok(true)
    }
}

// ---- Delete -----------------------------------------------------------------------------

/// Releases every object and deletes the solvers.
pub struct DeleteAll;
impl Action for DeleteAll {
    fn name(&self) -> &'static str {
        "delete_all"
    }
    fn applies(&self, _cx: &RoundState<'_>) -> bool {
        true
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        for t in cx.pool.all() {
            cx.run(Call::Release(AnyId::Term(t)))?;
            cx.pool.remove(t);
        }
        let mut rest: Vec<TermId> = cx.pinned.iter().copied().collect();
        rest.sort();
        for t in rest {
            if cx.sut.state().terms.contains_key(&t) {
                cx.run(Call::Release(AnyId::Term(t)))?;
            }
        }
        let funcs: Vec<model::FuncId> = cx.funcs.drain(..).map(|(f, _, _)| f).collect();
        for f in funcs {
            if cx.sut.state().funcs.contains_key(&f) {
                cx.run(Call::Release(AnyId::Func(f)))?;
            }
        }
        let sorts: Vec<model::SortId> = std::mem::take(&mut cx.sorts).into_values().collect();
        for s in sorts {
            if cx.sut.state().sorts.contains_key(&s) {
                cx.run(Call::Release(AnyId::Sort(s)))?;
            }
        }
        for z in [cx.shadow.take(), cx.solver.take()].into_iter().flatten() {
            cx.run(Call::Delete(z))?;
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::OptionModel;
    use crate::round_state::{Reply, RoundConfig};
    use crate::sut::DrySut;
    use rand::SeedableRng;
    use std::sync::Arc;

    fn config() -> RoundConfig {
        RoundConfig {
            options: Arc::new(OptionModel::new(&[crate::options::ParamDescr {
                name: "relevancy".into(),
                kind: crate::options::ParamKind::Uint,
                doc: String::new(),
            }])),
            ..crate::round::tests::dry_config()
        }
    }

    /// A context past Set Options and Generate Initial Expressions, in Main.
    fn ready(sut: &mut DrySut) -> RoundState<'_> {
        let mut cx = RoundState::new(sut, config(), 1, rand_chacha::ChaCha8Rng::seed_from_u64(1));
        NewRound.run(&mut cx).unwrap();
        cx.budget.params_left = 0;
        assert!(NewSolver(SolverChoice::Default).run(&mut cx).unwrap());
        while InitInput.applies(&cx) {
            InitInput.run(&mut cx).unwrap();
        }
        while InitTerm.applies(&cx) {
            InitTerm.run(&mut cx).unwrap();
        }
        cx.budget.main_left = 10;
        cx
    }

    fn calls_named(cx: &RoundState<'_>, name: &str) -> u64 {
        cx.stats.calls.get(name).map_or(0, |c| c.ok)
    }

    #[test]
    fn logic_solvers_cover_the_enabled_theories() {
        let mut sut = DrySut::new(SatResult::Sat);
        let mut cfg = config();
        let cx = RoundState::new(
            &mut sut,
            cfg.clone(),
            1,
            rand_chacha::ChaCha8Rng::seed_from_u64(1),
        );
        assert_eq!(fitting_logics(&cx), vec!["ALL"]);
        let mut sut = DrySut::new(SatResult::Sat);
        cfg.theories = vec![Theory::Uf];
        let cx = RoundState::new(&mut sut, cfg, 1, rand_chacha::ChaCha8Rng::seed_from_u64(1));
        assert_eq!(fitting_logics(&cx), vec!["ALL", "QF_UF", "UF"]);
    }

    #[test]
    fn new_round_draws_budgets() {
        let mut sut = DrySut::new(SatResult::Sat);
        let mut cx = RoundState::new(
            &mut sut,
            config(),
            1,
            rand_chacha::ChaCha8Rng::seed_from_u64(9),
        );
        NewRound.run(&mut cx).unwrap();
        assert!(cx.budget.inputs_left >= 4 && cx.budget.initial_left >= 4);
    }

    #[test]
    fn set_global_param_only_before_the_solver() {
        let mut sut = DrySut::new(SatResult::Sat);
        let mut cx = RoundState::new(
            &mut sut,
            config(),
            1,
            rand_chacha::ChaCha8Rng::seed_from_u64(2),
        );
        cx.budget.params_left = 1;
        assert!(SetGlobalParam.applies(&cx));
        SetGlobalParam.run(&mut cx).unwrap();
        assert_eq!(calls_named(&cx, "set_global"), 1);
        cx.budget.params_left = 1;
        NewSolver(SolverChoice::Default).run(&mut cx).unwrap();
        assert!(!SetGlobalParam.applies(&cx));
    }

    #[test]
    fn new_solver_sets_the_resource_limit() {
        for choice in [
            SolverChoice::Default,
            SolverChoice::Logic,
            SolverChoice::Tactic,
        ] {
            let mut sut = DrySut::new(SatResult::Sat);
            let mut cx = RoundState::new(
                &mut sut,
                config(),
                1,
                rand_chacha::ChaCha8Rng::seed_from_u64(3),
            );
            assert!(NewSolver(choice).run(&mut cx).unwrap());
            assert!(!NewSolver(choice).applies(&cx));
            assert_eq!(calls_named(&cx, "set_param"), 1);
        }
    }

    #[test]
    fn set_solver_param_uses_the_option_model() {
        let mut sut = DrySut::new(SatResult::Sat);
        let mut cx = RoundState::new(
            &mut sut,
            config(),
            1,
            rand_chacha::ChaCha8Rng::seed_from_u64(4),
        );
        NewSolver(SolverChoice::Default).run(&mut cx).unwrap();
        cx.budget.params_left = 1;
        assert!(SetSolverParam.run(&mut cx).unwrap());
        assert_eq!(cx.options_set[0].0, "relevancy");
        assert!(!SetSolverParam.applies(&cx) && EndOptions.applies(&cx));
    }

    #[test]
    fn init_builds_every_input_sort_then_terms() {
        let mut sut = DrySut::new(SatResult::Sat);
        let cx = ready(&mut sut);
        for sort in gen::input_sorts(&cx) {
            assert!(
                cx.pool.has(&sort) || cx.shape.n_inputs < 12,
                "no input of {sort}"
            );
        }
        assert!(EndInit.applies(&cx) && !InitTerm.applies(&cx));
        assert!(calls_named(&cx, "const") >= 4);
    }

    #[test]
    fn main_term_actions_add_terms() {
        let mut sut = DrySut::new(SatResult::Sat);
        let mut cx = ready(&mut sut);
        let before = cx.pool.len();
        let actions: [&dyn Action; 7] = [
            &MkInput,
            &MkTerm,
            &MkFun,
            &MkApply,
            &MkConstArray,
            &Simplify,
            &Substitute,
        ];
        for _ in 0..5 {
            for a in actions {
                if a.applies(&cx) {
                    a.run(&mut cx).unwrap();
                }
            }
        }
        assert!(cx.pool.len() > before);
        for name in ["fun", "apply", "const_array", "substitute"] {
            assert!(calls_named(&cx, name) > 0, "{name}");
        }
        // The simplify action simplifies with parameters half the time.
        assert!(calls_named(&cx, "simplify") + calls_named(&cx, "simplify_with") > 0);
    }

    #[test]
    fn release_never_drops_pinned_terms() {
        let mut sut = DrySut::new(SatResult::Sat);
        let mut cx = ready(&mut sut);
        Assert.run(&mut cx).unwrap();
        let pinned: Vec<TermId> = cx.pinned.iter().copied().collect();
        for _ in 0..50 {
            if Release.applies(&cx) {
                Release.run(&mut cx).unwrap();
            }
        }
        for t in pinned {
            assert!(cx.sut.state().terms.contains_key(&t));
        }
    }

    #[test]
    fn assert_and_track_record_assertions_in_the_current_scope() {
        let mut sut = DrySut::new(SatResult::Sat);
        let mut cx = ready(&mut sut);
        Push.run(&mut cx).unwrap();
        Assert.run(&mut cx).unwrap();
        AssertAndTrack.run(&mut cx).unwrap();
        assert_eq!(cx.scopes.len(), 2);
        assert_eq!(cx.scopes[1].len(), 2);
        assert!(matches!(cx.scopes[1][1], Asserted::Tracked { .. }));
        assert!(Pop.applies(&cx));
        Pop.run(&mut cx).unwrap();
        assert_eq!(cx.scopes.len(), 1);
    }

    #[test]
    fn shadow_mirrors_solver_calls() {
        let mut sut = DrySut::new(SatResult::Sat);
        let mut cx = ready(&mut sut);
        StartShadow.run(&mut cx).unwrap();
        assert!(cx.shadow.is_some());
        Assert.run(&mut cx).unwrap();
        CheckSat.run(&mut cx).unwrap();
        assert_eq!(calls_named(&cx, "assert"), 2);
        assert_eq!(calls_named(&cx, "check_sat"), 2);
        StopShadow.run(&mut cx).unwrap();
        assert!(cx.shadow.is_none());
    }

    #[test]
    fn cheap_shadows_translate_no_default_solver() {
        let mut sut = DrySut::new(SatResult::Sat);
        let mut cx = ready(&mut sut);
        cx.config.translate_default = false;
        assert!(
            !StartShadow.applies(&cx),
            "the default solver is not translated"
        );
        cx.config.translate_default = true;
        assert!(StartShadow.applies(&cx));
        let mut sut = DrySut::new(SatResult::Sat);
        let mut cx = RoundState::new(
            &mut sut,
            config(),
            1,
            rand_chacha::ChaCha8Rng::seed_from_u64(1),
        );
        cx.config.translate_default = false;
        NewRound.run(&mut cx).unwrap();
        cx.budget.params_left = 0;
        assert!(NewSolver(SolverChoice::Tactic).run(&mut cx).unwrap());
        cx.budget.main_left = 10;
        assert!(StartShadow.applies(&cx), "a tactic solver translates fast");
    }

    /// On a Z3 slow at translating the default solver, `other_context` still translates:
    /// mostly a stand-in from the `smt` tactic given the main solver's assertions.
    #[test]
    fn other_context_translates_a_stand_in_where_the_main_solver_is_slow() {
        let mut sut = DrySut::new(SatResult::Sat);
        let mut cx = ready(&mut sut);
        cx.config.translate_default = false;
        CheckSat.run(&mut cx).unwrap();
        for _ in 0..40 {
            if OtherContext.applies(&cx) {
                OtherContext.run(&mut cx).unwrap();
            }
        }
        assert!(calls_named(&cx, "translate_config") > 0);
        assert!(calls_named(&cx, "new_solver") > 1, "stand-ins are made");
    }

    #[test]
    fn check_sat_assuming_uses_literals_and_counts_incremental_checks() {
        let mut sut = DrySut::new(SatResult::Unsat);
        let mut cx = ready(&mut sut);
        CheckSat.run(&mut cx).unwrap();
        assert!(CheckSatAssuming.applies(&cx));
        CheckSatAssuming.run(&mut cx).unwrap();
        assert!(!cx.last_assumptions.is_empty());
        assert_eq!((cx.stats.unsat, cx.stats.incremental_checks), (2, 1));
    }

    #[test]
    fn query_model_accepts_true_and_reports_false() {
        let mut sut = DrySut::new(SatResult::Sat);
        let mut cx = ready(&mut sut);
        Assert.run(&mut cx).unwrap();
        CheckSat.run(&mut cx).unwrap();
        assert!(EvalModel.applies(&cx) && !QueryCore.applies(&cx));
        assert!(EvalModel.run(&mut cx).unwrap());
        assert!(calls_named(&cx, "model_eval") as usize >= cx.pool.len());

        let mut lying = DrySut::new(SatResult::Sat);
        lying.eval_answer = "false".into();
        let mut cx = ready(&mut lying);
        Assert.run(&mut cx).unwrap();
        CheckSat.run(&mut cx).unwrap();
        let failure = EvalModel.run(&mut cx).unwrap_err();
        assert_eq!(failure.kind, crate::failure::FailureKind::Model);
    }

    #[test]
    fn query_core_rechecks_the_core() {
        let mut sut = DrySut::new(SatResult::Unsat);
        let mut cx = ready(&mut sut);
        CheckSatAssuming.run(&mut cx).unwrap();
        assert!(QueryCore.applies(&cx));
        assert!(QueryCore.run(&mut cx).unwrap());
        assert_eq!(calls_named(&cx, "get_unsat_core"), 1);
        assert_eq!(calls_named(&cx, "check_sat_assuming"), 2);
    }

    #[test]
    fn cross_check_builds_and_deletes_another_solver() {
        let mut sut = DrySut::new(SatResult::Sat);
        let mut cx = ready(&mut sut);
        Assert.run(&mut cx).unwrap();
        CheckSat.run(&mut cx).unwrap();
        assert!(CrossCheck.run(&mut cx).unwrap());
        assert_eq!(calls_named(&cx, "new_solver"), 2);
        assert_eq!(calls_named(&cx, "delete"), 1);
        assert_eq!(cx.sut.state().solvers.len(), 1);
    }

    #[test]
    fn dump_round_trip_checks_then_dumps() {
        let mut sut = DrySut::new(SatResult::Sat);
        let mut cx = ready(&mut sut);
        Assert.run(&mut cx).unwrap();
        assert!(DumpRoundTrip.run(&mut cx).unwrap());
        for name in ["check_sat", "to_smt2", "check_dump"] {
            assert_eq!(calls_named(&cx, name), 1, "{name}");
        }
        assert_eq!(cx.sut.state().solvers.len(), 1);
    }

    #[test]
    fn an_unknown_answer_ends_the_solving_of_a_round() {
        let mut sut = DrySut::new(SatResult::Unknown);
        let mut cx = ready(&mut sut);
        Assert.run(&mut cx).unwrap();
        cx.budget.incremental_left = 1;
        assert!(StartShadow.applies(&cx) && IncrementalStep.applies(&cx));
        // The dump's own check answers unknown: no fresh solver, nothing parsed.
        assert!(!DumpRoundTrip.run(&mut cx).unwrap());
        assert_eq!(calls_named(&cx, "check_sat"), 1);
        assert_eq!(calls_named(&cx, "from_string"), 0);
        assert!(!StartShadow.applies(&cx) && !IncrementalStep.applies(&cx));
        // A definite answer makes the formula worth going on with again.
        cx.count_answer(Some(SatResult::Sat));
        assert!(StartShadow.applies(&cx) && IncrementalStep.applies(&cx));
    }

    #[test]
    fn incremental_step_spends_its_budget() {
        let mut sut = DrySut::new(SatResult::Sat);
        let mut cx = ready(&mut sut);
        cx.budget.incremental_left = 1;
        assert!(IncrementalStep.applies(&cx));
        IncrementalStep.run(&mut cx).unwrap();
        assert!(!IncrementalStep.applies(&cx));
    }

    #[test]
    fn delete_all_leaves_nothing_alive() {
        let mut sut = DrySut::new(SatResult::Sat);
        let mut cx = ready(&mut sut);
        StartShadow.run(&mut cx).unwrap();
        MkFun.run(&mut cx).unwrap();
        DeleteAll.run(&mut cx).unwrap();
        let state = cx.sut.state();
        assert!(state.solvers.is_empty() && state.funcs.is_empty() && state.sorts.is_empty());
        assert!(state.terms.is_empty() && state.models.is_empty());
    }

    #[test]
    fn refused_reply_has_no_result() {
        let r = Reply::Refused("canceled".into());
        assert_eq!(r.sat(), None);
        assert_eq!(r.term(), None);
    }
}
