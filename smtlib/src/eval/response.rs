//! Reading a solver's response: [`read_response`] splits the output of a (possibly
//! incremental) run into one [`Answer`] per `check-sat`: its [`Status`] and the model printed
//! after it, either as `(model ...)` or in Z3's form, a bare list of definitions.
//!
//! Other output is skipped: `success`, `(error ...)` (kept as notes), `get-value` and
//! `get-info` answers, `echo` text.

use super::source::{Src, TermRef};
use crate::NodeId;
use std::rc::Rc;

/// A solver's answer to one `check-sat`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Sat,
    Unsat,
    Unknown,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Sat => "sat",
            Status::Unsat => "unsat",
            Status::Unknown => "unknown",
        }
    }
}

/// One answer: the status line and, if the solver printed one, the model node (read into a
/// [`super::Model`] only when needed, with the problem's sort aliases in scope).
#[derive(Clone, Debug)]
pub struct Answer {
    pub status: Status,
    pub model: Option<TermRef>,
    /// `file:line:column` of the status line.
    pub location: String,
}

/// The answers in order, plus notes about skipped output such as solver errors.
#[derive(Clone, Debug, Default)]
pub struct Response {
    pub answers: Vec<Answer>,
    pub notes: Vec<String>,
}

/// Whether a list looks like a model: `(model ...)`, or a list whose entries are all
/// definitions or declarations (Z3 prints models without the `model` keyword).
fn is_model(src: &Src, node: NodeId) -> bool {
    let tree = &src.tree;
    if !tree.is_list(node) {
        return false;
    }
    if tree.head(node) == Some("model") {
        return true;
    }
    tree.children(node).iter().all(|&c| {
        matches!(
            tree.head(c),
            Some(
                "define-fun"
                    | "define-fun-rec"
                    | "define-funs-rec"
                    | "declare-fun"
                    | "declare-const"
                    | "declare-sort"
                    | "declare-datatypes"
                    | "forall"
            )
        )
    })
}

/// Splits the roots of a parsed response into answers.
pub fn read_response(src: &Rc<Src>) -> Response {
    let tree = &src.tree;
    let mut response = Response::default();
    for &root in tree.roots() {
        if let Some(word) = tree.symbol(root) {
            let status = match word {
                "sat" => Status::Sat,
                "unsat" => Status::Unsat,
                "unknown" => Status::Unknown,
                _ => continue,
            };
            response.answers.push(Answer {
                status,
                model: None,
                location: src.locate(root),
            });
            continue;
        }
        if tree.head(root) == Some("error") {
            response.notes.push(format!(
                "{}: the solver reported {}",
                src.locate(root),
                tree.print_node(root)
            ));
            continue;
        }
        if !is_model(src, root) {
            continue;
        }
        match response.answers.last_mut() {
            Some(answer) if answer.status == Status::Sat && answer.model.is_none() => {
                answer.model = Some(TermRef::new(src, root));
            }
            // An empty list is also an empty get-value/get-info answer: not worth a note.
            _ if tree.children(root).is_empty() => {}
            _ => response.notes.push(format!(
                "{}: a model that follows no sat answer is ignored",
                src.locate(root)
            )),
        }
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_with_both_model_forms() {
        let text = "success\nsat\n(model (define-fun x () Int 1))\nunsat\nsat\n(\n(define-fun y () Bool true)\n)\n((y true))\n(error \"line 9: oops\")\nunknown\n";
        let src = Src::parse(text, "r", 0).unwrap();
        let r = read_response(&src);
        let statuses: Vec<Status> = r.answers.iter().map(|a| a.status).collect();
        assert_eq!(
            statuses,
            [Status::Sat, Status::Unsat, Status::Sat, Status::Unknown]
        );
        assert!(r.answers[0].model.is_some());
        assert!(r.answers[1].model.is_none());
        assert_eq!(r.answers[2].model.as_ref().unwrap().locate(), "r:6:1");
        assert_eq!(r.answers[2].location, "r:5:1");
        assert_eq!(r.notes.len(), 1);
    }
}
