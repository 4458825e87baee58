//! The SMT-LIB text of the terms a round built, from the round's own calls ([`TermTexts`]),
//! so that the independent model check ([`crate::indep`]) never trusts Z3's printer.
//!
//! Every term-building call is recorded as one [`Node`]: its expression with the arguments
//! named `_tN` by term id. [`TermTexts::text`] writes a term as nested `let`s over the
//! sub-terms it reaches (shared sub-terms stay shared, so the text grows with the term's DAG,
//! not its tree). A term that no SMT-LIB expression gives (a `substitute` result, an
//! operation only Z3 knows, a literal without syntax) makes every term above it
//! inexpressible; the check skips those and counts them.

use model::{Call, FuncId, Sort, State, TermId};
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

/// One recorded term: its expression over `_tN` argument names, or why it has none.
#[derive(Clone, Debug)]
pub enum Node {
    Expr { expr: String, args: Vec<TermId> },
    Inexpressible(&'static str),
}

/// The recorded terms and function names of a round.
#[derive(Clone, Debug, Default)]
pub struct TermTexts {
    nodes: HashMap<TermId, Node>,
    funcs: HashMap<FuncId, String>,
}

/// The let-bound name of a term.
fn var(t: TermId) -> String {
    format!("_t{}", t.0)
}

/// A symbol as SMT-LIB writes it: quoted unless simple; `None` when it cannot be written.
pub fn symbol(name: &str) -> Option<String> {
    let simple = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "~!@$%^&*_-+=<>.?/".contains(c));
    if simple {
        Some(name.to_string())
    } else if name.contains(['|', '\\']) {
        None
    } else {
        Some(format!("|{name}|"))
    }
}

/// An exact decimal as an SMT-LIB Real term: `n.0`, `(/ n.0 d.0)`, negated with `-`.
fn real(value: &str) -> Option<String> {
    let (num, den) = untrace::executor::real_parts(value)?;
    let (negative, num) = match num.strip_prefix('-') {
        Some(n) => (true, n.to_string()),
        None => (false, num),
    };
    let body = if den == "1" {
        format!("{num}.0")
    } else {
        format!("(/ {num}.0 {den}.0)")
    };
    Some(if negative {
        format!("(- {body})")
    } else {
        body
    })
}

/// The SMT-LIB term of a `lit` call's value, as the executor builds it.
fn literal(sort: &Sort, value: &str) -> Option<String> {
    Some(match sort {
        Sort::Bool | Sort::RoundingMode => value.to_string(),
        Sort::Int => match value.strip_prefix('-') {
            Some(n) => format!("(- {n})"),
            None => value.to_string(),
        },
        Sort::Real => real(value)?,
        Sort::BitVec(w) => format!("(_ bv{value} {w})"),
        Sort::FloatingPoint(e, s) => match value {
            "nan" => format!("(_ NaN {e} {s})"),
            "+inf" => format!("(_ +oo {e} {s})"),
            "-inf" => format!("(_ -oo {e} {s})"),
            "+zero" => format!("(_ +zero {e} {s})"),
            "-zero" => format!("(_ -zero {e} {s})"),
            // The executor goes through Z3_mk_fpa_numeral_double: the double nearest the
            // decimal, then rounded to the format.
            text => {
                let v: f64 = text.parse().ok()?;
                let exact = real(&format!("{v:?}"))?;
                format!("((_ to_fp {e} {s}) RNE ((_ to_fp 11 53) RNE {exact}))")
            }
        },
        Sort::String => {
            let mut out = String::from("\"");
            for c in value.chars() {
                match c {
                    '"' => out.push_str("\"\""),
                    ' '..='~' if c != '\\' => out.push(c),
                    c => {
                        let _ = write!(out, "\\u{{{:x}}}", c as u32);
                    }
                }
            }
            out.push('"');
            out
        }
        _ => return None,
    })
}

/// The SMT-LIB expression of an operation of the table, or `None` for the operations only Z3
/// knows (`bvredand`, `ext_rotate_left`, the multiplication overflow predicates, ...), which
/// the check leaves to Z3.
fn operation(name: &str, indices: &[u32], args: &[String], first: Option<&Sort>) -> Option<String> {
    let a = args;
    let w = first.and_then(Sort::bv_width).unwrap_or(1);
    let app = |head: &str| {
        if a.is_empty() {
            head.to_string()
        } else {
            format!("({head} {})", a.join(" "))
        }
    };
    let widen = |how: &str, x: &str| format!("((_ {how} 1) {x})");
    // Bits w and w-1 of the (w+1)-bit result of `op` on the sign-extended arguments: #b01 is
    // a signed overflow, #b10 an underflow.
    let signed = |op: &str, bad: &str| {
        format!(
            "(not (= ((_ extract {w} {}) ({op} {} {})) {bad}))",
            w - 1,
            widen("sign_extend", &a[0]),
            widen("sign_extend", &a[1])
        )
    };
    let min = format!("(concat #b1 (_ bv0 {}))", w - 1);
    let min = if w == 1 { "#b1".to_string() } else { min };
    Some(match name {
        "iff" => app("="),
        "bvadd_no_overflow_u" => format!(
            "(= ((_ extract {w} {w}) (bvadd {} {})) #b0)",
            widen("zero_extend", &a[0]),
            widen("zero_extend", &a[1])
        ),
        "bvadd_no_overflow_s" => signed("bvadd", "#b01"),
        "bvadd_no_underflow" => signed("bvadd", "#b10"),
        "bvsub_no_overflow" => signed("bvsub", "#b01"),
        "bvsub_no_underflow_s" => signed("bvsub", "#b10"),
        "bvsub_no_underflow_u" => format!("(bvule {} {})", a[1], a[0]),
        "bvsdiv_no_overflow" => format!(
            "(not (and (= {} {min}) (= {} (bvnot (_ bv0 {w})))))",
            a[0], a[1]
        ),
        "bvneg_no_overflow" => format!("(not (= {} {min}))", a[0]),
        "bvmul_no_overflow_u"
        | "bvmul_no_overflow_s"
        | "bvmul_no_underflow"
        | "bvredand"
        | "bvredor"
        | "ext_rotate_left"
        | "ext_rotate_right"
        | "rem"
        | "^" => return None,
        // The evaluator has no sequences.
        _ if name.starts_with("seq.") => return None,
        _ if indices.is_empty() => app(name),
        _ => {
            let idx: Vec<String> = indices.iter().map(u32::to_string).collect();
            app(&format!("(_ {name} {})", idx.join(" ")))
        }
    })
}

impl TermTexts {
    /// Records the term `t` that `call` returned; `state` is the reference state before or
    /// after the call (only argument sorts and sort ids are read).
    pub fn record(&mut self, call: &Call, t: TermId, state: &State) {
        let sort = |id| state.sorts.get(id).cloned();
        let node = match call {
            Call::Const { sort: s, name } => match (symbol(name), sort(s)) {
                (Some(name), Some(_)) => Node::Expr {
                    expr: name,
                    args: vec![],
                },
                _ => Node::Inexpressible("a constant name without SMT-LIB form"),
            },
            Call::Lit { sort: s, value } => match sort(s).and_then(|s| literal(&s, value)) {
                Some(expr) => Node::Expr { expr, args: vec![] },
                None => Node::Inexpressible("a literal without SMT-LIB form"),
            },
            Call::Apply { func, args } => match self.funcs.get(func) {
                Some(f) if args.is_empty() => Node::Expr {
                    expr: f.clone(),
                    args: vec![],
                },
                Some(f) => Node::Expr {
                    expr: format!(
                        "({f} {})",
                        args.iter().map(|a| var(*a)).collect::<Vec<_>>().join(" ")
                    ),
                    args: args.clone(),
                },
                None => Node::Inexpressible("an unknown function"),
            },
            Call::Op { op, indices, args } => {
                let names: Vec<String> = args.iter().map(|a| var(*a)).collect();
                let first = args
                    .first()
                    .and_then(|a| state.terms.get(a))
                    .map(|i| &i.sort);
                match operation(op.name(), indices, &names, first) {
                    Some(expr) => Node::Expr {
                        expr,
                        args: args.clone(),
                    },
                    None => Node::Inexpressible("an operation only Z3 knows"),
                }
            }
            Call::ConstArray { index, value } => {
                let element = state.terms.get(value).map(|i| i.sort.clone());
                match (sort(index), element) {
                    (Some(i), Some(e)) => Node::Expr {
                        expr: format!("((as const (Array {i} {e})) {})", var(*value)),
                        args: vec![*value],
                    },
                    _ => Node::Inexpressible("a constant array of unknown sorts"),
                }
            }
            // simplify returns an equivalent term: the check evaluates the original.
            Call::Simplify(s) => Node::Expr {
                expr: var(*s),
                args: vec![*s],
            },
            _ => Node::Inexpressible("a term only the Z3 API builds"),
        };
        self.nodes.insert(t, node);
    }

    /// Records the name of a function `fun` declared.
    pub fn record_func(&mut self, f: FuncId, name: &str) {
        if let Some(s) = symbol(name) {
            self.funcs.insert(f, s);
        }
    }

    /// The SMT-LIB text of `t` as nested `let`s, or why it has none.
    pub fn text(&self, t: TermId) -> Result<String, &'static str> {
        // Post-order over the DAG below `t`, iteratively (terms may be deep).
        let mut order: Vec<TermId> = Vec::new();
        let mut seen: HashSet<TermId> = HashSet::new();
        let mut stack: Vec<(TermId, bool)> = vec![(t, false)];
        while let Some((u, expanded)) = stack.pop() {
            if expanded {
                order.push(u);
                continue;
            }
            if !seen.insert(u) {
                continue;
            }
            match self.nodes.get(&u) {
                Some(Node::Expr { args, .. }) => {
                    stack.push((u, true));
                    for a in args.iter().rev() {
                        if !seen.contains(a) {
                            stack.push((*a, false));
                        }
                    }
                }
                Some(Node::Inexpressible(why)) => return Err(why),
                None => return Err("a term the round did not record"),
            }
        }
        let mut out = String::new();
        for u in &order {
            if let Some(Node::Expr { expr, .. }) = self.nodes.get(u) {
                let _ = write!(out, "(let (({} {expr})) ", var(*u));
            }
        }
        out.push_str(&var(t));
        out.push_str(&")".repeat(order.len()));
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_have_smtlib_forms() {
        assert_eq!(literal(&Sort::Int, "-3").as_deref(), Some("(- 3)"));
        assert_eq!(
            literal(&Sort::Real, "-7/2").as_deref(),
            Some("(- (/ 7.0 2.0))")
        );
        assert_eq!(
            literal(&Sort::BitVec(8), "255").as_deref(),
            Some("(_ bv255 8)")
        );
        assert_eq!(
            literal(&Sort::String, "a\"b").as_deref(),
            Some("\"a\"\"b\"")
        );
        assert_eq!(
            literal(&Sort::FloatingPoint(3, 5), "-inf").as_deref(),
            Some("(_ -oo 3 5)")
        );
    }

    #[test]
    fn overflow_predicates_are_standard_bit_vector_formulas() {
        let args = ["x".to_string(), "y".to_string()];
        let s = operation("bvneg_no_overflow", &[], &args[..1], Some(&Sort::BitVec(4)));
        assert_eq!(s.as_deref(), Some("(not (= x (concat #b1 (_ bv0 3))))"));
        let s = operation("bvsub_no_underflow_u", &[], &args, Some(&Sort::BitVec(4)));
        assert_eq!(s.as_deref(), Some("(bvule y x)"));
        assert_eq!(operation("bvredor", &[], &args[..1], None), None);
        let s = operation("extract", &[3, 1], &args[..1], Some(&Sort::BitVec(4)));
        assert_eq!(s.as_deref(), Some("((_ extract 3 1) x)"));
    }
}
