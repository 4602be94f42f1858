//! The `tengen` binary: parse the command line, run one job, map errors to
//! exit codes.

mod cli;

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Parser;

use cli::{BenchArgs, Cli, Commands, CrosscheckArgs};
use tengen::engine::Engine;
use tengen::gtp::{self, Session};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        None | Some(Commands::Gtp) => run_gtp(&cli),
        Some(Commands::Bench(args)) => run_bench(args),
        Some(Commands::Crosscheck(args)) => run_crosscheck(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("tengen: error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run_gtp(cli: &Cli) -> Result<ExitCode> {
    let engine = Engine::new(cli.engine.config()).context("cannot start the engine")?;
    eprintln!(
        "tengen {}: engine '{}', {}x{} board, komi {}, {} ko; speaking GTP on stdin/stdout",
        env!("CARGO_PKG_VERSION"),
        engine.player_name(),
        engine.game().size(),
        engine.game().size(),
        engine.game().komi(),
        cli.engine.ko
    );
    let mut session = Session::new(engine);
    let stdin = io::stdin();
    let stdout = io::stdout();
    gtp::run(&mut session, stdin.lock(), stdout.lock()).context("reading GTP commands")?;
    Ok(ExitCode::SUCCESS)
}

fn run_bench(args: &BenchArgs) -> Result<ExitCode> {
    if !args.random {
        anyhow::bail!("only `tengen bench --random` exists so far");
    }
    println!("light random playouts from the empty board, 1 thread, seed 1");
    println!(
        "{:>5} {:>10} {:>12} {:>12} {:>10} {:>18}",
        "size", "playouts", "playouts/s", "us/playout", "moves/po", "signature"
    );
    for &size in &args.sizes {
        anyhow::ensure!(
            (2..=25).contains(&size),
            "board size {size} is not supported (2 to 25)"
        );
        let r = tengen::bench::light_playouts(size as usize, args.playouts);
        println!(
            "{:>5} {:>10} {:>12.0} {:>12.2} {:>10.1} {:>18}",
            format!("{0}x{0}", size),
            r.playouts,
            r.playouts_per_second(),
            r.micros_per_playout(),
            r.moves as f64 / r.playouts as f64,
            format!("{:016x}", r.signature)
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn run_crosscheck(args: &CrosscheckArgs) -> Result<ExitCode> {
    let tty = io::stderr().is_terminal();
    let size = args.board_size as usize;
    let report = tengen::crosscheck::run(&args.gnugo, size, args.games, args.game_seed, |r| {
        if tty {
            eprint!(
                "\rgame {}/{}  moves {}  disagreements {}  superko cases {}   ",
                r.games,
                args.games,
                r.moves,
                r.disagreements(),
                r.superko_positions
            );
        } else if r.games % 50 == 0 || r.games == args.games {
            eprintln!(
                "game {}/{} moves {} disagreements {} superko cases {}",
                r.games,
                args.games,
                r.moves,
                r.disagreements(),
                r.superko_positions
            );
        }
    })
    .with_context(|| format!("cross-check against '{}'", args.gnugo.display()))?;
    if tty {
        eprintln!();
    }
    let mut out = io::stdout().lock();
    if args.verbose || report.disagreements() > 0 {
        for line in &report.log {
            writeln!(out, "{line}")?;
        }
    } else {
        for line in report.log.iter().filter(|l| l.contains("superko")) {
            writeln!(out, "{line}")?;
        }
    }
    writeln!(
        out,
        "{size}x{size}: {} games, {} moves, {} positions x 2 colours compared; \
         legality disagreements {}, stone disagreements {}, refused moves {}; \
         superko-only differences {} (expected: GNU Go uses simple ko)",
        report.games,
        report.moves,
        report.positions,
        report.legality_disagreements,
        report.stone_disagreements,
        report.refused_moves,
        report.superko_positions
    )?;
    Ok(if report.disagreements() == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
