//! Algebraic datatypes as the trace declares them ([`DatatypeDecl`]) and as the reference
//! state knows them ([`Datatype`]).
//!
//! A `declare_datatypes` call declares a group of datatypes that may refer to each other
//! (mutual recursion) and share sort parameters (parametric datatypes). A field's sort is an
//! existing sort id, a datatype of the group (at the group's parameters) or a parameter
//! ([`FieldSort`]). The state keeps each datatype by name with its fields resolved to model
//! sorts ([`FieldType`]); an instance is a `Sort::Named(name, parameter sorts)` made by
//! `sort_datatype`, and [`Datatype::field_sort`] gives a field's sort in an instance.
//!
//! [`DeclPath`] is how the executor declares the group: through the API
//! (`Z3_mk_datatypes`) or through Z3's SMT-LIB parser (`declare-datatypes`, the only way for
//! parametric datatypes on Z3 4.8.12, which has no `Z3_mk_datatype_sort`). [`smtlib_decl`]
//! writes a group as SMT-LIB, for the parser path, `untrace --smt2` and the evaluator.

use crate::call::SortId;
use crate::sort::Sort;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

/// The trace names of the datatype calls.
pub fn call_names() -> &'static [&'static str] {
    static NAMES: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| crate::call_args::calls_of(crate::call_args::Family::Datatypes))
}

/// How the executor declares a group of datatypes. The last four are Z3's makers of one
/// datatype of a special shape ([`shape_fits`] says which declarations each takes): the
/// datatype they make is an ordinary datatype for everything else (constructors, testers,
/// accessors, models, SMT-LIB form). Variants are appended only (the binary format numbers
/// them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DeclPath {
    /// `Z3_mk_constructor` / `Z3_mk_datatypes`.
    Api,
    /// `Z3_parse_smtlib2_string` of `(declare-datatypes ...)`.
    Parser,
    /// `Z3_mk_enumeration_sort`: one datatype whose constructors have no fields.
    Enumeration,
    /// `Z3_mk_tuple_sort`: one datatype of one constructor, named as the datatype, whose
    /// fields are of existing sorts.
    Tuple,
    /// `Z3_mk_list_sort`: one datatype `nil | cons(head: E, tail: itself)`, the names Z3
    /// gives (`nil`, `cons`, `head`, `tail`).
    List,
    /// `Z3_mk_constructor` / `Z3_mk_datatype` (the singular maker) of one datatype, with
    /// `Z3_query_constructor` reading each constructor back.
    Single,
}

impl DeclPath {
    pub const ALL: [DeclPath; 6] = [
        DeclPath::Api,
        DeclPath::Parser,
        DeclPath::Enumeration,
        DeclPath::Tuple,
        DeclPath::List,
        DeclPath::Single,
    ];

    pub fn name(self) -> &'static str {
        match self {
            DeclPath::Api => "api",
            DeclPath::Parser => "parser",
            DeclPath::Enumeration => "enum",
            DeclPath::Tuple => "tuple",
            DeclPath::List => "list",
            DeclPath::Single => "single",
        }
    }

    pub fn from_name(name: &str) -> Option<DeclPath> {
        DeclPath::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// Whether a group fits the shape its path's maker takes (`Ok`), or why not. The API and the
/// parser take every group (the parser's parametric ones are checked by [`resolve`]).
pub fn shape_fits(path: DeclPath, params: &[String], decls: &[DatatypeDecl]) -> Result<(), String> {
    let single = match (path, decls) {
        (DeclPath::Api | DeclPath::Parser, _) => return Ok(()),
        (_, [d]) if params.is_empty() => d,
        _ => {
            return Err(format!(
                "`declare_datatypes {}` declares one datatype without parameters",
                path.name()
            ))
        }
    };
    let ctors = &single.constructors;
    let ok = match path {
        DeclPath::Api | DeclPath::Parser | DeclPath::Single => true,
        DeclPath::Enumeration => ctors.iter().all(|c| c.fields.is_empty()),
        // Z3 names the tuple's constructor as the tuple.
        DeclPath::Tuple => {
            ctors.len() == 1
                && ctors[0].name == single.name
                && ctors[0]
                    .fields
                    .iter()
                    .all(|f| matches!(f.sort, FieldSort::Sort(_)))
        }
        DeclPath::List => match ctors.as_slice() {
            [nil, cons] => {
                nil.name == LIST_NAMES[0]
                    && nil.fields.is_empty()
                    && cons.name == LIST_NAMES[1]
                    && matches!(cons.fields.as_slice(), [h, t]
                        if h.name == LIST_NAMES[2] && matches!(h.sort, FieldSort::Sort(_))
                            && t.name == LIST_NAMES[3] && t.sort == FieldSort::Datatype(0))
            }
            _ => false,
        },
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "datatype `{}` does not have the shape `declare_datatypes {}` makes",
            single.name,
            path.name()
        ))
    }
}

/// The names `Z3_mk_list_sort` gives a list's constructors and fields: the empty list, the
/// cell, its element and its rest.
pub const LIST_NAMES: [&str; 4] = ["nil", "cons", "head", "tail"];

/// The sort of a field as a declaration writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FieldSort {
    /// An existing sort (`sN` in a text trace).
    Sort(SortId),
    /// The k-th datatype of the group at the group's parameters (`dK`).
    Datatype(u32),
    /// The k-th sort parameter of the group (`pK`).
    Param(u32),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FieldDecl {
    pub name: String,
    pub sort: FieldSort,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ConstructorDecl {
    pub name: String,
    pub fields: Vec<FieldDecl>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DatatypeDecl {
    pub name: String,
    pub constructors: Vec<ConstructorDecl>,
}

/// A field's sort with sort ids resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldType {
    Sort(Sort),
    /// A datatype of the group, by name, at the group's parameters.
    Datatype(String),
    Param(u32),
}

/// A declared datatype as the reference state keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Datatype {
    pub params: Vec<String>,
    /// Constructors with their fields (name, type), in declaration order.
    pub constructors: Vec<(String, Vec<(String, FieldType)>)>,
    /// The names of the group's datatypes, in order (the group's declaration is the unit
    /// that SMT-LIB writes).
    pub group: Vec<String>,
}

impl Datatype {
    pub fn constructor(&self, name: &str) -> Option<&[(String, FieldType)]> {
        self.constructors
            .iter()
            .find(|(c, _)| c == name)
            .map(|(_, f)| f.as_slice())
    }

    /// The constructor index and field index of field `name`.
    pub fn field(&self, name: &str) -> Option<(usize, usize)> {
        self.constructors
            .iter()
            .enumerate()
            .find_map(|(c, (_, fs))| fs.iter().position(|(f, _)| f == name).map(|k| (c, k)))
    }

    /// The sort of a field of type `ty` in the instance with parameter sorts `params`.
    pub fn instantiate(ty: &FieldType, params: &[Sort]) -> Sort {
        match ty {
            FieldType::Sort(s) => s.clone(),
            FieldType::Datatype(name) => Sort::Named(name.clone(), params.to_vec()),
            FieldType::Param(k) => params.get(*k as usize).cloned().unwrap_or(Sort::Bool),
        }
    }

    /// The field sorts of constructor number `ctor` in the instance at `params`.
    pub fn field_sorts(&self, ctor: usize, params: &[Sort]) -> Vec<Sort> {
        self.constructors[ctor]
            .1
            .iter()
            .map(|(_, ty)| Datatype::instantiate(ty, params))
            .collect()
    }
}

/// A name a datatype, constructor or field may have: a simple SMT-LIB symbol of letters,
/// digits and `_`, starting with a letter, that names no sort or operation of SMT-LIB.
pub fn valid_name(name: &str) -> bool {
    const RESERVED: &[&str] = &[
        "Bool",
        "Int",
        "Real",
        "String",
        "Array",
        "Seq",
        "BitVec",
        "RegLan",
        "RoundingMode",
        "FloatingPoint",
        "Float32",
        "Float64",
        "let",
        "par",
        "as",
        "is",
        // Z3 predefines `(List T)` (`insert`, `head`, `tail`).
        "List",
    ];
    name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name.len() <= 64
        && !RESERVED.contains(&name)
        && crate::ops::lookup(name).is_none()
}

/// Checks a declaration group against the names and sorts in use, and resolves it: the
/// datatypes in group order, or why the group cannot be declared. `sort` resolves sort ids;
/// `taken` says whether a name is already a datatype, constructor, field or uninterpreted
/// sort.
pub fn resolve(
    path: DeclPath,
    params: &[String],
    decls: &[DatatypeDecl],
    sort: impl Fn(SortId) -> Result<Sort, String>,
    taken: impl Fn(&str) -> bool,
) -> Result<Vec<(String, Datatype)>, String> {
    if decls.is_empty() {
        return Err("declare_datatypes declares no datatype".into());
    }
    if !params.is_empty() && path == DeclPath::Api {
        return Err(
            "parametric datatypes are declared through the parser (Z3 4.8.12 has no API for them)"
                .into(),
        );
    }
    shape_fits(path, params, decls)?;
    let mut names = HashSet::new();
    let mut fresh = |name: &str, what: &str| -> Result<(), String> {
        if !valid_name(name) {
            return Err(format!("`{name}` cannot name a {what} (a simple symbol of letters, digits and `_`, no SMT-LIB name)"));
        }
        if taken(name) || !names.insert(name.to_string()) {
            return Err(format!("the {what} name `{name}` is already in use"));
        }
        Ok(())
    };
    for p in params {
        fresh(p, "sort parameter")?;
    }
    let group: Vec<String> = decls.iter().map(|d| d.name.clone()).collect();
    let mut out = Vec::new();
    for d in decls {
        fresh(&d.name, "datatype")?;
        if d.constructors.is_empty() {
            return Err(format!("datatype `{}` has no constructor", d.name));
        }
        let mut constructors = Vec::new();
        for c in &d.constructors {
            // A tuple's constructor has the tuple's name (a function, not a sort).
            if !(path == DeclPath::Tuple && c.name == d.name) {
                fresh(&c.name, "constructor")?;
            }
            let mut fields = Vec::new();
            for f in &c.fields {
                fresh(&f.name, "field")?;
                let ty = match f.sort {
                    FieldSort::Sort(id) => {
                        let s = sort(id)?;
                        if s == Sort::RegLan {
                            return Err(format!("field `{}` of sort RegLan", f.name));
                        }
                        FieldType::Sort(s)
                    }
                    FieldSort::Datatype(k) => FieldType::Datatype(
                        group
                            .get(k as usize)
                            .ok_or_else(|| {
                                format!(
                                    "field `{}` names datatype d{k} of a group of {}",
                                    f.name,
                                    group.len()
                                )
                            })?
                            .clone(),
                    ),
                    FieldSort::Param(k) if (k as usize) < params.len() => FieldType::Param(k),
                    FieldSort::Param(k) => {
                        return Err(format!(
                            "field `{}` names parameter p{k} of {}",
                            f.name,
                            params.len()
                        ))
                    }
                };
                fields.push((f.name.clone(), ty));
            }
            constructors.push((c.name.clone(), fields));
        }
        out.push((
            d.name.clone(),
            Datatype {
                params: params.to_vec(),
                constructors,
                group: group.clone(),
            },
        ));
    }
    well_founded(&out)?;
    Ok(out)
}

/// Every datatype of the group has a value: some constructor whose fields of the group's
/// datatypes are all of datatypes already known to have one (Z3 refuses the group otherwise).
fn well_founded(group: &[(String, Datatype)]) -> Result<(), String> {
    let mut inhabited: HashSet<&str> = HashSet::new();
    loop {
        let before = inhabited.len();
        for (name, d) in group {
            let ok = d.constructors.iter().any(|(_, fields)| {
                fields.iter().all(|(_, ty)| match ty {
                    FieldType::Datatype(n) => inhabited.contains(n.as_str()),
                    _ => true,
                })
            });
            if ok {
                inhabited.insert(name);
            }
        }
        if inhabited.len() == group.len() {
            return Ok(());
        }
        if inhabited.len() == before {
            let empty = group
                .iter()
                .find(|(n, _)| !inhabited.contains(n.as_str()))
                .map(|(n, _)| n.as_str())
                .unwrap_or("");
            return Err(format!(
                "datatype `{empty}` has no finite value (not well-founded)"
            ));
        }
    }
}

/// The SMT-LIB v2.6 `declare-datatypes` of a group; `sort_text` writes a field's existing
/// sort (so that a caller may write named sorts as aliases).
pub fn smtlib_decl(
    params: &[String],
    decls: &[DatatypeDecl],
    mut sort_text: impl FnMut(SortId) -> String,
) -> String {
    let arity = params.len();
    let heads: Vec<String> = decls
        .iter()
        .map(|d| format!("({} {arity})", d.name))
        .collect();
    let instance = |name: &str| {
        if params.is_empty() {
            name.to_string()
        } else {
            format!("({name} {})", params.join(" "))
        }
    };
    let bodies: Vec<String> = decls
        .iter()
        .map(|d| {
            let ctors: Vec<String> = d
                .constructors
                .iter()
                .map(|c| {
                    let mut s = format!("({}", c.name);
                    for f in &c.fields {
                        let sort = match f.sort {
                            FieldSort::Sort(id) => sort_text(id),
                            FieldSort::Datatype(k) => instance(&decls[k as usize].name),
                            FieldSort::Param(k) => params[k as usize].clone(),
                        };
                        s.push_str(&format!(" ({} {sort})", f.name));
                    }
                    s.push(')');
                    s
                })
                .collect();
            if params.is_empty() {
                format!("({})", ctors.join(" "))
            } else {
                format!("(par ({}) ({}))", params.join(" "), ctors.join(" "))
            }
        })
        .collect();
    format!(
        "(declare-datatypes ({}) ({}))",
        heads.join(" "),
        bodies.join(" ")
    )
}

/// The datatypes a sort mentions, by name (walking arrays, sequences and instances).
pub fn named_in(sort: &Sort, out: &mut Vec<String>) {
    match sort {
        Sort::Array(i, e) => {
            named_in(i, out);
            named_in(e, out);
        }
        Sort::Seq(e) => named_in(e, out),
        Sort::Named(n, ps) => {
            out.push(n.clone());
            ps.iter().for_each(|p| named_in(p, out));
        }
        _ => {}
    }
}

/// The datatypes of the reference state, by name, with the names every declaration has
/// taken (datatypes, constructors, fields, parameters).
#[derive(Clone, Debug, Default)]
pub struct Datatypes {
    pub by_name: HashMap<String, Datatype>,
    pub names: HashSet<String>,
}

impl Datatypes {
    /// The datatype of an instance sort, with its parameter sorts.
    pub fn of<'a>(&self, sort: &'a Sort) -> Option<(&str, &Datatype, &'a [Sort])> {
        match sort {
            Sort::Named(name, params) => self
                .by_name
                .get_key_value(name)
                .map(|(n, d)| (n.as_str(), d, params.as_slice())),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(name: &str, sort: FieldSort) -> FieldDecl {
        FieldDecl {
            name: name.into(),
            sort,
        }
    }

    fn list() -> Vec<DatatypeDecl> {
        vec![DatatypeDecl {
            name: "Lst".into(),
            constructors: vec![
                ConstructorDecl {
                    name: "nil".into(),
                    fields: vec![],
                },
                ConstructorDecl {
                    name: "cons".into(),
                    fields: vec![
                        field("head", FieldSort::Param(0)),
                        field("tail", FieldSort::Datatype(0)),
                    ],
                },
            ],
        }]
    }

    #[test]
    fn a_parametric_list_resolves_and_prints() {
        let params = vec!["T".to_string()];
        let got = resolve(
            DeclPath::Parser,
            &params,
            &list(),
            |_| Ok(Sort::Int),
            |_| false,
        )
        .unwrap();
        assert_eq!(got[0].0, "Lst");
        let d = &got[0].1;
        assert_eq!(d.field("tail"), Some((1, 1)));
        assert_eq!(
            d.field_sorts(1, &[Sort::Int]),
            vec![Sort::Int, Sort::Named("Lst".into(), vec![Sort::Int])]
        );
        assert_eq!(
            smtlib_decl(&params, &list(), |_| "Int".into()),
            "(declare-datatypes ((Lst 1)) ((par (T) ((nil) (cons (head T) (tail (Lst T)))))))"
        );
    }

    #[test]
    fn bad_groups_are_refused() {
        let params = vec!["T".to_string()];
        let ok = |_| Ok(Sort::Int);
        assert!(resolve(DeclPath::Api, &params, &list(), ok, |_| false)
            .unwrap_err()
            .contains("parser"));
        assert!(
            resolve(DeclPath::Parser, &params, &list(), ok, |n| n == "cons")
                .unwrap_err()
                .contains("already in use")
        );
        let mut endless = list();
        endless[0].constructors.remove(0);
        assert!(resolve(DeclPath::Parser, &params, &endless, ok, |_| false)
            .unwrap_err()
            .contains("well-founded"));
        let mut bad = list();
        bad[0].constructors[1].fields[0].sort = FieldSort::Param(3);
        assert!(resolve(DeclPath::Parser, &params, &bad, ok, |_| false).is_err());
        assert!(!valid_name("and") && !valid_name("Int") && !valid_name("1x"));
        assert!(valid_name("cons_1"));
    }

    /// The reference state follows a declaration and types every datatype call by it.
    #[test]
    fn the_state_types_datatype_calls() {
        use crate::call::{AnyId, Call, Ret, TermId};
        use crate::State;
        let trace = crate::trace::text::parse(
            "z3-trace 1\nsort_int\nreturn s1\nsort_bool\nreturn s2\n\
             declare_datatypes parser par \"T\" datatype \"L\" ctor \"nil\" ctor \"cons\" \"hd\" p0 \"tl\" d0\n\
             sort_datatype \"L\" s1\nreturn s3\nconst s3 \"xs\"\nreturn t1\nconst s1 \"n\"\nreturn t2\n",
        )
        .unwrap();
        let mut state = State::new();
        for e in &trace.entries {
            state.apply(&e.call, e.ret.as_ref()).unwrap();
        }
        let list = Sort::Named("L".into(), vec![Sort::Int]);
        let t = |n| TermId(n);
        let sort_of = |state: &State, call: Call| state.result_sort(&call).map(|s| s.unwrap());
        assert_eq!(
            sort_of(
                &state,
                Call::DtSelect {
                    field: "hd".into(),
                    term: t(1)
                }
            ),
            Ok(Sort::Int)
        );
        assert_eq!(
            sort_of(
                &state,
                Call::DtSelect {
                    field: "tl".into(),
                    term: t(1)
                }
            ),
            Ok(list.clone())
        );
        assert_eq!(
            sort_of(
                &state,
                Call::DtTest {
                    ctor: "nil".into(),
                    term: t(1)
                }
            ),
            Ok(Sort::Bool)
        );
        let cons = |args: Vec<TermId>| Call::DtConstruct {
            sort: SortId(3),
            ctor: "cons".into(),
            args,
        };
        assert_eq!(sort_of(&state, cons(vec![t(2), t(1)])), Ok(list.clone()));
        assert!(
            state.check(&cons(vec![t(1), t(2)])).is_err(),
            "fields out of order"
        );
        assert!(state.check(&cons(vec![t(2)])).is_err(), "a field missing");
        let update = |value| Call::DtUpdate {
            field: "hd".into(),
            term: t(1),
            value,
        };
        assert_eq!(sort_of(&state, update(t(2))), Ok(list));
        assert!(
            state.check(&update(t(1))).is_err(),
            "a value of the wrong sort"
        );
        assert!(state
            .check(&Call::DtSelect {
                field: "hd".into(),
                term: t(2)
            })
            .is_err());
        assert!(state
            .check(&Call::DtTest {
                ctor: "leaf".into(),
                term: t(1)
            })
            .is_err());
        // The names are taken: no uninterpreted sort, no second declaration may use them.
        assert!(state.check(&Call::SortUninterpreted("L".into())).is_err());
        let again = &trace.entries[2].call;
        assert!(state.check(again).is_err());
        // An instance needs its parameters.
        let bare = Call::SortDatatype {
            name: "L".into(),
            params: vec![],
        };
        assert!(state.check(&bare).is_err());
        let bool_list = Call::SortDatatype {
            name: "L".into(),
            params: vec![SortId(2)],
        };
        state
            .apply(&bool_list, Some(&Ret::Id(AnyId::Sort(SortId(4)))))
            .unwrap();
        assert_eq!(
            state.sorts[&SortId(4)],
            Sort::Named("L".into(), vec![Sort::Bool])
        );
    }

    /// The evaluator reads what the executor writes: constructors, testers, accessors and
    /// field updates; an update of another constructor's field leaves the value, an accessor
    /// of another constructor is open unless the model defines it.
    #[test]
    fn the_evaluator_applies_datatype_operations() {
        use crate::eval::{evaluate_str_in, Env, EvalError, Model, Value};
        let mut env = Env::default();
        env.declare_datatype(
            "Lst",
            &[
                ("nil".into(), vec![]),
                ("cons".into(), vec!["hd".into(), "tl".into()]),
            ],
        );
        let empty = Model::default();
        let eval = |t: &str, m: &Model| evaluate_str_in(t, &env, m);
        let int = |n: i64| Value::Int(n.into());
        assert_eq!(
            eval("(hd ((_ update-field hd) (cons 1 nil) 7))", &empty),
            Ok(int(7))
        );
        assert_eq!(
            eval(
                "(= ((_ update-field hd) (as nil (Lst Int)) 7) (as nil (Lst Int)))",
                &empty
            ),
            Ok(Value::Bool(true))
        );
        assert_eq!(
            eval("((_ is cons) (cons 1 nil))", &empty),
            Ok(Value::Bool(true))
        );
        assert!(matches!(
            eval("(hd (as nil (Lst Int)))", &empty),
            Err(EvalError::Open(_))
        ));
        let model = Model::parse("((define-fun hd ((x (Lst Int))) Int 5))").unwrap();
        // The value of nil carries no parameters, so only a definition at the bare sort
        // would apply: a parametric selector stays open (never a false verdict).
        assert!(matches!(
            eval("(hd (as nil (Lst Int)))", &model),
            Err(EvalError::Open(_))
        ));
    }
}
