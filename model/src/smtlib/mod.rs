//! SMT-LIB v2.6: lexer, parser, printer and sort inference over one generic tree.
//!
//! - [`tree`]: [`Tree`], an arena of [`Node`]s with stable [`NodeId`]s; [`Sx`] and [`Edit`]
//!   describe replacements for reducers.
//! - [`lexer`]: tokens with positions and the located [`ParseError`].
//! - [`parser`]: [`Tree::parse`] builds the tree.
//! - [`sorts`]: [`infer_sorts`] / [`infer_sorts_lenient`] give each term its [`crate::Sort`]
//!   in a [`SortMap`]; [`declarations`] returns the script's [`Declarations`].
//! - [`theories`]: the sorts of theory symbols; [`symbols`]: unquoting and string literals.
//! - [`classify`]: [`Command`] and [`TermShape`] of nodes.
//! - [`printer`]: faithful printing, printing with edits, [`PrintOptions`] (pretty, wrapped).

pub mod classify;
pub mod lexer;
pub mod parser;
pub mod printer;
pub mod sorts;
pub mod symbols;
pub mod theories;
pub mod tree;

pub use classify::{command, term_shape, Command, TermShape};
pub use lexer::ParseError;
pub use parser::parse;
pub use printer::PrintOptions;
pub use sorts::{
    declarations, infer_sorts, infer_sorts_lenient, infer_with_declarations,
    lenient_with_declarations, Constructor, Datatype, Declarations, FunctionDecl, FunctionKind,
    SortDecl, SortError, SortMap,
};
pub use symbols::{decode_string, encode_string, is_simple_symbol, quote, unquote};
pub use tree::{structurally_equal, Atom, AtomText, Edit, Node, NodeId, NodeKind, Pos, Sx, Tree};
