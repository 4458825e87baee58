//! Sorts shared by the trace format, the SMT-LIB front end and the evaluator.
//!
//! One `Sort` type serves everything: a trace's `sort_*` calls build one, the SMT-LIB
//! sort inference produces one per term, and the evaluator's values carry one.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;

/// A sort as SMT-LIB v2.6 writes it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Sort {
    Bool,
    Int,
    Real,
    /// `(_ BitVec w)`, `w >= 1`.
    BitVec(u32),
    /// `(Array index element)`.
    Array(Arc<Sort>, Arc<Sort>),
    /// `(_ FloatingPoint e s)`: exponent and significand width (significand includes the hidden bit).
    FloatingPoint(u32, u32),
    RoundingMode,
    String,
    RegLan,
    /// `(Seq T)`.
    Seq(Arc<Sort>),
    /// A declared (uninterpreted) sort, a datatype or any other named sort with its parameters.
    Named(String, Vec<Sort>),
    /// `(FiniteSet T)`: Z3's finite sets of T (releases after 4.8.12; `Z3_mk_finite_set_sort`).
    /// Appended last: binary traces keep the variant numbers of the sorts above.
    FiniteSet(Arc<Sort>),
    /// `(_ FiniteField p)`: Z3's prime field of order p (releases after 4.8.12;
    /// `Z3_mk_finite_field_sort`). Appended last, as `FiniteSet`.
    FiniteField(u32),
}

/// The most nodes a sort of a trace may have (`(Array Int Int)` has three). Sorts nest by
/// reference, so a few lines can describe a sort of astronomical size (each doubling the
/// last); every tool that walks a sort (printing it, building it in Z3) walks the tree.
pub const MAX_SORT_SIZE: usize = 1_000;

impl Sort {
    /// The number of nodes of the sort's tree, counted up to `MAX_SORT_SIZE + 1` (a larger
    /// sort is not walked to its end).
    pub fn size(&self) -> usize {
        fn walk(sort: &Sort, budget: &mut usize) {
            if *budget == 0 {
                return;
            }
            *budget -= 1;
            match sort {
                Sort::Array(i, e) => {
                    walk(i, budget);
                    walk(e, budget);
                }
                Sort::Seq(e) | Sort::FiniteSet(e) => walk(e, budget),
                Sort::Named(_, params) => params.iter().for_each(|p| walk(p, budget)),
                _ => {}
            }
        }
        let mut budget = MAX_SORT_SIZE + 1;
        walk(self, &mut budget);
        MAX_SORT_SIZE + 1 - budget
    }

    pub fn array(index: Sort, element: Sort) -> Sort {
        Sort::Array(Arc::new(index), Arc::new(element))
    }

    pub fn seq(element: Sort) -> Sort {
        Sort::Seq(Arc::new(element))
    }

    pub fn finite_set(element: Sort) -> Sort {
        Sort::FiniteSet(Arc::new(element))
    }

    pub fn uninterpreted(name: impl Into<String>) -> Sort {
        Sort::Named(name.into(), Vec::new())
    }

    pub fn is_arith(&self) -> bool {
        matches!(self, Sort::Int | Sort::Real)
    }

    pub fn bv_width(&self) -> Option<u32> {
        match self {
            Sort::BitVec(w) => Some(*w),
            _ => None,
        }
    }

    pub fn fp_format(&self) -> Option<(u32, u32)> {
        match self {
            Sort::FloatingPoint(e, s) => Some((*e, *s)),
            _ => None,
        }
    }

    /// The theory a sort belongs to, used to switch fuzzer and reducer features on and off.
    pub fn theory(&self) -> Theory {
        match self {
            Sort::Bool => Theory::Core,
            Sort::Int | Sort::Real | Sort::FiniteField(_) => Theory::Arith,
            Sort::BitVec(_) => Theory::Bv,
            // Z3's finite sets are sets of values of the element sort, judged by their own
            // check (`check_finite_set`), never by the array theory's operations.
            Sort::Array(..) | Sort::FiniteSet(_) => Theory::Array,
            Sort::FloatingPoint(..) | Sort::RoundingMode => Theory::Fp,
            Sort::String | Sort::Seq(_) => Theory::Strings,
            Sort::RegLan => Theory::Regex,
            Sort::Named(..) => Theory::Uf,
        }
    }
}

impl fmt::Display for Sort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sort::Bool => f.write_str("Bool"),
            Sort::Int => f.write_str("Int"),
            Sort::Real => f.write_str("Real"),
            Sort::BitVec(w) => write!(f, "(_ BitVec {w})"),
            Sort::Array(i, e) => write!(f, "(Array {i} {e})"),
            Sort::FloatingPoint(e, s) => write!(f, "(_ FloatingPoint {e} {s})"),
            Sort::RoundingMode => f.write_str("RoundingMode"),
            Sort::String => f.write_str("String"),
            Sort::RegLan => f.write_str("RegLan"),
            Sort::Seq(e) => write!(f, "(Seq {e})"),
            Sort::FiniteSet(e) => write!(f, "(FiniteSet {e})"),
            Sort::FiniteField(p) => write!(f, "(_ FiniteField {p})"),
            Sort::Named(name, params) if params.is_empty() => f.write_str(name),
            Sort::Named(name, params) => {
                write!(f, "({name}")?;
                for p in params {
                    write!(f, " {p}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// Theories, as the fuzzer's `--theories` and the reducer's theory groups name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Theory {
    Core,
    /// Integer and real arithmetic, linear and nonlinear.
    Arith,
    Bv,
    Array,
    /// Uninterpreted sorts and functions.
    Uf,
    Fp,
    Strings,
    /// Regular expressions over Strings (`str.in_re`, `re.*`, ...); Strings come with them.
    Regex,
    /// Quantifiers (`forall`, `exists` over `var`s) over the sorts of the other theories.
    Quant,
    /// Algebraic datatypes (`declare_datatypes`, constructors, testers, accessors, updates);
    /// their sorts are `Sort::Named` instances of declared datatypes.
    Datatypes,
}

impl Theory {
    pub const ALL: [Theory; 10] = [
        Theory::Core,
        Theory::Arith,
        Theory::Bv,
        Theory::Array,
        Theory::Uf,
        Theory::Fp,
        Theory::Strings,
        Theory::Regex,
        Theory::Quant,
        Theory::Datatypes,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Theory::Core => "core",
            Theory::Arith => "arith",
            Theory::Bv => "bv",
            Theory::Array => "array",
            Theory::Uf => "uf",
            Theory::Fp => "fp",
            Theory::Strings => "strings",
            Theory::Regex => "regex",
            Theory::Quant => "quant",
            Theory::Datatypes => "datatypes",
        }
    }

    pub fn from_name(name: &str) -> Option<Theory> {
        Theory::ALL.into_iter().find(|t| t.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_is_smtlib() {
        let s = Sort::array(Sort::BitVec(8), Sort::seq(Sort::FloatingPoint(8, 24)));
        assert_eq!(
            s.to_string(),
            "(Array (_ BitVec 8) (Seq (_ FloatingPoint 8 24)))"
        );
        assert_eq!(Sort::uninterpreted("U").to_string(), "U");
        assert_eq!(
            Sort::Named("List".into(), vec![Sort::Int]).to_string(),
            "(List Int)"
        );
    }
}
