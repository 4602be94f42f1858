//! The `tengen` binary: parse the command line, hand it to the subcommand
//! (one file each under cmd/), map errors to exit codes.

mod cli;
mod cmd;
mod huge;
mod options;

use std::process::ExitCode;

use clap::Parser;

use cli::{Cli, Commands};

#[global_allocator]
static ALLOC: huge::HugePages = huge::HugePages;

/// Output cut short by the reader (`tengen weights --defaults | head -3`)
/// ends the program quietly with status 141, as a Unix tool killed by
/// SIGPIPE ends, instead of a panic with a backtrace: Rust ignores SIGPIPE,
/// so `print!` to a closed pipe panics.
fn quiet_on_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let msg = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if msg.starts_with("failed printing to std") && msg.contains("Broken pipe") {
            std::process::exit(141);
        }
        default(info);
    }));
}

fn main() -> ExitCode {
    quiet_on_broken_pipe();
    let cli = Cli::parse();
    let result = match &cli.command {
        None | Some(Commands::Gtp) => cmd::gtp::run(&cli.engine),
        Some(Commands::Bench(args)) => cmd::bench::run(&cli.engine, args),
        Some(Commands::Weights(args)) => cmd::weights::run(&cli.engine, args),
        Some(Commands::Match(args)) => cmd::matches::run(&cli.engine, args),
        Some(Commands::Results(args)) => cmd::results::run(args),
        Some(Commands::Crosscheck(args)) => cmd::crosscheck::run(args),
        Some(Commands::Table(args)) => cmd::table::run(&cli.engine, args),
        Some(Commands::Book(args)) => cmd::book::run(&cli.engine, args),
        Some(Commands::Solve(args)) => cmd::solve::run(&cli.engine, args),
        Some(Commands::Tsumego(args)) => cmd::tsumego::run(&cli.engine, args),
        Some(Commands::Tune(args)) => run_tune(&cli.engine, args),
        Some(Commands::Patterns(args)) => cmd::patterns::run(&cli.engine, args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            // The error and its causes, skipping a cause whose text the
            // message already contains (many errors quote their source).
            let mut msg = e.to_string();
            for cause in e.chain().skip(1) {
                let c = cause.to_string();
                if !msg.contains(&c) {
                    msg = format!("{msg}: {c}");
                }
            }
            eprintln!("tengen: error: {msg}");
            ExitCode::from(2)
        }
    }
}

/// `tengen tune`: under `mpirun` with several ranks (feature `mpi`) the MPI
/// driver, else the local one.
fn run_tune(engine: &options::EngineArgs, args: &cmd::tune::TuneArgs) -> anyhow::Result<ExitCode> {
    #[cfg(feature = "mpi")]
    if !args.list
        && let Some(code) = cmd::tune_mpi::run(engine, args)?
    {
        return Ok(code);
    }
    cmd::tune::run(engine, args)
}
