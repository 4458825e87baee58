//! The campaign report (`OUT/report.html`, `mbt report`) and scale-out: a small real campaign
//! with an injected fault renders a page with its sections, plots, bars and findings (one row
//! each, grouped by kind, sorted by rounds, the rest folded), whose links still resolve after
//! the folder is moved; a baseline marks what is new; the page loads in headless chromium without console messages; and shards
//! run with GNU parallel (`scale/parallel.sh`) and merged give the findings and report content
//! of one run over the same seeds.

use e2e::{assert_same_campaign, bin, command, links, on_path, repo_root, summary, wait_at_most};
use serde_json::Value;
use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

/// Runs `mbt` with `args` and the injection variables `envs`; asserts it finished (0 or 1).
fn mbt(args: &[&str], envs: &[(&str, &str)]) -> Output {
    let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    let out = command("mbt", &args, envs).output().expect("run mbt");
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "mbt {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn report(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The text of `<section id="ID">` of a page.
fn section<'a>(html: &'a str, id: &str) -> &'a str {
    let open = format!("<section id=\"{id}\"");
    let start = html
        .find(&open)
        .unwrap_or_else(|| panic!("no section {id}"));
    let end = start + html[start..].find("</section>").expect("section closes");
    &html[start..end]
}

/// `text` as the page escapes it.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// The `data-status` of the findings table's row for failure `id`.
fn status_of<'a>(html: &'a str, id: &str) -> &'a str {
    let row = format!("data-id=\"{id}\"");
    let at = html.find(&row).unwrap_or_else(|| panic!("no row for {id}"));
    let before = &html[..at];
    let status = before.rfind("data-status=\"").expect("status") + "data-status=\"".len();
    let len = before[status..].find('"').unwrap();
    &before[status..status + len]
}

/// Every signature a finding of `summary.json` goes by.
fn signatures(f: &Value) -> Vec<String> {
    let mut all = vec![f["signature"].as_str().unwrap().to_string()];
    all.extend(f["minimized_signature"].as_str().map(str::to_string));
    if let Some(merged) = f["merged_signatures"].as_array() {
        all.extend(merged.iter().map(|s| s.as_str().unwrap().to_string()));
    }
    all
}

#[test]
fn a_campaign_writes_a_report_with_its_findings() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("campaign");
    // Without floating point and strings, whose operations must then show as never exercised.
    mbt(
        &[
            "--seed",
            "1",
            "--rounds",
            "16",
            "--jobs",
            "1",
            "--minimize",
            "-q",
            "--theories",
            "core,arith,bv,array,uf",
            "--out",
            out.to_str().unwrap(),
        ],
        &[("UNTRACE_INJECT", "error@push")],
    );
    let s = summary(&out);
    let samples = s["timeline"]["samples"].as_array().unwrap();
    assert!(samples.len() >= 2, "{samples:?}");
    assert_eq!(samples.last().unwrap()["rounds"], 16);
    let html = report(&out.join("report.html"));
    for id in ["overview", "findings", "progress", "coverage", "statistics"] {
        section(&html, id);
    }
    // Four plots over time and one group of bars per group of names.
    assert!(section(&html, "progress").matches("<svg").count() >= 4);
    assert!(
        section(&html, "coverage")
            .matches("<figure class=\"bars\">")
            .count()
            >= 5
    );
    // Self-contained: nothing to fetch, nothing to run.
    for forbidden in ["<script", "<link", " src=", "url(", "@import"] {
        assert!(!html.contains(forbidden), "the page holds {forbidden}");
    }
    let failures = s["failure_list"].as_array().unwrap();
    assert!(!failures.is_empty(), "the injected error is a finding");
    let findings = section(&html, "findings");
    assert_eq!(
        findings.matches("<tr class=\"finding\"").count(),
        failures.len()
    );
    let mut minimized = 0;
    for f in failures {
        let id = f["id"].as_str().unwrap();
        assert_eq!(status_of(findings, id), "new");
        for field in ["signature", "replay", "rerun", "kind"] {
            let text = f[field].as_str().unwrap();
            assert!(
                findings.contains(&escaped(text)),
                "{field} `{text}` missing"
            );
        }
        if let Some(min) = f["minimized_trace"].as_str() {
            minimized += 1;
            let trace = std::fs::read_to_string(min).unwrap();
            assert!(
                findings.contains(&escaped(&trace)),
                "the minimized trace inline"
            );
        }
    }
    assert!(minimized > 0, "--minimize minimized the injected error");
    assert_eq!(
        findings.matches("<details class=\"trace\">").count(),
        minimized
    );
    // Each finding's shortest reproducer that runs without this suite, folded beside it.
    assert!(findings
        .contains("<details class=\"trace repro\"><summary>reproducer without this suite: repro."));
    // One row a finding, its message, commands and trace folded under its signature; in
    // each kind's group the rows with the most rounds first.
    assert_eq!(
        findings.matches("<details class=\"finding\">").count(),
        failures.len()
    );
    for group in findings.split("<tbody class=\"kind\"").skip(1) {
        let rounds: Vec<u64> = group
            .split("data-rounds=\"")
            .skip(1)
            .map(|r| r[..r.find('"').unwrap()].parse().unwrap())
            .collect();
        assert!(
            !rounds.is_empty() && rounds.is_sorted_by(|a, b| a >= b),
            "{rounds:?}"
        );
    }
    // Every link is relative to the page, and resolves after the folder is moved.
    let moved = dir.path().join("moved").join("night 1");
    std::fs::create_dir(moved.parent().unwrap()).unwrap();
    std::fs::rename(&out, &moved).unwrap();
    let resolved = links(&html);
    assert!(resolved.len() > 3 * failures.len(), "{resolved:?}");
    for link in &resolved {
        assert!(!link.starts_with('/') && !link.contains("://"), "{link}");
        assert!(
            moved.join(link).exists(),
            "{link} does not resolve after the move"
        );
    }
    // `mbt report` on the moved folder, into a page elsewhere: its links resolve from there.
    let page = dir.path().join("pages").join("night.html");
    std::fs::create_dir(page.parent().unwrap()).unwrap();
    mbt(
        &[
            "report",
            moved.to_str().unwrap(),
            "-o",
            page.to_str().unwrap(),
        ],
        &[],
    );
    let elsewhere = links(&report(&page));
    assert_eq!(elsewhere.len(), resolved.len());
    for link in elsewhere {
        assert!(link.starts_with("../moved/night 1/"), "{link}");
        assert!(page.parent().unwrap().join(&link).exists(), "{link}");
    }
    let coverage = section(&html, "coverage");
    assert!(
        coverage.contains("<li>Operations: fp: never exercised"),
        "operations of theories left out show at zero"
    );
    assert!(coverage.contains("<code>fp.add</code>"));
    assert!(
        !coverage.contains("<li>Operations: core:"),
        "core was exercised"
    );
}

#[test]
fn the_baseline_marks_what_is_new() {
    let dir = tempfile::tempdir().unwrap();
    let (baseline, tonight) = (dir.path().join("baseline"), dir.path().join("tonight"));
    let common = [
        "--seed", "1", "--rounds", "10", "--jobs", "1", "-q", "--out",
    ];
    let run = |out: &Path, envs: &[(&str, &str)]| {
        let mut args = common.to_vec();
        args.push(out.to_str().unwrap());
        mbt(&args, envs);
    };
    run(&baseline, &[("UNTRACE_INJECT", "error@push")]);
    // Tonight the same fault, and a crash in round 3 that the baseline did not have.
    run(
        &tonight,
        &[
            ("UNTRACE_INJECT", "error@push"),
            ("MBT_INJECT", "abort@5:3"),
        ],
    );
    let page = dir.path().join("page.html");
    let out = mbt(
        &[
            "report",
            tonight.to_str().unwrap(),
            "--baseline",
            baseline.to_str().unwrap(),
            "-o",
            page.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(0));
    let html = report(&page);
    let before: BTreeSet<String> = summary(&baseline)["failure_list"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(signatures)
        .collect();
    let (mut new, mut known) = (0, 0);
    let findings = section(&html, "findings");
    for f in summary(&tonight)["failure_list"].as_array().unwrap() {
        let was = signatures(f).iter().any(|s| before.contains(s));
        let expected = if was { "known" } else { "new" };
        let id = f["id"].as_str().unwrap();
        assert_eq!(status_of(findings, id), expected, "{id}");
        if was {
            known += 1;
        } else {
            new += 1;
            assert_eq!(f["seed"], 3, "only the injected crash is new: {f:#}");
        }
    }
    assert_eq!(
        (new > 0, known > 0),
        (true, true),
        "{new} new, {known} known"
    );
    // The baseline's folder, linked relative to the page (both are in `dir`).
    assert!(section(&html, "baseline").contains("<a href=\"baseline/\"><code>baseline</code></a>"));
    // Several folders need -o; an input is never the output.
    let args = [
        "report",
        tonight.to_str().unwrap(),
        baseline.to_str().unwrap(),
    ];
    let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    let refused = command("mbt", &args, &[]).output().unwrap();
    assert_eq!(refused.status.code(), Some(2));
    let summary_path = tonight.join("summary.json");
    let args = [
        OsStr::new("report"),
        tonight.as_os_str(),
        OsStr::new("-o"),
        summary_path.as_os_str(),
    ];
    let refused = command("mbt", &args, &[]).output().unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("an input of the report"));
}

/// Runs headless chromium on `page` with a screenshot into `png`; its stderr, or `None` when
/// it did not end within a minute (then its process group is killed).
fn chromium(page: &Path, png: &Path, profile: &Path) -> Option<String> {
    use std::os::unix::process::CommandExt as _;
    let mut child = Command::new("chromium")
        .args([
            "--headless",
            "--disable-gpu",
            "--no-sandbox",
            "--hide-scrollbars",
        ])
        .arg("--window-size=1280,2400")
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--screenshot={}", png.display()))
        .args(["--enable-logging=stderr", "--v=0"])
        .arg(format!("file://{}", page.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .expect("run chromium");
    let stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || std::io::read_to_string(stderr).unwrap_or_default());
    wait_at_most(&mut child, Duration::from_secs(60))?;
    Some(reader.join().unwrap())
}

/// The console messages chromium logged for the page.
fn console_lines(stderr: &str) -> Vec<&str> {
    stderr.lines().filter(|l| l.contains(":CONSOLE")).collect()
}

#[test]
fn a_report_loads_in_chromium_without_console_errors() {
    if !on_path("chromium") {
        eprintln!("skipped: chromium is not installed (.ci/install-deps installs it)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("campaign");
    mbt(
        &[
            "--seed",
            "1",
            "--rounds",
            "8",
            "--jobs",
            "1",
            "-q",
            "--out",
            out.to_str().unwrap(),
        ],
        &[("UNTRACE_INJECT", "error@push")],
    );
    // First, that a console error would be seen at all.
    let broken = dir.path().join("broken.html");
    std::fs::write(
        &broken,
        "<!DOCTYPE html><p>x</p><script>console.error('seen')</script>",
    )
    .unwrap();
    let png = dir.path().join("broken.png");
    let Some(stderr) = chromium(&broken, &png, &dir.path().join("profile-1")) else {
        panic!("chromium did not end within a minute");
    };
    assert!(
        console_lines(&stderr).iter().any(|l| l.contains("seen")),
        "chromium's console log is not where the test looks: {stderr}"
    );
    let png = dir.path().join("report.png");
    let Some(stderr) = chromium(
        &out.join("report.html"),
        &png,
        &dir.path().join("profile-2"),
    ) else {
        panic!("chromium did not end within a minute");
    };
    let shot = std::fs::read(&png).unwrap_or_else(|e| panic!("no screenshot ({e}): {stderr}"));
    assert!(
        shot.starts_with(b"\x89PNG") && shot.len() > 10_000,
        "{stderr}"
    );
    assert_eq!(console_lines(&stderr), Vec::<&str>::new());
}

/// The report's sections that do not depend on timings (but the findings' first-seen cells,
/// the time into the campaign), with the campaign folders `dirs` written as `DIR` and the
/// links (relative to where the page is) left out.
fn timeless_sections(html: &str, dirs: &[&Path]) -> String {
    let mut text: String = ["findings", "coverage"]
        .iter()
        .map(|id| section(html, id))
        .collect();
    for dir in dirs {
        text = text.replace(&escaped(dir.to_str().unwrap()), "DIR");
    }
    for (open, close) in [("href=\"", "\""), ("<td class=\"seen\">", "</td>")] {
        let mut parts = text.split(open);
        let mut without = parts.next().unwrap_or_default().to_string();
        for part in parts {
            without.push_str(open);
            without.push_str(&part[part.find(close).unwrap_or(0)..]);
        }
        text = without;
    }
    text
}

#[test]
fn shards_merged_with_gnu_parallel_equal_one_run() {
    if !on_path("parallel") {
        eprintln!("skipped: GNU parallel is not installed (.ci/install-deps installs it)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (sharded, single) = (dir.path().join("sharded"), dir.path().join("single"));
    let script = repo_root().join("scale/parallel.sh");
    let out = Command::new("bash")
        .arg(&script)
        .arg("3")
        .env("OUT", &sharded)
        .env("SEED", "1")
        .env("ROUNDS", "4")
        .env("PARALLEL_JOBS", "2")
        .env("MBT", bin("mbt"))
        .env("UNTRACE_INJECT", "error@push")
        .env_remove("MBT_INJECT")
        .env_remove("UNTRACE_FAIL_ON")
        .env_remove("UNTRACE_INJECT_OTHER")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "new findings: {err}");
    mbt(
        &[
            "--seed",
            "1",
            "--rounds",
            "12",
            "--jobs",
            "1",
            "-q",
            "--out",
            single.to_str().unwrap(),
        ],
        &[("UNTRACE_INJECT", "error@push")],
    );
    let merged = sharded.join("all");
    assert_same_campaign(&merged, &single);
    assert_eq!(summary(&merged)["shard"], serde_json::json!([0, 3]));
    let (ha, hb) = (
        report(&merged.join("report.html")),
        report(&single.join("report.html")),
    );
    let timeless = timeless_sections(&hb, &[&single]);
    assert_eq!(timeless_sections(&ha, &[&merged]), timeless);
    assert!(ha.contains("3 shards merged"));
    // `mbt report` on the shard folders merges them in memory: the same page.
    let shards: Vec<_> = (0..3).map(|k| sharded.join(format!("shard-{k}"))).collect();
    let page = dir.path().join("shards.html");
    let mut args: Vec<&OsStr> = vec![OsStr::new("report")];
    args.extend(shards.iter().map(|d| d.as_os_str()));
    args.extend([OsStr::new("-o"), page.as_os_str()]);
    let out = command("mbt", &args, &[]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let shard_dirs: Vec<&Path> = shards.iter().map(|d| d.as_path()).collect();
    assert_eq!(timeless_sections(&report(&page), &shard_dirs), timeless);
}

/// Every shell script of `scale/` (the job files of schedulers this machine has not) parses.
#[test]
fn the_scale_scripts_parse() {
    let mut scripts = Vec::new();
    for sub in ["", "slurm", "k8s"] {
        let dir = repo_root().join("scale").join(sub);
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "sh" || e == "sbatch") {
                scripts.push(path);
            }
        }
    }
    assert!(scripts.len() >= 7, "{scripts:?}");
    for script in scripts {
        let out = Command::new("bash")
            .arg("-n")
            .arg(&script)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}: {}",
            script.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
