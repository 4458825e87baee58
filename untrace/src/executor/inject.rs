//! TEST-ONLY fault injection into the executor, so that tests can produce every kind of
//! finding on purpose and follow it through the real pipeline: the fuzzer's round records it,
//! `untrace` replays it (the variable is inherited by every replay), `ddtrace` minimizes it.
//! The executor misbehaves as a faulty Z3 would; the trace stays an honest record.
//!
//! `UNTRACE_INJECT=FAULT` with FAULT one of:
//!
//! | fault | effect | finding |
//! | --- | --- | --- |
//! | `abort@PAT` | abort before a call whose trace line contains PAT | crash |
//! | `hang@PAT` | loop forever before such a call | timeout |
//! | `alloc@PAT` | allocate without bound before such a call | memout |
//! | `error@PAT` | such a call fails with a Z3 error | z3-error |
//! | `flip-solver@N` | every definite check of the N-th solver made answers the opposite | shadow, config |
//! | `wrong-eval@OP` | `model_eval` of a Bool term built by operation OP is negated | model, eval-disagreement |
//! | `empty-core` | `get_unsat_core` answers an empty core | core |
//! | `wrong-model` | `assert` asserts the negation of its term | model |
//! | `dump-false` | the dump check parses `(assert false)` after the dump | dump |
//! | `wrong-simplify` | `simplify` and `simplify_with` of a Bool term answer its negation | simplify |
//! | `wrong-numeral` | `check_literal` builds integer values one too large by machine integers, and judges a string's bytes read back against one more byte | literal |
//! | `wrong-quantifier` | `forall` builds an `exists` and the other way round | model |
//! | `no-proof` | `get_proof` fails as if Z3 had no proof | z3-error (where a proof is due) |
//! | `wrong-consequence` | every consequence `check_consequences` gets is negated | consequence |
//! | `wrong-cube` | every cube `check_cubes` gets is `false` | cube |
//! | `drop-subgoal` | `check_goal` reads every subgoal with `false` added | tactic |
//! | `wrong-opt-value` | `check_opt_values` reads each reported optimum one too large | optimize |
//! | `worse-optimum` | `check_opt_better` reads each objective's value in the model one step worse | optimize |
//! | `wrong-read` | (also: `sort_finite_set` reads another basis, `sort_finite_field` another order) every read-back (`read`, `read_sort`) that answers an integer answers one more, and so do the sizes of `ast_map`'s and `ast_vector`'s containers and `Z3_global_param_get` of a number; `sort_fp_fixed` sees another sort; `const_int_sym`, `fun_int_sym`, `fun_fresh` and `update_term` judge their answer wrong; `quant_rebuild` reads the weight one more; `qe_project`/`qe_lite` read their result's value in the model negated; every `opt_read` and `model_read` reader reads its component wrong (a parsed-back or translated context's answer flipped, an assertion list, objective count, bound vector, core, reason, statistics entry, table, `has_interp`, name, value or extrapolation otherwise) | read-back (`opt_read`: also dump, core, shadow) |
//! | `wrong-relation` | `check_relation` reads the relation of its first value to itself as false | model |
//! | `wrong-rcf` | `rcf_add` and `algebraic_add` make a sum one too large; `check_algebraic_poly` reads `Z3_algebraic_eval`'s signs negated, `check_subresultants` the chain one coefficient short, `check_rcf_sign_conditions` each stated sign negated | rcf |
//! | `wrong-goal-read` | a `tactic_skip` application reads as changing the goal; the goal readers and `probe_apply` read their component values wrong (a decided goal's formulas negated, a translated goal printed otherwise, a converted model negated, a probe combination's value flipped) | tactic |
//! | `wrong-interrupt` | `check_interrupt` reads the check after the interrupt as answering the opposite | shadow |
//! | `wrong-fset` | `check_fset` and `check_ff` read their first atom with its constants replaced wrong (a Bool negated, an Int one more, a set with one more element, a field element one more); `check_complex` reads z's real part one more; `check_poly_datatype` expects the pair's fields the other way round | eval-disagreement |
//! | `wrong-fixedpoint` | `check_fp` reads Z3's answer negated (an `unsat`'s invariant, each fact a `sat`'s derivation derives); a query asked again from level 0 answers the opposite | fixedpoint |
//! | `wrong-propagator` | `check_propagator` forgets the first assignment it enumerates and reads the first Boolean value `fixed` reports negated; `check_proof_callback` counts one call of the proof checker more after unsat | propagator, dump |
//!
//! The older `UNTRACE_FAIL_ON=PAT` is `abort@PAT`. `UNTRACE_INJECT_OTHER=FAULT` injects FAULT
//! only into the other side of a differential replay (`--diff-lib`,
//! [`crate::differential::INJECT_OTHER_ENV`]). Never set any of them outside tests.

/// The environment variable that switches injection on.
pub const ENV: &str = "UNTRACE_INJECT";
/// The older form of `abort@PAT`.
pub const FAIL_ON_ENV: &str = "UNTRACE_FAIL_ON";

/// An injected fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    Abort(String),
    Hang(String),
    Alloc(String),
    Error(String),
    FlipSolver(u32),
    WrongEval(String),
    EmptyCore,
    DumpFalse,
    WrongModel,
    WrongNumeral,
    WrongSimplify,
    WrongQuantifier,
    NoProof,
    WrongConsequence,
    WrongCube,
    DropSubgoal,
    WrongOptValue,
    WorseOptimum,
    WrongRead,
    WrongRelation,
    WrongRcf,
    WrongFixedpoint,
    WrongGoalRead,
    WrongInterrupt,
    WrongPropagator,
    WrongFset,
}

impl Fault {
    /// Parses a fault as written in [`ENV`].
    pub fn parse(text: &str) -> Result<Fault, String> {
        let bad = || {
            format!(
                "{ENV}: expected abort@PAT, hang@PAT, alloc@PAT, error@PAT, flip-solver@N, \
                 wrong-eval@OP, empty-core, dump-false, wrong-model, wrong-numeral, \
                 wrong-simplify, wrong-quantifier, no-proof, wrong-consequence, wrong-cube, \
                 drop-subgoal, wrong-opt-value, worse-optimum, wrong-read, wrong-relation, wrong-rcf, wrong-fixedpoint, wrong-goal-read, wrong-interrupt, wrong-propagator or wrong-fset, got \
                 `{text}`"
            )
        };
        let (kind, arg) = match text.split_once('@') {
            Some((k, a)) if !a.is_empty() => (k, Some(a.to_string())),
            Some(_) => return Err(bad()),
            None => (text, None),
        };
        Ok(match (kind, arg) {
            ("abort", Some(p)) => Fault::Abort(p),
            ("hang", Some(p)) => Fault::Hang(p),
            ("alloc", Some(p)) => Fault::Alloc(p),
            ("error", Some(p)) => Fault::Error(p),
            ("flip-solver", Some(n)) => Fault::FlipSolver(n.parse().map_err(|_| bad())?),
            ("wrong-eval", Some(op)) => Fault::WrongEval(op),
            ("empty-core", None) => Fault::EmptyCore,
            ("dump-false", None) => Fault::DumpFalse,
            ("wrong-model", None) => Fault::WrongModel,
            ("wrong-numeral", None) => Fault::WrongNumeral,
            ("wrong-simplify", None) => Fault::WrongSimplify,
            ("wrong-quantifier", None) => Fault::WrongQuantifier,
            ("no-proof", None) => Fault::NoProof,
            ("wrong-consequence", None) => Fault::WrongConsequence,
            ("wrong-cube", None) => Fault::WrongCube,
            ("drop-subgoal", None) => Fault::DropSubgoal,
            ("wrong-opt-value", None) => Fault::WrongOptValue,
            ("worse-optimum", None) => Fault::WorseOptimum,
            ("wrong-read", None) => Fault::WrongRead,
            ("wrong-relation", None) => Fault::WrongRelation,
            ("wrong-rcf", None) => Fault::WrongRcf,
            ("wrong-fixedpoint", None) => Fault::WrongFixedpoint,
            ("wrong-goal-read", None) => Fault::WrongGoalRead,
            ("wrong-interrupt", None) => Fault::WrongInterrupt,
            ("wrong-propagator", None) => Fault::WrongPropagator,
            ("wrong-fset", None) => Fault::WrongFset,
            _ => return Err(bad()),
        })
    }

    /// The fault the environment asks for: [`ENV`], else [`FAIL_ON_ENV`]. A malformed value
    /// is reported once on stderr and ignored.
    pub fn from_env() -> Option<Fault> {
        if let Some(text) = std::env::var(ENV).ok().filter(|v| !v.is_empty()) {
            return match Fault::parse(&text) {
                Ok(fault) => Some(fault),
                Err(message) => {
                    eprintln!("{message}");
                    None
                }
            };
        }
        std::env::var(FAIL_ON_ENV)
            .ok()
            .filter(|p| !p.is_empty())
            .map(Fault::Abort)
    }

    /// The pattern matched against trace lines before a call runs, if the fault has one.
    pub fn line_pattern(&self) -> Option<&str> {
        match self {
            Fault::Abort(p) | Fault::Hang(p) | Fault::Alloc(p) | Fault::Error(p) => Some(p),
            _ => None,
        }
    }

    /// Fires a line fault before a call whose line is `line`: aborts, hangs or allocates
    /// (never returning), or answers the injected Z3 error.
    pub fn before_call(&self, line: &str) -> Result<(), String> {
        match self.line_pattern() {
            Some(p) if line.contains(p) => {}
            _ => return Ok(()),
        }
        match self {
            Fault::Abort(_) => {
                eprintln!("UNTRACE_INJECT (test-only): aborting before `{line}`");
                std::process::abort()
            }
            Fault::Hang(_) => loop {
                std::thread::sleep(std::time::Duration::from_millis(50));
            },
            Fault::Alloc(_) => {
                let mut hog: Vec<Vec<u8>> = Vec::new();
                loop {
                    // Touched, so that the memory is really taken; the address-space limit
                    // (RLIMIT_AS) stops it.
                    hog.push(vec![1u8; 64 << 20]);
                    std::hint::black_box(&hog);
                }
            }
            _ => Err("Exception: injected error (UNTRACE_INJECT, test-only)".into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_fault() {
        assert_eq!(
            Fault::parse("abort@xor t1"),
            Ok(Fault::Abort("xor t1".into()))
        );
        assert_eq!(Fault::parse("flip-solver@2"), Ok(Fault::FlipSolver(2)));
        assert_eq!(Fault::parse("wrong-numeral"), Ok(Fault::WrongNumeral));
        assert_eq!(Fault::parse("wrong-simplify"), Ok(Fault::WrongSimplify));
        assert_eq!(Fault::parse("wrong-quantifier"), Ok(Fault::WrongQuantifier));
        assert_eq!(
            Fault::parse("wrong-eval@bvadd"),
            Ok(Fault::WrongEval("bvadd".into()))
        );
        assert_eq!(Fault::parse("empty-core"), Ok(Fault::EmptyCore));
        assert_eq!(Fault::parse("dump-false"), Ok(Fault::DumpFalse));
        assert_eq!(Fault::parse("wrong-relation"), Ok(Fault::WrongRelation));
        assert_eq!(Fault::parse("wrong-propagator"), Ok(Fault::WrongPropagator));
        for bad in [
            "abort",
            "abort@",
            "flip-solver@x",
            "empty-core@1",
            "nonsense@1",
        ] {
            assert!(Fault::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn line_faults_fire_only_on_matching_lines() {
        let f = Fault::Error("check_sat".into());
        assert_eq!(f.before_call("assert z1 t2"), Ok(()));
        assert!(f.before_call("check_sat z1").is_err());
        assert_eq!(Fault::EmptyCore.before_call("check_sat z1"), Ok(()));
    }
}
