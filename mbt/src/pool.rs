//! The term pool of a round: every live term the fuzzer may use, grouped by sort, each marked
//! whether it belongs to the initial set. [`Pool::pick`] prefers terms built later, so that
//! terms grow deep (BtorMBT chooses initial expressions with lower probability).

use model::{Sort, TermId};
use rand::Rng;
use std::collections::{BTreeMap, HashMap};

#[derive(Clone, Debug, Default)]
pub struct Pool {
    by_sort: BTreeMap<Sort, Vec<(TermId, bool)>>,
    sort_of: HashMap<TermId, Sort>,
}

impl Pool {
    pub fn add(&mut self, id: TermId, sort: Sort, initial: bool) {
        self.by_sort
            .entry(sort.clone())
            .or_default()
            .push((id, initial));
        self.sort_of.insert(id, sort);
    }

    pub fn remove(&mut self, id: TermId) {
        if let Some(sort) = self.sort_of.remove(&id) {
            if let Some(v) = self.by_sort.get_mut(&sort) {
                v.retain(|(t, _)| *t != id);
                if v.is_empty() {
                    self.by_sort.remove(&sort);
                }
            }
        }
    }

    pub fn contains(&self, id: TermId) -> bool {
        self.sort_of.contains_key(&id)
    }

    pub fn len(&self) -> usize {
        self.sort_of.len()
    }

    pub fn is_empty(&self) -> bool {
        self.sort_of.is_empty()
    }

    pub fn sort_of(&self, id: TermId) -> Option<&Sort> {
        self.sort_of.get(&id)
    }

    pub fn has(&self, sort: &Sort) -> bool {
        self.by_sort.contains_key(sort)
    }

    /// A term of `sort`: with probability `p_deep` one built outside the initial set, when
    /// there is one.
    pub fn pick(&self, sort: &Sort, rng: &mut impl Rng, p_deep: f64) -> Option<TermId> {
        let terms = self.by_sort.get(sort)?;
        let n_later = terms.iter().filter(|(_, initial)| !initial).count();
        let want_later = n_later > 0 && (n_later == terms.len() || rng.random_bool(p_deep));
        let candidates: Vec<TermId> = terms
            .iter()
            .filter(|(_, initial)| *initial != want_later)
            .map(|(t, _)| *t)
            .collect();
        Some(candidates[rng.random_range(0..candidates.len())])
    }

    /// A sort with at least one term that satisfies `pred`.
    pub fn pick_sort(&self, rng: &mut impl Rng, pred: impl Fn(&Sort) -> bool) -> Option<Sort> {
        let sorts: Vec<&Sort> = self.by_sort.keys().filter(|s| pred(s)).collect();
        (!sorts.is_empty()).then(|| sorts[rng.random_range(0..sorts.len())].clone())
    }

    /// Every term, in a deterministic order (by sort, then by creation).
    pub fn all(&self) -> Vec<TermId> {
        self.by_sort.values().flatten().map(|(t, _)| *t).collect()
    }

    /// Any term, uniformly.
    pub fn any(&self, rng: &mut impl Rng) -> Option<TermId> {
        let all = self.all();
        (!all.is_empty()).then(|| all[rng.random_range(0..all.len())])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn later_terms_are_preferred() {
        let mut pool = Pool::default();
        for i in 0..10 {
            pool.add(TermId(i), Sort::Bool, true);
        }
        pool.add(TermId(100), Sort::Bool, false);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let later = (0..1000)
            .filter(|_| pool.pick(&Sort::Bool, &mut rng, 0.8) == Some(TermId(100)))
            .count();
        // Uniform choice would give about 91; the preference gives about 800.
        assert!(later > 700, "{later}");
        assert_eq!(pool.pick(&Sort::Int, &mut rng, 0.8), None);
    }

    #[test]
    fn remove_forgets_term_and_empty_sort() {
        let mut pool = Pool::default();
        pool.add(TermId(1), Sort::Int, true);
        pool.add(TermId(2), Sort::Bool, false);
        pool.remove(TermId(1));
        assert!(!pool.has(&Sort::Int));
        assert_eq!(pool.all(), vec![TermId(2)]);
        assert_eq!(pool.len(), 1);
    }
}
