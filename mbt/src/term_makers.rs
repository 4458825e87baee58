//! Actions of Z3's term, symbol and sort makers that the other actions do not reach: the
//! makers of fixed floating-point formats whatever the round's formats ([`SortMakers`], the
//! sort judged by `sort_fp_fixed` itself and by its readers, a literal of it by
//! `check_literal`); divisibility, last positions and set sizes ([`MkTermMaker`], into the
//! pool, where the independent evaluator judges them in every model); constants and
//! functions named by integer symbols, fresh functions and updated applications
//! ([`NamedTerms`], each judged by the executor as it is made, out of the pool: they have no
//! SMT-LIB name of the round's). Each is cheap (no solver check of its own).

use crate::actions::Action;
use crate::failure::Failure;
use crate::gen;
use crate::round_state::RoundState;
use model::read::Reader;
use model::{Call, Check, Sort, SortId, TermId};
use rand::Rng;

fn pick(cx: &mut RoundState<'_>, sort: &Sort) -> Option<TermId> {
    let p = cx.shape.p_deep;
    cx.pool.pick(sort, &mut cx.rng, p)
}

/// Sorts made by Z3's other makers, each read back, one family a run: a fixed
/// floating-point format by its own maker (`sort_fp_fixed`, any of
/// `model::call::FIXED_FP_FORMATS`: the round's formats are small, so the double and
/// quadruple makers are met only here), its widths read back (`Z3_fpa_get_ebits`,
/// `Z3_fpa_get_sbits`) and a literal of it through every numeral constructor
/// (`check_literal`), in rounds with floating point; an array sort of the round by the maker
/// of n indices (`sort_array_n`), its arity and indices read back (`Z3_get_array_arity` and
/// `Z3_get_array_sort_domain_n` where the release has them); the regular expressions over
/// String (`sort_re`), their basis read back (`Z3_get_re_sort_basis`), in rounds with
/// Strings.
pub struct SortMakers;
impl Action for SortMakers {
    fn name(&self) -> &'static str {
        "sort_makers"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        cx.budget.main_left > 0 && !families(cx).is_empty()
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let families = families(cx);
        let Some(family) = families.get(cx.rng.random_range(0..families.len().max(1))) else {
            return Ok(false);
        };
        match family {
            SortFamily::FixedFp => fixed_fp(cx),
            SortFamily::ArrayN(sort) => array_n(cx, sort.clone()),
            SortFamily::Re => regular_expressions(cx),
        }
    }
}

enum SortFamily {
    FixedFp,
    ArrayN(Sort),
    Re,
}

/// The sort families of the round that [`SortMakers`] makes again.
fn families(cx: &RoundState<'_>) -> Vec<SortFamily> {
    let mut out = Vec::new();
    let inputs = gen::input_sorts(cx);
    if inputs.iter().any(|s| matches!(s, Sort::FloatingPoint(..))) {
        out.push(SortFamily::FixedFp);
    }
    if let Some(array) = inputs.iter().find(|s| matches!(s, Sort::Array(..))) {
        out.push(SortFamily::ArrayN(array.clone()));
    }
    if inputs.contains(&Sort::String) {
        out.push(SortFamily::Re);
    }
    out
}

/// Reads `sort` back with each of `readers` the loaded libz3 has.
fn read_sort(cx: &mut RoundState<'_>, sort: SortId, readers: &[Reader]) -> Result<(), Failure> {
    for reader in readers {
        if untrace::executor::read::available(*reader) {
            cx.run(Call::ReadSort {
                function: reader.name().into(),
                sort,
            })?;
        }
    }
    Ok(())
}

fn fixed_fp(cx: &mut RoundState<'_>) -> Result<bool, Failure> {
    let makers = model::call::FIXED_FP_FORMATS;
    let (maker, e, s) = makers[cx.rng.random_range(0..makers.len())];
    let Some(sort) = cx.run(Call::SortFpFixed(maker.into()))?.sort() else {
        return Ok(false);
    };
    read_sort(cx, sort, &[Reader::FpEbits, Reader::FpSbits])?;
    let Some(value) = gen::numeral_value(&mut cx.rng, &Sort::FloatingPoint(e, s)) else {
        return Ok(true);
    };
    // Not in the pool: a wide format's terms would make the round's checks expensive.
    if let Some(t) = cx.run(Call::Lit { sort, value })?.term() {
        cx.run(Call::Check(Check::Literal(t)))?;
    }
    Ok(true)
}

fn array_n(cx: &mut RoundState<'_>, array: Sort) -> Result<bool, Failure> {
    let Sort::Array(index, element) = &array else {
        return Ok(false);
    };
    let (Some(i), Some(e)) = (cx.sort_id(index)?, cx.sort_id(element)?) else {
        return Ok(false);
    };
    let call = Call::SortArrayN {
        domain: vec![i],
        range: e,
    };
    let Some(sort) = cx.run(call)?.sort() else {
        return Ok(false);
    };
    let readers = [
        Reader::ArrayArity,
        Reader::ArrayDomainN,
        Reader::ArrayDomain,
    ];
    read_sort(cx, sort, &readers)?;
    Ok(true)
}

fn regular_expressions(cx: &mut RoundState<'_>) -> Result<bool, Failure> {
    let Some(string) = cx.sort_id(&Sort::String)? else {
        return Ok(false);
    };
    let Some(sort) = cx.run(Call::SortRe(string))?.sort() else {
        return Ok(false);
    };
    read_sort(cx, sort, &[Reader::ReSortBasis, Reader::IsReSort])?;
    Ok(true)
}

/// A term of one of Z3's makers the operation table does not hold, into the pool: `divides`
/// (`Z3_mk_divides` of a small divisor and an Int; 4.8.12 refuses it), `seq_last_index`
/// (`Z3_mk_seq_last_index` of two Strings) or, where the loaded libz3 has it, `set_has_size`
/// (`Z3_mk_set_has_size`, which 4.8.12 refuses as unsupported).
pub struct MkTermMaker;
impl Action for MkTermMaker {
    fn name(&self) -> &'static str {
        "mk_term_maker"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        cx.budget.main_left > 0 && (cx.pool.has(&Sort::Int) || cx.pool.has(&Sort::String))
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let call = match cx.rng.random_range(0..5) {
            0 | 1 => pick(cx, &Sort::Int).map(|term| Call::Divides {
                divisor: cx.rng.random_range(1..=12),
                term,
            }),
            2 | 3 => match (pick(cx, &Sort::String), pick(cx, &Sort::String)) {
                (Some(s), Some(t)) => Some(Call::SeqLastIndex(s, t)),
                _ => None,
            },
            _ => {
                let set = cx.pool.pick_sort(
                    &mut cx.rng,
                    |s| matches!(s, Sort::Array(_, e) if **e == Sort::Bool),
                );
                match (
                    set,
                    untrace::executor::read::has_function("Z3_mk_set_has_size"),
                ) {
                    (Some(set), true) => match (pick(cx, &set), pick(cx, &Sort::Int)) {
                        (Some(s), Some(k)) => Some(Call::SetHasSize(s, k)),
                        _ => None,
                    },
                    _ => None,
                }
            }
        };
        let Some(call) = call else {
            return Ok(false);
        };
        Ok(cx.new_term(call, false)?.is_some())
    }
}

/// Terms and functions named otherwise than by a string, and applications updated: a
/// constant and a function named by integer symbols (`const_int_sym`, `fun_int_sym`, the
/// name read back), a function with a fresh name (`fun_fresh`), each applied to pool terms,
/// and an application updated with other arguments (`update_term`, judged against
/// `Z3_mk_app`). All out of the pool.
pub struct NamedTerms;
impl Action for NamedTerms {
    fn name(&self) -> &'static str {
        "named_terms"
    }
    fn applies(&self, cx: &RoundState<'_>) -> bool {
        cx.budget.main_left > 0 && !cx.pool.is_empty()
    }
    fn run(&self, cx: &mut RoundState<'_>) -> Result<bool, Failure> {
        let Some(sort) = cx.pool.pick_sort(&mut cx.rng, |_| true) else {
            return Ok(false);
        };
        let Some(sid) = cx.sort_id(&sort)? else {
            return Ok(false);
        };
        let index = cx.rng.random_range(0..1000);
        let Some(c) = cx.run(Call::ConstIntSym { index, sort: sid })?.term() else {
            return Ok(false);
        };
        // A function of one or two arguments of the pool's sorts, to Bool or the sort above.
        let n_args = cx.rng.random_range(1..=2);
        let mut domain: Vec<(Sort, SortId)> = Vec::new();
        for _ in 0..n_args {
            let Some(s) = cx.pool.pick_sort(&mut cx.rng, |_| true) else {
                return Ok(true);
            };
            let Some(id) = cx.sort_id(&s)? else {
                return Ok(true);
            };
            domain.push((s, id));
        }
        let range = if cx.rng.random_bool(0.5) {
            sid
        } else {
            match cx.sort_id(&Sort::Bool)? {
                Some(b) => b,
                None => return Ok(true),
            }
        };
        let ids: Vec<SortId> = domain.iter().map(|(_, id)| *id).collect();
        let func = if cx.rng.random_bool(0.5) {
            Call::FunIntSym {
                index: cx.rng.random_range(0..1000),
                domain: ids,
                range,
            }
        } else {
            Call::FreshFunc {
                prefix: ["f", "g!", "fresh"][cx.rng.random_range(0..3)].into(),
                domain: ids,
                range,
            }
        };
        let Some(model::Ret::Id(model::AnyId::Func(f))) = cx.run(func)?.ret().cloned() else {
            return Ok(true);
        };
        // Arguments from the pool (the integer-named constant where its sort fits), twice:
        // the application, then the same with the second set of arguments.
        let args = |cx: &mut RoundState<'_>| -> Option<Vec<TermId>> {
            domain
                .iter()
                .map(|(s, _)| {
                    if *s == sort && cx.rng.random_bool(0.3) {
                        Some(c)
                    } else {
                        pick(cx, s)
                    }
                })
                .collect()
        };
        let (Some(first), Some(second)) = (args(cx), args(cx)) else {
            return Ok(true);
        };
        let Some(app) = cx
            .run(Call::Apply {
                func: f,
                args: first,
            })?
            .term()
        else {
            return Ok(true);
        };
        cx.run(Call::Read {
            function: Reader::Domain.name().into(),
            term: app,
        })?;
        cx.run(Call::UpdateTerm {
            term: app,
            args: second,
        })?;
        Ok(true)
    }
}
