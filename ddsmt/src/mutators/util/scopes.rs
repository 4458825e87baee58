//! Sorts written in the input, symbols and scopes: declarations, binders, free symbols, fresh names, capture-avoiding substitution, inserting declarations.

use super::*;
use smtlib::theories::{self};
use smtlib::Sort;
use smtlib::{Edit, NodeId, Sx, Tree};
use std::collections::{BTreeSet, HashMap, HashSet};

/// Reads a sort expression as written (`Int`, `(_ BitVec 8)`, `(Array Int Bool)`, `Float32`,
/// a declared sort...). Other sort names, aliases from `define-sort` among them, are read as
/// named sorts with their names as written.
pub fn read_sort(tree: &Tree, id: NodeId) -> Option<Sort> {
    let mut named = |name: &str, params, _depth| Ok::<_, ()>(Sort::Named(name.to_string(), params));
    theories::read_sort(tree, id, SORT_DEPTH, &mut named).ok()
}

/// How deep [`read_sort`] reads nested sorts; far beyond real inputs, it only keeps a
/// malicious input from exhausting the stack.
const SORT_DEPTH: usize = 500;

/// The global constants (`declare-const`, nullary `declare-fun`) declared before root index
/// `before`, with their sorts (names as written, possibly quoted).
pub fn global_constants(tree: &Tree, before: usize) -> Vec<(String, Sort)> {
    let mut out = Vec::new();
    for &root in tree.roots().iter().take(before) {
        let ch = tree.children(root);
        let name = ch.get(1).and_then(|&n| tree.symbol(n));
        let decl = match tree.head(root) {
            Some("declare-const") if ch.len() == 3 => name.zip(read_sort(tree, ch[2])),
            Some("declare-fun") if ch.len() == 4 && tree.children(ch[2]).is_empty() => {
                name.zip(read_sort(tree, ch[3]))
            }
            _ => None,
        };
        if let Some((name, sort)) = decl {
            out.push((name.to_string(), sort));
        }
    }
    out
}

/// The variables a binder node introduces for its body, as `(name node, sort node or bound
/// term)`: `let`, `forall`, `exists`, `lambda`. `None` if `id` is not a binder.
pub fn binder_vars(tree: &Tree, id: NodeId) -> Option<Vec<(NodeId, NodeId)>> {
    let ch = tree.children(id);
    match tree.head(id)? {
        "let" | "forall" | "exists" | "lambda" if ch.len() == 3 && tree.is_list(ch[1]) => tree
            .children(ch[1])
            .iter()
            .map(|&b| match tree.children(b) {
                [name, second] if tree.symbol(*name).is_some() => Some((*name, *second)),
                _ => None,
            })
            .collect(),
        _ => None,
    }
}

/// Names bound at `id` by enclosing binders and definitions (let, quantifiers, lambda,
/// match cases, parameters of define-fun and friends), innermost last.
pub fn bound_names(tree: &Tree, id: NodeId) -> Vec<String> {
    let mut names = Vec::new();
    let mut child = id;
    while let Some(parent) = tree.parent(child) {
        let pos = child_index(tree, child).unwrap_or(0);
        names.extend(names_bound_for_child(tree, parent, pos));
        child = parent;
    }
    names.reverse();
    names
}

/// The names `parent` binds for its child at position `pos`.
fn names_bound_for_child(tree: &Tree, parent: NodeId, pos: usize) -> Vec<String> {
    let ch = tree.children(parent);
    let sym = |n: NodeId| name(tree, n).map(str::to_string);
    let params = |list: NodeId| -> Vec<String> {
        tree.children(list)
            .iter()
            .filter_map(|&p| tree.children(p).first().and_then(|&n| sym(n)))
            .collect()
    };
    match tree.head(parent) {
        Some("let" | "forall" | "exists" | "lambda") if pos == 2 => binder_vars(tree, parent)
            .unwrap_or_default()
            .into_iter()
            .filter_map(|(n, _)| sym(n))
            .collect(),
        Some("define-fun" | "define-fun-rec") if pos == 4 => params(ch[2]),
        Some("define-funs-rec") if pos == 2 => Vec::new(),
        _ => {
            // A body of `define-funs-rec`: ((decl...) (body...)).
            if let Some(grand) = tree.parent(parent) {
                if tree.head(grand) == Some("define-funs-rec")
                    && tree.children(grand).get(2) == Some(&parent)
                {
                    let decls = tree.children(tree.children(grand)[1]);
                    return decls
                        .get(pos)
                        .and_then(|&d| tree.children(d).get(1).copied())
                        .map(params)
                        .unwrap_or_default();
                }
                // A match case `(pattern body)` inside `(match t (cases...))`.
                if pos == 1 && ch.len() == 2 {
                    if let Some(matcher) = tree.parent(grand).or(Some(grand)) {
                        let is_case = tree.head(grand) == Some("match")
                            || (tree.head(matcher) == Some("match")
                                && tree.children(matcher).get(2) == Some(&grand));
                        if is_case && tree.head(grand) != Some("match") {
                            let pattern = ch[0];
                            return if tree.is_list(pattern) {
                                args(tree, pattern).iter().filter_map(|&v| sym(v)).collect()
                            } else {
                                sym(pattern).into_iter().collect()
                            };
                        }
                    }
                }
            }
            Vec::new()
        }
    }
}

/// Walks the term at `id`, calling `visit(symbol_node, names_bound_inside)` for each symbol
/// atom in a term position (not binder names, not sorts, not indices, not attribute names).
pub fn walk_symbols(tree: &Tree, id: NodeId, visit: &mut dyn FnMut(NodeId, &[String])) {
    let mut bound = Vec::new();
    walk_rec(tree, id, &mut bound, visit);
}

fn walk_rec(
    tree: &Tree,
    id: NodeId,
    bound: &mut Vec<String>,
    visit: &mut dyn FnMut(NodeId, &[String]),
) {
    if tree.symbol(id).is_some() {
        visit(id, bound);
        return;
    }
    if !tree.is_list(id) {
        return;
    }
    let ch = tree.children(id);
    match tree.head(id) {
        Some("_") => {}
        Some("as") => {
            if let Some(&t) = ch.get(1) {
                walk_rec(tree, t, bound, visit);
            }
        }
        Some("let" | "forall" | "exists" | "lambda") if binder_vars(tree, id).is_some() => {
            let vars = binder_vars(tree, id).unwrap_or_default();
            if tree.head(id) == Some("let") {
                for &(_, term) in &vars {
                    walk_rec(tree, term, bound, visit);
                }
            }
            let n = bound.len();
            bound.extend(
                vars.iter()
                    .filter_map(|&(v, _)| name(tree, v).map(String::from)),
            );
            walk_rec(tree, ch[2], bound, visit);
            bound.truncate(n);
        }
        Some("match") if ch.len() == 3 => {
            walk_rec(tree, ch[1], bound, visit);
            for &case in tree.children(ch[2]) {
                if let [pattern, body] = tree.children(case) {
                    let n = bound.len();
                    if tree.is_list(*pattern) {
                        bound.extend(
                            args(tree, *pattern)
                                .iter()
                                .filter_map(|&v| name(tree, v).map(String::from)),
                        );
                    } else if let Some(s) = name(tree, *pattern) {
                        bound.push(s.to_string());
                    }
                    walk_rec(tree, *body, bound, visit);
                    bound.truncate(n);
                }
            }
        }
        Some("!") => {
            if let Some(&t) = ch.get(1) {
                walk_rec(tree, t, bound, visit);
            }
            // Only `:pattern` values are terms; `:named` values are new names.
            for pair in ch.get(2..).unwrap_or_default().windows(2) {
                if text(tree, pair[0]) == Some(":pattern") {
                    walk_rec(tree, pair[1], bound, visit);
                }
            }
        }
        _ => {
            for &c in ch {
                walk_rec(tree, c, bound, visit);
            }
        }
    }
}

/// The symbols occurring free in the term at `id`.
pub fn free_symbols(tree: &Tree, id: NodeId) -> HashSet<String> {
    let mut out = HashSet::new();
    walk_symbols(tree, id, &mut |s, bound| {
        let name = name(tree, s).unwrap_or_default();
        if !bound.iter().any(|b| b == name) {
            out.insert(name.to_string());
        }
    });
    out
}

/// Every symbol text in the tree.
pub fn all_symbols(tree: &Tree) -> HashSet<String> {
    let mut out = HashSet::new();
    for &root in tree.roots() {
        for id in tree.preorder(root) {
            if let Some(s) = tree.symbol(id) {
                out.insert(s.to_string());
            }
        }
    }
    out
}

/// A name of the form `{prefix}{n}` not used anywhere in the tree nor in `taken`. Scans the
/// symbols once without allocating, since it runs for many nodes of large inputs.
pub fn fresh_name(tree: &Tree, prefix: &str, taken: &HashSet<String>) -> String {
    let mut used: HashSet<u64> = HashSet::new();
    for &root in tree.roots() {
        for id in tree.preorder(root) {
            if let Some(n) = name(tree, id)
                .and_then(|s| s.strip_prefix(prefix))
                .and_then(|rest| rest.parse::<u64>().ok())
            {
                used.insert(n);
            }
        }
    }
    (0..)
        .filter(|n| !used.contains(n))
        .map(|n| format!("{prefix}{n}"))
        .find(|n| !taken.contains(n))
        .unwrap_or_default()
}

/// The term at `id` with free occurrences of the names in `map` replaced. `None` when a
/// replacement would be captured by a binder inside the term.
pub fn substitute(tree: &Tree, id: NodeId, map: &HashMap<String, Sx>) -> Option<Sx> {
    // Free symbols of the replacements, to detect capture.
    let mut replacement_free: HashSet<String> = HashSet::new();
    for sx in map.values() {
        sx_free_symbols(tree, sx, &mut replacement_free);
    }
    let mut edits: HashMap<NodeId, Sx> = HashMap::new();
    let mut captured = false;
    walk_symbols(tree, id, &mut |s, bound| {
        let name = name(tree, s).unwrap_or_default();
        if bound.iter().any(|b| b == name) {
            return;
        }
        // A function head is never a substituted variable.
        if child_index(tree, s) == Some(0) && tree.parent(s).is_some() && s != id {
            return;
        }
        if let Some(sx) = map.get(name) {
            if bound.iter().any(|b| replacement_free.contains(b)) {
                captured = true;
            }
            edits.insert(s, sx.clone());
        }
    });
    if captured {
        return None;
    }
    Some(rebuild(tree, id, &edits))
}

fn sx_free_symbols(tree: &Tree, sx: &Sx, out: &mut HashSet<String>) {
    match sx {
        Sx::Atom(a) => {
            out.insert(a.clone());
        }
        Sx::List(items) => items.iter().for_each(|i| sx_free_symbols(tree, i, out)),
        Sx::Node(id) => out.extend(free_symbols(tree, *id)),
    }
}

/// The subtree at `id` with the given nodes replaced; untouched subtrees stay node references.
pub fn rebuild(tree: &Tree, id: NodeId, edits: &HashMap<NodeId, Sx>) -> Sx {
    if let Some(sx) = edits.get(&id) {
        return sx.clone();
    }
    if !tree.is_list(id) || !tree.preorder(id).any(|n| edits.contains_key(&n)) {
        return node(id);
    }
    Sx::List(
        tree.children(id)
            .iter()
            .map(|&c| rebuild(tree, c, edits))
            .collect(),
    )
}

/// Prints replacement material as SMT-LIB text.
pub fn print_sx(tree: &Tree, sx: &Sx) -> String {
    match sx {
        Sx::Atom(a) => a.clone(),
        Sx::Node(id) => tree.print_node(*id),
        Sx::List(items) => {
            let inner: Vec<String> = items.iter().map(|i| print_sx(tree, i)).collect();
            format!("({})", inner.join(" "))
        }
    }
}

/// An edit that replaces top-level command `root` by new commands `before` followed by
/// `replacement` (the command itself, possibly rewritten). Edits cannot add roots, so the
/// new commands are written as one text atom that parses back into several commands.
pub fn insert_before_root(tree: &Tree, root: NodeId, before: &[String], replacement: &Sx) -> Edit {
    let mut text = before.join("\n");
    text.push('\n');
    text.push_str(&print_sx(tree, replacement));
    edit(root, Sx::Atom(text))
}

/// Symbol nodes anywhere in the tree whose unquoted name is `name` (quoted or not).
pub fn symbol_nodes(tree: &Tree, name: &str) -> Vec<NodeId> {
    let mut out = Vec::new();
    for &root in tree.roots() {
        for id in tree.preorder(root) {
            if tree.symbol(id).is_some_and(|s| unquote(s) == name) {
                out.push(id);
            }
        }
    }
    out
}

/// Names declared by top-level commands (functions, constants, sorts, datatypes with their
/// constructors and selectors), in order of declaration.
pub fn declared_names(tree: &Tree) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut seen = BTreeSet::new();
    let mut add = |s: Option<&str>, out: &mut Vec<String>| {
        if let Some(s) = s {
            if seen.insert(s.to_string()) {
                out.push(s.to_string());
            }
        }
    };
    for &root in tree.roots() {
        let ch = tree.children(root);
        match tree.head(root) {
            Some(
                "declare-const" | "declare-fun" | "define-fun" | "define-fun-rec" | "declare-sort"
                | "define-sort" | "define-const",
            ) => add(ch.get(1).and_then(|&n| name(tree, n)), &mut out),
            Some("define-funs-rec") if ch.len() == 3 => {
                for &d in tree.children(ch[1]) {
                    add(
                        tree.children(d).first().and_then(|&n| name(tree, n)),
                        &mut out,
                    );
                }
            }
            Some("declare-datatype" | "declare-datatypes") => {
                for dt in crate::mutators::datatypes::datatypes_of(tree, root) {
                    add(Some(&dt.name), &mut out);
                    for c in &dt.constructors {
                        add(Some(&c.name), &mut out);
                        for (sel, _) in &c.selectors {
                            add(Some(sel), &mut out);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// The `:named` names inside the subtree at `id`, with their name nodes.
pub fn named_in(tree: &Tree, id: NodeId) -> Vec<(String, NodeId)> {
    let mut out = Vec::new();
    for n in tree.preorder(id) {
        if text(tree, n) == Some(":named") {
            let next = tree
                .parent(n)
                .zip(child_index(tree, n))
                .and_then(|(p, i)| tree.children(p).get(i + 1).copied());
            if let Some(name) = next.and_then(|v| tree.symbol(v).map(|s| (s, v))) {
                out.push((unquote(name.0).to_string(), name.1));
            }
        }
    }
    out
}

/// Whether replacing the subtree at `id` (by its descendant `kept`, or by something new)
/// removes a `:named` name that is used elsewhere, which would leave that use undeclared.
pub fn drops_used_name(tree: &Tree, id: NodeId, kept: Option<NodeId>) -> bool {
    let kept_nodes: HashSet<NodeId> = kept.map(|k| tree.preorder(k).collect()).unwrap_or_default();
    named_in(tree, id)
        .into_iter()
        .filter(|(_, node)| !kept_nodes.contains(node))
        .any(|(name, node)| symbol_nodes(tree, &name).iter().any(|&s| s != node))
}
