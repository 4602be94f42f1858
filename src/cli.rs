//! The command line (clap derive). Running `tengen` with no subcommand is
//! the same as `tengen gtp`: that is what GoGui and the CGOS client launch.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use tengen::engine::{EngineConfig, EngineKind};
use tengen::rules::{KoRule, Rules};

#[derive(Parser, Debug)]
#[command(
    name = "tengen",
    version,
    about = "tengen, a Go engine that speaks GTP v2",
    long_about = "tengen, a Go engine that speaks GTP v2.\n\n\
        Without a subcommand it reads GTP commands on stdin and answers on stdout, \
        so a GUI or server client can launch it as it is, for example in GoGui: \
        Program > New Program, command `tengen`.\n\n\
        Examples:\n  \
        tengen                        # GTP on stdin/stdout\n  \
        tengen --seed 7 gtp           # same, reproducible random engine\n  \
        tengen bench --random         # light playouts per second, 9x9 and 19x19\n  \
        tengen crosscheck --games 100 # rules against GNU Go on random games"
)]
pub struct Cli {
    #[command(flatten)]
    pub engine: EngineArgs,
    #[command(subcommand)]
    pub command: Option<Commands>,
}

/// Options of the engine; they apply to every subcommand that plays.
#[derive(Args, Debug, Clone)]
pub struct EngineArgs {
    /// Move generator: `random` (uniform legal moves that never fill an own eye).
    #[arg(long, global = true, default_value = "random", value_name = "NAME")]
    pub engine: EngineKind,
    /// Random seed; the same seed reproduces the same moves.
    #[arg(long, global = true, default_value_t = 0)]
    pub seed: u64,
    /// Board size at start-up (GTP `boardsize` changes it), 2 to 25.
    #[arg(long, global = true, default_value_t = 19, value_parser = clap::value_parser!(u8).range(2..=25))]
    pub size: u8,
    /// Komi at start-up (GTP `komi` changes it).
    #[arg(
        long,
        global = true,
        default_value_t = 7.5,
        allow_negative_numbers = true
    )]
    pub komi: f64,
    /// Repetition rule: positional (CGOS), situational or simple.
    #[arg(long, global = true, default_value = "positional", value_name = "RULE")]
    pub ko: KoRule,
    /// Allow suicide (multi-stone and single-stone).
    #[arg(long, global = true)]
    pub allow_suicide: bool,
    /// Restrict `loadsgf`/`printsgf` to relative paths below DIR.
    #[arg(long, global = true, value_name = "DIR")]
    pub files_under: Option<PathBuf>,
}

impl EngineArgs {
    pub fn config(&self) -> EngineConfig {
        EngineConfig {
            kind: self.engine,
            seed: self.seed,
            rules: Rules {
                ko: self.ko,
                allow_suicide: self.allow_suicide,
            },
            size: self.size as usize,
            komi: self.komi,
            file_root: self.files_under.clone(),
            ..EngineConfig::default()
        }
    }
}

#[derive(Subcommand, Debug)]
pub enum Commands {
    /// Speak GTP v2 on stdin/stdout (the default).
    Gtp,
    /// Measure playout speed.
    Bench(BenchArgs),
    /// Cross-check the rules against GNU Go on random games.
    Crosscheck(CrosscheckArgs),
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Light random playouts from the empty board (the only mode so far).
    #[arg(long, default_value_t = true)]
    pub random: bool,
    /// Board sizes to measure.
    #[arg(long, value_delimiter = ',', default_values_t = [9u8, 19])]
    pub sizes: Vec<u8>,
    /// Playouts per board size.
    #[arg(long, default_value_t = 100_000)]
    pub playouts: usize,
}

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
