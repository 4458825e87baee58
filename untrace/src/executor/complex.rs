//! `check_complex`: Z3's complex numbers (`Z3_mk_complex_sort`, `Z3_mk_complex`,
//! `Z3_mk_real_part`, `Z3_mk_imag_part`; releases after 4.8.12), looked up by name, never
//! linked ([`COMPLEX_FUNCTIONS`], `read::missing_function`). Built inside the check from four
//! Real literals (the model has no complex sort), the parts of z, z + w, z - w, z · w and -z
//! simplified by Z3's rewriter and compared with `model::complex::expected_parts`.

use super::read::typed;
use super::{inject, ExecError, Executor};
use model::call::{Check, TermId};
use model::complex::{expected_parts, ComplexTerm};
use model::state::Origin;
use model::Sort;
use num_rational::BigRational;
use z3::ast::{Ast, Dynamic};
use z3::Context;
use z3_sys::{Z3_ast, Z3_context, Z3_sort};

/// The functions of Z3's complex numbers, which only releases after 4.8.12 have.
pub const COMPLEX_FUNCTIONS: &[&str] = &[
    "Z3_mk_complex_sort",
    "Z3_mk_complex",
    "Z3_mk_real_part",
    "Z3_mk_imag_part",
];

type MkSort = unsafe extern "C" fn(Z3_context) -> Option<Z3_sort>;
type OfAst = unsafe extern "C" fn(Z3_context, Z3_ast) -> Option<Z3_ast>;
type OfAst2 = unsafe extern "C" fn(Z3_context, Z3_ast, Z3_ast) -> Option<Z3_ast>;

/// What the check found.
enum Judged {
    /// Every part simplified to its value; the number of parts that were no numeral.
    Agreed(usize),
    Wrong(String),
}

/// Judges the complex numbers of the literals `l` (A, B, C, D) with the values `v`; `fault`
/// reads z's real part one more (`wrong-fset`).
fn judge(l: &[Dynamic], v: [&BigRational; 4], fault: bool) -> Result<Judged, String> {
    let ctx = Context::thread_local();
    let c = ctx.get_z3_context();
    // SAFETY: the functions' z3_api.h signatures; terms of the live thread-local context,
    // each made term wrapped (referenced) at once; the sorts compared right after they are
    // made (no call between that could release them).
    unsafe {
        let wrap = |made: Option<Z3_ast>, what: &str| -> Result<Dynamic, String> {
            made.map(|a| Dynamic::wrap(&ctx, a))
                .ok_or_else(|| format!("{what} returned no term"))
        };
        let mk_sort: MkSort = typed("Z3_mk_complex_sort")?;
        let mk: OfAst2 = typed("Z3_mk_complex")?;
        let real: OfAst = typed("Z3_mk_real_part")?;
        let imag: OfAst = typed("Z3_mk_imag_part")?;
        let (a, b, cc, d) = (
            l[0].get_z3_ast(),
            l[1].get_z3_ast(),
            l[2].get_z3_ast(),
            l[3].get_z3_ast(),
        );
        let z = wrap(mk(c, a, b), "Z3_mk_complex")?;
        let w = wrap(mk(c, cc, d), "Z3_mk_complex")?;
        let complex = mk_sort(c).ok_or("Z3_mk_complex_sort returned no sort")?;
        let of_z = z3_sys::Z3_get_sort(c, z.get_z3_ast()).ok_or("z has no sort")?;
        super::unlogged::note("Z3_is_eq_sort");
        if !z3_sys::Z3_is_eq_sort(c, of_z, complex) {
            return Ok(Judged::Wrong(format!(
                "Z3_mk_complex made a term of sort {}, not Z3_mk_complex_sort's",
                z.get_sort()
            )));
        }
        let pair = [z.get_z3_ast(), w.get_z3_ast()];
        let mut open = 0;
        for term in ComplexTerm::ALL {
            let t = match term {
                ComplexTerm::Z => z.clone(),
                ComplexTerm::Sum => wrap(z3_sys::Z3_mk_add(c, 2, pair.as_ptr()), "Z3_mk_add")?,
                ComplexTerm::Difference => {
                    wrap(z3_sys::Z3_mk_sub(c, 2, pair.as_ptr()), "Z3_mk_sub")?
                }
                ComplexTerm::Product => wrap(z3_sys::Z3_mk_mul(c, 2, pair.as_ptr()), "Z3_mk_mul")?,
                ComplexTerm::Negation => wrap(
                    z3_sys::Z3_mk_unary_minus(c, z.get_z3_ast()),
                    "Z3_mk_unary_minus",
                )?,
            };
            let (re, im) = expected_parts(term, v);
            let parts = [
                ("real", real, "Z3_mk_real_part", re),
                ("imaginary", imag, "Z3_mk_imag_part", im),
            ];
            for (part, f, name, expected) in parts {
                let simplified = wrap(f(c, t.get_z3_ast()), name)?.simplify();
                if !z3_sys::Z3_is_numeral_ast(c, simplified.get_z3_ast()) {
                    open += 1;
                    continue;
                }
                let text =
                    super::read::text(z3_sys::Z3_get_numeral_string(c, simplified.get_z3_ast()))?;
                let Some(mut got) = model::read::numeral_value(&Sort::Real, &text) else {
                    return Err(format!("Z3 printed the numeral {text}"));
                };
                if fault && term == ComplexTerm::Z && part == "real" {
                    got += BigRational::from_integer(1.into());
                }
                if got != expected {
                    return Ok(Judged::Wrong(format!(
                        "the {part} part of {} simplifies to {}, expected {}",
                        term.text(),
                        model::read::rational_text(&got),
                        model::read::rational_text(&expected)
                    )));
                }
            }
        }
        Ok(Judged::Agreed(open))
    }
}

impl Executor {
    /// `check_complex`: see [`model::Check::Complex`]. A part Z3 does not simplify to a
    /// numeral is no verdict (counted).
    pub(super) fn check_complex(
        &mut self,
        check: &Check,
        parts: &[TermId],
    ) -> Result<(), ExecError> {
        let mut values = Vec::new();
        let mut literals = Vec::new();
        for t in parts {
            let info = self.state.term(*t).map_err(super::malformed)?;
            let value = match &info.origin {
                Origin::Lit(text) => model::read::numeral_value(&Sort::Real, text),
                _ => None,
            }
            .ok_or_else(|| {
                ExecError::Malformed(format!("check_complex: {t} is no Real literal"))
            })?;
            values.push(value);
            literals.push(self.z3_term(*t)?.clone());
        }
        let [a, b, c, d] = values.as_slice() else {
            return Err(ExecError::Malformed(
                "check_complex takes four terms".into(),
            ));
        };
        let fault = matches!(self.config.inject, Some(inject::Fault::WrongFset));
        let judged = self.main(|| judge(&literals, [a, b, c, d], fault))?;
        match judged {
            Err(message) => self.check_error(check, message),
            Ok(Judged::Agreed(0)) => {
                self.count("complex: agreed");
                Ok(())
            }
            Ok(Judged::Agreed(_)) => {
                self.count("complex: a part not simplified");
                Ok(())
            }
            Ok(Judged::Wrong(problem)) => Err(Self::finding(
                check,
                format!(
                    "the complex numbers of {}: {problem}",
                    parts
                        .iter()
                        .map(|t| t.to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
                "complex parts disagree with exact arithmetic".into(),
            )),
        }
    }
}
