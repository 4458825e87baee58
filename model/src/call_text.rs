//! The SMT-LIB text of what trace calls build: symbols, `lit` values and operation
//! applications. Two writers need it: `untrace --smt2` (a script for the Z3 binary) and the
//! fuzzer's independent model check (terms for `model::eval`, which knows only standard
//! SMT-LIB and the extensions of Z3 it implements). [`Dialect`] is where they differ:
//! operations only Z3 knows.

use crate::sort::Sort;
use std::fmt::Write as _;

/// Who reads the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// The Z3 binary: Z3's own names where SMT-LIB has no operation.
    Z3,
    /// Standard SMT-LIB v2.6 only: Z3-only operations have no text (another solver reads it).
    Standard,
    /// What the independent evaluator (`model::eval`) reads: standard SMT-LIB, plus the
    /// Z3 operations it implements (`rem`, `^`, `bvredand`, `bvredor`, `ext_rotate_*`, the
    /// sequences), under Z3's names.
    Evaluator,
}

/// Splits a Real literal (`-3`, `-3/4`, `1.25`) into a decimal numerator and denominator
/// (`-3`/`4`, `125`/`100`); `None` if it is not one.
pub fn real_parts(value: &str) -> Option<(String, String)> {
    let (num, den) = value.split_once('/').unwrap_or((value, "1"));
    let (int, frac) = num.split_once('.').unwrap_or((num, ""));
    let negative = int.starts_with('-');
    let digits = format!("{}{frac}", int.trim_start_matches('-'));
    if digits.is_empty()
        || !digits.bytes().all(|b| b.is_ascii_digit())
        || den.is_empty()
        || !den.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let trimmed = digits.trim_start_matches('0');
    let sign = if negative && !trimmed.is_empty() {
        "-"
    } else {
        ""
    };
    let numerator = format!("{sign}{}", if trimmed.is_empty() { "0" } else { trimmed });
    // 1.25/3 = 125 / (3 * 100): append the fraction's zeros to the denominator.
    let den_trimmed = den.trim_start_matches('0');
    if den_trimmed.is_empty() {
        return None;
    }
    Some((
        numerator,
        format!("{den_trimmed}{}", "0".repeat(frac.len())),
    ))
}

/// A symbol as SMT-LIB writes it: quoted unless simple; `None` when it cannot be written.
pub fn symbol(name: &str) -> Option<String> {
    let simple = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "~!@$%^&*_-+=<>.?/".contains(c));
    if simple {
        Some(name.to_string())
    } else if name.contains(['|', '\\']) {
        None
    } else {
        Some(format!("|{name}|"))
    }
}

/// An SMT-LIB string literal: `"` doubles, `\` and non-printable characters become `\u{..}`.
pub fn string_literal(value: &str) -> String {
    let mut out = String::from("\"");
    for c in value.chars() {
        match c {
            '"' => out.push_str("\"\""),
            ' '..='~' if c != '\\' => out.push(c),
            c => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
        }
    }
    out.push('"');
    out
}

/// An exact decimal as an SMT-LIB Real term: `n.0`, `(/ n.0 d.0)`, negated with `-`.
pub fn real_literal(value: &str) -> Option<String> {
    let (num, den) = real_parts(value)?;
    let (negative, num) = match num.strip_prefix('-') {
        Some(n) => (true, n.to_string()),
        None => (false, num),
    };
    let body = if den == "1" {
        format!("{num}.0")
    } else {
        format!("(/ {num}.0 {den}.0)")
    };
    Some(if negative {
        format!("(- {body})")
    } else {
        body
    })
}

/// A finite double as the exact SMT-LIB Real it is (`1e308` too, which has no decimal
/// point form `real_literal` reads).
fn double_literal(v: f64) -> Option<String> {
    let r = num_rational::BigRational::from_float(v)?;
    real_literal(&format!("{}/{}", r.numer(), r.denom()))
}

/// The SMT-LIB term of a `lit` call's value, as the executor builds it.
pub fn literal(sort: &Sort, value: &str) -> Option<String> {
    Some(match sort {
        Sort::Bool | Sort::RoundingMode => value.to_string(),
        Sort::Int => match value.strip_prefix('-') {
            Some(n) => format!("(- {n})"),
            None => value.to_string(),
        },
        Sort::Real => real_literal(value)?,
        Sort::BitVec(w) => format!("(_ bv{value} {w})"),
        Sort::FloatingPoint(e, s) => match value {
            "nan" => format!("(_ NaN {e} {s})"),
            "+inf" => format!("(_ +oo {e} {s})"),
            "-inf" => format!("(_ -oo {e} {s})"),
            "+zero" => format!("(_ +zero {e} {s})"),
            "-zero" => format!("(_ -zero {e} {s})"),
            // The executor goes through Z3_mk_fpa_numeral_double: the double nearest the
            // decimal (exact from its shortest form), then rounded to the format.
            text => {
                let v: f64 = text.parse().ok()?;
                let exact = double_literal(v)?;
                format!("((_ to_fp {e} {s}) RNE ((_ to_fp 11 53) RNE {exact}))")
            }
        },
        Sort::String => string_literal(value),
        Sort::Seq(_) => format!("(as seq.empty {sort})"),
        // Z3's prime-field elements (its dialect), as Z3 prints them.
        Sort::FiniteField(_) => format!("(as ff{value} {sort})"),
        _ => return None,
    })
}

/// The SMT-LIB expression of a datatype call (`dt_cons`, `dt_is`, `dt_sel`, `dt_update`)
/// over argument texts `args`; `built` is the sort of the term it builds (a nullary
/// constructor of a parametric datatype is qualified with it: `(as nil (L Int))`). `None`
/// for other calls. Names of datatypes' parts are simple symbols (`model::datatype`).
pub fn datatype_op(call: &crate::Call, args: &[String], built: &Sort) -> Option<String> {
    use crate::Call;
    let applied = |head: String| {
        if args.is_empty() {
            head
        } else {
            format!("({head} {})", args.join(" "))
        }
    };
    Some(match call {
        Call::DtConstruct { ctor, .. } => match built {
            Sort::Named(_, params) if args.is_empty() && !params.is_empty() => {
                format!("(as {ctor} {built})")
            }
            _ => applied(ctor.clone()),
        },
        Call::DtTest { ctor, .. } => applied(format!("(_ is {ctor})")),
        Call::DtSelect { field, .. } => applied(field.clone()),
        Call::DtUpdate { field, .. } => applied(format!("(_ update-field {field})")),
        _ => return None,
    })
}

/// The SMT-LIB expression of an operation of the table applied to argument texts `args`
/// (`first` is the sort of the first argument), or `None` when `dialect` has none.
pub fn operation(
    name: &str,
    indices: &[u32],
    args: &[String],
    first: Option<&Sort>,
    dialect: Dialect,
) -> Option<String> {
    let a = args;
    let w = first.and_then(Sort::bv_width).unwrap_or(1);
    let app = |head: &str| {
        if a.is_empty() {
            head.to_string()
        } else {
            format!("({head} {})", a.join(" "))
        }
    };
    let widen = |how: &str, x: &str| format!("((_ {how} 1) {x})");
    let wide = |how: &str, x: &str| format!("((_ {how} {w}) {x})");
    // Bits w and w-1 of the (w+1)-bit result of `op` on the sign-extended arguments: #b01 is
    // a signed overflow, #b10 an underflow.
    let signed = |op: &str, bad: &str| {
        format!(
            "(not (= ((_ extract {w} {}) ({op} {} {})) {bad}))",
            w - 1,
            widen("sign_extend", &a[0]),
            widen("sign_extend", &a[1])
        )
    };
    let min = if w == 1 {
        "#b1".to_string()
    } else {
        format!("(concat #b1 (_ bv0 {}))", w - 1)
    };
    // The 2w-bit product of the arguments extended by `how`.
    let product = |how: &str| format!("(bvmul {} {})", wide(how, &a[0]), wide(how, &a[1]));
    let z3_only = |z3_name: &str| match dialect {
        Dialect::Z3 | Dialect::Evaluator => Some(app(z3_name)),
        Dialect::Standard => None,
    };
    Some(match name {
        "iff" => app("="),
        "bvadd_no_overflow_u" => format!(
            "(= ((_ extract {w} {w}) (bvadd {} {})) #b0)",
            widen("zero_extend", &a[0]),
            widen("zero_extend", &a[1])
        ),
        "bvadd_no_overflow_s" => signed("bvadd", "#b01"),
        "bvadd_no_underflow" => signed("bvadd", "#b10"),
        "bvsub_no_overflow" => signed("bvsub", "#b01"),
        "bvsub_no_underflow_s" => signed("bvsub", "#b10"),
        "bvsub_no_underflow_u" => format!("(bvule {} {})", a[1], a[0]),
        "bvsdiv_no_overflow" => format!(
            "(not (and (= {} {min}) (= {} (bvnot (_ bv0 {w})))))",
            a[0], a[1]
        ),
        "bvneg_no_overflow" => format!("(not (= {} {min}))", a[0]),
        // Products: the 2w-bit product of the extended arguments against the w-bit range.
        // Z3 4.8.12 gets the signed one wrong (traces/regress/bvsmul-noovfl-negative-operands),
        // which the independent check reports; the Z3 dialect keeps Z3's names so that a
        // replay's SMT-LIB does what the API did.
        "bvmul_no_overflow_u" if dialect == Dialect::Z3 => app("bvumul_noovfl"),
        "bvmul_no_overflow_s" if dialect == Dialect::Z3 => app("bvsmul_noovfl"),
        "bvmul_no_underflow" if dialect == Dialect::Z3 => app("bvsmul_noudfl"),
        "bvmul_no_overflow_u" => format!(
            "(= ((_ extract {} {w}) {}) (_ bv0 {w}))",
            2 * w - 1,
            product("zero_extend")
        ),
        // Against the most and the least w-bit signed values, sign-extended to 2w bits.
        "bvmul_no_overflow_s" => format!(
            "(bvsle {} {})",
            product("sign_extend"),
            wide("sign_extend", &format!("(bvnot {min})"))
        ),
        "bvmul_no_underflow" => format!(
            "(bvsge {} {})",
            product("sign_extend"),
            wide("sign_extend", &min)
        ),
        "bvredand" | "bvredor" | "ext_rotate_left" | "ext_rotate_right" | "rem" | "^" => {
            z3_only(name)?
        }
        // Sequences are Z3's (SMT-LIB 2.6 has none).
        _ if name.starts_with("seq.") && dialect == Dialect::Standard => return None,
        _ if indices.is_empty() => app(name),
        _ => {
            let idx: Vec<String> = indices.iter().map(u32::to_string).collect();
            app(&format!("(_ {name} {})", idx.join(" ")))
        }
    })
}

/// The SMT-LIB term of a set call that is an array operation underneath, as Z3 prints it:
/// `set_add` and `set_del` store true and false at the element, `set_member` selects it
/// (standard SMT-LIB arrays); `None` for other calls.
pub fn set_element_term(call: &crate::Call, set: &str, element: &str) -> Option<String> {
    use crate::Call;
    Some(match call {
        Call::SetAdd(..) => format!("(store {set} {element} true)"),
        Call::SetDel(..) => format!("(store {set} {element} false)"),
        Call::SetMember(..) => format!("(select {set} {element})"),
        _ => return None,
    })
}

/// The SMT-LIB term a call of the form [`crate::Smt2::Indexed`] builds, `((_ HEAD N...)
/// ARGS...)` of its integer arguments and `args` (`(HEAD ARGS...)` without integer arguments), the texts of its term arguments in order;
/// `None` for a call of another form, and outside Z3's dialect for a form only Z3 reads.
pub fn indexed_term(call: &crate::Call, args: &[String], dialect: Dialect) -> Option<String> {
    let crate::Smt2::Indexed { head, standard } = call.spec().smt2 else {
        return None;
    };
    if dialect != Dialect::Z3 && !standard {
        return None;
    }
    let indices: Vec<String> = call.integers().iter().map(i64::to_string).collect();
    if indices.is_empty() {
        // SMT-LIB indexes no identifier by nothing: HEAD alone.
        return Some(format!("({head} {})", args.join(" ")));
    }
    Some(format!(
        "((_ {head} {}) {})",
        indices.join(" "),
        args.join(" ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real_literals_split_into_decimal_fractions() {
        let p = |s: &str| real_parts(s).map(|(a, b)| format!("{a}/{b}"));
        assert_eq!(p("3").as_deref(), Some("3/1"));
        assert_eq!(p("-3/4").as_deref(), Some("-3/4"));
        assert_eq!(p("1.25").as_deref(), Some("125/100"));
        assert_eq!(p("-0.5/3").as_deref(), Some("-5/30"));
        assert_eq!(p("-0").as_deref(), Some("0/1"));
        assert_eq!(p("1/0"), None);
        assert_eq!(p("x"), None);
    }

    #[test]
    fn symbols_and_literals() {
        assert_eq!(symbol("x").as_deref(), Some("x"));
        assert_eq!(symbol("a b").as_deref(), Some("|a b|"));
        assert_eq!(symbol("1x").as_deref(), Some("|1x|"));
        assert_eq!(symbol("a|b"), None);
        assert_eq!(literal(&Sort::Int, "-3").as_deref(), Some("(- 3)"));
        assert_eq!(
            literal(&Sort::Real, "-7/2").as_deref(),
            Some("(- (/ 7.0 2.0))")
        );
        assert_eq!(
            literal(&Sort::BitVec(8), "255").as_deref(),
            Some("(_ bv255 8)")
        );
        assert_eq!(
            literal(&Sort::String, "a\"b\\").as_deref(),
            Some("\"a\"\"b\\u{5c}\"")
        );
        assert_eq!(
            literal(&Sort::FloatingPoint(3, 5), "-inf").as_deref(),
            Some("(_ -oo 3 5)")
        );
        // The double nearest 1e300, an integer of 301 digits.
        let huge = literal(&Sort::FloatingPoint(3, 5), "1e300").unwrap();
        let digits = huge.trim_start_matches("((_ to_fp 3 5) RNE ((_ to_fp 11 53) RNE ");
        assert_eq!(digits.find(".0))"), Some(301), "{huge}");
        assert_eq!(
            literal(&Sort::FloatingPoint(3, 5), "-0.5").as_deref(),
            Some("((_ to_fp 3 5) RNE ((_ to_fp 11 53) RNE (- (/ 1.0 2.0))))")
        );
    }

    #[test]
    fn overflow_predicates_are_bit_vector_formulas_and_z3_only_names_depend_on_the_dialect() {
        let args = ["x".to_string(), "y".to_string()];
        let bv4 = Sort::BitVec(4);
        let op = |name, n: usize, dialect| operation(name, &[], &args[..n], Some(&bv4), dialect);
        assert_eq!(
            op("bvneg_no_overflow", 1, Dialect::Standard).as_deref(),
            Some("(not (= x (concat #b1 (_ bv0 3))))")
        );
        assert_eq!(
            op("bvsub_no_underflow_u", 2, Dialect::Z3).as_deref(),
            Some("(bvule y x)")
        );
        assert_eq!(
            op("bvadd_no_overflow_u", 2, Dialect::Z3).as_deref(),
            Some("(= ((_ extract 4 4) (bvadd ((_ zero_extend 1) x) ((_ zero_extend 1) y))) #b0)")
        );
        assert_eq!(op("bvredor", 1, Dialect::Standard), None);
        assert_eq!(
            op("bvredor", 1, Dialect::Evaluator).as_deref(),
            Some("(bvredor x)")
        );
        assert_eq!(
            op("bvredor", 1, Dialect::Z3).as_deref(),
            Some("(bvredor x)")
        );
        assert_eq!(
            op("bvmul_no_overflow_s", 2, Dialect::Z3).as_deref(),
            Some("(bvsmul_noovfl x y)")
        );
        assert_eq!(
            operation(
                "extract",
                &[3, 1],
                &args[..1],
                Some(&bv4),
                Dialect::Standard
            )
            .as_deref(),
            Some("((_ extract 3 1) x)")
        );
    }

    #[test]
    fn product_overflow_formulas_match_their_definition_on_every_4_bit_pair() {
        let bv4 = Sort::BitVec(4);
        let signed = |v: i64| if v >= 8 { v - 16 } else { v };
        for x in 0..16i64 {
            for y in 0..16i64 {
                let args = [format!("(_ bv{x} 4)"), format!("(_ bv{y} 4)")];
                let (u, s) = (x * y, signed(x) * signed(y));
                for (name, expected) in [
                    ("bvmul_no_overflow_u", u < 16),
                    ("bvmul_no_overflow_s", s <= 7),
                    ("bvmul_no_underflow", s >= -8),
                ] {
                    let text = operation(name, &[], &args, Some(&bv4), Dialect::Standard).unwrap();
                    let value = crate::eval::evaluate_str(&text, &Default::default()).unwrap();
                    assert_eq!(
                        value,
                        crate::eval::Value::Bool(expected),
                        "{name} {x} {y}: {text}"
                    );
                }
            }
        }
    }
}
