//! A Z3 model as SMT-LIB `define-fun`s ([`model_text`]), read through the API entry by entry:
//! `Z3_model_to_string` prints Z3's own `x -> 0` format unless the context's print mode is
//! changed, which would change every value the trace records.
//!
//! Constants become `(define-fun c () S v)`; functions (UFs and Z3's auxiliary `k!0` behind
//! an array's `as-array`, `div0`, ...) become an `ite` chain over their table entries ending
//! in the `else` value; the elements of uninterpreted sorts become `declare-fun`s.

use std::fmt::Write as _;

/// The top-level items of an s-expression list `( a (b c) "d" |e f| )`, as text slices.
fn list_items(text: &str) -> Option<Vec<&str>> {
    let inner = text.trim().strip_prefix('(')?.strip_suffix(')')?;
    let bytes = inner.as_bytes();
    let mut items = Vec::new();
    let (mut depth, mut start, mut i) = (0i32, None, 0);
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'|' | b'"' => {
                start.get_or_insert(i);
                i += 1;
                while i < bytes.len() && bytes[i] != b {
                    i += 1;
                }
            }
            b'(' => {
                start.get_or_insert(i);
                depth += 1;
            }
            b')' => depth -= 1,
            b' ' | b'\n' | b'\t' | b'\r' if depth == 0 => {
                if let Some(s) = start.take() {
                    items.push(&inner[s..i]);
                }
            }
            _ => {
                start.get_or_insert(i);
            }
        }
        i += 1;
    }
    if let Some(s) = start {
        items.push(&inner[s..]);
    }
    (depth == 0).then_some(items)
}

/// `(declare-fun f (D1 D2) R)` as the name, the domain sorts and the range sort.
fn signature(decl: &str) -> Option<(String, Vec<String>, String)> {
    let items = list_items(decl)?;
    match items.as_slice() {
        ["declare-fun", name, domain, range] => {
            let domain = list_items(domain)?
                .into_iter()
                .map(str::to_string)
                .collect();
            Some((name.to_string(), domain, range.to_string()))
        }
        _ => None,
    }
}

/// The model's entries as SMT-LIB definitions, one per line; `None` when an entry cannot be
/// written (the check then skips the model).
pub fn model_text(model: &z3::Model) -> Option<String> {
    let mut out = String::new();
    for (sort, universe) in model.sort_universes() {
        for element in universe.iter() {
            let _ = writeln!(out, "(declare-fun {element} () {sort})");
        }
    }
    for decl in model.iter() {
        let (name, domain, range) = signature(&decl.to_string())?;
        let interp = model.get_interp(&decl)?;
        if let Some(value) = interp.as_const() {
            let _ = writeln!(out, "(define-fun {name} () {range} {value})");
            continue;
        }
        let table = interp.as_func()?;
        let params: Vec<String> = (0..domain.len()).map(|i| format!("x!{i}")).collect();
        let mut body = table.get_else()?.to_string();
        for entry in table.get_entries().iter().rev() {
            let args = entry.get_args();
            if args.len() != params.len() {
                return None;
            }
            let tests: Vec<String> = params
                .iter()
                .zip(&args)
                .map(|(p, a)| format!("(= {p} {a})"))
                .collect();
            let test = match tests.as_slice() {
                [one] => one.clone(),
                _ => format!("(and {})", tests.join(" ")),
            };
            body = format!("(ite {test} {} {body})", entry.get_value());
        }
        let formals: Vec<String> = params
            .iter()
            .zip(&domain)
            .map(|(p, s)| format!("({p} {s})"))
            .collect();
        let _ = writeln!(
            out,
            "(define-fun {name} ({}) {range} {body})",
            formals.join(" ")
        );
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_split_at_top_level() {
        assert_eq!(
            list_items("(declare-fun |a b| ((_ BitVec 8) Int) (Array Int Int))"),
            Some(vec![
                "declare-fun",
                "|a b|",
                "((_ BitVec 8) Int)",
                "(Array Int Int)"
            ])
        );
        assert_eq!(
            signature("(declare-fun k!0 () Bool)"),
            Some(("k!0".into(), vec![], "Bool".into()))
        );
        assert_eq!(list_items("(a (b"), None);
    }

    #[test]
    fn a_z3_model_reads_back_with_the_evaluator() {
        use z3::ast::Int;
        let solver = z3::Solver::new();
        let x = Int::new_const("x");
        let f = z3::FuncDecl::new("f", &[&z3::Sort::int()], &z3::Sort::int());
        let fx = f.apply(&[&x]).as_int().unwrap();
        solver.assert(x.gt(Int::from_i64(3)));
        solver.assert(fx.eq(Int::from_i64(-7)));
        assert_eq!(solver.check(), z3::SatResult::Sat);
        let model = solver.get_model().unwrap();
        let text = model_text(&model).expect("model text");
        let parsed = model::eval::Model::parse(&format!("({text})")).expect("parses");
        let v = model::eval::evaluate_str("(and (> x 3) (= (f x) (- 7)))", &parsed);
        assert_eq!(v, Ok(model::eval::Value::Bool(true)), "{text}");
    }
}
