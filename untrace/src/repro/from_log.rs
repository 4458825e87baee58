//! A Z3 API log ([`z3log`]) as a [`Program`]: its calls are already Z3 C calls by name (the
//! release's table names each number) with their arguments, so each becomes one
//! [`Z3Call`]; the objects are the addresses the program saw, each binding a variable of its
//! own. As when `untrace` replays a log, a Z3 error is no finding (the program that wrote the
//! log may have expected it): the reproducer goes on; a crash crashes.

use super::{Arg, OnError, Program, Step, Ty, Var, Z3Call};
use std::collections::HashMap;
use z3log::log::{Addr, EntryKind, OutBinding, Symbol, Value};
use z3log::table::{Dir, Function, Prim, Type};

fn ty_of(t: &Type) -> Ty {
    match t {
        Type::Object(name) => Ty::of_table(name).unwrap_or(Ty::Opaque),
        Type::Prim(Prim::Uint) => Ty::Uint,
        Type::Prim(Prim::Bool) => Ty::Bool,
        Type::Prim(Prim::Double) => Ty::Double,
        Type::Prim(Prim::String) => Ty::Str,
        Type::Prim(Prim::Symbol) => Ty::Symbol,
        Type::Prim(_) | Type::Callback(_) => Ty::Int,
    }
}

fn symbol(s: &Symbol) -> Option<Arg> {
    match s {
        Symbol::Str(text) => Some(Arg::Sym(String::from_utf8_lossy(text).into_owned())),
        Symbol::Null => Some(Arg::Null),
        Symbol::Int(_) => None,
    }
}

struct FromLog {
    program: Program,
    names: HashMap<Addr, String>,
    n: u32,
}

impl FromLog {
    fn object(&mut self, a: Addr) -> Arg {
        if a.0 == 0 {
            return Arg::Null;
        }
        match self.names.get(&a) {
            Some(n) => Arg::Var(n.clone()),
            None => {
                self.program.unexpressed.push(format!(
                    "object {a:?} is used before any logged call made it (passed as NULL)"
                ));
                Arg::Null
            }
        }
    }

    fn bind(&mut self, a: Addr, ty: Ty) -> Var {
        self.n += 1;
        let name = format!("o{}", self.n);
        self.names.insert(a, name.clone());
        Var { name, ty }
    }

    /// The arguments of `call` for `f`'s parameters, or why not.
    fn args(&mut self, f: &Function, call: &z3log::log::Call) -> Result<Vec<Arg>, String> {
        let mut values = call.args.iter();
        let mut args = Vec::new();
        for (pos, p) in f.params.iter().enumerate() {
            if !p.is_logged() {
                args.push(Arg::Null);
                continue;
            }
            let v = values.next().ok_or("fewer arguments than parameters")?;
            let ty = ty_of(&p.ty);
            let arg = match (p.dir, v) {
                (Dir::In, Value::Object(a)) => self.object(*a),
                (Dir::In, Value::Int(i)) if ty == Ty::Bool => Arg::Bool(*i != 0),
                (Dir::In, Value::Int(i)) => Arg::Int(*i),
                (Dir::In, Value::Uint(u)) if ty == Ty::Bool => Arg::Bool(*u != 0),
                (Dir::In, Value::Uint(u)) => Arg::Uint(*u),
                (Dir::In, Value::Double(d)) => Arg::Double(*d),
                (Dir::In, Value::Float(d)) => Arg::Double(f64::from(*d)),
                (Dir::In, Value::Str(s)) => Arg::Str(String::from_utf8_lossy(s).into_owned()),
                (Dir::In, Value::Symbol(s)) => symbol(s).ok_or("an integer symbol")?,
                (Dir::InArray { .. }, Value::Objects(v)) => {
                    Arg::Array(ty, v.iter().map(|a| self.object(*a)).collect())
                }
                (Dir::InArray { .. }, Value::Ints(v)) => {
                    Arg::Array(Ty::Int, v.iter().map(|i| Arg::Int(*i)).collect())
                }
                (Dir::InArray { .. }, Value::Uints(v)) if ty == Ty::Bool => {
                    Arg::Array(Ty::Bool, v.iter().map(|u| Arg::Bool(*u != 0)).collect())
                }
                (Dir::InArray { .. }, Value::Uints(v)) => {
                    Arg::Array(Ty::Uint, v.iter().map(|u| Arg::Uint(*u)).collect())
                }
                (Dir::InArray { .. }, Value::Symbols(v)) => Arg::Array(
                    Ty::Symbol,
                    v.iter()
                        .map(symbol)
                        .collect::<Option<Vec<_>>>()
                        .ok_or("an integer symbol")?,
                ),
                (Dir::Out, _) => {
                    let bound = call.outs.iter().find_map(|o| match o {
                        OutBinding::Object { addr, pos: at } if *at as usize == pos => Some(*addr),
                        _ => None,
                    });
                    match bound {
                        Some(a) => Arg::Out(self.bind(a, ty)),
                        None => {
                            self.n += 1;
                            Arg::Out(Var {
                                name: format!("out{}", self.n),
                                ty,
                            })
                        }
                    }
                }
                _ => return Err(format!("parameter {pos}: {} not expressed", v.kind_name())),
            };
            args.push(arg);
        }
        Ok(args)
    }
}

/// The program of the log `loaded` (read from `source`).
pub fn from_log(source: &str, loaded: &z3log::Loaded) -> Program {
    let mut l = FromLog {
        program: Program {
            source: source.to_string(),
            z3_version: loaded.log.version.clone(),
            keeps_contexts: true,
            ..Program::default()
        },
        names: HashMap::new(),
        n: 0,
    };
    for entry in &loaded.log.entries {
        let EntryKind::Call(call) = &entry.kind else {
            continue;
        };
        let Some(f) = loaded.table.function(call.number) else {
            let note = format!(
                "line {}: call number {} is not in the table",
                entry.line, call.number
            );
            l.program.steps.push(Step::Note(note.clone()));
            l.program.unexpressed.push(note);
            continue;
        };
        l.program
            .steps
            .push(Step::Line(format!("line {}: {}", entry.line, f.name)));
        let args = match l.args(f, call) {
            Ok(args) => args,
            Err(why) => {
                let note = format!(
                    "line {} ({}): {why}; the call is left out",
                    entry.line, f.name
                );
                l.program.steps.push(Step::Note(note.clone()));
                l.program.unexpressed.push(note);
                continue;
            }
        };
        let ctx = match args.first() {
            Some(Arg::Var(v)) if matches!(f.params.first().map(|p| &p.ty), Some(Type::Object(o)) if &**o == "CONTEXT") => {
                Some(v.clone())
            }
            _ => None,
        };
        let bind = call.result.map(|a| l.bind(a, ty_of(&f.result)));
        let made_context = bind.as_ref().filter(|v| v.ty == Ty::Context).cloned();
        l.program.steps.push(Step::Call(Z3Call {
            func: f.name.to_string(),
            args,
            bind,
            ctx,
            on_error: OnError::Ignored,
        }));
        if let Some(c) = made_context {
            // Errors are read from the error code, as the log's replay does.
            l.program.steps.push(Step::Call(Z3Call {
                func: "Z3_set_error_handler".into(),
                args: vec![Arg::Var(c.name.clone()), Arg::Null],
                bind: None,
                ctx: Some(c.name),
                on_error: OnError::Ignored,
            }));
        }
    }
    l.program
}
