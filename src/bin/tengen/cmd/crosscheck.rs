//! `tengen crosscheck`: the rules against GNU Go on random games.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;

#[derive(Args, Debug)]
pub struct CrosscheckArgs {
    /// The GNU Go binary.
    #[arg(long, default_value = "/usr/games/gnugo")]
    pub gnugo: PathBuf,
    /// Number of random games.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Board size of the games.
    #[arg(long, default_value_t = 9, value_parser = clap::value_parser!(u8).range(2..=25))]
    pub board_size: u8,
    /// Seed of the random move choice.
    #[arg(long = "game-seed", default_value_t = 1)]
    pub game_seed: u64,
    /// Print every disagreement, not just the summary.
    #[arg(long)]
    pub verbose: bool,
}

pub fn run(args: &CrosscheckArgs) -> Result<ExitCode> {
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
