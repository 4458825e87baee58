//! The SMT-LIB parser: builds a [`Tree`] from text without recursion (any nesting depth),
//! reporting unbalanced parentheses at the offending or unclosed parenthesis.

use super::lexer::{Lexer, ParseError, TokenKind};
use super::tree::{Atom, AtomText, NodeId, Pos, Tree};

impl Tree {
    /// Parses a whole script or solver response. Comments are dropped; every other token is kept.
    pub fn parse(text: &str) -> Result<Tree, ParseError> {
        parse(text)
    }
}

/// Parses `text` into a [`Tree`]; see [`Tree::parse`].
pub fn parse(text: &str) -> Result<Tree, ParseError> {
    let mut lexer = Lexer::new(text);
    let mut tree = Tree::new();
    // Real scripts have a node per 3.5 to 6 bytes, about half of them atoms. Reserving for
    // more avoids regrowing (copying) the arrays; the unused tail is never touched, so it
    // costs address space only.
    tree.nodes.reserve(text.len() / 3 + 16);
    tree.atoms.reserve(text.len() / 5 + 16);
    tree.child_ids.reserve(text.len() / 3 + 16);
    // The lists still open, innermost last, each with where its children start in `pending`.
    let mut open: Vec<(NodeId, usize)> = Vec::new();
    // The children of the open lists so far, outermost list's first. When a list closes,
    // its children (the tail from its start) move to the tree's flat child array in one copy.
    let mut pending: Vec<NodeId> = Vec::new();
    while let Some(token) = lexer.next_token()? {
        let parent = open.last().map(|&(id, _)| id);
        let id = match token.kind {
            TokenKind::LParen => {
                let id = tree.push_list(parent, token.pos);
                attach(&mut tree, &mut pending, parent, id);
                open.push((id, pending.len()));
                continue;
            }
            TokenKind::RParen => {
                let Some((list, start)) = open.pop() else {
                    return Err(ParseError::new(
                        token.pos,
                        "unbalanced parentheses: unexpected ')' with no open '('",
                    ));
                };
                tree.set_children(list, &pending[start..]);
                pending.truncate(start);
                continue;
            }
            kind => {
                let text = AtomText::from(token.text);
                let atom = match kind {
                    TokenKind::Keyword => Atom::Keyword(text),
                    TokenKind::Numeral => Atom::Numeral(text),
                    TokenKind::Decimal => Atom::Decimal(text),
                    TokenKind::Hexadecimal => Atom::Hexadecimal(text),
                    TokenKind::Binary => Atom::Binary(text),
                    TokenKind::String => Atom::String(text),
                    // Only symbols are left: parentheses were handled above.
                    _ => Atom::Symbol(text),
                };
                tree.push_atom(atom, parent, token.pos)
            }
        };
        attach(&mut tree, &mut pending, parent, id);
    }
    if let Some(&(unclosed, _)) = open.last() {
        let pos: Pos = tree.pos(unclosed);
        return Err(ParseError::new(
            pos,
            format!(
                "unbalanced parentheses: expected ')' before the end of input to close this '(' ({} still open)",
                open.len()
            ),
        ));
    }
    Ok(tree)
}

/// Records `id` as the next child of `parent`, or as the next root.
fn attach(tree: &mut Tree, pending: &mut Vec<NodeId>, parent: Option<NodeId>, id: NodeId) {
    match parent {
        Some(_) => pending.push(id),
        None => tree.roots.push(id),
    }
}
