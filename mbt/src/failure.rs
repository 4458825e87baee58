//! Findings: [`Failure`] (what went wrong in a round, of a [`FailureKind`]) and its
//! deduplication [`Failure::signature`] (kind, normalized message or signal, last call).

use serde::{Deserialize, Serialize};

/// What kind of failure a round found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum FailureKind {
    /// The round process died of a signal (segfault, abort, ...).
    Crash,
    StackOverflow,
    /// A Rust panic in the fuzzer or the executor.
    Panic,
    /// Z3 reported an error code the option model does not expect.
    Z3Error,
    /// The round ran past its time limit.
    Timeout,
    /// The round ran out of its memory limit.
    Memout,
    /// A model under which an assertion or assumption is not true.
    Model,
    /// An unsat core or failed-assumption set that is satisfiable when re-checked.
    Core,
    /// A shadow clone answered differently from its original.
    Shadow,
    /// Dumping the assertions and parsing them back changed the answer.
    Dump,
    /// Another option configuration answered sat where the round's answered unsat, or back.
    Config,
    /// Z3's `model_eval` and the independent evaluator give a term different values.
    EvalDisagreement,
    /// The fuzzer generated a call the reference state rejects: a bug in mbt.
    Internal,
}

impl FailureKind {
    pub fn name(self) -> &'static str {
        match self {
            FailureKind::Crash => "crash",
            FailureKind::StackOverflow => "stack-overflow",
            FailureKind::Panic => "panic",
            FailureKind::Z3Error => "z3-error",
            FailureKind::Timeout => "timeout",
            FailureKind::Memout => "memout",
            FailureKind::Model => "model",
            FailureKind::Core => "core",
            FailureKind::Shadow => "shadow",
            FailureKind::Dump => "dump",
            FailureKind::Config => "config",
            FailureKind::EvalDisagreement => "eval-disagreement",
            FailureKind::Internal => "internal",
        }
    }
}

/// One finding of a round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failure {
    pub kind: FailureKind,
    /// What happened, in one line (a signal name for crashes).
    pub message: String,
    /// The name of the last call line of the trace (the call that failed or was running).
    pub last_call: Option<String>,
}

impl Failure {
    pub fn new(kind: FailureKind, message: impl Into<String>) -> Failure {
        Failure {
            kind,
            message: message.into(),
            last_call: None,
        }
    }

    /// The deduplication key: kind, message without ids and numbers, last call name.
    pub fn signature(&self) -> String {
        format!(
            "{}|{}|{}",
            self.kind.name(),
            normalize(&self.message),
            self.last_call.as_deref().unwrap_or("-")
        )
    }

    /// A short, stable file-name form of the signature.
    pub fn signature_hash(&self) -> String {
        // FNV-1a: stable across runs and platforms, unlike std's hasher.
        let mut h: u64 = 0xcbf29ce484222325;
        for b in self.signature().bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x100000001b3);
        }
        format!("{}-{:016x}", self.kind.name(), h)
    }
}

/// Replaces every run of digits by `N` and hex addresses by `0xN`, so that messages that
/// differ only in ids, numbers or addresses fall together.
pub fn normalize(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut chars = message.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '0' && chars.peek() == Some(&'x') {
            chars.next();
            while chars.peek().is_some_and(|c| c.is_ascii_hexdigit()) {
                chars.next();
            }
            out.push_str("0xN");
        } else if c.is_ascii_digit() {
            while chars.peek().is_some_and(|c| c.is_ascii_digit()) {
                chars.next();
            }
            out.push('N');
        } else {
            out.push(c);
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_drops_ids_numbers_and_addresses() {
        assert_eq!(
            normalize("assertion t12 evaluates to #x0f at 0x7ffd12ab"),
            "assertion tN evaluates to #xNf at 0xN"
        );
        assert_eq!(normalize("  a   b "), "a b");
    }

    #[test]
    fn signature_ignores_ids_but_not_kind_or_last_call() {
        let mut a = Failure::new(FailureKind::Model, "assertion t3 is false");
        a.last_call = Some("model_eval".into());
        let mut b = Failure::new(FailureKind::Model, "assertion t97 is false");
        b.last_call = Some("model_eval".into());
        assert_eq!(a.signature(), b.signature());
        assert_eq!(a.signature_hash(), b.signature_hash());
        b.last_call = Some("check_sat".into());
        assert_ne!(a.signature(), b.signature());
        let c = Failure {
            kind: FailureKind::Core,
            ..a.clone()
        };
        assert_ne!(a.signature_hash(), c.signature_hash());
    }
}
