//! The regression corpus `traces/regress/` (see its README): every case still behaves as
//! recorded on the linked Z3. The checker itself is tested on cases made here.

mod common;

use common::untrace_bin;
use ddtrace::regress::{cases, check_case, write_case, Expectation};
use std::path::Path;

#[test]
fn every_regression_case_still_behaves_as_recorded() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../traces/regress");
    let all = cases(&dir).expect("the corpus directory exists");
    if all.is_empty() {
        eprintln!("traces/regress: no cases yet (no real Z3 failure has been minimized)");
    }
    let failures: Vec<String> = all
        .iter()
        .filter_map(|case| check_case(&untrace_bin(), case, None).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_checker_tells_kept_changed_and_vanished_failures_apart() {
    let dir = tempfile::tempdir().unwrap();
    // A trace untrace rejects: `pop` on a solver without scopes (exit 3, malformed).
    let bad = b"z3-trace 1\nnew_solver\nreturn z1\npop z1 1\n";
    let kept = Expectation {
        exit: Some(3),
        stderr: Some("pop 1".into()),
        z3: Some("4.8.12".into()),
        ..Expectation::default()
    };
    let case = write_case(dir.path(), "pop-without-push", bad, &kept).unwrap();
    assert_eq!(check_case(&untrace_bin(), &case, None), Ok(()));
    // The same trace recorded as a crash: it "no longer fails".
    let crash = Expectation {
        signal: Some(11),
        ..kept.clone()
    };
    let case = write_case(
        dir.path(),
        "was-a-crash",
        b"z3-trace 1\nnew_solver\nreturn z1\n",
        &crash,
    )
    .unwrap();
    let err = check_case(&untrace_bin(), &case, None).unwrap_err();
    assert!(err.contains("may be fixed"), "{err}");
    // A different failure than recorded.
    let other = Expectation {
        exit: Some(4),
        ..Expectation::default()
    };
    let case = write_case(dir.path(), "other", bad, &other).unwrap();
    let err = check_case(&untrace_bin(), &case, None).unwrap_err();
    assert!(
        err.contains("recorded exit 4") && err.contains("now exit 3"),
        "{err}"
    );
    // Header comments work without a sidecar.
    let path = dir.path().join("header.trace");
    std::fs::write(
        &path,
        b"; exit: 3\n; stderr: pop\nz3-trace 1\nnew_solver\nreturn z1\npop z1 1\n",
    )
    .unwrap();
    assert_eq!(check_case(&untrace_bin(), &path, None), Ok(()));
    assert_eq!(cases(dir.path()).unwrap().len(), 4);
}
