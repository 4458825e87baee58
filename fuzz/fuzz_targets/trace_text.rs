//! The text trace reader and the reference state: any bytes give a trace or a located error,
//! never a panic; a trace that parses writes back to text that parses to the same entries.
#![no_main]

use libfuzzer_sys::fuzz_target;
use model::trace::{self, text};

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(parsed) = text::parse(source) {
        let written = text::write_recorded_on(&parsed.entries, parsed.z3_version.as_deref());
        let again = text::parse(&written).expect("a written trace parses");
        assert_eq!(again.entries, parsed.entries);
        let mut state = model::State::new();
        for entry in &parsed.entries {
            if state.apply(&entry.call, entry.ret.as_ref()).is_err() {
                break;
            }
        }
    }
    let _ = trace::parse(data);
});
