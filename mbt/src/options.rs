//! The option model: which solver parameters exist, of what kind, and which values to try.
//!
//! [`ParamDescr`]s are read from Z3 itself (`untrace::executor::solver_param_descrs`, the one
//! reader the executor uses too); Z3 says the kind of each parameter but not its range, so
//! [`KNOWN_RANGES`] adds the ranges and value sets we know, [`EXCLUDED`] lists parameters the
//! fuzzer must not touch (they would break the round's own machinery), [`writes_files`] spots
//! parameters that make Z3 write files (a campaign must leave nothing behind), and
//! [`INVALID_COMBINATIONS`] lists value pairs Z3 rejects or that make an oracle meaningless.
//! [`OptionModel::pick`] draws one `(key, value)` with favoured parameters more often.

pub use model::options::{ParamDescr, ParamKind};
use rand::Rng;

/// A value range or value set we know for a parameter (Z3 does not report ranges).
#[derive(Clone, Copy, Debug)]
pub enum Range {
    Uint(u32, u32),
    Symbols(&'static [&'static str]),
}

/// Known ranges, from Z3's documentation strings and `z3 -p` (see Z3-NOTES.md). Names are as
/// the default solver's descriptions write them (no `smt.` prefix).
pub const KNOWN_RANGES: &[(&str, Range)] = &[
    ("arith.solver", Range::Uint(2, 6)),
    ("relevancy", Range::Uint(0, 2)),
    ("phase_selection", Range::Uint(0, 6)),
    ("restart_strategy", Range::Uint(0, 4)),
    ("case_split", Range::Uint(0, 6)),
    ("arith.propagation_mode", Range::Uint(0, 2)),
    ("dack", Range::Uint(0, 2)),
    ("random_seed", Range::Uint(0, 1000)),
    // Milliseconds of wall-clock time before the combined solver gives up on its incremental
    // solver: a value a check can reach makes the answer depend on the machine's load (seed
    // 52 set 10 and answered sat in its round, unknown in the replay). The round's rlimit
    // bounds a check long before these: the timer is set and never fires.
    ("solver2_timeout", Range::Uint(60_000, 600_000)),
    ("string_solver", Range::Symbols(&["seq", "z3str3", "auto"])),
    (
        "phase",
        Range::Symbols(&[
            "always_false",
            "always_true",
            "basic_caching",
            "random",
            "caching",
        ]),
    ),
    (
        "restart",
        Range::Symbols(&["static", "luby", "ema", "geometric"]),
    ),
    (
        "gc",
        Range::Symbols(&["dyn_psm", "psm", "glue", "glue_psm"]),
    ),
    (
        "pb.solver",
        Range::Symbols(&[
            "circuit",
            "sorting",
            "totalizer",
            "solver",
            "segmented",
            "binary_merge",
        ]),
    ),
];

/// Parameters the fuzzer never sets: the round sets resource limits itself, more threads make
/// rounds nondeterministic, and switching models off breaks the model queries.
pub const EXCLUDED: &[&str] = &[
    "timeout",
    "rlimit",
    "max_memory",
    "memory_high_watermark",
    "memory_max_size",
    "memory_max_alloc_count",
    "max_conflicts",
    "threads",
    "sat.threads",
    "model",
    "produce_models",
    "dump_models",
    "trace",
    "trace_file_name",
    "smtlib2_log",
    "solver.smtlib2_log",
    "lemmas2console",
    "smt.threads",
    "parallel.enable",
    "threads.max_conflicts",
    "verbose",
    "ctrl_c",
    "model_validate",
    "candidate_models",
    "dimacs.core",
    "cube_depth",
    "lookahead_simplify",
    "drat.file",
    "drat.check_unsat",
    "drat.check_sat",
    "drat.binary",
    "drat.activity",
    "local_search_dbg_flips",
    "abce",
    "cut",
    "anf",
    // Unsound by design: integers treated as reals.
    "arith.ignore_int",
    "ddfw.threads",
    "local_search_threads",
    "threads.cube_frequency",
];

/// Whether setting parameter `name` (documented by `doc`) may make Z3 write a file: its name
/// says dump, trace, log or file (`arith.dump_lemmas` writes `lemma_N.smt2` files into the
/// working directory, `trace` writes `z3.log`, `smtlib2_log`, `drat.file`, `cancel_backup_file`,
/// `inprocess.out`, newer Z3's `solver.proof.log`), or its description speaks of a file. Such
/// parameters are never fuzzed, solver or global: a campaign must leave nothing behind, and a
/// round writing files would depend on the folder it runs in.
pub fn writes_files(name: &str, doc: &str) -> bool {
    let doc = doc.to_ascii_lowercase();
    let mentions_file = doc
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|word| matches!(word, "file" | "files" | "filename"));
    // Words, not substrings: `qi.profile` holds "file" and writes nothing.
    let words: Vec<&str> = name.split(['.', '_']).collect();
    let last = words.last().copied().unwrap_or(name);
    mentions_file
        || words.iter().any(|w| matches!(*w, "dump" | "file"))
        || matches!(last, "trace" | "log" | "out")
}

/// A parameter set to a value.
pub type Setting = (&'static str, &'static str);

/// Pairs of `(key, value)` that must not be combined in one round.
pub const INVALID_COMBINATIONS: &[(Setting, Setting)] = &[
    // Proof production with the SAT core's cardinality solver is rejected by 4.8.12.
    (("proof", "true"), ("cardinality.solver", "true")),
    // Without relevancy, quantifier instantiation by e-matching is switched off entirely.
    (("relevancy", "0"), ("ematching", "false")),
];

/// Parameters that must not be set when a theory is enabled: Z3 rejects the combination
/// (`arith.solver` other than the default with the string solver).
pub const INVALID_WITH_THEORY: &[(&str, model::Theory)] =
    &[("arith.solver", model::Theory::Strings)];

/// Parameters chosen more often: incremental use, model completion, cores, proofs.
pub const FAVOURED: &[&str] = &[
    "unsat_core",
    "model.completion",
    "core.minimize",
    "proof",
    "solver2_timeout",
    "ignore_solver1",
    "solver2_unknown",
    "random_seed",
    "arith.solver",
    "relevancy",
];

/// Global parameters the fuzzer may set before the solver exists (name, values). None may
/// write files (see [`writes_files`]; a test checks).
pub const GLOBALS: &[(&str, &[&str])] = &[
    ("model_validate", &["true", "false"]),
    ("well_sorted_check", &["true", "false"]),
    ("unsat_core", &["true", "false"]),
    ("auto_config", &["true", "false"]),
    ("smt.random_seed", &["0", "1", "7", "42"]),
    ("model.completion", &["true", "false"]),
    ("model.compact", &["true", "false"]),
    ("rewriter.flat", &["true", "false"]),
    ("rewriter.som", &["true", "false"]),
    ("rewriter.arith_lhs", &["true", "false"]),
    ("rewriter.elim_and", &["true", "false"]),
    ("rewriter.hoist_mul", &["true", "false"]),
    ("rewriter.sort_sums", &["true", "false"]),
    ("rewriter.pull_cheap_ite", &["true", "false"]),
    ("rewriter.blast_distinct", &["true", "false"]),
];

/// The range we know for parameter `name`, if any.
fn known_range(name: &str) -> Option<Range> {
    KNOWN_RANGES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, r)| *r)
}

/// Why the option model leaves parameter `d` out, or `None` when it fuzzes it: excluded for
/// the round's machinery, writes files, or no value we can draw validly (only Booleans,
/// unsigned numbers, doubles, and symbols with a known value set are drawn).
pub fn why_not_fuzzed(d: &ParamDescr) -> Option<&'static str> {
    if EXCLUDED.contains(&d.name.as_str()) {
        return Some("excluded: the round sets it or it breaks an oracle");
    }
    if writes_files(&d.name, &d.doc) {
        return Some("writes files");
    }
    let usable = matches!(
        (d.kind, known_range(&d.name)),
        (ParamKind::Bool | ParamKind::Uint | ParamKind::Double, _)
            | (ParamKind::Symbol, Some(Range::Symbols(_)))
    );
    (!usable).then_some("no value set known for its kind")
}

/// The parameters the fuzzer may set, with how to draw their values.
#[derive(Clone, Debug, Default)]
pub struct OptionModel {
    pub params: Vec<(ParamDescr, Option<Range>)>,
}

impl OptionModel {
    /// Builds the model from Z3's descriptions, keeping the parameters [`why_not_fuzzed`] has
    /// nothing against.
    pub fn new(descrs: &[ParamDescr]) -> OptionModel {
        let params = descrs
            .iter()
            .filter(|d| why_not_fuzzed(d).is_none())
            .map(|d| (d.clone(), known_range(&d.name)))
            .collect();
        OptionModel { params }
    }

    /// Draws one parameter and value; favoured parameters get a third of the draws.
    pub fn pick(&self, rng: &mut impl Rng) -> Option<(String, String)> {
        if self.params.is_empty() {
            return None;
        }
        let favoured: Vec<usize> = (0..self.params.len())
            .filter(|&i| FAVOURED.contains(&self.params[i].0.name.as_str()))
            .collect();
        let i = if !favoured.is_empty() && rng.random_bool(1.0 / 3.0) {
            favoured[rng.random_range(0..favoured.len())]
        } else {
            rng.random_range(0..self.params.len())
        };
        let (d, range) = &self.params[i];
        Some((d.name.clone(), draw_value(d.kind, *range, rng)))
    }
}

/// A value of `kind` inside `range` (or a small, plausible value when the range is unknown).
pub fn draw_value(kind: ParamKind, range: Option<Range>, rng: &mut impl Rng) -> String {
    match (kind, range) {
        (_, Some(Range::Symbols(values))) => values[rng.random_range(0..values.len())].to_string(),
        (_, Some(Range::Uint(lo, hi))) => rng.random_range(lo..=hi).to_string(),
        (ParamKind::Bool, None) => rng.random_bool(0.5).to_string(),
        (ParamKind::Uint, None) => {
            const SMALL: &[u32] = &[0, 1, 2, 3, 5, 10, 20, 100, 1000];
            SMALL[rng.random_range(0..SMALL.len())].to_string()
        }
        (ParamKind::Double, None) => {
            // Several doubles are fractions Z3 checks to lie in [0, 1].
            const DOUBLES: &[&str] = &["0.0", "0.1", "0.5", "0.9", "1.0"];
            DOUBLES[rng.random_range(0..DOUBLES.len())].to_string()
        }
        _ => "true".to_string(),
    }
}

/// Whether `(key, value)` conflicts with an option already set this round.
pub fn conflicts(set: &[(String, String)], key: &str, value: &str) -> bool {
    if set.iter().any(|(k, _)| k == key) {
        return true;
    }
    INVALID_COMBINATIONS.iter().any(|&((k1, v1), (k2, v2))| {
        let has = |k: &str, v: &str| set.iter().any(|(a, b)| a == k && b == v);
        (key == k1 && value == v1 && has(k2, v2)) || (key == k2 && value == v2 && has(k1, v1))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn reads_hundreds_of_parameters_from_z3() {
        let descrs = untrace::executor::solver_param_descrs();
        assert!(descrs.len() > 100, "only {} parameters", descrs.len());
        let relevancy = descrs
            .iter()
            .find(|d| d.name == "relevancy")
            .expect("relevancy");
        assert_eq!(relevancy.kind, ParamKind::Uint);
        assert!(descrs.iter().any(|d| d.kind == ParamKind::Bool));
    }

    #[test]
    fn picks_only_usable_parameters_within_ranges() {
        let model = OptionModel::new(&untrace::executor::solver_param_descrs());
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for _ in 0..500 {
            let (key, value) = model.pick(&mut rng).expect("a parameter");
            assert!(!EXCLUDED.contains(&key.as_str()), "{key}");
            if key == "relevancy" {
                assert!(["0", "1", "2"].contains(&value.as_str()), "{value}");
            }
            if key == "arith.solver" {
                let v: u32 = value.parse().expect("number");
                assert!((2..=6).contains(&v));
            }
        }
    }

    #[test]
    fn parameters_that_write_files_are_never_fuzzed() {
        for (name, doc) in [
            (
                "arith.dump_lemmas",
                "dump arithmetic theory lemmas to files",
            ),
            ("smt.arith.dump_lemmas", ""),
            ("drat.file", "file to dump DRAT proofs"),
            (
                "cancel_backup_file",
                "file to save partial search state if search is canceled",
            ),
            (
                "inprocess.out",
                "file to dump result of the first inprocessing step and exit",
            ),
            ("smtlib2_log", "file to save solver interaction"),
            ("solver.smtlib2_log", ""),
            ("trace", "trace generation for VCC"),
            ("trace_file_name", "name of the trace file"),
            ("dot_proof_file", "file in which to output graphical proofs"),
            ("solver.proof.log", "log clause proof trail into a file"),
            ("mbqi.trace", "generate tracing messages for MBQI"),
        ] {
            assert!(writes_files(name, doc), "{name}");
        }
        for (name, doc) in [
            (
                "proof",
                "proof generation, it must be enabled when the Z3 context is created",
            ),
            ("relevancy", "relevancy propagation heuristic"),
            ("logic", "logic used to setup the SMT solver"),
            ("lemma_gc_strategy", "lemma garbage collection strategy"),
        ] {
            assert!(!writes_files(name, doc), "{name}");
        }
        let descrs = untrace::executor::solver_param_descrs();
        assert!(descrs.iter().any(|d| d.name == "arith.dump_lemmas"));
        let model = OptionModel::new(&descrs);
        for (d, _) in &model.params {
            assert!(!writes_files(&d.name, &d.doc), "{} is fuzzed", d.name);
        }
        for (name, _) in GLOBALS {
            assert!(!writes_files(name, ""), "global {name}");
        }
    }

    #[test]
    fn invalid_combinations_conflict_both_ways() {
        let set = vec![("relevancy".to_string(), "0".to_string())];
        assert!(conflicts(&set, "ematching", "false"));
        assert!(!conflicts(&set, "ematching", "true"));
        let set = vec![("ematching".to_string(), "false".to_string())];
        assert!(conflicts(&set, "relevancy", "0"));
        assert!(
            conflicts(&set, "ematching", "true"),
            "a key is set once per round"
        );
    }
}
