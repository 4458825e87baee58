//! Sorts of the theory symbols of SMT-LIB v2.6 (Core, Ints, Reals and mixed arithmetic,
//! bit-vectors, arrays, floating point, strings, regular expressions and sequences), plus the
//! common Z3/cvc5 extensions real files use (transcendentals, overflow predicates, `str.rev`).
//!
//! [`builtin`] answers "what is the sort of `name` with these indices applied to arguments of
//! these sorts", or `None` when `name` is not a theory symbol. Rules are code, one arm per
//! operator family, because many are polymorphic (same width, same sort, Int/Real mixing).
//!
//! [`read_sort`] reads a sort expression written in a [`Tree`] (`Int`, `(_ BitVec 8)`,
//! `(Array Int Bool)`, `Float32`, `(List Int)`): the theory sorts here, every other sort name
//! through the caller, who knows the declared sorts and aliases.

use super::symbols::unquote;
use super::tree::{Atom, NodeId, Tree};
use crate::Sort;

/// An index of an indexed identifier: `(_ extract 7 0)` has two numerals, `(_ is cons)` a symbol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Index {
    Num(u64),
    Sym(String),
}

type Rule = Result<Sort, String>;

/// Why [`read_sort`] could not read a sort expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SortReadError<E> {
    /// The node is neither a symbol nor a list headed by a symbol.
    NotASort(NodeId),
    /// `(_ ...)` other than `(_ BitVec W)` (W >= 1) or `(_ FloatingPoint E S)` (E, S >= 2).
    UnknownIndexed(NodeId),
    /// The node lies deeper than the depth the caller allowed.
    TooDeep(NodeId),
    /// What the caller's `named` said about a sort name.
    Named(E),
}

/// The sort a theory sort symbol names (`Int`, `RoundingMode`, `Float32`...), `None` for
/// other names.
pub fn theory_sort(name: &str) -> Option<Sort> {
    Some(match name {
        "Bool" => Sort::Bool,
        "Int" => Sort::Int,
        "Real" => Sort::Real,
        "String" => Sort::String,
        "RegLan" => Sort::RegLan,
        "RoundingMode" => Sort::RoundingMode,
        "Float16" => Sort::FloatingPoint(5, 11),
        "Float32" => Sort::FloatingPoint(8, 24),
        "Float64" => Sort::FloatingPoint(11, 53),
        "Float128" => Sort::FloatingPoint(15, 113),
        _ => return None,
    })
}

/// Reads the sort expression at `id` of `tree`, at most `depth` nodes deep.
///
/// Theory sorts are read here: the symbols of [`theory_sort`] (quoted or not), `(_ BitVec W)`,
/// `(_ FloatingPoint E S)`, `(Array I E)` and `(Seq E)`. Every other sort name goes to
/// `named(name, parameters, depth left)`: a symbol with no parameters, or the head of
/// `(Name s...)` with its parameter sorts already read; `name` is as written (possibly
/// quoted), and the depth left lets a caller that expands aliases bound their expansion.
pub fn read_sort<E, F>(
    tree: &Tree,
    id: NodeId,
    depth: usize,
    named: &mut F,
) -> Result<Sort, SortReadError<E>>
where
    F: FnMut(&str, Vec<Sort>, usize) -> Result<Sort, E>,
{
    if depth == 0 {
        return Err(SortReadError::TooDeep(id));
    }
    if let Some(symbol) = tree.symbol(id) {
        return match theory_sort(unquote(symbol)) {
            Some(sort) => Ok(sort),
            None => named(symbol, Vec::new(), depth).map_err(SortReadError::Named),
        };
    }
    let children = tree.children(id);
    let Some(head) = tree.head(id) else {
        return Err(SortReadError::NotASort(id));
    };
    if head == "_" {
        let name = children.get(1).and_then(|&c| tree.symbol(c));
        let nums: Option<Vec<u32>> = children
            .iter()
            .skip(2)
            .map(|&c| match tree.atom(c) {
                Some(Atom::Numeral(n)) => n.parse().ok(),
                _ => None,
            })
            .collect();
        return match (name, nums.as_deref()) {
            (Some("BitVec"), Some(&[w])) if w >= 1 => Ok(Sort::BitVec(w)),
            (Some("FloatingPoint"), Some(&[e, s])) if e >= 2 && s >= 2 => {
                Ok(Sort::FloatingPoint(e, s))
            }
            _ => Err(SortReadError::UnknownIndexed(id)),
        };
    }
    let params = children[1..]
        .iter()
        .map(|&c| read_sort(tree, c, depth - 1, named))
        .collect::<Result<Vec<_>, _>>()?;
    match (unquote(head), params.as_slice()) {
        ("Array", [i, e]) => Ok(Sort::array(i.clone(), e.clone())),
        ("Seq", [e]) => Ok(Sort::seq(e.clone())),
        _ => named(head, params, depth).map_err(SortReadError::Named),
    }
}

fn list(sorts: &[Sort]) -> String {
    if sorts.is_empty() {
        return "no arguments".into();
    }
    sorts
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn bad(name: &str, expected: &str, args: &[Sort]) -> Rule {
    Err(format!("'{name}' expects {expected}; got {}", list(args)))
}

/// Exactly `n` numeral indices, each fitting a width.
fn indices(name: &str, idx: &[Index], n: usize) -> Result<Vec<u32>, String> {
    let nums: Vec<u32> = idx
        .iter()
        .filter_map(|i| match i {
            Index::Num(v) => u32::try_from(*v).ok(),
            Index::Sym(_) => None,
        })
        .collect();
    if nums.len() != n || idx.len() != n {
        return Err(format!(
            "'{name}' expects {n} numeral ind{} (of at most 32 bits)",
            if n == 1 { "ex" } else { "ices" }
        ));
    }
    Ok(nums)
}

fn no_indices(name: &str, idx: &[Index]) -> Result<(), String> {
    if idx.is_empty() {
        Ok(())
    } else {
        Err(format!("'{name}' takes no indices"))
    }
}

/// The common sort of arithmetic arguments: Int if all are Int, Real if any is Real.
fn arith(args: &[Sort]) -> Option<Sort> {
    if args.iter().all(|s| s.is_arith()) {
        Some(if args.contains(&Sort::Real) {
            Sort::Real
        } else {
            Sort::Int
        })
    } else {
        None
    }
}

/// Whether two sorts are equal up to Int/Real mixing (Z3 and cvc5 accept mixed arithmetic).
pub fn compatible(a: &Sort, b: &Sort) -> bool {
    a == b || (a.is_arith() && b.is_arith())
}

/// The join of compatible sorts: Real if Int and Real mix.
pub fn join(a: &Sort, b: &Sort) -> Option<Sort> {
    if a == b {
        Some(a.clone())
    } else if a.is_arith() && b.is_arith() {
        Some(Sort::Real)
    } else {
        None
    }
}

fn same_bv(args: &[Sort], min: usize) -> Option<u32> {
    let w = args.first()?.bv_width()?;
    (args.len() >= min && args.iter().all(|s| s.bv_width() == Some(w))).then_some(w)
}

fn same_fp(args: &[Sort]) -> Option<(u32, u32)> {
    let f = args.first()?.fp_format()?;
    args.iter().all(|s| s.fp_format() == Some(f)).then_some(f)
}

fn is_string_like(s: &Sort) -> bool {
    matches!(s, Sort::String | Sort::Seq(_))
}

fn fp_sort(e: u32, s: u32) -> Rule {
    if e >= 2 && s >= 2 {
        Ok(Sort::FloatingPoint(e, s))
    } else {
        Err(format!(
            "a floating-point format needs exponent and significand widths of at least 2; got {e} and {s}"
        ))
    }
}

fn bv_sort(w: u64) -> Rule {
    match u32::try_from(w) {
        Ok(w) if w >= 1 => Ok(Sort::BitVec(w)),
        _ => Err(format!(
            "a bit-vector width must be between 1 and 2^32-1; got {w}"
        )),
    }
}

/// The sort of theory symbol `name` with indices `idx` applied to `args` (no arguments for
/// constants), `None` if `name` is no theory symbol.
pub fn builtin(name: &str, idx: &[Index], args: &[Sort]) -> Option<Rule> {
    core(name, idx, args)
        .or_else(|| arithmetic(name, idx, args))
        .or_else(|| bitvector(name, idx, args))
        .or_else(|| array(name, idx, args))
        .or_else(|| floating_point(name, idx, args))
        .or_else(|| strings(name, idx, args))
}

fn unindexed(name: &str, idx: &[Index], rule: impl FnOnce() -> Rule) -> Rule {
    no_indices(name, idx)?;
    rule()
}

fn core(name: &str, idx: &[Index], args: &[Sort]) -> Option<Rule> {
    let all_bool = || args.iter().all(|s| *s == Sort::Bool);
    Some(match name {
        "true" | "false" => unindexed(name, idx, || {
            if args.is_empty() {
                Ok(Sort::Bool)
            } else {
                bad(name, "no arguments", args)
            }
        }),
        "not" => unindexed(name, idx, || match args {
            [Sort::Bool] => Ok(Sort::Bool),
            _ => bad(name, "one Bool argument", args),
        }),
        "and" | "or" | "xor" | "=>" => unindexed(name, idx, || {
            if all_bool() && (!args.is_empty() || name == "and" || name == "or") {
                Ok(Sort::Bool)
            } else {
                bad(name, "Bool arguments", args)
            }
        }),
        "=" | "distinct" => unindexed(name, idx, || {
            let joined = args
                .iter()
                .skip(1)
                .try_fold(args.first().cloned(), |acc, s| {
                    acc.map(|a| join(&a, s)).ok_or(())
                });
            match joined {
                Ok(Some(_)) if args.len() >= 2 => Ok(Sort::Bool),
                _ => bad(name, "two or more arguments of the same sort", args),
            }
        }),
        "ite" => unindexed(name, idx, || match args {
            [Sort::Bool, a, b] => join(a, b)
                .ok_or(())
                .or_else(|_| bad(name, "a Bool and two branches of the same sort", args)),
            _ => bad(name, "a Bool and two branches of the same sort", args),
        }),
        _ => return None,
    })
}

fn arithmetic(name: &str, idx: &[Index], args: &[Sort]) -> Option<Rule> {
    Some(match name {
        "+" | "*" | "-" => unindexed(name, idx, || match arith(args) {
            Some(s) if !args.is_empty() && (args.len() >= 2 || name == "-") => Ok(s),
            _ => bad(name, "Int or Real arguments", args),
        }),
        "/" => unindexed(name, idx, || match arith(args) {
            Some(_) if args.len() >= 2 => Ok(Sort::Real),
            _ => bad(name, "two or more Int or Real arguments", args),
        }),
        // `rem` is Z3's: the remainder with the divisor's sign.
        "div" | "mod" | "rem" => unindexed(name, idx, || {
            if args.len() >= 2 && args.iter().all(|s| *s == Sort::Int) {
                Ok(Sort::Int)
            } else {
                bad(name, "two or more Int arguments", args)
            }
        }),
        "abs" => unindexed(name, idx, || match args {
            [s] if s.is_arith() => Ok(s.clone()),
            _ => bad(name, "one Int or Real argument", args),
        }),
        "<" | "<=" | ">" | ">=" => unindexed(name, idx, || match arith(args) {
            Some(_) if args.len() >= 2 => Ok(Sort::Bool),
            _ => bad(name, "two or more Int or Real arguments", args),
        }),
        "to_real" => unindexed(name, idx, || match args {
            [s] if s.is_arith() => Ok(Sort::Real),
            _ => bad(name, "one Int argument", args),
        }),
        "to_int" => unindexed(name, idx, || match args {
            [s] if s.is_arith() => Ok(Sort::Int),
            _ => bad(name, "one Real argument", args),
        }),
        "is_int" => unindexed(name, idx, || match args {
            [s] if s.is_arith() => Ok(Sort::Bool),
            _ => bad(name, "one Real argument", args),
        }),
        "at-most" | "at-least" => match indices(name, idx, 1) {
            Err(e) => Err(e),
            Ok(_) if !args.is_empty() && args.iter().all(|s| *s == Sort::Bool) => Ok(Sort::Bool),
            Ok(_) => bad(name, "Bool arguments", args),
        },
        "divisible" => match (indices(name, idx, 1), args) {
            (Err(e), _) => Err(e),
            (Ok(_), [Sort::Int]) => Ok(Sort::Bool),
            (Ok(_), _) => bad(name, "one Int argument", args),
        },
        "^" => unindexed(name, idx, || match arith(args) {
            Some(s) if args.len() == 2 => Ok(s),
            _ => bad(name, "two Int or Real arguments", args),
        }),
        "exp" | "sin" | "cos" | "tan" | "arcsin" | "arccos" | "arctan" | "sqrt" | "csc" | "sec"
        | "cot" | "arccsc" | "arcsec" | "arccot" => unindexed(name, idx, || match args {
            [s] if s.is_arith() => Ok(Sort::Real),
            _ => bad(name, "one Real argument", args),
        }),
        "real.pi" | "pi" if args.is_empty() => unindexed(name, idx, || Ok(Sort::Real)),
        _ => return None,
    })
}

fn bitvector(name: &str, idx: &[Index], args: &[Sort]) -> Option<Rule> {
    if let Some(digits) = name.strip_prefix("bv") {
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) && !idx.is_empty() {
            // `(_ bv5 8)`: the value 5 as an 8-bit vector.
            return Some(match (indices(name, idx, 1), args.is_empty()) {
                (Ok(w), true) => bv_sort(u64::from(w[0])),
                (Err(e), _) => Err(e),
                (_, false) => bad(name, "no arguments", args),
            });
        }
    }
    let same = |min: usize| -> Rule {
        no_indices(name, idx)?;
        match same_bv(args, min) {
            Some(w) => Ok(Sort::BitVec(w)),
            None => bad(name, "bit-vector arguments of the same width", args),
        }
    };
    let pred = |n: usize| -> Rule {
        no_indices(name, idx)?;
        match same_bv(args, n) {
            Some(_) if args.len() == n => Ok(Sort::Bool),
            _ => bad(
                name,
                if n == 1 {
                    "one bit-vector argument"
                } else {
                    "two bit-vector arguments of the same width"
                },
                args,
            ),
        }
    };
    let one_bv = |idx_n: usize, f: &dyn Fn(&[u32], u32) -> Rule| -> Rule {
        let ix = indices(name, idx, idx_n)?;
        match args {
            [Sort::BitVec(w)] => f(&ix, *w),
            _ => bad(name, "one bit-vector argument", args),
        }
    };
    Some(match name {
        "bvnot" | "bvneg" => match same(1) {
            Ok(s) if args.len() == 1 => Ok(s),
            Ok(_) => bad(name, "one bit-vector argument", args),
            e => e,
        },
        "bvand" | "bvor" | "bvxor" | "bvadd" | "bvmul" => same(2),
        // `ext_rotate_*` are Z3's rotations by a bit-vector amount.
        "bvsub" | "bvudiv" | "bvurem" | "bvsdiv" | "bvsrem" | "bvsmod" | "bvshl" | "bvlshr"
        | "bvashr" | "bvnand" | "bvnor" | "bvxnor" | "ext_rotate_left" | "ext_rotate_right" => {
            match same(2) {
                Ok(s) if args.len() == 2 || name == "bvsub" => Ok(s),
                Ok(_) => bad(name, "two bit-vector arguments of the same width", args),
                e => e,
            }
        }
        "bvcomp" => match same(2) {
            Ok(_) => Ok(Sort::BitVec(1)),
            e => e,
        },
        "bvult" | "bvule" | "bvugt" | "bvuge" | "bvslt" | "bvsle" | "bvsgt" | "bvsge" => pred(2),
        "bvuaddo" | "bvsaddo" | "bvumulo" | "bvsmulo" | "bvusubo" | "bvssubo" | "bvsdivo"
        | "bvumul_noovfl" | "bvsmul_noovfl" | "bvsmul_noudfl" => pred(2),
        "bvnego" => pred(1),
        "bvredor" | "bvredand" => match pred(1) {
            Ok(_) => Ok(Sort::BitVec(1)),
            e => e,
        },
        "concat" => unindexed(name, idx, || {
            let widths: Option<Vec<u32>> = args.iter().map(|s| s.bv_width()).collect();
            match widths {
                Some(ws) if ws.len() >= 2 => bv_sort(ws.iter().map(|&w| u64::from(w)).sum()),
                _ => bad(name, "two or more bit-vector arguments", args),
            }
        }),
        "extract" => one_bv(2, &|ix, w| {
            let (i, j) = (ix[0], ix[1]);
            if j <= i && i < w {
                Ok(Sort::BitVec(i - j + 1))
            } else {
                Err(format!(
                    "'(_ extract {i} {j})' needs {w} > {i} >= {j} for a (_ BitVec {w}) argument"
                ))
            }
        }),
        "repeat" => one_bv(1, &|ix, w| {
            if ix[0] >= 1 {
                bv_sort(u64::from(ix[0]) * u64::from(w))
            } else {
                Err("'(_ repeat 0)' is not allowed; the index must be at least 1".into())
            }
        }),
        "zero_extend" | "sign_extend" => {
            one_bv(1, &|ix, w| bv_sort(u64::from(ix[0]) + u64::from(w)))
        }
        "rotate_left" | "rotate_right" => one_bv(1, &|_, w| Ok(Sort::BitVec(w))),
        "bit2bool" => one_bv(1, &|ix, w| {
            if ix[0] < w {
                Ok(Sort::Bool)
            } else {
                Err(format!(
                    "'(_ bit2bool {})' needs an index below the width {w}",
                    ix[0]
                ))
            }
        }),
        "bv2nat" | "bv2int" | "ubv_to_int" | "sbv_to_int" => unindexed(name, idx, || match args {
            [Sort::BitVec(_)] => Ok(Sort::Int),
            _ => bad(name, "one bit-vector argument", args),
        }),
        "str.from_ubv" | "str.from_sbv" => unindexed(name, idx, || match args {
            [Sort::BitVec(_)] => Ok(Sort::String),
            _ => bad(name, "one bit-vector argument", args),
        }),
        "nat2bv" | "int2bv" | "int_to_bv" => match (indices(name, idx, 1), args) {
            (Err(e), _) => Err(e),
            (Ok(w), [Sort::Int]) => bv_sort(u64::from(w[0])),
            (Ok(_), _) => bad(name, "one Int argument", args),
        },
        _ => return None,
    })
}

fn array(name: &str, idx: &[Index], args: &[Sort]) -> Option<Rule> {
    Some(match name {
        "select" => unindexed(name, idx, || match args {
            [Sort::Array(i, e), j] if compatible(i, j) => Ok((**e).clone()),
            _ => bad(name, "an array and an index of its index sort", args),
        }),
        "store" => unindexed(name, idx, || match args {
            [a @ Sort::Array(i, e), j, v] if compatible(i, j) && compatible(e, v) => Ok(a.clone()),
            _ => bad(
                name,
                "an array, an index of its index sort and a value of its element sort",
                args,
            ),
        }),
        _ => return None,
    })
}

const ROUNDING_MODES: [&str; 10] = [
    "RNE",
    "RNA",
    "RTP",
    "RTN",
    "RTZ",
    "roundNearestTiesToEven",
    "roundNearestTiesToAway",
    "roundTowardPositive",
    "roundTowardNegative",
    "roundTowardZero",
];

/// Whether `name` is a rounding-mode constant (`RNE`, `roundTowardZero`, ...).
pub fn is_rounding_mode(name: &str) -> bool {
    ROUNDING_MODES.contains(&name)
}

fn floating_point(name: &str, idx: &[Index], args: &[Sort]) -> Option<Rule> {
    if is_rounding_mode(name) {
        return Some(unindexed(name, idx, || {
            if args.is_empty() {
                Ok(Sort::RoundingMode)
            } else {
                bad(name, "no arguments", args)
            }
        }));
    }
    let rm_then_same = |n: usize| -> Rule {
        no_indices(name, idx)?;
        match args.split_first() {
            Some((Sort::RoundingMode, rest)) if rest.len() == n => match same_fp(rest) {
                Some((e, s)) => Ok(Sort::FloatingPoint(e, s)),
                None => bad(
                    name,
                    "a RoundingMode and floating-point arguments of one format",
                    args,
                ),
            },
            _ => bad(
                name,
                &format!("a RoundingMode and {n} floating-point argument(s) of one format"),
                args,
            ),
        }
    };
    let same = |n: Option<usize>, result: Option<Sort>| -> Rule {
        no_indices(name, idx)?;
        match same_fp(args) {
            Some((e, s)) if n.is_none_or(|n| args.len() == n) && !args.is_empty() => {
                Ok(result.unwrap_or(Sort::FloatingPoint(e, s)))
            }
            _ => bad(name, "floating-point arguments of one format", args),
        }
    };
    Some(match name {
        "+zero" | "-zero" | "+oo" | "-oo" | "NaN" => match (indices(name, idx, 2), args) {
            (Ok(ix), []) => fp_sort(ix[0], ix[1]),
            (Err(e), _) => Err(e),
            (Ok(_), _) => bad(name, "no arguments", args),
        },
        "fp" => unindexed(name, idx, || match args {
            [Sort::BitVec(1), Sort::BitVec(e), Sort::BitVec(s)] => match s.checked_add(1) {
                Some(s) => fp_sort(*e, s),
                None => bad(name, "a significand narrower than 2^32-1 bits", args),
            },
            _ => bad(
                name,
                "bit-vectors for sign (width 1), exponent and significand",
                args,
            ),
        }),
        "fp.abs" | "fp.neg" => same(Some(1), None),
        "fp.add" | "fp.sub" | "fp.mul" | "fp.div" => rm_then_same(2),
        "fp.fma" => rm_then_same(3),
        "fp.sqrt" | "fp.roundToIntegral" => rm_then_same(1),
        "fp.rem" | "fp.min" | "fp.max" => same(Some(2), None),
        "fp.leq" | "fp.lt" | "fp.geq" | "fp.gt" | "fp.eq" => match args.len() {
            0 | 1 => bad(
                name,
                "two or more floating-point arguments of one format",
                args,
            ),
            _ => same(None, Some(Sort::Bool)),
        },
        "fp.isNormal" | "fp.isSubnormal" | "fp.isZero" | "fp.isInfinite" | "fp.isNaN"
        | "fp.isNegative" | "fp.isPositive" => same(Some(1), Some(Sort::Bool)),
        "fp.to_real" => same(Some(1), Some(Sort::Real)),
        "fp.to_ieee_bv" => unindexed(name, idx, || match args {
            [Sort::FloatingPoint(e, s)] => bv_sort(u64::from(*e) + u64::from(*s)),
            _ => bad(name, "one floating-point argument", args),
        }),
        "fp.to_ubv" | "fp.to_sbv" | "fp.to_ubv_I" | "fp.to_sbv_I" => {
            match (indices(name, idx, 1), args) {
                (Err(e), _) => Err(e),
                (Ok(w), [Sort::RoundingMode, Sort::FloatingPoint(..)]) => bv_sort(u64::from(w[0])),
                (Ok(_), _) => bad(name, "a RoundingMode and a floating-point argument", args),
            }
        }
        "to_fp" => match indices(name, idx, 2) {
            Err(e) => Err(e),
            Ok(ix) => {
                let ok = match args {
                    [Sort::BitVec(w)] => u64::from(*w) == u64::from(ix[0]) + u64::from(ix[1]),
                    [Sort::RoundingMode, Sort::FloatingPoint(..)]
                    | [Sort::RoundingMode, Sort::Real | Sort::Int]
                    | [Sort::RoundingMode, Sort::BitVec(_)] => true,
                    [Sort::RoundingMode, Sort::Real | Sort::Int, Sort::Int] => true,
                    _ => false,
                };
                if ok {
                    fp_sort(ix[0], ix[1])
                } else {
                    bad(
                        name,
                        "a bit-vector of width e+s, or a RoundingMode and a floating-point, Real or signed bit-vector",
                        args,
                    )
                }
            }
        },
        "to_fp_unsigned" => match (indices(name, idx, 2), args) {
            (Err(e), _) => Err(e),
            (Ok(ix), [Sort::RoundingMode, Sort::BitVec(_)]) => fp_sort(ix[0], ix[1]),
            (Ok(_), _) => bad(name, "a RoundingMode and a bit-vector", args),
        },
        _ => return None,
    })
}

fn strings(name: &str, idx: &[Index], args: &[Sort]) -> Option<Rule> {
    use Sort::{Int, RegLan, String as Str};
    // Z3 and cvc5 also accept the str.* operators on sequences; the "string-like" sort is
    // String or (Seq T), the same for all string-like arguments.
    let like = |shape: &[Option<Sort>], result: &dyn Fn(&Sort) -> Sort| -> Rule {
        no_indices(name, idx)?;
        let subject = args.first().filter(|s| is_string_like(s));
        let fits = subject.is_some()
            && args.len() == shape.len()
            && args.iter().zip(shape).all(|(a, want)| match want {
                None => Some(a) == subject,
                Some(w) => a == w,
            });
        match subject {
            Some(s) if fits => Ok(result(s)),
            _ => bad(name, &shape_text(shape), args),
        }
    };
    let fixed = |want: &[Sort], result: Sort| -> Rule {
        no_indices(name, idx)?;
        if args == want {
            Ok(result)
        } else {
            bad(name, &list(want), args)
        }
    };
    let same = |s: &Sort| s.clone();
    let seq_elem = |s: &Sort| match s {
        Sort::Seq(e) => (**e).clone(),
        other => other.clone(),
    };
    let variadic = |want: Sort, result: Sort, min: usize| -> Rule {
        no_indices(name, idx)?;
        if args.len() >= min && args.iter().all(|a| *a == want) {
            Ok(result)
        } else {
            bad(name, &format!("{min} or more {want} arguments"), args)
        }
    };
    // The string-like subject sort in a shape.
    const S: Option<Sort> = None;
    Some(match name {
        "str.++" | "seq.++" => no_indices(name, idx).and_then(|_| match args.first() {
            Some(first)
                if is_string_like(first) && args.iter().all(|a| a == first) && args.len() >= 2 =>
            {
                Ok(first.clone())
            }
            _ => bad(name, "two or more strings (or sequences) of one sort", args),
        }),
        "str.len" | "seq.len" => like(&[S], &|_| Int),
        "str.at" | "seq.at" => like(&[S, Some(Int)], &same),
        "seq.nth" => like(&[S, Some(Int)], &seq_elem),
        // Z3's, releases after 4.8.12: s concatenated n times with itself.
        "seq.power" => like(&[S, Some(Int)], &same),
        // Z3's, releases after 4.8.12, over a function of one argument (its `seq.mapi` and
        // folds take arrays of several indices, which `Sort` does not have).
        "seq.map" => unindexed(name, idx, || match args {
            [Sort::Array(index, element), Sort::Seq(item)] if index == item => {
                Ok(Sort::seq((**element).clone()))
            }
            _ => bad(name, "an array and a sequence of its index sort", args),
        }),
        "str.substr" | "seq.extract" => like(&[S, Some(Int), Some(Int)], &same),
        "str.prefixof" | "str.suffixof" | "str.contains" | "seq.prefixof" | "seq.suffixof"
        | "seq.contains" => like(&[S, S], &|_| Sort::Bool),
        "str.indexof" | "seq.indexof" => like(&[S, S, Some(Int)], &|_| Int),
        "seq.last_indexof" => like(&[S, S], &|_| Int),
        "str.replace" | "str.replace_all" | "seq.replace" | "seq.replace_all" => {
            like(&[S, S, S], &same)
        }
        "str.update" | "seq.update" => like(&[S, Some(Int), S], &same),
        "str.rev" | "seq.rev" => like(&[S], &same),
        "seq.unit" => unindexed(name, idx, || match args {
            [e] => Ok(Sort::seq(e.clone())),
            _ => bad(name, "one argument", args),
        }),
        "str.<" | "str.<=" => variadic(Str, Sort::Bool, 2),
        "str.is_digit" => fixed(&[Str], Sort::Bool),
        "str.to_code" | "str.to_int" | "str.to.int" => fixed(&[Str], Int),
        "str.from_code" | "str.from_int" | "int.to.str" => fixed(&[Int], Str),
        "str.to_lower" | "str.to_upper" => fixed(&[Str], Str),
        "str.replace_re" | "str.replace_re_all" => fixed(&[Str, RegLan, Str], Str),
        "str.to_re" | "str.to.re" => fixed(&[Str], RegLan),
        "str.in_re" | "str.in.re" => fixed(&[Str, RegLan], Sort::Bool),
        "re.none" | "re.all" | "re.allchar" | "re.nostr" => fixed(&[], RegLan),
        "re.++" | "re.union" | "re.inter" => variadic(RegLan, RegLan, 1),
        "re.diff" => variadic(RegLan, RegLan, 2),
        "re.*" | "re.+" | "re.opt" | "re.comp" => fixed(&[RegLan], RegLan),
        "re.range" => fixed(&[Str, Str], RegLan),
        "re.loop" => {
            let n = idx.len();
            match (indices(name, idx, if n == 1 { 1 } else { 2 }), args) {
                (Err(e), _) => Err(e),
                (Ok(_), [RegLan]) => Ok(RegLan),
                (Ok(_), _) => bad(name, "one RegLan argument", args),
            }
        }
        "re.^" => match (indices(name, idx, 1), args) {
            (Err(e), _) => Err(e),
            (Ok(_), [RegLan]) => Ok(RegLan),
            (Ok(_), _) => bad(name, "one RegLan argument", args),
        },
        _ => return None,
    })
}

fn shape_text(shape: &[Option<Sort>]) -> String {
    shape
        .iter()
        .map(|s| match s {
            None => "String (or Seq)".to_string(),
            Some(s) => s.to_string(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bv(w: u32) -> Sort {
        Sort::BitVec(w)
    }

    /// `expected` is the result sort's text or the start of the error message.
    fn check(name: &str, idx: &[u64], args: &[Sort], expected: &str) {
        let idx: Vec<Index> = idx.iter().map(|&i| Index::Num(i)).collect();
        let got = match builtin(name, &idx, args) {
            None => "not builtin".to_string(),
            Some(Ok(s)) => s.to_string(),
            Some(Err(e)) => e,
        };
        assert!(got.starts_with(expected), "{name} {args:?}: {got}");
    }

    #[test]
    fn theory_symbol_sorts() {
        use Sort::*;
        let f32 = FloatingPoint(8, 24);
        let cases: Vec<(&str, Vec<u64>, Vec<Sort>, &str)> = vec![
            ("and", vec![], vec![Bool, Bool, Bool], "Bool"),
            (
                "and",
                vec![],
                vec![Bool, Int],
                "'and' expects Bool arguments; got Bool, Int",
            ),
            ("=", vec![], vec![Int, Real], "Bool"),
            ("=", vec![], vec![Int, bv(3)], "'=' expects two or more"),
            ("ite", vec![], vec![Bool, Int, Real], "Real"),
            ("+", vec![], vec![Int, Int], "Int"),
            ("+", vec![], vec![Int, Real], "Real"),
            ("-", vec![], vec![Int], "Int"),
            ("/", vec![], vec![Int, Int], "Real"),
            (
                "div",
                vec![],
                vec![Int, Real],
                "'div' expects two or more Int",
            ),
            ("divisible", vec![3], vec![Int], "Bool"),
            ("bvadd", vec![], vec![bv(8), bv(8), bv(8)], "(_ BitVec 8)"),
            (
                "bvadd",
                vec![],
                vec![bv(8), bv(4)],
                "'bvadd' expects bit-vector arguments of the same width",
            ),
            ("bvcomp", vec![], vec![bv(8), bv(8)], "(_ BitVec 1)"),
            ("bvult", vec![], vec![bv(8), bv(8)], "Bool"),
            ("concat", vec![], vec![bv(8), bv(4)], "(_ BitVec 12)"),
            ("extract", vec![7, 4], vec![bv(8)], "(_ BitVec 4)"),
            (
                "extract",
                vec![8, 4],
                vec![bv(8)],
                "'(_ extract 8 4)' needs 8 > 8 >= 4",
            ),
            (
                "extract",
                vec![7],
                vec![bv(8)],
                "'extract' expects 2 numeral indices",
            ),
            ("repeat", vec![3], vec![bv(2)], "(_ BitVec 6)"),
            ("zero_extend", vec![0], vec![bv(2)], "(_ BitVec 2)"),
            ("rotate_left", vec![9], vec![bv(2)], "(_ BitVec 2)"),
            ("bv5", vec![3], vec![], "(_ BitVec 3)"),
            ("bv2nat", vec![], vec![bv(3)], "Int"),
            ("int2bv", vec![5], vec![Int], "(_ BitVec 5)"),
            (
                "select",
                vec![],
                vec![Sort::array(Int, bv(2)), Int],
                "(_ BitVec 2)",
            ),
            (
                "store",
                vec![],
                vec![Sort::array(Int, Bool), Int, Bool],
                "(Array Int Bool)",
            ),
            (
                "store",
                vec![],
                vec![Sort::array(Int, Bool), Int, Int],
                "'store' expects",
            ),
            ("RNE", vec![], vec![], "RoundingMode"),
            ("roundTowardZero", vec![], vec![], "RoundingMode"),
            ("+zero", vec![8, 24], vec![], "(_ FloatingPoint 8 24)"),
            (
                "fp",
                vec![],
                vec![bv(1), bv(8), bv(23)],
                "(_ FloatingPoint 8 24)",
            ),
            (
                "fp.add",
                vec![],
                vec![RoundingMode, f32.clone(), f32.clone()],
                "(_ FloatingPoint 8 24)",
            ),
            (
                "fp.add",
                vec![],
                vec![f32.clone(), f32.clone()],
                "'fp.add' expects a RoundingMode",
            ),
            (
                "fp.fma",
                vec![],
                vec![RoundingMode, f32.clone(), f32.clone(), f32.clone()],
                "(_ FloatingPoint 8 24)",
            ),
            ("fp.isNaN", vec![], vec![f32.clone()], "Bool"),
            (
                "fp.lt",
                vec![],
                vec![f32.clone(), f32.clone(), f32.clone()],
                "Bool",
            ),
            ("fp.to_real", vec![], vec![f32.clone()], "Real"),
            (
                "fp.to_sbv",
                vec![16],
                vec![RoundingMode, f32.clone()],
                "(_ BitVec 16)",
            ),
            (
                "to_fp",
                vec![11, 53],
                vec![RoundingMode, f32.clone()],
                "(_ FloatingPoint 11 53)",
            ),
            ("to_fp", vec![8, 24], vec![bv(32)], "(_ FloatingPoint 8 24)"),
            (
                "to_fp",
                vec![8, 24],
                vec![bv(31)],
                "'to_fp' expects a bit-vector of width e+s",
            ),
            (
                "to_fp",
                vec![8, 24],
                vec![RoundingMode, Real],
                "(_ FloatingPoint 8 24)",
            ),
            (
                "to_fp_unsigned",
                vec![5, 11],
                vec![RoundingMode, bv(8)],
                "(_ FloatingPoint 5 11)",
            ),
            ("str.++", vec![], vec![String, String, String], "String"),
            ("str.len", vec![], vec![String], "Int"),
            ("str.len", vec![], vec![Sort::seq(Int)], "Int"),
            ("str.at", vec![], vec![String, Int], "String"),
            ("str.substr", vec![], vec![String, Int, Int], "String"),
            ("str.indexof", vec![], vec![String, String, Int], "Int"),
            (
                "str.replace",
                vec![],
                vec![String, String, Int],
                "'str.replace' expects String (or Seq), String (or Seq), String (or Seq)",
            ),
            ("str.in_re", vec![], vec![String, RegLan], "Bool"),
            ("re.loop", vec![1, 3], vec![RegLan], "RegLan"),
            ("re.union", vec![], vec![RegLan, RegLan], "RegLan"),
            ("re.allchar", vec![], vec![], "RegLan"),
            ("seq.unit", vec![], vec![Int], "(Seq Int)"),
            ("seq.nth", vec![], vec![Sort::seq(Bool), Int], "Bool"),
            ("seq.power", vec![], vec![Sort::seq(Int), Int], "(Seq Int)"),
            (
                "seq.map",
                vec![],
                vec![Sort::array(Int, Bool), Sort::seq(Int)],
                "(Seq Bool)",
            ),
            (
                "seq.++",
                vec![],
                vec![Sort::seq(Int), Sort::seq(Int)],
                "(Seq Int)",
            ),
            ("frobnicate", vec![], vec![Int], "not builtin"),
        ];
        for (name, idx, args, expected) in cases {
            check(name, &idx, &args, expected);
        }
    }

    /// Reads each root of `text` as a sort; other names become `Named` sorts with `!` before
    /// their name, so that the test sees which names went to the caller.
    fn read_all(text: &str, depth: usize) -> Vec<Result<Sort, SortReadError<()>>> {
        let tree = Tree::parse(text).unwrap();
        let mut named =
            |name: &str, params, _depth| Ok::<_, ()>(Sort::Named(format!("!{name}"), params));
        let roots = tree.roots().to_vec();
        roots
            .into_iter()
            .map(|r| read_sort(&tree, r, depth, &mut named))
            .collect()
    }

    #[test]
    fn read_sort_theory_sorts_here_other_names_by_the_caller() {
        let got = read_all(
            "Int |Real| Float32 (_ BitVec 8) (_ FloatingPoint 5 11) (Array Int (Seq Bool)) \
             (List |Int|) U |U V|",
            10,
        );
        let named = |n: &str, p: Vec<Sort>| Ok(Sort::Named(n.to_string(), p));
        let expected = vec![
            Ok(Sort::Int),
            Ok(Sort::Real),
            Ok(Sort::FloatingPoint(8, 24)),
            Ok(Sort::BitVec(8)),
            Ok(Sort::FloatingPoint(5, 11)),
            Ok(Sort::array(Sort::Int, Sort::seq(Sort::Bool))),
            named("!List", vec![Sort::Int]),
            named("!U", vec![]),
            named("!|U V|", vec![]),
        ];
        assert_eq!(got, expected);
    }

    #[test]
    fn read_sort_errors_name_the_node() {
        let tree =
            Tree::parse("(_ BitVec 0) (_ BitVec x) (_) 5 () (Array (Array Int Int) Int)").unwrap();
        let r = tree.roots().to_vec();
        let mut named = |_: &str, _, _| Err("no names here");
        let mut read = |id, depth| read_sort(&tree, id, depth, &mut named);
        assert_eq!(read(r[0], 9), Err(SortReadError::UnknownIndexed(r[0])));
        assert_eq!(read(r[1], 9), Err(SortReadError::UnknownIndexed(r[1])));
        assert_eq!(read(r[2], 9), Err(SortReadError::UnknownIndexed(r[2])));
        assert_eq!(read(r[3], 9), Err(SortReadError::NotASort(r[3])));
        assert_eq!(read(r[4], 9), Err(SortReadError::NotASort(r[4])));
        assert!(read(r[5], 3).is_ok());
        let innermost = tree.children(tree.children(r[5])[1])[1];
        assert_eq!(read(r[5], 2), Err(SortReadError::TooDeep(innermost)));
    }
}
