//! The read-backs (`read`, `read_sort`, `read_eq`, `read_stats`): each [`Reader`] of
//! `model::read` mapped to its Z3 function, its answer as the text `model::read` describes.
//!
//! Functions whose result is an enumeration (`Z3_get_ast_kind`, `Z3_get_sort_kind`,
//! `Z3_get_decl_kind`, `Z3_get_symbol_kind`) and the functions only releases after 4.8.12
//! have ([`Reader::newer_only`]) are looked up by name in the loaded libz3 ([`function`]):
//! an enumerator the `z3-sys` enum does not know would be undefined behaviour in Rust, and a
//! function 4.8.12 lacks must never be a link error. [`available`] says whether the loaded
//! libz3 has a reader's function; a replay refuses a trace that needs one it lacks
//! ([`missing_function`]).

use model::read::Reader;
use std::collections::HashMap;
use std::ffi::{c_char, c_uint, c_void, CStr};
use std::sync::OnceLock;
use z3::ast::{Ast, Dynamic};
use z3::Context;
use z3_sys::{Z3_ast, Z3_context, Z3_sort, Z3_symbol};

/// AST and sort kinds as the numbers Z3's kind functions answer. The kinds are read as numbers
/// (a release may answer a kind the z3-sys enums lack, which as an enum would be undefined
/// behaviour); the numbers come from z3-sys's enums, the same in every release.
pub mod kinds {
    use std::ffi::c_uint;
    use z3_sys::{AstKind, SortKind};

    pub const APP_AST: c_uint = AstKind::App as c_uint;
    pub const VAR_AST: c_uint = AstKind::Var as c_uint;
    pub const QUANTIFIER_AST: c_uint = AstKind::Quantifier as c_uint;
    pub const UNINTERPRETED_SORT: c_uint = SortKind::Uninterpreted as c_uint;
    pub const BOOL_SORT: c_uint = SortKind::Bool as c_uint;
    pub const INT_SORT: c_uint = SortKind::Int as c_uint;
    pub const REAL_SORT: c_uint = SortKind::Real as c_uint;
    pub const ARRAY_SORT: c_uint = SortKind::Array as c_uint;
    pub const DATATYPE_SORT: c_uint = SortKind::Datatype as c_uint;
    pub const RELATION_SORT: c_uint = SortKind::Relation as c_uint;
}

/// The address of a Z3 function in the loaded libz3, looked up once.
pub(super) fn function(name: &'static str) -> Option<*mut c_void> {
    static FOUND: OnceLock<std::sync::Mutex<HashMap<&'static str, usize>>> = OnceLock::new();
    let found = FOUND.get_or_init(Default::default);
    let mut found = found.lock().unwrap_or_else(|e| e.into_inner());
    let address = *found
        .entry(name)
        .or_insert_with(|| z3log::replay::lookup(name).map_or(0, |p| p as usize));
    (address != 0).then_some(address as *mut c_void)
}

/// Whether the loaded libz3 has the function `name` (looked up once).
pub fn has_function(name: &'static str) -> bool {
    function(name).is_some()
}

/// Whether the loaded libz3 has the reader's function.
pub fn available(reader: Reader) -> bool {
    !reader.newer_only() || function(reader.name()).is_some()
}

/// The functions of `check_congruence`, which only releases after 4.8.12 have.
pub const CONGRUENCE_FUNCTIONS: &[&str] = &[
    "Z3_solver_congruence_root",
    "Z3_solver_congruence_next",
    "Z3_solver_congruence_explain",
];

/// The constructors of `bit2bool`, `str.from_code`, `str.from_ubv`, `str.from_sbv` and
/// `seq.power`, which only releases after 4.8.12 have.
const NEWER_OP_FUNCTIONS: &[&str] = &[
    "Z3_mk_bit2bool",
    "Z3_mk_string_from_code",
    "Z3_mk_ubv_to_str",
    "Z3_mk_sbv_to_str",
    "Z3_mk_seq_power",
];

/// The functions of the checks and constructors only releases after 4.8.12 have.
const NEWER_FUNCTION_LISTS: [&[&str]; 14] = [
    super::qe_map::QE_WITNESS_FUNCTIONS,
    CONGRUENCE_FUNCTIONS,
    super::proof_check::PROOF_CHECK_FUNCTIONS,
    super::propagator::PROPAGATOR_FUNCTIONS,
    super::simplifier::SIMPLIFIER_FUNCTIONS,
    NEWER_OP_FUNCTIONS,
    super::initial_value::INITIAL_VALUE_FUNCTIONS,
    super::parser_context::PARSER_CONTEXT_FUNCTIONS,
    super::chars::CHAR_FUNCTIONS,
    super::fsets::FSET_FUNCTIONS,
    super::fsets::FF_FUNCTIONS,
    model::seq_hof::SEQ_HOF_FUNCTIONS,
    super::complex::COMPLEX_FUNCTIONS,
    super::poly_datatype::POLY_DATATYPE_FUNCTIONS,
];

/// The newer-only functions (read-backs and checks) the loaded libz3 has, for the trace
/// header.
pub fn newer_functions_present() -> Vec<&'static str> {
    model::read::READERS
        .iter()
        .filter(|r| r.3)
        .map(|r| r.1)
        .chain(NEWER_FUNCTION_LISTS.iter().flat_map(|l| l.iter().copied()))
        .chain(
            model::introspect::OPT_READERS
                .iter()
                .filter(|r| r.1)
                .map(|r| r.0),
        )
        .chain(model::goals::NEWER_SOLVER_READERS.iter().copied())
        .chain(
            model::handles::GLOBAL_READERS
                .iter()
                .filter(|r| r.2)
                .map(|r| r.0),
        )
        .filter(|name| function(name).is_some())
        // 4.8.12 has some of the propagator's functions with other callback signatures: they
        // are the trace's only where the release has them all.
        .filter(|name| {
            !super::propagator::PROPAGATOR_FUNCTIONS.contains(name) || propagators_available()
        })
        .collect()
}

/// Whether the loaded libz3 has the function of `check_proof_callback`.
pub fn proof_checks_available() -> bool {
    super::proof_check::PROOF_CHECK_FUNCTIONS
        .iter()
        .all(|f| function(f).is_some())
}

/// Whether the loaded libz3 has every function of `check_propagator`.
pub fn propagators_available() -> bool {
    super::propagator::PROPAGATOR_FUNCTIONS
        .iter()
        .all(|f| function(f).is_some())
}

/// Whether the loaded libz3 has every function of `check_chars`.
pub fn chars_available() -> bool {
    super::chars::CHAR_FUNCTIONS
        .iter()
        .all(|f| function(f).is_some())
}

/// Whether the loaded libz3 has every function of Z3's finite sets.
pub fn finite_sets_available() -> bool {
    super::fsets::FSET_FUNCTIONS
        .iter()
        .all(|f| function(f).is_some())
}

/// Whether the loaded libz3 has every function of Z3's prime fields.
pub fn finite_fields_available() -> bool {
    super::fsets::FF_FUNCTIONS
        .iter()
        .all(|f| function(f).is_some())
}

/// Whether the loaded libz3 has every function of `check_poly_datatype`.
pub fn poly_datatypes_available() -> bool {
    super::poly_datatype::POLY_DATATYPE_FUNCTIONS
        .iter()
        .all(|f| function(f).is_some())
}

/// Whether the loaded libz3 has every function of `check_complex`.
pub fn complex_available() -> bool {
    super::complex::COMPLEX_FUNCTIONS
        .iter()
        .all(|f| function(f).is_some())
}

/// Whether the loaded libz3 has every higher-order sequence function (`seq_hof`).
pub fn seq_hofs_available() -> bool {
    model::seq_hof::SEQ_HOF_FUNCTIONS
        .iter()
        .all(|f| function(f).is_some())
}

/// Whether the loaded libz3 has every function of `check_parser_context`.
pub fn parser_contexts_available() -> bool {
    super::parser_context::PARSER_CONTEXT_FUNCTIONS
        .iter()
        .all(|f| function(f).is_some())
}

/// Whether the loaded libz3 has every function of `check_initial_value`.
pub fn initial_values_available() -> bool {
    super::initial_value::INITIAL_VALUE_FUNCTIONS
        .iter()
        .all(|f| function(f).is_some())
}

/// Whether the loaded libz3 has every function of `check_simplifier`.
pub fn simplifiers_available() -> bool {
    super::simplifier::SIMPLIFIER_FUNCTIONS
        .iter()
        .all(|f| function(f).is_some())
}

/// Whether the loaded libz3 has the function of the global read `function`
/// (`model::handles::GLOBAL_READERS`; those of releases after 4.8.12 are looked up).
pub fn global_available(function: &str) -> bool {
    model::handles::GLOBAL_READERS
        .iter()
        .find(|(name, ..)| *name == function)
        .is_some_and(|(name, _, newer)| !newer || self::function(name).is_some())
}

/// Whether the loaded libz3 has the function of the solver reader `function`
/// (`model::goals::SOLVER_READERS`; those of releases after 4.8.12 are looked up).
pub fn solver_reader_available(function: &str) -> bool {
    model::goals::NEWER_SOLVER_READERS
        .iter()
        .find(|name| **name == function)
        .is_none_or(|name| self::function(name).is_some())
}

/// Whether the loaded libz3 has the function of `check_qe_witness`.
pub fn qe_witness_available() -> bool {
    super::qe_map::QE_WITNESS_FUNCTIONS
        .iter()
        .all(|f| function(f).is_some())
}

/// Whether the loaded libz3 has every function of `check_rcf_sign_conditions`.
pub fn sign_conditions_available() -> bool {
    super::rcf::SIGN_CONDITION_FUNCTIONS
        .iter()
        .all(|f| function(f).is_some())
}
/// Whether the loaded libz3 has the function of the Optimize reader `function`
/// (`model::introspect::OPT_READERS`; those of releases after 4.8.12 are looked up).
pub fn opt_reader_available(function: &str) -> bool {
    model::introspect::OPT_READERS
        .iter()
        .find(|(name, _)| *name == function)
        .is_some_and(|(name, newer)| !newer || self::function(name).is_some())
}

/// Whether the loaded libz3 has every function of `check_congruence`.
pub fn congruence_available() -> bool {
    CONGRUENCE_FUNCTIONS.iter().all(|f| function(f).is_some())
}

/// The first entry (its index and function) that needs a function the loaded libz3 lacks.
pub fn missing_function(entries: &[model::Entry]) -> Option<(usize, &'static str)> {
    entries.iter().enumerate().find_map(|(i, e)| {
        let needed: Vec<&'static str> = match &e.call {
            model::Call::Read { function, .. }
            | model::Call::ReadSort { function, .. }
            | model::Call::ReadRcf { function, .. } => {
                let reader = Reader::from_name(function)?;
                vec![reader.name()]
                    .into_iter()
                    .filter(|_| reader.newer_only())
                    .collect()
            }
            model::Call::Check(model::Check::Congruence { .. }) => CONGRUENCE_FUNCTIONS.to_vec(),
            model::Call::Check(model::Check::Propagator { .. }) => {
                super::propagator::PROPAGATOR_FUNCTIONS.to_vec()
            }
            model::Call::Check(model::Check::ProofCallback(_)) => {
                super::proof_check::PROOF_CHECK_FUNCTIONS.to_vec()
            }
            model::Call::Op { op, .. } => super::ops::NEWER_ONLY_OPS
                .iter()
                .filter(|(name, _)| *name == op.0.name)
                .map(|(_, function)| *function)
                .collect(),
            model::Call::Check(model::Check::Chars(_)) => super::chars::CHAR_FUNCTIONS.to_vec(),
            // The 5.x releases do not have it (4.8.12 refuses it as unsupported).
            model::Call::SetHasSize(..) => vec!["Z3_mk_set_has_size"],
            model::Call::Check(model::Check::QeMap { witness: true, .. }) => {
                super::qe_map::QE_WITNESS_FUNCTIONS.to_vec()
            }
            model::Call::Check(model::Check::PolyDatatype(..)) => {
                super::poly_datatype::POLY_DATATYPE_FUNCTIONS.to_vec()
            }
            model::Call::Check(model::Check::Complex(_)) => {
                super::complex::COMPLEX_FUNCTIONS.to_vec()
            }
            model::Call::SeqHof { function, .. } => model::seq_hof::SEQ_HOF_FUNCTIONS
                .iter()
                .copied()
                .filter(|f| f == function)
                .collect(),
            model::Call::Check(model::Check::RcfSignConditions(_)) => {
                super::rcf::SIGN_CONDITION_FUNCTIONS.to_vec()
            }
            // The check builds values with the set makers.
            model::Call::Check(model::Check::FiniteSet { .. }) => {
                super::fsets::FSET_FUNCTIONS.to_vec()
            }
            model::Call::Check(model::Check::FiniteField { .. }) => {
                super::fsets::FF_FUNCTIONS.to_vec()
            }
            call if call.spec().family == model::call_args::Family::FiniteFields => call
                .spec()
                .z3
                .iter()
                .copied()
                .filter(|f| super::fsets::FF_FUNCTIONS.contains(f))
                .collect(),
            // A finite-set call needs its own functions (those of its description that are
            // finite-set functions); a term or constant of a finite set sort needed the sort.
            call if call.spec().family == model::call_args::Family::FiniteSets => call
                .spec()
                .z3
                .iter()
                .copied()
                .filter(|f| super::fsets::FSET_FUNCTIONS.contains(f))
                .collect(),
            model::Call::Check(model::Check::ParserContext(_)) => {
                super::parser_context::PARSER_CONTEXT_FUNCTIONS.to_vec()
            }
            model::Call::Check(model::Check::InitialValue { .. }) => {
                super::initial_value::INITIAL_VALUE_FUNCTIONS.to_vec()
            }
            model::Call::Check(model::Check::Simplifier { .. }) => {
                super::simplifier::SIMPLIFIER_FUNCTIONS.to_vec()
            }
            model::Call::OptRead { function, .. } => model::introspect::OPT_READERS
                .iter()
                .filter(|(name, newer)| *newer && name == function)
                .map(|(name, _)| *name)
                .collect(),
            model::Call::SolverRead { function, .. } => model::goals::NEWER_SOLVER_READERS
                .iter()
                .copied()
                .filter(|name| name == function)
                .collect(),
            model::Call::ReadGlobal { function, .. } => model::handles::GLOBAL_READERS
                .iter()
                .filter(|(name, _, newer)| *newer && name == function)
                .map(|(name, ..)| *name)
                .collect(),
            _ => return None,
        };
        needed
            .into_iter()
            .find(|name| function(name).is_none())
            .map(|name| (i, name))
    })
}

type AstToU32 = unsafe extern "C" fn(Z3_context, Z3_ast) -> c_uint;
type AstToBool = unsafe extern "C" fn(Z3_context, Z3_ast) -> bool;
type SortToU32 = unsafe extern "C" fn(Z3_context, Z3_sort) -> c_uint;
type SortToBool = unsafe extern "C" fn(Z3_context, Z3_sort) -> bool;
type AstToSymbol = unsafe extern "C" fn(Z3_context, Z3_ast) -> Option<Z3_symbol>;
type SymbolToU32 = unsafe extern "C" fn(Z3_context, Z3_symbol) -> c_uint;
type DeclToU32 = unsafe extern "C" fn(Z3_context, z3_sys::Z3_func_decl) -> c_uint;
type StringContents = unsafe extern "C" fn(Z3_context, Z3_ast, c_uint, *mut c_uint);
type SortDomainN = unsafe extern "C" fn(Z3_context, Z3_sort, c_uint) -> Option<Z3_sort>;
type DeclParamKind = unsafe extern "C" fn(Z3_context, z3_sys::Z3_func_decl, c_uint) -> c_uint;

/// The function `name` as a pointer of type `F` (the caller names the C signature).
///
/// # Safety
/// `F` must be the function's C signature.
pub(super) unsafe fn typed<F: Copy>(name: &'static str) -> Result<F, String> {
    let address = function(name).ok_or_else(|| format!("{name} is not in the loaded libz3"))?;
    debug_assert_eq!(std::mem::size_of::<F>(), std::mem::size_of::<*mut c_void>());
    // SAFETY: the caller names the signature; a function pointer is pointer-sized.
    Ok(unsafe { std::mem::transmute_copy::<*mut c_void, F>(&address) })
}

pub(super) fn text(p: *const c_char) -> Result<String, String> {
    if p.is_null() {
        return Err("Z3 returned no string".into());
    }
    // SAFETY: Z3 returns a NUL-terminated string it owns until the next call.
    Ok(unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
}

fn flag(b: bool) -> String {
    b.to_string()
}

/// `false` when Z3's Boolean result says the value is not there, else the value.
fn or_false(ok: bool, value: impl FnOnce() -> String) -> String {
    if ok {
        value()
    } else {
        "false".into()
    }
}

/// The numeral string of a term Z3 returned (kept alive by a reference while read).
fn numeral_of(ctx: Z3_context, ast: Option<Z3_ast>) -> Result<String, String> {
    let ast = ast.ok_or("Z3 returned no term")?;
    // SAFETY: a live context and an AST Z3 just returned, referenced while it is read.
    unsafe {
        z3_sys::Z3_inc_ref(ctx, ast);
        let value = text(z3_sys::Z3_get_numeral_string(ctx, ast));
        z3_sys::Z3_dec_ref(ctx, ast);
        value
    }
}

/// The elements of an AST vector Z3 returned, each wrapped (referenced) in `ctx`, the vector
/// released.
///
/// # Safety
/// `v` is a live vector of `ctx`.
pub(super) unsafe fn ast_vector_items(ctx: &Context, v: z3_sys::Z3_ast_vector) -> Vec<Dynamic> {
    let c = ctx.get_z3_context();
    // SAFETY: as the caller promises; the vector is referenced while its elements are read.
    unsafe {
        z3_sys::Z3_ast_vector_inc_ref(c, v);
        let items = (0..z3_sys::Z3_ast_vector_size(c, v))
            .filter_map(|i| z3_sys::Z3_ast_vector_get(c, v, i))
            .map(|a| Dynamic::wrap(ctx, a))
            .collect();
        z3_sys::Z3_ast_vector_dec_ref(c, v);
        items
    }
}

pub(super) fn symbol_text(ctx: Z3_context, symbol: Option<Z3_symbol>) -> Result<String, String> {
    let symbol = symbol.ok_or("Z3 returned no symbol")?;
    // SAFETY: a live context and symbol; the kind is read as a plain number.
    unsafe {
        let kind: SymbolToU32 = typed("Z3_get_symbol_kind")?;
        if kind(ctx, symbol) == 0 {
            Ok(format!("#{}", z3_sys::Z3_get_symbol_int(ctx, symbol)))
        } else {
            text(z3_sys::Z3_get_symbol_string(ctx, symbol))
        }
    }
}

fn sort_text(ctx: Z3_context, sort: Option<Z3_sort>) -> Result<String, String> {
    let sort = sort.ok_or("Z3 returned no sort")?;
    super::unlogged::note("Z3_sort_to_string");
    // SAFETY: a live context and sort.
    text(unsafe { z3_sys::Z3_sort_to_string(ctx, sort) })
}

/// Every parameter of `decl` as `kind value`, separated by `; ` (`Reader::DeclParameters`):
/// each read by the getter of the kind Z3 reports, a sort or function parameter also by
/// `Z3_get_decl_ast_parameter`, which must give the same object (else the part says
/// [`model::read::DECL_PARAMETER_DIFFERS`]).
///
/// # Safety
/// `decl` is a live declaration of the live context `ctx`.
unsafe fn decl_parameters(ctx: Z3_context, decl: z3_sys::Z3_func_decl) -> Result<String, String> {
    use z3_sys::*;
    let kind_of: DeclParamKind = unsafe { typed("Z3_get_decl_parameter_kind")? };
    let differs = model::read::DECL_PARAMETER_DIFFERS;
    let mut parts = Vec::new();
    // SAFETY: the index is below the declaration's number of parameters and each getter is
    // the one of the kind Z3 reports for it.
    unsafe {
        for i in 0..Z3_get_decl_num_parameters(ctx, decl) {
            let as_ast = || Z3_get_decl_ast_parameter(ctx, decl, i).ok_or("no AST parameter");
            // `part` of a sort or function parameter whose own AST is `typed`: marked where
            // the AST parameter is another object.
            let checked = |part: String, typed: Option<Z3_ast>| -> Result<String, String> {
                super::unlogged::note("Z3_is_eq_ast");
                let ast = as_ast()?;
                Ok(match typed.is_some_and(|t| Z3_is_eq_ast(ctx, t, ast)) {
                    true => part,
                    false => format!("{part} {differs}"),
                })
            };
            parts.push(match kind_of(ctx, decl, i) {
                0 => format!("int {}", Z3_get_decl_int_parameter(ctx, decl, i)),
                1 => format!("double {:?}", Z3_get_decl_double_parameter(ctx, decl, i)),
                2 => format!(
                    "rational {}",
                    text(Z3_get_decl_rational_parameter(ctx, decl, i))?
                ),
                3 => format!(
                    "symbol {}",
                    symbol_text(ctx, Z3_get_decl_symbol_parameter(ctx, decl, i))?
                ),
                4 => {
                    let sort =
                        Z3_get_decl_sort_parameter(ctx, decl, i).ok_or("no sort parameter")?;
                    super::unlogged::note("Z3_sort_to_ast");
                    let part = format!("sort {}", sort_text(ctx, Some(sort))?);
                    checked(part, Z3_sort_to_ast(ctx, sort))?
                }
                5 => format!("ast {}", text(Z3_ast_to_string(ctx, as_ast()?))?),
                6 => {
                    let f = Z3_get_decl_func_decl_parameter(ctx, decl, i)
                        .ok_or("no function parameter")?;
                    super::unlogged::note("Z3_func_decl_to_ast");
                    let part = format!("func_decl {}", symbol_text(ctx, Z3_get_decl_name(ctx, f))?);
                    checked(part, Z3_func_decl_to_ast(ctx, f))?
                }
                // Kinds of later releases (Z3's own objects: FP numbers, strings): not read.
                kind => format!("kind {kind}"),
            });
        }
    }
    Ok(parts.join("; "))
}

/// The answer of `reader` for `term`, and the sort it returned for the readers that return
/// one (which the oracle compares with Z3's sort of the expected one).
pub fn read_term(reader: Reader, term: &Dynamic) -> Result<(String, Option<Z3_sort>), String> {
    let ctx = Context::thread_local().get_z3_context();
    super::unlogged::note(reader.name());
    let a = term.get_z3_ast();
    use z3_sys::*;
    use Reader as R;
    // SAFETY: plain reads of a live term of the thread-local context; the state's
    // preconditions (`Reader::applies_to_term`) are what Z3 documents for each.
    let value = unsafe {
        let app = || Z3_to_app(ctx, a).ok_or_else(|| "Z3_to_app gave no application".to_string());
        let decl = || -> Result<Z3_func_decl, String> {
            Z3_get_app_decl(ctx, app()?).ok_or_else(|| "Z3_get_app_decl gave nothing".into())
        };
        match reader {
            R::NumeralString => text(Z3_get_numeral_string(ctx, a))?,
            R::NumeralDecimalString => text(Z3_get_numeral_decimal_string(
                ctx,
                a,
                model::read::DECIMAL_PRECISION,
            ))?,
            R::NumeralBinaryString => text(Z3_get_numeral_binary_string(ctx, a))?,
            R::NumeralInt => {
                let mut v = 0;
                or_false(Z3_get_numeral_int(ctx, a, &mut v), || v.to_string())
            }
            R::NumeralUint => {
                let mut v = 0;
                or_false(Z3_get_numeral_uint(ctx, a, &mut v), || v.to_string())
            }
            R::NumeralInt64 => {
                let mut v = 0;
                or_false(Z3_get_numeral_int64(ctx, a, &mut v), || v.to_string())
            }
            R::NumeralUint64 => {
                let mut v = 0;
                or_false(Z3_get_numeral_uint64(ctx, a, &mut v), || v.to_string())
            }
            R::NumeralRationalInt64 => {
                let (mut n, mut d) = (0, 0);
                or_false(
                    Z3_get_numeral_rational_int64(ctx, a, &mut n, &mut d),
                    || format!("{n}/{d}"),
                )
            }
            R::NumeralSmall => {
                let (mut n, mut d) = (0, 0);
                or_false(Z3_get_numeral_small(ctx, a, &mut n, &mut d), || {
                    format!("{n}/{d}")
                })
            }
            R::NumeralDouble => format!("{:?}", Z3_get_numeral_double(ctx, a)),
            R::Numerator => numeral_of(ctx, Z3_get_numerator(ctx, a))?,
            R::Denominator => numeral_of(ctx, Z3_get_denominator(ctx, a))?,
            R::IsNumeralAst => flag(Z3_is_numeral_ast(ctx, a)),
            R::AstKind => {
                let kind: AstToU32 = typed("Z3_get_ast_kind")?;
                match kind(ctx, a) {
                    0 => "numeral".into(),
                    1 => "app".into(),
                    2 => "var".into(),
                    3 => "quantifier".into(),
                    4 => "sort".into(),
                    5 => "func_decl".into(),
                    other => other.to_string(),
                }
            }
            R::IsApp => flag(Z3_is_app(ctx, a)),
            R::AppNumArgs => Z3_get_app_num_args(ctx, app()?).to_string(),
            R::AppDeclName => symbol_text(ctx, Z3_get_decl_name(ctx, decl()?))?,
            R::AppDeclKind => {
                let kind: DeclToU32 = typed("Z3_get_decl_kind")?;
                kind(ctx, decl()?).to_string()
            }
            R::AppDomainSize => Z3_get_domain_size(ctx, decl()?).to_string(),
            R::AppRange => {
                let s = Z3_get_range(ctx, decl()?);
                return Ok((sort_text(ctx, s)?, s));
            }
            R::TermSort => {
                let s = Z3_get_sort(ctx, a);
                return Ok((sort_text(ctx, s)?, s));
            }
            R::BoolValue => match Z3_get_bool_value(ctx, a) {
                Z3_L_TRUE => "true".into(),
                Z3_L_FALSE => "false".into(),
                _ => "undef".into(),
            },
            R::IsWellSorted => flag(Z3_is_well_sorted(ctx, a)),
            R::EvalSimplify => {
                let printed = text(Z3_ast_to_string(ctx, a))?;
                let command = std::ffi::CString::new(format!("(simplify {printed})"))
                    .map_err(|_| "a term printed with NUL".to_string())?;
                text(Z3_eval_smtlib2_string(ctx, command.as_ptr()))?
                    .trim()
                    .to_string()
            }
            R::AstToString => text(Z3_ast_to_string(ctx, a))?,
            R::IsString => flag(Z3_is_string(ctx, a)),
            R::GetString => text(Z3_get_string(ctx, a))?,
            R::GetLstring => {
                let mut length: c_uint = 0;
                let p = Z3_get_lstring(ctx, a, &mut length);
                if p.is_null() {
                    return Err("Z3_get_lstring returned no string".into());
                }
                let bytes = std::slice::from_raw_parts(p.cast::<u8>(), length as usize);
                String::from_utf8_lossy(bytes).into_owned()
            }
            R::StringLength => {
                let length: AstToU32 = typed("Z3_get_string_length")?;
                length(ctx, a).to_string()
            }
            R::StringContents => {
                let length: AstToU32 = typed("Z3_get_string_length")?;
                let contents: StringContents = typed("Z3_get_string_contents")?;
                let n = length(ctx, a);
                // A literal's length is bounded by the trace's own text.
                let mut codes = vec![0 as c_uint; n as usize];
                contents(ctx, a, n, codes.as_mut_ptr());
                codes
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            }
            R::IsQuantifierForall => flag(Z3_is_quantifier_forall(ctx, a)),
            R::IsQuantifierExists => flag(Z3_is_quantifier_exists(ctx, a)),
            R::IsLambda => flag(Z3_is_lambda(ctx, a)),
            R::QuantifierWeight => Z3_get_quantifier_weight(ctx, a).to_string(),
            R::QuantifierNumBound => Z3_get_quantifier_num_bound(ctx, a).to_string(),
            R::QuantifierBoundName => symbol_text(ctx, Z3_get_quantifier_bound_name(ctx, a, 0))?,
            R::QuantifierBoundSort => {
                let s = Z3_get_quantifier_bound_sort(ctx, a, 0);
                return Ok((sort_text(ctx, s)?, s));
            }
            R::QuantifierNumPatterns => Z3_get_quantifier_num_patterns(ctx, a).to_string(),
            R::PatternNumTerms => {
                let p = Z3_get_quantifier_pattern_ast(ctx, a, 0).ok_or("no pattern 0")?;
                Z3_get_pattern_num_terms(ctx, p).to_string()
            }
            R::QuantifierNumNoPatterns => Z3_get_quantifier_num_no_patterns(ctx, a).to_string(),
            R::QuantifierBody | R::PatternTerm | R::QuantifierNoPattern => {
                // A term Z3 returns: its sort is judged, its text recorded (referenced
                // while it is read).
                let t = match reader {
                    R::QuantifierBody => Z3_get_quantifier_body(ctx, a),
                    R::PatternTerm => Z3_get_quantifier_pattern_ast(ctx, a, 0)
                        .and_then(|p| Z3_get_pattern(ctx, p, 0)),
                    _ => Z3_get_quantifier_no_pattern_ast(ctx, a, 0),
                }
                .ok_or("Z3 returned no term")?;
                Z3_inc_ref(ctx, t);
                let read = text(Z3_ast_to_string(ctx, t));
                let s = Z3_get_sort(ctx, t);
                Z3_dec_ref(ctx, t);
                return Ok((read?, s));
            }
            R::DeclNumParameters => Z3_get_decl_num_parameters(ctx, decl()?).to_string(),
            R::DeclParameterKind => {
                typed::<DeclParamKind>("Z3_get_decl_parameter_kind")?(ctx, decl()?, 0).to_string()
            }
            R::DeclRationalParameter => text(Z3_get_decl_rational_parameter(ctx, decl()?, 0))?,
            R::DeclIntParameter => Z3_get_decl_int_parameter(ctx, decl()?, 1).to_string(),
            R::Domain => {
                let s = Z3_get_domain(ctx, decl()?, 0);
                return Ok((sort_text(ctx, s)?, s));
            }
            // Whether the id is the declaration's AST id (ids differ between releases).
            R::FuncDeclId => {
                let d = decl()?;
                super::unlogged::note("Z3_func_decl_to_ast");
                let ast = Z3_func_decl_to_ast(ctx, d).ok_or("Z3_func_decl_to_ast gave nothing")?;
                flag(Z3_get_func_decl_id(ctx, d) == Z3_get_ast_id(ctx, ast))
            }
            R::ToFuncDecl => {
                let d = decl()?;
                super::unlogged::note("Z3_func_decl_to_ast");
                super::unlogged::note("Z3_is_eq_func_decl");
                let back = Z3_func_decl_to_ast(ctx, d)
                    .and_then(|ast| Z3_to_func_decl(ctx, ast))
                    .ok_or("Z3_to_func_decl gave nothing")?;
                flag(Z3_is_eq_func_decl(ctx, d, back))
            }
            R::IsAlgebraicNumber => flag(Z3_is_algebraic_number(ctx, a)),
            R::IsAsArray => flag(Z3_is_as_array(ctx, a)),
            R::AsArrayFuncDecl => {
                let f = Z3_get_as_array_func_decl(ctx, a).ok_or("no function")?;
                symbol_text(ctx, Z3_get_decl_name(ctx, f))?
            }
            R::DeclFuncDeclParameter => {
                let d = Z3_to_app(ctx, a)
                    .and_then(|app| Z3_get_app_decl(ctx, app))
                    .ok_or("no declaration")?;
                let f = Z3_get_decl_func_decl_parameter(ctx, d, 0).ok_or("no parameter")?;
                symbol_text(ctx, Z3_get_decl_name(ctx, f))?
            }
            R::DeclParameters => match Z3_is_app(ctx, a) {
                true => decl_parameters(ctx, decl()?)?,
                false => "no application".into(),
            },
            R::FpIsNumeral => flag(typed::<AstToBool>("Z3_fpa_is_numeral")?(ctx, a)),
            R::IsGround => flag(typed::<AstToBool>("Z3_is_ground")?(ctx, a)),
            R::Depth => typed::<AstToU32>("Z3_get_depth")?(ctx, a).to_string(),
            R::QuantifierId | R::QuantifierSkolemId => {
                // 5.x logs `Z3_get_quantifier_id` as `Z3_get_quantifier_skolem_id`.
                super::unlogged::note(reader.name());
                let id: AstToSymbol = typed(reader.name())?;
                // A quantifier made without an id (`Z3_mk_quantifier`, `Z3_mk_forall`) has
                // Z3's null symbol, which the function returns as NULL without an error.
                match id(ctx, a) {
                    Some(symbol) => symbol_text(ctx, Some(symbol))?,
                    None => "no id".into(),
                }
            }
            R::FpIsNan => flag(Z3_fpa_is_numeral_nan(ctx, a)),
            R::FpIsInf => flag(Z3_fpa_is_numeral_inf(ctx, a)),
            R::FpIsZero => flag(Z3_fpa_is_numeral_zero(ctx, a)),
            R::FpIsNormal => flag(Z3_fpa_is_numeral_normal(ctx, a)),
            R::FpIsSubnormal => flag(Z3_fpa_is_numeral_subnormal(ctx, a)),
            R::FpIsPositive => flag(Z3_fpa_is_numeral_positive(ctx, a)),
            R::FpIsNegative => flag(Z3_fpa_is_numeral_negative(ctx, a)),
            R::FpSign => {
                let mut negative = false;
                or_false(Z3_fpa_get_numeral_sign(ctx, a, &mut negative), || {
                    u8::from(negative).to_string()
                })
            }
            R::FpSignBv => numeral_of(ctx, Z3_fpa_get_numeral_sign_bv(ctx, a))?,
            R::FpSignificandString => text(Z3_fpa_get_numeral_significand_string(ctx, a))?,
            R::FpSignificandUint64 => {
                let mut v = 0;
                or_false(
                    Z3_fpa_get_numeral_significand_uint64(ctx, a, &mut v),
                    || v.to_string(),
                )
            }
            R::FpSignificandBv => numeral_of(ctx, Z3_fpa_get_numeral_significand_bv(ctx, a))?,
            R::FpExponentString => text(Z3_fpa_get_numeral_exponent_string(ctx, a, false))?,
            R::FpExponentInt64 => {
                let mut v = 0;
                or_false(
                    Z3_fpa_get_numeral_exponent_int64(ctx, a, &mut v, false),
                    || v.to_string(),
                )
            }
            R::FpExponentBv => numeral_of(ctx, Z3_fpa_get_numeral_exponent_bv(ctx, a, true))?,
            R::SortKind
            | R::SortName
            | R::SortToString
            | R::BvSortSize
            | R::FpEbits
            | R::FpSbits
            | R::ArrayDomain
            | R::ArrayRange
            | R::SeqSortBasis
            | R::ArrayArity
            | R::ArrayDomainN
            | R::SortId
            | R::IsSeqSort
            | R::IsReSort
            | R::ReSortBasis
            | R::TupleMkDecl
            | R::TupleNumFields
            | R::TupleFieldDecl => return Err(format!("{} reads a sort", reader.name())),
            R::IsCharSort | R::IsFiniteSetSort | R::IsRecursiveDatatype => {
                return Err(format!("{} reads a sort", reader.name()))
            }
            // The executor prints with the trace's declarations at hand (`handles.rs`).
            R::PrintMode => return Err("Z3_set_ast_print_mode is read by the executor".into()),
            R::RcfIsRational
            | R::RcfIsAlgebraic
            | R::RcfIsInfinitesimal
            | R::RcfIsTranscendental
            | R::RcfExtensionIndex
            | R::RcfTranscendentalName
            | R::RcfInfinitesimalName
            | R::RcfNumCoefficients
            | R::RcfCoefficient
            | R::RcfInterval
            | R::RcfNumSignConditions
            | R::RcfSignConditionSign
            | R::RcfNumSignConditionCoefficients
            | R::RcfSignConditionCoefficient => {
                return Err(format!("{} reads an RCF number", reader.name()))
            }
        }
    };
    Ok((value, None))
}

/// The answer of `reader` for `sort`, and the sort it returned where it returns one.
pub fn read_sort(reader: Reader, sort: &z3::Sort) -> Result<(String, Option<Z3_sort>), String> {
    let ctx = Context::thread_local().get_z3_context();
    super::unlogged::note(reader.name());
    let s = sort.get_z3_sort();
    use z3_sys::*;
    use Reader as R;
    // SAFETY: plain reads of a live sort; the preconditions are `Reader::applies_to_sort`.
    let value = unsafe {
        match reader {
            R::SortKind => typed::<SortToU32>("Z3_get_sort_kind")?(ctx, s).to_string(),
            R::SortName => symbol_text(ctx, Z3_get_sort_name(ctx, s))?,
            R::SortToString => text(Z3_sort_to_string(ctx, s))?,
            R::BvSortSize => Z3_get_bv_sort_size(ctx, s).to_string(),
            R::FpEbits => Z3_fpa_get_ebits(ctx, s).to_string(),
            R::FpSbits => Z3_fpa_get_sbits(ctx, s).to_string(),
            R::ArrayArity => typed::<SortToU32>("Z3_get_array_arity")?(ctx, s).to_string(),
            // Whether the id is the sort's AST id (ids differ between releases).
            R::SortId => {
                super::unlogged::note("Z3_sort_to_ast");
                let ast = Z3_sort_to_ast(ctx, s).ok_or("Z3_sort_to_ast gave nothing")?;
                flag(Z3_get_sort_id(ctx, s) == Z3_get_ast_id(ctx, ast))
            }
            R::IsSeqSort => flag(Z3_is_seq_sort(ctx, s)),
            R::IsReSort => flag(Z3_is_re_sort(ctx, s)),
            R::ReSortBasis => {
                let got = Z3_get_re_sort_basis(ctx, s);
                return Ok((sort_text(ctx, got)?, got));
            }
            R::IsCharSort | R::IsFiniteSetSort | R::IsRecursiveDatatype => {
                flag(typed::<SortToBool>(reader.name())?(ctx, s))
            }
            R::TupleMkDecl => {
                let decl = Z3_get_tuple_sort_mk_decl(ctx, s).ok_or("no constructor")?;
                symbol_text(ctx, Z3_get_decl_name(ctx, decl))?
            }
            R::TupleNumFields => Z3_get_tuple_sort_num_fields(ctx, s).to_string(),
            R::TupleFieldDecl => {
                let mut names = Vec::new();
                for i in 0..Z3_get_tuple_sort_num_fields(ctx, s) {
                    let decl = Z3_get_tuple_sort_field_decl(ctx, s, i).ok_or("no field")?;
                    names.push(symbol_text(ctx, Z3_get_decl_name(ctx, decl))?);
                }
                names.join(" ")
            }
            R::ArrayDomain | R::ArrayRange | R::SeqSortBasis | R::ArrayDomainN => {
                let got = match reader {
                    R::ArrayDomain => Z3_get_array_sort_domain(ctx, s),
                    R::ArrayRange => Z3_get_array_sort_range(ctx, s),
                    R::SeqSortBasis => Z3_get_seq_sort_basis(ctx, s),
                    _ => typed::<SortDomainN>("Z3_get_array_sort_domain_n")?(ctx, s, 0),
                };
                return Ok((sort_text(ctx, got)?, got));
            }
            _ => return Err(format!("{} reads a term", reader.name())),
        }
    };
    Ok((value, None))
}

/// Whether Z3's sort `got` is the sort `expected` (built again in the thread-local
/// context); `None` where that sort cannot be built here (a datatype).
pub fn same_sort(got: Z3_sort, expected: &model::Sort) -> Option<bool> {
    let expected = super::terms::z3_sort(expected).ok()?;
    let ctx = Context::thread_local().get_z3_context();
    super::unlogged::note("Z3_is_eq_sort");
    // SAFETY: two live sorts of the thread-local context.
    Some(unsafe { z3_sys::Z3_is_eq_sort(ctx, got, expected.get_z3_sort()) })
}

/// `read_eq`: whether A and B are the same term, and the violations of what equal terms
/// share (hash, id) or terms of different sorts cannot be.
pub fn read_eq(a: &Dynamic, b: &Dynamic) -> (bool, Option<String>) {
    let ctx = Context::thread_local().get_z3_context();
    let (x, y) = (a.get_z3_ast(), b.get_z3_ast());
    super::unlogged::note("Z3_is_eq_ast");
    super::unlogged::note("Z3_is_eq_sort");
    // SAFETY: reads of two live terms of the thread-local context.
    unsafe {
        use z3_sys::*;
        let eq = Z3_is_eq_ast(ctx, x, y);
        let (hx, hy) = (Z3_get_ast_hash(ctx, x), Z3_get_ast_hash(ctx, y));
        let (ix, iy) = (Z3_get_ast_id(ctx, x), Z3_get_ast_id(ctx, y));
        let same_sort = match (Z3_get_sort(ctx, x), Z3_get_sort(ctx, y)) {
            (Some(sx), Some(sy)) => Z3_is_eq_sort(ctx, sx, sy),
            _ => false,
        };
        let problem = if eq && hx != hy {
            Some(format!("equal terms with hashes {hx} and {hy}"))
        } else if eq && ix != iy {
            Some(format!("equal terms with ids {ix} and {iy}"))
        } else if eq != (ix == iy) {
            Some(format!(
                "Z3_is_eq_ast says {eq} of terms with ids {ix} and {iy}"
            ))
        } else if eq && !same_sort {
            Some("equal terms of different sorts".into())
        } else {
            None
        };
        (eq, problem)
    }
}

/// `read_stats`: the solver's statistics read entry by entry; what breaks their shape.
pub fn read_stats(solver: &z3::Solver) -> Option<String> {
    let stats = solver.get_statistics();
    for entry in stats.entries() {
        if entry.key.is_empty() {
            return Some("a statistics entry without a key".into());
        }
        if let z3::StatisticsValue::Double(d) = entry.value {
            if !d.is_finite() || d < 0.0 {
                return Some(format!("statistic `{}` is {d}", entry.key));
            }
        }
    }
    None
}
