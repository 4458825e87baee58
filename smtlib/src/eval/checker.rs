//! Model validation of whole scripts: for every `check-sat` of a problem, every assertion in
//! scope (and every `check-sat-assuming` assumption) must evaluate to true under the model the
//! solver printed after its answer. The result is a [`Report`] with one [`CheckResult`] per
//! `check-sat` and an overall [`Verdict`].
//!
//! Two modes share the statement handling:
//! - full ([`check_texts`], [`check_files`] without `interleaved`): the problem is parsed
//!   whole, assertions are kept per push/pop scope and evaluated at each `check-sat`;
//! - interleaved ([`check_files`] with `interleaved`): the response is read first, then the
//!   problem is streamed statement group by statement group. A first cheap pass over the
//!   problem computes, for every assertion, the range of `check-sat`s it is in scope for; the
//!   second pass evaluates each assertion as soon as it is read, under every model of that
//!   range, and drops it. Only definitions stay in memory, never the assertions.

use super::evaluator::Evaluator;
use super::model::{Constructor, Env, FunDef, Model};
use super::response::{read_response, Answer, Status};
use super::sort_aliases::parse_sort;
use super::source::{Located, Src, StatementReader, TermRef};
use super::value::Value;
use crate::{unquote, Atom, NodeId};
use std::collections::BTreeSet;
use std::fmt;
use std::fs::File;
use std::io::BufReader;
use std::path::Path;
use std::rc::Rc;

/// The overall result, ordered from best to worst.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    Valid,
    Incomplete,
    Invalid,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Valid => "valid",
            Verdict::Incomplete => "incomplete",
            Verdict::Invalid => "invalid",
        }
    }
}

/// An assertion that is false under a model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// `file:line:column` of the assertion.
    pub location: String,
    /// The asserted term as written (shortened when long).
    pub term: String,
    /// The model's values of the declared constants the term mentions (`?` when it has none).
    pub values: Vec<(String, String)>,
}

/// What became of one `check-sat`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every assertion in scope is true.
    Valid,
    /// Some assertions are false.
    Invalid(Vec<Failure>),
    /// No assertion is false but some truth values depend on what the model leaves open;
    /// the reasons say what (also: a sat answer without a model).
    Incomplete(Vec<String>),
    /// Nothing to validate: the answer was unsat or unknown, or there was no answer.
    Skipped(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckResult {
    /// 1-based number of the `check-sat` in the problem.
    pub number: usize,
    /// `file:line:column` of the `check-sat`.
    pub location: String,
    pub outcome: Outcome,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub checks: Vec<CheckResult>,
    /// Remarks that do not change the verdict (solver errors, unanswered check-sats, ...).
    pub notes: Vec<String>,
}

impl Report {
    pub fn verdict(&self) -> Verdict {
        self.checks
            .iter()
            .map(|c| match c.outcome {
                Outcome::Valid | Outcome::Skipped(_) => Verdict::Valid,
                Outcome::Incomplete(_) => Verdict::Incomplete,
                Outcome::Invalid(_) => Verdict::Invalid,
            })
            .max()
            .unwrap_or(Verdict::Valid)
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for note in &self.notes {
            writeln!(f, "note: {note}")?;
        }
        for c in &self.checks {
            let head = format!("check-sat {} at {}", c.number, c.location);
            match &c.outcome {
                Outcome::Valid => writeln!(f, "{head}: valid")?,
                Outcome::Skipped(why) => writeln!(f, "{head}: skipped ({why})")?,
                Outcome::Incomplete(reasons) => {
                    writeln!(f, "{head}: incomplete")?;
                    for r in reasons {
                        writeln!(f, "  {r}")?;
                    }
                }
                Outcome::Invalid(failures) => {
                    writeln!(f, "{head}: invalid")?;
                    for fail in failures {
                        let values: Vec<String> = fail
                            .values
                            .iter()
                            .map(|(n, v)| format!("{n} = {v}"))
                            .collect();
                        writeln!(
                            f,
                            "  assertion at {} is false: {}",
                            fail.location, fail.term
                        )?;
                        if !values.is_empty() {
                            writeln!(f, "    where {}", values.join(", "))?;
                        }
                    }
                }
            }
        }
        write!(f, "verdict: {}", self.verdict().name())
    }
}

/// Limits for evaluation; the defaults suit the main thread's stack.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_depth: 2_000 }
    }
}

/// Validates a problem and a response given as texts (full mode); `problem_label` and
/// `response_label` name them in messages.
pub fn check_texts(
    problem: &str,
    problem_label: &str,
    response: &str,
    response_label: &str,
    limits: Limits,
) -> Result<Report, Located> {
    let response = Src::parse(response, response_label, 0)?;
    let checker = Checker::new(&response, None, limits);
    read_statements(
        checker,
        StatementReader::new(problem.as_bytes(), problem_label),
        response_label,
    )
}

/// Feeds the problem's statements to `checker` in order until `(exit)`. Both modes read the
/// problem this way, statement by statement, so that they agree on everything a solver reads
/// (nothing after `(exit)`, not even a syntax error there).
/// A response with fewer answers than the problem has `check-sat`s is an error: an empty or
/// truncated response (a solver that died) must not pass for a valid one.
fn read_statements<R: std::io::BufRead>(
    mut checker: Checker,
    mut reader: StatementReader<R>,
    response_label: &str,
) -> Result<Report, Located> {
    'groups: while let Some(group) = reader.next_group() {
        let group = group?;
        for &root in group.tree.roots() {
            if !checker.statement(&group, root)? {
                break 'groups;
            }
        }
    }
    if checker.answers.len() < checker.checks {
        return Err(Located {
            file: response_label.to_string(),
            line: 0,
            column: 0,
            message: format!(
                "the response answers {} of the problem's {} check-sat commands: it is empty or \
                 truncated",
                checker.answers.len(),
                checker.checks
            ),
        });
    }
    Ok(checker.finish())
}

/// Validates a problem and a response given as texts in the interleaved mode of
/// [`check_files`] (the problem read twice as a stream), for callers that hold the texts.
pub fn check_texts_interleaved(
    problem: &str,
    problem_label: &str,
    response: &str,
    response_label: &str,
    limits: Limits,
) -> Result<Report, Located> {
    let response = Src::parse(response, response_label, 0)?;
    let ranges = scope_ranges(StatementReader::new(problem.as_bytes(), problem_label))?;
    let checker = Checker::new(&response, Some(ranges), limits);
    read_statements(
        checker,
        StatementReader::new(problem.as_bytes(), problem_label),
        response_label,
    )
}

/// Validates the files (full mode, or the low-memory interleaved mode).
pub fn check_files(
    problem: &Path,
    response: &Path,
    interleaved: bool,
    limits: Limits,
) -> Result<Report, Located> {
    let read = |p: &Path| {
        std::fs::read_to_string(p).map_err(|e| Located {
            file: p.display().to_string(),
            line: 0,
            column: 0,
            message: format!("cannot read: {e}"),
        })
    };
    let problem_label = problem.display().to_string();
    let response_label = response.display().to_string();
    if !interleaved {
        return check_texts(
            &read(problem)?,
            &problem_label,
            &read(response)?,
            &response_label,
            limits,
        );
    }
    let response = Src::parse(&read(response)?, &response_label, 0)?;
    let open = || {
        File::open(problem)
            .map(BufReader::new)
            .map_err(|e| Located {
                file: problem_label.clone(),
                line: 0,
                column: 0,
                message: format!("cannot read: {e}"),
            })
    };
    let ranges = scope_ranges(StatementReader::new(open()?, &problem_label))?;
    let checker = Checker::new(&response, Some(ranges), limits);
    read_statements(
        checker,
        StatementReader::new(open()?, &problem_label),
        &response_label,
    )
}

/// For every assertion in order, the `check-sat` numbers (0-based, half-open) it is in scope for.
fn scope_ranges<R: std::io::BufRead>(
    mut reader: StatementReader<R>,
) -> Result<Vec<(u32, u32)>, Located> {
    let mut ranges: Vec<(u32, u32)> = Vec::new();
    let mut frames: Scopes<Vec<usize>> = Scopes::new();
    let mut checks = 0u32;
    let close = |frame: Vec<usize>, ranges: &mut Vec<(u32, u32)>, checks: u32| {
        for id in frame {
            ranges[id].1 = checks;
        }
    };
    'groups: while let Some(group) = reader.next_group() {
        let group = group?;
        let tree = &group.tree;
        for &root in tree.roots() {
            match tree.head(root) {
                Some("assert") => {
                    frames.top().push(ranges.len());
                    ranges.push((checks, u32::MAX));
                }
                Some("check-sat" | "check-sat-assuming") => checks += 1,
                Some("push") => frames.push(count_arg(&group, root).unwrap_or(1)),
                Some("pop") => {
                    // Too many pops are the evaluation pass's error to report.
                    let n = count_arg(&group, root).unwrap_or(1);
                    let _ = frames.pop(n, |f| close(f, &mut ranges, checks));
                }
                Some("reset" | "reset-assertions") => {
                    frames.reset(|f| close(f, &mut ranges, checks));
                }
                Some("exit") => break 'groups,
                _ => {}
            }
        }
    }
    frames.reset(|f| close(f, &mut ranges, checks));
    Ok(ranges)
}

/// Push/pop scopes, run-length encoded: `(push 100000000)` is one entry that stands for that
/// many scopes, all empty but the topmost, since only the topmost scope takes new assertions
/// and names. Pushing and popping cost the number of commands, not the number of scopes.
struct Scopes<T> {
    /// `(content of the topmost scope of the run, number of scopes in the run)`; the first
    /// entry is the global scope, never popped.
    runs: Vec<(T, u32)>,
}

impl<T: Default> Scopes<T> {
    fn new() -> Scopes<T> {
        Scopes {
            runs: vec![(T::default(), 1)],
        }
    }

    fn top(&mut self) -> &mut T {
        let last = self.runs.len() - 1;
        &mut self.runs[last].0
    }

    fn push(&mut self, n: u32) {
        if n > 0 {
            self.runs.push((T::default(), n));
        }
    }

    /// Pops `n` scopes, handing the content of each non-empty one to `forget`; `Err` when
    /// fewer than `n` scopes were pushed (the scopes up to there are popped).
    fn pop(&mut self, mut n: u32, mut forget: impl FnMut(T)) -> Result<(), ()> {
        while n > 0 {
            if self.runs.len() == 1 {
                return Err(());
            }
            let last = self.runs.len() - 1;
            let (content, count) = &mut self.runs[last];
            forget(std::mem::take(content));
            let popped = n.min(*count);
            *count -= popped;
            n -= popped;
            if *count == 0 {
                self.runs.pop();
            }
        }
        Ok(())
    }

    /// Pops every scope and empties the global one (`reset`).
    fn reset(&mut self, mut forget: impl FnMut(T)) {
        for (content, _) in self.runs.drain(..) {
            forget(content);
        }
        self.runs.push((T::default(), 1));
    }

    fn iter(&self) -> impl Iterator<Item = &T> {
        self.runs.iter().map(|(content, _)| content)
    }
}

/// The numeral argument of `push`/`pop` (absent means 1).
fn count_arg(src: &Src, node: NodeId) -> Option<u32> {
    let ch = src.tree.children(node);
    match ch.get(1).and_then(|&c| src.tree.atom(c)) {
        Some(Atom::Numeral(n)) => n.parse().ok(),
        _ => None,
    }
}

/// The names a scope introduced, removed again when it is popped.
#[derive(Default)]
struct Frame {
    assertions: Vec<TermRef>,
    defs: Vec<String>,
    decls: Vec<String>,
    named: Vec<String>,
    sorts: Vec<String>,
    constructors: Vec<String>,
    selectors: Vec<String>,
}

/// Results collected for one check-sat.
#[derive(Default)]
struct CheckAcc {
    location: String,
    failures: Vec<Failure>,
    open: BTreeSet<String>,
    seen: bool,
}

struct Checker {
    env: Env,
    frames: Scopes<Frame>,
    answers: Vec<Answer>,
    models: Vec<Option<Rc<Model>>>,
    accs: Vec<CheckAcc>,
    checks: usize,
    /// Interleaved mode: per assertion, the check-sats it is in scope for.
    ranges: Option<Vec<(u32, u32)>>,
    assertions: usize,
    notes: Vec<String>,
    limits: Limits,
}

impl Checker {
    fn new(response: &Rc<Src>, ranges: Option<Vec<(u32, u32)>>, limits: Limits) -> Checker {
        let response = read_response(response);
        let n = response.answers.len();
        Checker {
            env: Env {
                strict: true,
                ..Env::default()
            },
            frames: Scopes::new(),
            answers: response.answers,
            models: vec![None; n],
            accs: Vec::new(),
            checks: 0,
            ranges,
            assertions: 0,
            notes: response.notes,
            limits,
        }
    }

    fn frame(&mut self) -> &mut Frame {
        self.frames.top()
    }

    /// Handles one top-level command; `Ok(false)` at `exit`.
    fn statement(&mut self, src: &Rc<Src>, node: NodeId) -> Result<bool, Located> {
        let tree = &src.tree;
        let ch = tree.children(node);
        let Some(head) = tree.head(node) else {
            return Err(src.at(node, "expected a command"));
        };
        let name_at = |i: usize| -> Result<String, Located> {
            ch.get(i)
                .and_then(|&c| tree.symbol(c))
                .map(|s| unquote(s).to_string())
                .ok_or_else(|| src.at(node, format!("{head}: expected a symbol")))
        };
        match head {
            "set-logic"
            | "set-option"
            | "set-info"
            | "get-model"
            | "get-value"
            | "get-info"
            | "get-option"
            | "get-assignment"
            | "get-assertions"
            | "get-proof"
            | "get-unsat-core"
            | "get-unsat-assumptions"
            | "echo"
            | "declare-sort" => {}
            "exit" => return Ok(false),
            "define-sort" if ch.len() == 4 => {
                let name = name_at(1)?;
                let params = tree
                    .children(ch[2])
                    .iter()
                    .filter_map(|&p| tree.symbol(p).map(|s| unquote(s).to_string()))
                    .collect();
                self.env
                    .aliases
                    .define(&name, params, TermRef::new(src, ch[3]));
                self.frame().sorts.push(name);
            }
            "declare-fun" | "declare-const" => {
                let name = name_at(1)?;
                let (args, sort_node) = match (head, ch.len()) {
                    ("declare-fun", 4) => (tree.children(ch[2]).to_vec(), ch[3]),
                    ("declare-const", 3) => (Vec::new(), ch[2]),
                    _ => return Err(src.at(node, format!("malformed {head}"))),
                };
                let parse =
                    |n: NodeId| parse_sort(tree, n, &self.env.aliases).map_err(|m| src.at(n, m));
                let args = args.into_iter().map(parse).collect::<Result<Vec<_>, _>>()?;
                let sort = parse(sort_node)?;
                self.env.decls.insert(name.clone(), (args, sort));
                self.frame().decls.push(name);
            }
            "define-fun" | "define-fun-rec" => {
                let def = FunDef::from_define(src, node, &self.env.aliases)?;
                self.frame().defs.push(def.name.clone());
                self.env.defs.insert(def.name.clone(), Rc::new(def));
            }
            "define-funs-rec" if ch.len() == 3 => {
                let decls = tree.children(ch[1]);
                let bodies = tree.children(ch[2]);
                if decls.len() != bodies.len() {
                    return Err(src.at(node, "define-funs-rec needs one body per declaration"));
                }
                for (&d, &b) in decls.iter().zip(bodies) {
                    let dc = tree.children(d);
                    if dc.len() != 3 {
                        return Err(src.at(d, "expected (name (params) sort)"));
                    }
                    let def = FunDef::from_parts(src, dc[0], dc[1], dc[2], b, &self.env.aliases)?;
                    self.frame().defs.push(def.name.clone());
                    self.env.defs.insert(def.name.clone(), Rc::new(def));
                }
            }
            "declare-datatype" | "declare-datatypes" => self.declare_datatypes(src, node)?,
            "define-const" if ch.len() == 4 => {
                let name = name_at(1)?;
                let result =
                    parse_sort(tree, ch[2], &self.env.aliases).map_err(|m| src.at(ch[2], m))?;
                let def = FunDef {
                    name: name.clone(),
                    params: Vec::new(),
                    result,
                    body: TermRef::new(src, ch[3]),
                };
                self.frame().defs.push(name.clone());
                self.env.defs.insert(name, Rc::new(def));
            }
            // Other queries and settings (solver-specific ones too) do not change the assertions.
            _ if head.starts_with("get-") || head.starts_with("set-") => {}
            "push" => self.frames.push(count_arg(src, node).unwrap_or(1)),
            "pop" => {
                let n = count_arg(src, node).unwrap_or(1);
                let mut popped = Vec::new();
                let result = self.frames.pop(n, |frame| popped.push(frame));
                for frame in popped {
                    self.forget(frame);
                }
                if result.is_err() {
                    return Err(src.at(node, "pop without a matching push"));
                }
            }
            "reset" | "reset-assertions" => {
                let mut popped = Vec::new();
                self.frames.reset(|frame| popped.push(frame));
                for frame in popped {
                    self.forget(frame);
                }
            }
            "assert" if ch.len() == 2 => self.assert(src, ch[1])?,
            "check-sat" => self.check_sat(src, node, &[])?,
            "check-sat-assuming" if ch.len() == 2 => {
                let assumptions = tree.children(ch[1]).to_vec();
                self.check_sat(src, node, &assumptions)?;
            }
            _ => return Err(src.at(node, format!("unsupported or malformed command {head}"))),
        }
        Ok(true)
    }

    fn forget(&mut self, frame: Frame) {
        for n in frame.defs {
            self.env.defs.remove(&n);
        }
        for n in frame.decls {
            self.env.decls.remove(&n);
        }
        for n in frame.named {
            self.env.named.remove(&n);
        }
        for n in frame.sorts {
            self.env.aliases.remove(&n);
        }
        for n in frame.constructors {
            self.env.constructors.remove(&n);
        }
        for n in frame.selectors {
            self.env.selectors.remove(&n);
        }
    }

    /// Registers the constructors and selectors of `declare-datatype(s)`, in the SMT-LIB 2.6
    /// forms (with or without `par`) and Z3's older `(declare-datatypes () ((D c ..) ..))`.
    fn declare_datatypes(&mut self, src: &Rc<Src>, node: NodeId) -> Result<(), Located> {
        let tree = &src.tree;
        let ch = tree.children(node);
        let bad = || src.at(node, "malformed datatype declaration");
        // Constructor declarations of one datatype body, skipping a `(par (T ..) ..)` wrapper.
        let constructors_of = |body: NodeId| -> &[NodeId] {
            let bc = tree.children(body);
            if tree.head(body) == Some("par") && bc.len() == 3 {
                tree.children(bc[2])
            } else {
                bc
            }
        };
        let mut datatypes: Vec<(String, Vec<NodeId>)> = Vec::new();
        let symbol = |n: NodeId| tree.symbol(n).map(|s| unquote(s).to_string());
        if tree.head(node) == Some("declare-datatype") {
            let (Some(name), Some(&body)) = (ch.get(1).and_then(|&n| symbol(n)), ch.get(2)) else {
                return Err(bad());
            };
            datatypes.push((name, constructors_of(body).to_vec()));
        } else {
            let [_, sorts, bodies] = ch else {
                return Err(bad());
            };
            let sort_decls = tree.children(*sorts);
            let bodies = tree.children(*bodies);
            if sort_decls.is_empty() {
                for &b in bodies {
                    let bc = tree.children(b);
                    let name = bc.first().and_then(|&n| symbol(n)).ok_or_else(bad)?;
                    datatypes.push((name, bc[1..].to_vec()));
                }
            } else {
                if sort_decls.len() != bodies.len() {
                    return Err(bad());
                }
                for (&d, &b) in sort_decls.iter().zip(bodies) {
                    let name = tree
                        .children(d)
                        .first()
                        .and_then(|&n| symbol(n))
                        .ok_or_else(bad)?;
                    datatypes.push((name, constructors_of(b).to_vec()));
                }
            }
        }
        for (datatype, ctors) in datatypes {
            for c in ctors {
                let (name, fields) = match symbol(c) {
                    Some(name) => (name, Vec::new()),
                    None => {
                        let cc = tree.children(c);
                        let name = cc.first().and_then(|&n| symbol(n)).ok_or_else(bad)?;
                        let fields = cc[1..]
                            .iter()
                            .map(|&f| {
                                tree.children(f)
                                    .first()
                                    .and_then(|&n| symbol(n))
                                    .ok_or_else(bad)
                            })
                            .collect::<Result<Vec<_>, _>>()?;
                        (name, fields)
                    }
                };
                for (i, sel) in fields.iter().enumerate() {
                    self.env.selectors.insert(sel.clone(), (name.clone(), i));
                    self.frame().selectors.push(sel.clone());
                }
                self.env.constructors.insert(
                    name.clone(),
                    Constructor {
                        datatype: datatype.clone(),
                        selectors: fields,
                    },
                );
                self.frame().constructors.push(name);
            }
        }
        Ok(())
    }

    fn assert(&mut self, src: &Rc<Src>, term: NodeId) -> Result<(), Located> {
        self.register_names(src, term);
        let term = TermRef::new(src, term);
        match &self.ranges {
            None => self.frame().assertions.push(term),
            Some(ranges) => {
                let (first, end) = ranges.get(self.assertions).copied().unwrap_or((0, 0));
                self.assertions += 1;
                for k in first..end.min(self.answers.len() as u32) {
                    self.evaluate(k as usize, &term)?;
                }
            }
        }
        Ok(())
    }

    /// `(! t :named n)` anywhere in an assertion defines `n` as `t`.
    fn register_names(&mut self, src: &Rc<Src>, term: NodeId) {
        let tree = &src.tree;
        let mut names = Vec::new();
        for n in tree.preorder(term) {
            if tree.head(n) != Some("!") {
                continue;
            }
            let ch = tree.children(n);
            for pair in ch.get(2..).unwrap_or_default().windows(2) {
                if let (Some(Atom::Keyword(k)), Some(name)) =
                    (tree.atom(pair[0]), tree.symbol(pair[1]))
                {
                    if k == ":named" {
                        names.push((unquote(name).to_string(), TermRef::new(src, ch[1])));
                    }
                }
            }
        }
        for (name, t) in names {
            self.frame().named.push(name.clone());
            self.env.named.insert(name, t);
        }
    }

    fn acc(&mut self, k: usize) -> &mut CheckAcc {
        if self.accs.len() <= k {
            self.accs.resize_with(k + 1, CheckAcc::default);
        }
        &mut self.accs[k]
    }

    fn check_sat(
        &mut self,
        src: &Rc<Src>,
        node: NodeId,
        assumptions: &[NodeId],
    ) -> Result<(), Located> {
        let k = self.checks;
        self.checks += 1;
        let acc = self.acc(k);
        acc.location = src.locate(node);
        acc.seen = true;
        if self.ranges.is_none() {
            let terms: Vec<TermRef> = self
                .frames
                .iter()
                .flat_map(|f| f.assertions.iter().cloned())
                .collect();
            for t in &terms {
                self.evaluate(k, t)?;
            }
        }
        for &a in assumptions {
            self.evaluate(k, &TermRef::new(src, a))?;
        }
        Ok(())
    }

    /// The model of the `k`-th answer if it is sat and has one (read on first use).
    fn model(&mut self, k: usize) -> Result<Option<Rc<Model>>, Located> {
        let Some(answer) = self.answers.get(k) else {
            return Ok(None);
        };
        if answer.status != Status::Sat {
            return Ok(None);
        }
        if self.models[k].is_none() {
            if let Some(t) = &answer.model {
                let model = Model::from_node(&t.src, t.node, &self.env.aliases)?;
                self.models[k] = Some(Rc::new(model));
            }
        }
        Ok(self.models[k].clone())
    }

    fn evaluate(&mut self, k: usize, term: &TermRef) -> Result<(), Located> {
        let Some(model) = self.model(k)? else {
            return Ok(());
        };
        let mut ev = Evaluator::new(&self.env, &model);
        ev.max_depth = self.limits.max_depth;
        let value = ev.eval(&term.src, term.node)?;
        match value {
            Some(Value::Bool(true)) => {}
            Some(Value::Bool(false)) => {
                let failure = Failure {
                    location: term.locate(),
                    term: shorten(&term.tree().print_node(term.node)),
                    values: constant_values(&mut ev, &self.env, term),
                };
                self.acc(k).failures.push(failure);
            }
            Some(other) => {
                return Err(term.src.at(
                    term.node,
                    format!("asserted term has sort {}, expected Bool", other.sort()),
                ))
            }
            None => {
                let location = term.locate();
                let reasons: Vec<String> = ev
                    .open_reasons()
                    .into_iter()
                    .map(|r| format!("assertion at {location}: {r}"))
                    .collect();
                self.acc(k).open.extend(reasons);
            }
        }
        Ok(())
    }

    fn finish(mut self) -> Report {
        let mut report = Report {
            checks: Vec::new(),
            notes: std::mem::take(&mut self.notes),
        };
        if self.answers.len() > self.checks {
            report.notes.push(format!(
                "the response has {} answers for {} check-sat commands",
                self.answers.len(),
                self.checks
            ));
        }
        let accs = std::mem::take(&mut self.accs);
        for (k, acc) in accs.into_iter().enumerate().filter(|(_, a)| a.seen) {
            let answer = self.answers.get(k);
            let outcome = match answer {
                None => Outcome::Skipped("no answer in the response".into()),
                Some(a) if a.status != Status::Sat => {
                    Outcome::Skipped(format!("answer {}", a.status.name()))
                }
                Some(a) if a.model.is_none() => Outcome::Incomplete(vec![format!(
                    "the sat answer at {} has no model",
                    a.location
                )]),
                Some(_) if !acc.failures.is_empty() => Outcome::Invalid(acc.failures),
                Some(_) if !acc.open.is_empty() => {
                    Outcome::Incomplete(acc.open.into_iter().collect())
                }
                Some(_) => Outcome::Valid,
            };
            report.checks.push(CheckResult {
                number: k + 1,
                location: acc.location,
                outcome,
            });
        }
        report
    }
}

/// Values of the declared constants a term mentions, in order of first mention.
fn constant_values(ev: &mut Evaluator<'_>, env: &Env, term: &TermRef) -> Vec<(String, String)> {
    let tree = term.tree();
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for n in tree.preorder(term.node) {
        let Some(name) = tree.symbol(n).map(unquote) else {
            continue;
        };
        let is_constant = env.decls.get(name).is_some_and(|(args, _)| args.is_empty());
        if !is_constant || !seen.insert(name.to_string()) {
            continue;
        }
        let shown = match ev.eval(&term.src, n) {
            Ok(Some(v)) => shorten(&v.to_string()),
            _ => "?".to_string(),
        };
        out.push((name.to_string(), shown));
        if out.len() == 16 {
            break;
        }
    }
    out
}

fn shorten(text: &str) -> String {
    const MAX: usize = 300;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        let cut: String = text.chars().take(MAX).collect();
        format!("{cut} ...")
    }
}
