//! Real closed field numbers in the executor (`Z3_rcf_*` through z3-sys: the `z3` crate has
//! no wrapper), and the two RCF oracles: `check_rcf` (Z3's comparisons and texts of two
//! numbers against the reference state's intervals, `model::rcf`) and `check_rcf_roots` (the
//! roots Z3 finds of a polynomial: as many as Sturm's theorem counts where the coefficients
//! are rational, increasing, zeros of the polynomial by Z3's own arithmetic).
//!
//! Every number lives in the thread-local context and is deleted (`Z3_rcf_del`) when its
//! handle is released or the executor ends.
//!
//! Z3 represents the number zero by the NULL pointer, which z3-sys's `Z3_rcf_num` (a
//! `NonNull`) cannot hold: the functions are declared here again over raw pointers, and
//! whether a call failed is read from the context's error code alone.

use super::{guard, inject, ExecError, Executor, Outcome};
use model::call::{RcfCmp, RcfId, RcfMk, RcfOp};
use model::finding::{Failure, FailureKind};
use model::rcf::{rational_text, real_roots, Interval};
use model::Check;
use std::ffi::{c_char, c_int, c_uint, c_void};
use std::ffi::{CStr, CString};
use z3::Context;
use z3_sys::Z3_context;

/// A `Z3_rcf_num`, NULL for zero.
type RcfPtr = *mut c_void;

#[allow(non_snake_case)]
mod ffi {
    use super::*;
    // The libz3 that z3-sys links; these are the z3.h (z3_rcf.h) signatures of 4.8.12.
    extern "C" {
        pub fn Z3_rcf_del(c: Z3_context, a: RcfPtr);
        pub fn Z3_rcf_mk_rational(c: Z3_context, val: *const c_char) -> RcfPtr;
        pub fn Z3_rcf_mk_small_int(c: Z3_context, val: c_int) -> RcfPtr;
        pub fn Z3_rcf_mk_pi(c: Z3_context) -> RcfPtr;
        pub fn Z3_rcf_mk_e(c: Z3_context) -> RcfPtr;
        pub fn Z3_rcf_mk_infinitesimal(c: Z3_context) -> RcfPtr;
        pub fn Z3_rcf_mk_roots(
            c: Z3_context,
            n: c_uint,
            a: *const RcfPtr,
            roots: *mut RcfPtr,
        ) -> c_uint;
        pub fn Z3_rcf_add(c: Z3_context, a: RcfPtr, b: RcfPtr) -> RcfPtr;
        pub fn Z3_rcf_sub(c: Z3_context, a: RcfPtr, b: RcfPtr) -> RcfPtr;
        pub fn Z3_rcf_mul(c: Z3_context, a: RcfPtr, b: RcfPtr) -> RcfPtr;
        pub fn Z3_rcf_div(c: Z3_context, a: RcfPtr, b: RcfPtr) -> RcfPtr;
        pub fn Z3_rcf_neg(c: Z3_context, a: RcfPtr) -> RcfPtr;
        pub fn Z3_rcf_inv(c: Z3_context, a: RcfPtr) -> RcfPtr;
        pub fn Z3_rcf_power(c: Z3_context, a: RcfPtr, k: c_uint) -> RcfPtr;
        pub fn Z3_rcf_lt(c: Z3_context, a: RcfPtr, b: RcfPtr) -> bool;
        pub fn Z3_rcf_gt(c: Z3_context, a: RcfPtr, b: RcfPtr) -> bool;
        pub fn Z3_rcf_le(c: Z3_context, a: RcfPtr, b: RcfPtr) -> bool;
        pub fn Z3_rcf_ge(c: Z3_context, a: RcfPtr, b: RcfPtr) -> bool;
        pub fn Z3_rcf_eq(c: Z3_context, a: RcfPtr, b: RcfPtr) -> bool;
        pub fn Z3_rcf_neq(c: Z3_context, a: RcfPtr, b: RcfPtr) -> bool;
        pub fn Z3_rcf_num_to_string(
            c: Z3_context,
            a: RcfPtr,
            compact: bool,
            html: bool,
        ) -> *const c_char;
        pub fn Z3_rcf_num_to_decimal_string(
            c: Z3_context,
            a: RcfPtr,
            prec: c_uint,
        ) -> *const c_char;
        pub fn Z3_rcf_get_numerator_denominator(
            c: Z3_context,
            a: RcfPtr,
            n: *mut RcfPtr,
            d: *mut RcfPtr,
        );
    }
}

/// One RCF number of the thread-local context, deleted with its handle.
pub struct RcfNum {
    raw: RcfPtr,
    ctx: Context,
}

impl Drop for RcfNum {
    fn drop(&mut self) {
        // SAFETY: `raw` was made in `ctx`, which this handle keeps alive, and is deleted once.
        unsafe { ffi::Z3_rcf_del(self.ctx.get_z3_context(), self.raw) }
    }
}

/// The precision of the decimal texts `check_rcf` reads.
const CHECK_PRECISION: u32 = 10;

/// A handle of a number Z3 made (the guard has read the error code).
fn made(ctx: &Context, raw: RcfPtr) -> RcfNum {
    RcfNum {
        raw,
        ctx: ctx.clone(),
    }
}

/// A string Z3 owns, copied.
///
/// # Safety
/// `text` is NULL or a NUL-terminated string that lives until the next Z3 call.
unsafe fn owned(text: *const std::ffi::c_char) -> String {
    if text.is_null() {
        String::new()
    } else {
        CStr::from_ptr(text).to_string_lossy().into_owned()
    }
}

/// The roots Z3 finds of the polynomial with these coefficients (lowest degree first).
fn roots(ctx: &Context, coeffs: &[RcfPtr]) -> Result<Vec<RcfNum>, String> {
    let raw_ctx = ctx.get_z3_context();
    let mut out: Vec<RcfPtr> = vec![std::ptr::null_mut(); coeffs.len()];
    // SAFETY: `out` has room for n roots (Z3's contract); every root Z3 writes is owned by
    // the handles made below.
    let n = guard::guarded(ctx, || unsafe {
        ffi::Z3_rcf_mk_roots(
            raw_ctx,
            coeffs.len() as u32,
            coeffs.as_ptr(),
            out.as_mut_ptr(),
        )
    })?;
    Ok(out
        .into_iter()
        .take(n as usize)
        .map(|r| made(ctx, r))
        .collect())
}

/// Whether Z3's six answers comparing A and B agree with each other (exactly one of <, =, >
/// holds, and <=, >=, != follow from them), with the answers as text for a message: the one
/// consistency rule of `check_rcf` and `check_algebraic`.
fn six_comparisons_agree(
    a: &impl std::fmt::Display,
    b: &impl std::fmt::Display,
    answers: &[(RcfCmp, bool)],
) -> (bool, String) {
    let answer = |cmp: RcfCmp| answers.iter().find(|(c, _)| *c == cmp).expect("all six").1;
    let (lt, gt, eq) = (answer(RcfCmp::Lt), answer(RcfCmp::Gt), answer(RcfCmp::Eq));
    let consistent = [lt, gt, eq].iter().filter(|x| **x).count() == 1
        && answer(RcfCmp::Le) == (lt || eq)
        && answer(RcfCmp::Ge) == (gt || eq)
        && answer(RcfCmp::Neq) != eq;
    let said = answers
        .iter()
        .map(|(cmp, x)| format!("{a} {} {b}: {x}", cmp_name(*cmp)))
        .collect::<Vec<_>>()
        .join(", ");
    (consistent, said)
}

fn compare(c: Z3_context, cmp: RcfCmp, a: RcfPtr, b: RcfPtr) -> bool {
    // SAFETY: two live numbers of context `c`.
    unsafe {
        match cmp {
            RcfCmp::Lt => ffi::Z3_rcf_lt(c, a, b),
            RcfCmp::Gt => ffi::Z3_rcf_gt(c, a, b),
            RcfCmp::Le => ffi::Z3_rcf_le(c, a, b),
            RcfCmp::Ge => ffi::Z3_rcf_ge(c, a, b),
            RcfCmp::Eq => ffi::Z3_rcf_eq(c, a, b),
            RcfCmp::Neq => ffi::Z3_rcf_neq(c, a, b),
        }
    }
}

fn cmp_name(cmp: RcfCmp) -> &'static str {
    match cmp {
        RcfCmp::Lt => "<",
        RcfCmp::Gt => ">",
        RcfCmp::Le => "<=",
        RcfCmp::Ge => ">=",
        RcfCmp::Eq => "=",
        RcfCmp::Neq => "!=",
    }
}

/// The most indices a `read_rcf` reads of one function (coefficients, sign conditions):
/// far above what the polynomials the reference state admits give.
const MAX_RCF_READ_INDICES: u32 = 64;

type RcfToBool = unsafe extern "C" fn(Z3_context, RcfPtr) -> bool;
type RcfToUint = unsafe extern "C" fn(Z3_context, RcfPtr) -> c_uint;
type RcfToSymbol = unsafe extern "C" fn(Z3_context, RcfPtr) -> Option<z3_sys::Z3_symbol>;
type RcfIndexToRcf = unsafe extern "C" fn(Z3_context, RcfPtr, c_uint) -> RcfPtr;
type RcfIndexToInt = unsafe extern "C" fn(Z3_context, RcfPtr, c_uint) -> c_int;
type RcfIndexToUint = unsafe extern "C" fn(Z3_context, RcfPtr, c_uint) -> c_uint;
type RcfIndex2ToRcf = unsafe extern "C" fn(Z3_context, RcfPtr, c_uint, c_uint) -> RcfPtr;
type RcfInterval = unsafe extern "C" fn(
    Z3_context,
    RcfPtr,
    *mut bool,
    *mut bool,
    *mut RcfPtr,
    *mut bool,
    *mut bool,
    *mut RcfPtr,
) -> c_int;

/// The text of a number Z3 just made for the caller, which is deleted after.
///
/// # Safety
/// `raw` is a number of `ctx` that nothing else owns.
unsafe fn text_of_made(ctx: &Context, raw: RcfPtr) -> String {
    let number = made(ctx, raw);
    owned(ffi::Z3_rcf_num_to_string(
        ctx.get_z3_context(),
        number.raw,
        false,
        false,
    ))
}

/// `[a; b; ...]`, the list texts of `model::read::rcf_list`.
fn list(items: impl IntoIterator<Item = String>) -> String {
    format!("[{}]", items.into_iter().collect::<Vec<_>>().join("; "))
}

/// The answer of the RCF read-back `reader` for `a` as `model::read` describes it: the reads
/// an algebraic number's representation answer `false` for a number that is not one (Z3's
/// precondition, asked first), and a function with an index is read at every index.
///
/// # Safety
/// `a` is a live number of `ctx`; the functions are those only newer releases have, looked
/// up by name with their z3_rcf.h signatures.
unsafe fn read_rcf(
    ctx: &Context,
    reader: model::read::Reader,
    a: RcfPtr,
) -> Result<String, String> {
    use super::read::{symbol_text, typed};
    use model::read::Reader as R;
    let c = ctx.get_z3_context();
    let is = |name: &'static str| -> Result<bool, String> { Ok(typed::<RcfToBool>(name)?(c, a)) };
    let count = |name: &'static str| -> Result<u32, String> {
        Ok(typed::<RcfToUint>(name)?(c, a).min(MAX_RCF_READ_INDICES))
    };
    let algebraic = || is("Z3_rcf_is_algebraic");
    Ok(match reader {
        R::RcfIsRational | R::RcfIsAlgebraic | R::RcfIsInfinitesimal | R::RcfIsTranscendental => {
            is(reader.name())?.to_string()
        }
        R::RcfExtensionIndex => typed::<RcfToUint>(reader.name())?(c, a).to_string(),
        R::RcfTranscendentalName | R::RcfInfinitesimalName => {
            let kind = match reader {
                R::RcfTranscendentalName => "Z3_rcf_is_transcendental",
                _ => "Z3_rcf_is_infinitesimal",
            };
            match is(kind)? {
                false => "false".into(),
                true => symbol_text(c, typed::<RcfToSymbol>(reader.name())?(c, a))?,
            }
        }
        _ if !algebraic()? => "false".into(),
        R::RcfNumCoefficients | R::RcfNumSignConditions => {
            typed::<RcfToUint>(reader.name())?(c, a).to_string()
        }
        R::RcfCoefficient => {
            let coefficient = typed::<RcfIndexToRcf>(reader.name())?;
            let n = count("Z3_rcf_num_coefficients")?;
            list((0..n).map(|i| text_of_made(ctx, coefficient(c, a, i))))
        }
        R::RcfInterval => {
            let interval = typed::<RcfInterval>(reader.name())?;
            let (mut lo_inf, mut lo_open, mut lo) = (false, false, std::ptr::null_mut());
            let (mut hi_inf, mut hi_open, mut hi) = (false, false, std::ptr::null_mut());
            interval(
                c,
                a,
                &mut lo_inf,
                &mut lo_open,
                &mut lo,
                &mut hi_inf,
                &mut hi_open,
                &mut hi,
            );
            // An infinite end's number is not set (NULL, Z3's zero, when it is).
            let end = |inf: bool, raw: RcfPtr, infinity: &str| match inf {
                true => {
                    drop(made(ctx, raw));
                    infinity.to_string()
                }
                false => text_of_made(ctx, raw),
            };
            format!(
                "{}{}, {}{}",
                if lo_open { '(' } else { '[' },
                end(lo_inf, lo, "-oo"),
                end(hi_inf, hi, "+oo"),
                if hi_open { ')' } else { ']' },
            )
        }
        R::RcfSignConditionSign | R::RcfNumSignConditionCoefficients => {
            let n = count("Z3_rcf_num_sign_conditions")?;
            match reader {
                R::RcfSignConditionSign => {
                    let sign = typed::<RcfIndexToInt>(reader.name())?;
                    list((0..n).map(|i| sign(c, a, i).to_string()))
                }
                _ => {
                    let size = typed::<RcfIndexToUint>(reader.name())?;
                    list((0..n).map(|i| size(c, a, i).to_string()))
                }
            }
        }
        R::RcfSignConditionCoefficient => {
            let n = count("Z3_rcf_num_sign_conditions")?;
            let size = typed::<RcfIndexToUint>("Z3_rcf_num_sign_condition_coefficients")?;
            let coefficient = typed::<RcfIndex2ToRcf>(reader.name())?;
            list((0..n).map(|i| {
                let m = size(c, a, i).min(MAX_RCF_READ_INDICES);
                list((0..m).map(|j| text_of_made(ctx, coefficient(c, a, i, j))))
            }))
        }
        _ => return Err(format!("{} reads no RCF number", reader.name())),
    })
}

impl Executor {
    /// `read_rcf`: the read-back of an RCF number, judged by what made it
    /// (`model::read::expected_for_rcf`).
    pub(super) fn read_rcf(&mut self, function: &str, id: RcfId) -> Result<String, ExecError> {
        let reader = self.reader(function)?;
        let a = self.rcf_raw(id)?;
        let ctx = self.main.clone();
        // SAFETY: a live number of the thread-local context; `read_rcf` asks Z3's
        // precondition of every read first.
        let value = guard::guarded(&ctx, || unsafe { read_rcf(&ctx, reader, a) })
            .map_err(ExecError::Z3)?
            .map_err(ExecError::Z3)?;
        let expect = model::read::expected_for_rcf(reader, &self.state, id);
        if self.config.run_checks {
            expect.judge(&value).map_err(|m| {
                ExecError::Oracle(
                    Failure::new(
                        FailureKind::ReadBack,
                        format!("`{}` of {id}: {m}", reader.name()),
                    )
                    .with_cause(format!("{} of an RCF number", reader.name()))
                    .at_call("read_rcf"),
                )
            })?;
        }
        Ok(value)
    }

    fn rcf_raw(&self, id: RcfId) -> Result<RcfPtr, ExecError> {
        self.rcfs
            .get(&id)
            .map(|r| r.raw)
            .ok_or_else(|| ExecError::Malformed(format!("RCF number {id} is not defined")))
    }

    /// Runs an RCF call (the reference state has checked it).
    pub(super) fn rcf_call(&mut self, call: &model::Call) -> Result<Outcome, ExecError> {
        use model::Call as C;
        let ctx = self.main.clone();
        let c = ctx.get_z3_context();
        let number = |raw: RcfPtr, _what: &str| -> Result<Outcome, ExecError> {
            Ok(Outcome::Rcf(made(&ctx, raw)))
        };
        // SAFETY (every block below): plain z3-sys calls on live numbers of the thread-local
        // context, guarded so that an error code becomes an error.
        match call {
            C::RcfMk(mk) => {
                let raw = match mk {
                    RcfMk::Rational(text) => {
                        let text = CString::new(text.as_str()).map_err(|e| {
                            ExecError::Malformed(format!("rational with a NUL byte: {e}"))
                        })?;
                        self.main(|| unsafe { ffi::Z3_rcf_mk_rational(c, text.as_ptr()) })?
                    }
                    RcfMk::SmallInt(n) => {
                        self.main(|| unsafe { ffi::Z3_rcf_mk_small_int(c, *n) })?
                    }
                    RcfMk::Pi => self.main(|| unsafe { ffi::Z3_rcf_mk_pi(c) })?,
                    RcfMk::E => self.main(|| unsafe { ffi::Z3_rcf_mk_e(c) })?,
                    RcfMk::Infinitesimal => {
                        self.main(|| unsafe { ffi::Z3_rcf_mk_infinitesimal(c) })?
                    }
                };
                number(raw, call.name())
            }
            C::RcfArith { op, a, b } => {
                let (a, b) = (self.rcf_raw(*a)?, self.rcf_raw(*b)?);
                let off_by_one = *op == RcfOp::Add
                    && matches!(self.config.inject, Some(inject::Fault::WrongRcf));
                let raw = self.main(|| unsafe {
                    let sum = match op {
                        RcfOp::Add => ffi::Z3_rcf_add(c, a, b),
                        RcfOp::Sub => ffi::Z3_rcf_sub(c, a, b),
                        RcfOp::Mul => ffi::Z3_rcf_mul(c, a, b),
                        RcfOp::Div => ffi::Z3_rcf_div(c, a, b),
                    };
                    if off_by_one {
                        // The injected fault: a sum one too large.
                        let one = ffi::Z3_rcf_mk_small_int(c, 1);
                        let wrong = ffi::Z3_rcf_add(c, sum, one);
                        ffi::Z3_rcf_del(c, one);
                        ffi::Z3_rcf_del(c, sum);
                        wrong
                    } else {
                        sum
                    }
                })?;
                number(raw, call.name())
            }
            C::RcfNeg(a) => {
                let a = self.rcf_raw(*a)?;
                number(
                    self.main(|| unsafe { ffi::Z3_rcf_neg(c, a) })?,
                    "Z3_rcf_neg",
                )
            }
            C::RcfInv(a) => {
                let a = self.rcf_raw(*a)?;
                number(
                    self.main(|| unsafe { ffi::Z3_rcf_inv(c, a) })?,
                    "Z3_rcf_inv",
                )
            }
            C::RcfPower(a, k) => {
                let a = self.rcf_raw(*a)?;
                let raw = self.main(|| unsafe { ffi::Z3_rcf_power(c, a, *k) })?;
                number(raw, "Z3_rcf_power")
            }
            C::RcfCompare { cmp, a, b } => {
                let (a, b) = (self.rcf_raw(*a)?, self.rcf_raw(*b)?);
                let answer = self.main(|| compare(c, *cmp, a, b))?;
                Ok(Outcome::Value(answer.to_string()))
            }
            C::RcfToString { num, compact, html } => {
                let a = self.rcf_raw(*num)?;
                let text = self
                    .main(|| unsafe { owned(ffi::Z3_rcf_num_to_string(c, a, *compact, *html)) })?;
                Ok(Outcome::Value(text))
            }
            C::RcfToDecimal(num, precision) => {
                let a = self.rcf_raw(*num)?;
                let text = self.main(|| unsafe {
                    owned(ffi::Z3_rcf_num_to_decimal_string(c, a, *precision))
                })?;
                Ok(Outcome::Value(text))
            }
            C::RcfRoots(coeffs) => {
                let raw = coeffs
                    .iter()
                    .map(|r| self.rcf_raw(*r))
                    .collect::<Result<Vec<_>, _>>()?;
                let found = roots(&ctx, &raw).map_err(ExecError::Z3)?;
                Ok(Outcome::Value(found.len().to_string()))
            }
            C::RcfRoot { index, coeffs } => {
                let raw = coeffs
                    .iter()
                    .map(|r| self.rcf_raw(*r))
                    .collect::<Result<Vec<_>, _>>()?;
                let mut found = roots(&ctx, &raw).map_err(ExecError::Z3)?;
                let n = found.len();
                // Root I in increasing order, by Z3's own comparison (Z3 gives no order).
                let mut by_order = Ok(());
                found.sort_by(|x, y| {
                    match self.main(|| {
                        (
                            compare(c, RcfCmp::Lt, x.raw, y.raw),
                            compare(c, RcfCmp::Lt, y.raw, x.raw),
                        )
                    }) {
                        Ok((true, _)) => std::cmp::Ordering::Less,
                        Ok((_, true)) => std::cmp::Ordering::Greater,
                        Ok(_) => std::cmp::Ordering::Equal,
                        Err(e) => {
                            by_order = Err(e);
                            std::cmp::Ordering::Equal
                        }
                    }
                });
                by_order?;
                // The reference state counted the roots by Sturm's theorem; Z3 finding fewer
                // is a finding of `check_rcf_roots`, here a refusal to make the root.
                found
                    .into_iter()
                    .nth(*index as usize)
                    .map(Outcome::Rcf)
                    .ok_or_else(|| {
                        ExecError::Z3(format!(
                            "Z3_rcf_mk_roots found {n} roots, the reference state more than {index}"
                        ))
                    })
            }
            C::RcfNumDen { num, denominator } => {
                let a = self.rcf_raw(*num)?;
                let (n, d) = self.main(|| unsafe {
                    let mut n: RcfPtr = std::ptr::null_mut();
                    let mut d: RcfPtr = std::ptr::null_mut();
                    ffi::Z3_rcf_get_numerator_denominator(c, a, &mut n, &mut d);
                    (made(&ctx, n), made(&ctx, d))
                })?;
                Ok(Outcome::Rcf(if *denominator { d } else { n }))
            }
            _ => Err(ExecError::Malformed(format!(
                "`{}` is no RCF call",
                call.name()
            ))),
        }
    }

    fn rcf_finding(check: &Check, message: String, cause: &str) -> ExecError {
        ExecError::Oracle(
            Failure::new(FailureKind::Rcf, message)
                .with_cause(format!("{}: {cause}", check.name()))
                .at_call(check.name()),
        )
    }

    /// `check_rcf rA rB`.
    pub(super) fn check_rcf(&mut self, check: &Check, a: RcfId, b: RcfId) -> Result<(), ExecError> {
        let (ra, rb) = (self.rcf_raw(a)?, self.rcf_raw(b)?);
        let ia = self.state.rcf(a).map_err(super::malformed)?.cloned();
        let ib = self.state.rcf(b).map_err(super::malformed)?.cloned();
        let c = self.main.get_z3_context();
        let answers: Vec<(RcfCmp, bool)> = self.main(|| {
            RcfCmp::ALL
                .iter()
                .map(|cmp| (*cmp, compare(c, *cmp, ra, rb)))
                .collect()
        })?;
        let (consistent, said) = six_comparisons_agree(&a, &b, &answers);
        if !consistent {
            return Err(Self::rcf_finding(
                check,
                format!("Z3's comparisons of {a} and {b} contradict each other ({said})"),
                "comparisons contradict each other",
            ));
        }
        if let (Some(ia), Some(ib)) = (&ia, &ib) {
            for (cmp, z3_says) in &answers {
                if let Some(truth) = ia.compare(*cmp, ib) {
                    if truth != *z3_says {
                        self.count("rcf: comparison departs");
                        return Err(Self::rcf_finding(
                            check,
                            format!(
                                "Z3 answers {a} {} {b}: {z3_says}, exact arithmetic says {truth} \
                                 ({a} in {}, {b} in {})",
                                cmp_name(*cmp),
                                show(ia),
                                show(ib)
                            ),
                            &format!("rcf {} departs from exact arithmetic", cmp_name(*cmp)),
                        ));
                    }
                }
            }
            self.count("rcf: comparisons judged");
        } else {
            self.count("rcf: comparisons unjudged (no interval)");
        }
        for (id, raw, interval) in [(a, ra, &ia), (b, rb, &ib)] {
            let Some(interval) = interval else { continue };
            let rational_form = self.state.rcfs.get(&id).is_some_and(|info| info.rational);
            let (text, decimal) = self.main(|| unsafe {
                (
                    owned(ffi::Z3_rcf_num_to_string(c, raw, false, false)),
                    owned(ffi::Z3_rcf_num_to_decimal_string(c, raw, CHECK_PRECISION)),
                )
            })?;
            if let (Some(q), true) = (interval.as_point(), rational_form) {
                let expected = rational_text(q);
                if text != expected {
                    return Err(Self::rcf_finding(
                        check,
                        format!(
                            "Z3 prints the rational {id} as `{text}`, exactly it is {expected}"
                        ),
                        "rcf_num_to_string of a rational departs from exact arithmetic",
                    ));
                }
            }
            if interval.admits_decimal(&decimal, CHECK_PRECISION, rational_form) == Some(false) {
                return Err(Self::rcf_finding(
                    check,
                    format!(
                        "Z3's decimal text of {id} is `{decimal}`, but {id} is in {}",
                        show(interval)
                    ),
                    "rcf_num_to_decimal_string departs from exact arithmetic",
                ));
            }
        }
        Ok(())
    }

    /// `check_rcf_roots rC0 rC1 ...`.
    pub(super) fn check_rcf_roots(
        &mut self,
        check: &Check,
        coeffs: &[RcfId],
    ) -> Result<(), ExecError> {
        let raw = coeffs
            .iter()
            .map(|r| self.rcf_raw(*r))
            .collect::<Result<Vec<_>, _>>()?;
        let points = self.state.polynomial(coeffs).map_err(super::malformed)?;
        let ctx = self.main.clone();
        let c = ctx.get_z3_context();
        let found = roots(&ctx, &raw).map_err(ExecError::Z3)?;
        let degree = coeffs.len() - 1;
        if found.len() > degree {
            return Err(Self::rcf_finding(
                check,
                format!(
                    "Z3_rcf_mk_roots finds {} roots of a polynomial of {} coefficients",
                    found.len(),
                    coeffs.len()
                ),
                "more roots than the degree",
            ));
        }
        if let Some(points) = &points {
            let exact = real_roots(points, model::state::RCF_ROOT_BITS);
            if exact.len() != found.len() {
                return Err(Self::rcf_finding(
                    check,
                    format!(
                        "Z3_rcf_mk_roots finds {} roots of a polynomial with rational coefficients \
                         ({}), Sturm's theorem counts {}",
                        found.len(),
                        points.iter().map(rational_text).collect::<Vec<_>>().join(", "),
                        exact.len()
                    ),
                    "root count departs from Sturm's theorem",
                ));
            }
            self.count("rcf: root counts judged");
        }
        let zero = made(
            &ctx,
            self.main(|| unsafe { ffi::Z3_rcf_mk_small_int(c, 0) })?,
        );
        for (i, root) in found.iter().enumerate() {
            // p(root) by Horner's rule in Z3's own arithmetic; every intermediate is kept
            // in a handle, so it is deleted.
            let mut acc = made(
                &ctx,
                self.main(|| unsafe { ffi::Z3_rcf_mk_small_int(c, 0) })?,
            );
            for coeff in raw.iter().rev() {
                let times = made(
                    &ctx,
                    self.main(|| unsafe { ffi::Z3_rcf_mul(c, acc.raw, root.raw) })?,
                );
                acc = made(
                    &ctx,
                    self.main(|| unsafe { ffi::Z3_rcf_add(c, times.raw, *coeff) })?,
                );
            }
            if !self.main(|| compare(c, RcfCmp::Eq, acc.raw, zero.raw))? {
                return Err(Self::rcf_finding(
                    check,
                    format!("root {i} of Z3_rcf_mk_roots is no zero of its polynomial"),
                    "a root is no zero of its polynomial",
                ));
            }
            // Z3 promises no order (a root 0 comes last: 4.8.12 and 5.4.1 give 1/2, 0 for
            // x - 2x^2), but distinct roots.
            let equal = found[..i]
                .iter()
                .map(|earlier| self.main(|| compare(c, RcfCmp::Eq, earlier.raw, root.raw)))
                .collect::<Result<Vec<bool>, _>>()?;
            if let Some(j) = equal.iter().position(|e| *e) {
                return Err(Self::rcf_finding(
                    check,
                    format!("roots {j} and {i} of Z3_rcf_mk_roots are equal"),
                    "a root is found twice",
                ));
            }
        }
        Ok(())
    }
}

/// The functions `check_rcf_sign_conditions` looks up (only releases after 4.8.12 have them).
pub(super) const SIGN_CONDITION_FUNCTIONS: &[&str] = &[
    "Z3_rcf_is_algebraic",
    "Z3_rcf_num_sign_conditions",
    "Z3_rcf_sign_condition_sign",
    "Z3_rcf_num_sign_condition_coefficients",
    "Z3_rcf_sign_condition_coefficient",
];

/// One sign condition of a number as Z3 states it: its sign and its polynomial's
/// coefficients (lowest degree first), each held.
struct SignCondition {
    sign: c_int,
    coeffs: Vec<RcfNum>,
}

/// The sign conditions of the number `a` (none where it is not algebraic).
///
/// # Safety
/// `a` is a live number of `ctx`; the functions are looked up by name with their z3_rcf.h
/// signatures.
unsafe fn sign_conditions(ctx: &Context, a: RcfPtr) -> Result<Vec<SignCondition>, String> {
    use super::read::typed;
    let c = ctx.get_z3_context();
    if !typed::<RcfToBool>("Z3_rcf_is_algebraic")?(c, a) {
        return Ok(vec![]);
    }
    let n = typed::<RcfToUint>("Z3_rcf_num_sign_conditions")?(c, a).min(MAX_RCF_READ_INDICES);
    let sign = typed::<RcfIndexToInt>("Z3_rcf_sign_condition_sign")?;
    let size = typed::<RcfIndexToUint>("Z3_rcf_num_sign_condition_coefficients")?;
    let coefficient = typed::<RcfIndex2ToRcf>("Z3_rcf_sign_condition_coefficient")?;
    Ok((0..n)
        .map(|i| SignCondition {
            sign: sign(c, a, i),
            coeffs: (0..size(c, a, i).min(MAX_RCF_READ_INDICES))
                .map(|j| made(ctx, coefficient(c, a, i, j)))
                .collect(),
        })
        .collect())
}

impl Executor {
    /// `check_rcf_sign_conditions rA`: see [`model::Check::RcfSignConditions`].
    pub(super) fn check_rcf_sign_conditions(
        &mut self,
        check: &Check,
        id: RcfId,
    ) -> Result<(), ExecError> {
        let a = self.rcf_raw(id)?;
        let ctx = self.main.clone();
        let c = ctx.get_z3_context();
        // SAFETY: a live number of the thread-local context.
        let conditions = guard::guarded(&ctx, || unsafe { sign_conditions(&ctx, a) })
            .map_err(ExecError::Z3)?
            .map_err(ExecError::Z3)?;
        let zero = made(
            &ctx,
            self.main(|| unsafe { ffi::Z3_rcf_mk_small_int(c, 0) })?,
        );
        for (i, condition) in conditions.iter().enumerate() {
            // The polynomial at A by Horner's rule in Z3's RCF arithmetic, every intermediate
            // held, so deleted.
            let mut acc = made(
                &ctx,
                self.main(|| unsafe { ffi::Z3_rcf_mk_small_int(c, 0) })?,
            );
            for coeff in condition.coeffs.iter().rev() {
                let times = made(
                    &ctx,
                    self.main(|| unsafe { ffi::Z3_rcf_mul(c, acc.raw, a) })?,
                );
                acc = made(
                    &ctx,
                    self.main(|| unsafe { ffi::Z3_rcf_add(c, times.raw, coeff.raw) })?,
                );
            }
            let (below, above) = self.main(|| {
                (
                    compare(c, RcfCmp::Lt, acc.raw, zero.raw),
                    compare(c, RcfCmp::Gt, acc.raw, zero.raw),
                )
            })?;
            let actual = i32::from(above) - i32::from(below);
            let stated = match self.config.inject {
                // The injected fault: every stated sign read negated.
                Some(inject::Fault::WrongRcf) => -condition.sign,
                _ => condition.sign,
            };
            if actual != stated.signum() || !(-1..=1).contains(&stated) {
                return Err(Self::rcf_finding(
                    check,
                    format!(
                        "sign condition {i} of {id} states sign {}, its polynomial of {} \
                         coefficients has sign {actual} at {id} by Z3's own arithmetic",
                        stated,
                        condition.coeffs.len()
                    ),
                    "a sign condition does not hold at its number",
                ));
            }
        }
        if !conditions.is_empty() {
            self.count("rcf: sign conditions judged");
        }
        Ok(())
    }
}

/// An interval as a message shows it.
fn show(i: &Interval) -> String {
    i.to_string()
}

/// Algebraic numbers (`Z3_algebraic_*`): Real terms that are numerals, checked by
/// `check_algebraic` against the same intervals (`model::state::State::algebraic`).
mod algebraic {
    use super::super::{ExecError, Executor, Outcome};
    use super::{cmp_name, show};
    use model::call::{AlgebraicTest, RcfCmp, RcfOp};
    use model::Check;
    use model::TermId;
    use z3::ast::{Ast, Dynamic};
    use z3_sys::{Z3_ast, Z3_context};

    // The predicates that call `Z3_algebraic_lt`, `_eq` or `_sign` log as those: counted
    // here (`z3log::table::NOT_LOGGED`).
    fn compare(c: Z3_context, cmp: RcfCmp, a: Z3_ast, b: Z3_ast) -> bool {
        let (name, answer): (&str, bool) = {
            // SAFETY: two live numerals of context `c`.
            unsafe {
                match cmp {
                    RcfCmp::Lt => ("Z3_algebraic_lt", z3_sys::Z3_algebraic_lt(c, a, b)),
                    RcfCmp::Gt => ("Z3_algebraic_gt", z3_sys::Z3_algebraic_gt(c, a, b)),
                    RcfCmp::Le => ("Z3_algebraic_le", z3_sys::Z3_algebraic_le(c, a, b)),
                    RcfCmp::Ge => ("Z3_algebraic_ge", z3_sys::Z3_algebraic_ge(c, a, b)),
                    RcfCmp::Eq => ("Z3_algebraic_eq", z3_sys::Z3_algebraic_eq(c, a, b)),
                    RcfCmp::Neq => ("Z3_algebraic_neq", z3_sys::Z3_algebraic_neq(c, a, b)),
                }
            }
        };
        super::super::unlogged::note(name);
        answer
    }

    fn test(c: Z3_context, test: AlgebraicTest, a: Z3_ast) -> bool {
        let (name, answer): (&str, bool) = {
            // SAFETY: a live AST of context `c` (a numeral, but for `is_value`).
            unsafe {
                match test {
                    AlgebraicTest::Value => {
                        ("Z3_algebraic_is_value", z3_sys::Z3_algebraic_is_value(c, a))
                    }
                    AlgebraicTest::Pos => {
                        ("Z3_algebraic_is_pos", z3_sys::Z3_algebraic_is_pos(c, a))
                    }
                    AlgebraicTest::Neg => {
                        ("Z3_algebraic_is_neg", z3_sys::Z3_algebraic_is_neg(c, a))
                    }
                    AlgebraicTest::Zero => {
                        ("Z3_algebraic_is_zero", z3_sys::Z3_algebraic_is_zero(c, a))
                    }
                }
            }
        };
        super::super::unlogged::note(name);
        answer
    }

    impl Executor {
        fn raw_term(&self, t: TermId) -> Result<Z3_ast, ExecError> {
            Ok(self.z3_term(t)?.get_z3_ast())
        }

        /// Runs an algebraic call (the reference state has checked it).
        pub(in super::super) fn algebraic_call(
            &mut self,
            call: &model::Call,
        ) -> Result<Outcome, ExecError> {
            use model::Call as C;
            let ctx = self.main.clone();
            let c = ctx.get_z3_context();
            let term = |raw: Option<Z3_ast>, what: &str| -> Result<Outcome, ExecError> {
                let raw = raw.ok_or_else(|| ExecError::Z3(format!("{what} returned NULL")))?;
                // SAFETY: a non-NULL AST Z3 just made in the thread-local context.
                Ok(Outcome::Term(unsafe { Dynamic::wrap(&ctx, raw) }))
            };
            // SAFETY (every block below): z3-sys calls on live ASTs of the thread-local
            // context, guarded so that an error code becomes an error.
            match call {
                C::AlgebraicArith { op, a, b } => {
                    let (a, b) = (self.raw_term(*a)?, self.raw_term(*b)?);
                    let raw = self.main(|| unsafe {
                        match op {
                            RcfOp::Add => z3_sys::Z3_algebraic_add(c, a, b),
                            RcfOp::Sub => z3_sys::Z3_algebraic_sub(c, a, b),
                            RcfOp::Mul => z3_sys::Z3_algebraic_mul(c, a, b),
                            RcfOp::Div => z3_sys::Z3_algebraic_div(c, a, b),
                        }
                    })?;
                    let off_by_one = *op == RcfOp::Add
                        && matches!(self.config.inject, Some(super::inject::Fault::WrongRcf));
                    match (raw, off_by_one) {
                        // The injected fault: a sum one too large. The sum is held by its
                        // term while the wrong one is made from it.
                        (Some(sum), true) => {
                            // SAFETY: as above; the sum is wrapped (counted) first.
                            let sum = unsafe { Dynamic::wrap(&ctx, sum) };
                            let raw = self.main(|| unsafe {
                                let one = z3_sys::Z3_mk_real(c, 1, 1)?;
                                z3_sys::Z3_algebraic_add(c, sum.get_z3_ast(), one)
                            })?;
                            term(raw, call.name())
                        }
                        (raw, _) => term(raw, call.name()),
                    }
                }
                C::AlgebraicPower(a, k) => {
                    let a = self.raw_term(*a)?;
                    let raw = self.main(|| unsafe { z3_sys::Z3_algebraic_power(c, a, *k) })?;
                    term(raw, "Z3_algebraic_power")
                }
                C::AlgebraicRoot(a, k) => {
                    let a = self.raw_term(*a)?;
                    let raw = self.main(|| unsafe { z3_sys::Z3_algebraic_root(c, a, *k) })?;
                    term(raw, "Z3_algebraic_root")
                }
                C::AlgebraicCompare { cmp, a, b } => {
                    let (a, b) = (self.raw_term(*a)?, self.raw_term(*b)?);
                    let answer = self.main(|| compare(c, *cmp, a, b))?;
                    Ok(Outcome::Value(answer.to_string()))
                }
                C::AlgebraicSign(a) => {
                    let a = self.raw_term(*a)?;
                    let sign = self.main(|| unsafe { z3_sys::Z3_algebraic_sign(c, a) })?;
                    Ok(Outcome::Value(sign.to_string()))
                }
                C::AlgebraicIs { test: which, term } => {
                    let a = self.raw_term(*term)?;
                    let answer = self.main(|| test(c, *which, a))?;
                    Ok(Outcome::Value(answer.to_string()))
                }
                _ => Err(ExecError::Malformed(format!(
                    "`{}` is no algebraic call",
                    call.name()
                ))),
            }
        }

        /// `check_algebraic tA tB`.
        pub(in super::super) fn check_algebraic(
            &mut self,
            check: &Check,
            a: TermId,
            b: TermId,
        ) -> Result<(), ExecError> {
            let (ra, rb) = (self.raw_term(a)?, self.raw_term(b)?);
            let ia = self
                .state
                .algebraic_number(a)
                .map_err(super::super::malformed)?
                .cloned();
            let ib = self
                .state
                .algebraic_number(b)
                .map_err(super::super::malformed)?
                .cloned();
            let c = self.main.get_z3_context();
            let answers: Vec<(RcfCmp, bool)> = self.main(|| {
                RcfCmp::ALL
                    .iter()
                    .map(|cmp| (*cmp, compare(c, *cmp, ra, rb)))
                    .collect()
            })?;
            let (consistent, said) = super::six_comparisons_agree(&a, &b, &answers);
            if !consistent {
                return Err(Self::rcf_finding(
                    check,
                    format!(
                        "Z3's algebraic comparisons of {a} and {b} contradict each other ({said})"
                    ),
                    "algebraic comparisons contradict each other",
                ));
            }
            if let (Some(ia), Some(ib)) = (&ia, &ib) {
                for (cmp, z3_says) in &answers {
                    if ia.compare(*cmp, ib).is_some_and(|truth| truth != *z3_says) {
                        return Err(Self::rcf_finding(
                            check,
                            format!(
                                "Z3 answers {a} {} {b}: {z3_says}, exact arithmetic says {} \
                                 ({a} in {}, {b} in {})",
                                cmp_name(*cmp),
                                !z3_says,
                                show(ia),
                                show(ib)
                            ),
                            &format!("algebraic {} departs from exact arithmetic", cmp_name(*cmp)),
                        ));
                    }
                }
                self.count("algebraic: comparisons judged");
            }
            for (id, raw, interval) in [(a, ra, &ia), (b, rb, &ib)] {
                let (sign, is_value, pos, neg, zero) = self.main(|| unsafe {
                    (
                        z3_sys::Z3_algebraic_sign(c, raw),
                        test(c, AlgebraicTest::Value, raw),
                        test(c, AlgebraicTest::Pos, raw),
                        test(c, AlgebraicTest::Neg, raw),
                        test(c, AlgebraicTest::Zero, raw),
                    )
                })?;
                let agree = is_value
                    && pos == (sign > 0)
                    && neg == (sign < 0)
                    && zero == (sign == 0)
                    && (-1..=1).contains(&sign);
                if !agree {
                    return Err(Self::rcf_finding(
                        check,
                        format!(
                            "Z3's tests of {id} contradict each other (sign {sign}, is_value \
                             {is_value}, is_pos {pos}, is_neg {neg}, is_zero {zero})"
                        ),
                        "algebraic sign tests contradict each other",
                    ));
                }
                let Some(interval) = interval else { continue };
                let zero = model::rcf::Interval::zero();
                let decided = if interval.compare(RcfCmp::Gt, &zero) == Some(true) {
                    Some(1)
                } else if interval.compare(RcfCmp::Lt, &zero) == Some(true) {
                    Some(-1)
                } else if interval.compare(RcfCmp::Eq, &zero) == Some(true) {
                    Some(0)
                } else {
                    None
                };
                if let Some(expected) = decided.filter(|e| *e != sign) {
                    return Err(Self::rcf_finding(
                        check,
                        format!(
                            "Z3's sign of {id} is {sign}, exact arithmetic says {expected} ({id} in {})",
                            show(interval)
                        ),
                        "algebraic sign departs from exact arithmetic",
                    ));
                }
            }
            Ok(())
        }
    }
}
