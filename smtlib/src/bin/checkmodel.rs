//! `checkmodel PROBLEM.smt2 RESPONSE [--interleaved]`: validates a solver's models against
//! the problem's assertions with the independent evaluator of `smtlib::eval`.

use clap::Parser;
use smtlib::eval::{check_files, Limits, Verdict};
use std::path::PathBuf;
use std::process::ExitCode;

const ABOUT: &str = "\
Validate a solver's models against an SMT-LIB problem, independently of the solver.

RESPONSE is the solver's output for PROBLEM: one sat/unsat/unknown line per check-sat, each
sat followed by its model as (model ...) or Z3's bare list of define-fun entries. At every
check-sat answered sat, every assertion in scope (push/pop aware) and every check-sat-assuming
assumption must be true under the model. A model may extend division by zero by defining
div, mod, rem, / (or Z3's div0, mod0, /0); that definition is used only where the divisor is
zero. Nothing after (exit) is read, in either mode.";

const AFTER: &str = "\
EXIT CODES:
    0   valid: every assertion holds under every model
    1   invalid: some assertion is false (its file:line:column and the values of its
        constants are printed)
    2   error: bad usage, a parse error, an ill-sorted term, an unsupported command, a
        response with fewer answers than the problem has check-sats (empty or truncated),
        a value beyond a limit below
    3   incomplete: no assertion is false, but some truth value depends on a symbol the model
        leaves without a value, an undefined operation (division by zero) the model does not
        extend, a sat answer without a model, or an unsupported construct (floating point,
        sequences, quantifiers over infinite domains)

LIMITS (docs/limits.md; beyond them: exit 2 with a one-line error naming file:line:column):
    term nesting          200,000 levels
    bit-vector values     2^24 bits (concat, repeat, zero_extend, sign_extend, int2bv)
    regex membership      derivatives of at most 200,000 nodes (re.loop and re.^ are never
                          unrolled, so their bounds have no limit)
    evaluation            50,000,000 steps (recursive definitions may not terminate)
    push/pop              no limit: (push N) costs one scope entry whatever N";

/// The command line (see `checkmodel --help`).
#[derive(Parser)]
#[command(name = "checkmodel", version, about = ABOUT, after_help = AFTER)]
struct Cli {
    /// The SMT-LIB v2.6 problem
    #[arg(value_name = "PROBLEM.smt2")]
    problem: PathBuf,
    /// The solver's output for PROBLEM
    #[arg(value_name = "RESPONSE")]
    response: PathBuf,
    /// Low-memory mode: read the response first, then stream the problem and evaluate each
    /// assertion as soon as it is read, never holding the problem
    #[arg(long)]
    interleaved: bool,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let Cli {
        problem,
        response,
        interleaved,
    } = cli;
    // Deep terms recurse deeply: evaluate on a thread with a large stack and a matching limit.
    let worker = std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || {
            let limits = Limits { max_depth: 200_000 };
            check_files(&problem, &response, interleaved, limits).map(|report| {
                println!("{report}");
                report.verdict()
            })
        });
    let outcome = match worker.map(|h| h.join()) {
        Ok(Ok(outcome)) => outcome,
        _ => {
            eprintln!("checkmodel: internal error: the checking thread failed");
            return ExitCode::from(2);
        }
    };
    match outcome {
        Ok(Verdict::Valid) => ExitCode::SUCCESS,
        Ok(Verdict::Invalid) => ExitCode::from(1),
        Ok(Verdict::Incomplete) => ExitCode::from(3),
        Err(e) => {
            eprintln!("checkmodel: {e}");
            ExitCode::from(2)
        }
    }
}
