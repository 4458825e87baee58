//! Removal passes: [`remove_calls`] (ddmin over call units, each removal completed by the
//! calls that depend on it) and [`drop_results`] (ddmin over recorded answers that no later
//! call needs: `check_sat` results, unsat cores, model values).

use crate::session::Session;
use model::Ret;
use reduce::ddmin;

/// Line-level ddmin over call units (a call and its `return` line are one unit). A removal
/// also removes every later call it makes invalid, transitively: the users of a removed
/// result, a `pop` without its `push`, a `get_model` without its `check_sat` (see
/// [`crate::validity::Validity::repair`]).
pub fn remove_calls(s: &mut Session) {
    let current = s.current.clone();
    let (format, validity) = (s.format, s.validity);
    ddmin(s.reducer, "remove", current.len(), |keep| {
        let removed: Vec<bool> = keep.iter().map(|k| !k).collect();
        let candidate = validity.repair(&current, &removed);
        Session::render_checked(format, validity, &candidate)
    });
    s.sync();
}

/// ddmin over the `return` lines of calls whose answer is only compared, never used as an
/// id: the replay then has nothing to compare for them.
pub fn drop_results(s: &mut Session) {
    let current = s.current.clone();
    let units: Vec<usize> = current
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e.ret, Some(Ret::Sat(_) | Ret::Core(_) | Ret::Value(_))))
        .map(|(i, _)| i)
        .collect();
    if units.is_empty() {
        return;
    }
    let (format, validity) = (s.format, s.validity);
    ddmin(s.reducer, "results", units.len(), |keep| {
        let mut candidate = current.clone();
        for (&u, &k) in units.iter().zip(keep) {
            if !k {
                candidate[u].ret = None;
            }
        }
        Session::render_checked(format, validity, &candidate)
    });
    s.sync();
}
