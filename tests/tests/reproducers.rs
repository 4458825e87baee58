//! Reproducers without this suite (`untrace --emit c|python|z3log|smt2`): for every trace of
//! `traces/regress/` the C program, compiled with the system compiler against Debian's
//! libz3-dev (`z3.h`, `-lz3`), and the Python script, run by the Python whose `z3` package is
//! the linked Z3 (Debian's python3-z3), fail the way the trace does; so do those of
//! `traces/differential/` on the second Z3 (the z3-solver wheel's `z3/include`, `z3/lib` and
//! its Python); the example traces of `traces/`, which pass, give reproducers that exit 0.
//! Each test prints what the writers could not express and the measured table (run with
//! `--nocapture` to read it).

use e2e::{command, other_z3, repo_root, traces_in, wait_at_most};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// How a run ended, as a trace's `; exit:` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    Pass,
    Mismatch,
    Z3Error,
    Oracle,
    Crash,
    Timeout,
}

/// The outcome `untrace` reports for a regress trace (`; exit: N`).
fn expected_regress(text: &str) -> Outcome {
    let exit = text
        .lines()
        .find_map(|l| l.strip_prefix("; exit:"))
        .map(str::trim)
        .unwrap_or("0");
    match exit {
        "0" => Outcome::Pass,
        "1" => Outcome::Mismatch,
        "4" => Outcome::Z3Error,
        "5" => Outcome::Oracle,
        "7" => Outcome::Timeout,
        _ => Outcome::Crash,
    }
}

/// The outcome on the other Z3 of a differential trace (`; diff-lib: version-diff|...`): a
/// crash there, a failed check there, or another answer than the recorded one.
fn expected_differential(text: &str) -> Outcome {
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("; diff-lib:"))
        .unwrap_or_default();
    if line.contains("|crash on") {
        Outcome::Crash
    } else if line.contains("check_opt") || line.contains("check_model") {
        Outcome::Oracle
    } else {
        Outcome::Mismatch
    }
}

/// Runs a reproducer in a process group of its own, at most `limit`.
fn run_reproducer(
    program: &Path,
    args: &[&Path],
    dir: &Path,
    limit: Duration,
) -> (Outcome, String) {
    let mut cmd = Command::new(program);
    cmd.args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let mut child = cmd.spawn().expect("start a reproducer");
    let mut stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut stdout, &mut text);
        text
    });
    let status = wait_at_most(&mut child, limit);
    let text = reader.join().unwrap_or_default();
    let finished = text.contains("repro: finished without failure");
    let own = text.lines().any(|l| l.starts_with("repro: "));
    let outcome =
        match status.map(|s| (s.code(), std::os::unix::process::ExitStatusExt::signal(&s))) {
            None => Outcome::Timeout,
            Some((_, Some(_))) => Outcome::Crash,
            Some((Some(0), _)) if finished => Outcome::Pass,
            Some((Some(1), _)) if own => Outcome::Mismatch,
            Some((Some(4), _)) if own => Outcome::Z3Error,
            Some((Some(5), _)) if own => Outcome::Oracle,
            // Z3's own exit inside a call (an assertion violation, or `exit(0)` mid-program).
            Some(_) => Outcome::Crash,
        };
    let last = text.lines().last().unwrap_or_default().to_string();
    (outcome, last)
}

/// A Z3 to compile and run against: where z3.h and libz3 are, and a Python with that `z3`.
struct Z3 {
    name: &'static str,
    include: Option<PathBuf>,
    lib: Option<PathBuf>,
    python: Option<PathBuf>,
    /// `--z3-lib` for `untrace` (the emit runs on it too, for the parameter kinds).
    z3_lib: Option<PathBuf>,
}

/// A Python whose `z3` package reports `version` (major.minor.patch), among `candidates`.
fn python_with_z3(candidates: &[PathBuf], version: &str) -> Option<PathBuf> {
    candidates.iter().find_map(|p| {
        let out = Command::new(p)
            .args(["-c", "import z3; print(z3.get_version_string())"])
            .output()
            .ok()?;
        let v = String::from_utf8_lossy(&out.stdout).trim().to_string();
        (out.status.success() && version.starts_with(&v)).then(|| p.clone())
    })
}

fn system_z3() -> Z3 {
    let version = untrace::z3_version();
    let python = python_with_z3(
        &[PathBuf::from("/usr/bin/python3"), PathBuf::from("python3")],
        &version,
    );
    if python.is_none() {
        eprintln!("SKIPPED (Python reproducers): no python3 whose z3 package is Z3 {version} (Debian's python3-z3)");
    }
    Z3 {
        name: "linked",
        include: None,
        lib: None,
        python,
        z3_lib: None,
    }
}

fn wheel_z3(lib: PathBuf) -> Z3 {
    let z3_dir = lib.parent().and_then(Path::parent).map(Path::to_path_buf);
    let python = repo_root().join(".ci/venv/bin/python");
    Z3 {
        name: "second",
        include: z3_dir.as_ref().map(|d| d.join("include")),
        lib: lib.parent().map(Path::to_path_buf),
        python: python.is_file().then_some(python),
        z3_lib: Some(lib),
    }
}

fn emit(z3: &Z3, format: &str, out: &Path, trace: &Path) -> Vec<String> {
    let mut args: Vec<&std::ffi::OsStr> = Vec::new();
    if let Some(lib) = &z3.z3_lib {
        args.extend(["--z3-lib".as_ref(), lib.as_os_str()]);
    }
    args.extend([
        "--emit".as_ref(),
        format.as_ref(),
        out.as_os_str(),
        trace.as_os_str(),
    ]);
    let result = command("untrace", &args, &[])
        .output()
        .expect("run untrace");
    assert_eq!(
        result.status.code(),
        Some(0),
        "untrace --emit {format} {}: {}",
        trace.display(),
        String::from_utf8_lossy(&result.stderr)
    );
    String::from_utf8_lossy(&result.stderr)
        .lines()
        .filter_map(|l| l.strip_prefix("untrace: not expressed: "))
        .map(str::to_string)
        .collect()
}

fn compile(z3: &Z3, source: &Path, binary: &Path) {
    let mut cc = Command::new("cc");
    cc.arg("-w").arg(source);
    if let Some(inc) = &z3.include {
        cc.arg("-I").arg(inc);
    }
    if let Some(lib) = &z3.lib {
        cc.arg("-L").arg(lib);
        cc.arg(format!("-Wl,-rpath,{}", lib.display()));
    }
    cc.arg("-lz3").arg("-o").arg(binary);
    let out = cc.output().expect("run the C compiler");
    assert!(
        out.status.success(),
        "{} does not compile: {}",
        source.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Emits, compiles and runs the C and Python reproducers of every trace and compares each
/// outcome with `expected`; prints the unexpressed parts and the table.
fn check_corpus(z3: &Z3, traces: &[PathBuf], expected: impl Fn(&str) -> Outcome) {
    assert!(!traces.is_empty(), "no traces");
    let dir = tempfile::tempdir().expect("a private temporary folder");
    let mut failures = Vec::new();
    let mut table: std::collections::BTreeMap<(Outcome, &str), (u32, u32)> = Default::default();
    let mut c_lengths = Vec::new();
    for trace in traces {
        let text = std::fs::read_to_string(trace).expect("read the trace");
        let want = expected(&text);
        let name = trace.file_stem().unwrap().to_string_lossy().to_string();
        let limit = Duration::from_secs(
            text.lines()
                .find_map(|l| l.strip_prefix("; timeout:"))
                .and_then(|t| t.trim().parse::<u64>().ok())
                .map_or(60, |t| t + 2),
        );
        let c = dir.path().join(format!("{name}.c"));
        let py = dir.path().join(format!("{name}.py"));
        let binary = dir.path().join(&name);
        let unexpressed = emit(z3, "c", &c, trace);
        for u in &unexpressed {
            eprintln!("{name}: not expressed: {u}");
        }
        // A reproducer that judges more than the suite (every Optimize objective, where the
        // suite skips the unbounded ones) may fail where the trace passes: listed, not run.
        if want == Outcome::Pass && unexpressed.iter().any(|u| u.contains("judges them all")) {
            eprintln!("{name}: not run: its reproducer judges objectives the suite skips");
            continue;
        }
        // Z3 4.8.12 cannot delete a context that holds a lambda made by `Z3_mk_lambda_const`
        // (UNREACHABLE at ast.cpp:432, or SIGSEGV, in `Z3_del_context`; 5.4.1 deletes it),
        // so the reproducer of a passing trace with a lambda crashes at its end: listed, not
        // run, on that release.
        if want == Outcome::Pass
            && text.contains("quant_rebuild \"Z3_mk_lambda")
            && untrace::z3_version().starts_with("4.8.")
            && z3.name == "linked"
        {
            eprintln!("{name}: not run: Z3 4.8.12 crashes deleting a context with a lambda");
            continue;
        }
        // A finding whose failing check (the trace's last call) the writers do not express
        // (the RCF and algebraic intervals, a relation's axioms on the model) has a
        // reproducer that cannot fail. Listed, not run.
        let last_call = text
            .lines()
            .rfind(|l| !l.starts_with("return") && !l.starts_with(';') && !l.is_empty())
            .and_then(|l| l.split_whitespace().next())
            .unwrap_or_default();
        let unexpressed_check = format!("`{last_call}`: ");
        if want != Outcome::Pass
            && unexpressed
                .iter()
                .any(|u| u.starts_with(&unexpressed_check) && u.contains("not expressed"))
        {
            eprintln!("{name}: not run: its failing check is not expressed in reproducers");
            continue;
        }
        emit(z3, "python", &py, trace);
        c_lengths.push(std::fs::read_to_string(&c).unwrap().lines().count());
        compile(z3, &c, &binary);
        let (got, last) = run_reproducer(&binary, &[], dir.path(), limit);
        let entry = table.entry((want, "c")).or_default();
        entry.1 += 1;
        if got == want {
            entry.0 += 1;
        } else {
            failures.push(format!("{name}.c: expected {want:?}, got {got:?} ({last})"));
        }
        if let Some(python) = &z3.python {
            let (got, last) = run_reproducer(python, &[&py], dir.path(), limit);
            let entry = table.entry((want, "python")).or_default();
            entry.1 += 1;
            if got == want {
                entry.0 += 1;
            } else {
                failures.push(format!(
                    "{name}.py: expected {want:?}, got {got:?} ({last})"
                ));
            }
        }
    }
    c_lengths.sort_unstable();
    eprintln!(
        "reproducers on the {} Z3 (reproduced / total, by finding kind):",
        z3.name
    );
    for ((kind, writer), (ok, n)) in &table {
        eprintln!("  {writer:<7} {kind:?}: {ok}/{n}");
    }
    eprintln!(
        "  median C reproducer: {} lines",
        c_lengths[c_lengths.len() / 2]
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn regress_reproducers_fail_as_their_traces_do() {
    let traces = traces_in(&repo_root().join("traces/regress"));
    check_corpus(&system_z3(), &traces, expected_regress);
}

#[test]
fn passing_traces_give_reproducers_that_exit_0() {
    let traces = traces_in(&repo_root().join("traces"));
    check_corpus(&system_z3(), &traces, |_| Outcome::Pass);
}

#[test]
#[cfg_attr(
    no_other_z3,
    ignore = "no second Z3 (.ci/install-deps or Z3_TEST_OTHER_LIB)"
)]
fn differential_reproducers_fail_on_the_second_z3() {
    let Some(lib) = other_z3("differential_reproducers_fail_on_the_second_z3") else {
        return;
    };
    let traces = traces_in(&repo_root().join("traces/differential"));
    check_corpus(&wheel_z3(lib), &traces, expected_differential);
}

/// The Z3 API log reproducer of every regress trace replays (`untrace`, through the z3log
/// crate, reads it: never exit 3), and those of crashes and hangs crash and hang again; a log
/// has no checks, so the other findings are not reproduced by it (counted in the table). Where
/// the `z3` binary of the same release is on PATH, `z3 -log` replays the crash too.
#[test]
fn z3_log_reproducers_replay_to_the_crash() {
    let dir = tempfile::tempdir().expect("a private temporary folder");
    let z3 = system_z3();
    let z3_binary = e2e::on_path("z3")
        && Command::new("z3").arg("--version").output().is_ok_and(|o| {
            untrace::z3_version().starts_with(
                String::from_utf8_lossy(&o.stdout)
                    .split_whitespace()
                    .nth(2)
                    .unwrap_or("?"),
            )
        });
    let (mut reproduced, mut total) = (0, 0);
    for trace in traces_in(&repo_root().join("traces/regress")) {
        let text = std::fs::read_to_string(&trace).unwrap();
        let want = expected_regress(&text);
        let name = trace.file_stem().unwrap().to_string_lossy().to_string();
        let log = dir.path().join(format!("{name}.log"));
        emit(&z3, "z3log", &log, &trace);
        assert!(std::fs::read_to_string(&log).unwrap().starts_with("V \""));
        let out = command(
            "untrace",
            &["--timeout".as_ref(), "10".as_ref(), log.as_os_str()],
            &[],
        )
        .output()
        .unwrap();
        let code = out.status.code();
        assert_ne!(
            code,
            Some(3),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        total += 1;
        let got = match code {
            Some(6) => Outcome::Crash,
            Some(7) => Outcome::Timeout,
            _ => Outcome::Pass,
        };
        if matches!(want, Outcome::Crash | Outcome::Timeout) {
            assert_eq!(
                got,
                want,
                "{name}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        if got == want {
            reproduced += 1;
        }
        if z3_binary && want == Outcome::Crash && !text.contains("exit 0 in") {
            let (ran, _) = run_reproducer(
                Path::new("z3"),
                &[Path::new("-log"), &log],
                dir.path(),
                Duration::from_secs(30),
            );
            assert_eq!(ran, Outcome::Crash, "{name}: z3 -log");
        }
    }
    eprintln!("z3log reproducers: {reproduced}/{total} regress findings (the crashes and hangs)");
}

/// The Z3 API logs of `traces/logs/` as C and Python reproducers: each ends as `untrace`'s
/// replay of the log does (a crash, a hang, or no failure), on the Z3 that wrote it; a log
/// with calls the writers leave out (out-arrays: `coverage`) is listed and not run.
#[test]
fn log_reproducers_end_as_their_replays_do() {
    let logs_dir = repo_root().join("traces/logs");
    let mut logs: Vec<PathBuf> = std::fs::read_dir(&logs_dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "log"))
        .collect();
    logs.sort();
    let system = system_z3();
    let second = e2e::find_other_z3().map(wheel_z3);
    let dir = tempfile::tempdir().expect("a private temporary folder");
    let mut failures = Vec::new();
    let mut ran = 0;
    for log in &logs {
        let name = log.file_stem().unwrap().to_string_lossy().to_string();
        let z3 = if name.ends_with("-4.8.12") || name.ends_with("_c-4.8.12") {
            &system
        } else if let Some(second) = second.as_ref().filter(|_| name.ends_with("-5.4.1")) {
            second
        } else {
            eprintln!("{name}: not run: no Z3 of its release here");
            continue;
        };
        let c = dir.path().join(format!("{name}.c"));
        let unexpressed = emit(z3, "c", &c, log);
        if !unexpressed.is_empty() {
            eprintln!(
                "{name}: not run: {} calls not expressed, e.g. {}",
                unexpressed.len(),
                unexpressed[0]
            );
            continue;
        }
        // A log of a hang (its name says so) is cut after a few seconds on both sides; the
        // others get time enough for a loaded machine.
        let hang = name.contains("hang");
        let seconds = if hang { "5" } else { "120" };
        let mut args: Vec<&std::ffi::OsStr> = vec!["--timeout".as_ref(), seconds.as_ref()];
        if let Some(lib) = &z3.z3_lib {
            args.extend(["--z3-lib".as_ref(), lib.as_os_str()]);
        }
        args.push(log.as_os_str());
        let replayed = command("untrace", &args, &[]).output().unwrap();
        let want = match replayed.status.code() {
            Some(0) => Outcome::Pass,
            Some(7) => Outcome::Timeout,
            _ => Outcome::Crash,
        };
        let binary = dir.path().join(&name);
        compile(z3, &c, &binary);
        let limit = Duration::from_secs(if hang { 10 } else { 120 });
        let (got, last) = run_reproducer(&binary, &[], dir.path(), limit);
        if got != want {
            failures.push(format!("{name}.c: expected {want:?}, got {got:?} ({last})"));
        }
        if let Some(python) = &z3.python {
            let py = dir.path().join(format!("{name}.py"));
            emit(z3, "python", &py, log);
            let (got, last) = run_reproducer(python, &[&py], dir.path(), limit);
            if got != want {
                failures.push(format!(
                    "{name}.py: expected {want:?}, got {got:?} ({last})"
                ));
            }
        }
        ran += 1;
    }
    assert!(ran > 0, "no log ran");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn emit_refuses_to_overwrite_its_input_and_unknown_formats() {
    let dir = tempfile::tempdir().expect("a private temporary folder");
    let trace = dir.path().join("t.trace");
    std::fs::copy(repo_root().join("traces/uf.trace"), &trace).unwrap();
    let before = std::fs::read(&trace).unwrap();
    let out = command(
        "untrace",
        &[
            "--emit".as_ref(),
            "c".as_ref(),
            trace.as_os_str(),
            trace.as_os_str(),
        ],
        &[],
    )
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read(&trace).unwrap(), before);
    let other = dir.path().join("out.x");
    let out = command(
        "untrace",
        &[
            "--emit".as_ref(),
            "java".as_ref(),
            other.as_os_str(),
            trace.as_os_str(),
        ],
        &[],
    )
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown format"));
    assert!(!other.exists());
}
