//! The numeral differential behind `check_literal`: one value, built through every numeral
//! constructor of Z3's C API that can express it exactly, must give one term. `lit` builds a
//! value from its text (`Z3_mk_numeral`, or `Z3_mk_fpa_numeral_double` and the special values
//! for floating point); [`alternatives`] builds the same value from machine integers of each
//! width and signedness, from numerator and denominator, from a decimal string, from bits,
//! from a float, from IEEE components (as bit-vectors, as machine integers, as one bit-vector
//! of IEEE bits, as an Int exponent and a Real significand), and a String from its bytes
//! (`Z3_mk_lstring`, read back by [`lstring_reads`]). Each constructor has its own code path in
//! Z3 (and its own conversions in the bindings), and each is where a wrong numeral would come
//! from.
//!
//! Only exact constructions are offered: a constructor that would round (a double for a
//! Real, a float for a value that is no float) is left out, so a difference is a bug.

use super::guard;
use model::Sort;
use num_bigint::{BigInt, BigUint, Sign};
use num_traits::{One, ToPrimitive, Zero};
use std::ffi::CString;
use z3::ast::{Ast, Dynamic, BV};
use z3::Context;

/// One alternative construction: the constructor's name and the term it built.
pub struct Alternative {
    pub via: &'static str,
    pub term: Dynamic,
}

/// Every exact alternative construction of `value` (a `lit` text of `sort`); `z3_sort` is the
/// Z3 form of `sort`. `perturb` (the injected `wrong-numeral` fault) builds the first integer
/// alternative one too large, as a faulty constructor would.
pub fn alternatives(
    sort: &Sort,
    z3_sort: &z3::Sort,
    value: &str,
    perturb: bool,
) -> Vec<Alternative> {
    let s = z3_sort.get_z3_sort();
    let mut out = Vec::new();
    match sort {
        Sort::Int => {
            let Ok(mut v) = value.parse::<BigInt>() else {
                return out;
            };
            if perturb {
                v += 1;
            }
            integers(&mut out, &v, s);
            if let Some(text) = c_text(&v.to_string()) {
                push(&mut out, "Z3_mk_numeral", move |ctx| unsafe {
                    z3_sys::Z3_mk_numeral(ctx, text.as_ptr(), s)
                });
            }
        }
        Sort::Real => {
            let Some((num, den)) = rational(value) else {
                return out;
            };
            if den.is_one() {
                integers(&mut out, &num, s);
            }
            if let (Some(n), Some(d)) = (num.to_i32(), den.to_i32()) {
                push(&mut out, "Z3_mk_real", move |ctx| unsafe {
                    z3_sys::Z3_mk_real(ctx, n, d)
                });
            }
            // Releases after 4.8.12 only: looked up by name, never linked.
            if let (Some(n), Some(d)) = (num.to_i64(), den.to_i64()) {
                type MkRealInt64 =
                    unsafe extern "C" fn(z3_sys::Z3_context, i64, i64) -> Option<z3_sys::Z3_ast>;
                // SAFETY: the function's z3_api.h signature.
                if let Ok(mk) = unsafe { super::read::typed::<MkRealInt64>("Z3_mk_real_int64") } {
                    push(&mut out, "Z3_mk_real_int64", move |ctx| unsafe {
                        mk(ctx, n, d)
                    });
                }
            }
            if let Some(text) = decimal(&num, &den).and_then(|d| c_text(&d)) {
                push(&mut out, "Z3_mk_numeral (decimal)", move |ctx| unsafe {
                    z3_sys::Z3_mk_numeral(ctx, text.as_ptr(), s)
                });
            }
        }
        Sort::BitVec(width) => {
            let Ok(mut v) = value.parse::<BigUint>() else {
                return out;
            };
            if perturb {
                v += 1u32;
            }
            bit_vector(&mut out, &v, *width, s);
        }
        Sort::FloatingPoint(e, sig) => floating_point(&mut out, value, (*e, *sig), s),
        // The characters as bytes (`Z3_mk_lstring`: every byte one character, NUL included),
        // where each is below 256.
        Sort::String => {
            if let Some(mut bytes) = string_bytes(value) {
                // Z3's API log writes the argument as a C string: a NUL after the bytes keeps
                // it inside the buffer (an empty vector's pointer points nowhere).
                let len = bytes.len() as u32;
                bytes.push(0);
                push(&mut out, "Z3_mk_lstring", move |ctx| unsafe {
                    z3_sys::Z3_mk_lstring(ctx, len, bytes.as_ptr().cast())
                });
            }
        }
        _ => {}
    }
    out
}

/// Runs one constructor in the thread-local context and keeps its term (a NULL answer, Z3
/// refusing the construction, is left out: `check_literal` compares values, not refusals).
fn push(
    out: &mut Vec<Alternative>,
    via: &'static str,
    build: impl FnOnce(z3_sys::Z3_context) -> Option<z3_sys::Z3_ast>,
) {
    let ctx = Context::thread_local();
    let raw = ctx.get_z3_context();
    super::unlogged::note(via);
    let Ok(Some(ast)) = guard::in_context(&ctx, || build(raw)) else {
        return;
    };
    // SAFETY: a non-NULL AST just returned by Z3 for the thread-local context.
    out.push(Alternative {
        via,
        term: unsafe { Dynamic::wrap(&ctx, ast) },
    });
}

/// The characters of a String literal's value as bytes, when every one is below 256 (what
/// `Z3_mk_lstring` can write).
pub fn string_bytes(value: &str) -> Option<Vec<u8>> {
    value
        .chars()
        .map(|c| u8::try_from(u32::from(c)).ok())
        .collect()
}

/// Where Z3's read-backs of a string term built from `bytes` (`Z3_mk_lstring`) disagree with
/// them: `Z3_get_lstring` (4.8.12 answers the bytes as written; later releases write a
/// character as its `\u{H}` escape where they choose to, which reads back to the same
/// characters: either is right, a lost or changed character is not), and, where the loaded
/// libz3 has them (releases after 4.8.12, looked up by name), `Z3_get_string_length` and
/// `Z3_get_string_contents` (the characters as code points).
pub fn lstring_reads(term: &Dynamic, bytes: &[u8]) -> Result<(), String> {
    type Length = unsafe extern "C" fn(z3_sys::Z3_context, z3_sys::Z3_ast) -> u32;
    type Contents = unsafe extern "C" fn(z3_sys::Z3_context, z3_sys::Z3_ast, u32, *mut u32);
    let ctx = Context::thread_local();
    let (raw, ast) = (ctx.get_z3_context(), term.get_z3_ast());
    let written: Vec<u32> = bytes.iter().map(|b| u32::from(*b)).collect();
    let mut n = 0u32;
    super::unlogged::note("Z3_get_lstring");
    // SAFETY: a string term of the thread-local context; Z3 owns the buffer until its next
    // call, and it is copied at once.
    let read = guard::in_context(&ctx, || unsafe {
        let p = z3_sys::Z3_get_lstring(raw, ast, &mut n);
        (!p.is_null()).then(|| std::slice::from_raw_parts(p.cast::<u8>(), n as usize).to_vec())
    })
    .map_err(|e| format!("Z3_get_lstring refused: {e}"))?
    .ok_or("Z3_get_lstring answered no string")?;
    if read != bytes && unescaped(&read).as_deref() != Some(written.as_slice()) {
        return Err(format!(
            "Z3_get_lstring answers the bytes {read:?}, written {bytes:?}"
        ));
    }
    // SAFETY: the functions' z3_api.h signatures.
    let (length, contents) = unsafe {
        (
            super::read::typed::<Length>("Z3_get_string_length"),
            super::read::typed::<Contents>("Z3_get_string_contents"),
        )
    };
    if let (Ok(length), Ok(contents)) = (length, contents) {
        // SAFETY: as above; the buffer holds the length Z3 answered.
        let read = guard::in_context(&ctx, || unsafe {
            let len = length(raw, ast);
            let mut out = vec![0u32; len as usize];
            contents(raw, ast, len, out.as_mut_ptr());
            out
        })
        .map_err(|e| format!("Z3_get_string_contents refused: {e}"))?;
        if read != written {
            return Err(format!(
                "Z3_get_string_length/Z3_get_string_contents answer {read:?}, written {written:?}"
            ));
        }
    }
    Ok(())
}

/// Bytes with Z3's `\u{H}` escapes read as their characters (`None`: a malformed escape).
fn unescaped(bytes: &[u8]) -> Option<Vec<u32>> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"\\u{") {
            let end = i + bytes[i..].iter().position(|b| *b == b'}')?;
            let hex = std::str::from_utf8(&bytes[i + 3..end]).ok()?;
            out.push(u32::from_str_radix(hex, 16).ok()?);
            i = end + 1;
        } else {
            out.push(u32::from(bytes[i]));
            i += 1;
        }
    }
    Some(out)
}

fn c_text(text: &str) -> Option<CString> {
    CString::new(text).ok()
}

/// The machine-integer constructors that hold `v` exactly (Int, Real or bit-vector sort `s`).
fn integers(out: &mut Vec<Alternative>, v: &BigInt, s: z3_sys::Z3_sort) {
    if let Some(n) = v.to_i32() {
        push(out, "Z3_mk_int", move |ctx| unsafe {
            z3_sys::Z3_mk_int(ctx, n, s)
        });
    }
    if let Some(n) = v.to_u32() {
        push(out, "Z3_mk_unsigned_int", move |ctx| unsafe {
            z3_sys::Z3_mk_unsigned_int(ctx, n, s)
        });
    }
    if let Some(n) = v.to_i64() {
        push(out, "Z3_mk_int64", move |ctx| unsafe {
            z3_sys::Z3_mk_int64(ctx, n, s)
        });
    }
    if let Some(n) = v.to_u64() {
        push(out, "Z3_mk_unsigned_int64", move |ctx| unsafe {
            z3_sys::Z3_mk_unsigned_int64(ctx, n, s)
        });
    }
}

/// A bit-vector value `v` of `width` bits: from its bits, from its decimal text, from unsigned
/// machine integers, and from the signed machine integer of the same bits (two's complement).
fn bit_vector(out: &mut Vec<Alternative>, v: &BigUint, width: u32, s: z3_sys::Z3_sort) {
    let modulus = BigUint::one() << width;
    let v = v % &modulus;
    integers(out, &BigInt::from(v.clone()), s);
    if width <= 64 && v.bit(u64::from(width) - 1) {
        let signed = BigInt::from(v.clone()) - BigInt::from(modulus);
        if let Some(n) = signed.to_i64() {
            push(out, "Z3_mk_int64 (negative)", move |ctx| unsafe {
                z3_sys::Z3_mk_int64(ctx, n, s)
            });
        }
    }
    if let Some(text) = c_text(&v.to_string()) {
        push(out, "Z3_mk_numeral", move |ctx| unsafe {
            z3_sys::Z3_mk_numeral(ctx, text.as_ptr(), s)
        });
    }
    if width <= 1 << 12 {
        let bits: Vec<bool> = (0..u64::from(width)).map(|i| v.bit(i)).collect();
        push(out, "Z3_mk_bv_numeral", move |ctx| unsafe {
            z3_sys::Z3_mk_bv_numeral(ctx, width, bits.as_ptr())
        });
    }
}

/// A floating-point value: the special values from their own constructors and from doubles;
/// numbers the format holds exactly as normal numbers (or zeros) from a float when the double
/// is one, from a machine integer when integral, and from IEEE components.
fn floating_point(
    out: &mut Vec<Alternative>,
    value: &str,
    (e, sig): (u32, u32),
    s: z3_sys::Z3_sort,
) {
    let v: f64 = match value {
        "nan" => f64::NAN,
        "+inf" => f64::INFINITY,
        "-inf" => f64::NEG_INFINITY,
        "+zero" => 0.0,
        "-zero" => -0.0,
        text => match text.parse() {
            Ok(v) => v,
            Err(_) => return,
        },
    };
    match value {
        "nan" | "+inf" | "-inf" | "+zero" | "-zero" => {
            push(out, "Z3_mk_fpa_numeral_double", move |ctx| unsafe {
                z3_sys::Z3_mk_fpa_numeral_double(ctx, v, s)
            });
        }
        _ => {
            if v.is_nan() {
                push(out, "Z3_mk_fpa_nan", move |ctx| unsafe {
                    z3_sys::Z3_mk_fpa_nan(ctx, s)
                });
            } else if v.is_infinite() {
                let negative = v < 0.0;
                push(out, "Z3_mk_fpa_inf", move |ctx| unsafe {
                    z3_sys::Z3_mk_fpa_inf(ctx, s, negative)
                });
            } else if v == 0.0 {
                let negative = v.is_sign_negative();
                push(out, "Z3_mk_fpa_zero", move |ctx| unsafe {
                    z3_sys::Z3_mk_fpa_zero(ctx, s, negative)
                });
            }
        }
    }
    if v.is_finite() && v != 0.0 {
        // The double's exact value as a Real, rounded to the format as IEEE rounds (RNE):
        // `Z3_mk_fpa_numeral_double` must round the same value the same way.
        let (num, den) = exact_ratio(v);
        if let Some(real) = z3::ast::Real::from_rational_str(&num, &den) {
            let rne = z3::ast::RoundingMode::round_nearest_ties_to_even();
            push(out, "Z3_mk_fpa_to_fp_real (RNE)", move |ctx| unsafe {
                z3_sys::Z3_mk_fpa_to_fp_real(ctx, rne.get_z3_ast(), real.get_z3_ast(), s)
            });
        }
    }
    if sig >= 2 {
        from_ieee_bits(out, value, v, (e, sig), s);
    }
    // Z3 documents the float and integer constructors for values that fit the format: only
    // values the format holds exactly (so that no constructor rounds) are compared.
    let exact = components(v, e, sig);
    if exact.is_none() {
        return;
    }
    if v.is_finite() && f64::from(v as f32) == v {
        let f = v as f32;
        push(out, "Z3_mk_fpa_numeral_float", move |ctx| unsafe {
            z3_sys::Z3_mk_fpa_numeral_float(ctx, f, s)
        });
    }
    if v.is_finite() && v.fract() == 0.0 && v != 0.0 {
        if let Some(n) = (v as i64).to_i32().filter(|n| f64::from(*n) == v) {
            push(out, "Z3_mk_fpa_numeral_int", move |ctx| unsafe {
                z3_sys::Z3_mk_fpa_numeral_int(ctx, n, s)
            });
        }
    }
    if let Some((negative, exponent, significand)) = exact {
        if v != 0.0 {
            ieee_numbers(out, (negative, &exponent, &significand), (e, sig), s);
        }
        // The fields as reference-counted terms of the bindings: a bare AST of Z3's C API
        // with no reference is freed by the next call that makes one.
        let fields = (
            BV::from_u64(u64::from(negative), 1),
            BV::from_str(e, &exponent.to_string()),
            BV::from_str(sig - 1, &significand.to_string()),
        );
        let (sign, Some(exponent), Some(significand)) = fields else {
            return;
        };
        push(out, "Z3_mk_fpa_fp", move |ctx| unsafe {
            z3_sys::Z3_mk_fpa_fp(
                ctx,
                sign.get_z3_ast(),
                exponent.get_z3_ast(),
                significand.get_z3_ast(),
            )
        });
    }
}

/// A floating-point value from its IEEE bits as one bit-vector (`Z3_mk_fpa_to_fp_bv`): the
/// special values by their encodings (a NaN by its quiet pattern, any NaN is the one NaN of
/// SMT-LIB), numbers by [`components`]. Formats wider than the bindings' numerals are left out.
fn from_ieee_bits(
    out: &mut Vec<Alternative>,
    value: &str,
    v: f64,
    (e, sig): (u32, u32),
    s: z3_sys::Z3_sort,
) {
    let all_ones = (BigUint::one() << e) - 1u32;
    let (negative, exponent, significand) = match value {
        "nan" => (false, all_ones, BigUint::one() << (sig - 2)),
        "+inf" | "-inf" => (value == "-inf", all_ones, BigUint::zero()),
        "+zero" | "-zero" => (value == "-zero", BigUint::zero(), BigUint::zero()),
        _ => match components(v, e, sig) {
            Some(fields) => fields,
            None => return,
        },
    };
    let bits = (BigUint::from(u8::from(negative)) << (e + sig - 1))
        | (exponent << (sig - 1))
        | significand;
    let Some(bv) = BV::from_str(e + sig, &bits.to_string()) else {
        return;
    };
    push(out, "Z3_mk_fpa_to_fp_bv", move |ctx| unsafe {
        z3_sys::Z3_mk_fpa_to_fp_bv(ctx, bv.get_z3_ast(), s)
    });
}

/// A normal number of the format from its sign, unbiased exponent and trailing significand
/// as machine integers (`Z3_mk_fpa_numeral_int_uint`, `Z3_mk_fpa_numeral_int64_uint64`, as
/// Z3 documents them: the exponent unbiased, the significand without its hidden bit), and as
/// `significand * 2^exponent` of an Int and a Real term (`Z3_mk_fpa_to_fp_int_real`, exact:
/// no rounding mode changes a value the format holds).
fn ieee_numbers(
    out: &mut Vec<Alternative>,
    (negative, exponent, significand): (bool, &BigUint, &BigUint),
    (e, sig): (u32, u32),
    s: z3_sys::Z3_sort,
) {
    let bias = (1i64 << (e - 1)) - 1;
    let Some(unbiased) = exponent.to_i64().map(|x| x - bias) else {
        return;
    };
    if let (Some(exp), Some(bits)) = (i32::try_from(unbiased).ok(), significand.to_u32()) {
        push(out, "Z3_mk_fpa_numeral_int_uint", move |ctx| unsafe {
            z3_sys::Z3_mk_fpa_numeral_int_uint(ctx, negative, exp, bits, s)
        });
    }
    if let Some(bits) = significand.to_u64() {
        push(out, "Z3_mk_fpa_numeral_int64_uint64", move |ctx| unsafe {
            z3_sys::Z3_mk_fpa_numeral_int64_uint64(ctx, negative, unbiased, bits, s)
        });
    }
    // 1.f as the exact ratio (2^(sig-1) + f) / 2^(sig-1), signed.
    let den = BigUint::one() << (sig - 1);
    let num = &den + significand;
    let sign = if negative { "-" } else { "" };
    let fields = (
        z3::ast::Int::from_i64(unbiased),
        z3::ast::Real::from_rational_str(&format!("{sign}{num}"), &den.to_string()),
    );
    let (exp, Some(real)) = fields else {
        return;
    };
    let rne = z3::ast::RoundingMode::round_nearest_ties_to_even();
    push(out, "Z3_mk_fpa_to_fp_int_real", move |ctx| unsafe {
        z3_sys::Z3_mk_fpa_to_fp_int_real(
            ctx,
            rne.get_z3_ast(),
            exp.get_z3_ast(),
            real.get_z3_ast(),
            s,
        )
    });
}

/// A finite double as an exact ratio of decimal numerator and denominator (`-3`/`4`).
pub(super) fn exact_ratio(v: f64) -> (String, String) {
    let bits = v.abs().to_bits();
    let (raw_exponent, fraction) = ((bits >> 52) as i64, bits & ((1 << 52) - 1));
    let (mut m, mut k) = if raw_exponent == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1 << 52), raw_exponent - 1075)
    };
    if m != 0 {
        let shift = m.trailing_zeros();
        m >>= shift;
        k += i64::from(shift);
    }
    let sign = if v.is_sign_negative() { "-" } else { "" };
    if k >= 0 {
        (
            format!("{sign}{}", BigUint::from(m) << k as usize),
            "1".into(),
        )
    } else {
        (
            format!("{sign}{m}"),
            (BigUint::one() << (-k) as usize).to_string(),
        )
    }
}

/// The IEEE fields (sign, biased exponent, trailing significand) of `v` in the format with
/// `e` exponent bits and `sig` significand bits (hidden bit included), when `v` is a normal
/// number of that format exactly, or zero.
fn components(v: f64, e: u32, sig: u32) -> Option<(bool, BigUint, BigUint)> {
    if !v.is_finite() || !(2..=30).contains(&e) || sig < 2 {
        return None;
    }
    let negative = v.is_sign_negative();
    if v == 0.0 {
        return Some((negative, BigUint::zero(), BigUint::zero()));
    }
    // v = m * 2^k with m odd.
    let bits = v.abs().to_bits();
    let (raw_exponent, fraction) = ((bits >> 52) as i64, bits & ((1 << 52) - 1));
    let (mut m, mut k) = if raw_exponent == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1 << 52), raw_exponent - 1075)
    };
    let shift = m.trailing_zeros();
    m >>= shift;
    k += i64::from(shift);
    // v = 1.f * 2^unbiased, with f the bits of m below its top bit.
    let top = 63 - i64::from(m.leading_zeros());
    let unbiased = k + top;
    let bias = (1i64 << (e - 1)) - 1;
    if top > i64::from(sig - 1) || unbiased < 1 - bias || unbiased > bias {
        return None;
    }
    let below_top = m & !(1u64 << top);
    let significand = BigUint::from(below_top) << (i64::from(sig - 1) - top) as usize;
    let exponent = BigUint::from((unbiased + bias) as u64);
    Some((negative, exponent, significand))
}

/// A Real literal's text (`-3`, `-3/4`, `1.25`) as numerator and positive denominator.
fn rational(value: &str) -> Option<(BigInt, BigInt)> {
    let (num, den) = model::call_text::real_parts(value)?;
    let (num, den): (BigInt, BigInt) = (num.parse().ok()?, den.parse().ok()?);
    if den.is_zero() {
        return None;
    }
    let g = num_integer::Integer::gcd(&num, &den);
    let (mut num, mut den) = (num / &g, den / &g);
    if den.sign() == Sign::Minus {
        num = -num;
        den = -den;
    }
    Some((num, den))
}

/// `num/den` as an exact decimal (`-0.75`), when the denominator divides a power of ten.
fn decimal(num: &BigInt, den: &BigInt) -> Option<String> {
    let mut d = den.clone();
    let mut digits = 0u32;
    let (two, five) = (BigInt::from(2), BigInt::from(5));
    let mut scale = BigInt::one();
    while !d.is_one() {
        if (&d % &two).is_zero() {
            d /= &two;
            scale *= &five;
        } else if (&d % &five).is_zero() {
            d /= &five;
            scale *= &two;
        } else {
            return None;
        }
        digits += 1;
    }
    let scaled = (num * scale).magnitude().to_string();
    let sign = if num.sign() == Sign::Minus { "-" } else { "" };
    let digits = digits as usize;
    let padded = format!("{scaled:0>width$}", width = digits + 1);
    let (int, frac) = padded.split_at(padded.len() - digits);
    Some(if digits == 0 {
        format!("{sign}{int}")
    } else {
        format!("{sign}{int}.{frac}")
    })
}

/// Whether Z3 simplifies `a = b` to `false` (a definite difference), `true`, or neither.
pub fn simplified_equality(a: &Dynamic, b: &Dynamic) -> Option<bool> {
    a.safe_eq(b).ok()?.simplify().as_bool()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ieee_components_of_exact_normal_numbers() {
        // 1.5 in Float32: sign 0, exponent 127, fraction 0x400000.
        let (neg, exp, frac) = components(1.5, 8, 24).unwrap();
        assert_eq!(
            (neg, exp, frac),
            (false, 127u32.into(), 0x40_0000u32.into())
        );
        let (neg, exp, frac) = components(-0.25, 11, 53).unwrap();
        assert_eq!((neg, exp, frac), (true, 1021u32.into(), 0u32.into()));
        // 0.1 is no Float16 (3, 5) value; 3 in (3, 5) is 1.1b * 2^1.
        assert!(components(0.1, 3, 5).is_none());
        assert_eq!(
            components(3.0, 3, 5),
            Some((false, 4u32.into(), 8u32.into()))
        );
        // 2^4 is beyond the largest exponent of (3, 5).
        assert!(components(16.0, 3, 5).is_none());
    }

    #[test]
    fn string_bytes_and_z3_escapes() {
        assert_eq!(string_bytes("a\0\u{ff}"), Some(vec![b'a', 0, 0xff]));
        assert_eq!(string_bytes("\u{100}"), None);
        // 5.x escapes NUL and the backslash; a byte of the upper half stays a byte.
        assert_eq!(unescaped(b"ab\\u{0}c"), Some(vec![97, 98, 0, 99]));
        assert_eq!(
            unescaped(b"\\u{5c}u{41}\xff"),
            Some(vec![92, 117, 123, 52, 49, 125, 255])
        );
        assert_eq!(unescaped(b"\\u{zz}"), None);
    }

    #[test]
    fn doubles_as_exact_ratios() {
        assert_eq!(exact_ratio(-0.75), ("-3".into(), "4".into()));
        assert_eq!(exact_ratio(6.0), ("6".into(), "1".into()));
        assert_eq!(exact_ratio(0.1).1, (BigUint::one() << 55usize).to_string());
    }

    #[test]
    fn exact_decimals_and_reduced_rationals() {
        let r = |n: i64, d: i64| decimal(&BigInt::from(n), &BigInt::from(d));
        assert_eq!(r(-3, 4).as_deref(), Some("-0.75"));
        assert_eq!(r(1, 8).as_deref(), Some("0.125"));
        assert_eq!(r(7, 1).as_deref(), Some("7"));
        assert_eq!(r(1, 3), None);
        assert_eq!(rational("-6/4"), Some((BigInt::from(-3), BigInt::from(2))));
    }
}
