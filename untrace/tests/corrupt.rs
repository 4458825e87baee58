//! Corrupted traces: every one ends with exit code 3 and a one-line `FILE:LINE` message,
//! never a panic. The cases are written here (hand-made snippets whose last line is the bad
//! one) or derived from the good traces of `traces/` (truncated, renamed operations, binary
//! garbage), and replayed by the built binary.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A prelude every snippet may use: sorts s1 Bool, s2 (_ BitVec 8), s3 Int, s4 (_ BitVec 16),
/// terms t1 p (Bool), t2 x (bv8), t3 n (Int), t4 w (bv16), solver z1. Lines 2..=17.
const PRELUDE: &str = "\
sort_bool
return s1
sort_bv 8
return s2
sort_int
return s3
sort_bv 16
return s4
const s1 \"p\"
return t1
const s2 \"x\"
return t2
const s3 \"n\"
return t3
const s4 \"w\"
return t4
new_solver
return z1
";

/// Hand-made cases: the body follows the header and the prelude; `; <-` marks the bad line.
const SNIPPETS: &[(&str, &str)] = &[
    ("unknown_operation", "bvfrobnicate t2 t2 ; <-\n"),
    ("unknown_call", "assert_twice z1 t1 ; <-\n"),
    ("arity_too_few", "bvadd t2 ; <-\n"),
    ("arity_too_many", "not t1 t1 ; <-\n"),
    ("arity_nullary", "true t1 ; <-\n"),
    ("arity_and_empty", "and ; <-\n"),
    ("missing_solver_argument", "check_sat ; <-\n"),
    ("extra_argument", "push z1 z1 ; <-\n"),
    ("ill_sorted_bvadd_widths", "bvadd t2 t4 ; <-\nreturn t5\n"),
    ("ill_sorted_bvadd_int", "bvadd t2 t3 ; <-\nreturn t5\n"),
    ("ill_sorted_not", "not t2 ; <-\nreturn t5\n"),
    ("ill_sorted_assert", "assert z1 t3 ; <-\n"),
    ("ill_sorted_ite", "ite t2 t1 t1 ; <-\nreturn t5\n"),
    ("ill_sorted_select", "select t2 t2 ; <-\nreturn t5\n"),
    ("ill_sorted_eq", "= t1 t2 ; <-\nreturn t5\n"),
    ("ill_sorted_fp_add", "fp.add t1 t2 t2 ; <-\nreturn t5\n"),
    ("ill_sorted_str_len", "str.len t3 ; <-\nreturn t5\n"),
    ("ill_sorted_substitute", "substitute t1 t2 t3 ; <-\nreturn t5\n"),
    ("extract_out_of_range", "extract 8 0 t2 ; <-\nreturn t5\n"),
    ("extract_reversed", "extract 1 3 t2 ; <-\nreturn t5\n"),
    ("repeat_zero", "repeat 0 t2 ; <-\nreturn t5\n"),
    ("undefined_term", "assert z1 t99 ; <-\n"),
    ("undefined_sort", "const s9 \"y\" ; <-\nreturn t5\n"),
    ("undefined_solver", "check_sat z7 ; <-\nreturn sat\n"),
    ("undefined_function", "apply f3 t1 ; <-\nreturn t5\n"),
    ("undefined_model", "model_eval m4 t1 true ; <-\nreturn \"true\"\n"),
    ("released_term", "release t1\nassert z1 t1 ; <-\n"),
    ("deleted_solver", "delete z1\npush z1 ; <-\n"),
    ("redefined_id", "not t1 ; <-\nreturn t1\n"),
    ("wrong_id_kind", "not t1\nreturn s7 ; <-\n"),
    ("bad_numeral_width", "sort_bv x8 ; <-\nreturn s5\n"),
    ("bad_numeral_huge", "sort_bv 99999999999 ; <-\nreturn s5\n"),
    ("bad_numeral_index", "extract 7x 0 t2 ; <-\nreturn t5\n"),
    ("bad_numeral_zero_width", "sort_bv 0 ; <-\nreturn s5\n"),
    ("bad_literal_int", "lit s3 \"12a\" ; <-\nreturn t5\n"),
    ("bad_literal_bv_too_big", "lit s2 \"256\" ; <-\nreturn t5\n"),
    ("bad_literal_bool", "lit s1 \"yes\" ; <-\nreturn t5\n"),
    ("bad_fp_format", "sort_fp 1 1 ; <-\nreturn s5\n"),
    ("bad_string_escape", "const s1 \"a\\q\" ; <-\nreturn t5\n"),
    ("unterminated_string", "const s1 \"abc\nreturn t5\n"),
    ("string_where_id_belongs", "assert z1 \"t1\" ; <-\n"),
    ("return_without_call", "return t5 ; <-\n"),
    ("double_return", "not t1\nreturn t5\nreturn t6 ; <-\n"),
    ("return_on_assert", "assert z1 t1\nreturn sat ; <-\n"),
    ("return_wrong_sat_word", "check_sat z1\nreturn maybe ; <-\n"),
    ("object_call_without_return", "not t1 ; <-\nnot t1\nreturn t6\n"),
    ("pop_beyond_depth", "push z1\npop z1 2 ; <-\n"),
    ("pop_zero", "pop z1 0 ; <-\n"),
    ("get_model_without_sat", "get_model z1 ; <-\nreturn m1\n"),
    ("get_model_after_unsat", "not t1\nreturn t5\nassert z1 t1\nassert z1 t5\ncheck_sat z1\nreturn unsat\nget_model z1 ; <-\nreturn m1\n"),
    ("core_without_unsat", "check_sat z1\nreturn sat\nget_unsat_core z1 ; <-\nreturn\n"),
    ("tracker_not_constant", "not t1\nreturn t5\nassert_and_track z1 t1 t5 ; <-\n"),
    ("assumption_not_literal", "and t1 t1\nreturn t5\ncheck_sat_assuming z1 t5 ; <-\nreturn sat\n"),
    ("unknown_logic", "new_solver logic \"QF_NOPE\" ; <-\nreturn z2\n"),
    ("unknown_tactic", "new_solver tactic \"nope\" ; <-\nreturn z2\n"),
    ("new_solver_bad_kind", "new_solver flavour \"x\" ; <-\nreturn z2\n"),
    ("model_eval_bad_flag", "model_eval m1 t1 maybe ; <-\n"),
    ("odd_substitute", "substitute t1 t1 ; <-\nreturn t5\n"),
    ("release_unknown_kind", "release q5 ; <-\n"),
];

fn untrace(path: &Path) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_untrace"))
        .arg(path)
        .env_remove("UNTRACE_FAIL_ON")
        .output()
        .expect("untrace runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Replays `path`, expecting exit 3 and one line naming the file and `line` (any line when
/// `None`).
fn expect_malformed(path: &Path, line: Option<usize>) {
    let (code, err) = untrace(path);
    let name = path.display().to_string();
    assert_eq!(code, Some(3), "{name}: {err}");
    assert!(!err.contains("panicked"), "{name}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{name}: {err}");
    let located = match line {
        Some(n) => err.contains(&format!("{name}:{n}:")),
        None => err
            .split_once(&format!("{name}:"))
            .is_some_and(|(_, rest)| rest.starts_with(|c: char| c.is_ascii_digit())),
    };
    assert!(located, "{name}: expected line {line:?}: {err}");
}

fn good_traces() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../traces");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("traces/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "trace"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let stem = p
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or("t")
                .to_string();
            (stem, std::fs::read_to_string(&p).expect("readable"))
        })
        .collect()
}

#[test]
fn hand_made_corruptions_exit_3_at_their_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, body) in SNIPPETS {
        let text = format!("z3-trace 1\n{PRELUDE}{body}");
        let path = dir.path().join(format!("{name}.trace"));
        std::fs::write(&path, &text).expect("written");
        // The bad line carries the comment `; <-` (an unterminated string swallows it: its
        // error is at the line where the string starts, the one before the last).
        let line = match text.lines().position(|l| l.ends_with("; <-")) {
            Some(index) => index + 1,
            None => text.lines().count() - 1,
        };
        expect_malformed(&path, Some(line));
    }
    assert!(SNIPPETS.len() >= 50);
}

#[test]
fn header_and_encoding_corruptions_exit_3() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cases: &[(&str, &[u8], usize)] = &[
        ("no_header", b"sort_bool\nreturn s1\n", 1),
        ("wrong_version", b"z3-trace 2\nsort_bool\nreturn s1\n", 1),
        ("misspelt_header", b"z3trace 1\n", 1),
        ("empty", b"", 1),
        ("only_comments", b"; nothing here\n", 1),
        (
            "invalid_utf8",
            b"z3-trace 1\nsort_bool\nreturn s1\nconst s1 \"\xff\xfe\"\n",
            4,
        ),
    ];
    for (name, bytes, line) in cases {
        let path = dir.path().join(format!("{name}.trace"));
        std::fs::write(&path, bytes).expect("written");
        expect_malformed(&path, Some(*line));
    }
}

#[test]
fn truncated_and_renamed_good_traces_exit_3() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut count = 0;
    for (stem, text) in good_traces() {
        let lines: Vec<&str> = text.lines().collect();
        // Drop the `return` line of the first object-creating call. (A trace that ends
        // right after such a call is valid: it is what a crash inside the call leaves.)
        let cut = lines
            .iter()
            .position(|l| {
                let id = l.strip_prefix("return ").unwrap_or("");
                id.len() > 1
                    && id.starts_with(['t', 's'])
                    && id[1..].bytes().all(|b| b.is_ascii_digit())
            })
            .expect("a return line");
        let truncated = [&lines[..cut], &lines[cut + 1..]].concat().join("\n");
        let path = dir.path().join(format!("{stem}_truncated.trace"));
        std::fs::write(&path, &truncated).expect("written");
        expect_malformed(&path, Some(cut));
        // Cut inside the id of that return line.
        let partial = format!("{}\nreturn ", lines[..cut].join("\n"));
        let path = dir.path().join(format!("{stem}_cut_return.trace"));
        std::fs::write(&path, &partial).expect("written");
        expect_malformed(&path, Some(cut + 1));
        // Rename the first call into an unknown operation.
        let first = lines
            .iter()
            .position(|l| !l.is_empty() && !l.starts_with(';') && !l.starts_with("z3-trace"))
            .expect("a call");
        let mut renamed: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        renamed[first] = format!("frobnicate_{}", renamed[first]);
        let path = dir.path().join(format!("{stem}_renamed.trace"));
        std::fs::write(&path, renamed.join("\n")).expect("written");
        expect_malformed(&path, Some(first + 1));
        count += 3;
    }
    assert!(count >= 30, "{count}");
}

#[test]
fn binary_garbage_exits_3() {
    let dir = tempfile::tempdir().expect("temp dir");
    let good = good_traces();
    let (_, text) = &good[0];
    let entries = model::trace::text::parse(text).expect("valid").entries;
    let binary = model::trace::binary::write(&entries);
    let mut cases: Vec<(String, Vec<u8>)> = vec![
        ("magic_only".into(), model::trace::binary::MAGIC.to_vec()),
        ("bad_version".into(), {
            let mut b = binary.clone();
            b[8] = 9;
            b
        }),
        (
            "truncated_binary".into(),
            binary[..binary.len() - 3].to_vec(),
        ),
        ("garbage_after_magic".into(), {
            let mut b = binary[..12].to_vec();
            b.extend((0..200u32).map(|i| (i * 97 % 251) as u8));
            b
        }),
        ("huge_length_prefix".into(), {
            let mut b = binary[..12].to_vec();
            b.extend([0x10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]);
            b
        }),
        (
            "pure_garbage".into(),
            (0..64u32).map(|i| (i * 131 % 256) as u8 | 0x80).collect(),
        ),
    ];
    // A binary trace whose entries decode but do not make sense: a check before any solver.
    let bogus = vec![model::Entry {
        call: model::Call::CheckSat(model::SolverId(1)),
        ret: Some(model::Ret::Sat(model::SatResult::Sat)),
    }];
    cases.push((
        "undefined_solver_binary".into(),
        model::trace::binary::write(&bogus),
    ));
    let wrong_ret = vec![model::Entry {
        call: model::Call::SortBool,
        ret: Some(model::Ret::Sat(model::SatResult::Sat)),
    }];
    cases.push((
        "wrong_return_binary".into(),
        model::trace::binary::write(&wrong_ret),
    ));
    // A sort created without the `return` that names it, then another call: the text reader
    // rejects it, and so does the binary one (one validation for both).
    let missing_return = vec![
        model::Entry {
            call: model::Call::SortBool,
            ret: None,
        },
        model::Entry {
            call: model::Call::SortInt,
            ret: Some(model::Ret::Id(model::AnyId::Sort(model::SortId(1)))),
        },
    ];
    cases.push((
        "missing_return_binary".into(),
        model::trace::binary::write(&missing_return),
    ));
    for (name, bytes) in cases {
        let path = dir.path().join(format!("{name}.bin"));
        std::fs::write(&path, bytes).expect("written");
        expect_malformed(&path, None);
    }
}

/// Hostile traces from issue 16: a sort that doubles on every line (2^40 nodes in 40 lines)
/// ends with exit 3 at the line that crosses the sort-size limit, where it once took 4 GB;
/// a call with 200,000 arguments replays (its tokenizing was quadratic).
#[test]
fn hostile_traces_end_cleanly() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut doubling = String::from("z3-trace 1\nsort_int\nreturn s1\n");
    for k in 1..=40 {
        doubling += &format!("sort_array s{k} s{k}\nreturn s{}\n", k + 1);
    }
    let path = dir.path().join("doubling.trace");
    std::fs::write(&path, doubling).unwrap();
    let (code, err) = untrace(&path);
    assert_eq!(code, Some(3), "{err}");
    assert!(err.contains("more than 1000 nodes"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");

    let args = vec!["t1"; 200_000].join(" ");
    let long = format!(
        "z3-trace 1\nsort_int\nreturn s1\nconst s1 \"x\"\nreturn t1\n+ {args}\nreturn t2\n"
    );
    let path = dir.path().join("long.trace");
    std::fs::write(&path, long).unwrap();
    let (code, err) = untrace(&path);
    assert_eq!(code, Some(0), "{err}");
}
