//! String and sequence mutators: [`SeqNthUnit`], [`ContainsToConcat`], [`IndexNotFound`],
//! [`ReplaceAll`] and [`StringConstants`].

use super::util::{self, app, atom, node, replace};
use super::{Group, Mutation, MutationInput, Mutator};
use smtlib::{Atom, NodeId};
use std::collections::{HashMap, HashSet};

/// `(seq.nth (seq.unit x) 0)` -> `x`.
pub struct SeqNthUnit;

impl SeqNthUnit {
    fn element(cx: &MutationInput, id: NodeId) -> Option<NodeId> {
        let tree = cx.tree;
        let [seq, index] = util::app_args(tree, id, "seq.nth")?;
        if util::text(tree, *index) != Some("0") {
            return None;
        }
        let [x] = util::app_args(tree, *seq, "seq.unit")?;
        Some(*x)
    }

    fn rewrite(cx: &MutationInput, id: NodeId) -> Option<Mutation> {
        let x = Self::element(cx, id)?;
        Some(replace("nth of unit", id, node(x)))
    }
}

impl Mutator for SeqNthUnit {
    mutator_info!(Group::Strings, "seq-nth-unit", "remove nth of unit seq");
    single_rewrite!(Self::rewrite);
}

/// `(str.contains a b)` -> `(= a (str.++ s0 b s1))` with fresh string constants.
pub struct ContainsToConcat;

impl Mutator for ContainsToConcat {
    mutator_info!(
        Group::Strings,
        "str-contains-to-concat",
        "eliminate str.contains by ++"
    );
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        util::is_app(cx.tree, id, "str.contains") && util::args(cx.tree, id).len() == 2
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        let tree = cx.tree;
        let [a, b] = util::args(tree, id) else {
            return Vec::new();
        };
        let first = util::fresh_name(tree, "_s", &HashSet::new());
        let second = util::fresh_name(tree, "_s", &HashSet::from([first.clone()]));
        let concat = app("str.++", vec![atom(&first), node(*b), atom(&second)]);
        let root = util::root_of(tree, id);
        let rewritten = util::rebuild(
            tree,
            root,
            &HashMap::from([(id, app("=", vec![node(*a), concat]))]),
        );
        let decls = [
            format!("(declare-const {first} String)"),
            format!("(declare-const {second} String)"),
        ];
        vec![util::mutation(
            "str.contains to str.++",
            vec![util::insert_before_root(tree, root, &decls, &rewritten)],
        )]
    }
}

/// `(str.indexof a b i)` -> `(- 1)`, the result when `b` is not found.
pub struct IndexNotFound;

impl Mutator for IndexNotFound {
    mutator_info!(
        Group::Strings,
        "str-index-not-found",
        "eliminate str.indexof"
    );
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        util::is_app(cx.tree, id, "str.indexof")
    }
    fn mutations(&self, _cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        vec![replace("str.indexof to -1", id, app("-", vec![atom("1")]))]
    }
}

/// `(str.replace_all a b c)` -> `(str.replace a b c)` (also `str.replace_re_all`).
pub struct ReplaceAll;

impl Mutator for ReplaceAll {
    mutator_info!(
        Group::Strings,
        "str-replace-all",
        "eliminate str.replace_all"
    );
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        matches!(
            util::head(cx.tree, id),
            Some("str.replace_all" | "str.replace_re_all")
        )
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        let op = match util::head(cx.tree, id) {
            Some("str.replace_all") => "str.replace",
            _ => "str.replace_re",
        };
        vec![replace(
            format!("replace_all to {op}"),
            id,
            app(op, util::nodes(util::args(cx.tree, id))),
        )]
    }
}

/// The characters of a string literal body as written: `""` and `\u{..}` / `\uXXXX`
/// escapes stay whole.
fn literal_chars(body: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = body;
    while let Some(c) = rest.chars().next() {
        let len = if rest.starts_with("\"\"") {
            2
        } else if let Some(after) = rest.strip_prefix("\\u{") {
            after
                .find('}')
                .filter(|&end| end <= 5 && after[..end].chars().all(|c| c.is_ascii_hexdigit()))
                .map_or(c.len_utf8(), |end| end + 4)
        } else if rest.len() >= 6
            && rest.starts_with("\\u")
            && rest[2..6].chars().all(|c| c.is_ascii_hexdigit())
        {
            6
        } else {
            c.len_utf8()
        };
        out.push(&rest[..len]);
        rest = &rest[len..];
    }
    out
}

/// Shortens a non-empty string literal: first half, without the first or the last character.
pub struct StringConstants;

impl StringConstants {
    fn candidates(cx: &MutationInput, id: NodeId) -> Vec<String> {
        let Some(Atom::String(s)) = cx.tree.atom(id) else {
            return Vec::new();
        };
        let body = &s[1..s.len().saturating_sub(1).max(1)];
        let chars = literal_chars(body);
        if chars.is_empty() {
            return Vec::new();
        }
        let quote = |parts: &[&str]| format!("\"{}\"", parts.concat());
        let mut out = vec![
            quote(&chars[..chars.len() / 2]),
            quote(&chars[1..]),
            quote(&chars[..chars.len() - 1]),
        ];
        let mut seen = HashSet::new();
        out.retain(|c| c != s && seen.insert(c.clone()));
        out
    }
}

impl Mutator for StringConstants {
    mutator_info!(Group::Strings, "str-constants", "simplify string constant");
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        !Self::candidates(cx, id).is_empty()
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        Self::candidates(cx, id)
            .into_iter()
            .map(|c| replace(format!("string constant {c}"), id, atom(c)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutators::testutil::check;

    const D: &str = "(declare-const s String)\n(declare-const t String)\n";

    fn with(body: &str) -> String {
        format!("{D}{body}")
    }

    #[test]
    fn seq_nth_unit() {
        let d = "(declare-const x Int)\n";
        check(
            &SeqNthUnit,
            &format!("{d}(assert (= (seq.nth (seq.unit x) 0) 1))"),
            "(seq.nth (seq.unit x) 0)",
            &[&format!("{d}(assert (= x 1))")],
        );
        check(
            &SeqNthUnit,
            &format!("{d}(assert (= (seq.nth (seq.unit x) 1) 1))"),
            "(seq.nth (seq.unit x) 1)",
            &[],
        );
    }

    #[test]
    fn contains_to_concat() {
        check(
            &ContainsToConcat,
            &with("(assert (str.contains s t))"),
            "(str.contains s t)",
            &[&with(
                "(declare-const _s0 String)\n(declare-const _s1 String)\n(assert (= s (str.++ _s0 t _s1)))",
            )],
        );
    }

    #[test]
    fn index_not_found() {
        check(
            &IndexNotFound,
            &with("(assert (= (str.indexof s t 0) 2))"),
            "(str.indexof s t 0)",
            &[&with("(assert (= (- 1) 2))")],
        );
    }

    #[test]
    fn replace_all() {
        check(
            &ReplaceAll,
            &with("(assert (= (str.replace_all s t \"a\") s))"),
            "(str.replace_all s t \"a\")",
            &[&with("(assert (= (str.replace s t \"a\") s))")],
        );
    }

    #[test]
    fn string_constants() {
        check(
            &StringConstants,
            &with("(assert (= s \"abcd\"))"),
            "\"abcd\"",
            &[
                &with("(assert (= s \"ab\"))"),
                &with("(assert (= s \"bcd\"))"),
                &with("(assert (= s \"abc\"))"),
            ],
        );
        // Escapes stay whole.
        check(
            &StringConstants,
            &with("(assert (= s \"\"\"\\u{41}\"))"),
            "\"\"\"\\u{41}\"",
            &[
                &with("(assert (= s \"\"\"\"))"),
                &with("(assert (= s \"\\u{41}\"))"),
            ],
        );
        check(&StringConstants, &with("(assert (= s \"\"))"), "\"\"", &[]);
    }
}
