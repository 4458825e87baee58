//! Building mutations and replacement material: [`Mutation`]s, [`Edit`]s and [`Sx`] terms.

use crate::mutators::Mutation;
use smtlib::{Edit, NodeId, Sx};

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
