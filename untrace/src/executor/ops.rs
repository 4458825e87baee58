//! The operations of `model::ops::OPS`, each mapped to the `z3` crate (or to z3-sys where
//! the crate has no wrapper: indexed rotations, `repeat`, the `to_fp` conversions from Real
//! and bit-vectors, and the regular expressions, whose crate wrappers take Rust strings).
//!
//! Four regular-expression operations have no C API function in Z3 4.8.12 (`re.diff`,
//! `re.allchar`, `re.^`, `str.replace_re[_all]`; 5.x added `Z3_mk_re_diff` and friends,
//! called instead where the loaded libz3 has them, [`newer`]), and
//! `Z3_mk_re_loop` reads an upper bound 0 as "unbounded" where SMT-LIB's `(_ re.loop i 0)` is
//! empty for `i > 0`, and Z3 5.4.1 refuses a lower bound above the upper one ("loop lower
//! bound must not exceed upper bound"), which SMT-LIB reads as the empty language. Those are built by [`parsed_app`]: Z3's own SMT-LIB parser makes the
//! operation's declaration, which is then applied to the arguments, so every Z3 gets the
//! genuine operator (not a rewriting of it) through functions it has.
//!
//! [`apply_op`] takes the arguments as `Dynamic`s with their model sorts; the reference state
//! has already checked arity and sorts, so the `expect`s below only fire on a model bug, and
//! a guard turns them into an error instead of a panic trace.

use model::ops::OpSpec;
use model::Sort;
use z3::ast::{Array, Ast, Bool, Dynamic, Float, Int, Real, RoundingMode, Seq, BV};
use z3::Context;

const SORTED: &str = "argument sort checked by the reference state";

fn b(d: &Dynamic) -> Bool {
    d.as_bool().expect(SORTED)
}
fn i(d: &Dynamic) -> Int {
    d.as_int().expect(SORTED)
}
fn r(d: &Dynamic) -> Real {
    d.as_real().expect(SORTED)
}
fn bv(d: &Dynamic) -> BV {
    d.as_bv().expect(SORTED)
}
fn fp(d: &Dynamic) -> Float {
    d.as_float().expect(SORTED)
}
fn rm(d: &Dynamic) -> RoundingMode {
    // The crate has no `as_rounding_mode`; the AST is rewrapped as the typed handle.
    // SAFETY: the AST is live and of rounding-mode sort (checked by the reference state).
    unsafe { RoundingMode::wrap(d.get_ctx(), d.get_z3_ast()) }
}
fn st(d: &Dynamic) -> z3::ast::String {
    d.as_string().expect(SORTED)
}
fn sq(d: &Dynamic) -> Seq {
    d.as_seq().expect(SORTED)
}
fn arr(d: &Dynamic) -> Array {
    d.as_array().expect(SORTED)
}

/// Wraps an AST a z3-sys constructor returned (NULL panics; the guard reports Z3's error).
fn sys(name: &str, build: impl FnOnce(z3_sys::Z3_context) -> Option<z3_sys::Z3_ast>) -> Dynamic {
    let ctx = Context::thread_local();
    let ast = build(ctx.get_z3_context()).unwrap_or_else(|| panic!("{name} returned NULL"));
    // SAFETY: a non-NULL AST just built in the thread-local context.
    unsafe { Dynamic::wrap(&ctx, ast) }
}

/// `op` applied by z3-sys to the arguments' ASTs.
fn sys_args(
    name: &str,
    args: &[&Dynamic],
    build: impl FnOnce(z3_sys::Z3_context, &[z3_sys::Z3_ast]) -> Option<z3_sys::Z3_ast>,
) -> Dynamic {
    let asts: Vec<z3_sys::Z3_ast> = args.iter().map(|a| a.get_z3_ast()).collect();
    sys(name, |c| build(c, &asts))
}

/// The sort of regular expressions over Strings.
///
/// # Safety
/// `c` is the live thread-local context.
unsafe fn re_sort(c: z3_sys::Z3_context) -> z3_sys::Z3_sort {
    let string = z3_sys::Z3_mk_string_sort(c).expect("Z3_mk_string_sort returned NULL");
    z3_sys::Z3_mk_re_sort(c, string).expect("Z3_mk_re_sort returned NULL")
}

/// The application of the operation at the head of `sample` (an SMT-LIB term of it on
/// placeholder arguments, e.g. `(re.diff re.all re.all)`) to `args`: Z3's parser declares the
/// operation with its indices, and `Z3_mk_app` applies that declaration (see the module
/// overview for why).
fn parsed_app(sample: &str, args: &[&Dynamic]) -> Dynamic {
    let script = std::ffi::CString::new(format!("(assert (= {sample} {sample}))"))
        .expect("no NUL in an operation sample");
    let asts: Vec<z3_sys::Z3_ast> = args.iter().map(|a| a.get_z3_ast()).collect();
    let ctx = Context::thread_local();
    let c = ctx.get_z3_context();
    // SAFETY: the parsed vector is referenced while its terms are read; the declaration
    // belongs to a term of the vector and the application keeps it. The application gets a
    // reference of its own before the vector goes (the next API call may free unreferenced
    // terms), and gives it back once `wrap` has taken one.
    unsafe {
        let parsed = z3_sys::Z3_parse_smtlib2_string(
            c,
            script.as_ptr(),
            0,
            std::ptr::null(),
            std::ptr::null(),
            0,
            std::ptr::null(),
            std::ptr::null(),
        )
        .unwrap_or_else(|| panic!("Z3 cannot parse {sample}"));
        z3_sys::Z3_ast_vector_inc_ref(c, parsed);
        let decl = (z3_sys::Z3_ast_vector_size(c, parsed) == 1)
            .then(|| z3_sys::Z3_ast_vector_get(c, parsed, 0))
            .flatten()
            .and_then(|eq| z3_sys::Z3_to_app(c, eq))
            .and_then(|eq| z3_sys::Z3_get_app_arg(c, eq, 0))
            .and_then(|t| z3_sys::Z3_to_app(c, t))
            .and_then(|t| z3_sys::Z3_get_app_decl(c, t));
        let app = decl.and_then(|d| z3_sys::Z3_mk_app(c, d, asts.len() as u32, asts.as_ptr()));
        if let Some(a) = app {
            z3_sys::Z3_inc_ref(c, a);
        }
        z3_sys::Z3_ast_vector_dec_ref(c, parsed);
        let app = app.unwrap_or_else(|| panic!("applying the operation of {sample} failed"));
        let wrapped = Dynamic::wrap(&ctx, app);
        z3_sys::Z3_dec_ref(c, app);
        wrapped
    }
}

type AstToAst = unsafe extern "C" fn(z3_sys::Z3_context, z3_sys::Z3_ast) -> Option<z3_sys::Z3_ast>;
type UintAstToAst = unsafe extern "C" fn(
    z3_sys::Z3_context,
    std::ffi::c_uint,
    z3_sys::Z3_ast,
) -> Option<z3_sys::Z3_ast>;
type AstUintToAst =
    unsafe extern "C" fn(z3_sys::Z3_context, z3_sys::Z3_ast, u32) -> Option<z3_sys::Z3_ast>;
type Ast2ToAst = unsafe extern "C" fn(
    z3_sys::Z3_context,
    z3_sys::Z3_ast,
    z3_sys::Z3_ast,
) -> Option<z3_sys::Z3_ast>;
type Ast3ToAst = unsafe extern "C" fn(
    z3_sys::Z3_context,
    z3_sys::Z3_ast,
    z3_sys::Z3_ast,
    z3_sys::Z3_ast,
) -> Option<z3_sys::Z3_ast>;
type SortToAst =
    unsafe extern "C" fn(z3_sys::Z3_context, z3_sys::Z3_sort) -> Option<z3_sys::Z3_ast>;

/// The constructor `name` that only releases after 4.8.12 have, where the loaded libz3 has
/// it (looked up by name, never linked): the operations Z3 4.8.12 builds through its parser
/// are built by their own C function on a newer Z3, the same term either way.
fn newer<F: Copy>(name: &'static str) -> Option<F> {
    // SAFETY: each caller names the function's C signature.
    unsafe { super::read::typed::<F>(name) }.ok()
}

/// Operations of `OPS` that Z3 4.8.12 can build neither by a C function nor through its
/// parser, with the function of later releases that builds them: a trace that applies one is
/// refused where the loaded libz3 lacks the function (`read::missing_function`), and the
/// typing probe's refusal of it there is no disagreement of the model's.
pub const NEWER_ONLY_OPS: &[(&str, &str)] = &[
    ("str.from_sbv", "Z3_mk_sbv_to_str"),
    ("seq.power", "Z3_mk_seq_power"),
];

/// Operations a fuzzer generates only where the loaded libz3 has their C constructor (Z3
/// 4.8.12 builds the first two through its parser in a replay, but a campaign on it leaves
/// them out: its rounds stay what they were before these operations joined the table).
pub const NEWER_CONSTRUCTOR_OPS: &[(&str, &str)] = &[
    ("bit2bool", "Z3_mk_bit2bool"),
    ("str.from_code", "Z3_mk_string_from_code"),
    ("str.from_ubv", "Z3_mk_ubv_to_str"),
    ("str.from_sbv", "Z3_mk_sbv_to_str"),
    ("seq.power", "Z3_mk_seq_power"),
];

/// The operations of [`NEWER_CONSTRUCTOR_OPS`] whose constructor the loaded libz3 lacks.
pub fn ops_without_constructor() -> Vec<&'static str> {
    NEWER_CONSTRUCTOR_OPS
        .iter()
        .filter(|(_, function)| super::read::function(function).is_none())
        .map(|(op, _)| *op)
        .collect()
}

/// Whether the loaded libz3 can build the operation `name` (only [`NEWER_ONLY_OPS`] may be
/// missing).
pub fn op_available(name: &str) -> bool {
    NEWER_ONLY_OPS
        .iter()
        .filter(|(op, _)| *op == name)
        .all(|(_, function)| super::read::function(function).is_some())
}

/// The SMT-LIB sample of `str.from_ubv` / `str.from_sbv` of a bit-vector of `sort`, for
/// Z3's parser where the loaded libz3 lacks the C constructor.
fn bv_to_str_sample(name: &str, sort: &Sort) -> String {
    format!("({name} (_ bv0 {}))", sort.bv_width().unwrap_or(1))
}

/// The SMT-LIB sample of `(_ bit2bool i)` of a bit-vector of `sort`, for Z3's parser where the
/// loaded libz3 lacks the C constructor.
fn bit2bool_sample(i: u32, sort: &Sort) -> String {
    format!(
        "((_ bit2bool {i}) (_ bv0 {}))",
        sort.bv_width().unwrap_or(1)
    )
}

/// Arithmetic on Int or Real arguments, chosen by the first argument's sort.
fn arith(
    args: &[&Dynamic],
    int: impl FnOnce(Vec<Int>) -> Dynamic,
    real: impl FnOnce(Vec<Real>) -> Dynamic,
) -> Dynamic {
    if args[0].as_int().is_some() {
        int(args.iter().map(|a| i(a)).collect())
    } else {
        real(args.iter().map(|a| r(a)).collect())
    }
}

/// Builds `op` on `indices` and `args` (whose model sorts are `sorts`) in the thread-local
/// context.
pub fn apply_op(op: &OpSpec, indices: &[u32], args: &[&Dynamic], sorts: &[&Sort]) -> Dynamic {
    let a = args;
    let d = |x: &dyn Ast| Dynamic::from_ast(x);
    let bools = || a.iter().map(|x| b(x)).collect::<Vec<_>>();
    match op.name {
        // Core.
        "true" => Bool::from_bool(true).into(),
        "false" => Bool::from_bool(false).into(),
        "not" => b(a[0]).not().into(),
        "and" => Bool::and(&bools()).into(),
        "or" => Bool::or(&bools()).into(),
        "xor" => b(a[0]).xor(b(a[1])).into(),
        "=>" => b(a[0]).implies(b(a[1])).into(),
        "iff" => b(a[0]).iff(b(a[1])).into(),
        "=" => a[0].eq(a[1]).into(),
        "distinct" => Dynamic::distinct(a).into(),
        "ite" => b(a[0]).ite(a[1], a[2]),
        // Arithmetic.
        "+" => arith(a, |v| Int::add(&v).into(), |v| Real::add(&v).into()),
        "-" if a.len() == 1 => arith(
            a,
            |v| v[0].unary_minus().into(),
            |v| v[0].unary_minus().into(),
        ),
        "-" => arith(a, |v| Int::sub(&v).into(), |v| Real::sub(&v).into()),
        "*" => arith(a, |v| Int::mul(&v).into(), |v| Real::mul(&v).into()),
        "^" => arith(a, |v| d(&v[0].power(&v[1])), |v| v[0].power(&v[1]).into()),
        "<" => arith(a, |v| v[0].lt(&v[1]).into(), |v| v[0].lt(&v[1]).into()),
        "<=" => arith(a, |v| v[0].le(&v[1]).into(), |v| v[0].le(&v[1]).into()),
        ">" => arith(a, |v| v[0].gt(&v[1]).into(), |v| v[0].gt(&v[1]).into()),
        ">=" => arith(a, |v| v[0].ge(&v[1]).into(), |v| v[0].ge(&v[1]).into()),
        "div" => i(a[0]).div(i(a[1])).into(),
        "mod" => i(a[0]).modulo(i(a[1])).into(),
        "rem" => i(a[0]).rem(i(a[1])).into(),
        "/" => r(a[0]).div(r(a[1])).into(),
        "to_real" => i(a[0]).to_real().into(),
        "to_int" => r(a[0]).to_int().into(),
        "is_int" => r(a[0]).is_int().into(),
        // Bit-vectors.
        "bvnot" => bv(a[0]).bvnot().into(),
        "bvneg" => bv(a[0]).bvneg().into(),
        "bvand" => bv(a[0]).bvand(bv(a[1])).into(),
        "bvor" => bv(a[0]).bvor(bv(a[1])).into(),
        "bvxor" => bv(a[0]).bvxor(bv(a[1])).into(),
        "bvnand" => bv(a[0]).bvnand(bv(a[1])).into(),
        "bvnor" => bv(a[0]).bvnor(bv(a[1])).into(),
        "bvxnor" => bv(a[0]).bvxnor(bv(a[1])).into(),
        "bvadd" => bv(a[0]).bvadd(bv(a[1])).into(),
        "bvsub" => bv(a[0]).bvsub(bv(a[1])).into(),
        "bvmul" => bv(a[0]).bvmul(bv(a[1])).into(),
        "bvudiv" => bv(a[0]).bvudiv(bv(a[1])).into(),
        "bvsdiv" => bv(a[0]).bvsdiv(bv(a[1])).into(),
        "bvurem" => bv(a[0]).bvurem(bv(a[1])).into(),
        "bvsrem" => bv(a[0]).bvsrem(bv(a[1])).into(),
        "bvsmod" => bv(a[0]).bvsmod(bv(a[1])).into(),
        "bvshl" => bv(a[0]).bvshl(bv(a[1])).into(),
        "bvlshr" => bv(a[0]).bvlshr(bv(a[1])).into(),
        "bvashr" => bv(a[0]).bvashr(bv(a[1])).into(),
        "ext_rotate_left" => bv(a[0]).bvrotl(bv(a[1])).into(),
        "ext_rotate_right" => bv(a[0]).bvrotr(bv(a[1])).into(),
        // SAFETY (the three z3-sys calls below): live ASTs of the thread-local context.
        "rotate_left" => sys("Z3_mk_rotate_left", |c| unsafe {
            z3_sys::Z3_mk_rotate_left(c, indices[0], a[0].get_z3_ast())
        }),
        "rotate_right" => sys("Z3_mk_rotate_right", |c| unsafe {
            z3_sys::Z3_mk_rotate_right(c, indices[0], a[0].get_z3_ast())
        }),
        "repeat" => sys("Z3_mk_repeat", |c| unsafe {
            z3_sys::Z3_mk_repeat(c, indices[0], a[0].get_z3_ast())
        }),
        "bvredand" => bv(a[0]).bvredand().into(),
        "bvredor" => bv(a[0]).bvredor().into(),
        "concat" => bv(a[0]).concat(bv(a[1])).into(),
        "extract" => bv(a[0]).extract(indices[0], indices[1]).into(),
        "zero_extend" => bv(a[0]).zero_ext(indices[0]).into(),
        "sign_extend" => bv(a[0]).sign_ext(indices[0]).into(),
        "bvult" => bv(a[0]).bvult(bv(a[1])).into(),
        "bvule" => bv(a[0]).bvule(bv(a[1])).into(),
        "bvugt" => bv(a[0]).bvugt(bv(a[1])).into(),
        "bvuge" => bv(a[0]).bvuge(bv(a[1])).into(),
        "bvslt" => bv(a[0]).bvslt(bv(a[1])).into(),
        "bvsle" => bv(a[0]).bvsle(bv(a[1])).into(),
        "bvsgt" => bv(a[0]).bvsgt(bv(a[1])).into(),
        "bvsge" => bv(a[0]).bvsge(bv(a[1])).into(),
        "bvadd_no_overflow_u" => bv(a[0]).bvadd_no_overflow(&bv(a[1]), false).into(),
        "bvadd_no_overflow_s" => bv(a[0]).bvadd_no_overflow(&bv(a[1]), true).into(),
        "bvadd_no_underflow" => bv(a[0]).bvadd_no_underflow(bv(a[1])).into(),
        "bvsub_no_overflow" => bv(a[0]).bvsub_no_overflow(bv(a[1])).into(),
        "bvsub_no_underflow_u" => bv(a[0]).bvsub_no_underflow(&bv(a[1]), false).into(),
        "bvsub_no_underflow_s" => bv(a[0]).bvsub_no_underflow(&bv(a[1]), true).into(),
        "bvsdiv_no_overflow" => bv(a[0]).bvsdiv_no_overflow(bv(a[1])).into(),
        "bvneg_no_overflow" => bv(a[0]).bvneg_no_overflow().into(),
        "bvmul_no_overflow_u" => bv(a[0]).bvmul_no_overflow(&bv(a[1]), false).into(),
        "bvmul_no_overflow_s" => bv(a[0]).bvmul_no_overflow(&bv(a[1]), true).into(),
        "bvmul_no_underflow" => bv(a[0]).bvmul_no_underflow(bv(a[1])).into(),
        "bv2nat" => bv(a[0]).to_int(false).into(),
        "int2bv" => BV::from_int(&i(a[0]), indices[0]).into(),
        // Arrays.
        "select" => arr(a[0]).select(a[1]),
        "store" => arr(a[0]).store(a[1], a[2]).into(),
        // Floating point.
        // The short names by Z3's short functions, the long SMT-LIB names by the long ones
        // (the crate's); SAFETY for the z3-sys calls: the live thread-local context.
        "RNE" => sys("Z3_mk_fpa_rne", |c| unsafe { z3_sys::Z3_mk_fpa_rne(c) }),
        "RNA" => sys("Z3_mk_fpa_rna", |c| unsafe { z3_sys::Z3_mk_fpa_rna(c) }),
        "RTP" => sys("Z3_mk_fpa_rtp", |c| unsafe { z3_sys::Z3_mk_fpa_rtp(c) }),
        "RTN" => sys("Z3_mk_fpa_rtn", |c| unsafe { z3_sys::Z3_mk_fpa_rtn(c) }),
        "RTZ" => sys("Z3_mk_fpa_rtz", |c| unsafe { z3_sys::Z3_mk_fpa_rtz(c) }),
        "roundNearestTiesToEven" => d(&RoundingMode::round_nearest_ties_to_even()),
        "roundNearestTiesToAway" => d(&RoundingMode::round_nearest_ties_to_away()),
        "roundTowardPositive" => d(&RoundingMode::round_towards_positive()),
        "roundTowardNegative" => d(&RoundingMode::round_towards_negative()),
        "roundTowardZero" => d(&RoundingMode::round_towards_zero()),
        "fp.abs" => fp(a[0]).unary_abs().into(),
        "fp.neg" => fp(a[0]).unary_neg().into(),
        "fp.add" => fp(a[1]).add_with_rounding_mode(fp(a[2]), &rm(a[0])).into(),
        "fp.sub" => fp(a[1]).sub_with_rounding_mode(fp(a[2]), &rm(a[0])).into(),
        "fp.mul" => fp(a[1]).mul_with_rounding_mode(fp(a[2]), &rm(a[0])).into(),
        "fp.div" => fp(a[1]).div_with_rounding_mode(fp(a[2]), &rm(a[0])).into(),
        "fp.fma" => fp(a[1])
            .fma_with_rounding_mode(fp(a[2]), fp(a[3]), &rm(a[0]))
            .into(),
        "fp.sqrt" => fp(a[1]).sqrt_with_rounding_mode(&rm(a[0])).into(),
        "fp.roundToIntegral" => fp(a[1])
            .round_to_integral_with_rounding_mode(&rm(a[0]))
            .into(),
        "fp.rem" => fp(a[0]).rem(fp(a[1])).into(),
        "fp.min" => fp(a[0]).min(fp(a[1])).into(),
        "fp.max" => fp(a[0]).max(fp(a[1])).into(),
        "fp.leq" => fp(a[0]).le(fp(a[1])).into(),
        "fp.lt" => fp(a[0]).lt(fp(a[1])).into(),
        "fp.geq" => fp(a[0]).ge(fp(a[1])).into(),
        "fp.gt" => fp(a[0]).gt(fp(a[1])).into(),
        "fp.eq" => fp(a[0]).eq_fpa(fp(a[1])).into(),
        "fp.isNaN" => fp(a[0]).is_nan().into(),
        "fp.isInfinite" => fp(a[0]).is_infinite().into(),
        "fp.isZero" => fp(a[0]).is_zero().into(),
        "fp.isNormal" => fp(a[0]).is_normal().into(),
        "fp.isSubnormal" => fp(a[0]).is_subnormal().into(),
        "fp.isNegative" => fp(a[0]).is_negative().into(),
        "fp.isPositive" => fp(a[0]).is_positive().into(),
        "fp.to_ubv" => fp(a[1])
            .to_ubv_with_rounding_mode(&rm(a[0]), indices[0])
            .into(),
        "fp.to_sbv" => fp(a[1])
            .to_sbv_with_rounding_mode(&rm(a[0]), indices[0])
            .into(),
        "fp.to_real" => fp(a[0]).to_real().into(),
        "fp.to_ieee_bv" => fp(a[0]).to_ieee_bv().into(),
        "to_fp" | "to_fp_unsigned" => {
            let target = z3::Sort::float(indices[0], indices[1]);
            let (mode, source) = (a[0].get_z3_ast(), a[1].get_z3_ast());
            let t = target.get_z3_sort();
            // SAFETY (z3-sys calls): live ASTs and sort of the thread-local context.
            match (op.name, sorts[1]) {
                ("to_fp", Sort::FloatingPoint(..)) => {
                    fp(a[1]).to_fp_with_rounding_mode(&rm(a[0]), &target).into()
                }
                ("to_fp", Sort::Real) => sys("Z3_mk_fpa_to_fp_real", |c| unsafe {
                    z3_sys::Z3_mk_fpa_to_fp_real(c, mode, source, t)
                }),
                ("to_fp", _) => sys("Z3_mk_fpa_to_fp_signed", |c| unsafe {
                    z3_sys::Z3_mk_fpa_to_fp_signed(c, mode, source, t)
                }),
                _ => sys("Z3_mk_fpa_to_fp_unsigned", |c| unsafe {
                    z3_sys::Z3_mk_fpa_to_fp_unsigned(c, mode, source, t)
                }),
            }
        }
        // Strings and sequences.
        "str.++" => z3::ast::String::concat(&a.iter().map(|x| st(x)).collect::<Vec<_>>()).into(),
        "str.len" => st(a[0]).length().into(),
        "str.at" => st(a[0]).at(i(a[1])).into(),
        "str.substr" => st(a[0]).substr(i(a[1]), i(a[2])).into(),
        "str.prefixof" => st(a[0]).prefix(st(a[1])).into(),
        "str.suffixof" => st(a[0]).suffix(st(a[1])).into(),
        "str.contains" => st(a[0]).contains(st(a[1])).into(),
        "str.<" => st(a[0]).str_lt(st(a[1])).into(),
        "str.<=" => st(a[0]).str_le(st(a[1])).into(),
        // SAFETY (z3-sys calls): live ASTs of the thread-local context.
        "str.indexof" => sys_args("Z3_mk_seq_index", a, |c, x| unsafe {
            z3_sys::Z3_mk_seq_index(c, x[0], x[1], x[2])
        }),
        "str.replace" => sys_args("Z3_mk_seq_replace", a, |c, x| unsafe {
            z3_sys::Z3_mk_seq_replace(c, x[0], x[1], x[2])
        }),
        "str.to_int" => sys_args("Z3_mk_str_to_int", a, |c, x| unsafe {
            z3_sys::Z3_mk_str_to_int(c, x[0])
        }),
        "str.from_int" => sys_args("Z3_mk_int_to_str", a, |c, x| unsafe {
            z3_sys::Z3_mk_int_to_str(c, x[0])
        }),
        "seq.unit" => Seq::unit(a[0]).into(),
        "seq.++" => Seq::concat(&a.iter().map(|x| sq(x)).collect::<Vec<_>>()).into(),
        "seq.len" => sq(a[0]).length().into(),
        "seq.at" => sq(a[0]).at(&i(a[1])).into(),
        "seq.nth" => sq(a[0]).nth(i(a[1])),
        "seq.contains" => sq(a[0]).contains(sq(a[1])).into(),
        // Regular expressions (SAFETY for the z3-sys calls: live ASTs of the thread-local
        // context, and argument arrays that outlive the call).
        "str.to_re" => sys_args("Z3_mk_seq_to_re", a, |c, x| unsafe {
            z3_sys::Z3_mk_seq_to_re(c, x[0])
        }),
        "str.in_re" => sys_args("Z3_mk_seq_in_re", a, |c, x| unsafe {
            z3_sys::Z3_mk_seq_in_re(c, x[0], x[1])
        }),
        "re.all" => sys("Z3_mk_re_full", |c| unsafe {
            z3_sys::Z3_mk_re_full(c, re_sort(c))
        }),
        "re.none" => sys("Z3_mk_re_empty", |c| unsafe {
            z3_sys::Z3_mk_re_empty(c, re_sort(c))
        }),
        "re.range" => sys_args("Z3_mk_re_range", a, |c, x| unsafe {
            z3_sys::Z3_mk_re_range(c, x[0], x[1])
        }),
        "re.*" => sys_args("Z3_mk_re_star", a, |c, x| unsafe {
            z3_sys::Z3_mk_re_star(c, x[0])
        }),
        "re.+" => sys_args("Z3_mk_re_plus", a, |c, x| unsafe {
            z3_sys::Z3_mk_re_plus(c, x[0])
        }),
        "re.opt" => sys_args("Z3_mk_re_option", a, |c, x| unsafe {
            z3_sys::Z3_mk_re_option(c, x[0])
        }),
        "re.comp" => sys_args("Z3_mk_re_complement", a, |c, x| unsafe {
            z3_sys::Z3_mk_re_complement(c, x[0])
        }),
        "re.union" => sys_args("Z3_mk_re_union", a, |c, x| unsafe {
            z3_sys::Z3_mk_re_union(c, x.len() as u32, x.as_ptr())
        }),
        "re.++" => sys_args("Z3_mk_re_concat", a, |c, x| unsafe {
            z3_sys::Z3_mk_re_concat(c, x.len() as u32, x.as_ptr())
        }),
        "re.inter" => sys_args("Z3_mk_re_intersect", a, |c, x| unsafe {
            z3_sys::Z3_mk_re_intersect(c, x.len() as u32, x.as_ptr())
        }),
        "re.loop" if 0 < indices[1] && indices[0] <= indices[1] => {
            sys_args("Z3_mk_re_loop", a, |c, x| unsafe {
                z3_sys::Z3_mk_re_loop(c, x[0], indices[0], indices[1])
            })
        }
        "re.loop" => parsed_app(
            &format!("((_ re.loop {} {}) re.all)", indices[0], indices[1]),
            a,
        ),
        "re.^" => match newer::<AstUintToAst>("Z3_mk_re_power") {
            // SAFETY: the function's z3_api.h signature, on a live regular expression.
            Some(power) => sys_args("Z3_mk_re_power", a, |c, x| unsafe {
                power(c, x[0], indices[0])
            }),
            None => parsed_app(&format!("((_ re.^ {}) re.all)", indices[0]), a),
        },
        "re.diff" => match newer::<Ast2ToAst>("Z3_mk_re_diff") {
            // SAFETY: the function's z3_api.h signature, on live arguments.
            Some(diff) => sys_args("Z3_mk_re_diff", a, |c, x| unsafe { diff(c, x[0], x[1]) }),
            None => parsed_app("(re.diff re.all re.all)", a),
        },
        "re.allchar" => match newer::<SortToAst>("Z3_mk_re_allchar") {
            // SAFETY: the function's z3_api.h signature, on the live sort of regular
            // expressions over Strings.
            Some(allchar) => sys("Z3_mk_re_allchar", |c| unsafe { allchar(c, re_sort(c)) }),
            None => parsed_app("re.allchar", a),
        },
        "abs" => match newer::<AstToAst>("Z3_mk_abs") {
            // SAFETY: the function's z3_api.h signature, on a live argument.
            Some(abs) => sys_args("Z3_mk_abs", a, |c, x| unsafe { abs(c, x[0]) }),
            None if sorts[0] == &Sort::Int => parsed_app("(abs 0)", a),
            None => parsed_app("(abs 0.0)", a),
        },
        "str.to_code" => match newer::<AstToAst>("Z3_mk_string_to_code") {
            // SAFETY: the function's z3_api.h signature, on a live argument.
            Some(code) => sys_args("Z3_mk_string_to_code", a, |c, x| unsafe { code(c, x[0]) }),
            None => parsed_app(r#"(str.to_code "")"#, a),
        },
        "str.from_code" => match newer::<AstToAst>("Z3_mk_string_from_code") {
            // SAFETY: the function's z3_api.h signature, on a live argument.
            Some(code) => sys_args("Z3_mk_string_from_code", a, |c, x| unsafe { code(c, x[0]) }),
            None => parsed_app("(str.from_code 0)", a),
        },
        "str.from_ubv" | "str.from_sbv" => {
            let function = match op.name {
                "str.from_ubv" => "Z3_mk_ubv_to_str",
                _ => "Z3_mk_sbv_to_str",
            };
            match newer::<AstToAst>(function) {
                // SAFETY: the function's z3_api.h signature, on a live argument.
                Some(text) => sys_args(function, a, |c, x| unsafe { text(c, x[0]) }),
                None => parsed_app(&bv_to_str_sample(op.name, sorts[0]), a),
            }
        }
        "bit2bool" => match newer::<UintAstToAst>("Z3_mk_bit2bool") {
            // SAFETY: the function's z3_api.h signature, on a live argument.
            Some(bit) => sys_args("Z3_mk_bit2bool", a, |c, x| unsafe {
                bit(c, indices[0], x[0])
            }),
            None => parsed_app(&bit2bool_sample(indices[0], sorts[0]), a),
        },
        "str.replace_all" => match newer::<Ast3ToAst>("Z3_mk_seq_replace_all") {
            // SAFETY: the function's z3_api.h signature, on live arguments.
            Some(replace) => sys_args("Z3_mk_seq_replace_all", a, |c, x| unsafe {
                replace(c, x[0], x[1], x[2])
            }),
            None => parsed_app(r#"(str.replace_all "" "" "")"#, a),
        },
        "str.replace_re" | "str.replace_re_all" => {
            let (function, sample) = match op.name {
                "str.replace_re" => ("Z3_mk_seq_replace_re", r#"(str.replace_re "" re.all "")"#),
                _ => (
                    "Z3_mk_seq_replace_re_all",
                    r#"(str.replace_re_all "" re.all "")"#,
                ),
            };
            match newer::<Ast3ToAst>(function) {
                // SAFETY: the function's z3_api.h signature, on live arguments.
                Some(replace) => {
                    sys_args(function, a, |c, x| unsafe { replace(c, x[0], x[1], x[2]) })
                }
                None => parsed_app(sample, a),
            }
        }
        "seq.power" => match newer::<Ast2ToAst>("Z3_mk_seq_power") {
            // SAFETY: the function's z3_api.h signature, on live arguments.
            Some(power) => sys_args("Z3_mk_seq_power", a, |c, x| unsafe { power(c, x[0], x[1]) }),
            // A newer-only operation: a trace with it is refused where the function is
            // missing, before any call runs (`NEWER_ONLY_OPS`).
            None => panic!("the loaded libz3 lacks Z3_mk_seq_power"),
        },
        other => panic!("operation `{other}` has no executor mapping"),
    }
}

/// How the reproducer writers (`crate::repro`) make an operation: the Z3 C function
/// [`apply_op`] ends in, and how its arguments go (kept next to `apply_op`, so that the two
/// change together).
pub enum OpLowering {
    /// One function of the context and the arguments.
    Call(&'static str, OpShape),
    /// Through Z3's parser, as [`parsed_app`] does: the sample term whose head is applied.
    Parsed(String),
}

/// The arguments of an [`OpLowering::Call`] after the context.
pub enum OpShape {
    /// The terms in order.
    Args,
    /// Their number, then an array of them.
    Array,
    /// The indices, then the terms.
    IndicesFirst,
    /// The terms, then the indices.
    IndicesLast,
    /// The terms, then a flag (signed, is_signed).
    Flag(bool),
    /// The terms, then the floating-point sort of the two indices.
    FpSort,
    /// The sort of regular expressions over Strings alone.
    ReSort,
}

/// The Z3 function of `op` on arguments of `sorts` (see [`OpLowering`]).
pub fn op_lowering(op: &OpSpec, indices: &[u32], sorts: &[&Sort]) -> OpLowering {
    use OpLowering::{Call, Parsed};
    use OpShape::{Args, Array, Flag, FpSort, IndicesFirst, IndicesLast, ReSort};
    let name = op.name;
    let by_name = match name {
        "true" => "Z3_mk_true",
        "false" => "Z3_mk_false",
        "not" => "Z3_mk_not",
        "and" => return Call("Z3_mk_and", Array),
        "or" => return Call("Z3_mk_or", Array),
        "xor" => "Z3_mk_xor",
        "=>" => "Z3_mk_implies",
        "iff" => "Z3_mk_iff",
        "=" => "Z3_mk_eq",
        "distinct" => return Call("Z3_mk_distinct", Array),
        "ite" => "Z3_mk_ite",
        "+" => return Call("Z3_mk_add", Array),
        "-" if sorts.len() == 1 => "Z3_mk_unary_minus",
        "-" => return Call("Z3_mk_sub", Array),
        "*" => return Call("Z3_mk_mul", Array),
        "^" => "Z3_mk_power",
        "<" => "Z3_mk_lt",
        "<=" => "Z3_mk_le",
        ">" => "Z3_mk_gt",
        ">=" => "Z3_mk_ge",
        "div" | "/" => "Z3_mk_div",
        "mod" => "Z3_mk_mod",
        "rem" => "Z3_mk_rem",
        "to_real" => "Z3_mk_int2real",
        "to_int" => "Z3_mk_real2int",
        "is_int" => "Z3_mk_is_int",
        "bvnot" => "Z3_mk_bvnot",
        "bvneg" => "Z3_mk_bvneg",
        "bvand" => "Z3_mk_bvand",
        "bvor" => "Z3_mk_bvor",
        "bvxor" => "Z3_mk_bvxor",
        "bvnand" => "Z3_mk_bvnand",
        "bvnor" => "Z3_mk_bvnor",
        "bvxnor" => "Z3_mk_bvxnor",
        "bvadd" => "Z3_mk_bvadd",
        "bvsub" => "Z3_mk_bvsub",
        "bvmul" => "Z3_mk_bvmul",
        "bvudiv" => "Z3_mk_bvudiv",
        "bvsdiv" => "Z3_mk_bvsdiv",
        "bvurem" => "Z3_mk_bvurem",
        "bvsrem" => "Z3_mk_bvsrem",
        "bvsmod" => "Z3_mk_bvsmod",
        "bvshl" => "Z3_mk_bvshl",
        "bvlshr" => "Z3_mk_bvlshr",
        "bvashr" => "Z3_mk_bvashr",
        "ext_rotate_left" => "Z3_mk_ext_rotate_left",
        "ext_rotate_right" => "Z3_mk_ext_rotate_right",
        "rotate_left" => return Call("Z3_mk_rotate_left", IndicesFirst),
        "rotate_right" => return Call("Z3_mk_rotate_right", IndicesFirst),
        "repeat" => return Call("Z3_mk_repeat", IndicesFirst),
        "bvredand" => "Z3_mk_bvredand",
        "bvredor" => "Z3_mk_bvredor",
        "concat" => "Z3_mk_concat",
        "extract" => return Call("Z3_mk_extract", IndicesFirst),
        "zero_extend" => return Call("Z3_mk_zero_ext", IndicesFirst),
        "sign_extend" => return Call("Z3_mk_sign_ext", IndicesFirst),
        "bvult" => "Z3_mk_bvult",
        "bvule" => "Z3_mk_bvule",
        "bvugt" => "Z3_mk_bvugt",
        "bvuge" => "Z3_mk_bvuge",
        "bvslt" => "Z3_mk_bvslt",
        "bvsle" => "Z3_mk_bvsle",
        "bvsgt" => "Z3_mk_bvsgt",
        "bvsge" => "Z3_mk_bvsge",
        "bvadd_no_overflow_u" => return Call("Z3_mk_bvadd_no_overflow", Flag(false)),
        "bvadd_no_overflow_s" => return Call("Z3_mk_bvadd_no_overflow", Flag(true)),
        "bvadd_no_underflow" => "Z3_mk_bvadd_no_underflow",
        "bvsub_no_overflow" => "Z3_mk_bvsub_no_overflow",
        "bvsub_no_underflow_u" => return Call("Z3_mk_bvsub_no_underflow", Flag(false)),
        "bvsub_no_underflow_s" => return Call("Z3_mk_bvsub_no_underflow", Flag(true)),
        "bvsdiv_no_overflow" => "Z3_mk_bvsdiv_no_overflow",
        "bvneg_no_overflow" => "Z3_mk_bvneg_no_overflow",
        "bvmul_no_overflow_u" => return Call("Z3_mk_bvmul_no_overflow", Flag(false)),
        "bvmul_no_overflow_s" => return Call("Z3_mk_bvmul_no_overflow", Flag(true)),
        "bvmul_no_underflow" => "Z3_mk_bvmul_no_underflow",
        "bv2nat" => return Call("Z3_mk_bv2int", Flag(false)),
        "int2bv" => return Call("Z3_mk_int2bv", IndicesFirst),
        "select" => "Z3_mk_select",
        "store" => "Z3_mk_store",
        "RNE" => "Z3_mk_fpa_rne",
        "RNA" => "Z3_mk_fpa_rna",
        "RTP" => "Z3_mk_fpa_rtp",
        "RTN" => "Z3_mk_fpa_rtn",
        "RTZ" => "Z3_mk_fpa_rtz",
        "roundNearestTiesToEven" => "Z3_mk_fpa_round_nearest_ties_to_even",
        "roundNearestTiesToAway" => "Z3_mk_fpa_round_nearest_ties_to_away",
        "roundTowardPositive" => "Z3_mk_fpa_round_toward_positive",
        "roundTowardNegative" => "Z3_mk_fpa_round_toward_negative",
        "roundTowardZero" => "Z3_mk_fpa_round_toward_zero",
        "fp.abs" => "Z3_mk_fpa_abs",
        "fp.neg" => "Z3_mk_fpa_neg",
        "fp.add" => "Z3_mk_fpa_add",
        "fp.sub" => "Z3_mk_fpa_sub",
        "fp.mul" => "Z3_mk_fpa_mul",
        "fp.div" => "Z3_mk_fpa_div",
        "fp.fma" => "Z3_mk_fpa_fma",
        "fp.sqrt" => "Z3_mk_fpa_sqrt",
        "fp.roundToIntegral" => "Z3_mk_fpa_round_to_integral",
        "fp.rem" => "Z3_mk_fpa_rem",
        "fp.min" => "Z3_mk_fpa_min",
        "fp.max" => "Z3_mk_fpa_max",
        "fp.leq" => "Z3_mk_fpa_leq",
        "fp.lt" => "Z3_mk_fpa_lt",
        "fp.geq" => "Z3_mk_fpa_geq",
        "fp.gt" => "Z3_mk_fpa_gt",
        "fp.eq" => "Z3_mk_fpa_eq",
        "fp.isNaN" => "Z3_mk_fpa_is_nan",
        "fp.isInfinite" => "Z3_mk_fpa_is_infinite",
        "fp.isZero" => "Z3_mk_fpa_is_zero",
        "fp.isNormal" => "Z3_mk_fpa_is_normal",
        "fp.isSubnormal" => "Z3_mk_fpa_is_subnormal",
        "fp.isNegative" => "Z3_mk_fpa_is_negative",
        "fp.isPositive" => "Z3_mk_fpa_is_positive",
        "fp.to_ubv" => return Call("Z3_mk_fpa_to_ubv", IndicesLast),
        "fp.to_sbv" => return Call("Z3_mk_fpa_to_sbv", IndicesLast),
        "fp.to_real" => "Z3_mk_fpa_to_real",
        "fp.to_ieee_bv" => "Z3_mk_fpa_to_ieee_bv",
        "to_fp" => {
            let func = match sorts.get(1) {
                Some(Sort::FloatingPoint(..)) => "Z3_mk_fpa_to_fp_float",
                Some(Sort::Real) => "Z3_mk_fpa_to_fp_real",
                _ => "Z3_mk_fpa_to_fp_signed",
            };
            return Call(func, FpSort);
        }
        "to_fp_unsigned" => return Call("Z3_mk_fpa_to_fp_unsigned", FpSort),
        "str.++" | "seq.++" => return Call("Z3_mk_seq_concat", Array),
        "str.len" | "seq.len" => "Z3_mk_seq_length",
        "str.at" | "seq.at" => "Z3_mk_seq_at",
        "str.substr" => "Z3_mk_seq_extract",
        "str.prefixof" => "Z3_mk_seq_prefix",
        "str.suffixof" => "Z3_mk_seq_suffix",
        "str.contains" | "seq.contains" => "Z3_mk_seq_contains",
        "str.<" => "Z3_mk_str_lt",
        "str.<=" => "Z3_mk_str_le",
        "str.indexof" => "Z3_mk_seq_index",
        "str.replace" => "Z3_mk_seq_replace",
        "str.to_int" => "Z3_mk_str_to_int",
        "str.from_int" => "Z3_mk_int_to_str",
        "seq.unit" => "Z3_mk_seq_unit",
        "seq.nth" => "Z3_mk_seq_nth",
        // Releases after 4.8.12 only (their reproducers run there).
        "seq.power" => "Z3_mk_seq_power",
        "str.to_re" => "Z3_mk_seq_to_re",
        "str.in_re" => "Z3_mk_seq_in_re",
        "re.all" => return Call("Z3_mk_re_full", ReSort),
        "re.none" => return Call("Z3_mk_re_empty", ReSort),
        "re.range" => "Z3_mk_re_range",
        "re.*" => "Z3_mk_re_star",
        "re.+" => "Z3_mk_re_plus",
        "re.opt" => "Z3_mk_re_option",
        "re.comp" => "Z3_mk_re_complement",
        "re.union" => return Call("Z3_mk_re_union", Array),
        "re.++" => return Call("Z3_mk_re_concat", Array),
        "re.inter" => return Call("Z3_mk_re_intersect", Array),
        "re.loop" if 0 < indices[1] && indices[0] <= indices[1] => {
            return Call("Z3_mk_re_loop", IndicesLast)
        }
        "re.loop" => {
            return Parsed(format!(
                "((_ re.loop {} {}) re.all)",
                indices[0], indices[1]
            ))
        }
        "re.^" => return Parsed(format!("((_ re.^ {}) re.all)", indices[0])),
        "re.diff" => return Parsed("(re.diff re.all re.all)".into()),
        "re.allchar" => return Parsed("re.allchar".into()),
        "abs" if *sorts[0] == Sort::Int => return Parsed("(abs 0)".into()),
        "abs" => return Parsed("(abs 0.0)".into()),
        "str.to_code" => return Parsed(r#"(str.to_code "")"#.into()),
        "str.replace_all" => return Parsed(r#"(str.replace_all "" "" "")"#.into()),
        "str.from_code" => return Parsed("(str.from_code 0)".into()),
        "str.from_ubv" | "str.from_sbv" => return Parsed(bv_to_str_sample(op.name, sorts[0])),
        "bit2bool" => return Parsed(bit2bool_sample(indices[0], sorts[0])),
        "str.replace_re" => return Parsed(r#"(str.replace_re "" re.all "")"#.into()),
        "str.replace_re_all" => return Parsed(r#"(str.replace_re_all "" re.all "")"#.into()),
        other => return Parsed(other.to_string()),
    };
    Call(by_name, Args)
}
