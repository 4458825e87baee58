//! A trace lowered to the Z3 C calls the executor makes for it ([`lower`]).
//!
//! Most calls are one Z3 function whose parameters take the call's arguments (by kind, in
//! order): [`Lower::direct`] prints the call `executor::plain` fills from the call's
//! description (`Call::walk`, the `z3:` function of its `CallSpec`) and the C signature in
//! the 4.8.12 table of `z3log`. The calls the executor itself makes that way
//! (`model::plain_call!`) share one arm here, so a new one needs nothing in this file; the
//! other calls of that shape are listed in the arm of such calls (their executor keeps
//! objects the `z3` crate hands out no raw handle of, or does bookkeeping besides). The calls
//! whose Z3 calls are not that (a parameter set, a context of its own, literals by sort, the
//! operations, datatypes through the parser, the oracle checks) are written out in
//! [`Lower::call`]'s arms, one per call, exhaustively, so the compiler names a new call of
//! another shape here too.

use super::{Arg, Cond, OnError, Program, Step, Ty, Var, Z3Call};
use crate::executor::ops::{op_lowering, OpLowering, OpShape};
use crate::executor::plain::{self, Param};
use model::call::{
    AnyId, Call, Check, Direction, ModelId, OptId, PbCmp, Ret, SatResult, SolverId, SolverKind,
    TacticExpr, TermId,
};
use model::datatype::{smtlib_decl, DatatypeDecl, FieldSort};
use model::options::ParamKind;
use model::trace::Trace;
use model::{Sort, State};
use std::collections::HashMap;
use std::rc::Rc;
use z3log::table::Table;

/// The main context's variable.
pub const MAIN: &str = "ctx";
/// The resource limit of the checks' fresh solvers (the executor's `SOLVER_CHECK_RLIMIT`).
const CHECK_RLIMIT: u64 = 2_000_000;

/// Soft constraints by group: term and weight.
type SoftGroups = HashMap<String, Vec<(TermId, u32)>>;

/// A datatype group: its parameters, declarations and the sorts its fields name.
type Group = (Vec<String>, Vec<DatatypeDecl>, Vec<model::SortId>);

/// What the lowering knows of a solver.
#[derive(Clone, Default)]
struct SolverInfo {
    ctx: String,
    /// The assertions by scope.
    scopes: Vec<Vec<TermId>>,
    /// The variable of its last check's answer.
    last: Option<String>,
    /// The recorded answer of the last check, where the trace records one.
    last_recorded: Option<SatResult>,
    assumptions: Vec<TermId>,
    /// The formula of its last check (assertions and assumptions).
    checked: Option<std::collections::BTreeSet<TermId>>,
    tracked: bool,
    rlimit: Option<u64>,
}

impl SolverInfo {
    fn assertions(&self) -> Vec<TermId> {
        self.scopes.iter().flatten().copied().collect()
    }
}

/// The left side of an equation written into a model built by hand.
#[derive(Clone, PartialEq, Eq)]
enum HandLeft {
    Const(TermId),
    App(model::FuncId, Vec<TermId>),
}

#[derive(Clone, Default)]
struct OptInfo {
    hard: Vec<TermId>,
    /// The objectives in the order they were made: a term and its direction, or a soft group.
    objectives: Vec<(Option<(TermId, Direction)>, String)>,
    soft: SoftGroups,
    /// What each `opt_push` saw, restored by its `opt_pop`.
    scopes: Vec<(usize, usize, SoftGroups)>,
}

struct Lower {
    program: Program,
    state: State,
    table: Table,
    /// The context of every object variable.
    ctx_of: HashMap<String, String>,
    solvers: HashMap<SolverId, SolverInfo>,
    /// A model's context and premises (the assertions and assumptions of its check).
    models: HashMap<ModelId, (String, Vec<TermId>)>,
    opts: HashMap<OptId, OptInfo>,
    translated: HashMap<(TermId, String), String>,
    /// The first variable of each sort.
    sort_vars: HashMap<Sort, String>,
    datatypes: HashMap<String, Group>,
    literals: HashMap<TermId, (Sort, String)>,
    simplified_from: HashMap<TermId, TermId>,
    applied: HashMap<model::call::GoalId, String>,
    /// What was written into each model built by hand: its equations (a constant or a
    /// function applied to an entry's arguments, and the value), the last one for the same
    /// left side counting (as `model_read` judges it).
    hand_written: HashMap<ModelId, Vec<(HandLeft, TermId)>>,
    param_kinds: Rc<HashMap<String, ParamKind>>,
    n_fresh: u32,
    n_contexts: u32,
    version: String,
}

/// The program of `trace` (named `source` in messages).
pub fn lower(source: &str, trace: &Trace) -> Program {
    let table = Table::for_version("4.8.12.0").expect("the 4.8.12 table is compiled in");
    let version = trace
        .z3_version
        .clone()
        .unwrap_or_else(|| "(version not recorded)".into());
    let mut l = Lower {
        program: Program {
            source: source.to_string(),
            z3_version: trace.z3_version.clone(),
            ..Program::default()
        },
        state: State::new(),
        table,
        ctx_of: HashMap::new(),
        solvers: HashMap::new(),
        models: HashMap::new(),
        hand_written: HashMap::new(),
        opts: HashMap::new(),
        translated: HashMap::new(),
        sort_vars: HashMap::new(),
        datatypes: HashMap::new(),
        literals: HashMap::new(),
        simplified_from: HashMap::new(),
        applied: HashMap::new(),
        param_kinds: crate::executor::solver_param_kinds(),
        n_fresh: 0,
        n_contexts: 0,
        version,
    };
    l.step(Step::Line("the main context".into()));
    l.new_context(MAIN, &[]);
    for entry in &trace.entries {
        let line = model::trace::text::format_call(&entry.call);
        l.step(Step::Line(line.clone()));
        let start = l.program.steps.len();
        let ret = match &entry.ret {
            Some(r) => Some(r.clone()),
            None => l.state.fresh(entry.call.ret_kind()).map(Ret::Id),
        };
        let bind = match &ret {
            Some(Ret::Id(id)) => Some(id.to_string()),
            _ => None,
        };
        l.call(&entry.call, bind.as_deref(), ret.as_ref());
        if let Some(Ret::Error(message)) = &entry.ret {
            l.refused(start, message);
        }
        let for_state = match &entry.ret {
            Some(Ret::Error(_)) => entry.ret.as_ref(),
            _ => ret.as_ref(),
        };
        if l.state.apply(&entry.call, for_state).is_err() {
            l.program
                .unexpressed
                .push(format!("`{line}`: the reference state refuses it"));
        }
        if let (Some(Ret::Id(AnyId::Sort(s))), false) =
            (&ret, matches!(entry.ret, Some(Ret::Error(_))))
        {
            if let Some(sort) = l.state.sorts.get(s) {
                l.sort_vars
                    .entry(sort.clone())
                    .or_insert_with(|| s.to_string());
            }
        }
    }
    l.program
}

fn sym(s: &str) -> Arg {
    Arg::Sym(s.to_string())
}

fn var(s: &str) -> Arg {
    Arg::Var(s.to_string())
}

impl Lower {
    fn step(&mut self, step: Step) {
        self.program.steps.push(step);
    }

    fn fresh(&mut self, prefix: &str) -> String {
        self.n_fresh += 1;
        format!("{prefix}{}", self.n_fresh)
    }

    fn note(&mut self, text: String) {
        self.step(Step::Note(text.clone()));
        self.program.unexpressed.push(text);
    }

    /// A Z3 call in `ctx` binding `bind` (of type `ty`, owned by `owner`: where its
    /// reference is counted), with the reference taken right after.
    fn emit_owned(
        &mut self,
        func: &str,
        ctx: Option<&str>,
        args: Vec<Arg>,
        bind: Option<(&str, Ty)>,
        owner: Option<&str>,
    ) {
        let bind_var = bind.map(|(name, ty)| Var {
            name: name.to_string(),
            ty,
        });
        self.step(Step::Call(Z3Call {
            func: func.to_string(),
            args,
            bind: bind_var.clone(),
            ctx: ctx.map(str::to_string),
            on_error: OnError::Finding,
        }));
        if let Some(v) = bind_var {
            let owner = owner.or(ctx).unwrap_or(MAIN).to_string();
            self.ctx_of.insert(v.name.clone(), owner.clone());
            if let Some((inc, cast)) = v.ty.inc_ref() {
                let arg = match cast {
                    Some(f) => Arg::Conv(f, v.name.clone()),
                    None => Arg::Var(v.name.clone()),
                };
                self.step(Step::Call(Z3Call {
                    func: inc.to_string(),
                    args: vec![var(&owner), arg],
                    bind: None,
                    ctx: Some(owner),
                    on_error: OnError::Finding,
                }));
            }
        }
    }

    /// The Int constant and body of `fset_map`'s lambda (`map`: MUL·x + ADD, from `a` and
    /// `b`) or `fset_filter`'s (LOW <= x <= HIGH).
    fn fset_lambda_body(&mut self, map: bool, a: i32, b: i32) -> (String, String) {
        let int = self.fresh("int");
        self.emit("Z3_mk_int_sort", MAIN, vec![], Some((&int, Ty::Sort)));
        let x = self.fresh("x");
        let args = vec![Arg::Str("x".into()), var(&int)];
        self.emit("Z3_mk_fresh_const", MAIN, args, Some((&x, Ty::Ast)));
        let (na, nb) = (self.fresh("n"), self.fresh("n"));
        for (n, v) in [(&na, a), (&nb, b)] {
            let args = vec![Arg::Int(i64::from(v)), var(&int)];
            self.emit("Z3_mk_int", MAIN, args, Some((n, Ty::Ast)));
        }
        let body = self.fresh("body");
        let pair = |f: &str, g: &str| Arg::Array(Ty::Ast, vec![var(f), var(g)]);
        if map {
            let product = self.fresh("product");
            let args = vec![Arg::Uint(2), pair(&nb, &x)];
            self.emit("Z3_mk_mul", MAIN, args, Some((&product, Ty::Ast)));
            let args = vec![Arg::Uint(2), pair(&product, &na)];
            self.emit("Z3_mk_add", MAIN, args, Some((&body, Ty::Ast)));
        } else {
            let (above, below) = (self.fresh("above"), self.fresh("below"));
            self.emit(
                "Z3_mk_le",
                MAIN,
                vec![var(&na), var(&x)],
                Some((&above, Ty::Ast)),
            );
            self.emit(
                "Z3_mk_le",
                MAIN,
                vec![var(&x), var(&nb)],
                Some((&below, Ty::Ast)),
            );
            let args = vec![Arg::Uint(2), pair(&above, &below)];
            self.emit("Z3_mk_and", MAIN, args, Some((&body, Ty::Ast)));
        }
        (x, body)
    }

    /// `function` (`Z3_mk_finite_set_map` or `_filter`) of the lambda of `x` and `body` and
    /// the set, bound to `b`.
    fn fset_apply(&mut self, function: &str, (x, body): (String, String), set: TermId, b: &str) {
        let lambda = self.fresh("lambda");
        let args = vec![
            Arg::Uint(1),
            Arg::Array(Ty::App, vec![Arg::Conv("Z3_to_app", x)]),
            var(&body),
        ];
        self.emit("Z3_mk_lambda_const", MAIN, args, Some((&lambda, Ty::Ast)));
        let args = vec![var(&lambda), Arg::Var(set.to_string())];
        self.emit(function, MAIN, args, Some((b, Ty::Ast)));
        self.ctx_of.insert(b.to_string(), MAIN.into());
    }

    /// `seq_hof`: the lambda `(+ (* MUL x) ADD p...)` over fresh Int constants, made with
    /// `Z3_mk_lambda_const` as the executor makes it, then the function of the lambda and the
    /// terms, bound to `b`.
    fn seq_hof(
        &mut self,
        hof: &model::seq_hof::SeqHof,
        terms: &[TermId],
        add: i32,
        mul: i32,
        b: &str,
    ) {
        let int = self.fresh("int");
        self.emit("Z3_mk_int_sort", MAIN, vec![], Some((&int, Ty::Sort)));
        let mut params = Vec::new();
        for p in hof.params {
            let v = self.fresh(p);
            let args = vec![Arg::Str((*p).into()), var(&int)];
            self.emit("Z3_mk_fresh_const", MAIN, args, Some((&v, Ty::Ast)));
            params.push(v);
        }
        let (na, nm) = (self.fresh("n"), self.fresh("n"));
        for (n, v) in [(&na, add), (&nm, mul)] {
            let args = vec![Arg::Int(i64::from(v)), var(&int)];
            self.emit("Z3_mk_int", MAIN, args, Some((n, Ty::Ast)));
        }
        let x = params
            .last()
            .expect("every operation has the element parameter");
        let product = self.fresh("product");
        let args = vec![Arg::Uint(2), Arg::Array(Ty::Ast, vec![var(&nm), var(x)])];
        self.emit("Z3_mk_mul", MAIN, args, Some((&product, Ty::Ast)));
        let mut summands = vec![var(&product), var(&na)];
        summands.extend(params[..params.len() - 1].iter().map(|p| var(p)));
        let body = self.fresh("body");
        let args = vec![
            Arg::Uint(summands.len() as u64),
            Arg::Array(Ty::Ast, summands),
        ];
        self.emit("Z3_mk_add", MAIN, args, Some((&body, Ty::Ast)));
        let lambda = self.fresh("lambda");
        let bound: Vec<Arg> = params
            .iter()
            .map(|p| Arg::Conv("Z3_to_app", p.clone()))
            .collect();
        let args = vec![
            Arg::Uint(bound.len() as u64),
            Arg::Array(Ty::App, bound),
            var(&body),
        ];
        self.emit("Z3_mk_lambda_const", MAIN, args, Some((&lambda, Ty::Ast)));
        let mut call_args = vec![var(&lambda)];
        call_args.extend(terms.iter().map(|t| Arg::Var(t.to_string())));
        self.emit(hof.function, MAIN, call_args, Some((b, Ty::Ast)));
        self.ctx_of.insert(b.to_string(), MAIN.into());
    }

    fn emit(&mut self, func: &str, ctx: &str, mut args: Vec<Arg>, bind: Option<(&str, Ty)>) {
        args.insert(0, var(ctx));
        self.emit_owned(func, Some(ctx), args, bind, None);
    }

    /// Marks the calls of the entry that starts at `start` as refused with `message`: the last
    /// call that is no reference count must meet a refusal, and binds nothing.
    fn refused(&mut self, start: usize, message: &str) {
        let steps = &mut self.program.steps;
        let main = (start..steps.len())
            .rev()
            .find(|i| matches!(&steps[*i], Step::Call(c) if !c.func.ends_with("inc_ref")));
        let Some(main) = main else { return };
        if let Step::Call(c) = &mut steps[main] {
            c.on_error = OnError::Recorded(message.to_string());
            if let Some(bound) = c.bind.take() {
                steps.retain(|s| {
                    !matches!(s, Step::Call(c) if c.func.ends_with("inc_ref")
                        && c.args.iter().any(|a| matches!(a, Arg::Var(v) | Arg::Conv(_, v) if *v == bound.name)))
                });
            }
        }
    }

    fn new_context(&mut self, name: &str, config: &[(String, String)]) {
        let cfg = format!("cfg_{name}");
        self.emit_owned("Z3_mk_config", None, vec![], Some((&cfg, Ty::Config)), None);
        for (k, v) in config {
            self.emit_owned(
                "Z3_set_param_value",
                None,
                vec![var(&cfg), Arg::Str(k.clone()), Arg::Str(v.clone())],
                None,
                None,
            );
        }
        self.emit_owned(
            "Z3_mk_context_rc",
            None,
            vec![var(&cfg)],
            Some((name, Ty::Context)),
            None,
        );
        self.emit_owned("Z3_del_config", None, vec![var(&cfg)], None, None);
        self.emit_owned(
            "Z3_set_error_handler",
            Some(name),
            vec![var(name), Arg::Null],
            None,
            None,
        );
    }

    fn fresh_context(&mut self, config: &[(String, String)]) -> String {
        self.n_contexts += 1;
        let name = format!("ctx{}", self.n_contexts + 1);
        self.new_context(&name, config);
        name
    }

    fn ctx(&self, var: &str) -> String {
        self.ctx_of.get(var).cloned().unwrap_or_else(|| MAIN.into())
    }

    /// The term `t` in context `ctx` (translated there once, as the executor does for a
    /// solver or model of another context).
    /// The first cube of a default solver of solver `z`'s context given `z`'s assertions
    /// (with `rlimit`, when given), as the executor's cube and `check_cubes` ask it; false
    /// when `z` is unknown.
    fn first_cube(&mut self, z: SolverId, rlimit: Option<u64>) -> bool {
        let Some(info) = self.solvers.get(&z).cloned() else {
            return false;
        };
        let ctx = info.ctx.clone();
        let cuber = self.fresh("solver");
        self.emit("Z3_mk_solver", &ctx, vec![], Some((&cuber, Ty::Solver)));
        if let Some(rlimit) = rlimit {
            let p = self.fresh("params");
            self.emit("Z3_mk_params", &ctx, vec![], Some((&p, Ty::Params)));
            let limit = vec![var(&p), sym("rlimit"), Arg::Uint(rlimit)];
            self.emit("Z3_params_set_uint", &ctx, limit, None);
            self.emit(
                "Z3_solver_set_params",
                &ctx,
                vec![var(&cuber), var(&p)],
                None,
            );
        }
        for t in info.assertions() {
            let t = self.term_in(t, &ctx);
            self.emit("Z3_solver_assert", &ctx, vec![var(&cuber), var(&t)], None);
        }
        let vars = self.fresh("vector");
        self.emit(
            "Z3_mk_ast_vector",
            &ctx,
            vec![],
            Some((&vars, Ty::AstVector)),
        );
        let cube = self.fresh("cube");
        let args = vec![var(&cuber), var(&vars), Arg::Uint(u64::from(u32::MAX))];
        self.emit("Z3_solver_cube", &ctx, args, Some((&cube, Ty::AstVector)));
        true
    }

    fn term_in(&mut self, t: TermId, ctx: &str) -> String {
        if ctx == MAIN {
            return t.to_string();
        }
        if let Some(v) = self.translated.get(&(t, ctx.to_string())) {
            return v.clone();
        }
        let name = format!("{t}_{ctx}");
        self.emit_owned(
            "Z3_translate",
            Some(MAIN),
            vec![var(MAIN), Arg::Var(t.to_string()), var(ctx)],
            Some((&name, Ty::Ast)),
            Some(ctx),
        );
        self.translated.insert((t, ctx.to_string()), name.clone());
        name
    }

    /// A call that is its description's one Z3 function with the call's arguments, as
    /// `executor::plain` fills its parameters; terms go into the context of the call's first
    /// object of another context.
    fn direct(&mut self, call: &Call, bind: Option<&str>) -> Option<String> {
        let lowered = plain::lowered(call, &self.table)?;
        let ctx = lowered
            .ctx_object
            .map(|id| self.ctx(&id.to_string()))
            .unwrap_or_else(|| MAIN.into());
        let mut args = Vec::new();
        let mut out = None;
        for param in lowered.params {
            args.push(match param {
                Param::Obj(AnyId::Term(t)) => Arg::Var(self.term_in(t, &ctx)),
                Param::Obj(id) => Arg::Var(id.to_string()),
                Param::Objs(ids, ty) => {
                    let elems = ids
                        .into_iter()
                        .map(|id| match id {
                            AnyId::Term(t) => Arg::Var(self.term_in(t, &ctx)),
                            other => Arg::Var(other.to_string()),
                        })
                        .collect();
                    Arg::Array(ty, elems)
                }
                Param::Size(n) | Param::Uint(n) => Arg::Uint(n),
                Param::Int(n) => Arg::Int(n),
                Param::Bool(b) => Arg::Bool(b),
                Param::Str(s) => Arg::Str(s),
                Param::Sym(s) => Arg::Sym(s),
                Param::Out(ty) => {
                    let name = self.fresh("out");
                    out = Some(name.clone());
                    Arg::Out(Var { name, ty })
                }
            });
        }
        let result = lowered.result.map(|ty| {
            let name = match (bind, ty) {
                (
                    Some(b),
                    Ty::Ast
                    | Ty::Sort
                    | Ty::FuncDecl
                    | Ty::Solver
                    | Ty::Model
                    | Ty::Tactic
                    | Ty::Goal
                    | Ty::Optimize
                    | Ty::RcfNum,
                ) => b.to_string(),
                _ => self.fresh("res"),
            };
            (name, ty)
        });
        self.emit(
            &lowered.function.name,
            &ctx,
            args,
            result.as_ref().map(|(n, t)| (n.as_str(), *t)),
        );
        // Some(""): made, with nothing bound.
        Some(result.map(|(n, _)| n).or(out).unwrap_or_default())
    }

    fn expect_direct(&mut self, call: &Call, bind: Option<&str>) -> Option<String> {
        let made = self.direct(call, bind);
        if made.is_none() {
            self.note(format!(
                "`{}`: its Z3 function's parameters do not take its arguments",
                call.name()
            ));
        }
        made
    }

    /// The oracle's condition that `a` and `b` (terms of the main context) are equal by `eq`
    /// (`Z3_mk_eq`, `Z3_mk_fpa_eq`) as Z3 simplifies it: a finding (exit 5) with `message`
    /// when the equality simplifies to false.
    fn fails_unless_equal(&mut self, eq: &str, a: &str, b: &str, message: String) {
        let equal = self.fresh("term");
        self.emit(eq, MAIN, vec![var(a), var(b)], Some((&equal, Ty::Ast)));
        let simp = self.fresh("term");
        self.emit(
            "Z3_simplify",
            MAIN,
            vec![var(&equal)],
            Some((&simp, Ty::Ast)),
        );
        self.step(Step::Fail {
            cond: Cond::IsFalse {
                ctx: MAIN.into(),
                ast: simp,
            },
            exit: 5,
            message,
        });
    }

    /// Compares an answer with the recorded one.
    fn answer(&mut self, var: &str, ret: Option<&Ret>) {
        if let Some(Ret::Sat(expected)) = ret {
            let message = format!(
                "expected {}, as Z3 {} answered when the trace was recorded",
                expected.name(),
                self.version
            );
            self.step(Step::Fail {
                cond: Cond::AnswerIsNot(var.to_string(), *expected),
                exit: 1,
                message,
            });
        }
    }

    fn params(
        &mut self,
        ctx: &str,
        pairs: &[(String, String)],
        kinds: &dyn Fn(&str) -> ParamKind,
    ) -> String {
        let p = self.fresh("params");
        self.emit("Z3_mk_params", ctx, vec![], Some((&p, Ty::Params)));
        for (key, value) in pairs {
            let as_bool = match value.as_str() {
                "true" => Some(true),
                "false" => Some(false),
                _ => None,
            };
            let kind = kinds(key);
            let (func, v) = match (kind, as_bool, value.parse::<u32>(), value.parse::<f64>()) {
                (ParamKind::Bool, Some(b), _, _) => ("Z3_params_set_bool", Arg::Bool(b)),
                (ParamKind::Uint, _, Ok(n), _) => ("Z3_params_set_uint", Arg::Uint(u64::from(n))),
                (ParamKind::Double, _, _, Ok(d)) => ("Z3_params_set_double", Arg::Double(d)),
                (ParamKind::Symbol | ParamKind::String, _, _, _) => {
                    ("Z3_params_set_symbol", sym(value))
                }
                (_, Some(b), _, _) => ("Z3_params_set_bool", Arg::Bool(b)),
                (_, _, Ok(n), _) => ("Z3_params_set_uint", Arg::Uint(u64::from(n))),
                (_, _, _, Ok(d)) => ("Z3_params_set_double", Arg::Double(d)),
                _ => ("Z3_params_set_symbol", sym(value)),
            };
            self.emit(func, ctx, vec![var(&p), sym(key), v], None);
        }
        p
    }

    fn solver_kind_of(&self, key: &str) -> ParamKind {
        let bare = key.split_once('.').map(|(_, rest)| rest);
        std::iter::once(key)
            .chain(bare)
            .find_map(|name| self.param_kinds.get(name).copied())
            .unwrap_or(ParamKind::Other)
    }

    fn new_solver_info(&mut self, z: &str, ctx: &str) {
        if let Ok(id) = z[1..].parse() {
            self.solvers.insert(
                SolverId(id),
                SolverInfo {
                    ctx: ctx.to_string(),
                    scopes: vec![Vec::new()],
                    ..SolverInfo::default()
                },
            );
        }
    }

    /// A solver of the `smt` tactic with a resource limit (`raw_solver::reference_solver`).
    fn reference_solver(&mut self, ctx: &str, rlimit: Option<u64>) -> String {
        let k = self.fresh("tactic");
        self.emit(
            "Z3_mk_tactic",
            ctx,
            vec![Arg::Str("smt".into())],
            Some((&k, Ty::Tactic)),
        );
        let z = self.fresh("solver");
        self.emit(
            "Z3_mk_solver_from_tactic",
            ctx,
            vec![var(&k)],
            Some((&z, Ty::Solver)),
        );
        if let Some(limit) = rlimit {
            let p = self.fresh("params");
            self.emit("Z3_mk_params", ctx, vec![], Some((&p, Ty::Params)));
            self.emit(
                "Z3_params_set_uint",
                ctx,
                vec![var(&p), sym("rlimit"), Arg::Uint(limit)],
                None,
            );
            self.emit("Z3_solver_set_params", ctx, vec![var(&z), var(&p)], None);
        }
        z
    }

    fn lbool(&mut self, func: &str, ctx: &str, args: Vec<Arg>) -> String {
        let r = self.fresh("res");
        self.emit(func, ctx, args, Some((&r, Ty::Lbool)));
        r
    }

    fn call(&mut self, call: &Call, bind: Option<&str>, ret: Option<&Ret>) {
        let b = bind.unwrap_or("unbound");
        match call {
            Call::SortBool
            | Call::SortInt
            | Call::SortReal
            | Call::SortBv(_)
            | Call::SortFp(..)
            | Call::SortSet(_)
            | Call::SortRm
            | Call::SortString
            | Call::SortArray(..)
            | Call::SortSeq(_)
            | Call::SortUninterpreted(_)
            | Call::Const { .. }
            | Call::Fun { .. }
            | Call::RecFun { .. }
            | Call::RecDef { .. }
            | Call::Relation { .. }
            | Call::TransitiveClosure(_)
            | Call::NewModel
            | Call::Apply { .. }
            | Call::Simplify(_)
            | Call::Var { .. }
            | Call::GoalAssert(..)
            | Call::NewOptimize
            | Call::OptAssert(..)
            | Call::OptPush(_)
            | Call::OptPop(_)
            | Call::OptGetModel(_)
            | Call::FromString(..)
            | Call::GetUnsatCore(_)
            | Call::OptBound { .. }
            | Call::RcfMk(_)
            | Call::RcfArith { .. }
            | Call::RcfNeg(_)
            | Call::RcfInv(_)
            | Call::RcfPower(..)
            | Call::RcfCompare { .. }
            | Call::RcfToString { .. }
            | Call::RcfToDecimal(..)
            | Call::AlgebraicArith { .. }
            | Call::AlgebraicPower(..)
            | Call::AlgebraicRoot(..)
            | Call::AlgebraicCompare { .. }
            | Call::AlgebraicSign(_)
            | Call::AlgebraicIs { .. } => {
                self.expect_direct(call, bind);
                if let (Call::Simplify(from), Some(b)) = (call, bind) {
                    if let Ok(n) = b[1..].parse() {
                        self.simplified_from.insert(TermId(n), *from);
                    }
                }
                {
                    if let Call::OptAssert(o, t) = call {
                        self.opts.entry(*o).or_default().hard.push(*t);
                    }
                    if let Call::OptPush(o) = call {
                        let info = self.opts.entry(*o).or_default();
                        let mark = (info.hard.len(), info.objectives.len(), info.soft.clone());
                        info.scopes.push(mark);
                    }
                    if let Call::OptPop(o) = call {
                        let info = self.opts.entry(*o).or_default();
                        if let Some((hard, objectives, soft)) = info.scopes.pop() {
                            info.hard.truncate(hard);
                            info.objectives.truncate(objectives);
                            info.soft = soft;
                        }
                    }
                    if let Call::OptGetModel(o) = call {
                        if let Ok(m) = b[1..].parse() {
                            let ctx = self.ctx(&o.to_string());
                            self.models.insert(ModelId(m), (ctx, Vec::new()));
                        }
                    }
                    if let (Call::NewModel, Ok(m)) = (call, b[1..].parse()) {
                        self.models
                            .insert(ModelId(m), (MAIN.to_string(), Vec::new()));
                    }
                    if let Call::FromString(z, _) = call {
                        if let Some(s) = self.solvers.get_mut(z) {
                            s.last = None;
                        }
                    }
                }
            }
            model::plain_call!() => {
                self.expect_direct(call, bind);
            }
            Call::SortArrayN { domain, range } => {
                let sorts = domain.iter().map(|s| Arg::Var(s.to_string())).collect();
                let args = vec![
                    Arg::Uint(domain.len() as u64),
                    Arg::Array(Ty::Sort, sorts),
                    Arg::Var(range.to_string()),
                ];
                self.emit("Z3_mk_array_sort_n", MAIN, args, Some((b, Ty::Sort)));
            }
            Call::SortRe(s) => {
                let args = vec![Arg::Var(s.to_string())];
                self.emit("Z3_mk_re_sort", MAIN, args, Some((b, Ty::Sort)));
            }
            // Z3 takes the divisor as a numeral term.
            Call::Divides { divisor, term } => {
                let (int, n) = (self.fresh("int"), self.fresh("n"));
                self.emit("Z3_mk_int_sort", MAIN, vec![], Some((&int, Ty::Sort)));
                let args = vec![Arg::Uint(u64::from(*divisor)), var(&int)];
                self.emit("Z3_mk_unsigned_int", MAIN, args, Some((&n, Ty::Ast)));
                let args = vec![var(&n), Arg::Var(term.to_string())];
                self.emit("Z3_mk_divides", MAIN, args, Some((b, Ty::Ast)));
                self.ctx_of.insert(b.to_string(), MAIN.into());
            }
            Call::ConstIntSym { index, sort } => {
                let sym = self.fresh("sym");
                let args = vec![Arg::Int(i64::from(*index))];
                self.emit("Z3_mk_int_symbol", MAIN, args, Some((&sym, Ty::Symbol)));
                let args = vec![var(&sym), Arg::Var(sort.to_string())];
                self.emit("Z3_mk_const", MAIN, args, Some((b, Ty::Ast)));
                self.ctx_of.insert(b.to_string(), MAIN.into());
                self.step(Step::Note("the suite reads the constant's name back (Z3_get_symbol_kind, Z3_get_symbol_int)".into()));
            }
            Call::FunIntSym {
                index,
                domain,
                range,
            } => {
                let sym = self.fresh("sym");
                let args = vec![Arg::Int(i64::from(*index))];
                self.emit("Z3_mk_int_symbol", MAIN, args, Some((&sym, Ty::Symbol)));
                let sorts = domain.iter().map(|s| Arg::Var(s.to_string())).collect();
                let args = vec![
                    var(&sym),
                    Arg::Uint(domain.len() as u64),
                    Arg::Array(Ty::Sort, sorts),
                    Arg::Var(range.to_string()),
                ];
                self.emit("Z3_mk_func_decl", MAIN, args, Some((b, Ty::FuncDecl)));
                self.step(Step::Note("the suite reads the function's name back (Z3_get_symbol_kind, Z3_get_symbol_int)".into()));
            }
            Call::FreshFunc {
                prefix,
                domain,
                range,
            } => {
                let sorts = domain.iter().map(|s| Arg::Var(s.to_string())).collect();
                let args = vec![
                    Arg::Str(prefix.clone()),
                    Arg::Uint(domain.len() as u64),
                    Arg::Array(Ty::Sort, sorts),
                    Arg::Var(range.to_string()),
                ];
                self.emit("Z3_mk_fresh_func_decl", MAIN, args, Some((b, Ty::FuncDecl)));
                self.step(Step::Note(
                    "the suite judges the function's name (its prefix), domain and range".into(),
                ));
            }
            Call::UpdateTerm { term, args } => {
                let a = args.iter().map(|t| Arg::Var(t.to_string())).collect();
                let args = vec![
                    Arg::Var(term.to_string()),
                    Arg::Uint(args.len() as u64),
                    Arg::Array(Ty::Ast, a),
                ];
                self.emit("Z3_update_term", MAIN, args, Some((b, Ty::Ast)));
                self.ctx_of.insert(b.to_string(), MAIN.into());
                self.step(Step::Note("the suite compares the result with the term's declaration applied to the new arguments (Z3_mk_app, Z3_is_eq_ast)".into()));
            }
            Call::ToSmt2(z) => {
                self.dump_text(&z.to_string());
            }
            // The constant's declaration is its application's (`Z3_get_app_decl`).
            Call::ModelConst {
                model,
                constant,
                value,
            } => {
                self.hand_write(*model, HandLeft::Const(*constant), *value);
                let d = self.fresh("decl");
                self.emit(
                    "Z3_get_app_decl",
                    MAIN,
                    vec![Arg::Conv("Z3_to_app", constant.to_string())],
                    Some((&d, Ty::FuncDecl)),
                );
                self.emit(
                    "Z3_add_const_interp",
                    MAIN,
                    vec![
                        Arg::Var(model.to_string()),
                        var(&d),
                        Arg::Var(value.to_string()),
                    ],
                    None,
                );
            }
            // The function's table: Z3_add_func_interp with the else value (the
            // interpretation belongs to the model), each entry's arguments in a vector.
            Call::ModelFunc {
                model,
                func,
                default,
                entries,
            } => {
                let fi = self.fresh("interp");
                self.emit(
                    "Z3_add_func_interp",
                    MAIN,
                    vec![
                        Arg::Var(model.to_string()),
                        Arg::Var(func.to_string()),
                        Arg::Var(default.to_string()),
                    ],
                    Some((&fi, Ty::Opaque)),
                );
                // An object Z3 hands out unreferenced is released by its next call.
                self.emit("Z3_func_interp_inc_ref", MAIN, vec![var(&fi)], None);
                let width = self
                    .state
                    .funcs
                    .get(func)
                    .map_or(entries.len().max(1), |(domain, _)| domain.len() + 1);
                for row in entries.chunks(width).filter(|r| r.len() == width) {
                    let left = HandLeft::App(*func, row[..width - 1].to_vec());
                    self.hand_write(*model, left, row[width - 1]);
                    let v = self.fresh("args");
                    self.emit("Z3_mk_ast_vector", MAIN, vec![], Some((&v, Ty::AstVector)));
                    for a in &row[..width - 1] {
                        self.emit(
                            "Z3_ast_vector_push",
                            MAIN,
                            vec![var(&v), Arg::Var(a.to_string())],
                            None,
                        );
                    }
                    self.emit(
                        "Z3_func_interp_add_entry",
                        MAIN,
                        vec![var(&fi), var(&v), Arg::Var(row[width - 1].to_string())],
                        None,
                    );
                }
                self.emit(
                    "Z3_func_interp_set_else",
                    MAIN,
                    vec![var(&fi), Arg::Var(default.to_string())],
                    None,
                );
                self.emit("Z3_func_interp_dec_ref", MAIN, vec![var(&fi)], None);
            }
            Call::Delete(z) => {
                let z = z.to_string();
                let ctx = self.ctx(&z);
                self.emit("Z3_solver_dec_ref", &ctx, vec![var(&z)], None);
            }
            Call::RcfRoots(_) => {
                // The roots' out-array is not expressed; the count is no condition.
                self.note("`rcf_roots`: Z3_rcf_mk_roots's out-array is not expressed".into());
            }
            Call::RcfRoot { .. } => {
                // Root I in increasing order needs the out-array and a sort by Z3_rcf_lt,
                // neither of which the writers express: a stand-in keeps the later calls.
                self.note(
                    "`rcf_root`: stood in for by Z3_rcf_mk_small_int 0 (the roots' out-array \
                     and their order are not expressed)"
                        .into(),
                );
                self.emit(
                    "Z3_rcf_mk_small_int",
                    MAIN,
                    vec![Arg::Int(0)],
                    Some((b, Ty::RcfNum)),
                );
            }
            Call::RcfNumDen { num, denominator } => {
                let other = self.fresh("rcf");
                let (n, d) = if *denominator {
                    (other.clone(), b.to_string())
                } else {
                    (b.to_string(), other.clone())
                };
                let out = |name: String| {
                    Arg::Out(Var {
                        name,
                        ty: Ty::RcfNum,
                    })
                };
                self.emit(
                    "Z3_rcf_get_numerator_denominator",
                    MAIN,
                    vec![var(&num.to_string()), out(n), out(d)],
                    None,
                );
                self.emit("Z3_rcf_del", MAIN, vec![var(&other)], None);
            }
            Call::Release(AnyId::Rcf(r)) => {
                self.emit("Z3_rcf_del", MAIN, vec![var(&r.to_string())], None);
            }
            Call::Release(id) => {
                let (ty, name) = match id {
                    AnyId::Sort(s) => (Ty::Sort, s.to_string()),
                    AnyId::Term(t) => (Ty::Ast, t.to_string()),
                    AnyId::Func(f) => (Ty::FuncDecl, f.to_string()),
                    AnyId::Solver(z) => (Ty::Solver, z.to_string()),
                    AnyId::Model(m) => (Ty::Model, m.to_string()),
                    AnyId::Tactic(k) => (Ty::Tactic, k.to_string()),
                    AnyId::Goal(g) => (Ty::Goal, g.to_string()),
                    AnyId::Opt(o) => (Ty::Optimize, o.to_string()),
                    AnyId::Rcf(r) => (Ty::RcfNum, r.to_string()),
                };
                // The executor keeps released terms for its checks; the program lets them go.
                if let Some((dec, cast)) = ty.dec_ref() {
                    let ctx = self.ctx(&name);
                    let arg = match cast {
                        Some(f) => Arg::Conv(f, name),
                        None => Arg::Var(name),
                    };
                    self.emit(dec, &ctx, vec![arg], None);
                }
            }
            Call::Lit { sort, value } => {
                let Ok(model_sort) = self.state.sort(*sort).cloned() else {
                    return;
                };
                let s = sort.to_string();
                if let Ok(n) = b[1..].parse() {
                    self.literals
                        .insert(TermId(n), (model_sort.clone(), value.clone()));
                }
                let bind = Some((b, Ty::Ast));
                match &model_sort {
                    Sort::Bool if value == "true" => self.emit("Z3_mk_true", MAIN, vec![], bind),
                    Sort::Bool => self.emit("Z3_mk_false", MAIN, vec![], bind),
                    Sort::Int | Sort::BitVec(_) => self.emit(
                        "Z3_mk_numeral",
                        MAIN,
                        vec![Arg::Str(value.clone()), var(&s)],
                        bind,
                    ),
                    Sort::Real => {
                        let (num, den) = model::call_text::real_parts(value)
                            .unwrap_or((value.clone(), "1".into()));
                        self.emit(
                            "Z3_mk_numeral",
                            MAIN,
                            vec![Arg::Str(format!("{num}/{den}")), var(&s)],
                            bind,
                        )
                    }
                    Sort::FloatingPoint(..) => match value.as_str() {
                        "nan" => self.emit("Z3_mk_fpa_nan", MAIN, vec![var(&s)], bind),
                        "+inf" | "-inf" => self.emit(
                            "Z3_mk_fpa_inf",
                            MAIN,
                            vec![var(&s), Arg::Bool(value == "-inf")],
                            bind,
                        ),
                        "+zero" | "-zero" => self.emit(
                            "Z3_mk_fpa_zero",
                            MAIN,
                            vec![var(&s), Arg::Bool(value == "-zero")],
                            bind,
                        ),
                        text => {
                            let v: f64 = text.parse().unwrap_or(f64::NAN);
                            self.emit(
                                "Z3_mk_fpa_numeral_double",
                                MAIN,
                                vec![Arg::Double(v), var(&s)],
                                bind,
                            )
                        }
                    },
                    Sort::RoundingMode => {
                        let func = match value.as_str() {
                            "RNE" => "Z3_mk_fpa_round_nearest_ties_to_even",
                            "RNA" => "Z3_mk_fpa_round_nearest_ties_to_away",
                            "RTP" => "Z3_mk_fpa_round_toward_positive",
                            "RTN" => "Z3_mk_fpa_round_toward_negative",
                            _ => "Z3_mk_fpa_round_toward_zero",
                        };
                        self.emit(func, MAIN, vec![], bind)
                    }
                    Sort::String => {
                        let text = crate::executor::z3_string_text(value);
                        self.emit("Z3_mk_string", MAIN, vec![Arg::Str(text)], bind)
                    }
                    Sort::Seq(_) => self.emit("Z3_mk_seq_empty", MAIN, vec![var(&s)], bind),
                    // A field element by its decimal value, as the executor makes it.
                    Sort::FiniteField(_) => self.emit(
                        "Z3_mk_numeral",
                        MAIN,
                        vec![Arg::Str(value.clone()), var(&s)],
                        bind,
                    ),
                    other => self.note(format!("`lit` of sort {other}: no constructor known")),
                }
            }
            Call::Op { op, indices, args } => {
                let sorts: Vec<Sort> = args
                    .iter()
                    .filter_map(|a| self.state.term(*a).ok().map(|t| t.sort.clone()))
                    .collect();
                let terms: Vec<Arg> = args.iter().map(|a| Arg::Var(a.to_string())).collect();
                self.op(op.spec(), indices, terms, &sorts, b);
            }
            Call::SimplifyWith { term, params } => {
                let p = self.fresh("params");
                self.emit("Z3_mk_params", MAIN, vec![], Some((&p, Ty::Params)));
                for (key, value) in params {
                    let (func, v) = match (value.as_str(), value.parse::<u32>()) {
                        ("true", _) => ("Z3_params_set_bool", Arg::Bool(true)),
                        ("false", _) => ("Z3_params_set_bool", Arg::Bool(false)),
                        (_, Ok(n)) => ("Z3_params_set_uint", Arg::Uint(u64::from(n))),
                        _ => ("Z3_params_set_symbol", sym(value)),
                    };
                    self.emit(func, MAIN, vec![var(&p), sym(key), v], None);
                }
                self.emit(
                    "Z3_simplify_ex",
                    MAIN,
                    vec![Arg::Var(term.to_string()), var(&p)],
                    Some((b, Ty::Ast)),
                );
                if let Ok(n) = b[1..].parse() {
                    self.simplified_from.insert(TermId(n), *term);
                }
            }
            Call::Substitute { term, pairs } => {
                let from = pairs.iter().map(|(a, _)| Arg::Var(a.to_string())).collect();
                let to = pairs.iter().map(|(_, c)| Arg::Var(c.to_string())).collect();
                self.emit(
                    "Z3_substitute",
                    MAIN,
                    vec![
                        Arg::Var(term.to_string()),
                        Arg::Uint(pairs.len() as u64),
                        Arg::Array(Ty::Ast, from),
                        Arg::Array(Ty::Ast, to),
                    ],
                    Some((b, Ty::Ast)),
                );
            }
            Call::NewSolver(kind) => {
                match kind {
                    SolverKind::Default => {
                        self.emit("Z3_mk_solver", MAIN, vec![], Some((b, Ty::Solver)))
                    }
                    SolverKind::Logic(logic) => self.emit(
                        "Z3_mk_solver_for_logic",
                        MAIN,
                        vec![sym(logic)],
                        Some((b, Ty::Solver)),
                    ),
                    SolverKind::Tactic(name) => {
                        let k = self.fresh("tactic");
                        self.emit(
                            "Z3_mk_tactic",
                            MAIN,
                            vec![Arg::Str(name.clone())],
                            Some((&k, Ty::Tactic)),
                        );
                        self.emit(
                            "Z3_mk_solver_from_tactic",
                            MAIN,
                            vec![var(&k)],
                            Some((b, Ty::Solver)),
                        );
                    }
                    SolverKind::FromTactic(k) => self.emit(
                        "Z3_mk_solver_from_tactic",
                        MAIN,
                        vec![Arg::Var(k.to_string())],
                        Some((b, Ty::Solver)),
                    ),
                }
                self.new_solver_info(b, MAIN);
            }
            Call::NewSolverConfig(config) => {
                let ctx = self.fresh_context(config);
                self.emit("Z3_mk_solver", &ctx, vec![], Some((b, Ty::Solver)));
                self.new_solver_info(b, &ctx);
            }
            Call::Translate(z) | Call::TranslateConfig { solver: z, .. } => {
                let config = if let Call::TranslateConfig { config, .. } = call {
                    config.clone()
                } else {
                    Vec::new()
                };
                let target = self.fresh_context(&config);
                let zs = z.to_string();
                let src = self.ctx(&zs);
                self.emit_owned(
                    "Z3_solver_translate",
                    Some(&src),
                    vec![var(&src), var(&zs), var(&target)],
                    Some((b, Ty::Solver)),
                    Some(&target),
                );
                let mut info = self.solvers.get(z).cloned().unwrap_or_default();
                info.ctx = target.clone();
                info.last = None;
                info.last_recorded = None;
                info.checked = None;
                if let Ok(id) = b[1..].parse() {
                    self.solvers.insert(SolverId(id), info);
                }
            }
            Call::SetParam { solver, key, value } => {
                let z = solver.to_string();
                let ctx = self.ctx(&z);
                let kinds = self.solver_kind_of(key);
                let p = self.params(&ctx, &[(key.clone(), value.clone())], &|_| kinds);
                self.emit("Z3_solver_set_params", &ctx, vec![var(&z), var(&p)], None);
                if key == "rlimit" {
                    if let Some(s) = self.solvers.get_mut(solver) {
                        s.rlimit = value.parse().ok();
                    }
                }
            }
            Call::SetGlobal { key, value } => {
                self.emit_owned(
                    "Z3_global_param_set",
                    None,
                    vec![Arg::Str(key.clone()), Arg::Str(value.clone())],
                    None,
                    None,
                );
            }
            Call::Cube(z) => {
                // As the executor asks it: a default solver of Z's context given Z's
                // assertions (the crate gives no raw handle of Z), the first cube.
                self.first_cube(*z, None);
            }
            Call::Push(z) | Call::Pop(z, _) | Call::Reset(z) | Call::GetProof(z) => {
                self.expect_direct(call, bind);
                if let Some(s) = self.solvers.get_mut(z) {
                    if let Call::Push(_) = call {
                        s.scopes.push(Vec::new());
                    } else if let Call::Pop(_, n) = call {
                        for _ in 0..*n {
                            if s.scopes.len() > 1 {
                                s.scopes.pop();
                            }
                        }
                    } else if let Call::Reset(_) = call {
                        s.scopes = vec![Vec::new()];
                        s.tracked = false;
                        s.last = None;
                    }
                }
            }
            Call::Assert(z, t)
            | Call::AssertAndTrack {
                solver: z, term: t, ..
            } => {
                self.expect_direct(call, bind);
                if let Some(s) = self.solvers.get_mut(z) {
                    if let Some(scope) = s.scopes.last_mut() {
                        scope.push(*t);
                    }
                    if matches!(call, Call::AssertAndTrack { .. }) {
                        s.tracked = true;
                    }
                }
            }
            Call::CheckSat(z) | Call::CheckSatAssuming(z, _) => {
                let r = self.expect_direct(call, bind);
                if let Some(r) = &r {
                    self.answer(r, ret);
                }
                if let Some(s) = self.solvers.get_mut(z) {
                    s.last = r;
                    s.last_recorded = match ret {
                        Some(Ret::Sat(a)) => Some(*a),
                        _ => None,
                    };
                    s.assumptions = if let Call::CheckSatAssuming(_, ts) = call {
                        ts.clone()
                    } else {
                        Vec::new()
                    };
                    let mut formula: std::collections::BTreeSet<TermId> =
                        s.assertions().into_iter().collect();
                    formula.extend(&s.assumptions);
                    s.checked = Some(formula);
                }
            }
            Call::GetModel(z) => {
                self.expect_direct(call, bind);
                if let (Some(s), Ok(m)) = (self.solvers.get(z), b[1..].parse()) {
                    let mut premises = s.assertions();
                    premises.extend(&s.assumptions);
                    self.models.insert(ModelId(m), (s.ctx.clone(), premises));
                }
            }
            Call::ModelEval {
                model,
                term,
                completion,
            } => {
                let ms = model.to_string();
                let ctx = self.ctx(&ms);
                let t = self.term_in(*term, &ctx);
                let v = self.fresh("value");
                let ok = self.fresh("res");
                self.emit(
                    "Z3_model_eval",
                    &ctx,
                    vec![
                        var(&ms),
                        var(&t),
                        Arg::Bool(*completion),
                        Arg::Out(Var {
                            name: v,
                            ty: Ty::Ast,
                        }),
                    ],
                    Some((&ok, Ty::Bool)),
                );
            }
            Call::DeclareDatatypes {
                path,
                params,
                datatypes,
            } => {
                let fields: Vec<model::SortId> = datatypes
                    .iter()
                    .flat_map(|d| &d.constructors)
                    .flat_map(|c| &c.fields)
                    .filter_map(|f| match f.sort {
                        FieldSort::Sort(id) => Some(id),
                        FieldSort::Datatype(_) | FieldSort::Param(_) => None,
                    })
                    .collect();
                for d in datatypes {
                    self.datatypes.insert(
                        d.name.clone(),
                        (params.clone(), datatypes.clone(), fields.clone()),
                    );
                }
                use model::datatype::DeclPath;
                let maker = match path {
                    DeclPath::Parser => None,
                    DeclPath::Api => Some("Z3_mk_datatypes"),
                    DeclPath::Enumeration => Some("Z3_mk_enumeration_sort"),
                    DeclPath::Tuple => Some("Z3_mk_tuple_sort"),
                    DeclPath::List => Some("Z3_mk_list_sort"),
                    DeclPath::Single => Some("Z3_mk_datatype"),
                };
                if let Some(maker) = maker {
                    self.note(format!("`declare_datatypes {}`: declared through Z3's SMT-LIB parser (Z3_parse_smtlib2_string), where the trace's replay uses {maker}", path.name()));
                }
                if params.is_empty() {
                    let instances: Vec<(String, String)> = datatypes
                        .iter()
                        .map(|d| (d.name.clone(), format!("dt_{}", d.name)))
                        .collect();
                    self.parse_instances(&datatypes[0].name, &instances, Vec::new());
                }
            }
            Call::SortDatatype { name, params } => {
                if params.is_empty() {
                    self.step(Step::Alias {
                        var: Var {
                            name: b.to_string(),
                            ty: Ty::Sort,
                        },
                        of: format!("dt_{name}"),
                    });
                    self.ctx_of.insert(b.to_string(), MAIN.into());
                } else {
                    let mut aliases = Vec::new();
                    let param_sorts: Vec<Sort> = params
                        .iter()
                        .filter_map(|p| self.state.sort(*p).ok().cloned())
                        .collect();
                    let texts: Vec<String> = param_sorts
                        .iter()
                        .map(|s| self.sort_text(s, &mut aliases))
                        .collect();
                    let text = format!("({name} {})", texts.join(" "));
                    self.parse_instances(name, &[(text, b.to_string())], aliases);
                }
            }
            Call::DtConstruct { sort, ctor, args } => {
                let dt = self.state.sort(*sort).ok().cloned();
                if let Some(i) = dt.as_ref().and_then(|s| self.ctor_index(s, ctor)) {
                    let d = self.fresh("decl");
                    self.emit(
                        "Z3_get_datatype_sort_constructor",
                        MAIN,
                        vec![Arg::Var(sort.to_string()), Arg::Uint(i)],
                        Some((&d, Ty::FuncDecl)),
                    );
                    let a: Vec<Arg> = args.iter().map(|t| Arg::Var(t.to_string())).collect();
                    self.emit(
                        "Z3_mk_app",
                        MAIN,
                        vec![var(&d), Arg::Uint(a.len() as u64), Arg::Array(Ty::Ast, a)],
                        Some((b, Ty::Ast)),
                    );
                }
            }
            Call::DtTest { ctor, term } => {
                if let Some((s, i)) = self.dt_of(*term, |l, s| l.ctor_index(s, ctor)) {
                    let d = self.fresh("decl");
                    self.emit(
                        "Z3_get_datatype_sort_recognizer",
                        MAIN,
                        vec![var(&s), Arg::Uint(i)],
                        Some((&d, Ty::FuncDecl)),
                    );
                    self.emit(
                        "Z3_mk_app",
                        MAIN,
                        vec![
                            var(&d),
                            Arg::Uint(1),
                            Arg::Array(Ty::Ast, vec![Arg::Var(term.to_string())]),
                        ],
                        Some((b, Ty::Ast)),
                    );
                }
            }
            Call::DtSelect { field, term } | Call::DtUpdate { field, term, .. } => {
                if let Some((s, (i, j))) = self.dt_of(*term, |l, s| l.field_index(s, field)) {
                    let d = self.fresh("decl");
                    self.emit(
                        "Z3_get_datatype_sort_constructor_accessor",
                        MAIN,
                        vec![var(&s), Arg::Uint(i), Arg::Uint(j)],
                        Some((&d, Ty::FuncDecl)),
                    );
                    if let Call::DtUpdate { value, .. } = call {
                        self.emit(
                            "Z3_datatype_update_field",
                            MAIN,
                            vec![
                                var(&d),
                                Arg::Var(term.to_string()),
                                Arg::Var(value.to_string()),
                            ],
                            Some((b, Ty::Ast)),
                        );
                    } else {
                        self.emit(
                            "Z3_mk_app",
                            MAIN,
                            vec![
                                var(&d),
                                Arg::Uint(1),
                                Arg::Array(Ty::Ast, vec![Arg::Var(term.to_string())]),
                            ],
                            Some((b, Ty::Ast)),
                        );
                    }
                }
            }
            Call::Qe {
                lite: false,
                model,
                formula,
                vars,
            } => {
                let apps: Vec<Arg> = vars
                    .iter()
                    .map(|t| Arg::Conv("Z3_to_app", t.to_string()))
                    .collect();
                self.emit(
                    "Z3_qe_model_project",
                    MAIN,
                    vec![
                        Arg::Var(model.to_string()),
                        Arg::Uint(apps.len() as u64),
                        Arg::Array(Ty::App, apps),
                        Arg::Var(formula.to_string()),
                    ],
                    Some((b, Ty::Ast)),
                );
            }
            // The reproducers hold no AST vectors: the formula stands for its elimination
            // (qe_lite's result is implied by it in the model the trace judges).
            Call::Qe {
                lite: true,
                formula,
                ..
            } => {
                self.note(format!(
                    "`{}`: Z3_qe_lite is not lowered; its formula stands for its result",
                    model::trace::text::format_call(call)
                ));
                self.step(Step::Alias {
                    var: Var {
                        name: b.to_string(),
                        ty: Ty::Ast,
                    },
                    of: formula.to_string(),
                });
                self.ctx_of.insert(b.to_string(), MAIN.into());
            }
            // Z3's finite sets (newer releases): the sort by its maker; map and filter by
            // their lambda over a fresh Int constant, as the executor makes it.
            Call::SortFiniteSet(element) => {
                self.emit(
                    "Z3_mk_finite_set_sort",
                    MAIN,
                    vec![Arg::Var(element.to_string())],
                    Some((b, Ty::Sort)),
                );
            }
            Call::SortFiniteField(p) => {
                self.emit(
                    "Z3_mk_finite_field_sort",
                    MAIN,
                    vec![Arg::Str(p.to_string())],
                    Some((b, Ty::Sort)),
                );
            }
            Call::FsetMap { set, add, mul } => {
                let body = self.fset_lambda_body(true, *add, *mul);
                self.fset_apply("Z3_mk_finite_set_map", body, *set, b);
            }
            Call::FsetFilter { set, low, high } => {
                let body = self.fset_lambda_body(false, *low, *high);
                self.fset_apply("Z3_mk_finite_set_filter", body, *set, b);
            }
            Call::SeqHof {
                function,
                args,
                add,
                mul,
            } => match model::seq_hof::SeqHof::by_function(function) {
                Some(hof) => self.seq_hof(hof, args, *add, *mul, b),
                None => self.note(format!("`seq_hof` of `{function}`: no such function")),
            },
            Call::AsArray(f) => {
                self.emit(
                    "Z3_mk_as_array",
                    MAIN,
                    vec![Arg::Var(f.to_string())],
                    Some((b, Ty::Ast)),
                );
                self.ctx_of.insert(b.to_string(), MAIN.into());
            }
            Call::ArrayMap { func, arrays } => {
                let a: Vec<Arg> = arrays.iter().map(|t| Arg::Var(t.to_string())).collect();
                self.emit(
                    "Z3_mk_map",
                    MAIN,
                    vec![
                        Arg::Var(func.to_string()),
                        Arg::Uint(a.len() as u64),
                        Arg::Array(Ty::Ast, a),
                    ],
                    Some((b, Ty::Ast)),
                );
                self.ctx_of.insert(b.to_string(), MAIN.into());
            }
            // A quantifier maker gives the quantifier itself; a lambda is made of the
            // quantifier's body with its variables put back, as the executor makes it.
            Call::QuantRebuild { function, term } => {
                let lambda = model::quant::Maker::by_name(function).is_some_and(|m| m.lambda);
                let vars = match self.state.term(*term).map(|i| &i.origin) {
                    Ok(model::state::Origin::Quantifier(q)) => q.vars.clone(),
                    _ => Vec::new(),
                };
                if !lambda {
                    self.note(format!("`quant_rebuild \"{function}\"`: the quantifier itself (Z3 shares equal terms), where the trace's replay makes it again through {function}"));
                    self.step(Step::Alias {
                        var: Var {
                            name: b.to_string(),
                            ty: Ty::Ast,
                        },
                        of: term.to_string(),
                    });
                } else {
                    let body = self.fresh("body");
                    self.emit(
                        "Z3_get_quantifier_body",
                        MAIN,
                        vec![Arg::Var(term.to_string())],
                        Some((&body, Ty::Ast)),
                    );
                    let consts: Vec<Arg> =
                        vars.iter().rev().map(|t| Arg::Var(t.to_string())).collect();
                    let with_consts = self.fresh("body");
                    self.emit(
                        "Z3_substitute_vars",
                        MAIN,
                        vec![
                            var(&body),
                            Arg::Uint(consts.len() as u64),
                            Arg::Array(Ty::Ast, consts),
                        ],
                        Some((&with_consts, Ty::Ast)),
                    );
                    let bound: Vec<Arg> = vars
                        .iter()
                        .map(|t| Arg::Conv("Z3_to_app", t.to_string()))
                        .collect();
                    self.emit(
                        "Z3_mk_lambda_const",
                        MAIN,
                        vec![
                            Arg::Uint(bound.len() as u64),
                            Arg::Array(Ty::App, bound),
                            var(&with_consts),
                        ],
                        Some((b, Ty::Ast)),
                    );
                }
                self.ctx_of.insert(b.to_string(), MAIN.into());
            }
            Call::Quantifier {
                forall,
                weight,
                vars,
                body,
                patterns,
                no_patterns,
            } => {
                let mut pats = Vec::new();
                for group in patterns {
                    let p = self.fresh("pattern");
                    let ts: Vec<Arg> = group.iter().map(|t| Arg::Var(t.to_string())).collect();
                    self.emit(
                        "Z3_mk_pattern",
                        MAIN,
                        vec![Arg::Uint(ts.len() as u64), Arg::Array(Ty::Ast, ts)],
                        Some((&p, Ty::Pattern)),
                    );
                    pats.push(Arg::Var(p));
                }
                let bound: Vec<Arg> = vars
                    .iter()
                    .map(|t| Arg::Conv("Z3_to_app", t.to_string()))
                    .collect();
                let nop: Vec<Arg> = no_patterns
                    .iter()
                    .map(|t| Arg::Var(t.to_string()))
                    .collect();
                self.emit(
                    "Z3_mk_quantifier_const_ex",
                    MAIN,
                    vec![
                        Arg::Bool(*forall),
                        Arg::Uint(u64::from(*weight)),
                        sym("q"),
                        sym("sk"),
                        Arg::Uint(bound.len() as u64),
                        Arg::Array(Ty::App, bound),
                        Arg::Uint(pats.len() as u64),
                        Arg::Array(Ty::Pattern, pats),
                        Arg::Uint(nop.len() as u64),
                        Arg::Array(Ty::Ast, nop),
                        Arg::Var(body.to_string()),
                    ],
                    Some((b, Ty::Ast)),
                );
            }
            Call::MkTactic(expr) => match expr {
                TacticExpr::Named(_)
                | TacticExpr::AndThen(..)
                | TacticExpr::OrElse(..)
                | TacticExpr::Repeat(..)
                | TacticExpr::TryFor(..) => {
                    self.expect_direct(call, bind);
                }
                TacticExpr::When(probe, a) | TacticExpr::Cond(probe, a, _) => {
                    let p = self.probe(probe);
                    match expr {
                        TacticExpr::Cond(_, _, c) => self.emit(
                            "Z3_tactic_cond",
                            MAIN,
                            vec![var(&p), Arg::Var(a.to_string()), Arg::Var(c.to_string())],
                            Some((b, Ty::Tactic)),
                        ),
                        _ => self.emit(
                            "Z3_tactic_when",
                            MAIN,
                            vec![var(&p), Arg::Var(a.to_string())],
                            Some((b, Ty::Tactic)),
                        ),
                    }
                }
                TacticExpr::UsingParams(a, params) => {
                    let p = self.params(MAIN, params, &|_| ParamKind::Other);
                    self.emit(
                        "Z3_tactic_using_params",
                        MAIN,
                        vec![Arg::Var(a.to_string()), var(&p)],
                        Some((b, Ty::Tactic)),
                    );
                    self.note("`tactic_using_params`: parameter kinds guessed from the values (the executor reads the tactic's own descriptions)".into());
                }
                TacticExpr::Skip
                | TacticExpr::Fail
                | TacticExpr::FailIfNotDecided
                | TacticExpr::ParAndThen(..) => {
                    self.expect_direct(call, bind);
                }
                TacticExpr::FailIf(probe) => {
                    let p = self.probe(probe);
                    self.emit(
                        "Z3_tactic_fail_if",
                        MAIN,
                        vec![var(&p)],
                        Some((b, Ty::Tactic)),
                    );
                }
                TacticExpr::ParOr(a, c) => self.emit(
                    "Z3_tactic_par_or",
                    MAIN,
                    vec![
                        Arg::Uint(2),
                        Arg::Array(
                            Ty::Tactic,
                            vec![Arg::Var(a.to_string()), Arg::Var(c.to_string())],
                        ),
                    ],
                    Some((b, Ty::Tactic)),
                ),
            },
            Call::NewGoal { models } => {
                self.emit(
                    "Z3_mk_goal",
                    MAIN,
                    vec![Arg::Bool(*models), Arg::Bool(false), Arg::Bool(false)],
                    Some((b, Ty::Goal)),
                );
            }
            Call::ApplyTactic {
                tactic,
                goal,
                rlimit,
            }
            | Call::ApplyTacticWith {
                tactic,
                goal,
                rlimit,
                ..
            } => {
                self.emit(
                    "Z3_update_param_value",
                    MAIN,
                    vec![Arg::Str("rlimit".into()), Arg::Str(rlimit.to_string())],
                    None,
                );
                let a = self.fresh("applied");
                // With parameters through `Z3_tactic_apply_ex`, else `Z3_tactic_apply`.
                if let Call::ApplyTacticWith { params, .. } = call {
                    let p = self.params(MAIN, params, &|_| ParamKind::Other);
                    self.emit(
                        "Z3_tactic_apply_ex",
                        MAIN,
                        vec![
                            Arg::Var(tactic.to_string()),
                            Arg::Var(goal.to_string()),
                            var(&p),
                        ],
                        Some((&a, Ty::ApplyResult)),
                    );
                } else {
                    self.emit(
                        "Z3_tactic_apply",
                        MAIN,
                        vec![Arg::Var(tactic.to_string()), Arg::Var(goal.to_string())],
                        Some((&a, Ty::ApplyResult)),
                    );
                }
                if matches!(ret, Some(Ret::Error(_))) {
                    // The refusal is this call's; a refused application has no subgoals.
                    return;
                }
                self.emit(
                    "Z3_update_param_value",
                    MAIN,
                    vec![Arg::Str("rlimit".into()), Arg::Str("0".into())],
                    None,
                );
                let n = self.fresh("n");
                self.emit(
                    "Z3_apply_result_get_num_subgoals",
                    MAIN,
                    vec![var(&a)],
                    Some((&n, Ty::Uint)),
                );
                self.applied.insert(*goal, a);
            }
            Call::Subgoal(g, i) => {
                let a = self
                    .applied
                    .get(g)
                    .cloned()
                    .unwrap_or_else(|| "applied".into());
                self.emit(
                    "Z3_apply_result_get_subgoal",
                    MAIN,
                    vec![var(&a), Arg::Uint(u64::from(*i))],
                    Some((b, Ty::Goal)),
                );
            }
            Call::GoalFormula(g) => {
                self.note(format!("`goal_formula {g}`: the conjunction of the goal's formulas is taken as its first formula (Z3_goal_formula 0); the executor conjoins all of them"));
                self.emit(
                    "Z3_goal_formula",
                    MAIN,
                    vec![Arg::Var(g.to_string()), Arg::Uint(0)],
                    Some((b, Ty::Ast)),
                );
            }
            Call::OptSetParam { opt, key, value } => {
                let o = opt.to_string();
                let p = self.params(MAIN, &[(key.clone(), value.clone())], &|_| ParamKind::Other);
                self.emit("Z3_optimize_set_params", MAIN, vec![var(&o), var(&p)], None);
            }
            Call::OptAssertSoft {
                opt,
                term,
                weight,
                group,
            } => {
                let r = self.fresh("n");
                self.emit(
                    "Z3_optimize_assert_soft",
                    MAIN,
                    vec![
                        Arg::Var(opt.to_string()),
                        Arg::Var(term.to_string()),
                        Arg::Str(weight.to_string()),
                        sym(group),
                    ],
                    Some((&r, Ty::Uint)),
                );
                let info = self.opts.entry(*opt).or_default();
                if !info.soft.contains_key(group) {
                    info.objectives.push((None, group.clone()));
                }
                info.soft
                    .entry(group.clone())
                    .or_default()
                    .push((*term, *weight));
            }
            Call::OptObjective {
                opt,
                term,
                direction,
            } => {
                self.expect_direct(call, bind);
                self.opts
                    .entry(*opt)
                    .or_default()
                    .objectives
                    .push((Some((*term, *direction)), String::new()));
            }
            Call::OptCheck(o) => {
                let r = self.lbool(
                    "Z3_optimize_check",
                    MAIN,
                    vec![
                        Arg::Var(o.to_string()),
                        Arg::Uint(0),
                        Arg::Array(Ty::Ast, vec![]),
                    ],
                );
                self.answer(&r, ret);
            }
            Call::Pb { cmp, bound, terms } => {
                let func = match cmp {
                    PbCmp::Le => "Z3_mk_pble",
                    PbCmp::Ge => "Z3_mk_pbge",
                    PbCmp::Eq => "Z3_mk_pbeq",
                };
                let ts = terms.iter().map(|(_, t)| Arg::Var(t.to_string())).collect();
                let cs = terms.iter().map(|(c, _)| Arg::Int(i64::from(*c))).collect();
                self.emit(
                    func,
                    MAIN,
                    vec![
                        Arg::Uint(terms.len() as u64),
                        Arg::Array(Ty::Ast, ts),
                        Arg::Array(Ty::Int, cs),
                        Arg::Int(i64::from(*bound)),
                    ],
                    Some((b, Ty::Ast)),
                );
            }
            Call::Check(check) => self.check(check),
            // The read-backs' oracle is the reference state's knowledge of what the trace
            // built, which a program does not carry: the reproducer says so instead.
            Call::Read { .. }
            | Call::ReadSort { .. }
            | Call::ReadRcf { .. }
            | Call::ReadEq(..)
            | Call::ReadStats(_)
            | Call::AstMap(_)
            | Call::AstVector(_)
            | Call::ReadGlobal { .. } => {
                self.step(Step::Note(format!(
                    "`{}`: read-backs are not lowered (replay the trace: untrace judges them)",
                    model::trace::text::format_call(call)
                )));
            }
            // The fixed format's maker (the function is the argument); the sort it must be
            // is the trace's to judge.
            Call::SortFpFixed(function) => {
                self.emit(function, MAIN, vec![], Some((b, Ty::Sort)));
            }
            // Goal and solver readers, probes and interrupts are judged by the executor: a
            // reproducer says so (replay the trace).
            Call::GoalRead { .. }
            | Call::ProbeApply { .. }
            | Call::CheckSatInterrupted { .. }
            | Call::SolverRead { .. } => {
                self.step(Step::Note(format!(
                    "`{}`: goal and solver readers, probes and interrupts are not lowered (replay the trace)",
                    model::trace::text::format_call(call)
                )));
            }
            // The Optimize and model readers are judged by the executor against what the trace
            // wrote: not expressed (replay the trace).
            // `Z3_model_extrapolate` is called on the conjunction of the equations written (its
            // verdict, the result true in the model, is not expressed).
            Call::ModelRead { function, model } if function == "Z3_model_extrapolate" => {
                self.extrapolate(*model);
            }
            Call::OptRead { .. } | Call::ModelRead { .. } => {
                self.note(format!(
                    "`{}`: the Optimize and model readers are judged by untrace: not expressed (replay the trace)",
                    call.name()
                ));
            }
            // Fixedpoint contexts are not lowered yet: a reproducer says so (replay the trace).
            Call::FpNew { .. }
            | Call::FpRegister(_)
            | Call::FpRule { .. }
            | Call::FpUpdateRule { .. }
            | Call::FpAssert(_)
            | Call::FpQuery { .. }
            | Call::FpQueryRelation { .. }
            | Call::FpRead(_)
            | Call::FpReadRel { .. }
            | Call::FpFromString(_)
            | Call::FpSetParam { .. } => {
                self.step(Step::Note(format!(
                    "`{}`: fixedpoint calls are not lowered (replay the trace)",
                    model::trace::text::format_call(call)
                )));
            }
        }
    }

    /// A solver's assertions as SMT-LIB, as the z3 crate's `Solver::to_smt2` writes them
    /// (`Z3_benchmark_to_smtlib_string` of the assertions, the last as the formula); the
    /// assertions are the ones the lowering knows the solver holds.
    fn dump_text(&mut self, z: &str) -> String {
        let id = SolverId(z[1..].parse().unwrap_or(0));
        let info = self.solvers.get(&id).cloned().unwrap_or_default();
        let ctx = self.ctx(z);
        let mut terms: Vec<Arg> = info
            .assertions()
            .into_iter()
            .map(|t| Arg::Var(self.term_in(t, &ctx)))
            .collect();
        let formula = match terms.pop() {
            Some(last) => last,
            None => {
                let t = self.fresh("term");
                self.emit("Z3_mk_true", &ctx, vec![], Some((&t, Ty::Ast)));
                Arg::Var(t)
            }
        };
        let text = self.fresh("text");
        let n = terms.len() as u64;
        self.emit(
            "Z3_benchmark_to_smtlib_string",
            &ctx,
            vec![
                Arg::Str("benchmark generated from rust API".into()),
                Arg::Str(String::new()),
                Arg::Str("unknown".into()),
                Arg::Str(String::new()),
                Arg::Uint(n),
                Arg::Array(Ty::Ast, terms),
                formula,
            ],
            Some((&text, Ty::Str)),
        );
        text
    }

    fn probe(&mut self, test: &model::call::ProbeTest) -> String {
        let p = self.fresh("probe");
        self.emit(
            "Z3_mk_probe",
            MAIN,
            vec![Arg::Str(test.probe.clone())],
            Some((&p, Ty::Probe)),
        );
        let c = self.fresh("probe");
        self.emit(
            "Z3_probe_const",
            MAIN,
            vec![Arg::Double(f64::from(test.value))],
            Some((&c, Ty::Probe)),
        );
        let func = match test.cmp {
            model::call::ProbeCmp::Lt => "Z3_probe_lt",
            model::call::ProbeCmp::Le => "Z3_probe_le",
            model::call::ProbeCmp::Gt => "Z3_probe_gt",
            model::call::ProbeCmp::Ge => "Z3_probe_ge",
            model::call::ProbeCmp::Eq => "Z3_probe_eq",
        };
        let r = self.fresh("probe");
        self.emit(func, MAIN, vec![var(&p), var(&c)], Some((&r, Ty::Probe)));
        r
    }

    fn op(
        &mut self,
        op: &'static model::ops::OpSpec,
        indices: &[u32],
        terms: Vec<Arg>,
        sorts: &[Sort],
        b: &str,
    ) {
        let bind = Some((b, Ty::Ast));
        let idx: Vec<Arg> = indices.iter().map(|i| Arg::Uint(u64::from(*i))).collect();
        let sorts: Vec<&Sort> = sorts.iter().collect();
        match op_lowering(op, indices, &sorts) {
            OpLowering::Call(func, shape) => {
                let args = match shape {
                    OpShape::Args => terms,
                    OpShape::Array => {
                        let n = terms.len() as u64;
                        vec![Arg::Uint(n), Arg::Array(Ty::Ast, terms)]
                    }
                    OpShape::IndicesFirst => idx.into_iter().chain(terms).collect(),
                    OpShape::IndicesLast => terms.into_iter().chain(idx).collect(),
                    OpShape::Flag(f) => terms.into_iter().chain([Arg::Bool(f)]).collect(),
                    OpShape::FpSort => {
                        let s = self.fresh("sort");
                        self.emit("Z3_mk_fpa_sort", MAIN, idx, Some((&s, Ty::Sort)));
                        terms.into_iter().chain([var(&s)]).collect()
                    }
                    OpShape::ReSort => {
                        let st = self.fresh("sort");
                        self.emit("Z3_mk_string_sort", MAIN, vec![], Some((&st, Ty::Sort)));
                        let re = self.fresh("sort");
                        self.emit("Z3_mk_re_sort", MAIN, vec![var(&st)], Some((&re, Ty::Sort)));
                        vec![var(&re)]
                    }
                };
                self.emit(func, MAIN, args, bind);
            }
            OpLowering::Parsed(sample) => {
                let v = self.fresh("parsed");
                self.emit(
                    "Z3_parse_smtlib2_string",
                    MAIN,
                    vec![
                        Arg::Str(format!("(assert (= {sample} {sample}))")),
                        Arg::Uint(0),
                        Arg::Array(Ty::Symbol, vec![]),
                        Arg::Array(Ty::Sort, vec![]),
                        Arg::Uint(0),
                        Arg::Array(Ty::Symbol, vec![]),
                        Arg::Array(Ty::FuncDecl, vec![]),
                    ],
                    Some((&v, Ty::AstVector)),
                );
                let d = self.decl_of_parsed(&v);
                let n = terms.len() as u64;
                self.emit(
                    "Z3_mk_app",
                    MAIN,
                    vec![var(&d), Arg::Uint(n), Arg::Array(Ty::Ast, terms)],
                    bind,
                );
            }
        }
    }

    /// Records an equation written into hand model `m`, replacing one of the same left side.
    fn hand_write(&mut self, m: ModelId, left: HandLeft, value: TermId) {
        let written = self.hand_written.entry(m).or_default();
        match written.iter_mut().find(|(l, _)| *l == left) {
            Some(slot) => slot.1 = value,
            None => written.push((left, value)),
        }
    }

    /// `Z3_model_extrapolate` of model `m` on the conjunction of its written equations.
    fn extrapolate(&mut self, m: ModelId) {
        let written = self.hand_written.get(&m).cloned().unwrap_or_default();
        let mut equations = Vec::new();
        for (left, value) in written {
            let lhs = match left {
                HandLeft::Const(c) => c.to_string(),
                HandLeft::App(f, args) => {
                    let app = self.fresh("app");
                    let a: Vec<Arg> = args.iter().map(|t| Arg::Var(t.to_string())).collect();
                    self.emit(
                        "Z3_mk_app",
                        MAIN,
                        vec![
                            Arg::Var(f.to_string()),
                            Arg::Uint(a.len() as u64),
                            Arg::Array(Ty::Ast, a),
                        ],
                        Some((&app, Ty::Ast)),
                    );
                    app
                }
            };
            let eq = self.fresh("eq");
            self.emit(
                "Z3_mk_eq",
                MAIN,
                vec![var(&lhs), Arg::Var(value.to_string())],
                Some((&eq, Ty::Ast)),
            );
            equations.push(Arg::Var(eq));
        }
        let fml = self.fresh("fml");
        self.emit(
            "Z3_mk_and",
            MAIN,
            vec![
                Arg::Uint(equations.len() as u64),
                Arg::Array(Ty::Ast, equations),
            ],
            Some((&fml, Ty::Ast)),
        );
        let result = self.fresh("extrapolated");
        self.emit(
            "Z3_model_extrapolate",
            MAIN,
            vec![Arg::Var(m.to_string()), var(&fml)],
            Some((&result, Ty::Ast)),
        );
    }

    /// The declaration at the head of the first argument of the first formula of a parsed
    /// vector.
    fn decl_of_parsed(&mut self, v: &str) -> String {
        let eq = self.fresh("term");
        self.emit(
            "Z3_ast_vector_get",
            MAIN,
            vec![var(v), Arg::Uint(0)],
            Some((&eq, Ty::Ast)),
        );
        let arg = self.fresh("term");
        self.emit(
            "Z3_get_app_arg",
            MAIN,
            vec![Arg::Conv("Z3_to_app", eq), Arg::Uint(0)],
            Some((&arg, Ty::Ast)),
        );
        let d = self.fresh("decl");
        self.emit(
            "Z3_get_app_decl",
            MAIN,
            vec![Arg::Conv("Z3_to_app", arg)],
            Some((&d, Ty::FuncDecl)),
        );
        d
    }

    /// The SMT-LIB text of a field or parameter sort, with named sorts as aliases the parser
    /// gets as sort arguments (the executor's `aliased`).
    fn sort_text(&mut self, sort: &Sort, aliases: &mut Vec<(String, String)>) -> String {
        match sort {
            Sort::Named(..) => {
                let Some(v) = self.sort_vars.get(sort).cloned() else {
                    return sort.to_string();
                };
                if let Some((name, _)) = aliases.iter().find(|(_, s)| *s == v) {
                    return name.clone();
                }
                let name = format!("dt!sort!{}", aliases.len());
                aliases.push((name.clone(), v));
                name
            }
            Sort::Array(i, e) => format!(
                "(Array {} {})",
                self.sort_text(i, aliases),
                self.sort_text(e, aliases)
            ),
            Sort::Seq(e) => format!("(Seq {})", self.sort_text(e, aliases)),
            other => other.to_string(),
        }
    }

    /// Declares the datatype group of `name` through Z3's parser with one constant of each
    /// instance (`(text, variable)`), and binds the instances' sorts.
    fn parse_instances(
        &mut self,
        name: &str,
        instances: &[(String, String)],
        mut aliases: Vec<(String, String)>,
    ) {
        let Some((params, decls, fields)) = self.datatypes.get(name).cloned() else {
            return;
        };
        let texts: HashMap<model::SortId, String> = fields
            .iter()
            .filter_map(|id| Some((*id, self.state.sort(*id).ok()?.clone())))
            .collect::<Vec<_>>()
            .into_iter()
            .map(|(id, s)| (id, self.sort_text(&s, &mut aliases)))
            .collect();
        let mut script = smtlib_decl(&params, &decls, |id| {
            texts.get(&id).cloned().unwrap_or_default()
        });
        for (k, (text, _)) in instances.iter().enumerate() {
            script.push_str(&format!(
                "\n(declare-fun dt!instance!{k} () {text})\n(assert (= dt!instance!{k} dt!instance!{k}))"
            ));
        }
        let v = self.fresh("parsed");
        let n = aliases.len() as u64;
        self.emit(
            "Z3_parse_smtlib2_string",
            MAIN,
            vec![
                Arg::Str(script),
                Arg::Uint(n),
                Arg::Array(Ty::Symbol, aliases.iter().map(|(a, _)| sym(a)).collect()),
                Arg::Array(Ty::Sort, aliases.iter().map(|(_, s)| var(s)).collect()),
                Arg::Uint(0),
                Arg::Array(Ty::Symbol, vec![]),
                Arg::Array(Ty::FuncDecl, vec![]),
            ],
            Some((&v, Ty::AstVector)),
        );
        for (k, (_, bind)) in instances.iter().enumerate() {
            let eq = self.fresh("term");
            self.emit(
                "Z3_ast_vector_get",
                MAIN,
                vec![var(&v), Arg::Uint(k as u64)],
                Some((&eq, Ty::Ast)),
            );
            let c = self.fresh("term");
            self.emit(
                "Z3_get_app_arg",
                MAIN,
                vec![Arg::Conv("Z3_to_app", eq), Arg::Uint(0)],
                Some((&c, Ty::Ast)),
            );
            self.emit("Z3_get_sort", MAIN, vec![var(&c)], Some((bind, Ty::Sort)));
        }
    }

    fn decl_of(&self, sort: &Sort) -> Option<DatatypeDecl> {
        let Sort::Named(name, _) = sort else {
            return None;
        };
        let (_, decls, _) = self.datatypes.get(name)?;
        decls.iter().find(|d| d.name == *name).cloned()
    }

    fn ctor_index(&self, sort: &Sort, ctor: &str) -> Option<u64> {
        let d = self.decl_of(sort)?;
        let i = d.constructors.iter().position(|c| c.name == ctor)?;
        Some(i as u64)
    }

    fn field_index(&self, sort: &Sort, field: &str) -> Option<(u64, u64)> {
        let d = self.decl_of(sort)?;
        d.constructors.iter().enumerate().find_map(|(i, c)| {
            let j = c.fields.iter().position(|f| f.name == field)?;
            Some((i as u64, j as u64))
        })
    }

    /// The sort variable of a datatype term (`Z3_get_sort`) and what `find` says of its sort.
    fn dt_of<R>(
        &mut self,
        t: TermId,
        find: impl Fn(&Self, &Sort) -> Option<R>,
    ) -> Option<(String, R)> {
        let sort = self.state.term(t).ok()?.sort.clone();
        let found = find(self, &sort)?;
        let s = self.fresh("sort");
        self.emit(
            "Z3_get_sort",
            MAIN,
            vec![Arg::Var(t.to_string())],
            Some((&s, Ty::Sort)),
        );
        Some((s, found))
    }

    /// For a floating-point literal made from a double: the term of its value as IEEE rounds
    /// it (`Z3_mk_fpa_to_fp_real` RNE of the double's exact value, as `check_literal` builds
    /// it) and a description.
    fn fp_literal_value(&mut self, t: TermId) -> Option<(String, String)> {
        let (sort, value) = self.literals.get(&t).cloned()?;
        let Sort::FloatingPoint(..) = sort else {
            return None;
        };
        let v = value
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v != 0.0)?;
        let (num, den) = crate::executor::numerals_exact_ratio(v);
        let ts = t.to_string();
        let s = self.fresh("sort");
        self.emit("Z3_get_sort", MAIN, vec![var(&ts)], Some((&s, Ty::Sort)));
        let rs = self.fresh("sort");
        self.emit("Z3_mk_real_sort", MAIN, vec![], Some((&rs, Ty::Sort)));
        let real = self.fresh("term");
        self.emit(
            "Z3_mk_numeral",
            MAIN,
            vec![Arg::Str(format!("{num}/{den}")), var(&rs)],
            Some((&real, Ty::Ast)),
        );
        let rne = self.fresh("term");
        self.emit(
            "Z3_mk_fpa_round_nearest_ties_to_even",
            MAIN,
            vec![],
            Some((&rne, Ty::Ast)),
        );
        let alt = self.fresh("term");
        self.emit(
            "Z3_mk_fpa_to_fp_real",
            MAIN,
            vec![var(&rne), var(&real), var(&s)],
            Some((&alt, Ty::Ast)),
        );
        Some((alt, format!("{value} rounded to {sort} (RNE), as Z3_mk_fpa_to_fp_real makes it from the double's exact value {num}/{den}")))
    }

    fn check(&mut self, check: &Check) {
        match check {
            Check::Model { model, term } => {
                let Some((ctx, premises)) = self.models.get(model).cloned() else {
                    return;
                };
                if !premises.contains(term) {
                    self.step(Step::Note(format!(
                        "{term} is no assertion of the check of {model}: nothing to judge"
                    )));
                    return;
                }
                let t = self.term_in(*term, &ctx);
                let v = self.fresh("value");
                let ok = self.fresh("res");
                self.emit(
                    "Z3_model_eval",
                    &ctx,
                    vec![
                        Arg::Var(model.to_string()),
                        var(&t),
                        Arg::Bool(true),
                        Arg::Out(Var {
                            name: v.clone(),
                            ty: Ty::Ast,
                        }),
                    ],
                    Some((&ok, Ty::Bool)),
                );
                let n = premises.iter().position(|p| p == term).map_or(0, |i| i + 1);
                self.step(Step::Fail {
                    cond: Cond::NotTrue { ctx, ast: v },
                    exit: 5,
                    message: format!("expected true: the model makes assertion {n} ({term}) not true (model_eval with completion)"),
                });
            }
            Check::Shadow { original, clone }
            | Check::Config {
                original,
                other: clone,
            } => {
                let (a, b) = (
                    self.solvers.get(original).cloned(),
                    self.solvers.get(clone).cloned(),
                );
                let (Some(a), Some(b)) = (a, b) else { return };
                let (Some(ra), Some(rb)) = (a.last.clone(), b.last.clone()) else {
                    self.step(Step::Note("a solver has no answer to compare".into()));
                    return;
                };
                // The premise, as the executor verifies it: both last checks were of the same
                // formula (assertions and assumptions).
                if a.checked.is_none() || a.checked != b.checked {
                    self.step(Step::Note(format!(
                        "{original} and {clone} did not check the same formula: nothing to compare"
                    )));
                    return;
                }
                self.step(Step::Fail {
                    cond: Cond::AnswersDiffer(ra, rb),
                    exit: 5,
                    message: format!("expected {clone} to answer as {original}: they hold the same formula, yet their answers differ"),
                });
            }
            Check::Dump(z) => {
                let Some(info) = self.solvers.get(z).cloned() else {
                    return;
                };
                let Some(last) = info.last.clone() else {
                    self.step(Step::Note(format!(
                        "{z} has no answer: nothing to compare its dump with"
                    )));
                    return;
                };
                let zs = z.to_string();
                // The text is Z3's until its next call: the fresh solver is made first.
                let fresh = self.reference_solver(&info.ctx.clone(), info.rlimit);
                let text = self.dump_text(&zs);
                self.emit(
                    "Z3_solver_from_string",
                    &info.ctx,
                    vec![var(&fresh), var(&text)],
                    None,
                );
                let r = self.lbool("Z3_solver_check", &info.ctx, vec![var(&fresh)]);
                self.step(Step::Fail {
                    cond: Cond::Answers(last.clone(), SatResult::Sat, r.clone(), SatResult::Unsat),
                    exit: 5,
                    message: format!("expected the dump of {z} to be sat as {z} is: its dump parsed into a fresh solver is unsat"),
                });
                if !info.tracked && info.assumptions.is_empty() {
                    self.step(Step::Fail {
                        cond: Cond::Answers(last, SatResult::Unsat, r, SatResult::Sat),
                        exit: 5,
                        message: format!("expected the dump of {z} to be unsat as {z} is: its dump parsed into a fresh solver is sat"),
                    });
                }
            }
            Check::Cubes(z) => {
                if !self.first_cube(*z, Some(CHECK_RLIMIT)) {
                    return;
                }
                self.note("`check_cubes`: only the first cube is asked for; the suite goes on cubing and checks each cube".into());
            }
            Check::Eval {
                model,
                term,
                completion,
            } => {
                let Some((alt, what)) = self.fp_literal_value(*term) else {
                    self.note(format!("`{}`: the independent evaluator is part of this suite, not of Z3: not expressed (but for floating-point literals)", check.name()));
                    return;
                };
                let ms = model.to_string();
                let v = self.fresh("value");
                let ok = self.fresh("res");
                self.emit(
                    "Z3_model_eval",
                    MAIN,
                    vec![
                        var(&ms),
                        Arg::Var(term.to_string()),
                        Arg::Bool(*completion),
                        Arg::Out(Var {
                            name: v.clone(),
                            ty: Ty::Ast,
                        }),
                    ],
                    Some((&ok, Ty::Bool)),
                );
                let message = format!("expected model_eval of {term} to be {what}");
                self.fails_unless_equal("Z3_mk_fpa_eq", &v, &alt, message);
            }
            Check::Literal(t) => {
                let Some((alt, what)) = self.fp_literal_value(*t) else {
                    self.note(format!("`check_literal {t}`: only floating-point literals are compared (with Z3_mk_fpa_to_fp_real)"));
                    return;
                };
                let message =
                    format!("expected the literal {t} (Z3_mk_fpa_numeral_double) to be {what}");
                self.fails_unless_equal("Z3_mk_eq", &t.to_string(), &alt, message);
                self.step(Step::Note("the suite compares the other numeral constructors too (floats, IEEE components) where the value fits the format exactly".into()));
            }
            Check::Simplify(s) => {
                let Some(from) = self.simplified_from.get(s).copied() else {
                    return;
                };
                let z = self.reference_solver(MAIN, Some(CHECK_RLIMIT));
                let d = self.fresh("term");
                self.emit(
                    "Z3_mk_distinct",
                    MAIN,
                    vec![
                        Arg::Uint(2),
                        Arg::Array(
                            Ty::Ast,
                            vec![Arg::Var(from.to_string()), Arg::Var(s.to_string())],
                        ),
                    ],
                    Some((&d, Ty::Ast)),
                );
                self.emit("Z3_solver_assert", MAIN, vec![var(&z), var(&d)], None);
                let r = self.lbool("Z3_solver_check", MAIN, vec![var(&z)]);
                self.step(Step::Fail {
                    cond: Cond::AnswerIs(r, SatResult::Sat),
                    exit: 5,
                    message: format!("expected {s} to be equivalent to {from}, which it simplifies: (distinct {from} {s}) is sat"),
                });
            }
            Check::Congruence { .. }
            | Check::Simplifier { .. }
            | Check::InitialValue { .. }
            | Check::ParserContext(_)
            | Check::FiniteSet { .. }
            | Check::FiniteField { .. }
            | Check::Complex(_)
            | Check::PolyDatatype(..)
            | Check::Chars(_) => {
                self.note(format!(
                    "`{}`: the check of a newer Z3's functions is not expressed",
                    check.name()
                ));
            }
            Check::QeMap { .. } | Check::FiniteDomain { .. } => {
                self.note(format!(
                    "`{}`: the projection's map on a copy of the model, and the finite domain's Datalog context, are not expressed",
                    check.name()
                ));
            }
            Check::ProofCallback(_) => {
                self.note("`check_proof_callback`: the client proof checker of a dump evaluated with proofs on is not expressed".into());
            }
            Check::Propagator {
                solver,
                mode,
                terms,
            } => {
                let Some(info) = self.solvers.get(solver).cloned() else {
                    return;
                };
                let ctx = info.ctx.clone();
                let assertions = info
                    .assertions()
                    .into_iter()
                    .map(|t| self.term_in(t, &ctx))
                    .collect();
                let terms = terms.iter().map(|t| self.term_in(*t, &ctx)).collect();
                self.step(Step::Propagate(super::Propagate {
                    ctx,
                    assertions,
                    terms,
                    enumerate: mode == "enumerate",
                    rlimit: CHECK_RLIMIT,
                }));
                self.note("`check_propagator`: the clauses `Z3_solver_register_on_clause` reports are counted, not judged (the suite judges a sample with a reference solver); a Z3 API log has no callbacks".into());
            }
            Check::Fixedpoint => {
                self.note("`check_fp`: the fixedpoint check is not expressed".into());
            }
            Check::Rcf(..)
            | Check::RcfRoots(_)
            | Check::Algebraic(..)
            | Check::AlgebraicPoly(_)
            | Check::Subresultants { .. }
            | Check::RcfSignConditions(_) => {
                // The intervals of exact arithmetic behind these checks are the reference
                // state's, not a condition a program states: not written yet.
                self.note(format!(
                    "`{}`: the RCF and algebraic checks are not expressed",
                    check.name()
                ));
            }
            Check::OptValues { opt, model } | Check::OptBetter { opt, model } => {
                let Some(info) = self.opts.get(opt).cloned() else {
                    return;
                };
                let os = opt.to_string();
                let ms = model.to_string();
                let mut fixed: Vec<(String, String)> = Vec::new();
                for (i, (objective, group)) in info.objectives.iter().enumerate() {
                    let (ts, direction) = match objective {
                        Some((term, direction)) => (term.to_string(), *direction),
                        None => {
                            // A group of soft constraints: its objective is the penalty, the
                            // sum of the weights of the violated ones, minimized.
                            let members = info.soft.get(group).cloned().unwrap_or_default();
                            let int = self.fresh("sort");
                            self.emit("Z3_mk_int_sort", MAIN, vec![], Some((&int, Ty::Sort)));
                            let zero = self.fresh("term");
                            self.emit(
                                "Z3_mk_unsigned_int64",
                                MAIN,
                                vec![Arg::Uint(0), var(&int)],
                                Some((&zero, Ty::Ast)),
                            );
                            let mut parts = Vec::new();
                            for (t, w) in members {
                                let weight = self.fresh("term");
                                self.emit(
                                    "Z3_mk_unsigned_int64",
                                    MAIN,
                                    vec![Arg::Uint(u64::from(w)), var(&int)],
                                    Some((&weight, Ty::Ast)),
                                );
                                let part = self.fresh("term");
                                self.emit(
                                    "Z3_mk_ite",
                                    MAIN,
                                    vec![Arg::Var(t.to_string()), var(&zero), var(&weight)],
                                    Some((&part, Ty::Ast)),
                                );
                                parts.push(Arg::Var(part));
                            }
                            let penalty = self.fresh("penalty");
                            let n = parts.len() as u64;
                            self.emit(
                                "Z3_mk_add",
                                MAIN,
                                vec![Arg::Uint(n), Arg::Array(Ty::Ast, parts)],
                                Some((&penalty, Ty::Ast)),
                            );
                            (penalty, Direction::Minimize)
                        }
                    };
                    let direction = &direction;
                    let reported = self.fresh("bound");
                    let func = if matches!(check, Check::OptValues { .. })
                        || *direction == Direction::Minimize
                    {
                        "Z3_optimize_get_lower"
                    } else {
                        "Z3_optimize_get_upper"
                    };
                    let func = if matches!(check, Check::OptValues { .. }) {
                        "Z3_optimize_get_lower"
                    } else {
                        func
                    };
                    self.emit(
                        func,
                        MAIN,
                        vec![var(&os), Arg::Uint(i as u64)],
                        Some((&reported, Ty::Ast)),
                    );
                    // A bit-vector objective's bound is an integer: compared as a bit-vector
                    // of the objective's width (the executor's `coerce`).
                    let width = ts
                        .strip_prefix('t')
                        .and_then(|n| n.parse().ok())
                        .and_then(|n| self.state.terms.get(&TermId(n)))
                        .and_then(|info| match info.sort {
                            Sort::BitVec(w) => Some(w),
                            _ => None,
                        });
                    let reported = match width {
                        Some(w) => {
                            let bv = self.fresh("bound");
                            self.emit(
                                "Z3_mk_int2bv",
                                MAIN,
                                vec![Arg::Uint(u64::from(w)), var(&reported)],
                                Some((&bv, Ty::Ast)),
                            );
                            let simp = self.fresh("bound");
                            self.emit("Z3_simplify", MAIN, vec![var(&bv)], Some((&simp, Ty::Ast)));
                            simp
                        }
                        None => reported,
                    };
                    let v = self.fresh("value");
                    let ok = self.fresh("res");
                    self.emit(
                        "Z3_model_eval",
                        MAIN,
                        vec![
                            var(&ms),
                            var(&ts),
                            Arg::Bool(true),
                            Arg::Out(Var {
                                name: v.clone(),
                                ty: Ty::Ast,
                            }),
                        ],
                        Some((&ok, Ty::Bool)),
                    );
                    match check {
                        Check::OptValues { .. } => {
                            let message = format!("expected the reported optimum of objective {i} of {opt} to be its value in model {model}");
                            self.fails_unless_equal("Z3_mk_eq", &reported, &v, message);
                        }
                        _ => {
                            let z = self.reference_solver(MAIN, Some(CHECK_RLIMIT));
                            for h in &info.hard {
                                self.emit(
                                    "Z3_solver_assert",
                                    MAIN,
                                    vec![var(&z), Arg::Var(h.to_string())],
                                    None,
                                );
                            }
                            for (t, value) in &fixed {
                                let eq = self.fresh("term");
                                self.emit(
                                    "Z3_mk_eq",
                                    MAIN,
                                    vec![var(t), var(value)],
                                    Some((&eq, Ty::Ast)),
                                );
                                self.emit("Z3_solver_assert", MAIN, vec![var(&z), var(&eq)], None);
                            }
                            let better = self.fresh("term");
                            let cmp = match (*direction == Direction::Minimize, width.is_some()) {
                                (true, false) => "Z3_mk_lt",
                                (false, false) => "Z3_mk_gt",
                                (true, true) => "Z3_mk_bvult",
                                (false, true) => "Z3_mk_bvugt",
                            };
                            self.emit(cmp, MAIN, vec![var(&ts), var(&v)], Some((&better, Ty::Ast)));
                            self.emit("Z3_solver_assert", MAIN, vec![var(&z), var(&better)], None);
                            let r = self.lbool("Z3_solver_check", MAIN, vec![var(&z)]);
                            let verb = if *direction == Direction::Minimize {
                                "smaller"
                            } else {
                                "larger"
                            };
                            self.step(Step::Fail {
                                cond: Cond::AnswerIs(r, SatResult::Sat),
                                exit: 5,
                                message: format!("expected objective {i} of {opt} to be optimal in model {model}: the hard constraints have a model with a {verb} value (the objectives before it unchanged)"),
                            });
                        }
                    }
                    fixed.push((ts, v));
                }
                self.note(format!("`{}`: the suite skips objectives whose bounds are infinite, infinitesimal or differ; this program judges them all", check.name()));
            }
            Check::Independent { .. } | Check::Quant { .. } => {
                self.note(format!("`{}`: the independent evaluator is part of this suite, not of Z3: not expressed", check.name()));
            }
            Check::Core(_)
            | Check::Consequences { .. }
            | Check::Goal(_)
            | Check::Interrupt(_)
            | Check::Relation { .. } => {
                self.note(format!(
                    "`{}`: not expressed by the writers yet",
                    check.name()
                ));
            }
        }
    }
}
