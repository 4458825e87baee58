//! The text trace format: a version header, then one call per line, each result on the
//! `return` line right after its call, `;` comments. See `docs/trace-format.md`.

use super::{ErrorKind, ReadError, Trace, VERSION};
use crate::call::{
    AnyId, Call, Check, Direction, Entry, FuncId, GoalId, ModelId, Op, OptId, ProbeCmp, ProbeTest,
    Ret, RetKind, SatResult, SolverId, SolverKind, SortId, TacticExpr, TacticId, TermId,
};
use crate::datatype::{ConstructorDecl, DatatypeDecl, DeclPath, FieldDecl, FieldSort};
use std::fmt::Write as _;

/// The header line every text trace starts with.
pub fn header() -> String {
    format!("z3-trace {VERSION}")
}

/// The comment line, right after the header, that names the Z3 a trace was recorded on.
pub fn version_comment(z3_version: &str) -> String {
    format!("{VERSION_COMMENT}{z3_version}")
}

/// What a [`version_comment`] starts with.
const VERSION_COMMENT: &str = "; z3 ";

/// The version a line names if it is a [`version_comment`].
fn version_in(line: &str) -> Option<String> {
    let version = line.trim_end().strip_prefix(VERSION_COMMENT)?.trim();
    (!version.is_empty() && !version.contains(char::is_whitespace)).then(|| version.to_string())
}

/// The replay limits a text trace declares in its leading comments (`; timeout: SECONDS`,
/// `; memout: MIB`, before its first call): the limits of the round a finding was found
/// under, or of a regression case that hangs. `untrace` applies them when its own options
/// do not say otherwise, so a timeout finding's trace replays to its timeout.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DeclaredLimits {
    pub timeout: Option<f64>,
    pub memout_mb: Option<u64>,
}

const TIMEOUT_COMMENT: &str = "; timeout:";
const MEMOUT_COMMENT: &str = "; memout:";

/// The [`DeclaredLimits`] of the trace text `text` (none for a binary trace).
pub fn declared_limits(text: &[u8]) -> DeclaredLimits {
    let mut limits = DeclaredLimits::default();
    let leading = text
        .split(|&b| b == b'\n')
        .map(|l| std::str::from_utf8(l).unwrap_or(""))
        .take_while(|l| l.is_empty() || l.starts_with(';') || l.starts_with("z3-trace"));
    for line in leading {
        if let Some(v) = line.strip_prefix(TIMEOUT_COMMENT) {
            limits.timeout = v
                .trim()
                .parse()
                .ok()
                .filter(|t: &f64| *t > 0.0 && t.is_finite());
        } else if let Some(v) = line.strip_prefix(MEMOUT_COMMENT) {
            limits.memout_mb = v.trim().parse().ok().filter(|&m| m > 0);
        }
    }
    limits
}

/// `text` with `limits` declared in comment lines before it (see [`DeclaredLimits`]).
pub fn declare_limits(text: &str, limits: DeclaredLimits) -> String {
    let mut out = String::new();
    if let Some(t) = limits.timeout {
        let _ = writeln!(out, "{TIMEOUT_COMMENT} {t}");
    }
    if let Some(m) = limits.memout_mb {
        let _ = writeln!(out, "{MEMOUT_COMMENT} {m}");
    }
    out.push_str(text);
    out
}

/// Formats a call as its trace line (without newline).
/// The word of a `check_consequences` line between its assumptions and its variables.
pub const CONSEQUENCE_VARS: &str = "vars";

pub fn format_call(call: &Call) -> String {
    let mut line = String::from(call.name());
    let mut word = |w: &dyn std::fmt::Display| {
        let _ = write!(line, " {w}");
    };
    match call {
        Call::SortBool
        | Call::SortInt
        | Call::SortReal
        | Call::SortRm
        | Call::SortString
        | Call::NewSolver(SolverKind::Default) => {}
        Call::SortBv(w) => word(w),
        Call::SortFp(e, s) => {
            word(e);
            word(s)
        }
        Call::SortArray(i, e) => {
            word(i);
            word(e)
        }
        Call::SortSeq(e) => word(e),
        Call::SortUninterpreted(name) => word(&quote(name)),
        Call::Const { sort, name } => {
            word(sort);
            word(&quote(name))
        }
        Call::Lit { sort, value } => {
            word(sort);
            word(&quote(value))
        }
        Call::Fun {
            name,
            domain,
            range,
        } => {
            word(&quote(name));
            word(range);
            domain.iter().for_each(|s| word(s));
        }
        Call::Apply { func, args } => {
            word(func);
            args.iter().for_each(|t| word(t));
        }
        Call::Op { indices, args, .. } => {
            indices.iter().for_each(|i| word(i));
            args.iter().for_each(|t| word(t));
        }
        Call::ConstArray { index, value } => {
            word(index);
            word(value)
        }
        Call::Simplify(t) => word(t),
        Call::SimplifyWith { term, params } => {
            word(term);
            for (key, value) in params {
                word(&quote(key));
                word(&quote(value));
            }
        }
        Call::Substitute { term, pairs } => {
            word(term);
            for (from, to) in pairs {
                word(from);
                word(to);
            }
        }
        Call::NewSolver(SolverKind::Logic(logic)) => {
            word(&"logic");
            word(&quote(logic))
        }
        Call::NewSolver(SolverKind::Tactic(tactic)) => {
            word(&"tactic");
            word(&quote(tactic))
        }
        Call::NewSolver(SolverKind::FromTactic(k)) => {
            word(&"from_tactic");
            word(k)
        }
        Call::MkTactic(expr) => {
            let probe = |word: &mut dyn FnMut(&dyn std::fmt::Display), p: &ProbeTest| {
                word(&quote(&p.probe));
                word(&p.cmp.name());
                word(&p.value);
            };
            match expr {
                TacticExpr::Named(name) => word(&quote(name)),
                TacticExpr::When(p, _) | TacticExpr::Cond(p, ..) => probe(&mut word, p),
                _ => {}
            }
            for k in expr.operands() {
                word(&k);
            }
            match expr {
                TacticExpr::Repeat(_, n) | TacticExpr::TryFor(_, n) => word(n),
                TacticExpr::UsingParams(_, params) => {
                    for (key, value) in params {
                        word(&quote(key));
                        word(&quote(value));
                    }
                }
                _ => {}
            }
        }
        Call::NewGoal { models } => word(models),
        Call::GoalAssert(g, t) => {
            word(g);
            word(t)
        }
        Call::ApplyTactic {
            tactic,
            goal,
            rlimit,
        } => {
            word(tactic);
            word(goal);
            word(rlimit)
        }
        Call::Subgoal(g, i) => {
            word(g);
            word(i)
        }
        Call::GoalFormula(g) => word(g),
        Call::NewOptimize => {}
        Call::OptSetParam { opt, key, value } => {
            word(opt);
            word(&quote(key));
            word(&quote(value))
        }
        Call::OptAssert(o, t)
        | Call::OptObjective {
            opt: o, term: t, ..
        } => {
            word(o);
            word(t)
        }
        Call::OptAssertSoft {
            opt,
            term,
            weight,
            group,
        } => {
            word(opt);
            word(term);
            word(weight);
            word(&quote(group))
        }
        Call::OptPush(o) | Call::OptPop(o) | Call::OptCheck(o) | Call::OptGetModel(o) => word(o),
        Call::OptBound { opt, index, .. } => {
            word(opt);
            word(index)
        }
        Call::SetParam { solver, key, value } => {
            word(solver);
            word(&quote(key));
            word(&quote(value))
        }
        Call::SetGlobal { key, value } => {
            word(&quote(key));
            word(&quote(value))
        }
        Call::Push(z)
        | Call::CheckSat(z)
        | Call::GetUnsatCore(z)
        | Call::GetModel(z)
        | Call::Translate(z)
        | Call::Reset(z)
        | Call::ToSmt2(z)
        | Call::Delete(z) => word(z),
        Call::Pop(z, n) => {
            word(z);
            word(n)
        }
        Call::Assert(z, t) => {
            word(z);
            word(t)
        }
        Call::AssertAndTrack {
            solver,
            term,
            tracker,
        } => {
            word(solver);
            word(term);
            word(tracker)
        }
        Call::CheckSatAssuming(z, ts) => {
            word(z);
            ts.iter().for_each(|t| word(t));
        }
        Call::ModelEval {
            model,
            term,
            completion,
        } => {
            word(model);
            word(term);
            word(completion)
        }
        Call::FromString(z, text) => {
            word(z);
            word(&quote(text))
        }
        Call::Release(id) => word(id),
        Call::Var { sort, name } => {
            word(sort);
            word(&quote(name))
        }
        Call::Quantifier {
            weight,
            vars,
            body,
            patterns,
            no_patterns,
            ..
        } => {
            word(weight);
            vars.iter().for_each(|t| word(t));
            word(&"body");
            word(body);
            for pattern in patterns {
                word(&"pattern");
                pattern.iter().for_each(|t| word(t));
            }
            for t in no_patterns {
                word(&"no_pattern");
                word(t);
            }
        }
        Call::Check(check) => match check {
            Check::Model { model, term }
            | Check::Independent { model, term }
            | Check::Quant { model, term } => {
                word(model);
                word(term)
            }
            Check::Eval {
                model,
                term,
                completion,
            } => {
                word(model);
                word(term);
                word(completion)
            }
            Check::Shadow {
                original: a,
                clone: b,
            }
            | Check::Config {
                original: a,
                other: b,
            } => {
                word(a);
                word(b)
            }
            Check::Dump(z) | Check::Core(z) => word(z),
            Check::Literal(t) | Check::Simplify(t) => word(t),
            Check::Cubes(z) => word(z),
            Check::Consequences {
                solver,
                assumptions,
                variables,
            } => {
                word(solver);
                assumptions.iter().for_each(|t| word(t));
                word(&CONSEQUENCE_VARS);
                variables.iter().for_each(|t| word(t));
            }
            Check::Goal(g) => word(g),
            Check::OptValues { opt, model } | Check::OptBetter { opt, model } => {
                word(opt);
                word(model)
            }
        },
        Call::DeclareDatatypes {
            path,
            params,
            datatypes,
        } => {
            word(&path.name());
            if !params.is_empty() {
                word(&"par");
                params.iter().for_each(|p| word(&quote(p)));
            }
            for d in datatypes {
                word(&"datatype");
                word(&quote(&d.name));
                for c in &d.constructors {
                    word(&"ctor");
                    word(&quote(&c.name));
                    for f in &c.fields {
                        word(&quote(&f.name));
                        match f.sort {
                            FieldSort::Sort(id) => word(&id),
                            FieldSort::Datatype(k) => word(&format!("d{k}")),
                            FieldSort::Param(k) => word(&format!("p{k}")),
                        }
                    }
                }
            }
        }
        Call::SortDatatype { name, params } => {
            word(&quote(name));
            params.iter().for_each(|p| word(p));
        }
        Call::DtConstruct { sort, ctor, args } => {
            word(sort);
            word(&quote(ctor));
            args.iter().for_each(|t| word(t));
        }
        Call::DtTest { ctor: name, term } | Call::DtSelect { field: name, term } => {
            word(&quote(name));
            word(term)
        }
        Call::DtUpdate { field, term, value } => {
            word(&quote(field));
            word(term);
            word(value)
        }
        Call::NewSolverConfig(config) => config.iter().for_each(|(k, v)| {
            word(&quote(k));
            word(&quote(v))
        }),
        Call::TranslateConfig { solver, config } => {
            word(solver);
            for (k, v) in config {
                word(&quote(k));
                word(&quote(v));
            }
        }
        Call::GetProof(z) => word(z),
    }
    line
}

/// Formats a result as its `return` line (without newline).
pub fn format_ret(ret: &Ret) -> String {
    match ret {
        Ret::Id(id) => format!("return {id}"),
        Ret::Sat(r) => format!("return {}", r.name()),
        Ret::Core(ids) => {
            let mut line = String::from("return");
            for id in ids {
                let _ = write!(line, " {id}");
            }
            line
        }
        Ret::Value(v) => format!("return {}", quote(v)),
        Ret::Error(message) => format!("return error {}", quote(message)),
    }
}

/// Writes a whole trace, header first.
pub fn write(entries: &[Entry]) -> String {
    write_recorded_on(entries, None)
}

/// Writes a whole trace, header first, then the [`version_comment`] when `z3_version` names
/// the Z3 the entries were recorded on.
pub fn write_recorded_on(entries: &[Entry], z3_version: Option<&str>) -> String {
    let mut out = header();
    out.push('\n');
    if let Some(version) = z3_version {
        out.push_str(&version_comment(version));
        out.push('\n');
    }
    for entry in entries {
        out.push_str(&format_call(&entry.call));
        out.push('\n');
        if let Some(ret) = &entry.ret {
            out.push_str(&format_ret(ret));
            out.push('\n');
        }
    }
    out
}

/// Quotes a string: `"` and `\` are escaped, and so are line breaks and tabs, so that every
/// call stays on one line.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// One word of a line with its 1-based column.
struct Token<'a> {
    text: &'a str,
    column: u32,
    /// The unescaped content of a quoted string.
    string: Option<String>,
}

struct Line<'a> {
    number: u32,
    tokens: Vec<Token<'a>>,
    /// Column just past the last token, for "expected more" errors.
    end: u32,
}

fn error(kind: ErrorKind, line: u32, column: u32, message: impl Into<String>) -> ReadError {
    ReadError {
        kind,
        line,
        column,
        message: message.into(),
    }
}

fn tokenize(number: u32, text: &str) -> Result<Line<'_>, ReadError> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    // Columns count characters; counted from the previous token on, so that a long line
    // tokenizes in linear time (counting from the line start was quadratic).
    let (mut counted_to, mut counted) = (0usize, 0u32);
    while i < bytes.len() {
        let b = bytes[i];
        if b == b' ' || b == b'\t' || b == b'\r' {
            i += 1;
            continue;
        }
        if b == b';' {
            break;
        }
        let start = i;
        counted += text[counted_to..start].chars().count() as u32;
        counted_to = start;
        let column = counted + 1;
        if b == b'"' {
            let mut value = String::new();
            let mut chars = text[start + 1..].char_indices();
            let mut closed = None;
            while let Some((k, c)) = chars.next() {
                match c {
                    '"' => {
                        closed = Some(start + 1 + k + 1);
                        break;
                    }
                    '\\' => match chars.next() {
                        Some((_, 'n')) => value.push('\n'),
                        Some((_, 'r')) => value.push('\r'),
                        Some((_, 't')) => value.push('\t'),
                        Some((_, '"')) => value.push('"'),
                        Some((_, '\\')) => value.push('\\'),
                        Some((_, other)) => {
                            return Err(error(
                                ErrorKind::BadString,
                                number,
                                column,
                                format!("unknown escape `\\{other}` in string"),
                            ))
                        }
                        None => break,
                    },
                    c => value.push(c),
                }
            }
            let Some(end) = closed else {
                return Err(error(
                    ErrorKind::BadString,
                    number,
                    column,
                    "unterminated string",
                ));
            };
            tokens.push(Token {
                text: &text[start..end],
                column,
                string: Some(value),
            });
            i = end;
        } else {
            while i < bytes.len() && !matches!(bytes[i], b' ' | b'\t' | b'\r' | b';' | b'"') {
                i += 1;
            }
            tokens.push(Token {
                text: &text[start..i],
                column,
                string: None,
            });
        }
    }
    let end = text.trim_end().chars().count() as u32 + 1;
    Ok(Line {
        number,
        tokens,
        end,
    })
}

/// Reads the arguments of one line, left to right.
struct Args<'l, 'a> {
    line: &'l Line<'a>,
    next: usize,
    call: &'static str,
}

impl<'a> Args<'_, 'a> {
    fn column(&self) -> u32 {
        self.line
            .tokens
            .get(self.next)
            .map_or(self.line.end, |t| t.column)
    }

    fn fail(&self, kind: ErrorKind, message: String) -> ReadError {
        error(kind, self.line.number, self.column(), message)
    }

    fn token(&mut self, what: &str) -> Result<&Token<'a>, ReadError> {
        match self.line.tokens.get(self.next) {
            Some(t) => {
                self.next += 1;
                Ok(t)
            }
            None => Err(self.fail(
                ErrorKind::Arity,
                format!("`{}` expects {what} here, the line ends", self.call),
            )),
        }
    }

    /// The next token's text if it is a bare word, not consumed.
    fn peek(&self) -> Option<&'a str> {
        self.line
            .tokens
            .get(self.next)
            .filter(|t| t.string.is_none())
            .map(|t| t.text)
    }

    fn remaining(&self) -> usize {
        self.line.tokens.len() - self.next
    }

    fn number(&mut self, what: &str) -> Result<u32, ReadError> {
        let t = self.token(what)?;
        let column = t.column;
        let text = t.text;
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            let kind = if t.string.is_some()
                || text.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            {
                ErrorKind::Argument
            } else {
                ErrorKind::BadNumeral
            };
            return Err(error(
                kind,
                self.line.number,
                column,
                format!("`{}` expects {what} (a numeral), got `{text}`", self.call),
            ));
        }
        text.parse().map_err(|_| {
            error(
                ErrorKind::BadNumeral,
                self.line.number,
                column,
                format!("numeral `{text}` does not fit in 32 bits"),
            )
        })
    }

    fn string(&mut self, what: &str) -> Result<String, ReadError> {
        let call = self.call;
        let number = self.line.number;
        let t = self.token(what)?;
        t.string.clone().ok_or_else(|| {
            error(
                ErrorKind::Argument,
                number,
                t.column,
                format!(
                    "`{call}` expects {what} (a quoted string), got `{}`",
                    t.text
                ),
            )
        })
    }

    fn id(&mut self, prefix: char, what: &str) -> Result<u32, ReadError> {
        let call = self.call;
        let number = self.line.number;
        let t = self.token(what)?;
        parse_id(t.text, prefix).ok_or_else(|| {
            error(
                ErrorKind::Argument,
                number,
                t.column,
                format!("`{call}` expects {what} (`{prefix}N`), got `{}`", t.text),
            )
        })
    }

    fn sort(&mut self) -> Result<SortId, ReadError> {
        self.id(SortId::PREFIX, "a sort id").map(SortId)
    }

    fn term(&mut self) -> Result<TermId, ReadError> {
        self.id(TermId::PREFIX, "a term id").map(TermId)
    }

    fn solver(&mut self) -> Result<SolverId, ReadError> {
        self.id(SolverId::PREFIX, "a solver id").map(SolverId)
    }

    fn tactic(&mut self) -> Result<TacticId, ReadError> {
        self.id(TacticId::PREFIX, "a tactic id").map(TacticId)
    }

    fn goal(&mut self) -> Result<GoalId, ReadError> {
        self.id(GoalId::PREFIX, "a goal id").map(GoalId)
    }

    fn opt(&mut self) -> Result<OptId, ReadError> {
        self.id(OptId::PREFIX, "an optimize id").map(OptId)
    }

    fn model(&mut self) -> Result<ModelId, ReadError> {
        self.id(ModelId::PREFIX, "a model id").map(ModelId)
    }

    /// A probe test: `"PROBE" CMP N`.
    fn probe(&mut self) -> Result<ProbeTest, ReadError> {
        let probe = self.string("a probe name")?;
        let call = self.call;
        let number = self.line.number;
        let t = self.token("a comparison (lt, le, gt, ge, eq)")?;
        let cmp = ProbeCmp::from_name(t.text).ok_or_else(|| {
            error(
                ErrorKind::Argument,
                number,
                t.column,
                format!(
                    "`{call}` expects a comparison (lt, le, gt, ge, eq), got `{}`",
                    t.text
                ),
            )
        })?;
        let value = self.number("a probe value")?;
        Ok(ProbeTest { probe, cmp, value })
    }

    /// Pairs of quoted strings up to the end of the line.
    fn string_pairs(&mut self, what: &str) -> Result<Vec<(String, String)>, ReadError> {
        if !self.remaining().is_multiple_of(2) {
            return Err(self.fail(
                ErrorKind::Arity,
                format!(
                    "`{}` expects {what} in pairs of names and values, got an odd count",
                    self.call
                ),
            ));
        }
        let mut pairs = Vec::new();
        while self.remaining() > 0 {
            pairs.push((self.string("a parameter name")?, self.string("a value")?));
        }
        Ok(pairs)
    }

    fn terms(&mut self) -> Result<Vec<TermId>, ReadError> {
        (0..self.remaining()).map(|_| self.term()).collect()
    }

    fn bool(&mut self, what: &str) -> Result<bool, ReadError> {
        let call = self.call;
        let number = self.line.number;
        let t = self.token(what)?;
        match t.text {
            "true" => Ok(true),
            "false" => Ok(false),
            other => Err(error(
                ErrorKind::Argument,
                number,
                t.column,
                format!("`{call}` expects {what} (`true` or `false`), got `{other}`"),
            )),
        }
    }

    fn any_id(&mut self) -> Result<AnyId, ReadError> {
        let call = self.call;
        let number = self.line.number;
        let t = self.token("an object id")?;
        parse_any_id(t.text).ok_or_else(|| {
            error(
                ErrorKind::Argument,
                number,
                t.column,
                format!(
                    "`{call}` expects an object id (s, t, f, z, m, k, g or o and a number), got `{}`",
                    t.text
                ),
            )
        })
    }

    /// Pairs of quoted strings to the end of the line (`"KEY" "VALUE" ...`).
    fn pairs(&mut self, what: &str) -> Result<Vec<(String, String)>, ReadError> {
        if !self.remaining().is_multiple_of(2) {
            return Err(self.fail(
                ErrorKind::Arity,
                format!("`{}` expects pairs of {what}, got an odd count", self.call),
            ));
        }
        let mut pairs = Vec::new();
        while self.remaining() > 0 {
            pairs.push((self.string("a parameter name")?, self.string("a value")?));
        }
        Ok(pairs)
    }

    fn finish(&self) -> Result<(), ReadError> {
        match self.line.tokens.get(self.next) {
            None => Ok(()),
            Some(t) => Err(error(
                ErrorKind::Arity,
                self.line.number,
                t.column,
                format!("`{}` takes no more arguments, got `{}`", self.call, t.text),
            )),
        }
    }
}

fn parse_id(text: &str, prefix: char) -> Option<u32> {
    let digits = text.strip_prefix(prefix)?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

fn parse_any_id(text: &str) -> Option<AnyId> {
    let prefix = text.chars().next()?;
    let n = parse_id(text, prefix)?;
    Some(match prefix {
        SortId::PREFIX => AnyId::Sort(SortId(n)),
        TermId::PREFIX => AnyId::Term(TermId(n)),
        FuncId::PREFIX => AnyId::Func(FuncId(n)),
        SolverId::PREFIX => AnyId::Solver(SolverId(n)),
        ModelId::PREFIX => AnyId::Model(ModelId(n)),
        TacticId::PREFIX => AnyId::Tactic(TacticId(n)),
        GoalId::PREFIX => AnyId::Goal(GoalId(n)),
        OptId::PREFIX => AnyId::Opt(OptId(n)),
        _ => return None,
    })
}

/// The arguments of `declare_datatypes`: `api|parser [par "T"...] (datatype "D" (ctor "c"
/// ("f" sN|dK|pK)*)*)+`.
fn parse_datatypes(a: &mut Args) -> Result<Call, ReadError> {
    let keyword = |a: &mut Args, word: &str| {
        let hit = a
            .line
            .tokens
            .get(a.next)
            .is_some_and(|t| t.string.is_none() && t.text == word);
        if hit {
            a.next += 1;
        }
        hit
    };
    let path = if keyword(a, "api") {
        DeclPath::Api
    } else if keyword(a, "parser") {
        DeclPath::Parser
    } else {
        let t = a.token("`api` or `parser`")?.text.to_string();
        return Err(a.fail(
            ErrorKind::Argument,
            format!("`declare_datatypes` expects `api` or `parser`, got `{t}`"),
        ));
    };
    let mut params = Vec::new();
    if keyword(a, "par") {
        while a
            .line
            .tokens
            .get(a.next)
            .is_some_and(|t| t.string.is_some())
        {
            params.push(a.string("a sort parameter")?);
        }
    }
    let mut datatypes = Vec::new();
    while a.remaining() > 0 {
        if !keyword(a, "datatype") {
            let t = a.token("`datatype`")?.text.to_string();
            return Err(a.fail(
                ErrorKind::Argument,
                format!("`declare_datatypes` expects `datatype`, got `{t}`"),
            ));
        }
        let name = a.string("a datatype name")?;
        let mut constructors = Vec::new();
        while keyword(a, "ctor") {
            let name = a.string("a constructor name")?;
            let mut fields = Vec::new();
            while a
                .line
                .tokens
                .get(a.next)
                .is_some_and(|t| t.string.is_some())
            {
                let name = a.string("a field name")?;
                let t = a.token("a field sort (sN, dK or pK)")?;
                let (text, column) = (t.text, t.column);
                let sort = if let Some(n) = parse_id(text, SortId::PREFIX) {
                    FieldSort::Sort(SortId(n))
                } else if let Some(k) = parse_id(text, 'd') {
                    FieldSort::Datatype(k)
                } else if let Some(k) = parse_id(text, 'p') {
                    FieldSort::Param(k)
                } else {
                    return Err(error(
                        ErrorKind::Argument,
                        a.line.number,
                        column,
                        format!(
                            "`declare_datatypes` expects a field sort (sN, dK or pK), got `{text}`"
                        ),
                    ));
                };
                fields.push(FieldDecl { name, sort });
            }
            constructors.push(ConstructorDecl { name, fields });
        }
        datatypes.push(DatatypeDecl { name, constructors });
    }
    if datatypes.is_empty() {
        return Err(a.fail(
            ErrorKind::Arity,
            "`declare_datatypes` declares no datatype".into(),
        ));
    }
    Ok(Call::DeclareDatatypes {
        path,
        params,
        datatypes,
    })
}

fn parse_call(line: &Line) -> Result<Call, ReadError> {
    let head = &line.tokens[0];
    let name = head.text;
    let mut a = Args {
        line,
        next: 1,
        call: "",
    };
    let call = match name {
        "sort_bool" => Call::SortBool,
        "sort_int" => Call::SortInt,
        "sort_real" => Call::SortReal,
        "sort_rm" => Call::SortRm,
        "sort_string" => Call::SortString,
        "sort_bv" => {
            a.call = "sort_bv";
            Call::SortBv(a.number("a width")?)
        }
        "sort_fp" => {
            a.call = "sort_fp";
            Call::SortFp(
                a.number("an exponent width")?,
                a.number("a significand width")?,
            )
        }
        "sort_array" => {
            a.call = "sort_array";
            Call::SortArray(a.sort()?, a.sort()?)
        }
        "sort_seq" => {
            a.call = "sort_seq";
            Call::SortSeq(a.sort()?)
        }
        "sort_uninterpreted" => {
            a.call = "sort_uninterpreted";
            Call::SortUninterpreted(a.string("a sort name")?)
        }
        "const" => {
            a.call = "const";
            Call::Const {
                sort: a.sort()?,
                name: a.string("a name")?,
            }
        }
        "lit" => {
            a.call = "lit";
            Call::Lit {
                sort: a.sort()?,
                value: a.string("a value")?,
            }
        }
        "fun" => {
            a.call = "fun";
            let name = a.string("a name")?;
            let range = a.sort()?;
            let domain = (0..a.remaining())
                .map(|_| a.sort())
                .collect::<Result<_, _>>()?;
            Call::Fun {
                name,
                domain,
                range,
            }
        }
        "apply" => {
            a.call = "apply";
            Call::Apply {
                func: FuncId(a.id(FuncId::PREFIX, "a function id")?),
                args: a.terms()?,
            }
        }
        "const_array" => {
            a.call = "const_array";
            Call::ConstArray {
                index: a.sort()?,
                value: a.term()?,
            }
        }
        "simplify" => {
            a.call = "simplify";
            Call::Simplify(a.term()?)
        }
        "substitute" => {
            a.call = "substitute";
            let term = a.term()?;
            if !a.remaining().is_multiple_of(2) {
                return Err(a.fail(
                    ErrorKind::Arity,
                    "`substitute` expects a term and pairs of terms, got an odd count".into(),
                ));
            }
            let mut pairs = Vec::new();
            while a.remaining() > 0 {
                pairs.push((a.term()?, a.term()?));
            }
            Call::Substitute { term, pairs }
        }
        "new_solver" => {
            a.call = "new_solver";
            if a.remaining() == 0 {
                Call::NewSolver(SolverKind::Default)
            } else {
                let t = a.token("`logic`, `tactic` or `from_tactic`")?;
                let (text, column) = (t.text, t.column);
                match text {
                    "logic" => Call::NewSolver(SolverKind::Logic(a.string("a logic")?)),
                    "tactic" => Call::NewSolver(SolverKind::Tactic(a.string("a tactic")?)),
                    "from_tactic" => Call::NewSolver(SolverKind::FromTactic(a.tactic()?)),
                    other => {
                        return Err(error(
                            ErrorKind::Argument,
                            line.number,
                            column,
                            format!(
                                "`new_solver` expects `logic`, `tactic` or `from_tactic`, got \
                                 `{other}`"
                            ),
                        ))
                    }
                }
            }
        }
        "set_param" => {
            a.call = "set_param";
            Call::SetParam {
                solver: a.solver()?,
                key: a.string("a parameter name")?,
                value: a.string("a value")?,
            }
        }
        "set_global" => {
            a.call = "set_global";
            Call::SetGlobal {
                key: a.string("a parameter name")?,
                value: a.string("a value")?,
            }
        }
        "push" => {
            a.call = "push";
            Call::Push(a.solver()?)
        }
        "pop" => {
            a.call = "pop";
            Call::Pop(a.solver()?, a.number("a number of scopes")?)
        }
        "assert" => {
            a.call = "assert";
            Call::Assert(a.solver()?, a.term()?)
        }
        "assert_and_track" => {
            a.call = "assert_and_track";
            Call::AssertAndTrack {
                solver: a.solver()?,
                term: a.term()?,
                tracker: a.term()?,
            }
        }
        "check_sat" => {
            a.call = "check_sat";
            Call::CheckSat(a.solver()?)
        }
        "check_sat_assuming" => {
            a.call = "check_sat_assuming";
            Call::CheckSatAssuming(a.solver()?, a.terms()?)
        }
        "get_unsat_core" => {
            a.call = "get_unsat_core";
            Call::GetUnsatCore(a.solver()?)
        }
        "get_model" => {
            a.call = "get_model";
            Call::GetModel(a.solver()?)
        }
        "model_eval" => {
            a.call = "model_eval";
            Call::ModelEval {
                model: ModelId(a.id(ModelId::PREFIX, "a model id")?),
                term: a.term()?,
                completion: a.bool("the model-completion flag")?,
            }
        }
        "translate" => {
            a.call = "translate";
            Call::Translate(a.solver()?)
        }
        "reset" => {
            a.call = "reset";
            Call::Reset(a.solver()?)
        }
        "to_smt2" => {
            a.call = "to_smt2";
            Call::ToSmt2(a.solver()?)
        }
        "from_string" => {
            a.call = "from_string";
            Call::FromString(a.solver()?, a.string("SMT-LIB text")?)
        }
        "release" => {
            a.call = "release";
            Call::Release(a.any_id()?)
        }
        "delete" => {
            a.call = "delete";
            Call::Delete(a.solver()?)
        }
        "check_model" | "check_indep" => {
            a.call = if name == "check_model" {
                "check_model"
            } else {
                "check_indep"
            };
            let model = ModelId(a.id(ModelId::PREFIX, "a model id")?);
            let term = a.term()?;
            Call::Check(if name == "check_model" {
                Check::Model { model, term }
            } else {
                Check::Independent { model, term }
            })
        }
        "check_eval" => {
            a.call = "check_eval";
            Call::Check(Check::Eval {
                model: ModelId(a.id(ModelId::PREFIX, "a model id")?),
                term: a.term()?,
                completion: a.bool("the model-completion flag")?,
            })
        }
        "check_shadow" => {
            a.call = "check_shadow";
            Call::Check(Check::Shadow {
                original: a.solver()?,
                clone: a.solver()?,
            })
        }
        "check_config" => {
            a.call = "check_config";
            Call::Check(Check::Config {
                original: a.solver()?,
                other: a.solver()?,
            })
        }
        "check_dump" => {
            a.call = "check_dump";
            Call::Check(Check::Dump(a.solver()?))
        }
        "check_core" => {
            a.call = "check_core";
            Call::Check(Check::Core(a.solver()?))
        }
        "check_simplify" => {
            a.call = "check_simplify";
            Call::Check(Check::Simplify(a.term()?))
        }
        "simplify_with" => {
            a.call = "simplify_with";
            let term = a.term()?;
            if !a.remaining().is_multiple_of(2) {
                return Err(a.fail(
                    ErrorKind::Arity,
                    "`simplify_with` expects a term and pairs of parameter names and values, got \
                     an odd count"
                        .into(),
                ));
            }
            Call::SimplifyWith {
                term,
                params: a.pairs("parameter names and values")?,
            }
        }
        "new_solver_config" => {
            a.call = "new_solver_config";
            Call::NewSolverConfig(a.pairs("parameter names and values")?)
        }
        "translate_config" => {
            a.call = "translate_config";
            let solver = a.solver()?;
            Call::TranslateConfig {
                solver,
                config: a.pairs("parameter names and values")?,
            }
        }
        "get_proof" => {
            a.call = "get_proof";
            Call::GetProof(a.solver()?)
        }
        "check_cubes" => {
            a.call = "check_cubes";
            Call::Check(Check::Cubes(a.solver()?))
        }
        "check_consequences" => {
            a.call = "check_consequences";
            let solver = a.solver()?;
            let mut assumptions = Vec::new();
            loop {
                let at_vars = a
                    .line
                    .tokens
                    .get(a.next)
                    .is_some_and(|t| t.string.is_none() && t.text == CONSEQUENCE_VARS);
                if at_vars {
                    a.next += 1;
                    break;
                }
                if a.remaining() == 0 {
                    return Err(a.fail(
                        ErrorKind::Arity,
                        format!("`check_consequences` expects `{CONSEQUENCE_VARS}` before its variables"),
                    ));
                }
                assumptions.push(a.term()?);
            }
            Call::Check(Check::Consequences {
                solver,
                assumptions,
                variables: a.terms()?,
            })
        }
        "declare_datatypes" => {
            a.call = "declare_datatypes";
            parse_datatypes(&mut a)?
        }
        "sort_datatype" => {
            a.call = "sort_datatype";
            let name = a.string("a datatype name")?;
            let params = (0..a.remaining())
                .map(|_| a.sort())
                .collect::<Result<_, _>>()?;
            Call::SortDatatype { name, params }
        }
        "dt_cons" => {
            a.call = "dt_cons";
            Call::DtConstruct {
                sort: a.sort()?,
                ctor: a.string("a constructor name")?,
                args: a.terms()?,
            }
        }
        "dt_is" => {
            a.call = "dt_is";
            Call::DtTest {
                ctor: a.string("a constructor name")?,
                term: a.term()?,
            }
        }
        "dt_sel" => {
            a.call = "dt_sel";
            Call::DtSelect {
                field: a.string("a field name")?,
                term: a.term()?,
            }
        }
        "dt_update" => {
            a.call = "dt_update";
            Call::DtUpdate {
                field: a.string("a field name")?,
                term: a.term()?,
                value: a.term()?,
            }
        }
        "check_literal" => {
            a.call = "check_literal";
            Call::Check(Check::Literal(a.term()?))
        }
        "check_quant" => {
            a.call = "check_quant";
            Call::Check(Check::Quant {
                model: ModelId(a.id(ModelId::PREFIX, "a model id")?),
                term: a.term()?,
            })
        }
        "var" => {
            a.call = "var";
            Call::Var {
                sort: a.sort()?,
                name: a.string("a name")?,
            }
        }
        "forall" | "exists" => {
            a.call = if name == "forall" { "forall" } else { "exists" };
            parse_quantifier(&mut a, name == "forall")?
        }
        "tactic" => {
            a.call = "tactic";
            Call::MkTactic(TacticExpr::Named(a.string("a tactic name")?))
        }
        "tactic_and_then" | "tactic_or_else" => {
            a.call = if name == "tactic_and_then" {
                "tactic_and_then"
            } else {
                "tactic_or_else"
            };
            let (x, y) = (a.tactic()?, a.tactic()?);
            Call::MkTactic(if name == "tactic_and_then" {
                TacticExpr::AndThen(x, y)
            } else {
                TacticExpr::OrElse(x, y)
            })
        }
        "tactic_repeat" => {
            a.call = "tactic_repeat";
            Call::MkTactic(TacticExpr::Repeat(
                a.tactic()?,
                a.number("a maximum of repetitions")?,
            ))
        }
        "tactic_try_for" => {
            a.call = "tactic_try_for";
            Call::MkTactic(TacticExpr::TryFor(a.tactic()?, a.number("milliseconds")?))
        }
        "tactic_when" => {
            a.call = "tactic_when";
            Call::MkTactic(TacticExpr::When(a.probe()?, a.tactic()?))
        }
        "tactic_cond" => {
            a.call = "tactic_cond";
            Call::MkTactic(TacticExpr::Cond(a.probe()?, a.tactic()?, a.tactic()?))
        }
        "tactic_using_params" => {
            a.call = "tactic_using_params";
            let k = a.tactic()?;
            Call::MkTactic(TacticExpr::UsingParams(k, a.string_pairs("parameters")?))
        }
        "goal_new" => {
            a.call = "goal_new";
            Call::NewGoal {
                models: a.bool("the models flag")?,
            }
        }
        "goal_assert" => {
            a.call = "goal_assert";
            Call::GoalAssert(a.goal()?, a.term()?)
        }
        "goal_apply" => {
            a.call = "goal_apply";
            Call::ApplyTactic {
                tactic: a.tactic()?,
                goal: a.goal()?,
                rlimit: a.number("a resource limit")?,
            }
        }
        "goal_subgoal" => {
            a.call = "goal_subgoal";
            Call::Subgoal(a.goal()?, a.number("a subgoal index")?)
        }
        "goal_formula" => {
            a.call = "goal_formula";
            Call::GoalFormula(a.goal()?)
        }
        "opt_new" => Call::NewOptimize,
        "opt_set_param" => {
            a.call = "opt_set_param";
            Call::OptSetParam {
                opt: a.opt()?,
                key: a.string("a parameter name")?,
                value: a.string("a value")?,
            }
        }
        "opt_assert" => {
            a.call = "opt_assert";
            Call::OptAssert(a.opt()?, a.term()?)
        }
        "opt_assert_soft" => {
            a.call = "opt_assert_soft";
            Call::OptAssertSoft {
                opt: a.opt()?,
                term: a.term()?,
                weight: a.number("a weight")?,
                group: a.string("a group name")?,
            }
        }
        "opt_minimize" | "opt_maximize" => {
            let direction = if name == "opt_minimize" {
                a.call = "opt_minimize";
                Direction::Minimize
            } else {
                a.call = "opt_maximize";
                Direction::Maximize
            };
            Call::OptObjective {
                opt: a.opt()?,
                term: a.term()?,
                direction,
            }
        }
        "opt_push" => {
            a.call = "opt_push";
            Call::OptPush(a.opt()?)
        }
        "opt_pop" => {
            a.call = "opt_pop";
            Call::OptPop(a.opt()?)
        }
        "opt_check" => {
            a.call = "opt_check";
            Call::OptCheck(a.opt()?)
        }
        "opt_get_model" => {
            a.call = "opt_get_model";
            Call::OptGetModel(a.opt()?)
        }
        "opt_lower" | "opt_upper" => {
            let upper = name == "opt_upper";
            a.call = if upper { "opt_upper" } else { "opt_lower" };
            Call::OptBound {
                opt: a.opt()?,
                index: a.number("an objective index")?,
                upper,
            }
        }
        "check_goal" => {
            a.call = "check_goal";
            Call::Check(Check::Goal(a.goal()?))
        }
        "check_opt_values" => {
            a.call = "check_opt_values";
            Call::Check(Check::OptValues {
                opt: a.opt()?,
                model: a.model()?,
            })
        }
        "check_opt_better" => {
            a.call = "check_opt_better";
            Call::Check(Check::OptBetter {
                opt: a.opt()?,
                model: a.model()?,
            })
        }
        "return" => {
            return Err(error(
                ErrorKind::Return,
                line.number,
                head.column,
                "`return` line without a call before it",
            ))
        }
        name => {
            let Some(op) = Op::lookup(name) else {
                return Err(error(
                    ErrorKind::UnknownCall,
                    line.number,
                    head.column,
                    format!("unknown call or operation `{name}`"),
                ));
            };
            a.call = op.name();
            let indices = (0..op.spec().indices)
                .map(|_| a.number("an index"))
                .collect::<Result<Vec<u32>, _>>()?;
            let args = a.terms()?;
            if !op.spec().arity.admits(args.len()) {
                return Err(error(
                    ErrorKind::Arity,
                    line.number,
                    head.column,
                    format!(
                        "`{name}` takes {} term arguments, got {}",
                        match op.spec().arity {
                            crate::ops::Arity::Fixed(k) => k.to_string(),
                            crate::ops::Arity::AtLeast(k) => format!("at least {k}"),
                        },
                        args.len()
                    ),
                ));
            }
            Call::Op { op, indices, args }
        }
    };
    a.finish()?;
    Ok(call)
}

/// The arguments of `forall`/`exists`: `WEIGHT tV... body tB [pattern tP...]...
/// [no_pattern tN]...`.
fn parse_quantifier(a: &mut Args, forall: bool) -> Result<Call, ReadError> {
    let weight = a.number("a weight")?;
    let mut vars = Vec::new();
    while a.peek() != Some("body") {
        if a.remaining() == 0 {
            return Err(a.fail(
                ErrorKind::Arity,
                format!("`{}` expects `body` after its variables", a.call),
            ));
        }
        vars.push(a.term()?);
    }
    a.next += 1;
    let body = a.term()?;
    let (mut patterns, mut no_patterns) = (Vec::new(), Vec::<TermId>::new());
    while a.remaining() > 0 {
        let t = a.token("`pattern` or `no_pattern`")?;
        let (text, column) = (t.text, t.column);
        match text {
            "pattern" => {
                let mut group = Vec::new();
                while a.remaining() > 0 && !matches!(a.peek(), Some("pattern" | "no_pattern")) {
                    group.push(a.term()?);
                }
                patterns.push(group);
            }
            "no_pattern" => no_patterns.push(a.term()?),
            other => {
                return Err(error(
                    ErrorKind::Argument,
                    a.line.number,
                    column,
                    format!(
                        "`{}` expects `pattern` or `no_pattern`, got `{other}`",
                        a.call
                    ),
                ))
            }
        }
    }
    Ok(Call::Quantifier {
        forall,
        weight,
        vars,
        body,
        patterns,
        no_patterns,
    })
}

fn parse_ret(line: &Line, kind: RetKind, call: &Call) -> Result<Ret, ReadError> {
    let mut a = Args {
        line,
        next: 1,
        call: "return",
    };
    // `return error "MESSAGE"` may follow any call: a bare word `error` is no other result
    // (values are quoted, answers are sat/unsat/unknown, ids have a letter and a number).
    if line
        .tokens
        .get(1)
        .is_some_and(|t| t.string.is_none() && t.text == "error")
    {
        a.next = 2;
        let message = a.string("an error message")?;
        a.finish()?;
        return Ok(Ret::Error(message));
    }
    let ret = match kind {
        RetKind::None => {
            return Err(error(
                ErrorKind::Return,
                line.number,
                line.tokens[0].column,
                format!(
                    "`{}` returns nothing, but a `return` line follows it",
                    call.name()
                ),
            ))
        }
        RetKind::Sort => Ret::Id(AnyId::Sort(a.sort()?)),
        RetKind::Term => Ret::Id(AnyId::Term(a.term()?)),
        RetKind::Func => Ret::Id(AnyId::Func(FuncId(a.id(FuncId::PREFIX, "a function id")?))),
        RetKind::Solver => Ret::Id(AnyId::Solver(a.solver()?)),
        RetKind::Model => Ret::Id(AnyId::Model(a.model()?)),
        RetKind::Tactic => Ret::Id(AnyId::Tactic(a.tactic()?)),
        RetKind::Goal => Ret::Id(AnyId::Goal(a.goal()?)),
        RetKind::Opt => Ret::Id(AnyId::Opt(a.opt()?)),
        RetKind::Sat => {
            let t = a.token("`sat`, `unsat` or `unknown`")?;
            Ret::Sat(match t.text {
                "sat" => SatResult::Sat,
                "unsat" => SatResult::Unsat,
                "unknown" => SatResult::Unknown,
                other => {
                    return Err(error(
                        ErrorKind::Return,
                        line.number,
                        t.column,
                        format!(
                            "`return` of `{}` expects sat, unsat or unknown, got `{other}`",
                            call.name()
                        ),
                    ))
                }
            })
        }
        RetKind::Core => Ret::Core(a.terms()?),
        RetKind::Value => Ret::Value(a.string("a value")?),
    };
    a.finish()?;
    Ok(ret)
}

/// Parses a text trace.
pub fn parse(text: &str) -> Result<Trace, ReadError> {
    let mut trace = Trace::default();
    let mut saw_header = false;
    // The line right after the header, where a `; z3 VERSION` comment may stand.
    let mut version_line = None;
    // The call waiting for a possible `return` line.
    let mut pending: Option<(Call, u32)> = None;
    for (index, raw) in text.lines().enumerate() {
        let number = index as u32 + 1;
        if version_line == Some(number) {
            trace.z3_version = version_in(raw);
        }
        let line = tokenize(number, raw)?;
        if line.tokens.is_empty() {
            continue;
        }
        if !saw_header {
            let words: Vec<&str> = line.tokens.iter().map(|t| t.text).collect();
            match words.as_slice() {
                ["z3-trace", v] if *v == VERSION.to_string() => {
                    saw_header = true;
                    version_line = Some(number + 1);
                    continue;
                }
                ["z3-trace", v] => {
                    return Err(error(
                        ErrorKind::Header,
                        number,
                        line.tokens[1].column,
                        format!("trace version {v}, this tool reads version {VERSION}"),
                    ))
                }
                _ => {
                    return Err(error(
                        ErrorKind::Header,
                        number,
                        1,
                        format!("expected the header `{}` before the first call", header()),
                    ))
                }
            }
        }
        if line.tokens[0].text == "return" {
            let Some((call, call_line)) = pending.take() else {
                return Err(error(
                    ErrorKind::Return,
                    number,
                    line.tokens[0].column,
                    "`return` line without a call before it",
                ));
            };
            let ret = parse_ret(&line, call.ret_kind(), &call)?;
            trace.entries.push(Entry {
                call,
                ret: Some(ret),
            });
            trace.lines.push(call_line);
            continue;
        }
        if let Some((call, call_line)) = pending.take() {
            finish_without_return(&mut trace, call, call_line)?;
        }
        pending = Some((parse_call(&line)?, number));
    }
    if !saw_header {
        return Err(error(
            ErrorKind::Header,
            1,
            1,
            format!("empty trace: expected the header `{}`", header()),
        ));
    }
    if let Some((call, call_line)) = pending {
        // A recorder writes and flushes each call line before the call runs, so a crash inside
        // an object-creating call leaves that call last, without its `return` line. Such a
        // trace must replay (the last call is the failure), so it is accepted here and only here.
        trace.entries.push(Entry { call, ret: None });
        trace.lines.push(call_line);
    }
    Ok(trace)
}

/// A call without a `return` line before another call: fine when it creates nothing, an error
/// when it creates an object (the trace would not say which id later lines use for it).
fn finish_without_return(trace: &mut Trace, call: Call, line: u32) -> Result<(), ReadError> {
    match call.ret_kind() {
        kind if kind.makes_object() => Err(error(
            ErrorKind::Return,
            line,
            1,
            format!(
                "`{}` creates an object, so a `return` line with its id must follow",
                call.name()
            ),
        )),
        _ => {
            trace.entries.push(Entry { call, ret: None });
            trace.lines.push(line);
            Ok(())
        }
    }
}
