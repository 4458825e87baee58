//! Interpretations: a solver's [`Model`] (its `define-fun` entries as [`FunDef`]s, nullary ones
//! being constants, plus the abstract elements of uninterpreted sorts it declares) and the
//! problem's own definitions and declarations in an [`Env`].

use super::sort_aliases::{parse_sort, SortAliases};
use super::source::{Located, Src, TermRef};
use super::value::Value;
use crate::sort::Sort;
use crate::{unquote, NodeId};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// A function (or, without parameters, a constant) defined by a term.
#[derive(Clone, Debug)]
pub struct FunDef {
    pub name: String,
    pub params: Vec<(String, Sort)>,
    pub result: Sort,
    pub body: TermRef,
}

impl FunDef {
    /// Reads `name ((p S) ..) R body` from the children of a `define-fun`(-rec) at `node`
    /// (children `[keyword, name, params, sort, body]`).
    pub fn from_define(
        src: &Rc<Src>,
        node: NodeId,
        aliases: &SortAliases,
    ) -> Result<FunDef, Located> {
        let tree = &src.tree;
        let ch = tree.children(node);
        if ch.len() != 5 {
            return Err(src.at(
                node,
                "define-fun expects a name, parameters, a sort and a body",
            ));
        }
        FunDef::from_parts(src, ch[1], ch[2], ch[3], ch[4], aliases)
    }

    /// Reads a definition from its name, parameter list, result sort and body nodes.
    pub fn from_parts(
        src: &Rc<Src>,
        name: NodeId,
        params: NodeId,
        result: NodeId,
        body: NodeId,
        aliases: &SortAliases,
    ) -> Result<FunDef, Located> {
        let tree = &src.tree;
        let name = tree
            .symbol(name)
            .map(|s| unquote(s).to_string())
            .ok_or_else(|| src.at(name, "expected a function name"))?;
        let params = read_params(src, params, aliases)?;
        let result = parse_sort(tree, result, aliases).map_err(|m| src.at(result, m))?;
        Ok(FunDef {
            name,
            params,
            result,
            body: TermRef::new(src, body),
        })
    }
}

/// Reads a sorted variable list `((x Int) (y Bool))`.
pub fn read_params(
    src: &Rc<Src>,
    list: NodeId,
    aliases: &SortAliases,
) -> Result<Vec<(String, Sort)>, Located> {
    let tree = &src.tree;
    if !tree.is_list(list) {
        return Err(src.at(list, "expected a parameter list"));
    }
    tree.children(list)
        .iter()
        .map(|&p| {
            let pc = tree.children(p);
            match (pc.len(), pc.first().and_then(|&c| tree.symbol(c))) {
                (2, Some(name)) => {
                    let sort = parse_sort(tree, pc[1], aliases).map_err(|m| src.at(pc[1], m))?;
                    Ok((unquote(name).to_string(), sort))
                }
                _ => Err(src.at(p, "expected (name sort)")),
            }
        })
        .collect()
}

/// A datatype constructor: its datatype's name and its fields (selector names).
#[derive(Clone, Debug)]
pub struct Constructor {
    pub datatype: String,
    pub selectors: Vec<String>,
}

/// A solver's model for one `check-sat`.
#[derive(Clone, Debug, Default)]
pub struct Model {
    /// `define-fun` entries by name; a model may also define `div`, `mod`, `/` (or Z3's `div0`,
    /// `mod0`, `/0`) to fix the results of division by zero.
    pub funs: HashMap<String, Rc<FunDef>>,
    /// Abstract elements the model declares (`(declare-fun U!val!0 () U)`), with their sort.
    pub universe: HashMap<String, Sort>,
    /// Values of constants computed so far (a model's constants depend only on the model).
    pub(crate) cache: RefCell<HashMap<String, Value>>,
}

impl Env {
    /// Declares a datatype's constructors, each with its selectors in order.
    pub fn declare_datatype(&mut self, datatype: &str, constructors: &[(String, Vec<String>)]) {
        for (name, selectors) in constructors {
            for (i, sel) in selectors.iter().enumerate() {
                self.selectors.insert(sel.clone(), (name.clone(), i));
            }
            self.constructors.insert(
                name.clone(),
                Constructor {
                    datatype: datatype.to_string(),
                    selectors: selectors.clone(),
                },
            );
        }
    }
}

impl Model {
    /// Reads the entries of a model: `node` is `(model ...)` or Z3's bare `(...)` list of
    /// definitions. Entries other than definitions and declarations (such as Z3's cardinality
    /// constraints `(forall ...)`) carry no values and are skipped.
    pub fn from_node(src: &Rc<Src>, node: NodeId, aliases: &SortAliases) -> Result<Model, Located> {
        let tree = &src.tree;
        let mut entries = tree.children(node);
        if tree.head(node) == Some("model") {
            entries = &entries[1..];
        }
        let mut model = Model::default();
        for &entry in entries {
            let ch = tree.children(entry);
            match tree.head(entry) {
                Some("define-fun" | "define-fun-rec") => {
                    let def = FunDef::from_define(src, entry, aliases)?;
                    model.funs.insert(def.name.clone(), Rc::new(def));
                }
                Some("define-funs-rec") if ch.len() == 3 => {
                    let decls = tree.children(ch[1]);
                    let bodies = tree.children(ch[2]);
                    if decls.len() != bodies.len() {
                        return Err(src.at(entry, "define-funs-rec needs one body per declaration"));
                    }
                    for (&d, &b) in decls.iter().zip(bodies) {
                        let dc = tree.children(d);
                        if dc.len() != 3 {
                            return Err(src.at(d, "expected (name (params) sort)"));
                        }
                        let def = FunDef::from_parts(src, dc[0], dc[1], dc[2], b, aliases)?;
                        model.funs.insert(def.name.clone(), Rc::new(def));
                    }
                }
                Some("declare-fun" | "declare-const") if ch.len() >= 3 => {
                    let name = tree
                        .symbol(ch[1])
                        .map(unquote)
                        .unwrap_or_default()
                        .to_string();
                    let sort_node = *ch.last().unwrap_or(&entry);
                    let sort =
                        parse_sort(tree, sort_node, aliases).map_err(|m| src.at(sort_node, m))?;
                    model.universe.insert(name, sort);
                }
                _ => {}
            }
        }
        Ok(model)
    }

    /// Parses a model given as text (`(model ...)` or `(...)`), for library callers.
    pub fn parse(text: &str) -> Result<Model, Located> {
        let src = Src::parse(text, "<model>", 0)?;
        let root = match src.tree.roots() {
            [r] => *r,
            _ => {
                return Err(Located {
                    file: "<model>".into(),
                    line: 1,
                    column: 1,
                    message: "expected one (model ...) or (...) list of definitions".into(),
                })
            }
        };
        Model::from_node(&src, root, &SortAliases::default())
    }

    /// A model of constants with given values (for library callers and tests).
    pub fn from_values(values: impl IntoIterator<Item = (String, Value)>) -> Model {
        let model = Model::default();
        model.cache.borrow_mut().extend(values);
        model
    }

    /// Whether the model gives `name` a value or interpretation.
    pub fn defines(&self, name: &str) -> bool {
        self.funs.contains_key(name) || self.cache.borrow().contains_key(name)
    }
}

/// The problem's symbols in scope: its definitions (`define-fun`, `define-fun-rec`, `:named`
/// terms), declarations (whose values come from the model) and sort aliases.
#[derive(Clone, Debug, Default)]
pub struct Env {
    pub defs: HashMap<String, Rc<FunDef>>,
    pub decls: HashMap<String, (Vec<Sort>, Sort)>,
    /// Datatype constructors by name.
    pub constructors: HashMap<String, Constructor>,
    /// Datatype selectors by name: (constructor, field index).
    pub selectors: HashMap<String, (String, usize)>,
    /// Terms named with `(! t :named n)`.
    pub named: HashMap<String, TermRef>,
    pub aliases: SortAliases,
    /// When set, a symbol that is neither declared, defined, bound nor in the model is an error
    /// (the checker's setting); otherwise it counts as a symbol without a value.
    pub strict: bool,
}
