//! Opt-in timings, to find where the fuzzer's time goes: with `MBT_PROFILE=FILE` in the
//! environment, every call the executor runs for mbt, every fuzzer action and every round
//! appends a line `KIND NAME WALL_MICROSECONDS CPU_MICROSECONDS` to FILE (CPU: the process's,
//! which in a worker is the round's), and every action a line `begin SEED ACTION` before it
//! runs, so that a round that crashes inside an action still names it
//! (`bench/profile.sh` sums them up and attributes findings). Each line is one `write` on a
//! file opened for appending, so the forked workers of a campaign share the file without
//! mixing lines. Without the variable, [`start`] and [`record`] only read a flag.
//!
//! Timings never enter a trace or a statistic: a round stays a function of its seed.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

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

/// When something began: wall time, and the process's CPU time when profiling is on.
#[derive(Clone, Copy, Debug)]
pub struct Stamp {
    wall: Instant,
    cpu: Option<Duration>,
}

fn process_cpu() -> Option<Duration> {
    use nix::time::{clock_gettime, ClockId};
    clock_gettime(ClockId::CLOCK_PROCESS_CPUTIME_ID)
        .ok()
        .map(Duration::from)
}

/// Now (the CPU clock is read only when profiling is on: it is a system call).
pub fn start() -> Stamp {
    Stamp {
        wall: Instant::now(),
        cpu: sink().and_then(|_| process_cpu()),
    }
}

fn write_line(mut file: &File, line: &str) {
    // Timing is best effort: a full disk must not fail a round.
    let _ = file.write_all(line.as_bytes());
}

/// Appends `KIND NAME WALL CPU` (microseconds since `started`), when profiling is on.
pub fn record(kind: &str, name: &str, started: Stamp) {
    if let Some(file) = sink() {
        let wall = started.wall.elapsed().as_micros();
        let cpu = match (started.cpu, process_cpu()) {
            (Some(then), Some(now)) => now.saturating_sub(then).as_micros(),
            _ => 0,
        };
        write_line(file, &format!("{kind} {name} {wall} {cpu}\n"));
    }
}

/// Appends `begin SEED ACTION` before round `seed` runs `action`, when profiling is on.
pub fn begin(seed: u64, action: &str) {
    if let Some(file) = sink() {
        write_line(file, &format!("begin {seed} {action}\n"));
    }
}
