//! Where terms come from: a [`Src`] is a parsed piece of a named file (the whole file, or in
//! the low-memory mode one group of statements) with the line offset that maps its positions
//! back to the file; a [`TermRef`] is a node of one. [`StatementReader`] splits a file into
//! such groups while reading it line by line, so a huge problem never sits in memory whole.

use crate::{NodeId, Tree};
use std::fmt;
use std::io::BufRead;
use std::rc::Rc;

/// A parsed tree plus the file it came from.
#[derive(Debug)]
pub struct Src {
    pub tree: Tree,
    /// The file name used in messages (`<api>` for terms handed over by a library caller).
    pub label: String,
    /// Added to the tree's 1-based line numbers to get the file's.
    pub line_offset: u32,
}

impl Src {
    /// Parses `text` (the lines of `label` starting after `line_offset`).
    pub fn parse(text: &str, label: &str, line_offset: u32) -> Result<Rc<Src>, Located> {
        match Tree::parse(text) {
            Ok(tree) => Ok(Rc::new(Src {
                tree,
                label: label.to_string(),
                line_offset,
            })),
            Err(e) => Err(Located {
                file: label.to_string(),
                line: e.line + line_offset,
                column: e.column,
                message: e.message,
            }),
        }
    }

    /// Wraps an already parsed tree.
    pub fn from_tree(tree: Tree, label: &str) -> Rc<Src> {
        Rc::new(Src {
            tree,
            label: label.to_string(),
            line_offset: 0,
        })
    }

    /// `(line, column)` of a node in the file.
    pub fn position(&self, node: NodeId) -> (u32, u32) {
        let pos = self.tree.pos(node);
        (pos.line + self.line_offset, pos.column)
    }

    /// `file:line:column` of a node.
    pub fn locate(&self, node: NodeId) -> String {
        let (line, column) = self.position(node);
        format!("{}:{line}:{column}", self.label)
    }

    pub fn at(&self, node: NodeId, message: impl Into<String>) -> Located {
        let (line, column) = self.position(node);
        Located {
            file: self.label.clone(),
            line,
            column,
            message: message.into(),
        }
    }
}

/// A node of a shared [`Src`]; cheap to clone.
#[derive(Clone, Debug)]
pub struct TermRef {
    pub src: Rc<Src>,
    pub node: NodeId,
}

impl TermRef {
    pub fn new(src: &Rc<Src>, node: NodeId) -> TermRef {
        TermRef {
            src: src.clone(),
            node,
        }
    }

    pub fn tree(&self) -> &Tree {
        &self.src.tree
    }

    pub fn locate(&self) -> String {
        self.src.locate(self.node)
    }
}

/// An error at a file position; displays as `file:line:column: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located {
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub message: String,
}

impl fmt::Display for Located {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // An error is one line: a message that quotes the input (a symbol `|a\nb|`, a string)
        // shows its line breaks escaped.
        let message = self.message.replace('\r', "\\r").replace('\n', "\\n");
        if self.line == 0 {
            // Not about a position in the file (e.g. the file cannot be read).
            return write!(f, "{}: {}", self.file, message);
        }
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.column, message
        )
    }
}

impl std::error::Error for Located {}

/// Reads a file as groups of whole lines that hold only complete top-level S-expressions.
pub struct StatementReader<R> {
    input: R,
    label: String,
    next_line: u32,
    scanner: Scanner,
}

impl<R: BufRead> StatementReader<R> {
    pub fn new(input: R, label: &str) -> StatementReader<R> {
        StatementReader {
            input,
            label: label.to_string(),
            next_line: 1,
            scanner: Scanner::default(),
        }
    }

    /// The next group of complete statements, parsed; `None` at the end of the file.
    pub fn next_group(&mut self) -> Option<Result<Rc<Src>, Located>> {
        let first_line = self.next_line;
        let mut text = String::new();
        let mut line = String::new();
        loop {
            line.clear();
            match self.input.read_line(&mut line) {
                Ok(0) => break,
                Ok(_) => {
                    self.next_line += 1;
                    self.scanner.scan(&line);
                    text.push_str(&line);
                    if self.scanner.at_top_level() && !text.trim().is_empty() {
                        break;
                    }
                }
                Err(e) => {
                    return Some(Err(Located {
                        file: self.label.clone(),
                        line: self.next_line,
                        column: 1,
                        message: format!("cannot read: {e}"),
                    }))
                }
            }
        }
        if text.trim().is_empty() {
            return None;
        }
        // The text may end inside an unfinished S-expression: the parser reports it.
        Some(Src::parse(&text, &self.label, first_line - 1))
    }
}

/// Tracks nesting across lines: parentheses outside strings, quoted symbols and comments.
#[derive(Default)]
struct Scanner {
    depth: usize,
    in_string: bool,
    in_quoted: bool,
}

impl Scanner {
    fn scan(&mut self, line: &str) {
        for b in line.bytes() {
            if self.in_string {
                // A `""` escape toggles twice, which leaves the state right.
                self.in_string = b != b'"';
            } else if self.in_quoted {
                self.in_quoted = b != b'|';
            } else {
                match b {
                    b'"' => self.in_string = true,
                    b'|' => self.in_quoted = true,
                    b';' => break,
                    b'(' => self.depth += 1,
                    b')' => self.depth = self.depth.saturating_sub(1),
                    _ => {}
                }
            }
        }
    }

    fn at_top_level(&self) -> bool {
        self.depth == 0 && !self.in_string && !self.in_quoted
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::unquote;

    #[test]
    fn groups_keep_file_lines() {
        let text = "(set-logic ALL) ; (\n(assert\n  (= \"a)\" |b(|))\n\n(check-sat)\n";
        let mut reader = StatementReader::new(text.as_bytes(), "p.smt2");
        let first = reader.next_group().unwrap().unwrap();
        assert_eq!(first.tree.roots().len(), 1);
        let second = reader.next_group().unwrap().unwrap();
        assert_eq!(second.tree.head(second.tree.roots()[0]), Some("assert"));
        assert_eq!(second.locate(second.tree.roots()[0]), "p.smt2:2:1");
        let third = reader.next_group().unwrap().unwrap();
        assert_eq!(third.locate(third.tree.roots()[0]), "p.smt2:5:1");
        assert!(reader.next_group().is_none());
    }

    #[test]
    fn unfinished_statement_is_a_located_error() {
        let mut reader = StatementReader::new("(check-sat)\n(assert (= 1\n".as_bytes(), "p");
        assert!(reader.next_group().unwrap().is_ok());
        let err = reader.next_group().unwrap().unwrap_err();
        assert_eq!(err.line, 2);
        assert_eq!(unquote("|a b|"), "a b");
    }
}
