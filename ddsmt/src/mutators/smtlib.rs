//! SMT-LIB language mutators: [`CheckSatAssuming`], [`EliminateVariables`],
//! [`InlineFunctions`], [`IntroduceFreshVariables`], [`LetElimination`], [`LetSubstitution`],
//! [`RemoveAnnotation`], [`RemoveRecursiveFunction`], [`SimplifyLogic`],
//! [`SimplifyQuotedSymbols`], [`SimplifySymbolNames`] and [`EliminatePushPop`].

use super::core::{root_declares, short};
use super::util::{self, app, atom, delete, edit, node, replace};
use super::{Group, Mutation, MutationInput, Mutator};
use smtlib::{NodeId, Sx, Tree};
use std::collections::{HashMap, HashSet};

/// `(check-sat-assuming (...))` -> `(check-sat)`.
pub struct CheckSatAssuming;

impl Mutator for CheckSatAssuming {
    mutator_info!(
        Group::Smtlib,
        "check-sat-assuming",
        "substitute check-sat-assuming by check-sat"
    );
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        cx.tree.parent(id).is_none() && cx.tree.head(id) == Some("check-sat-assuming")
    }
    fn mutations(&self, _cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        vec![replace(
            "check-sat-assuming to check-sat",
            id,
            app("check-sat", Vec::new()),
        )]
    }
}

/// The root index at which each global name is declared.
fn declaration_index(tree: &Tree) -> HashMap<String, usize> {
    let mut out = HashMap::new();
    for (i, &root) in tree.roots().iter().enumerate() {
        for name in root_declares(tree, root) {
            out.entry(name).or_insert(i);
        }
    }
    out
}

/// Free occurrences of the global symbol `name` in roots after `after` (exclusive) where
/// none of `avoid` is rebound (so a replacement mentioning them is not captured).
fn global_uses(tree: &Tree, name: &str, after: usize, avoid: &HashSet<String>) -> Vec<NodeId> {
    let mut out = Vec::new();
    for &root in tree.roots().iter().skip(after + 1) {
        util::walk_symbols(tree, root, &mut |s, bound| {
            if util::name(tree, s) == Some(name)
                && !bound.iter().any(|b| b == name || avoid.contains(b))
                && !util::bound_names(tree, s)
                    .iter()
                    .any(|b| b == name || avoid.contains(b))
            {
                out.push(s);
            }
        });
    }
    out
}

/// Uses an equality `(= x t)` to replace the global constant `x` by `t` everywhere after
/// the declarations `t` needs.
pub struct EliminateVariables;

impl EliminateVariables {
    fn candidates(cx: &MutationInput, id: NodeId) -> Vec<(String, NodeId)> {
        let tree = cx.tree;
        let Some([a, b]) = util::app_args(tree, id, "=") else {
            return Vec::new();
        };
        let root = util::root_of(tree, id);
        let before = util::root_index(tree, root).unwrap_or(0);
        let globals: HashSet<String> = util::global_constants(tree, before)
            .into_iter()
            .map(|(n, _)| util::unquote(&n).to_string())
            .collect();
        let bound: HashSet<String> = util::bound_names(tree, id).into_iter().collect();
        let mut out = Vec::new();
        for (var, term) in [(*a, *b), (*b, *a)] {
            let Some(x) = util::name(tree, var) else {
                continue;
            };
            if !globals.contains(x) || bound.contains(x) {
                continue;
            }
            let free = util::free_symbols(tree, term);
            if free.contains(x) || !free.is_disjoint(&bound) {
                continue;
            }
            out.push((x.to_string(), term));
        }
        out
    }
}

impl Mutator for EliminateVariables {
    mutator_info!(
        Group::Smtlib,
        "eliminate-variables",
        "eliminate variable from equality"
    );
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        !Self::candidates(cx, id).is_empty()
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        let tree = cx.tree;
        let decl_at = declaration_index(tree);
        Self::candidates(cx, id)
            .into_iter()
            .filter_map(|(x, term)| {
                let free = util::free_symbols(tree, term);
                let after = free
                    .iter()
                    .chain(std::iter::once(&x))
                    .filter_map(|s| decl_at.get(s))
                    .max()
                    .copied()
                    .unwrap_or(0);
                let uses = global_uses(tree, &x, after, &free);
                let edits: Vec<_> = uses
                    .into_iter()
                    .filter(|&u| u != term && !tree.preorder(term).any(|t| t == u))
                    .map(|u| edit(u, node(term)))
                    .collect();
                (!edits.is_empty()).then(|| {
                    util::mutation(format!("eliminate {x} = {}", short(tree, term)), edits)
                })
            })
            .collect()
    }
}

/// A `define-fun` seen before a command: parameter names and body.
struct Definition {
    params: Vec<String>,
    body: NodeId,
    root_index: usize,
}

fn definitions(tree: &Tree) -> HashMap<String, Definition> {
    let mut out = HashMap::new();
    for (i, &root) in tree.roots().iter().enumerate() {
        let ch = tree.children(root);
        if tree.head(root) == Some("define-fun") && ch.len() == 5 {
            let Some(name) = util::name(tree, ch[1]) else {
                continue;
            };
            let params = tree
                .children(ch[2])
                .iter()
                .filter_map(|&p| tree.children(p).first().and_then(|&n| util::name(tree, n)))
                .map(String::from)
                .collect();
            out.entry(name.to_string()).or_insert(Definition {
                params,
                body: ch[4],
                root_index: i,
            });
        }
    }
    out
}

/// Replaces an application of a function defined with `define-fun` by its body.
pub struct InlineFunctions;

impl InlineFunctions {
    fn inline(cx: &MutationInput, id: NodeId) -> Option<Sx> {
        let tree = cx.tree;
        let (name, args): (&str, &[NodeId]) = if let Some(s) = util::name(tree, id) {
            // A nullary function used as a constant (not as a head or a binder name).
            if tree.parent(id).is_none() || !util::is_term(cx, id) {
                return None;
            }
            (s, &[])
        } else {
            (util::head(tree, id)?, util::args(tree, id))
        };
        let defs = definitions(tree);
        let def = defs.get(name)?;
        let root = util::root_of(tree, id);
        if def.params.len() != args.len()
            || util::root_index(tree, root).is_none_or(|i| i <= def.root_index)
        {
            return None;
        }
        let bound = util::bound_names(tree, id);
        if bound.iter().any(|b| b == name) {
            return None;
        }
        // Symbols of the body other than parameters must mean the same at the call site.
        let body_free = util::free_symbols(tree, def.body);
        if bound
            .iter()
            .any(|b| body_free.contains(b) && !def.params.contains(b))
        {
            return None;
        }
        let map: HashMap<String, Sx> = def
            .params
            .iter()
            .cloned()
            .zip(args.iter().map(|&a| node(a)))
            .collect();
        util::substitute(tree, def.body, &map)
    }
}

impl Mutator for InlineFunctions {
    mutator_info!(Group::Smtlib, "inline-functions", "inline defined function");
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        let tree = cx.tree;
        let name = util::name(tree, id).or_else(|| util::head(tree, id));
        name.is_some_and(|n| definitions(tree).contains_key(n)) && Self::inline(cx, id).is_some()
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        Self::inline(cx, id)
            .map(|sx| vec![replace("inline function", id, sx)])
            .unwrap_or_default()
    }
}

/// Replaces a compound term by a fresh constant of its sort, declared before the command.
pub struct IntroduceFreshVariables;

impl Mutator for IntroduceFreshVariables {
    mutator_info!(
        Group::Smtlib,
        "introduce-fresh-variables",
        "introduce fresh variable"
    );
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        cx.tree.is_list(id)
            && util::is_term(cx, id)
            && !util::is_constant(cx.tree, id)
            && cx.tree.parent(id).is_some()
            && !util::drops_used_name(cx.tree, id, None)
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        let tree = cx.tree;
        let Some(sort) = util::sort(cx, id) else {
            return Vec::new();
        };
        let name = util::fresh_name(tree, "_x", &HashSet::new());
        let root = util::root_of(tree, id);
        let rewritten = util::rebuild(tree, root, &HashMap::from([(id, atom(&name))]));
        vec![util::mutation(
            format!("introduce {name} for {}", short(tree, id)),
            vec![util::insert_before_root(
                tree,
                root,
                &[format!("(declare-const {name} {sort})")],
                &rewritten,
            )],
        )]
    }
}

/// The let-bound names and terms of a `let` node.
fn let_bindings(tree: &Tree, id: NodeId) -> Option<Vec<(String, NodeId, NodeId)>> {
    if tree.head(id) != Some("let") {
        return None;
    }
    let bindings = *tree.children(id).get(1)?;
    let vars = util::binder_vars(tree, id)?;
    Some(
        vars.into_iter()
            .zip(tree.children(bindings).iter().copied())
            .filter_map(|((n, t), b)| util::name(tree, n).map(|s| (s.to_string(), t, b)))
            .collect(),
    )
}

/// `(let ((x t) ...) body)` -> `body` with every bound variable replaced by its term.
pub struct LetElimination;

impl LetElimination {
    fn eliminate(cx: &MutationInput, id: NodeId) -> Option<Sx> {
        let tree = cx.tree;
        let bindings = let_bindings(tree, id)?;
        let map: HashMap<String, Sx> = bindings
            .iter()
            .map(|(n, t, _)| (n.clone(), node(*t)))
            .collect();
        util::substitute(tree, tree.children(id)[2], &map)
    }

    fn rewrite(cx: &MutationInput, id: NodeId) -> Option<Mutation> {
        let sx = Self::eliminate(cx, id)?;
        Some(replace("eliminate let", id, sx))
    }
}

impl Mutator for LetElimination {
    mutator_info!(Group::Smtlib, "let-elimination", "eliminate let binder");
    single_rewrite!(Self::rewrite);
}

/// Substitutes one let-bound variable into the body and drops its binding.
pub struct LetSubstitution;

impl LetSubstitution {
    fn candidates(cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        let tree = cx.tree;
        let Some(bindings) = let_bindings(tree, id) else {
            return Vec::new();
        };
        let body = tree.children(id)[2];
        let mut out = Vec::new();
        for (name, term, binding) in &bindings {
            let map = HashMap::from([(name.clone(), node(*term))]);
            let Some(new_body) = util::substitute(tree, body, &map) else {
                continue;
            };
            // The term moves into the scope of the other bindings? No: let is parallel and
            // the new body sits where the old one did, so only inner binders can capture,
            // which `substitute` checks. But the other bindings now shadow names of `term`.
            let others: HashSet<&str> = bindings
                .iter()
                .filter(|(n, _, b)| b != binding && !n.is_empty())
                .map(|(n, _, _)| n.as_str())
                .collect();
            if util::free_symbols(tree, *term)
                .iter()
                .any(|s| others.contains(s.as_str()))
            {
                continue;
            }
            let sx = if bindings.len() == 1 {
                new_body
            } else {
                let kept = bindings
                    .iter()
                    .filter(|(_, _, b)| b != binding)
                    .map(|(_, _, b)| node(*b))
                    .collect();
                app("let", vec![Sx::List(kept), new_body])
            };
            out.push(replace(format!("substitute {name} into let body"), id, sx));
        }
        out
    }
}

impl Mutator for LetSubstitution {
    mutator_info!(
        Group::Smtlib,
        "let-substitution",
        "substitute variable into let body"
    );
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        cx.tree.head(id) == Some("let")
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        Self::candidates(cx, id)
    }
}

/// `(! t :named n ...)` -> `t`, unless a `:named` name is used elsewhere.
pub struct RemoveAnnotation;

impl RemoveAnnotation {
    fn removable(cx: &MutationInput, id: NodeId) -> bool {
        let tree = cx.tree;
        let ch = tree.children(id);
        if tree.head(id) != Some("!") || ch.len() < 2 {
            return false;
        }
        ch[2..].windows(2).all(|pair| {
            if util::text(tree, pair[0]) != Some(":named") {
                return true;
            }
            let name = util::text(tree, pair[1]).unwrap_or_default();
            util::symbol_nodes(tree, util::unquote(name)) == vec![pair[1]]
        })
    }
}

impl Mutator for RemoveAnnotation {
    mutator_info!(Group::Smtlib, "remove-annotation", "remove annotation");
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        Self::removable(cx, id)
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        vec![replace(
            "remove annotation",
            id,
            node(cx.tree.children(id)[1]),
        )]
    }
}

/// `(define-fun-rec f ((x S)) R body)` -> `(declare-fun f (S) R)`; the same for every
/// function of `define-funs-rec`.
pub struct RemoveRecursiveFunction;

impl RemoveRecursiveFunction {
    /// `(declare-fun f (S...) R)` for a signature `f ((x S)...) R`.
    fn declaration(tree: &Tree, name: NodeId, params: NodeId, result: NodeId) -> Sx {
        let sorts = tree
            .children(params)
            .iter()
            .filter_map(|&p| tree.children(p).get(1).map(|&s| node(s)))
            .collect();
        app(
            "declare-fun",
            vec![node(name), Sx::List(sorts), node(result)],
        )
    }
}

impl Mutator for RemoveRecursiveFunction {
    mutator_info!(
        Group::Smtlib,
        "remove-recursive-function",
        "remove recursive function"
    );
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        let tree = cx.tree;
        tree.parent(id).is_none()
            && match tree.head(id) {
                Some("define-fun-rec") => tree.children(id).len() == 5,
                Some("define-funs-rec") => tree.children(id).len() == 3,
                _ => false,
            }
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        let tree = cx.tree;
        let ch = tree.children(id);
        if tree.head(id) == Some("define-fun-rec") {
            return vec![replace(
                "define-fun-rec to declare-fun",
                id,
                Self::declaration(tree, ch[1], ch[2], ch[3]),
            )];
        }
        let decls: Vec<String> = tree
            .children(ch[1])
            .iter()
            .filter_map(|&d| match tree.children(d) {
                [n, p, r] => Some(tree.print_sx(&Self::declaration(tree, *n, *p, *r))),
                _ => None,
            })
            .collect();
        if decls.is_empty() {
            return Vec::new();
        }
        let (last, first) = decls.split_last().unwrap_or((&decls[0], &[]));
        vec![util::mutation(
            "define-funs-rec to declare-fun",
            vec![util::insert_before_root(tree, id, first, &atom(last))],
        )]
    }
}

/// The components of a logic name, e.g. `QF_AUFLIA` -> (true, ["A", "UF", "LIA"]).
fn logic_components(logic: &str) -> Option<(bool, Vec<&'static str>)> {
    const PARTS: &[&str] = &[
        "AX", "A", "UF", "BV", "FP", "DT", "S", "LIRA", "LIA", "LRA", "NIRA", "NIA", "NRA", "IDL",
        "RDL",
    ];
    let (qf, mut rest) = match logic.strip_prefix("QF_") {
        Some(r) => (true, r),
        None => (false, logic),
    };
    let mut out = Vec::new();
    while !rest.is_empty() {
        let part = PARTS.iter().find(|p| rest.starts_with(**p))?;
        out.push(*part);
        rest = &rest[part.len()..];
    }
    (!out.is_empty()).then_some((qf, out))
}

/// Replaces the logic of `set-logic` by a smaller one: a theory dropped, nonlinear to
/// linear, quantifiers dropped.
pub struct SimplifyLogic;

impl SimplifyLogic {
    fn candidates(cx: &MutationInput, id: NodeId) -> Vec<(NodeId, String)> {
        let tree = cx.tree;
        if tree.parent(id).is_some() || tree.head(id) != Some("set-logic") {
            return Vec::new();
        }
        let Some(&logic_node) = tree.children(id).get(1) else {
            return Vec::new();
        };
        let Some((qf, parts)) = tree.symbol(logic_node).and_then(logic_components) else {
            return Vec::new();
        };
        let name =
            |qf: bool, parts: &[&str]| format!("{}{}", if qf { "QF_" } else { "" }, parts.concat());
        let mut out = Vec::new();
        // The last theory of a quantifier-free logic may go too: `QF_` (some solvers take it,
        // the check decides).
        if parts.len() > 1 || (qf && parts.len() == 1) {
            for i in 0..parts.len() {
                let mut fewer = parts.clone();
                fewer.remove(i);
                out.push(name(qf, &fewer));
            }
        }
        for (i, p) in parts.iter().enumerate() {
            // Mixed arithmetic to one kind: LIRA -> LRA, LIA.
            if let Some(rest) = p.strip_suffix("IRA") {
                for one in ["RA", "IA"] {
                    let mut changed: Vec<&str> = parts.clone();
                    let part = format!("{rest}{one}");
                    changed[i] = &part;
                    out.push(name(qf, &changed));
                }
            }
            if let Some(linear) = p.strip_prefix('N') {
                let linear = format!("L{linear}");
                let mut changed: Vec<&str> = parts.clone();
                changed[i] = &linear;
                out.push(name(qf, &changed));
            }
        }
        // No `QF_` is added: it makes the input longer, and a reducer only shrinks. The
        // shortest logics first (QF_ABV: QF_A before QF_BV), since the first that keeps the
        // behaviour is taken.
        out.sort_by_key(String::len);
        out.into_iter().map(|l| (logic_node, l)).collect()
    }
}

impl Mutator for SimplifyLogic {
    mutator_info!(Group::Smtlib, "simplify-logic", "simplify logic");
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        !Self::candidates(cx, id).is_empty()
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        Self::candidates(cx, id)
            .into_iter()
            .map(|(n, l)| replace(format!("logic {l}"), n, atom(l)))
            .collect()
    }
}

/// `|abc|` -> `abc` everywhere, when `abc` needs no quotes.
pub struct SimplifyQuotedSymbols;

impl Mutator for SimplifyQuotedSymbols {
    mutator_info!(
        Group::Smtlib,
        "simplify-quoted-symbols",
        "simplify quoted symbol"
    );
    global_only!();
    fn global_mutations(&self, cx: &MutationInput) -> Vec<Mutation> {
        let tree = cx.tree;
        let mut by_name: Vec<(String, Vec<NodeId>)> = Vec::new();
        for &root in tree.roots() {
            for id in tree.preorder(root) {
                let Some(s) = tree.symbol(id) else { continue };
                let plain = util::unquote(s);
                if s.starts_with('|') && util::is_simple_symbol(plain) {
                    match by_name.iter_mut().find(|(n, _)| n == plain) {
                        Some((_, ids)) => ids.push(id),
                        None => by_name.push((plain.to_string(), vec![id])),
                    }
                }
            }
        }
        by_name
            .into_iter()
            .map(|(name, ids)| {
                let edits = ids.into_iter().map(|i| edit(i, atom(&name))).collect();
                util::mutation(format!("unquote |{name}|"), edits)
            })
            .collect()
    }
}

/// Short names: `a`..`z`, then `a0`, `b0`, ...
fn short_names() -> impl Iterator<Item = String> {
    (0..).flat_map(|round: u32| {
        (b'a'..=b'z').map(move |c| {
            if round == 0 {
                (c as char).to_string()
            } else {
                format!("{}{}", c as char, round - 1)
            }
        })
    })
}

/// Renames a declared or bound symbol to a short fresh name everywhere.
pub struct SimplifySymbolNames;

impl SimplifySymbolNames {
    /// Declared names, then names bound by binders and parameters.
    fn names(tree: &Tree) -> Vec<String> {
        let mut names = util::declared_names(tree);
        let mut seen: HashSet<String> = names.iter().cloned().collect();
        for &root in tree.roots() {
            for id in tree.preorder(root) {
                let mut add = |n: NodeId| {
                    if let Some(s) = tree.symbol(n) {
                        if seen.insert(s.to_string()) {
                            names.push(s.to_string());
                        }
                    }
                };
                if let Some(vars) = util::binder_vars(tree, id) {
                    vars.into_iter().for_each(|(n, _)| add(n));
                }
                if matches!(tree.head(id), Some("define-fun" | "define-fun-rec")) {
                    if let Some(&params) = tree.children(id).get(2) {
                        for &p in tree.children(params) {
                            if let Some(&n) = tree.children(p).first() {
                                add(n);
                            }
                        }
                    }
                }
            }
        }
        names
    }
}

impl Mutator for SimplifySymbolNames {
    mutator_info!(
        Group::Smtlib,
        "simplify-symbol-names",
        "simplify symbol name"
    );
    global_only!();
    fn global_mutations(&self, cx: &MutationInput) -> Vec<Mutation> {
        let tree = cx.tree;
        let used: HashSet<String> = util::all_symbols(tree)
            .iter()
            .map(|s| util::unquote(s).to_string())
            .collect();
        let mut fresh = short_names().filter(|n| !used.contains(n));
        let mut names = Self::names(tree);
        names.sort_by_key(|n| std::cmp::Reverse(n.len()));
        let mut out = Vec::new();
        for name in names {
            let plain = util::unquote(&name).to_string();
            if plain.len() <= 1 {
                continue;
            }
            let Some(new) = fresh.next() else { break };
            if new.len() >= name.len() {
                continue;
            }
            let mut edits: Vec<_> = util::symbol_nodes(tree, &plain)
                .into_iter()
                .map(|i| edit(i, atom(&new)))
                .collect();
            // Testers of a renamed constructor follow it.
            edits.extend(
                util::symbol_nodes(tree, &format!("is-{plain}"))
                    .into_iter()
                    .map(|i| edit(i, atom(format!("is-{new}")))),
            );
            out.push(util::mutation(format!("rename {name} to {new}"), edits));
        }
        out
    }
}

/// Removes a `push` with its matching `pop`, or the whole scope between them.
pub struct EliminatePushPop;

impl EliminatePushPop {
    fn levels(tree: &Tree, id: NodeId) -> Option<u64> {
        match tree.children(id) {
            [_] => Some(1),
            [_, n] => util::text(tree, *n)?.parse().ok(),
            _ => None,
        }
    }

    /// The `pop` that closes the scope opened by the `push` at root position `start`.
    fn matching_pop(tree: &Tree, start: usize) -> Option<usize> {
        let roots = tree.roots();
        let mut depth = Self::levels(tree, roots[start])? as i64;
        for (i, &r) in roots.iter().enumerate().skip(start + 1) {
            match tree.head(r) {
                Some("push") => depth += Self::levels(tree, r)? as i64,
                Some("pop") => {
                    depth -= Self::levels(tree, r)? as i64;
                    if depth == 0 {
                        return Some(i);
                    }
                    if depth < 0 {
                        return None;
                    }
                }
                _ => {}
            }
        }
        None
    }
}

impl Mutator for EliminatePushPop {
    mutator_info!(
        Group::Smtlib,
        "eliminate-push-pop",
        "eliminate push/pop scope"
    );
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        cx.tree.parent(id).is_none() && cx.tree.head(id) == Some("push")
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        let tree = cx.tree;
        let Some(start) = util::root_index(tree, id) else {
            return Vec::new();
        };
        let Some(end) = Self::matching_pop(tree, start) else {
            return vec![util::mutation("remove unmatched push", vec![delete(id)])];
        };
        let roots = tree.roots();
        let scope: Vec<_> = roots[start..=end].iter().map(|&r| delete(r)).collect();
        let used_after: HashSet<String> = roots[end + 1..]
            .iter()
            .flat_map(|&r| super::core::root_uses(tree, r))
            .collect();
        let declared_inside: HashSet<String> = roots[start..=end]
            .iter()
            .flat_map(|&r| root_declares(tree, r))
            .collect();
        let mut out = Vec::new();
        if used_after.is_disjoint(&declared_inside) {
            out.push(util::mutation("remove push/pop scope", scope));
        }
        out.push(util::mutation(
            "remove push and pop",
            vec![delete(id), delete(roots[end])],
        ));
        // Merge with the next scope: its `(push)` and this `(pop)` go, so the commands of
        // both scopes share one (an assertion both repeat can go next). Only the first
        // push after the pop, when no pop comes between.
        let next_push = roots[end + 1..]
            .iter()
            .take_while(|&&r| tree.head(r) != Some("pop") && tree.head(r) != Some("reset"))
            .find(|&&r| tree.head(r) == Some("push"));
        if let Some(&next) = next_push {
            if Self::levels(tree, next) == Some(1) && Self::levels(tree, roots[end]) == Some(1) {
                out.push(util::mutation(
                    "merge with the next scope",
                    vec![delete(roots[end]), delete(next)],
                ));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutators::testutil::{check, check_global};

    const D: &str = "(declare-const x Int)\n(declare-const y Int)\n";

    fn with(body: &str) -> String {
        format!("{D}{body}")
    }

    #[test]
    fn check_sat_assuming() {
        let input = "(declare-const p Bool)\n(check-sat-assuming (p))";
        check(
            &CheckSatAssuming,
            input,
            "(check-sat-assuming (p))",
            &["(declare-const p Bool)\n(check-sat)"],
        );
    }

    #[test]
    fn eliminate_variables() {
        let input = with("(assert (= x (+ y 1)))\n(assert (> x 2))");
        check(
            &EliminateVariables,
            &input,
            "(= x (+ y 1))",
            &[&with(
                "(assert (= (+ y 1) (+ y 1)))\n(assert (> (+ y 1) 2))",
            )],
        );
        // Both sides are variables: either can go.
        let input = with("(assert (= x y))\n(assert (> x y))");
        check(
            &EliminateVariables,
            &input,
            "(= x y)",
            &[
                &with("(assert (= y y))\n(assert (> y y))"),
                &with("(assert (= x x))\n(assert (> x x))"),
            ],
        );
        check(
            &EliminateVariables,
            &with("(assert (= x (+ x 1)))"),
            "(= x (+ x 1))",
            &[],
        );
    }

    #[test]
    fn inline_functions() {
        let input =
            with("(define-fun f ((a Int) (b Int)) Int (+ a (* 2 b)))\n(assert (> (f x 3) y))");
        check(
            &InlineFunctions,
            &input,
            "(f x 3)",
            &[&with(
                "(define-fun f ((a Int) (b Int)) Int (+ a (* 2 b)))\n(assert (> (+ x (* 2 3)) y))",
            )],
        );
        let input = with("(define-fun c () Int (+ x 1))\n(assert (> c y))");
        check(
            &InlineFunctions,
            &input,
            "c @ (> c y)",
            &[&with(
                "(define-fun c () Int (+ x 1))\n(assert (> (+ x 1) y))",
            )],
        );
        // The body mentions global `y`, which a quantifier rebinds at the call site.
        let input =
            with("(define-fun g ((a Int)) Int (+ a y))\n(assert (forall ((y Int)) (> (g x) y)))");
        check(&InlineFunctions, &input, "(g x)", &[]);
    }

    #[test]
    fn introduce_fresh_variables() {
        check(
            &IntroduceFreshVariables,
            &with("(assert (> (+ x y) 0))"),
            "(+ x y)",
            &[&with("(declare-const _x0 Int)\n(assert (> _x0 0))")],
        );
        check(
            &IntroduceFreshVariables,
            &with("(assert (> x 0))"),
            "x @ (> x 0)",
            &[],
        );
    }

    #[test]
    fn let_elimination() {
        check(
            &LetElimination,
            &with("(assert (let ((a (+ x 1)) (b y)) (> a b)))"),
            "(let ((a (+ x 1)) (b y)) (> a b))",
            &[&with("(assert (> (+ x 1) y))")],
        );
        // `x` would be captured by the inner quantifier.
        check(
            &LetElimination,
            &with("(assert (let ((a x)) (forall ((x Int)) (> a x))))"),
            "(let ((a x)) (forall ((x Int)) (> a x)))",
            &[],
        );
    }

    #[test]
    fn let_substitution() {
        check(
            &LetSubstitution,
            &with("(assert (let ((a (+ x 1)) (b y)) (> a b)))"),
            "(let ((a (+ x 1)) (b y)) (> a b))",
            &[
                &with("(assert (let ((b y)) (> (+ x 1) b)))"),
                &with("(assert (let ((a (+ x 1))) (> a y)))"),
            ],
        );
    }

    #[test]
    fn remove_annotation() {
        check(
            &RemoveAnnotation,
            &with("(assert (! (> x y) :named n1))"),
            "(! (> x y) :named n1)",
            &[&with("(assert (> x y))")],
        );
        check(
            &RemoveAnnotation,
            &with("(assert (! (> x y) :named n1))\n(check-sat-assuming (n1))"),
            "(! (> x y) :named n1)",
            &[],
        );
    }

    #[test]
    fn remove_recursive_function() {
        check(
            &RemoveRecursiveFunction,
            "(define-fun-rec f ((n Int)) Int (ite (<= n 0) 0 (f (- n 1))))\n(assert (= (f 3) 0))",
            "(define-fun-rec f ((n Int)) Int (ite (<= n 0) 0 (f (- n 1))))",
            &["(declare-fun f (Int) Int)\n(assert (= (f 3) 0))"],
        );
        check(
            &RemoveRecursiveFunction,
            "(define-funs-rec ((f ((n Int)) Int) (g ((m Int)) Bool)) ((g n) (> m 0)))\n(assert (= (f 3) 0))",
            "(define-funs-rec ((f ((n Int)) Int) (g ((m Int)) Bool)) ((g n) (> m 0)))",
            &["(declare-fun f (Int) Int)\n(declare-fun g (Int) Bool)\n(assert (= (f 3) 0))"],
        );
    }

    #[test]
    fn simplify_logic() {
        check(
            &SimplifyLogic,
            "(set-logic QF_AUFNIA)",
            "(set-logic QF_AUFNIA)",
            &[
                "(set-logic QF_AUF)",
                "(set-logic QF_ANIA)",
                "(set-logic QF_UFNIA)",
                "(set-logic QF_AUFLIA)",
            ],
        );
        check(&SimplifyLogic, "(set-logic LIA)", "(set-logic LIA)", &[]);
        check(
            &SimplifyLogic,
            "(set-logic AUFLIA)",
            "(set-logic AUFLIA)",
            &["(set-logic AUF)", "(set-logic ALIA)", "(set-logic UFLIA)"],
        );
        check(&SimplifyLogic, "(set-logic ALL)", "(set-logic ALL)", &[]);
        // Issue 24: ddSMT 2 reaches `QF_` (cvc5 takes it).
        check(
            &SimplifyLogic,
            "(set-logic QF_LRA)",
            "(set-logic QF_LRA)",
            &["(set-logic QF_)"],
        );
        check(
            &SimplifyLogic,
            "(set-logic QF_LIRA)",
            "(set-logic QF_LIRA)",
            &[
                "(set-logic QF_)",
                "(set-logic QF_LRA)",
                "(set-logic QF_LIA)",
            ],
        );
    }

    #[test]
    fn simplify_quoted_symbols() {
        check_global(
            &SimplifyQuotedSymbols,
            "(declare-const |x1| Int)\n(declare-const |a b| Int)\n(assert (> x1 |x1| |a b|))",
            &["(declare-const x1 Int)\n(declare-const |a b| Int)\n(assert (> x1 x1 |a b|))"],
        );
    }

    #[test]
    fn simplify_symbol_names() {
        check_global(
            &SimplifySymbolNames,
            "(declare-const long Int)\n(assert (forall ((qq Int)) (> long qq)))",
            &[
                "(declare-const a Int)\n(assert (forall ((qq Int)) (> a qq)))",
                "(declare-const long Int)\n(assert (forall ((b Int)) (> long b)))",
            ],
        );
    }

    #[test]
    fn eliminate_push_pop() {
        let input = "(declare-const x Int)\n(push 1)\n(assert (> x 0))\n(pop 1)\n(check-sat)";
        check(
            &EliminatePushPop,
            input,
            "(push 1)",
            &[
                "(declare-const x Int)\n(check-sat)",
                "(declare-const x Int)\n(assert (> x 0))\n(check-sat)",
            ],
        );
    }

    /// Issue 24: two adjacent scopes become one (`(pop)` and the next `(push)` go), as
    /// ddSMT 2 reaches by erasing commands one at a time.
    #[test]
    fn eliminate_push_pop_merges_adjacent_scopes() {
        let input = "(push)\n(assert false)\n(check-sat)\n(pop)\n(push)\n(assert false)\n(check-sat)\n(pop)";
        check(
            &EliminatePushPop,
            input,
            "(push)",
            &[
                "(push)\n(assert false)\n(check-sat)\n(pop)",
                "(assert false)\n(check-sat)\n(push)\n(assert false)\n(check-sat)\n(pop)",
                "(push)\n(assert false)\n(check-sat)\n(assert false)\n(check-sat)\n(pop)",
            ],
        );
    }

    #[test]
    fn simplify_logic_tries_the_shortest_logic_first() {
        check(
            &SimplifyLogic,
            "(set-logic QF_ABV)",
            "(set-logic QF_ABV)",
            &["(set-logic QF_A)", "(set-logic QF_BV)"],
        );
    }
}
