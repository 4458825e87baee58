//! The SMT-LIB text of the terms a round built, from the round's own calls ([`TermTexts`]),
//! so that the independent model check (`check_indep`, `check_eval`) never trusts Z3's
//! printer.
//!
//! Every term-building call is recorded as one [`Node`]: its expression with the arguments
//! named `_tN` by term id. [`TermTexts::text`] writes a term as nested `let`s over the
//! sub-terms it reaches (shared sub-terms stay shared, so the text grows with the term's DAG,
//! not its tree). A term that no SMT-LIB expression gives (a `substitute` result, an
//! operation only Z3 knows, a literal without syntax) makes every term above it
//! inexpressible; the check skips those and counts them.

use model::call_text::{datatype_op, literal, operation, symbol, Dialect};
use model::{Call, FuncId, State, TermId};
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

/// One recorded term: its expression over `_tN` argument names, or why it has none.
#[derive(Clone, Debug)]
pub enum Node {
    Expr {
        /// The call that built the term (an operation's name, `const`, `apply`, ...).
        head: &'static str,
        expr: String,
        args: Vec<TermId>,
    },
    Inexpressible {
        /// The call that built the term.
        head: &'static str,
        why: &'static str,
    },
}

/// The recorded terms and function names of a round.
#[derive(Clone, Debug, Default)]
pub struct TermTexts {
    nodes: HashMap<TermId, Node>,
    funcs: HashMap<FuncId, String>,
}

/// The longest text of a term that a substitution copies (each substitution holds a copy
/// of its term's text, so nested ones could grow it without bound).
const MAX_SUBSTITUTION_TEXT: usize = 1 << 20;

/// The let-bound name of a term.
pub fn var(t: TermId) -> String {
    format!("_t{}", t.0)
}

/// The SMT-LIB name of the bound variable `t` (made by `var`).
pub fn bound_var(t: TermId) -> String {
    format!("_v{}", t.0)
}

impl TermTexts {
    /// Records the term `t` that `call` returned; `state` is the reference state before or
    /// after the call (only argument sorts and sort ids are read).
    pub fn record(&mut self, call: &Call, t: TermId, state: &State) {
        let sort = |id| state.sorts.get(id).cloned();
        let head = call.name();
        let node = match call {
            Call::Const { sort: s, name } => match (symbol(name), sort(s)) {
                (Some(name), Some(_)) => Node::Expr {
                    head,
                    expr: name,
                    args: vec![],
                },
                _ => Node::Inexpressible {
                    head,
                    why: "a constant name without SMT-LIB form",
                },
            },
            Call::Lit { sort: s, value } => match sort(s).and_then(|s| literal(&s, value)) {
                Some(expr) => Node::Expr {
                    head,
                    expr,
                    args: vec![],
                },
                None => Node::Inexpressible {
                    head,
                    why: "a literal without SMT-LIB form",
                },
            },
            Call::AsArray(func) => match self.funcs.get(func) {
                Some(f) => Node::Expr {
                    head,
                    expr: format!("(_ as-array {f})"),
                    args: vec![],
                },
                None => Node::Inexpressible {
                    head,
                    why: "an unknown function",
                },
            },
            Call::Apply { func, args } => match self.funcs.get(func) {
                Some(f) if args.is_empty() => Node::Expr {
                    head,
                    expr: f.clone(),
                    args: vec![],
                },
                Some(f) => Node::Expr {
                    head,
                    expr: format!(
                        "({f} {})",
                        args.iter().map(|a| var(*a)).collect::<Vec<_>>().join(" ")
                    ),
                    args: args.clone(),
                },
                None => Node::Inexpressible {
                    head,
                    why: "an unknown function",
                },
            },
            Call::Op { op, indices, args } => {
                let names: Vec<String> = args.iter().map(|a| var(*a)).collect();
                let first = args
                    .first()
                    .and_then(|a| state.terms.get(a))
                    .map(|i| &i.sort);
                match operation(op.name(), indices, &names, first, Dialect::Evaluator) {
                    Some(expr) => Node::Expr {
                        head,
                        expr,
                        args: args.clone(),
                    },
                    None => Node::Inexpressible {
                        head,
                        why: "an operation only Z3 knows",
                    },
                }
            }
            Call::ConstArray { index, value } => {
                let element = state.terms.get(value).map(|i| i.sort.clone());
                match (sort(index), element) {
                    (Some(i), Some(e)) => Node::Expr {
                        head,
                        expr: format!("((as const (Array {i} {e})) {})", var(*value)),
                        args: vec![*value],
                    },
                    _ => Node::Inexpressible {
                        head,
                        why: "a constant array of unknown sorts",
                    },
                }
            }
            // The empty and full sets are constant arrays to Bool.
            Call::EmptySet(s) | Call::FullSet(s) => match sort(s) {
                Some(element) => Node::Expr {
                    head,
                    expr: format!(
                        "((as const (Array {element} Bool)) {})",
                        matches!(call, Call::FullSet(_))
                    ),
                    args: vec![],
                },
                None => Node::Inexpressible {
                    head,
                    why: "a set of an unknown sort",
                },
            },
            // A bound variable is named by its term id, so no constant of the round can
            // capture it.
            Call::Var { sort: s, .. } if sort(s).is_some() => Node::Expr {
                head,
                expr: bound_var(t),
                args: vec![],
            },
            // A quantifier is a leaf of the let-DAG: its body's lets go inside its binder,
            // where the variables are in scope (a `let` outside would bind the body's terms
            // to the free constants' values). Patterns do not change the meaning.
            Call::Quantifier {
                forall, vars, body, ..
            } => {
                let binders: Option<Vec<String>> = vars
                    .iter()
                    .map(|v| {
                        let sort = &state.terms.get(v)?.sort;
                        Some(format!("({} {sort})", bound_var(*v)))
                    })
                    .collect();
                match (binders, self.text(*body)) {
                    (Some(binders), Ok(body)) => Node::Expr {
                        head,
                        expr: format!(
                            "({} ({}) {body})",
                            if *forall { "forall" } else { "exists" },
                            binders.join(" ")
                        ),
                        args: vec![],
                    },
                    (_, Err(why)) => Node::Inexpressible { head, why },
                    (None, _) => Node::Inexpressible {
                        head,
                        why: "a variable of unknown sort",
                    },
                }
            }
            Call::SetAdd(set, element)
            | Call::SetDel(set, element)
            | Call::SetMember(element, set) => Node::Expr {
                head,
                expr: model::call_text::set_element_term(call, &var(*set), &var(*element))
                    .expect("a set call"),
                args: vec![*set, *element],
            },
            // simplify returns an equivalent term: the check evaluates the original.
            Call::Simplify(s) | Call::SimplifyWith { term: s, .. } => Node::Expr {
                head,
                expr: var(*s),
                args: vec![*s],
            },
            Call::Substitute { term, pairs } => self.substitution(head, *term, pairs),
            // A quantifier maker gives the quantifier itself; a lambda binds its variable
            // in its body as the quantifier does.
            Call::QuantRebuild { function, term } => {
                let lambda = model::quant::Maker::by_name(function).is_some_and(|m| m.lambda);
                match (lambda, self.nodes.get(term)) {
                    (false, _) => Node::Expr {
                        head,
                        expr: var(*term),
                        args: vec![*term],
                    },
                    (true, Some(Node::Expr { expr, args, .. })) => {
                        let binder = expr
                            .strip_prefix("(forall ")
                            .or_else(|| expr.strip_prefix("(exists "));
                        match binder {
                            Some(rest) => Node::Expr {
                                head,
                                expr: format!("(lambda {rest}"),
                                args: args.clone(),
                            },
                            None => Node::Inexpressible {
                                head,
                                why: "a lambda of a quantifier without SMT-LIB form",
                            },
                        }
                    }
                    (true, _) => Node::Inexpressible {
                        head,
                        why: "a lambda of a quantifier without SMT-LIB form",
                    },
                }
            }
            Call::DtConstruct { .. }
            | Call::DtTest { .. }
            | Call::DtSelect { .. }
            | Call::DtUpdate { .. }
                if state.terms.contains_key(&t) =>
            {
                // The term arguments in order (a constructor's sort id is no argument).
                let args: Vec<TermId> = call
                    .uses()
                    .into_iter()
                    .filter_map(|id| match id {
                        model::AnyId::Term(a) => Some(a),
                        _ => None,
                    })
                    .collect();
                let names: Vec<String> = args.iter().map(|a| var(*a)).collect();
                match datatype_op(call, &names, &state.terms[&t].sort) {
                    Some(expr) => Node::Expr { head, expr, args },
                    None => Node::Inexpressible {
                        head,
                        why: "a datatype operation without SMT-LIB form",
                    },
                }
            }
            // A form the call's description gives (`model::Smt2::Indexed`), where the
            // evaluator reads it.
            _ => {
                let args = call.term_slots();
                let names: Vec<String> = args.iter().map(|a| var(*a)).collect();
                match model::call_text::indexed_term(call, &names, Dialect::Evaluator) {
                    Some(expr) => Node::Expr { head, expr, args },
                    None => Node::Inexpressible {
                        head,
                        why: "a term only the Z3 API builds",
                    },
                }
            }
        };
        self.nodes.insert(t, node);
    }

    /// The node of `substitute` of `pairs` in `term`, where every replaced term is a constant:
    /// `term`'s whole text under a `let` that binds the constants' names to the replacements.
    /// `let` binds in parallel and shadows the constants, as Z3 replaces them simultaneously.
    /// Exact even where Z3's term is not built as its text says (a `simplify` result is
    /// written as the term it simplified): both are equivalent under every value of the
    /// constants, so they stay equivalent with the constants replaced. Replacing other terms
    /// would need Z3's own term structure (which terms it shares), so those have no text.
    fn substitution(&self, head: &'static str, term: TermId, pairs: &[(TermId, TermId)]) -> Node {
        let mut bindings = Vec::new();
        let mut names = HashSet::new();
        for (from, to) in pairs {
            let name = match self.nodes.get(from) {
                Some(Node::Expr {
                    head: "const",
                    expr,
                    ..
                }) => expr,
                _ => {
                    return Node::Inexpressible {
                        head,
                        why: "a substitution of a term that is no constant",
                    }
                }
            };
            if !names.insert(name) {
                return Node::Inexpressible {
                    head,
                    why: "a substitution of one constant twice",
                };
            }
            bindings.push(format!("({name} {})", var(*to)));
        }
        match self.text(term) {
            Ok(body) if body.len() <= MAX_SUBSTITUTION_TEXT => Node::Expr {
                head,
                expr: format!("(let ({}) {body})", bindings.join(" ")),
                args: pairs.iter().map(|(_, to)| *to).collect(),
            },
            Ok(_) => Node::Inexpressible {
                head,
                why: "a substitution in a term of a very long text",
            },
            Err(why) => Node::Inexpressible { head, why },
        }
    }

    /// Records the name of a function `fun` declared.
    pub fn record_func(&mut self, f: FuncId, name: &str) {
        if let Some(s) = symbol(name) {
            self.funcs.insert(f, s);
        }
    }

    /// The SMT-LIB name of a function `fun` declared (recorded by
    /// [`TermTexts::record_func`]).
    pub fn func_name(&self, f: FuncId) -> Option<&str> {
        self.funcs.get(&f).map(String::as_str)
    }

    /// The SMT-LIB `define-fun-rec` of a recursive function `f` (recorded by
    /// [`TermTexts::record_func`]) with parameters `vars` (its `var` terms) and `body`, if the
    /// name and the body have a text; `state` gives the sorts.
    pub fn rec_definition(
        &self,
        f: FuncId,
        vars: &[TermId],
        body: TermId,
        state: &State,
    ) -> Option<String> {
        let name = self.funcs.get(&f)?;
        let (_, range) = state.funcs.get(&f)?;
        let params: Option<Vec<String>> = vars
            .iter()
            .map(|v| Some(format!("({} {})", bound_var(*v), state.terms.get(v)?.sort)))
            .collect();
        let body = self.text(body).ok()?;
        Some(format!(
            "(define-fun-rec {name} ({}) {range} {body})",
            params?.join(" ")
        ))
    }

    /// The call that built `t` and its term arguments, if `t` has an expression.
    pub fn node(&self, t: TermId) -> Option<(&'static str, &[TermId])> {
        match self.nodes.get(&t)? {
            Node::Expr { head, args, .. } => Some((head, args)),
            Node::Inexpressible { .. } => None,
        }
    }

    /// The expression of `t` over its arguments' names (`_tN`), with the call that built it
    /// and the arguments, if `t` has one.
    pub fn expr(&self, t: TermId) -> Option<(&'static str, &str, &[TermId])> {
        match self.nodes.get(&t)? {
            Node::Expr { head, expr, args } => Some((head, expr, args)),
            Node::Inexpressible { .. } => None,
        }
    }

    /// The terms below `t` and `t` itself in post-order (arguments first), each once; a term
    /// without an expression is listed without the terms below it. Iterative: terms may be
    /// deep.
    pub fn post_order(&self, t: TermId) -> Vec<TermId> {
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
            stack.push((u, true));
            if let Some(Node::Expr { args, .. }) = self.nodes.get(&u) {
                stack.extend(
                    args.iter()
                        .rev()
                        .filter(|a| !seen.contains(a))
                        .map(|a| (*a, false)),
                );
            }
        }
        order
    }

    /// The call that built `t` (an operation's name, `substitute`, ...), whether or not the
    /// term has an expression.
    pub fn head(&self, t: TermId) -> Option<&'static str> {
        match self.nodes.get(&t)? {
            Node::Expr { head, .. } | Node::Inexpressible { head, .. } => Some(head),
        }
    }

    /// The SMT-LIB text of `t` as nested `let`s, or why it has none.
    pub fn text(&self, t: TermId) -> Result<String, &'static str> {
        let order = self.post_order(t);
        for u in &order {
            match self.nodes.get(u) {
                Some(Node::Expr { .. }) => {}
                Some(Node::Inexpressible { why, .. }) => return Err(why),
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
