//! Sort inference: gives every term node of a [`Tree`] its [`Sort`] and collects the
//! [`Signature`] (declared and defined functions, sorts, datatypes) of the script.
//!
//! Main types: [`SortMap`] (node -> sort), [`Signature`], [`SortError`]. Entry points:
//! [`infer_sorts`] (strict: the first term it cannot type is a located error),
//! [`infer_sorts_lenient`] (never fails; such terms get no sort), [`declarations`].
//!
//! Scoping follows SMT-LIB: `push`/`pop` undo declarations, `let`, `forall`/`exists`,
//! `lambda`, `match` cases and `define-fun` parameters bind variables that shadow functions,
//! and `:named` terms become constants after their command. Terms are walked with an explicit
//! work stack, so deeply nested terms (long `let` chains) cannot overflow the call stack.

use super::symbols::unquote;
use super::theories::{builtin, join, Index};
use super::tree::{Atom, NodeId, NodeKind, Pos, Tree};
use crate::Sort;
use std::collections::{BTreeMap, HashMap};
use std::fmt;

/// A sort error at a source position. Displays as `LINE:COL: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SortError {
    pub line: u32,
    pub column: u32,
    pub message: String,
}

impl SortError {
    fn at(pos: Pos, message: impl Into<String>) -> SortError {
        SortError {
            line: pos.line,
            column: pos.column,
            message: message.into(),
        }
    }

    /// `FILE:LINE:COL: message`.
    pub fn in_file(&self, file: &str) -> String {
        format!("{file}:{self}")
    }
}

impl fmt::Display for SortError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for SortError {}

/// The sort of each term node; nodes that are not terms (command heads, sorts, binders,
/// attributes) or that could not be typed have none.
#[derive(Clone, Debug, Default)]
pub struct SortMap {
    sorts: Vec<Option<Sort>>,
    untyped: Vec<NodeId>,
}

impl SortMap {
    pub fn get(&self, id: NodeId) -> Option<&Sort> {
        self.sorts.get(id.index()).and_then(|s| s.as_ref())
    }

    /// Term nodes the lenient inference met but could not type, innermost cause first.
    pub fn untyped_terms(&self) -> &[NodeId] {
        &self.untyped
    }

    /// The number of nodes that have a sort.
    pub fn n_typed(&self) -> usize {
        self.sorts.iter().filter(|s| s.is_some()).count()
    }

    /// All typed nodes with their sorts, in node order.
    pub fn iter(&self) -> impl Iterator<Item = (NodeId, &Sort)> {
        self.sorts
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.as_ref().map(|s| (NodeId(i as u32), s)))
    }
}

/// What a function symbol is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FunctionKind {
    /// `declare-fun` / `declare-const`.
    Declared,
    /// `define-fun`, `define-fun-rec`, `define-funs-rec`, `define-const`.
    Defined,
    /// A term named with `(! t :named n)`.
    Named,
    /// A datatype constructor.
    Constructor,
    /// A datatype selector.
    Selector,
    /// A variable bound by `let`, a quantifier, `lambda`, `match` or a function parameter.
    Variable,
}

/// A function symbol's rank. `params` are the sort parameters of polymorphic datatype
/// constructors and selectors; they appear in `args`/`result` as `Sort::Named(p, [])`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FunctionDecl {
    pub params: Vec<String>,
    pub args: Vec<Sort>,
    pub result: Sort,
    pub kind: FunctionKind,
}

/// What a sort symbol is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SortDecl {
    /// `(declare-sort S n)`.
    Declared { arity: usize },
    /// `(define-sort S (params) definition)`.
    Alias {
        params: Vec<String>,
        definition: Sort,
    },
    /// A datatype with its sort parameters.
    Datatype { params: Vec<String> },
    /// A sort parameter in scope inside a `par` datatype declaration (never in a [`Signature`]).
    Parameter,
}

/// A datatype constructor with its selectors (name and field sort) in order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Constructor {
    pub name: String,
    pub selectors: Vec<(String, Sort)>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Datatype {
    pub params: Vec<String>,
    pub constructors: Vec<Constructor>,
}

/// Every global declaration the script makes, keyed by unquoted name; when a name is declared
/// again (after a `pop` or `reset`), the last declaration wins.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Signature {
    pub functions: BTreeMap<String, FunctionDecl>,
    pub sorts: BTreeMap<String, SortDecl>,
    pub datatypes: BTreeMap<String, Datatype>,
}

impl Signature {
    /// The rank of function `name` (quoted or not).
    pub fn function(&self, name: &str) -> Option<&FunctionDecl> {
        self.functions.get(unquote(name))
    }
}

/// Strict sort inference: every term must be typable.
pub fn infer_sorts(tree: &Tree) -> Result<SortMap, SortError> {
    infer_with_signature(tree).map(|(sorts, _)| sorts)
}

/// Strict sort inference that also returns the script's [`Signature`].
pub fn infer_with_signature(tree: &Tree) -> Result<(SortMap, Signature), SortError> {
    let mut inference = Inference::new(tree, true);
    inference.run()?;
    Ok((inference.finish(), inference.signature))
}

/// Lenient variant for reducers: never fails; nodes it cannot type get no sort.
pub fn infer_sorts_lenient(tree: &Tree) -> SortMap {
    lenient_with_signature(tree).0
}

/// Lenient sort inference that also returns the script's [`Signature`].
pub fn lenient_with_signature(tree: &Tree) -> (SortMap, Signature) {
    let mut inference = Inference::new(tree, false);
    // In lenient mode every failure is recorded and skipped, so `run` cannot fail.
    let _ = inference.run();
    (inference.finish(), inference.signature)
}

/// The declarations of a script, collected leniently (ill-sorted terms do not matter).
pub fn declarations(tree: &Tree) -> Signature {
    lenient_with_signature(tree).1
}

/// A name -> value map whose insertions can be undone back to a mark (push/pop, binders).
struct Scoped<V> {
    map: HashMap<String, Vec<V>>,
    log: Vec<String>,
}

impl<V> Scoped<V> {
    fn new() -> Self {
        Scoped {
            map: HashMap::new(),
            log: Vec::new(),
        }
    }

    fn get(&self, name: &str) -> Option<&V> {
        self.map.get(name).and_then(|v| v.last())
    }

    fn insert(&mut self, name: &str, value: V) {
        self.map.entry(name.to_string()).or_default().push(value);
        self.log.push(name.to_string());
    }

    fn mark(&self) -> usize {
        self.log.len()
    }

    fn undo_to(&mut self, mark: usize) {
        while self.log.len() > mark {
            let Some(name) = self.log.pop() else { break };
            if let Some(stack) = self.map.get_mut(&name) {
                stack.pop();
                if stack.is_empty() {
                    self.map.remove(&name);
                }
            }
        }
    }

    fn clear(&mut self) {
        self.map.clear();
        self.log.clear();
    }
}

/// One step of the explicit term walk.
enum Work {
    Enter(NodeId),
    Exit(NodeId),
    BindLet(NodeId),
    BindVars(NodeId),
    BindCase { case: NodeId, scrutinee: NodeId },
    EndScope,
}

/// A parsed function identifier: `f`, `(_ f 1 2)`, `(as f S)`, `(as (_ f 1) S)`.
struct Ident {
    name: String,
    indices: Vec<Index>,
    as_sort: Option<Sort>,
}

/// Limit for recursive sort expressions (terms are walked iteratively and have no limit).
const MAX_SORT_DEPTH: usize = 500;

struct Inference<'t> {
    tree: &'t Tree,
    strict: bool,
    sorts: Vec<Option<Sort>>,
    untyped: Vec<NodeId>,
    /// `None` marks a bound variable whose sort is unknown (lenient mode), so it still
    /// shadows outer symbols of the same name.
    funs: Scoped<Option<FunctionDecl>>,
    sort_defs: Scoped<SortDecl>,
    /// Marks of `funs` and `sort_defs` at each `push`, with how many levels that push opened
    /// (`(push 1000000)` is one entry, not a million).
    levels: Vec<(usize, usize, usize)>,
    /// The number of open push levels (the sum of the counts in `levels`).
    depth: usize,
    scope_marks: Vec<usize>,
    /// `:named` terms of the current command, declared after it.
    pending_names: Vec<(String, Sort)>,
    signature: Signature,
}

type Step = Result<(), SortError>;

/// Sorted variables `((x S) ...)`; a `None` sort after a lenient failure.
type SortedVars = Vec<(String, Option<Sort>)>;

impl<'t> Inference<'t> {
    fn new(tree: &'t Tree, strict: bool) -> Self {
        Inference {
            tree,
            strict,
            sorts: vec![None; tree.len()],
            untyped: Vec::new(),
            funs: Scoped::new(),
            sort_defs: Scoped::new(),
            levels: Vec::new(),
            depth: 0,
            scope_marks: Vec::new(),
            pending_names: Vec::new(),
            signature: Signature::default(),
        }
    }

    fn finish(&mut self) -> SortMap {
        SortMap {
            sorts: std::mem::take(&mut self.sorts),
            untyped: std::mem::take(&mut self.untyped),
        }
    }

    /// Records that `id` cannot be typed: an error in strict mode, a note in lenient mode.
    fn fail(&mut self, id: NodeId, message: impl Into<String>) -> Step {
        if self.strict {
            return Err(SortError::at(self.tree.pos(id), message));
        }
        self.untyped.push(id);
        Ok(())
    }

    fn kids(&self, id: NodeId) -> &'t [NodeId] {
        self.tree.children(id)
    }

    fn name_of(&self, id: NodeId) -> Option<&'t str> {
        self.tree.symbol(id).map(unquote)
    }

    fn run(&mut self) -> Step {
        for &root in self.tree.roots() {
            self.command(root)?;
        }
        Ok(())
    }

    fn declare_global(&mut self, name: &str, decl: FunctionDecl) {
        self.signature
            .functions
            .insert(name.to_string(), decl.clone());
        self.funs.insert(name, Some(decl));
    }

    fn declare_sort_global(&mut self, name: &str, decl: SortDecl) {
        self.signature.sorts.insert(name.to_string(), decl.clone());
        self.sort_defs.insert(name, decl);
    }

    fn command(&mut self, id: NodeId) -> Step {
        let Some(head) = self.tree.head(id) else {
            // A solver response without the `model` keyword: a list of definitions.
            let kids = self.kids(id);
            if !kids.is_empty()
                && kids
                    .iter()
                    .all(|&k| self.tree.head(k) == Some("define-fun"))
            {
                for &k in kids {
                    self.command(k)?;
                }
            }
            return Ok(());
        };
        let kids = self.kids(id);
        match head {
            "assert" => match kids {
                [_, term] => {
                    if let Some(sort) = self.term(*term)? {
                        if sort != Sort::Bool {
                            self.fail(*term, format!("assert expects a Bool term; got {sort}"))?;
                        }
                    }
                }
                _ => self.fail(id, "expected (assert TERM)")?,
            },
            "check-sat-assuming" | "get-value" => match kids {
                [_, terms] if self.tree.is_list(*terms) => {
                    for &t in self.kids(*terms) {
                        self.term(t)?;
                    }
                }
                _ => self.fail(id, format!("expected ({head} (TERM ...))"))?,
            },
            "simplify" | "eval" | "get-qe" | "get-qe-disjunct" => {
                if let Some(&t) = kids.get(1) {
                    self.term(t)?;
                }
            }
            "declare-sort" => self.declare_sort(id)?,
            "define-sort" => self.define_sort(id)?,
            "declare-fun" => self.declare_fun(id)?,
            "declare-const" => match kids {
                [_, name, sort] => {
                    let (name, sort) = (self.name_of(*name), self.sort(*sort)?);
                    if let (Some(name), Some(sort)) = (name, sort) {
                        self.declare_global(name, declared(Vec::new(), sort));
                    }
                }
                _ => self.fail(id, "expected (declare-const NAME SORT)")?,
            },
            "define-fun" | "define-fun-rec" => self.define_fun(id, head == "define-fun-rec")?,
            "define-const" => match kids {
                [_, name, sort, body] => {
                    let sort = self.sort(*sort)?;
                    self.check_body(*body, sort.as_ref())?;
                    if let (Some(name), Some(sort)) = (self.name_of(*name), sort) {
                        self.declare_global(name, defined(Vec::new(), sort));
                    }
                }
                _ => self.fail(id, "expected (define-const NAME SORT TERM)")?,
            },
            "define-funs-rec" => self.define_funs_rec(id)?,
            "declare-datatype" => match kids {
                [_, name, decl] => {
                    let arity = self.datatype_arity(*decl);
                    self.datatypes(&[(*name, arity)], &[*decl])?
                }
                _ => self.fail(id, "expected (declare-datatype NAME DECLARATION)")?,
            },
            "declare-datatypes" => self.declare_datatypes(id)?,
            "push" => {
                let n = self.level_count(id)?;
                if n > 0 {
                    self.levels
                        .push((self.funs.mark(), self.sort_defs.mark(), n));
                    self.depth += n;
                }
            }
            "pop" => {
                let n = self.level_count(id)?;
                if n > self.depth {
                    self.fail(
                        id,
                        format!("pop {n} exceeds the {} open push level(s)", self.depth),
                    )?;
                }
                let mut left = n.min(self.depth);
                self.depth -= left;
                while left > 0 {
                    let Some(top) = self.levels.last_mut() else {
                        break;
                    };
                    let (f, s, count) = *top;
                    // Levels opened by one push share their marks: undo to them either way.
                    self.funs.undo_to(f);
                    self.sort_defs.undo_to(s);
                    if count > left {
                        top.2 -= left;
                        left = 0;
                    } else {
                        left -= count;
                        self.levels.pop();
                    }
                }
            }
            "reset" => {
                self.funs.clear();
                self.sort_defs.clear();
                self.levels.clear();
                self.depth = 0;
            }
            "reset-assertions" => {
                if let Some(&(f, s, _)) = self.levels.first() {
                    self.funs.undo_to(f);
                    self.sort_defs.undo_to(s);
                }
                self.levels.clear();
                self.depth = 0;
            }
            "model" => {
                for &k in &kids[1..] {
                    self.command(k)?;
                }
            }
            // Everything else (set-logic, set-info, check-sat, get-model, echo, exit,
            // responses, ...) contains no terms.
            _ => {}
        }
        for (name, sort) in std::mem::take(&mut self.pending_names) {
            self.declare_global(
                &name,
                FunctionDecl {
                    params: Vec::new(),
                    args: Vec::new(),
                    result: sort,
                    kind: FunctionKind::Named,
                },
            );
        }
        Ok(())
    }

    /// The numeral of `push`/`pop`, 1 when absent.
    fn level_count(&mut self, id: NodeId) -> Result<usize, SortError> {
        match self.kids(id) {
            [_] => Ok(1),
            [_, n] => match self.tree.atom(*n) {
                Some(Atom::Numeral(text)) => match text.parse::<usize>() {
                    Ok(v) => Ok(v),
                    Err(_) => self.fail(*n, "the level count is too large").map(|_| 0),
                },
                _ => self.fail(*n, "expected a numeral level count").map(|_| 0),
            },
            _ => self.fail(id, "expected at most one numeral").map(|_| 0),
        }
    }

    fn declare_sort(&mut self, id: NodeId) -> Step {
        let kids = self.kids(id);
        let arity = match kids.get(2).map(|&n| (n, self.tree.atom(n))) {
            None => Some(0),
            Some((_, Some(Atom::Numeral(text)))) => text.parse().ok(),
            Some((n, _)) => return self.fail(n, "expected a numeral arity"),
        };
        match (
            kids.get(1).and_then(|&n| self.name_of(n)),
            arity,
            kids.len(),
        ) {
            (Some(name), Some(arity), 2 | 3) => {
                self.declare_sort_global(name, SortDecl::Declared { arity });
                Ok(())
            }
            _ => self.fail(id, "expected (declare-sort NAME NUMERAL)"),
        }
    }

    fn define_sort(&mut self, id: NodeId) -> Step {
        let kids = self.kids(id);
        let [_, name, params, definition] = kids else {
            return self.fail(id, "expected (define-sort NAME (PARAM ...) SORT)");
        };
        let Some(params) = self.symbol_list(*params) else {
            return self.fail(*params, "expected a list of sort parameter symbols");
        };
        let mark = self.sort_defs.mark();
        for p in &params {
            self.sort_defs.insert(p, SortDecl::Parameter);
        }
        let definition = self.sort(*definition);
        self.sort_defs.undo_to(mark);
        if let (Some(name), Some(definition)) = (self.name_of(*name), definition?) {
            self.declare_sort_global(name, SortDecl::Alias { params, definition });
        }
        Ok(())
    }

    fn symbol_list(&self, id: NodeId) -> Option<Vec<String>> {
        if !self.tree.is_list(id) {
            return None;
        }
        self.kids(id)
            .iter()
            .map(|&k| self.name_of(k).map(str::to_string))
            .collect()
    }

    fn declare_fun(&mut self, id: NodeId) -> Step {
        let kids = self.kids(id);
        let [_, name, args, result] = kids else {
            return self.fail(id, "expected (declare-fun NAME (SORT ...) SORT)");
        };
        if !self.tree.is_list(*args) {
            return self.fail(*args, "expected a list of argument sorts");
        }
        let mut arg_sorts = Vec::new();
        for &a in self.kids(*args) {
            arg_sorts.push(self.sort(a)?);
        }
        let result = self.sort(*result)?;
        let arg_sorts: Option<Vec<Sort>> = arg_sorts.into_iter().collect();
        if let (Some(name), Some(args), Some(result)) = (self.name_of(*name), arg_sorts, result) {
            self.declare_global(name, declared(args, result));
        }
        Ok(())
    }

    /// Parses `((x S) ...)`; `None` entries for names or sorts that failed (lenient mode).
    fn sorted_vars(&mut self, id: NodeId) -> Result<Option<SortedVars>, SortError> {
        if !self.tree.is_list(id) {
            self.fail(id, "expected a list of sorted variables ((NAME SORT) ...)")?;
            return Ok(None);
        }
        let mut vars = Vec::new();
        for &v in self.kids(id) {
            match self.kids(v) {
                [name, sort] if self.tree.symbol(*name).is_some() => {
                    let name = self.name_of(*name).unwrap_or_default().to_string();
                    let sort = self.sort(*sort)?;
                    vars.push((name, sort));
                }
                _ => {
                    self.fail(v, "expected a sorted variable (NAME SORT)")?;
                    return Ok(None);
                }
            }
        }
        Ok(Some(vars))
    }

    fn define_fun(&mut self, id: NodeId, recursive: bool) -> Step {
        let kids = self.kids(id);
        let [_, name, params, result, body] = kids else {
            return self.fail(
                id,
                "expected (define-fun NAME ((PARAM SORT) ...) SORT TERM)",
            );
        };
        let Some(vars) = self.sorted_vars(*params)? else {
            return Ok(());
        };
        let result = self.sort(*result)?;
        let name = self.name_of(*name);
        let rank = rank(&vars, result.as_ref());
        if recursive {
            if let (Some(name), Some((args, result))) = (name, rank.clone()) {
                self.declare_global(name, defined(args, result));
            }
        }
        self.body_with_params(&vars, *body, result.as_ref())?;
        if let (false, Some(name), Some((args, result))) = (recursive, name, rank) {
            self.declare_global(name, defined(args, result));
        }
        Ok(())
    }

    fn body_with_params(
        &mut self,
        vars: &[(String, Option<Sort>)],
        body: NodeId,
        result: Option<&Sort>,
    ) -> Step {
        let mark = self.funs.mark();
        for (name, sort) in vars {
            self.funs.insert(name, sort.clone().map(variable));
        }
        let checked = self.check_body(body, result);
        self.funs.undo_to(mark);
        checked
    }

    /// Types a definition body and checks it against the declared result sort.
    fn check_body(&mut self, body: NodeId, result: Option<&Sort>) -> Step {
        let sort = self.term(body)?;
        if let (Some(sort), Some(result)) = (sort, result) {
            if !accepts(result, &sort) {
                self.fail(
                    body,
                    format!("the body has sort {sort} but the declared sort is {result}"),
                )?;
            }
        }
        Ok(())
    }

    fn define_funs_rec(&mut self, id: NodeId) -> Step {
        let kids = self.kids(id);
        let [_, decls, bodies] = kids else {
            return self.fail(
                id,
                "expected (define-funs-rec ((NAME PARAMS SORT) ...) (TERM ...))",
            );
        };
        let (decls, bodies) = (self.kids(*decls), self.kids(*bodies));
        if decls.len() != bodies.len() {
            return self.fail(id, "define-funs-rec needs as many bodies as declarations");
        }
        let mut ranks = Vec::new();
        for &d in decls {
            let [name, params, result] = self.kids(d) else {
                self.fail(d, "expected (NAME ((PARAM SORT) ...) SORT)")?;
                ranks.push(None);
                continue;
            };
            let vars = self.sorted_vars(*params)?;
            let result = self.sort(*result)?;
            if let (Some(name), Some(vars)) = (self.name_of(*name), &vars) {
                if let Some((args, r)) = rank(vars, result.as_ref()) {
                    self.declare_global(name, defined(args, r));
                }
            }
            ranks.push(vars.map(|v| (v, result)));
        }
        for (rank, &body) in ranks.into_iter().zip(bodies) {
            if let Some((vars, result)) = rank {
                self.body_with_params(&vars, body, result.as_ref())?;
            }
        }
        Ok(())
    }

    fn datatype_arity(&self, decl: NodeId) -> usize {
        match self.kids(decl) {
            [par, params, _] if self.tree.symbol(*par) == Some("par") => self.kids(*params).len(),
            _ => 0,
        }
    }

    fn declare_datatypes(&mut self, id: NodeId) -> Step {
        let kids = self.kids(id);
        let [_, names, decls] = kids else {
            return self.fail(
                id,
                "expected (declare-datatypes ((NAME ARITY) ...) (DECLARATION ...))",
            );
        };
        let names_kids = self.kids(*names);
        // SMT-LIB 2.6 lists (NAME ARITY) pairs; Z3's older form lists sort parameters
        // (symbols, usually none).
        if self.tree.is_list(*names) && names_kids.iter().all(|&n| self.tree.symbol(n).is_some()) {
            return self.old_style_datatypes(*names, *decls);
        }
        let mut heads = Vec::new();
        for &n in names_kids {
            match self.kids(n) {
                [name, arity] => {
                    let arity = match self.tree.atom(*arity) {
                        Some(Atom::Numeral(a)) => a.parse().unwrap_or(0),
                        _ => 0,
                    };
                    heads.push((*name, arity));
                }
                _ => return self.fail(n, "expected (NAME ARITY)"),
            }
        }
        let decls = self.kids(*decls);
        if decls.len() != heads.len() {
            return self.fail(
                id,
                "declare-datatypes needs one declaration per datatype name",
            );
        }
        self.datatypes(&heads, decls)
    }

    /// Z3's SMT-LIB 2.5 form `(declare-datatypes (PARAM ...) ((NAME CONSTRUCTOR ...) ...))`.
    fn old_style_datatypes(&mut self, params: NodeId, decls: NodeId) -> Step {
        let params = self.symbol_list(params).unwrap_or_default();
        let mut heads = Vec::new();
        for &d in self.kids(decls) {
            match self.kids(d).first() {
                Some(&name) if self.tree.symbol(name).is_some() => heads.push(name),
                _ => return self.fail(d, "expected (NAME CONSTRUCTOR ...)"),
            }
        }
        for &name in &heads {
            if let Some(name) = self.name_of(name) {
                let params = params.clone();
                self.declare_sort_global(name, SortDecl::Datatype { params });
            }
        }
        for &d in self.kids(decls) {
            let [name, ctors @ ..] = self.kids(d) else {
                continue;
            };
            let name = self.name_of(*name).unwrap_or_default();
            self.constructors(name, &params, ctors)?;
        }
        Ok(())
    }

    /// Declares datatypes `heads` (name node, arity) with declarations `decls`; all names
    /// are declared first so that the datatypes may refer to each other.
    fn datatypes(&mut self, heads: &[(NodeId, usize)], decls: &[NodeId]) -> Step {
        let mut params_of = Vec::new();
        for (&(name, _), &decl) in heads.iter().zip(decls) {
            let params = match self.kids(decl) {
                [par, params, _] if self.tree.symbol(*par) == Some("par") => {
                    self.symbol_list(*params).unwrap_or_default()
                }
                _ => Vec::new(),
            };
            if let Some(name) = self.name_of(name) {
                self.declare_sort_global(
                    name,
                    SortDecl::Datatype {
                        params: params.clone(),
                    },
                );
            }
            params_of.push(params);
        }
        for ((&(name, arity), &decl), params) in heads.iter().zip(decls).zip(params_of) {
            if params.len() != arity {
                self.fail(
                    decl,
                    format!(
                        "the datatype has {} sort parameter(s) but arity {arity}",
                        params.len()
                    ),
                )?;
            }
            let ctors = match self.kids(decl) {
                [par, _, ctors] if self.tree.symbol(*par) == Some("par") => self.kids(*ctors),
                _ => self.kids(decl),
            };
            let name = self.name_of(name).unwrap_or_default();
            self.constructors(name, &params, ctors)?;
        }
        Ok(())
    }

    fn constructors(&mut self, datatype: &str, params: &[String], ctors: &[NodeId]) -> Step {
        let mark = self.sort_defs.mark();
        for p in params {
            self.sort_defs.insert(p, SortDecl::Parameter);
        }
        let this = Sort::Named(
            datatype.to_string(),
            params
                .iter()
                .map(|p| Sort::uninterpreted(p.clone()))
                .collect(),
        );
        let mut declared_ctors = Vec::new();
        let mut result = Ok(());
        for &c in ctors {
            // `(C (sel SORT) ...)`, or a bare `C` as Z3's 2.5 syntax allows.
            let (name, fields) = match self.tree.symbol(c) {
                Some(_) => (c, &[][..]),
                None => match self.kids(c).split_first() {
                    Some((&name, fields)) if self.tree.symbol(name).is_some() => (name, fields),
                    _ => {
                        result = self.fail(c, "expected a constructor (NAME (SELECTOR SORT) ...)");
                        if result.is_err() {
                            break;
                        }
                        continue;
                    }
                },
            };
            let mut selectors = Vec::new();
            for &f in fields {
                match self.kids(f) {
                    [sel, sort] if self.tree.symbol(*sel).is_some() => match self.sort(*sort) {
                        Ok(Some(sort)) => selectors
                            .push((self.name_of(*sel).unwrap_or_default().to_string(), sort)),
                        Ok(None) => {}
                        Err(e) => {
                            self.sort_defs.undo_to(mark);
                            return Err(e);
                        }
                    },
                    _ => {
                        result = self.fail(f, "expected a selector (NAME SORT)");
                        if result.is_err() {
                            break;
                        }
                    }
                }
            }
            declared_ctors.push(Constructor {
                name: self.name_of(name).unwrap_or_default().to_string(),
                selectors,
            });
        }
        self.sort_defs.undo_to(mark);
        result?;
        for ctor in &declared_ctors {
            let decl = FunctionDecl {
                params: params.to_vec(),
                args: ctor.selectors.iter().map(|(_, s)| s.clone()).collect(),
                result: this.clone(),
                kind: FunctionKind::Constructor,
            };
            self.declare_global(&ctor.name, decl);
            for (sel, sort) in &ctor.selectors {
                let decl = FunctionDecl {
                    params: params.to_vec(),
                    args: vec![this.clone()],
                    result: sort.clone(),
                    kind: FunctionKind::Selector,
                };
                self.declare_global(sel, decl);
            }
        }
        self.signature.datatypes.insert(
            datatype.to_string(),
            Datatype {
                params: params.to_vec(),
                constructors: declared_ctors,
            },
        );
        Ok(())
    }

    // ----- sorts -----

    /// The sort a sort expression denotes; `Ok(None)` after a lenient failure.
    fn sort(&mut self, id: NodeId) -> Result<Option<Sort>, SortError> {
        match self.parse_sort(id, 0) {
            Ok(s) => Ok(Some(s)),
            Err((at, message)) => self.fail(at, message).map(|_| None),
        }
    }

    fn parse_sort(&self, id: NodeId, depth: usize) -> Result<Sort, (NodeId, String)> {
        if depth > MAX_SORT_DEPTH {
            return Err((id, "sort nesting is too deep".into()));
        }
        if let Some(text) = self.tree.symbol(id) {
            let name = unquote(text);
            return match name {
                "Bool" => Ok(Sort::Bool),
                "Int" => Ok(Sort::Int),
                "Real" => Ok(Sort::Real),
                "String" => Ok(Sort::String),
                "RegLan" => Ok(Sort::RegLan),
                "RoundingMode" => Ok(Sort::RoundingMode),
                "Float16" => Ok(Sort::FloatingPoint(5, 11)),
                "Float32" => Ok(Sort::FloatingPoint(8, 24)),
                "Float64" => Ok(Sort::FloatingPoint(11, 53)),
                "Float128" => Ok(Sort::FloatingPoint(15, 113)),
                _ => self.named_sort(id, name, Vec::new()),
            };
        }
        let kids = self.kids(id);
        match self.tree.head(id) {
            Some("_") if kids.len() >= 3 => {
                let nums: Vec<Option<u32>> = kids[2..]
                    .iter()
                    .map(|&k| match self.tree.atom(k) {
                        Some(Atom::Numeral(n)) => n.parse().ok(),
                        _ => None,
                    })
                    .collect();
                match (self.tree.symbol(kids[1]).unwrap_or_default(), nums.as_slice()) {
                    ("BitVec", [Some(w)]) if *w >= 1 => Ok(Sort::BitVec(*w)),
                    ("FloatingPoint", [Some(e), Some(s)]) if *e >= 2 && *s >= 2 => {
                        Ok(Sort::FloatingPoint(*e, *s))
                    }
                    _ => Err((
                        id,
                        "unknown indexed sort; expected (_ BitVec WIDTH) or (_ FloatingPoint EXP SIG) with positive widths".into(),
                    )),
                }
            }
            Some(head) => {
                let mut args = Vec::new();
                for &k in &kids[1..] {
                    args.push(self.parse_sort(k, depth + 1)?);
                }
                match (unquote(head), args.as_slice()) {
                    ("Array", [_, _]) => {
                        let e = args.pop().unwrap_or(Sort::Bool);
                        let i = args.pop().unwrap_or(Sort::Bool);
                        Ok(Sort::array(i, e))
                    }
                    ("Array", _) => Err((id, "expected (Array INDEX ELEMENT)".into())),
                    ("Seq", [e]) => Ok(Sort::seq(e.clone())),
                    ("Seq", _) => Err((id, "expected (Seq ELEMENT)".into())),
                    (name, _) => self.named_sort(id, name, args),
                }
            }
            None => Err((id, "expected a sort (a symbol or a list)".into())),
        }
    }

    fn named_sort(
        &self,
        id: NodeId,
        name: &str,
        args: Vec<Sort>,
    ) -> Result<Sort, (NodeId, String)> {
        let arity_error = |n: usize| {
            Err((
                id,
                format!("sort '{name}' expects {n} parameter(s); got {}", args.len()),
            ))
        };
        match self.sort_defs.get(name) {
            None => Err((id, format!("unknown sort '{name}'"))),
            Some(SortDecl::Parameter) if args.is_empty() => Ok(Sort::uninterpreted(name)),
            Some(SortDecl::Parameter) => arity_error(0),
            Some(SortDecl::Declared { arity }) if *arity == args.len() => {
                Ok(Sort::Named(name.to_string(), args))
            }
            Some(SortDecl::Declared { arity }) => arity_error(*arity),
            Some(SortDecl::Datatype { params }) if params.len() == args.len() => {
                Ok(Sort::Named(name.to_string(), args))
            }
            Some(SortDecl::Datatype { params }) => arity_error(params.len()),
            Some(SortDecl::Alias { params, definition }) if params.len() == args.len() => {
                let binding: HashMap<String, Sort> = params.iter().cloned().zip(args).collect();
                Ok(substitute(definition, &binding))
            }
            Some(SortDecl::Alias { params, .. }) => arity_error(params.len()),
        }
    }

    // ----- terms -----

    /// Types the term at `root` and everything in it; returns its sort.
    fn term(&mut self, root: NodeId) -> Result<Option<Sort>, SortError> {
        let mut work = vec![Work::Enter(root)];
        while let Some(item) = work.pop() {
            match item {
                Work::Enter(id) => self.enter(id, &mut work)?,
                Work::Exit(id) => self.exit(id)?,
                Work::BindLet(id) => self.bind_let(id),
                Work::BindVars(id) => self.bind_vars(id)?,
                Work::BindCase { case, scrutinee } => self.bind_case(case, scrutinee)?,
                Work::EndScope => {
                    if let Some(mark) = self.scope_marks.pop() {
                        self.funs.undo_to(mark);
                    }
                }
            }
        }
        Ok(self.sorts[root.index()].clone())
    }

    fn set(&mut self, id: NodeId, sort: Sort) {
        self.sorts[id.index()] = Some(sort);
    }

    fn enter(&mut self, id: NodeId, work: &mut Vec<Work>) -> Step {
        let tree = self.tree;
        let kids = tree.children(id);
        match tree.kind(id) {
            NodeKind::Atom(atom) => return self.atom(id, atom),
            NodeKind::List if kids.is_empty() => return self.fail(id, "expected a term; got ()"),
            NodeKind::List => {}
        }
        match tree.head(id) {
            Some("let") => {
                let [_, bindings, _body] = kids else {
                    return self.fail(id, "expected (let ((NAME TERM) ...) TERM)");
                };
                work.extend([
                    Work::Exit(id),
                    Work::EndScope,
                    Work::Enter(kids[2]),
                    Work::BindLet(id),
                ]);
                for &b in tree.children(*bindings).iter().rev() {
                    match tree.children(b) {
                        [name, value] if tree.symbol(*name).is_some() => {
                            work.push(Work::Enter(*value))
                        }
                        _ => return self.fail(b, "expected a binding (NAME TERM)"),
                    }
                }
            }
            Some("forall" | "exists" | "lambda") => {
                let [_, _vars, body] = kids else {
                    return self.fail(id, "expected (forall ((NAME SORT) ...) TERM)");
                };
                work.extend([
                    Work::Exit(id),
                    Work::EndScope,
                    Work::Enter(*body),
                    Work::BindVars(id),
                ]);
            }
            Some("match") => {
                let [_, scrutinee, cases] = kids else {
                    return self.fail(id, "expected (match TERM ((PATTERN TERM) ...))");
                };
                work.push(Work::Exit(id));
                for &case in tree.children(*cases).iter().rev() {
                    let [_pattern, body] = tree.children(case) else {
                        return self.fail(case, "expected a match case (PATTERN TERM)");
                    };
                    work.extend([
                        Work::EndScope,
                        Work::Enter(*body),
                        Work::BindCase {
                            case,
                            scrutinee: *scrutinee,
                        },
                    ]);
                }
                work.push(Work::Enter(*scrutinee));
            }
            Some("!") => {
                if kids.len() < 2 {
                    return self.fail(id, "expected (! TERM ATTRIBUTE ...)");
                }
                work.push(Work::Exit(id));
                // Pattern terms are typed in the scope of the annotated term's binders.
                for pair in kids[2..].windows(2).rev() {
                    if matches!(tree.atom(pair[0]), Some(Atom::Keyword(k)) if k == ":pattern" || k == ":no-pattern")
                    {
                        if tree.is_list(pair[1]) && tree.head(pair[1]).is_none() {
                            for &p in tree.children(pair[1]).iter().rev() {
                                work.push(Work::Enter(p));
                            }
                        } else {
                            work.push(Work::Enter(pair[1]));
                        }
                    }
                }
                work.push(Work::Enter(kids[1]));
            }
            Some("_") | Some("as") => {
                // An indexed or qualified constant used as a term.
                return self.application(id, id, &[]);
            }
            _ => {
                work.push(Work::Exit(id));
                for &arg in kids[1..].iter().rev() {
                    work.push(Work::Enter(arg));
                }
            }
        }
        Ok(())
    }

    fn atom(&mut self, id: NodeId, atom: &Atom) -> Step {
        let sort = match atom {
            Atom::Numeral(_) => Sort::Int,
            Atom::Decimal(_) => Sort::Real,
            Atom::Hexadecimal(h) => match u32::try_from(h.len().saturating_sub(2) * 4) {
                Ok(w) => Sort::BitVec(w),
                Err(_) => return self.fail(id, "the #x literal is too wide"),
            },
            Atom::Binary(b) => match u32::try_from(b.len().saturating_sub(2)) {
                Ok(w) => Sort::BitVec(w),
                Err(_) => return self.fail(id, "the #b literal is too wide"),
            },
            Atom::String(_) => Sort::String,
            Atom::Keyword(k) => return self.fail(id, format!("expected a term; got keyword {k}")),
            Atom::Symbol(_) => return self.application(id, id, &[]),
        };
        self.set(id, sort);
        Ok(())
    }

    fn exit(&mut self, id: NodeId) -> Step {
        let kids = self.kids(id);
        match self.tree.head(id) {
            Some("let") => self.copy_sort(id, kids[2]),
            Some("!") => self.copy_sort(id, kids[1]),
            Some("forall" | "exists") => {
                match self.sorts[kids[2].index()].clone() {
                    Some(Sort::Bool) => self.set(id, Sort::Bool),
                    Some(other) => {
                        return self.fail(
                            kids[2],
                            format!("a quantifier body must be Bool; got {other}"),
                        )
                    }
                    None => {}
                }
                Ok(())
            }
            Some("lambda") => {
                let vars = self.lambda_vars(kids[1]);
                match (vars.as_deref(), self.sorts[kids[2].index()].clone()) {
                    (Some([index]), Some(body)) => {
                        self.set(id, Sort::array(index.clone(), body));
                        Ok(())
                    }
                    (Some(_), Some(_)) => {
                        self.fail(id, "only lambdas of one variable have an array sort")
                    }
                    _ => Ok(()),
                }
            }
            Some("match") => {
                let mut result: Option<Sort> = None;
                for &case in self.kids(kids[2]) {
                    // A case that is an atom or lacks a body parses; it has no sort.
                    let Some(&body) = self.kids(case).get(1) else {
                        return Ok(());
                    };
                    let Some(sort) = self.sorts[body.index()].clone() else {
                        return Ok(());
                    };
                    result = match result {
                        None => Some(sort),
                        Some(r) => match join(&r, &sort) {
                            Some(j) => Some(j),
                            None => {
                                return self.fail(
                                    body,
                                    format!("match cases have different sorts {r} and {sort}"),
                                )
                            }
                        },
                    };
                }
                match result {
                    Some(r) => {
                        self.set(id, r);
                        Ok(())
                    }
                    None => self.fail(id, "a match needs at least one case"),
                }
            }
            _ => self.application(id, kids[0], &kids[1..]),
        }
    }

    fn copy_sort(&mut self, to: NodeId, from: NodeId) -> Step {
        if let Some(sort) = self.sorts[from.index()].clone() {
            if self.tree.head(to) == Some("!") {
                self.note_names(to, &sort);
            }
            self.set(to, sort);
        }
        Ok(())
    }

    fn note_names(&mut self, id: NodeId, sort: &Sort) {
        let kids = self.kids(id);
        for pair in kids[2..].windows(2) {
            if matches!(self.tree.atom(pair[0]), Some(Atom::Keyword(k)) if k == ":named") {
                if let Some(name) = self.name_of(pair[1]) {
                    self.pending_names.push((name.to_string(), sort.clone()));
                }
            }
        }
    }

    fn lambda_vars(&self, vars: NodeId) -> Option<Vec<Sort>> {
        self.kids(vars)
            .iter()
            .map(|&v| match self.kids(v) {
                [_, s] => self.parse_sort(*s, 0).ok(),
                _ => None,
            })
            .collect()
    }

    fn bind_let(&mut self, id: NodeId) {
        self.scope_marks.push(self.funs.mark());
        let bindings = self.kids(self.kids(id)[1]);
        // All values were typed in the outer scope; now bind the names for the body.
        for &b in bindings {
            if let [name, value] = self.kids(b) {
                let sort = self.sorts[value.index()].clone();
                if let Some(name) = self.name_of(*name) {
                    self.funs.insert(name, sort.map(variable));
                }
            }
        }
    }

    fn bind_vars(&mut self, id: NodeId) -> Step {
        self.scope_marks.push(self.funs.mark());
        if let Some(vars) = self.sorted_vars(self.kids(id)[1])? {
            for (name, sort) in vars {
                self.funs.insert(&name, sort.map(variable));
            }
        }
        Ok(())
    }

    fn bind_case(&mut self, case: NodeId, scrutinee: NodeId) -> Step {
        self.scope_marks.push(self.funs.mark());
        let pattern = self.kids(case)[0];
        let scrutinee_sort = self.sorts[scrutinee.index()].clone();
        let (ctor, vars): (Option<&str>, &[NodeId]) = match self.tree.symbol(pattern) {
            Some(s) => (Some(unquote(s)), &[]),
            None => match self.kids(pattern).split_first() {
                Some((&c, vars)) => (self.name_of(c), vars),
                None => (None, &[]),
            },
        };
        let Some(ctor) = ctor else {
            return self.fail(
                pattern,
                "expected a pattern: a constructor, a variable or (CONSTRUCTOR VAR ...)",
            );
        };
        let decl = match self.funs.get(ctor) {
            Some(Some(d)) if d.kind == FunctionKind::Constructor => Some(d.clone()),
            _ => None,
        };
        match decl {
            // A nullary constructor pattern binds nothing.
            Some(d) if vars.is_empty() && d.args.is_empty() => Ok(()),
            Some(d) if vars.len() == d.args.len() => {
                let fields: Vec<Option<Sort>> = match &scrutinee_sort {
                    Some(s) => {
                        let mut binding = HashMap::new();
                        if unify(&d.result, s, &d.params, &mut binding) {
                            d.args
                                .iter()
                                .map(|a| Some(substitute(a, &binding)))
                                .collect()
                        } else {
                            return self
                                .fail(pattern, format!("constructor '{ctor}' does not build {s}"));
                        }
                    }
                    None => vec![None; vars.len()],
                };
                for (&v, sort) in vars.iter().zip(fields) {
                    if let Some(name) = self.name_of(v) {
                        self.funs.insert(name, sort.map(variable));
                    }
                }
                Ok(())
            }
            Some(d) => self.fail(
                pattern,
                format!(
                    "constructor '{ctor}' has {} field(s); the pattern binds {}",
                    d.args.len(),
                    vars.len()
                ),
            ),
            // A variable pattern binds the whole scrutinee.
            None if vars.is_empty() => {
                self.funs.insert(ctor, scrutinee_sort.map(variable));
                Ok(())
            }
            None => self.fail(pattern, format!("'{ctor}' is not a constructor")),
        }
    }

    /// Types node `id`: `head` applied to `args` (or a constant when `args` is empty).
    fn application(&mut self, id: NodeId, head: NodeId, args: &[NodeId]) -> Step {
        let mut arg_sorts = Vec::with_capacity(args.len());
        for &a in args {
            match &self.sorts[a.index()] {
                Some(s) => arg_sorts.push(s.clone()),
                // An argument failed already; the failure was reported there.
                None => return Ok(()),
            }
        }
        let ident = match self.ident(head) {
            Ok(ident) => ident,
            Err((at, message)) => return self.fail(at, message),
        };
        match self.rank_of(&ident, &arg_sorts) {
            Ok(Some(sort)) => {
                self.set(id, sort);
                Ok(())
            }
            Ok(None) => Ok(()),
            Err(message) => self.fail(id, message),
        }
    }

    fn ident(&self, id: NodeId) -> Result<Ident, (NodeId, String)> {
        if let Some(text) = self.tree.symbol(id) {
            return Ok(Ident {
                name: unquote(text).to_string(),
                indices: Vec::new(),
                as_sort: None,
            });
        }
        let kids = self.kids(id);
        match self.tree.head(id) {
            Some("_") if kids.len() >= 3 => {
                let name = self
                    .name_of(kids[1])
                    .ok_or((kids[1], "expected a symbol after '_'".to_string()))?;
                let mut indices = Vec::new();
                for &k in &kids[2..] {
                    indices.push(match self.tree.atom(k) {
                        Some(Atom::Numeral(n)) => Index::Num(
                            n.parse()
                                .map_err(|_| (k, format!("the index {n} is too large")))?,
                        ),
                        Some(Atom::Symbol(s)) => Index::Sym(unquote(s).to_string()),
                        _ => return Err((k, "expected a numeral or symbol index".into())),
                    });
                }
                Ok(Ident {
                    name: name.to_string(),
                    indices,
                    as_sort: None,
                })
            }
            Some("as") if kids.len() == 3 => {
                let inner = self.ident(kids[1])?;
                if inner.as_sort.is_some() {
                    return Err((kids[1], "nested (as ...) is not an identifier".into()));
                }
                let sort = self.parse_sort(kids[2], 0)?;
                Ok(Ident {
                    as_sort: Some(sort),
                    ..inner
                })
            }
            _ => Err((
                id,
                "expected a function symbol, an indexed identifier (_ NAME INDEX ...) or (as NAME SORT)".into(),
            )),
        }
    }

    /// The result sort of `ident` applied to `args`; `Ok(None)` for a bound variable of
    /// unknown sort (lenient mode).
    fn rank_of(&self, ident: &Ident, args: &[Sort]) -> Result<Option<Sort>, String> {
        let name = ident.name.as_str();
        if ident.indices.is_empty() {
            match self.funs.get(name) {
                Some(None) => return Ok(None),
                Some(Some(decl)) => {
                    return instantiate(name, decl, args, ident.as_sort.as_ref()).map(Some)
                }
                None => {}
            }
        }
        let result = match (name, ident.indices.as_slice(), &ident.as_sort) {
            ("const", [], Some(array @ Sort::Array(_, element))) => match args {
                [v] if accepts(element, v) => Ok(array.clone()),
                _ => Err(format!(
                    "(as const {array}) expects one value of sort {element}"
                )),
            },
            ("seq.empty", [], Some(seq @ Sort::Seq(_))) if args.is_empty() => Ok(seq.clone()),
            ("is", [Index::Sym(ctor)], _) => self.tester(ctor, args),
            ("as-array", [Index::Sym(f)], _) => match self.funs.get(f) {
                Some(Some(FunctionDecl {
                    args: fargs,
                    result,
                    ..
                })) if fargs.len() == 1 => Ok(Sort::array(fargs[0].clone(), result.clone())),
                _ => Err(format!("(_ as-array {f}) needs a function of one argument")),
            },
            _ => match name.strip_prefix("is-") {
                Some(ctor) if ident.indices.is_empty() && self.is_constructor(ctor) => {
                    self.tester(ctor, args)
                }
                _ => match builtin(name, &ident.indices, args) {
                    Some(r) => r,
                    None if args.is_empty() => Err(format!("unknown constant '{name}'")),
                    None => Err(format!("unknown function symbol '{name}'")),
                },
            },
        }?;
        match &ident.as_sort {
            Some(s) if !accepts(s, &result) => Err(format!(
                "'{name}' has sort {result}, not the sort {s} given with 'as'"
            )),
            _ => Ok(Some(result)),
        }
    }

    fn is_constructor(&self, name: &str) -> bool {
        matches!(self.funs.get(name), Some(Some(d)) if d.kind == FunctionKind::Constructor)
    }

    fn tester(&self, ctor: &str, args: &[Sort]) -> Result<Sort, String> {
        let Some(Some(decl)) = self.funs.get(ctor).filter(|_| self.is_constructor(ctor)) else {
            return Err(format!("'{ctor}' is not a constructor"));
        };
        let mut binding = HashMap::new();
        match args {
            [s] if unify(&decl.result, s, &decl.params, &mut binding) => Ok(Sort::Bool),
            _ => Err(format!(
                "the tester of '{ctor}' expects one argument of its datatype"
            )),
        }
    }
}

fn declared(args: Vec<Sort>, result: Sort) -> FunctionDecl {
    FunctionDecl {
        params: Vec::new(),
        args,
        result,
        kind: FunctionKind::Declared,
    }
}

fn defined(args: Vec<Sort>, result: Sort) -> FunctionDecl {
    FunctionDecl {
        kind: FunctionKind::Defined,
        ..declared(args, result)
    }
}

fn variable(sort: Sort) -> FunctionDecl {
    FunctionDecl {
        kind: FunctionKind::Variable,
        ..declared(Vec::new(), sort)
    }
}

fn rank(vars: &[(String, Option<Sort>)], result: Option<&Sort>) -> Option<(Vec<Sort>, Sort)> {
    let args: Option<Vec<Sort>> = vars.iter().map(|(_, s)| s.clone()).collect();
    Some((args?, result?.clone()))
}

/// Whether a value of sort `actual` may stand where `expected` is wanted: equal sorts, or an
/// Int where a Real is wanted (Z3 and cvc5 insert `to_real`).
fn accepts(expected: &Sort, actual: &Sort) -> bool {
    expected == actual || (*expected == Sort::Real && *actual == Sort::Int)
}

/// Matches `template` (with sort parameters `params`) against `actual`, extending `binding`.
fn unify(
    template: &Sort,
    actual: &Sort,
    params: &[String],
    binding: &mut HashMap<String, Sort>,
) -> bool {
    match (template, actual) {
        (Sort::Named(p, args), _) if args.is_empty() && params.contains(p) => {
            match binding.get(p) {
                Some(bound) => bound == actual,
                None => {
                    binding.insert(p.clone(), actual.clone());
                    true
                }
            }
        }
        (Sort::Array(ti, te), Sort::Array(ai, ae)) => {
            unify(ti, ai, params, binding) && unify(te, ae, params, binding)
        }
        (Sort::Seq(t), Sort::Seq(a)) => unify(t, a, params, binding),
        (Sort::Named(tn, targs), Sort::Named(an, aargs)) => {
            tn == an
                && targs.len() == aargs.len()
                && targs
                    .iter()
                    .zip(aargs)
                    .all(|(t, a)| unify(t, a, params, binding))
        }
        _ => accepts(template, actual),
    }
}

fn substitute(sort: &Sort, binding: &HashMap<String, Sort>) -> Sort {
    match sort {
        Sort::Named(p, args) if args.is_empty() => {
            binding.get(p).cloned().unwrap_or_else(|| sort.clone())
        }
        Sort::Named(n, args) => Sort::Named(
            n.clone(),
            args.iter().map(|a| substitute(a, binding)).collect(),
        ),
        Sort::Array(i, e) => Sort::array(substitute(i, binding), substitute(e, binding)),
        Sort::Seq(e) => Sort::seq(substitute(e, binding)),
        other => other.clone(),
    }
}

fn has_params(sort: &Sort, params: &[String], binding: &HashMap<String, Sort>) -> bool {
    match sort {
        Sort::Named(p, args) if args.is_empty() => params.contains(p) && !binding.contains_key(p),
        Sort::Named(_, args) => args.iter().any(|a| has_params(a, params, binding)),
        Sort::Array(i, e) => has_params(i, params, binding) || has_params(e, params, binding),
        Sort::Seq(e) => has_params(e, params, binding),
        _ => false,
    }
}

/// The result sort of a user function applied to `args`, instantiating sort parameters.
fn instantiate(
    name: &str,
    decl: &FunctionDecl,
    args: &[Sort],
    as_sort: Option<&Sort>,
) -> Result<Sort, String> {
    if decl.args.len() != args.len() {
        return Err(format!(
            "'{name}' expects {} argument(s); got {}",
            decl.args.len(),
            args.len()
        ));
    }
    let mut binding = HashMap::new();
    for (i, (want, got)) in decl.args.iter().zip(args).enumerate() {
        if !unify(want, got, &decl.params, &mut binding) {
            return Err(format!(
                "argument {} of '{name}' has sort {got}; expected {}",
                i + 1,
                substitute(want, &binding)
            ));
        }
    }
    if let Some(target) = as_sort {
        if !unify(&decl.result, target, &decl.params, &mut binding) {
            return Err(format!(
                "'{name}' cannot have the sort {target} given with 'as'"
            ));
        }
    }
    if has_params(&decl.result, &decl.params, &binding) {
        return Err(format!(
            "cannot infer the sort of '{name}'; write (as {name} SORT)"
        ));
    }
    Ok(substitute(&decl.result, &binding))
}
