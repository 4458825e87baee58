//! The readers of Optimize contexts that `opt_read` names by their C function
//! ([`OPT_READERS`]) and those of models built by hand that `model_read` names
//! ([`MODEL_READERS`]), each with what the executor judges it by.
//!
//! A reader is one row, not a call: its trace line names the function as a string, so the
//! binary format never numbers readers (as `crate::goals` does). Every reader records `ok`:
//! the texts they read name Z3's internals and differ between releases.

/// Every Optimize reader: its C function and whether only releases after 4.8.12 have it.
///
/// The `z3` crate gives no raw handle of an Optimize context: each reader is asked of a copy
/// made through z3-sys in the main context (its hard constraints, soft constraints and
/// objectives, a push between its scopes), checked under a resource limit where the reader
/// reads a check.
pub const OPT_READERS: &[(&str, bool)] = &[
    // Parsed back into a fresh Optimize context (`Z3_optimize_from_string`), which answers
    // the same check with the same objective values (`Z3_optimize_get_lower`).
    ("Z3_optimize_to_string", false),
    // The same through a file of a private folder.
    ("Z3_optimize_from_file", false),
    // The hard constraints asserted, in order (`Z3_is_eq_ast`).
    ("Z3_optimize_get_assertions", false),
    // One per objective, in Z3's order: a minimized term itself, a maximized one negated, a
    // soft group its penalty `(+ (ite s 0 w) ...)`; equal after simplification, or
    // equivalent by a reference solver.
    ("Z3_optimize_get_objectives", false),
    // After a sat check, per objective: the vector `a b c` of `a*oo + b + c*epsilon`
    // agrees with `Z3_optimize_get_lower` (`_upper`): a numeral bound is `0 b 0`.
    ("Z3_optimize_get_lower_as_vector", false),
    ("Z3_optimize_get_upper_as_vector", false),
    // Each hard constraint tracked by a fresh label (`Z3_optimize_assert_and_track`), and
    // the first one's negation too: the copy is unsat, its core a non-empty subset of the
    // labels whose constraints a reference solver finds unsat.
    ("Z3_optimize_get_unsat_core", false),
    // After a check under a resource limit of 1: unknown with a reason.
    ("Z3_optimize_get_reason_unknown", false),
    // After a check: every key named, exactly one of `Z3_stats_is_uint` and
    // `Z3_stats_is_double`, doubles finite and not negative.
    ("Z3_optimize_get_statistics", false),
    // Into a fresh context: the copy answers the same check with the same objective values.
    ("Z3_optimize_translate", true),
];

/// The row of an Optimize reader: whether only releases after 4.8.12 have it.
pub fn opt_reader(function: &str) -> Option<bool> {
    OPT_READERS
        .iter()
        .find(|(name, _)| *name == function)
        .map(|(_, newer)| *newer)
}

/// Every reader of a model built by hand (`model_new`, `model_const`, `model_func`), judged
/// against what the trace wrote into it.
pub const MODEL_READERS: &[&str] = &[
    // Each function written: `Z3_model_get_func_interp` gives its arity
    // (`Z3_func_interp_get_arity`), entries (`Z3_func_interp_get_num_entries`,
    // `Z3_func_entry_get_num_args`, `_get_arg`, `_get_value`: an entry written again for the
    // same arguments holds the last value) and else value as written.
    "Z3_model_get_func_interp",
    // True for every constant and function written, false for the other functions of the
    // trace.
    "Z3_model_has_interp",
    // The text names every constant and function written.
    "Z3_model_to_string",
    // Into a fresh context: every constant written and every entry's application evaluate
    // to the same values there.
    "Z3_model_translate",
    // Of the conjunction of the equations written (each constant its value, each entry's
    // application its value): a formula true in the model.
    "Z3_model_extrapolate",
];

/// Whether `function` is a reader of a model built by hand.
pub fn model_reader(function: &str) -> bool {
    MODEL_READERS.contains(&function)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readers_are_found_by_name() {
        assert_eq!(opt_reader("Z3_optimize_to_string"), Some(false));
        assert_eq!(opt_reader("Z3_optimize_translate"), Some(true));
        assert_eq!(opt_reader("Z3_optimize_check"), None);
        assert!(model_reader("Z3_model_has_interp"));
        assert!(!model_reader("Z3_model_eval"));
    }
}
