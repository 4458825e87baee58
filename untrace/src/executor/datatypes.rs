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
            DeclPath::Enumeration | DeclPath::Tuple | DeclPath::List | DeclPath::Single => {
                let d = &decls[0];
                let sort = match path {
                    DeclPath::Enumeration => {
                        let names: Vec<Symbol> = d
                            .constructors
                            .iter()
                            .map(|c| Symbol::String(c.name.clone()))
                            .collect();
                        z3::Sort::enumeration(Symbol::String(d.name.clone()), &names).0
                    }
                    _ => {
                        // SAFETY: symbols and sorts of the thread-local context, arrays that
                        // outlive the calls; `shape_fits` (the reference state) gave the shape.
                        unsafe { make_single(path, d, &group.field_sorts)? }
                    }
                };
                group
                    .sorts
                    .insert(Sort::Named(d.name.clone(), vec![]), sort);
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

/// A string symbol of the thread-local context.
///
/// # Safety
/// `c` is the thread-local context.
unsafe fn symbol(c: z3_sys::Z3_context, name: &str) -> Result<z3_sys::Z3_symbol, String> {
    let text = CString::new(name).map_err(|_| format!("a NUL in the name `{name}`"))?;
    z3_sys::Z3_mk_string_symbol(c, text.as_ptr()).ok_or_else(|| "no symbol".to_string())
}

/// The datatype `d` made by the maker of `path` (`Z3_mk_tuple_sort`, `Z3_mk_list_sort`,
/// `Z3_mk_datatype`). For `Z3_mk_datatype`, each constructor is read back
/// (`Z3_query_constructor`) before it is deleted: its declaration, tester and accessors must
/// carry the names the declaration gave (a different name is an error the reference state
/// cannot expect, so the trace records it as Z3's refusal of the declaration).
///
/// # Safety
/// The thread-local context; `field_sorts` holds every sort id the declaration names.
unsafe fn make_single(
    path: DeclPath,
    d: &DatatypeDecl,
    field_sorts: &HashMap<SortId, (Sort, z3::Sort)>,
) -> Result<z3::Sort, String> {
    let ctx = Context::thread_local();
    let c = ctx.get_z3_context();
    let name = symbol(c, &d.name)?;
    let field_sort = |f: &model::datatype::FieldDecl| match f.sort {
        FieldSort::Sort(id) => Some(field_sorts[&id].1.get_z3_sort()),
        FieldSort::Datatype(_) | FieldSort::Param(_) => None,
    };
    let error = |what: &str| {
        let code = z3_sys::Z3_get_error_code(c);
        if code == z3_sys::ErrorCode::Ok {
            format!("{what} returned no sort")
        } else {
            let message = z3_sys::Z3_get_error_msg(c, code);
            let message = if message.is_null() {
                String::new()
            } else {
                CStr::from_ptr(message).to_string_lossy().into_owned()
            };
            format!("{code:?}: {}", message.trim())
        }
    };
    let raw = match path {
        DeclPath::Tuple => {
            let ctor = &d.constructors[0];
            let names = ctor
                .fields
                .iter()
                .map(|f| symbol(c, &f.name))
                .collect::<Result<Vec<_>, _>>()?;
            let sorts: Vec<z3_sys::Z3_sort> = ctor.fields.iter().filter_map(field_sort).collect();
            let mut mk_decl: Option<z3_sys::Z3_func_decl> = None;
            let mut projections: Vec<Option<z3_sys::Z3_func_decl>> = vec![None; names.len()];
            // Z3 names the constructor as the tuple (the reference state's shape).
            z3_sys::Z3_mk_tuple_sort(
                c,
                name,
                names.len() as u32,
                names.as_ptr(),
                sorts.as_ptr(),
                &mut mk_decl as *mut Option<_> as *mut z3_sys::Z3_func_decl,
                projections.as_mut_ptr() as *mut z3_sys::Z3_func_decl,
            )
            .ok_or_else(|| error("Z3_mk_tuple_sort"))?
        }
        DeclPath::List => {
            let element = field_sort(&d.constructors[1].fields[0]).ok_or("a list element sort")?;
            let mut outs: [Option<z3_sys::Z3_func_decl>; 6] = [None; 6];
            let out = outs.as_mut_ptr() as *mut z3_sys::Z3_func_decl;
            z3_sys::Z3_mk_list_sort(
                c,
                name,
                element,
                out,
                out.add(1),
                out.add(2),
                out.add(3),
                out.add(4),
                out.add(5),
            )
            .ok_or_else(|| error("Z3_mk_list_sort"))?
        }
        _ => {
            let mut ctors = Vec::new();
            for ctor in &d.constructors {
                let field_names = ctor
                    .fields
                    .iter()
                    .map(|f| symbol(c, &f.name))
                    .collect::<Result<Vec<_>, _>>()?;
                let sorts: Vec<Option<z3_sys::Z3_sort>> =
                    ctor.fields.iter().map(field_sort).collect();
                let refs: Vec<u32> = vec![0; sorts.len()];
                let made = z3_sys::Z3_mk_constructor(
                    c,
                    symbol(c, &ctor.name)?,
                    symbol(c, &format!("is_{}", ctor.name))?,
                    field_names.len() as u32,
                    field_names.as_ptr(),
                    sorts.as_ptr(),
                    refs.as_ptr() as *mut u32,
                )
                .ok_or_else(|| error("Z3_mk_constructor"))?;
                ctors.push(made);
            }
            let made = z3_sys::Z3_mk_datatype(c, name, ctors.len() as u32, ctors.as_mut_ptr());
            let read_back = match made {
                Some(_) => d
                    .constructors
                    .iter()
                    .zip(&ctors)
                    .try_for_each(|(ctor, made)| query_constructor(c, ctor, *made)),
                None => Ok(()),
            };
            for made in ctors {
                z3_sys::Z3_del_constructor(c, made);
            }
            let made = made.ok_or_else(|| error("Z3_mk_datatype"))?;
            read_back?;
            made
        }
    };
    Ok(sort_of_raw(raw))
}

/// `Z3_query_constructor` of a constructor of a made datatype: its declaration and accessors
/// named as `ctor` declares them, and a tester.
///
/// # Safety
/// `made` is a live constructor of a datatype made in context `c`.
unsafe fn query_constructor(
    c: z3_sys::Z3_context,
    ctor: &model::datatype::ConstructorDecl,
    made: z3_sys::Z3_constructor,
) -> Result<(), String> {
    let mut decl: Option<z3_sys::Z3_func_decl> = None;
    let mut tester: Option<z3_sys::Z3_func_decl> = None;
    let mut accessors: Vec<Option<z3_sys::Z3_func_decl>> = vec![None; ctor.fields.len()];
    z3_sys::Z3_query_constructor(
        c,
        made,
        ctor.fields.len() as u32,
        &mut decl as *mut Option<_> as *mut z3_sys::Z3_func_decl,
        &mut tester as *mut Option<_> as *mut z3_sys::Z3_func_decl,
        accessors.as_mut_ptr() as *mut z3_sys::Z3_func_decl,
    );
    let name_of = |d: Option<z3_sys::Z3_func_decl>| match d {
        Some(d) => decl_name(c, d),
        None => String::new(),
    };
    // The tester is named `is` (indexed by the constructor) in the releases we run, or by
    // the name the declaration gave it: only its presence is judged.
    let tester = match tester {
        Some(_) => "a tester",
        None => "no tester",
    };
    let got: Vec<String> = std::iter::once(name_of(decl))
        .chain(std::iter::once(tester.to_string()))
        .chain(accessors.iter().map(|a| name_of(*a)))
        .collect();
    let want: Vec<String> = std::iter::once(ctor.name.clone())
        .chain(std::iter::once("a tester".to_string()))
        .chain(ctor.fields.iter().map(|f| f.name.clone()))
        .collect();
    if got == want {
        Ok(())
    } else {
        Err(format!(
            "Z3_query_constructor: constructor `{}` read back as {got:?}, declared {want:?}",
            ctor.name
        ))
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
pub(super) unsafe fn sort_of_raw(raw: z3_sys::Z3_sort) -> z3::Sort {
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
