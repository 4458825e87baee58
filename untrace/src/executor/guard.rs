//! Turning Z3 API failures into values.
//!
//! The `z3` crate installs no error handler: when Z3 rejects a call it returns NULL, the crate
//! unwraps and panics, and some calls (an unknown solver parameter, a parse error in
//! `from_string`) fail silently and only set the context's error code. [`guarded`] runs a
//! closure under `catch_unwind` with a panic hook that stays quiet while a guard is active,
//! and with an error handler that keeps the first error Z3 reports (later API calls, even a
//! `dec_ref`, reset the error code), then falls back to `Z3_get_error_code`; either failure
//! becomes a one-line message.
//! [`in_context`] runs crate code with another context as the thread-local one (the crate
//! builds every object in the thread-local context), restoring it even when the code panics.

use std::cell::{Cell, RefCell};
use std::ffi::CStr;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;
use z3::Context;
use z3_sys::{
    ErrorCode, Z3_context, Z3_get_error_code, Z3_get_error_msg, Z3_set_error, Z3_set_error_handler,
};

thread_local! {
    /// How many guards are active on this thread; the panic hook is silent while > 0.
    static ACTIVE: Cell<u32> = const { Cell::new(0) };
    /// The first Z3 error reported to [`record_error`] while the innermost guard runs.
    static FIRST_ERROR: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Z3's error handler while a guard runs: keeps the first error with its message. Needed
/// because the error code alone is not enough: most API functions reset it on entry
/// (`RESET_ERROR_CODE`), so the `Z3_dec_ref` of a temporary dropped after a failing call
/// (e.g. the asserted term of `Solver::assert`) would erase the failure before the guard
/// reads it, and the executor would go on as if Z3 had accepted the call.
unsafe extern "C" fn record_error(ctx: Z3_context, code: ErrorCode) {
    // Z3 calls this from C; nothing may unwind out of it.
    let _ = panic::catch_unwind(|| {
        let message = describe(ctx, code);
        FIRST_ERROR.with(|first| {
            if let Ok(mut first) = first.try_borrow_mut() {
                first.get_or_insert(message);
            }
        });
    });
}

static HOOK: Once = Once::new();

/// Installs (once) a panic hook that prints nothing while a guard runs and defers to the
/// previous hook otherwise, so real bugs outside the executor still show their panic.
fn install_quiet_hook() {
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if ACTIVE.with(Cell::get) == 0 {
                previous(info);
            }
        }));
    });
}

/// The error code of `ctx` with Z3's message, if the last call failed.
pub fn z3_error(ctx: Z3_context) -> Option<String> {
    // SAFETY: `ctx` is a live context owned by a `z3::Context`.
    let code = unsafe { Z3_get_error_code(ctx) };
    if code == ErrorCode::Ok {
        return None;
    }
    Some(describe(ctx, code))
}

/// `CODE: message` on one line for an error `code` of `ctx`.
fn describe(ctx: Z3_context, code: ErrorCode) -> String {
    // SAFETY: Z3 returns a NUL-terminated string owned by the context (or NULL).
    let message = unsafe {
        let text = Z3_get_error_msg(ctx, code);
        if text.is_null() {
            String::new()
        } else {
            CStr::from_ptr(text).to_string_lossy().into_owned()
        }
    };
    // Z3 appends every legal parameter to an unknown-parameter message; a line stays short.
    let mut message = one_line(&message);
    if let Some((head, _)) = message.split_once(" Legal parameters are:") {
        message = head.to_string();
    }
    if message.len() > 300 {
        let cut = (0..=300)
            .rev()
            .find(|i| message.is_char_boundary(*i))
            .unwrap_or(0);
        message = format!("{}...", &message[..cut]);
    }
    format!("{code:?}: {message}")
}

/// Collapses whitespace runs (newlines included) so that a message stays on one line.
pub fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Runs `f`, which calls Z3 through `ctx`; a panic or an error code left in `ctx` becomes
/// `Err(message)`.
pub fn guarded<R>(ctx: &Context, f: impl FnOnce() -> R) -> Result<R, String> {
    install_quiet_hook();
    let raw = ctx.get_z3_context();
    // SAFETY: resetting the error code of a live context; with the code OK no handler runs.
    // The handler only records (see `record_error`); Z3 goes on as without one.
    unsafe {
        Z3_set_error(raw, ErrorCode::Ok);
        Z3_set_error_handler(raw, Some(record_error));
    }
    // A guard inside a guard keeps the outer one's first error for later.
    let outer = FIRST_ERROR.with(|first| first.borrow_mut().take());
    ACTIVE.with(|a| a.set(a.get() + 1));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    ACTIVE.with(|a| a.set(a.get() - 1));
    let first = FIRST_ERROR.with(|first| std::mem::replace(&mut *first.borrow_mut(), outer));
    let error = first.or_else(|| z3_error(raw));
    match result {
        Ok(value) => match error {
            None => Ok(value),
            Some(message) => Err(message),
        },
        Err(payload) => Err(error.unwrap_or_else(|| {
            let text = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "the z3 crate panicked".into());
            format!("the z3 crate failed: {}", one_line(&text))
        })),
    }
}

/// Moves a value across the `Send + Sync` bound of `with_z3_context`; sound because the
/// closure runs at once on this very thread.
struct SameThread<T>(T);
// SAFETY: the wrapped value never leaves the current thread (see above).
unsafe impl<T> Send for SameThread<T> {}
// SAFETY: as above.
unsafe impl<T> Sync for SameThread<T> {}

impl<T> SameThread<T> {
    fn into_inner(self) -> T {
        self.0
    }
}

/// Runs `f` guarded, with `ctx` as the thread-local context of the `z3` crate.
pub fn in_context<R>(ctx: &Context, f: impl FnOnce() -> R) -> Result<R, String> {
    if *ctx == Context::thread_local() {
        return guarded(ctx, f);
    }
    let job = SameThread((f, ctx.clone()));
    // The guard runs inside, so a panic cannot skip restoring the previous context.
    let result = z3::with_z3_context(ctx, move || {
        let (f, owner) = job.into_inner();
        SameThread(guarded(&owner, f))
    });
    result.into_inner()
}

/// A fresh context with the default configuration and no error handler, as
/// `with_z3_config` would build.
pub fn fresh_context() -> Result<Context, String> {
    configured_context(&[])
}

/// A fresh context made from a configuration: `Z3_set_param_value` of each (key, value) on a
/// new `Z3_config` (the reference state has checked the keys: Z3 only warns about unknown ones).
pub fn configured_context(config: &[(String, String)]) -> Result<Context, String> {
    let config = config
        .iter()
        .map(|(k, v)| {
            Ok((
                std::ffi::CString::new(k.as_str())?,
                std::ffi::CString::new(v.as_str())?,
            ))
        })
        .collect::<Result<Vec<_>, std::ffi::NulError>>()
        .map_err(|e| format!("context parameter with a NUL byte: {e}"))?;
    // SAFETY: plain z3-sys constructor calls; the config is deleted after use, the context
    // is handed to `Context`, which deletes it when the last handle goes.
    unsafe {
        let cfg = z3_sys::Z3_mk_config().ok_or("Z3_mk_config failed")?;
        for (key, value) in &config {
            z3_sys::Z3_set_param_value(cfg, key.as_ptr(), value.as_ptr());
        }
        let raw = z3_sys::Z3_mk_context_rc(cfg);
        z3_sys::Z3_del_config(cfg);
        let raw = raw.ok_or("Z3_mk_context_rc failed")?;
        z3_sys::Z3_set_error_handler(raw, None);
        Ok(Context::from_raw(raw))
    }
}
