//! End-to-end tests of findings across nights: two small campaigns with a fault injected into
//! the executor (`UNTRACE_INJECT`, which every replay inherits) record into one database
//! with `--db`; `mbt triage` with the fault still injected plays a Z3 that still has the bug,
//! without it a Z3 that fixed it; files that are not findings databases are refused.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

/// The injected fault: every `check_sat` aborts, a crash finding.
const FAULT: &str = "abort@check_sat";

/// `mbt ARGS`, with `fault` injected into the executor (none when empty).
fn mbt(args: &[&str], fault: &str) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mbt"));
    cmd.args(args)
        .env_remove("MBT_INJECT")
        .env_remove("UNTRACE_FAIL_ON")
        .env_remove("UNTRACE_INJECT_OTHER")
        .env_remove("UNTRACE_INJECT");
    if !fault.is_empty() {
        cmd.env("UNTRACE_INJECT", fault);
    }
    cmd.output().expect("mbt runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `mbt db list --json`: the findings of the injected fault (their signatures name the
/// abort), real Z3 bugs that a few rounds may find left out.
fn injected_findings(db: &Path) -> Vec<Value> {
    let out = mbt(&["db", "list", "--json", "--db", db.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let rows: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    let injected: Vec<Value> = (rows.into_iter())
        .filter(|r| r["signature"].as_str().unwrap().contains("SIGABRT"))
        .collect();
    assert!(!injected.is_empty(), "no finding of the injected fault");
    injected
}

/// Runs a campaign of four rounds from `seed` under the fault into `out`, recording into `db`;
/// `exit` is 1 when it finds something the database does not know yet, else 0.
fn night(out: &Path, db: &Path, seed: &str, extra: &[&str], exit: i32) {
    let mut args = vec!["--seed", seed, "--rounds", "4", "--jobs", "1", "-q"];
    args.extend(extra);
    args.extend(["--out", out.to_str().unwrap(), "--db", db.to_str().unwrap()]);
    let run = mbt(&args, FAULT);
    let err = text(&run.stderr);
    assert_eq!(run.status.code(), Some(exit), "new findings: {err}");
    assert!(err.contains("mbt: recorded "), "{err}");
}

#[test]
fn findings_are_tracked_across_nights_and_triage_verifies_fixes() {
    let dir = tempfile::tempdir().unwrap();
    // Its folder does not exist yet, as on the first night.
    let db = dir.path().join("nightly/findings.sqlite");
    let (one, two) = (dir.path().join("night-1"), dir.path().join("night-2"));
    night(&one, &db, "1", &[], 1);
    for f in injected_findings(&db) {
        assert_eq!(f["status"], "new", "{f:#}");
        assert_eq!(f["nights"], 1, "{f:#}");
    }
    // The second night runs the same rounds (a round depends on its seed only, so this holds
    // whatever mbt's weights) and minimizes: its findings store the minimized traces. The
    // database knows every finding, so nothing is new (exit 0).
    night(&two, &db, "1", &["--minimize"], 0);
    let findings = injected_findings(&db);
    let twice: Vec<&Value> = findings.iter().filter(|f| f["nights"] == 2).collect();
    assert!(
        !twice.is_empty(),
        "no finding seen in both nights: {findings:#?}"
    );
    for f in &twice {
        assert_eq!(f["status"], "open", "{f:#}");
        assert!(f["first_seen"].as_str() <= f["last_seen"].as_str(), "{f:#}");
        let campaigns: Vec<&str> = (f["campaigns"].as_array().unwrap().iter())
            .map(|c| c.as_str().unwrap())
            .collect();
        assert_eq!(campaigns, [one.to_str().unwrap(), two.to_str().unwrap()]);
        assert_eq!(f["minimized"], true, "{f:#}");
        assert!(f["rounds"].as_u64().unwrap() >= 2, "{f:#}");
    }
    let version = |f: &Value| f["reproduces_on"][0].as_str().unwrap().to_string();
    let z3 = version(twice[0]);
    // Recording a night's folder again changes nothing.
    let again = mbt(
        &[
            "db",
            "record",
            one.to_str().unwrap(),
            "--db",
            db.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    assert_eq!(injected_findings(&db), findings);

    // The HTML fragment for the report holds every finding.
    let html = mbt::findings_db::history_html(&db).unwrap();
    for f in &findings {
        assert!(html.contains(f["signature"].as_str().unwrap()), "{html}");
    }
    // The night's report shows that history, and so does `mbt report --db`.
    let page = std::fs::read_to_string(two.join("report.html")).unwrap();
    assert!(page.contains("Findings across nights"), "{page}");
    let rendered = dir.path().join("again.html");
    let report = mbt(
        &[
            "report",
            one.to_str().unwrap(),
            "-o",
            rendered.to_str().unwrap(),
            "--db",
            db.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(report.status.code(), Some(0), "{}", text(&report.stderr));
    let page = std::fs::read_to_string(&rendered).unwrap();
    assert!(page.contains("Findings across nights"), "{page}");

    // A Z3 that still has the bug: the findings stay open, the version is recorded.
    let db_arg = db.to_str().unwrap();
    let other = e2e::find_other_z3();
    let mut args = vec!["triage", "--db", db_arg];
    match &other {
        Some(lib) => args.extend(["--z3-lib", lib.to_str().unwrap()]),
        None => eprintln!("note: triage on the linked Z3 only: {}", e2e::NO_OTHER_Z3),
    }
    let still = mbt(&args, FAULT);
    let table = text(&still.stdout);
    assert_eq!(
        still.status.code(),
        Some(1),
        "{table}{}",
        text(&still.stderr)
    );
    assert!(table.contains("still fails"), "{table}");
    let other_z3 = table
        .lines()
        .last()
        .and_then(|l| l.strip_prefix("Z3 "))
        .and_then(|l| l.split(':').next())
        .unwrap()
        .to_string();
    for f in injected_findings(&db) {
        assert_eq!(f["status"], "open", "{f:#}");
        let versions = f["reproduces_on"].as_array().unwrap();
        assert!(versions.iter().any(|v| *v == *other_z3), "{f:#}");
        assert!(versions.iter().any(|v| *v == *z3), "{f:#}");
        assert_eq!(f["replays"][0]["result"], "reproduces", "{f:#}");
    }

    // Without the fault the traces pass. On the Z3 that recorded them that proves nothing
    // (the traces no longer reproduce there): "cannot verify", nothing fixed.
    // (On a copy: that replay also withdraws the stored proof on the recording version.)
    let copy = dir.path().join("copy.sqlite");
    std::fs::copy(&db, &copy).unwrap();
    let unproven = mbt(&["triage", "--db", copy.to_str().unwrap()], "");
    let table = text(&unproven.stdout);
    assert!(table.contains("cannot verify"), "{table}");
    for f in injected_findings(&copy) {
        assert_eq!(f["status"], "open", "{f:#}");
    }
    // On another Z3 without the bug, with the proof that the traces reproduce on the Z3 that
    // recorded them: every injected finding is fixed in that version.
    if other.is_none() {
        return;
    }
    let fixed = mbt(&args, "");
    let table = text(&fixed.stdout);
    assert!(table.contains(" fixed "), "{table}");
    let rows: Vec<Value> =
        serde_json::from_slice(&mbt(&["db", "list", "--json", "--db", db_arg], "").stdout).unwrap();
    for f in injected_findings(&db) {
        assert_eq!(f["status"], "fixed", "{f:#}");
        assert_eq!(f["fixed_in"], *other_z3, "{f:#}");
    }
    // Exit 0 only when every finding replayed is fixed now (real Z3 bugs stay open).
    let all_fixed = rows.iter().all(|f| f["status"] == "fixed");
    assert_eq!(
        fixed.status.code(),
        Some(if all_fixed { 0 } else { 1 }),
        "{table}"
    );
    // Fixed findings are not replayed again.
    let after = text(&mbt(&["triage", "--db", db_arg], "").stdout);
    assert!(!after.contains("SIGABRT"), "{after}");

    // The trace is in the database: the output folders may go.
    std::fs::remove_dir_all(&one).unwrap();
    std::fs::remove_dir_all(&two).unwrap();
    let id = findings[0]["id"].to_string();
    let trace = mbt(&["db", "trace", &id, "--db", db_arg], "");
    assert_eq!(trace.status.code(), Some(0), "{}", text(&trace.stderr));
    assert!(
        text(&trace.stdout).contains("check_sat"),
        "{}",
        text(&trace.stdout)
    );
}

#[test]
fn a_file_that_is_not_a_findings_database_is_a_one_line_error() {
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.sqlite");
    std::fs::write(&junk, "not SQLite at all\n".repeat(100)).unwrap();
    let junk_arg = junk.to_str().unwrap();
    let out = dir.path().join("out");
    for args in [
        vec!["db", "list", "--db", junk_arg],
        vec!["triage", "--db", junk_arg],
        vec!["db", "record", out.to_str().unwrap(), "--db", junk_arg],
        vec![
            "--rounds",
            "1",
            "--out",
            out.to_str().unwrap(),
            "--db",
            junk_arg,
        ],
    ] {
        let run = mbt(&args, "");
        let err = text(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.contains(junk_arg) && err.contains("not a usable mbt findings database"),
            "{err}"
        );
    }
    // Checked before the campaign: no output folder was made, the file is unchanged.
    assert!(!out.exists());
    assert_eq!(
        std::fs::read_to_string(&junk).unwrap(),
        "not SQLite at all\n".repeat(100)
    );
    let missing = dir.path().join("missing.sqlite");
    let run = mbt(&["triage", "--db", missing.to_str().unwrap()], "");
    assert_eq!(run.status.code(), Some(2));
    assert!(text(&run.stderr).contains("no such findings database"));
    assert!(!missing.exists());
}

#[test]
fn an_interrupted_campaign_is_recorded_too() {
    let dir = tempfile::tempdir().unwrap();
    let (out, db) = (dir.path().join("out"), dir.path().join("findings.sqlite"));
    let child = Command::new(env!("CARGO_BIN_EXE_mbt"))
        .args([
            "--seed",
            "1",
            "--rounds",
            "1000000",
            "--jobs",
            "2",
            "-q",
            "--keep-all",
        ])
        .arg("--out")
        .arg(&out)
        .arg("--db")
        .arg(&db)
        .env_remove("MBT_INJECT")
        .env_remove("UNTRACE_FAIL_ON")
        .env_remove("UNTRACE_INJECT_OTHER")
        .env("UNTRACE_INJECT", FAULT)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Signalled once a round has finished (its kept trace shows it) and a round has failed
    // (its failure folder shows it: under load the first round to finish may be another
    // than the fault's), however loaded the machine is.
    e2e::wait_for_a_round(&out);
    e2e::wait_for_an_entry(&out.join("failures"), "round failed");
    // SAFETY: signals our own child, by its id (not yet reaped, so still ours).
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130), "{}", text(&output.stderr));
    let listed = mbt(
        &["db", "campaigns", "--json", "--db", db.to_str().unwrap()],
        "",
    );
    let campaigns: Vec<Value> = serde_json::from_slice(&listed.stdout).unwrap();
    assert_eq!(campaigns.len(), 1, "{campaigns:#?}");
    let night = &campaigns[0];
    assert_eq!(night["interrupted"], true, "{night:#}");
    assert!(night["rounds"].as_u64().unwrap() > 0, "{night:#}");
    assert_eq!(night["output"], out.to_str().unwrap());
    assert!(
        night["command"].as_str().unwrap().contains("--db"),
        "{night:#}"
    );
    assert!(!injected_findings(&db).is_empty());
}

/// A finding whose stored trace is a Z3 API log (the log of a user's program, put in a
/// campaign's folder in place of the round's trace): `mbt db record` stores it as it stores a
/// trace, and `mbt triage` replays it, recognized by its content, to its signature.
#[test]
fn a_stored_log_triages_like_a_trace() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("night");
    let db = dir.path().join("findings.sqlite");
    let run = mbt(
        &[
            "--seed",
            "1",
            "--rounds",
            "1",
            "--jobs",
            "1",
            "-q",
            "--out",
            out.to_str().unwrap(),
        ],
        FAULT,
    );
    assert_eq!(run.status.code(), Some(1), "{}", text(&run.stderr));
    // The log of the cube-empty crash, and the signature its replay reports.
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let log = repo.join("traces/logs/cube_empty-4.8.12.log");
    let replay = mbt(&["replay", log.to_str().unwrap()], "");
    assert_eq!(replay.status.code(), Some(6), "{}", text(&replay.stderr));
    let stderr = text(&replay.stderr);
    let signature = stderr
        .lines()
        .rev()
        .find_map(|l| l.split_once("signature: ").map(|(_, s)| s.to_string()))
        .expect("a signature line");
    // The campaign's finding now stands for the log.
    let summary_path = out.join("summary.json");
    let mut summary: Value =
        serde_json::from_str(&std::fs::read_to_string(&summary_path).unwrap()).unwrap();
    let entry = &mut summary["failure_list"][0];
    let folder = Path::new(entry["trace"].as_str().unwrap())
        .parent()
        .unwrap()
        .to_path_buf();
    let stored = folder.join("user-program.log");
    std::fs::copy(&log, &stored).unwrap();
    entry["trace"] = Value::from(stored.to_str().unwrap());
    entry["signature"] = Value::from(signature.as_str());
    std::fs::write(&summary_path, serde_json::to_string(&summary).unwrap()).unwrap();
    let db_arg = db.to_str().unwrap();
    let record = mbt(&["db", "record", out.to_str().unwrap(), "--db", db_arg], "");
    assert_eq!(record.status.code(), Some(0), "{}", text(&record.stderr));
    let rows: Vec<Value> =
        serde_json::from_slice(&mbt(&["db", "list", "--json", "--db", db_arg], "").stdout).unwrap();
    let row = rows
        .iter()
        .find(|r| r["signature"] == signature.as_str())
        .expect("the log's finding");
    let id = row["id"].to_string();
    let stored_text = mbt(&["db", "trace", &id, "--db", db_arg], "");
    assert_eq!(stored_text.stdout, std::fs::read(&log).unwrap());
    // The linked Z3 still has the bug: the log replays to its signature.
    let triage = mbt(&["triage", "--db", db_arg], "");
    let table = text(&triage.stdout);
    let line = table
        .lines()
        .find(|l| l.contains(&signature))
        .unwrap_or_else(|| panic!("{table}{}", text(&triage.stderr)));
    assert!(line.contains("still fails"), "{table}");
}
