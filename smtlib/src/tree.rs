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

/// The text of an atom: a small-string type that keeps texts of up to 24 bytes inline, so
/// parsing allocates nothing per atom. It derefs to `str` and compares with `str`/`String`.
pub type AtomText = compact_str::CompactString;

/// A leaf token, stored exactly as written in the source.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Atom {
    /// A simple symbol or a quoted symbol including its bars (`|a b|`).
    Symbol(AtomText),
    /// `:named`, including the colon.
    Keyword(AtomText),
    /// `42`
    Numeral(AtomText),
    /// `4.20`
    Decimal(AtomText),
    /// `#x0F` as written.
    Hexadecimal(AtomText),
    /// `#b0101` as written.
    Binary(AtomText),
    /// A string literal including its quotes and `""` escapes.
    String(AtomText),
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

/// Whether a node is a leaf (with its atom) or a parenthesized list; see [`Tree::kind`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeKind<'a> {
    Atom(&'a Atom),
    List,
}

/// `Node::data_len` of an atom node; lists store their number of children there.
const ATOM: u32 = u32::MAX;

/// One node of the arena (24 bytes): its parent, its position, and either its atom (an index
/// into the tree's atoms) or its children (a range of the tree's flat child-id array).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    pub parent: Option<NodeId>,
    pub pos: Pos,
    /// The atom's index, or the list's first child's index in `Tree::child_ids`.
    data: u32,
    /// [`ATOM`] for atoms; the number of children for lists.
    data_len: u32,
}

impl Node {
    pub fn is_list(&self) -> bool {
        self.data_len != ATOM
    }

    /// The number of children (0 for atoms).
    pub fn child_count(&self) -> usize {
        if self.is_list() {
            self.data_len as usize
        } else {
            0
        }
    }

    pub(crate) fn atom_node(atom: u32, parent: Option<NodeId>, pos: Pos) -> Node {
        Node {
            parent,
            pos,
            data: atom,
            data_len: ATOM,
        }
    }

    /// A list node whose children are not known yet (set by [`Tree::set_children_range`]).
    pub(crate) fn list_node(parent: Option<NodeId>, pos: Pos) -> Node {
        Node {
            parent,
            pos,
            data: 0,
            data_len: 0,
        }
    }
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
///
/// Memory layout (why parsing is fast): nodes are 24-byte [`Node`]s; atoms live in their own
/// array; the children of every list are one contiguous range of a single flat id array, so a
/// tree of a million nodes is a handful of allocations, not a million.
#[derive(Clone, Debug, Default)]
pub struct Tree {
    pub(crate) nodes: Vec<Node>,
    pub(crate) atoms: Vec<Atom>,
    /// The children of all lists, each list's children contiguous (see `Node::data`).
    pub(crate) child_ids: Vec<NodeId>,
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

    /// Whether `id` is an atom (and which) or a list.
    pub fn kind(&self, id: NodeId) -> NodeKind<'_> {
        let node = &self.nodes[id.index()];
        if node.is_list() {
            NodeKind::List
        } else {
            NodeKind::Atom(&self.atoms[node.data as usize])
        }
    }

    pub fn children(&self, id: NodeId) -> &[NodeId] {
        let node = &self.nodes[id.index()];
        if node.is_list() {
            let start = node.data as usize;
            &self.child_ids[start..start + node.data_len as usize]
        } else {
            &[]
        }
    }

    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        self.nodes[id.index()].parent
    }

    pub fn pos(&self, id: NodeId) -> Pos {
        self.nodes[id.index()].pos
    }

    pub fn atom(&self, id: NodeId) -> Option<&Atom> {
        match self.kind(id) {
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
        self.children(id).first().and_then(|&c| self.symbol(c))
    }

    pub fn is_list(&self, id: NodeId) -> bool {
        self.nodes[id.index()].is_list()
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
        match self.kind(id) {
            NodeKind::Atom(a) => Sx::Atom(a.text().to_string()),
            NodeKind::List => Sx::List(self.children(id).iter().map(|&c| self.to_sx(c)).collect()),
        }
    }

    /// Adds a detached atom node (no parent) and returns its id.
    pub fn add_atom(&mut self, atom: Atom, pos: Pos) -> NodeId {
        self.push_atom(atom, None, pos)
    }

    /// Adds a list node owning `children` (which must be detached) and returns its id.
    pub fn add_list(&mut self, children: Vec<NodeId>, pos: Pos) -> NodeId {
        let id = self.push_list(None, pos);
        for &c in &children {
            self.nodes[c.index()].parent = Some(id);
        }
        self.set_children(id, &children);
        id
    }

    /// Appends a detached node to the top-level roots.
    pub fn push_root(&mut self, id: NodeId) {
        self.roots.push(id);
    }

    pub(crate) fn push_atom(&mut self, atom: Atom, parent: Option<NodeId>, pos: Pos) -> NodeId {
        let id = NodeId(self.nodes.len() as u32);
        let index = self.atoms.len() as u32;
        self.atoms.push(atom);
        self.nodes.push(Node::atom_node(index, parent, pos));
        id
    }

    /// Adds a list node without children; [`Tree::set_children`] gives it its children.
    pub(crate) fn push_list(&mut self, parent: Option<NodeId>, pos: Pos) -> NodeId {
        let id = NodeId(self.nodes.len() as u32);
        self.nodes.push(Node::list_node(parent, pos));
        id
    }

    /// Makes `children` the children of list `id` (appended to the flat child-id array).
    pub(crate) fn set_children(&mut self, id: NodeId, children: &[NodeId]) {
        let node = &mut self.nodes[id.index()];
        node.data = self.child_ids.len() as u32;
        node.data_len = children.len() as u32;
        self.child_ids.extend_from_slice(children);
    }

    /// Structural equality of two subtrees (possibly of different trees), ignoring positions.
    pub fn same_subtree(&self, a: NodeId, other: &Tree, b: NodeId) -> bool {
        let mut stack = vec![(a, b)];
        while let Some((x, y)) = stack.pop() {
            let (cx, cy) = (self.children(x), other.children(y));
            if self.kind(x) != other.kind(y) || cx.len() != cy.len() {
                return false;
            }
            stack.extend(cx.iter().copied().zip(cy.iter().copied()));
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
