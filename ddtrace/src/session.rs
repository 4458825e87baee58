//! [`Session`]: one trace reduction on the engine's [`Reducer`]. It keeps the current trace as
//! entries next to the reducer's best bytes, renders candidates in the input's format, and
//! drops candidates that the reference state rejects before the reducer sees them.

use crate::trace_io::{self, Format};
use crate::validity::Validity;
use model::Entry;
use reduce::{Candidate, Reducer};

/// One reduction in progress (see the module documentation).
pub struct Session<'r, 't> {
    pub reducer: &'r mut Reducer<'t>,
    pub format: Format,
    pub validity: Validity,
    /// The entries of `reducer.best()`.
    pub current: Vec<Entry>,
}

impl<'r, 't> Session<'r, 't> {
    pub fn new(reducer: &'r mut Reducer<'t>, format: Format, current: Vec<Entry>) -> Self {
        let validity = Validity::for_input(&current);
        Session {
            reducer,
            format,
            validity,
            current,
        }
    }

    /// Renders a candidate, or `None` when the reference state rejects it.
    pub fn render_checked(
        format: Format,
        validity: Validity,
        entries: &[Entry],
    ) -> Option<Vec<u8>> {
        validity
            .accepts(entries)
            .then(|| trace_io::render(entries, format))
    }

    /// Considers the candidates `build(0..count)` in order and accepts the first that keeps
    /// the behaviour; `current` follows. Returns whether one was accepted.
    pub fn first_success(
        &mut self,
        pass: &str,
        count: usize,
        mut build: impl FnMut(&[Entry], usize) -> Option<Vec<Entry>>,
    ) -> bool {
        let (format, validity) = (self.format, self.validity);
        let current = &self.current;
        let found = self.reducer.first_success(count, |i| {
            let cand = build(current, i)?;
            Session::render_checked(format, validity, &cand).map(|t| Candidate::new(pass, t))
        });
        match found.and_then(|i| build(&self.current, i)) {
            Some(entries) => {
                self.current = entries;
                true
            }
            None => false,
        }
    }

    /// Re-reads `current` from the reducer's best bytes (after an engine algorithm that
    /// accepted candidates on its own).
    pub fn sync(&mut self) {
        if let Ok((entries, _)) = trace_io::read(self.reducer.best()) {
            self.current = entries;
        }
    }

    pub fn stopped(&self) -> bool {
        self.reducer.stopped()
    }
}
