//! [`RunRecord`]: when, where and how a run happened, the common head of the JSON results of
//! `mbt` (`summary.json`), `ddsmt --json` and `ddtrace --json` (docs/json-schemas.md); and
//! the small helpers around it: the time as RFC 3339, the process's CPU time, durations as
//! people write them.

use serde::{Deserialize, Serialize};
use std::time::{Duration, SystemTime};

/// The fields every JSON result starts with.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct RunRecord {
    /// The version of the result's schema: raised when a field is removed, renamed or changes
    /// its meaning, never for an added field (docs/json-schemas.md).
    pub schema_version: u32,
    /// `mbt`, `ddsmt` or `ddtrace`.
    pub tool: String,
    pub tool_version: String,
    /// RFC 3339, UTC, to the second.
    pub start_time: String,
    pub end_time: String,
    /// The command line, program first.
    pub argv: Vec<String>,
    pub host: String,
}

impl RunRecord {
    /// The record of the run starting now, of this process's command line and host.
    pub fn start(tool: &str, tool_version: &str, schema_version: u32) -> RunRecord {
        RunRecord {
            schema_version,
            tool: tool.to_string(),
            tool_version: tool_version.to_string(),
            start_time: rfc3339_now(),
            end_time: String::new(),
            argv: std::env::args_os()
                .map(|a| a.to_string_lossy().into_owned())
                .collect(),
            host: nix::unistd::gethostname()
                .map(|h| h.to_string_lossy().into_owned())
                .unwrap_or_default(),
        }
    }

    /// Marks the run as ended now.
    pub fn finish(&mut self) {
        self.end_time = rfc3339_now();
    }
}

/// Now as RFC 3339 in UTC, to the second (`2026-11-24T21:40:00Z`).
pub fn rfc3339_now() -> String {
    humantime::format_rfc3339_seconds(SystemTime::now()).to_string()
}

/// CPU time (user and system) of this process and of the children it waited for.
pub fn cpu_time() -> Duration {
    use nix::sys::resource::{getrusage, UsageWho};
    [UsageWho::RUSAGE_SELF, UsageWho::RUSAGE_CHILDREN]
        .into_iter()
        .filter_map(|who| getrusage(who).ok())
        .map(|u| {
            let micros = |t: nix::sys::time::TimeVal| {
                Duration::from_secs(t.tv_sec().max(0) as u64)
                    + Duration::from_micros(t.tv_usec().max(0) as u64)
            };
            micros(u.user_time()) + micros(u.system_time())
        })
        .sum()
}

/// A positive duration as people write it: plain seconds (`90`, `2.5`) or humantime's units
/// (`90s`, `30m`, `8h`, `1h30m`, `1d`).
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let duration = match text.parse::<f64>() {
        Ok(seconds) => Duration::try_from_secs_f64(seconds).map_err(|_| ()),
        Err(_) => humantime::parse_duration(text).map_err(|_| ()),
    };
    match duration {
        Ok(d) if !d.is_zero() => Ok(d),
        _ => Err(format!(
            "'{text}' is not a positive duration (seconds, or e.g. 90s, 30m, 8h, 1h30m)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse_as_people_write_them() {
        let secs = |t: &str| parse_duration(t).map(|d| d.as_secs_f64());
        assert_eq!(secs("8h"), Ok(28_800.0));
        assert_eq!(secs("30m"), Ok(1_800.0));
        assert_eq!(secs("90s"), Ok(90.0));
        assert_eq!(secs("1h30m"), Ok(5_400.0));
        assert_eq!(secs("1h 30m"), Ok(5_400.0));
        assert_eq!(secs("600"), Ok(600.0));
        assert_eq!(secs("2.5"), Ok(2.5));
        for bad in ["0", "0s", "-3", "NaN", "inf", "8 hours later", "", "1e30"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_record_names_tool_times_command_and_host() {
        let mut r = RunRecord::start("ddsmt", "0.1.0", 1);
        r.finish();
        assert_eq!((r.schema_version, r.tool.as_str()), (1, "ddsmt"));
        for time in [&r.start_time, &r.end_time] {
            assert_eq!(time.len(), "2026-11-24T21:40:00Z".len(), "{time}");
            assert!(time.ends_with('Z'));
        }
        assert!(!r.argv.is_empty() && !r.host.is_empty());
        assert!(r.start_time <= r.end_time);
        assert!(cpu_time() > Duration::ZERO);
    }
}
