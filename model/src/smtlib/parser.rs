//! The SMT-LIB parser: builds a [`Tree`] from text without recursion (any nesting depth),
//! reporting unbalanced parentheses at the offending or unclosed parenthesis.

use super::lexer::{Lexer, ParseError, TokenKind};
use super::tree::{Atom, NodeId, NodeKind, Pos, Tree};

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
    // Real scripts have a node per 3.5 to 6 bytes. Reserving for one per 3 bytes avoids
    // regrowing (copying) the arena; the unused tail is never touched, so costs no memory.
    tree.nodes.reserve(text.len() / 3 + 16);
    // The lists still open, innermost last.
    let mut open: Vec<NodeId> = Vec::new();
    while let Some(token) = lexer.next_token()? {
        let atom = match token.kind {
            TokenKind::LParen => {
                let id = tree.push_node(NodeKind::List, token.pos);
                attach(&mut tree, &open, id);
                open.push(id);
                continue;
            }
            TokenKind::RParen => {
                if open.pop().is_none() {
                    return Err(ParseError::new(
                        token.pos,
                        "unbalanced parentheses: unexpected ')' with no open '('",
                    ));
                }
                continue;
            }
            TokenKind::Symbol => Atom::Symbol(token.text.to_string()),
            TokenKind::Keyword => Atom::Keyword(token.text.to_string()),
            TokenKind::Numeral => Atom::Numeral(token.text.to_string()),
            TokenKind::Decimal => Atom::Decimal(token.text.to_string()),
            TokenKind::Hexadecimal => Atom::Hexadecimal(token.text.to_string()),
            TokenKind::Binary => Atom::Binary(token.text.to_string()),
            TokenKind::String => Atom::String(token.text.to_string()),
        };
        let id = tree.push_node(NodeKind::Atom(atom), token.pos);
        attach(&mut tree, &open, id);
    }
    if let Some(&unclosed) = open.last() {
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

fn attach(tree: &mut Tree, open: &[NodeId], id: NodeId) {
    match open.last() {
        Some(&parent) => {
            tree.nodes[id.index()].parent = Some(parent);
            tree.nodes[parent.index()].children.push(id);
        }
        None => tree.roots.push(id),
    }
}
