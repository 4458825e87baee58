//! End-to-end tests of the `ddsmt` binary with small shell scripts (run as files through an
//! argument vector) and, when installed, real solvers (z3, cvc5).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_ddsmt");

fn here(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(rel)
}

fn script(name: &str) -> String {
    here(&format!("scripts/{name}")).display().to_string()
}

/// A private directory with a copy of `input` as in.smt2.
struct Work {
    dir: tempfile::TempDir,
}

impl Work {
    fn new(input: &str) -> Work {
        let dir = tempfile::tempdir().unwrap();
        std::fs::copy(here(&format!("inputs/{input}")), dir.path().join("in.smt2")).unwrap();
        Work { dir }
    }
    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
    fn input(&self) -> String {
        std::fs::read_to_string(self.path("in.smt2")).unwrap()
    }
    fn output(&self) -> String {
        std::fs::read_to_string(self.path("out.smt2")).unwrap()
    }
    /// Run `ddsmt OPTIONS in.smt2 out.smt2 CMD...`.
    fn ddsmt(&self, options: &[&str], cmd: &[&str]) -> Output {
        Command::new(BIN)
            .args(options)
            .arg(self.path("in.smt2"))
            .arg(self.path("out.smt2"))
            .args(cmd)
            .output()
            .unwrap()
    }
}

fn code(out: &Output) -> i32 {
    out.status.code().unwrap_or(-1)
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Exit code of `cmd FILE`.
fn exit_of(cmd: &[&str], file: &Path) -> Option<i32> {
    Command::new(cmd[0])
        .args(&cmd[1..])
        .arg(file)
        .output()
        .unwrap()
        .status
        .code()
}

fn parses(text: &str) -> bool {
    smtlib::Tree::parse(text).is_ok()
}

#[test]
fn reduces_with_exit_code_and_output_matching() {
    let w = Work::new("lia.smt2");
    let cmd = [script("grep_exit.sh"), "get-value".into()];
    let cmd: Vec<&str> = cmd.iter().map(String::as_str).collect();
    let out = w.ddsmt(&["-j", "2"], &cmd);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let result = w.output();
    assert!(result.contains("get-value"), "{result}");
    assert!(result.len() < w.input().len() / 3, "{result}");
    assert!(parses(&result));
    assert_eq!(exit_of(&cmd, &w.path("out.smt2")), Some(1));
    // The summary names the ddmin pass.
    assert!(stderr(&out).contains("ddmin-commands"), "{}", stderr(&out));
}

/// Runs noisy.sh (size-dependent output on `channel`) with `options`; returns whether
/// anything was reduced.
fn noisy_reduces(channel: &str, options: &[&str]) -> bool {
    let w = Work::new("lia.smt2");
    let s = script("noisy.sh");
    let out = w.ddsmt(options, &[&s, "get-value", channel]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let result = w.output();
    assert!(result.contains("get-value"));
    result != w.input()
}

#[test]
fn default_matching_compares_both_channels_exactly() {
    assert!(!noisy_reduces("out", &[]));
    assert!(!noisy_reduces("err", &[]));
}

#[test]
fn ignore_output_compares_only_the_exit_code() {
    assert!(noisy_reduces("both", &["--ignore-output"]));
}

#[test]
fn ignore_out_and_ignore_err_drop_one_channel() {
    assert!(noisy_reduces("out", &["--ignore-out"]));
    assert!(!noisy_reduces("err", &["--ignore-out"]));
    assert!(noisy_reduces("err", &["--ignore-err"]));
    assert!(!noisy_reduces("out", &["--ignore-err"]));
}

#[test]
fn match_out_and_match_err_look_for_substrings() {
    assert!(noisy_reduces("out", &["--match-out", "found get-value"]));
    assert!(noisy_reduces("err", &["--match-err", "found get-value"]));
    // A substring that never occurs: nothing matches, nothing is reduced.
    assert!(!noisy_reduces("out", &["--match-out", "no such text"]));
    // --match-out does not relax stderr.
    assert!(!noisy_reduces("err", &["--match-out", "constant"]));
}

#[test]
fn cross_check_must_hold_too() {
    let w = Work::new("lia.smt2");
    let g = script("grep_exit.sh");
    // Main property: get-value; cross-check: the declaration of y must stay.
    let cc = format!("{g} declare-fun.y");
    let out = w.ddsmt(&["-c", &cc, "--ignore-output-cc"], &[&g, "get-value"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let result = w.output();
    assert!(
        result.contains("get-value") && result.contains("declare-fun y"),
        "{result}"
    );
    assert!(result.len() < w.input().len());
    // --match-out-cc with a string the cross-check never prints: nothing passes.
    let out = w.ddsmt(&["-c", &cc, "--match-out-cc", "never"], &[&g, "get-value"]);
    assert_eq!(code(&out), 0);
    assert_eq!(w.output(), w.input());
}

#[test]
fn hanging_candidates_time_out() {
    let w = Work::new("lia.smt2");
    let h = script("hang.sh");
    let out = w.ddsmt(&["--timeout", "0.3", "-j", "2"], &[&h]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let result = w.output();
    assert!(
        result.contains("check-sat") && result.contains("get-value"),
        "{result}"
    );
    assert!(result.len() < w.input().len());
}

#[test]
fn golden_timeout_means_keep_hanging() {
    let w = Work::new("lia.smt2");
    let out = w.ddsmt(
        &["--timeout", "0.2", "-j", "2"],
        &[&script("always_hang.sh")],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // Every candidate hangs as well, so everything can go.
    assert_eq!(w.output().trim(), "");
}

#[test]
fn crashing_command_keeps_the_signal() {
    for sig in ["SEGV", "ABRT"] {
        let w = Work::new("lia.smt2");
        let c = script("crash.sh");
        let out = w.ddsmt(&["-v"], &[&c, sig]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        assert!(
            stderr(&out).contains("golden exit: signal"),
            "{}",
            stderr(&out)
        );
        let result = w.output();
        assert!(result.contains("get-value"), "{result}");
        assert!(result.len() < w.input().len() / 3, "{result}");
    }
}

#[test]
fn missing_command_is_a_one_line_error() {
    let w = Work::new("lia.smt2");
    let out = w.ddsmt(&[], &["/nonexistent/solver-binary", "--flag"]);
    assert_eq!(code(&out), 3);
    let err = stderr(&out);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("cannot run command '/nonexistent/solver-binary'"),
        "{err}"
    );
}

#[test]
fn bad_input_and_bad_options() {
    let w = Work::new("lia.smt2");
    std::fs::write(w.path("in.smt2"), "(assert (> x 0)\n(check-sat").unwrap();
    let out = w.ddsmt(&[], &["true"]);
    assert_eq!(code(&out), 1);
    let err = stderr(&out);
    assert!(err.contains("in.smt2:"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    let out = w.ddsmt(&["--strategy", "fastest"], &["true"]);
    assert_eq!(code(&out), 2);
    let missing = Command::new(BIN)
        .args(["nope.smt2", "out.smt2", "true"])
        .output()
        .unwrap();
    assert_eq!(code(&missing), 1);
}

#[test]
fn same_output_for_one_and_two_jobs() {
    let mut outputs = Vec::new();
    for jobs in ["1", "2"] {
        for strategy in ["hybrid", "ddmin"] {
            let w = Work::new("many.smt2");
            let g = script("grep_exit.sh");
            let out = w.ddsmt(
                &["-j", jobs, "--strategy", strategy],
                &[&g, "get-value", "v1 "],
            );
            assert_eq!(code(&out), 0, "{}", stderr(&out));
            outputs.push((strategy, w.output()));
        }
    }
    assert_eq!(outputs[0], outputs[2]);
    assert_eq!(outputs[1], outputs[3]);
    assert!(outputs[0].1.contains("get-value"));
}

#[test]
fn ctrl_c_leaves_a_valid_reproducing_output() {
    let w = Work::new("many.smt2");
    let s = script("slow_grep.sh");
    let child = Command::new(BIN)
        .args(["-j", "1"])
        .arg(w.path("in.smt2"))
        .arg(w.path("out.smt2"))
        .arg(&s)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the golden run is done (the output file exists) and a few checks ran.
    for _ in 0..200 {
        if w.path("out.smt2").exists() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    std::thread::sleep(std::time::Duration::from_millis(1200));
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(code(&out), 130, "{}", stderr(&out));
    assert!(stderr(&out).contains("holds the best result so far"));
    let result = w.output();
    assert!(parses(&result), "{result}");
    assert_eq!(exit_of(&[&s], &w.path("out.smt2")), Some(1));
    // No temporary output files are left behind.
    let leftovers: Vec<_> = std::fs::read_dir(w.dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with(".ddsmt-out-"))
        .collect();
    assert!(leftovers.is_empty());
}

#[test]
fn parser_test_unchecked_version_help() {
    let w = Work::new("lia.smt2");
    let out = w.ddsmt(&["--parser-test"], &["/nonexistent"]);
    assert_eq!(code(&out), 0);
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(printed.contains("(assert (> x 0))") && !printed.contains("; a small"));
    // --unchecked accepts every candidate without running the command (which does not exist
    // as a check would need it; the golden run uses `true`).
    let out = w.ddsmt(&["--unchecked"], &["true"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(w.output().trim(), "");
    let v = Command::new(BIN).arg("--version").output().unwrap();
    assert!(String::from_utf8_lossy(&v.stdout).starts_with("ddsmt "));
    let h = Command::new(BIN).arg("--help").output().unwrap();
    let help = String::from_utf8_lossy(&h.stdout);
    assert!(help.contains("Exit codes:") && help.contains("130"));
    assert!(help.contains("--no-core") && help.contains("--strategy"));
    for m in ddsmt::mutators::registry() {
        assert!(help.contains(&format!("--no-{}", m.name())), "{}", m.name());
    }
}

#[test]
fn pretty_print_and_wrap_lines_shape_the_output() {
    let w = Work::new("lia.smt2");
    let g = script("grep_exit.sh");
    let out = w.ddsmt(&["--pretty-print", "--disable-all"], &[&g, "distinct"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(parses(&w.output()));
    let out = w.ddsmt(&["--wrap-lines", "--disable-all"], &[&g, "distinct"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(w.output().lines().all(|l| l.len() <= 80));
}

/// Skips (with a message) when `solver` is not installed.
fn have(solver: &str) -> bool {
    let ok = Command::new(solver).arg("--version").output().is_ok();
    if !ok {
        eprintln!("SKIPPED: '{solver}' is not installed (apt-get install {solver})");
    }
    ok
}

#[test]
fn z3_unsat_answer_is_kept() {
    if !have("z3") {
        return;
    }
    let w = Work::new("unsat.smt2");
    let out = w.ddsmt(&["-j", "2"], &["z3"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let result = w.output();
    assert!(result.len() < w.input().len(), "{result}");
    let z3 = Command::new("z3").arg(w.path("out.smt2")).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&z3.stdout), "unsat\n");
}

#[test]
fn z3_and_cvc5_agree() {
    if !have("z3") || !have("cvc5") {
        return;
    }
    let w = Work::new("unsat.smt2");
    let out = w.ddsmt(&["-j", "2", "-c", "cvc5 --lang smt2"], &["z3"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    for solver in [vec!["z3"], vec!["cvc5", "--lang", "smt2"]] {
        let o = Command::new(solver[0])
            .args(&solver[1..])
            .arg(w.path("out.smt2"))
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&o.stdout), "unsat\n", "{solver:?}");
    }
}

#[test]
fn memout_limits_each_run() {
    let have_python = Command::new("python3").arg("--version").output().is_ok();
    if !have_python {
        eprintln!("SKIPPED: python3 is not installed");
        return;
    }
    // One command: the golden run plus a single check per reduction.
    let w = Work::new("one.smt2");
    let a = script("alloc.sh");
    let unlimited = w.ddsmt(&["-v", "--disable-all"], &[&a]);
    assert_eq!(code(&unlimited), 0, "{}", stderr(&unlimited));
    assert!(
        stderr(&unlimited).contains("golden out:\nallocated"),
        "{}",
        stderr(&unlimited)
    );
    let limited = w.ddsmt(&["-v", "--disable-all", "--memout", "100"], &[&a]);
    assert_eq!(code(&limited), 0, "{}", stderr(&limited));
    assert!(
        !stderr(&limited).contains("allocated"),
        "{}",
        stderr(&limited)
    );
    assert!(w.output().contains("get-value"));
}

#[test]
fn replace_by_variable_mode_picks_larger_or_smaller_names() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.smt2");
    std::fs::write(
        &input,
        "(declare-const a Int)\n(declare-const zz Int)\n(assert (> (+ a zz) 0))\n",
    )
    .unwrap();
    let reduce = |mode: &str| {
        let out_path = dir.path().join(format!("out-{mode}.smt2"));
        let out = Command::new(BIN)
            .args(["-q", "--disable-all", "--replace-by-variable"])
            .args(["--replace-by-variable-mode", mode])
            .arg(&input)
            .arg(&out_path)
            .args([script("grep_exit.sh").as_str(), "assert"])
            .output()
            .unwrap();
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        std::fs::read_to_string(out_path).unwrap()
    };
    // The sum goes first (a term is replaced by any variable of its sort), then the mode
    // decides which of the two names may stand for the other.
    assert!(reduce("inc").contains("(assert (> zz 0))"));
    assert!(reduce("dec").contains("(assert (> a 0))"));
}

/// `ddsmt A A`, a symlink to the input as output and a missing output directory are refused
/// before the golden run (the command, which leaves a marker file, never runs), and the input is
/// left as it was.
#[test]
fn output_is_checked_before_the_golden_run() {
    let w = Work::new("lia.smt2");
    let before = w.input();
    let marker = w.path("golden-ran");
    let touch = format!("touch '{}'", marker.display());
    let link = w.path("link.smt2");
    std::os::unix::fs::symlink(w.path("in.smt2"), &link).unwrap();
    let missing = w.path("no-such-dir").join("out.smt2");
    for (output, expected) in [
        (w.path("in.smt2"), "refusing to overwrite the input"),
        (link.clone(), "refusing to overwrite the input"),
        (missing, "does not exist"),
    ] {
        let out = Command::new(BIN)
            .arg(w.path("in.smt2"))
            .arg(&output)
            .args(["sh", "-c", &touch])
            .output()
            .unwrap();
        assert_ne!(code(&out), 0, "{}", stderr(&out));
        assert!(stderr(&out).contains(expected), "{}", stderr(&out));
        assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
        assert!(!marker.exists(), "the golden run must not start");
        assert_eq!(w.input(), before);
    }
}

/// SIGKILL of ddsmt during a check leaves no command running: the check dies with it
/// (parent-death signal).
#[test]
fn killing_ddsmt_kills_its_checks() {
    let w = Work::new("lia.smt2");
    let pid_file = w.path("check.pid");
    let record = format!("echo $$ > '{}'; exec sleep 30", pid_file.display());
    let mut child = Command::new(BIN)
        .arg(w.path("in.smt2"))
        .arg(w.path("out.smt2"))
        .args(["sh", "-c", &record])
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut pid = None;
    for _ in 0..500 {
        if let Some(p) = std::fs::read_to_string(&pid_file)
            .ok()
            .and_then(|t| t.trim().parse::<i32>().ok())
        {
            pid = Some(p);
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let pid = pid.expect("the golden run started");
    child.kill().unwrap();
    child.wait().unwrap();
    let mut alive = true;
    for _ in 0..500 {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Err(_) => alive = false,
            Ok(stat) => {
                alive = !stat[stat.rfind(')').unwrap() + 1..]
                    .trim_start()
                    .starts_with('Z')
            }
        }
        if !alive {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(!alive, "check {pid} outlived a SIGKILLed ddsmt");
}

/// With the default limits (CPU time, not wall clock) a real solver gives the same output for
/// `-j 1` and `-j 2`, on several inputs.
#[test]
fn z3_default_limits_same_output_for_one_and_two_jobs() {
    if !have("z3") {
        return;
    }
    for input in ["unsat.smt2", "lia.smt2"] {
        let outputs: Vec<String> = ["1", "2"]
            .iter()
            .map(|jobs| {
                let w = Work::new(input);
                let out = w.ddsmt(&["-j", jobs], &["z3"]);
                assert_eq!(code(&out), 0, "{}", stderr(&out));
                w.output()
            })
            .collect();
        assert_eq!(outputs[0], outputs[1], "{input}");
    }
}

/// Ctrl-C during the golden run: exit 130, no output file, and the message says so.
#[test]
fn an_early_ctrl_c_says_no_output_was_written() {
    let w = Work::new("lia.smt2");
    let pid_file = w.path("golden.pid");
    let record = format!("echo $$ > '{}'; exec sleep 30", pid_file.display());
    let child = Command::new(BIN)
        .arg(w.path("in.smt2"))
        .arg(w.path("out.smt2"))
        .args(["sh", "-c", &record])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    for _ in 0..500 {
        if std::fs::read_to_string(&pid_file).is_ok_and(|t| t.ends_with('\n')) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(code(&out), 130, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no output was written"),
        "{}",
        stderr(&out)
    );
    assert!(!w.path("out.smt2").exists());
}

/// With stderr a pipe (a CI log), a status line every --status-interval: UTC time, checks
/// and their rate, size against the input, reduction; `--json` records the run and every
/// figure. `-q` prints nothing at all.
#[test]
fn status_lines_in_a_log_and_the_json_result() {
    let w = Work::new("lia.smt2");
    let s = script("slow_grep.sh");
    let json = w.path("result.json");
    let json_arg = json.display().to_string();
    let options = ["-j", "1", "--status-interval", "0.3", "--json", &json_arg];
    let out = w.ddsmt(&options, &[&s]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let err = stderr(&out);
    let lines: Vec<&str> = err
        .lines()
        .filter(|l| progress::is_status_line(l, "ddsmt"))
        .collect();
    assert!(!lines.is_empty(), "no status line:\n{err}");
    let last = lines.last().unwrap();
    assert!(
        last.contains("elapsed")
            && last.contains("checks")
            && last.contains("/s")
            && last.contains("% reduced"),
        "{last}"
    );
    let result: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(result["schema_version"], 1);
    assert_eq!(result["tool"], "ddsmt");
    assert_eq!(result["tool_version"], env!("CARGO_PKG_VERSION"));
    for time in ["start_time", "end_time"] {
        let t = result[time].as_str().unwrap();
        assert!(t.ends_with('Z') && t.len() == 20, "{time}: {t}");
    }
    assert!(result["argv"][0].as_str().unwrap().ends_with("ddsmt"));
    assert!(result["argv"]
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a == "--json"));
    assert!(!result["host"].as_str().unwrap().is_empty());
    assert_eq!(result["command"], serde_json::json!([s]));
    let input = w.input().len() as u64;
    let output = w.output().len() as u64;
    assert_eq!(result["input_size"], input);
    assert_eq!(result["output_size"], output);
    assert!(output < input);
    let checks = result["checks"].as_u64().unwrap();
    assert!(checks > 0 && result["accepted"].as_u64().unwrap() > 0);
    assert_eq!(result["timeouts"], 0);
    assert!(result["cache_hits"].is_u64() && result["cpu_seconds"].is_f64());
    assert!(result["wall_seconds"].as_f64().unwrap() > 0.2);
    let passes = result["passes"].as_array().unwrap();
    let pass_checks: u64 = passes.iter().map(|p| p["checks"].as_u64().unwrap()).sum();
    assert_eq!(pass_checks, checks, "{passes:?}");
    assert_eq!(result["interrupted"], false);

    // The result never goes over the output or the input.
    let out_arg = w.path("out.smt2").display().to_string();
    let in_arg = w.path("in.smt2").display().to_string();
    for (path, says) in [
        (&out_arg, "names the output file"),
        (&in_arg, "is the input"),
    ] {
        let out = w.ddsmt(&["--json", path], &[&s]);
        assert_eq!(code(&out), 2, "{}", stderr(&out));
        assert!(stderr(&out).contains(says), "{}", stderr(&out));
    }

    // -q: no status line, no summary.
    let w = Work::new("lia.smt2");
    let out = w.ddsmt(&["-q", "-j", "1", "--status-interval", "0.1"], &[&s]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stderr(&out), "", "-q printed something");
}

/// A check killed at its time limit is counted in the JSON result.
#[test]
fn json_counts_timeouts() {
    let w = Work::new("lia.smt2");
    let h = script("hang.sh");
    let json = w.path("r.json");
    let json_arg = json.display().to_string();
    let out = w.ddsmt(&["--timeout", "0.3", "-j", "2", "--json", &json_arg], &[&h]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let result: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert!(result["timeouts"].as_u64().unwrap() > 0, "{result}");
}

/// Each check runs in a private working directory of its own: a command that writes a file
/// into its working directory never sees another check's file (under -j 2 too) and leaves
/// nothing in the directory ddsmt was started from; relative paths in the command (the
/// program `./check.sh`, the argument `pattern.txt`) still name what they named there.
#[test]
fn checks_run_in_private_working_directories() {
    let w = Work::new("lia.smt2");
    let check = w.path("check.sh");
    std::fs::write(
        &check,
        "#!/bin/sh\n\
         # A scratch file left by another check means the working directory is shared.\n\
         [ -e scratch.txt ] && exit 3\n\
         echo scratch > scratch.txt\n\
         grep -q -f \"$1\" \"$2\" && exit 1\n\
         exit 0\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&check, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(w.path("pattern.txt"), "get-value\n").unwrap();
    let out = Command::new(BIN)
        .current_dir(w.dir.path())
        .args([
            "-j",
            "2",
            "in.smt2",
            "out.smt2",
            "./check.sh",
            "pattern.txt",
        ])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let result = w.output();
    assert!(result.contains("get-value"), "{result}");
    assert!(result.len() < w.input().len() / 3, "{result}");
    let mut left: Vec<String> = std::fs::read_dir(w.dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["check.sh", "in.smt2", "out.smt2", "pattern.txt"]);
}

/// Header commands (`set-logic`, `set-info`, `set-option`) and unused sort declarations go when
/// z3 answers the same without them, with every strategy.
#[test]
fn z3_header_commands_and_unused_sorts_are_removed() {
    if !have("z3") {
        return;
    }
    for strategy in ["hybrid", "hierarchical", "ddmin"] {
        let w = Work::new("headers.smt2");
        let out = w.ddsmt(&["--strategy", strategy], &["z3"]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let result = w.output();
        for gone in ["set-logic", "set-info", "set-option", "declare-sort"] {
            assert!(!result.contains(gone), "{strategy}: {result}");
        }
        let z3 = Command::new("z3").arg(w.path("out.smt2")).output().unwrap();
        assert_eq!(String::from_utf8_lossy(&z3.stdout), "unsat\n");
    }
}
