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

/// Quantifiers over every sample sort (the sorts of the typing probe): the reference state
/// types `forall`/`exists` over a `var` of the sort (nested, the inner body mentioning the
/// outer variable) as Bool, and SMT-LIB sort inference types the same quantifier text alike.
#[test]
fn quantifiers_over_every_sort_type_alike_in_the_state_and_in_smtlib() {
    use model::{AnyId, Call, Op, Ret, SortId, State, TermId};
    let mut sorts = model::ops::sample_sorts();
    sorts.push(model::Sort::uninterpreted("U"));
    let mut judged = 0;
    for sort in sorts {
        let mut state = State::new();
        let mut next = 0;
        let mut run = |state: &mut State, call: Call| -> TermId {
            next += 1;
            let ret = match call.ret_kind() {
                model::call::RetKind::Sort => Ret::Id(AnyId::Sort(SortId(next))),
                _ => Ret::Id(AnyId::Term(TermId(next))),
            };
            state.apply(&call, Some(&ret)).unwrap();
            TermId(next)
        };
        // The sort and its components, each by its own call (RegLan has none).
        fn make(
            state: &mut State,
            sort: &model::Sort,
            run: &mut dyn FnMut(&mut State, Call) -> TermId,
        ) -> Option<SortId> {
            let call = Call::make_sort(sort, |c| Ok::<_, ()>(make(state, c, run))).ok()??;
            Some(SortId(run(state, call).0))
        }
        let Some(s) = make(&mut state, &sort, &mut run) else {
            continue;
        };
        judged += 1;
        let x = run(
            &mut state,
            Call::Var {
                sort: s,
                name: "x".into(),
            },
        );
        let y = run(
            &mut state,
            Call::Var {
                sort: s,
                name: "y".into(),
            },
        );
        let eq = Op::lookup("=").unwrap();
        let body = run(
            &mut state,
            Call::Op {
                op: eq,
                indices: vec![],
                args: vec![x, y],
            },
        );
        let quantifier = |forall, vars, body| Call::Quantifier {
            forall,
            weight: 0,
            vars,
            body,
            patterns: vec![],
            no_patterns: vec![],
        };
        let inner = run(&mut state, quantifier(false, vec![y], body));
        assert!(!state.terms[&inner].is_closed(), "{sort}");
        let outer = run(&mut state, quantifier(true, vec![x], inner));
        let info = &state.terms[&outer];
        assert_eq!(info.sort, model::Sort::Bool, "{sort}");
        assert!(info.is_closed() && info.quantified, "{sort}");
        let text = format!(
            "(define-fun probe () Bool (forall ((x {sort})) (exists ((y {sort})) (= x y))))\n"
        );
        let declare = match &sort {
            model::Sort::Named(name, _) => format!("(declare-sort {name} 0)\n"),
            _ => String::new(),
        };
        let tree = Tree::parse(&format!("{declare}{text}")).unwrap();
        assert!(infer_sorts(&tree).is_ok(), "{text}");
    }
    assert_eq!(judged, 11, "every sample sort but RegLan, and U");
}
