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

use super::{guard, z3_model, ExecError, Executor};
use model::eval::{self, EvalError, Value};
use model::finding::{Failure, FailureKind};
use model::{Check, ModelId, SatResult, SolverId, SolverKind, TermId};
use std::collections::{BTreeMap, BTreeSet};
use z3::{Params, Solver};

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
    fn definite(&self) -> Option<SatResult> {
        self.answer
            .filter(|a| *a != SatResult::Unknown && !self.changed)
    }

    fn param(&self, key: &str) -> Option<&str> {
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
            Check::Simplify(s) => self.check_simplify(check, *s),
            Check::Goal(g) => self.check_goal(check, *g),
            Check::OptValues { opt, model } => self.check_opt_values(check, *opt, *model),
            Check::OptBetter { opt, model } => self.check_opt_better(check, *opt, *model),
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
                .at_call(check.name()),
        )
    }

    fn finding(check: &Check, message: String, cause: String) -> ExecError {
        ExecError::Oracle(
            Failure::new(check.kind(), message)
                .with_cause(format!("{}: {cause}", check.name()))
                .at_call(check.name()),
        )
    }

    fn solver_kind(&self, z: SolverId) -> String {
        self.state
            .solvers
            .get(&z)
            .map_or_else(|| "solver".into(), |s| kind_text(&s.kind))
    }

    fn solver_class(&self, z: SolverId) -> &'static str {
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
        if self.read_value(model, &value) == Some(Value::Bool(true)) {
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

    fn check_dump(&mut self, check: &Check, z: SolverId) -> Result<(), ExecError> {
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
            if dump_false {
                text.push_str("\n(assert false)\n");
            }
            let fresh = Solver::new();
            if let Some(limit) = rlimit {
                let mut params = Params::new();
                params.set_u32("rlimit", limit);
                fresh.set_params(&params);
            }
            fresh.from_string(text.as_str());
            fresh.check()
        })
        .map_err(ExecError::Z3)?;
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
            let solver = Solver::new();
            let mut params = Params::new();
            params.set_u32("rlimit", SIMPLIFY_RLIMIT);
            solver.set_params(&params);
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

    /// The independent evaluator's reading of model `m`'s values (once per model).
    fn model_values(&mut self, m: ModelId) -> Option<&eval::Model> {
        let slot = self.models.get(&m)?;
        if slot.values.is_none() {
            let text = guard::guarded(&slot.ctx, || z3_model::model_text(&slot.model))
                .ok()
                .flatten();
            // Z3 prints the definitions one after another; the reader wants one list.
            let values = text.and_then(|t| eval::Model::parse(&format!("({t})")).ok());
            self.count(if values.is_some() { MODELS } else { NO_MODEL });
            if let Some(slot) = self.models.get_mut(&m) {
                slot.values = Some(values);
            }
        }
        self.models.get(&m)?.values.as_ref()?.as_ref()
    }

    /// Our value of term `t` under model `m`, counting why there is none.
    fn ours(&mut self, m: ModelId, t: TermId, assertion: bool) -> Ours {
        let text = match self.texts.as_ref().map(|texts| texts.text(t)) {
            Some(Ok(text)) => text,
            _ => {
                self.count_for(assertion, NO_TEXT);
                self.count_unjudged(m, t);
                return Ours::Skipped;
            }
        };
        let Some(values) = self.model_values(m) else {
            return Ours::Skipped;
        };
        let result = eval::evaluate_str(&text, values);
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
        let Some(texts) = self.texts.as_ref() else {
            return;
        };
        let mut culprit = None;
        for u in texts.post_order(t) {
            let judged = match texts.text(u) {
                Err(_) => false,
                Ok(text) => match self
                    .models
                    .get(&m)
                    .and_then(|s| s.values.as_ref()?.as_ref())
                {
                    Some(values) => match eval::evaluate_str(&text, values) {
                        Ok(_) => true,
                        Err(EvalError::Open(reasons)) => {
                            !reasons.iter().any(|r| r.starts_with(UNSUPPORTED_REASON))
                        }
                        Err(EvalError::Error(_)) => false,
                    },
                    None => true,
                },
            };
            if !judged {
                culprit = texts.head(u);
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
        eval::evaluate_str(text, self.model_values(m)?).ok()
    }

    /// Where Z3's evaluation of `t` under model `m` first departs from ours: the lowest term
    /// below `t` (in post-order) whose value by Z3 differs from its operation applied, by the
    /// independent evaluator, to the values Z3 gives its arguments. Arguments enter as Z3's
    /// values, so a departure is found above terms the evaluator cannot express, and the
    /// operation named is the one Z3 evaluates wrongly (or that our evaluator does), not an
    /// operation above it. Only evaluated on a failed check.
    pub(super) fn departure(&mut self, m: ModelId, t: TermId) -> Option<&'static str> {
        let order = self.texts.as_ref()?.post_order(t);
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
                eval::evaluate_str(&local, values),
                eval::evaluate_str(&z3_values[&u], values),
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
