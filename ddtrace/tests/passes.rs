//! Each pass on synthetic failures, in process: the tester is the simulated
//! `UNTRACE_FAIL_ON` of `common::fails_on` (no Z3, no child processes), so these tests show
//! what each pass does and that results are 1-minimal, quickly.

mod common;

use common::{fails_on, random_trace, without, Builder};
use ddtrace::trace_io::{line_count, read, render, Format};
use ddtrace::validity::is_valid;
use ddtrace::{reduce, Passes, Reduction};
use model::trace::text::format_call;
use model::{Call, Entry, Ret, SatResult};
use reduce::{ReducerOptions, StopFlag, Tester};
use std::sync::atomic::{AtomicU64, Ordering};

fn only(f: impl FnOnce(&mut Passes)) -> Passes {
    let mut p = Passes::NONE;
    f(&mut p);
    p
}

fn run(tester: &dyn Tester, input: Vec<Entry>, passes: &Passes) -> Reduction {
    reduce(
        tester,
        input,
        Format::Text,
        passes,
        ReducerOptions::default(),
        None,
        &StopFlag::new(),
    )
    .expect("reduction runs")
}

fn lines(entries: &[Entry]) -> Vec<String> {
    entries.iter().map(|e| format_call(&e.call)).collect()
}

/// Removing any single call leaves an invalid trace or one that no longer fails.
fn assert_one_minimal(entries: &[Entry], tester: &dyn Fn(&[u8]) -> bool) {
    for i in 0..entries.len() {
        let smaller = without(entries, i);
        let text = render(&smaller, Format::Text);
        assert!(
            !is_valid(&smaller) || !tester(&text),
            "removing `{}` keeps the failure:\n{}",
            format_call(&entries[i].call),
            String::from_utf8_lossy(&text)
        );
    }
}

#[test]
fn removal_keeps_only_the_cone_of_the_failing_call_and_is_one_minimal() {
    let input = random_trace(7, 120);
    // The first `bvudiv` line of the trace is the synthetic crash.
    let pattern = "bvudiv";
    let tester = fails_on(pattern);
    assert!(tester(&render(&input, Format::Text)), "the input fails");
    let done = run(&tester, input.clone(), &Passes::remove_only());
    assert!(tester(&render(&done.entries, Format::Text)));
    assert!(
        line_count(&done.entries) * 4 < line_count(&input),
        "{} lines",
        line_count(&done.entries)
    );
    // The failing call is last: nothing after it matters.
    assert!(format_call(&done.entries.last().unwrap().call).contains(pattern));
    assert_one_minimal(&done.entries, &tester);
}

#[test]
fn dependency_aware_removal_never_replays_an_invalid_candidate() {
    let input = random_trace(11, 80);
    let invalid = AtomicU64::new(0);
    let inner = fails_on("bvmul");
    let tester = |bytes: &[u8]| {
        let (entries, _) = read(bytes).unwrap();
        if !is_valid(&entries) {
            invalid.fetch_add(1, Ordering::SeqCst);
        }
        inner(bytes)
    };
    let done = run(&tester, input, &Passes::remove_only());
    assert!(done.replays > 0);
    assert_eq!(
        invalid.load(Ordering::SeqCst),
        0,
        "invalid candidates were replayed"
    );
    // Removing the const under the failing call removed the call with it, so removal
    // candidates were built with their dependants: the result has only the calls needed.
    assert_one_minimal(&done.entries, &inner);
}

#[test]
fn recorded_results_are_dropped_when_not_needed() {
    let mut b = Builder::new();
    let s = b.sort(Call::SortBool);
    let p = b.term(Call::Const {
        sort: s,
        name: "p".into(),
    });
    let z = b.solver();
    b.action(Call::Assert(z, p));
    b.entries.push(Entry {
        call: Call::CheckSat(z),
        ret: Some(Ret::Sat(SatResult::Sat)),
    });
    b.action(Call::Push(z));
    let done = run(
        &fails_on("push"),
        b.entries.clone(),
        &only(|p| p.results = true),
    );
    assert_eq!(done.entries.len(), b.entries.len());
    assert_eq!(done.entries[4].ret, None, "the `return sat` line is gone");
}

#[test]
fn nary_argument_lists_shrink_to_their_minimum() {
    let mut b = Builder::new();
    let s = b.sort(Call::SortBool);
    let ts: Vec<_> = (0..5)
        .map(|i| {
            b.term(Call::Const {
                sort: s,
                name: format!("p{i}"),
            })
        })
        .collect();
    let z = b.solver();
    let and = b.op("and", &[], &ts);
    b.action(Call::CheckSatAssuming(z, ts[1..4].to_vec()));
    b.action(Call::Assert(z, and));
    let input = b.entries.clone();
    // Fails at `assert`; the `and` and the assumptions only have to stay valid.
    let done = run(&fails_on("assert"), input, &only(|p| p.args = true));
    let text = lines(&done.entries);
    let and = text.iter().find(|l| l.starts_with("and ")).unwrap();
    assert_eq!(and.split(' ').count(), 2, "one argument left: {text:?}");
    assert!(
        text.contains(&"check_sat_assuming z1".to_string()),
        "{text:?}"
    );
    // `distinct` keeps two arguments.
    let mut b = Builder::new();
    let s = b.sort(Call::SortInt);
    let ts: Vec<_> = (0..4)
        .map(|i| {
            b.term(Call::Const {
                sort: s,
                name: format!("x{i}"),
            })
        })
        .collect();
    b.op("distinct", &[], &ts);
    let done = run(
        &fails_on("distinct"),
        b.entries.clone(),
        &only(|p| p.args = true),
    );
    assert_eq!(lines(&done.entries).last().unwrap().split(' ').count(), 3);
}

/// x = const, y = bvadd x x, z = bvmul y y; the failure is at `bvudiv z x`.
fn chain() -> Vec<Entry> {
    let mut b = Builder::new();
    let s = b.sort(Call::SortBv(8));
    let x = b.term(Call::Const {
        sort: s,
        name: "x".into(),
    });
    let y = b.op("bvadd", &[], &[x, x]);
    let z = b.op("bvmul", &[], &[y, y]);
    b.op("bvudiv", &[], &[z, x]);
    b.entries
}

#[test]
fn substitution_by_existing_terms_uses_smaller_ones() {
    let done = run(
        &fails_on("bvudiv"),
        chain(),
        &only(|p| p.subst_existing = true),
    );
    assert_eq!(lines(&done.entries).last().unwrap(), "bvudiv t1 t1");
    // With removal, the now unused terms go too.
    let done = run(
        &fails_on("bvudiv"),
        chain(),
        &only(|p| {
            p.subst_existing = true;
            p.remove = true
        }),
    );
    assert_eq!(
        lines(&done.entries),
        ["sort_bv 8", "const s1 \"x\"", "bvudiv t1 t1"]
    );
}

#[test]
fn substitution_by_fresh_constants_inserts_them() {
    let done = run(
        &fails_on("bvudiv"),
        chain(),
        &only(|p| p.subst_fresh = true),
    );
    let text = lines(&done.entries);
    // Every non-leaf argument became a fresh constant declared right before its user.
    let n = text.len();
    assert_eq!(text[n - 2], "const s1 \"v7\"", "{text:?}");
    assert_eq!(text[n - 1], "bvudiv t7 t1", "{text:?}");
    assert_eq!(text[n - 3], "bvmul t5 t6", "{text:?}");
    assert!(is_valid(&done.entries));
    // A fresh constant of a sort with no sort id in scope brings its sort call along.
    let mut b = Builder::new();
    let s = b.sort(Call::SortBv(8));
    let x = b.term(Call::Const {
        sort: s,
        name: "x".into(),
    });
    let wide = b.op("concat", &[], &[x, x]);
    b.op("bvneg", &[], &[wide]);
    let done = run(
        &fails_on("bvneg"),
        b.entries.clone(),
        &only(|p| p.subst_fresh = true),
    );
    let text = lines(&done.entries);
    assert!(text.contains(&"sort_bv 16".to_string()), "{text:?}");
    assert!(is_valid(&done.entries));
}

#[test]
fn substitution_gives_a_regular_language_argument_the_nullary_re_all() {
    // RegLan has no constants (no call makes the sort): re.all stands in for `re.* r`.
    let mut b = Builder::new();
    let s = b.sort(Call::SortString);
    let x = b.term(Call::Const {
        sort: s,
        name: "x".into(),
    });
    let r = b.op("str.to_re", &[], &[x]);
    let star = b.op("re.*", &[], &[r]);
    b.op("str.in_re", &[], &[x, star]);
    let done = run(
        &fails_on("str.in_re"),
        b.entries.clone(),
        &only(|p| p.subst_fresh = true),
    );
    let text = lines(&done.entries);
    let n = text.len();
    assert_eq!(text[n - 2], "re.all", "{text:?}");
    assert!(text[n - 1].starts_with("str.in_re t1 "), "{text:?}");
    assert!(is_valid(&done.entries));
}

#[test]
fn numbers_get_smaller() {
    let mut b = Builder::new();
    let s = b.sort(Call::SortBv(32));
    let x = b.term(Call::Const {
        sort: s,
        name: "x".into(),
    });
    let l = b.term(Call::Lit {
        sort: s,
        value: "4000000".into(),
    });
    let e = b.op("extract", &[20, 9], &[x]);
    let r = b.op("rotate_left", &[13], &[l]);
    let z = b.solver();
    b.action(Call::Push(z));
    b.action(Call::Push(z));
    b.action(Call::Push(z));
    b.action(Call::Pop(z, 3));
    b.action(Call::SetParam {
        solver: z,
        key: "timeout".into(),
        value: "5000".into(),
    });
    b.op("bvudiv", &[], &[r, l]);
    let _ = e;
    let done = run(
        &fails_on("bvudiv"),
        b.entries.clone(),
        &only(|p| p.numbers = true),
    );
    let text = lines(&done.entries);
    assert_eq!(text[0], "sort_bv 1", "{text:?}");
    assert_eq!(text[2], "lit s1 \"0\"", "{text:?}");
    assert_eq!(text[3], "extract 0 0 t1", "{text:?}");
    assert_eq!(text[4], "rotate_left 0 t2", "{text:?}");
    assert_eq!(text[9], "pop z1 1", "{text:?}");
    assert_eq!(text[10], "set_param z1 \"timeout\" \"0\"", "{text:?}");
}

#[test]
fn ids_are_renumbered_densely_at_the_end() {
    let input = random_trace(3, 60);
    let done = run(&fails_on("bvshl"), input, &Passes::default());
    let dense = ddtrace::passes::renumber::dense_ids(&done.entries);
    assert_eq!(done.entries, dense);
    assert!(done
        .stats
        .iter()
        .any(|(p, s)| p == "renumber" && s.succeeded == 1));
}

#[test]
fn all_passes_reach_a_one_minimal_fixpoint_for_any_jobs() {
    let input = random_trace(5, 150);
    let tester = fails_on("rotate_left");
    let with_jobs = |jobs| {
        reduce(
            &tester,
            input.clone(),
            Format::Text,
            &Passes::default(),
            ReducerOptions {
                jobs,
                ..ReducerOptions::default()
            },
            None,
            &StopFlag::new(),
        )
        .unwrap()
    };
    let one = with_jobs(1);
    let three = with_jobs(3);
    assert_eq!(one.entries, three.entries, "-j changes the result");
    assert!(tester(&render(&one.entries, Format::Text)));
    assert_one_minimal(&one.entries, &tester);
    // The crash needs a bit-vector sort, one term and the rotation: 1 + 2 + 2 + 1 lines.
    assert!(line_count(&one.entries) <= 7, "{:?}", lines(&one.entries));
}

#[test]
fn an_invalid_input_is_minimized_without_the_reference_state() {
    // The behaviour is the rejection itself: `const` of an undefined sort.
    let text = "z3-trace 1\nsort_int\nreturn s1\nsort_bool\nreturn s2\nconst s9 \"x\"\nreturn t1\n";
    let (input, _) = read(text.as_bytes()).unwrap();
    let rejects = |bytes: &[u8]| {
        let (entries, _) = read(bytes).unwrap();
        entries
            .iter()
            .any(|e| format_call(&e.call) == "const s9 \"x\"")
            && !is_valid(&entries)
    };
    let done = run(&rejects, input, &Passes::default());
    assert_eq!(lines(&done.entries), ["const s9 \"x\""]);
}

#[test]
fn a_stop_request_leaves_the_best_trace_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.trace");
    let input = random_trace(9, 100);
    let stop = StopFlag::new();
    let calls = AtomicU64::new(0);
    let inner = fails_on("bvudiv");
    let tester = |bytes: &[u8]| {
        if calls.fetch_add(1, Ordering::SeqCst) == 15 {
            stop.request(2);
        }
        inner(bytes)
    };
    let result = reduce(
        &tester,
        input.clone(),
        Format::Text,
        &Passes::default(),
        ReducerOptions::default(),
        Some(&out),
        &stop,
    );
    assert!(matches!(result, Err(reduce::EngineError::Interrupted(2))));
    let (best, _) = read(&std::fs::read(&out).unwrap()).unwrap();
    assert!(
        inner(&render(&best, Format::Text)),
        "the file on disk still fails"
    );
    assert!(best.len() < input.len(), "some progress was saved");
}
