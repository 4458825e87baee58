//! Values of ground SMT-LIB terms: [`Value`] (Booleans, exact integers and rationals,
//! bit-vectors of any width as [`BitVec`], strings as code points, arrays as [`ArrayValue`],
//! elements of uninterpreted sorts, regular languages as [`Regex`]).
//!
//! Every value is in a canonical form, so the derived `Eq`/`Ord` are semantic equality and a
//! total order usable for map keys (arrays included: see [`ArrayValue::normalize`]).
//! `Display` prints a value as an SMT-LIB term, the way Z3 prints model values.

use super::fp::{Fp, RoundingMode};
use super::regex::Regex;
use crate::sort::Sort;
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;

/// The value of a ground term.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Value {
    Bool(bool),
    Int(BigInt),
    Real(BigRational),
    BitVec(BitVec),
    /// A string as its Unicode code points (SMT-LIB allows 0 ..= 0x2FFFF).
    String(Vec<u32>),
    Array(Rc<ArrayValue>),
    /// An element of an uninterpreted sort, named as the model names it (`U!val!0`, `@uc_U_0`).
    Uninterpreted {
        sort: Sort,
        name: String,
    },
    /// A regular language (`RegLan`), kept as its expression.
    RegLan(Rc<Regex>),
    /// A sequence (`(Seq element)`): its element sort (an empty sequence has no element to
    /// tell it) and its elements, each of that sort (integers coerced where it is Real).
    Seq {
        element: Sort,
        items: Rc<Vec<Value>>,
    },
    /// A floating-point value (its bit pattern; one NaN).
    Fp(Fp),
    RoundingMode(RoundingMode),
    /// A datatype value: its constructor applied to field values. `datatype` names the sort
    /// without parameters (a nullary constructor of a parametric datatype does not tell them).
    Datatype {
        datatype: String,
        constructor: String,
        fields: Vec<Value>,
    },
}

/// A bit-vector value: `bits < 2^width`, `width >= 1`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BitVec {
    pub width: u32,
    pub bits: BigUint,
}

/// A total array as a default value plus the indices where it differs from the default.
///
/// Canonical form (kept by [`ArrayValue::normalize`]): no entry equals the default; for index
/// sorts with finitely many values (Bool, bit-vectors) the default is the value at the smallest
/// index (false, 0), so two arrays denoting the same function are structurally equal.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ArrayValue {
    pub index: Sort,
    pub default: Value,
    pub entries: BTreeMap<Value, Value>,
}

impl BitVec {
    /// `bits` reduced modulo `2^width`.
    pub fn new(width: u32, bits: BigUint) -> BitVec {
        let bits = if bits.bits() > u64::from(width) {
            bits & Self::mask(width)
        } else {
            bits
        };
        BitVec { width, bits }
    }

    /// The two's complement encoding of `value` modulo `2^width`.
    pub fn from_int(width: u32, value: &BigInt) -> BitVec {
        let modulus = BigInt::one() << width;
        let mut v = value % &modulus;
        if v.is_negative() {
            v += &modulus;
        }
        BitVec::new(width, v.to_biguint().unwrap_or_default())
    }

    pub fn from_u64(width: u32, value: u64) -> BitVec {
        BitVec::new(width, BigUint::from(value))
    }

    /// `2^width - 1`.
    pub fn mask(width: u32) -> BigUint {
        (BigUint::one() << width) - BigUint::one()
    }

    pub fn ones(width: u32) -> BitVec {
        BitVec {
            width,
            bits: Self::mask(width),
        }
    }

    pub fn zero(width: u32) -> BitVec {
        BitVec {
            width,
            bits: BigUint::zero(),
        }
    }

    pub fn is_zero(&self) -> bool {
        self.bits.is_zero()
    }

    /// The most significant bit (the sign in two's complement).
    pub fn msb(&self) -> bool {
        self.bits.bit(u64::from(self.width) - 1)
    }

    /// The value read as a two's complement integer.
    pub fn signed(&self) -> BigInt {
        let u = BigInt::from(self.bits.clone());
        if self.msb() {
            u - (BigInt::one() << self.width)
        } else {
            u
        }
    }

    pub fn unsigned(&self) -> BigInt {
        BigInt::from(self.bits.clone())
    }
}

impl ArrayValue {
    /// The constant array `index -> default`.
    pub fn constant(index: Sort, default: Value) -> ArrayValue {
        ArrayValue {
            index,
            default,
            entries: BTreeMap::new(),
        }
    }

    pub fn select(&self, index: &Value) -> Value {
        self.entries
            .get(index)
            .cloned()
            .unwrap_or_else(|| self.default.clone())
    }

    /// A copy with `index` mapped to `element`, normalized.
    pub fn store(&self, index: Value, element: Value) -> ArrayValue {
        let mut out = self.clone();
        out.entries.insert(index, element);
        out.normalize();
        out
    }

    /// Restores the canonical form described on the type.
    pub fn normalize(&mut self) {
        if let Some(first) = smallest_index(&self.index) {
            let at_first = self.select(&first);
            self.default = at_first;
        }
        let default = &self.default;
        self.entries.retain(|_, v| v != default);
    }
}

/// The smallest value of a sort with finitely many values, which anchors the canonical default.
fn smallest_index(sort: &Sort) -> Option<Value> {
    match sort {
        Sort::Bool => Some(Value::Bool(false)),
        Sort::BitVec(w) => Some(Value::BitVec(BitVec::zero(*w))),
        _ => None,
    }
}

impl Value {
    pub fn int(v: impl Into<BigInt>) -> Value {
        Value::Int(v.into())
    }

    pub fn bv(width: u32, bits: u64) -> Value {
        Value::BitVec(BitVec::from_u64(width, bits))
    }

    pub fn string(s: &str) -> Value {
        Value::String(s.chars().map(u32::from).collect())
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The sort of the value. Integers are `Int` even where a context expects `Real`.
    pub fn sort(&self) -> Sort {
        match self {
            Value::Bool(_) => Sort::Bool,
            Value::Int(_) => Sort::Int,
            Value::Real(_) => Sort::Real,
            Value::BitVec(b) => Sort::BitVec(b.width),
            Value::String(_) => Sort::String,
            Value::Array(a) => Sort::array(a.index.clone(), a.default.sort()),
            Value::Uninterpreted { sort, .. } => sort.clone(),
            Value::RegLan(_) => Sort::RegLan,
            Value::Seq { element, .. } => Sort::seq(element.clone()),
            Value::Fp(f) => Sort::FloatingPoint(f.eb, f.sb),
            Value::RoundingMode(_) => Sort::RoundingMode,
            Value::Datatype { datatype, .. } => Sort::uninterpreted(datatype.clone()),
        }
    }

    /// The value converted to `sort` where SMT-LIB's mixed Int/Real arithmetic allows it
    /// (an integer where a real is expected, also inside arrays); otherwise unchanged.
    pub fn coerce(self, sort: &Sort) -> Value {
        match (self, sort) {
            (Value::Int(i), Sort::Real) => Value::Real(BigRational::from_integer(i)),
            (Value::Array(a), Sort::Array(index, element)) => {
                if a.index == **index && a.default.sort() == **element {
                    return Value::Array(a);
                }
                let a = Rc::unwrap_or_clone(a);
                let mut out = ArrayValue {
                    index: a.index,
                    default: a.default.coerce(element),
                    entries: a
                        .entries
                        .into_iter()
                        .map(|(k, v)| (k.coerce(index), v.coerce(element)))
                        .collect(),
                };
                out.normalize();
                Value::Array(Rc::new(out))
            }
            (v, _) => v,
        }
    }

    /// Whether the value fits `sort` (integers fit `Real`).
    pub fn fits(&self, sort: &Sort) -> bool {
        match (self, sort) {
            (Value::Int(_), Sort::Real) => true,
            (Value::Array(a), Sort::Array(index, element)) => {
                a.index == **index && a.default.fits(element)
            }
            (Value::Datatype { datatype, .. }, Sort::Named(name, _)) => datatype == name,
            (v, s) => v.sort() == *s,
        }
    }
}

/// SMT-LIB equality, numeric across Int and Real.
pub fn values_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Int(i), Value::Real(r)) | (Value::Real(r), Value::Int(i)) => {
            r.is_integer() && r.numer() == i
        }
        _ => a == b,
    }
}

impl Value {
    /// A sequence of `items` of sort `element`.
    pub fn seq(element: Sort, items: Vec<Value>) -> Value {
        let items = items.into_iter().map(|v| v.coerce(&element)).collect();
        Value::Seq {
            element,
            items: Rc::new(items),
        }
    }

    /// Whether `=` on values of this kind is decided by comparing canonical forms: not for
    /// regular languages, whose expressions differ where their languages may be equal.
    pub fn has_canonical_form(&self) -> bool {
        !matches!(self, Value::RegLan(_))
    }
}

fn write_int(f: &mut fmt::Formatter<'_>, i: &BigInt) -> fmt::Result {
    if i.is_negative() {
        write!(f, "(- {})", i.abs())
    } else {
        write!(f, "{i}")
    }
}

fn write_real(f: &mut fmt::Formatter<'_>, r: &BigRational) -> fmt::Result {
    let body = |f: &mut fmt::Formatter<'_>, r: &BigRational| {
        if r.is_integer() {
            write!(f, "{}.0", r.numer())
        } else {
            write!(f, "(/ {}.0 {}.0)", r.numer(), r.denom())
        }
    };
    if r.is_negative() {
        f.write_str("(- ")?;
        body(f, &r.abs())?;
        f.write_str(")")
    } else {
        body(f, r)
    }
}

/// A string literal with `""` for quotes and `\u{..}` for characters outside printable ASCII.
pub fn string_literal(chars: &[u32]) -> String {
    let mut out = String::from("\"");
    for &c in chars {
        match c {
            0x22 => out.push_str("\"\""),
            // A backslash followed by `u` would read back as an escape, so escape it too.
            0x5c => out.push_str("\\u{5c}"),
            0x20..=0x7e => out.push(char::from(c as u8)),
            _ => out.push_str(&format!("\\u{{{c:x}}}")),
        }
    }
    out.push('"');
    out
}

impl fmt::Display for BitVec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.width.is_multiple_of(4) {
            let hex = self.bits.to_str_radix(16);
            let digits = (self.width / 4) as usize;
            write!(f, "#x{}{hex}", "0".repeat(digits.saturating_sub(hex.len())))
        } else {
            let bin = self.bits.to_str_radix(2);
            let digits = self.width as usize;
            write!(f, "#b{}{bin}", "0".repeat(digits.saturating_sub(bin.len())))
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write_int(f, i),
            Value::Real(r) => write_real(f, r),
            Value::BitVec(b) => write!(f, "{b}"),
            Value::String(s) => f.write_str(&string_literal(s)),
            Value::Array(a) => {
                for _ in &a.entries {
                    f.write_str("(store ")?;
                }
                write!(
                    f,
                    "((as const {}) {})",
                    Value::Array(a.clone()).sort(),
                    a.default
                )?;
                for (k, v) in &a.entries {
                    write!(f, " {k} {v})")?;
                }
                Ok(())
            }
            Value::Uninterpreted { name, .. } => f.write_str(name),
            Value::RegLan(r) => write!(f, "{r}"),
            Value::Seq { element, items } => match items.as_slice() {
                [] => write!(f, "(as seq.empty (Seq {element}))"),
                [x] => write!(f, "(seq.unit {x})"),
                _ => {
                    f.write_str("(seq.++")?;
                    for x in items.iter() {
                        write!(f, " (seq.unit {x})")?;
                    }
                    f.write_str(")")
                }
            },
            Value::Fp(x) => write!(f, "{x}"),
            Value::RoundingMode(rm) => f.write_str(rm.name()),
            Value::Datatype {
                constructor,
                fields,
                ..
            } => {
                if fields.is_empty() {
                    return f.write_str(constructor);
                }
                write!(f, "({constructor}")?;
                for v in fields {
                    write!(f, " {v}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// `n` as a rational.
pub fn rational(n: &BigInt) -> BigRational {
    BigRational::from_integer(n.clone())
}

/// Decimal literal text (`4.20`) to an exact rational.
pub fn parse_decimal(text: &str) -> Option<BigRational> {
    let (int_part, frac_part) = text.split_once('.').unwrap_or((text, ""));
    let digits = format!("{int_part}{frac_part}");
    let numer = BigInt::parse_bytes(digits.as_bytes(), 10)?;
    let denom = num_traits::pow(BigInt::from(10), frac_part.len());
    Some(BigRational::new(numer, denom))
}

/// `#x..` / `#b..` literal text to a bit-vector (width from the digit count).
pub fn parse_bv_literal(text: &str) -> Option<BitVec> {
    let (radix, digits, bits_per_digit) = if let Some(d) = text.strip_prefix("#x") {
        (16, d, 4)
    } else if let Some(d) = text.strip_prefix("#b") {
        (2, d, 1)
    } else {
        return None;
    };
    if digits.is_empty() {
        return None;
    }
    let bits = BigUint::parse_bytes(digits.as_bytes(), radix)?;
    let width = u32::try_from(digits.len())
        .ok()?
        .checked_mul(bits_per_digit)?;
    Some(BitVec::new(width, bits))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bitvec_printing_and_signs() {
        assert_eq!(BitVec::from_u64(8, 0x0f).to_string(), "#x0f");
        assert_eq!(BitVec::from_u64(3, 5).to_string(), "#b101");
        assert_eq!(BitVec::from_int(4, &BigInt::from(-1)).to_string(), "#xf");
        assert_eq!(BitVec::from_u64(4, 0xc).signed(), BigInt::from(-4));
        assert_eq!(BitVec::from_u64(4, 0x1c).bits, BigUint::from(0xcu32));
    }

    #[test]
    fn decimals_are_exact() {
        let r = parse_decimal("4.20").unwrap();
        assert_eq!(r, BigRational::new(21.into(), 5.into()));
        assert_eq!(Value::Real(-r).to_string(), "(- (/ 21.0 5.0))");
        assert_eq!(Value::int(-3).to_string(), "(- 3)");
    }

    #[test]
    fn arrays_are_canonical() {
        let a = ArrayValue::constant(Sort::Int, Value::int(0)).store(Value::int(1), Value::int(0));
        assert!(
            a.entries.is_empty(),
            "an entry equal to the default is dropped"
        );
        // Over Bool indices a fully specified table equals the matching constant array.
        let t = ArrayValue::constant(Sort::Bool, Value::int(1))
            .store(Value::Bool(false), Value::int(7))
            .store(Value::Bool(true), Value::int(7));
        assert_eq!(t, ArrayValue::constant(Sort::Bool, Value::int(7)));
        let printed = Value::Array(Rc::new(
            ArrayValue::constant(Sort::Int, Value::int(0)).store(Value::int(2), Value::int(5)),
        ))
        .to_string();
        assert_eq!(printed, "(store ((as const (Array Int Int)) 0) 2 5)");
    }

    #[test]
    fn string_literals_escape() {
        assert_eq!(string_literal(&[0x61, 0x22, 0x7f]), "\"a\"\"\\u{7f}\"");
    }

    #[test]
    fn mixed_equality() {
        assert!(values_equal(
            &Value::int(2),
            &Value::Real(BigRational::from_integer(2.into()))
        ));
        assert!(!values_equal(
            &Value::int(2),
            &Value::Real(BigRational::new(5.into(), 2.into()))
        ));
    }
}
