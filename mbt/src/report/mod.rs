//! `mbt report DIR... [--baseline DIR] [-o FILE]`: the campaign as one self-contained HTML
//! page (inline CSS and SVG, no scripts, nothing fetched), which a campaign and `mbt merge`
//! also write as `OUT/report.html`.
//!
//! [`render`] turns an [`Input`] into the page: the figures of the [`Summary`], its
//! [`crate::timeline::Timeline`] as plots over time (rounds and rounds/s, answers, findings),
//! how often every operation of the API model, every call and check, and every fuzzer action
//! was exercised (bars on a log scale; the model's names that never were show at zero), and
//! the unique findings for a reader in a hurry: one row per finding (status, kind, signature,
//! rounds, first seen, the Z3 versions it reproduces on, links to its files), grouped by kind
//! (the kind with the most failed rounds first) and sorted by rounds within the group, with
//! the message, the reproduce commands and the minimized trace folded (`<details>`) under the
//! signature. Every link is relative to the page's folder ([`Input::page_dir`]), so the
//! output folder can be moved or copied. A [`Baseline`] (an earlier campaign's folder) marks
//! which findings are new and which of its findings were not met again; the findings database
//! ([`Input::history`]) gives each row its first night and versions, and its own section.
//! Several folders are shards: they are merged in memory
//! ([`Summary::merge`]). The plots and bars are drawn by [`plots`].

pub mod plots;

use crate::findings_db::{FindingHistory, History};
use crate::stats::Count;
use crate::summary::{FailureEntry, Summary};
use anyhow::{bail, Context as _};
use plots::{Bar, Series, COLORS};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

/// The file name of the report in a campaign's output folder.
pub const FILE: &str = "report.html";
/// The longest minimized trace shown inline, in bytes; a longer one is cut with a note.
const INLINE_TRACE_LIMIT: usize = 16 * 1024;

/// An earlier campaign to compare with: its findings and every signature they go by.
pub struct Baseline {
    pub dir: PathBuf,
    pub summary: Summary,
    signatures: BTreeSet<String>,
}

impl Baseline {
    /// Reads the campaign folder `dir` (its `summary.json`).
    pub fn load(dir: &Path) -> anyhow::Result<Baseline> {
        let summary = Summary::read(dir).context("--baseline")?;
        let signatures = summary
            .failure_list
            .iter()
            .flat_map(signatures)
            .map(str::to_string)
            .collect();
        Ok(Baseline {
            dir: dir.to_path_buf(),
            summary,
            signatures,
        })
    }

    /// Whether the baseline had this finding, by any of its signatures.
    pub fn has(&self, entry: &FailureEntry) -> bool {
        signatures(entry).any(|s| self.signatures.contains(s))
    }
}

/// Every signature a finding goes by ([`FailureEntry::signatures`]).
fn signatures(entry: &FailureEntry) -> impl Iterator<Item = &str> {
    entry.signatures().into_iter()
}

/// What a report shows.
pub struct Input<'a> {
    pub summary: &'a Summary,
    /// The campaign folders the summary comes from (several: merged shards).
    pub sources: &'a [PathBuf],
    /// The folder the page is written into: every link of the page is relative to it.
    pub page_dir: &'a Path,
    pub baseline: Option<&'a Baseline>,
    /// The findings database: each finding's first night and Z3 versions, and the history
    /// across nights as a section of its own.
    pub history: Option<&'a History>,
}

impl Input<'_> {
    /// A finding is new unless `--known` named it or the baseline had it.
    fn is_new(&self, entry: &FailureEntry) -> bool {
        !entry.known && !self.baseline.is_some_and(|b| b.has(entry))
    }

    /// The database's history of a finding, if the report has a database that knows it.
    fn history_of(&self, entry: &FailureEntry) -> Option<&FindingHistory> {
        self.history.and_then(|h| h.of(signatures(entry)))
    }

    /// `target` relative to the page's folder (empty: that folder).
    fn relative(&self, target: &Path) -> PathBuf {
        let target = absolute(target);
        pathdiff::diff_paths(&target, absolute(self.page_dir)).unwrap_or(target)
    }

    /// The `href` of `target` from the page's folder.
    fn href(&self, target: &Path) -> String {
        let relative = self.relative(target);
        match relative.as_os_str().is_empty() {
            true => "./".into(),
            false => url_path(&relative.to_string_lossy()),
        }
    }

    /// A link to the folder `dir` that says where it is from the page.
    fn folder_link(&self, dir: &Path) -> String {
        let relative = self.relative(dir);
        let text = match relative.as_os_str().is_empty() {
            true => "this folder".to_string(),
            false => format!("<code>{}</code>", esc(&relative.to_string_lossy())),
        };
        let href = self.href(dir);
        let href = if href.ends_with('/') {
            href
        } else {
            href + "/"
        };
        format!("<a href=\"{}\">{text}</a>", esc(&href))
    }

    /// Where the files of finding `entry` are: its recorded folder, or, when that is gone (the
    /// output folder was moved after the campaign), the folder of its id in a source folder.
    fn finding_dir(&self, entry: &FailureEntry) -> PathBuf {
        let recorded = entry.trace.parent().unwrap_or(Path::new("")).to_path_buf();
        if recorded.is_dir() {
            return recorded;
        }
        (self.sources.iter())
            .map(|src| src.join("failures").join(&entry.id))
            .find(|dir| dir.is_dir())
            .unwrap_or(recorded)
    }
}

/// `path` absolute and, where it exists, with its symbolic links resolved, so that two paths
/// compare by where they are.
fn absolute(path: &Path) -> PathBuf {
    fs::canonicalize(path)
        .or_else(|_| std::path::absolute(path))
        .unwrap_or_else(|_| path.to_path_buf())
}

/// A relative path as a URL path: bytes other than unreserved characters and `/`
/// percent-encoded (a space, `#` or `%` in a folder name would otherwise break the link).
fn url_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for byte in path.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(byte as char)
            }
            _ => {
                let _ = write!(out, "%{byte:02X}");
            }
        }
    }
    out
}

/// `mbt report`: reads the folders (merging shards), renders the page with the findings'
/// `history` if given, and writes it to `output`, by default `DIR/report.html` of the one
/// folder. Returns the path written.
pub fn run(
    dirs: &[PathBuf],
    baseline: Option<&Path>,
    output: Option<&Path>,
    history: Option<&History>,
) -> anyhow::Result<PathBuf> {
    let output = match (output, dirs) {
        (Some(path), _) => path.to_path_buf(),
        (None, [dir]) => dir.join(FILE),
        (None, _) => bail!("several folders (shards): give the report's file with -o FILE"),
    };
    let shards = dirs
        .iter()
        .map(|d| Summary::read(d))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let summary = match shards.as_slice() {
        [one] => one.clone(),
        _ => Summary {
            merged_from: dirs.to_vec(),
            ..Summary::merge(&shards)
        },
    };
    let baseline = baseline.map(Baseline::load).transpose()?;
    // Never over an input: the summaries are the only files read that a path could name.
    let inputs = dirs.iter().chain(baseline.as_ref().map(|b| &b.dir));
    for dir in inputs {
        let summary = dir.join("summary.json");
        if same_file(&summary, &output) {
            bail!("-o {}: that is an input of the report", output.display());
        }
    }
    let page_dir = match output.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let html = render(&Input {
        summary: &summary,
        sources: dirs,
        page_dir,
        baseline: baseline.as_ref(),
        history,
    })?;
    write(&output, &html)?;
    Ok(output)
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Writes `html` to `path` through a temporary file beside it, so that a reader never sees
/// half a page.
pub fn write(path: &Path, html: &str) -> anyhow::Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".report-")
        .tempfile_in(dir)
        .with_context(|| format!("cannot write {}", path.display()))?;
    std::io::Write::write_all(&mut tmp, html.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))?;
    // Readable as the campaign's other files are (a temporary file starts private).
    let readable = <fs::Permissions as std::os::unix::fs::PermissionsExt>::from_mode(0o644);
    tmp.as_file()
        .set_permissions(readable)
        .with_context(|| format!("cannot write {}", path.display()))?;

    tmp.persist(path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// Writes `OUT/report.html` of the campaign (or merge) in `out`, with the findings'
/// `history` if given; a failure is a warning, as the results are in `summary.json` already.
pub fn write_beside(out: &Path, summary: &Summary, history: Option<&History>, quiet: bool) {
    let sources = [out.to_path_buf()];
    let input = Input {
        summary,
        sources: &sources,
        page_dir: out,
        baseline: None,
        history,
    };
    let path = out.join(FILE);
    match render(&input).and_then(|html| write(&path, &html)) {
        Ok(()) if !quiet => eprintln!("mbt: report in {}", path.display()),
        Ok(()) => {}
        Err(e) => eprintln!("mbt: warning: no report: {e:#}"),
    }
}

/// `text` with the characters HTML gives a meaning escaped.
pub(crate) fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A plot's SVG, or a note when it could not be drawn.
fn plot(result: Result<String, Box<dyn std::error::Error>>) -> String {
    result.unwrap_or_else(|e| {
        format!(
            "<p class=\"note\">plot not drawn: {}</p>",
            esc(&e.to_string())
        )
    })
}

/// The page.
pub fn render(input: &Input) -> anyhow::Result<String> {
    let s = input.summary;
    let mut page = String::new();
    let title = format!(
        "mbt report: {} rounds on Z3 {}",
        s.rounds,
        if s.z3_version.is_empty() {
            "?"
        } else {
            &s.z3_version
        }
    );
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        esc(&title)
    );
    header(&mut page, input);
    overview(&mut page, input);
    findings(&mut page, input);
    if let Some(baseline) = input.baseline {
        gone(&mut page, input, baseline);
    }
    if let Some(history) = input.history {
        // The fragment is a section with its own heading; the wrapper only gives the anchor.
        let _ = write!(page, "<div id=\"history\">\n{}\n</div>\n", history.html);
    }
    over_time(&mut page, input);
    coverage(&mut page, s);
    api_coverage(&mut page, s);
    statistics(&mut page, s);
    let _ = write!(
        page,
        "<footer>mbt {} &middot; summary.json holds every figure of this page</footer>\n</body>\n</html>\n",
        env!("CARGO_PKG_VERSION")
    );
    Ok(page)
}

fn header(page: &mut String, input: &Input) {
    let s = input.summary;
    let sources: Vec<String> = (input.sources.iter())
        .map(|d| input.folder_link(d))
        .collect();
    let shards = if !s.merged_from.is_empty() {
        format!(" &middot; {} shards merged", s.merged_from.len())
    } else if s.shard.1 > 1 {
        format!(" &middot; shard {} of {}", s.shard.0, s.shard.1)
    } else {
        String::new()
    };
    let _ = write!(
        page,
        "<header>\n<h1>mbt campaign report</h1>\n<p class=\"sub\">Z3 {} &middot; seed {}{shards} &middot; {}</p>\n",
        esc(&s.z3_version),
        s.seed,
        sources.join(", ")
    );
    // When and where it ran, and the command (summaries from before these fields have none).
    if !s.run.start_time.is_empty() {
        let _ = writeln!(
            page,
            "<p class=\"sub\">{} to {} on {} &middot; <code>{}</code></p>",
            esc(&s.run.start_time),
            esc(&s.run.end_time),
            esc(&s.run.host),
            esc(&s.run.argv.join(" "))
        );
    }
    if s.interrupted {
        page.push_str(
            "<p class=\"banner\">Interrupted: the campaign stopped early on a signal; the \
             figures are those until then.</p>\n",
        );
    }
    page.push_str("<nav><a href=\"#findings\">Findings</a> ");
    if input.baseline.is_some() {
        page.push_str("<a href=\"#baseline\">Baseline</a> ");
    }
    if input.history.is_some() {
        page.push_str("<a href=\"#history\">History</a> ");
    }
    page.push_str(
        "<a href=\"#progress\">Over time</a> <a href=\"#coverage\">Coverage</a> \
         <a href=\"#statistics\">Statistics</a></nav>\n</header>\n",
    );
}

fn overview(page: &mut String, input: &Input) {
    let s = input.summary;
    let n_new = s.failure_list.iter().filter(|f| input.is_new(f)).count();
    let checks = s.stats.n_checks().max(1) as f64;
    let pct = |n: u64| format!("{:.0}%", 100.0 * n as f64 / checks);
    let cards = [
        (
            "rounds",
            s.rounds.to_string(),
            format!("in {}", duration(s.seconds)),
        ),
        (
            "rounds/s",
            format!("{:.1}", s.rounds_per_second),
            format!(
                "{:.0} calls, {:.1} checks a round",
                s.calls_per_round, s.checks_per_round
            ),
        ),
        (
            "check answers",
            s.stats.n_checks().to_string(),
            format!(
                "sat {} &middot; unsat {} &middot; unknown {}",
                pct(s.stats.sat),
                pct(s.stats.unsat),
                pct(s.stats.unknown)
            ),
        ),
        (
            "new findings",
            n_new.to_string(),
            format!("of {} unique", s.failure_list.len()),
        ),
        (
            "failed rounds",
            s.failed_rounds.to_string(),
            format!("{} timeouts not findings", s.timeouts_not_findings),
        ),
    ];
    page.push_str("<section id=\"overview\" class=\"cards\">\n");
    for (i, (label, value, detail)) in cards.iter().enumerate() {
        let alert = if i == 3 && n_new > 0 { " alert" } else { "" };
        let _ = writeln!(
            page,
            "<div class=\"card{alert}\"><div class=\"label\">{label}</div><div class=\"value\">{value}</div><div class=\"detail\">{detail}</div></div>"
        );
    }
    page.push_str("</section>\n");
}

/// `seconds` as `42.0 s`, `12 min`, `7.9 h`.
fn duration(seconds: f64) -> String {
    if seconds < 120.0 {
        format!("{seconds:.1} s")
    } else if seconds < 7200.0 {
        format!("{:.0} min", seconds / 60.0)
    } else {
        format!("{:.1} h", seconds / 3600.0)
    }
}

/// The findings as the table shows them: grouped by kind, the kind with the most failed rounds
/// first (then by name); within a kind the finding with the most rounds first, new before
/// known, then by signature.
fn grouped<'a>(
    input: &Input,
    list: &'a [FailureEntry],
) -> Vec<(&'static str, Vec<&'a FailureEntry>)> {
    let mut by_kind: BTreeMap<&'static str, Vec<&FailureEntry>> = BTreeMap::new();
    for f in list {
        by_kind.entry(f.failure.kind.name()).or_default().push(f);
    }
    let mut groups: Vec<_> = by_kind.into_iter().collect();
    for (_, findings) in &mut groups {
        findings.sort_by(|a, b| {
            (b.count.cmp(&a.count))
                .then_with(|| input.is_new(b).cmp(&input.is_new(a)))
                .then_with(|| a.signature.cmp(&b.signature))
        });
    }
    let rounds = |list: &[&FailureEntry]| list.iter().map(|f| f.count).sum::<u64>();
    groups.sort_by(|(kind_a, a), (kind_b, b)| {
        rounds(b).cmp(&rounds(a)).then_with(|| kind_a.cmp(kind_b))
    });
    groups
}

/// `n` and the noun, plural unless `n` is one.
fn count_of(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

fn findings(page: &mut String, input: &Input) {
    let s = input.summary;
    let n_new = s.failure_list.iter().filter(|f| input.is_new(f)).count();
    let against = match input.baseline {
        Some(b) => format!(
            " (new: not in the baseline {} nor known)",
            input.folder_link(&b.dir)
        ),
        None => String::new(),
    };
    let _ = write!(
        page,
        "<section id=\"findings\">\n<h2>Unique findings</h2>\n<p>{} unique findings, {n_new} new{against}, \
         from {} failed rounds; grouped by kind, the most rounds first. A signature opens to the \
         message, the commands that reproduce the finding and its minimized trace.</p>\n",
        s.failure_list.len(),
        s.failed_rounds
    );
    if s.failure_list.is_empty() {
        page.push_str("<p class=\"ok\">No findings.</p>\n</section>\n");
        return;
    }
    page.push_str(
        "<table class=\"findings\">\n<thead><tr><th>status</th><th>kind</th><th>signature</th>\
         <th class=\"num\">rounds</th><th>first seen</th><th>reproduces on</th><th>files</th></tr></thead>\n",
    );
    for (kind, list) in grouped(input, &s.failure_list) {
        let rounds: u64 = list.iter().map(|f| f.count).sum();
        let _ = write!(
            page,
            "<tbody class=\"kind\" data-kind=\"{kind}\">\n<tr class=\"group\"><th colspan=\"7\">{kind} \
             <span>{}, {}</span></th></tr>\n",
            count_of(list.len(), "finding"),
            count_of(rounds as usize, "round"),
            kind = esc(kind),
        );
        for f in list {
            finding_row(page, input, f);
        }
        page.push_str("</tbody>\n");
    }
    page.push_str("</table>\n</section>\n");
}

/// One finding's row: status, kind, signature (the rest folded under it), rounds, first seen,
/// the Z3 versions it reproduces on and links to its files.
fn finding_row(page: &mut String, input: &Input, f: &FailureEntry) {
    let status = if input.is_new(f) { "new" } else { "known" };
    let history = input.history_of(f);
    let _ = write!(
        page,
        "<tr class=\"finding\" data-status=\"{status}\" data-id=\"{id}\" data-rounds=\"{count}\">\
         <td><span class=\"status {status}\">{status}</span></td>\
         <td class=\"kind\">{kind}</td>\
         <td class=\"sig\"><details class=\"finding\"><summary><code class=\"sig\">{sig}</code></summary>\
         <div class=\"more\">",
        id = esc(&f.id),
        count = f.count,
        kind = esc(f.failure.kind.name()),
        sig = esc(&f.signature),
    );
    folded(page, input, f);
    page.push_str("</div></details></td>");
    // Rounds: this campaign's; the database adds those of every night.
    let _ = write!(page, "<td class=\"num\">{}", f.count);
    if let Some(h) = history.filter(|h| h.nights > 1) {
        let _ = write!(
            page,
            "<div class=\"msg\">{} in {} nights</div>",
            h.rounds, h.nights
        );
    }
    page.push_str("</td><td class=\"seen\">");
    match history.and_then(|h| h.first_seen.as_deref()) {
        Some(first) => {
            // `2026-11-24T01:00:00Z` as `2026-11-24 01:00`, the whole stamp on hover.
            let short: String = first.replacen('T', " ", 1).chars().take(16).collect();
            let _ = write!(
                page,
                "<time datetime=\"{0}\" title=\"{0} (findings database)\">{1}</time>",
                esc(first),
                esc(&short)
            );
        }
        None => {
            page.push_str("this campaign");
            if let Some(after) = f.found_after {
                let _ = write!(page, "<div class=\"msg\">after {}</div>", duration(after));
            }
        }
    }
    page.push_str("</td><td class=\"versions\">");
    let versions: Vec<&str> = match history {
        Some(h) if !h.reproduces_on.is_empty() => {
            h.reproduces_on.iter().map(String::as_str).collect()
        }
        _ if !f.z3_version.is_empty() => vec![f.z3_version.as_str()],
        _ => vec![input.summary.z3_version.as_str()],
    };
    let versions: Vec<String> = versions.iter().map(|v| esc(v)).collect();
    page.push_str(&versions.join("<br>"));
    if let Some(fixed) = history.and_then(|h| h.fixed_in.as_deref()) {
        let _ = write!(page, "<div class=\"msg\">fixed in {}</div>", esc(fixed));
    }
    page.push_str("</td><td class=\"files\">");
    files(page, input, f);
    page.push_str("</td></tr>\n");
}

/// What the row folds under the signature: the message, other signatures, seeds, the
/// commands (as failure.json holds them) and the minimized trace.
fn folded(page: &mut String, input: &Input, f: &FailureEntry) {
    let _ = write!(page, "<div class=\"msg\">{}</div>", esc(&f.failure.message));
    if let Some(m) = &f.minimized_signature {
        let _ = write!(
            page,
            "<div class=\"msg\">after minimization: <code>{}</code></div>",
            esc(m)
        );
    }
    if !f.merged_ids.is_empty() {
        let _ = write!(
            page,
            "<div class=\"msg\">merged: {}</div>",
            esc(&f.merged_ids.join(", "))
        );
    }
    let seeds = if f.first_seed == f.last_seed {
        format!("seed {}", f.seed)
    } else {
        format!(
            "seed {} (failed from {} to {})",
            f.seed, f.first_seed, f.last_seed
        )
    };
    let _ = write!(page, "<div class=\"msg\">{seeds}</div>");
    command(page, "replay", &f.replay);
    if let Some(min) = &f.minimized_replay {
        command(page, "replay minimized", min);
    }
    command(page, "rerun", &f.rerun);
    let dir = input.finding_dir(f);
    match f.minimized_trace.as_deref().and_then(Path::file_name) {
        Some(name) => minimized_trace(page, input, &dir.join(name), f.minimize_note.as_deref()),
        None => {
            if let Some(note) = &f.minimize_note {
                let _ = write!(page, "<div class=\"msg\">{}</div>", esc(note));
            }
        }
    }
    shortest_reproducer(page, input, &dir, f);
}

/// The shortest of the finding's reproducers (C, Python, SMT-LIB; fewest lines), inline and
/// ready to copy into a report for Z3's developers, with links to all of them.
fn shortest_reproducer(page: &mut String, input: &Input, dir: &Path, f: &FailureEntry) {
    let read: Vec<(PathBuf, String)> = f
        .reproducers
        .iter()
        .filter_map(|p| {
            let path = dir.join(p.file_name()?);
            let text = fs::read_to_string(&path).ok()?;
            Some((path, text))
        })
        .collect();
    let Some((path, text)) = read.iter().min_by_key(|(_, t)| t.lines().count()) else {
        return;
    };
    let links: Vec<String> = read
        .iter()
        .map(|(p, _)| {
            let name = p
                .file_name()
                .map_or(String::new(), |n| n.to_string_lossy().into_owned());
            format!("<a href=\"{}\">{}</a>", esc(&input.href(p)), esc(&name))
        })
        .collect();
    let name = path
        .file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned());
    let _ = write!(
        page,
        "<details class=\"trace repro\"><summary>reproducer without this suite: {}, {} lines (all: {})</summary><pre>{}</pre></details>",
        esc(&name),
        text.lines().count(),
        links.join(" "),
        esc(text),
    );
}

/// Links to the finding's folder and files, relative to the page.
fn files(page: &mut String, input: &Input, f: &FailureEntry) {
    let dir = input.finding_dir(f);
    let mut links = vec![(dir.clone(), "folder", "the finding's folder")];
    links.push((dir.join("failure.json"), "json", "failure.json"));
    let named = |path: &Path| path.file_name().map(|name| dir.join(name));
    if let Some(trace) = named(&f.trace) {
        links.push((trace, "trace", "the round's trace"));
    }
    if let Some(min) = f.minimized_trace.as_deref().and_then(named) {
        links.push((min, "min", "the minimized trace"));
    }
    if let Some(files) = f.files.as_deref().and_then(named) {
        links.push((files, "files", "the files the round wrote"));
    }
    let links: Vec<String> = links
        .into_iter()
        .map(|(path, label, what)| {
            let mut href = input.href(&path);
            if path.is_dir() && !href.ends_with('/') {
                href.push('/');
            }
            format!("<a href=\"{}\" title=\"{what}\">{label}</a>", esc(&href))
        })
        .collect();
    page.push_str(&links.join(" "));
}

fn command(page: &mut String, label: &str, command: &str) {
    let _ = write!(
        page,
        "<div class=\"cmd\"><span>{label}</span><pre>{}</pre></div>",
        esc(command)
    );
}

/// The minimized trace at `path`, folded, with its line count; cut at [`INLINE_TRACE_LIMIT`]
/// with a link to the whole file.
fn minimized_trace(page: &mut String, input: &Input, path: &Path, note: Option<&str>) {
    let href = esc(&input.href(path));
    let text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => {
            let _ = write!(
                page,
                "<div class=\"msg\">minimized trace <a href=\"{href}\">{href}</a>: {}</div>",
                esc(&e.to_string())
            );
            return;
        }
    };
    let lines = text.lines().count();
    let mut shown = text.as_str();
    let mut cut = String::new();
    if shown.len() > INLINE_TRACE_LIMIT {
        let mut end = INLINE_TRACE_LIMIT;
        while !shown.is_char_boundary(end) {
            end -= 1;
        }
        shown = &shown[..end];
        cut = format!(
            "<div class=\"msg\">cut here; the whole trace: <a href=\"{href}\">{href}</a></div>"
        );
    }
    let _ = write!(
        page,
        "<details class=\"trace\"><summary>minimized trace, {lines} lines{}</summary><pre>{}</pre>{cut}</details>",
        note.map_or(String::new(), |n| format!(" ({})", esc(n))),
        esc(shown),
    );
}
/// The baseline's findings that this campaign did not meet.
fn gone(page: &mut String, input: &Input, baseline: &Baseline) {
    let met: BTreeSet<&str> = input
        .summary
        .failure_list
        .iter()
        .flat_map(signatures)
        .collect();
    let gone: Vec<&FailureEntry> = baseline
        .summary
        .failure_list
        .iter()
        .filter(|f| !signatures(f).any(|s| met.contains(s)))
        .collect();
    let _ = write!(
        page,
        "<section id=\"baseline\">\n<h2>Against the baseline</h2>\n<p>The baseline {} \
         ({} rounds, Z3 {}) had {} unique findings; {} of them were not met in this campaign \
         (fixed, or not reached by these seeds).</p>\n",
        input.folder_link(&baseline.dir),
        baseline.summary.rounds,
        esc(&baseline.summary.z3_version),
        baseline.summary.failure_list.len(),
        gone.len()
    );
    if !gone.is_empty() {
        page.push_str("<ul class=\"gone\">\n");
        for f in gone {
            let _ = writeln!(
                page,
                "<li><code>{}</code> &times;{}</li>",
                esc(&f.signature),
                f.count
            );
        }
        page.push_str("</ul>\n");
    }
    page.push_str("</section>\n");
}

/// The unit the time axis uses for a campaign of `seconds`: its name and its length.
fn time_unit(seconds: f64) -> (&'static str, f64) {
    if seconds > 3.0 * 3600.0 {
        ("hours", 3600.0)
    } else if seconds > 180.0 {
        ("minutes", 60.0)
    } else {
        ("seconds", 1.0)
    }
}

fn over_time(page: &mut String, input: &Input) {
    let s = input.summary;
    let samples = &s.timeline.samples;
    page.push_str("<section id=\"progress\">\n<h2>Over time</h2>\n");
    if samples.len() < 2 {
        page.push_str(
            "<p class=\"note\">No timeline recorded (an older summary.json).</p>\n</section>\n",
        );
        return;
    }
    let (unit, length) = time_unit(samples.last().map_or(0.0, |l| l.seconds));
    let x_desc = format!("time ({unit})");
    let series = |name: &str, color: usize, y: &dyn Fn(&crate::timeline::Sample) -> f64| Series {
        name: name.to_string(),
        color: COLORS[color],
        points: samples.iter().map(|p| (p.seconds / length, y(p))).collect(),
    };
    // Rounds finish in bursts (a worker reports a batch): the rate is a moving average over
    // a thirtieth of the campaign, at least a second.
    let end = samples.last().map_or(0.0, |l| l.seconds);
    let window = (end / 30.0).max(1.0);
    let mut rates = Series {
        name: "rounds/s".into(),
        color: COLORS[0],
        points: Vec::new(),
    };
    let mut from = 0;
    for (i, now) in samples.iter().enumerate().skip(1) {
        while samples[from + 1].seconds <= now.seconds - window {
            from += 1;
        }
        let then = &samples[from.min(i - 1)];
        let rate = (now.rounds - then.rounds) as f64 / (now.seconds - then.seconds).max(1e-9);
        rates.points.push((now.seconds / length, rate));
    }
    let rate_title = format!("Rounds per second (over {})", duration(window));
    // Unique findings: a step at the time each was first met (merged shards: the earliest).
    let found_at = |new_only: bool| -> Vec<(f64, f64)> {
        let list = s.failure_list.iter();
        let list = list.filter(|f| !new_only || input.is_new(f));
        let mut times: Vec<f64> = list.filter_map(|f| f.found_after).collect();
        times.sort_by(f64::total_cmp);
        let mut steps = vec![(0.0, 0.0)];
        for (n, t) in times.iter().enumerate() {
            steps.push((t / length, n as f64));
            steps.push((t / length, (n + 1) as f64));
        }
        steps.push((end / length, times.len() as f64));
        steps
    };
    let mut findings = vec![Series {
        name: "unique findings".into(),
        color: COLORS[1],
        points: found_at(false),
    }];
    let new = found_at(true);
    if new.last() != findings[0].points.last() {
        findings.push(Series {
            name: "new".into(),
            color: COLORS[2],
            points: new,
        });
    }
    let plots_html = [
        plots::lines(
            "Rounds",
            &x_desc,
            "rounds so far",
            &[
                series("finished", 0, &|p| p.rounds as f64),
                series("failed", 1, &|p| p.failed_rounds as f64),
            ],
        ),
        plots::lines(&rate_title, &x_desc, "rounds/s", &[rates]),
        plots::lines(
            "Check answers",
            &x_desc,
            "answers so far",
            &[
                series("sat", 3, &|p| p.sat as f64),
                series("unsat", 0, &|p| p.unsat as f64),
                series("unknown", 2, &|p| p.unknown as f64),
            ],
        ),
        plots::lines("Unique findings", &x_desc, "so far", &findings),
    ];
    page.push_str("<div class=\"plots\">\n");
    for svg in plots_html {
        let _ = writeln!(page, "<figure>{}</figure>", plot(svg));
    }
    page.push_str("</div>\n</section>\n");
}

/// The bars of `names` (in order, then every other name `counts` holds), counted in `counts`.
fn bars_of<'a>(
    names: impl IntoIterator<Item = &'a str>,
    counts: &BTreeMap<String, Count>,
) -> Vec<Bar> {
    let mut seen = BTreeSet::new();
    let mut bars = Vec::new();
    for name in names {
        if seen.insert(name.to_string()) {
            let c = counts.get(name).copied().unwrap_or_default();
            bars.push(Bar {
                name: name.to_string(),
                tried: c.tried,
                ok: c.ok,
            });
        }
    }
    bars
}

fn coverage(page: &mut String, s: &Summary) {
    use model::call::{Call, Check};
    use model::ops::OPS;
    let calls = &s.stats.calls;
    let mut groups: Vec<(String, Vec<Bar>)> = Vec::new();
    for theory in model::Theory::ALL {
        let names = OPS
            .iter()
            .filter(|op| op.theory == theory)
            .map(|op| op.name);
        groups.push((
            format!("Operations: {}", theory.name()),
            bars_of(names, calls),
        ));
    }
    // Calls that are not table operations, then anything else the campaign counted.
    let op_names: BTreeSet<&str> = OPS.iter().map(|op| op.name).collect();
    let others = calls
        .keys()
        .map(String::as_str)
        .filter(|n| !op_names.contains(n));
    let api = Call::action_names()
        .iter()
        .chain(Check::names())
        .copied()
        .chain(others);
    groups.push(("API calls and checks".into(), bars_of(api, calls)));
    let actions = crate::machine::TRANSITIONS
        .iter()
        .map(|t| t.action.name())
        .chain(s.stats.actions.keys().map(String::as_str));
    groups.push(("Fuzzer actions".into(), bars_of(actions, &s.stats.actions)));
    // A theory whose operations are calls (uninterpreted functions) has no bars of its own.
    groups.retain(|(_, bars)| !bars.is_empty());
    let total: usize = groups.iter().map(|(_, b)| b.len()).sum();
    let n_never: usize = groups
        .iter()
        .map(|(_, b)| b.iter().filter(|b| b.tried == 0).count())
        .sum();
    let _ = write!(
        page,
        "<section id=\"coverage\">\n<h2>Coverage</h2>\n<p>How often each operation of the API model, \
         each call and check, and each fuzzer action was tried \
         <span class=\"swatch tried\"></span> and succeeded <span class=\"swatch ok\"></span>, \
         on a log scale (a grid line per power of ten; each group has its own scale): \
         {} of {total} were exercised.</p>\n",
        total - n_never
    );
    if n_never > 0 {
        page.push_str("<ul class=\"never\">\n");
        for (title, bars) in &groups {
            let never: Vec<String> = (bars.iter().filter(|b| b.tried == 0))
                .map(|b| format!("<code>{}</code>", esc(&b.name)))
                .collect();
            if !never.is_empty() {
                let _ = writeln!(
                    page,
                    "<li>{title}: never exercised ({}): {}</li>",
                    never.len(),
                    never.join(" ")
                );
            }
        }
        page.push_str("</ul>\n");
    }
    page.push_str("<div class=\"bar-groups\">\n");
    for (title, bars) in &groups {
        let _ = writeln!(page, "{}", plots::bars(title, bars));
    }
    page.push_str("</div>\n</section>\n");
}

/// The functions of Z3's C API the rounds called, against those of the libz3 they ran on.
fn api_coverage(page: &mut String, s: &Summary) {
    let Some(basis) = &s.api_coverage else {
        return;
    };
    let total = basis.functions.len();
    let _ = write!(
        page,
        "<section id=\"api-coverage\">\n<h2>Z3's C API</h2>\n<p>The rounds called {} of the {total} \
         functions that <code>{}</code> (Z3 {}) exports ({:.1}%), as Z3's own API log of each \
         round recorded them; {} exported functions are left out on purpose (see \
         <code>docs/api-coverage.md</code>).</p>\n",
        s.api_called,
        esc(&basis.z3_lib),
        esc(&basis.z3_version),
        100.0 * s.api_called as f64 / total.max(1) as f64,
        basis.excluded.len(),
    );
    if !s.api_never_called.is_empty() {
        let names: Vec<String> = (s.api_never_called.iter())
            .map(|n| format!("<code>{}</code>", esc(n)))
            .collect();
        let _ = writeln!(
            page,
            "<details><summary>Never called ({})</summary><p class=\"never\">{}</p></details>",
            names.len(),
            names.join(" ")
        );
    }
    page.push_str("</section>\n");
}

fn statistics(page: &mut String, s: &Summary) {
    page.push_str("<section id=\"statistics\">\n<h2>Statistics</h2>\n");
    for (title, map) in [
        ("States", &s.stats.states),
        ("Actions", &s.stats.actions),
        ("Calls", &s.stats.calls),
    ] {
        let _ = write!(
            page,
            "<details><summary>{title} ({})</summary><table class=\"stats\"><thead><tr><th></th>\
             <th class=\"num\">tried</th><th class=\"num\">succeeded</th></tr></thead><tbody>",
            map.len()
        );
        for (name, c) in map {
            let _ = write!(
                page,
                "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
                esc(name),
                c.tried,
                c.ok
            );
        }
        page.push_str("</tbody></table></details>\n");
    }
    for (title, map) in [
        ("Independent model check", &s.stats.independent),
        ("Differential", &s.stats.differential),
    ] {
        if map.is_empty() {
            continue;
        }
        let _ = write!(
            page,
            "<details><summary>{title}</summary><table class=\"stats\"><tbody>"
        );
        for (name, n) in map {
            let _ = write!(
                page,
                "<tr><td>{}</td><td class=\"num\">{n}</td></tr>",
                esc(name)
            );
        }
        page.push_str("</tbody></table></details>\n");
    }
    let _ = writeln!(
        page,
        "<p>Incremental checks: {} of {}. Seeds of failed rounds: {}.</p>\n</section>",
        s.stats.incremental_checks,
        s.stats.n_checks(),
        seed_list(&s.failed_seeds)
    );
}

/// Up to 50 seeds, then how many more.
fn seed_list(seeds: &[u64]) -> String {
    if seeds.is_empty() {
        return "none".into();
    }
    let shown: Vec<String> = seeds.iter().take(50).map(u64::to_string).collect();
    match seeds.len().saturating_sub(50) {
        0 => shown.join(" "),
        more => format!("{} and {more} more (summary.json)", shown.join(" ")),
    }
}

/// The page's style sheet: system fonts, nothing fetched.
const STYLE: &str = r#"
:root { --fg: #1d2733; --muted: #5b6b7c; --line: #dde3ea; --bg: #f5f7fa; --accent: #1f77b4; --bad: #c81e1e; --good: #2c8a2c; }
* { box-sizing: border-box; }
body { margin: 0; padding: 0 2rem 2rem; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: var(--fg); background: var(--bg); }
header { padding: 1.2rem 0 .4rem; }
h1 { margin: 0; font-size: 1.6rem; }
h2 { margin: 0 0 .6rem; font-size: 1.2rem; }
.sub { margin: .2rem 0 .6rem; color: var(--muted); }
nav a { margin-right: 1rem; color: var(--accent); text-decoration: none; font-weight: 600; }
section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 1rem 1.2rem; margin: 1rem 0; }
.banner { background: #fff4d6; border: 1px solid #f0c36d; padding: .5rem .8rem; border-radius: 6px; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(180px, 1fr)); gap: .8rem; background: none; border: 0; padding: 0; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: .8rem 1rem; }
.card .label { color: var(--muted); font-size: .8rem; text-transform: uppercase; letter-spacing: .04em; }
.card .value { font-size: 1.8rem; font-weight: 700; }
.card .detail { color: var(--muted); font-size: .85rem; }
.card.alert .value { color: var(--bad); }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: .45rem .5rem; border-bottom: 1px solid var(--line); }
td.kind { white-space: nowrap; }
th { font-size: .8rem; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
code, pre { font: 12.5px/1.4 ui-monospace, "DejaVu Sans Mono", monospace; }
code.sig { overflow-wrap: anywhere; font-weight: 600; }
.msg { color: var(--muted); font-size: .85rem; margin-top: .2rem; word-break: break-word; }
.status { display: inline-block; padding: .05rem .5rem; border-radius: 999px; font-size: .8rem; font-weight: 700; }
.status.new { background: #fde2e2; color: var(--bad); }
.status.known { background: #e6eef5; color: var(--muted); }
.cmd { margin: .15rem 0; }
.cmd span { font-size: .75rem; color: var(--muted); }
.cmd pre, details.trace pre { margin: .1rem 0 .3rem; padding: .35rem .5rem; background: var(--bg); border: 1px solid var(--line); border-radius: 4px; white-space: pre-wrap; word-break: break-all; }
details.trace pre { max-height: 24rem; overflow: auto; }
details summary { cursor: pointer; color: var(--accent); }
table.findings td { padding: .3rem .5rem; }
table.findings td.sig { width: 100%; }
table.findings td.seen, table.findings td.versions, table.findings td.files, table.findings td.num { white-space: nowrap; }
td.files a { margin-right: .45rem; color: var(--accent); }
tr.group th { background: var(--bg); color: var(--fg); font-size: .9rem; text-transform: none; letter-spacing: 0; padding-top: .55rem; }
tr.group th span { color: var(--muted); font-weight: 400; margin-left: .4rem; }
details.finding .more { margin: .3rem 0 .2rem 1.1rem; }
.plots { display: grid; grid-template-columns: repeat(auto-fit, minmax(460px, 1fr)); gap: 1rem; align-items: start; }
figure { margin: 0; }
figure svg { width: 100%; height: auto; }
.never { padding-left: 1.2rem; }
.swatch { display: inline-block; width: .9rem; height: .65rem; vertical-align: middle; }
.swatch.tried { background: #9ecae1; }
.swatch.ok { background: #3182bd; }
.bar-groups { columns: 2 32rem; column-gap: 2.5rem; }
figure.bars { break-inside: avoid; margin: 0 0 1.4rem; }
figure.bars figcaption { font-weight: 600; margin-bottom: .15rem; }
figure.bars figcaption span { color: var(--muted); font-weight: 400; font-size: .85rem; margin-left: .3rem; }
table.bars th, table.bars td { border: 0; padding: 0 .4rem; height: 1.2rem; vertical-align: middle; }
table.bars td.name { white-space: nowrap; text-align: right; width: 1%; }
table.bars .track { position: relative; width: 100%; min-width: 8rem; padding: 0; }
table.bars td.track { background-image: linear-gradient(to right, #d5dce4 1px, transparent 1px); background-size: calc(100% / var(--decades)) 100%; border-right: 1px solid #d5dce4; }
.track .tried, .track .ok, .track .zero { position: absolute; left: 0; min-width: 2px; }
.track .tried { top: 2px; bottom: 2px; background: #9ecae1; }
.track .ok { top: 5px; bottom: 5px; background: #3182bd; }
.track .zero { top: 1px; bottom: 1px; width: 3px; background: var(--bad); }
.track span.never { position: absolute; left: 8px; top: 0; color: var(--bad); font-size: .78rem; line-height: 1.2rem; }
table.bars tr.never td.name code, table.bars tr.never td.num { color: var(--bad); }
table.bars td.num { font-size: .8rem; color: var(--muted); width: 1%; white-space: nowrap; }
table.bars tr.scale th { font-size: .75rem; color: var(--muted); text-transform: none; letter-spacing: 0; font-weight: 400; }
table.bars th.track .tick { position: absolute; top: 0; transform: translateX(-50%); }
table.bars th.track .tick.first { transform: none; }
table.bars th.track .tick.last { transform: translateX(-100%); }
table.bars tbody tr:hover { background: var(--bg); }
.never code { color: var(--bad); margin-right: .3rem; }
.ok { color: var(--good); font-weight: 600; }
.note { color: var(--muted); }
table.stats { width: auto; min-width: 24rem; margin: .4rem 0 .8rem; }
table.stats td { padding: .15rem .6rem; }
footer { color: var(--muted); font-size: .8rem; text-align: center; margin-top: 1rem; }
"#;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::failure::{Failure, FailureKind};
    use e2e::links as page_links;

    #[test]
    fn an_empty_summary_renders_and_the_history_has_its_section() {
        let summary = Summary::default();
        let sources = [PathBuf::from("/out/<night> #1")];
        let history = History {
            findings: Vec::new(),
            html: "<table id=\"nights\"></table>".into(),
        };
        let html = render(&Input {
            summary: &summary,
            sources: &sources,
            page_dir: Path::new("/out"),
            baseline: None,
            history: Some(&history),
        })
        .unwrap();
        assert!(html.contains("No findings."));
        assert!(html.contains("No timeline recorded"));
        // The source folder, relative to the page's, as a link and as text.
        assert!(
            html.contains("<a href=\"%3Cnight%3E%20%231/\"><code>&lt;night&gt; #1</code></a>"),
            "escaped"
        );
        let at = html.find("<div id=\"history\">").expect("history section");
        assert!(html[at..].contains(&history.html));
        assert!(html.contains("<a href=\"#history\">"));
        // Every operation of the model shows, none exercised.
        assert!(html.contains("<code>bvadd</code>") && html.contains("<code>check_sat</code>"));
    }

    /// The header says when, where and with which command the campaign ran.
    #[test]
    fn the_header_names_the_run() {
        let mut summary = Summary::default();
        summary.run.start_time = "2026-11-24T01:00:00Z".into();
        summary.run.end_time = "2026-11-24T09:00:00Z".into();
        summary.run.host = "node7".into();
        summary.run.argv = vec!["mbt".into(), "--time".into(), "8h".into()];
        let sources = [PathBuf::from("/out")];
        let html = render(&Input {
            summary: &summary,
            sources: &sources,
            page_dir: Path::new("/out"),
            baseline: None,
            history: None,
        })
        .unwrap();
        assert!(html.contains("2026-11-24T01:00:00Z to 2026-11-24T09:00:00Z on node7"));
        assert!(html.contains("<code>mbt --time 8h</code>"));
    }

    /// A finding of `kind` with `count` rounds, with its folder (round and minimized trace,
    /// failure.json) under `out/failures/`.
    fn finding(out: &Path, kind: FailureKind, name: &str, count: u64) -> FailureEntry {
        let signature = format!("{}|{name}", kind.name());
        let id = model::finding::signature_id(&signature);
        let dir = out.join("failures").join(&id);
        fs::create_dir_all(&dir).unwrap();
        let (trace, min) = (dir.join("round.trace"), dir.join("min.trace"));
        fs::write(&trace, "z3-trace 1\nnew_solver\nreturn z1\npush z1\n").unwrap();
        fs::write(&min, "z3-trace 1\npush <z1>\n").unwrap();
        let entry = FailureEntry {
            id,
            failure: Failure::new(kind, format!("{name} happened")),
            signature,
            known: false,
            count,
            seed: 7,
            first_seed: 7,
            last_seed: 7,
            options: Vec::new(),
            z3_version: "4.8.12.0".into(),
            replay: format!("mbt replay {}", trace.display()),
            trace,
            files: None,
            rerun: format!("mbt --seed 7 --out {}", dir.join("rerun").display()),
            replay_args: Vec::new(),
            minimized_replay: Some(format!("mbt replay {}", min.display())),
            minimized_trace: Some(min),
            reproducers: Vec::new(),
            minimized_signature: None,
            minimize_note: Some("4 lines minimized to 2".into()),
            merged_ids: Vec::new(),
            merged_signatures: Vec::new(),
            found_after: Some(1.5),
        };
        entry.write(&dir).unwrap();
        entry
    }

    /// The text of each row of the findings table, in order.
    fn rows(html: &str) -> Vec<&str> {
        let mut rows = Vec::new();
        let mut rest = html;
        while let Some(at) = rest.find("<tr class=\"finding\"") {
            let end = at + rest[at..].find("</tr>").unwrap();
            rows.push(&rest[at..end]);
            rest = &rest[end..];
        }
        rows
    }

    /// The value of attribute `attr` in `row`.
    fn attr<'a>(row: &'a str, attr: &str) -> &'a str {
        let open = format!("{attr}=\"");
        let at = row.find(&open).unwrap() + open.len();
        &row[at..at + row[at..].find('"').unwrap()]
    }

    /// One compact row per finding, grouped by kind (the most rounds first) and sorted by
    /// rounds; first seen and versions from the database where it knows the finding; the
    /// message, commands and trace folded; every link relative, so they resolve after the
    /// folder is moved, and a page rendered from the moved folder links the same files.
    #[test]
    fn findings_are_rows_grouped_by_kind_and_sorted_by_rounds_with_relative_links() {
        let root = tempfile::tempdir().unwrap();
        let out = root.path().join("night #1");
        let crash_few = finding(&out, FailureKind::Crash, "few", 2);
        let literal = finding(&out, FailureKind::Literal, "lit", 20);
        let crash_most = finding(&out, FailureKind::Crash, "most", 7);
        let mut crash_known = finding(&out, FailureKind::Crash, "known", 4);
        crash_known.known = true;
        let timeout = finding(&out, FailureKind::Timeout, "slow", 1);
        let summary = Summary {
            z3_version: "4.8.12.0".into(),
            failure_list: vec![
                crash_few.clone(),
                timeout.clone(),
                crash_known.clone(),
                literal.clone(),
                crash_most.clone(),
            ],
            ..Summary::default()
        };
        let history = History {
            findings: vec![FindingHistory {
                id: 1,
                signature: "crash|most [push]".into(),
                kind: "crash".into(),
                message: String::new(),
                status: crate::findings_db::Status::Open,
                first_seen: Some("2026-11-20T01:00:00Z".into()),
                last_seen: Some("2026-11-24T01:00:00Z".into()),
                nights: 3,
                rounds: 30,
                campaigns: Vec::new(),
                reproduces_on: vec!["4.8.12.0".into(), "5.4.1.0".into()],
                fixed_in: None,
                fixed_at: None,
                trace_path: String::new(),
                minimized: true,
                signatures: vec!["crash|most".into(), "crash|most [push]".into()],
                replays: Vec::new(),
            }],
            html: String::new(),
        };
        let sources = [out.clone()];
        let render_from = |dir: &Path, sources: &[PathBuf]| {
            render(&Input {
                summary: &summary,
                sources,
                page_dir: dir,
                baseline: None,
                history: Some(&history),
            })
            .unwrap()
        };
        let html = render_from(&out, &sources);
        let rows = rows(&html);
        let ids: Vec<&str> = rows.iter().map(|r| attr(r, "data-id")).collect();
        let expected = [&literal, &crash_most, &crash_known, &crash_few, &timeout];
        assert_eq!(ids, expected.map(|f| f.id.as_str()));
        let kinds: Vec<&str> = html
            .split("<tbody class=\"kind\" data-kind=\"")
            .skip(1)
            .map(|part| &part[..part.find('"').unwrap()])
            .collect();
        assert_eq!(kinds, ["literal", "crash", "timeout"]);
        assert!(html.contains("<th colspan=\"7\">crash <span>3 findings, 13 rounds</span>"));
        for (row, f) in rows.iter().zip(expected) {
            // Seven cells: status, kind, signature, rounds, first seen, versions, files.
            assert_eq!(row.matches("<td").count(), 7, "{row}");
            assert!(
                row.contains(&format!("<td class=\"num\">{}", f.count)),
                "{row}"
            );
            // The signature is the summary of the fold; the rest is inside it.
            let fold = &row[row.find("<details class=\"finding\">").unwrap()..];
            let fold = &fold[..fold.find("</details></td>").unwrap()];
            assert!(fold.contains(&format!(
                "<summary><code class=\"sig\">{}",
                esc(&f.signature)
            )));
            for text in [&f.failure.message, &f.replay, &f.rerun] {
                assert!(fold.contains(&esc(text)), "{text} folded: {row}");
            }
            assert!(fold.contains(&esc(f.minimized_replay.as_ref().unwrap())));
            assert!(
                fold.contains("<details class=\"trace\"><summary>minimized trace, 2 lines (4 lines minimized to 2)</summary><pre>z3-trace 1\npush &lt;z1&gt;\n</pre>"),
                "{row}"
            );
        }
        // The database's history where it knows the finding, else this campaign's.
        let most = rows[1];
        assert!(
            most.contains("<time datetime=\"2026-11-20T01:00:00Z\""),
            "{most}"
        );
        assert!(most.contains(">2026-11-20 01:00</time>"), "{most}");
        assert!(most.contains("4.8.12.0<br>5.4.1.0"), "{most}");
        assert!(most.contains("30 in 3 nights"), "{most}");
        assert!(rows[0].contains("this campaign<div class=\"msg\">after 1.5 s</div>"));
        assert!(rows[0].contains("<td class=\"versions\">4.8.12.0</td>"));
        assert_eq!(attr(rows[2], "data-status"), "known");
        // Links: relative, five a finding (folder, failure.json, the two traces) and the
        // campaign folder in the header.
        let links = page_links(&html);
        assert_eq!(links.len(), 1 + 4 * rows.len(), "{links:?}");
        assert!(links
            .iter()
            .all(|l| !l.starts_with('/') && !l.contains("://")));
        assert!(links.contains(&format!("failures/{}/failure.json", literal.id)));
        assert!(
            html.contains("href=\"failures/"),
            "relative to the page's folder"
        );
        let moved = root.path().join("elsewhere").join("night 1 copy");
        fs::create_dir_all(moved.parent().unwrap()).unwrap();
        fs::rename(&out, &moved).unwrap();
        for link in &links {
            assert!(moved.join(link).exists(), "{link} after the move");
        }
        // Rendered again from the moved folder, whose summary's paths name the old place.
        let again = render_from(&moved, std::slice::from_ref(&moved));
        assert_eq!(page_links(&again), links);
        assert!(
            again.contains("push &lt;z1&gt;"),
            "the trace is read from the new place"
        );
        // A page elsewhere links into the folder.
        let page_dir = root.path().join("pages");
        fs::create_dir(&page_dir).unwrap();
        let elsewhere = render_from(&page_dir, std::slice::from_ref(&moved));
        for link in page_links(&elsewhere) {
            assert!(link.starts_with("../elsewhere/night 1 copy/"), "{link}");
            assert!(page_dir.join(&link).exists(), "{link}");
        }
    }
}
