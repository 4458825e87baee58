//! Reproducers that Z3's developers run without this suite: a trace (or a Z3 API log) as a C
//! program against `z3.h`, a Python script on the `z3` package's `z3core`, a Z3 API log of a
//! chosen release, or an SMT-LIB script.
//!
//! Every writer prints one intermediate form, a [`Program`]: the Z3 C calls in order, by
//! name, with their arguments ([`Arg`]: objects by variable, numbers, strings, symbols,
//! arrays, out-parameters), the variables they bind, and the few steps that are no Z3 call:
//! the trace line they come from, a recorded refusal that the call must meet again, and the
//! oracle's conditions ([`Step::Fail`]) with the exit code and the message that say what
//! was expected. [`lower`] makes it from a trace (the same Z3 calls the executor makes for
//! each trace call), [`from_log`] from a Z3 API log; [`c`], [`python`] and [`z3log`]
//! print it. What a writer cannot express is listed in [`Program::unexpressed`], which
//! every writer prints at the top of its file.
//!
//! The reproducers' exit codes follow `untrace`'s: 0 nothing failed (the last line printed
//! says so), 1 an answer differs from the one the trace records (or a recorded refusal did not
//! come), 4 a Z3 error where the trace records none, 5 an oracle check failed; a crash is the
//! crash itself (a signal, or Z3's own exit inside a call).

pub mod c;
pub mod from_log;
pub mod lower;
pub mod python;
pub mod z3log;

use model::call::SatResult;

/// The C type of a variable (what z3.h calls it), which also gives its Python ctypes class
/// and how its references are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Context,
    Config,
    Ast,
    Sort,
    FuncDecl,
    App,
    Pattern,
    Symbol,
    Solver,
    Model,
    Tactic,
    Probe,
    Goal,
    ApplyResult,
    Optimize,
    Params,
    AstVector,
    /// A real closed field number, deleted by `Z3_rcf_del` (no reference count).
    RcfNum,
    /// `Z3_lbool`: a check's answer.
    Lbool,
    /// `Z3_string`: text Z3 owns until its next call.
    Str,
    Bool,
    Uint,
    Int,
    Double,
    /// An object of a type the writers know no name for (a Z3 API log's fixedpoint, stats,
    /// ...): `void *`, which C converts to any pointer type.
    Opaque,
}

impl Ty {
    /// The type's name in z3.h.
    pub fn c_name(self) -> &'static str {
        match self {
            Ty::Context => "Z3_context",
            Ty::Config => "Z3_config",
            Ty::Ast => "Z3_ast",
            Ty::Sort => "Z3_sort",
            Ty::FuncDecl => "Z3_func_decl",
            Ty::App => "Z3_app",
            Ty::Pattern => "Z3_pattern",
            Ty::Symbol => "Z3_symbol",
            Ty::Solver => "Z3_solver",
            Ty::Model => "Z3_model",
            Ty::Tactic => "Z3_tactic",
            Ty::Probe => "Z3_probe",
            Ty::Goal => "Z3_goal",
            Ty::ApplyResult => "Z3_apply_result",
            Ty::Optimize => "Z3_optimize",
            Ty::Params => "Z3_params",
            Ty::AstVector => "Z3_ast_vector",
            Ty::RcfNum => "Z3_rcf_num",
            Ty::Lbool => "Z3_lbool",
            Ty::Str => "Z3_string",
            Ty::Bool => "bool",
            Ty::Uint => "unsigned",
            Ty::Int => "int",
            Ty::Double => "double",
            Ty::Opaque => "void *",
        }
    }

    /// The ctypes class of `z3.z3types` (or ctypes) for arrays and out-parameters.
    pub fn py_name(self) -> &'static str {
        match self {
            Ty::Context => "ContextObj",
            Ty::Config => "Config",
            Ty::Ast => "Ast",
            Ty::Sort => "Sort",
            Ty::FuncDecl => "FuncDecl",
            Ty::App => "Ast",
            Ty::Pattern => "Pattern",
            Ty::Symbol => "Symbol",
            Ty::Solver => "SolverObj",
            Ty::Model => "Model",
            Ty::Tactic => "TacticObj",
            Ty::Probe => "ProbeObj",
            Ty::Goal => "GoalObj",
            Ty::ApplyResult => "ApplyResultObj",
            Ty::Optimize => "OptimizeObj",
            Ty::Params => "Params",
            Ty::AstVector => "AstVectorObj",
            Ty::RcfNum => "RCFNumObj",
            Ty::Lbool | Ty::Int => "ctypes.c_int",
            Ty::Str => "ctypes.c_char_p",
            Ty::Bool => "ctypes.c_bool",
            Ty::Uint => "ctypes.c_uint",
            Ty::Double => "ctypes.c_double",
            Ty::Opaque => "ctypes.c_void_p",
        }
    }

    /// The type of the table's object name (`AST`, `SOLVER`, ...), as z3log's tables spell
    /// them.
    pub fn of_table(name: &str) -> Option<Ty> {
        Some(match name {
            "CONTEXT" => Ty::Context,
            "CONFIG" => Ty::Config,
            "AST" => Ty::Ast,
            "SORT" => Ty::Sort,
            "FUNC_DECL" => Ty::FuncDecl,
            "APP" => Ty::App,
            "PATTERN" => Ty::Pattern,
            "SOLVER" => Ty::Solver,
            "MODEL" => Ty::Model,
            "TACTIC" => Ty::Tactic,
            "PROBE" => Ty::Probe,
            "GOAL" => Ty::Goal,
            "APPLY_RESULT" => Ty::ApplyResult,
            "OPTIMIZE" => Ty::Optimize,
            "PARAMS" => Ty::Params,
            "AST_VECTOR" => Ty::AstVector,
            "RCF_NUM" => Ty::RcfNum,
            _ => return None,
        })
    }

    /// The function that takes a reference to an object of this type, and whether it takes
    /// the object as an AST (`Z3_sort_to_ast` first); `None` for values.
    pub fn inc_ref(self) -> Option<(&'static str, Option<&'static str>)> {
        Some(match self {
            Ty::Ast | Ty::App => ("Z3_inc_ref", None),
            Ty::Sort => ("Z3_inc_ref", Some("Z3_sort_to_ast")),
            Ty::FuncDecl => ("Z3_inc_ref", Some("Z3_func_decl_to_ast")),
            Ty::Pattern => ("Z3_inc_ref", Some("Z3_pattern_to_ast")),
            Ty::Solver => ("Z3_solver_inc_ref", None),
            Ty::Model => ("Z3_model_inc_ref", None),
            Ty::Tactic => ("Z3_tactic_inc_ref", None),
            Ty::Probe => ("Z3_probe_inc_ref", None),
            Ty::Goal => ("Z3_goal_inc_ref", None),
            Ty::ApplyResult => ("Z3_apply_result_inc_ref", None),
            Ty::Optimize => ("Z3_optimize_inc_ref", None),
            Ty::Params => ("Z3_params_inc_ref", None),
            Ty::AstVector => ("Z3_ast_vector_inc_ref", None),
            Ty::Context
            | Ty::Config
            | Ty::RcfNum
            | Ty::Symbol
            | Ty::Lbool
            | Ty::Str
            | Ty::Bool
            | Ty::Uint
            | Ty::Int
            | Ty::Double
            | Ty::Opaque => return None,
        })
    }

    /// The function that gives a reference back (see [`Ty::inc_ref`]).
    pub fn dec_ref(self) -> Option<(&'static str, Option<&'static str>)> {
        let (inc, cast) = self.inc_ref()?;
        Some((
            DEC_REF
                .iter()
                .find(|(i, _)| *i == inc)
                .map_or(inc, |(_, d)| d),
            cast,
        ))
    }
}

const DEC_REF: [(&str, &str); 10] = [
    ("Z3_inc_ref", "Z3_dec_ref"),
    ("Z3_solver_inc_ref", "Z3_solver_dec_ref"),
    ("Z3_model_inc_ref", "Z3_model_dec_ref"),
    ("Z3_tactic_inc_ref", "Z3_tactic_dec_ref"),
    ("Z3_probe_inc_ref", "Z3_probe_dec_ref"),
    ("Z3_goal_inc_ref", "Z3_goal_dec_ref"),
    ("Z3_apply_result_inc_ref", "Z3_apply_result_dec_ref"),
    ("Z3_optimize_inc_ref", "Z3_optimize_dec_ref"),
    ("Z3_params_inc_ref", "Z3_params_dec_ref"),
    ("Z3_ast_vector_inc_ref", "Z3_ast_vector_dec_ref"),
];

/// A variable of the program: a C identifier (and Python name) with its type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Var {
    pub name: String,
    pub ty: Ty,
}

/// One argument of a Z3 call.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// A variable bound before (its name).
    Var(String),
    /// A null pointer (an optional object not given).
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Double(f64),
    /// A C string.
    Str(String),
    /// A string symbol (`Z3_mk_string_symbol` of the text, in the call's context).
    Sym(String),
    /// An array of the element type, its length given by the argument before it.
    Array(Ty, Vec<Arg>),
    /// An out-parameter: the call writes the variable.
    Out(Var),
    /// The variable converted by a function of the call's context and it
    /// (`Z3_sort_to_ast(ctx, s1)`, `Z3_to_app(ctx, t1)`).
    Conv(&'static str, String),
}

/// What a Z3 error at a call means.
#[derive(Clone, Debug, PartialEq)]
pub enum OnError {
    /// No error is allowed: one is the finding (exit 4).
    Finding,
    /// The trace records this refusal: the call must meet one (else exit 1).
    Recorded(String),
    /// An error is no finding (a Z3 API log's calls: the program that wrote it may have
    /// expected the error); the program goes on.
    Ignored,
}

/// One Z3 C call.
#[derive(Clone, Debug, PartialEq)]
pub struct Z3Call {
    pub func: String,
    pub args: Vec<Arg>,
    /// The variable its result is bound to.
    pub bind: Option<Var>,
    /// The context whose error code tells whether the call failed (none for the functions
    /// of configurations and global parameters).
    pub ctx: Option<String>,
    pub on_error: OnError,
}

/// When a failure fires.
#[derive(Clone, Debug, PartialEq)]
pub enum Cond {
    /// The answer (a `Z3_lbool` variable) is not the recorded one.
    AnswerIsNot(String, SatResult),
    /// The Boolean AST's value (`Z3_get_bool_value`) is not true.
    NotTrue { ctx: String, ast: String },
    /// The Boolean AST's value is false.
    IsFalse { ctx: String, ast: String },
    /// Both answers are definite and differ.
    AnswersDiffer(String, String),
    /// The first answer is the first value and the second the second.
    Answers(String, SatResult, String, SatResult),
    /// The answer is this value.
    AnswerIs(String, SatResult),
}

/// One step of the program.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// The trace line (or log call) the following steps come from.
    Line(String),
    Call(Z3Call),
    /// `var = other` (another name for an object already made).
    Alias {
        var: Var,
        of: String,
    },
    /// When `cond` holds: print `message` and exit with `exit`.
    Fail {
        cond: Cond,
        exit: u8,
        message: String,
    },
    /// A remark the writers print as a comment.
    Note(String),
    /// A user propagator's check (`check_propagator`), which the C and Python writers print
    /// as a call of callbacks and a judgement of their own (a Z3 API log cannot express it).
    Propagate(Propagate),
}

/// What `check_propagator` needs: a fresh simple solver of `ctx` given `assertions`, a
/// propagator watching `terms` in the mode, and the judgement of the executor's check.
#[derive(Clone, Debug, PartialEq)]
pub struct Propagate {
    pub ctx: String,
    pub assertions: Vec<String>,
    pub terms: Vec<String>,
    pub enumerate: bool,
    /// The resource limit of every solver of the check.
    pub rlimit: u64,
}

/// A reproducer in the intermediate form.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Program {
    /// Where it comes from (the trace's file name).
    pub source: String,
    /// The Z3 the trace was recorded on.
    pub z3_version: Option<String>,
    /// What the trace's failure is, for the file's header (`; stderr:` and the like).
    pub expected: Vec<String>,
    pub steps: Vec<Step>,
    /// What the writers cannot express (a check they cannot run, a call they stand in for),
    /// one line each.
    pub unexpressed: Vec<String>,
    /// The calls delete their contexts themselves (a log's): the writers add no
    /// `Z3_del_context` at the end.
    pub keeps_contexts: bool,
}

impl Program {
    /// The variables the program binds, in order of first binding.
    pub fn variables(&self) -> Vec<Var> {
        let mut seen = std::collections::HashSet::new();
        let mut vars = Vec::new();
        let mut add = |v: &Var| {
            if seen.insert(v.name.clone()) {
                vars.push(v.clone());
            }
        };
        for step in &self.steps {
            match step {
                Step::Call(call) => {
                    if let Some(v) = &call.bind {
                        add(v);
                    }
                    for a in &call.args {
                        if let Arg::Out(v) = a {
                            add(v);
                        }
                    }
                }
                Step::Alias { var, .. } => add(var),
                Step::Line(_) | Step::Fail { .. } | Step::Note(_) | Step::Propagate(_) => {}
            }
        }
        vars
    }

    /// The contexts the program makes, in order.
    pub fn contexts(&self) -> Vec<String> {
        self.variables()
            .into_iter()
            .filter(|v| v.ty == Ty::Context)
            .map(|v| v.name)
            .collect()
    }
}

/// The formats `untrace --emit` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    C,
    Python,
    Z3log,
    Smt2,
}

/// The answer's name as the writers print it.
pub fn answer_name(r: SatResult) -> &'static str {
    r.name()
}

/// The answer as z3.h names it (`Z3_lbool`): the C program and the Python script (whose
/// `z3.z3core` keeps z3.h's names) compare with the same constants.
pub fn lbool_name(r: SatResult) -> &'static str {
    match r {
        SatResult::Sat => "Z3_L_TRUE",
        SatResult::Unsat => "Z3_L_FALSE",
        SatResult::Unknown => "Z3_L_UNDEF",
    }
}

/// A double as a literal of a language whose spellings of NaN, +infinity and -infinity are
/// `special` (Rust's shortest round-trip digits are a literal in C and Python alike).
pub fn double_literal(d: f64, special: [&str; 3]) -> String {
    let [nan, inf, neg_inf] = special;
    if d.is_nan() {
        nan.into()
    } else if d.is_infinite() {
        if d > 0.0 { inf } else { neg_inf }.into()
    } else {
        format!("{d:?}")
    }
}

/// A trace line or message as one line of comment text (no control characters, no `*/`).
pub fn comment_text(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .replace("*/", "* /")
}

/// The reproducer of `trace` (read from the file `source`, whose leading comment lines are
/// `header`) in `format`; `release` is the Z3 release a log is numbered for (default: the
/// trace's Z3, else 4.8.12.0). Also returns what the writer could not express.
pub fn emit(
    format: Format,
    source: &str,
    trace: &model::trace::Trace,
    header: Vec<String>,
    release: Option<&str>,
) -> Result<(String, Vec<String>), String> {
    if format == Format::Smt2 {
        let mut text = String::new();
        for h in &header {
            text.push_str(&format!("; {}\n", comment_text(h)));
        }
        text.push_str("; expected: each check-sat answers what its `; recorded:` comment says (the trace's Z3)\n");
        text.push_str(&crate::smt2::write_script(source, trace));
        return Ok((text, Vec::new()));
    }
    let mut program = lower::lower(source, trace);
    program.expected = header;
    let text = match format {
        Format::C => c::write(&program),
        Format::Python => python::write(&program),
        Format::Z3log => {
            let release = release
                .map(str::to_string)
                .or_else(|| trace.z3_version.clone())
                .unwrap_or_else(|| "4.8.12.0".into());
            z3log::write(&program, &release)?
        }
        Format::Smt2 => unreachable!("written above"),
    };
    Ok((text, program.unexpressed))
}

/// The leading `; key: value` comment lines of a text trace (its expected behaviour), without
/// the `; `.
pub fn header_comments(raw: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(raw)
        .lines()
        .take_while(|l| l.starts_with(';'))
        .map(|l| l.trim_start_matches(';').trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

/// Writes `text` to `out` through a temporary file in the same folder and a rename, so that
/// `out` is whole or untouched.
pub fn write_atomically(out: &std::path::Path, text: &str) -> Result<(), String> {
    use std::io::Write as _;
    let dir = out
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or_else(|| std::path::Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)
        .map_err(|e| format!("{}: cannot write: {e}", out.display()))?;
    tmp.write_all(text.as_bytes())
        .map_err(|e| format!("{}: cannot write: {e}", out.display()))?;
    tmp.persist(out)
        .map_err(|e| format!("{}: cannot write: {}", out.display(), e.error))?;
    Ok(())
}

/// The file names of a failure folder's reproducers.
pub const FOLDER_FILES: [(&str, Format); 3] = [
    ("repro.c", Format::C),
    ("repro.py", Format::Python),
    ("repro.smt2", Format::Smt2),
];

/// Whether every call of the trace has an SMT-LIB form (the oracle's checks aside, which the
/// script states as expected answers), so that an SMT-LIB script says what the trace does.
pub fn smt2_possible(trace: &model::trace::Trace) -> bool {
    trace.entries.iter().all(|e| {
        matches!(e.call, model::Call::Check(_))
            || e.call.spec().smt2 != model::call_args::Smt2::ApiOnly
    })
}

/// Writes the reproducers of the trace at `trace_path` into `dir` (`repro.c`, `repro.py` and,
/// where every call has an SMT-LIB form, `repro.smt2`), each through a temporary file, with
/// `header` (what the finding is) in their first comment; returns the files written.
pub fn write_folder(
    dir: &std::path::Path,
    trace_path: &std::path::Path,
    header: Vec<String>,
) -> Result<Vec<std::path::PathBuf>, String> {
    let trace = crate::replay::read_trace(trace_path).map_err(|(_, m)| m)?;
    let source = trace_path.file_name().map_or_else(
        || trace_path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let mut written = Vec::new();
    for (name, format) in FOLDER_FILES {
        let path = dir.join(name);
        if format == Format::Smt2 && !smt2_possible(&trace) {
            // A stale script of an earlier trace must not stay beside the new reproducers.
            let _ = std::fs::remove_file(&path);
            continue;
        }
        let (text, _) = emit(format, &source, &trace, header.clone(), None)?;
        write_atomically(&path, &text)?;
        written.push(path);
    }
    Ok(written)
}

/// The reproducer of the Z3 API log at `path` in `format` (`c`, `python`, or `z3log` for
/// another release), and what the writer could not express.
pub fn emit_log(
    format: Format,
    path: &std::path::Path,
    release: Option<&str>,
) -> Result<(String, Vec<String>), String> {
    let loaded = ::z3log::load(path).map_err(|e| e.message)?;
    let source = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let mut program = from_log::from_log(&source, &loaded);
    program.expected =
        vec!["a Z3 API log replayed: its Z3 errors are no finding, a crash crashes".to_string()];
    let text = match format {
        Format::C => c::write(&program),
        Format::Python => python::write(&program),
        Format::Z3log => {
            let release = release
                .map(str::to_string)
                .unwrap_or_else(|| loaded.table.version.clone());
            z3log::write(&program, &release)?
        }
        Format::Smt2 => {
            return Err("a Z3 API log has no SMT-LIB form (--emit c, python or z3log)".into())
        }
    };
    Ok((text, program.unexpressed))
}
