//! The lifter without Z3 (`z3log::lift`): the recorded logs of `traces/logs/` lift into
//! traces the reference state accepts, each trace call named by the description of its
//! call (`CallSpec::z3`) or a documented equivalent; what the program did next decides
//! recorded answers and errors; what the model cannot express is counted by name, and the
//! calls that need its objects are dropped and counted apart.

use model::call::{Call, Ret, SatResult};
use std::path::{Path, PathBuf};
use z3log::lift::{lift, Lifted, Options, EQUIVALENT};
use z3log::parse::parse;
use z3log::table::Table;
use z3log::EntryKind;

fn logs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../traces/logs")
}

fn lift_file(name: &str, options: Options) -> (z3log::Log, Table, Lifted) {
    let bytes = std::fs::read(logs_dir().join(name)).unwrap();
    let log = parse(&bytes).unwrap();
    let table = Table::for_version(log.version.as_deref().unwrap()).unwrap();
    let lifted = lift(&log, &table, options).unwrap();
    (log, table, lifted)
}

fn text(lifted: &Lifted) -> String {
    model::trace::text::write(&lifted.entries)
}

/// The trace lines after the header.
fn body(lifted: &Lifted) -> Vec<String> {
    text(lifted).lines().skip(1).map(str::to_string).collect()
}

#[test]
fn the_c_programs_log_lifts_call_by_call() {
    let (_, _, lifted) = lift_file("translate_reset_c-4.8.12.log", Options::default());
    let expected = [
        "sort_int",
        "return s1",
        "const s1 \"x\"",
        "return t1",
        "lit s1 \"1\"",
        "return t2",
        "+ t1 t2",
        "return t3",
        "new_solver",
        "return z1",
        "> t3 t1",
        "return t4",
        "assert z1 t4",
        "translate z1",
        "return z2",
        "reset z2",
        "push z2",
    ];
    assert_eq!(body(&lifted), expected);
    assert!(lifted.unmapped.is_empty() && lifted.dependents.is_empty());
    assert_eq!(lifted.last_call_lost, None);
}

#[test]
fn every_lifted_call_comes_from_a_function_its_description_names() {
    let helpers = |call: &Call| {
        // Calls the lifter adds around a mapped one: sorts a query needs, a quantifier's
        // variables and substitutions, the sorts of declared datatypes, checks.
        let family = call.spec().family;
        matches!(
            call,
            Call::Var { .. } | Call::Substitute { .. } | Call::SortDatatype { .. } | Call::Check(_)
        ) || family == model::Family::Sorts
    };
    for entry in std::fs::read_dir(logs_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "log") {
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let (log, table, lifted) = lift_file(&name, Options { with_checks: true });
        assert_eq!(lifted.entries.len(), lifted.origins.len(), "{name}");
        for (entry, origin) in lifted.entries.iter().zip(&lifted.origins) {
            let EntryKind::Call(c) = &log.entries[*origin].kind else {
                panic!("{name}: an origin that is no call");
            };
            let function = &*table.function(c.number).unwrap().name;
            let spec = entry.call.spec();
            let named = spec.z3.contains(&function)
                || EQUIVALENT
                    .iter()
                    .any(|(f, g)| *f == function && spec.z3.contains(g))
                || matches!(entry.call, Call::Op { .. })
                || helpers(&entry.call);
            assert!(
                named,
                "{name}: `{}` lifted from {function}, which its description does not name",
                entry.call.name()
            );
        }
        // The lifted trace is valid: the text reader (and its state checks at replay)
        // accepts it.
        let text = text(&lifted);
        model::trace::text::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
        let mut state = model::State::new();
        for entry in &lifted.entries {
            state.check(&entry.call).unwrap();
            state.apply(&entry.call, entry.ret.as_ref()).unwrap();
        }
    }
}

#[test]
fn answers_and_errors_follow_from_what_the_program_asked_next() {
    let (_, _, lifted) = lift_file("max_steps_pop-4.8.12.log", Options::default());
    let track = lifted
        .entries
        .iter()
        .find(|e| matches!(e.call, Call::AssertAndTrack { .. }))
        .expect("assert_and_track lifted");
    // Python asked for the error message after it: some error.
    assert_eq!(track.ret, Some(Ret::Error(String::new())));
    // Nothing asked for a model or a core after the check: no answer recorded.
    let check = lifted
        .entries
        .iter()
        .find(|e| matches!(e.call, Call::CheckSatAssuming(..)))
        .expect("the check lifted");
    assert_eq!(check.ret, None);
    // The coverage program takes models after its checks: sat.
    let (_, _, lifted) = lift_file("coverage-4.8.12.log", Options::default());
    let sat = lifted
        .entries
        .iter()
        .filter(|e| e.ret == Some(Ret::Sat(SatResult::Sat)))
        .count();
    assert!(sat >= 1, "{}", text(&lifted));
}

#[test]
fn with_checks_adds_the_model_checks_after_each_model() {
    let (_, _, plain) = lift_file("coverage-5.4.1.log", Options::default());
    let (_, _, checked) = lift_file("coverage-5.4.1.log", Options { with_checks: true });
    let checks: Vec<&Call> = checked
        .entries
        .iter()
        .map(|e| &e.call)
        .filter(|c| matches!(c, Call::Check(_)))
        .collect();
    assert!(checks.iter().any(|c| c.name() == "check_model"));
    assert!(checks.iter().any(|c| c.name() == "check_indep"));
    assert_eq!(plain.entries.len() + checks.len(), checked.entries.len());
    // A check names the call it follows: a get_model's or opt_get_model's entry.
    for (entry, origin) in checked.entries.iter().zip(&checked.origins) {
        if let Call::Check(_) = entry.call {
            let made_model = checked.entries.iter().zip(&checked.origins).any(|(e, o)| {
                o == origin
                    && matches!(
                        e.call,
                        Call::GetModel(_) | Call::OptGetModel(_) | Call::GetUnsatCore(_)
                    )
            });
            assert!(made_model, "{}", entry.call.name());
        }
    }
}

/// A log of the 4.8.12 table from `(function, argument lines, binding lines)`.
fn synthetic(calls: &[(&str, &[&str], &[&str])]) -> (z3log::Log, Table) {
    let table = Table::for_version("4.8.12.0").unwrap();
    let mut text = String::from("V \"4.8.12.0\"\n");
    for (function, args, binds) in calls {
        text.push_str("R\n");
        for a in *args {
            text.push_str(a);
            text.push('\n');
        }
        let number = table.by_name(function).unwrap().number;
        text.push_str(&format!("C {number}\n"));
        for b in *binds {
            text.push_str(b);
            text.push('\n');
        }
    }
    (parse(text.as_bytes()).unwrap(), table)
}

#[test]
fn what_the_model_cannot_express_is_counted_and_its_dependents_dropped() {
    let (log, table) = synthetic(&[
        ("Z3_mk_config", &[], &["= 0x10"]),
        ("Z3_mk_context_rc", &["P 0x10"], &["= 0x20"]),
        ("Z3_mk_simple_solver", &["P 0x20"], &["= 0x30"]),
        ("Z3_mk_bool_sort", &["P 0x20"], &["= 0x40"]),
        ("Z3_mk_const", &["P 0x20", "$ |p|", "P 0x40"], &["= 0x50"]),
        ("Z3_inc_ref", &["P 0x20", "P 0x50"], &[]),
        ("Z3_solver_assert", &["P 0x20", "P 0x30", "P 0x50"], &[]),
        ("Z3_solver_check", &["P 0x20", "P 0x30"], &[]),
        ("Z3_get_error_code", &["P 0x20"], &[]),
    ]);
    let lifted = lift(&log, &table, Options::default()).unwrap();
    assert_eq!(
        body(&lifted),
        ["sort_bool", "return s1", "const s1 \"p\"", "return t1"]
    );
    let unmapped = &lifted.unmapped["Z3_mk_simple_solver"];
    assert_eq!((unmapped.count, unmapped.first_line), (1, 11));
    assert_eq!(lifted.dependents["Z3_solver_assert"].count, 1);
    assert!(lifted.dependents["Z3_solver_check"]
        .reason
        .contains("Z3_mk_simple_solver made on line 11"));
    // The log ends in an error-code query, which every binding makes: no warning.
    assert_eq!(lifted.last_call_lost, None);
    assert!(lifted.n_dropped >= 2);
}

#[test]
fn a_quantifier_over_constants_binds_variables_of_its_own() {
    let (log, table) = synthetic(&[
        ("Z3_mk_config", &[], &["= 0x10"]),
        ("Z3_mk_context_rc", &["P 0x10"], &["= 0x20"]),
        ("Z3_mk_int_sort", &["P 0x20"], &["= 0x40"]),
        ("Z3_mk_const", &["P 0x20", "$ |x|", "P 0x40"], &["= 0x50"]),
        ("Z3_mk_int", &["P 0x20", "I 0", "P 0x40"], &["= 0x60"]),
        ("Z3_mk_ge", &["P 0x20", "P 0x50", "P 0x60"], &["= 0x70"]),
        (
            "Z3_mk_forall_const",
            &[
                "P 0x20", "U 0", "U 1", "P 0x50", "p 1", "U 0", "P 0", "P 0x70",
            ],
            &["= 0x80"],
        ),
    ]);
    let lifted = lift(&log, &table, Options::default()).unwrap();
    let lines = body(&lifted);
    assert_eq!(
        lines[lines.len() - 6..],
        [
            "var s1 \"x!1\"",
            "return t4",
            "substitute t3 t1 t4",
            "return t5",
            "forall 0 t4 body t5",
            "return t6"
        ],
        "{lines:?}"
    );
}
