//! Mutators: the local rewrites ddsmt tries while reducing an SMT-LIB input.
//!
//! A [`Mutator`] looks at one node of the parsed [`Tree`] (with the sorts of its terms in a
//! [`SortMap`]) and proposes candidate [`Mutation`]s, each a set of [`Edit`]s applied together.
//! Mutators never run a solver: the engine checks each candidate. [`registry`] lists every
//! mutator in the order the hierarchical strategy tries them; [`detect_groups`] says which
//! theory [`Group`]s an input uses so that the others can be switched off.

/// The `name`, `help` and `group` of a [`Mutator`] impl, which every mutator spells the same
/// way: `mutator_info!(Group::Bv, "bv-norm-constants", "normalize bit-vector const");`.
macro_rules! mutator_info {
    ($group:expr, $name:literal, $help:literal) => {
        fn name(&self) -> &'static str {
            $name
        }
        fn help(&self) -> &'static str {
            $help
        }
        fn group(&self) -> $crate::mutators::Group {
            $group
        }
    };
}

/// The `filter` and `mutations` of a mutator that proposes at most one rewrite at a node,
/// `$rewrite(cx, id) -> Option<Mutation>`: it applies where the rewrite exists.
macro_rules! single_rewrite {
    ($rewrite:path) => {
        fn filter(&self, cx: &$crate::mutators::MutationInput, id: ::smtlib::NodeId) -> bool {
            $rewrite(cx, id).is_some()
        }
        fn mutations(
            &self,
            cx: &$crate::mutators::MutationInput,
            id: ::smtlib::NodeId,
        ) -> Vec<$crate::mutators::Mutation> {
            $rewrite(cx, id).into_iter().collect()
        }
    };
}

/// The `filter` and `mutations` of a mutator that works on the whole input only (through
/// `global_mutations`): it applies at no single node.
macro_rules! global_only {
    () => {
        fn filter(&self, _cx: &$crate::mutators::MutationInput, _id: ::smtlib::NodeId) -> bool {
            false
        }
        fn mutations(
            &self,
            _cx: &$crate::mutators::MutationInput,
            _id: ::smtlib::NodeId,
        ) -> Vec<$crate::mutators::Mutation> {
            Vec::new()
        }
    };
}

pub mod arithmetic;
pub mod boolean;
pub mod bv;
pub mod core;
pub mod datatypes;
pub mod fp;
pub mod smtlib;
pub mod sound;
pub mod strings;
#[cfg(test)]
mod testutil;
pub mod util;

pub use self::core::VariableMode;
use ::smtlib::Sort;
use ::smtlib::{infer_sorts_lenient, Atom, Edit, NodeId, SortMap, Tree};
use std::collections::BTreeSet;

/// Everything a mutator may look at.
pub struct MutationInput<'a> {
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
    fn filter(&self, cx: &MutationInput, node: NodeId) -> bool;
    /// Candidate changes at `node`, most reducing first.
    fn mutations(&self, cx: &MutationInput, node: NodeId) -> Vec<Mutation>;
    /// Candidate changes that touch the whole input (e.g. rename a symbol everywhere).
    fn global_mutations(&self, _cx: &MutationInput) -> Vec<Mutation> {
        Vec::new()
    }
    /// Whether the mutator ignores sorts and the shape of commands, so that most of its
    /// candidates are not well-formed SMT-LIB (though they parse): the hierarchical strategy
    /// tries such mutators only once the others have reached their fixpoint.
    fn last_resort(&self) -> bool {
        false
    }
}

/// Settings of individual mutators (`--replace-by-variable-mode`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MutatorConfig {
    pub replace_by_variable_mode: VariableMode,
}

/// Every mutator, in the order the hierarchical strategy tries them.
pub fn registry() -> Vec<Box<dyn Mutator>> {
    registry_with(&MutatorConfig::default())
}

/// Every mutator with the given settings, in the order the hierarchical strategy tries them:
/// the most reducing core mutators first, then the meaning-preserving rewrites, theory
/// simplifications, and the SMT-LIB level clean-ups last.
pub fn registry_with(config: &MutatorConfig) -> Vec<Box<dyn Mutator>> {
    vec![
        // core
        Box::new(core::EraseNode),
        Box::new(core::BinaryReduction),
        Box::new(core::Constants),
        Box::new(core::SubstituteChildren),
        Box::new(core::MergeChildren),
        Box::new(core::ReplaceByVariable {
            mode: config.replace_by_variable_mode,
        }),
        Box::new(core::SortChildren),
        // sound
        Box::new(sound::OneArgument),
        Box::new(sound::Flatten),
        Box::new(sound::NeutralElements),
        Box::new(sound::AbsorbingElements),
        Box::new(sound::DoubleNegation),
        Box::new(sound::NegatedComparisons),
        Box::new(sound::NotConstants),
        Box::new(sound::IteBranches),
        Box::new(sound::UnusedBindings),
        // boolean
        Box::new(boolean::DeMorgan),
        Box::new(boolean::DoubleNegation),
        Box::new(boolean::FalseEq),
        Box::new(boolean::Implications),
        Box::new(boolean::NegateQuantifiers),
        Box::new(boolean::XorBinary),
        Box::new(boolean::XorConstants),
        // arithmetic
        Box::new(arithmetic::NegateRelations),
        Box::new(arithmetic::SimplifyConstants),
        Box::new(arithmetic::SplitNaryRelations),
        Box::new(arithmetic::StrengthenRelations),
        // bv
        Box::new(bv::NormConstants),
        Box::new(bv::ZeroConcat),
        Box::new(bv::DoubleNegation),
        Box::new(bv::ElimBvcomp),
        Box::new(bv::EvalExtend),
        Box::new(bv::ExtractConstants),
        Box::new(bv::ExtractZeroExtend),
        Box::new(bv::MergeReducedBw),
        Box::new(bv::IteToBvcomp),
        Box::new(bv::ReflexiveNand),
        Box::new(bv::SimpConstants),
        Box::new(bv::BvToBool),
        Box::new(bv::ZeroExtendPred),
        Box::new(bv::ReduceBitwidth),
        // strings
        Box::new(strings::SeqNthUnit),
        Box::new(strings::ContainsToConcat),
        Box::new(strings::IndexNotFound),
        Box::new(strings::ReplaceAll),
        Box::new(strings::StringConstants),
        // fp
        Box::new(fp::ShortSort),
        // datatypes
        Box::new(datatypes::RmConstructor),
        Box::new(datatypes::RmDatatype),
        Box::new(datatypes::RmIdentity),
        // smtlib
        Box::new(smtlib::CheckSatAssuming),
        Box::new(smtlib::EliminatePushPop),
        Box::new(smtlib::EliminateVariables),
        Box::new(smtlib::InlineFunctions),
        Box::new(smtlib::LetElimination),
        Box::new(smtlib::LetSubstitution),
        Box::new(smtlib::RemoveAnnotation),
        Box::new(smtlib::RemoveRecursiveFunction),
        Box::new(smtlib::SimplifyLogic),
        Box::new(smtlib::SimplifyQuotedSymbols),
        Box::new(smtlib::SimplifySymbolNames),
        Box::new(smtlib::IntroduceFreshVariables),
        // last resort: any node, whatever syntax it leaves
        Box::new(core::EraseAnyNode),
        Box::new(core::UnwrapAnyNode),
    ]
}

/// The theory group a sort belongs to, if it is a theory group.
fn sort_group(sort: &Sort) -> Option<Group> {
    match sort {
        Sort::Int | Sort::Real | Sort::FiniteField(_) => Some(Group::Arithmetic),
        Sort::BitVec(_) => Some(Group::Bv),
        Sort::String | Sort::RegLan | Sort::Seq(_) => Some(Group::Strings),
        Sort::FloatingPoint(..) | Sort::RoundingMode => Some(Group::Fp),
        Sort::Array(i, e) => sort_group(i).or_else(|| sort_group(e)),
        Sort::FiniteSet(e) => sort_group(e),
        Sort::Bool | Sort::Named(..) => None,
    }
}

/// The theory group a symbol or literal names, if any.
fn atom_group(atom: &Atom) -> Option<Group> {
    match atom {
        Atom::Binary(_) | Atom::Hexadecimal(_) => Some(Group::Bv),
        Atom::String(_) => Some(Group::Strings),
        Atom::Decimal(_) => Some(Group::Arithmetic),
        Atom::Symbol(s) => match s.as_str() {
            "Int" | "Real" | "to_real" | "to_int" | "is_int" | "div" | "mod" | "abs" => {
                Some(Group::Arithmetic)
            }
            "BitVec" | "concat" | "extract" | "zero_extend" | "sign_extend" => Some(Group::Bv),
            "String" | "RegLan" | "Seq" => Some(Group::Strings),
            "FloatingPoint" | "Float16" | "Float32" | "Float64" | "Float128" | "RoundingMode" => {
                Some(Group::Fp)
            }
            "declare-datatype" | "declare-datatypes" | "match" => Some(Group::Datatypes),
            _ if s.starts_with("bv") && s.len() > 2 => Some(Group::Bv),
            _ if s.starts_with("str.") || s.starts_with("re.") || s.starts_with("seq.") => {
                Some(Group::Strings)
            }
            _ if s.starts_with("fp.") || s.starts_with("to_fp") => Some(Group::Fp),
            _ => None,
        },
        Atom::Keyword(_) | Atom::Numeral(_) => None,
    }
}

/// The theory groups an input uses (groups Core, Smtlib, Boolean, Sound are always on).
pub fn detect_groups(tree: &Tree) -> BTreeSet<Group> {
    let mut groups: BTreeSet<Group> = [Group::Core, Group::Smtlib, Group::Boolean, Group::Sound]
        .into_iter()
        .collect();
    let sorts = infer_sorts_lenient(tree);
    for &root in tree.roots() {
        for id in tree.preorder(root) {
            if let Some(g) = tree.atom(id).and_then(atom_group) {
                groups.insert(g);
            }
            if let Some(g) = sorts.get(id).and_then(sort_group) {
                groups.insert(g);
            }
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_kebab_case() {
        let all = registry();
        let mut names = BTreeSet::new();
        for m in &all {
            assert!(
                m.name()
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "{} is not kebab-case",
                m.name()
            );
            assert!(names.insert(m.name()), "duplicate name {}", m.name());
            assert!(!m.help().is_empty());
        }
        for g in Group::ALL {
            assert_eq!(Group::from_name(g.name()), Some(g));
            assert!(
                all.iter().any(|m| m.group() == g),
                "group {} is empty",
                g.name()
            );
        }
    }

    #[test]
    fn registry_with_sets_variable_mode() {
        // With `dec`, `bb` may be replaced by the smaller `a`; with `inc` it may not.
        let tree = Tree::parse("(declare-const a Int)\n(declare-const bb Int)\n(assert (> bb 0))")
            .expect("parses");
        let sorts = infer_sorts_lenient(&tree);
        let cx = MutationInput {
            tree: &tree,
            sorts: &sorts,
        };
        let bb = tree
            .preorder(tree.roots()[2])
            .find(|&n| tree.symbol(n) == Some("bb"))
            .expect("bb occurs");
        let count = |mode| {
            registry_with(&MutatorConfig {
                replace_by_variable_mode: mode,
            })
            .into_iter()
            .find(|m| m.name() == "replace-by-variable")
            .map(|m| m.mutations(&cx, bb).len())
        };
        assert_eq!(count(VariableMode::Dec), Some(1));
        assert_eq!(count(VariableMode::Inc), Some(0));
    }

    fn groups(text: &str) -> Vec<&'static str> {
        let tree = Tree::parse(text).expect("parses");
        detect_groups(&tree).into_iter().map(Group::name).collect()
    }

    #[test]
    fn detect_groups_by_theory() {
        assert_eq!(
            groups("(declare-const p Bool)\n(assert p)"),
            ["core", "boolean", "smtlib", "sound"]
        );
        assert_eq!(
            groups("(declare-const x Int)\n(assert (> x 0))"),
            ["core", "boolean", "arithmetic", "smtlib", "sound"]
        );
        assert_eq!(
            groups("(declare-const v (_ BitVec 8))\n(assert (= v #x00))"),
            ["core", "boolean", "bv", "smtlib", "sound"]
        );
        assert_eq!(
            groups("(declare-const s String)\n(assert (= s \"a\"))"),
            ["core", "boolean", "smtlib", "strings", "sound"]
        );
        assert_eq!(
            groups("(declare-const f Float32)\n(assert (fp.isNaN f))"),
            ["core", "boolean", "smtlib", "fp", "sound"]
        );
        assert_eq!(
            groups("(declare-datatype C ((red) (blue)))\n(declare-const c C)\n(assert (= c red))"),
            ["core", "boolean", "smtlib", "datatypes", "sound"]
        );
    }

    /// Small scripts over every group, for [`testutil::sweep`].
    const SWEEP_INPUTS: &[&str] = &[
        "(set-logic QF_UFLIA)\n(declare-fun f (Int) Int)\n(declare-const x Int)\n(declare-const y Int)\n(define-fun g ((a Int)) Int (+ a (* 2 y) 0))\n(push 1)\n(assert (! (< (f x) (g y) 3) :named c1))\n(assert (not (not (=> (>= x y) (= (- x 1) (* y 1))))))\n(check-sat-assuming (c1))\n(pop 1)\n(assert (let ((z (+ x 1)) (w 7)) (and (distinct z y) (or false (> z 0)))))",
        "(set-logic QF_BV)\n(declare-const v (_ BitVec 8))\n(declare-const b (_ BitVec 1))\n(assert (= (bvcomp v #x0f) (ite (= v (concat #x0 ((_ extract 3 0) v))) #b1 #b0)))\n(assert (bvult ((_ zero_extend 8) (bvnot (bvnot v))) ((_ zero_extend 8) (bvnand v v))))\n(assert (= (bvand b (_ bv1 1)) #b1))\n(check-sat)",
        "(set-logic ALL)\n(declare-const s String)\n(declare-const |quoted name| String)\n(assert (str.contains (str.++ s \"ab\" |quoted name|) (str.replace_all s \"a\" \"\")))\n(assert (= (str.indexof s \"xyz\" 0) (str.len s)))\n(assert (forall ((i Int)) (not (exists ((j Int)) (> (+ i j) 0)))))\n(check-sat)",
        "(declare-datatypes ((L 0)) (((nil) (cons (hd Int) (tl L)))))\n(declare-datatype C ((red) (green)))\n(declare-const l L)\n(declare-const f (_ FloatingPoint 8 24))\n(define-fun-rec len ((m L)) Int (ite ((_ is nil) m) 0 (+ 1 (len (tl m)))))\n(assert (= (hd (cons 1 l)) (len l)))\n(assert (fp.isNaN (fp.add RNE f f)))\n(assert (xor (fp.isZero f) true false))\n(check-sat)",
        "(set-logic ALL)\n(declare-const |p| Bool)\n(declare-const q Bool)\n(declare-const n Int)\n(declare-const v (_ BitVec 4))\n(declare-sort U 0)\n(declare-const unused U)\n(assert (and (and p q) (or q)))\n(assert (= (* n 0) n))\n(assert (not (< n 3)))\n(assert (not false))\n(assert (not (and p q)))\n(assert (= p false))\n(assert (xor p q))\n(assert (= (bvcomp v #x1) #b1))\n(assert (= ((_ zero_extend 4) #x3) (concat v v)))\n(assert (= v ((_ extract 3 0) ((_ zero_extend 4) v))))\n(assert (= ((_ extract 1 0) #xa) ((_ extract 1 0) ((_ extract 2 0) v))))\n(assert (= (seq.nth (seq.unit n) 0) n))\n(assert (= n 5))\n(assert (= n (ite p (+ n 1) (+ n 1))))\n(assert (! p :named nm))",
    ];

    #[test]
    fn every_candidate_parses_and_is_well_sorted() {
        let mut fired = BTreeSet::new();
        for input in SWEEP_INPUTS {
            let tree = Tree::parse(input).expect("parses");
            assert!(
                ::smtlib::infer_sorts(&tree).is_ok(),
                "sweep input must be well-sorted:\n{input}"
            );
            let (problems, names) = testutil::sweep(input);
            assert!(problems.is_empty(), "{}", problems.join("\n"));
            fired.extend(names);
        }
        let silent: Vec<_> = registry()
            .iter()
            .map(|m| m.name())
            .filter(|n| !fired.contains(n))
            .collect();
        assert!(silent.is_empty(), "mutators that never fired: {silent:?}");
    }
}
