//! SMT-LIB v2.6 without a solver: sorts, the operation table, the language (lexer, parser,
//! tree, printer, sort inference), an evaluator of ground terms and the model checker behind
//! the `checkmodel` binary.
//!
//! - [`sort`]: [`Sort`], the one sort type (traces, sort inference and the evaluator all use
//!   it), and [`Theory`].
//! - [`ops`]: the operation table [`ops::OPS`] (names, indices, arity, sort rules).
//! - [`tree`]: [`Tree`], an arena of [`Node`]s with stable [`NodeId`]s; [`Sx`] and [`Edit`]
//!   describe replacements for reducers.
//! - [`lexer`]: tokens with positions and the located [`ParseError`].
//! - [`parser`]: [`Tree::parse`] builds the tree.
//! - [`sorts`]: [`infer_sorts`] / [`infer_sorts_lenient`] give each term its [`Sort`]
//!   in a [`SortMap`]; [`declarations`] returns the script's [`Declarations`].
//! - [`theories`]: the sorts of theory symbols; [`symbols`]: unquoting and string literals.
//! - [`classify`]: [`Command`] and [`TermShape`] of nodes.
//! - [`printer`]: faithful printing, printing with edits, [`PrintOptions`] (pretty, wrapped).
//! - [`eval`]: the evaluator and the model checker ([`eval::check_files`]).
//!
//! Architecture invariant: this crate depends on no other crate of the workspace, never links
//! a solver and never spawns a process.

pub mod classify;
pub mod eval;
pub mod lexer;
pub mod ops;
pub mod parser;
pub mod printer;
pub mod sort;
pub mod sorts;
pub mod symbols;
pub mod theories;
pub mod tree;

pub use classify::{command, term_shape, Command, TermShape};
pub use lexer::ParseError;
pub use parser::parse;
pub use printer::PrintOptions;
pub use sort::{Sort, Theory};
pub use sorts::{
    declarations, infer_sorts, infer_sorts_lenient, infer_with_declarations,
    lenient_with_declarations, Constructor, Datatype, Declarations, FunctionDecl, FunctionKind,
    SortDecl, SortError, SortMap,
};
pub use symbols::{decode_string, encode_string, is_simple_symbol, quote, unquote};
pub use tree::{structurally_equal, Atom, AtomText, Edit, Node, NodeId, NodeKind, Pos, Sx, Tree};
