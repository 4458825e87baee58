//! The sort of every term: an explicit work stack over the term (enter, bind, exit), atoms,
//! applications of theory symbols, declared functions, constructors, selectors and testers.

use super::*;

impl<'t> Inference<'t> {
    /// Types the term at `root` and everything in it; returns its sort.
    pub(super) fn term(&mut self, root: NodeId) -> Result<Option<Sort>, SortError> {
        let mut work = vec![Work::Enter(root)];
        while let Some(item) = work.pop() {
            match item {
                Work::Enter(id) => self.enter(id, &mut work)?,
                Work::Exit(id) => self.exit(id)?,
                Work::BindLet(id) => self.bind_let(id),
                Work::BindVars(id) => self.bind_vars(id)?,
                Work::BindCase { case, scrutinee } => self.bind_case(case, scrutinee)?,
                Work::EndScope => {
                    if let Some(mark) = self.scope_marks.pop() {
                        self.funs.undo_to(mark);
                    }
                }
            }
        }
        Ok(self.sorts[root.index()].clone())
    }

    pub(super) fn set(&mut self, id: NodeId, sort: Sort) {
        self.sorts[id.index()] = Some(sort);
    }

    pub(super) fn enter(&mut self, id: NodeId, work: &mut Vec<Work>) -> Step {
        let tree = self.tree;
        let kids = tree.children(id);
        match tree.kind(id) {
            NodeKind::Atom(atom) => return self.atom(id, atom),
            NodeKind::List if kids.is_empty() => return self.fail(id, "expected a term; got ()"),
            NodeKind::List => {}
        }
        match tree.head(id) {
            Some("let") => {
                let [_, bindings, _body] = kids else {
                    return self.fail(id, "expected (let ((NAME TERM) ...) TERM)");
                };
                work.extend([
                    Work::Exit(id),
                    Work::EndScope,
                    Work::Enter(kids[2]),
                    Work::BindLet(id),
                ]);
                for &b in tree.children(*bindings).iter().rev() {
                    match tree.children(b) {
                        [name, value] if tree.symbol(*name).is_some() => {
                            work.push(Work::Enter(*value))
                        }
                        _ => return self.fail(b, "expected a binding (NAME TERM)"),
                    }
                }
            }
            Some("forall" | "exists" | "lambda") => {
                let [_, _vars, body] = kids else {
                    return self.fail(id, "expected (forall ((NAME SORT) ...) TERM)");
                };
                work.extend([
                    Work::Exit(id),
                    Work::EndScope,
                    Work::Enter(*body),
                    Work::BindVars(id),
                ]);
            }
            Some("match") => {
                let [_, scrutinee, cases] = kids else {
                    return self.fail(id, "expected (match TERM ((PATTERN TERM) ...))");
                };
                // Every case is checked before the exit is scheduled: the exit reads each
                // case's body, and a lenient failure below would leave it scheduled.
                for &case in tree.children(*cases) {
                    if tree.children(case).len() != 2 {
                        return self.fail(case, "expected a match case (PATTERN TERM)");
                    }
                }
                work.push(Work::Exit(id));
                for &case in tree.children(*cases).iter().rev() {
                    let [_pattern, body] = tree.children(case) else {
                        return self.fail(case, "expected a match case (PATTERN TERM)");
                    };
                    work.extend([
                        Work::EndScope,
                        Work::Enter(*body),
                        Work::BindCase {
                            case,
                            scrutinee: *scrutinee,
                        },
                    ]);
                }
                work.push(Work::Enter(*scrutinee));
            }
            Some("!") => {
                if kids.len() < 2 {
                    return self.fail(id, "expected (! TERM ATTRIBUTE ...)");
                }
                work.push(Work::Exit(id));
                // Pattern terms are typed in the scope of the annotated term's binders.
                for pair in kids[2..].windows(2).rev() {
                    if matches!(tree.atom(pair[0]), Some(Atom::Keyword(k)) if k == ":pattern" || k == ":no-pattern")
                    {
                        if tree.is_list(pair[1]) && tree.head(pair[1]).is_none() {
                            for &p in tree.children(pair[1]).iter().rev() {
                                work.push(Work::Enter(p));
                            }
                        } else {
                            work.push(Work::Enter(pair[1]));
                        }
                    }
                }
                work.push(Work::Enter(kids[1]));
            }
            Some("_") | Some("as") => {
                // An indexed or qualified constant used as a term.
                return self.application(id, id, &[]);
            }
            _ => {
                work.push(Work::Exit(id));
                for &arg in kids[1..].iter().rev() {
                    work.push(Work::Enter(arg));
                }
            }
        }
        Ok(())
    }

    pub(super) fn atom(&mut self, id: NodeId, atom: &Atom) -> Step {
        let sort = match atom {
            Atom::Numeral(_) => Sort::Int,
            Atom::Decimal(_) => Sort::Real,
            Atom::Hexadecimal(h) => match u32::try_from(h.len().saturating_sub(2) * 4) {
                Ok(w) => Sort::BitVec(w),
                Err(_) => return self.fail(id, "the #x literal is too wide"),
            },
            Atom::Binary(b) => match u32::try_from(b.len().saturating_sub(2)) {
                Ok(w) => Sort::BitVec(w),
                Err(_) => return self.fail(id, "the #b literal is too wide"),
            },
            Atom::String(_) => Sort::String,
            Atom::Keyword(k) => return self.fail(id, format!("expected a term; got keyword {k}")),
            Atom::Symbol(_) => return self.application(id, id, &[]),
        };
        self.set(id, sort);
        Ok(())
    }

    pub(super) fn exit(&mut self, id: NodeId) -> Step {
        let kids = self.kids(id);
        match self.tree.head(id) {
            Some("let") => self.copy_sort(id, kids[2]),
            Some("!") => self.copy_sort(id, kids[1]),
            Some("forall" | "exists") => {
                match self.sorts[kids[2].index()].clone() {
                    Some(Sort::Bool) => self.set(id, Sort::Bool),
                    Some(other) => {
                        return self.fail(
                            kids[2],
                            format!("a quantifier body must be Bool; got {other}"),
                        )
                    }
                    None => {}
                }
                Ok(())
            }
            Some("lambda") => {
                let vars = self.lambda_vars(kids[1]);
                match (vars.as_deref(), self.sorts[kids[2].index()].clone()) {
                    (Some([index]), Some(body)) => {
                        self.set(id, Sort::array(index.clone(), body));
                        Ok(())
                    }
                    (Some(_), Some(_)) => {
                        self.fail(id, "only lambdas of one variable have an array sort")
                    }
                    _ => Ok(()),
                }
            }
            Some("match") => {
                let mut result: Option<Sort> = None;
                for &case in self.kids(kids[2]) {
                    let body = self.kids(case)[1];
                    let Some(sort) = self.sorts[body.index()].clone() else {
                        return Ok(());
                    };
                    result = match result {
                        None => Some(sort),
                        Some(r) => match join(&r, &sort) {
                            Some(j) => Some(j),
                            None => {
                                return self.fail(
                                    body,
                                    format!("match cases have different sorts {r} and {sort}"),
                                )
                            }
                        },
                    };
                }
                match result {
                    Some(r) => {
                        self.set(id, r);
                        Ok(())
                    }
                    None => self.fail(id, "a match needs at least one case"),
                }
            }
            _ => self.application(id, kids[0], &kids[1..]),
        }
    }

    pub(super) fn copy_sort(&mut self, to: NodeId, from: NodeId) -> Step {
        if let Some(sort) = self.sorts[from.index()].clone() {
            if self.tree.head(to) == Some("!") {
                self.note_names(to, &sort);
            }
            self.set(to, sort);
        }
        Ok(())
    }

    pub(super) fn note_names(&mut self, id: NodeId, sort: &Sort) {
        let kids = self.kids(id);
        for pair in kids[2..].windows(2) {
            if matches!(self.tree.atom(pair[0]), Some(Atom::Keyword(k)) if k == ":named") {
                if let Some(name) = self.name_of(pair[1]) {
                    self.pending_names.push((name.to_string(), sort.clone()));
                }
            }
        }
    }

    pub(super) fn lambda_vars(&self, vars: NodeId) -> Option<Vec<Sort>> {
        self.kids(vars)
            .iter()
            .map(|&v| match self.kids(v) {
                [_, s] => self.parse_sort(*s, 0).ok(),
                _ => None,
            })
            .collect()
    }

    pub(super) fn bind_let(&mut self, id: NodeId) {
        self.scope_marks.push(self.funs.mark());
        let bindings = self.kids(self.kids(id)[1]);
        // All values were typed in the outer scope; now bind the names for the body.
        for &b in bindings {
            if let [name, value] = self.kids(b) {
                let sort = self.sorts[value.index()].clone();
                if let Some(name) = self.name_of(*name) {
                    self.funs.insert(name, sort.map(variable));
                }
            }
        }
    }

    pub(super) fn bind_vars(&mut self, id: NodeId) -> Step {
        self.scope_marks.push(self.funs.mark());
        if let Some(vars) = self.sorted_vars(self.kids(id)[1])? {
            for (name, sort) in vars {
                self.funs.insert(&name, sort.map(variable));
            }
        }
        Ok(())
    }

    pub(super) fn bind_case(&mut self, case: NodeId, scrutinee: NodeId) -> Step {
        self.scope_marks.push(self.funs.mark());
        let pattern = self.kids(case)[0];
        let scrutinee_sort = self.sorts[scrutinee.index()].clone();
        let (ctor, vars): (Option<&str>, &[NodeId]) = match self.tree.symbol(pattern) {
            Some(s) => (Some(unquote(s)), &[]),
            None => match self.kids(pattern).split_first() {
                Some((&c, vars)) => (self.name_of(c), vars),
                None => (None, &[]),
            },
        };
        let Some(ctor) = ctor else {
            return self.fail(
                pattern,
                "expected a pattern: a constructor, a variable or (CONSTRUCTOR VAR ...)",
            );
        };
        let decl = match self.funs.get(ctor) {
            Some(Some(d)) if d.kind == FunctionKind::Constructor => Some(d.clone()),
            _ => None,
        };
        match decl {
            // A nullary constructor pattern binds nothing.
            Some(d) if vars.is_empty() && d.args.is_empty() => Ok(()),
            Some(d) if vars.len() == d.args.len() => {
                let fields: Vec<Option<Sort>> = match &scrutinee_sort {
                    Some(s) => {
                        let mut binding = HashMap::new();
                        if unify(&d.result, s, &d.params, &mut binding) {
                            d.args
                                .iter()
                                .map(|a| Some(substitute(a, &binding)))
                                .collect()
                        } else {
                            return self
                                .fail(pattern, format!("constructor '{ctor}' does not build {s}"));
                        }
                    }
                    None => vec![None; vars.len()],
                };
                for (&v, sort) in vars.iter().zip(fields) {
                    if let Some(name) = self.name_of(v) {
                        self.funs.insert(name, sort.map(variable));
                    }
                }
                Ok(())
            }
            Some(d) => self.fail(
                pattern,
                format!(
                    "constructor '{ctor}' has {} field(s); the pattern binds {}",
                    d.args.len(),
                    vars.len()
                ),
            ),
            // A variable pattern binds the whole scrutinee.
            None if vars.is_empty() => {
                self.funs.insert(ctor, scrutinee_sort.map(variable));
                Ok(())
            }
            None => self.fail(pattern, format!("'{ctor}' is not a constructor")),
        }
    }

    /// Types node `id`: `head` applied to `args` (or a constant when `args` is empty).
    pub(super) fn application(&mut self, id: NodeId, head: NodeId, args: &[NodeId]) -> Step {
        let mut arg_sorts = Vec::with_capacity(args.len());
        for &a in args {
            match &self.sorts[a.index()] {
                Some(s) => arg_sorts.push(s.clone()),
                // An argument failed already; the failure was reported there.
                None => return Ok(()),
            }
        }
        let ident = match self.ident(head) {
            Ok(ident) => ident,
            Err((at, message)) => return self.fail(at, message),
        };
        match self.rank_of(&ident, &arg_sorts) {
            Ok(Some(sort)) => {
                self.set(id, sort);
                Ok(())
            }
            Ok(None) => Ok(()),
            Err(message) => self.fail(id, message),
        }
    }

    pub(super) fn ident(&self, id: NodeId) -> Result<Ident, (NodeId, String)> {
        if let Some(text) = self.tree.symbol(id) {
            return Ok(Ident {
                name: unquote(text).to_string(),
                indices: Vec::new(),
                as_sort: None,
            });
        }
        let kids = self.kids(id);
        match self.tree.head(id) {
            Some("_") if kids.len() >= 3 => {
                let name = self
                    .name_of(kids[1])
                    .ok_or((kids[1], "expected a symbol after '_'".to_string()))?;
                let mut indices = Vec::new();
                for &k in &kids[2..] {
                    indices.push(match self.tree.atom(k) {
                        Some(Atom::Numeral(n)) => Index::Num(
                            n.parse()
                                .map_err(|_| (k, format!("the index {n} is too large")))?,
                        ),
                        Some(Atom::Symbol(s)) => Index::Sym(unquote(s).to_string()),
                        _ => return Err((k, "expected a numeral or symbol index".into())),
                    });
                }
                Ok(Ident {
                    name: name.to_string(),
                    indices,
                    as_sort: None,
                })
            }
            Some("as") if kids.len() == 3 => {
                let inner = self.ident(kids[1])?;
                if inner.as_sort.is_some() {
                    return Err((kids[1], "nested (as ...) is not an identifier".into()));
                }
                let sort = self.parse_sort(kids[2], 0)?;
                Ok(Ident {
                    as_sort: Some(sort),
                    ..inner
                })
            }
            _ => Err((
                id,
                "expected a function symbol, an indexed identifier (_ NAME INDEX ...) or (as NAME SORT)".into(),
            )),
        }
    }

    /// The result sort of `ident` applied to `args`; `Ok(None)` for a bound variable of
    /// unknown sort (lenient mode).
    pub(super) fn rank_of(&self, ident: &Ident, args: &[Sort]) -> Result<Option<Sort>, String> {
        let name = ident.name.as_str();
        if ident.indices.is_empty() {
            match self.funs.get(name) {
                Some(None) => return Ok(None),
                Some(Some(decl)) => {
                    return instantiate(name, decl, args, ident.as_sort.as_ref()).map(Some)
                }
                None => {}
            }
        }
        let result = match (name, ident.indices.as_slice(), &ident.as_sort) {
            ("const", [], Some(array @ Sort::Array(_, element))) => match args {
                [v] if accepts(element, v) => Ok(array.clone()),
                _ => Err(format!(
                    "(as const {array}) expects one value of sort {element}"
                )),
            },
            ("seq.empty", [], Some(seq @ Sort::Seq(_))) if args.is_empty() => Ok(seq.clone()),
            ("is", [Index::Sym(ctor)], _) => self.tester(ctor, args),
            ("as-array", [Index::Sym(f)], _) => match self.funs.get(f) {
                Some(Some(FunctionDecl {
                    args: fargs,
                    result,
                    ..
                })) if fargs.len() == 1 => Ok(Sort::array(fargs[0].clone(), result.clone())),
                _ => Err(format!("(_ as-array {f}) needs a function of one argument")),
            },
            _ => match name.strip_prefix("is-") {
                Some(ctor) if ident.indices.is_empty() && self.is_constructor(ctor) => {
                    self.tester(ctor, args)
                }
                _ => match builtin(name, &ident.indices, args) {
                    Some(r) => r,
                    None if args.is_empty() => Err(format!("unknown constant '{name}'")),
                    None => Err(format!("unknown function symbol '{name}'")),
                },
            },
        }?;
        match &ident.as_sort {
            Some(s) if !accepts(s, &result) => Err(format!(
                "'{name}' has sort {result}, not the sort {s} given with 'as'"
            )),
            _ => Ok(Some(result)),
        }
    }

    pub(super) fn is_constructor(&self, name: &str) -> bool {
        matches!(self.funs.get(name), Some(Some(d)) if d.kind == FunctionKind::Constructor)
    }

    pub(super) fn tester(&self, ctor: &str, args: &[Sort]) -> Result<Sort, String> {
        let Some(Some(decl)) = self.funs.get(ctor).filter(|_| self.is_constructor(ctor)) else {
            return Err(format!("'{ctor}' is not a constructor"));
        };
        let mut binding = HashMap::new();
        match args {
            [s] if unify(&decl.result, s, &decl.params, &mut binding) => Ok(Sort::Bool),
            _ => Err(format!(
                "the tester of '{ctor}' expects one argument of its datatype"
            )),
        }
    }
}
