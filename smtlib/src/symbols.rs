//! Symbol and literal helpers: unquoting `|a b|`, quoting when needed, and decoding string
//! literals (`""` escapes and SMT-LIB 2.6 `\u{...}` / `\ud` escapes) to Unicode code points.

use super::lexer::is_symbol_char;

/// The symbol's name without the bars of a quoted symbol (`|a b|` -> `a b`, `x` -> `x`).
pub fn unquote(symbol: &str) -> &str {
    if symbol.len() >= 2 && symbol.starts_with('|') && symbol.ends_with('|') {
        &symbol[1..symbol.len() - 1]
    } else {
        symbol
    }
}

/// The reserved words of SMT-LIB v2.6: made of symbol characters, yet no symbol.
const RESERVED: &[&str] = &[
    "_",
    "!",
    "as",
    "let",
    "exists",
    "forall",
    "match",
    "par",
    "lambda",
    "BINARY",
    "DECIMAL",
    "HEXADECIMAL",
    "NUMERAL",
    "STRING",
];

/// Whether `name` can be written as a simple symbol (no bars needed): symbol characters, no
/// leading digit, not a reserved word.
pub fn is_simple_symbol(name: &str) -> bool {
    let bytes = name.as_bytes();
    !bytes.is_empty()
        && !bytes[0].is_ascii_digit()
        && bytes.iter().all(|&b| is_symbol_char(b))
        && !RESERVED.contains(&name)
}

/// `name` as a symbol token: unchanged if simple, otherwise in bars. Returns `None` for names
/// that no symbol can spell (containing `|` or `\`).
pub fn quote(name: &str) -> Option<String> {
    if is_simple_symbol(name) {
        Some(name.to_string())
    } else if name.contains(['|', '\\']) {
        None
    } else {
        Some(format!("|{name}|"))
    }
}

/// The characters of a string literal as written (with its quotes): `""` is one quote and
/// the escapes `\u{h..}`, `\udddd` name code points; any other backslash is itself.
/// Returns `None` if `literal` is not a quoted string.
pub fn decode_string(literal: &str) -> Option<Vec<u32>> {
    let inner = literal.strip_prefix('"')?.strip_suffix('"')?;
    let chars: Vec<char> = inner.chars().collect();
    let mut out = Vec::with_capacity(chars.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '"' && chars.get(i + 1) == Some(&'"') {
            out.push('"' as u32);
            i += 2;
        } else if c == '\\' && chars.get(i + 1) == Some(&'u') {
            match unicode_escape(&chars[i + 2..]) {
                Some((code, used)) => {
                    out.push(code);
                    i += 2 + used;
                }
                None => {
                    out.push('\\' as u32);
                    i += 1;
                }
            }
        } else {
            out.push(c as u32);
            i += 1;
        }
    }
    Some(out)
}

/// Reads `{h}`..`{hhhhh}` or exactly four hex digits after `\u`; the code point must be at
/// most 0x2FFFF as SMT-LIB 2.6 requires. Returns the code and the characters consumed.
fn unicode_escape(rest: &[char]) -> Option<(u32, usize)> {
    let hex = |cs: &[char]| -> Option<u32> {
        let s: String = cs.iter().collect();
        u32::from_str_radix(&s, 16).ok()
    };
    let code_used = if rest.first() == Some(&'{') {
        let close = rest.iter().position(|&c| c == '}')?;
        if !(2..=6).contains(&close) || !rest[1..close].iter().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        (hex(&rest[1..close])?, close + 1)
    } else {
        if rest.len() < 4 || !rest[..4].iter().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        (hex(&rest[..4])?, 4)
    };
    (code_used.0 <= 0x2FFFF).then_some(code_used)
}

/// A string literal (with quotes) for the given code points: printable ASCII as is, `"` doubled,
/// everything else as `\u{h}`.
pub fn encode_string(chars: &[u32]) -> String {
    let mut out = String::with_capacity(chars.len() + 2);
    out.push('"');
    for &c in chars {
        match char::from_u32(c) {
            Some('"') => out.push_str("\"\""),
            Some(ch) if (' '..='~').contains(&ch) && ch != '\\' => out.push(ch),
            _ => out.push_str(&format!("\\u{{{c:x}}}")),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {

    #[test]
    fn reserved_words_are_quoted() {
        assert!(!is_simple_symbol("let") && !is_simple_symbol("_") && !is_simple_symbol("par"));
        assert_eq!(quote("let").as_deref(), Some("|let|"));
        assert_eq!(quote("lettuce").as_deref(), Some("lettuce"));
    }

    use super::*;

    #[test]
    fn unquote_and_quote() {
        assert_eq!(unquote("|a b|"), "a b");
        assert_eq!(unquote("x"), "x");
        assert_eq!(unquote("||"), "");
        assert_eq!(unquote("|"), "|");
        assert_eq!(quote("x1"), Some("x1".into()));
        assert_eq!(quote("a b"), Some("|a b|".into()));
        assert_eq!(quote("1x"), Some("|1x|".into()));
        assert_eq!(quote("a|b"), None);
    }

    fn check(literal: &str, expected: &str) {
        let decoded = decode_string(literal).expect("a string literal");
        let text: String = decoded
            .iter()
            .map(|&c| char::from_u32(c).unwrap())
            .collect();
        assert_eq!(text, expected, "decoding {literal}");
    }

    #[test]
    fn decode_string_escapes() {
        check("\"\"", "");
        check("\"ab\"", "ab");
        check("\"say \"\"hi\"\"\"", "say \"hi\"");
        check("\"\\u{48}\\u0049\"", "HI");
        check("\"\\u{1F600}\"", "\u{1F600}");
        check("\"\\n\"", "\\n");
        check("\"\\u{}\"", "\\u{}");
        check("\"\\u{3FFFF}\"", "\\u{3FFFF}");
        check("\"\\u12\"", "\\u12");
        assert_eq!(decode_string("abc"), None);
    }

    #[test]
    fn encode_round_trips() {
        for text in ["", "a\"b", "é\\x\n", "\u{2FFFF}"] {
            let chars: Vec<u32> = text.chars().map(|c| c as u32).collect();
            assert_eq!(decode_string(&encode_string(&chars)), Some(chars));
        }
    }
}
