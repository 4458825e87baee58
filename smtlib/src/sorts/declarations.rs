//! The commands of a script as sort inference reads them: declarations and definitions of
//! functions and sorts, datatypes, scopes, and the sorts they write.

use super::*;

impl<'t> Inference<'t> {
    pub(super) fn command(&mut self, id: NodeId) -> Step {
        let Some(head) = self.tree.head(id) else {
            // A solver response without the `model` keyword: a list of definitions.
            let kids = self.kids(id);
            if !kids.is_empty()
                && kids
                    .iter()
                    .all(|&k| self.tree.head(k) == Some("define-fun"))
            {
                for &k in kids {
                    self.command(k)?;
                }
            }
            return Ok(());
        };
        let kids = self.kids(id);
        match head {
            "assert" => match kids {
                [_, term] => {
                    if let Some(sort) = self.term(*term)? {
                        if sort != Sort::Bool {
                            self.fail(*term, format!("assert expects a Bool term; got {sort}"))?;
                        }
                    }
                }
                _ => self.fail(id, "expected (assert TERM)")?,
            },
            "check-sat-assuming" | "get-value" => match kids {
                [_, terms] if self.tree.is_list(*terms) => {
                    for &t in self.kids(*terms) {
                        self.term(t)?;
                    }
                }
                _ => self.fail(id, format!("expected ({head} (TERM ...))"))?,
            },
            "simplify" | "eval" | "get-qe" | "get-qe-disjunct" => {
                if let Some(&t) = kids.get(1) {
                    self.term(t)?;
                }
            }
            "declare-sort" => self.declare_sort(id)?,
            "define-sort" => self.define_sort(id)?,
            "declare-fun" => self.declare_fun(id)?,
            "declare-const" => match kids {
                [_, name, sort] => {
                    let (name, sort) = (self.name_of(*name), self.sort(*sort)?);
                    if let (Some(name), Some(sort)) = (name, sort) {
                        self.declare_global(name, declared(Vec::new(), sort));
                    }
                }
                _ => self.fail(id, "expected (declare-const NAME SORT)")?,
            },
            "define-fun" | "define-fun-rec" => self.define_fun(id, head == "define-fun-rec")?,
            "define-const" => match kids {
                [_, name, sort, body] => {
                    let sort = self.sort(*sort)?;
                    self.check_body(*body, sort.as_ref())?;
                    if let (Some(name), Some(sort)) = (self.name_of(*name), sort) {
                        self.declare_global(name, defined(Vec::new(), sort));
                    }
                }
                _ => self.fail(id, "expected (define-const NAME SORT TERM)")?,
            },
            "define-funs-rec" => self.define_funs_rec(id)?,
            "declare-datatype" => match kids {
                [_, name, decl] => {
                    let arity = self.datatype_arity(*decl);
                    self.datatypes(&[(*name, arity)], &[*decl])?
                }
                _ => self.fail(id, "expected (declare-datatype NAME DECLARATION)")?,
            },
            "declare-datatypes" => self.declare_datatypes(id)?,
            "push" => {
                let n = self.level_count(id)?;
                if n > 0 {
                    self.levels
                        .push((self.funs.mark(), self.sort_defs.mark(), n));
                    self.depth += n;
                }
            }
            "pop" => {
                let n = self.level_count(id)?;
                if n > self.depth {
                    self.fail(
                        id,
                        format!("pop {n} exceeds the {} open push level(s)", self.depth),
                    )?;
                }
                let mut left = n.min(self.depth);
                self.depth -= left;
                while left > 0 {
                    let Some(top) = self.levels.last_mut() else {
                        break;
                    };
                    let (f, s, count) = *top;
                    // Levels opened by one push share their marks: undo to them either way.
                    self.funs.undo_to(f);
                    self.sort_defs.undo_to(s);
                    if count > left {
                        top.2 -= left;
                        left = 0;
                    } else {
                        left -= count;
                        self.levels.pop();
                    }
                }
            }
            "reset" => {
                self.funs.clear();
                self.sort_defs.clear();
                self.levels.clear();
                self.depth = 0;
            }
            "reset-assertions" => {
                if let Some(&(f, s, _)) = self.levels.first() {
                    self.funs.undo_to(f);
                    self.sort_defs.undo_to(s);
                }
                self.levels.clear();
                self.depth = 0;
            }
            "model" => {
                for &k in &kids[1..] {
                    self.command(k)?;
                }
            }
            // Everything else (set-logic, set-info, check-sat, get-model, echo, exit,
            // responses, ...) contains no terms.
            _ => {}
        }
        for (name, sort) in std::mem::take(&mut self.pending_names) {
            self.declare_global(
                &name,
                FunctionDecl {
                    params: Vec::new(),
                    args: Vec::new(),
                    result: sort,
                    kind: FunctionKind::Named,
                },
            );
        }
        Ok(())
    }

    /// The numeral of `push`/`pop`, 1 when absent.
    pub(super) fn level_count(&mut self, id: NodeId) -> Result<usize, SortError> {
        match self.kids(id) {
            [_] => Ok(1),
            [_, n] => match self.tree.atom(*n) {
                Some(Atom::Numeral(text)) => match text.parse::<usize>() {
                    Ok(v) => Ok(v),
                    Err(_) => self.fail(*n, "the level count is too large").map(|_| 0),
                },
                _ => self.fail(*n, "expected a numeral level count").map(|_| 0),
            },
            _ => self.fail(id, "expected at most one numeral").map(|_| 0),
        }
    }

    pub(super) fn declare_sort(&mut self, id: NodeId) -> Step {
        let kids = self.kids(id);
        let arity = match kids.get(2).map(|&n| (n, self.tree.atom(n))) {
            None => Some(0),
            Some((_, Some(Atom::Numeral(text)))) => text.parse().ok(),
            Some((n, _)) => return self.fail(n, "expected a numeral arity"),
        };
        match (
            kids.get(1).and_then(|&n| self.name_of(n)),
            arity,
            kids.len(),
        ) {
            (Some(name), Some(arity), 2 | 3) => {
                self.declare_sort_global(name, SortDecl::Declared { arity });
                Ok(())
            }
            _ => self.fail(id, "expected (declare-sort NAME NUMERAL)"),
        }
    }

    pub(super) fn define_sort(&mut self, id: NodeId) -> Step {
        let kids = self.kids(id);
        let [_, name, params, definition] = kids else {
            return self.fail(id, "expected (define-sort NAME (PARAM ...) SORT)");
        };
        let Some(params) = self.symbol_list(*params) else {
            return self.fail(*params, "expected a list of sort parameter symbols");
        };
        let mark = self.sort_defs.mark();
        for p in &params {
            self.sort_defs.insert(p, SortDecl::Parameter);
        }
        let definition = self.sort(*definition);
        self.sort_defs.undo_to(mark);
        if let (Some(name), Some(definition)) = (self.name_of(*name), definition?) {
            self.declare_sort_global(name, SortDecl::Alias { params, definition });
        }
        Ok(())
    }

    pub(super) fn symbol_list(&self, id: NodeId) -> Option<Vec<String>> {
        if !self.tree.is_list(id) {
            return None;
        }
        self.kids(id)
            .iter()
            .map(|&k| self.name_of(k).map(str::to_string))
            .collect()
    }

    pub(super) fn declare_fun(&mut self, id: NodeId) -> Step {
        let kids = self.kids(id);
        let [_, name, args, result] = kids else {
            return self.fail(id, "expected (declare-fun NAME (SORT ...) SORT)");
        };
        if !self.tree.is_list(*args) {
            return self.fail(*args, "expected a list of argument sorts");
        }
        let mut arg_sorts = Vec::new();
        for &a in self.kids(*args) {
            arg_sorts.push(self.sort(a)?);
        }
        let result = self.sort(*result)?;
        let arg_sorts: Option<Vec<Sort>> = arg_sorts.into_iter().collect();
        if let (Some(name), Some(args), Some(result)) = (self.name_of(*name), arg_sorts, result) {
            self.declare_global(name, declared(args, result));
        }
        Ok(())
    }

    /// Parses `((x S) ...)`; `None` entries for names or sorts that failed (lenient mode).
    pub(super) fn sorted_vars(&mut self, id: NodeId) -> Result<Option<SortedVars>, SortError> {
        if !self.tree.is_list(id) {
            self.fail(id, "expected a list of sorted variables ((NAME SORT) ...)")?;
            return Ok(None);
        }
        let mut vars = Vec::new();
        for &v in self.kids(id) {
            match self.kids(v) {
                [name, sort] if self.tree.symbol(*name).is_some() => {
                    let name = self.name_of(*name).unwrap_or_default().to_string();
                    let sort = self.sort(*sort)?;
                    vars.push((name, sort));
                }
                _ => {
                    self.fail(v, "expected a sorted variable (NAME SORT)")?;
                    return Ok(None);
                }
            }
        }
        Ok(Some(vars))
    }

    pub(super) fn define_fun(&mut self, id: NodeId, recursive: bool) -> Step {
        let kids = self.kids(id);
        let [_, name, params, result, body] = kids else {
            return self.fail(
                id,
                "expected (define-fun NAME ((PARAM SORT) ...) SORT TERM)",
            );
        };
        let Some(vars) = self.sorted_vars(*params)? else {
            return Ok(());
        };
        let result = self.sort(*result)?;
        let name = self.name_of(*name);
        let rank = rank(&vars, result.as_ref());
        if recursive {
            if let (Some(name), Some((args, result))) = (name, rank.clone()) {
                self.declare_global(name, defined(args, result));
            }
        }
        self.body_with_params(&vars, *body, result.as_ref())?;
        if let (false, Some(name), Some((args, result))) = (recursive, name, rank) {
            self.declare_global(name, defined(args, result));
        }
        Ok(())
    }

    pub(super) fn body_with_params(
        &mut self,
        vars: &[(String, Option<Sort>)],
        body: NodeId,
        result: Option<&Sort>,
    ) -> Step {
        let mark = self.funs.mark();
        for (name, sort) in vars {
            self.funs.insert(name, sort.clone().map(variable));
        }
        let checked = self.check_body(body, result);
        self.funs.undo_to(mark);
        checked
    }

    /// Types a definition body and checks it against the declared result sort.
    pub(super) fn check_body(&mut self, body: NodeId, result: Option<&Sort>) -> Step {
        let sort = self.term(body)?;
        if let (Some(sort), Some(result)) = (sort, result) {
            if !accepts(result, &sort) {
                self.fail(
                    body,
                    format!("the body has sort {sort} but the declared sort is {result}"),
                )?;
            }
        }
        Ok(())
    }

    pub(super) fn define_funs_rec(&mut self, id: NodeId) -> Step {
        let kids = self.kids(id);
        let [_, decls, bodies] = kids else {
            return self.fail(
                id,
                "expected (define-funs-rec ((NAME PARAMS SORT) ...) (TERM ...))",
            );
        };
        let (decls, bodies) = (self.kids(*decls), self.kids(*bodies));
        if decls.len() != bodies.len() {
            return self.fail(id, "define-funs-rec needs as many bodies as declarations");
        }
        let mut ranks = Vec::new();
        for &d in decls {
            let [name, params, result] = self.kids(d) else {
                self.fail(d, "expected (NAME ((PARAM SORT) ...) SORT)")?;
                ranks.push(None);
                continue;
            };
            let vars = self.sorted_vars(*params)?;
            let result = self.sort(*result)?;
            if let (Some(name), Some(vars)) = (self.name_of(*name), &vars) {
                if let Some((args, r)) = rank(vars, result.as_ref()) {
                    self.declare_global(name, defined(args, r));
                }
            }
            ranks.push(vars.map(|v| (v, result)));
        }
        for (rank, &body) in ranks.into_iter().zip(bodies) {
            if let Some((vars, result)) = rank {
                self.body_with_params(&vars, body, result.as_ref())?;
            }
        }
        Ok(())
    }

    pub(super) fn datatype_arity(&self, decl: NodeId) -> usize {
        match self.kids(decl) {
            [par, params, _] if self.tree.symbol(*par) == Some("par") => self.kids(*params).len(),
            _ => 0,
        }
    }

    pub(super) fn declare_datatypes(&mut self, id: NodeId) -> Step {
        let kids = self.kids(id);
        let [_, names, decls] = kids else {
            return self.fail(
                id,
                "expected (declare-datatypes ((NAME ARITY) ...) (DECLARATION ...))",
            );
        };
        let names_kids = self.kids(*names);
        // SMT-LIB 2.6 lists (NAME ARITY) pairs; Z3's older form lists sort parameters
        // (symbols, usually none).
        if self.tree.is_list(*names) && names_kids.iter().all(|&n| self.tree.symbol(n).is_some()) {
            return self.old_style_datatypes(*names, *decls);
        }
        let mut heads = Vec::new();
        for &n in names_kids {
            match self.kids(n) {
                [name, arity] => {
                    let arity = match self.tree.atom(*arity) {
                        Some(Atom::Numeral(a)) => a.parse().unwrap_or(0),
                        _ => 0,
                    };
                    heads.push((*name, arity));
                }
                _ => return self.fail(n, "expected (NAME ARITY)"),
            }
        }
        let decls = self.kids(*decls);
        if decls.len() != heads.len() {
            return self.fail(
                id,
                "declare-datatypes needs one declaration per datatype name",
            );
        }
        self.datatypes(&heads, decls)
    }

    /// Z3's SMT-LIB 2.5 form `(declare-datatypes (PARAM ...) ((NAME CONSTRUCTOR ...) ...))`.
    pub(super) fn old_style_datatypes(&mut self, params: NodeId, decls: NodeId) -> Step {
        let params = self.symbol_list(params).unwrap_or_default();
        let mut heads = Vec::new();
        for &d in self.kids(decls) {
            match self.kids(d).first() {
                Some(&name) if self.tree.symbol(name).is_some() => heads.push(name),
                _ => return self.fail(d, "expected (NAME CONSTRUCTOR ...)"),
            }
        }
        for &name in &heads {
            if let Some(name) = self.name_of(name) {
                let params = params.clone();
                self.declare_sort_global(name, SortDecl::Datatype { params });
            }
        }
        for &d in self.kids(decls) {
            let [name, ctors @ ..] = self.kids(d) else {
                continue;
            };
            let name = self.name_of(*name).unwrap_or_default();
            self.constructors(name, &params, ctors)?;
        }
        Ok(())
    }

    /// Declares datatypes `heads` (name node, arity) with declarations `decls`; all names
    /// are declared first so that the datatypes may refer to each other.
    pub(super) fn datatypes(&mut self, heads: &[(NodeId, usize)], decls: &[NodeId]) -> Step {
        let mut params_of = Vec::new();
        for (&(name, _), &decl) in heads.iter().zip(decls) {
            let params = match self.kids(decl) {
                [par, params, _] if self.tree.symbol(*par) == Some("par") => {
                    self.symbol_list(*params).unwrap_or_default()
                }
                _ => Vec::new(),
            };
            if let Some(name) = self.name_of(name) {
                self.declare_sort_global(
                    name,
                    SortDecl::Datatype {
                        params: params.clone(),
                    },
                );
            }
            params_of.push(params);
        }
        for ((&(name, arity), &decl), params) in heads.iter().zip(decls).zip(params_of) {
            if params.len() != arity {
                self.fail(
                    decl,
                    format!(
                        "the datatype has {} sort parameter(s) but arity {arity}",
                        params.len()
                    ),
                )?;
            }
            let ctors = match self.kids(decl) {
                [par, _, ctors] if self.tree.symbol(*par) == Some("par") => self.kids(*ctors),
                _ => self.kids(decl),
            };
            let name = self.name_of(name).unwrap_or_default();
            self.constructors(name, &params, ctors)?;
        }
        Ok(())
    }

    pub(super) fn constructors(
        &mut self,
        datatype: &str,
        params: &[String],
        ctors: &[NodeId],
    ) -> Step {
        let mark = self.sort_defs.mark();
        for p in params {
            self.sort_defs.insert(p, SortDecl::Parameter);
        }
        let this = Sort::Named(
            datatype.to_string(),
            params
                .iter()
                .map(|p| Sort::uninterpreted(p.clone()))
                .collect(),
        );
        let mut declared_ctors = Vec::new();
        let mut result = Ok(());
        for &c in ctors {
            // `(C (sel SORT) ...)`, or a bare `C` as Z3's 2.5 syntax allows.
            let (name, fields) = match self.tree.symbol(c) {
                Some(_) => (c, &[][..]),
                None => match self.kids(c).split_first() {
                    Some((&name, fields)) if self.tree.symbol(name).is_some() => (name, fields),
                    _ => {
                        result = self.fail(c, "expected a constructor (NAME (SELECTOR SORT) ...)");
                        if result.is_err() {
                            break;
                        }
                        continue;
                    }
                },
            };
            let mut selectors = Vec::new();
            for &f in fields {
                match self.kids(f) {
                    [sel, sort] if self.tree.symbol(*sel).is_some() => match self.sort(*sort) {
                        Ok(Some(sort)) => selectors
                            .push((self.name_of(*sel).unwrap_or_default().to_string(), sort)),
                        Ok(None) => {}
                        Err(e) => {
                            self.sort_defs.undo_to(mark);
                            return Err(e);
                        }
                    },
                    _ => {
                        result = self.fail(f, "expected a selector (NAME SORT)");
                        if result.is_err() {
                            break;
                        }
                    }
                }
            }
            declared_ctors.push(Constructor {
                name: self.name_of(name).unwrap_or_default().to_string(),
                selectors,
            });
        }
        self.sort_defs.undo_to(mark);
        result?;
        for ctor in &declared_ctors {
            let decl = FunctionDecl {
                params: params.to_vec(),
                args: ctor.selectors.iter().map(|(_, s)| s.clone()).collect(),
                result: this.clone(),
                kind: FunctionKind::Constructor,
            };
            self.declare_global(&ctor.name, decl);
            for (sel, sort) in &ctor.selectors {
                let decl = FunctionDecl {
                    params: params.to_vec(),
                    args: vec![this.clone()],
                    result: sort.clone(),
                    kind: FunctionKind::Selector,
                };
                self.declare_global(sel, decl);
            }
        }
        self.signature.datatypes.insert(
            datatype.to_string(),
            Datatype {
                params: params.to_vec(),
                constructors: declared_ctors,
            },
        );
        Ok(())
    }

    // ----- sorts -----

    /// The sort a sort expression denotes; `Ok(None)` after a lenient failure.
    pub(super) fn sort(&mut self, id: NodeId) -> Result<Option<Sort>, SortError> {
        match self.parse_sort(id, 0) {
            Ok(s) => Ok(Some(s)),
            Err((at, message)) => self.fail(at, message).map(|_| None),
        }
    }

    pub(super) fn parse_sort(&self, id: NodeId, depth: usize) -> Result<Sort, (NodeId, String)> {
        if depth > MAX_SORT_DEPTH {
            return Err((id, "sort nesting is too deep".into()));
        }
        if let Some(text) = self.tree.symbol(id) {
            let name = unquote(text);
            return match name {
                "Bool" => Ok(Sort::Bool),
                "Int" => Ok(Sort::Int),
                "Real" => Ok(Sort::Real),
                "String" => Ok(Sort::String),
                "RegLan" => Ok(Sort::RegLan),
                "RoundingMode" => Ok(Sort::RoundingMode),
                "Float16" => Ok(Sort::FloatingPoint(5, 11)),
                "Float32" => Ok(Sort::FloatingPoint(8, 24)),
                "Float64" => Ok(Sort::FloatingPoint(11, 53)),
                "Float128" => Ok(Sort::FloatingPoint(15, 113)),
                _ => self.named_sort(id, name, Vec::new()),
            };
        }
        let kids = self.kids(id);
        match self.tree.head(id) {
            Some("_") if kids.len() >= 3 => {
                let nums: Vec<Option<u32>> = kids[2..]
                    .iter()
                    .map(|&k| match self.tree.atom(k) {
                        Some(Atom::Numeral(n)) => n.parse().ok(),
                        _ => None,
                    })
                    .collect();
                match (self.tree.symbol(kids[1]).unwrap_or_default(), nums.as_slice()) {
                    ("BitVec", [Some(w)]) if *w >= 1 => Ok(Sort::BitVec(*w)),
                    ("FloatingPoint", [Some(e), Some(s)]) if *e >= 2 && *s >= 2 => {
                        Ok(Sort::FloatingPoint(*e, *s))
                    }
                    _ => Err((
                        id,
                        "unknown indexed sort; expected (_ BitVec WIDTH) or (_ FloatingPoint EXP SIG) with positive widths".into(),
                    )),
                }
            }
            Some(head) => {
                let mut args = Vec::new();
                for &k in &kids[1..] {
                    args.push(self.parse_sort(k, depth + 1)?);
                }
                match (unquote(head), args.as_slice()) {
                    ("Array", [_, _]) => {
                        let e = args.pop().unwrap_or(Sort::Bool);
                        let i = args.pop().unwrap_or(Sort::Bool);
                        Ok(Sort::array(i, e))
                    }
                    ("Array", _) => Err((id, "expected (Array INDEX ELEMENT)".into())),
                    ("Seq", [e]) => Ok(Sort::seq(e.clone())),
                    ("Seq", _) => Err((id, "expected (Seq ELEMENT)".into())),
                    (name, _) => self.named_sort(id, name, args),
                }
            }
            None => Err((id, "expected a sort (a symbol or a list)".into())),
        }
    }

    pub(super) fn named_sort(
        &self,
        id: NodeId,
        name: &str,
        args: Vec<Sort>,
    ) -> Result<Sort, (NodeId, String)> {
        let arity_error = |n: usize| {
            Err((
                id,
                format!("sort '{name}' expects {n} parameter(s); got {}", args.len()),
            ))
        };
        match self.sort_defs.get(name) {
            None => Err((id, format!("unknown sort '{name}'"))),
            Some(SortDecl::Parameter) if args.is_empty() => Ok(Sort::uninterpreted(name)),
            Some(SortDecl::Parameter) => arity_error(0),
            Some(SortDecl::Declared { arity }) if *arity == args.len() => {
                Ok(Sort::Named(name.to_string(), args))
            }
            Some(SortDecl::Declared { arity }) => arity_error(*arity),
            Some(SortDecl::Datatype { params }) if params.len() == args.len() => {
                Ok(Sort::Named(name.to_string(), args))
            }
            Some(SortDecl::Datatype { params }) => arity_error(params.len()),
            Some(SortDecl::Alias { params, definition }) if params.len() == args.len() => {
                let binding: HashMap<String, Sort> = params.iter().cloned().zip(args).collect();
                Ok(substitute(definition, &binding))
            }
            Some(SortDecl::Alias { params, .. }) => arity_error(params.len()),
        }
    }
}
