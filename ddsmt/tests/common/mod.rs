//! What the in-process reduction tests of `ddsmt` share.

use ddsmt::mutators::registry;
use ddsmt::strategies::{self, scopes, Session, Strategy};
use reduce::{Reducer, ReducerOptions, StopFlag, Tester};
use smtlib::{PrintOptions, Tree};

/// Reduces `input` with `strategy` and every mutator while `tester` keeps a candidate, as
/// `ddsmt` does (candidates parse and, where the input's scopes are valid, keep them valid);
/// the result.
pub fn reduce_in_process(input: &str, strategy: Strategy, tester: &dyn Tester) -> String {
    let mut reducer = Reducer::new(
        tester,
        input.as_bytes().to_vec(),
        ReducerOptions {
            jobs: 2,
            unchecked: false,
            check_loops: false,
        },
        StopFlag::new(),
    );
    if scopes::scopes_are_valid(&Tree::parse(input).unwrap()) {
        reducer.set_admissible(scopes::admissible);
    }
    let registry = registry();
    let mut session = Session {
        reducer: &mut reducer,
        mutators: registry.iter().map(|m| m.as_ref()).collect(),
        print: PrintOptions::default(),
    };
    strategies::run(strategy, &mut session);
    String::from_utf8(reducer.best().to_vec()).unwrap()
}
