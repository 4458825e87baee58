//! API calls and their recorded results: the vocabulary of a trace.
//!
//! A [`Call`] is one Z3 API call with its arguments; objects it creates get ids chosen by the
//! recorder (`s` sorts, `t` terms, `f` function declarations, `z` solvers, `m` models, `k`
//! tactics, `g` goals, `o` Optimize contexts). The
//! [`Ret`] is what the call returned, recorded so that a replay can compare (or the error Z3
//! refused it with, [`Ret::Error`]; [`normalize_error`] is how messages are compared). An
//! [`Entry`] is a call with its result, the unit that minimizers move around.

use crate::datatype::{DatatypeDecl, DeclPath};
use crate::ops::OpSpec;
use crate::Sort;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

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
}

impl AnyId {
    /// How many kinds of ids there are.
    pub const KINDS: usize = 8;

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
            _ => return None,
        })
    }

    /// The id of the same kind with number `n`.
    pub fn with_number(self, n: u32) -> AnyId {
        AnyId::from_slot(self.slot().0, n).expect("a kind of slot()")
    }

    /// The letter of the id's kind in a text trace.
    pub fn prefix(self) -> char {
        ['s', 't', 'f', 'z', 'm', 'k', 'g', 'o'][self.slot().0]
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
}

impl TacticExpr {
    pub fn name(&self) -> &'static str {
        match self {
            TacticExpr::Named(_) => "tactic",
            TacticExpr::AndThen(..) => "tactic_and_then",
            TacticExpr::OrElse(..) => "tactic_or_else",
            TacticExpr::Repeat(..) => "tactic_repeat",
            TacticExpr::TryFor(..) => "tactic_try_for",
            TacticExpr::When(..) => "tactic_when",
            TacticExpr::Cond(..) => "tactic_cond",
            TacticExpr::UsingParams(..) => "tactic_using_params",
        }
    }

    /// The tactic objects it combines.
    pub fn operands(&self) -> Vec<TacticId> {
        match self {
            TacticExpr::Named(_) => vec![],
            TacticExpr::AndThen(a, b) | TacticExpr::OrElse(a, b) | TacticExpr::Cond(_, a, b) => {
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
        }
    }
}

/// Which way an objective of an Optimize context goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Direction {
    Minimize,
    Maximize,
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
}

impl Check {
    /// The trace names of every check.
    pub const NAMES: &'static [&'static str] = &[
        "check_model",
        "check_indep",
        "check_eval",
        "check_shadow",
        "check_config",
        "check_dump",
        "check_core",
        "check_literal",
        "check_simplify",
        "check_quant",
        "check_consequences",
        "check_cubes",
        "check_goal",
        "check_opt_values",
        "check_opt_better",
    ];

    pub fn name(&self) -> &'static str {
        match self {
            Check::Model { .. } => "check_model",
            Check::Independent { .. } => "check_indep",
            Check::Eval { .. } => "check_eval",
            Check::Shadow { .. } => "check_shadow",
            Check::Config { .. } => "check_config",
            Check::Dump(_) => "check_dump",
            Check::Core(_) => "check_core",
            Check::Literal(_) => "check_literal",
            Check::Simplify(_) => "check_simplify",
            Check::Quant { .. } => "check_quant",
            Check::Consequences { .. } => "check_consequences",
            Check::Cubes(_) => "check_cubes",
            Check::Goal(_) => "check_goal",
            Check::OptValues { .. } => "check_opt_values",
            Check::OptBetter { .. } => "check_opt_better",
        }
    }

    /// Every object id the check reads.
    pub fn uses(&self) -> Vec<AnyId> {
        match self {
            Check::Model { model, term }
            | Check::Independent { model, term }
            | Check::Quant { model, term }
            | Check::Eval { model, term, .. } => vec![AnyId::Model(*model), AnyId::Term(*term)],
            Check::Shadow {
                original: a,
                clone: b,
            }
            | Check::Config {
                original: a,
                other: b,
            } => vec![AnyId::Solver(*a), AnyId::Solver(*b)],
            Check::Dump(z) | Check::Core(z) | Check::Cubes(z) => vec![AnyId::Solver(*z)],
            Check::Literal(t) | Check::Simplify(t) => vec![AnyId::Term(*t)],
            Check::Consequences {
                solver,
                assumptions,
                variables,
            } => std::iter::once(AnyId::Solver(*solver))
                .chain(assumptions.iter().chain(variables).map(|t| AnyId::Term(*t)))
                .collect(),
            Check::Goal(g) => vec![AnyId::Goal(*g)],
            Check::OptValues { opt, model } | Check::OptBetter { opt, model } => {
                vec![AnyId::Opt(*opt), AnyId::Model(*model)]
            }
        }
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
            Sort::RegLan => return Ok(None),
        }))
    }

    /// The trace name of the call, its first word on a line.
    pub fn name(&self) -> &'static str {
        match self {
            Call::SortBool => "sort_bool",
            Call::SortInt => "sort_int",
            Call::SortReal => "sort_real",
            Call::SortBv(_) => "sort_bv",
            Call::SortFp(..) => "sort_fp",
            Call::SortRm => "sort_rm",
            Call::SortString => "sort_string",
            Call::SortArray(..) => "sort_array",
            Call::SortSeq(_) => "sort_seq",
            Call::SortUninterpreted(_) => "sort_uninterpreted",
            Call::Const { .. } => "const",
            Call::Lit { .. } => "lit",
            Call::Fun { .. } => "fun",
            Call::Apply { .. } => "apply",
            Call::Op { op, .. } => op.name(),
            Call::ConstArray { .. } => "const_array",
            Call::Simplify(_) => "simplify",
            Call::SimplifyWith { .. } => "simplify_with",
            Call::Substitute { .. } => "substitute",
            Call::NewSolver(_) => "new_solver",
            Call::SetParam { .. } => "set_param",
            Call::SetGlobal { .. } => "set_global",
            Call::Push(_) => "push",
            Call::Pop(..) => "pop",
            Call::Assert(..) => "assert",
            Call::AssertAndTrack { .. } => "assert_and_track",
            Call::CheckSat(_) => "check_sat",
            Call::CheckSatAssuming(..) => "check_sat_assuming",
            Call::GetUnsatCore(_) => "get_unsat_core",
            Call::GetModel(_) => "get_model",
            Call::ModelEval { .. } => "model_eval",
            Call::Translate(_) => "translate",
            Call::Reset(_) => "reset",
            Call::ToSmt2(_) => "to_smt2",
            Call::FromString(..) => "from_string",
            Call::Release(_) => "release",
            Call::Delete(_) => "delete",
            Call::Check(check) => check.name(),
            Call::Var { .. } => "var",
            Call::Quantifier { forall: true, .. } => "forall",
            Call::Quantifier { forall: false, .. } => "exists",
            Call::DeclareDatatypes { .. } => "declare_datatypes",
            Call::SortDatatype { .. } => "sort_datatype",
            Call::DtConstruct { .. } => "dt_cons",
            Call::DtTest { .. } => "dt_is",
            Call::DtSelect { .. } => "dt_sel",
            Call::DtUpdate { .. } => "dt_update",
            Call::NewSolverConfig(_) => "new_solver_config",
            Call::TranslateConfig { .. } => "translate_config",
            Call::GetProof(_) => "get_proof",
            Call::MkTactic(expr) => expr.name(),
            Call::NewGoal { .. } => "goal_new",
            Call::GoalAssert(..) => "goal_assert",
            Call::ApplyTactic { .. } => "goal_apply",
            Call::Subgoal(..) => "goal_subgoal",
            Call::GoalFormula(_) => "goal_formula",
            Call::NewOptimize => "opt_new",
            Call::OptSetParam { .. } => "opt_set_param",
            Call::OptAssert(..) => "opt_assert",
            Call::OptAssertSoft { .. } => "opt_assert_soft",
            Call::OptObjective {
                direction: Direction::Minimize,
                ..
            } => "opt_minimize",
            Call::OptObjective {
                direction: Direction::Maximize,
                ..
            } => "opt_maximize",
            Call::OptPush(_) => "opt_push",
            Call::OptPop(_) => "opt_pop",
            Call::OptCheck(_) => "opt_check",
            Call::OptGetModel(_) => "opt_get_model",
            Call::OptBound { upper: false, .. } => "opt_lower",
            Call::OptBound { upper: true, .. } => "opt_upper",
        }
    }

    /// Whether the call is one of the datatype family.
    pub fn is_datatype(&self) -> bool {
        matches!(
            self,
            Call::DeclareDatatypes { .. }
                | Call::SortDatatype { .. }
                | Call::DtConstruct { .. }
                | Call::DtTest { .. }
                | Call::DtSelect { .. }
                | Call::DtUpdate { .. }
        )
    }

    /// The names of every call kind that is not a table operation.
    pub const ACTION_NAMES: &'static [&'static str] = &[
        "sort_bool",
        "sort_int",
        "sort_real",
        "sort_bv",
        "sort_fp",
        "sort_rm",
        "sort_string",
        "sort_array",
        "sort_seq",
        "sort_uninterpreted",
        "const",
        "lit",
        "fun",
        "apply",
        "const_array",
        "simplify",
        "substitute",
        "new_solver",
        "set_param",
        "set_global",
        "push",
        "pop",
        "assert",
        "assert_and_track",
        "check_sat",
        "check_sat_assuming",
        "get_unsat_core",
        "get_model",
        "model_eval",
        "translate",
        "reset",
        "to_smt2",
        "from_string",
        "release",
        "delete",
        "var",
        "forall",
        "exists",
        "declare_datatypes",
        "sort_datatype",
        "dt_cons",
        "dt_is",
        "dt_sel",
        "dt_update",
        "new_solver_config",
        "translate_config",
        "get_proof",
        "simplify_with",
        "tactic",
        "tactic_and_then",
        "tactic_or_else",
        "tactic_repeat",
        "tactic_try_for",
        "tactic_when",
        "tactic_cond",
        "tactic_using_params",
        "goal_new",
        "goal_assert",
        "goal_apply",
        "goal_subgoal",
        "goal_formula",
        "opt_new",
        "opt_set_param",
        "opt_assert",
        "opt_assert_soft",
        "opt_minimize",
        "opt_maximize",
        "opt_push",
        "opt_pop",
        "opt_check",
        "opt_get_model",
        "opt_lower",
        "opt_upper",
    ];

    /// What this call returns.
    pub fn ret_kind(&self) -> RetKind {
        match self {
            Call::SortBool
            | Call::SortInt
            | Call::SortReal
            | Call::SortBv(_)
            | Call::SortFp(..)
            | Call::SortRm
            | Call::SortString
            | Call::SortArray(..)
            | Call::SortSeq(_)
            | Call::SortUninterpreted(_)
            | Call::SortDatatype { .. } => RetKind::Sort,
            Call::Const { .. }
            | Call::Lit { .. }
            | Call::Apply { .. }
            | Call::Op { .. }
            | Call::ConstArray { .. }
            | Call::Simplify(_)
            | Call::SimplifyWith { .. }
            | Call::Substitute { .. }
            | Call::Var { .. }
            | Call::Quantifier { .. }
            | Call::DtConstruct { .. }
            | Call::DtTest { .. }
            | Call::DtSelect { .. }
            | Call::DtUpdate { .. } => RetKind::Term,
            Call::Fun { .. } => RetKind::Func,
            Call::NewSolver(_)
            | Call::Translate(_)
            | Call::NewSolverConfig(_)
            | Call::TranslateConfig { .. } => RetKind::Solver,
            Call::GetModel(_) | Call::OptGetModel(_) => RetKind::Model,
            Call::CheckSat(_) | Call::CheckSatAssuming(..) | Call::OptCheck(_) => RetKind::Sat,
            Call::GetUnsatCore(_) => RetKind::Core,
            Call::ModelEval { .. } | Call::ApplyTactic { .. } | Call::OptBound { .. } => {
                RetKind::Value
            }
            Call::MkTactic(_) => RetKind::Tactic,
            Call::NewGoal { .. } | Call::Subgoal(..) => RetKind::Goal,
            Call::GoalFormula(_) => RetKind::Term,
            Call::NewOptimize => RetKind::Opt,
            Call::GoalAssert(..)
            | Call::OptSetParam { .. }
            | Call::OptAssert(..)
            | Call::OptAssertSoft { .. }
            | Call::OptObjective { .. }
            | Call::OptPush(_)
            | Call::OptPop(_) => RetKind::None,
            Call::SetParam { .. }
            | Call::SetGlobal { .. }
            | Call::Push(_)
            | Call::Pop(..)
            | Call::Assert(..)
            | Call::AssertAndTrack { .. }
            | Call::Reset(_)
            | Call::ToSmt2(_)
            | Call::FromString(..)
            | Call::Release(_)
            | Call::Delete(_)
            | Call::Check(_)
            | Call::DeclareDatatypes { .. }
            | Call::GetProof(_) => RetKind::None,
        }
    }

    /// Every object id this call reads, in argument order.
    pub fn uses(&self) -> Vec<AnyId> {
        use AnyId as A;
        match self {
            Call::SortBool
            | Call::SortInt
            | Call::SortReal
            | Call::SortBv(_)
            | Call::SortFp(..)
            | Call::SortRm
            | Call::SortString
            | Call::SortUninterpreted(_)
            | Call::NewSolver(SolverKind::Default | SolverKind::Logic(_) | SolverKind::Tactic(_))
            | Call::NewSolverConfig(_)
            | Call::SetGlobal { .. }
            | Call::NewGoal { .. }
            | Call::NewOptimize => vec![],
            Call::NewSolver(SolverKind::FromTactic(k)) => vec![A::Tactic(*k)],
            Call::MkTactic(expr) => expr.operands().into_iter().map(A::Tactic).collect(),
            Call::GoalAssert(g, t) => vec![A::Goal(*g), A::Term(*t)],
            Call::ApplyTactic { tactic, goal, .. } => vec![A::Tactic(*tactic), A::Goal(*goal)],
            Call::Subgoal(g, _) | Call::GoalFormula(g) => vec![A::Goal(*g)],
            Call::OptSetParam { opt, .. }
            | Call::OptPush(opt)
            | Call::OptPop(opt)
            | Call::OptCheck(opt)
            | Call::OptGetModel(opt)
            | Call::OptBound { opt, .. } => vec![A::Opt(*opt)],
            Call::OptAssert(opt, term)
            | Call::OptAssertSoft { opt, term, .. }
            | Call::OptObjective { opt, term, .. } => vec![A::Opt(*opt), A::Term(*term)],
            Call::SortArray(i, e) => vec![A::Sort(*i), A::Sort(*e)],
            Call::SortSeq(e) => vec![A::Sort(*e)],
            Call::Const { sort, .. } | Call::Lit { sort, .. } | Call::Var { sort, .. } => {
                vec![A::Sort(*sort)]
            }
            Call::Quantifier {
                vars,
                body,
                patterns,
                no_patterns,
                ..
            } => vars
                .iter()
                .chain(std::iter::once(body))
                .chain(patterns.iter().flatten())
                .chain(no_patterns)
                .map(|t| A::Term(*t))
                .collect(),
            Call::Fun { domain, range, .. } => domain
                .iter()
                .chain(std::iter::once(range))
                .map(|s| A::Sort(*s))
                .collect(),
            Call::Apply { func, args } => std::iter::once(A::Func(*func))
                .chain(args.iter().map(|t| A::Term(*t)))
                .collect(),
            Call::Op { args, .. } => args.iter().map(|t| A::Term(*t)).collect(),
            Call::ConstArray { index, value } => vec![A::Sort(*index), A::Term(*value)],
            Call::Simplify(t) | Call::SimplifyWith { term: t, .. } => vec![A::Term(*t)],
            Call::Substitute { term, pairs } => std::iter::once(A::Term(*term))
                .chain(pairs.iter().flat_map(|(a, b)| [A::Term(*a), A::Term(*b)]))
                .collect(),
            Call::SetParam { solver, .. }
            | Call::Push(solver)
            | Call::Pop(solver, _)
            | Call::CheckSat(solver)
            | Call::GetUnsatCore(solver)
            | Call::GetModel(solver)
            | Call::Translate(solver)
            | Call::Reset(solver)
            | Call::ToSmt2(solver)
            | Call::FromString(solver, _)
            | Call::TranslateConfig { solver, .. }
            | Call::GetProof(solver)
            | Call::Delete(solver) => vec![A::Solver(*solver)],
            Call::Assert(solver, t) => vec![A::Solver(*solver), A::Term(*t)],
            Call::AssertAndTrack {
                solver,
                term,
                tracker,
            } => vec![A::Solver(*solver), A::Term(*term), A::Term(*tracker)],
            Call::CheckSatAssuming(solver, ts) => std::iter::once(A::Solver(*solver))
                .chain(ts.iter().map(|t| A::Term(*t)))
                .collect(),
            Call::ModelEval { model, term, .. } => vec![A::Model(*model), A::Term(*term)],
            Call::Release(id) => vec![*id],
            Call::Check(check) => check.uses(),
            Call::DeclareDatatypes { datatypes, .. } => datatypes
                .iter()
                .flat_map(|d| &d.constructors)
                .flat_map(|c| &c.fields)
                .filter_map(|f| match f.sort {
                    crate::datatype::FieldSort::Sort(s) => Some(A::Sort(s)),
                    _ => None,
                })
                .collect(),
            Call::SortDatatype { params, .. } => params.iter().map(|s| A::Sort(*s)).collect(),
            Call::DtConstruct { sort, args, .. } => std::iter::once(A::Sort(*sort))
                .chain(args.iter().map(|t| A::Term(*t)))
                .collect(),
            Call::DtTest { term, .. } | Call::DtSelect { term, .. } => vec![A::Term(*term)],
            Call::DtUpdate { term, value, .. } => vec![A::Term(*term), A::Term(*value)],
        }
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
