//! The call tables: for each Z3 release, what each call number of its logs is (the function's
//! name, result type and parameters), read from the data files `z3log/tables/VERSION.tsv`
//! that `z3log/tables/generate.py` writes from that release's API headers (the file format
//! is described there). The files are compiled in (`build.rs` lists them).

use std::fmt;

include!(concat!(env!("OUT_DIR"), "/tables.rs"));

/// A primitive C type of Z3's API (update_api.py's names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prim {
    Void,
    VoidPtr,
    Int,
    Uint,
    Int64,
    Uint64,
    String,
    StringPtr,
    Bool,
    Symbol,
    PrintMode,
    ErrorCode,
    Double,
    Float,
    Char,
    CharPtr,
    Lbool,
}

impl Prim {
    fn from_name(name: &str) -> Option<Prim> {
        Some(match name {
            "VOID" => Prim::Void,
            "VOID_PTR" => Prim::VoidPtr,
            "INT" => Prim::Int,
            "UINT" => Prim::Uint,
            "INT64" => Prim::Int64,
            "UINT64" => Prim::Uint64,
            "STRING" => Prim::String,
            "STRING_PTR" => Prim::StringPtr,
            "BOOL" => Prim::Bool,
            "SYMBOL" => Prim::Symbol,
            "PRINT_MODE" => Prim::PrintMode,
            "ERROR_CODE" => Prim::ErrorCode,
            "DOUBLE" => Prim::Double,
            "FLOAT" => Prim::Float,
            "CHAR" => Prim::Char,
            "CHAR_PTR" => Prim::CharPtr,
            "LBOOL" => Prim::Lbool,
            _ => return None,
        })
    }
}

/// A parameter's or result's type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Type {
    Prim(Prim),
    /// An object type declared by `def_Type` (`AST`, `SOLVER`, `CONTEXT`, ...).
    Object(Box<str>),
    /// A callback type declared by `Z3_DECLARE_CLOSURE` (`Z3_error_handler`, ...).
    Callback(Box<str>),
}

impl Type {
    fn parse(token: &str) -> Option<Type> {
        if let Some(name) = token.strip_prefix('@') {
            return (!name.is_empty()).then(|| Type::Object(name.into()));
        }
        if let Some(name) = token.strip_prefix('&') {
            return (!name.is_empty()).then(|| Type::Callback(name.into()));
        }
        Prim::from_name(token).map(Type::Prim)
    }

    pub fn is_object(&self) -> bool {
        matches!(self, Type::Object(_))
    }
}

/// How a parameter passes its value (update_api.py's `_in`, `_out`, `_in_array`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    In,
    Out,
    /// `size`: the position of the parameter that holds the length.
    InArray {
        size: u32,
    },
    InoutArray {
        size: u32,
    },
    /// `capacity`: the position of the parameter the writer logged the length from.
    OutArray {
        capacity: u32,
        size: u32,
    },
    OutManagedArray {
        size: u32,
    },
    /// A callback: Z3's writer logs nothing for it.
    FnPtr,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    pub dir: Dir,
    pub ty: Type,
}

impl Param {
    fn parse(token: &str) -> Option<Param> {
        let (dir, ty) = token.split_once(':')?;
        let ty = Type::parse(ty)?;
        let positions = |rest: &str| -> Option<Vec<u32>> {
            rest.strip_prefix('(')?
                .strip_suffix(')')?
                .split(',')
                .map(|n| n.parse().ok())
                .collect()
        };
        let dir = match dir
            .split_once('(')
            .map_or((dir, ""), |(d, _)| (d, &dir[d.len()..]))
        {
            ("in", "") => Dir::In,
            ("out", "") => Dir::Out,
            ("fnptr", "") => Dir::FnPtr,
            ("in_array", rest) => match positions(rest)?[..] {
                [size] => Dir::InArray { size },
                _ => return None,
            },
            ("inout_array", rest) => match positions(rest)?[..] {
                [size] => Dir::InoutArray { size },
                _ => return None,
            },
            ("out_managed_array", rest) => match positions(rest)?[..] {
                [size] => Dir::OutManagedArray { size },
                _ => return None,
            },
            ("out_array", rest) => match positions(rest)?[..] {
                [capacity, size] => Dir::OutArray { capacity, size },
                _ => return None,
            },
            _ => return None,
        };
        Some(Param { dir, ty })
    }

    /// Whether the writer logs an argument for this parameter (it logs none for callbacks).
    pub fn is_logged(&self) -> bool {
        self.dir != Dir::FnPtr
    }
}

/// One function of a release's API.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    pub number: u32,
    pub name: Box<str>,
    pub result: Type,
    pub params: Vec<Param>,
}

impl Function {
    /// Whether the call only asks something: its name says so (`Z3_get_*`, `Z3_*_get_*`,
    /// `Z3_is_*`, `Z3_*_is_*`, `*_to_string`), it returns no object and writes no object out.
    /// Such a call can be skipped on a Z3 that lacks it without changing what later calls
    /// see (the Python binding's `Z3_get_error_code` after every call, `Z3_is_finite_set_sort`
    /// of 5.4.1's binding).
    pub fn is_query(&self) -> bool {
        let name = self.name.strip_prefix("Z3_").unwrap_or(&self.name);
        let asks = name.starts_with("get_")
            || name.starts_with("is_")
            || name.contains("_get_")
            || name.contains("_is_")
            || name.ends_with("_to_string");
        asks && !self.result.is_object()
            && self.params.iter().all(|p| {
                !(p.ty.is_object()
                    && matches!(
                        p.dir,
                        Dir::Out
                            | Dir::OutArray { .. }
                            | Dir::InoutArray { .. }
                            | Dir::OutManagedArray { .. }
                    ))
            })
    }

    /// Whether the call counts references (`Z3_inc_ref`, `Z3_solver_dec_ref`, ...): it
    /// changes no object a later call sees, only when Z3 may free one.
    pub fn is_reference_counting(&self) -> bool {
        self.result == Type::Prim(Prim::Void)
            && (self.name.ends_with("_inc_ref") || self.name.ends_with("_dec_ref"))
    }

    /// Whether the call makes the context or its configuration (`Z3_mk_config`,
    /// `Z3_set_param_value`, `Z3_mk_context`, `Z3_mk_context_rc`, `Z3_del_config`): the
    /// calls every log starts with, which a minimized log's size does not count.
    pub fn makes_context(&self) -> bool {
        matches!(
            &*self.name,
            "Z3_mk_config"
                | "Z3_set_param_value"
                | "Z3_mk_context"
                | "Z3_mk_context_rc"
                | "Z3_del_config"
        )
    }

    /// The parameters the log has arguments for, with their positions among all parameters.
    pub fn logged_params(&self) -> impl Iterator<Item = (usize, &Param)> {
        self.params
            .iter()
            .enumerate()
            .filter(|(_, p)| p.is_logged())
    }
}

/// The call table of one release.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// The release, `4.8.12.0`.
    pub version: String,
    pub functions: Vec<Function>,
}

/// A log from a release without a table, or a table file that does not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableError {
    Unknown { version: String },
    Corrupt { version: String, line: usize },
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::Unknown { version } => write!(
                f,
                "the log was written by Z3 {version}, which has no call table (tables: {})",
                known_versions().join(", ")
            ),
            TableError::Corrupt { version, line } => {
                write!(
                    f,
                    "the call table of Z3 {version} is corrupt at line {line}"
                )
            }
        }
    }
}

impl std::error::Error for TableError {}

/// Functions a release's log never shows under their own number, however often a program
/// calls them (checked on 4.8.12 and 5.4.1 by calling each with the log open between
/// `Z3_append_log` markers; `docs/api-coverage.md`). Most are implemented without Z3's log
/// macro, many by calling other API functions that log in their place (the quantifier
/// makers log as `Z3_mk_quantifier_ex` and `Z3_mk_quantifier_const_ex`); the last six are
/// logged under another function's number (`Z3_mk_fpa_sub`, `_mul` and `_div` as
/// `Z3_mk_fpa_add`, `Z3_mk_atleast` as `Z3_mk_atmost`, `Z3_mk_pbge` and `Z3_mk_pbeq` as
/// `Z3_mk_pble`), a bug of Z3's logging. A count of calls read from a log cannot see them:
/// the executor counts its own calls of them. The seven algebraic predicates at the end
/// (`Z3_algebraic_gt`, `_le`, `_ge`, `_neq`, `_is_pos`, `_is_neg`, `_is_zero`) call
/// `Z3_algebraic_lt`, `_eq` or `_sign`, which log in their place.
pub const NOT_LOGGED: &[&str] = &[
    "Z3_is_eq_ast",
    "Z3_is_eq_sort",
    "Z3_is_eq_func_decl",
    "Z3_app_to_ast",
    "Z3_sort_to_ast",
    "Z3_func_decl_to_ast",
    "Z3_sort_to_string",
    "Z3_func_decl_to_string",
    "Z3_pattern_to_string",
    "Z3_get_numeral_int",
    "Z3_mk_fpa_sort_16",
    "Z3_mk_fpa_sort_32",
    "Z3_mk_fpa_sort_64",
    "Z3_mk_fpa_sort_128",
    "Z3_mk_fpa_sort_half",
    "Z3_mk_fpa_sort_single",
    "Z3_mk_fpa_sort_double",
    "Z3_mk_fpa_sort_quadruple",
    "Z3_mk_fpa_zero",
    "Z3_mk_fpa_numeral_int_uint",
    "Z3_mk_set_add",
    "Z3_mk_set_del",
    "Z3_mk_set_member",
    "Z3_mk_set_sort",
    "Z3_mk_forall",
    "Z3_mk_exists",
    "Z3_mk_quantifier",
    "Z3_mk_forall_const",
    "Z3_mk_exists_const",
    "Z3_mk_quantifier_const",
    "Z3_get_estimated_alloc_size",
    "Z3_mk_bvadd_no_overflow",
    "Z3_mk_bvadd_no_underflow",
    "Z3_mk_bvsub_no_overflow",
    "Z3_mk_bvsub_no_underflow",
    "Z3_mk_bvsdiv_no_overflow",
    "Z3_mk_bvneg_no_overflow",
    "Z3_optimize_from_string",
    "Z3_optimize_from_file",
    // 4.8.12 only: its `Z3_mk_lstring` writes nothing to the log (5.4.1 logs it).
    "Z3_mk_lstring",
    "Z3_mk_fpa_sub",
    "Z3_mk_fpa_mul",
    "Z3_mk_fpa_div",
    "Z3_mk_atleast",
    "Z3_mk_pbge",
    "Z3_mk_pbeq",
    "Z3_algebraic_gt",
    "Z3_algebraic_le",
    "Z3_algebraic_ge",
    "Z3_algebraic_neq",
    "Z3_algebraic_is_pos",
    "Z3_algebraic_is_neg",
    "Z3_algebraic_is_zero",
    // Logged under another function's number (`Z3_solver_to_string`,
    // `Z3_parse_smtlib2_string`), or not at all (`Z3_solver_interrupt`): checked with a C
    // program against 4.8.12 and 5.4.1's sources.
    "Z3_solver_to_dimacs_string",
    "Z3_parse_smtlib2_file",
    "Z3_solver_interrupt",
    // Called by the executor only inside the callbacks of a fixedpoint's external relation,
    // nested in `Z3_fixedpoint_query` (Z3 logs no nested call).
    "Z3_get_relation_arity",
    "Z3_get_relation_column",
];

/// Functions of the user propagator, of clause observation and the client proof checker
/// (`Z3_set_proof_check_callback`) that no log shows either
/// (checked on 5.4.1 with a Python program's log): those that take a callback (Z3's log has
/// no form for a function pointer, so their calls are not written) and those a program may
/// only call inside a callback, while the solver's check that runs the callback is the call
/// the log shows (nested calls are not logged). Releases before 4.9 lack most of them (the
/// list is checked against the newest table).
pub const NOT_LOGGED_CALLBACKS: &[&str] = &[
    "Z3_solver_propagate_init",
    "Z3_solver_propagate_fixed",
    "Z3_solver_propagate_final",
    "Z3_solver_propagate_eq",
    "Z3_solver_propagate_diseq",
    "Z3_solver_propagate_created",
    "Z3_solver_propagate_decide",
    "Z3_solver_propagate_on_binding",
    "Z3_solver_register_on_clause",
    "Z3_solver_propagate_consequence",
    "Z3_solver_propagate_register_cb",
    "Z3_solver_next_split",
    "Z3_set_proof_check_callback",
];

/// Functions of releases after 4.8.12 that their logs show under another function's number
/// (checked on 5.4.1 with a Python program's log, `Z3_append_log` markers around each call):
/// `Z3_get_quantifier_id` is logged as `Z3_get_quantifier_skolem_id`, a bug of Z3's logging
/// as for the functions at the end of [`NOT_LOGGED`]. The list is checked against the
/// newest table; the executor counts its own calls of them.
pub const NOT_LOGGED_NEWER: &[&str] = &["Z3_get_quantifier_id"];

/// The releases that have a table, oldest first.
pub fn known_versions() -> Vec<&'static str> {
    let mut versions: Vec<&str> = TABLES.iter().map(|(v, _)| *v).collect();
    versions.sort_by_key(|v| version_key(v));
    versions
}

fn version_key(v: &str) -> Vec<u32> {
    v.split('.').map(|p| p.parse().unwrap_or(0)).collect()
}

/// `major.minor.build` of a version: what picks the table (the fourth number, the revision,
/// does not change the API).
fn release(v: &str) -> Vec<u32> {
    let mut key = version_key(v.trim());
    key.resize(3, 0);
    key.truncate(3);
    key
}

impl Table {
    /// The table of the release that wrote a log with `V "version"`.
    pub fn for_version(version: &str) -> Result<Table, TableError> {
        let wanted = release(version);
        let (v, text) = TABLES
            .iter()
            .find(|(v, _)| release(v) == wanted && version.trim().split('.').count() >= 3)
            .ok_or_else(|| TableError::Unknown {
                version: version.to_string(),
            })?;
        Table::parse(v, text)
    }

    /// Reads a table file.
    pub fn parse(version: &str, text: &str) -> Result<Table, TableError> {
        let corrupt = |line: usize| TableError::Corrupt {
            version: version.to_string(),
            line,
        };
        let mut functions = Vec::new();
        for (i, line) in text.lines().enumerate() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let mut fields = line.split('\t');
            let (Some(number), Some(name), Some(result), params) =
                (fields.next(), fields.next(), fields.next(), fields.next())
            else {
                return Err(corrupt(i + 1));
            };
            let number: u32 = number.parse().map_err(|_| corrupt(i + 1))?;
            if number as usize != functions.len() {
                return Err(corrupt(i + 1));
            }
            let params = params
                .unwrap_or("")
                .split(' ')
                .filter(|t| !t.is_empty())
                .map(Param::parse)
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| corrupt(i + 1))?;
            functions.push(Function {
                number,
                name: name.into(),
                result: Type::parse(result).ok_or_else(|| corrupt(i + 1))?,
                params,
            });
        }
        Ok(Table {
            version: version.to_string(),
            functions,
        })
    }

    pub fn function(&self, number: u32) -> Option<&Function> {
        self.functions.get(number as usize)
    }

    pub fn by_name(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| &*f.name == name)
    }
}
