//! The quantifier and lambda makers of Z3 other than the one `forall`/`exists` use
//! (`Z3_mk_quantifier_const_ex`): what `quant_rebuild` may make again of a quantifier, and
//! what each maker takes ([`Maker::applies`]).
//!
//! A quantifier maker over constants (`Z3_mk_forall_const`, ...) takes the quantifier's
//! variables; one over de Bruijn indices (`Z3_mk_quantifier`, ...) takes their sorts and
//! names with a body whose variables are `Z3_mk_bound` indices. Either must give the very
//! quantifier the trace made (Z3 shares equal terms). The lambda makers give
//! `lambda x. body`, an array from the variable's sort to Bool.

use crate::state::QuantifierShape;

/// How a maker takes the variables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binding {
    /// Constants (the `var` terms).
    Consts,
    /// Sorts, names and a body over de Bruijn indices.
    Indices,
}

/// One maker of [`MAKERS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Maker {
    /// The C function.
    pub name: &'static str,
    pub binding: Binding,
    /// `Some(forall)` for a maker of one quantifier only; `None` where it takes the flag.
    pub forall: Option<bool>,
    /// Whether it takes no-patterns.
    pub no_patterns: bool,
    /// Whether it makes a lambda (both lambda makers run, and must agree).
    pub lambda: bool,
}

const fn maker(
    name: &'static str,
    binding: Binding,
    forall: Option<bool>,
    no_patterns: bool,
    lambda: bool,
) -> Maker {
    Maker {
        name,
        binding,
        forall,
        no_patterns,
        lambda,
    }
}

/// Every maker `quant_rebuild` names.
pub const MAKERS: &[Maker] = &[
    maker(
        "Z3_mk_forall_const",
        Binding::Consts,
        Some(true),
        false,
        false,
    ),
    maker(
        "Z3_mk_exists_const",
        Binding::Consts,
        Some(false),
        false,
        false,
    ),
    maker(
        "Z3_mk_quantifier_const",
        Binding::Consts,
        None,
        false,
        false,
    ),
    maker("Z3_mk_quantifier", Binding::Indices, None, false, false),
    maker("Z3_mk_quantifier_ex", Binding::Indices, None, true, false),
    maker("Z3_mk_forall", Binding::Indices, Some(true), false, false),
    maker("Z3_mk_exists", Binding::Indices, Some(false), false, false),
    // `Z3_mk_lambda` (indices) and `Z3_mk_lambda_const` (constants) alike.
    maker("Z3_mk_lambda", Binding::Indices, None, false, true),
];

impl Maker {
    pub fn by_name(name: &str) -> Option<Maker> {
        MAKERS.iter().copied().find(|m| m.name == name)
    }

    /// Whether the maker can make again the quantifier of this shape (`Ok`), or why not.
    pub fn applies(&self, q: &QuantifierShape) -> Result<(), String> {
        if q.vars.is_empty() {
            return Err("a quantifier without variables is its body in Z3".into());
        }
        if self.forall.is_some_and(|f| f != q.forall) {
            return Err(format!(
                "{} makes {} quantifiers only",
                self.name,
                if q.forall { "existential" } else { "universal" }
            ));
        }
        if !self.no_patterns && !q.no_patterns.is_empty() {
            return Err(format!("{} takes no no-patterns", self.name));
        }
        if self.lambda && q.vars.len() != 1 {
            return Err("a lambda of one variable only (arrays have one index here)".into());
        }
        Ok(())
    }
}
