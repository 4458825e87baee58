//! The SMT-LIB v2.6 lexer: turns source text into [`Token`]s with 1-based positions, or a
//! located [`ParseError`] that says what was expected.
//!
//! It works on bytes (every delimiter is ASCII) and keeps columns in characters by counting
//! UTF-8 lead bytes incrementally, so long lines stay linear.

use super::tree::Pos;
use std::fmt;

/// A syntax error at a source position. Displays as `LINE:COL: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: u32,
    pub column: u32,
    pub message: String,
}

impl ParseError {
    pub fn new(pos: Pos, message: impl Into<String>) -> ParseError {
        ParseError {
            line: pos.line,
            column: pos.column,
            message: message.into(),
        }
    }

    /// `FILE:LINE:COL: message`, for tools that report errors of named files.
    pub fn in_file(&self, file: &str) -> String {
        format!("{file}:{self}")
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for ParseError {}

/// What a token is; atoms carry their text in [`Token::text`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    LParen,
    RParen,
    Symbol,
    Keyword,
    Numeral,
    Decimal,
    Hexadecimal,
    Binary,
    String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    pub kind: TokenKind,
    pub text: &'a str,
    pub pos: Pos,
}

/// Characters allowed in simple symbols (letters, digits and `~!@$%^&*_-+=<>.?/`).
const fn symbol_table() -> [bool; 256] {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = b.is_ascii_alphanumeric();
        c += 1;
    }
    let extra = b"~!@$%^&*_-+=<>.?/";
    let mut i = 0;
    while i < extra.len() {
        t[extra[i] as usize] = true;
        i += 1;
    }
    t
}

static SYMBOL_CHAR: [bool; 256] = symbol_table();

/// Whether `b` may appear in a simple symbol.
pub fn is_symbol_char(b: u8) -> bool {
    SYMBOL_CHAR[b as usize]
}

/// A streaming lexer over one source text.
pub struct Lexer<'a> {
    src: &'a str,
    bytes: &'a [u8],
    at: usize,
    line: u32,
    line_start: usize,
    /// UTF-8 continuation bytes between `line_start` and `at`: a column counts characters,
    /// so it is the byte offset on the line minus these. Non-ASCII bytes only occur inside
    /// string literals, quoted symbols and comments, so only those lexers count them, and the
    /// hot path (symbols, numbers, parentheses) computes columns with one subtraction.
    line_continuations: usize,
}

impl<'a> Lexer<'a> {
    pub fn new(src: &'a str) -> Lexer<'a> {
        // A UTF-8 byte order mark is not part of the text; columns start after it.
        let start = if src.starts_with('\u{FEFF}') { 3 } else { 0 };
        Lexer {
            src,
            bytes: src.as_bytes(),
            at: start,
            line: 1,
            line_start: start,
            line_continuations: 0,
        }
    }

    /// The position of byte offset `off`, which must be on the current line, at or after
    /// `self.at` with only ASCII bytes between the two.
    fn pos_of(&self, off: usize) -> Pos {
        Pos {
            line: self.line,
            column: (off - self.line_start - self.line_continuations + 1) as u32,
        }
    }

    fn newline_at(&mut self, off: usize) {
        self.line += 1;
        self.line_start = off + 1;
        self.line_continuations = 0;
    }

    fn error_at(&self, off: usize, message: impl Into<String>) -> ParseError {
        ParseError::new(self.pos_of(off), message)
    }

    /// Skips whitespace and `;` comments.
    #[inline]
    fn skip_trivia(&mut self) {
        let b = self.bytes;
        while self.at < b.len() {
            match b[self.at] {
                b'\n' => {
                    self.newline_at(self.at);
                    self.at += 1;
                }
                b' ' | b'\t' | b'\r' | 0x0C | 0x0B => self.at += 1,
                b';' => {
                    // The newline ending the comment resets the column count, so the
                    // comment's non-ASCII bytes need not be counted.
                    while self.at < b.len() && b[self.at] != b'\n' {
                        self.at += 1;
                    }
                }
                _ => return,
            }
        }
    }

    /// The next token, `Ok(None)` at the end of the input.
    ///
    /// Inlined into the parser's loop: parentheses, simple symbols and numerals (nearly all
    /// tokens) take the short path here; the rarer tokens and errors go to [`Lexer::lex_rare`].
    #[inline]
    pub fn next_token(&mut self) -> Result<Option<Token<'a>>, ParseError> {
        self.skip_trivia();
        let start = self.at;
        let Some(&c) = self.bytes.get(start) else {
            return Ok(None);
        };
        // Taken before lexing: strings and quoted symbols may span lines.
        let pos = self.pos_of(start);
        let kind = match c {
            b'(' => {
                self.at = start + 1;
                TokenKind::LParen
            }
            b')' => {
                self.at = start + 1;
                TokenKind::RParen
            }
            b'0'..=b'9' => self.lex_number(start)?,
            _ if is_symbol_char(c) => {
                self.at = self.scan_symbol_chars(start + 1);
                TokenKind::Symbol
            }
            _ => self.lex_rare(start, pos)?,
        };
        Ok(Some(Token {
            kind,
            text: &self.src[start..self.at],
            pos,
        }))
    }

    /// Literals that start with `#`, `"`, `|` or `:`, and the error for any other character.
    #[inline(never)]
    fn lex_rare(&mut self, start: usize, pos: Pos) -> Result<TokenKind, ParseError> {
        match self.bytes[start] {
            b'#' => self.lex_hash(start),
            b'"' => self.lex_string(start, pos),
            b'|' => self.lex_quoted(start, pos),
            b':' => {
                let end = self.scan_symbol_chars(start + 1);
                if end == start + 1 {
                    return Err(self.error_at(start, "expected a keyword name after ':'"));
                }
                self.at = end;
                Ok(TokenKind::Keyword)
            }
            _ => {
                let ch = self.src[start..].chars().next().unwrap_or('?');
                Err(self.error_at(
                    start,
                    format!(
                        "unexpected character {ch:?}; expected '(', ')', a symbol, a keyword, a literal or a comment"
                    ),
                ))
            }
        }
    }

    fn scan_symbol_chars(&self, mut i: usize) -> usize {
        let b = self.bytes;
        while i < b.len() && is_symbol_char(b[i]) {
            i += 1;
        }
        i
    }

    fn scan_digits(&self, mut i: usize) -> usize {
        let b = self.bytes;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        i
    }

    /// Rejects a literal that runs straight into symbol characters (`12ab`, `#x0g`).
    fn check_literal_end(&mut self, end: usize, what: &str) -> Result<(), ParseError> {
        if end < self.bytes.len() && is_symbol_char(self.bytes[end]) {
            let ch = self.bytes[end] as char;
            return Err(self.error_at(
                end,
                format!(
                    "unexpected {ch:?} in {what}; expected whitespace or a parenthesis after it"
                ),
            ));
        }
        Ok(())
    }

    fn lex_number(&mut self, start: usize) -> Result<TokenKind, ParseError> {
        let end = self.scan_digits(start);
        let b = self.bytes;
        if end < b.len() && b[end] == b'.' {
            let frac_end = self.scan_digits(end + 1);
            if frac_end == end + 1 {
                return Err(self.error_at(end + 1, "bad decimal: expected a digit after '.'"));
            }
            self.check_literal_end(frac_end, "a decimal")?;
            self.at = frac_end;
            return Ok(TokenKind::Decimal);
        }
        self.check_literal_end(end, "a numeral")?;
        self.at = end;
        Ok(TokenKind::Numeral)
    }

    fn lex_hash(&mut self, start: usize) -> Result<TokenKind, ParseError> {
        let b = self.bytes;
        let (kind, digit_ok, name, digit_name): (TokenKind, fn(u8) -> bool, &str, &str) =
            match b.get(start + 1) {
                Some(b'x') => (
                    TokenKind::Hexadecimal,
                    |d: u8| d.is_ascii_hexdigit(),
                    "#x",
                    "hexadecimal digit",
                ),
                Some(b'b') => (
                    TokenKind::Binary,
                    |d: u8| d == b'0' || d == b'1',
                    "#b",
                    "binary digit",
                ),
                _ => {
                    return Err(self.error_at(
                        start,
                        "bad literal: expected 'x' or 'b' after '#' (#x hexadecimal or #b binary)",
                    ))
                }
            };
        let mut end = start + 2;
        while end < b.len() && digit_ok(b[end]) {
            end += 1;
        }
        if end == start + 2 {
            return Err(self.error_at(
                end,
                format!("bad {name} literal: expected at least one {digit_name}"),
            ));
        }
        if end < b.len() && is_symbol_char(b[end]) {
            let ch = b[end] as char;
            return Err(self.error_at(
                end,
                format!("bad {name} literal: {ch:?} is not a {digit_name}"),
            ));
        }
        self.at = end;
        Ok(kind)
    }

    /// A string literal; `""` inside is an escaped quote. Newlines are allowed inside.
    fn lex_string(&mut self, start: usize, pos: Pos) -> Result<TokenKind, ParseError> {
        self.lex_delimited(start, pos, b'"', "string literal")?;
        Ok(TokenKind::String)
    }

    /// A quoted symbol `|...|`; it may span lines but cannot contain `|`.
    fn lex_quoted(&mut self, start: usize, pos: Pos) -> Result<TokenKind, ParseError> {
        self.lex_delimited(start, pos, b'|', "quoted symbol")?;
        Ok(TokenKind::Symbol)
    }

    /// Skips from the opening `close` at `start` past the closing one, counting the lines and
    /// multi-byte characters inside. A doubled `"` is an escaped quote, not the end (`|`
    /// cannot occur in a quoted symbol, so the check never fires for it).
    fn lex_delimited(
        &mut self,
        start: usize,
        pos: Pos,
        close: u8,
        what: &str,
    ) -> Result<(), ParseError> {
        let b = self.bytes;
        let mut i = start + 1;
        loop {
            match b.get(i) {
                None => {
                    let close = close as char;
                    return Err(ParseError::new(
                        pos,
                        format!("unterminated {what}: expected a closing '{close}'"),
                    ));
                }
                Some(&c) if c == close => {
                    if c == b'"' && b.get(i + 1) == Some(&b'"') {
                        i += 2;
                    } else {
                        self.at = i + 1;
                        return Ok(());
                    }
                }
                Some(b'\n') => {
                    self.newline_at(i);
                    i += 1;
                }
                Some(&c) => {
                    self.line_continuations += usize::from(c & 0xC0 == 0x80);
                    i += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (line, column) of every token of `src`.
    fn positions(src: &str) -> Vec<(u32, u32)> {
        let mut lexer = Lexer::new(src);
        let mut out = Vec::new();
        while let Some(t) = lexer.next_token().expect("lexes") {
            out.push((t.pos.line, t.pos.column));
        }
        out
    }

    #[test]
    fn columns_count_characters_after_non_ascii_strings_and_quoted_symbols() {
        // "é" is 2 bytes, "日本" 6 bytes: later columns on the line count characters.
        assert_eq!(
            positions("(a \"é\" |日本| b)"),
            vec![(1, 1), (1, 2), (1, 4), (1, 8), (1, 13), (1, 14)]
        );
    }

    #[test]
    fn columns_restart_inside_multi_line_literals_and_after_comments() {
        // The string spans lines 1-2; `x` follows it on line 2 after "é" (one character).
        assert_eq!(
            positions("(s \"ü\né\" x)\n; ümlaut\ny"),
            vec![(1, 1), (1, 2), (1, 4), (2, 4), (2, 5), (4, 1)]
        );
    }

    #[test]
    fn byte_order_mark_is_not_a_column() {
        assert_eq!(positions("\u{FEFF}(a)"), vec![(1, 1), (1, 2), (1, 3)]);
    }

    #[test]
    fn error_columns_count_characters() {
        let mut lexer = Lexer::new("\"é\" 12ab");
        assert!(lexer.next_token().unwrap().is_some());
        let e = lexer.next_token().unwrap_err();
        assert_eq!((e.line, e.column), (1, 7), "{e}");
    }
}
