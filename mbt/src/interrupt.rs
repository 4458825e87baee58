//! SIGINT and SIGTERM during a campaign. [`install`] routes both to a handler that only records
//! the signal in an atomic ([`requested`]); the campaign loop, which wakes at least every
//! 200 ms (its `poll(2)` returns early when a signal arrives), sees it, kills the workers and
//! writes what it has. A second signal exits at once from the handler with `128 + signal`
//! (130 for SIGINT, 143 for SIGTERM). The parent forks workers and must stay single-threaded,
//! so this is a plain `sigaction` handler, not a signal-handling thread.

use nix::sys::signal::{sigaction, SaFlags, SigAction, SigHandler, SigSet, Signal};
use std::io;
use std::sync::atomic::{AtomicI32, Ordering};

/// The signal that asked the campaign to stop (0: none yet).
static REQUESTED: AtomicI32 = AtomicI32::new(0);

/// The handler: records the first signal, exits on the second. Only async-signal-safe work
/// here: an atomic swap and `_exit`.
extern "C" fn on_signal(signal: std::ffi::c_int) {
    if REQUESTED.swap(signal, Ordering::SeqCst) != 0 {
        // SAFETY: `_exit` is async-signal-safe (nix has no wrapper); the user asked twice to
        // stop now.
        unsafe { libc::_exit(exit_code(signal) as std::ffi::c_int) };
    }
}

/// Routes SIGINT and SIGTERM to the flag. `SA_RESTART` keeps other system calls of the parent
/// (file writes, `waitpid`) from failing with EINTR; `poll(2)` is never restarted, so the
/// campaign loop still wakes at once.
pub fn install() -> io::Result<()> {
    let action = SigAction::new(
        SigHandler::Handler(on_signal),
        SaFlags::SA_RESTART,
        SigSet::empty(),
    );
    for signal in [Signal::SIGINT, Signal::SIGTERM] {
        // SAFETY: the handler does only async-signal-safe work.
        unsafe { sigaction(signal, &action) }?;
    }
    Ok(())
}

/// In a forked worker: SIGINT and SIGTERM are ignored. A Ctrl-C in a terminal goes to the whole
/// foreground process group; a worker that died of it would look like a crashed round. The
/// parent decides and kills its workers itself.
pub fn ignore_in_worker() {
    for signal in [Signal::SIGINT, Signal::SIGTERM] {
        // SAFETY: "ignore" runs no code of ours.
        let _ = unsafe { nix::sys::signal::signal(signal, SigHandler::SigIgn) };
    }
}

/// The signal that asked to stop, if one arrived.
pub fn requested() -> Option<i32> {
    match REQUESTED.load(Ordering::SeqCst) {
        0 => None,
        signal => Some(signal),
    }
}

/// The exit code after `signal`, as a shell reports a process that `signal` ended.
pub fn exit_code(signal: i32) -> u8 {
    (128 + signal).clamp(0, 255) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_follow_the_shell_convention() {
        assert_eq!(exit_code(Signal::SIGINT as i32), 130);
        assert_eq!(exit_code(Signal::SIGTERM as i32), 143);
    }
}
