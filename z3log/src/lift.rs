//! Lifting a Z3 API log into a trace of this project's format ([`lift`]).
//!
//! A log names C functions and addresses; a trace names calls of the API model
//! (`model::call::Call`) and ids. [`lift`] is a pure function from a parsed [`Log`] and its
//! release's [`Table`] to a [`Lifted`] result: the trace entries, for each the index of the
//! log entry it came from ([`Lifted::origins`], what a log minimizer needs to pair "the
//! smallest log" with its lifted trace), and what could not be lifted, by function name and
//! count ([`Lifted::unmapped`], [`Lifted::dependents`]).
//!
//! How each function is treated is decided in one place, `Lifter::lift_call`:
//!
//! - **dropped**: calls without effect on the solver's state: reference counting, error-code
//!   queries, every [`Function::is_query`], printing modes, deletions of configurations and
//!   contexts. A query that returns an object (`Z3_get_sort`, `Z3_get_app_decl`,
//!   `Z3_ast_vector_get`, ...) binds its result to what the lifter knows it is (the term's
//!   sort, the constant's declaration, the vector's element), or to an unknown object.
//! - **absorbed**: calls that make values the trace writes inline: configurations and their
//!   parameters (`Z3_mk_config`, `Z3_set_param_value`), contexts, symbols (values in a log),
//!   parameter sets (`Z3_mk_params`, `Z3_params_set_*`), AST vectors (lists), patterns.
//! - **mapped**: every other call the model expresses becomes its trace line (or lines: a
//!   quantifier over constants becomes `var`s, `substitute`s of the body and the quantifier;
//!   a parameter set becomes one `set_param` per parameter).
//! - **unmapped**: the rest, counted by function name. The objects an unmapped call made are
//!   unknown; a later call that needs one is dropped as well and counted apart
//!   ([`Lifted::dependents`]), with the unmapped function it depends on. So the lifted trace
//!   is always valid in the reference state (every call is checked with
//!   `model::State::check` before it is kept; a call the state refuses is dropped and counted
//!   with its reason in [`Lifted::refused`]).
//!
//! What a log does not record, the lifter infers from what the program did next: a check is
//! recorded `sat` when the program then asked for the solver's model (or an Optimize
//! context's model or bounds), `unsat` when it asked for the unsat core or a proof, and
//! nothing otherwise; a call after which the program asked for Z3's error message
//! (`Z3_get_error_msg`, as the Python binding does when the error code is not OK) is recorded
//! as refused with an unknown message (`return error ""`, which a replay matches with any
//! error). `goal_apply` records as many subgoals as the program fetched.
//!
//! Names: datatype, constructor and field names the reference state refuses (Z3's `List`, a
//! name used twice) are renamed `NAME_k`; `Z3_mk_string`'s escapes are decoded, so a `lit`
//! holds the characters. Identity: a query's answer the lifter works out replaces the
//! address's binding; an unknown one replaces only an unknown binding or one whose reference
//! count the program brought to zero (freed objects' addresses are reused).
//!
//! With [`Options::with_checks`], the model's oracle checks follow the calls they judge:
//! `check_model` and `check_indep` of every assertion in scope after each `get_model`,
//! `check_core` after each `get_unsat_core`, `check_opt_values` and `check_opt_better` after
//! each `opt_get_model`, so a wrong answer in a user's program becomes a finding.

use crate::log::{Addr, Call as LogCall, EntryKind, Log, Symbol, Value};
use crate::table::{Function, Table};
use model::call::{
    AnyId, Call, Check, Direction, Entry, FuncId, GoalId, ModelId, Op, OptId, PbCmp, Ret,
    SatResult, SolverId, SolverKind, SortId, TacticExpr, TacticId, TermId,
};
use model::datatype::{ConstructorDecl, DatatypeDecl, DeclPath, FieldDecl, FieldSort};
use model::{Sort, State};
use std::collections::{BTreeMap, HashMap, HashSet};

/// What [`lift`] adds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Add the model's oracle checks after the calls they judge.
    pub with_checks: bool,
}

/// The group name of soft constraints a program gave no group (a null symbol).
pub const DEFAULT_GROUP: &str = "default";

/// A function that could not be lifted: how often, and the first log line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Count {
    pub count: usize,
    pub first_line: u32,
    /// Why (the unmapped function a dependent call needed, the reference state's reason).
    pub reason: String,
}

/// The result of [`lift`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lifted {
    /// The trace, in log order.
    pub entries: Vec<Entry>,
    /// For each entry, the index (in `Log::entries`) of the log entry it came from; check
    /// lines added by [`Options::with_checks`] name the call they follow.
    pub origins: Vec<usize>,
    /// Functions with an effect the model cannot express, by name.
    pub unmapped: BTreeMap<String, Count>,
    /// Calls the lifter maps but dropped because they need an object that an unmapped call
    /// made, by name (the reason names that call).
    pub dependents: BTreeMap<String, Count>,
    /// Calls the reference state refused (e.g. an assumption that is no literal), by name.
    pub refused: BTreeMap<String, Count>,
    /// Calls dropped as without effect (reference counting, queries, error codes).
    pub n_dropped: usize,
    /// The log's last call was not lifted (the call a crashing program ended with): its line
    /// and function. The lifted trace then need not reproduce the log's crash. Reference
    /// counting, error-code queries and deletions (`Z3_del_*`), with which every program
    /// ends, do not count.
    pub last_call_lost: Option<(u32, String)>,
}

/// A log the lifter cannot read: a call number its release's table lacks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiftError {
    pub line: u32,
    pub message: String,
}

impl std::fmt::Display for LiftError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.line, self.message)
    }
}

impl std::error::Error for LiftError {}

/// Lifts `log` (written by the release of `table`) into a trace; see the module overview.
pub fn lift(log: &Log, table: &Table, options: Options) -> Result<Lifted, LiftError> {
    let mut functions = Vec::new();
    for (entry, call) in log.calls() {
        let function = table.function(call.number).ok_or_else(|| LiftError {
            line: entry.line,
            message: format!(
                "call number {} is not in the call table of Z3 {}",
                call.number, table.version
            ),
        })?;
        functions.push(function);
    }
    let evidence = Evidence::scan(log, &functions);
    let mut lifter = Lifter {
        state: State::new(),
        objects: HashMap::new(),
        sort_ids: HashMap::new(),
        out: Lifted::default(),
        evidence,
        options,
        assertions: HashMap::new(),
        datatypes: HashMap::new(),
        fresh_names: 0,
        made_by: HashMap::new(),
        refs: HashMap::new(),
        released: HashSet::new(),
    };
    let mut last = None;
    let calls = log
        .entries
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match &e.kind {
            EntryKind::Call(c) => Some((i, e.line, c)),
            EntryKind::Message(_) => None,
        });
    for (k, ((index, line, call), function)) in calls.zip(&functions).enumerate() {
        let before = lifter.out.entries.len();
        lifter.step(k, index, line, function, call);
        last = Some((
            line,
            function.name.to_string(),
            lifter.out.entries.len() > before,
        ));
    }
    // Programs end with reference counting, error-code queries and deletions: a log that
    // ends so ended normally.
    if let Some((line, name, false)) = last {
        let routine =
            is_refcount(&name) || name.starts_with("Z3_del_") || name.starts_with("Z3_get_error_");
        if !routine {
            lifter.out.last_call_lost = Some((line, name));
        }
    }
    Ok(lifter.out)
}

/// What the program did after each call, by the call's position among the log's calls.
struct Evidence {
    /// Calls after which the program asked for Z3's error message.
    errored: Vec<bool>,
    /// Checks whose answer the program's next requests reveal.
    answers: HashMap<usize, SatResult>,
    /// Tactic applications, by the number of subgoals the program fetched.
    subgoals: HashMap<usize, u32>,
}

impl Evidence {
    fn scan(log: &Log, functions: &[&Function]) -> Evidence {
        let calls: Vec<&LogCall> = log.calls().map(|(_, c)| c).collect();
        let mut errored = vec![false; calls.len()];
        let mut last_effect = None;
        let mut last_check: HashMap<Addr, usize> = HashMap::new();
        let mut applied: HashMap<Addr, usize> = HashMap::new();
        let mut answers = HashMap::new();
        let mut subgoals = HashMap::new();
        for (k, (call, f)) in calls.iter().zip(functions).enumerate() {
            let name = &*f.name;
            let object = |i: usize| match call.args.get(i) {
                Some(Value::Object(a)) => Some(*a),
                _ => None,
            };
            match name {
                "Z3_get_error_msg" | "Z3_get_error_msg_ex" => {
                    if let Some(j) = last_effect {
                        errored[j] = true;
                    }
                    continue;
                }
                "Z3_get_error_code" => continue,
                _ if is_refcount(name) => continue,
                _ => {}
            }
            last_effect = Some(k);
            match name {
                "Z3_solver_check" | "Z3_solver_check_assumptions" | "Z3_optimize_check" => {
                    if let Some(s) = object(1) {
                        last_check.insert(s, k);
                    }
                }
                "Z3_solver_get_model"
                | "Z3_optimize_get_model"
                | "Z3_optimize_get_lower"
                | "Z3_optimize_get_upper" => {
                    if let Some(&j) = object(1).and_then(|s| last_check.get(&s)) {
                        answers.insert(j, SatResult::Sat);
                    }
                }
                "Z3_solver_get_unsat_core" | "Z3_solver_get_proof" => {
                    if let Some(&j) = object(1).and_then(|s| last_check.get(&s)) {
                        answers.insert(j, SatResult::Unsat);
                    }
                }
                "Z3_tactic_apply" | "Z3_tactic_apply_ex" => {
                    if let Some(r) = call.result {
                        applied.insert(r, k);
                    }
                }
                "Z3_apply_result_get_subgoal" => {
                    if let (Some(&j), Some(Value::Uint(i))) =
                        (object(1).and_then(|r| applied.get(&r)), call.args.get(2))
                    {
                        let n = subgoals.entry(j).or_insert(0);
                        *n = (*n).max(u32::try_from(*i + 1).unwrap_or(u32::MAX));
                    }
                }
                _ => {}
            }
        }
        Evidence {
            errored,
            answers,
            subgoals,
        }
    }
}

fn is_refcount(name: &str) -> bool {
    name.ends_with("_inc_ref") || name.ends_with("_dec_ref")
}

/// What a log address is, as far as the lifter knows.
#[derive(Clone, Debug)]
enum Obj {
    /// A configuration with its parameters.
    Config(Vec<(String, String)>),
    /// A context and the configuration it was made from.
    Context(Vec<(String, String)>),
    Sort(SortId),
    Term(TermId),
    /// An uninterpreted function.
    Func(FuncId),
    /// The declaration of a constant (`Z3_get_app_decl` of a constant).
    ConstDecl(TermId),
    /// The declaration of an operation of the table (`Z3_get_app_decl` of its application).
    OpDecl(Op, Vec<u32>),
    /// A datatype's constructor, tester or accessor declaration.
    Ctor(SortId, String),
    Tester(String),
    Accessor(String),
    Solver(SolverId),
    Model(ModelId),
    Params(Vec<(String, String)>),
    /// An AST vector: its elements.
    Vector(Vec<Obj>),
    Pattern(Vec<TermId>),
    Tactic(TacticId),
    Goal(GoalId),
    /// The result of a tactic application, with its goal.
    ApplyResult(GoalId),
    Opt(OptId),
    /// `Z3_mk_constructor`: a constructor declaration (field sorts resolved later).
    Constructor(ConstructorDecl),
    ConstructorList(Vec<ConstructorDecl>),
    /// Made by a call the lifter could not lift (its function name and line).
    Unknown(String, u32),
}

/// Why an argument is not an object of the wanted kind.
enum Missing {
    /// Made by an unmapped call: the function and its line.
    Unknown(String, u32),
    /// Something else (a null, an argument of another kind): the call is unmapped.
    Other(String),
}

type Step<T> = Result<T, Missing>;

struct Lifter {
    state: State,
    objects: HashMap<Addr, Obj>,
    sort_ids: HashMap<Sort, SortId>,
    out: Lifted,
    evidence: Evidence,
    options: Options,
    /// Each solver's assertions by scope (for `--with-checks`).
    assertions: HashMap<SolverId, Vec<Vec<TermId>>>,
    /// Declared datatypes by name.
    datatypes: HashMap<String, DatatypeDecl>,
    fresh_names: u32,
    /// The call that made each term (for `Z3_get_app_arg`, `Z3_get_app_decl`).
    made_by: HashMap<TermId, Call>,
    /// The program's reference counts of the objects of reference-counted contexts.
    refs: HashMap<Addr, i64>,
    /// Addresses whose count the program brought to zero.
    released: HashSet<Addr>,
}

fn symbol_text(s: &Symbol) -> Option<String> {
    match s {
        Symbol::Str(b) => Some(String::from_utf8_lossy(b).into_owned()),
        // Z3 prints the integer symbol N as `k!N`.
        Symbol::Int(n) => Some(format!("k!{n}")),
        Symbol::Null => None,
    }
}

fn count(map: &mut BTreeMap<String, Count>, name: &str, line: u32, reason: String) {
    map.entry(name.to_string())
        .and_modify(|c| c.count += 1)
        .or_insert(Count {
            count: 1,
            first_line: line,
            reason,
        });
}

/// What one log call becomes.
enum Lifting {
    /// Dropped: no effect on the solver's state.
    Dropped,
    /// Absorbed into the lifter's knowledge, or mapped to trace lines already emitted.
    Done,
}

impl Lifter {
    fn arg<'a>(&self, call: &'a LogCall, i: usize) -> Step<&'a Value> {
        call.args
            .get(i)
            .ok_or_else(|| Missing::Other(format!("no argument {i}")))
    }

    fn obj(&self, call: &LogCall, i: usize) -> Step<Obj> {
        match self.arg(call, i)? {
            Value::Object(a) => self.at(*a),
            v => Err(Missing::Other(format!(
                "argument {i} is a {}",
                v.kind_name()
            ))),
        }
    }

    fn at(&self, a: Addr) -> Step<Obj> {
        match self.objects.get(&a) {
            Some(Obj::Unknown(f, line)) => Err(Missing::Unknown(f.clone(), *line)),
            Some(o) => Ok(o.clone()),
            None if a.0 == 0 => Err(Missing::Other("a null object".into())),
            None => Err(Missing::Other(format!(
                "an object of no known call ({a:?})"
            ))),
        }
    }

    fn objs(&self, call: &LogCall, i: usize) -> Step<Vec<Obj>> {
        match self.arg(call, i)? {
            Value::Objects(v) => v.iter().map(|a| self.at(*a)).collect(),
            // A null array of length 0.
            Value::Object(Addr(0)) => Ok(Vec::new()),
            v => Err(Missing::Other(format!(
                "argument {i} is a {}",
                v.kind_name()
            ))),
        }
    }

    fn term(&self, call: &LogCall, i: usize) -> Step<TermId> {
        as_term(self.obj(call, i)?)
    }

    fn terms(&self, call: &LogCall, i: usize) -> Step<Vec<TermId>> {
        self.objs(call, i)?.into_iter().map(as_term).collect()
    }

    fn sort(&self, call: &LogCall, i: usize) -> Step<SortId> {
        match self.obj(call, i)? {
            Obj::Sort(s) => Ok(s),
            o => Err(Missing::Other(format!("argument {i} is no sort ({o:?})"))),
        }
    }

    fn solver(&self, call: &LogCall, i: usize) -> Step<SolverId> {
        match self.obj(call, i)? {
            Obj::Solver(z) => Ok(z),
            o => Err(Missing::Other(format!("argument {i} is no solver ({o:?})"))),
        }
    }

    fn opt(&self, call: &LogCall, i: usize) -> Step<OptId> {
        match self.obj(call, i)? {
            Obj::Opt(o) => Ok(o),
            o => Err(Missing::Other(format!(
                "argument {i} is no Optimize context ({o:?})"
            ))),
        }
    }

    fn tactic(&self, call: &LogCall, i: usize) -> Step<TacticId> {
        match self.obj(call, i)? {
            Obj::Tactic(k) => Ok(k),
            o => Err(Missing::Other(format!("argument {i} is no tactic ({o:?})"))),
        }
    }

    fn goal(&self, call: &LogCall, i: usize) -> Step<GoalId> {
        match self.obj(call, i)? {
            Obj::Goal(g) => Ok(g),
            o => Err(Missing::Other(format!("argument {i} is no goal ({o:?})"))),
        }
    }

    fn params(&self, call: &LogCall, i: usize) -> Step<Vec<(String, String)>> {
        match self.obj(call, i)? {
            Obj::Params(p) => Ok(p),
            o => Err(Missing::Other(format!(
                "argument {i} is no parameter set ({o:?})"
            ))),
        }
    }

    fn uint(&self, call: &LogCall, i: usize) -> Step<u64> {
        match self.arg(call, i)? {
            Value::Uint(n) => Ok(*n),
            Value::Int(n) if *n >= 0 => Ok(*n as u64),
            v => Err(Missing::Other(format!(
                "argument {i} is a {}",
                v.kind_name()
            ))),
        }
    }

    fn u32(&self, call: &LogCall, i: usize) -> Step<u32> {
        u32::try_from(self.uint(call, i)?)
            .map_err(|_| Missing::Other(format!("argument {i} is beyond 32 bits")))
    }

    fn int(&self, call: &LogCall, i: usize) -> Step<i64> {
        match self.arg(call, i)? {
            Value::Int(n) => Ok(*n),
            Value::Uint(n) => i64::try_from(*n).map_err(|_| Missing::Other("too large".into())),
            v => Err(Missing::Other(format!(
                "argument {i} is a {}",
                v.kind_name()
            ))),
        }
    }

    fn flag(&self, call: &LogCall, i: usize) -> Step<bool> {
        Ok(self.int(call, i)? != 0)
    }

    fn string(&self, call: &LogCall, i: usize) -> Step<String> {
        match self.arg(call, i)? {
            Value::Str(b) => Ok(String::from_utf8_lossy(b).into_owned()),
            v => Err(Missing::Other(format!(
                "argument {i} is a {}",
                v.kind_name()
            ))),
        }
    }

    fn symbol(&self, call: &LogCall, i: usize) -> Step<String> {
        match self.arg(call, i)? {
            Value::Symbol(s) => {
                symbol_text(s).ok_or_else(|| Missing::Other("a null symbol".into()))
            }
            v => Err(Missing::Other(format!(
                "argument {i} is a {}",
                v.kind_name()
            ))),
        }
    }

    fn symbols(&self, call: &LogCall, i: usize) -> Step<Vec<String>> {
        match self.arg(call, i)? {
            Value::Symbols(v) => v
                .iter()
                .map(|s| symbol_text(s).ok_or_else(|| Missing::Other("a null symbol".into())))
                .collect(),
            Value::Object(Addr(0)) => Ok(Vec::new()),
            v => Err(Missing::Other(format!(
                "argument {i} is a {}",
                v.kind_name()
            ))),
        }
    }

    fn bind(&mut self, a: Option<Addr>, obj: Obj) {
        if let Some(a) = a.filter(|a| a.0 != 0) {
            self.released.remove(&a);
            self.objects.insert(a, obj);
        }
    }

    /// Binds the answer of a query: what the lifter worked out (the term's sort, the
    /// constructor of a datatype, ...) replaces any earlier binding (the object there may have
    /// been freed and its address reused); an unknown answer replaces only a binding that is
    /// unknown or whose count the program brought to zero (Z3 returns the same address for
    /// the same AST, and what the lifter knew first is more precise).
    fn alias(&mut self, a: Option<Addr>, obj: Obj) {
        if let Some(a) = a.filter(|a| a.0 != 0) {
            let keep = matches!(obj, Obj::Unknown(..))
                && !self.released.contains(&a)
                && !matches!(self.objects.get(&a), Some(Obj::Unknown(..)) | None);
            if !keep {
                self.released.remove(&a);
                self.objects.insert(a, obj);
            }
        }
    }

    /// The result of a lookup the lifter cannot resolve: unknown, unless the address is
    /// already a known object of the kind the function returns (the same AST).
    fn unknown_alias(&mut self, a: Option<Addr>, f: &Function, line: u32) {
        let wanted = match &f.result {
            crate::table::Type::Object(t) => match &**t {
                "SORT" => Some(0),
                "AST" | "APP" | "PATTERN" => Some(1),
                "FUNC_DECL" => Some(2),
                _ => Some(3),
            },
            _ => None,
        };
        if let Some(a) = a.filter(|a| a.0 != 0) {
            let keep = !self.released.contains(&a)
                && self
                    .objects
                    .get(&a)
                    .is_some_and(|o| category(o).is_some() && category(o) == wanted);
            if !keep {
                self.objects
                    .insert(a, Obj::Unknown(f.name.to_string(), line));
            }
        }
    }

    /// Emits `call` (checked by the reference state) with its result; the new object's id.
    /// `errored`: the log shows Z3 refused it.
    fn emit(
        &mut self,
        origin: usize,
        call: Call,
        answer: Option<Ret>,
        errored: bool,
    ) -> Result<Option<AnyId>, String> {
        self.state.check(&call).map_err(|v| v.0)?;
        let ret = if errored {
            Some(Ret::Error(String::new()))
        } else if call.ret_kind().makes_object() {
            Some(Ret::Id(
                self.state
                    .fresh(call.ret_kind())
                    .expect("a kind that makes objects"),
            ))
        } else {
            answer
        };
        self.state.apply(&call, ret.as_ref()).map_err(|v| v.0)?;
        let id = match &ret {
            Some(Ret::Id(id)) => Some(*id),
            _ => None,
        };
        if let (Some(AnyId::Term(t)), Call::Op { .. } | Call::Apply { .. }) = (id, &call) {
            self.made_by.insert(t, call.clone());
        }
        self.out.entries.push(Entry { call, ret });
        self.out.origins.push(origin);
        Ok(id)
    }

    /// The id of `sort`, made (with its components) where no call made it yet.
    fn sort_id(&mut self, origin: usize, sort: &Sort) -> Result<SortId, String> {
        if let Some(id) = self.sort_ids.get(sort) {
            return Ok(*id);
        }
        let call = Call::make_sort(sort, |component: &Sort| {
            self.sort_id(origin, component).map(Some)
        })?
        .ok_or_else(|| format!("the sort {sort} has no call that makes it"))?;
        let call = match (&call, sort) {
            (Call::SortUninterpreted(name), _) if self.datatypes.contains_key(name) => {
                Call::SortDatatype {
                    name: name.clone(),
                    params: Vec::new(),
                }
            }
            _ => call,
        };
        match self.emit(origin, call, None, false)? {
            Some(AnyId::Sort(id)) => {
                self.sort_ids.insert(sort.clone(), id);
                Ok(id)
            }
            _ => Err(format!("no sort made for {sort}")),
        }
    }

    /// `decls` with every datatype, constructor and field name the reference state would
    /// refuse (not a simple symbol, reserved such as Z3's own `List`, or already in use)
    /// renamed `NAME_k`: names label, they do not change what a formula means.
    fn rename_datatypes(&self, decls: Vec<DatatypeDecl>) -> Vec<DatatypeDecl> {
        let mut used: HashSet<String> = HashSet::new();
        let state = &self.state;
        let mut fresh = |name: &str| -> String {
            let free = |n: &str, used: &HashSet<String>| {
                model::datatype::valid_name(n)
                    && !state.datatypes.names.contains(n)
                    && !state.uninterpreted.contains(n)
                    && !used.contains(n)
            };
            let chosen = if free(name, &used) {
                name.to_string()
            } else {
                let mut base: String = name
                    .chars()
                    .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                    .take(48)
                    .collect();
                if !base.starts_with(|c: char| c.is_ascii_alphabetic()) {
                    base.insert(0, 'd');
                }
                (1..)
                    .map(|k| format!("{base}_{k}"))
                    .find(|n| free(n, &used))
                    .expect("a free name")
            };
            used.insert(chosen.clone());
            chosen
        };
        decls
            .into_iter()
            .map(|d| DatatypeDecl {
                name: fresh(&d.name),
                constructors: d
                    .constructors
                    .into_iter()
                    .map(|c| ConstructorDecl {
                        name: fresh(&c.name),
                        fields: c
                            .fields
                            .into_iter()
                            .map(|f| FieldDecl {
                                name: fresh(&f.name),
                                sort: f.sort,
                            })
                            .collect(),
                    })
                    .collect(),
            })
            .collect()
    }

    fn term_sort(&self, t: TermId) -> Option<Sort> {
        self.state.terms.get(&t).map(|i| i.sort.clone())
    }

    /// One log call (the `k`-th call, entry `origin`, on `line`).
    fn step(&mut self, k: usize, origin: usize, line: u32, f: &Function, call: &LogCall) {
        let name = &*f.name;
        let outcome = self.lift_call(k, origin, line, name, f, call);
        // An object the call made that the lifter did not bind is unknown.
        for a in call.bound().collect::<Vec<_>>() {
            self.objects
                .entry(a)
                .or_insert_with(|| Obj::Unknown(name.to_string(), line));
        }
        let asks = f.is_query() || is_lookup(name) || is_alias(name);
        match outcome {
            Ok(Lifting::Dropped) => {
                self.out.n_dropped += 1;
            }
            Ok(Lifting::Done) => {}
            Err(Failed::Unmapped(reason)) => {
                count(&mut self.out.unmapped, name, line, reason);
                self.unknown_results(call, name, line);
            }
            // A query of an unknown object only asks: its result is unknown too.
            Err(Failed::Needs(Missing::Unknown(..))) if asks => {
                self.out.n_dropped += 1;
                self.unknown_alias(call.result, f, line);
            }
            Err(Failed::Needs(missing)) => {
                match missing {
                    Missing::Unknown(needed, at) => {
                        // The unmapped call whose object was needed counts as unmapped too.
                        count(
                            &mut self.out.dependents,
                            name,
                            line,
                            format!("needs the object {needed} made on line {at}"),
                        );
                    }
                    Missing::Other(reason) => {
                        count(&mut self.out.unmapped, name, line, reason);
                    }
                }
                self.unknown_results(call, name, line);
            }
            Err(Failed::Refused(reason)) => {
                count(&mut self.out.refused, name, line, reason);
                self.unknown_results(call, name, line);
            }
        }
    }

    fn unknown_results(&mut self, call: &LogCall, name: &str, line: u32) {
        for a in call.bound().collect::<Vec<_>>() {
            self.bind(Some(a), Obj::Unknown(name.to_string(), line));
        }
    }
}

/// Why a call was not lifted.
enum Failed {
    Unmapped(String),
    Needs(Missing),
    Refused(String),
}

impl From<Missing> for Failed {
    fn from(m: Missing) -> Failed {
        Failed::Needs(m)
    }
}

fn as_term(o: Obj) -> Step<TermId> {
    match o {
        Obj::Term(t) => Ok(t),
        o => Err(Missing::Other(format!("not a term ({o:?})"))),
    }
}

/// The operations of `model::ops::OPS` by the Z3 function that makes them, with how the
/// function takes its arguments.
enum Shape {
    /// `(ctx, n, args[])`.
    Nary,
    /// `(ctx, a1, ..., ak)`.
    Fixed(usize),
    /// `(ctx, i1, ..., ij, a)`: `j` indices, then one argument.
    Indexed(usize),
}

/// The operation a Z3 term constructor makes (where the sort of its arguments decides,
/// strings or sequences, integer or real division, the String form is chosen by the
/// caller).
fn op_of(name: &str) -> Option<(&'static str, Shape)> {
    use Shape::{Fixed, Indexed, Nary};
    let short = name.strip_prefix("Z3_mk_")?;
    Some(match short {
        "true" => ("true", Fixed(0)),
        "false" => ("false", Fixed(0)),
        "not" => ("not", Fixed(1)),
        "and" => ("and", Nary),
        "or" => ("or", Nary),
        "xor" => ("xor", Fixed(2)),
        "implies" => ("=>", Fixed(2)),
        "iff" => ("iff", Fixed(2)),
        "eq" => ("=", Fixed(2)),
        "distinct" => ("distinct", Nary),
        "ite" => ("ite", Fixed(3)),
        "add" => ("+", Nary),
        "sub" => ("-", Nary),
        "mul" => ("*", Nary),
        "unary_minus" => ("-", Fixed(1)),
        "power" => ("^", Fixed(2)),
        "lt" => ("<", Fixed(2)),
        "le" => ("<=", Fixed(2)),
        "gt" => (">", Fixed(2)),
        "ge" => (">=", Fixed(2)),
        "div" => ("div", Fixed(2)),
        "mod" => ("mod", Fixed(2)),
        "rem" => ("rem", Fixed(2)),
        "int2real" => ("to_real", Fixed(1)),
        "real2int" => ("to_int", Fixed(1)),
        "is_int" => ("is_int", Fixed(1)),
        "bvnot" | "bvneg" | "bvredand" | "bvredor" | "bvneg_no_overflow" => {
            (op_name(short)?, Fixed(1))
        }
        "bvand" | "bvor" | "bvxor" | "bvnand" | "bvnor" | "bvxnor" | "bvadd" | "bvsub"
        | "bvmul" | "bvudiv" | "bvsdiv" | "bvurem" | "bvsrem" | "bvsmod" | "bvshl" | "bvlshr"
        | "bvashr" | "bvult" | "bvule" | "bvugt" | "bvuge" | "bvslt" | "bvsle" | "bvsgt"
        | "bvsge" | "concat" | "ext_rotate_left" | "ext_rotate_right" | "bvadd_no_underflow"
        | "bvsub_no_overflow" | "bvsdiv_no_overflow" | "bvmul_no_underflow" => {
            (op_name(short)?, Fixed(2))
        }
        "rotate_left" | "rotate_right" | "repeat" | "bit2bool" => (op_name(short)?, Indexed(1)),
        "zero_ext" => ("zero_extend", Indexed(1)),
        "sign_ext" => ("sign_extend", Indexed(1)),
        "int2bv" => ("int2bv", Indexed(1)),
        "extract" => ("extract", Indexed(2)),
        "select" => ("select", Fixed(2)),
        "store" => ("store", Fixed(3)),
        "fpa_round_nearest_ties_to_even" | "fpa_rne" => ("RNE", Fixed(0)),
        "fpa_round_nearest_ties_to_away" | "fpa_rna" => ("RNA", Fixed(0)),
        "fpa_round_toward_positive" | "fpa_rtp" => ("RTP", Fixed(0)),
        "fpa_round_toward_negative" | "fpa_rtn" => ("RTN", Fixed(0)),
        "fpa_round_toward_zero" | "fpa_rtz" => ("RTZ", Fixed(0)),
        "fpa_abs" => ("fp.abs", Fixed(1)),
        "fpa_neg" => ("fp.neg", Fixed(1)),
        "fpa_add" => ("fp.add", Fixed(3)),
        "fpa_sub" => ("fp.sub", Fixed(3)),
        "fpa_mul" => ("fp.mul", Fixed(3)),
        "fpa_div" => ("fp.div", Fixed(3)),
        "fpa_fma" => ("fp.fma", Fixed(4)),
        "fpa_sqrt" => ("fp.sqrt", Fixed(2)),
        "fpa_round_to_integral" => ("fp.roundToIntegral", Fixed(2)),
        "fpa_rem" => ("fp.rem", Fixed(2)),
        "fpa_min" => ("fp.min", Fixed(2)),
        "fpa_max" => ("fp.max", Fixed(2)),
        "fpa_leq" => ("fp.leq", Fixed(2)),
        "fpa_lt" => ("fp.lt", Fixed(2)),
        "fpa_geq" => ("fp.geq", Fixed(2)),
        "fpa_gt" => ("fp.gt", Fixed(2)),
        "fpa_eq" => ("fp.eq", Fixed(2)),
        "fpa_is_nan" => ("fp.isNaN", Fixed(1)),
        "fpa_is_infinite" => ("fp.isInfinite", Fixed(1)),
        "fpa_is_zero" => ("fp.isZero", Fixed(1)),
        "fpa_is_normal" => ("fp.isNormal", Fixed(1)),
        "fpa_is_subnormal" => ("fp.isSubnormal", Fixed(1)),
        "fpa_is_negative" => ("fp.isNegative", Fixed(1)),
        "fpa_is_positive" => ("fp.isPositive", Fixed(1)),
        "fpa_to_real" => ("fp.to_real", Fixed(1)),
        "fpa_to_ieee_bv" => ("fp.to_ieee_bv", Fixed(1)),
        "seq_concat" => ("str.++", Nary),
        "seq_length" => ("str.len", Fixed(1)),
        "seq_at" => ("str.at", Fixed(2)),
        "seq_extract" => ("str.substr", Fixed(3)),
        "seq_prefix" => ("str.prefixof", Fixed(2)),
        "seq_suffix" => ("str.suffixof", Fixed(2)),
        "seq_contains" => ("str.contains", Fixed(2)),
        "seq_nth" => ("seq.nth", Fixed(2)),
        "seq_unit" => ("seq.unit", Fixed(1)),
        "str_lt" => ("str.<", Fixed(2)),
        "str_le" => ("str.<=", Fixed(2)),
        "seq_to_re" => ("str.to_re", Fixed(1)),
        "seq_in_re" => ("str.in_re", Fixed(2)),
        "re_range" => ("re.range", Fixed(2)),
        "re_star" => ("re.*", Fixed(1)),
        "re_plus" => ("re.+", Fixed(1)),
        "re_option" => ("re.opt", Fixed(1)),
        "re_complement" => ("re.comp", Fixed(1)),
        "re_union" => ("re.union", Nary),
        "re_concat" => ("re.++", Nary),
        "re_intersect" => ("re.inter", Nary),
        _ => return None,
    })
}

fn op_name(short: &str) -> Option<&'static str> {
    Op::lookup(short).map(Op::name)
}

impl Lifter {
    /// The heart of the lifter: what each Z3 function becomes.
    fn lift_call(
        &mut self,
        k: usize,
        origin: usize,
        line: u32,
        name: &str,
        f: &Function,
        call: &LogCall,
    ) -> Result<Lifting, Failed> {
        let errored = self.evidence.errored[k];
        let result = call.result;
        macro_rules! emit {
            ($call:expr) => {
                emit!($call, None)
            };
            ($call:expr, $answer:expr) => {
                self.emit(origin, $call, $answer, errored)
                    .map_err(Failed::Refused)?
            };
        }
        macro_rules! emit_term {
            ($call:expr) => {{
                if let Some(AnyId::Term(t)) = emit!($call) {
                    self.bind(result, Obj::Term(t));
                }
                Ok(Lifting::Done)
            }};
        }
        // Operations of the table.
        if let Some((op, shape)) = op_of(name) {
            let (indices, args) = match shape {
                Shape::Nary => (Vec::new(), self.terms(call, 2)?),
                Shape::Fixed(n) => (
                    Vec::new(),
                    (1..=n)
                        .map(|i| self.term(call, i))
                        .collect::<Step<Vec<_>>>()?,
                ),
                Shape::Indexed(j) => (
                    (1..=j)
                        .map(|i| self.u32(call, i))
                        .collect::<Step<Vec<_>>>()?,
                    vec![self.term(call, j + 1)?],
                ),
            };
            let first = args.first().and_then(|t| self.term_sort(*t));
            let op = match (op, &first) {
                // Z3's sequence functions make String operations on Strings.
                ("str.++", Some(Sort::Seq(_))) => "seq.++",
                ("str.len", Some(Sort::Seq(_))) => "seq.len",
                ("str.at", Some(Sort::Seq(_))) => "seq.at",
                ("str.contains", Some(Sort::Seq(_))) => "seq.contains",
                ("str.++", _) if args.len() == 1 => return self.same_term(call, &args),
                ("div", Some(Sort::Real)) => "/",
                (op, _) => op,
            };
            let op =
                Op::lookup(op).ok_or_else(|| Failed::Unmapped(format!("no operation `{op}`")))?;
            if args.is_empty() && !matches!(shape, Shape::Fixed(0)) {
                return Err(Failed::Unmapped("an operation without arguments".into()));
            }
            return emit_term!(Call::Op { op, indices, args });
        }
        match name {
            // Reference counting: no effect on the solver's state. An object whose count the
            // program brought to zero may be freed and its address handed to a new object
            // (or live on inside Z3: the bindings use a sort after dropping their own
            // reference), so a query's answer may replace its binding.
            _ if is_refcount(name) => {
                if let Some(Value::Object(a)) = call.args.get(1) {
                    let count = self.refs.entry(*a).or_insert(0);
                    *count += if name.ends_with("_inc_ref") { 1 } else { -1 };
                    if *count <= 0 {
                        self.refs.remove(a);
                        self.released.insert(*a);
                    } else {
                        self.released.remove(a);
                    }
                }
                Ok(Lifting::Dropped)
            }
            "Z3_get_error_code"
            | "Z3_get_error_msg"
            | "Z3_get_error_msg_ex"
            | "Z3_set_ast_print_mode"
            | "Z3_del_config"
            | "Z3_del_context"
            | "Z3_del_constructor"
            | "Z3_del_constructor_list"
            | "Z3_params_validate"
            | "Z3_reset_memory"
            | "Z3_finalize_memory"
            | "Z3_toggle_warning_messages"
            | "Z3_enable_trace"
            | "Z3_disable_trace"
            | "Z3_interrupt"
            | "Z3_ast_vector_size"
            | "Z3_goal_size"
            | "Z3_goal_depth"
            | "Z3_goal_inconsistent"
            | "Z3_goal_precision"
            | "Z3_goal_num_exprs"
            | "Z3_goal_is_decided_sat"
            | "Z3_goal_is_decided_unsat"
            | "Z3_model_has_interp"
            | "Z3_get_numeral_double"
            | "Z3_get_version"
            | "Z3_get_full_version"
            | "Z3_solver_get_num_scopes"
            | "Z3_benchmark_to_smtlib_string" => Ok(Lifting::Dropped),
            // Values the trace writes inline.
            "Z3_mk_config" => {
                self.bind(result, Obj::Config(Vec::new()));
                Ok(Lifting::Done)
            }
            "Z3_set_param_value" => {
                let (key, value) = (self.string(call, 1)?, self.string(call, 2)?);
                if let Some(Value::Object(a)) = call.args.first() {
                    if let Some(Obj::Config(pairs)) = self.objects.get_mut(a) {
                        pairs.push((key, value));
                    }
                }
                Ok(Lifting::Done)
            }
            "Z3_mk_context" | "Z3_mk_context_rc" => {
                let config = match self.obj(call, 0)? {
                    Obj::Config(pairs) => pairs,
                    _ => Vec::new(),
                };
                self.bind(result, Obj::Context(config));
                Ok(Lifting::Done)
            }
            "Z3_mk_string_symbol" | "Z3_mk_int_symbol" => Ok(Lifting::Done),
            "Z3_mk_params" => {
                self.bind(result, Obj::Params(Vec::new()));
                Ok(Lifting::Done)
            }
            "Z3_params_set_bool"
            | "Z3_params_set_uint"
            | "Z3_params_set_double"
            | "Z3_params_set_symbol" => {
                let key = self.symbol(call, 2)?;
                let value = match self.arg(call, 3)? {
                    Value::Int(b) if name == "Z3_params_set_bool" => (*b != 0).to_string(),
                    Value::Uint(n) => n.to_string(),
                    Value::Int(n) => n.to_string(),
                    Value::Double(d) => d.to_string(),
                    Value::Symbol(s) => symbol_text(s)
                        .ok_or_else(|| Failed::Unmapped("a null symbol value".into()))?,
                    v => return Err(Failed::Unmapped(format!("a {} value", v.kind_name()))),
                };
                if let Some(Value::Object(a)) = call.args.get(1) {
                    if let Some(Obj::Params(pairs)) = self.objects.get_mut(a) {
                        pairs.retain(|(k, _)| *k != key);
                        pairs.push((key, value));
                    }
                }
                Ok(Lifting::Done)
            }
            "Z3_mk_ast_vector" => {
                self.bind(result, Obj::Vector(Vec::new()));
                Ok(Lifting::Done)
            }
            "Z3_ast_vector_push" => {
                let element = self.obj(call, 2)?;
                if let Some(Value::Object(a)) = call.args.get(1) {
                    if let Some(Obj::Vector(v)) = self.objects.get_mut(a) {
                        v.push(element);
                    }
                }
                Ok(Lifting::Done)
            }
            "Z3_ast_vector_get" => {
                let element = match self.obj(call, 1)? {
                    Obj::Vector(v) => usize::try_from(self.uint(call, 2)?)
                        .ok()
                        .and_then(|i| v.get(i).cloned()),
                    _ => None,
                };
                match element {
                    Some(o) => self.alias(result, o),
                    None => self.alias(result, Obj::Unknown(name.into(), line)),
                }
                Ok(Lifting::Dropped)
            }
            "Z3_mk_pattern" => {
                let terms = self.terms(call, 2)?;
                self.bind(result, Obj::Pattern(terms));
                Ok(Lifting::Done)
            }
            // Queries that return an object the lifter knows.
            "Z3_get_sort" => {
                let t = self.term(call, 1)?;
                let sort = self.term_sort(t).ok_or(Missing::Other("no sort".into()))?;
                let id = self.sort_id(origin, &sort).map_err(Failed::Refused)?;
                self.alias(result, Obj::Sort(id));
                Ok(Lifting::Dropped)
            }
            "Z3_get_app_decl" => {
                let t = self.term(call, 1)?;
                let decl = match self.made_by.get(&t) {
                    _ if self.state.terms.get(&t).is_some_and(|i| i.is_const) => Obj::ConstDecl(t),
                    Some(Call::Op { op, indices, .. }) => Obj::OpDecl(*op, indices.clone()),
                    Some(Call::Apply { func, .. }) => Obj::Func(*func),
                    _ => Obj::Unknown(name.into(), line),
                };
                self.alias(result, decl);
                Ok(Lifting::Dropped)
            }
            "Z3_get_app_arg" => {
                let t = self.term(call, 1)?;
                let i = self.uint(call, 2)? as usize;
                // Only applications have arguments to read back.
                let arg = self.made_by.get(&t).and_then(|c| {
                    if let Call::Op { args, .. } | Call::Apply { args, .. } = c {
                        args.get(i).copied()
                    } else {
                        None
                    }
                });
                match arg {
                    Some(a) => self.alias(result, Obj::Term(a)),
                    None => self.alias(result, Obj::Unknown(name.into(), line)),
                }
                Ok(Lifting::Dropped)
            }
            "Z3_to_app"
            | "Z3_app_to_ast"
            | "Z3_sort_to_ast"
            | "Z3_func_decl_to_ast"
            | "Z3_translate"
            | "Z3_pattern_to_ast" => {
                let o = self.obj(call, 1)?;
                self.alias(result, o);
                Ok(Lifting::Dropped)
            }
            "Z3_get_range" => {
                let range = match self.obj(call, 1)? {
                    Obj::ConstDecl(t) => self.term_sort(t),
                    Obj::Func(fid) => self.state.funcs.get(&fid).map(|(_, r)| r.clone()),
                    _ => None,
                };
                match range {
                    Some(sort) => {
                        let id = self.sort_id(origin, &sort).map_err(Failed::Refused)?;
                        self.alias(result, Obj::Sort(id));
                    }
                    None => self.alias(result, Obj::Unknown(name.into(), line)),
                }
                Ok(Lifting::Dropped)
            }
            "Z3_get_domain" => {
                let domain = match self.obj(call, 1)? {
                    Obj::Func(fid) => {
                        let i = self.uint(call, 2)? as usize;
                        self.state
                            .funcs
                            .get(&fid)
                            .and_then(|(d, _)| d.get(i).cloned())
                    }
                    _ => None,
                };
                match domain {
                    Some(sort) => {
                        let id = self.sort_id(origin, &sort).map_err(Failed::Refused)?;
                        self.alias(result, Obj::Sort(id));
                    }
                    None => self.alias(result, Obj::Unknown(name.into(), line)),
                }
                Ok(Lifting::Dropped)
            }
            "Z3_get_array_sort_domain" | "Z3_get_array_sort_range" | "Z3_get_seq_sort_basis" => {
                let s = self.sort(call, 1)?;
                let component = match self.state.sorts.get(&s) {
                    Some(Sort::Array(i, _)) if name.ends_with("domain") => Some((**i).clone()),
                    Some(Sort::Array(_, e)) if name.ends_with("range") => Some((**e).clone()),
                    Some(Sort::Seq(e)) if name.ends_with("basis") => Some((**e).clone()),
                    _ => None,
                };
                match component {
                    Some(sort) => {
                        let id = self.sort_id(origin, &sort).map_err(Failed::Refused)?;
                        self.alias(result, Obj::Sort(id));
                    }
                    None => self.alias(result, Obj::Unknown(name.into(), line)),
                }
                Ok(Lifting::Dropped)
            }
            "Z3_get_datatype_sort_constructor"
            | "Z3_get_datatype_sort_recognizer"
            | "Z3_get_datatype_sort_constructor_accessor" => {
                let s = self.sort(call, 1)?;
                let i = self.uint(call, 2)? as usize;
                let decl = match self.state.sorts.get(&s) {
                    Some(Sort::Named(dt, params)) if params.is_empty() => {
                        self.datatypes.get(dt).and_then(|d| d.constructors.get(i))
                    }
                    _ => None,
                };
                let obj = match (name, decl) {
                    ("Z3_get_datatype_sort_constructor", Some(c)) => Obj::Ctor(s, c.name.clone()),
                    ("Z3_get_datatype_sort_recognizer", Some(c)) => Obj::Tester(c.name.clone()),
                    (_, Some(c)) => match c.fields.get(self.uint(call, 3)? as usize) {
                        Some(field) => Obj::Accessor(field.name.clone()),
                        None => Obj::Unknown(name.into(), line),
                    },
                    (_, None) => Obj::Unknown(name.into(), line),
                };
                self.alias(result, obj);
                Ok(Lifting::Dropped)
            }
            "Z3_solver_get_assertions" => {
                let z = self.solver(call, 1)?;
                let all = self
                    .assertions
                    .get(&z)
                    .map(|scopes| scopes.iter().flatten().map(|t| Obj::Term(*t)).collect())
                    .unwrap_or_default();
                self.bind(result, Obj::Vector(all));
                Ok(Lifting::Dropped)
            }
            // Sorts.
            "Z3_mk_bool_sort"
            | "Z3_mk_int_sort"
            | "Z3_mk_real_sort"
            | "Z3_mk_string_sort"
            | "Z3_mk_fpa_rounding_mode_sort"
            | "Z3_mk_bv_sort"
            | "Z3_mk_fpa_sort"
            | "Z3_mk_fpa_sort_half"
            | "Z3_mk_fpa_sort_16"
            | "Z3_mk_fpa_sort_single"
            | "Z3_mk_fpa_sort_32"
            | "Z3_mk_fpa_sort_double"
            | "Z3_mk_fpa_sort_64"
            | "Z3_mk_fpa_sort_quadruple"
            | "Z3_mk_fpa_sort_128"
            | "Z3_mk_array_sort"
            | "Z3_mk_seq_sort"
            | "Z3_mk_uninterpreted_sort" => {
                let component = |s: Step<SortId>| -> Step<Sort> {
                    let s = s?;
                    self.state
                        .sorts
                        .get(&s)
                        .cloned()
                        .ok_or(Missing::Other("a released sort".into()))
                };
                let sort = match name {
                    "Z3_mk_bool_sort" => Sort::Bool,
                    "Z3_mk_int_sort" => Sort::Int,
                    "Z3_mk_real_sort" => Sort::Real,
                    "Z3_mk_string_sort" => Sort::String,
                    "Z3_mk_fpa_rounding_mode_sort" => Sort::RoundingMode,
                    "Z3_mk_bv_sort" => Sort::BitVec(self.u32(call, 1)?),
                    "Z3_mk_fpa_sort" => Sort::FloatingPoint(self.u32(call, 1)?, self.u32(call, 2)?),
                    "Z3_mk_fpa_sort_half" | "Z3_mk_fpa_sort_16" => Sort::FloatingPoint(5, 11),
                    "Z3_mk_fpa_sort_single" | "Z3_mk_fpa_sort_32" => Sort::FloatingPoint(8, 24),
                    "Z3_mk_fpa_sort_double" | "Z3_mk_fpa_sort_64" => Sort::FloatingPoint(11, 53),
                    "Z3_mk_fpa_sort_quadruple" | "Z3_mk_fpa_sort_128" => {
                        Sort::FloatingPoint(15, 113)
                    }
                    "Z3_mk_array_sort" => Sort::array(
                        component(self.sort(call, 1))?,
                        component(self.sort(call, 2))?,
                    ),
                    "Z3_mk_seq_sort" => Sort::seq(component(self.sort(call, 1))?),
                    _ => Sort::uninterpreted(&self.symbol(call, 1)?),
                };
                let id = self.sort_id(origin, &sort).map_err(Failed::Refused)?;
                self.bind(result, Obj::Sort(id));
                Ok(Lifting::Done)
            }
            // Terms.
            "Z3_mk_const" => {
                let (name, sort) = (self.symbol(call, 1)?, self.sort(call, 2)?);
                emit_term!(Call::Const { sort, name })
            }
            "Z3_mk_fresh_const" => {
                // A fresh constant is distinct from every other: a name of its own.
                let prefix = self.string(call, 1).unwrap_or_default();
                self.fresh_names += 1;
                let name = format!("{prefix}!fresh!{}", self.fresh_names);
                let sort = self.sort(call, 2)?;
                emit_term!(Call::Const { sort, name })
            }
            "Z3_mk_numeral"
            | "Z3_mk_int"
            | "Z3_mk_unsigned_int"
            | "Z3_mk_int64"
            | "Z3_mk_unsigned_int64"
            | "Z3_mk_real" => {
                let sort = self.sort(call, if name == "Z3_mk_real" { 0 } else { 2 });
                let (text, sort) = match name {
                    "Z3_mk_numeral" => (self.string(call, 1)?, sort?),
                    "Z3_mk_real" => {
                        let id = self.sort_id(origin, &Sort::Real).map_err(Failed::Refused)?;
                        (format!("{}/{}", self.int(call, 1)?, self.int(call, 2)?), id)
                    }
                    _ => (
                        match self.arg(call, 1)? {
                            Value::Int(n) => n.to_string(),
                            Value::Uint(n) => n.to_string(),
                            v => return Err(Failed::Unmapped(format!("a {}", v.kind_name()))),
                        },
                        sort?,
                    ),
                };
                let value = match self.state.sorts.get(&sort) {
                    Some(Sort::BitVec(w)) => bv_text(&text, *w)
                        .ok_or_else(|| Failed::Unmapped(format!("bit-vector numeral `{text}`")))?,
                    Some(Sort::Real) => real_text(&text),
                    Some(Sort::FloatingPoint(..)) => fp_text(&text).ok_or_else(|| {
                        Failed::Unmapped(format!("floating-point numeral `{text}`"))
                    })?,
                    _ => text,
                };
                emit_term!(Call::Lit { sort, value })
            }
            "Z3_mk_string" => {
                let raw = self.string(call, 1)?;
                let value = z3_string_chars(&raw).ok_or_else(|| {
                    Failed::Unmapped(format!("a string `{raw}` the trace cannot write"))
                })?;
                let sort = self
                    .sort_id(origin, &Sort::String)
                    .map_err(Failed::Refused)?;
                emit_term!(Call::Lit { sort, value })
            }
            "Z3_mk_bv2int" => {
                if self.flag(call, 2)? {
                    return Err(Failed::Unmapped("signed bv2int".into()));
                }
                let args = vec![self.term(call, 1)?];
                let op = Op::lookup("bv2nat").expect("in the table");
                emit_term!(Call::Op {
                    op,
                    indices: vec![],
                    args
                })
            }
            "Z3_mk_bvadd_no_overflow" | "Z3_mk_bvsub_no_underflow" | "Z3_mk_bvmul_no_overflow" => {
                let signed = self.flag(call, 3)?;
                let base = name.strip_prefix("Z3_mk_").unwrap_or(name);
                let op = format!("{base}_{}", if signed { "s" } else { "u" });
                let op = Op::lookup(&op).ok_or_else(|| Failed::Unmapped(op.clone()))?;
                let args = vec![self.term(call, 1)?, self.term(call, 2)?];
                emit_term!(Call::Op {
                    op,
                    indices: vec![],
                    args
                })
            }
            "Z3_mk_fpa_to_ubv" | "Z3_mk_fpa_to_sbv" => {
                let op = if name.ends_with("ubv") {
                    "fp.to_ubv"
                } else {
                    "fp.to_sbv"
                };
                let args = vec![self.term(call, 1)?, self.term(call, 2)?];
                let indices = vec![self.u32(call, 3)?];
                let op = Op::lookup(op).expect("in the table");
                emit_term!(Call::Op { op, indices, args })
            }
            "Z3_mk_re_full" | "Z3_mk_re_empty" => {
                let op = if name == "Z3_mk_re_full" {
                    "re.all"
                } else {
                    "re.none"
                };
                let op = Op::lookup(op).expect("in the table");
                emit_term!(Call::Op {
                    op,
                    indices: vec![],
                    args: vec![]
                })
            }
            "Z3_mk_pble" | "Z3_mk_pbge" | "Z3_mk_pbeq" => {
                let args = self.terms(call, 2)?;
                let coeffs = match self.arg(call, 3)? {
                    Value::Ints(v) => v.clone(),
                    v => {
                        return Err(Failed::Unmapped(format!(
                            "coefficients as {}",
                            v.kind_name()
                        )))
                    }
                };
                let small = |n: i64| {
                    i32::try_from(n).map_err(|_| Failed::Unmapped("a large coefficient".into()))
                };
                let terms = coeffs
                    .iter()
                    .zip(&args)
                    .map(|(c, t)| Ok((small(*c)?, *t)))
                    .collect::<Result<Vec<_>, Failed>>()?;
                let bound = small(self.int(call, 4)?)?;
                let cmp = match name {
                    "Z3_mk_pble" => PbCmp::Le,
                    "Z3_mk_pbge" => PbCmp::Ge,
                    _ => PbCmp::Eq,
                };
                emit_term!(Call::Pb { cmp, bound, terms })
            }
            "Z3_mk_atmost" | "Z3_mk_atleast" => {
                // At most (least) K of the terms. (Z3's log writes `Z3_mk_atleast` as
                // `Z3_mk_atmost`: a log of the one lifts to the other.)
                let terms = self.terms(call, 2)?;
                let bound = u32::try_from(self.uint(call, 3)?)
                    .map_err(|_| Failed::Unmapped("a large bound".into()))?;
                let at_least = name == "Z3_mk_atleast";
                emit_term!(Call::Card {
                    at_least,
                    bound,
                    terms
                })
            }
            "Z3_mk_const_array" => {
                let (index, value) = (self.sort(call, 1)?, self.term(call, 2)?);
                emit_term!(Call::ConstArray { index, value })
            }
            "Z3_mk_func_decl" => {
                let name = self.symbol(call, 1)?;
                let domain = self
                    .objs(call, 3)?
                    .into_iter()
                    .map(|o| match o {
                        Obj::Sort(s) => Ok(s),
                        o => Err(Missing::Other(format!("a domain that is no sort ({o:?})"))),
                    })
                    .collect::<Step<Vec<_>>>()?;
                let range = self.sort(call, 4)?;
                if domain.is_empty() {
                    // A constant's declaration: applied, it is the constant.
                    let sort = range;
                    if let Some(AnyId::Term(t)) = emit!(Call::Const { sort, name }) {
                        self.bind(result, Obj::ConstDecl(t));
                    }
                    return Ok(Lifting::Done);
                }
                if let Some(AnyId::Func(fid)) = emit!(Call::Fun {
                    name,
                    domain,
                    range
                }) {
                    self.bind(result, Obj::Func(fid));
                }
                Ok(Lifting::Done)
            }
            "Z3_mk_app" => {
                let args = self.terms(call, 3)?;
                match self.obj(call, 1)? {
                    Obj::Func(func) => emit_term!(Call::Apply { func, args }),
                    Obj::ConstDecl(t) if args.is_empty() => {
                        self.bind(result, Obj::Term(t));
                        Ok(Lifting::Done)
                    }
                    Obj::Ctor(sort, ctor) => emit_term!(Call::DtConstruct { sort, ctor, args }),
                    Obj::Tester(ctor) if args.len() == 1 => emit_term!(Call::DtTest {
                        ctor,
                        term: args[0]
                    }),
                    Obj::Accessor(field) if args.len() == 1 => emit_term!(Call::DtSelect {
                        field,
                        term: args[0]
                    }),
                    Obj::OpDecl(op, indices) => emit_term!(Call::Op { op, indices, args }),
                    o => Err(Failed::Unmapped(format!("an application of {o:?}"))),
                }
            }
            "Z3_simplify" => {
                let t = self.term(call, 1)?;
                emit_term!(Call::Simplify(t))
            }
            "Z3_simplify_ex" => {
                let (term, params) = (self.term(call, 1)?, self.params(call, 2)?);
                emit_term!(Call::SimplifyWith { term, params })
            }
            "Z3_substitute" => {
                let (from, to) = (self.terms(call, 3)?, self.terms(call, 4)?);
                let term = self.term(call, 1)?;
                let pairs = from.into_iter().zip(to).collect();
                emit_term!(Call::Substitute { term, pairs })
            }
            "Z3_mk_forall_const"
            | "Z3_mk_exists_const"
            | "Z3_mk_quantifier_const"
            | "Z3_mk_quantifier_const_ex" => {
                // Argument positions: (ctx, [is_forall,] weight, [qid, skolem,] n, bound[],
                // n_patterns, patterns[], [n_no_patterns, no_patterns[],] body).
                let (forall, at) = match name {
                    "Z3_mk_forall_const" => (true, 1),
                    "Z3_mk_exists_const" => (false, 1),
                    _ => (self.flag(call, 1)?, 2),
                };
                let weight = self.u32(call, at)?;
                let ex = name == "Z3_mk_quantifier_const_ex";
                let bound_at = if ex { at + 4 } else { at + 2 };
                let bound = self.terms(call, bound_at)?;
                let patterns = self
                    .objs(call, bound_at + 2)?
                    .into_iter()
                    .map(|o| match o {
                        Obj::Pattern(ts) => Ok(ts),
                        o => Err(Missing::Other(format!("not a pattern ({o:?})"))),
                    })
                    .collect::<Step<Vec<_>>>()?;
                let no_patterns = if ex {
                    self.terms(call, bound_at + 4)?
                } else {
                    Vec::new()
                };
                let body = self.term(call, call.args.len() - 1)?;
                self.quantifier(
                    origin,
                    errored,
                    result,
                    forall,
                    weight,
                    bound,
                    body,
                    patterns,
                    no_patterns,
                )
            }
            // Datatypes.
            "Z3_mk_constructor" => {
                let ctor = self.symbol(call, 1)?;
                let names = self.symbols(call, 4)?;
                let sorts = match self.arg(call, 5)? {
                    Value::Objects(v) => v.clone(),
                    Value::Object(Addr(0)) => Vec::new(),
                    v => {
                        return Err(Failed::Unmapped(format!(
                            "field sorts as {}",
                            v.kind_name()
                        )))
                    }
                };
                let refs = match self.arg(call, 6)? {
                    Value::Uints(v) => v.clone(),
                    _ => Vec::new(),
                };
                let mut fields = Vec::new();
                for (i, name) in names.into_iter().enumerate() {
                    let sort = match sorts.get(i) {
                        Some(Addr(0)) | None => {
                            FieldSort::Datatype(refs.get(i).copied().unwrap_or(0) as u32)
                        }
                        Some(a) => match self.at(*a)? {
                            Obj::Sort(s) => FieldSort::Sort(s),
                            o => return Err(Failed::Unmapped(format!("a field sort {o:?}"))),
                        },
                    };
                    fields.push(FieldDecl { name, sort });
                }
                self.bind(
                    result,
                    Obj::Constructor(ConstructorDecl { name: ctor, fields }),
                );
                Ok(Lifting::Done)
            }
            "Z3_mk_constructor_list" => {
                let ctors = self
                    .objs(call, 2)?
                    .into_iter()
                    .map(|o| match o {
                        Obj::Constructor(c) => Ok(c),
                        o => Err(Missing::Other(format!("not a constructor ({o:?})"))),
                    })
                    .collect::<Step<Vec<_>>>()?;
                self.bind(result, Obj::ConstructorList(ctors));
                Ok(Lifting::Done)
            }
            "Z3_mk_datatypes" | "Z3_mk_datatype" => {
                let (names, lists) = if name == "Z3_mk_datatype" {
                    let ctors = self
                        .objs(call, 3)?
                        .into_iter()
                        .map(|o| match o {
                            Obj::Constructor(c) => Ok(c),
                            o => Err(Missing::Other(format!("not a constructor ({o:?})"))),
                        })
                        .collect::<Step<Vec<_>>>()?;
                    (vec![self.symbol(call, 1)?], vec![ctors])
                } else {
                    let lists = self
                        .objs(call, 4)?
                        .into_iter()
                        .map(|o| match o {
                            Obj::ConstructorList(c) => Ok(c),
                            o => Err(Missing::Other(format!("not a constructor list ({o:?})"))),
                        })
                        .collect::<Step<Vec<_>>>()?;
                    (self.symbols(call, 2)?, lists)
                };
                let datatypes: Vec<DatatypeDecl> = self.rename_datatypes(
                    names
                        .iter()
                        .zip(lists)
                        .map(|(n, constructors)| DatatypeDecl {
                            name: n.clone(),
                            constructors,
                        })
                        .collect(),
                );
                emit!(Call::DeclareDatatypes {
                    path: DeclPath::Api,
                    params: vec![],
                    datatypes: datatypes.clone(),
                });
                for d in &datatypes {
                    self.datatypes.insert(d.name.clone(), d.clone());
                }
                let mut made = Vec::new();
                for d in &datatypes {
                    let call = Call::SortDatatype {
                        name: d.name.clone(),
                        params: vec![],
                    };
                    match self
                        .emit(origin, call, None, false)
                        .map_err(Failed::Refused)?
                    {
                        Some(AnyId::Sort(s)) => {
                            self.sort_ids.insert(Sort::Named(d.name.clone(), vec![]), s);
                            made.push(s);
                        }
                        _ => return Err(Failed::Refused("no datatype sort".into())),
                    }
                }
                if name == "Z3_mk_datatype" {
                    self.bind(result, Obj::Sort(made[0]));
                } else {
                    for out in &call.outs {
                        if let crate::log::OutBinding::Element { addr, idx, .. } = out {
                            if let Some(s) = made.get(*idx as usize) {
                                self.bind(Some(*addr), Obj::Sort(*s));
                            }
                        }
                    }
                }
                Ok(Lifting::Done)
            }
            "Z3_mk_enumeration_sort" => {
                let dt = self.symbol(call, 1)?;
                let constructors = self
                    .symbols(call, 3)?
                    .into_iter()
                    .map(|name| ConstructorDecl {
                        name,
                        fields: Vec::new(),
                    })
                    .collect();
                let decl = self
                    .rename_datatypes(vec![DatatypeDecl {
                        name: dt,
                        constructors,
                    }])
                    .remove(0);
                let dt = decl.name.clone();
                emit!(Call::DeclareDatatypes {
                    path: DeclPath::Api,
                    params: vec![],
                    datatypes: vec![decl.clone()],
                });
                self.datatypes.insert(dt.clone(), decl.clone());
                let sort = Call::SortDatatype {
                    name: dt.clone(),
                    params: vec![],
                };
                let Some(AnyId::Sort(s)) = emit!(sort) else {
                    return Err(Failed::Refused("no datatype sort".into()));
                };
                self.sort_ids.insert(Sort::Named(dt, vec![]), s);
                self.bind(result, Obj::Sort(s));
                for out in &call.outs {
                    if let crate::log::OutBinding::Element { addr, pos, idx } = out {
                        let Some(c) = decl.constructors.get(*idx as usize) else {
                            continue;
                        };
                        let obj = if *pos == 4 {
                            Obj::Ctor(s, c.name.clone())
                        } else {
                            Obj::Tester(c.name.clone())
                        };
                        self.bind(Some(*addr), obj);
                    }
                }
                Ok(Lifting::Done)
            }
            // Solvers.
            "Z3_mk_solver" | "Z3_mk_solver_for_logic" | "Z3_mk_solver_from_tactic" => {
                let config = match self.obj(call, 0)? {
                    Obj::Context(config) => config,
                    _ => Vec::new(),
                };
                let new = match name {
                    "Z3_mk_solver" if !config.is_empty() => Call::NewSolverConfig(config),
                    "Z3_mk_solver" => Call::NewSolver(SolverKind::Default),
                    "Z3_mk_solver_for_logic" => {
                        Call::NewSolver(SolverKind::Logic(self.symbol(call, 1)?))
                    }
                    _ => Call::NewSolver(SolverKind::FromTactic(self.tactic(call, 1)?)),
                };
                if let Some(AnyId::Solver(z)) = emit!(new) {
                    self.assertions.insert(z, vec![Vec::new()]);
                    self.bind(result, Obj::Solver(z));
                }
                Ok(Lifting::Done)
            }
            "Z3_solver_translate" => {
                let solver = self.solver(call, 1)?;
                let config = match self.obj(call, 2)? {
                    Obj::Context(config) => config,
                    _ => Vec::new(),
                };
                let new = if config.is_empty() {
                    Call::Translate(solver)
                } else {
                    Call::TranslateConfig { solver, config }
                };
                if let Some(AnyId::Solver(z)) = emit!(new) {
                    let copy = self.assertions.get(&solver).cloned().unwrap_or_default();
                    self.assertions.insert(z, copy);
                    self.bind(result, Obj::Solver(z));
                }
                Ok(Lifting::Done)
            }
            "Z3_solver_set_params" => {
                let solver = self.solver(call, 1)?;
                for (key, value) in self.params(call, 2)? {
                    emit!(Call::SetParam { solver, key, value });
                }
                Ok(Lifting::Done)
            }
            "Z3_global_param_set" => {
                let (key, value) = (self.string(call, 0)?, self.string(call, 1)?);
                emit!(Call::SetGlobal { key, value });
                Ok(Lifting::Done)
            }
            "Z3_solver_push" => {
                let z = self.solver(call, 1)?;
                emit!(Call::Push(z));
                if !errored {
                    self.assertions.entry(z).or_default().push(Vec::new());
                }
                Ok(Lifting::Done)
            }
            "Z3_solver_pop" => {
                let z = self.solver(call, 1)?;
                let n = self.u32(call, 2)?;
                emit!(Call::Pop(z, n));
                if !errored {
                    let scopes = self.assertions.entry(z).or_default();
                    let keep = scopes.len().saturating_sub(n as usize).max(1);
                    scopes.truncate(keep);
                }
                Ok(Lifting::Done)
            }
            "Z3_solver_reset" => {
                let z = self.solver(call, 1)?;
                emit!(Call::Reset(z));
                self.assertions.insert(z, vec![Vec::new()]);
                Ok(Lifting::Done)
            }
            "Z3_solver_assert" => {
                let (z, t) = (self.solver(call, 1)?, self.term(call, 2)?);
                emit!(Call::Assert(z, t));
                if !errored {
                    if let Some(top) = self.assertions.entry(z).or_default().last_mut() {
                        top.push(t);
                    }
                }
                Ok(Lifting::Done)
            }
            "Z3_solver_assert_and_track" => {
                let (solver, term, tracker) = (
                    self.solver(call, 1)?,
                    self.term(call, 2)?,
                    self.term(call, 3)?,
                );
                emit!(Call::AssertAndTrack {
                    solver,
                    term,
                    tracker
                });
                Ok(Lifting::Done)
            }
            "Z3_solver_check" | "Z3_solver_check_assumptions" => {
                let z = self.solver(call, 1)?;
                let assumptions = if name == "Z3_solver_check" {
                    None
                } else {
                    Some(self.terms(call, 3)?)
                };
                let answer = self.evidence.answers.get(&k).map(|a| Ret::Sat(*a));
                match assumptions {
                    None => emit!(Call::CheckSat(z), answer),
                    Some(ts) => emit!(Call::CheckSatAssuming(z, ts), answer),
                };
                Ok(Lifting::Done)
            }
            "Z3_solver_get_unsat_core" => {
                let z = self.solver(call, 1)?;
                emit!(Call::GetUnsatCore(z));
                self.bind(result, Obj::Unknown(name.into(), line));
                if self.options.with_checks && !errored {
                    self.emit_check(origin, Check::Core(z));
                }
                Ok(Lifting::Done)
            }
            "Z3_solver_get_model" => {
                let z = self.solver(call, 1)?;
                if let Some(AnyId::Model(m)) = emit!(Call::GetModel(z)) {
                    self.bind(result, Obj::Model(m));
                    if self.options.with_checks {
                        let asserted: Vec<TermId> = self
                            .assertions
                            .get(&z)
                            .map(|s| s.iter().flatten().copied().collect())
                            .unwrap_or_default();
                        for t in asserted {
                            self.emit_check(origin, Check::Model { model: m, term: t });
                            self.emit_check(origin, Check::Independent { model: m, term: t });
                        }
                    }
                }
                Ok(Lifting::Done)
            }
            "Z3_solver_get_proof" => {
                let z = self.solver(call, 1)?;
                emit!(Call::GetProof(z));
                self.bind(result, Obj::Unknown(name.into(), line));
                Ok(Lifting::Done)
            }
            "Z3_solver_cube" => {
                let z = self.solver(call, 1)?;
                let no_vars = match self.obj(call, 2) {
                    Ok(Obj::Vector(v)) => v.is_empty(),
                    Err(Missing::Other(_)) => true,
                    _ => false,
                };
                // The bindings pass 4000000000 (Python) or UINT_MAX as the backtracking
                // level: no limit, as the trace's `cube` asks.
                if !no_vars || self.uint(call, 3)? < 4_000_000_000 {
                    return Err(Failed::Unmapped(
                        "a cube over given variables or with a backtracking level".into(),
                    ));
                }
                emit!(Call::Cube(z));
                self.bind(result, Obj::Unknown(name.into(), line));
                Ok(Lifting::Done)
            }
            "Z3_solver_to_string" => {
                let z = self.solver(call, 1)?;
                emit!(Call::ToSmt2(z));
                Ok(Lifting::Done)
            }
            "Z3_solver_from_string" => {
                let (z, text) = (self.solver(call, 1)?, self.string(call, 2)?);
                emit!(Call::FromString(z, text));
                Ok(Lifting::Done)
            }
            // Models.
            "Z3_model_eval" => {
                let model = match self.obj(call, 1)? {
                    Obj::Model(m) => m,
                    o => return Err(Failed::Unmapped(format!("not a model ({o:?})"))),
                };
                let (term, completion) = (self.term(call, 2)?, self.flag(call, 3)?);
                emit!(Call::ModelEval {
                    model,
                    term,
                    completion
                });
                Ok(Lifting::Done)
            }
            "Z3_model_get_const_interp" => {
                let model = match self.obj(call, 1)? {
                    Obj::Model(m) => m,
                    o => return Err(Failed::Unmapped(format!("not a model ({o:?})"))),
                };
                let term = match self.obj(call, 2)? {
                    Obj::ConstDecl(t) => t,
                    o => return Err(Failed::Unmapped(format!("not a constant ({o:?})"))),
                };
                emit!(Call::ModelEval {
                    model,
                    term,
                    completion: false
                });
                self.bind(result, Obj::Unknown(name.into(), line));
                Ok(Lifting::Done)
            }
            // Optimize.
            "Z3_mk_optimize" => {
                if let Some(AnyId::Opt(o)) = emit!(Call::NewOptimize) {
                    self.bind(result, Obj::Opt(o));
                }
                Ok(Lifting::Done)
            }
            "Z3_optimize_set_params" => {
                let opt = self.opt(call, 1)?;
                for (key, value) in self.params(call, 2)? {
                    emit!(Call::OptSetParam { opt, key, value });
                }
                Ok(Lifting::Done)
            }
            "Z3_optimize_assert" => {
                let (o, t) = (self.opt(call, 1)?, self.term(call, 2)?);
                emit!(Call::OptAssert(o, t));
                Ok(Lifting::Done)
            }
            "Z3_optimize_assert_soft" => {
                let (opt, term) = (self.opt(call, 1)?, self.term(call, 2)?);
                let weight = self.string(call, 3)?;
                let weight: u32 = weight
                    .parse()
                    .map_err(|_| Failed::Unmapped(format!("the weight `{weight}`")))?;
                // A null group is Z3's default group, one group of its own.
                let group = match self.arg(call, 4)? {
                    Value::Symbol(Symbol::Null) => DEFAULT_GROUP.to_string(),
                    _ => self.symbol(call, 4)?,
                };
                emit!(Call::OptAssertSoft {
                    opt,
                    term,
                    weight,
                    group
                });
                Ok(Lifting::Done)
            }
            "Z3_optimize_minimize" | "Z3_optimize_maximize" => {
                let (opt, term) = (self.opt(call, 1)?, self.term(call, 2)?);
                let direction = if name.ends_with("minimize") {
                    Direction::Minimize
                } else {
                    Direction::Maximize
                };
                emit!(Call::OptObjective {
                    opt,
                    term,
                    direction
                });
                Ok(Lifting::Done)
            }
            "Z3_optimize_push" => {
                let o = self.opt(call, 1)?;
                emit!(Call::OptPush(o));
                Ok(Lifting::Done)
            }
            "Z3_optimize_pop" => {
                let o = self.opt(call, 1)?;
                emit!(Call::OptPop(o));
                Ok(Lifting::Done)
            }
            "Z3_optimize_check" => {
                let o = self.opt(call, 1)?;
                if !self.terms(call, 3)?.is_empty() {
                    return Err(Failed::Unmapped(
                        "an Optimize check with assumptions".into(),
                    ));
                }
                let answer = self.evidence.answers.get(&k).map(|a| Ret::Sat(*a));
                emit!(Call::OptCheck(o), answer);
                Ok(Lifting::Done)
            }
            "Z3_optimize_get_model" => {
                let o = self.opt(call, 1)?;
                if let Some(AnyId::Model(m)) = emit!(Call::OptGetModel(o)) {
                    self.bind(result, Obj::Model(m));
                    if self.options.with_checks {
                        self.emit_check(origin, Check::OptValues { opt: o, model: m });
                        self.emit_check(origin, Check::OptBetter { opt: o, model: m });
                    }
                }
                Ok(Lifting::Done)
            }
            "Z3_optimize_get_lower" | "Z3_optimize_get_upper" => {
                let (opt, index) = (self.opt(call, 1)?, self.u32(call, 2)?);
                let upper = name.ends_with("upper");
                emit!(Call::OptBound { opt, index, upper });
                self.bind(result, Obj::Unknown(name.into(), line));
                Ok(Lifting::Done)
            }
            // Tactics and goals.
            "Z3_mk_tactic"
            | "Z3_tactic_and_then"
            | "Z3_tactic_or_else"
            | "Z3_tactic_repeat"
            | "Z3_tactic_try_for"
            | "Z3_tactic_using_params" => {
                let expr = match name {
                    "Z3_mk_tactic" => TacticExpr::Named(self.string(call, 1)?),
                    "Z3_tactic_and_then" => {
                        TacticExpr::AndThen(self.tactic(call, 1)?, self.tactic(call, 2)?)
                    }
                    "Z3_tactic_or_else" => {
                        TacticExpr::OrElse(self.tactic(call, 1)?, self.tactic(call, 2)?)
                    }
                    "Z3_tactic_repeat" => {
                        TacticExpr::Repeat(self.tactic(call, 1)?, self.u32(call, 2)?)
                    }
                    "Z3_tactic_try_for" => {
                        TacticExpr::TryFor(self.tactic(call, 1)?, self.u32(call, 2)?)
                    }
                    _ => TacticExpr::UsingParams(self.tactic(call, 1)?, self.params(call, 2)?),
                };
                if let Some(AnyId::Tactic(t)) = emit!(Call::MkTactic(expr)) {
                    self.bind(result, Obj::Tactic(t));
                }
                Ok(Lifting::Done)
            }
            "Z3_mk_goal" => {
                let models = self.flag(call, 1)?;
                if let Some(AnyId::Goal(g)) = emit!(Call::NewGoal { models }) {
                    self.bind(result, Obj::Goal(g));
                }
                Ok(Lifting::Done)
            }
            "Z3_goal_assert" => {
                let (g, t) = (self.goal(call, 1)?, self.term(call, 2)?);
                emit!(Call::GoalAssert(g, t));
                Ok(Lifting::Done)
            }
            "Z3_tactic_apply" => {
                let (tactic, goal) = (self.tactic(call, 1)?, self.goal(call, 2)?);
                let answer = self
                    .evidence
                    .subgoals
                    .get(&k)
                    .map(|n| Ret::Value(n.to_string()));
                emit!(
                    Call::ApplyTactic {
                        tactic,
                        goal,
                        rlimit: 0
                    },
                    answer
                );
                self.bind(result, Obj::ApplyResult(goal));
                Ok(Lifting::Done)
            }
            "Z3_apply_result_get_subgoal" => {
                let goal = match self.obj(call, 1)? {
                    Obj::ApplyResult(g) => g,
                    o => return Err(Failed::Unmapped(format!("not a tactic's result ({o:?})"))),
                };
                let i = self.u32(call, 2)?;
                if let Some(AnyId::Goal(g)) = emit!(Call::Subgoal(goal, i)) {
                    self.bind(result, Obj::Goal(g));
                }
                Ok(Lifting::Done)
            }
            // Queries without an object to bind: dropped.
            _ if f.is_query() => Ok(Lifting::Dropped),
            // Object-returning queries the lifter does not resolve: dropped, their result
            // unknown (counted only where a kept call needs it).
            _ if is_lookup(name) => {
                self.unknown_alias(call.result, f, line);
                Ok(Lifting::Dropped)
            }
            _ => Err(Failed::Unmapped("no trace call".into())),
        }
    }

    /// `term` as the result of a call that returns its argument (a sum of one term).
    fn same_term(&mut self, call: &LogCall, args: &[TermId]) -> Result<Lifting, Failed> {
        self.bind(call.result, Obj::Term(args[0]));
        Ok(Lifting::Done)
    }

    /// A quantifier over constants: each constant becomes a `var` of its own, substituted
    /// into the body and the patterns (the trace's quantifiers bind variables that only
    /// they may close).
    #[allow(clippy::too_many_arguments)]
    fn quantifier(
        &mut self,
        origin: usize,
        errored: bool,
        result: Option<Addr>,
        forall: bool,
        weight: u32,
        bound: Vec<TermId>,
        body: TermId,
        patterns: Vec<Vec<TermId>>,
        no_patterns: Vec<TermId>,
    ) -> Result<Lifting, Failed> {
        let refused = Failed::Refused;
        let mut vars = Vec::new();
        for c in &bound {
            let sort = self.term_sort(*c).ok_or(Missing::Other("no sort".into()))?;
            let sort = self.sort_id(origin, &sort).map_err(refused)?;
            self.fresh_names += 1;
            let name = format!("x!{}", self.fresh_names);
            match self
                .emit(origin, Call::Var { sort, name }, None, false)
                .map_err(refused)?
            {
                Some(AnyId::Term(v)) => vars.push(v),
                _ => return Err(Failed::Refused("no variable made".into())),
            }
        }
        let pairs: Vec<(TermId, TermId)> =
            bound.iter().copied().zip(vars.iter().copied()).collect();
        let rebind = |lifter: &mut Lifter, t: TermId| -> Result<TermId, Failed> {
            let call = Call::Substitute {
                term: t,
                pairs: pairs.clone(),
            };
            match lifter
                .emit(origin, call, None, false)
                .map_err(Failed::Refused)?
            {
                Some(AnyId::Term(u)) => Ok(u),
                _ => Err(Failed::Refused("no substitution made".into())),
            }
        };
        let body = rebind(self, body)?;
        let mut new_patterns = Vec::new();
        for p in patterns {
            let mut terms = Vec::new();
            for t in p {
                terms.push(rebind(self, t)?);
            }
            new_patterns.push(terms);
        }
        let mut new_no = Vec::new();
        for t in no_patterns {
            new_no.push(rebind(self, t)?);
        }
        let call = Call::Quantifier {
            forall,
            weight,
            vars,
            body,
            patterns: new_patterns,
            no_patterns: new_no,
        };
        if let Some(AnyId::Term(q)) = self.emit(origin, call, None, errored).map_err(refused)? {
            self.bind(result, Obj::Term(q));
        }
        Ok(Lifting::Done)
    }

    /// Appends an oracle check after the call of `origin` (where the state admits it).
    fn emit_check(&mut self, origin: usize, check: Check) {
        let call = Call::Check(check);
        if self.state.check(&call).is_ok() {
            let _ = self.emit(origin, call, None, false);
        }
    }
}

/// The kind of Z3 handle an object is (sorts, declarations and terms share addresses).
fn category(obj: &Obj) -> Option<u8> {
    match obj {
        Obj::Sort(_) => Some(0),
        Obj::Term(_) | Obj::Pattern(_) => Some(1),
        Obj::Func(_)
        | Obj::ConstDecl(_)
        | Obj::OpDecl(..)
        | Obj::Ctor(..)
        | Obj::Tester(_)
        | Obj::Accessor(_) => Some(2),
        Obj::Unknown(..) => None,
        _ => Some(3),
    }
}

/// Whether a function returns one of its arguments as another kind of handle (no effect).
fn is_alias(name: &str) -> bool {
    matches!(
        name,
        "Z3_to_app"
            | "Z3_app_to_ast"
            | "Z3_sort_to_ast"
            | "Z3_func_decl_to_ast"
            | "Z3_translate"
            | "Z3_pattern_to_ast"
            | "Z3_get_sort"
            | "Z3_get_app_decl"
            | "Z3_get_app_arg"
            | "Z3_get_range"
            | "Z3_get_domain"
            | "Z3_ast_vector_get"
    )
}

/// Whether a function is a lookup: it returns an object without changing any (`Z3_get_*`,
/// `Z3_*_get_*`, `Z3_goal_formula`, `Z3_to_*`, ...).
fn is_lookup(name: &str) -> bool {
    let short = name.strip_prefix("Z3_").unwrap_or(name);
    short.starts_with("get_")
        || short.contains("_get_")
        || short.starts_with("to_")
        || short.ends_with("_to_ast")
        || matches!(
            short,
            "goal_formula" | "model_eval" | "solver_get_statistics"
        )
}

/// A bit-vector numeral as the trace writes it: its unsigned value (Z3 takes negative
/// numerals modulo 2^width).
fn bv_text(text: &str, width: u32) -> Option<String> {
    use num_bigint::BigInt;
    let value: BigInt = text.trim().parse().ok()?;
    let modulus = BigInt::from(1) << width;
    let value = ((value % &modulus) + &modulus) % &modulus;
    Some(value.to_string())
}

/// A floating-point numeral as the trace writes it (a double, which the executor rounds to
/// the sort as Z3 rounds the numeral): the bindings write `NUM/DEN` or `NUM/DENpEXP` (times
/// 2^EXP) or a decimal; only values a double holds exactly are taken (no second rounding).
fn fp_text(text: &str) -> Option<String> {
    let text = text.trim();
    if let Ok(d) = text.parse::<f64>() {
        return d.is_finite().then(|| d.to_string());
    }
    let (mantissa, exp) = match text.split_once('p') {
        Some((m, e)) => (m, e.parse::<i32>().ok()?),
        None => (text, 0),
    };
    let (num, den) = mantissa.split_once('/').unwrap_or((mantissa, "1"));
    let (num, den): (i64, u64) = (num.parse().ok()?, den.parse().ok()?);
    // Exact in a double: a numerator of at most 53 bits over a power of two.
    if num.unsigned_abs() >= 1 << 53 || !den.is_power_of_two() {
        return None;
    }
    let shift = exp - den.trailing_zeros() as i32;
    let value = num as f64 * 2f64.powi(shift);
    (value.is_normal() || value == 0.0).then(|| value.to_string())
}

/// The characters `Z3_mk_string` makes of `text`: Z3 (4.8.12 to 5.4.1) decodes `\u{H...}`
/// (1 to 5 hex digits) and `\uHHHH` and takes every other byte as it is. `None` for an
/// escape of no character.
fn z3_string_chars(text: &str) -> Option<String> {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("\\u") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let braced = after
            .strip_prefix('{')
            .and_then(|r| r.split_once('}'))
            .filter(|(h, _)| {
                (1..=5).contains(&h.len()) && h.chars().all(|c| c.is_ascii_hexdigit())
            });
        let (hex, tail) = match braced {
            Some((h, tail)) => (h, tail),
            None if after.len() >= 4
                && after.is_char_boundary(4)
                && after[..4].chars().all(|c| c.is_ascii_hexdigit()) =>
            {
                (&after[..4], &after[4..])
            }
            None => {
                out.push_str("\\u");
                rest = after;
                continue;
            }
        };
        out.push(char::from_u32(u32::from_str_radix(hex, 16).ok()?)?);
        rest = tail;
    }
    out.push_str(rest);
    Some(out)
}

/// A Real numeral as the trace writes it: `a/b` and decimals as given, `-a` kept.
fn real_text(text: &str) -> String {
    text.trim().to_string()
}

/// The Z3 functions the lifter maps to a trace call where that call's description
/// (`CallSpec::z3`) names another function that makes the same object: the pairs
/// (function, the description's function), for the test that ties the lifter to the
/// descriptions.
pub const EQUIVALENT: &[(&str, &str)] = &[
    ("Z3_mk_int", "Z3_mk_numeral"),
    ("Z3_mk_unsigned_int", "Z3_mk_numeral"),
    ("Z3_mk_int64", "Z3_mk_numeral"),
    ("Z3_mk_unsigned_int64", "Z3_mk_numeral"),
    ("Z3_mk_real", "Z3_mk_numeral"),
    ("Z3_mk_forall_const", "Z3_mk_quantifier_const_ex"),
    ("Z3_mk_exists_const", "Z3_mk_quantifier_const_ex"),
    ("Z3_mk_quantifier_const", "Z3_mk_quantifier_const_ex"),
    ("Z3_mk_fresh_const", "Z3_mk_const"),
    ("Z3_mk_func_decl", "Z3_mk_const"),
    ("Z3_tactic_apply", "Z3_tactic_apply_ex"),
    ("Z3_mk_datatype", "Z3_mk_datatypes"),
    ("Z3_mk_enumeration_sort", "Z3_mk_datatypes"),
    ("Z3_mk_atmost", "Z3_mk_pble"),
    ("Z3_mk_atleast", "Z3_mk_pbge"),
    ("Z3_model_get_const_interp", "Z3_model_eval"),
];
