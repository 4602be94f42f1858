//! `tengen book`: build, show or import the opening book.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use anyhow::{Context, Result};
use clap::{Args, Subcommand};

use tengen::book::games::{LearnConfig, Learner};
use tengen::book::{self, BookGame, BuildConfig, Builder};
use tengen::table::{OpenMode, Scope, Table};

use crate::cmd::{BudgetBar, open_for_reading, stop_on_ctrl_c};
use crate::options::EngineArgs;

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
    /// Learn the book from games: the engine plays itself from the empty
    /// board, a tree of the games' results chooses the first --depth moves
    /// among each position's best candidates (UCB1), and each position's
    /// most played move goes into --table once it has --min-games games.
    /// The tree is saved after every game (--tree); resumable.
    Learn {
        /// Stop after this long, e.g. 2h, 30m.
        #[arg(long, value_name = "DURATION", value_parser = humantime::parse_duration)]
        time: Option<std::time::Duration>,
        /// Stop after this many games (in this run).
        #[arg(long, value_name = "N")]
        games: Option<u64>,
        /// Playouts a move in the games [default: global --playouts, else 1000].
        #[arg(long = "game-playouts", value_name = "N")]
        game_playouts: Option<u64>,
        /// Moves from the empty board that the tree chooses.
        #[arg(long, default_value_t = 10)]
        depth: usize,
        /// Candidate moves of a position (the best of a short search).
        #[arg(long, default_value_t = 5)]
        candidates: usize,
        /// Playouts of the short search that gives the candidates.
        #[arg(long = "candidate-playouts", value_name = "N", default_value_t = 2000)]
        candidate_playouts: u64,
        /// UCB1's exploration constant.
        #[arg(long, default_value_t = 0.5)]
        exploration: f64,
        /// Games a move needs before the table holds it as a book move.
        #[arg(long = "min-games", value_name = "N", default_value_t = 16)]
        min_games: u64,
        /// Games played at once, one thread each [default: global --threads].
        #[arg(long, value_name = "N")]
        workers: Option<usize>,
        /// The tree of results [default: the table's path + .learn.json].
        #[arg(long, value_name = "FILE")]
        tree: Option<PathBuf>,
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

pub fn run(engine: &EngineArgs, args: &BookArgs) -> Result<ExitCode> {
    let game = BookGame {
        size: engine.size as usize,
        komi: engine.komi,
        rules: engine.rules(),
    };
    match &args.action {
        BookAction::Build {
            time,
            positions,
            position_playouts,
            depth,
            explore,
        } => {
            anyhow::ensure!(
                time.is_some() || positions.is_some(),
                "book build needs a budget: --time (e.g. 8h) or --positions N"
            );
            anyhow::ensure!(
                (0.0..=1.0).contains(explore),
                "--explore is a probability (0 to 1), not {explore}"
            );
            let t = open_rw(engine, &game)?;
            let config = BuildConfig {
                playouts: position_playouts.or(engine.playouts).unwrap_or(20_000),
                depth: *depth,
                explore: *explore,
                explore_playouts: 500,
                threads: engine.config()?.search.threads,
                seed: engine.seed,
                positions: *positions,
                time: *time,
            };
            build(engine, &game, t, config)
        }
        BookAction::Learn {
            time,
            games,
            game_playouts,
            depth,
            candidates,
            candidate_playouts,
            exploration,
            min_games,
            workers,
            tree,
        } => {
            anyhow::ensure!(
                time.is_some() || games.is_some(),
                "book learn needs a budget: --time (e.g. 2h) or --games N"
            );
            anyhow::ensure!(
                exploration.is_finite() && *exploration >= 0.0,
                "--exploration is a constant of at least 0, not {exploration}"
            );
            anyhow::ensure!(*candidates >= 1, "--candidates must be at least 1");
            let game_playouts = game_playouts.or(engine.playouts).unwrap_or(1_000);
            anyhow::ensure!(
                game_playouts >= 1 && *candidate_playouts >= 1,
                "--game-playouts (or --playouts) and --candidate-playouts must be at least 1"
            );
            let t = open_rw(engine, &game)?;
            let config = LearnConfig {
                game_playouts,
                depth: *depth,
                candidates: *candidates,
                candidate_playouts: *candidate_playouts,
                exploration: *exploration,
                min_games: *min_games,
                workers: workers.unwrap_or(engine.config()?.search.threads).max(1),
                seed: engine.seed,
                games: *games,
                time: *time,
            };
            let tree = tree.clone().unwrap_or_else(|| {
                let mut p = engine.table_path().into_os_string();
                p.push(".learn.json");
                PathBuf::from(p)
            });
            learn(engine, &game, t, config, tree)
        }
        BookAction::Show {
            moves,
            lines,
            depth,
        } => show(engine, &game, moves, *lines, *depth),
        BookAction::Import { file, quality } => import(engine, &game, file, *quality),
    }
}

/// The table of the engine options, opened for writing (created with the
/// game's scope on first use).
fn open_rw(engine: &EngineArgs, game: &BookGame) -> Result<Arc<Table>> {
    Ok(Table::open(
        &engine.table_path(),
        OpenMode {
            create: Some((
                engine
                    .table_entries
                    .unwrap_or(tengen::table::DEFAULT_ENTRIES),
                Scope::of(game.size, game.komi, game.rules),
            )),
            read_only_if_busy: false,
            read_only: false,
        },
    )?)
}

/// `book build`: searches positions into `t` until the budget (or Ctrl-C).
fn build(
    engine: &EngineArgs,
    game: &BookGame,
    t: Arc<Table>,
    config: BuildConfig,
) -> Result<ExitCode> {
    let path = engine.table_path();
    let weights = engine.load_weights()?;
    let mut builder = Builder::new(
        t.clone(),
        game.clone(),
        config.clone(),
        &weights,
        engine.max_tree_bytes(),
    )?;
    let stop = stop_on_ctrl_c();
    eprintln!(
        "book build: {} ({}), {} playouts per position, depth {}, explore {}; Ctrl-C stops cleanly",
        path.display(),
        t.scope().describe(),
        config.playouts,
        config.depth,
        config.explore
    );
    let bar = BudgetBar::new(config.positions, config.time, "positions", engine.quiet);
    let (units, searched) = builder.run(stop, &mut |units, searched, elapsed, u| {
        let what = describe_unit(u);
        if !bar.show(searched, elapsed, what.clone()) && !engine.quiet {
            eprintln!(
                "book: unit {units}, {searched} searched, {:.0} s: {what}",
                elapsed.as_secs_f64()
            );
        }
    });
    bar.finish();
    t.flush()?;
    let v = t.verify(false);
    println!(
        "book build: {units} units, {searched} positions searched{}; {} holds {} entries ({:.3}% full)",
        if stop.load(Ordering::Relaxed) {
            " (stopped by Ctrl-C)"
        } else {
            ""
        },
        path.display(),
        v.used,
        100.0 * v.used as f64 / v.entries as f64
    );
    Ok(ExitCode::SUCCESS)
}

/// `book learn`: games into the tree and the table until the budget (or
/// Ctrl-C).
fn learn(
    engine: &EngineArgs,
    game: &BookGame,
    t: Arc<Table>,
    config: LearnConfig,
    tree: PathBuf,
) -> Result<ExitCode> {
    let weights = engine.load_weights()?;
    let learner = Learner::new(
        t.clone(),
        game.clone(),
        config.clone(),
        &weights,
        tree.clone(),
    )?;
    let stop = stop_on_ctrl_c();
    let before = learner.tree();
    eprintln!(
        "book learn: {} ({}), tree {} ({} games so far), {} playouts a move, depth {}, {} candidates, {} at once; Ctrl-C stops cleanly",
        engine.table_path().display(),
        t.scope().describe(),
        tree.display(),
        before.games,
        config.game_playouts,
        config.depth,
        config.candidates,
        config.workers
    );
    let bar = BudgetBar::new(config.games, config.time, "games", engine.quiet);
    let quiet = engine.quiet;
    let played = learner.run(stop, &|n, elapsed, r| {
        let line: Vec<String> = r.line.iter().map(|m| m.to_string()).collect();
        let what = format!(
            "{}: {} in {} moves",
            line.join(" "),
            r.winner.map_or("jigo".to_string(), |c| format!("{c} won")),
            r.moves
        );
        if !bar.show(n, elapsed, what.clone()) && !quiet {
            eprintln!(
                "book learn: game {n}, {:.0} s: {what}",
                elapsed.as_secs_f64()
            );
        }
    });
    bar.finish();
    t.flush()?;
    let after = learner.tree();
    println!(
        "book learn: {played} games{}; {} holds {} games over {} positions",
        if stop.load(Ordering::Relaxed) {
            " (stopped by Ctrl-C)"
        } else {
            ""
        },
        tree.display(),
        after.games,
        after.nodes.len()
    );
    println!("  first move: games, score of the side that played it");
    for a in after.root_arms(game) {
        println!("  {:<4} {:>6} {:>6.1}%", a.mv, a.games, 100.0 * a.mean());
    }
    Ok(ExitCode::SUCCESS)
}

/// What a unit of the build did, for the progress line.
fn describe_unit(u: &book::Unit) -> String {
    let line = if u.line.is_empty() {
        "(empty board)".to_string()
    } else {
        u.line
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    match u.searched {
        Some((m, w, p)) => format!(
            "searched {line}: {m} {:.1}% in {p} playouts, {} stored",
            100.0 * w,
            u.counts.writes
        ),
        None => format!("walked {line}: already in the book"),
    }
}

/// `book show`: the book's main lines after `moves`.
fn show(
    engine: &EngineArgs,
    game: &BookGame,
    moves: &str,
    lines: usize,
    depth: usize,
) -> Result<ExitCode> {
    let path = engine.table_path();
    let t = open_for_reading(&path)?;
    book::check_scope(&t, game)?;
    let start = moves
        .split_whitespace()
        .map(|w| {
            w.parse::<tengen::rules::Move>()
                .with_context(|| format!("--moves: '{w}' is not a move"))
        })
        .collect::<Result<Vec<_>>>()?;
    let (g, found) =
        book::show(&t, game, &start, lines, depth).map_err(|e| anyhow::anyhow!("--moves: {e}"))?;
    println!(
        "{}: {} to move after {}",
        path.display(),
        g.to_move(),
        if start.is_empty() {
            "no moves".to_string()
        } else {
            moves.trim().to_string()
        }
    );
    if found.is_empty() {
        println!("  (the book has nothing for this position)");
    }
    for (i, line) in found.iter().enumerate() {
        let text: Vec<String> = line
            .iter()
            .map(|(m, e)| match e {
                Some(e) => format!("{m}(q{} d{})", e.quality, e.depth),
                None => format!("{m}(-)"),
            })
            .collect();
        println!("  {}. {}", i + 1, text.join(" "));
    }
    println!(
        "  q: 2 x log2 of the visits behind the move; d: log2 of its distance from the search root + 1"
    );
    Ok(ExitCode::SUCCESS)
}

/// `book import`: a Fuego text book into the table.
fn import(engine: &EngineArgs, game: &BookGame, file: &Path, quality: u8) -> Result<ExitCode> {
    let path = engine.table_path();
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let t = open_rw(engine, game)?;
    book::check_table(&t, game)?;
    let weights = engine.load_weights()?;
    let r = book::import(
        &t,
        game,
        &text,
        &file.display().to_string(),
        quality,
        weights.table_depth_exchange[0],
    )?;
    t.flush()?;
    println!(
        "{}: {} lines imported ({} for other board sizes skipped), {} entries written, {} replaced, into {}",
        file.display(),
        r.lines,
        r.other_size,
        r.counts.writes,
        r.counts.replacements,
        path.display()
    );
    Ok(ExitCode::SUCCESS)
}
