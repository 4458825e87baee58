//! The calls that are their description's one Z3 function and nothing else
//! (`model::plain_call!`): which parameter of the function takes which argument of the call
//! is decided here once ([`lowered`]), from the description (`Call::walk`, the `z3:` function
//! of its `CallSpec`) and the function's C signature in z3log's 4.8.12 table. The executor
//! makes that call by name in the loaded libz3 ([`Executor::run_plain`], through
//! `z3log::replay::Direct`), and the reproducer writers print the same call
//! (`repro::lower`), so such a call needs no code of its own in either.
//!
//! The executor passes terms and sorts (the `z3` crate gives the raw handles of no other
//! object) and keeps a term or nothing as the result; `plain_calls_are_callable` checks
//! every plain call against that.

use super::{ExecError, Executor, Outcome};
use crate::repro::Ty;
use model::call::{AnyId, Call, ModelId, OptId, RetKind, SolverId, SolverKind, TermId};
use model::call_args::{List, Visit};
use model::datatype::DatatypeDecl;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::OnceLock;
use z3::ast::{Ast, Dynamic};
use z3log::log::{Addr, Symbol, Value};
use z3log::replay::{Direct, Returned};
use z3log::table::{Dir, Function, Prim, Table, Type};

/// One parameter of the Z3 function after its context, filled from the call.
#[derive(Clone, Debug, PartialEq)]
pub enum Param {
    /// An object the call names.
    Obj(AnyId),
    /// An array of objects of this type (its length is the [`Param::Size`] it names).
    Objs(Vec<AnyId>, Ty),
    /// The length of an array parameter.
    Size(u64),
    Uint(u64),
    Int(i64),
    Bool(bool),
    /// A C string.
    Str(String),
    /// A string symbol.
    Sym(String),
    /// An out-parameter of this type.
    Out(Ty),
}

/// A plain call as its Z3 function's call.
#[derive(Clone, Debug)]
pub struct Lowered {
    pub function: Function,
    /// The parameters after the context, in order.
    pub params: Vec<Param>,
    /// The type of the function's result, if it has one the writers name.
    pub result: Option<Ty>,
    /// The call's first object that is no term or sort (in trace order): the call runs in
    /// its context.
    pub ctx_object: Option<AnyId>,
}

/// The arguments of a call in trace order.
#[derive(Default)]
struct Queue(Vec<Item>);

enum Item {
    Obj(AnyId),
    Objs(Vec<AnyId>, Ty),
    Number(u64),
    Int(i64),
    Flag(bool),
    Text(String),
}

/// The type of an object id in the tables' terms.
pub fn id_ty(id: &AnyId) -> Ty {
    match id {
        AnyId::Sort(_) => Ty::Sort,
        AnyId::Term(_) => Ty::Ast,
        AnyId::Func(_) => Ty::FuncDecl,
        AnyId::Solver(_) => Ty::Solver,
        AnyId::Model(_) => Ty::Model,
        AnyId::Rcf(_) => Ty::RcfNum,
        AnyId::Tactic(_) => Ty::Tactic,
        AnyId::Goal(_) => Ty::Goal,
        AnyId::Opt(_) => Ty::Optimize,
    }
}

impl Visit for Queue {
    fn head(&mut self, _spec: &'static model::call_args::CallSpec) {}
    fn sort(&mut self, id: &model::SortId) {
        self.0.push(Item::Obj(AnyId::Sort(*id)));
    }
    fn term(&mut self, id: &TermId) {
        self.0.push(Item::Obj(AnyId::Term(*id)));
    }
    fn func(&mut self, id: &model::FuncId) {
        self.0.push(Item::Obj(AnyId::Func(*id)));
    }
    fn solver(&mut self, id: &SolverId) {
        self.0.push(Item::Obj(AnyId::Solver(*id)));
    }
    fn model(&mut self, id: &ModelId) {
        self.0.push(Item::Obj(AnyId::Model(*id)));
    }
    fn tactic(&mut self, id: &model::call::TacticId) {
        self.0.push(Item::Obj(AnyId::Tactic(*id)));
    }
    fn goal(&mut self, id: &model::call::GoalId) {
        self.0.push(Item::Obj(AnyId::Goal(*id)));
    }
    fn opt(&mut self, id: &OptId) {
        self.0.push(Item::Obj(AnyId::Opt(*id)));
    }
    fn rcf(&mut self, id: &model::call::RcfId) {
        self.0.push(Item::Obj(AnyId::Rcf(*id)));
    }
    fn rcfs(&mut self, ids: &Vec<model::call::RcfId>) {
        let ids = ids.iter().map(|r| AnyId::Rcf(*r)).collect();
        self.0.push(Item::Objs(ids, Ty::RcfNum));
    }
    fn any(&mut self, _id: &AnyId) {}
    fn number(&mut self, n: &u32, _what: &'static str) {
        self.0.push(Item::Number(u64::from(*n)));
    }
    fn int(&mut self, n: &i32, _what: &'static str) {
        self.0.push(Item::Int(i64::from(*n)));
    }
    fn flag(&mut self, b: &bool, _what: &'static str) {
        self.0.push(Item::Flag(*b));
    }
    fn string(&mut self, s: &String, _what: &'static str) {
        self.0.push(Item::Text(s.clone()));
    }
    fn indices(&mut self, _op: &model::call::Op, indices: &Vec<u32>) {
        self.0
            .extend(indices.iter().map(|i| Item::Number(u64::from(*i))));
    }
    fn sorts(&mut self, ids: &Vec<model::SortId>) {
        self.0.push(Item::Objs(
            ids.iter().map(|s| AnyId::Sort(*s)).collect(),
            Ty::Sort,
        ));
    }
    fn terms(&mut self, ids: &Vec<TermId>, _list: List) {
        self.0.push(Item::Objs(
            ids.iter().map(|t| AnyId::Term(*t)).collect(),
            Ty::Ast,
        ));
    }
    fn terms_until(&mut self, ids: &Vec<TermId>, _stop: &'static str) {
        self.terms(ids, List::Fixed);
    }
    fn term_pairs(&mut self, _pairs: &Vec<(TermId, TermId)>, _what: &'static str) {}
    fn string_pairs(&mut self, _pairs: &Vec<(String, String)>, _what: &'static str) {}
    fn weighted(&mut self, _pairs: &Vec<(i32, TermId)>, _list: List) {}
    fn patterns(&mut self, _patterns: &Vec<Vec<TermId>>, _no_patterns: &Vec<TermId>) {}
    fn solver_kind(&mut self, _kind: &SolverKind) {}
    fn probe(&mut self, _probe: &model::call::ProbeTest) {}
    fn datatypes(
        &mut self,
        _path: &model::datatype::DeclPath,
        _params: &Vec<String>,
        _datatypes: &Vec<DatatypeDecl>,
    ) {
    }
}

/// The writers' type of a table type.
pub fn ty_of(t: &Type) -> Option<Ty> {
    match t {
        Type::Object(name) => Ty::of_table(name),
        Type::Prim(Prim::Lbool) | Type::Prim(Prim::Int) => Some(Ty::Int),
        Type::Prim(Prim::Uint) => Some(Ty::Uint),
        Type::Prim(Prim::Bool) => Some(Ty::Bool),
        Type::Prim(Prim::String) => Some(Ty::Str),
        Type::Prim(Prim::Double) => Some(Ty::Double),
        Type::Prim(Prim::Symbol) => Some(Ty::Symbol),
        Type::Prim(Prim::Void) => None,
        Type::Prim(_) | Type::Callback(_) => None,
    }
}

/// The table the plain calls are lowered with (their C signatures are the same in every
/// release the tables hold: `plain_calls_are_callable`).
pub fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| Table::for_version("4.8.12.0").expect("the 4.8.12 table is compiled in"))
}

/// The newest release's table: the functions of plain calls that 4.8.12 lacks (Z3's finite
/// sets) are lowered with it (a replay looks them up by name, `read::missing_function`).
pub fn newest_table() -> &'static Table {
    static NEWEST: OnceLock<Table> = OnceLock::new();
    NEWEST.get_or_init(|| {
        let newest = z3log::table::known_versions()
            .last()
            .copied()
            .expect("tables are compiled in");
        Table::for_version(newest).expect("a compiled-in table")
    })
}

/// `call` as the call of its description's first Z3 function: the function's parameters
/// (from `table`) take the call's arguments of their kind in order. `None` when they do not
/// (a parameter without a matching argument, or an argument left over).
pub fn lowered(call: &Call, table: &Table) -> Option<Lowered> {
    let name = call.spec().z3.first()?;
    let function = table
        .by_name(name)
        .or_else(|| newest_table().by_name(name))?;
    let (params, ctx_object) = fill(call, function)?;
    Some(Lowered {
        result: ty_of(&function.result),
        function: function.clone(),
        params,
        ctx_object,
    })
}

/// The parameters of `function` after its context filled from `call`, and the call's
/// context object (see [`Lowered`]).
fn fill(call: &Call, function: &Function) -> Option<(Vec<Param>, Option<AnyId>)> {
    let mut queue = Queue::default();
    call.walk(&mut queue);
    let mut items = queue.0;
    let ctx_object = items.iter().find_map(|i| match i {
        Item::Obj(
            id @ (AnyId::Func(_)
            | AnyId::Solver(_)
            | AnyId::Model(_)
            | AnyId::Tactic(_)
            | AnyId::Goal(_)
            | AnyId::Opt(_)),
        ) => Some(*id),
        _ => None,
    });
    let sizes: Vec<u32> = function
        .params
        .iter()
        .filter_map(|p| match p.dir {
            Dir::InArray { size } => Some(size),
            _ => None,
        })
        .collect();
    let take = |items: &mut Vec<Item>, pred: &dyn Fn(&Item) -> bool| -> Option<Item> {
        let i = items.iter().position(pred)?;
        Some(items.remove(i))
    };
    let mut params = Vec::new();
    for (pos, p) in function.params.iter().enumerate().skip(1) {
        if sizes.contains(&(pos as u32)) {
            params.push(Param::Size(0)); // Filled below from the array.
            continue;
        }
        let want = ty_of(&p.ty)?;
        let param = match (p.dir, want) {
            (Dir::In, Ty::Uint) => match take(&mut items, &|i| matches!(i, Item::Number(_))) {
                Some(Item::Number(n)) => Param::Uint(n),
                _ => return None,
            },
            (Dir::In, Ty::Int) => match take(&mut items, &|i| matches!(i, Item::Int(_))) {
                Some(Item::Int(n)) => Param::Int(n),
                _ => return None,
            },
            (Dir::In, Ty::Bool) => match take(&mut items, &|i| matches!(i, Item::Flag(_))) {
                Some(Item::Flag(b)) => Param::Bool(b),
                _ => return None,
            },
            (Dir::In, Ty::Str) => match take(&mut items, &|i| matches!(i, Item::Text(_))) {
                Some(Item::Text(s)) => Param::Str(s),
                _ => return None,
            },
            (Dir::In, Ty::Symbol) => match take(&mut items, &|i| matches!(i, Item::Text(_))) {
                Some(Item::Text(s)) => Param::Sym(s),
                _ => return None,
            },
            (Dir::In, ty) => match take(
                &mut items,
                &|i| matches!(i, Item::Obj(id) if id_ty(id) == ty),
            ) {
                Some(Item::Obj(id)) => Param::Obj(id),
                _ => return None,
            },
            (Dir::InArray { size }, ty) => {
                match take(&mut items, &|i| matches!(i, Item::Objs(_, t) if *t == ty)) {
                    Some(Item::Objs(ids, _)) => {
                        params[size as usize - 1] = Param::Size(ids.len() as u64);
                        Param::Objs(ids, ty)
                    }
                    _ => return None,
                }
            }
            (Dir::Out, ty) => Param::Out(ty),
            _ => return None,
        };
        params.push(param);
    }
    if items
        .iter()
        .any(|i| !matches!(i, Item::Objs(ids, _) if ids.is_empty()))
    {
        return None;
    }
    Some((params, ctx_object))
}

fn no_term(function: &Function) -> ExecError {
    ExecError::Z3(format!("{}: Z3 returned no term", function.name))
}

thread_local! {
    /// The plain calls' functions resolved in the loaded libz3, by name.
    static RESOLVED: RefCell<HashMap<&'static str, Rc<Direct>>> = RefCell::new(HashMap::new());
}

/// The Z3 function `name` of the table, resolved in the loaded libz3 once per thread.
fn resolved(name: &'static str) -> Result<Rc<Direct>, String> {
    RESOLVED.with(|map| {
        if let Some(direct) = map.borrow().get(name) {
            return Ok(direct.clone());
        }
        let function = table()
            .by_name(name)
            .or_else(|| newest_table().by_name(name))
            .ok_or_else(|| format!("{name} is not in Z3's API"))?;
        let direct = Rc::new(Direct::resolve(function)?);
        map.borrow_mut().insert(name, direct.clone());
        Ok(direct)
    })
}

/// Reads the table and resolves every plain call's function now, so that a process forked
/// after (mbt's workers, a round each) does not pay for it again in its first plain call
/// (reading the table is most of it).
pub fn prepare() {
    for call in Call::templates() {
        if let (model::plain_call!(), Some(name)) = (call, call.spec().z3.first()) {
            // A function the loaded Z3 lacks is reported by the call that needs it.
            let _ = resolved(name);
        }
    }
}

impl Executor {
    /// Runs a call that is its description's one Z3 function by that function's name.
    pub(super) fn run_plain(&mut self, call: &Call) -> Result<Outcome, ExecError> {
        let unfit = |why: &str| ExecError::Malformed(format!("`{}`: {why}", call.name()));
        let name = call
            .spec()
            .z3
            .first()
            .ok_or_else(|| unfit("no Z3 function"))?;
        let direct = resolved(name).map_err(ExecError::Malformed)?;
        // Some of these (`Z3_mk_set_add`, ...) never show in Z3's log.
        super::unlogged::note(name);
        let (params, _) = fill(call, direct.function())
            .ok_or_else(|| unfit("its Z3 function's parameters do not take its arguments"))?;
        let pointer = |p: *mut std::ffi::c_void| Value::Object(Addr(p as usize as u64));
        let mut args = vec![pointer(self.main.get_z3_context().as_ptr().cast())];
        for param in &params {
            let object = |id: &AnyId| -> Result<Value, ExecError> {
                Ok(match id {
                    AnyId::Term(t) => pointer(self.z3_term(*t)?.get_z3_ast().as_ptr().cast()),
                    AnyId::Sort(s) => pointer(self.z3_sort(*s)?.get_z3_sort().as_ptr().cast()),
                    other => return Err(unfit(&format!("the executor passes no {other} by name"))),
                })
            };
            args.push(match param {
                Param::Obj(id) => object(id)?,
                Param::Objs(ids, _) => Value::Objects(
                    ids.iter()
                        .map(|id| match object(id)? {
                            Value::Object(a) => Ok(a),
                            _ => Err(unfit("an array of objects")),
                        })
                        .collect::<Result<_, _>>()?,
                ),
                Param::Size(n) | Param::Uint(n) => Value::Uint(*n),
                Param::Int(n) => Value::Int(*n),
                Param::Bool(b) => Value::Int(i64::from(*b)),
                Param::Str(s) => Value::Str(s.as_bytes().into()),
                Param::Sym(s) => Value::Symbol(Symbol::Str(s.as_bytes().into())),
                Param::Out(_) => return Err(unfit("the executor reads no out-parameter by name")),
            });
        }
        let returned = self
            .main(|| direct.call(&args))?
            .map_err(|why| unfit(&why))?;
        match (call.ret_kind(), returned) {
            (RetKind::Term, Returned::Object(ast)) => {
                let made = std::ptr::NonNull::new(ast.cast());
                // SAFETY: a `Z3_ast` the function just made in the main context without an
                // error (the guard above); `wrap` takes a reference to it.
                let term = made.map(|ast| unsafe { Dynamic::wrap(&self.main, ast) });
                term.map(Outcome::Term)
                    .ok_or_else(|| no_term(direct.function()))
            }
            (RetKind::Term, _) => Err(no_term(direct.function())),
            (RetKind::None, _) => Ok(Outcome::Nothing),
            (kind, _) => Err(unfit(&format!(
                "the executor keeps no {kind:?} result of a call by name"
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every plain call lowers with its description's function, passes only what the
    /// executor can pass, returns what it keeps, and its function has the same C signature
    /// in every release the tables hold.
    #[test]
    fn plain_calls_are_callable() {
        let plain: Vec<&Call> = Call::templates()
            .iter()
            .filter(|c| matches!(c, model::plain_call!()))
            .collect();
        assert!(!plain.is_empty());
        for call in plain {
            let l =
                lowered(call, table()).unwrap_or_else(|| panic!("{} does not lower", call.name()));
            for p in &l.params {
                match p {
                    Param::Obj(id) => {
                        assert!(
                            matches!(id_ty(id), Ty::Ast | Ty::Sort),
                            "{}: {p:?}",
                            call.name()
                        )
                    }
                    Param::Objs(_, ty) => {
                        assert!(matches!(ty, Ty::Ast | Ty::Sort), "{}", call.name())
                    }
                    Param::Out(_) => panic!("{}: an out-parameter", call.name()),
                    _ => {}
                }
            }
            assert!(
                matches!(call.ret_kind(), RetKind::Term | RetKind::None),
                "{}",
                call.name()
            );
            // A function of the newer releases only (Z3's finite sets) is the same in each
            // release that has it, and so is one the 5.x releases dropped
            // (`Z3_mk_set_has_size`, last in 4.15.4); every other in every release.
            let newer = table().by_name(&l.function.name).is_none();
            let dropped = &*l.function.name == "Z3_mk_set_has_size";
            for version in z3log::table::known_versions() {
                let t = Table::for_version(version).expect("a compiled-in table");
                let Some(f) = t.by_name(&l.function.name) else {
                    assert!(newer || dropped, "{} lacks {}", version, l.function.name);
                    continue;
                };
                assert_eq!(
                    (&f.params, &f.result),
                    (&l.function.params, &l.function.result),
                    "{version}"
                );
            }
        }
    }
}
