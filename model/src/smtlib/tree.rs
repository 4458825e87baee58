//! The S-expression tree of an SMT-LIB script: [`Tree`] is an arena of [`Node`]s addressed by
//! stable [`NodeId`]s; leaves hold an [`Atom`] exactly as written.
//!
//! The tree is deliberately generic (commands, terms, sorts and solver responses are all just
//! lists and atoms) so that a reducer can replace any node by any [`Sx`] with an [`Edit`]
//! and print the result with [`Tree::print_with`].

use std::fmt;

/// A 1-based source position (line and column in characters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos {
    pub line: u32,
    pub column: u32,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// The index of a node in its tree's arena; stays valid for the life of the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u32);

impl NodeId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A leaf token, stored exactly as written in the source.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Atom {
    /// A simple symbol or a quoted symbol including its bars (`|a b|`).
    Symbol(String),
    /// `:named`, including the colon.
    Keyword(String),
    /// `42`
    Numeral(String),
    /// `4.20`
    Decimal(String),
    /// `#x0F` as written.
    Hexadecimal(String),
    /// `#b0101` as written.
    Binary(String),
    /// A string literal including its quotes and `""` escapes.
    String(String),
}

impl Atom {
    /// The atom's source text.
    pub fn text(&self) -> &str {
        match self {
            Atom::Symbol(s)
            | Atom::Keyword(s)
            | Atom::Numeral(s)
            | Atom::Decimal(s)
            | Atom::Hexadecimal(s)
            | Atom::Binary(s)
            | Atom::String(s) => s,
        }
    }
}

/// Whether a node is a leaf or a parenthesized list.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum NodeKind {
    Atom(Atom),
    List,
}

/// One node of the arena. Atoms have no children.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub kind: NodeKind,
    pub children: Vec<NodeId>,
    pub parent: Option<NodeId>,
    pub pos: Pos,
}

/// Replacement material for an edit: new atoms/lists, or a reference to an existing subtree.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Sx {
    Atom(String),
    List(Vec<Sx>),
    Node(NodeId),
}

impl Sx {
    pub fn atom(text: impl Into<String>) -> Sx {
        Sx::Atom(text.into())
    }
}

/// Replace `node` by `replacement`; `None` deletes the node from its parent list (or from the roots).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Edit {
    pub node: NodeId,
    pub replacement: Option<Sx>,
}

/// An SMT-LIB script (or solver response) as an arena of nodes; `roots` are the top-level
/// S-expressions in source order.
#[derive(Clone, Debug, Default)]
pub struct Tree {
    pub(crate) nodes: Vec<Node>,
    pub(crate) roots: Vec<NodeId>,
}

impl Tree {
    /// An empty tree, to be filled with [`Tree::add_atom`] / [`Tree::add_list`].
    pub fn new() -> Tree {
        Tree::default()
    }

    pub fn roots(&self) -> &[NodeId] {
        &self.roots
    }

    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    pub fn children(&self, id: NodeId) -> &[NodeId] {
        &self.nodes[id.index()].children
    }

    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        self.nodes[id.index()].parent
    }

    pub fn pos(&self, id: NodeId) -> Pos {
        self.nodes[id.index()].pos
    }

    pub fn atom(&self, id: NodeId) -> Option<&Atom> {
        match &self.nodes[id.index()].kind {
            NodeKind::Atom(a) => Some(a),
            NodeKind::List => None,
        }
    }

    /// The text of a symbol atom (quoted symbols keep their bars).
    pub fn symbol(&self, id: NodeId) -> Option<&str> {
        match self.atom(id) {
            Some(Atom::Symbol(s)) => Some(s),
            _ => None,
        }
    }

    /// The first child's symbol of a list, e.g. `"assert"`, `"bvadd"`, `"_"`.
    pub fn head(&self, id: NodeId) -> Option<&str> {
        let node = &self.nodes[id.index()];
        match node.kind {
            NodeKind::List => node.children.first().and_then(|&c| self.symbol(c)),
            NodeKind::Atom(_) => None,
        }
    }

    pub fn is_list(&self, id: NodeId) -> bool {
        matches!(self.nodes[id.index()].kind, NodeKind::List)
    }

    /// The number of nodes in the arena.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// All node ids of the arena in creation order.
    pub fn ids(&self) -> impl Iterator<Item = NodeId> {
        (0..self.nodes.len() as u32).map(NodeId)
    }

    /// `id` and all its descendants in pre-order (parents before children, left to right).
    pub fn preorder(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        Preorder {
            tree: self,
            stack: vec![id],
        }
    }

    /// The subtree at `id` as an [`Sx`] of atoms and lists.
    pub fn to_sx(&self, id: NodeId) -> Sx {
        match &self.nodes[id.index()].kind {
            NodeKind::Atom(a) => Sx::Atom(a.text().to_string()),
            NodeKind::List => Sx::List(self.children(id).iter().map(|&c| self.to_sx(c)).collect()),
        }
    }

    /// Adds a detached atom node (no parent) and returns its id.
    pub fn add_atom(&mut self, atom: Atom, pos: Pos) -> NodeId {
        self.push_node(NodeKind::Atom(atom), pos)
    }

    /// Adds a list node owning `children` (which must be detached) and returns its id.
    pub fn add_list(&mut self, children: Vec<NodeId>, pos: Pos) -> NodeId {
        let id = self.push_node(NodeKind::List, pos);
        for &c in &children {
            self.nodes[c.index()].parent = Some(id);
        }
        self.nodes[id.index()].children = children;
        id
    }

    /// Appends a detached node to the top-level roots.
    pub fn push_root(&mut self, id: NodeId) {
        self.roots.push(id);
    }

    pub(crate) fn push_node(&mut self, kind: NodeKind, pos: Pos) -> NodeId {
        let id = NodeId(self.nodes.len() as u32);
        self.nodes.push(Node {
            kind,
            children: Vec::new(),
            parent: None,
            pos,
        });
        id
    }

    /// Structural equality of two subtrees (possibly of different trees), ignoring positions.
    pub fn same_subtree(&self, a: NodeId, other: &Tree, b: NodeId) -> bool {
        let mut stack = vec![(a, b)];
        while let Some((x, y)) = stack.pop() {
            let (nx, ny) = (self.node(x), other.node(y));
            if nx.kind != ny.kind || nx.children.len() != ny.children.len() {
                return false;
            }
            stack.extend(nx.children.iter().copied().zip(ny.children.iter().copied()));
        }
        true
    }

    /// Structural equality of whole trees: same roots with the same shapes and atoms,
    /// ignoring positions and arena layout.
    pub fn same_as(&self, other: &Tree) -> bool {
        self.roots.len() == other.roots.len()
            && self
                .roots
                .iter()
                .zip(&other.roots)
                .all(|(&a, &b)| self.same_subtree(a, other, b))
    }
}

/// Structural equality of two trees ignoring positions; see [`Tree::same_as`].
pub fn structurally_equal(a: &Tree, b: &Tree) -> bool {
    a.same_as(b)
}

struct Preorder<'a> {
    tree: &'a Tree,
    stack: Vec<NodeId>,
}

impl Iterator for Preorder<'_> {
    type Item = NodeId;

    fn next(&mut self) -> Option<NodeId> {
        let id = self.stack.pop()?;
        self.stack
            .extend(self.tree.children(id).iter().rev().copied());
        Some(id)
    }
}
