//! What the model knows of Z3's configuration space that Z3 cannot tell at run time:
//! the logics, tactics and probes that `Solver::new_for_logic`, `Tactic::new` and `Probe::new`
//! accept on 4.8.12 and 5.4.1.
//! The parameters themselves are read from the loaded Z3 (`Z3_solver_get_param_descrs`, by
//! `untrace::executor::solver_param_descrs`) as [`ParamDescr`]s.

/// The kind of a parameter as Z3 reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ParamKind {
    Uint,
    Bool,
    Double,
    Symbol,
    String,
    Other,
}

/// One parameter description read from Z3.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ParamDescr {
    pub name: String,
    pub kind: ParamKind,
    pub doc: String,
}

/// Logics accepted by `new_solver logic`.
pub const LOGICS: &[&str] = &[
    "QF_BV",
    "QF_ABV",
    "QF_UFBV",
    "QF_AUFBV",
    "QF_LIA",
    "QF_LRA",
    "QF_NIA",
    "QF_NRA",
    "QF_UF",
    "QF_UFLIA",
    "QF_UFLRA",
    "QF_UFNIA",
    "QF_AX",
    "QF_ALIA",
    "QF_AUFLIA",
    "QF_FP",
    "QF_BVFP",
    "QF_S",
    "QF_SLIA",
    "LIA",
    "LRA",
    "NIA",
    "NRA",
    "UF",
    "UFLIA",
    "AUFLIA",
    "ALL",
];

/// Tactics accepted by `new_solver tactic` (each has a solver form).
pub const TACTICS: &[&str] = &[
    "smt", "qfbv", "qflia", "qflra", "qfnia", "qfnra", "qfuf", "qfufbv", "qfaufbv", "qffp",
    "qfbv-sls", "sat", "nlsat", "default",
];

/// The context configuration parameters (`Z3_set_param_value` on a `Z3_config`) that
/// `new_solver_config` and `translate_config` accept, each Boolean: those both Z3 4.8.12 and
/// 5.4.1 take through the API. Left out: `model_validate` and `well_sorted_check` (5.4.1 warns
/// "can only be set for the shell, not binary API" and ignores them), `trace`, `trace_file_name`
/// and `dot_proof_file` (they write files), `debug_ref_count` (debugging Z3 itself), numeric
/// `timeout`/`rlimit` (solver parameters do that), `encoding`/`unicode` (one version only).
pub const CONTEXT_PARAMS: &[&str] = &[
    "proof",
    "unsat_core",
    "model",
    "auto_config",
    "type_check",
    "smtlib2_compliant",
    "stats",
];

/// Tactics of tactic objects (`tactic "NAME"`), applied to goals and combined: each known by
/// Z3 4.8.12 and 5.4.1 (`Z3_get_tactic_name`), cheap on the small formulas of a round, and
/// none that needs proofs or unsat cores switched on in the context. Left out: tactics that
/// bound their steps by the clock (`qflia`, `qflra`, `qfnra` and `default`, which may pick
/// them, use `try-for` inside), whose answers a replay under another load would not repeat.
pub const GOAL_TACTICS: &[&str] = &[
    "simplify",
    "propagate-values",
    "ctx-simplify",
    "ctx-solver-simplify",
    "solve-eqs",
    "elim-uncnstr",
    "elim-term-ite",
    "split-clause",
    "skip",
    "fail",
    "tseitin-cnf",
    "nnf",
    "purify-arith",
    "propagate-ineqs",
    "normalize-bounds",
    "lia2pb",
    "bit-blast",
    "bv1-blast",
    "max-bv-sharing",
    "reduce-bv-size",
    "bvarray2uf",
    "ackermannize_bv",
    "card2bv",
    "pb2bv",
    "fpa2bv",
    "eq2bv",
    "dom-simplify",
    "der",
    "distribute-forall",
    "reduce-args",
    "elim-and",
    "aig",
    "dt2bv",
    "degree-shift",
    "diff-neq",
    "fix-dl-var",
    "factor",
    "symmetry-reduce",
    "occf",
    "smt",
    "sat",
    "qfbv",
    "qffp",
];

/// Simplifiers (`Z3_mk_simplifier`, releases from 4.12.2 on) that `check_simplifier` chains in
/// front of a solver (`Z3_solver_add_simplifier`): names `Z3_get_simplifier_name` lists on
/// Z3 5.4.1, cheap on the small formulas of a round. Left out: the finite-field ones
/// (`ff-*`, for a theory the rounds do not build), `randomizer` (shuffles and renames: a
/// difference of answers would be no simplifier's bug but the search's) and those that only
/// the latest releases have (`bv-divrem-bounds`).
pub const SIMPLIFIERS: &[&str] = &[
    "simplify",
    "solve-eqs",
    "elim-unconstrained",
    "propagate-values",
    "elim-term-ite",
    "der",
    "max-bv-sharing",
    "card2bv",
    "bit-blast",
    "bv1-blast",
    "reduce-args",
    "dom-simplify",
    "propagate-ineqs",
    "cofactor-term-ite",
    "elim-predicates",
    "euf-completion",
    "bv-slice",
    "demodulator",
    "distribute-forall",
    "pull-nested-quantifiers",
    "push-app-ite",
    "blast-term-ite",
    "qe-light",
    "factor",
    "special-relations",
    "bit2int",
    "injectivity",
];

/// Boolean parameters of simplifiers (`Z3_simplifier_using_params`): each with a simplifier
/// of [`SIMPLIFIERS`] whose parameter descriptions (`Z3_simplifier_get_param_descrs`, on
/// Z3 5.4.1) list it. Z3 refuses a key that no simplifier of the chain describes.
pub const SIMPLIFIER_PARAMS: &[(&str, &str)] = &[
    ("solve-eqs", "context_solve"),
    ("solve-eqs", "theory_solver"),
    ("solve-eqs", "ite_solver"),
    ("solve-eqs", "eliminate_mod"),
    ("simplify", "som"),
    ("simplify", "flat"),
    ("simplify", "hoist_mul"),
    ("simplify", "elim_and"),
    ("simplify", "sort_sums"),
    ("simplify", "ite_extra_rules"),
    ("propagate-values", "push_ite_arith"),
    ("propagate-values", "blast_distinct"),
    ("cofactor-term-ite", "cofactor_equalities"),
    ("card2bv", "keep_cardinality_constraints"),
    ("bit-blast", "blast_mul"),
    ("bit-blast", "blast_add"),
];

/// Probes a `tactic_when` / `tactic_cond` may test (`Probe::new`), known by both versions.
pub const PROBES: &[&str] = &[
    "num-consts",
    "num-exprs",
    "size",
    "depth",
    "num-bool-consts",
    "num-arith-consts",
    "num-bv-consts",
    "is-qfbv",
    "is-qflia",
    "is-qflra",
    "is-propositional",
    "has-quantifiers",
    "arith-max-deg",
];
