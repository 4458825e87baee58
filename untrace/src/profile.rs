//! Opt-in timings, to find where the fuzzer's time goes: with `MBT_PROFILE=FILE` in the
//! environment, every call the executor runs for mbt, every fuzzer action and every round
//! appends a line `KIND NAME MICROSECONDS` to FILE (`bench/profile.sh` sums them up). Each
//! line is one `write` on a file opened for appending, so the forked workers of a campaign
//! share the file without mixing lines. Without the variable, [`record`] only reads a flag.
//!
//! Timings are wall-clock and never enter a trace or a statistic: a round stays a function of
//! its seed.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::sync::OnceLock;
use std::time::Instant;

/// The environment variable naming the file the timings go to.
pub const ENV: &str = "MBT_PROFILE";

fn sink() -> Option<&'static File> {
    static SINK: OnceLock<Option<File>> = OnceLock::new();
    SINK.get_or_init(|| {
        let path = std::env::var_os(ENV)?;
        OpenOptions::new().append(true).create(true).open(path).ok()
    })
    .as_ref()
}

/// Appends `KIND NAME MICROSECONDS` (the time since `started`), when profiling is on.
pub fn record(kind: &str, name: &str, started: Instant) {
    if let Some(mut file) = sink() {
        let line = format!("{kind} {name} {}\n", started.elapsed().as_micros());
        // Timing is best effort: a full disk must not fail a round.
        let _ = file.write_all(line.as_bytes());
    }
}
