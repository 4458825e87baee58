//! `check_parser_context`: Z3's parser contexts (`Z3_mk_parser_context`, releases after
//! 4.8.12) read the SMT-LIB text of a round's term, written from the round's own calls
//! (`term_text`), with the term's uninterpreted declarations and sorts added to the context
//! (`Z3_parser_context_add_decl`, `_add_sort`); what they parse must be the term. Every
//! function is looked up by name in the loaded libz3 (never linked): a trace with the check
//! replays only where it has them ([`PARSER_CONTEXT_FUNCTIONS`], `read::missing_function`).

use super::checks::SOLVER_CHECK_RLIMIT;
use super::raw_solver::RawSolver;
use super::read::kinds::{APP_AST, ARRAY_SORT, DATATYPE_SORT, UNINTERPRETED_SORT};
use super::read::typed;
use super::{guard, ExecError, Executor};
use model::call::{Check, TermId};
use std::collections::HashSet;
use std::ffi::{c_char, c_uint, CString};
use z3::ast::{Ast, Dynamic};
use z3::SatResult;
use z3_sys::{Z3_ast, Z3_ast_vector, Z3_context, Z3_func_decl, Z3_parser_context, Z3_sort};

/// The functions of `check_parser_context`, which only releases after 4.8.12 have.
pub const PARSER_CONTEXT_FUNCTIONS: &[&str] = &[
    "Z3_mk_parser_context",
    "Z3_parser_context_inc_ref",
    "Z3_parser_context_dec_ref",
    "Z3_parser_context_add_sort",
    "Z3_parser_context_add_decl",
    "Z3_parser_context_from_string",
];

type MkParser = unsafe extern "C" fn(Z3_context) -> Option<Z3_parser_context>;
type ParserRef = unsafe extern "C" fn(Z3_context, Z3_parser_context);
type AddSort = unsafe extern "C" fn(Z3_context, Z3_parser_context, Z3_sort);
type AddDecl = unsafe extern "C" fn(Z3_context, Z3_parser_context, Z3_func_decl);
type FromString =
    unsafe extern "C" fn(Z3_context, Z3_parser_context, *const c_char) -> Option<Z3_ast_vector>;
// Kinds read as numbers: a release may answer a kind the z3-sys enums do not have.
type DeclKind = unsafe extern "C" fn(Z3_context, Z3_func_decl) -> c_uint;
type SortKind = unsafe extern "C" fn(Z3_context, Z3_sort) -> c_uint;
type AstKind = unsafe extern "C" fn(Z3_context, Z3_ast) -> c_uint;

/// The functions, looked up once a check.
struct Functions {
    mk: MkParser,
    inc: ParserRef,
    dec: ParserRef,
    add_sort: AddSort,
    add_decl: AddDecl,
    from_string: FromString,
    decl_kind: DeclKind,
    sort_kind: SortKind,
    ast_kind: AstKind,
}

impl Functions {
    fn load() -> Result<Functions, String> {
        // SAFETY: each type is the function's z3_api.h signature (the kinds as numbers).
        unsafe {
            Ok(Functions {
                mk: typed("Z3_mk_parser_context")?,
                inc: typed("Z3_parser_context_inc_ref")?,
                dec: typed("Z3_parser_context_dec_ref")?,
                add_sort: typed("Z3_parser_context_add_sort")?,
                add_decl: typed("Z3_parser_context_add_decl")?,
                from_string: typed("Z3_parser_context_from_string")?,
                decl_kind: typed("Z3_get_decl_kind")?,
                sort_kind: typed("Z3_get_sort_kind")?,
                ast_kind: typed("Z3_get_ast_kind")?,
            })
        }
    }
}

/// `Z3_OP_UNINTERPRETED` of the loaded libz3 (its value grows as releases add operations
/// before it): the kind of a fresh constant's declaration.
///
/// # Safety
/// `raw` must be a live context.
unsafe fn uninterpreted_kind(f: &Functions, raw: Z3_context) -> Option<c_uint> {
    // SAFETY: plain calls on a live context.
    unsafe {
        let sort = z3_sys::Z3_mk_bool_sort(raw)?;
        let prefix = CString::new("mbt").ok()?;
        let probe = z3_sys::Z3_mk_fresh_const(raw, prefix.as_ptr(), sort)?;
        let decl = z3_sys::Z3_get_app_decl(raw, z3_sys::Z3_to_app(raw, probe)?)?;
        Some((f.decl_kind)(raw, decl))
    }
}

/// The uninterpreted declarations a term applies and the declared sorts and datatypes they
/// name (their own sorts, and the index and element sorts of arrays of them).
///
/// # Safety
/// `raw` must be the live context of `term`.
unsafe fn declarations(
    f: &Functions,
    raw: Z3_context,
    term: Z3_ast,
) -> (Vec<Z3_func_decl>, Vec<Z3_sort>) {
    // SAFETY: as the caller promises; every handle read is a live child of `term`.
    unsafe {
        let (mut decls, mut sorts) = (Vec::new(), Vec::new());
        let Some(uninterpreted) = uninterpreted_kind(f, raw) else {
            return (decls, sorts);
        };
        let (mut seen, mut seen_decl, mut seen_sort) =
            (HashSet::new(), HashSet::new(), HashSet::new());
        let mut named_sort = |s: Z3_sort, sorts: &mut Vec<Z3_sort>| {
            let mut todo = vec![s];
            while let Some(s) = todo.pop() {
                match (f.sort_kind)(raw, s) {
                    UNINTERPRETED_SORT | DATATYPE_SORT
                        if seen_sort.insert(z3_sys::Z3_get_sort_id(raw, s)) =>
                    {
                        sorts.push(s);
                    }
                    ARRAY_SORT => {
                        todo.extend(z3_sys::Z3_get_array_sort_domain(raw, s));
                        todo.extend(z3_sys::Z3_get_array_sort_range(raw, s));
                    }
                    _ => {}
                }
            }
        };
        let mut todo = vec![term];
        while let Some(a) = todo.pop() {
            if !seen.insert(z3_sys::Z3_get_ast_id(raw, a)) || (f.ast_kind)(raw, a) != APP_AST {
                continue;
            }
            let Some(app) = z3_sys::Z3_to_app(raw, a) else {
                continue;
            };
            for i in 0..z3_sys::Z3_get_app_num_args(raw, app) {
                todo.extend(z3_sys::Z3_get_app_arg(raw, app, i));
            }
            let Some(decl) = z3_sys::Z3_get_app_decl(raw, app) else {
                continue;
            };
            if (f.decl_kind)(raw, decl) != uninterpreted {
                continue;
            }
            let id = z3_sys::Z3_func_decl_to_ast(raw, decl).map(|d| z3_sys::Z3_get_ast_id(raw, d));
            if !seen_decl.insert(id) {
                continue;
            }
            decls.push(decl);
            for i in 0..z3_sys::Z3_get_domain_size(raw, decl) {
                if let Some(s) = z3_sys::Z3_get_domain(raw, decl, i) {
                    named_sort(s, &mut sorts);
                }
            }
            if let Some(s) = z3_sys::Z3_get_range(raw, decl) {
                named_sort(s, &mut sorts);
            }
        }
        (decls, sorts)
    }
}

/// What parsing one term's text gave.
enum Parsed {
    /// The term itself, or one that simplifies to what the term simplifies to.
    Same,
    /// A term that a reference solver finds different from it (Z3 prints both).
    Different(String, String),
    /// A term the reference solver could not compare (unknown), or a parse without the
    /// expected shape.
    Open,
}

/// Parses `(assert (= TEXT TEXT))` in a parser context with `term`'s declarations and judges
/// the left side against `term`.
///
/// # Safety
/// `raw` must be the live thread-local context, `term` its term.
unsafe fn parse_back(f: &Functions, raw: Z3_context, term: &Dynamic, text: &str) -> Option<Parsed> {
    let source = CString::new(format!("(assert (= {text} {text}))")).ok()?;
    // SAFETY: as the caller promises; the parser context and the vector are referenced while
    // used.
    unsafe {
        let (decls, sorts) = declarations(f, raw, term.get_z3_ast());
        let pc = (f.mk)(raw)?;
        (f.inc)(raw, pc);
        for s in sorts {
            (f.add_sort)(raw, pc, s);
        }
        for d in decls {
            (f.add_decl)(raw, pc, d);
        }
        let parsed = (f.from_string)(raw, pc, source.as_ptr());
        (f.dec)(raw, pc);
        let v = parsed?;
        z3_sys::Z3_ast_vector_inc_ref(raw, v);
        let first = match z3_sys::Z3_ast_vector_size(raw, v) {
            1 => z3_sys::Z3_ast_vector_get(raw, v, 0),
            _ => None,
        };
        let first = first.map(|a| Dynamic::wrap(&z3::Context::thread_local(), a));
        z3_sys::Z3_ast_vector_dec_ref(raw, v);
        let Some(first) = first else {
            return Some(Parsed::Open);
        };
        let sides = first.children();
        let Some(left) = sides.first().filter(|_| sides.len() == 2) else {
            // Z3 rewrote `(= T T)` itself: nothing to compare.
            return Some(Parsed::Open);
        };
        if left == term || left.simplify() == term.simplify() {
            return Some(Parsed::Same);
        }
        let solver = RawSolver::reference(SOLVER_CHECK_RLIMIT, &[])?;
        solver.assert(&left.ne(term));
        Some(match solver.check_assumptions(&[]) {
            SatResult::Unsat => Parsed::Same,
            SatResult::Unknown => Parsed::Open,
            SatResult::Sat => Parsed::Different(
                guard::one_line(&left.to_string()),
                guard::one_line(&term.to_string()),
            ),
        })
    }
}

impl Executor {
    /// `check_parser_context`: see [`model::Check::ParserContext`]. A term without SMT-LIB
    /// text, a text Z3's parser refuses (an operation its parser names otherwise) and an
    /// unknown comparison are no verdict (counted).
    pub(super) fn check_parser_context(
        &mut self,
        check: &Check,
        terms: &[TermId],
    ) -> Result<(), ExecError> {
        let functions = Functions::load().map_err(ExecError::Malformed)?;
        for &t in terms {
            let text = match self.texts.as_ref().map(|texts| texts.text(t)) {
                Some(Ok(text)) => text,
                _ => {
                    self.count("parser context: skipped: no text");
                    continue;
                }
            };
            let term = self.z3_term(t)?.clone();
            let ctx = self.main.clone();
            // SAFETY: the thread-local context of the block is `ctx`, the term's.
            let judged = guard::in_context(&ctx, || unsafe {
                parse_back(&functions, ctx.get_z3_context(), &term, &text)
            });
            match judged {
                Err(message) if message.starts_with("ParserError") => {
                    self.count("parser context: skipped: Z3's parser refused the text");
                }
                Err(message) => self.check_error(check, message)?,
                Ok(None) => {
                    return Err(ExecError::Z3(format!(
                        "{}: Z3 returned no object",
                        check.name()
                    )))
                }
                Ok(Some(Parsed::Same)) => self.count("parser context: same term"),
                Ok(Some(Parsed::Open)) => self.count("parser context: open"),
                Ok(Some(Parsed::Different(parsed, original))) => {
                    return Err(Self::finding(
                        check,
                        format!(
                            "the text of {t} parsed in a parser context with its declarations is {parsed}, which differs from {t} = {original}"
                        ),
                        "a parser context parses a term's text to another term".into(),
                    ))
                }
            }
        }
        Ok(())
    }
}
