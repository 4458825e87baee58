//! The user propagator (`check_propagator`) end to end on the other Z3 (the only one with the
//! propagator's term callbacks; 4.8.12 refuses the trace, see `reads.rs`): the example trace
//! replays, and a wrong propagator (injected: the first assignment enumerated forgotten, the
//! first Boolean value `fixed` reports negated) is a `propagator` finding in either mode that
//! replays, that ddtrace minimizes and that replays clean without the fault; so is a client
//! proof checker (`check_proof_callback`) called twice after unsat (the same fault). The C
//! reproducer of the example, compiled against the other Z3's z3.h, and its Python
//! reproducer, run by the other Z3's Python binding, register the same callbacks and exit 0.

use e2e::{other_z3, replay, run, stderr};
use std::path::{Path, PathBuf};

fn example() -> PathBuf {
    e2e::repo_root().join("traces/newer/propagator.trace")
}

/// The example trace up to its first check, then one `check_propagator` line.
fn with_check(dir: &Path, name: &str, check: &str) -> PathBuf {
    let text = std::fs::read_to_string(example()).expect("example trace");
    let head: Vec<&str> = text
        .lines()
        .take_while(|l| !l.starts_with("check_propagator"))
        .collect();
    let path = dir.join(name);
    std::fs::write(&path, format!("{}\n{check}\n", head.join("\n"))).expect("trace written");
    path
}

const INJECT: [(&str, &str); 1] = [("UNTRACE_INJECT", "wrong-propagator")];

#[test]
fn the_example_trace_replays_on_the_other_z3() {
    let Some(lib) = other_z3("the_example_trace_replays_on_the_other_z3") else {
        return;
    };
    let out = replay(&example(), Some(&lib), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn a_wrong_propagator_is_a_finding_in_both_modes_that_replays_and_minimizes() {
    let Some(lib) =
        other_z3("a_wrong_propagator_is_a_finding_in_both_modes_that_replays_and_minimizes")
    else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    for (mode, cause) in [
        (
            "enumerate\" t1 t2 t3 t9",
            "a projection the propagated search misses",
        ),
        (
            "observe\" t1 t2 t6 t7 t22 t9",
            "a propagator's value the model does not have",
        ),
    ] {
        let name = mode.split('"').next().unwrap().to_string();
        let trace = with_check(
            dir.path(),
            &format!("{name}.trace"),
            &format!("check_propagator z1 \"{mode}"),
        );
        let clean = replay(&trace, Some(&lib), &[]);
        assert_eq!(clean.status.code(), Some(0), "{}", stderr(&clean));
        let out = replay(&trace, Some(&lib), &INJECT);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(5), "{err}");
        let signature = format!("signature: propagator|check_propagator: {cause}");
        assert!(err.contains(&signature), "{err}");

        let min = dir.path().join(format!("{name}.min.trace"));
        let out = run(
            "ddtrace",
            &[
                "--z3-lib".as_ref(),
                lib.as_os_str(),
                "-j".as_ref(),
                "2".as_ref(),
                trace.as_os_str(),
                min.as_os_str(),
            ],
            &INJECT,
        );
        assert!(out.status.success(), "ddtrace: {}", stderr(&out));
        let text = std::fs::read_to_string(&min).unwrap();
        let calls = text
            .lines()
            .filter(|l| {
                !l.starts_with(';') && !l.starts_with("return") && !l.starts_with("z3-trace")
            })
            .count();
        assert!(calls < 20, "{text}");
        let again = replay(&min, Some(&lib), &INJECT);
        assert_eq!(again.status.code(), Some(5), "{}", stderr(&again));
        assert!(stderr(&again).contains(&signature), "{}", stderr(&again));
        let clean = replay(&min, Some(&lib), &[]);
        assert_eq!(clean.status.code(), Some(0), "{}", stderr(&clean));
    }
}

#[test]
fn a_proof_checker_called_twice_is_a_finding_that_replays_and_minimizes() {
    let Some(lib) =
        other_z3("a_proof_checker_called_twice_is_a_finding_that_replays_and_minimizes")
    else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let text = std::fs::read_to_string(example()).expect("example trace");
    let kept: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with("check_propagator"))
        .collect();
    let trace = dir.path().join("proof.trace");
    std::fs::write(&trace, kept.join("\n") + "\n").expect("trace written");
    let clean = replay(&trace, Some(&lib), &[]);
    assert_eq!(clean.status.code(), Some(0), "{}", stderr(&clean));
    let out = replay(&trace, Some(&lib), &INJECT);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(5), "{err}");
    let signature =
        "signature: dump|check_proof_callback: a proof checker called against its documentation";
    assert!(err.contains(signature), "{err}");
    let min = dir.path().join("proof.min.trace");
    let out = run(
        "ddtrace",
        &[
            "--z3-lib".as_ref(),
            lib.as_os_str(),
            "-j".as_ref(),
            "2".as_ref(),
            trace.as_os_str(),
            min.as_os_str(),
        ],
        &INJECT,
    );
    assert!(out.status.success(), "ddtrace: {}", stderr(&out));
    let again = replay(&min, Some(&lib), &INJECT);
    assert!(stderr(&again).contains(signature), "{}", stderr(&again));
    let clean = replay(&min, Some(&lib), &[]);
    assert_eq!(clean.status.code(), Some(0), "{}", stderr(&clean));
}

#[test]
fn the_reproducers_register_the_callbacks_and_pass_on_the_other_z3() {
    let Some(lib) = other_z3("the_reproducers_register_the_callbacks_and_pass_on_the_other_z3")
    else {
        return;
    };
    let Some(z3_dir) = lib.parent().and_then(Path::parent) else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let source = dir.path().join("repro.c");
    let out = e2e::emit("c", &source, &example());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&source).unwrap();
    for callback in [
        "Z3_solver_propagate_init(ctx, s, &w, mbt_push, mbt_pop, mbt_fresh)",
        "Z3_solver_propagate_final(ctx, s, mbt_final)",
        "Z3_solver_propagate_decide(ctx, s, mbt_decide)",
        "Z3_solver_propagate_created(ctx, s, mbt_created)",
        "Z3_solver_register_on_clause(ctx, s, &w, mbt_clause)",
        "mbt_propagate(ctx, assertions, 5, watched, 4, true,",
    ] {
        assert!(text.contains(callback), "{callback}");
    }
    let binary = dir.path().join("repro");
    let lib_dir = lib.parent().unwrap();
    let cc = std::process::Command::new("cc")
        .arg("-w")
        .arg(&source)
        .arg("-I")
        .arg(z3_dir.join("include"))
        .arg("-L")
        .arg(lib_dir)
        .arg(format!("-Wl,-rpath,{}", lib_dir.display()))
        .arg("-lz3")
        .arg("-o")
        .arg(&binary)
        .output()
        .expect("run the C compiler");
    assert!(
        cc.status.success(),
        "{}",
        String::from_utf8_lossy(&cc.stderr)
    );
    let ran = std::process::Command::new(&binary)
        .output()
        .expect("run the reproducer");
    let text = String::from_utf8_lossy(&ran.stdout);
    assert_eq!(
        ran.status.code(),
        Some(0),
        "{text}{}",
        String::from_utf8_lossy(&ran.stderr)
    );
    assert!(text.contains("finished without failure"), "{text}");
    // Z3 says nothing of its own: no assertion violation of a reference count.
    assert!(
        ran.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&ran.stderr)
    );

    let python = e2e::repo_root().join(".ci/venv/bin/python");
    if !python.is_file() {
        eprintln!("no .ci/venv Python: the Python reproducer is not run");
        return;
    }
    let script = dir.path().join("repro.py");
    let out = e2e::emit("python", &script, &example());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&script).unwrap();
    for callback in [
        "Z3_solver_propagate_init(ctx, s, None, push, pop, fresh)",
        "Z3_solver_propagate_decide(ctx, s, decide)",
        "Z3_solver_register_on_clause(ctx, s, None, clause)",
        "mbt_propagate(ctx, [t10, t14, t16, t18, t21], [t1, t2, t3, t9], True,",
    ] {
        assert!(text.contains(callback), "{callback}");
    }
    let ran = std::process::Command::new(&python)
        .arg(&script)
        .output()
        .expect("run the Python reproducer");
    let text = String::from_utf8_lossy(&ran.stdout);
    assert_eq!(
        ran.status.code(),
        Some(0),
        "{text}{}",
        String::from_utf8_lossy(&ran.stderr)
    );
    assert!(text.contains("finished without failure"), "{text}");
    assert!(
        ran.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&ran.stderr)
    );
}
