//! AST maps and vectors (`ast_map`, `ast_vector`) and the process-wide reads (`read_global`):
//! the scripts their calls run, the reference containers those scripts are judged against,
//! and the table of global read functions with their preconditions.
//!
//! `ast_map tK tV ...` runs one script over one fresh `Z3_ast_map`: each pair inserts K ↦ V,
//! except a pair whose two terms are the same trace term, which erases K ([`map_ops`]); then
//! the map is reset and its first insertion made again. After every step, Z3's size, `contains`
//! and `find` must agree with a [`RefMap`] keyed by Z3's AST ids (Z3 shares equal terms, so
//! two trace terms may be one key), and its keys as a set with the reference's.
//!
//! `ast_vector tT ...` pushes the terms, reverses them in place with `set`, shrinks the vector
//! to half with `resize`, grows it back and fills the new slots ([`vector_ops`]); after every
//! step Z3's size and elements must be the [`RefVector`]'s; the vector translated into a
//! second context and back must hold the very same terms.
//!
//! `read_global "Z3_FUNCTION" "SUBJECT"` names one function of [`GLOBAL_READERS`], so that a
//! new global read is a row, not a call (as `crate::read` does for terms).

use crate::call::TermId;

/// One step of an `ast_map` script.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapOp<T> {
    Insert(T, T),
    Erase(T),
}

/// The steps of `ast_map` with these pairs: a pair of one term twice erases it.
pub fn map_ops(pairs: &[(TermId, TermId)]) -> Vec<MapOp<TermId>> {
    pairs
        .iter()
        .map(|&(k, v)| {
            if k == v {
                MapOp::Erase(k)
            } else {
                MapOp::Insert(k, v)
            }
        })
        .collect()
}

/// A map as Z3's `Z3_ast_map` must behave: one value per key, the last inserted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RefMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K: PartialEq + Ord + Clone, V: Clone> RefMap<K, V> {
    pub fn new() -> RefMap<K, V> {
        RefMap {
            entries: Vec::new(),
        }
    }

    pub fn insert(&mut self, key: K, value: V) {
        match self.entries.iter_mut().find(|(k, _)| *k == key) {
            Some(entry) => entry.1 = value,
            None => self.entries.push((key, value)),
        }
    }

    /// Erasing a key that is not there changes nothing (Z3 documents no error).
    pub fn erase(&mut self, key: &K) {
        self.entries.retain(|(k, _)| k != key);
    }

    pub fn reset(&mut self) {
        self.entries.clear();
    }

    pub fn size(&self) -> usize {
        self.entries.len()
    }

    pub fn contains(&self, key: &K) -> bool {
        self.find(key).is_some()
    }

    pub fn find(&self, key: &K) -> Option<&V> {
        self.entries.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The keys, sorted (Z3 promises no order: they compare as a set).
    pub fn keys(&self) -> Vec<K> {
        let mut keys: Vec<K> = self.entries.iter().map(|(k, _)| k.clone()).collect();
        keys.sort();
        keys
    }
}

/// One step of an `ast_vector` script (indices into the vector).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VectorOp<T> {
    Push(T),
    Set(u32, T),
    Resize(u32),
}

/// The steps of `ast_vector` with these terms: push them all, reverse the vector with `set`,
/// shrink it to half its length, grow it back and set every new slot (so that no slot is
/// read empty: Z3 fills a grown vector with null ASTs, which no function may print).
pub fn vector_ops(terms: &[TermId]) -> Vec<VectorOp<TermId>> {
    let n = terms.len() as u32;
    let mut ops: Vec<VectorOp<TermId>> = terms.iter().map(|&t| VectorOp::Push(t)).collect();
    for (i, &t) in terms.iter().rev().enumerate() {
        ops.push(VectorOp::Set(i as u32, t));
    }
    let half = n / 2;
    ops.push(VectorOp::Resize(half));
    ops.push(VectorOp::Resize(n));
    for (i, &t) in terms.iter().enumerate().skip(half as usize) {
        ops.push(VectorOp::Set(i as u32, t));
    }
    ops
}

/// A vector as Z3's `Z3_ast_vector` must behave; `None` is a slot a grown vector has not
/// had set yet.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RefVector<T> {
    items: Vec<Option<T>>,
}

impl<T: Clone> RefVector<T> {
    pub fn new() -> RefVector<T> {
        RefVector { items: Vec::new() }
    }

    /// Applies a step; `false` where Z3 documents the step as invalid (a set out of range).
    pub fn apply(&mut self, op: &VectorOp<T>) -> bool {
        match op {
            VectorOp::Push(t) => self.items.push(Some(t.clone())),
            VectorOp::Set(i, t) => match self.items.get_mut(*i as usize) {
                Some(slot) => *slot = Some(t.clone()),
                None => return false,
            },
            VectorOp::Resize(n) => self.items.resize(*n as usize, None),
        }
        true
    }

    pub fn size(&self) -> usize {
        self.items.len()
    }

    pub fn get(&self, i: usize) -> Option<&T> {
        self.items.get(i).and_then(Option::as_ref)
    }
}

/// What the subject of a global read names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GlobalSubject {
    /// Nothing: the subject is empty.
    Nothing,
    /// A tactic of [`crate::options::GOAL_TACTICS`].
    Tactic,
    /// A probe of [`crate::options::PROBES`].
    Probe,
    /// A global parameter of [`GLOBAL_DEFAULTS`].
    GlobalParam,
}

/// Every global read: its C function (the one the row is named after; the executor makes
/// the others the row lists in `docs/trace-format.md` around it), its subject, and whether
/// only releases after 4.8.12 have it (looked up by name at run time, never linked).
pub const GLOBAL_READERS: &[(&str, GlobalSubject, bool)] = &[
    // Must agree with `Z3_get_full_version`.
    ("Z3_get_version", GlobalSubject::Nothing, false),
    // Every name of `Z3_get_num_tactics` makes a tactic; the model's tactics are all there.
    ("Z3_get_tactic_name", GlobalSubject::Nothing, false),
    // The same for probes (`Z3_mk_probe`).
    ("Z3_get_probe_name", GlobalSubject::Nothing, false),
    // A number, recorded nowhere and not judged (it depends on everything before).
    ("Z3_get_estimated_alloc_size", GlobalSubject::Nothing, false),
    // Help and parameter descriptions of a solver, the simplifier, an Optimize context and
    // a tactic: every described name in the help text; parameters of the described kinds
    // validate (`Z3_params_validate`), one of a wrong kind is refused.
    ("Z3_solver_get_help", GlobalSubject::Nothing, false),
    ("Z3_simplify_get_help", GlobalSubject::Nothing, false),
    ("Z3_optimize_get_help", GlobalSubject::Nothing, false),
    ("Z3_tactic_get_help", GlobalSubject::Tactic, false),
    // A description that is not empty.
    ("Z3_probe_get_descr", GlobalSubject::Probe, false),
    // The value the trace set (`set_global`), else the default ([`GLOBAL_DEFAULTS`]).
    ("Z3_global_param_get", GlobalSubject::GlobalParam, false),
    // Every parameter of [`GLOBAL_DEFAULTS`] reads its default after it; the trace's own
    // settings are then made again (and read back).
    ("Z3_global_param_reset_all", GlobalSubject::Nothing, false),
    // Only in releases after 4.8.12: the global parameters' descriptions (every parameter
    // of [`GLOBAL_DEFAULTS`] without a module described), the simplifiers' names (each
    // makes a simplifier, `Z3_mk_simplifier`, with a description and a help text that names
    // its described parameters).
    ("Z3_get_global_param_descrs", GlobalSubject::Nothing, true),
    ("Z3_get_simplifier_name", GlobalSubject::Nothing, true),
];

/// Global parameters with the default both Z3 4.8.12 and 5.4.1 report (`Z3_global_param_get`
/// of a fresh process): the parameters the fuzzer sets, and a few more.
pub const GLOBAL_DEFAULTS: &[(&str, &str)] = &[
    ("model_validate", "false"),
    ("well_sorted_check", "false"),
    ("unsat_core", "false"),
    ("auto_config", "true"),
    ("proof", "false"),
    ("timeout", "4294967295"),
    ("smt.random_seed", "0"),
    ("sat.random_seed", "0"),
    ("model.completion", "false"),
    ("model.compact", "true"),
    ("rewriter.flat", "true"),
    ("rewriter.som", "false"),
    ("rewriter.arith_lhs", "false"),
    ("rewriter.elim_and", "false"),
    ("rewriter.hoist_mul", "false"),
    ("rewriter.sort_sums", "false"),
    ("rewriter.pull_cheap_ite", "false"),
    ("rewriter.blast_distinct", "false"),
];

/// The row of a global read function.
pub fn global_reader(function: &str) -> Option<(GlobalSubject, bool)> {
    GLOBAL_READERS
        .iter()
        .find(|(name, ..)| *name == function)
        .map(|&(_, subject, newer)| (subject, newer))
}

/// Whether `subject` is one the function reads; the reason if not.
pub fn admits_subject(kind: GlobalSubject, subject: &str) -> Result<(), String> {
    let (ok, what) = match kind {
        GlobalSubject::Nothing => (subject.is_empty(), "nothing (an empty subject)"),
        GlobalSubject::Tactic => (
            crate::options::GOAL_TACTICS.contains(&subject),
            "a tactic of the model",
        ),
        GlobalSubject::Probe => (
            crate::options::PROBES.contains(&subject),
            "a probe of the model",
        ),
        GlobalSubject::GlobalParam => (
            GLOBAL_DEFAULTS.iter().any(|(k, _)| *k == subject),
            "a global parameter of model::handles::GLOBAL_DEFAULTS",
        ),
    };
    if ok {
        Ok(())
    } else {
        Err(format!("the subject `{subject}` is not {what}"))
    }
}

/// What `Z3_global_param_get` of `key` must answer after the trace's `set_global` calls
/// `set` (in order): the last value set, else the default; `None` where the model does not
/// know.
pub fn expected_global(set: &[(String, String)], key: &str) -> Option<String> {
    set.iter()
        .rev()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.clone())
        .or_else(|| {
            GLOBAL_DEFAULTS
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| v.to_string())
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reference_map_keeps_the_last_value_of_a_key() {
        let mut m: RefMap<u32, &str> = RefMap::new();
        m.insert(3, "a");
        m.insert(1, "b");
        m.insert(3, "c");
        assert_eq!(m.size(), 2);
        assert_eq!(m.find(&3), Some(&"c"));
        assert_eq!(m.keys(), vec![1, 3]);
        m.erase(&3);
        m.erase(&7);
        assert!(!m.contains(&3));
        assert_eq!(m.size(), 1);
        m.reset();
        assert_eq!(m.size(), 0);
        assert_eq!(m.find(&1), None);
    }

    #[test]
    fn a_pair_of_one_term_twice_erases_it() {
        let (a, b) = (TermId(1), TermId(2));
        assert_eq!(
            map_ops(&[(a, b), (b, b), (a, a)]),
            vec![MapOp::Insert(a, b), MapOp::Erase(b), MapOp::Erase(a)]
        );
    }

    #[test]
    fn the_vector_script_reverses_shrinks_and_grows_without_empty_slots() {
        let terms: Vec<TermId> = (1..=5).map(TermId).collect();
        let mut v = RefVector::new();
        let mut sizes = Vec::new();
        for op in vector_ops(&terms) {
            assert!(v.apply(&op), "{op:?}");
            sizes.push(v.size());
        }
        assert_eq!(sizes.iter().max(), Some(&5));
        assert!(sizes.contains(&2), "shrunk to half: {sizes:?}");
        // Reversed in the kept half, the original order in the grown one.
        let got: Vec<TermId> = (0..5).map(|i| *v.get(i).unwrap()).collect();
        assert_eq!(
            got,
            vec![TermId(5), TermId(4), TermId(3), TermId(4), TermId(5)]
        );
        let mut grown: RefVector<u32> = RefVector::new();
        grown.apply(&VectorOp::Resize(2));
        assert_eq!(grown.get(1), None, "a grown slot is empty until set");
        assert!(!grown.apply(&VectorOp::Set(2, 0)), "set out of range");
    }

    #[test]
    fn global_reads_are_judged_by_the_trace_settings_and_the_defaults() {
        let set = vec![
            ("smt.random_seed".to_string(), "7".to_string()),
            ("smt.random_seed".to_string(), "42".to_string()),
        ];
        assert_eq!(
            expected_global(&set, "smt.random_seed").as_deref(),
            Some("42")
        );
        assert_eq!(expected_global(&set, "proof").as_deref(), Some("false"));
        assert_eq!(expected_global(&set, "no.such"), None);
        assert_eq!(
            global_reader("Z3_tactic_get_help"),
            Some((GlobalSubject::Tactic, false))
        );
        assert!(admits_subject(GlobalSubject::Tactic, "simplify").is_ok());
        assert!(admits_subject(GlobalSubject::Tactic, "no-such").is_err());
        assert!(admits_subject(GlobalSubject::Nothing, "x").is_err());
        for (name, ..) in GLOBAL_READERS {
            assert!(name.starts_with("Z3_"), "{name}");
        }
    }
}
