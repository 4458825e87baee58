//! Fixedpoint contexts (`Z3_fixedpoint_*`: the Spacer and Datalog engines) as the reference
//! state sees them: the trace's one fixedpoint context ([`FpInfo`]), and the readers that
//! `fp_read` / `fp_read_rel` name by their C function ([`READERS`]), each with the
//! precondition under which Z3 documents it.
//!
//! A reader is one row, not a call: its trace line names the function as a string, so the
//! binary format never numbers readers (as `crate::read` does for terms).

use crate::call::{FuncId, SatResult, TermId};

/// The engines `fp_new` accepts.
pub const ENGINES: &[&str] = &["spacer", "datalog"];

/// The parameters `fp_set_param` may set, with their values. `xform.slice` off is what
/// covers need (Z3: "Covers are incompatible with slicing").
pub const PARAMS: &[(&str, &[&str])] = &[
    ("xform.slice", &["true", "false"]),
    ("xform.inline_linear", &["true", "false"]),
    ("xform.inline_eager", &["true", "false"]),
    ("spacer.random_seed", &["0", "1", "2", "3"]),
    ("spacer.eq_prop", &["true", "false"]),
    ("spacer.ground_pobs", &["true", "false"]),
    ("spacer.use_inductive_generalizer", &["true", "false"]),
    ("spacer.q3", &["true", "false"]),
    ("datalog.default_relation", &["pentagon", "smt_relation"]),
    ("datalog.subsumption", &["true", "false"]),
];

/// What the reference state knows of the trace's fixedpoint context.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FpInfo {
    pub engine: String,
    /// The registered relations, in registration order.
    pub relations: Vec<FuncId>,
    /// The rules the trace added by name (`fp_rule`, the last `fp_update_rule` of a name).
    pub rules: Vec<(String, TermId)>,
    /// Background formulas (`fp_assert`).
    pub assertions: Vec<TermId>,
    /// Rules came from parsed text (`fp_from_string`): the trace does not know them all.
    pub parsed: bool,
    /// The answer of the last query, and its term (`None` for `fp_query_relation`).
    pub answer: Option<(SatResult, Option<TermId>)>,
    /// `xform.slice` was set to `false` (covers need it).
    pub slice_off: bool,
}

/// When a reader may be called.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    /// Any time.
    Always,
    /// After a query answered `sat` or `unsat`.
    Answered,
    /// After a query answered `sat`, on Spacer.
    SpacerSat,
    /// After a query answered `unsat`, on Spacer.
    SpacerUnsat,
    /// On Spacer, after a query (the levels and lemmas of its frames).
    SpacerQueried,
    /// On Spacer with `xform.slice` off, after a query.
    Covers,
    /// On Spacer with `xform.slice` off, after `unsat`.
    CoversUnsat,
    /// On Spacer, after `fp_query` answered (its query is asked again).
    SpacerQuery,
    /// On Datalog.
    Datalog,
}

/// Every reader: its C function, whether it takes a relation, when it applies.
pub const READERS: &[(&str, bool, When)] = &[
    ("Z3_fixedpoint_get_help", false, When::Always),
    ("Z3_fixedpoint_get_param_descrs", false, When::Always),
    ("Z3_fixedpoint_get_rules", false, When::Always),
    ("Z3_fixedpoint_get_assertions", false, When::Always),
    ("Z3_fixedpoint_to_string", false, When::Always),
    ("Z3_fixedpoint_get_statistics", false, When::Always),
    ("Z3_fixedpoint_get_reason_unknown", false, When::Always),
    // The context's text (`Z3_fixedpoint_to_string`) written to a file of a private folder
    // and read into a fresh fixedpoint of a fresh Z3 context (`Z3_fixedpoint_from_file`).
    ("Z3_fixedpoint_from_file", false, When::Always),
    ("Z3_fixedpoint_get_answer", false, When::Answered),
    (
        "Z3_fixedpoint_get_ground_sat_answer",
        false,
        When::SpacerSat,
    ),
    (
        "Z3_fixedpoint_get_rules_along_trace",
        false,
        When::SpacerSat,
    ),
    (
        "Z3_fixedpoint_get_rule_names_along_trace",
        false,
        When::SpacerSat,
    ),
    ("Z3_fixedpoint_get_num_levels", true, When::SpacerQueried),
    ("Z3_fixedpoint_get_cover_delta", true, When::SpacerQueried),
    // The relation's cover at the infinite level (`get_cover_delta -1`) added back: a lemma
    // Spacer proved, so adding it changes no answer.
    ("Z3_fixedpoint_add_cover", true, When::Covers),
    // The same cover as an invariant, after `unsat` (when it is inductive).
    ("Z3_fixedpoint_add_invariant", true, When::CoversUnsat),
    // The reachable states Spacer found (it needs slicing off, as covers do).
    ("Z3_fixedpoint_get_reachable", true, When::Covers),
    // The last query asked again from level 0: a definite answer must be the query's.
    ("Z3_fixedpoint_query_from_lvl", false, When::SpacerQuery),
    // A fact of the relation, every argument 0 (`Z3_fixedpoint_add_fact`: Datalog's
    // relations over finite domains and bit-vectors).
    ("Z3_fixedpoint_add_fact", true, When::Datalog),
    // The relation represented as intervals (`interval_relation`).
    (
        "Z3_fixedpoint_set_predicate_representation",
        true,
        When::Datalog,
    ),
];

/// The row of `function`, if it is a reader; `with_relation` says which call names it.
pub fn reader(function: &str, with_relation: bool) -> Option<When> {
    READERS
        .iter()
        .find(|(name, rel, _)| *name == function && *rel == with_relation)
        .map(|(_, _, when)| *when)
}

impl FpInfo {
    /// Whether a reader that applies `when` applies now; the reason if not.
    pub fn admits(&self, when: When) -> Result<(), String> {
        let spacer = self.engine == "spacer";
        let answer = self.answer.map(|(r, _)| r);
        let ok = match when {
            When::Always => true,
            When::Answered => matches!(answer, Some(SatResult::Sat | SatResult::Unsat)),
            When::SpacerSat => spacer && answer == Some(SatResult::Sat),
            When::SpacerUnsat => spacer && answer == Some(SatResult::Unsat),
            When::SpacerQueried => spacer && answer.is_some(),
            When::Covers => spacer && self.slice_off && answer.is_some(),
            When::CoversUnsat => spacer && self.slice_off && answer == Some(SatResult::Unsat),
            When::SpacerQuery => spacer && matches!(self.answer, Some((_, Some(_)))),
            When::Datalog => self.engine == "datalog",
        };
        if ok {
            Ok(())
        } else {
            Err(format!(
                "on engine {} (slicing {}) after {}: the function needs {when:?}",
                self.engine,
                if self.slice_off { "off" } else { "on" },
                match answer {
                    Some(r) => format!("a query answered {r:?}"),
                    None => "no query".into(),
                }
            ))
        }
    }
}

/// The most elements and edges `check_finite_domain` takes.
pub const MAX_DOMAIN: u32 = 8;
pub const MAX_EDGES: usize = 16;

/// The edges of `check_finite_domain`'s text (`A>B` separated by spaces, each end below
/// `size`), or what is wrong with them.
pub fn domain_edges(size: u32, text: &str) -> Result<Vec<(u32, u32)>, String> {
    if size == 0 || size > MAX_DOMAIN {
        return Err(format!(
            "a finite domain of 1 to {MAX_DOMAIN} elements, not {size}"
        ));
    }
    let edges = text
        .split_whitespace()
        .map(|edge| {
            let (a, b) = edge
                .split_once('>')
                .ok_or_else(|| format!("edge `{edge}` is not `A>B`"))?;
            let end = |x: &str| match x.parse::<u32>() {
                Ok(n) if n < size => Ok(n),
                _ => Err(format!("`{x}` of edge `{edge}` is no element below {size}")),
            };
            Ok((end(a)?, end(b)?))
        })
        .collect::<Result<Vec<_>, String>>()?;
    if edges.len() > MAX_EDGES {
        return Err(format!("at most {MAX_EDGES} edges, not {}", edges.len()));
    }
    Ok(edges)
}

/// Which elements `from` reaches in one edge or more: the answers `path(from, k)` must
/// have.
pub fn reachable(size: u32, edges: &[(u32, u32)], from: u32) -> Vec<bool> {
    let mut reached = vec![false; size as usize];
    let mut todo: Vec<u32> = vec![from];
    while let Some(a) = todo.pop() {
        for &(x, y) in edges {
            if x == a && !reached[y as usize] {
                reached[y as usize] = true;
                todo.push(y);
            }
        }
    }
    reached
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finite_domain_edges_are_read_and_closed() {
        let edges = domain_edges(4, "0>1 1>2 2>1").unwrap();
        assert_eq!(edges, vec![(0, 1), (1, 2), (2, 1)]);
        assert_eq!(reachable(4, &edges, 0), vec![false, true, true, false]);
        assert_eq!(reachable(4, &edges, 1), vec![false, true, true, false]);
        assert_eq!(reachable(4, &edges, 3), vec![false; 4]);
        assert!(domain_edges(4, "0>4").is_err());
        assert!(domain_edges(4, "0-1").is_err());
        assert!(domain_edges(0, "").is_err());
        assert!(domain_edges(MAX_DOMAIN + 1, "").is_err());
        assert_eq!(domain_edges(2, ""), Ok(vec![]));
    }

    #[test]
    fn readers_apply_after_the_answers_they_read() {
        let mut info = FpInfo {
            engine: "spacer".into(),
            ..FpInfo::default()
        };
        assert!(info.admits(When::Always).is_ok());
        assert!(info.admits(When::Answered).is_err());
        info.answer = Some((SatResult::Unsat, None));
        assert!(info.admits(When::SpacerUnsat).is_ok());
        assert!(info.admits(When::SpacerSat).is_err());
        info.engine = "datalog".into();
        assert!(info.admits(When::SpacerQueried).is_err());
        assert!(info.admits(When::Answered).is_ok());
        assert_eq!(
            reader("Z3_fixedpoint_get_num_levels", true),
            Some(When::SpacerQueried)
        );
        assert_eq!(reader("Z3_fixedpoint_get_num_levels", false), None);
    }
}
