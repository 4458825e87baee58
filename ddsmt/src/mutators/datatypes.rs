//! Datatype mutators: [`RmConstructor`], [`RmDatatype`] and [`RmIdentity`], plus
//! [`datatypes_of`], which reads the [`Datatype`]s a `declare-datatype(s)` command declares.

use super::util::{self, delete, node, replace};
use super::{Group, Mutation, MutationInput, Mutator};
use smtlib::{NodeId, Tree};
use std::collections::HashSet;

/// One constructor: `(C (s1 S1) (s2 S2))` or a bare `C`.
#[derive(Clone, Debug)]
pub struct Constructor {
    pub node: NodeId,
    pub name: String,
    /// Selector names and their sort nodes.
    pub selectors: Vec<(String, NodeId)>,
}

/// One datatype of a declaration command.
#[derive(Clone, Debug)]
pub struct Datatype {
    pub name: String,
    /// The `(D 0)` entry of `declare-datatypes`, if any.
    pub decl: Option<NodeId>,
    /// The constructor list (or `(par (T) (...))` around it).
    pub body: NodeId,
    pub constructors: Vec<Constructor>,
}

fn constructor(tree: &Tree, id: NodeId) -> Option<Constructor> {
    if let Some(name) = tree.symbol(id) {
        return Some(Constructor {
            node: id,
            name: name.to_string(),
            selectors: Vec::new(),
        });
    }
    let name = tree.symbol(*tree.children(id).first()?)?;
    let selectors = util::args(tree, id)
        .iter()
        .filter_map(|&s| match tree.children(s) {
            [n, sort] => tree.symbol(*n).map(|n| (n.to_string(), *sort)),
            _ => None,
        })
        .collect();
    Some(Constructor {
        node: id,
        name: name.to_string(),
        selectors,
    })
}

/// The constructors of a datatype body (looking through `par`).
fn constructors(tree: &Tree, body: NodeId) -> Vec<Constructor> {
    let list = if tree.head(body) == Some("par") {
        match tree.children(body).get(2) {
            Some(&l) => l,
            None => return Vec::new(),
        }
    } else {
        body
    };
    tree.children(list)
        .iter()
        .filter_map(|&c| constructor(tree, c))
        .collect()
}

/// The datatypes a `declare-datatype` / `declare-datatypes` command declares (also the old
/// `(declare-datatypes () ((D (C ...))))` form).
pub fn datatypes_of(tree: &Tree, root: NodeId) -> Vec<Datatype> {
    let ch = tree.children(root);
    match tree.head(root) {
        Some("declare-datatype") if ch.len() == 3 => tree
            .symbol(ch[1])
            .map(|name| Datatype {
                name: name.to_string(),
                decl: None,
                body: ch[2],
                constructors: constructors(tree, ch[2]),
            })
            .into_iter()
            .collect(),
        Some("declare-datatypes") if ch.len() == 3 => {
            let decls = tree.children(ch[1]);
            let bodies = tree.children(ch[2]);
            if decls.is_empty() {
                // Old form: each body is `(D ctor...)`.
                return bodies
                    .iter()
                    .filter_map(|&b| {
                        let name = tree.symbol(*tree.children(b).first()?)?;
                        Some(Datatype {
                            name: name.to_string(),
                            decl: None,
                            body: b,
                            constructors: util::args(tree, b)
                                .iter()
                                .filter_map(|&c| constructor(tree, c))
                                .collect(),
                        })
                    })
                    .collect();
            }
            decls
                .iter()
                .zip(bodies)
                .filter_map(|(&d, &b)| {
                    let name = tree.symbol(*tree.children(d).first()?)?;
                    Some(Datatype {
                        name: name.to_string(),
                        decl: Some(d),
                        body: b,
                        constructors: constructors(tree, b),
                    })
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

/// Every datatype of the input with its command.
fn all_datatypes(tree: &Tree) -> Vec<(NodeId, Datatype)> {
    tree.roots()
        .iter()
        .flat_map(|&r| datatypes_of(tree, r).into_iter().map(move |d| (r, d)))
        .collect()
}

/// Whether every occurrence of `names` lies inside one of the subtrees `inside`.
fn only_used_inside(tree: &Tree, names: &[String], inside: &[NodeId]) -> bool {
    let allowed: HashSet<NodeId> = inside.iter().flat_map(|&i| tree.preorder(i)).collect();
    names.iter().all(|n| {
        util::symbol_nodes(tree, n)
            .iter()
            .all(|s| allowed.contains(s))
    })
}

fn constructor_names(c: &Constructor) -> Vec<String> {
    let mut out = vec![c.name.clone(), format!("is-{}", c.name)];
    out.extend(c.selectors.iter().map(|(s, _)| s.clone()));
    out
}

/// Removes an unused constructor (with its selectors) from a datatype, keeping a
/// non-recursive constructor so that the datatype stays well-founded.
pub struct RmConstructor;

impl RmConstructor {
    fn removable(cx: &MutationInput, id: NodeId) -> bool {
        let tree = cx.tree;
        let root = util::root_of(tree, id);
        let dts = datatypes_of(tree, root);
        let names: Vec<&str> = dts.iter().map(|d| d.name.as_str()).collect();
        let mentions_datatype = |sort: NodeId| {
            tree.preorder(sort)
                .any(|n| tree.symbol(n).is_some_and(|s| names.contains(&s)))
        };
        dts.iter().any(|dt| {
            let Some(c) = dt.constructors.iter().find(|c| c.node == id) else {
                return false;
            };
            let base_case_left = dt
                .constructors
                .iter()
                .any(|o| o.node != id && o.selectors.iter().all(|&(_, s)| !mentions_datatype(s)));
            dt.constructors.len() > 1
                && base_case_left
                && only_used_inside(tree, &constructor_names(c), &[c.node])
        })
    }
}

impl Mutator for RmConstructor {
    mutator_info!(
        Group::Datatypes,
        "dt-rm-constructor",
        "remove datatype constructor"
    );
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        cx.tree.parent(id).is_some() && Self::removable(cx, id)
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        vec![util::mutation(
            format!("remove constructor {}", super::core::short(cx.tree, id)),
            vec![delete(id)],
        )]
    }
}

/// Removes an unused datatype from its declaration (the whole command if it is the only one).
pub struct RmDatatype;

impl RmDatatype {
    fn candidates(cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        let tree = cx.tree;
        if tree.parent(id).is_some() {
            return Vec::new();
        }
        let dts = datatypes_of(tree, id);
        let mut out = Vec::new();
        for dt in &dts {
            let mut names = vec![dt.name.clone()];
            dt.constructors
                .iter()
                .for_each(|c| names.extend(constructor_names(c)));
            let parts: Vec<NodeId> = dt.decl.into_iter().chain([dt.body]).collect();
            let own = if dts.len() == 1 {
                vec![id]
            } else {
                parts.clone()
            };
            if !only_used_inside(tree, &names, &own) {
                continue;
            }
            let edits = if dts.len() == 1 {
                vec![delete(id)]
            } else {
                parts.into_iter().map(delete).collect()
            };
            out.push(util::mutation(
                format!("remove datatype {}", dt.name),
                edits,
            ));
        }
        out
    }
}

impl Mutator for RmDatatype {
    mutator_info!(Group::Datatypes, "dt-rm-datatype", "remove datatype");
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        matches!(
            cx.tree.head(id),
            Some("declare-datatype" | "declare-datatypes")
        ) && !Self::candidates(cx, id).is_empty()
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        Self::candidates(cx, id)
    }
}

/// `(sel (C a b))` -> the argument of `C` that `sel` selects.
pub struct RmIdentity;

impl RmIdentity {
    fn selected(cx: &MutationInput, id: NodeId) -> Option<NodeId> {
        let tree = cx.tree;
        let sel = util::head(tree, id)?;
        let [arg] = util::args(tree, id) else {
            return None;
        };
        let ctor = util::head(tree, *arg)?;
        let index = all_datatypes(tree).into_iter().find_map(|(_, dt)| {
            dt.constructors
                .iter()
                .find(|c| c.name == ctor)
                .and_then(|c| c.selectors.iter().position(|(s, _)| s == sel))
        })?;
        util::args(tree, *arg).get(index).copied()
    }
}

impl Mutator for RmIdentity {
    mutator_info!(
        Group::Datatypes,
        "dt-rm-identity",
        "remove datatype identity"
    );
    fn filter(&self, cx: &MutationInput, id: NodeId) -> bool {
        util::args(cx.tree, id).len() == 1 && Self::selected(cx, id).is_some()
    }
    fn mutations(&self, cx: &MutationInput, id: NodeId) -> Vec<Mutation> {
        Self::selected(cx, id)
            .map(|a| vec![replace("selector of constructor", id, node(a))])
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutators::testutil::check;

    const LIST: &str = "(declare-datatypes ((L 0)) (((nil) (cons (hd Int) (tl L)))))\n";

    #[test]
    fn rm_constructor() {
        let input =
            "(declare-datatype C ((red) (green) (blue)))\n(declare-const c C)\n(assert (= c red))";
        check(
            &RmConstructor,
            input,
            "(green)",
            &["(declare-datatype C ((red) (blue)))\n(declare-const c C)\n(assert (= c red))"],
        );
        check(&RmConstructor, input, "(red)", &[]);
        // Removing `nil` would leave only the recursive `cons`.
        let list = format!("{LIST}(declare-const l L)\n(assert (= l l))");
        check(&RmConstructor, &list, "(nil)", &[]);
        check(
            &RmConstructor,
            &list,
            "(cons (hd Int) (tl L))",
            &["(declare-datatypes ((L 0)) (((nil))))\n(declare-const l L)\n(assert (= l l))"],
        );
    }

    #[test]
    fn rm_datatype() {
        let input = "(declare-datatypes ((A 0) (B 0)) (((a)) ((b))))\n(declare-const x A)\n(assert (= x a))";
        check(
            &RmDatatype,
            input,
            "(declare-datatypes ((A 0) (B 0)) (((a)) ((b))))",
            &["(declare-datatypes ((A 0)) (((a))))\n(declare-const x A)\n(assert (= x a))"],
        );
    }

    #[test]
    fn rm_identity() {
        let input = format!("{LIST}(declare-const l L)\n(assert (= (tl (cons 1 l)) l))");
        check(
            &RmIdentity,
            &input,
            "(tl (cons 1 l))",
            &[&format!("{LIST}(declare-const l L)\n(assert (= l l))")],
        );
        let input = format!("{LIST}(declare-const l L)\n(assert (= (hd l) 1))");
        check(&RmIdentity, &input, "(hd l)", &[]);
    }
}
