//! The operation table (`model::ops`) and the SMT-LIB sort rules (`model::smtlib::theories`,
//! used by sort inference) are two tables of the same facts. Every sample application the
//! table accepts is written as SMT-LIB by the one operation writer and typed by sort
//! inference: both must give the same sort, so neither table drifts from the other.

use model::call_text::{operation, Dialect};
use model::ops::{sample_applications, OPS};
use model::smtlib::{infer_sorts, Tree};

#[test]
fn every_operation_types_alike_in_the_table_and_in_smtlib() {
    let mut disagreements = Vec::new();
    let mut typed = 0;
    for op in OPS {
        for (indices, args) in sample_applications(op) {
            let refs: Vec<_> = args.iter().collect();
            let expected = op.result_sort(&indices, &refs).unwrap();
            let names: Vec<String> = (0..args.len()).map(|i| format!("x{i}")).collect();
            let Some(text) = operation(op.name, &indices, &names, args.first(), Dialect::Z3) else {
                continue;
            };
            let mut script = String::new();
            for (name, sort) in names.iter().zip(&args) {
                script += &format!("(declare-const {name} {sort})\n");
            }
            script += &format!("(define-fun probe () {expected} {text})\n");
            let tree = Tree::parse(&script).unwrap();
            match infer_sorts(&tree) {
                Ok(_) => typed += 1,
                Err(e) => disagreements.push(format!("{}: {e}\n{script}", op.name)),
            }
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} of {} applications type otherwise in SMT-LIB:\n{}",
        disagreements.len(),
        typed + disagreements.len(),
        disagreements.join("\n")
    );
    assert!(typed > OPS.len(), "only {typed} applications typed");
}
