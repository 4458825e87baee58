//! Differential replays: a trace whose replay passes on this Z3 is run again on [`Other`], a
//! second libz3 (`--diff-lib`) or another solver binary (`--cross-check`), and the two must
//! agree. A disagreement is a finding ([`FailureKind::VersionDiff`],
//! [`FailureKind::SolverDiff`]) whose signature names both sides.
//!
//! - Another libz3 replays the trace in its own process (`untrace --z3-lib PATH
//!   --answers-only`): only check-sat answers are compared with the recorded ones (models,
//!   cores and error texts may differ between versions without a bug). Its definite answer
//!   that differs, or a Z3 error, failed check or crash where this Z3 replayed cleanly, is a
//!   version difference. An unknown on either side ends the comparison; a timeout or memout
//!   of the other side is counted, not a finding (versions differ in speed).
//! - Another solver answers the trace's portable SMT-LIB script ([`crate::smt2::write_portable`]):
//!   its definite answer that differs from the recorded one is a solver difference. Its
//!   `unsupported`, its errors (after the first, its answers are not compared), unknowns and
//!   timeouts are counted, not findings.
//!
//! The caller has replayed the trace on this Z3 already (the fuzzer's round, or `untrace
//! --diff-lib`'s first replay), so the recorded answers are this Z3's.

use crate::cli::Replayer;
use crate::replay::ReplayReport;
use crate::smt2::{write_portable, Compared};
use model::finding::{Failure, FailureKind, Signature};
use model::trace::Trace;
use model::SatResult;
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fs::File;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// TEST-ONLY: the fault injection (`UNTRACE_INJECT`) of the other side's replay, so that a
/// test can make the two sides differ.
pub const INJECT_OTHER_ENV: &str = "UNTRACE_INJECT_OTHER";

/// What the trace is compared against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Other {
    /// Another libz3 file and its full version.
    Library { path: PathBuf, version: String },
    /// Another solver: its program and arguments; the script's path is appended.
    Solver(Vec<String>),
}

impl Other {
    /// Another libz3, checked as `--z3-lib` checks it.
    pub fn library(path: &Path) -> Result<Other, String> {
        let lib = z3lib::inspect(path).map_err(|e| e.to_string())?;
        Ok(Other::Library {
            path: lib.path,
            version: lib.version,
        })
    }

    /// Another solver from a command line such as `cvc5 --lang smt2` (split into words as a
    /// shell would, never run by one); its program must be found.
    pub fn solver(command: &str) -> Result<Other, String> {
        let words =
            shell_words::split(command).map_err(|e| format!("--cross-check {command:?}: {e}"))?;
        let Some(program) = words.first() else {
            return Err("--cross-check: empty command".into());
        };
        if find_program(program).is_none() {
            return Err(format!("--cross-check: {program}: no such program"));
        }
        Ok(Other::Solver(words))
    }

    /// The kind of a disagreement with it.
    pub fn kind(&self) -> FailureKind {
        match self {
            Other::Library { .. } => FailureKind::VersionDiff,
            Other::Solver(_) => FailureKind::SolverDiff,
        }
    }

    /// The untrace options that replay a trace against it (`--diff-lib PATH`,
    /// `--cross-check CMD`).
    pub fn untrace_args(&self) -> Vec<OsString> {
        match self {
            Other::Library { path, .. } => vec!["--diff-lib".into(), path.into()],
            Other::Solver(words) => vec!["--cross-check".into(), shell_words::join(words).into()],
        }
    }

    /// How messages name it: the Z3 version, or the solver program's file name.
    pub fn name(&self) -> String {
        match self {
            Other::Library { version, .. } => format!("Z3 {version}"),
            Other::Solver(words) => Path::new(&words[0])
                .file_name()
                .map_or(words[0].clone(), |n| n.to_string_lossy().into_owned()),
        }
    }
}

/// Finds `program` as `Command` would: a path, or a name on `PATH`.
fn find_program(program: &str) -> Option<PathBuf> {
    if program.contains('/') {
        return Path::new(program).is_file().then(|| PathBuf::from(program));
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

/// How a differential run ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verdict {
    /// The disagreement, if the two sides disagree.
    pub failure: Option<Failure>,
    /// The last line of the other side's message (e.g. why answers were not compared).
    pub note: Option<String>,
    /// What was compared and what was not, by reason: `compared`, `agreed`, `unknown`,
    /// `timeout`, `memout`, `typed-differently`, `parameter-refused`, `unsupported`,
    /// `solver-error`, `no-answer` (the solver stopped before), `not compared: WHY` (checks
    /// the portable script leaves out).
    pub counts: BTreeMap<String, u64>,
}

impl Verdict {
    fn count(&mut self, what: &str, n: u64) {
        if n > 0 {
            *self.counts.entry(what.to_string()).or_default() += n;
        }
    }
}

/// Limits of the other side's run.
#[derive(Clone, Copy, Debug)]
pub struct SideLimits {
    pub timeout: Duration,
    pub memout_mb: Option<u64>,
}

/// Time another libz3's process may take beyond the replay's own limit: starting, loading the
/// library, creating a context.
const START_SLACK: Duration = Duration::from_secs(5);

impl SideLimits {
    /// The longest [`compare`] takes under these limits.
    pub fn longest(&self) -> Duration {
        self.timeout + START_SLACK
    }
}

/// Runs the trace `trace` (read from `path`) on `other`. `replayer` replays it on another
/// libz3 (this build's, [`crate::cli::replayer`]). An error when the other side cannot run at all (a missing binary, a
/// library the loader refuses), which is no finding.
pub fn compare(
    path: &Path,
    trace: &Trace,
    other: &Other,
    replayer: &Replayer,
    limits: SideLimits,
) -> Result<Verdict, String> {
    let scratch = tempfile::Builder::new()
        .prefix("untrace-diff-")
        .tempdir()
        .map_err(|e| format!("cannot create a temporary folder: {e}"))?;
    match other {
        Other::Library { path: lib, version } => {
            on_library(path, lib, version, replayer, limits, scratch.path())
        }
        Other::Solver(words) => on_solver(path, trace, words, other, limits, scratch.path()),
    }
}

fn on_library(
    trace: &Path,
    lib: &Path,
    version: &str,
    replayer: &Replayer,
    limits: SideLimits,
    scratch: &Path,
) -> Result<Verdict, String> {
    let mut command = Command::new(&replayer.program);
    command
        .args(&replayer.prefix)
        .args(["--z3-lib".as_ref(), lib.as_os_str()])
        .args(["--answers-only", "--recorded-on", &crate::z3_version()])
        .args(["--timeout", &limits.timeout.as_secs_f64().to_string()]);
    if let Some(mb) = limits.memout_mb {
        command.args(["--memout", &mb.to_string()]);
    }
    // The other side's outcome comes back as data, its finding with its signature.
    let report_path = scratch.join("other-report.json");
    command.arg("--report").arg(&report_path);
    let absolute = std::path::absolute(trace).unwrap_or_else(|_| trace.to_path_buf());
    command.arg(&absolute);
    command.env_remove("UNTRACE_INJECT");
    if let Some(fault) = std::env::var_os(INJECT_OTHER_ENV) {
        command.env("UNTRACE_INJECT", fault);
    }
    // The other side applies the limit to its replay itself; this one only catches a process
    // that hangs outside it (loading the library, a stuck child).
    let run = run_side(command, scratch, limits.longest())?;
    let stderr = String::from_utf8_lossy(&run.stderr);
    let signature = ReplayReport::read(&report_path).and_then(|r| r.signature);
    // `PATH:LINE: text` becomes `at line LINE: text`: the caller names the trace.
    let message = last_message(&stderr).map(|m| {
        let prefix = format!("{}:", absolute.display());
        match m.strip_prefix(&prefix) {
            Some(rest) => format!("at line {rest}"),
            None => m,
        }
    });
    let mut verdict = Verdict {
        note: message.clone(),
        ..Verdict::default()
    };
    let Some(status) = run.status else {
        verdict.count("timeout", 1);
        return Ok(verdict);
    };
    let here = crate::z3_version();
    let differs = |sig: Option<&Signature>, message: Option<String>| {
        let (kind, cause) = sig.map_or(("crash", "-"), |s| (s.kind.name(), s.cause.as_str()));
        let failure = if sig.is_some_and(|s| s.kind == FailureKind::VersionDiff) {
            // The other side's answer differs: its cause names both versions already.
            Failure::new(
                FailureKind::VersionDiff,
                message.unwrap_or_else(|| "the answers differ".into()),
            )
            .with_cause(cause.to_string())
        } else {
            Failure::new(
                FailureKind::VersionDiff,
                format!(
                    "Z3 {here} replays the trace, Z3 {version} does not: {}",
                    message.unwrap_or_default()
                ),
            )
            .with_cause(format!("{kind} on {version}, none on {here}: {cause}"))
        };
        Some(failure)
    };
    match crate::replay::Exit::from_code(status.code().unwrap_or(-1)) {
        Some(crate::replay::Exit::Ok) => {
            let stopped = message.as_deref().is_some_and(|m| m.contains("note:"));
            verdict.count(if stopped { "unknown" } else { "agreed" }, 1);
        }
        // The reference state follows the loaded Z3's typing (`^` on Int is Real in 4.8.12,
        // Int in 5.x): a trace typed by one version can be invalid for the other. No bug.
        Some(crate::replay::Exit::Malformed) => verdict.count("typed-differently", 1),
        Some(crate::replay::Exit::Timeout) => verdict.count("timeout", 1),
        Some(crate::replay::Exit::Memout) => verdict.count("memout", 1),
        // Versions know different parameters and values: refusing one is no bug.
        Some(crate::replay::Exit::Z3) if refuses_a_parameter(signature.as_ref()) => {
            verdict.count("parameter-refused", 1)
        }
        Some(
            crate::replay::Exit::Differ
            | crate::replay::Exit::Z3
            | crate::replay::Exit::Oracle
            | crate::replay::Exit::Crash,
        ) => verdict.failure = differs(signature.as_ref(), message),
        _ => {
            return Err(format!(
                "the replay on {} failed ({status}): {}",
                lib.display(),
                message.unwrap_or_default()
            ))
        }
    }
    Ok(verdict)
}

fn on_solver(
    path: &Path,
    trace: &Trace,
    words: &[String],
    other: &Other,
    limits: SideLimits,
    scratch: &Path,
) -> Result<Verdict, String> {
    let script = write_portable(&path.display().to_string(), trace);
    let mut verdict = Verdict::default();
    for (why, n) in &script.skipped {
        verdict.count(&format!("not compared: {why}"), *n);
    }
    if script.compared.is_empty() {
        return Ok(verdict);
    }
    let file = scratch.join("script.smt2");
    std::fs::write(&file, &script.text)
        .map_err(|e| format!("{}: cannot write: {e}", file.display()))?;
    let mut command = Command::new(&words[0]);
    command.args(&words[1..]).arg(&file);
    if let Some(mb) = limits.memout_mb {
        limit_memory(&mut command, mb);
    }
    let run = run_side(command, scratch, limits.timeout)?;
    let output = String::from_utf8_lossy(&run.stdout);
    let responses = Responses::read(&output);
    verdict.count("unsupported", responses.unsupported);
    verdict.count("solver-error", u64::from(responses.error.is_some()));
    if run.status.is_none() {
        verdict.count("timeout", 1);
    }
    verdict.note = responses.error.clone();
    let answered = responses.answers.len().min(script.compared.len());
    verdict.count("no-answer", (script.compared.len() - answered) as u64);
    let here = crate::z3_version();
    let solver = other.name();
    for (check, answer) in script.compared.iter().zip(&responses.answers) {
        if *answer == SatResult::Unknown {
            verdict.count("unknown", 1);
            continue;
        }
        verdict.count("compared", 1);
        if *answer == check.answer {
            verdict.count("agreed", 1);
            continue;
        }
        verdict.failure = Some(solver_differs(check, *answer, &here, &solver));
        break;
    }
    Ok(verdict)
}

fn solver_differs(check: &Compared, answer: SatResult, here: &str, solver: &str) -> Failure {
    let Compared {
        line,
        call,
        answer: z3,
    } = check;
    Failure::new(
        FailureKind::SolverDiff,
        format!(
            "at line {line}: `{call}` answers {} on Z3 {here}, {} on {solver}",
            z3.name(),
            answer.name()
        ),
    )
    .at_call(*call)
    .with_cause(format!(
        "{call}: {} on Z3 {here}, {} on {solver}",
        z3.name(),
        answer.name()
    ))
}

/// The responses of a solver to a script, as far as they matter here.
#[derive(Debug, Default, PartialEq, Eq)]
struct Responses {
    /// Check answers before the first error.
    answers: Vec<SatResult>,
    unsupported: u64,
    /// The first `(error ...)` response, after which answers are not used: the command it
    /// refused may have been an assertion.
    error: Option<String>,
}

impl Responses {
    /// Reads the top-level responses: atoms, and parenthesized responses skipped whole (a
    /// string may hold parentheses).
    fn read(output: &str) -> Responses {
        let mut responses = Responses::default();
        let mut chars = output.char_indices().peekable();
        while let Some((start, c)) = chars.next() {
            if c.is_whitespace() {
                continue;
            }
            if c == '(' {
                let mut depth = 1;
                let mut in_string = false;
                let mut end = output.len();
                for (i, c) in chars.by_ref() {
                    match c {
                        '"' => in_string = !in_string,
                        '(' if !in_string => depth += 1,
                        ')' if !in_string => {
                            depth -= 1;
                            if depth == 0 {
                                end = i + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                let text = &output[start..end];
                if text[1..].trim_start().starts_with("error") {
                    responses.error = Some(text.split_whitespace().collect::<Vec<_>>().join(" "));
                    break;
                }
                continue;
            }
            let mut end = output.len();
            while let Some(&(i, c)) = chars.peek() {
                if c.is_whitespace() || c == '(' {
                    end = i;
                    break;
                }
                chars.next();
            }
            match &output[start..end] {
                "sat" => responses.answers.push(SatResult::Sat),
                "unsat" => responses.answers.push(SatResult::Unsat),
                "unknown" => responses.answers.push(SatResult::Unknown),
                "unsupported" => responses.unsupported += 1,
                _ => {}
            }
        }
        responses
    }
}

/// What a side's process did: its status (`None` when killed at the limit), its outputs.
pub(crate) struct SideRun {
    pub(crate) status: Option<ExitStatus>,
    pub(crate) stdout: Vec<u8>,
    pub(crate) stderr: Vec<u8>,
}

/// Runs `command` in `scratch` (its working directory, where its outputs go too) in a process
/// group of its own, killed whole at `limit` and when it ends (a solver's helpers must not
/// outlive it).
pub(crate) fn run_side(
    mut command: Command,
    scratch: &Path,
    limit: Duration,
) -> Result<SideRun, String> {
    let out_path = scratch.join("stdout.txt");
    let err_path = scratch.join("stderr.txt");
    let file = |p: &Path| File::create(p).map_err(|e| format!("{}: {e}", p.display()));
    command
        .current_dir(scratch)
        .stdin(Stdio::null())
        .stdout(file(&out_path)?)
        .stderr(file(&err_path)?)
        .process_group(0);
    let program = command.get_program().to_string_lossy().into_owned();
    let mut child = command
        .spawn()
        .map_err(|e| format!("cannot run {program}: {e}"))?;
    let group = nix::unistd::Pid::from_raw(child.id() as i32);
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() > limit => break None,
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(e) => return Err(format!("cannot wait for {program}: {e}")),
        }
    };
    // The whole process group this function created, whatever the side started.
    let _ = nix::sys::signal::killpg(group, nix::sys::signal::Signal::SIGKILL);
    if status.is_none() {
        let _ = child.wait();
    }
    Ok(SideRun {
        status,
        stdout: std::fs::read(&out_path).unwrap_or_default(),
        stderr: std::fs::read(&err_path).unwrap_or_default(),
    })
}

/// Limits the address space of the process `command` starts to `mb` MiB.
fn limit_memory(command: &mut Command, mb: u64) {
    let bytes = mb << 20;
    // SAFETY: only setrlimit, which is async-signal-safe, runs between fork and exec.
    unsafe {
        command.pre_exec(move || {
            let _ = nix::sys::resource::setrlimit(
                nix::sys::resource::Resource::RLIMIT_AS,
                bytes,
                bytes,
            );
            Ok(())
        });
    }
}

/// Whether a replay's Z3 error (its signature) is Z3 refusing a parameter name or value.
fn refuses_a_parameter(signature: Option<&Signature>) -> bool {
    signature.is_some_and(|sig| {
        let sig = sig.cause.to_lowercase();
        ["unknown parameter", "invalid parameter"]
            .iter()
            .any(|m| sig.contains(m))
    })
}

/// The last `untrace: ` line of a replay's stderr that is not its signature line, without
/// the prefix.
fn last_message(stderr: &str) -> Option<String> {
    stderr
        .lines()
        .rev()
        .filter_map(|l| l.strip_prefix("untrace: "))
        .find(|l| !l.starts_with(model::finding::SIGNATURE_LINE))
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn responses_are_answers_until_the_first_error() {
        let r = Responses::read(
            "unsupported\nsat\n(model (define-fun x () Int 1))\nunknown\n\
             (error \"line 9: unknown constant \\\"y)\\\"\")\nunsat\n",
        );
        assert_eq!(r.answers, [SatResult::Sat, SatResult::Unknown]);
        assert_eq!(r.unsupported, 1);
        assert!(r.error.is_some_and(|e| e.starts_with("(error")));
        let r = Responses::read("sat unsat");
        assert_eq!(r.answers, [SatResult::Sat, SatResult::Unsat]);
        assert_eq!(r.error, None);
    }

    #[test]
    fn a_solver_command_is_split_into_words_and_rejoined() {
        let other = Other::solver("sh -c 'exit 0'").unwrap();
        assert_eq!(
            other,
            Other::Solver(vec!["sh".into(), "-c".into(), "exit 0".into()])
        );
        assert_eq!(other.untrace_args(), ["--cross-check", "sh -c 'exit 0'"]);
        assert_eq!(other.name(), "sh");
        assert!(Other::solver("no-such-solver-here --x").is_err());
        assert!(Other::solver("").is_err());
    }
}
