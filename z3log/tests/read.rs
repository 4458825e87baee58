//! The reader and the tables, without Z3: the recorded logs of `traces/logs/` (Python on Z3
//! 4.8.12 and 5.4.1, C on 4.8.12) parse, map to the functions the programs called and write
//! back to the same log; malformed and hostile logs get one-line errors naming the line.

use std::path::{Path, PathBuf};
use z3log::log::{write, OutBinding};
use z3log::parse::{looks_like_log, parse};
use z3log::table::{known_versions, Dir, Table, TableError};
use z3log::{EntryKind, Symbol, Value};

fn logs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../traces/logs")
}

fn recorded_logs() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(logs_dir())
        .expect("traces/logs exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "log"))
        .collect();
    files.sort();
    assert!(files.len() >= 8, "the recorded logs are in traces/logs");
    files
}

/// The names of the functions a log calls, in order, by its release's table.
fn function_names(bytes: &[u8]) -> Vec<String> {
    let log = parse(bytes).expect("a valid log");
    let table = Table::for_version(log.version.as_deref().expect("a V line")).expect("a table");
    log.calls()
        .map(|(_, c)| {
            table
                .function(c.number)
                .expect("a known number")
                .name
                .to_string()
        })
        .collect()
}

#[test]
fn recorded_logs_parse_and_map_to_their_programs_calls() {
    for path in recorded_logs() {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert!(looks_like_log(&bytes), "{name} is recognized as a log");
        let log = parse(&bytes).unwrap_or_else(|e| panic!("{name}:{e}"));
        let n_c_lines = bytes
            .split(|b| *b == b'\n')
            .filter(|l| l.starts_with(b"C "))
            .count();
        assert_eq!(
            log.calls().count(),
            n_c_lines,
            "{name}: one call per C line"
        );
        let names = function_names(&bytes);
        // Every program makes a context first and (the C one apart) checks error codes.
        assert!(
            names[..3].iter().any(|n| n.starts_with("Z3_mk_context")),
            "{name}: {:?}",
            &names[..3]
        );
        let expected_last = if name.starts_with("translate_reset") {
            "Z3_solver_push"
        } else if name.starts_with("cube_empty") {
            "Z3_solver_cube"
        } else if name.starts_with("max_steps_pop") {
            "Z3_solver_pop"
        } else if name.starts_with("proof_bvsle") {
            "Z3_solver_check_assumptions"
        } else {
            continue;
        };
        // The crashing call is the last the writer logged before the program died.
        let last_real = names
            .iter()
            .rev()
            .find(|n| *n != "Z3_get_error_code")
            .unwrap();
        if !(name.starts_with("translate_reset-5.4.1") || name.starts_with("proof_bvsle-5.4.1")) {
            assert_eq!(last_real, expected_last, "{name}");
        }
        assert!(names.iter().any(|n| n == expected_last), "{name}");
    }
}

#[test]
fn the_same_function_has_other_numbers_in_other_releases() {
    let check = |v: &str| {
        Table::for_version(v)
            .unwrap()
            .by_name("Z3_solver_check")
            .unwrap()
            .number
    };
    assert_eq!(check("4.8.12.0"), 458);
    assert_eq!(check("5.4.1.0"), 559);
    let old = std::fs::read(logs_dir().join("translate_reset-4.8.12.log")).unwrap();
    let new = std::fs::read(logs_dir().join("translate_reset-5.4.1.log")).unwrap();
    let numbers =
        |b: &[u8]| -> Vec<u32> { parse(b).unwrap().calls().map(|(_, c)| c.number).collect() };
    assert_ne!(numbers(&old)[..6], numbers(&new)[..6]);
    assert_eq!(function_names(&old)[..6], function_names(&new)[..6]);
}

#[test]
fn every_table_reads_and_numbers_from_zero() {
    let versions = known_versions();
    assert_eq!(versions.first(), Some(&"4.8.12.0"));
    assert!(versions.contains(&"5.4.1.0"));
    for v in versions {
        let table = Table::for_version(v).unwrap_or_else(|e| panic!("{e}"));
        assert!(table.functions.len() > 600, "{v}");
        for (i, f) in table.functions.iter().enumerate() {
            assert_eq!(f.number as usize, i);
            assert!(f.name.starts_with("Z3_"));
        }
        // What the replay relies on: a call table entry for the context and ref counting.
        for name in [
            "Z3_mk_context_rc",
            "Z3_inc_ref",
            "Z3_dec_ref",
            "Z3_get_error_code",
        ] {
            assert!(table.by_name(name).is_some(), "{v}: {name}");
        }
    }
    let mk_add = Table::for_version("4.8.12.0").unwrap();
    let mk_add = mk_add.by_name("Z3_mk_add").unwrap();
    assert_eq!(mk_add.params[2].dir, Dir::InArray { size: 1 });
}

#[test]
fn the_functions_no_log_shows_are_functions_of_every_table() {
    // A misspelt name in the list would count nothing and hide the function it meant.
    for v in known_versions() {
        let table = Table::for_version(v).unwrap();
        for name in z3log::table::NOT_LOGGED {
            assert!(table.by_name(name).is_some(), "{v}: {name}");
        }
    }
}

#[test]
fn the_callback_functions_no_log_shows_are_functions_of_the_newest_table() {
    let newest = known_versions().last().copied().unwrap();
    let table = Table::for_version(newest).unwrap();
    for name in z3log::table::NOT_LOGGED_CALLBACKS {
        assert!(table.by_name(name).is_some(), "{newest}: {name}");
    }
}

#[test]
fn the_newer_functions_no_log_shows_are_functions_of_the_newest_table() {
    let newest = known_versions().last().copied().unwrap();
    let table = Table::for_version(newest).unwrap();
    for name in z3log::table::NOT_LOGGED_NEWER {
        assert!(table.by_name(name).is_some(), "{newest}: {name}");
    }
}

#[test]
fn a_log_from_a_release_without_a_table_names_it_and_the_known_ones() {
    let err = Table::for_version("4.8.5.0").unwrap_err();
    assert!(matches!(err, TableError::Unknown { .. }));
    let text = err.to_string();
    assert!(text.contains("Z3 4.8.5.0"), "{text}");
    assert!(
        text.contains("4.8.12.0") && text.contains("5.4.1.0"),
        "{text}"
    );
    // The revision number does not pick the table.
    assert_eq!(Table::for_version("4.8.12.1").unwrap().version, "4.8.12.0");
}

#[test]
fn queries_are_the_calls_that_only_ask() {
    let table = Table::for_version("5.4.1.0").unwrap();
    for query in [
        "Z3_is_finite_set_sort",
        "Z3_get_error_code",
        "Z3_get_sort_kind",
        "Z3_ast_to_string",
        "Z3_solver_get_num_scopes",
    ] {
        assert!(table.by_name(query).unwrap().is_query(), "{query}");
    }
    for call in [
        "Z3_solver_check",
        "Z3_mk_add",
        "Z3_solver_get_model",
        "Z3_inc_ref",
    ] {
        assert!(!table.by_name(call).unwrap().is_query(), "{call}");
    }
}

#[test]
fn every_command_and_escape_reads() {
    let text = b"V \"4.8.12.0\"\n\
R\nC 3\n= 0x10\n\
R\nP 0x10\nC 7\n= 0x20\n\
R\nP 0x20\nS \"a\\034b\\092\"\n$ |x y|\n# 7\nN\ns 3\nI -5\nU 18446744073709551615\nD 0.5\nF 1e-3\nC 1\n\
R\nP 0x20\nP 0x10\nP 0\np 2\nI 1\nI -2\ni 2\nU 3\nu 1\nP 0\nC 2\n= 0x30\n* 0x40 4\n@ 0x50 1 0\n\
M \"hello\\010\"\n";
    let log = parse(text).unwrap();
    assert_eq!(log.version.as_deref(), Some("4.8.12.0"));
    assert_eq!(log.entries.len(), 5);
    let EntryKind::Call(call) = &log.entries[2].kind else {
        panic!()
    };
    assert_eq!(log.entries[2].first_line, 9);
    assert_eq!(log.entries[2].line, 20);
    assert_eq!(call.number, 1);
    assert_eq!(call.args[1], Value::Str(b"a\"b\\".to_vec().into()));
    assert_eq!(
        call.args[2],
        Value::Symbols(vec![
            Symbol::Str(b"x y".to_vec().into()),
            Symbol::Int(7),
            Symbol::Null
        ])
    );
    assert_eq!(call.args[3], Value::Int(-5));
    assert_eq!(call.args[4], Value::Uint(u64::MAX));
    assert_eq!(call.args[5], Value::Double(0.5));
    assert_eq!(call.args[6], Value::Float(1e-3));
    let EntryKind::Call(call) = &log.entries[3].kind else {
        panic!()
    };
    assert_eq!(call.args.len(), 5);
    assert_eq!(call.args[2], Value::Ints(vec![1, -2]));
    assert_eq!(call.args[3], Value::Uints(vec![3]));
    assert_eq!(call.result, Some(z3log::Addr(0x30)));
    assert_eq!(
        call.outs,
        vec![
            OutBinding::Object {
                addr: z3log::Addr(0x40),
                pos: 4
            },
            OutBinding::Element {
                addr: z3log::Addr(0x50),
                pos: 1,
                idx: 0
            }
        ]
    );
    assert_eq!(
        log.entries[4].kind,
        EntryKind::Message(b"hello\n".to_vec().into())
    );
    // Written back, it reads to the same log.
    let again = parse(write(&log).as_bytes()).unwrap();
    assert_eq!(again.entries.len(), log.entries.len());
    for (a, b) in again.entries.iter().zip(&log.entries) {
        assert_eq!(a.kind, b.kind);
    }
}

#[test]
fn recorded_logs_write_back_to_the_same_calls() {
    for path in recorded_logs() {
        let log = parse(&std::fs::read(&path).unwrap()).unwrap();
        let again = parse(write(&log).as_bytes()).unwrap();
        let kinds = |l: &z3log::Log| l.entries.iter().map(|e| e.kind.clone()).collect::<Vec<_>>();
        assert_eq!(kinds(&again), kinds(&log), "{}", path.display());
        assert_eq!(again.version, log.version);
    }
}

/// `input` fails on `line` with a message containing `fragment`, on one line.
fn check_error(input: &[u8], line: u32, fragment: &str) {
    let err = parse(input).expect_err("malformed");
    assert_eq!(err.line, line, "{err}");
    assert!(err.message.contains(fragment), "{err}");
    assert!(!err.to_string().contains('\n'), "{err}");
}

#[test]
fn malformed_logs_name_the_line() {
    check_error(b"V \"4.8.12.0\"\nR\nX 1\n", 3, "unknown log command `X`");
    check_error(b"R\nP 0x55\nC 1\n", 2, "not one an earlier call returned");
    check_error(
        b"R\nP 0\np 2\nC 1\n",
        3,
        "an array of 2 arguments, but only 1",
    );
    check_error(b"R\nP 0\nI 1\np 2\n", 4, "mixed argument kinds");
    check_error(b"R\nS \"abc\n\"\n", 2, "end of line inside a string");
    check_error(b"R\nS \"a\\99\"\n", 2, "invalid escape");
    check_error(b"R\nS \"a\\256\"\n", 2, "invalid escape");
    check_error(b"R\nU 18446744073709551616\n", 2, "out of range");
    check_error(b"R\nI -9223372036854775809\n", 2, "out of range");
    check_error(b"R\nP 0x12345678901234567\n", 2, "address out of range");
    check_error(b"= 0x10\n", 1, "before any call");
    check_error(b"R\nC 1\n* 0x10 0\n", 3, "the call has 0 arguments");
    check_error(b"R\nI 1\nC 1\n* 0x10 0\n", 4, "not an object");
    check_error(
        b"R\nP 0\np 1\nC 1\n@ 0x10 0 1\n",
        5,
        "element 1 of argument 0",
    );
    check_error(b"R\nC 1\n= 0x10\n= 0x20\n", 4, "a second `=`");
    check_error(b"R\nC 4294967296\n", 2, "out of range");
    check_error(b"R\nD abc\n", 2, "invalid number");
    check_error(b"V \"4.8.12.0", 1, "end of file inside a string");
}

#[test]
fn hostile_logs_are_bounded_by_their_size() {
    // An array length written in the log allocates nothing by itself.
    check_error(b"R\np 18446744073709551615\n", 2, "only 0 are on the stack");
    // A long line reads.
    let mut long = b"V \"4.8.12.0\"\nR\nS \"".to_vec();
    long.extend(std::iter::repeat_n(b'a', 1 << 20));
    long.extend_from_slice(b"\"\nC 1\n");
    let log = parse(&long).unwrap();
    assert_eq!(log.calls().count(), 1);
    // A big array reads, as one value.
    let mut big = b"R\n".to_vec();
    for _ in 0..100_000 {
        big.extend_from_slice(b"U 1\n");
    }
    big.extend_from_slice(b"u 100000\nC 1\n");
    let log = parse(&big).unwrap();
    let (_, call) = log.calls().next().unwrap();
    assert!(matches!(&call.args[0], Value::Uints(v) if v.len() == 100_000));
    // A stack carried from call to call without `R` is refused before it copies quadratically.
    let mut carried = b"R\n".to_vec();
    for _ in 0..10_000 {
        carried.extend_from_slice(b"U 1\n");
    }
    for _ in 0..10_000 {
        carried.extend_from_slice(b"C 1\n");
    }
    let err = parse(&carried).unwrap_err();
    assert!(err.message.contains("without `R`"), "{err}");
}

#[test]
fn logs_are_recognized_by_content_not_name() {
    assert!(looks_like_log(b"V \"4.8.12.0\"\nR\n"));
    assert!(looks_like_log(b"\n\nR\nC 3\n"));
    assert!(!looks_like_log(b"z3-trace 1\nnew_solver\n"));
    assert!(!looks_like_log(b"; z3 4.8.12\nz3-trace 1\n"));
    assert!(!looks_like_log(b"Z3TRACE\x02"));
    assert!(!looks_like_log(b"(set-logic QF_BV)\n"));
    assert!(!looks_like_log(b""));
}

#[test]
fn folders_take_only_files_that_start_with_the_version_line() {
    use z3log::parse::starts_with_version;
    assert!(starts_with_version(b"V \"4.8.12.0\"\nR\n"));
    assert!(starts_with_version(b"\n  V \"5.4.1.0\"\n"));
    // What the lenient recognition takes, a folder scan does not.
    for text in [
        &b"# traces/logs\n"[..],
        b"import sys\n",
        b"R\nC 3\n",
        b"Very well\n",
    ] {
        assert!(
            !starts_with_version(text),
            "{}",
            String::from_utf8_lossy(text)
        );
    }
}

#[test]
fn call_numbers_are_the_calls_of_a_full_read() {
    for path in recorded_logs() {
        let bytes = std::fs::read(&path).unwrap();
        let log = parse(&bytes).unwrap();
        let (version, numbers) = z3log::parse::call_numbers(&bytes);
        assert_eq!(version, log.version, "{}", path.display());
        let full: Vec<u32> = log.calls().map(|(_, c)| c.number).collect();
        assert_eq!(numbers, full, "{}", path.display());
    }
    // A log opened while objects were alive, cut within a call: the complete calls count.
    let (version, numbers) =
        z3log::parse::call_numbers(b"V \"4.8.12.0\"\nR\nP 0x1\nC 458\nR\nP 0x2\n");
    assert_eq!((version.as_deref(), numbers), (Some("4.8.12.0"), vec![458]));
}
