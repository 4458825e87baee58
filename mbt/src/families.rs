//! Actions of the tactic and Optimize families: random tactic objects (names from
//! [`GOAL_TACTICS`], combinators, probes of [`PROBES`], parameters read from the tactic's own
//! descriptions), a solver built from one ([`NewSolver`](crate::actions::NewSolver) with
//! [`SolverChoice::Composed`](crate::actions::SolverChoice)), goals a tactic is applied to
//! ([`ApplyTactic`], then `check_goal`), and Optimize contexts ([`Optimize`], then
//! `check_model`/`check_indep` on the hard constraints, `check_opt_values` and
//! `check_opt_better`), and reading objects back ([`ReadBack`]). Terms come from the round's
//! pool, so every theory meets them all.
//! Real closed field numbers ([`Rcf`]) live apart from terms.

use crate::actions::Action;
use crate::failure::Failure;
use crate::round_state::RoundState;
use model::call::{AlgebraicTest, RcfCmp, RcfId, RcfMk, RcfOp};
use model::goals::{GoalWhen, GOAL_READERS, PROBE_OPS, QUERY_ONLY, SOLVER_QUERIES, SOLVER_READERS};
use model::options::{ParamKind, GOAL_TACTICS, PROBES};
use model::{
    AnyId, Call, Check, Direction, ProbeCmp, ProbeTest, Ret, SatResult, Sort, TacticExpr, TacticId,
    TermId,
};
use rand::Rng;

/// The resource limit of `goal_apply`.
pub const APPLY_RLIMIT: u32 = 200_000;

/// Tactics that decide a goal: the last step of a tactic a solver is built from.
/// (Not `qflia`, `qflra`, `qfnra` or `default`: see [`GOAL_TACTICS`].)
const FINISHERS: &[&str] = &["smt", "sat", "qfbv"];

/// Tactic parameters a fuzzed `tactic_using_params` leaves alone: the clock (replays must
/// not depend on it), memory, and switches that ask the context for proofs or cores.
const FIXED_TACTIC_PARAMS: &[&str] = &["timeout", "max_memory", "proof", "unsat_core"];

/// A named tactic of [`GOAL_TACTICS`].
fn named(cx: &mut RoundState<'_>, pool: &[&'static str]) -> Result<Option<TacticId>, Failure> {
    let name = pool[cx.rng.random_range(0..pool.len())];
    Ok(cx
        .run(Call::MkTactic(TacticExpr::Named(name.into())))?
        .tactic())
}

/// A random tactic: a named one, or a combinator over smaller random tactics (`depth` more
/// levels at most); the names of the named tactics below it are collected in `names`.
fn random_tactic(
    cx: &mut RoundState<'_>,
    depth: u32,
    names: &mut Vec<&'static str>,
) -> Result<Option<TacticId>, Failure> {
    if depth == 0 || cx.rng.random_bool(0.4) {
        let name = GOAL_TACTICS[cx.rng.random_range(0..GOAL_TACTICS.len())];
        names.push(name);
        return Ok(cx
            .run(Call::MkTactic(TacticExpr::Named(name.into())))?
            .tactic());
    }
    let Some(a) = random_tactic(cx, depth - 1, names)? else {
        return Ok(None);
    };
    let expr = match cx.rng.random_range(0..7) {
        0..=2 => {
            let Some(b) = random_tactic(cx, depth - 1, names)? else {
                return Ok(None);
            };
            match cx.rng.random_range(0..3) {
                0 => TacticExpr::OrElse(a, b),
                1 => TacticExpr::Cond(probe_test(cx), a, b),
                _ => TacticExpr::AndThen(a, b),
            }
        }
        3 => TacticExpr::Repeat(a, cx.rng.random_range(1..=4)),
        // Long enough that the resource limit, which is deterministic, stops a tactic first.
        4 => TacticExpr::TryFor(a, cx.rng.random_range(10_000..=60_000)),
        5 => TacticExpr::When(probe_test(cx), a),
        _ => match using_params(cx, names) {
            Some(params) => TacticExpr::UsingParams(a, params),
            None => return Ok(Some(a)),
        },
    };
    Ok(cx.run(Call::MkTactic(expr))?.tactic())
}

fn probe_test(cx: &mut RoundState<'_>) -> ProbeTest {
    ProbeTest {
        probe: PROBES[cx.rng.random_range(0..PROBES.len())].into(),
        cmp: ProbeCmp::ALL[cx.rng.random_range(0..ProbeCmp::ALL.len())],
        value: cx.rng.random_range(0..=20),
    }
}

/// One or two parameters (with values of their kinds) of a tactic named below, read from
/// Z3's descriptions of it.
fn using_params(cx: &mut RoundState<'_>, names: &[&'static str]) -> Option<Vec<(String, String)>> {
    let name = names.get(cx.rng.random_range(0..names.len().max(1)))?;
    let descrs: Vec<_> = untrace::executor::tactics::tactic_param_descrs(name)
        .into_iter()
        .filter(|d| {
            matches!(d.kind, ParamKind::Bool | ParamKind::Uint)
                && !FIXED_TACTIC_PARAMS.iter().any(|f| d.name.contains(f))
        })
        .collect();
    if descrs.is_empty() {
        return None;
    }
    let mut params = Vec::new();
    for _ in 0..cx.rng.random_range(1..=2) {
        let d = &descrs[cx.rng.random_range(0..descrs.len())];
        let value = match d.kind {
            ParamKind::Bool => cx.rng.random_bool(0.5).to_string(),
            _ => cx.rng.random_range(0..=16u32).to_string(),
        };
        if !params.iter().any(|(k, _)| k == &d.name) {
            params.push((d.name.clone(), value));
        }
    }
    Some(params)
}

/// The tactic of a solver made from a tactic object: random preprocessing, then a tactic
/// that decides.
pub fn solver_tactic(cx: &mut RoundState<'_>) -> Result<Option<TacticId>, Failure> {
    let mut names = Vec::new();
    let Some(pre) = random_tactic(cx, 2, &mut names)? else {
        return Ok(None);
    };
    let Some(finish) = named(cx, FINISHERS)? else {
        return Ok(None);
    };
    Ok(cx
        .run(Call::MkTactic(TacticExpr::AndThen(pre, finish)))?
        .tactic())
}

/// Boolean terms of the pool (at most `n`, distinct).
fn pick_formulas(cx: &mut RoundState<'_>, n: usize) -> Vec<TermId> {
    let mut picked = Vec::new();
    let p = cx.shape.p_deep;
    for _ in 0..n {
        if let Some(t) = cx.pool.pick(&Sort::Bool, &mut cx.rng, p) {
            if !picked.contains(&t) {
                picked.push(t);
            }
        }
    }
    picked
}

/// Releases the objects made for one action.
fn release_all(cx: &mut RoundState<'_>, ids: Vec<AnyId>) -> Result<(), Failure> {
    for id in ids {
        if cx.sut.state().is_alive(id) {
            cx.run(Call::Release(id))?;
        }
    }
    Ok(())
}

/// A random tactic applied to a goal of pool formulas; `check_goal` compares the goal with
/// its subgoals, and the first subgoal is turned back into a formula.
pub struct ApplyTactic;
impl Action for ApplyTactic {
    fn name(&self) -> &'static str {
        "apply_tactic"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        cx.budget.main_left > 0 && cx.pool.has(&Sort::Bool)
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let n = cx.rng.random_range(1..=3);
        let formulas = pick_formulas(cx, n);
        let mut made = Vec::new();
        let models = cx.rng.random_bool(0.5);
        let Some(g) = cx.run(Call::NewGoal { models })?.goal() else {
            return Ok(false);
        };
        made.push(AnyId::Goal(g));
        for t in formulas {
            cx.run(Call::GoalAssert(g, t))?;
        }
        let mut names = Vec::new();
        let tactic = random_tactic(cx, 2, &mut names)?;
        let n = match tactic {
            Some(k) => {
                made.push(AnyId::Tactic(k));
                let reply = cx.run(Call::ApplyTactic {
                    tactic: k,
                    goal: g,
                    rlimit: APPLY_RLIMIT,
                })?;
                reply.value().and_then(|v| v.parse::<u32>().ok())
            }
            None => None,
        };
        if let Some(n) = n {
            cx.run(Call::Check(Check::Goal(g)))?;
            if n > 0 {
                if let Some(sub) = cx.run(Call::Subgoal(g, 0))?.goal() {
                    made.push(AnyId::Goal(sub));
                    if let Some(t) = cx.run(Call::GoalFormula(sub))?.term() {
                        made.push(AnyId::Term(t));
                    }
                }
            }
        }
        // The combinators' operands too (a combinator holds its own references).
        let tactics: Vec<AnyId> = cx
            .sut
            .state()
            .tactics
            .iter()
            .map(|k| AnyId::Tactic(*k))
            .collect();
        made.extend(tactics);
        made.sort();
        made.dedup();
        release_all(cx, made)?;
        Ok(n.is_some())
    }
}

/// An Optimize context over the round's terms: hard constraints, weighted soft constraints
/// in groups, objectives over Int, Real and bit-vector terms, maybe in a scope; after sat
/// the model is checked against the hard constraints and the objectives' bounds.
pub struct Optimize;
impl Action for Optimize {
    fn name(&self) -> &'static str {
        "optimize"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        cx.budget.main_left > 0 && cx.pool.has(&Sort::Bool)
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let Some(o) = cx.run(Call::NewOptimize)?.opt() else {
            return Ok(false);
        };
        let rlimit = cx.config.rlimit.to_string();
        cx.run(Call::OptSetParam {
            opt: o,
            key: "rlimit".into(),
            value: rlimit,
        })?;
        let n = cx.rng.random_range(0..=3);
        let hard = pick_formulas(cx, n);
        let scoped = cx.rng.random_bool(0.3);
        let (before, inside) = if scoped {
            hard.split_at(cx.rng.random_range(0..=hard.len()))
        } else {
            (&hard[..], &[][..])
        };
        for t in before {
            cx.run(Call::OptAssert(o, *t))?;
        }
        if scoped {
            cx.run(Call::OptPush(o))?;
        }
        for t in inside {
            cx.run(Call::OptAssert(o, *t))?;
        }
        let mut n_objectives = 0u32;
        let mut groups: Vec<String> = Vec::new();
        let n = cx.rng.random_range(0..=3);
        for t in pick_formulas(cx, n) {
            let group = if groups.is_empty() || cx.rng.random_bool(0.3) {
                let name = format!("g{}", groups.len() + 1);
                groups.push(name.clone());
                n_objectives += 1;
                name
            } else {
                groups[cx.rng.random_range(0..groups.len())].clone()
            };
            let weight = cx.rng.random_range(1..=5);
            cx.run(Call::OptAssertSoft {
                opt: o,
                term: t,
                weight,
                group,
            })?;
        }
        let numeric: Vec<TermId> = cx
            .pool
            .all()
            .into_iter()
            .filter(|t| {
                matches!(
                    cx.pool.sort_of(*t),
                    Some(Sort::Int | Sort::Real | Sort::BitVec(_))
                )
            })
            .collect();
        if !numeric.is_empty() {
            for _ in 0..cx.rng.random_range(1..=2) {
                let term = numeric[cx.rng.random_range(0..numeric.len())];
                let direction = if cx.rng.random_bool(0.5) {
                    Direction::Minimize
                } else {
                    Direction::Maximize
                };
                cx.run(Call::OptObjective {
                    opt: o,
                    term,
                    direction,
                })?;
                n_objectives += 1;
            }
        }
        let answer = cx.run(Call::OptCheck(o))?.sat();
        if answer == Some(SatResult::Sat) {
            if let Some(m) = cx.run(Call::OptGetModel(o))?.model() {
                for &term in &hard {
                    cx.run(Call::Check(Check::Model { model: m, term }))?;
                    if cx.config.independent {
                        cx.run(Call::Check(Check::Independent { model: m, term }))?;
                    }
                }
                for index in 0..n_objectives {
                    for upper in [false, true] {
                        cx.run(Call::OptBound {
                            opt: o,
                            index,
                            upper,
                        })?;
                    }
                }
                cx.run(Call::Check(Check::OptValues { opt: o, model: m }))?;
                cx.run(Call::Check(Check::OptBetter { opt: o, model: m }))?;
                cx.run(Call::Release(AnyId::Model(m)))?;
            }
        }
        // Half the time a reader of the context (asked of a copy; those of releases after
        // 4.8.12 only where the loaded libz3 has them).
        if cx.rng.random_bool(0.5) {
            let readers: Vec<&str> = model::introspect::OPT_READERS
                .iter()
                .filter(|(name, _)| untrace::executor::read::opt_reader_available(name))
                .map(|(name, _)| *name)
                .collect();
            let function = readers[cx.rng.random_range(0..readers.len())];
            cx.run(Call::OptRead {
                function: function.into(),
                opt: o,
            })?;
        }
        if scoped {
            cx.run(Call::OptPop(o))?;
        }
        cx.run(Call::Release(AnyId::Opt(o)))?;
        Ok(answer.is_some())
    }
}

// ---- Read-backs -------------------------------------------------------------------------

/// Reads an object of the round back (`read`, `read_sort`, `read_eq`, `read_stats`): a
/// pool term with a read-back function the reference state says applies to it and the
/// loaded libz3 has (those of releases after 4.8.12 only where it has them), a sort of the
/// round, two terms' equality (a literal or constant made again must be the same term), or
/// the solver's statistics. The executor judges each answer by what the trace built.
pub struct ReadBack;
impl Action for ReadBack {
    fn name(&self) -> &'static str {
        "read_back"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        cx.budget.main_left > 0 && !cx.pool.is_empty()
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        use model::read::{Reader, Subject};
        let Some(t) = cx.pool.any(&mut cx.rng) else {
            return Ok(false);
        };
        match cx.rng.random_range(0..10) {
            0 => {
                // The same literal or constant made again, or another pool term.
                let twin = match cx.sut.state().term(t).map(|i| i.origin.clone()) {
                    Ok(model::state::Origin::Lit(value)) => {
                        let sort = cx.pool.sort_of(t).cloned();
                        match sort {
                            Some(sort) => match cx.sort_id(&sort)? {
                                Some(sid) => cx.new_term(Call::Lit { sort: sid, value }, false)?,
                                None => None,
                            },
                            None => None,
                        }
                    }
                    _ => cx.pool.any(&mut cx.rng),
                };
                let Some(u) = twin else {
                    return Ok(false);
                };
                cx.run(Call::ReadEq(t, u))?;
            }
            1 => {
                let sorts: Vec<model::SortId> = cx.sorts.values().copied().collect();
                if sorts.is_empty() {
                    return Ok(false);
                }
                let sort = sorts[cx.rng.random_range(0..sorts.len())];
                let state = cx.sut.state();
                let readers: Vec<Reader> = Reader::of(Subject::Sort)
                    .filter(|r| untrace::executor::read::available(*r))
                    .filter(|r| r.applies_to_sort(state, sort).is_ok())
                    .collect();
                if readers.is_empty() {
                    return Ok(false);
                }
                let reader = readers[cx.rng.random_range(0..readers.len())];
                cx.run(Call::ReadSort {
                    function: reader.name().into(),
                    sort,
                })?;
            }
            2 if cx.solver.is_some() => {
                cx.solver_call(Call::ReadStats)?;
            }
            3 => {
                // A quantifier of the pool, whose shape the quantifier read-backs judge (a
                // pool's few quantifiers are seldom the uniform pick).
                let quantifiers: Vec<TermId> = {
                    let state = cx.sut.state();
                    cx.pool
                        .all()
                        .into_iter()
                        .filter(|q| {
                            state.term(*q).is_ok_and(|i| {
                                matches!(i.origin, model::state::Origin::Quantifier(_))
                            })
                        })
                        .collect()
                };
                if quantifiers.is_empty() {
                    return Ok(false);
                }
                let q = quantifiers[cx.rng.random_range(0..quantifiers.len())];
                // Reads are cheap beside a round's checks: three of the quantifier.
                if !read_term(cx, q, 3)? {
                    return Ok(false);
                }
                // And the quantifier made again through another maker (or its lambda).
                crate::gen::quant_rebuild(cx, q)?;
            }
            _ => {
                // Half the time a fresh literal (numerals at the edges of machine integers,
                // FP specials, strings), which the numeral and FP read-backs judge exactly:
                // five reads of it, as a floating-point numeral alone has 17 readers.
                let (t, reads) = match cx.rng.random_bool(0.5) {
                    true => fresh_literal(cx)?.map_or((t, 2), |lit| (lit, 5)),
                    false => (t, 2),
                };
                if !read_term(cx, t, reads)? {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }
}

/// Up to `n` reads of term `t` by distinct readers that apply to it (those the loaded libz3
/// has); false where none applies.
fn read_term(cx: &mut RoundState<'_>, t: TermId, n: usize) -> Result<bool, Failure> {
    let state = cx.sut.state();
    let readers: Vec<model::read::Reader> = model::read::Reader::of(model::read::Subject::Term)
        .filter(|r| untrace::executor::read::available(*r))
        .filter(|r| r.applies_to_term(state, t).is_ok())
        .collect();
    if readers.is_empty() {
        return Ok(false);
    }
    for reader in pick_readers(cx, readers, n) {
        cx.run(Call::Read {
            function: reader.name().into(),
            term: t,
        })?;
    }
    Ok(true)
}

/// Up to `n` distinct readers of `readers`, in a random order.
fn pick_readers(
    cx: &mut RoundState<'_>,
    mut readers: Vec<model::read::Reader>,
    n: usize,
) -> Vec<model::read::Reader> {
    let mut picked = Vec::new();
    while picked.len() < n && !readers.is_empty() {
        picked.push(readers.swap_remove(cx.rng.random_range(0..readers.len())));
    }
    picked
}

/// Most RCF numbers alive in a round: older ones are released first.
const MAX_LIVE_RCFS: usize = 12;

/// The live RCF numbers, in id order (the state keeps them in a hash map).
fn live_rcfs(cx: &RoundState<'_>) -> Vec<RcfId> {
    let mut ids: Vec<RcfId> = cx.sut.state().rcfs.keys().copied().collect();
    ids.sort();
    ids
}

fn pick_rcf(cx: &mut RoundState<'_>, ids: &[RcfId]) -> RcfId {
    ids[cx.rng.random_range(0..ids.len())]
}

/// A new RCF number from scratch: mostly small rationals, sometimes π, e or an infinitesimal.
fn new_rcf(cx: &mut RoundState<'_>) -> Result<Option<RcfId>, Failure> {
    let mk = match cx.rng.random_range(0..10) {
        0..=3 => RcfMk::SmallInt(cx.rng.random_range(-6..=6)),
        4..=6 => {
            let n: i32 = cx.rng.random_range(-20..=20);
            let d: u32 = cx.rng.random_range(1..=12);
            RcfMk::Rational(if cx.rng.random_bool(0.2) {
                format!("{n}.{d}")
            } else {
                format!("{n}/{d}")
            })
        }
        7 => RcfMk::Pi,
        8 => RcfMk::E,
        _ => RcfMk::Infinitesimal,
    };
    Ok(cx.run(Call::RcfMk(mk))?.rcf())
}

/// A polynomial's coefficients (lowest degree first) from the live numbers, two to four of
/// them, the leading one known not to be zero; `None` where there is none such.
fn polynomial(cx: &mut RoundState<'_>, ids: &[RcfId]) -> Option<Vec<RcfId>> {
    let state = cx.sut.state();
    let nonzero: Vec<RcfId> = ids
        .iter()
        .copied()
        .filter(|r| {
            state
                .rcf(*r)
                .ok()
                .flatten()
                .is_some_and(|i| i.excludes_zero())
        })
        .collect();
    if nonzero.is_empty() {
        return None;
    }
    let n = cx.rng.random_range(1..=3);
    let mut coeffs: Vec<RcfId> = (0..n).map(|_| pick_rcf(cx, ids)).collect();
    coeffs.push(pick_rcf(cx, &nonzero));
    Some(coeffs)
}

/// Real closed field numbers: a few made, combined by the field operations, compared,
/// printed, their roots taken; then `check_rcf` judges a result against another number and
/// `check_rcf_roots` the roots of a polynomial (exact rational arithmetic, intervals and
/// Sturm sequences in the reference state, `model::rcf`).
pub struct Rcf;
impl Action for Rcf {
    fn name(&self) -> &'static str {
        "rcf"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        cx.budget.main_left > 0
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let mut ids = live_rcfs(cx);
        while ids.len() > MAX_LIVE_RCFS {
            let oldest = ids.remove(0);
            cx.run(Call::Release(AnyId::Rcf(oldest)))?;
        }
        while ids.len() < 2 || cx.rng.random_bool(0.3) {
            match new_rcf(cx)? {
                Some(r) => ids.push(r),
                None => return Ok(false),
            }
            if ids.len() > MAX_LIVE_RCFS {
                break;
            }
        }
        let mut made = None;
        for _ in 0..cx.rng.random_range(1..=3) {
            let (a, b) = (pick_rcf(cx, &ids), pick_rcf(cx, &ids));
            let divisor_ok = cx
                .sut
                .state()
                .rcf(b)
                .ok()
                .flatten()
                .is_some_and(|i| i.excludes_zero());
            let call = match cx.rng.random_range(0..13) {
                12 => Call::RcfNeg(a),
                0..=1 => Call::RcfArith {
                    op: RcfOp::Add,
                    a,
                    b,
                },
                2 => Call::RcfArith {
                    op: RcfOp::Sub,
                    a,
                    b,
                },
                3..=4 => Call::RcfArith {
                    op: RcfOp::Mul,
                    a,
                    b,
                },
                5 if divisor_ok => Call::RcfArith {
                    op: RcfOp::Div,
                    a,
                    b,
                },
                6 if divisor_ok => Call::RcfInv(b),
                7 => Call::RcfPower(a, cx.rng.random_range(0..=3)),
                8 => Call::RcfNumDen {
                    num: a,
                    denominator: cx.rng.random_bool(0.5),
                },
                9 => match polynomial(cx, &ids) {
                    Some(coeffs) => {
                        let points = cx.sut.state().polynomial(&coeffs).ok().flatten();
                        let n = points.map_or(0, |p| model::rcf::real_roots(&p, 0).len());
                        if n > 0 {
                            Call::RcfRoot {
                                index: cx.rng.random_range(0..n as u32),
                                coeffs,
                            }
                        } else {
                            Call::RcfRoots(coeffs)
                        }
                    }
                    None => Call::RcfNeg(a),
                },
                10 => Call::RcfCompare {
                    cmp: RcfCmp::ALL[cx.rng.random_range(0..RcfCmp::ALL.len())],
                    a,
                    b,
                },
                _ => match cx.rng.random_range(0..2) {
                    0 => Call::RcfToDecimal(a, cx.rng.random_range(0..=12)),
                    _ => Call::RcfToString {
                        num: a,
                        compact: cx.rng.random_bool(0.5),
                        html: cx.rng.random_bool(0.2),
                    },
                },
            };
            if let Some(r) = cx.run(call)?.rcf() {
                ids.push(r);
                made = Some(r);
            }
        }
        let judged = made.unwrap_or_else(|| pick_rcf(cx, &ids));
        let other = pick_rcf(cx, &ids);
        cx.run(Call::Check(Check::Rcf(judged, other)))?;
        if cx.rng.random_bool(0.25) {
            if let Some(coeffs) = polynomial(cx, &ids) {
                cx.run(Call::Check(Check::RcfRoots(coeffs)))?;
            }
        }
        Ok(true)
    }
}

/// What an RCF number is made of (`read_rcf`, functions only releases after 4.8.12 have):
/// two to five read-backs of a live number (a root of x² - c made first where the round has
/// none), which the reference state judges by what made it. Applies only where the loaded libz3 has the functions, so
/// rounds on 4.8.12 are what they were.
pub struct RcfRead;

fn rcf_readers() -> Vec<model::read::Reader> {
    model::read::Reader::of(model::read::Subject::Rcf)
        .filter(|r| untrace::executor::read::available(*r))
        .collect()
}

impl Action for RcfRead {
    fn name(&self) -> &'static str {
        "rcf_read"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        cx.budget.main_left > 0 && !rcf_readers().is_empty()
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let readers = rcf_readers();
        if live_rcfs(cx).is_empty() {
            square_root(cx)?;
        }
        let ids = live_rcfs(cx);
        if ids.is_empty() || readers.is_empty() {
            return Ok(false);
        }
        // Half the time a number whose extension the oracle knows (π, e, ε or a root), and
        // an algebraic one (a root of x² - c) where the round has none: most of the reads
        // are of an algebraic number's representation.
        let known: Vec<RcfId> = ids
            .iter()
            .copied()
            .filter(|r| {
                cx.sut
                    .state()
                    .rcfs
                    .get(r)
                    .is_some_and(|i| i.made != model::state::RcfMade::Other)
            })
            .collect();
        let has_root = known.iter().any(|r| {
            cx.sut.state().rcfs.get(r).map(|i| i.made) == Some(model::state::RcfMade::Root)
        });
        let r = if !cx.rng.random_bool(0.5) {
            pick_rcf(cx, &ids)
        } else if has_root || (!known.is_empty() && cx.rng.random_bool(0.5)) {
            pick_rcf(cx, &known)
        } else {
            match square_root(cx)? {
                Some(r) => r,
                None => pick_rcf(cx, &ids),
            }
        };
        for _ in 0..cx.rng.random_range(2..=5) {
            let reader = readers[cx.rng.random_range(0..readers.len())];
            cx.run(Call::ReadRcf {
                function: reader.name().into(),
                rcf: r,
            })?;
        }
        // The sign conditions of a number hold at it: now and then of a root that has some
        // (a root of (x - aε)(x - bε), which no interval with rational ends isolates).
        if untrace::executor::read::sign_conditions_available() && cx.rng.random_bool(0.5) {
            let judged = match cx.rng.random_bool(0.4) {
                true => close_root(cx)?.unwrap_or(r),
                false => r,
            };
            cx.run(Call::Check(Check::RcfSignConditions(judged)))?;
            if judged != r {
                let reader = readers[cx.rng.random_range(0..readers.len())];
                cx.run(Call::ReadRcf {
                    function: reader.name().into(),
                    rcf: judged,
                })?;
            }
        }
        Ok(true)
    }
}

/// A root of (x - aε)(x - bε) = x² - (a + b)εx + abε² for small 0 < a < b (`rcf_root` of
/// coefficients made by RCF arithmetic from an infinitesimal ε): Z3 tells the two roots apart
/// by sign conditions. The numbers made on the way are released.
fn close_root(cx: &mut RoundState<'_>) -> Result<Option<RcfId>, Failure> {
    let a = cx.rng.random_range(1..=2);
    let b = a + cx.rng.random_range(1..=2);
    let mut made = Vec::new();
    let root = (|| -> Result<Option<RcfId>, Failure> {
        let mut number = |cx: &mut RoundState<'_>, call: Call| -> Result<Option<RcfId>, Failure> {
            let r = cx.run(call)?.rcf();
            made.extend(r);
            Ok(r)
        };
        let Some(eps) = number(cx, Call::RcfMk(RcfMk::Infinitesimal))? else {
            return Ok(None);
        };
        let mul = |a, b| Call::RcfArith {
            op: RcfOp::Mul,
            a,
            b,
        };
        let (Some(eps2), Some(ab), Some(sum), Some(one)) = (
            number(cx, mul(eps, eps))?,
            number(cx, Call::RcfMk(RcfMk::SmallInt(a * b)))?,
            number(cx, Call::RcfMk(RcfMk::SmallInt(-(a + b))))?,
            number(cx, Call::RcfMk(RcfMk::SmallInt(1)))?,
        ) else {
            return Ok(None);
        };
        let (Some(c0), Some(c1)) = (number(cx, mul(ab, eps2))?, number(cx, mul(sum, eps))?) else {
            return Ok(None);
        };
        let index = cx.rng.random_range(0..2);
        Ok(cx
            .run(Call::RcfRoot {
                index,
                coeffs: vec![c0, c1, one],
            })?
            .rcf())
    })()?;
    for r in made {
        cx.run(Call::Release(AnyId::Rcf(r)))?;
    }
    Ok(root)
}

/// A root of x² - c for a small c (`rcf_root`): an algebraic number of its own extension.
fn square_root(cx: &mut RoundState<'_>) -> Result<Option<RcfId>, Failure> {
    let c = cx.rng.random_range(2..=7);
    let mut coeffs = Vec::new();
    for k in [-c, 0, 1] {
        match cx.run(Call::RcfMk(RcfMk::SmallInt(k)))?.rcf() {
            Some(r) => coeffs.push(r),
            None => return Ok(None),
        }
    }
    let index = cx.rng.random_range(0..2);
    Ok(cx.run(Call::RcfRoot { index, coeffs })?.rcf())
}

/// A new literal of one of the round's sorts that have literals the read-backs judge.
fn fresh_literal(cx: &mut RoundState<'_>) -> Result<Option<TermId>, Failure> {
    let sorts: Vec<Sort> = crate::gen::input_sorts(cx)
        .into_iter()
        .filter(|s| {
            matches!(
                s,
                Sort::Int | Sort::Real | Sort::BitVec(_) | Sort::FloatingPoint(..) | Sort::String
            )
        })
        .collect();
    if sorts.is_empty() {
        return Ok(None);
    }
    let sort = sorts[cx.rng.random_range(0..sorts.len())].clone();
    let value = match sort {
        Sort::String => crate::gen::literal_value(&mut cx.rng, &sort),
        _ => crate::gen::numeral_value(&mut cx.rng, &sort),
    };
    let (Some(value), Some(sid)) = (value, cx.sort_id(&sort)?) else {
        return Ok(None);
    };
    cx.new_term(Call::Lit { sort: sid, value }, false)
}

/// Most algebraic numbers a run makes literals for (the pool's Real and Int literals count).
const MAX_ALGEBRAIC: usize = 12;

/// The algebraic numbers alive, in id order.
fn live_algebraic(cx: &RoundState<'_>) -> Vec<TermId> {
    let mut ids: Vec<TermId> = cx.sut.state().algebraic.keys().copied().collect();
    ids.sort();
    ids
}

/// Algebraic numbers (`Z3_algebraic_*`): Real numerals (small rationals made here) combined
/// by the field operations, powers and roots, compared and tested; then `check_algebraic`
/// judges a result against another number by the reference state's intervals. The terms
/// stay out of the pool (their SMT-LIB form, `root-obj`, is Z3's own).
pub struct Algebraic;
impl Action for Algebraic {
    fn name(&self) -> &'static str {
        "algebraic"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        cx.budget.main_left > 0
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        // Real and Int literals of the pool are algebraic numbers too.
        let mut ids = live_algebraic(cx);
        let Some(real) = cx.sort_id(&Sort::Real)? else {
            return Ok(false);
        };
        while ids.len() < 2 || cx.rng.random_bool(0.3) {
            let n: i32 = cx.rng.random_range(-12..=12);
            let d: u32 = cx.rng.random_range(1..=6);
            let value = if d == 1 {
                n.to_string()
            } else {
                format!("{n}/{d}")
            };
            match cx.run(Call::Lit { sort: real, value })?.term() {
                Some(t) => ids.push(t),
                None => return Ok(false),
            }
            if ids.len() > MAX_ALGEBRAIC {
                break;
            }
        }
        let known =
            |cx: &RoundState<'_>, t: TermId| cx.sut.state().algebraic.get(&t).cloned().flatten();
        let mut made = None;
        for _ in 0..cx.rng.random_range(1..=3) {
            let (a, b) = (pick_term(cx, &ids), pick_term(cx, &ids));
            let divisor_ok = known(cx, b).is_some_and(|i| i.excludes_zero());
            let nonnegative = known(cx, a).is_some_and(|i| i.nonnegative());
            let base_nonzero = known(cx, a).is_some_and(|i| i.excludes_zero());
            let call = match cx.rng.random_range(0..10) {
                0 => Call::AlgebraicArith {
                    op: RcfOp::Add,
                    a,
                    b,
                },
                1 => Call::AlgebraicArith {
                    op: RcfOp::Sub,
                    a,
                    b,
                },
                2 => Call::AlgebraicArith {
                    op: RcfOp::Mul,
                    a,
                    b,
                },
                3 if divisor_ok => Call::AlgebraicArith {
                    op: RcfOp::Div,
                    a,
                    b,
                },
                4 => Call::AlgebraicPower(a, cx.rng.random_range(u32::from(!base_nonzero)..=3)),
                5..=6 => {
                    let k = if nonnegative {
                        cx.rng.random_range(1..=4)
                    } else {
                        [1, 3][cx.rng.random_range(0..2)]
                    };
                    Call::AlgebraicRoot(a, k)
                }
                7 => Call::AlgebraicCompare {
                    cmp: RcfCmp::ALL[cx.rng.random_range(0..RcfCmp::ALL.len())],
                    a,
                    b,
                },
                8 => Call::AlgebraicSign(a),
                _ => Call::AlgebraicIs {
                    test: [
                        AlgebraicTest::Value,
                        AlgebraicTest::Pos,
                        AlgebraicTest::Neg,
                        AlgebraicTest::Zero,
                    ][cx.rng.random_range(0..4)],
                    term: a,
                },
            };
            if let Some(t) = cx.run(call)?.term() {
                ids.push(t);
                made = Some(t);
            }
        }
        let judged = made.unwrap_or_else(|| pick_term(cx, &ids));
        let other = pick_term(cx, &ids);
        cx.run(Call::Check(Check::Algebraic(judged, other)))?;
        // What a number is made of (its polynomial, root index, bounds; eval and roots of
        // polynomials), and now and then the subresultants of two polynomials whose
        // coefficients are the round's rational numbers.
        if cx.rng.random_bool(0.4) {
            // Mostly a number not known to be rational (an irrational one has a polynomial
            // of its own to read).
            let irrational: Vec<TermId> = ids
                .iter()
                .copied()
                .filter(|t| known(cx, *t).is_none_or(|i| i.as_point().is_none()))
                .collect();
            let t = match irrational.is_empty() || cx.rng.random_bool(0.3) {
                true => judged,
                false => pick_term(cx, &irrational),
            };
            cx.run(Call::Check(Check::AlgebraicPoly(t)))?;
        }
        if cx.rng.random_bool(0.15) {
            let rationals: Vec<TermId> = ids
                .iter()
                .copied()
                .filter(|t| known(cx, *t).is_some_and(|i| i.as_point().is_some()))
                .collect();
            if let (Some(p), Some(q)) = (
                rational_polynomial(cx, &rationals),
                rational_polynomial(cx, &rationals),
            ) {
                cx.run(Call::Check(Check::Subresultants { p, q }))?;
            }
        }
        Ok(true)
    }
}

/// Two to five coefficients (degree 1 to 4) among the rational numbers `ids`, of degree at
/// least 1 (`check_subresultants`' precondition), or none where `ids` has no nonzero one.
fn rational_polynomial(cx: &mut RoundState<'_>, ids: &[TermId]) -> Option<Vec<TermId>> {
    let nonzero: Vec<TermId> = ids
        .iter()
        .copied()
        .filter(|t| {
            cx.sut
                .state()
                .algebraic
                .get(t)
                .cloned()
                .flatten()
                .is_some_and(|i| i.as_point().is_some() && i.excludes_zero())
        })
        .collect();
    if nonzero.is_empty() {
        return None;
    }
    let n = cx.rng.random_range(1..=4);
    let mut coeffs: Vec<TermId> = (0..n).map(|_| pick_term(cx, ids)).collect();
    coeffs.push(pick_term(cx, &nonzero));
    Some(coeffs)
}

fn pick_term(cx: &mut RoundState<'_>, ids: &[TermId]) -> TermId {
    ids[cx.rng.random_range(0..ids.len())]
}

/// The resource limit of `fp_query` and `fp_query_relation` (the context's, see
/// `untrace::executor::fixedpoint`): the round's default limit. At 500,000 (bench/README.md,
/// the profile of c385ac5) the queries past 60 ms were 7% of them and three quarters of the
/// fixedpoint CPU (a fifth of all CPU), for 3 definite answers in 20.
pub const FP_RLIMIT: u32 = 100_000;

/// The argument sorts of the relations the fixedpoint action makes: small, so that queries
/// end under the resource limit.
/// Each of the enabled theories' sorts (Bool always).
fn horn_sort(cx: &mut RoundState<'_>) -> Sort {
    let (arith, bv) = (
        cx.config.has(model::Theory::Arith),
        cx.config.has(model::Theory::Bv),
    );
    match cx.rng.random_range(0..10) {
        0..=5 if arith => Sort::Int,
        6..=8 if bv => Sort::BitVec([4, 8][cx.rng.random_range(0..2)]),
        _ => Sort::Bool,
    }
}

/// Fixedpoint contexts (Spacer, sometimes Datalog on bit-vectors and Booleans): one or two
/// relations over one small sort, an initial rule, a step rule guarded by a bound, sometimes
/// a rule from one relation to the other; a query whether a value beyond a random target is
/// reachable, judged by `check_fp` (Spacer), then a few readers. Terms stay out of the pool:
/// they hold bound variables and relations no solver asserts.
pub struct Fixedpoint;
impl Action for Fixedpoint {
    fn name(&self) -> &'static str {
        "fixedpoint"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        cx.budget.main_left > 0
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        use model::fixedpoint::{reader, When, PARAMS, READERS};
        let sort = horn_sort(cx);
        let datalog = !matches!(sort, Sort::Int) && cx.rng.random_bool(0.3);
        let engine = if datalog { "datalog" } else { "spacer" };
        cx.run(Call::FpNew {
            engine: engine.into(),
        })?;
        let (Some(sid), Some(bool_id)) = (cx.sort_id(&sort)?, cx.sort_id(&Sort::Bool)?) else {
            return Ok(false);
        };
        if !datalog && cx.rng.random_bool(0.3) {
            // Covers and reachable states need slicing off.
            cx.run(Call::FpSetParam {
                key: "xform.slice".into(),
                value: "false".into(),
            })?;
        }
        if cx.rng.random_bool(0.3) {
            let (key, values) = PARAMS[cx.rng.random_range(0..PARAMS.len())];
            let value = values[cx.rng.random_range(0..values.len())];
            cx.run(Call::FpSetParam {
                key: key.into(),
                value: value.into(),
            })?;
        }
        let n_relations = cx.rng.random_range(1..=2);
        let mut relations = Vec::new();
        for _ in 0..n_relations {
            let name = cx.fresh_name("R");
            let reply = cx.run(Call::Fun {
                name,
                domain: vec![sid],
                range: bool_id,
            })?;
            let Some(Ret::Id(AnyId::Func(f))) = reply.ret().cloned() else {
                return Ok(false);
            };
            // Mostly registered: Z3 refuses a rule whose head is not.
            if cx.rng.random_bool(0.9) {
                cx.run(Call::FpRegister(f))?;
            }
            relations.push(f);
        }
        let horn = HornTerms::new(cx, &sort, sid)?;
        let Some(horn) = horn else {
            return Ok(false);
        };
        let first = relations[0];
        // P(start).
        let Some(fact) = horn.apply(cx, first, horn.start)? else {
            return Ok(false);
        };
        cx.run(Call::FpRule {
            rule: fact,
            name: "init".into(),
        })?;
        // forall v. P(v) and guard(v) => P(next(v)).
        let step = horn.step(cx, first, first)?;
        let mut rules = vec![];
        if let Some(step) = step {
            cx.run(Call::FpRule {
                rule: step,
                name: "step".into(),
            })?;
            rules.push(("step", step));
        }
        if let [p, q] = relations[..] {
            if let Some(link) = horn.step(cx, p, q)? {
                cx.run(Call::FpRule {
                    rule: link,
                    name: "link".into(),
                })?;
                rules.push(("link", link));
            }
        }
        if let Some((name, rule)) = rules.first().copied().filter(|_| cx.rng.random_bool(0.1)) {
            // The same rule again: the old one subsumes it, so Z3 takes it.
            cx.run(Call::FpUpdateRule {
                rule,
                name: name.into(),
            })?;
        }
        let target = relations[cx.rng.random_range(0..relations.len())];
        let reply = if cx.rng.random_bool(0.15) {
            cx.run(Call::FpQueryRelation {
                relation: target,
                rlimit: FP_RLIMIT,
            })?
        } else {
            let Some(query) = horn.query(cx, target)? else {
                return Ok(false);
            };
            let reply = cx.run(Call::FpQuery {
                query,
                rlimit: FP_RLIMIT,
            })?;
            if !datalog && matches!(reply.sat(), Some(SatResult::Sat | SatResult::Unsat)) {
                cx.run(Call::Check(Check::Fixedpoint))?;
            }
            reply
        };
        let _ = reply;
        for _ in 0..cx.rng.random_range(1..=4) {
            let Ok(info) = cx.sut.state().fp() else {
                break;
            };
            let relation = relations[cx.rng.random_range(0..relations.len())];
            // The readers that apply now, one of them.
            let admitted: Vec<(&str, bool)> = READERS
                .iter()
                .filter(|(function, with_relation, _)| {
                    let when = reader(function, *with_relation).unwrap_or(When::Always);
                    info.admits(when).is_ok()
                        && (!with_relation || info.relations.contains(&relation))
                })
                .map(|(function, with_relation, _)| (*function, *with_relation))
                .collect();
            if admitted.is_empty() {
                break;
            }
            let (function, with_relation) = admitted[cx.rng.random_range(0..admitted.len())];
            cx.run(if with_relation {
                Call::FpReadRel {
                    function: function.into(),
                    relation,
                }
            } else {
                Call::FpRead(function.into())
            })?;
        }
        if cx.rng.random_bool(0.05) {
            cx.run(Call::FpAssert(horn.background))?;
        }
        if cx.rng.random_bool(0.1) {
            let name = cx.fresh_name("S");
            let bound = cx.rng.random_range(1..20);
            cx.run(Call::FpFromString(format!(
                "(declare-rel {name} (Int)) (declare-var n Int) (rule ({name} 0)) \
                 (rule (=> (and ({name} n) (< n {bound})) ({name} (+ n 1))))"
            )))?;
        }
        Ok(true)
    }
}

/// The terms a fixedpoint round's rules are made of, over one sort: a bound variable `v`,
/// a start value, the step `next(v)`, a guard on `v`, and a closed background formula.
struct HornTerms {
    var: TermId,
    start: TermId,
    next: TermId,
    guard: TermId,
    sort: Sort,
    sid: model::SortId,
    background: TermId,
}

impl HornTerms {
    fn new(
        cx: &mut RoundState<'_>,
        sort: &Sort,
        sid: model::SortId,
    ) -> Result<Option<HornTerms>, Failure> {
        let lit = |cx: &mut RoundState<'_>, value: String| {
            cx.run(Call::Lit { sort: sid, value }).map(|r| r.term())
        };
        let op = |cx: &mut RoundState<'_>, name: &str, args: Vec<TermId>| {
            cx.run(Call::Op {
                op: model::Op::lookup(name).expect("the operation is in the table"),
                indices: vec![],
                args,
            })
            .map(|r| r.term())
        };
        let name = cx.fresh_name("v");
        let Some(var) = cx.run(Call::Var { sort: sid, name })?.term() else {
            return Ok(None);
        };
        let (start, step, bound) = match sort {
            Sort::Bool => (
                (if cx.rng.random_bool(0.5) {
                    "true"
                } else {
                    "false"
                })
                .to_string(),
                String::new(),
                String::new(),
            ),
            Sort::BitVec(w) => {
                let top = (1u32 << w) - 1;
                (
                    cx.rng.random_range(0..=3u32).to_string(),
                    cx.rng.random_range(1..=3u32).to_string(),
                    cx.rng.random_range(4..=top).to_string(),
                )
            }
            _ => (
                cx.rng.random_range(-3..=3i32).to_string(),
                cx.rng.random_range(1..=3i32).to_string(),
                cx.rng.random_range(0..=15i32).to_string(),
            ),
        };
        let Some(start) = lit(cx, start)? else {
            return Ok(None);
        };
        let (next, guard) = match sort {
            Sort::Bool => (op(cx, "not", vec![var])?, Some(var)),
            Sort::BitVec(_) => {
                let (Some(k), Some(b)) = (lit(cx, step)?, lit(cx, bound)?) else {
                    return Ok(None);
                };
                (
                    op(cx, "bvadd", vec![var, k])?,
                    op(cx, "bvult", vec![var, b])?,
                )
            }
            _ => {
                let (Some(k), Some(b)) = (lit(cx, step)?, lit(cx, bound)?) else {
                    return Ok(None);
                };
                (op(cx, "+", vec![var, k])?, op(cx, "<", vec![var, b])?)
            }
        };
        let (Some(next), Some(guard)) = (next, guard) else {
            return Ok(None);
        };
        let name = cx.fresh_name("c");
        let Some(c) = cx.run(Call::Const { sort: sid, name })?.term() else {
            return Ok(None);
        };
        let Some(background) = op(cx, "=", vec![c, start])? else {
            return Ok(None);
        };
        Ok(Some(HornTerms {
            var,
            start,
            next,
            guard,
            sort: sort.clone(),
            sid,
            background,
        }))
    }

    fn apply(
        &self,
        cx: &mut RoundState<'_>,
        relation: model::FuncId,
        arg: TermId,
    ) -> Result<Option<TermId>, Failure> {
        Ok(cx
            .run(Call::Apply {
                func: relation,
                args: vec![arg],
            })?
            .term())
    }

    fn op(
        cx: &mut RoundState<'_>,
        name: &str,
        args: Vec<TermId>,
    ) -> Result<Option<TermId>, Failure> {
        Ok(cx
            .run(Call::Op {
                op: model::Op::lookup(name).expect("the operation is in the table"),
                indices: vec![],
                args,
            })?
            .term())
    }

    /// `forall v. from(v) and guard(v) => to(next(v))`.
    fn step(
        &self,
        cx: &mut RoundState<'_>,
        from: model::FuncId,
        to: model::FuncId,
    ) -> Result<Option<TermId>, Failure> {
        let (Some(body), Some(head)) = (
            self.apply(cx, from, self.var)?,
            self.apply(cx, to, self.next)?,
        ) else {
            return Ok(None);
        };
        let Some(premise) = Self::op(cx, "and", vec![body, self.guard])? else {
            return Ok(None);
        };
        let Some(clause) = Self::op(cx, "=>", vec![premise, head])? else {
            return Ok(None);
        };
        self.forall(cx, clause, true)
    }

    fn forall(
        &self,
        cx: &mut RoundState<'_>,
        body: TermId,
        forall: bool,
    ) -> Result<Option<TermId>, Failure> {
        Ok(cx
            .run(Call::Quantifier {
                forall,
                weight: 0,
                vars: vec![self.var],
                body,
                patterns: vec![],
                no_patterns: vec![],
            })?
            .term())
    }

    /// `exists v. R(v) and v beyond a random target` (`R(v) and v = b` over Bool).
    fn query(
        &self,
        cx: &mut RoundState<'_>,
        relation: model::FuncId,
    ) -> Result<Option<TermId>, Failure> {
        let target = match &self.sort {
            Sort::Bool => (if cx.rng.random_bool(0.5) {
                "true"
            } else {
                "false"
            })
            .to_string(),
            Sort::BitVec(w) => cx.rng.random_range(0..(1u32 << w)).to_string(),
            _ => cx.rng.random_range(-2..=20i32).to_string(),
        };
        let Some(target) = cx
            .run(Call::Lit {
                sort: self.sid,
                value: target,
            })?
            .term()
        else {
            return Ok(None);
        };
        let cmp = match &self.sort {
            Sort::Bool => "=",
            Sort::BitVec(_) => "bvugt",
            _ => ">",
        };
        let (Some(atom), Some(beyond)) = (
            self.apply(cx, relation, self.var)?,
            Self::op(cx, cmp, vec![self.var, target])?,
        ) else {
            return Ok(None);
        };
        let Some(body) = Self::op(cx, "and", vec![atom, beyond])? else {
            return Ok(None);
        };
        self.forall(cx, body, false)
    }
}

// ---- Handles and global reads -----------------------------------------------------------

/// AST maps and vectors over closed pool terms (`ast_map`, `ast_vector`: the executor runs
/// each script against a reference container), and two reads of the process (`read_global`:
/// the version, tactic and probe names, help texts and parameter descriptions, global
/// parameters), each judged where the model knows the answer. No solver check: cheap.
pub struct Handles;
impl Action for Handles {
    fn name(&self) -> &'static str {
        "handles"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        cx.budget.main_left > 0 && !cx.pool.is_empty()
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        use model::handles::{GlobalSubject, GLOBAL_DEFAULTS, GLOBAL_READERS};
        let closed: Vec<TermId> = {
            let state = cx.sut.state();
            cx.pool
                .all()
                .into_iter()
                .filter(|t| state.term(*t).is_ok_and(|i| i.free_vars.is_empty()))
                .collect()
        };
        if closed.is_empty() {
            return Ok(false);
        }
        let pick = |rng: &mut rand_chacha::ChaCha8Rng| closed[rng.random_range(0..closed.len())];
        // A pair of one term twice erases it: one in five.
        let pairs: Vec<(TermId, TermId)> = (0..cx.rng.random_range(1..=6))
            .map(|_| {
                let key = pick(&mut cx.rng);
                let value = if cx.rng.random_bool(0.2) {
                    key
                } else {
                    pick(&mut cx.rng)
                };
                (key, value)
            })
            .collect();
        cx.run(Call::AstMap(pairs))?;
        // Half the time: a vector's translation makes the round's second context (5 ms).
        if cx.rng.random_bool(0.5) {
            let elements: Vec<TermId> = (0..cx.rng.random_range(1..=5))
                .map(|_| pick(&mut cx.rng))
                .collect();
            cx.run(Call::AstVector(elements))?;
        }
        // Listing and making every tactic (36 ms on either Z3) and, on 4.x, a default
        // solver's help with its descriptions (56 ms on 4.8.12, 6 ms on 5.4.1) cost ten
        // times the other reads: a sixth as often.
        let old_z3 = untrace::z3_version().starts_with("4.");
        let costly =
            |name: &str| name == "Z3_get_tactic_name" || (old_z3 && name == "Z3_solver_get_help");
        let rows: Vec<(&str, GlobalSubject, u32)> = GLOBAL_READERS
            .iter()
            .filter(|(name, ..)| untrace::executor::read::global_available(name))
            .map(|(name, subject, _)| (*name, *subject, if costly(name) { 1 } else { 6 }))
            .collect();
        let total: u32 = rows.iter().map(|r| r.2).sum();
        for _ in 0..2 {
            let mut ticket = cx.rng.random_range(0..total);
            let (function, kind) = rows
                .iter()
                .find_map(
                    |&(name, subject, weight)| match ticket.checked_sub(weight) {
                        Some(rest) => {
                            ticket = rest;
                            None
                        }
                        None => Some((name, subject)),
                    },
                )
                .expect("a ticket below the total weight");
            let from = |list: &[&str], rng: &mut rand_chacha::ChaCha8Rng| {
                list[rng.random_range(0..list.len())].to_string()
            };
            let subject = match kind {
                GlobalSubject::Nothing => String::new(),
                GlobalSubject::Tactic => from(model::options::GOAL_TACTICS, &mut cx.rng),
                GlobalSubject::Probe => from(model::options::PROBES, &mut cx.rng),
                GlobalSubject::GlobalParam => GLOBAL_DEFAULTS
                    [cx.rng.random_range(0..GLOBAL_DEFAULTS.len())]
                .0
                .to_string(),
            };
            cx.run(Call::ReadGlobal {
                function: function.into(),
                subject,
            })?;
        }
        Ok(true)
    }
}

/// Goals read back and probes combined: a goal of pool formulas (keeping models), some of
/// its readers (`goal_read`) and probe combinations (`probe_apply`), a tactic of the kinds
/// the `z3` crate does not wrap (skip, fail, fail-if, fail-if-not-decided, par-or,
/// par-and-then) applied to it, then the application's text, and the first subgoal's
/// readers with its model converted back (`Z3_goal_convert_model`).
pub struct GoalReads;
impl Action for GoalReads {
    fn name(&self) -> &'static str {
        "goal_reads"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        cx.budget.main_left > 0 && cx.pool.has(&Sort::Bool)
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let n = cx.rng.random_range(1..=3);
        let formulas = pick_formulas(cx, n);
        let mut made = Vec::new();
        let Some(g) = cx.run(Call::NewGoal { models: true })?.goal() else {
            return Ok(false);
        };
        made.push(AnyId::Goal(g));
        for t in formulas {
            cx.run(Call::GoalAssert(g, t))?;
        }
        goal_reads(cx, g, 2)?;
        for _ in 0..cx.rng.random_range(1..=2) {
            let (op, arity) = PROBE_OPS[cx.rng.random_range(0..PROBE_OPS.len())];
            let mut probe = || PROBES[cx.rng.random_range(0..PROBES.len())].to_string();
            let first = probe();
            let second = if arity == 2 { probe() } else { String::new() };
            cx.run(Call::ProbeApply {
                goal: g,
                op: op.into(),
                first,
                second,
            })?;
        }
        let mut names: Vec<&'static str> = Vec::new();
        let expr = match cx.rng.random_range(0..6) {
            0 => Some(TacticExpr::Skip),
            1 => Some(TacticExpr::Fail),
            2 => Some(TacticExpr::FailIf(probe_test(cx))),
            3 => Some(TacticExpr::FailIfNotDecided),
            k => {
                let mut pick = || GOAL_TACTICS[cx.rng.random_range(0..GOAL_TACTICS.len())];
                names = vec![pick(), pick()];
                // `par_or` answers with the branch that finishes first: of two different
                // tactics, which one depends on timing, and so would the round's record (a
                // round is a function of its seed). The same tactic twice still runs Z3's
                // parallel machinery. (Both names are drawn, so later draws stay the same.)
                if k == 4 {
                    names[1] = names[0];
                }
                let mut made_named = Vec::new();
                for name in &names {
                    made_named.push(
                        cx.run(Call::MkTactic(TacticExpr::Named((*name).into())))?
                            .tactic(),
                    );
                }
                let (Some(a), Some(b)) = (made_named[0], made_named[1]) else {
                    return Ok(false);
                };
                made.extend([AnyId::Tactic(a), AnyId::Tactic(b)]);
                Some(if k == 4 {
                    TacticExpr::ParOr(a, b)
                } else {
                    TacticExpr::ParAndThen(a, b)
                })
            }
        };
        let tactic = match expr {
            Some(expr) => cx.run(Call::MkTactic(expr))?.tactic(),
            None => None,
        };
        let Some(k) = tactic else {
            release_all(cx, made)?;
            return Ok(false);
        };
        made.push(AnyId::Tactic(k));
        // Parameters of the named tactics below, given to the application itself.
        let params = match names.is_empty() {
            true => None,
            false => using_params(cx, &names),
        };
        let reply = match params {
            Some(params) => cx.run(Call::ApplyTacticWith {
                tactic: k,
                goal: g,
                rlimit: APPLY_RLIMIT,
                params,
            })?,
            None => cx.run(Call::ApplyTactic {
                tactic: k,
                goal: g,
                rlimit: APPLY_RLIMIT,
            })?,
        };
        let n = reply.value().and_then(|v| v.parse::<u32>().ok());
        if let Some(n) = n {
            cx.run(Call::GoalRead {
                function: "Z3_apply_result_to_string".into(),
                goal: g,
            })?;
            if n > 0 {
                if let Some(sub) = cx.run(Call::Subgoal(g, 0))?.goal() {
                    made.push(AnyId::Goal(sub));
                    cx.run(Call::GoalRead {
                        function: "Z3_goal_convert_model".into(),
                        goal: sub,
                    })?;
                    goal_reads(cx, sub, 1)?;
                }
            }
        }
        made.sort();
        made.dedup();
        release_all(cx, made)?;
        Ok(n.is_some())
    }
}

/// Up to `n` readers of goal `g` that apply to any goal.
fn goal_reads(cx: &mut RoundState<'_>, g: model::GoalId, n: usize) -> Result<(), Failure> {
    let always: Vec<&str> = GOAL_READERS
        .iter()
        .filter(|(_, _, when)| *when == GoalWhen::Always)
        .map(|(name, ..)| *name)
        .collect();
    for _ in 0..n {
        let function = always[cx.rng.random_range(0..always.len())];
        cx.run(Call::GoalRead {
            function: function.into(),
            goal: g,
        })?;
    }
    Ok(())
}

/// After a check: a reader of the round's solver (`solver_read`), and now and then a
/// check interrupted from a second thread (`check_sat_interrupted`), a check after it and
/// `check_interrupt`.
pub struct SolverIntrospect;
impl Action for SolverIntrospect {
    fn name(&self) -> &'static str {
        "solver_introspect"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        cx.solver.is_some()
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let Some(z) = cx.solver else {
            return Ok(false);
        };
        {
            let readers: Vec<&str> = SOLVER_READERS
                .iter()
                .map(|(name, ..)| *name)
                .filter(|name| !QUERY_ONLY.contains(name))
                .collect();
            let function = readers[cx.rng.random_range(0..readers.len())];
            let call = Call::SolverRead {
                function: function.into(),
                solver: z,
            };
            if cx.sut.state().check(&call).is_ok() {
                cx.run(call)?;
            }
        }
        if cx.rng.random_bool(0.2) {
            let delay_us = cx.rng.random_range(0..=2_000);
            cx.run(Call::CheckSatInterrupted {
                solver: z,
                delay_us,
            })?;
            cx.run(Call::CheckSat(z))?;
            cx.run(Call::Check(Check::Interrupt(z)))?;
        }
        Ok(true)
    }
}

/// After a check: one of the solver queries (`model::goals::SOLVER_QUERIES`: the trail's
/// levels, DIMACS, an interrupt from a second thread, implied equalities, the text through a
/// file, and on releases after 4.8.12 solutions and function substitution) of the round's
/// solver, each judged by the executor.
pub struct SolverQueries;
impl Action for SolverQueries {
    fn name(&self) -> &'static str {
        "solver_queries"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        cx.solver.is_some()
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let Some(z) = cx.solver else {
            return Ok(false);
        };
        let queries: Vec<&str> = SOLVER_QUERIES
            .iter()
            .copied()
            .filter(|f| untrace::executor::read::solver_reader_available(f))
            .collect();
        // One query a time: each makes a copy of the solver and checks under a small
        // resource limit (about 15 ms on 4.8.12 in debug builds).
        let function = queries[cx.rng.random_range(0..queries.len())];
        let call = Call::SolverRead {
            function: function.into(),
            solver: z,
        };
        if cx.sut.state().check(&call).is_err() {
            return Ok(false);
        }
        cx.run(call)?;
        Ok(true)
    }
}

/// A finite-domain sort in a fresh Datalog context (`check_finite_domain`): two to six
/// elements, up to eight random edges, reachability from element 0 judged by the closure
/// computed here.
pub struct FiniteDomain;
impl Action for FiniteDomain {
    fn name(&self) -> &'static str {
        "finite_domain"
    }
    fn applies(&self, _cx: &RoundState<'_>) -> bool {
        true
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let size = cx.rng.random_range(2..=6u32);
        let n = cx.rng.random_range(0..=8);
        let edges: Vec<String> = (0..n)
            .map(|_| {
                let (a, b) = (cx.rng.random_range(0..size), cx.rng.random_range(0..size));
                format!("{a}>{b}")
            })
            .collect();
        cx.run(Call::Check(Check::FiniteDomain {
            size,
            edges: edges.join(" "),
        }))?;
        Ok(true)
    }
}
