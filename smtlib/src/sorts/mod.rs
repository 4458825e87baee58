//! Sort inference: gives every term node of a [`Tree`] its [`Sort`] and collects the
//! [`Declarations`] (declared and defined functions, sorts, datatypes) of the script.
//!
//! Main types: [`SortMap`] (node -> sort), [`Declarations`], [`SortError`]. Entry points:
//! [`infer_sorts`] (strict: the first term it cannot type is a located error),
//! [`infer_sorts_lenient`] (never fails; such terms get no sort), [`declarations`].
//!
//! Scoping follows SMT-LIB: `push`/`pop` undo declarations, `let`, `forall`/`exists`,
//! `lambda`, `match` cases and `define-fun` parameters bind variables that shadow functions,
//! and `:named` terms become constants after their command. Terms are walked with an explicit
//! work stack, so deeply nested terms (long `let` chains) cannot overflow the call stack.
//!
//! The one [`Inference`] pass lives in three files: this one (types, entry points, scopes,
//! the shared helpers), [`declarations`] (commands: declarations, definitions, datatypes and
//! the sorts they write) and [`terms`] (the sort of every term).

use super::symbols::unquote;
use super::theories::{builtin, join, Index};
use super::tree::{Atom, NodeId, NodeKind, Pos, Tree};
use crate::Sort;
use std::collections::{BTreeMap, HashMap};
use std::fmt;

mod declarations;
mod terms;

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
    /// A sort parameter in scope inside a `par` datatype declaration (never in a [`Declarations`]).
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
pub struct Declarations {
    pub functions: BTreeMap<String, FunctionDecl>,
    pub sorts: BTreeMap<String, SortDecl>,
    pub datatypes: BTreeMap<String, Datatype>,
}

impl Declarations {
    /// The rank of function `name` (quoted or not).
    pub fn function(&self, name: &str) -> Option<&FunctionDecl> {
        self.functions.get(unquote(name))
    }
}

/// Strict sort inference: every term must be typable.
pub fn infer_sorts(tree: &Tree) -> Result<SortMap, SortError> {
    infer_with_declarations(tree).map(|(sorts, _)| sorts)
}

/// Strict sort inference that also returns the script's [`Declarations`].
pub fn infer_with_declarations(tree: &Tree) -> Result<(SortMap, Declarations), SortError> {
    let mut inference = Inference::new(tree, true);
    inference.run()?;
    Ok((inference.finish(), inference.signature))
}

/// Lenient variant for reducers: never fails; nodes it cannot type get no sort.
pub fn infer_sorts_lenient(tree: &Tree) -> SortMap {
    lenient_with_declarations(tree).0
}

/// Lenient sort inference that also returns the script's [`Declarations`].
pub fn lenient_with_declarations(tree: &Tree) -> (SortMap, Declarations) {
    let mut inference = Inference::new(tree, false);
    // In lenient mode every failure is recorded and skipped, so `run` cannot fail.
    let _ = inference.run();
    (inference.finish(), inference.signature)
}

/// The declarations of a script, collected leniently (ill-sorted terms do not matter).
pub fn declarations(tree: &Tree) -> Declarations {
    lenient_with_declarations(tree).1
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
    signature: Declarations,
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
            signature: Declarations::default(),
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
