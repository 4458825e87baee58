//! One round: a pure function of its seed. [`run_round`] drives the state machine on a system
//! under test and returns a [`RoundReport`]; [`run_recorded_round`] does so on the real
//! executor, recording the trace to a writer.

use crate::failure::Failure;
use crate::machine;
use crate::round_state::{RoundConfig, RoundState};
use crate::stats::Stats;
use crate::sut::Sut;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::io::Write;

/// What a round did and found.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundReport {
    pub seed: u64,
    pub stats: Stats,
    pub failure: Option<Failure>,
    /// The options the round set, in order.
    pub options: Vec<(String, String)>,
    pub n_calls: u64,
}

/// Runs round `seed` on `sut`.
pub fn run_round(sut: &mut dyn Sut, config: &RoundConfig, seed: u64) -> RoundReport {
    let rng = ChaCha8Rng::seed_from_u64(seed);
    let mut cx = RoundState::new(sut, config.clone(), seed, rng);
    let failure = machine::drive(&mut cx).err();
    let mut stats = std::mem::take(&mut cx.stats);
    stats.set_independent(cx.sut.counters());
    stats.count_round_theories();
    RoundReport {
        seed,
        stats,
        failure,
        options: std::mem::take(&mut cx.options_set),
        n_calls: cx.n_calls,
    }
}

/// Runs round `seed` on the executor, recording its trace to `out`.
pub fn run_recorded_round(config: &RoundConfig, seed: u64, out: Box<dyn Write>) -> RoundReport {
    let mut executor = untrace::Executor::new(untrace::ExecConfig {
        check_results: false,
        term_texts: config.independent,
        ..untrace::ExecConfig::default()
    });
    executor.record_to(out);
    run_round(&mut executor, config, seed)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::options::OptionModel;
    use crate::sut::DrySut;
    use model::{SatResult, Theory};
    use std::sync::{Arc, Mutex};

    pub(crate) fn dry_config() -> RoundConfig {
        RoundConfig {
            theories: Theory::ALL.to_vec(),
            option_fuzzing: true,
            options: Arc::new(OptionModel::default()),
            rlimit: 1000,
            inject: None,
            independent: true,
            translate_default: true,
            count_z3_functions: true,
            differential: None,
            left_out_ops: Vec::new(),
        }
    }

    /// A writer the test can read back.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);
    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn dry_trace(seed: u64, answer: SatResult) -> (RoundReport, String) {
        let mut sut = DrySut::new(answer);
        let buf = Shared::default();
        sut.record_to(Box::new(buf.clone()));
        let report = run_round(&mut sut, &dry_config(), seed);
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        (report, text)
    }

    #[test]
    fn dry_rounds_finish_without_findings_and_only_valid_calls() {
        for seed in 0..60 {
            for answer in [SatResult::Sat, SatResult::Unsat] {
                let (report, text) = dry_trace(seed, answer);
                assert_eq!(report.failure, None, "seed {seed}");
                // The trace parses and every call is valid in the reference state.
                let trace = model::trace::text::parse(&text).expect("trace parses");
                let mut state = model::State::new();
                for e in &trace.entries {
                    state.apply(&e.call, e.ret.as_ref()).expect("valid call");
                }
                assert!(
                    state.solvers.is_empty(),
                    "round ends with every solver deleted"
                );
            }
        }
    }

    #[test]
    fn a_round_is_a_function_of_its_seed() {
        let (a, ta) = dry_trace(42, SatResult::Sat);
        let (b, tb) = dry_trace(42, SatResult::Sat);
        assert_eq!(ta, tb);
        assert_eq!(a, b);
        let (_, tc) = dry_trace(43, SatResult::Sat);
        assert_ne!(ta, tc);
    }

    #[test]
    fn many_dry_rounds_use_every_operation() {
        let mut stats = Stats::default();
        for seed in 0..800 {
            let answer = if seed % 2 == 0 {
                SatResult::Sat
            } else {
                SatResult::Unsat
            };
            stats.merge(&dry_trace(seed, answer).0.stats);
        }
        for op in model::ops::OPS {
            assert!(
                stats.calls.get(op.name).is_some_and(|c| c.ok > 0),
                "never built {}",
                op.name
            );
        }
        // `from_string` is what `check_dump` calls inside the executor; every check is a line.
        // `cube` is what lifted Z3 API logs make of `Z3_solver_cube`: the fuzzer cubes through
        // `check_cubes`, which judges the cubes (a bare cube of a solver without assertions
        // segfaults Z3, a known bug that would end rounds).
        let names = model::Call::action_names()
            .iter()
            .chain(model::Check::names());
        // `read_rcf`, `check_congruence`, `check_simplifier`, `check_initial_value`, `check_parser_context`, `check_chars` and `check_rcf_sign_conditions` need functions only releases after 4.8.12 have:
        // their actions apply only where the loaded libz3 has them.
        let newer_missing = |name: &str| match name {
            "read_rcf" => model::read::Reader::of(model::read::Subject::Rcf)
                .all(|r| !untrace::executor::read::available(r)),
            "check_congruence" => !untrace::executor::read::congruence_available(),
            "check_simplifier" => !untrace::executor::read::simplifiers_available(),
            "check_initial_value" => !untrace::executor::read::initial_values_available(),
            "check_propagator" => !untrace::executor::read::propagators_available(),
            "check_proof_callback" => !untrace::executor::read::proof_checks_available(),
            "check_parser_context" => !untrace::executor::read::parser_contexts_available(),
            "check_chars" => !untrace::executor::read::chars_available(),
            "check_rcf_sign_conditions" => !untrace::executor::read::sign_conditions_available(),
            "check_qe_witness" => !untrace::executor::read::qe_witness_available(),
            // Z3's finite sets (the calls of the family and its check).
            name if name == "sort_finite_set"
                || name.starts_with("fset_")
                || name == "check_fset" =>
            {
                !untrace::executor::read::finite_sets_available()
            }
            "seq_hof" => !untrace::executor::read::seq_hofs_available(),
            "check_complex" => !untrace::executor::read::complex_available(),
            "check_poly_datatype" => !untrace::executor::read::poly_datatypes_available(),
            // Z3's prime fields.
            name if name == "sort_finite_field"
                || name.starts_with("ff_")
                || name == "check_ff" =>
            {
                !untrace::executor::read::finite_fields_available()
            }
            _ => false,
        };
        for name in names.filter(|n| !matches!(**n, "from_string" | "cube") && !newer_missing(n)) {
            assert!(
                stats.calls.get(*name).is_some_and(|c| c.ok > 0),
                "never called {name}"
            );
        }
    }
}
