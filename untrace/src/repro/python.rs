//! The Python writer: a [`Program`] as a script on the `z3` package's low-level API
//! (`z3.z3core`: the C functions by name, on ctypes objects), so that it makes the same calls
//! as the C program; it raises `Z3Exception` where the C program reads an error code.

use super::{comment_text, Arg, Cond, OnError, Program, Step, Z3Call};
use std::fmt::Write as _;

/// The callbacks and the judgement of `check_propagator` (`Step::Propagate`), on z3core's
/// callback types, printed once before `main` where a script has the check.
const PROPAGATOR: &str = include_str!("py_propagator.py");

/// A Python string literal of `text`.
pub fn py_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            c if (' '..='~').contains(&c) => out.push(c),
            c => {
                let _ = write!(out, "\\U{:08x}", c as u32);
            }
        }
    }
    out.push('"');
    out
}

fn double(d: f64) -> String {
    super::double_literal(d, ["float('nan')", "float('inf')", "float('-inf')"])
}

fn arg(ctx: &str, a: &Arg, outs: &mut Vec<(String, String)>) -> String {
    match a {
        Arg::Var(v) => v.clone(),
        Arg::Null => "None".into(),
        Arg::Bool(b) => {
            if *b {
                "True".into()
            } else {
                "False".into()
            }
        }
        Arg::Int(i) => i.to_string(),
        Arg::Uint(u) => u.to_string(),
        Arg::Double(d) => double(*d),
        Arg::Str(s) => py_string(s),
        Arg::Sym(s) => format!("Z3_mk_string_symbol({ctx}, {})", py_string(s)),
        Arg::Array(ty, elems) => {
            let items: Vec<String> = elems.iter().map(|e| arg(ctx, e, outs)).collect();
            format!("({} * {})({})", ty.py_name(), items.len(), items.join(", "))
        }
        Arg::Out(v) => {
            let holder = format!("{}_out", v.name);
            outs.push((
                holder.clone(),
                format!("{holder} = ({} * 1)()", v.ty.py_name()),
            ));
            let _ = &v.name;
            holder
        }
        Arg::Conv(f, v) => format!("{f}({ctx}, {v})"),
    }
}

fn cond(c: &Cond) -> String {
    match c {
        Cond::AnswerIsNot(v, r) => format!("{v} != {}", super::lbool_name(*r)),
        Cond::NotTrue { ctx, ast } => format!("Z3_get_bool_value({ctx}, {ast}) != Z3_L_TRUE"),
        Cond::IsFalse { ctx, ast } => format!("Z3_get_bool_value({ctx}, {ast}) == Z3_L_FALSE"),
        Cond::AnswersDiffer(a, b) => {
            format!("{a} != Z3_L_UNDEF and {b} != Z3_L_UNDEF and {a} != {b}")
        }
        Cond::Answers(a, ra, b, rb) => format!(
            "{a} == {} and {b} == {}",
            super::lbool_name(*ra),
            super::lbool_name(*rb)
        ),
        Cond::AnswerIs(v, r) => format!("{v} == {}", super::lbool_name(*r)),
    }
}

const PRELUDE: &str = r#"import ctypes
import sys

from z3.z3core import *
from z3.z3types import *
from z3.z3consts import *

line = ""


def fail(code, message):
    print("repro: %s (at `%s`)" % (message, line))
    sys.exit(code)


def answer(r):
    return {Z3_L_TRUE: "sat", Z3_L_FALSE: "unsat"}.get(r, "unknown")


def no_handler(ctx, code):
    pass  # Errors are read from the error code (z3core raises Z3Exception).


handlers = []


def main():
    global line
"#;

fn call(out: &mut String, c: &Z3Call) {
    let ctx = c.ctx.clone().unwrap_or_default();
    if c.func == "Z3_set_error_handler" {
        let _ = writeln!(
            out,
            "    handlers.append(Z3_set_error_handler({ctx}, no_handler))"
        );
        return;
    }
    let mut outs = Vec::new();
    let args: Vec<String> = c.args.iter().map(|a| arg(&ctx, a, &mut outs)).collect();
    for (_, decl) in &outs {
        let _ = writeln!(out, "    {decl}");
    }
    let lhs = c
        .bind
        .as_ref()
        .map(|v| format!("{} = ", v.name))
        .unwrap_or_default();
    let text = format!("{lhs}{}({})", c.func, args.join(", "));
    match &c.on_error {
        OnError::Finding => {
            let _ = writeln!(out, "    {text}");
        }
        OnError::Ignored => {
            if let Some(v) = &c.bind {
                let _ = writeln!(out, "    {} = None", v.name);
            }
            let _ = writeln!(
                out,
                "    try:\n        {text}\n    except Z3Exception:\n        pass  # An error is no finding in a log's replay."
            );
        }
        OnError::Recorded(m) => {
            let _ = writeln!(
                out,
                "    try:\n        {text}\n    except Z3Exception:\n        pass  # Refused, as when the trace was recorded.\n    else:\n        fail(1, \"Z3 accepted the call, which it refused when the trace was recorded (\" + {} + \")\")",
                py_string(m)
            );
        }
    }
    for (holder, _) in &outs {
        let name = holder.trim_end_matches("_out");
        let _ = writeln!(out, "    {name} = {holder}[0]");
    }
}

/// The Python script of `p`.
pub fn write(p: &Program) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Reproducer of {}", comment_text(&p.source));
    if let Some(v) = &p.z3_version {
        let _ = writeln!(out, "# recorded on Z3 {}", comment_text(v));
    }
    for e in &p.expected {
        let _ = writeln!(out, "# {}", comment_text(e));
    }
    let _ = writeln!(
        out,
        "# Run: python3 repro.py (the z3 package, z3-solver or Debian's python3-z3)"
    );
    let _ = writeln!(
        out,
        "# Exit 0: no failure; 1: an answer or refusal differs from the recorded one;"
    );
    let _ = writeln!(
        out,
        "# 4: a Z3 error where none is allowed; 5: a check failed; a crash crashes."
    );
    for u in &p.unexpressed {
        let _ = writeln!(out, "# Not expressed: {}", comment_text(u));
    }
    let (head, main) = PRELUDE
        .split_once("def main():")
        .expect("the prelude defines main");
    out.push_str(head);
    if p.steps.iter().any(|s| matches!(s, Step::Propagate(_))) {
        out.push_str(PROPAGATOR);
    }
    out.push_str("def main():");
    out.push_str(main);
    for step in &p.steps {
        match step {
            Step::Line(l) => {
                let _ = writeln!(out, "    line = {}", py_string(l));
            }
            Step::Call(c) => call(&mut out, c),
            Step::Alias { var, of } => {
                let _ = writeln!(out, "    {} = {of}", var.name);
            }
            Step::Fail {
                cond: c,
                exit,
                message,
            } => {
                let extra = match c {
                    Cond::AnswerIsNot(v, _) => {
                        format!("print(\"repro: Z3 answered \" + answer({v}))\n        ")
                    }
                    _ => String::new(),
                };
                let _ = writeln!(
                    out,
                    "    if {}:\n        {extra}fail({exit}, {})",
                    cond(c),
                    py_string(message)
                );
            }
            Step::Note(n) => {
                let _ = writeln!(out, "    # {}", comment_text(n));
            }
            Step::Propagate(prop) => {
                let _ = writeln!(
                    out,
                    "    mbt_propagate({}, [{}], [{}], {}, {})",
                    prop.ctx,
                    prop.assertions.join(", "),
                    prop.terms.join(", "),
                    if prop.enumerate { "True" } else { "False" },
                    prop.rlimit
                );
            }
        }
    }
    for ctx in p.contexts().iter().rev().filter(|_| !p.keeps_contexts) {
        let _ = writeln!(out, "    Z3_del_context({ctx})");
    }
    out.push_str(
        "    print(\"repro: finished without failure\")\n\n\ntry:\n    main()\nexcept Z3Exception as e:\n    fail(4, \"Z3 error: %s\" % e)\n",
    );
    out
}
