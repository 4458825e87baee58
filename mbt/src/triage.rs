//! `mbt triage --db PATH [--z3-lib PATH]`: verifies fixes the way ClusterFuzz does. Every
//! finding of the findings database ([`crate::findings_db`]) that is not fixed is replayed
//! from the trace stored in the database (its minimized trace where there is one) with the
//! replayer of `--minimize` and `--known` ([`minimize::replayer`], so on the Z3 that mbt runs
//! on: `--z3-lib` or the linked one), under the limits of the round that found it and with
//! the untrace options it needs (a differential finding's other side).
//!
//! A replay that fails with one of the finding's signatures reproduces it (the Z3 version is
//! added to "reproduces on"); one that passes marks it fixed in this Z3 version. A replay
//! that fails otherwise (another signature, e.g. a crash at another place in another libz3
//! build) does not verify a fix: the finding stays open and the other signature is stored.
//! A replay past its time limit, or one that ends without a signature (a trace this untrace
//! cannot read), decides nothing.

use crate::failure::FailureKind;
use crate::findings_db::{FindingsDb, ReplayResult, TriageCase};
use crate::minimize;
use anyhow::Context as _;
use std::ffi::OsString;

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
        let result = replay(&case)?;
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

/// Replays the stored trace of `case` once, in a private temporary folder. An error only when
/// the replayer cannot run.
pub fn replay(case: &TriageCase) -> anyhow::Result<ReplayResult> {
    let scratch = tempfile::Builder::new()
        .prefix("mbt-triage-")
        .tempdir()
        .context("cannot create a temporary folder")?;
    // The stored file name: its extension tells untrace the trace's format.
    let trace = scratch.path().join(&case.trace_name);
    std::fs::write(&trace, &case.trace)
        .with_context(|| format!("cannot write {}", trace.display()))?;
    let (program, mut args) = minimize::replayer();
    let kind = FailureKind::from_name(&case.kind).unwrap_or(FailureKind::Crash);
    args.extend(minimize::limit_args(kind, case.limits));
    args.extend(case.replay_args.iter().map(OsString::from));
    let budget = minimize::replay_budget(case.limits);
    let replayed = minimize::replay_once(&(program.clone(), args), &trace, budget)
        .with_context(|| format!("cannot run {}", program.display()))?;
    Ok(match replayed {
        None => {
            ReplayResult::Undecided(format!("the replay ran past {:.0} s", budget.as_secs_f64()))
        }
        Some((Some(0), _)) => ReplayResult::Passes,
        Some((_, Some(signature))) => {
            if reproduces(case, &signature) {
                ReplayResult::Reproduces
            } else {
                ReplayResult::FailsOtherwise(signature)
            }
        }
        Some((code, None)) => ReplayResult::Undecided(match code {
            Some(code) => format!("the replay exited {code} without a signature"),
            None => "the replay was killed by a signal without a signature".into(),
        }),
    })
}

/// Whether a replay of `case` that printed `signature` fails as the finding did: the
/// signature names the finding as it is, or refined by the operations left in the trace (as
/// a minimized finding's signature is, [`minimize::refined_signature`]).
fn reproduces(case: &TriageCase, signature: &str) -> bool {
    let names = |s: &str| case.signatures.iter().any(|known| known == s);
    names(signature)
        || ddtrace::trace_io::read(&case.trace)
            .is_ok_and(|(entries, _)| names(&minimize::refined_signature(signature, &entries)))
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
        };
        text.push_str(&format!(
            "{:>4}  {:<17} {:<16} {}{note}\n",
            t.id, t.kind, result, t.signature
        ));
    }
    let count = |f: fn(&ReplayResult) -> bool| triaged.iter().filter(|t| f(&t.result)).count();
    text.push_str(&format!(
        "Z3 {z3_version}: {} findings replayed: {} fixed, {} still fail, {} fail otherwise, {} undecided\n",
        triaged.len(),
        count(|r| *r == ReplayResult::Passes),
        count(|r| *r == ReplayResult::Reproduces),
        count(|r| matches!(r, ReplayResult::FailsOtherwise(_))),
        count(|r| matches!(r, ReplayResult::Undecided(_))),
    ));
    text
}
