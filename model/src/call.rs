//! API calls and their recorded results: the vocabulary of a trace.
//!
//! A [`Call`] is one Z3 API call with its arguments; objects it creates get ids chosen by the
//! recorder (`s` sorts, `t` terms, `f` function declarations, `z` solvers, `m` models, `k`
//! tactics, `g` goals, `o` Optimize contexts, `r` real closed field numbers). The
//! [`Ret`] is what the call returned, recorded so that a replay can compare (or the error Z3
//! refused it with, [`Ret::Error`]; [`normalize_error`] is how messages are compared). An
//! [`Entry`] is a call with its result, the unit that minimizers move around.

use crate::call_args::{CallSpec, Family, HeadOf, List, Smt2, Visit, VisitMut};
use crate::datatype::{DatatypeDecl, DeclPath};
use crate::ops::OpSpec;
pub use crate::rcf::RcfCmp;
use crate::Sort;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident, $prefix:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub struct $name(pub u32);

        impl $name {
            /// The letter that starts this id in a text trace.
            pub const PREFIX: char = $prefix;
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}{}", $prefix, self.0)
            }
        }
    };
}

id_type!(
    /// A sort, `s1`.
    SortId,
    's'
);
id_type!(
    /// A term, `t1`.
    TermId,
    't'
);
id_type!(
    /// An uninterpreted function declaration, `f1`.
    FuncId,
    'f'
);
id_type!(
    /// A solver, `z1`.
    SolverId,
    'z'
);
id_type!(
    /// A model, `m1`.
    ModelId,
    'm'
);

id_type!(
    /// A tactic, `k1`.
    TacticId,
    'k'
);
id_type!(
    /// A goal (formulas a tactic is applied to), `g1`.
    GoalId,
    'g'
);
id_type!(
    /// An Optimize context, `o1`.
    OptId,
    'o'
);
id_type!(
    /// A real closed field number (`Z3_rcf_num`), `r1`.
    RcfId,
    'r'
);

/// Any object id, for calls that take objects of every kind (`release`). Variants are
/// appended only (the binary format numbers them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum AnyId {
    Sort(SortId),
    Term(TermId),
    Func(FuncId),
    Solver(SolverId),
    Model(ModelId),
    Tactic(TacticId),
    Goal(GoalId),
    Opt(OptId),
    Rcf(RcfId),
}

impl AnyId {
    /// How many kinds of ids there are.
    pub const KINDS: usize = 9;

    /// The id's kind (an index below [`AnyId::KINDS`]) and number: what recorders count
    /// per kind and minimizers renumber.
    pub fn slot(self) -> (usize, u32) {
        match self {
            AnyId::Sort(SortId(n)) => (0, n),
            AnyId::Term(TermId(n)) => (1, n),
            AnyId::Func(FuncId(n)) => (2, n),
            AnyId::Solver(SolverId(n)) => (3, n),
            AnyId::Model(ModelId(n)) => (4, n),
            AnyId::Tactic(TacticId(n)) => (5, n),
            AnyId::Goal(GoalId(n)) => (6, n),
            AnyId::Opt(OptId(n)) => (7, n),
            AnyId::Rcf(RcfId(n)) => (8, n),
        }
    }

    /// The id of kind `kind` (as [`AnyId::slot`] numbers kinds) and number `n`.
    pub fn from_slot(kind: usize, n: u32) -> Option<AnyId> {
        Some(match kind {
            0 => AnyId::Sort(SortId(n)),
            1 => AnyId::Term(TermId(n)),
            2 => AnyId::Func(FuncId(n)),
            3 => AnyId::Solver(SolverId(n)),
            4 => AnyId::Model(ModelId(n)),
            5 => AnyId::Tactic(TacticId(n)),
            6 => AnyId::Goal(GoalId(n)),
            7 => AnyId::Opt(OptId(n)),
            8 => AnyId::Rcf(RcfId(n)),
            _ => return None,
        })
    }

    /// The id of the same kind with number `n`.
    pub fn with_number(self, n: u32) -> AnyId {
        AnyId::from_slot(self.slot().0, n).expect("a kind of slot()")
    }

    /// The letter of the id's kind in a text trace.
    pub fn prefix(self) -> char {
        ['s', 't', 'f', 'z', 'm', 'k', 'g', 'o', 'r'][self.slot().0]
    }
}

impl fmt::Display for AnyId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyId::Sort(id) => id.fmt(f),
            AnyId::Term(id) => id.fmt(f),
            AnyId::Func(id) => id.fmt(f),
            AnyId::Solver(id) => id.fmt(f),
            AnyId::Model(id) => id.fmt(f),
            AnyId::Tactic(id) => id.fmt(f),
            AnyId::Goal(id) => id.fmt(f),
            AnyId::Opt(id) => id.fmt(f),
            AnyId::Rcf(id) => id.fmt(f),
        }
    }
}

/// An operation of [`crate::ops::OPS`]; serialized by name so binary traces survive changes
/// to the order of the table.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Op(pub &'static OpSpec);

impl Op {
    pub fn name(self) -> &'static str {
        self.0.name
    }

    pub fn spec(self) -> &'static OpSpec {
        self.0
    }

    pub fn lookup(name: &str) -> Option<Op> {
        crate::ops::lookup(name).map(Op)
    }
}

impl fmt::Debug for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Op({})", self.0.name)
    }
}

impl std::hash::Hash for Op {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.name.hash(state)
    }
}

impl Serialize for Op {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0.name)
    }
}

impl<'de> Deserialize<'de> for Op {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Op, D::Error> {
        let name = String::deserialize(deserializer)?;
        Op::lookup(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown operation `{name}`")))
    }
}

/// How a new solver is configured.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SolverKind {
    /// `Solver::new()`.
    Default,
    /// `Solver::new_for_logic(logic)`.
    Logic(String),
    /// `Tactic::new(name).solver()`.
    Tactic(String),
    /// `Z3_mk_solver_from_tactic` of a tactic object (`new_solver from_tactic kK`).
    FromTactic(TacticId),
}

/// A comparison of a probe's value with a constant, the condition of `tactic_when` and
/// `tactic_cond` (`"num-consts" gt 10`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ProbeTest {
    /// A probe of [`crate::options::PROBES`].
    pub probe: String,
    pub cmp: ProbeCmp,
    pub value: u32,
}

/// How a probe's value is compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ProbeCmp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
}

impl ProbeCmp {
    pub const ALL: [ProbeCmp; 5] = [
        ProbeCmp::Lt,
        ProbeCmp::Le,
        ProbeCmp::Gt,
        ProbeCmp::Ge,
        ProbeCmp::Eq,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ProbeCmp::Lt => "lt",
            ProbeCmp::Le => "le",
            ProbeCmp::Gt => "gt",
            ProbeCmp::Ge => "ge",
            ProbeCmp::Eq => "eq",
        }
    }

    pub fn from_name(name: &str) -> Option<ProbeCmp> {
        ProbeCmp::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// How a tactic object is made: by name, or by a combinator of tactic objects.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TacticExpr {
    /// `tactic "NAME"`: a tactic of [`crate::options::GOAL_TACTICS`].
    Named(String),
    /// `tactic_and_then kA kB`: A, then B on every subgoal.
    AndThen(TacticId, TacticId),
    /// `tactic_or_else kA kB`: A, or B where A fails.
    OrElse(TacticId, TacticId),
    /// `tactic_repeat kA N`: A until the goal stops changing, at most N times.
    Repeat(TacticId, u32),
    /// `tactic_try_for kA MS`: A, failing after MS milliseconds.
    TryFor(TacticId, u32),
    /// `tactic_when "PROBE" CMP N kA`: A where the probe test holds, else skip.
    When(ProbeTest, TacticId),
    /// `tactic_cond "PROBE" CMP N kA kB`: A where the probe test holds, else B.
    Cond(ProbeTest, TacticId, TacticId),
    /// `tactic_using_params kA "KEY" "VALUE" ...`: A with parameters (their kinds read
    /// from A's own parameter descriptions).
    UsingParams(TacticId, Vec<(String, String)>),
    /// `tactic_skip`: the goal unchanged, one subgoal (`Z3_tactic_skip`). Appended last:
    /// binary traces keep their variant numbers (so are the variants below).
    Skip,
    /// `tactic_fail`: fails on every goal (`Z3_tactic_fail`).
    Fail,
    /// `tactic_fail_if "PROBE" CMP N`: fails where the probe test holds, else the goal
    /// unchanged (`Z3_tactic_fail_if`).
    FailIf(ProbeTest),
    /// `tactic_fail_if_not_decided`: fails unless the goal is decided (empty or containing
    /// `false`; `Z3_tactic_fail_if_not_decided`).
    FailIfNotDecided,
    /// `tactic_par_or kA kB`: A and B in parallel, the first to succeed
    /// (`Z3_tactic_par_or`).
    ParOr(TacticId, TacticId),
    /// `tactic_par_and_then kA kB`: A, then B on the subgoals in parallel
    /// (`Z3_tactic_par_and_then`).
    ParAndThen(TacticId, TacticId),
}

impl TacticExpr {
    /// The tactic objects it combines.
    pub fn operands(&self) -> Vec<TacticId> {
        match self {
            TacticExpr::Named(_)
            | TacticExpr::Skip
            | TacticExpr::Fail
            | TacticExpr::FailIf(_)
            | TacticExpr::FailIfNotDecided => vec![],
            TacticExpr::AndThen(a, b)
            | TacticExpr::OrElse(a, b)
            | TacticExpr::Cond(_, a, b)
            | TacticExpr::ParOr(a, b)
            | TacticExpr::ParAndThen(a, b) => {
                vec![*a, *b]
            }
            TacticExpr::Repeat(a, _)
            | TacticExpr::TryFor(a, _)
            | TacticExpr::When(_, a)
            | TacticExpr::UsingParams(a, _) => vec![*a],
        }
    }

    /// The same combinator over other operands (in [`TacticExpr::operands`] order).
    pub fn with_operands(&self, ops: &[TacticId]) -> TacticExpr {
        let op = |i: usize| ops.get(i).copied().unwrap_or(TacticId(0));
        match self {
            TacticExpr::Named(n) => TacticExpr::Named(n.clone()),
            TacticExpr::AndThen(..) => TacticExpr::AndThen(op(0), op(1)),
            TacticExpr::OrElse(..) => TacticExpr::OrElse(op(0), op(1)),
            TacticExpr::Cond(p, ..) => TacticExpr::Cond(p.clone(), op(0), op(1)),
            TacticExpr::Repeat(_, n) => TacticExpr::Repeat(op(0), *n),
            TacticExpr::TryFor(_, n) => TacticExpr::TryFor(op(0), *n),
            TacticExpr::When(p, _) => TacticExpr::When(p.clone(), op(0)),
            TacticExpr::UsingParams(_, ps) => TacticExpr::UsingParams(op(0), ps.clone()),
            TacticExpr::Skip => TacticExpr::Skip,
            TacticExpr::Fail => TacticExpr::Fail,
            TacticExpr::FailIf(p) => TacticExpr::FailIf(p.clone()),
            TacticExpr::FailIfNotDecided => TacticExpr::FailIfNotDecided,
            TacticExpr::ParOr(..) => TacticExpr::ParOr(op(0), op(1)),
            TacticExpr::ParAndThen(..) => TacticExpr::ParAndThen(op(0), op(1)),
        }
    }
}

/// Which way an objective of an Optimize context goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Direction {
    Minimize,
    Maximize,
}

/// A call's [`CallSpec`], as a constant (Z3's `def_API` line): trace name, result, family,
/// Z3 functions, SMT-LIB form.
#[rustfmt::skip]
macro_rules! spec {
    ($name:literal, $ret:ident, $family:ident, [$($z3:literal),* $(,)?], $smt2:expr) => {{
        const SPEC: CallSpec = CallSpec {
            name: $name,
            ret: RetKind::$ret,
            family: Family::$family,
            z3: &[$($z3),*],
            smt2: $smt2,
        };
        &SPEC
    }};
}

/// The description of every check, one arm each: its spec, then its arguments in trace
/// order. Instantiated for `&Check` and `&mut Check`.
#[rustfmt::skip]
macro_rules! walk_check {
    ($check:expr, $v:ident) => {{
        use Smt2::ApiOnly;
        match $check {
            Check::Model { model, term } => {
                $v.head(spec!("check_model", None, Checks, ["Z3_model_eval"], ApiOnly));
                $v.model(model);
                $v.term(term);
            }
            Check::Independent { model, term } => {
                $v.head(spec!("check_indep", None, Checks, ["Z3_model_get_const_interp"], ApiOnly));
                $v.model(model);
                $v.term(term);
            }
            Check::Eval { model, term, completion } => {
                $v.head(spec!("check_eval", None, Checks, ["Z3_model_eval"], ApiOnly));
                $v.model(model);
                $v.term(term);
                $v.flag(completion, "the model-completion flag");
            }
            Check::Shadow { original, clone } => {
                $v.head(spec!("check_shadow", None, Checks, ["Z3_solver_check"], ApiOnly));
                $v.solver(original);
                $v.solver(clone);
            }
            Check::Config { original, other } => {
                $v.head(spec!("check_config", None, Checks, ["Z3_solver_check_assumptions"], ApiOnly));
                $v.solver(original);
                $v.solver(other);
            }
            Check::Dump(z) => {
                $v.head(spec!("check_dump", None, Checks, ["Z3_benchmark_to_smtlib_string", "Z3_solver_from_string"], ApiOnly));
                $v.solver(z);
            }
            Check::Core(z) => {
                $v.head(spec!("check_core", None, Checks, ["Z3_solver_check_assumptions"], ApiOnly));
                $v.solver(z);
            }
            Check::Literal(t) => {
                $v.head(spec!("check_literal", None, Checks, ["Z3_mk_int64", "Z3_mk_unsigned_int64", "Z3_mk_real", "Z3_mk_fpa_numeral_double", "Z3_mk_bv_numeral"], ApiOnly));
                $v.term(t);
            }
            Check::Simplify(t) => {
                $v.head(spec!("check_simplify", None, Checks, ["Z3_mk_distinct", "Z3_solver_check"], ApiOnly));
                $v.term(t);
            }
            Check::Quant { model, term } => {
                $v.head(spec!("check_quant", None, Checks, ["Z3_solver_check"], ApiOnly));
                $v.model(model);
                $v.term(term);
            }
            Check::Consequences { solver, assumptions, variables } => {
                $v.head(spec!("check_consequences", None, Consequences, ["Z3_solver_get_consequences"], ApiOnly));
                $v.solver(solver);
                $v.terms_until(assumptions, crate::trace::text::CONSEQUENCE_VARS);
                $v.terms(variables, List::Fixed);
            }
            Check::Cubes(z) => {
                $v.head(spec!("check_cubes", None, Cubes, ["Z3_solver_cube"], ApiOnly));
                $v.solver(z);
            }
            Check::Goal(g) => {
                $v.head(spec!("check_goal", None, Tactics, ["Z3_goal_formula", "Z3_apply_result_get_subgoal"], ApiOnly));
                $v.goal(g);
            }
            Check::OptValues { opt, model } => {
                $v.head(spec!("check_opt_values", None, Optimize, ["Z3_optimize_get_lower", "Z3_optimize_get_upper"], ApiOnly));
                $v.opt(opt);
                $v.model(model);
            }
            Check::OptBetter { opt, model } => {
                $v.head(spec!("check_opt_better", None, Optimize, ["Z3_optimize_get_assertions", "Z3_solver_check"], ApiOnly));
                $v.opt(opt);
                $v.model(model);
            }
            Check::Relation { model, func, terms } => {
                $v.head(spec!("check_relation", None, Relations, ["Z3_model_eval", "Z3_mk_app"], ApiOnly));
                $v.model(model);
                $v.func(func);
                $v.terms(terms, List::Shrink { min: 1 });
            }
            Check::Rcf(a, b) => {
                $v.head(spec!("check_rcf", None, Rcf, ["Z3_rcf_lt", "Z3_rcf_gt", "Z3_rcf_le", "Z3_rcf_ge", "Z3_rcf_eq", "Z3_rcf_neq", "Z3_rcf_num_to_string", "Z3_rcf_num_to_decimal_string"], ApiOnly));
                $v.rcf(a);
                $v.rcf(b);
            }
            Check::Algebraic(a, b) => {
                $v.head(spec!("check_algebraic", None, Algebraic, ["Z3_algebraic_lt", "Z3_algebraic_gt", "Z3_algebraic_le", "Z3_algebraic_ge", "Z3_algebraic_eq", "Z3_algebraic_neq", "Z3_algebraic_sign", "Z3_algebraic_is_pos", "Z3_algebraic_is_neg", "Z3_algebraic_is_zero", "Z3_algebraic_is_value"], ApiOnly));
                $v.term(a);
                $v.term(b);
            }
            Check::RcfRoots(coeffs) => {
                $v.head(spec!("check_rcf_roots", None, Rcf, ["Z3_rcf_mk_roots", "Z3_rcf_mul", "Z3_rcf_add", "Z3_rcf_eq", "Z3_rcf_lt"], ApiOnly));
                $v.rcfs(coeffs);
            }
            Check::Congruence { solver, terms } => {
                $v.head(spec!("check_congruence", None, Checks, ["Z3_mk_simple_solver", "Z3_solver_check", "Z3_solver_get_model", "Z3_model_eval"], ApiOnly));
                $v.solver(solver);
                $v.terms(terms, List::Shrink { min: 1 });
            }
            Check::Fixedpoint => {
                $v.head(spec!("check_fp", None, Fixedpoint, ["Z3_fixedpoint_get_answer", "Z3_solver_check"], ApiOnly));
            }
            Check::Interrupt(z) => {
                $v.head(spec!("check_interrupt", None, Solvers, ["Z3_solver_check", "Z3_solver_get_reason_unknown"], ApiOnly));
                $v.solver(z);
            }
            Check::Simplifier { solver, simplifiers, params } => {
                $v.head(spec!("check_simplifier", None, Checks, ["Z3_get_num_simplifiers", "Z3_get_simplifier_name", "Z3_simplifier_get_descr", "Z3_mk_simplifier", "Z3_simplifier_inc_ref", "Z3_simplifier_and_then", "Z3_simplifier_using_params", "Z3_simplifier_get_help", "Z3_simplifier_get_param_descrs", "Z3_simplifier_dec_ref", "Z3_solver_add_simplifier", "Z3_solver_check", "Z3_model_eval"], ApiOnly));
                $v.solver(solver);
                $v.string(simplifiers, "simplifier names separated by spaces");
                $v.string_pairs(params, "pairs of parameter names and values");
            }
            Check::InitialValue { solver, var, value } => {
                $v.head(spec!("check_initial_value", None, Checks, ["Z3_mk_simple_solver", "Z3_solver_set_initial_value", "Z3_solver_check_assumptions", "Z3_mk_optimize", "Z3_optimize_set_initial_value", "Z3_optimize_check", "Z3_model_eval"], ApiOnly));
                $v.solver(solver);
                $v.term(var);
                $v.term(value);
            }
            Check::ParserContext(terms) => {
                $v.head(spec!("check_parser_context", None, Checks, ["Z3_mk_parser_context", "Z3_parser_context_inc_ref", "Z3_parser_context_add_sort", "Z3_parser_context_add_decl", "Z3_parser_context_from_string", "Z3_parser_context_dec_ref", "Z3_is_eq_ast", "Z3_simplify"], ApiOnly));
                $v.terms(terms, List::Shrink { min: 1 });
            }
            Check::Propagator { solver, mode, terms } => {
                $v.head(spec!("check_propagator", None, Checks, ["Z3_mk_simple_solver", "Z3_solver_propagate_init", "Z3_solver_propagate_register", "Z3_solver_propagate_fixed", "Z3_solver_propagate_final", "Z3_solver_propagate_eq", "Z3_solver_propagate_diseq", "Z3_solver_propagate_decide", "Z3_solver_propagate_created", "Z3_solver_propagate_declare", "Z3_solver_propagate_on_binding", "Z3_solver_propagate_register_cb", "Z3_solver_propagate_consequence", "Z3_solver_next_split", "Z3_solver_register_on_clause", "Z3_solver_check", "Z3_model_eval"], ApiOnly));
                $v.solver(solver);
                $v.string(mode, "the mode: enumerate or observe");
                $v.terms(terms, List::Shrink { min: 1 });
            }
            Check::ProofCallback(z) => {
                $v.head(spec!("check_proof_callback", None, Checks, ["Z3_mk_context_rc", "Z3_set_proof_check_callback", "Z3_eval_smtlib2_string", "Z3_solver_to_string"], ApiOnly));
                $v.solver(z);
            }
            Check::FiniteField { atoms, witnesses } => {
                $v.head(spec!("check_ff", None, FiniteFields, ["Z3_substitute", "Z3_simplify", "Z3_mk_simple_solver", "Z3_solver_check", "Z3_model_eval"], ApiOnly));
                $v.terms_until(atoms, crate::trace::text::FSET_WITNESSES);
                $v.term_pairs(witnesses, "pairs of a constant and its witness");
            }
            Check::FiniteSet { atoms, witnesses } => {
                $v.head(spec!("check_fset", None, FiniteSets, ["Z3_substitute", "Z3_simplify", "Z3_mk_simple_solver", "Z3_solver_check", "Z3_model_eval"], ApiOnly));
                $v.terms_until(atoms, crate::trace::text::FSET_WITNESSES);
                $v.term_pairs(witnesses, "pairs of a constant and its witness");
            }
            Check::QeMap { witness: false, model, formula, vars } => {
                $v.head(spec!("check_qe_skolem", None, Quantifiers, ["Z3_qe_model_project_skolem", "Z3_mk_ast_map", "Z3_ast_map_keys", "Z3_ast_map_find", "Z3_model_eval"], ApiOnly));
                $v.model(model);
                $v.term(formula);
                $v.terms(vars, List::Shrink { min: 1 });
            }
            Check::QeMap { witness: true, model, formula, vars } => {
                $v.head(spec!("check_qe_witness", None, Quantifiers, ["Z3_qe_model_project_with_witness", "Z3_mk_ast_map", "Z3_ast_map_keys", "Z3_ast_map_find", "Z3_substitute", "Z3_model_eval"], ApiOnly));
                $v.model(model);
                $v.term(formula);
                $v.terms(vars, List::Shrink { min: 1 });
            }
            Check::FiniteDomain { size, edges } => {
                $v.head(spec!("check_finite_domain", None, Fixedpoint, ["Z3_mk_finite_domain_sort", "Z3_get_finite_domain_sort_size", "Z3_mk_fixedpoint", "Z3_fixedpoint_register_relation", "Z3_fixedpoint_add_fact", "Z3_fixedpoint_add_rule", "Z3_mk_unsigned_int64", "Z3_fixedpoint_query", "Z3_fixedpoint_init", "Z3_fixedpoint_set_predicate_representation", "Z3_get_relation_arity", "Z3_get_relation_column"], ApiOnly));
                $v.number(size, "the finite domain's size");
                $v.string(edges, "the edges, `A>B` separated by spaces");
            }
            Check::PolyDatatype(a, b) => {
                $v.head(spec!("check_poly_datatype", None, Checks, ["Z3_mk_type_variable", "Z3_mk_polymorphic_datatype", "Z3_mk_datatype_sort", "Z3_constructor_num_fields", "Z3_mk_constructor", "Z3_get_datatype_sort_constructor", "Z3_get_datatype_sort_constructor_accessor", "Z3_get_datatype_sort_recognizer", "Z3_simplify"], ApiOnly));
                $v.term(a);
                $v.term(b);
            }
            Check::Complex(parts) => {
                $v.head(spec!("check_complex", None, Checks, ["Z3_mk_complex_sort", "Z3_mk_complex", "Z3_mk_real_part", "Z3_mk_imag_part", "Z3_mk_add", "Z3_mk_sub", "Z3_mk_mul", "Z3_mk_unary_minus", "Z3_simplify", "Z3_get_numeral_string"], ApiOnly));
                $v.terms(parts, List::Fixed);
            }
            Check::Chars(t) => {
                $v.head(spec!("check_chars", None, Checks, ["Z3_mk_char_sort", "Z3_is_char_sort", "Z3_mk_u32string", "Z3_mk_char", "Z3_mk_char_to_int", "Z3_mk_char_to_bv", "Z3_mk_char_from_bv", "Z3_mk_char_is_digit", "Z3_mk_char_le", "Z3_simplify", "Z3_solver_check"], ApiOnly));
                $v.term(t);
            }
            Check::AlgebraicPoly(t) => {
                $v.head(spec!("check_algebraic_poly", None, Algebraic, ["Z3_is_algebraic_number", "Z3_algebraic_get_poly", "Z3_algebraic_get_i", "Z3_get_algebraic_number_lower", "Z3_get_algebraic_number_upper", "Z3_algebraic_eval", "Z3_algebraic_roots", "Z3_mk_bound"], ApiOnly));
                $v.term(t);
            }
            Check::Subresultants { p, q } => {
                $v.head(spec!("check_subresultants", None, Algebraic, ["Z3_polynomial_subresultants"], ApiOnly));
                $v.terms_until(p, crate::trace::text::SUBRESULTANTS_SECOND);
                $v.terms(q, List::Fixed);
            }
            Check::RcfSignConditions(r) => {
                $v.head(spec!("check_rcf_sign_conditions", None, Rcf, ["Z3_rcf_is_algebraic", "Z3_rcf_num_sign_conditions", "Z3_rcf_sign_condition_sign", "Z3_rcf_num_sign_condition_coefficients", "Z3_rcf_sign_condition_coefficient", "Z3_rcf_mul", "Z3_rcf_add", "Z3_rcf_lt", "Z3_rcf_gt"], ApiOnly));
                $v.rcf(r);
            }
        }
    }};
}

/// The description of every call, one arm each: its spec, then its arguments in trace order
/// (what `docs/trace-format.md` lists). Instantiated for `&Call` and `&mut Call`; everything
/// in `call_args` follows from it.
#[rustfmt::skip]
macro_rules! walk_call {
    ($call:expr, $v:ident) => {{
        use Smt2::{ApiOnly, Written};
        match $call {
            Call::SortBool => $v.head(spec!("sort_bool", Sort, Sorts, ["Z3_mk_bool_sort"], Written)),
            Call::SortInt => $v.head(spec!("sort_int", Sort, Sorts, ["Z3_mk_int_sort"], Written)),
            Call::SortReal => $v.head(spec!("sort_real", Sort, Sorts, ["Z3_mk_real_sort"], Written)),
            Call::SortBv(width) => {
                $v.head(spec!("sort_bv", Sort, Sorts, ["Z3_mk_bv_sort"], Written));
                $v.number(width, "a width");
            }
            Call::SortFp(e, s) => {
                $v.head(spec!("sort_fp", Sort, Sorts, ["Z3_mk_fpa_sort"], Written));
                $v.number(e, "an exponent width");
                $v.number(s, "a significand width");
            }
            Call::SortRm => $v.head(spec!("sort_rm", Sort, Sorts, ["Z3_mk_fpa_rounding_mode_sort"], Written)),
            Call::SortString => $v.head(spec!("sort_string", Sort, Sorts, ["Z3_mk_string_sort"], Written)),
            Call::SortArray(index, element) => {
                $v.head(spec!("sort_array", Sort, Sorts, ["Z3_mk_array_sort"], Written));
                $v.sort(index);
                $v.sort(element);
            }
            Call::SortSeq(element) => {
                $v.head(spec!("sort_seq", Sort, Sorts, ["Z3_mk_seq_sort"], Written));
                $v.sort(element);
            }
            Call::SortUninterpreted(name) => {
                $v.head(spec!("sort_uninterpreted", Sort, Sorts, ["Z3_mk_uninterpreted_sort"], Written));
                $v.string(name, "a sort name");
            }
            Call::Const { sort, name } => {
                $v.head(spec!("const", Term, Terms, ["Z3_mk_const"], Written));
                $v.sort(sort);
                $v.string(name, "a name");
            }
            Call::Lit { sort, value } => {
                $v.head(spec!("lit", Term, Terms, ["Z3_mk_numeral", "Z3_mk_true", "Z3_mk_false", "Z3_mk_string", "Z3_mk_fpa_numeral_double"], Written));
                $v.sort(sort);
                $v.string(value, "a value");
            }
            Call::Fun { name, domain, range } => {
                $v.head(spec!("fun", Func, Terms, ["Z3_mk_func_decl"], Written));
                $v.string(name, "a name");
                $v.sort(range);
                $v.sorts(domain);
            }
            Call::Apply { func, args } => {
                $v.head(spec!("apply", Term, Terms, ["Z3_mk_app"], Written));
                $v.func(func);
                $v.terms(args, List::Fixed);
            }
            // The name and the Z3 function are the operation's (`ops::OPS`).
            Call::Op { op, indices, args } => {
                $v.head(spec!("<operation>", Term, Terms, [], Written));
                let list = match op.spec().arity {
                    crate::ops::Arity::AtLeast(min) => List::Shrink { min },
                    crate::ops::Arity::Fixed(_) => List::Fixed,
                };
                $v.indices(op, indices);
                $v.terms(args, list);
            }
            Call::ConstArray { index, value } => {
                $v.head(spec!("const_array", Term, Terms, ["Z3_mk_const_array"], Written));
                $v.sort(index);
                $v.term(value);
            }
            Call::Simplify(t) => {
                $v.head(spec!("simplify", Term, Terms, ["Z3_simplify"], Written));
                $v.term(t);
            }
            Call::SimplifyWith { term, params } => {
                $v.head(spec!("simplify_with", Term, Terms, ["Z3_simplify_ex"], Written));
                $v.term(term);
                $v.string_pairs(params, "a term and pairs of parameter names and values");
            }
            Call::Substitute { term, pairs } => {
                $v.head(spec!("substitute", Term, Terms, ["Z3_substitute"], ApiOnly));
                $v.term(term);
                $v.term_pairs(pairs, "a term and pairs of terms");
            }
            Call::NewSolver(kind) => {
                $v.head(spec!("new_solver", Solver, Solvers, ["Z3_mk_solver", "Z3_mk_solver_for_logic", "Z3_mk_solver_from_tactic"], Written));
                $v.solver_kind(kind);
            }
            Call::SetParam { solver, key, value } => {
                $v.head(spec!("set_param", None, Solvers, ["Z3_solver_set_params"], Written));
                $v.solver(solver);
                $v.string(key, "a parameter name");
                $v.string(value, "a value");
            }
            Call::SetGlobal { key, value } => {
                $v.head(spec!("set_global", None, Solvers, ["Z3_global_param_set"], Written));
                $v.string(key, "a parameter name");
                $v.string(value, "a value");
            }
            Call::Push(z) => {
                $v.head(spec!("push", None, Solvers, ["Z3_solver_push"], Written));
                $v.solver(z);
            }
            Call::Pop(z, n) => {
                $v.head(spec!("pop", None, Solvers, ["Z3_solver_pop"], Written));
                $v.solver(z);
                $v.number(n, "a number of scopes");
            }
            Call::Assert(z, t) => {
                $v.head(spec!("assert", None, Solvers, ["Z3_solver_assert"], Written));
                $v.solver(z);
                $v.term(t);
            }
            Call::AssertAndTrack { solver, term, tracker } => {
                $v.head(spec!("assert_and_track", None, Solvers, ["Z3_solver_assert_and_track"], Written));
                $v.solver(solver);
                $v.term(term);
                $v.term(tracker);
            }
            Call::CheckSat(z) => {
                $v.head(spec!("check_sat", Sat, Solvers, ["Z3_solver_check"], Written));
                $v.solver(z);
            }
            Call::CheckSatAssuming(z, assumptions) => {
                $v.head(spec!("check_sat_assuming", Sat, Solvers, ["Z3_solver_check_assumptions"], Written));
                $v.solver(z);
                $v.terms(assumptions, List::Shrink { min: 0 });
            }
            Call::GetUnsatCore(z) => {
                $v.head(spec!("get_unsat_core", Core, Solvers, ["Z3_solver_get_unsat_core"], Written));
                $v.solver(z);
            }
            Call::GetModel(z) => {
                $v.head(spec!("get_model", Model, Models, ["Z3_solver_get_model"], Written));
                $v.solver(z);
            }
            Call::ModelEval { model, term, completion } => {
                $v.head(spec!("model_eval", Value, Models, ["Z3_model_eval"], Written));
                $v.model(model);
                $v.term(term);
                $v.flag(completion, "the model-completion flag");
            }
            Call::Translate(z) => {
                $v.head(spec!("translate", Solver, Solvers, ["Z3_solver_translate"], ApiOnly));
                $v.solver(z);
            }
            Call::Reset(z) => {
                $v.head(spec!("reset", None, Solvers, ["Z3_solver_reset"], Written));
                $v.solver(z);
            }
            Call::ToSmt2(z) => {
                $v.head(spec!("to_smt2", None, Solvers, ["Z3_benchmark_to_smtlib_string", "Z3_solver_get_assertions"], ApiOnly));
                $v.solver(z);
            }
            Call::FromString(z, text) => {
                $v.head(spec!("from_string", None, Solvers, ["Z3_solver_from_string"], Written));
                $v.solver(z);
                $v.string(text, "SMT-LIB text");
            }
            Call::Release(id) => {
                $v.head(spec!("release", None, Handles, ["Z3_dec_ref"], ApiOnly));
                $v.any(id);
            }
            Call::Delete(z) => {
                $v.head(spec!("delete", None, Handles, ["Z3_solver_dec_ref"], ApiOnly));
                $v.solver(z);
            }
            Call::Check(check) => walk_check!(check, $v),
            Call::Var { sort, name } => {
                $v.head(spec!("var", Term, Quantifiers, ["Z3_mk_fresh_const"], Written));
                $v.sort(sort);
                $v.string(name, "a name");
            }
            Call::Quantifier { forall: true, weight, vars, body, patterns, no_patterns } => {
                $v.head(spec!("forall", Term, Quantifiers, ["Z3_mk_quantifier_const_ex", "Z3_mk_pattern"], Written));
                $v.number(weight, "a weight");
                $v.terms_until(vars, "body");
                $v.term(body);
                $v.patterns(patterns, no_patterns);
            }
            Call::Quantifier { forall: false, weight, vars, body, patterns, no_patterns } => {
                $v.head(spec!("exists", Term, Quantifiers, ["Z3_mk_quantifier_const_ex", "Z3_mk_pattern"], Written));
                $v.number(weight, "a weight");
                $v.terms_until(vars, "body");
                $v.term(body);
                $v.patterns(patterns, no_patterns);
            }
            Call::DeclareDatatypes { path, params, datatypes } => {
                $v.head(spec!("declare_datatypes", None, Datatypes, ["Z3_mk_constructor", "Z3_mk_datatypes", "Z3_parse_smtlib2_string", "Z3_mk_enumeration_sort", "Z3_mk_tuple_sort", "Z3_mk_list_sort", "Z3_mk_datatype", "Z3_query_constructor", "Z3_del_constructor"], Written));
                $v.datatypes(path, params, datatypes);
            }
            Call::SortDatatype { name, params } => {
                $v.head(spec!("sort_datatype", Sort, Datatypes, ["Z3_parse_smtlib2_string"], Written));
                $v.string(name, "a datatype name");
                $v.sorts(params);
            }
            Call::DtConstruct { sort, ctor, args } => {
                $v.head(spec!("dt_cons", Term, Datatypes, ["Z3_get_datatype_sort_constructor", "Z3_mk_app"], Written));
                $v.sort(sort);
                $v.string(ctor, "a constructor name");
                $v.terms(args, List::Fixed);
            }
            Call::DtTest { ctor, term } => {
                $v.head(spec!("dt_is", Term, Datatypes, ["Z3_get_datatype_sort_recognizer", "Z3_mk_app"], Written));
                $v.string(ctor, "a constructor name");
                $v.term(term);
            }
            Call::DtSelect { field, term } => {
                $v.head(spec!("dt_sel", Term, Datatypes, ["Z3_get_datatype_sort_constructor_accessor", "Z3_mk_app"], Written));
                $v.string(field, "a field name");
                $v.term(term);
            }
            Call::DtUpdate { field, term, value } => {
                $v.head(spec!("dt_update", Term, Datatypes, ["Z3_datatype_update_field"], Written));
                $v.string(field, "a field name");
                $v.term(term);
                $v.term(value);
            }
            Call::NewSolverConfig(config) => {
                $v.head(spec!("new_solver_config", Solver, Contexts, ["Z3_mk_config", "Z3_set_param_value", "Z3_mk_context_rc", "Z3_mk_solver"], ApiOnly));
                $v.string_pairs(config, "pairs of parameter names and values");
            }
            Call::TranslateConfig { solver, config } => {
                $v.head(spec!("translate_config", Solver, Contexts, ["Z3_mk_config", "Z3_set_param_value", "Z3_mk_context_rc", "Z3_solver_translate"], ApiOnly));
                $v.solver(solver);
                $v.string_pairs(config, "pairs of parameter names and values");
            }
            Call::GetProof(z) => {
                $v.head(spec!("get_proof", None, Contexts, ["Z3_solver_get_proof"], ApiOnly));
                $v.solver(z);
            }
            Call::MkTactic(expr) => match expr {
                TacticExpr::Named(name) => {
                    $v.head(spec!("tactic", Tactic, Tactics, ["Z3_mk_tactic"], Written));
                    $v.string(name, "a tactic name");
                }
                TacticExpr::AndThen(a, b) => {
                    $v.head(spec!("tactic_and_then", Tactic, Tactics, ["Z3_tactic_and_then"], Written));
                    $v.tactic(a);
                    $v.tactic(b);
                }
                TacticExpr::OrElse(a, b) => {
                    $v.head(spec!("tactic_or_else", Tactic, Tactics, ["Z3_tactic_or_else"], Written));
                    $v.tactic(a);
                    $v.tactic(b);
                }
                TacticExpr::Repeat(a, n) => {
                    $v.head(spec!("tactic_repeat", Tactic, Tactics, ["Z3_tactic_repeat"], Written));
                    $v.tactic(a);
                    $v.number(n, "a maximum of repetitions");
                }
                TacticExpr::TryFor(a, ms) => {
                    $v.head(spec!("tactic_try_for", Tactic, Tactics, ["Z3_tactic_try_for"], Written));
                    $v.tactic(a);
                    $v.number(ms, "milliseconds");
                }
                TacticExpr::When(probe, a) => {
                    $v.head(spec!("tactic_when", Tactic, Tactics, ["Z3_tactic_when", "Z3_mk_probe", "Z3_probe_const"], Written));
                    $v.probe(probe);
                    $v.tactic(a);
                }
                TacticExpr::Cond(probe, a, b) => {
                    $v.head(spec!("tactic_cond", Tactic, Tactics, ["Z3_tactic_cond", "Z3_mk_probe", "Z3_probe_const"], Written));
                    $v.probe(probe);
                    $v.tactic(a);
                    $v.tactic(b);
                }
                TacticExpr::UsingParams(a, params) => {
                    $v.head(spec!("tactic_using_params", Tactic, Tactics, ["Z3_tactic_using_params", "Z3_mk_params"], Written));
                    $v.tactic(a);
                    $v.string_pairs(params, "parameters in pairs of names and values");
                }
                TacticExpr::Skip => $v.head(spec!("tactic_skip", Tactic, Tactics, ["Z3_tactic_skip"], ApiOnly)),
                TacticExpr::Fail => $v.head(spec!("tactic_fail", Tactic, Tactics, ["Z3_tactic_fail"], ApiOnly)),
                TacticExpr::FailIf(probe) => {
                    $v.head(spec!("tactic_fail_if", Tactic, Tactics, ["Z3_tactic_fail_if", "Z3_mk_probe", "Z3_probe_const"], ApiOnly));
                    $v.probe(probe);
                }
                TacticExpr::FailIfNotDecided => $v.head(spec!("tactic_fail_if_not_decided", Tactic, Tactics, ["Z3_tactic_fail_if_not_decided"], ApiOnly)),
                TacticExpr::ParOr(a, b) => {
                    $v.head(spec!("tactic_par_or", Tactic, Tactics, ["Z3_tactic_par_or"], ApiOnly));
                    $v.tactic(a);
                    $v.tactic(b);
                }
                TacticExpr::ParAndThen(a, b) => {
                    $v.head(spec!("tactic_par_and_then", Tactic, Tactics, ["Z3_tactic_par_and_then"], ApiOnly));
                    $v.tactic(a);
                    $v.tactic(b);
                }
            },
            Call::NewGoal { models } => {
                $v.head(spec!("goal_new", Goal, Tactics, ["Z3_mk_goal"], ApiOnly));
                $v.flag(models, "the models flag");
            }
            Call::GoalAssert(g, t) => {
                $v.head(spec!("goal_assert", None, Tactics, ["Z3_goal_assert"], ApiOnly));
                $v.goal(g);
                $v.term(t);
            }
            Call::ApplyTactic { tactic, goal, rlimit } => {
                $v.head(spec!("goal_apply", Value, Tactics, ["Z3_tactic_apply"], ApiOnly));
                $v.tactic(tactic);
                $v.goal(goal);
                $v.number(rlimit, "a resource limit");
            }
            Call::Subgoal(g, i) => {
                $v.head(spec!("goal_subgoal", Goal, Tactics, ["Z3_apply_result_get_subgoal"], ApiOnly));
                $v.goal(g);
                $v.number(i, "a subgoal index");
            }
            Call::GoalFormula(g) => {
                $v.head(spec!("goal_formula", Term, Tactics, ["Z3_goal_formula"], ApiOnly));
                $v.goal(g);
            }
            Call::NewOptimize => $v.head(spec!("opt_new", Opt, Optimize, ["Z3_mk_optimize"], Written)),
            Call::OptSetParam { opt, key, value } => {
                $v.head(spec!("opt_set_param", None, Optimize, ["Z3_optimize_set_params"], ApiOnly));
                $v.opt(opt);
                $v.string(key, "a parameter name");
                $v.string(value, "a value");
            }
            Call::OptAssert(o, t) => {
                $v.head(spec!("opt_assert", None, Optimize, ["Z3_optimize_assert"], Written));
                $v.opt(o);
                $v.term(t);
            }
            Call::OptAssertSoft { opt, term, weight, group } => {
                $v.head(spec!("opt_assert_soft", None, Optimize, ["Z3_optimize_assert_soft"], Written));
                $v.opt(opt);
                $v.term(term);
                $v.number(weight, "a weight");
                $v.string(group, "a group name");
            }
            Call::OptObjective { opt, term, direction: Direction::Minimize } => {
                $v.head(spec!("opt_minimize", None, Optimize, ["Z3_optimize_minimize"], Written));
                $v.opt(opt);
                $v.term(term);
            }
            Call::OptObjective { opt, term, direction: Direction::Maximize } => {
                $v.head(spec!("opt_maximize", None, Optimize, ["Z3_optimize_maximize"], Written));
                $v.opt(opt);
                $v.term(term);
            }
            Call::OptPush(o) => {
                $v.head(spec!("opt_push", None, Optimize, ["Z3_optimize_push"], Written));
                $v.opt(o);
            }
            Call::OptPop(o) => {
                $v.head(spec!("opt_pop", None, Optimize, ["Z3_optimize_pop"], Written));
                $v.opt(o);
            }
            Call::OptCheck(o) => {
                $v.head(spec!("opt_check", Sat, Optimize, ["Z3_optimize_check"], Written));
                $v.opt(o);
            }
            Call::OptGetModel(o) => {
                $v.head(spec!("opt_get_model", Model, Optimize, ["Z3_optimize_get_model"], Written));
                $v.opt(o);
            }
            Call::OptBound { opt, index, upper: false } => {
                $v.head(spec!("opt_lower", Value, Optimize, ["Z3_optimize_get_lower"], Written));
                $v.opt(opt);
                $v.number(index, "an objective index");
            }
            Call::OptBound { opt, index, upper: true } => {
                $v.head(spec!("opt_upper", Value, Optimize, ["Z3_optimize_get_upper"], Written));
                $v.opt(opt);
                $v.number(index, "an objective index");
            }
            Call::Pb { cmp: PbCmp::Le, bound, terms } => {
                $v.head(spec!("pb_le", Term, PseudoBoolean, ["Z3_mk_pble"], Smt2::Indexed { head: "pble", standard: false }));
                $v.int(bound, "a bound");
                $v.weighted(terms, List::Shrink { min: 1 });
            }
            Call::Pb { cmp: PbCmp::Ge, bound, terms } => {
                $v.head(spec!("pb_ge", Term, PseudoBoolean, ["Z3_mk_pbge"], Smt2::Indexed { head: "pbge", standard: false }));
                $v.int(bound, "a bound");
                $v.weighted(terms, List::Shrink { min: 1 });
            }
            Call::Pb { cmp: PbCmp::Eq, bound, terms } => {
                $v.head(spec!("pb_eq", Term, PseudoBoolean, ["Z3_mk_pbeq"], Smt2::Indexed { head: "pbeq", standard: false }));
                $v.int(bound, "a bound");
                $v.weighted(terms, List::Shrink { min: 1 });
            }
            Call::Card { at_least: false, bound, terms } => {
                $v.head(spec!("at_most", Term, PseudoBoolean, ["Z3_mk_atmost"], Smt2::Indexed { head: "at-most", standard: false }));
                $v.number(bound, "a bound");
                $v.terms(terms, List::Shrink { min: 1 });
            }
            Call::Card { at_least: true, bound, terms } => {
                $v.head(spec!("at_least", Term, PseudoBoolean, ["Z3_mk_atleast"], Smt2::Indexed { head: "at-least", standard: false }));
                $v.number(bound, "a bound");
                $v.terms(terms, List::Shrink { min: 1 });
            }
            Call::RecFun { name, domain, range } => {
                $v.head(spec!("rec_fun", Func, RecFunctions, ["Z3_mk_rec_func_decl"], Written));
                $v.string(name, "a name");
                $v.sort(range);
                $v.sorts(domain);
            }
            Call::RecDef { func, vars, body } => {
                $v.head(spec!("rec_def", None, RecFunctions, ["Z3_add_rec_def"], Written));
                $v.func(func);
                $v.terms_until(vars, "body");
                $v.term(body);
            }
            Call::Relation { kind: RelationKind::Linear, sort, index } => {
                $v.head(spec!("linear_order", Func, Relations, ["Z3_mk_linear_order"], Written));
                $v.sort(sort);
                $v.number(index, "an index");
            }
            Call::Relation { kind: RelationKind::Partial, sort, index } => {
                $v.head(spec!("partial_order", Func, Relations, ["Z3_mk_partial_order"], Written));
                $v.sort(sort);
                $v.number(index, "an index");
            }
            Call::Relation { kind: RelationKind::PiecewiseLinear, sort, index } => {
                $v.head(spec!("piecewise_linear_order", Func, Relations, ["Z3_mk_piecewise_linear_order"], Written));
                $v.sort(sort);
                $v.number(index, "an index");
            }
            Call::Relation { kind: RelationKind::Tree, sort, index } => {
                $v.head(spec!("tree_order", Func, Relations, ["Z3_mk_tree_order"], Written));
                $v.sort(sort);
                $v.number(index, "an index");
            }
            Call::TransitiveClosure(f) => {
                $v.head(spec!("transitive_closure", Func, Relations, ["Z3_mk_transitive_closure"], Written));
                $v.func(f);
            }
            Call::NewModel => $v.head(spec!("model_new", Model, HandModels, ["Z3_mk_model"], ApiOnly)),
            Call::ModelConst { model, constant, value } => {
                $v.head(spec!("model_const", None, HandModels, ["Z3_add_const_interp", "Z3_get_app_decl"], ApiOnly));
                $v.model(model);
                $v.term(constant);
                $v.term(value);
            }
            Call::Cube(z) => {
                $v.head(spec!("cube", None, Cubes, ["Z3_solver_cube"], ApiOnly));
                $v.solver(z);
            }
            Call::SetUnion(terms) => {
                $v.head(spec!("set_union", Term, Terms, ["Z3_mk_set_union"], Smt2::Indexed { head: "union", standard: false }));
                $v.terms(terms, List::Shrink { min: 1 });
            }
            // The function is an argument (`crate::read::READERS`); the spec names the
            // functions every read makes around it.
            Call::Read { function, term } => {
                $v.head(spec!("read", Value, Reads, ["Z3_get_numeral_string", "Z3_get_ast_kind", "Z3_get_app_decl", "Z3_to_app", "Z3_get_symbol_string"], ApiOnly));
                $v.string(function, "a Z3 read-back function of a term");
                $v.term(term);
            }
            Call::ReadSort { function, sort } => {
                $v.head(spec!("read_sort", Value, Reads, ["Z3_sort_to_string", "Z3_get_symbol_string"], ApiOnly));
                $v.string(function, "a Z3 read-back function of a sort");
                $v.sort(sort);
            }
            Call::ReadEq(a, b) => {
                $v.head(spec!("read_eq", Value, Reads, ["Z3_is_eq_ast", "Z3_get_ast_hash", "Z3_get_ast_id", "Z3_is_eq_sort", "Z3_get_sort"], ApiOnly));
                $v.term(a);
                $v.term(b);
            }
            Call::ReadStats(z) => {
                $v.head(spec!("read_stats", None, Reads, ["Z3_solver_get_statistics", "Z3_stats_size", "Z3_stats_get_key", "Z3_stats_is_uint", "Z3_stats_is_double", "Z3_stats_get_uint_value", "Z3_stats_get_double_value", "Z3_stats_to_string", "Z3_stats_inc_ref", "Z3_stats_dec_ref"], ApiOnly));
                $v.solver(z);
            }
            Call::RcfMk(RcfMk::Rational(text)) => {
                $v.head(spec!("rcf_rational", Rcf, Rcf, ["Z3_rcf_mk_rational"], ApiOnly));
                $v.string(text, "a rational");
            }
            Call::RcfMk(RcfMk::SmallInt(n)) => {
                $v.head(spec!("rcf_small_int", Rcf, Rcf, ["Z3_rcf_mk_small_int"], ApiOnly));
                $v.int(n, "an integer");
            }
            Call::RcfMk(RcfMk::Pi) => $v.head(spec!("rcf_pi", Rcf, Rcf, ["Z3_rcf_mk_pi"], ApiOnly)),
            Call::RcfMk(RcfMk::E) => $v.head(spec!("rcf_e", Rcf, Rcf, ["Z3_rcf_mk_e"], ApiOnly)),
            Call::RcfMk(RcfMk::Infinitesimal) => $v.head(spec!("rcf_infinitesimal", Rcf, Rcf, ["Z3_rcf_mk_infinitesimal"], ApiOnly)),
            Call::RcfArith { op: RcfOp::Add, a, b } => {
                $v.head(spec!("rcf_add", Rcf, Rcf, ["Z3_rcf_add"], ApiOnly));
                $v.rcf(a);
                $v.rcf(b);
            }
            Call::RcfArith { op: RcfOp::Sub, a, b } => {
                $v.head(spec!("rcf_sub", Rcf, Rcf, ["Z3_rcf_sub"], ApiOnly));
                $v.rcf(a);
                $v.rcf(b);
            }
            Call::RcfArith { op: RcfOp::Mul, a, b } => {
                $v.head(spec!("rcf_mul", Rcf, Rcf, ["Z3_rcf_mul"], ApiOnly));
                $v.rcf(a);
                $v.rcf(b);
            }
            Call::RcfArith { op: RcfOp::Div, a, b } => {
                $v.head(spec!("rcf_div", Rcf, Rcf, ["Z3_rcf_div"], ApiOnly));
                $v.rcf(a);
                $v.rcf(b);
            }
            Call::RcfNeg(a) => {
                $v.head(spec!("rcf_neg", Rcf, Rcf, ["Z3_rcf_neg"], ApiOnly));
                $v.rcf(a);
            }
            Call::RcfInv(a) => {
                $v.head(spec!("rcf_inv", Rcf, Rcf, ["Z3_rcf_inv"], ApiOnly));
                $v.rcf(a);
            }
            Call::RcfPower(a, k) => {
                $v.head(spec!("rcf_power", Rcf, Rcf, ["Z3_rcf_power"], ApiOnly));
                $v.rcf(a);
                $v.number(k, "an exponent");
            }
            Call::RcfCompare { cmp: RcfCmp::Lt, a, b } => {
                $v.head(spec!("rcf_lt", Value, Rcf, ["Z3_rcf_lt"], ApiOnly));
                $v.rcf(a);
                $v.rcf(b);
            }
            Call::RcfCompare { cmp: RcfCmp::Gt, a, b } => {
                $v.head(spec!("rcf_gt", Value, Rcf, ["Z3_rcf_gt"], ApiOnly));
                $v.rcf(a);
                $v.rcf(b);
            }
            Call::RcfCompare { cmp: RcfCmp::Le, a, b } => {
                $v.head(spec!("rcf_le", Value, Rcf, ["Z3_rcf_le"], ApiOnly));
                $v.rcf(a);
                $v.rcf(b);
            }
            Call::RcfCompare { cmp: RcfCmp::Ge, a, b } => {
                $v.head(spec!("rcf_ge", Value, Rcf, ["Z3_rcf_ge"], ApiOnly));
                $v.rcf(a);
                $v.rcf(b);
            }
            Call::RcfCompare { cmp: RcfCmp::Eq, a, b } => {
                $v.head(spec!("rcf_eq", Value, Rcf, ["Z3_rcf_eq"], ApiOnly));
                $v.rcf(a);
                $v.rcf(b);
            }
            Call::RcfCompare { cmp: RcfCmp::Neq, a, b } => {
                $v.head(spec!("rcf_neq", Value, Rcf, ["Z3_rcf_neq"], ApiOnly));
                $v.rcf(a);
                $v.rcf(b);
            }
            Call::RcfToString { num, compact, html } => {
                $v.head(spec!("rcf_to_string", Value, Rcf, ["Z3_rcf_num_to_string"], ApiOnly));
                $v.rcf(num);
                $v.flag(compact, "the compact flag");
                $v.flag(html, "the html flag");
            }
            Call::RcfToDecimal(num, precision) => {
                $v.head(spec!("rcf_to_decimal", Value, Rcf, ["Z3_rcf_num_to_decimal_string"], ApiOnly));
                $v.rcf(num);
                $v.number(precision, "a precision");
            }
            Call::RcfRoots(coeffs) => {
                $v.head(spec!("rcf_roots", Value, Rcf, ["Z3_rcf_mk_roots", "Z3_rcf_del"], ApiOnly));
                $v.rcfs(coeffs);
            }
            Call::RcfRoot { index, coeffs } => {
                $v.head(spec!("rcf_root", Rcf, Rcf, ["Z3_rcf_mk_roots", "Z3_rcf_del"], ApiOnly));
                $v.number(index, "a root index");
                $v.rcfs(coeffs);
            }
            Call::RcfNumDen { num, denominator: false } => {
                $v.head(spec!("rcf_numerator", Rcf, Rcf, ["Z3_rcf_get_numerator_denominator", "Z3_rcf_del"], ApiOnly));
                $v.rcf(num);
            }
            Call::RcfNumDen { num, denominator: true } => {
                $v.head(spec!("rcf_denominator", Rcf, Rcf, ["Z3_rcf_get_numerator_denominator", "Z3_rcf_del"], ApiOnly));
                $v.rcf(num);
            }
            Call::AlgebraicArith { op: RcfOp::Add, a, b } => {
                $v.head(spec!("algebraic_add", Term, Algebraic, ["Z3_algebraic_add"], ApiOnly));
                $v.term(a);
                $v.term(b);
            }
            Call::AlgebraicArith { op: RcfOp::Sub, a, b } => {
                $v.head(spec!("algebraic_sub", Term, Algebraic, ["Z3_algebraic_sub"], ApiOnly));
                $v.term(a);
                $v.term(b);
            }
            Call::AlgebraicArith { op: RcfOp::Mul, a, b } => {
                $v.head(spec!("algebraic_mul", Term, Algebraic, ["Z3_algebraic_mul"], ApiOnly));
                $v.term(a);
                $v.term(b);
            }
            Call::AlgebraicArith { op: RcfOp::Div, a, b } => {
                $v.head(spec!("algebraic_div", Term, Algebraic, ["Z3_algebraic_div"], ApiOnly));
                $v.term(a);
                $v.term(b);
            }
            Call::AlgebraicCompare { cmp: RcfCmp::Lt, a, b } => {
                $v.head(spec!("algebraic_lt", Value, Algebraic, ["Z3_algebraic_lt"], ApiOnly));
                $v.term(a);
                $v.term(b);
            }
            Call::AlgebraicCompare { cmp: RcfCmp::Gt, a, b } => {
                $v.head(spec!("algebraic_gt", Value, Algebraic, ["Z3_algebraic_gt"], ApiOnly));
                $v.term(a);
                $v.term(b);
            }
            Call::AlgebraicCompare { cmp: RcfCmp::Le, a, b } => {
                $v.head(spec!("algebraic_le", Value, Algebraic, ["Z3_algebraic_le"], ApiOnly));
                $v.term(a);
                $v.term(b);
            }
            Call::AlgebraicCompare { cmp: RcfCmp::Ge, a, b } => {
                $v.head(spec!("algebraic_ge", Value, Algebraic, ["Z3_algebraic_ge"], ApiOnly));
                $v.term(a);
                $v.term(b);
            }
            Call::AlgebraicCompare { cmp: RcfCmp::Eq, a, b } => {
                $v.head(spec!("algebraic_eq", Value, Algebraic, ["Z3_algebraic_eq"], ApiOnly));
                $v.term(a);
                $v.term(b);
            }
            Call::AlgebraicCompare { cmp: RcfCmp::Neq, a, b } => {
                $v.head(spec!("algebraic_neq", Value, Algebraic, ["Z3_algebraic_neq"], ApiOnly));
                $v.term(a);
                $v.term(b);
            }
            Call::AlgebraicIs { test: AlgebraicTest::Value, term } => {
                $v.head(spec!("algebraic_is_value", Value, Algebraic, ["Z3_algebraic_is_value"], ApiOnly));
                $v.term(term);
            }
            Call::AlgebraicIs { test: AlgebraicTest::Pos, term } => {
                $v.head(spec!("algebraic_is_pos", Value, Algebraic, ["Z3_algebraic_is_pos"], ApiOnly));
                $v.term(term);
            }
            Call::AlgebraicIs { test: AlgebraicTest::Neg, term } => {
                $v.head(spec!("algebraic_is_neg", Value, Algebraic, ["Z3_algebraic_is_neg"], ApiOnly));
                $v.term(term);
            }
            Call::AlgebraicIs { test: AlgebraicTest::Zero, term } => {
                $v.head(spec!("algebraic_is_zero", Value, Algebraic, ["Z3_algebraic_is_zero"], ApiOnly));
                $v.term(term);
            }
            Call::AlgebraicPower(t, k) => {
                $v.head(spec!("algebraic_power", Term, Algebraic, ["Z3_algebraic_power"], ApiOnly));
                $v.term(t);
                $v.number(k, "an exponent");
            }
            Call::AlgebraicRoot(t, k) => {
                $v.head(spec!("algebraic_root", Term, Algebraic, ["Z3_algebraic_root"], ApiOnly));
                $v.term(t);
                $v.number(k, "a root degree");
            }
            Call::AlgebraicSign(t) => {
                $v.head(spec!("algebraic_sign", Value, Algebraic, ["Z3_algebraic_sign"], ApiOnly));
                $v.term(t);
            }
            Call::SetIntersect(terms) => {
                $v.head(spec!("set_intersect", Term, Terms, ["Z3_mk_set_intersect"], Smt2::Indexed { head: "intersection", standard: false }));
                $v.terms(terms, List::Shrink { min: 1 });
            }
            Call::SetDifference(a, b) => {
                $v.head(spec!("set_difference", Term, Terms, ["Z3_mk_set_difference"], Smt2::Indexed { head: "setminus", standard: false }));
                $v.term(a);
                $v.term(b);
            }
            Call::SetComplement(a) => {
                $v.head(spec!("set_complement", Term, Terms, ["Z3_mk_set_complement"], Smt2::Indexed { head: "complement", standard: false }));
                $v.term(a);
            }
            Call::SetSubset(a, b) => {
                $v.head(spec!("set_subset", Term, Terms, ["Z3_mk_set_subset"], Smt2::Indexed { head: "subset", standard: false }));
                $v.term(a);
                $v.term(b);
            }
            Call::EmptySet(s) => {
                $v.head(spec!("empty_set", Term, Terms, ["Z3_mk_empty_set"], Written));
                $v.sort(s);
            }
            Call::FullSet(s) => {
                $v.head(spec!("full_set", Term, Terms, ["Z3_mk_full_set"], Written));
                $v.sort(s);
            }
            Call::SelectN { array, indices } => {
                $v.head(spec!("select_n", Term, Terms, ["Z3_mk_select_n"], Smt2::Indexed { head: "select", standard: true }));
                $v.term(array);
                $v.terms(indices, List::Fixed);
            }
            Call::StoreN { array, indices, value } => {
                $v.head(spec!("store_n", Term, Terms, ["Z3_mk_store_n"], Smt2::Indexed { head: "store", standard: true }));
                $v.term(array);
                $v.terms_until(indices, "value");
                $v.term(value);
            }
            Call::ArrayDefault(a) => {
                $v.head(spec!("array_default", Term, Terms, ["Z3_mk_array_default"], Smt2::Indexed { head: "default", standard: false }));
                $v.term(a);
            }
            // The function is an argument (`crate::read::READERS`, subject `Rcf`); the spec
            // names the functions every read makes around it.
            Call::ReadRcf { function, rcf } => {
                $v.head(spec!("read_rcf", Value, Rcf, ["Z3_rcf_num_to_string", "Z3_get_symbol_string"], ApiOnly));
                $v.string(function, "a Z3 read-back function of an RCF number");
                $v.rcf(rcf);
            }
            Call::FpNew { engine } => {
                $v.head(spec!("fp_new", None, Fixedpoint, ["Z3_mk_fixedpoint", "Z3_fixedpoint_inc_ref", "Z3_fixedpoint_set_params", "Z3_params_set_symbol"], ApiOnly));
                $v.string(engine, "a fixedpoint engine");
            }
            Call::FpRegister(f) => {
                $v.head(spec!("fp_register", None, Fixedpoint, ["Z3_fixedpoint_register_relation"], ApiOnly));
                $v.func(f);
            }
            Call::FpRule { rule, name } => {
                $v.head(spec!("fp_rule", None, Fixedpoint, ["Z3_fixedpoint_add_rule"], ApiOnly));
                $v.term(rule);
                $v.string(name, "a rule name");
            }
            Call::FpUpdateRule { rule, name } => {
                $v.head(spec!("fp_update_rule", None, Fixedpoint, ["Z3_fixedpoint_update_rule"], ApiOnly));
                $v.term(rule);
                $v.string(name, "a rule name");
            }
            Call::FpAssert(t) => {
                $v.head(spec!("fp_assert", None, Fixedpoint, ["Z3_fixedpoint_assert"], ApiOnly));
                $v.term(t);
            }
            Call::FpQuery { query, rlimit } => {
                $v.head(spec!("fp_query", Sat, Fixedpoint, ["Z3_fixedpoint_query", "Z3_update_param_value"], ApiOnly));
                $v.term(query);
                $v.number(rlimit, "a resource limit");
            }
            Call::FpQueryRelation { relation, rlimit } => {
                $v.head(spec!("fp_query_relation", Sat, Fixedpoint, ["Z3_fixedpoint_query_relations", "Z3_update_param_value"], ApiOnly));
                $v.func(relation);
                $v.number(rlimit, "a resource limit");
            }
            // The function is an argument (`crate::fixedpoint::READERS`).
            Call::FpRead(function) => {
                $v.head(spec!("fp_read", None, Fixedpoint, ["Z3_fixedpoint_get_help"], ApiOnly));
                $v.string(function, "a Z3 fixedpoint function");
            }
            Call::FpReadRel { function, relation } => {
                $v.head(spec!("fp_read_rel", None, Fixedpoint, ["Z3_fixedpoint_get_num_levels"], ApiOnly));
                $v.string(function, "a Z3 fixedpoint function of a relation");
                $v.func(relation);
            }
            Call::FpFromString(text) => {
                $v.head(spec!("fp_from_string", None, Fixedpoint, ["Z3_fixedpoint_from_string"], ApiOnly));
                $v.string(text, "SMT-LIB text");
            }
            Call::FpSetParam { key, value } => {
                $v.head(spec!("fp_set_param", None, Fixedpoint, ["Z3_fixedpoint_set_params", "Z3_params_set_bool", "Z3_params_set_uint", "Z3_params_set_symbol"], ApiOnly));
                $v.string(key, "a fixedpoint parameter");
                $v.string(value, "its value");
            }
            // The function is an argument (`crate::call::FIXED_FP_FORMATS`); the spec names
            // the functions the executor judges its sort with.
            Call::SortFpFixed(function) => {
                $v.head(spec!("sort_fp_fixed", Sort, Sorts, ["Z3_mk_fpa_sort", "Z3_is_eq_sort"], Written));
                $v.string(function, "a Z3 maker of a fixed floating-point format");
            }
            Call::SortSet(element) => {
                $v.head(spec!("sort_set", Sort, Sorts, ["Z3_mk_set_sort"], Written));
                $v.sort(element);
            }
            Call::SetAdd(set, element) => {
                $v.head(spec!("set_add", Term, Terms, ["Z3_mk_set_add"], Written));
                $v.term(set);
                $v.term(element);
            }
            Call::SetDel(set, element) => {
                $v.head(spec!("set_del", Term, Terms, ["Z3_mk_set_del"], Written));
                $v.term(set);
                $v.term(element);
            }
            Call::SetMember(element, set) => {
                $v.head(spec!("set_member", Term, Terms, ["Z3_mk_set_member"], Written));
                $v.term(element);
                $v.term(set);
            }
            // The function is an argument (`crate::goals::GOAL_READERS`).
            Call::GoalRead { function, goal } => {
                $v.head(spec!("goal_read", Value, Tactics, ["Z3_goal_size"], ApiOnly));
                $v.string(function, "a Z3 goal function");
                $v.goal(goal);
            }
            Call::ProbeApply { goal, op, first, second } => {
                $v.head(spec!("probe_apply", Value, Tactics, ["Z3_probe_apply", "Z3_mk_probe", "Z3_probe_and", "Z3_probe_or", "Z3_probe_not"], ApiOnly));
                $v.goal(goal);
                $v.string(op, "a probe combinator");
                $v.string(first, "a probe name");
                $v.string(second, "a probe name, or \"\" for a combinator of one");
            }
            Call::CheckSatInterrupted { solver, delay_us } => {
                $v.head(spec!("check_sat_interrupted", Sat, Solvers, ["Z3_solver_check", "Z3_interrupt"], ApiOnly));
                $v.solver(solver);
                $v.number(delay_us, "microseconds");
            }
            Call::ApplyTacticWith { tactic, goal, rlimit, params } => {
                $v.head(spec!("goal_apply_with", Value, Tactics, ["Z3_tactic_apply_ex", "Z3_mk_params"], ApiOnly));
                $v.tactic(tactic);
                $v.goal(goal);
                $v.number(rlimit, "a resource limit");
                $v.string_pairs(params, "parameters in pairs of names and values");
            }
            // The function is an argument (`crate::goals::SOLVER_READERS`).
            Call::SolverRead { function, solver } => {
                $v.head(spec!("solver_read", Value, Solvers, ["Z3_solver_get_assertions"], ApiOnly));
                $v.string(function, "a Z3 solver function");
                $v.solver(solver);
            }
            Call::AsArray(func) => {
                $v.head(spec!("as_array", Term, Terms, ["Z3_mk_as_array"], Written));
                $v.func(func);
            }
            Call::ArrayExt(a, b) => {
                $v.head(spec!("array_ext", Term, Terms, ["Z3_mk_array_ext"], ApiOnly));
                $v.term(a);
                $v.term(b);
            }
            Call::ArrayMap { func, arrays } => {
                $v.head(spec!("array_map", Term, Terms, ["Z3_mk_map", "Z3_get_app_decl"], Written));
                $v.func(func);
                $v.terms(arrays, List::Fixed);
            }
            Call::SortFiniteSet(element) => {
                $v.head(spec!("sort_finite_set", Sort, FiniteSets, ["Z3_mk_finite_set_sort", "Z3_is_finite_set_sort", "Z3_get_finite_set_sort_basis"], Written));
                $v.sort(element);
            }
            Call::FsetEmpty(s) => {
                $v.head(spec!("fset_empty", Term, FiniteSets, ["Z3_mk_finite_set_empty"], Written));
                $v.sort(s);
            }
            Call::FsetSingleton(e) => {
                $v.head(spec!("fset_singleton", Term, FiniteSets, ["Z3_mk_finite_set_singleton"], Smt2::Indexed { head: "set.singleton", standard: false }));
                $v.term(e);
            }
            Call::FsetUnion(a, b) => {
                $v.head(spec!("fset_union", Term, FiniteSets, ["Z3_mk_finite_set_union"], Smt2::Indexed { head: "set.union", standard: false }));
                $v.term(a);
                $v.term(b);
            }
            Call::FsetIntersect(a, b) => {
                $v.head(spec!("fset_intersect", Term, FiniteSets, ["Z3_mk_finite_set_intersect"], Smt2::Indexed { head: "set.intersect", standard: false }));
                $v.term(a);
                $v.term(b);
            }
            Call::FsetDifference(a, b) => {
                $v.head(spec!("fset_difference", Term, FiniteSets, ["Z3_mk_finite_set_difference"], Smt2::Indexed { head: "set.difference", standard: false }));
                $v.term(a);
                $v.term(b);
            }
            Call::FsetMember(e, set) => {
                $v.head(spec!("fset_member", Term, FiniteSets, ["Z3_mk_finite_set_member"], Smt2::Indexed { head: "set.in", standard: false }));
                $v.term(e);
                $v.term(set);
            }
            Call::FsetSubset(a, b) => {
                $v.head(spec!("fset_subset", Term, FiniteSets, ["Z3_mk_finite_set_subset"], Smt2::Indexed { head: "set.subset", standard: false }));
                $v.term(a);
                $v.term(b);
            }
            Call::FsetSize(set) => {
                $v.head(spec!("fset_size", Term, FiniteSets, ["Z3_mk_finite_set_size"], Smt2::Indexed { head: "set.size", standard: false }));
                $v.term(set);
            }
            Call::FsetRange(low, high) => {
                $v.head(spec!("fset_range", Term, FiniteSets, ["Z3_mk_finite_set_range"], Smt2::Indexed { head: "set.range", standard: false }));
                $v.term(low);
                $v.term(high);
            }
            Call::FsetMap { set, add, mul } => {
                $v.head(spec!("fset_map", Term, FiniteSets, ["Z3_mk_finite_set_map", "Z3_mk_lambda_const"], Written));
                $v.term(set);
                $v.int(add, "the lambda's addend");
                $v.int(mul, "the lambda's factor");
            }
            Call::SortFiniteField(prime) => {
                $v.head(spec!("sort_finite_field", Sort, FiniteFields, ["Z3_mk_finite_field_sort", "Z3_get_finite_field_sort_size"], Written));
                $v.number(prime, "the field's prime order");
            }
            Call::FfAdd(terms) => {
                $v.head(spec!("ff_add", Term, FiniteFields, ["Z3_mk_ff_add"], Smt2::Indexed { head: "ff.add", standard: false }));
                $v.terms(terms, List::Shrink { min: 2 });
            }
            Call::FfMul(terms) => {
                $v.head(spec!("ff_mul", Term, FiniteFields, ["Z3_mk_ff_mul"], Smt2::Indexed { head: "ff.mul", standard: false }));
                $v.terms(terms, List::Shrink { min: 2 });
            }
            Call::FfNeg(a) => {
                $v.head(spec!("ff_neg", Term, FiniteFields, ["Z3_mk_ff_neg"], Smt2::Indexed { head: "ff.neg", standard: false }));
                $v.term(a);
            }
            Call::FfBitsum(terms) => {
                $v.head(spec!("ff_bitsum", Term, FiniteFields, ["Z3_mk_ff_bitsum"], Smt2::Indexed { head: "ff.bitsum", standard: false }));
                $v.terms(terms, List::Shrink { min: 2 });
            }
            Call::FsetFilter { set, low, high } => {
                $v.head(spec!("fset_filter", Term, FiniteSets, ["Z3_mk_finite_set_filter", "Z3_mk_lambda_const"], Written));
                $v.term(set);
                $v.int(low, "the least element kept");
                $v.int(high, "the greatest element kept");
            }
            Call::Qe { lite: false, model, formula, vars } => {
                $v.head(spec!("qe_project", Term, Quantifiers, ["Z3_qe_model_project", "Z3_model_eval"], ApiOnly));
                $v.model(model);
                $v.term(formula);
                $v.terms(vars, List::Shrink { min: 1 });
            }
            Call::Qe { lite: true, model, formula, vars } => {
                $v.head(spec!("qe_lite", Term, Quantifiers, ["Z3_qe_lite", "Z3_model_eval"], ApiOnly));
                $v.model(model);
                $v.term(formula);
                $v.terms(vars, List::Shrink { min: 1 });
            }
            Call::QuantRebuild { function, term } => {
                $v.head(spec!("quant_rebuild", Term, Quantifiers, ["Z3_mk_forall_const", "Z3_mk_exists_const", "Z3_mk_quantifier_const", "Z3_mk_quantifier", "Z3_mk_quantifier_ex", "Z3_mk_forall", "Z3_mk_exists", "Z3_mk_lambda", "Z3_mk_lambda_const", "Z3_mk_bound", "Z3_mk_pattern", "Z3_substitute_vars", "Z3_get_quantifier_body", "Z3_get_quantifier_bound_sort", "Z3_get_quantifier_pattern_ast", "Z3_get_quantifier_no_pattern_ast", "Z3_get_pattern_num_terms", "Z3_get_pattern", "Z3_pattern_to_ast", "Z3_is_quantifier_forall", "Z3_is_eq_ast"], Written));
                $v.string(function, "a quantifier maker");
                $v.term(term);
            }
            Call::AstMap(pairs) => {
                $v.head(spec!("ast_map", None, Handles, ["Z3_mk_ast_map", "Z3_ast_map_inc_ref", "Z3_ast_map_insert", "Z3_ast_map_erase", "Z3_ast_map_find", "Z3_ast_map_contains", "Z3_ast_map_size", "Z3_ast_map_keys", "Z3_ast_map_to_string", "Z3_ast_map_reset", "Z3_ast_map_dec_ref", "Z3_get_ast_id", "Z3_is_eq_ast"], ApiOnly));
                $v.term_pairs(pairs, "pairs of a key and a value (a key twice: erase it)");
            }
            Call::AstVector(terms) => {
                $v.head(spec!("ast_vector", None, Handles, ["Z3_mk_ast_vector", "Z3_ast_vector_inc_ref", "Z3_ast_vector_push", "Z3_ast_vector_set", "Z3_ast_vector_resize", "Z3_ast_vector_size", "Z3_ast_vector_get", "Z3_ast_vector_to_string", "Z3_ast_vector_translate", "Z3_ast_vector_dec_ref", "Z3_is_eq_ast", "Z3_ast_to_string"], ApiOnly));
                $v.terms(terms, List::Shrink { min: 1 });
            }
            // The function is an argument (`crate::handles::GLOBAL_READERS`).
            Call::ReadGlobal { function, subject } => {
                $v.head(spec!("read_global", None, Reads, ["Z3_get_full_version", "Z3_get_num_tactics", "Z3_get_num_probes", "Z3_mk_tactic", "Z3_mk_probe", "Z3_solver_get_param_descrs", "Z3_simplify_get_param_descrs", "Z3_optimize_get_param_descrs", "Z3_tactic_get_param_descrs", "Z3_tactic_get_descr", "Z3_mk_params", "Z3_params_validate", "Z3_params_to_string", "Z3_global_param_set"], ApiOnly));
                $v.string(function, "a Z3 global read function");
                $v.string(subject, "its subject (a tactic, probe or parameter name, or empty)");
            }
            // The function is an argument (`crate::introspect::OPT_READERS`); the spec names
            // the functions every read makes to copy the context.
            Call::OptRead { function, opt } => {
                $v.head(spec!("opt_read", Value, Optimize, ["Z3_mk_optimize", "Z3_optimize_inc_ref", "Z3_optimize_assert", "Z3_optimize_assert_soft", "Z3_optimize_minimize", "Z3_optimize_maximize", "Z3_optimize_push", "Z3_optimize_dec_ref"], ApiOnly));
                $v.string(function, "a Z3 Optimize function");
                $v.opt(opt);
            }
            Call::ModelFunc { model, func, default, entries } => {
                $v.head(spec!("model_func", None, HandModels, ["Z3_add_func_interp", "Z3_func_interp_inc_ref", "Z3_func_interp_add_entry", "Z3_func_interp_set_else", "Z3_func_interp_dec_ref", "Z3_mk_ast_vector"], ApiOnly));
                $v.model(model);
                $v.func(func);
                $v.term(default);
                $v.terms(entries, List::Fixed);
            }
            // The function is an argument (`crate::introspect::MODEL_READERS`).
            Call::ModelRead { function, model } => {
                $v.head(spec!("model_read", Value, HandModels, ["Z3_model_eval"], ApiOnly));
                $v.string(function, "a Z3 model function");
                $v.model(model);
            }
            Call::Divides { divisor, term } => {
                $v.head(spec!("divides", Term, Terms, ["Z3_mk_divides", "Z3_mk_unsigned_int"], Smt2::Indexed { head: "divisible", standard: true }));
                $v.number(divisor, "a divisor");
                $v.term(term);
            }
            Call::SeqLastIndex(s, t) => {
                $v.head(spec!("seq_last_index", Term, Terms, ["Z3_mk_seq_last_index"], Smt2::Indexed { head: "seq.last_indexof", standard: false }));
                $v.term(s);
                $v.term(t);
            }
            Call::SetHasSize(set, size) => {
                $v.head(spec!("set_has_size", Term, Terms, ["Z3_mk_set_has_size"], ApiOnly));
                $v.term(set);
                $v.term(size);
            }
            Call::ConstIntSym { index, sort } => {
                $v.head(spec!("const_int_sym", Term, Terms, ["Z3_mk_int_symbol", "Z3_mk_const", "Z3_get_decl_name", "Z3_get_symbol_kind", "Z3_get_symbol_int"], ApiOnly));
                $v.number(index, "an integer symbol");
                $v.sort(sort);
            }
            Call::FunIntSym { index, domain, range } => {
                $v.head(spec!("fun_int_sym", Func, Terms, ["Z3_mk_int_symbol", "Z3_mk_func_decl", "Z3_get_decl_name", "Z3_get_symbol_kind", "Z3_get_symbol_int"], ApiOnly));
                $v.number(index, "an integer symbol");
                $v.sort(range);
                $v.sorts(domain);
            }
            Call::FreshFunc { prefix, domain, range } => {
                $v.head(spec!("fun_fresh", Func, Terms, ["Z3_mk_fresh_func_decl", "Z3_get_decl_name", "Z3_get_symbol_string", "Z3_get_domain_size", "Z3_get_range"], ApiOnly));
                $v.string(prefix, "a name prefix");
                $v.sort(range);
                $v.sorts(domain);
            }
            Call::SortArrayN { domain, range } => {
                $v.head(spec!("sort_array_n", Sort, Sorts, ["Z3_mk_array_sort_n", "Z3_is_eq_sort"], Written));
                $v.sort(range);
                $v.sorts(domain);
            }
            Call::SortRe(s) => {
                $v.head(spec!("sort_re", Sort, Sorts, ["Z3_mk_re_sort"], Written));
                $v.sort(s);
            }
            Call::UpdateTerm { term, args } => {
                $v.head(spec!("update_term", Term, Terms, ["Z3_update_term", "Z3_get_app_decl", "Z3_mk_app", "Z3_is_eq_ast"], ApiOnly));
                $v.term(term);
                $v.terms(args, List::Fixed);
            }
            // The function is an argument (`crate::seq_hof::SEQ_HOFS`).
            Call::SeqHof { function, args, add, mul } => {
                $v.head(spec!("seq_hof", Term, Terms, ["Z3_mk_seq_map", "Z3_mk_seq_mapi", "Z3_mk_seq_foldl", "Z3_mk_seq_foldli", "Z3_mk_lambda_const"], Written));
                $v.string(function, "a Z3 higher-order sequence function");
                $v.int(add, "the lambda's addend");
                $v.int(mul, "the lambda's factor of the element");
                $v.terms(args, List::Fixed);
            }
        }
    }};
}

/// The calls that are their description's one Z3 function and nothing else: its parameters
/// take the call's arguments (by kind, in trace order), it returns the call's term or
/// nothing, and neither the reference state's bookkeeping nor an oracle needs more of the
/// executor. A pattern for the exhaustive matches that say what a call does in Z3: the
/// executor calls such a call's function by name (`untrace::executor::plain`) and the
/// reproducer writers print the same call, so a new call of this kind is one more line here
/// and its preconditions in `State::check`, and neither of them changes.
#[macro_export]
macro_rules! plain_call {
    () => {
        $crate::call::Call::ConstArray { .. }
            | $crate::call::Call::SetUnion(..)
            | $crate::call::Call::SetIntersect(..)
            | $crate::call::Call::SetDifference(..)
            | $crate::call::Call::SetComplement(..)
            | $crate::call::Call::SetSubset(..)
            | $crate::call::Call::EmptySet(..)
            | $crate::call::Call::FullSet(..)
            | $crate::call::Call::SelectN { .. }
            | $crate::call::Call::StoreN { .. }
            | $crate::call::Call::ArrayDefault(..)
            | $crate::call::Call::SetAdd(..)
            | $crate::call::Call::SetDel(..)
            | $crate::call::Call::SetMember(..)
            | $crate::call::Call::ArrayExt(..)
            | $crate::call::Call::Card { .. }
            | $crate::call::Call::FsetEmpty(..)
            | $crate::call::Call::FsetSingleton(..)
            | $crate::call::Call::FsetUnion(..)
            | $crate::call::Call::FsetIntersect(..)
            | $crate::call::Call::FsetDifference(..)
            | $crate::call::Call::FsetMember(..)
            | $crate::call::Call::FsetSubset(..)
            | $crate::call::Call::FsetSize(..)
            | $crate::call::Call::FsetRange(..)
            | $crate::call::Call::FfAdd(..)
            | $crate::call::Call::FfMul(..)
            | $crate::call::Call::FfNeg(..)
            | $crate::call::Call::FfBitsum(..)
            | $crate::call::Call::SeqLastIndex(..)
            | $crate::call::Call::SetHasSize(..)
    };
}

/// One Z3 API call.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Call {
    // Sorts.
    SortBool,
    SortInt,
    SortReal,
    SortBv(u32),
    SortFp(u32, u32),
    SortRm,
    SortString,
    SortArray(SortId, SortId),
    SortSeq(SortId),
    SortUninterpreted(String),
    // Terms.
    /// A fresh constant (an input) of a sort: `const s1 "x"`.
    Const {
        sort: SortId,
        name: String,
    },
    /// A literal value of a sort, written as SMT-LIB would print its value
    /// (`"255"` for a bit-vector, `"-3/4"` for a Real, `"abc"` for a String).
    Lit {
        sort: SortId,
        value: String,
    },
    /// An uninterpreted function: `fun "f" RANGE DOMAIN...`.
    Fun {
        name: String,
        domain: Vec<SortId>,
        range: SortId,
    },
    Apply {
        func: FuncId,
        args: Vec<TermId>,
    },
    /// An operation of the table: `bvadd t1 t2`, `extract 7 0 t1`.
    Op {
        op: Op,
        indices: Vec<u32>,
        args: Vec<TermId>,
    },
    /// A constant array: `const_array INDEX_SORT VALUE`.
    ConstArray {
        index: SortId,
        value: TermId,
    },
    Simplify(TermId),
    /// Replace each `from` by its `to` in `term`.
    Substitute {
        term: TermId,
        pairs: Vec<(TermId, TermId)>,
    },
    // Solvers.
    NewSolver(SolverKind),
    /// A solver parameter, `Solver::set_params`.
    SetParam {
        solver: SolverId,
        key: String,
        value: String,
    },
    /// A global parameter, `set_global_param`.
    SetGlobal {
        key: String,
        value: String,
    },
    Push(SolverId),
    Pop(SolverId, u32),
    Assert(SolverId, TermId),
    AssertAndTrack {
        solver: SolverId,
        term: TermId,
        tracker: TermId,
    },
    CheckSat(SolverId),
    CheckSatAssuming(SolverId, Vec<TermId>),
    GetUnsatCore(SolverId),
    GetModel(SolverId),
    /// `Model::eval(term, completion)`.
    ModelEval {
        model: ModelId,
        term: TermId,
        completion: bool,
    },
    /// Clone a solver into a fresh context.
    Translate(SolverId),
    Reset(SolverId),
    /// Dump the assertions as SMT-LIB; the text is not recorded (it names Z3's internals).
    ToSmt2(SolverId),
    /// Parse SMT-LIB text into a solver's assertions.
    FromString(SolverId, String),
    /// Drop the handle of any object.
    Release(AnyId),
    /// Drop a solver.
    Delete(SolverId),
    /// An oracle check: replays run it exactly as the fuzzer did; a check that does not hold
    /// is a finding. Appended last so that older binary traces keep their variant numbers.
    Check(Check),
    /// `simplify_with tT "KEY" "VALUE" ...`: T simplified with simplifier parameters
    /// (`Z3_simplify_ex`). Last, so that binary traces of format 1 keep their variant numbers.
    SimplifyWith {
        term: TermId,
        params: Vec<(String, String)>,
    },
    /// `var sS "x"`: a bound variable of sort S, a constant of its own (`Z3_mk_fresh_const`,
    /// so that no `const` of the same name and sort is the same term) that only a quantifier
    /// over it may close. A term that mentions a variable no quantifier above it binds is
    /// open: the reference state lets it into term-building calls only.
    Var {
        sort: SortId,
        name: String,
    },
    /// `forall|exists WEIGHT tV... body tB [pattern tP...]... [no_pattern tN]...`: the
    /// quantifier over the variables tV (made by `var`) of body tB, with multi-patterns and
    /// no-patterns (`Z3_mk_pattern`, `Z3_mk_quantifier_const_ex`).
    Quantifier {
        forall: bool,
        weight: u32,
        vars: Vec<TermId>,
        body: TermId,
        patterns: Vec<Vec<TermId>>,
        no_patterns: Vec<TermId>,
    },
    /// `declare_datatypes api|parser [par "T" ...] datatype "D" ctor "c" "f" sN|dK|pK ...`:
    /// a group of (mutually recursive, possibly parametric) datatypes; returns nothing, the
    /// sorts are made by `sort_datatype`. See `model::datatype`.
    DeclareDatatypes {
        path: DeclPath,
        params: Vec<String>,
        datatypes: Vec<DatatypeDecl>,
    },
    /// `sort_datatype "D" sP...`: the datatype D (at parameter sorts P...).
    SortDatatype {
        name: String,
        params: Vec<SortId>,
    },
    /// `dt_cons sS "c" tA...`: constructor c of datatype sort S applied to the fields.
    DtConstruct {
        sort: SortId,
        ctor: String,
        args: Vec<TermId>,
    },
    /// `dt_is "c" tT`: the tester (recognizer) of constructor c.
    DtTest {
        ctor: String,
        term: TermId,
    },
    /// `dt_sel "f" tT`: the accessor of field f.
    DtSelect {
        field: String,
        term: TermId,
    },
    /// `dt_update "f" tT tV`: T with field f replaced by V (`Z3_datatype_update_field`).
    DtUpdate {
        field: String,
        term: TermId,
        value: TermId,
    },
    /// `new_solver_config "KEY" "VALUE" ...`: a default solver in a fresh context made from a
    /// configuration (`Z3_mk_config`, `Z3_set_param_value` of each pair; the keys of
    /// [`crate::options::CONTEXT_PARAMS`]). Terms asserted to it are translated into its
    /// context. Appended last: binary traces keep their variant numbers.
    NewSolverConfig(Vec<(String, String)>),
    /// `translate_config zZ "KEY" "VALUE" ...`: Z copied (`Z3_solver_translate`) into a fresh
    /// context made from that configuration.
    TranslateConfig {
        solver: SolverId,
        config: Vec<(String, String)>,
    },
    /// `get_proof zZ`: the proof of Z's last unsat answer (`Z3_solver_get_proof`); the proof
    /// itself is not recorded (it names Z3's internals). Z3 refuses it where the solver does
    /// not generate proofs, an expected refusal; where it must (see the executor), a refusal
    /// is a finding.
    GetProof(SolverId),
    // Tactics and goals (appended: the binary format numbers variants).
    /// A tactic object, by name or combinator (see [`TacticExpr`]).
    MkTactic(TacticExpr),
    /// `goal_new true|false`: an empty goal (the flag: whether it keeps models).
    NewGoal {
        models: bool,
    },
    /// `goal_assert gG tB`.
    GoalAssert(GoalId, TermId),
    /// `goal_apply kK gG RLIMIT`: the tactic applied to the goal under a resource limit;
    /// returns the number of subgoals (`return "2"`).
    ApplyTactic {
        tactic: TacticId,
        goal: GoalId,
        rlimit: u32,
    },
    /// `goal_subgoal gG I`: subgoal I of the last `goal_apply` to G, a new goal.
    Subgoal(GoalId, u32),
    /// `goal_formula gG`: the conjunction of G's formulas (`Z3_goal_formula`), a new term.
    GoalFormula(GoalId),
    // Optimize.
    /// `opt_new`: an Optimize context.
    NewOptimize,
    /// `opt_set_param oO "KEY" "VALUE"`.
    OptSetParam {
        opt: OptId,
        key: String,
        value: String,
    },
    /// `opt_assert oO tB`: a hard constraint.
    OptAssert(OptId, TermId),
    /// `opt_assert_soft oO tB WEIGHT "GROUP"`: a soft constraint with a positive integer
    /// weight; soft constraints of one group form one objective (the sum of the weights of
    /// those violated, minimized).
    OptAssertSoft {
        opt: OptId,
        term: TermId,
        weight: u32,
        group: String,
    },
    /// `opt_minimize oO tT` / `opt_maximize oO tT`: an objective over an Int, Real or
    /// bit-vector term.
    OptObjective {
        opt: OptId,
        term: TermId,
        direction: Direction,
    },
    OptPush(OptId),
    /// Pops one scope (Z3's `Z3_optimize_pop`).
    OptPop(OptId),
    OptCheck(OptId),
    OptGetModel(OptId),
    /// `opt_lower oO I` / `opt_upper oO I`: the bound Z3 reports for objective I (in the
    /// order objectives were made), as Z3 prints it (`5`, `oo`, `(+ 3 (* (- 1) epsilon))`).
    OptBound {
        opt: OptId,
        index: u32,
        upper: bool,
    },
    /// `pb_le K C1 tA1 C2 tA2 ...` (`pb_ge`, `pb_eq`): the pseudo-Boolean constraint
    /// C1·A1 + C2·A2 + ... ≤ K (≥ K, = K) over Bool terms Ai with signed coefficients
    /// (`Z3_mk_pble`, `Z3_mk_pbge`, `Z3_mk_pbeq`). Appended last: binary traces keep their
    /// variant numbers.
    Pb {
        cmp: PbCmp,
        bound: i32,
        terms: Vec<(i32, TermId)>,
    },
    /// `cube zZ`: one cube of Z's assertions (`Z3_solver_cube` without variables and cutoff,
    /// as the bindings' `cube()` asks), by a solver of Z's context given Z's assertions (the
    /// `z3` crate gives no raw handle of Z itself); the cube is not recorded. What lifted
    /// logs need for `Z3_solver_cube`. Appended last: binary traces keep their variant numbers.
    Cube(SolverId),
    /// `set_union tA tB ...`: the union of sets (`Z3_mk_set_union`), arrays to Bool of one
    /// sort, at least one. Appended last: binary traces keep their variant numbers.
    SetUnion(Vec<TermId>),
    /// `read "Z3_FUNCTION" tT`: the read-back function (`crate::read::READERS`) of term T;
    /// records Z3's answer as text (`crate::read` says which), which must be what the
    /// reference state expects of what built T (`crate::read::expected_for_term`): a wrong
    /// answer is a `read-back` finding. Appended last: binary traces keep their variant
    /// numbers.
    Read {
        function: String,
        term: TermId,
    },
    /// `read_sort "Z3_FUNCTION" sS`: the same for a read-back of sort S.
    ReadSort {
        function: String,
        sort: SortId,
    },
    /// `read_eq tA tB`: `Z3_is_eq_ast` of A and B (`true`/`false`); equal terms have equal
    /// hashes and ids, terms Z3 must share (the same literal or constant twice) are equal,
    /// terms of different sorts are not.
    ReadEq(TermId, TermId),
    /// `read_stats zZ`: Z's statistics read entry by entry (`Z3_solver_get_statistics`,
    /// `Z3_stats_*`); nothing is recorded (they count work), their shape is checked: keys
    /// named, each entry either an unsigned or a finite non-negative double.
    ReadStats(SolverId),
    /// `rec_fun "NAME" sR sD...`: a recursive function from D... to R
    /// (`Z3_mk_rec_func_decl`), applied by `apply` like any function; `rec_def` gives its
    /// body, once. Appended last: binary traces keep their variant numbers.
    RecFun {
        name: String,
        domain: Vec<SortId>,
        range: SortId,
    },
    /// `rec_def fF tV... body tB`: the definition F(V...) = B of the recursive function F
    /// (`Z3_add_rec_def`): the parameters V are distinct `var` terms of F's domain sorts,
    /// B of F's range mentions no other variable freely (SMT-LIB `define-fun-rec`).
    RecDef {
        func: FuncId,
        vars: Vec<TermId>,
        body: TermId,
    },
    /// `linear_order sS I` (`partial_order`, `piecewise_linear_order`, `tree_order`): the
    /// special relation of that kind over S numbered I (`Z3_mk_linear_order`, ...), a binary
    /// Bool function applied by `apply`; SMT-LIB `(_ linear-order I)` (Z3's dialect).
    Relation {
        kind: RelationKind,
        sort: SortId,
        index: u32,
    },
    /// `transitive_closure fF`: the transitive closure of the binary relation F of sort
    /// S × S → Bool (`Z3_mk_transitive_closure`); SMT-LIB `(_ transitive-closure F)` (Z3's
    /// dialect).
    TransitiveClosure(FuncId),
    /// `model_new`: an empty model built by hand (`Z3_mk_model`), a model like those
    /// `get_model` gives (`model_eval`, `check_eval`, `release`).
    NewModel,
    /// `model_const mM tC tV`: M interprets the constant C (made by `const`) as V, a closed
    /// term of C's sort (`Z3_add_const_interp` of C's declaration).
    ModelConst {
        model: ModelId,
        constant: TermId,
        value: TermId,
    },
    // Real closed fields (`Z3_rcf_*`), numbers of their own (`r` ids), released by
    // `release rR` (`Z3_rcf_del`). Appended last: binary traces keep their variant numbers.
    /// `rcf_rational "Q"`, `rcf_small_int N`, `rcf_pi`, `rcf_e`, `rcf_infinitesimal`.
    RcfMk(RcfMk),
    /// `rcf_add rA rB` (`rcf_sub`, `rcf_mul`, `rcf_div`).
    RcfArith {
        op: RcfOp,
        a: RcfId,
        b: RcfId,
    },
    /// `rcf_neg rA`.
    RcfNeg(RcfId),
    /// `rcf_inv rA`: 1/A.
    RcfInv(RcfId),
    /// `rcf_power rA K`: A to the K-th.
    RcfPower(RcfId, u32),
    /// `rcf_lt rA rB` (`rcf_gt`, `rcf_le`, `rcf_ge`, `rcf_eq`, `rcf_neq`): `true` or `false`.
    RcfCompare {
        cmp: RcfCmp,
        a: RcfId,
        b: RcfId,
    },
    /// `rcf_to_string rA COMPACT HTML`: A as Z3 prints it (`3/4`, `eps!1 + pi`,
    /// `root(x^2 + -2, (0, +oo), {})`).
    RcfToString {
        num: RcfId,
        compact: bool,
        html: bool,
    },
    /// `rcf_to_decimal rA P`: A to P digits after the point (`0.75`, `3.1415926535?`).
    RcfToDecimal(RcfId, u32),
    /// `rcf_roots rC0 rC1 ...`: how many real roots the polynomial C0 + C1·x + ... has
    /// (`Z3_rcf_mk_roots`; the roots are deleted).
    RcfRoots(Vec<RcfId>),
    /// `rcf_root I rC0 rC1 ...`: root I (from 0, in increasing order by `Z3_rcf_lt`; Z3
    /// returns them in no promised order) of that polynomial, whose coefficients are
    /// rational (so that the reference state knows its roots).
    RcfRoot {
        index: u32,
        coeffs: Vec<RcfId>,
    },
    /// `rcf_numerator rA` / `rcf_denominator rA` (`Z3_rcf_get_numerator_denominator`).
    RcfNumDen {
        num: RcfId,
        denominator: bool,
    },
    // Algebraic numbers (`Z3_algebraic_*`): Real terms that are numerals, made by `lit` of
    // Real or Int sort or by these calls. No SMT-LIB form (`root-obj` is Z3's own).
    /// `algebraic_add tA tB` (`algebraic_sub`, `algebraic_mul`, `algebraic_div`): a term.
    AlgebraicArith {
        op: RcfOp,
        a: TermId,
        b: TermId,
    },
    /// `algebraic_power tA K`: A to the K-th.
    AlgebraicPower(TermId, u32),
    /// `algebraic_root tA K`: the K-th root of A (A not negative for an even K).
    AlgebraicRoot(TermId, u32),
    /// `algebraic_lt tA tB` (`algebraic_gt`, `_le`, `_ge`, `_eq`, `_neq`): `true` / `false`.
    AlgebraicCompare {
        cmp: RcfCmp,
        a: TermId,
        b: TermId,
    },
    /// `algebraic_sign tA`: `-1`, `0` or `1`.
    AlgebraicSign(TermId),
    /// `algebraic_is_value tT` (`algebraic_is_pos`, `_is_neg`, `_is_zero` of a number):
    /// `true` / `false`.
    AlgebraicIs {
        test: AlgebraicTest,
        term: TermId,
    },
    /// `set_intersect tA tB ...`: the intersection of sets (`Z3_mk_set_intersect`), arrays
    /// to Bool of one sort, at least one. Appended last: binary traces keep their variant
    /// numbers (so are the calls below).
    SetIntersect(Vec<TermId>),
    /// `set_difference tA tB`: A without B (`Z3_mk_set_difference`).
    SetDifference(TermId, TermId),
    /// `set_complement tA` (`Z3_mk_set_complement`).
    SetComplement(TermId),
    /// `set_subset tA tB`: whether A is a subset of B (`Z3_mk_set_subset`).
    SetSubset(TermId, TermId),
    /// `empty_set sS`: the empty set of elements of sort S (`Z3_mk_empty_set`).
    EmptySet(SortId),
    /// `full_set sS`: the set of every element of sort S (`Z3_mk_full_set`).
    FullSet(SortId),
    /// `select_n tA tI... `: A at the indices I... (`Z3_mk_select_n`), one per dimension.
    SelectN {
        array: TermId,
        indices: Vec<TermId>,
    },
    /// `store_n tA tI... value tV`: A with V at the indices I... (`Z3_mk_store_n`).
    StoreN {
        array: TermId,
        indices: Vec<TermId>,
        value: TermId,
    },
    /// `array_default tA`: the default value of A (`Z3_mk_array_default`), for the arrays
    /// that have one (a constant array's value; Z3 leaves it open otherwise).
    ArrayDefault(TermId),
    /// `read_rcf "Z3_FUNCTION" rR`: a read-back of the RCF number R's representation
    /// (`crate::read::READERS` of subject `Rcf`, functions only releases after 4.8.12 have):
    /// which kind of field extension it is in, its defining polynomial, isolating interval
    /// and sign conditions (a function with an index read at every index); judged where the
    /// reference state knows what made R. Appended last: binary traces keep their variant
    /// numbers.
    ReadRcf {
        function: String,
        rcf: RcfId,
    },
    // Fixedpoint contexts (`Z3_fixedpoint_*`: Spacer and Datalog). A trace has one
    // fixedpoint context at a time, the last `fp_new`'s, which the other `fp_` calls use (it
    // has no id: nothing else refers to it). Appended last: binary traces keep their variant
    // numbers.
    /// `fp_new "ENGINE"`: a fresh fixedpoint context (`Z3_mk_fixedpoint`) with engine
    /// ENGINE (`spacer`, `datalog`), replacing the one before (released).
    FpNew {
        engine: String,
    },
    /// `fp_register fR`: R, a function to Bool, is a relation of the fixedpoint
    /// (`Z3_fixedpoint_register_relation`).
    FpRegister(FuncId),
    /// `fp_rule tR "NAME"`: the Horn clause R (a closed Bool term: an application of a
    /// registered relation, or `forall` vars of `(=> body head)`), named NAME
    /// (`Z3_fixedpoint_add_rule`).
    FpRule {
        rule: TermId,
        name: String,
    },
    /// `fp_update_rule tR "NAME"`: the rule named NAME replaced by R
    /// (`Z3_fixedpoint_update_rule`).
    FpUpdateRule {
        rule: TermId,
        name: String,
    },
    /// `fp_assert tA`: a background formula (`Z3_fixedpoint_assert`).
    FpAssert(TermId),
    /// `fp_query tQ RLIMIT`: is the closed Bool query Q derivable (`sat`) or not (`unsat`),
    /// under the context's resource limit RLIMIT (`Z3_fixedpoint_query`; Z3 4.8.12's
    /// fixedpoint has no `rlimit` parameter, so the context's is set around the query).
    FpQuery {
        query: TermId,
        rlimit: u32,
    },
    /// `fp_query_relation fR RLIMIT`: is any fact of R derivable
    /// (`Z3_fixedpoint_query_relations` of R alone).
    FpQueryRelation {
        relation: FuncId,
        rlimit: u32,
    },
    /// `fp_read "Z3_FUNCTION"`: a reader of the fixedpoint (`crate::fixedpoint::READERS`);
    /// nothing recorded (texts and statistics), the call's success is the check.
    FpRead(String),
    /// `fp_read_rel "Z3_FUNCTION" fR`: a reader of the fixedpoint's relation R.
    FpReadRel {
        function: String,
        relation: FuncId,
    },
    /// `fp_from_string "TEXT"`: rules and queries of an SMT-LIB fixedpoint script
    /// (`Z3_fixedpoint_from_string`); the queries it returns are not asked.
    FpFromString(String),
    /// `fp_set_param "KEY" "VALUE"`: a parameter of the fixedpoint
    /// (`Z3_fixedpoint_set_params`; `true`/`false` a Boolean, digits a number, else a symbol),
    /// one of [`crate::fixedpoint::PARAMS`].
    FpSetParam {
        key: String,
        value: String,
    },
    /// `sort_fp_fixed "Z3_FUNCTION"`: a floating-point sort from one of Z3's makers of a
    /// fixed format (`Z3_mk_fpa_sort_half`, ...: [`crate::call::FIXED_FP_FORMATS`]), which
    /// must be the sort `Z3_mk_fpa_sort` makes of that format.
    SortFpFixed(String),
    /// `sort_set sE`: the sort of sets of E (`Z3_mk_set_sort`), arrays from E to Bool.
    SortSet(SortId),
    /// `set_add tS tE`: S with E (`Z3_mk_set_add`).
    SetAdd(TermId, TermId),
    /// `set_del tS tE`: S without E (`Z3_mk_set_del`).
    SetDel(TermId, TermId),
    /// `set_member tE tS`: whether E is in S (`Z3_mk_set_member`; the element first, as Z3
    /// takes them).
    SetMember(TermId, TermId),
    /// `goal_read "Z3_FUNCTION" gG`: a reader of goal G (`crate::goals::GOAL_READERS`),
    /// judged by the executor; numbers and flags are recorded, texts as `ok`. Appended last:
    /// binary traces keep their variant numbers (so are the calls below).
    GoalRead {
        function: String,
        goal: GoalId,
    },
    /// `probe_apply gG "OP" "P1" "P2"`: the probe P1 (`value`), its negation (`not`), or
    /// P1 and/or P2 (`and`, `or`; `crate::goals::PROBE_OPS`) applied to G
    /// (`Z3_probe_apply`), recorded as Z3 prints the double; a combination must be what
    /// its probes' own values on G make it (`crate::goals::probe_combined`).
    ProbeApply {
        goal: GoalId,
        op: String,
        first: String,
        second: String,
    },
    /// `check_sat_interrupted zZ US`: Z's check, interrupted (`Z3_interrupt` of its
    /// context) from a second thread after US microseconds. Its answer is `unknown` or Z's
    /// answer, which one depending on the clock: a replay accepts `unknown` in place of
    /// the recorded answer and anything in place of a recorded `unknown`; nothing later
    /// relies on it (the reference state takes Z as unchecked).
    CheckSatInterrupted {
        solver: SolverId,
        delay_us: u32,
    },
    /// `solver_read "Z3_FUNCTION" zZ`: a reader of solver Z (`crate::goals::SOLVER_READERS`),
    /// judged by the executor; numbers recorded, texts as `ok`.
    SolverRead {
        function: String,
        solver: SolverId,
    },
    /// `quant_rebuild "Z3_FUNCTION" tQ`: the quantifier Q made again through another of Z3's
    /// makers ([`crate::quant::MAKERS`]), from Z3's own reading of Q (its body with de Bruijn
    /// indices, bound sorts and names, patterns; `Z3_substitute_vars` puts Q's variables back
    /// for the makers over constants). A quantifier maker must give the very term Q
    /// (`Z3_is_eq_ast`; a different one is a `read-back` finding); a lambda maker gives the
    /// array `lambda x. body` of Q's one variable, made through both lambda makers, which must
    /// agree. Appended last: binary traces keep their variant numbers.
    QuantRebuild {
        function: String,
        term: TermId,
    },
    /// `ast_map tK tV ...`: one fresh `Z3_ast_map` given each pair in turn, K ↦ V inserted
    /// (a pair of one term twice erases it), then reset and given its first insertion
    /// again; after every step its size, `contains`, `find` and keys must be those of the
    /// reference map (`crate::handles`). Nothing recorded; a disagreement is a `read-back`
    /// finding. Appended last: binary traces keep their variant numbers.
    AstMap(Vec<(TermId, TermId)>),
    /// `ast_vector tT ...`: one fresh `Z3_ast_vector` given the terms (`push`), reversed by
    /// `set`, shrunk to half and grown back (`resize`); after every step its size and
    /// elements must be the reference vector's; translated into a second context and back
    /// (`Z3_ast_vector_translate`), it holds the very same terms.
    AstVector(Vec<TermId>),
    /// `read_global "Z3_FUNCTION" "SUBJECT"`: a process-wide read
    /// (`crate::handles::GLOBAL_READERS`): the version, the tactic and probe names, help
    /// texts and parameter descriptions, global parameters; judged where the model knows
    /// (a global parameter reads back what the trace set). Nothing recorded.
    ReadGlobal {
        function: String,
        subject: String,
    },
    /// `goal_apply_with kK gG RLIMIT "KEY" "VALUE" ...`: `goal_apply` with parameters
    /// (`Z3_tactic_apply_ex`; their kinds read from the tactics' own descriptions, as
    /// `tactic_using_params` does), which the tactic validates against its own.
    ApplyTacticWith {
        tactic: TacticId,
        goal: GoalId,
        rlimit: u32,
        params: Vec<(String, String)>,
    },
    /// `qe_project mM tF tV...` (`Z3_qe_model_project`) / `qe_lite mM tF tV...`
    /// (`Z3_qe_lite`): F with the constants V eliminated, by model M's values or as far as
    /// equalities allow. Where M satisfies F, the result must hold in M too (both are
    /// implied by F under M's values: a projection is true in its model, and `qe_lite`
    /// only substitutes and drops literals); otherwise a `read-back` finding.
    Qe {
        lite: bool,
        model: ModelId,
        formula: TermId,
        vars: Vec<TermId>,
    },
    /// `as_array fF`: the array of the unary function F (`Z3_mk_as_array`), SMT-LIB
    /// `(_ as-array F)` (Z3's dialect).
    AsArray(FuncId),
    /// `array_ext tA tB`: an index where the arrays A and B differ if they differ
    /// (`Z3_mk_array_ext`, Z3's extensionality witness).
    ArrayExt(TermId, TermId),
    /// `array_map fF tA...`: F applied pointwise to the arrays A... of one index sort, one
    /// array per argument of F (`Z3_mk_map`, `(_ map F)` in Z3's dialect).
    ArrayMap {
        func: FuncId,
        arrays: Vec<TermId>,
    },
    /// `at_most K tA...` / `at_least K tA...`: at most (least) K of the Bool terms A hold
    /// (`Z3_mk_atmost`, `Z3_mk_atleast`; SMT-LIB `((_ at-most K) A...)` in Z3's dialect), the
    /// pseudo-Boolean constraint with every coefficient 1. Z3's log writes `Z3_mk_atleast`
    /// as `Z3_mk_atmost` (a replayed log builds the other constraint).
    Card {
        at_least: bool,
        bound: u32,
        terms: Vec<TermId>,
    },
    // Z3's finite sets (releases after 4.8.12 only, looked up by name: a replay on 4.8.12
    // refuses them, exit 3). Values are finite sets of Int, Bool or bit-vector elements
    // (`crate::fset`); `check_fset` judges them.
    /// `sort_finite_set sE`: the sort `(FiniteSet E)` (`Z3_mk_finite_set_sort`), E Int, Bool
    /// or a bit-vector sort.
    SortFiniteSet(SortId),
    /// `fset_empty sS`: the empty set of the finite set sort S (`Z3_mk_finite_set_empty`).
    FsetEmpty(SortId),
    /// `fset_singleton tE`: the set of E alone (`Z3_mk_finite_set_singleton`).
    FsetSingleton(TermId),
    /// `fset_union tA tB` (`Z3_mk_finite_set_union`).
    FsetUnion(TermId, TermId),
    /// `fset_intersect tA tB` (`Z3_mk_finite_set_intersect`).
    FsetIntersect(TermId, TermId),
    /// `fset_difference tA tB`: A without B (`Z3_mk_finite_set_difference`).
    FsetDifference(TermId, TermId),
    /// `fset_member tE tS`: whether E is in S (`Z3_mk_finite_set_member`, the element first).
    FsetMember(TermId, TermId),
    /// `fset_subset tA tB`: whether A is a subset of B (`Z3_mk_finite_set_subset`).
    FsetSubset(TermId, TermId),
    /// `fset_size tS`: the number of elements of S, an Int (`Z3_mk_finite_set_size`).
    FsetSize(TermId),
    /// `fset_range tL tH`: the Ints from L to H, both included (`Z3_mk_finite_set_range`;
    /// Z3's header says `[low, high)`, but 5.4.1's rewriter, solver and model evaluation all
    /// include H: the size of `(set.range 0 3)` is 4).
    FsetRange(TermId, TermId),
    /// `fset_map tS ADD MUL`: the images of S's elements (Ints) under `(lambda ((x Int)) (+
    /// (* MUL x) ADD))` (`Z3_mk_finite_set_map` of a `Z3_mk_lambda_const` lambda).
    FsetMap {
        set: TermId,
        add: i32,
        mul: i32,
    },
    /// `fset_filter tS LOW HIGH`: the elements x of S (Ints) with LOW <= x <= HIGH
    /// (`Z3_mk_finite_set_filter` of a `Z3_mk_lambda_const` lambda).
    FsetFilter {
        set: TermId,
        low: i32,
        high: i32,
    },
    // Z3's prime fields (releases after 4.8.12 only, looked up by name). Values are numbers
    // modulo the field's order (`crate::fset::Value::Field`); `check_ff` judges them.
    /// `sort_finite_field P`: the sort `(_ FiniteField P)` of the prime P below 2^31
    /// (`Z3_mk_finite_field_sort`).
    SortFiniteField(u32),
    /// `ff_add tA tB...`: the sum of at least two elements of one field (`Z3_mk_ff_add`).
    FfAdd(Vec<TermId>),
    /// `ff_mul tA tB...`: the product of at least two elements of one field (`Z3_mk_ff_mul`).
    FfMul(Vec<TermId>),
    /// `ff_neg tA`: the additive inverse (`Z3_mk_ff_neg`).
    FfNeg(TermId),
    /// `ff_bitsum tA tB...`: A + 2B + 4C + ... of at least two elements of one field
    /// (`Z3_mk_ff_bitsum`; the arguments are not constrained to bits).
    FfBitsum(Vec<TermId>),
    /// `opt_read "Z3_FUNCTION" oO`: a reader of Optimize context O
    /// (`crate::introspect::OPT_READERS`), asked of a copy of O and judged by the executor;
    /// records `ok`.
    OptRead {
        function: String,
        opt: OptId,
    },
    /// `model_func mM fF tE tA... tV ...`: F interpreted in model M built by hand
    /// (`Z3_add_func_interp`) by a table of entries, each F's arguments tA... then its value
    /// tV (`Z3_func_interp_add_entry`; an entry for the same arguments again replaces the
    /// value), and the else value E (`Z3_func_interp_set_else`). Every argument and value is
    /// a literal (`lit`).
    ModelFunc {
        model: ModelId,
        func: FuncId,
        default: TermId,
        entries: Vec<TermId>,
    },
    /// `model_read "Z3_FUNCTION" mM`: a reader of model M built by hand
    /// (`crate::introspect::MODEL_READERS`), judged by the executor against what the trace
    /// wrote into M; records `ok`.
    ModelRead {
        function: String,
        model: ModelId,
    },
    /// `divides N tT`: whether N (at least 1) divides the Int T, `((_ divisible N) T)`
    /// (`Z3_mk_divides` of the numeral N, `Z3_mk_unsigned_int`: Z3 takes a numeral there;
    /// 4.8.12 refuses every application, which is recorded).
    Divides {
        divisor: u32,
        term: TermId,
    },
    /// `seq_last_index tS tT`: the last position of T in S, -1 where there is none
    /// (`Z3_mk_seq_last_index`; Z3 writes it `seq.last_indexof`, which only releases after
    /// 4.8.12 parse).
    SeqLastIndex(TermId, TermId),
    /// `set_has_size tS tK`: whether set S has K elements (`Z3_mk_set_has_size`: 4.8.12
    /// refuses it as unsupported; the 5.x releases do not have it).
    SetHasSize(TermId, TermId),
    /// `const_int_sym N sS`: a constant of sort S named by the integer symbol N
    /// (`Z3_mk_int_symbol`, `Z3_mk_const`); the executor reads the name back
    /// (`Z3_get_symbol_kind`, `Z3_get_symbol_int`) and judges it.
    ConstIntSym {
        index: u32,
        sort: SortId,
    },
    /// `fun_int_sym N sR sD...`: a function named by the integer symbol N, from the sorts
    /// D... to R, its name read back and judged as `const_int_sym`'s.
    FunIntSym {
        index: u32,
        domain: Vec<SortId>,
        range: SortId,
    },
    /// `fun_fresh "PREFIX" sR sD...`: a function with a fresh name that starts with PREFIX
    /// (`Z3_mk_fresh_func_decl`); the executor judges its name, domain and range.
    FreshFunc {
        prefix: String,
        domain: Vec<SortId>,
        range: SortId,
    },
    /// `update_term tT tA...`: the application T with the arguments A... instead of its own
    /// (`Z3_update_term`), judged to be the very AST its declaration makes of A...
    /// (`Z3_mk_app`). T is an `apply` of a function.
    UpdateTerm {
        term: TermId,
        args: Vec<TermId>,
    },
    /// `sort_array_n sRANGE sINDEX`: the array sort by Z3's maker of arrays of several
    /// indices (`Z3_mk_array_sort_n`) with one index (the arrays of traces have one
    /// dimension); the executor judges that it is the sort `Z3_mk_array_sort` makes.
    SortArrayN {
        domain: Vec<SortId>,
        range: SortId,
    },
    /// `sort_re sS`: the sort of regular expressions over the String sort S
    /// (`Z3_mk_re_sort`).
    SortRe(SortId),
    /// `seq_hof "Z3_FUNCTION" ADD MUL tX...`: Z3's higher-order sequence operation
    /// (`Z3_mk_seq_map`, `_mapi`, `_foldl`, `_foldli`; releases after 4.8.12, looked up by
    /// name) of a lambda over Ints, `(+ (* MUL x) ADD p...)` of the element x and the other
    /// parameters p (`Z3_mk_lambda_const`), and the terms the function takes after it (the
    /// sequence of Ints last; `crate::seq_hof`).
    SeqHof {
        function: String,
        args: Vec<TermId>,
        add: i32,
        mul: i32,
    },
}

/// The kind of a special relation ([`Call::Relation`]); each is a partial order (reflexive,
/// antisymmetric, transitive) with more: a linear order is total; a tree order has the
/// elements below any element pairwise comparable (R(y, x) and R(z, x) give R(y, z) or
/// R(z, y); Z3 4.8.12 and 5.4.1 find that, not its mirror image, unsat when negated); a
/// piecewise linear order has that and its mirror image (R(x, y) and R(x, z) give R(y, z) or
/// R(z, y)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RelationKind {
    Linear,
    Partial,
    PiecewiseLinear,
    Tree,
}

impl RelationKind {
    pub const ALL: [RelationKind; 4] = [
        RelationKind::Linear,
        RelationKind::Partial,
        RelationKind::PiecewiseLinear,
        RelationKind::Tree,
    ];

    /// Z3's SMT-LIB name of the relation (`(_ linear-order I)`).
    pub fn smtlib_name(self) -> &'static str {
        match self {
            RelationKind::Linear => "linear-order",
            RelationKind::Partial => "partial-order",
            RelationKind::PiecewiseLinear => "piecewise-linear-order",
            RelationKind::Tree => "tree-order",
        }
    }
}

/// Z3's makers of a fixed floating-point format ([`Call::SortFpFixed`]) and the exponent and
/// significand widths of the format each makes.
pub const FIXED_FP_FORMATS: &[(&str, u32, u32)] = &[
    ("Z3_mk_fpa_sort_half", 5, 11),
    ("Z3_mk_fpa_sort_16", 5, 11),
    ("Z3_mk_fpa_sort_single", 8, 24),
    ("Z3_mk_fpa_sort_32", 8, 24),
    ("Z3_mk_fpa_sort_double", 11, 53),
    ("Z3_mk_fpa_sort_64", 11, 53),
    ("Z3_mk_fpa_sort_quadruple", 15, 113),
    ("Z3_mk_fpa_sort_128", 15, 113),
];

/// The format of a fixed-format maker of [`FIXED_FP_FORMATS`].
pub fn fixed_fp_format(function: &str) -> Option<(u32, u32)> {
    FIXED_FP_FORMATS
        .iter()
        .find(|(name, ..)| *name == function)
        .map(|(_, e, s)| (*e, *s))
}

/// A test of an algebraic number ([`Call::AlgebraicIs`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AlgebraicTest {
    /// Whether the term is a value of the algebraic number package (any term).
    Value,
    Pos,
    Neg,
    Zero,
}

/// How an RCF number is made ([`Call::RcfMk`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RcfMk {
    /// From its text (`Z3_rcf_mk_rational`): `-3/4`, `12`, `0.5`.
    Rational(String),
    SmallInt(i32),
    Pi,
    E,
    /// A positive number below every positive rational.
    Infinitesimal,
}

/// An arithmetic operation on two RCF numbers ([`Call::RcfArith`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RcfOp {
    Add,
    Sub,
    Mul,
    Div,
}

/// The comparison of a pseudo-Boolean constraint ([`Call::Pb`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PbCmp {
    Le,
    Ge,
    Eq,
}

/// An oracle check of the fuzzer as a trace line (`check_model m1 t4`). Each names the
/// objects it judges; the executor verifies the check's premise itself (the term is asserted
/// to the solver the model came from, both solvers hold the same formula, ...), so that a
/// minimizer that removes the premise makes the check hold vacuously instead of failing
/// for a reason that is no bug.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Check {
    /// `check_model mM tT`: Z3's `model_eval` of T (with completion) is `true` when T is an
    /// assertion or assumption of the check whose model M is.
    Model { model: ModelId, term: TermId },
    /// `check_indep mM tT`: the independent evaluator (`model::eval`, on the SMT-LIB text of
    /// the calls that built T) does not find T false under M's values; same premise.
    Independent { model: ModelId, term: TermId },
    /// `check_eval mM tT true|false`: Z3's `model_eval` of T (with that completion flag) and
    /// the independent evaluator give the same value, where both give one.
    Eval {
        model: ModelId,
        term: TermId,
        completion: bool,
    },
    /// `check_shadow zA zB`: B, a translated copy of A given the same calls, answered its last
    /// check as A did, where both hold the same formula and both answers are definite.
    Shadow { original: SolverId, clone: SolverId },
    /// `check_config zA zB`: B, a solver of another configuration given A's assertions and
    /// last assumptions, answered as A did (both definite).
    Config { original: SolverId, other: SolverId },
    /// `check_dump zA`: A's assertions dumped by Z3 (`to_smt2`) and parsed into a fresh solver
    /// answer as A's last check did (a dump of tracked assertions is weaker: only "A sat, the
    /// dump unsat" is a contradiction then).
    Dump(SolverId),
    /// `check_core zZ`: Z's last check, of assumptions that include every literal of the
    /// unsat core Z gave before, is not sat.
    Core(SolverId),
    /// `check_simplify tS`: S, made by `simplify` or `simplify_with` of T, is equivalent to
    /// T: a fresh solver under a resource limit does not find `(distinct T S)` satisfiable.
    Simplify(TermId),
    /// `check_literal tT`: T, made by `lit`, equals its value built through every other
    /// numeral constructor of Z3's API that can express it (machine integers, doubles and
    /// floats, bits, IEEE components, decimal strings).
    Literal(TermId),
    /// `check_quant mM tT`: T (an assertion of the check whose model M is, as for
    /// `check_model`) holds in M by a fresh solver: M's definitions with `(not T)` are not
    /// satisfiable (under a resource limit: `unknown` is no verdict). For what the
    /// independent evaluator cannot judge, quantifiers over infinite domains above all.
    Quant { model: ModelId, term: TermId },
    /// `check_consequences zZ tA... vars tX...`: a fresh solver in Z's context, given Z's
    /// assertions, answers `get_consequences` for assumptions A and variables X; every
    /// consequence `(=> (and A') (= x v))` it returns must follow from the assertions: a fresh
    /// solver under a resource limit does not find the assertions and its negation
    /// satisfiable. Appended last: binary traces keep their variant numbers.
    Consequences {
        solver: SolverId,
        assumptions: Vec<TermId>,
        variables: Vec<TermId>,
    },
    /// `check_cubes zZ`: a fresh solver in Z's context, given Z's assertions, splits them into
    /// cubes (`Z3_solver_cube` until the `false` or the empty cube); each cube is checked as
    /// assumptions of that solver. Assertions known sat need a cube that is not unsat (when the
    /// enumeration completed); assertions known unsat admit no sat cube.
    Cubes(SolverId),
    /// `check_goal gG`: G's formulas and the subgoals of its last `goal_apply` are
    /// equisatisfiable (G satisfiable iff some subgoal is), each side asked of a fresh solver
    /// under a resource limit; unknown is no verdict.
    Goal(GoalId),
    /// `check_opt_values oO mM`: each objective's value that O reported after the check
    /// whose model M is (lower = upper, finite, no infinitesimal) equals the objective's
    /// value under M.
    OptValues { opt: OptId, model: ModelId },
    /// `check_opt_better oO mM`: no model of O's hard constraints is strictly better than M
    /// on an objective while equal on those before it (lexicographic order): a fresh solver
    /// under a resource limit finds none (unknown is no verdict).
    OptBetter { opt: OptId, model: ModelId },
    /// `check_relation mM fR tA...`: where R (a special relation made by `linear_order`,
    /// ..., or `transitive_closure`) occurs in an assertion or assumption of the check whose
    /// model M is, R as M interprets it (Z3's `model_eval` of R applied to M's values of the
    /// A) has R's axioms over those values: reflexive, antisymmetric and transitive, and
    /// total, tree-like or piecewise linear as its kind says; a transitive closure is
    /// transitive (containment of its relation is no promise: Z3 closes the graph of the
    /// relation's atoms, the model completes the relation elsewhere). Appended last: binary
    /// traces keep their variant numbers.
    Relation {
        model: ModelId,
        func: FuncId,
        terms: Vec<TermId>,
    },
    /// `check_rcf rA rB`: Z3's six comparisons of A and B agree with each other and with
    /// what the reference state's intervals decide ([`crate::rcf`]); a rational A or B
    /// prints as its fraction; their decimal approximations are near their intervals.
    /// Appended last: binary traces keep their variant numbers.
    Rcf(RcfId, RcfId),
    /// `check_rcf_roots rC0 rC1 ...`: the roots `Z3_rcf_mk_roots` gives of C0 + C1·x + ...
    /// are at most its degree, distinct, and zeros of it (by Z3's own arithmetic); with
    /// rational coefficients, as many as Sturm's theorem counts. (Z3 promises no order.)
    RcfRoots(Vec<RcfId>),
    /// `check_algebraic tA tB`: Z3's comparisons of the algebraic numbers A and B, their
    /// signs and `is_pos`/`is_neg`/`is_zero`/`is_value`, agree with each other and with what
    /// the reference state's intervals decide.
    Algebraic(TermId, TermId),
    /// `check_congruence zZ tT...`: a fresh simple solver (the SMT core) in Z's context,
    /// given Z's assertions, answers sat; then for each T its congruence class
    /// (`Z3_solver_congruence_root`, `_next` around the cycle) holds terms that the solver's
    /// model gives T's value (where both are numerals, Booleans or strings), and the
    /// explanation of T = root (`Z3_solver_congruence_explain`) is not false in it. Functions
    /// only releases after 4.8.12 have. Appended last: binary traces keep their variant
    /// numbers.
    Congruence {
        solver: SolverId,
        terms: Vec<TermId>,
    },
    /// `check_fp`: the fixedpoint's last query's answer holds up. `unsat`: the answer
    /// (`Z3_fixedpoint_get_answer`, definitions of the relations) is an inductive invariant
    /// that refutes the query: with it, a fresh solver finds no rule of the trace violated and
    /// the query false (rules over relations the answer does not define are not judged: Z3
    /// inlines and slices them away). `sat`: the answer is a derivation (a proof of `false`
    /// by hyper-resolution), and a fresh solver confirms each of its steps (the rule with the
    /// premises' facts implies the step's fact). Unknown is no verdict. Appended last:
    /// binary traces keep their variant numbers.
    Fixedpoint,
    /// `check_interrupt zZ`: after `check_sat_interrupted zZ`, the interrupted check
    /// answered `unknown` with a reason or a definite answer, and Z's next check (with no
    /// change to Z between them) answered no definite answer other than the interrupted
    /// one's: the interrupt left Z usable. Appended last: binary traces keep their variant
    /// numbers.
    Interrupt(SolverId),
    /// `check_simplifier zZ "NAME NAME..." "KEY" "VALUE"...`: a fresh default solver in Z's
    /// context with the simplifiers NAME chained (`Z3_mk_simplifier`, `Z3_simplifier_and_then`,
    /// with the Boolean parameters `Z3_simplifier_using_params`) in front of it
    /// (`Z3_solver_add_simplifier`), given Z's assertions and last assumptions, answers as Z's
    /// last check did (both definite), and after sat its model makes every one of them true
    /// (`Z3_model_eval` with completion). Z3's descriptions of the simplifiers agree with
    /// what it accepted: every NAME is among `Z3_get_simplifier_name`'s and has a description
    /// (`Z3_simplifier_get_descr`), every KEY among the chain's parameter descriptions
    /// (`Z3_simplifier_get_param_descrs`) and in its help (`Z3_simplifier_get_help`).
    /// Functions only releases after 4.8.12 have. Appended last: binary traces keep their
    /// variant numbers.
    Simplifier {
        solver: SolverId,
        simplifiers: String,
        params: Vec<(String, String)>,
    },
    /// `check_initial_value zZ tV tX`: an initial value is a hint that changes no verdict. A
    /// fresh simple solver (the SMT core, the one solver Z3 takes hints for) and a fresh
    /// Optimize context without objectives, each in Z's context given Z's assertions and the
    /// hint that the constant V starts at the literal X (`Z3_solver_set_initial_value`,
    /// `Z3_optimize_set_initial_value`), answer as Z's last check did under its assumptions
    /// (both definite), and after sat the solver's model makes each of them true. Functions
    /// only releases after 4.8.12 have. Appended last: binary traces keep their variant
    /// numbers.
    InitialValue {
        solver: SolverId,
        var: TermId,
        value: TermId,
    },
    /// `check_parser_context tT...`: the SMT-LIB text of each T, written from the calls that
    /// built it, parsed by a fresh parser context (`Z3_mk_parser_context`) that knows T's
    /// uninterpreted declarations and declared sorts (`Z3_parser_context_add_decl`,
    /// `_add_sort`; `Z3_parser_context_from_string` of `(assert (= T T))`) is T: the same
    /// term (`Z3_is_eq_ast`), the same after `Z3_simplify`, or one a reference solver does
    /// not find different. A text Z3's parser refuses is no verdict. Functions only releases
    /// after 4.8.12 have. Appended last: binary traces keep their variant numbers.
    ParserContext(Vec<TermId>),
    /// `check_chars tS`: Z3's characters agree with the code points of the String literal S
    /// (made by `lit`): `Z3_is_char_sort` holds of `Z3_mk_char_sort` and not of String,
    /// `Z3_mk_u32string` of the code points is S (or simplifies as S does), and for the
    /// characters `Z3_mk_char` makes of the first eight code points, `Z3_mk_char_to_int` is
    /// the code, `Z3_mk_char_to_bv` its bits and `Z3_mk_char_from_bv` of those bits the
    /// character, `Z3_mk_char_is_digit` holds exactly of 0 to 9, and `Z3_mk_char_le` orders
    /// neighbours as their codes; each fact decided by Z3's rewriter or else by a reference
    /// solver (unknown is no verdict). Functions only releases after 4.8.12 have. Appended
    /// last: binary traces keep their variant numbers.
    Chars(TermId),
    /// `check_algebraic_poly tA`: what Z3 says an algebraic number is made of holds up. An
    /// irrational A (`Z3_is_algebraic_number`): its polynomial (`Z3_algebraic_get_poly`,
    /// integer coefficients) has A as its root number `Z3_algebraic_get_i` in increasing
    /// order, counted by Sturm's theorem ([`crate::rcf::real_roots`]) and meeting the
    /// reference state's interval of A; the bounds `Z3_get_algebraic_number_lower` and
    /// `_upper` at precisions 1 to 3 hold that root, are at most 2^(-4·precision) apart and
    /// shrink or stay as the precision grows; `Z3_algebraic_eval` of the polynomial at A is 0
    /// and at the lower bound has the sign exact arithmetic gives; `Z3_algebraic_roots` of
    /// it are as many as Sturm counts, distinct, zeros of it and one of them A. A rational A
    /// (a point of the reference state): the roots of (x - A)²(x - A - 1) are A and A + 1,
    /// no more, and its signs at A - 1, A, A + 1/2 and A + 2 are exact arithmetic's. The
    /// polynomials are terms over the bound variable 0 (`Z3_mk_bound`), as Z3's algebraic
    /// functions read them. Appended last: binary traces keep their variant numbers.
    AlgebraicPoly(TermId),
    /// `check_subresultants tP0 tP1 ... and tQ0 tQ1 ...`: the principal subresultant
    /// coefficients `Z3_polynomial_subresultants` gives of P = P0 + P1·x + ... and Q in a
    /// fresh Real constant x (coefficients: rational algebraic numbers, each polynomial of
    /// degree at least 1) are numerals, one nonzero per remainder of the Euclidean remainder
    /// sequence of P and Q after the one of lower degree (exact rational arithmetic), or the
    /// one 0 where that remainder is zero. Appended last: binary traces keep their variant
    /// numbers.
    Subresultants { p: Vec<TermId>, q: Vec<TermId> },
    /// `check_rcf_sign_conditions rA`: each sign condition of an algebraic RCF number A
    /// (`Z3_rcf_num_sign_conditions`, `Z3_rcf_sign_condition_sign`, its polynomial's
    /// coefficients `Z3_rcf_num_sign_condition_coefficients`,
    /// `Z3_rcf_sign_condition_coefficient`) holds: the polynomial at A, by Z3's RCF
    /// arithmetic, has the stated sign. A number that is not algebraic has none to judge.
    /// Functions only releases after 4.8.12 have. Appended last: binary traces keep their
    /// variant numbers.
    RcfSignConditions(RcfId),
    /// `check_propagator zZ "MODE" tT...`: a user propagator (`Z3_solver_propagate_init`
    /// and its callbacks) on a fresh simple solver in Z's context given Z's assertions,
    /// watching the terms T (registered with `Z3_solver_propagate_register`; Bool, and in
    /// mode `observe` bit-vectors too; at most [`PROPAGATOR_MAX_TERMS`]). Mode `enumerate`:
    /// every final callback blocks the current assignment of the terms by a conflict
    /// (`Z3_solver_propagate_consequence` with the terms as antecedents and `false`), the
    /// decide callback picks the next split (`Z3_solver_next_split`); the assignments seen
    /// when the solver answers unsat must be exactly the projections onto T that blocking
    /// clauses enumerate with a reference solver (both within [`PROPAGATOR_MAX_MODELS`]).
    /// Mode `observe`: nothing is propagated; after sat the values `fixed` reported and the
    /// equalities `eq`/`diseq` reported (registered terms of one sort) hold in the model;
    /// a function declared by `Z3_solver_propagate_declare` applied to T gives `created`
    /// callbacks of its applications only (each registered by `Z3_solver_propagate_register_cb`);
    /// clauses `Z3_solver_register_on_clause` reports over the formula's own symbols follow
    /// from the assertions (a sample, judged by a reference solver). Functions only releases
    /// after 4.8.12 have. Appended last: binary traces keep their variant numbers.
    Propagator {
        solver: SolverId,
        mode: String,
        terms: Vec<TermId>,
    },
    /// `check_proof_callback zZ`: Z's dump (`Z3_solver_to_string`) evaluated in a fresh
    /// context with proofs on (`Z3_eval_smtlib2_string`) and a client proof checker
    /// (`Z3_set_proof_check_callback`): after unsat the checker is called once, with the
    /// assertions and a proof that concludes `false`, and its report is in the output; after
    /// sat or unknown it is not called; a definite answer does not contradict Z's last one.
    /// A function only releases from 5.3.2 have. Appended last: binary traces keep their
    /// variant numbers.
    ProofCallback(SolverId),
    /// `check_fset tA... with tC tW...`: Z3's finite sets agree with the sets of values
    /// `crate::fset` computes. Each atom A (a term of the `fset_*` calls, of sort Bool, Int
    /// or a finite set) has the value v that the witnesses give its constants (each C a
    /// `const`, W a ground term of C's sort). A with every C replaced by its W
    /// (`Z3_substitute`) must be v (`Z3_simplify` of the equation, else a reference solver
    /// finds no difference); and the atoms with their constants free, each asserted equal
    /// to its v, are satisfiable (the witnesses satisfy them), so a fresh solver must not
    /// answer unsat, and after sat its model must not evaluate an equation false
    /// (`Z3_model_eval` with completion; Z3's own model values of sets are abstract, where
    /// it cannot evaluate no verdict). Functions only releases after 4.8.12 have. Appended
    /// last: binary traces keep their variant numbers.
    FiniteSet {
        atoms: Vec<TermId>,
        witnesses: Vec<(TermId, TermId)>,
    },
    /// `check_ff tA... with tC tW...`: `check_fset` for Z3's prime fields: each atom (a term
    /// of a field sort made of `ff_*` calls, field literals and witnessed constants) has the
    /// value modulo the field's order that `crate::fset` computes; judged as `check_fset`
    /// judges. Functions only releases after 4.8.12 have. Appended last.
    FiniteField {
        atoms: Vec<TermId>,
        witnesses: Vec<(TermId, TermId)>,
    },
    /// `check_qe_skolem mM tF tV...` (`Z3_qe_model_project_skolem`) / `check_qe_witness mM
    /// tF tV...` (`Z3_qe_model_project_with_witness`, releases after 4.8.12): F projected on
    /// model M with the constants V eliminated, the map of each eliminated constant filled
    /// in. Where M satisfies F (the premise), the projection must hold in M (as `qe_project`
    /// is judged), the map's keys must be among V, and a witness map's values put for their
    /// constants into F (`Z3_substitute`) must keep F true in M (Z3 documents the witnesses
    /// so). Appended last.
    QeMap {
        witness: bool,
        model: ModelId,
        formula: TermId,
        vars: Vec<TermId>,
    },
    /// `check_finite_domain N "A>B ..."`: a finite-domain sort of N elements
    /// (`Z3_mk_finite_domain_sort`, its size read back by `Z3_get_finite_domain_sort_size`)
    /// in a fresh Datalog fixedpoint context: `edge` holds the facts A>B
    /// (`Z3_fixedpoint_add_fact`), `path` is its transitive closure by two rules, and
    /// `path(0, k)` for each element k (`Z3_mk_unsigned_int64` of the sort) must be sat
    /// exactly where k is reachable from 0 in one edge or more. A second fixedpoint holds
    /// `edge` as an external relation (`Z3_fixedpoint_init`, its reduce callbacks): every
    /// relation sort the callbacks see has columns of the finite domain
    /// (`Z3_get_relation_arity`, `Z3_get_relation_column`). Appended last.
    FiniteDomain { size: u32, edges: String },
    /// `check_complex tA tB tC tD`: Z3's complex numbers (`Z3_mk_complex_sort`,
    /// `Z3_mk_complex`, `Z3_mk_real_part`, `Z3_mk_imag_part`) agree with exact arithmetic on
    /// z = A + Bi and w = C + Di of four Real literals (made by `lit`): z has the complex
    /// sort, and the real and imaginary parts of z, z + w, z - w, z · w and -z (`Z3_mk_add`,
    /// `_sub`, `_mul`, `_unary_minus` of complex terms) simplify (`Z3_simplify`) to the
    /// numerals `crate::complex::expected_parts` computes (a part Z3 does not simplify to a
    /// numeral is no verdict). Functions only releases after 4.8.12 have. Appended last.
    Complex(Vec<TermId>),
    /// `check_poly_datatype tA tB`: Z3's polymorphic datatypes (`Z3_mk_type_variable`,
    /// `Z3_mk_polymorphic_datatype`, `Z3_mk_datatype_sort`, `Z3_constructor_num_fields`):
    /// the datatype `(PolyPair T)` of a type variable T with the constructors `pnone` and
    /// `(pmk (pfst T) (psnd T))` (0 and 2 fields, as `Z3_constructor_num_fields` must say),
    /// instantiated by name at the sort S of A and B (two terms of one sort), has two
    /// constructors; `pfst` and `psnd` of `(pmk A B)` have sort S and simplify to A and B,
    /// `is-pmk` of it to true and `is-pnone` to false. Functions only releases after 4.8.12
    /// have. Appended last.
    PolyDatatype(TermId, TermId),
}

/// The most terms `check_propagator` registers.
pub const PROPAGATOR_MAX_TERMS: usize = 6;
/// The most assignments `check_propagator` enumerates each way before it gives no verdict.
pub const PROPAGATOR_MAX_MODELS: usize = 16;
/// The modes of `check_propagator`.
pub const PROPAGATOR_MODES: [&str; 2] = ["enumerate", "observe"];

impl Check {
    /// One check of every kind, with empty arguments (see [`Call::templates`]).
    pub fn templates() -> &'static [Check] {
        static TEMPLATES: OnceLock<Vec<Check>> = OnceLock::new();
        TEMPLATES.get_or_init(|| {
            let (t, z, m) = (TermId(0), SolverId(0), ModelId(0));
            vec![
                Check::Model { model: m, term: t },
                Check::Independent { model: m, term: t },
                Check::Eval {
                    model: m,
                    term: t,
                    completion: false,
                },
                Check::Shadow {
                    original: z,
                    clone: z,
                },
                Check::Config {
                    original: z,
                    other: z,
                },
                Check::Dump(z),
                Check::Core(z),
                Check::Literal(t),
                Check::Simplify(t),
                Check::Quant { model: m, term: t },
                Check::Consequences {
                    solver: z,
                    assumptions: vec![],
                    variables: vec![],
                },
                Check::Cubes(z),
                Check::Goal(GoalId(0)),
                Check::OptValues {
                    opt: OptId(0),
                    model: m,
                },
                Check::OptBetter {
                    opt: OptId(0),
                    model: m,
                },
                Check::Relation {
                    model: m,
                    func: FuncId(0),
                    terms: vec![],
                },
                Check::Rcf(RcfId(0), RcfId(0)),
                Check::RcfRoots(vec![]),
                Check::Algebraic(t, t),
                Check::Congruence {
                    solver: z,
                    terms: vec![],
                },
                Check::Fixedpoint,
                Check::Interrupt(z),
                Check::Simplifier {
                    solver: z,
                    simplifiers: String::new(),
                    params: vec![],
                },
                Check::InitialValue {
                    solver: z,
                    var: t,
                    value: t,
                },
                Check::ParserContext(vec![]),
                Check::Chars(t),
                Check::QeMap {
                    witness: false,
                    model: m,
                    formula: t,
                    vars: vec![t],
                },
                Check::QeMap {
                    witness: true,
                    model: m,
                    formula: t,
                    vars: vec![t],
                },
                Check::FiniteDomain {
                    size: 3,
                    edges: "0>1 1>2".into(),
                },
                Check::AlgebraicPoly(t),
                Check::Subresultants {
                    p: vec![],
                    q: vec![],
                },
                Check::RcfSignConditions(RcfId(0)),
                Check::Propagator {
                    solver: z,
                    mode: "enumerate".into(),
                    terms: vec![],
                },
                Check::ProofCallback(z),
                Check::FiniteSet {
                    atoms: vec![t],
                    witnesses: vec![],
                },
                Check::FiniteField {
                    atoms: vec![t],
                    witnesses: vec![],
                },
                Check::Complex(vec![t, t, t, t]),
                Check::PolyDatatype(t, t),
            ]
        })
    }

    /// The trace names of every check.
    pub fn names() -> &'static [&'static str] {
        static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
        NAMES.get_or_init(|| Check::templates().iter().map(Check::name).collect())
    }

    /// Walks the check's description and arguments in trace order.
    pub fn walk(&self, v: &mut dyn Visit) {
        walk_check!(self, v)
    }

    pub fn name(&self) -> &'static str {
        let mut head = HeadOf(None);
        self.walk(&mut head);
        head.0.expect("every check has a head").name
    }

    /// Every object id the check reads.
    pub fn uses(&self) -> Vec<AnyId> {
        let mut ids = crate::call_args::Ids::default();
        self.walk(&mut ids);
        ids.0
    }
}

/// The answer of a satisfiability check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SatResult {
    Sat,
    Unsat,
    Unknown,
}

impl SatResult {
    pub fn name(self) -> &'static str {
        match self {
            SatResult::Sat => "sat",
            SatResult::Unsat => "unsat",
            SatResult::Unknown => "unknown",
        }
    }
}

/// A recorded result.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Ret {
    /// A new object.
    Id(AnyId),
    Sat(SatResult),
    /// An unsat core: the ids of the assumptions or trackers in it. Replay compares its size,
    /// since a core is not unique.
    Core(Vec<TermId>),
    /// A value as SMT-LIB prints it (`#x0f`, `(- 3)`, `true`).
    Value(String),
    /// Z3 refused the call with this error message (its error code name, `: `, Z3's text,
    /// on one line). A replay must see the same error; an errored call has no effect on the
    /// reference state. Appended last so that the binary variant numbers of older results
    /// stay the same.
    Error(String),
}

impl Ret {
    /// The error message of a refused call, if this is one.
    pub fn error(&self) -> Option<&str> {
        match self {
            Ret::Error(message) => Some(message),
            _ => None,
        }
    }
}

/// The form in which error messages are compared: whitespace runs collapsed, and memory
/// addresses (`0x55d0c3a1`), which differ between runs, blanked. Recorded messages are
/// stored as Z3 gave them; a replay compares both sides in this form.
pub fn normalize_error(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    for (i, word) in message.split_whitespace().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let mut rest = word;
        while let Some(at) = rest.find("0x") {
            out.push_str(&rest[..at]);
            let after = &rest[at + 2..];
            let hex = after
                .find(|c: char| !c.is_ascii_hexdigit())
                .unwrap_or(after.len());
            if hex == 0 {
                out.push_str("0x");
            } else {
                out.push_str("0x_");
            }
            rest = &after[hex..];
        }
        out.push_str(rest);
    }
    out
}

/// What kind of result a call records, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetKind {
    None,
    Sort,
    Term,
    Func,
    Solver,
    Model,
    Sat,
    Core,
    Value,
    Tactic,
    Goal,
    Opt,
    Rcf,
}

impl RetKind {
    /// Whether `ret` (not an error) is a result of this kind.
    pub fn admits(self, ret: &Ret) -> bool {
        matches!(
            (self, ret),
            (RetKind::Sort, Ret::Id(AnyId::Sort(_)))
                | (RetKind::Term, Ret::Id(AnyId::Term(_)))
                | (RetKind::Func, Ret::Id(AnyId::Func(_)))
                | (RetKind::Solver, Ret::Id(AnyId::Solver(_)))
                | (RetKind::Model, Ret::Id(AnyId::Model(_)))
                | (RetKind::Tactic, Ret::Id(AnyId::Tactic(_)))
                | (RetKind::Goal, Ret::Id(AnyId::Goal(_)))
                | (RetKind::Opt, Ret::Id(AnyId::Opt(_)))
                | (RetKind::Rcf, Ret::Id(AnyId::Rcf(_)))
                | (RetKind::Sat, Ret::Sat(_))
                | (RetKind::Core, Ret::Core(_))
                | (RetKind::Value, Ret::Value(_))
        )
    }

    /// Whether the call makes an object (its `return` line names the new id).
    pub fn makes_object(self) -> bool {
        matches!(
            self,
            RetKind::Sort
                | RetKind::Term
                | RetKind::Func
                | RetKind::Solver
                | RetKind::Model
                | RetKind::Tactic
                | RetKind::Goal
                | RetKind::Opt
                | RetKind::Rcf
        )
    }
}

/// One line of a trace with the `return` line that follows it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Entry {
    pub call: Call,
    pub ret: Option<Ret>,
}

impl Call {
    /// The call that makes `sort`, `None` for sorts no call makes. `component` gives the ids
    /// of the component sorts (array index, then element; sequence element; a datatype
    /// instance's parameters), finding or making them; it may stop the whole construction
    /// with an error. A name without parameters is taken for an uninterpreted sort: a caller
    /// that knows the declared datatypes makes their `sort_datatype` itself.
    pub fn make_sort<E>(
        sort: &Sort,
        mut component: impl FnMut(&Sort) -> Result<Option<SortId>, E>,
    ) -> Result<Option<Call>, E> {
        Ok(Some(match sort {
            Sort::Bool => Call::SortBool,
            Sort::Int => Call::SortInt,
            Sort::Real => Call::SortReal,
            Sort::BitVec(w) => Call::SortBv(*w),
            Sort::FloatingPoint(e, s) => Call::SortFp(*e, *s),
            Sort::RoundingMode => Call::SortRm,
            Sort::String => Call::SortString,
            Sort::Array(i, e) => {
                let (Some(i), Some(e)) = (component(i)?, component(e)?) else {
                    return Ok(None);
                };
                Call::SortArray(i, e)
            }
            Sort::Seq(e) => {
                let Some(e) = component(e)? else {
                    return Ok(None);
                };
                Call::SortSeq(e)
            }
            // Without parameters a name is taken for an uninterpreted sort (the reference
            // state refuses it for a datatype's name); only datatypes have parameters.
            Sort::Named(name, params) if params.is_empty() => Call::SortUninterpreted(name.clone()),
            Sort::Named(name, params) => {
                let mut ids = Vec::new();
                for p in params {
                    let Some(id) = component(p)? else {
                        return Ok(None);
                    };
                    ids.push(id);
                }
                Call::SortDatatype {
                    name: name.clone(),
                    params: ids,
                }
            }
            Sort::FiniteSet(e) => {
                let Some(e) = component(e)? else {
                    return Ok(None);
                };
                Call::SortFiniteSet(e)
            }
            Sort::FiniteField(p) => Call::SortFiniteField(*p),
            Sort::RegLan => return Ok(None),
        }))
    }

    /// The trace name of the call, its first word on a line.
    pub fn name(&self) -> &'static str {
        if let Call::Op { op, .. } = self {
            return op.name();
        }
        self.spec().name
    }

    /// The call's description: its trace name, result, family, Z3 functions, SMT-LIB form.
    pub fn spec(&self) -> &'static CallSpec {
        let mut head = HeadOf(None);
        self.walk(&mut head);
        head.0.expect("every arm of the walk starts with its head")
    }

    /// Whether the call is one of the datatype family.
    pub fn is_datatype(&self) -> bool {
        self.spec().family == Family::Datatypes
    }

    /// What this call returns.
    pub fn ret_kind(&self) -> RetKind {
        self.spec().ret
    }

    /// Walks the call's description and arguments in trace order (see `call_args`).
    pub fn walk(&self, v: &mut dyn Visit) {
        walk_call!(self, v)
    }

    /// Walks the call's arguments in trace order, to edit them.
    pub fn walk_mut(&mut self, v: &mut dyn VisitMut) {
        walk_call!(self, v)
    }

    /// One call of every kind (every trace name but the table's operations), with empty
    /// arguments: what the text reader fills, in the order the documentation lists them.
    pub fn templates() -> &'static [Call] {
        static TEMPLATES: OnceLock<Vec<Call>> = OnceLock::new();
        TEMPLATES.get_or_init(|| {
            use TacticExpr as T;
            let (s, t, z, m, k, g, o) = (
                SortId(0),
                TermId(0),
                SolverId(0),
                ModelId(0),
                TacticId(0),
                GoalId(0),
                OptId(0),
            );
            let text = String::new;
            let probe = || ProbeTest {
                probe: String::new(),
                cmp: ProbeCmp::Eq,
                value: 0,
            };
            let mut all = vec![
                Call::SortBool,
                Call::SortInt,
                Call::SortReal,
                Call::SortBv(0),
                Call::SortFp(0, 0),
                Call::SortRm,
                Call::SortString,
                Call::SortArray(s, s),
                Call::SortSeq(s),
                Call::SortUninterpreted(text()),
                Call::Const {
                    sort: s,
                    name: text(),
                },
                Call::Lit {
                    sort: s,
                    value: text(),
                },
                Call::Fun {
                    name: text(),
                    domain: vec![],
                    range: s,
                },
                Call::Apply {
                    func: FuncId(0),
                    args: vec![],
                },
                Call::ConstArray { index: s, value: t },
                Call::Simplify(t),
                Call::Substitute {
                    term: t,
                    pairs: vec![],
                },
                Call::NewSolver(SolverKind::Default),
                Call::SetParam {
                    solver: z,
                    key: text(),
                    value: text(),
                },
                Call::SetGlobal {
                    key: text(),
                    value: text(),
                },
                Call::Push(z),
                Call::Pop(z, 0),
                Call::Assert(z, t),
                Call::AssertAndTrack {
                    solver: z,
                    term: t,
                    tracker: t,
                },
                Call::CheckSat(z),
                Call::CheckSatAssuming(z, vec![]),
                Call::GetUnsatCore(z),
                Call::GetModel(z),
                Call::ModelEval {
                    model: m,
                    term: t,
                    completion: false,
                },
                Call::Translate(z),
                Call::Reset(z),
                Call::ToSmt2(z),
                Call::FromString(z, text()),
                Call::Release(AnyId::Term(t)),
                Call::Delete(z),
                Call::Var {
                    sort: s,
                    name: text(),
                },
            ];
            for forall in [true, false] {
                all.push(Call::Quantifier {
                    forall,
                    weight: 0,
                    vars: vec![],
                    body: t,
                    patterns: vec![],
                    no_patterns: vec![],
                });
            }
            all.extend([
                Call::DeclareDatatypes {
                    path: DeclPath::Api,
                    params: vec![],
                    datatypes: vec![],
                },
                Call::SortDatatype {
                    name: text(),
                    params: vec![],
                },
                Call::DtConstruct {
                    sort: s,
                    ctor: text(),
                    args: vec![],
                },
                Call::DtTest {
                    ctor: text(),
                    term: t,
                },
                Call::DtSelect {
                    field: text(),
                    term: t,
                },
                Call::DtUpdate {
                    field: text(),
                    term: t,
                    value: t,
                },
                Call::NewSolverConfig(vec![]),
                Call::TranslateConfig {
                    solver: z,
                    config: vec![],
                },
                Call::GetProof(z),
                Call::SimplifyWith {
                    term: t,
                    params: vec![],
                },
                Call::MkTactic(T::Named(text())),
                Call::MkTactic(T::AndThen(k, k)),
                Call::MkTactic(T::OrElse(k, k)),
                Call::MkTactic(T::Repeat(k, 0)),
                Call::MkTactic(T::TryFor(k, 0)),
                Call::MkTactic(T::When(probe(), k)),
                Call::MkTactic(T::Cond(probe(), k, k)),
                Call::MkTactic(T::UsingParams(k, vec![])),
                Call::NewGoal { models: false },
                Call::GoalAssert(g, t),
                Call::ApplyTactic {
                    tactic: k,
                    goal: g,
                    rlimit: 0,
                },
                Call::Subgoal(g, 0),
                Call::GoalFormula(g),
                Call::NewOptimize,
                Call::OptSetParam {
                    opt: o,
                    key: text(),
                    value: text(),
                },
                Call::OptAssert(o, t),
                Call::OptAssertSoft {
                    opt: o,
                    term: t,
                    weight: 0,
                    group: text(),
                },
            ]);
            for direction in [Direction::Minimize, Direction::Maximize] {
                all.push(Call::OptObjective {
                    opt: o,
                    term: t,
                    direction,
                });
            }
            all.extend([
                Call::OptPush(o),
                Call::OptPop(o),
                Call::OptCheck(o),
                Call::OptGetModel(o),
                Call::OptBound {
                    opt: o,
                    index: 0,
                    upper: false,
                },
                Call::OptBound {
                    opt: o,
                    index: 0,
                    upper: true,
                },
            ]);
            for cmp in [PbCmp::Le, PbCmp::Ge, PbCmp::Eq] {
                all.push(Call::Pb {
                    cmp,
                    bound: 0,
                    terms: vec![],
                });
            }
            all.push(Call::Cube(z));
            all.push(Call::SetUnion(vec![]));
            all.extend([
                Call::SetIntersect(vec![t]),
                Call::SetDifference(t, t),
                Call::SetComplement(t),
                Call::SetSubset(t, t),
                Call::EmptySet(s),
                Call::FullSet(s),
                Call::SelectN {
                    array: t,
                    indices: vec![t],
                },
                Call::StoreN {
                    array: t,
                    indices: vec![t],
                    value: t,
                },
                Call::ArrayDefault(t),
            ]);
            all.extend([
                Call::Read {
                    function: text(),
                    term: t,
                },
                Call::ReadSort {
                    function: text(),
                    sort: s,
                },
                Call::ReadEq(t, t),
                Call::ReadStats(z),
            ]);
            all.extend([
                Call::RecFun {
                    name: text(),
                    domain: vec![],
                    range: s,
                },
                Call::RecDef {
                    func: FuncId(0),
                    vars: vec![],
                    body: t,
                },
            ]);
            for kind in RelationKind::ALL {
                all.push(Call::Relation {
                    kind,
                    sort: s,
                    index: 0,
                });
            }
            all.push(Call::TransitiveClosure(FuncId(0)));
            all.push(Call::NewModel);
            all.push(Call::ModelConst {
                model: m,
                constant: t,
                value: t,
            });
            let r = RcfId(0);
            all.extend([
                Call::RcfMk(RcfMk::Rational(text())),
                Call::RcfMk(RcfMk::SmallInt(0)),
                Call::RcfMk(RcfMk::Pi),
                Call::RcfMk(RcfMk::E),
                Call::RcfMk(RcfMk::Infinitesimal),
            ]);
            for op in [RcfOp::Add, RcfOp::Sub, RcfOp::Mul, RcfOp::Div] {
                all.push(Call::RcfArith { op, a: r, b: r });
            }
            all.extend([Call::RcfNeg(r), Call::RcfInv(r), Call::RcfPower(r, 0)]);
            for cmp in RcfCmp::ALL {
                all.push(Call::RcfCompare { cmp, a: r, b: r });
            }
            all.extend([
                Call::RcfToString {
                    num: r,
                    compact: false,
                    html: false,
                },
                Call::RcfToDecimal(r, 0),
                Call::RcfRoots(vec![]),
                Call::RcfRoot {
                    index: 0,
                    coeffs: vec![],
                },
                Call::RcfNumDen {
                    num: r,
                    denominator: false,
                },
                Call::RcfNumDen {
                    num: r,
                    denominator: true,
                },
            ]);
            for op in [RcfOp::Add, RcfOp::Sub, RcfOp::Mul, RcfOp::Div] {
                all.push(Call::AlgebraicArith { op, a: t, b: t });
            }
            for cmp in RcfCmp::ALL {
                all.push(Call::AlgebraicCompare { cmp, a: t, b: t });
            }
            for test in [
                AlgebraicTest::Value,
                AlgebraicTest::Pos,
                AlgebraicTest::Neg,
                AlgebraicTest::Zero,
            ] {
                all.push(Call::AlgebraicIs { test, term: t });
            }
            all.extend([
                Call::AlgebraicPower(t, 0),
                Call::AlgebraicRoot(t, 0),
                Call::AlgebraicSign(t),
                Call::ReadRcf {
                    function: "Z3_rcf_is_rational".into(),
                    rcf: r,
                },
            ]);
            all.extend([
                Call::FpNew { engine: text() },
                Call::FpRegister(FuncId(0)),
                Call::FpRule {
                    rule: t,
                    name: text(),
                },
                Call::FpUpdateRule {
                    rule: t,
                    name: text(),
                },
                Call::FpAssert(t),
                Call::FpQuery {
                    query: t,
                    rlimit: 0,
                },
                Call::FpQueryRelation {
                    relation: FuncId(0),
                    rlimit: 0,
                },
                Call::FpRead(text()),
                Call::FpReadRel {
                    function: text(),
                    relation: FuncId(0),
                },
                Call::FpFromString(text()),
                Call::FpSetParam {
                    key: text(),
                    value: text(),
                },
                Call::SortFpFixed(text()),
                Call::SortSet(s),
                Call::SetAdd(t, t),
                Call::SetDel(t, t),
                Call::SetMember(t, t),
            ]);
            all.extend([
                Call::MkTactic(T::Skip),
                Call::MkTactic(T::Fail),
                Call::MkTactic(T::FailIf(probe())),
                Call::MkTactic(T::FailIfNotDecided),
                Call::MkTactic(T::ParOr(k, k)),
                Call::MkTactic(T::ParAndThen(k, k)),
                Call::GoalRead {
                    function: text(),
                    goal: g,
                },
                Call::ProbeApply {
                    goal: g,
                    op: text(),
                    first: text(),
                    second: text(),
                },
                Call::CheckSatInterrupted {
                    solver: z,
                    delay_us: 0,
                },
                Call::SolverRead {
                    function: text(),
                    solver: z,
                },
                Call::QuantRebuild {
                    function: text(),
                    term: t,
                },
                Call::AstMap(vec![]),
                Call::AstVector(vec![]),
                Call::ReadGlobal {
                    function: text(),
                    subject: text(),
                },
                Call::ApplyTacticWith {
                    tactic: k,
                    goal: g,
                    rlimit: 0,
                    params: vec![],
                },
                Call::Qe {
                    lite: false,
                    model: m,
                    formula: t,
                    vars: vec![t],
                },
                Call::Qe {
                    lite: true,
                    model: m,
                    formula: t,
                    vars: vec![t],
                },
                Call::AsArray(FuncId(0)),
                Call::ArrayExt(t, t),
                Call::ArrayMap {
                    func: FuncId(0),
                    arrays: vec![t],
                },
                Call::Card {
                    at_least: false,
                    bound: 0,
                    terms: vec![t],
                },
                Call::Card {
                    at_least: true,
                    bound: 0,
                    terms: vec![t],
                },
                Call::SortFiniteSet(s),
                Call::FsetEmpty(s),
                Call::FsetSingleton(t),
                Call::FsetUnion(t, t),
                Call::FsetIntersect(t, t),
                Call::FsetDifference(t, t),
                Call::FsetMember(t, t),
                Call::FsetSubset(t, t),
                Call::FsetSize(t),
                Call::FsetRange(t, t),
                Call::FsetMap {
                    set: t,
                    add: 0,
                    mul: 1,
                },
                Call::FsetFilter {
                    set: t,
                    low: 0,
                    high: 0,
                },
                Call::SortFiniteField(7),
                Call::FfAdd(vec![t, t]),
                Call::FfMul(vec![t, t]),
                Call::FfNeg(t),
                Call::FfBitsum(vec![t, t]),
                Call::OptRead {
                    function: text(),
                    opt: OptId(0),
                },
                Call::ModelFunc {
                    model: m,
                    func: FuncId(0),
                    default: t,
                    entries: vec![t, t],
                },
                Call::ModelRead {
                    function: text(),
                    model: m,
                },
                Call::Divides {
                    divisor: 1,
                    term: t,
                },
                Call::SeqLastIndex(t, t),
                Call::SetHasSize(t, t),
                Call::ConstIntSym { index: 0, sort: s },
                Call::FunIntSym {
                    index: 0,
                    domain: vec![s],
                    range: s,
                },
                Call::FreshFunc {
                    prefix: text(),
                    domain: vec![s],
                    range: s,
                },
                Call::UpdateTerm {
                    term: t,
                    args: vec![t],
                },
                Call::SortArrayN {
                    domain: vec![s],
                    range: s,
                },
                Call::SortRe(s),
                Call::SeqHof {
                    function: text(),
                    args: vec![t],
                    add: 0,
                    mul: 1,
                },
            ]);
            all.extend(Check::templates().iter().cloned().map(Call::Check));
            all
        })
    }

    /// The template of the call named `name` (see [`Call::templates`]), not for the table's
    /// operations.
    pub fn template(name: &str) -> Option<&'static Call> {
        static BY_NAME: OnceLock<HashMap<&'static str, &'static Call>> = OnceLock::new();
        BY_NAME
            .get_or_init(|| Call::templates().iter().map(|c| (c.name(), c)).collect())
            .get(name)
            .copied()
    }

    /// The names of every call kind that is not a table operation and not a check, in the
    /// order of [`Call::templates`].
    pub fn action_names() -> &'static [&'static str] {
        static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
        NAMES.get_or_init(|| {
            Call::templates()
                .iter()
                .filter(|c| !matches!(c, Call::Check(_)))
                .map(Call::name)
                .collect()
        })
    }
}

impl Call {
    /// Every object id this call reads, in argument order.
    pub fn uses(&self) -> Vec<AnyId> {
        let mut ids = crate::call_args::Ids::default();
        self.walk(&mut ids);
        ids.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn make_sort_asks_for_components_in_argument_order() {
        let mut asked = Vec::new();
        let array = Sort::array(Sort::BitVec(4), Sort::Bool);
        let made = Call::make_sort(&array, |s: &Sort| {
            asked.push(s.clone());
            Ok::<_, ()>(Some(SortId(asked.len() as u32)))
        });
        assert_eq!(made, Ok(Some(Call::SortArray(SortId(1), SortId(2)))));
        assert_eq!(asked, [Sort::BitVec(4), Sort::Bool]);
        let unused = |_: &Sort| Ok::<_, ()>(Some(SortId(9)));
        assert_eq!(
            Call::make_sort(&Sort::uninterpreted("U"), unused),
            Ok(Some(Call::SortUninterpreted("U".into())))
        );
        assert_eq!(Call::make_sort(&Sort::RegLan, unused), Ok(None));
        let none = |_: &Sort| Ok::<_, ()>(None);
        assert_eq!(Call::make_sort(&Sort::seq(Sort::Int), none), Ok(None));
        assert_eq!(Call::make_sort(&array, |_| Err("stop")), Err("stop"));
    }

    #[test]
    fn error_messages_compare_without_whitespace_and_addresses() {
        assert_eq!(
            normalize_error("Exception:  unknown\n parameter 'x' "),
            "Exception: unknown parameter 'x'"
        );
        assert_eq!(
            normalize_error("bad ast 0x55d0c3a1 at (0xff,0x1)"),
            "bad ast 0x_ at (0x_,0x_)"
        );
        assert_eq!(normalize_error("0x"), "0x");
        assert_ne!(normalize_error("width 8"), normalize_error("width 9"));
        assert_eq!(Ret::Error("e".into()).error(), Some("e"));
        assert_eq!(Ret::Value("e".into()).error(), None);
    }
}
