//! [`smaller_domains`]: an argument of an uninterpreted function removed, from its
//! declaration (`fun`) and from every `apply` of it at once. A failure seldom needs every
//! argument the fuzzer gave a function; the terms only those arguments used (and their
//! sorts) go in the next removal round. A candidate the reference state rejects (another
//! use of the function that needs the old arity) costs no replay.

use crate::session::Session;
use model::{AnyId, Call, Entry, FuncId, Ret};

/// The candidates: `(entry of the fun call, its function, argument position)`.
fn candidates(entries: &[Entry]) -> Vec<(usize, FuncId, usize)> {
    entries
        .iter()
        .enumerate()
        .flat_map(|(i, entry)| match (&entry.call, &entry.ret) {
            (Call::Fun { domain, .. }, Some(Ret::Id(AnyId::Func(f)))) => {
                (0..domain.len()).map(|k| (i, *f, k)).collect()
            }
            _ => Vec::new(),
        })
        .collect()
}

/// `entries` with argument `k` of the function declared at entry `i` removed everywhere.
fn apply(entries: &[Entry], (i, func, k): (usize, FuncId, usize)) -> Option<Vec<Entry>> {
    let mut out = entries.to_vec();
    let Call::Fun { domain, .. } = &mut out.get_mut(i)?.call else {
        return None;
    };
    if k >= domain.len() {
        return None;
    }
    domain.remove(k);
    for entry in out.iter_mut().skip(i + 1) {
        if let Call::Apply { func: f, args } = &mut entry.call {
            if *f == func {
                if k >= args.len() {
                    return None;
                }
                args.remove(k);
            }
        }
    }
    Some(out)
}

/// Removes function arguments until none can go (first success, then again).
pub fn smaller_domains(s: &mut Session) {
    loop {
        if s.stopped() {
            return;
        }
        let units = candidates(&s.current);
        if units.is_empty()
            || !s.first_success("domains", units.len(), |current, n| {
                apply(current, units[n])
            })
        {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_argument_goes_from_the_declaration_and_every_application() {
        let text = "z3-trace 1\nsort_bool\nreturn s1\nsort_int\nreturn s2\n\
            fun \"f\" s1 s2 s1\nreturn f1\nconst s1 \"b\"\nreturn t1\nconst s2 \"i\"\nreturn t2\n\
            apply f1 t1 t2\nreturn t3\napply f1 t1 t2\nreturn t4\n";
        let entries = model::trace::text::parse(text).unwrap().entries;
        let units = candidates(&entries);
        assert_eq!(units.len(), 2);
        let out = apply(&entries, units[1]).unwrap();
        assert!(matches!(&out[2].call, Call::Fun { domain, .. } if domain.len() == 1));
        for e in &out[5..] {
            assert!(matches!(&e.call, Call::Apply { args, .. } if args.len() == 1));
        }
    }
}
