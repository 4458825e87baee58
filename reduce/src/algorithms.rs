//! The two generic reduction algorithms, over `n` units identified by index. Both take a
//! builder that turns a mask over the units into a candidate text (or `None` when the mask
//! makes no sense) and use [`Reducer::first_success`], so they are deterministic for any `-j`.
//!
//! - [`ddmin`]: remove units. Windows of the kept units are removed in order, from half the
//!   units down to single units; after a success the search continues at the same position.
//!   Single-unit passes repeat until none succeeds, so the result is 1-minimal.
//! - [`substitute`]: the core of ddSMT (Niemetz & Biere 2013, Fig. 8): apply substitutions
//!   to subsets of the units, starting with all of them at once and halving the subset size;
//!   an accepted subset stays substituted and leaves the superset.

use super::reducer::{Candidate, Reducer};

/// Remove as many of `n` units as possible. `build(keep)` renders the candidate that keeps
/// exactly the units whose `keep` entry is true. Returns the final `keep` mask (whose candidate
/// is the reducer's best result if anything was removed).
pub fn ddmin(
    r: &mut Reducer,
    pass: &str,
    n: usize,
    mut build: impl FnMut(&[bool]) -> Option<Vec<u8>>,
) -> Vec<bool> {
    let mut keep = vec![true; n];
    // The first try removes every unit at once: one check, and often all that is needed.
    let mut chunk = n.max(1);
    loop {
        let mut progress = false;
        let mut pos = 0; // position in the list of kept units
        loop {
            if r.stopped() {
                return keep;
            }
            let kept: Vec<usize> = (0..n).filter(|&i| keep[i]).collect();
            if pos >= kept.len() {
                break;
            }
            let windows: Vec<&[usize]> = kept[pos..].chunks(chunk).collect();
            let found = r.first_success(windows.len(), |w| {
                let mut mask = keep.clone();
                for &i in windows[w] {
                    mask[i] = false;
                }
                build(&mask).map(|text| Candidate::new(pass, text))
            });
            match found {
                Some(w) => {
                    for &i in windows[w] {
                        keep[i] = false;
                    }
                    pos += w * chunk;
                    progress = true;
                }
                None => break,
            }
        }
        if chunk == 1 {
            if !progress {
                return keep;
            }
        } else {
            chunk = chunk.div_ceil(2);
        }
    }
}

/// Substitute as many of `n` units as possible (ddSMT's `substitute`). `build(subst)` renders
/// the candidate where exactly the units whose `subst` entry is true are substituted. Returns
/// the final mask of substituted units.
pub fn substitute(
    r: &mut Reducer,
    pass: &str,
    n: usize,
    mut build: impl FnMut(&[bool]) -> Option<Vec<u8>>,
) -> Vec<bool> {
    let mut done = vec![false; n];
    let mut superset: Vec<usize> = (0..n).collect();
    let mut size = superset.len();
    while size > 0 && !superset.is_empty() {
        let mut subsets: Vec<Vec<usize>> = superset.chunks(size).map(<[usize]>::to_vec).collect();
        let mut pos = 0;
        while pos < subsets.len() {
            if r.stopped() {
                return done;
            }
            let found = r.first_success(subsets.len() - pos, |k| {
                let mut mask = done.clone();
                for &i in &subsets[pos + k] {
                    mask[i] = true;
                }
                build(&mask).map(|text| Candidate::new(pass, text))
            });
            match found {
                Some(k) => {
                    for &i in &subsets[pos + k] {
                        done[i] = true;
                    }
                    subsets.remove(pos + k);
                    pos += k;
                }
                None => break,
            }
        }
        superset = subsets.concat();
        size /= 2;
    }
    done
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ReducerOptions, StopFlag};

    /// Render a kept subset of numbers as text "1 5 9".
    fn render(items: &[u32], keep: &[bool]) -> Vec<u8> {
        items
            .iter()
            .zip(keep)
            .filter(|(_, k)| **k)
            .map(|(x, _)| x.to_string())
            .collect::<Vec<_>>()
            .join(" ")
            .into_bytes()
    }

    fn numbers(text: &[u8]) -> Vec<u32> {
        std::str::from_utf8(text)
            .unwrap()
            .split_whitespace()
            .map(|w| w.parse().unwrap())
            .collect()
    }

    fn reduce<P: Fn(&[u8]) -> bool + Sync>(jobs: usize, items: &[u32], prop: &P) -> (Vec<u8>, u64) {
        let initial = render(items, &vec![true; items.len()]);
        let mut r = Reducer::new(
            prop,
            initial,
            ReducerOptions {
                jobs,
                ..ReducerOptions::default()
            },
            StopFlag::new(),
        );
        let keep = ddmin(&mut r, "ddmin", items.len(), |k| Some(render(items, k)));
        assert_eq!(r.best(), render(items, &keep).as_slice());
        (r.best().to_vec(), r.checks())
    }

    #[test]
    fn ddmin_finds_the_two_needed_numbers() {
        let items: Vec<u32> = (1..=40).collect();
        let prop = |t: &[u8]| {
            let n = numbers(t);
            n.contains(&7) && n.contains(&33)
        };
        let (best, _) = reduce(1, &items, &prop);
        assert_eq!(best, b"7 33");
    }

    #[test]
    fn ddmin_is_one_minimal_with_interacting_units() {
        // Needs an even count of multiples of 5 (at least 2) plus the number 13.
        let items: Vec<u32> = (1..=30).collect();
        let prop = |t: &[u8]| {
            let n = numbers(t);
            let m5 = n.iter().filter(|x| *x % 5 == 0).count();
            n.contains(&13) && m5 >= 2 && m5 % 2 == 0
        };
        let (best, _) = reduce(1, &items, &prop);
        let n = numbers(&best);
        // 13 plus an even number of multiples of 5; removing any single unit breaks it, so
        // e.g. four multiples of 5 are a valid 1-minimal answer too.
        assert!(n.len() < 30 && n.len() % 2 == 1, "{n:?}");
        assert!(prop(&best));
        // 1-minimal: removing any single number breaks the property.
        for i in 0..n.len() {
            let mut m = n.clone();
            m.remove(i);
            let t = m.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
            assert!(!prop(t.as_bytes()));
        }
    }

    #[test]
    fn ddmin_same_result_for_any_jobs() {
        let items: Vec<u32> = (1..=50).collect();
        let prop = |t: &[u8]| {
            let n = numbers(t);
            n.iter().sum::<u32>() >= 100 && n.contains(&42)
        };
        let (one, _) = reduce(1, &items, &prop);
        let (three, _) = reduce(3, &items, &prop);
        let (eight, _) = reduce(8, &items, &prop);
        assert_eq!(one, three);
        assert_eq!(one, eight);
        assert!(prop(&one));
    }

    #[test]
    fn ddmin_handles_empty_and_all_needed() {
        let prop = |_: &[u8]| true;
        let (best, _) = reduce(2, &[1, 2, 3], &prop);
        assert_eq!(best, b"");
        let all = |t: &[u8]| numbers(t).len() == 3;
        let (best, checks) = reduce(1, &[1, 2, 3], &all);
        assert_eq!(best, b"1 2 3");
        assert!(checks > 0);
    }

    #[test]
    fn substitute_replaces_what_it_can() {
        // Units are numbers; substitution replaces a number by 0; the property needs the
        // numbers at positions 2 and 5 to stay non-zero.
        let items: Vec<u32> = vec![4, 8, 15, 16, 23, 42, 7, 9];
        let build = |subst: &[bool]| {
            Some(
                items
                    .iter()
                    .zip(subst)
                    .map(|(x, s)| if *s { 0 } else { *x }.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
                    .into_bytes(),
            )
        };
        let prop = |t: &[u8]| {
            let n = numbers(t);
            n[2] != 0 && n[5] != 0
        };
        let initial = build(&[false; 8]).unwrap();
        let mut r = Reducer::new(&prop, initial, ReducerOptions::default(), StopFlag::new());
        let done = substitute(&mut r, "zero", items.len(), build);
        assert_eq!(done, vec![true, true, false, true, true, false, true, true]);
        assert_eq!(r.best(), b"0 0 15 0 0 42 0 0");
        assert_eq!(r.stats()[0].0, "zero");
        assert!(r.stats()[0].1.succeeded >= 2);
    }

    #[test]
    fn cache_never_checks_the_same_text_twice() {
        use std::sync::Mutex;
        let seen = Mutex::new(Vec::<Vec<u8>>::new());
        let prop = |t: &[u8]| {
            let mut s = seen.lock().unwrap();
            assert!(
                !s.iter().any(|x| x == t),
                "checked twice: {:?}",
                String::from_utf8_lossy(t)
            );
            s.push(t.to_vec());
            numbers(t).contains(&3)
        };
        let mut r = Reducer::new(
            &prop,
            b"1 2 3 4".to_vec(),
            ReducerOptions::default(),
            StopFlag::new(),
        );
        // The same candidate list twice: the second round is answered from the cache.
        for _ in 0..2 {
            r.first_success(3, |i| Some(Candidate::new("p", format!("{}", i + 10))));
        }
        assert_eq!(r.checks(), 3);
        assert_eq!(r.cache_hits(), 3);
    }

    #[test]
    fn stop_flag_ends_the_search() {
        let stop = StopFlag::new();
        let prop = |_: &[u8]| false;
        let mut r = Reducer::new(
            &prop,
            b"x".to_vec(),
            ReducerOptions::default(),
            stop.clone(),
        );
        stop.request(2);
        assert_eq!(
            r.first_success(5, |i| Some(Candidate::new("p", vec![b'a'; i]))),
            None
        );
        assert_eq!(r.checks(), 0);
        assert!(r.stopped());
    }
}
