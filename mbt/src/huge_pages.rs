//! A campaign's heap on transparent huge pages. A worker grows its heap anew (it starts from
//! the parent's, and a failed round or one that changed Z3's global parameters ends it, about
//! one round in five), and Z3's allocations fault in tens of megabytes a worker, 4 KiB at a
//! time: zeroing pages and the faults were a tenth of a round's CPU. glibc backs its heap with
//! huge pages when the tunable `glibc.malloc.hugetlb=1` is set, which it reads only when a
//! process starts; so the campaign re-executes itself once with it ([`reexec_with_huge_pages`])
//! and its forked workers inherit the setting. Measured (`bench/mbt.sh 800 1`, side by side):
//! 111.2 -> 98.6 ms CPU per round on Z3 4.8.12, 86.6 -> 82.5 on 5.4.1. A machine whose kernel
//! has no huge pages for `madvise` runs as before.
//!
//! Children that are started, not forked (replays, solvers), get the environment as the user
//! set it ([`restore_environment`]): short processes gain nothing from huge pages.

use std::ffi::OsString;
use std::os::unix::process::CommandExt;

const TUNABLES: &str = "GLIBC_TUNABLES";
const HUGE_PAGES: &str = "glibc.malloc.hugetlb=1";
/// Set for the re-executed process: the tunable was appended by [`reexec_with_huge_pages`].
const ENV_APPENDED: &str = "Z3TESTING_HUGE_PAGES_APPENDED";

/// Re-executes this binary with the same arguments and huge pages for its heap, unless the
/// environment already says how glibc is to use them (the user's choice, or this process is
/// the re-executed one). Call it first thing in `main`, before any thread starts; it returns
/// only where no re-exec happened or it failed (then the campaign runs on small pages).
pub fn reexec_with_huge_pages() {
    let current = std::env::var_os(TUNABLES).unwrap_or_default();
    if current.to_string_lossy().contains("glibc.malloc.hugetlb") {
        return;
    }
    let Ok(exe) = std::env::current_exe() else {
        return;
    };
    let mut tunables = current;
    if !tunables.is_empty() {
        tunables.push(":");
    }
    tunables.push(HUGE_PAGES);
    let mut args = std::env::args_os();
    let arg0 = args.next().unwrap_or_else(|| exe.clone().into_os_string());
    // exec only returns on failure; the campaign then runs without huge pages.
    let _ = std::process::Command::new(exe)
        .arg0(arg0)
        .args(args)
        .env(TUNABLES, tunables)
        .env(ENV_APPENDED, "1")
        .exec();
}

/// Takes the tunable [`reexec_with_huge_pages`] appended out of the environment again (this
/// process's allocator has read it), so that the children it starts see the user's.
pub fn restore_environment() {
    if std::env::var_os(ENV_APPENDED).is_none() {
        return;
    }
    std::env::remove_var(ENV_APPENDED);
    let current = std::env::var_os(TUNABLES).unwrap_or_default();
    let current = current.to_string_lossy();
    let user: Option<OsString> = match current.strip_suffix(HUGE_PAGES) {
        Some("") => None,
        Some(rest) => Some(rest.strip_suffix(':').unwrap_or(rest).into()),
        None => Some(current.as_ref().into()),
    };
    match user {
        Some(value) => std::env::set_var(TUNABLES, value),
        None => std::env::remove_var(TUNABLES),
    }
}
