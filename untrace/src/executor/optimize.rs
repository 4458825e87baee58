//! Optimize contexts in the executor: hard and soft constraints, objectives, scopes, check,
//! model and bounds (the `z3` crate's `Optimize`), and the two Optimize oracles:
//! `check_opt_values` (each reported objective value is the objective's value in the model)
//! and `check_opt_better` (no model of the hard constraints beats the reported optimum in
//! lexicographic order, asked of a fresh solver under a resource limit).
//!
//! Objectives are numbered as Z3 numbers them: in the order they were made, a soft group
//! once (at its first soft constraint). Both checks judge the objectives in that order up to
//! the first whose bounds are not one finite value (unbounded, infinitesimal, or a lower
//! bound below the upper): the later ones were optimized with it fixed at a value no model
//! has. Models of an Optimize context are models like any other: `check_model` and
//! `check_indep` judge the hard constraints under them.

use super::{guard, ExecError, Executor, ModelSlot, Outcome};
use model::finding::{Failure, FailureKind};
use model::{Check, Direction, ModelId, OptId, SatResult, TermId};
use z3::ast::{Ast, Bool, Dynamic, Int, Real, BV};
use z3::{Optimize, Params};

/// The resource limit of each solver `check_opt_better` asks.
pub const OPT_BETTER_RLIMIT: u32 = 100_000;

/// What an Optimize context was given, per scope.
#[derive(Clone, Debug)]
pub enum OptItem {
    Hard(TermId),
    Soft {
        term: TermId,
        weight: u32,
        group: String,
    },
    Objective {
        term: TermId,
        direction: Direction,
    },
}

pub struct OptSlot {
    pub opt: Optimize,
    /// What was asserted and declared, per scope (`scopes[0]` the base level).
    pub scopes: Vec<Vec<OptItem>>,
    /// Models taken since the last check answered sat, with nothing changed since.
    pub current_models: Vec<ModelId>,
    /// The last check answered sat and nothing changed since.
    pub sat: bool,
}

/// An objective as Z3 numbers them.
pub(super) enum Objective {
    Term {
        term: TermId,
        direction: Direction,
    },
    /// A soft group: its constraints with their weights (the objective is the sum of the
    /// weights of those violated, minimized).
    Soft(Vec<(TermId, u32)>),
}

impl OptSlot {
    pub fn new(opt: Optimize) -> OptSlot {
        OptSlot {
            opt,
            scopes: vec![Vec::new()],
            current_models: Vec::new(),
            sat: false,
        }
    }

    fn changed(&mut self) {
        self.sat = false;
        self.current_models.clear();
    }

    pub fn add(&mut self, item: OptItem) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.push(item);
        }
        self.changed();
    }

    pub fn push(&mut self) {
        self.scopes.push(Vec::new());
        self.changed();
    }

    pub fn pop(&mut self) {
        if self.scopes.len() > 1 {
            self.scopes.pop();
        }
        self.changed();
    }

    pub fn checked(&mut self, answer: SatResult) {
        self.changed();
        self.sat = answer == SatResult::Sat;
    }

    pub fn hard(&self) -> Vec<TermId> {
        self.scopes
            .iter()
            .flatten()
            .filter_map(|i| match i {
                OptItem::Hard(t) => Some(*t),
                _ => None,
            })
            .collect()
    }

    pub(super) fn objectives(&self) -> Vec<Objective> {
        let mut out: Vec<Objective> = Vec::new();
        let mut groups: Vec<(String, usize)> = Vec::new();
        for item in self.scopes.iter().flatten() {
            match item {
                OptItem::Hard(_) => {}
                OptItem::Objective { term, direction } => out.push(Objective::Term {
                    term: *term,
                    direction: *direction,
                }),
                OptItem::Soft {
                    term,
                    weight,
                    group,
                } => match groups.iter().find(|(g, _)| g == group) {
                    Some((_, at)) => {
                        if let Objective::Soft(members) = &mut out[*at] {
                            members.push((*term, *weight));
                        }
                    }
                    None => {
                        groups.push((group.clone(), out.len()));
                        out.push(Objective::Soft(vec![(*term, *weight)]));
                    }
                },
            }
        }
        out
    }
}

/// Terms with their weights (a soft group's constraints; an objective's term, weight 0).
type Weighted = Vec<(Dynamic, u32)>;

/// An objective's optimum and the term that has it, ready for the checks.
struct Judged {
    /// The terms it is made of (the objective's, a soft group's constraints).
    terms: Vec<TermId>,
    /// The objective as a term (a soft group's penalty as `(+ (ite s 0 w) ...)`).
    term: Dynamic,
    /// Minimized (soft groups are) or maximized.
    direction: Direction,
    /// The value Z3 reported (lower = upper), converted to the term's sort.
    reported: Dynamic,
    /// The term's value in the model.
    in_model: Dynamic,
}

impl Executor {
    pub(super) fn opt_slot(&self, o: OptId) -> Result<&OptSlot, ExecError> {
        self.opts
            .get(&o)
            .ok_or_else(|| ExecError::Malformed(format!("optimize context {o} is not defined")))
    }

    pub(super) fn opt_slot_mut(&mut self, o: OptId) -> Result<&mut OptSlot, ExecError> {
        self.opts
            .get_mut(&o)
            .ok_or_else(|| ExecError::Malformed(format!("optimize context {o} is not defined")))
    }

    pub(super) fn opt_call(&mut self, call: &model::Call) -> Result<Outcome, ExecError> {
        use model::Call as C;
        match call {
            C::NewOptimize => Ok(Outcome::Opt(OptSlot::new(self.main(Optimize::new)?))),
            C::OptSetParam { opt, key, value } => {
                let kind = self.param_kind(key);
                let slot = self.opt_slot(*opt)?;
                self.main(|| {
                    let mut params = Params::new();
                    super::set_param(&mut params, key, value, kind);
                    slot.opt.set_params(&params);
                })?;
                self.opt_slot_mut(*opt)?.changed();
                Ok(Outcome::Nothing)
            }
            C::OptAssert(o, t) => {
                let b = self.bool_term(*t)?;
                let slot = self.opt_slot(*o)?;
                self.main(|| slot.opt.assert(&b))?;
                self.opt_slot_mut(*o)?.add(OptItem::Hard(*t));
                Ok(Outcome::Nothing)
            }
            C::OptAssertSoft {
                opt,
                term,
                weight,
                group,
            } => {
                let b = self.bool_term(*term)?;
                let slot = self.opt_slot(*opt)?;
                self.main(|| {
                    slot.opt
                        .assert_soft(&b, *weight, Some(z3::Symbol::String(group.clone())))
                })?;
                self.opt_slot_mut(*opt)?.add(OptItem::Soft {
                    term: *term,
                    weight: *weight,
                    group: group.clone(),
                });
                Ok(Outcome::Nothing)
            }
            C::OptObjective {
                opt,
                term,
                direction,
            } => {
                let t = self.z3_term(*term)?.clone();
                let slot = self.opt_slot(*opt)?;
                self.main(|| match direction {
                    Direction::Minimize => slot.opt.minimize(&t),
                    Direction::Maximize => slot.opt.maximize(&t),
                })?;
                self.opt_slot_mut(*opt)?.add(OptItem::Objective {
                    term: *term,
                    direction: *direction,
                });
                Ok(Outcome::Nothing)
            }
            C::OptPush(o) => {
                let slot = self.opt_slot(*o)?;
                self.main(|| slot.opt.push())?;
                self.opt_slot_mut(*o)?.push();
                Ok(Outcome::Nothing)
            }
            C::OptPop(o) => {
                let slot = self.opt_slot(*o)?;
                self.main(|| slot.opt.pop())?;
                self.opt_slot_mut(*o)?.pop();
                Ok(Outcome::Nothing)
            }
            C::OptCheck(o) => {
                let slot = self.opt_slot(*o)?;
                let answer = super::sat(self.main(|| slot.opt.check(&[]))?);
                self.opt_slot_mut(*o)?.checked(answer);
                Ok(Outcome::Sat(answer))
            }
            C::OptGetModel(o) => {
                let slot = self.opt_slot(*o)?;
                let model = self
                    .main(|| slot.opt.get_model())?
                    .ok_or_else(|| super::z3err(format!("{o} has no model")))?;
                Ok(Outcome::Model(ModelSlot {
                    model,
                    ctx: self.main.clone(),
                    foreign: false,
                    premises: slot.hard(),
                    independent: Default::default(),
                    hand: None,
                }))
            }
            C::OptBound { opt, index, upper } => {
                let slot = self.opt_slot(*opt)?;
                let bound = self.main(|| {
                    if *upper {
                        slot.opt.get_upper(*index)
                    } else {
                        slot.opt.get_lower(*index)
                    }
                })?;
                let bound = bound.ok_or_else(|| {
                    super::z3err(format!("no bound of objective {index} of {opt}"))
                })?;
                Ok(Outcome::Value(guard::one_line(&bound.to_string())))
            }
            _ => Err(ExecError::Malformed(format!(
                "`{}` is no Optimize call",
                call.name()
            ))),
        }
    }

    fn bool_term(&self, t: TermId) -> Result<Bool, ExecError> {
        self.z3_term(t)?
            .as_bool()
            .ok_or_else(|| ExecError::Malformed(format!("term {t} is not Bool")))
    }

    /// A model of `o` taken after its last check answered sat, nothing changed since.
    pub(super) fn bind_opt_model(&mut self, o: OptId, m: ModelId) {
        if let Some(slot) = self.opts.get_mut(&o) {
            if slot.sat {
                slot.current_models.push(m);
            }
        }
    }

    /// The objectives of `o` that both checks judge, in Z3's order, with their reported
    /// optimum and value in model `m`: `None` when `m` is not a model of `o`'s current
    /// formula (the premise).
    fn judged_objectives(
        &mut self,
        o: OptId,
        m: ModelId,
    ) -> Result<Option<Vec<Judged>>, ExecError> {
        let Some(slot) = self.opts.get(&o) else {
            return Ok(None);
        };
        let Some(model) = self.models.get(&m) else {
            return Ok(None);
        };
        if !slot.current_models.contains(&m) {
            return Ok(None);
        }
        let objectives = slot.objectives();
        let mut terms = Vec::new();
        for objective in &objectives {
            terms.push(match objective {
                Objective::Term { term, direction } => (vec![(*term, 0)], Some(*direction)),
                Objective::Soft(members) => (members.clone(), None),
            });
        }
        let ids: Vec<Vec<TermId>> = terms
            .iter()
            .map(|(members, _)| members.iter().map(|(t, _)| *t).collect())
            .collect();
        let mut z3_terms: Vec<(Weighted, Option<Direction>)> = Vec::new();
        for (members, direction) in terms {
            let ts = members
                .iter()
                .map(|(t, w)| Ok((self.z3_term(*t)?.clone(), *w)))
                .collect::<Result<Vec<_>, ExecError>>()?;
            z3_terms.push((ts, direction));
        }
        let wrong_value = matches!(
            self.config.inject,
            Some(super::inject::Fault::WrongOptValue)
        );
        let judged = self.main(|| {
            let mut judged = Vec::new();
            for (i, (members, direction)) in z3_terms.iter().enumerate() {
                let (lower, upper) = (slot.opt.get_lower(i as u32), slot.opt.get_upper(i as u32));
                let (Some(lower), Some(upper)) = (lower, upper) else {
                    break;
                };
                let text = lower.to_string();
                if text.contains("oo") || text.contains("epsilon") || lower != upper {
                    break;
                }
                let term = match direction {
                    Some(_) => members[0].0.clone(),
                    None => penalty(members),
                };
                let Some(reported) = coerce(&lower.simplify(), &term) else {
                    break;
                };
                let reported = if wrong_value {
                    step(&reported, false)
                } else {
                    reported
                };
                let Some(in_model) = model.model.eval(&term, true) else {
                    break;
                };
                judged.push(Judged {
                    terms: ids[i].clone(),
                    term,
                    direction: direction.unwrap_or(Direction::Minimize),
                    reported,
                    in_model,
                });
            }
            judged
        })?;
        Ok(Some(judged))
    }

    /// `check_opt_values`: each judged objective's reported optimum is its value in the model.
    pub(super) fn check_opt_values(
        &mut self,
        check: &Check,
        o: OptId,
        m: ModelId,
    ) -> Result<(), ExecError> {
        let Some(judged) = self.judged_objectives(o, m)? else {
            return Ok(());
        };
        for (i, j) in judged.iter().enumerate() {
            let same = self.main(|| {
                j.reported
                    .safe_eq(&j.in_model)
                    .ok()
                    .map(|e| e.simplify())
                    .and_then(|e| e.as_bool())
            })?;
            match same {
                Some(true) => self.count("objectives: value agrees with the model"),
                Some(false) => {
                    let message = format!(
                        "objective {i} of {o}: Z3 reports the optimum {} but its value in model \
                         {m} is {}",
                        one_line(&j.reported),
                        one_line(&j.in_model)
                    );
                    return Err(self.opt_failure(
                        check,
                        m,
                        &j.terms,
                        message,
                        "the reported optimum is not the model's value",
                    ));
                }
                None => self.count("objectives: skipped: values not comparable"),
            }
        }
        Ok(())
    }

    /// `check_opt_better`: for each judged objective, a fresh solver given the hard
    /// constraints, the objectives before it at their values in the model, and the objective
    /// strictly better than its value in the model finds no model.
    pub(super) fn check_opt_better(
        &mut self,
        check: &Check,
        o: OptId,
        m: ModelId,
    ) -> Result<(), ExecError> {
        let Some(judged) = self.judged_objectives(o, m)? else {
            return Ok(());
        };
        let worse = matches!(self.config.inject, Some(super::inject::Fault::WorseOptimum));
        let hard = self
            .opt_slot(o)?
            .hard()
            .into_iter()
            .map(|t| self.bool_term(t))
            .collect::<Result<Vec<_>, _>>()?;
        for (i, j) in judged.iter().enumerate() {
            let answer = self.main(|| {
                let solver = super::raw_solver::reference_solver(Some(OPT_BETTER_RLIMIT));
                for h in &hard {
                    solver.assert(h);
                }
                for before in &judged[..i] {
                    if let Ok(eq) = before.term.safe_eq(&before.in_model) {
                        solver.assert(&eq);
                    }
                }
                let in_model = if worse {
                    step(&j.in_model, j.direction == Direction::Maximize)
                } else {
                    j.in_model.clone()
                };
                match better(&j.term, &in_model, j.direction) {
                    Some(b) => {
                        solver.assert(&b);
                        solver.check()
                    }
                    None => z3::SatResult::Unknown,
                }
            })?;
            match answer {
                z3::SatResult::Unsat => self.count("objectives: optimal"),
                z3::SatResult::Unknown => self.count("objectives: skipped: unknown"),
                z3::SatResult::Sat => {
                    let verb = match j.direction {
                        Direction::Minimize => "smaller",
                        Direction::Maximize => "larger",
                    };
                    let message = format!(
                        "objective {i} of {o}: Z3 reports the optimum {}, but the hard \
                         constraints have a model with a {verb} value (the objectives before it \
                         unchanged)",
                        one_line(&j.in_model)
                    );
                    let terms: Vec<TermId> =
                        judged[..=i].iter().flat_map(|j| j.terms.clone()).collect();
                    return Err(self.opt_failure(
                        check,
                        m,
                        &terms,
                        message,
                        "a model beats the reported optimum",
                    ));
                }
            }
        }
        Ok(())
    }
}

impl Executor {
    /// A failed Optimize check. Where Z3's evaluation of one of `terms` under the model
    /// departs from the independent evaluator, that operation is the root cause (the values
    /// the check compared came from Z3's evaluation), and the finding is that
    /// evaluation disagreement, one signature whichever check meets it.
    fn opt_failure(
        &mut self,
        check: &Check,
        m: ModelId,
        terms: &[TermId],
        message: String,
        cause: &str,
    ) -> ExecError {
        for t in terms {
            if let Some(head) = self.departure(m, *t) {
                return Self::departure_finding(check, message, head);
            }
        }
        ExecError::Oracle(
            Failure::new(FailureKind::Optimize, message)
                .with_cause(format!("{}: {cause}", check.name()))
                .at_call(check.name()),
        )
    }
}

/// A soft group's penalty: the sum of the weights of its violated constraints.
pub(super) fn penalty(members: &[(Dynamic, u32)]) -> Dynamic {
    let parts: Vec<Int> = members
        .iter()
        .map(|(t, w)| {
            let b = t.as_bool().unwrap_or_else(|| Bool::from_bool(true));
            b.ite(&Int::from_u64(0), &Int::from_u64(u64::from(*w)))
        })
        .collect();
    Dynamic::from_ast(&Int::add(&parts))
}

/// Z3's reported value as a numeral of `like`'s sort: an Int or Real value for an Int or
/// Real objective (a soft penalty is an Int), a bit-vector objective's value (Z3 reports it
/// as an integer) as a bit-vector.
fn coerce(value: &Dynamic, like: &Dynamic) -> Option<Dynamic> {
    let sort = like.get_sort();
    if value.get_sort() == sort {
        return Some(value.clone());
    }
    match sort.kind() {
        z3::SortKind::Real => {
            let as_int = value.as_int()?;
            Some(Dynamic::from_ast(&Real::from_int(&as_int)))
        }
        z3::SortKind::Int => {
            // A Real value of an integer objective: equal when it is integral.
            let r = value.as_real()?;
            Some(Dynamic::from_ast(&r.to_int()))
        }
        z3::SortKind::Bv => {
            let width = like.as_bv()?.get_size();
            let as_int = value.as_int()?;
            Some(Dynamic::from_ast(&BV::from_int(&as_int, width)).simplify())
        }
        _ => None,
    }
}

/// A value one larger, or one smaller with `down` (injected faults).
fn step(value: &Dynamic, down: bool) -> Dynamic {
    let stepped = if let Some(i) = value.as_int() {
        let one = Int::from_u64(1);
        Dynamic::from_ast(&if down { i - one } else { i + one })
    } else if let Some(r) = value.as_real() {
        let one = Real::from_int(&Int::from_u64(1));
        Dynamic::from_ast(&if down { r - one } else { r + one })
    } else if let Some(b) = value.as_bv() {
        let one = BV::from_u64(1, b.get_size());
        Dynamic::from_ast(&if down { b.bvsub(&one) } else { b.bvadd(&one) })
    } else {
        return value.clone();
    };
    stepped.simplify()
}

/// `term` strictly better than `value` in `direction` (unsigned for bit-vectors).
fn better(term: &Dynamic, value: &Dynamic, direction: Direction) -> Option<Bool> {
    let min = direction == Direction::Minimize;
    if let (Some(t), Some(v)) = (term.as_int(), value.as_int()) {
        return Some(if min { t.lt(&v) } else { t.gt(&v) });
    }
    if let (Some(t), Some(v)) = (term.as_real(), value.as_real()) {
        return Some(if min { t.lt(&v) } else { t.gt(&v) });
    }
    if let (Some(t), Some(v)) = (term.as_bv(), value.as_bv()) {
        return Some(if min { t.bvult(&v) } else { t.bvugt(&v) });
    }
    None
}

fn one_line(term: &Dynamic) -> String {
    guard::one_line(&term.to_string())
}
