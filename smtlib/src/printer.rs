//! Printing a [`Tree`] back to SMT-LIB text: faithful flat printing (one top-level command per
//! line), printing with [`Edit`]s applied, and the layouts of [`PrintOptions`] (indented
//! pretty printing and line wrapping).
//!
//! Every printer is iterative, so arbitrarily deep trees print without stack overflow. Atoms
//! are printed exactly as written, so `parse(print(tree))` has the same structure as `tree`.

use super::tree::{Edit, NodeId, NodeKind, Sx, Tree};
use std::collections::HashMap;

/// How to lay out printed text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrintOptions {
    /// Indent nested lists that do not fit in `width` on one line (`ddsmt --pretty-print`).
    pub pretty: bool,
    /// Break lines between tokens before they exceed this width (`ddsmt --wrap-lines`);
    /// also the width the pretty printer aims for.
    pub wrap: Option<usize>,
    /// Spaces per nesting level in pretty mode.
    pub indent: usize,
}

impl Default for PrintOptions {
    fn default() -> Self {
        PrintOptions {
            pretty: false,
            wrap: None,
            indent: 2,
        }
    }
}

impl PrintOptions {
    pub fn pretty() -> PrintOptions {
        PrintOptions {
            pretty: true,
            ..PrintOptions::default()
        }
    }

    pub fn wrapped(width: usize) -> PrintOptions {
        PrintOptions {
            wrap: Some(width),
            ..PrintOptions::default()
        }
    }

    fn width(&self) -> usize {
        self.wrap.unwrap_or(80)
    }
}

/// One step of the token stream a printer lays out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Event<'a> {
    Open,
    Close,
    Atom(&'a str),
    EndRoot,
}

impl Tree {
    /// The whole tree, one top-level S-expression per line, tokens separated by single spaces.
    pub fn print(&self) -> String {
        let mut out = String::with_capacity(self.len() * 6);
        for &root in &self.roots {
            self.write_plain(root, &mut out);
            out.push('\n');
        }
        out
    }

    /// One subtree on one line (no trailing newline).
    pub fn print_node(&self, id: NodeId) -> String {
        let mut out = String::new();
        self.write_plain(id, &mut out);
        out
    }

    /// The whole tree with `edits` applied; see [`Edit`]. A replacement may refer to existing
    /// nodes ([`Sx::Node`]), which print with the edits inside them applied; an edit that
    /// would contain itself prints the original node instead, so printing always terminates.
    pub fn print_with(&self, edits: &[Edit]) -> String {
        self.print_with_options(edits, &PrintOptions::default())
    }

    /// The whole tree laid out as `options` say.
    pub fn print_options(&self, options: &PrintOptions) -> String {
        self.print_with_options(&[], options)
    }

    /// The whole tree with `edits` applied, laid out as `options` say.
    pub fn print_with_options(&self, edits: &[Edit], options: &PrintOptions) -> String {
        let mut events = Vec::with_capacity(self.len() + self.roots.len());
        self.emit(edits, |e| events.push(e));
        if options.pretty {
            layout_pretty(&events, options)
        } else {
            layout_flat(&events, options.wrap)
        }
    }

    /// A standalone S-expression (atoms as given, [`Sx::Node`] printed from this tree).
    pub fn print_sx(&self, sx: &Sx) -> String {
        let mut events = Vec::new();
        let mut emitter = Emitter::new(self, &[]);
        emitter.sx(sx, &mut |e| events.push(e));
        emitter.drain(&mut |e| events.push(e));
        layout_flat(&events, None)
    }

    /// The fast path of [`Tree::print`]: no edits, no layout decisions. The stack holds the
    /// not yet printed children of each open list, so each node is looked up once.
    fn write_plain(&self, id: NodeId, out: &mut String) {
        let mut stack: Vec<&[NodeId]> = Vec::new();
        // Whether the next node needs a separating space: after an atom or a `)`, not after `(`.
        let mut need_space = false;
        let mut next = id;
        loop {
            if need_space {
                out.push(' ');
            }
            match self.kind(next) {
                NodeKind::Atom(a) => {
                    out.push_str(a.text());
                    need_space = true;
                }
                NodeKind::List => {
                    out.push('(');
                    stack.push(self.children(next));
                    need_space = false;
                }
            }
            // The next node to print: the next child of the innermost list that has one,
            // closing the finished lists on the way.
            loop {
                let Some(rest) = stack.last_mut() else {
                    return;
                };
                if let Some((&child, tail)) = rest.split_first() {
                    *rest = tail;
                    next = child;
                    break;
                }
                out.push(')');
                need_space = true;
                stack.pop();
            }
        }
    }

    fn emit<'a>(&'a self, edits: &'a [Edit], mut sink: impl FnMut(Event<'a>)) {
        let mut emitter = Emitter::new(self, edits);
        for &root in &self.roots {
            emitter.node(root, &mut sink);
            emitter.drain(&mut sink);
            sink(Event::EndRoot);
        }
    }
}

/// Produces the event stream of a tree with edits, iteratively.
struct Emitter<'a> {
    tree: &'a Tree,
    edits: HashMap<NodeId, Option<&'a Sx>>,
    /// Nodes whose replacement is being printed; their edit is not applied again inside it.
    in_progress: Vec<NodeId>,
    stack: Vec<Frame<'a>>,
}

enum Frame<'a> {
    Node { id: NodeId, next: usize },
    Sx { items: &'a [Sx], next: usize },
    EndEdit,
}

impl<'a> Emitter<'a> {
    fn new(tree: &'a Tree, edits: &'a [Edit]) -> Emitter<'a> {
        let edits = edits
            .iter()
            .map(|e| (e.node, e.replacement.as_ref()))
            .collect();
        Emitter {
            tree,
            edits,
            in_progress: Vec::new(),
            stack: Vec::new(),
        }
    }

    /// Starts emitting one item; lists are continued by [`Emitter::drain`].
    fn node(&mut self, id: NodeId, sink: &mut impl FnMut(Event<'a>)) {
        if let Some(&replacement) = self.edits.get(&id) {
            if !self.in_progress.contains(&id) {
                if let Some(sx) = replacement {
                    self.in_progress.push(id);
                    self.stack.push(Frame::EndEdit);
                    self.sx(sx, sink);
                }
                return;
            }
        }
        match self.tree.kind(id) {
            NodeKind::Atom(a) => sink(Event::Atom(a.text())),
            NodeKind::List => {
                sink(Event::Open);
                self.stack.push(Frame::Node { id, next: 0 });
            }
        }
    }

    fn sx(&mut self, sx: &'a Sx, sink: &mut impl FnMut(Event<'a>)) {
        match sx {
            Sx::Atom(text) => sink(Event::Atom(text)),
            Sx::List(items) => {
                sink(Event::Open);
                self.stack.push(Frame::Sx { items, next: 0 });
            }
            Sx::Node(id) if id.index() < self.tree.len() => self.node(*id, sink),
            // A reference to a node this tree does not have prints as nothing rather than panic.
            Sx::Node(_) => {}
        }
    }

    /// Runs the stack to completion.
    fn drain(&mut self, sink: &mut impl FnMut(Event<'a>)) {
        while let Some(frame) = self.stack.last_mut() {
            match frame {
                Frame::Node { id, next } => {
                    let children = self.tree.children(*id);
                    if *next < children.len() {
                        let child = children[*next];
                        *next += 1;
                        self.node(child, sink);
                    } else {
                        self.stack.pop();
                        sink(Event::Close);
                    }
                }
                Frame::Sx { items, next } => {
                    let items: &'a [Sx] = items;
                    if *next < items.len() {
                        let item = &items[*next];
                        *next += 1;
                        self.sx(item, sink);
                    } else {
                        self.stack.pop();
                        sink(Event::Close);
                    }
                }
                Frame::EndEdit => {
                    self.stack.pop();
                    self.in_progress.pop();
                }
            }
        }
    }
}

/// Single spaces between tokens; with `wrap`, a newline instead of a space before a token
/// that would pass the width.
fn layout_flat(events: &[Event], wrap: Option<usize>) -> String {
    let mut out = String::with_capacity(events.len() * 6);
    let mut need_space = false;
    let mut line_start = 0;
    let mut root_started = false;
    let separate = |out: &mut String, need_space: bool, len: usize, line_start: &mut usize| {
        if !need_space {
            return;
        }
        match wrap {
            Some(width) if out.len() - *line_start + 1 + len > width => {
                out.push('\n');
                *line_start = out.len();
            }
            _ => out.push(' '),
        }
    };
    for event in events {
        match *event {
            Event::Open => {
                separate(&mut out, need_space, 1, &mut line_start);
                out.push('(');
                need_space = false;
                root_started = true;
            }
            Event::Atom(text) => {
                separate(&mut out, need_space, text.len(), &mut line_start);
                out.push_str(text);
                need_space = true;
                root_started = true;
            }
            Event::Close => {
                out.push(')');
                need_space = true;
            }
            Event::EndRoot => {
                if root_started {
                    out.push('\n');
                    line_start = out.len();
                }
                need_space = false;
                root_started = false;
            }
        }
    }
    if root_started {
        out.push('\n');
    }
    out
}

/// Lists that fit in the width stay on one line; others put each argument after the first
/// on its own line, indented one level deeper than the list.
fn layout_pretty(events: &[Event], options: &PrintOptions) -> String {
    let width = options.width();
    // The flat width of the list opened at each `Open` event.
    let mut flat_width = vec![0usize; events.len()];
    let mut open: Vec<(usize, usize, usize)> = Vec::new(); // (event index, width so far, items)
    let add_item = |open: &mut Vec<(usize, usize, usize)>, w: usize| {
        if let Some(top) = open.last_mut() {
            top.1 += w + usize::from(top.2 > 0);
            top.2 += 1;
        }
    };
    for (i, event) in events.iter().enumerate() {
        match *event {
            Event::Open => open.push((i, 0, 0)),
            Event::Atom(text) => add_item(&mut open, text.len()),
            Event::Close => {
                if let Some((at, w, _)) = open.pop() {
                    flat_width[at] = w + 2;
                    add_item(&mut open, w + 2);
                }
            }
            Event::EndRoot => open.clear(),
        }
    }

    struct Level {
        broken: bool,
        items: usize,
    }
    let mut out = String::with_capacity(events.len() * 8);
    let mut levels: Vec<Level> = Vec::new();
    let mut line_start = 0;
    let mut root_started = false;
    for (i, event) in events.iter().enumerate() {
        match *event {
            Event::Open | Event::Atom(_) => {
                let depth = levels.len();
                if let Some(parent) = levels.last_mut() {
                    if parent.items > 0 {
                        if parent.broken {
                            out.push('\n');
                            line_start = out.len();
                            // Indentation stops growing at half the width so deep terms stay linear in size.
                            let spaces = (depth * options.indent).min(width / 2);
                            out.extend(std::iter::repeat_n(' ', spaces));
                        } else {
                            out.push(' ');
                        }
                    }
                    parent.items += 1;
                }
                root_started = true;
                if let Event::Atom(text) = *event {
                    out.push_str(text);
                } else {
                    let parent_flat = levels.last().is_some_and(|l| !l.broken);
                    let broken = !parent_flat && out.len() - line_start + flat_width[i] > width;
                    levels.push(Level { broken, items: 0 });
                    out.push('(');
                }
            }
            Event::Close => {
                levels.pop();
                out.push(')');
            }
            Event::EndRoot => {
                if root_started {
                    out.push('\n');
                    line_start = out.len();
                }
                levels.clear();
                root_started = false;
            }
        }
    }
    out
}
