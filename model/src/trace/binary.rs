//! The binary trace format: the magic, the format version, the Z3 version the trace was
//! recorded on, then each [`Entry`] encoded with `bincode` one after the other, so a reader
//! can name the entry where garbage starts.
//!
//! The encoding of an entry is bincode's (varint integers; an enum variant is its index in
//! declaration order). That order is therefore the format: variants of `Call`, `Check`, `Ret`
//! and the id enums are only ever appended, never reordered or removed, and the golden files
//! in `model/tests/golden/` (checked by `model/tests/binary_golden.rs`) fail when an encoding
//! changes. A change that cannot append bumps [`FORMAT`] and keeps reading the older formats.
//!
//! Formats: 1 (entries only), 2 (adds the Z3 version: a u32 length, little-endian, then that
//! many bytes of UTF-8; length 0 when unknown). This reader reads both; writers write 2.

use super::{validate, ErrorKind, ReadError, Trace};
use crate::call::Entry;
use bincode::Options;

/// The first bytes of every binary trace.
pub const MAGIC: &[u8; 8] = b"Z3TRACE\0";

/// The binary format this crate writes.
pub const FORMAT: u32 = 2;

/// The longest Z3 version string a reader accepts (a corrupted length must not allocate).
const MAX_VERSION_LEN: usize = 256;

fn options() -> impl Options {
    bincode::DefaultOptions::new().with_varint_encoding()
}

/// Encodes a trace (its entries and Z3 version) in the binary format.
pub fn write_trace(trace: &Trace) -> Vec<u8> {
    encode(&trace.entries, trace.z3_version.as_deref())
}

/// Encodes entries as a binary trace with no Z3 version.
pub fn write(entries: &[Entry]) -> Vec<u8> {
    encode(entries, None)
}

fn encode(entries: &[Entry], z3_version: Option<&str>) -> Vec<u8> {
    let version = z3_version.unwrap_or("").as_bytes();
    let mut out = Vec::with_capacity(20 + version.len() + entries.len() * 8);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT.to_le_bytes());
    out.extend_from_slice(&(version.len() as u32).to_le_bytes());
    out.extend_from_slice(version);
    for entry in entries {
        // Serializing plain data into a Vec cannot fail.
        options()
            .serialize_into(&mut out, entry)
            .expect("bincode encoding into memory");
    }
    out
}

/// Decodes a binary trace (format 1 or 2); an error names the entry (as its line) that does
/// not decode or breaks a rule both readers enforce ([`validate`]).
pub fn parse(bytes: &[u8]) -> Result<Trace, ReadError> {
    let error = |line: u32, message: String| ReadError {
        kind: ErrorKind::Binary,
        line,
        column: 1,
        message,
    };
    let header = MAGIC.len() + 4;
    if bytes.len() < header || !bytes.starts_with(MAGIC) {
        return Err(error(
            1,
            "not a binary trace: missing the `Z3TRACE` magic".into(),
        ));
    }
    let format = u32::from_le_bytes(bytes[MAGIC.len()..header].try_into().unwrap_or([0; 4]));
    let mut rest = &bytes[header..];
    let mut trace = Trace::default();
    match format {
        1 => {}
        2 => {
            let truncated = || error(1, "truncated header: the Z3 version is cut off".into());
            let len = rest.get(..4).ok_or_else(truncated)?;
            let len = u32::from_le_bytes(len.try_into().unwrap_or([0; 4])) as usize;
            if len > MAX_VERSION_LEN {
                return Err(error(
                    1,
                    format!("a Z3 version of {len} bytes (at most {MAX_VERSION_LEN})"),
                ));
            }
            let text = rest.get(4..4 + len).ok_or_else(truncated)?;
            let text = std::str::from_utf8(text)
                .map_err(|_| error(1, "the Z3 version is not UTF-8".into()))?;
            trace.z3_version = (!text.is_empty()).then(|| text.to_string());
            rest = &rest[4 + len..];
        }
        other => {
            return Err(ReadError {
                kind: ErrorKind::Header,
                ..error(
                    1,
                    format!("binary trace format {other}, this tool reads formats 1 and {FORMAT}"),
                )
            })
        }
    }
    while !rest.is_empty() {
        let number = trace.entries.len() as u32 + 1;
        // The limit keeps a corrupted length prefix from allocating more than the file holds.
        let entry: Entry = options()
            .with_limit(rest.len() as u64)
            .deserialize_from(&mut rest)
            .map_err(|e| {
                // bincode's messages span lines; an error message must stay on one.
                let reason = e
                    .to_string()
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ");
                error(number, format!("entry {number} does not decode: {reason}"))
            })?;
        trace.entries.push(entry);
        trace.lines.push(number);
    }
    validate(&trace)?;
    Ok(trace)
}
