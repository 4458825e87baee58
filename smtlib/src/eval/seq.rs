//! Z3's sequence theory (`(Seq T)`) on [`Value::Seq`]: `seq.unit`, `seq.++`, `seq.len`,
//! `seq.at`, `seq.contains` in [`apply`], and `seq.nth` in [`nth`], which is undefined outside
//! the sequence (Z3 leaves it unspecified there, so its value is open, never a finding).
//! `(as seq.empty (Seq T))` is the empty sequence ([`empty`]); `seq.power` is [`power`], and
//! Z3's higher-order `seq.map`, `seq.mapi`, `seq.fold_left` and `seq.fold_lefti` are
//! evaluated by the evaluator, which applies their lambda to each element. Semantics as Z3 documents
//! them, which agree with the string operations of the same names on one-character elements.

use super::value::Value;
use crate::sort::Sort;
use num_bigint::BigInt;
use num_traits::ToPrimitive;

/// The result of a total sequence operation by name: `None` if it is not one.
pub(crate) fn apply(name: &str, args: &[Value]) -> Option<Result<Value, String>> {
    let out = match name {
        "seq.unit" => match args {
            [x] => Ok(Value::seq(x.sort(), vec![x.clone()])),
            _ => Err("seq.unit expects one argument".into()),
        },
        "seq.++" => concat(args),
        "seq.len" => match args {
            [Value::Seq { items, .. }] => Ok(Value::int(items.len())),
            _ => Err("seq.len expects a sequence".into()),
        },
        "seq.at" => seq_int(name, args).map(|(element, items, i)| {
            let item = index(i, items.len()).map(|i| items[i].clone());
            Value::seq(element.clone(), item.into_iter().collect())
        }),
        "seq.contains" => match args {
            [Value::Seq {
                items: a,
                element: e,
            }, Value::Seq {
                items: b,
                element: f,
            }] if e == f => Ok(Value::Bool(
                b.is_empty() || a.windows(b.len()).any(|w| w == b.as_slice()),
            )),
            _ => Err("seq.contains expects two sequences of one sort".into()),
        },
        _ => return None,
    };
    Some(out)
}

/// `(seq.nth s i)`: the element at `i`, `None` outside `0 <= i < (seq.len s)`.
pub(crate) fn nth(args: &[Value]) -> Result<Option<Value>, String> {
    let (_, items, i) = seq_int("seq.nth", args)?;
    Ok(index(i, items.len()).map(|i| items[i].clone()))
}

/// The most elements [`power`] builds: a longer power is left open (the evaluator keeps its
/// values small; Z3 decides such a term by its length anyway).
pub(crate) const MAX_POWER_ITEMS: usize = 100_000;

/// `(seq.power s n)` (Z3's, releases after 4.8.12): s concatenated n times with itself, the
/// empty sequence where n is not positive; `None` past [`MAX_POWER_ITEMS`] elements.
pub(crate) fn power(args: &[Value]) -> Result<Option<Value>, String> {
    let (element, items, n) = seq_int("seq.power", args)?;
    let n = match n.to_usize() {
        Some(n) => n,
        None if n.sign() == num_bigint::Sign::Minus => 0,
        None => return Ok(None),
    };
    if items.len().saturating_mul(n) > MAX_POWER_ITEMS {
        return Ok(None);
    }
    let out: Vec<Value> = (0..n).flat_map(|_| items.iter().cloned()).collect();
    Ok(Some(Value::seq(element.clone(), out)))
}

/// `(as seq.empty S)` for a sequence sort `S`.
pub(crate) fn empty(sort: &Sort) -> Option<Value> {
    match sort {
        Sort::Seq(element) => Some(Value::seq((**element).clone(), Vec::new())),
        _ => None,
    }
}

fn concat(args: &[Value]) -> Result<Value, String> {
    let mut element = None;
    let mut out = Vec::new();
    for a in args {
        let Value::Seq { element: e, items } = a else {
            return Err(format!("seq.++ expects sequences, got {}", a.sort()));
        };
        if element.get_or_insert(e) != &e {
            return Err("seq.++ expects sequences of one sort".into());
        }
        out.extend(items.iter().cloned());
    }
    match element {
        Some(e) => Ok(Value::seq(e.clone(), out)),
        None => Err("seq.++ expects arguments".into()),
    }
}

type SeqInt<'a> = (&'a Sort, &'a [Value], &'a BigInt);

fn seq_int<'a>(name: &str, args: &'a [Value]) -> Result<SeqInt<'a>, String> {
    match args {
        [Value::Seq { element, items }, Value::Int(i)] => Ok((element, items.as_slice(), i)),
        _ => Err(format!("{name} expects a sequence and an Int")),
    }
}

fn index(i: &BigInt, len: usize) -> Option<usize> {
    i.to_usize().filter(|&i| i < len)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(xs: &[i64]) -> Value {
        Value::seq(
            Sort::Int,
            xs.iter().map(|&x| Value::Int(x.into())).collect(),
        )
    }

    fn ap(name: &str, args: &[Value]) -> Value {
        apply(name, args).unwrap().unwrap()
    }

    #[test]
    fn unit_concat_len() {
        assert_eq!(ap("seq.unit", &[Value::int(7)]), ints(&[7]));
        assert_eq!(
            ap("seq.++", &[ints(&[1]), ints(&[]), ints(&[2, 3])]),
            ints(&[1, 2, 3])
        );
        assert_eq!(ap("seq.len", &[ints(&[4, 4])]), Value::int(2));
        assert!(
            apply("seq.++", &[ints(&[1]), Value::seq(Sort::Bool, vec![])])
                .unwrap()
                .is_err()
        );
    }

    #[test]
    fn at_and_nth_outside_the_sequence() {
        assert_eq!(ap("seq.at", &[ints(&[5, 6]), Value::int(1)]), ints(&[6]));
        assert_eq!(ap("seq.at", &[ints(&[5, 6]), Value::int(2)]), ints(&[]));
        assert_eq!(ap("seq.at", &[ints(&[5, 6]), Value::int(-1)]), ints(&[]));
        assert_eq!(
            nth(&[ints(&[5, 6]), Value::int(0)]),
            Ok(Some(Value::int(5)))
        );
        assert_eq!(nth(&[ints(&[5, 6]), Value::int(2)]), Ok(None));
        assert_eq!(nth(&[ints(&[]), Value::int(-1)]), Ok(None));
    }

    #[test]
    fn power_repeats_and_is_empty_below_one() {
        let s = ints(&[1, 2]);
        assert_eq!(
            power(&[s.clone(), Value::int(2)]),
            Ok(Some(ints(&[1, 2, 1, 2])))
        );
        assert_eq!(power(&[s.clone(), Value::int(0)]), Ok(Some(ints(&[]))));
        assert_eq!(power(&[s.clone(), Value::int(-3)]), Ok(Some(ints(&[]))));
        let huge = Value::Int(BigInt::from(MAX_POWER_ITEMS));
        assert_eq!(power(&[s, huge]), Ok(None));
        assert!(power(&[Value::int(1), Value::int(1)]).is_err());
    }

    #[test]
    fn contains_is_a_contiguous_subsequence() {
        let s = ints(&[1, 2, 3]);
        assert_eq!(
            ap("seq.contains", &[s.clone(), ints(&[2, 3])]),
            Value::Bool(true)
        );
        assert_eq!(
            ap("seq.contains", &[s.clone(), ints(&[1, 3])]),
            Value::Bool(false)
        );
        assert_eq!(ap("seq.contains", &[s, ints(&[])]), Value::Bool(true));
        assert_eq!(
            ap("seq.contains", &[ints(&[]), ints(&[1])]),
            Value::Bool(false)
        );
    }

    #[test]
    fn empty_sequences_print_with_their_sort() {
        assert_eq!(empty(&Sort::seq(Sort::Int)), Some(ints(&[])));
        assert_eq!(ints(&[]).to_string(), "(as seq.empty (Seq Int))");
        assert_eq!(
            ints(&[1, 2]).to_string(),
            "(seq.++ (seq.unit 1) (seq.unit 2))"
        );
        assert_eq!(empty(&Sort::Int), None);
    }
}
