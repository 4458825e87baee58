//! Z3 errors as recorded results (`return error "MESSAGE"`): the executor records a call Z3
//! refuses, a replay expects the same refusal, and a different or missing refusal is a
//! mismatch (exit 1) while an unrecorded one stays a Z3 error (exit 4).

use model::call::{AnyId, Call, Ret, SatResult, SolverId, SolverKind, SortId, TermId};
mod common;

use common::{stderr, untrace, write_trace};
use std::path::Path;
use untrace::replay::{replay_file, Exit, ReplayOptions};
use untrace::{ExecConfig, ExecError, Executor};

const UNKNOWN_PARAM: &str = "Exception: unknown parameter 'no_such_parameter'";

/// Records a session in which Z3 refuses a check (an unknown solver parameter shows at the
/// call that builds the solver, here the first check) and returns the trace text.
fn record_refusals(dir: &Path) -> String {
    let path = dir.join("recorded.trace");
    {
        let mut executor = Executor::new(ExecConfig::default());
        executor.record_to(Box::new(std::fs::File::create(&path).expect("created")));
        let z1 = SolverId(1);
        let t1 = TermId(1);
        assert_eq!(
            executor.run(Call::SortBool),
            Ok(Some(Ret::Id(AnyId::Sort(SortId(1)))))
        );
        executor
            .run(Call::Const {
                sort: SortId(1),
                name: "p".into(),
            })
            .expect("const");
        executor
            .run(Call::NewSolver(SolverKind::Default))
            .expect("new_solver");
        executor
            .run(Call::SetParam {
                solver: z1,
                key: "no_such_parameter".into(),
                value: "true".into(),
            })
            .expect("Z3 takes the parameter and complains at the next check");
        // The caller still gets the error.
        let refused = executor.run(Call::CheckSat(z1));
        assert!(
            matches!(&refused, Err(ExecError::Z3(m)) if m.starts_with(UNKNOWN_PARAM)),
            "{refused:?}"
        );
        // The refused check changed nothing: a model still needs a sat check first.
        assert!(executor.state().check(&Call::GetModel(z1)).is_err());
        // Z3 4.8.12 refuses only the check that builds the solver; the next one answers.
        assert_eq!(
            executor.run(Call::CheckSat(z1)),
            Ok(Some(Ret::Sat(SatResult::Sat)))
        );
        assert!(executor.state().check(&Call::GetModel(z1)).is_ok());
        // A fresh solver is not affected.
        let z2 = executor
            .run(Call::NewSolver(SolverKind::Default))
            .expect("new_solver");
        assert_eq!(z2, Some(Ret::Id(AnyId::Solver(SolverId(2)))));
        executor.run(Call::Assert(SolverId(2), t1)).expect("assert");
        assert_eq!(
            executor.run(Call::CheckSat(SolverId(2))),
            Ok(Some(Ret::Sat(SatResult::Sat)))
        );
    }
    std::fs::read_to_string(&path).expect("readable")
}

#[test]
fn a_refused_call_is_recorded_and_its_replay_expects_the_same_refusal() {
    let dir = tempfile::tempdir().expect("temp dir");
    let text = record_refusals(dir.path());
    let refusal = format!("check_sat z1\nreturn error \"{UNKNOWN_PARAM}");
    assert_eq!(text.matches(&refusal).count(), 1, "{text}");
    assert_eq!(text.matches("return error").count(), 1, "{text}");
    let path = dir.path().join("recorded.trace");
    let outcome = replay_file(&path, &ReplayOptions::default());
    assert_eq!(outcome.exit, Exit::Ok, "{}", outcome.message);
    assert_eq!(outcome.executed, 9);
    // The binary form holds the error too and replays the same.
    let bin = dir.path().join("recorded.btrace");
    let out = untrace(&[path.as_os_str(), "--convert".as_ref(), bin.as_os_str()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = untrace(&[bin.as_os_str()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // The SMT-LIB form leaves the refused calls out, saying why (line 10: after the header
    // and the `; z3 VERSION` line).
    let smt2 = dir.path().join("recorded.smt2");
    let out = untrace(&[path.as_os_str(), "--smt2".as_ref(), smt2.as_os_str()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let script = std::fs::read_to_string(&smt2).expect("written");
    assert!(
        script.contains("; no SMT-LIB form: line 10: check_sat z1 (Z3 refused it: Exception"),
        "{script}"
    );
}

#[test]
fn another_error_than_recorded_is_a_mismatch() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = write_trace(
        dir.path(),
        "other.trace",
        "new_solver\nreturn z1\nset_param z1 \"no_such_parameter\" \"1\"\ncheck_sat z1\n\
         return error \"Exception: unknown parameter 'another'\"\n",
    );
    let out = untrace(&[path.as_os_str()]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("other.trace:5: replay mismatch: the trace records `return error \"Exception: unknown parameter 'another'\"`, Z3 answered `return error \"Exception: unknown parameter 'no_such_parameter'"),
        "{err}"
    );
    // Whitespace differences are not a different message.
    let path = write_trace(
        dir.path(),
        "spaces.trace",
        &format!(
            "new_solver\nreturn z1\nset_param z1 \"no_such_parameter\" \"1\"\ncheck_sat z1\n\
             return error \"{}\"\n",
            UNKNOWN_PARAM.replace(' ', "  ")
        ),
    );
    let out = untrace(&[path.as_os_str()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // Without result checks any refusal will do.
    let out = untrace(&[
        dir.path().join("other.trace").as_os_str(),
        "--no-check".as_ref(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// A tactic words its refusal after the goal it refuses: a trace that records another
/// refusal of the same kind (a minimized trace keeps the words of its round) still replays,
/// while a call that refuses only for a reason keeps its words compared.
#[test]
fn a_tactic_refusal_in_other_words_is_the_same_refusal() {
    let dir = tempfile::tempdir().expect("temp dir");
    let original = std::fs::read_to_string(common::repo().join("traces/tactics.trace"))
        .expect("the example trace");
    let recorded = "return error \"Exception: fail tactic\"";
    assert_eq!(original.matches(recorded).count(), 1, "{original}");
    let replay = |name: &str, refusal: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, original.replace(recorded, refusal)).expect("written");
        let out = untrace(&[path.as_os_str()]);
        (out.status.code(), stderr(&out))
    };
    let (code, err) = replay(
        "reworded.trace",
        "return error \"Exception: goal is not in QF_LIA\"",
    );
    assert_eq!(code, Some(0), "{err}");
    // A refusal that is no exception of the tactic is another result.
    let (code, err) = replay(
        "other-kind.trace",
        "return error \"Z3_INVALID_ARG: invalid argument\"",
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("replay mismatch"), "{err}");
}

#[test]
fn a_recorded_error_that_does_not_happen_is_a_mismatch() {
    let dir = tempfile::tempdir().expect("temp dir");
    // A check that Z3 answers, recorded as refused.
    let path = write_trace(
        dir.path(),
        "answered.trace",
        "new_solver\nreturn z1\ncheck_sat z1\nreturn error \"Exception: gone\"\n",
    );
    let out = untrace(&[path.as_os_str()]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("answered.trace:4: replay mismatch: the trace records `return error \"Exception: gone\"`, Z3 answered `return sat`"),
        "{err}"
    );
    // A call without a result, recorded as refused.
    let path = write_trace(
        dir.path(),
        "push.trace",
        "new_solver\nreturn z1\npush z1\nreturn error \"Exception: gone\"\n",
    );
    let out = untrace(&[path.as_os_str()]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("Z3 answered `no error`"), "{err}");
    // Without checks the replay follows the trace: the refused `new_solver` bound nothing,
    // so z1 is free for the next one, and the refused push left the depth at 0.
    let path = write_trace(
        dir.path(),
        "nocheck.trace",
        "new_solver\nreturn error \"Exception: gone\"\nnew_solver\nreturn z1\npush z1\n\
         return error \"Exception: gone\"\ncheck_sat z1\nreturn sat\n",
    );
    let out = untrace(&[path.as_os_str(), "--no-check".as_ref()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let popped = write_trace(
        dir.path(),
        "pop.trace",
        "new_solver\nreturn z1\npush z1\nreturn error \"Exception: gone\"\npop z1 1\n",
    );
    let out = untrace(&[popped.as_os_str(), "--no-check".as_ref()]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
}

#[test]
fn an_unrecorded_error_is_still_a_z3_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = write_trace(
        dir.path(),
        "plain.trace",
        "new_solver\nreturn z1\nset_param z1 \"no_such_parameter\" \"1\"\ncheck_sat z1\n",
    );
    let out = untrace(&[path.as_os_str()]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(4), "{err}");
    assert!(
        err.contains(&format!("plain.trace:5: z3 error: {UNKNOWN_PARAM}")),
        "{err}"
    );
}

#[test]
fn an_error_inside_assert_is_not_lost() {
    // Z3 builds the solver at the first assert and rejects the ill-typed parameter there;
    // the error code is reset when the asserted temporary is released, so only the error
    // handler sees it. Lost, the assert silently did nothing and the model of b1 was false.
    let dir = tempfile::tempdir().expect("temp dir");
    let path = write_trace(
        dir.path(),
        "card.trace",
        "new_solver\nreturn z1\nset_param z1 \"cardinality.solver\" \"0\"\nsort_bool\n\
         return s1\nconst s1 \"b1\"\nreturn t1\nassert z1 t1\ncheck_sat z1\nreturn sat\n",
    );
    let out = untrace(&[path.as_os_str()]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(4), "{err}");
    assert!(
        err.contains("card.trace:9: z3 error: Exception: Parameter cardinality.solver was given argument of type unsigned int, expected bool"),
        "{err}"
    );
}
