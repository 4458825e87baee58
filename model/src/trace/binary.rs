//! The binary trace format: the magic, the version, then each [`Entry`] encoded with
//! `bincode` one after the other, so a reader can name the entry where garbage starts.

use super::{ErrorKind, ReadError, Trace, VERSION};
use crate::call::Entry;
use bincode::Options;

/// The first bytes of every binary trace.
pub const MAGIC: &[u8; 8] = b"Z3TRACE\0";

fn options() -> impl Options {
    bincode::DefaultOptions::new().with_varint_encoding()
}

/// Encodes entries as a binary trace.
pub fn write(entries: &[Entry]) -> Vec<u8> {
    let mut out = Vec::with_capacity(16 + entries.len() * 8);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    for entry in entries {
        // Serializing plain data into a Vec cannot fail.
        options()
            .serialize_into(&mut out, entry)
            .expect("bincode encoding into memory");
    }
    out
}

/// Decodes a binary trace; an error names the entry (as its line) that does not decode.
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
    let version = u32::from_le_bytes(bytes[MAGIC.len()..header].try_into().unwrap_or([0; 4]));
    if version != VERSION {
        return Err(ReadError {
            kind: ErrorKind::Header,
            ..error(
                1,
                format!("binary trace version {version}, this tool reads version {VERSION}"),
            )
        });
    }
    let mut rest = &bytes[header..];
    let mut trace = Trace::default();
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
    Ok(trace)
}
