//! End-to-end tests of the `mbt` binary: campaigns in forked rounds, determinism, replay of
//! every kept trace, failure injection, shards and merge, and the campaign's hygiene: nothing
//! left behind, clean stops on signals, output folders never mixed, exit codes, known
//! failures, complete failure reports.

use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn mbt() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_mbt"));
    c.env_remove("MBT_INJECT");
    c
}

/// Runs a campaign that must finish: exit 0 (nothing new) or 1 (something new; Z3 4.8.12 has
/// bugs that a few rounds find).
fn run(cmd: &mut Command) -> Output {
    let out = cmd.output().expect("mbt runs");
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "mbt failed: {}\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn summary_of(out: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(out.join("summary.json")).unwrap()).unwrap()
}

fn campaign(out: &Path, seed: u64, rounds: u64, extra: &[&str]) -> Value {
    let mut cmd = mbt();
    cmd.args([
        "--seed",
        &seed.to_string(),
        "--rounds",
        &rounds.to_string(),
        "--jobs",
        "2",
        "-q",
        "--out",
    ])
    .arg(out)
    .args(extra);
    let stdout = String::from_utf8(run(&mut cmd).stdout).unwrap();
    assert!(stdout.contains("rounds/s"), "no throughput line:\n{stdout}");
    serde_json::from_str(&fs::read_to_string(out.join("summary.json")).unwrap()).unwrap()
}

fn traces(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    v.sort();
    v
}

fn call_lines(trace: &Path) -> usize {
    fs::read_to_string(trace)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("return") && !l.starts_with(';') && !l.starts_with("z3-trace"))
        .count()
}

#[test]
fn same_seed_gives_byte_identical_traces_and_a_single_round_reruns() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let sa = campaign(&a, 500, 12, &["--keep-all"]);
    let sb = campaign(&b, 500, 12, &["--keep-all"]);
    assert_eq!(sa["rounds"], 12);
    // A round cut at its time limit ends where the clock found it (a loaded machine cuts it
    // earlier): those are compared by seed only.
    let cut: Vec<String> = [&sa, &sb]
        .iter()
        .flat_map(|s| s["timeout_seeds"].as_array().cloned().unwrap_or_default())
        .map(|seed| format!("seed-{seed}.trace"))
        .collect();
    let (ta, tb) = (traces(&a.join("traces")), traces(&b.join("traces")));
    assert_eq!(ta.len(), 12);
    assert!(cut.len() <= 4, "rounds cut at their limit: {cut:?}");
    for (x, y) in ta.iter().zip(&tb) {
        assert_eq!(x.file_name(), y.file_name());
        if cut
            .iter()
            .any(|c| x.file_name().is_some_and(|n| n == c.as_str()))
        {
            continue;
        }
        assert!(
            fs::read(x).unwrap() == fs::read(y).unwrap(),
            "{} differs",
            x.display()
        );
    }
    // `--seed S --rounds 1` reruns round S of the campaign.
    campaign(&c, 507, 1, &["--keep-all"]);
    let single = c.join("traces/seed-507.trace");
    assert_eq!(
        fs::read(single).unwrap(),
        fs::read(a.join("traces/seed-507.trace")).unwrap()
    );
}

#[test]
fn every_kept_trace_of_200_rounds_replays_with_matching_results() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let summary = campaign(&out, 1, 200, &["--keep-all"]);
    assert_eq!(summary["rounds"], 200);
    assert!(summary["rounds_per_second"].as_f64().unwrap() > 0.0);
    // Rounds that failed, and rounds stopped at their time limit (on a loaded machine; their
    // traces end where the worker was stopped), are no clean rounds.
    let failed: Vec<u64> = ["failed_seeds", "timeout_seeds"]
        .iter()
        .flat_map(|key| summary[key].as_array().unwrap().clone())
        .map(|v| v.as_u64().unwrap())
        .collect();
    let mut replayed = 0;
    for trace in traces(&out.join("traces")) {
        let name = trace.file_name().unwrap().to_string_lossy().to_string();
        let seed: u64 = name
            .trim_start_matches("seed-")
            .trim_end_matches(".trace")
            .parse()
            .unwrap();
        if failed.contains(&seed) {
            continue;
        }
        let status = mbt().arg("replay").arg(&trace).status().unwrap();
        assert!(status.success(), "{name} does not replay: {status}");
        replayed += 1;
    }
    assert!(replayed >= 150, "only {replayed} clean rounds");
}

fn injected(kind: &str, extra: &[&str]) -> (Value, PathBuf, tempfile::TempDir) {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let mut cmd = mbt();
    cmd.env("MBT_INJECT", format!("{kind}@25:11"))
        .args([
            "--seed", "10", "--rounds", "4", "--jobs", "2", "-q", "--out",
        ])
        .arg(&out)
        .args(extra);
    run(&mut cmd);
    let summary: Value =
        serde_json::from_str(&fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    (summary, out, tmp)
}

fn check_injected(summary: &Value, out: &Path, kind: &str) {
    // The campaign went on: all four rounds ran, only the injected one failed with it.
    assert_eq!(summary["rounds"], 4);
    let entry = summary["failure_list"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["seed"] == 11)
        .unwrap_or_else(|| panic!("no failure for the injected round: {summary}"));
    assert_eq!(entry["kind"], kind);
    // The saved trace is complete up to the injected call: the 24 calls before it.
    let dir = out.join("failures").join(entry["id"].as_str().unwrap());
    let trace = dir.join("round.trace");
    assert_eq!(call_lines(&trace), 24);
    assert!(fs::read_to_string(&trace).unwrap().ends_with('\n'));
    let rerun = entry["rerun"].as_str().unwrap();
    assert!(rerun.contains(" --seed 11 --rounds 1 --jobs 1"), "{rerun}");
    let fresh = format!("--out {}", dir.join("rerun").display());
    assert!(rerun.ends_with(&fresh), "{rerun}");
}

#[test]
fn injected_abort_is_a_crash_and_the_campaign_goes_on() {
    let (summary, out, _tmp) = injected("abort", &[]);
    check_injected(&summary, &out, "crash");
}

/// The injected loop runs outside any check (between two calls), where Z3's rlimit bounds
/// nothing: a performance note in the statistics, not a timeout finding.
#[test]
fn injected_loop_outside_a_check_is_counted_but_not_a_finding() {
    let (summary, _out, _tmp) = injected("loop", &["--timeout", "3"]);
    assert_eq!(summary["rounds"], 4);
    assert_eq!(summary["timeouts_not_findings"], 1);
    assert_eq!(summary["timeout_seeds"], serde_json::json!([11]));
    let failures = summary["failure_list"].as_array().unwrap();
    assert!(failures.iter().all(|f| f["kind"] != "timeout"), "{summary}");
}

#[test]
fn injected_allocation_is_a_memout() {
    let (summary, out, _tmp) = injected("alloc", &["--memout", "400", "--timeout", "20"]);
    check_injected(&summary, &out, "memout");
}

/// A worker runs several rounds in a row (`--jobs 1`: seeds 8..13 in one worker): a round in
/// the middle of the batch that dies is the one marked failed (with `failure_kind`; `None`: a
/// timeout outside a check, counted but not a finding), its trace complete up to the injected
/// call, and the rounds after it (in a new worker) run as without the injection.
fn check_injected_mid_batch(kind: &str, failure_kind: Option<&str>, extra: &[&str]) {
    let tmp = tempfile::tempdir().unwrap();
    let run_rounds = |out: &Path, inject: bool| -> Value {
        let mut cmd = mbt();
        if inject {
            cmd.env("MBT_INJECT", format!("{kind}@25:11"));
        }
        cmd.args([
            "--seed",
            "8",
            "--rounds",
            "6",
            "--jobs",
            "1",
            "--keep-all",
            "-q",
        ])
        .arg("--out")
        .arg(out)
        .args(extra);
        run(&mut cmd);
        serde_json::from_str(&fs::read_to_string(out.join("summary.json")).unwrap()).unwrap()
    };
    let (with, without) = (tmp.path().join("with"), tmp.path().join("without"));
    let (summary, clean) = (run_rounds(&with, true), run_rounds(&without, false));
    assert_eq!(summary["rounds"], 6);
    let seeds = |s: &Value| -> Vec<u64> {
        let v = s["failed_seeds"].as_array().unwrap();
        v.iter().map(|x| x.as_u64().unwrap()).collect()
    };
    let mut expected = seeds(&clean);
    expected.retain(|&s| s != 11);
    if let Some(failure_kind) = failure_kind {
        expected.push(11);
        let entry = summary["failure_list"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["seed"] == 11)
            .unwrap_or_else(|| panic!("no failure for the injected round: {summary}"));
        assert_eq!(entry["kind"], failure_kind);
    } else {
        assert_eq!(summary["timeout_seeds"], serde_json::json!([11]));
    }
    expected.sort_unstable();
    assert_eq!(seeds(&summary), expected);
    assert_eq!(call_lines(&with.join("traces/seed-11.trace")), 24);
    for seed in [8, 9, 10, 12, 13] {
        let name = format!("traces/seed-{seed}.trace");
        assert_eq!(
            fs::read(with.join(&name)).unwrap(),
            fs::read(without.join(&name)).unwrap(),
            "{name}"
        );
    }
}

#[test]
fn injected_abort_in_the_middle_of_a_batch_fails_only_its_round() {
    check_injected_mid_batch("abort", Some("crash"), &[]);
}

/// A finding is represented by its lowest seed whatever order the workers finish in, so
/// `--jobs 2` saves the rounds `--jobs 1` saves (a Slurm shard runs a worker per CPU, and the
/// merge must equal one machine's run).
#[test]
fn the_round_saved_for_a_finding_does_not_depend_on_the_jobs() {
    let tmp = tempfile::tempdir().unwrap();
    let saved = |jobs: &str| -> Vec<String> {
        let out = tmp.path().join(format!("jobs-{jobs}"));
        let mut cmd = mbt();
        cmd.args([
            "--seed", "1", "--rounds", "12", "--jobs", jobs, "-q", "--out",
        ])
        .arg(&out)
        .env("UNTRACE_INJECT", "error@push");
        run(&mut cmd);
        let summary = summary_of(&out);
        let mut rows: Vec<String> = summary["failure_list"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                let dir = out.join("failures").join(f["id"].as_str().unwrap());
                let report: Value =
                    serde_json::from_str(&fs::read_to_string(dir.join("failure.json")).unwrap())
                        .unwrap();
                assert_eq!(report["seed"], f["seed"]);
                let trace = fs::read_to_string(dir.join("round.trace")).unwrap();
                let lines = trace.lines().count();
                format!(
                    "{} seed {} count {} lines {lines}",
                    f["signature"], f["seed"], f["count"]
                )
            })
            .collect();
        rows.sort();
        rows
    };
    let one = saved("1");
    assert!(!one.is_empty(), "the injected error is a finding");
    assert_eq!(saved("2"), one);
}

#[test]
fn shards_split_the_seed_space_and_merge() {
    let tmp = tempfile::tempdir().unwrap();
    let (s0, s1, m) = (
        tmp.path().join("s0"),
        tmp.path().join("s1"),
        tmp.path().join("m"),
    );
    campaign(
        &s0,
        100,
        3,
        &["--shard", "0/2", "--keep-all", "--theories", "core,bv"],
    );
    campaign(
        &s1,
        100,
        3,
        &["--shard", "1/2", "--keep-all", "--theories", "core,bv"],
    );
    let names = |d: &Path| -> Vec<String> {
        traces(&d.join("traces"))
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into())
            .collect()
    };
    assert_eq!(
        names(&s0),
        ["seed-100.trace", "seed-102.trace", "seed-104.trace"]
    );
    assert_eq!(
        names(&s1),
        ["seed-101.trace", "seed-103.trace", "seed-105.trace"]
    );
    run(mbt().arg("merge").arg(&m).arg(&s0).arg(&s1));
    let merged: Value =
        serde_json::from_str(&fs::read_to_string(m.join("summary.json")).unwrap()).unwrap();
    assert_eq!(merged["rounds"], 6);
    assert_eq!(names(&m).len(), 6);
    let shards = [summary_of(&s0), summary_of(&s1)];
    // Per-name counts are the sums of the shards' (which names depends on the rounds): the
    // operations tried, and the Z3 functions called (measured against the same libz3).
    let summed = |section: &str, count: fn(&Value) -> Option<u64>| -> Vec<String> {
        let names: Vec<String> = shards
            .iter()
            .flat_map(|s| s[section].as_object().unwrap().keys().cloned())
            .collect();
        for name in &names {
            let of = |s: &Value| count(&s[section][name]).unwrap_or(0);
            let sum = of(&shards[0]) + of(&shards[1]);
            assert_eq!(of(&merged), sum, "{section} {name}");
        }
        names
    };
    let ops = summed("operations", |v| v["tried"].as_u64());
    assert!(!ops.is_empty(), "the rounds tried no operation");
    let functions = summed("z3_functions", Value::as_u64);
    assert!(
        functions.iter().any(|f| f == "Z3_mk_bv_sort"),
        "{functions:?}"
    );
    assert_eq!(merged["api_coverage"], shards[0]["api_coverage"]);
}

#[test]
fn the_summary_counts_the_z3_functions_the_rounds_called() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("c");
    let summary = campaign(&out, 1, 20, &[]);
    let functions = summary["z3_functions"].as_object().unwrap();
    // Counted from Z3's own log: the calls of the trace and the executor's helpers alike.
    for name in [
        "Z3_mk_context_rc",
        "Z3_solver_check",
        "Z3_inc_ref",
        "Z3_mk_const",
    ] {
        assert!(
            functions[name].as_u64().unwrap() > 0,
            "{name}: {functions:?}"
        );
    }
    let basis = &summary["api_coverage"];
    let exported: Vec<&str> = (basis["functions"].as_array().unwrap().iter())
        .map(|f| f.as_str().unwrap())
        .collect();
    assert!(exported.len() > 600, "{}", exported.len());
    let excluded = basis["excluded"].as_array().unwrap();
    assert!(excluded.iter().any(|f| f == "Z3_open_log"));
    let never: Vec<&str> = (summary["api_never_called"].as_array().unwrap().iter())
        .map(|f| f.as_str().unwrap())
        .collect();
    // A short campaign leaves many functions uncalled; each is one the library exports.
    assert!(!never.contains(&"Z3_solver_check") && !never.is_empty());
    assert!(never.iter().all(|f| exported.contains(f)), "{never:?}");
    assert_eq!(
        summary["api_called"].as_u64().unwrap() as usize,
        exported.len() - never.len()
    );
    // The measurement leaves no file behind in the kept rounds.
    let kept = out.join("failures");
    let logs = fs::read_dir(&kept).into_iter().flatten().flatten();
    assert!(logs
        .into_iter()
        .all(|f| !f.path().join("files/z3-api.log").exists()));
    let report = fs::read_to_string(out.join("report.html")).unwrap();
    assert!(report.contains("id=\"api-coverage\""));
}

/// `--no-api-coverage` runs the same rounds without Z3's API log: nothing counted, no
/// coverage section, the same calls.
#[test]
fn without_api_coverage_the_same_rounds_count_no_z3_function() {
    let tmp = tempfile::tempdir().unwrap();
    let (counted, uncounted) = (tmp.path().join("counted"), tmp.path().join("uncounted"));
    let with = campaign(&counted, 3, 6, &[]);
    let without = campaign(&uncounted, 3, 6, &["--no-api-coverage"]);
    assert!(!with["z3_functions"].as_object().unwrap().is_empty());
    assert!(without["z3_functions"].as_object().unwrap().is_empty());
    assert!(
        without["api_coverage"].is_null(),
        "{}",
        without["api_coverage"]
    );
    assert_eq!(without["api_called"], 0);
    assert_eq!(with["calls_per_round"], without["calls_per_round"]);
    assert_eq!(with["failed_seeds"], without["failed_seeds"]);
    let report = fs::read_to_string(uncounted.join("report.html")).unwrap();
    assert!(!report.contains("id=\"api-coverage\""));
}

#[test]
fn injected_loop_in_the_middle_of_a_batch_is_not_a_finding() {
    check_injected_mid_batch("loop", None, &["--timeout", "3"]);
}

#[test]
fn bad_flags_are_usage_errors() {
    let out = mbt()
        .args(["--theories", "nope", "--rounds", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown theory `nope`"));
    let out = mbt()
        .args(["--shard", "2/2", "--rounds", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// `--minimize-kinds` leaves findings of other kinds as the round left them, and says so.
#[test]
fn minimize_kinds_leaves_other_kinds_unminimized() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let mut cmd = mbt();
    cmd.env("MBT_INJECT", "abort@60")
        .env_remove("UNTRACE_FAIL_ON")
        .args(["--seed", "5", "--rounds", "1", "--jobs", "1", "-q"])
        .args(["--minimize", "--minimize-kinds", "model,z3-error", "--out"])
        .arg(&out);
    run(&mut cmd);
    let summary: Value =
        serde_json::from_str(&fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let entry = &summary["failure_list"][0];
    assert_eq!(entry["kind"], "crash", "{summary}");
    assert!(entry["minimized_trace"].is_null(), "{summary}");
    let note = entry["minimize_note"].as_str().unwrap();
    assert!(note.contains("--minimize-kinds"), "{note}");
    let dir = out.join("failures").join(entry["id"].as_str().unwrap());
    assert!(dir.join("round.trace").is_file());
    assert!(!dir.join("min.trace").exists());
}

/// `--minimize` on an injected abort (`MBT_INJECT=abort@K`): mbt's replays then abort at the
/// round's last call (`UNTRACE_FAIL_ON`, test-only), so the minimized trace must still reach
/// that call, and it reproduces with the switch and not without it.
#[test]
fn minimize_stores_a_smaller_trace_that_still_reproduces() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let mut cmd = mbt();
    cmd.env("MBT_INJECT", "abort@60")
        .env_remove("UNTRACE_FAIL_ON")
        .args([
            "--seed",
            "5",
            "--rounds",
            "1",
            "--jobs",
            "1",
            "-q",
            "--minimize",
            "--out",
        ])
        .arg(&out);
    run(&mut cmd);
    let summary: Value =
        serde_json::from_str(&fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let entry = &summary["failure_list"][0];
    assert_eq!(entry["kind"], "crash", "{summary}");
    let dir = out.join("failures").join(entry["id"].as_str().unwrap());
    let original = dir.join("round.trace");
    let minimized = dir.join("min.trace");
    assert!(minimized.is_file(), "no minimized trace: {summary}");
    let (before, after) = (call_lines(&original), call_lines(&minimized));
    assert_eq!(before, 59);
    assert!(after < before, "{after} calls of {before}");
    let last = |p: &Path| {
        fs::read_to_string(p)
            .unwrap()
            .lines()
            .rfind(|l| !l.starts_with("return"))
            .unwrap()
            .to_string()
    };
    let pattern = last(&original);
    assert_eq!(last(&minimized), pattern);
    // failure.json names the command that reproduces it.
    let saved: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("failure.json")).unwrap()).unwrap();
    let command = saved["minimized_replay"].as_str().unwrap();
    assert_eq!(command, entry["minimized_replay"].as_str().unwrap());
    assert!(
        command.ends_with(&format!(" {}", minimized.display())),
        "{command}"
    );
    // The minimized trace aborts on replay (with untrace when it is built beside mbt, else
    // with mbt's replay of the same library) with the switch, and replays cleanly without.
    let untrace = Path::new(env!("CARGO_BIN_EXE_mbt")).with_file_name("untrace");
    let replay = |fail_on: bool| {
        let mut c = if untrace.is_file() {
            Command::new(&untrace)
        } else {
            let mut c = mbt();
            c.arg("replay");
            c
        };
        c.arg("--no-check")
            .arg(&minimized)
            .env_remove("UNTRACE_FAIL_ON");
        if fail_on {
            c.env("UNTRACE_FAIL_ON", &pattern);
        }
        c.output().unwrap().status
    };
    // untrace replays in a child and reports its abort as a crash (exit 6).
    const CRASH: i32 = 6;
    assert_eq!(replay(true).code(), Some(CRASH));
    assert!(replay(false).success());
}

/// The scratch folders that campaign `pid` left in `/dev/shm` or the temporary folder.
fn scratch_folders(pid: u32) -> Vec<PathBuf> {
    let prefix = format!("mbt-rounds-{pid}-");
    let mut found = Vec::new();
    for dir in [Path::new("/dev/shm"), &std::env::temp_dir()] {
        if let Ok(entries) = fs::read_dir(dir) {
            for e in entries.flatten() {
                if e.file_name().to_string_lossy().starts_with(&prefix) {
                    found.push(e.path());
                }
            }
        }
    }
    found
}

/// Rounds run in private folders that go away: the caller's working folder stays empty, and
/// neither `/dev/shm` nor the temporary folder keeps anything of the campaign.
#[test]
fn a_campaign_leaves_nothing_behind() {
    let tmp = tempfile::tempdir().unwrap();
    let (cwd, out, temp) = (
        tmp.path().join("cwd"),
        tmp.path().join("out"),
        tmp.path().join("temp"),
    );
    fs::create_dir_all(&cwd).unwrap();
    fs::create_dir_all(&temp).unwrap();
    let child = mbt()
        .current_dir(&cwd)
        .env("TMPDIR", &temp)
        .args([
            "--seed", "1", "--rounds", "30", "--jobs", "2", "-q", "--out",
        ])
        .arg(&out)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let output = child.wait_with_output().unwrap();
    assert!(matches!(output.status.code(), Some(0 | 1)), "{output:?}");
    let left: Vec<_> = fs::read_dir(&cwd).unwrap().collect();
    assert!(left.is_empty(), "the working folder got {left:?}");
    let left: Vec<_> = fs::read_dir(&temp).unwrap().collect();
    assert!(left.is_empty(), "the temporary folder got {left:?}");
    assert_eq!(scratch_folders(pid), Vec::<PathBuf>::new());
    assert!(!out.join("mbt.lock").exists());
}

/// The parameters that make Z3 write files are never fuzzed.
#[test]
fn parameters_that_write_files_are_listed_as_not_fuzzed() {
    let out = run(mbt().arg("params"));
    let text = String::from_utf8(out.stdout).unwrap();
    let line = text
        .lines()
        .find(|l| l.starts_with("arith.dump_lemmas "))
        .expect("arith.dump_lemmas is listed");
    assert!(line.ends_with("(not fuzzed: writes files)"), "{line}");
}

/// SIGINT or SIGTERM in the middle of a long campaign: the workers are killed, the findings so
/// far written with `"interrupted": true` (and `report.html`), and the exit code is the shell's for the signal.
fn check_stops_on(signal: i32, code: i32) {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let child = mbt()
        .args([
            "--seed",
            "1",
            "--rounds",
            "1000000",
            "--jobs",
            "2",
            "-q",
            "--keep-all",
            "--out",
        ])
        .arg(&out)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    // Signalled once a round has finished (its kept trace shows it), however loaded the
    // machine is.
    e2e::wait_for_a_round(&out);
    // SAFETY: signals our own child, by its id (not yet reaped, so still ours).
    unsafe { libc::kill(pid as libc::pid_t, signal) };
    let started = std::time::Instant::now();
    let output = child.wait_with_output().unwrap();
    assert!(started.elapsed().as_secs() < 5, "stopping took too long");
    assert_eq!(output.status.code(), Some(code), "{output:?}");
    let summary = summary_of(&out);
    assert_eq!(summary["interrupted"], true);
    assert!(summary["rounds"].as_u64().unwrap() > 0, "{summary}");
    // Every finding so far is there, with its folder and matching counts.
    for entry in summary["failure_list"].as_array().unwrap() {
        let dir = out.join("failures").join(entry["id"].as_str().unwrap());
        let saved: Value =
            serde_json::from_str(&fs::read_to_string(dir.join("failure.json")).unwrap()).unwrap();
        assert_eq!(saved["count"], entry["count"]);
    }
    assert!(String::from_utf8_lossy(&output.stdout).contains("interrupted"));
    // The report too, saying so.
    let report = fs::read_to_string(out.join("report.html")).unwrap();
    assert!(report.contains("Interrupted"), "{report}");
    assert_eq!(scratch_folders(pid), Vec::<PathBuf>::new());
    assert!(!out.join("mbt.lock").exists());
}

#[test]
fn sigint_stops_the_campaign_with_a_summary_and_exit_130() {
    check_stops_on(libc::SIGINT, 130);
}

#[test]
fn sigterm_stops_the_campaign_with_a_summary_and_exit_143() {
    check_stops_on(libc::SIGTERM, 143);
}

/// An output folder that holds a campaign, finished or running, is refused with one line and
/// exit 2, and left as it was.
#[test]
fn an_output_folder_with_a_campaign_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    campaign(&out, 1, 2, &[]);
    let before = fs::read(out.join("summary.json")).unwrap();
    let refused = mbt()
        .args(["--seed", "5", "--rounds", "2", "-q", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("already holds a campaign"), "{stderr}");
    assert_eq!(fs::read(out.join("summary.json")).unwrap(), before);
    // A running campaign holds the folder's lock.
    let running = tmp.path().join("running");
    let mut first = mbt()
        .args([
            "--seed", "1", "--rounds", "1000000", "--jobs", "1", "-q", "--out",
        ])
        .arg(&running)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let lock = running.join("mbt.lock");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !lock.exists() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let refused = mbt()
        .args(["--rounds", "1", "-q", "--out"])
        .arg(&running)
        .output()
        .unwrap();
    // SAFETY: signals our own child, by its id.
    unsafe { libc::kill(first.id() as libc::pid_t, libc::SIGINT) };
    assert_eq!(first.wait().unwrap().code(), Some(130));
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("mbt.lock") && stderr.contains("runs there"),
        "{stderr}"
    );
    // The help says so, and that there is no resume.
    let help = run(mbt().arg("--help")).stdout;
    let help = String::from_utf8_lossy(&help);
    assert!(help.contains("no resume"), "{help}");
}

/// One round (seed 11) that aborts before its 25th call; the round finds nothing else.
fn injected_abort_campaign(out: &Path, extra: &[&str]) -> Output {
    mbt()
        .env("MBT_INJECT", "abort@25:11")
        .args([
            "--seed", "11", "--rounds", "1", "--jobs", "1", "-q", "--out",
        ])
        .arg(out)
        .args(extra)
        .output()
        .unwrap()
}

/// Exit 1 when something new was found, 0 when everything found is known: from a file of
/// signatures or from an earlier campaign's folder; the report tells new from known.
#[test]
fn exit_status_counts_only_new_failures() {
    let tmp = tempfile::tempdir().unwrap();
    let first = tmp.path().join("first");
    let output = injected_abort_campaign(&first, &[]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let summary = summary_of(&first);
    let entry = &summary["failure_list"][0];
    let (id, signature) = (
        entry["id"].as_str().unwrap(),
        entry["signature"].as_str().unwrap(),
    );
    assert_eq!(summary["new_failures"], serde_json::json!([id]));
    assert!(String::from_utf8_lossy(&output.stdout).contains("\nnew:\n"));
    // Known from a file of signatures.
    let list = tmp.path().join("known.txt");
    fs::write(&list, format!("# known bugs\n\n{signature}\n")).unwrap();
    let second = tmp.path().join("second");
    let output = injected_abort_campaign(&second, &["--known", list.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let summary = summary_of(&second);
    assert_eq!(summary["known_failures"], serde_json::json!([id]));
    assert_eq!(summary["new_failures"], serde_json::json!([]));
    let saved: Value = serde_json::from_str(
        &fs::read_to_string(second.join("failures").join(id).join("failure.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(saved["known"], true);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("0 new and 1 known") && stdout.contains("\nknown:\n"));
    // Known from the first campaign's folder (its failure.json files).
    let third = tmp.path().join("third");
    let output = injected_abort_campaign(&third, &["--known", first.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    // A folder of traces: a trace whose replay shows no signature is ignored with a warning.
    let traces = tmp.path().join("traces");
    fs::create_dir_all(&traces).unwrap();
    fs::write(
        traces.join("clean.trace"),
        "z3-trace 1\nsort_bool\nreturn s1\n",
    )
    .unwrap();
    let fourth = tmp.path().join("fourth");
    let output = injected_abort_campaign(&fourth, &["--known", traces.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("clean.trace: its replay shows no signature"),
        "{stderr}"
    );
    // A --known that does not exist is a set-up error.
    let output = injected_abort_campaign(&tmp.path().join("fifth"), &["--known", "/nonexistent"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("--known /nonexistent"));
}

/// `--known` with a relative folder of failing traces (as `--known traces/regress` from the
/// repository): each trace is replayed in a private folder, from where the relative path
/// names nothing, so the path must be made absolute first; a case that hangs replays under
/// the `timeout` its header declares.
#[test]
fn known_traces_in_a_relative_folder_give_their_signatures() {
    let tmp = tempfile::tempdir().unwrap();
    let regress = tmp.path().join("regress");
    fs::create_dir_all(&regress).unwrap();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../traces/regress");
    for case in [
        "cube-empty-solver-segfault.trace",
        "fp-uf-rounding-mode-push-hang.trace",
    ] {
        fs::copy(repo.join(case), regress.join(case)).unwrap();
    }
    let output = mbt()
        .current_dir(tmp.path())
        .args([
            "--known", "regress", "--seed", "1", "--rounds", "1", "--jobs", "1",
        ])
        .args(["--out", "out"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("warning"), "{stderr}");
    assert!(stderr.contains(", 2 known signatures,"), "{stderr}");
}

/// `--known` with Z3 API logs: a log is recognized by its content (any name), replayed like a
/// trace, and gives the same signature as the trace of the same bug; files of a folder that
/// are not logs (a README, the programs) are not replayed; one log alone is a `--known` too.
#[test]
fn known_logs_give_the_signatures_of_their_bugs_traces() {
    let tmp = tempfile::tempdir().unwrap();
    let known = tmp.path().join("known");
    fs::create_dir_all(&known).unwrap();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let log = repo.join("traces/logs/cube_empty-4.8.12.log");
    fs::copy(&log, known.join("user-report.txt")).unwrap();
    fs::copy(repo.join("traces/logs/README.md"), known.join("README.md")).unwrap();
    fs::copy(
        repo.join("traces/logs/programs/cube_empty.py"),
        known.join("cube_empty.py"),
    )
    .unwrap();
    fs::copy(
        repo.join("traces/regress/cube-empty-solver-segfault.trace"),
        known.join("cube-empty-solver-segfault.trace"),
    )
    .unwrap();
    let campaign = |known: &Path, out: &str| {
        let output = mbt()
            .args(["--seed", "1", "--rounds", "1", "--jobs", "1", "--known"])
            .arg(known)
            .arg("--out")
            .arg(tmp.path().join(out))
            .output()
            .unwrap();
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let stderr = campaign(&known, "out");
    assert!(!stderr.contains("warning"), "{stderr}");
    // The log and the trace of one bug: one signature.
    assert!(stderr.contains(", 1 known signatures,"), "{stderr}");
    let stderr = campaign(&log, "out-one");
    assert!(stderr.contains(", 1 known signatures,"), "{stderr}");
    // A log whose replay passes names nothing: ignored with a warning.
    let passing = tmp.path().join("passing");
    fs::create_dir_all(&passing).unwrap();
    fs::copy(
        repo.join("traces/logs/probe-5.4.1.log"),
        passing.join("probe"),
    )
    .unwrap();
    let stderr = campaign(&passing, "out-passing");
    assert!(
        stderr.contains("probe: its replay shows no signature (it passes); ignored"),
        "{stderr}"
    );
}

/// failure.json is the report: kind, signature, counts and seeds that agree with the summary,
/// the Z3 version, absolute paths, and commands that work from any folder (the rerun into a
/// fresh folder inside the failure's).
#[test]
fn failure_json_is_a_complete_report_with_final_counts() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    // Every round aborts before its first call: one signature, four rounds.
    let output = mbt()
        .env("MBT_INJECT", "abort@1")
        .args([
            "--seed", "10", "--rounds", "4", "--jobs", "2", "-q", "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let summary = summary_of(&out);
    assert!(summary["z3_version"].as_str().unwrap().starts_with("4."));
    let entries = summary["failure_list"].as_array().unwrap();
    assert_eq!(entries.len(), 1, "{summary}");
    let entry = &entries[0];
    let dir = out.join("failures").join(entry["id"].as_str().unwrap());
    let saved: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("failure.json")).unwrap()).unwrap();
    assert_eq!(&saved, entry);
    assert_eq!(saved["kind"], "crash");
    assert_eq!(saved["count"], 4);
    assert_eq!(
        (saved["first_seed"].as_u64(), saved["last_seed"].as_u64()),
        (Some(10), Some(13))
    );
    assert_eq!(saved["z3_version"], summary["z3_version"]);
    assert!(saved["signature"].as_str().unwrap().starts_with("crash|"));
    assert_eq!(
        saved["trace"].as_str().unwrap(),
        dir.join("round.trace").to_str().unwrap()
    );
    // The commands work from another folder.
    let elsewhere = tmp.path().join("elsewhere");
    fs::create_dir_all(&elsewhere).unwrap();
    let shell = |command: &str| {
        Command::new("sh")
            .arg("-c")
            .arg(command)
            .current_dir(&elsewhere)
            .env_remove("MBT_INJECT")
            .env_remove("UNTRACE_FAIL_ON")
            .output()
            .unwrap()
    };
    let replay = shell(saved["replay"].as_str().unwrap());
    assert!(replay.status.success(), "{replay:?}");
    let rerun = saved["rerun"].as_str().unwrap();
    assert!(rerun.contains("MBT_INJECT=abort@1 "), "{rerun}");
    let rerun = shell(&format!("{rerun} -q"));
    assert_eq!(rerun.status.code(), Some(1), "{rerun:?}");
    let again = summary_of(&dir.join("rerun"));
    assert_eq!(again["failure_list"][0]["signature"], saved["signature"]);
    assert_eq!(again["failed_seeds"], serde_json::json!([saved["seed"]]));
    assert_eq!(fs::read_dir(&elsewhere).unwrap().count(), 0);
}

/// Merging shards adds the counts of one signature, and the merged failure.json agrees with the
/// merged summary and points at the merged folder.
#[test]
fn merge_adds_counts_and_rewrites_the_reports() {
    let tmp = tempfile::tempdir().unwrap();
    let shard = |k: u64| {
        let dir = tmp.path().join(format!("s{k}"));
        let output = mbt()
            .env("MBT_INJECT", "abort@1")
            .args(["--seed", "1", "--rounds", "2", "--jobs", "1", "-q"])
            .arg("--shard")
            .arg(format!("{k}/2"))
            .arg("--out")
            .arg(&dir)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1), "{output:?}");
        dir
    };
    let (s0, s1) = (shard(0), shard(1));
    let merged = tmp.path().join("merged");
    let output = mbt()
        .arg("merge")
        .arg(&merged)
        .arg(&s0)
        .arg(&s1)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let summary = summary_of(&merged);
    let entry = &summary["failure_list"][0];
    assert_eq!(entry["count"], 4);
    assert_eq!(
        (entry["first_seed"].as_u64(), entry["last_seed"].as_u64()),
        (Some(1), Some(4))
    );
    let dir = merged.join("failures").join(entry["id"].as_str().unwrap());
    let saved: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("failure.json")).unwrap()).unwrap();
    assert_eq!(&saved, entry);
    assert_eq!(
        saved["trace"].as_str().unwrap(),
        dir.join("round.trace").to_str().unwrap()
    );
    // Merging into a folder that holds a campaign is refused.
    let output = mbt().arg("merge").arg(&s0).arg(&s1).output().unwrap();
    assert_eq!(output.status.code(), Some(2), "{output:?}");
}

/// A campaign whose stderr is a pipe (as in CI) prints a timestamped status line every
/// --status-interval, with its position, rate and findings; `--time` takes a duration like
/// `2s`; summary.json records schema version, tool, times, command line and host beside the
/// figures; the end prints a short summary, not the tables (those need --stats).
#[test]
fn a_campaign_in_a_log_prints_status_lines_and_records_the_run() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let output = mbt()
        .args(["--seed", "1", "--time", "2s", "--jobs", "1"])
        .args(["--status-interval", "0.5", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(matches!(output.status.code(), Some(0 | 1)), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| progress::is_status_line(l, "mbt"))
        .collect();
    assert!(!lines.is_empty(), "no status line:\n{stderr}");
    // Time mode: seconds of --time, ETA, then rounds, rate, answers and findings.
    assert!(
        lines[0].contains("/2 s (")
            && lines[0].contains("rounds/s")
            && lines[0].contains("findings"),
        "{}",
        lines[0]
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("rounds/s") && stdout.contains("check-sat answers:"),
        "{stdout}"
    );
    assert!(
        stdout.contains("summary.json"),
        "where the results are: {stdout}"
    );
    assert!(
        !stdout.contains("succeeded"),
        "the tables need --stats: {stdout}"
    );
    let summary = summary_of(&out);
    assert_eq!(summary["schema_version"], 1);
    assert_eq!(summary["tool"], "mbt");
    assert_eq!(summary["tool_version"], env!("CARGO_PKG_VERSION"));
    for time in ["start_time", "end_time"] {
        let t = summary[time].as_str().unwrap();
        assert!(t.ends_with('Z') && t.len() == 20, "{time}: {t}");
    }
    assert!(summary["start_time"].as_str() <= summary["end_time"].as_str());
    let argv: Vec<&str> = summary["argv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert!(argv.windows(2).any(|w| w == ["--time", "2s"]), "{argv:?}");
    assert!(!summary["host"].as_str().unwrap().is_empty());
    assert!(summary["z3_version"].as_str().unwrap().starts_with('4'));
    assert!(summary["rounds"].as_u64().unwrap() > 0);
}

/// `-q`: no status line even when one is due every 0.1 s; --stats prints the tables.
#[test]
fn quiet_campaigns_print_no_progress_and_stats_prints_the_tables() {
    let tmp = tempfile::tempdir().unwrap();
    let output = mbt()
        .args([
            "--seed", "1", "--rounds", "3", "--jobs", "1", "-q", "--stats",
        ])
        .args(["--status-interval", "0.1", "--out"])
        .arg(tmp.path().join("out"))
        .output()
        .unwrap();
    assert!(matches!(output.status.code(), Some(0 | 1)), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !stderr.lines().any(|l| progress::is_status_line(l, "mbt")),
        "-q printed progress:\n{stderr}"
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("succeeded") && stdout.contains("rounds/s"),
        "{stdout}"
    );
}

/// `--time` and `--status-interval` take seconds or durations (`1m`, `1h30m`); anything else
/// is a usage error naming the value.
#[test]
fn durations_on_the_command_line() {
    let tmp = tempfile::tempdir().unwrap();
    // The round limit ends it long before the minute.
    run(mbt()
        .args([
            "--seed", "1", "--rounds", "2", "--jobs", "1", "-q", "--time", "1m",
        ])
        .arg("--out")
        .arg(tmp.path().join("a")));
    run(mbt()
        .args([
            "--seed", "1", "--rounds", "2", "--jobs", "1", "-q", "--time", "90",
        ])
        .args(["--status-interval", "1h30m", "--out"])
        .arg(tmp.path().join("b")));
    for bad in ["eight hours", "0", "-5s", "1x"] {
        let out = mbt()
            .arg(format!("--time={bad}"))
            .arg("--out")
            .arg(tmp.path().join("c"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("not a positive duration"),
            "{bad}: {stderr}"
        );
        assert!(
            !tmp.path().join("c").exists(),
            "a usage error creates no folder"
        );
    }
    let help = String::from_utf8(run(mbt().arg("--help")).stdout).unwrap();
    assert!(
        help.contains("1h30m") && help.contains("--status-interval"),
        "{help}"
    );
    assert!(help.contains("Exit codes"), "{help}");
}

#[test]
fn regex_rounds_build_every_regex_operation_and_the_evaluator_judges_them() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let summary = campaign(&out, 1, 40, &["--theories", "regex"]);
    // Rounds that crash (Z3 4.8.12 has such bugs) report no statistics.
    let rounds = summary["rounds"].as_u64().unwrap();
    let regex_rounds = summary["rounds_per_theory"]["regex"].as_u64().unwrap_or(0);
    assert!(
        regex_rounds * 10 >= rounds * 8,
        "{regex_rounds} of {rounds} rounds"
    );
    let ops = &summary["operations"];
    for op in model::ops::OPS
        .iter()
        .filter(|op| op.theory == model::Theory::Regex)
    {
        // str.replace_re makes Z3 answer unknown: the generator keeps it rare.
        if op.name.starts_with("str.replace_re") {
            continue;
        }
        assert!(
            ops[op.name]["ok"].as_u64().unwrap_or(0) > 0,
            "{} never built: {ops}",
            op.name
        );
    }
    let unjudged = summary["unjudged_ops"].as_object().unwrap();
    assert!(
        unjudged.keys().all(|op| model::ops::lookup(op)
            .is_none_or(|spec| spec.theory != model::Theory::Regex)),
        "regex operations the evaluator does not judge: {unjudged:?}"
    );
    let independent = &summary["stats"]["independent"];
    assert!(
        independent["assertions: true"].as_u64().unwrap_or(0) > 0,
        "{independent}"
    );
}

/// A campaign re-executes itself once with huge pages for its heap (`mbt::huge_pages`): the
/// process that runs the rounds started with `glibc.malloc.hugetlb=1` added to the user's
/// tunables (its start environment holds the marker of that; glibc cuts its own variable
/// short there), while every program it starts (here the `--cross-check` solver) sees the
/// environment as the user set it. The script finds the campaign's process among its
/// ancestors, the topmost `mbt`: the solver runs under an `mbt replay`.
#[test]
fn a_campaign_runs_on_huge_pages_and_its_children_see_the_users_environment() {
    let dir = tempfile::tempdir().unwrap();
    let seen = dir.path().join("seen");
    let solver = dir.path().join("solver.sh");
    fs::write(
        &solver,
        format!(
            "#!/bin/sh\n\
             {{ env | grep -E '^(GLIBC_TUNABLES|Z3TESTING)' | sort; \
             echo campaign; p=$PPID; top=; \
             while [ \"$p\" -gt 1 ]; do \
             [ \"$(basename \"$(readlink /proc/$p/exe)\")\" = mbt ] && top=$p; \
             p=$(cut -d' ' -f4 /proc/$p/stat); done; \
             tr '\\0' '\\n' < /proc/$top/environ | grep '^Z3TESTING_HUGE_PAGES'; }} > {}\n\
             echo unsupported\n",
            seen.display()
        ),
    )
    .unwrap();
    let out = dir.path().join("out");
    let mut cmd = mbt();
    cmd.env("GLIBC_TUNABLES", "glibc.malloc.check=0")
        .args([
            "--seed",
            "1",
            "--rounds",
            "2",
            "--jobs",
            "1",
            "-q",
            "--cross-check",
        ])
        .arg(format!("sh {}", solver.display()))
        .arg("--out")
        .arg(&out);
    run(&mut cmd);
    let seen = fs::read_to_string(&seen).expect("the cross-check solver ran");
    assert_eq!(
        seen,
        "GLIBC_TUNABLES=glibc.malloc.check=0\ncampaign\nZ3TESTING_HUGE_PAGES_APPENDED=1\n"
    );
}
