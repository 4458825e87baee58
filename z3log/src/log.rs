//! The parts of a Z3 API log, as read ([`crate::parse`]) and written back ([`write`]).
//!
//! A [`Log`] is the `V` line's version and a list of [`Entry`]s: each is a [`Call`] (its
//! number, the arguments on the stack when its `C` line came, the object its `=` line binds,
//! the out-parameters its `*` and `@` lines bind) or a [`Message`](EntryKind::Message) (`M`).
//! Every entry keeps the lines it came from, so a minimizer can cut a log by entries and
//! a lifter can name the line of each call. Objects are the addresses the program saw
//! ([`Addr`]); the table of the log's Z3 release ([`crate::table`]) says what each call
//! number is.

use std::fmt::Write as _;

/// An object's address as the log writes it (`P 0x55d0c0a3b2c0`); `Addr(0)` is null.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Addr(pub u64);

/// A symbol argument: symbols are values in the log, never objects.
#[derive(Clone, Debug, PartialEq)]
pub enum Symbol {
    /// `N`
    Null,
    /// `# N`
    Int(u32),
    /// `$ |text|`
    Str(Box<[u8]>),
}

/// One argument on the stack when a call's `C` line came.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `P ADDR`: an object, or null (also the placeholder of an out-parameter).
    Object(Addr),
    /// `I N`: int, int64, bool, lbool.
    Int(i64),
    /// `U N`: unsigned, uint64, enumerations.
    Uint(u64),
    /// `D X`: double (and float: Z3's writer logs floats as doubles).
    Double(f64),
    /// `F X`: float (read by Z3's replayer, never written by its writer).
    Float(f32),
    /// `S "..."`, escapes decoded.
    Str(Box<[u8]>),
    /// `$`, `#`, `N`.
    Symbol(Symbol),
    /// `p N`: the last N objects.
    Objects(Vec<Addr>),
    /// `i N`: the last N integers.
    Ints(Vec<i64>),
    /// `u N`: the last N unsigned (also bool arrays).
    Uints(Vec<u64>),
    /// `s N`: the last N symbols.
    Symbols(Vec<Symbol>),
}

impl Value {
    /// The name of the value's kind in messages.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Value::Object(_) => "object",
            Value::Int(_) => "integer",
            Value::Uint(_) => "unsigned",
            Value::Double(_) => "double",
            Value::Float(_) => "float",
            Value::Str(_) => "string",
            Value::Symbol(_) => "symbol",
            Value::Objects(_) => "object array",
            Value::Ints(_) => "integer array",
            Value::Uints(_) => "unsigned array",
            Value::Symbols(_) => "symbol array",
        }
    }

    /// The objects this value refers to (none for null).
    pub fn objects(&self) -> impl Iterator<Item = Addr> + '_ {
        let (one, many): (Option<Addr>, &[Addr]) = match self {
            Value::Object(a) => (Some(*a), &[]),
            Value::Objects(v) => (None, v),
            _ => (None, &[]),
        };
        one.into_iter()
            .chain(many.iter().copied())
            .filter(|a| a.0 != 0)
    }
}

/// An out-parameter's object, bound after the call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutBinding {
    /// `* ADDR POS`: the object written to the out-parameter at argument position `pos`.
    Object { addr: Addr, pos: u32 },
    /// `@ ADDR POS IDX`: element `idx` of the out-array at argument position `pos`.
    Element { addr: Addr, pos: u32, idx: u32 },
}

impl OutBinding {
    pub fn addr(&self) -> Addr {
        match self {
            OutBinding::Object { addr, .. } | OutBinding::Element { addr, .. } => *addr,
        }
    }
}

/// One API call: `R`, its arguments, `C NUMBER`, then the objects it returned.
#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    /// The function's number in the writing release's table.
    pub number: u32,
    pub args: Vec<Value>,
    /// `= ADDR`: the object the call returned.
    pub result: Option<Addr>,
    /// `*` and `@` lines, in log order.
    pub outs: Vec<OutBinding>,
}

impl Call {
    /// Every object the call binds (its result, then its out-parameters).
    pub fn bound(&self) -> impl Iterator<Item = Addr> + '_ {
        self.result
            .into_iter()
            .chain(self.outs.iter().map(OutBinding::addr))
    }

    /// Every object the call uses (non-null).
    pub fn used(&self) -> impl Iterator<Item = Addr> + '_ {
        self.args.iter().flat_map(Value::objects)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum EntryKind {
    Call(Call),
    /// `M "..."` (`Z3_append_log`): a message the program wrote into the log.
    Message(Box<[u8]>),
}

/// One entry and the lines it came from (1-based).
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub kind: EntryKind,
    /// The entry's first line (its `R`, or its first argument).
    pub first_line: u32,
    /// The `C` line of a call, the `M` line of a message: the line messages name.
    pub line: u32,
    /// The entry's last line (its last binding).
    pub last_line: u32,
}

/// A parsed log.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Log {
    /// The version of the Z3 that wrote the log (`V "4.8.12.0"`).
    pub version: Option<String>,
    pub entries: Vec<Entry>,
    /// The number of lines read.
    pub n_lines: u32,
}

impl Log {
    /// The calls of the log with their entries.
    pub fn calls(&self) -> impl Iterator<Item = (&Entry, &Call)> {
        self.entries.iter().filter_map(|e| match &e.kind {
            EntryKind::Call(c) => Some((e, c)),
            EntryKind::Message(_) => None,
        })
    }
}

impl Log {
    /// For each entry, the entries that bound the objects it uses: for each address among its
    /// arguments, the latest earlier entry that bound it (a later binding of an address
    /// replaces an earlier one, as in the replay: the program's allocator reused it). Sorted,
    /// without repeats; a message depends on nothing. Removing an entry from a log means
    /// removing its dependents too, or the log names an object no call returned.
    pub fn dependencies(&self) -> Vec<Vec<usize>> {
        let mut bound_by: std::collections::HashMap<Addr, usize> = Default::default();
        let mut deps = Vec::with_capacity(self.entries.len());
        for (i, entry) in self.entries.iter().enumerate() {
            let mut mine: Vec<usize> = Vec::new();
            if let EntryKind::Call(call) = &entry.kind {
                mine.extend(call.used().filter_map(|a| bound_by.get(&a).copied()));
                for a in call.bound().filter(|a| a.0 != 0) {
                    bound_by.insert(a, i);
                }
            }
            mine.sort_unstable();
            mine.dedup();
            deps.push(mine);
        }
        deps
    }
}

/// Whether `b` is written as itself in a log string (else as `\ddd`), as Z3's writer does.
fn plain(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"~!@#$%^&*-_+.?/ <>".contains(&b)
}

fn escaped(out: &mut String, bytes: &[u8]) {
    for &b in bytes {
        if plain(b) {
            out.push(b as char);
        } else {
            let _ = write!(out, "\\{b:03}");
        }
    }
}

fn write_symbol(out: &mut String, s: &Symbol) {
    match s {
        Symbol::Null => out.push_str("N\n"),
        Symbol::Int(n) => {
            let _ = writeln!(out, "# {n}");
        }
        Symbol::Str(text) => {
            out.push_str("$ |");
            escaped(out, text);
            out.push_str("|\n");
        }
    }
}

fn write_double(out: &mut String, d: f64) {
    // Rust prints the shortest text that reads back to the same double; Z3's reader takes
    // digits, signs, `.` and exponents, so infinities and NaN are written as Z3 writes them.
    if d.is_nan() {
        out.push_str("nan");
    } else if d.is_infinite() {
        out.push_str(if d > 0.0 { "inf" } else { "-inf" });
    } else {
        let _ = write!(out, "{d:e}");
    }
}

fn write_value(out: &mut String, v: &Value) {
    match v {
        Value::Object(a) => {
            let _ = writeln!(out, "P {}", addr_text(*a));
        }
        Value::Int(i) => {
            let _ = writeln!(out, "I {i}");
        }
        Value::Uint(u) => {
            let _ = writeln!(out, "U {u}");
        }
        Value::Double(d) => {
            out.push_str("D ");
            write_double(out, *d);
            out.push('\n');
        }
        Value::Float(f) => {
            out.push_str("F ");
            write_double(out, f64::from(*f));
            out.push('\n');
        }
        Value::Str(s) => {
            out.push_str("S \"");
            escaped(out, s);
            out.push_str("\"\n");
        }
        Value::Symbol(s) => write_symbol(out, s),
        Value::Objects(v) => {
            for a in v {
                let _ = writeln!(out, "P {}", addr_text(*a));
            }
            let _ = writeln!(out, "p {}", v.len());
        }
        Value::Ints(v) => {
            for i in v {
                let _ = writeln!(out, "I {i}");
            }
            let _ = writeln!(out, "i {}", v.len());
        }
        Value::Uints(v) => {
            for u in v {
                let _ = writeln!(out, "U {u}");
            }
            let _ = writeln!(out, "u {}", v.len());
        }
        Value::Symbols(v) => {
            for s in v {
                write_symbol(out, s);
            }
            let _ = writeln!(out, "s {}", v.len());
        }
    }
}

/// An address as Z3's writer prints it (`0` for null, else `0x...`).
pub fn addr_text(a: Addr) -> String {
    if a.0 == 0 {
        "0".into()
    } else {
        format!("{:#x}", a.0)
    }
}

/// Writes a log in Z3's format, which `z3 -log` of the same release replays and
/// [`crate::parse::parse`] reads back to the same [`Log`] (up to line numbers).
pub fn write(log: &Log) -> String {
    let mut out = String::new();
    if let Some(v) = &log.version {
        out.push_str("V \"");
        escaped(&mut out, v.as_bytes());
        out.push_str("\"\n");
    }
    for entry in &log.entries {
        match &entry.kind {
            EntryKind::Call(call) => {
                out.push_str("R\n");
                for v in &call.args {
                    write_value(&mut out, v);
                }
                let _ = writeln!(out, "C {}", call.number);
                if let Some(a) = call.result {
                    let _ = writeln!(out, "= {}", addr_text(a));
                }
                for b in &call.outs {
                    let _ = match b {
                        OutBinding::Object { addr, pos } => {
                            writeln!(out, "* {} {pos}", addr_text(*addr))
                        }
                        OutBinding::Element { addr, pos, idx } => {
                            writeln!(out, "@ {} {pos} {idx}", addr_text(*addr))
                        }
                    };
                }
            }
            EntryKind::Message(m) => {
                out.push_str("M \"");
                escaped(&mut out, m);
                out.push_str("\"\n");
            }
        }
    }
    out
}
