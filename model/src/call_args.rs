//! The one description of every call, and what is derived from it.
//!
//! Each trace name has a [`CallSpec`] (what it returns, its [`Family`], the Z3 C functions it
//! makes, its [`Smt2`] form) and each call walks its arguments in trace order through a
//! visitor ([`Call::walk`], [`Call::walk_mut`], written once in `call.rs`, one arm per call).
//! The text format (`trace::text` prints with a [`Visit`] and parses by filling a template
//! with a [`VisitMut`]), the ids a call reads ([`Call::uses`]), their renumbering
//! ([`Call::map_ids`]), the term slots and shrinkable lists the minimizer edits, the argument
//! kinds a reproducer writer needs ([`Call::arg_kinds`], [`catalog`]) and the reference
//! state's bookkeeping ([`Call::ret_kind`]) all follow from that walk, so a new call is one
//! variant, one arm and one template, and the compiler finds a forgotten arm.

use crate::call::{
    AnyId, Call, FuncId, GoalId, ModelId, Op, OptId, ProbeTest, RcfId, RetKind, SolverId,
    SolverKind, SortId, TacticId, TermId,
};
use crate::datatype::{DatatypeDecl, DeclPath, FieldSort};
use std::collections::HashMap;
use std::sync::OnceLock;

/// What a call is, apart from its arguments: one per trace name (Z3's `def_API` line).
#[derive(Debug, PartialEq, Eq)]
pub struct CallSpec {
    /// The trace name, the first word of the call's line (for an operation of the table, the
    /// operation's name takes its place: see [`Call::name`]).
    pub name: &'static str,
    /// What the call returns.
    pub ret: RetKind,
    pub family: Family,
    /// The Z3 C functions the call makes, the main one first (the executor may make helpers
    /// around them: reference counts, parameter objects).
    pub z3: &'static [&'static str],
    pub smt2: Smt2,
}

/// A group of calls that belong together: the fuzzer's families, the statistics' groups.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    Sorts,
    Terms,
    /// Bound variables and quantifiers.
    Quantifiers,
    Datatypes,
    /// Pseudo-Boolean constraints (`pb_le`, `pb_ge`, `pb_eq`).
    PseudoBoolean,
    /// Recursive functions (`rec_fun`, `rec_def`).
    RecFunctions,
    /// Special relations (orders, transitive closures) and their check.
    Relations,
    /// Models built by hand (`model_new`, `model_const`).
    HandModels,
    Solvers,
    Models,
    /// Contexts of their own configuration, and proofs.
    Contexts,
    /// Oracle checks other families do not own.
    Checks,
    Consequences,
    Cubes,
    Tactics,
    Optimize,
    /// Real closed field numbers (`Z3_rcf_*`).
    Rcf,
    /// Algebraic numbers (`Z3_algebraic_*`).
    Algebraic,
    /// Releasing handles.
    Handles,
    /// Reading objects back (`read`, `read_sort`, `read_eq`, `read_stats`).
    Reads,
    /// Fixedpoint contexts (`fp_*`: Spacer, Datalog) and their check.
    Fixedpoint,
    /// Z3's finite sets (`sort_finite_set`, `fset_*`, `check_fset`; releases after 4.8.12).
    FiniteSets,
    /// Z3's prime fields (`sort_finite_field`, `ff_*`, `check_ff`; releases after 4.8.12).
    FiniteFields,
}

impl Family {
    /// The name under which the statistics count rounds that used the family
    /// (`rounds_per_theory`), for the families counted there.
    pub fn counted_name(self) -> Option<&'static str> {
        match self {
            Family::Quantifiers => Some(crate::Theory::Quant.name()),
            Family::Datatypes => Some(crate::Theory::Datatypes.name()),
            Family::PseudoBoolean => Some("pb"),
            Family::RecFunctions => Some("rec-fun"),
            Family::Relations => Some("relations"),
            Family::HandModels => Some("hand-models"),
            Family::Contexts => Some("contexts"),
            Family::Consequences => Some("consequences"),
            Family::Cubes => Some("cubes"),
            Family::Tactics => Some("tactics"),
            Family::Optimize => Some("optimize"),
            Family::Reads => Some("reads"),
            Family::Rcf => Some("rcf"),
            Family::Algebraic => Some("algebraic"),
            Family::Fixedpoint => Some("fixedpoint"),
            Family::FiniteSets => Some("finite-sets"),
            Family::FiniteFields => Some("finite-fields"),
            Family::Sorts
            | Family::Terms
            | Family::Solvers
            | Family::Models
            | Family::Checks
            | Family::Handles => None,
        }
    }
}

/// The SMT-LIB form of a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Smt2 {
    /// None: handles, copies, dumps, what only the API has.
    ApiOnly,
    /// A command or term that the SMT-LIB writers (`untrace --smt2`, the term texts of the
    /// checks) write themselves, from the script's state (declarations, the main solver).
    Written,
    /// The term `((_ HEAD N...) t...)`: HEAD indexed by the call's integer arguments, applied
    /// to its term arguments, both in argument order (`(HEAD t...)` without integer
    /// arguments). `standard`: whether standard SMT-LIB
    /// (and so other solvers) has it; otherwise it is Z3's dialect only.
    Indexed { head: &'static str, standard: bool },
}

/// How a list of term arguments may shrink (the minimizer removes items down to `min`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum List {
    Fixed,
    Shrink { min: usize },
}

/// The kind of one argument, in trace order: what a reproducer writer declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgKind {
    Sort,
    Term,
    Func,
    Solver,
    Model,
    Tactic,
    Goal,
    Opt,
    Rcf,
    /// RCF numbers to the end of the line.
    Rcfs,
    /// An object of any kind (`release`).
    Any,
    /// An unsigned 32-bit number.
    Number,
    /// A signed 32-bit number.
    Int,
    Flag,
    String,
    /// The indices of an operation of the table.
    Indices,
    /// The sorts to the end of the line.
    Sorts,
    /// Terms to the end of the line.
    Terms,
    /// Terms up to a keyword.
    TermsUntil(&'static str),
    /// Pairs of terms to the end of the line.
    TermPairs,
    /// Pairs of quoted names and values to the end of the line.
    StringPairs,
    /// Pairs of a signed coefficient and a term to the end of the line.
    Weighted,
    /// Multi-patterns and no-patterns of a quantifier.
    Patterns,
    /// How a solver is made (`logic "L"`, `tactic "T"`, `from_tactic kK`, nothing).
    SolverKind,
    /// A probe test, `"PROBE" CMP N`.
    Probe,
    /// The declarations of `declare_datatypes`.
    Datatypes,
}

macro_rules! visitor {
    ($(#[$doc:meta])* $name:ident, $($r:tt)+) => {
        $(#[$doc])*
        // The reading visitor takes `&Vec` and `&String` to mirror the editing one, where a
        // list must grow: one walk serves both.
        #[allow(clippy::ptr_arg)]
        pub trait $name {
            /// The call's description, first.
            fn head(&mut self, spec: &'static CallSpec);
            fn sort(&mut self, id: $($r)+ SortId);
            fn term(&mut self, id: $($r)+ TermId);
            fn func(&mut self, id: $($r)+ FuncId);
            fn solver(&mut self, id: $($r)+ SolverId);
            fn model(&mut self, id: $($r)+ ModelId);
            fn tactic(&mut self, id: $($r)+ TacticId);
            fn goal(&mut self, id: $($r)+ GoalId);
            fn opt(&mut self, id: $($r)+ OptId);
            fn rcf(&mut self, id: $($r)+ RcfId);
            /// RCF numbers to the end of the line.
            fn rcfs(&mut self, ids: $($r)+ Vec<RcfId>);
            /// An id of any kind that the call names without computing with it (`release`).
            fn any(&mut self, id: $($r)+ AnyId);
            fn number(&mut self, n: $($r)+ u32, what: &'static str);
            fn int(&mut self, n: $($r)+ i32, what: &'static str);
            fn flag(&mut self, b: $($r)+ bool, what: &'static str);
            fn string(&mut self, s: $($r)+ String, what: &'static str);
            /// The indices of `op`, then (by a separate [`Self::terms`]) its arguments.
            fn indices(&mut self, op: &Op, indices: $($r)+ Vec<u32>);
            /// Sorts to the end of the line.
            fn sorts(&mut self, ids: $($r)+ Vec<SortId>);
            /// Terms to the end of the line.
            fn terms(&mut self, ids: $($r)+ Vec<TermId>, list: List);
            /// Terms, then the keyword `stop`.
            fn terms_until(&mut self, ids: $($r)+ Vec<TermId>, stop: &'static str);
            /// Pairs of terms to the end of the line (`what` names the whole argument list).
            fn term_pairs(&mut self, pairs: $($r)+ Vec<(TermId, TermId)>, what: &'static str);
            /// Pairs of quoted strings to the end of the line (`what` names them).
            fn string_pairs(&mut self, pairs: $($r)+ Vec<(String, String)>, what: &'static str);
            /// Pairs of a coefficient and a term to the end of the line.
            fn weighted(&mut self, pairs: $($r)+ Vec<(i32, TermId)>, list: List);
            /// A quantifier's tail: `pattern tP...` groups and `no_pattern tN` items, which
            /// shrink as one list (patterns first).
            fn patterns(&mut self, patterns: $($r)+ Vec<Vec<TermId>>, no_patterns: $($r)+ Vec<TermId>);
            fn solver_kind(&mut self, kind: $($r)+ SolverKind);
            fn probe(&mut self, probe: $($r)+ ProbeTest);
            fn datatypes(
                &mut self,
                path: $($r)+ DeclPath,
                params: $($r)+ Vec<String>,
                datatypes: $($r)+ Vec<DatatypeDecl>,
            );
        }
    };
}

visitor!(
    /// Reads a call's arguments in trace order (printing, ids, kinds).
    Visit,
    &
);
visitor!(
    /// Edits a call's arguments in trace order (parsing, renumbering, shrinking).
    VisitMut,
    &mut
);

// Every visitor implements every method (a method left out is a compile error, not a silent
// gap); `noop!` writes the ones a visitor of `&Call` does not care about.
macro_rules! noop {
    (head) => {
        fn head(&mut self, _spec: &'static CallSpec) {}
    };
    (sort) => {
        fn sort(&mut self, _id: &SortId) {}
    };
    (term) => {
        fn term(&mut self, _id: &TermId) {}
    };
    (func) => {
        fn func(&mut self, _id: &FuncId) {}
    };
    (solver) => {
        fn solver(&mut self, _id: &SolverId) {}
    };
    (model) => {
        fn model(&mut self, _id: &ModelId) {}
    };
    (tactic) => {
        fn tactic(&mut self, _id: &TacticId) {}
    };
    (goal) => {
        fn goal(&mut self, _id: &GoalId) {}
    };
    (opt) => {
        fn opt(&mut self, _id: &OptId) {}
    };
    (rcf) => {
        fn rcf(&mut self, _id: &RcfId) {}
    };
    (rcfs) => {
        fn rcfs(&mut self, _ids: &Vec<RcfId>) {}
    };
    (any) => {
        fn any(&mut self, _id: &AnyId) {}
    };
    (number) => {
        fn number(&mut self, _n: &u32, _what: &'static str) {}
    };
    (int) => {
        fn int(&mut self, _n: &i32, _what: &'static str) {}
    };
    (flag) => {
        fn flag(&mut self, _b: &bool, _what: &'static str) {}
    };
    (string) => {
        fn string(&mut self, _s: &String, _what: &'static str) {}
    };
    (indices) => {
        fn indices(&mut self, _op: &Op, _indices: &Vec<u32>) {}
    };
    (sorts) => {
        fn sorts(&mut self, _ids: &Vec<SortId>) {}
    };
    (terms) => {
        fn terms(&mut self, _ids: &Vec<TermId>, _list: List) {}
    };
    (terms_until) => {
        fn terms_until(&mut self, _ids: &Vec<TermId>, _stop: &'static str) {}
    };
    (term_pairs) => {
        fn term_pairs(&mut self, _pairs: &Vec<(TermId, TermId)>, _what: &'static str) {}
    };
    (string_pairs) => {
        fn string_pairs(&mut self, _pairs: &Vec<(String, String)>, _what: &'static str) {}
    };
    (weighted) => {
        fn weighted(&mut self, _pairs: &Vec<(i32, TermId)>, _list: List) {}
    };
    (patterns) => {
        fn patterns(&mut self, _patterns: &Vec<Vec<TermId>>, _no_patterns: &Vec<TermId>) {}
    };
    (solver_kind) => {
        fn solver_kind(&mut self, _kind: &SolverKind) {}
    };
    (probe) => {
        fn probe(&mut self, _probe: &ProbeTest) {}
    };
    (datatypes) => {
        fn datatypes(
            &mut self,
            _path: &DeclPath,
            _params: &Vec<String>,
            _datatypes: &Vec<DatatypeDecl>,
        ) {
        }
    };
    ($($m:ident)*) => {
        $(noop!($m);)*
    };
}

/// Keeps the head: what [`Call::spec`] walks with.
pub(crate) struct HeadOf(pub Option<&'static CallSpec>);

impl Visit for HeadOf {
    fn head(&mut self, spec: &'static CallSpec) {
        self.0 = Some(spec);
    }
    noop!(sort term func solver model tactic goal opt rcf rcfs any number int flag string indices
        sorts terms terms_until term_pairs string_pairs weighted patterns solver_kind probe
        datatypes);
}

/// Collects every id a call reads, in argument order: [`Call::uses`].
#[derive(Default)]
pub(crate) struct Ids(pub Vec<AnyId>);

impl Visit for Ids {
    fn sort(&mut self, id: &SortId) {
        self.0.push(AnyId::Sort(*id));
    }
    fn term(&mut self, id: &TermId) {
        self.0.push(AnyId::Term(*id));
    }
    fn func(&mut self, id: &FuncId) {
        self.0.push(AnyId::Func(*id));
    }
    fn solver(&mut self, id: &SolverId) {
        self.0.push(AnyId::Solver(*id));
    }
    fn model(&mut self, id: &ModelId) {
        self.0.push(AnyId::Model(*id));
    }
    fn tactic(&mut self, id: &TacticId) {
        self.0.push(AnyId::Tactic(*id));
    }
    fn goal(&mut self, id: &GoalId) {
        self.0.push(AnyId::Goal(*id));
    }
    fn opt(&mut self, id: &OptId) {
        self.0.push(AnyId::Opt(*id));
    }
    fn rcf(&mut self, id: &RcfId) {
        self.0.push(AnyId::Rcf(*id));
    }
    fn rcfs(&mut self, ids: &Vec<RcfId>) {
        self.0.extend(ids.iter().map(|r| AnyId::Rcf(*r)));
    }
    fn any(&mut self, id: &AnyId) {
        self.0.push(*id);
    }
    fn sorts(&mut self, ids: &Vec<SortId>) {
        self.0.extend(ids.iter().map(|s| AnyId::Sort(*s)));
    }
    fn terms(&mut self, ids: &Vec<TermId>, _list: List) {
        self.0.extend(ids.iter().map(|t| AnyId::Term(*t)));
    }
    fn terms_until(&mut self, ids: &Vec<TermId>, _stop: &'static str) {
        self.0.extend(ids.iter().map(|t| AnyId::Term(*t)));
    }
    fn term_pairs(&mut self, pairs: &Vec<(TermId, TermId)>, _what: &'static str) {
        self.0.extend(
            pairs
                .iter()
                .flat_map(|(a, b)| [AnyId::Term(*a), AnyId::Term(*b)]),
        );
    }
    fn weighted(&mut self, pairs: &Vec<(i32, TermId)>, _list: List) {
        self.0.extend(pairs.iter().map(|(_, t)| AnyId::Term(*t)));
    }
    fn patterns(&mut self, patterns: &Vec<Vec<TermId>>, no_patterns: &Vec<TermId>) {
        self.0.extend(
            patterns
                .iter()
                .flatten()
                .chain(no_patterns)
                .map(|t| AnyId::Term(*t)),
        );
    }
    fn solver_kind(&mut self, kind: &SolverKind) {
        match kind {
            SolverKind::FromTactic(k) => self.0.push(AnyId::Tactic(*k)),
            SolverKind::Default | SolverKind::Logic(_) | SolverKind::Tactic(_) => {}
        }
    }
    fn datatypes(
        &mut self,
        _path: &DeclPath,
        _params: &Vec<String>,
        datatypes: &Vec<DatatypeDecl>,
    ) {
        for field in datatypes
            .iter()
            .flat_map(|d| &d.constructors)
            .flat_map(|c| &c.fields)
        {
            match field.sort {
                FieldSort::Sort(s) => self.0.push(AnyId::Sort(s)),
                FieldSort::Datatype(_) | FieldSort::Param(_) => {}
            }
        }
    }
    noop!(head number int flag string indices string_pairs probe);
}

/// Replaces ids through a function: [`Call::map_ids`] (`terms_only`: only the term
/// arguments a substitution may replace, counted as [`Call::term_slots`] counts them).
struct MapIds<'f> {
    f: &'f mut dyn FnMut(AnyId) -> AnyId,
    terms_only: bool,
}

impl MapIds<'_> {
    fn map<T>(&mut self, id: &mut T, wrap: fn(T) -> AnyId, unwrap: fn(AnyId) -> Option<T>)
    where
        T: Copy,
    {
        // A function that answers an id of another kind leaves the id as it was.
        if let Some(new) = unwrap((self.f)(wrap(*id))) {
            *id = new;
        }
    }

    fn term(&mut self, id: &mut TermId) {
        self.map(id, AnyId::Term, |a| match a {
            AnyId::Term(t) => Some(t),
            _ => None,
        });
    }

    fn other<T: Copy>(&mut self, id: &mut T, wrap: fn(T) -> AnyId, unwrap: fn(AnyId) -> Option<T>) {
        if !self.terms_only {
            self.map(id, wrap, unwrap);
        }
    }
}

macro_rules! unwrap_id {
    ($variant:ident) => {
        |a| match a {
            AnyId::$variant(x) => Some(x),
            _ => None,
        }
    };
}

impl VisitMut for MapIds<'_> {
    fn head(&mut self, _spec: &'static CallSpec) {}
    fn sort(&mut self, id: &mut SortId) {
        self.other(id, AnyId::Sort, unwrap_id!(Sort));
    }
    fn term(&mut self, id: &mut TermId) {
        MapIds::term(self, id);
    }
    fn func(&mut self, id: &mut FuncId) {
        self.other(id, AnyId::Func, unwrap_id!(Func));
    }
    fn solver(&mut self, id: &mut SolverId) {
        self.other(id, AnyId::Solver, unwrap_id!(Solver));
    }
    fn model(&mut self, id: &mut ModelId) {
        self.other(id, AnyId::Model, unwrap_id!(Model));
    }
    fn tactic(&mut self, id: &mut TacticId) {
        self.other(id, AnyId::Tactic, unwrap_id!(Tactic));
    }
    fn goal(&mut self, id: &mut GoalId) {
        self.other(id, AnyId::Goal, unwrap_id!(Goal));
    }
    fn opt(&mut self, id: &mut OptId) {
        self.other(id, AnyId::Opt, unwrap_id!(Opt));
    }
    fn rcf(&mut self, id: &mut RcfId) {
        self.other(id, AnyId::Rcf, unwrap_id!(Rcf));
    }
    fn rcfs(&mut self, ids: &mut Vec<RcfId>) {
        for id in ids {
            self.other(id, AnyId::Rcf, unwrap_id!(Rcf));
        }
    }
    /// `release` names an object, it does not compute with it: no term slot.
    fn any(&mut self, id: &mut AnyId) {
        if !self.terms_only {
            *id = (self.f)(*id);
        }
    }
    fn number(&mut self, _n: &mut u32, _what: &'static str) {}
    fn int(&mut self, _n: &mut i32, _what: &'static str) {}
    fn flag(&mut self, _b: &mut bool, _what: &'static str) {}
    fn string(&mut self, _s: &mut String, _what: &'static str) {}
    fn indices(&mut self, _op: &Op, _indices: &mut Vec<u32>) {}
    fn sorts(&mut self, ids: &mut Vec<SortId>) {
        ids.iter_mut().for_each(|s| self.sort(s));
    }
    fn terms(&mut self, ids: &mut Vec<TermId>, _list: List) {
        ids.iter_mut().for_each(|t| MapIds::term(self, t));
    }
    fn terms_until(&mut self, ids: &mut Vec<TermId>, _stop: &'static str) {
        ids.iter_mut().for_each(|t| MapIds::term(self, t));
    }
    fn term_pairs(&mut self, pairs: &mut Vec<(TermId, TermId)>, _what: &'static str) {
        for (a, b) in pairs {
            MapIds::term(self, a);
            MapIds::term(self, b);
        }
    }
    fn string_pairs(&mut self, _pairs: &mut Vec<(String, String)>, _what: &'static str) {}
    fn weighted(&mut self, pairs: &mut Vec<(i32, TermId)>, _list: List) {
        pairs.iter_mut().for_each(|(_, t)| MapIds::term(self, t));
    }
    fn patterns(&mut self, patterns: &mut Vec<Vec<TermId>>, no_patterns: &mut Vec<TermId>) {
        for t in patterns.iter_mut().flatten().chain(no_patterns) {
            MapIds::term(self, t);
        }
    }
    fn solver_kind(&mut self, kind: &mut SolverKind) {
        match kind {
            SolverKind::FromTactic(k) => self.tactic(k),
            SolverKind::Default | SolverKind::Logic(_) | SolverKind::Tactic(_) => {}
        }
    }
    fn probe(&mut self, _probe: &mut ProbeTest) {}
    fn datatypes(
        &mut self,
        _path: &mut DeclPath,
        _params: &mut Vec<String>,
        datatypes: &mut Vec<DatatypeDecl>,
    ) {
        for field in datatypes
            .iter_mut()
            .flat_map(|d| &mut d.constructors)
            .flat_map(|c| &mut c.fields)
        {
            match &mut field.sort {
                FieldSort::Sort(s) => self.sort(s),
                FieldSort::Datatype(_) | FieldSort::Param(_) => {}
            }
        }
    }
}

/// The lengths of the lists of a call that may shrink: [`Call::list_len`].
#[derive(Default)]
struct Lists {
    len: usize,
    min: usize,
    any: bool,
}

impl Lists {
    fn add(&mut self, len: usize, list: List) {
        if let List::Shrink { min } = list {
            self.len += len;
            self.min += min;
            self.any = true;
        }
    }
}

impl Visit for Lists {
    fn terms(&mut self, ids: &Vec<TermId>, list: List) {
        self.add(ids.len(), list);
    }
    fn term_pairs(&mut self, pairs: &Vec<(TermId, TermId)>, _what: &'static str) {
        self.add(pairs.len(), List::Shrink { min: 0 });
    }
    fn weighted(&mut self, pairs: &Vec<(i32, TermId)>, list: List) {
        self.add(pairs.len(), list);
    }
    /// A quantifier without patterns has nothing to shrink.
    fn patterns(&mut self, patterns: &Vec<Vec<TermId>>, no_patterns: &Vec<TermId>) {
        let len = patterns.len() + no_patterns.len();
        if len > 0 {
            self.add(len, List::Shrink { min: 0 });
        }
    }
    noop!(head sort term func solver model tactic goal opt rcf rcfs any number int flag string indices
        sorts terms_until string_pairs solver_kind probe datatypes);
}

/// Keeps the list items whose `keep` entry is true: [`Call::remove_list_items`].
struct KeepItems<'k> {
    keep: &'k [bool],
}

impl KeepItems<'_> {
    fn filter<T>(&mut self, items: &mut Vec<T>) {
        let (mine, rest) = self.keep.split_at(items.len().min(self.keep.len()));
        let mut flags = mine.iter();
        // Items past the end of `keep` stay.
        items.retain(|_| flags.next().copied().unwrap_or(true));
        self.keep = rest;
    }
}

impl VisitMut for KeepItems<'_> {
    fn head(&mut self, _spec: &'static CallSpec) {}
    fn sort(&mut self, _id: &mut SortId) {}
    fn term(&mut self, _id: &mut TermId) {}
    fn func(&mut self, _id: &mut FuncId) {}
    fn solver(&mut self, _id: &mut SolverId) {}
    fn model(&mut self, _id: &mut ModelId) {}
    fn tactic(&mut self, _id: &mut TacticId) {}
    fn goal(&mut self, _id: &mut GoalId) {}
    fn opt(&mut self, _id: &mut OptId) {}
    fn rcf(&mut self, _id: &mut RcfId) {}
    fn rcfs(&mut self, _ids: &mut Vec<RcfId>) {}
    fn any(&mut self, _id: &mut AnyId) {}
    fn number(&mut self, _n: &mut u32, _what: &'static str) {}
    fn int(&mut self, _n: &mut i32, _what: &'static str) {}
    fn flag(&mut self, _b: &mut bool, _what: &'static str) {}
    fn string(&mut self, _s: &mut String, _what: &'static str) {}
    fn indices(&mut self, _op: &Op, _indices: &mut Vec<u32>) {}
    fn sorts(&mut self, _ids: &mut Vec<SortId>) {}
    fn terms(&mut self, ids: &mut Vec<TermId>, list: List) {
        if let List::Shrink { .. } = list {
            self.filter(ids);
        }
    }
    fn terms_until(&mut self, _ids: &mut Vec<TermId>, _stop: &'static str) {}
    fn term_pairs(&mut self, pairs: &mut Vec<(TermId, TermId)>, _what: &'static str) {
        self.filter(pairs);
    }
    fn string_pairs(&mut self, _pairs: &mut Vec<(String, String)>, _what: &'static str) {}
    fn weighted(&mut self, pairs: &mut Vec<(i32, TermId)>, list: List) {
        if let List::Shrink { .. } = list {
            self.filter(pairs);
        }
    }
    fn patterns(&mut self, patterns: &mut Vec<Vec<TermId>>, no_patterns: &mut Vec<TermId>) {
        self.filter(patterns);
        self.filter(no_patterns);
    }
    fn solver_kind(&mut self, _kind: &mut SolverKind) {}
    fn probe(&mut self, _probe: &mut ProbeTest) {}
    fn datatypes(
        &mut self,
        _path: &mut DeclPath,
        _params: &mut Vec<String>,
        _datatypes: &mut Vec<DatatypeDecl>,
    ) {
    }
}

/// Collects the argument kinds: [`Call::arg_kinds`].
#[derive(Default)]
struct Kinds(Vec<ArgKind>);

impl Visit for Kinds {
    fn head(&mut self, _spec: &'static CallSpec) {}
    fn sort(&mut self, _id: &SortId) {
        self.0.push(ArgKind::Sort);
    }
    fn term(&mut self, _id: &TermId) {
        self.0.push(ArgKind::Term);
    }
    fn func(&mut self, _id: &FuncId) {
        self.0.push(ArgKind::Func);
    }
    fn solver(&mut self, _id: &SolverId) {
        self.0.push(ArgKind::Solver);
    }
    fn model(&mut self, _id: &ModelId) {
        self.0.push(ArgKind::Model);
    }
    fn tactic(&mut self, _id: &TacticId) {
        self.0.push(ArgKind::Tactic);
    }
    fn goal(&mut self, _id: &GoalId) {
        self.0.push(ArgKind::Goal);
    }
    fn opt(&mut self, _id: &OptId) {
        self.0.push(ArgKind::Opt);
    }
    fn rcf(&mut self, _id: &RcfId) {
        self.0.push(ArgKind::Rcf);
    }
    fn rcfs(&mut self, _ids: &Vec<RcfId>) {
        self.0.push(ArgKind::Rcfs);
    }
    fn any(&mut self, _id: &AnyId) {
        self.0.push(ArgKind::Any);
    }
    fn number(&mut self, _n: &u32, _what: &'static str) {
        self.0.push(ArgKind::Number);
    }
    fn int(&mut self, _n: &i32, _what: &'static str) {
        self.0.push(ArgKind::Int);
    }
    fn flag(&mut self, _b: &bool, _what: &'static str) {
        self.0.push(ArgKind::Flag);
    }
    fn string(&mut self, _s: &String, _what: &'static str) {
        self.0.push(ArgKind::String);
    }
    fn indices(&mut self, _op: &Op, _indices: &Vec<u32>) {
        self.0.push(ArgKind::Indices);
    }
    fn sorts(&mut self, _ids: &Vec<SortId>) {
        self.0.push(ArgKind::Sorts);
    }
    fn terms(&mut self, _ids: &Vec<TermId>, _list: List) {
        self.0.push(ArgKind::Terms);
    }
    fn terms_until(&mut self, _ids: &Vec<TermId>, stop: &'static str) {
        self.0.push(ArgKind::TermsUntil(stop));
    }
    fn term_pairs(&mut self, _pairs: &Vec<(TermId, TermId)>, _what: &'static str) {
        self.0.push(ArgKind::TermPairs);
    }
    fn string_pairs(&mut self, _pairs: &Vec<(String, String)>, _what: &'static str) {
        self.0.push(ArgKind::StringPairs);
    }
    fn weighted(&mut self, _pairs: &Vec<(i32, TermId)>, _list: List) {
        self.0.push(ArgKind::Weighted);
    }
    fn patterns(&mut self, _patterns: &Vec<Vec<TermId>>, _no_patterns: &Vec<TermId>) {
        self.0.push(ArgKind::Patterns);
    }
    fn solver_kind(&mut self, _kind: &SolverKind) {
        self.0.push(ArgKind::SolverKind);
    }
    fn probe(&mut self, _probe: &ProbeTest) {
        self.0.push(ArgKind::Probe);
    }
    fn datatypes(
        &mut self,
        _path: &DeclPath,
        _params: &Vec<String>,
        _datatypes: &Vec<DatatypeDecl>,
    ) {
        self.0.push(ArgKind::Datatypes);
    }
}

/// Collects the integer arguments in order: [`Call::integers`].
#[derive(Default)]
struct Integers(Vec<i64>);

impl Visit for Integers {
    fn number(&mut self, n: &u32, _what: &'static str) {
        self.0.push(i64::from(*n));
    }
    fn int(&mut self, n: &i32, _what: &'static str) {
        self.0.push(i64::from(*n));
    }
    fn weighted(&mut self, pairs: &Vec<(i32, TermId)>, _list: List) {
        self.0.extend(pairs.iter().map(|(c, _)| i64::from(*c)));
    }
    noop!(head sort term func solver model tactic goal opt rcf rcfs any flag string indices sorts terms
        terms_until term_pairs string_pairs patterns solver_kind probe datatypes);
}

impl Call {
    /// The call with every id it reads replaced by `f(id)` (an answer of another kind leaves
    /// the id as it was).
    pub fn map_ids(&self, f: &mut dyn FnMut(AnyId) -> AnyId) -> Call {
        let mut call = self.clone();
        call.walk_mut(&mut MapIds {
            f,
            terms_only: false,
        });
        call
    }

    /// The term arguments a substitution may replace, in argument order. `release` is left
    /// out: it names an object, it does not compute with it.
    pub fn term_slots(&self) -> Vec<TermId> {
        let mut slots = Vec::new();
        let mut collect = |id: AnyId| {
            if let AnyId::Term(t) = id {
                slots.push(t);
            }
            id
        };
        let mut call = self.clone();
        call.walk_mut(&mut MapIds {
            f: &mut collect,
            terms_only: true,
        });
        slots
    }

    /// The call with its term slot number `slot` (as [`Call::term_slots`] counts) replaced
    /// by `new`.
    pub fn set_term_slot(&self, slot: usize, new: TermId) -> Call {
        let mut seen = 0;
        let mut replace = |id: AnyId| match id {
            AnyId::Term(t) => {
                let this = seen;
                seen += 1;
                AnyId::Term(if this == slot { new } else { t })
            }
            other => other,
        };
        let mut call = self.clone();
        call.walk_mut(&mut MapIds {
            f: &mut replace,
            terms_only: true,
        });
        call
    }

    /// The length and the minimum length of the argument lists that may shrink (n-ary
    /// operations, `check_sat_assuming`, the pairs of `substitute`, a quantifier's patterns
    /// then no-patterns), counted as one list; `None` where there is none.
    pub fn list_len(&self) -> Option<(usize, usize)> {
        let mut lists = Lists::default();
        self.walk(&mut lists);
        lists.any.then_some((lists.len, lists.min))
    }

    /// The call keeping only the list items whose `keep` entry is true (`keep` has the
    /// length [`Call::list_len`] reports).
    pub fn remove_list_items(&self, keep: &[bool]) -> Call {
        let mut call = self.clone();
        call.walk_mut(&mut KeepItems { keep });
        call
    }

    /// The integer arguments (numbers, signed numbers, coefficients), in trace order: the
    /// indices of an [`Smt2::Indexed`] form.
    pub fn integers(&self) -> Vec<i64> {
        let mut integers = Integers::default();
        self.walk(&mut integers);
        integers.0
    }

    /// The kinds of the call's arguments, in trace order.
    pub fn arg_kinds(&self) -> Vec<ArgKind> {
        let mut kinds = Kinds::default();
        self.walk(&mut kinds);
        kinds.0
    }
}

/// Every call the suite knows but the table's operations (whose Z3 functions and arguments
/// `ops::OPS` gives): its description and argument kinds, for writers of reproducers in
/// other languages.
pub fn catalog() -> Vec<(&'static CallSpec, Vec<ArgKind>)> {
    Call::templates()
        .iter()
        .map(|c| (c.spec(), c.arg_kinds()))
        .collect()
}

/// The description of the call named `name`, if it is one (not a table operation).
pub fn spec_named(name: &str) -> Option<&'static CallSpec> {
    static BY_NAME: OnceLock<HashMap<&'static str, &'static CallSpec>> = OnceLock::new();
    BY_NAME
        .get_or_init(|| {
            Call::templates()
                .iter()
                .map(|c| (c.name(), c.spec()))
                .collect()
        })
        .get(name)
        .copied()
}

/// The trace names of the calls of `family`, in the order of [`Call::templates`].
pub fn calls_of(family: Family) -> Vec<&'static str> {
    Call::templates()
        .iter()
        .filter(|c| c.spec().family == family)
        .map(Call::name)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::call::{Check, TacticExpr};
    use crate::trace::text;
    use bincode::Options;
    use serde::de::DeserializeOwned;
    use serde::Serialize;
    use std::collections::BTreeSet;

    fn codec() -> impl Options {
        bincode::DefaultOptions::new().with_varint_encoding()
    }

    /// The number of variants of an enum, read from what serde says of an index past them.
    fn variant_count<T: DeserializeOwned>() -> u8 {
        (0..=250u8)
            .find(|i| {
                let mut bytes = vec![*i];
                bytes.extend([0u8; 64]);
                codec()
                    .allow_trailing_bytes()
                    .deserialize::<T>(&bytes)
                    .is_err_and(|e| e.to_string().contains("variant index"))
            })
            .expect("fewer than 251 variants")
    }

    fn variant_of<T: Serialize>(value: &T) -> u8 {
        codec().serialize(value).expect("serializes")[0]
    }

    /// A variant without a template would have no trace name to parse: every variant of
    /// `Call`, `Check` and `TacticExpr` has one (the table's operations are `Call::Op`).
    #[test]
    fn every_variant_has_a_template() {
        let calls: BTreeSet<u8> = Call::templates().iter().map(variant_of).collect();
        let op = Call::Op {
            op: Op::lookup("and").unwrap(),
            indices: vec![],
            args: vec![],
        };
        let calls: BTreeSet<u8> = calls.into_iter().chain([variant_of(&op)]).collect();
        assert_eq!(calls, (0..variant_count::<Call>()).collect());
        let checks: BTreeSet<u8> = Check::templates().iter().map(variant_of).collect();
        assert_eq!(checks, (0..variant_count::<Check>()).collect());
        let tactics: BTreeSet<u8> = Call::templates()
            .iter()
            .filter_map(|c| match c {
                Call::MkTactic(expr) => Some(variant_of::<TacticExpr>(expr)),
                _ => None,
            })
            .collect();
        assert_eq!(tactics, (0..variant_count::<TacticExpr>()).collect());
    }

    #[test]
    fn names_are_unique_and_find_their_template() {
        let mut seen = BTreeSet::new();
        for call in Call::templates() {
            let name = call.name();
            assert!(seen.insert(name), "{name} twice");
            assert_eq!(Call::template(name), Some(call));
            assert!(
                crate::ops::lookup(name).is_none(),
                "{name} is an operation too"
            );
            assert!(!call.spec().z3.is_empty(), "{name} names no Z3 function");
            assert_eq!(spec_named(name), Some(call.spec()));
        }
        assert_eq!(
            seen.len(),
            Call::action_names().len() + Check::names().len()
        );
    }

    /// The printer and the reader follow the same walk: a template, once printed, reads
    /// back as itself.
    #[test]
    fn templates_print_and_read_back() {
        for call in Call::templates() {
            if let Call::DeclareDatatypes { .. } = call {
                continue; // A declaration of no datatype is refused.
            }
            let line = text::format_call(call);
            let trace = format!("{}\n{line}\n", text::header());
            let parsed = match text::parse(&trace) {
                Ok(parsed) => parsed,
                // Calls that make objects need their `return` line.
                Err(_) => text::parse(&format!("{trace}return {}\n", ret_of(call))).unwrap(),
            };
            assert_eq!(&parsed.entries[0].call, call, "{line}");
        }
    }

    fn ret_of(call: &Call) -> &'static str {
        match call.ret_kind() {
            RetKind::Sort => "s1",
            RetKind::Term => "t1",
            RetKind::Func => "f1",
            RetKind::Solver => "z1",
            RetKind::Model => "m1",
            RetKind::Tactic => "k1",
            RetKind::Goal => "g1",
            RetKind::Opt => "o1",
            RetKind::Rcf => "r1",
            RetKind::None | RetKind::Sat | RetKind::Core | RetKind::Value => "",
        }
    }

    #[test]
    fn the_catalog_gives_arguments_and_functions() {
        let catalog = catalog();
        let (spec, kinds) = catalog
            .iter()
            .find(|(s, _)| s.name == "assert_and_track")
            .unwrap();
        assert_eq!(spec.z3, ["Z3_solver_assert_and_track"]);
        assert_eq!(kinds, &[ArgKind::Solver, ArgKind::Term, ArgKind::Term]);
        assert_eq!(
            calls_of(Family::Datatypes),
            [
                "declare_datatypes",
                "sort_datatype",
                "dt_cons",
                "dt_is",
                "dt_sel",
                "dt_update"
            ]
        );
    }

    /// `pb_le` is one variant, three walk arms and three templates in `call.rs`; its text,
    /// ids, shrinkable list, argument kinds and SMT-LIB form follow from them.
    #[test]
    fn pseudo_boolean_constraints_follow_from_their_description() {
        let trace = "z3-trace 1\nsort_bool\nreturn s1\nconst s1 \"a\"\nreturn t1\n\
            const s1 \"b\"\nreturn t2\npb_le -1 2 t1 -3 t2\nreturn t3\n";
        let parsed = text::parse(trace).unwrap();
        let pb = &parsed.entries[3].call;
        assert_eq!(
            pb,
            &Call::Pb {
                cmp: crate::call::PbCmp::Le,
                bound: -1,
                terms: vec![(2, TermId(1)), (-3, TermId(2))],
            }
        );
        assert_eq!(text::format_call(pb), "pb_le -1 2 t1 -3 t2");
        assert_eq!(pb.uses(), [AnyId::Term(TermId(1)), AnyId::Term(TermId(2))]);
        assert_eq!(pb.list_len(), Some((2, 1)));
        assert_eq!(
            text::format_call(&pb.remove_list_items(&[false, true])),
            "pb_le -1 -3 t2"
        );
        assert_eq!(
            text::format_call(&pb.set_term_slot(1, TermId(9))),
            "pb_le -1 2 t1 -3 t9"
        );
        assert_eq!(pb.arg_kinds(), [ArgKind::Int, ArgKind::Weighted]);
        assert_eq!(pb.spec().family, Family::PseudoBoolean);
        let names = ["a".to_string(), "b".to_string()];
        use crate::call_text::{indexed_term, Dialect};
        assert_eq!(
            indexed_term(pb, &names, Dialect::Z3).as_deref(),
            Some("((_ pble -1 2 -3) a b)")
        );
        assert_eq!(indexed_term(pb, &names, Dialect::Standard), None);
        let mut state = crate::State::new();
        for e in &parsed.entries {
            state.apply(&e.call, e.ret.as_ref()).unwrap();
        }
        assert_eq!(state.terms[&TermId(3)].sort, crate::Sort::Bool);
        let empty = Call::Pb {
            cmp: crate::call::PbCmp::Eq,
            bound: 0,
            terms: vec![],
        };
        assert!(state.check(&empty).is_err());
        let bad = |line: &str| {
            text::parse(&format!("z3-trace 1\n{line}\n"))
                .unwrap_err()
                .kind
        };
        assert_eq!(bad("pb_ge 1 2"), crate::trace::ErrorKind::Arity);
        assert_eq!(bad("pb_eq x 1 t1"), crate::trace::ErrorKind::Argument);
        assert_eq!(
            bad("pb_eq 1 99999999999 t1"),
            crate::trace::ErrorKind::BadNumeral
        );
    }

    /// `rec_fun` and `rec_def` follow from their description; the reference state accepts a
    /// definition once, over distinct variables of the domain, with a body of the range that
    /// mentions no other variable.
    #[test]
    fn recursive_functions_follow_from_their_description() {
        let trace = "z3-trace 1\nsort_int\nreturn s1\nsort_bool\nreturn s2\n\
            rec_fun \"f\" s1 s1\nreturn f1\nvar s1 \"n\"\nreturn t1\nvar s1 \"m\"\nreturn t2\n\
            apply f1 t1\nreturn t3\n+ t1 t3\nreturn t4\nrec_def f1 t1 body t4\n";
        let parsed = text::parse(trace).unwrap();
        let def = &parsed.entries[7].call;
        assert_eq!(
            def,
            &Call::RecDef {
                func: FuncId(1),
                vars: vec![TermId(1)],
                body: TermId(4),
            }
        );
        assert_eq!(text::format_call(def), "rec_def f1 t1 body t4");
        assert_eq!(
            def.uses(),
            [
                AnyId::Func(FuncId(1)),
                AnyId::Term(TermId(1)),
                AnyId::Term(TermId(4))
            ]
        );
        assert_eq!(def.spec().family, Family::RecFunctions);
        assert_eq!(
            text::format_call(&parsed.entries[2].call),
            "rec_fun \"f\" s1 s1"
        );
        let mut state = crate::State::new();
        for e in &parsed.entries[..7] {
            state.apply(&e.call, e.ret.as_ref()).unwrap();
        }
        let with = |vars: Vec<u32>, body: u32| Call::RecDef {
            func: FuncId(1),
            vars: vars.into_iter().map(TermId).collect(),
            body: TermId(body),
        };
        // A body mentioning a variable that is no parameter, parameters of the wrong count
        // or kind, a body of another sort.
        assert!(state.check(&with(vec![2], 4)).is_err());
        assert!(state.check(&with(vec![], 4)).is_err());
        assert!(state.check(&with(vec![1, 2], 4)).is_err());
        assert!(state.check(&with(vec![3], 3)).is_err());
        state.apply(def, None).unwrap();
        assert!(state.rec_funcs[&FuncId(1)]);
        // Once only.
        assert!(state.check(def).is_err());
        assert_eq!(state.terms[&TermId(3)].sort, crate::Sort::Int);
    }
}
