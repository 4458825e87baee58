//! The operation table: every term-building operation of the `z3` crate for the sorts of
//! [`Sort`], as data.
//!
//! An [`OpSpec`] names an operation the way SMT-LIB does (`bvadd`, `extract`, `fp.add`),
//! says how many numeric indices it takes (`extract 7 0`), its arity, its theory and its
//! [`Signature`], a small rule that checks argument sorts and computes the result sort.
//! Tools never special-case an operation by name when the table can answer.

use crate::sort::{Sort, Theory};
use std::sync::atomic::{AtomicBool, Ordering};

/// How many term arguments an operation takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arity {
    Fixed(usize),
    AtLeast(usize),
}

impl Arity {
    pub fn admits(self, n: usize) -> bool {
        match self {
            Arity::Fixed(k) => n == k,
            Arity::AtLeast(k) => n >= k,
        }
    }

    pub fn min(self) -> usize {
        match self {
            Arity::Fixed(k) | Arity::AtLeast(k) => k,
        }
    }
}

/// Sort rules shared by groups of operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signature {
    /// No arguments; the result sort is given.
    Nullary(NullarySort),
    /// Bool arguments, Bool result.
    Bool,
    /// Arguments of one common sort, Bool result (`=`, `distinct`).
    Equal,
    /// `ite c a b`: Bool, then two arguments of one sort, which is the result.
    Ite,
    /// Arguments of one arithmetic sort (Int or Real), same result.
    Arith,
    /// Arguments of one arithmetic sort, Bool result.
    ArithCmp,
    /// Int arguments, Int result.
    Int,
    /// Real arguments, Real result.
    Real,
    /// Int to Real.
    IntToReal,
    /// Real to Int.
    RealToInt,
    /// Real to Bool (`is_int`).
    RealPred,
    /// Bit-vectors of one width, same result.
    Bv,
    /// Bit-vectors of one width, Bool result.
    BvCmp,
    /// A bit-vector to a 1-bit vector (`bvredand`).
    BvReduce,
    /// Bit-vectors of any widths, concatenated.
    Concat,
    /// `extract hi lo`.
    Extract,
    /// `zero_extend n`, `sign_extend n`.
    Extend,
    /// `repeat n`, `n >= 1`.
    Repeat,
    /// `rotate_left n`: same width.
    Rotate,
    /// Bit-vector to Int.
    BvToInt,
    /// `bit2bool i`: bit `i` of a bit-vector (`i` below its width), as a Bool.
    BvBit,
    /// Bit-vector to the String of its decimal value (`str.from_ubv`, `str.from_sbv`).
    BvToStr,
    /// `int2bv w`.
    IntToBv,
    /// `select a i`.
    Select,
    /// `store a i e`.
    Store,
    /// One float, same result.
    FpUnary,
    /// Floats of one format, same result.
    FpBinary,
    /// Rounding mode, then floats of one format; same format as result.
    FpRounded,
    /// Floats of one format, Bool result.
    FpCmp,
    /// `fp.to_ubv w`, `fp.to_sbv w`: rounding mode and float to a bit-vector of width `w`.
    FpToBv,
    /// Float to Real.
    FpToReal,
    /// Float to the bit-vector of its IEEE encoding.
    FpToIeeeBv,
    /// `to_fp e s`: rounding mode and a Real, float or signed bit-vector, to the format `(e, s)`.
    ToFp,
    /// `to_fp_unsigned e s`: rounding mode and an unsigned bit-vector.
    ToFpUnsigned,
    /// Strings, String result.
    Str,
    /// String to Int.
    StrLen,
    /// String and Int to String.
    StrAt,
    /// String, Int, Int to String.
    StrSubstr,
    /// Strings to Bool.
    StrCmp,
    /// `str.indexof s t i`: two Strings and an Int to an Int.
    StrIndexOf,
    /// An Int to a String (`str.from_int`).
    IntToStr,
    /// An element to the sequence of it.
    SeqUnit,
    /// Sequences of one sort, same result.
    SeqConcat,
    /// Sequence to Int.
    SeqLen,
    /// Sequence and Int to a sequence of the same sort (`seq.at`, of length at most one;
    /// `seq.power`).
    SeqAt,
    /// Sequence and Int to an element.
    SeqNth,
    /// Sequences of one sort to Bool.
    SeqCmp,
    /// String to a regular language (`str.to_re`).
    ToRe,
    /// A String and a regular language to Bool (`str.in_re`).
    InRe,
    /// Regular languages, a regular language as result (`re.*`, `re.union`, `(_ re.loop i j)`).
    Re,
    /// Two Strings to the language of the characters between them (`re.range`).
    ReRange,
    /// A String, a regular language and a String to a String (`str.replace_re`).
    ReplaceRe,
}

/// Result sorts of nullary operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NullarySort {
    Bool,
    RoundingMode,
    RegLan,
}

/// One operation of the table.
#[derive(Debug, PartialEq, Eq)]
pub struct OpSpec {
    /// The trace name, the SMT-LIB name where SMT-LIB has one.
    pub name: &'static str,
    pub theory: Theory,
    /// Number of numeric indices (`extract` has two).
    pub indices: usize,
    pub arity: Arity,
    pub signature: Signature,
}

const fn op(
    name: &'static str,
    theory: Theory,
    indices: usize,
    arity: Arity,
    signature: Signature,
) -> OpSpec {
    OpSpec {
        name,
        theory,
        indices,
        arity,
        signature,
    }
}

use Arity::{AtLeast, Fixed};
use Signature as S;
use Theory::{Arith as A, Array as Arr, Bv as B, Core as C, Fp as F, Regex as Re, Strings as St};

/// Every operation, grouped by theory.
pub static OPS: &[OpSpec] = &[
    // Core.
    op("true", C, 0, Fixed(0), S::Nullary(NullarySort::Bool)),
    op("false", C, 0, Fixed(0), S::Nullary(NullarySort::Bool)),
    op("not", C, 0, Fixed(1), S::Bool),
    op("and", C, 0, AtLeast(1), S::Bool),
    op("or", C, 0, AtLeast(1), S::Bool),
    op("xor", C, 0, Fixed(2), S::Bool),
    op("=>", C, 0, Fixed(2), S::Bool),
    op("iff", C, 0, Fixed(2), S::Bool),
    op("=", C, 0, Fixed(2), S::Equal),
    op("distinct", C, 0, AtLeast(2), S::Equal),
    op("ite", C, 0, Fixed(3), S::Ite),
    // Integer and real arithmetic.
    op("+", A, 0, AtLeast(1), S::Arith),
    op("-", A, 0, AtLeast(1), S::Arith),
    op("*", A, 0, AtLeast(1), S::Arith),
    op("^", A, 0, Fixed(2), S::Arith),
    op("<", A, 0, Fixed(2), S::ArithCmp),
    op("<=", A, 0, Fixed(2), S::ArithCmp),
    op(">", A, 0, Fixed(2), S::ArithCmp),
    op(">=", A, 0, Fixed(2), S::ArithCmp),
    op("div", A, 0, Fixed(2), S::Int),
    op("mod", A, 0, Fixed(2), S::Int),
    op("rem", A, 0, Fixed(2), S::Int),
    op("/", A, 0, Fixed(2), S::Real),
    op("to_real", A, 0, Fixed(1), S::IntToReal),
    op("to_int", A, 0, Fixed(1), S::RealToInt),
    op("is_int", A, 0, Fixed(1), S::RealPred),
    // Bit-vectors.
    op("bvnot", B, 0, Fixed(1), S::Bv),
    op("bvneg", B, 0, Fixed(1), S::Bv),
    op("bvand", B, 0, Fixed(2), S::Bv),
    op("bvor", B, 0, Fixed(2), S::Bv),
    op("bvxor", B, 0, Fixed(2), S::Bv),
    op("bvnand", B, 0, Fixed(2), S::Bv),
    op("bvnor", B, 0, Fixed(2), S::Bv),
    op("bvxnor", B, 0, Fixed(2), S::Bv),
    op("bvadd", B, 0, Fixed(2), S::Bv),
    op("bvsub", B, 0, Fixed(2), S::Bv),
    op("bvmul", B, 0, Fixed(2), S::Bv),
    op("bvudiv", B, 0, Fixed(2), S::Bv),
    op("bvsdiv", B, 0, Fixed(2), S::Bv),
    op("bvurem", B, 0, Fixed(2), S::Bv),
    op("bvsrem", B, 0, Fixed(2), S::Bv),
    op("bvsmod", B, 0, Fixed(2), S::Bv),
    op("bvshl", B, 0, Fixed(2), S::Bv),
    op("bvlshr", B, 0, Fixed(2), S::Bv),
    op("bvashr", B, 0, Fixed(2), S::Bv),
    op("ext_rotate_left", B, 0, Fixed(2), S::Bv),
    op("ext_rotate_right", B, 0, Fixed(2), S::Bv),
    op("rotate_left", B, 1, Fixed(1), S::Rotate),
    op("rotate_right", B, 1, Fixed(1), S::Rotate),
    op("bvredand", B, 0, Fixed(1), S::BvReduce),
    op("bvredor", B, 0, Fixed(1), S::BvReduce),
    op("concat", B, 0, Fixed(2), S::Concat),
    op("extract", B, 2, Fixed(1), S::Extract),
    op("zero_extend", B, 1, Fixed(1), S::Extend),
    op("sign_extend", B, 1, Fixed(1), S::Extend),
    op("repeat", B, 1, Fixed(1), S::Repeat),
    op("bvult", B, 0, Fixed(2), S::BvCmp),
    op("bvule", B, 0, Fixed(2), S::BvCmp),
    op("bvugt", B, 0, Fixed(2), S::BvCmp),
    op("bvuge", B, 0, Fixed(2), S::BvCmp),
    op("bvslt", B, 0, Fixed(2), S::BvCmp),
    op("bvsle", B, 0, Fixed(2), S::BvCmp),
    op("bvsgt", B, 0, Fixed(2), S::BvCmp),
    op("bvsge", B, 0, Fixed(2), S::BvCmp),
    // Overflow predicates, named after the Z3 API functions (`_u`/`_s`: the is_signed flag).
    op("bvadd_no_overflow_u", B, 0, Fixed(2), S::BvCmp),
    op("bvadd_no_overflow_s", B, 0, Fixed(2), S::BvCmp),
    op("bvadd_no_underflow", B, 0, Fixed(2), S::BvCmp),
    op("bvsub_no_overflow", B, 0, Fixed(2), S::BvCmp),
    op("bvsub_no_underflow_u", B, 0, Fixed(2), S::BvCmp),
    op("bvsub_no_underflow_s", B, 0, Fixed(2), S::BvCmp),
    op("bvsdiv_no_overflow", B, 0, Fixed(2), S::BvCmp),
    op("bvneg_no_overflow", B, 0, Fixed(1), S::BvCmp),
    op("bvmul_no_overflow_u", B, 0, Fixed(2), S::BvCmp),
    op("bvmul_no_overflow_s", B, 0, Fixed(2), S::BvCmp),
    op("bvmul_no_underflow", B, 0, Fixed(2), S::BvCmp),
    op("bv2nat", B, 0, Fixed(1), S::BvToInt),
    op("int2bv", B, 1, Fixed(1), S::IntToBv),
    // Arrays.
    op("select", Arr, 0, Fixed(2), S::Select),
    op("store", Arr, 0, Fixed(3), S::Store),
    // Floating point.
    op("RNE", F, 0, Fixed(0), S::Nullary(NullarySort::RoundingMode)),
    op("RNA", F, 0, Fixed(0), S::Nullary(NullarySort::RoundingMode)),
    op("RTP", F, 0, Fixed(0), S::Nullary(NullarySort::RoundingMode)),
    op("RTN", F, 0, Fixed(0), S::Nullary(NullarySort::RoundingMode)),
    op("RTZ", F, 0, Fixed(0), S::Nullary(NullarySort::RoundingMode)),
    // The same rounding modes by their long SMT-LIB names, which Z3's API makes with other
    // functions (`Z3_mk_fpa_round_nearest_ties_to_even` where `RNE` is `Z3_mk_fpa_rne`).
    op(
        "roundNearestTiesToEven",
        F,
        0,
        Fixed(0),
        S::Nullary(NullarySort::RoundingMode),
    ),
    op(
        "roundNearestTiesToAway",
        F,
        0,
        Fixed(0),
        S::Nullary(NullarySort::RoundingMode),
    ),
    op(
        "roundTowardPositive",
        F,
        0,
        Fixed(0),
        S::Nullary(NullarySort::RoundingMode),
    ),
    op(
        "roundTowardNegative",
        F,
        0,
        Fixed(0),
        S::Nullary(NullarySort::RoundingMode),
    ),
    op(
        "roundTowardZero",
        F,
        0,
        Fixed(0),
        S::Nullary(NullarySort::RoundingMode),
    ),
    op("fp.abs", F, 0, Fixed(1), S::FpUnary),
    op("fp.neg", F, 0, Fixed(1), S::FpUnary),
    op("fp.add", F, 0, Fixed(3), S::FpRounded),
    op("fp.sub", F, 0, Fixed(3), S::FpRounded),
    op("fp.mul", F, 0, Fixed(3), S::FpRounded),
    op("fp.div", F, 0, Fixed(3), S::FpRounded),
    op("fp.fma", F, 0, Fixed(4), S::FpRounded),
    op("fp.sqrt", F, 0, Fixed(2), S::FpRounded),
    op("fp.roundToIntegral", F, 0, Fixed(2), S::FpRounded),
    op("fp.rem", F, 0, Fixed(2), S::FpBinary),
    op("fp.min", F, 0, Fixed(2), S::FpBinary),
    op("fp.max", F, 0, Fixed(2), S::FpBinary),
    op("fp.leq", F, 0, Fixed(2), S::FpCmp),
    op("fp.lt", F, 0, Fixed(2), S::FpCmp),
    op("fp.geq", F, 0, Fixed(2), S::FpCmp),
    op("fp.gt", F, 0, Fixed(2), S::FpCmp),
    op("fp.eq", F, 0, Fixed(2), S::FpCmp),
    op("fp.isNaN", F, 0, Fixed(1), S::FpCmp),
    op("fp.isInfinite", F, 0, Fixed(1), S::FpCmp),
    op("fp.isZero", F, 0, Fixed(1), S::FpCmp),
    op("fp.isNormal", F, 0, Fixed(1), S::FpCmp),
    op("fp.isSubnormal", F, 0, Fixed(1), S::FpCmp),
    op("fp.isNegative", F, 0, Fixed(1), S::FpCmp),
    op("fp.isPositive", F, 0, Fixed(1), S::FpCmp),
    op("fp.to_ubv", F, 1, Fixed(2), S::FpToBv),
    op("fp.to_sbv", F, 1, Fixed(2), S::FpToBv),
    op("fp.to_real", F, 0, Fixed(1), S::FpToReal),
    op("fp.to_ieee_bv", F, 0, Fixed(1), S::FpToIeeeBv),
    op("to_fp", F, 2, Fixed(2), S::ToFp),
    op("to_fp_unsigned", F, 2, Fixed(2), S::ToFpUnsigned),
    // Strings and sequences.
    op("str.++", St, 0, AtLeast(2), S::Str),
    op("str.len", St, 0, Fixed(1), S::StrLen),
    op("str.at", St, 0, Fixed(2), S::StrAt),
    op("str.substr", St, 0, Fixed(3), S::StrSubstr),
    op("str.prefixof", St, 0, Fixed(2), S::StrCmp),
    op("str.suffixof", St, 0, Fixed(2), S::StrCmp),
    op("str.contains", St, 0, Fixed(2), S::StrCmp),
    op("str.<", St, 0, Fixed(2), S::StrCmp),
    op("str.<=", St, 0, Fixed(2), S::StrCmp),
    op("str.indexof", St, 0, Fixed(3), S::StrIndexOf),
    op("str.replace", St, 0, Fixed(3), S::Str),
    op("str.to_int", St, 0, Fixed(1), S::StrLen),
    op("str.from_int", St, 0, Fixed(1), S::IntToStr),
    op("seq.unit", St, 0, Fixed(1), S::SeqUnit),
    op("seq.++", St, 0, AtLeast(2), S::SeqConcat),
    op("seq.len", St, 0, Fixed(1), S::SeqLen),
    op("seq.at", St, 0, Fixed(2), S::SeqAt),
    op("seq.nth", St, 0, Fixed(2), S::SeqNth),
    op("seq.contains", St, 0, Fixed(2), S::SeqCmp),
    // Regular expressions over Strings (SMT-LIB names; Z3's API calls them Z3_mk_re_*).
    op("str.to_re", Re, 0, Fixed(1), S::ToRe),
    op("str.in_re", Re, 0, Fixed(2), S::InRe),
    op("str.replace_re", Re, 0, Fixed(3), S::ReplaceRe),
    op("str.replace_re_all", Re, 0, Fixed(3), S::ReplaceRe),
    op("re.all", Re, 0, Fixed(0), S::Nullary(NullarySort::RegLan)),
    op("re.none", Re, 0, Fixed(0), S::Nullary(NullarySort::RegLan)),
    op(
        "re.allchar",
        Re,
        0,
        Fixed(0),
        S::Nullary(NullarySort::RegLan),
    ),
    op("re.range", Re, 0, Fixed(2), S::ReRange),
    op("re.*", Re, 0, Fixed(1), S::Re),
    op("re.+", Re, 0, Fixed(1), S::Re),
    op("re.opt", Re, 0, Fixed(1), S::Re),
    op("re.comp", Re, 0, Fixed(1), S::Re),
    op("re.union", Re, 0, AtLeast(2), S::Re),
    op("re.++", Re, 0, AtLeast(2), S::Re),
    op("re.inter", Re, 0, AtLeast(2), S::Re),
    op("re.diff", Re, 0, Fixed(2), S::Re),
    op("re.loop", Re, 2, Fixed(1), S::Re),
    op("re.^", Re, 1, Fixed(1), S::Re),
    // Operations whose C constructor only Z3 releases after 4.8.12 have (`Z3_mk_abs`,
    // `Z3_mk_seq_replace_all`, `Z3_mk_string_to_code`): the executor calls it where the
    // loaded libz3 has it, else builds the operation through Z3's parser.
    op("abs", A, 0, Fixed(1), S::Arith),
    op("str.replace_all", St, 0, Fixed(3), S::Str),
    op("str.to_code", St, 0, Fixed(1), S::StrLen),
    // Operations whose C constructor only Z3 releases after 4.8.12 have
    // (`Z3_mk_string_from_code`, `Z3_mk_ubv_to_str`; `Z3_mk_sbv_to_str`, whose operation
    // 4.8.12's SMT-LIB language lacks too: the typing probe leaves it out there, and a trace
    // with it is refused on 4.8.12 before any call runs).
    op("str.from_code", St, 0, Fixed(1), S::IntToStr),
    op("str.from_ubv", St, 0, Fixed(1), S::BvToStr),
    op("str.from_sbv", St, 0, Fixed(1), S::BvToStr),
    // Z3's own indexed operation, which 4.8.12's SMT-LIB language has and only later C APIs
    // build (`Z3_mk_bit2bool`).
    op("bit2bool", B, 1, Fixed(1), S::BvBit),
    // `(seq.power s n)`: s concatenated n times with itself, empty where n is not positive
    // (`Z3_mk_seq_power`, releases after 4.8.12 only; 4.8.12's SMT-LIB language lacks it too).
    op("seq.power", St, 0, Fixed(2), S::SeqAt),
];

/// Whether `^` of two Ints is a Real, as in Z3 4.8.12 (`(^ 2 3)` evaluates to `8.0`); Z3 5.x
/// makes it an Int. A typing fact that differs between Z3 versions: `model` links no Z3, so
/// the executor asks the loaded Z3 once per process and sets it
/// ([`set_int_power_is_real`]); the default is 4.8.12's.
static INT_POWER_IS_REAL: AtomicBool = AtomicBool::new(true);

/// Sets the typing of `^` on Ints to the loaded Z3's (see [`INT_POWER_IS_REAL`]).
pub fn set_int_power_is_real(real: bool) {
    INT_POWER_IS_REAL.store(real, Ordering::Relaxed);
}

/// Whether `^` of two Ints is a Real (see [`INT_POWER_IS_REAL`]).
pub fn int_power_is_real() -> bool {
    INT_POWER_IS_REAL.load(Ordering::Relaxed)
}

/// The result sort of `^` on arguments of the arithmetic sort `arg`.
fn power_sort(arg: &Sort, int_power_is_real: bool) -> Sort {
    if *arg == Sort::Int && !int_power_is_real {
        Sort::Int
    } else {
        Sort::Real
    }
}

/// Looks an operation up by its trace name.
pub fn lookup(name: &str) -> Option<&'static OpSpec> {
    OPS.iter().find(|spec| spec.name == name)
}

impl OpSpec {
    /// The result sort of this operation on `indices` and arguments of sorts `args`, or why
    /// the application is ill-formed.
    pub fn result_sort(&self, indices: &[u32], args: &[&Sort]) -> Result<Sort, String> {
        if indices.len() != self.indices {
            return Err(format!(
                "`{}` takes {} indices, got {}",
                self.name,
                self.indices,
                indices.len()
            ));
        }
        if !self.arity.admits(args.len()) {
            let wanted = match self.arity {
                Arity::Fixed(k) => format!("{k}"),
                Arity::AtLeast(k) => format!("at least {k}"),
            };
            return Err(format!(
                "`{}` takes {wanted} arguments, got {}",
                self.name,
                args.len()
            ));
        }
        let name = self.name;
        let ill = |what: &str| -> Result<Sort, String> {
            let got: Vec<String> = args.iter().map(|s| s.to_string()).collect();
            Err(format!("`{name}` expects {what}, got ({})", got.join(", ")))
        };
        let all_same = |args: &[&Sort]| args.windows(2).all(|w| w[0] == w[1]);
        let all = |pred: &dyn Fn(&Sort) -> bool| args.iter().all(|s| pred(s));
        match self.signature {
            S::Nullary(NullarySort::Bool) => Ok(Sort::Bool),
            S::Nullary(NullarySort::RoundingMode) => Ok(Sort::RoundingMode),
            S::Nullary(NullarySort::RegLan) => Ok(Sort::RegLan),
            S::Bool if all(&|s| *s == Sort::Bool) => Ok(Sort::Bool),
            S::Bool => ill("Bool arguments"),
            S::Equal if all_same(args) => Ok(Sort::Bool),
            S::Equal => ill("arguments of one sort"),
            S::Ite if *args[0] == Sort::Bool && args[1] == args[2] => Ok(args[1].clone()),
            S::Ite => ill("a Bool condition and two branches of one sort"),
            S::Arith if name == "^" && args[0].is_arith() && all_same(args) => Ok(power_sort(
                args[0],
                INT_POWER_IS_REAL.load(Ordering::Relaxed),
            )),
            S::Arith if args[0].is_arith() && all_same(args) => Ok(args[0].clone()),
            S::Arith => ill("arguments of one arithmetic sort"),
            S::ArithCmp if args[0].is_arith() && all_same(args) => Ok(Sort::Bool),
            S::ArithCmp => ill("arguments of one arithmetic sort"),
            S::Int if all(&|s| *s == Sort::Int) => Ok(Sort::Int),
            S::Int => ill("Int arguments"),
            S::Real if all(&|s| *s == Sort::Real) => Ok(Sort::Real),
            S::Real => ill("Real arguments"),
            S::IntToReal if *args[0] == Sort::Int => Ok(Sort::Real),
            S::IntToReal => ill("an Int"),
            S::RealToInt if *args[0] == Sort::Real => Ok(Sort::Int),
            S::RealToInt => ill("a Real"),
            S::RealPred if *args[0] == Sort::Real => Ok(Sort::Bool),
            S::RealPred => ill("a Real"),
            S::Bv if args[0].bv_width().is_some() && all_same(args) => Ok(args[0].clone()),
            S::Bv => ill("bit-vectors of one width"),
            S::BvCmp if args[0].bv_width().is_some() && all_same(args) => Ok(Sort::Bool),
            S::BvCmp => ill("bit-vectors of one width"),
            S::BvReduce if args[0].bv_width().is_some() => Ok(Sort::BitVec(1)),
            S::BvReduce => ill("a bit-vector"),
            S::Concat => {
                let mut width: u64 = 0;
                for s in args {
                    match s.bv_width() {
                        Some(w) => width += u64::from(w),
                        None => return ill("bit-vectors"),
                    }
                }
                checked_width(width)
            }
            S::Extract => {
                let (hi, lo) = (indices[0], indices[1]);
                match args[0].bv_width() {
                    Some(w) if lo <= hi && hi < w => Ok(Sort::BitVec(hi - lo + 1)),
                    Some(w) => Err(format!(
                        "`extract {hi} {lo}` needs lo <= hi < width, width is {w}"
                    )),
                    None => ill("a bit-vector"),
                }
            }
            S::Extend => match args[0].bv_width() {
                Some(w) => checked_width(u64::from(w) + u64::from(indices[0])),
                None => ill("a bit-vector"),
            },
            S::Repeat => match args[0].bv_width() {
                Some(_) if indices[0] == 0 => Err(format!("`{name} 0` is not allowed")),
                Some(w) => checked_width(u64::from(w) * u64::from(indices[0])),
                None => ill("a bit-vector"),
            },
            S::Rotate if args[0].bv_width().is_some() => Ok(args[0].clone()),
            S::Rotate => ill("a bit-vector"),
            S::BvBit => match args[0].bv_width() {
                Some(w) if indices[0] < w => Ok(Sort::Bool),
                Some(w) => Err(format!(
                    "`{name} {}` needs an index below the width {w}",
                    indices[0]
                )),
                None => ill("a bit-vector"),
            },
            S::BvToInt if args[0].bv_width().is_some() => Ok(Sort::Int),
            S::BvToInt => ill("a bit-vector"),
            S::BvToStr if args[0].bv_width().is_some() => Ok(Sort::String),
            S::BvToStr => ill("a bit-vector"),
            S::IntToBv if *args[0] != Sort::Int => ill("an Int"),
            S::IntToBv => checked_width(u64::from(indices[0])),
            S::Select => match args[0] {
                Sort::Array(index, element) if **index == *args[1] => Ok((**element).clone()),
                _ => ill("an array and an index of its index sort"),
            },
            S::Store => match args[0] {
                Sort::Array(index, element) if **index == *args[1] && **element == *args[2] => {
                    Ok(args[0].clone())
                }
                _ => ill("an array, an index and an element of its sorts"),
            },
            S::FpUnary | S::FpBinary if args[0].fp_format().is_some() && all_same(args) => {
                Ok(args[0].clone())
            }
            S::FpUnary | S::FpBinary => ill("floats of one format"),
            S::FpRounded
                if *args[0] == Sort::RoundingMode
                    && args[1].fp_format().is_some()
                    && all_same(&args[1..]) =>
            {
                Ok(args[1].clone())
            }
            S::FpRounded => ill("a rounding mode and floats of one format"),
            S::FpCmp if args[0].fp_format().is_some() && all_same(args) => Ok(Sort::Bool),
            S::FpCmp => ill("floats of one format"),
            S::FpToBv if *args[0] == Sort::RoundingMode && args[1].fp_format().is_some() => {
                checked_width(u64::from(indices[0]))
            }
            S::FpToBv => ill("a rounding mode and a float"),
            S::FpToReal if args[0].fp_format().is_some() => Ok(Sort::Real),
            S::FpToReal => ill("a float"),
            S::FpToIeeeBv => match args[0].fp_format() {
                Some((e, s)) => checked_width(u64::from(e) + u64::from(s)),
                None => ill("a float"),
            },
            S::ToFp | S::ToFpUnsigned => {
                let source_ok = match self.signature {
                    S::ToFp => matches!(
                        args[1],
                        Sort::Real | Sort::FloatingPoint(..) | Sort::BitVec(_)
                    ),
                    _ => args[1].bv_width().is_some(),
                };
                if *args[0] != Sort::RoundingMode || !source_ok {
                    return ill("a rounding mode and a value to convert");
                }
                fp_format(indices[0], indices[1])
            }
            S::Str if all(&|s| *s == Sort::String) => Ok(Sort::String),
            S::Str => ill("String arguments"),
            S::StrLen if *args[0] == Sort::String => Ok(Sort::Int),
            S::StrLen => ill("a String"),
            S::StrAt if *args[0] == Sort::String && *args[1] == Sort::Int => Ok(Sort::String),
            S::StrAt => ill("a String and an Int"),
            S::StrSubstr
                if *args[0] == Sort::String && *args[1] == Sort::Int && *args[2] == Sort::Int =>
            {
                Ok(Sort::String)
            }
            S::StrSubstr => ill("a String and two Ints"),
            S::StrCmp if all(&|s| *s == Sort::String) => Ok(Sort::Bool),
            S::StrCmp => ill("Strings"),
            S::StrIndexOf
                if *args[0] == Sort::String
                    && *args[1] == Sort::String
                    && *args[2] == Sort::Int =>
            {
                Ok(Sort::Int)
            }
            S::StrIndexOf => ill("two Strings and an Int"),
            S::IntToStr if *args[0] == Sort::Int => Ok(Sort::String),
            S::IntToStr => ill("an Int"),
            S::SeqUnit => Ok(Sort::seq(args[0].clone())),
            S::SeqConcat if matches!(args[0], Sort::Seq(_)) && all_same(args) => {
                Ok(args[0].clone())
            }
            S::SeqConcat => ill("sequences of one sort"),
            S::SeqLen if matches!(args[0], Sort::Seq(_)) => Ok(Sort::Int),
            S::SeqLen => ill("a sequence"),
            S::SeqAt if matches!(args[0], Sort::Seq(_)) && *args[1] == Sort::Int => {
                Ok(args[0].clone())
            }
            S::SeqAt => ill("a sequence and an Int"),
            S::SeqNth => match (args[0], args[1]) {
                (Sort::Seq(element), Sort::Int) => Ok((**element).clone()),
                _ => ill("a sequence and an Int"),
            },
            S::SeqCmp if matches!(args[0], Sort::Seq(_)) && all_same(args) => Ok(Sort::Bool),
            S::SeqCmp => ill("sequences of one sort"),
            S::ToRe if *args[0] == Sort::String => Ok(Sort::RegLan),
            S::ToRe => ill("a String"),
            S::InRe if *args[0] == Sort::String && *args[1] == Sort::RegLan => Ok(Sort::Bool),
            S::InRe => ill("a String and a RegLan"),
            S::Re if all(&|s| *s == Sort::RegLan) => Ok(Sort::RegLan),
            S::Re => ill("RegLan arguments"),
            S::ReRange if all(&|s| *s == Sort::String) => Ok(Sort::RegLan),
            S::ReRange => ill("two Strings"),
            S::ReplaceRe
                if *args[0] == Sort::String
                    && *args[1] == Sort::RegLan
                    && *args[2] == Sort::String =>
            {
                Ok(Sort::String)
            }
            S::ReplaceRe => ill("a String, a RegLan and a String"),
        }
    }
}

/// Widest bit-vector the model admits; Z3 accepts more, but traces beyond this are not useful
/// and would make evaluation and bit-blasting explode.
pub const MAX_BV_WIDTH: u32 = 1 << 16;

fn checked_width(width: u64) -> Result<Sort, String> {
    if (1..=u64::from(MAX_BV_WIDTH)).contains(&width) {
        Ok(Sort::BitVec(width as u32))
    } else {
        Err(format!("bit-width {width} is outside 1..={MAX_BV_WIDTH}"))
    }
}

/// Checks a floating-point format as Z3 accepts it: exponent 2..=30 bits, significand (with
/// the hidden bit) >= 3; Z3 4.8.12 refuses `(_ FloatingPoint 8 2)` with an InvalidArg error.
pub fn fp_format(e: u32, s: u32) -> Result<Sort, String> {
    if (2..=30).contains(&e) && (3..=MAX_BV_WIDTH).contains(&s) {
        Ok(Sort::FloatingPoint(e, s))
    } else {
        Err(format!("floating-point format ({e}, {s}) is not supported"))
    }
}

/// The sorts sample applications draw their arguments from: one of each kind, two
/// bit-vector widths.
pub fn sample_sorts() -> Vec<Sort> {
    vec![
        Sort::Bool,
        Sort::Int,
        Sort::Real,
        Sort::BitVec(1),
        Sort::BitVec(4),
        Sort::FloatingPoint(3, 5),
        Sort::RoundingMode,
        Sort::String,
        Sort::seq(Sort::Int),
        Sort::RegLan,
        Sort::array(Sort::Int, Sort::BitVec(4)),
    ]
}

/// Index choices for indexed operations: one of them suits each on the sample sorts
/// (`extract 3 1` of a 4-bit vector, `to_fp 3 5`, `zero_extend 1`, `int2bv 1`, ...).
fn sample_indices(op: &OpSpec) -> Vec<Vec<u32>> {
    match op.indices {
        0 => vec![vec![]],
        1 => vec![vec![1]],
        // `re.loop 1 3` is the only two-index choice the sample sorts admit of RegLan.
        _ if op.signature == Signature::Re => vec![vec![1, 3]],
        _ => vec![vec![3, 1], vec![3, 5]],
    }
}

/// Every choice of indices and argument sorts, drawn from one sort of each kind, that the
/// table accepts for `op` (variadic operations with two arguments). The typing probe applies
/// them to the loaded Z3, and a test types them as SMT-LIB: both hold the table to account.
pub fn sample_applications(op: &OpSpec) -> Vec<(Vec<u32>, Vec<Sort>)> {
    let sorts = sample_sorts();
    let n = match op.arity {
        Arity::Fixed(k) => k,
        Arity::AtLeast(k) => k.max(2),
    };
    let mut tuples: Vec<Vec<Sort>> = vec![vec![]];
    for _ in 0..n {
        tuples = tuples
            .into_iter()
            .flat_map(|t| {
                sorts.iter().map(move |s| {
                    let mut t = t.clone();
                    t.push(s.clone());
                    t
                })
            })
            .collect();
    }
    let mut accepted = Vec::new();
    for indices in sample_indices(op) {
        for t in &tuples {
            let refs: Vec<&Sort> = t.iter().collect();
            if op.result_sort(&indices, &refs).is_ok() {
                accepted.push((indices.clone(), t.clone()));
            }
        }
    }
    accepted
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(name: &str, indices: &[u32], args: &[Sort], expected: Result<Sort, ()>) {
        let spec = lookup(name).unwrap_or_else(|| panic!("no op {name}"));
        let refs: Vec<&Sort> = args.iter().collect();
        let got = spec.result_sort(indices, &refs).map_err(|_| ());
        assert_eq!(got, expected, "{name} {indices:?} {args:?}");
    }

    #[test]
    fn names_are_unique() {
        for (i, a) in OPS.iter().enumerate() {
            assert!(OPS[i + 1..].iter().all(|b| b.name != a.name), "{}", a.name);
        }
    }

    #[test]
    fn the_power_of_ints_follows_the_loaded_z3() {
        assert_eq!(power_sort(&Sort::Int, true), Sort::Real);
        assert_eq!(power_sort(&Sort::Int, false), Sort::Int);
        assert_eq!(power_sort(&Sort::Real, false), Sort::Real);
    }

    #[test]
    fn result_sorts() {
        let bv8 = Sort::BitVec(8);
        check("bvadd", &[], &[bv8.clone(), bv8.clone()], Ok(bv8.clone()));
        check("bvadd", &[], &[bv8.clone(), Sort::BitVec(16)], Err(()));
        check("extract", &[7, 4], &[Sort::BitVec(8)], Ok(Sort::BitVec(4)));
        check("extract", &[8, 4], &[Sort::BitVec(8)], Err(()));
        check("extract", &[3, 4], &[Sort::BitVec(8)], Err(()));
        check(
            "concat",
            &[],
            &[bv8.clone(), Sort::BitVec(3)],
            Ok(Sort::BitVec(11)),
        );
        check(
            "zero_extend",
            &[2],
            &[Sort::BitVec(8)],
            Ok(Sort::BitVec(10)),
        );
        check("repeat", &[0], &[Sort::BitVec(8)], Err(()));
        check("+", &[], &[Sort::Int, Sort::Int, Sort::Int], Ok(Sort::Int));
        check("+", &[], &[Sort::Int, Sort::Real], Err(()));
        check("<", &[], &[Sort::Real, Sort::Real], Ok(Sort::Bool));
        check(
            "ite",
            &[],
            &[Sort::Bool, Sort::Int, Sort::Int],
            Ok(Sort::Int),
        );
        check("ite", &[], &[Sort::Int, Sort::Int, Sort::Int], Err(()));
        check("and", &[], &[], Err(()));
        let arr = Sort::array(bv8.clone(), Sort::Bool);
        check("select", &[], &[arr.clone(), bv8.clone()], Ok(Sort::Bool));
        check(
            "store",
            &[],
            &[arr.clone(), bv8.clone(), Sort::Bool],
            Ok(arr.clone()),
        );
        check("store", &[], &[arr, Sort::Int, Sort::Bool], Err(()));
        let f32s = Sort::FloatingPoint(8, 24);
        check(
            "fp.add",
            &[],
            &[Sort::RoundingMode, f32s.clone(), f32s.clone()],
            Ok(f32s.clone()),
        );
        check(
            "to_fp",
            &[11, 53],
            &[Sort::RoundingMode, f32s.clone()],
            Ok(Sort::FloatingPoint(11, 53)),
        );
        check("fp.to_ieee_bv", &[], &[f32s], Ok(Sort::BitVec(32)));
        assert!(fp_format(8, 2).is_err() && fp_format(2, 3).is_ok());
        check(
            "seq.nth",
            &[],
            &[Sort::seq(Sort::Int), Sort::Int],
            Ok(Sort::Int),
        );
        check(
            "str.++",
            &[],
            &[Sort::String, Sort::String],
            Ok(Sort::String),
        );
    }

    #[test]
    fn every_operation_has_sample_applications() {
        for op in OPS {
            assert!(
                !sample_applications(op).is_empty(),
                "{} is never applied",
                op.name
            );
        }
    }
}
