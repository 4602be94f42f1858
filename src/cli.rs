//! The command line (clap derive). Running `tengen` with no subcommand is
//! the same as `tengen gtp`: that is what GoGui and the CGOS client launch.

use std::path::PathBuf;
use std::sync::Arc;

use clap::{Args, Parser, Subcommand};

use tengen::engine::{EngineConfig, EngineKind, PlayOptions};
use tengen::rules::{KoRule, Rules};
use tengen::search::SearchConfig;
use tengen::table::Table;

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
        tengen --move-secs 1 match --opponent \"/usr/games/gnugo --mode gtp\" --games 20\n  \
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

/// Options of the engine; they apply to every subcommand that plays.
#[derive(Args, Debug, Clone)]
pub struct EngineArgs {
    /// Move generator: `mcts` (the tree search) or `random` (uniform legal
    /// moves that never fill an own eye).
    #[arg(long, global = true, default_value = "mcts", value_name = "NAME")]
    pub engine: EngineKind,
    /// Search threads (default: the number of cores).
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// Fixed playouts per move; overrides the clock (reproducible with
    /// --threads 1 --seed S and --no-table or the same table contents).
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub playouts: Option<u64>,
    /// Seconds per move when the controller sets no time limit.
    #[arg(long, global = true, default_value_t = 5.0, value_name = "SECS")]
    pub move_secs: f64,
    /// Memory cap of the search tree in MiB; when reached, the tree stops
    /// growing and the search goes on with what it has.
    #[arg(long, global = true, default_value_t = 1024, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
    pub max_tree_mb: u64,
    /// Search on the opponent's time; any new command stops it.
    #[arg(long, global = true)]
    pub ponder: bool,
    /// Dynamic komi in handicap games (see docs/gtp.md).
    #[arg(long, global = true)]
    pub dynamic_komi: bool,
    /// GoGui live graphics (gogui-gfx:) on stderr while searching.
    #[arg(long, global = true)]
    pub live_gfx: bool,
    /// No progress lines and move summaries on stderr.
    #[arg(long, global = true)]
    pub quiet: bool,
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
    /// Weights file (TOML); the built-in defaults equal weights/default.toml.
    #[arg(long, global = true, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// Allow suicide (multi-stone and single-stone).
    #[arg(long, global = true)]
    pub allow_suicide: bool,
    /// Restrict `loadsgf`/`printsgf` to relative paths below DIR.
    #[arg(long, global = true, value_name = "DIR")]
    pub files_under: Option<PathBuf>,
    /// Best-move table file, created on first use (default: $TENGEN_TABLE;
    /// else book/tengen.table when ./book exists; else
    /// ~/.local/share/tengen/tengen.table). See docs/table.md.
    #[arg(long, global = true, value_name = "FILE")]
    pub table: Option<PathBuf>,
    /// Entries of a new table: a power of two from 1024 to 2^32 [default:
    /// 4194304, a 48 MiB file]. An existing file must have this many.
    #[arg(long, global = true, value_name = "N")]
    pub table_entries: Option<u64>,
    /// Search without the best-move table (no probes, no stores).
    #[arg(long, global = true)]
    pub no_table: bool,
}

impl EngineArgs {
    /// The weights: the file of `--weights`, or the built-in defaults.
    pub fn load_weights(&self) -> anyhow::Result<tengen::weights::Weights> {
        match &self.weights {
            Some(path) => Ok(tengen::weights::Weights::load(path)?),
            None => Ok(tengen::weights::Weights::default()),
        }
    }

    /// The arguments that start this program as a GTP engine with the
    /// same engine options (for `match`).
    pub fn gtp_args(&self) -> Vec<String> {
        let mut a = vec![
            "--engine".to_string(),
            match self.engine {
                EngineKind::Mcts => "mcts".into(),
                EngineKind::Random => "random".into(),
            },
            "--seed".into(),
            self.seed.to_string(),
            "--move-secs".into(),
            self.move_secs.to_string(),
            "--max-tree-mb".into(),
            self.max_tree_mb.to_string(),
            "--ko".into(),
            self.ko.to_string(),
            "--quiet".into(),
        ];
        if let Some(t) = self.threads {
            a.extend(["--threads".into(), t.to_string()]);
        }
        if let Some(p) = self.playouts {
            a.extend(["--playouts".into(), p.to_string()]);
        }
        if let Some(w) = &self.weights {
            a.extend(["--weights".into(), w.display().to_string()]);
        }
        if self.dynamic_komi {
            a.push("--dynamic-komi".into());
        }
        if self.allow_suicide {
            a.push("--allow-suicide".into());
        }
        if self.no_table {
            a.push("--no-table".into());
        }
        if let Some(t) = &self.table {
            a.extend(["--table".into(), t.display().to_string()]);
        }
        if let Some(n) = self.table_entries {
            a.extend(["--table-entries".into(), n.to_string()]);
        }
        a.push("gtp".into());
        a
    }

    pub fn rules(&self) -> Rules {
        Rules {
            ko: self.ko,
            allow_suicide: self.allow_suicide,
        }
    }

    /// The table file these options name.
    pub fn table_path(&self) -> PathBuf {
        self.table
            .clone()
            .unwrap_or_else(tengen::table::default_path)
    }

    /// Opens (creating on first use) the best-move table for play, unless
    /// `--no-table` or an engine without a search. Warnings go to stderr.
    pub fn open_table(&self) -> anyhow::Result<Option<Arc<Table>>> {
        if self.no_table || self.engine != EngineKind::Mcts {
            anyhow::ensure!(
                self.table.is_none() || !self.no_table,
                "--table and --no-table contradict each other"
            );
            return Ok(None);
        }
        let path = self.table_path();
        let t = Table::open_default(&path, self.table_entries)?;
        if let Some(why) = t.read_only() {
            eprintln!("tengen: warning: table {}: {why}", path.display());
        }
        if t.was_dirty() && t.read_only().is_none() {
            eprintln!(
                "tengen: note: table {} was not closed cleanly; torn entries are ignored (`tengen table verify` counts them)",
                path.display()
            );
        }
        Ok(Some(t))
    }

    pub fn config(&self) -> anyhow::Result<EngineConfig> {
        anyhow::ensure!(
            self.move_secs.is_finite() && self.move_secs > 0.0,
            "--move-secs must be a positive number of seconds, not {}",
            self.move_secs
        );
        let threads = self.threads.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            |n| n as usize,
        );
        Ok(EngineConfig {
            kind: self.engine,
            seed: self.seed,
            rules: Rules {
                ko: self.ko,
                allow_suicide: self.allow_suicide,
            },
            size: self.size as usize,
            komi: self.komi,
            file_root: self.files_under.clone(),
            weights: self.load_weights()?,
            search: SearchConfig {
                threads,
                max_tree_bytes: (self.max_tree_mb as usize) << 20,
                seed: self.seed,
                reuse: true,
            },
            play: PlayOptions {
                playouts: self.playouts,
                default_move_secs: self.move_secs,
                verbose: !self.quiet,
                live_gfx: self.live_gfx,
                dynamic_komi: self.dynamic_komi,
                ..PlayOptions::default()
            },
            ponder: self.ponder,
            ..EngineConfig::default()
        })
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
    /// Check a weights file and print it, or print the defaults.
    Weights(WeightsArgs),
    /// Play games against another GTP engine.
    Match(MatchArgs),
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
}

/// `tengen tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// ga (genetic algorithm) or de (adaptive differential evolution).
    #[arg(long, default_value = "de", value_parser = ["ga", "de"])]
    pub algorithm: String,
    /// Weight groups to tune: static, dynamic, pruning, playout, tree or
    /// all; join several with '+'.
    #[arg(long, default_value = "static+dynamic")]
    pub group: String,
    /// static (rank of the correct first move), dynamic (level-1 leaves;
    /// for the pruning group: errors and leaves at --level) or match (games).
    #[arg(long, default_value = "dynamic", value_parser = ["static", "dynamic", "match"])]
    pub fitness: String,
    /// Dynamic fitness: neg-sum (-sum new), old2-over-new (sum old^2/new),
    /// ratio (sum old/new) or inverse (sum 1/new).
    #[arg(long, default_value = "neg-sum")]
    pub formula: String,
    /// Training problems: a folder (read recursively), a problem file, or
    /// a list (`.lst`, one '<file> <id>' a line, as the report writes).
    #[arg(long, value_name = "PATH")]
    pub train: Option<PathBuf>,
    /// Test problems for the report (never used for selection): a folder,
    /// a file or a list. Problems of the training set are left out, and so
    /// are those the untrained weights fail (listed in the report).
    #[arg(long, value_name = "PATH")]
    pub test: Option<PathBuf>,
    /// Train on at most N problems of --train, spread over the difficulty
    /// levels and drawn by --seed (the report lists them in train.lst).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub sample: Option<u64>,
    /// Test on at most N problems of --test, drawn like --sample.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub test_sample: Option<u64>,
    /// The folder of the problem files that a list names (default: the
    /// list's own folder).
    #[arg(long, value_name = "DIR")]
    pub problems: Option<PathBuf>,
    /// Print the training and test lists (after --sample and
    /// --test-sample) and exit without solving.
    #[arg(long)]
    pub list: bool,
    /// Generations after the initial population.
    #[arg(long, default_value_t = 20)]
    pub generations: usize,
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(4..=10000))]
    pub population: u64,
    /// GA: children per generation (default: the population size).
    #[arg(long)]
    pub children: Option<usize>,
    /// Evaluating workers (threads; under mpirun the ranks but rank 0).
    #[arg(long)]
    pub workers: Option<usize>,
    /// The tuned weights file (TOML with a provenance header).
    #[arg(long, default_value = "weights/tuned.toml", value_name = "FILE")]
    pub out: PathBuf,
    /// The checkpoint, written after every generation (default: the --out
    /// file with the extension .checkpoint.json).
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Continue from the checkpoint.
    #[arg(long)]
    pub resume: bool,
    /// Report directory: curve.csv, curve.svg, f.svg, test tables, profile
    /// (default: the --out file's name with -report).
    #[arg(long, value_name = "DIR")]
    pub report: Option<PathBuf>,
    /// GA parent selection: roulette or tournament.
    #[arg(long, default_value = "tournament", value_parser = ["roulette", "tournament"])]
    pub selection: String,
    /// GA tournament size.
    #[arg(long, default_value_t = 3)]
    pub tournament: usize,
    /// GA: probability that a child is a crossover of two parents.
    #[arg(long, default_value_t = 0.065)]
    pub crossover_rate: f64,
    /// GA: probability that a child is mutated.
    #[arg(long, default_value_t = 0.5)]
    pub mutation_rate: f64,
    /// GA mutation: reset (uniform in range) or gaussian (step of --sigma x range).
    #[arg(long, default_value = "gaussian", value_parser = ["reset", "gaussian"])]
    pub mutation: String,
    #[arg(long, default_value_t = 0.1)]
    pub sigma: f64,
    /// DE binomial crossover rate.
    #[arg(long, default_value_t = 0.9)]
    pub cr: f64,
    /// DE: stop when F falls below this (the population has converged).
    #[arg(long)]
    pub f_stop: Option<f64>,
    /// Put the starting weights into the initial population.
    #[arg(long)]
    pub seed_current: bool,
    /// Solver fitness: node limit per side moving first.
    #[arg(long, default_value_t = 300_000)]
    pub max_nodes: u64,
    /// Test set: node limit per side moving first (the solver's default,
    /// so that the test set is what a user's `tengen solve` solves).
    #[arg(long, default_value_t = tengen::tsumego::DEFAULT_MAX_NODES, value_name = "N")]
    pub test_max_nodes: u64,
    /// Pruning fitness: the speed level measured.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(2..=5))]
    pub level: u8,
    /// Static fitness: bonuses for the correct move at ranks 1, 2, ...
    #[arg(long, default_value = "20,13,7,3,1")]
    pub bonuses: String,
    /// Largest problem region (points).
    #[arg(long, default_value_t = tengen::tsumego::region::DEFAULT_MAX_REGION)]
    pub max_region: usize,
    /// Match fitness: an external GTP engine as the fixed reference (GA;
    /// default: our engine with the starting weights, in process).
    #[arg(long, value_name = "COMMAND")]
    pub opponent: Option<String>,
    /// Match fitness: paired games (colours swapped) per comparison.
    #[arg(long, default_value_t = 2)]
    pub pairs: usize,
    /// Match fitness: DE trials play their parent (duel, the default for
    /// DE), everyone plays the fixed reference (reference, the GA's
    /// default), or members and candidates play a round robin each
    /// generation (round-robin: one point per win; GA or DE).
    #[arg(long, value_parser = ["duel", "reference", "round-robin"])]
    pub compare: Option<String>,
    /// Match fitness: duels or round-robin pairings re-tested per
    /// generation with other game seeds, to measure how often selection
    /// is decided by noise.
    #[arg(long, default_value_t = 2)]
    pub retest: usize,
    #[arg(long, default_value_t = 9)]
    pub match_size: usize,
    #[arg(long, default_value_t = 7.0)]
    pub match_komi: f64,
    #[arg(long, default_value_t = 300)]
    pub match_playouts: u64,
    #[arg(long, default_value_t = 200)]
    pub match_move_limit: usize,
}

/// `tengen solve`: every problem of every file, both sides moving first.
/// The global --threads sets how many problems run at once and --weights
/// the move-ordering weights.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// Problem files: `.sgf` (setup stones, PL, variations marked
    /// Correct/RIGHT) or GoTools text (`$ P1` problems).
    #[arg(required = true, value_name = "FILES")]
    pub files: Vec<PathBuf>,
    /// Speed level: 1 exact, 2-5 faster with forward pruning.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=5))]
    pub level: u8,
    /// Node limit per side moving first; beyond it the answer is unknown.
    #[arg(long, default_value_t = tengen::tsumego::DEFAULT_MAX_NODES, value_name = "N")]
    pub max_nodes: u64,
    /// Time limit per side moving first, in seconds.
    #[arg(long, value_name = "SECS")]
    pub time: Option<f64>,
    /// Largest region (points) accepted for a problem.
    #[arg(long, default_value_t = tengen::tsumego::region::DEFAULT_MAX_REGION)]
    pub max_region: usize,
    /// One JSON object per problem and one for the summary, instead of text.
    #[arg(long)]
    pub json: bool,
    /// Crucial stones for every problem read, as board vertices (C3,D4):
    /// the attacker must capture all of their chains, the defender wins
    /// when one lives. Replaces GoTools' [XY] marks and, for SGF, the
    /// default (the defender's largest chain).
    #[arg(long, value_delimiter = ',', value_name = "VERTICES")]
    pub crucial: Vec<String>,
    /// Read the files and report the problems and answer lines of each,
    /// without solving (a check that every file parses).
    #[arg(long)]
    pub parse_only: bool,
    /// Only the first N problems of each file (a sample across a set).
    #[arg(long, value_name = "N")]
    pub per_file: Option<usize>,
    /// Solve both movers of every problem. By default a problem whose file
    /// answers only one mover (GoTools lists many with White-first lines
    /// only) is solved for that mover alone.
    #[arg(long)]
    pub both: bool,
}

#[derive(Args, Debug)]
pub struct TsumegoArgs {
    #[command(subcommand)]
    pub action: TsumegoAction,
}

#[derive(Subcommand, Debug)]
pub enum TsumegoAction {
    /// Make random closed corner and edge problems, solve them exactly and
    /// write them, labelled, to DIR/lv<difficulty> in GoTools text
    /// (difficulty = floor(log2(level-1 leaves, both sides moving first))).
    /// The global --threads sets the solver threads.
    Generate {
        /// Problems to keep.
        #[arg(long, default_value_t = 100)]
        count: usize,
        /// Region size in points, e.g. 8..20.
        #[arg(long, default_value = "8..20", value_name = "A..B")]
        size_range: String,
        /// Seed of the random positions.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Output directory (created); existing lv files are appended to.
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// Node limit per side; harder candidates are dropped.
        #[arg(long, default_value_t = 300_000, value_name = "N")]
        max_nodes: u64,
        /// Index of the first candidate (to extend a set without repeats).
        #[arg(long, default_value_t = 0)]
        first: u64,
    },
}

#[derive(Args, Debug)]
pub struct TableArgs {
    #[command(subcommand)]
    pub action: TableAction,
}

#[derive(Subcommand, Debug)]
pub enum TableAction {
    /// Header, fill ratio and histograms of quality and depth (read-only).
    Info,
    /// Scan every entry and report bad ones. Exit status 2 if the header
    /// is bad, 1 if entries are misplaced or off the board; torn entries
    /// (an interrupted write) are reported but tolerated.
    Verify {
        /// Clear the bad entries (needs write access).
        #[arg(long)]
        fix: bool,
    },
    /// Recreate the file empty: every entry is lost. With --pin, the new
    /// file holds only games of the global --size, --komi and rules.
    Clear {
        #[arg(long)]
        pin: bool,
    },
    /// Probe+store throughput with random keys on a scratch table (or the
    /// --table given), on 1 thread and on --threads threads.
    Bench {
        /// Seconds per measurement.
        #[arg(long, default_value_t = 3.0)]
        seconds: f64,
    },
}

#[derive(Args, Debug)]
pub struct BookArgs {
    #[command(subcommand)]
    pub action: BookAction,
}

#[derive(Subcommand, Debug)]
pub enum BookAction {
    /// Deepen the book: search opening positions of the global --size and
    /// --komi deeply and store them in --table (created, pinned to that
    /// game, if missing). Resumable; Ctrl-C stops cleanly.
    Build {
        /// Stop after this long, e.g. 8h, 30m, 90s.
        #[arg(long, value_name = "DURATION", value_parser = humantime::parse_duration)]
        time: Option<std::time::Duration>,
        /// Stop after searching this many positions.
        #[arg(long, value_name = "N")]
        positions: Option<u64>,
        /// Playouts of each position's search [default: global --playouts, else 20000].
        #[arg(long = "position-playouts", value_name = "N")]
        position_playouts: Option<u64>,
        /// Moves from the empty board beyond which nothing is searched.
        #[arg(long, default_value_t = 10)]
        depth: usize,
        /// Probability of leaving the book's move for another candidate at
        /// each move of a line.
        #[arg(long, default_value_t = 0.3)]
        explore: f64,
    },
    /// Print the book's main lines (move, quality, depth) from a position.
    Show {
        /// Moves from the empty board, Black first, e.g. "E5 C5".
        #[arg(long, default_value = "")]
        moves: String,
        /// Lines to print.
        #[arg(long, default_value_t = 5)]
        lines: usize,
        /// Moves per line.
        #[arg(long, default_value_t = 12)]
        depth: usize,
    },
    /// Import a Fuego book.dat text book (`<size> <moves> | <replies>`).
    Import {
        /// The book file.
        file: PathBuf,
        /// Quality given to imported moves (2 × log2 of visits; 24 = 4096).
        #[arg(long, default_value_t = 24, value_parser = clap::value_parser!(u8).range(0..=63))]
        quality: u8,
    },
}

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The opponent's command line, e.g. "/usr/games/gnugo --mode gtp --level 10".
    #[arg(long, value_name = "COMMAND")]
    pub opponent: String,
    /// The engine under test (default: this program in GTP mode with the
    /// engine options given before `match`; game i then uses seed
    /// --seed + i, so games with fixed playouts differ).
    #[arg(long, value_name = "COMMAND")]
    pub engine_cmd: Option<String>,
    /// A referee engine that scores games ended by passes or the move
    /// limit with `final_score` (default: Tromp-Taylor after dead-stone
    /// agreement).
    #[arg(long, value_name = "COMMAND")]
    pub referee: Option<String>,
    /// Number of games; colours alternate, the engine is Black first.
    #[arg(long, default_value_t = 10)]
    pub games: usize,
    /// Board size.
    #[arg(long = "board-size", default_value_t = 9, value_parser = clap::value_parser!(u8).range(2..=25))]
    pub board_size: u8,
    /// Komi of the games.
    #[arg(
        long = "game-komi",
        default_value_t = 7.0,
        allow_negative_numbers = true
    )]
    pub game_komi: f64,
    /// Stones played before a game is stopped and scored.
    #[arg(long, default_value_t = 400)]
    pub move_limit: usize,
    /// Time settings as GTP `time_settings` takes them: "main byo-yomi-time
    /// byo-yomi-stones", e.g. "60 0 0" (60 s sudden death) or "0 5 1".
    #[arg(long, value_name = "\"M B S\"")]
    pub time: Option<String>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Directory for one SGF per game and results.tsv.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct WeightsArgs {
    /// Print the built-in defaults as a complete weights file
    /// (this is how weights/default.toml is made).
    #[arg(long)]
    pub defaults: bool,
    /// Print one line per weight (value, range, meaning) instead of TOML.
    #[arg(long)]
    pub describe: bool,
}

#[derive(Args, Debug)]
/// Speed measurements. The global `--playouts N` sets the playouts per
/// position (default 100000 with --random, else 20000); the global
/// `--threads N` (N > 1) adds a run on N threads and the scaling ratio.
pub struct BenchArgs {
    /// Light random playouts from the empty board instead of the search.
    #[arg(long)]
    pub random: bool,
    /// Board sizes to measure.
    #[arg(long, value_delimiter = ',', default_values_t = [9u8, 19])]
    pub sizes: Vec<u8>,
    // Playouts per position: the global --playouts (default 100000 with
    // --random, else 20000). Threads: with the global --threads N above 1,
    // the search also runs on N threads and the scaling ratio is reported.
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
