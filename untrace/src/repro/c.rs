//! The C writer: a [`Program`] as a C program against `z3.h` (`cc repro.c -lz3`).

use super::{comment_text, Arg, Cond, OnError, Program, Propagate, Step, Ty, Z3Call};
use std::collections::HashSet;
use std::fmt::Write as _;

/// A C string literal of `text` (octal escapes for what is not printable ASCII).
pub fn c_string(text: &str) -> String {
    let mut out = String::from("\"");
    for b in text.bytes() {
        match b {
            b'\\' => out.push_str("\\\\"),
            b'"' => out.push_str("\\\""),
            b'\n' => out.push_str("\\n"),
            b'?' => out.push_str("\\?"),
            0x20..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "\\{b:03o}");
            }
        }
    }
    out.push('"');
    out
}

fn double(d: f64) -> String {
    super::double_literal(d, ["NAN", "INFINITY", "-INFINITY"])
}

struct Writer {
    out: String,
    declared: HashSet<String>,
    n_arrays: u32,
}

impl Writer {
    fn arg(&mut self, ctx: &str, a: &Arg, pre: &mut String) -> String {
        match a {
            Arg::Var(v) => v.clone(),
            Arg::Null => "NULL".into(),
            Arg::Bool(b) => b.to_string(),
            Arg::Int(i) => i.to_string(),
            Arg::Uint(u) => format!("{u}u"),
            Arg::Double(d) => double(*d),
            Arg::Str(s) => c_string(s),
            Arg::Sym(s) => format!("Z3_mk_string_symbol({ctx}, {})", c_string(s)),
            Arg::Array(_, elems) if elems.is_empty() => "NULL".into(),
            Arg::Array(ty, elems) => {
                self.n_arrays += 1;
                let name = format!("array{}", self.n_arrays);
                let items: Vec<String> = elems.iter().map(|e| self.arg(ctx, e, pre)).collect();
                let _ = writeln!(
                    pre,
                    "    {} {name}[] = {{{}}};",
                    c_elem(*ty),
                    items.join(", ")
                );
                name
            }
            Arg::Out(v) => {
                if self.declared.insert(v.name.clone()) {
                    let _ = writeln!(pre, "    {} {};", v.ty.c_name(), v.name);
                }
                format!("&{}", v.name)
            }
            Arg::Conv(f, v) => format!("{f}({ctx}, {v})"),
        }
    }

    fn call(&mut self, c: &Z3Call) {
        let ctx = c.ctx.clone().unwrap_or_default();
        let mut pre = String::new();
        let args: Vec<String> = c.args.iter().map(|a| self.arg(&ctx, a, &mut pre)).collect();
        self.out.push_str(&pre);
        let call = format!("{}({})", c.func, args.join(", "));
        let lhs = match &c.bind {
            Some(v) if self.declared.insert(v.name.clone()) => {
                format!("{} {} = ", v.ty.c_name(), v.name)
            }
            Some(v) => format!("{} = ", v.name),
            None => String::new(),
        };
        let after = match (&c.ctx, &c.on_error) {
            (None, _) => String::new(),
            (Some(ctx), OnError::Finding) => format!(" check({ctx});"),
            (Some(ctx), OnError::Recorded(m)) => format!(" refused({ctx}, {});", c_string(m)),
            (Some(_), OnError::Ignored) => String::new(),
        };
        let _ = writeln!(self.out, "    {lhs}{call};{after}");
    }
}

fn c_elem(ty: Ty) -> &'static str {
    ty.c_name()
}

fn cond(c: &Cond) -> String {
    match c {
        Cond::AnswerIsNot(v, r) => format!("{v} != {}", super::lbool_name(*r)),
        Cond::NotTrue { ctx, ast } => format!("Z3_get_bool_value({ctx}, {ast}) != Z3_L_TRUE"),
        Cond::IsFalse { ctx, ast } => format!("Z3_get_bool_value({ctx}, {ast}) == Z3_L_FALSE"),
        Cond::AnswersDiffer(a, b) => {
            format!("{a} != Z3_L_UNDEF && {b} != Z3_L_UNDEF && {a} != {b}")
        }
        Cond::Answers(a, ra, b, rb) => format!(
            "{a} == {} && {b} == {}",
            super::lbool_name(*ra),
            super::lbool_name(*rb)
        ),
        Cond::AnswerIs(v, r) => format!("{v} == {}", super::lbool_name(*r)),
    }
}

const PRELUDE: &str = r#"#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <z3.h>

/* The trace line being run, for messages. */
static const char *line = "";

/* A Z3 error where none is allowed: the finding (exit 4). */
static void check(Z3_context ctx) {
    Z3_error_code e = Z3_get_error_code(ctx);
    if (e != Z3_OK) {
        printf("repro: Z3 error at `%s`: %s\n", line, Z3_get_error_msg(ctx, e));
        exit(4);
    }
}

/* Z3 refused this call when the trace was recorded: it must refuse it again (else exit 1). */
static void refused(Z3_context ctx, const char *recorded) {
    if (Z3_get_error_code(ctx) == Z3_OK) {
        printf("repro: Z3 accepted `%s`, which it refused when the trace was recorded (%s)\n", line, recorded);
        exit(1);
    }
}

static const char *answer(Z3_lbool r) {
    return r == Z3_L_TRUE ? "sat" : r == Z3_L_FALSE ? "unsat" : "unknown";
}

static void fail(int code, const char *message) {
    printf("repro: %s (at `%s`)\n", message, line);
    exit(code);
}

"#;

/// The callbacks and the judgement of `check_propagator` (`Step::Propagate`), printed once
/// where a program has one.
const PROPAGATOR: &str = include_str!("c_propagator.c");

/// The call of [`PROPAGATOR`]'s check for one `check_propagator` line.
fn propagate(out: &mut String, p: &Propagate) {
    let array = |name: &str, items: &[String]| {
        if items.is_empty() {
            format!("Z3_ast *{name} = NULL;")
        } else {
            format!("Z3_ast {name}[] = {{{}}};", items.join(", "))
        }
    };
    let _ = writeln!(
        out,
        "    {{ {} {} mbt_propagate({}, assertions, {}, watched, {}, {}, {}ul); }}",
        array("assertions", &p.assertions),
        array("watched", &p.terms),
        p.ctx,
        p.assertions.len(),
        p.terms.len(),
        p.enumerate,
        p.rlimit
    );
}

/// The C program of `p`.
pub fn write(p: &Program) -> String {
    let mut w = Writer {
        out: String::new(),
        declared: HashSet::new(),
        n_arrays: 0,
    };
    let _ = writeln!(w.out, "/* Reproducer of {}", comment_text(&p.source));
    if let Some(v) = &p.z3_version {
        let _ = writeln!(w.out, " * recorded on Z3 {}", comment_text(v));
    }
    for e in &p.expected {
        let _ = writeln!(w.out, " * {}", comment_text(e));
    }
    let _ = writeln!(
        w.out,
        " * Build and run: cc repro.c -lz3 -o repro && ./repro"
    );
    let _ = writeln!(
        w.out,
        " * Exit 0: no failure; 1: an answer or refusal differs from the recorded one;"
    );
    let _ = writeln!(
        w.out,
        " * 4: a Z3 error where none is allowed; 5: a check failed; a crash crashes."
    );
    for u in &p.unexpressed {
        let _ = writeln!(w.out, " * Not expressed: {}", comment_text(u));
    }
    w.out.push_str(" */\n");
    w.out.push_str(PRELUDE);
    if p.steps.iter().any(|s| matches!(s, Step::Propagate(_))) {
        w.out.push_str(PROPAGATOR);
    }
    w.out.push_str("int main(void) {\n");
    for step in &p.steps {
        match step {
            Step::Line(l) => {
                let _ = writeln!(w.out, "    line = {};", c_string(l));
            }
            Step::Call(c) => w.call(c),
            Step::Alias { var, of } => {
                if w.declared.insert(var.name.clone()) {
                    let _ = writeln!(w.out, "    {} {} = {of};", var.ty.c_name(), var.name);
                } else {
                    let _ = writeln!(w.out, "    {} = {of};", var.name);
                }
            }
            Step::Fail {
                cond: c,
                exit,
                message,
            } => {
                let extra = match c {
                    Cond::AnswerIsNot(v, _) => {
                        format!("printf(\"repro: Z3 answered %s\\n\", answer({v})); ")
                    }
                    _ => String::new(),
                };
                let _ = writeln!(
                    w.out,
                    "    if ({}) {{ {extra}fail({exit}, {}); }}",
                    cond(c),
                    c_string(message)
                );
            }
            Step::Note(n) => {
                let _ = writeln!(w.out, "    /* {} */", comment_text(n));
            }
            Step::Propagate(prop) => propagate(&mut w.out, prop),
        }
    }
    for ctx in p.contexts().iter().rev().filter(|_| !p.keeps_contexts) {
        let _ = writeln!(w.out, "    Z3_del_context({ctx});");
    }
    w.out
        .push_str("    printf(\"repro: finished without failure\\n\");\n    return 0;\n}\n");
    w.out
}
