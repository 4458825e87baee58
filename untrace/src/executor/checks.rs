//! The oracle checks ([`model::Check`], the `check_*` trace lines) as the executor runs them,
//! so that a replay re-runs every check exactly as the fuzzer ran it.
//!
//! Each check first verifies its premise from what the executor saw happen (which terms are
//! asserted to which solver, which formula a model satisfies, which core a solver gave), and
//! holds vacuously where the premise does not: a minimizer that removes an assertion must not
//! turn a real finding into a false one. A check that fails is an [`ExecError::Oracle`] whose
//! [`Failure::cause`] names the root cause: for the evaluation checks the operation where
//! Z3's `model_eval` first departs from the independent evaluator (`model::eval` on the
//! SMT-LIB text of the calls that built the term, never Z3's printer), for the answer checks
//! the solver kinds and answers that disagree.

use super::raw_solver::{reference_solver, RawSolver};
use super::{guard, z3_model, ExecError, Executor};
use model::call::RelationKind;
use model::eval::{self, EvalError, Value};
use model::finding::{Failure, FailureKind};
use model::state::SpecialRelation;
use model::{Check, FuncId, ModelId, SatResult, SolverId, SolverKind, TermId};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use z3::ast::{Ast, Bool, Dynamic};
use z3::FuncDecl;

/// Counter names of [`Executor::counters`]: `assertions: ...` for the terms that must hold,
/// `values: ...` for the terms whose `model_eval` value is compared.
pub mod counters {
    pub const CHECKED: &str = "checked";
    pub const TRUE: &str = "assertions: true";
    pub const AGREE: &str = "values: agree with model_eval";
    pub const OPEN: &str = "skipped: open under the model";
    pub const UNSUPPORTED: &str = "skipped: unsupported by the evaluator";
    pub const NO_TEXT: &str = "skipped: no SMT-LIB text";
    pub const NO_MODEL: &str = "models: text unreadable";
    pub const MODELS: &str = "models: read";
    pub const Z3_VALUE_OPEN: &str = "values: skipped: model_eval answer is no value";
    /// Prefix of the counters of terms left unjudged, by the call that the evaluator cannot
    /// judge (`unjudged op: seq.foo`): the lowest one below the term.
    pub const UNJUDGED_OP: &str = "unjudged op: ";
    /// Prefix of the counters of terms skipped because they hold a regular language, whose
    /// equality with Z3's value is language equivalence (not decided here).
    pub const REGLAN_VALUE: &str = "values: skipped: regular language";
}
use counters::*;

/// How the evaluator's open reasons name what it does not support.
const UNSUPPORTED_REASON: &str = "unsupported: ";

/// The resource limit of `check_simplify`'s solver: deterministic, and enough for the small
/// terms of a round (a harder equivalence is skipped as unknown, never a finding).
pub const SIMPLIFY_RLIMIT: u32 = 50_000;

/// The resource limit of `check_quant`'s solver: quantified problems often end `unknown`,
/// which is no verdict; the limit keeps the check's cost near a round's.
pub const QUANT_RLIMIT: u32 = 100_000;

/// Operations whose value SMT-LIB leaves open somewhere (a zero divisor, an out-of-range
/// conversion): a fresh solver may choose that value unlike the model did, so a satisfiable
/// negation of a term with one is no verdict. A `/` of a literal divisor (`(/ 1.0 2.0)`) is
/// a Real literal and total.
const PARTIAL_HEADS: &[&str] = &[
    "(div ",
    "(mod ",
    "(rem ",
    "fp.to_ubv",
    "fp.to_sbv",
    "fp.to_real",
    "fp.min",
    "fp.max",
    "seq.nth",
    "(/0",
    "div0",
    "mod0",
];
/// Whether the SMT-LIB `text` applies an operation of [`PARTIAL_HEADS`], or `/` to a divisor
/// that is not a numeral (`(/ x r)` is open where r is 0; `(/ 1.0 2.0)` is a Real literal).
fn has_partial_operation(text: &str) -> bool {
    let numeral =
        |word: &str| !word.is_empty() && word.chars().all(|c| c.is_ascii_digit() || c == '.');
    PARTIAL_HEADS.iter().any(|h| text.contains(h))
        || text.match_indices("(/ ").any(|(at, head)| {
            let mut words = text[at + head.len()..].split([' ', ')']);
            !(words.next().is_some_and(numeral) && words.next().is_some_and(numeral))
        })
}

/// The resource limit of each solver `check_consequences` and `check_cubes` ask (the same
/// reasoning as [`SIMPLIFY_RLIMIT`]: an unknown is no verdict).
pub const SOLVER_CHECK_RLIMIT: u32 = 50_000;

/// Most consequences `check_consequences` validates, and most cubes `check_cubes` takes
/// before it gives up on completing the enumeration.
pub const MAX_CONSEQUENCES: usize = 8;
pub const MAX_CUBES: usize = 8;

/// What the checks know of a solver's formula, kept in step by the executor.
#[derive(Clone, Debug)]
pub struct Formula {
    /// The asserted terms per scope (`scopes[0]` is the base level).
    scopes: Vec<Vec<TermId>>,
    /// The answer of the last check, if the formula has not changed since.
    pub answer: Option<SatResult>,
    /// Whether the last check had assumptions.
    pub assuming: bool,
    /// The last unsat core, while the formula is the one it was computed for.
    pub core: Option<Vec<TermId>>,
    /// The assumptions of the last check (their ids).
    pub assumed: Vec<TermId>,
    /// Parameters set on the solver, in order.
    pub params: Vec<(String, String)>,
    /// Holds assertions the checks cannot name (parsed by `from_string`).
    opaque: bool,
    /// The formula changed after the last check.
    changed: bool,
    /// The last `check_sat_interrupted` of this formula: the definite answer before it (if
    /// any), its answer and reason, and the answer of the first check after it.
    pub interrupted: Option<Interrupted>,
}

/// What `check_interrupt` judges.
#[derive(Clone, Debug)]
pub struct Interrupted {
    pub before: Option<SatResult>,
    pub answer: SatResult,
    pub reason: String,
    pub after: Option<SatResult>,
}

impl Default for Formula {
    fn default() -> Formula {
        Formula {
            scopes: vec![Vec::new()],
            answer: None,
            assuming: false,
            core: None,
            assumed: Vec::new(),
            params: Vec::new(),
            opaque: false,
            changed: false,
            interrupted: None,
        }
    }
}

impl Formula {
    pub fn assertions(&self) -> impl Iterator<Item = TermId> + '_ {
        self.scopes.iter().flatten().copied()
    }

    fn change(&mut self) {
        self.changed = true;
        self.core = None;
        self.interrupted = None;
    }

    /// The solver's assertions per scope (`[0]` the base level).
    pub fn scopes(&self) -> &[Vec<TermId>] {
        &self.scopes
    }

    /// Whether it holds assertions the checks cannot name (parsed by `from_string`).
    pub fn opaque(&self) -> bool {
        self.opaque
    }

    /// A check (without assumptions) answered `answer`: the first after an interrupted one
    /// is what `check_interrupt` compares.
    pub fn after_interrupted(&mut self, answer: SatResult) {
        if let Some(i) = self.interrupted.as_mut() {
            i.after.get_or_insert(answer);
        }
    }

    pub fn assert(&mut self, t: TermId) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.push(t);
        }
        self.change();
    }

    pub fn push(&mut self) {
        self.scopes.push(Vec::new());
    }

    pub fn pop(&mut self, n: u32) {
        let keep = self.scopes.len().saturating_sub(n as usize).max(1);
        self.scopes.truncate(keep);
        self.change();
    }

    pub fn reset(&mut self) {
        self.scopes = vec![Vec::new()];
        self.opaque = false;
        self.change();
    }

    pub fn parsed(&mut self) {
        self.opaque = true;
        self.change();
    }

    /// `get_unsat_core` answered `ids`: a core only when the last check, of the current
    /// formula, really was unsat (Z3 answers an empty core after sat as well).
    pub fn got_core(&mut self, ids: &[TermId]) {
        self.core = (self.answer == Some(SatResult::Unsat) && !self.changed).then(|| ids.to_vec());
    }

    /// A check answered `answer`, with `assumptions` for `check_sat_assuming`.
    pub fn checked(&mut self, answer: SatResult, assumptions: Option<Vec<TermId>>) {
        self.answer = Some(answer);
        self.assuming = assumptions.is_some();
        self.assumed = assumptions.unwrap_or_default();
        self.changed = false;
    }

    /// The formula of a `translate`d copy: the same assertions, no check yet, and no
    /// parameters (Z3 does not carry them over).
    pub fn translated(&self) -> Formula {
        Formula {
            scopes: self.scopes.clone(),
            opaque: self.opaque,
            ..Formula::default()
        }
    }

    /// The formula of the last check as a set of terms (assertions and assumptions), or
    /// `None` when it holds something the checks cannot name.
    fn checked_formula(&self) -> Option<BTreeSet<TermId>> {
        (!self.opaque).then(|| self.assertions().chain(self.assumed.clone()).collect())
    }

    /// The answer of the last check when it is definite and still about the current formula.
    pub(super) fn definite(&self) -> Option<SatResult> {
        self.answer
            .filter(|a| *a != SatResult::Unknown && !self.changed)
    }

    pub(super) fn param(&self, key: &str) -> Option<&str> {
        self.params
            .iter()
            .rev()
            .find(|(k, _)| k == key || k.rsplit('.').next() == Some(key))
            .map(|(_, v)| v.as_str())
    }
}

/// Our evaluator's value of a term, or why there is none.
enum Ours {
    Value(Value),
    Skipped,
}

/// The class of a solver kind, for causes: one bug of translated tactic solvers shows with
/// every tactic, so the tactic's (or logic's) name would split it into many signatures.
fn kind_class(kind: &SolverKind) -> &'static str {
    match kind {
        SolverKind::Default => "default solver",
        SolverKind::Logic(_) => "solver for a logic",
        SolverKind::Tactic(_) | SolverKind::FromTactic(_) => "solver from a tactic",
    }
}

fn kind_text(kind: &SolverKind) -> String {
    match kind {
        SolverKind::Default => "default solver".into(),
        SolverKind::Logic(l) => format!("solver for {l}"),
        SolverKind::Tactic(t) => format!("solver from tactic {t}"),
        SolverKind::FromTactic(k) => format!("solver from tactic object {k}"),
    }
}

impl Executor {
    /// What the independent checks did so far, by counter name ([`counters`]).
    pub fn counters(&self) -> &BTreeMap<String, u64> {
        &self.counts
    }

    pub(super) fn count(&mut self, what: &str) {
        *self.counts.entry(what.to_string()).or_default() += 1;
    }

    fn count_for(&mut self, assertion: bool, what: &str) {
        let group = if assertion { "assertions" } else { "values" };
        self.count(&format!("{group}: {what}"));
    }

    pub(super) fn run_check(&mut self, check: &Check) -> Result<(), ExecError> {
        match check {
            Check::Model { model, term } => self.check_model(check, *model, *term),
            Check::Independent { model, term } => self.check_independent(check, *model, *term),
            Check::Eval {
                model,
                term,
                completion,
            } => self.check_eval(check, *model, *term, *completion),
            Check::Shadow { original, clone } => self.check_same_answer(check, *original, *clone),
            Check::Config { original, other } => self.check_same_answer(check, *original, *other),
            Check::Dump(z) => self.check_dump(check, *z),
            Check::Core(z) => self.check_core(check, *z),
            Check::Literal(t) => self.check_literal(check, *t),
            Check::FiniteSet { atoms, witnesses } | Check::FiniteField { atoms, witnesses } => {
                self.check_fset(check, atoms, witnesses)
            }
            Check::Simplify(s) => self.check_simplify(check, *s),
            Check::Quant { model, term } => self.check_quant(check, *model, *term),
            Check::Consequences {
                solver,
                assumptions,
                variables,
            } => self.check_consequences(check, *solver, assumptions, variables),
            Check::Cubes(z) => self.check_cubes(check, *z),
            Check::Goal(g) => self.check_goal(check, *g),
            Check::OptValues { opt, model } => self.check_opt_values(check, *opt, *model),
            Check::OptBetter { opt, model } => self.check_opt_better(check, *opt, *model),
            Check::Relation { model, func, terms } => {
                self.check_relation(check, *model, *func, terms)
            }
            Check::Rcf(a, b) => self.check_rcf(check, *a, *b),
            Check::RcfRoots(coeffs) => self.check_rcf_roots(check, coeffs),
            Check::Algebraic(a, b) => self.check_algebraic(check, *a, *b),
            Check::Congruence { solver, terms } => self.check_congruence(check, *solver, terms),
            Check::Fixedpoint => self.check_fp(check),
            Check::Interrupt(z) => self.check_interrupt(check, *z),
            Check::Propagator {
                solver,
                mode,
                terms,
            } => self.check_propagator(check, *solver, mode, terms),
            Check::ProofCallback(z) => self.check_proof_callback(check, *z),
            Check::Simplifier {
                solver,
                simplifiers,
                params,
            } => self.check_simplifier(check, *solver, simplifiers, params),
            Check::InitialValue { solver, var, value } => {
                self.check_initial_value(check, *solver, *var, *value)
            }
            Check::ParserContext(terms) => self.check_parser_context(check, terms),
            Check::Chars(t) => self.check_chars(check, *t),
            Check::Complex(parts) => self.check_complex(check, parts),
            Check::PolyDatatype(a, b) => self.check_poly_datatype(check, *a, *b),
            Check::AlgebraicPoly(t) => self.check_algebraic_poly(check, *t),
            Check::Subresultants { p, q } => self.check_subresultants(check, p, q),
            Check::RcfSignConditions(r) => self.check_rcf_sign_conditions(check, *r),
            Check::QeMap {
                witness,
                model,
                formula,
                vars,
            } => self.check_qe_map(check, *witness, *model, *formula, vars),
            Check::FiniteDomain { size, edges } => self.check_finite_domain(check, *size, edges),
        }
    }

    /// A failed check whose cause is where Z3's evaluation of `head` departs from the
    /// independent evaluator: one root cause, whichever check ran into it, so the finding is
    /// an evaluation disagreement named by the operation alone.
    pub(super) fn departure_finding(check: &Check, message: String, head: &str) -> ExecError {
        ExecError::Oracle(
            Failure::new(FailureKind::EvalDisagreement, message)
                .with_cause(format!(
                    "model_eval of {head} departs from the independent evaluator"
                ))
                .naming_operation(head)
                .at_call(check.name()),
        )
    }

    pub(super) fn finding(check: &Check, message: String, cause: String) -> ExecError {
        ExecError::Oracle(
            Failure::new(check.kind(), message)
                .with_cause(format!("{}: {cause}", check.name()))
                .at_call(check.name()),
        )
    }

    pub(super) fn solver_kind(&self, z: SolverId) -> String {
        self.state
            .solvers
            .get(&z)
            .map_or_else(|| "solver".into(), |s| kind_text(&s.kind))
    }

    pub(super) fn solver_class(&self, z: SolverId) -> &'static str {
        self.state
            .solvers
            .get(&z)
            .map_or("solver", |s| kind_class(&s.kind))
    }

    /// Whether `term` is an assertion or assumption of the check whose model `model` is.
    fn premise_of(&self, model: ModelId, term: TermId) -> bool {
        self.models
            .get(&model)
            .is_some_and(|m| m.premises.contains(&term))
    }

    fn check_model(
        &mut self,
        check: &Check,
        model: ModelId,
        term: TermId,
    ) -> Result<(), ExecError> {
        if !self.premise_of(model, term) {
            return Ok(());
        }
        let value = self.model_eval(model, term, true)?;
        if value == "true" {
            return Ok(());
        }
        // Z3 5.x may answer a term it left unevaluated (`(not (= "" "E"))`) even with
        // completion: what it printed is judged by its value, not its text.
        let read = self.read_value(model, &value);
        if read == Some(Value::Bool(true)) {
            return Ok(());
        }
        // Z3's model_eval leaves most quantifiers unevaluated: only `false` says the model
        // fails a quantified assertion; the rest is for `check_indep` and `check_quant`.
        let quantified = self.state.terms.get(&term).is_some_and(|i| i.quantified);
        if quantified && read != Some(Value::Bool(false)) {
            self.count("assertions: skipped: quantified, model_eval gives no value");
            return Ok(());
        }
        // Z3 leaves applications of a recursive function unevaluated where its context has no
        // definition of it: before its `rec_def`, and in another context (a translated or
        // configured solver's), which the definition does not reach. Only `false` is a
        // verdict then.
        if !self.state.rec_funcs.is_empty() && read != Some(Value::Bool(false)) {
            self.count("assertions: skipped: recursive function, model_eval gives no value");
            return Ok(());
        }
        let message = format!(
            "assertion or assumption {term} evaluates to {} under model {model} (Z3's model_eval)",
            guard::one_line(&value)
        );
        if let Some(head) = self.departure(model, term) {
            return Err(Self::departure_finding(check, message, head));
        }
        let solver = self.state.models.get(&model).copied();
        let cause = format!(
            "a model of the {} falsifies an assertion",
            solver.map_or("solver", |z| self.solver_class(z))
        );
        Err(Self::finding(check, message, cause))
    }

    fn check_independent(
        &mut self,
        check: &Check,
        model: ModelId,
        term: TermId,
    ) -> Result<(), ExecError> {
        if !self.premise_of(model, term) {
            return Ok(());
        }
        let Ours::Value(value) = self.ours(model, term, true) else {
            return Ok(());
        };
        if value == Value::Bool(true) {
            self.count(TRUE);
            return Ok(());
        }
        let message = format!(
            "assertion or assumption {term} evaluates to {value} under model {model} by the independent evaluator"
        );
        match self.departure(model, term) {
            Some(head) => Err(Self::departure_finding(check, message, head)),
            None => Err(Self::finding(
                check,
                message,
                "the independent evaluator falsifies an assertion".into(),
            )),
        }
    }

    fn check_eval(
        &mut self,
        check: &Check,
        model: ModelId,
        term: TermId,
        completion: bool,
    ) -> Result<(), ExecError> {
        let z3_value = self.model_eval(model, term, completion)?;
        let Ours::Value(ours) = self.ours(model, term, false) else {
            return Ok(());
        };
        if !ours.has_canonical_form() {
            self.count(REGLAN_VALUE);
            return Ok(());
        }
        let Some(theirs) = self.read_value(model, &z3_value) else {
            // Without completion Z3 may answer an unevaluated term: no value to compare.
            self.count(Z3_VALUE_OPEN);
            return Ok(());
        };
        if ours == theirs {
            self.count(AGREE);
            return Ok(());
        }
        let message = format!(
            "model_eval of {term} under model {model} gives {}, the independent evaluator {ours}",
            shorten(&z3_value)
        );
        // Without completion the values may differ where the model says nothing (Z3 then
        // answers the term itself): the departure below `term` is the root cause, else `term`.
        let head = self.texts.as_ref().and_then(|t| t.node(term)).map(|n| n.0);
        match self.departure(model, term).or(head) {
            Some(head) => Err(Self::departure_finding(check, message, head)),
            None => Err(Self::finding(check, message, "model_eval".into())),
        }
    }

    fn check_same_answer(
        &mut self,
        check: &Check,
        a: SolverId,
        b: SolverId,
    ) -> Result<(), ExecError> {
        let (Ok(sa), Ok(sb)) = (self.slot(a), self.slot(b)) else {
            return Ok(());
        };
        let (fa, fb) = (&sa.formula, &sb.formula);
        let (Some(answer_a), Some(answer_b)) = (fa.definite(), fb.definite()) else {
            return Ok(());
        };
        let same_formula = match (fa.checked_formula(), fb.checked_formula()) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        };
        if !same_formula || answer_a == answer_b {
            return Ok(());
        }
        let (kind_a, kind_b) = (self.solver_kind(a), self.solver_kind(b));
        Err(Self::finding(
            check,
            format!(
                "{b} ({kind_b}) answered {} where {a} ({kind_a}) answered {} on the same formula",
                answer_b.name(),
                answer_a.name()
            ),
            format!(
                "{} {}, {} {}",
                self.solver_class(a),
                answer_a.name(),
                self.solver_class(b),
                answer_b.name()
            ),
        ))
    }

    /// `check_relation`: R's axioms over the values model `m` gives the terms, R (and, for a
    /// transitive closure, its relation) as `m` interprets them, where R occurs in an
    /// assertion or assumption of the check whose model `m` is. Models of solvers in other
    /// contexts are skipped (counted).
    fn check_relation(
        &mut self,
        check: &Check,
        m: ModelId,
        func: FuncId,
        terms: &[TermId],
    ) -> Result<(), ExecError> {
        let Some(slot) = self.models.get(&m) else {
            return Ok(());
        };
        let occurs = slot.premises.iter().any(|p| {
            self.relations_in
                .get(p)
                .is_some_and(|found| found.contains(&func))
        });
        if !occurs {
            self.count("relations: skipped: not in the model's assertions");
            return Ok(());
        }
        if slot.foreign {
            self.count("relations: skipped: a model of another context");
            return Ok(());
        }
        let Some(kind) = self.state.relations.get(&func).copied() else {
            return Ok(());
        };
        let Some(r) = self.funcs.get(&func) else {
            return Ok(());
        };
        let args: Vec<&Dynamic> = terms
            .iter()
            .map(|t| self.z3_term(*t))
            .collect::<Result<_, _>>()?;
        let corrupt = matches!(
            self.config.inject,
            Some(super::inject::Fault::WrongRelation)
        );
        // The distinct values of the terms (at most MAX_RELATION_VALUES), and the relation's
        // table over them as the model interprets it (`None`: no Boolean value).
        let tables = guard::guarded(&slot.ctx, || {
            let mut values: Vec<(Dynamic, String)> = Vec::new();
            for a in &args {
                let Some(v) = slot.model.eval(*a, true) else {
                    continue;
                };
                let text = v.to_string();
                if values.len() < MAX_RELATION_VALUES && !values.iter().any(|(_, t)| *t == text) {
                    values.push((v, text));
                }
            }
            let table = |f: &FuncDecl| -> Vec<Vec<Option<bool>>> {
                values
                    .iter()
                    .map(|(a, _)| {
                        values
                            .iter()
                            .map(|(b, _)| {
                                let app = f.apply(&[a as &dyn Ast, b as &dyn Ast]);
                                slot.model
                                    .eval(&app, true)
                                    .and_then(|v| v.as_bool())
                                    .and_then(|b| b.as_bool())
                            })
                            .collect()
                    })
                    .collect()
            };
            let mut of_r = table(r);
            // TEST-ONLY: the injected fault reads the relation of the first value to itself
            // as false.
            if corrupt {
                if let Some(first) = of_r.first_mut().and_then(|row| row.first_mut()) {
                    *first = Some(false);
                }
            }
            let names: Vec<String> = values.into_iter().map(|(_, t)| t).collect();
            (names, of_r)
        })
        .map_err(ExecError::Z3)?;
        let (names, r_table) = tables;
        let violated = relation_violation(kind, &r_table);
        self.count("relations: checked");
        let Some(axiom) = violated else {
            return Ok(());
        };
        let name = |i: usize| guard::one_line(&names[i]);
        let message = format!(
            "{func} ({}) under model {m} breaks {}",
            relation_name(kind),
            axiom.describe(&name)
        );
        Err(Self::finding(
            check,
            message,
            format!("{} breaks {}", relation_name(kind), axiom.name()),
        ))
    }

    fn check_dump(&mut self, check: &Check, z: SolverId) -> Result<(), ExecError> {
        // A dump does not parse back where recursive functions are defined: 4.8.12 leaves
        // their definitions out, 5.4.1 writes them (`define-funs-rec`) but they are defined in
        // the context already, so the parser refuses them.
        if !self.state.rec_funcs.is_empty() {
            self.count("dumps: skipped: recursive functions");
            return Ok(());
        }
        let slot = self.slot(z)?;
        let Some(original) = slot.formula.definite() else {
            return Ok(());
        };
        // Tracked assertions are dumped as implications from free trackers, and assumptions
        // are not dumped at all: such a dump is weaker, and only "sat before, unsat after"
        // contradicts.
        let weaker = !slot.trackers.is_empty() || slot.formula.assuming;
        let rlimit = slot
            .formula
            .param("rlimit")
            .and_then(|v| v.parse::<u32>().ok());
        let dump_false = matches!(self.config.inject, Some(super::inject::Fault::DumpFalse));
        let parsed = guard::in_context(&slot.ctx, || {
            let mut text = slot.solver.to_smt2();
            // Z3 writes `divides` terms as SMT-LIB's `((_ divisible N) t)`, which neither
            // release's parser reads ("unknown constant divisible").
            if text.contains("(_ divisible ") {
                return None;
            }
            if dump_false {
                text.push_str("\n(assert false)\n");
            }
            let fresh = reference_solver(rlimit);
            fresh.from_string(text.as_str());
            Some(fresh.check())
        })
        .map_err(ExecError::Z3)?;
        let Some(parsed) = parsed else {
            self.count("dumps: skipped: divisible, which Z3 does not parse");
            return Ok(());
        };
        let parsed = super::sat(parsed);
        let contradiction = match (original, parsed) {
            (SatResult::Sat, SatResult::Unsat) => true,
            (SatResult::Unsat, SatResult::Sat) => !weaker,
            _ => false,
        };
        if !contradiction {
            return Ok(());
        }
        let kind = self.solver_kind(z);
        Err(Self::finding(
            check,
            format!(
                "{z} ({kind}) answered {} but its dump parsed into a fresh solver answered {}",
                original.name(),
                parsed.name()
            ),
            format!(
                "{} {}, its dump {}",
                self.solver_class(z),
                original.name(),
                parsed.name()
            ),
        ))
    }

    fn check_core(&mut self, check: &Check, z: SolverId) -> Result<(), ExecError> {
        let slot = self.slot(z)?;
        let formula = &slot.formula;
        let Some(core) = &formula.core else {
            return Ok(());
        };
        // Every superset of an unsat core is unsat; a subset need not be.
        let rechecks_core = formula.assuming && core.iter().all(|t| formula.assumed.contains(t));
        // A solver built from a tactic tracks no dependencies unless unsat cores are switched
        // on, and then answers an empty core: expected, not a finding.
        let kind = self.state.solvers.get(&z).map(|s| s.kind.clone());
        let tracks_cores = !matches!(
            kind,
            Some(SolverKind::Tactic(_) | SolverKind::FromTactic(_))
        ) || formula.param("unsat_core") == Some("true");
        if !rechecks_core || !tracks_cores || formula.definite() != Some(SatResult::Sat) {
            return Ok(());
        }
        let ids: Vec<String> = formula.assumed.iter().map(|t| t.to_string()).collect();
        Err(Self::finding(
            check,
            format!(
                "the unsat core [{}] of {z} ({}) is satisfiable when re-checked",
                ids.join(" "),
                self.solver_kind(z)
            ),
            format!("{} core re-checks sat", self.solver_class(z)),
        ))
    }

    /// `check_literal`: the literal `t` and each exact alternative construction of its value
    /// (see [`super::numerals`]) simplify to equal. Holds where `t` is no literal (a minimizer
    /// replaced it) and where Z3 leaves an equality unsimplified.
    fn check_literal(&mut self, check: &Check, t: TermId) -> Result<(), ExecError> {
        let (Some((sort, value)), Some(lit)) = (self.literals.get(&t), self.terms.get(&t)) else {
            return Ok(());
        };
        let (sort, value, lit) = (sort.clone(), value.clone(), lit.clone());
        let z3_sort = z3::ast::Ast::get_sort(&lit);
        let perturb = matches!(self.config.inject, Some(super::inject::Fault::WrongNumeral));
        let alternatives = super::numerals::alternatives(&sort, &z3_sort, &value, perturb);
        for alternative in &alternatives {
            match super::numerals::simplified_equality(&lit, &alternative.term) {
                Some(false) => {
                    let kind = sort_kind(&sort);
                    return Err(Self::finding(
                        check,
                        format!(
                            "the literal {value} of sort {sort} ({t}) is {}, the same value built \
                             by {} is {}",
                            one_line(&z3::ast::Ast::simplify(&lit)),
                            alternative.via,
                            one_line(&z3::ast::Ast::simplify(&alternative.term))
                        ),
                        format!("{kind} from {} differs from lit", alternative.via),
                    ));
                }
                Some(true) => self.count("literals: constructions agree"),
                None => self.count("literals: skipped: equality not simplified"),
            }
        }
        // The string written as bytes reads back as those bytes.
        let lstring = alternatives.iter().find(|a| a.via == "Z3_mk_lstring");
        if let (Some(alternative), Some(bytes)) = (lstring, super::numerals::string_bytes(&value)) {
            let mut bytes = bytes;
            if perturb {
                // The injected `wrong-numeral` fault: the reads are judged against other bytes.
                bytes.push(b'!');
            }
            if let Err(message) = super::numerals::lstring_reads(&alternative.term, &bytes) {
                return Err(Self::finding(
                    check,
                    format!("the string literal {value:?} ({t}) written as bytes: {message}"),
                    "String bytes read back wrong".into(),
                ));
            }
            self.count("literals: string bytes read back");
        }
        Ok(())
    }

    /// The terms of `ids` (released ones too), or `None` when one is unknown.
    pub(super) fn terms_of(&self, ids: impl IntoIterator<Item = TermId>) -> Option<Vec<Dynamic>> {
        ids.into_iter()
            .map(|t| {
                self.terms
                    .get(&t)
                    .or_else(|| self.released.get(&t))
                    .cloned()
            })
            .collect()
    }

    /// What a check that asks a fresh solver Z's question again needs of Z's last check: its
    /// definite answer, Z's assertions and last assumptions, Z's context and whether it is
    /// foreign. `None` is no verdict: no such solver, no definite answer (counted as
    /// `WHAT: skipped: no definite answer`), or a formula the checks cannot name.
    pub(super) fn last_check(&mut self, z: SolverId, what: &str) -> Option<LastCheck> {
        let slot = self.slot(z).ok()?;
        let Some(expected) = slot.formula.definite() else {
            self.count(&format!("{what}: skipped: no definite answer"));
            return None;
        };
        let assumed_ids = slot.formula.assumed.clone();
        let (assertions, ctx, foreign) = self.assertions_of(z)?;
        let assumed = self.terms_of(assumed_ids)?;
        Some(LastCheck {
            expected,
            assertions,
            assumed,
            ctx,
            foreign,
        })
    }

    /// Z's assertions (as terms of the thread-local context) and Z's context, or `None` when
    /// Z holds assertions the checks cannot name.
    pub(super) fn assertions_of(&self, z: SolverId) -> Option<(Vec<Dynamic>, z3::Context, bool)> {
        let slot = self.slot(z).ok()?;
        if slot.formula.opaque {
            return None;
        }
        let terms = self.terms_of(slot.formula.assertions())?;
        Some((terms, slot.ctx.clone(), slot.foreign))
    }

    /// `check_congruence`: a fresh simple solver in Z's context, given Z's assertions; after
    /// sat, each term's congruence class (root, and the cycle of `congruence_next` up to
    /// [`MAX_CONGRUENCE_CLASS`] members) must be one value in the solver's model where the
    /// values are numerals, Booleans or strings, and the explanation of the term's equality
    /// with its root must not be false there. Unknown or unsat is no verdict.
    fn check_congruence(
        &mut self,
        check: &Check,
        z: SolverId,
        terms: &[TermId],
    ) -> Result<(), ExecError> {
        let Some((assertions, ctx, foreign)) = self.assertions_of(z) else {
            return Ok(());
        };
        let subjects = terms
            .iter()
            .map(|t| self.z3_term(*t).cloned())
            .collect::<Result<Vec<Dynamic>, ExecError>>()?;
        let judged = guard::in_context(&ctx, || -> Option<Option<String>> {
            let local = |t: &Dynamic| super::into_context(t, &ctx, foreign);
            let asserted: Vec<Bool> = assertions
                .iter()
                .filter_map(|t| local(t).as_bool())
                .collect();
            let solver = RawSolver::simple(SOLVER_CHECK_RLIMIT, &asserted)?;
            if solver.check_assumptions(&[]) != z3::SatResult::Sat {
                return Some(None);
            }
            let subjects: Vec<Dynamic> = subjects.iter().map(local).collect();
            // SAFETY: the solver is live for the whole block; the functions are looked up
            // with their z3_api.h signatures.
            Some(unsafe { congruence_violation(&ctx, &solver, &subjects) })
        });
        match judged {
            Err(message) => self.check_error(check, message),
            Ok(None) => Err(ExecError::Z3(format!(
                "{}: Z3 returned no object",
                check.name()
            ))),
            Ok(Some(None)) => Ok(()),
            Ok(Some(Some(problem))) => Err(Self::finding(
                check,
                format!("{z}'s assertions in a simple solver: {problem}"),
                "congruence class not one value in the model".into(),
            )),
        }
    }

    /// A Z3 error inside a check's own solvers: a resource limit or another expected refusal is
    /// no verdict (counted), anything else a Z3 error at the check's line.
    pub(super) fn check_error(&mut self, check: &Check, message: String) -> Result<(), ExecError> {
        if super::expected_error(&message) {
            self.count(&format!("{}: refused", check.name()));
            Ok(())
        } else {
            Err(ExecError::Z3(message))
        }
    }

    /// `check_consequences`: a fresh solver in Z's context, given Z's assertions, answers
    /// `get_consequences` for the assumptions and variables; each consequence it returns must
    /// follow from the assertions (a fresh solver does not find them and the consequence's
    /// negation satisfiable). Unknown answers are no verdict.
    fn check_consequences(
        &mut self,
        check: &Check,
        z: SolverId,
        assumptions: &[TermId],
        variables: &[TermId],
    ) -> Result<(), ExecError> {
        let Some((assertions, ctx, foreign)) = self.assertions_of(z) else {
            return Ok(());
        };
        let (Some(assumed), Some(vars)) = (
            self.terms_of(assumptions.iter().copied()),
            self.terms_of(variables.iter().copied()),
        ) else {
            return Ok(());
        };
        let negate = matches!(
            self.config.inject,
            Some(super::inject::Fault::WrongConsequence)
        );
        let judged = guard::in_context(&ctx, || {
            let local = |t: &Dynamic| super::into_context(t, &ctx, foreign);
            let asserted: Vec<Bool> = assertions
                .iter()
                .filter_map(|t| local(t).as_bool())
                .collect();
            let assumed: Vec<Dynamic> = assumed.iter().map(local).collect();
            let vars: Vec<Dynamic> = vars.iter().map(local).collect();
            let solver = RawSolver::default_solver(SOLVER_CHECK_RLIMIT, &asserted)?;
            let (answer, found) = solver.consequences(
                &assumed.iter().collect::<Vec<_>>(),
                &vars.iter().collect::<Vec<_>>(),
            )?;
            if answer != z3::SatResult::Sat {
                return Some(Err(answer));
            }
            let mut wrong = None;
            for c in found.iter().take(MAX_CONSEQUENCES) {
                let c = c.as_bool()?;
                let c = if negate { c.not() } else { c };
                let refute = RawSolver::reference(SOLVER_CHECK_RLIMIT, &asserted)?;
                refute.assert(&c.not());
                if refute.check_assumptions(&[]) == z3::SatResult::Sat {
                    wrong = Some(one_line(&Dynamic::from_ast(&c)));
                    break;
                }
            }
            Some(Ok((found.len(), wrong)))
        });
        match judged {
            Err(message) => self.check_error(check, message),
            Ok(None) => Err(ExecError::Z3(format!(
                "{}: Z3 returned no object",
                check.name()
            ))),
            Ok(Some(Err(answer))) => {
                self.count(&format!("consequences: {}", super::sat(answer).name()));
                Ok(())
            }
            Ok(Some(Ok((_, None)))) => {
                self.count("consequences: valid");
                Ok(())
            }
            Ok(Some(Ok((_, Some(c))))) => Err(Self::finding(
                check,
                format!(
                    "get_consequences of {z}'s assertions returned {}, which does not follow \
                     from them: the assertions and its negation are satisfiable",
                    shorten(&c)
                ),
                "a consequence does not follow from the assertions".into(),
            )),
        }
    }

    /// `check_cubes`: a fresh solver in Z's context, given Z's assertions, enumerates cubes
    /// (`Z3_solver_cube`) up to the `false` cube or a last `true` (empty) cube, at most
    /// [`MAX_CUBES`]; each cube that can still make a finding is checked with the assertions by a
    /// fresh solver. The cubes
    /// cover the assertions' models: if the assertions are sat (Z's last check, or a fresh
    /// solver) and the enumeration completed, some cube is not unsat; if they are unsat, no
    /// cube is sat. A cube over variables Z3 made internally leaves those free in the fresh
    /// solver, which only weakens the check (a model of the assertions still satisfies the
    /// rest of some cube).
    fn check_cubes(&mut self, check: &Check, z: SolverId) -> Result<(), ExecError> {
        let Some((assertions, ctx, foreign)) = self.assertions_of(z) else {
            return Ok(());
        };
        let known = self
            .slot(z)?
            .formula
            .definite()
            .filter(|_| !self.slot(z).is_ok_and(|s| s.formula.assuming));
        let all_false = matches!(self.config.inject, Some(super::inject::Fault::WrongCube));
        let judged = guard::in_context(&ctx, || {
            let local = |t: &Dynamic| super::into_context(t, &ctx, foreign);
            let asserted: Vec<Bool> = assertions
                .iter()
                .filter_map(|t| local(t).as_bool())
                .collect();
            let known = match known {
                Some(answer) => answer,
                None => super::sat(
                    RawSolver::reference(SOLVER_CHECK_RLIMIT, &asserted)?.check_assumptions(&[]),
                ),
            };
            let cuber = RawSolver::default_solver(SOLVER_CHECK_RLIMIT, &asserted)?;
            let (mut cubes, mut complete) = (Vec::new(), false);
            while cubes.len() < MAX_CUBES {
                let cube = cuber.cube()?;
                let is = |b: bool| {
                    cube.len() == 1 && cube[0].as_bool().and_then(|c| c.as_bool()) == Some(b)
                };
                if is(false) {
                    complete = true;
                    break;
                }
                let last = cube.is_empty() || is(true);
                cubes.push(cube);
                if last {
                    complete = true;
                    break;
                }
            }
            // Only a check that can still end in a finding runs: after unsat every cube (a
            // sat one is the finding), after sat with a complete enumeration the cubes until
            // one is not unsat, else none (an unknown answer or an incomplete enumeration
            // proves nothing about the cubes).
            let may_find = |answers: &[SatResult]| match known {
                SatResult::Unsat => true,
                SatResult::Sat => complete && answers.iter().all(|a| *a == SatResult::Unsat),
                SatResult::Unknown => false,
            };
            let mut answers = Vec::new();
            for cube in &cubes {
                if !may_find(&answers) {
                    break;
                }
                let solver = RawSolver::reference(SOLVER_CHECK_RLIMIT, &asserted)?;
                let lits: Vec<Bool> = if all_false {
                    vec![Bool::from_bool(false)]
                } else {
                    cube.iter().filter_map(|l| l.as_bool()).collect()
                };
                lits.iter().for_each(|l| solver.assert(l));
                let answer = super::sat(solver.check_assumptions(&[]));
                // Printed only for the finding: a cube literal over Z3's internal terms can
                // print as megabytes (a DAG written as a tree).
                if answer == SatResult::Sat && known == SatResult::Unsat {
                    let text = lits.iter().map(|l| l.to_string()).collect::<Vec<_>>();
                    return Some((known, complete, cubes.len(), answers, Some(text.join(" "))));
                }
                answers.push(answer);
            }
            Some((known, complete, cubes.len(), answers, None))
        });
        let (known, complete, n_cubes, answers, sat_cube) = match judged {
            Err(message) => return self.check_error(check, message),
            Ok(None) => {
                return Err(ExecError::Z3(format!(
                    "{}: Z3 returned no object",
                    check.name()
                )))
            }
            Ok(Some(judged)) => judged,
        };
        if let Some(cube) = sat_cube {
            return Err(Self::finding(
                check,
                format!(
                    "{z}'s assertions are unsat but with the cube ({}) they are sat",
                    shorten(&cube)
                ),
                "a cube is sat where the assertions are unsat".into(),
            ));
        }
        self.count(&format!("cubes: {n_cubes} cubes"));
        let all_unsat = answers.iter().all(|a| *a == SatResult::Unsat);
        if known == SatResult::Sat && complete && all_unsat {
            return Err(Self::finding(
                check,
                format!(
                    "{z}'s assertions are sat but each of its {} cubes is unsat with them",
                    answers.len()
                ),
                "no cube is sat where the assertions are sat".into(),
            ));
        }
        Ok(())
    }

    /// `check_simplify`: the simplification `s` of a term T is equivalent to T, as a fresh
    /// solver (under [`SIMPLIFY_RLIMIT`]) finds `(distinct T S)` not satisfiable. Holds where `s`
    /// is no simplification (a minimizer replaced it) and where the solver answers unknown.
    fn check_simplify(&mut self, check: &Check, s: TermId) -> Result<(), ExecError> {
        let Some((from, with_params)) = self.simplified_from.get(&s).copied() else {
            return Ok(());
        };
        let (Some(original), Some(simplified)) = (self.terms.get(&from), self.terms.get(&s)) else {
            return Ok(());
        };
        let (original, simplified) = (original.clone(), simplified.clone());
        // A simplification Z3 left unchanged is the same term: nothing to ask a solver.
        if original == simplified {
            self.count("simplifications: unchanged");
            return Ok(());
        }
        let answer = self.main(|| {
            let solver = reference_solver(Some(SIMPLIFY_RLIMIT));
            // Sorts differ only where Z3 changed a term's sort: a finding too.
            let differs = match original.safe_eq(&simplified) {
                Ok(eq) => eq.not(),
                Err(_) => z3::ast::Bool::from_bool(true),
            };
            solver.assert(&differs);
            solver.check()
        })?;
        match answer {
            z3::SatResult::Sat => {
                let call = if with_params {
                    "simplify_with"
                } else {
                    "simplify"
                };
                Err(Self::finding(
                    check,
                    format!(
                        "{s} (a simplification of {from}) differs from {from} in a model: \
                         (distinct {from} {s}) is satisfiable"
                    ),
                    format!("{call} changes a term's value"),
                ))
            }
            z3::SatResult::Unsat => {
                self.count("simplifications: equivalent");
                Ok(())
            }
            _ => {
                self.count("simplifications: skipped: equivalence unknown");
                Ok(())
            }
        }
    }

    /// `check_quant`: a fresh solver given model `m` as definitions (uninterpreted sorts with
    /// their universe: distinct elements, and every value one of them) finds `(not T)`
    /// unsatisfiable. Only for quantified assertions the independent evaluator cannot judge;
    /// `unknown` (the resource limit) is no verdict, and so is `sat` where T has an operation
    /// SMT-LIB leaves open somewhere or a variable over a sort without universe.
    fn check_quant(&mut self, check: &Check, m: ModelId, t: TermId) -> Result<(), ExecError> {
        if !self.premise_of(m, t) || !self.state.terms.get(&t).is_some_and(|i| i.quantified) {
            return Ok(());
        }
        let Some(Ok(text)) = self.texts.as_ref().map(|texts| texts.text(t)) else {
            self.count("quantified: skipped: no SMT-LIB text");
            return Ok(());
        };
        // What the independent evaluator judges is `check_indep`'s.
        if let Some(Ok(_)) = self.evaluated(m, t) {
            self.count("quantified: judged by the independent evaluator");
            return Ok(());
        }
        let Some(slot) = self.models.get(&m) else {
            return Ok(());
        };
        let model_text = guard::guarded(&slot.ctx, || {
            let definitions = z3_model::model_text(&slot.model)?;
            let mut universes = String::new();
            let mut with_universe = BTreeSet::new();
            for (sort, elements) in slot.model.sort_universes() {
                with_universe.insert(sort.to_string());
                let names: Vec<String> = elements.iter().map(|e| e.to_string()).collect();
                if names.len() > 1 {
                    universes.push_str(&format!("(assert (distinct {}))\n", names.join(" ")));
                }
                let any: Vec<String> = names.iter().map(|n| format!("(= _u {n})")).collect();
                universes.push_str(&format!(
                    "(assert (forall ((_u {sort})) (or false {})))\n",
                    any.join(" ")
                ));
            }
            Some((definitions, universes, with_universe))
        })
        .ok()
        .flatten();
        let Some((definitions, universes, with_universe)) = model_text else {
            self.count("quantified: skipped: model text unreadable");
            return Ok(());
        };
        let mut script = String::new();
        let mut declared = BTreeSet::new();
        // A variable over a sort the model gives no universe may range over more values in
        // the fresh solver than in the model: a satisfiable negation is no verdict then.
        let mut free_domain = false;
        for sort in self.state.sorts.values() {
            if let model::Sort::Named(name, params) = sort {
                if params.is_empty() && declared.insert(name.clone()) {
                    if let Some(name) = model::call_text::symbol(name) {
                        script.push_str(&format!("(declare-sort {name} 0)\n"));
                        free_domain |=
                            !with_universe.contains(&name) && text.contains(&format!(" {name})"));
                    }
                }
            }
        }
        // Universe elements first, then functions (an array value names its `as-array`
        // function), then constants; each once.
        let mut seen = BTreeSet::new();
        let lines: Vec<&str> = definitions.lines().filter(|l| seen.insert(*l)).collect();
        let is_constant = |l: &&&str| l.starts_with("(define-fun") && l.contains(" () ");
        let (constants, others): (Vec<&&str>, Vec<&&str>) = lines.iter().partition(is_constant);
        for line in others.into_iter().chain(constants) {
            script.push_str(line);
            script.push('\n');
        }
        script.push_str(&universes);
        script.push_str(&format!("(assert (not {text}))\n"));
        // A context of its own: parsing the model's definitions into the round's context
        // changed what Z3 answered afterwards (model_eval of a constant without completion
        // gave the value parsed here), so a check would perturb the round it checks.
        let answer = guard::fresh_context().and_then(|scratch| {
            guard::in_context(&scratch, || {
                let solver = reference_solver(Some(QUANT_RLIMIT));
                solver.from_string(script.as_str());
                solver.check()
            })
        });
        match answer {
            Ok(z3::SatResult::Unsat) => {
                self.count("quantified: hold by a fresh solver");
                Ok(())
            }
            Ok(z3::SatResult::Sat) if !free_domain && !has_partial_operation(&text) => {
                let solver = self.state.models.get(&m).copied();
                Err(Self::finding(
                    check,
                    format!(
                        "quantified assertion {t} is false under model {m}: a fresh solver \
                         given the model finds its negation satisfiable"
                    ),
                    format!(
                        "a model of the {} falsifies a quantified assertion",
                        solver.map_or("solver", |z| self.solver_class(z))
                    ),
                ))
            }
            Ok(z3::SatResult::Sat) => {
                self.count("quantified: skipped: negation sat through a partial operation or a sort without universe");
                Ok(())
            }
            Ok(z3::SatResult::Unknown) => {
                self.count("quantified: skipped: unknown");
                Ok(())
            }
            Err(_) => {
                self.count("quantified: skipped: the script does not parse");
                Ok(())
            }
        }
    }

    /// The independent evaluator's reading of model `m`'s values (once per model).
    fn model_values(&mut self, m: ModelId) -> Option<&eval::Model> {
        let slot = self.models.get(&m)?;
        if slot.independent.values.is_none() {
            let values = match (&slot.hand, &self.texts) {
                // What the trace wrote into a model built by hand, not Z3's reading of it.
                (Some(hand), Some(texts)) => hand
                    .definitions(texts, &self.state)
                    .and_then(|t| eval::Model::parse(&t).ok()),
                (Some(_), None) => None,
                (None, _) => {
                    let text = guard::guarded(&slot.ctx, || z3_model::model_text(&slot.model))
                        .ok()
                        .flatten();
                    // Z3 prints the definitions one after another; the reader wants one list.
                    text.and_then(|t| eval::Model::parse(&format!("({t})")).ok())
                }
            };
            self.count(if values.is_some() { MODELS } else { NO_MODEL });
            if let Some(slot) = self.models.get_mut(&m) {
                slot.independent.values = Some(values);
            }
        }
        self.models.get(&m)?.independent.values.as_ref()?.as_ref()
    }

    /// The independent evaluator's result for term `t` under model `m`, evaluated once per
    /// model and term; `None` when `t` has no SMT-LIB text or `m` no values it reads.
    fn evaluated(&mut self, m: ModelId, t: TermId) -> Option<Result<Value, EvalError>> {
        if let Some(result) = self.models.get(&m)?.independent.evaluated.get(&t) {
            return Some(result.clone());
        }
        let text = self.texts.as_ref()?.text(t).ok()?;
        let env = Rc::clone(&self.datatype_env);
        let result = eval::evaluate_str_in(&text, &env, self.model_values(m)?);
        self.models
            .get_mut(&m)?
            .independent
            .evaluated
            .insert(t, result.clone());
        Some(result)
    }

    /// Whether term `t` has an SMT-LIB text for the independent evaluator.
    fn has_text(&self, t: TermId) -> bool {
        self.texts
            .as_ref()
            .is_some_and(|texts| texts.text(t).is_ok())
    }

    /// Our value of term `t` under model `m`, counting why there is none.
    fn ours(&mut self, m: ModelId, t: TermId, assertion: bool) -> Ours {
        let Some(result) = self.evaluated(m, t) else {
            if !self.has_text(t) {
                self.count_for(assertion, NO_TEXT);
                self.count_unjudged(m, t);
            }
            return Ours::Skipped;
        };
        self.count_for(assertion, CHECKED);
        match result {
            Ok(v) => Ours::Value(v),
            Err(EvalError::Open(reasons)) => {
                self.count_for(assertion, OPEN);
                if reasons.iter().any(|r| r.starts_with(UNSUPPORTED_REASON)) {
                    self.count_unjudged(m, t);
                }
                Ours::Skipped
            }
            Err(EvalError::Error(_)) => {
                self.count_for(assertion, UNSUPPORTED);
                self.count_unjudged(m, t);
                Ours::Skipped
            }
        }
    }

    /// Counts the call the independent evaluator cannot judge below `t` (which it skipped):
    /// the first term in post-order (arguments first) that has no text, or whose own text
    /// the evaluator refuses or finds unsupported under model `m`.
    fn count_unjudged(&mut self, m: ModelId, t: TermId) {
        let Some(order) = self.texts.as_ref().map(|texts| texts.post_order(t)) else {
            return;
        };
        let mut culprit = None;
        for u in order {
            let judged = match self.evaluated(m, u) {
                Some(Ok(_)) => true,
                Some(Err(EvalError::Open(reasons))) => {
                    !reasons.iter().any(|r| r.starts_with(UNSUPPORTED_REASON))
                }
                Some(Err(EvalError::Error(_))) => false,
                // No text is unjudged; no values (the model unreadable) blames no call.
                None => self.has_text(u),
            };
            if !judged {
                culprit = self.texts.as_ref().and_then(|texts| texts.head(u));
                break;
            }
        }
        if let Some(head) = culprit {
            self.count(&format!("{UNJUDGED_OP}{head}"));
        }
    }

    /// A value Z3 printed, read under model `m` (it may name the model's own functions, such
    /// as an array's `as-array`); `None` when it is no value.
    fn read_value(&mut self, m: ModelId, text: &str) -> Option<Value> {
        let env = Rc::clone(&self.datatype_env);
        eval::evaluate_str_in(text, &env, self.model_values(m)?).ok()
    }

    /// Where Z3's evaluation of `t` under model `m` first departs from ours: the lowest term
    /// below `t` (in post-order) whose value by Z3 differs from its operation applied, by the
    /// independent evaluator, to the values Z3 gives its arguments. Arguments enter as Z3's
    /// values, so a departure is found above terms the evaluator cannot express, and the
    /// operation named is the one Z3 evaluates wrongly (or that our evaluator does), not an
    /// operation above it. Only evaluated on a failed check.
    pub(super) fn departure(&mut self, m: ModelId, t: TermId) -> Option<&'static str> {
        let order = self.texts.as_ref()?.post_order(t);
        let env = Rc::clone(&self.datatype_env);
        let mut z3_values: BTreeMap<TermId, String> = BTreeMap::new();
        for u in order {
            let Ok(value) = self.model_eval(m, u, true) else {
                continue;
            };
            z3_values.insert(u, value);
            let Some((head, expr, args)) = self.texts.as_ref().and_then(|x| x.expr(u)) else {
                continue;
            };
            let bindings: Option<Vec<String>> = args
                .iter()
                .collect::<BTreeSet<_>>()
                .into_iter()
                .map(|a| {
                    let v = z3_values.get(a)?;
                    Some(format!("({} {v})", super::term_text::var(*a)))
                })
                .collect();
            let Some(bindings) = bindings else {
                continue;
            };
            let local = if bindings.is_empty() {
                expr.to_string()
            } else {
                format!("(let ({}) {expr})", bindings.join(" "))
            };
            let values = self.model_values(m)?;
            let (Ok(ours), Ok(theirs)) = (
                eval::evaluate_str_in(&local, &env, values),
                eval::evaluate_str_in(&z3_values[&u], &env, values),
            ) else {
                continue;
            };
            if ours != theirs && ours.has_canonical_form() {
                return Some(head);
            }
        }
        None
    }
}

/// A value text on one line, at most 200 characters (failure messages are one line).
fn shorten(text: &str) -> String {
    let line = guard::one_line(text);
    match line.char_indices().nth(200) {
        Some((i, _)) => format!("{}...", &line[..i]),
        None => line,
    }
}

/// The kind of a sort without its parameters, for a cause shared by every width and format
/// (`BitVec`, `FloatingPoint`).
fn sort_kind(sort: &model::Sort) -> &'static str {
    use model::Sort;
    match sort {
        Sort::Int => "Int",
        Sort::Real => "Real",
        Sort::BitVec(_) => "BitVec",
        Sort::FloatingPoint(..) => "FloatingPoint",
        Sort::String => "String",
        _ => "literal",
    }
}

/// A term as one line of text (Z3 breaks long terms over lines).
fn one_line(term: &z3::ast::Dynamic) -> String {
    term.to_string()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_by_a_term_is_partial_and_by_a_numeral_is_not() {
        assert!(has_partial_operation("(exists ((x Real)) (= r (/ x r)))"));
        assert!(has_partial_operation("(= (/ 1.0 r) 2.0)"));
        assert!(!has_partial_operation(
            "(forall ((x Real)) (> x (/ 1.0 2.0)))"
        ));
        assert!(has_partial_operation("(forall ((x Int)) (= x (mod i x)))"));
    }
}

/// How many distinct values `check_relation` judges a relation over (its axioms cost up to
/// the cube of the number).
const MAX_RELATION_VALUES: usize = 6;

/// A special relation's name, as its trace call says.
fn relation_name(kind: SpecialRelation) -> &'static str {
    match kind {
        SpecialRelation::Order(RelationKind::Linear) => "linear_order",
        SpecialRelation::Order(RelationKind::Partial) => "partial_order",
        SpecialRelation::Order(RelationKind::PiecewiseLinear) => "piecewise_linear_order",
        SpecialRelation::Order(RelationKind::Tree) => "tree_order",
        SpecialRelation::Closure(_) => "transitive_closure",
    }
}

/// An axiom of a special relation that a table breaks, with the values (indices) that show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Broken {
    Reflexive(usize),
    Antisymmetric(usize, usize),
    Transitive(usize, usize, usize),
    Total(usize, usize),
    /// R(x, y), R(x, z), neither R(y, z) nor R(z, y).
    RightTree(usize, usize, usize),
    /// R(y, x), R(z, x), neither R(y, z) nor R(z, y).
    LeftTree(usize, usize, usize),
}

impl Broken {
    fn name(self) -> &'static str {
        match self {
            Broken::Reflexive(_) => "reflexivity",
            Broken::Antisymmetric(..) => "antisymmetry",
            Broken::Transitive(..) => "transitivity",
            Broken::Total(..) => "totality",
            Broken::LeftTree(..) => "the tree axiom (R(y,x), R(z,x) => R(y,z) or R(z,y))",
            Broken::RightTree(..) => "the mirrored tree axiom (R(x,y), R(x,z) => R(y,z) or R(z,y))",
        }
    }

    fn describe(self, v: &dyn Fn(usize) -> String) -> String {
        let detail = match self {
            Broken::Reflexive(x) => format!("not R({0}, {0})", v(x)),
            Broken::Antisymmetric(x, y) => format!("R({0}, {1}) and R({1}, {0})", v(x), v(y)),
            Broken::Transitive(x, y, z) => {
                format!(
                    "R({0}, {1}), R({1}, {2}), not R({0}, {2})",
                    v(x),
                    v(y),
                    v(z)
                )
            }
            Broken::Total(x, y) => format!("neither R({0}, {1}) nor R({1}, {0})", v(x), v(y)),
            Broken::RightTree(x, y, z) => format!(
                "R({0}, {1}), R({0}, {2}), neither R({1}, {2}) nor R({2}, {1})",
                v(x),
                v(y),
                v(z)
            ),
            Broken::LeftTree(x, y, z) => format!(
                "R({1}, {0}), R({2}, {0}), neither R({1}, {2}) nor R({2}, {1})",
                v(x),
                v(y),
                v(z)
            ),
        };
        format!("{}: {detail}", self.name())
    }
}

/// The first axiom of `kind` that the table `r` (`r[i][j]`: R(value i, value j), `None` where
/// the model gives no Boolean) breaks. Distinct indices are distinct values. An entry without
/// a value breaks nothing. A transitive closure is judged transitive only: Z3 builds it over
/// the graph of its relation's atoms in the formula (its documented decision procedure for
/// ground formulas), while a model completes an uninterpreted relation elsewhere too, so
/// that containment of the relation as the model interprets it is no promise.
pub(super) fn relation_violation(kind: SpecialRelation, r: &[Vec<Option<bool>>]) -> Option<Broken> {
    let n = r.len();
    let holds = |i: usize, j: usize| r[i][j] == Some(true);
    let fails = |i: usize, j: usize| r[i][j] == Some(false);
    let order = match kind {
        SpecialRelation::Order(kind) => Some(kind),
        SpecialRelation::Closure(_) => None,
    };
    if order.is_some() {
        for x in 0..n {
            if fails(x, x) {
                return Some(Broken::Reflexive(x));
            }
        }
        for x in 0..n {
            for y in 0..n {
                if x != y && holds(x, y) && holds(y, x) {
                    return Some(Broken::Antisymmetric(x, y));
                }
            }
        }
    }
    for x in 0..n {
        for y in 0..n {
            for z in 0..n {
                if holds(x, y) && holds(y, z) && fails(x, z) {
                    return Some(Broken::Transitive(x, y, z));
                }
            }
        }
    }
    let incomparable = |y: usize, z: usize| fails(y, z) && fails(z, y);
    match order {
        Some(RelationKind::Linear) => {
            for x in 0..n {
                for y in 0..n {
                    if incomparable(x, y) {
                        return Some(Broken::Total(x, y));
                    }
                }
            }
        }
        Some(RelationKind::Tree | RelationKind::PiecewiseLinear) => {
            let piecewise = order == Some(RelationKind::PiecewiseLinear);
            for x in 0..n {
                for y in 0..n {
                    for z in 0..n {
                        if holds(y, x) && holds(z, x) && incomparable(y, z) {
                            return Some(Broken::LeftTree(x, y, z));
                        }
                        if piecewise && holds(x, y) && holds(x, z) && incomparable(y, z) {
                            return Some(Broken::RightTree(x, y, z));
                        }
                    }
                }
            }
        }
        Some(RelationKind::Partial) | None => {}
    }
    None
}

#[cfg(test)]
mod relation_tests {
    use super::*;

    fn table(rows: &[&str]) -> Vec<Vec<Option<bool>>> {
        rows.iter()
            .map(|r| {
                r.chars()
                    .map(|c| match c {
                        '1' => Some(true),
                        '0' => Some(false),
                        _ => None,
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn each_axiom_is_judged_on_the_table() {
        let order = |k| SpecialRelation::Order(k);
        let le = table(&["111", "011", "001"]);
        for kind in RelationKind::ALL {
            assert_eq!(relation_violation(order(kind), &le), None, "{kind:?}");
        }
        assert_eq!(
            relation_violation(order(RelationKind::Partial), &table(&["01", "01"])),
            Some(Broken::Reflexive(0))
        );
        assert_eq!(
            relation_violation(order(RelationKind::Partial), &table(&["11", "11"])),
            Some(Broken::Antisymmetric(0, 1))
        );
        assert_eq!(
            relation_violation(order(RelationKind::Partial), &table(&["110", "111", "001"]))
                .map(Broken::name),
            Some("antisymmetry")
        );
        let diamond = table(&["111", "010", "001"]);
        assert_eq!(
            relation_violation(order(RelationKind::Partial), &diamond),
            None
        );
        assert_eq!(
            relation_violation(order(RelationKind::Linear), &diamond),
            Some(Broken::Total(1, 2))
        );
        // A tree order has the elements below any element comparable (Z3: `(R b a)`,
        // `(R c a)` and b, c incomparable is unsat), not those above.
        assert_eq!(
            relation_violation(order(RelationKind::Tree), &diamond),
            None
        );
        assert_eq!(
            relation_violation(order(RelationKind::PiecewiseLinear), &diamond),
            Some(Broken::RightTree(0, 1, 2))
        );
        let roots = table(&["101", "011", "001"]);
        assert_eq!(
            relation_violation(order(RelationKind::Tree), &roots),
            Some(Broken::LeftTree(2, 0, 1))
        );
        let closure = SpecialRelation::Closure(FuncId(1));
        assert_eq!(
            relation_violation(closure, &table(&["011", "001", "000"])),
            None
        );
        assert_eq!(
            relation_violation(closure, &table(&["010", "001", "000"])),
            Some(Broken::Transitive(0, 1, 2))
        );
        // A closure need not be reflexive.
        assert_eq!(relation_violation(closure, &table(&["0"])), None);
        // Unknown entries break nothing.
        assert_eq!(
            relation_violation(order(RelationKind::Linear), &table(&["?0", "0?"])),
            Some(Broken::Total(0, 1))
        );
        assert_eq!(
            relation_violation(order(RelationKind::Linear), &table(&["??", "??"])),
            None
        );
    }
}

/// The most members of a congruence class `check_congruence` walks.
const MAX_CONGRUENCE_CLASS: usize = 64;

type SolverAstToAst = unsafe extern "C" fn(
    z3_sys::Z3_context,
    z3_sys::Z3_solver,
    z3_sys::Z3_ast,
) -> Option<z3_sys::Z3_ast>;
type SolverAst2ToAst = unsafe extern "C" fn(
    z3_sys::Z3_context,
    z3_sys::Z3_solver,
    z3_sys::Z3_ast,
    z3_sys::Z3_ast,
) -> Option<z3_sys::Z3_ast>;

/// What breaks `check_congruence` for the subjects, after the solver answered sat: a class
/// member whose model value differs from its term's, or an explanation the model makes false.
///
/// # Safety
/// `solver` answered sat in `ctx` (the thread-local context of the guard); the subjects are
/// terms of `ctx`.
unsafe fn congruence_violation(
    ctx: &z3::Context,
    solver: &RawSolver,
    subjects: &[Dynamic],
) -> Option<String> {
    use z3_sys::*;
    let (c, s) = solver.raw();
    let root_of: SolverAstToAst = super::read::typed("Z3_solver_congruence_root").ok()?;
    let next_of: SolverAstToAst = super::read::typed("Z3_solver_congruence_next").ok()?;
    let explain: SolverAst2ToAst = super::read::typed("Z3_solver_congruence_explain").ok()?;
    let model = Z3_solver_get_model(c, s)?;
    Z3_model_inc_ref(c, model);
    // Terms Z3 hands out are wrapped at once, so that each holds a reference.
    let wrap = |a: Option<Z3_ast>| a.map(|a| Dynamic::wrap(ctx, a));
    let value = |t: &Dynamic| -> Option<Dynamic> {
        let mut out = None;
        let ok = Z3_model_eval(c, model, t.get_z3_ast(), true, &mut out as *mut _ as *mut _);
        if !ok {
            return None;
        }
        let v = wrap(out)?;
        let a = v.get_z3_ast();
        let plain =
            Z3_is_numeral_ast(c, a) || Z3_get_bool_value(c, a) != Z3_L_UNDEF || Z3_is_string(c, a);
        plain.then_some(v)
    };
    let mut problem = None;
    'subjects: for t in subjects {
        let Some(root) = wrap(root_of(c, s, t.get_z3_ast())) else {
            continue;
        };
        let mut members = vec![root.clone()];
        let mut member = t.clone();
        for _ in 0..MAX_CONGRUENCE_CLASS {
            let Some(next) = wrap(next_of(c, s, member.get_z3_ast())) else {
                break;
            };
            super::unlogged::note("Z3_is_eq_ast");
            if Z3_is_eq_ast(c, next.get_z3_ast(), t.get_z3_ast()) {
                break;
            }
            members.push(next.clone());
            member = next;
        }
        let Some(expected) = value(t) else {
            continue;
        };
        for m in &members {
            if let Some(got) = value(m) {
                super::unlogged::note("Z3_is_eq_ast");
                if !Z3_is_eq_ast(c, got.get_z3_ast(), expected.get_z3_ast()) {
                    problem = Some(format!(
                        "{m} is congruent to {t} (root {root}) but the model gives {got}, not {expected}"
                    ));
                    break 'subjects;
                }
            }
        }
        if let Some(why) = wrap(explain(c, s, t.get_z3_ast(), root.get_z3_ast())) {
            if let Some(b) = value(&why)
                .and_then(|v| v.as_bool())
                .and_then(|b| b.as_bool())
            {
                if !b {
                    problem = Some(format!(
                        "the explanation {why} of {t} = {root} is false in the model"
                    ));
                    break 'subjects;
                }
            }
        }
    }
    Z3_model_dec_ref(c, model);
    problem
}

/// Z's last check as [`Executor::last_check`] gives it to the checks that ask it again.
pub(super) struct LastCheck {
    /// Z's definite answer.
    pub expected: SatResult,
    pub assertions: Vec<Dynamic>,
    /// The assumptions of the last check.
    pub assumed: Vec<Dynamic>,
    /// Z's context, and whether it is another than the thread's own.
    pub ctx: z3::Context,
    pub foreign: bool,
}
