//! Replaying Z3's own API logs (`Z3_open_log`) with untrace's machinery: the log is read and
//! resolved by the `z3log` crate (its release's call table, the loaded libz3's functions by
//! name), then replayed in a child process by [`crate::supervise::run_isolated`], so a crash,
//! timeout or memory exhaustion gets the same exit code and signature as a trace's.
//! `--diff-lib` replays the log again on the other libz3 (the running tool's replayer,
//! `untrace --z3-lib PATH LOG`) and compares how the two replays end.

use crate::replay::{Exit, Outcome};
use crate::supervise::{report, run_isolated, Job, Limits};
use model::finding::{Failure, FailureKind};
use std::collections::HashMap;
use std::path::Path;
use z3log::replay::{self, Plan};
use z3log::Loaded;

/// Options of a log replay (the subset of untrace's that applies to logs).
#[derive(Clone, Debug, Default)]
pub struct LogOptions {
    /// Print the libz3's errors the replay met (and each call with `--verbose`).
    pub verbose: bool,
    /// Stop after the call on this line.
    pub stop_after: Option<u32>,
    /// Replay in this process (for debuggers).
    pub in_process: bool,
    pub limits: Limits,
}

/// Whether `path` holds a Z3 API log rather than a trace (by its content).
pub fn is_log(path: &Path) -> bool {
    z3log::is_log_file(path)
}

fn plain(exit: Exit, message: String) -> Outcome {
    Outcome {
        exit,
        message,
        executed: 0,
        failure: None,
    }
}

/// Reads and resolves the log at `path` against the loaded libz3: exit 2 for an unreadable
/// file, 3 for a malformed log, one from a release without a table, or a call the loaded Z3
/// lacks (and that is not a query).
// The error is the replay's outcome, made once per replay: its size costs nothing.
#[allow(clippy::result_large_err)]
pub fn prepare(path: &Path) -> Result<(Loaded, Plan), Outcome> {
    let name = path.display().to_string();
    let loaded = z3log::load(path).map_err(|e| {
        let exit = if e.io { Exit::Usage } else { Exit::Malformed };
        plain(exit, e.message)
    })?;
    let plan = replay::plan(&loaded.log, &loaded.table)
        .map_err(|e| plain(Exit::Malformed, format!("{name}:{}: {}", e.line, e.message)))?;
    Ok((loaded, plan))
}

/// The warnings a log replay starts with: a log of another release, skipped queries and
/// callback registrations.
pub fn warnings(name: &str, loaded: &Loaded, plan: &Plan) -> Vec<String> {
    let mut out = Vec::new();
    let this = crate::z3_version();
    if loaded.table.version != this {
        out.push(format!(
            "note: {name} was written by Z3 {}, replayed by function name on Z3 {this}",
            loaded.table.version
        ));
    }
    for (function, n) in &plan.skipped_queries {
        out.push(format!(
            "warning: {name}: skipped {n} call(s) of {function}, which Z3 {this} lacks (it only asks)"
        ));
    }
    for (function, n) in &plan.skipped_callbacks {
        out.push(format!(
            "warning: {name}: skipped {n} call(s) of {function}: the log records no callbacks"
        ));
    }
    out
}

/// Replays a prepared log here (in this process); the child of [`replay_log`] runs this.
fn replay_here(
    name: &str,
    loaded: &Loaded,
    plan: &Plan,
    options: &LogOptions,
    progress: &mut dyn FnMut(usize),
) -> Outcome {
    // The crash reporter names the call in progress with a static string: each function's
    // name is leaked once (at most one per function of the table).
    let mut names: HashMap<String, &'static str> = HashMap::new();
    let verbose = options.verbose;
    let end = z3log::run(loaded, plan, options.stop_after, &mut |i, function| {
        progress(i);
        let name: &'static str = match names.get(function) {
            Some(n) => n,
            None => {
                let leaked: &'static str = Box::leak(function.to_string().into_boxed_str());
                names.insert(function.to_string(), leaked);
                leaked
            }
        };
        crate::crash::set_current_call(name);
        if verbose {
            let line = loaded.log.entries.get(i).map_or(0, |e| e.line);
            eprintln!("untrace: {line}: {function}");
        }
    });
    let errors = replay::z3_errors();
    if verbose && errors.count > 0 {
        eprintln!(
            "untrace: {name}: {} Z3 error(s) during the replay (the program may have caught them; not findings)",
            errors.count
        );
        for (message, n) in &errors.messages {
            eprintln!("untrace:   {n} x {message}");
        }
    }
    if let Some((line, message)) = end.error {
        return Outcome {
            exit: Exit::Malformed,
            message: format!("{name}:{line}: {message}"),
            executed: end.executed,
            failure: None,
        };
    }
    if let Some((line, function)) = end.memout {
        let failure = Failure::new(
            FailureKind::Memout,
            format!("Z3 ran out of memory in `{function}`"),
        )
        .at_call(function.as_str())
        .with_cause(format!("in {function}"));
        return Outcome {
            exit: Exit::Memout,
            message: format!("{name}:{line}: {}", failure.message),
            executed: end.executed,
            failure: Some(failure),
        };
    }
    Outcome {
        exit: Exit::Ok,
        message: String::new(),
        executed: end.executed,
        failure: None,
    }
}

/// Replays the log at `path` as untrace does (in a child process unless `in_process`) and
/// reports the outcome on stderr.
pub fn replay_log(path: &Path, options: &LogOptions) -> Outcome {
    let name = path.display().to_string();
    let (loaded, plan) = match prepare(path) {
        Ok(prepared) => prepared,
        Err(outcome) => {
            report(&outcome);
            return outcome;
        }
    };
    for warning in warnings(&name, &loaded, &plan) {
        eprintln!("untrace: {warning}");
    }
    if options.in_process {
        crate::crash::install();
        let outcome = replay_here(&name, &loaded, &plan, options, &mut |_| {});
        report(&outcome);
        return outcome;
    }
    let function_of = |i: usize| -> Option<String> {
        match plan.steps.get(i)? {
            replay::Step::Call { function, .. } | replay::Step::Skip { function } => {
                Some(function.name.to_string())
            }
            replay::Step::Message => None,
        }
    };
    let job = Job {
        name: &name,
        replay: &|progress| replay_here(&name, &loaded, &plan, options, progress),
        call_name: &function_of,
        line: &|i| loaded.log.entries.get(i).map(|e| e.line),
        // A log records no parameters' effect on limits: a timeout is the call's.
        overran_resource_limit: &|_| true,
    };
    run_isolated(&job, options.limits)
}

/// How a replay ended, in words for a differential verdict: `replays`, or the finding's
/// signature.
fn ending(exit: Exit, signature: Option<&str>) -> String {
    match (exit, signature) {
        (Exit::Ok, _) => "replays".to_string(),
        (_, Some(sig)) => format!("ends in {sig}"),
        (exit, None) => format!("exit {}", exit as i32),
    }
}

/// `--diff-lib` for a log: replays it on `other` (another untrace process on that libz3)
/// and compares how the replays end. `here` is this replay's outcome. A crash, timeout or
/// memout on one side only (or of another kind on each) is a `version-diff` verdict (exit
/// 9); a log the other side cannot replay (exit 2, 3) is reported as such (that exit). When
/// both end the same way the answer is `None` and this replay's outcome stands (a crash on
/// both is still this side's crash, exit 6), after a note that says how the other ended.
pub fn compare_with_lib(
    path: &Path,
    here: &Outcome,
    other: &Path,
    limits: Limits,
) -> Option<Outcome> {
    let name = path.display().to_string();
    let other_version = match z3lib::inspect(other) {
        Ok(lib) => lib.version,
        Err(e) => return Some(plain(Exit::Usage, e.to_string())),
    };
    let scratch = match tempfile::Builder::new().prefix("untrace-diff-").tempdir() {
        Ok(dir) => dir,
        Err(e) => {
            return Some(plain(
                Exit::Usage,
                format!("cannot create a temporary folder: {e}"),
            ))
        }
    };
    let timeout = limits.timeout.unwrap_or(std::time::Duration::from_secs(60));
    let replayer = crate::cli::replayer();
    let mut command = std::process::Command::new(&replayer.program);
    command
        .args(&replayer.prefix)
        .args(["--z3-lib".as_ref(), other.as_os_str()])
        .args(["--timeout", &timeout.as_secs_f64().to_string()]);
    // The other side hands its outcome over as data (`--report`), not as a line to parse.
    let report_file = scratch.path().join("other-report.json");
    command.arg("--report").arg(&report_file);
    if let Some(mb) = limits.memout_mb {
        command.args(["--memout", &mb.to_string()]);
    }
    command.arg(std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()));
    // The other side applies the limit to its replay itself; this one only catches a process
    // that hangs outside it.
    let run = match crate::differential::run_side(
        command,
        scratch.path(),
        timeout + std::time::Duration::from_secs(30),
    ) {
        Ok(run) => run,
        Err(e) => {
            return Some(plain(
                Exit::Usage,
                format!("{name}: cannot run the other replay: {e}"),
            ))
        }
    };
    let stderr = String::from_utf8_lossy(&run.stderr);
    let code = run.status.and_then(|s| s.code());
    let there = match code.and_then(Exit::from_code) {
        Some(exit) => exit,
        None => Exit::Timeout,
    };
    if matches!(there, Exit::Usage | Exit::Malformed) {
        let last = stderr
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        return Some(plain(
            there,
            format!("{name}: the replay on Z3 {other_version} failed: {last}"),
        ));
    }
    let there_sig = crate::replay::ReplayReport::read(&report_file)
        .and_then(|report| report.signature)
        .map(|sig| sig.to_string());
    let kinds = |exit: Exit, failure: Option<FailureKind>| (exit, failure);
    let there_kind = crate::replay::ReplayReport::read(&report_file)
        .and_then(|report| report.signature)
        .map(|sig| sig.kind);
    let here_sig = here.failure.as_ref().map(|f| f.signature().to_string());
    let here_kind = here.failure.as_ref().map(|f| f.signature().kind);
    let here_end = ending(here.exit, here_sig.as_deref());
    let there_end = ending(there, there_sig.as_deref());
    let this = crate::z3_version();
    let kind = |k: Option<FailureKind>| k.map(|k| k.name().to_string());
    if kinds(here.exit, here_kind) == kinds(there, there_kind) {
        eprintln!(
            "untrace: note: {name}: on Z3 {this} the log {here_end}, on Z3 {other_version} it {there_end}"
        );
        return None;
    }
    let failure = Failure::new(
        FailureKind::VersionDiff,
        format!("the log {here_end} on Z3 {this}, {there_end} on Z3 {other_version}"),
    )
    .with_cause(format!(
        "log: {} on {this}, {} on {other_version}",
        kind(here_kind).unwrap_or_else(|| here_end.clone()),
        kind(there_kind).unwrap_or_else(|| there_end.clone())
    ));
    Some(Outcome {
        exit: Exit::Differ,
        message: format!("{name}: {}", failure.message),
        executed: here.executed,
        failure: Some(failure),
    })
}

/// `untrace --convert OUT LOG [--with-checks]`: lifts the log into a trace
/// ([`z3log::lift`]) and writes it to `out` in `format` (text by default), through a
/// temporary file in `out`'s folder renamed into place. Prints what could not be lifted, by
/// function name and count, on stderr. Exit 2 for an unreadable log or an unwritable
/// output (or one that is the log), 3 for a malformed log.
pub fn convert(
    path: &Path,
    out: &Path,
    binary: bool,
    options: z3log::lift::Options,
) -> (Exit, String) {
    let name = path.display().to_string();
    if same_file::is_same_file(path, out).unwrap_or(false) {
        return (
            Exit::Usage,
            format!(
                "{}: --convert would overwrite the input log; give another output path",
                out.display()
            ),
        );
    }
    let loaded = match z3log::load(path) {
        Ok(loaded) => loaded,
        Err(e) => {
            let exit = if e.io { Exit::Usage } else { Exit::Malformed };
            return (exit, e.message);
        }
    };
    let lifted = match z3log::lift::lift(&loaded.log, &loaded.table, options) {
        Ok(lifted) => lifted,
        Err(e) => return (Exit::Malformed, format!("{name}:{e}")),
    };
    for line in lift_summary(&name, &lifted) {
        eprintln!("untrace: {line}");
    }
    let version = loaded.table.version.clone();
    let bytes = if binary {
        let trace = model::Trace {
            z3_version: Some(version),
            ..model::Trace::from_entries(lifted.entries)
        };
        model::trace::binary::write_trace(&trace)
    } else {
        model::trace::text::write_recorded_on(&lifted.entries, Some(&version)).into_bytes()
    };
    match write_atomically(out, &bytes) {
        Ok(()) => (Exit::Ok, String::new()),
        Err(message) => (Exit::Usage, message),
    }
}

/// What a lift left out, one line each: unmapped functions, dropped dependents, calls the
/// reference state refused, and a lost last call.
pub fn lift_summary(name: &str, lifted: &z3log::lift::Lifted) -> Vec<String> {
    let mut lines = Vec::new();
    for (function, c) in &lifted.unmapped {
        lines.push(format!(
            "{name}:{}: not lifted: {function} ({} call(s)): {}",
            c.first_line, c.count, c.reason
        ));
    }
    for (function, c) in &lifted.dependents {
        lines.push(format!(
            "{name}:{}: dropped: {function} ({} call(s)): {}",
            c.first_line, c.count, c.reason
        ));
    }
    for (function, c) in &lifted.refused {
        lines.push(format!(
            "{name}:{}: refused by the API model: {function} ({} call(s)): {}",
            c.first_line, c.count, c.reason
        ));
    }
    if let Some((line, function)) = &lifted.last_call_lost {
        lines.push(format!(
            "{name}:{line}: warning: the log's last call ({function}) is not in the trace: \
             the trace may not reproduce how the log ends"
        ));
    }
    lines
}

/// Writes `bytes` to `out` through a temporary file in the same folder, renamed into place.
fn write_atomically(out: &Path, bytes: &[u8]) -> Result<(), String> {
    use std::io::Write;
    let folder = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let fail = |e: std::io::Error| format!("{}: cannot write: {e}", out.display());
    let mut tmp = tempfile::NamedTempFile::new_in(folder).map_err(fail)?;
    tmp.write_all(bytes).map_err(fail)?;
    tmp.persist(out).map_err(|e| fail(e.error))?;
    Ok(())
}
