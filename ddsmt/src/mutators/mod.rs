//! Mutators: the local rewrites ddsmt tries while reducing an SMT-LIB input.
//!
//! A [`Mutator`] looks at one node of the parsed [`Tree`] (with the sorts of its terms in a
//! [`SortMap`]) and proposes candidate [`Mutation`]s, each a set of [`Edit`]s applied together.
//! Mutators never run a solver: the engine checks each candidate. [`registry`] lists every
//! mutator in the order the hierarchical strategy tries them; [`detect_groups`] says which
//! theory [`Group`]s an input uses so that the others can be switched off.

use model::smtlib::{Edit, NodeId, SortMap, Tree};
#[allow(unused_imports)]
use model::smtlib::Sx;

/// Everything a mutator may look at.
pub struct Cx<'a> {
    pub tree: &'a Tree,
    pub sorts: &'a SortMap,
}

/// One candidate change: a set of edits applied together.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Mutation {
    pub description: String,
    pub edits: Vec<Edit>,
}

/// The theory groups mutators belong to; `--[no-]GROUP` switches a whole group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Group {
    Core,
    Boolean,
    Arithmetic,
    Bv,
    Smtlib,
    Strings,
    Fp,
    Datatypes,
    Sound,
}

impl Group {
    pub const ALL: [Group; 9] = [
        Group::Core,
        Group::Boolean,
        Group::Arithmetic,
        Group::Bv,
        Group::Smtlib,
        Group::Strings,
        Group::Fp,
        Group::Datatypes,
        Group::Sound,
    ];

    /// Command-line name of the group.
    pub fn name(self) -> &'static str {
        match self {
            Group::Core => "core",
            Group::Boolean => "boolean",
            Group::Arithmetic => "arithmetic",
            Group::Bv => "bv",
            Group::Smtlib => "smtlib",
            Group::Strings => "strings",
            Group::Fp => "fp",
            Group::Datatypes => "datatypes",
            Group::Sound => "sound",
        }
    }

    pub fn from_name(name: &str) -> Option<Group> {
        Group::ALL.into_iter().find(|g| g.name() == name)
    }
}

pub trait Mutator: Send + Sync {
    /// Command-line name: `--no-NAME` disables it, `--NAME` enables it. kebab-case, e.g. "erase-node".
    fn name(&self) -> &'static str;
    fn help(&self) -> &'static str;
    fn group(&self) -> Group;
    /// Whether this mutator applies to `node` at all (cheap).
    fn filter(&self, cx: &Cx, node: NodeId) -> bool;
    /// Candidate changes at `node`, most reducing first.
    fn mutations(&self, cx: &Cx, node: NodeId) -> Vec<Mutation>;
    /// Candidate changes that touch the whole input (e.g. rename a symbol everywhere).
    fn global_mutations(&self, _cx: &Cx) -> Vec<Mutation> {
        Vec::new()
    }
}

/// Every mutator, in the order the hierarchical strategy tries them.
pub fn registry() -> Vec<Box<dyn Mutator>> {
    Vec::new()
}

/// The theory groups an input uses (groups Core, Smtlib, Boolean, Sound are always on).
pub fn detect_groups(_tree: &Tree) -> std::collections::BTreeSet<Group> {
    [Group::Core, Group::Smtlib, Group::Boolean, Group::Sound]
        .into_iter()
        .collect()
}
