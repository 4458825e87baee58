//! Findings across nights: one SQLite file ([`FindingsDb`]) that every night's campaign
//! records into (`mbt --db PATH`, or `mbt db record OUT --db PATH` for a finished output
//! folder, e.g. shards merged by `mbt merge`), so that a solver team sees per finding when it
//! was first and last seen, in how many nights (campaigns) and rounds, on which Z3 versions it
//! reproduces, and whether it is new, open or fixed ([`FindingHistory`]). `mbt triage`
//! ([`crate::triage`]) replays the findings that are not fixed on a given Z3 and marks those
//! whose replay passes as fixed in that version. [`history_html`] renders the history for the
//! report, [`History`] gives it with each finding's history for the finding's row.
//!
//! Tables (schema [`SCHEMA_VERSION`]):
//! - `campaigns`: one row per recorded output folder (its absolute path is the key, so
//!   recording a folder again replaces its sightings): start, end, Z3 version, rounds, failed
//!   rounds, interrupted, command line.
//! - `findings`: one row per bug, keyed by its signature (the signature after minimization
//!   when there is one, else the campaign's deduplication key), with the best trace seen
//!   (minimized before round traces, then the shorter): its text is stored, so that the
//!   database alone is enough to triage once old output folders are gone; the round limits
//!   and untrace options its replay needs; `confirmed` and `fixed_in`/`fixed_at`.
//! - `signatures`: every signature that names a finding (the round's, the minimized one,
//!   those merged into it), so that a later night finds the finding by any of them.
//! - `sightings`: finding x campaign, with the rounds that failed so and the failure folder.
//! - `replays`: the last triage result per finding and Z3 version.
//!
//! Status ([`Status`]): `fixed` once a triage replay passed on some Z3, until a campaign that
//! started after that triage sees it again (reopened); else `open` when seen in two or more
//! nights, reproduced by a triage or given as known (`--known`); else `new`.
//!
//! The schema version is SQLite's `user_version` and `application_id` marks the file as
//! ours: migrations ([`MIGRATIONS`]) run on open, a newer schema or a foreign file is
//! refused. Campaigns that run side by side may record into one file: every write is one
//! `BEGIN IMMEDIATE` transaction that waits up to [`BUSY_TIMEOUT`] for the lock. The journal
//! is SQLite's default rollback journal, not WAL, whose shared memory network file systems
//! do not provide.

// The report's HTML escaping: the history fragment goes into its page.
use crate::isolate::{Limits, DEFAULT_MEMOUT_MIB, DEFAULT_TIMEOUT_SECONDS};
use crate::report::esc as html_escape;
use crate::summary::{shell_word, FailureEntry, Summary};
use anyhow::{bail, Context as _};
use rusqlite::{params, Connection, OpenFlags, OptionalExtension, Transaction};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The schema this mbt writes; older databases are migrated on open.
pub const SCHEMA_VERSION: i32 = 2;

/// SQLite's `application_id` of a findings database ("mbtF").
const APPLICATION_ID: i32 = 0x6d62_7446;

/// How long a write waits for another process's transaction on the same file.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(120);

/// The schema migrations: entry `i` brings a database from version `i` to `i + 1`.
const MIGRATIONS: &[&str] = &[
    "
CREATE TABLE campaigns (
    id INTEGER PRIMARY KEY,
    output TEXT NOT NULL UNIQUE,
    started TEXT NOT NULL,
    ended TEXT NOT NULL,
    z3_version TEXT NOT NULL,
    rounds INTEGER NOT NULL,
    failed_rounds INTEGER NOT NULL,
    interrupted INTEGER NOT NULL,
    command TEXT,
    recorded TEXT NOT NULL
);
CREATE TABLE findings (
    id INTEGER PRIMARY KEY,
    signature TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    message TEXT NOT NULL,
    confirmed INTEGER NOT NULL DEFAULT 0,
    fixed_in TEXT,
    fixed_at TEXT,
    trace_name TEXT NOT NULL,
    trace_path TEXT NOT NULL,
    trace BLOB NOT NULL,
    minimized INTEGER NOT NULL,
    timeout REAL NOT NULL,
    memout_mib INTEGER NOT NULL,
    replay_args TEXT NOT NULL
);
CREATE TABLE signatures (
    signature TEXT PRIMARY KEY,
    finding INTEGER NOT NULL REFERENCES findings(id)
) WITHOUT ROWID;
CREATE TABLE sightings (
    finding INTEGER NOT NULL REFERENCES findings(id),
    campaign INTEGER NOT NULL REFERENCES campaigns(id),
    rounds INTEGER NOT NULL,
    folder TEXT NOT NULL,
    PRIMARY KEY (finding, campaign)
) WITHOUT ROWID;
CREATE INDEX sightings_by_campaign ON sightings(campaign);
CREATE TABLE replays (
    finding INTEGER NOT NULL REFERENCES findings(id),
    z3_version TEXT NOT NULL,
    result TEXT NOT NULL
        CHECK (result IN ('reproduces', 'passes', 'fails-otherwise', 'undecided')),
    signature TEXT,
    note TEXT,
    checked TEXT NOT NULL,
    PRIMARY KEY (finding, z3_version)
) WITHOUT ROWID;
",
    "
-- Version 2: triage proves before it clears. The libz3 file a campaign ran on (to replay a
-- finding on the Z3 that recorded it), why a finding's stored trace cannot serve as
-- evidence, and 'cannot-verify' replays.
ALTER TABLE campaigns ADD COLUMN z3_lib TEXT;
ALTER TABLE findings ADD COLUMN unusable TEXT;
CREATE TABLE replays_v2 (
    finding INTEGER NOT NULL REFERENCES findings(id),
    z3_version TEXT NOT NULL,
    result TEXT NOT NULL
        CHECK (result IN ('reproduces', 'passes', 'fails-otherwise', 'undecided',
                          'cannot-verify')),
    signature TEXT,
    note TEXT,
    checked TEXT NOT NULL,
    PRIMARY KEY (finding, z3_version)
) WITHOUT ROWID;
INSERT INTO replays_v2 SELECT * FROM replays;
DROP TABLE replays;
ALTER TABLE replays_v2 RENAME TO replays;
",
];

/// SQL for the current time as the database writes times (UTC, ISO 8601, seconds).
const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')";

/// A finding's status across nights.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Seen in one night only, not confirmed by a triage.
    New,
    /// Seen in two or more nights, reproduced by a triage, or known.
    Open,
    /// A triage replay passed on `fixed_in` (and no later night saw it).
    Fixed,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::New => "new",
            Status::Open => "open",
            Status::Fixed => "fixed",
        }
    }
}

/// What is known about one campaign besides its summary.
#[derive(Clone, Debug)]
pub struct CampaignRun {
    /// Start and end in seconds since the Unix epoch.
    pub started: i64,
    pub ended: i64,
    /// The command line, as a shell would take it.
    pub command: Option<String>,
}

/// What recording one campaign did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Recorded {
    /// The campaign's unique findings, and how many of them the database did not know before.
    pub findings: usize,
    pub new: usize,
    /// Findings that were fixed and are seen again.
    pub reopened: usize,
}

/// One finding's history, as `mbt db list` and the report show it.
#[derive(Clone, Debug, Serialize)]
pub struct FindingHistory {
    pub id: i64,
    pub signature: String,
    pub kind: String,
    pub message: String,
    pub status: Status,
    /// The start of the first and of the last campaign (night) that saw it (UTC, ISO 8601).
    pub first_seen: Option<String>,
    pub last_seen: Option<String>,
    /// How many campaigns saw it, and in how many of their rounds.
    pub nights: u64,
    pub rounds: u64,
    /// The output folders of those campaigns, oldest first.
    pub campaigns: Vec<String>,
    /// The Z3 versions a campaign saw it on or a triage reproduced it on.
    pub reproduces_on: Vec<String>,
    pub fixed_in: Option<String>,
    pub fixed_at: Option<String>,
    /// Where the stored trace came from, and whether it is minimized.
    pub trace_path: String,
    pub minimized: bool,
    /// Every signature that names this finding.
    pub signatures: Vec<String>,
    /// The last triage result per Z3 version.
    pub replays: Vec<ReplayRecord>,
}

/// One recorded campaign (night).
#[derive(Clone, Debug, Serialize)]
pub struct CampaignRecord {
    pub id: i64,
    /// The output folder (absolute).
    pub output: String,
    /// Start and end (UTC, ISO 8601).
    pub started: String,
    pub ended: String,
    pub z3_version: String,
    pub rounds: u64,
    pub failed_rounds: u64,
    pub interrupted: bool,
    pub command: Option<String>,
    /// The unique findings it saw, and how many of them no earlier night had seen.
    pub findings: u64,
    pub first_seen: u64,
}

/// A triage result as stored.
#[derive(Clone, Debug, Serialize)]
pub struct ReplayRecord {
    pub z3_version: String,
    pub result: String,
    pub signature: Option<String>,
    pub note: Option<String>,
    pub checked: String,
}

/// How a triage replay of a finding's trace ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayResult {
    /// It fails with one of the finding's signatures.
    Reproduces,
    /// It replays cleanly (exit 0): the bug is fixed in this Z3.
    Passes,
    /// It fails with another signature (this one): not verified fixed, stays open.
    FailsOtherwise(String),
    /// No verdict (why): the replay ran past its limit or ended without a signature.
    Undecided(String),
    /// Passes here, but that proves nothing (why): the trace is not shown to reproduce on
    /// the Z3 that recorded it, or it could not be replayed at all.
    CannotVerify(String),
}

impl ReplayResult {
    fn name(&self) -> &'static str {
        match self {
            ReplayResult::Reproduces => "reproduces",
            ReplayResult::Passes => "passes",
            ReplayResult::FailsOtherwise(_) => "fails-otherwise",
            ReplayResult::Undecided(_) => "undecided",
            ReplayResult::CannotVerify(_) => "cannot-verify",
        }
    }
}

/// A finding to triage: what its replay needs.
#[derive(Clone, Debug)]
pub struct TriageCase {
    pub id: i64,
    pub signature: String,
    pub kind: String,
    /// Every signature that names the finding: a replay showing one of them reproduces it.
    pub signatures: Vec<String>,
    /// The stored trace's file name (`min.trace`, `round.trace`) and text.
    pub trace_name: String,
    pub trace: Vec<u8>,
    /// The limits of the round that found it, and the untrace options its replay needs.
    pub limits: Limits,
    pub replay_args: Vec<String>,
    /// The Z3 versions of the campaigns that saw it, with the libz3 file each ran on.
    pub recorded_on: Vec<(String, Option<PathBuf>)>,
    /// The Z3 versions on which a replay of its trace reproduced it (evidence stored by a
    /// campaign's minimization or an earlier triage).
    pub reproduced_on: Vec<String>,
    /// Why its stored trace cannot serve as evidence, if it cannot.
    pub unusable: Option<String>,
}

/// An open findings database.
pub struct FindingsDb {
    conn: Connection,
    path: PathBuf,
}

impl FindingsDb {
    /// Opens the database at `path` (created when `create` and missing), migrated to
    /// [`SCHEMA_VERSION`]. An error names the file: missing, not SQLite, not ours, newer.
    pub fn open(path: &Path, create: bool) -> anyhow::Result<FindingsDb> {
        let name = path.display();
        if !create && !path.exists() {
            bail!("{name}: no such findings database (a campaign with --db PATH creates it)");
        }
        let mut flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        if create {
            flags |= OpenFlags::SQLITE_OPEN_CREATE;
            // The first night's `--db nightly/findings.sqlite` comes before its `--out
            // nightly/DATE` makes the folder.
            if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                std::fs::create_dir_all(parent)
                    .with_context(|| format!("cannot create {}", parent.display()))?;
            }
        }
        let conn = Connection::open_with_flags(path, flags)
            .with_context(|| format!("{name}: cannot open"))?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        let mut db = FindingsDb {
            conn,
            path: path.to_path_buf(),
        };
        // Only the outermost message: rusqlite's cause repeats it with SQLite's error code.
        db.migrate()
            .map_err(|e| anyhow::anyhow!("{name}: not a usable mbt findings database: {e}"))?;
        Ok(db)
    }

    /// The file this database lives in.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A write transaction. It takes the write lock at once (`BEGIN IMMEDIATE`): two writers
    /// that both began by reading could not both upgrade, and one would fail at once instead
    /// of waiting its turn.
    fn write(&mut self) -> rusqlite::Result<Transaction<'_>> {
        self.conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
    }

    /// Brings the schema to [`SCHEMA_VERSION`]; a database that is current takes no lock.
    fn migrate(&mut self) -> anyhow::Result<()> {
        if schema_version(&self.conn)? == SCHEMA_VERSION {
            return Ok(());
        }
        let tx = self.write()?;
        // Again under the lock: another process may have migrated it meanwhile.
        let version = schema_version(&tx)?;
        for sql in &MIGRATIONS[version as usize..] {
            tx.execute_batch(sql)?;
        }
        if version < 2 {
            repair_traces_without_calls(&tx)?;
        }
        tx.pragma_update(None, "application_id", APPLICATION_ID)?;
        tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
        tx.commit()?;
        Ok(())
    }

    /// Records the campaign whose output folder is `out` (its `summary` and `run`): the
    /// campaign, every unique failure as a sighting of its finding (a finding the database did
    /// not know is added with its trace), in one transaction. Recording a folder again
    /// replaces what it recorded before.
    pub fn record(
        &mut self,
        out: &Path,
        summary: &Summary,
        run: &CampaignRun,
    ) -> anyhow::Result<Recorded> {
        let out = std::path::absolute(out)
            .with_context(|| format!("cannot resolve {}", out.display()))?;
        // Read before the transaction, so that the lock is held briefly.
        let traces = (summary.failure_list.iter())
            .map(StoredTrace::of)
            .collect::<anyhow::Result<Vec<_>>>()?;
        let tx = self.write()?;
        let campaign: i64 = tx.query_row(
            &format!(
                "INSERT INTO campaigns (output, started, ended, z3_version, rounds,
                     failed_rounds, interrupted, command, recorded, z3_lib)
                 VALUES (?1, strftime('%Y-%m-%dT%H:%M:%SZ', ?2, 'unixepoch'),
                     strftime('%Y-%m-%dT%H:%M:%SZ', ?3, 'unixepoch'), ?4, ?5, ?6, ?7, ?8, {NOW},
                     ?9)
                 ON CONFLICT (output) DO UPDATE SET started = excluded.started,
                     ended = excluded.ended, z3_version = excluded.z3_version,
                     z3_lib = excluded.z3_lib,
                     rounds = excluded.rounds, failed_rounds = excluded.failed_rounds,
                     interrupted = excluded.interrupted, command = excluded.command,
                     recorded = excluded.recorded
                 RETURNING id"
            ),
            params![
                out.to_string_lossy(),
                run.started,
                run.ended,
                summary.z3_version,
                summary.rounds,
                summary.failed_rounds,
                summary.interrupted,
                run.command,
                summary.z3_lib,
            ],
            |r| r.get(0),
        )?;
        tx.execute("DELETE FROM sightings WHERE campaign = ?1", [campaign])?;
        let mut recorded = Recorded {
            findings: summary.failure_list.len(),
            ..Recorded::default()
        };
        for (entry, trace) in summary.failure_list.iter().zip(&traces) {
            // The one after minimization, the key of a new finding, first.
            let signatures = entry.signatures();
            let finding = match find_finding(&tx, &signatures)? {
                Some(id) => {
                    trace.replace_worse(&tx, id)?;
                    // Seen in a night that started after a triage found it fixed: the fix did
                    // not hold (or the bug came back).
                    recorded.reopened += tx.execute(
                        "UPDATE findings SET fixed_in = NULL, fixed_at = NULL
                         WHERE id = ?1 AND fixed_at < (SELECT started FROM campaigns WHERE id = ?2)",
                        params![id, campaign],
                    )?;
                    id
                }
                None => {
                    recorded.new += 1;
                    trace.insert(&tx, entry)?
                }
            };
            if entry.known {
                tx.execute("UPDATE findings SET confirmed = 1 WHERE id = ?1", [finding])?;
            }
            if trace.verified {
                // The campaign's minimization replayed this very trace to the finding's
                // signature on its Z3: the evidence a triage on another Z3 needs.
                tx.execute(
                    &format!(
                        "INSERT OR REPLACE INTO replays (finding, z3_version, result, note,
                             checked)
                         SELECT ?1, ?2, 'reproduces', 'replayed by the campaign', {NOW}
                         FROM findings WHERE id = ?1 AND trace = ?3"
                    ),
                    params![finding, summary.z3_version, trace.bytes],
                )?;
            }
            for signature in &signatures {
                tx.execute(
                    "INSERT OR IGNORE INTO signatures (signature, finding) VALUES (?1, ?2)",
                    params![signature, finding],
                )?;
            }
            let folder = entry.trace.parent().unwrap_or(&out);
            tx.execute(
                "INSERT INTO sightings (finding, campaign, rounds, folder) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (finding, campaign) DO UPDATE SET rounds = rounds + excluded.rounds",
                params![finding, campaign, entry.count, folder.to_string_lossy()],
            )?;
        }
        tx.commit()?;
        Ok(recorded)
    }

    /// Every finding's history, the most recently seen first.
    pub fn history(&self) -> anyhow::Result<Vec<FindingHistory>> {
        let mut rows = Vec::new();
        let mut stmt = self.conn.prepare(
            "SELECT f.id, f.signature, f.kind, f.message, f.confirmed, f.fixed_in, f.fixed_at,
                    f.trace_path, f.minimized, MIN(c.started), MAX(c.started),
                    COUNT(s.campaign), COALESCE(SUM(s.rounds), 0)
             FROM findings f
             LEFT JOIN sightings s ON s.finding = f.id
             LEFT JOIN campaigns c ON c.id = s.campaign
             GROUP BY f.id
             ORDER BY MAX(c.started) DESC, f.id",
        )?;
        let mut query = stmt.query([])?;
        while let Some(r) = query.next()? {
            let confirmed: bool = r.get(4)?;
            let fixed_in: Option<String> = r.get(5)?;
            let nights: u64 = r.get(11)?;
            let status = if fixed_in.is_some() {
                Status::Fixed
            } else if confirmed || nights > 1 {
                Status::Open
            } else {
                Status::New
            };
            rows.push(FindingHistory {
                id: r.get(0)?,
                signature: r.get(1)?,
                kind: r.get(2)?,
                message: r.get(3)?,
                status,
                fixed_in,
                fixed_at: r.get(6)?,
                trace_path: r.get(7)?,
                minimized: r.get(8)?,
                first_seen: r.get(9)?,
                last_seen: r.get(10)?,
                nights,
                rounds: r.get(12)?,
                campaigns: Vec::new(),
                reproduces_on: Vec::new(),
                signatures: Vec::new(),
                replays: Vec::new(),
            });
        }
        for row in &mut rows {
            row.campaigns = self.strings(
                "SELECT c.output FROM sightings s JOIN campaigns c ON c.id = s.campaign
                 WHERE s.finding = ?1 ORDER BY c.started, c.id",
                row.id,
            )?;
            row.reproduces_on = self.strings(
                "SELECT c.z3_version FROM sightings s JOIN campaigns c ON c.id = s.campaign
                 WHERE s.finding = ?1
                 UNION SELECT z3_version FROM replays WHERE finding = ?1 AND result = 'reproduces'
                 ORDER BY 1",
                row.id,
            )?;
            row.signatures = self.strings(
                "SELECT signature FROM signatures WHERE finding = ?1 ORDER BY signature",
                row.id,
            )?;
            let mut stmt = self.conn.prepare(
                "SELECT z3_version, result, signature, note, checked FROM replays
                 WHERE finding = ?1 ORDER BY checked, z3_version",
            )?;
            row.replays = stmt
                .query_map([row.id], |r| {
                    Ok(ReplayRecord {
                        z3_version: r.get(0)?,
                        result: r.get(1)?,
                        signature: r.get(2)?,
                        note: r.get(3)?,
                        checked: r.get(4)?,
                    })
                })?
                .collect::<rusqlite::Result<_>>()?;
        }
        Ok(rows)
    }

    fn strings(&self, sql: &str, id: i64) -> rusqlite::Result<Vec<String>> {
        let mut stmt = self.conn.prepare(sql)?;
        let rows = stmt.query_map([id], |r| r.get(0))?;
        rows.collect()
    }

    /// Every signature of the findings that are not fixed: what a campaign with this database
    /// counts as known (a fixed finding seen again is new: the fix did not hold).
    pub fn open_signatures(&self) -> anyhow::Result<Vec<String>> {
        self.signatures_where("f.fixed_in IS NULL")
    }

    /// The signatures of [`FindingsDb::open_signatures`] whose finding has no minimized trace
    /// stored yet: a campaign with `--minimize` minimizes them although they are known.
    pub fn unminimized_signatures(&self) -> anyhow::Result<Vec<String>> {
        self.signatures_where("f.fixed_in IS NULL AND NOT f.minimized")
    }

    fn signatures_where(&self, condition: &str) -> anyhow::Result<Vec<String>> {
        let mut stmt = self.conn.prepare(&format!(
            "SELECT s.signature FROM signatures s JOIN findings f ON f.id = s.finding
             WHERE {condition} ORDER BY s.signature"
        ))?;
        let rows = stmt.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The findings that are not fixed, with what their replays need, oldest first.
    pub fn to_triage(&self) -> anyhow::Result<Vec<TriageCase>> {
        let mut stmt = self.conn.prepare(
            "SELECT id, signature, kind, trace_name, trace, timeout, memout_mib, replay_args,
                    unusable
             FROM findings WHERE fixed_in IS NULL ORDER BY id",
        )?;
        let mut cases = Vec::new();
        let mut query = stmt.query([])?;
        while let Some(r) = query.next()? {
            let id: i64 = r.get(0)?;
            let args: String = r.get(7)?;
            let timeout: f64 = r.get(5)?;
            cases.push(TriageCase {
                id,
                signature: r.get(1)?,
                kind: r.get(2)?,
                trace_name: r.get(3)?,
                trace: r.get(4)?,
                limits: Limits {
                    timeout: Duration::try_from_secs_f64(timeout)
                        .unwrap_or(Duration::from_secs_f64(DEFAULT_TIMEOUT_SECONDS)),
                    memout_mb: r.get(6)?,
                },
                replay_args: serde_json::from_str(&args)
                    .with_context(|| format!("finding {id}: unreadable replay_args"))?,
                signatures: Vec::new(),
                recorded_on: Vec::new(),
                reproduced_on: Vec::new(),
                unusable: r.get(8)?,
            });
        }
        for case in &mut cases {
            case.signatures = self.strings(
                "SELECT signature FROM signatures WHERE finding = ?1",
                case.id,
            )?;
            case.reproduced_on = self.strings(
                "SELECT z3_version FROM replays WHERE finding = ?1 AND result = 'reproduces'
                 ORDER BY z3_version",
                case.id,
            )?;
            let mut stmt = self.conn.prepare(
                "SELECT DISTINCT c.z3_version, c.z3_lib FROM sightings s
                 JOIN campaigns c ON c.id = s.campaign WHERE s.finding = ?1
                 ORDER BY c.started DESC",
            )?;
            case.recorded_on = stmt
                .query_map([case.id], |r| {
                    Ok((r.get(0)?, r.get::<_, Option<String>>(1)?.map(PathBuf::from)))
                })?
                .collect::<rusqlite::Result<_>>()?;
        }
        Ok(cases)
    }

    /// Stores the result of a triage replay of finding `id` on Z3 `z3_version`: a replay that
    /// reproduces confirms the finding, one that passes marks it fixed in this version.
    pub fn record_replay(
        &mut self,
        id: i64,
        z3_version: &str,
        result: &ReplayResult,
    ) -> anyhow::Result<()> {
        let (signature, note) = match result {
            ReplayResult::FailsOtherwise(signature) => (Some(signature.as_str()), None),
            ReplayResult::Undecided(why) | ReplayResult::CannotVerify(why) => {
                (None, Some(why.as_str()))
            }
            ReplayResult::Reproduces | ReplayResult::Passes => (None, None),
        };
        let tx = self.write()?;
        tx.execute(
            &format!(
                "INSERT OR REPLACE INTO replays (finding, z3_version, result, signature, note,
                     checked)
                 VALUES (?1, ?2, ?3, ?4, ?5, {NOW})"
            ),
            params![id, z3_version, result.name(), signature, note],
        )?;
        match result {
            ReplayResult::Reproduces => {
                tx.execute("UPDATE findings SET confirmed = 1 WHERE id = ?1", [id])?;
            }
            ReplayResult::Passes => {
                tx.execute(
                    &format!(
                        "UPDATE findings SET fixed_in = ?2, fixed_at = {NOW}
                         WHERE id = ?1 AND fixed_in IS NULL"
                    ),
                    params![id, z3_version],
                )?;
            }
            ReplayResult::FailsOtherwise(_)
            | ReplayResult::Undecided(_)
            | ReplayResult::CannotVerify(_) => {}
        }
        tx.commit()?;
        Ok(())
    }

    /// Every recorded campaign, the latest first.
    pub fn campaigns(&self) -> anyhow::Result<Vec<CampaignRecord>> {
        let mut stmt = self.conn.prepare(
            "SELECT c.id, c.output, c.started, c.ended, c.z3_version, c.rounds, c.failed_rounds,
                    c.interrupted, c.command, COUNT(s.finding),
                    COUNT(s.finding) FILTER (WHERE NOT EXISTS (
                        SELECT 1 FROM sightings e JOIN campaigns ec ON ec.id = e.campaign
                        WHERE e.finding = s.finding
                          AND (ec.started < c.started OR (ec.started = c.started AND ec.id < c.id))))
             FROM campaigns c LEFT JOIN sightings s ON s.campaign = c.id
             GROUP BY c.id ORDER BY c.started DESC, c.id DESC",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok(CampaignRecord {
                id: r.get(0)?,
                output: r.get(1)?,
                started: r.get(2)?,
                ended: r.get(3)?,
                z3_version: r.get(4)?,
                rounds: r.get(5)?,
                failed_rounds: r.get(6)?,
                interrupted: r.get(7)?,
                command: r.get(8)?,
                findings: r.get(9)?,
                first_seen: r.get(10)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The stored trace of finding `id`: its file name and text.
    pub fn trace(&self, id: i64) -> anyhow::Result<(String, Vec<u8>)> {
        self.conn
            .query_row(
                "SELECT trace_name, trace FROM findings WHERE id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?
            .with_context(|| format!("{}: no finding {id}", self.path.display()))
    }
}

/// The schema version of the database `conn` is open on: 0 for an empty file; an error for a
/// file that is not SQLite, another application's database or a newer schema.
fn schema_version(conn: &Connection) -> anyhow::Result<i32> {
    // One statement, so one consistent snapshot: read apart, a migration that another
    // process commits in between shows an empty file with tables, "another application's".
    // The first read: a file that is not SQLite fails here ("file is not a database").
    let (id, version, objects): (i32, i32, i64) = conn.query_row(
        "SELECT (SELECT application_id FROM pragma_application_id), \
                (SELECT user_version FROM pragma_user_version), \
                (SELECT count(*) FROM sqlite_schema)",
        [],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )?;
    if id != APPLICATION_ID && !(id == 0 && objects == 0) {
        bail!("another application's SQLite database");
    }
    if !(0..=SCHEMA_VERSION).contains(&version) {
        bail!("schema {version} of a newer mbt (this one knows up to {SCHEMA_VERSION})");
    }
    Ok(version)
}

/// The finding one of `signatures` names, if any.
fn find_finding(tx: &Transaction<'_>, signatures: &[&str]) -> rusqlite::Result<Option<i64>> {
    for signature in signatures {
        let found = tx
            .query_row(
                "SELECT finding FROM signatures WHERE signature = ?1",
                [signature],
                |r| r.get(0),
            )
            .optional()?;
        if found.is_some() {
            return Ok(found);
        }
    }
    Ok(None)
}

/// The trace of a failure as the database stores it: the minimized one where there is one.
struct StoredTrace {
    name: String,
    path: PathBuf,
    bytes: Vec<u8>,
    minimized: bool,
    /// A replay of this trace showed the finding's signature (the minimization's check).
    verified: bool,
}

impl StoredTrace {
    fn of(entry: &FailureEntry) -> anyhow::Result<StoredTrace> {
        // A minimized trace counts only with calls in it: mbt writes no other, but an older
        // one did (a minimization whose replays could not run).
        let minimized = (entry.minimized_trace.as_deref())
            .and_then(|p| Some((p, std::fs::read(p).ok()?)))
            .filter(|(_, bytes)| has_calls(bytes));
        let (path, bytes, minimized) = match minimized {
            Some((path, bytes)) => (path, bytes, true),
            None => {
                let bytes = std::fs::read(&entry.trace)
                    .with_context(|| format!("cannot read {}", entry.trace.display()))?;
                (entry.trace.as_path(), bytes, false)
            }
        };
        Ok(StoredTrace {
            name: path
                .file_name()
                .map_or("round.trace".into(), |n| n.to_string_lossy().into_owned()),
            path: path.to_path_buf(),
            bytes,
            minimized,
            verified: minimized && entry.minimized_signature.is_some(),
        })
    }

    /// Adds a finding for `entry` with this trace; its id.
    fn insert(&self, tx: &Transaction<'_>, entry: &FailureEntry) -> anyhow::Result<i64> {
        let limits = rerun_limits(&entry.rerun);
        let key = entry
            .minimized_signature
            .as_ref()
            .unwrap_or(&entry.signature);
        tx.execute(
            "INSERT INTO findings (signature, kind, message, trace_name, trace_path, trace,
                 minimized, timeout, memout_mib, replay_args)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            params![
                key,
                entry.failure.kind.name(),
                entry.failure.message,
                self.name,
                self.path.to_string_lossy(),
                self.bytes,
                self.minimized,
                limits.timeout.as_secs_f64(),
                limits.memout_mb,
                serde_json::to_string(&entry.replay_args)?,
            ],
        )?;
        Ok(tx.last_insert_rowid())
    }

    /// Replaces the stored trace of finding `id` when this one is better: minimized where the
    /// stored one is not, or as minimized and shorter.
    fn replace_worse(&self, tx: &Transaction<'_>, id: i64) -> rusqlite::Result<()> {
        tx.execute(
            "UPDATE findings SET trace_name = ?2, trace_path = ?3, trace = ?4, minimized = ?5,
                 unusable = NULL
             WHERE id = ?1 AND (unusable IS NOT NULL OR minimized < ?5
                 OR (minimized = ?5 AND length(trace) > ?6))",
            params![
                id,
                self.name,
                self.path.to_string_lossy(),
                self.bytes,
                self.minimized,
                self.bytes.len() as i64,
            ],
        )?;
        Ok(())
    }
}

/// Whether `bytes` is a trace with at least one call line (a binary trace: one entry).
fn has_calls(bytes: &[u8]) -> bool {
    if bytes.starts_with(model::trace::binary::MAGIC) {
        return ddtrace::trace_io::read(bytes).is_ok_and(|(entries, _)| !entries.is_empty());
    }
    String::from_utf8_lossy(bytes)
        .lines()
        .map(str::trim)
        .any(|l| !l.is_empty() && !l.starts_with(';') && !l.starts_with("z3-trace"))
}

/// The repair of migration 2: a finding whose stored trace has no calls (a minimization of an
/// older mbt whose replays could not run wrote such traces, and triage then cleared the
/// finding) gets the round's trace back where its folder still holds it, else is marked
/// unusable; either way a fix recorded from it is withdrawn.
fn repair_traces_without_calls(tx: &Transaction<'_>) -> anyhow::Result<()> {
    let mut broken = Vec::new();
    {
        let mut stmt = tx.prepare("SELECT id, trace, trace_path FROM findings")?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            let bytes: Vec<u8> = r.get(1)?;
            if !has_calls(&bytes) {
                broken.push((r.get::<_, i64>(0)?, PathBuf::from(r.get::<_, String>(2)?)));
            }
        }
    }
    for (id, path) in broken {
        let round = path.with_file_name(crate::isolate::TRACE);
        match std::fs::read(&round).ok().filter(|b| has_calls(b)) {
            Some(bytes) => {
                tx.execute(
                    "UPDATE findings SET trace = ?2, trace_name = ?3, trace_path = ?4,
                         minimized = 0
                     WHERE id = ?1",
                    params![id, bytes, crate::isolate::TRACE, round.to_string_lossy()],
                )?;
            }
            None => {
                tx.execute(
                    "UPDATE findings SET unusable = ?2 WHERE id = ?1",
                    params![
                        id,
                        format!(
                            "its stored trace has no calls and {} is gone: a night that \
                             sees it again stores a new one",
                            round.display()
                        )
                    ],
                )?;
            }
        }
        tx.execute(
            "UPDATE findings SET fixed_in = NULL, fixed_at = NULL WHERE id = ?1",
            [id],
        )?;
        tx.execute(
            "DELETE FROM replays WHERE finding = ?1 AND result = 'passes'",
            [id],
        )?;
    }
    Ok(())
}

/// The limits of a failed round, read from its rerun command (`--timeout`, `--memout`, the
/// defaults where absent), so that a triage replays it as the campaign did.
fn rerun_limits(rerun: &str) -> Limits {
    let words = shell_words::split(rerun).unwrap_or_default();
    let value = |flag: &str| {
        let at = words.iter().position(|w| w == flag)?;
        words.get(at + 1)
    };
    let timeout = value("--timeout")
        .and_then(|t| t.parse::<f64>().ok())
        .and_then(|t| Duration::try_from_secs_f64(t).ok())
        .unwrap_or(Duration::from_secs_f64(DEFAULT_TIMEOUT_SECONDS));
    let memout_mb = value("--memout")
        .and_then(|m| m.parse().ok())
        .unwrap_or(DEFAULT_MEMOUT_MIB);
    Limits { timeout, memout_mb }
}

/// Seconds since the Unix epoch now.
pub fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// This process's command line as a shell would take it.
pub fn command_line() -> String {
    let words: Vec<String> = std::env::args_os()
        .map(|a| shell_word(&a.to_string_lossy()))
        .collect();
    words.join(" ")
}

/// Records the finished campaign in the output folder `out` into the database at `db`
/// (`mbt db record`). Start, end and command line come from `summary.json` where it holds
/// them (`start_time`, `end_time` as RFC 3339, `argv`, or `command_line` as a string or a
/// list of words), else from an earlier recording of the folder, else the end is the file's
/// modification time and the start that less the campaign's seconds.
pub fn record_folder(db: &mut FindingsDb, out: &Path) -> anyhow::Result<Recorded> {
    let summary = Summary::read(out)?;
    // What other writers of summary.json put there besides mbt's fields.
    let path = out.join("summary.json");
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let fields: serde_json::Value = serde_json::from_str(&text)?;
    let modified = std::fs::metadata(&path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or_else(unix_now, |d| d.as_secs() as i64);
    let time = |key: &str| -> anyhow::Result<Option<i64>> {
        let Some(text) = fields[key].as_str() else {
            return Ok(None);
        };
        let unix =
            db.conn
                .query_row("SELECT CAST(strftime('%s', ?1) AS INTEGER)", [text], |r| {
                    r.get(0)
                })?;
        Ok(unix)
    };
    // What an earlier recording of this folder knew (the campaign's own `--db` knows its
    // times and command line exactly) beats an estimate.
    let absolute =
        std::path::absolute(out).with_context(|| format!("cannot resolve {}", out.display()))?;
    let earlier: Option<(i64, i64, Option<String>)> = db
        .conn
        .query_row(
            "SELECT CAST(strftime('%s', started) AS INTEGER),
                    CAST(strftime('%s', ended) AS INTEGER), command
             FROM campaigns WHERE output = ?1",
            [absolute.to_string_lossy()],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?;
    let ended = time("end_time")?
        .or(earlier.as_ref().map(|e| e.1))
        .unwrap_or(modified);
    let started = time("start_time")?
        .or(earlier.as_ref().map(|e| e.0))
        .unwrap_or(ended - summary.seconds.round() as i64);
    // `argv` is summary.json's (docs/json-schemas.md); `command_line` what other writers use.
    let words = match &fields["argv"] {
        serde_json::Value::Array(words) if !words.is_empty() => &fields["argv"],
        _ => &fields["command_line"],
    };
    let command = match words {
        serde_json::Value::String(line) => Some(line.clone()),
        serde_json::Value::Array(words) => Some(
            (words.iter())
                .map(|w| shell_word(w.as_str().unwrap_or_default()))
                .collect::<Vec<_>>()
                .join(" "),
        ),
        _ => earlier.and_then(|e| e.2),
    };
    let run = CampaignRun {
        started,
        ended,
        command,
    };
    db.record(out, &summary, &run)
}

/// `rows` as a text table (`mbt db list`).
pub fn table(rows: &[FindingHistory]) -> String {
    let mut text = format!(
        "{:>4}  {:<6} {:<17} {:>6} {:>7}  {:<16} {:<16} {:<24} {:<10}  signature\n",
        "id",
        "status",
        "kind",
        "nights",
        "rounds",
        "first seen",
        "last seen",
        "reproduces on",
        "fixed in"
    );
    let day = |t: &Option<String>| {
        t.as_deref().map_or("-".into(), |t| {
            t.replace('T', " ").chars().take(16).collect::<String>()
        })
    };
    for r in rows {
        let _ = writeln!(
            text,
            "{:>4}  {:<6} {:<17} {:>6} {:>7}  {:<16} {:<16} {:<24} {:<10}  {}",
            r.id,
            r.status.name(),
            r.kind,
            r.nights,
            r.rounds,
            day(&r.first_seen),
            day(&r.last_seen),
            r.reproduces_on.join(","),
            r.fixed_in.as_deref().unwrap_or("-"),
            r.signature
        );
    }
    text
}

/// `campaigns` as a text table (`mbt db campaigns`).
pub fn campaigns_table(campaigns: &[CampaignRecord]) -> String {
    let mut text = format!(
        "{:>4}  {:<20} {:<20} {:<12} {:>8} {:>8} {:>5}  output\n",
        "id", "started", "ended", "z3", "rounds", "findings", "first"
    );
    for c in campaigns {
        let _ = writeln!(
            text,
            "{:>4}  {:<20} {:<20} {:<12} {:>8} {:>8} {:>5}  {}{}",
            c.id,
            c.started,
            c.ended,
            c.z3_version,
            c.rounds,
            c.findings,
            c.first_seen,
            c.output,
            if c.interrupted { " (interrupted)" } else { "" }
        );
    }
    text
}

/// The findings database as the report shows it: each finding's history (first seen, the Z3
/// versions it reproduces on, for the finding's row) and the history section.
pub struct History {
    pub findings: Vec<FindingHistory>,
    /// [`history_html`]'s fragment.
    pub html: String,
}

impl History {
    /// Reads the database at `db`.
    pub fn load(db: &Path) -> anyhow::Result<History> {
        let findings = FindingsDb::open(db, false)?.history()?;
        let html = history_html(db)?;
        Ok(History { findings, html })
    }

    /// The history of the finding that one of `signatures` names.
    pub fn of<'a>(&self, mut signatures: impl Iterator<Item = &'a str>) -> Option<&FindingHistory> {
        signatures.find_map(|s| {
            (self.findings.iter()).find(|f| f.signature == s || f.signatures.iter().any(|t| t == s))
        })
    }
}

/// The history of every finding in the database at `db` as an HTML fragment for the report:
/// a `<section class="findings-history">` with a count per status, a table of findings
/// (signature, kind, status, first and last seen, nights, rounds, Z3 versions, fixed in; each
/// minimized trace in a collapsed `<details>`) and a table of nights (start, end, Z3, rounds,
/// findings, first seen there, output folder). No external resources.
pub fn history_html(db: &Path) -> anyhow::Result<String> {
    let db = FindingsDb::open(db, false)?;
    let rows = db.history()?;
    let count = |s: Status| rows.iter().filter(|r| r.status == s).count();
    let mut html =
        String::from("<section class=\"findings-history\">\n<h2>Findings across nights</h2>\n");
    let _ = writeln!(
        html,
        "<p>{} findings in {}: {} new, {} open, {} fixed.</p>",
        rows.len(),
        html_escape(&db.path.display().to_string()),
        count(Status::New),
        count(Status::Open),
        count(Status::Fixed)
    );
    html.push_str(
        "<table>\n<thead><tr><th>id</th><th>signature</th><th>kind</th><th>status</th>\
         <th>first seen</th><th>last seen</th><th>nights</th><th>rounds</th>\
         <th>reproduces on</th><th>fixed in</th></tr></thead>\n<tbody>\n",
    );
    for r in &rows {
        let trace = if r.minimized {
            let (_, bytes) = db.trace(r.id)?;
            format!(
                "<details><summary>minimized trace</summary><pre>{}</pre></details>",
                html_escape(&String::from_utf8_lossy(&bytes))
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            html,
            "<tr class=\"{status}\"><td>{id}</td><td><code>{signature}</code>{trace}</td>\
             <td>{kind}</td><td>{status}</td><td>{first}</td><td>{last}</td><td>{nights}</td>\
             <td>{rounds}</td><td>{versions}</td><td>{fixed}</td></tr>",
            status = r.status.name(),
            id = r.id,
            signature = html_escape(&r.signature),
            kind = html_escape(&r.kind),
            first = html_escape(r.first_seen.as_deref().unwrap_or("-")),
            last = html_escape(r.last_seen.as_deref().unwrap_or("-")),
            nights = r.nights,
            rounds = r.rounds,
            versions = html_escape(&r.reproduces_on.join(", ")),
            fixed = html_escape(r.fixed_in.as_deref().unwrap_or("-")),
        );
    }
    html.push_str(
        "</tbody>\n</table>\n<h3>Nights</h3>\n<table>\n<thead><tr><th>started</th>\
         <th>ended</th><th>Z3</th><th>rounds</th><th>findings</th><th>first seen</th>\
         <th>output</th></tr></thead>\n<tbody>\n",
    );
    for c in db.campaigns()? {
        let _ = writeln!(
            html,
            "<tr><td>{}</td><td>{}{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td><code>{}</code></td></tr>",
            html_escape(&c.started),
            html_escape(&c.ended),
            if c.interrupted { " (interrupted)" } else { "" },
            html_escape(&c.z3_version),
            c.rounds,
            c.findings,
            c.first_seen,
            html_escape(&c.output),
        );
    }
    html.push_str("</tbody>\n</table>\n</section>\n");
    Ok(html)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::failure::{Failure, FailureKind};

    /// A failure of `signature` saved by the campaign in `out`, with a round trace of `lines`
    /// lines (and a minimized trace of one line with `minimized`).
    fn entry(out: &Path, signature: &str, minimized: Option<&str>, lines: usize) -> FailureEntry {
        let dir = out
            .join("failures")
            .join(model::finding::signature_id(signature));
        std::fs::create_dir_all(&dir).unwrap();
        let trace = dir.join("round.trace");
        std::fs::write(
            &trace,
            "z3-trace 1\n".to_string() + &"push z1\n".repeat(lines),
        )
        .unwrap();
        let min = minimized.map(|_| {
            let path = dir.join("min.trace");
            std::fs::write(&path, "z3-trace 1\npush z1\n").unwrap();
            path
        });
        FailureEntry {
            id: dir.file_name().unwrap().to_string_lossy().into_owned(),
            failure: Failure::new(FailureKind::Crash, "killed by SIGSEGV in `push`"),
            signature: signature.into(),
            known: false,
            count: 3,
            seed: 1,
            first_seed: 1,
            last_seed: 9,
            options: Vec::new(),
            z3_version: "4.8.12.0".into(),
            trace,
            files: None,
            rerun: "/bin/mbt --seed 1 --rounds 1 --timeout 0.5 --out /o".into(),
            replay: String::new(),
            replay_args: Vec::new(),
            minimized_trace: min,
            reproducers: Vec::new(),
            minimized_replay: None,
            minimized_signature: minimized.map(str::to_string),
            minimize_note: None,
            merged_ids: Vec::new(),
            merged_signatures: Vec::new(),
            found_after: None,
        }
    }

    fn summary(z3: &str, entries: Vec<FailureEntry>) -> Summary {
        let mut summary = Summary {
            rounds: 100,
            z3_version: z3.into(),
            failure_list: entries,
            ..Summary::default()
        };
        summary.finish();
        summary
    }

    fn night(started: i64) -> CampaignRun {
        CampaignRun {
            started,
            ended: started + 3600,
            command: Some("mbt --time 3600".into()),
        }
    }

    const DAY: i64 = 86_400;
    const T0: i64 = 1_790_000_000;

    #[test]
    fn a_finding_is_new_in_one_night_and_open_in_two() {
        let dir = tempfile::tempdir().unwrap();
        let mut db = FindingsDb::open(&dir.path().join("f.sqlite"), true).unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        let first = summary("4.8.12.0", vec![entry(&a, "crash|x", None, 5)]);
        let recorded = db.record(&a, &first, &night(T0)).unwrap();
        assert_eq!((recorded.findings, recorded.new), (1, 1));
        let rows = db.history().unwrap();
        assert_eq!(
            (rows[0].status, rows[0].nights, rows[0].rounds),
            (Status::New, 1, 3)
        );
        // Recording a folder again replaces what it recorded.
        let again = db.record(&a, &first, &night(T0)).unwrap();
        assert_eq!(again.new, 0);
        let rows = db.history().unwrap();
        assert_eq!((rows[0].nights, rows[0].rounds), (1, 3));
        // The next night on another Z3, minimized this time: the same finding, now open.
        let second = summary(
            "4.13.0.0",
            vec![entry(&b, "crash|x", Some("crash|x [push]"), 9)],
        );
        db.record(&b, &second, &night(T0 + DAY)).unwrap();
        let rows = db.history().unwrap();
        assert_eq!(rows.len(), 1);
        let r = &rows[0];
        assert_eq!((r.status, r.nights, r.rounds), (Status::Open, 2, 6));
        assert_eq!(r.first_seen.as_deref(), Some("2026-09-21T14:13:20Z"));
        assert_eq!(r.last_seen.as_deref(), Some("2026-09-22T14:13:20Z"));
        assert_eq!(r.reproduces_on, ["4.13.0.0", "4.8.12.0"]);
        assert_eq!(r.signatures, ["crash|x", "crash|x [push]"]);
        assert!(r.minimized && r.trace_path.ends_with("min.trace"), "{r:?}");
        let campaigns: Vec<PathBuf> = r.campaigns.iter().map(PathBuf::from).collect();
        assert_eq!(campaigns, [a, b]);
        let nights = db.campaigns().unwrap();
        let counts: Vec<(u64, u64, &str)> = (nights.iter())
            .map(|c| (c.findings, c.first_seen, c.z3_version.as_str()))
            .collect();
        assert_eq!(counts, [(1, 0, "4.13.0.0"), (1, 1, "4.8.12.0")]);
        assert_eq!(nights[1].command.as_deref(), Some("mbt --time 3600"));
        // Its limits came from the rerun command.
        let case = &db.to_triage().unwrap()[0];
        assert_eq!(case.limits.timeout, Duration::from_millis(500));
        assert_eq!(case.trace, b"z3-trace 1\npush z1\n");
    }

    #[test]
    fn a_later_night_finds_a_finding_by_any_of_its_signatures() {
        let dir = tempfile::tempdir().unwrap();
        let mut db = FindingsDb::open(&dir.path().join("f.sqlite"), true).unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        let mut merged = entry(&a, "crash|x", Some("crash|root"), 5);
        merged.merged_signatures = vec!["crash|y".into()];
        db.record(&a, &summary("4.8.12.0", vec![merged]), &night(T0))
            .unwrap();
        // Unminimized, through a signature merged into it.
        let recorded = db
            .record(
                &b,
                &summary("4.8.12.0", vec![entry(&b, "crash|y", None, 50)]),
                &night(T0 + DAY),
            )
            .unwrap();
        assert_eq!(recorded.new, 0);
        let rows = db.history().unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(
            (rows[0].signature.as_str(), rows[0].nights),
            ("crash|root", 2)
        );
        // The minimized trace stays: a round trace is worse.
        assert!(rows[0].minimized);
    }

    /// A crash minimized before its signature named the function (the place then) is the
    /// same finding when a later night's minimization names the function, and so is a crash
    /// at another place of that function.
    #[test]
    fn a_crash_signed_by_its_place_is_found_again_by_its_function() {
        let dir = tempfile::tempdir().unwrap();
        let mut db = FindingsDb::open(&dir.path().join("f.sqlite"), true).unwrap();
        let (a, b, c) = (
            dir.path().join("a"),
            dir.path().join("b"),
            dir.path().join("c"),
        );
        let (at_26f, at_254) = (
            "crash|SIGSEGV at libz3.so.4+0x26f",
            "crash|SIGSEGV at libz3.so.4+0x254",
        );
        let by_function = "crash|SIGSEGV in euf::completion::get_canonical";
        db.record(
            &a,
            &summary("5.4.1.0", vec![entry(&a, at_26f, Some(at_26f), 5)]),
            &night(T0),
        )
        .unwrap();
        for (folder, place, night_at) in [(&b, at_26f, T0 + DAY), (&c, at_254, T0 + 2 * DAY)] {
            let recorded = db
                .record(
                    folder,
                    &summary("5.4.1.0", vec![entry(folder, place, Some(by_function), 5)]),
                    &night(night_at),
                )
                .unwrap();
            assert_eq!(recorded.new, 0, "{place}");
        }
        let rows = db.history().unwrap();
        assert_eq!(rows.len(), 1, "{rows:?}");
        assert_eq!(rows[0].nights, 3);
        assert!(rows[0].signatures.iter().any(|s| s == by_function));
    }

    #[test]
    fn a_fix_holds_until_a_later_night_sees_it_again() {
        let dir = tempfile::tempdir().unwrap();
        let mut db = FindingsDb::open(&dir.path().join("f.sqlite"), true).unwrap();
        let a = dir.path().join("a");
        db.record(
            &a,
            &summary("4.8.12.0", vec![entry(&a, "crash|x", None, 5)]),
            &night(T0),
        )
        .unwrap();
        let id = db.history().unwrap()[0].id;
        db.record_replay(id, "4.15.0.0", &ReplayResult::Passes)
            .unwrap();
        let r = &db.history().unwrap()[0];
        assert_eq!(
            (r.status, r.fixed_in.as_deref()),
            (Status::Fixed, Some("4.15.0.0"))
        );
        assert!(
            db.to_triage().unwrap().is_empty(),
            "a fixed finding is not triaged"
        );
        // An older night recorded late does not reopen it.
        let old = dir.path().join("old");
        let late = summary("4.8.12.0", vec![entry(&old, "crash|x", None, 5)]);
        assert_eq!(
            db.record(&old, &late, &night(T0 - DAY)).unwrap().reopened,
            0
        );
        assert_eq!(db.history().unwrap()[0].status, Status::Fixed);
        // A night that starts after the fix and sees it again reopens it.
        let next = dir.path().join("next");
        let now = unix_now() + 10;
        let again = summary("4.15.0.0", vec![entry(&next, "crash|x", None, 5)]);
        assert_eq!(db.record(&next, &again, &night(now)).unwrap().reopened, 1);
        let r = &db.history().unwrap()[0];
        assert_eq!(
            (r.status, r.fixed_in.as_deref(), r.nights),
            (Status::Open, None, 3)
        );
        assert_eq!(r.replays[0].result, "passes");
    }

    #[test]
    fn opening_an_old_database_repairs_traces_without_calls() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.sqlite");
        {
            // A schema-1 database as the mbt that minimized to nothing left it: two findings
            // stored as the empty trace `z3-trace 1` and marked fixed by a triage.
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(MIGRATIONS[0]).unwrap();
            conn.pragma_update(None, "application_id", APPLICATION_ID)
                .unwrap();
            conn.pragma_update(None, "user_version", 1).unwrap();
            for (id, folder) in [(1, "kept"), (2, "gone")] {
                let min = dir.path().join(folder).join("min.trace");
                conn.execute(
                    "INSERT INTO findings (id, signature, kind, message, fixed_in, fixed_at,
                         trace_name, trace_path, trace, minimized, timeout, memout_mib,
                         replay_args)
                     VALUES (?1, ?2, 'crash', 'm', '5.4.1.0', '2026-11-25T00:00:00Z',
                         'min.trace', ?3, ?4, 1, 2.0, 2048, '[]')",
                    params![
                        id,
                        format!("crash|{id}"),
                        min.to_string_lossy(),
                        b"z3-trace 1\n"
                    ],
                )
                .unwrap();
                conn.execute(
                    "INSERT INTO replays VALUES (?1, '5.4.1.0', 'passes', NULL, NULL, 'x')",
                    [id],
                )
                .unwrap();
            }
        }
        let round = "z3-trace 1\nnew_solver\nreturn z1\n";
        std::fs::create_dir_all(dir.path().join("kept")).unwrap();
        std::fs::write(dir.path().join("kept/round.trace"), round).unwrap();
        let db = FindingsDb::open(&path, false).unwrap();
        let cases = db.to_triage().unwrap();
        // Both are open again: the fix was "proved" by a trace that could not fail.
        assert_eq!(cases.len(), 2);
        assert_eq!(cases[0].trace, round.as_bytes());
        assert_eq!(cases[0].trace_name, "round.trace");
        assert_eq!(cases[0].unusable, None);
        assert!(cases[1].unusable.as_deref().unwrap().contains("no calls"));
        assert!(db.history().unwrap().iter().all(|r| r.replays.is_empty()));
    }

    #[test]
    fn a_database_knows_its_findings_until_they_are_fixed() {
        let dir = tempfile::tempdir().unwrap();
        let mut db = FindingsDb::open(&dir.path().join("f.sqlite"), true).unwrap();
        let a = dir.path().join("a");
        let entries = vec![entry(&a, "crash|x", None, 5), entry(&a, "crash|y", None, 5)];
        db.record(&a, &summary("4.8.12.0", entries), &night(T0))
            .unwrap();
        assert_eq!(db.open_signatures().unwrap(), ["crash|x", "crash|y"]);
        let ids: Vec<i64> = db.to_triage().unwrap().iter().map(|c| c.id).collect();
        db.record_replay(ids[0], "5.4.1.0", &ReplayResult::Passes)
            .unwrap();
        assert_eq!(db.open_signatures().unwrap(), ["crash|y"]);
    }

    #[test]
    fn triage_results_confirm_a_finding_or_leave_it() {
        let dir = tempfile::tempdir().unwrap();
        let mut db = FindingsDb::open(&dir.path().join("f.sqlite"), true).unwrap();
        let a = dir.path().join("a");
        let entries = vec![entry(&a, "crash|x", None, 5), entry(&a, "crash|y", None, 5)];
        db.record(&a, &summary("4.8.12.0", entries), &night(T0))
            .unwrap();
        let ids: Vec<i64> = db.to_triage().unwrap().iter().map(|c| c.id).collect();
        db.record_replay(ids[0], "5.4.1.0", &ReplayResult::Reproduces)
            .unwrap();
        let other = ReplayResult::FailsOtherwise("crash|z".into());
        db.record_replay(ids[1], "5.4.1.0", &other).unwrap();
        let rows = db.history().unwrap();
        let row = |id: i64| rows.iter().find(|r| r.id == id).unwrap();
        assert_eq!(row(ids[0]).status, Status::Open);
        assert_eq!(row(ids[0]).reproduces_on, ["4.8.12.0", "5.4.1.0"]);
        assert_eq!(row(ids[1]).status, Status::New);
        assert_eq!(row(ids[1]).reproduces_on, ["4.8.12.0"]);
        assert_eq!(row(ids[1]).replays[0].signature.as_deref(), Some("crash|z"));
    }

    #[test]
    fn campaigns_that_record_at_the_same_time_all_get_in() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.sqlite");
        let threads: Vec<_> = (0..6)
            .map(|i| {
                let (path, out) = (path.clone(), dir.path().join(format!("shard-{i}")));
                std::thread::spawn(move || {
                    // Each a connection of its own, as separate processes have; the first
                    // ones race to create the schema too.
                    let mut db = FindingsDb::open(&path, true).unwrap();
                    let entries = vec![
                        entry(&out, "crash|shared", None, 5),
                        entry(&out, &format!("crash|only-{i}"), None, 5),
                    ];
                    for _ in 0..5 {
                        db.record(&out, &summary("4.8.12.0", entries.clone()), &night(T0 + i))
                            .unwrap();
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        let rows = FindingsDb::open(&path, false).unwrap().history().unwrap();
        assert_eq!(rows.len(), 7);
        let shared = rows.iter().find(|r| r.signature == "crash|shared").unwrap();
        assert_eq!((shared.nights, shared.rounds), (6, 18));
        let check: String = Connection::open(&path)
            .unwrap()
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .unwrap();
        assert_eq!(check, "ok");
    }

    #[test]
    fn files_that_are_not_findings_databases_are_refused_in_one_line() {
        let dir = tempfile::tempdir().unwrap();
        let error = |path: &Path, create: bool| {
            let e = FindingsDb::open(path, create).err().expect("refused");
            let text = format!("{e:#}");
            assert!(
                !text.contains('\n') && text.contains(&path.display().to_string()),
                "{text}"
            );
            text
        };
        let missing = dir.path().join("missing.sqlite");
        assert!(error(&missing, false).contains("no such findings database"));
        assert!(!missing.exists());
        let text = dir.path().join("notes.txt");
        std::fs::write(
            &text,
            "these are not the findings you are looking for\n".repeat(200),
        )
        .unwrap();
        assert!(error(&text, true).contains("not a database"));
        let foreign = dir.path().join("foreign.sqlite");
        Connection::open(&foreign)
            .unwrap()
            .execute_batch("CREATE TABLE t (x)")
            .unwrap();
        assert!(error(&foreign, true).contains("another application's"));
        let newer = dir.path().join("newer.sqlite");
        FindingsDb::open(&newer, true).unwrap();
        Connection::open(&newer)
            .unwrap()
            .pragma_update(None, "user_version", SCHEMA_VERSION + 1)
            .unwrap();
        assert!(error(&newer, false).contains("of a newer mbt"));
    }

    #[test]
    fn the_html_history_holds_a_row_per_finding() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.sqlite");
        let mut db = FindingsDb::open(&path, true).unwrap();
        let a = dir.path().join("a");
        let entries = vec![
            entry(&a, "crash|x<y>", Some("crash|x<y>"), 5),
            entry(&a, "crash|z", None, 5),
        ];
        db.record(&a, &summary("4.8.12.0", entries), &night(T0))
            .unwrap();
        let html = history_html(&path).unwrap();
        assert_eq!(html.matches("<tr class=").count(), 2, "{html}");
        assert!(html.contains("<code>crash|x&lt;y&gt;</code>"), "{html}");
        assert!(html.contains("2 findings in") && html.contains("2 new, 0 open, 0 fixed"));
        assert!(html.contains("<pre>z3-trace 1\npush z1\n</pre>"), "{html}");
        assert!(!html.contains("http"), "no external resources: {html}");
    }

    #[test]
    fn limits_come_from_the_rerun_command() {
        let l = rerun_limits(
            "MBT_INJECT=abort@3 /x/mbt --seed 4 --rounds 1 --timeout 0.5 --memout 400 --out '/a b'",
        );
        assert_eq!((l.timeout, l.memout_mb), (Duration::from_millis(500), 400));
        let l = rerun_limits("/x/mbt --seed 4 --rounds 1 --out /o");
        assert_eq!(
            (l.timeout.as_secs_f64(), l.memout_mb),
            (DEFAULT_TIMEOUT_SECONDS, DEFAULT_MEMOUT_MIB)
        );
    }

    #[test]
    fn html_escapes_markup() {
        assert_eq!(
            html_escape("a<b & \"c\"'"),
            "a&lt;b &amp; &quot;c&quot;&#39;"
        );
    }
}
