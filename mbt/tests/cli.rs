//! End-to-end tests of the `mbt` binary: campaigns in forked rounds, determinism, replay of
//! every kept trace, failure injection, shards and merge.

use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn mbt() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_mbt"));
    c.env_remove("MBT_INJECT");
    c
}

fn run(cmd: &mut Command) -> Output {
    let out = cmd.output().expect("mbt runs");
    assert!(
        out.status.success(),
        "mbt failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
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
        .skip(1)
        .filter(|l| !l.starts_with("return"))
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
    campaign(&b, 500, 12, &["--keep-all"]);
    assert_eq!(sa["rounds"], 12);
    let (ta, tb) = (traces(&a.join("traces")), traces(&b.join("traces")));
    assert_eq!(ta.len(), 12);
    for (x, y) in ta.iter().zip(&tb) {
        assert_eq!(x.file_name(), y.file_name());
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
    let failed: Vec<u64> = summary["failed_seeds"]
        .as_array()
        .unwrap()
        .iter()
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
    assert_eq!(entry["failure"]["kind"], kind);
    // The saved trace is complete up to the injected call: the 24 calls before it.
    let trace = out
        .join("failures")
        .join(entry["id"].as_str().unwrap())
        .join("round.trace");
    assert_eq!(call_lines(&trace), 24);
    assert!(fs::read_to_string(&trace).unwrap().ends_with('\n'));
    assert!(entry["rerun"]
        .as_str()
        .unwrap()
        .starts_with("mbt --seed 11 --rounds 1"));
}

#[test]
fn injected_abort_is_a_crash_and_the_campaign_goes_on() {
    let (summary, out, _tmp) = injected("abort", &[]);
    check_injected(&summary, &out, "Crash");
}

#[test]
fn injected_loop_is_a_timeout() {
    let (summary, out, _tmp) = injected("loop", &["--timeout", "0.5"]);
    check_injected(&summary, &out, "Timeout");
}

#[test]
fn injected_allocation_is_a_memout() {
    let (summary, out, _tmp) = injected("alloc", &["--memout", "400", "--timeout", "20"]);
    check_injected(&summary, &out, "Memout");
}

/// A worker runs several rounds in a row (`--jobs 1`: seeds 8..13 in one worker): a round in
/// the middle of the batch that dies is the one marked failed, its trace complete up to the
/// injected call, and the rounds after it (in a new worker) run as without the injection.
fn check_injected_mid_batch(kind: &str, failure_kind: &str, extra: &[&str]) {
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
    expected.push(11);
    expected.sort_unstable();
    assert_eq!(seeds(&summary), expected);
    let entry = summary["failure_list"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["seed"] == 11)
        .unwrap_or_else(|| panic!("no failure for the injected round: {summary}"));
    assert_eq!(entry["failure"]["kind"], failure_kind);
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
    check_injected_mid_batch("abort", "Crash", &[]);
}

#[test]
fn injected_loop_in_the_middle_of_a_batch_fails_only_its_round() {
    check_injected_mid_batch("loop", "Timeout", &["--timeout", "0.5"]);
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
    assert!(merged["operations"]["bvadd"]["tried"].as_u64().is_some());
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
    assert_eq!(entry["failure"]["kind"], "Crash", "{summary}");
    let dir = out.join("failures").join(entry["id"].as_str().unwrap());
    let original = dir.join("round.trace");
    let minimized = dir.join("trace.min.trace");
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
    let command = saved["minimized_untrace"].as_str().unwrap();
    assert!(command.ends_with("trace.min.trace"), "{command}");
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
    use std::os::unix::process::ExitStatusExt;
    const SIGABRT: i32 = 6;
    assert_eq!(replay(true).signal(), Some(SIGABRT));
    assert!(replay(false).success());
}
