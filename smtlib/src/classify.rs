//! Classifying nodes: which SMT-LIB command a top-level list is ([`Command`]) and what shape
//! a term node has ([`TermShape`]), so tools can match on enums instead of head strings.

use super::tree::{Atom, NodeId, Tree};

/// The SMT-LIB v2.6 commands (plus the Z3/cvc5 extensions real scripts contain).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    SetLogic,
    SetOption,
    SetInfo,
    DeclareSort,
    DefineSort,
    DeclareFun,
    DeclareConst,
    DefineFun,
    DefineFunRec,
    DefineFunsRec,
    DefineConst,
    DeclareDatatype,
    DeclareDatatypes,
    Push,
    Pop,
    Assert,
    CheckSat,
    CheckSatAssuming,
    GetValue,
    GetModel,
    GetUnsatCore,
    GetUnsatAssumptions,
    GetAssertions,
    GetAssignment,
    GetProof,
    GetInfo,
    GetOption,
    Reset,
    ResetAssertions,
    Echo,
    Exit,
    /// Any other head symbol (`simplify`, `eval`, `get-qe`, ...).
    Other,
}

impl Command {
    /// The command named `head`, [`Command::Other`] for unknown names.
    pub fn from_head(head: &str) -> Command {
        use Command::*;
        match head {
            "set-logic" => SetLogic,
            "set-option" => SetOption,
            "set-info" => SetInfo,
            "declare-sort" => DeclareSort,
            "define-sort" => DefineSort,
            "declare-fun" => DeclareFun,
            "declare-const" => DeclareConst,
            "define-fun" => DefineFun,
            "define-fun-rec" => DefineFunRec,
            "define-funs-rec" => DefineFunsRec,
            "define-const" => DefineConst,
            "declare-datatype" => DeclareDatatype,
            "declare-datatypes" => DeclareDatatypes,
            "push" => Push,
            "pop" => Pop,
            "assert" => Assert,
            "check-sat" => CheckSat,
            "check-sat-assuming" => CheckSatAssuming,
            "get-value" => GetValue,
            "get-model" => GetModel,
            "get-unsat-core" => GetUnsatCore,
            "get-unsat-assumptions" => GetUnsatAssumptions,
            "get-assertions" => GetAssertions,
            "get-assignment" => GetAssignment,
            "get-proof" => GetProof,
            "get-info" => GetInfo,
            "get-option" => GetOption,
            "reset" => Reset,
            "reset-assertions" => ResetAssertions,
            "echo" => Echo,
            "exit" => Exit,
            _ => Other,
        }
    }

    /// Whether the command declares or defines a symbol or sort.
    pub fn is_declaration(self) -> bool {
        use Command::*;
        matches!(
            self,
            DeclareSort
                | DefineSort
                | DeclareFun
                | DeclareConst
                | DefineFun
                | DefineFunRec
                | DefineFunsRec
                | DefineConst
                | DeclareDatatype
                | DeclareDatatypes
        )
    }
}

/// The command a top-level node is, `None` for atoms and lists without a symbol head
/// (solver responses such as `sat` or `((x 1))`).
pub fn command(tree: &Tree, id: NodeId) -> Option<Command> {
    tree.head(id).map(Command::from_head)
}

/// The shape of a node in a term position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TermShape {
    /// A numeral, decimal, `#x`, `#b` or string literal.
    Literal,
    /// A symbol: a constant, a variable or a nullary function.
    Symbol,
    /// `(_ NAME INDEX ...)` used as a constant, e.g. `(_ bv5 8)`.
    Indexed,
    /// `(as NAME SORT)` used as a constant.
    Qualified,
    /// `(f arg ...)`, where `f` may be indexed or qualified.
    Application,
    Let,
    Forall,
    Exists,
    Lambda,
    Match,
    /// `(! term attribute ...)`.
    Annotated,
    /// A keyword or `()`: not a term.
    Invalid,
}

/// The shape of the term at `id` (judged by syntax only).
pub fn term_shape(tree: &Tree, id: NodeId) -> TermShape {
    match tree.atom(id) {
        Some(Atom::Symbol(_)) => return TermShape::Symbol,
        Some(Atom::Keyword(_)) => return TermShape::Invalid,
        Some(_) => return TermShape::Literal,
        None => {}
    }
    if tree.children(id).is_empty() {
        return TermShape::Invalid;
    }
    match tree.head(id) {
        Some("_") => TermShape::Indexed,
        Some("as") => TermShape::Qualified,
        Some("let") => TermShape::Let,
        Some("forall") => TermShape::Forall,
        Some("exists") => TermShape::Exists,
        Some("lambda") => TermShape::Lambda,
        Some("match") => TermShape::Match,
        Some("!") => TermShape::Annotated,
        _ => TermShape::Application,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str, expected: TermShape) {
        let tree = Tree::parse(input).unwrap();
        assert_eq!(term_shape(&tree, tree.roots()[0]), expected, "{input}");
    }

    #[test]
    fn term_shapes() {
        let cases = [
            ("42", TermShape::Literal),
            ("#b1", TermShape::Literal),
            ("\"s\"", TermShape::Literal),
            ("x", TermShape::Symbol),
            ("|x y|", TermShape::Symbol),
            ("(_ bv1 8)", TermShape::Indexed),
            ("(as nil (List Int))", TermShape::Qualified),
            ("((_ extract 1 0) x)", TermShape::Application),
            ("((as const (Array Int Int)) 0)", TermShape::Application),
            ("(f x)", TermShape::Application),
            ("(let ((a 1)) a)", TermShape::Let),
            ("(forall ((a Int)) true)", TermShape::Forall),
            ("(exists ((a Int)) true)", TermShape::Exists),
            ("(lambda ((a Int)) a)", TermShape::Lambda),
            ("(match x ((a a)))", TermShape::Match),
            ("(! p :named n)", TermShape::Annotated),
            (":k", TermShape::Invalid),
            ("()", TermShape::Invalid),
        ];
        for (input, expected) in cases {
            check(input, expected);
        }
    }

    #[test]
    fn commands() {
        let tree = Tree::parse("(set-logic QF_BV)(assert true)(simplify x)sat((x 1))").unwrap();
        let kinds: Vec<Option<Command>> = tree.roots().iter().map(|&r| command(&tree, r)).collect();
        assert_eq!(
            kinds,
            [
                Some(Command::SetLogic),
                Some(Command::Assert),
                Some(Command::Other),
                None,
                None
            ]
        );
        assert!(Command::DeclareDatatypes.is_declaration());
        assert!(!Command::Assert.is_declaration());
    }
}
