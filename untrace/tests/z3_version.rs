//! The Z3 version in traces: the recorder writes `; z3 VERSION` after the header, the reader
//! gives it back, `--convert` keeps it in text, and a replay on another version warns first on
//! stderr while the signature line of a finding stays last.

mod common;

use common::{stderr, untrace, write_trace};
use model::call::Call;
use untrace::{ExecConfig, Executor};

#[test]
fn a_recorded_trace_names_the_loaded_z3_after_its_header() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("recorded.trace");
    {
        let mut executor = Executor::new(ExecConfig::default());
        executor.record_to(Box::new(std::fs::File::create(&path).unwrap()));
        executor.run(Call::SortBool).expect("sort_bool");
    }
    let version = untrace::z3_version();
    assert!(version.starts_with("4."), "{version}");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.starts_with(&format!("z3-trace 1\n; z3 {version}\nsort_bool\n")),
        "{text}"
    );
    let trace = model::trace::parse(text.as_bytes()).unwrap();
    assert_eq!(trace.z3_version.as_deref(), Some(version.as_str()));
    // Replayed on the same Z3: no warning at all.
    let out = untrace(&[path.as_os_str()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
    // Text to text keeps the line, and so does binary (format 2 holds it).
    let again = dir.path().join("again.trace");
    let binary = dir.path().join("recorded.btrace");
    for (out_path, to) in [(&again, "text"), (&binary, "binary")] {
        let out = untrace(&[
            path.as_os_str(),
            "--convert".as_ref(),
            out_path.as_os_str(),
            "--to".as_ref(),
            to.as_ref(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    }
    assert_eq!(std::fs::read_to_string(&again).unwrap(), text);
    let from_binary = model::trace::parse(&std::fs::read(&binary).unwrap()).unwrap();
    assert_eq!(from_binary.z3_version, text_version(&text));
}

#[test]
fn a_trace_of_another_z3_replays_after_a_warning_and_keeps_its_signature_last() {
    let dir = tempfile::tempdir().unwrap();
    let this = untrace::z3_version();
    // Passes: the warning is the only stderr line, the exit code is unchanged.
    let passing = write_trace(
        dir.path(),
        "passing.trace",
        "; z3 0.0.0\nsort_bool\nreturn s1\n",
    );
    let out = untrace(&[passing.as_os_str()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "untrace: warning: {} was recorded on Z3 0.0.0, this is Z3 {this}\n",
            passing.display()
        )
    );
    // A finding (a Z3 error the trace does not record): warning first, signature last.
    let failing = write_trace(
        dir.path(),
        "failing.trace",
        "; z3 0.0.0\nnew_solver\nreturn z1\nset_param z1 \"no_such_parameter\" \"true\"\n\
         check_sat z1\n",
    );
    let out = untrace(&[failing.as_os_str()]);
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    let err = stderr(&out);
    let lines: Vec<&str> = err.lines().collect();
    assert!(lines[0].starts_with("untrace: warning: "), "{err}");
    assert!(
        lines[lines.len() - 1].starts_with("untrace: signature: "),
        "{err}"
    );
    // -v names the loaded Z3 first.
    let out = untrace(&["-v".as_ref(), passing.as_os_str()]);
    let err = stderr(&out);
    assert!(err.starts_with(&format!("untrace: Z3 {this} (")), "{err}");
}

/// The version a text trace's `; z3 VERSION` line names.
fn text_version(text: &str) -> Option<String> {
    model::trace::text::parse(text).unwrap().z3_version
}
