//! TEST-ONLY failure injection, compiled into every build so that tests can run the real
//! binary: `MBT_INJECT=KIND@K[:SEED]` with KIND one of `abort`, `loop`, `alloc` makes a round
//! (every round, or only the round with seed SEED) abort, loop forever, or allocate without
//! bound just before its K-th call. Never set it outside tests.

/// The environment variable that switches injection on.
pub const ENV: &str = "MBT_INJECT";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InjectKind {
    Abort,
    Loop,
    Alloc,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inject {
    pub kind: InjectKind,
    /// 1-based number of the call before which the failure happens.
    pub at_call: u64,
    pub seed: Option<u64>,
}

impl Inject {
    /// Parses `KIND@K[:SEED]`.
    pub fn parse(text: &str) -> Result<Inject, String> {
        let bad =
            || format!("{ENV}: expected KIND@K[:SEED] with KIND abort|loop|alloc, got `{text}`");
        let (kind, rest) = text.split_once('@').ok_or_else(bad)?;
        let kind = match kind {
            "abort" => InjectKind::Abort,
            "loop" => InjectKind::Loop,
            "alloc" => InjectKind::Alloc,
            _ => return Err(bad()),
        };
        let (at, seed) = match rest.split_once(':') {
            Some((at, seed)) => (at, Some(seed.parse().map_err(|_| bad())?)),
            None => (rest, None),
        };
        let at_call = at.parse().map_err(|_| bad())?;
        Ok(Inject {
            kind,
            at_call,
            seed,
        })
    }

    /// Reads the environment; a malformed value is an error, an absent one is `None`.
    pub fn from_env() -> Result<Option<Inject>, String> {
        match std::env::var(ENV) {
            Ok(v) if !v.is_empty() => Inject::parse(&v).map(Some),
            _ => Ok(None),
        }
    }

    /// Whether this injection fires in round `seed` before call `n_call`.
    pub fn fires(&self, seed: u64, n_call: u64) -> bool {
        n_call == self.at_call && self.seed.is_none_or(|s| s == seed)
    }

    /// Performs the failure; never returns.
    pub fn fire(&self) -> ! {
        match self.kind {
            InjectKind::Abort => std::process::abort(),
            InjectKind::Loop => loop {
                std::hint::spin_loop();
            },
            InjectKind::Alloc => {
                let mut hog: Vec<Vec<u8>> = Vec::new();
                loop {
                    // Address space is what the memory limit (RLIMIT_AS) counts.
                    hog.push(vec![0u8; 64 << 20]);
                    std::hint::black_box(&hog);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_kind_call_and_seed() {
        let i = Inject::parse("abort@5").unwrap();
        assert_eq!((i.kind, i.at_call, i.seed), (InjectKind::Abort, 5, None));
        let i = Inject::parse("alloc@12:7").unwrap();
        assert_eq!(
            (i.kind, i.at_call, i.seed),
            (InjectKind::Alloc, 12, Some(7))
        );
        assert!(i.fires(7, 12) && !i.fires(8, 12) && !i.fires(7, 11));
        assert!(Inject::parse("crash@1").is_err());
        assert!(Inject::parse("loop").is_err());
        assert!(Inject::parse("loop@x").is_err());
    }
}
