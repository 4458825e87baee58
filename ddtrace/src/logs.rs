//! Minimizing Z3's own API logs (`Z3_open_log`, `docs/z3-log.md`) on the same engine as
//! traces: the golden run and every candidate are replays by `untrace` (which recognizes a
//! log by its content), and the behaviour kept is the same (exit code, the signature line).
//!
//! A candidate is always a whole log in Z3's format ([`z3log::log::write`]: the `V` line,
//! then `R`, arguments, `C`, bindings per call), so what `z3 -log` of the writing release
//! replays; with [`crate::Config::z3_binary`] every candidate is also replayed by that
//! binary and must end as the input does there.
//!
//! Passes, in rounds until one changes nothing ([`LOG_PASSES`]):
//! - `log-noise`: ddmin over the entries that change nothing a later call sees: reference
//!   counting, queries ([`z3log::Function::is_query`]) and messages. The first candidate
//!   drops them all, which is usually most of a binding's log.
//! - `log-calls`: ddmin over every entry; removing one removes its dependents (every entry
//!   that uses an object it bound, transitively: [`z3log::Log::dependencies`]), so a
//!   candidate never names an object no call returned.
//! - `log-arrays`: ddmin over the elements of input arrays (`Z3_mk_and`'s arguments, a
//!   function's domain, ...), an element out of every array that shares its length
//!   parameter, the length lowered with it (the call's table entry says which parameter
//!   that is).

use reduce::{EngineError, Figures, PassStats, Reducer, ReducerOptions, Status};
use reduce::{StopFlag, Tester};
use std::collections::BTreeMap;
use std::path::Path;
use z3log::log::Value;
use z3log::table::{Dir, Prim, Type};
use z3log::{EntryKind, Log, Table};

/// A pass over a log: it leaves `current` as the best log.
type LogPass = fn(&mut LogSession);

/// The passes over a log, in order, with their names.
pub const LOG_PASSES: [&str; 3] = ["log-noise", "log-calls", "log-arrays"];

fn log_passes() -> [(&'static str, LogPass); 3] {
    [
        (LOG_PASSES[0], |s| s.noise()),
        (LOG_PASSES[1], |s| s.calls()),
        (LOG_PASSES[2], |s| s.arrays()),
    ]
}

/// What a log reduction produced.
#[derive(Clone, Debug)]
pub struct LogReduction {
    /// The minimized log.
    pub log: Log,
    /// For each of its entries, the index of the input's entry it came from (`None` if that
    /// was lost: never expected, the best bytes are always a rendering of the current log).
    pub origins: Option<Vec<usize>>,
    pub replays: u64,
    pub cache_hits: u64,
    pub stats: Vec<(String, PassStats)>,
    pub rounds: usize,
    pub figures: Figures,
}

/// How big a log is, in the terms of issue 26's target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogSize {
    /// Lines as written by [`z3log::log::write`].
    pub lines: usize,
    pub calls: usize,
    /// Calls that neither make the context ([`z3log::Function::makes_context`]) nor count
    /// references.
    pub essential_calls: usize,
}

/// The size of `log` with `table` (the writing release's).
pub fn size(log: &Log, table: &Table) -> LogSize {
    let mut calls = 0;
    let mut essential_calls = 0;
    for (_, call) in log.calls() {
        calls += 1;
        let counted = table
            .function(call.number)
            .is_none_or(|f| !f.makes_context() && !f.is_reference_counting());
        essential_calls += usize::from(counted);
    }
    LogSize {
        lines: z3log::log::write(log).lines().count(),
        calls,
        essential_calls,
    }
}

/// The log's bytes as a candidate.
fn render(log: &Log) -> Vec<u8> {
    z3log::log::write(log).into_bytes()
}

/// A log with at least one call that parses: what may be checked or kept. A log without
/// calls reproduces nothing of Z3's, whatever its replay says.
fn admissible(candidate: &[u8]) -> bool {
    z3log::parse::parse(candidate).is_ok_and(|log| log.calls().next().is_some())
}

/// `log` without the entries that `remove` marks and without their dependents (`deps` is
/// `log.dependencies()`).
fn without(log: &Log, deps: &[Vec<usize>], remove: &[bool]) -> Log {
    let gone = with_dependents(deps, remove);
    Log {
        version: log.version.clone(),
        entries: (log.entries.iter().zip(&gone))
            .filter(|(_, g)| !**g)
            .map(|(e, _)| e.clone())
            .collect(),
        n_lines: 0,
    }
}

/// The entries that go when those `remove` marks go: they and every entry that uses an
/// object one of them bound, transitively (`deps` is `log.dependencies()`).
fn with_dependents(deps: &[Vec<usize>], remove: &[bool]) -> Vec<bool> {
    let mut gone = remove.to_vec();
    for i in 0..deps.len() {
        if !gone[i] && deps[i].iter().any(|&d| gone[d]) {
            gone[i] = true;
        }
    }
    gone
}

/// One log reduction in progress: the current log next to the reducer's best bytes, and for
/// each of its entries the index of the input's entry it came from.
struct LogSession<'r, 't> {
    reducer: &'r mut Reducer<'t>,
    table: &'r Table,
    current: Log,
    /// `None` once the current log could not be traced back (never expected: the best bytes
    /// are always a rendering of `current`).
    origins: Option<Vec<usize>>,
}

impl LogSession<'_, '_> {
    /// Re-reads `current` from the reducer's best bytes after an engine algorithm that kept
    /// the entries where they were (so `origins` still holds).
    fn sync(&mut self) {
        match z3log::parse::parse(self.reducer.best()) {
            Ok(log) if log.entries.len() == self.current.entries.len() => self.current = log,
            Ok(log) => {
                self.current = log;
                self.origins = None;
            }
            Err(_) => self.origins = None,
        }
    }

    /// ddmin over the entries `units` picks, each removed with its dependents.
    fn remove_entries(&mut self, pass: &str, units: Vec<usize>) {
        if units.is_empty() {
            return;
        }
        let log = self.current.clone();
        let deps = log.dependencies();
        let removal = |keep: &[bool]| {
            let mut remove = vec![false; log.entries.len()];
            for (&entry, kept) in units.iter().zip(keep) {
                remove[entry] = !kept;
            }
            remove
        };
        let keep = reduce::ddmin(self.reducer, pass, units.len(), |keep| {
            Some(render(&without(&log, &deps, &removal(keep))))
        });
        // The mask ddmin ends with is the best result's: follow the entries' origins.
        let gone = with_dependents(&deps, &removal(&keep));
        let kept = without(&log, &deps, &removal(&keep));
        if render(&kept) == self.reducer.best() {
            self.current = kept;
            self.origins = self.origins.take().map(|origins| {
                (origins.into_iter().zip(&gone))
                    .filter(|(_, g)| !**g)
                    .map(|(o, _)| o)
                    .collect()
            });
        } else {
            self.current = log;
            self.sync();
            self.origins = None;
        }
    }

    fn noise(&mut self) {
        let table = self.table;
        let units: Vec<usize> = (self.current.entries.iter().enumerate())
            .filter(|(_, e)| match &e.kind {
                EntryKind::Message(_) => true,
                EntryKind::Call(call) => table
                    .function(call.number)
                    .is_some_and(|f| f.is_reference_counting() || f.is_query()),
            })
            .map(|(i, _)| i)
            .collect();
        self.remove_entries("log-noise", units);
    }

    fn calls(&mut self) {
        let units = (0..self.current.entries.len()).collect();
        self.remove_entries("log-calls", units);
    }

    fn arrays(&mut self) {
        let units = array_elements(&self.current, self.table);
        if units.is_empty() {
            return;
        }
        let log = self.current.clone();
        reduce::ddmin(self.reducer, "log-arrays", units.len(), |keep| {
            let cut: Vec<ArrayElement> = (units.iter().zip(keep))
                .filter(|(_, k)| !**k)
                .map(|(u, _)| *u)
                .collect();
            Some(render(&without_elements(&log, self.table, &cut)))
        });
        self.sync();
    }
}

/// One element of the input arrays of a call that share a length parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ArrayElement {
    entry: usize,
    /// The position of the length parameter (an argument position: only functions whose
    /// parameters are all logged take part, so the two agree).
    size: usize,
    index: usize,
}

/// The array positions of `function` grouped by their length parameter, for the groups that
/// can shrink: every parameter with that length is an input array, and the length is an
/// unsigned input. Empty for a function with a callback parameter (its argument positions
/// are not its parameter positions).
fn shrinkable_groups(function: &z3log::Function) -> BTreeMap<usize, Vec<usize>> {
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    if !function.params.iter().all(|p| p.is_logged()) {
        return groups;
    }
    let mut blocked: Vec<usize> = Vec::new();
    for (pos, param) in function.params.iter().enumerate() {
        match param.dir {
            Dir::InArray { size } => groups.entry(size as usize).or_default().push(pos),
            Dir::InoutArray { size } | Dir::OutManagedArray { size } => blocked.push(size as usize),
            Dir::OutArray { capacity, size } => blocked.extend([capacity as usize, size as usize]),
            Dir::In | Dir::Out | Dir::FnPtr => {}
        }
    }
    groups.retain(|size, _| {
        !blocked.contains(size)
            && function
                .params
                .get(*size)
                .is_some_and(|p| p.dir == Dir::In && p.ty == Type::Prim(Prim::Uint))
    });
    groups
}

/// The length of an array argument (`None` for a value that is not an array).
fn array_len(value: &Value) -> Option<usize> {
    match value {
        Value::Objects(v) => Some(v.len()),
        Value::Ints(v) => Some(v.len()),
        Value::Uints(v) => Some(v.len()),
        Value::Symbols(v) => Some(v.len()),
        Value::Object(_)
        | Value::Int(_)
        | Value::Uint(_)
        | Value::Double(_)
        | Value::Float(_)
        | Value::Str(_)
        | Value::Symbol(_) => None,
    }
}

/// Every element of every shrinkable array group of `log`'s calls, where the arrays of a
/// group and its length argument agree (as the writer logs them).
fn array_elements(log: &Log, table: &Table) -> Vec<ArrayElement> {
    let mut units = Vec::new();
    for (entry, e) in log.entries.iter().enumerate() {
        let EntryKind::Call(call) = &e.kind else {
            continue;
        };
        let Some(function) = table.function(call.number) else {
            continue;
        };
        for (size, arrays) in shrinkable_groups(function) {
            let Some(Value::Uint(n)) = call.args.get(size) else {
                continue;
            };
            let n = *n as usize;
            let agree = arrays
                .iter()
                .all(|&a| call.args.get(a).and_then(array_len) == Some(n));
            // An element bound by an out-binding cannot go (the binding names its index).
            let bound = call.outs.iter().any(|b| match b {
                z3log::log::OutBinding::Element { pos, .. } => arrays.contains(&(*pos as usize)),
                z3log::log::OutBinding::Object { .. } => false,
            });
            if agree && !bound {
                units.extend((0..n).map(|index| ArrayElement { entry, size, index }));
            }
        }
    }
    units
}

/// Removes index `index` from an array argument.
fn remove_element(value: &mut Value, index: usize) {
    match value {
        Value::Objects(v) => drop(v.remove(index)),
        Value::Ints(v) => drop(v.remove(index)),
        Value::Uints(v) => drop(v.remove(index)),
        Value::Symbols(v) => drop(v.remove(index)),
        Value::Object(_)
        | Value::Int(_)
        | Value::Uint(_)
        | Value::Double(_)
        | Value::Float(_)
        | Value::Str(_)
        | Value::Symbol(_) => {}
    }
}

/// `log` without the array elements `cut` (of units made by [`array_elements`] for it).
fn without_elements(log: &Log, table: &Table, cut: &[ArrayElement]) -> Log {
    let mut out = log.clone();
    let mut by_group: BTreeMap<(usize, usize), Vec<usize>> = BTreeMap::new();
    for u in cut {
        by_group.entry((u.entry, u.size)).or_default().push(u.index);
    }
    for ((entry, size), mut indices) in by_group {
        let EntryKind::Call(call) = &mut out.entries[entry].kind else {
            continue;
        };
        let Some(arrays) = table
            .function(call.number)
            .and_then(|f| shrinkable_groups(f).remove(&size))
        else {
            continue;
        };
        indices.sort_unstable();
        for &index in indices.iter().rev() {
            for &a in &arrays {
                remove_element(&mut call.args[a], index);
            }
        }
        if let Some(Value::Uint(n)) = call.args.get_mut(size) {
            *n -= indices.len() as u64;
        }
    }
    out
}

/// `minimized` (whose entries came from `original`'s at `origins`) with the error-message
/// queries of `original` put back after the calls they followed: the program asked for
/// Z3's error message (`Z3_get_error_msg`) after a call that failed, which is how the lifter
/// knows that the call is refused (`return error ""`), while the log's replay needs no
/// query. Between the call and the query only reference counting and error-code queries
/// may come, the lifter's own rule.
pub fn with_error_queries(
    original: &Log,
    minimized: &Log,
    origins: &[usize],
    table: &Table,
) -> Log {
    let name = |e: &z3log::Entry| match &e.kind {
        EntryKind::Call(call) => table.function(call.number).map(|f| &*f.name),
        EntryKind::Message(_) => None,
    };
    let mut out = Log {
        version: minimized.version.clone(),
        entries: Vec::new(),
        n_lines: 0,
    };
    for (entry, &origin) in minimized.entries.iter().zip(origins) {
        out.entries.push(entry.clone());
        if matches!(entry.kind, EntryKind::Message(_)) {
            continue;
        }
        for next in original.entries.iter().skip(origin + 1) {
            match name(next) {
                Some("Z3_get_error_msg" | "Z3_get_error_msg_ex") => out.entries.push(next.clone()),
                Some("Z3_get_error_code") => {}
                Some(n) if n.ends_with("_inc_ref") || n.ends_with("_dec_ref") => {}
                None if matches!(next.kind, EntryKind::Message(_)) => {}
                Some(_) | None => break,
            }
        }
    }
    out
}

/// Minimizes `log` (written by the release of `table`) with `tester`, which is assumed to
/// keep it. With `output`, that file always holds the best log so far.
pub fn reduce_log(
    tester: &dyn Tester,
    log: Log,
    table: &Table,
    options: ReducerOptions,
    output: Option<&Path>,
    stop: &StopFlag,
    observer: impl FnMut(&Status),
) -> Result<LogReduction, EngineError> {
    let initial = render(&log);
    let mut reducer = Reducer::new(tester, initial, options, stop.clone());
    reducer.set_observer(observer);
    reducer.set_admissible(admissible);
    if let Some(path) = output {
        reducer.set_output(path)?;
    }
    let mut rounds = 0;
    let origins = {
        let mut session = LogSession {
            reducer: &mut reducer,
            table,
            origins: Some((0..log.entries.len()).collect()),
            current: log,
        };
        loop {
            rounds += 1;
            let before = session.reducer.successes();
            for (name, pass) in log_passes() {
                if session.reducer.stopped() {
                    break;
                }
                session.reducer.set_phase(name);
                pass(&mut session);
            }
            if session.reducer.successes() == before || session.reducer.stopped() {
                break;
            }
        }
        session.origins
    };
    if let Some(err) = reducer.take_failure() {
        return Err(err);
    }
    let log = z3log::parse::parse(reducer.best()).map_err(|e| {
        EngineError::Input(format!("internal: the best log does not parse: line {e}"))
    })?;
    let origins = origins.filter(|o| o.len() == log.entries.len());
    Ok(LogReduction {
        log,
        origins,
        replays: reducer.checks(),
        cache_hits: reducer.cache_hits(),
        stats: reducer.stats().to_vec(),
        rounds,
        figures: reducer.figures(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Table {
        Table::for_version("4.8.12.0").unwrap()
    }

    /// A log of `(function, arguments, result)` lines in Z3's format.
    fn log_text(calls: &[(&str, &str, Option<u64>)]) -> String {
        let table = table();
        let mut text = String::from("V \"4.8.12.0\"\n");
        for (name, args, result) in calls {
            if let Some(message) = name.strip_prefix("M ") {
                text.push_str(&format!("M \"{message}\"\n"));
                continue;
            }
            let number = table.by_name(name).unwrap().number;
            text.push_str("R\n");
            for arg in args.split(';').filter(|a| !a.is_empty()) {
                text.push_str(arg.trim());
                text.push('\n');
            }
            text.push_str(&format!("C {number}\n"));
            if let Some(addr) = result {
                text.push_str(&format!("= {addr:#x}\n"));
            }
        }
        text
    }

    fn names(log: &Log) -> Vec<String> {
        let table = table();
        log.calls()
            .map(|(_, c)| table.function(c.number).unwrap().name.to_string())
            .collect()
    }

    fn program() -> Log {
        let text = log_text(&[
            ("Z3_mk_config", "", Some(0x10)),
            ("Z3_mk_context_rc", "P 0x10", Some(0x20)),
            ("Z3_mk_solver", "P 0x20", Some(0x30)),
            ("Z3_solver_inc_ref", "P 0x20; P 0x30", None),
            ("Z3_mk_bool_sort", "P 0x20", Some(0x40)),
            ("Z3_get_error_code", "P 0x20", None),
            ("M a message", "", None),
            ("Z3_mk_string_symbol", "P 0x20; S \"x\"", None),
            ("Z3_mk_const", "P 0x20; $ |x|; P 0x40", Some(0x50)),
            ("Z3_inc_ref", "P 0x20; P 0x50", None),
            ("Z3_mk_and", "P 0x20; U 2; P 0x50; P 0x50; p 2", Some(0x60)),
            ("Z3_solver_assert", "P 0x20; P 0x30; P 0x60", None),
            ("Z3_solver_check", "P 0x20; P 0x30", None),
        ]);
        z3log::parse::parse(text.as_bytes()).unwrap()
    }

    #[test]
    fn dependencies_follow_the_latest_binding_of_each_address() {
        let log = program();
        let deps = log.dependencies();
        // mk_context_rc uses the config, mk_and the context and the constant (once).
        assert_eq!(deps[1], vec![0]);
        assert_eq!(deps[10], vec![1, 8]);
        assert!(deps[6].is_empty(), "a message depends on nothing");
        // Without mk_solver, everything that uses the solver goes too.
        let mut remove = vec![false; log.entries.len()];
        remove[2] = true;
        let cut = without(&log, &deps, &remove);
        assert_eq!(
            names(&cut),
            [
                "Z3_mk_config",
                "Z3_mk_context_rc",
                "Z3_mk_bool_sort",
                "Z3_get_error_code",
                "Z3_mk_string_symbol",
                "Z3_mk_const",
                "Z3_inc_ref",
                "Z3_mk_and",
            ]
        );
        z3log::parse::parse(z3log::log::write(&cut).as_bytes()).expect("no unbound object");
    }

    #[test]
    fn a_reduction_keeps_the_failing_call_with_what_it_needs() {
        let table = table();
        let assert_number = table.by_name("Z3_solver_assert").unwrap().number;
        // The "failure": a log with an assertion in it.
        let fails = |candidate: &[u8]| {
            z3log::parse::parse(candidate)
                .is_ok_and(|log| log.calls().any(|(_, c)| c.number == assert_number))
        };
        let stop = StopFlag::new();
        let done = reduce_log(
            &fails,
            program(),
            &table,
            ReducerOptions::default(),
            None,
            &stop,
            |_| {},
        )
        .unwrap();
        // The conjunction lost its arguments (and its length with them), so the constant,
        // its sort and symbol went as calls nothing uses; noise went first.
        assert_eq!(
            names(&done.log),
            [
                "Z3_mk_config",
                "Z3_mk_context_rc",
                "Z3_mk_solver",
                "Z3_mk_and",
                "Z3_solver_assert"
            ]
        );
        let text = z3log::log::write(&done.log);
        let mk_and = table.by_name("Z3_mk_and").unwrap().number;
        assert!(text.contains(&format!("U 0\np 0\nC {mk_and}\n")), "{text}");
        assert!(text.starts_with("V \"4.8.12.0\"\n"));
        let noise = done.stats.iter().find(|(p, _)| p == "log-noise").unwrap();
        assert!(noise.1.succeeded >= 1);
        let size = size(&done.log, &table);
        assert_eq!((size.calls, size.essential_calls), (5, 3));
        // Each entry left names the input's entry it came from.
        assert_eq!(done.origins, Some(vec![0, 1, 2, 10, 11]));
    }

    #[test]
    fn arrays_shrink_only_where_every_array_of_the_length_is_an_input() {
        let table = table();
        let groups = |name: &str| shrinkable_groups(table.by_name(name).unwrap());
        // Z3_mk_and(c, num_args, args): one input array of length parameter 1.
        assert_eq!(
            groups("Z3_mk_and").into_iter().collect::<Vec<_>>(),
            [(1, vec![2])]
        );
        // Z3_mk_func_decl(c, s, domain_size, domain, range).
        assert_eq!(
            groups("Z3_mk_func_decl").into_iter().collect::<Vec<_>>(),
            [(2, vec![3])]
        );
        // Z3_mk_datatypes: the sorts are an out array of the same length: nothing shrinks.
        assert!(groups("Z3_mk_datatypes").is_empty());
    }

    #[test]
    fn a_log_without_calls_is_never_a_candidate() {
        assert!(!admissible(b"V \"4.8.12.0\"\nM \"only a message\"\n"));
        assert!(!admissible(b"V \"4.8.12.0\"\nR\nP 0x99\nC 1\n"));
        assert!(admissible(z3log::log::write(&program()).as_bytes()));
    }
}
