//! The evaluator of ground terms: [`Evaluator::eval`] walks an SMT-LIB tree node under an
//! [`Env`] (the problem's definitions) and a [`Model`] and returns its [`Value`].
//!
//! Evaluation is three-valued: `Ok(None)` means the value depends on something the model leaves
//! open: a symbol without a value (recorded in [`Evaluator::missing`]), a partial operation
//! outside its domain without a model extension (recorded in [`Evaluator::undefined`]) or a
//! construct this evaluator does not support (in [`Evaluator::unsupported`]). Boolean
//! connectives and `ite` still give a value when the open part cannot change it.
//!
//! Resolution order of a symbol: let/parameter bindings, the problem's definitions, builtins,
//! declared symbols (from the model), other model entries. A model's `div`/`mod`/`/` (or Z3's
//! `div0`/`mod0`/`/0`) is consulted only where the builtin is undefined (a zero divisor), and
//! inside it the builtin name means the builtin (the Dolmen model-validation rule).

use super::builtins::{self, PARTIAL};
use super::fp::{self, RoundingMode};
use super::model::{Env, FunDef, Model};
use super::sort_aliases::parse_sort;
use super::source::{Located, Src};
use super::strings::{self, decode_literal};
use super::value::{parse_bv_literal, parse_decimal, values_equal, ArrayValue, BitVec, Value};
use crate::sort::Sort;
use crate::theories::is_rounding_mode;
use crate::{unquote, Atom, NodeId};
use num_bigint::{BigInt, BigUint};
use num_traits::{One, ToPrimitive};
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

/// A value, `None` when it depends on something the model leaves open, or a located error.
pub type Eval = Result<Option<Value>, Located>;

/// Evaluates terms under one environment and model; keep one per model to share its caches.
pub struct Evaluator<'a> {
    env: &'a Env,
    model: &'a Model,
    locals: Locals,
    /// Declared symbols (or functions) the model gives no value, met while evaluating.
    pub missing: BTreeSet<String>,
    /// Applications of partial operations outside their domain with no model extension.
    pub undefined: BTreeSet<String>,
    /// Constructs not supported here (quantifiers, floating point, ...), with their position.
    pub unsupported: BTreeSet<String>,
    /// Definitions whose value depends on a recursive definition unfolded beyond the bound.
    pub unbounded: BTreeSet<String>,
    depth: usize,
    /// Nesting limit: deeper terms are an error rather than a stack overflow. The default
    /// suits an 8 MiB stack; raise it only on a thread with a larger stack.
    pub max_depth: usize,
    steps: u64,
    /// Evaluation step limit (recursive definitions may not terminate).
    pub max_steps: u64,
    in_extension: bool,
    /// Calls in progress per definition (by address), to bound recursive unfolding.
    active: HashMap<usize, u32>,
    /// Recursive calls (of a definition already in progress) made so far.
    unfoldings: u64,
    /// Recursive calls cut off by the bounds so far.
    cut_off: u64,
    /// Assignments of quantified variables tried so far, nested quantifiers included, and the
    /// values of their domains built.
    assignments: u64,
    /// How many assignments (and domain values) all quantifiers of one evaluator may try; a
    /// quantifier that would need more is unsupported (open). Nested quantifiers share it:
    /// each assignment of the outer one evaluates the inner one again.
    pub max_assignments: u64,
    /// How deep a recursive definition unfolds (calls of one definition in progress at
    /// once); a deeper call is open, never a hang nor an error.
    pub max_unfold: u32,
    /// How many recursive calls one evaluator makes in all; further ones are open.
    pub max_unfoldings: u64,
    /// Results of defined functions by definition, arguments and extension mode: a shared
    /// definition (a chain of define-funs each using the previous twice is a DAG of
    /// exponential tree size) is evaluated once per argument values, not once per use.
    memo: HashMap<MemoKey, Option<Value>>,
}

/// How deep a recursive definition unfolds by default (`Evaluator::max_unfold`).
pub const MAX_UNFOLD: u32 = 32;
/// How many recursive calls an evaluator makes by default (`Evaluator::max_unfoldings`).
pub const MAX_UNFOLDINGS: u64 = 100_000;
/// How many assignments of quantified variables an evaluator tries by default
/// (`Evaluator::max_assignments`).
pub const MAX_ASSIGNMENTS: u64 = 100_000;

/// A call of a definition (by address: definitions live as long as the evaluator's
/// environment and model), its argument values, and whether an extension was being applied.
type MemoKey = (usize, Vec<Option<Value>>, bool);

/// Bound variables in scope (`let`, quantifiers, `match`, function parameters): a stack of
/// bindings with, per name, the stack of its values, so that a lookup costs one hash however
/// many bindings are in scope (scanning them made 100,000 nested `let`s quadratic).
#[derive(Default)]
struct Locals {
    order: Vec<String>,
    values: HashMap<String, Vec<Option<Value>>>,
}

impl Locals {
    fn len(&self) -> usize {
        self.order.len()
    }

    fn push(&mut self, (name, value): (String, Option<Value>)) {
        self.values.entry(name.clone()).or_default().push(value);
        self.order.push(name);
    }

    fn pop(&mut self) {
        if let Some(name) = self.order.pop() {
            if let Some(stack) = self.values.get_mut(&name) {
                stack.pop();
                if stack.is_empty() {
                    self.values.remove(&name);
                }
            }
        }
    }

    /// Drops the bindings made after the first `mark`.
    fn truncate(&mut self, mark: usize) {
        while self.order.len() > mark {
            self.pop();
        }
    }

    fn extend(&mut self, bindings: impl IntoIterator<Item = (String, Option<Value>)>) {
        for binding in bindings {
            self.push(binding);
        }
    }

    fn contains(&self, name: &str) -> bool {
        self.values.contains_key(name)
    }

    /// The innermost value bound to `name`.
    fn get(&self, name: &str) -> Option<&Option<Value>> {
        self.values.get(name).and_then(|stack| stack.last())
    }
}

impl<'a> Evaluator<'a> {
    pub fn new(env: &'a Env, model: &'a Model) -> Evaluator<'a> {
        Evaluator {
            env,
            model,
            locals: Locals::default(),
            missing: BTreeSet::new(),
            undefined: BTreeSet::new(),
            unsupported: BTreeSet::new(),
            unbounded: BTreeSet::new(),
            depth: 0,
            max_depth: 2_000,
            steps: 0,
            max_steps: 50_000_000,
            in_extension: false,
            active: HashMap::new(),
            unfoldings: 0,
            cut_off: 0,
            assignments: 0,
            max_assignments: MAX_ASSIGNMENTS,
            max_unfold: MAX_UNFOLD,
            max_unfoldings: MAX_UNFOLDINGS,
            memo: HashMap::new(),
        }
    }

    /// Why the last `None` results were open: missing values, undefined applications, unsupported
    /// constructs, as readable one-line reasons.
    pub fn open_reasons(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .missing
            .iter()
            .map(|s| format!("{s} has no value in the model"))
            .collect();
        out.extend(
            self.undefined
                .iter()
                .map(|s| format!("{s} is undefined and the model does not extend it")),
        );
        out.extend(self.unsupported.iter().map(|s| format!("unsupported: {s}")));
        out.extend(
            self.unbounded
                .iter()
                .map(|s| format!("{s} unfolds beyond the bound of the recursive unfolding")),
        );
        out
    }

    pub fn clear_reasons(&mut self) {
        self.missing.clear();
        self.undefined.clear();
        self.unsupported.clear();
        self.unbounded.clear();
    }

    /// The value of the term at `node` of `src`.
    pub fn eval(&mut self, src: &Src, node: NodeId) -> Eval {
        if self.depth >= self.max_depth {
            return Err(src.at(
                node,
                format!("term nests deeper than {} levels", self.max_depth),
            ));
        }
        self.steps += 1;
        if self.steps > self.max_steps {
            return Err(src.at(node, format!("evaluation exceeds {} steps", self.max_steps)));
        }
        self.depth += 1;
        let result = self.eval_node(src, node);
        self.depth -= 1;
        result
    }

    fn eval_node(&mut self, src: &Src, node: NodeId) -> Eval {
        let tree = &src.tree;
        if let Some(atom) = tree.atom(node) {
            let bad = |what: &str| src.at(node, format!("malformed {what} {}", atom.text()));
            return match atom {
                Atom::Numeral(n) => Ok(Some(Value::Int(
                    n.parse::<BigInt>().map_err(|_| bad("numeral"))?,
                ))),
                Atom::Decimal(d) => Ok(Some(Value::Real(
                    parse_decimal(d).ok_or_else(|| bad("decimal"))?,
                ))),
                Atom::Hexadecimal(h) | Atom::Binary(h) => Ok(Some(Value::BitVec(
                    parse_bv_literal(h).ok_or_else(|| bad("bit-vector literal"))?,
                ))),
                Atom::String(s) => Ok(Some(Value::String(
                    decode_literal(s).map_err(|m| src.at(node, m))?,
                ))),
                Atom::Keyword(k) => {
                    Err(src.at(node, format!("keyword {k} where a term is expected")))
                }
                Atom::Symbol(s) => self.symbol(src, node, unquote(s)),
            };
        }
        let ch = tree.children(node);
        let Some(&head) = ch.first() else {
            return Err(src.at(node, "empty list where a term is expected"));
        };
        if tree.is_list(head) {
            return self.compound_head(src, node, head, &ch[1..]);
        }
        let Some(name) = tree.symbol(head).map(unquote) else {
            return Err(src.at(head, "expected a function symbol"));
        };
        match name {
            "_" => self.indexed_constant(src, node),
            "as" => self.qualified(src, node),
            "let" => self.let_term(src, node),
            "!" => match ch.get(1) {
                Some(&t) => self.eval(src, t),
                None => Err(src.at(node, "(! term :attributes) lacks its term")),
            },
            "ite" => self.ite(src, node, &ch[1..]),
            "and" | "or" => self.connective(src, name == "or", &ch[1..]),
            "=>" => self.implies(src, node, &ch[1..]),
            "not" => match (ch.len(), self.eval_arg(src, ch.get(1))?) {
                (2, Some(Value::Bool(b))) => Ok(Some(Value::Bool(!b))),
                (2, None) => Ok(None),
                _ => Err(src.at(node, "not expects one Bool argument")),
            },
            "lambda" => self.lambda(src, node),
            "match" => self.match_term(src, node),
            "forall" | "exists" => self.quantifier(src, node, name == "exists"),
            _ => self.application(src, node, name, &ch[1..]),
        }
    }

    /// Quantifiers over finite domains only: Bool, bit-vectors up to 12 bits, enumeration
    /// datatypes, and uninterpreted sorts whose universe the model lists. Evaluated as the
    /// conjunction (`exists`: disjunction) over all assignments, within the evaluator's
    /// `max_assignments`.
    fn quantifier(&mut self, src: &Src, node: NodeId, is_exists: bool) -> Eval {
        let tree = &src.tree;
        let ch = tree.children(node);
        if ch.len() != 3 || !tree.is_list(ch[1]) {
            return Err(src.at(node, "a quantifier expects variables and a body"));
        }
        let mut vars = Vec::new();
        let mut total: usize = 1;
        for &v in tree.children(ch[1]) {
            let vc = tree.children(v);
            let (Some(name), 2) = (vc.first().and_then(|&c| tree.symbol(c)), vc.len()) else {
                return Err(src.at(v, "expected (name sort)"));
            };
            let sort = parse_sort(tree, vc[1], &self.env.aliases).map_err(|m| src.at(vc[1], m))?;
            let Some(domain) = self.domain(&sort) else {
                let what = if is_exists { "exists" } else { "forall" };
                return self.unsupported(src, node, &format!("{what} over {sort}"));
            };
            total = total.saturating_mul(domain.len().max(1));
            // Building a domain costs like trying its values: an inner quantifier builds its
            // domains again for every assignment of the outer one.
            self.assignments += domain.len() as u64;
            vars.push((unquote(name).to_string(), domain));
        }
        let left = self.max_assignments.saturating_sub(self.assignments);
        if total as u64 > left {
            return self.unsupported(
                src,
                node,
                &format!("a quantifier over {total} assignments ({left} left to try)"),
            );
        }
        let mark = self.locals.len();
        let mut open = false;
        let mut counters = vec![0usize; vars.len()];
        if vars.iter().any(|(_, d)| d.is_empty()) {
            // An empty domain: forall is true, exists is false.
            return Ok(Some(Value::Bool(!is_exists)));
        }
        loop {
            self.assignments += 1;
            if self.assignments > self.max_assignments {
                self.locals.truncate(mark);
                return self.unsupported(src, node, "quantifiers nested over too many assignments");
            }
            self.locals.truncate(mark);
            for ((name, domain), &i) in vars.iter().zip(&counters) {
                self.locals.push((name.clone(), Some(domain[i].clone())));
            }
            let value = self.eval(src, ch[2]);
            self.locals.truncate(mark);
            match value? {
                Some(Value::Bool(b)) if b == is_exists => return Ok(Some(Value::Bool(b))),
                Some(Value::Bool(_)) => {}
                None => open = true,
                Some(other) => {
                    return Err(src.at(ch[2], format!("quantifier body has sort {}", other.sort())))
                }
            }
            // Next assignment, like an odometer.
            let mut k = 0;
            loop {
                if k == counters.len() {
                    return Ok(if open {
                        None
                    } else {
                        Some(Value::Bool(!is_exists))
                    });
                }
                counters[k] += 1;
                if counters[k] < vars[k].1.len() {
                    break;
                }
                counters[k] = 0;
                k += 1;
            }
        }
    }

    /// All values of a finite sort, if known.
    fn domain(&self, sort: &Sort) -> Option<Vec<Value>> {
        match sort {
            Sort::Bool => Some(vec![Value::Bool(false), Value::Bool(true)]),
            Sort::RoundingMode => Some(
                RoundingMode::ALL
                    .into_iter()
                    .map(Value::RoundingMode)
                    .collect(),
            ),
            Sort::BitVec(w) if *w <= 12 => Some((0..1u64 << w).map(|i| Value::bv(*w, i)).collect()),
            Sort::Named(name, params) if params.is_empty() => {
                let mut ctors: Vec<&String> = self
                    .env
                    .constructors
                    .iter()
                    .filter(|(_, c)| c.datatype == *name)
                    .map(|(n, _)| n)
                    .collect();
                if !ctors.is_empty() {
                    if self
                        .env
                        .constructors
                        .iter()
                        .any(|(_, c)| c.datatype == *name && !c.selectors.is_empty())
                    {
                        return None;
                    }
                    ctors.sort();
                    return Some(
                        ctors
                            .into_iter()
                            .map(|c| Value::Datatype {
                                datatype: name.clone(),
                                constructor: c.clone(),
                                fields: Vec::new(),
                            })
                            .collect(),
                    );
                }
                let mut elements: Vec<&String> = self
                    .model
                    .universe
                    .iter()
                    .filter(|(_, s)| *s == sort)
                    .map(|(n, _)| n)
                    .collect();
                if elements.is_empty() {
                    return None;
                }
                elements.sort();
                Some(
                    elements
                        .into_iter()
                        .map(|n| Value::Uninterpreted {
                            sort: sort.clone(),
                            name: n.clone(),
                        })
                        .collect(),
                )
            }
            _ => None,
        }
    }

    fn eval_arg(&mut self, src: &Src, node: Option<&NodeId>) -> Eval {
        match node {
            Some(&n) => self.eval(src, n),
            None => Ok(None),
        }
    }

    fn eval_all(&mut self, src: &Src, nodes: &[NodeId]) -> Result<Vec<Option<Value>>, Located> {
        nodes.iter().map(|&n| self.eval(src, n)).collect()
    }

    fn unsupported(&mut self, src: &Src, node: NodeId, what: &str) -> Eval {
        self.unsupported
            .insert(format!("{what} at {}", src.locate(node)));
        Ok(None)
    }

    fn is_known_symbol(&self, name: &str) -> bool {
        self.locals.contains(name)
            || matches!(name, "true" | "false")
            || self.env.defs.contains_key(name)
            || self.env.decls.contains_key(name)
            || self.env.named.contains_key(name)
            || self.env.constructors.contains_key(name)
            || strings::constant(name).is_some()
            || fp::constant(name).is_some()
            || self.model.defines(name)
            || self.model.universe.contains_key(name)
    }

    fn symbol(&mut self, src: &Src, node: NodeId, name: &str) -> Eval {
        if let Some(v) = self.locals.get(name) {
            return Ok(v.clone());
        }
        match name {
            "true" => return Ok(Some(Value::Bool(true))),
            "false" => return Ok(Some(Value::Bool(false))),
            _ => {}
        }
        if let Some(def) = self.env.defs.get(name).cloned() {
            return self.call(src, node, &def, Vec::new());
        }
        if let Some(t) = self.env.named.get(name).cloned() {
            let saved = std::mem::take(&mut self.locals);
            let result = self.eval(&t.src, t.node);
            self.locals = saved;
            return result;
        }
        if let Some(c) = self.env.constructors.get(name) {
            if !c.selectors.is_empty() {
                return Err(src.at(
                    node,
                    format!("constructor {name} expects {} arguments", c.selectors.len()),
                ));
            }
            return Ok(Some(Value::Datatype {
                datatype: c.datatype.clone(),
                constructor: name.to_string(),
                fields: Vec::new(),
            }));
        }
        if let Some(v) = strings::constant(name).or_else(|| fp::constant(name)) {
            return Ok(Some(v));
        }
        if let Some((args, sort)) = self.env.decls.get(name) {
            if !args.is_empty() {
                return Err(src.at(
                    node,
                    format!(
                        "{name} is a function of {} arguments, used as a constant",
                        args.len()
                    ),
                ));
            }
            let sort = sort.clone();
            return self.model_constant(src, node, name, Some(&sort));
        }
        self.model_constant(src, node, name, None)
    }

    fn model_constant(
        &mut self,
        src: &Src,
        node: NodeId,
        name: &str,
        declared: Option<&Sort>,
    ) -> Eval {
        if let Some(v) = self.model.cache.borrow().get(name) {
            return Ok(Some(v.clone()));
        }
        if let Some(def) = self.model.funs.get(name).cloned() {
            let value = self.call(src, node, &def, Vec::new())?;
            let value = value.map(|v| match declared {
                Some(sort) => v.coerce(sort),
                None => v,
            });
            if let Some(v) = &value {
                if let Some(sort) = declared {
                    if !v.fits(sort) {
                        return Err(src.at(
                            node,
                            format!(
                                "the model gives {name} of sort {sort} a value of sort {}",
                                v.sort()
                            ),
                        ));
                    }
                }
                self.model
                    .cache
                    .borrow_mut()
                    .insert(name.to_string(), v.clone());
            }
            return Ok(value);
        }
        if let Some(sort) = self.model.universe.get(name) {
            return Ok(Some(Value::Uninterpreted {
                sort: sort.clone(),
                name: name.to_string(),
            }));
        }
        if let Some(sort) = z3_abstract_value(name) {
            return Ok(Some(Value::Uninterpreted {
                sort,
                name: name.to_string(),
            }));
        }
        if declared.is_some() || !self.env.strict {
            self.missing.insert(name.to_string());
            return Ok(None);
        }
        if is_floating_point(name) {
            return self.unsupported(src, node, "floating point");
        }
        Err(src.at(node, format!("unknown symbol {name}")))
    }

    /// Applies a definition to argument values, in a scope holding only its parameters.
    fn call(
        &mut self,
        src: &Src,
        node: NodeId,
        def: &Rc<FunDef>,
        args: Vec<Option<Value>>,
    ) -> Eval {
        if args.len() != def.params.len() {
            return Err(src.at(
                node,
                format!(
                    "{} expects {} arguments, got {}",
                    def.name,
                    def.params.len(),
                    args.len()
                ),
            ));
        }
        let mut frame = Vec::with_capacity(args.len());
        for (i, ((param, sort), arg)) in def.params.iter().zip(args).enumerate() {
            let arg = arg.map(|v| v.coerce(sort));
            if let Some(v) = &arg {
                if !v.fits(sort) {
                    return Err(src.at(
                        node,
                        format!(
                            "argument {} of {} has sort {}, expected {sort}",
                            i + 1,
                            def.name,
                            v.sort()
                        ),
                    ));
                }
            }
            frame.push((param.clone(), arg));
        }
        let key: MemoKey = (
            Rc::as_ptr(def) as usize,
            frame.iter().map(|(_, v)| v.clone()).collect(),
            self.in_extension,
        );
        if let Some(value) = self.memo.get(&key) {
            return Ok(value.clone());
        }
        // Bounded unfolding: a recursive call (of a definition already in progress) beyond
        // the bounds is open, so a definition that does not terminate, or only after many
        // steps, costs bounded time and nesting and never makes a verdict.
        let address = key.0;
        let in_progress = self.active.get(&address).copied().unwrap_or(0);
        if in_progress > 0 {
            self.unfoldings += 1;
            if in_progress >= self.max_unfold
                || self.unfoldings > self.max_unfoldings
                || self.depth.saturating_mul(4) >= self.max_depth.saturating_mul(3)
            {
                self.unbounded.insert(def.name.clone());
                self.cut_off += 1;
                return Ok(None);
            }
        }
        let cut_off_before = self.cut_off;
        *self.active.entry(address).or_default() += 1;
        let mut scope = Locals::default();
        scope.extend(frame);
        let saved = std::mem::replace(&mut self.locals, scope);
        let result = self.eval(&def.body.src, def.body.node);
        self.locals = saved;
        if let Some(n) = self.active.get_mut(&address) {
            *n -= 1;
        }
        let value = result?.map(|v| v.coerce(&def.result));
        // A value cut short by the bound depends on where the call was made: not memoized.
        if self.cut_off == cut_off_before {
            self.memo.insert(key, value.clone());
        }
        if let Some(v) = &value {
            if !v.fits(&def.result) {
                return Err(def.body.src.at(
                    def.body.node,
                    format!(
                        "{} is declared {} but its body has sort {}",
                        def.name,
                        def.result,
                        v.sort()
                    ),
                ));
            }
        }
        Ok(value)
    }

    fn application(&mut self, src: &Src, node: NodeId, name: &str, arg_nodes: &[NodeId]) -> Eval {
        if let Some(def) = self.env.defs.get(name).cloned() {
            let args = self.eval_all(src, arg_nodes)?;
            return self.call(src, node, &def, args);
        }
        if self.env.constructors.contains_key(name)
            || self.env.selectors.contains_key(name)
            || name
                .strip_prefix("is-")
                .is_some_and(|c| self.env.constructors.contains_key(c))
        {
            return self.datatype_op(src, node, name, arg_nodes);
        }
        match name {
            "select" | "store" => return self.array_op(src, node, name, arg_nodes),
            "seq.nth" => return self.seq_nth(src, node, arg_nodes),
            "seq.power" => return self.seq_power(src, node, arg_nodes),
            "seq.map" | "seq.mapi" | "seq.fold_left" | "seq.fold_lefti" => {
                return self.seq_hof(src, node, name, arg_nodes)
            }
            "^" => return self.power(src, node, arg_nodes),
            _ if PARTIAL.contains(&name) => return self.partial(src, node, name, arg_nodes),
            _ => {}
        }
        if name == "fp" || name.starts_with("fp.") {
            return self.fp_op(src, node, name, &[], arg_nodes);
        }
        if builtins::is_builtin(name) {
            let args = self.eval_all(src, arg_nodes)?;
            let Some(args) = args.into_iter().collect::<Option<Vec<Value>>>() else {
                return Ok(None);
            };
            return match builtins::apply(name, &[], &args) {
                Some(Ok(v)) => Ok(Some(v)),
                Some(Err(m)) => Err(src.at(node, m)),
                None => Err(src.at(node, format!("unknown function {name}"))),
            };
        }
        let declared = self.env.decls.get(name).map(|(a, _)| a.len());
        if let Some(arity) = declared {
            if arity != arg_nodes.len() {
                return Err(src.at(
                    node,
                    format!("{name} expects {arity} arguments, got {}", arg_nodes.len()),
                ));
            }
        }
        if let Some(def) = self.model.funs.get(name).cloned() {
            let args = self.eval_all(src, arg_nodes)?;
            return self.call(src, node, &def, args);
        }
        if declared.is_some() || !self.env.strict {
            // Still evaluate the arguments: they may hold errors worth reporting.
            self.eval_all(src, arg_nodes)?;
            self.missing.insert(name.to_string());
            return Ok(None);
        }
        if is_floating_point(name) || name.starts_with("seq.") {
            return self.unsupported(src, node, name);
        }
        Err(src.at(node, format!("unknown function {name}")))
    }

    /// Z3's `^`, open where [`builtins::power`] does not decide it.
    fn power(&mut self, src: &Src, node: NodeId, arg_nodes: &[NodeId]) -> Eval {
        let args = self.eval_all(src, arg_nodes)?;
        let (Some(Some(a)), Some(Some(b)), 2) = (args.first(), args.get(1), args.len()) else {
            return match args.len() {
                2 => Ok(None),
                _ => Err(src.at(node, "^ expects two arguments")),
            };
        };
        match builtins::power(a, b) {
            Ok(Some(v)) => Ok(Some(v)),
            Ok(None) => self.extend_partial(src, node, "^", &[], vec![a.clone(), b.clone()], None),
            Err(m) => Err(src.at(node, m)),
        }
    }

    /// `seq.nth`; outside the sequence Z3 leaves it unspecified (`seq.nth_u` in its models),
    /// so the model's definition of that decides, or the value is open.
    fn seq_nth(&mut self, src: &Src, node: NodeId, arg_nodes: &[NodeId]) -> Eval {
        let args = self.eval_all(src, arg_nodes)?;
        let Some(args) = args.into_iter().collect::<Option<Vec<Value>>>() else {
            return Ok(None);
        };
        match super::seq::nth(&args) {
            Ok(Some(v)) => Ok(Some(v)),
            Ok(None) => self.extend_partial(src, node, "seq.nth", &["seq.nth_u"], args, None),
            Err(m) => Err(src.at(node, m)),
        }
    }

    /// Z3's `seq.power`; a result too long to build is open.
    fn seq_power(&mut self, src: &Src, node: NodeId, arg_nodes: &[NodeId]) -> Eval {
        let args = self.eval_all(src, arg_nodes)?;
        let Some(args) = args.into_iter().collect::<Option<Vec<Value>>>() else {
            return Ok(None);
        };
        match super::seq::power(&args) {
            Ok(Some(v)) => Ok(Some(v)),
            Ok(None) => self.unsupported(src, node, "seq.power of a very long result"),
            Err(m) => Err(src.at(node, m)),
        }
    }

    /// Z3's higher-order sequence operations (releases after 4.8.12): `(seq.map f s)`,
    /// `(seq.mapi f i s)`, `(seq.fold_left f a s)`, `(seq.fold_lefti f i a s)`, where f is a
    /// lambda written in place (its body evaluated with its parameters bound: the index
    /// `i + k` of element k, the accumulator, the element) or, for `seq.map`, an array value
    /// (selected at each element). Another function is open.
    fn seq_hof(&mut self, src: &Src, node: NodeId, name: &str, arg_nodes: &[NodeId]) -> Eval {
        let (arity, indexed, folds) = match name {
            "seq.map" => (2, false, false),
            "seq.mapi" => (3, true, false),
            "seq.fold_left" => (3, false, true),
            _ => (4, true, true),
        };
        if arg_nodes.len() != arity {
            return Err(src.at(node, format!("{name} expects {arity} arguments")));
        }
        let rest = self.eval_all(src, &arg_nodes[1..])?;
        let Some(rest) = rest.into_iter().collect::<Option<Vec<Value>>>() else {
            return Ok(None);
        };
        let Some(Value::Seq { items, .. }) = rest.last() else {
            return Err(src.at(node, format!("{name} expects a sequence last")));
        };
        let items = items.clone();
        let start = match (indexed, rest.first()) {
            (true, Some(Value::Int(i))) => i.clone(),
            (true, _) => return Err(src.at(node, format!("{name} expects an Int index"))),
            (false, _) => BigInt::from(0),
        };
        let tree = &src.tree;
        let f = arg_nodes[0];
        let fc = tree.children(f);
        let lambda = fc.first().and_then(|&h| tree.symbol(h)) == Some("lambda") && fc.len() == 3;
        if !lambda {
            if name != "seq.map" {
                return self.unsupported(src, node, &format!("{name} of a function not in place"));
            }
            let Some(Value::Array(array)) = self.eval(src, f)? else {
                return self.unsupported(src, node, "seq.map of an array without a value");
            };
            let out: Vec<Value> = items.iter().map(|x| array.select(x)).collect();
            return Ok(Some(Value::seq(array.default.sort(), out)));
        }
        let mut params = Vec::new();
        for &p in tree.children(fc[1]) {
            let pc = tree.children(p);
            let (Some(pname), 2) = (pc.first().and_then(|&c| tree.symbol(c)), pc.len()) else {
                return Err(src.at(p, "expected (name sort)"));
            };
            let sort = parse_sort(tree, pc[1], &self.env.aliases).map_err(|m| src.at(pc[1], m))?;
            params.push((unquote(pname).to_string(), sort));
        }
        let wanted = usize::from(indexed) + usize::from(folds) + 1;
        if params.len() != wanted {
            return Err(src.at(f, format!("{name} expects a lambda of {wanted} parameters")));
        }
        let body = fc[2];
        let apply = |this: &mut Self, values: Vec<Value>| -> Eval {
            let mark = this.locals.len();
            for ((pname, sort), v) in params.iter().zip(values) {
                this.locals.push((pname.clone(), Some(v.coerce(sort))));
            }
            let result = this.eval(src, body);
            this.locals.truncate(mark);
            result
        };
        let index = |k: usize| Value::Int(&start + BigInt::from(k));
        if folds {
            let mut acc = rest[rest.len() - 2].clone();
            for (k, x) in items.iter().enumerate() {
                let mut values = Vec::new();
                if indexed {
                    values.push(index(k));
                }
                values.push(acc);
                values.push(x.clone());
                let Some(next) = apply(self, values)? else {
                    return Ok(None);
                };
                acc = next;
            }
            return Ok(Some(acc));
        }
        let mut out = Vec::new();
        for (k, x) in items.iter().enumerate() {
            let mut values = Vec::new();
            if indexed {
                values.push(index(k));
            }
            values.push(x.clone());
            let Some(y) = apply(self, values)? else {
                return Ok(None);
            };
            out.push(y);
        }
        // The element sort of an empty result is the body's sort at a sample point.
        let element = match out.first() {
            Some(y) => y.sort(),
            None => {
                let samples: Option<Vec<Value>> =
                    params.iter().map(|(_, sort)| sample_value(sort)).collect();
                let Some(samples) = samples else {
                    return self.unsupported(src, node, &format!("{name} of an empty sequence"));
                };
                match apply(self, samples)? {
                    Some(y) => y.sort(),
                    None => return Ok(None),
                }
            }
        };
        Ok(Some(Value::seq(element, out)))
    }

    /// `div`, `mod`, `/` folded left; at a zero divisor the model's extension decides.
    fn partial(&mut self, src: &Src, node: NodeId, name: &str, arg_nodes: &[NodeId]) -> Eval {
        if arg_nodes.len() < 2 {
            return Err(src.at(node, format!("{name} expects at least 2 arguments")));
        }
        let args = self.eval_all(src, arg_nodes)?;
        let mut acc = args[0].clone();
        for b in &args[1..] {
            acc = match (acc, b) {
                (Some(a), Some(b)) => match builtins::divide(name, &a, b) {
                    Ok(Some(v)) => Some(v),
                    Ok(None) => self.extension(src, node, name, a, b.clone())?,
                    Err(m) => return Err(src.at(node, m)),
                },
                _ => None,
            };
        }
        Ok(acc)
    }

    fn extension(&mut self, src: &Src, node: NodeId, name: &str, a: Value, b: Value) -> Eval {
        let names: [&str; 2] = match name {
            "div" => ["div", "div0"],
            "mod" => ["mod", "mod0"],
            // Not `mod0`: Z3 5.4.1 reads `(rem a 0)` as `(mod a 0)`, but 4.8.12 gives
            // `(rem 0 0)` 0 where its model defines `mod0` as 1; without a definition of its
            // own, a remainder by zero is open.
            "rem" => ["rem", "rem0"],
            _ => ["/", "/0"],
        };
        self.extend_partial(src, node, name, &names, vec![a, b], None)
    }

    /// Applies the model's definition of a partial operation (the first of `names` the model
    /// defines with the right arity) where the builtin is undefined; inside it, the builtin is
    /// meant, and an undefined application is open.
    fn extend_partial(
        &mut self,
        src: &Src,
        node: NodeId,
        name: &str,
        names: &[&str],
        args: Vec<Value>,
        result: Option<Sort>,
    ) -> Eval {
        if !self.in_extension {
            // Only a definition of the application's own signature: a model may define one
            // name for several (`fp.to_ubv` of different widths or formats).
            let def = names
                .iter()
                .filter_map(|n| self.model.funs.get(*n))
                .find(|d| {
                    d.params.len() == args.len()
                        && d.params.iter().zip(&args).all(|((_, s), a)| {
                            // Mixed arithmetic: an Int argument fills a Real parameter
                            // (`(/ 3 0)` divides Reals).
                            let sort = a.sort();
                            *s == sort || (*s == Sort::Real && sort == Sort::Int)
                        })
                        && result.as_ref().is_none_or(|r| *r == d.result)
                })
                .cloned();
            if let Some(def) = def {
                self.in_extension = true;
                let result = self.call(src, node, &def, args.into_iter().map(Some).collect());
                self.in_extension = false;
                return result;
            }
        }
        let shown: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        self.undefined
            .insert(format!("({name} {})", shown.join(" ")));
        Ok(None)
    }

    /// Floating-point operations; undefined results (e.g. `fp.to_ubv` of NaN, `fp.min` of
    /// zeros of both signs) take the model's definition of the operation if it has one.
    fn fp_op(
        &mut self,
        src: &Src,
        node: NodeId,
        name: &str,
        idx: &[BigInt],
        arg_nodes: &[NodeId],
    ) -> Eval {
        let args = self.eval_all(src, arg_nodes)?;
        let Some(args) = args.into_iter().collect::<Option<Vec<Value>>>() else {
            return Ok(None);
        };
        match fp::apply(name, idx, &args) {
            Some(Ok(Some(v))) => Ok(Some(v)),
            Some(Ok(None)) => {
                let result = match (name, idx, args.first()) {
                    ("fp.to_ubv" | "fp.to_sbv", [w], _) => u32::try_from(w).ok().map(Sort::BitVec),
                    ("fp.to_real", _, _) => Some(Sort::Real),
                    ("fp.min" | "fp.max", _, Some(a)) => Some(a.sort()),
                    _ => None,
                };
                self.extend_partial(src, node, name, &[name], args, result)
            }
            Some(Err(m)) => Err(src.at(node, m)),
            None => self.unsupported(src, node, name),
        }
    }

    /// Constructors, selectors (partial: the model may extend them) and `is-C` testers.
    fn datatype_op(&mut self, src: &Src, node: NodeId, name: &str, arg_nodes: &[NodeId]) -> Eval {
        let args = self.eval_all(src, arg_nodes)?;
        if let Some(c) = self.env.constructors.get(name) {
            if args.len() != c.selectors.len() {
                return Err(src.at(
                    node,
                    format!(
                        "constructor {name} expects {} arguments, got {}",
                        c.selectors.len(),
                        args.len()
                    ),
                ));
            }
            let datatype = c.datatype.clone();
            let Some(fields) = args.into_iter().collect::<Option<Vec<Value>>>() else {
                return Ok(None);
            };
            return Ok(Some(Value::Datatype {
                datatype,
                constructor: name.to_string(),
                fields,
            }));
        }
        let [arg] = args.as_slice() else {
            return Err(src.at(
                node,
                format!("{name} expects 1 argument, got {}", args.len()),
            ));
        };
        let Some(arg) = arg.clone() else {
            return Ok(None);
        };
        let Value::Datatype {
            constructor,
            fields,
            ..
        } = &arg
        else {
            return Err(src.at(
                node,
                format!("{name} expects a datatype value, got {}", arg.sort()),
            ));
        };
        if let Some(tested) = name.strip_prefix("is-") {
            if self.env.constructors.contains_key(tested) {
                return Ok(Some(Value::Bool(constructor == tested)));
            }
        }
        let Some((owner, index)) = self.env.selectors.get(name).cloned() else {
            return Err(src.at(node, format!("unknown datatype operation {name}")));
        };
        if *constructor == owner {
            return Ok(fields.get(index).cloned());
        }
        self.extend_partial(src, node, name, &[name], vec![arg], None)
    }

    /// `(match t ((pattern body) ..))`: the first case whose pattern fits the value.
    fn match_term(&mut self, src: &Src, node: NodeId) -> Eval {
        let tree = &src.tree;
        let ch = tree.children(node);
        if ch.len() != 3 || !tree.is_list(ch[2]) {
            return Err(src.at(node, "match expects a term and a list of cases"));
        }
        let Some(value) = self.eval(src, ch[1])? else {
            return Ok(None);
        };
        let Value::Datatype {
            constructor,
            fields,
            ..
        } = &value
        else {
            return Err(src.at(ch[1], format!("match on a value of sort {}", value.sort())));
        };
        for &case in tree.children(ch[2]) {
            let cc = tree.children(case);
            let [pattern, body] = cc else {
                return Err(src.at(case, "expected (pattern term)"));
            };
            let mut bindings = Vec::new();
            if let Some(sym) = tree.symbol(*pattern).map(unquote) {
                if self.env.constructors.contains_key(sym) {
                    if sym != constructor {
                        continue;
                    }
                } else {
                    bindings.push((sym.to_string(), Some(value.clone())));
                }
            } else {
                let pc = tree.children(*pattern);
                let head = pc.first().and_then(|&h| tree.symbol(h)).map(unquote);
                if head != Some(constructor.as_str()) {
                    continue;
                }
                if pc.len() != fields.len() + 1 {
                    return Err(src.at(*pattern, "pattern has the wrong number of fields"));
                }
                for (&var, field) in pc[1..].iter().zip(fields) {
                    let var = tree.symbol(var).map(unquote).unwrap_or("_");
                    bindings.push((var.to_string(), Some(field.clone())));
                }
            }
            let mark = self.locals.len();
            self.locals.extend(bindings);
            let result = self.eval(src, *body);
            self.locals.truncate(mark);
            return result;
        }
        Err(src.at(node, format!("no case of the match fits {value}")))
    }

    fn array_op(&mut self, src: &Src, node: NodeId, name: &str, arg_nodes: &[NodeId]) -> Eval {
        let args = self.eval_all(src, arg_nodes)?;
        let arity = if name == "select" { 2 } else { 3 };
        if args.len() != arity {
            return Err(src.at(
                node,
                format!("{name} expects {arity} arguments, got {}", args.len()),
            ));
        }
        let array = match &args[0] {
            Some(Value::Array(a)) => a.clone(),
            Some(other) => {
                return Err(src.at(
                    node,
                    format!("{name} expects an array, got {}", other.sort()),
                ))
            }
            None => return Ok(None),
        };
        let index = args[1].clone().map(|i| i.coerce(&array.index));
        if let Some(i) = &index {
            if !i.fits(&array.index) {
                return Err(src.at(
                    node,
                    format!(
                        "{name}: index of sort {} for an array indexed by {}",
                        i.sort(),
                        array.index
                    ),
                ));
            }
        }
        if name == "select" {
            return Ok(match index {
                Some(i) => Some(array.select(&i)),
                // A constant array has the same value everywhere.
                None if array.entries.is_empty() => Some(array.default.clone()),
                None => None,
            });
        }
        let element_sort = array.default.sort();
        let (Some(index), Some(element)) = (index, args[2].clone()) else {
            return Ok(None);
        };
        let element = element.coerce(&element_sort);
        if !element.fits(&element_sort) {
            return Err(src.at(
                node,
                format!(
                    "store: element of sort {} into an array of {element_sort}",
                    element.sort()
                ),
            ));
        }
        Ok(Some(Value::Array(Rc::new(array.store(index, element)))))
    }

    fn ite(&mut self, src: &Src, node: NodeId, args: &[NodeId]) -> Eval {
        let [c, t, e] = args else {
            return Err(src.at(node, "ite expects 3 arguments"));
        };
        match self.eval(src, *c)? {
            Some(Value::Bool(true)) => self.eval(src, *t),
            Some(Value::Bool(false)) => self.eval(src, *e),
            Some(other) => Err(src.at(*c, format!("ite condition has sort {}", other.sort()))),
            None => {
                let (t, e) = (self.eval(src, *t)?, self.eval(src, *e)?);
                Ok(match (t, e) {
                    (Some(t), Some(e)) if values_equal(&t, &e) => Some(t),
                    _ => None,
                })
            }
        }
    }

    /// `and` (`or` when `is_or`): a deciding operand fixes the result even if others are open.
    fn connective(&mut self, src: &Src, is_or: bool, args: &[NodeId]) -> Eval {
        let mut open = false;
        for &a in args {
            match self.eval(src, a)? {
                Some(Value::Bool(b)) if b == is_or => return Ok(Some(Value::Bool(is_or))),
                Some(Value::Bool(_)) => {}
                None => open = true,
                Some(other) => {
                    return Err(src.at(a, format!("expected a Bool, got {}", other.sort())))
                }
            }
        }
        Ok(if open {
            None
        } else {
            Some(Value::Bool(!is_or))
        })
    }

    /// `(=> a1 .. an c)` is `(or (not a1) .. (not an) c)`.
    fn implies(&mut self, src: &Src, node: NodeId, args: &[NodeId]) -> Eval {
        if args.len() < 2 {
            return Err(src.at(node, "=> expects at least 2 arguments"));
        }
        let mut open = false;
        let last = args.len() - 1;
        for (i, &a) in args.iter().enumerate() {
            let deciding = i == last;
            match self.eval(src, a)? {
                Some(Value::Bool(b)) if b == deciding => return Ok(Some(Value::Bool(true))),
                Some(Value::Bool(_)) => {}
                None => open = true,
                Some(other) => {
                    return Err(src.at(a, format!("expected a Bool, got {}", other.sort())))
                }
            }
        }
        Ok(if open { None } else { Some(Value::Bool(false)) })
    }

    fn let_term(&mut self, src: &Src, node: NodeId) -> Eval {
        let tree = &src.tree;
        let ch = tree.children(node);
        if ch.len() != 3 || !tree.is_list(ch[1]) {
            return Err(src.at(node, "let expects bindings and a body"));
        }
        // Parallel let: every binding sees only the outer scope.
        let mut bound = Vec::new();
        for &b in tree.children(ch[1]) {
            let bc = tree.children(b);
            let Some(name) = (bc.len() == 2).then(|| tree.symbol(bc[0])).flatten() else {
                return Err(src.at(b, "expected (name term) in let"));
            };
            bound.push((unquote(name).to_string(), self.eval(src, bc[1])?));
        }
        let mark = self.locals.len();
        self.locals.extend(bound);
        let result = self.eval(src, ch[2]);
        self.locals.truncate(mark);
        result
    }

    fn indices(&self, src: &Src, nodes: &[NodeId]) -> Result<Vec<BigInt>, Located> {
        nodes
            .iter()
            .map(|&n| match src.tree.atom(n) {
                Some(Atom::Numeral(t)) => t.parse().map_err(|_| src.at(n, "malformed index")),
                _ => Err(src.at(n, "expected a numeral index")),
            })
            .collect()
    }

    /// `(_ bvN w)`, `(_ as-array f)`; other indexed constants are floating point (unsupported).
    fn indexed_constant(&mut self, src: &Src, node: NodeId) -> Eval {
        let tree = &src.tree;
        let ch = tree.children(node);
        // SMT-LIB's `(_ symbol index+)`: anything shorter is malformed, not an empty index list.
        if ch.len() < 3 {
            return Err(src.at(
                node,
                format!(
                    "malformed indexed identifier {} (expected (_ symbol index ...))",
                    tree.print_node(node)
                ),
            ));
        }
        let name = tree.symbol(ch[1]).unwrap_or("");
        if name == "as-array" && ch.len() == 3 {
            let f = tree.symbol(ch[2]).map(unquote).unwrap_or("");
            let def = self
                .env
                .defs
                .get(f)
                .or_else(|| self.model.funs.get(f))
                .cloned();
            return match def {
                Some(def) => self.function_array(src, node, &def),
                None if self.env.strict && !self.env.decls.contains_key(f) => {
                    Err(src.at(node, format!("as-array of unknown function {f}")))
                }
                None => {
                    self.missing.insert(f.to_string());
                    Ok(None)
                }
            };
        }
        if let Some(digits) = name.strip_prefix("bv") {
            let idx = self.indices(src, &ch[2..])?;
            let value = digits.parse::<BigUint>().ok();
            return match (value, idx.as_slice()) {
                (Some(v), [w]) => match w.to_u32().filter(|&w| w > 0) {
                    Some(w) => Ok(Some(Value::BitVec(BitVec::new(w, v)))),
                    None => Err(src.at(node, "bit-vector width must be positive")),
                },
                _ => Err(src.at(
                    node,
                    format!("malformed bit-vector constant {}", tree.print_node(node)),
                )),
            };
        }
        let idx = self.indices(src, &ch[2..])?;
        match fp::indexed_constant(name, &idx) {
            Some(Ok(v)) => Ok(Some(v)),
            Some(Err(m)) => Err(src.at(node, m)),
            None => self.unsupported(src, node, &format!("indexed constant {name}")),
        }
    }

    /// `(as t S)`: the value of `t` at sort `S`, or an abstract element of an uninterpreted `S`.
    fn qualified(&mut self, src: &Src, node: NodeId) -> Eval {
        let tree = &src.tree;
        let ch = tree.children(node);
        if ch.len() != 3 {
            return Err(src.at(node, "as expects a term and a sort"));
        }
        let sort = parse_sort(tree, ch[2], &self.env.aliases).map_err(|m| src.at(ch[2], m))?;
        let name = tree.symbol(ch[1]).map(unquote);
        if let Some(name) = name {
            if name == "seq.empty" && !self.is_known_symbol(name) {
                return match super::seq::empty(&sort) {
                    Some(v) => Ok(Some(v)),
                    None => Err(src.at(node, format!("seq.empty of sort {sort}"))),
                };
            }
            if !self.is_known_symbol(name) {
                return match sort {
                    Sort::Named(..) => Ok(Some(Value::Uninterpreted {
                        sort,
                        name: name.to_string(),
                    })),
                    _ => self.unsupported(src, node, &format!("qualified constant {name}")),
                };
            }
        }
        Ok(self.eval(src, ch[1])?.map(|v| v.coerce(&sort)))
    }

    /// Heads that are lists: `((_ extract 7 0) x)`, `((as const (Array I E)) v)`, `((as f S) ..)`.
    fn compound_head(
        &mut self,
        src: &Src,
        node: NodeId,
        head: NodeId,
        arg_nodes: &[NodeId],
    ) -> Eval {
        let tree = &src.tree;
        let hc = tree.children(head);
        match tree.head(head) {
            Some("_") if hc.len() == 3 && tree.symbol(hc[1]) == Some("is") => {
                let ctor = tree.symbol(hc[2]).map(unquote).unwrap_or("");
                if !self.env.constructors.contains_key(ctor) {
                    return Err(src.at(hc[2], format!("unknown constructor {ctor}")));
                }
                self.datatype_op(src, node, &format!("is-{ctor}"), arg_nodes)
            }
            Some("_") if hc.len() == 3 && tree.symbol(hc[1]) == Some("update-field") => {
                let field = tree.symbol(hc[2]).map(unquote).unwrap_or("");
                let Some((owner, index)) = self.env.selectors.get(field).cloned() else {
                    return Err(src.at(hc[2], format!("unknown field {field}")));
                };
                let args = self.eval_all(src, arg_nodes)?;
                let [Some(value), Some(new)] = args.as_slice() else {
                    return match args.len() {
                        2 => Ok(None),
                        n => {
                            Err(src.at(node, format!("update-field expects 2 arguments, got {n}")))
                        }
                    };
                };
                let Value::Datatype {
                    datatype,
                    constructor,
                    fields,
                } = value
                else {
                    return Err(src.at(
                        node,
                        format!("update-field of a value of sort {}", value.sort()),
                    ));
                };
                // A value of another constructor stays as it is (Z3's and SMT-LIB 2.7's
                // reading).
                if *constructor != owner || index >= fields.len() {
                    return Ok(Some(value.clone()));
                }
                let mut fields = fields.clone();
                fields[index] = new.clone();
                Ok(Some(Value::Datatype {
                    datatype: datatype.clone(),
                    constructor: constructor.clone(),
                    fields,
                }))
            }
            Some("_")
                if hc.len() >= 2
                    && matches!(
                        tree.symbol(hc[1]),
                        Some("to_fp" | "to_fp_unsigned" | "fp.to_ubv" | "fp.to_sbv")
                    ) =>
            {
                let name = tree.symbol(hc[1]).unwrap_or("");
                let idx = self.indices(src, &hc[2..])?;
                self.fp_op(src, node, name, &idx, arg_nodes)
            }
            Some("_") if hc.len() >= 2 => {
                let name = tree.symbol(hc[1]).map(unquote).unwrap_or("");
                let idx = self.indices(src, &hc[2..])?;
                let args = self.eval_all(src, arg_nodes)?;
                let Some(args) = args.into_iter().collect::<Option<Vec<Value>>>() else {
                    return Ok(None);
                };
                match builtins::apply(name, &idx, &args) {
                    Some(Ok(v)) => Ok(Some(v)),
                    Some(Err(m)) => Err(src.at(node, m)),
                    None if is_floating_point(name) => self.unsupported(src, node, name),
                    None => Err(src.at(head, format!("unknown indexed function {name}"))),
                }
            }
            Some("as") if hc.len() == 3 => {
                let sort =
                    parse_sort(tree, hc[2], &self.env.aliases).map_err(|m| src.at(hc[2], m))?;
                match tree.symbol(hc[1]).map(unquote) {
                    Some("const") => {
                        let Sort::Array(index, element) = sort else {
                            return self.unsupported(src, node, &format!("(as const {sort})"));
                        };
                        let [v] = arg_nodes else {
                            return Err(src.at(node, "a constant array takes one value"));
                        };
                        let Some(v) = self.eval(src, *v)?.map(|v| v.coerce(&element)) else {
                            return Ok(None);
                        };
                        if !v.fits(&element) {
                            return Err(src.at(
                                node,
                                format!(
                                    "constant array of {element} with a value of sort {}",
                                    v.sort()
                                ),
                            ));
                        }
                        Ok(Some(Value::Array(Rc::new(ArrayValue::constant(
                            (*index).clone(),
                            v,
                        )))))
                    }
                    Some(f) => Ok(self
                        .application(src, node, f, arg_nodes)?
                        .map(|v| v.coerce(&sort))),
                    None => Err(src.at(head, "expected a symbol after as")),
                }
            }
            _ => Err(src.at(
                head,
                format!("unsupported function head {}", tree.print_node(head)),
            )),
        }
    }

    fn lambda(&mut self, src: &Src, node: NodeId) -> Eval {
        let tree = &src.tree;
        let ch = tree.children(node);
        if ch.len() != 3 {
            return Err(src.at(node, "lambda expects parameters and a body"));
        }
        let params = tree.children(ch[1]);
        let [p] = params else {
            return self.unsupported(src, node, "lambda with several parameters");
        };
        let pc = tree.children(*p);
        let (Some(name), 2) = (pc.first().and_then(|&c| tree.symbol(c)), pc.len()) else {
            return Err(src.at(*p, "expected (name sort)"));
        };
        let sort = parse_sort(tree, pc[1], &self.env.aliases).map_err(|m| src.at(pc[1], m))?;
        self.table(src, node, ch[2], unquote(name), &sort, None)
    }

    /// The array of a one-parameter function (`(_ as-array f)`).
    fn function_array(&mut self, src: &Src, node: NodeId, def: &Rc<FunDef>) -> Eval {
        let [(param, sort)] = def.params.as_slice() else {
            return self.unsupported(
                src,
                node,
                &format!("as-array of {}-ary {}", def.params.len(), def.name),
            );
        };
        // The body sees only its parameter.
        let saved = std::mem::take(&mut self.locals);
        let result = self.table(
            &def.body.src,
            def.body.node,
            def.body.node,
            param,
            sort,
            Some(&def.result),
        );
        self.locals = saved;
        result
    }

    /// Turns a function body into an array value. The body must be a finite table: its
    /// parameter may occur only compared with `=` against terms without it (the shape of
    /// models' ite chains). It is evaluated at each compared point and at one fresh point,
    /// which gives the default.
    fn table(
        &mut self,
        src: &Src,
        node: NodeId,
        body: NodeId,
        param: &str,
        sort: &Sort,
        result: Option<&Sort>,
    ) -> Eval {
        let tree = &src.tree;
        let mut comparands = Vec::new();
        for n in tree.preorder(body) {
            if tree.symbol(n).map(unquote) != Some(param) {
                continue;
            }
            let parent = tree.parent(n);
            let siblings = parent.map(|p| tree.children(p)).unwrap_or(&[]);
            let other = match siblings {
                [eq, a, b] if tree.symbol(*eq) == Some("=") => {
                    if *a == n {
                        Some(*b)
                    } else {
                        Some(*a)
                    }
                }
                _ => None,
            };
            let mentions = |o: NodeId| {
                tree.preorder(o)
                    .any(|m| tree.symbol(m).map(unquote) == Some(param))
            };
            match other {
                Some(o) if !mentions(o) => comparands.push(o),
                _ => {
                    return self.unsupported(
                        src,
                        node,
                        "an array whose interpretation is not a finite table",
                    )
                }
            }
        }
        let mut points = BTreeSet::new();
        for o in comparands {
            match self.eval(src, o)? {
                Some(v) => {
                    points.insert(v.coerce(sort));
                }
                None => return Ok(None),
            }
        }
        let fresh = fresh_value(sort, &points);
        if fresh.is_none() && !finite_sort(sort) {
            return self.unsupported(src, node, &format!("arrays indexed by {sort}"));
        }
        let mut values = HashMap::new();
        for point in points.iter().cloned().chain(fresh.clone()) {
            self.locals.push((param.to_string(), Some(point.clone())));
            let v = self.eval(src, body);
            self.locals.pop();
            let Some(v) = v? else { return Ok(None) };
            values.insert(point, result.map_or(v.clone(), |s| v.coerce(s)));
        }
        let default = match &fresh {
            Some(f) => values[f].clone(),
            // Every index is listed: any entry serves as the default before normalizing.
            None => match values.values().next() {
                Some(v) => v.clone(),
                None => return self.unsupported(src, node, "an empty array table"),
            },
        };
        let mut array = ArrayValue::constant(sort.clone(), default);
        for p in points {
            let v = values[&p].clone();
            array.entries.insert(p, v);
        }
        array.normalize();
        Ok(Some(Value::Array(Rc::new(array))))
    }
}

fn finite_sort(sort: &Sort) -> bool {
    matches!(sort, Sort::Bool | Sort::BitVec(_))
}

/// A value of `sort` outside `used`, `None` if every value is used or the sort is unsupported.
fn fresh_value(sort: &Sort, used: &BTreeSet<Value>) -> Option<Value> {
    match sort {
        Sort::Bool => [false, true]
            .into_iter()
            .map(Value::Bool)
            .find(|v| !used.contains(v)),
        Sort::Int => Some(Value::Int(
            used.iter()
                .filter_map(|v| match v {
                    Value::Int(i) => Some(i.clone()),
                    _ => None,
                })
                .max()
                .map_or_else(BigInt::default, |m| m + 1),
        )),
        Sort::Real => Some(Value::Real(
            used.iter()
                .filter_map(|v| match v {
                    Value::Real(r) => Some(r.clone()),
                    _ => None,
                })
                .max()
                .map_or_else(Default::default, |m| m + BigInt::one()),
        )),
        Sort::BitVec(w) => {
            // Among the first `used.len() + 1` values one is free unless all 2^w are used.
            let exhausted = *w < 64 && (used.len() as u64) >= (1u64 << *w);
            (!exhausted)
                .then(|| {
                    (0..=used.len() as u64)
                        .map(|i| Value::BitVec(BitVec::from_u64(*w, i)))
                        .find(|v| !used.contains(v))
                })
                .flatten()
        }
        Sort::String => {
            let longest = used
                .iter()
                .filter_map(|v| match v {
                    Value::String(s) => Some(s.len()),
                    _ => None,
                })
                .max()
                .unwrap_or(0);
            Some(Value::String(vec![u32::from('a'); longest + 1]))
        }
        Sort::Named(..) => Some(Value::Uninterpreted {
            sort: sort.clone(),
            name: "!fresh".into(),
        }),
        _ => None,
    }
}

/// Some value of a sort of plain values (not of an uninterpreted sort or a datatype).
fn sample_value(sort: &Sort) -> Option<Value> {
    match sort {
        Sort::Named(..) => None,
        _ => fresh_value(sort, &BTreeSet::new()),
    }
}

/// Z3 names the elements of an uninterpreted sort `S` as `S!val!N`, sometimes without
/// declaring them in the model.
fn z3_abstract_value(name: &str) -> Option<Sort> {
    let (sort, index) = name.rsplit_once("!val!")?;
    (!sort.is_empty() && !index.is_empty() && index.bytes().all(|b| b.is_ascii_digit()))
        .then(|| Sort::uninterpreted(sort))
}

fn is_floating_point(name: &str) -> bool {
    name.starts_with("fp") || name.starts_with("to_fp") || is_rounding_mode(name)
}

#[cfg(test)]
mod tests {
    use crate::eval::{evaluate_str, BitVec, EvalError, Model, Value};
    use num_bigint::BigUint;

    /// Regression (found by mbt's independent check): a model that defines the unspecified
    /// results of `fp.to_ubv` for another width must not give a value of that width.
    #[test]
    fn a_partial_extension_applies_only_to_its_own_signature() {
        let model = Model::parse(
            "((define-fun fp.to_ubv ((r RoundingMode) (x (_ FloatingPoint 2 4))) (_ BitVec 16) #x0007))",
        )
        .unwrap();
        let v = evaluate_str("((_ fp.to_ubv 6) RNE (_ NaN 2 4))", &model);
        assert!(matches!(v, Err(EvalError::Open(_))), "{v:?}");
        let v = evaluate_str("((_ fp.to_ubv 16) RNE (_ NaN 2 4))", &model);
        assert_eq!(
            v,
            Ok(Value::BitVec(BitVec {
                width: 16,
                bits: BigUint::from(7u32)
            }))
        );
        // Another format's argument does not take it either.
        let v = evaluate_str("((_ fp.to_ubv 16) RNE (_ NaN 3 5))", &model);
        assert!(matches!(v, Err(EvalError::Open(_))), "{v:?}");
    }

    /// Z3's higher-order sequence operations apply their lambda to each element (the index
    /// counting from the given start), `seq.power` repeats; the values are Z3 5.4.1's.
    #[test]
    fn higher_order_sequence_operations_and_power() {
        let model =
            Model::parse("((define-fun s () (Seq Int) (seq.++ (seq.unit 1) (seq.unit 2))))")
                .unwrap();
        let ints = |xs: &[i64]| {
            Value::seq(
                crate::Sort::Int,
                xs.iter().map(|&x| Value::int(x)).collect(),
            )
        };
        let eval = |term: &str| evaluate_str(term, &model);
        assert_eq!(
            eval("(seq.map (lambda ((x Int)) (+ (* 1 x) 1)) s)"),
            Ok(ints(&[2, 3]))
        );
        assert_eq!(
            eval("(seq.mapi (lambda ((i Int) (x Int)) (+ (* 2 x) 0 i)) 5 s)"),
            Ok(ints(&[7, 10]))
        );
        assert_eq!(
            eval("(seq.fold_left (lambda ((a Int) (x Int)) (+ (* 1 x) 0 a)) 10 s)"),
            Ok(Value::int(13))
        );
        assert_eq!(
            eval("(seq.fold_lefti (lambda ((i Int) (a Int) (x Int)) (+ (* x i) a)) 3 0 s)"),
            Ok(Value::int(11))
        );
        assert_eq!(
            eval("(seq.map (lambda ((x Int)) (> x 0)) (as seq.empty (Seq Int)))"),
            Ok(Value::seq(crate::Sort::Bool, vec![]))
        );
        assert_eq!(
            eval("(seq.map ((as const (Array Int Int)) 4) s)"),
            Ok(ints(&[4, 4]))
        );
        assert_eq!(eval("(seq.power s 2)"), Ok(ints(&[1, 2, 1, 2])));
        assert_eq!(eval("(seq.power s (- 1))"), Ok(ints(&[])));
        assert!(matches!(
            eval("(seq.power s 1000000000)"),
            Err(EvalError::Open(_))
        ));
    }

    /// The quantifier texts of mbt's independent check (`check_indep`): a finite domain is
    /// enumerated, alternation and nesting included, and an infinite one is left open.
    #[test]
    fn finite_domain_quantifiers_with_alternation() {
        let model = Model::parse(
            "((declare-fun U!val!0 () U) (declare-fun U!val!1 () U) \
              (define-fun c () (_ BitVec 2) #b10) \
              (define-fun p ((x!0 U)) Bool (ite (= x!0 U!val!0) true false)))",
        )
        .unwrap();
        let check = |term: &str, expected: Option<bool>| {
            let v = evaluate_str(term, &model);
            match expected {
                Some(b) => assert_eq!(v, Ok(Value::Bool(b)), "{term}"),
                None => assert!(matches!(v, Err(EvalError::Open(_))), "{term}: {v:?}"),
            }
        };
        check("(forall ((x Bool)) (or x (not x)))", Some(true));
        check("(exists ((x (_ BitVec 2))) (= x c))", Some(true));
        check("(forall ((x (_ BitVec 2))) (bvule x c))", Some(false));
        // Alternation: every x has a y above it (false at the top value), and the other way.
        check(
            "(forall ((x (_ BitVec 2))) (exists ((y (_ BitVec 2))) (bvugt y x)))",
            Some(false),
        );
        check(
            "(exists ((x (_ BitVec 2))) (forall ((y (_ BitVec 2))) (bvuge x y)))",
            Some(true),
        );
        // Two variables over bit-vectors and Bool together.
        check(
            "(forall ((x (_ BitVec 2)) (b Bool)) (=> b (= (bvadd x #b00) x)))",
            Some(true),
        );
        // The model's universe of U: p holds for one element only.
        check("(exists ((u U)) (p u))", Some(true));
        check("(forall ((u U)) (p u))", Some(false));
        check(
            "(forall ((u U)) (exists ((v U)) (not (= u v))))",
            Some(true),
        );
        // Shadowing: the inner x is the bound one, the let outside binds the constant.
        check(
            "(let ((_t1 c)) (forall ((c (_ BitVec 2))) (or (= c _t1) (not (= c _t1)))))",
            Some(true),
        );
        // Infinite domains are not judged here.
        check("(forall ((i Int)) (>= (* i i) 0))", None);
        check("(exists ((x (_ BitVec 2)) (i Int)) (= i 0))", None);
        // Nested quantifiers share the evaluator's assignments: 4,096 outer assignments of
        // up to 4,096 inner ones each are millions of evaluations, past the budget, so open,
        // although each quantifier alone is within it; 64 of 64 are not.
        check(
            "(forall ((x (_ BitVec 12))) (exists ((y (_ BitVec 12))) (= (bvadd x y) #x000)))",
            None,
        );
        check(
            "(forall ((x (_ BitVec 6))) (exists ((y (_ BitVec 6))) (= (bvadd x y) #b000000)))",
            Some(true),
        );
        check("(exists ((y (_ BitVec 12))) (= y #xfff))", Some(true));
    }
}
