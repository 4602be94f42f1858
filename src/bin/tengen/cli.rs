//! The command line (clap derive). Running `tengen` with no subcommand is
//! the same as `tengen gtp`: that is what GoGui and the CGOS client launch.

use clap::{Parser, Subcommand};

use crate::cmd::bench::BenchArgs;
use crate::cmd::book::BookArgs;
use crate::cmd::crosscheck::CrosscheckArgs;
use crate::cmd::matches::MatchArgs;
use crate::cmd::patterns::PatternsArgs;
use crate::cmd::results::ResultsArgs;
use crate::cmd::solve::SolveArgs;
use crate::cmd::table::TableArgs;
use crate::cmd::tsumego::TsumegoArgs;
use crate::cmd::tune::TuneArgs;
use crate::cmd::weights::WeightsArgs;

use crate::options::EngineArgs;

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
        tengen                                   # GTP on stdin/stdout, MCTS, all cores\n  \
        tengen --threads 1 --seed 7 --playouts 5000 --no-table gtp  # reproducible\n  \
        tengen --weights my.toml --live-gfx      # other weights, GoGui live graphics\n  \
        tengen bench --threads 2                 # search playouts/s, signature, scaling\n  \
        tengen bench --random                    # light playouts per second\n  \
        tengen --move-secs 1 match --opponent \"/usr/games/gnugo --mode gtp\" --games 20 --out m\n  \
        tengen results m --per 10 --plot m/score   # score per 10 games, table and chart\n  \
        tengen weights --describe                # every weight, its range and meaning\n  \
        tengen table info                        # the best-move table (docs/table.md)\n  \
        tengen --size 9 --komi 7 --table book/9x9.table book build --time 8h\n  \
        tengen crosscheck --games 100            # rules against GNU Go on random games"
)]
pub struct Cli {
    #[command(flatten)]
    pub engine: EngineArgs,
    #[command(subcommand)]
    pub command: Option<Commands>,
}

#[derive(Subcommand, Debug)]
pub enum Commands {
    /// Speak GTP v2 on stdin/stdout (the default).
    Gtp,
    /// Measure playout speed.
    Bench(BenchArgs),
    /// Cross-check the rules against GNU Go on random games.
    Crosscheck(CrosscheckArgs),
    /// Check a weights file and print it, or print the defaults.
    Weights(WeightsArgs),
    /// Play games against another GTP engine.
    Match(MatchArgs),
    /// Summarise finished matches (`match --out` directories): score, 95%
    /// interval and Elo per match or per block of games, with a chart.
    Results(ResultsArgs),
    /// Inspect, check, clear or benchmark the best-move table file.
    Table(TableArgs),
    /// Build, show or import the opening book (the best-move table).
    Book(BookArgs),
    /// Solve life-and-death problems (SGF or GoTools text files).
    Solve(SolveArgs),
    /// Tsumego tools: generate labelled problem sets.
    Tsumego(TsumegoArgs),
    /// Evolve weights (GA or adaptive DE) by solver or match fitness, with
    /// checkpoints, a report and a weights file with its provenance. The
    /// global --seed seeds the run and --weights gives the starting weights.
    Tune(Box<TuneArgs>),
    /// Learn move patterns from game records, or check a pattern file.
    Patterns(PatternsArgs),
}
