//! Sorts written in SMT-LIB (`(_ BitVec 8)`, `(Array Int Real)`, aliases from `define-sort`)
//! read into [`Sort`]: [`parse_sort`] with the [`SortAliases`] in scope.

use super::source::TermRef;
use crate::smtlib::{unquote, Atom, NodeId, Tree};
use crate::sort::Sort;
use std::collections::HashMap;

/// `define-sort` aliases: name -> (parameters, body).
#[derive(Clone, Debug, Default)]
pub struct SortAliases {
    map: HashMap<String, (Vec<String>, TermRef)>,
}

impl SortAliases {
    pub fn define(&mut self, name: &str, params: Vec<String>, body: TermRef) {
        self.map.insert(name.to_string(), (params, body));
    }

    pub fn remove(&mut self, name: &str) {
        self.map.remove(name);
    }
}

/// Reads the sort at `node`; unknown sort names are uninterpreted sorts.
pub fn parse_sort(tree: &Tree, node: NodeId, aliases: &SortAliases) -> Result<Sort, String> {
    parse_with(tree, node, aliases, &HashMap::new(), 0)
}

fn numeral(tree: &Tree, node: NodeId) -> Option<u32> {
    match tree.atom(node) {
        Some(Atom::Numeral(n)) => n.parse().ok(),
        _ => None,
    }
}

fn parse_with(
    tree: &Tree,
    node: NodeId,
    aliases: &SortAliases,
    params: &HashMap<String, Sort>,
    depth: u32,
) -> Result<Sort, String> {
    if depth > 64 {
        return Err("sort aliases nest too deeply (cyclic define-sort?)".into());
    }
    let text = || tree.print_node(node);
    if let Some(sym) = tree.symbol(node) {
        let name = unquote(sym);
        if let Some(s) = params.get(name) {
            return Ok(s.clone());
        }
        return Ok(match name {
            "Bool" => Sort::Bool,
            "Int" => Sort::Int,
            "Real" => Sort::Real,
            "String" => Sort::String,
            "RegLan" => Sort::RegLan,
            "RoundingMode" => Sort::RoundingMode,
            "Float16" => Sort::FloatingPoint(5, 11),
            "Float32" => Sort::FloatingPoint(8, 24),
            "Float64" => Sort::FloatingPoint(11, 53),
            "Float128" => Sort::FloatingPoint(15, 113),
            _ => {
                return apply_alias(name, &[], aliases, depth)
                    .unwrap_or_else(|| Ok(Sort::uninterpreted(name)))
            }
        });
    }
    let children = tree.children(node);
    if children.is_empty() || !tree.is_list(node) {
        return Err(format!("expected a sort, got {}", text()));
    }
    let head = tree.symbol(children[0]).map(unquote);
    match head {
        Some("_") => {
            let name = children.get(1).and_then(|&c| tree.symbol(c));
            let nums: Option<Vec<u32>> = children[2..].iter().map(|&c| numeral(tree, c)).collect();
            match (name, nums.as_deref()) {
                (Some("BitVec"), Some([w])) if *w > 0 => Ok(Sort::BitVec(*w)),
                (Some("FloatingPoint"), Some([e, s])) if *e > 1 && *s > 1 => {
                    Ok(Sort::FloatingPoint(*e, *s))
                }
                _ => Err(format!("unknown indexed sort {}", text())),
            }
        }
        Some(name) => {
            let args = children[1..]
                .iter()
                .map(|&c| parse_with(tree, c, aliases, params, depth + 1))
                .collect::<Result<Vec<_>, _>>()?;
            match (name, args.as_slice()) {
                ("Array", [i, e]) => Ok(Sort::array(i.clone(), e.clone())),
                ("Seq", [e]) => Ok(Sort::seq(e.clone())),
                _ => apply_alias(name, &args, aliases, depth)
                    .unwrap_or_else(|| Ok(Sort::Named(name.to_string(), args))),
            }
        }
        None => Err(format!("expected a sort, got {}", text())),
    }
}

fn apply_alias(
    name: &str,
    args: &[Sort],
    aliases: &SortAliases,
    depth: u32,
) -> Option<Result<Sort, String>> {
    let (params, body) = aliases.map.get(name)?;
    if params.len() != args.len() {
        return Some(Err(format!(
            "sort {name} expects {} parameters, got {}",
            params.len(),
            args.len()
        )));
    }
    let bound: HashMap<String, Sort> = params.iter().cloned().zip(args.iter().cloned()).collect();
    Some(parse_with(
        body.tree(),
        body.node,
        aliases,
        &bound,
        depth + 1,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::source::Src;

    #[test]
    fn sorts_and_aliases() {
        let src = Src::parse(
            "(_ BitVec 8) (Array Int (Array Int Real)) (Pair Int) U (Array X Y) Float32",
            "t",
            0,
        )
        .unwrap();
        let r = src.tree.roots().to_vec();
        let mut aliases = SortAliases::default();
        let t = &src.tree;
        assert_eq!(parse_sort(t, r[0], &aliases), Ok(Sort::BitVec(8)));
        assert_eq!(
            parse_sort(t, r[1], &aliases),
            Ok(Sort::array(Sort::Int, Sort::array(Sort::Int, Sort::Real)))
        );
        assert_eq!(parse_sort(t, r[3], &aliases), Ok(Sort::uninterpreted("U")));
        assert_eq!(
            parse_sort(t, r[5], &aliases),
            Ok(Sort::FloatingPoint(8, 24))
        );
        aliases.define("Pair", vec!["X".into()], TermRef::new(&src, r[4]));
        aliases.define("Y", vec![], TermRef::new(&src, r[0]));
        assert_eq!(
            parse_sort(t, r[2], &aliases),
            Ok(Sort::array(Sort::Int, Sort::BitVec(8)))
        );
    }
}
