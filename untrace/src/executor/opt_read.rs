//! The Optimize readers of `opt_read` (`model::introspect::OPT_READERS`), each judged.
//!
//! The `z3` crate gives no raw handle of an Optimize context: each reader is asked of a copy
//! made through z3-sys in the main context ([`RawOpt`]: the context's hard constraints, soft
//! constraints and objectives, a push between its scopes; its parameters are not copied),
//! checked under a resource limit where the reader reads a check, so an unknown answer is no
//! verdict.

use super::optimize::OptItem;
use super::{guard, read, z3err, ExecError, Executor, Outcome};
use model::finding::{Failure, FailureKind};
use model::{Direction, OptId};
use std::ffi::CString;
use z3::ast::{Ast, Bool, Dynamic};
use z3_sys::{Z3_ast, Z3_ast_vector, Z3_context, Z3_optimize};

/// The resource limit of the copies' checks (deterministic).
pub const OPT_READ_RLIMIT: u32 = 50_000;

/// Copies a string Z3 returned (empty for NULL).
fn z3_text(p: z3_sys::Z3_string) -> String {
    read::text(p).unwrap_or_default()
}

/// An Optimize context made through z3-sys, released on drop.
struct RawOpt {
    c: Z3_context,
    o: Z3_optimize,
}

impl RawOpt {
    /// A fresh Optimize context of `c` with a resource limit.
    ///
    /// # Safety
    /// `c` is live while the result lives.
    unsafe fn new(c: Z3_context, rlimit: u32) -> Option<RawOpt> {
        let o = z3_sys::Z3_mk_optimize(c)?;
        z3_sys::Z3_optimize_inc_ref(c, o);
        let opt = RawOpt { c, o };
        opt.set_rlimit(rlimit);
        Some(opt)
    }

    unsafe fn set_rlimit(&self, rlimit: u32) {
        let Some(p) = z3_sys::Z3_mk_params(self.c) else {
            return;
        };
        z3_sys::Z3_params_inc_ref(self.c, p);
        if let Ok(key) = CString::new("rlimit") {
            if let Some(sym) = z3_sys::Z3_mk_string_symbol(self.c, key.as_ptr()) {
                z3_sys::Z3_params_set_uint(self.c, p, sym, rlimit);
            }
        }
        z3_sys::Z3_optimize_set_params(self.c, self.o, p);
        z3_sys::Z3_params_dec_ref(self.c, p);
    }

    unsafe fn check(&self) -> z3::SatResult {
        match z3_sys::Z3_optimize_check(self.c, self.o, 0, std::ptr::null()) {
            z3_sys::Z3_L_TRUE => z3::SatResult::Sat,
            z3_sys::Z3_L_FALSE => z3::SatResult::Unsat,
            _ => z3::SatResult::Unknown,
        }
    }

    /// The text of each objective's lower and upper bound.
    unsafe fn bounds(&self, n: usize) -> Vec<(String, String)> {
        (0..n as u32)
            .map(|i| {
                let text = |a: Option<Z3_ast>| {
                    a.map(|a| z3_text(z3_sys::Z3_ast_to_string(self.c, a)))
                        .unwrap_or_default()
                };
                (
                    text(z3_sys::Z3_optimize_get_lower(self.c, self.o, i)),
                    text(z3_sys::Z3_optimize_get_upper(self.c, self.o, i)),
                )
            })
            .collect()
    }
}

impl Drop for RawOpt {
    fn drop(&mut self) {
        // SAFETY: the context outlives the copy (see `new`).
        unsafe { z3_sys::Z3_optimize_dec_ref(self.c, self.o) };
    }
}

/// The items of a vector Z3 returned, referenced while read.
///
/// # Safety
/// `c` is live and `v` a vector of it (or `None`).
unsafe fn vector_items(c: Z3_context, v: Option<Z3_ast_vector>) -> Vec<Dynamic> {
    let Some(v) = v else {
        return Vec::new();
    };
    debug_assert_eq!(c, z3::Context::thread_local().get_z3_context());
    super::read::ast_vector_items(&z3::Context::thread_local(), v)
}

/// How a copy asserts each hard constraint in place of `Z3_optimize_assert`.
type Track<'a> = dyn FnMut(&RawOpt, &Bool) + 'a;

/// What a copy is given: its items per scope as terms, with the soft groups' symbols.
struct Given {
    scopes: Vec<Vec<Item>>,
}

enum Item {
    Hard(Bool),
    Soft(Bool, u32, String),
    Objective(Dynamic, Direction),
}

impl Given {
    fn hard(&self) -> Vec<Bool> {
        self.scopes
            .iter()
            .flatten()
            .filter_map(|i| match i {
                Item::Hard(b) => Some(b.clone()),
                _ => None,
            })
            .collect()
    }

    /// The copy: every item in its scope; hard constraints through `track` when given (it
    /// asserts them its own way).
    ///
    /// # Safety
    /// `c` is the live thread-local context of the items.
    unsafe fn copy(
        &self,
        c: Z3_context,
        rlimit: u32,
        mut track: Option<&mut Track<'_>>,
    ) -> Option<RawOpt> {
        let opt = RawOpt::new(c, rlimit)?;
        for (i, scope) in self.scopes.iter().enumerate() {
            if i > 0 {
                z3_sys::Z3_optimize_push(c, opt.o);
            }
            for item in scope {
                match item {
                    Item::Hard(b) => match track.as_mut() {
                        Some(track) => track(&opt, b),
                        None => z3_sys::Z3_optimize_assert(c, opt.o, b.get_z3_ast()),
                    },
                    Item::Soft(b, weight, group) => {
                        let weight = CString::new(weight.to_string()).ok()?;
                        let group = CString::new(group.as_str()).ok()?;
                        let sym = z3_sys::Z3_mk_string_symbol(c, group.as_ptr());
                        z3_sys::Z3_optimize_assert_soft(
                            c,
                            opt.o,
                            b.get_z3_ast(),
                            weight.as_ptr(),
                            sym,
                        );
                    }
                    Item::Objective(t, Direction::Minimize) => {
                        z3_sys::Z3_optimize_minimize(c, opt.o, t.get_z3_ast());
                    }
                    Item::Objective(t, Direction::Maximize) => {
                        z3_sys::Z3_optimize_maximize(c, opt.o, t.get_z3_ast());
                    }
                }
            }
        }
        Some(opt)
    }
}

/// What a reader found: a verdict for the executor to report, or nothing to say.
enum Found {
    /// The reader's answer holds (or there was no verdict: counted under this name).
    Holds(&'static str),
    Finding(FailureKind, String),
}

fn read_finding(kind: FailureKind, function: &str, message: String) -> ExecError {
    ExecError::Oracle(
        Failure::new(kind, message)
            .with_cause(format!("opt_read: {function}"))
            .at_call("opt_read"),
    )
}

/// Definite answers that differ, and with both sat the bounds.
fn differs(
    a: (z3::SatResult, &[(String, String)]),
    b: (z3::SatResult, &[(String, String)]),
) -> Option<String> {
    use z3::SatResult::{Sat, Unknown};
    if a.0 == Unknown || b.0 == Unknown {
        return None;
    }
    if a.0 != b.0 {
        return Some(format!(
            "answers {:?} where the copy answers {:?}",
            b.0, a.0
        ));
    }
    if a.0 != Sat {
        return None;
    }
    a.1.iter()
        .zip(b.1)
        .enumerate()
        .find(|(_, (x, y))| x != y)
        .map(|(i, (x, y))| {
            format!(
                "bounds objective {i} by [{}, {}] where the copy does by [{}, {}]",
                y.0, y.1, x.0, x.1
            )
        })
}

impl Executor {
    /// `opt_read`: a reader of Optimize context `o` (`model::introspect::OPT_READERS`),
    /// asked of a copy of `o` and judged.
    pub(super) fn opt_read(&mut self, function: &str, o: OptId) -> Result<Outcome, ExecError> {
        let newer = model::introspect::opt_reader(function)
            .ok_or_else(|| ExecError::Malformed(format!("`{function}` is no Optimize reader")))?;
        if newer && !read::opt_reader_available(function) {
            return Err(ExecError::Malformed(format!(
                "{function} is not in the loaded libz3 (Z3 {})",
                crate::z3_version()
            )));
        }
        let given = self.given(o)?;
        if matches!(function, "Z3_optimize_to_string" | "Z3_optimize_from_file") {
            return self.opt_parse_back(function, o, &given);
        }
        let n_objectives = self.opt_slot(o)?.objectives().len();
        let expected = self.expected_objectives(o)?;
        let inject = matches!(self.config.inject, Some(super::inject::Fault::WrongRead));
        let c = self.main.get_z3_context();
        // SAFETY (every block): z3-sys calls on the live main context and the copies made in
        // it, each released on drop; vectors referenced while read.
        let found = self
            .main(|| -> Result<Found, String> {
                let copy = || unsafe { given.copy(c, OPT_READ_RLIMIT, None) }.ok_or("no copy");
                match function {
                    "Z3_optimize_get_assertions" => {
                        let copy = copy()?;
                        let got = unsafe {
                            vector_items(c, z3_sys::Z3_optimize_get_assertions(c, copy.o))
                        };
                        let hard = given.hard();
                        let same = got.len() == hard.len()
                            && got
                                .iter()
                                .zip(&hard)
                                .all(|(g, h)| g == &Dynamic::from_ast(h));
                        if same == inject {
                            return Ok(Found::Finding(
                                FailureKind::ReadBack,
                                format!(
                                    "{o} holds {} hard constraints, Z3_optimize_get_assertions \
                                     gives {} others",
                                    hard.len(),
                                    got.len()
                                ),
                            ));
                        }
                        Ok(Found::Holds("opt reads: assertions as asserted"))
                    }
                    "Z3_optimize_get_objectives" => {
                        let copy = copy()?;
                        let got = unsafe {
                            vector_items(c, z3_sys::Z3_optimize_get_objectives(c, copy.o))
                        };
                        if got.len() != expected.len() || inject {
                            return Ok(Found::Finding(
                                FailureKind::ReadBack,
                                format!(
                                    "{o} has {} objectives, Z3_optimize_get_objectives gives {}",
                                    expected.len(),
                                    got.len() + usize::from(inject)
                                ),
                            ));
                        }
                        for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
                            match same_value(g, e) {
                                Some(false) => {
                                    return Ok(Found::Finding(
                                        FailureKind::ReadBack,
                                        format!(
                                            "objective {i} of {o} reads back as `{}`, not as \
                                             `{}` (as a minimization)",
                                            guard::one_line(&g.to_string()),
                                            guard::one_line(&e.to_string())
                                        ),
                                    ))
                                }
                                Some(true) => {}
                                None => {
                                    return Ok(Found::Holds("opt reads: objectives not compared"))
                                }
                            }
                        }
                        Ok(Found::Holds("opt reads: objectives as given"))
                    }
                    "Z3_optimize_get_lower_as_vector" | "Z3_optimize_get_upper_as_vector" => {
                        let copy = copy()?;
                        if unsafe { copy.check() } != z3::SatResult::Sat {
                            return Ok(Found::Holds("opt reads: skipped: not sat"));
                        }
                        let upper = function == "Z3_optimize_get_upper_as_vector";
                        for i in 0..n_objectives as u32 {
                            let problem = unsafe { vector_disagrees(c, copy.o, i, upper, inject) };
                            if let Some(problem) = problem {
                                return Ok(Found::Finding(
                                    FailureKind::ReadBack,
                                    format!("objective {i} of {o}: {problem}"),
                                ));
                            }
                        }
                        Ok(Found::Holds("opt reads: bound vectors agree"))
                    }
                    "Z3_optimize_get_unsat_core" => unsafe { core_judged(c, o, &given, inject) },
                    "Z3_optimize_get_reason_unknown" => {
                        let copy = unsafe { given.copy(c, 1, None) }.ok_or("no copy")?;
                        if unsafe { copy.check() } != z3::SatResult::Unknown {
                            return Ok(Found::Holds("opt reads: skipped: not unknown"));
                        }
                        let reason =
                            unsafe { z3_text(z3_sys::Z3_optimize_get_reason_unknown(c, copy.o)) };
                        if reason.trim().is_empty() || inject {
                            return Ok(Found::Finding(
                                FailureKind::ReadBack,
                                format!("a copy of {o} answered unknown without a reason"),
                            ));
                        }
                        Ok(Found::Holds("opt reads: unknown with a reason"))
                    }
                    "Z3_optimize_get_statistics" => {
                        let copy = copy()?;
                        unsafe { copy.check() };
                        let problem = unsafe { stats_problem(c, copy.o, inject) };
                        Ok(match problem {
                            Some(p) => Found::Finding(
                                FailureKind::ReadBack,
                                format!("the statistics of a copy of {o}: {p}"),
                            ),
                            None => Found::Holds("opt reads: statistics readable"),
                        })
                    }
                    "Z3_optimize_translate" => {
                        let copy = copy()?;
                        let problem =
                            unsafe { translated_differs(c, &copy, n_objectives, inject) }?;
                        Ok(match problem {
                            Some(d) => Found::Finding(
                                FailureKind::Shadow,
                                format!("{o} translated into a fresh context {d}"),
                            ),
                            None => Found::Holds("opt reads: translated"),
                        })
                    }
                    _ => Err(format!("`{function}` is no Optimize reader")),
                }
            })?
            .map_err(z3err)?;
        match found {
            Found::Holds(what) => self.count(what),
            Found::Finding(kind, message) => {
                if self.config.run_checks {
                    return Err(read_finding(kind, function, message));
                }
            }
        }
        Ok(Outcome::Value("ok".into()))
    }

    /// `Z3_optimize_to_string` of a copy of O parsed back into a fresh Optimize context,
    /// from the string (`Z3_optimize_from_string`) or from a file of a private folder
    /// (`Z3_optimize_from_file`): both answer the same check with the same bounds. Text Z3
    /// cannot parse back (it declares no uninterpreted sorts, names its own objects) is no
    /// verdict.
    fn opt_parse_back(
        &mut self,
        function: &str,
        o: OptId,
        given: &Given,
    ) -> Result<Outcome, ExecError> {
        let n = self.opt_slot(o)?.objectives().len();
        let inject = matches!(self.config.inject, Some(super::inject::Fault::WrongRead));
        let c = self.main.get_z3_context();
        // SAFETY (every block): z3-sys calls on the live main context and the copies made
        // in it, released on drop.
        let (copy, parsed, text) = self
            .main(|| unsafe {
                let copy = given.copy(c, OPT_READ_RLIMIT, None)?;
                let text = z3_text(z3_sys::Z3_optimize_to_string(c, copy.o));
                let parsed = RawOpt::new(c, OPT_READ_RLIMIT)?;
                Some((copy, parsed, text))
            })?
            .ok_or_else(|| z3err("no copy of the Optimize context".into()))?;
        let folder = tempfile::Builder::new()
            .prefix("opt-read")
            .tempdir()
            .map_err(|e| ExecError::Io(e.to_string()))?;
        let file = folder.path().join("optimize.smt2");
        let source = if function == "Z3_optimize_from_file" {
            std::fs::write(&file, &text).map_err(|e| ExecError::Io(e.to_string()))?;
            file.to_string_lossy().into_owned()
        } else {
            text
        };
        let source = CString::new(source).map_err(|e| ExecError::Io(e.to_string()))?;
        // Z3's log never shows either parser (`z3log::table::NOT_LOGGED`).
        super::unlogged::note(function_parser(function));
        let read = guard::guarded(&self.main, || unsafe {
            if function == "Z3_optimize_from_file" {
                z3_sys::Z3_optimize_from_file(c, parsed.o, source.as_ptr());
            } else {
                z3_sys::Z3_optimize_from_string(c, parsed.o, source.as_ptr());
            }
        });
        if read.is_err() {
            self.count("opt reads: skipped: text not parsed back");
            return Ok(Outcome::Value("ok".into()));
        }
        let difference = self.main(|| unsafe {
            let (a, b) = (copy.check(), flip(parsed.check(), inject));
            differs((a, &copy.bounds(n)), (b, &parsed.bounds(n)))
        })?;
        match difference {
            Some(d) if self.config.run_checks => Err(read_finding(
                FailureKind::Dump,
                function,
                format!("{o} printed and parsed back {d}"),
            )),
            _ => {
                self.count("opt reads: parsed back");
                Ok(Outcome::Value("ok".into()))
            }
        }
    }

    /// O's items as terms, per scope.
    fn given(&self, o: OptId) -> Result<Given, ExecError> {
        let slot = self.opt_slot(o)?;
        let bool_of = |t| -> Result<Bool, ExecError> {
            self.z3_term(t)?
                .as_bool()
                .ok_or_else(|| ExecError::Malformed(format!("term {t} is not Bool")))
        };
        let scopes = slot
            .scopes
            .iter()
            .map(|scope| {
                scope
                    .iter()
                    .map(|item| {
                        Ok(match item {
                            OptItem::Hard(t) => Item::Hard(bool_of(*t)?),
                            OptItem::Soft {
                                term,
                                weight,
                                group,
                            } => Item::Soft(bool_of(*term)?, *weight, group.clone()),
                            OptItem::Objective { term, direction } => {
                                Item::Objective(self.z3_term(*term)?.clone(), *direction)
                            }
                        })
                    })
                    .collect::<Result<Vec<_>, ExecError>>()
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Given { scopes })
    }

    /// Each objective of O as Z3 documents `Z3_optimize_get_objectives`: a minimization.
    fn expected_objectives(&self, o: OptId) -> Result<Vec<Dynamic>, ExecError> {
        let slot = self.opt_slot(o)?;
        let mut out = Vec::new();
        for objective in slot.objectives() {
            out.push(match objective {
                super::optimize::Objective::Term { term, direction } => {
                    let t = self.z3_term(term)?.clone();
                    match direction {
                        Direction::Minimize => t,
                        Direction::Maximize => self.main(|| negated(&t))?,
                    }
                }
                super::optimize::Objective::Soft(members) => {
                    let members = members
                        .iter()
                        .map(|(t, w)| Ok((self.z3_term(*t)?.clone(), *w)))
                        .collect::<Result<Vec<_>, ExecError>>()?;
                    self.main(|| super::optimize::penalty(&members))?
                }
            });
        }
        Ok(out)
    }
}

/// The parser a parse-back reader calls.
fn function_parser(function: &str) -> &'static str {
    if function == "Z3_optimize_from_file" {
        "Z3_optimize_from_file"
    } else {
        "Z3_optimize_from_string"
    }
}

fn flip(answer: z3::SatResult, inject: bool) -> z3::SatResult {
    match (inject, answer) {
        (true, z3::SatResult::Sat) => z3::SatResult::Unsat,
        (true, z3::SatResult::Unsat) => z3::SatResult::Sat,
        (_, a) => a,
    }
}

/// `t` negated: the minimization of maximizing `t`.
fn negated(t: &Dynamic) -> Dynamic {
    if let Some(i) = t.as_int() {
        Dynamic::from_ast(&-i)
    } else if let Some(r) = t.as_real() {
        Dynamic::from_ast(&-r)
    } else if let Some(b) = t.as_bv() {
        Dynamic::from_ast(&b.bvneg())
    } else {
        t.clone()
    }
}

/// Whether `a` and `b` have the same value in every model: equal after simplification, or
/// their disequality unsat for a reference solver (`None`: no verdict).
fn same_value(a: &Dynamic, b: &Dynamic) -> Option<bool> {
    if a.simplify() == b.simplify() {
        return Some(true);
    }
    let eq = a.safe_eq(b).ok()?;
    let solver = super::raw_solver::reference_solver(Some(OPT_READ_RLIMIT));
    solver.assert(eq.not());
    match solver.check() {
        z3::SatResult::Unsat => Some(true),
        z3::SatResult::Sat => Some(false),
        z3::SatResult::Unknown => None,
    }
}

/// The bound vector `a b c` of objective `i` against `Z3_optimize_get_lower` (`_upper`): all
/// numerals; a numeral bound `b` itself with `a` and `c` zero; any other bound has `a` or `c`
/// not zero.
///
/// # Safety
/// `c` is live and `o` a checked Optimize context of it.
unsafe fn vector_disagrees(
    c: Z3_context,
    o: Z3_optimize,
    i: u32,
    upper: bool,
    inject: bool,
) -> Option<String> {
    let (v, bound) = if upper {
        (
            z3_sys::Z3_optimize_get_upper_as_vector(c, o, i),
            z3_sys::Z3_optimize_get_upper(c, o, i),
        )
    } else {
        (
            z3_sys::Z3_optimize_get_lower_as_vector(c, o, i),
            z3_sys::Z3_optimize_get_lower(c, o, i),
        )
    };
    let items = vector_items(c, v);
    let bound = bound?;
    let numeral = |a: Z3_ast| {
        z3_sys::Z3_is_numeral_ast(c, a).then(|| z3_text(z3_sys::Z3_get_numeral_string(c, a)))
    };
    let coefficients: Option<Vec<String>> = items.iter().map(|a| numeral(a.get_z3_ast())).collect();
    let Some(mut abc) = coefficients.filter(|v| v.len() == 3) else {
        return Some(format!(
            "the bound vector is `{}`, not three numerals",
            items
                .iter()
                .map(|a| a.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        ));
    };
    if inject {
        abc[1].push('1');
    }
    let bound_text = z3_text(z3_sys::Z3_ast_to_string(c, bound));
    let zero = |s: &str| s == "0";
    match numeral(bound) {
        Some(b) if zero(&abc[0]) && zero(&abc[2]) && abc[1] == b => None,
        None if !zero(&abc[0]) || !zero(&abc[2]) => None,
        _ => Some(format!(
            "the bound is `{}`, its vector `{} {} {}`",
            guard::one_line(&bound_text),
            abc[0],
            abc[1],
            abc[2]
        )),
    }
}

/// `Z3_optimize_get_unsat_core` of a copy of O whose hard constraints are each tracked by a
/// fresh label (`Z3_optimize_assert_and_track`), with the first one's negation (`false` for
/// none) tracked too: the copy must not be sat; unsat, its core is a non-empty set of labels
/// whose constraints a reference solver does not find sat.
///
/// # Safety
/// `c` is the live thread-local context of `given`'s terms.
unsafe fn core_judged(
    c: Z3_context,
    o: OptId,
    given: &Given,
    inject: bool,
) -> Result<Found, String> {
    let hard = given.hard();
    let contradiction = hard
        .first()
        .map(|h| h.not())
        .unwrap_or_else(|| Bool::from_bool(false));
    let mut tracked: Vec<(Bool, Bool)> = Vec::new();
    let mut track = |opt: &RawOpt, b: &Bool| {
        let label = Bool::fresh_const("opt_label");
        z3_sys::Z3_optimize_assert_and_track(c, opt.o, b.get_z3_ast(), label.get_z3_ast());
        tracked.push((b.clone(), label));
    };
    let copy = given
        .copy(c, OPT_READ_RLIMIT, Some(&mut track))
        .ok_or("no copy")?;
    // The contradiction after every constraint, in the innermost scope.
    let label = Bool::fresh_const("opt_label");
    z3_sys::Z3_optimize_assert_and_track(c, copy.o, contradiction.get_z3_ast(), label.get_z3_ast());
    tracked.push((contradiction, label));
    match copy.check() {
        z3::SatResult::Unknown => return Ok(Found::Holds("opt reads: skipped: unknown")),
        z3::SatResult::Sat => {
            return Ok(Found::Finding(
                FailureKind::Core,
                format!("a copy of {o} given a hard constraint and its negation answers sat"),
            ))
        }
        z3::SatResult::Unsat => {}
    }
    let core = vector_items(c, z3_sys::Z3_optimize_get_unsat_core(c, copy.o));
    let core: Vec<Dynamic> = if inject { Vec::new() } else { core };
    let constraints: Option<Vec<Bool>> = core
        .iter()
        .map(|l| {
            tracked
                .iter()
                .find(|(_, label)| Dynamic::from_ast(label) == *l)
                .map(|(b, _)| b.clone())
        })
        .collect();
    let Some(constraints) = constraints.filter(|c| !c.is_empty()) else {
        return Ok(Found::Finding(
            FailureKind::Core,
            format!(
                "the unsat core of a copy of {o} with its hard constraints tracked is `{}`, \
                 not a non-empty set of its labels",
                core.iter()
                    .map(|a| a.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
        ));
    };
    let solver = super::raw_solver::reference_solver(Some(OPT_READ_RLIMIT));
    for b in &constraints {
        solver.assert(b);
    }
    Ok(match solver.check() {
        z3::SatResult::Sat => Found::Finding(
            FailureKind::Core,
            format!(
                "the unsat core of a copy of {o} names {} constraints that are sat together",
                constraints.len()
            ),
        ),
        z3::SatResult::Unsat => Found::Holds("opt reads: core unsat"),
        z3::SatResult::Unknown => Found::Holds("opt reads: skipped: core unknown"),
    })
}

/// A problem of the statistics of a checked copy: a key without a name, a value that is
/// neither or both a `uint` and a `double`, a double that is not finite or negative.
///
/// # Safety
/// `c` is live and `o` an Optimize context of it.
unsafe fn stats_problem(c: Z3_context, o: Z3_optimize, inject: bool) -> Option<String> {
    let stats = z3_sys::Z3_optimize_get_statistics(c, o)?;
    z3_sys::Z3_stats_inc_ref(c, stats);
    let mut problem = None;
    for i in 0..z3_sys::Z3_stats_size(c, stats) {
        let key = z3_text(z3_sys::Z3_stats_get_key(c, stats, i));
        let is_uint = z3_sys::Z3_stats_is_uint(c, stats, i);
        let is_double = z3_sys::Z3_stats_is_double(c, stats, i) || (inject && i == 0);
        if key.trim().is_empty() {
            problem = Some(format!("entry {i} has no key"));
        } else if is_uint == is_double {
            problem = Some(format!(
                "`{key}` is_uint {is_uint} and is_double {is_double}"
            ));
        } else if is_uint {
            z3_sys::Z3_stats_get_uint_value(c, stats, i);
        } else {
            let d = z3_sys::Z3_stats_get_double_value(c, stats, i);
            if !d.is_finite() || d < 0.0 {
                problem = Some(format!("`{key}` is {d}"));
            }
        }
        if problem.is_some() {
            break;
        }
    }
    z3_sys::Z3_stats_dec_ref(c, stats);
    problem
}

type OptimizeTranslate =
    unsafe extern "C" fn(Z3_context, Z3_optimize, Z3_context) -> Option<Z3_optimize>;

/// `Z3_optimize_translate` of the copy into a fresh context (looked up by name: releases
/// after 4.8.12 only): both answer the same check with the same bounds.
///
/// # Safety
/// `c` is live and `copy` one of its Optimize contexts.
unsafe fn translated_differs(
    c: Z3_context,
    copy: &RawOpt,
    n: usize,
    inject: bool,
) -> Result<Option<String>, String> {
    let translate: OptimizeTranslate = read::typed("Z3_optimize_translate")?;
    let cfg = z3_sys::Z3_mk_config().ok_or("no config")?;
    let target = z3_sys::Z3_mk_context_rc(cfg);
    z3_sys::Z3_del_config(cfg);
    let target = target.ok_or("no context")?;
    z3_sys::Z3_set_error_handler(target, None);
    let mut problem = None;
    if let Some(other) = translate(c, copy.o, target) {
        z3_sys::Z3_optimize_inc_ref(target, other);
        let other = RawOpt {
            c: target,
            o: other,
        };
        other.set_rlimit(OPT_READ_RLIMIT);
        let (a, b) = (copy.check(), flip(other.check(), inject));
        problem = differs((a, &copy.bounds(n)), (b, &other.bounds(n)));
        drop(other);
    }
    z3_sys::Z3_del_context(target);
    Ok(problem)
}
