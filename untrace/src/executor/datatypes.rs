//! Algebraic datatypes in Z3: declaring a group ([`Declared::declare`]), making its sorts
//! ([`Declared::sort`]) and applying constructors, testers, accessors and field updates
//! ([`construct`], [`test`], [`select`], [`update`]).
//!
//! A group is declared by the path its `declare_datatypes` line names: the API
//! (`Z3_mk_datatypes`, through the crate's `create_datatypes`) or Z3's SMT-LIB parser
//! (`declare-datatypes`), the only way to parametric datatypes on Z3 4.8.12, which has no
//! `Z3_mk_datatype_sort`. The parser knows no sort of the trace by name, so every named sort
//! a field or parameter uses (uninterpreted sorts, other datatypes and their instances) is
//! handed to it under an alias (`dt!sort!K`). An instance of a parametric datatype is the
//! sort of a constant the parser declares in a script that repeats the group's declaration;
//! the sorts of one declaration are the same whichever script made them (Z3 identifies a
//! datatype sort by name and parameters).
//!
//! Constructors, testers and accessors are found by name among the declarations of the
//! term's own sort (`Z3_get_datatype_sort_*`), so an instance's operations are those of
//! that instance.

use model::datatype::{smtlib_decl, DatatypeDecl, DeclPath, FieldSort};
use model::{Sort, SortId};
use std::collections::HashMap;
use std::ffi::{CStr, CString};
use z3::ast::{Ast, Dynamic};
use z3::{Context, DatatypeAccessor, DatatypeBuilder, Symbol};

/// A declared group.
struct Group {
    params: Vec<String>,
    decls: Vec<DatatypeDecl>,
    /// The field sorts of the declaration by id, for the parser's scripts.
    field_sorts: HashMap<SortId, (Sort, z3::Sort)>,
    /// The sorts made so far, by instance.
    sorts: HashMap<Sort, z3::Sort>,
}

/// The datatypes the executor declared, by name.
#[derive(Default)]
pub struct Declared {
    groups: Vec<Group>,
    by_name: HashMap<String, usize>,
}

impl Declared {
    /// Declares a group; `field_sort` gives the model sort and the Z3 sort of an id.
    pub fn declare(
        &mut self,
        path: DeclPath,
        params: &[String],
        decls: &[DatatypeDecl],
        field_sort: impl Fn(SortId) -> Option<(Sort, z3::Sort)>,
    ) -> Result<(), String> {
        let mut field_sorts = HashMap::new();
        for f in decls
            .iter()
            .flat_map(|d| &d.constructors)
            .flat_map(|c| &c.fields)
        {
            if let FieldSort::Sort(id) = f.sort {
                let s = field_sort(id).ok_or_else(|| format!("sort {id} is not defined"))?;
                field_sorts.insert(id, s);
            }
        }
        let mut group = Group {
            params: params.to_vec(),
            decls: decls.to_vec(),
            field_sorts,
            sorts: HashMap::new(),
        };
        match path {
            DeclPath::Api => {
                let builders = decls
                    .iter()
                    .map(|d| {
                        d.constructors
                            .iter()
                            .fold(DatatypeBuilder::new(d.name.as_str()), |b, c| {
                                let fields = c
                                    .fields
                                    .iter()
                                    .map(|f| {
                                        let accessor = match f.sort {
                                            FieldSort::Sort(id) => DatatypeAccessor::Sort(
                                                group.field_sorts[&id].1.clone(),
                                            ),
                                            FieldSort::Datatype(k) => DatatypeAccessor::Datatype(
                                                Symbol::String(decls[k as usize].name.clone()),
                                            ),
                                            // The reference state sends parametric groups to the parser.
                                            FieldSort::Param(_) => {
                                                unreachable!("parametric API group")
                                            }
                                        };
                                        (f.name.as_str(), accessor)
                                    })
                                    .collect();
                                b.variant(&c.name, fields)
                            })
                    })
                    .collect();
                let made = z3::datatype_builder::create_datatypes(builders);
                for (d, made) in decls.iter().zip(made) {
                    group
                        .sorts
                        .insert(Sort::Named(d.name.clone(), vec![]), made.sort);
                }
            }
            // The instances of a group without parameters come from one script (the parser
            // forgets its declarations after each); a parametric group is parsed here once
            // too, so that Z3 judges the declaration where the trace makes it, and its
            // instances come with `sort_datatype`.
            DeclPath::Parser => {
                let instances: Vec<(Sort, Vec<(Sort, z3::Sort)>)> = if params.is_empty() {
                    decls
                        .iter()
                        .map(|d| (Sort::Named(d.name.clone(), vec![]), vec![]))
                        .collect()
                } else {
                    Vec::new()
                };
                let sorts = group.parse_instances(&instances)?;
                for ((instance, _), sort) in instances.into_iter().zip(sorts) {
                    group.sorts.insert(instance, sort);
                }
            }
        }
        let index = self.groups.len();
        for d in decls {
            self.by_name.insert(d.name.clone(), index);
        }
        self.groups.push(group);
        Ok(())
    }

    /// The sort of datatype `name` at parameter sorts `params` (model and Z3 sorts).
    pub fn sort(&mut self, name: &str, params: &[(Sort, z3::Sort)]) -> Result<z3::Sort, String> {
        let group = self
            .by_name
            .get(name)
            .and_then(|i| self.groups.get_mut(*i))
            .ok_or_else(|| format!("datatype `{name}` is not declared"))?;
        let instance = Sort::Named(
            name.to_string(),
            params.iter().map(|p| p.0.clone()).collect(),
        );
        if let Some(s) = group.sorts.get(&instance) {
            return Ok(s.clone());
        }
        let sort = group
            .parse_instances(&[(instance.clone(), params.to_vec())])?
            .pop()
            .ok_or("the parser gave no datatype sort")?;
        group.sorts.insert(instance, sort.clone());
        Ok(sort)
    }
}

/// The named sorts handed to the parser: alias name, model sort, Z3 sort.
type Aliases = Vec<(String, Sort, z3::Sort)>;

/// Writes a sort for the parser: built-in sorts as SMT-LIB writes them, every named sort as
/// an alias (collected in `aliases` with its Z3 sort, once per sort: the parser declares a
/// datatype's constructors with each alias, and refuses to declare them twice).
fn aliased(sort: &Sort, z3: &z3::Sort, aliases: &mut Aliases) -> String {
    match sort {
        Sort::Named(..) => {
            if let Some((name, _, _)) = aliases.iter().find(|(_, s, _)| s == sort) {
                return name.clone();
            }
            let name = format!("dt!sort!{}", aliases.len());
            aliases.push((name.clone(), sort.clone(), z3.clone()));
            name
        }
        Sort::Array(i, e) => {
            let (zi, ze) = (
                z3.array_domain().expect("an array sort has a domain"),
                z3.array_range().expect("an array sort has a range"),
            );
            format!(
                "(Array {} {})",
                aliased(i, &zi, aliases),
                aliased(e, &ze, aliases)
            )
        }
        Sort::Seq(e) => {
            // SAFETY: a live sequence sort of the thread-local context.
            let ze = unsafe {
                let c = Context::thread_local();
                let raw = z3_sys::Z3_get_seq_sort_basis(c.get_z3_context(), z3.get_z3_sort())
                    .expect("a sequence sort has an element sort");
                sort_of_raw(raw)
            };
            format!("(Seq {})", aliased(e, &ze, aliases))
        }
        other => other.to_string(),
    }
}

/// A Z3 sort handle for a raw sort of the thread-local context (through a constant of it,
/// as the crate offers no public wrapper for raw sorts).
///
/// # Safety
/// `raw` is a live sort of the thread-local context.
unsafe fn sort_of_raw(raw: z3_sys::Z3_sort) -> z3::Sort {
    let ctx = Context::thread_local();
    let c = ctx.get_z3_context();
    let name = CString::new("dt!witness").expect("no NUL");
    let sym = z3_sys::Z3_mk_string_symbol(c, name.as_ptr()).expect("a symbol");
    let k = z3_sys::Z3_mk_const(c, sym, raw).expect("a constant of a live sort");
    Dynamic::wrap(&ctx, k).get_sort()
}

impl Group {
    /// Parses the group's declaration with a constant of each of `instances` (with their
    /// parameter sorts) and returns the constants' sorts. Z3's parser knows no datatype of
    /// an earlier parse, so every script declares the group again; Z3 identifies the sorts.
    fn parse_instances(
        &self,
        instances: &[(Sort, Vec<(Sort, z3::Sort)>)],
    ) -> Result<Vec<z3::Sort>, String> {
        let mut aliases = Aliases::new();
        let mut script = smtlib_decl(&self.params, &self.decls, |id| {
            let (s, z) = &self.field_sorts[&id];
            aliased(s, z, &mut aliases)
        });
        for (k, (instance, params)) in instances.iter().enumerate() {
            let text = match instance {
                Sort::Named(name, ps) if !ps.is_empty() => {
                    let args: Vec<String> = params
                        .iter()
                        .map(|(s, z)| aliased(s, z, &mut aliases))
                        .collect();
                    format!("({name} {})", args.join(" "))
                }
                other => other.to_string(),
            };
            script.push_str(&format!(
                "\n(declare-fun dt!instance!{k} () {text})\n(assert (= dt!instance!{k} dt!instance!{k}))"
            ));
        }
        parse_sorts_of_constants(&script, &aliases, instances.len())
    }
}

/// Runs Z3's parser on `script` (with the sort aliases) and returns the sort of the first
/// argument of each of its `n` assertions.
fn parse_sorts_of_constants(
    script: &str,
    aliases: &[(String, Sort, z3::Sort)],
    n: usize,
) -> Result<Vec<z3::Sort>, String> {
    let text = CString::new(script).map_err(|_| "a NUL in a declaration".to_string())?;
    let ctx = Context::thread_local();
    let c = ctx.get_z3_context();
    let names: Vec<CString> = aliases
        .iter()
        .map(|(name, _, _)| CString::new(name.as_str()).expect("aliases have no NUL"))
        .collect();
    // SAFETY: symbols and sorts of the thread-local context, arrays that outlive the call;
    // the parsed vector is referenced while it is read, and the term whose sort is taken is
    // wrapped (referenced) before the vector goes.
    unsafe {
        let symbols: Vec<z3_sys::Z3_symbol> = names
            .iter()
            .map(|n| z3_sys::Z3_mk_string_symbol(c, n.as_ptr()).expect("a symbol"))
            .collect();
        let sorts: Vec<z3_sys::Z3_sort> = aliases.iter().map(|(_, _, s)| s.get_z3_sort()).collect();
        let parsed = z3_sys::Z3_parse_smtlib2_string(
            c,
            text.as_ptr(),
            symbols.len() as u32,
            symbols.as_ptr(),
            sorts.as_ptr(),
            0,
            std::ptr::null(),
            std::ptr::null(),
        );
        let code = z3_sys::Z3_get_error_code(c);
        if code != z3_sys::ErrorCode::Ok {
            let message = z3_sys::Z3_get_error_msg(c, code);
            let message = if message.is_null() {
                format!("{code:?}")
            } else {
                CStr::from_ptr(message).to_string_lossy().into_owned()
            };
            return Err(format!("{code:?}: {}", message.trim()));
        }
        let parsed = parsed.ok_or("the parser returned nothing")?;
        z3_sys::Z3_ast_vector_inc_ref(c, parsed);
        let size = z3_sys::Z3_ast_vector_size(c, parsed) as usize;
        let terms: Option<Vec<Dynamic>> = (size == n)
            .then(|| {
                (0..n)
                    .map(|k| {
                        z3_sys::Z3_ast_vector_get(c, parsed, k as u32)
                            .and_then(|eq| z3_sys::Z3_to_app(c, eq))
                            .and_then(|eq| z3_sys::Z3_get_app_arg(c, eq, 0))
                            .map(|t| Dynamic::wrap(&ctx, t))
                    })
                    .collect()
            })
            .flatten();
        z3_sys::Z3_ast_vector_dec_ref(c, parsed);
        terms
            .map(|ts| ts.iter().map(|t| t.get_sort()).collect())
            .ok_or_else(|| "the parser gave no datatype constants".into())
    }
}

/// The name of a declaration.
///
/// # Safety
/// `d` is a live declaration of context `c`.
unsafe fn decl_name(c: z3_sys::Z3_context, d: z3_sys::Z3_func_decl) -> String {
    z3_sys::Z3_get_decl_name(c, d)
        .map(|s| z3_sys::Z3_get_symbol_string(c, s))
        .filter(|p| !p.is_null())
        .map(|p| CStr::from_ptr(p).to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// What to find in a datatype sort.
#[derive(Clone, Copy)]
enum Find<'a> {
    Constructor(&'a str),
    Tester(&'a str),
    Accessor(&'a str),
}

/// The declaration `what` of datatype sort `sort` (thread-local context), applied to `args`.
fn apply(sort: &z3::Sort, what: Find, args: &[&Dynamic], update: bool) -> Dynamic {
    let ctx = Context::thread_local();
    let c = ctx.get_z3_context();
    let s = sort.get_z3_sort();
    let asts: Vec<z3_sys::Z3_ast> = args.iter().map(|a| a.get_z3_ast()).collect();
    // SAFETY: a live datatype sort of the thread-local context; each declaration is
    // referenced while it is used; the application is wrapped before anything else runs.
    unsafe {
        let n = z3_sys::Z3_get_datatype_sort_num_constructors(c, s);
        let mut found = None;
        'search: for i in 0..n {
            let ctor = z3_sys::Z3_get_datatype_sort_constructor(c, s, i).expect("a constructor");
            let name = decl_name(c, ctor);
            match what {
                Find::Constructor(want) if name == want => {
                    found = Some(ctor);
                    break;
                }
                Find::Tester(want) if name == want => {
                    found = z3_sys::Z3_get_datatype_sort_recognizer(c, s, i);
                    break;
                }
                Find::Accessor(want) => {
                    for j in 0..z3_sys::Z3_get_domain_size(c, ctor) {
                        let acc = z3_sys::Z3_get_datatype_sort_constructor_accessor(c, s, i, j)
                            .expect("an accessor");
                        if decl_name(c, acc) == want {
                            found = Some(acc);
                            break 'search;
                        }
                    }
                }
                _ => {}
            }
        }
        let decl = found.unwrap_or_else(|| panic!("the datatype has no such declaration"));
        super::unlogged::note("Z3_func_decl_to_ast");
        z3_sys::Z3_inc_ref(c, z3_sys::Z3_func_decl_to_ast(c, decl).expect("an ast"));
        let app = if update {
            z3_sys::Z3_datatype_update_field(c, decl, asts[0], asts[1])
        } else {
            z3_sys::Z3_mk_app(c, decl, asts.len() as u32, asts.as_ptr())
        };
        let app = app.unwrap_or_else(|| panic!("the datatype operation returned NULL"));
        let wrapped = Dynamic::wrap(&ctx, app);
        z3_sys::Z3_dec_ref(c, z3_sys::Z3_func_decl_to_ast(c, decl).expect("an ast"));
        wrapped
    }
}

/// Constructor `ctor` of datatype sort `sort` applied to `args`.
pub fn construct(sort: &z3::Sort, ctor: &str, args: &[&Dynamic]) -> Dynamic {
    apply(sort, Find::Constructor(ctor), args, false)
}

/// The tester of constructor `ctor` applied to `t`.
pub fn test(ctor: &str, t: &Dynamic) -> Dynamic {
    apply(&t.get_sort(), Find::Tester(ctor), &[t], false)
}

/// The accessor of `field` applied to `t`.
pub fn select(field: &str, t: &Dynamic) -> Dynamic {
    apply(&t.get_sort(), Find::Accessor(field), &[t], false)
}

/// `t` with `field` replaced by `value` (`Z3_datatype_update_field`).
pub fn update(field: &str, t: &Dynamic, value: &Dynamic) -> Dynamic {
    apply(&t.get_sort(), Find::Accessor(field), &[t, value], true)
}
