//! The Z3 API log writer: a [`Program`] as the log that the chosen release's Z3 writes for
//! the same calls (`Z3_open_log`), numbered by that release's table, so that its `z3 -log`
//! (and `untrace`, through the `z3log` crate) replays it. A log has no conditions: it
//! reproduces crashes; the oracle's and the recorded answers' checks are left out (listed in
//! the log's first message).

use super::{comment_text, Arg, Program, Step, Ty};
use std::collections::HashMap;
use z3log::log::{Addr, Call, Entry, EntryKind, Log, OutBinding, Symbol, Value};
use z3log::table::Table;

/// The log of `p` for `release` (a version `table::known_versions` lists), or why not: a
/// function the release lacks.
pub fn write(p: &Program, release: &str) -> Result<String, String> {
    let table = Table::for_version(release).map_err(|e| e.to_string())?;
    let mut addrs: HashMap<String, Addr> = HashMap::new();
    let mut next = 0x1000u64;
    let mut texts = std::collections::HashSet::new();
    let mut log = Log {
        version: Some(release.to_string()),
        ..Log::default()
    };
    let entry = |kind| Entry {
        kind,
        first_line: 0,
        line: 0,
        last_line: 0,
    };
    let mut head = format!("reproducer of {}", comment_text(&p.source));
    for e in &p.expected {
        head.push_str("; ");
        head.push_str(&comment_text(e));
    }
    head.push_str("; a log replays the calls only: answers and checks are not compared");
    log.entries
        .push(entry(EntryKind::Message(head.into_bytes().into())));
    for step in &p.steps {
        let c = match step {
            Step::Call(c) => c,
            // Another name for the same object: the same address.
            Step::Alias { var, of } => {
                if let Some(a) = addrs.get(of).copied() {
                    addrs.insert(var.name.clone(), a);
                }
                continue;
            }
            // A log has no form for the callbacks of a user propagator (Z3's log does not
            // write them either): the check is left out, as every check is.
            Step::Line(_) | Step::Fail { .. } | Step::Note(_) | Step::Propagate(_) => continue,
        };
        // Text Z3 made at run time (a dump) is a value in a log, unknown here: such a call
        // is left out, and the log says so.
        let uses_text = c
            .args
            .iter()
            .any(|a| matches!(a, Arg::Var(v) if texts.contains(v)));
        if let Some(v) = c.bind.as_ref().filter(|v| v.ty == Ty::Str) {
            texts.insert(v.name.clone());
        }
        if uses_text {
            let note = format!(
                "left out: {}, whose text argument Z3 makes at run time",
                c.func
            );
            log.entries
                .push(entry(EntryKind::Message(note.into_bytes().into())));
            continue;
        }
        if c.func == "Z3_set_error_handler" {
            continue; // Z3's writer logs no callback.
        }
        let Some(f) = table.by_name(&c.func) else {
            return Err(format!(
                "{} has no {} (the log cannot name it)",
                release, c.func
            ));
        };
        let mut addr_of = |v: &str, addrs: &mut HashMap<String, Addr>| {
            *addrs.entry(v.to_string()).or_insert_with(|| {
                next += 0x10;
                Addr(next)
            })
        };
        let mut args = Vec::new();
        let mut outs = Vec::new();
        for (pos, a) in c.args.iter().enumerate() {
            args.push(match a {
                Arg::Var(v) | Arg::Conv(_, v) => Value::Object(addr_of(v, &mut addrs)),
                Arg::Null => Value::Object(Addr(0)),
                Arg::Bool(b) => Value::Int(i64::from(*b)),
                Arg::Int(i) => Value::Int(*i),
                Arg::Uint(u) => Value::Uint(*u),
                Arg::Double(d) => Value::Double(*d),
                Arg::Str(s) => Value::Str(s.as_bytes().into()),
                Arg::Sym(s) => Value::Symbol(Symbol::Str(s.as_bytes().into())),
                Arg::Array(ty, elems) => match ty {
                    Ty::Symbol => Value::Symbols(
                        elems
                            .iter()
                            .map(|e| match e {
                                Arg::Sym(s) => Symbol::Str(s.as_bytes().into()),
                                _ => Symbol::Null,
                            })
                            .collect(),
                    ),
                    Ty::Int => Value::Ints(
                        elems
                            .iter()
                            .map(|e| match e {
                                Arg::Int(i) => *i,
                                _ => 0,
                            })
                            .collect(),
                    ),
                    _ => Value::Objects(
                        elems
                            .iter()
                            .map(|e| match e {
                                Arg::Var(v) | Arg::Conv(_, v) => addr_of(v, &mut addrs),
                                _ => Addr(0),
                            })
                            .collect(),
                    ),
                },
                Arg::Out(v) => {
                    let a = addr_of(&v.name, &mut addrs);
                    if v.ty.inc_ref().is_some() {
                        outs.push(OutBinding::Object {
                            addr: a,
                            pos: pos as u32,
                        });
                    }
                    match v.ty {
                        Ty::Uint => Value::Uint(0),
                        Ty::Int | Ty::Bool | Ty::Lbool => Value::Int(0),
                        _ => Value::Object(Addr(0)),
                    }
                }
            });
        }
        let result = c
            .bind
            .as_ref()
            .filter(|_| f.result.is_object())
            .map(|v| addr_of(&v.name, &mut addrs));
        log.entries.push(entry(EntryKind::Call(Call {
            number: f.number,
            args,
            result,
            outs,
        })));
    }
    Ok(z3log::log::write(&log))
}
