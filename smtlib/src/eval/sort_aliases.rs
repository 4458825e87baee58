//! Sorts written in SMT-LIB (`(_ BitVec 8)`, `(Array Int Real)`, aliases from `define-sort`)
//! read into [`Sort`]: [`parse_sort`] with the [`SortAliases`] in scope.

use super::source::TermRef;
use crate::sort::Sort;
use crate::theories::{read_sort, SortReadError};
use crate::{unquote, NodeId, Tree};
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

/// How deep sorts and alias expansions may nest, so that a cyclic `define-sort` ends.
const MAX_DEPTH: usize = 64;

/// Reads the sort at `node`; unknown sort names are uninterpreted sorts.
pub fn parse_sort(tree: &Tree, node: NodeId, aliases: &SortAliases) -> Result<Sort, String> {
    parse_with(tree, node, aliases, &HashMap::new(), MAX_DEPTH + 1)
}

/// Reads the sort at `node` with alias parameters bound to `params`; `depth` is the nesting
/// (of sorts and of alias expansions) still allowed.
fn parse_with(
    tree: &Tree,
    node: NodeId,
    aliases: &SortAliases,
    params: &HashMap<String, Sort>,
    depth: usize,
) -> Result<Sort, String> {
    let mut named = |name: &str, args: Vec<Sort>, depth: usize| {
        let name = unquote(name);
        if let (Some(s), true) = (params.get(name), args.is_empty()) {
            return Ok(s.clone());
        }
        apply_alias(name, &args, aliases, depth)
            .unwrap_or_else(|| Ok(Sort::Named(name.to_string(), args)))
    };
    read_sort(tree, node, depth, &mut named).map_err(|e| match e {
        SortReadError::NotASort(n) => format!("expected a sort, got {}", tree.print_node(n)),
        SortReadError::UnknownIndexed(n) => format!("unknown indexed sort {}", tree.print_node(n)),
        SortReadError::TooDeep(_) => "sort aliases nest too deeply (cyclic define-sort?)".into(),
        SortReadError::Named(message) => message,
    })
}

fn apply_alias(
    name: &str,
    args: &[Sort],
    aliases: &SortAliases,
    depth: usize,
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
        depth - 1,
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

    #[test]
    fn cyclic_alias_and_bad_sorts_are_errors() {
        let src = Src::parse("(Wrap A) (_ BitVec 0) 7", "t", 0).unwrap();
        let r = src.tree.roots().to_vec();
        let mut aliases = SortAliases::default();
        aliases.define("A", vec![], TermRef::new(&src, r[0]));
        let t = &src.tree;
        assert_eq!(
            parse_sort(t, r[0], &aliases),
            Err("sort aliases nest too deeply (cyclic define-sort?)".to_string())
        );
        assert_eq!(
            parse_sort(t, r[1], &aliases),
            Err("unknown indexed sort (_ BitVec 0)".to_string())
        );
        assert_eq!(
            parse_sort(t, r[2], &aliases),
            Err("expected a sort, got 7".to_string())
        );
    }
}
