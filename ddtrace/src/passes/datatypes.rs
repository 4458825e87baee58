//! [`smaller_datatypes`]: the declarations of a `declare_datatypes` call made smaller, one
//! part at a time: a whole datatype of the group, a constructor (a datatype keeps at least
//! one), a field. A failure rarely needs every datatype of the group the fuzzer declared;
//! once a part is gone, the sorts only its fields used become unused and go in the next
//! removal round. Candidates that no longer fit the calls after them (a `dt_cons` with
//! the removed field, a `sort_datatype` of the removed datatype) are rejected by the
//! reference state without a replay.

use crate::session::Session;
use model::datatype::{DatatypeDecl, FieldSort};
use model::{Call, Entry};

/// One way to make a group smaller: remove datatype `datatype`, or its constructor
/// `constructor`, or that constructor's field `field`.
#[derive(Clone, Copy, Debug)]
enum Part {
    Datatype(usize),
    Constructor(usize, usize),
    Field(usize, usize, usize),
}

/// The parts of a group, largest first (a datatype before its constructors before their
/// fields), so the first success removes the most.
fn parts(datatypes: &[DatatypeDecl]) -> Vec<Part> {
    let mut found = Vec::new();
    if datatypes.len() > 1 {
        found.extend((0..datatypes.len()).map(Part::Datatype));
    }
    for (d, datatype) in datatypes.iter().enumerate() {
        if datatype.constructors.len() > 1 {
            found.extend((0..datatype.constructors.len()).map(|c| Part::Constructor(d, c)));
        }
    }
    for (d, datatype) in datatypes.iter().enumerate() {
        for (c, constructor) in datatype.constructors.iter().enumerate() {
            found.extend((0..constructor.fields.len()).map(|f| Part::Field(d, c, f)));
        }
    }
    found
}

/// The group without `part`, or `None` when a remaining field refers to a removed datatype.
fn without(datatypes: &[DatatypeDecl], part: Part) -> Option<Vec<DatatypeDecl>> {
    let mut out = datatypes.to_vec();
    match part {
        Part::Datatype(d) => {
            out.remove(d);
            for field in out
                .iter_mut()
                .flat_map(|dt| dt.constructors.iter_mut())
                .flat_map(|c| c.fields.iter_mut())
            {
                if let FieldSort::Datatype(k) = &mut field.sort {
                    match (*k as usize).cmp(&d) {
                        std::cmp::Ordering::Less => {}
                        std::cmp::Ordering::Equal => return None,
                        std::cmp::Ordering::Greater => *k -= 1,
                    }
                }
            }
        }
        Part::Constructor(d, c) => {
            out[d].constructors.remove(c);
        }
        Part::Field(d, c, f) => {
            out[d].constructors[c].fields.remove(f);
        }
    }
    Some(out)
}

/// The candidates of every `declare_datatypes` call: `(entry, part)`.
fn candidates(entries: &[Entry]) -> Vec<(usize, Part)> {
    entries
        .iter()
        .enumerate()
        .flat_map(|(i, entry)| match &entry.call {
            Call::DeclareDatatypes { datatypes, .. } => {
                parts(datatypes).into_iter().map(|p| (i, p)).collect()
            }
            _ => Vec::new(),
        })
        .collect()
}

/// `entries` with `part` removed from the declaration at entry `i`.
fn apply(entries: &[Entry], (i, part): (usize, Part)) -> Option<Vec<Entry>> {
    let Call::DeclareDatatypes {
        path,
        params,
        datatypes,
    } = &entries.get(i)?.call
    else {
        return None;
    };
    let mut out = entries.to_vec();
    out[i].call = Call::DeclareDatatypes {
        path: *path,
        params: params.clone(),
        datatypes: without(datatypes, part)?,
    };
    Some(out)
}

/// Removes parts of datatype declarations until none can go (first success, then again on
/// the smaller trace).
pub fn smaller_datatypes(s: &mut Session) {
    loop {
        if s.stopped() {
            return;
        }
        let units = candidates(&s.current);
        if units.is_empty() {
            return;
        }
        let accepted = s.first_success("datatypes", units.len(), |current, k| {
            // `current` is the trace the units were computed on until a success.
            apply(current, units[k])
        });
        if !accepted {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::datatype::{ConstructorDecl, FieldDecl};
    use model::SortId;

    fn group() -> Vec<DatatypeDecl> {
        let field = |name: &str, sort| FieldDecl {
            name: name.into(),
            sort,
        };
        vec![
            DatatypeDecl {
                name: "A".into(),
                constructors: vec![ConstructorDecl {
                    name: "a".into(),
                    fields: vec![field("x", FieldSort::Sort(SortId(1)))],
                }],
            },
            DatatypeDecl {
                name: "B".into(),
                constructors: vec![
                    ConstructorDecl {
                        name: "b0".into(),
                        fields: vec![],
                    },
                    ConstructorDecl {
                        name: "b1".into(),
                        fields: vec![
                            field("y", FieldSort::Datatype(1)),
                            field("z", FieldSort::Datatype(2)),
                        ],
                    },
                ],
            },
            DatatypeDecl {
                name: "C".into(),
                constructors: vec![ConstructorDecl {
                    name: "c".into(),
                    fields: vec![],
                }],
            },
        ]
    }

    #[test]
    fn removing_a_datatype_renumbers_the_later_ones_and_refuses_used_ones() {
        let g = group();
        let no_a = without(&g, Part::Datatype(0)).unwrap();
        assert_eq!(no_a.len(), 2);
        assert_eq!(
            no_a[0].constructors[1].fields[1].sort,
            FieldSort::Datatype(1)
        );
        assert!(
            without(&g, Part::Datatype(2)).is_none(),
            "B's field z uses C"
        );
    }

    #[test]
    fn parts_list_datatypes_then_constructors_then_fields() {
        let p = parts(&group());
        let kinds: Vec<char> = p
            .iter()
            .map(|p| match p {
                Part::Datatype(_) => 'd',
                Part::Constructor(..) => 'c',
                Part::Field(..) => 'f',
            })
            .collect();
        assert_eq!(kinds.iter().collect::<String>(), "dddccfff");
        // A datatype keeps at least one constructor: only B's two are candidates.
        assert!(p
            .iter()
            .all(|p| !matches!(p, Part::Constructor(d, _) if *d != 1)));
    }
}
