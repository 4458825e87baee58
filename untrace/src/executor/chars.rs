//! `check_chars`: Z3's characters (`Z3_mk_char` and friends, releases after 4.8.12), judged
//! by the code points of a String literal the trace wrote. The characters are Z3 terms of its
//! `Char` sort, which the model has no sort for: they live only inside the check, built from
//! the literal's code points, and what Z3 says about them is compared with what the code
//! points are. Every function is looked up by name in the loaded libz3 (never linked): a
//! trace with the check replays only where it has them ([`CHAR_FUNCTIONS`],
//! `read::missing_function`).

use super::checks::SOLVER_CHECK_RLIMIT;
use super::raw_solver::RawSolver;
use super::read::typed;
use super::{guard, ExecError, Executor};
use model::call::{Check, TermId};
use model::state::Origin;
use std::ffi::c_uint;
use z3::ast::{Ast, Bool, Dynamic};
use z3::{Context, SatResult};
use z3_sys::{Z3_ast, Z3_context, Z3_sort};

/// The functions of `check_chars`, which only releases after 4.8.12 have.
pub const CHAR_FUNCTIONS: &[&str] = &[
    "Z3_mk_char_sort",
    "Z3_is_char_sort",
    "Z3_mk_char",
    "Z3_mk_char_le",
    "Z3_mk_char_to_int",
    "Z3_mk_char_to_bv",
    "Z3_mk_char_from_bv",
    "Z3_mk_char_is_digit",
    "Z3_mk_u32string",
];

/// The most characters of a literal the check builds (each adds a few terms and facts).
const MAX_CHARS: usize = 8;

type MkCharSort = unsafe extern "C" fn(Z3_context) -> Option<Z3_sort>;
type IsCharSort = unsafe extern "C" fn(Z3_context, Z3_sort) -> bool;
type MkChar = unsafe extern "C" fn(Z3_context, c_uint) -> Option<Z3_ast>;
type CharToAst = unsafe extern "C" fn(Z3_context, Z3_ast) -> Option<Z3_ast>;
type CharLe = unsafe extern "C" fn(Z3_context, Z3_ast, Z3_ast) -> Option<Z3_ast>;
type U32String = unsafe extern "C" fn(Z3_context, c_uint, *const c_uint) -> Option<Z3_ast>;

struct Functions {
    sort: MkCharSort,
    is_sort: IsCharSort,
    mk: MkChar,
    le: CharLe,
    to_int: CharToAst,
    to_bv: CharToAst,
    from_bv: CharToAst,
    is_digit: CharToAst,
    u32string: U32String,
}

impl Functions {
    fn load() -> Result<Functions, String> {
        // SAFETY: each type is the function's z3_api.h signature.
        unsafe {
            Ok(Functions {
                sort: typed("Z3_mk_char_sort")?,
                is_sort: typed("Z3_is_char_sort")?,
                mk: typed("Z3_mk_char")?,
                le: typed("Z3_mk_char_le")?,
                to_int: typed("Z3_mk_char_to_int")?,
                to_bv: typed("Z3_mk_char_to_bv")?,
                from_bv: typed("Z3_mk_char_from_bv")?,
                is_digit: typed("Z3_mk_char_is_digit")?,
                u32string: typed("Z3_mk_u32string")?,
            })
        }
    }
}

/// What the check found.
enum Judged {
    Agreed,
    /// A reference solver could not decide the facts.
    Open,
    Wrong(String),
}

/// Builds the characters of `codes` and judges what Z3 says of them; `literal` is the
/// trace's String literal of those code points.
///
/// # Safety
/// `raw` must be the live thread-local context, `literal` its term.
unsafe fn judge(
    f: &Functions,
    raw: Z3_context,
    literal: &Dynamic,
    codes: &[u32],
) -> Option<Judged> {
    let ctx = Context::thread_local();
    // SAFETY: as the caller promises; every term is wrapped (referenced) when made.
    unsafe {
        let wrap = |a: Option<Z3_ast>| a.map(|a| Dynamic::wrap(&ctx, a));
        let char_sort = (f.sort)(raw)?;
        if !(f.is_sort)(raw, char_sort) {
            return Some(Judged::Wrong(
                "Z3_is_char_sort of Z3_mk_char_sort is false".into(),
            ));
        }
        let string_sort = z3_sys::Z3_get_sort(raw, literal.get_z3_ast())?;
        if (f.is_sort)(raw, string_sort) {
            return Some(Judged::Wrong(
                "Z3_is_char_sort of the String sort is true".into(),
            ));
        }
        let built = wrap((f.u32string)(raw, codes.len() as c_uint, codes.as_ptr()))?;
        if built != *literal && built.simplify() != literal.simplify() {
            return Some(Judged::Wrong(format!(
                "Z3_mk_u32string of the code points of {} is {}",
                guard::one_line(&literal.to_string()),
                guard::one_line(&built.to_string())
            )));
        }
        let mut facts: Vec<Bool> = Vec::new();
        let mut chars = Vec::new();
        for &code in codes.iter().take(MAX_CHARS) {
            let ch = wrap((f.mk)(raw, code))?;
            let as_int = wrap((f.to_int)(raw, ch.get_z3_ast()))?;
            facts.push(as_int.eq(z3::ast::Int::from_u64(u64::from(code))));
            let as_bv = wrap((f.to_bv)(raw, ch.get_z3_ast()))?;
            let width = as_bv.as_bv()?.get_size();
            let bits = z3::ast::BV::from_u64(u64::from(code), width);
            facts.push(as_bv.eq(Dynamic::from_ast(&bits)));
            let back = wrap((f.from_bv)(raw, bits.get_z3_ast()))?;
            facts.push(back.eq(&ch));
            let digit = wrap((f.is_digit)(raw, ch.get_z3_ast()))?.as_bool()?;
            let expected = char::from_u32(code).is_some_and(|c| c.is_ascii_digit());
            facts.push(digit.eq(Bool::from_bool(expected)));
            chars.push((code, ch));
        }
        for pair in chars.windows(2) {
            let ((a, ca), (b, cb)) = (&pair[0], &pair[1]);
            for (x, cx, y, cy) in [(a, ca, b, cb), (b, cb, a, ca)] {
                let le = wrap((f.le)(raw, cx.get_z3_ast(), cy.get_z3_ast()))?.as_bool()?;
                facts.push(le.eq(Bool::from_bool(x <= y)));
            }
        }
        if facts.is_empty() {
            return Some(Judged::Agreed);
        }
        // Cheap first: each fact Z3's rewriter decides.
        let undecided: Vec<&Bool> = facts
            .iter()
            .filter(|fact| fact.simplify().as_bool() != Some(true))
            .collect();
        if let Some(wrong) = undecided
            .iter()
            .find(|fact| fact.simplify().as_bool() == Some(false))
        {
            return Some(Judged::Wrong(format!(
                "{} is false",
                guard::one_line(&wrong.to_string())
            )));
        }
        if undecided.is_empty() {
            return Some(Judged::Agreed);
        }
        let all = Bool::and(&undecided);
        let solver = RawSolver::reference(SOLVER_CHECK_RLIMIT, &[all.not()])?;
        Some(match solver.check_assumptions(&[]) {
            SatResult::Unsat => Judged::Agreed,
            SatResult::Unknown => Judged::Open,
            SatResult::Sat => Judged::Wrong(format!(
                "a reference solver refutes {}",
                guard::one_line(&all.to_string())
            )),
        })
    }
}

impl Executor {
    /// `check_chars`: see [`model::Check::Chars`]. An unknown answer of the reference solver
    /// is no verdict (counted).
    pub(super) fn check_chars(&mut self, check: &Check, t: TermId) -> Result<(), ExecError> {
        let Some(Origin::Lit(value)) = self.state.terms.get(&t).map(|i| i.origin.clone()) else {
            return Ok(());
        };
        let codes: Vec<u32> = value.chars().map(u32::from).collect();
        let literal = self.z3_term(t)?.clone();
        let functions = Functions::load().map_err(ExecError::Malformed)?;
        let ctx = self.main.clone();
        // SAFETY: the thread-local context of the block is `ctx`, the literal's.
        let judged = guard::in_context(&ctx, || unsafe {
            judge(&functions, ctx.get_z3_context(), &literal, &codes)
        });
        match judged {
            Err(message) => self.check_error(check, message),
            Ok(None) => Err(ExecError::Z3(format!(
                "{}: Z3 returned no object",
                check.name()
            ))),
            Ok(Some(Judged::Agreed)) => {
                self.count("chars: agreed");
                Ok(())
            }
            Ok(Some(Judged::Open)) => {
                self.count("chars: unknown");
                Ok(())
            }
            Ok(Some(Judged::Wrong(problem))) => Err(Self::finding(
                check,
                format!("the characters of the literal {t}: {problem}"),
                "characters disagree with their code points".into(),
            )),
        }
    }
}
