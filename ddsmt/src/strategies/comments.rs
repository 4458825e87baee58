//! Comments: the SMT-LIB tree has none (the parser drops them), so every candidate a tree
//! strategy prints lacks the input's comments. When the property needs a comment (a pattern
//! that only a comment holds, a command that reads its input as text), no such candidate can
//! keep the behaviour; [`lines`] then reduces the text line by line first (ddmin over lines,
//! every candidate still parsing, as the reducer's filter asks), keeping the comment lines
//! that matter.

use super::Session;
use reduce::{ddmin, Candidate};

/// Whether `text` has a `;` comment (outside string literals and quoted symbols).
pub fn has_comment(text: &str) -> bool {
    let mut quote: Option<char> = None;
    for ch in text.chars() {
        match (quote, ch) {
            (None, ';') => return true,
            (None, '"' | '|') => quote = Some(ch),
            (Some(q), c) if c == q => quote = None,
            _ => {}
        }
    }
    false
}

/// If the best result has comments and the same text without them (the tree printed) does
/// not keep the behaviour, ddmin over its lines. Returns whether something was accepted.
pub fn lines(s: &mut Session) -> bool {
    let Some(text) = std::str::from_utf8(s.reducer.best())
        .ok()
        .map(str::to_string)
    else {
        return false;
    };
    if !has_comment(&text) {
        return false;
    }
    let Some(cur) = s.current() else {
        return false;
    };
    let printed = s.render(&cur.tree, &[]);
    let before = s.reducer.successes();
    if s.reducer
        .first_success(1, |_| Some(Candidate::new("comments", printed.clone())))
        .is_some()
    {
        return true;
    }
    s.reducer.set_phase("comments: lines");
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    ddmin(s.reducer, "comment-lines", lines.len(), |keep| {
        let kept: String = lines
            .iter()
            .zip(keep)
            .filter(|(_, k)| **k)
            .map(|(l, _)| *l)
            .collect();
        Some(kept.into_bytes())
    });
    s.reducer.successes() != before
}

#[cfg(test)]
mod tests {
    use super::has_comment;

    #[test]
    fn comments_are_found_outside_literals_only() {
        assert!(has_comment("(assert x) ; note\n"));
        assert!(!has_comment("(echo \"a;b\")\n(declare-const |c;d| Int)\n"));
        assert!(has_comment("(echo \"a\") ;\n"));
    }
}
