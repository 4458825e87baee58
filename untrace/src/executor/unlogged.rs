//! The executor's own calls of the Z3 functions that Z3's API log never shows
//! (`z3log::table::NOT_LOGGED`, `NOT_LOGGED_CALLBACKS`, `NOT_LOGGED_NEWER`): counted where the executor makes them, so that a campaign's
//! API coverage, read from each round's log, sees them too (`mbt::api_coverage` adds
//! [`take`] to the log's counts).

use std::collections::BTreeMap;
use std::sync::Mutex;

static CALLS: Mutex<BTreeMap<&'static str, u64>> = Mutex::new(BTreeMap::new());

/// Counts one call of `function` if the log cannot show it (other functions the log counts).
pub fn note(function: &str) {
    if let Some(name) = z3log::table::NOT_LOGGED
        .iter()
        .chain(z3log::table::NOT_LOGGED_CALLBACKS)
        .chain(z3log::table::NOT_LOGGED_NEWER)
        .find(|n| **n == function)
    {
        let mut calls = CALLS.lock().unwrap_or_else(|e| e.into_inner());
        *calls.entry(name).or_default() += 1;
    }
}

/// The calls counted since the last `take`, by function; the count starts again.
pub fn take() -> BTreeMap<String, u64> {
    let mut calls = CALLS.lock().unwrap_or_else(|e| e.into_inner());
    std::mem::take(&mut *calls)
        .into_iter()
        .map(|(name, n)| (name.to_string(), n))
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_the_functions_no_log_shows_are_counted() {
        super::take();
        super::note("Z3_is_eq_ast");
        super::note("Z3_is_eq_ast");
        super::note("Z3_mk_add");
        let calls = super::take();
        assert_eq!(calls.len(), 1);
        assert_eq!(calls["Z3_is_eq_ast"], 2);
        assert!(super::take().is_empty());
    }
}
