//! How the long-running tools (`mbt`, `ddsmt`, `ddtrace`) report on a run.
//!
//! - [`Progress`]: live progress on stderr. On a terminal an indicatif bar with rate and ETA;
//!   when stderr is not a terminal (a CI log, a file), one plain status line every few seconds
//!   that starts with a UTC timestamp and the tool's name; nothing with `-q`
//!   ([`Display::choose`]). The tools compute their own figures and hand them over as a
//!   position and a message: the reduction engine and the campaign never print progress.
//! - [`RunRecord`]: the fields every JSON result starts with (schema version, tool and
//!   version, start and end time in RFC 3339 UTC, command line, host), documented in
//!   `docs/json-schemas.md`.

mod live;
mod record;

pub use live::{is_status_line, Display, Progress, Ticker, DEFAULT_STATUS_INTERVAL};
pub use record::{cpu_time, parse_duration, rfc3339_now, RunRecord};
