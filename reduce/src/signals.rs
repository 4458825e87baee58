//! [`StopFlag`]: a shared "stop now" flag, set by SIGINT/SIGTERM once
//! [`StopFlag::install_signal_handlers`] has run, or by hand in tests.
//!
//! A second SIGINT/SIGTERM while the first is being handled exits at once (code 130 / 143):
//! the output file is still valid then, because it is only ever replaced by a rename.

use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// Set to the number of the signal that asked to stop (0 = keep going).
#[derive(Clone, Debug, Default)]
pub struct StopFlag(Arc<AtomicUsize>);

impl StopFlag {
    pub fn new() -> StopFlag {
        StopFlag::default()
    }

    /// Route SIGINT and SIGTERM to this flag.
    pub fn install_signal_handlers(&self) -> io::Result<()> {
        use signal_hook::consts::{SIGINT, SIGTERM};
        let already = Arc::new(std::sync::atomic::AtomicBool::new(false));
        for sig in [SIGINT, SIGTERM] {
            // Registered first so that it sees the flag as it was before this signal:
            // exits only on the second signal.
            signal_hook::flag::register_conditional_shutdown(sig, 128 + sig, already.clone())?;
            signal_hook::flag::register(sig, already.clone())?;
            signal_hook::flag::register_usize(sig, self.0.clone(), sig as usize)?;
        }
        Ok(())
    }

    /// Ask everything that watches this flag to stop, as if `signal` had arrived.
    pub fn request(&self, signal: i32) {
        self.0.store(signal.max(1) as usize, Ordering::SeqCst);
    }

    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::SeqCst) != 0
    }

    /// The signal that asked to stop, if any.
    pub fn signal(&self) -> Option<i32> {
        match self.0.load(Ordering::SeqCst) {
            0 => None,
            s => Some(s as i32),
        }
    }
}
