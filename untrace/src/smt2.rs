//! Writing a trace as an SMT-LIB v2.6 script, where the calls allow it.
//!
//! [`write_script`] walks the trace with its own reference state (it never runs Z3). Every
//! term id becomes a `define-fun` (`_t3`), so shared subterms stay shared; constants and
//! functions are declared once per name and sort, as Z3 identifies them. The script follows
//! the first solver of the trace. A call without an SMT-LIB form (another solver, translate,
//! substitute, to_smt2, release, ...) becomes a comment that says so, and so does every term
//! that depends on one; so does a call the trace records as refused by Z3 (`return error`).

use model::call::{AnyId, Call, Ret, SolverId, SolverKind, TermId};
use model::trace::text::format_call;
use model::trace::Trace;
use model::{Sort, State};
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

/// Quotes a symbol when it is not a simple SMT-LIB symbol; `None` if it cannot be written.
fn symbol(name: &str) -> Option<String> {
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

/// An SMT-LIB string literal: `"` doubles, non-printable characters become `\u{..}`.
fn string_literal(value: &str) -> String {
    let mut out = String::from("\"");
    for c in value.chars() {
        match c {
            '"' => out.push_str("\"\""),
            '\\' => out.push_str("\\u{5c}"),
            ' '..='~' => out.push(c),
            c => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
        }
    }
    out.push('"');
    out
}

fn real_literal(value: &str) -> Option<String> {
    let (num, den) = crate::executor::real_parts(value)?;
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

/// The SMT-LIB literal of a `lit` value.
fn literal(sort: &Sort, value: &str) -> Option<String> {
    Some(match sort {
        Sort::Bool => value.to_string(),
        Sort::Int => match value.strip_prefix('-') {
            Some(n) => format!("(- {n})"),
            None => value.to_string(),
        },
        Sort::Real => real_literal(value)?,
        Sort::BitVec(w) => format!("(_ bv{value} {w})"),
        Sort::FloatingPoint(e, s) => match value {
            "nan" => format!("(_ NaN {e} {s})"),
            "+inf" => format!("(_ +oo {e} {s})"),
            "-inf" => format!("(_ -oo {e} {s})"),
            "+zero" => format!("(_ +zero {e} {s})"),
            "-zero" => format!("(_ -zero {e} {s})"),
            // The double first (exact from its shortest decimal), then its format, as
            // Z3_mk_fpa_numeral_double does.
            text => {
                let v: f64 = text.parse().ok()?;
                let decimal = real_literal(&format!("{v:?}").replace("e", "E"))
                    .or_else(|| real_literal(&format!("{v:?}")))?;
                format!("((_ to_fp {e} {s}) RNE ((_ to_fp 11 53) RNE {decimal}))")
            }
        },
        Sort::RoundingMode => value.to_string(),
        Sort::String => string_literal(value),
        Sort::Seq(_) => format!("(as seq.empty {sort})"),
        _ => return None,
    })
}

/// The SMT-LIB form of an operation application, or `None`.
fn operation(name: &str, indices: &[u32], args: &[String], sorts: &[&Sort]) -> Option<String> {
    let a = args;
    let w = sorts.first().and_then(|s| s.bv_width()).unwrap_or(1);
    let app = |head: &str, xs: &[String]| {
        if xs.is_empty() {
            head.to_string()
        } else {
            format!("({head} {})", xs.join(" "))
        }
    };
    let sext = |k: u32, x: &str| format!("((_ sign_extend {k}) {x})");
    let zext = |k: u32, x: &str| format!("((_ zero_extend {k}) {x})");
    // Bits (w, w-1) of a (w+1)-bit signed result: #b01 is an overflow, #b10 an underflow.
    let top2 = |op: &str, bad: &str| {
        format!(
            "(not (= ((_ extract {w} {}) ({op} {} {})) {bad}))",
            w - 1,
            sext(1, &a[0]),
            sext(1, &a[1])
        )
    };
    let min = format!("((_ rotate_right 1) (_ bv1 {w}))");
    Some(match name {
        "iff" => app("=", a),
        "bvadd_no_overflow_u" => format!(
            "(= ((_ extract {w} {w}) (bvadd {} {})) #b0)",
            zext(1, &a[0]),
            zext(1, &a[1])
        ),
        "bvadd_no_overflow_s" => top2("bvadd", "#b01"),
        "bvadd_no_underflow" => top2("bvadd", "#b10"),
        "bvsub_no_overflow" => top2("bvsub", "#b01"),
        "bvsub_no_underflow_u" => format!("(bvule {} {})", a[1], a[0]),
        "bvsub_no_underflow_s" => top2("bvsub", "#b10"),
        "bvsdiv_no_overflow" => format!(
            "(not (and (= {} {min}) (= {} (bvnot (_ bv0 {w})))))",
            a[0], a[1]
        ),
        "bvneg_no_overflow" => format!("(not (= {} {min}))", a[0]),
        // Z3's own names: its signed "no overflow" also fails on an underflow, which no
        // standard bit-vector formula would reproduce.
        "bvmul_no_overflow_u" => app("bvumul_noovfl", a),
        "bvmul_no_overflow_s" => app("bvsmul_noovfl", a),
        "bvmul_no_underflow" => app("bvsmul_noudfl", a),
        _ if indices.is_empty() => app(name, a),
        _ => {
            let idx: Vec<String> = indices.iter().map(u32::to_string).collect();
            app(&format!("(_ {name} {})", idx.join(" ")), a)
        }
    })
}

/// Writes `trace` (read from `file`) as an SMT-LIB script.
pub fn write_script(file: &str, trace: &Trace) -> String {
    let mut w = Writer::default();
    let _ = writeln!(w.out, "; SMT-LIB form of the Z3 API trace {file}");
    w.out.push_str(
        "; Lines starting `; no SMT-LIB form:` are calls this script cannot express.\n\
         (set-option :global-declarations true)\n\
         (set-option :produce-models true)\n\
         (set-option :produce-unsat-cores true)\n",
    );
    for (entry, line) in trace.entries.iter().zip(&trace.lines) {
        w.entry(&entry.call, entry.ret.as_ref(), *line);
    }
    w.out
}

#[derive(Default)]
struct Writer {
    out: String,
    state: State,
    /// Terms with an SMT-LIB definition.
    defined: HashSet<TermId>,
    /// Sort ids and their SMT-LIB text.
    declared_sorts: HashSet<String>,
    /// Constants and functions declared, by name and signature.
    declared: HashSet<String>,
    funcs: HashMap<model::FuncId, String>,
    /// The solver this script follows.
    main: Option<SolverId>,
    /// Tracker literals of assert_and_track with the scope depth they were made at.
    trackers: Vec<(u32, String)>,
    depth: u32,
}

impl Writer {
    fn none(&mut self, line: u32, call: &Call, why: &str) {
        let _ = writeln!(
            self.out,
            "; no SMT-LIB form: line {line}: {} ({why})",
            format_call(call)
        );
    }

    fn name(&self, t: TermId) -> Option<String> {
        self.defined.contains(&t).then(|| format!("_t{}", t.0))
    }

    fn names(&self, ts: &[TermId]) -> Option<Vec<String>> {
        ts.iter().map(|t| self.name(*t)).collect()
    }

    fn is_main(&mut self, z: SolverId) -> bool {
        *self.main.get_or_insert(z) == z
    }

    fn declare_sort(&mut self, sort: &Sort) {
        if let Sort::Named(name, params) = sort {
            if params.is_empty() && self.declared_sorts.insert(name.clone()) {
                if let Some(s) = symbol(name) {
                    let _ = writeln!(self.out, "(declare-sort {s} 0)");
                }
            }
        }
    }

    /// The SMT-LIB expression a term-building call defines.
    fn term(&mut self, call: &Call) -> Result<String, &'static str> {
        const MISSING: &str = "an argument has no SMT-LIB form";
        let sort_of = |st: &State, t: &TermId| st.terms.get(t).map(|i| i.sort.clone());
        Ok(match call {
            Call::Const { sort, name } => {
                let sort = self.state.sorts[sort].clone();
                self.declare_sort(&sort);
                let s = symbol(name).ok_or("the name cannot be an SMT-LIB symbol")?;
                if self.declared.insert(format!("{s} () {sort}")) {
                    let _ = writeln!(self.out, "(declare-const {s} {sort})");
                }
                s
            }
            Call::Lit { sort, value } => {
                let sort = self.state.sorts[sort].clone();
                literal(&sort, value).ok_or("no literal syntax")?
            }
            Call::Apply { func, args } => {
                let f = self.funcs.get(func).cloned().ok_or(MISSING)?;
                let args = self.names(args).ok_or(MISSING)?;
                if args.is_empty() {
                    f
                } else {
                    format!("({f} {})", args.join(" "))
                }
            }
            Call::Op { op, indices, args } => {
                let names = self.names(args).ok_or(MISSING)?;
                let sorts: Vec<Sort> = args
                    .iter()
                    .filter_map(|t| sort_of(&self.state, t))
                    .collect();
                let refs: Vec<&Sort> = sorts.iter().collect();
                operation(op.name(), indices, &names, &refs).ok_or("no SMT-LIB operation")?
            }
            Call::ConstArray { index, value } => {
                let v = self.name(*value).ok_or(MISSING)?;
                let element = sort_of(&self.state, value).ok_or(MISSING)?;
                let index = self.state.sorts[index].clone();
                format!("((as const (Array {index} {element})) {v})")
            }
            // simplify returns an equivalent term.
            Call::Simplify(t) => self.name(*t).ok_or(MISSING)?,
            _ => return Err("Z3 API only"),
        })
    }

    fn entry(&mut self, call: &Call, ret: Option<&Ret>, line: u32) {
        if self.state.check(call).is_err() {
            self.none(line, call, "not valid here; the replay reports it");
            return;
        }
        if let Some(message) = ret.and_then(Ret::error) {
            // Z3 refused the call, so it had no effect: the script leaves it out.
            let why = format!("Z3 refused it: {}", model::call::normalize_error(message));
            self.none(line, call, &why);
            return;
        }
        let new_term = match (call.ret_kind(), ret) {
            (model::RetKind::Term, Some(Ret::Id(AnyId::Term(t)))) => Some(*t),
            _ => None,
        };
        match call {
            Call::SortUninterpreted(name) => self.declare_sort(&Sort::uninterpreted(name.clone())),
            Call::Fun {
                name,
                domain,
                range,
            } => match (symbol(name), ret) {
                (Some(s), Some(Ret::Id(AnyId::Func(f)))) => {
                    let domain: Vec<Sort> =
                        domain.iter().map(|d| self.state.sorts[d].clone()).collect();
                    let range = self.state.sorts[range].clone();
                    for sort in domain.iter().chain([&range]) {
                        self.declare_sort(sort);
                    }
                    let ds: Vec<String> = domain.iter().map(Sort::to_string).collect();
                    let decl = format!("{s} ({}) {range}", ds.join(" "));
                    if self.declared.insert(decl.clone()) {
                        let _ = writeln!(self.out, "(declare-fun {decl})");
                    }
                    self.funcs.insert(*f, s);
                }
                _ => self.none(line, call, "the name cannot be an SMT-LIB symbol"),
            },
            _ if new_term.is_some() => {
                let t = new_term.unwrap_or(TermId(0));
                match self.term(call) {
                    Ok(expr) => {
                        let sort = self.state.result_sort(call).ok().flatten();
                        if let Some(sort) = sort {
                            let _ = writeln!(self.out, "(define-fun _t{} () {sort} {expr})", t.0);
                            self.defined.insert(t);
                        }
                    }
                    Err(why) => self.none(line, call, why),
                }
            }
            Call::NewSolver(kind) => {
                if let Some(Ret::Id(AnyId::Solver(z))) = ret {
                    if self.is_main(*z) {
                        // No `set-logic`: the API builds terms of every theory whatever
                        // the solver's logic, and a script with the logic would reject them.
                        match kind {
                            SolverKind::Logic(l) => {
                                let _ = writeln!(self.out, "; solver for logic {l} (no set-logic)");
                            }
                            SolverKind::Tactic(t) => self.none(line, call, &format!("tactic {t}")),
                            SolverKind::Default => {}
                        }
                    } else {
                        self.none(line, call, "a second solver");
                    }
                }
            }
            Call::SetGlobal { key, value } => {
                let _ = writeln!(self.out, "(set-option :{key} {value})");
            }
            Call::SetParam { solver, key, value } if self.is_main(*solver) => {
                let _ = writeln!(self.out, "(set-option :{key} {value})");
            }
            Call::Push(z) if self.is_main(*z) => {
                self.depth += 1;
                self.out.push_str("(push 1)\n");
            }
            Call::Pop(z, n) if self.is_main(*z) => {
                self.depth = self.depth.saturating_sub(*n);
                let depth = self.depth;
                self.trackers.retain(|(d, _)| *d <= depth);
                let _ = writeln!(self.out, "(pop {n})");
            }
            Call::Assert(z, t) if self.is_main(*z) => match self.name(*t) {
                Some(t) => {
                    let _ = writeln!(self.out, "(assert {t})");
                }
                None => self.none(line, call, "the term has no SMT-LIB form"),
            },
            Call::AssertAndTrack {
                solver,
                term,
                tracker,
            } if self.is_main(*solver) => {
                match (self.name(*term), self.name(*tracker)) {
                    (Some(t), Some(p)) => {
                        // Z3 asserts `p => t` and assumes `p` at each check.
                        let _ = writeln!(self.out, "(assert (=> {p} {t})) ; assert_and_track");
                        self.trackers.push((self.depth, p));
                    }
                    _ => self.none(line, call, "the term has no SMT-LIB form"),
                }
            }
            Call::CheckSat(z) | Call::CheckSatAssuming(z, _) if self.is_main(*z) => {
                let mut assumed: Vec<String> =
                    self.trackers.iter().map(|(_, p)| p.clone()).collect();
                if let Call::CheckSatAssuming(_, ts) = call {
                    match self.names(ts) {
                        Some(names) => assumed.extend(names),
                        None => return self.none(line, call, "an assumption has no SMT-LIB form"),
                    }
                }
                if assumed.is_empty() {
                    self.out.push_str("(check-sat)\n");
                } else {
                    let _ = writeln!(self.out, "(check-sat-assuming ({}))", assumed.join(" "));
                }
                if let Some(Ret::Sat(r)) = ret {
                    let _ = writeln!(self.out, "; recorded: {}", r.name());
                }
            }
            Call::GetUnsatCore(z) if self.is_main(*z) => self.out.push_str("(get-unsat-core)\n"),
            Call::GetModel(z) if self.is_main(*z) => self.out.push_str("(get-model)\n"),
            Call::ModelEval { model, term, .. }
                if self
                    .state
                    .models
                    .get(model)
                    .is_some_and(|z| Some(*z) == self.main) =>
            {
                match self.name(*term) {
                    Some(t) => {
                        let _ = writeln!(self.out, "(get-value ({t}))");
                    }
                    None => self.none(line, call, "the term has no SMT-LIB form"),
                }
            }
            Call::Reset(z) if self.is_main(*z) => {
                self.depth = 0;
                self.trackers.clear();
                self.out.push_str("(reset-assertions)\n");
            }
            Call::FromString(z, text) if self.is_main(*z) => {
                let _ = writeln!(self.out, "; from_string:\n{text}");
            }
            Call::SortBool
            | Call::SortInt
            | Call::SortReal
            | Call::SortBv(_)
            | Call::SortFp(..)
            | Call::SortRm
            | Call::SortString
            | Call::SortArray(..)
            | Call::SortSeq(_) => {}
            Call::Release(_) => self.none(line, call, "handles are not SMT-LIB"),
            Call::Translate(_) => self.none(line, call, "solver clone"),
            Call::ToSmt2(_) => self.none(line, call, "Z3 API only"),
            _ => self.none(line, call, "a second solver"),
        }
        // Keeps the state in step; an invalid call was reported above.
        let _ = self.state.apply(call, ret);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols_and_literals() {
        assert_eq!(symbol("x").as_deref(), Some("x"));
        assert_eq!(symbol("a b").as_deref(), Some("|a b|"));
        assert_eq!(symbol("1x").as_deref(), Some("|1x|"));
        assert_eq!(symbol("a|b"), None);
        assert_eq!(literal(&Sort::Int, "-3").as_deref(), Some("(- 3)"));
        assert_eq!(
            literal(&Sort::Real, "-3/4").as_deref(),
            Some("(- (/ 3.0 4.0))")
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
            literal(&Sort::FloatingPoint(8, 24), "-inf").as_deref(),
            Some("(_ -oo 8 24)")
        );
    }

    #[test]
    fn overflow_predicates_have_bit_vector_forms() {
        let args = ["a".to_string(), "b".to_string()];
        let bv8 = Sort::BitVec(8);
        let sorts = [&bv8, &bv8];
        assert_eq!(
            operation("bvadd_no_overflow_u", &[], &args, &sorts).as_deref(),
            Some("(= ((_ extract 8 8) (bvadd ((_ zero_extend 1) a) ((_ zero_extend 1) b))) #b0)")
        );
        assert_eq!(
            operation("extract", &[7, 4], &args[..1], &sorts[..1]).as_deref(),
            Some("((_ extract 7 4) a)")
        );
    }
}
