//! The `untrace` binary: replays a Z3 API trace (text or binary) against libz3. Its command
//! line is `untrace::cli`'s, which `mbt replay` shares.

use clap::Parser;
use std::path::PathBuf;
use std::process::ExitCode;
use untrace::cli::{ReplayArgs, EXIT_CODES};

/// Replays a Z3 API trace against libz3 and checks the recorded results.
#[derive(Parser, Debug)]
#[command(name = "untrace", version, after_help = EXIT_CODES)]
struct Cli {
    #[command(flatten)]
    replay: ReplayArgs,
    /// Run on this libz3 instead of the one untrace was linked against (a source build's
    /// libz3.so, the z3-solver wheel's, Debian's); checked first, exit 2 if unusable.
    #[arg(long, value_name = "PATH")]
    z3_lib: Option<PathBuf>,
}

fn main() -> ExitCode {
    untrace::cli::set_replayer_prefix(&[]);
    let cli = Cli::parse();
    // First, before anything touches Z3: this may re-execute untrace on the library.
    if let Some(path) = &cli.z3_lib {
        if let Err(e) = z3lib::run_on(path) {
            eprintln!("untrace: {e}");
            return ExitCode::from(untrace::replay::Exit::Usage as u8);
        }
    }
    untrace::cli::run(cli.replay)
}
