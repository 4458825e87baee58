//! The polynomials of algebraic numbers in the executor: `check_algebraic_poly` (what Z3 says
//! an algebraic number is made of: its polynomial, root index and bounds, and the
//! evaluation and roots of polynomials, against exact rational arithmetic and Sturm's
//! theorem, `model::rcf`) and `check_subresultants` (`Z3_polynomial_subresultants` against
//! the Euclidean remainder sequence). The polynomials are terms made here through z3-sys
//! (the `z3` crate has no wrapper of these functions), every AST held by a `Dynamic`.

use super::{ExecError, Executor};
use model::finding::{Failure, FailureKind};
use model::rcf::{parse_rational, product, rational_text, real_roots, remainder_count, value_at};
use model::rcf::{Bound, Interval};
use model::{Check, TermId};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use std::ffi::{CStr, CString};
use z3::ast::{Ast, Dynamic};
use z3_sys::{Z3_ast, Z3_ast_vector, Z3_context};

/// The precisions `check_algebraic_poly` asks the bounds of an irrational number at.
const PRECISIONS: [u32; 3] = [1, 2, 3];

/// How finely the reference isolates the roots of a number's polynomial (bits, relative to
/// the Cauchy bound).
const ROOT_BITS: u32 = 40;

/// The highest degree of a number's polynomial whose roots `check_algebraic_poly` isolates
/// and asks Z3 for (sums of roots of roots reach degrees where both take long); above it
/// only the bounds are judged.
const MAX_ROOTS_DEGREE: usize = 12;

fn finding(check: &Check, message: String, cause: &str) -> ExecError {
    ExecError::Oracle(
        Failure::new(FailureKind::Rcf, message)
            .with_cause(format!("{}: {cause}", check.name()))
            .at_call(check.name()),
    )
}

/// The closed interval [lo, hi].
fn closed(lo: BigRational, hi: BigRational) -> Interval {
    Interval {
        lo: Bound {
            value: lo,
            open: false,
        },
        hi: Bound {
            value: hi,
            open: false,
        },
    }
}

/// Whether two intervals certainly hold no number in common.
fn disjoint(a: &Interval, b: &Interval) -> bool {
    a.lt(b) == Some(true) || b.lt(a) == Some(true)
}

fn sign(q: &BigRational) -> i32 {
    if q.is_zero() {
        0
    } else if q.is_positive() {
        1
    } else {
        -1
    }
}

/// Z3's text of a rational numeral, `N`, `-N` or `N/D` (`model::rcf::parse_rational`, without
/// its bound on the length: subresultants of polynomials with large coefficients are
/// larger still).
fn parse_numeral(text: &str) -> Option<BigRational> {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let (negative, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (n, d) = body.split_once('/').unwrap_or((body, "1"));
    if !digits(n) || !digits(d) {
        return parse_rational(text);
    }
    let d: BigInt = d.parse().ok()?;
    if d.is_zero() {
        return None;
    }
    let value = BigRational::new(n.parse().ok()?, d);
    Some(if negative { -value } else { value })
}

fn show_poly(p: &[BigRational]) -> String {
    format!(
        "[{}]",
        p.iter().map(rational_text).collect::<Vec<_>>().join(", ")
    )
}

impl Executor {
    /// An AST Z3 just returned, held (referenced) by a `Dynamic`.
    fn held(&self, raw: Option<Z3_ast>, what: &str) -> Result<Dynamic, ExecError> {
        let raw = raw.ok_or_else(|| ExecError::Z3(format!("{what} returned NULL")))?;
        // SAFETY: a non-NULL AST Z3 just made in the thread-local context.
        Ok(unsafe { Dynamic::wrap(&self.main, raw) })
    }

    /// The elements of an AST vector Z3 just returned, each held; the vector is released.
    fn held_items(&self, v: Option<Z3_ast_vector>, what: &str) -> Result<Vec<Dynamic>, ExecError> {
        let v = v.ok_or_else(|| ExecError::Z3(format!("{what} returned NULL")))?;
        // SAFETY: a live vector Z3 just returned in the context.
        Ok(unsafe { super::read::ast_vector_items(&self.main, v) })
    }

    /// The Real numeral `q`.
    fn real_numeral(&self, q: &BigRational) -> Result<Dynamic, ExecError> {
        let c = self.main.get_z3_context();
        let text = CString::new(rational_text(q)).expect("a rational's text has no NUL");
        let real = z3::Sort::real();
        let raw = self.main(|| unsafe {
            // SAFETY: a live sort of the context and a NUL-terminated text.
            z3_sys::Z3_mk_numeral(c, text.as_ptr(), real.get_z3_sort())
        })?;
        self.held(raw, "Z3_mk_numeral")
    }

    /// The rational a numeral AST stands for, `None` for an AST that is no rational numeral.
    fn numeral_value(&self, a: &Dynamic) -> Result<Option<BigRational>, ExecError> {
        let c = self.main.get_z3_context();
        let raw = a.get_z3_ast();
        // SAFETY: a live AST of the context; the string is copied before the next call.
        let text = self.main(|| unsafe {
            match z3_sys::Z3_is_numeral_ast(c, raw) && !z3_sys::Z3_is_algebraic_number(c, raw) {
                true => {
                    let s = z3_sys::Z3_get_numeral_string(c, raw);
                    (!s.is_null()).then(|| CStr::from_ptr(s).to_string_lossy().into_owned())
                }
                false => None,
            }
        })?;
        Ok(text.as_deref().and_then(parse_numeral))
    }

    /// The term C0 + C1·x + ... (products of x, as Z3's polynomial reader takes them).
    fn polynomial_term(&self, coeffs: &[BigRational], x: &Dynamic) -> Result<Dynamic, ExecError> {
        let mut monomials = Vec::new();
        for (k, coeff) in coeffs.iter().enumerate().filter(|(_, q)| !q.is_zero()) {
            let mut factors = vec![self.real_numeral(coeff)?];
            factors.extend(std::iter::repeat_n(x.clone(), k));
            monomials.push(self.apply_nary(&factors, z3_sys::Z3_mk_mul, "Z3_mk_mul")?);
        }
        match monomials.len() {
            0 => self.real_numeral(&BigRational::zero()),
            _ => self.apply_nary(&monomials, z3_sys::Z3_mk_add, "Z3_mk_add"),
        }
    }

    /// `make` (`Z3_mk_add`, `Z3_mk_mul`) of the terms, or the one term itself.
    fn apply_nary(
        &self,
        terms: &[Dynamic],
        make: unsafe extern "C" fn(Z3_context, u32, *const Z3_ast) -> Option<Z3_ast>,
        what: &str,
    ) -> Result<Dynamic, ExecError> {
        if terms.len() == 1 {
            return Ok(terms[0].clone());
        }
        let c = self.main.get_z3_context();
        let raw: Vec<Z3_ast> = terms.iter().map(|t| t.get_z3_ast()).collect();
        // SAFETY: live ASTs of the context, held by `terms` during the call.
        let made = self.main(|| unsafe { make(c, raw.len() as u32, raw.as_ptr()) })?;
        self.held(made, what)
    }

    /// Whether the injected fault `wrong-rcf` is on: the checks here read Z3's answers wrong.
    fn wrong_rcf(&self) -> bool {
        matches!(self.config.inject, Some(super::inject::Fault::WrongRcf))
    }

    /// The sign `Z3_algebraic_eval` gives of the polynomial term `p` (over the bound variable
    /// 0) at `at` (read negated under the injected fault).
    fn eval_sign(&self, p: &Dynamic, at: &Dynamic) -> Result<i32, ExecError> {
        let c = self.main.get_z3_context();
        let mut args = [at.get_z3_ast()];
        // SAFETY: live ASTs of the context; Z3 reads the one argument.
        let sign = self.main(|| unsafe {
            z3_sys::Z3_algebraic_eval(c, p.get_z3_ast(), 1, args.as_mut_ptr())
        })?;
        Ok(if self.wrong_rcf() { -sign } else { sign })
    }

    /// The roots `Z3_algebraic_roots` gives of the polynomial term `p` over the variable 0.
    fn algebraic_roots(&self, p: &Dynamic) -> Result<Vec<Dynamic>, ExecError> {
        let c = self.main.get_z3_context();
        // SAFETY: a live AST of the context and no other variable (n = 0).
        let v = self.main(|| unsafe {
            z3_sys::Z3_algebraic_roots(c, p.get_z3_ast(), 0, std::ptr::null_mut())
        })?;
        self.held_items(v, "Z3_algebraic_roots")
    }

    fn algebraic_eq(&self, a: &Dynamic, b: &Dynamic) -> Result<bool, ExecError> {
        let c = self.main.get_z3_context();
        // SAFETY: two live numerals of the context.
        self.main(|| unsafe { z3_sys::Z3_algebraic_eq(c, a.get_z3_ast(), b.get_z3_ast()) })
    }

    /// `check_algebraic_poly tA`: see [`model::Check::AlgebraicPoly`].
    pub(super) fn check_algebraic_poly(
        &mut self,
        check: &Check,
        a: TermId,
    ) -> Result<(), ExecError> {
        let known = self
            .state
            .algebraic_number(a)
            .map_err(super::malformed)?
            .cloned();
        let number = self.z3_term(a)?.clone();
        let c = self.main.get_z3_context();
        let raw = number.get_z3_ast();
        // SAFETY: a live AST of the context.
        let irrational = self.main(|| unsafe { z3_sys::Z3_is_algebraic_number(c, raw) })?;
        let real = z3::Sort::real();
        // SAFETY: a live sort of the context.
        let x = self.main(|| unsafe { z3_sys::Z3_mk_bound(c, 0, real.get_z3_sort()) })?;
        let x = self.held(x, "Z3_mk_bound")?;
        let point = known.as_ref().and_then(Interval::as_point).cloned();
        match (irrational, point) {
            (true, Some(v)) => Err(finding(
                check,
                format!(
                    "Z3_is_algebraic_number says {a} is irrational, exact arithmetic says it is {}",
                    rational_text(&v)
                ),
                "a rational is an irrational algebraic number",
            )),
            (true, None) => self.irrational_poly(check, a, &number, known.as_ref(), &x),
            (false, Some(v)) => self.rational_poly(check, a, &number, &v, &x),
            // A rational the reference state knows only by an interval (a root that came
            // out rational): Z3's own value, which must lie in the interval.
            (false, None) => match self.numeral_value(&number)? {
                Some(v)
                    if known
                        .as_ref()
                        .is_some_and(|k| disjoint(k, &closed(v.clone(), v.clone()))) =>
                {
                    Err(finding(
                        check,
                        format!(
                            "Z3's value of the rational {a} is {}, outside its interval {}",
                            rational_text(&v),
                            known.as_ref().map_or(String::new(), |k| k.to_string())
                        ),
                        "a rational's value departs from exact arithmetic",
                    ))
                }
                Some(v) => self.rational_poly(check, a, &number, &v, &x),
                None => {
                    self.count("algebraic: polynomial unjudged (no value)");
                    Ok(())
                }
            },
        }
    }

    /// The irrational half of `check_algebraic_poly`.
    fn irrational_poly(
        &mut self,
        check: &Check,
        a: TermId,
        number: &Dynamic,
        known: Option<&Interval>,
        x: &Dynamic,
    ) -> Result<(), ExecError> {
        let c = self.main.get_z3_context();
        let raw = number.get_z3_ast();
        // SAFETY (every block below): z3-sys calls on live ASTs of the context, guarded.
        let v = self.main(|| unsafe { z3_sys::Z3_algebraic_get_poly(c, raw) })?;
        let items = self.held_items(v, "Z3_algebraic_get_poly")?;
        let mut poly = Vec::new();
        for item in &items {
            match self.numeral_value(item)? {
                Some(q) => poly.push(q),
                None => {
                    return Err(finding(
                        check,
                        format!("a coefficient of {a}'s polynomial is no rational numeral"),
                        "a polynomial coefficient is no numeral",
                    ))
                }
            }
        }
        if poly.len() < 3 || poly.last().is_none_or(Zero::is_zero) {
            return Err(finding(
                check,
                format!(
                    "the polynomial of the irrational {a} is {}: not of degree 2 or more",
                    show_poly(&poly)
                ),
                "the polynomial of an irrational number is of degree below 2",
            ));
        }
        let i = self.main(|| unsafe { z3_sys::Z3_algebraic_get_i(c, raw) })? as usize;
        let small = poly.len() - 1 <= MAX_ROOTS_DEGREE;
        if !small {
            self.count("algebraic: polynomial above the judged degree (bounds only)");
        }
        let roots = match small {
            true => real_roots(&poly, ROOT_BITS),
            false => vec![],
        };
        if !small {
            // No roots isolated: the index is not judged.
        } else if i == 0 {
            // Z3 4.8.12 answers 0 for a number it made by a root or by arithmetic (it
            // computes the index lazily only since): no index to judge, the rest is.
            self.count("algebraic: root index 0 (not computed)");
        } else if i > roots.len() {
            return Err(finding(
                check,
                format!(
                    "{a} is root {i} of {} by Z3_algebraic_get_i, which has {} real roots",
                    show_poly(&poly),
                    roots.len()
                ),
                "the root index is outside the roots",
            ));
        }
        let root = roots.get(i.wrapping_sub(1)).cloned();
        if let Some((known, root)) = known.zip(root.as_ref()).filter(|(k, r)| disjoint(k, r)) {
            return Err(finding(
                check,
                format!(
                    "{a} is in {known}, but root {i} of its polynomial {} is in {root}",
                    show_poly(&poly)
                ),
                "the root index departs from exact arithmetic",
            ));
        }
        let mut previous: Option<(BigRational, BigRational)> = None;
        let mut first_lower = None;
        for precision in PRECISIONS {
            let lo =
                self.main(|| unsafe { z3_sys::Z3_get_algebraic_number_lower(c, raw, precision) })?;
            let lo = self.held(lo, "Z3_get_algebraic_number_lower")?;
            let hi =
                self.main(|| unsafe { z3_sys::Z3_get_algebraic_number_upper(c, raw, precision) })?;
            let hi = self.held(hi, "Z3_get_algebraic_number_upper")?;
            let (Some(lo), Some(hi)) = (self.numeral_value(&lo)?, self.numeral_value(&hi)?) else {
                return Err(finding(
                    check,
                    format!("a bound of {a} at precision {precision} is no rational numeral"),
                    "a bound is no numeral",
                ));
            };
            let width = BigRational::new(BigInt::one(), BigInt::one() << (4 * precision));
            let bracket = closed(lo.clone(), hi.clone());
            let shrinks = previous
                .as_ref()
                .is_none_or(|(plo, phi)| lo >= *plo && hi <= *phi);
            let problem = if lo > hi {
                Some("the lower bound is above the upper one")
            } else if &hi - &lo > width {
                Some("the bounds are further apart than 2^(-4·precision)")
            } else if root.iter().chain(known).any(|r| disjoint(&bracket, r))
                || (small && roots.iter().all(|r| disjoint(&bracket, r)))
            {
                Some("the bounds do not hold the number")
            } else if !shrinks {
                Some("the bounds widen as the precision grows")
            } else {
                None
            };
            if let Some(problem) = problem {
                return Err(finding(
                    check,
                    format!(
                        "{a} (root {i} of {}, in {}) has bounds [{}, {}] at precision \
                         {precision}: {problem}",
                        show_poly(&poly),
                        root.as_ref()
                            .or(known)
                            .map_or("?".into(), |r| r.to_string()),
                        rational_text(&lo),
                        rational_text(&hi)
                    ),
                    problem,
                ));
            }
            first_lower.get_or_insert(lo.clone());
            previous = Some((lo, hi));
        }
        if !small {
            return Ok(());
        }
        let p = self.polynomial_term(&poly, x)?;
        let at_number = self.eval_sign(&p, number)?;
        if at_number != 0 {
            return Err(finding(
                check,
                format!(
                    "Z3_algebraic_eval of {a}'s own polynomial {} at {a} has sign {at_number}",
                    show_poly(&poly)
                ),
                "a number is no zero of its own polynomial",
            ));
        }
        if let Some(lo) = first_lower {
            let expected = sign(&value_at(&poly, &lo));
            let at = self.real_numeral(&lo)?;
            let z3_says = self.eval_sign(&p, &at)?;
            if z3_says != expected {
                return Err(finding(
                    check,
                    format!(
                        "Z3_algebraic_eval of {} at {} has sign {z3_says}, exact arithmetic \
                         says {expected}",
                        show_poly(&poly),
                        rational_text(&lo)
                    ),
                    "eval at a rational departs from exact arithmetic",
                ));
            }
        }
        let found = self.algebraic_roots(&p)?;
        self.judge_roots(check, &poly, &p, &found, roots.len())?;
        let mut equal = 0;
        for r in &found {
            equal += usize::from(self.algebraic_eq(r, number)?);
        }
        if equal != 1 {
            return Err(finding(
                check,
                format!(
                    "{equal} of the roots Z3_algebraic_roots gives of {a}'s polynomial {} equal {a}",
                    show_poly(&poly)
                ),
                "a number is not among the roots of its polynomial",
            ));
        }
        self.count("algebraic: irrational polynomials judged");
        Ok(())
    }

    /// The roots Z3 found of `poly` (its term `p`): as many as Sturm counts (`expected`),
    /// zeros of it by `Z3_algebraic_eval`, distinct by `Z3_algebraic_eq`.
    fn judge_roots(
        &mut self,
        check: &Check,
        poly: &[BigRational],
        p: &Dynamic,
        found: &[Dynamic],
        expected: usize,
    ) -> Result<(), ExecError> {
        if found.len() != expected {
            return Err(finding(
                check,
                format!(
                    "Z3_algebraic_roots gives {} roots of {}, Sturm's theorem counts {expected}",
                    found.len(),
                    show_poly(poly)
                ),
                "root count departs from Sturm's theorem",
            ));
        }
        for (i, r) in found.iter().enumerate() {
            let s = self.eval_sign(p, r)?;
            if s != 0 {
                return Err(finding(
                    check,
                    format!(
                        "root {i} of {} by Z3_algebraic_roots: Z3_algebraic_eval there has sign {s}",
                        show_poly(poly)
                    ),
                    "a root is no zero of its polynomial",
                ));
            }
            for (j, earlier) in found[..i].iter().enumerate() {
                if self.algebraic_eq(earlier, r)? {
                    return Err(finding(
                        check,
                        format!(
                            "roots {j} and {i} Z3_algebraic_roots gives of {} are equal",
                            show_poly(poly)
                        ),
                        "a root is found twice",
                    ));
                }
            }
        }
        Ok(())
    }

    /// The rational half of `check_algebraic_poly`: (x - v)²(x - v - 1).
    fn rational_poly(
        &mut self,
        check: &Check,
        a: TermId,
        number: &Dynamic,
        v: &BigRational,
        x: &Dynamic,
    ) -> Result<(), ExecError> {
        let one = BigRational::one();
        let w = v + &one;
        let linear = |r: &BigRational| vec![-r.clone(), one.clone()];
        let poly = product(&product(&linear(v), &linear(v)), &linear(&w));
        let p = self.polynomial_term(&poly, x)?;
        let found = self.algebraic_roots(&p)?;
        let mut values = Vec::new();
        for r in &found {
            values.push(self.numeral_value(r)?);
        }
        values.sort();
        let expected = vec![Some(v.clone()), Some(w.clone())];
        if values != expected {
            let shown: Vec<String> = values
                .iter()
                .map(|q| q.as_ref().map_or("an irrational".into(), rational_text))
                .collect();
            return Err(finding(
                check,
                format!(
                    "Z3_algebraic_roots of {} gives [{}], exactly its roots are {} and {}",
                    show_poly(&poly),
                    shown.join(", "),
                    rational_text(v),
                    rational_text(&w)
                ),
                "the roots of a rational polynomial depart from exact arithmetic",
            ));
        }
        let half = BigRational::new(1.into(), 2.into());
        for at in [v - &one, v + &half, v + &one + &one] {
            let expected = sign(&value_at(&poly, &at));
            let point = self.real_numeral(&at)?;
            let z3_says = self.eval_sign(&p, &point)?;
            if z3_says != expected {
                return Err(finding(
                    check,
                    format!(
                        "Z3_algebraic_eval of {} at {} has sign {z3_says}, exact arithmetic \
                         says {expected}",
                        show_poly(&poly),
                        rational_text(&at)
                    ),
                    "eval at a rational departs from exact arithmetic",
                ));
            }
        }
        let at_number = self.eval_sign(&p, number)?;
        if at_number != 0 {
            return Err(finding(
                check,
                format!(
                    "Z3_algebraic_eval of {} at {a} (exactly {}) has sign {at_number}",
                    show_poly(&poly),
                    rational_text(v)
                ),
                "eval at a root departs from exact arithmetic",
            ));
        }
        self.count("algebraic: rational polynomials judged");
        Ok(())
    }

    /// `check_subresultants tP... and tQ...`: see [`model::Check::Subresultants`].
    pub(super) fn check_subresultants(
        &mut self,
        check: &Check,
        p: &[TermId],
        q: &[TermId],
    ) -> Result<(), ExecError> {
        let p_values = self
            .state
            .rational_polynomial(p)
            .map_err(super::malformed)?;
        let q_values = self
            .state
            .rational_polynomial(q)
            .map_err(super::malformed)?;
        let c = self.main.get_z3_context();
        let name = CString::new("x!subresultants").expect("no NUL");
        let real = z3::Sort::real();
        // SAFETY: a symbol and a sort of the context.
        let x = self.main(|| unsafe {
            let symbol = z3_sys::Z3_mk_string_symbol(c, name.as_ptr());
            symbol.and_then(|s| z3_sys::Z3_mk_const(c, s, real.get_z3_sort()))
        })?;
        let x = self.held(x, "Z3_mk_const")?;
        // The polynomials are built of the trace's coefficient terms themselves.
        let build = |this: &Self, coeffs: &[TermId]| -> Result<Dynamic, ExecError> {
            let mut monomials = Vec::new();
            for (k, t) in coeffs.iter().enumerate() {
                let mut factors = vec![this.z3_term(*t)?.clone()];
                factors.extend(std::iter::repeat_n(x.clone(), k));
                monomials.push(this.apply_nary(&factors, z3_sys::Z3_mk_mul, "Z3_mk_mul")?);
            }
            this.apply_nary(&monomials, z3_sys::Z3_mk_add, "Z3_mk_add")
        };
        let (pt, qt) = (build(self, p)?, build(self, q)?);
        // SAFETY: live ASTs of the context.
        let v = self.main(|| unsafe {
            z3_sys::Z3_polynomial_subresultants(c, pt.get_z3_ast(), qt.get_z3_ast(), x.get_z3_ast())
        })?;
        let mut found = self.held_items(v, "Z3_polynomial_subresultants")?;
        if self.wrong_rcf() {
            // The injected fault: the chain read one coefficient short.
            found.pop();
        }
        let mut values = Vec::new();
        for item in &found {
            // Z3 writes a negative constant of many digits as the negation of a numeral
            // (`(- N)`): simplified, a constant is a numeral.
            // SAFETY: a live AST of the context.
            let simplified = self.main(|| unsafe { z3_sys::Z3_simplify(c, item.get_z3_ast()) })?;
            let item = self.held(simplified, "Z3_simplify")?;
            match self.numeral_value(&item)? {
                Some(value) => values.push(value),
                None => {
                    return Err(finding(
                        check,
                        format!(
                            "a subresultant coefficient of {} and {} in x is no numeral: {}",
                            show_poly(&p_values),
                            show_poly(&q_values),
                            item
                        ),
                        "a subresultant coefficient of univariate polynomials is no numeral",
                    ))
                }
            }
        }
        let n = remainder_count(&p_values, &q_values);
        let ok = match n {
            0 => values.len() == 1 && values[0].is_zero(),
            _ => values.len() == n && values.iter().all(|v| !v.is_zero()),
        };
        if !ok {
            return Err(finding(
                check,
                format!(
                    "Z3_polynomial_subresultants of {} and {} gives [{}]; the Euclidean \
                     remainder sequence has {n} nonzero remainders below the lower degree, so \
                     {}",
                    show_poly(&p_values),
                    show_poly(&q_values),
                    values
                        .iter()
                        .map(rational_text)
                        .collect::<Vec<_>>()
                        .join(", "),
                    match n {
                        0 => "the one coefficient 0".to_string(),
                        _ => format!("{n} nonzero coefficients"),
                    }
                ),
                "the subresultant chain departs from the remainder sequence",
            ));
        }
        self.count("algebraic: subresultant chains judged");
        Ok(())
    }
}
