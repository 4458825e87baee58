//! What the model knows of Z3's configuration space that Z3 cannot tell at run time:
//! the logics and tactics that `Solver::new_for_logic` and `Tactic::new` accept on 4.8.12.
//! The parameters themselves are read from the loaded Z3 (`Z3_solver_get_param_descrs`, by
//! `untrace::executor::solver_param_descrs`) as [`ParamDescr`]s.

/// The kind of a parameter as Z3 reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ParamKind {
    Uint,
    Bool,
    Double,
    Symbol,
    String,
    Other,
}

/// One parameter description read from Z3.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ParamDescr {
    pub name: String,
    pub kind: ParamKind,
    pub doc: String,
}

/// Logics accepted by `new_solver logic`.
pub const LOGICS: &[&str] = &[
    "QF_BV",
    "QF_ABV",
    "QF_UFBV",
    "QF_AUFBV",
    "QF_LIA",
    "QF_LRA",
    "QF_NIA",
    "QF_NRA",
    "QF_UF",
    "QF_UFLIA",
    "QF_UFLRA",
    "QF_UFNIA",
    "QF_AX",
    "QF_ALIA",
    "QF_AUFLIA",
    "QF_FP",
    "QF_BVFP",
    "QF_S",
    "QF_SLIA",
    "LIA",
    "LRA",
    "NIA",
    "NRA",
    "UF",
    "UFLIA",
    "AUFLIA",
    "ALL",
];

/// Tactics accepted by `new_solver tactic` (each has a solver form).
pub const TACTICS: &[&str] = &[
    "smt", "qfbv", "qflia", "qflra", "qfnia", "qfnra", "qfuf", "qfufbv", "qfaufbv", "qffp",
    "qfbv-sls", "sat", "nlsat", "default",
];
