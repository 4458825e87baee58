//! The `checkmodel` binary: exit codes 0 valid, 1 invalid, 2 error, 3 incomplete, in both
//! modes; errors are one line naming file:line:column; --help documents the codes.

use std::path::Path;
use std::process::{Command, Output};

fn checkmodel(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_checkmodel"))
        .args(args)
        .output()
        .expect("checkmodel runs")
}

fn run(dir: &Path, problem: &str, response: &str, interleaved: bool) -> (i32, String, String) {
    let (p, r) = (dir.join("p.smt2"), dir.join("r.txt"));
    std::fs::write(&p, problem).expect("write problem");
    std::fs::write(&r, response).expect("write response");
    let mut args = vec![p.as_os_str(), r.as_os_str()];
    if interleaved {
        args.push("--interleaved".as_ref());
    }
    let out = checkmodel(&args);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn exit_codes_in_both_modes() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let problem = "(declare-fun x () Int)\n(declare-fun y () Int)\n(assert (> x 0))\n(check-sat)\n";
    for interleaved in [false, true] {
        let (code, out, _) = run(
            dir.path(),
            problem,
            "sat\n((define-fun x () Int 1))\n",
            interleaved,
        );
        assert_eq!(code, 0, "{out}");
        assert!(out.ends_with("verdict: valid\n"), "{out}");
        let (code, out, _) = run(
            dir.path(),
            problem,
            "sat\n((define-fun x () Int 0))\n",
            interleaved,
        );
        assert_eq!(code, 1, "{out}");
        assert!(out.contains("p.smt2:3:9 is false: (> x 0)"), "{out}");
        assert!(out.contains("where x = 0"), "{out}");
        let (code, _, _) = run(
            dir.path(),
            problem,
            "sat\n((define-fun y () Int 1))\n",
            interleaved,
        );
        assert_eq!(code, 3);
        let (code, _, err) = run(dir.path(), "(assert (> x 0)\n", "sat\n", interleaved);
        assert_eq!(code, 2);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("p.smt2:1:1: unbalanced parentheses"), "{err}");
    }
}

#[test]
fn usage_errors_and_help() {
    let out = checkmodel(&["only-one-file".as_ref()]);
    assert_eq!(out.status.code(), Some(2));
    let out = checkmodel(&["a".as_ref(), "b".as_ref(), "--bogus".as_ref()]);
    assert_eq!(out.status.code(), Some(2));
    let out = checkmodel(&["missing.smt2".as_ref(), "missing.txt".as_ref()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing"));
    let out = checkmodel(&["--help".as_ref()]);
    assert_eq!(out.status.code(), Some(0));
    let help = String::from_utf8_lossy(&out.stdout);
    for code in ["0   valid", "1   invalid", "2   error", "3   incomplete"] {
        assert!(help.contains(code), "help lacks {code}");
    }
}

#[test]
fn deep_terms_do_not_overflow_the_stack() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let depth = 20_000;
    let term = format!("{}x{}", "(+ 1 ".repeat(depth), ")".repeat(depth));
    let problem = format!("(declare-fun x () Int)\n(assert (= {term} {depth}))\n(check-sat)\n");
    let (code, out, err) = run(
        dir.path(),
        &problem,
        "sat\n((define-fun x () Int 0))\n",
        false,
    );
    assert_eq!(code, 0, "{out}{err}");
}

/// Issue 24: `(assert (_))` made the evaluator index past the children of `(_)` (a panic, exit
/// 101); it is a located one-line error with exit code 2 in both modes, as are the other
/// indexed identifiers with too few parts.
#[test]
fn an_empty_indexed_identifier_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().expect("temporary directory");
    for term in ["(_)", "(_ bv5)", "(_ +oo)", "((_) 1)", "(_ as-array)"] {
        let problem = format!("(assert {term})\n(check-sat)\n");
        for interleaved in [false, true] {
            let (code, out, err) = run(dir.path(), &problem, "sat\n(model)\n", interleaved);
            assert_eq!(code, 2, "{term}: {out}{err}");
            assert!(!err.contains("panicked"), "{term}: {err}");
            assert_eq!(err.lines().count(), 1, "{term}: {err}");
            assert!(err.contains("p.smt2:1:"), "{term}: {err}");
        }
    }
}
