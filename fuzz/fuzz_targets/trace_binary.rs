//! The binary trace reader: any bytes after the magic give a trace or an error, never a panic
//! or an allocation larger than the input; a trace that decodes encodes back to the same
//! entries, and the text form of it parses to them too (both readers accept the same traces).
#![no_main]

use libfuzzer_sys::fuzz_target;
use model::trace::{self, binary, text};

fuzz_target!(|data: &[u8]| {
    let mut bytes = binary::MAGIC.to_vec();
    bytes.extend_from_slice(data);
    if let Ok(parsed) = trace::parse(&bytes) {
        let again = trace::parse(&binary::write_trace(&parsed)).expect("re-encoded decodes");
        assert_eq!(again.entries, parsed.entries);
        let as_text = text::write_recorded_on(&parsed.entries, parsed.z3_version.as_deref());
        let from_text = text::parse(&as_text).expect("the text reader accepts it too");
        assert_eq!(from_text.entries, parsed.entries);
    }
});
