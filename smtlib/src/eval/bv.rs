//! The bit-vector operations of SMT-LIB 2.6 (`FixedSizeBitVectors`, `QF_BV` extensions) and
//! Z3's extras (`bv2int`, `int2bv`, `ext_rotate_*`, overflow predicates) on [`BitVec`] values.
//!
//! All of them are total: division by zero and shifts by at least the width follow the
//! standard's definitions (see the tests for each corner case).

use super::value::{BitVec, Value};

/// The widest bit-vector value the evaluator builds (2^24 bits, 2 MiB): a wider result of
/// `concat`, `repeat`, `zero_extend`, `sign_extend` or `int2bv` is a "too large" error, never
/// a wrapped width (a width of 2^32 once wrapped to a small one and judged a model valid).
pub const MAX_WIDTH: u64 = 1 << 24;

/// `width` as a value width, or why it is too wide.
fn checked_width(name: &str, width: u64) -> Result<u32, String> {
    if width <= MAX_WIDTH {
        Ok(width as u32)
    } else {
        Err(format!(
            "{name} would build a bit-vector of {width} bits, more than the limit of {MAX_WIDTH}"
        ))
    }
}
use num_bigint::{BigInt, BigUint};
use num_traits::{ToPrimitive, Zero};

/// The result of applying a bit-vector operation by name: `None` if `name` is not one.
pub(crate) fn apply(name: &str, idx: &[BigInt], args: &[Value]) -> Option<Result<Value, String>> {
    let result = match name {
        "concat" => fold_left(name, args, |a, b| {
            let w = checked_width(name, u64::from(a.width) + u64::from(b.width))?;
            Ok(BitVec::new(w, (&a.bits << b.width) | &b.bits))
        }),
        "bvand" | "bvor" | "bvxor" | "bvadd" | "bvmul" => {
            fold_left(name, args, |a, b| Ok(binary(name, a, b)))
        }
        "bvnot" | "bvneg" => one(name, args).map(|a| Value::BitVec(unary(name, a))),
        // Z3's reductions: the 1-bit and (or) of every bit.
        "bvredand" => one(name, args)
            .map(|a| Value::BitVec(BitVec::from_u64(1, u64::from(*a == BitVec::ones(a.width))))),
        "bvredor" => {
            one(name, args).map(|a| Value::BitVec(BitVec::from_u64(1, u64::from(!a.is_zero()))))
        }
        "bvnand" | "bvnor" | "bvxnor" | "bvsub" | "bvudiv" | "bvurem" | "bvsdiv" | "bvsrem"
        | "bvsmod" | "bvshl" | "bvlshr" | "bvashr" | "bvcomp" | "ext_rotate_left"
        | "ext_rotate_right" => two(name, args).map(|(a, b)| Value::BitVec(binary(name, a, b))),
        "bvult" | "bvule" | "bvugt" | "bvuge" | "bvslt" | "bvsle" | "bvsgt" | "bvsge" => {
            two(name, args).map(|(a, b)| Value::Bool(compare(name, a, b)))
        }
        "bvnego" | "bvuaddo" | "bvsaddo" | "bvumulo" | "bvsmulo" | "bvusubo" | "bvssubo"
        | "bvsdivo" | "bvumul_noovfl" | "bvsmul_noovfl" | "bvsmul_noudfl" => {
            overflow(name, args).map(Value::Bool)
        }
        "bv2nat" | "bv2int" | "ubv_to_int" => one(name, args).map(|a| Value::Int(a.unsigned())),
        "sbv_to_int" => one(name, args).map(|a| Value::Int(a.signed())),
        // Z3's decimal texts of a bit-vector's unsigned and signed values.
        "str.from_ubv" => one(name, args).map(|a| decimal(&a.unsigned())),
        "str.from_sbv" => one(name, args).map(|a| decimal(&a.signed())),
        "extract" | "repeat" | "zero_extend" | "sign_extend" | "rotate_left" | "rotate_right" => {
            indexed(name, idx, args)
        }
        "int2bv" | "nat2bv" | "int_to_bv" => int_to_bv(name, idx, args),
        "bit2bool" => one(name, args).and_then(|a| {
            let i = index(name, idx, 1)?[0];
            if i < a.width {
                Ok(Value::Bool(a.bits.bit(u64::from(i))))
            } else {
                Err(format!(
                    "(_ bit2bool {i}) needs an index below the width {}",
                    a.width
                ))
            }
        }),
        _ => return None,
    };
    Some(result)
}

fn bv<'a>(name: &str, v: &'a Value) -> Result<&'a BitVec, String> {
    match v {
        Value::BitVec(b) => Ok(b),
        other => Err(format!("{name} expects bit-vectors, got {}", other.sort())),
    }
}

/// A number's decimal text as a String value (a minus sign before a negative one).
fn decimal(n: &num_bigint::BigInt) -> Value {
    Value::String(n.to_string().chars().map(u32::from).collect())
}

fn one<'a>(name: &str, args: &'a [Value]) -> Result<&'a BitVec, String> {
    match args {
        [a] => bv(name, a),
        _ => Err(format!("{name} expects 1 argument, got {}", args.len())),
    }
}

fn two<'a>(name: &str, args: &'a [Value]) -> Result<(&'a BitVec, &'a BitVec), String> {
    match args {
        [a, b] => {
            let (a, b) = (bv(name, a)?, bv(name, b)?);
            if a.width != b.width && !matches!(name, "concat") {
                return Err(format!(
                    "{name} expects bit-vectors of equal width, got (_ BitVec {}) and (_ BitVec {})",
                    a.width, b.width
                ));
            }
            Ok((a, b))
        }
        _ => Err(format!("{name} expects 2 arguments, got {}", args.len())),
    }
}

fn fold_left(
    name: &str,
    args: &[Value],
    f: impl Fn(&BitVec, &BitVec) -> Result<BitVec, String>,
) -> Result<Value, String> {
    if args.len() < 2 {
        return Err(format!(
            "{name} expects at least 2 arguments, got {}",
            args.len()
        ));
    }
    let mut acc = bv(name, &args[0])?.clone();
    for arg in &args[1..] {
        let (a, b) =
            two(name, &[Value::BitVec(acc), arg.clone()]).map(|(a, b)| (a.clone(), b.clone()))?;
        acc = f(&a, &b)?;
    }
    Ok(Value::BitVec(acc))
}

fn unary(name: &str, a: &BitVec) -> BitVec {
    match name {
        "bvnot" => not(a),
        _ => neg(a),
    }
}

fn not(a: &BitVec) -> BitVec {
    BitVec::new(a.width, &a.bits ^ BitVec::mask(a.width))
}

fn neg(a: &BitVec) -> BitVec {
    BitVec::from_int(a.width, &-a.unsigned())
}

fn udiv(a: &BitVec, b: &BitVec) -> BitVec {
    if b.is_zero() {
        BitVec::ones(a.width)
    } else {
        BitVec::new(a.width, &a.bits / &b.bits)
    }
}

fn urem(a: &BitVec, b: &BitVec) -> BitVec {
    if b.is_zero() {
        a.clone()
    } else {
        BitVec::new(a.width, &a.bits % &b.bits)
    }
}

/// The shift distance if it is below the width, else `None` (everything shifted out).
fn shift_amount(b: &BitVec, width: u32) -> Option<u32> {
    b.bits.to_u32().filter(|&s| s < width)
}

fn binary(name: &str, a: &BitVec, b: &BitVec) -> BitVec {
    let w = a.width;
    match name {
        "bvand" => BitVec::new(w, &a.bits & &b.bits),
        "bvor" => BitVec::new(w, &a.bits | &b.bits),
        "bvxor" => BitVec::new(w, &a.bits ^ &b.bits),
        "bvnand" => not(&BitVec::new(w, &a.bits & &b.bits)),
        "bvnor" => not(&BitVec::new(w, &a.bits | &b.bits)),
        "bvxnor" => not(&BitVec::new(w, &a.bits ^ &b.bits)),
        "bvadd" => BitVec::new(w, &a.bits + &b.bits),
        "bvmul" => BitVec::new(w, &a.bits * &b.bits),
        "bvsub" => BitVec::from_int(w, &(a.unsigned() - b.unsigned())),
        "bvudiv" => udiv(a, b),
        "bvurem" => urem(a, b),
        // The standard defines the signed operations through the unsigned ones on magnitudes.
        "bvsdiv" => match (a.msb(), b.msb()) {
            (false, false) => udiv(a, b),
            (true, false) => neg(&udiv(&neg(a), b)),
            (false, true) => neg(&udiv(a, &neg(b))),
            (true, true) => udiv(&neg(a), &neg(b)),
        },
        "bvsrem" => match (a.msb(), b.msb()) {
            (false, false) => urem(a, b),
            (true, false) => neg(&urem(&neg(a), b)),
            (false, true) => urem(a, &neg(b)),
            (true, true) => neg(&urem(&neg(a), &neg(b))),
        },
        "bvsmod" => {
            let abs_a = if a.msb() { neg(a) } else { a.clone() };
            let abs_b = if b.msb() { neg(b) } else { b.clone() };
            let u = urem(&abs_a, &abs_b);
            if u.is_zero() {
                u
            } else {
                match (a.msb(), b.msb()) {
                    (false, false) => u,
                    (true, false) => BitVec::from_int(w, &(b.unsigned() - u.unsigned())),
                    (false, true) => BitVec::new(w, &u.bits + &b.bits),
                    (true, true) => neg(&u),
                }
            }
        }
        "bvshl" => match shift_amount(b, w) {
            Some(s) => BitVec::new(w, &a.bits << s),
            None => BitVec::zero(w),
        },
        "bvlshr" => match shift_amount(b, w) {
            Some(s) => BitVec::new(w, &a.bits >> s),
            None => BitVec::zero(w),
        },
        "bvashr" => match shift_amount(b, w) {
            Some(s) => BitVec::from_int(w, &(a.signed() >> s)),
            None if a.msb() => BitVec::ones(w),
            None => BitVec::zero(w),
        },
        "bvcomp" => BitVec::from_u64(1, u64::from(a == b)),
        "ext_rotate_left" => rotate_left(a, (&b.bits % w).to_u32().unwrap_or(0)),
        "ext_rotate_right" => rotate_left(a, w - (&b.bits % w).to_u32().unwrap_or(0)),
        _ => unreachable!("binary bit-vector operation {name} is dispatched above"),
    }
}

fn rotate_left(a: &BitVec, by: u32) -> BitVec {
    let w = a.width;
    let by = by % w;
    if by == 0 {
        return a.clone();
    }
    BitVec::new(w, (&a.bits << by) | (&a.bits >> (w - by)))
}

fn compare(name: &str, a: &BitVec, b: &BitVec) -> bool {
    match name {
        "bvult" => a.bits < b.bits,
        "bvule" => a.bits <= b.bits,
        "bvugt" => a.bits > b.bits,
        "bvuge" => a.bits >= b.bits,
        "bvslt" => a.signed() < b.signed(),
        "bvsle" => a.signed() <= b.signed(),
        "bvsgt" => a.signed() > b.signed(),
        _ => a.signed() >= b.signed(),
    }
}

/// Overflow predicates: true when the exact result does not fit (Z3's `no*` forms: when it does).
fn overflow(name: &str, args: &[Value]) -> Result<bool, String> {
    if name == "bvnego" {
        let a = one(name, args)?;
        return Ok(a.msb() && (&a.bits & (BitVec::mask(a.width) >> 1u32)).is_zero());
    }
    let (a, b) = two(name, args)?;
    let w = a.width;
    let fits_unsigned = |v: BigInt| v >= BigInt::zero() && v < (BigInt::from(1) << w);
    let fits_signed = |v: &BigInt| {
        let half = BigInt::from(1) << (w - 1);
        *v >= -half.clone() && *v < half
    };
    Ok(match name {
        "bvuaddo" => !fits_unsigned(a.unsigned() + b.unsigned()),
        "bvumulo" => !fits_unsigned(a.unsigned() * b.unsigned()),
        "bvusubo" => a.bits < b.bits,
        "bvsaddo" => !fits_signed(&(a.signed() + b.signed())),
        "bvssubo" => !fits_signed(&(a.signed() - b.signed())),
        "bvsmulo" => !fits_signed(&(a.signed() * b.signed())),
        "bvsdivo" => a.msb() && neg(a) == *a && b.bits == BitVec::mask(w),
        "bvumul_noovfl" => fits_unsigned(a.unsigned() * b.unsigned()),
        "bvsmul_noovfl" => a.signed() * b.signed() < (BigInt::from(1) << (w - 1)),
        _ => a.signed() * b.signed() >= -(BigInt::from(1) << (w - 1)),
    })
}

fn index(name: &str, idx: &[BigInt], n: usize) -> Result<Vec<u32>, String> {
    if idx.len() != n {
        return Err(format!(
            "(_ {name} ...) expects {n} indices, got {}",
            idx.len()
        ));
    }
    idx.iter()
        .map(|i| {
            i.to_u32()
                .ok_or_else(|| format!("index {i} of {name} is out of range"))
        })
        .collect()
}

fn indexed(name: &str, idx: &[BigInt], args: &[Value]) -> Result<Value, String> {
    let a = one(name, args)?;
    let w = a.width;
    let out = match name {
        "extract" => {
            let ij = index(name, idx, 2)?;
            let (i, j) = (ij[0], ij[1]);
            if i < j || i >= w {
                return Err(format!(
                    "(_ extract {i} {j}) needs {w} > {i} >= {j}, applied to (_ BitVec {w})"
                ));
            }
            BitVec::new(i - j + 1, &a.bits >> j)
        }
        "repeat" => {
            let n = index(name, idx, 1)?[0];
            if n == 0 {
                return Err("(_ repeat 0) is not allowed".into());
            }
            let width = checked_width(name, u64::from(w) * u64::from(n))?;
            // Doubling: log(n) shifts of growing blocks instead of n shifts of the whole.
            let (mut bits, mut block, mut block_width, mut left) =
                (BigUint::zero(), a.bits.clone(), u64::from(w), n);
            while left > 0 {
                if left & 1 == 1 {
                    bits = (bits << block_width) | &block;
                }
                left >>= 1;
                if left > 0 {
                    block = (&block << block_width) | &block;
                    block_width *= 2;
                }
            }
            BitVec::new(width, bits)
        }
        "zero_extend" => {
            let width = checked_width(name, u64::from(w) + u64::from(index(name, idx, 1)?[0]))?;
            BitVec::new(width, a.bits.clone())
        }
        "sign_extend" => {
            let n = index(name, idx, 1)?[0];
            BitVec::from_int(
                checked_width(name, u64::from(w) + u64::from(n))?,
                &a.signed(),
            )
        }
        "rotate_left" => rotate_left(a, index(name, idx, 1)?[0] % w),
        _ => rotate_left(a, w - index(name, idx, 1)?[0] % w),
    };
    Ok(Value::BitVec(out))
}

fn int_to_bv(name: &str, idx: &[BigInt], args: &[Value]) -> Result<Value, String> {
    let w = index(name, idx, 1)?[0];
    if w == 0 {
        return Err(format!("(_ {name} 0) is not allowed"));
    }
    checked_width(name, u64::from(w))?;
    match args {
        [Value::Int(i)] => Ok(Value::BitVec(BitVec::from_int(w, i))),
        _ => Err(format!("(_ {name} {w}) expects one Int argument")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(w: u32, v: u64) -> Value {
        Value::bv(w, v)
    }

    fn ap(name: &str, args: &[Value]) -> Value {
        apply(name, &[], args).unwrap().unwrap()
    }

    #[test]
    fn division_by_zero_is_total() {
        assert_eq!(ap("bvudiv", &[b(8, 7), b(8, 0)]), b(8, 0xff));
        assert_eq!(ap("bvurem", &[b(8, 7), b(8, 0)]), b(8, 7));
        // bvsdiv by zero: -1 for a non-negative dividend, 1 for a negative one.
        assert_eq!(ap("bvsdiv", &[b(8, 7), b(8, 0)]), b(8, 0xff));
        assert_eq!(ap("bvsdiv", &[b(8, 0xf9), b(8, 0)]), b(8, 1));
        assert_eq!(ap("bvsrem", &[b(8, 0xf9), b(8, 0)]), b(8, 0xf9));
        assert_eq!(ap("bvsmod", &[b(8, 0xf9), b(8, 0)]), b(8, 0xf9));
        assert_eq!(ap("bvsmod", &[b(8, 7), b(8, 0)]), b(8, 7));
    }

    #[test]
    fn signed_division_rounds_toward_zero_and_smod_takes_divisor_sign() {
        // -7 / 2 = -3, -7 rem 2 = -1, -7 smod 2 = 1, 7 smod -2 = -1
        assert_eq!(ap("bvsdiv", &[b(8, 0xf9), b(8, 2)]), b(8, 0xfd));
        assert_eq!(ap("bvsrem", &[b(8, 0xf9), b(8, 2)]), b(8, 0xff));
        assert_eq!(ap("bvsmod", &[b(8, 0xf9), b(8, 2)]), b(8, 1));
        assert_eq!(ap("bvsmod", &[b(8, 7), b(8, 0xfe)]), b(8, 0xff));
        // The one signed overflow: -128 / -1 = -128.
        assert_eq!(ap("bvsdiv", &[b(8, 0x80), b(8, 0xff)]), b(8, 0x80));
        assert_eq!(ap("bvsdivo", &[b(8, 0x80), b(8, 0xff)]), Value::Bool(true));
    }

    #[test]
    fn shifts_by_width_or_more() {
        assert_eq!(ap("bvshl", &[b(8, 0xff), b(8, 8)]), b(8, 0));
        assert_eq!(ap("bvlshr", &[b(8, 0xff), b(8, 200)]), b(8, 0));
        assert_eq!(ap("bvashr", &[b(8, 0x80), b(8, 9)]), b(8, 0xff));
        assert_eq!(ap("bvashr", &[b(8, 0x70), b(8, 9)]), b(8, 0));
        assert_eq!(ap("bvashr", &[b(8, 0x80), b(8, 3)]), b(8, 0xf0));
        assert_eq!(ap("bvshl", &[b(4, 3), b(4, 2)]), b(4, 0xc));
    }

    #[test]
    fn structure_and_overflow() {
        assert_eq!(ap("concat", &[b(4, 0xa), b(3, 1)]), b(7, 0x51));
        let e = apply("extract", &[7.into(), 4.into()], &[b(8, 0xab)]).unwrap();
        assert_eq!(e.unwrap(), b(4, 0xa));
        let s = apply("sign_extend", &[4.into()], &[b(4, 0x9)]).unwrap();
        assert_eq!(s.unwrap(), b(8, 0xf9));
        let r = apply("rotate_left", &[9.into()], &[b(8, 0x81)]).unwrap();
        assert_eq!(r.unwrap(), b(8, 0x03));
        let r = apply("rotate_right", &[1.into()], &[b(8, 0x81)]).unwrap();
        assert_eq!(r.unwrap(), b(8, 0xc0));
        assert_eq!(ap("bvadd", &[b(8, 0xff), b(8, 2)]), b(8, 1));
        assert_eq!(ap("bvsaddo", &[b(8, 0x7f), b(8, 1)]), Value::Bool(true));
        assert_eq!(ap("bvuaddo", &[b(8, 0x7f), b(8, 1)]), Value::Bool(false));
        assert_eq!(ap("bvslt", &[b(8, 0x80), b(8, 0x7f)]), Value::Bool(true));
        assert_eq!(ap("bvult", &[b(8, 0x80), b(8, 0x7f)]), Value::Bool(false));
        assert_eq!(ap("bvnego", &[b(8, 0x80)]), Value::Bool(true));
        assert_eq!(ap("bv2nat", &[b(8, 0x80)]), Value::int(128));
        let text = |t: &str| Value::String(t.chars().map(u32::from).collect());
        assert_eq!(ap("str.from_ubv", &[b(8, 0xff)]), text("255"));
        assert_eq!(ap("str.from_sbv", &[b(8, 0xff)]), text("-1"));
        assert_eq!(ap("str.from_sbv", &[b(4, 0x7)]), text("7"));
        let n = apply("int2bv", &[4.into()], &[Value::int(-1)]).unwrap();
        assert_eq!(n.unwrap(), b(4, 0xf));
        assert!(apply("bvadd", &[], &[b(8, 1), b(4, 1)]).unwrap().is_err());
    }
}
