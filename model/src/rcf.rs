//! What the reference state knows of a real closed field number (`Z3_rcf_num`): an interval
//! with exact rational endpoints that holds it, a point where the number is rational.
//!
//! The oracle of the RCF family judges Z3 by these intervals: a comparison that the
//! intervals decide must be answered so, a rational number must print as its fraction, a
//! decimal approximation must lie near the interval. Rationals stay exact through every
//! operation (point intervals); π, e and the infinitesimal ε enter as intervals (3.14159... <
//! π < 3.14159..., 0 < ε < 10^-40), and the roots of a polynomial with rational coefficients
//! are isolated exactly by Sturm sequences ([`real_roots`]). What the intervals cannot bound
//! (the inverse of ε, the roots of a polynomial with irrational coefficients) is unknown
//! (`None`), and nothing is judged of it.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use std::cmp::Ordering;

/// One end of an [`Interval`]: a rational, and whether the number may equal it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bound {
    pub value: BigRational,
    /// The number differs from `value` (an open end).
    pub open: bool,
}

/// A closed, open or half-open interval with rational ends that holds a number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interval {
    pub lo: Bound,
    pub hi: Bound,
}

fn rat(n: i64) -> BigRational {
    BigRational::from_integer(BigInt::from(n))
}

/// `digits` read as a decimal fraction (`"314159"`, 5 → 3.14159).
fn decimal(digits: &str, scale: u32) -> BigRational {
    let n: BigInt = digits.parse().expect("decimal digits");
    BigRational::new(n, BigInt::from(10).pow(scale))
}

impl Interval {
    /// The number `q` itself.
    pub fn point(q: BigRational) -> Interval {
        Interval {
            lo: Bound {
                value: q.clone(),
                open: false,
            },
            hi: Bound {
                value: q,
                open: false,
            },
        }
    }

    /// The number zero.
    pub fn zero() -> Interval {
        Interval::point(BigRational::zero())
    }

    /// The open interval (lo, hi).
    pub fn open(lo: BigRational, hi: BigRational) -> Interval {
        Interval {
            lo: Bound {
                value: lo,
                open: true,
            },
            hi: Bound {
                value: hi,
                open: true,
            },
        }
    }

    /// π, to 20 decimals on each side.
    pub fn pi() -> Interval {
        Interval::open(
            decimal("314159265358979323846", 20),
            decimal("314159265358979323847", 20),
        )
    }

    /// e, to 20 decimals on each side.
    pub fn e() -> Interval {
        Interval::open(
            decimal("271828182845904523536", 20),
            decimal("271828182845904523537", 20),
        )
    }

    /// ε, positive and below every positive rational: below 10^-40 in particular.
    pub fn infinitesimal() -> Interval {
        Interval::open(BigRational::zero(), decimal("1", 40))
    }

    /// The rational the interval is, if it is a point.
    pub fn as_point(&self) -> Option<&BigRational> {
        (self.lo.value == self.hi.value && !self.lo.open && !self.hi.open).then_some(&self.lo.value)
    }

    /// Whether the number is certainly not negative.
    pub fn nonnegative(&self) -> bool {
        !self.lo.value.is_negative()
    }

    /// Whether the number is certainly not zero.
    pub fn excludes_zero(&self) -> bool {
        let zero = BigRational::zero();
        self.lo.value > zero
            || (self.lo.value == zero && self.lo.open)
            || self.hi.value < zero
            || (self.hi.value == zero && self.hi.open)
    }

    pub fn neg(&self) -> Interval {
        Interval {
            lo: Bound {
                value: -self.hi.value.clone(),
                open: self.hi.open,
            },
            hi: Bound {
                value: -self.lo.value.clone(),
                open: self.lo.open,
            },
        }
    }

    pub fn add(&self, other: &Interval) -> Interval {
        Interval {
            lo: Bound {
                value: &self.lo.value + &other.lo.value,
                open: self.lo.open || other.lo.open,
            },
            hi: Bound {
                value: &self.hi.value + &other.hi.value,
                open: self.hi.open || other.hi.open,
            },
        }
    }

    pub fn sub(&self, other: &Interval) -> Interval {
        self.add(&other.neg())
    }

    pub fn mul(&self, other: &Interval) -> Interval {
        // The extremes of a product of intervals are products of ends. A product is attained
        // (closed) when both ends are, or when one of them is a closed zero.
        let product = |a: &Bound, b: &Bound| {
            let value = &a.value * &b.value;
            let closed_zero = (a.value.is_zero() && !a.open) || (b.value.is_zero() && !b.open);
            Bound {
                open: !closed_zero && (a.open || b.open),
                value,
            }
        };
        let candidates = [
            product(&self.lo, &other.lo),
            product(&self.lo, &other.hi),
            product(&self.hi, &other.lo),
            product(&self.hi, &other.hi),
        ];
        // Of equal values, a closed end is the wider bound.
        let pick = |want: Ordering| {
            candidates
                .iter()
                .fold(None::<&Bound>, |best, c| match best {
                    None => Some(c),
                    Some(b) => match c.value.cmp(&b.value) {
                        o if o == want => Some(c),
                        Ordering::Equal if !c.open => Some(c),
                        _ => Some(b),
                    },
                })
                .expect("four candidates")
                .clone()
        };
        Interval {
            lo: pick(Ordering::Less),
            hi: pick(Ordering::Greater),
        }
    }

    /// 1/x, where the interval does not hold zero.
    pub fn inv(&self) -> Option<Interval> {
        if !self.excludes_zero() || self.lo.value.is_zero() || self.hi.value.is_zero() {
            // An open end at zero makes 1/x unbounded.
            return None;
        }
        Some(Interval {
            lo: Bound {
                value: self.hi.value.recip(),
                open: self.hi.open,
            },
            hi: Bound {
                value: self.lo.value.recip(),
                open: self.lo.open,
            },
        })
    }

    pub fn div(&self, other: &Interval) -> Option<Interval> {
        other.inv().map(|inv| self.mul(&inv))
    }

    /// The real K-th root (K at least 1; for an even K, of a number not negative), bounded
    /// by bisection to 2^-48 of the ends' own scale.
    pub fn root(&self, k: u32) -> Option<Interval> {
        if k == 0 {
            return None;
        }
        if k.is_multiple_of(2) && self.lo.value.is_negative() {
            return None;
        }
        // The root of y >= 0 lies in [below, above]: below^k <= y <= above^k.
        let bounds = |y: &BigRational| {
            let (mut below, mut above) = (BigRational::zero(), y.clone().max(BigRational::one()));
            let two = rat(2);
            for _ in 0..48 {
                let mid = (&below + &above) / &two;
                if num_traits::pow(mid.clone(), k as usize) <= *y {
                    below = mid;
                } else {
                    above = mid;
                }
            }
            (below, above)
        };
        // An odd root is odd: the root of -y is minus the root of y.
        let signed = |y: &BigRational| {
            if y.is_negative() {
                let (b, a) = bounds(&-y.clone());
                (-a, -b)
            } else {
                bounds(y)
            }
        };
        let (lo, _) = signed(&self.lo.value);
        let (_, hi) = signed(&self.hi.value);
        Some(Interval {
            lo: Bound {
                value: lo,
                open: false,
            },
            hi: Bound {
                value: hi,
                open: false,
            },
        })
    }

    pub fn pow(&self, k: u32) -> Interval {
        (0..k).fold(Interval::point(BigRational::one()), |acc, _| acc.mul(self))
    }

    /// Whether the number is certainly below `other`'s (`Some(true)`), certainly not
    /// (`Some(false)`), or either (`None`).
    pub fn lt(&self, other: &Interval) -> Option<bool> {
        let below = self.hi.value < other.lo.value
            || (self.hi.value == other.lo.value && (self.hi.open || other.lo.open));
        if below {
            Some(true)
        } else if self.lo.value >= other.hi.value {
            Some(false)
        } else {
            None
        }
    }

    /// Whether the numbers are certainly equal, certainly not, or either.
    pub fn eq(&self, other: &Interval) -> Option<bool> {
        match (self.as_point(), other.as_point()) {
            (Some(a), Some(b)) => Some(a == b),
            _ if self.lt(other) == Some(true) || other.lt(self) == Some(true) => Some(false),
            _ => None,
        }
    }

    /// The answer of comparison `cmp` where the intervals decide it.
    pub fn compare(&self, cmp: RcfCmp, other: &Interval) -> Option<bool> {
        match cmp {
            RcfCmp::Lt => self.lt(other),
            RcfCmp::Gt => other.lt(self),
            RcfCmp::Le => other.lt(self).map(|b| !b),
            RcfCmp::Ge => self.lt(other).map(|b| !b),
            RcfCmp::Eq => self.eq(other),
            RcfCmp::Neq => self.eq(other).map(|b| !b),
        }
    }

    /// Whether the decimal approximation `text` that Z3 printed with `precision` digits
    /// after the point (`0.75`, exact; `3.1415926535?`, cut) is possible for the number: an
    /// exact one must be a value of the interval, a cut one within 10^-precision of one.
    /// Without `exact_means_exact` a text without `?` is taken for a cut one too: Z3 prints
    /// -1/4 + ε as `-0.25` (4.8.12 and 5.4.1), ε alone as `0.0000000000?`.
    pub fn admits_decimal(
        &self,
        text: &str,
        precision: u32,
        exact_means_exact: bool,
    ) -> Option<bool> {
        let (digits, cut) = match text.strip_suffix('?') {
            Some(d) => (d, true),
            None => (text, !exact_means_exact),
        };
        let value = crate::eval::value::parse_decimal(digits.trim_start_matches('-'))?;
        let value = if digits.starts_with('-') {
            -value
        } else {
            value
        };
        let slack = if cut {
            BigRational::new(BigInt::one(), BigInt::from(10).pow(precision))
        } else {
            BigRational::zero()
        };
        let around = Interval {
            lo: Bound {
                value: &value - &slack,
                open: false,
            },
            hi: Bound {
                value: &value + &slack,
                open: false,
            },
        };
        // Disjoint intervals: the text cannot be the number's.
        Some(self.lt(&around) != Some(true) && around.lt(self) != Some(true))
    }
}

impl std::fmt::Display for Interval {
    /// `3/4` for a point, else the ends to twelve significant digits, `(3.14159265359, 3.14159265359)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use num_traits::ToPrimitive;
        if let Some(q) = self.as_point() {
            return f.write_str(&rational_text(q));
        }
        let end = |q: &BigRational| {
            let exact = rational_text(q);
            if exact.len() <= 24 {
                exact
            } else {
                q.to_f64().map_or(exact, |x| format!("{x:.15e}"))
            }
        };
        write!(
            f,
            "{}{}, {}{}",
            if self.lo.open { "(" } else { "[" },
            end(&self.lo.value),
            end(&self.hi.value),
            if self.hi.open { ")" } else { "]" }
        )
    }
}

/// A comparison of two RCF numbers (`Z3_rcf_lt` ... `Z3_rcf_neq`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum RcfCmp {
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Neq,
}

impl RcfCmp {
    pub const ALL: [RcfCmp; 6] = [
        RcfCmp::Lt,
        RcfCmp::Gt,
        RcfCmp::Le,
        RcfCmp::Ge,
        RcfCmp::Eq,
        RcfCmp::Neq,
    ];
}

/// Reads an RCF rational as the reference state admits it for `rcf_rational`: an optional
/// minus, digits, then `/` and digits (a denominator that is not zero) or `.` and digits.
/// At most 100 characters: the number's size is bounded by the input's.
pub fn parse_rational(text: &str) -> Option<BigRational> {
    if text.is_empty() || text.len() > 100 {
        return None;
    }
    let (negative, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let value = if let Some((n, d)) = body.split_once('/') {
        if !digits(n) || !digits(d) {
            return None;
        }
        let d: BigInt = d.parse().ok()?;
        if d.is_zero() {
            return None;
        }
        BigRational::new(n.parse().ok()?, d)
    } else if let Some((i, f)) = body.split_once('.') {
        if !digits(i) || !digits(f) {
            return None;
        }
        crate::eval::value::parse_decimal(body)?
    } else if digits(body) {
        BigRational::from_integer(body.parse().ok()?)
    } else {
        return None;
    };
    Some(if negative { -value } else { value })
}

/// A rational as Z3's `Z3_rcf_num_to_string` prints it: `-3/4`, `2`.
pub fn rational_text(q: &BigRational) -> String {
    if q.is_integer() {
        q.numer().to_string()
    } else {
        format!("{}/{}", q.numer(), q.denom())
    }
}

/// p's coefficients without the zero ones at the top (lowest degree first).
fn trimmed(p: &[BigRational]) -> Vec<BigRational> {
    let mut p = p.to_vec();
    while p.last().is_some_and(Zero::is_zero) {
        p.pop();
    }
    p
}

fn eval(p: &[BigRational], x: &BigRational) -> BigRational {
    p.iter()
        .rev()
        .fold(BigRational::zero(), |acc, c| acc * x + c)
}

fn derivative(p: &[BigRational]) -> Vec<BigRational> {
    p.iter()
        .enumerate()
        .skip(1)
        .map(|(i, c)| c * rat(i as i64))
        .collect()
}

/// The quotient and remainder of a by b (b not zero).
fn div_rem(a: &[BigRational], b: &[BigRational]) -> (Vec<BigRational>, Vec<BigRational>) {
    let mut r = trimmed(a);
    let b = trimmed(b);
    let lead = b.last().expect("a divisor that is not zero").clone();
    let mut quotient = vec![BigRational::zero(); r.len().saturating_sub(b.len()) + 1];
    while r.len() >= b.len() && !r.is_empty() {
        let shift = r.len() - b.len();
        let factor = r.last().expect("not empty") / &lead;
        for (i, c) in b.iter().enumerate() {
            r[shift + i] = &r[shift + i] - &factor * c;
        }
        quotient[shift] = factor;
        r.pop();
        r = trimmed(&r);
    }
    (trimmed(&quotient), r)
}

/// The Sturm sequence of p's square-free part (p over gcd(p, p')), which has p's roots,
/// each simple: at a multiple root every polynomial of p's own sequence vanishes.
fn sturm(p: &[BigRational]) -> Vec<Vec<BigRational>> {
    let remainders = |first: Vec<BigRational>| {
        let mut seq = vec![first.clone(), trimmed(&derivative(&first))];
        while !seq.last().expect("two items").is_empty() {
            let n = seq.len();
            let r: Vec<BigRational> = div_rem(&seq[n - 2], &seq[n - 1])
                .1
                .into_iter()
                .map(|c| -c)
                .collect();
            seq.push(r);
        }
        seq.pop();
        seq
    };
    let seq = remainders(trimmed(p));
    let gcd = seq.last().expect("p itself");
    remainders(div_rem(p, gcd).0)
}

fn sign_changes(seq: &[Vec<BigRational>], x: &BigRational) -> usize {
    let signs: Vec<bool> = seq
        .iter()
        .map(|p| eval(p, x))
        .filter(|v| !v.is_zero())
        .map(|v| v.is_positive())
        .collect();
    signs.windows(2).filter(|w| w[0] != w[1]).count()
}

/// The value of the polynomial `p` (coefficients lowest degree first) at `x`.
pub fn value_at(p: &[BigRational], x: &BigRational) -> BigRational {
    eval(p, x)
}

/// The product of two polynomials (coefficients lowest degree first).
pub fn product(p: &[BigRational], q: &[BigRational]) -> Vec<BigRational> {
    let mut out = vec![BigRational::zero(); (p.len() + q.len()).saturating_sub(1)];
    for (i, a) in p.iter().enumerate() {
        for (j, b) in q.iter().enumerate() {
            out[i + j] = &out[i + j] + a * b;
        }
    }
    trimmed(&out)
}

/// The number of remainders of the Euclidean remainder sequence of `p` and `q` (both of
/// degree at least 1) after the first two (the one of higher degree, `p` when equal, then
/// the other) that are not zero: the length of the principal subresultant coefficient
/// chain Z3's `Z3_polynomial_subresultants` gives, one per degree the sequence meets below
/// the lower degree (the fundamental theorem of subresultants).
pub fn remainder_count(p: &[BigRational], q: &[BigRational]) -> usize {
    let (p, q) = (trimmed(p), trimmed(q));
    let (mut a, mut b) = if p.len() >= q.len() { (p, q) } else { (q, p) };
    let mut count = 0;
    while !b.is_empty() {
        let r = div_rem(&a, &b).1;
        if r.is_empty() {
            break;
        }
        count += 1;
        a = b;
        b = r;
    }
    count
}

/// The distinct real roots of the polynomial with rational coefficients `p` (lowest degree
/// first, not all zero), in increasing order, each as an interval that holds it and no other
/// root: the point where the root is found rational on the way, else an open interval of
/// width at most 2^-`bits` relative to the Cauchy bound. By Sturm's theorem, independent of Z3.
pub fn real_roots(p: &[BigRational], bits: u32) -> Vec<Interval> {
    let p = trimmed(p);
    if p.len() < 2 {
        return vec![];
    }
    let lead = p.last().expect("a degree").abs();
    let bound = p[..p.len() - 1]
        .iter()
        .map(|c| c.abs() / &lead)
        .fold(BigRational::zero(), |m, c| if c > m { c } else { m })
        + BigRational::one();
    let seq = sturm(&p);
    let count = |a: &BigRational, b: &BigRational| sign_changes(&seq, a) - sign_changes(&seq, b);
    let mut roots = Vec::new();
    // Intervals (a, b] with p(b) != 0 or b a root, split until each holds one root.
    let mut work = vec![(-bound.clone(), bound.clone())];
    let two = rat(2);
    while let Some((a, b)) = work.pop() {
        let n = count(&a, &b);
        if n == 0 {
            continue;
        }
        let width_ok = (&b - &a) * BigRational::from_integer(BigInt::one() << bits) <= bound;
        if n == 1 && width_ok {
            roots.push(if eval(&p, &b).is_zero() {
                Interval::point(b)
            } else {
                Interval::open(a, b)
            });
            continue;
        }
        let mid = (&a + &b) / &two;
        // The upper half first on the stack, so roots come out in increasing order.
        work.push((mid.clone(), b));
        work.push((a, mid));
    }
    // A root exactly at a split point is found as the upper end of the lower half.
    roots
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(text: &str) -> BigRational {
        parse_rational(text).unwrap()
    }

    fn poly(texts: &[&str]) -> Vec<BigRational> {
        texts.iter().map(|t| q(t)).collect()
    }

    #[test]
    fn remainder_counts_are_the_degrees_below_the_lower_one() {
        // x^2 - 2 and x^3 - x: x, then -2, then zero.
        assert_eq!(
            remainder_count(&poly(&["-2", "0", "1"]), &poly(&["0", "-1", "0", "1"])),
            2
        );
        // (x - 1)^2 divides (x - 1)^2 (x - 2): no remainder.
        let square = poly(&["1", "-2", "1"]);
        let cubic = product(&square, &poly(&["-2", "1"]));
        assert_eq!(remainder_count(&cubic, &square), 0);
        // x^5 + x + 1 and x^3 + 2: degrees 2, 1, 0.
        let p = poly(&["1", "1", "0", "0", "0", "1"]);
        assert_eq!(remainder_count(&p, &poly(&["2", "0", "0", "1"])), 3);
        assert_eq!(remainder_count(&poly(&["2", "0", "0", "1"]), &p), 3);
    }

    #[test]
    fn products_and_values_are_exact() {
        let p = product(&poly(&["-1/3", "1"]), &poly(&["-2", "1"]));
        assert_eq!(p, poly(&["2/3", "-7/3", "1"]));
        assert_eq!(value_at(&p, &q("1/3")), q("0"));
        assert_eq!(value_at(&p, &q("1")), q("-2/3"));
    }

    #[test]
    fn rationals_read_and_print_as_z3_does() {
        assert_eq!(rational_text(&q("6/8")), "3/4");
        assert_eq!(rational_text(&q("-0.5")), "-1/2");
        assert_eq!(rational_text(&q("-2")), "-2");
        for bad in ["", "abc", "1/0", "1e3", "--1", "1/", ".5", "1.2.3"] {
            assert_eq!(parse_rational(bad), None, "{bad}");
        }
    }

    #[test]
    fn intervals_decide_what_they_separate() {
        let pi = Interval::pi();
        let three = Interval::point(q("3"));
        let eps = Interval::infinitesimal();
        let zero = Interval::point(q("0"));
        assert_eq!(three.lt(&pi), Some(true));
        assert_eq!(pi.compare(RcfCmp::Lt, &Interval::point(q("4"))), Some(true));
        assert_eq!(zero.lt(&eps), Some(true));
        assert_eq!(eps.lt(&Interval::point(q("1/1000000000000"))), Some(true));
        assert_eq!(pi.eq(&pi), None);
        assert_eq!(pi.sub(&pi).lt(&zero), None);
        assert_eq!(eps.mul(&eps).lt(&eps), None);
        assert_eq!(zero.lt(&eps.mul(&eps)), Some(true));
        assert_eq!(eps.inv(), None);
        assert_eq!(
            Interval::point(q("3/4")).div(&Interval::point(q("-2"))),
            Some(Interval::point(q("-3/8")))
        );
        assert_eq!(
            Interval::point(q("3/4")).pow(3).as_point(),
            Some(&q("27/64"))
        );
        let sqrt2 = Interval::point(q("2")).root(2).unwrap();
        assert_eq!(sqrt2.lt(&Interval::point(q("1.4143"))), Some(true));
        assert_eq!(Interval::point(q("1.4142")).lt(&sqrt2), Some(true));
        let cube = Interval::point(q("-27/8")).root(3).unwrap();
        assert_eq!(cube.lt(&Interval::point(q("-1.4999"))), Some(true));
        assert_eq!(Interval::point(q("-1.5001")).lt(&cube), Some(true));
        assert_eq!(Interval::point(q("-1")).root(2), None);
        assert_eq!(pi.admits_decimal("3.1415926535?", 10, true), Some(true));
        assert_eq!(pi.admits_decimal("3.1415926536", 10, true), Some(false));
        assert_eq!(
            Interval::point(q("3/4")).admits_decimal("0.75", 5, true),
            Some(true)
        );
        assert_eq!(
            Interval::point(q("3/4")).admits_decimal("0.76", 5, true),
            Some(false)
        );
        assert_eq!(eps.admits_decimal("0.0000000000?", 10, true), Some(true));
        let shifted = Interval::point(q("-1/4")).add(&eps);
        assert_eq!(shifted.admits_decimal("-0.25", 10, true), Some(false));
        assert_eq!(shifted.admits_decimal("-0.25", 10, false), Some(true));
    }

    #[test]
    fn sturm_sequences_count_and_isolate_roots() {
        let roots = real_roots(&[q("-2"), q("0"), q("1")], 20);
        assert_eq!(roots.len(), 2);
        let two = Interval::point(q("2"));
        for r in &roots {
            let square = r.mul(r);
            assert_eq!(
                square.lt(&two.add(&Interval::point(q("1/1000")))),
                Some(true)
            );
        }
        assert_eq!(roots[0].lt(&roots[1]), Some(true));
        // (x - 1)^2 (x + 3): two distinct roots, both rational.
        let p = [q("3"), q("-5"), q("1"), q("1")];
        let roots = real_roots(&p, 20);
        assert_eq!(roots.len(), 2);
        assert_eq!(roots[0].eq(&Interval::point(q("-3"))), Some(true));
        let one = Interval::point(q("1"));
        assert_eq!(roots[1].eq(&one), None);
        assert_eq!(
            roots[1]
                .sub(&one)
                .mul(&roots[1].sub(&one))
                .lt(&Interval::point(q("1/1000000"))),
            Some(true)
        );
        assert!(real_roots(&[q("1"), q("0"), q("1")], 20).is_empty());
        assert!(real_roots(&[q("5")], 20).is_empty());
        // A top coefficient of zero is no degree.
        assert_eq!(real_roots(&[q("2"), q("1"), q("0")], 20).len(), 1);
    }
}
