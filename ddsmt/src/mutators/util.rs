//! Shared helpers for the mutators: reading terms (applications, indexed operators, constants,
//! binders), building replacement [`Sx`] material, capture-avoiding substitution, and inserting
//! new declarations before a command.
//!
//! Everything here is a plain function over a [`Tree`] (and sometimes the [`Cx`] sort map).

use super::{Cx, Mutation};
use model::smtlib::theories::{self, is_rounding_mode};
use model::smtlib::{Atom, Edit, NodeId, Sx, Tree};
use model::Sort;
use num_bigint::{BigInt, BigUint};
use std::collections::{BTreeSet, HashMap, HashSet};

// ---------------------------------------------------------------- building mutations

pub fn mutation(description: impl Into<String>, edits: Vec<Edit>) -> Mutation {
    Mutation {
        description: description.into(),
        edits,
    }
}

/// One mutation that replaces `node` by `sx`.
pub fn replace(description: impl Into<String>, node: NodeId, sx: Sx) -> Mutation {
    mutation(description, vec![edit(node, sx)])
}

pub fn edit(node: NodeId, sx: Sx) -> Edit {
    Edit {
        node,
        replacement: Some(sx),
    }
}

pub fn delete(node: NodeId) -> Edit {
    Edit {
        node,
        replacement: None,
    }
}

pub fn atom(text: impl Into<String>) -> Sx {
    Sx::Atom(text.into())
}

pub fn node(id: NodeId) -> Sx {
    Sx::Node(id)
}

/// The application `(head args...)`.
pub fn app(head: &str, args: Vec<Sx>) -> Sx {
    let mut items = Vec::with_capacity(args.len() + 1);
    items.push(atom(head));
    items.extend(args);
    Sx::List(items)
}

/// `(not sx)`.
pub fn not(sx: Sx) -> Sx {
    app("not", vec![sx])
}

/// The indexed operator application `((_ name indices...) args...)`.
pub fn indexed_app(name: &str, indices: &[String], args: Vec<Sx>) -> Sx {
    let mut op = vec![atom("_"), atom(name)];
    op.extend(indices.iter().map(atom));
    let mut items = vec![Sx::List(op)];
    items.extend(args);
    Sx::List(items)
}

/// Node references for a slice of ids.
pub fn nodes(ids: &[NodeId]) -> Vec<Sx> {
    ids.iter().map(|&id| node(id)).collect()
}

// ---------------------------------------------------------------- reading terms

/// The name of a symbol node without `|...|` quotes (`|x|` and `x` are the same symbol).
pub fn name(tree: &Tree, id: NodeId) -> Option<&str> {
    tree.symbol(id).map(unquote)
}

/// The text of an atom node.
pub fn text(tree: &Tree, id: NodeId) -> Option<&str> {
    tree.atom(id).map(Atom::text)
}

/// The head symbol of an application `(f args...)`; `None` for atoms, `(_ ...)` and
/// applications of indexed operators.
pub fn head(tree: &Tree, id: NodeId) -> Option<&str> {
    tree.head(id).filter(|&h| h != "_")
}

/// The arguments of a list whose first child is its head (`(f a b)` -> `[a, b]`).
pub fn args(tree: &Tree, id: NodeId) -> &[NodeId] {
    let children = tree.children(id);
    if tree.is_list(id) && !children.is_empty() {
        &children[1..]
    } else {
        &[]
    }
}

/// The arguments of `id` if it is an application of `op` to exactly `N` arguments.
pub fn app_args<'t, const N: usize>(
    tree: &'t Tree,
    id: NodeId,
    op: &str,
) -> Option<&'t [NodeId; N]> {
    if is_app(tree, id, op) {
        args(tree, id).try_into().ok()
    } else {
        None
    }
}

/// Whether `id` is an application of `op` (a plain head symbol).
pub fn is_app(tree: &Tree, id: NodeId, op: &str) -> bool {
    head(tree, id) == Some(op)
}

/// The `y` of `(op (op y))` with `op` one of `ops`: a double negation such as
/// `(not (not y))`.
pub fn double_application(tree: &Tree, id: NodeId, ops: [&str; 2]) -> Option<NodeId> {
    let op = head(tree, id).filter(|op| ops.contains(op))?;
    let [x] = args(tree, id) else {
        return None;
    };
    match args(tree, *x) {
        [y] if is_app(tree, *x, op) => Some(*y),
        _ => None,
    }
}

/// An indexed identifier `(_ name i j ...)`: its name and indices as written.
pub fn indexed(tree: &Tree, id: NodeId) -> Option<(&str, Vec<&str>)> {
    if tree.head(id) != Some("_") {
        return None;
    }
    let children = tree.children(id);
    let name = tree.symbol(*children.get(1)?)?;
    let indices = children[2..]
        .iter()
        .map(|&c| text(tree, c))
        .collect::<Option<Vec<_>>>()?;
    Some((name, indices))
}

/// An application of an indexed operator `((_ name i...) args...)` with numeral indices.
pub fn indexed_op(tree: &Tree, id: NodeId) -> Option<(&str, Vec<u32>, &[NodeId])> {
    let first = *tree.children(id).first()?;
    if !tree.is_list(id) {
        return None;
    }
    let (name, indices) = indexed(tree, first)?;
    let indices = indices
        .iter()
        .map(|i| i.parse().ok())
        .collect::<Option<Vec<u32>>>()?;
    Some((name, indices, args(tree, id)))
}

pub fn sort<'a>(cx: &'a Cx, id: NodeId) -> Option<&'a Sort> {
    cx.sorts.get(id)
}

/// Whether `id` is a term whose sort is known (not a function head, not the name a binder
/// or a parameter list introduces).
pub fn is_term(cx: &Cx, id: NodeId) -> bool {
    let tree = cx.tree;
    if cx.sorts.get(id).is_none() {
        return false;
    }
    let Some(parent) = tree.parent(id) else {
        return false;
    };
    if child_index(tree, id) != Some(0) {
        return true;
    }
    if cx.sorts.get(parent).is_some() {
        return false;
    }
    // `(x t)` in a binder's list or a definition's parameter list.
    let declaring = tree
        .parent(parent)
        .and_then(|list| tree.parent(list))
        .is_some_and(|b| {
            matches!(
                tree.head(b),
                Some("let" | "forall" | "exists" | "lambda" | "define-fun" | "define-fun-rec")
            )
        });
    !declaring
}

/// The number of nodes of the subtree at `id`.
pub fn size(tree: &Tree, id: NodeId) -> usize {
    tree.preorder(id).count()
}

/// The top-level command containing `id`.
pub fn root_of(tree: &Tree, mut id: NodeId) -> NodeId {
    while let Some(p) = tree.parent(id) {
        id = p;
    }
    id
}

/// The position of a root among the top-level commands.
pub fn root_index(tree: &Tree, root: NodeId) -> Option<usize> {
    tree.roots().iter().position(|&r| r == root)
}

/// The index of `id` among its parent's children.
pub fn child_index(tree: &Tree, id: NodeId) -> Option<usize> {
    let parent = tree.parent(id)?;
    tree.children(parent).iter().position(|&c| c == id)
}

// ---------------------------------------------------------------- constants

/// Whether `id` is a literal constant (numeral, decimal, bit-vector, string, Boolean,
/// `(_ bvN w)`, `(- N)`, a floating-point special value or a rounding mode).
pub fn is_constant(tree: &Tree, id: NodeId) -> bool {
    match tree.atom(id) {
        Some(Atom::Symbol(s)) => {
            matches!(
                s.as_str(),
                "true" | "false" | "re.none" | "re.all" | "re.allchar"
            ) || is_rounding_mode(s)
        }
        Some(Atom::Keyword(_)) => false,
        Some(_) => true,
        None => {
            if let Some((name, _)) = indexed(tree, id) {
                return name.starts_with("bv")
                    || matches!(name, "+zero" | "-zero" | "+oo" | "-oo" | "NaN");
            }
            if is_app(tree, id, "-") && args(tree, id).len() == 1 {
                return matches!(
                    tree.atom(args(tree, id)[0]),
                    Some(Atom::Numeral(_) | Atom::Decimal(_))
                );
            }
            if is_app(tree, id, "fp") {
                return args(tree, id).iter().all(|&a| is_constant(tree, a));
            }
            // `(as seq.empty (Seq Int))`, `((as const (Array Int Int)) 0)`
            if tree.head(id) == Some("as") {
                return true;
            }
            false
        }
    }
}

/// Simple constants of a sort, simplest first (the sort map's [`Sort`] printed as SMT-LIB).
pub fn simple_constants(sort: &Sort) -> Vec<String> {
    match sort {
        Sort::Bool => vec!["false".into(), "true".into()],
        Sort::Int => vec!["0".into(), "1".into()],
        Sort::Real => vec!["0.0".into(), "1.0".into()],
        Sort::BitVec(w) => vec![format!("(_ bv0 {w})"), format!("(_ bv1 {w})")],
        Sort::FloatingPoint(e, s) => vec![format!("(_ +zero {e} {s})")],
        Sort::RoundingMode => vec!["RNE".into()],
        Sort::String => vec!["\"\"".into()],
        Sort::RegLan => vec!["re.none".into(), "re.all".into()],
        Sort::Seq(_) => vec![format!("(as seq.empty {sort})")],
        Sort::Array(_, element) => simple_constants(element)
            .into_iter()
            .take(1)
            .map(|c| format!("((as const {sort}) {c})"))
            .collect(),
        Sort::Named(..) => Vec::new(),
    }
}

/// The value and width of a bit-vector literal: `#b0101`, `#x0f` or `(_ bv5 4)`.
pub fn bv_const(tree: &Tree, id: NodeId) -> Option<(BigUint, u32)> {
    match tree.atom(id) {
        Some(Atom::Binary(s)) => {
            let digits = &s[2..];
            Some((
                BigUint::parse_bytes(digits.as_bytes(), 2).unwrap_or_default(),
                digits.len() as u32,
            ))
        }
        Some(Atom::Hexadecimal(s)) => {
            let digits = &s[2..];
            Some((
                BigUint::parse_bytes(digits.as_bytes(), 16).unwrap_or_default(),
                4 * digits.len() as u32,
            ))
        }
        Some(_) => None,
        None => {
            let (name, indices) = indexed(tree, id)?;
            let value = name.strip_prefix("bv")?;
            if indices.len() != 1 || value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit())
            {
                return None;
            }
            Some((value.parse().ok()?, indices[0].parse().ok()?))
        }
    }
}

/// How a bit-vector literal is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BvStyle {
    Binary,
    Hex,
    Indexed,
}

pub fn bv_style(tree: &Tree, id: NodeId) -> BvStyle {
    match tree.atom(id) {
        Some(Atom::Binary(_)) => BvStyle::Binary,
        Some(Atom::Hexadecimal(_)) => BvStyle::Hex,
        _ => BvStyle::Indexed,
    }
}

/// A bit-vector literal in the given style (hex falls back to binary when the width is not a
/// multiple of 4).
pub fn bv_literal(value: &BigUint, width: u32, style: BvStyle) -> String {
    match style {
        BvStyle::Hex if width.is_multiple_of(4) => {
            format!(
                "#x{:0>w$}",
                value.to_str_radix(16),
                w = (width / 4) as usize
            )
        }
        BvStyle::Indexed => format!("(_ bv{value} {width})"),
        _ => format!("#b{:0>w$}", value.to_str_radix(2), w = width as usize),
    }
}

/// All-ones of a width.
pub fn bv_ones(width: u32) -> BigUint {
    (BigUint::from(1u8) << width) - 1u8
}

/// The integer value of a numeral or `(- numeral)`.
pub fn int_const(tree: &Tree, id: NodeId) -> Option<BigInt> {
    match tree.atom(id) {
        Some(Atom::Numeral(s)) => s.parse().ok(),
        Some(_) => None,
        None if is_app(tree, id, "-") && args(tree, id).len() == 1 => {
            int_const(tree, args(tree, id)[0]).map(|v| -v)
        }
        None => None,
    }
}

/// Whether `id` is an arithmetic literal equal to `value` (`0`, `0.0`, `1`, `1.00`, ...).
pub fn is_arith_value(tree: &Tree, id: NodeId, value: u32) -> bool {
    match tree.atom(id) {
        Some(Atom::Numeral(s)) => s.parse::<u64>().ok() == Some(value as u64),
        Some(Atom::Decimal(s)) => {
            let (int, frac) = s.split_once('.').unwrap_or((s, ""));
            int.parse::<u64>().ok() == Some(value as u64) && frac.bytes().all(|b| b == b'0')
        }
        _ => false,
    }
}

// ---------------------------------------------------------------- sorts written in the input

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

// ---------------------------------------------------------------- symbols and scopes

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

/// Whether `name` is a simple symbol (not needing `|...|`) and not a reserved word.
pub fn is_simple_symbol(name: &str) -> bool {
    const RESERVED: &[&str] = &[
        "_",
        "!",
        "as",
        "let",
        "exists",
        "forall",
        "match",
        "par",
        "BINARY",
        "DECIMAL",
        "HEXADECIMAL",
        "NUMERAL",
        "STRING",
        "lambda",
    ];
    let extra = "~!@$%^&*_-+=<>.?/";
    !name.is_empty()
        && !name.as_bytes()[0].is_ascii_digit()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || extra.contains(c))
        && !RESERVED.contains(&name)
}

/// The unquoted form of a symbol (`|a b|` -> `a b`).
pub fn unquote(symbol: &str) -> &str {
    symbol
        .strip_prefix('|')
        .and_then(|s| s.strip_suffix('|'))
        .unwrap_or(symbol)
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
                for dt in super::datatypes::datatypes_of(tree, root) {
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
