//! Campaign statistics: [`Stats`] counts per state and per call (tried / succeeded) and the
//! answers of checks; rounds add theirs into the campaign's with [`Stats::merge`], and
//! [`Stats::table`] prints the final table.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Families of API calls that are no theory, counted in `rounds_per_theory` by name: a round
/// counts for a family when it tried one of the family's calls or checks.
pub const API_FAMILIES: &[(&str, &[&str])] = &[
    (
        "contexts",
        &["new_solver_config", "translate_config", "get_proof"],
    ),
    ("consequences", &["check_consequences"]),
    ("cubes", &["check_cubes", "cube"]),
    ("tactics", &["tactic*", "goal_*", "check_goal"]),
    ("optimize", &["opt_*", "check_opt_*"]),
    ("reads", &["read*"]),
    ("rec-fun", &["rec_fun", "rec_def"]),
    ("hand-models", &["model_new", "model_const"]),
    (
        "relations",
        &[
            "linear_order",
            "partial_order",
            "piecewise_linear_order",
            "tree_order",
            "transitive_closure",
            "check_relation",
        ],
    ),
    ("rcf", &["rcf_*", "check_rcf*"]),
    ("algebraic", &["algebraic_*", "check_algebraic"]),
    ("fixedpoint", &["fp_*", "check_fp"]),
    ("propagator", &["check_propagator"]),
    ("proof-check", &["check_proof_callback"]),
];

/// The family a call named `name` counts for in `rounds_per_theory`: the theory of an
/// operation of the table (`quant` for a quantifier, `datatypes` for the datatype calls), or
/// the [`API_FAMILIES`] entry that names it (a trailing `*` matches any ending).
pub fn family_of(name: &str) -> Option<&'static str> {
    if let Some(op) = model::ops::lookup(name) {
        return Some(op.theory.name());
    }
    if matches!(name, "forall" | "exists") {
        return Some(model::Theory::Quant.name());
    }
    if model::datatype::call_names().contains(&name) {
        return Some(model::Theory::Datatypes.name());
    }
    let named = |pattern: &&str| match pattern.strip_suffix('*') {
        Some(prefix) => name.starts_with(prefix),
        None => name == *pattern,
    };
    API_FAMILIES
        .iter()
        .find(|(_, patterns)| patterns.iter().any(named))
        .map(|(family, _)| *family)
}

/// Tried / succeeded counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Count {
    pub tried: u64,
    pub ok: u64,
}

/// What one round or a whole campaign did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    /// Per state of the machine: visits (tried) and actions completed (ok).
    pub states: BTreeMap<String, Count>,
    /// Per action of the machine.
    pub actions: BTreeMap<String, Count>,
    /// Per call name (every operation of the table and every solver action).
    pub calls: BTreeMap<String, Count>,
    pub sat: u64,
    pub unsat: u64,
    pub unknown: u64,
    /// Checks on a solver that had been checked before in the round.
    pub incremental_checks: u64,
    /// The independent model check: terms checked, agreements, and terms skipped by reason.
    #[serde(default)]
    pub independent: BTreeMap<String, u64>,
    /// `--diff-lib`, `--cross-check`: answers compared and agreed, and what was not compared,
    /// by reason ([`untrace::differential::Verdict::counts`]).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub differential: BTreeMap<String, u64>,
    /// Per call that the independent evaluator cannot judge: how many of the independent
    /// checks skipped a term because of it (the lowest such call below the term).
    #[serde(default)]
    pub unjudged_ops: BTreeMap<String, u64>,
    /// Per theory: the rounds that built at least one term of its operations.
    #[serde(default)]
    pub rounds_per_theory: BTreeMap<String, u64>,
    /// Per Z3 C function: the calls Z3's own API log of each round recorded
    /// ([`crate::api_coverage`]).
    #[serde(default)]
    pub z3_functions: BTreeMap<String, u64>,
}

impl Stats {
    pub fn call_tried(&mut self, name: &str) {
        self.calls.entry(name.to_string()).or_default().tried += 1;
    }

    pub fn call_ok(&mut self, name: &str) {
        self.calls.entry(name.to_string()).or_default().ok += 1;
    }

    /// Takes a round's independent-check counters: the `unjudged op: ` ones go to
    /// [`Stats::unjudged_ops`] by operation, the others to [`Stats::independent`].
    pub fn set_independent(&mut self, counters: BTreeMap<String, u64>) {
        use untrace::executor::counters::UNJUDGED_OP;
        for (k, n) in counters {
            match k.strip_prefix(UNJUDGED_OP) {
                Some(op) => *self.unjudged_ops.entry(op.to_string()).or_default() += n,
                None => *self.independent.entry(k).or_default() += n,
            }
        }
    }

    /// Counts this round (its stats hold one round's calls) once for each family
    /// ([`family_of`]) of a call it made.
    pub fn count_round_theories(&mut self) {
        let families: std::collections::BTreeSet<&str> = self
            .calls
            .iter()
            .filter(|(_, c)| c.tried > 0)
            .filter_map(|(name, _)| family_of(name))
            .collect();
        for family in families {
            *self
                .rounds_per_theory
                .entry(family.to_string())
                .or_default() += 1;
        }
    }

    pub fn n_calls(&self) -> u64 {
        self.calls.values().map(|c| c.tried).sum()
    }

    pub fn n_checks(&self) -> u64 {
        self.sat + self.unsat + self.unknown
    }

    pub fn merge(&mut self, other: &Stats) {
        for (into, from) in [
            (&mut self.states, &other.states),
            (&mut self.actions, &other.actions),
            (&mut self.calls, &other.calls),
        ] {
            for (k, c) in from {
                let e = into.entry(k.clone()).or_default();
                e.tried += c.tried;
                e.ok += c.ok;
            }
        }
        self.sat += other.sat;
        self.unsat += other.unsat;
        self.unknown += other.unknown;
        self.incremental_checks += other.incremental_checks;
        for (into, from) in [
            (&mut self.independent, &other.independent),
            (&mut self.differential, &other.differential),
            (&mut self.unjudged_ops, &other.unjudged_ops),
            (&mut self.rounds_per_theory, &other.rounds_per_theory),
            (&mut self.z3_functions, &other.z3_functions),
        ] {
            for (k, n) in from {
                *into.entry(k.clone()).or_default() += n;
            }
        }
    }

    /// The final statistics table.
    pub fn table(&self) -> String {
        let mut out = String::new();
        for (title, map) in [
            ("state", &self.states),
            ("action", &self.actions),
            ("call", &self.calls),
        ] {
            let _ = writeln!(out, "{title:<28} {:>12} {:>12}", "tried", "succeeded");
            for (k, c) in map {
                let _ = writeln!(out, "  {k:<26} {:>12} {:>12}", c.tried, c.ok);
            }
        }
        let checks = self.n_checks();
        let ratio = if self.unsat == 0 {
            "-".to_string()
        } else {
            format!("1:{:.2}", self.unsat as f64 / self.sat.max(1) as f64)
        };
        let _ = writeln!(
            out,
            "checks {checks}: sat {} unsat {} unknown {}, sat:unsat {ratio}, incremental {:.1}%",
            self.sat,
            self.unsat,
            self.unknown,
            100.0 * self.incremental_checks as f64 / checks.max(1) as f64
        );
        for (title, map) in [
            ("independent model check", &self.independent),
            (
                "differential (rounds; answers compared, agreed, not compared by reason)",
                &self.differential,
            ),
            (
                "unjudged by the independent evaluator (skipped checks by operation)",
                &self.unjudged_ops,
            ),
            ("rounds per theory", &self.rounds_per_theory),
        ] {
            if !map.is_empty() {
                let _ = writeln!(out, "{title}");
                for (k, n) in map {
                    let _ = writeln!(out, "  {k:<40} {n:>12}");
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_adds_counts() {
        let mut a = Stats::default();
        a.call_tried("bvadd");
        a.call_ok("bvadd");
        a.sat = 1;
        let mut b = Stats::default();
        b.call_tried("bvadd");
        b.unsat = 2;
        b.incremental_checks = 1;
        a.merge(&b);
        assert_eq!(a.calls["bvadd"], Count { tried: 2, ok: 1 });
        assert_eq!((a.sat, a.unsat, a.incremental_checks), (1, 2, 1));
        assert_eq!(a.n_calls(), 2);
        assert!(a.table().contains("sat:unsat 1:2.00"), "{}", a.table());
    }

    #[test]
    fn unjudged_operations_and_theories_are_counted_per_round() {
        let mut round = Stats::default();
        for name in [
            "re.*",
            "str.in_re",
            "assert",
            "exists",
            "forall",
            "goal_new",
        ] {
            round.call_tried(name);
            round.call_ok(name);
        }
        // Refused by Z3, or failed as a check: exercised all the same.
        for name in ["bvadd", "check_opt_values", "new_solver_config"] {
            round.call_tried(name);
        }
        round.count_round_theories();
        let families = ["bv", "contexts", "optimize", "quant", "regex", "tactics"];
        assert_eq!(
            round.rounds_per_theory,
            families.iter().map(|f| (f.to_string(), 1)).collect()
        );
        assert_eq!(family_of("tactic_and_then"), Some("tactics"));
        assert_eq!(family_of("check_goal"), Some("tactics"));
        assert_eq!(family_of("check_cubes"), Some("cubes"));
        assert_eq!(family_of("check_sat"), None);
        round.set_independent(BTreeMap::from([
            ("unjudged op: seq.foo".to_string(), 2),
            ("checked".to_string(), 5),
        ]));
        let mut campaign = Stats::default();
        campaign.merge(&round);
        campaign.merge(&round);
        assert_eq!(campaign.unjudged_ops["seq.foo"], 4);
        assert_eq!(campaign.independent["checked"], 10);
        assert_eq!(campaign.rounds_per_theory["regex"], 2);
        assert!(campaign.table().contains("seq.foo"));
    }
}
