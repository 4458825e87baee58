//! The reader of Z3 API logs: bytes to a [`Log`], or a [`ParseError`] naming the line.
//!
//! The grammar is that of Z3's own replayer (`src/api/z3_replayer.cpp`): a stream of
//! one-letter commands separated by blanks (the writer puts one per line), each followed by
//! its operands. Arguments go on a stack that `R` clears; `p`/`i`/`u`/`s N` turn the last N
//! into one array; `C N` calls function N with the stack as its arguments; `=`, `*` and `@`
//! bind the addresses of the objects the last call returned. Where Z3's replayer wraps a
//! number around or reads past an array, this reader stops with an error.
//!
//! Bounded by the input: nothing is allocated in proportion to a number written in the log
//! (an array's length is the number of arguments actually on the stack), there is no
//! recursion (arrays do not nest in this format), lines may be of any length, and a stack
//! carried from call to call without `R` (which Z3's writer never does) is refused once the
//! copies would outgrow the log itself.

use crate::log::{Addr, Call, Entry, EntryKind, Log, OutBinding, Symbol, Value};
use std::collections::HashSet;
use std::fmt;

/// A malformed log: the line and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: u32,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.line, self.message)
    }
}

impl std::error::Error for ParseError {}

/// The command letters of the format.
const COMMANDS: &[u8] = b"VRPSN$#IUFDpsuiC=*@M";

/// Whether `bytes` looks like a Z3 API log rather than a trace: the first non-blank line is
/// `V "..."` or starts with a log command letter followed by a blank, a quote or its end
/// (traces start with `z3-trace`, `;` or the binary magic `Z3TRACE`).
pub fn looks_like_log(bytes: &[u8]) -> bool {
    let Some(line) = bytes
        .split(|b| *b == b'\n')
        .map(|l| l.trim_ascii())
        .find(|l| !l.is_empty())
    else {
        return false;
    };
    match line {
        [c] => COMMANDS.contains(c),
        [c, next, ..] => {
            COMMANDS.contains(c) && (next.is_ascii_whitespace() || (*c == b'V' && *next == b'"'))
        }
        [] => false,
    }
}

/// Whether `bytes` starts as Z3's writer starts every log: its first non-blank line is the
/// `V "..."` line. Stricter than [`looks_like_log`], for tools that look through folders of
/// other files (`mbt --known DIR`), where a Markdown heading (`# ...`) or a Python line
/// (`import ...`) also starts with a command letter.
pub fn starts_with_version(bytes: &[u8]) -> bool {
    bytes
        .split(|b| *b == b'\n')
        .map(|l| l.trim_ascii())
        .find(|l| !l.is_empty())
        .is_some_and(|line| line.starts_with(b"V \"") || line.starts_with(b"V\t\""))
}

/// The version (the `V` line's, when it is the first line) and the function numbers of the `C`
/// lines of a log written by Z3's own writer, which puts every command on its own line and
/// escapes line breaks inside strings. Reads nothing else, so it also counts what a full
/// [`parse`] refuses: a log opened while objects of earlier calls were alive, or cut short.
/// mbt counts the Z3 functions a round calls this way.
pub fn call_numbers(bytes: &[u8]) -> (Option<String>, Vec<u32>) {
    let mut lines = bytes.split(|b| *b == b'\n');
    let version = lines
        .next()
        .and_then(|first| first.strip_prefix(b"V \""))
        .and_then(|rest| rest.strip_suffix(b"\""))
        .map(|v| String::from_utf8_lossy(v).into_owned());
    let numbers = lines
        .filter_map(|line| line.strip_prefix(b"C "))
        .filter_map(|n| std::str::from_utf8(n).ok()?.trim().parse().ok())
        .collect();
    (version, numbers)
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    line: u32,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn error(&self, message: impl Into<String>) -> ParseError {
        ParseError {
            line: self.line,
            message: message.into(),
        }
    }

    /// Skips spaces, tabs, carriage returns and newlines (counting lines).
    fn skip_blank(&mut self) {
        while let Some(c) = self.peek() {
            match c {
                b'\n' => self.line += 1,
                b' ' | b'\t' | b'\r' => {}
                _ => return,
            }
            self.pos += 1;
        }
    }

    fn uint(&mut self, what: &str) -> Result<u64, ParseError> {
        self.skip_blank();
        let start = self.pos;
        let mut value: u64 = 0;
        while let Some(c @ b'0'..=b'9') = self.peek() {
            value = value
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(c - b'0')))
                .ok_or_else(|| self.error(format!("{what} out of range")))?;
            self.pos += 1;
        }
        if self.pos == start {
            return Err(self.error(format!("expected {what}")));
        }
        Ok(value)
    }

    fn uint32(&mut self, what: &str) -> Result<u32, ParseError> {
        let v = self.uint(what)?;
        u32::try_from(v).map_err(|_| self.error(format!("{what} {v} out of range")))
    }

    fn int(&mut self) -> Result<i64, ParseError> {
        self.skip_blank();
        let negative = self.peek() == Some(b'-');
        if negative {
            self.pos += 1;
        }
        let magnitude = self.uint("an integer")?;
        let value = if negative {
            0i64.checked_sub_unsigned(magnitude)
        } else {
            i64::try_from(magnitude).ok()
        };
        value.ok_or_else(|| self.error("integer out of range"))
    }

    fn real(&mut self) -> Result<f64, ParseError> {
        self.skip_blank();
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        let rest = &self.bytes[self.pos..];
        // Z3's writer prints infinities and NaN as `inf` and `nan` (its reader refuses them).
        for word in ["inf", "nan"] {
            if rest.len() >= 3 && rest[..3].eq_ignore_ascii_case(word.as_bytes()) {
                self.pos += 3;
                let v = if word == "inf" {
                    f64::INFINITY
                } else {
                    f64::NAN
                };
                return Ok(if self.bytes[start] == b'-' { -v } else { v });
            }
        }
        while let Some(b'0'..=b'9' | b'.' | b'e' | b'E' | b'-' | b'+') = self.peek() {
            self.pos += 1;
        }
        let text = std::str::from_utf8(&self.bytes[start..self.pos]).unwrap_or("");
        text.parse::<f64>()
            .map_err(|_| self.error(format!("invalid number `{text}`")))
    }

    fn ptr(&mut self) -> Result<Addr, ParseError> {
        self.skip_blank();
        let start = self.pos;
        let mut value: u64 = 0;
        let mut digits = 0;
        loop {
            let digit = match self.peek() {
                Some(c @ b'0'..=b'9') => c - b'0',
                Some(c @ b'a'..=b'f') => c - b'a' + 10,
                Some(c @ b'A'..=b'F') => c - b'A' + 10,
                Some(b'x' | b'X') if self.pos == start + 1 && value == 0 => {
                    self.pos += 1;
                    continue;
                }
                _ => break,
            };
            if value >> 60 != 0 {
                return Err(self.error("address out of range"));
            }
            value = value << 4 | u64::from(digit);
            digits += 1;
            self.pos += 1;
        }
        if digits == 0 {
            return Err(self.error("expected an address"));
        }
        Ok(Addr(value))
    }

    /// A string between `delimiter`s, with `\ddd` escapes (three decimal digits, at most
    /// 255), on one line.
    fn string(&mut self, delimiter: u8) -> Result<Box<[u8]>, ParseError> {
        self.skip_blank();
        if self.peek() != Some(delimiter) {
            return Err(self.error(format!("expected `{}`", delimiter as char)));
        }
        self.pos += 1;
        let mut out = Vec::new();
        loop {
            match self.peek() {
                None => return Err(self.error("end of file inside a string")),
                Some(b'\n') => return Err(self.error("end of line inside a string")),
                Some(b'\\') => {
                    let digits = self.bytes.get(self.pos + 1..self.pos + 4);
                    let value = digits
                        .filter(|d| d.iter().all(u8::is_ascii_digit))
                        .map(|d| d.iter().fold(0u32, |v, c| v * 10 + u32::from(c - b'0')))
                        .filter(|v| *v <= 255)
                        .ok_or_else(|| {
                            self.error("invalid escape (expected three digits up to 255)")
                        })?;
                    out.push(value as u8);
                    self.pos += 4;
                }
                Some(c) if c == delimiter => {
                    self.pos += 1;
                    return Ok(out.into_boxed_slice());
                }
                Some(c) => {
                    out.push(c);
                    self.pos += 1;
                }
            }
        }
    }
}

/// The parser's state: the argument stack, the calls so far, the bound addresses.
struct Parser {
    stack: Vec<Value>,
    entries: Vec<Entry>,
    bound: HashSet<u64>,
    /// The first line of the entry being read.
    first_line: Option<u32>,
    /// Whether an `R` came since the last call.
    reset_since_call: bool,
    /// Values read, and values copied into calls from a stack that was not reset.
    values_read: u64,
    values_carried: u64,
    version: Option<String>,
}

impl Parser {
    fn push(&mut self, value: Value, line: u32) {
        self.first_line.get_or_insert(line);
        self.values_read += 1;
        self.stack.push(value);
    }

    fn last_call(&mut self, r: &Reader) -> Result<&mut Call, ParseError> {
        match self.entries.last_mut() {
            Some(Entry {
                kind: EntryKind::Call(call),
                last_line,
                ..
            }) => {
                *last_line = r.line;
                Ok(call)
            }
            _ => Err(r.error("a binding line before any call")),
        }
    }

    fn bind(&mut self, addr: Addr) {
        if addr.0 != 0 {
            self.bound.insert(addr.0);
        }
    }

    fn array(&mut self, r: &Reader, kind: u8, n: u64) -> Result<(), ParseError> {
        let n = usize::try_from(n)
            .ok()
            .filter(|n| *n <= self.stack.len())
            .ok_or_else(|| {
                r.error(format!(
                    "an array of {n} arguments, but only {} are on the stack",
                    self.stack.len()
                ))
            })?;
        let items = self.stack.split_off(self.stack.len() - n);
        let mixed = || r.error("an array of mixed argument kinds");
        let value = match kind {
            b'p' => Value::Objects(
                items
                    .into_iter()
                    .map(|v| match v {
                        Value::Object(a) => Ok(a),
                        _ => Err(mixed()),
                    })
                    .collect::<Result<_, _>>()?,
            ),
            b'i' => Value::Ints(
                items
                    .into_iter()
                    .map(|v| match v {
                        Value::Int(i) => Ok(i),
                        _ => Err(mixed()),
                    })
                    .collect::<Result<_, _>>()?,
            ),
            b'u' => Value::Uints(
                items
                    .into_iter()
                    .map(|v| match v {
                        Value::Uint(u) => Ok(u),
                        _ => Err(mixed()),
                    })
                    .collect::<Result<_, _>>()?,
            ),
            _ => Value::Symbols(
                items
                    .into_iter()
                    .map(|v| match v {
                        Value::Symbol(s) => Ok(s),
                        _ => Err(mixed()),
                    })
                    .collect::<Result<_, _>>()?,
            ),
        };
        self.stack.push(value);
        Ok(())
    }

    fn command(&mut self, r: &mut Reader, c: u8) -> Result<(), ParseError> {
        let line = r.line;
        match c {
            b'V' => {
                let text = r.string(b'"')?;
                self.version
                    .get_or_insert_with(|| String::from_utf8_lossy(&text).into_owned());
            }
            b'R' => {
                self.stack.clear();
                self.reset_since_call = true;
                self.first_line = Some(line);
            }
            b'P' => {
                let addr = r.ptr()?;
                if addr.0 != 0 && !self.bound.contains(&addr.0) {
                    return Err(r.error(format!(
                        "object {} is not one an earlier call returned",
                        crate::log::addr_text(addr)
                    )));
                }
                self.push(Value::Object(addr), line);
            }
            b'S' => {
                let s = r.string(b'"')?;
                self.push(Value::Str(s), line);
            }
            b'N' => self.push(Value::Symbol(Symbol::Null), line),
            b'$' => {
                let s = r.string(b'|')?;
                self.push(Value::Symbol(Symbol::Str(s)), line);
            }
            b'#' => {
                let n = r.uint32("a symbol number")?;
                self.push(Value::Symbol(Symbol::Int(n)), line);
            }
            b'I' => {
                let i = r.int()?;
                self.push(Value::Int(i), line);
            }
            b'U' => {
                let u = r.uint("an unsigned")?;
                self.push(Value::Uint(u), line);
            }
            b'D' => {
                let d = r.real()?;
                self.push(Value::Double(d), line);
            }
            b'F' => {
                let d = r.real()?;
                self.push(Value::Float(d as f32), line);
            }
            b'p' | b'i' | b'u' | b's' => {
                let n = r.uint("an array length")?;
                self.array(r, c, n)?;
            }
            b'C' => {
                let number = r.uint32("a call number")?;
                if !self.reset_since_call {
                    self.values_carried += self.stack.len() as u64;
                    if self.values_carried > 2 * self.values_read + 1024 {
                        return Err(r.error(
                            "arguments carried from call to call without `R` (Z3's writer \
                             starts every call with `R`)",
                        ));
                    }
                }
                self.reset_since_call = false;
                let first_line = self.first_line.take().unwrap_or(line);
                self.entries.push(Entry {
                    kind: EntryKind::Call(Call {
                        number,
                        args: self.stack.clone(),
                        result: None,
                        outs: Vec::new(),
                    }),
                    first_line,
                    line,
                    last_line: line,
                });
            }
            b'=' => {
                let addr = r.ptr()?;
                let call = self.last_call(r)?;
                if call.result.is_some() {
                    return Err(r.error("a second `=` line for one call"));
                }
                call.result = Some(addr);
                self.bind(addr);
            }
            b'*' => {
                let addr = r.ptr()?;
                let pos = r.uint32("an argument position")?;
                let call = self.last_call(r)?;
                match call.args.get(pos as usize) {
                    Some(Value::Object(_)) => {}
                    Some(v) => {
                        let kind = v.kind_name();
                        return Err(r.error(format!(
                            "`*` binds argument {pos}, which is a {kind}, not an object"
                        )));
                    }
                    None => {
                        let n = call.args.len();
                        return Err(r.error(format!(
                            "`*` binds argument {pos}, but the call has {n} arguments"
                        )));
                    }
                }
                call.outs.push(OutBinding::Object { addr, pos });
                self.bind(addr);
            }
            b'@' => {
                let addr = r.ptr()?;
                let pos = r.uint32("an argument position")?;
                let idx = r.uint32("an array index")?;
                let call = self.last_call(r)?;
                match call.args.get(pos as usize) {
                    Some(Value::Objects(v)) if (idx as usize) < v.len() => {}
                    Some(Value::Objects(v)) => {
                        let n = v.len();
                        return Err(r.error(format!(
                            "`@` binds element {idx} of argument {pos}, an array of {n}"
                        )));
                    }
                    _ => {
                        return Err(r.error(format!(
                            "`@` binds an element of argument {pos}, which is not an object array"
                        )))
                    }
                }
                call.outs.push(OutBinding::Element { addr, pos, idx });
                self.bind(addr);
            }
            b'M' => {
                let text = r.string(b'"')?;
                self.entries.push(Entry {
                    kind: EntryKind::Message(text),
                    first_line: line,
                    line,
                    last_line: line,
                });
            }
            other => {
                let shown = if other.is_ascii_graphic() {
                    format!("`{}`", other as char)
                } else {
                    format!("byte {other:#04x}")
                };
                return Err(r.error(format!("unknown log command {shown}")));
            }
        }
        Ok(())
    }
}

/// Reads a whole log.
pub fn parse(bytes: &[u8]) -> Result<Log, ParseError> {
    let mut r = Reader {
        bytes,
        pos: 0,
        line: 1,
    };
    let mut p = Parser {
        stack: Vec::new(),
        entries: Vec::new(),
        bound: HashSet::new(),
        first_line: None,
        reset_since_call: true,
        values_read: 0,
        values_carried: 0,
        version: None,
    };
    loop {
        r.skip_blank();
        let Some(c) = r.peek() else { break };
        r.pos += 1;
        p.command(&mut r, c)?;
    }
    // Arguments after the last call are a call the writer did not finish (the program died
    // while logging it); they are not an entry.
    Ok(Log {
        version: p.version,
        entries: p.entries,
        n_lines: r.line,
    })
}
