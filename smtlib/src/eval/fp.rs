//! IEEE 754 floating point as SMT-LIB's `FloatingPoint` theory defines it: [`Fp`] values of
//! any format `(eb, sb)` kept as their bit pattern (one canonical NaN, so `=` is identity), and
//! [`RoundingMode`]s. Every operation computes the exact result as a rational and rounds it
//! once ([`round`]); square roots round through an exact integer square root.
//!
//! Partial operations (`fp.to_ubv`, `fp.to_sbv`, `fp.to_real` on NaN/infinity or out of
//! range, `fp.min`/`fp.max` of zeros of both signs) answer `Ok(None)`: undefined.

use super::value::{BitVec, Value};
use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::cmp::Ordering;

/// A floating-point value: `bits` is sign, exponent and significand fields, `eb + sb` wide.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Fp {
    pub eb: u32,
    pub sb: u32,
    pub bits: BigUint,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RoundingMode {
    Rne,
    Rna,
    Rtp,
    Rtn,
    Rtz,
}

impl RoundingMode {
    pub const ALL: [RoundingMode; 5] = [
        RoundingMode::Rne,
        RoundingMode::Rna,
        RoundingMode::Rtp,
        RoundingMode::Rtn,
        RoundingMode::Rtz,
    ];

    pub fn from_name(name: &str) -> Option<RoundingMode> {
        Some(match name {
            "RNE" | "roundNearestTiesToEven" => RoundingMode::Rne,
            "RNA" | "roundNearestTiesToAway" => RoundingMode::Rna,
            "RTP" | "roundTowardPositive" => RoundingMode::Rtp,
            "RTN" | "roundTowardNegative" => RoundingMode::Rtn,
            "RTZ" | "roundTowardZero" => RoundingMode::Rtz,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            RoundingMode::Rne => "RNE",
            RoundingMode::Rna => "RNA",
            RoundingMode::Rtp => "RTP",
            RoundingMode::Rtn => "RTN",
            RoundingMode::Rtz => "RTZ",
        }
    }
}

/// A decoded value.
#[derive(Clone, Debug, PartialEq)]
enum Class {
    Nan,
    Inf(bool),
    Zero(bool),
    /// Sign and magnitude (> 0).
    Finite(bool, BigRational),
}

fn pow2(e: i64) -> BigRational {
    let one = BigInt::one();
    if e >= 0 {
        BigRational::from_integer(one << e as u64)
    } else {
        BigRational::new(one.clone(), one << (-e) as u64)
    }
}

impl Fp {
    fn bias(eb: u32) -> i64 {
        (1i64 << (eb - 1)) - 1
    }

    fn emin(eb: u32) -> i64 {
        1 - Self::bias(eb)
    }

    fn from_fields(eb: u32, sb: u32, neg: bool, exponent: BigUint, significand: BigUint) -> Fp {
        let sign = if neg { BigUint::one() } else { BigUint::zero() };
        let bits = (((sign << eb) | exponent) << (sb - 1)) | significand;
        Fp { eb, sb, bits }
    }

    pub fn nan(eb: u32, sb: u32) -> Fp {
        // The one NaN: quiet bit set, positive.
        Fp::from_fields(eb, sb, false, BitVec::mask(eb), BigUint::one() << (sb - 2))
    }

    pub fn inf(eb: u32, sb: u32, neg: bool) -> Fp {
        Fp::from_fields(eb, sb, neg, BitVec::mask(eb), BigUint::zero())
    }

    pub fn zero(eb: u32, sb: u32, neg: bool) -> Fp {
        Fp::from_fields(eb, sb, neg, BigUint::zero(), BigUint::zero())
    }

    /// From a bit pattern (any NaN pattern becomes the NaN).
    pub fn from_bits(eb: u32, sb: u32, bits: BigUint) -> Fp {
        let fp = Fp { eb, sb, bits };
        if fp.class() == Class::Nan {
            Fp::nan(eb, sb)
        } else {
            fp
        }
    }

    fn fields(&self) -> (bool, BigUint, BigUint) {
        let sb1 = u64::from(self.sb - 1);
        let sign = self.bits.bit(u64::from(self.eb) + sb1);
        let exponent = (&self.bits >> sb1) & BitVec::mask(self.eb);
        let significand = &self.bits & BitVec::mask(self.sb - 1);
        (sign, exponent, significand)
    }

    fn class(&self) -> Class {
        let (neg, exponent, significand) = self.fields();
        let p1 = i64::from(self.sb - 1);
        if exponent == BitVec::mask(self.eb) {
            return if significand.is_zero() {
                Class::Inf(neg)
            } else {
                Class::Nan
            };
        }
        if exponent.is_zero() {
            if significand.is_zero() {
                return Class::Zero(neg);
            }
            let m = BigRational::from_integer(BigInt::from(significand));
            return Class::Finite(neg, m * pow2(Self::emin(self.eb) - p1));
        }
        let e = exponent.to_i64().unwrap_or(0) - Self::bias(self.eb);
        let m = BigInt::from((BigUint::one() << (self.sb - 1)) | significand);
        Class::Finite(neg, BigRational::from_integer(m) * pow2(e - p1))
    }

    /// The value as a signed rational (zeros are 0), `None` for NaN and infinities.
    pub fn to_rational(&self) -> Option<BigRational> {
        match self.class() {
            Class::Zero(_) => Some(BigRational::zero()),
            Class::Finite(neg, m) => Some(if neg { -m } else { m }),
            _ => None,
        }
    }

    pub fn is_nan(&self) -> bool {
        self.class() == Class::Nan
    }

    fn negate(&self) -> Fp {
        if self.is_nan() {
            return self.clone();
        }
        let top = BigUint::one() << (self.eb + self.sb - 1);
        Fp {
            eb: self.eb,
            sb: self.sb,
            bits: &self.bits ^ top,
        }
    }

    fn abs(&self) -> Fp {
        if self.fields().0 {
            self.negate()
        } else {
            self.clone()
        }
    }
}

/// `floor(log2(x))` for `x > 0`.
fn floor_log2(x: &BigRational) -> i64 {
    let (n, d) = (x.numer().bits() as i64, x.denom().bits() as i64);
    let e = n - d;
    if *x >= pow2(e) {
        e
    } else {
        e - 1
    }
}

/// Rounds `x >= 0` to an integer in direction `rm` for a value of sign `neg`.
fn round_integer(x: &BigRational, rm: RoundingMode, neg: bool) -> BigInt {
    let floor = x.floor().to_integer();
    let frac = x - BigRational::from_integer(floor.clone());
    if frac.is_zero() {
        return floor;
    }
    let half = BigRational::new(1.into(), 2.into());
    let up = match rm {
        RoundingMode::Rtz => false,
        RoundingMode::Rtp => !neg,
        RoundingMode::Rtn => neg,
        RoundingMode::Rna => frac >= half,
        RoundingMode::Rne => match frac.cmp(&half) {
            Ordering::Less => false,
            Ordering::Greater => true,
            Ordering::Equal => floor.is_odd(),
        },
    };
    if up {
        floor + 1
    } else {
        floor
    }
}

/// The format's value nearest to `neg * magnitude` in direction `rm` (`magnitude > 0`).
pub fn round(eb: u32, sb: u32, rm: RoundingMode, neg: bool, magnitude: &BigRational) -> Fp {
    let p1 = i64::from(sb - 1);
    let q = floor_log2(magnitude).max(Fp::emin(eb)) - p1;
    let m = round_integer(&(magnitude / pow2(q)), rm, neg);
    finish(eb, sb, rm, neg, m, q)
}

/// Encodes the rounded significand `m` at quantum `2^q`: carries into the next binade,
/// overflows to infinity or the largest finite value as `rm` says, underflows to zero.
fn finish(eb: u32, sb: u32, rm: RoundingMode, neg: bool, mut m: BigInt, mut q: i64) -> Fp {
    let p1 = i64::from(sb - 1);
    if m.is_zero() {
        return Fp::zero(eb, sb, neg);
    }
    if m.bits() as i64 > p1 + 1 {
        m >>= 1u32;
        q += 1;
    }
    let hidden = BigInt::one() << (sb - 1);
    if m < hidden {
        // Subnormal: q is the format's smallest quantum.
        return Fp::from_fields(
            eb,
            sb,
            neg,
            BigUint::zero(),
            m.to_biguint().unwrap_or_default(),
        );
    }
    let e = q + p1;
    if e > Fp::bias(eb) {
        let to_inf = match rm {
            RoundingMode::Rne | RoundingMode::Rna => true,
            RoundingMode::Rtz => false,
            RoundingMode::Rtp => !neg,
            RoundingMode::Rtn => neg,
        };
        if to_inf {
            return Fp::inf(eb, sb, neg);
        }
        let max_exponent = BitVec::mask(eb) - 1u32;
        return Fp::from_fields(eb, sb, neg, max_exponent, BitVec::mask(sb - 1));
    }
    let exponent = BigUint::from((e + Fp::bias(eb)) as u64);
    let significand = (m - hidden).to_biguint().unwrap_or_default();
    Fp::from_fields(eb, sb, neg, exponent, significand)
}

/// Rounds a signed rational; an exact zero becomes `zero_sign`'s zero.
fn round_signed(eb: u32, sb: u32, rm: RoundingMode, x: &BigRational, zero_neg: bool) -> Fp {
    if x.is_zero() {
        Fp::zero(eb, sb, zero_neg)
    } else {
        round(eb, sb, rm, x.is_negative(), &x.abs())
    }
}

/// The sign of an exact zero sum of operands that are not both zeros of one sign.
fn sum_zero_sign(rm: RoundingMode) -> bool {
    rm == RoundingMode::Rtn
}

fn add(rm: RoundingMode, x: &Fp, y: &Fp) -> Fp {
    let (eb, sb) = (x.eb, x.sb);
    match (x.class(), y.class()) {
        (Class::Nan, _) | (_, Class::Nan) => Fp::nan(eb, sb),
        (Class::Inf(a), Class::Inf(b)) if a != b => Fp::nan(eb, sb),
        (Class::Inf(a), _) | (_, Class::Inf(a)) => Fp::inf(eb, sb, a),
        (Class::Zero(a), Class::Zero(b)) if a == b => Fp::zero(eb, sb, a),
        _ => {
            let s = x.to_rational().unwrap_or_default() + y.to_rational().unwrap_or_default();
            round_signed(eb, sb, rm, &s, sum_zero_sign(rm))
        }
    }
}

fn sign_of(c: &Class) -> bool {
    match c {
        Class::Nan => false,
        Class::Inf(n) | Class::Zero(n) | Class::Finite(n, _) => *n,
    }
}

fn mul(rm: RoundingMode, x: &Fp, y: &Fp) -> Fp {
    let (eb, sb) = (x.eb, x.sb);
    let (cx, cy) = (x.class(), y.class());
    let neg = sign_of(&cx) != sign_of(&cy);
    match (&cx, &cy) {
        (Class::Nan, _) | (_, Class::Nan) => Fp::nan(eb, sb),
        (Class::Inf(_), Class::Zero(_)) | (Class::Zero(_), Class::Inf(_)) => Fp::nan(eb, sb),
        (Class::Inf(_), _) | (_, Class::Inf(_)) => Fp::inf(eb, sb, neg),
        (Class::Zero(_), _) | (_, Class::Zero(_)) => Fp::zero(eb, sb, neg),
        (Class::Finite(_, a), Class::Finite(_, b)) => round(eb, sb, rm, neg, &(a * b)),
    }
}

fn div(rm: RoundingMode, x: &Fp, y: &Fp) -> Fp {
    let (eb, sb) = (x.eb, x.sb);
    let (cx, cy) = (x.class(), y.class());
    let neg = sign_of(&cx) != sign_of(&cy);
    match (&cx, &cy) {
        (Class::Nan, _) | (_, Class::Nan) => Fp::nan(eb, sb),
        (Class::Inf(_), Class::Inf(_)) | (Class::Zero(_), Class::Zero(_)) => Fp::nan(eb, sb),
        (Class::Inf(_), _) | (_, Class::Zero(_)) => Fp::inf(eb, sb, neg),
        (_, Class::Inf(_)) | (Class::Zero(_), _) => Fp::zero(eb, sb, neg),
        (Class::Finite(_, a), Class::Finite(_, b)) => round(eb, sb, rm, neg, &(a / b)),
    }
}

fn fma(rm: RoundingMode, x: &Fp, y: &Fp, z: &Fp) -> Fp {
    let (eb, sb) = (x.eb, x.sb);
    let (cx, cy, cz) = (x.class(), y.class(), z.class());
    if [&cx, &cy, &cz].contains(&&Class::Nan) {
        return Fp::nan(eb, sb);
    }
    let product_neg = sign_of(&cx) != sign_of(&cy);
    let product_inf = matches!(cx, Class::Inf(_)) || matches!(cy, Class::Inf(_));
    let product_zero = matches!(cx, Class::Zero(_)) || matches!(cy, Class::Zero(_));
    if product_inf && product_zero {
        return Fp::nan(eb, sb);
    }
    match (product_inf, &cz) {
        (true, Class::Inf(n)) if *n != product_neg => return Fp::nan(eb, sb),
        (true, _) => return Fp::inf(eb, sb, product_neg),
        (false, Class::Inf(n)) => return Fp::inf(eb, sb, *n),
        _ => {}
    }
    if product_zero {
        if let Class::Zero(n) = cz {
            let neg = if n == product_neg {
                n
            } else {
                sum_zero_sign(rm)
            };
            return Fp::zero(eb, sb, neg);
        }
    }
    let exact = x.to_rational().unwrap_or_default() * y.to_rational().unwrap_or_default()
        + z.to_rational().unwrap_or_default();
    round_signed(eb, sb, rm, &exact, sum_zero_sign(rm))
}

fn sqrt(rm: RoundingMode, x: &Fp) -> Fp {
    let (eb, sb) = (x.eb, x.sb);
    match x.class() {
        Class::Nan | Class::Inf(true) | Class::Finite(true, _) => Fp::nan(eb, sb),
        Class::Inf(false) | Class::Zero(_) => x.clone(),
        Class::Finite(false, v) => {
            let p1 = i64::from(sb - 1);
            let q = floor_log2(&v).div_euclid(2).max(Fp::emin(eb)) - p1;
            // sqrt(v) / 2^q = sqrt(w) with w = v / 4^q; round it through the integer root.
            let w = v / pow2(2 * q);
            let k = w.floor().to_integer().sqrt();
            let k2 = BigRational::from_integer(&k * &k);
            let m = if w == k2 {
                k
            } else {
                let up = match rm {
                    RoundingMode::Rtz | RoundingMode::Rtn => false,
                    RoundingMode::Rtp => true,
                    // The midpoint k + 1/2 squared is k^2 + k + 1/4, never equal to a root
                    // of a value of the format, but compare exactly anyway.
                    RoundingMode::Rne | RoundingMode::Rna => {
                        let mid = k2
                            + BigRational::from_integer(k.clone())
                            + BigRational::new(1.into(), 4.into());
                        match w.cmp(&mid) {
                            Ordering::Less => false,
                            Ordering::Greater => true,
                            Ordering::Equal => rm == RoundingMode::Rna || k.is_odd(),
                        }
                    }
                };
                if up {
                    k + 1
                } else {
                    k
                }
            };
            finish(eb, sb, rm, false, m, q)
        }
    }
}

fn rem(x: &Fp, y: &Fp) -> Fp {
    let (eb, sb) = (x.eb, x.sb);
    match (x.class(), y.class()) {
        (Class::Nan, _) | (_, Class::Nan) | (Class::Inf(_), _) | (_, Class::Zero(_)) => {
            Fp::nan(eb, sb)
        }
        (_, Class::Inf(_)) | (Class::Zero(_), _) => x.clone(),
        (Class::Finite(xn, _), Class::Finite(..)) => {
            let (a, b) = (
                x.to_rational().unwrap_or_default(),
                y.to_rational().unwrap_or_default(),
            );
            let quotient = &a / &b;
            let n = round_integer(&quotient.abs(), RoundingMode::Rne, quotient.is_negative());
            let n = if quotient.is_negative() { -n } else { n };
            let r = a - b * BigRational::from_integer(n);
            round_signed(eb, sb, RoundingMode::Rne, &r, xn)
        }
    }
}

fn round_to_integral(rm: RoundingMode, x: &Fp) -> Fp {
    match x.class() {
        Class::Finite(neg, v) => {
            let n = round_integer(&v, rm, neg);
            if n.is_zero() {
                Fp::zero(x.eb, x.sb, neg)
            } else {
                round(x.eb, x.sb, rm, neg, &BigRational::from_integer(n))
            }
        }
        _ => x.clone(),
    }
}

/// IEEE comparison: `None` when either is NaN (every comparison is then false).
fn compare(x: &Fp, y: &Fp) -> Option<Ordering> {
    let value = |f: &Fp| match f.class() {
        Class::Nan => None,
        Class::Inf(n) => Some((if n { -1 } else { 1 }, BigRational::zero())),
        _ => Some((0, f.to_rational().unwrap_or_default())),
    };
    Some(value(x)?.cmp(&value(y)?))
}

/// `fp.min`/`fp.max`; `None` for zeros of both signs (unspecified).
fn min_max(is_max: bool, x: &Fp, y: &Fp) -> Option<Fp> {
    if x.is_nan() {
        return Some(y.clone());
    }
    if y.is_nan() {
        return Some(x.clone());
    }
    if let (Class::Zero(a), Class::Zero(b)) = (x.class(), y.class()) {
        return (a == b).then(|| x.clone());
    }
    let x_first = match compare(x, y)? {
        Ordering::Less => !is_max,
        Ordering::Greater => is_max,
        Ordering::Equal => true,
    };
    Some(if x_first { x.clone() } else { y.clone() })
}

/// The value of a rounding-mode constant.
pub(crate) fn constant(name: &str) -> Option<Value> {
    RoundingMode::from_name(name).map(Value::RoundingMode)
}

/// `(_ +oo e s)`, `(_ -oo e s)`, `(_ +zero e s)`, `(_ -zero e s)`, `(_ NaN e s)`.
pub(crate) fn indexed_constant(name: &str, idx: &[BigInt]) -> Option<Result<Value, String>> {
    if !matches!(name, "+oo" | "-oo" | "+zero" | "-zero" | "NaN") {
        return None;
    }
    let Some((eb, sb)) = format(idx) else {
        return Some(Err(format!("(_ {name} eb sb) needs eb > 1 and sb > 1")));
    };
    Some(Ok(Value::Fp(match name {
        "+oo" => Fp::inf(eb, sb, false),
        "-oo" => Fp::inf(eb, sb, true),
        "+zero" => Fp::zero(eb, sb, false),
        "-zero" => Fp::zero(eb, sb, true),
        _ => Fp::nan(eb, sb),
    })))
}

fn format(idx: &[BigInt]) -> Option<(u32, u32)> {
    match idx {
        [e, s] => {
            let (e, s) = (e.to_u32()?, s.to_u32()?);
            (e > 1 && s > 1 && e < 31).then_some((e, s))
        }
        _ => None,
    }
}

/// A floating-point operation by name: `None` if `name` is not one; `Ok(None)` where a
/// partial operation is undefined.
pub(crate) fn apply(
    name: &str,
    idx: &[BigInt],
    args: &[Value],
) -> Option<Result<Option<Value>, String>> {
    let known = matches!(name, "fp" | "to_fp" | "to_fp_unsigned") || name.starts_with("fp.");
    if !known {
        return None;
    }
    Some(apply_known(name, idx, args))
}

fn fps<'a>(name: &str, args: &'a [Value]) -> Result<Vec<&'a Fp>, String> {
    let fps: Vec<&Fp> = args
        .iter()
        .map(|a| match a {
            Value::Fp(f) => Ok(f),
            other => Err(format!(
                "{name} expects floating-point arguments, got {}",
                other.sort()
            )),
        })
        .collect::<Result<_, _>>()?;
    if let Some(first) = fps.first() {
        if fps.iter().any(|f| (f.eb, f.sb) != (first.eb, first.sb)) {
            return Err(format!(
                "{name} expects arguments of one floating-point format"
            ));
        }
    }
    Ok(fps)
}

fn fp_value(f: Fp) -> Result<Option<Value>, String> {
    Ok(Some(Value::Fp(f)))
}

fn apply_known(name: &str, idx: &[BigInt], args: &[Value]) -> Result<Option<Value>, String> {
    let arity_error = || {
        format!(
            "{name} applied to {} arguments of the wrong sorts",
            args.len()
        )
    };
    // Operations that take a rounding mode first.
    if let Some((Value::RoundingMode(rm), rest)) = args.split_first() {
        let rm = *rm;
        match (name, rest) {
            ("to_fp" | "to_fp_unsigned", [x]) => {
                let (eb, sb) = format(idx).ok_or_else(arity_error)?;
                let exact = match x {
                    Value::Real(r) => Some(r.clone()),
                    Value::Int(i) => Some(BigRational::from_integer(i.clone())),
                    Value::BitVec(b) if name == "to_fp_unsigned" => {
                        Some(BigRational::from_integer(b.unsigned()))
                    }
                    Value::BitVec(b) => Some(BigRational::from_integer(b.signed())),
                    Value::Fp(f) => match f.class() {
                        Class::Nan => return fp_value(Fp::nan(eb, sb)),
                        Class::Inf(n) => return fp_value(Fp::inf(eb, sb, n)),
                        Class::Zero(n) => return fp_value(Fp::zero(eb, sb, n)),
                        Class::Finite(n, v) => return fp_value(round(eb, sb, rm, n, &v)),
                    },
                    _ => None,
                };
                let exact = exact.ok_or_else(arity_error)?;
                return fp_value(round_signed(eb, sb, rm, &exact, false));
            }
            ("fp.to_ubv" | "fp.to_sbv", [Value::Fp(f)]) => {
                let width = match idx {
                    [w] => w.to_u32().filter(|w| *w > 0).ok_or_else(arity_error)?,
                    _ => return Err(arity_error()),
                };
                let Class::Finite(neg, v) = f.class() else {
                    return Ok(match f.class() {
                        Class::Zero(_) => Some(Value::BitVec(BitVec::zero(width))),
                        _ => None,
                    });
                };
                let n = round_integer(&v, rm, neg);
                let n = if neg { -n } else { n };
                let (lo, hi) = if name == "fp.to_ubv" {
                    (BigInt::zero(), BigInt::one() << width)
                } else {
                    let half = BigInt::one() << (width - 1);
                    (-half.clone(), half)
                };
                return Ok((n >= lo && n < hi).then(|| Value::BitVec(BitVec::from_int(width, &n))));
            }
            _ => {}
        }
        let xs = fps(name, rest)?;
        let result = match (name, xs.as_slice()) {
            ("fp.add", [x, y]) => add(rm, x, y),
            ("fp.sub", [x, y]) => add(rm, x, &y.negate()),
            ("fp.mul", [x, y]) => mul(rm, x, y),
            ("fp.div", [x, y]) => div(rm, x, y),
            ("fp.fma", [x, y, z]) => fma(rm, x, y, z),
            ("fp.sqrt", [x]) => sqrt(rm, x),
            ("fp.roundToIntegral", [x]) => round_to_integral(rm, x),
            _ => return Err(arity_error()),
        };
        return fp_value(result);
    }
    match (name, args) {
        ("fp", [Value::BitVec(s), Value::BitVec(e), Value::BitVec(m)])
            if s.width == 1 && e.width > 1 =>
        {
            let bits = (((s.bits.clone() << e.width) | &e.bits) << m.width) | &m.bits;
            return fp_value(Fp::from_bits(e.width, m.width + 1, bits));
        }
        ("to_fp", [Value::BitVec(b)]) => {
            let (eb, sb) = format(idx).ok_or_else(arity_error)?;
            if b.width != eb + sb {
                return Err(format!("(_ to_fp {eb} {sb}) of a (_ BitVec {})", b.width));
            }
            return fp_value(Fp::from_bits(eb, sb, b.bits.clone()));
        }
        _ => {}
    }
    let xs = fps(name, args)?;
    let boolean = |b: bool| Ok(Some(Value::Bool(b)));
    let chain = |pred: fn(Ordering) -> bool| {
        if xs.len() < 2 {
            return Err(arity_error());
        }
        boolean(xs.windows(2).all(|w| compare(w[0], w[1]).is_some_and(pred)))
    };
    match (name, xs.as_slice()) {
        ("fp.abs", [x]) => fp_value(x.abs()),
        ("fp.neg", [x]) => fp_value(x.negate()),
        ("fp.rem", [x, y]) => fp_value(rem(x, y)),
        ("fp.min", [x, y]) => Ok(min_max(false, x, y).map(Value::Fp)),
        ("fp.max", [x, y]) => Ok(min_max(true, x, y).map(Value::Fp)),
        ("fp.leq", _) => chain(|o| o != Ordering::Greater),
        ("fp.lt", _) => chain(|o| o == Ordering::Less),
        ("fp.geq", _) => chain(|o| o != Ordering::Less),
        ("fp.gt", _) => chain(|o| o == Ordering::Greater),
        ("fp.eq", _) => chain(|o| o == Ordering::Equal),
        ("fp.isNaN", [x]) => boolean(x.is_nan()),
        ("fp.isInfinite", [x]) => boolean(matches!(x.class(), Class::Inf(_))),
        ("fp.isZero", [x]) => boolean(matches!(x.class(), Class::Zero(_))),
        ("fp.isNormal", [x]) => {
            let (_, exponent, _) = x.fields();
            boolean(matches!(x.class(), Class::Finite(..)) && !exponent.is_zero())
        }
        ("fp.isSubnormal", [x]) => {
            let (_, exponent, _) = x.fields();
            boolean(matches!(x.class(), Class::Finite(..)) && exponent.is_zero())
        }
        ("fp.isNegative", [x]) => boolean(!x.is_nan() && x.fields().0),
        ("fp.isPositive", [x]) => boolean(!x.is_nan() && !x.fields().0),
        ("fp.to_real", [x]) => Ok(x.to_rational().map(Value::Real)),
        // Z3's IEEE encoding; NaN has many, and Z3 leaves it unspecified which (open here).
        ("fp.to_ieee_bv", [x]) => {
            Ok((!x.is_nan()).then(|| Value::BitVec(BitVec::new(x.eb + x.sb, x.bits.clone()))))
        }
        _ => Err(arity_error()),
    }
}

impl std::fmt::Display for Fp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (eb, sb) = (self.eb, self.sb);
        match self.class() {
            Class::Nan => write!(f, "(_ NaN {eb} {sb})"),
            Class::Inf(n) => write!(f, "(_ {}oo {eb} {sb})", if n { '-' } else { '+' }),
            Class::Zero(n) => write!(f, "(_ {}zero {eb} {sb})", if n { '-' } else { '+' }),
            Class::Finite(..) => {
                let (neg, exponent, significand) = self.fields();
                let bin = |v: &BigUint, w: u32| {
                    let s = v.to_str_radix(2);
                    format!("#b{}{s}", "0".repeat((w as usize).saturating_sub(s.len())))
                };
                write!(
                    f,
                    "(fp #b{} {} {})",
                    u8::from(neg),
                    bin(&exponent, eb),
                    bin(&significand, sb - 1)
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32(x: f32) -> Fp {
        Fp::from_bits(8, 24, BigUint::from(x.to_bits()))
    }

    fn back(f: &Fp) -> f32 {
        f32::from_bits(f.bits.to_u32().unwrap())
    }

    #[test]
    fn agrees_with_hardware_single_precision() {
        let samples = [
            0.0f32,
            -0.0,
            1.0,
            -1.5,
            3.25,
            1e-40,
            -2.5e-39,
            1e38,
            3.4e38,
            0.1,
            7.0,
            f32::MIN_POSITIVE,
        ];
        let rne = RoundingMode::Rne;
        for &a in &samples {
            for &b in &samples {
                let (x, y) = (f32(a), f32(b));
                let cases = [
                    (add(rne, &x, &y), a + b),
                    (add(rne, &x, &y.negate()), a - b),
                    (mul(rne, &x, &y), a * b),
                    (div(rne, &x, &y), a / b),
                    (fma(rne, &x, &y, &f32(0.5)), a.mul_add(b, 0.5)),
                ];
                for (ours, hw) in cases {
                    assert!(
                        (hw.is_nan() && ours.is_nan()) || back(&ours).to_bits() == hw.to_bits(),
                        "{a} {b}: ours {} hw {hw}",
                        back(&ours)
                    );
                }
            }
            let s = sqrt(rne, &f32(a));
            assert!(
                (a.sqrt().is_nan() && s.is_nan()) || back(&s).to_bits() == a.sqrt().to_bits(),
                "sqrt {a}"
            );
        }
    }

    #[test]
    fn rounding_modes_and_specials() {
        let third = BigRational::new(1.into(), 3.into());
        let down = round(8, 24, RoundingMode::Rtz, false, &third);
        let up = round(8, 24, RoundingMode::Rtp, false, &third);
        assert_eq!(back(&down).to_bits() + 1, back(&up).to_bits());
        let huge = BigRational::from_integer(BigInt::one() << 200);
        assert_eq!(
            back(&round(8, 24, RoundingMode::Rne, false, &huge)),
            f32::INFINITY
        );
        assert_eq!(
            back(&round(8, 24, RoundingMode::Rtz, false, &huge)),
            f32::MAX
        );
        assert_eq!(
            back(&round(8, 24, RoundingMode::Rtn, true, &huge)),
            f32::NEG_INFINITY
        );
        // 2.5 to integral: RNE gives 2, RNA gives 3.
        assert_eq!(back(&round_to_integral(RoundingMode::Rne, &f32(2.5))), 2.0);
        assert_eq!(back(&round_to_integral(RoundingMode::Rna, &f32(2.5))), 3.0);
        // x - x is +0, except -0 when rounding toward negative.
        assert_eq!(
            add(RoundingMode::Rtn, &f32(1.0), &f32(-1.0)),
            Fp::zero(8, 24, true)
        );
        assert_eq!(
            add(RoundingMode::Rne, &f32(1.0), &f32(-1.0)),
            Fp::zero(8, 24, false)
        );
        assert_eq!(back(&rem(&f32(5.0), &f32(3.0))), -1.0);
        assert_eq!(min_max(false, &f32(0.0), &f32(-0.0)), None);
        assert_eq!(f32(f32::NAN), Fp::nan(8, 24));
        assert_eq!(Fp::nan(8, 24).to_string(), "(_ NaN 8 24)");
        assert_eq!(
            f32(1.0).to_string(),
            "(fp #b0 #b01111111 #b00000000000000000000000)"
        );
    }
}
