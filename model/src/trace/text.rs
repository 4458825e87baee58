//! The text trace format: a version header, then one call per line, each result on the
//! `return` line right after its call, `;` comments. See `docs/trace-format.md`.

use super::{ErrorKind, ReadError, Trace, VERSION};
use crate::call::{
    AnyId, Call, Entry, FuncId, GoalId, ModelId, Op, OptId, ProbeCmp, ProbeTest, RcfId, Ret,
    RetKind, SatResult, SolverId, SolverKind, SortId, TacticId, TermId,
};
use crate::call_args::{CallSpec, List, Visit, VisitMut};
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

/// The word of a `check_consequences` line between its assumptions and its variables.
pub const CONSEQUENCE_VARS: &str = "vars";

/// The word between the two polynomials of `check_subresultants`.
pub const SUBRESULTANTS_SECOND: &str = "and";
/// The word between the atoms of `check_fset` and its witnesses.
pub const FSET_WITNESSES: &str = "with";

/// Formats a call as its trace line (without newline): its name, then each argument as the
/// call's walk (`call_args`) presents it.
pub fn format_call(call: &Call) -> String {
    let mut printer = Printer(String::from(call.name()));
    call.walk(&mut printer);
    printer.0
}

/// Writes the arguments of a line.
struct Printer(String);

impl Printer {
    fn word(&mut self, w: &dyn std::fmt::Display) {
        let _ = write!(self.0, " {w}");
    }
}

impl Visit for Printer {
    fn head(&mut self, _spec: &'static CallSpec) {}
    fn sort(&mut self, id: &SortId) {
        self.word(id)
    }
    fn term(&mut self, id: &TermId) {
        self.word(id)
    }
    fn func(&mut self, id: &FuncId) {
        self.word(id)
    }
    fn solver(&mut self, id: &SolverId) {
        self.word(id)
    }
    fn model(&mut self, id: &ModelId) {
        self.word(id)
    }
    fn tactic(&mut self, id: &TacticId) {
        self.word(id)
    }
    fn goal(&mut self, id: &GoalId) {
        self.word(id)
    }
    fn opt(&mut self, id: &OptId) {
        self.word(id)
    }
    fn rcf(&mut self, id: &RcfId) {
        self.word(id)
    }
    fn rcfs(&mut self, ids: &Vec<RcfId>) {
        ids.iter().for_each(|r| self.word(r));
    }
    fn any(&mut self, id: &AnyId) {
        self.word(id)
    }
    fn number(&mut self, n: &u32, _what: &'static str) {
        self.word(n)
    }
    fn int(&mut self, n: &i32, _what: &'static str) {
        self.word(n)
    }
    fn flag(&mut self, b: &bool, _what: &'static str) {
        self.word(b)
    }
    fn string(&mut self, s: &String, _what: &'static str) {
        self.word(&quote(s))
    }
    fn indices(&mut self, _op: &Op, indices: &Vec<u32>) {
        indices.iter().for_each(|i| self.word(i));
    }
    fn sorts(&mut self, ids: &Vec<SortId>) {
        ids.iter().for_each(|s| self.word(s));
    }
    fn terms(&mut self, ids: &Vec<TermId>, _list: List) {
        ids.iter().for_each(|t| self.word(t));
    }
    fn terms_until(&mut self, ids: &Vec<TermId>, stop: &'static str) {
        ids.iter().for_each(|t| self.word(t));
        self.word(&stop);
    }
    fn term_pairs(&mut self, pairs: &Vec<(TermId, TermId)>, _what: &'static str) {
        for (from, to) in pairs {
            self.word(from);
            self.word(to);
        }
    }
    fn string_pairs(&mut self, pairs: &Vec<(String, String)>, _what: &'static str) {
        for (key, value) in pairs {
            self.word(&quote(key));
            self.word(&quote(value));
        }
    }
    fn weighted(&mut self, pairs: &Vec<(i32, TermId)>, _list: List) {
        for (coefficient, t) in pairs {
            self.word(coefficient);
            self.word(t);
        }
    }
    fn patterns(&mut self, patterns: &Vec<Vec<TermId>>, no_patterns: &Vec<TermId>) {
        for pattern in patterns {
            self.word(&"pattern");
            pattern.iter().for_each(|t| self.word(t));
        }
        for t in no_patterns {
            self.word(&"no_pattern");
            self.word(t);
        }
    }
    fn solver_kind(&mut self, kind: &SolverKind) {
        match kind {
            SolverKind::Default => {}
            SolverKind::Logic(logic) => {
                self.word(&"logic");
                self.word(&quote(logic))
            }
            SolverKind::Tactic(tactic) => {
                self.word(&"tactic");
                self.word(&quote(tactic))
            }
            SolverKind::FromTactic(k) => {
                self.word(&"from_tactic");
                self.word(k)
            }
        }
    }
    fn probe(&mut self, p: &ProbeTest) {
        self.word(&quote(&p.probe));
        self.word(&p.cmp.name());
        self.word(&p.value);
    }
    fn datatypes(&mut self, path: &DeclPath, params: &Vec<String>, datatypes: &Vec<DatatypeDecl>) {
        self.word(&path.name());
        if !params.is_empty() {
            self.word(&"par");
            params.iter().for_each(|p| self.word(&quote(p)));
        }
        for d in datatypes {
            self.word(&"datatype");
            self.word(&quote(&d.name));
            for c in &d.constructors {
                self.word(&"ctor");
                self.word(&quote(&c.name));
                for f in &c.fields {
                    self.word(&quote(&f.name));
                    match f.sort {
                        FieldSort::Sort(id) => self.word(&id),
                        FieldSort::Datatype(k) => self.word(&format!("d{k}")),
                        FieldSort::Param(k) => self.word(&format!("p{k}")),
                    }
                }
            }
        }
    }
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

    /// A signed numeral (`-3`, `7`) that fits in 32 bits.
    fn int(&mut self, what: &str) -> Result<i32, ReadError> {
        let t = self.token(what)?;
        let (column, text) = (t.column, t.text);
        let digits = text.strip_prefix('-').unwrap_or(text);
        if t.string.is_some() || digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(error(
                ErrorKind::Argument,
                self.line.number,
                column,
                format!(
                    "`{}` expects {what} (a signed numeral), got `{text}`",
                    self.call
                ),
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

    fn rcf(&mut self) -> Result<RcfId, ReadError> {
        self.id(RcfId::PREFIX, "an RCF number id").map(RcfId)
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
        RcfId::PREFIX => AnyId::Rcf(RcfId(n)),
        _ => return None,
    })
}

/// The arguments of `declare_datatypes`: `api|parser [par "T"...] (datatype "D" (ctor "c"
/// ("f" sN|dK|pK)*)*)+`.
fn read_datatypes(a: &mut Args) -> Result<(DeclPath, Vec<String>, Vec<DatatypeDecl>), ReadError> {
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
    let path = match DeclPath::ALL.into_iter().find(|p| keyword(a, p.name())) {
        Some(path) => path,
        None => {
            let t = a
                .token("`api`, `parser`, `enum`, `tuple`, `list` or `single`")?
                .text
                .to_string();
            return Err(a.fail(
                ErrorKind::Argument,
                format!("`declare_datatypes` expects `api`, `parser`, `enum`, `tuple`, `list` or `single`, got `{t}`"),
            ));
        }
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
    Ok((path, params, datatypes))
}

/// Fills a call's template from the arguments of its line (the call's walk in `call_args`
/// says what comes in which order); the first error stops the reading.
struct Reader<'l, 'a> {
    a: Args<'l, 'a>,
    error: Option<ReadError>,
}

impl<'l, 'a> Reader<'l, 'a> {
    /// Runs one read unless an earlier one failed.
    fn read<T>(&mut self, f: impl FnOnce(&mut Args<'l, 'a>) -> Result<T, ReadError>) -> Option<T> {
        if self.error.is_some() {
            return None;
        }
        match f(&mut self.a) {
            Ok(value) => Some(value),
            Err(e) => {
                self.error = Some(e);
                None
            }
        }
    }

    fn set<T>(&mut self, slot: &mut T, f: impl FnOnce(&mut Args<'l, 'a>) -> Result<T, ReadError>) {
        if let Some(value) = self.read(f) {
            *slot = value;
        }
    }

    /// Fails unless the items left are pairs (`what` names the whole argument list).
    fn even(&mut self, what: &'static str) -> bool {
        self.read(|a| {
            if a.remaining().is_multiple_of(2) {
                Ok(())
            } else {
                Err(a.fail(
                    ErrorKind::Arity,
                    format!("`{}` expects {what}, got an odd count", a.call),
                ))
            }
        })
        .is_some()
    }
}

impl VisitMut for Reader<'_, '_> {
    fn head(&mut self, _spec: &'static CallSpec) {}
    fn sort(&mut self, id: &mut SortId) {
        self.set(id, |a| a.sort())
    }
    fn term(&mut self, id: &mut TermId) {
        self.set(id, |a| a.term())
    }
    fn func(&mut self, id: &mut FuncId) {
        self.set(id, |a| a.id(FuncId::PREFIX, "a function id").map(FuncId))
    }
    fn solver(&mut self, id: &mut SolverId) {
        self.set(id, |a| a.solver())
    }
    fn model(&mut self, id: &mut ModelId) {
        self.set(id, |a| a.model())
    }
    fn tactic(&mut self, id: &mut TacticId) {
        self.set(id, |a| a.tactic())
    }
    fn goal(&mut self, id: &mut GoalId) {
        self.set(id, |a| a.goal())
    }
    fn opt(&mut self, id: &mut OptId) {
        self.set(id, |a| a.opt())
    }
    fn rcf(&mut self, id: &mut RcfId) {
        self.set(id, |a| a.rcf())
    }
    fn rcfs(&mut self, ids: &mut Vec<RcfId>) {
        self.set(ids, |a| (0..a.remaining()).map(|_| a.rcf()).collect());
    }
    fn any(&mut self, id: &mut AnyId) {
        self.set(id, |a| a.any_id())
    }
    fn number(&mut self, n: &mut u32, what: &'static str) {
        self.set(n, |a| a.number(what))
    }
    fn int(&mut self, n: &mut i32, what: &'static str) {
        self.set(n, |a| a.int(what))
    }
    fn flag(&mut self, b: &mut bool, what: &'static str) {
        self.set(b, |a| a.bool(what))
    }
    fn string(&mut self, s: &mut String, what: &'static str) {
        self.set(s, |a| a.string(what))
    }
    fn indices(&mut self, op: &Op, indices: &mut Vec<u32>) {
        let count = op.spec().indices;
        self.set(indices, |a| {
            (0..count).map(|_| a.number("an index")).collect()
        });
    }
    fn sorts(&mut self, ids: &mut Vec<SortId>) {
        self.set(ids, |a| (0..a.remaining()).map(|_| a.sort()).collect());
    }
    fn terms(&mut self, ids: &mut Vec<TermId>, _list: List) {
        self.set(ids, |a| a.terms())
    }
    fn terms_until(&mut self, ids: &mut Vec<TermId>, stop: &'static str) {
        self.set(ids, |a| {
            let mut terms = Vec::new();
            while a.peek() != Some(stop) {
                if a.remaining() == 0 {
                    return Err(a.fail(
                        ErrorKind::Arity,
                        format!("`{}` expects `{stop}` after its terms", a.call),
                    ));
                }
                terms.push(a.term()?);
            }
            a.next += 1;
            Ok(terms)
        })
    }
    fn term_pairs(&mut self, pairs: &mut Vec<(TermId, TermId)>, what: &'static str) {
        if self.even(what) {
            self.set(pairs, |a| {
                let mut pairs = Vec::new();
                while a.remaining() > 0 {
                    pairs.push((a.term()?, a.term()?));
                }
                Ok(pairs)
            })
        }
    }
    fn string_pairs(&mut self, pairs: &mut Vec<(String, String)>, what: &'static str) {
        if self.even(what) {
            self.set(pairs, |a| {
                let mut pairs = Vec::new();
                while a.remaining() > 0 {
                    pairs.push((a.string("a parameter name")?, a.string("a value")?));
                }
                Ok(pairs)
            })
        }
    }
    fn weighted(&mut self, pairs: &mut Vec<(i32, TermId)>, _list: List) {
        if self.even("pairs of coefficients and terms") {
            self.set(pairs, |a| {
                let mut pairs = Vec::new();
                while a.remaining() > 0 {
                    pairs.push((a.int("a coefficient")?, a.term()?));
                }
                Ok(pairs)
            })
        }
    }
    fn patterns(&mut self, patterns: &mut Vec<Vec<TermId>>, no_patterns: &mut Vec<TermId>) {
        if let Some((p, n)) = self.read(read_patterns) {
            *patterns = p;
            *no_patterns = n;
        }
    }
    fn solver_kind(&mut self, kind: &mut SolverKind) {
        self.set(kind, |a| {
            if a.remaining() == 0 {
                return Ok(SolverKind::Default);
            }
            let t = a.token("`logic`, `tactic` or `from_tactic`")?;
            let (text, column) = (t.text, t.column);
            match text {
                "logic" => Ok(SolverKind::Logic(a.string("a logic")?)),
                "tactic" => Ok(SolverKind::Tactic(a.string("a tactic")?)),
                "from_tactic" => Ok(SolverKind::FromTactic(a.tactic()?)),
                other => Err(error(
                    ErrorKind::Argument,
                    a.line.number,
                    column,
                    format!(
                        "`new_solver` expects `logic`, `tactic` or `from_tactic`, got `{other}`"
                    ),
                )),
            }
        })
    }
    fn probe(&mut self, probe: &mut ProbeTest) {
        self.set(probe, |a| a.probe())
    }
    fn datatypes(
        &mut self,
        path: &mut DeclPath,
        params: &mut Vec<String>,
        datatypes: &mut Vec<DatatypeDecl>,
    ) {
        if let Some((p, ps, ds)) = self.read(read_datatypes) {
            (*path, *params, *datatypes) = (p, ps, ds);
        }
    }
}

fn parse_call(line: &Line) -> Result<Call, ReadError> {
    let head = &line.tokens[0];
    let name = head.text;
    if name == "return" {
        return Err(error(
            ErrorKind::Return,
            line.number,
            head.column,
            "`return` line without a call before it",
        ));
    }
    let (mut call, op) = if let Some(template) = Call::template(name) {
        (template.clone(), None)
    } else if let Some(op) = Op::lookup(name) {
        let call = Call::Op {
            op,
            indices: vec![],
            args: vec![],
        };
        (call, Some(op))
    } else {
        return Err(error(
            ErrorKind::UnknownCall,
            line.number,
            head.column,
            format!("unknown call or operation `{name}`"),
        ));
    };
    let mut reader = Reader {
        a: Args {
            line,
            next: 1,
            call: call.name(),
        },
        error: None,
    };
    call.walk_mut(&mut reader);
    if let Some(e) = reader.error {
        return Err(e);
    }
    if let (Some(op), Call::Op { args, .. }) = (op, &call) {
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
    }
    reader.a.finish()?;
    Ok(call)
}

/// The tail of `forall`/`exists`: `[pattern tP...]... [no_pattern tN]...`, in any order.
fn read_patterns(a: &mut Args) -> Result<(Vec<Vec<TermId>>, Vec<TermId>), ReadError> {
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
    Ok((patterns, no_patterns))
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
        RetKind::Rcf => Ret::Id(AnyId::Rcf(a.rcf()?)),
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
