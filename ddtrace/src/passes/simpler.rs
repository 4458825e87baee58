//! [`simpler_calls`]: calls replaced by simpler calls of the same effect on the failure, if
//! the failure stays: `assert_and_track` by `assert` (its tracker may then go), a
//! `check_sat_assuming` by `check_sat` (its assumptions may then go), a solver for a logic or
//! from a tactic (by name or tactic object) by the default solver, a tactic object by the
//! tactic `skip` (its operands may then go). Each replacement also names less to debug: the
//! minimized trace says the failure needs none of it.

use crate::session::Session;
use model::{Call, SolverKind, TacticExpr};

/// The tactic that changes nothing.
const SKIP: &str = "skip";
use reduce::substitute;

/// The simpler form of `call`, if it has one.
pub fn simpler(call: &Call) -> Option<Call> {
    Some(match call {
        Call::AssertAndTrack { solver, term, .. } => Call::Assert(*solver, *term),
        Call::CheckSatAssuming(z, _) => Call::CheckSat(*z),
        Call::NewSolver(
            SolverKind::Logic(_) | SolverKind::Tactic(_) | SolverKind::FromTactic(_),
        ) => Call::NewSolver(SolverKind::Default),
        Call::MkTactic(expr) if *expr != TacticExpr::Named(SKIP.into()) => {
            Call::MkTactic(TacticExpr::Named(SKIP.into()))
        }
        _ => return None,
    })
}

pub fn simpler_calls(s: &mut Session) {
    let current = s.current.clone();
    let units: Vec<(usize, Call)> = current
        .iter()
        .enumerate()
        .filter_map(|(i, e)| simpler(&e.call).map(|c| (i, c)))
        .collect();
    if units.is_empty() {
        return;
    }
    let (format, validity) = (s.format, s.validity);
    substitute(s.reducer, "simpler-calls", units.len(), |mask| {
        let mut candidate = current.clone();
        for ((i, call), _) in units.iter().zip(mask).filter(|(_, m)| **m) {
            candidate[*i].call = call.clone();
        }
        Session::render_checked(format, validity, &candidate)
    });
    s.sync();
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::{SolverId, TermId};

    #[test]
    fn tactic_objects_become_skip() {
        let and_then = Call::MkTactic(TacticExpr::AndThen(model::TacticId(1), model::TacticId(2)));
        let skip = Call::MkTactic(TacticExpr::Named("skip".into()));
        assert_eq!(simpler(&and_then), Some(skip.clone()));
        assert_eq!(simpler(&skip), None);
        assert_eq!(
            simpler(&Call::NewSolver(SolverKind::FromTactic(model::TacticId(1)))),
            Some(Call::NewSolver(SolverKind::Default))
        );
    }

    #[test]
    fn tracking_assumptions_and_configurations_have_simpler_forms() {
        let z = SolverId(1);
        assert_eq!(
            simpler(&Call::AssertAndTrack {
                solver: z,
                term: TermId(2),
                tracker: TermId(3)
            }),
            Some(Call::Assert(z, TermId(2)))
        );
        assert_eq!(
            simpler(&Call::CheckSatAssuming(z, vec![TermId(4)])),
            Some(Call::CheckSat(z))
        );
        assert_eq!(
            simpler(&Call::NewSolver(SolverKind::Tactic("smt".into()))),
            Some(Call::NewSolver(SolverKind::Default))
        );
        for plain in [
            Call::Assert(z, TermId(2)),
            Call::CheckSat(z),
            Call::NewSolver(SolverKind::Default),
        ] {
            assert_eq!(simpler(&plain), None, "{plain:?}");
        }
    }
}
