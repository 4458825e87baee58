//! Read-backs: Z3 functions that read an object back (a numeral's value, a term's structure,
//! a sort's parameters), and what the reference state expects them to answer.
//!
//! One trace line covers the whole family: `read "Z3_FUNCTION" tT` (a term) or
//! `read_sort "Z3_FUNCTION" sS` (a sort) names the function as an argument, so that a new
//! read-back is one [`Reader`] and one row of [`READERS`], not a new call. The trace keeps the
//! C name (a string), so the binary format never numbers readers. [`Reader::applies`] is the
//! precondition (the reference state refuses a read the function is not documented for);
//! [`expected`] is the oracle: what the function must answer for what the trace built, as a
//! [`Expect`] that judges the executor's text of the answer. Where the reference state does
//! not know the answer (a term built by an operation, a string with escapes) the read is
//! made and recorded but not judged ([`Expect::Unjudged`]).
//!
//! Texts of answers (what the executor records and [`Expect::judge`] reads): a Boolean
//! `true`/`false`; a number in decimal; a function with an output argument and a Boolean
//! result writes `false` when it returns false, its output otherwise (`n/d` for the
//! rational ones); a term result (`Z3_get_numerator`, the FP numeral bit-vectors) is that
//! term's `Z3_get_numeral_string`; a sort result is its `Z3_sort_to_string`.

use crate::call::{SortId, TermId};
use crate::eval::fp::{round, Fp, RoundingMode};
use crate::sort::Sort;
use crate::state::{Origin, State, Violation};
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use std::fmt;

/// What a read-back reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subject {
    Term,
    Sort,
    /// A real closed field number (`read_rcf`).
    Rcf,
}

/// The digits `Z3_get_numeral_decimal_string` is asked for.
pub const DECIMAL_PRECISION: u32 = 12;

macro_rules! readers {
    ($($variant:ident = $name:literal, $subject:ident, $newer:literal;)*) => {
        /// One Z3 read-back function.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Reader {
            $($variant,)*
        }

        /// Every reader: the enum, its C function, what it reads, and whether only Z3
        /// releases after 4.8.12 have it (looked up by name at run time, never linked).
        pub const READERS: &[(Reader, &str, Subject, bool)] = &[
            $((Reader::$variant, $name, Subject::$subject, $newer),)*
        ];
    };
}

readers! {
    NumeralString = "Z3_get_numeral_string", Term, false;
    NumeralDecimalString = "Z3_get_numeral_decimal_string", Term, false;
    NumeralBinaryString = "Z3_get_numeral_binary_string", Term, false;
    NumeralInt = "Z3_get_numeral_int", Term, false;
    NumeralUint = "Z3_get_numeral_uint", Term, false;
    NumeralInt64 = "Z3_get_numeral_int64", Term, false;
    NumeralUint64 = "Z3_get_numeral_uint64", Term, false;
    NumeralRationalInt64 = "Z3_get_numeral_rational_int64", Term, false;
    NumeralSmall = "Z3_get_numeral_small", Term, false;
    NumeralDouble = "Z3_get_numeral_double", Term, false;
    Numerator = "Z3_get_numerator", Term, false;
    Denominator = "Z3_get_denominator", Term, false;
    IsNumeralAst = "Z3_is_numeral_ast", Term, false;
    AstKind = "Z3_get_ast_kind", Term, false;
    IsApp = "Z3_is_app", Term, false;
    AppNumArgs = "Z3_get_app_num_args", Term, false;
    AppDeclName = "Z3_get_decl_name", Term, false;
    AppDeclKind = "Z3_get_decl_kind", Term, false;
    AppDomainSize = "Z3_get_domain_size", Term, false;
    AppRange = "Z3_get_range", Term, false;
    TermSort = "Z3_get_sort", Term, false;
    BoolValue = "Z3_get_bool_value", Term, false;
    IsWellSorted = "Z3_is_well_sorted", Term, false;
    AstToString = "Z3_ast_to_string", Term, false;
    IsString = "Z3_is_string", Term, false;
    GetString = "Z3_get_string", Term, false;
    GetLstring = "Z3_get_lstring", Term, false;
    FpIsNan = "Z3_fpa_is_numeral_nan", Term, false;
    FpIsInf = "Z3_fpa_is_numeral_inf", Term, false;
    FpIsZero = "Z3_fpa_is_numeral_zero", Term, false;
    FpIsNormal = "Z3_fpa_is_numeral_normal", Term, false;
    FpIsSubnormal = "Z3_fpa_is_numeral_subnormal", Term, false;
    FpIsPositive = "Z3_fpa_is_numeral_positive", Term, false;
    FpIsNegative = "Z3_fpa_is_numeral_negative", Term, false;
    FpSign = "Z3_fpa_get_numeral_sign", Term, false;
    FpSignBv = "Z3_fpa_get_numeral_sign_bv", Term, false;
    FpSignificandString = "Z3_fpa_get_numeral_significand_string", Term, false;
    FpSignificandUint64 = "Z3_fpa_get_numeral_significand_uint64", Term, false;
    FpSignificandBv = "Z3_fpa_get_numeral_significand_bv", Term, false;
    FpExponentString = "Z3_fpa_get_numeral_exponent_string", Term, false;
    FpExponentInt64 = "Z3_fpa_get_numeral_exponent_int64", Term, false;
    FpExponentBv = "Z3_fpa_get_numeral_exponent_bv", Term, false;
    SortKind = "Z3_get_sort_kind", Sort, false;
    SortName = "Z3_get_sort_name", Sort, false;
    SortToString = "Z3_sort_to_string", Sort, false;
    BvSortSize = "Z3_get_bv_sort_size", Sort, false;
    FpEbits = "Z3_fpa_get_ebits", Sort, false;
    FpSbits = "Z3_fpa_get_sbits", Sort, false;
    ArrayDomain = "Z3_get_array_sort_domain", Sort, false;
    ArrayRange = "Z3_get_array_sort_range", Sort, false;
    SeqSortBasis = "Z3_get_seq_sort_basis", Sort, false;
    // `(simplify T)` in Z3's own command interpreter, T as `Z3_ast_to_string` prints it.
    EvalSimplify = "Z3_eval_smtlib2_string", Term, false;
    // Quantifiers (what `forall`/`exists` made; the bound variable, pattern and no-pattern
    // read are the first).
    IsQuantifierForall = "Z3_is_quantifier_forall", Term, false;
    IsQuantifierExists = "Z3_is_quantifier_exists", Term, false;
    IsLambda = "Z3_is_lambda", Term, false;
    QuantifierWeight = "Z3_get_quantifier_weight", Term, false;
    QuantifierNumBound = "Z3_get_quantifier_num_bound", Term, false;
    QuantifierBoundName = "Z3_get_quantifier_bound_name", Term, false;
    QuantifierBoundSort = "Z3_get_quantifier_bound_sort", Term, false;
    QuantifierBody = "Z3_get_quantifier_body", Term, false;
    QuantifierNumPatterns = "Z3_get_quantifier_num_patterns", Term, false;
    // The first pattern (`Z3_get_quantifier_pattern_ast`), its number of terms.
    PatternNumTerms = "Z3_get_pattern_num_terms", Term, false;
    // The first term of the first pattern.
    PatternTerm = "Z3_get_pattern", Term, false;
    QuantifierNumNoPatterns = "Z3_get_quantifier_num_no_patterns", Term, false;
    QuantifierNoPattern = "Z3_get_quantifier_no_pattern_ast", Term, false;
    // Declarations of applications (the first parameter, domain sort).
    DeclNumParameters = "Z3_get_decl_num_parameters", Term, false;
    DeclParameterKind = "Z3_get_decl_parameter_kind", Term, false;
    // A bit-vector numeral's declaration: its value (parameter 0) and width (parameter 1).
    DeclRationalParameter = "Z3_get_decl_rational_parameter", Term, false;
    DeclIntParameter = "Z3_get_decl_int_parameter", Term, false;
    Domain = "Z3_get_domain", Term, false;
    // Whether it is the declaration's AST id (`true`; ids differ between releases).
    FuncDeclId = "Z3_get_func_decl_id", Term, false;
    // The declaration as an AST and back (`Z3_func_decl_to_ast`), the same declaration.
    ToFuncDecl = "Z3_to_func_decl", Term, false;
    IsAlgebraicNumber = "Z3_is_algebraic_number", Term, false;
    // Whether the term is an `as_array`; of an `as_array`, its function (by name), and the
    // function its declaration's parameter 0 names.
    IsAsArray = "Z3_is_as_array", Term, false;
    AsArrayFuncDecl = "Z3_get_as_array_func_decl", Term, false;
    DeclFuncDeclParameter = "Z3_get_decl_func_decl_parameter", Term, false;
    // Every parameter of an application's declaration, each by the getter its kind names
    // (int, double, rational, symbol, sort, AST, function); a sort or function parameter is
    // read as an AST too, which must be the same object. Answer: `kind value` per parameter,
    // separated by `; ` (see [`DECL_PARAMETER_DIFFERS`]).
    DeclParameters = "Z3_get_decl_ast_parameter", Term, false;
    // Whether it is the sort's AST id (`true`).
    SortId = "Z3_get_sort_id", Sort, false;
    IsSeqSort = "Z3_is_seq_sort", Sort, false;
    IsReSort = "Z3_is_re_sort", Sort, false;
    ReSortBasis = "Z3_get_re_sort_basis", Sort, false;
    // A tuple (a datatype of one constructor, not recursive): its constructor's name, its
    // number of fields, and the names of its fields (every index, separated by spaces).
    TupleMkDecl = "Z3_get_tuple_sort_mk_decl", Sort, false;
    TupleNumFields = "Z3_get_tuple_sort_num_fields", Sort, false;
    TupleFieldDecl = "Z3_get_tuple_sort_field_decl", Sort, false;
    // Only in releases after 4.8.12.
    StringLength = "Z3_get_string_length", Term, true;
    StringContents = "Z3_get_string_contents", Term, true;
    FpIsNumeral = "Z3_fpa_is_numeral", Term, true;
    IsGround = "Z3_is_ground", Term, true;
    ArrayArity = "Z3_get_array_arity", Sort, true;
    ArrayDomainN = "Z3_get_array_sort_domain_n", Sort, true;
    Depth = "Z3_get_depth", Term, true;
    QuantifierId = "Z3_get_quantifier_id", Term, true;
    QuantifierSkolemId = "Z3_get_quantifier_skolem_id", Term, true;
    IsCharSort = "Z3_is_char_sort", Sort, true;
    IsFiniteSetSort = "Z3_is_finite_set_sort", Sort, true;
    IsRecursiveDatatype = "Z3_is_recursive_datatype_sort", Sort, true;
    // What an RCF number is made of: its top field extension (rational numbers have none),
    // and for an algebraic one its defining polynomial, isolating interval and sign
    // conditions. A function with an index reads every index (see `read_rcf`).
    RcfIsRational = "Z3_rcf_is_rational", Rcf, true;
    RcfIsAlgebraic = "Z3_rcf_is_algebraic", Rcf, true;
    RcfIsInfinitesimal = "Z3_rcf_is_infinitesimal", Rcf, true;
    RcfIsTranscendental = "Z3_rcf_is_transcendental", Rcf, true;
    RcfExtensionIndex = "Z3_rcf_extension_index", Rcf, true;
    RcfTranscendentalName = "Z3_rcf_transcendental_name", Rcf, true;
    RcfInfinitesimalName = "Z3_rcf_infinitesimal_name", Rcf, true;
    RcfNumCoefficients = "Z3_rcf_num_coefficients", Rcf, true;
    RcfCoefficient = "Z3_rcf_coefficient", Rcf, true;
    RcfInterval = "Z3_rcf_interval", Rcf, true;
    RcfNumSignConditions = "Z3_rcf_num_sign_conditions", Rcf, true;
    RcfSignConditionSign = "Z3_rcf_sign_condition_sign", Rcf, true;
    RcfNumSignConditionCoefficients = "Z3_rcf_num_sign_condition_coefficients", Rcf, true;
    RcfSignConditionCoefficient = "Z3_rcf_sign_condition_coefficient", Rcf, true;
    // The term printed in each `Z3_set_ast_print_mode` (SMT-LIB2 compliant, low level, then
    // the default again): the compliant text is SMT-LIB that Z3 parses back to the term (or
    // to one that prints the same), the default's text is what it was. The answer is the
    // compliant text; the executor judges the round trip.
    PrintMode = "Z3_set_ast_print_mode", Term, false;
}

impl Reader {
    fn row(self) -> &'static (Reader, &'static str, Subject, bool) {
        READERS
            .iter()
            .find(|r| r.0 == self)
            .expect("every reader has its row")
    }

    /// The C function.
    pub fn name(self) -> &'static str {
        self.row().1
    }

    pub fn subject(self) -> Subject {
        self.row().2
    }

    /// Whether only releases after 4.8.12 have the function: it is looked up by name where
    /// the loaded libz3 is (a replay on a libz3 without it is refused, never a link error).
    pub fn newer_only(self) -> bool {
        self.row().3
    }

    pub fn from_name(name: &str) -> Option<Reader> {
        READERS.iter().find(|r| r.1 == name).map(|r| r.0)
    }

    /// Every reader of a subject.
    pub fn of(subject: Subject) -> impl Iterator<Item = Reader> {
        READERS.iter().filter(move |r| r.2 == subject).map(|r| r.0)
    }

    /// Whether Z3 documents the function for this term (a numeral read of a numeral, an FP
    /// inspection of an FP numeral, an application's declaration of an application): the
    /// reference state's precondition of `read`.
    pub fn applies_to_term(self, state: &State, term: TermId) -> Result<(), Violation> {
        let info = state.term(term)?;
        let lit = match &info.origin {
            Origin::Lit(value) => Some(value.as_str()),
            _ => None,
        };
        let arith = matches!(info.sort, Sort::Int | Sort::Real);
        let numeral = lit.is_some() && (arith || matches!(info.sort, Sort::BitVec(_)));
        let fp = match (&info.sort, lit) {
            (Sort::FloatingPoint(e, s), Some(v)) => fp_value(*e, *s, v),
            _ => None,
        };
        let quantifier = match &info.origin {
            Origin::Quantifier(q) => Some(q),
            _ => None,
        };
        let app = matches!(
            info.origin,
            Origin::Const(_) | Origin::Lit(_) | Origin::Apply { .. } | Origin::AsArray(_)
        );
        use Reader as R;
        let ok = match self {
            R::IsQuantifierForall
            | R::IsQuantifierExists
            | R::IsLambda
            | R::QuantifierWeight
            | R::QuantifierNumBound
            | R::QuantifierBody
            | R::QuantifierNumPatterns
            | R::QuantifierNumNoPatterns => quantifier.is_some(),
            R::QuantifierBoundName | R::QuantifierBoundSort => {
                quantifier.is_some_and(|q| !q.vars.is_empty())
            }
            R::PatternNumTerms | R::PatternTerm => {
                quantifier.is_some_and(|q| q.patterns.first().is_some_and(|p| !p.is_empty()))
            }
            R::QuantifierNoPattern => quantifier.is_some_and(|q| !q.no_patterns.is_empty()),
            R::DeclNumParameters | R::FuncDeclId | R::ToFuncDecl => app,
            // A bit-vector numeral's declaration has parameters (its value and width).
            R::DeclParameterKind | R::DeclRationalParameter | R::DeclIntParameter => {
                numeral && matches!(info.sort, Sort::BitVec(_))
            }
            R::Domain => matches!(info.origin, Origin::Apply { n_args, .. } if n_args > 0),
            // Not of FP, string or sequence terms: their numerals' parameters are Z3's own
            // objects, which 4.8.12 reports as function parameters and then refuses to give.
            R::DeclParameters => {
                !matches!(info.origin, Origin::Var | Origin::Quantifier(_))
                    && matches!(
                        info.sort,
                        Sort::Bool
                            | Sort::Int
                            | Sort::Real
                            | Sort::BitVec(_)
                            | Sort::Array(..)
                            | Sort::Named(..)
                    )
            }
            R::IsAlgebraicNumber | R::IsAsArray => true,
            R::AsArrayFuncDecl | R::DeclFuncDeclParameter => {
                matches!(info.origin, Origin::AsArray(_))
            }
            R::NumeralString
            | R::NumeralDecimalString
            | R::NumeralInt
            | R::NumeralUint
            | R::NumeralInt64
            | R::NumeralUint64
            | R::NumeralRationalInt64
            | R::NumeralSmall => numeral,
            // Of arithmetic numerals (5.4.1 refuses a bit-vector, "invalid argument").
            R::NumeralDouble => numeral && arith,
            // Binary digits of integers only (Z3 refuses a fraction).
            R::NumeralBinaryString => {
                numeral
                    && !matches!(info.sort, Sort::Real)
                    && lit.is_some_and(|v| !v.starts_with('-'))
            }
            R::Numerator | R::Denominator => numeral && arith,
            R::EvalSimplify => numeral || (lit.is_some() && info.sort == Sort::Bool),
            R::IsNumeralAst
            | R::AstKind
            | R::IsApp
            | R::TermSort
            | R::IsWellSorted
            | R::AstToString
            | R::IsString
            | R::BoolValue
            | R::PrintMode => true,
            // Of applications: what `var` and `const` make, literals and applications of
            // functions (a quantifier is none).
            R::AppNumArgs | R::AppDeclName | R::AppDeclKind | R::AppDomainSize | R::AppRange => app,
            R::GetString | R::GetLstring | R::StringLength | R::StringContents => {
                lit.is_some() && info.sort == Sort::String
            }
            R::FpIsNan
            | R::FpIsInf
            | R::FpIsZero
            | R::FpIsNormal
            | R::FpIsSubnormal
            | R::FpIsPositive
            | R::FpIsNegative
            | R::FpIsNumeral => fp.is_some(),
            // NaN is an invalid argument of the sign.
            R::FpSign | R::FpSignBv => fp.as_ref().is_some_and(|v| !v.is_nan()),
            // Z3 documents the fields of any non-NaN numeral; the oracle judges normal ones.
            R::FpSignificandString
            | R::FpSignificandBv
            | R::FpExponentString
            | R::FpExponentInt64
            | R::FpExponentBv => fp.as_ref().is_some_and(|v| !v.is_nan()),
            R::FpSignificandUint64 => {
                fp.as_ref().is_some_and(|v| !v.is_nan())
                    && matches!(info.sort, Sort::FloatingPoint(_, s) if s <= 65)
            }
            R::IsGround => info.is_closed(),
            R::Depth => true,
            R::QuantifierId | R::QuantifierSkolemId => matches!(info.origin, Origin::Quantifier(_)),
            R::IsCharSort | R::IsFiniteSetSort | R::IsRecursiveDatatype => false,
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
            | R::RcfSignConditionCoefficient => false,
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
            | R::TupleFieldDecl => false,
        };
        if ok {
            Ok(())
        } else {
            Err(Violation(format!(
                "`{}` does not apply to {term} ({}, sort {})",
                self.name(),
                info.origin.describe(),
                info.sort
            )))
        }
    }

    /// Whether Z3 documents the function for this sort: the precondition of `read_sort`.
    pub fn applies_to_sort(self, state: &State, sort: SortId) -> Result<(), Violation> {
        let s = state.sort(sort)?;
        use Reader as R;
        let ok = match self {
            R::SortKind
            | R::SortName
            | R::SortToString
            | R::SortId
            | R::IsSeqSort
            | R::IsReSort => true,
            R::ReSortBasis => matches!(s, Sort::RegLan),
            R::BvSortSize => matches!(s, Sort::BitVec(_)),
            R::FpEbits | R::FpSbits => matches!(s, Sort::FloatingPoint(..)),
            R::ArrayDomain | R::ArrayRange | R::ArrayArity | R::ArrayDomainN => {
                matches!(s, Sort::Array(..))
            }
            R::SeqSortBasis => matches!(s, Sort::Seq(_) | Sort::String),
            R::IsCharSort | R::IsFiniteSetSort | R::IsRecursiveDatatype => true,
            R::TupleMkDecl | R::TupleNumFields | R::TupleFieldDecl => {
                tuple_fields(state, s).is_some()
            }
            _ => false,
        };
        if ok {
            Ok(())
        } else {
            Err(Violation(format!(
                "`{}` does not apply to {sort} (sort {s})",
                self.name()
            )))
        }
    }
}

/// What a read-back must answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    /// Exactly this text.
    Text(String),
    /// A decimal number equal to this value; a text ending in `?` (Z3's mark of a
    /// truncated expansion) within `10^-precision` of it.
    Decimal(BigRational, u32),
    /// A double: the value rounded to a double, within one unit in the last place.
    Double(BigRational),
    /// A number in binary digits (an optional `-`).
    Binary(BigInt),
    /// A sort equal to this one (the executor compares it with Z3's own sort).
    Sort(Sort),
    /// The text `Z3_ast_to_string` prints of the term read (the executor asks Z3 for it).
    Printed,
    /// An isolating interval `[lo, hi)` (`(`/`[` open/closed, an end `-oo`/`+oo` or a
    /// rational) that holds the number this interval holds: the two intersect.
    RcfInterval(crate::rcf::Interval),
    /// Coefficients `[c0; c1; ...]` (lowest degree first) of a polynomial that has a root
    /// in this interval (judged where they are all rationals).
    RcfRootIn(crate::rcf::Interval),
    /// The reference state does not know the answer, but the reader read one thing two ways
    /// and says where they differed ([`DECL_PARAMETER_DIFFERS`] in its answer).
    Consistent,
    /// The reference state does not know the answer.
    Unjudged,
}

/// Whether a term's declaration has no parameters: an uninterpreted constant, or an
/// application of an uninterpreted function (recursive functions and special relations have
/// parameters).
fn parameterless(state: &State, origin: &Origin) -> bool {
    match origin {
        Origin::Const(_) => true,
        Origin::Apply { func, .. } => {
            !state.rec_funcs.contains_key(func) && !state.relations.contains_key(func)
        }
        _ => false,
    }
}

/// What [`Reader::DeclParameters`] writes after a sort or function parameter whose AST read
/// (`Z3_get_decl_ast_parameter`) is another object than its typed read.
pub const DECL_PARAMETER_DIFFERS: &str = "differs from its AST parameter";

impl Expect {
    /// Whether `actual` (the executor's text of the answer) is what is expected; `Err` says
    /// what was expected. [`Expect::Sort`] is judged by the executor (Z3's sorts), not here.
    pub fn judge(&self, actual: &str) -> Result<(), String> {
        let ok = match self {
            Expect::Text(text) => actual == text,
            Expect::Decimal(value, precision) => {
                let (digits, truncated) = match actual.strip_suffix('?') {
                    Some(d) => (d, true),
                    None => (actual, false),
                };
                match parse_decimal(digits) {
                    Some(d) if truncated => {
                        let bound = BigRational::new(1.into(), BigInt::from(10).pow(*precision));
                        abs(&(d - value)) <= bound
                    }
                    Some(d) => d == *value,
                    None => false,
                }
            }
            Expect::Double(value) => match actual.parse::<f64>() {
                Ok(d) if d.is_finite() => match BigRational::from_float(d) {
                    Some(exact) => {
                        let ulp = abs(value) * BigRational::new(1.into(), BigInt::from(2).pow(52));
                        abs(&(exact - value)) <= ulp
                    }
                    None => false,
                },
                _ => false,
            },
            Expect::Binary(value) => {
                let (neg, digits) = match actual.strip_prefix('-') {
                    Some(d) => (true, d),
                    None => (false, actual),
                };
                match BigUint::parse_bytes(digits.as_bytes(), 2) {
                    Some(v) if !digits.is_empty() => {
                        let v = BigInt::from(v);
                        (if neg { -v } else { v }) == *value
                    }
                    _ => false,
                }
            }
            // A root Z3 found rational is no algebraic extension: nothing to read.
            Expect::RcfInterval(_) | Expect::RcfRootIn(_) if actual == "false" => true,
            Expect::RcfInterval(ours) => match parse_rcf_interval(actual) {
                Some((lo, hi)) => intersects(lo.as_ref(), hi.as_ref(), ours),
                None => false,
            },
            Expect::RcfRootIn(ours) => match rcf_list(actual) {
                Some(texts) => {
                    let coeffs: Option<Vec<BigRational>> = texts
                        .iter()
                        .map(|t| crate::rcf::parse_rational(t))
                        .collect();
                    match coeffs {
                        Some(c) if c.iter().any(|x| *x != BigRational::from_integer(0.into())) => {
                            crate::rcf::real_roots(&c, 40)
                                .iter()
                                .any(|root| intersects(Some(&root.lo), Some(&root.hi), ours))
                        }
                        // The zero polynomial is no algebraic number's.
                        Some(_) => false,
                        None => true,
                    }
                }
                None => false,
            },
            Expect::Consistent => !actual.contains(DECL_PARAMETER_DIFFERS),
            Expect::Sort(_) | Expect::Printed | Expect::Unjudged => true,
        };
        if ok {
            Ok(())
        } else {
            Err(format!("expected {self}, Z3 answered `{actual}`"))
        }
    }
}

impl fmt::Display for Expect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expect::Text(t) => write!(f, "`{t}`"),
            Expect::Decimal(v, p) => write!(f, "the decimal {v} (to {p} digits)"),
            Expect::Double(v) => write!(f, "the double nearest to {v}"),
            Expect::Binary(v) => write!(f, "{v} in binary"),
            Expect::Sort(s) => write!(f, "sort {s}"),
            Expect::Printed => f.write_str("the term as Z3 prints it"),
            Expect::RcfInterval(i) => write!(f, "an interval that meets {i}"),
            Expect::RcfRootIn(i) => write!(f, "a polynomial with a root in {i}"),
            Expect::Consistent => write!(f, "no parameter that {DECL_PARAMETER_DIFFERS}"),
            Expect::Unjudged => f.write_str("anything"),
        }
    }
}

/// The items of a list `[a; b; ...]` as the executor writes the RCF reads' answers.
pub fn rcf_list(text: &str) -> Option<Vec<&str>> {
    let body = text.strip_prefix('[')?.strip_suffix(']')?;
    Some(match body.is_empty() {
        true => vec![],
        false => body.split("; ").collect(),
    })
}

/// The ends of an interval `(lo, hi]` as the executor writes `Z3_rcf_interval`'s answer: an
/// infinite end is `None`; an end that is not a rational is read as infinite (weaker,
/// never wrong).
fn parse_rcf_interval(
    text: &str,
) -> Option<(Option<crate::rcf::Bound>, Option<crate::rcf::Bound>)> {
    let lo_open = match text.chars().next()? {
        '(' => true,
        '[' => false,
        _ => return None,
    };
    let hi_open = match text.chars().last()? {
        ')' => true,
        ']' => false,
        _ => return None,
    };
    let (lo, hi) = text.get(1..text.len() - 1)?.split_once(", ")?;
    let bound = |t: &str, open: bool| {
        crate::rcf::parse_rational(t).map(|value| crate::rcf::Bound { value, open })
    };
    Some((bound(lo, lo_open), bound(hi, hi_open)))
}

/// Whether an interval with ends `lo`, `hi` (`None`: infinite) and `ours` can hold the same
/// number.
fn intersects(
    lo: Option<&crate::rcf::Bound>,
    hi: Option<&crate::rcf::Bound>,
    ours: &crate::rcf::Interval,
) -> bool {
    let below = |a: &crate::rcf::Bound, b: &crate::rcf::Bound| {
        // Every number of the first end's side lies below the second end.
        a.value < b.value || (a.value == b.value && (a.open || b.open))
    };
    !hi.is_some_and(|hi| below(hi, &ours.lo)) && !lo.is_some_and(|lo| below(&ours.hi, lo))
}

fn abs(v: &BigRational) -> BigRational {
    if *v < BigRational::from_integer(0.into()) {
        -v.clone()
    } else {
        v.clone()
    }
}

/// A decimal (`-12`, `0.75`, `-3.`) as an exact rational.
fn parse_decimal(text: &str) -> Option<BigRational> {
    let (neg, body) = match text.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, text),
    };
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    if int.is_empty() && frac.is_empty()
        || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let digits = format!("{int}{frac}");
    let n = BigInt::parse_bytes(
        if digits.is_empty() {
            b"0"
        } else {
            digits.as_bytes()
        },
        10,
    )?;
    let v = BigRational::new(n, BigInt::from(10).pow(frac.len() as u32));
    Some(if neg { -v } else { v })
}

/// The exact value of a numeral literal of an Int, Real or bit-vector sort (bit-vectors are
/// unsigned, as Z3 reads them back).
pub fn numeral_value(sort: &Sort, value: &str) -> Option<BigRational> {
    match sort {
        Sort::Int | Sort::BitVec(_) => {
            BigInt::parse_bytes(value.as_bytes(), 10).map(BigRational::from_integer)
        }
        Sort::Real => {
            let (num, den) = value.split_once('/').unwrap_or((value, "1"));
            let num = parse_decimal(num)?;
            let den = parse_decimal(den)?;
            (den != BigRational::from_integer(0.into())).then(|| num / den)
        }
        _ => None,
    }
}

/// The floating-point value Z3 makes of the literal `value` in format (e, s), where the
/// reference state knows it: the special values, and doubles the format holds exactly as
/// normal numbers (`Z3_mk_fpa_numeral_double` truncates other doubles' significands and
/// saturates their exponents, which is no value of IEEE rounding).
pub fn fp_value(e: u32, s: u32, value: &str) -> Option<Fp> {
    Some(match value {
        "nan" => Fp::nan(e, s),
        "+inf" => Fp::inf(e, s, false),
        "-inf" => Fp::inf(e, s, true),
        "+zero" => Fp::zero(e, s, false),
        "-zero" => Fp::zero(e, s, true),
        text => {
            let d: f64 = text.parse().ok()?;
            if d == 0.0 {
                return Some(Fp::zero(e, s, d.is_sign_negative()));
            }
            let exact = BigRational::from_float(d)?;
            let magnitude = abs(&exact);
            let fp = round(e, s, RoundingMode::Rne, d < 0.0, &magnitude);
            let f = FpFields::of(&fp);
            // Exactly representable, and a normal number.
            if fp.to_rational()? != exact || f.exponent == BigUint::from(0u8) {
                return None;
            }
            fp
        }
    })
}

/// The sign, biased exponent and significand (without the hidden bit) of a value.
struct FpFields {
    negative: bool,
    exponent: BigUint,
    significand: BigUint,
}

impl FpFields {
    fn of(fp: &Fp) -> FpFields {
        let sb1 = u64::from(fp.sb - 1);
        let one = BigUint::from(1u8);
        let mask = |bits: u32| (&one << bits) - &one;
        FpFields {
            negative: fp.bits.bit(u64::from(fp.eb) + sb1),
            exponent: (&fp.bits >> sb1) & mask(fp.eb),
            significand: &fp.bits & mask(fp.sb - 1),
        }
    }
}

fn bool_text(b: bool) -> Expect {
    Expect::Text(b.to_string())
}

/// A rational as Z3 prints it: `n`, or `n/d` in lowest terms.
pub fn rational_text(v: &BigRational) -> String {
    if v.is_integer() {
        v.numer().to_string()
    } else {
        format!("{}/{}", v.numer(), v.denom())
    }
}

/// What `reader` must answer for term `term` (see the module documentation for the texts).
pub fn expected_for_term(reader: Reader, state: &State, term: TermId) -> Expect {
    let Ok(info) = state.term(term) else {
        return Expect::Unjudged;
    };
    let lit = match &info.origin {
        Origin::Lit(v) => Some(v.as_str()),
        _ => None,
    };
    let number = lit.and_then(|v| numeral_value(&info.sort, v));
    let fp = match (&info.sort, lit) {
        (Sort::FloatingPoint(e, s), Some(v)) => fp_value(*e, *s, v),
        _ => None,
    };
    let fits = |lo: i128, hi: i128| -> Expect {
        match &number {
            Some(v) if v.is_integer() => {
                let n = v.numer();
                if *n >= BigInt::from(lo) && *n <= BigInt::from(hi) {
                    Expect::Text(n.to_string())
                } else {
                    Expect::Text("false".into())
                }
            }
            Some(_) => Expect::Text("false".into()),
            None => Expect::Unjudged,
        }
    };
    let rational64 = || -> Expect {
        match &number {
            Some(v) => {
                let (lo, hi) = (BigInt::from(i64::MIN), BigInt::from(i64::MAX));
                let ok = |n: &BigInt| *n >= lo && *n <= hi;
                if ok(v.numer()) && ok(v.denom()) {
                    Expect::Text(format!("{}/{}", v.numer(), v.denom()))
                } else {
                    Expect::Text("false".into())
                }
            }
            None => Expect::Unjudged,
        }
    };
    use Reader as R;
    match reader {
        R::NumeralString => number.map_or(Expect::Unjudged, |v| Expect::Text(rational_text(&v))),
        R::NumeralDecimalString => {
            number.map_or(Expect::Unjudged, |v| Expect::Decimal(v, DECIMAL_PRECISION))
        }
        R::NumeralBinaryString => {
            number.map_or(Expect::Unjudged, |v| Expect::Binary(v.numer().clone()))
        }
        R::NumeralInt => fits(i32::MIN.into(), i32::MAX.into()),
        R::NumeralUint => fits(0, u32::MAX.into()),
        R::NumeralInt64 => fits(i64::MIN.into(), i64::MAX.into()),
        R::NumeralUint64 => fits(0, u64::MAX.into()),
        R::NumeralRationalInt64 | R::NumeralSmall => rational64(),
        R::NumeralDouble => number.map_or(Expect::Unjudged, Expect::Double),
        R::Numerator => number.map_or(Expect::Unjudged, |v| Expect::Text(v.numer().to_string())),
        R::Denominator => number.map_or(Expect::Unjudged, |v| Expect::Text(v.denom().to_string())),
        // Z3 counts FP numerals as numerals (though their AST kind is an application).
        R::IsNumeralAst => match &info.origin {
            Origin::Lit(_) if number.is_some() || matches!(info.sort, Sort::FloatingPoint(..)) => {
                bool_text(true)
            }
            Origin::Lit(_) => Expect::Unjudged,
            Origin::Const(_)
            | Origin::Var
            | Origin::Quantifier(_)
            | Origin::Apply { .. }
            | Origin::AsArray(_) => bool_text(false),
            Origin::Other => Expect::Unjudged,
        },
        R::AstKind => match &info.origin {
            Origin::Lit(_) if number.is_some() => Expect::Text("numeral".into()),
            Origin::Lit(_) if !matches!(info.sort, Sort::FloatingPoint(..) | Sort::Bool) => {
                Expect::Unjudged
            }
            Origin::Lit(_)
            | Origin::Const(_)
            | Origin::Var
            | Origin::Apply { .. }
            | Origin::AsArray(_) => Expect::Text("app".into()),
            Origin::Quantifier(_) => Expect::Text("quantifier".into()),
            Origin::Other => Expect::Unjudged,
        },
        R::IsApp => match &info.origin {
            Origin::Lit(_)
            | Origin::Const(_)
            | Origin::Var
            | Origin::Apply { .. }
            | Origin::AsArray(_) => bool_text(true),
            Origin::Quantifier(_) => bool_text(false),
            Origin::Other => Expect::Unjudged,
        },
        R::AppNumArgs => match &info.origin {
            Origin::Lit(_) | Origin::Const(_) | Origin::AsArray(_) => Expect::Text("0".into()),
            Origin::Apply { n_args, .. } => Expect::Text(n_args.to_string()),
            Origin::Var | Origin::Quantifier(_) | Origin::Other => Expect::Unjudged,
        },
        R::AppDomainSize => match &info.origin {
            Origin::Lit(_) | Origin::Const(_) | Origin::AsArray(_) => Expect::Text("0".into()),
            Origin::Apply { n_args, .. } => Expect::Text(n_args.to_string()),
            Origin::Var | Origin::Quantifier(_) | Origin::Other => Expect::Unjudged,
        },
        R::AppDeclName => match &info.origin {
            Origin::Const(name) => Expect::Text(name.clone()),
            _ => Expect::Unjudged,
        },
        // Z3_OP_TRUE and Z3_OP_FALSE, numbered alike by every release.
        R::AppDeclKind => match (&info.sort, lit) {
            (Sort::Bool, Some("true")) => Expect::Text(0x100.to_string()),
            (Sort::Bool, Some("false")) => Expect::Text(0x101.to_string()),
            _ => Expect::Unjudged,
        },
        R::AppRange | R::TermSort => sort_expect(state, &info.sort),
        R::BoolValue => match (&info.sort, lit, &info.origin) {
            (Sort::Bool, Some(v), _) => Expect::Text(v.to_string()),
            (Sort::Bool, None, Origin::Const(_)) => Expect::Text("undef".into()),
            _ if info.sort != Sort::Bool => Expect::Text("undef".into()),
            _ => Expect::Unjudged,
        },
        R::IsWellSorted => bool_text(true),
        // A literal simplifies to itself, printed as Z3 prints it.
        R::EvalSimplify => Expect::Printed,
        // The executor judges the round trip of the printed text.
        R::PrintMode => Expect::Unjudged,
        R::AstToString => match (&info.origin, &info.sort) {
            (Origin::Const(name), _) if crate::smtlib::is_simple_symbol(name) => {
                Expect::Text(name.clone())
            }
            (Origin::Lit(v), Sort::Bool) => Expect::Text(v.clone()),
            (Origin::Lit(v), Sort::Int) if !v.starts_with('-') => {
                number.map_or(Expect::Unjudged, |n| Expect::Text(rational_text(&n)))
            }
            _ => Expect::Unjudged,
        },
        R::IsString => bool_text(lit.is_some() && info.sort == Sort::String),
        R::GetString | R::GetLstring => match lit {
            Some(v) if v.bytes().all(|b| (b' '..=b'~').contains(&b) && b != b'\\') => {
                Expect::Text(v.to_string())
            }
            _ => Expect::Unjudged,
        },
        R::StringLength => lit.map_or(Expect::Unjudged, |v| {
            Expect::Text(v.chars().count().to_string())
        }),
        R::StringContents => lit.map_or(Expect::Unjudged, |v| {
            Expect::Text(
                v.chars()
                    .map(|c| (c as u32).to_string())
                    .collect::<Vec<_>>()
                    .join(" "),
            )
        }),
        R::IsGround => match info.quantified {
            false => bool_text(true),
            true => Expect::Unjudged,
        },
        R::FpIsNumeral => bool_text(fp.is_some()),
        R::IsQuantifierForall
        | R::IsQuantifierExists
        | R::IsLambda
        | R::QuantifierWeight
        | R::QuantifierNumBound
        | R::QuantifierBoundName
        | R::QuantifierBoundSort
        | R::QuantifierBody
        | R::QuantifierNumPatterns
        | R::PatternNumTerms
        | R::PatternTerm
        | R::QuantifierNumNoPatterns
        | R::QuantifierNoPattern => match &info.origin {
            Origin::Quantifier(q) => expected_quantifier(reader, state, q),
            _ => Expect::Unjudged,
        },
        R::DeclNumParameters => match &info.origin {
            Origin::AsArray(_) => Expect::Text("1".into()),
            origin if parameterless(state, origin) => Expect::Text("0".into()),
            _ => Expect::Unjudged,
        },
        // `Z3_PARAMETER_RATIONAL`, numbered alike by every release.
        R::DeclParameterKind => Expect::Text("2".into()),
        R::DeclRationalParameter => {
            number.map_or(Expect::Unjudged, |v| Expect::Text(rational_text(&v)))
        }
        R::DeclIntParameter => match info.sort {
            Sort::BitVec(w) => Expect::Text(w.to_string()),
            _ => Expect::Unjudged,
        },
        R::DeclParameters => match (&info.origin, &number) {
            // A numeral's declaration: its value, then whether it is an integer (1 or 0) or
            // its width.
            (Origin::Lit(_), Some(v)) => Expect::Text(format!(
                "rational {}; int {}",
                rational_text(v),
                match info.sort {
                    Sort::BitVec(w) => w,
                    Sort::Int => 1,
                    _ => 0,
                }
            )),
            (Origin::Lit(_), None) if info.sort == Sort::Bool => Expect::Text(String::new()),
            (origin, _) if parameterless(state, origin) => Expect::Text(String::new()),
            (Origin::AsArray(f), _) => state.func_names.get(f).map_or(Expect::Consistent, |n| {
                Expect::Text(format!("func_decl {n}"))
            }),
            _ => Expect::Consistent,
        },
        R::Domain => match &info.origin {
            Origin::Apply { func, .. } => match state.funcs.get(func) {
                Some((domain, _)) if !domain.is_empty() => sort_expect(state, &domain[0]),
                _ => Expect::Unjudged,
            },
            _ => Expect::Unjudged,
        },
        R::IsAsArray => match &info.origin {
            Origin::AsArray(_) => bool_text(true),
            Origin::Other => Expect::Unjudged,
            _ => bool_text(false),
        },
        R::AsArrayFuncDecl | R::DeclFuncDeclParameter => match &info.origin {
            Origin::AsArray(f) => state
                .func_names
                .get(f)
                .map_or(Expect::Unjudged, |n| Expect::Text(n.clone())),
            _ => Expect::Unjudged,
        },
        R::FuncDeclId => bool_text(true),
        R::ToFuncDecl => bool_text(true),
        // Literals, constants, applications and quantifiers are no algebraic numbers.
        R::IsAlgebraicNumber => match &info.origin {
            Origin::Other => Expect::Unjudged,
            _ => bool_text(false),
        },
        // A leaf is one deep (an application one more than its deepest argument, unless Z3
        // rewrote it while building it).
        R::Depth => match &info.origin {
            Origin::Lit(_) | Origin::Const(_) | Origin::Var => Expect::Text("1".into()),
            _ => Expect::Unjudged,
        },
        R::QuantifierId | R::QuantifierSkolemId => Expect::Unjudged,
        R::FpIsNan
        | R::FpIsInf
        | R::FpIsZero
        | R::FpIsNormal
        | R::FpIsSubnormal
        | R::FpIsPositive
        | R::FpIsNegative
        | R::FpSign
        | R::FpSignBv
        | R::FpSignificandString
        | R::FpSignificandUint64
        | R::FpSignificandBv
        | R::FpExponentString
        | R::FpExponentInt64
        | R::FpExponentBv => fp.map_or(Expect::Unjudged, |v| expected_fp(reader, &v)),
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
        | R::TupleFieldDecl
        | R::IsCharSort
        | R::IsFiniteSetSort
        | R::IsRecursiveDatatype
        | R::RcfIsRational
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
        | R::RcfSignConditionCoefficient => Expect::Unjudged,
    }
}

/// What a quantifier reader must answer for the quantifier made of `q` (Z3 keeps the
/// variables, patterns and no-patterns in the order given; the bound variables' names are
/// Z3's, `var` makes fresh constants).
fn expected_quantifier(reader: Reader, state: &State, q: &crate::state::QuantifierShape) -> Expect {
    let sort_of = |t: &TermId| match state.term(*t) {
        Ok(info) => sort_expect(state, &info.sort),
        Err(_) => Expect::Unjudged,
    };
    let count = |n: usize| Expect::Text(n.to_string());
    use Reader as R;
    match reader {
        R::IsQuantifierForall => bool_text(q.forall),
        R::IsQuantifierExists => bool_text(!q.forall),
        R::IsLambda => bool_text(false),
        R::QuantifierWeight => Expect::Text(q.weight.to_string()),
        R::QuantifierNumBound => count(q.vars.len()),
        R::QuantifierBoundSort => q.vars.first().map_or(Expect::Unjudged, sort_of),
        R::QuantifierBody => Expect::Sort(Sort::Bool),
        R::QuantifierNumPatterns => count(q.patterns.len()),
        R::PatternNumTerms => q
            .patterns
            .first()
            .map_or(Expect::Unjudged, |p| count(p.len())),
        R::PatternTerm => q
            .patterns
            .first()
            .and_then(|p| p.first())
            .map_or(Expect::Unjudged, sort_of),
        R::QuantifierNumNoPatterns => count(q.no_patterns.len()),
        R::QuantifierNoPattern => q.no_patterns.first().map_or(Expect::Unjudged, sort_of),
        _ => Expect::Unjudged,
    }
}

/// What an FP inspection must answer for the value `v` (exponents unbiased, as the reads
/// ask; the bit-vector of the exponent biased).
fn expected_fp(reader: Reader, v: &Fp) -> Expect {
    let f = FpFields::of(v);
    let zero = BigUint::from(0u8);
    let top = (BigUint::from(1u8) << v.eb) - 1u8;
    let nan = v.is_nan();
    let inf = f.exponent == top && f.significand == zero;
    let is_zero = f.exponent == zero && f.significand == zero;
    let subnormal = f.exponent == zero && f.significand != zero;
    let normal = !nan && !inf && f.exponent != zero;
    let bias = BigInt::from((1u64 << (v.eb - 1)) - 1);
    let unbiased = BigInt::from(f.exponent.clone()) - bias;
    use Reader as R;
    match reader {
        R::FpIsNan => bool_text(nan),
        R::FpIsInf => bool_text(inf),
        R::FpIsZero => bool_text(is_zero),
        R::FpIsNormal => bool_text(normal),
        R::FpIsSubnormal => bool_text(subnormal),
        R::FpIsPositive => bool_text(!nan && !f.negative),
        R::FpIsNegative => bool_text(!nan && f.negative),
        R::FpSign => Expect::Text(u8::from(f.negative).to_string()),
        R::FpSignBv => Expect::Text(u8::from(f.negative).to_string()),
        // The fields of normal numbers; zeros and infinities have conventions of their own.
        _ if !normal => Expect::Unjudged,
        R::FpSignificandUint64 | R::FpSignificandBv => Expect::Text(f.significand.to_string()),
        R::FpSignificandString => {
            let one = BigInt::from(1u8) << (v.sb - 1);
            let value = BigRational::new(one.clone() + BigInt::from(f.significand), one);
            Expect::Decimal(value, 0)
        }
        R::FpExponentString | R::FpExponentInt64 => Expect::Text(unbiased.to_string()),
        R::FpExponentBv => Expect::Text(f.exponent.to_string()),
        _ => Expect::Unjudged,
    }
}

/// What `reader` must answer for sort `sort`.
pub fn expected_for_sort(reader: Reader, state: &State, sort: SortId) -> Expect {
    let Ok(s) = state.sort(sort) else {
        return Expect::Unjudged;
    };
    use Reader as R;
    match (reader, s) {
        (R::SortKind, s) => sort_kind(s).map_or(Expect::Unjudged, |k| Expect::Text(k.to_string())),
        (R::SortName, Sort::Bool | Sort::Int | Sort::Real) => Expect::Text(s.to_string()),
        (R::SortName, Sort::Named(name, params))
            if params.is_empty() && state.uninterpreted.contains(name) =>
        {
            Expect::Text(name.clone())
        }
        (R::SortToString, Sort::Bool | Sort::Int | Sort::Real | Sort::BitVec(_)) => {
            Expect::Text(s.to_string())
        }
        (R::BvSortSize, Sort::BitVec(w)) => Expect::Text(w.to_string()),
        (R::FpEbits, Sort::FloatingPoint(e, _)) => Expect::Text(e.to_string()),
        (R::FpSbits, Sort::FloatingPoint(_, s)) => Expect::Text(s.to_string()),
        (R::ArrayDomain | R::ArrayDomainN, Sort::Array(i, _)) => sort_expect(state, i),
        (R::ArrayRange, Sort::Array(_, e)) => sort_expect(state, e),
        (R::ArrayArity, Sort::Array(..)) => Expect::Text("1".into()),
        (R::SeqSortBasis, Sort::Seq(e)) => sort_expect(state, e),
        (R::SortId, _) => bool_text(true),
        (R::IsSeqSort, s) => bool_text(matches!(s, Sort::Seq(_) | Sort::String)),
        (R::IsReSort, s) => bool_text(*s == Sort::RegLan),
        (R::ReSortBasis, Sort::RegLan) => Expect::Sort(Sort::String),
        // The model has no character or finite set sorts.
        (R::IsCharSort | R::IsFiniteSetSort, _) => bool_text(false),
        (R::IsRecursiveDatatype, Sort::Named(name, _)) if state.uninterpreted.contains(name) => {
            bool_text(false)
        }
        (R::IsRecursiveDatatype, Sort::Named(..)) => Expect::Unjudged,
        (R::IsRecursiveDatatype, _) => bool_text(false),
        (R::SortName, Sort::Named(name, params))
            if params.is_empty() && state.datatypes.by_name.contains_key(name) =>
        {
            Expect::Text(name.clone())
        }
        (R::TupleMkDecl | R::TupleNumFields | R::TupleFieldDecl, s) => {
            match (reader, tuple_fields(state, s)) {
                (R::TupleMkDecl, Some((ctor, _))) => Expect::Text(ctor.to_string()),
                (R::TupleNumFields, Some((_, fields))) => Expect::Text(fields.len().to_string()),
                (_, Some((_, fields))) => Expect::Text(fields.join(" ")),
                (_, None) => Expect::Unjudged,
            }
        }
        _ => Expect::Unjudged,
    }
}

/// The constructor and field names of a tuple sort: a datatype without parameters of one
/// constructor with no field of its own group (Z3's tuple reads refuse recursive ones).
fn tuple_fields<'a>(state: &'a State, sort: &Sort) -> Option<(&'a str, Vec<&'a str>)> {
    let Sort::Named(name, params) = sort else {
        return None;
    };
    let d = state.datatypes.by_name.get(name)?;
    match d.constructors.as_slice() {
        [(ctor, fields)]
            if params.is_empty()
                && fields
                    .iter()
                    .all(|(_, ty)| !matches!(ty, crate::datatype::FieldType::Datatype(_))) =>
        {
            Some((
                ctor.as_str(),
                fields.iter().map(|(f, _)| f.as_str()).collect(),
            ))
        }
        _ => None,
    }
}

/// What `reader` must answer for the RCF number `rcf`: the kind of extension of a number
/// made by `rcf_pi`, `rcf_e`, `rcf_infinitesimal` or from rationals by field operations, and
/// for a root of a polynomial with rational coefficients its interval and polynomial.
pub fn expected_for_rcf(reader: Reader, state: &State, rcf: crate::call::RcfId) -> Expect {
    use crate::state::RcfMade as M;
    let Some(info) = state.rcfs.get(&rcf) else {
        return Expect::Unjudged;
    };
    let made = match (info.rational, info.made) {
        (true, _) => None,
        (false, made) => Some(made),
    };
    use Reader as R;
    match (reader, made) {
        (R::RcfIsRational, None) => bool_text(true),
        (R::RcfIsRational, Some(M::Pi | M::E | M::Infinitesimal)) => bool_text(false),
        (R::RcfIsAlgebraic, None | Some(M::Pi | M::E | M::Infinitesimal)) => bool_text(false),
        (R::RcfIsInfinitesimal, Some(M::Infinitesimal)) => bool_text(true),
        (R::RcfIsInfinitesimal, None | Some(M::Pi | M::E)) => bool_text(false),
        (R::RcfIsTranscendental, Some(M::Pi | M::E)) => bool_text(true),
        (R::RcfIsTranscendental, None | Some(M::Infinitesimal)) => bool_text(false),
        (R::RcfTranscendentalName, Some(M::Pi)) => Expect::Text("pi".into()),
        (R::RcfTranscendentalName, Some(M::E)) => Expect::Text("e".into()),
        (R::RcfTranscendentalName, None | Some(M::Infinitesimal)) => bool_text(false),
        (R::RcfInfinitesimalName, None | Some(M::Pi | M::E)) => bool_text(false),
        (
            R::RcfNumCoefficients
            | R::RcfCoefficient
            | R::RcfInterval
            | R::RcfNumSignConditions
            | R::RcfSignConditionSign
            | R::RcfNumSignConditionCoefficients
            | R::RcfSignConditionCoefficient,
            None | Some(M::Pi | M::E | M::Infinitesimal),
        ) => bool_text(false),
        (R::RcfInterval, Some(M::Root)) => info
            .value
            .clone()
            .map_or(Expect::Unjudged, Expect::RcfInterval),
        (R::RcfCoefficient, Some(M::Root)) => info
            .value
            .clone()
            .map_or(Expect::Unjudged, Expect::RcfRootIn),
        _ => Expect::Unjudged,
    }
}

/// [`Expect::Sort`] where the executor can build the sort again to compare (no datatype in
/// it: a datatype's sort is its declaration's, which a name does not rebuild).
fn sort_expect(state: &State, sort: &Sort) -> Expect {
    fn rebuildable(state: &State, sort: &Sort) -> bool {
        match sort {
            Sort::Array(i, e) => rebuildable(state, i) && rebuildable(state, e),
            Sort::Seq(e) | Sort::FiniteSet(e) => rebuildable(state, e),
            Sort::Named(name, params) => params.is_empty() && state.uninterpreted.contains(name),
            _ => true,
        }
    }
    if rebuildable(state, sort) {
        Expect::Sort(sort.clone())
    } else {
        Expect::Unjudged
    }
}

/// `Z3_sort_kind` of a sort, as every release numbers it (`Z3_UNINTERPRETED_SORT` 0 to
/// `Z3_RE_SORT` 12); `None` where the releases differ or the state cannot tell.
fn sort_kind(s: &Sort) -> Option<u32> {
    Some(match s {
        Sort::Bool => 1,
        Sort::Int => 2,
        Sort::Real => 3,
        Sort::BitVec(_) => 4,
        Sort::Array(..) => 5,
        Sort::FloatingPoint(..) => 9,
        Sort::RoundingMode => 10,
        Sort::String | Sort::Seq(_) => 11,
        Sort::RegLan => 12,
        // Z3 4.8.12 has no finite sets; their kind is a newer release's number.
        Sort::Named(..) | Sort::FiniteSet(_) | Sort::FiniteField(_) => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::call::Call;

    #[test]
    fn every_reader_has_one_row_and_a_z3_name() {
        for (i, (reader, name, ..)) in READERS.iter().enumerate() {
            assert!(name.starts_with("Z3_"), "{name}");
            assert_eq!(Reader::from_name(name), Some(*reader));
            assert!(READERS[..i].iter().all(|r| r.0 != *reader && r.1 != *name));
        }
    }

    /// The state after the text trace `body` (without header).
    fn state_of(body: &str) -> State {
        let trace = crate::trace::text::parse(&format!("z3-trace 1\n{body}")).unwrap();
        let mut state = State::new();
        for e in &trace.entries {
            state.apply(&e.call, e.ret.as_ref()).unwrap();
        }
        state
    }

    #[test]
    fn the_state_refuses_reads_z3_does_not_document() {
        let state = state_of(
            "sort_int\nreturn s1\nlit s1 \"-5\"\nreturn t1\nconst s1 \"x\"\nreturn t2\n\
             sort_fp 8 24\nreturn s2\nlit s2 \"nan\"\nreturn t3\n",
        );
        let read = |function: &str, term: u32| Call::Read {
            function: function.into(),
            term: TermId(term),
        };
        assert!(state.check(&read("Z3_get_numeral_int64", 1)).is_ok());
        let refused = |call: Call, words: &str| {
            let v = state.check(&call).unwrap_err();
            assert!(v.0.contains(words), "{v}");
        };
        refused(
            read("Z3_get_numeral_int64", 2),
            "does not apply to t2 (a constant",
        );
        refused(read("Z3_fpa_get_numeral_sign", 3), "does not apply to t3");
        refused(read("Z3_mk_true", 1), "no read-back function");
        refused(read("Z3_get_bv_sort_size", 1), "reads no Term");
        refused(read("Z3_get_numeral_string", 9), "t9 is not defined");
        let sort = Call::ReadSort {
            function: "Z3_get_bv_sort_size".into(),
            sort: SortId(1),
        };
        refused(sort, "does not apply to s1");
        assert_eq!(
            expected_for_term(Reader::NumeralUint, &state, TermId(1)),
            Expect::Text("false".into())
        );
        assert_eq!(
            expected_for_term(Reader::NumeralRationalInt64, &state, TermId(1)),
            Expect::Text("-5/1".into())
        );
        assert_eq!(
            expected_for_term(Reader::AppDeclName, &state, TermId(2)),
            Expect::Text("x".into())
        );
    }

    #[test]
    fn quantifier_reads_are_judged_by_what_made_the_quantifier() {
        let state = state_of(
            "sort_int\nreturn s1\nfun \"f\" s1 s1\nreturn f1\nvar s1 \"i\"\nreturn t1\n\
             apply f1 t1\nreturn t2\n= t2 t1\nreturn t3\n\
             exists 3 t1 body t3 pattern t2\nreturn t4\n",
        );
        let expect = |reader, term| expected_for_term(reader, &state, TermId(term));
        let text = |t: &str| Expect::Text(t.into());
        assert_eq!(expect(Reader::IsQuantifierForall, 4), text("false"));
        assert_eq!(expect(Reader::IsQuantifierExists, 4), text("true"));
        assert_eq!(expect(Reader::QuantifierWeight, 4), text("3"));
        assert_eq!(expect(Reader::QuantifierNumBound, 4), text("1"));
        assert_eq!(expect(Reader::PatternNumTerms, 4), text("1"));
        assert_eq!(expect(Reader::QuantifierNumNoPatterns, 4), text("0"));
        assert_eq!(
            expect(Reader::QuantifierBoundSort, 4),
            Expect::Sort(Sort::Int)
        );
        assert_eq!(expect(Reader::Domain, 2), Expect::Sort(Sort::Int));
        let read = |function: &str, term: u32| Call::Read {
            function: function.into(),
            term: TermId(term),
        };
        assert!(state.check(&read("Z3_get_pattern", 4)).is_ok());
        assert!(state
            .check(&read("Z3_get_quantifier_no_pattern_ast", 4))
            .is_err());
        assert!(state.check(&read("Z3_get_quantifier_weight", 2)).is_err());
        assert!(state.check(&read("Z3_get_decl_int_parameter", 2)).is_err());
    }

    #[test]
    fn rcf_answers_are_judged_by_intervals() {
        use crate::rcf::Interval;
        let q = |n: i64, d: i64| BigRational::new(n.into(), d.into());
        // √2 lies in (1.4, 1.5).
        let sqrt2 = Interval::open(q(14, 10), q(15, 10));
        assert!(Expect::RcfInterval(sqrt2.clone()).judge("(0, +oo)").is_ok());
        assert!(Expect::RcfInterval(sqrt2.clone()).judge("[1, 3/2)").is_ok());
        assert!(Expect::RcfInterval(sqrt2.clone())
            .judge("(-oo, 0)")
            .is_err());
        assert!(Expect::RcfInterval(sqrt2.clone())
            .judge("(3/2, 2)")
            .is_err());
        assert!(Expect::RcfInterval(sqrt2.clone()).judge("false").is_ok());
        assert!(Expect::RcfInterval(sqrt2.clone()).judge("0, 1").is_err());
        assert!(Expect::RcfRootIn(sqrt2.clone()).judge("[-2; 0; 1]").is_ok());
        assert!(Expect::RcfRootIn(sqrt2.clone())
            .judge("[-3; 0; 1]")
            .is_err());
        assert!(Expect::RcfRootIn(sqrt2.clone()).judge("[0; 0]").is_err());
        // Coefficients that are not all rational are not judged.
        assert!(Expect::RcfRootIn(sqrt2).judge("[pi; 1]").is_ok());
        assert_eq!(rcf_list("[]"), Some(vec![]));
    }

    #[test]
    fn rcf_reads_are_judged_by_what_made_the_number() {
        let state = state_of(
            "rcf_pi\nreturn r1\nrcf_small_int 2\nreturn r2\nrcf_infinitesimal\nreturn r3\n\
             rcf_small_int -2\nreturn r4\nrcf_small_int 0\nreturn r5\nrcf_small_int 1\n\
             return r6\nrcf_root 1 r4 r5 r6\nreturn r7\nrcf_add r1 r2\nreturn r8\n",
        );
        let expect = |reader, r| expected_for_rcf(reader, &state, crate::call::RcfId(r));
        let text = |t: &str| Expect::Text(t.into());
        assert_eq!(expect(Reader::RcfIsTranscendental, 1), text("true"));
        assert_eq!(expect(Reader::RcfTranscendentalName, 1), text("pi"));
        assert_eq!(expect(Reader::RcfIsRational, 1), text("false"));
        assert_eq!(expect(Reader::RcfIsRational, 2), text("true"));
        assert_eq!(expect(Reader::RcfIsAlgebraic, 2), text("false"));
        assert_eq!(expect(Reader::RcfCoefficient, 2), text("false"));
        assert_eq!(expect(Reader::RcfIsInfinitesimal, 3), text("true"));
        assert_eq!(expect(Reader::RcfInfinitesimalName, 3), Expect::Unjudged);
        // √2: its interval meets (0, +oo), its polynomial has a root near 1.414.
        assert!(expect(Reader::RcfInterval, 7).judge("(0, +oo)").is_ok());
        assert!(expect(Reader::RcfInterval, 7).judge("(-oo, 0)").is_err());
        assert!(expect(Reader::RcfCoefficient, 7)
            .judge("[-2; 0; 1]")
            .is_ok());
        assert!(expect(Reader::RcfCoefficient, 7)
            .judge("[-5; 0; 1]")
            .is_err());
        // π + 2 is in no extension the oracle knows.
        assert_eq!(expect(Reader::RcfIsTranscendental, 8), Expect::Unjudged);
        let read = |function: &str| Call::ReadRcf {
            function: function.into(),
            rcf: crate::call::RcfId(1),
        };
        assert!(state.check(&read("Z3_rcf_interval")).is_ok());
        let refused = state.check(&read("Z3_get_depth")).unwrap_err();
        assert!(refused.0.contains("reads no Rcf"), "{refused}");
    }

    #[test]
    fn judged_texts() {
        let q = |n: i64, d: i64| BigRational::new(n.into(), d.into());
        assert!(Expect::Decimal(q(3, 4), 12).judge("0.75").is_ok());
        assert!(Expect::Decimal(q(1, 3), 12)
            .judge("0.333333333333?")
            .is_ok());
        assert!(Expect::Decimal(q(1, 3), 12).judge("0.3?").is_err());
        assert!(Expect::Decimal(q(-5, 1), 12).judge("-5").is_ok());
        assert!(Expect::Double(q(1, 3))
            .judge(&format!("{:?}", 1.0f64 / 3.0))
            .is_ok());
        assert!(Expect::Double(q(1, 3)).judge("0.3333").is_err());
        assert!(Expect::Binary(BigInt::from(5)).judge("101").is_ok());
        assert!(Expect::Binary(BigInt::from(5)).judge("100").is_err());
        assert!(Expect::Binary(BigInt::from(5)).judge("").is_err());
    }

    #[test]
    fn numeral_values_are_exact() {
        let v = numeral_value(&Sort::Real, "-1.25").unwrap();
        assert_eq!(rational_text(&v), "-5/4");
        let v = numeral_value(&Sort::Real, "6/4").unwrap();
        assert_eq!(rational_text(&v), "3/2");
        assert_eq!(numeral_value(&Sort::Real, "1/0"), None);
        assert_eq!(
            rational_text(&numeral_value(&Sort::BitVec(8), "255").unwrap()),
            "255"
        );
    }

    #[test]
    fn fp_values_are_known_where_exact() {
        // 1.5 in Float32: exponent 127 biased, significand 0x400000.
        let v = fp_value(8, 24, "1.5").unwrap();
        let f = FpFields::of(&v);
        assert_eq!(f.exponent, BigUint::from(127u8));
        assert_eq!(f.significand, BigUint::from(0x40_0000u32));
        assert_eq!(
            expected_fp(Reader::FpExponentInt64, &v),
            Expect::Text("0".into())
        );
        // 0.1 is no Float32 value: not judged.
        assert!(fp_value(8, 24, "0.1").is_none());
        assert!(fp_value(11, 53, "0.1").is_some());
        assert_eq!(
            expected_fp(Reader::FpIsNegative, &fp_value(8, 24, "-zero").unwrap()),
            Expect::Text("true".into())
        );
        assert_eq!(
            expected_fp(Reader::FpIsPositive, &Fp::nan(8, 24)),
            Expect::Text("false".into())
        );
    }
}
