//! Reading a trace file and replaying it: the work of the `untrace` binary as a library.
//!
//! [`replay_file`] reads a text or binary trace, runs every entry through the [`Executor`]
//! and answers an [`Outcome`] with the documented exit code, a one-line message that names
//! `FILE:LINE`, and the [`Failure`] a finding is (its signature is what tools compare).
//! [`Exit`] lists the exit codes; [`crate::supervise`] runs a replay in a child process so
//! that crashes, timeouts and memory exhaustion get exit codes and signatures too.

use crate::executor::{ExecConfig, ExecError, Executor};
use model::finding::{Failure, FailureKind, Signature};
use model::trace::{self, Trace};
use model::{Call, Check, Ret, SatResult};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The exit codes of `untrace` (documented in `--help` and untrace/README.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Replayed, every recorded result matched and every check held.
    Ok = 0,
    /// A replayed result differs from the recorded one.
    Mismatch = 1,
    /// Usage error, unreadable or unwritable file.
    Usage = 2,
    /// Malformed or unsupported trace.
    Malformed = 3,
    /// Z3 refused a call the API model says is valid.
    Z3 = 4,
    /// An oracle check (`check_*` line) failed.
    Oracle = 5,
    /// Z3 crashed: a fatal signal, Z3's own fatal exit (assertion violation), a stack
    /// overflow or a panic.
    Crash = 6,
    /// The replay ran past `--timeout`.
    Timeout = 7,
    /// The replay ran out of `--memout` (or Z3 reported running out of memory).
    Memout = 8,
    /// A differential replay (`--diff-lib`, `--cross-check`, or `--answers-only` on another
    /// Z3): the other Z3 or solver disagrees.
    Differ = 9,
}

impl Exit {
    /// The exit code of a finding of `kind`.
    pub fn of(kind: FailureKind) -> Exit {
        match kind {
            FailureKind::Z3Error => Exit::Z3,
            FailureKind::Timeout => Exit::Timeout,
            FailureKind::Memout => Exit::Memout,
            kind if kind.is_oracle() => Exit::Oracle,
            kind if kind.is_differential() => Exit::Differ,
            _ => Exit::Crash,
        }
    }

    pub fn from_code(code: i32) -> Option<Exit> {
        [
            Exit::Ok,
            Exit::Mismatch,
            Exit::Usage,
            Exit::Malformed,
            Exit::Z3,
            Exit::Oracle,
            Exit::Crash,
            Exit::Timeout,
            Exit::Memout,
            Exit::Differ,
        ]
        .into_iter()
        .find(|e| *e as i32 == code)
    }
}

/// How a replay ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub exit: Exit,
    /// One line, `FILE:LINE[:COL]: ...`; empty on success.
    pub message: String,
    /// Entries executed.
    pub executed: usize,
    /// The finding, for the exits that are findings (Z3 error, oracle, crash, timeout,
    /// memout).
    pub failure: Option<Failure>,
}

impl Outcome {
    fn plain(exit: Exit, message: String, executed: usize) -> Outcome {
        Outcome {
            exit,
            message,
            executed,
            failure: None,
        }
    }
}

/// The outcome of a replay as data (`untrace --report FILE`, docs in untrace/README.md):
/// how a tool that starts a replay learns its exit code and finding, never by reading its
/// stderr. Written for every exit code untrace itself chooses, a usage error included.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayReport {
    /// The exit code (see [`Exit`]).
    pub exit: i32,
    /// The finding, for the exit codes that are findings (4-9).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<Failure>,
    /// The finding's signature ([`Failure::signature`]), for readers that do not compute it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<Signature>,
}

impl ReplayReport {
    pub fn new(exit: Exit, failure: Option<Failure>) -> ReplayReport {
        ReplayReport {
            exit: exit as i32,
            signature: failure.as_ref().map(Failure::signature),
            failure,
        }
    }

    /// Writes the report to `path` (a temporary file beside it, then renamed, so that a
    /// reader never sees half a report).
    pub fn write(&self, path: &Path) -> Result<(), String> {
        let json = serde_json::to_vec_pretty(self).map_err(|e| e.to_string())?;
        let dir = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let cannot = |e: std::io::Error| format!("{}: cannot write: {e}", path.display());
        let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(cannot)?;
        std::io::Write::write_all(&mut tmp, &json).map_err(cannot)?;
        tmp.persist(path).map_err(|e| cannot(e.error))?;
        Ok(())
    }

    /// Reads the report at `path`; `None` when there is none or it is not a report (a replay
    /// that died before it wrote one).
    pub fn read(path: &Path) -> Option<ReplayReport> {
        let bytes = std::fs::read(path).ok()?;
        serde_json::from_slice(&bytes).ok()
    }

    /// The exit code as [`Exit`], if it is one.
    pub fn exit_code(&self) -> Option<Exit> {
        Exit::from_code(self.exit)
    }
}

/// Options of a replay.
#[derive(Clone, Debug, Default)]
pub struct ReplayOptions {
    pub config: ExecConfig,
    /// Execute only the calls on lines `<= stop_after`.
    pub stop_after: Option<u32>,
    /// The Z3 version the recorded answers come from, for the signature of an answer that
    /// differs under `answers_only` (default: the trace's `; z3` line).
    pub recorded_on: Option<String>,
}

/// Reads a trace file (either format); errors are `(exit, message)`.
pub fn read_trace(path: &Path) -> Result<Trace, (Exit, String)> {
    let name = path.display();
    let bytes =
        std::fs::read(path).map_err(|e| (Exit::Usage, format!("{name}: cannot read: {e}")))?;
    trace::parse(&bytes).map_err(|e| (Exit::Malformed, format!("{name}:{e}")))
}

/// `warning: NAME was recorded on Z3 X, this is Z3 Y` when `trace` names the Z3 it was
/// recorded on and that is not the loaded one (results may legitimately differ then).
pub fn version_warning(name: &str, trace: &Trace) -> Option<String> {
    let recorded = trace.z3_version.as_deref()?;
    let this = crate::z3_version();
    (recorded != this)
        .then(|| format!("warning: {name} was recorded on Z3 {recorded}, this is Z3 {this}"))
}

/// Whether any entry is a check that evaluates terms independently, or names where Z3's
/// evaluation departs from the independent one (and so needs their SMT-LIB text).
fn needs_term_texts(trace: &Trace) -> bool {
    trace.entries.iter().any(|e| {
        matches!(
            e.call,
            Call::Check(
                Check::Model { .. }
                    | Check::Independent { .. }
                    | Check::Eval { .. }
                    | Check::OptValues { .. }
                    | Check::OptBetter { .. }
                    | Check::ParserContext(_)
            )
        )
    })
}

/// Replays a parsed trace; `name` is the file name used in messages.
pub fn replay_trace(name: &str, trace: &Trace, options: &ReplayOptions) -> Outcome {
    replay_trace_with(name, trace, options, &mut |_| {})
}

/// [`replay_trace`], telling `on_entry` the index of every entry before it runs.
pub fn replay_trace_with(
    name: &str,
    trace: &Trace,
    options: &ReplayOptions,
    on_entry: &mut dyn FnMut(usize),
) -> Outcome {
    // A function of a newer Z3 that the loaded one lacks: the trace cannot replay here, and
    // says so before any call runs.
    if let Some((i, function)) = crate::executor::read::missing_function(&trace.entries) {
        let line = trace.lines.get(i).copied().unwrap_or(i as u32 + 1);
        let recorded = trace
            .z3_version
            .as_deref()
            .map(|v| format!(" (the trace was recorded on Z3 {v})"))
            .unwrap_or_default();
        return Outcome::plain(
            Exit::Malformed,
            format!(
                "{name}:{line}: the trace calls {function}, which the loaded libz3 (Z3 {}) lacks{recorded}",
                crate::z3_version()
            ),
            0,
        );
    }
    let mut config = options.config.clone();
    config.term_texts |= config.run_checks && needs_term_texts(trace);
    let mut executor = Executor::new(config);
    let mut executed = 0;
    for (i, (entry, &line)) in trace.entries.iter().zip(&trace.lines).enumerate() {
        if options.stop_after.is_some_and(|n| line > n) {
            break;
        }
        on_entry(i);
        if let Err(error) = executor.replay(entry) {
            let at = format!("{name}:{line}");
            if let (true, ExecError::Mismatch { expected, actual }) =
                (options.config.answers_only, &error)
            {
                let recorded_on = options
                    .recorded_on
                    .as_deref()
                    .or(trace.z3_version.as_deref());
                return answer_differs(&at, entry.call.name(), expected, actual, recorded_on)
                    .with_executed(executed);
            }
            let failure = match &error {
                ExecError::Z3(m) if m.to_lowercase().contains("out of memory") => Some(
                    Failure::new(FailureKind::Memout, format!("Z3: {m}"))
                        .at_call(entry.call.name())
                        .with_cause(format!("in {}", entry.call.name())),
                ),
                ExecError::Z3(m) => Some(Failure::z3_error(
                    entry.call.name(),
                    &model::trace::text::format_call(&entry.call),
                    m,
                )),
                ExecError::Oracle(f) => Some(f.clone()),
                _ => None,
            };
            let exit = match (&error, &failure) {
                (_, Some(f)) => Exit::of(f.kind),
                (ExecError::Malformed(_), _) => Exit::Malformed,
                (ExecError::Mismatch { .. }, _) => Exit::Mismatch,
                (ExecError::Io(_), _) => Exit::Usage,
                _ => Exit::Z3,
            };
            return Outcome {
                exit,
                message: format!("{at}: {error}"),
                executed,
                failure,
            };
        }
        executed += 1;
    }
    Outcome::plain(Exit::Ok, String::new(), executed)
}

/// The outcome of a replay under `answers_only` whose check answered `actual` where the trace
/// records `expected`: a version difference when both are sat or unsat; else (an unknown on
/// either side) the answers cannot be compared from here on, and the replay ends without a
/// finding.
fn answer_differs(
    at: &str,
    call: &str,
    expected: &Ret,
    actual: &Option<Ret>,
    recorded_on: Option<&str>,
) -> Outcome {
    let answer = |r: Option<&Ret>| match r {
        Some(Ret::Sat(a)) => Some(*a),
        _ => None,
    };
    let (Some(was), Some(now)) = (answer(Some(expected)), answer(actual.as_ref())) else {
        return Outcome::plain(Exit::Malformed, format!("{at}: not a check answer"), 0);
    };
    let this = crate::z3_version();
    let then = recorded_on.unwrap_or("the trace");
    if was == SatResult::Unknown || now == SatResult::Unknown {
        let message = format!(
            "note: {at}: `{call}` answers {} on Z3 {this}, {} on {then}: answers are not \
             compared past an unknown",
            now.name(),
            was.name()
        );
        return Outcome::plain(Exit::Ok, message, 0);
    }
    let failure = Failure::new(
        FailureKind::VersionDiff,
        format!(
            "`{call}` answers {} on Z3 {this}, {} on {then}",
            now.name(),
            was.name()
        ),
    )
    .at_call(call)
    .with_cause(format!(
        "{call}: {} on {then}, {} on {this}",
        was.name(),
        now.name()
    ));
    Outcome {
        exit: Exit::Differ,
        message: format!("{at}: {}", failure.message),
        executed: 0,
        failure: Some(failure),
    }
}

impl Outcome {
    fn with_executed(mut self, executed: usize) -> Outcome {
        self.executed = executed;
        self
    }
}

/// Reads and replays a trace file.
pub fn replay_file(path: &Path, options: &ReplayOptions) -> Outcome {
    match read_trace(path) {
        Ok(trace) => replay_trace(&path.display().to_string(), &trace, options),
        Err((exit, message)) => Outcome::plain(exit, message, 0),
    }
}
