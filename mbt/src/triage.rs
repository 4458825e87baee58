//! `mbt triage --db PATH [--z3-lib PATH]`: verifies fixes the way ClusterFuzz does, proving
//! before it clears. Every finding of the findings database ([`crate::findings_db`]) that is
//! not fixed is replayed from the trace stored in the database (its minimized trace where
//! there is one) with mbt's own replayer ([`minimize::replayer`], on the Z3 that mbt runs on:
//! `--z3-lib` or the linked one), under the limits of the round that found it and with the
//! untrace options it needs (a differential finding's other side).
//!
//! A replay that fails with one of the finding's signatures reproduces it (the Z3 version is
//! added to "reproduces on"). A replay that passes marks it fixed in this Z3 version only when
//! the same trace is shown to reproduce on the Z3 that recorded it: a replay stored in the
//! database (the campaign's minimization, an earlier triage), else a replay now on the libz3
//! file that campaign ran on, when it is still there and still that version; when the Z3 here
//! is the recording version itself, a pass proves only that the trace does not reproduce.
//! Otherwise the finding "cannot be verified", with the reason. A replay that fails
//! otherwise (another signature) stays open; one past its limit, or one that could not run,
//! decides nothing.

use crate::failure::FailureKind;
use crate::findings_db::{FindingsDb, ReplayResult, TriageCase};
use crate::minimize::{self, Replayed};
use anyhow::Context as _;
use std::ffi::OsString;
use std::path::Path;

/// One triaged finding.
#[derive(Clone, Debug)]
pub struct Triaged {
    pub id: i64,
    pub kind: String,
    pub signature: String,
    pub result: ReplayResult,
}

/// Replays every finding of `db` that is not fixed on the Z3 of version `z3_version` (the
/// loaded one) and stores the results.
pub fn triage(db: &mut FindingsDb, z3_version: &str) -> anyhow::Result<Vec<Triaged>> {
    let mut triaged = Vec::new();
    for case in db.to_triage()? {
        let result = triage_one(db, &case, z3_version)?;
        db.record_replay(case.id, z3_version, &result)?;
        triaged.push(Triaged {
            id: case.id,
            kind: case.kind,
            signature: case.signature,
            result,
        });
    }
    Ok(triaged)
}

/// The verdict on `case` here (Z3 `z3_version`), proving a pass against the recording Z3.
fn triage_one(
    db: &mut FindingsDb,
    case: &TriageCase,
    z3_version: &str,
) -> anyhow::Result<ReplayResult> {
    if let Some(why) = &case.unusable {
        return Ok(ReplayResult::CannotVerify(why.clone()));
    }
    let here = replay(case, None)?;
    if here != ReplayResult::Passes {
        return Ok(here);
    }
    let recorded: Vec<&str> = case.recorded_on.iter().map(|(v, _)| v.as_str()).collect();
    if recorded.contains(&z3_version) {
        return Ok(ReplayResult::CannotVerify(format!(
            "its trace passes on Z3 {z3_version}, the version that recorded it: the trace does \
             not reproduce the finding"
        )));
    }
    if case.reproduced_on.iter().any(|v| v != z3_version) {
        return Ok(ReplayResult::Passes);
    }
    // No stored evidence: replay on the file a recording campaign ran on, if it is still
    // that Z3.
    for (version, lib) in &case.recorded_on {
        let Some(lib) = lib else { continue };
        match z3lib::inspect(lib) {
            Ok(found) if &found.version == version => {}
            _ => continue,
        }
        let there = replay(case, Some(lib))?;
        db.record_replay(case.id, version, &there)?;
        return Ok(match there {
            ReplayResult::Reproduces => ReplayResult::Passes,
            other => ReplayResult::CannotVerify(format!(
                "on Z3 {version}, which recorded it ({}), its trace does not reproduce it: {}",
                lib.display(),
                describe(&other)
            )),
        });
    }
    Ok(ReplayResult::CannotVerify(format!(
        "passes here, but no replay shows that its trace reproduces on the Z3 that recorded it \
         ({}): run `mbt triage --db ... --z3-lib PATH` with that Z3 first",
        if recorded.is_empty() {
            "unknown".to_string()
        } else {
            recorded.join(", ")
        }
    )))
}

fn describe(result: &ReplayResult) -> String {
    match result {
        ReplayResult::Reproduces => "it reproduces".into(),
        ReplayResult::Passes => "it passes".into(),
        ReplayResult::FailsOtherwise(other) => format!("it fails otherwise: {other}"),
        ReplayResult::Undecided(why) | ReplayResult::CannotVerify(why) => why.clone(),
    }
}

/// Replays the stored trace of `case` once, in a private temporary folder, on this process's
/// Z3 or on the libz3 file `lib`. An error only when the replayer cannot be started.
pub fn replay(case: &TriageCase, lib: Option<&Path>) -> anyhow::Result<ReplayResult> {
    let scratch = tempfile::Builder::new()
        .prefix("mbt-triage-")
        .tempdir()
        .context("cannot create a temporary folder")?;
    // The stored file name: its extension tells the replayer the trace's format (a stored Z3
    // API log is recognized by its content, whatever its name).
    let trace = scratch.path().join(&case.trace_name);
    std::fs::write(&trace, &case.trace)
        .with_context(|| format!("cannot write {}", trace.display()))?;
    let (program, mut args) = match lib {
        Some(lib) => minimize::replayer_on(
            vec!["--z3-lib".into(), lib.as_os_str().to_owned()],
            minimize::Answers::Ignored,
        ),
        None => minimize::replayer(minimize::Answers::Ignored),
    };
    let kind = FailureKind::from_name(&case.kind).unwrap_or(FailureKind::Crash);
    args.extend(minimize::limit_args(kind, case.limits));
    args.extend(case.replay_args.iter().map(OsString::from));
    let budget = minimize::replay_budget(case.limits);
    let replayed = minimize::replay_once(&(program.clone(), args), &trace, budget)
        .with_context(|| format!("cannot run {}", program.display()))?;
    // A log has no trace entries to refine its signature with: it is compared as it is.
    let entries = ddtrace::trace_io::read(&case.trace).map_or_else(|_| Vec::new(), |(e, _)| e);
    Ok(match replayed {
        Replayed::Passes => ReplayResult::Passes,
        Replayed::Fails(_) if replayed.shows(&case.signatures, &entries) => {
            ReplayResult::Reproduces
        }
        Replayed::Fails(signature) => ReplayResult::FailsOtherwise(signature.to_string()),
        Replayed::RanPast(limit) => {
            ReplayResult::Undecided(format!("the replay ran past {:.0} s", limit.as_secs_f64()))
        }
        Replayed::CouldNotReplay(why) => {
            ReplayResult::CannotVerify(format!("the trace could not be replayed: {why}"))
        }
    })
}

/// The triage table: one line per finding, then a count per result.
pub fn table(triaged: &[Triaged], z3_version: &str) -> String {
    let mut text = format!(
        "{:>4}  {:<17} {:<16} signature\n",
        "id", "kind", "on this Z3"
    );
    for t in triaged {
        let (result, note) = match &t.result {
            ReplayResult::Reproduces => ("still fails", String::new()),
            ReplayResult::Passes => ("fixed", String::new()),
            ReplayResult::FailsOtherwise(other) => {
                ("fails otherwise", format!("\n      now: {other}"))
            }
            ReplayResult::Undecided(why) => ("undecided", format!("\n      {why}")),
            ReplayResult::CannotVerify(why) => ("cannot verify", format!("\n      {why}")),
        };
        text.push_str(&format!(
            "{:>4}  {:<17} {:<16} {}{note}\n",
            t.id, t.kind, result, t.signature
        ));
    }
    let count = |f: fn(&ReplayResult) -> bool| triaged.iter().filter(|t| f(&t.result)).count();
    text.push_str(&format!(
        "Z3 {z3_version}: {} findings replayed: {} fixed, {} still fail, {} fail otherwise, {} undecided, {} cannot verify\n",
        triaged.len(),
        count(|r| *r == ReplayResult::Passes),
        count(|r| *r == ReplayResult::Reproduces),
        count(|r| matches!(r, ReplayResult::FailsOtherwise(_))),
        count(|r| matches!(r, ReplayResult::Undecided(_))),
        count(|r| matches!(r, ReplayResult::CannotVerify(_))),
    ));
    text
}
