//! [`Progress`]: the live view of a run on stderr, as a bar on a terminal or as plain status
//! lines elsewhere ([`Display`]).
//!
//! The bar is indicatif's. It is drawn when the tool calls [`Progress::update`] or
//! [`Progress::tick`], never from a thread of its own unless the tool asks for one
//! ([`Progress::ticker`]): mbt's parent process forks its workers and must stay
//! single-threaded, so it ticks from its event loop; the minimizers, whose checks may take
//! seconds, start a ticker.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal as _;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How often a status line is printed when stderr is not a terminal, unless the tool's
/// `--status-interval` says otherwise.
pub const DEFAULT_STATUS_INTERVAL: Duration = Duration::from_secs(10);

/// How progress is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Display {
    /// A bar redrawn in place (stderr is a terminal).
    Bar,
    /// One status line at most this often (stderr is a log).
    Lines(Duration),
    /// Nothing (`-q`).
    Off,
}

impl Display {
    /// Nothing when `quiet`; a bar when stderr is a terminal; else status lines every
    /// `interval`.
    pub fn choose(quiet: bool, interval: Duration) -> Display {
        if quiet {
            Display::Off
        } else if std::io::stderr().is_terminal() {
            Display::Bar
        } else {
            Display::Lines(interval)
        }
    }
}

/// The live progress of one run. Clones share it (a reducer's observer holds one).
#[derive(Clone)]
pub struct Progress {
    inner: Arc<Inner>,
}

struct Inner {
    tool: String,
    display: Display,
    /// The total in `unit`s, when the run has one (mbt's rounds or seconds).
    length: Option<u64>,
    unit: String,
    bar: ProgressBar,
    start: Instant,
    state: Mutex<State>,
}

struct State {
    position: u64,
    message: String,
    /// When the last status line was printed (the start before the first).
    last_line: Instant,
}

impl Progress {
    /// Progress of `tool` shown as `display`; `length` is the total in `unit`s, if known (a
    /// bar with ETA), else the run shows only its message and elapsed time.
    pub fn new(tool: &str, display: Display, length: Option<u64>, unit: &str) -> Progress {
        let bar = match display {
            Display::Bar => ProgressBar::with_draw_target(length, ProgressDrawTarget::stderr()),
            Display::Lines(_) | Display::Off => ProgressBar::hidden(),
        };
        let template = match length {
            Some(_) => format!(
                "{{elapsed_precise}} [{{bar:30}}] {{pos}}/{{len}} {} ({{percent}}%) ETA {{eta}}  {{msg}}",
                unit.replace('{', "{{").replace('}', "}}")
            ),
            None => "{spinner} {elapsed_precise}  {msg}".to_string(),
        };
        if let Ok(style) = ProgressStyle::with_template(&template) {
            bar.set_style(style.progress_chars("=> "));
        }
        let start = Instant::now();
        Progress {
            inner: Arc::new(Inner {
                tool: tool.to_string(),
                display,
                length,
                unit: unit.to_string(),
                bar,
                start,
                state: Mutex::new(State {
                    position: 0,
                    message: String::new(),
                    last_line: start,
                }),
            }),
        }
    }

    pub fn display(&self) -> Display {
        self.inner.display
    }

    /// New figures: the position in the run's units and the tool's message (rate, findings,
    /// sizes). Redraws the bar, or prints a status line when one is due.
    pub fn update(&self, position: u64, message: String) {
        let inner = &self.inner;
        if inner.display == Display::Off {
            return;
        }
        inner.bar.set_position(position);
        inner.bar.set_message(message.clone());
        {
            let mut state = self.state();
            state.position = position;
            state.message = message;
        }
        self.tick();
    }

    /// Redraws the bar (its elapsed time moves on), or prints a status line when one is due.
    pub fn tick(&self) {
        match self.inner.display {
            Display::Off => {}
            Display::Bar => self.inner.bar.tick(),
            Display::Lines(interval) => {
                let line = {
                    let mut state = self.state();
                    if state.last_line.elapsed() < interval {
                        return;
                    }
                    state.last_line = Instant::now();
                    self.line_of(&state, self.inner.start.elapsed())
                };
                eprintln!("{line}");
            }
        }
    }

    /// The status line for the current figures: UTC timestamp, tool, progress, elapsed time,
    /// ETA, then the tool's message.
    pub fn line(&self) -> String {
        self.line_of(&self.state(), self.inner.start.elapsed())
    }

    /// The status line for `state` after `elapsed`.
    fn line_of(&self, state: &State, elapsed: Duration) -> String {
        let inner = &self.inner;
        let mut text = format!("{} {}: ", crate::rfc3339_now(), inner.tool);
        match inner.length {
            Some(length) => {
                let percent = 100.0 * state.position as f64 / length.max(1) as f64;
                text.push_str(&format!(
                    "{}/{length} {} ({percent:.1}%), elapsed {}",
                    state.position,
                    inner.unit,
                    whole_seconds(elapsed)
                ));
                if state.position > 0 && state.position < length {
                    let left = elapsed.mul_f64((length - state.position) as f64)
                        / u32::try_from(state.position).unwrap_or(u32::MAX);
                    text.push_str(&format!(", ETA {}", whole_seconds(left)));
                }
            }
            None => text.push_str(&format!("elapsed {}", whole_seconds(elapsed))),
        }
        if !state.message.is_empty() {
            text.push_str("; ");
            text.push_str(&state.message);
        }
        text
    }

    /// Removes the bar; no more status lines.
    pub fn finish(&self) {
        self.inner.bar.finish_and_clear();
    }

    /// Ticks from a thread of its own every 200 ms until the [`Ticker`] is dropped, so that
    /// status lines keep coming while one long check runs. Not for a process that forks.
    pub fn ticker(&self) -> Ticker {
        // Dropping the sender wakes the thread at once: a short run does not wait out a tick.
        let (stop, stopped) = std::sync::mpsc::channel::<()>();
        let thread = (self.inner.display != Display::Off).then(|| {
            let progress = self.clone();
            std::thread::spawn(move || {
                while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                    stopped.recv_timeout(Duration::from_millis(200))
                {
                    progress.tick();
                }
            })
        });
        Ticker {
            stop: Some(stop),
            thread,
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic elsewhere while holding the lock leaves figures that are still fine to show.
        self.inner
            .state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The thread of [`Progress::ticker`]; dropping it stops the thread.
pub struct Ticker {
    stop: Option<std::sync::mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Ticker {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// `d` to the second, as humantime writes it (`1h 5m 3s`).
fn whole_seconds(d: Duration) -> humantime::FormattedDuration {
    humantime::format_duration(Duration::from_secs(d.as_secs()))
}

/// Whether `line` is a status line of `tool` as [`Progress`] writes them off a terminal:
/// `2026-11-24T21:40:00Z tool: ...` (for readers of CI logs, and the tools' tests).
pub fn is_status_line(line: &str, tool: &str) -> bool {
    line.split_once(' ').is_some_and(|(time, rest)| {
        time.len() == "2026-11-24T21:40:00Z".len()
            && time.ends_with('Z')
            && time.as_bytes()[10] == b'T'
            && rest.starts_with(&format!("{tool}: "))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_status_line_has_time_tool_progress_eta_and_message() {
        let p = Progress::new(
            "mbt",
            Display::Lines(Duration::from_secs(3600)),
            Some(200),
            "rounds",
        );
        p.update(50, "12.0 rounds/s, findings 1".into());
        let line = p.line_of(&p.state(), Duration::from_millis(1500));
        // 2026-11-24T21:40:00Z mbt: 50/200 rounds (25.0%), elapsed 1s, ETA 4s; ...
        let (time, rest) = line.split_once(' ').unwrap();
        assert!(time.ends_with('Z') && time.contains('T'), "{line}");
        assert!(
            rest.starts_with("mbt: 50/200 rounds (25.0%), elapsed 1s, ETA 4s; 12.0 rounds/s"),
            "{line}"
        );
        let p = Progress::new("ddsmt", Display::Off, None, "");
        p.update(3, "checks 3".into());
        let line = p.line_of(&p.state(), Duration::from_secs(3725));
        assert!(
            line.ends_with("ddsmt: elapsed 1h 2m 5s"),
            "off: no figures kept: {line}"
        );
    }

    #[test]
    fn a_ticker_stops_when_dropped() {
        let p = Progress::new(
            "ddtrace",
            Display::Lines(Duration::from_secs(3600)),
            None,
            "",
        );
        let ticker = p.ticker();
        drop(ticker);
        let ticker = Progress::new("x", Display::Off, None, "").ticker();
        assert!(ticker.thread.is_none());
    }
}
