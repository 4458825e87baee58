//! `check_simplifier`: Z3's simplifiers (`Z3_mk_simplifier` and friends, releases from 4.12.2
//! on) chained in front of a fresh solver (`Z3_solver_add_simplifier`), which must answer as
//! the solver of the round did and give models of the round's formula. Every function is
//! looked up by name in the loaded libz3 (never linked): a trace with the check replays only
//! where it has them ([`SIMPLIFIER_FUNCTIONS`], `read::missing_function`).
//!
//! The simplifier objects live only inside the check (referenced and released here), so the
//! trace names no simplifier: the chain is the check's argument.

use super::checks::SOLVER_CHECK_RLIMIT;
use super::raw_solver::RawSolver;
use super::read::{symbol_text, text, typed};
use super::{guard, ExecError, Executor};
use model::call::{Check, SolverId};
use std::ffi::{c_char, c_uint, c_void, CString};
use z3::ast::{Bool, Dynamic};
use z3::SatResult;
use z3_sys::{Z3_context, Z3_param_descrs, Z3_params, Z3_solver, Z3_symbol};

/// The functions of `check_simplifier`, which only releases after 4.8.12 have.
pub const SIMPLIFIER_FUNCTIONS: &[&str] = &[
    "Z3_get_num_simplifiers",
    "Z3_get_simplifier_name",
    "Z3_simplifier_get_descr",
    "Z3_mk_simplifier",
    "Z3_simplifier_inc_ref",
    "Z3_simplifier_dec_ref",
    "Z3_simplifier_and_then",
    "Z3_simplifier_using_params",
    "Z3_simplifier_get_help",
    "Z3_simplifier_get_param_descrs",
    "Z3_solver_add_simplifier",
];

/// A `Z3_simplifier` (z3-sys 0.14 has no type for it).
type Simplifier = *mut c_void;

type NumSimplifiers = unsafe extern "C" fn(Z3_context) -> c_uint;
type SimplifierName = unsafe extern "C" fn(Z3_context, c_uint) -> *const c_char;
type SimplifierDescr = unsafe extern "C" fn(Z3_context, *const c_char) -> *const c_char;
type MkSimplifier = unsafe extern "C" fn(Z3_context, *const c_char) -> Simplifier;
type SimplifierRef = unsafe extern "C" fn(Z3_context, Simplifier);
type AndThen = unsafe extern "C" fn(Z3_context, Simplifier, Simplifier) -> Simplifier;
type UsingParams = unsafe extern "C" fn(Z3_context, Simplifier, Z3_params) -> Simplifier;
type SimplifierHelp = unsafe extern "C" fn(Z3_context, Simplifier) -> *const c_char;
type ParamDescrs = unsafe extern "C" fn(Z3_context, Simplifier) -> Option<Z3_param_descrs>;
type AddSimplifier = unsafe extern "C" fn(Z3_context, Z3_solver, Simplifier) -> Option<Z3_solver>;

/// The simplifier functions, looked up once a check.
struct Functions {
    num: NumSimplifiers,
    name: SimplifierName,
    descr: SimplifierDescr,
    mk: MkSimplifier,
    inc: SimplifierRef,
    dec: SimplifierRef,
    and_then: AndThen,
    using_params: UsingParams,
    help: SimplifierHelp,
    param_descrs: ParamDescrs,
    add: AddSimplifier,
}

impl Functions {
    fn load() -> Result<Functions, String> {
        // SAFETY: each type is the function's z3_api.h signature.
        unsafe {
            Ok(Functions {
                num: typed("Z3_get_num_simplifiers")?,
                name: typed("Z3_get_simplifier_name")?,
                descr: typed("Z3_simplifier_get_descr")?,
                mk: typed("Z3_mk_simplifier")?,
                inc: typed("Z3_simplifier_inc_ref")?,
                dec: typed("Z3_simplifier_dec_ref")?,
                and_then: typed("Z3_simplifier_and_then")?,
                using_params: typed("Z3_simplifier_using_params")?,
                help: typed("Z3_simplifier_get_help")?,
                param_descrs: typed("Z3_simplifier_get_param_descrs")?,
                add: typed("Z3_solver_add_simplifier")?,
            })
        }
    }
}

/// What the check found before its solver answered: the chain's solver, or why there is none.
enum Made {
    Solver(RawSolver),
    /// The loaded Z3 does not list a simplifier of the chain (an older release): no verdict.
    Unlisted(String),
    /// Z3's descriptions disagree with what it accepted.
    Inconsistent(String),
}

/// A simplifier referenced until drop.
struct Held<'a> {
    f: &'a Functions,
    raw: Z3_context,
    s: Simplifier,
}

impl<'a> Held<'a> {
    /// Takes a reference to what Z3 returned (`None` for NULL: Z3 refused, the guard has the
    /// error).
    fn adopt(f: &'a Functions, raw: Z3_context, s: Simplifier) -> Option<Held<'a>> {
        if s.is_null() {
            return None;
        }
        // SAFETY: a live simplifier of `raw`.
        unsafe { (f.inc)(raw, s) };
        Some(Held { f, raw, s })
    }
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        // SAFETY: referenced in `adopt`.
        unsafe { (self.f.dec)(self.raw, self.s) }
    }
}

/// The names of a parameter description set.
///
/// # Safety
/// `descrs` must be a live parameter description set of `raw`.
unsafe fn descr_names(raw: Z3_context, descrs: Z3_param_descrs) -> Result<Vec<String>, String> {
    // SAFETY: as the caller promises; indices below the size.
    unsafe {
        z3_sys::Z3_param_descrs_inc_ref(raw, descrs);
        let names = (0..z3_sys::Z3_param_descrs_size(raw, descrs))
            .map(|i| {
                let symbol: Option<Z3_symbol> = z3_sys::Z3_param_descrs_get_name(raw, descrs, i);
                symbol_text(raw, symbol)
            })
            .collect();
        z3_sys::Z3_param_descrs_dec_ref(raw, descrs);
        names
    }
}

/// Builds the chain and its solver in the thread-local context of `raw`, judging Z3's
/// descriptions of what it accepted on the way.
///
/// # Safety
/// `raw` must be the live thread-local context.
unsafe fn make(
    f: &Functions,
    raw: Z3_context,
    chain: &str,
    params: &[(String, String)],
    assertions: &[Bool],
) -> Result<Option<Made>, String> {
    // SAFETY: plain calls on a live context; every simplifier is held while used.
    unsafe {
        let listed: Vec<String> = (0..(f.num)(raw))
            .map(|i| text((f.name)(raw, i)))
            .collect::<Result<_, _>>()?;
        let mut held: Option<Held> = None;
        for name in chain.split(' ') {
            if !listed.iter().any(|l| l == name) {
                return Ok(Some(Made::Unlisted(name.to_string())));
            }
            let c_name = CString::new(name).map_err(|e| e.to_string())?;
            let descr = text((f.descr)(raw, c_name.as_ptr()))?;
            if descr.trim().is_empty() {
                return Ok(Some(Made::Inconsistent(format!(
                    "Z3_simplifier_get_descr of `{name}`, which Z3_get_simplifier_name lists, is empty"
                ))));
            }
            let Some(one) = Held::adopt(f, raw, (f.mk)(raw, c_name.as_ptr())) else {
                return Ok(None);
            };
            held = match held {
                None => Some(one),
                Some(before) => {
                    let Some(both) = Held::adopt(f, raw, (f.and_then)(raw, before.s, one.s)) else {
                        return Ok(None);
                    };
                    Some(both)
                }
            };
        }
        let Some(mut chained) = held else {
            return Ok(None);
        };
        if !params.is_empty() {
            let p = z3_sys::Z3_mk_params(raw).ok_or("Z3_mk_params failed")?;
            z3_sys::Z3_params_inc_ref(raw, p);
            for (key, value) in params {
                let c_key = CString::new(key.as_str()).map_err(|e| e.to_string())?;
                let symbol = z3_sys::Z3_mk_string_symbol(raw, c_key.as_ptr())
                    .ok_or("Z3_mk_string_symbol failed")?;
                z3_sys::Z3_params_set_bool(raw, p, symbol, value == "true");
            }
            let with = Held::adopt(f, raw, (f.using_params)(raw, chained.s, p));
            z3_sys::Z3_params_dec_ref(raw, p);
            let Some(with) = with else {
                return Ok(None);
            };
            chained = with;
        }
        let help = text((f.help)(raw, chained.s))?;
        let described = match (f.param_descrs)(raw, chained.s) {
            Some(d) => descr_names(raw, d)?,
            None => return Ok(None),
        };
        for (key, _) in params {
            if !described.contains(key) {
                return Ok(Some(Made::Inconsistent(format!(
                    "Z3 accepted the parameter `{key}` for `{chain}`, whose parameter descriptions lack it"
                ))));
            }
            if !help.contains(key.as_str()) {
                return Ok(Some(Made::Inconsistent(format!(
                    "Z3 accepted the parameter `{key}` for `{chain}`, whose help does not name it"
                ))));
            }
        }
        let adder = f.add;
        let simplifier = chained.s;
        let solver = RawSolver::made(SOLVER_CHECK_RLIMIT, assertions, |raw| {
            let base = z3_sys::Z3_mk_solver(raw)?;
            z3_sys::Z3_solver_inc_ref(raw, base);
            let with = adder(raw, base, simplifier);
            z3_sys::Z3_solver_dec_ref(raw, base);
            with
        });
        Ok(solver.map(Made::Solver))
    }
}

impl Executor {
    /// `check_simplifier`: see [`model::Check::Simplifier`]. Unknown answers, a formula the
    /// checks cannot name, a formula changed since Z's last check and a simplifier the loaded
    /// Z3 does not list are no verdict (counted).
    pub(super) fn check_simplifier(
        &mut self,
        check: &Check,
        z: SolverId,
        chain: &str,
        params: &[(String, String)],
    ) -> Result<(), ExecError> {
        let Some(super::checks::LastCheck {
            expected,
            assertions,
            assumed,
            ctx,
            foreign,
        }) = self.last_check(z, "simplifier")
        else {
            return Ok(());
        };
        let functions = Functions::load().map_err(ExecError::Malformed)?;
        let judged = guard::in_context(&ctx, || -> Result<Option<Judged>, String> {
            let local = |t: &Dynamic| super::into_context(t, &ctx, foreign);
            let asserted: Vec<Bool> = assertions
                .iter()
                .filter_map(|t| local(t).as_bool())
                .collect();
            let assumed: Vec<Dynamic> = assumed.iter().map(local).collect();
            // SAFETY: the thread-local context is `ctx`, live for the whole block.
            let made = unsafe { make(&functions, ctx.get_z3_context(), chain, params, &asserted)? };
            let solver = match made {
                None => return Ok(None),
                Some(Made::Unlisted(name)) => return Ok(Some(Judged::Unlisted(name))),
                Some(Made::Inconsistent(problem)) => return Ok(Some(Judged::Wrong(problem))),
                Some(Made::Solver(solver)) => solver,
            };
            let answer = solver.check_assumptions(&assumed);
            if answer != SatResult::Sat {
                return Ok(Some(Judged::Answer(answer)));
            }
            let formula: Vec<Dynamic> = asserted
                .iter()
                .map(|b| Dynamic::from_ast(b))
                .chain(assumed.iter().cloned())
                .collect();
            Ok(Some(match solver.first_false(&formula) {
                Some(Some(wrong)) => Judged::Model(super::guard::one_line(&wrong.to_string())),
                _ => Judged::Answer(answer),
            }))
        });
        let judged = match judged {
            Err(message) | Ok(Err(message)) => return self.check_error(check, message),
            Ok(Ok(None)) => {
                return Err(ExecError::Z3(format!(
                    "{}: Z3 returned no object",
                    check.name()
                )))
            }
            Ok(Ok(Some(judged))) => judged,
        };
        match judged {
            Judged::Unlisted(name) => {
                self.count(&format!("simplifier: skipped: `{name}` not in this Z3"));
                Ok(())
            }
            Judged::Wrong(problem) => Err(Self::finding(
                check,
                problem,
                "simplifier descriptions disagree with what Z3 accepted".into(),
            )),
            Judged::Model(term) => Err(Self::finding(
                check,
                format!("the solver with simplifiers `{chain}` gave a model in which {term} is not true"),
                "model of a solver with simplifiers falsifies the formula".into(),
            )),
            Judged::Answer(SatResult::Unknown) => {
                self.count("simplifier: unknown");
                Ok(())
            }
            Judged::Answer(answer) if super::sat(answer) == expected => {
                self.count("simplifier: agreed");
                Ok(())
            }
            Judged::Answer(answer) => Err(Self::finding(
                check,
                format!(
                    "a solver with simplifiers `{chain}` answered {} where {z} ({}) answered {} on the same formula",
                    super::sat(answer).name(),
                    self.solver_kind(z),
                    expected.name()
                ),
                format!(
                    "simplifier solver {}, {} {}",
                    super::sat(answer).name(),
                    self.solver_class(z),
                    expected.name()
                ),
            )),
        }
    }
}

/// What the check's own solver did.
enum Judged {
    Unlisted(String),
    Wrong(String),
    /// Its model falsifies the formula: the term, as Z3 prints it.
    Model(String),
    Answer(SatResult),
}
