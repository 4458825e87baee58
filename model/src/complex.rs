//! Z3's complex numbers (`Z3_mk_complex_sort`, `Z3_mk_complex`, `Z3_mk_real_part`,
//! `Z3_mk_imag_part`; releases after 4.8.12, looked up by name) as `check_complex` judges
//! them: the complex numbers z = a + bi and w = c + di of four Real literals, and the
//! arithmetic Z3's header says accepts them (sum, difference, product, negation), each with
//! the real and imaginary parts exact arithmetic gives ([`expected_parts`]). Z3's rewriter
//! must simplify the part of each to that value (5.4.1 does so at once; its solvers take
//! long on non-linear complex constraints, so the check asks no solver).

use num_rational::BigRational;

/// The complex terms `check_complex` makes of z and w, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComplexTerm {
    /// z itself (`Z3_mk_complex`).
    Z,
    /// z + w (`Z3_mk_add`).
    Sum,
    /// z - w (`Z3_mk_sub`).
    Difference,
    /// z · w (`Z3_mk_mul`).
    Product,
    /// -z (`Z3_mk_unary_minus`).
    Negation,
}

impl ComplexTerm {
    pub const ALL: [ComplexTerm; 5] = [
        ComplexTerm::Z,
        ComplexTerm::Sum,
        ComplexTerm::Difference,
        ComplexTerm::Product,
        ComplexTerm::Negation,
    ];

    /// How a finding names it.
    pub fn text(self) -> &'static str {
        match self {
            ComplexTerm::Z => "z",
            ComplexTerm::Sum => "z + w",
            ComplexTerm::Difference => "z - w",
            ComplexTerm::Product => "z * w",
            ComplexTerm::Negation => "-z",
        }
    }
}

/// The real and imaginary parts of `term` for z = a + bi, w = c + di.
pub fn expected_parts(
    term: ComplexTerm,
    [a, b, c, d]: [&BigRational; 4],
) -> (BigRational, BigRational) {
    match term {
        ComplexTerm::Z => (a.clone(), b.clone()),
        ComplexTerm::Sum => (a + c, b + d),
        ComplexTerm::Difference => (a - c, b - d),
        ComplexTerm::Product => (a * c - b * d, a * d + b * c),
        ComplexTerm::Negation => (-a, -b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;

    fn q(n: i64) -> BigRational {
        BigRational::from_integer(BigInt::from(n))
    }

    #[test]
    fn parts_follow_complex_arithmetic() {
        let (a, b, c, d) = (q(1), q(2), q(3), q(-1));
        let parts = |t| expected_parts(t, [&a, &b, &c, &d]);
        assert_eq!(parts(ComplexTerm::Z), (q(1), q(2)));
        assert_eq!(parts(ComplexTerm::Sum), (q(4), q(1)));
        assert_eq!(parts(ComplexTerm::Difference), (q(-2), q(3)));
        // (1 + 2i)(3 - i) = 3 - i + 6i + 2 = 5 + 5i
        assert_eq!(parts(ComplexTerm::Product), (q(5), q(5)));
        assert_eq!(parts(ComplexTerm::Negation), (q(-1), q(-2)));
        // i · i = -1
        let (zero, one) = (q(0), q(1));
        let square = expected_parts(ComplexTerm::Product, [&zero, &one, &zero, &one]);
        assert_eq!(square, (q(-1), q(0)));
    }
}
