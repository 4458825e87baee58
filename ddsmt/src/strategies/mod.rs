//! Reduction strategies over the SMT-LIB tree, on top of the generic engine.
//!
//! - [`Strategy`]: ddmin, hierarchical or hybrid (ddSMT 2's names).
//! - [`Session`]: what a strategy works with: the [`Reducer`], the enabled mutators and the
//!   print layout. [`Session::current`] re-parses the best result and recomputes sorts, which
//!   every strategy does after each accepted candidate.
//! - [`ddmin`]: ddmin over top-level commands, then over terms level by level.
//! - [`hierarchical`]: passes over the tree, top down, every mutator at each node.
//! - [`scopes`]: valid push/pop scopes (the filter every candidate passes) and a pass over
//!   whole scopes, which every strategy runs first.
//! - [`comments`]: a line-level ddmin first, when the behaviour needs the input's comments
//!   (which the tree, and so every other candidate, lacks).
//!
//! Hybrid = ddmin over the commands that are not declarations (which ddSMT's first round also
//! leaves alone), then hierarchical, whose passes remove declarations once unused.

pub mod comments;
pub mod ddmin;
pub mod edits;
pub mod hierarchical;
pub mod scopes;

use smtlib::{infer_sorts_lenient, Edit, PrintOptions, SortMap, Tree};

use crate::mutators::Mutator;
use reduce::Reducer;

/// Which strategy to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    Ddmin,
    Hierarchical,
    Hybrid,
}

/// The parsed best result with the sorts of its terms.
pub struct Current {
    pub tree: Tree,
    pub sorts: SortMap,
}

impl Current {
    /// What mutators look at.
    pub fn cx(&self) -> crate::mutators::MutationInput<'_> {
        crate::mutators::MutationInput {
            tree: &self.tree,
            sorts: &self.sorts,
        }
    }
}

/// What a strategy works with.
pub struct Session<'r, 't, 'm> {
    pub reducer: &'r mut Reducer<'t>,
    pub mutators: Vec<&'m dyn Mutator>,
    pub print: PrintOptions,
}

impl Session<'_, '_, '_> {
    /// Parse the best result and infer its sorts. `None` if it does not parse (only possible
    /// for the original input, which the caller has parsed already, or with `--unchecked`).
    pub fn current(&self) -> Option<Current> {
        let text = std::str::from_utf8(self.reducer.best()).ok()?;
        let tree = Tree::parse(text).ok()?;
        let sorts = infer_sorts_lenient(&tree);
        Some(Current { tree, sorts })
    }

    /// The candidate text of `tree` with `edits` applied, laid out as the user asked.
    pub fn render(&self, tree: &Tree, edits: &[Edit]) -> Vec<u8> {
        tree.print_with_options(edits, &self.print).into_bytes()
    }
}

/// Run `strategy` until it reaches its fixpoint or the reducer stops.
pub fn run(strategy: Strategy, s: &mut Session) {
    if !s.reducer.stopped() {
        comments::lines(s);
    }
    if !s.reducer.stopped() {
        scopes::scopes(s);
    }
    match strategy {
        Strategy::Ddmin => ddmin::run(s),
        Strategy::Hierarchical => hierarchical::run(s),
        Strategy::Hybrid => {
            ddmin::non_declarations(s);
            hierarchical::run(s);
        }
    }
}
