//! Term generation for the enabled theories: input sorts and their constants and literals
//! ([`mk_input`], [`mk_lit`]), terms from the operation table ([`mk_op`], arguments chosen by
//! the operation's [`Signature`]), uninterpreted functions and their applications, constant
//! arrays, `simplify` and `substitute`. Widths stay small so that checks stay fast.

use crate::failure::Failure;
use crate::round_state::RoundState;
use model::call::{PbCmp, RelationKind};
use model::ops::{Arity, OpSpec, Signature, OPS};
use model::{Call, Check, Op, Sort, TermId, Theory};
use rand::Rng;

/// Widest bit-vector the generator builds.
const MAX_WIDTH: u32 = 64;

/// The sorts inputs are drawn from, for the enabled theories.
pub fn input_sorts(cx: &RoundState<'_>) -> Vec<Sort> {
    let c = &cx.config;
    let mut base = vec![Sort::Bool];
    if c.has(Theory::Arith) {
        base.extend([Sort::Int, Sort::Real]);
    }
    if c.has(Theory::Bv) {
        base.extend(cx.shape.bv_widths.iter().map(|w| Sort::BitVec(*w)));
    }
    if c.has(Theory::Uf) {
        base.push(Sort::uninterpreted("U"));
    }
    let mut sorts = base.clone();
    if c.has(Theory::Array) {
        // Arrays over the scalar sorts: one indexed by the first non-Bool sort, one by Bool.
        let index = base.get(1).cloned().unwrap_or(Sort::Bool);
        let element = base.last().cloned().unwrap_or(Sort::Bool);
        sorts.push(Sort::array(index.clone(), element));
        sorts.push(Sort::array(index, Sort::Bool));
    }
    if c.has(Theory::Fp) {
        sorts.extend(
            cx.shape
                .fp_formats
                .iter()
                .map(|(e, s)| Sort::FloatingPoint(*e, *s)),
        );
        sorts.push(Sort::RoundingMode);
    }
    // Regular expressions match Strings: the regex theory brings String inputs along.
    if c.has(Theory::Strings) || c.has(Theory::Regex) {
        sorts.push(Sort::String);
    }
    if c.has(Theory::Strings) {
        sorts.push(Sort::seq(Sort::Int));
    }
    // The datatypes made this round, and an array of the first (datatypes as elements).
    sorts.extend(cx.datatype_sorts.iter().cloned());
    if let (Some(d), true) = (cx.datatype_sorts.first(), c.has(Theory::Array)) {
        sorts.push(Sort::array(Sort::Bool, d.clone()));
    }
    sorts
}

/// The operations of the enabled theories.
pub fn enabled_ops(cx: &RoundState<'_>) -> Vec<&'static OpSpec> {
    OPS.iter()
        .filter(|op| cx.config.has(op.theory) && !cx.config.left_out_ops.contains(&op.name))
        .collect()
}

/// A constant name prefix that says the sort.
fn prefix(sort: &Sort) -> &'static str {
    match sort {
        Sort::Bool => "b",
        Sort::Int => "i",
        Sort::Real => "r",
        Sort::BitVec(_) => "v",
        Sort::Array(..) => "a",
        Sort::FloatingPoint(..) => "fp",
        Sort::RoundingMode => "rm",
        Sort::String => "s",
        Sort::Seq(_) => "q",
        _ => "u",
    }
}

/// A new constant of `sort`.
pub fn mk_const(
    cx: &mut RoundState<'_>,
    sort: &Sort,
    initial: bool,
) -> Result<Option<TermId>, Failure> {
    let Some(sid) = cx.sort_id(sort)? else {
        return Ok(None);
    };
    let name = cx.fresh_name(prefix(sort));
    let t = cx.new_term(Call::Const { sort: sid, name }, initial)?;
    if let (Some(t), Sort::Bool) = (t, sort) {
        cx.bool_consts.push(t);
    }
    Ok(t)
}

/// A literal value of `sort` as `lit` accepts it, or `None` for sorts without literals.
pub fn literal_value(rng: &mut impl Rng, sort: &Sort) -> Option<String> {
    Some(match sort {
        Sort::Bool => rng.random_bool(0.5).to_string(),
        Sort::Int => match rng.random_range(0..10) {
            0 => "123456789012345678901234567890".into(),
            1 => format!("-{}", rng.random_range(1..100)),
            _ => rng.random_range(0..20).to_string(),
        },
        Sort::Real => {
            let n: i32 = rng.random_range(-20..20);
            match rng.random_range(0..3) {
                0 => n.to_string(),
                _ => format!("{n}/{}", rng.random_range(1..9)),
            }
        }
        Sort::BitVec(w) => {
            let max = if *w >= 64 { u64::MAX } else { (1u64 << w) - 1 };
            match rng.random_range(0..4) {
                0 => "0".into(),
                1 => max.to_string(),
                _ => rng.random_range(0..=max).to_string(),
            }
        }
        Sort::FloatingPoint(..) => {
            const SPECIAL: &[&str] = &[
                "nan", "+inf", "-inf", "+zero", "-zero", "1.5", "-0.25", "3", "0.1",
            ];
            SPECIAL[rng.random_range(0..SPECIAL.len())].to_string()
        }
        Sort::RoundingMode => {
            ["RNE", "RNA", "RTP", "RTN", "RTZ"][rng.random_range(0..5)].to_string()
        }
        Sort::String => {
            let len = rng.random_range(0..4);
            (0..len)
                .map(|_| (b'a' + rng.random_range(0..3u8)) as char)
                .collect()
        }
        Sort::Seq(_) => String::new(),
        _ => return None,
    })
}

/// A numeral value of `sort` for the numeral differential (`check_literal`): the edges of
/// the machine-integer constructors (32 and 64 bits, signed and unsigned), values with the top
/// bit of a bit-vector set, exact and inexact decimals, and floating-point values that are
/// floats, integers, tiny or huge; `None` for sorts without numerals.
pub fn numeral_value(rng: &mut impl Rng, sort: &Sort) -> Option<String> {
    const EDGES: &[&str] = &[
        "0",
        "1",
        "-1",
        "2147483647",
        "2147483648",
        "-2147483648",
        "-2147483649",
        "4294967295",
        "4294967296",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775808",
        "-9223372036854775809",
        "18446744073709551615",
        "18446744073709551616",
        "340282366920938463463374607431768211456",
    ];
    let edge = |rng: &mut dyn rand::RngCore| EDGES[rng.random_range(0..EDGES.len())].to_string();
    Some(match sort {
        Sort::Int => match rng.random_range(0..4) {
            0 => rng.random_range(-1000..1000i64).to_string(),
            _ => edge(rng),
        },
        Sort::Real => match rng.random_range(0..4) {
            0 => edge(rng),
            1 => format!("{}/{}", edge(rng), rng.random_range(1..2000u32)),
            2 => format!(
                "{}.{}",
                rng.random_range(-99..99),
                rng.random_range(0..1000u32)
            ),
            _ => format!(
                "{}/{}",
                rng.random_range(-50..50),
                rng.random_range(1..64u32)
            ),
        },
        Sort::BitVec(w) => {
            let w = (*w).min(128);
            let top = 1u128 << (w - 1);
            let max = if w == 128 {
                u128::MAX
            } else {
                (1u128 << w) - 1
            };
            match rng.random_range(0..5) {
                0 => max.to_string(),
                1 => top.to_string(),
                2 => (top - 1).to_string(),
                3 => (rng.random::<u128>() & max).to_string(),
                _ => edge(rng)
                    .parse::<u128>()
                    .map_or_else(|_| "0".to_string(), |v| (v & max).to_string()),
            }
        }
        Sort::FloatingPoint(..) => {
            const VALUES: &[&str] = &[
                "nan",
                "+inf",
                "-inf",
                "+zero",
                "-zero",
                "1",
                "-1",
                "0.5",
                "1.5",
                "-2.75",
                "0.1",
                "3",
                "7",
                "100",
                "65504",
                "1e10",
                "-1e-10",
                "5e-324",
                "2.2250738585072014e-308",
                "1.7976931348623157e308",
                "3.4028234663852886e38",
                "1.401298464324817e-45",
                "0.333333333333333314829616256247390992939472198486328125",
            ];
            VALUES[rng.random_range(0..VALUES.len())].to_string()
        }
        // Characters below 256 (`Z3_mk_lstring` writes bytes): NUL, the escape's own
        // characters, controls, DEL and the upper half.
        Sort::String => {
            const CHARS: &[char] = &[
                '\0', 'a', 'b', '\\', 'u', '{', '}', '4', '"', '\n', '\u{1f}', '\u{7f}', '\u{80}',
                '\u{ff}',
            ];
            let len = rng.random_range(0..6);
            (0..len)
                .map(|_| CHARS[rng.random_range(0..CHARS.len())])
                .collect()
        }
        _ => return None,
    })
}

/// A literal of `sort`, when the sort has literals.
pub fn mk_lit(
    cx: &mut RoundState<'_>,
    sort: &Sort,
    initial: bool,
) -> Result<Option<TermId>, Failure> {
    let Some(value) = literal_value(&mut cx.rng, sort) else {
        return Ok(None);
    };
    let Some(sid) = cx.sort_id(sort)? else {
        return Ok(None);
    };
    cx.new_term(Call::Lit { sort: sid, value }, initial)
}

/// A new input: mostly a constant, sometimes a literal.
pub fn mk_input(cx: &mut RoundState<'_>, initial: bool) -> Result<Option<TermId>, Failure> {
    let sorts = input_sorts(cx);
    let sort = sorts[cx.rng.random_range(0..sorts.len())].clone();
    if cx.rng.random_bool(0.2) {
        if let Some(t) = mk_lit(cx, &sort, initial)? {
            return Ok(Some(t));
        }
    }
    mk_const(cx, &sort, initial)
}

/// A term of a random enabled operation over terms of the pool. Returns `None` when no
/// operation found arguments in a few tries.
pub fn mk_op(cx: &mut RoundState<'_>, initial: bool) -> Result<Option<TermId>, Failure> {
    // Datatype operations are no table operations: a share of the terms once there are any.
    if !cx.datatype_sorts.is_empty() && cx.rng.random_bool(0.25) {
        if let Some(t) = mk_datatype_term(cx, initial)? {
            return Ok(Some(t));
        }
    }
    let ops = enabled_ops(cx);
    for _ in 0..12 {
        let spec = ops[cx.rng.random_range(0..ops.len())];
        // Z3 answers unknown on every formula with `str.replace_re` (4.8.12 and 5.4.1), and
        // an unknown ends the round's checks: a fifth of its share keeps it in few rounds.
        if spec.signature == Signature::ReplaceRe && cx.rng.random_bool(0.8) {
            continue;
        }
        if let Some(t) = mk_op_of(cx, spec, initial)? {
            return Ok(Some(t));
        }
    }
    Ok(None)
}

/// A term of operation `spec`, if the pool has arguments for it.
pub fn mk_op_of(
    cx: &mut RoundState<'_>,
    spec: &'static OpSpec,
    initial: bool,
) -> Result<Option<TermId>, Failure> {
    let picked = match spec.signature {
        // Ranges of longer strings are empty: mostly range over fresh one-character literals.
        Signature::ReRange if cx.rng.random_bool(0.7) => {
            let mut ends = Vec::new();
            for _ in 0..2 {
                let c = char::from(b'a' + cx.rng.random_range(0..4u8)).to_string();
                let Some(sid) = cx.sort_id(&Sort::String)? else {
                    return Ok(None);
                };
                let Some(t) = cx.new_term(
                    Call::Lit {
                        sort: sid,
                        value: c,
                    },
                    initial,
                )?
                else {
                    return Ok(None);
                };
                ends.push(t);
            }
            Some((Vec::new(), ends))
        }
        _ => pick_args(cx, spec),
    };
    let Some((indices, args)) = picked else {
        return Ok(None);
    };
    let call = Call::Op {
        op: Op(spec),
        indices,
        args,
    };
    // The generator's choice must be valid; `RoundState::run` reports it as an mbt bug otherwise.
    cx.new_term(call, initial)
}

fn n_args(cx: &mut RoundState<'_>, arity: Arity) -> usize {
    match arity {
        Arity::Fixed(k) => k,
        Arity::AtLeast(k) => k + cx.rng.random_range(0..=2),
    }
}

fn pick(cx: &mut RoundState<'_>, sort: &Sort) -> Option<TermId> {
    let p = cx.shape.p_deep;
    cx.pool.pick(sort, &mut cx.rng, p)
}

fn picks(cx: &mut RoundState<'_>, sort: &Sort, n: usize) -> Option<Vec<TermId>> {
    (0..n).map(|_| pick(cx, sort)).collect()
}

fn sort_where(cx: &mut RoundState<'_>, pred: impl Fn(&Sort) -> bool) -> Option<Sort> {
    cx.pool.pick_sort(&mut cx.rng, pred)
}

fn is_bv(s: &Sort) -> bool {
    s.bv_width().is_some()
}

fn is_fp(s: &Sort) -> bool {
    s.fp_format().is_some()
}

fn is_seq(s: &Sort) -> bool {
    matches!(s, Sort::Seq(_))
}

/// Indices and arguments for `spec` from the pool, following its signature.
pub fn pick_args(cx: &mut RoundState<'_>, spec: &OpSpec) -> Option<(Vec<u32>, Vec<TermId>)> {
    use Signature as S;
    let n = n_args(cx, spec.arity);
    let same =
        |cx: &mut RoundState<'_>, pred: &dyn Fn(&Sort) -> bool, n: usize| -> Option<Vec<TermId>> {
            let sort = sort_where(cx, pred)?;
            picks(cx, &sort, n)
        };
    let no_indices = |args: Option<Vec<TermId>>| args.map(|a| (Vec::new(), a));
    let rm_then = |cx: &mut RoundState<'_>, rest: Vec<TermId>| -> Option<Vec<TermId>> {
        let rm = pick(cx, &Sort::RoundingMode)?;
        Some(std::iter::once(rm).chain(rest).collect())
    };
    match spec.signature {
        S::Nullary(_) => Some((Vec::new(), Vec::new())),
        S::Bool => no_indices(picks(cx, &Sort::Bool, n)),
        // Equality of regular languages is language equivalence, which the independent
        // evaluator cannot decide: regexes enter formulas through `str.in_re` only.
        S::Equal => no_indices(same(cx, &|s| *s != Sort::RegLan, n)),
        S::Ite => {
            let c = pick(cx, &Sort::Bool)?;
            let branches = same(cx, &|_| true, 2)?;
            Some((Vec::new(), vec![c, branches[0], branches[1]]))
        }
        S::Arith | S::ArithCmp => no_indices(same(cx, &Sort::is_arith, n)),
        S::Int => no_indices(picks(cx, &Sort::Int, n)),
        S::Real | S::RealToInt | S::RealPred => no_indices(picks(cx, &Sort::Real, n)),
        S::IntToReal => no_indices(picks(cx, &Sort::Int, n)),
        S::Bv | S::BvCmp => no_indices(same(cx, &is_bv, n)),
        S::BvReduce | S::BvToInt | S::BvToStr => no_indices(same(cx, &is_bv, 1)),
        S::Concat => {
            let a = sort_where(cx, |s| s.bv_width().is_some_and(|w| w < MAX_WIDTH))?;
            let room = MAX_WIDTH - a.bv_width()?;
            let b = sort_where(cx, |s| s.bv_width().is_some_and(|w| w <= room))?;
            Some((Vec::new(), vec![pick(cx, &a)?, pick(cx, &b)?]))
        }
        S::Extract => {
            let s = sort_where(cx, is_bv)?;
            let w = s.bv_width()?;
            let hi = cx.rng.random_range(0..w);
            let lo = cx.rng.random_range(0..=hi);
            Some((vec![hi, lo], vec![pick(cx, &s)?]))
        }
        S::Extend => {
            let s = sort_where(cx, |s| s.bv_width().is_some_and(|w| w < MAX_WIDTH))?;
            let room = MAX_WIDTH - s.bv_width()?;
            let k = cx.rng.random_range(0..=room.min(8));
            Some((vec![k], vec![pick(cx, &s)?]))
        }
        S::Repeat => {
            let s = sort_where(cx, |s| s.bv_width().is_some_and(|w| w <= MAX_WIDTH / 2))?;
            let most = (MAX_WIDTH / s.bv_width()?).clamp(1, 4);
            let k = cx.rng.random_range(1..=most);
            Some((vec![k], vec![pick(cx, &s)?]))
        }
        S::BvBit => {
            let s = sort_where(cx, is_bv)?;
            let i = cx.rng.random_range(0..s.bv_width()?);
            Some((vec![i], vec![pick(cx, &s)?]))
        }
        S::Rotate => {
            let s = sort_where(cx, is_bv)?;
            let k = cx.rng.random_range(0..=2 * s.bv_width()?);
            Some((vec![k], vec![pick(cx, &s)?]))
        }
        S::IntToBv => {
            let w = cx.rng.random_range(1..=32);
            Some((vec![w], vec![pick(cx, &Sort::Int)?]))
        }
        S::Select | S::Store => {
            let a = sort_where(cx, |s| matches!(s, Sort::Array(..)))?;
            let Sort::Array(index, element) = &a else {
                return None;
            };
            let (index, element) = ((**index).clone(), (**element).clone());
            let mut args = vec![pick(cx, &a)?, pick(cx, &index)?];
            if spec.signature == S::Store {
                args.push(pick(cx, &element)?);
            }
            Some((Vec::new(), args))
        }
        // fp.rem's bit-blasting grows with the exponent range and ignores the resource
        // limit: on Float32 one takes a second before any search, and the 12 round
        // timeouts of 2000 rounds (a third of their CPU time) all went away without it.
        // Smaller formats exercise it without the hang.
        S::FpBinary if spec.name == "fp.rem" => {
            no_indices(same(cx, &|s| s.fp_format().is_some_and(|(e, _)| e <= 5), n))
        }
        S::FpUnary | S::FpBinary | S::FpCmp => no_indices(same(cx, &is_fp, n)),
        S::FpRounded => {
            let floats = same(cx, &is_fp, n - 1)?;
            no_indices(rm_then(cx, floats))
        }
        S::FpToBv => {
            let w = cx.rng.random_range(1..=32);
            let f = same(cx, &is_fp, 1)?;
            Some((vec![w], rm_then(cx, f)?))
        }
        S::FpToReal | S::FpToIeeeBv => no_indices(same(cx, &is_fp, 1)),
        S::ToFp | S::ToFpUnsigned => {
            let formats = cx.shape.fp_formats.clone();
            let (e, s) = formats[cx.rng.random_range(0..formats.len())];
            let source = if spec.signature == S::ToFp {
                same(
                    cx,
                    &|s| matches!(s, Sort::Real | Sort::FloatingPoint(..) | Sort::BitVec(_)),
                    1,
                )?
            } else {
                same(cx, &is_bv, 1)?
            };
            Some((vec![e, s], rm_then(cx, source)?))
        }
        S::Str | S::StrCmp | S::StrLen => no_indices(picks(cx, &Sort::String, n)),
        S::StrAt => Some((
            Vec::new(),
            vec![pick(cx, &Sort::String)?, pick(cx, &Sort::Int)?],
        )),
        S::StrSubstr => Some((
            Vec::new(),
            vec![
                pick(cx, &Sort::String)?,
                pick(cx, &Sort::Int)?,
                pick(cx, &Sort::Int)?,
            ],
        )),
        S::StrIndexOf => Some((
            Vec::new(),
            vec![
                pick(cx, &Sort::String)?,
                pick(cx, &Sort::String)?,
                pick(cx, &Sort::Int)?,
            ],
        )),
        S::IntToStr => no_indices(picks(cx, &Sort::Int, 1)),
        S::SeqUnit => no_indices(same(
            cx,
            &|s| matches!(s, Sort::Int | Sort::Bool | Sort::BitVec(_)),
            1,
        )),
        S::SeqConcat | S::SeqCmp | S::SeqLen => no_indices(same(cx, &is_seq, n)),
        S::SeqAt | S::SeqNth => {
            let s = sort_where(cx, is_seq)?;
            Some((Vec::new(), vec![pick(cx, &s)?, pick(cx, &Sort::Int)?]))
        }
        S::ToRe => no_indices(picks(cx, &Sort::String, 1)),
        S::InRe => Some((
            Vec::new(),
            vec![pick(cx, &Sort::String)?, pick(cx, &Sort::RegLan)?],
        )),
        S::ReRange => no_indices(picks(cx, &Sort::String, 2)),
        S::ReplaceRe => Some((
            Vec::new(),
            vec![
                pick(cx, &Sort::String)?,
                pick(cx, &Sort::RegLan)?,
                pick(cx, &Sort::String)?,
            ],
        )),
        S::Re => {
            // Small counts: Z3 unrolls loops. Mostly lo <= hi, sometimes the empty loops
            // (hi < lo, and hi = 0, which SMT-LIB reads as a bound, Z3's API as none).
            let indices = match spec.indices {
                0 => Vec::new(),
                1 => vec![cx.rng.random_range(0..=3)],
                _ => {
                    let lo: u32 = cx.rng.random_range(0..=3);
                    let hi = match cx.rng.random_range(0..8) {
                        0 => 0,
                        1 => lo.saturating_sub(1),
                        _ => lo + cx.rng.random_range(0..=2),
                    };
                    vec![lo, hi]
                }
            };
            Some((indices, picks(cx, &Sort::RegLan, n)?))
        }
    }
}

/// Declares a group of datatypes (one, or two mutually recursive ones; parametric in one
/// draw of three, which Z3 4.8.12 declares only through its parser) with fields of the
/// round's input sorts, of the group's datatypes and of the parameter, then makes a sort of
/// each (a parametric one at an input sort) and a constant of it.
pub fn mk_datatypes(cx: &mut RoundState<'_>) -> Result<bool, Failure> {
    use model::datatype::{ConstructorDecl, DatatypeDecl, DeclPath, FieldDecl, FieldSort};
    let choices: Vec<Sort> = input_sorts(cx)
        .into_iter()
        .filter(|s| *s != Sort::RegLan)
        .collect();
    let n = if cx.rng.random_bool(0.3) { 2 } else { 1 };
    let parametric = cx.rng.random_bool(0.35);
    let mut path = if parametric || cx.rng.random_bool(0.3) {
        DeclPath::Parser
    } else {
        DeclPath::Api
    };
    let params = if parametric {
        vec![cx.fresh_name("T")]
    } else {
        Vec::new()
    };
    let names: Vec<String> = (0..n).map(|_| cx.fresh_name("D")).collect();
    // One datatype in three without parameters is made by a maker of a special shape
    // (enumeration, tuple, list, the singular `Z3_mk_datatype`).
    let shape = match n == 1 && !parametric {
        true => special_shape(cx, &names[0], &choices)?,
        false => None,
    };
    let mut datatypes = Vec::new();
    let shaped = shape.is_some();
    if let Some((shape_path, decl)) = shape {
        path = shape_path;
        datatypes.push(decl);
    }
    for name in names.iter().filter(|_| !shaped) {
        let mut constructors = Vec::new();
        for c in 0..cx.rng.random_range(1..=3) {
            let mut fields = Vec::new();
            for _ in 0..cx.rng.random_range(0..=2) {
                let roll = cx.rng.random_range(0..10);
                // The first constructor refers to no datatype of the group, so that every
                // datatype has a value (Z3 refuses a group that is not well-founded).
                let sort = if c > 0 && roll < 4 {
                    FieldSort::Datatype(cx.rng.random_range(0..n as u32))
                } else if parametric && roll < 6 {
                    FieldSort::Param(0)
                } else {
                    let s = choices[cx.rng.random_range(0..choices.len())].clone();
                    match cx.sort_id(&s)? {
                        Some(id) => FieldSort::Sort(id),
                        None => continue,
                    }
                };
                fields.push(FieldDecl {
                    name: cx.fresh_name("sel"),
                    sort,
                });
            }
            constructors.push(ConstructorDecl {
                name: cx.fresh_name("C"),
                fields,
            });
        }
        datatypes.push(DatatypeDecl {
            name: name.clone(),
            constructors,
        });
    }
    let reply = cx.run(Call::DeclareDatatypes {
        path,
        params: params.clone(),
        datatypes,
    })?;
    if matches!(reply, crate::round_state::Reply::Refused(_)) {
        return Ok(false);
    }
    cx.datatype_groups += 1;
    for name in names {
        let args = if parametric {
            // Scalar sorts and earlier datatypes: instances nest, but stay small.
            let simple: Vec<&Sort> = choices
                .iter()
                .filter(|s| !matches!(s, Sort::Array(..) | Sort::Seq(_)))
                .collect();
            vec![simple[cx.rng.random_range(0..simple.len())].clone()]
        } else {
            Vec::new()
        };
        let sort = Sort::Named(name, args);
        if mk_const(cx, &sort, false)?.is_some() {
            cx.datatype_sorts.push(sort.clone());
        }
        // A tuple's reads, judged by its declaration (cheap, and the read-back action's
        // uniform pick of a sort and a reader seldom meets a tuple).
        if path == DeclPath::Tuple {
            if let Some(id) = cx.sort_id(&sort)? {
                for reader in [
                    "Z3_get_tuple_sort_mk_decl",
                    "Z3_get_tuple_sort_num_fields",
                    "Z3_get_tuple_sort_field_decl",
                    "Z3_get_sort_name",
                ] {
                    cx.run(Call::ReadSort {
                        function: reader.into(),
                        sort: id,
                    })?;
                }
            }
        }
    }
    Ok(true)
}

/// Quantifier `q` made again through one of Z3's other makers that apply to it (or its
/// lambda, `quant_rebuild`), which must be `q` itself; the term joins the pool.
pub fn quant_rebuild(cx: &mut RoundState<'_>, q: TermId) -> Result<Option<TermId>, Failure> {
    let makers: Vec<&str> = match &cx.sut.state().term(q).map(|i| &i.origin) {
        Ok(model::state::Origin::Quantifier(shape)) => model::quant::MAKERS
            .iter()
            .filter(|m| m.applies(shape).is_ok())
            .map(|m| m.name)
            .collect(),
        _ => Vec::new(),
    };
    if makers.is_empty() {
        return Ok(None);
    }
    let maker = makers[cx.rng.random_range(0..makers.len())];
    cx.new_term(
        Call::QuantRebuild {
            function: maker.into(),
            term: q,
        },
        false,
    )
}

/// A declaration of one datatype named `name` in the shape of one of Z3's special makers
/// (`declare_datatypes enum|tuple|list|single`), in one draw of three; fields of the round's
/// input sorts `choices`. A list takes the names Z3 gives (once a trace: names are unique).
fn special_shape(
    cx: &mut RoundState<'_>,
    name: &str,
    choices: &[Sort],
) -> Result<Option<(model::datatype::DeclPath, model::datatype::DatatypeDecl)>, Failure> {
    use model::datatype::{
        ConstructorDecl, DatatypeDecl, DeclPath, FieldDecl, FieldSort, LIST_NAMES,
    };
    let roll = cx.rng.random_range(0..12);
    if roll >= 4 {
        return Ok(None);
    }
    let field_of = |cx: &mut RoundState<'_>, name: String| -> Result<Option<FieldDecl>, Failure> {
        let s = choices[cx.rng.random_range(0..choices.len())].clone();
        Ok(cx.sort_id(&s)?.map(|id| FieldDecl {
            name,
            sort: FieldSort::Sort(id),
        }))
    };
    let ctor = |name: String, fields: Vec<FieldDecl>| ConstructorDecl { name, fields };
    let (path, constructors) = match roll {
        0 => {
            let n = cx.rng.random_range(1..=4);
            let ctors = (0..n).map(|_| ctor(cx.fresh_name("E"), vec![])).collect();
            (DeclPath::Enumeration, ctors)
        }
        1 => {
            let mut fields = Vec::new();
            for _ in 0..cx.rng.random_range(1..=3) {
                let field = cx.fresh_name("sel");
                fields.extend(field_of(cx, field)?);
            }
            (DeclPath::Tuple, vec![ctor(name.to_string(), fields)])
        }
        2 => {
            let state = cx.sut.state();
            if LIST_NAMES
                .iter()
                .any(|n| state.datatypes.names.contains(*n))
            {
                return Ok(None);
            }
            let Some(head) = field_of(cx, LIST_NAMES[2].into())? else {
                return Ok(None);
            };
            let tail = FieldDecl {
                name: LIST_NAMES[3].into(),
                sort: FieldSort::Datatype(0),
            };
            let ctors = vec![
                ctor(LIST_NAMES[0].into(), vec![]),
                ctor(LIST_NAMES[1].into(), vec![head, tail]),
            ];
            (DeclPath::List, ctors)
        }
        _ => {
            // The first constructor has no field of the datatype (it must have a value).
            let mut ctors = Vec::new();
            for c in 0..cx.rng.random_range(1..=3) {
                let mut fields = Vec::new();
                for _ in 0..cx.rng.random_range(0..=2) {
                    let field = cx.fresh_name("sel");
                    if c > 0 && cx.rng.random_bool(0.4) {
                        fields.push(FieldDecl {
                            name: field,
                            sort: FieldSort::Datatype(0),
                        });
                    } else {
                        fields.extend(field_of(cx, field)?);
                    }
                }
                ctors.push(ctor(cx.fresh_name("C"), fields));
            }
            (DeclPath::Single, ctors)
        }
    };
    Ok(Some((
        path,
        DatatypeDecl {
            name: name.to_string(),
            constructors,
        },
    )))
}

/// A term of the datatype operations over a datatype sort of the round: a constructor
/// application, a tester, an accessor or a field update, with arguments from the pool (or
/// fresh constants where the pool has none of a field's sort).
pub fn mk_datatype_term(cx: &mut RoundState<'_>, initial: bool) -> Result<Option<TermId>, Failure> {
    if cx.datatype_sorts.is_empty() {
        return Ok(None);
    }
    let sort = cx.datatype_sorts[cx.rng.random_range(0..cx.datatype_sorts.len())].clone();
    let Some((datatype, params)) = cx
        .sut
        .state()
        .datatypes
        .of(&sort)
        .map(|(_, d, p)| (d.clone(), p.to_vec()))
    else {
        return Ok(None);
    };
    let Some(sort_id) = cx.sort_id(&sort)? else {
        return Ok(None);
    };
    let arg = |cx: &mut RoundState<'_>, s: &Sort| -> Result<Option<TermId>, Failure> {
        match pick(cx, s) {
            Some(t) => Ok(Some(t)),
            None => mk_const(cx, s, initial),
        }
    };
    let n_ctors = datatype.constructors.len();
    let c = cx.rng.random_range(0..n_ctors);
    let ctor = datatype.constructors[c].0.clone();
    let fields: Vec<(usize, usize)> = (0..n_ctors)
        .flat_map(|c| (0..datatype.constructors[c].1.len()).map(move |k| (c, k)))
        .collect();
    let call = match cx.rng.random_range(0..4) {
        0 => {
            let mut args = Vec::new();
            for s in datatype.field_sorts(c, &params) {
                match arg(cx, &s)? {
                    Some(t) => args.push(t),
                    None => return Ok(None),
                }
            }
            Call::DtConstruct {
                sort: sort_id,
                ctor,
                args,
            }
        }
        roll => {
            let Some(term) = arg(cx, &sort)? else {
                return Ok(None);
            };
            match (roll, fields.is_empty()) {
                (1, _) | (_, true) => Call::DtTest { ctor, term },
                (2, false) => {
                    let (c, k) = fields[cx.rng.random_range(0..fields.len())];
                    Call::DtSelect {
                        field: datatype.constructors[c].1[k].0.clone(),
                        term,
                    }
                }
                _ => {
                    let (c, k) = fields[cx.rng.random_range(0..fields.len())];
                    let field_sort = datatype.field_sorts(c, &params).swap_remove(k);
                    let Some(value) = arg(cx, &field_sort)? else {
                        return Ok(None);
                    };
                    Call::DtUpdate {
                        field: datatype.constructors[c].1[k].0.clone(),
                        term,
                        value,
                    }
                }
            }
        }
    };
    cx.new_term(call, initial)
}

/// A new uninterpreted function over sorts of the pool.
pub fn mk_fun(cx: &mut RoundState<'_>) -> Result<bool, Failure> {
    let arity = cx.rng.random_range(1..=3);
    let mut domain = Vec::new();
    for _ in 0..arity {
        let Some(s) = sort_where(cx, |s| !matches!(s, Sort::Array(..) | Sort::Seq(_))) else {
            return Ok(false);
        };
        domain.push(s);
    }
    let Some(range) = sort_where(cx, |s| !matches!(s, Sort::Array(..) | Sort::Seq(_))) else {
        return Ok(false);
    };
    let mut domain_ids = Vec::new();
    for s in &domain {
        let Some(id) = cx.sort_id(s)? else {
            return Ok(false);
        };
        domain_ids.push(id);
    }
    let Some(range_id) = cx.sort_id(&range)? else {
        return Ok(false);
    };
    let name = cx.fresh_name("f");
    let reply = cx.run(Call::Fun {
        name,
        domain: domain_ids,
        range: range_id,
    })?;
    if let Some(model::Ret::Id(model::AnyId::Func(f))) = reply.ret() {
        cx.funcs.push((*f, domain, range));
        return Ok(true);
    }
    Ok(false)
}

/// An application of a function to terms of the pool.
pub fn mk_apply(cx: &mut RoundState<'_>, initial: bool) -> Result<Option<TermId>, Failure> {
    let live: Vec<usize> = (0..cx.funcs.len())
        .filter(|&i| cx.sut.state().funcs.contains_key(&cx.funcs[i].0))
        .collect();
    if live.is_empty() {
        return Ok(None);
    }
    let (func, domain, _) = cx.funcs[live[cx.rng.random_range(0..live.len())]].clone();
    let mut args = Vec::new();
    for s in &domain {
        match pick(cx, s) {
            Some(t) => args.push(t),
            None => return Ok(None),
        }
    }
    cx.new_term(Call::Apply { func, args }, initial)
}

/// A pseudo-Boolean constraint (`pb_le`, `pb_ge`, `pb_eq`) over one to four Bool terms of
/// the pool, with small signed coefficients and bound; a quarter of the time a cardinality
/// constraint (`at_most`, `at_least`) with a bound up to the number of terms.
pub fn mk_pb(cx: &mut RoundState<'_>) -> Result<Option<TermId>, Failure> {
    let n = cx.rng.random_range(1..=4);
    let Some(bools) = picks(cx, &Sort::Bool, n) else {
        return Ok(None);
    };
    if cx.rng.random_bool(0.25) {
        let card = Call::Card {
            at_least: cx.rng.random_bool(0.5),
            bound: cx.rng.random_range(0..=n as u32),
            terms: bools,
        };
        return cx.new_term(card, false);
    }
    let cmp = [PbCmp::Le, PbCmp::Ge, PbCmp::Eq][cx.rng.random_range(0..3)];
    let terms = bools
        .into_iter()
        .map(|t| (cx.rng.random_range(-3..=3), t))
        .collect();
    let bound = cx.rng.random_range(-2..=4);
    cx.new_term(Call::Pb { cmp, bound, terms }, false)
}

/// A union (`set_union`) of one to three sets of the pool, arrays to Bool of one sort.
pub fn mk_set_union(cx: &mut RoundState<'_>) -> Result<Option<TermId>, Failure> {
    let Some(set) = sort_where(cx, |s| matches!(s, Sort::Array(_, e) if **e == Sort::Bool)) else {
        return Ok(None);
    };
    let n = cx.rng.random_range(1..=3);
    let Some(sets) = picks(cx, &set, n) else {
        return Ok(None);
    };
    cx.new_term(Call::SetUnion(sets), false)
}

/// A set operation other than the union on sets of the pool: an intersection of one to
/// three sets, a difference, a complement, a subset test, an element added, removed or
/// tested, or the empty or full set of an element sort of the pool's sets.
pub fn mk_set_op(cx: &mut RoundState<'_>) -> Result<Option<TermId>, Failure> {
    let Some(set) = sort_where(cx, |s| matches!(s, Sort::Array(_, e) if **e == Sort::Bool)) else {
        return Ok(None);
    };
    let Sort::Array(element_sort, _) = &set else {
        return Ok(None);
    };
    let element_sort = (**element_sort).clone();
    let call = match cx.rng.random_range(0..9) {
        0 => {
            let n = cx.rng.random_range(1..=3);
            picks(cx, &set, n).map(Call::SetIntersect)
        }
        1 => picks(cx, &set, 2).map(|p| Call::SetDifference(p[0], p[1])),
        2 => pick(cx, &set).map(Call::SetComplement),
        3 => picks(cx, &set, 2).map(|p| Call::SetSubset(p[0], p[1])),
        k @ 4..=6 => match (pick(cx, &set), pick(cx, &element_sort)) {
            (Some(s), Some(e)) => Some(match k {
                4 => Call::SetAdd(s, e),
                5 => Call::SetDel(s, e),
                _ => Call::SetMember(e, s),
            }),
            _ => None,
        },
        k => cx.sort_id(&element_sort)?.map(|sid| match k {
            7 => Call::EmptySet(sid),
            _ => Call::FullSet(sid),
        }),
    };
    match call {
        Some(call) => cx.new_term(call, false),
        None => Ok(None),
    }
}

/// An array read or write through the n-ary functions (`select_n`, `store_n`, one index),
/// an array's default value (`array_default`), the extensionality witness of two arrays
/// (`array_ext`), the array of a unary function (`as_array`, with its three reads) or a
/// function mapped over arrays (`array_map`), on arrays of the pool.
pub fn mk_array_op(cx: &mut RoundState<'_>) -> Result<Option<TermId>, Failure> {
    let Some(array) = sort_where(cx, |s| matches!(s, Sort::Array(..))) else {
        return Ok(None);
    };
    let Sort::Array(index, element) = &array else {
        return Ok(None);
    };
    let (index, element) = ((**index).clone(), (**element).clone());
    let Some(a) = pick(cx, &array) else {
        return Ok(None);
    };
    let live: Vec<(model::FuncId, Vec<Sort>)> = cx
        .funcs
        .iter()
        .filter(|(f, _, _)| cx.sut.state().funcs.contains_key(f))
        .map(|(f, domain, _)| (*f, domain.clone()))
        .collect();
    let call = match cx.rng.random_range(0..6) {
        // The extensionality witness of two arrays of the sort.
        3 => pick(cx, &array).map(|b| Call::ArrayExt(a, b)),
        // The array of a unary function (a new one where the round has none from the
        // index sort), and its reads.
        4 => {
            let unary: Vec<model::FuncId> = live
                .iter()
                .filter(|(_, d)| d.len() == 1)
                .map(|(f, _)| *f)
                .collect();
            let f = match unary.is_empty() {
                true => match unary_fun(cx, &index, &element)? {
                    Some(f) => f,
                    None => return Ok(None),
                },
                false => unary[cx.rng.random_range(0..unary.len())],
            };
            let Some(t) = cx.new_term(Call::AsArray(f), false)? else {
                return Ok(None);
            };
            for reader in [
                "Z3_is_as_array",
                "Z3_get_as_array_func_decl",
                "Z3_get_decl_func_decl_parameter",
            ] {
                cx.run(Call::Read {
                    function: reader.into(),
                    term: t,
                })?;
            }
            return Ok(Some(t));
        }
        // A function mapped over arrays of the index sort, one per argument: of the round's
        // functions one whose arguments the pool's arrays give, else a new one from the
        // element sort over the array picked.
        5 => {
            let mut call = None;
            if !live.is_empty() {
                let (func, domain) = live[cx.rng.random_range(0..live.len())].clone();
                let arrays: Option<Vec<TermId>> = domain
                    .into_iter()
                    .map(|d| pick(cx, &Sort::array(index.clone(), d)))
                    .collect();
                call = arrays.map(|arrays| Call::ArrayMap { func, arrays });
            }
            match call {
                Some(call) => Some(call),
                None => unary_fun(cx, &element, &element)?.map(|func| Call::ArrayMap {
                    func,
                    arrays: vec![a],
                }),
            }
        }
        0 => pick(cx, &index).map(|i| Call::SelectN {
            array: a,
            indices: vec![i],
        }),
        1 => match (pick(cx, &index), pick(cx, &element)) {
            (Some(i), Some(value)) => Some(Call::StoreN {
                array: a,
                indices: vec![i],
                value,
            }),
            _ => None,
        },
        _ => Some(Call::ArrayDefault(a)),
    };
    match call {
        Some(call) => cx.new_term(call, false),
        None => Ok(None),
    }
}

/// A new function from `domain` to `range` (`fun`), for the array operations over
/// functions; `None` where a sort is an array or a sequence (as `mk_fun` keeps them out).
fn unary_fun(
    cx: &mut RoundState<'_>,
    domain: &Sort,
    range: &Sort,
) -> Result<Option<model::FuncId>, Failure> {
    if [domain, range]
        .iter()
        .any(|s| matches!(s, Sort::Array(..) | Sort::Seq(_)))
    {
        return Ok(None);
    }
    let (Some(d), Some(r)) = (cx.sort_id(domain)?, cx.sort_id(range)?) else {
        return Ok(None);
    };
    let name = cx.fresh_name("f");
    let reply = cx.run(Call::Fun {
        name,
        domain: vec![d],
        range: r,
    })?;
    match reply.ret() {
        Some(model::Ret::Id(model::AnyId::Func(f))) => {
            let f = *f;
            cx.funcs.push((f, vec![domain.clone()], range.clone()));
            Ok(Some(f))
        }
        _ => Ok(None),
    }
}

/// A recursive function over Int (and, half the time, a second parameter of a sort of the
/// pool) that recurs on its first parameter down to 0: `f(n, p) = ite(n <= 0, base, step)`,
/// with `base` a closed term of the range and `step` built by the term generators over the
/// parameters, the recursive call `f(n - 1, p)` and a few closed terms (as quantifier bodies
/// are). Applied once or twice to a small literal or an Int term of the pool; the
/// applications join the pool. Z3 unfolds such definitions under the solver's resource
/// limit; the independent evaluator unfolds them up to its bound.
pub fn mk_rec_fun(cx: &mut RoundState<'_>) -> Result<Option<TermId>, Failure> {
    let Some(range) = sort_where(cx, |s| !matches!(s, Sort::Array(..) | Sort::Seq(_))) else {
        return Ok(None);
    };
    let Some(base) = pick(cx, &range) else {
        return Ok(None);
    };
    let second = if cx.rng.random_bool(0.5) {
        sort_where(cx, |s| !matches!(s, Sort::Array(..) | Sort::Seq(_)))
    } else {
        None
    };
    let mut domain = vec![Sort::Int];
    domain.extend(second.clone());
    let (Some(int), Some(range_id)) = (cx.sort_id(&Sort::Int)?, cx.sort_id(&range)?) else {
        return Ok(None);
    };
    let mut domain_ids = vec![int];
    if let Some(s) = &second {
        let Some(id) = cx.sort_id(s)? else {
            return Ok(None);
        };
        domain_ids.push(id);
    }
    let name = cx.fresh_name("rec");
    let reply = cx.run(Call::RecFun {
        name,
        domain: domain_ids.clone(),
        range: range_id,
    })?;
    let Some(model::Ret::Id(model::AnyId::Func(f))) = reply.ret().cloned() else {
        return Ok(None);
    };
    let mut vars = Vec::new();
    for (sort, sid) in domain.iter().zip(&domain_ids) {
        let name = cx.fresh_name("p");
        match cx.run(Call::Var { sort: *sid, name })?.term() {
            Some(v) => vars.push((v, sort.clone())),
            None => return Ok(None),
        }
    }
    let lit = |cx: &mut RoundState<'_>, value: &str| {
        cx.run(Call::Lit {
            sort: int,
            value: value.into(),
        })
        .map(|r| r.term())
    };
    let op = |name: &str| Op::lookup(name).expect("the operation is in the table");
    let (Some(zero), Some(one)) = (lit(cx, "0")?, lit(cx, "1")?) else {
        return Ok(None);
    };
    let n = vars[0].0;
    let term = |cx: &mut RoundState<'_>, name: &str, args: Vec<TermId>| {
        cx.run(Call::Op {
            op: op(name),
            indices: vec![],
            args,
        })
        .map(|r| r.term())
    };
    let (Some(stop), Some(smaller)) =
        (term(cx, "<=", vec![n, zero])?, term(cx, "-", vec![n, one])?)
    else {
        return Ok(None);
    };
    let mut rec_args = vec![smaller];
    rec_args.extend(vars.iter().skip(1).map(|(v, _)| *v));
    let Some(recursive) = cx
        .run(Call::Apply {
            func: f,
            args: rec_args,
        })?
        .term()
    else {
        return Ok(None);
    };
    // The step's pool: the parameters, the recursive call and a few closed terms.
    let mut body_pool = crate::pool::Pool::default();
    for sort in domain.iter().chain([&range, &Sort::Bool]) {
        if let Some(t) = cx.pool.pick(sort, &mut cx.rng, 0.5) {
            if !body_pool.contains(t) {
                body_pool.add(t, sort.clone(), true);
            }
        }
    }
    for (v, sort) in &vars {
        if !body_pool.contains(*v) {
            body_pool.add(*v, sort.clone(), false);
        }
    }
    body_pool.add(recursive, range.clone(), false);
    let round_pool = std::mem::replace(&mut cx.pool, body_pool);
    let mut built = Ok(());
    for _ in 0..cx.rng.random_range(1..=4) {
        if let Err(e) = mk_op(cx, false) {
            built = Err(e);
            break;
        }
    }
    let step_pool = std::mem::replace(&mut cx.pool, round_pool);
    built?;
    let state = cx.sut.state();
    let steps: Vec<TermId> = step_pool
        .all()
        .into_iter()
        .filter(|t| {
            state
                .term(*t)
                .is_ok_and(|i| i.sort == range && i.free_vars.contains(&n))
        })
        .collect();
    let step = if steps.is_empty() {
        recursive
    } else {
        steps[cx.rng.random_range(0..steps.len())]
    };
    let Some(body) = term(cx, "ite", vec![stop, base, step])? else {
        return Ok(None);
    };
    cx.run(Call::RecDef {
        func: f,
        vars: vars.iter().map(|(v, _)| *v).collect(),
        body,
    })?;
    let mut made = None;
    for _ in 0..cx.rng.random_range(1..=2) {
        let first = match cx.rng.random_range(0..3) {
            0 => pick(cx, &Sort::Int),
            _ => {
                let k = cx.rng.random_range(0..=6).to_string();
                cx.new_term(
                    Call::Lit {
                        sort: int,
                        value: k,
                    },
                    false,
                )?
            }
        };
        let Some(first) = first else { continue };
        let mut args = vec![first];
        if let Some(s) = &second {
            match pick(cx, s) {
                Some(t) => args.push(t),
                None => continue,
            }
        }
        made = cx.new_term(Call::Apply { func: f, args }, false)?.or(made);
    }
    Ok(made)
}

/// A special relation over a sort of the pool: an order of a random kind and index (three
/// times in four), or the transitive closure of a binary relation (an uninterpreted function
/// of the round, else a fresh one, applied once so that the closure has a graph), applied to
/// one to three pairs of terms of the pool; the applications join the pool and the relation
/// `RoundState::relations`, with its arguments, for `check_relation`.
pub fn mk_relation(cx: &mut RoundState<'_>) -> Result<Option<TermId>, Failure> {
    let Some(sort) = sort_where(cx, |s| {
        !matches!(
            s,
            Sort::Array(..) | Sort::Seq(_) | Sort::FloatingPoint(..) | Sort::RoundingMode
        )
    }) else {
        return Ok(None);
    };
    let Some(sid) = cx.sort_id(&sort)? else {
        return Ok(None);
    };
    let relation = if cx.rng.random_bool(0.75) {
        let kind = RelationKind::ALL[cx.rng.random_range(0..RelationKind::ALL.len())];
        let index = cx.rng.random_range(0..=1);
        cx.run(Call::Relation {
            kind,
            sort: sid,
            index,
        })?
        .ret()
        .cloned()
    } else {
        let binary = cx
            .funcs
            .iter()
            .find(|(f, domain, range)| {
                *range == Sort::Bool
                    && domain.len() == 2
                    && domain.iter().all(|d| *d == sort)
                    && cx.sut.state().funcs.contains_key(f)
            })
            .map(|(f, _, _)| *f);
        let base = match binary {
            Some(f) => f,
            None => {
                let Some(bool_id) = cx.sort_id(&Sort::Bool)? else {
                    return Ok(None);
                };
                let name = cx.fresh_name("E");
                let reply = cx.run(Call::Fun {
                    name,
                    domain: vec![sid, sid],
                    range: bool_id,
                })?;
                let Some(model::Ret::Id(model::AnyId::Func(f))) = reply.ret().cloned() else {
                    return Ok(None);
                };
                cx.funcs
                    .push((f, vec![sort.clone(), sort.clone()], Sort::Bool));
                f
            }
        };
        if let (Some(a), Some(b)) = (pick(cx, &sort), pick(cx, &sort)) {
            cx.new_term(
                Call::Apply {
                    func: base,
                    args: vec![a, b],
                },
                false,
            )?;
        }
        cx.run(Call::TransitiveClosure(base))?.ret().cloned()
    };
    let Some(model::Ret::Id(model::AnyId::Func(f))) = relation else {
        return Ok(None);
    };
    let mut applied = Vec::new();
    let mut made = None;
    for _ in 0..cx.rng.random_range(1..=3) {
        let (Some(a), Some(b)) = (pick(cx, &sort), pick(cx, &sort)) else {
            break;
        };
        if let Some(t) = cx.new_term(
            Call::Apply {
                func: f,
                args: vec![a, b],
            },
            false,
        )? {
            made = Some(t);
            for arg in [a, b] {
                if !applied.contains(&arg) {
                    applied.push(arg);
                }
            }
        }
    }
    cx.relations.push((f, applied));
    Ok(made)
}

/// A model built by hand (`model_new`): one to three constants of the pool interpreted by
/// fresh literals of their sorts (`model_const`), then a few terms of the pool evaluated under
/// it (`model_eval`, completion half the time), each value compared with the independent
/// evaluator's (`check_eval`); the model is released. Returns whether it was made.
pub fn mk_hand_model(cx: &mut RoundState<'_>) -> Result<bool, Failure> {
    let state = cx.sut.state();
    let constants: Vec<(TermId, Sort)> = cx
        .pool
        .all()
        .into_iter()
        .filter_map(|t| {
            let info = state.term(t).ok()?;
            info.is_const.then(|| (t, info.sort.clone()))
        })
        .collect();
    if constants.is_empty() {
        return Ok(false);
    }
    let Some(m) = cx.run(Call::NewModel)?.model() else {
        return Ok(false);
    };
    for _ in 0..cx.rng.random_range(1..=3) {
        let (constant, sort) = constants[cx.rng.random_range(0..constants.len())].clone();
        if let Some(value) = mk_lit(cx, &sort, false)? {
            cx.run(Call::ModelConst {
                model: m,
                constant,
                value,
            })?;
        }
    }
    let applied = if !cx.funcs.is_empty() && cx.rng.random_bool(0.5) {
        hand_func(cx, m)?
    } else {
        Vec::new()
    };
    let terms = cx.pool.all();
    let mut evaluated: Vec<(TermId, bool)> = Vec::new();
    for _ in 0..cx.rng.random_range(2..=4) {
        let term = terms[cx.rng.random_range(0..terms.len())];
        evaluated.push((term, cx.rng.random_bool(0.5)));
    }
    evaluated.extend(applied.into_iter().map(|t| (t, false)));
    for (term, completion) in evaluated {
        let reply = cx.run(Call::ModelEval {
            model: m,
            term,
            completion,
        })?;
        if cx.config.independent && matches!(reply.ret(), Some(model::Ret::Value(_))) {
            cx.run(Call::Check(Check::Eval {
                model: m,
                term,
                completion,
            }))?;
        }
    }
    let readers = model::introspect::MODEL_READERS;
    let function = readers[cx.rng.random_range(0..readers.len())];
    cx.run(Call::ModelRead {
        function: function.into(),
        model: m,
    })?;
    cx.run(Call::Release(model::AnyId::Model(m)))?;
    Ok(true)
}

/// A function of the round interpreted in hand model `m` by a table of one to three
/// entries of literals, an entry's arguments now and then written again with another value,
/// and an else value (`model_func`); returns its applications to the first entry's
/// arguments and to other literals (the else value), for `model_eval`.
fn hand_func(cx: &mut RoundState<'_>, m: model::ModelId) -> Result<Vec<TermId>, Failure> {
    let (func, domain, range) = cx.funcs[cx.rng.random_range(0..cx.funcs.len())].clone();
    let Some(default) = mk_lit(cx, &range, false)? else {
        return Ok(Vec::new());
    };
    let mut rows: Vec<Vec<TermId>> = Vec::new();
    for _ in 0..cx.rng.random_range(1..=3) {
        let mut args = match rows.first() {
            Some(first) if cx.rng.random_bool(0.3) => first[..domain.len()].to_vec(),
            _ => {
                let mut args = Vec::new();
                for s in &domain {
                    match mk_lit(cx, s, false)? {
                        Some(a) => args.push(a),
                        None => return Ok(Vec::new()),
                    }
                }
                args
            }
        };
        let Some(value) = mk_lit(cx, &range, false)? else {
            return Ok(Vec::new());
        };
        args.push(value);
        rows.push(args);
    }
    let call = Call::ModelFunc {
        model: m,
        func,
        default,
        entries: rows.concat(),
    };
    // Functions the state does not take (special relations, recursive functions).
    if cx.sut.state().check(&call).is_err() {
        return Ok(Vec::new());
    }
    cx.run(call)?;
    let mut applied = Vec::new();
    let first = rows[0][..domain.len()].to_vec();
    let mut other = Vec::new();
    for s in &domain {
        match mk_lit(cx, s, false)? {
            Some(a) => other.push(a),
            None => return Ok(applied),
        }
    }
    for args in [first, other] {
        if let Some(t) = cx.new_term(Call::Apply { func, args }, false)? {
            applied.push(t);
        }
    }
    Ok(applied)
}

/// A constant array with a value from the pool, indexed by a scalar sort of the pool.
pub fn mk_const_array(cx: &mut RoundState<'_>, initial: bool) -> Result<Option<TermId>, Failure> {
    let Some(index) = sort_where(cx, |s| {
        matches!(s, Sort::Bool | Sort::Int | Sort::BitVec(_))
    }) else {
        return Ok(None);
    };
    let Some(value) = cx.pool.any(&mut cx.rng) else {
        return Ok(None);
    };
    let Some(index) = cx.sort_id(&index)? else {
        return Ok(None);
    };
    cx.new_term(Call::ConstArray { index, value }, initial)
}

/// `simplify` of a term of the pool, or `simplify_with` one to three of the simplifier's
/// Boolean parameters; then `check_simplify` (the result is equivalent to the term).
pub fn mk_simplify(cx: &mut RoundState<'_>) -> Result<Option<TermId>, Failure> {
    let Some(t) = cx.pool.any(&mut cx.rng) else {
        return Ok(None);
    };
    let names = untrace::executor::simplify_bool_params();
    let call = if names.is_empty() || cx.rng.random_bool(0.5) {
        Call::Simplify(t)
    } else {
        let params = (0..cx.rng.random_range(1..=3))
            .map(|_| {
                let name = names[cx.rng.random_range(0..names.len())].clone();
                (name, cx.rng.random_bool(0.5).to_string())
            })
            .collect();
        Call::SimplifyWith { term: t, params }
    };
    let simplified = cx.new_term(call, false)?;
    if let Some(s) = simplified {
        cx.run(Call::Check(Check::Simplify(s)))?;
    }
    Ok(simplified)
}

/// `substitute` in a term of the pool: one or two pairs of terms of one sort.
pub fn mk_substitute(cx: &mut RoundState<'_>) -> Result<Option<TermId>, Failure> {
    let Some(term) = cx.pool.any(&mut cx.rng) else {
        return Ok(None);
    };
    let mut pairs = Vec::new();
    for _ in 0..cx.rng.random_range(1..=2) {
        let Some(from) = cx.pool.any(&mut cx.rng) else {
            break;
        };
        let Some(sort) = cx.pool.sort_of(from).cloned() else {
            break;
        };
        if pairs.iter().any(|(f, _)| *f == from) {
            continue;
        }
        if let Some(to) = pick(cx, &sort) {
            pairs.push((from, to));
        }
    }
    if pairs.is_empty() {
        return Ok(None);
    }
    cx.new_term(Call::Substitute { term, pairs }, false)
}

/// The deepest nesting of quantifiers the generator builds.
const MAX_QUANTIFIER_DEPTH: u32 = 2;

/// A sort for a bound variable: half of the time one whose values the independent
/// evaluator enumerates (Bool, bit-vectors up to 8 bits, the uninterpreted sort), otherwise
/// any input sort.
fn var_sort(cx: &mut RoundState<'_>) -> Sort {
    let sorts = input_sorts(cx);
    let finite: Vec<&Sort> = sorts
        .iter()
        .filter(|s| match s {
            Sort::Bool | Sort::Named(..) => true,
            Sort::BitVec(w) => *w <= 8,
            _ => false,
        })
        .collect();
    if !finite.is_empty() && cx.rng.random_bool(0.5) {
        return finite[cx.rng.random_range(0..finite.len())].clone();
    }
    sorts[cx.rng.random_range(0..sorts.len())].clone()
}

/// A quantifier (`forall` or `exists`) over one to three fresh variables (`var`), its body
/// built by the term generators: they run on a small pool of the variables and a few
/// closed terms of the round (so that the operations they pick mention the variables
/// often), with a nested quantifier (below `MAX_QUANTIFIER_DEPTH`) in it a quarter of the
/// time. Terms that mention a variable never reach the round's pool, so only closed terms
/// are asserted. An application over every variable may become a pattern, one over some of
/// them a no-pattern. Returns the quantifier, which joins the pool when closed.
pub fn mk_quantifier(cx: &mut RoundState<'_>, depth: u32) -> Result<Option<TermId>, Failure> {
    let n_vars = match cx.rng.random_range(0..10) {
        0..=5 => 1,
        6..=8 => 2,
        _ => 3,
    };
    let mut vars = Vec::new();
    for _ in 0..n_vars {
        let sort = var_sort(cx);
        let Some(sid) = cx.sort_id(&sort)? else {
            continue;
        };
        let name = cx.fresh_name("x");
        if let Some(v) = cx.run(Call::Var { sort: sid, name })?.term() {
            vars.push((v, sort));
        }
    }
    if vars.is_empty() {
        return Ok(None);
    }
    // The body's pool: the variables, and a few closed terms of their sorts and of Bool.
    let mut body_pool = crate::pool::Pool::default();
    let mut sorts: Vec<Sort> = vars.iter().map(|(_, s)| s.clone()).collect();
    sorts.push(Sort::Bool);
    for sort in &sorts {
        for _ in 0..2 {
            if let Some(t) = cx.pool.pick(sort, &mut cx.rng, 0.5) {
                if !body_pool.contains(t) {
                    body_pool.add(t, sort.clone(), true);
                }
            }
        }
    }
    for (v, sort) in &vars {
        body_pool.add(*v, sort.clone(), false);
    }
    let round_pool = std::mem::replace(&mut cx.pool, body_pool);
    let built = quantifier_body(cx, &vars, depth);
    cx.pool = round_pool;
    let Some((body, applications)) = built? else {
        return Ok(None);
    };
    let var_ids: Vec<TermId> = vars.iter().map(|(v, _)| *v).collect();
    let state = cx.sut.state();
    let mut covering = Vec::new();
    let mut others = Vec::new();
    for t in &applications {
        let Ok(info) = state.term(*t) else { continue };
        if var_ids.iter().all(|v| info.free_vars.contains(v)) {
            covering.push(*t);
        } else if !info.is_closed() {
            others.push(*t);
        }
    }
    let mut patterns = Vec::new();
    if !covering.is_empty() && cx.rng.random_bool(0.5) {
        patterns.push(vec![covering[cx.rng.random_range(0..covering.len())]]);
    }
    let mut no_patterns = Vec::new();
    if !others.is_empty() && cx.rng.random_bool(0.2) {
        no_patterns.push(others[cx.rng.random_range(0..others.len())]);
    }
    let weight = if cx.rng.random_bool(0.2) {
        cx.rng.random_range(1..=10)
    } else {
        0
    };
    let forall = cx.rng.random_bool(0.6);
    let q = cx
        .run(Call::Quantifier {
            forall,
            weight,
            vars: var_ids,
            body,
            patterns,
            no_patterns,
        })?
        .term();
    if let Some(q) = q {
        if cx.sut.state().term(q).is_ok_and(|i| i.is_closed()) {
            cx.pool.add(q, Sort::Bool, false);
        }
    }
    Ok(q)
}

/// Applications of the round's functions to the variables `vars` and constants only, where a
/// function's domain allows: valid patterns (Z3 refuses a pattern with an interpreted
/// operation or a quantifier in it, 5.x already when the quantifier is built). Into the pool,
/// so that the body may use them.
fn pattern_applications(
    cx: &mut RoundState<'_>,
    vars: &[(TermId, Sort)],
) -> Result<Vec<TermId>, Failure> {
    let mut made = Vec::new();
    let funcs: Vec<(model::FuncId, Vec<Sort>)> = cx
        .funcs
        .iter()
        .filter(|(f, _, _)| cx.sut.state().funcs.contains_key(f))
        .map(|(f, domain, _)| (*f, domain.clone()))
        .collect();
    for (func, domain) in funcs {
        if cx.rng.random_bool(0.5) {
            continue;
        }
        let mut args = Vec::new();
        for sort in &domain {
            let var = vars.iter().find(|(_, s)| s == sort).map(|(v, _)| *v);
            let constant = || {
                let state = cx.sut.state();
                cx.pool
                    .all()
                    .into_iter()
                    .find(|t| state.term(*t).is_ok_and(|i| i.is_const && &i.sort == sort))
            };
            match var.or_else(constant) {
                Some(t) => args.push(t),
                None => break,
            }
        }
        let uses_var = args.iter().any(|a| vars.iter().any(|(v, _)| v == a));
        if args.len() == domain.len() && uses_var {
            if let Some(t) = cx.new_term(Call::Apply { func, args }, false)? {
                made.push(t);
            }
        }
    }
    Ok(made)
}

/// The body of a quantifier over `vars`, built on the body's pool (see [`mk_quantifier`]):
/// a Bool term that mentions a variable, and the applications fit for patterns.
fn quantifier_body(
    cx: &mut RoundState<'_>,
    vars: &[(TermId, Sort)],
    depth: u32,
) -> Result<Option<(TermId, Vec<TermId>)>, Failure> {
    if depth + 1 < MAX_QUANTIFIER_DEPTH && cx.rng.random_bool(0.25) {
        if let Some(inner) = mk_quantifier(cx, depth + 1)? {
            if !cx.pool.contains(inner) {
                cx.pool.add(inner, Sort::Bool, false);
            }
        }
    }
    let applications = pattern_applications(cx, vars)?;
    for _ in 0..cx.rng.random_range(2..=5) {
        if !cx.funcs.is_empty() && cx.rng.random_bool(0.3) {
            mk_apply(cx, false)?;
        } else {
            mk_op(cx, false)?;
        }
    }
    let state = cx.sut.state();
    let open_bools: Vec<TermId> = cx
        .pool
        .all()
        .into_iter()
        .filter(|t| {
            state
                .term(*t)
                .is_ok_and(|i| i.sort == Sort::Bool && !i.is_closed())
        })
        .collect();
    let body = if open_bools.is_empty() {
        // No generated formula mentions a variable: the first one equals a term of its sort.
        let (v, sort) = vars[0].clone();
        let other = pick(cx, &sort).unwrap_or(v);
        let eq = Op::lookup("=").expect("`=` is in the operation table");
        cx.run(Call::Op {
            op: eq,
            indices: vec![],
            args: vec![v, other],
        })?
        .term()
    } else {
        Some(open_bools[cx.rng.random_range(0..open_bools.len())])
    };
    Ok(body.map(|b| (b, applications)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sut::DrySut;
    use model::SatResult;
    use rand::SeedableRng;

    #[test]
    fn fp_rem_takes_only_small_formats() {
        let mut sut = DrySut::new(SatResult::Sat);
        let config = crate::round::tests::dry_config();
        let mut cx = RoundState::new(
            &mut sut,
            config,
            1,
            rand_chacha::ChaCha8Rng::seed_from_u64(1),
        );
        let rem = model::ops::OPS.iter().find(|o| o.name == "fp.rem").unwrap();
        let add = model::ops::OPS.iter().find(|o| o.name == "fp.add").unwrap();
        for _ in 0..3 {
            mk_const(&mut cx, &Sort::FloatingPoint(8, 24), true).unwrap();
        }
        mk_const(&mut cx, &Sort::RoundingMode, true).unwrap();
        assert!(pick_args(&mut cx, add).is_some());
        assert_eq!(pick_args(&mut cx, rem), None, "fp.rem on Float32");
        mk_const(&mut cx, &Sort::FloatingPoint(5, 11), true).unwrap();
        for _ in 0..20 {
            let (_, args) = pick_args(&mut cx, rem).expect("fp.rem on Float16");
            assert!(args
                .iter()
                .all(|t| cx.pool.sort_of(*t) == Some(&Sort::FloatingPoint(5, 11))));
        }
    }
}
