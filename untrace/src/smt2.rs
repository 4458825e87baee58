//! Writing a trace as an SMT-LIB v2.6 script, where the calls allow it.
//!
//! [`write_script`] walks the trace with its own reference state (it never runs Z3). Every
//! term id becomes a `define-fun` (`_t3`), so shared subterms stay shared; constants and
//! functions are declared once per name and sort, as Z3 identifies them. The script follows
//! the first solver of the trace. A call without an SMT-LIB form (another solver, translate,
//! substitute, to_smt2, release, ...) becomes a comment that says so, and so does every term
//! that depends on one; so does a call the trace records as refused by Z3 (`return error`).
//!
//! [`write_portable`] writes the script another solver answers for `--cross-check`: standard
//! SMT-LIB only (no Z3 operations, no Z3 parameters), no commands but declarations,
//! definitions, assertions, scopes and checks, and a check only where its answer means the
//! same as Z3's: the trace recorded sat or unsat, and every assertion and assumption of the
//! solver at that point has a standard form. Its [`PortableScript::compared`] lists those
//! checks in script order, so the other solver's n-th answer belongs to the n-th of them.

use model::call::{
    AnyId, Call, Direction, OptId, ProbeCmp, Ret, SolverId, SolverKind, TacticExpr, TacticId,
    TermId,
};
use model::call_text::{datatype_op, literal, operation, symbol, Dialect};
use model::trace::text::format_call;
use model::trace::Trace;
use model::{SatResult, Sort, State};
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

/// Writes `trace` (read from `file`) as an SMT-LIB script.
pub fn write_script(file: &str, trace: &Trace) -> String {
    let mut w = Writer::default();
    let _ = writeln!(w.out, "; SMT-LIB form of the Z3 API trace {file}");
    w.out.push_str(
        "; Lines starting `; no SMT-LIB form:` are calls this script cannot express.\n\
         (set-option :global-declarations true)\n\
         (set-option :produce-models true)\n\
         (set-option :produce-unsat-cores true)\n",
    );
    for (entry, line) in trace.entries.iter().zip(&trace.lines) {
        w.entry(&entry.call, entry.ret.as_ref(), *line);
    }
    w.out
}

/// A check of the portable script: its trace line, call and the answer the trace records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compared {
    pub line: u32,
    pub call: &'static str,
    pub answer: SatResult,
}

/// The script of [`write_portable`] and the checks it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortableScript {
    pub text: String,
    pub compared: Vec<Compared>,
    /// The checks left out, by reason.
    pub skipped: std::collections::BTreeMap<&'static str, u64>,
}

/// Writes `trace` (read from `file`) as a standard SMT-LIB script for another solver (see the
/// module documentation).
pub fn write_portable(file: &str, trace: &Trace) -> PortableScript {
    let mut w = Writer {
        portable: true,
        ..Writer::default()
    };
    let _ = writeln!(w.out, "; standard SMT-LIB form of the Z3 API trace {file}");
    // Logic ALL: the API mixes theories freely, and a solver without a logic warns about it.
    w.out
        .push_str("(set-option :global-declarations true)\n(set-logic ALL)\n");
    for (entry, line) in trace.entries.iter().zip(&trace.lines) {
        w.entry(&entry.call, entry.ret.as_ref(), *line);
    }
    PortableScript {
        text: w.out,
        compared: w.compared,
        skipped: w.skipped,
    }
}

/// Operations that Z3 writes like standard ones but that the standard lacks.
const Z3_EXTENSIONS: &[&str] = &["fp.to_ieee_bv"];

/// Standard SMT-LIB for a left-associative, chainable or pairwise operation applied to one
/// argument, which the standard does not allow (`(+ x)` is `x`, `(= x)` is `true`); `None`
/// for other operations.
fn one_argument(op: &str, arg: &str) -> Option<String> {
    const ASSOCIATIVE: &[&str] = &[
        "+", "*", "and", "or", "xor", "bvadd", "bvmul", "bvand", "bvor", "bvxor", "concat",
        "str.++", "re.++", "re.union", "re.inter",
    ];
    const RELATIONS: &[&str] = &["=", "distinct", "<", "<=", ">", ">="];
    if ASSOCIATIVE.contains(&op) {
        Some(arg.to_string())
    } else if RELATIONS.contains(&op) {
        Some("true".into())
    } else {
        None
    }
}

#[derive(Default)]
struct Writer {
    /// Standard SMT-LIB for another solver ([`write_portable`]).
    portable: bool,
    /// Portable: the scope depth at which an assertion of the solver had no standard form; its
    /// checks are not compared until that scope is popped.
    lost_at: Option<u32>,
    /// Portable: the checks written.
    compared: Vec<Compared>,
    /// Portable: the checks left out, by reason.
    skipped: std::collections::BTreeMap<&'static str, u64>,
    /// The literal text of terms built as literals.
    literals: HashMap<TermId, String>,
    out: String,
    state: State,
    /// Terms with an SMT-LIB definition.
    defined: HashSet<TermId>,
    /// Open terms (they mention a bound variable): written out where they are used, inside
    /// their quantifier, never as a top-level definition.
    inline: HashMap<TermId, String>,
    /// The term the current call builds, its expression and sort, defined (or inlined)
    /// once the state knows whether it is open.
    pending: Option<(TermId, String, Sort)>,
    /// Sort ids and their SMT-LIB text.
    declared_sorts: HashSet<String>,
    /// Constants and functions declared, by name and signature.
    declared: HashSet<String>,
    funcs: HashMap<model::FuncId, String>,
    /// Recursive functions by name, until their `rec_def` writes their `define-fun-rec`.
    rec_pending: HashMap<model::FuncId, String>,
    /// The solver this script follows.
    main: Option<SolverId>,
    /// Tracker literals of assert_and_track with the scope depth they were made at.
    trackers: Vec<(u32, String)>,
    depth: u32,
    /// The SMT-LIB text of each tactic object (`(and-then simplify smt)`).
    tactics: HashMap<TacticId, String>,
    /// The main solver's tactic, when it was made from a tactic object: its checks are
    /// `check-sat-using` (Z3's script form of a solver from a tactic).
    check_using: Option<String>,
    /// The Optimize context this script follows, when the trace makes one before any solver
    /// (`assert-soft`, `minimize`, `maximize` are Z3's script commands).
    opt: Option<OptId>,
}

impl Writer {
    fn none(&mut self, line: u32, call: &Call, why: &str) {
        let _ = writeln!(
            self.out,
            "; no SMT-LIB form: line {line}: {} ({why})",
            format_call(call)
        );
    }

    /// A check the script leaves out.
    fn skip(&mut self, line: u32, call: &Call, why: &'static str) {
        self.none(line, call, why);
        *self.skipped.entry(why).or_default() += 1;
    }

    /// An assertion of the script's solver that the script cannot express: its checks are not
    /// compared until the scope it was made in is popped.
    fn lose(&mut self, line: u32, call: &Call, why: &str) {
        self.none(line, call, why);
        self.lost_at = Some(self.lost_at.map_or(self.depth, |at| at.min(self.depth)));
    }

    fn name(&self, t: TermId) -> Option<String> {
        if let Some(text) = self.inline.get(&t) {
            return Some(text.clone());
        }
        self.defined.contains(&t).then(|| format!("_t{}", t.0))
    }

    fn names(&self, ts: &[TermId]) -> Option<Vec<String>> {
        ts.iter().map(|t| self.name(*t)).collect()
    }

    fn is_main(&mut self, z: SolverId) -> bool {
        *self.main.get_or_insert(z) == z
    }

    /// Whether the script follows Optimize context `o` (the first made, before any solver).
    fn is_main_opt(&mut self, o: OptId) -> bool {
        if self.main.is_some() || self.portable {
            return false;
        }
        *self.opt.get_or_insert(o) == o
    }

    /// The SMT-LIB text of a tactic object, `None` when an operand has none.
    fn tactic_text(&self, expr: &TacticExpr) -> Option<String> {
        let ops: Option<Vec<&String>> = expr
            .operands()
            .iter()
            .map(|k| self.tactics.get(k))
            .collect();
        let ops = ops?;
        let probe = |p: &model::ProbeTest| {
            let cmp = match p.cmp {
                ProbeCmp::Lt => "<",
                ProbeCmp::Le => "<=",
                ProbeCmp::Gt => ">",
                ProbeCmp::Ge => ">=",
                ProbeCmp::Eq => "=",
            };
            format!("({cmp} {} {})", p.probe, p.value)
        };
        Some(match expr {
            TacticExpr::Named(name) => name.clone(),
            TacticExpr::AndThen(..) => format!("(and-then {} {})", ops[0], ops[1]),
            TacticExpr::OrElse(..) => format!("(or-else {} {})", ops[0], ops[1]),
            TacticExpr::Repeat(_, n) => format!("(repeat {} {n})", ops[0]),
            TacticExpr::TryFor(_, ms) => format!("(try-for {} {ms})", ops[0]),
            TacticExpr::When(p, _) => format!("(when {} {})", probe(p), ops[0]),
            TacticExpr::Cond(p, ..) => format!("(cond {} {} {})", probe(p), ops[0], ops[1]),
            TacticExpr::UsingParams(_, params) => {
                let mut text = format!("(using-params {}", ops[0]);
                for (key, value) in params {
                    let _ = write!(text, " :{key} {value}");
                }
                text.push(')');
                text
            }
            TacticExpr::Skip => "skip".into(),
            TacticExpr::Fail => "fail".into(),
            TacticExpr::FailIf(p) => format!("(fail-if {})", probe(p)),
            TacticExpr::FailIfNotDecided => return None,
            TacticExpr::ParOr(..) => format!("(par-or {} {})", ops[0], ops[1]),
            TacticExpr::ParAndThen(..) => format!("(par-then {} {})", ops[0], ops[1]),
        })
    }

    /// Declares the uninterpreted sorts in `sort` (at any depth) not declared yet; datatypes
    /// are declared by their own `declare-datatypes`.
    fn declare_sort(&mut self, sort: &Sort) {
        let mut named = Vec::new();
        model::datatype::named_in(sort, &mut named);
        for name in named {
            if self.state.datatypes.by_name.contains_key(&name) {
                continue;
            }
            if self.declared_sorts.insert(name.clone()) {
                if let Some(s) = symbol(&name) {
                    let _ = writeln!(self.out, "(declare-sort {s} 0)");
                }
            }
        }
    }

    /// The SMT-LIB expression a term-building call (which returned `ret`) defines.
    fn term(&mut self, call: &Call, ret: Option<&Ret>) -> Result<String, &'static str> {
        const MISSING: &str = "an argument has no SMT-LIB form";
        let sort_of = |st: &State, t: &TermId| st.terms.get(t).map(|i| i.sort.clone());
        Ok(match call {
            Call::Const { sort, name } => {
                let sort = self.state.sorts[sort].clone();
                self.declare_sort(&sort);
                let s = symbol(name).ok_or("the name cannot be an SMT-LIB symbol")?;
                if self.declared.insert(format!("{s} () {sort}")) {
                    let _ = writeln!(self.out, "(declare-const {s} {sort})");
                }
                s
            }
            Call::Lit { sort, value } => {
                let sort = self.state.sorts[sort].clone();
                let text = literal(&sort, value).ok_or("no literal syntax")?;
                if let Some(Ret::Id(AnyId::Term(t))) = ret {
                    self.literals.insert(*t, text.clone());
                }
                text
            }
            // A recursive function is defined by its `rec_def`, whose body applies it: before
            // that, only in open terms (written out inside the definition).
            Call::Apply { func, args }
                if self.rec_pending.contains_key(func)
                    && args
                        .iter()
                        .all(|a| self.state.terms.get(a).is_some_and(|i| i.is_closed())) =>
            {
                return Err("a recursive function applied before its definition")
            }
            Call::Apply { func, args } => {
                let f = self
                    .funcs
                    .get(func)
                    .or_else(|| self.rec_pending.get(func))
                    .cloned()
                    .ok_or(MISSING)?;
                let args = self.names(args).ok_or(MISSING)?;
                if args.is_empty() {
                    f
                } else {
                    format!("({f} {})", args.join(" "))
                }
            }
            // Z3's dialect: `(_ as-array f)` and `((_ map f) a...)`.
            Call::AsArray(_) | Call::ArrayMap { .. } if self.portable => {
                return Err("a Z3 extension")
            }
            Call::AsArray(func) => {
                let f = self.funcs.get(func).cloned().ok_or(MISSING)?;
                format!("(_ as-array {f})")
            }
            Call::ArrayMap { func, arrays } => {
                let f = self.funcs.get(func).cloned().ok_or(MISSING)?;
                let names = self.names(arrays).ok_or(MISSING)?;
                format!("((_ map {f}) {})", names.join(" "))
            }
            Call::Op { op, indices, args } => {
                let names = self.names(args).ok_or(MISSING)?;
                let first = args.first().and_then(|t| sort_of(&self.state, t));
                if self.portable && Z3_EXTENSIONS.contains(&op.name()) {
                    return Err("a Z3 extension");
                }
                if self.portable && names.len() == 1 && indices.is_empty() {
                    if let Some(single) = one_argument(op.name(), &names[0]) {
                        return Ok(single);
                    }
                }
                let dialect = if self.portable {
                    Dialect::Standard
                } else {
                    Dialect::Z3
                };
                operation(op.name(), indices, &names, first.as_ref(), dialect)
                    .ok_or("no SMT-LIB operation")?
            }
            Call::ConstArray { index, value } => {
                // Constant arrays are no standard SMT-LIB: other solvers take them of a value
                // only (cvc5: "expected a value").
                let v = if self.portable {
                    self.literals
                        .get(value)
                        .cloned()
                        .ok_or("a constant array of a non-value")?
                } else {
                    self.name(*value).ok_or(MISSING)?
                };
                let element = sort_of(&self.state, value).ok_or(MISSING)?;
                let index = self.state.sorts[index].clone();
                format!("((as const (Array {index} {element})) {v})")
            }
            // Z3's finite sets (its dialect only): the empty set by its sort, map and filter
            // over the lambda the executor builds.
            Call::FsetEmpty(s) if !self.portable => {
                let sort = self.state.sorts.get(s).ok_or(MISSING)?;
                format!("(as set.empty {sort})")
            }
            Call::FsetMap { set, add, mul } if !self.portable => {
                let set = self.name(*set).ok_or(MISSING)?;
                format!(
                    "(set.map (lambda ((x Int)) (+ (* {} x) {})) {set})",
                    int(*mul),
                    int(*add)
                )
            }
            // Z3's higher-order sequence operations (its dialect only), over the lambda the
            // executor builds.
            Call::SeqHof {
                function,
                args,
                add,
                mul,
            } if !self.portable => {
                let hof = model::seq_hof::SeqHof::by_function(function).ok_or(MISSING)?;
                let args = args
                    .iter()
                    .map(|a| self.name(*a).ok_or(MISSING))
                    .collect::<Result<Vec<String>, _>>()?;
                hof.smt2(&int(*add), &int(*mul), &args)
            }
            Call::FsetFilter { set, low, high } if !self.portable => {
                let set = self.name(*set).ok_or(MISSING)?;
                format!(
                    "(set.filter (lambda ((x Int)) (and (<= {} x) (<= x {}))) {set})",
                    int(*low),
                    int(*high)
                )
            }
            // The empty and full sets are constant arrays to Bool (Z3's own form of them).
            Call::EmptySet(s) | Call::FullSet(s) => {
                let element = self.state.sorts.get(s).ok_or(MISSING)?;
                let full = matches!(call, Call::FullSet(_));
                format!("((as const (Array {element} Bool)) {full})")
            }
            Call::SetAdd(set, element)
            | Call::SetDel(set, element)
            | Call::SetMember(element, set) => {
                let (set, element) = (
                    self.name(*set).ok_or(MISSING)?,
                    self.name(*element).ok_or(MISSING)?,
                );
                model::call_text::set_element_term(call, &set, &element).ok_or(MISSING)?
            }
            // simplify returns an equivalent term.
            Call::Simplify(t) | Call::SimplifyWith { term: t, .. } => {
                self.name(*t).ok_or(MISSING)?
            }
            // A quantifier maker gives the quantifier itself.
            Call::QuantRebuild { function, term }
                if model::quant::Maker::by_name(function).is_some_and(|m| !m.lambda) =>
            {
                self.name(*term).ok_or(MISSING)?
            }
            Call::QuantRebuild { .. } => return Err("a lambda of a quantifier's body"),
            // Named by its term id: no constant of the script captures it.
            Call::Var { .. } => match ret {
                Some(Ret::Id(AnyId::Term(t))) => format!("_v{}", t.0),
                _ => return Err(MISSING),
            },
            Call::Quantifier {
                forall,
                weight,
                vars,
                body,
                patterns,
                no_patterns,
            } => {
                let mut binders = Vec::new();
                for v in vars {
                    let sort = sort_of(&self.state, v).ok_or(MISSING)?;
                    binders.push(format!("({} {sort})", self.name(*v).ok_or(MISSING)?));
                }
                let mut attributes = String::new();
                for group in patterns {
                    let terms = self.names(group).ok_or(MISSING)?;
                    let _ = write!(attributes, " :pattern ({})", terms.join(" "));
                }
                // Z3's own attributes; another solver reads the quantifier without them.
                if !self.portable {
                    for t in no_patterns {
                        let _ =
                            write!(attributes, " :no-pattern {}", self.name(*t).ok_or(MISSING)?);
                    }
                    if *weight > 0 {
                        let _ = write!(attributes, " :weight {weight}");
                    }
                }
                let body = self.name(*body).ok_or(MISSING)?;
                let body = if attributes.is_empty() {
                    body
                } else {
                    format!("(! {body}{attributes})")
                };
                let kind = if *forall { "forall" } else { "exists" };
                format!("({kind} ({}) {body})", binders.join(" "))
            }
            // Field updates are SMT-LIB 2.7, which other solvers may not read yet; Z3's parser
            // cannot tell which instance of a parametric datatype an update's field is of.
            Call::DtUpdate { .. } if self.portable => return Err("a datatype field update"),
            Call::DtUpdate { term, .. }
                if sort_of(&self.state, term)
                    .is_some_and(|s| matches!(s, Sort::Named(_, ps) if !ps.is_empty())) =>
            {
                return Err("a field update of a parametric datatype")
            }
            // Z3's parser cannot tell which instance of a parametric datatype a tester is of:
            // it takes the constructor's full signature instead (`(_ is (C (S1 ..) S))`).
            Call::DtTest { ctor, term } if !self.portable => {
                let sort = sort_of(&self.state, term).ok_or(MISSING)?;
                let arg = self.name(*term).ok_or(MISSING)?;
                match self.state.datatypes.of(&sort) {
                    Some((_, d, params)) if !params.is_empty() => {
                        let c = d
                            .constructors
                            .iter()
                            .position(|(c, _)| c == ctor)
                            .ok_or(MISSING)?;
                        let fields: Vec<String> = d
                            .field_sorts(c, params)
                            .iter()
                            .map(Sort::to_string)
                            .collect();
                        format!("((_ is ({ctor} ({}) {sort})) {arg})", fields.join(" "))
                    }
                    _ => format!("((_ is {ctor}) {arg})"),
                }
            }
            Call::DtConstruct { .. }
            | Call::DtTest { .. }
            | Call::DtSelect { .. }
            | Call::DtUpdate { .. } => {
                let args: Vec<TermId> = call
                    .uses()
                    .into_iter()
                    .filter_map(|id| match id {
                        AnyId::Term(t) => Some(t),
                        _ => None,
                    })
                    .collect();
                let names = self.names(&args).ok_or(MISSING)?;
                let built = self.state.result_sort(call).ok().flatten().ok_or(MISSING)?;
                datatype_op(call, &names, &built).ok_or("no SMT-LIB form")?
            }
            // A form the call's description gives (`model::Smt2::Indexed`).
            _ => {
                let names = self.names(&call.term_slots()).ok_or(MISSING)?;
                let dialect = if self.portable {
                    Dialect::Standard
                } else {
                    Dialect::Z3
                };
                return match call.spec().smt2 {
                    model::Smt2::Indexed { .. } => {
                        model::call_text::indexed_term(call, &names, dialect)
                            .ok_or("a Z3 extension")
                    }
                    model::Smt2::ApiOnly | model::Smt2::Written => Err("Z3 API only"),
                };
            }
        })
    }

    fn entry(&mut self, call: &Call, ret: Option<&Ret>, line: u32) {
        if self.state.check(call).is_err() {
            self.none(line, call, "not valid here; the replay reports it");
            return;
        }
        if let Some(message) = ret.and_then(Ret::error) {
            // Z3 refused the call, so it had no effect: the script leaves it out.
            let why = format!("Z3 refused it: {}", model::call::normalize_error(message));
            self.none(line, call, &why);
            return;
        }
        let new_term = match (call.ret_kind(), ret) {
            (model::RetKind::Term, Some(Ret::Id(AnyId::Term(t)))) => Some(*t),
            _ => None,
        };
        match call {
            Call::SortUninterpreted(name) => self.declare_sort(&Sort::uninterpreted(name.clone())),
            Call::DeclareDatatypes {
                params, datatypes, ..
            } => {
                let mut fields = Vec::new();
                for d in datatypes {
                    for c in &d.constructors {
                        for f in &c.fields {
                            if let model::datatype::FieldSort::Sort(id) = f.sort {
                                fields.push(self.state.sorts[&id].clone());
                            }
                        }
                    }
                }
                for sort in &fields {
                    self.declare_sort(sort);
                }
                let state = &self.state;
                let decl = model::datatype::smtlib_decl(params, datatypes, |id| {
                    state.sorts[&id].to_string()
                });
                let _ = writeln!(self.out, "{decl}");
            }
            Call::Fun {
                name,
                domain,
                range,
            } => match (symbol(name), ret) {
                (Some(s), Some(Ret::Id(AnyId::Func(f)))) => {
                    let domain: Vec<Sort> =
                        domain.iter().map(|d| self.state.sorts[d].clone()).collect();
                    let range = self.state.sorts[range].clone();
                    for sort in domain.iter().chain([&range]) {
                        self.declare_sort(sort);
                    }
                    let ds: Vec<String> = domain.iter().map(Sort::to_string).collect();
                    let decl = format!("{s} ({}) {range}", ds.join(" "));
                    if self.declared.insert(decl.clone()) {
                        let _ = writeln!(self.out, "(declare-fun {decl})");
                    }
                    self.funcs.insert(*f, s);
                }
                _ => self.none(line, call, "the name cannot be an SMT-LIB symbol"),
            },
            Call::RecFun {
                name,
                domain,
                range,
            } => match (symbol(name), ret) {
                (Some(s), Some(Ret::Id(AnyId::Func(f)))) => {
                    for d in domain.iter().chain([range]) {
                        let sort = self.state.sorts[d].clone();
                        self.declare_sort(&sort);
                    }
                    self.rec_pending.insert(*f, s);
                }
                _ => self.none(line, call, "the name cannot be an SMT-LIB symbol"),
            },
            // Z3's dialect: `((_ linear-order I) x y)`.
            Call::Relation { kind, sort, index } if !self.portable => {
                if let Some(Ret::Id(AnyId::Func(f))) = ret {
                    let sort = self.state.sorts[sort].clone();
                    self.declare_sort(&sort);
                    self.funcs
                        .insert(*f, format!("(_ {} {index})", kind.smtlib_name()));
                }
            }
            Call::Relation { .. } => self.none(line, call, "a Z3 extension"),
            // Z3's dialect: `((_ transitive-closure E) x y)`, E a declared function.
            Call::TransitiveClosure(of) if !self.portable => {
                match (
                    ret,
                    self.funcs.get(of).filter(|e| !e.starts_with('(')).cloned(),
                ) {
                    (Some(Ret::Id(AnyId::Func(f))), Some(e)) => {
                        self.funcs.insert(*f, format!("(_ transitive-closure {e})"));
                    }
                    _ => self.none(line, call, "a closure of a relation without a name"),
                }
            }
            Call::TransitiveClosure(_) => self.none(line, call, "a Z3 extension"),
            Call::RecDef { func, vars, body } => {
                let params: Option<Vec<String>> = vars
                    .iter()
                    .map(|v| {
                        let sort = &self.state.terms.get(v)?.sort;
                        Some(format!("({} {sort})", self.name(*v)?))
                    })
                    .collect();
                let range = self.state.funcs.get(func).map(|(_, r)| r.clone());
                let body = self.name(*body);
                // Another function still without its definition in the body: the two are
                // mutually recursive, which needs a `define-funs-rec` of both, not written.
                let mutual = body.as_deref().is_some_and(|b| {
                    b.split(|c: char| c.is_whitespace() || c == '(' || c == ')')
                        .any(|word| {
                            self.rec_pending
                                .iter()
                                .any(|(g, name)| g != func && name == word)
                        })
                });
                let pending = self.rec_pending.remove(func);
                match (pending.filter(|_| !mutual), params, body, range) {
                    (Some(f), Some(params), Some(body), Some(range)) => {
                        let _ = writeln!(
                            self.out,
                            "(define-fun-rec {f} ({}) {range} {body})",
                            params.join(" ")
                        );
                        self.funcs.insert(*func, f);
                    }
                    _ if mutual => {
                        self.none(line, call, "mutually recursive functions (define-funs-rec)")
                    }
                    _ => self.none(line, call, "the function or its body has no SMT-LIB form"),
                }
            }
            _ if new_term.is_some() => {
                let t = new_term.unwrap_or(TermId(0));
                match self.term(call, ret) {
                    Ok(expr) => {
                        let sort = self.state.result_sort(call).ok().flatten();
                        if let Some(sort) = sort {
                            self.pending = Some((t, expr, sort));
                        }
                    }
                    Err(why) => self.none(line, call, why),
                }
            }
            Call::NewSolver(kind) => {
                if let Some(Ret::Id(AnyId::Solver(z))) = ret {
                    if self.is_main(*z) {
                        // No `set-logic`: the API builds terms of every theory whatever
                        // the solver's logic, and a script with the logic would reject them.
                        match kind {
                            SolverKind::Logic(l) => {
                                let _ = writeln!(self.out, "; solver for logic {l} (no set-logic)");
                            }
                            SolverKind::Tactic(t) => self.none(line, call, &format!("tactic {t}")),
                            SolverKind::FromTactic(k) if !self.portable => {
                                match self.tactics.get(k).cloned() {
                                    Some(text) => {
                                        let _ = writeln!(
                                            self.out,
                                            "; solver from tactic {text}: check-sat-using"
                                        );
                                        self.check_using = Some(text);
                                    }
                                    None => self.none(line, call, "a tactic without a text"),
                                }
                            }
                            SolverKind::FromTactic(_) | SolverKind::Default => {}
                        }
                    } else {
                        self.none(line, call, "a second solver");
                    }
                }
            }
            Call::SetGlobal { .. } | Call::SetParam { .. } if self.portable => {
                self.none(line, call, "a Z3 parameter")
            }
            Call::SetGlobal { key, value } => {
                let _ = writeln!(self.out, "(set-option :{key} {value})");
            }
            Call::SetParam { solver, key, value } if self.is_main(*solver) => {
                let _ = writeln!(self.out, "(set-option :{key} {value})");
            }
            Call::Push(z) if self.is_main(*z) => {
                self.depth += 1;
                self.out.push_str("(push 1)\n");
            }
            Call::Pop(z, n) if self.is_main(*z) => {
                self.depth = self.depth.saturating_sub(*n);
                let depth = self.depth;
                self.trackers.retain(|(d, _)| *d <= depth);
                self.lost_at = self.lost_at.filter(|&at| at <= depth);
                let _ = writeln!(self.out, "(pop {n})");
            }
            Call::Assert(z, t) if self.is_main(*z) => match self.name(*t) {
                Some(t) => {
                    let _ = writeln!(self.out, "(assert {t})");
                }
                None => self.lose(line, call, "the term has no SMT-LIB form"),
            },
            Call::AssertAndTrack {
                solver,
                term,
                tracker,
            } if self.is_main(*solver) => {
                match (self.name(*term), self.name(*tracker)) {
                    (Some(t), Some(p)) => {
                        // Z3 asserts `p => t` and assumes `p` at each check.
                        let _ = writeln!(self.out, "(assert (=> {p} {t})) ; assert_and_track");
                        self.trackers.push((self.depth, p));
                    }
                    _ => self.lose(line, call, "the term has no SMT-LIB form"),
                }
            }
            Call::CheckSat(z) | Call::CheckSatAssuming(z, _) if self.is_main(*z) => {
                let mut assumed: Vec<String> =
                    self.trackers.iter().map(|(_, p)| p.clone()).collect();
                if let Call::CheckSatAssuming(_, ts) = call {
                    match self.names(ts) {
                        Some(names) => assumed.extend(names),
                        None => return self.skip(line, call, "an assumption has no SMT-LIB form"),
                    }
                }
                if self.portable {
                    let answer = match ret {
                        Some(Ret::Sat(a)) if *a != SatResult::Unknown => *a,
                        _ => return self.skip(line, call, "no sat or unsat answer recorded"),
                    };
                    if self.lost_at.is_some() {
                        return self.skip(line, call, "an assertion has no SMT-LIB form");
                    }
                    self.compared.push(Compared {
                        line,
                        call: call.name(),
                        answer,
                    });
                }
                if let (true, Some(tactic), false) =
                    (assumed.is_empty(), &self.check_using, self.portable)
                {
                    let _ = writeln!(self.out, "(check-sat-using {tactic})");
                } else if assumed.is_empty() {
                    self.out.push_str("(check-sat)\n");
                } else {
                    let _ = writeln!(self.out, "(check-sat-assuming ({}))", assumed.join(" "));
                }
                if let Some(Ret::Sat(r)) = ret {
                    let _ = writeln!(self.out, "; recorded: {}", r.name());
                }
            }
            // Another solver's answers are all the portable script asks for.
            Call::GetUnsatCore(_) | Call::GetModel(_) | Call::ModelEval { .. } if self.portable => {
                self.none(line, call, "only answers are compared")
            }
            Call::GetUnsatCore(z) if self.is_main(*z) => self.out.push_str("(get-unsat-core)\n"),
            Call::GetModel(z) if self.is_main(*z) => self.out.push_str("(get-model)\n"),
            Call::ModelEval { model, term, .. }
                if self
                    .state
                    .models
                    .get(model)
                    .is_some_and(|z| Some(*z) == self.main) =>
            {
                match self.name(*term) {
                    Some(t) => {
                        let _ = writeln!(self.out, "(get-value ({t}))");
                    }
                    None => self.none(line, call, "the term has no SMT-LIB form"),
                }
            }
            Call::Reset(z) if self.is_main(*z) => {
                self.depth = 0;
                self.trackers.clear();
                self.lost_at = None;
                self.out.push_str("(reset-assertions)\n");
            }
            Call::FromString(z, _) if self.portable && self.is_main(*z) => {
                self.lose(line, call, "Z3's own text")
            }
            Call::FromString(z, text) if self.is_main(*z) => {
                let _ = writeln!(self.out, "; from_string:\n{text}");
            }
            Call::MkTactic(expr) => {
                let text = self.tactic_text(expr);
                if let (Some(Ret::Id(AnyId::Tactic(k))), Some(text)) = (ret, text) {
                    self.tactics.insert(*k, text);
                }
                self.none(line, call, "a tactic object (used by check-sat-using)")
            }
            Call::OptAssert(o, t) if self.is_main_opt(*o) => match self.name(*t) {
                Some(t) => {
                    let _ = writeln!(self.out, "(assert {t})");
                }
                None => self.none(line, call, "the term has no SMT-LIB form"),
            },
            Call::OptAssertSoft {
                opt,
                term,
                weight,
                group,
            } if self.is_main_opt(*opt) => match (self.name(*term), symbol(group)) {
                (Some(t), Some(g)) => {
                    let _ = writeln!(self.out, "(assert-soft {t} :weight {weight} :id {g})");
                }
                _ => self.none(line, call, "the term has no SMT-LIB form"),
            },
            Call::OptObjective {
                opt,
                term,
                direction,
            } if self.is_main_opt(*opt) => match self.name(*term) {
                Some(t) => {
                    let command = match direction {
                        Direction::Minimize => "minimize",
                        Direction::Maximize => "maximize",
                    };
                    let _ = writeln!(self.out, "({command} {t})");
                }
                None => self.none(line, call, "the term has no SMT-LIB form"),
            },
            Call::OptPush(o) if self.is_main_opt(*o) => self.out.push_str("(push 1)\n"),
            Call::OptPop(o) if self.is_main_opt(*o) => self.out.push_str("(pop 1)\n"),
            Call::OptCheck(o) if self.is_main_opt(*o) => {
                self.out.push_str("(check-sat)\n");
                if let Some(Ret::Sat(r)) = ret {
                    let _ = writeln!(self.out, "; recorded: {}", r.name());
                }
            }
            Call::OptGetModel(o) if self.is_main_opt(*o) => self.out.push_str("(get-model)\n"),
            Call::OptBound { opt, .. } if self.is_main_opt(*opt) => {
                self.out.push_str("(get-objectives)\n")
            }
            // Built-in sorts need no declaration (uninterpreted ones are declared above).
            _ if call.ret_kind() == model::RetKind::Sort => {}
            Call::Release(_) => self.none(line, call, "handles are not SMT-LIB"),
            Call::Translate(_) => self.none(line, call, "solver clone"),
            Call::ToSmt2(_) => self.none(line, call, "Z3 API only"),
            _ => self.none(line, call, "a second solver"),
        }
        // Keeps the state in step; an invalid call was reported above.
        let _ = self.state.apply(call, ret);
        if let Some((t, expr, sort)) = self.pending.take() {
            if self.state.terms.get(&t).is_some_and(|i| !i.is_closed()) {
                self.inline.insert(t, expr);
            } else {
                let _ = writeln!(self.out, "(define-fun _t{} () {sort} {expr})", t.0);
                self.defined.insert(t);
            }
        }
    }
}

/// An SMT-LIB Int numeral (a negative one as `(- N)`).
fn int(n: i32) -> String {
    if n < 0 {
        format!("(- {})", n.unsigned_abs())
    } else {
        n.to_string()
    }
}
