//! Behaviour comparison with the golden run, exactly as ddSMT 2's `matches_golden`:
//! the exit code always; then, unless ignored, stdout and stderr must be equal to the golden
//! ones, or contain the `--match-out` / `--match-err` string when one is given.
//!
//! Timeouts: a run killed by the timeout never matches a golden run that ended by itself.
//! If the golden run itself timed out (only possible with an explicit `--timeout`), the
//! behaviour to keep is "it hangs": a run matches exactly when it times out too, and its
//! (partial) output is not compared. An interrupted run never matches.

use super::command::{Exit, RunOutcome};

/// Which parts of the output to compare, and how.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Matching {
    pub ignore_out: bool,
    pub ignore_err: bool,
    /// Substring that stdout must contain (instead of equality).
    pub match_out: Option<String>,
    /// Substring that stderr must contain (instead of equality).
    pub match_err: Option<String>,
}

/// Whether `run` behaves as `golden` under `m`.
pub fn matches_golden(golden: &RunOutcome, run: &RunOutcome, m: &Matching) -> bool {
    match (golden.exit, run.exit) {
        (_, Exit::Interrupted) => return false,
        (Exit::Timeout, Exit::Timeout) => return true,
        (Exit::Timeout, _) | (_, Exit::Timeout) => return false,
        (g, r) if g != r => return false,
        _ => {}
    }
    if !m.ignore_out {
        let ok = match &m.match_out {
            Some(pat) => contains(&run.stdout, pat.as_bytes()),
            None => golden.stdout == run.stdout,
        };
        if !ok {
            return false;
        }
    }
    if !m.ignore_err {
        let ok = match &m.match_err {
            Some(pat) => contains(&run.stderr, pat.as_bytes()),
            None => golden.stderr == run.stderr,
        };
        if !ok {
            return false;
        }
    }
    true
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    needle.is_empty() || hay.windows(needle.len()).any(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn run(exit: Exit, out: &str, err: &str) -> RunOutcome {
        RunOutcome {
            cpu: Duration::ZERO,
            exit,
            stdout: out.as_bytes().to_vec(),
            stderr: err.as_bytes().to_vec(),
            duration: Duration::ZERO,
        }
    }

    #[test]
    fn exit_code_always_compared() {
        let g = run(Exit::Code(1), "a", "b");
        let all_ignored = Matching {
            ignore_out: true,
            ignore_err: true,
            ..Matching::default()
        };
        assert!(matches_golden(
            &g,
            &run(Exit::Code(1), "x", "y"),
            &all_ignored
        ));
        assert!(!matches_golden(
            &g,
            &run(Exit::Code(0), "a", "b"),
            &all_ignored
        ));
        assert!(!matches_golden(
            &g,
            &run(Exit::Signal(1), "a", "b"),
            &all_ignored
        ));
    }

    #[test]
    fn outputs_equal_by_default() {
        let g = run(Exit::Code(0), "sat\n", "warn\n");
        let m = Matching::default();
        assert!(matches_golden(
            &g,
            &run(Exit::Code(0), "sat\n", "warn\n"),
            &m
        ));
        assert!(!matches_golden(
            &g,
            &run(Exit::Code(0), "unsat\n", "warn\n"),
            &m
        ));
        assert!(!matches_golden(&g, &run(Exit::Code(0), "sat\n", ""), &m));
    }

    #[test]
    fn ignore_one_channel() {
        let g = run(Exit::Code(0), "sat\n", "warn\n");
        let no_out = Matching {
            ignore_out: true,
            ..Matching::default()
        };
        assert!(matches_golden(
            &g,
            &run(Exit::Code(0), "unsat\n", "warn\n"),
            &no_out
        ));
        assert!(!matches_golden(
            &g,
            &run(Exit::Code(0), "sat\n", "other\n"),
            &no_out
        ));
        let no_err = Matching {
            ignore_err: true,
            ..Matching::default()
        };
        assert!(matches_golden(
            &g,
            &run(Exit::Code(0), "sat\n", "other\n"),
            &no_err
        ));
        assert!(!matches_golden(
            &g,
            &run(Exit::Code(0), "unsat\n", "warn\n"),
            &no_err
        ));
    }

    #[test]
    fn substrings_replace_equality() {
        let g = run(Exit::Code(1), "error at 10\n", "trace 0x1234\n");
        let m = Matching {
            match_out: Some("error".into()),
            match_err: Some("trace".into()),
            ..Matching::default()
        };
        assert!(matches_golden(
            &g,
            &run(Exit::Code(1), "an error at 3\n", "trace 0x9\n"),
            &m
        ));
        assert!(!matches_golden(
            &g,
            &run(Exit::Code(1), "fine\n", "trace\n"),
            &m
        ));
        assert!(!matches_golden(
            &g,
            &run(Exit::Code(1), "error\n", "none\n"),
            &m
        ));
        // A match string for a channel that is ignored is not consulted.
        let ignored = Matching {
            ignore_out: true,
            match_out: Some("error".into()),
            ..Matching::default()
        };
        assert!(matches_golden(
            &g,
            &run(Exit::Code(1), "fine\n", "trace 0x1234\n"),
            &ignored
        ));
    }

    #[test]
    fn timeouts() {
        let m = Matching::default();
        let g = run(Exit::Code(0), "", "");
        assert!(!matches_golden(&g, &run(Exit::Timeout, "", ""), &m));
        let hang = run(Exit::Timeout, "partial", "");
        assert!(matches_golden(&hang, &run(Exit::Timeout, "other", ""), &m));
        assert!(!matches_golden(
            &hang,
            &run(Exit::Code(0), "partial", ""),
            &m
        ));
        assert!(!matches_golden(&g, &run(Exit::Interrupted, "", ""), &m));
    }
}
