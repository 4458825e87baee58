//! Constants: recognizing them, the simplest ones of a sort, bit-vector and integer literals.

use super::*;
use num_bigint::{BigInt, BigUint};
use smtlib::theories::is_rounding_mode;
use smtlib::Sort;
use smtlib::{Atom, NodeId, Tree};

/// Whether `id` is a literal constant (numeral, decimal, bit-vector, string, Boolean,
/// `(_ bvN w)`, `(- N)`, a floating-point special value or a rounding mode).
pub fn is_constant(tree: &Tree, id: NodeId) -> bool {
    match tree.atom(id) {
        Some(Atom::Symbol(s)) => {
            matches!(
                s.as_str(),
                "true" | "false" | "re.none" | "re.all" | "re.allchar"
            ) || is_rounding_mode(s)
        }
        Some(Atom::Keyword(_)) => false,
        Some(_) => true,
        None => {
            if let Some((name, _)) = indexed(tree, id) {
                return name.starts_with("bv")
                    || matches!(name, "+zero" | "-zero" | "+oo" | "-oo" | "NaN");
            }
            if is_app(tree, id, "-") && args(tree, id).len() == 1 {
                return matches!(
                    tree.atom(args(tree, id)[0]),
                    Some(Atom::Numeral(_) | Atom::Decimal(_))
                );
            }
            if is_app(tree, id, "fp") {
                return args(tree, id).iter().all(|&a| is_constant(tree, a));
            }
            // `(as seq.empty (Seq Int))`, `((as const (Array Int Int)) 0)`
            if tree.head(id) == Some("as") {
                return true;
            }
            false
        }
    }
}

/// Simple constants of a sort, simplest first (the sort map's [`Sort`] printed as SMT-LIB).
pub fn simple_constants(sort: &Sort) -> Vec<String> {
    match sort {
        Sort::Bool => vec!["false".into(), "true".into()],
        Sort::Int => vec!["0".into(), "1".into()],
        Sort::Real => vec!["0.0".into(), "1.0".into()],
        Sort::BitVec(w) => vec![format!("(_ bv0 {w})"), format!("(_ bv1 {w})")],
        Sort::FloatingPoint(e, s) => vec![format!("(_ +zero {e} {s})")],
        Sort::RoundingMode => vec!["RNE".into()],
        Sort::String => vec!["\"\"".into()],
        Sort::RegLan => vec!["re.none".into(), "re.all".into()],
        Sort::Seq(_) => vec![format!("(as seq.empty {sort})")],
        Sort::FiniteSet(_) => vec![format!("(as set.empty {sort})")],
        Sort::FiniteField(_) => vec![format!("(as ff0 {sort})"), format!("(as ff1 {sort})")],
        Sort::Array(_, element) => simple_constants(element)
            .into_iter()
            .take(1)
            .map(|c| format!("((as const {sort}) {c})"))
            .collect(),
        Sort::Named(..) => Vec::new(),
    }
}

/// The value and width of a bit-vector literal: `#b0101`, `#x0f` or `(_ bv5 4)`.
pub fn bv_const(tree: &Tree, id: NodeId) -> Option<(BigUint, u32)> {
    match tree.atom(id) {
        Some(Atom::Binary(s)) => {
            let digits = &s[2..];
            Some((
                BigUint::parse_bytes(digits.as_bytes(), 2).unwrap_or_default(),
                digits.len() as u32,
            ))
        }
        Some(Atom::Hexadecimal(s)) => {
            let digits = &s[2..];
            Some((
                BigUint::parse_bytes(digits.as_bytes(), 16).unwrap_or_default(),
                4 * digits.len() as u32,
            ))
        }
        Some(_) => None,
        None => {
            let (name, indices) = indexed(tree, id)?;
            let value = name.strip_prefix("bv")?;
            if indices.len() != 1 || value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit())
            {
                return None;
            }
            Some((value.parse().ok()?, indices[0].parse().ok()?))
        }
    }
}

/// How a bit-vector literal is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BvStyle {
    Binary,
    Hex,
    Indexed,
}

pub fn bv_style(tree: &Tree, id: NodeId) -> BvStyle {
    match tree.atom(id) {
        Some(Atom::Binary(_)) => BvStyle::Binary,
        Some(Atom::Hexadecimal(_)) => BvStyle::Hex,
        _ => BvStyle::Indexed,
    }
}

/// A bit-vector literal in the given style (hex falls back to binary when the width is not a
/// multiple of 4).
pub fn bv_literal(value: &BigUint, width: u32, style: BvStyle) -> String {
    match style {
        BvStyle::Hex if width.is_multiple_of(4) => {
            format!(
                "#x{:0>w$}",
                value.to_str_radix(16),
                w = (width / 4) as usize
            )
        }
        BvStyle::Indexed => format!("(_ bv{value} {width})"),
        _ => format!("#b{:0>w$}", value.to_str_radix(2), w = width as usize),
    }
}

/// All-ones of a width.
pub fn bv_ones(width: u32) -> BigUint {
    (BigUint::from(1u8) << width) - 1u8
}

/// The integer value of a numeral or `(- numeral)`.
pub fn int_const(tree: &Tree, id: NodeId) -> Option<BigInt> {
    match tree.atom(id) {
        Some(Atom::Numeral(s)) => s.parse().ok(),
        Some(_) => None,
        None if is_app(tree, id, "-") && args(tree, id).len() == 1 => {
            int_const(tree, args(tree, id)[0]).map(|v| -v)
        }
        None => None,
    }
}

/// Whether `id` is an arithmetic literal equal to `value` (`0`, `0.0`, `1`, `1.00`, ...).
pub fn is_arith_value(tree: &Tree, id: NodeId, value: u32) -> bool {
    match tree.atom(id) {
        Some(Atom::Numeral(s)) => s.parse::<u64>().ok() == Some(value as u64),
        Some(Atom::Decimal(s)) => {
            let (int, frac) = s.split_once('.').unwrap_or((s, ""));
            int.parse::<u64>().ok() == Some(value as u64) && frac.bytes().all(|b| b == b'0')
        }
        _ => false,
    }
}
