//! The state machine of a round, declared in one place: [`TRANSITIONS`] lists
//! `(state, action, weight, next state)`; an action's `applies` is the guard. [`drive`] walks
//! from [`MState::New`] to [`MState::Done`], each step choosing among the applicable
//! transitions of the current state by weight.

use crate::actions::*;
use crate::failure::{Failure, FailureKind};
use crate::round_state::RoundState;
use rand::Rng;

/// The states of a round (BtorMBT's, plus `Done`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MState {
    New,
    SetOptions,
    InitExprs,
    Main,
    DumpFormula,
    Sat,
    QueryModel,
    ResetIncremental,
    Delete,
    Done,
}

impl MState {
    pub fn name(self) -> &'static str {
        match self {
            MState::New => "new",
            MState::SetOptions => "set_options",
            MState::InitExprs => "generate_initial_expressions",
            MState::Main => "main",
            MState::DumpFormula => "dump_formula",
            MState::Sat => "sat",
            MState::QueryModel => "query_model",
            MState::ResetIncremental => "reset_incremental",
            MState::Delete => "delete",
            MState::Done => "done",
        }
    }
}

/// One edge of the machine.
pub struct Transition {
    pub from: MState,
    pub action: &'static dyn Action,
    pub weight: u32,
    pub to: MState,
}

const fn t(from: MState, action: &'static dyn Action, weight: u32, to: MState) -> Transition {
    Transition {
        from,
        action,
        weight,
        to,
    }
}

use MState::*;

/// Every transition of the machine.
pub static TRANSITIONS: &[Transition] = &[
    t(New, &NewRound, 1, SetOptions),
    // Set Options: globals first, then the solver, then its parameters.
    t(SetOptions, &SetGlobalParam, 1, SetOptions),
    t(SetOptions, &NewSolver(SolverChoice::Default), 6, SetOptions),
    t(SetOptions, &NewSolver(SolverChoice::Logic), 1, SetOptions),
    t(SetOptions, &NewSolver(SolverChoice::Tactic), 1, SetOptions),
    t(
        SetOptions,
        &NewSolver(SolverChoice::Composed),
        1,
        SetOptions,
    ),
    t(SetOptions, &SetSolverParam, 3, SetOptions),
    t(SetOptions, &EndOptions, 1, InitExprs),
    // Generate Initial Expressions: inputs, then non-input terms.
    t(InitExprs, &InitInput, 1, InitExprs),
    t(InitExprs, &InitTerm, 1, InitExprs),
    t(InitExprs, &InitDatatypes, 2, InitExprs),
    t(InitExprs, &EndInit, 1, Main),
    // Main: a budget of random operations, then sat (more often) or dump. Weights are
    // doubled so that tactics and Optimize, whose checks cost several times a term's
    // (fresh solvers, Optimize's own check), can weigh half as much as the cheapest action.
    t(Main, &MkInput, 4, Main),
    t(Main, &MkTerm, 24, Main),
    t(Main, &MkFun, 2, Main),
    t(Main, &MkDatatypes, 2, Main),
    t(Main, &MkDatatypeTerm, 6, Main),
    t(Main, &MkApply, 4, Main),
    t(Main, &MkConstArray, 2, Main),
    t(Main, &MkPb, 2, Main),
    t(Main, &MkSetUnion, 2, Main),
    t(Main, &MkSetOp, 1, Main),
    t(Main, &MkArrayOp, 1, Main),
    t(Main, &MkRecFun, 1, Main),
    t(Main, &MkRelation, 1, Main),
    t(Main, &HandModel, 1, Main),
    t(Main, &Simplify, 2, Main),
    t(Main, &Substitute, 2, Main),
    t(Main, &MkQuantifier, 4, Main),
    t(Main, &CheckLiteral, 2, Main),
    t(Main, &crate::term_makers::SortMakers, 1, Main),
    t(Main, &crate::term_makers::MkTermMaker, 1, Main),
    t(Main, &crate::term_makers::NamedTerms, 1, Main),
    t(Main, &ParserContextCheck, 1, Main),
    t(Main, &CharsCheck, 1, Main),
    t(Main, &FiniteSets, 1, Main),
    t(Main, &FiniteFields, 1, Main),
    t(Main, &SeqHofs, 1, Main),
    t(Main, &ComplexCheck, 1, Main),
    t(Main, &PolyDatatypeCheck, 1, Main),
    t(Main, &crate::families::ApplyTactic, 1, Main),
    t(Main, &crate::families::Optimize, 1, Main),
    t(Main, &crate::families::ReadBack, 3, Main),
    t(Main, &crate::families::Rcf, 1, Main),
    t(Main, &crate::families::RcfRead, 2, Main),
    t(Main, &crate::families::Algebraic, 1, Main),
    t(Main, &crate::families::Fixedpoint, 1, Main),
    t(Main, &crate::families::FiniteDomain, 1, Main),
    t(Main, &crate::families::Handles, 1, Main),
    t(Main, &crate::families::GoalReads, 1, Main),
    t(Main, &Release, 4, Main),
    t(Main, &Assert, 10, Main),
    t(Main, &AssertAndTrack, 4, Main),
    t(Main, &Push, 2, Main),
    t(Main, &Pop, 2, Main),
    // Shadows by yield (bench/README.md, the 15-minute profile): the translate that starts
    // one took 9% of the CPU for one finding in 2,695 rounds, so they start half as often.
    t(Main, &StartShadow, 1, Main),
    t(Main, &StopShadow, 2, Main),
    // Checks in the middle of building: 600 rounds (`bench/mbt.sh 600 1 1`, release, one
    // run) at weights 0 / 4 / 8 / 14 gave 1.72 / 3.54 / 5.05 / 7.35 check-sats per round at
    // 109 / 112 / 108 / 116 ms CPU, and 4 / 5 / 4 / 6 crash-type findings: incremental checks
    // of small formulas are the cheapest solver work there is. Seeds 3001..4500, 14 -> 24:
    // 7.67 -> 10.76 check-sats at 110 -> 102 ms, 26 -> 31 unique findings, 7 -> 9 crash-type.
    t(Main, &IncrementalCheck, 24, Main),
    t(Main, &EndMain, 8, Sat),
    t(Main, &EndMain, 2, DumpFormula),
    // Dump Formula: then conclude, or go on as after a check (unless the check answered
    // unknown, see `IncrementalStep`).
    t(DumpFormula, &DumpRoundTrip, 2, ResetIncremental),
    t(DumpFormula, &DumpRoundTrip, 1, Delete),
    // Sat.
    // Sat, by yield: checks under assumptions found 3 of the 7 crashes of the 15-minute
    // profile at a quarter of check_sat's CPU, so they are the more frequent.
    t(Sat, &CheckSat, 2, QueryModel),
    t(Sat, &CheckSatAssuming, 3, QueryModel),
    // Query Model (or the unsat core, or another configuration).
    t(QueryModel, &EvalModel, 8, ResetIncremental),
    t(QueryModel, &QueryCore, 8, ResetIncremental),
    t(QueryModel, &CrossCheck, 2, ResetIncremental),
    // 35 ms each and no finding in the 15-minute profile: half its former weight.
    t(QueryModel, &RecoverAfterLimit, 1, ResetIncremental),
    // By yield (bench/README.md, the profiles of c385ac5 and 77e4655): a check in another
    // context, translated half the time, made a crash-type finding in each of the three
    // profiles (translate_config, check_sat) at 2-6% of the CPU.
    t(QueryModel, &OtherContext, 5, ResetIncremental),
    t(QueryModel, &Consequences, 2, ResetIncremental),
    t(QueryModel, &Cubes, 2, ResetIncremental),
    t(QueryModel, &Congruence, 2, ResetIncremental),
    t(QueryModel, &SimplifierCheck, 1, ResetIncremental),
    t(QueryModel, &InitialValueCheck, 1, ResetIncremental),
    // Newer Z3s only (rounds on 4.8.12 are unchanged): at weight 1 the proof checker was in
    // 4.1% and the propagator in 5.5% of rounds on 5.4.1, under or at the 5% every family
    // gets; the propagator made 2 findings in 941 rounds at 0.5% of the CPU.
    t(QueryModel, &PropagatorCheck, 2, ResetIncremental),
    t(QueryModel, &ProofCallbackCheck, 2, ResetIncremental),
    t(
        QueryModel,
        &crate::families::SolverIntrospect,
        1,
        ResetIncremental,
    ),
    t(
        QueryModel,
        &crate::families::SolverQueries,
        2,
        ResetIncremental,
    ),
    t(QueryModel, &Skip, 1, ResetIncremental),
    // Reset for Incremental Usage, or conclude.
    t(ResetIncremental, &IncrementalStep, 3, Main),
    t(ResetIncremental, &Skip, 1, Delete),
    t(Delete, &DeleteAll, 1, Done),
];

/// Most steps a round may take; a round that needs more is a bug in the machine.
pub const MAX_STEPS: usize = 20_000;

/// Runs a round from New to Done.
pub fn drive(cx: &mut RoundState<'_>) -> Result<(), Failure> {
    let mut state = MState::New;
    for _ in 0..MAX_STEPS {
        if state == MState::Done {
            return Ok(());
        }
        cx.stats
            .states
            .entry(state.name().into())
            .or_default()
            .tried += 1;
        let candidates: Vec<&Transition> = TRANSITIONS
            .iter()
            .filter(|t| t.from == state && t.action.applies(cx))
            .collect();
        let total: u32 = candidates.iter().map(|t| t.weight).sum();
        if total == 0 {
            return Err(Failure::new(
                FailureKind::Internal,
                format!("no transition applies in state {}", state.name()),
            ));
        }
        let mut roll = cx.rng.random_range(0..total);
        let chosen = candidates
            .iter()
            .find(|t| {
                if roll < t.weight {
                    true
                } else {
                    roll -= t.weight;
                    false
                }
            })
            .copied()
            .unwrap_or(candidates[0]);
        let name = chosen.action.name();
        cx.stats.actions.entry(name.into()).or_default().tried += 1;
        untrace::profile::begin(cx.seed, name);
        let started = untrace::profile::start();
        let ran = chosen.action.run(cx);
        untrace::profile::record("action", name, started);
        if ran? {
            cx.stats.actions.entry(name.into()).or_default().ok += 1;
            cx.stats.states.entry(state.name().into()).or_default().ok += 1;
        }
        if state == MState::Main {
            cx.budget.main_left = cx.budget.main_left.saturating_sub(1);
        }
        if chosen.to == MState::Main && state != MState::Main {
            // Entering Main: a fresh budget of operations.
            cx.budget.main_left = cx.shape.n_main;
        }
        state = chosen.to;
    }
    Err(Failure::new(
        FailureKind::Internal,
        format!("the round did not reach Done within {MAX_STEPS} steps"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_state_but_done_has_an_exit_and_is_reachable() {
        let states = [
            New,
            SetOptions,
            InitExprs,
            Main,
            DumpFormula,
            Sat,
            QueryModel,
            ResetIncremental,
            Delete,
        ];
        for s in states {
            assert!(
                TRANSITIONS.iter().any(|t| t.from == s && t.to != s),
                "{s:?} has no exit"
            );
            assert!(
                s == New || TRANSITIONS.iter().any(|t| t.to == s && t.from != s),
                "{s:?} unreachable"
            );
        }
        assert!(TRANSITIONS.iter().all(|t| t.from != Done && t.weight > 0));
    }
}
