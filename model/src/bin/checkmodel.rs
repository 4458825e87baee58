//! `checkmodel PROBLEM.smt2 RESPONSE [--interleaved]`: validates a solver's models against
//! the problem's assertions with the independent evaluator of `model::eval`.

use model::eval::{check_files, Limits, Verdict};
use std::path::PathBuf;
use std::process::ExitCode;

const HELP: &str = "\
checkmodel: validate a solver's models against an SMT-LIB problem, independently of the solver.

USAGE:
    checkmodel PROBLEM.smt2 RESPONSE [--interleaved]

RESPONSE is the solver's output for PROBLEM: one sat/unsat/unknown line per check-sat, each
sat followed by its model as (model ...) or Z3's bare list of define-fun entries. At every
check-sat answered sat, every assertion in scope (push/pop aware) and every check-sat-assuming
assumption must be true under the model. A model may extend division by zero by defining
div, mod, / (or Z3's div0, mod0, /0); that definition is used only where the divisor is zero.

OPTIONS:
    --interleaved   low-memory mode: read the response first, then stream the problem and
                    evaluate each assertion as soon as it is read, never holding the problem
    -h, --help      print this help

EXIT CODES:
    0   valid: every assertion holds under every model
    1   invalid: some assertion is false (its file:line:column and the values of its
        constants are printed)
    2   error: bad usage, a parse error, an ill-sorted term, an unsupported command
    3   incomplete: no assertion is false, but some truth value depends on a symbol the model
        leaves without a value, an undefined operation (division by zero) the model does not
        extend, a sat answer without a model, or an unsupported construct (floating point,
        sequences, quantifiers over infinite domains)
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        print!("{HELP}");
        return ExitCode::SUCCESS;
    }
    let interleaved = args.iter().any(|a| a == "--interleaved");
    let files: Vec<&String> = args.iter().filter(|a| *a != "--interleaved").collect();
    if let Some(bad) = files.iter().find(|a| a.starts_with('-')) {
        eprintln!("checkmodel: unknown option {bad} (see --help)");
        return ExitCode::from(2);
    }
    let [problem, response] = files.as_slice() else {
        eprintln!("checkmodel: expected PROBLEM.smt2 RESPONSE (see --help)");
        return ExitCode::from(2);
    };
    let (problem, response) = (PathBuf::from(problem), PathBuf::from(response));
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
