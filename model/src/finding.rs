//! Findings: what went wrong when a trace ran ([`Failure`], of a [`FailureKind`]), and the
//! [`Signature`] ([`Failure::signature`]) that deduplicates them by root cause.
//!
//! A signature is computed here only, and travels as data (a [`Signature`] in JSON, as in
//! `untrace --report`), never parsed back from a message. Its text, `KIND|CAUSE` (its
//! `Display`), is the key that summaries, failure reports and the findings database store,
//! and the last stderr line of a failing replay for people and ddtrace to read. The cause is
//! what identifies a bug rather than a round:
//! - a Z3 assertion violation: the `File:` and `Line:` Z3 prints ([`assertion_location`]);
//! - a signal: the signal and where in libz3 the faulting instruction is (the crash reporter
//!   of the process prints it, see `untrace::crash`), else the API call that was running;
//!   once minimized ([`Signature::refined`]), the function that place falls in, where libz3
//!   keeps its symbol table, so that two places of one function count once;
//! - a Z3 error: the call and its message with numbers and addresses blanked ([`normalize`]);
//! - an oracle check: the check and what its executor found out (the operation where Z3's
//!   evaluation first departs from the independent evaluator, or the solver kinds and answers
//!   that disagree); a minimizer refines it with the operations left in the minimized trace
//!   ([`Signature::refined`]), unless the cause names the operation at fault already (the
//!   failure's [`Failure::operation`], set where the failure is made).
//!
//! Lives in `model` because every tool computes or reads signatures: the executor (`untrace`
//! prints one per failing replay), the fuzzer (dedup, `--known`) and the minimizer.

use crate::call::Check;
use serde::{Deserialize, Serialize};

/// What kind of failure a run found. Serialized by [`FailureKind::name`] (`"z3-error"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FailureKind {
    /// The process running Z3 died of a signal (segfault, abort, ...) or Z3 ended it with its
    /// fatal-error exit (an assertion violation, exit code 114).
    Crash,
    StackOverflow,
    /// A Rust panic in the fuzzer or the executor.
    Panic,
    /// Z3 refused a call the API model says is valid.
    Z3Error,
    /// A call ran past its time limit although Z3's resource limit was set.
    Timeout,
    /// The run ran out of its memory limit.
    Memout,
    /// A model under which an assertion or assumption is not true.
    Model,
    /// An unsat core that is satisfiable when re-checked.
    Core,
    /// A shadow clone answered differently from its original.
    Shadow,
    /// Dumping the assertions and parsing them back changed the answer.
    Dump,
    /// Another option configuration answered sat where the round's answered unsat, or back.
    Config,
    /// Z3's `model_eval` and the independent evaluator give a term different values.
    EvalDisagreement,
    /// The fuzzer generated a call the reference state rejects: a bug in mbt.
    Internal,
    /// Two Z3 versions disagree on the same trace (`--diff-lib`): definite check-sat answers
    /// differ, or one version fails (error, failed check, crash) where the other replays it.
    VersionDiff,
    /// Another solver binary disagrees with Z3 on a definite check-sat answer of the trace's
    /// SMT-LIB script (`--cross-check`).
    SolverDiff,
    /// One value built through two of Z3's numeral constructors (from a string, from machine
    /// integers, from a double, from bits or from components) gives two different terms.
    Literal,
    /// A term and its simplification (`simplify`, `simplify_with`) differ in some model.
    Simplify,
    /// A consequence `get_consequences` returned does not follow from the assertions.
    Consequence,
    /// The cubes of `Z3_solver_cube` contradict the satisfiability of the assertions.
    Cube,
    /// A goal and the subgoals a tactic made of it are not equisatisfiable.
    Tactic,
    /// An Optimize context reported an objective value its model does not have, or a value
    /// that a model of its hard constraints beats.
    Optimize,
    /// A read-back function (`read`, `read_sort`, `read_eq`, `read_stats`) answered what the
    /// trace did not build: a numeral's value, a term's structure, a sort's parameters.
    ReadBack,
    /// A real closed field number that Z3 compares, prints or finds as a root against what
    /// exact rational arithmetic or an identity says (`model::rcf`).
    Rcf,
    /// A fixedpoint answer that does not hold up: an `unsat` whose invariant a rule or the
    /// query violates, a `sat` whose derivation has a step its rule does not give.
    Fixedpoint,
    /// A user propagator saw what the solver's answer contradicts: assignments it enumerated
    /// by conflicts that blocking clauses do not find (or back), fixed values or equalities
    /// a model does not have, callbacks on terms it did not register, clauses reported that
    /// do not follow from the assertions.
    Propagator,
}

impl FailureKind {
    pub const ALL: [FailureKind; 25] = [
        FailureKind::Crash,
        FailureKind::StackOverflow,
        FailureKind::Panic,
        FailureKind::Z3Error,
        FailureKind::Timeout,
        FailureKind::Memout,
        FailureKind::Model,
        FailureKind::Core,
        FailureKind::Shadow,
        FailureKind::Dump,
        FailureKind::Config,
        FailureKind::EvalDisagreement,
        FailureKind::Internal,
        FailureKind::VersionDiff,
        FailureKind::SolverDiff,
        FailureKind::Literal,
        FailureKind::Simplify,
        FailureKind::Consequence,
        FailureKind::Cube,
        FailureKind::Tactic,
        FailureKind::Optimize,
        FailureKind::ReadBack,
        FailureKind::Rcf,
        FailureKind::Fixedpoint,
        FailureKind::Propagator,
    ];

    pub fn name(self) -> &'static str {
        match self {
            FailureKind::Crash => "crash",
            FailureKind::StackOverflow => "stack-overflow",
            FailureKind::Panic => "panic",
            FailureKind::Z3Error => "z3-error",
            FailureKind::Timeout => "timeout",
            FailureKind::Memout => "memout",
            FailureKind::Model => "model",
            FailureKind::Core => "core",
            FailureKind::Shadow => "shadow",
            FailureKind::Dump => "dump",
            FailureKind::Config => "config",
            FailureKind::EvalDisagreement => "eval-disagreement",
            FailureKind::Internal => "internal",
            FailureKind::VersionDiff => "version-diff",
            FailureKind::SolverDiff => "solver-diff",
            FailureKind::Literal => "literal",
            FailureKind::Simplify => "simplify",
            FailureKind::Consequence => "consequence",
            FailureKind::Cube => "cube",
            FailureKind::Tactic => "tactic",
            FailureKind::Optimize => "optimize",
            FailureKind::ReadBack => "read-back",
            FailureKind::Rcf => "rcf",
            FailureKind::Fixedpoint => "fixedpoint",
            FailureKind::Propagator => "propagator",
        }
    }

    pub fn from_name(name: &str) -> Option<FailureKind> {
        FailureKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Whether a differential run (`--diff-lib`, `--cross-check`) finds this kind.
    pub fn is_differential(self) -> bool {
        matches!(self, FailureKind::VersionDiff | FailureKind::SolverDiff)
    }

    /// Whether an oracle check (a `check_*` trace line) finds this kind.
    pub fn is_oracle(self) -> bool {
        matches!(
            self,
            FailureKind::Model
                | FailureKind::Core
                | FailureKind::Shadow
                | FailureKind::Dump
                | FailureKind::Config
                | FailureKind::EvalDisagreement
                | FailureKind::Literal
                | FailureKind::Simplify
                | FailureKind::Consequence
                | FailureKind::Cube
                | FailureKind::Tactic
                | FailureKind::Optimize
                | FailureKind::ReadBack
                | FailureKind::Rcf
                | FailureKind::Fixedpoint
                | FailureKind::Propagator
        )
    }
}

// Which finding a failed check is belongs to the findings, not to the trace vocabulary: the
// method is on `Check` (callers write `check.kind()`), but it is defined here so that
// `call.rs` never imports this module.
impl Check {
    /// The kind of finding a failed check is.
    pub fn kind(&self) -> FailureKind {
        use FailureKind as K;
        match self {
            Check::Model { .. }
            | Check::Independent { .. }
            | Check::Quant { .. }
            | Check::Relation { .. }
            | Check::Congruence { .. } => K::Model,
            // Z3's values of finite-set terms, or its answer on atoms a witness satisfies,
            // against the values `crate::fset` computes.
            Check::Eval { .. }
            | Check::FiniteSet { .. }
            | Check::FiniteField { .. }
            | Check::Complex(_)
            | Check::PolyDatatype(..) => K::EvalDisagreement,
            Check::Shadow { .. } => K::Shadow,
            Check::Config { .. } | Check::Simplifier { .. } | Check::InitialValue { .. } => {
                K::Config
            }
            Check::Dump(_) | Check::ParserContext(_) | Check::ProofCallback(_) => K::Dump,
            Check::Core(_) => K::Core,
            Check::Literal(_) | Check::Chars(_) => K::Literal,
            // A projection false in its model, as `qe_project`'s.
            Check::QeMap { .. } => K::ReadBack,
            Check::FiniteDomain { .. } => K::Fixedpoint,
            Check::Simplify(_) => K::Simplify,
            Check::Consequences { .. } => K::Consequence,
            Check::Cubes(_) => K::Cube,
            Check::Goal(_) => K::Tactic,
            Check::OptValues { .. } | Check::OptBetter { .. } => K::Optimize,
            Check::Rcf(..)
            | Check::RcfRoots(_)
            | Check::Algebraic(..)
            | Check::AlgebraicPoly(_)
            | Check::Subresultants { .. }
            | Check::RcfSignConditions(_) => K::Rcf,
            Check::Fixedpoint => K::Fixedpoint,
            Check::Propagator { .. } => K::Propagator,
            // The same formula answered two ways around an interrupt, as a shadow clone would.
            Check::Interrupt(_) => K::Shadow,
        }
    }
}

/// One finding.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failure {
    pub kind: FailureKind,
    /// What happened, in one line.
    pub message: String,
    /// The name of the last call line of the trace (the call that failed or was running).
    pub last_call: Option<String>,
    /// What identifies the root cause (see the module documentation); `None`: the message
    /// and the last call stand for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cause: Option<String>,
    /// The operation the cause names as the root cause (where Z3's evaluation departs from
    /// the independent evaluator), if it names one: such a signature is precise as it is,
    /// and a minimizer does not refine it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operation: Option<String>,
    /// A crash's cause by the function of libz3 its place falls in (`SIGSEGV in
    /// euf::completion::get_canonical`), where the library names it: what a minimized
    /// finding's signature says ([`Signature::refined`]), so that crashes at two places of
    /// one function count once. A boxed `str`: a failure travels inside the executor's
    /// errors, which stay small.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub function_cause: Option<Box<str>>,
}

impl Failure {
    pub fn new(kind: FailureKind, message: impl Into<String>) -> Failure {
        Failure {
            kind,
            message: message.into(),
            last_call: None,
            cause: None,
            operation: None,
            function_cause: None,
        }
    }

    /// The cause names `operation` as the root cause (see [`Failure::operation`]).
    pub fn naming_operation(mut self, operation: impl Into<String>) -> Failure {
        self.operation = Some(operation.into());
        self
    }

    pub fn with_cause(mut self, cause: impl Into<String>) -> Failure {
        self.cause = Some(cause.into());
        self
    }

    /// The cause by function (see [`Failure::function_cause`]), if there is one.
    fn with_function_cause(mut self, cause: Option<String>) -> Failure {
        self.function_cause = cause.map(String::into_boxed_str);
        self
    }

    pub fn at_call(mut self, call: impl Into<String>) -> Failure {
        self.last_call = Some(call.into());
        self
    }

    /// Z3 refused `line` (a call named `call`) that the API model says is valid: the cause is
    /// the call and the message without numbers. Of a parser's list of errors only the first
    /// makes the cause: the others follow from it (a sort the parser does not know makes
    /// every term of it an error too), and their number varies with the input. A symbol the
    /// parser does not know (`unknown constant mk (U)`) is named by the round, not by the
    /// bug: the cause ends before it.
    pub fn z3_error(call: &str, line: &str, message: &str) -> Failure {
        let mut first = match message.find("\") (error ") {
            Some(end) => &message[..end + 2],
            None => message,
        };
        for unknown in ["unknown constant", "unknown function"] {
            if let Some(at) = first.find(unknown) {
                first = &first[..at + unknown.len()];
            }
        }
        // An exception Z3 raises while it processes the assertions is one bug whichever of
        // the calls that do so met it first (`fp.to_sbv` to one bit raised the same error at
        // `push`, `check_sat`, `check_sat_assuming` and `opt_check`).
        let site = if SOLVING_CALLS.contains(&call) && message.starts_with("Exception") {
            "solving"
        } else {
            call
        };
        Failure::new(FailureKind::Z3Error, format!("`{line}`: {message}"))
            .at_call(call)
            .with_cause(format!("{site}: {}", normalize(first)))
    }

    /// The deduplication key, `KIND|CAUSE`: the cause without ids and numbers where one is
    /// known, else the normalized message and the last call.
    pub fn signature(&self) -> Signature {
        let cause = match &self.cause {
            Some(cause) => cause.clone(),
            None => format!(
                "{}|{}",
                normalize(&self.message),
                self.last_call.as_deref().unwrap_or("-")
            ),
        };
        Signature {
            kind: self.kind,
            cause,
            operation: self.operation.clone(),
            calls_left: None,
            function_cause: self.function_cause.as_deref().map(str::to_string),
        }
    }

    /// A short, stable file-name form of the signature.
    pub fn signature_hash(&self) -> String {
        signature_id(&self.signature().to_string())
    }
}

/// A finding's signature ([`Failure::signature`]): its kind and cause, as data. Its text
/// (`Display`) is `KIND|CAUSE`, and ` [CALLS]` after it once refined ([`Signature::refined`]);
/// that text is the key every report and database stores.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Signature {
    pub kind: FailureKind,
    /// What identifies the root cause (see the module documentation).
    pub cause: String,
    /// The operation the cause names as the root cause, if any ([`Failure::operation`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operation: Option<String>,
    /// After [`Signature::refined`]: the operations and solver calls left in the minimized
    /// trace, sorted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calls_left: Option<Vec<String>>,
    /// A crash's cause by function ([`Failure::function_cause`]), which
    /// [`Signature::refined`] takes; not part of the text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub function_cause: Option<String>,
}

impl Signature {
    /// The signature of a finding after minimization to `entries`: for a crash whose place
    /// libz3 names, the function instead of the place (one bug faults at several
    /// instructions of a function, as the data it meets differs; the round's signature keeps
    /// the place, which `--known` files and findings databases hold); for the oracles that
    /// compare answers, whose cause names no operation, the operations and solver calls left
    /// in the minimized trace, sorted (findings of one root cause reduce to the same few
    /// operations); any other signature is precise already and stays as it is.
    pub fn refined(&self, entries: &[crate::Entry]) -> Signature {
        use crate::Call;
        if let Some(cause) = &self.function_cause {
            return Signature {
                cause: cause.clone(),
                function_cause: None,
                ..self.clone()
            };
        }
        if !self.kind.is_oracle() || self.operation.is_some() || self.calls_left.is_some() {
            return self.clone();
        }
        let left: std::collections::BTreeSet<&str> = entries
            .iter()
            .map(|e| &e.call)
            .filter(|c| {
                !matches!(
                    c,
                    Call::Const { .. }
                        | Call::Lit { .. }
                        | Call::Release(_)
                        | Call::Delete(_)
                        | Call::Check(_)
                ) && !c.name().starts_with("sort_")
            })
            .map(Call::name)
            .collect();
        Signature {
            calls_left: Some(left.into_iter().map(str::to_string).collect()),
            ..self.clone()
        }
    }

    /// A short, stable file-name form of the signature ([`signature_id`]).
    pub fn id(&self) -> String {
        signature_id(&self.to_string())
    }
}

impl std::fmt::Display for Signature {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}|{}", self.kind.name(), self.cause)?;
        if let Some(calls) = &self.calls_left {
            write!(f, " [{}]", calls.join(" "))?;
        }
        Ok(())
    }
}

/// A short, stable file-name form of a signature: its kind and a hash.
pub fn signature_id(signature: &str) -> String {
    // FNV-1a: stable across runs and platforms, unlike std's hasher.
    let mut h: u64 = 0xcbf29ce484222325;
    for b in signature.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x100000001b3);
    }
    let kind = signature.split('|').next().unwrap_or("finding");
    format!("{kind}-{h:016x}")
}

/// The prefix of the line on which a tool prints a finding's signature for people (and
/// ddtrace, which matches stderr lines) to read: `untrace: signature: KIND|CAUSE`. Tools
/// hand signatures to each other as data ([`Signature`] in JSON), never by this line.
pub const SIGNATURE_LINE: &str = "signature: ";

/// Replaces every run of digits by `N` and hex addresses by `0xN`, so that messages that
/// differ only in ids, numbers or addresses fall together.
pub fn normalize(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut chars = message.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '0' && chars.peek() == Some(&'x') {
            chars.next();
            while chars.peek().is_some_and(|c| c.is_ascii_hexdigit()) {
                chars.next();
            }
            out.push_str("0xN");
        } else if c.is_ascii_digit() {
            while chars.peek().is_some_and(|c| c.is_ascii_digit()) {
                chars.next();
            }
            out.push('N');
        } else {
            out.push(c);
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Where Z3 reports a violated assertion in `output` (`ASSERTION VIOLATION`, then `File: F`
/// and `Line: N` lines): `F:N` with the build's own directory dropped (everything before
/// `src/`, such as `./` or a wheel's temporary build folder), so that one bug has one
/// location whoever built Z3. Z3 prints the same lines for `UNREACHABLE`, `NOT IMPLEMENTED
/// YET` and failed `VERIFY`s.
pub fn assertion_location(output: &str) -> Option<String> {
    let mut file = None;
    for line in output.lines() {
        let line = line.trim();
        if let Some(f) = line.strip_prefix("File: ") {
            let f = f.trim();
            let from_src = f.find("src/").map_or(f, |at| &f[at..]);
            file = Some(from_src.trim_start_matches("./").to_string());
        } else if let (Some(f), Some(n)) = (&file, line.strip_prefix("Line: ")) {
            if let Ok(n) = n.trim().parse::<u32>() {
                return Some(format!("{f}:{n}"));
            }
        }
    }
    None
}

/// The exit code Z3 ends the process with on a fatal internal error (`ERR_INTERNAL_FATAL`,
/// after printing an assertion violation).
pub const Z3_FATAL_EXIT: i32 = 114;

/// The calls at which Z3 processes a solver's assertions (preprocessing, internalization,
/// search), where an exception is signed by `solving` instead of the call.
pub const SOLVING_CALLS: &[&str] = &[
    "check_sat",
    "check_sat_assuming",
    "opt_check",
    "push",
    "pop",
];

/// The prefix of the line the crash reporter writes when a process running Z3 receives a
/// fatal signal: `crash: SIGSEGV in CALL at libz3.so.4+0x1a65b1`.
pub const CRASH_LINE: &str = "crash: ";

/// The place in libz3 the crash reporter's last line in `output` names (`SIGSEGV in push at
/// libz3.so.4+0x1a65b1`: `libz3.so.4+0x1a65b1`), if it names one.
fn crash_place(output: &str) -> Option<String> {
    let reported = output
        .lines()
        .rev()
        .find_map(|l| l.split_once(CRASH_LINE).map(|(_, rest)| rest.trim()))?;
    let (_, at) = reported.split_once(" at ")?;
    Some(at.trim().to_string())
}

/// The function of libz3 a crash's place falls in, and the offset of the place in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlaceName {
    /// Demangled, without parameters: `euf::completion::get_canonical`.
    pub function: String,
    pub offset: u64,
    /// The function's size in bytes (both parts, where the compiler moved its cold paths
    /// out).
    pub size: u64,
}

/// Functions of at most this many bytes are a few instructions reached from everywhere
/// (`expr::get_sort` is 51 bytes in Z3 5.4.1, `ast_manager::is_value` 67): a fault in one is
/// its caller's bug, which the function's name does not tell, so a crash there keeps its
/// place as its signature, minimized or not. Two places of a larger function are one bug.
pub const FEW_INSTRUCTIONS: u64 = 128;

/// Classifies a process that ran Z3 calls and ended abnormally: killed by `signal`, or exited
/// with `code`; `output` is what it printed (stderr), `last_call` the call that was running.
/// `name_place` names the function of libz3 a crash's place falls in, where it can
/// (`untrace::crash::function_at`): the message shows it after the place, for the Z3
/// developer who reads it; the signature keeps the place, and the cause by function goes
/// with it for a minimized finding ([`Signature::refined`]).
pub fn classify_death(
    signal: Option<i32>,
    code: Option<i32>,
    output: &str,
    last_call: Option<&str>,
    name_place: &dyn Fn(&str) -> Option<PlaceName>,
) -> Failure {
    let call = last_call.unwrap_or("-");
    let with_call = |f: Failure| match last_call {
        Some(c) => f.at_call(c),
        None => f,
    };
    let place = crash_place(output);
    let named = place.as_deref().and_then(name_place);
    // The place as the message shows it.
    let shown = place.as_ref().map(|at| match &named {
        Some(n) => format!("{at} ({}+{:#x})", n.function, n.offset),
        None => at.clone(),
    });
    let function = named
        .filter(|n| n.size > FEW_INSTRUCTIONS)
        .map(|n| n.function);
    if output.contains("has overflowed its stack") {
        // By where in libz3 the stack ran out, as for a crash: the same runaway recursion
        // meets the guard page from whichever call, and is one bug.
        let (message, cause) = match (&place, &shown) {
            (Some(at), Some(shown)) => (
                format!("stack overflow in `{call}` at {shown}"),
                format!("at {at}"),
            ),
            _ => ("stack overflow".to_string(), format!("in {call}")),
        };
        return with_call(
            Failure::new(FailureKind::StackOverflow, message)
                .with_cause(cause)
                .with_function_cause(function.map(|f| format!("in {f}"))),
        );
    }
    if output.contains("memory allocation of")
        || output.contains("std::bad_alloc")
        || output.contains("out of memory")
    {
        return with_call(
            Failure::new(FailureKind::Memout, "ran out of its memory limit")
                .with_cause(format!("in {call}")),
        );
    }
    if let Some(location) = assertion_location(output) {
        return with_call(
            Failure::new(
                FailureKind::Crash,
                format!("Z3 assertion violation at {location} in `{call}`"),
            )
            .with_cause(format!("assertion violation at {location}")),
        );
    }
    match (signal, code) {
        (Some(sig), _) => {
            let name = signal_name(sig);
            let cause = match &place {
                Some(at) => format!("{name} at {at}"),
                None => format!("{name} in {call}"),
            };
            let message = match &shown {
                Some(shown) => format!("killed by {name} in `{call}` at {shown}"),
                None => format!("killed by {name} in `{call}`"),
            };
            let function_cause = function.map(|f| format!("{name} in {f}"));
            with_call(
                Failure::new(FailureKind::Crash, message)
                    .with_cause(cause)
                    .with_function_cause(function_cause),
            )
        }
        (None, code) => {
            let code = code.unwrap_or(-1);
            let tail = output
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("")
                .trim();
            with_call(
                Failure::new(
                    FailureKind::Crash,
                    format!("exited with code {code} in `{call}`: {tail}"),
                )
                .with_cause(format!("exit {code} in {call}: {}", normalize(tail))),
            )
        }
    }
}

/// Whether a run stopped at its time limit while running the last of `entries` overran
/// Z3's resource limit: that call is a `check_sat` or `check_sat_assuming` of a solver on
/// which an earlier `set_param "rlimit"` set a nonzero limit that Z3 did not refuse. Only
/// then is a timeout a finding: Z3's `rlimit` bounds checks, and other calls that run long
/// ignore it by design.
pub fn overran_resource_limit(entries: &[crate::Entry]) -> bool {
    use crate::Call;
    let Some((last, before)) = entries.split_last() else {
        return false;
    };
    let (Call::CheckSat(z) | Call::CheckSatAssuming(z, _)) = &last.call else {
        return false;
    };
    before.iter().any(|e| {
        matches!(&e.call, Call::SetParam { solver, key, value }
            if solver == z && key == "rlimit" && value != "0")
            && !matches!(e.ret, Some(crate::Ret::Error(_)))
    })
}

/// The name of a fatal signal.
pub fn signal_name(sig: i32) -> String {
    match sig {
        11 => "SIGSEGV".into(),
        6 => "SIGABRT".into(),
        7 => "SIGBUS".into(),
        8 => "SIGFPE".into(),
        4 => "SIGILL".into(),
        9 => "SIGKILL".into(),
        24 => "SIGXCPU".into(),
        n => format!("signal {n}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_drops_ids_numbers_and_addresses() {
        assert_eq!(
            normalize("assertion t12 evaluates to #x0f at 0x7ffd12ab"),
            "assertion tN evaluates to #xNf at 0xN"
        );
        assert_eq!(normalize("  a   b "), "a b");
    }

    #[test]
    fn a_cause_makes_the_signature_and_ignores_the_message() {
        let a = Failure::new(FailureKind::Crash, "killed in push").with_cause("SIGSEGV at z+0x1");
        let b =
            Failure::new(FailureKind::Crash, "killed in check_sat").with_cause("SIGSEGV at z+0x1");
        assert_eq!(a.signature().to_string(), "crash|SIGSEGV at z+0x1");
        assert_eq!(a.signature().to_string(), b.signature().to_string());
        assert_eq!(a.signature_hash(), b.signature_hash());
        let c = Failure {
            kind: FailureKind::Shadow,
            ..a.clone()
        };
        assert_ne!(a.signature_hash(), c.signature_hash());
        assert!(c.signature_hash().starts_with("shadow-"));
    }

    #[test]
    fn without_a_cause_message_and_last_call_make_the_signature() {
        let a = Failure::new(FailureKind::Z3Error, "error at t3").at_call("assert");
        let b = Failure::new(FailureKind::Z3Error, "error at t97").at_call("assert");
        assert_eq!(a.signature().to_string(), b.signature().to_string());
        assert_ne!(
            a.signature().to_string(),
            b.clone().at_call("check_sat").signature().to_string()
        );
    }

    #[test]
    fn an_exception_while_solving_is_one_bug_whichever_call_met_it() {
        let at = |call: &str| {
            let message = "Exception: bit-vector size must be greater than zero";
            Failure::z3_error(call, &format!("{call} z1"), message)
                .signature()
                .to_string()
        };
        assert_eq!(
            at("push"),
            "z3-error|solving: Exception: bit-vector size must be greater than zero"
        );
        assert_eq!(at("check_sat"), at("opt_check"));
        assert_ne!(at("assert"), at("push"), "not a solving call");
    }

    #[test]
    fn a_parser_error_is_known_by_its_first_error() {
        let one = Failure::z3_error(
            "check_dump",
            "check_dump z1",
            "ParserError: (error \"line 3 column 51: unknown sort 'U'\") (error \"line 7 column 7: unknown constant C5\")",
        );
        let other = Failure::z3_error(
            "check_dump",
            "check_dump z2",
            "ParserError: (error \"line 4 column 9: unknown sort 'U'\")",
        );
        assert_eq!(one.signature().to_string(), other.signature().to_string());
        assert_eq!(
            one.signature().to_string(),
            "z3-error|check_dump: ParserError: (error \"line N column N: unknown sort 'U'\")"
        );
        let constant = |text: &str| {
            Failure::z3_error(
                "check_dump",
                "check_dump z1",
                &format!("ParserError: {text}"),
            )
            .signature()
            .to_string()
        };
        assert_eq!(
            constant("(error \"line 7 column 17: unknown constant mk (U) \")"),
            constant("(error \"line 9 column 1: unknown constant C20\")")
        );
        assert_eq!(
            constant("(error \"line 7 column 17: unknown constant mk (U) \")"),
            "z3-error|check_dump: ParserError: (error \"line N column N: unknown constant"
        );
    }

    fn entries(text: &str) -> Vec<crate::Entry> {
        crate::trace::text::parse(&format!("z3-trace 1\n{text}"))
            .unwrap()
            .entries
    }

    #[test]
    fn a_signature_travels_as_json_and_reads_as_its_text() {
        let failure = Failure::new(FailureKind::EvalDisagreement, "x")
            .with_cause("model_eval of bvadd departs from the independent evaluator")
            .naming_operation("bvadd")
            .at_call("check_model");
        let signature = failure.signature();
        let json = serde_json::to_string(&signature).unwrap();
        assert_eq!(
            json,
            r#"{"kind":"eval-disagreement","cause":"model_eval of bvadd departs from the independent evaluator","operation":"bvadd"}"#
        );
        assert_eq!(serde_json::from_str::<Signature>(&json).unwrap(), signature);
        assert_eq!(
            signature.to_string(),
            "eval-disagreement|model_eval of bvadd departs from the independent evaluator"
        );
        // The failure carries what its signature needs through JSON too.
        let back: Failure =
            serde_json::from_str(&serde_json::to_string(&failure).unwrap()).unwrap();
        assert_eq!(back.signature(), signature);
        // Without a cause: the normalized message and the last call, a `|` inside the cause.
        let bare = Failure::new(FailureKind::Z3Error, "error at t3").at_call("assert");
        let json = serde_json::to_string(&bare.signature()).unwrap();
        let read: Signature = serde_json::from_str(&json).unwrap();
        assert_eq!(read.kind, FailureKind::Z3Error);
        assert_eq!(read.to_string(), "z3-error|error at tN|assert");
        assert_eq!(read.id(), bare.signature_hash());
    }

    #[test]
    fn answer_oracles_are_refined_by_the_calls_left() {
        let entries = entries(
            "new_solver tactic \"qffp\"\nreturn z1\nsort_bv 1\nreturn s1\nconst s1 \"v\"\nreturn t1\nbvslt t1 t1\nreturn t2\nassert z1 t2\ntranslate z1\nreturn z2\ncheck_shadow z1 z2\n",
        );
        let shadow =
            Failure::new(FailureKind::Shadow, "m").with_cause("check_shadow: a unsat, b sat");
        let refined = shadow.signature().refined(&entries);
        assert_eq!(
            refined.to_string(),
            "shadow|check_shadow: a unsat, b sat [assert bvslt new_solver translate]"
        );
        assert_eq!(
            refined.calls_left.as_deref(),
            Some(&["assert", "bvslt", "new_solver", "translate"].map(String::from)[..])
        );
        // The refinement is data: it survives JSON, and refining again changes nothing.
        let json = serde_json::to_string(&refined).unwrap();
        assert_eq!(serde_json::from_str::<Signature>(&json).unwrap(), refined);
        assert_eq!(refined.refined(&entries[..2]), refined);
        // A crash, or an oracle finding whose cause names its operation (a fact of the
        // failure, whatever its text says), is precise already.
        let crash = Failure::new(FailureKind::Crash, "k").with_cause("SIGSEGV at libz3.so.4+0x1");
        let named = Failure::new(FailureKind::Model, "m")
            .with_cause("check_model: some text")
            .naming_operation("bvadd");
        for failure in [crash, named] {
            assert_eq!(failure.signature().refined(&entries), failure.signature());
        }
        // The text alone decides nothing: an oracle cause that merely mentions an operation
        // is refined.
        let worded = Failure::new(FailureKind::Model, "m")
            .with_cause("check_model: model_eval of bvadd departs from the independent evaluator");
        assert!(worded.signature().refined(&entries).calls_left.is_some());
    }

    #[test]
    fn assertion_violations_are_located_by_file_and_line() {
        let out = "ASSERTION VIOLATION\nFile: ./src/ast/fpa/fpa2bv_converter.cpp\nLine: 118\nUNEXPECTED CODE WAS REACHED.\n4.8.12.0\nPlease file an issue\n";
        assert_eq!(
            assertion_location(out).as_deref(),
            Some("src/ast/fpa/fpa2bv_converter.cpp:118")
        );
        let f = classify_death(None, Some(Z3_FATAL_EXIT), out, Some("check_sat"), &unnamed);
        assert_eq!(f.kind, FailureKind::Crash);
        assert_eq!(
            f.signature().to_string(),
            "crash|assertion violation at src/ast/fpa/fpa2bv_converter.cpp:118"
        );
        assert_eq!(assertion_location("File: x\nno line\n"), None);
        let wheel =
            "File: /tmp/build-via-sdist-x1/z3_solver-5.4.1.0/core/src/ast/sls/e.h\nLine: 490\n";
        assert_eq!(
            assertion_location(wheel).as_deref(),
            Some("src/ast/sls/e.h:490")
        );
    }

    /// A caller that cannot name a place's function (a stripped libz3).
    fn unnamed(_: &str) -> Option<PlaceName> {
        None
    }

    #[test]
    fn a_crash_message_names_the_function_of_its_place_and_the_signature_does_not() {
        let name = |place: &str| {
            (place == "libz3.so.4+0x10").then(|| PlaceName {
                function: "f".into(),
                offset: 4,
                size: 16,
            })
        };
        let signal = classify_death(
            Some(11),
            None,
            "crash: SIGSEGV in push at libz3.so.4+0x10\n",
            Some("push"),
            &name,
        );
        assert_eq!(
            signal.message,
            "killed by SIGSEGV in `push` at libz3.so.4+0x10 (f+0x4)"
        );
        assert_eq!(
            signal.signature().to_string(),
            "crash|SIGSEGV at libz3.so.4+0x10"
        );
        let overflow = classify_death(
            Some(6),
            None,
            "crash: SIGSEGV in push at libz3.so.4+0x10\nthread 'main' has overflowed its stack\n",
            Some("push"),
            &name,
        );
        assert_eq!(
            overflow.message,
            "stack overflow in `push` at libz3.so.4+0x10 (f+0x4)"
        );
        assert_eq!(
            overflow.signature().to_string(),
            "stack-overflow|at libz3.so.4+0x10"
        );
        // An assertion violation is located by Z3's own message, not by the place.
        let assertion = classify_death(
            None,
            Some(Z3_FATAL_EXIT),
            "crash: SIGSEGV in push at libz3.so.4+0x10\nFile: src/a.cpp\nLine: 3\n",
            Some("push"),
            &name,
        );
        assert!(
            !assertion.message.contains("f+0x4"),
            "{}",
            assertion.message
        );
    }

    /// Two places of one function are one bug once minimized: the refined signature names
    /// the function; where libz3 names none, or the function is a few instructions reached
    /// from everywhere, the place stays.
    #[test]
    fn a_minimized_crash_is_signed_by_its_function() {
        let name = |place: &str| {
            let offset = u64::from_str_radix(place.rsplit_once("+0x")?.1, 16).ok()?;
            match offset {
                0x10..0x1000 => Some(PlaceName {
                    function: "euf::completion::get_canonical".into(),
                    offset: offset - 0x10,
                    size: 1552,
                }),
                0x3000..0x3033 => Some(PlaceName {
                    function: "expr::get_sort".into(),
                    offset: offset - 0x3000,
                    size: 51,
                }),
                _ => None,
            }
        };
        let died = |place: &str, overflow: bool, name: &dyn Fn(&str) -> Option<PlaceName>| {
            let tail = if overflow {
                "thread 'main' has overflowed its stack\n"
            } else {
                ""
            };
            let output = format!("crash: SIGSEGV in push at libz3.so.4+{place}\n{tail}");
            classify_death(Some(11), None, &output, Some("push"), name).signature()
        };
        let (a, b) = (died("0x26f", false, &name), died("0x254", false, &name));
        assert_ne!(
            a.to_string(),
            b.to_string(),
            "the round's signature keeps the place"
        );
        assert_eq!(
            a.refined(&[]).to_string(),
            "crash|SIGSEGV in euf::completion::get_canonical"
        );
        assert_eq!(a.refined(&[]), b.refined(&[]));
        assert_eq!(a.refined(&[]).refined(&[]), a.refined(&[]));
        assert_eq!(
            died("0x26f", true, &name).refined(&[]).to_string(),
            "stack-overflow|in euf::completion::get_canonical"
        );
        let far = died("0x2000", false, &name);
        assert_eq!(far.refined(&[]), far, "an unnamed place stays");
        let (c, d) = (died("0x3000", false, &name), died("0x3019", false, &name));
        assert_eq!(c.refined(&[]), c, "a place in an accessor stays");
        assert_ne!(c.refined(&[]), d.refined(&[]));
        assert_eq!(
            died("0x26f", false, &unnamed).refined(&[]).to_string(),
            "crash|SIGSEGV at libz3.so.4+0x26f"
        );
        // It travels with the signature as data.
        let json = serde_json::to_string(&a).unwrap();
        assert_eq!(serde_json::from_str::<Signature>(&json).unwrap(), a);
    }

    #[test]
    fn signals_are_located_in_libz3_when_the_reporter_says_where() {
        let out = "untrace: crash: SIGSEGV in push at libz3.so.4+0x1a65b1\n";
        let a = classify_death(Some(11), None, out, Some("push"), &unnamed);
        let b = classify_death(
            Some(11),
            None,
            "crash: SIGSEGV in check_sat at libz3.so.4+0x1a65b1\n",
            Some("check_sat"),
            &unnamed,
        );
        assert_eq!(
            a.signature().to_string(),
            "crash|SIGSEGV at libz3.so.4+0x1a65b1"
        );
        assert_eq!(a.signature().to_string(), b.signature().to_string());
        let bare = classify_death(Some(11), None, "", Some("assert"), &unnamed);
        assert_eq!(bare.signature().to_string(), "crash|SIGSEGV in assert");
        assert_eq!(
            classify_death(
                Some(6),
                None,
                "thread 'main' has overflowed its stack\n",
                None,
                &unnamed,
            )
            .kind,
            FailureKind::StackOverflow
        );
        // A runaway recursion in libz3 is one bug whichever call met it.
        let overflow = |call| {
            let output = format!(
                "crash: SIGSEGV in {call} at libz3.so.4+0x34de7d\n\
                 thread 'main' (7) has overflowed its stack\nfatal runtime error: stack overflow\n"
            );
            classify_death(Some(6), None, &output, Some(call), &unnamed)
                .signature()
                .to_string()
        };
        assert_eq!(
            overflow("check_sat"),
            "stack-overflow|at libz3.so.4+0x34de7d"
        );
        assert_eq!(overflow("goal_apply"), overflow("check_sat"));
        assert_eq!(
            classify_death(
                Some(6),
                None,
                "memory allocation of 64 bytes failed\n",
                None,
                &unnamed,
            )
            .kind,
            FailureKind::Memout
        );
    }

    #[test]
    fn only_checks_under_a_resource_limit_overrun_it() {
        let entries = |text: &str| {
            crate::trace::text::parse(&format!("z3-trace 1\nnew_solver\nreturn z1\n{text}"))
                .unwrap()
                .entries
        };
        assert!(overran_resource_limit(&entries(
            "set_param z1 \"rlimit\" \"100\"\ncheck_sat z1\n"
        )));
        for text in [
            "check_sat z1\n",
            "set_param z1 \"rlimit\" \"0\"\ncheck_sat z1\n",
            "set_param z1 \"rlimit\" \"100\"\nreturn error \"Exception: no\"\ncheck_sat z1\n",
            "set_param z1 \"rlimit\" \"100\"\npush z1\n",
        ] {
            assert!(!overran_resource_limit(&entries(text)), "{text}");
        }
    }

    #[test]
    fn kinds_round_trip_by_name() {
        for kind in FailureKind::ALL {
            assert_eq!(FailureKind::from_name(kind.name()), Some(kind));
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(json, format!("\"{}\"", kind.name()));
        }
        assert!(FailureKind::Shadow.is_oracle() && !FailureKind::Crash.is_oracle());
    }
}
