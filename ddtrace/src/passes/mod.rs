//! The trace-specific passes and their order. A round runs every enabled pass once; rounds
//! repeat until one changes nothing; then ids are renumbered.
//!
//! | pass             | what it tries                                                    |
//! | ---------------- | ---------------------------------------------------------------- |
//! | `remove`         | ddmin over calls, each removal with its dependants ([`remove`])  |
//! | `results`        | ddmin over recorded answers (`return sat`, cores, values)        |
//! | `args`           | ddmin over the items of n-ary argument lists ([`args`])          |
//! | `datatypes`      | datatypes, constructors, fields out of declarations ([`datatypes`]) |
//! | `domains`        | an argument out of a function and all its applications ([`domains`]) |
//! | `simpler-calls`  | tracked assertions, assumptions, configured solvers made plain ([`simpler`]) |
//! | `subst-existing` | arguments replaced by smaller existing terms ([`subst`])         |
//! | `subst-fresh`    | arguments replaced by fresh constants ([`subst`])                |
//! | `numbers`        | smaller widths, indices, literals, options ([`numbers`])         |
//! | `renumber`       | dense ids, once at the end ([`renumber`])                        |

pub mod args;
pub mod datatypes;
pub mod domains;
pub mod numbers;
pub mod remove;
pub mod renumber;
pub mod simpler;
pub mod subst;

use crate::session::Session;

/// A pass: it runs on the session and leaves `current` as the best trace.
pub type Pass = fn(&mut Session);

/// Which passes run (all by default).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Passes {
    pub remove: bool,
    pub results: bool,
    pub args: bool,
    pub datatypes: bool,
    pub domains: bool,
    pub simpler_calls: bool,
    pub subst_existing: bool,
    pub subst_fresh: bool,
    pub numbers: bool,
    pub renumber: bool,
}

impl Default for Passes {
    fn default() -> Self {
        Passes {
            remove: true,
            results: true,
            args: true,
            datatypes: true,
            domains: true,
            simpler_calls: true,
            subst_existing: true,
            subst_fresh: true,
            numbers: true,
            renumber: true,
        }
    }
}

impl Passes {
    /// No pass at all: the start for a selection of passes.
    pub const NONE: Passes = Passes {
        remove: false,
        results: false,
        args: false,
        datatypes: false,
        domains: false,
        simpler_calls: false,
        subst_existing: false,
        subst_fresh: false,
        numbers: false,
        renumber: false,
    };

    /// Only removal of calls: the baseline of ddMBT's first phase.
    pub fn remove_only() -> Passes {
        Passes {
            remove: true,
            ..Passes::NONE
        }
    }

    /// The round passes in order, with their names.
    fn round(&self) -> Vec<(&'static str, Pass)> {
        let all: [(&'static str, bool, Pass); 9] = [
            ("remove", self.remove, remove::remove_calls),
            ("results", self.results, remove::drop_results),
            ("args", self.args, args::shrink_lists),
            ("datatypes", self.datatypes, datatypes::smaller_datatypes),
            ("domains", self.domains, domains::smaller_domains),
            ("simpler-calls", self.simpler_calls, simpler::simpler_calls),
            ("subst-existing", self.subst_existing, subst::by_existing),
            ("subst-fresh", self.subst_fresh, subst::by_fresh),
            ("numbers", self.numbers, numbers::smaller_numbers),
        ];
        all.into_iter()
            .filter(|(_, on, _)| *on)
            .map(|(name, _, f)| (name, f))
            .collect()
    }
}

/// Runs rounds of the enabled passes until a round changes nothing (or the reduction stops),
/// then renumbers. Returns the number of rounds.
pub fn run(s: &mut Session, passes: &Passes) -> usize {
    let round = passes.round();
    let mut rounds = 0;
    loop {
        rounds += 1;
        let before = s.reducer.successes();
        for (name, pass) in &round {
            if s.stopped() {
                return rounds;
            }
            s.reducer.set_phase(name);
            pass(s);
        }
        if s.reducer.successes() == before || s.stopped() {
            break;
        }
    }
    if passes.renumber && !s.stopped() {
        s.reducer.set_phase("renumber");
        renumber::renumber(s);
    }
    rounds
}
