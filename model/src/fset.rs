//! Z3's finite sets (`sort_finite_set`, `fset_*`) and prime fields (`sort_finite_field`,
//! `ff_*`), both of releases after 4.8.12, as the reference state knows them: the sorts
//! their elements may have, and the value of a term of either family (a finite set of
//! values, a number modulo the field's order), computed from the calls that built it
//! ([`value`]) for `check_fset` and `check_ff`.

use crate::call::{Call, TermId};
use crate::state::{Origin, State};
use crate::Sort;
use num_bigint::{BigInt, BigUint};
use std::collections::{BTreeSet, HashMap};

/// The most elements a set value may have (a larger `fset_range` is no value the check
/// computes: the trace is refused).
pub const MAX_ELEMENTS: usize = 256;

/// The widest bit-vector element sort.
pub const MAX_ELEMENT_WIDTH: u32 = 64;

/// The value of a term of the family: the Bool of `fset_member` and `fset_subset`, the Int
/// of `fset_size`, or a set of element values (each an Int, a Bool or a bit-vector).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Value {
    Bool(bool),
    Int(BigInt),
    /// A bit-vector element, its bits as an unsigned number (its width is its sort's).
    Bv(BigUint),
    Set(BTreeSet<Value>),
    /// An element of a prime field, below its order.
    Field(u64),
}

/// Whether `p` is a prime (below 2^31 as a `u32` is): the order of a field the model knows.
pub fn is_field_order(p: u32) -> bool {
    (2..(1 << 31)).contains(&p)
        && (2..)
            .take_while(|d: &u32| d * d <= p)
            .all(|d| !p.is_multiple_of(d))
}

/// Whether sets of `element` are sets the reference computes: Int, Bool and bit-vectors up
/// to [`MAX_ELEMENT_WIDTH`] bits.
pub fn element_fits(element: &Sort) -> bool {
    match element {
        Sort::Int | Sort::Bool => true,
        Sort::BitVec(w) => *w <= MAX_ELEMENT_WIDTH,
        _ => false,
    }
}

/// Whether a call is one of the family's term-building calls.
pub fn is_fset_term_call(call: &Call) -> bool {
    matches!(
        call,
        Call::FsetEmpty(_)
            | Call::FsetSingleton(_)
            | Call::FsetUnion(..)
            | Call::FsetIntersect(..)
            | Call::FsetDifference(..)
            | Call::FsetMember(..)
            | Call::FsetSubset(..)
            | Call::FsetSize(_)
            | Call::FsetRange(..)
            | Call::FsetMap { .. }
            | Call::FsetFilter { .. }
            | Call::FfAdd(_)
            | Call::FfMul(_)
            | Call::FfNeg(_)
            | Call::FfBitsum(_)
    )
}

/// Whether `term` applies `fset_map` anywhere: Z3 5.4.1's solvers do not terminate on a
/// formula with `set.map` (its resource limit does not stop them), so `check_fset` judges
/// such atoms by the rewriter alone.
pub fn applies_map(state: &State, term: TermId) -> bool {
    let mut todo = vec![term];
    let mut seen = std::collections::HashSet::new();
    while let Some(t) = todo.pop() {
        if !seen.insert(t) {
            continue;
        }
        match state.fsets.get(&t) {
            Some(Call::FsetMap { .. }) => return true,
            Some(call) => todo.extend(call.uses().into_iter().filter_map(|id| match id {
                crate::call::AnyId::Term(u) => Some(u),
                _ => None,
            })),
            None => {}
        }
    }
    false
}

/// The value of `term` where each constant of `witnesses` is its witness's value: a term
/// of the family over `lit`s of Int, Bool and bit-vector sorts and the witnessed
/// constants. Why not, where the term is of another kind or its value too large.
pub fn value(
    state: &State,
    term: TermId,
    witnesses: &HashMap<TermId, TermId>,
) -> Result<Value, String> {
    let mut memo = HashMap::new();
    value_memo(state, term, witnesses, &mut memo, 0)
}

/// The deepest nesting [`value`] follows (witnesses of witnesses count too).
const MAX_DEPTH: usize = 200;

fn value_memo(
    state: &State,
    term: TermId,
    witnesses: &HashMap<TermId, TermId>,
    memo: &mut HashMap<TermId, Value>,
    depth: usize,
) -> Result<Value, String> {
    if let Some(v) = memo.get(&term) {
        return Ok(v.clone());
    }
    if depth > MAX_DEPTH {
        return Err(format!("{term} nests too deep"));
    }
    let info = state
        .terms
        .get(&term)
        .ok_or_else(|| format!("term {term} is not defined"))?;
    let mut sub = |t: &TermId| value_memo(state, *t, witnesses, memo, depth + 1);
    let v = match (&info.origin, state.fsets.get(&term)) {
        (Origin::Lit(text), _) => literal(&info.sort, text)?,
        (Origin::Const(name), _) => match witnesses.get(&term) {
            // A witness is ground: its own constants have no witness.
            Some(w) => value_memo(state, *w, &HashMap::new(), memo, depth + 1)?,
            None => return Err(format!("the constant {term} (`{name}`) has no witness")),
        },
        (_, Some(call)) => match call {
            Call::FsetEmpty(_) => Value::Set(BTreeSet::new()),
            Call::FsetSingleton(e) => Value::Set(BTreeSet::from([sub(e)?])),
            Call::FsetUnion(a, b) => {
                let (a, b) = (set(sub(a)?)?, set(sub(b)?)?);
                bounded(a.union(&b).cloned().collect())?
            }
            Call::FsetIntersect(a, b) => {
                let (a, b) = (set(sub(a)?)?, set(sub(b)?)?);
                Value::Set(a.intersection(&b).cloned().collect())
            }
            Call::FsetDifference(a, b) => {
                let (a, b) = (set(sub(a)?)?, set(sub(b)?)?);
                Value::Set(a.difference(&b).cloned().collect())
            }
            Call::FsetMember(e, s) => {
                let e = sub(e)?;
                Value::Bool(set(sub(s)?)?.contains(&e))
            }
            Call::FsetSubset(a, b) => {
                let (a, b) = (set(sub(a)?)?, set(sub(b)?)?);
                Value::Bool(a.is_subset(&b))
            }
            Call::FsetSize(s) => Value::Int(BigInt::from(set(sub(s)?)?.len())),
            Call::FsetRange(low, high) => {
                let (low, high) = (int(sub(low)?)?, int(sub(high)?)?);
                if high >= low && &high - &low >= BigInt::from(MAX_ELEMENTS) {
                    return Err(format!(
                        "a range of more than {MAX_ELEMENTS} elements ({low} to {high})"
                    ));
                }
                let mut items = BTreeSet::new();
                let mut i = low;
                while i <= high {
                    items.insert(Value::Int(i.clone()));
                    i += 1;
                }
                Value::Set(items)
            }
            Call::FsetMap { set: s, add, mul } => {
                let items = set(sub(s)?)?;
                let image = items
                    .into_iter()
                    .map(|x| int(x).map(|x| Value::Int(x * mul + add)))
                    .collect::<Result<BTreeSet<_>, _>>()?;
                Value::Set(image)
            }
            Call::FsetFilter { set: s, low, high } => {
                let items = set(sub(s)?)?;
                let mut kept = BTreeSet::new();
                for x in items {
                    let n = int(x.clone())?;
                    if BigInt::from(*low) <= n && n <= BigInt::from(*high) {
                        kept.insert(x);
                    }
                }
                Value::Set(kept)
            }
            Call::FfAdd(ts) | Call::FfMul(ts) | Call::FfBitsum(ts) => {
                let p = u128::from(field_order(&info.sort)?);
                let mut acc: u128 = u128::from(matches!(call, Call::FfMul(_)));
                // The weight of the bit-sum's next argument, 2^i modulo p.
                let mut weight: u128 = 1;
                for t in ts {
                    let x = u128::from(field(sub(t)?)?);
                    acc = if matches!(call, Call::FfMul(_)) {
                        acc * x % p
                    } else if matches!(call, Call::FfBitsum(_)) {
                        (acc + x * weight) % p
                    } else {
                        (acc + x) % p
                    };
                    weight = weight * 2 % p;
                }
                Value::Field(acc as u64)
            }
            Call::FfNeg(a) => {
                let p = u64::from(field_order(&info.sort)?);
                Value::Field((p - field(sub(a)?)?) % p)
            }
            other => return Err(format!("`{}` is no finite-set call", other.name())),
        },
        _ => return Err(format!("{term} is no literal, constant or finite-set term")),
    };
    memo.insert(term, v.clone());
    Ok(v)
}

fn set(v: Value) -> Result<BTreeSet<Value>, String> {
    match v {
        Value::Set(s) => Ok(s),
        other => Err(format!("{other:?} is no set")),
    }
}

fn int(v: Value) -> Result<BigInt, String> {
    match v {
        Value::Int(n) => Ok(n),
        other => Err(format!("{other:?} is no Int")),
    }
}

fn field(v: Value) -> Result<u64, String> {
    match v {
        Value::Field(n) => Ok(n),
        other => Err(format!("{other:?} is no field element")),
    }
}

fn field_order(sort: &Sort) -> Result<u32, String> {
    match sort {
        Sort::FiniteField(p) => Ok(*p),
        other => Err(format!("{other} is no finite field")),
    }
}

fn bounded(items: BTreeSet<Value>) -> Result<Value, String> {
    if items.len() > MAX_ELEMENTS {
        return Err(format!("a set of more than {MAX_ELEMENTS} elements"));
    }
    Ok(Value::Set(items))
}

/// The value of a `lit` of an element sort.
fn literal(sort: &Sort, text: &str) -> Result<Value, String> {
    let bad = || format!("`{text}` is no literal of {sort}");
    match sort {
        Sort::Bool => match text {
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            _ => Err(bad()),
        },
        Sort::Int => text.parse::<BigInt>().map(Value::Int).map_err(|_| bad()),
        Sort::BitVec(_) => text.parse::<BigUint>().map(Value::Bv).map_err(|_| bad()),
        Sort::FiniteField(p) => text
            .parse::<u64>()
            .map(|v| Value::Field(v % u64::from(*p)))
            .map_err(|_| bad()),
        _ => Err(format!("a literal of {sort} is no finite-set element")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state_of(body: &str) -> State {
        let trace = crate::trace::text::parse(&format!("z3-trace 1\n{body}")).unwrap();
        let mut state = State::new();
        for e in &trace.entries {
            state.apply(&e.call, e.ret.as_ref()).unwrap();
        }
        state
    }

    fn ints(xs: &[i64]) -> Value {
        Value::Set(xs.iter().map(|x| Value::Int(BigInt::from(*x))).collect())
    }

    #[test]
    fn values_of_the_operations() {
        let state = state_of(
            "sort_int\nreturn s1\nsort_finite_set s1\nreturn s2\nlit s1 \"1\"\nreturn t1\nlit s1 \"3\"\nreturn t2\n\
             fset_range t1 t2\nreturn t3\nfset_singleton t2\nreturn t4\nfset_difference t3 t4\nreturn t5\n\
             fset_size t3\nreturn t6\nfset_member t2 t5\nreturn t7\nfset_subset t5 t3\nreturn t8\n\
             fset_map t3 1 2\nreturn t9\nfset_filter t9 4 7\nreturn t10\nconst s2 \"a\"\nreturn t11\n\
             fset_union t11 t4\nreturn t12\nfset_empty s2\nreturn t13\nfset_intersect t3 t13\nreturn t14\n",
        );
        let none = HashMap::new();
        let v = |t: u32| value(&state, TermId(t), &none).unwrap();
        // The range includes its upper end, as Z3 5.4.1 computes it.
        assert_eq!(v(3), ints(&[1, 2, 3]));
        assert_eq!(v(5), ints(&[1, 2]));
        assert_eq!(v(6), Value::Int(BigInt::from(3)));
        assert_eq!(v(7), Value::Bool(false));
        assert_eq!(v(8), Value::Bool(true));
        assert_eq!(v(9), ints(&[3, 5, 7]));
        assert_eq!(v(10), ints(&[5, 7]));
        assert_eq!(v(14), ints(&[]));
        assert!(value(&state, TermId(12), &none).is_err());
        let witnessed = HashMap::from([(TermId(11), TermId(5))]);
        assert_eq!(
            value(&state, TermId(12), &witnessed).unwrap(),
            ints(&[1, 2, 3])
        );
    }

    #[test]
    fn values_of_field_operations() {
        let state = state_of(
            "sort_finite_field 7\nreturn s1\nlit s1 \"3\"\nreturn t1\nlit s1 \"5\"\nreturn t2\n\
             ff_add t1 t2\nreturn t3\nff_mul t1 t2 t2\nreturn t4\nff_neg t1\nreturn t5\n\
             ff_bitsum t1 t2 t1\nreturn t6\n",
        );
        let v = |t: u32| value(&state, TermId(t), &HashMap::new()).unwrap();
        assert_eq!(v(3), Value::Field(1));
        // 3 * 5 * 5 = 75 = 5 (mod 7).
        assert_eq!(v(4), Value::Field(5));
        assert_eq!(v(5), Value::Field(4));
        // 3 + 2 * 5 + 4 * 3 = 25 = 4 (mod 7).
        assert_eq!(v(6), Value::Field(4));
        assert!(is_field_order(7) && !is_field_order(9) && !is_field_order(1));
    }

    #[test]
    fn a_large_range_is_no_value() {
        let state = state_of(
            "sort_int\nreturn s1\nlit s1 \"0\"\nreturn t1\nlit s1 \"100000\"\nreturn t2\nfset_range t1 t2\nreturn t3\n",
        );
        assert!(value(&state, TermId(3), &HashMap::new()).is_err());
    }
}
