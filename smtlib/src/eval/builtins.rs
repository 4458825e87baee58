//! The interpreted operations: [`apply`] evaluates a builtin of Core, Ints, Reals (mixed
//! Int/Real as SMT-LIB's `Reals_Ints`), and dispatches bit-vectors to [`super::bv`] and strings
//! and regular languages to [`super::strings`]. [`divide`] is the one partial family (`div`,
//! `mod`, `/`): it answers `None` where the standard leaves the result undefined, so the
//! evaluator can consult the model's extension.

use super::value::{values_equal, Value};
use super::{bv, seq, strings};
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};
use std::cmp::Ordering;

/// Names the evaluator handles itself (lazily or with a model extension), not through [`apply`].
pub(crate) const PARTIAL: [&str; 4] = ["div", "mod", "rem", "/"];

/// Applies builtin `name` (with numeric `idx` indices for `(_ name i ..)`) to evaluated arguments;
/// `None` if `name` is not a builtin, `Err` on ill-sorted arguments.
pub(crate) fn apply(name: &str, idx: &[BigInt], args: &[Value]) -> Option<Result<Value, String>> {
    let result = match name {
        "not" => bools(name, args).and_then(|b| match b.as_slice() {
            [b] => Ok(Value::Bool(!b)),
            _ => Err(arity(name, 1, args)),
        }),
        "and" => bools(name, args).map(|b| Value::Bool(b.iter().all(|&x| x))),
        "or" => bools(name, args).map(|b| Value::Bool(b.iter().any(|&x| x))),
        "xor" => bools(name, args).map(|b| Value::Bool(b.iter().fold(false, |acc, &x| acc ^ x))),
        "=>" => bools(name, args).map(|b| {
            // Right associative: a => (b => c).
            let (last, init) = b.split_last().unwrap_or((&true, &[]));
            Value::Bool(init.iter().rev().fold(*last, |acc, &x| !x || acc))
        }),
        "=" | "distinct" if args.iter().any(|a| !a.has_canonical_form()) => Err(format!(
            "{name} of regular languages (language equivalence) is not decided here"
        )),
        "=" => same_sorts(name, args)
            .map(|()| Value::Bool(args.windows(2).all(|w| values_equal(&w[0], &w[1])))),
        "distinct" => same_sorts(name, args).map(|()| {
            let all_distinct = args
                .iter()
                .enumerate()
                .all(|(i, a)| args[i + 1..].iter().all(|b| !values_equal(a, b)));
            Value::Bool(all_distinct)
        }),
        "ite" => match args {
            [Value::Bool(c), t, e] => Ok(if *c { t.clone() } else { e.clone() }),
            _ => Err("ite expects a Bool condition and two branches".into()),
        },
        "+" | "*" => nums(name, args).map(|ns| {
            let unit = Num::Int(BigInt::from(u8::from(name == "*")));
            ns.into_iter()
                .fold(unit, |acc, n| {
                    if name == "+" {
                        acc.add(&n)
                    } else {
                        acc.mul(&n)
                    }
                })
                .into_value()
        }),
        "-" => nums(name, args).and_then(|ns| match ns.as_slice() {
            [] => Err(arity(name, 1, args)),
            [n] => Ok(n.neg().into_value()),
            [first, rest @ ..] => Ok(rest
                .iter()
                .fold(first.clone(), |acc, n| acc.add(&n.neg()))
                .into_value()),
        }),
        "abs" => nums(name, args).and_then(|ns| match ns.as_slice() {
            [Num::Int(i)] => Ok(Value::Int(i.abs())),
            [Num::Real(r)] => Ok(Value::Real(r.abs())),
            _ => Err(arity(name, 1, args)),
        }),
        "<" | "<=" | ">" | ">=" => nums(name, args).and_then(|ns| {
            if ns.len() < 2 {
                return Err(arity(name, 2, args));
            }
            Ok(Value::Bool(ns.windows(2).all(|w| {
                let ord = w[0].real().cmp(&w[1].real());
                match name {
                    "<" => ord == Ordering::Less,
                    "<=" => ord != Ordering::Greater,
                    ">" => ord == Ordering::Greater,
                    _ => ord != Ordering::Less,
                }
            })))
        }),
        "to_real" => nums(name, args).and_then(|ns| match ns.as_slice() {
            [n] => Ok(Value::Real(n.real())),
            _ => Err(arity(name, 1, args)),
        }),
        "to_int" => nums(name, args).and_then(|ns| match ns.as_slice() {
            [n] => Ok(Value::Int(n.real().floor().to_integer())),
            _ => Err(arity(name, 1, args)),
        }),
        "is_int" => nums(name, args).and_then(|ns| match ns.as_slice() {
            [n] => Ok(Value::Bool(n.real().is_integer())),
            _ => Err(arity(name, 1, args)),
        }),
        // Z3's cardinality constraints: at most (least) n of the Bool arguments hold.
        "at-most" | "at-least" => match idx {
            [n] => bools(name, args).map(|b| {
                let holding = BigInt::from(b.iter().filter(|x| **x).count());
                Value::Bool(if name == "at-most" {
                    holding <= *n
                } else {
                    holding >= *n
                })
            }),
            _ => Err(format!("(_ {name} n) expects one index")),
        },
        "divisible" => match (idx, args) {
            ([n], [Value::Int(x)]) if n.is_positive() => Ok(Value::Bool((x % n).is_zero())),
            _ => Err("(_ divisible n) expects a positive index and one Int".into()),
        },
        _ => {
            return bv::apply(name, idx, args)
                .or_else(|| strings::apply(name, idx, args))
                .or_else(|| seq::apply(name, args));
        }
    };
    Some(result)
}

/// Whether `name` (unindexed or indexed) is an interpreted symbol.
pub(crate) fn is_builtin(name: &str) -> bool {
    PARTIAL.contains(&name)
        || strings::constant(name).is_some()
        || apply(name, &[], &[]).is_some()
        || matches!(name, "true" | "false")
}

/// The largest exponent [`power`] computes: beyond it the value is too large to be useful.
const MAX_EXPONENT: u32 = 4_096;

/// Z3's `(^ a b)`: `a` to a natural power `b`, a Real, or an Int where the loaded Z3 types
/// `^` on Ints so ([`crate::ops::int_power_is_real`]). `Ok(None)` where this evaluator does
/// not decide it: `0^0`, negative and fractional exponents (Z3 gives them no fixed value, or
/// an irrational one), and exponents beyond [`MAX_EXPONENT`].
pub(crate) fn power(a: &Value, b: &Value) -> Result<Option<Value>, String> {
    let [x, y] = nums("^", &[a.clone(), b.clone()])?
        .try_into()
        .map_err(|_| "^ expects two numbers".to_string())?;
    let both_int = matches!((&x, &y), (Num::Int(_), Num::Int(_)));
    let base = x.real();
    let exponent = y.real();
    let Some(n) = exponent
        .is_integer()
        .then(|| exponent.numer().to_u32())
        .flatten()
        .filter(|&n| n <= MAX_EXPONENT && !(n == 0 && base.is_zero()))
    else {
        return Ok(None);
    };
    let value = num_traits::pow::pow(base, n as usize);
    Ok(Some(if both_int && !crate::ops::int_power_is_real() {
        Value::Int(value.to_integer())
    } else {
        Value::Real(value)
    }))
}

/// `div`, `mod` or `/` of two numbers; `Ok(None)` where undefined (a zero divisor).
pub(crate) fn divide(name: &str, a: &Value, b: &Value) -> Result<Option<Value>, String> {
    match (name, a, b) {
        ("div" | "mod" | "rem", Value::Int(x), Value::Int(y)) => {
            if y.is_zero() {
                return Ok(None);
            }
            // SMT-LIB's integer division is Euclidean: 0 <= x mod y < |y|.
            let r = x.mod_floor(&y.abs());
            Ok(Some(Value::Int(match name {
                "mod" => r,
                // Z3's `rem`: `mod` with the divisor's sign.
                "rem" if y.is_negative() => -r,
                "rem" => r,
                _ => (x - r) / y,
            })))
        }
        ("/", _, _) => {
            let ns = nums(name, &[a.clone(), b.clone()])?;
            let (x, y) = (ns[0].real(), ns[1].real());
            if y.is_zero() {
                Ok(None)
            } else {
                Ok(Some(Value::Real(x / y)))
            }
        }
        _ => Err(format!(
            "{name} expects {} arguments, got {} and {}",
            if name == "/" { "Real" } else { "Int" },
            a.sort(),
            b.sort()
        )),
    }
}

fn arity(name: &str, n: usize, args: &[Value]) -> String {
    format!("{name} expects {n} argument(s), got {}", args.len())
}

fn bools(name: &str, args: &[Value]) -> Result<Vec<bool>, String> {
    args.iter()
        .map(|a| {
            a.as_bool()
                .ok_or_else(|| format!("{name} expects Bool arguments, got {}", a.sort()))
        })
        .collect()
}

fn same_sorts(name: &str, args: &[Value]) -> Result<(), String> {
    if args.len() < 2 {
        return Err(arity(name, 2, args));
    }
    let first = args[0].sort();
    for a in &args[1..] {
        let s = a.sort();
        if s != first && !(first.is_arith() && s.is_arith()) {
            return Err(format!(
                "{name} expects arguments of one sort, got {first} and {s}"
            ));
        }
    }
    Ok(())
}

/// A number of mixed Int/Real arithmetic; an operation with any real operand is real.
#[derive(Clone, Debug)]
enum Num {
    Int(BigInt),
    Real(BigRational),
}

impl Num {
    fn real(&self) -> BigRational {
        match self {
            Num::Int(i) => BigRational::from_integer(i.clone()),
            Num::Real(r) => r.clone(),
        }
    }

    fn add(&self, other: &Num) -> Num {
        match (self, other) {
            (Num::Int(a), Num::Int(b)) => Num::Int(a + b),
            _ => Num::Real(self.real() + other.real()),
        }
    }

    fn mul(&self, other: &Num) -> Num {
        match (self, other) {
            (Num::Int(a), Num::Int(b)) => Num::Int(a * b),
            _ => Num::Real(self.real() * other.real()),
        }
    }

    fn neg(&self) -> Num {
        match self {
            Num::Int(a) => Num::Int(-a),
            Num::Real(r) => Num::Real(-r),
        }
    }

    fn into_value(self) -> Value {
        match self {
            Num::Int(i) => Value::Int(i),
            Num::Real(r) => Value::Real(r),
        }
    }
}

fn nums(name: &str, args: &[Value]) -> Result<Vec<Num>, String> {
    args.iter()
        .map(|a| match a {
            Value::Int(i) => Ok(Num::Int(i.clone())),
            Value::Real(r) => Ok(Num::Real(r.clone())),
            other => Err(format!(
                "{name} expects Int or Real arguments, got {}",
                other.sort()
            )),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(i: i64) -> Value {
        Value::int(i)
    }

    fn real(n: i64, d: i64) -> Value {
        Value::Real(BigRational::new(n.into(), d.into()))
    }

    fn ap(name: &str, args: &[Value]) -> Value {
        apply(name, &[], args).unwrap().unwrap()
    }

    #[test]
    fn euclidean_division() {
        let d = |a: i64, b: i64| divide("div", &int(a), &int(b)).unwrap().unwrap();
        let m = |a: i64, b: i64| divide("mod", &int(a), &int(b)).unwrap().unwrap();
        assert_eq!((d(7, 2), m(7, 2)), (int(3), int(1)));
        assert_eq!((d(-7, 2), m(-7, 2)), (int(-4), int(1)));
        assert_eq!((d(7, -2), m(7, -2)), (int(-3), int(1)));
        assert_eq!((d(-7, -2), m(-7, -2)), (int(4), int(1)));
        assert_eq!(divide("div", &int(1), &int(0)).unwrap(), None);
        // Z3's `rem` (as the z3 4.8.12 and 5.4.1 binaries simplify it): mod, signed as the divisor.
        let r = |a: i64, b: i64| divide("rem", &int(a), &int(b)).unwrap().unwrap();
        assert_eq!(
            (r(7, 3), r(-7, 3), r(7, -3), r(-7, -3)),
            (int(1), int(2), int(-1), int(-2))
        );
        assert_eq!(divide("rem", &int(1), &int(0)).unwrap(), None);
        assert_eq!(divide("/", &int(1), &real(0, 1)).unwrap(), None);
        assert_eq!(divide("/", &int(1), &int(3)).unwrap(), Some(real(1, 3)));
    }

    #[test]
    fn mixed_arithmetic_and_chains() {
        assert_eq!(ap("+", &[int(1), real(1, 2)]), real(3, 2));
        assert_eq!(ap("+", &[int(1), int(2), int(3)]), int(6));
        assert_eq!(ap("-", &[int(1)]), int(-1));
        assert_eq!(ap("-", &[int(10), int(3), int(2)]), int(5));
        assert_eq!(ap("*", &[real(1, 2), int(4)]), real(2, 1));
        assert_eq!(ap("<", &[int(1), real(3, 2), int(2)]), Value::Bool(true));
        assert_eq!(ap("<=", &[int(2), int(2), int(1)]), Value::Bool(false));
        assert_eq!(ap("to_int", &[real(-1, 2)]), int(-1));
        assert_eq!(ap("is_int", &[real(4, 2)]), Value::Bool(true));
        assert_eq!(ap("=", &[int(2), real(4, 2)]), Value::Bool(true));
        assert_eq!(
            ap("distinct", &[int(1), int(2), int(1)]),
            Value::Bool(false)
        );
        assert_eq!(
            ap("=>", &[Value::Bool(true), Value::Bool(false)]),
            Value::Bool(false)
        );
        assert_eq!(
            ap(
                "xor",
                &[Value::Bool(true), Value::Bool(true), Value::Bool(true)]
            ),
            Value::Bool(true)
        );
        let (t, f) = (Value::Bool(true), Value::Bool(false));
        let card =
            |name: &str, n: i32| apply(name, &[n.into()], &[t.clone(), f.clone(), t.clone()]);
        assert_eq!(card("at-most", 2).unwrap().unwrap(), t);
        assert_eq!(card("at-most", 1).unwrap().unwrap(), f);
        assert_eq!(card("at-least", 2).unwrap().unwrap(), t);
        assert_eq!(card("at-least", 3).unwrap().unwrap(), f);
        let d = apply("divisible", &[3.into()], &[int(-9)])
            .unwrap()
            .unwrap();
        assert_eq!(d, Value::Bool(true));
        assert!(apply("=", &[], &[int(1), Value::Bool(true)])
            .unwrap()
            .is_err());
        assert!(apply("nosuchop", &[], &[]).is_none());
    }
}
