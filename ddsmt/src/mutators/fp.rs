//! Floating-point mutators: [`ShortSort`].

use super::util::{self, atom, replace};
use super::{Group, Mutation, MutationInput, Mutator};
use smtlib::NodeId;

/// `(_ FloatingPoint 8 24)` -> `Float32` (also 16, 64 and 128 bits).
pub struct ShortSort;

impl ShortSort {
    fn short_name(cx: &MutationInput, id: NodeId) -> Option<&'static str> {
        let ("FloatingPoint", indices) = util::indexed(cx.tree, id)? else {
            return None;
        };
        match indices[..] {
            ["5", "11"] => Some("Float16"),
            ["8", "24"] => Some("Float32"),
            ["11", "53"] => Some("Float64"),
            ["15", "113"] => Some("Float128"),
            _ => None,
        }
    }

    fn rewrite(cx: &MutationInput, id: NodeId) -> Option<Mutation> {
        let n = Self::short_name(cx, id)?;
        Some(replace(format!("sort {n}"), id, atom(n)))
    }
}

impl Mutator for ShortSort {
    mutator_info!(
        Group::Fp,
        "fp-short-sort",
        "replace long FP sort name with short name"
    );
    single_rewrite!(Self::rewrite);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutators::testutil::check;

    #[test]
    fn short_sort() {
        check(
            &ShortSort,
            "(declare-const f (_ FloatingPoint 11 53))\n(assert (fp.isNaN f))",
            "(_ FloatingPoint 11 53)",
            &["(declare-const f Float64)\n(assert (fp.isNaN f))"],
        );
        check(
            &ShortSort,
            "(declare-const f (_ FloatingPoint 3 5))\n(assert (fp.isNaN f))",
            "(_ FloatingPoint 3 5)",
            &[],
        );
    }
}
