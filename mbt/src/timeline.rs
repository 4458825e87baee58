//! The campaign's progress over time, for the report's plots: a [`Timeline`] of [`Sample`]s
//! (seconds since the start, rounds, check answers and failed rounds so far), recorded by the
//! campaign loop and kept in `summary.json`.
//!
//! A sample is taken at most every [`Timeline::interval`] seconds; when there are more than
//! [`MAX_SAMPLES`], every other one is dropped and the interval doubles, so an 8-hour night
//! keeps a few hundred samples and a short test campaign still gets several. The counts are
//! cumulative, so shards merge by adding their step functions ([`Timeline::merge`]): at every
//! time one of them took a sample, the merged sample holds the sum of each shard's last
//! sample until then (shards run side by side from a common start).

use serde::{Deserialize, Serialize};

/// The most samples a timeline keeps.
pub const MAX_SAMPLES: usize = 512;
/// The interval between samples at the start of a campaign, in seconds.
pub const FIRST_INTERVAL: f64 = 0.25;

/// The campaign's counts at one time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    /// Seconds since the campaign started.
    pub seconds: f64,
    /// Rounds finished so far.
    pub rounds: u64,
    /// Check answers so far.
    pub sat: u64,
    pub unsat: u64,
    pub unknown: u64,
    /// Rounds that failed so far, duplicates included.
    pub failed_rounds: u64,
}

impl Sample {
    /// `self` plus the counts of `other`, at `self`'s time.
    fn plus(self, other: &Sample) -> Sample {
        Sample {
            seconds: self.seconds,
            rounds: self.rounds + other.rounds,
            sat: self.sat + other.sat,
            unsat: self.unsat + other.unsat,
            unknown: self.unknown + other.unknown,
            failed_rounds: self.failed_rounds + other.failed_rounds,
        }
    }
}

/// Samples in time order, at least `interval` seconds apart (the last one excepted).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Timeline {
    pub interval: f64,
    pub samples: Vec<Sample>,
}

impl Default for Timeline {
    fn default() -> Self {
        Timeline {
            interval: FIRST_INTERVAL,
            samples: Vec::new(),
        }
    }
}

impl Timeline {
    /// Records `sample` when the interval has passed since the last one.
    pub fn record(&mut self, sample: Sample) {
        if let Some(last) = self.samples.last() {
            if sample.seconds < last.seconds + self.interval {
                return;
            }
        }
        self.samples.push(sample);
        if self.samples.len() > MAX_SAMPLES {
            self.thin();
        }
    }

    /// Records the final counts, whenever they come.
    pub fn finish(&mut self, sample: Sample) {
        match self.samples.last_mut() {
            Some(last) if last.seconds >= sample.seconds => *last = sample,
            _ => self.samples.push(sample),
        }
    }

    /// Keeps every other sample (the first and the last always) and doubles the interval.
    fn thin(&mut self) {
        let last = self.samples.pop();
        let mut i = 0;
        self.samples.retain(|_| {
            i += 1;
            i % 2 == 1
        });
        self.samples.extend(last);
        self.interval *= 2.0;
    }

    /// The timeline of shards that ran side by side: at every sample time of any shard, the
    /// sum of every shard's counts then.
    pub fn merge(shards: &[&Timeline]) -> Timeline {
        let mut times: Vec<f64> = shards
            .iter()
            .flat_map(|t| t.samples.iter().map(|s| s.seconds))
            .collect();
        times.sort_by(f64::total_cmp);
        times.dedup();
        let mut merged = Timeline {
            interval: shards
                .iter()
                .map(|t| t.interval)
                .fold(FIRST_INTERVAL, f64::max),
            samples: Vec::with_capacity(times.len()),
        };
        for seconds in times {
            let at = Sample {
                seconds,
                ..Sample::default()
            };
            let sample = shards
                .iter()
                .fold(at, |sum, shard| match shard.at(seconds) {
                    Some(s) => sum.plus(s),
                    None => sum,
                });
            merged.samples.push(sample);
        }
        while merged.samples.len() > MAX_SAMPLES {
            merged.thin();
        }
        merged
    }

    /// The last sample taken at or before `seconds`.
    fn at(&self, seconds: f64) -> Option<&Sample> {
        let n = self.samples.partition_point(|s| s.seconds <= seconds);
        n.checked_sub(1).map(|i| &self.samples[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(seconds: f64, rounds: u64) -> Sample {
        Sample {
            seconds,
            rounds,
            sat: rounds,
            failed_rounds: rounds / 2,
            ..Sample::default()
        }
    }

    #[test]
    fn samples_keep_their_interval_and_their_number_stays_bounded() {
        let mut t = Timeline::default();
        t.record(sample(0.0, 0));
        t.record(sample(0.2, 1));
        t.record(sample(0.3, 2));
        assert_eq!(t.samples.len(), 2, "0.2 s is within the first interval");
        for i in 0..10_000u64 {
            t.record(sample(1.0 + i as f64, i));
        }
        assert!(t.samples.len() <= MAX_SAMPLES, "{}", t.samples.len());
        assert!(t.interval > FIRST_INTERVAL);
        assert_eq!(t.samples[0], sample(0.0, 0), "the start stays");
        t.finish(sample(20_000.5, 10_000));
        assert_eq!(t.samples.last(), Some(&sample(20_000.5, 10_000)));
        assert!(t.samples.windows(2).all(|w| w[0].seconds < w[1].seconds));
    }

    #[test]
    fn shards_add_up_as_step_functions() {
        let a = Timeline {
            interval: 1.0,
            samples: vec![sample(0.0, 0), sample(1.0, 10), sample(2.0, 20)],
        };
        let b = Timeline {
            interval: 1.0,
            samples: vec![sample(0.5, 4), sample(1.5, 8)],
        };
        let m = Timeline::merge(&[&a, &b]);
        let rounds: Vec<(f64, u64)> = m.samples.iter().map(|s| (s.seconds, s.rounds)).collect();
        assert_eq!(
            rounds,
            [(0.0, 0), (0.5, 4), (1.0, 14), (1.5, 18), (2.0, 28)],
            "after its end a shard keeps its final counts"
        );
        assert_eq!(m.samples[4].failed_rounds, 10 + 4);
        assert_eq!(Timeline::merge(&[&a]).samples, a.samples);
    }
}
