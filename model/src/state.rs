//! The reference state: which objects are alive, their sorts, each solver's scope depth and
//! phase. [`State::check`] says whether a call is valid now (its preconditions) and
//! [`State::apply`] advances the state by a call and its recorded result. Tools decide
//! whether a call sequence is valid without running Z3: untrace rejects malformed traces
//! with it, mbt generates only calls it accepts, ddtrace drops candidates it rejects.

use crate::call::{
    AlgebraicTest, AnyId, Call, Check, FuncId, GoalId, ModelId, OptId, RcfId, RcfMk, RcfOp,
    RelationKind, Ret, RetKind, SatResult, SolverId, SolverKind, SortId, TacticExpr, TacticId,
    TermId,
};
use crate::datatype::{self, Datatypes};
use crate::ops::{fp_format, MAX_BV_WIDTH};
use crate::rcf::{self, Interval};
use crate::sort::Sort;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt;

/// The largest exponent of `rcf_power` (an RCF number's size grows with it).
pub const MAX_RCF_POWER: u32 = 16;
/// The largest precision of `rcf_to_decimal`.
pub const MAX_RCF_PRECISION: u32 = 100;
/// The most coefficients of an RCF polynomial (`rcf_roots`, `rcf_root`).
pub const MAX_RCF_COEFFICIENTS: usize = 9;
/// How finely the reference state isolates the roots of `rcf_root` (bits below the Cauchy
/// bound).
pub const RCF_ROOT_BITS: u32 = 48;

/// The largest degree of `algebraic_root`.
pub const MAX_ALGEBRAIC_ROOT: u32 = 8;

/// An algebraic divisor must be known not to be zero (Z3 refuses a division by zero).
fn nonzero_term(id: TermId, value: Option<&Interval>) -> Result<(), Violation> {
    if value.is_some_and(Interval::excludes_zero) {
        Ok(())
    } else {
        violation(format!(
            "division by {id}, which is not known to be nonzero"
        ))
    }
}

/// An RCF divisor must be known not to be zero (Z3 refuses a division by zero).
fn nonzero(id: RcfId, value: Option<&Interval>) -> Result<(), Violation> {
    if value.is_some_and(Interval::excludes_zero) {
        Ok(())
    } else {
        violation(format!(
            "division by {id}, which is not known to be nonzero"
        ))
    }
}

/// What the reference state knows of an RCF number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RcfInfo {
    /// An interval that holds it, where one is known.
    pub value: Option<Interval>,
    /// Made from rationals by field operations alone (no root, π, e or ε on the way): Z3
    /// represents it as a rational and prints it as its fraction. (A root that happens to be
    /// rational prints as a root.)
    pub rational: bool,
    /// What made it, where the read-backs of its field extension know the answer.
    pub made: RcfMade,
}

/// What made an RCF number, as far as `read_rcf`'s oracle needs it ([`RcfInfo::made`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RcfMade {
    Pi,
    E,
    Infinitesimal,
    /// A root of a polynomial (`rcf_root`, `rcf_roots`): its own algebraic extension.
    Root,
    /// Anything else (a rational, arithmetic on numbers).
    Other,
}

/// What the reference state knows of a term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TermInfo {
    pub sort: Sort,
    /// Made by `const`: an input, usable as an assert_and_track tracker.
    pub is_const: bool,
    /// A Bool constant or its negation: valid as an assumption.
    pub is_literal: bool,
    /// Made by `var`: a bound variable, which a quantifier may bind.
    pub is_var: bool,
    /// The variables (`var` terms) the term mentions that no quantifier in it binds. A term
    /// with free variables is open: only term-building calls take it, so a bound variable is
    /// in scope only below its quantifier.
    pub free_vars: BTreeSet<TermId>,
    /// The term is or contains a quantifier.
    pub quantified: bool,
    /// How the term was made, as far as the read-backs' oracles (`crate::read`) need it.
    pub origin: Origin,
}

/// What a quantifier was made of (`Call::Quantifier`), for the quantifier readers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuantifierShape {
    pub forall: bool,
    pub weight: u32,
    pub vars: Vec<TermId>,
    pub patterns: Vec<Vec<TermId>>,
    pub no_patterns: Vec<TermId>,
}

/// How a term was made: what the read-backs (`crate::read`) judge Z3's answers by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// `lit`, with the value as written.
    Lit(String),
    /// `const`, with its name.
    Const(String),
    /// `var` (a fresh constant: Z3 adds to its name).
    Var,
    /// `apply` of an uninterpreted function to this many arguments.
    Apply { n_args: usize, func: FuncId },
    /// `forall` or `exists`, with what the quantifier readers judge.
    Quantifier(QuantifierShape),
    /// `as_array` of a function: an application without arguments of Z3's `as-array`,
    /// whose declaration has the function as its parameter.
    AsArray(FuncId),
    /// Any other call (an operation, a simplification, ...): Z3 may rewrite what it builds.
    Other,
}

impl Origin {
    fn of(call: &Call) -> Origin {
        match call {
            Call::Lit { value, .. } => Origin::Lit(value.clone()),
            Call::Const { name, .. } => Origin::Const(name.clone()),
            Call::Var { .. } => Origin::Var,
            Call::Apply { args, func } => Origin::Apply {
                n_args: args.len(),
                func: *func,
            },
            Call::Quantifier {
                forall,
                weight,
                vars,
                patterns,
                no_patterns,
                ..
            } => Origin::Quantifier(QuantifierShape {
                forall: *forall,
                weight: *weight,
                vars: vars.clone(),
                patterns: patterns.clone(),
                no_patterns: no_patterns.clone(),
            }),
            Call::AsArray(f) => Origin::AsArray(*f),
            _ => Origin::Other,
        }
    }

    /// What made the term, in a few words.
    pub fn describe(&self) -> &'static str {
        match self {
            Origin::Lit(_) => "a literal",
            Origin::Const(_) => "a constant",
            Origin::Var => "a bound variable",
            Origin::Apply { .. } => "a function application",
            Origin::Quantifier(_) => "a quantifier",
            Origin::AsArray(_) => "the array of a function",
            Origin::Other => "a term built by an operation",
        }
    }
}

impl TermInfo {
    pub fn is_closed(&self) -> bool {
        self.free_vars.is_empty()
    }
}

/// What a special relation is (`linear_order`, ..., `transitive_closure`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpecialRelation {
    Order(RelationKind),
    /// The transitive closure of this relation.
    Closure(FuncId),
}

/// Where a solver is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Nothing checked since the last change.
    Unchecked,
    /// The last check answered this, and nothing changed since.
    Checked(SatResult),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolverInfo {
    pub depth: u32,
    pub phase: Phase,
    /// Whether the last check was with assumptions (its unsat core is over them).
    pub assumed: bool,
    pub kind: SolverKind,
}

/// A context configuration must name parameters of [`crate::options::CONTEXT_PARAMS`], each
/// once, with Boolean values.
fn context_config(config: &[(String, String)]) -> Result<(), Violation> {
    for (i, (key, value)) in config.iter().enumerate() {
        if !crate::options::CONTEXT_PARAMS.contains(&key.as_str()) {
            return violation(format!("unknown context parameter `{key}`"));
        }
        if value != "true" && value != "false" {
            return violation(format!(
                "context parameter `{key}` is Boolean, got `{value}`"
            ));
        }
        if config[..i].iter().any(|(k, _)| k == key) {
            return violation(format!("context parameter `{key}` given twice"));
        }
    }
    Ok(())
}

/// The most simplifiers `check_simplifier` chains.
pub const MAX_SIMPLIFIERS: usize = 4;

/// `check_simplifier`'s chain: one to [`MAX_SIMPLIFIERS`] names of
/// [`crate::options::SIMPLIFIERS`] separated by single spaces, and Boolean parameters each of
/// a simplifier of the chain ([`crate::options::SIMPLIFIER_PARAMS`]), none given twice.
fn simplifier_chain(chain: &str, params: &[(String, String)]) -> Result<(), Violation> {
    let names: Vec<&str> = chain.split(' ').collect();
    if names.len() > MAX_SIMPLIFIERS {
        return violation(format!(
            "check_simplifier chains at most {MAX_SIMPLIFIERS} simplifiers"
        ));
    }
    if let Some(unknown) = names
        .iter()
        .find(|n| !crate::options::SIMPLIFIERS.contains(n))
    {
        return violation(format!("unknown simplifier `{unknown}`"));
    }
    for (i, (key, value)) in params.iter().enumerate() {
        let described = crate::options::SIMPLIFIER_PARAMS
            .iter()
            .any(|(s, k)| k == key && names.contains(s));
        if !described {
            return violation(format!(
                "no simplifier of `{chain}` has the parameter `{key}`"
            ));
        }
        if value != "true" && value != "false" {
            return violation(format!(
                "simplifier parameter `{key}` is Boolean, got `{value}`"
            ));
        }
        if params[..i].iter().any(|(k, _)| k == key) {
            return violation(format!("simplifier parameter `{key}` given twice"));
        }
    }
    Ok(())
}

/// What the reference state knows of a goal.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoalInfo {
    /// The number of subgoals of the last `goal_apply` to it, if it recorded one.
    pub subgoals: Option<u32>,
    /// It keeps models (`goal_new true`, or a subgoal of such a goal).
    pub models: bool,
    /// A subgoal (`goal_subgoal`) of a goal that keeps models: its model converter turns
    /// its models into the parent's.
    pub subgoal_with_models: bool,
}

/// What the reference state knows of an Optimize context.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptInfo {
    /// The objectives made in each scope (`scopes[0]` the base level), in order: a soft
    /// group's name, or `None` for a minimize/maximize objective.
    pub scopes: Vec<Vec<Option<String>>>,
    pub phase: Phase,
}

impl OptInfo {
    /// The number of objectives Z3 numbers (a soft group counts once).
    pub fn n_objectives(&self) -> u32 {
        let mut groups: Vec<&str> = Vec::new();
        let mut n = 0;
        for objective in self.scopes.iter().flatten() {
            match objective {
                Some(group) if groups.contains(&group.as_str()) => {}
                Some(group) => {
                    groups.push(group);
                    n += 1;
                }
                None => n += 1,
            }
        }
        n
    }

    pub fn depth(&self) -> u32 {
        self.scopes.len() as u32 - 1
    }
}

/// Why a call is not valid in the current state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation(pub String);

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Violation {}

fn violation<T>(message: impl Into<String>) -> Result<T, Violation> {
    Err(Violation(message.into()))
}

/// Z3's integer symbols are C ints: an index beyond `i32::MAX` is no symbol.
fn int_symbol(index: u32) -> Result<(), Violation> {
    if i32::try_from(index).is_ok() {
        Ok(())
    } else {
        violation(format!("integer symbol {index}: at most {}", i32::MAX))
    }
}

/// The object `id` names in `objects`, or the violation "KIND ID is not defined".
fn defined<'a, K: Eq + std::hash::Hash + fmt::Display, V>(
    objects: &'a HashMap<K, V>,
    id: K,
    kind: &str,
) -> Result<&'a V, Violation> {
    objects
        .get(&id)
        .map_or_else(|| violation(format!("{kind} {id} is not defined")), Ok)
}

/// The reference state of a trace.
#[derive(Clone, Debug, Default)]
pub struct State {
    pub sorts: HashMap<SortId, Sort>,
    pub terms: HashMap<TermId, TermInfo>,
    pub funcs: HashMap<FuncId, (Vec<Sort>, Sort)>,
    /// The names `fun` and `rec_fun` gave their functions.
    pub func_names: HashMap<FuncId, String>,
    /// The recursive functions among `funcs` (`rec_fun`), and whether `rec_def` gave each
    /// its body.
    pub rec_funcs: HashMap<FuncId, bool>,
    /// The special relations among `funcs`.
    pub relations: HashMap<FuncId, SpecialRelation>,
    pub solvers: HashMap<SolverId, SolverInfo>,
    pub models: HashMap<ModelId, SolverId>,
    /// Models built by hand (`model_new`).
    pub hand_models: HashSet<ModelId>,
    /// The declared datatypes (declarations are no objects: they live as long as the trace).
    pub datatypes: Datatypes,
    /// The names of uninterpreted sorts made so far (a datatype may not take one).
    pub uninterpreted: HashSet<String>,
    pub tactics: std::collections::HashSet<TacticId>,
    /// The tactics among `tactics` that no solver can be made from: combinators the `z3`
    /// crate does not wrap (`tactic_par_or`, ...), which the executor holds through z3-sys
    /// alone, and those built over them.
    pub raw_only_tactics: std::collections::HashSet<TacticId>,
    pub goals: HashMap<GoalId, GoalInfo>,
    pub opts: HashMap<OptId, OptInfo>,
    /// Models of Optimize contexts, by the context they came from.
    pub opt_models: HashMap<ModelId, OptId>,
    /// The live RCF numbers.
    pub rcfs: HashMap<RcfId, RcfInfo>,
    /// The terms that are algebraic numbers (Real or Int `lit`s, results of the algebraic
    /// calls), each with an interval that holds it where one is known.
    pub algebraic: HashMap<TermId, Option<Interval>>,
    /// The trace's fixedpoint context (the last `fp_new`'s).
    pub fixedpoint: Option<crate::fixedpoint::FpInfo>,
    /// The global parameters the trace set (`set_global`), in order: what
    /// `Z3_global_param_get` must read back (`crate::handles::expected_global`).
    pub globals: Vec<(String, String)>,
    /// The terms of Z3's finite sets (`fset_*`), each with the call that built it: what
    /// `crate::fset::value` computes their values from.
    pub fsets: HashMap<TermId, Call>,
    /// The next fresh number per id kind, for recorders.
    next: [u32; AnyId::KINDS],
}

impl State {
    pub fn new() -> State {
        State {
            next: [1; AnyId::KINDS],
            ..State::default()
        }
    }

    /// A fresh id number for objects of `kind` (a recorder calls this, a replay uses the
    /// trace's ids).
    pub fn fresh(&mut self, kind: RetKind) -> Option<AnyId> {
        let slot = match kind {
            RetKind::Sort => 0,
            RetKind::Term => 1,
            RetKind::Func => 2,
            RetKind::Solver => 3,
            RetKind::Model => 4,
            RetKind::Tactic => 5,
            RetKind::Goal => 6,
            RetKind::Opt => 7,
            RetKind::Rcf => 8,
            _ => return None,
        };
        let n = self.next[slot].max(1);
        self.next[slot] = n.saturating_add(1);
        AnyId::from_slot(slot, n)
    }

    pub fn sort(&self, id: SortId) -> Result<&Sort, Violation> {
        defined(&self.sorts, id, "sort")
    }

    pub fn term(&self, id: TermId) -> Result<&TermInfo, Violation> {
        defined(&self.terms, id, "term")
    }

    pub fn solver(&self, id: SolverId) -> Result<&SolverInfo, Violation> {
        defined(&self.solvers, id, "solver")
    }

    pub fn goal(&self, id: GoalId) -> Result<&GoalInfo, Violation> {
        defined(&self.goals, id, "goal")
    }

    pub fn opt(&self, id: OptId) -> Result<&OptInfo, Violation> {
        defined(&self.opts, id, "optimize context")
    }

    fn tactic(&self, id: TacticId) -> Result<(), Violation> {
        if self.tactics.contains(&id) {
            Ok(())
        } else {
            violation(format!("tactic {id} is not defined"))
        }
    }

    fn term_sort(&self, id: TermId) -> Result<&Sort, Violation> {
        self.term(id).map(|t| &t.sort)
    }

    /// The sort of `id`, which must be a set (an array to Bool), an argument of `what`.
    fn set_sort(&self, id: TermId, what: &str) -> Result<Sort, Violation> {
        let sort = self.term_sort(id)?;
        if matches!(sort, Sort::Array(_, e) if **e == Sort::Bool) {
            Ok(sort.clone())
        } else {
            violation(format!(
                "{what} argument {id} has sort {sort}, expected a set (an array to Bool)"
            ))
        }
    }

    /// `id` has sort `sort`, as an argument of `what`.
    /// The preconditions of `check_fset`: atoms of sort Bool, Int or a finite set, closed,
    /// each with a value the witnesses give (a term of the family, a literal or a witnessed
    /// constant: `crate::fset::value`); each witness a `const` once, its
    /// witness a ground term of its sort.
    fn fset_check(
        &self,
        atoms: &[TermId],
        witnesses: &[(TermId, TermId)],
        fields: bool,
    ) -> Result<(), Violation> {
        if atoms.is_empty() {
            return violation("check_fset needs at least one atom");
        }
        let mut given = HashMap::new();
        for (c, w) in witnesses {
            let (ci, wi) = (self.term(*c)?, self.term(*w)?);
            if !ci.is_const {
                return violation(format!("check_fset: {c} is no constant made by `const`"));
            }
            if ci.sort != wi.sort {
                return violation(format!(
                    "check_fset: {c} has sort {}, its witness {w} sort {}",
                    ci.sort, wi.sort
                ));
            }
            if given.insert(*c, *w).is_some() {
                return violation(format!("check_fset: {c} has two witnesses"));
            }
            crate::fset::value(self, *w, &HashMap::new())
                .map_err(|why| Violation(format!("check_fset: witness {w}: {why}")))?;
        }
        for a in atoms {
            let info = self.term(*a)?;
            let fits = match &info.sort {
                Sort::FiniteField(_) => fields,
                Sort::Bool | Sort::Int | Sort::FiniteSet(_) => !fields,
                _ => false,
            };
            if !fits {
                return violation(format!("check_fset/check_ff: {a} has sort {}", info.sort));
            }
            self.closed_term(*a, "check_fset atom")?;
            crate::fset::value(self, *a, &given)
                .map_err(|why| Violation(format!("check_fset: {a}: {why}")))?;
        }
        Ok(())
    }

    /// The sort of `id`, a finite set (`sort_finite_set`).
    fn finite_set_sort(&self, id: TermId, what: &str) -> Result<Sort, Violation> {
        let sort = self.term_sort(id)?;
        if matches!(sort, Sort::FiniteSet(_)) {
            Ok(sort.clone())
        } else {
            violation(format!(
                "{what} of {id}, of sort {sort}, expected a finite set"
            ))
        }
    }

    fn same_sort(&self, id: TermId, sort: &Sort, what: &str) -> Result<(), Violation> {
        let other = self.term_sort(id)?;
        if other == sort {
            Ok(())
        } else {
            violation(format!(
                "{what} argument {id} has sort {other}, expected {sort}"
            ))
        }
    }

    /// The index and element sorts of `array` read at `indices`: one index, as the
    /// arrays of [`Sort`] have one dimension.
    fn one_index(&self, array: TermId, indices: &[TermId]) -> Result<(Sort, Sort), Violation> {
        match (self.term_sort(array)?, indices.len()) {
            (Sort::Array(index, element), 1) => Ok(((**index).clone(), (**element).clone())),
            (Sort::Array(..), n) => {
                violation(format!("{array} has one dimension, got {n} indices"))
            }
            (other, _) => violation(format!("{array} has sort {other}, expected an array")),
        }
    }

    /// `id` is a term without free variables: one that a solver, a model or a check may take.
    /// `model_func`'s preconditions: M is built by hand; F an uninterpreted function of
    /// the trace (`fun`) with arguments; the else value and every entry's arguments and
    /// value literals of F's signature, the entries whole.
    fn model_func(
        &self,
        model: ModelId,
        func: FuncId,
        default: TermId,
        entries: &[TermId],
    ) -> Result<(), Violation> {
        if !self.hand_models.contains(&model) {
            return violation(format!("model {model} is no model built by hand"));
        }
        let (domain, range) = defined(&self.funcs, func, "function")?;
        if domain.is_empty()
            || self.rec_funcs.contains_key(&func)
            || self.relations.contains_key(&func)
        {
            return violation(format!(
                "{func} is no uninterpreted function with arguments (`fun`)"
            ));
        }
        let width = domain.len() + 1;
        if !entries.len().is_multiple_of(width) {
            return violation(format!(
                "model_func of {func}: {} terms are no whole entries of {width}",
                entries.len()
            ));
        }
        let expected = domain.iter().chain(std::iter::once(range)).cycle();
        for (t, sort) in std::iter::once((&default, range)).chain(entries.iter().zip(expected)) {
            let info = self.term(*t)?;
            if !matches!(info.origin, Origin::Lit(_)) {
                return violation(format!("model_func of {func}: {t} is no literal (`lit`)"));
            }
            if info.sort != *sort {
                return violation(format!(
                    "model_func of {func}: {t} has sort {}, expected {sort}",
                    info.sort
                ));
            }
        }
        Ok(())
    }

    fn closed_term(&self, id: TermId, role: &str) -> Result<(), Violation> {
        match self.term(id)?.free_vars.first() {
            None => Ok(()),
            Some(v) => violation(format!(
                "{role} {id} mentions the variable {v} outside a quantifier over it"
            )),
        }
    }

    /// The free variables of the term that `call` builds (`new` is its id: a `var` is free
    /// in itself). Conservative for `substitute`: the replaced term's variables stay, except
    /// a variable replaced as a whole.
    fn free_vars_of(&self, call: &Call, new: TermId) -> BTreeSet<TermId> {
        let of = |t: &TermId| {
            self.terms
                .get(t)
                .map(|i| i.free_vars.clone())
                .unwrap_or_default()
        };
        let union = |ts: &mut dyn Iterator<Item = &TermId>| {
            ts.fold(BTreeSet::new(), |mut acc, t| {
                acc.extend(of(t));
                acc
            })
        };
        match call {
            Call::Var { .. } => BTreeSet::from([new]),
            Call::Apply { args, .. }
            | Call::Op { args, .. }
            | Call::SetUnion(args)
            | Call::SetIntersect(args) => union(&mut args.iter()),
            Call::SetDifference(a, b)
            | Call::SetSubset(a, b)
            | Call::SetAdd(a, b)
            | Call::SetDel(a, b)
            | Call::SetMember(a, b) => union(&mut [a, b].into_iter()),
            Call::SetComplement(t) | Call::ArrayDefault(t) => of(t),
            Call::SelectN { array, indices } => {
                union(&mut std::iter::once(array).chain(indices.iter()))
            }
            Call::StoreN {
                array,
                indices,
                value,
            } => union(
                &mut std::iter::once(array)
                    .chain(indices.iter())
                    .chain(std::iter::once(value)),
            ),
            Call::Pb { terms, .. } => union(&mut terms.iter().map(|(_, t)| t)),
            Call::Card { terms, .. } => union(&mut terms.iter()),
            Call::ConstArray { value: t, .. }
            | Call::Simplify(t)
            | Call::SimplifyWith { term: t, .. } => of(t),
            Call::Substitute { term, pairs } => {
                let mut free = of(term);
                for (from, _) in pairs {
                    if self.terms.get(from).is_some_and(|i| i.is_var) {
                        free.remove(from);
                    }
                }
                free.extend(union(&mut pairs.iter().map(|(_, to)| to)));
                free
            }
            Call::QuantRebuild { term, .. } => of(term),
            Call::ArrayExt(a, b) => union(&mut [a, b].into_iter()),
            Call::Divides { term, .. } => of(term),
            Call::SeqLastIndex(a, b) | Call::SetHasSize(a, b) => union(&mut [a, b].into_iter()),
            Call::UpdateTerm { args, .. } => union(&mut args.iter()),
            Call::ArrayMap { arrays, .. } => union(&mut arrays.iter()),
            Call::SeqHof { args, .. } => union(&mut args.iter()),
            Call::FsetUnion(a, b)
            | Call::FsetIntersect(a, b)
            | Call::FsetDifference(a, b)
            | Call::FsetMember(a, b)
            | Call::FsetSubset(a, b)
            | Call::FsetRange(a, b) => union(&mut [a, b].into_iter()),
            Call::FfAdd(ts) | Call::FfMul(ts) | Call::FfBitsum(ts) => union(&mut ts.iter()),
            Call::FfNeg(t)
            | Call::FsetSingleton(t)
            | Call::FsetSize(t)
            | Call::FsetMap { set: t, .. }
            | Call::FsetFilter { set: t, .. } => of(t),
            Call::Quantifier {
                vars,
                body,
                patterns,
                no_patterns,
                ..
            } => {
                let mut free = union(
                    &mut std::iter::once(body)
                        .chain(patterns.iter().flatten())
                        .chain(no_patterns),
                );
                for v in vars {
                    free.remove(v);
                }
                free
            }
            _ => BTreeSet::new(),
        }
    }

    /// The trace's fixedpoint context.
    pub fn fp(&self) -> Result<&crate::fixedpoint::FpInfo, Violation> {
        self.fixedpoint
            .as_ref()
            .ok_or_else(|| Violation("no fixedpoint context (fp_new)".into()))
    }

    /// `f` can be a relation of a fixedpoint: a function to Bool.
    fn fp_relation(&self, f: FuncId) -> Result<(), Violation> {
        match self.funcs.get(&f) {
            Some((_, Sort::Bool)) => Ok(()),
            Some((_, range)) => violation(format!("relation {f} has range {range}, not Bool")),
            None => violation(format!("function {f} is not defined")),
        }
    }

    fn bool_term(&self, id: TermId, role: &str) -> Result<(), Violation> {
        match self.term_sort(id)? {
            Sort::Bool => Ok(()),
            other => violation(format!("{role} {id} has sort {other}, expected Bool")),
        }
    }

    /// Records the term a term-building call made as `new_id`.
    fn bind_term(&mut self, call: &Call, new_id: Option<AnyId>) -> Result<(), Violation> {
        // A call that returns a term needs a sort rule in `result_sort`: a missing one is a
        // violation here, never a term of a guessed sort.
        let Some(sort) = self.result_sort(call)? else {
            return violation(format!(
                "`{}` returns a term, but the reference state has no sort rule for it",
                call.name()
            ));
        };
        let is_const = matches!(call, Call::Const { .. });
        let is_bool_const = is_const && sort == Sort::Bool;
        let is_negated_const = matches!(call, Call::Op { op, args, .. }
            if op.name() == "not" && self.terms.get(&args[0]).is_some_and(|t| t.is_const));
        if let Some(AnyId::Term(t)) = new_id {
            let free_vars = self.free_vars_of(call, t);
            let quantified = matches!(call, Call::Quantifier { .. } | Call::QuantRebuild { .. })
                || call.uses().iter().any(|id| {
                    matches!(id, AnyId::Term(u) if self.terms.get(u).is_some_and(|i| i.quantified))
                });
            self.terms.insert(
                t,
                TermInfo {
                    sort,
                    is_const,
                    is_literal: is_bool_const || is_negated_const,
                    is_var: matches!(call, Call::Var { .. }),
                    free_vars,
                    quantified,
                    origin: self.origin_of(call)?,
                },
            );
            if crate::fset::is_fset_term_call(call) {
                self.fsets.insert(t, call.clone());
            }
        }
        Ok(())
    }

    /// How the term `call` builds was made: a quantifier maker of `quant_rebuild` gives the
    /// very quantifier again (a lambda is none).
    fn origin_of(&self, call: &Call) -> Result<Origin, Violation> {
        if let Call::QuantRebuild { term, function } = call {
            if crate::quant::Maker::by_name(function).is_some_and(|m| !m.lambda) {
                return Ok(self.term(*term)?.origin.clone());
            }
        }
        Ok(Origin::of(call))
    }

    /// The sort a term-building call produces, or why it cannot be built. `None` for calls
    /// that build no term.
    pub fn result_sort(&self, call: &Call) -> Result<Option<Sort>, Violation> {
        Ok(Some(match call {
            Call::Const { sort, .. } | Call::Var { sort, .. } => self.sort(*sort)?.clone(),
            Call::Lit { sort, value } => {
                let sort = self.sort(*sort)?;
                check_literal(sort, value)?;
                sort.clone()
            }
            Call::Apply { func, args } => {
                let Some((domain, range)) = self.funcs.get(func) else {
                    return violation(format!("function {func} is not defined"));
                };
                if domain.len() != args.len() {
                    return violation(format!(
                        "function {func} takes {} arguments, got {}",
                        domain.len(),
                        args.len()
                    ));
                }
                for (i, (arg, want)) in args.iter().zip(domain).enumerate() {
                    let got = self.term_sort(*arg)?;
                    if got != want {
                        return violation(format!(
                            "argument {} of {func} ({arg}) has sort {got}, expected {want}",
                            i + 1
                        ));
                    }
                }
                range.clone()
            }
            Call::AlgebraicArith { .. } | Call::AlgebraicPower(..) | Call::AlgebraicRoot(..) => {
                Sort::Real
            }
            Call::Op { op, indices, args } => {
                let sorts = args
                    .iter()
                    .map(|a| self.term_sort(*a))
                    .collect::<Result<Vec<_>, _>>()?;
                op.spec().result_sort(indices, &sorts).map_err(Violation)?
            }
            Call::ConstArray { index, value } => {
                Sort::array(self.sort(*index)?.clone(), self.term_sort(*value)?.clone())
            }
            Call::Simplify(t) | Call::SimplifyWith { term: t, .. } => self.term_sort(*t)?.clone(),
            Call::DtConstruct { sort, ctor, args } => {
                let sort = self.sort(*sort)?;
                let (name, d, params) = self.datatype_of(sort)?;
                let Some(i) = d.constructors.iter().position(|(c, _)| c == ctor) else {
                    return violation(format!("`{ctor}` is no constructor of datatype {name}"));
                };
                let want = d.field_sorts(i, params);
                if want.len() != args.len() {
                    return violation(format!(
                        "constructor `{ctor}` takes {} arguments, got {}",
                        want.len(),
                        args.len()
                    ));
                }
                for (arg, want) in args.iter().zip(&want) {
                    let got = self.term_sort(*arg)?;
                    if got != want {
                        return violation(format!(
                            "argument {arg} of `{ctor}` has sort {got}, expected {want}"
                        ));
                    }
                }
                sort.clone()
            }
            Call::DtTest { ctor, term } => {
                let (name, d, _) = self.datatype_of(self.term_sort(*term)?)?;
                if d.constructor(ctor).is_none() {
                    return violation(format!("`{ctor}` is no constructor of datatype {name}"));
                }
                Sort::Bool
            }
            Call::DtSelect { field, term } => {
                let (name, d, params) = self.datatype_of(self.term_sort(*term)?)?;
                let Some((c, k)) = d.field(field) else {
                    return violation(format!("`{field}` is no field of datatype {name}"));
                };
                d.field_sorts(c, params).swap_remove(k)
            }
            Call::DtUpdate { field, term, value } => {
                let sort = self.term_sort(*term)?;
                let (name, d, params) = self.datatype_of(sort)?;
                let Some((c, k)) = d.field(field) else {
                    return violation(format!("`{field}` is no field of datatype {name}"));
                };
                let want = d.field_sorts(c, params).swap_remove(k);
                let got = self.term_sort(*value)?;
                if *got != want {
                    return violation(format!(
                        "update of `{field}` by {value} of sort {got}, expected {want}"
                    ));
                }
                sort.clone()
            }
            Call::GoalFormula(g) => {
                self.goal(*g)?;
                Sort::Bool
            }
            Call::Substitute { term, pairs } => {
                for (from, to) in pairs {
                    let (a, b) = (self.term_sort(*from)?, self.term_sort(*to)?);
                    if a != b {
                        return violation(format!(
                            "substitute {from} ({a}) by {to} ({b}): sorts differ"
                        ));
                    }
                }
                self.term_sort(*term)?.clone()
            }
            Call::Quantifier {
                vars,
                body,
                patterns,
                no_patterns,
                ..
            } => {
                if vars.is_empty() {
                    return violation("a quantifier needs at least one variable");
                }
                for (i, v) in vars.iter().enumerate() {
                    if !self.term(*v)?.is_var {
                        return violation(format!(
                            "quantifier variable {v} is not a variable (made by `var`)"
                        ));
                    }
                    if vars[..i].contains(v) {
                        return violation(format!("quantifier variable {v} appears twice"));
                    }
                }
                self.bool_term(*body, "quantifier body")?;
                for pattern in patterns {
                    if pattern.is_empty() {
                        return violation("a pattern needs at least one term");
                    }
                }
                for t in patterns.iter().flatten().chain(no_patterns) {
                    self.term(*t)?;
                }
                Sort::Bool
            }
            Call::Pb { terms, .. } => {
                if terms.is_empty() {
                    return violation("a pseudo-Boolean constraint needs at least one term");
                }
                for (_, t) in terms {
                    self.bool_term(*t, "pseudo-Boolean argument")?;
                }
                Sort::Bool
            }
            Call::Card { terms, .. } => {
                if terms.is_empty() {
                    return violation("a cardinality constraint needs at least one term");
                }
                for t in terms {
                    self.bool_term(*t, "cardinality argument")?;
                }
                Sort::Bool
            }
            Call::SetIntersect(terms) => {
                let Some(first) = terms.first() else {
                    return violation("an intersection needs at least one set");
                };
                let sort = self.set_sort(*first, "intersection")?;
                for t in &terms[1..] {
                    self.same_sort(*t, &sort, "intersection")?;
                }
                sort
            }
            Call::SetDifference(a, b) => {
                let sort = self.set_sort(*a, "set difference")?;
                self.same_sort(*b, &sort, "set difference")?;
                sort
            }
            Call::SetComplement(a) => self.set_sort(*a, "set complement")?,
            Call::SetAdd(set, element) | Call::SetDel(set, element) => {
                let sort = self.set_sort(*set, call.name())?;
                let Sort::Array(index, _) = &sort else {
                    unreachable!("set_sort returns an array sort")
                };
                self.same_sort(*element, index, call.name())?;
                sort
            }
            Call::SetMember(element, set) => {
                let sort = self.set_sort(*set, "set_member")?;
                let Sort::Array(index, _) = &sort else {
                    unreachable!("set_sort returns an array sort")
                };
                self.same_sort(*element, index, "set_member")?;
                Sort::Bool
            }
            Call::SetSubset(a, b) => {
                let sort = self.set_sort(*a, "subset")?;
                self.same_sort(*b, &sort, "subset")?;
                Sort::Bool
            }
            Call::EmptySet(s) | Call::FullSet(s) => Sort::array(self.sort(*s)?.clone(), Sort::Bool),
            Call::SelectN { array, indices } => {
                let (index, element) = self.one_index(*array, indices)?;
                self.same_sort(indices[0], &index, "select_n index")?;
                element
            }
            Call::StoreN {
                array,
                indices,
                value,
            } => {
                let (index, element) = self.one_index(*array, indices)?;
                self.same_sort(indices[0], &index, "store_n index")?;
                self.same_sort(*value, &element, "store_n value")?;
                self.term_sort(*array)?.clone()
            }
            Call::ArrayDefault(a) => match self.term_sort(*a)? {
                Sort::Array(_, element) => (**element).clone(),
                other => {
                    return violation(format!(
                        "array_default of {a}, of sort {other}, expected an array"
                    ))
                }
            },
            Call::Qe {
                model,
                formula,
                vars,
                ..
            } => {
                if !self.is_alive(AnyId::Model(*model)) {
                    return violation(format!("model {model} is not defined"));
                }
                self.bool_term(*formula, "qe formula")?;
                self.closed_term(*formula, "qe formula")?;
                if vars.is_empty() {
                    return violation("qe eliminates at least one constant");
                }
                for v in vars {
                    let info = self.term(*v)?;
                    if !matches!(info.origin, Origin::Const(_))
                        || !matches!(info.sort, Sort::Int | Sort::Real)
                    {
                        return violation(format!(
                            "qe eliminates Int or Real constants (made by `const`), not {v}"
                        ));
                    }
                }
                Sort::Bool
            }
            Call::AsArray(f) => match self.funcs.get(f) {
                Some((domain, range)) if domain.len() == 1 => {
                    Sort::array(domain[0].clone(), range.clone())
                }
                Some((domain, _)) => {
                    return violation(format!(
                        "as_array of {f}, a function of {} arguments (arrays have one index here)",
                        domain.len()
                    ))
                }
                None => return violation(format!("function {f} is not defined")),
            },
            Call::ArrayExt(a, b) => {
                let (index, _) = self.one_index(*a, &[*a])?;
                let sort = self.term_sort(*a)?.clone();
                self.same_sort(*b, &sort, "array_ext")?;
                index
            }
            Call::ArrayMap { func, arrays } => {
                let Some((domain, range)) = self.funcs.get(func) else {
                    return violation(format!("function {func} is not defined"));
                };
                if domain.len() != arrays.len() || arrays.is_empty() {
                    return violation(format!(
                        "array_map of {func}, a function of {} arguments, over {} arrays",
                        domain.len(),
                        arrays.len()
                    ));
                }
                let (index, _) = self.one_index(arrays[0], &[arrays[0]])?;
                for (a, d) in arrays.iter().zip(domain) {
                    let want = Sort::array(index.clone(), d.clone());
                    self.same_sort(*a, &want, "array_map argument")?;
                }
                Sort::array(index, range.clone())
            }
            Call::FfAdd(ts) | Call::FfMul(ts) | Call::FfBitsum(ts) => {
                let Some(first) = ts.first() else {
                    return violation(format!("{} needs at least two elements", call.name()));
                };
                let sort = self.term_sort(*first)?.clone();
                if !matches!(sort, Sort::FiniteField(_)) || ts.len() < 2 {
                    return violation(format!(
                        "{} needs at least two elements of a finite field, got {} of {sort}",
                        call.name(),
                        ts.len()
                    ));
                }
                for t in &ts[1..] {
                    self.same_sort(*t, &sort, call.name())?;
                }
                sort
            }
            Call::FfNeg(a) => {
                let sort = self.term_sort(*a)?.clone();
                if !matches!(sort, Sort::FiniteField(_)) {
                    return violation(format!(
                        "ff_neg of {a}, of sort {sort}, expected a finite field"
                    ));
                }
                sort
            }
            Call::FsetEmpty(s) => {
                let sort = self.sort(*s)?;
                if !matches!(sort, Sort::FiniteSet(_)) {
                    return violation(format!(
                        "fset_empty of {s}, of sort {sort}, expected a finite set sort"
                    ));
                }
                sort.clone()
            }
            Call::FsetSingleton(e) => {
                let element = self.term_sort(*e)?;
                if !crate::fset::element_fits(element) {
                    return violation(format!("fset_singleton of {e}, of sort {element}, which is no finite-set element sort"));
                }
                Sort::finite_set(element.clone())
            }
            Call::FsetUnion(a, b) | Call::FsetIntersect(a, b) | Call::FsetDifference(a, b) => {
                let sort = self.finite_set_sort(*a, call.name())?;
                self.same_sort(*b, &sort, call.name())?;
                sort
            }
            Call::FsetSubset(a, b) => {
                let sort = self.finite_set_sort(*a, call.name())?;
                self.same_sort(*b, &sort, call.name())?;
                Sort::Bool
            }
            Call::FsetMember(e, set) => {
                let Sort::FiniteSet(element) = self.finite_set_sort(*set, call.name())? else {
                    unreachable!("finite_set_sort returns a finite set sort")
                };
                self.same_sort(*e, &element, call.name())?;
                Sort::Bool
            }
            Call::FsetSize(set) => {
                self.finite_set_sort(*set, call.name())?;
                Sort::Int
            }
            Call::FsetRange(low, high) => {
                self.same_sort(*low, &Sort::Int, call.name())?;
                self.same_sort(*high, &Sort::Int, call.name())?;
                Sort::finite_set(Sort::Int)
            }
            Call::FsetMap { set, .. } | Call::FsetFilter { set, .. } => {
                let ints = Sort::finite_set(Sort::Int);
                self.same_sort(*set, &ints, call.name())?;
                ints
            }
            Call::SeqHof { function, args, .. } => {
                let Some(hof) = crate::seq_hof::SeqHof::by_function(function) else {
                    return violation(format!(
                        "`{function}` is no higher-order sequence function of seq_hof"
                    ));
                };
                let sorts = hof.arg_sorts();
                if args.len() != sorts.len() {
                    return violation(format!(
                        "{function} takes {} terms after its lambda, got {}",
                        sorts.len(),
                        args.len()
                    ));
                }
                for (a, sort) in args.iter().zip(&sorts) {
                    self.same_sort(*a, sort, function)?;
                }
                hof.result()
            }
            Call::QuantRebuild { function, term } => {
                let Some(maker) = crate::quant::Maker::by_name(function) else {
                    return violation(format!(
                        "`{function}` is no quantifier maker of quant_rebuild"
                    ));
                };
                let Origin::Quantifier(q) = &self.term(*term)?.origin else {
                    return violation(format!("quant_rebuild of {term}, which is no quantifier"));
                };
                maker.applies(q).map_err(Violation)?;
                if maker.lambda {
                    Sort::array(self.term_sort(q.vars[0])?.clone(), Sort::Bool)
                } else {
                    Sort::Bool
                }
            }
            Call::SetUnion(terms) => {
                let Some(first) = terms.first() else {
                    return violation("a union needs at least one set");
                };
                let sort = self.term_sort(*first)?.clone();
                if !matches!(&sort, Sort::Array(_, e) if **e == Sort::Bool) {
                    return violation(format!(
                        "union argument {first} has sort {sort}, expected a set (an array to Bool)"
                    ));
                }
                for t in &terms[1..] {
                    let other = self.term_sort(*t)?;
                    if *other != sort {
                        return violation(format!(
                            "union argument {t} has sort {other}, expected {sort}"
                        ));
                    }
                }
                sort
            }
            Call::Divides { divisor, term } => {
                if *divisor == 0 {
                    return violation("divides: the divisor is at least 1");
                }
                self.same_sort(*term, &Sort::Int, "divides")?;
                Sort::Bool
            }
            Call::SeqLastIndex(s, t) => {
                let sort = self.term_sort(*s)?.clone();
                if !matches!(sort, Sort::String | Sort::Seq(_)) {
                    return violation(format!(
                        "seq_last_index of {s}, of sort {sort}, expected a String or sequence"
                    ));
                }
                self.same_sort(*t, &sort, "seq_last_index")?;
                Sort::Int
            }
            Call::SetHasSize(set, size) => {
                self.set_sort(*set, "set_has_size")?;
                self.same_sort(*size, &Sort::Int, "set_has_size")?;
                Sort::Bool
            }
            Call::ConstIntSym { index, sort } => {
                int_symbol(*index)?;
                self.sort(*sort)?.clone()
            }
            Call::UpdateTerm { term, args } => {
                let Origin::Apply { n_args, func } = &self.term(*term)?.origin else {
                    return violation(format!(
                        "update_term of {term}, which is no application of a function (apply)"
                    ));
                };
                if *n_args != args.len() {
                    return violation(format!(
                        "update_term of {term}, an application to {n_args} arguments, with {}",
                        args.len()
                    ));
                }
                let Some((domain, range)) = self.funcs.get(func) else {
                    return violation(format!("function {func} is not defined"));
                };
                for (a, d) in args.iter().zip(domain) {
                    self.same_sort(*a, d, "update_term argument")?;
                }
                range.clone()
            }
            _ => return Ok(None),
        }))
    }

    /// The declared datatype of an instance sort, with its name and parameter sorts.
    fn datatype_of<'a>(
        &'a self,
        sort: &'a Sort,
    ) -> Result<(&'a str, &'a datatype::Datatype, &'a [Sort]), Violation> {
        self.datatypes
            .of(sort)
            .map_or_else(|| violation(format!("sort {sort} is no datatype")), Ok)
    }

    /// The datatypes a `declare_datatypes` call declares, resolved, or why it cannot.
    fn resolve_datatypes(
        &self,
        call: &Call,
    ) -> Result<Vec<(String, datatype::Datatype)>, Violation> {
        let Call::DeclareDatatypes {
            path,
            params,
            datatypes,
        } = call
        else {
            return Ok(Vec::new());
        };
        datatype::resolve(
            *path,
            params,
            datatypes,
            |id| self.sort(id).cloned().map_err(|v| v.0),
            |name| self.datatypes.names.contains(name) || self.uninterpreted.contains(name),
        )
        .map_err(Violation)
    }

    /// The preconditions of `call` in this state.
    pub fn check(&self, call: &Call) -> Result<(), Violation> {
        match call {
            Call::FpNew { engine } => {
                if crate::fixedpoint::ENGINES.contains(&engine.as_str()) {
                    Ok(())
                } else {
                    violation(format!(
                        "unknown fixedpoint engine `{engine}` (one of {:?})",
                        crate::fixedpoint::ENGINES
                    ))
                }
            }
            Call::FpRegister(f) | Call::FpQueryRelation { relation: f, .. } => {
                self.fp()?;
                self.fp_relation(*f)
            }
            Call::FpRule { rule: t, .. }
            | Call::FpUpdateRule { rule: t, .. }
            | Call::FpAssert(t)
            | Call::FpQuery { query: t, .. } => {
                let info = self.fp()?;
                self.bool_term(*t, "fixedpoint formula")?;
                self.closed_term(*t, "fixedpoint formula")?;
                if let Call::FpUpdateRule { name, .. } = call {
                    if !info.rules.iter().any(|(n, _)| n == name) {
                        return violation(format!("fp_update_rule of `{name}`, which no rule is"));
                    }
                }
                Ok(())
            }
            Call::FpRead(function) | Call::FpReadRel { function, .. } => {
                let relation = if let Call::FpReadRel { relation, .. } = call {
                    Some(*relation)
                } else {
                    None
                };
                let info = self.fp()?;
                let Some(when) = crate::fixedpoint::reader(function, relation.is_some()) else {
                    return violation(format!(
                        "`{function}` is no fixedpoint reader of {}",
                        if relation.is_some() { "a relation" } else { "the context" }
                    ));
                };
                if let Some(f) = relation {
                    self.fp_relation(f)?;
                    if !info.relations.contains(&f) {
                        return violation(format!("relation {f} is not registered"));
                    }
                }
                info.admits(when).map_err(|why| Violation(format!("`{function}` {why}")))
            }
            Call::FpFromString(_) => self.fp().map(drop),
            Call::GoalRead { function, goal } => {
                let info = self.goal(*goal)?;
                let Some((_, when)) = crate::goals::goal_reader(function) else {
                    return violation(format!("`{function}` is no goal reader"));
                };
                match when {
                    crate::goals::GoalWhen::Always => Ok(()),
                    crate::goals::GoalWhen::Applied if info.subgoals.is_some() => Ok(()),
                    crate::goals::GoalWhen::SubgoalWithModels if info.subgoal_with_models => Ok(()),
                    other => violation(format!("`{function}` of goal {goal} needs {other:?}")),
                }
            }
            Call::ProbeApply {
                goal,
                op,
                first,
                second,
            } => {
                self.goal(*goal)?;
                let Some((_, arity)) = crate::goals::PROBE_OPS.iter().find(|(o, _)| o == op) else {
                    return violation(format!("`{op}` is no probe combinator"));
                };
                let probes: Vec<&String> = [first, second]
                    .into_iter()
                    .filter(|p| !p.is_empty())
                    .collect();
                if probes.len() != *arity || first.is_empty() {
                    return violation(format!("probe combinator `{op}` takes {arity} probes"));
                }
                match probes
                    .iter()
                    .find(|p| !crate::options::PROBES.contains(&p.as_str()))
                {
                    Some(p) => violation(format!("unknown probe `{p}`")),
                    None => Ok(()),
                }
            }
            Call::CheckSatInterrupted { solver, .. } => self.solver(*solver).map(drop),
            Call::OptRead { function, opt } => {
                self.opt(*opt)?;
                match crate::introspect::opt_reader(function) {
                    Some(_) => Ok(()),
                    None => violation(format!("`{function}` is no Optimize reader")),
                }
            }
            Call::ModelFunc {
                model,
                func,
                default,
                entries,
            } => self.model_func(*model, *func, *default, entries),
            Call::ModelRead { function, model } => {
                if !self.hand_models.contains(model) {
                    return violation(format!("model {model} is no model built by hand"));
                }
                if !crate::introspect::model_reader(function) {
                    return violation(format!("`{function}` is no reader of a model"));
                }
                Ok(())
            }
            Call::SolverRead { function, solver } => {
                let info = self.solver(*solver)?;
                let Some((_, when)) = crate::goals::solver_reader(function) else {
                    return violation(format!("`{function}` is no solver reader"));
                };
                match when {
                    crate::goals::SolverWhen::Always => Ok(()),
                    crate::goals::SolverWhen::Unknown
                        if info.phase == Phase::Checked(SatResult::Unknown) =>
                    {
                        Ok(())
                    }
                    other => violation(format!("`{function}` of solver {solver} needs {other:?}")),
                }
            }
            Call::FpSetParam { key, value } => {
                self.fp()?;
                match crate::fixedpoint::PARAMS.iter().find(|(k, _)| k == key) {
                    Some((_, values)) if values.contains(&value.as_str()) => Ok(()),
                    Some(_) => violation(format!("fixedpoint parameter {key} cannot be `{value}`")),
                    None => violation(format!("`{key}` is no fixedpoint parameter of the model")),
                }
            }
            Call::Read { function, term } => {
                let reader = read_function(function, crate::read::Subject::Term)?;
                reader.applies_to_term(self, *term)
            }
            Call::ReadSort { function, sort } => {
                let reader = read_function(function, crate::read::Subject::Sort)?;
                reader.applies_to_sort(self, *sort)
            }
            Call::ReadRcf { function, rcf } => {
                read_function(function, crate::read::Subject::Rcf)?;
                self.rcf(*rcf).map(drop)
            }
            Call::ReadEq(a, b) => self.term(*a).and(self.term(*b)).map(drop),
            Call::ReadStats(solver) => self.solver(*solver).map(drop),
            Call::AstMap(pairs) => {
                if pairs.is_empty() {
                    return violation("ast_map without a pair of terms");
                }
                for (k, v) in pairs {
                    self.closed_term(*k, "AST map key")?;
                    self.closed_term(*v, "AST map value")?;
                }
                Ok(())
            }
            Call::AstVector(terms) => {
                if terms.is_empty() {
                    return violation("ast_vector without a term");
                }
                for t in terms {
                    self.closed_term(*t, "AST vector element")?;
                }
                Ok(())
            }
            Call::ReadGlobal { function, subject } => {
                let Some((kind, _)) = crate::handles::global_reader(function) else {
                    return violation(format!("`{function}` is no global read function"));
                };
                crate::handles::admits_subject(kind, subject)
                    .map_err(|why| Violation(format!("`{function}`: {why}")))
            }
            Call::DeclareDatatypes { .. } => self.resolve_datatypes(call).map(drop),
            Call::SortDatatype { name, params } => {
                let Some(d) = self.datatypes.by_name.get(name) else {
                    return violation(format!("datatype `{name}` is not declared"));
                };
                if d.params.len() != params.len() {
                    return violation(format!(
                        "datatype `{name}` has {} parameters, got {}",
                        d.params.len(),
                        params.len()
                    ));
                }
                let mut size = 1;
                for p in params {
                    let s = self.sort(*p)?;
                    if *s == Sort::RegLan {
                        return violation("a datatype of RegLan");
                    }
                    size += s.size();
                }
                within_sort_size(size)
            }
            Call::DtConstruct { .. }
            | Call::DtTest { .. }
            | Call::DtSelect { .. }
            | Call::DtUpdate { .. } => self.result_sort(call).map(drop),
            Call::SortBool
            | Call::SortInt
            | Call::SortReal
            | Call::SortRm
            | Call::SortString
            | Call::SetGlobal { .. } => Ok(()),
            Call::SortBv(w) => {
                if (1..=MAX_BV_WIDTH).contains(w) {
                    Ok(())
                } else {
                    violation(format!("bit-width {w} is outside 1..={MAX_BV_WIDTH}"))
                }
            }
            Call::SortFp(e, s) => fp_format(*e, *s).map(drop).map_err(Violation),
            Call::SortFpFixed(function) => match crate::call::fixed_fp_format(function) {
                Some(_) => Ok(()),
                None => violation(format!(
                    "`{function}` is no maker of a fixed floating-point format"
                )),
            },
            Call::SortSet(e) => within_sort_size(2 + self.sort(*e)?.size()),
            Call::SortArray(i, e) => {
                let size = 1 + self.sort(*i)?.size() + self.sort(*e)?.size();
                within_sort_size(size)
            }
            Call::SortSeq(e) => within_sort_size(1 + self.sort(*e)?.size()),
            Call::SortFiniteField(p) => {
                if crate::fset::is_field_order(*p) {
                    Ok(())
                } else {
                    violation(format!(
                        "sort_finite_field {p}: the order is a prime below 2^31"
                    ))
                }
            }
            Call::SortFiniteSet(e) => {
                let element = self.sort(*e)?;
                if crate::fset::element_fits(element) {
                    Ok(())
                } else {
                    violation(format!(
                        "sort_finite_set of {element}: elements are Int, Bool or bit-vectors of at most {} bits",
                        crate::fset::MAX_ELEMENT_WIDTH
                    ))
                }
            }
            Call::SortUninterpreted(name) => {
                if name.is_empty() {
                    violation("an uninterpreted sort needs a name")
                } else if self.datatypes.names.contains(name) {
                    violation(format!("`{name}` names a datatype, constructor or field"))
                } else {
                    Ok(())
                }
            }
            Call::Fun { domain, range, .. } | Call::RecFun { domain, range, .. } => {
                for s in domain.iter().chain(std::iter::once(range)) {
                    self.sort(*s)?;
                }
                Ok(())
            }
            Call::RecDef { func, vars, body } => self.check_rec_def(*func, vars, *body),
            Call::Relation { sort, .. } => self.sort(*sort).map(drop),
            Call::NewModel => Ok(()),
            Call::ModelConst {
                model,
                constant,
                value,
            } => {
                if !self.hand_models.contains(model) {
                    return violation(format!("model {model} is no model built by hand"));
                }
                let c = self.term(*constant)?;
                if !c.is_const {
                    return violation(format!("{constant} is no constant (made by `const`)"));
                }
                self.closed_term(*value, "interpretation")?;
                let v = self.term_sort(*value)?;
                if *v != c.sort {
                    return violation(format!(
                        "interpretation {value} has sort {v}, expected {}",
                        c.sort
                    ));
                }
                Ok(())
            }
            Call::TransitiveClosure(f) => self.binary_relation(*f).map(drop),
            Call::Const { .. }
            | Call::Lit { .. }
            | Call::Apply { .. }
            | Call::Op { .. }
            | Call::Simplify(_)
            | Call::SimplifyWith { .. }
            | Call::Substitute { .. }
            | Call::Var { .. }
            | Call::Quantifier { .. }
            | Call::QuantRebuild { .. }
            | Call::AsArray(_)
            | Call::ArrayMap { .. }
            | Call::Qe { .. }
            | Call::Pb { .. }
            | Call::FsetMap { .. }
            | Call::FsetFilter { .. }
            | Call::Divides { .. }
            | Call::ConstIntSym { .. }
            | Call::UpdateTerm { .. }
            | Call::SeqHof { .. }
            | crate::plain_call!() => self.result_sort(call).map(drop),
            Call::SortArrayN { domain, range } => {
                if domain.len() != 1 {
                    return violation(format!(
                        "sort_array_n of {} indices: the arrays of traces have one",
                        domain.len()
                    ));
                }
                let size = self.sort(domain[0])?.size() + self.sort(*range)?.size() + 1;
                within_sort_size(size)
            }
            Call::SortRe(s) => match self.sort(*s)? {
                Sort::String => Ok(()),
                other => violation(format!(
                    "sort_re of {other}: regular expressions are over String"
                )),
            },
            Call::FunIntSym { domain, range, .. } | Call::FreshFunc { domain, range, .. } => {
                if let Call::FunIntSym { index, .. } = call {
                    int_symbol(*index)?;
                }
                for s in domain.iter().chain(std::iter::once(range)) {
                    self.sort(*s)?;
                }
                Ok(())
            }
            Call::NewSolver(SolverKind::Default) => Ok(()),
            Call::NewSolver(SolverKind::Logic(logic)) => {
                if crate::options::LOGICS.contains(&logic.as_str()) {
                    Ok(())
                } else {
                    violation(format!("unknown logic `{logic}`"))
                }
            }
            Call::NewSolver(SolverKind::Tactic(tactic)) => {
                if crate::options::TACTICS.contains(&tactic.as_str()) {
                    Ok(())
                } else {
                    violation(format!("unknown tactic `{tactic}`"))
                }
            }
            Call::NewSolverConfig(config) => context_config(config),
            Call::TranslateConfig { solver, config } => {
                context_config(config)?;
                self.check(&Call::Translate(*solver))
            }
            Call::GetProof(solver) => self.solver(*solver).map(drop),
            Call::NewSolver(SolverKind::FromTactic(k)) => {
                self.tactic(*k)?;
                if self.raw_only_tactics.contains(k) {
                    return violation(format!(
                        "tactic {k} holds a combinator no solver can be made from"
                    ));
                }
                Ok(())
            }
            Call::MkTactic(expr) => self.check_tactic(expr),
            Call::NewGoal { .. } | Call::NewOptimize => Ok(()),
            Call::GoalAssert(g, t) => {
                self.goal(*g)?;
                self.bool_term(*t, "goal formula")
            }
            Call::ApplyTactic { tactic, goal, .. } => {
                self.tactic(*tactic)?;
                self.goal(*goal).map(drop)
            }
            Call::ApplyTacticWith {
                tactic,
                goal,
                params,
                ..
            } => {
                self.tactic(*tactic)?;
                self.goal(*goal)?;
                if params.is_empty() {
                    return violation("goal_apply_with needs a parameter");
                }
                Ok(())
            }
            Call::Subgoal(g, i) => match self.goal(*g)?.subgoals {
                Some(n) if *i < n => Ok(()),
                Some(n) => violation(format!("subgoal {i} of goal {g}, which has {n}")),
                None => violation(format!(
                    "subgoal of goal {g}, which no tactic was applied to"
                )),
            },
            Call::GoalFormula(_) => self.result_sort(call).map(drop),
            Call::OptSetParam { opt, .. } | Call::OptPush(opt) | Call::OptCheck(opt) => {
                self.opt(*opt).map(drop)
            }
            Call::OptAssert(opt, t) => {
                self.opt(*opt)?;
                self.bool_term(*t, "hard constraint")
            }
            Call::OptAssertSoft {
                opt, term, weight, ..
            } => {
                self.opt(*opt)?;
                self.bool_term(*term, "soft constraint")?;
                if *weight == 0 {
                    return violation("a soft constraint needs a positive weight");
                }
                Ok(())
            }
            Call::OptObjective { opt, term, .. } => {
                self.opt(*opt)?;
                match self.term_sort(*term)? {
                    Sort::Int | Sort::Real | Sort::BitVec(_) => Ok(()),
                    other => violation(format!(
                        "objective {term} has sort {other}, expected Int, Real or a bit-vector"
                    )),
                }
            }
            Call::OptPop(opt) => match self.opt(*opt)?.depth() {
                0 => violation(format!("opt_pop on {opt} at scope depth 0")),
                _ => Ok(()),
            },
            Call::OptGetModel(opt) => match self.opt(*opt)?.phase {
                Phase::Checked(SatResult::Sat) => Ok(()),
                _ => violation(format!(
                    "opt_get_model on {opt}, whose last check was not sat"
                )),
            },
            Call::OptBound { opt, index, .. } => {
                let info = self.opt(*opt)?;
                if info.phase != Phase::Checked(SatResult::Sat) {
                    return violation(format!(
                        "objective bound of {opt}, whose last check was not sat"
                    ));
                }
                let n = info.n_objectives();
                if *index < n {
                    Ok(())
                } else {
                    violation(format!("objective {index} of {opt}, which has {n}"))
                }
            }
            Call::Translate(solver) => match self.solver(*solver)?.depth {
                0 => Ok(()),
                // Z3: "translation of contexts is only supported at base level".
                depth => violation(format!(
                    "translate of solver {solver} at scope depth {depth}: only at base level"
                )),
            },
            Call::SetParam { solver, .. }
            | Call::Push(solver)
            | Call::CheckSat(solver)
            | Call::Reset(solver)
            | Call::ToSmt2(solver)
            | Call::FromString(solver, _)
            | Call::Cube(solver)
            | Call::Delete(solver) => self.solver(*solver).map(drop),
            Call::Pop(solver, n) => {
                let depth = self.solver(*solver)?.depth;
                if *n >= 1 && *n <= depth {
                    Ok(())
                } else {
                    violation(format!("pop {n} on solver {solver} at scope depth {depth}"))
                }
            }
            Call::Assert(solver, t) => {
                self.solver(*solver)?;
                self.bool_term(*t, "assertion")?;
                self.closed_term(*t, "assertion")
            }
            Call::AssertAndTrack {
                solver,
                term,
                tracker,
            } => {
                self.solver(*solver)?;
                self.bool_term(*term, "assertion")?;
                self.closed_term(*term, "assertion")?;
                self.bool_term(*tracker, "tracker")?;
                if self.term(*tracker)?.is_const {
                    Ok(())
                } else {
                    violation(format!("tracker {tracker} is not a Boolean constant"))
                }
            }
            Call::CheckSatAssuming(solver, ts) => {
                self.solver(*solver)?;
                for t in ts {
                    self.bool_term(*t, "assumption")?;
                    if !self.term(*t)?.is_literal {
                        return violation(format!(
                            "assumption {t} is neither a Boolean constant nor its negation"
                        ));
                    }
                }
                Ok(())
            }
            Call::GetUnsatCore(solver) => match self.solver(*solver)?.phase {
                Phase::Checked(SatResult::Unsat) => Ok(()),
                _ => violation(format!(
                    "get_unsat_core on solver {solver}, whose last check was not unsat"
                )),
            },
            Call::GetModel(solver) => match self.solver(*solver)?.phase {
                Phase::Checked(SatResult::Sat) => Ok(()),
                _ => violation(format!(
                    "get_model on solver {solver}, whose last check was not sat"
                )),
            },
            Call::ModelEval { model, term, .. } => {
                if !self.is_alive(AnyId::Model(*model)) {
                    return violation(format!("model {model} is not defined"));
                }
                self.closed_term(*term, "evaluated term")
            }
            Call::Release(id) => {
                if self.is_alive(*id) {
                    Ok(())
                } else {
                    violation(format!("release of {id}, which is not defined"))
                }
            }
            Call::RcfMk(RcfMk::Rational(text)) => match rcf::parse_rational(text) {
                Some(_) => Ok(()),
                None => violation(format!(
                    "`{text}` is no rational (digits with an optional minus and `/D` or `.D`, at most 100 characters)"
                )),
            },
            Call::RcfMk(RcfMk::SmallInt(_) | RcfMk::Pi | RcfMk::E | RcfMk::Infinitesimal) => Ok(()),
            Call::RcfArith { op, a, b } => {
                self.rcf(*a)?;
                let divisor = self.rcf(*b)?;
                if *op == RcfOp::Div {
                    nonzero(*b, divisor)?;
                }
                Ok(())
            }
            Call::RcfInv(a) => nonzero(*a, self.rcf(*a)?),
            Call::RcfNeg(a)
            | Call::RcfCompare { a, .. }
            | Call::RcfToString { num: a, .. }
            | Call::RcfNumDen { num: a, .. } => self.rcf(*a).map(drop),
            Call::RcfPower(a, k) => {
                self.rcf(*a)?;
                if *k > MAX_RCF_POWER {
                    return violation(format!("exponent {k} is above {MAX_RCF_POWER}"));
                }
                Ok(())
            }
            Call::RcfToDecimal(a, precision) => {
                self.rcf(*a)?;
                if *precision > MAX_RCF_PRECISION {
                    return violation(format!(
                        "precision {precision} is above {MAX_RCF_PRECISION}"
                    ));
                }
                Ok(())
            }
            Call::RcfRoots(coeffs) => self.polynomial(coeffs).map(drop),
            Call::AlgebraicArith { op, a, b } => {
                self.algebraic_number(*a)?;
                let divisor = self.algebraic_number(*b)?;
                if *op == RcfOp::Div {
                    nonzero_term(*b, divisor)?;
                }
                Ok(())
            }
            Call::AlgebraicPower(a, k) => {
                let base = self.algebraic_number(*a)?;
                if *k > MAX_RCF_POWER {
                    return violation(format!("exponent {k} is above {MAX_RCF_POWER}"));
                }
                // Z3 refuses 0^0 ("indeterminate"), as it refuses a division by zero.
                if *k == 0 && !base.is_some_and(Interval::excludes_zero) {
                    return violation(format!(
                        "exponent 0 of {a}, which is not known to be nonzero"
                    ));
                }
                Ok(())
            }
            Call::AlgebraicRoot(a, k) => {
                let value = self.algebraic_number(*a)?;
                if !(1..=MAX_ALGEBRAIC_ROOT).contains(k) {
                    return violation(format!(
                        "root degree {k} is outside 1..={MAX_ALGEBRAIC_ROOT}"
                    ));
                }
                let nonnegative = value.is_some_and(Interval::nonnegative);
                if k.is_multiple_of(2) && !nonnegative {
                    return violation(format!(
                        "root of even degree {k} of {a}, which is not known to be nonnegative"
                    ));
                }
                Ok(())
            }
            Call::AlgebraicCompare { a, b, .. } => {
                self.algebraic_number(*a)?;
                self.algebraic_number(*b).map(drop)
            }
            Call::AlgebraicSign(a)
            | Call::AlgebraicIs {
                test: AlgebraicTest::Pos | AlgebraicTest::Neg | AlgebraicTest::Zero,
                term: a,
            } => self.algebraic_number(*a).map(drop),
            Call::AlgebraicIs {
                test: AlgebraicTest::Value,
                term,
            } => self.closed_term(*term, "tested term"),
            Call::RcfRoot { index, coeffs } => {
                let Some(points) = self.polynomial(coeffs)? else {
                    // Coefficients not all rational (π, e, ε: the roots with sign
                    // conditions): at most as many roots as the degree; Z3 finding fewer
                    // is its refusal of the index, recorded.
                    let degree = coeffs.len() - 1;
                    return match (*index as usize) < degree {
                        true => Ok(()),
                        false => violation(format!(
                            "root {index} of a polynomial of degree {degree}"
                        )),
                    };
                };
                let n = rcf::real_roots(&points, 0).len();
                if (*index as usize) < n {
                    Ok(())
                } else {
                    violation(format!("root {index} of a polynomial with {n} real roots"))
                }
            }
            Call::Check(check) => {
                for id in check.uses() {
                    if !self.is_alive(id) {
                        return violation(format!(
                            "`{}` of {id}, which is not defined",
                            check.name()
                        ));
                    }
                }
                for id in check.uses() {
                    if let AnyId::Term(t) = id {
                        self.closed_term(t, "checked term")?;
                    }
                }
                match check {
                    Check::Model { term, .. }
                    | Check::Independent { term, .. }
                    | Check::Quant { term, .. } => self.bool_term(*term, "checked assertion"),
                    Check::Relation { func, terms, .. } => {
                        let sort = self.binary_relation(*func)?;
                        if !self.relations.contains_key(func) {
                            return violation(format!("function {func} is no special relation"));
                        }
                        if terms.is_empty() {
                            return violation("check_relation needs at least one term");
                        }
                        for t in terms {
                            let got = self.term_sort(*t)?;
                            if *got != sort {
                                return violation(format!(
                                    "term {t} has sort {got}, expected {sort}"
                                ));
                            }
                        }
                        Ok(())
                    }
                    Check::Consequences { assumptions, .. } => {
                        for t in assumptions {
                            if !self.term(*t)?.is_literal {
                                return violation(format!(
                                    "assumption {t} is neither a Boolean constant nor its negation"
                                ));
                            }
                        }
                        Ok(())
                    }
                    Check::RcfRoots(coeffs) => self.polynomial(coeffs).map(drop),
                    Check::Congruence { terms, .. } if terms.is_empty() => {
                        violation("check_congruence needs at least one term")
                    }
                    Check::Algebraic(a, b) => {
                        self.algebraic_number(*a)?;
                        self.algebraic_number(*b).map(drop)
                    }
                    Check::Fixedpoint => {
                        let info = self.fp()?;
                        if info.engine != "spacer" {
                            return violation("check_fp judges Spacer's answers only");
                        }
                        if info.parsed {
                            return violation(
                                "check_fp after fp_from_string: the trace does not know every rule",
                            );
                        }
                        match info.answer {
                            Some((SatResult::Sat | SatResult::Unsat, Some(_))) => Ok(()),
                            _ => violation("check_fp needs a query (fp_query) answered sat or unsat"),
                        }
                    }
                    Check::Simplifier {
                        simplifiers,
                        params,
                        ..
                    } => simplifier_chain(simplifiers, params),
                    Check::AlgebraicPoly(t) => self.algebraic_number(*t).map(drop),
                    Check::Subresultants { p, q } => {
                        self.rational_polynomial(p)?;
                        self.rational_polynomial(q).map(drop)
                    }
                    Check::RcfSignConditions(r) => self.rcf(*r).map(drop),
                    Check::FiniteSet { atoms, witnesses } => self.fset_check(atoms, witnesses, false),
                    Check::FiniteField { atoms, witnesses } => self.fset_check(atoms, witnesses, true),
                    Check::PolyDatatype(a, b) => {
                        let sa = self.term_sort(*a)?.clone();
                        self.same_sort(*b, &sa, "check_poly_datatype")
                    }
                    Check::Complex(parts) => {
                        if parts.len() != 4 {
                            return violation(format!(
                                "check_complex takes four Real literals, got {} terms",
                                parts.len()
                            ));
                        }
                        for t in parts {
                            let info = self.term(*t)?;
                            if !matches!((&info.sort, &info.origin), (Sort::Real, Origin::Lit(_))) {
                                return violation(format!("{t} is no Real literal made by `lit`"));
                            }
                        }
                        Ok(())
                    }
                    Check::Chars(t) => {
                        let info = self.term(*t)?;
                        match (&info.sort, &info.origin) {
                            (Sort::String, Origin::Lit(_)) => Ok(()),
                            _ => violation(format!("{t} is no String literal made by `lit`")),
                        }
                    }
                    Check::ParserContext(terms) => {
                        if terms.is_empty() {
                            return violation("check_parser_context needs at least one term");
                        }
                        for t in terms {
                            if self.term(*t)?.quantified {
                                return violation(format!(
                                    "check_parser_context of {t}, which holds a quantifier"
                                ));
                            }
                        }
                        Ok(())
                    }
                    Check::Propagator { mode, terms, .. } => self.propagator_terms(mode, terms),
                    Check::QeMap {
                        model,
                        formula,
                        vars,
                        ..
                    } => self.check(&Call::Qe {
                        lite: false,
                        model: *model,
                        formula: *formula,
                        vars: vars.clone(),
                    }),
                    Check::FiniteDomain { size, edges } => {
                        crate::fixedpoint::domain_edges(*size, edges)
                            .map(drop)
                            .or_else(violation)
                    }
                    Check::InitialValue { var, value, .. } => {
                        let (v, x) = (self.term(*var)?, self.term(*value)?);
                        if !v.is_const {
                            return violation(format!("{var} is no constant made by `const`"));
                        }
                        if !matches!(x.origin, Origin::Lit(_)) {
                            return violation(format!("{value} is no literal made by `lit`"));
                        }
                        if v.sort != x.sort {
                            return violation(format!(
                                "{var} has sort {}, {value} sort {}",
                                v.sort, x.sort
                            ));
                        }
                        match v.sort {
                            Sort::Bool | Sort::Int | Sort::Real | Sort::BitVec(_) => Ok(()),
                            ref other => violation(format!(
                                "initial values of sort {other} (Bool, Int, Real and bit-vectors only)"
                            )),
                        }
                    }
                    _ => Ok(()),
                }
            }
        }
    }

    /// The preconditions of `check_propagator`: a known mode, one to
    /// [`crate::call::PROPAGATOR_MAX_TERMS`] distinct closed terms without quantifiers, Bool
    /// (and in mode `observe` bit-vectors too: Z3 registers Booleans and bit-vectors only).
    fn propagator_terms(&self, mode: &str, terms: &[TermId]) -> Result<(), Violation> {
        if !crate::call::PROPAGATOR_MODES.contains(&mode) {
            return violation(format!(
                "check_propagator mode {mode:?} (enumerate or observe)"
            ));
        }
        if terms.is_empty() || terms.len() > crate::call::PROPAGATOR_MAX_TERMS {
            return violation(format!(
                "check_propagator registers 1 to {} terms, not {}",
                crate::call::PROPAGATOR_MAX_TERMS,
                terms.len()
            ));
        }
        for (i, t) in terms.iter().enumerate() {
            if terms[..i].contains(t) {
                return violation(format!("check_propagator registers {t} twice"));
            }
            let info = self.term(*t)?;
            if info.quantified || !info.free_vars.is_empty() {
                return violation(format!(
                    "check_propagator registers {t}, which holds a quantifier or a bound variable"
                ));
            }
            match (&info.sort, mode) {
                (Sort::Bool, _) | (Sort::BitVec(_), "observe") => {}
                (other, _) => {
                    return violation(format!(
                        "check_propagator in mode {mode} registers {t} of sort {other}"
                    ))
                }
            }
        }
        Ok(())
    }

    /// Checks `call`, then records its effect. `ret` is the recorded result; calls that
    /// create objects need it (the id to bind). A call recorded as refused by Z3
    /// (`Ret::Error`) has no effect.
    pub fn apply(&mut self, call: &Call, ret: Option<&Ret>) -> Result<(), Violation> {
        self.check(call)?;
        if let Some(Ret::Error(_)) = ret {
            // Z3 refused the call: it created nothing and changed nothing.
            return Ok(());
        }
        let new_id = match (call.ret_kind(), ret) {
            (kind, Some(Ret::Id(id))) if kind.makes_object() => {
                let fits = call.ret_kind().admits(&Ret::Id(*id));
                if !fits {
                    return violation(format!("`{}` cannot return {id}", call.name()));
                }
                if self.is_alive(*id) {
                    return violation(format!("{id} is already defined"));
                }
                Some(*id)
            }
            (kind, _) if kind.makes_object() => {
                return violation(format!(
                    "`{}` needs a return line with the new id",
                    call.name()
                ));
            }
            _ => None,
        };
        if let Some(id) = new_id {
            self.bump_next(id);
        }
        // Every call that returns a term binds it the same way: its sort, its free variables.
        if call.ret_kind() == RetKind::Term {
            self.bind_term(call, new_id)?;
        }
        match call {
            Call::SortBool => self.bind_sort(new_id, Sort::Bool),
            Call::SortInt => self.bind_sort(new_id, Sort::Int),
            Call::SortReal => self.bind_sort(new_id, Sort::Real),
            Call::SortRm => self.bind_sort(new_id, Sort::RoundingMode),
            Call::SortString => self.bind_sort(new_id, Sort::String),
            Call::SortBv(w) => self.bind_sort(new_id, Sort::BitVec(*w)),
            Call::SortFp(e, s) => self.bind_sort(new_id, Sort::FloatingPoint(*e, *s)),
            Call::SortArray(i, e) => {
                let sort = Sort::array(self.sorts[i].clone(), self.sorts[e].clone());
                self.bind_sort(new_id, sort)
            }
            Call::SortSeq(e) => {
                let sort = Sort::seq(self.sorts[e].clone());
                self.bind_sort(new_id, sort)
            }
            Call::SortFpFixed(function) => {
                let (e, s) = crate::call::fixed_fp_format(function)
                    .ok_or_else(|| Violation(format!("`{function}` makes no sort")))?;
                self.bind_sort(new_id, Sort::FloatingPoint(e, s))
            }
            Call::SortSet(e) => {
                let sort = Sort::array(self.sorts[e].clone(), Sort::Bool);
                self.bind_sort(new_id, sort)
            }
            Call::SortUninterpreted(name) => {
                self.uninterpreted.insert(name.clone());
                self.bind_sort(new_id, Sort::uninterpreted(name.clone()))
            }
            Call::DeclareDatatypes { params, .. } => {
                for (name, d) in self.resolve_datatypes(call)? {
                    let names = &mut self.datatypes.names;
                    names.insert(name.clone());
                    names.extend(params.iter().cloned());
                    for (c, fields) in &d.constructors {
                        names.insert(c.clone());
                        names.extend(fields.iter().map(|(f, _)| f.clone()));
                    }
                    self.datatypes.by_name.insert(name, d);
                }
            }
            Call::SortDatatype { name, params } => {
                let params = params.iter().map(|p| self.sorts[p].clone()).collect();
                self.bind_sort(new_id, Sort::Named(name.clone(), params))
            }
            Call::Fun { domain, range, .. } | Call::RecFun { domain, range, .. } => {
                if let Some(AnyId::Func(f)) = new_id {
                    let domain = domain.iter().map(|s| self.sorts[s].clone()).collect();
                    self.funcs.insert(f, (domain, self.sorts[range].clone()));
                    if let Call::Fun { name, .. } | Call::RecFun { name, .. } = call {
                        self.func_names.insert(f, name.clone());
                    }
                    if matches!(call, Call::RecFun { .. }) {
                        self.rec_funcs.insert(f, false);
                    }
                }
            }
            Call::RecDef { func, .. } => {
                self.rec_funcs.insert(*func, true);
            }
            // Functions without a name of the trace's: their applications have no SMT-LIB
            // text of the round's.
            Call::FunIntSym { domain, range, .. } | Call::FreshFunc { domain, range, .. } => {
                if let Some(AnyId::Func(f)) = new_id {
                    let domain = domain.iter().map(|s| self.sorts[s].clone()).collect();
                    self.funcs.insert(f, (domain, self.sorts[range].clone()));
                }
            }
            Call::Divides { .. } | Call::ConstIntSym { .. } | Call::UpdateTerm { .. } => {}
            Call::SortArrayN { domain, range } => {
                let sort = Sort::array(self.sorts[&domain[0]].clone(), self.sorts[range].clone());
                self.bind_sort(new_id, sort)
            }
            Call::SortRe(_) => self.bind_sort(new_id, Sort::RegLan),
            Call::NewModel => {
                if let Some(AnyId::Model(m)) = new_id {
                    self.hand_models.insert(m);
                }
            }
            Call::ModelConst { .. } => {}
            Call::Relation { kind, sort, .. } => {
                if let Some(AnyId::Func(f)) = new_id {
                    let s = self.sorts[sort].clone();
                    self.funcs.insert(f, (vec![s.clone(), s], Sort::Bool));
                    self.relations.insert(f, SpecialRelation::Order(*kind));
                }
            }
            Call::TransitiveClosure(of) => {
                if let Some(AnyId::Func(f)) = new_id {
                    let signature = self.funcs[of].clone();
                    self.funcs.insert(f, signature);
                    self.relations.insert(f, SpecialRelation::Closure(*of));
                }
            }
            Call::Lit { sort, value } => {
                // A Real or Int numeral is an algebraic number, exactly its value.
                let numeric = matches!(self.sorts.get(sort), Some(Sort::Real | Sort::Int));
                if let (Some(AnyId::Term(t)), true) = (new_id, numeric) {
                    let value = rcf::parse_rational(value).map(Interval::point);
                    self.algebraic.insert(t, value);
                }
            }
            // Bound above, by their result kind.
            Call::Const { .. }
            | Call::Apply { .. }
            | Call::Op { .. }
            | Call::Simplify(_)
            | Call::SimplifyWith { .. }
            | Call::Substitute { .. }
            | Call::Var { .. }
            | Call::Quantifier { .. }
            | Call::QuantRebuild { .. }
            | Call::AsArray(_)
            | Call::ArrayMap { .. }
            | Call::Qe { .. }
            | Call::DtConstruct { .. }
            | Call::DtTest { .. }
            | Call::DtSelect { .. }
            | Call::DtUpdate { .. }
            | Call::GoalFormula(_)
            | Call::Pb { .. }
            | Call::FsetMap { .. }
            | Call::FsetFilter { .. }
            | Call::SeqHof { .. }
            | crate::plain_call!() => {}
            Call::SortFiniteSet(e) => {
                let sort = Sort::finite_set(self.sorts[e].clone());
                self.bind_sort(new_id, sort)
            }
            Call::SortFiniteField(p) => self.bind_sort(new_id, Sort::FiniteField(*p)),
            Call::NewSolver(kind) => {
                if let Some(AnyId::Solver(z)) = new_id {
                    self.solvers.insert(z, SolverInfo::new(kind.clone()));
                }
            }
            Call::NewSolverConfig(_) => {
                if let Some(AnyId::Solver(z)) = new_id {
                    self.solvers.insert(z, SolverInfo::new(SolverKind::Default));
                }
            }
            Call::TranslateConfig { solver: from, .. } | Call::Translate(from) => {
                let mut copy = self.solvers[from].clone();
                copy.phase = Phase::Unchecked;
                if let Some(AnyId::Solver(z)) = new_id {
                    self.solvers.insert(z, copy);
                }
            }
            Call::SetGlobal { key, value } => self.globals.push((key.clone(), value.clone())),
            Call::ToSmt2(_) | Call::ModelEval { .. } | Call::Cube(_) => {}
            // Reading changes nothing (`read_global "Z3_global_param_reset_all"` makes the
            // trace's settings again, and the AST maps and vectors live within their call).
            Call::Read { .. }
            | Call::ReadSort { .. }
            | Call::ReadRcf { .. }
            | Call::ReadEq(..)
            | Call::ReadStats(_)
            | Call::AstMap(_)
            | Call::AstVector(_)
            | Call::ReadGlobal { .. } => {}
            Call::SetParam { solver, .. }
            | Call::Assert(solver, _)
            | Call::AssertAndTrack { solver, .. }
            | Call::FromString(solver, _) => self.touch(*solver),
            Call::Push(solver) => {
                self.touch(*solver);
                self.solver_mut(*solver).depth += 1;
            }
            Call::Pop(solver, n) => {
                self.touch(*solver);
                self.solver_mut(*solver).depth -= n;
            }
            Call::Reset(solver) => {
                self.touch(*solver);
                self.solver_mut(*solver).depth = 0;
            }
            Call::CheckSat(solver) | Call::CheckSatAssuming(solver, _) => {
                let answer = match ret {
                    Some(Ret::Sat(r)) => Phase::Checked(*r),
                    // Without a recorded answer nothing later may rely on it.
                    _ => Phase::Unchecked,
                };
                let info = self.solver_mut(*solver);
                info.phase = answer;
                info.assumed = matches!(call, Call::CheckSatAssuming(..));
            }
            Call::GetUnsatCore(_) | Call::GetProof(_) => {}
            Call::GetModel(solver) => {
                if let Some(AnyId::Model(m)) = new_id {
                    self.models.insert(m, *solver);
                }
            }
            Call::MkTactic(expr) => {
                if let Some(AnyId::Tactic(k)) = new_id {
                    self.tactics.insert(k);
                    let raw_only = matches!(
                        expr,
                        TacticExpr::FailIfNotDecided
                            | TacticExpr::ParOr(..)
                            | TacticExpr::ParAndThen(..)
                    ) || expr
                        .operands()
                        .iter()
                        .any(|o| self.raw_only_tactics.contains(o));
                    if raw_only {
                        self.raw_only_tactics.insert(k);
                    }
                }
            }
            Call::NewGoal { models } => {
                if let Some(AnyId::Goal(g)) = new_id {
                    let info = GoalInfo {
                        models: *models,
                        ..GoalInfo::default()
                    };
                    self.goals.insert(g, info);
                }
            }
            Call::Subgoal(parent, _) => {
                let models = self.goals.get(parent).is_some_and(|p| p.models);
                if let Some(AnyId::Goal(g)) = new_id {
                    let info = GoalInfo {
                        models,
                        subgoal_with_models: models,
                        ..GoalInfo::default()
                    };
                    self.goals.insert(g, info);
                }
            }
            Call::GoalRead { .. } | Call::ProbeApply { .. } | Call::SolverRead { .. } => {}
            // The executor keeps what was written into a model; the state needs no more.
            Call::OptRead { .. } | Call::ModelFunc { .. } | Call::ModelRead { .. } => {}
            Call::CheckSatInterrupted { solver, .. } => {
                // Its answer depends on the clock: nothing later may rely on it.
                let info = self.solver_mut(*solver);
                info.phase = Phase::Unchecked;
                info.assumed = false;
            }
            Call::GoalAssert(..) => {}
            Call::ApplyTactic { goal, .. } | Call::ApplyTacticWith { goal, .. } => {
                let n = match ret {
                    Some(Ret::Value(v)) => v.parse().ok(),
                    _ => None,
                };
                if let Some(info) = self.goals.get_mut(goal) {
                    info.subgoals = n;
                }
            }
            Call::NewOptimize => {
                if let Some(AnyId::Opt(o)) = new_id {
                    self.opts.insert(
                        o,
                        OptInfo {
                            scopes: vec![Vec::new()],
                            phase: Phase::Unchecked,
                        },
                    );
                }
            }
            Call::OptSetParam { opt, .. } | Call::OptAssert(opt, _) => self.touch_opt(*opt),
            Call::OptAssertSoft { opt, group, .. } => {
                self.touch_opt(*opt);
                if let Some(scope) = self.opt_mut(*opt).scopes.last_mut() {
                    scope.push(Some(group.clone()));
                }
            }
            Call::OptObjective { opt, .. } => {
                self.touch_opt(*opt);
                if let Some(scope) = self.opt_mut(*opt).scopes.last_mut() {
                    scope.push(None);
                }
            }
            Call::OptPush(opt) => {
                self.touch_opt(*opt);
                self.opt_mut(*opt).scopes.push(Vec::new());
            }
            Call::OptPop(opt) => {
                self.touch_opt(*opt);
                self.opt_mut(*opt).scopes.pop();
            }
            Call::OptCheck(opt) => {
                self.opt_mut(*opt).phase = match ret {
                    Some(Ret::Sat(r)) => Phase::Checked(*r),
                    _ => Phase::Unchecked,
                };
            }
            Call::OptGetModel(opt) => {
                if let Some(AnyId::Model(m)) = new_id {
                    self.opt_models.insert(m, *opt);
                }
            }
            Call::OptBound { .. } => {}
            Call::FpNew { engine } => {
                self.fixedpoint = Some(crate::fixedpoint::FpInfo {
                    engine: engine.clone(),
                    ..Default::default()
                })
            }
            Call::FpRegister(f) => {
                if let Some(info) = self.fixedpoint.as_mut() {
                    if !info.relations.contains(f) {
                        info.relations.push(*f);
                    }
                    info.answer = None;
                }
            }
            Call::FpRule { rule, name } | Call::FpUpdateRule { rule, name } => {
                if let Some(info) = self.fixedpoint.as_mut() {
                    match info.rules.iter_mut().find(|(n, _)| n == name) {
                        Some(slot) if matches!(call, Call::FpUpdateRule { .. }) => slot.1 = *rule,
                        _ => info.rules.push((name.clone(), *rule)),
                    }
                    info.answer = None;
                }
            }
            Call::FpAssert(t) => {
                if let Some(info) = self.fixedpoint.as_mut() {
                    info.assertions.push(*t);
                    info.answer = None;
                }
            }
            Call::FpFromString(_) => {
                if let Some(info) = self.fixedpoint.as_mut() {
                    info.parsed = true;
                    info.answer = None;
                }
            }
            Call::FpQuery { .. } | Call::FpQueryRelation { .. } => {
                let query = if let Call::FpQuery { query, .. } = call {
                    Some(*query)
                } else {
                    None
                };
                if let Some(info) = self.fixedpoint.as_mut() {
                    info.answer = ret.and_then(|r| match r {
                        Ret::Sat(r) => Some((*r, query)),
                        Ret::Id(_) | Ret::Core(_) | Ret::Value(_) | Ret::Error(_) => None,
                    });
                }
            }
            Call::FpSetParam { key, value } => {
                if let Some(info) = self.fixedpoint.as_mut() {
                    if key == "xform.slice" {
                        info.slice_off = value == "false";
                    }
                    info.answer = None;
                }
            }
            // Adding a cover or an invariant Spacer proved changes no answer.
            Call::FpRead(_) | Call::FpReadRel { .. } => {}
            Call::RcfMk(_)
            | Call::RcfArith { .. }
            | Call::RcfNeg(_)
            | Call::RcfInv(_)
            | Call::RcfPower(..)
            | Call::RcfRoot { .. }
            | Call::RcfNumDen { .. } => {
                if let Some(AnyId::Rcf(r)) = new_id {
                    let value = self.rcf_value(call);
                    let rational = self.rcf_rational_form(call);
                    let made = match call {
                        Call::RcfMk(RcfMk::Pi) => RcfMade::Pi,
                        Call::RcfMk(RcfMk::E) => RcfMade::E,
                        Call::RcfMk(RcfMk::Infinitesimal) => RcfMade::Infinitesimal,
                        Call::RcfRoot { .. } => RcfMade::Root,
                        _ => RcfMade::Other,
                    };
                    self.rcfs.insert(
                        r,
                        RcfInfo {
                            value,
                            rational,
                            made,
                        },
                    );
                }
            }
            Call::RcfCompare { .. }
            | Call::RcfToString { .. }
            | Call::RcfToDecimal(..)
            | Call::RcfRoots(_) => {}
            Call::AlgebraicArith { .. } | Call::AlgebraicPower(..) | Call::AlgebraicRoot(..) => {
                if let Some(AnyId::Term(t)) = new_id {
                    let value = self.algebraic_value(call);
                    self.algebraic.insert(t, value);
                }
            }
            Call::AlgebraicCompare { .. } | Call::AlgebraicSign(_) | Call::AlgebraicIs { .. } => {}
            Call::Release(id) => match id {
                AnyId::Sort(s) => drop(self.sorts.remove(s)),
                AnyId::Term(t) => {
                    self.terms.remove(t);
                    self.algebraic.remove(t);
                }
                AnyId::Func(f) => {
                    self.funcs.remove(f);
                    self.rec_funcs.remove(f);
                    self.relations.remove(f);
                }
                AnyId::Solver(z) => drop(self.solvers.remove(z)),
                AnyId::Model(m) => {
                    self.models.remove(m);
                    self.opt_models.remove(m);
                    self.hand_models.remove(m);
                }
                AnyId::Tactic(k) => {
                    self.tactics.remove(k);
                    self.raw_only_tactics.remove(k);
                }
                AnyId::Goal(g) => drop(self.goals.remove(g)),
                AnyId::Opt(o) => drop(self.opts.remove(o)),
                AnyId::Rcf(r) => drop(self.rcfs.remove(r)),
            },
            Call::Delete(solver) => drop(self.solvers.remove(solver)),
            Call::Check(_) => {}
        }
        Ok(())
    }

    pub fn is_alive(&self, id: AnyId) -> bool {
        match id {
            AnyId::Sort(s) => self.sorts.contains_key(&s),
            AnyId::Term(t) => self.terms.contains_key(&t),
            AnyId::Func(f) => self.funcs.contains_key(&f),
            AnyId::Solver(z) => self.solvers.contains_key(&z),
            AnyId::Model(m) => {
                self.models.contains_key(&m)
                    || self.opt_models.contains_key(&m)
                    || self.hand_models.contains(&m)
            }
            AnyId::Tactic(k) => self.tactics.contains(&k),
            AnyId::Goal(g) => self.goals.contains_key(&g),
            AnyId::Opt(o) => self.opts.contains_key(&o),
            AnyId::Rcf(r) => self.rcfs.contains_key(&r),
        }
    }

    /// What is known of RCF number `id`: an interval that holds it, if any.
    pub fn rcf(&self, id: RcfId) -> Result<Option<&Interval>, Violation> {
        defined(&self.rcfs, id, "RCF number").map(|info| info.value.as_ref())
    }

    /// What is known of the algebraic number `id`: an interval that holds it, if any. A term
    /// that is no algebraic number (made otherwise) is a violation.
    pub fn algebraic_number(&self, id: TermId) -> Result<Option<&Interval>, Violation> {
        self.term(id)?;
        match self.algebraic.get(&id) {
            Some(value) => Ok(value.as_ref()),
            None => violation(format!(
                "{id} is no algebraic number (a Real or Int `lit`, or made by an algebraic call)"
            )),
        }
    }

    /// The rational coefficients (lowest degree first) of a polynomial of `check_subresultants`:
    /// one to [`MAX_RCF_COEFFICIENTS`] algebraic numbers the reference state knows exactly,
    /// of degree at least 1 (Z3's subresultants are of polynomials in x).
    pub fn rational_polynomial(
        &self,
        coeffs: &[TermId],
    ) -> Result<Vec<num_rational::BigRational>, Violation> {
        if coeffs.len() < 2 || coeffs.len() > MAX_RCF_COEFFICIENTS {
            return violation(format!(
                "a polynomial of {} coefficients, expected 2 to {MAX_RCF_COEFFICIENTS}",
                coeffs.len()
            ));
        }
        let mut values = Vec::new();
        for c in coeffs {
            match self.algebraic_number(*c)?.and_then(Interval::as_point) {
                Some(q) => values.push(q.clone()),
                None => return violation(format!("coefficient {c} is no known rational")),
            }
        }
        if values[1..].iter().all(num_traits::Zero::is_zero) {
            return violation("a polynomial of degree 0: x does not occur");
        }
        Ok(values)
    }

    /// The interval of the algebraic number `call` makes (checked valid), where one is known.
    fn algebraic_value(&self, call: &Call) -> Option<Interval> {
        let known = |t: &TermId| self.algebraic.get(t).cloned().flatten();
        match call {
            Call::AlgebraicArith { op, a, b } => {
                let (a, b) = (known(a)?, known(b)?);
                match op {
                    RcfOp::Add => Some(a.add(&b)),
                    RcfOp::Sub => Some(a.sub(&b)),
                    RcfOp::Mul => Some(a.mul(&b)),
                    RcfOp::Div => a.div(&b),
                }
            }
            Call::AlgebraicPower(a, k) => known(a).map(|a| a.pow(*k)),
            Call::AlgebraicRoot(a, k) => known(a)?.root(*k),
            _ => None,
        }
    }

    /// Whether `call` makes an RCF number from rationals by field operations alone.
    fn rcf_rational_form(&self, call: &Call) -> bool {
        let rational = |r: &RcfId| self.rcfs.get(r).is_some_and(|info| info.rational);
        match call {
            Call::RcfMk(RcfMk::Rational(_) | RcfMk::SmallInt(_)) => true,
            Call::RcfArith { a, b, .. } => rational(a) && rational(b),
            Call::RcfNeg(a) | Call::RcfInv(a) | Call::RcfPower(a, _) => rational(a),
            Call::RcfNumDen { num, .. } => rational(num),
            _ => false,
        }
    }

    /// The coefficients of a polynomial for `rcf_roots`/`rcf_root` (lowest degree first):
    /// alive, one to [`MAX_RCF_COEFFICIENTS`] of them, one of them certainly not zero (Z3
    /// refuses the zero polynomial). Their rational values, if all are rational.
    pub fn polynomial(
        &self,
        coeffs: &[RcfId],
    ) -> Result<Option<Vec<num_rational::BigRational>>, Violation> {
        if coeffs.is_empty() || coeffs.len() > MAX_RCF_COEFFICIENTS {
            return violation(format!(
                "a polynomial of {} coefficients, expected 1 to {MAX_RCF_COEFFICIENTS}",
                coeffs.len()
            ));
        }
        let mut values = Vec::new();
        for c in coeffs {
            values.push(self.rcf(*c)?);
        }
        if !values
            .iter()
            .any(|v| v.is_some_and(Interval::excludes_zero))
        {
            return violation("a polynomial none of whose coefficients is known not to be zero");
        }
        Ok(values
            .iter()
            .map(|v| v.and_then(Interval::as_point).cloned())
            .collect())
    }

    /// The interval of the RCF number `call` makes (checked valid), where one is known.
    fn rcf_value(&self, call: &Call) -> Option<Interval> {
        let known = |r: &RcfId| self.rcfs.get(r).and_then(|info| info.value.clone());
        match call {
            Call::RcfMk(RcfMk::Rational(text)) => rcf::parse_rational(text).map(Interval::point),
            Call::RcfMk(RcfMk::SmallInt(n)) => Some(Interval::point(
                num_rational::BigRational::from_integer((*n).into()),
            )),
            Call::RcfMk(RcfMk::Pi) => Some(Interval::pi()),
            Call::RcfMk(RcfMk::E) => Some(Interval::e()),
            Call::RcfMk(RcfMk::Infinitesimal) => Some(Interval::infinitesimal()),
            Call::RcfArith { op, a, b } => {
                let (a, b) = (known(a)?, known(b)?);
                match op {
                    RcfOp::Add => Some(a.add(&b)),
                    RcfOp::Sub => Some(a.sub(&b)),
                    RcfOp::Mul => Some(a.mul(&b)),
                    RcfOp::Div => a.div(&b),
                }
            }
            Call::RcfNeg(a) => known(a).map(|a| a.neg()),
            Call::RcfInv(a) => known(a)?.inv(),
            Call::RcfPower(a, k) => known(a).map(|a| a.pow(*k)),
            Call::RcfRoot { index, coeffs } => {
                let points = self.polynomial(coeffs).ok()??;
                rcf::real_roots(&points, RCF_ROOT_BITS)
                    .into_iter()
                    .nth(*index as usize)
            }
            Call::RcfNumDen { num, denominator } => {
                // A rational's numerator and denominator are its reduced fraction's.
                let q = known(num)?.as_point()?.clone();
                let part = if *denominator { q.denom() } else { q.numer() };
                Some(Interval::point(num_rational::BigRational::from_integer(
                    part.clone(),
                )))
            }
            _ => None,
        }
    }

    fn bump_next(&mut self, id: AnyId) {
        let (slot, n) = id.slot();
        // An id at the top of its range is accepted; the next fresh id saturates there.
        self.next[slot] = self.next[slot].max(n.saturating_add(1));
    }

    /// The sort S of a binary relation `f` (a function S × S → Bool), or why it is none.
    fn binary_relation(&self, f: FuncId) -> Result<Sort, Violation> {
        let (domain, range) = defined(&self.funcs, f, "function")?;
        match domain.as_slice() {
            [a, b] if a == b && *range == Sort::Bool => Ok(a.clone()),
            _ => violation(format!("function {f} is no binary relation (S S -> Bool)")),
        }
    }

    /// The preconditions of `rec_def fF tV... body tB`: F is a recursive function without a
    /// body yet; the V are distinct variables (`var`), one per parameter of F's domain, of
    /// its sorts; B has F's range and mentions no variable freely but the V.
    fn check_rec_def(&self, func: FuncId, vars: &[TermId], body: TermId) -> Result<(), Violation> {
        match self.rec_funcs.get(&func) {
            None => return violation(format!("function {func} is no recursive function")),
            Some(true) => {
                return violation(format!("recursive function {func} has a body already"))
            }
            Some(false) => {}
        }
        let (domain, range) = &self.funcs[&func];
        if domain.len() != vars.len() {
            return violation(format!(
                "recursive function {func} takes {} parameters, got {}",
                domain.len(),
                vars.len()
            ));
        }
        for (i, (v, want)) in vars.iter().zip(domain).enumerate() {
            let info = self.term(*v)?;
            if !info.is_var {
                return violation(format!("parameter {v} is not a variable (made by `var`)"));
            }
            if vars[..i].contains(v) {
                return violation(format!("parameter {v} appears twice"));
            }
            if info.sort != *want {
                return violation(format!(
                    "parameter {v} has sort {}, expected {want}",
                    info.sort
                ));
            }
        }
        let info = self.term(body)?;
        if info.sort != *range {
            return violation(format!(
                "body {body} has sort {}, expected {range}",
                info.sort
            ));
        }
        match info.free_vars.iter().find(|v| !vars.contains(v)) {
            Some(v) => violation(format!(
                "body {body} mentions the variable {v}, which is no parameter"
            )),
            None => Ok(()),
        }
    }

    /// The preconditions of a tactic object: its operands are alive, names and parameters
    /// come from the tables.
    fn check_tactic(&self, expr: &TacticExpr) -> Result<(), Violation> {
        for k in expr.operands() {
            self.tactic(k)?;
        }
        match expr {
            TacticExpr::Named(name) if !crate::options::GOAL_TACTICS.contains(&name.as_str()) => {
                violation(format!("unknown tactic `{name}`"))
            }
            TacticExpr::When(p, _) | TacticExpr::Cond(p, ..) | TacticExpr::FailIf(p)
                if !crate::options::PROBES.contains(&p.probe.as_str()) =>
            {
                violation(format!("unknown probe `{}`", p.probe))
            }
            TacticExpr::UsingParams(_, ps) if ps.is_empty() => {
                violation("tactic_using_params needs a parameter")
            }
            _ => Ok(()),
        }
    }

    fn opt_mut(&mut self, id: OptId) -> &mut OptInfo {
        self.opts.get_mut(&id).expect("checked by State::check")
    }

    fn touch_opt(&mut self, id: OptId) {
        self.opt_mut(id).phase = Phase::Unchecked;
    }

    fn bind_sort(&mut self, id: Option<AnyId>, sort: Sort) {
        if let Some(AnyId::Sort(s)) = id {
            self.sorts.insert(s, sort);
        }
    }

    fn solver_mut(&mut self, id: SolverId) -> &mut SolverInfo {
        self.solvers.get_mut(&id).expect("checked by State::check")
    }

    /// A change to the assertions invalidates the last answer.
    fn touch(&mut self, id: SolverId) {
        self.solver_mut(id).phase = Phase::Unchecked;
    }
}

impl SolverInfo {
    fn new(kind: SolverKind) -> SolverInfo {
        SolverInfo {
            depth: 0,
            phase: Phase::Unchecked,
            assumed: false,
            kind,
        }
    }
}

/// Checks that `value` is a literal of `sort` as `lit` accepts it.
pub fn check_literal(sort: &Sort, value: &str) -> Result<(), Violation> {
    let ok = match sort {
        Sort::Bool => matches!(value, "true" | "false"),
        Sort::Int => parse_int(value).is_some(),
        Sort::Real => {
            let (num, den) = value.split_once('/').unwrap_or((value, "1"));
            let decimal = num
                .split_once('.')
                .map_or(num.to_string(), |(a, b)| format!("{a}{b}"));
            parse_int(&decimal).is_some()
                && !den.starts_with('-')
                && parse_int(den).is_some_and(|d| !d.trim_start_matches('0').is_empty())
        }
        Sort::BitVec(w) => {
            value.bytes().all(|b| b.is_ascii_digit())
                && !value.is_empty()
                && num_bigint::BigUint::parse_bytes(value.as_bytes(), 10)
                    .is_some_and(|v| v.bits() <= u64::from(*w))
        }
        Sort::FloatingPoint(..) => {
            matches!(value, "nan" | "+inf" | "-inf" | "+zero" | "-zero")
                || value.parse::<f64>().is_ok_and(f64::is_finite)
        }
        Sort::RoundingMode => matches!(value, "RNE" | "RNA" | "RTP" | "RTN" | "RTZ"),
        Sort::String => true,
        Sort::Seq(_) => value.is_empty(),
        Sort::FiniteField(p) => {
            !value.is_empty()
                && value.bytes().all(|b| b.is_ascii_digit())
                && value.len() <= 10
                && value.parse::<u64>().is_ok_and(|v| v < u64::from(*p))
        }
        Sort::Array(..) | Sort::RegLan | Sort::Named(..) | Sort::FiniteSet(_) => false,
    };
    if ok {
        Ok(())
    } else {
        violation(format!("`{value}` is not a literal of sort {sort}"))
    }
}

/// The read-back function named `name`, which must read a `subject`.
fn read_function(
    name: &str,
    subject: crate::read::Subject,
) -> Result<crate::read::Reader, Violation> {
    match crate::read::Reader::from_name(name) {
        Some(reader) if reader.subject() == subject => Ok(reader),
        Some(_) => violation(format!("`{name}` reads no {subject:?}")),
        None => violation(format!(
            "`{name}` is no read-back function this model knows"
        )),
    }
}

/// An optionally signed decimal integer, returned without sign when valid.
fn parse_int(text: &str) -> Option<&str> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())).then_some(digits)
}

/// A sort of `size` nodes is within [`crate::sort::MAX_SORT_SIZE`].
fn within_sort_size(size: usize) -> Result<(), Violation> {
    if size > crate::sort::MAX_SORT_SIZE {
        violation(format!(
            "the sort would have more than {} nodes (the limit of a trace's sorts)",
            crate::sort::MAX_SORT_SIZE
        ))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::text;

    /// Applies the text trace `body` (without header) and returns the state, or the first
    /// violation with the index of its entry.
    fn run(body: &str) -> Result<State, (usize, Violation)> {
        let trace = text::parse(&format!("{}\n{body}", text::header())).expect("parses");
        let mut state = State::new();
        for (i, e) in trace.entries.iter().enumerate() {
            state.apply(&e.call, e.ret.as_ref()).map_err(|v| (i, v))?;
        }
        Ok(state)
    }

    const DECLS: &str = "sort_int\nreturn s1\nsort_bool\nreturn s2\nnew_solver\nreturn z1\n\
                         var s1 \"x\"\nreturn t1\nvar s1 \"y\"\nreturn t2\nconst s1 \"c\"\nreturn t3\n\
                         < t1 t2\nreturn t4\n";

    #[test]
    fn zero_to_the_zeroth_power_is_no_valid_algebraic_call() {
        // Z3 refuses 0^0 as indeterminate: a precondition, as for a division by zero.
        let lits = "sort_real\nreturn s1\nlit s1 \"0\"\nreturn t1\nlit s1 \"-2/3\"\nreturn t2\n";
        let (_, v) = run(&format!("{lits}algebraic_power t1 0\nreturn t3\n")).unwrap_err();
        assert!(v.0.contains("not known to be nonzero"), "{v}");
        for fine in ["algebraic_power t1 2", "algebraic_power t2 0"] {
            run(&format!("{lits}{fine}\nreturn t3\n")).unwrap();
        }
    }

    #[test]
    fn a_bound_variable_is_in_scope_only_below_its_quantifier() {
        // Closed: both variables bound, nested.
        let state = run(&format!(
            "{DECLS}exists 0 t2 body t4\nreturn t5\nforall 0 t1 body t5\nreturn t6\nassert z1 t6\n"
        ))
        .unwrap();
        let inner = &state.terms[&TermId(5)];
        assert_eq!(inner.free_vars, BTreeSet::from([TermId(1)]));
        assert!(inner.quantified && state.terms[&TermId(6)].is_closed());
        assert!(state.terms[&TermId(1)].is_var && !state.terms[&TermId(3)].is_var);
        // Open terms go into term-building calls only.
        for bad in [
            "assert z1 t4\n",
            "exists 0 t2 body t4\nreturn t5\nassert z1 t5\n",
            "check_sat z1\nreturn sat\nget_model z1\nreturn m1\nmodel_eval m1 t1 true\nreturn \"0\"\n",
        ] {
            let (_, v) = run(&format!("{DECLS}{bad}")).unwrap_err();
            assert!(v.0.contains("outside a quantifier"), "{bad}: {v}");
        }
        // A quantifier binds `var` terms only, each once, over a Bool body.
        for (bad, why) in [
            ("forall 0 t3 body t4\nreturn t5\n", "not a variable"),
            ("forall 0 t1 t1 body t4\nreturn t5\n", "appears twice"),
            ("forall 0 t1 body t3\nreturn t5\n", "expected Bool"),
            ("forall 0 body t4\nreturn t5\n", "at least one variable"),
        ] {
            let (_, v) = run(&format!("{DECLS}{bad}")).unwrap_err();
            assert!(v.0.contains(why), "{bad}: {v}");
        }
        // Substituting a variable by a closed term closes the term.
        let state = run(&format!(
            "{DECLS}substitute t4 t1 t3 t2 t3\nreturn t5\nassert z1 t5\n"
        ))
        .unwrap();
        assert!(state.terms[&TermId(5)].is_closed());
    }

    #[test]
    fn patterns_keep_their_variables_and_text_round_trips() {
        let body = format!(
            "{DECLS}fun \"f\" s1 s1\nreturn f1\napply f1 t1\nreturn t5\n\
             forall 3 t1 t2 body t4 pattern t5 t2 pattern t5 no_pattern t5\nreturn t6\n"
        );
        let state = run(&body).unwrap();
        assert!(state.terms[&TermId(6)].is_closed());
        let trace = text::parse(&format!("{}\n{body}", text::header())).unwrap();
        let q = &trace.entries.last().unwrap().call;
        assert_eq!(
            text::format_call(q),
            "forall 3 t1 t2 body t4 pattern t5 t2 pattern t5 no_pattern t5"
        );
        assert!(matches!(q, Call::Quantifier { patterns, .. } if patterns.len() == 2));
        // A pattern over a variable no quantifier above binds leaves the term open.
        let (_, v) = run(&format!(
            "{DECLS}var s1 \"z\"\nreturn t5\nforall 0 t1 body t4 pattern t5\nreturn t6\nassert z1 t6\n"
        ))
        .unwrap_err();
        assert!(v.0.contains("outside a quantifier"), "{v}");
        for bad in ["forall 0 t1 t4\n", "forall 0 t1 body t4 patterns t5\n"] {
            assert!(
                text::parse(&format!("{}\n{DECLS}{bad}", text::header())).is_err(),
                "{bad}"
            );
        }
    }
}
