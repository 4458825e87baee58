//! Which of the loaded libz3's functions a campaign calls.
//!
//! Each round runs with Z3's own API log open on a file of its private folder
//! ([`RoundLog`]); the log's `C` lines, named by the call table of the loaded release
//! (`z3log`), are the Z3 functions the round called. That counts what really reached Z3: the
//! executor's helpers (reference counts, parameter objects, the `z3` crate's own calls) as
//! well as the calls of the trace, which a list kept beside the calls could not. The
//! campaign measures the counts against the functions the libz3 file exports
//! ([`ApiCoverage`]), less the deliberate exclusions of [`EXCLUDED`] (`docs/api-coverage.md`).
//! The functions no log shows (`z3log::table::NOT_LOGGED`) are counted by the executor where
//! it calls them (`untrace::executor::unlogged`) and added to the log's counts.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::ffi::CString;
use std::path::Path;
use std::sync::OnceLock;

/// The round's Z3 API log, in the round's private folder.
pub const ROUND_LOG: &str = "z3-api.log";

/// Functions the fuzzer leaves out on purpose, with the reason (`docs/api-coverage.md`).
/// Functions the release's headers do not declare are left out as well (Z3 does not log
/// them, so no count could see them): [`ApiCoverage::excluded`] lists both.
pub const EXCLUDED: &[(&str, &str)] = &[
    (
        "Z3_open_log",
        "logging: the campaign's own measurement holds the log",
    ),
    (
        "Z3_close_log",
        "logging: the campaign's own measurement holds the log",
    ),
    (
        "Z3_append_log",
        "logging: writes a comment into the log, nothing else",
    ),
    (
        "Z3_toggle_warning_messages",
        "logging: warnings go to the round's output only",
    ),
    (
        "Z3_finalize_memory",
        "memory: frees Z3's global state under live objects of the worker",
    ),
    (
        "Z3_reset_memory",
        "memory: frees Z3's global state under live objects of the worker",
    ),
    (
        "Z3_enable_concurrent_dec_ref",
        "memory: makes reference-count decrements thread safe; the executor releases objects on their context's thread",
    ),
    (
        "Z3_set_error_handler",
        "error handling: the executor installs its own handler",
    ),
    (
        "Z3_set_error",
        "error handling: raises an error on purpose, no solver code runs",
    ),
    (
        "Z3_enable_trace",
        "debug builds only: writes Z3's internal trace files",
    ),
    (
        "Z3_disable_trace",
        "debug builds only: writes Z3's internal trace files",
    ),
];

/// Opens Z3's API log on [`ROUND_LOG`] in `dir` for the round about to run (Z3 logs each
/// call with its number, one line a command, flushed); [`RoundLog::finish`] closes it and
/// counts the functions.
pub struct RoundLog {
    path: std::path::PathBuf,
    open: bool,
}

impl RoundLog {
    pub fn open(dir: &Path) -> RoundLog {
        // The executor's own count of what the log cannot show starts with the log.
        untrace::executor::unlogged::take();
        let path = dir.join(ROUND_LOG);
        let open = CString::new(path.as_os_str().as_encoded_bytes())
            // SAFETY: a NUL-terminated file name; Z3 copies it.
            .map(|name| unsafe { z3_sys::Z3_open_log(name.as_ptr()) })
            .unwrap_or(false);
        RoundLog { path, open }
    }

    /// Closes the log and counts the calls of each Z3 function in it (nothing when the log
    /// could not be opened, or the release has no call table), with the executor's own
    /// calls of the functions no log shows (`z3log::table::NOT_LOGGED`); the file is
    /// removed.
    pub fn finish(self) -> BTreeMap<String, u64> {
        let unlogged = untrace::executor::unlogged::take();
        if !self.open {
            return BTreeMap::new();
        }
        // SAFETY: closes the log this value opened; no Z3 call is running.
        unsafe { z3_sys::Z3_close_log() };
        let bytes = std::fs::read(&self.path).unwrap_or_default();
        let _ = std::fs::remove_file(&self.path);
        let mut counts = count_functions(&bytes);
        if !counts.is_empty() {
            for (function, n) in unlogged {
                *counts.entry(function).or_default() += n;
            }
        }
        counts
    }
}

/// The calls per Z3 function of a log, named by the table of the release that wrote it.
pub fn count_functions(bytes: &[u8]) -> BTreeMap<String, u64> {
    let (version, numbers) = z3log::parse::call_numbers(bytes);
    let Some(version) = version else {
        return BTreeMap::new();
    };
    // A worker runs on one libz3: its table is read once.
    static FIRST: OnceLock<(String, Option<z3log::Table>)> = OnceLock::new();
    let (first_version, first_table) =
        FIRST.get_or_init(|| (version.clone(), z3log::Table::for_version(&version).ok()));
    let other;
    let table = if *first_version == version {
        first_table.as_ref()
    } else {
        other = z3log::Table::for_version(&version).ok();
        other.as_ref()
    };
    let mut counts = BTreeMap::new();
    for function in numbers.into_iter().filter_map(|n| table?.function(n)) {
        *counts.entry(function.name.to_string()).or_default() += 1;
    }
    counts
}

/// What a campaign measures its calls against: the functions of the libz3 file it ran on.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApiCoverage {
    /// The libz3 file and its version.
    pub z3_lib: String,
    pub z3_version: String,
    /// The functions the file exports, less the excluded ones: the denominator.
    pub functions: Vec<String>,
    /// Exported functions left out: [`EXCLUDED`], and those the release's headers do not
    /// declare (Z3 does not log them).
    pub excluded: Vec<String>,
}

impl ApiCoverage {
    /// The coverage basis of the libz3 this process runs on; `None` when the file cannot be
    /// read or its release has no call table (then no round's calls could be counted either).
    pub fn of_running_libz3() -> Option<ApiCoverage> {
        let library = z3lib::running_on()?;
        let exported = z3lib::elf::exported_z3_functions(&library.path).ok()?;
        let version = library.version.trim_start_matches("Z3 ").to_string();
        let table = z3log::Table::for_version(&version).ok()?;
        let (excluded, functions) = exported.into_iter().partition(|name: &String| {
            EXCLUDED.iter().any(|(n, _)| n == name) || table.by_name(name).is_none()
        });
        Some(ApiCoverage {
            z3_lib: library.path.display().to_string(),
            z3_version: version,
            functions,
            excluded,
        })
    }

    /// The functions of the basis that no call reached, in name order.
    pub fn never_called(&self, calls: &BTreeMap<String, u64>) -> Vec<String> {
        let called = |f: &String| calls.get(f).is_some_and(|n| *n > 0);
        self.functions
            .iter()
            .filter(|f| !called(f))
            .cloned()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_counts_its_calls_by_name() {
        let table = z3log::Table::for_version("4.8.12.0").unwrap();
        let number = |name: &str| table.by_name(name).unwrap().number;
        let log = format!(
            "V \"4.8.12.0\"\nR\nC {}\n= 0x1\nR\nP 0x1\nC {}\nR\nP 0x1\nC {}\n",
            number("Z3_mk_config"),
            number("Z3_solver_check"),
            number("Z3_solver_check")
        );
        let counts = count_functions(log.as_bytes());
        assert_eq!(counts["Z3_mk_config"], 1);
        assert_eq!(counts["Z3_solver_check"], 2);
        assert_eq!(counts.len(), 2);
    }

    #[test]
    fn a_log_of_a_release_without_a_table_counts_nothing() {
        assert!(count_functions(b"V \"0.1.2.3\"\nR\nC 1\n").is_empty());
        assert!(count_functions(b"R\nC 1\n").is_empty());
    }

    #[test]
    fn never_called_is_the_basis_less_what_was_called() {
        let basis = ApiCoverage {
            functions: vec!["Z3_a".into(), "Z3_b".into(), "Z3_c".into()],
            ..ApiCoverage::default()
        };
        let calls = BTreeMap::from([("Z3_b".to_string(), 3), ("Z3_c".to_string(), 0)]);
        assert_eq!(basis.never_called(&calls), ["Z3_a", "Z3_c"]);
    }

    #[test]
    fn every_exclusion_names_a_function_of_the_api() {
        // Of 4.8.12 (its table or the system libz3's exports) or of the newest release's
        // table (`Z3_enable_concurrent_dec_ref` came later).
        let old = z3log::Table::for_version("4.8.12.0").unwrap();
        let new = z3log::Table::for_version("5.4.1.0").unwrap();
        let exported =
            z3lib::elf::exported_z3_functions(Path::new("/usr/lib/x86_64-linux-gnu/libz3.so.4"))
                .unwrap_or_default();
        for (name, reason) in EXCLUDED {
            assert!(name.starts_with("Z3_") && !reason.is_empty());
            assert!(
                exported.iter().any(|e| e == name)
                    || old.by_name(name).is_some()
                    || new.by_name(name).is_some(),
                "{name} is no function of Z3 4.8.12 or 5.4.1"
            );
        }
    }
}
