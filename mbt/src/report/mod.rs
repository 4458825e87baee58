//! `mbt report DIR... [--baseline DIR] [-o FILE]`: the campaign as one self-contained HTML
//! page (inline CSS and SVG, no scripts, nothing fetched), which a campaign and `mbt merge`
//! also write as `OUT/report.html`.
//!
//! [`render`] turns an [`Input`] into the page: the figures of the [`Summary`], its
//! [`crate::timeline::Timeline`] as plots over time (rounds and rounds/s, answers, findings),
//! how often every operation of the API model, every call and check, and every fuzzer action
//! was exercised (the model's names that never were show at zero), and the unique findings
//! with their reproduce commands and minimized traces. A [`Baseline`] (an earlier campaign's
//! folder) marks which findings are new and which of its findings were not met again; the
//! findings' history across nights comes from the caller as a ready HTML fragment
//! ([`Input::history`]). Several folders are shards: they are merged in memory
//! ([`crate::merge::merge_summaries`]). The plots are drawn by [`plots`].

pub mod plots;

use crate::campaign::{FailureEntry, Summary};
use crate::merge;
use crate::stats::Count;
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
        let summary = merge::read_summary(dir).context("--baseline")?;
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

/// Every signature a finding goes by: its own, after minimization, and those merged into it.
fn signatures(entry: &FailureEntry) -> impl Iterator<Item = &str> {
    std::iter::once(entry.signature.as_str())
        .chain(entry.minimized_signature.as_deref())
        .chain(entry.merged_signatures.iter().map(String::as_str))
}

/// What a report shows.
pub struct Input<'a> {
    pub summary: &'a Summary,
    /// The campaign folders the summary comes from (several: merged shards).
    pub sources: &'a [PathBuf],
    pub baseline: Option<&'a Baseline>,
    /// The findings' history across nights, an HTML fragment shown as a section of its own.
    pub history: Option<&'a str>,
}

impl Input<'_> {
    /// A finding is new unless `--known` named it or the baseline had it.
    fn is_new(&self, entry: &FailureEntry) -> bool {
        !entry.known && !self.baseline.is_some_and(|b| b.has(entry))
    }
}

/// `mbt report`: reads the folders (merging shards), renders the page with the findings'
/// `history` if given, and writes it to `output`, by default `DIR/report.html` of the one
/// folder. Returns the path written.
pub fn run(
    dirs: &[PathBuf],
    baseline: Option<&Path>,
    output: Option<&Path>,
    history: Option<&str>,
) -> anyhow::Result<PathBuf> {
    let output = match (output, dirs) {
        (Some(path), _) => path.to_path_buf(),
        (None, [dir]) => dir.join(FILE),
        (None, _) => bail!("several folders (shards): give the report's file with -o FILE"),
    };
    let shards = dirs
        .iter()
        .map(|d| merge::read_summary(d))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let summary = match shards.as_slice() {
        [one] => one.clone(),
        _ => Summary {
            merged_from: dirs.to_vec(),
            ..merge::merge_summaries(&shards)
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
    let html = render(&Input {
        summary: &summary,
        sources: dirs,
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
pub fn write_beside(out: &Path, summary: &Summary, history: Option<&str>, quiet: bool) {
    let sources = [out.to_path_buf()];
    let input = Input {
        summary,
        sources: &sources,
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
        let _ = write!(page, "<div id=\"history\">\n{history}\n</div>\n");
    }
    over_time(&mut page, input);
    coverage(&mut page, s);
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
    let sources: Vec<String> = input
        .sources
        .iter()
        .map(|d| format!("<code>{}</code>", esc(&d.display().to_string())))
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

/// The findings in the order the table shows them: new first, then by kind and signature.
fn ordered<'a>(input: &Input, list: &'a [FailureEntry]) -> Vec<&'a FailureEntry> {
    let mut list: Vec<&FailureEntry> = list.iter().collect();
    list.sort_by_key(|f| {
        (
            !input.is_new(f),
            f.failure.kind.name(),
            f.signature.as_str(),
        )
    });
    list
}

fn findings(page: &mut String, input: &Input) {
    let s = input.summary;
    let n_new = s.failure_list.iter().filter(|f| input.is_new(f)).count();
    let against = match input.baseline {
        Some(b) => format!(
            " (new: not in the baseline <code>{}</code> nor known)",
            esc(&b.dir.display().to_string())
        ),
        None => String::new(),
    };
    let _ = write!(
        page,
        "<section id=\"findings\">\n<h2>Unique findings</h2>\n<p>{} unique findings, {n_new} new{against}, from {} failed rounds.</p>\n",
        s.failure_list.len(),
        s.failed_rounds
    );
    if s.failure_list.is_empty() {
        page.push_str("<p class=\"ok\">No findings.</p>\n</section>\n");
        return;
    }
    page.push_str(
        "<table class=\"findings\">\n<thead><tr><th>status</th><th>kind</th><th>signature and message</th>\
         <th class=\"num\">rounds</th><th>seeds</th><th>reproduce</th></tr></thead>\n<tbody>\n",
    );
    for f in ordered(input, &s.failure_list) {
        let status = if input.is_new(f) { "new" } else { "known" };
        let seeds = if f.first_seed == f.last_seed {
            format!("{}", f.seed)
        } else {
            format!("{} ({}&ndash;{})", f.seed, f.first_seed, f.last_seed)
        };
        let _ = write!(
            page,
            "<tr class=\"finding\" data-status=\"{status}\" data-id=\"{id}\">\
             <td><span class=\"status {status}\">{status}</span></td>\
             <td class=\"kind\">{kind}</td>\
             <td><code class=\"sig\">{sig}</code><div class=\"msg\">{msg}</div>{min_sig}{merged}</td>\
             <td class=\"num\">{count}</td><td>{seeds}</td><td>",
            id = esc(&f.id),
            kind = esc(f.failure.kind.name()),
            sig = esc(&f.signature),
            msg = esc(&f.failure.message),
            min_sig = f.minimized_signature.as_ref().map_or(String::new(), |m| format!(
                "<div class=\"msg\">after minimization: <code>{}</code></div>",
                esc(m)
            )),
            merged = if f.merged_ids.is_empty() {
                String::new()
            } else {
                format!(
                    "<div class=\"msg\">merged: {}</div>",
                    esc(&f.merged_ids.join(", "))
                )
            },
            count = f.count,
        );
        command(page, "replay", &f.replay);
        if let Some(min) = &f.minimized_replay {
            command(page, "replay minimized", min);
        }
        command(page, "rerun", &f.rerun);
        if let Some(path) = &f.minimized_trace {
            minimized_trace(page, path, f.minimize_note.as_deref());
        } else if let Some(note) = &f.minimize_note {
            let _ = write!(page, "<div class=\"msg\">{}</div>", esc(note));
        }
        page.push_str("</td></tr>\n");
    }
    page.push_str("</tbody>\n</table>\n</section>\n");
}

fn command(page: &mut String, label: &str, command: &str) {
    let _ = write!(
        page,
        "<div class=\"cmd\"><span>{label}</span><pre>{}</pre></div>",
        esc(command)
    );
}

/// The minimized trace, folded, with its line count; cut at [`INLINE_TRACE_LIMIT`].
fn minimized_trace(page: &mut String, path: &Path, note: Option<&str>) {
    let text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => {
            let _ = write!(
                page,
                "<div class=\"msg\">minimized trace {}: {}</div>",
                esc(&path.display().to_string()),
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
        cut = format!("\n... cut here; the whole trace is {}", path.display());
    }
    let _ = write!(
        page,
        "<details class=\"trace\"><summary>minimized trace, {lines} lines{}</summary><pre>{}{}</pre></details>",
        note.map_or(String::new(), |n| format!(" ({})", esc(n))),
        esc(shown),
        esc(&cut)
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
        "<section id=\"baseline\">\n<h2>Against the baseline</h2>\n<p>The baseline <code>{}</code> \
         ({} rounds, Z3 {}) had {} unique findings; {} of them were not met in this campaign \
         (fixed, or not reached by these seeds).</p>\n",
        esc(&baseline.dir.display().to_string()),
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
         each call and check, and each fuzzer action was tried (light) and succeeded (dark), on a \
         log scale: {} of {total} were exercised.</p>\n",
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
    page.push_str("<div class=\"plots\">\n");
    for (title, bars) in &groups {
        let _ = writeln!(page, "<figure>{}</figure>", plot(plots::bars(title, bars)));
    }
    page.push_str("</div>\n</section>\n");
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
code.sig { word-break: break-all; font-weight: 600; }
.msg { color: var(--muted); font-size: .85rem; margin-top: .2rem; word-break: break-word; }
.status { display: inline-block; padding: .05rem .5rem; border-radius: 999px; font-size: .8rem; font-weight: 700; }
.status.new { background: #fde2e2; color: var(--bad); }
.status.known { background: #e6eef5; color: var(--muted); }
.cmd { margin: .15rem 0; }
.cmd span { font-size: .75rem; color: var(--muted); }
.cmd pre, details.trace pre { margin: .1rem 0 .3rem; padding: .35rem .5rem; background: var(--bg); border: 1px solid var(--line); border-radius: 4px; white-space: pre-wrap; word-break: break-all; }
details.trace pre { max-height: 24rem; overflow: auto; }
details summary { cursor: pointer; color: var(--accent); }
table.findings td:last-child { max-width: 34rem; }
.plots { display: grid; grid-template-columns: repeat(auto-fit, minmax(460px, 1fr)); gap: 1rem; align-items: start; }
figure { margin: 0; }
figure svg { width: 100%; height: auto; }
.never { padding-left: 1.2rem; }
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

    #[test]
    fn an_empty_summary_renders_and_the_history_has_its_section() {
        let summary = Summary::default();
        let sources = [PathBuf::from("/out/<night>")];
        let history = "<table id=\"nights\"></table>";
        let html = render(&Input {
            summary: &summary,
            sources: &sources,
            baseline: None,
            history: Some(history),
        })
        .unwrap();
        assert!(html.contains("No findings."));
        assert!(html.contains("No timeline recorded"));
        assert!(html.contains("<code>/out/&lt;night&gt;</code>"), "escaped");
        let at = html.find("<div id=\"history\">").expect("history section");
        assert!(html[at..].contains(history));
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
            baseline: None,
            history: None,
        })
        .unwrap();
        assert!(html.contains("2026-11-24T01:00:00Z to 2026-11-24T09:00:00Z on node7"));
        assert!(html.contains("<code>mbt --time 8h</code>"));
    }
}
