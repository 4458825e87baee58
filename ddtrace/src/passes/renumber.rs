//! [`renumber`]: ids renumbered densely (each kind from 1, in order of definition) so the
//! result reads cleanly. One candidate; it is kept only if the behaviour is (an output that
//! names ids would change).

use crate::calls::{map_ids, map_ret_ids};
use crate::session::Session;
use model::{AnyId, Entry, Ret};
use std::collections::HashMap;

/// `entries` with dense ids. An id bound again after a release gets a new number; uses
/// follow the binding in effect.
pub fn dense_ids(entries: &[Entry]) -> Vec<Entry> {
    let mut next = [0u32; AnyId::KINDS];
    let mut map: HashMap<AnyId, AnyId> = HashMap::new();
    entries
        .iter()
        .map(|e| {
            let call = map_ids(&e.call, &mut |id| map.get(&id).copied().unwrap_or(id));
            let ret = e.ret.as_ref().map(|r| match r {
                Ret::Id(id) => {
                    let (k, _) = id.slot();
                    next[k] += 1;
                    let new = id.with_number(next[k]);
                    map.insert(*id, new);
                    Ret::Id(new)
                }
                other => map_ret_ids(other, &mut |id| map.get(&id).copied().unwrap_or(id)),
            });
            Entry { call, ret }
        })
        .collect()
}

pub fn renumber(s: &mut Session) {
    let dense = dense_ids(&s.current);
    if dense != s.current {
        s.first_success("renumber", 1, |_, _| Some(dense.clone()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace_io::{read, render, Format};

    #[test]
    fn ids_become_dense_in_definition_order() {
        let (entries, _) = read(
            b"z3-trace 1\nsort_bv 8\nreturn s4\nconst s4 \"x\"\nreturn t7\nbvadd t7 t7\nreturn t3\nnew_solver\nreturn z9\ncheck_sat_assuming z9\nreturn sat\n",
        )
        .unwrap();
        let text = String::from_utf8(render(&dense_ids(&entries), Format::Text)).unwrap();
        assert_eq!(
            text,
            "z3-trace 1\nsort_bv 8\nreturn s1\nconst s1 \"x\"\nreturn t1\nbvadd t1 t1\nreturn t2\nnew_solver\nreturn z1\ncheck_sat_assuming z1\nreturn sat\n"
        );
    }
}
