//! The regression corpus `traces/regress/`: real Z3 failures, minimized, each with the
//! behaviour it showed when it was found ([`Expectation`]). [`check_case`] replays a case with
//! `untrace` and says whether it still behaves so; [`write_case`] adds one (for `mbt`).
//!
//! A case is `NAME.trace` (text) or `NAME.btrace` (binary). Its expectation is the sidecar
//! `NAME.expect` if there is one, else the `; key: value` comment lines at the top of a text
//! trace. Keys: `exit` (`0`..`255` or `signal N`, required), `stderr` (a substring the
//! stderr must contain), `z3` (the Z3 version it was found on), `timeout` (seconds: the replay
//! runs with untrace's `--timeout`, for a case that hangs, exit 7), `note` (free text).
//! traces/regress/README.md documents the same.

use std::path::{Path, PathBuf};
use std::process::Command;

/// How a case behaved when it was recorded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Expectation {
    /// Exit code, or `None` with `signal` set.
    pub exit: Option<i32>,
    pub signal: Option<i32>,
    pub stderr: Option<String>,
    pub z3: Option<String>,
    /// Seconds: replay with `untrace --timeout` (a case that hangs ends in exit 7).
    pub timeout: Option<u32>,
    pub note: Option<String>,
}

impl Expectation {
    /// Parses `key: value` lines (a leading `;` is allowed, other lines are ignored).
    /// Errors name the line.
    pub fn parse(text: &str, origin: &str) -> Result<Expectation, String> {
        let mut e = Expectation::default();
        for (n, raw) in text.lines().enumerate() {
            let line = raw.trim_start().trim_start_matches(';').trim();
            let Some((key, value)) = line.split_once(':') else {
                continue;
            };
            let value = value.trim().to_string();
            let bad = || format!("{origin}:{}: bad `{key}` value `{value}`", n + 1);
            match key.trim() {
                "exit" => match value.strip_prefix("signal ") {
                    Some(s) => e.signal = Some(s.trim().parse().map_err(|_| bad())?),
                    None => e.exit = Some(value.parse().map_err(|_| bad())?),
                },
                "stderr" => e.stderr = Some(value),
                "z3" => e.z3 = Some(value),
                "timeout" => e.timeout = Some(value.parse().map_err(|_| bad())?),
                "note" => e.note = Some(value),
                _ => {}
            }
        }
        if e.exit.is_none() && e.signal.is_none() {
            return Err(format!("{origin}:1: no `exit:` expectation"));
        }
        Ok(e)
    }

    /// The lines [`Expectation::parse`] reads back.
    pub fn render(&self) -> String {
        let mut out = String::new();
        match (self.exit, self.signal) {
            (_, Some(s)) => out.push_str(&format!("exit: signal {s}\n")),
            (Some(c), None) => out.push_str(&format!("exit: {c}\n")),
            (None, None) => {}
        }
        let timeout = self.timeout.map(|t| t.to_string());
        for (key, value) in [
            ("stderr", &self.stderr),
            ("z3", &self.z3),
            ("timeout", &timeout),
            ("note", &self.note),
        ] {
            if let Some(v) = value {
                out.push_str(&format!("{key}: {v}\n"));
            }
        }
        out
    }

    fn describe(&self) -> String {
        match (self.exit, self.signal) {
            (_, Some(s)) => format!("signal {s}"),
            (Some(c), None) => format!("exit {c}"),
            (None, None) => "nothing".into(),
        }
    }
}

/// The cases of a corpus directory: trace files with their expectation source.
pub fn cases(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: cannot read: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            matches!(
                p.extension().and_then(|x| x.to_str()),
                Some("trace" | "btrace")
            )
        })
        .collect();
    out.sort();
    Ok(out)
}

/// The expectation of a case (sidecar first, then the trace's comment header).
pub fn expectation(case: &Path) -> Result<Expectation, String> {
    let sidecar = case.with_extension("expect");
    let (text, origin) = if sidecar.is_file() {
        (std::fs::read_to_string(&sidecar), sidecar)
    } else {
        (std::fs::read_to_string(case), case.to_path_buf())
    };
    let text = text.map_err(|e| format!("{}: cannot read: {e}", origin.display()))?;
    Expectation::parse(&text, &origin.display().to_string())
}

/// Replays `case` with `untrace` (on `z3_lib` when given: `untrace --z3-lib`, for the cases
/// of another Z3, as `traces/regress-5x/`) and compares with its expectation. The error says
/// what changed; when the case no longer fails at all it says that the bug may be fixed in
/// that Z3.
pub fn check_case(untrace: &Path, case: &Path, z3_lib: Option<&Path>) -> Result<(), String> {
    use std::os::unix::process::ExitStatusExt;
    let want = expectation(case)?;
    let mut cmd = Command::new(untrace);
    if let Some(lib) = z3_lib {
        cmd.arg("--z3-lib").arg(lib);
    }
    if let Some(seconds) = want.timeout {
        cmd.args(["--timeout", &seconds.to_string()]);
    }
    let out = cmd
        .arg(case)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", untrace.display()))?;
    let got = Expectation {
        exit: out.status.code(),
        signal: out.status.signal(),
        ..Expectation::default()
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    let found_on = want.z3.as_deref().unwrap_or("an unrecorded version");
    if got.exit == Some(0) && got.describe() != want.describe() {
        return Err(format!(
            "{}: recorded {} on Z3 {found_on}, now replays without failure: the bug may be \
             fixed in this Z3; update or remove this case",
            case.display(),
            want.describe()
        ));
    }
    if got.describe() != want.describe() {
        return Err(format!(
            "{}: recorded {} on Z3 {found_on}, now {} ({})",
            case.display(),
            want.describe(),
            got.describe(),
            stderr.trim()
        ));
    }
    if let Some(s) = &want.stderr {
        if !stderr.contains(s.as_str()) {
            return Err(format!(
                "{}: stderr no longer contains `{s}`: {}",
                case.display(),
                stderr.trim()
            ));
        }
    }
    Ok(())
}

/// Adds a case: `dir/NAME.trace` (or `.btrace`) and its sidecar `dir/NAME.expect`.
pub fn write_case(
    dir: &Path,
    name: &str,
    trace: &[u8],
    expect: &Expectation,
) -> Result<PathBuf, String> {
    let ext = match crate::trace_io::Format::detect(trace) {
        crate::trace_io::Format::Text => "trace",
        crate::trace_io::Format::Binary => "btrace",
    };
    let path = dir.join(format!("{name}.{ext}"));
    let write = |p: &Path, bytes: &[u8]| {
        std::fs::write(p, bytes).map_err(|e| format!("{}: cannot write: {e}", p.display()))
    };
    write(&path, trace)?;
    write(&path.with_extension("expect"), expect.render().as_bytes())?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expectations_parse_and_render() {
        let text = "; exit: signal 11\n; stderr: z3 error\n; z3: 4.8.12\nz3-trace 1\n";
        let e = Expectation::parse(text, "x.trace").unwrap();
        assert_eq!(e.signal, Some(11));
        assert_eq!(e.stderr.as_deref(), Some("z3 error"));
        assert_eq!(Expectation::parse(&e.render(), "y").unwrap(), e);
        assert_eq!(Expectation::parse("exit: 4\n", "y").unwrap().exit, Some(4));
        let hangs = Expectation::parse("exit: 7\ntimeout: 3\n", "y").unwrap();
        assert_eq!(hangs.timeout, Some(3));
        assert_eq!(Expectation::parse(&hangs.render(), "y").unwrap(), hangs);
        let err = Expectation::parse("z3: 4.8.12\n", "c.expect").unwrap_err();
        assert!(err.starts_with("c.expect:1:"), "{err}");
        let err = Expectation::parse("note: a\nexit: four\n", "c.expect").unwrap_err();
        assert!(err.starts_with("c.expect:2:"), "{err}");
    }
}
