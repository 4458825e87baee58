//! The readers of goals that `goal_read` names by their C function ([`GOAL_READERS`]), the
//! probe combinators of `probe_apply` ([`PROBE_OPS`]), and the solver readers of
//! `solver_read` ([`SOLVER_READERS`]), each with when it applies and what it records.
//!
//! A reader is one row, not a call: its trace line names the function as a string, so the
//! binary format never numbers readers (as `crate::read` and `crate::fixedpoint` do).

/// What a reader records as its `return` value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A number (`Z3_goal_depth`), compared on replay.
    Number,
    /// `true` or `false`, compared on replay.
    Flag,
    /// A text or an effect; the executor judges it and records `ok` (texts name Z3's
    /// internals and differ between releases).
    Done,
}

/// When a goal reader may be called.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoalWhen {
    /// On any goal.
    Always,
    /// On a goal a tactic was applied to (the application's result is read).
    Applied,
    /// On a subgoal of an application to a goal that keeps models (its model converter
    /// turns a model of the subgoal into one of the goal).
    SubgoalWithModels,
}

/// Every goal reader: its C function, what it records, when it applies.
pub const GOAL_READERS: &[(&str, Answer, GoalWhen)] = &[
    ("Z3_goal_depth", Answer::Number, GoalWhen::Always),
    ("Z3_goal_num_exprs", Answer::Number, GoalWhen::Always),
    ("Z3_goal_inconsistent", Answer::Flag, GoalWhen::Always),
    ("Z3_goal_is_decided_sat", Answer::Flag, GoalWhen::Always),
    ("Z3_goal_is_decided_unsat", Answer::Flag, GoalWhen::Always),
    ("Z3_goal_to_string", Answer::Done, GoalWhen::Always),
    // Z3 refuses goals that are not in conjunctive normal form over Booleans: a recorded
    // refusal.
    ("Z3_goal_to_dimacs_string", Answer::Done, GoalWhen::Always),
    // Into a fresh context (made by `Z3_mk_context`, the maker without reference counting):
    // the copy prints as the goal does.
    ("Z3_goal_translate", Answer::Done, GoalWhen::Always),
    // The goal emptied: its size is 0 after.
    ("Z3_goal_reset", Answer::Done, GoalWhen::Always),
    ("Z3_apply_result_to_string", Answer::Done, GoalWhen::Applied),
    // The catalogs of the goal's context: every tactic of `crate::options::GOAL_TACTICS` is
    // among Z3's tactic names (`Z3_get_num_tactics`), each described (`Z3_tactic_get_descr`),
    // and a tactic made by name has help (`Z3_tactic_get_help`); every probe of
    // `crate::options::PROBES` among its probe names, each described (`Z3_probe_get_descr`).
    ("Z3_get_tactic_name", Answer::Done, GoalWhen::Always),
    ("Z3_get_probe_name", Answer::Done, GoalWhen::Always),
    // A model of the subgoal (a fresh solver's) converted: it satisfies every formula of
    // the goal the tactic was applied to.
    (
        "Z3_goal_convert_model",
        Answer::Done,
        GoalWhen::SubgoalWithModels,
    ),
];

/// The row of a goal reader.
pub fn goal_reader(function: &str) -> Option<(Answer, GoalWhen)> {
    GOAL_READERS
        .iter()
        .find(|(name, ..)| *name == function)
        .map(|(_, answer, when)| (*answer, *when))
}

/// The combinators of `probe_apply`: `value` applies one probe, `not` negates one, `and` and
/// `or` combine two (`Z3_probe_not`, `Z3_probe_and`, `Z3_probe_or`); with how many probes.
pub const PROBE_OPS: &[(&str, usize)] = &[("value", 1), ("not", 1), ("and", 2), ("or", 2)];

/// What a combinator's value must be, from its probes' values on the same goal: a probe is
/// true where its value is not 0 (Z3's `probe::result::is_true`), a Boolean combination is
/// 1 or 0.
pub fn probe_combined(op: &str, values: &[f64]) -> Option<f64> {
    let truth = |v: f64| v != 0.0;
    let of = |b: bool| if b { 1.0 } else { 0.0 };
    match (op, values) {
        ("value", [a]) => Some(*a),
        ("not", [a]) => Some(of(!truth(*a))),
        ("and", [a, b]) => Some(of(truth(*a) && truth(*b))),
        ("or", [a, b]) => Some(of(truth(*a) || truth(*b))),
        _ => None,
    }
}

/// When a solver reader may be called.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolverWhen {
    /// On any solver.
    Always,
    /// After a check that answered `unknown`.
    Unknown,
}

/// Every solver reader: its C function, what it records, when it applies. The functions
/// the `z3` crate does not wrap are asked of a copy of the solver made through z3-sys in
/// its context (the crate gives no raw handle of a solver): the solver's assertions in
/// its scopes (a push per scope), checked under a resource limit where the function reads
/// a search.
pub const SOLVER_READERS: &[(&str, Answer, SolverWhen)] = &[
    // The reference state's push depth.
    (
        "Z3_solver_get_num_scopes",
        Answer::Number,
        SolverWhen::Always,
    ),
    // The copy's help (`Z3_solver_get_help`) names every parameter its descriptions
    // (`Z3_solver_get_param_descrs`) hold.
    (
        "Z3_solver_get_param_descrs",
        Answer::Done,
        SolverWhen::Always,
    ),
    // Not empty after `unknown`.
    (
        "Z3_solver_get_reason_unknown",
        Answer::Done,
        SolverWhen::Unknown,
    ),
    // Parsed back into a fresh solver (`Z3_solver_from_string`), which holds no more
    // assertions (Z3 prints a checked solver's preprocessed assertions, maybe fewer).
    ("Z3_solver_to_string", Answer::Done, SolverWhen::Always),
    // The same through a file of the round's private folder (`Z3_solver_from_file`).
    ("Z3_solver_from_file", Answer::Done, SolverWhen::Always),
    // A header whose counts match its clauses (Z3 refuses some problems: a recorded
    // refusal), and where the assertions are propositional (Z3 writes other atoms as
    // variables) the clauses, read back as a formula of Boolean constants, have the copy's
    // answer for a reference solver.
    (
        "Z3_solver_to_dimacs_string",
        Answer::Done,
        SolverWhen::Always,
    ),
    // After a bounded check of the copy: each unit literal follows from the assertions (a
    // fresh solver finds the assertions and its negation unsat; unknown is no verdict).
    ("Z3_solver_get_units", Answer::Done, SolverWhen::Always),
    ("Z3_solver_get_non_units", Answer::Done, SolverWhen::Always),
    // The trail and its levels (`Z3_solver_get_levels`, one per literal): literals at level
    // 0 follow from the assertions.
    ("Z3_solver_get_trail", Answer::Done, SolverWhen::Always),
    // The model converter of a solver made by a tactic (`Z3_mk_solver_from_tactic`)
    // imported into a simple solver (`Z3_mk_simple_solver`), which answers as before.
    (
        "Z3_solver_import_model_converter",
        Answer::Done,
        SolverWhen::Always,
    ),
    // From a second thread while the copy checks (`Z3_solver_interrupt`): unknown or its
    // answer, and the copy answers a check after as before.
    ("Z3_solver_interrupt", Answer::Done, SolverWhen::Always),
    // The rows below are the solver queries (`untrace::executor::solver_queries`).
    // The levels of the trail's literals after a check of the copy: none above the trail's
    // length, in the trail's order (Z3 documents the trail "in order of decision level").
    ("Z3_solver_get_levels", Answer::Done, SolverWhen::Always),
    // The uninterpreted constants of the assertions in classes: two terms of one class are
    // equal in every model (a reference solver finds their disequality with the assertions
    // unsat; unknown is no verdict).
    (
        "Z3_get_implied_equalities",
        Answer::Done,
        SolverWhen::Always,
    ),
    // The copy's text (`Z3_solver_to_string`) through a file of a private folder: the file
    // parses to the same assertions as the text (`Z3_parse_smtlib2_string`).
    ("Z3_parse_smtlib2_file", Answer::Done, SolverWhen::Always),
    // Releases after 4.8.12 (looked up by name, `NEWER_SOLVER_READERS`): the solutions of
    // the assertions' Int and Real constants a simple solver gives after a check; under its
    // guard, each follows from the assertions (a reference solver).
    ("Z3_solver_solve_for", Answer::Done, SolverWhen::Always),
    // The first uninterpreted function of the assertions (a constant where they apply none)
    // replaced by a fresh constant or one of its arguments (`Z3_substitute_funs`): the same term as replaced by hand, application
    // by application (`Z3_substitute_vars`), or one a reference solver cannot tell apart.
    ("Z3_substitute_funs", Answer::Done, SolverWhen::Always),
];

/// The solver readers only releases after 4.8.12 have: looked up by name where the loaded
/// libz3 has them, never linked; a replay on a release without them refuses the trace.
pub const NEWER_SOLVER_READERS: &[&str] = &["Z3_solver_solve_for", "Z3_substitute_funs"];

/// The solver queries (the last rows of [`SOLVER_READERS`]), which only mbt's
/// `solver_queries` action asks (its introspection action draws from the other rows).
pub const QUERY_ONLY: &[&str] = &[
    "Z3_solver_get_levels",
    "Z3_get_implied_equalities",
    "Z3_parse_smtlib2_file",
    "Z3_solver_solve_for",
    "Z3_substitute_funs",
];

/// What mbt's `solver_queries` action asks: the queries, and the DIMACS and interrupt
/// readers, which one row in eleven of the introspection action reached too rarely.
pub const SOLVER_QUERIES: &[&str] = &[
    "Z3_solver_get_levels",
    "Z3_solver_to_dimacs_string",
    "Z3_solver_interrupt",
    "Z3_get_implied_equalities",
    "Z3_parse_smtlib2_file",
    "Z3_solver_solve_for",
    "Z3_substitute_funs",
];

/// The row of a solver reader.
pub fn solver_reader(function: &str) -> Option<(Answer, SolverWhen)> {
    SOLVER_READERS
        .iter()
        .find(|(name, ..)| *name == function)
        .map(|(_, answer, when)| (*answer, *when))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probe_combinations_follow_the_truth_of_their_probes() {
        assert_eq!(probe_combined("value", &[7.0]), Some(7.0));
        assert_eq!(probe_combined("not", &[7.0]), Some(0.0));
        assert_eq!(probe_combined("not", &[0.0]), Some(1.0));
        assert_eq!(probe_combined("and", &[2.0, 0.0]), Some(0.0));
        assert_eq!(probe_combined("and", &[2.0, 1.0]), Some(1.0));
        assert_eq!(probe_combined("or", &[0.0, 3.0]), Some(1.0));
        assert_eq!(probe_combined("or", &[0.0, 0.0]), Some(0.0));
        assert_eq!(probe_combined("and", &[1.0]), None);
        assert_eq!(probe_combined("xor", &[1.0, 1.0]), None);
    }

    #[test]
    fn every_solver_query_is_a_solver_reader() {
        for name in SOLVER_QUERIES
            .iter()
            .chain(QUERY_ONLY)
            .chain(NEWER_SOLVER_READERS)
        {
            assert!(solver_reader(name).is_some(), "{name}");
        }
        assert!(QUERY_ONLY.iter().all(|q| SOLVER_QUERIES.contains(q)));
    }

    #[test]
    fn readers_are_found_by_name() {
        assert_eq!(
            goal_reader("Z3_goal_depth"),
            Some((Answer::Number, GoalWhen::Always))
        );
        assert_eq!(goal_reader("Z3_goal_size"), None);
        assert_eq!(
            solver_reader("Z3_solver_get_reason_unknown"),
            Some((Answer::Done, SolverWhen::Unknown))
        );
    }
}
