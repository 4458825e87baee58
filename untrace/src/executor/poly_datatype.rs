//! `check_poly_datatype`: Z3's polymorphic datatypes (`Z3_mk_type_variable`,
//! `Z3_mk_polymorphic_datatype`, `Z3_mk_datatype_sort`, `Z3_constructor_num_fields`;
//! releases after 4.8.12), looked up by name, never linked ([`POLY_DATATYPE_FUNCTIONS`],
//! `read::missing_function`). Built inside the check: the datatype `(PolyPair T)` of a type
//! variable T with the constructors `pnone` and `(pmk (pfst T) (psnd T))`, instantiated by
//! name at the sort S of the check's two terms; its constructor, accessors and recognizers
//! are applied and simplified, and must give back what exact datatype semantics says.
//!
//! No term of the instantiated datatype is ever printed: Z3 5.4.1 does not return from
//! printing one (`Z3_ast_to_string` of `(pmk 7 8)` of `(PolyPair Int)` loops; of a recursive
//! polymorphic list it fails with `unreachable`), so findings name the check's terms only.

use super::datatypes::sort_of_raw;
use super::read::typed;
use super::{inject, ExecError, Executor};
use model::call::{Check, TermId};
use std::ffi::{c_uint, CString};
use std::sync::atomic::{AtomicUsize, Ordering};
use z3::ast::{Ast, Dynamic};
use z3::Context;
use z3_sys::{Z3_constructor, Z3_context, Z3_sort, Z3_symbol};

/// The functions of Z3's polymorphic datatypes, which only releases after 4.8.12 have.
pub const POLY_DATATYPE_FUNCTIONS: &[&str] = &[
    "Z3_mk_type_variable",
    "Z3_mk_polymorphic_datatype",
    "Z3_mk_datatype_sort",
    "Z3_constructor_num_fields",
];

type MkTypeVariable = unsafe extern "C" fn(Z3_context, Z3_symbol) -> Option<Z3_sort>;
type MkPolymorphic = unsafe extern "C" fn(
    Z3_context,
    Z3_symbol,
    c_uint,
    *const Z3_sort,
    c_uint,
    *mut Z3_constructor,
) -> Option<Z3_sort>;
type MkDatatypeSort =
    unsafe extern "C" fn(Z3_context, Z3_symbol, c_uint, *const Z3_sort) -> Option<Z3_sort>;
type NumFields = unsafe extern "C" fn(Z3_context, Z3_constructor) -> c_uint;

/// Distinct datatype names in one process (a context keeps every declaration).
static DECLARED: AtomicUsize = AtomicUsize::new(0);

/// # Safety
/// `c` is the live thread-local context.
unsafe fn symbol(c: Z3_context, name: &str) -> Result<Z3_symbol, String> {
    let text = CString::new(name).map_err(|e| e.to_string())?;
    z3_sys::Z3_mk_string_symbol(c, text.as_ptr()).ok_or_else(|| format!("no symbol {name}"))
}

/// Judges the polymorphic pair of `a` and `b` (terms of one sort): `Ok(None)` agreed,
/// `Ok(Some(problem))` a wrong answer; `fault` expects the fields the other way round
/// (`wrong-fset`).
fn judge(a: &Dynamic, b: &Dynamic, fault: bool) -> Result<Option<String>, String> {
    let ctx = Context::thread_local();
    let c = ctx.get_z3_context();
    let name = format!("PolyPair!{}", DECLARED.fetch_add(1, Ordering::Relaxed));
    // SAFETY: the functions' z3_api.h signatures on the live thread-local context; every
    // sort is held by a constant of it (`sort_of_raw`) and every term wrapped (referenced)
    // at once; each function declaration is applied right after Z3 returns it; the
    // constructor objects are deleted once the datatype is made.
    unsafe {
        let type_variable: MkTypeVariable = typed("Z3_mk_type_variable")?;
        let polymorphic: MkPolymorphic = typed("Z3_mk_polymorphic_datatype")?;
        let datatype_sort: MkDatatypeSort = typed("Z3_mk_datatype_sort")?;
        let num_fields: NumFields = typed("Z3_constructor_num_fields")?;
        let t = type_variable(c, symbol(c, "T")?).ok_or("Z3_mk_type_variable gave nothing")?;
        let t = sort_of_raw(t);
        let fields = [symbol(c, "pfst")?, symbol(c, "psnd")?];
        let field_sorts = [t.get_z3_sort(), t.get_z3_sort()];
        let refs: [c_uint; 2] = [0, 0];
        let none = z3_sys::Z3_mk_constructor(
            c,
            symbol(c, "pnone")?,
            symbol(c, "is-pnone")?,
            0,
            std::ptr::null(),
            std::ptr::null(),
            std::ptr::null_mut(),
        )
        .ok_or("Z3_mk_constructor gave nothing")?;
        let mk = z3_sys::Z3_mk_constructor(
            c,
            symbol(c, "pmk")?,
            symbol(c, "is-pmk")?,
            2,
            fields.as_ptr(),
            field_sorts.as_ptr().cast(),
            refs.as_ptr().cast_mut(),
        )
        .ok_or("Z3_mk_constructor gave nothing")?;
        let counts = (num_fields(c, none), num_fields(c, mk));
        let mut ctors = [none, mk];
        let params = [t.get_z3_sort()];
        let made = polymorphic(
            c,
            symbol(c, &name)?,
            1,
            params.as_ptr(),
            2,
            ctors.as_mut_ptr(),
        );
        for ctor in ctors {
            z3_sys::Z3_del_constructor(c, ctor);
        }
        if counts != (0, 2) {
            return Ok(Some(format!(
                "Z3_constructor_num_fields of pnone and pmk are {} and {}, expected 0 and 2",
                counts.0, counts.1
            )));
        }
        let _generic = sort_of_raw(made.ok_or("Z3_mk_polymorphic_datatype gave nothing")?);
        let s = a.get_sort();
        let params = [s.get_z3_sort()];
        let instance = datatype_sort(c, symbol(c, &name)?, 1, params.as_ptr())
            .ok_or("Z3_mk_datatype_sort gave nothing")?;
        let instance = sort_of_raw(instance);
        let i = instance.get_z3_sort();
        let n = z3_sys::Z3_get_datatype_sort_num_constructors(c, i);
        if n != 2 {
            return Ok(Some(format!(
                "the instance at {s} has {n} constructors, expected 2"
            )));
        }
        let wrap = |made: Option<z3_sys::Z3_ast>, what: &str| -> Result<Dynamic, String> {
            made.map(|t| Dynamic::wrap(&ctx, t))
                .ok_or_else(|| format!("{what} gave nothing"))
        };
        let apply = |decl: Option<z3_sys::Z3_func_decl>, args: &[z3_sys::Z3_ast], what: &str| {
            let decl = decl.ok_or_else(|| format!("no {what}"))?;
            wrap(
                z3_sys::Z3_mk_app(c, decl, args.len() as c_uint, args.as_ptr()),
                what,
            )
        };
        let pair = apply(
            z3_sys::Z3_get_datatype_sort_constructor(c, i, 1),
            &[a.get_z3_ast(), b.get_z3_ast()],
            "pmk",
        )?;
        let p = [pair.get_z3_ast()];
        super::unlogged::note("Z3_is_eq_ast");
        let (first, second) = if fault { (b, a) } else { (a, b) };
        for (index, field, expected) in [(0, "pfst", first), (1, "psnd", second)] {
            let read = apply(
                z3_sys::Z3_get_datatype_sort_constructor_accessor(c, i, 1, index),
                &p,
                field,
            )?;
            if read.get_sort() != s {
                return Ok(Some(format!(
                    "{field} of the instance at {s} has sort {}",
                    read.get_sort()
                )));
            }
            if !z3_sys::Z3_is_eq_ast(
                c,
                read.simplify().get_z3_ast(),
                expected.simplify().get_z3_ast(),
            ) {
                return Ok(Some(format!(
                    "{field} of pmk does not simplify to its argument {}",
                    index + 1
                )));
            }
        }
        for (index, recognizer, holds) in [(0, "is-pnone", false), (1, "is-pmk", true)] {
            let test = apply(
                z3_sys::Z3_get_datatype_sort_recognizer(c, i, index),
                &p,
                recognizer,
            )?;
            let value = test.simplify().as_bool().and_then(|v| v.as_bool());
            if value != Some(holds) {
                return Ok(Some(format!(
                    "{recognizer} of pmk simplifies to {value:?}, expected {holds}"
                )));
            }
        }
        Ok(None)
    }
}

impl Executor {
    /// `check_poly_datatype`: see [`model::Check::PolyDatatype`].
    pub(super) fn check_poly_datatype(
        &mut self,
        check: &Check,
        a: TermId,
        b: TermId,
    ) -> Result<(), ExecError> {
        let (ta, tb) = (self.z3_term(a)?.clone(), self.z3_term(b)?.clone());
        let fault = matches!(self.config.inject, Some(inject::Fault::WrongFset));
        match self.main(|| judge(&ta, &tb, fault))? {
            Err(message) => self.check_error(check, message),
            Ok(None) => {
                self.count("poly_datatype: agreed");
                Ok(())
            }
            Ok(Some(problem)) => Err(Self::finding(
                check,
                format!("the polymorphic pair of {a} and {b}: {problem}"),
                "a polymorphic datatype's instance disagrees with its declaration".into(),
            )),
        }
    }
}
