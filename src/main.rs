//! The `tengen` binary: parse the command line, run one job, map errors to
//! exit codes.

mod cli;
mod solve_cmd;
mod tune_cmd;
#[cfg(feature = "mpi")]
mod tune_mpi;

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Parser;

use cli::{
    BenchArgs, BookAction, BookArgs, Cli, Commands, CrosscheckArgs, MatchArgs, TableAction,
    TableArgs, WeightsArgs,
};
use tengen::engine::Engine;
use tengen::gtp::{self, Session};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        None | Some(Commands::Gtp) => run_gtp(&cli),
        Some(Commands::Bench(args)) => run_bench(&cli, args),
        Some(Commands::Weights(args)) => run_weights(&cli, args),
        Some(Commands::Match(args)) => run_match(&cli, args),
        Some(Commands::Crosscheck(args)) => run_crosscheck(args),
        Some(Commands::Table(args)) => run_table(&cli, args),
        Some(Commands::Book(args)) => run_book(&cli, args),
        Some(Commands::Solve(args)) => solve_cmd::run_solve(&cli, args),
        Some(Commands::Tsumego(args)) => solve_cmd::run_tsumego(&cli, args),
        Some(Commands::Tune(args)) => tune_cmd::run_tune(&cli, args),
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

fn run_gtp(cli: &Cli) -> Result<ExitCode> {
    let mut config = cli.engine.config()?;
    config.table = cli.engine.open_table()?;
    // SIGINT/SIGTERM/SIGHUP: flush the table, then exit.
    let _ = ctrlc::set_handler(|| {
        tengen::table::flush_all();
        std::process::exit(130);
    });
    if let Some(t) = &config.table {
        eprintln!(
            "tengen: table {} ({} entries, {}{})",
            t.path().display(),
            t.entries(),
            t.scope().describe(),
            if t.read_only().is_some() {
                ", read-only"
            } else {
                ""
            }
        );
    }
    let engine = Engine::new(config).context("cannot start the engine")?;
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
    gtp::run(&mut session, stdin.lock(), io::stdout()).context("reading GTP commands")?;
    Ok(ExitCode::SUCCESS)
}

fn run_bench(cli: &Cli, args: &BenchArgs) -> Result<ExitCode> {
    for &size in &args.sizes {
        anyhow::ensure!(
            (2..=25).contains(&size),
            "board size {size} is not supported (2 to 25)"
        );
    }
    if args.random {
        let playouts = cli.engine.playouts.unwrap_or(100_000) as usize;
        println!("light random playouts from the empty board, 1 thread, seed 1");
        println!(
            "{:>5} {:>10} {:>12} {:>12} {:>10} {:>18}",
            "size", "playouts", "playouts/s", "us/playout", "moves/po", "signature"
        );
        for &size in &args.sizes {
            let r = tengen::bench::light_playouts(size as usize, playouts);
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
        return Ok(ExitCode::SUCCESS);
    }
    let weights = cli.engine.load_weights()?;
    let playouts = cli.engine.playouts.unwrap_or(20_000);
    println!(
        "search (tree, priors, heavy playouts) on the fixed bench positions, {playouts} playouts each, seed 1"
    );
    println!(
        "{:>5} {:>8} {:>10} {:>12} {:>18} {:>10}",
        "size", "threads", "playouts", "playouts/s", "signature", "scaling"
    );
    for &size in &args.sizes {
        let one = tengen::bench::search(size as usize, playouts, 1, &weights);
        println!(
            "{:>5} {:>8} {:>10} {:>12.0} {:>18} {:>10}",
            format!("{0}x{0}", size),
            1,
            one.playouts,
            one.playouts as f64 / one.seconds,
            format!("{:016x}", one.signature),
            "1.00"
        );
        if let Some(n) = cli.engine.threads.map(usize::from).filter(|&n| n > 1) {
            let many = tengen::bench::search(size as usize, playouts, n, &weights);
            let ratio = (many.playouts as f64 / many.seconds) / (one.playouts as f64 / one.seconds);
            println!(
                "{:>5} {:>8} {:>10} {:>12.0} {:>18} {:>10.2}",
                format!("{0}x{0}", size),
                n,
                many.playouts,
                many.playouts as f64 / many.seconds,
                "(not fixed)",
                ratio
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn run_weights(cli: &Cli, args: &WeightsArgs) -> Result<ExitCode> {
    let w = if args.defaults {
        tengen::weights::Weights::default()
    } else {
        cli.engine.load_weights()?
    };
    if args.describe {
        println!("{}", w.describe());
    } else {
        print!("{}", w.to_toml());
    }
    Ok(ExitCode::SUCCESS)
}

fn run_match(cli: &Cli, args: &MatchArgs) -> Result<ExitCode> {
    use tengen::matchplay::{EngineCommand, MatchConfig};
    let parse = |what: &str, line: &str| {
        EngineCommand::parse(line).with_context(|| format!("{what}: the command line is empty"))
    };
    let engine = match &args.engine_cmd {
        Some(line) => parse("--engine-cmd", line)?,
        None => {
            // Check the options here, so that a bad weights file fails now.
            cli.engine.config()?;
            EngineCommand {
                program: std::env::current_exe().context("cannot find this program")?,
                args: cli.engine.gtp_args(),
            }
        }
    };
    // The same reading as GTP `time_settings`.
    let time = match &args.time {
        None => tengen::engine::TimeSystem::Unlimited,
        Some(t) => match tengen::gtp::parse_line(&format!("time_settings {t}")).command {
            Ok(tengen::gtp::Command::TimeSettings(system)) => system,
            _ => anyhow::bail!(
                "--time '{t}': give three whole numbers, main byo-yomi-time byo-yomi-stones"
            ),
        },
    };
    let cfg = MatchConfig {
        engine,
        opponent: parse("--opponent", &args.opponent)?,
        referee: args
            .referee
            .as_deref()
            .map(|r| parse("--referee", r))
            .transpose()?,
        games: args.games,
        size: args.board_size as usize,
        komi: args.game_komi,
        move_limit: args.move_limit,
        time,
        concurrency: args.concurrency.max(1),
        out_dir: args.out.clone(),
        vary_seed: args.engine_cmd.is_none(),
    };
    eprintln!(
        "match: {} games, {}x{}, komi {}, {}; engine: {}; opponent: {}",
        cfg.games,
        cfg.size,
        cfg.size,
        cfg.komi,
        cfg.time,
        cfg.engine.display(),
        cfg.opponent.display()
    );
    let start = std::time::Instant::now();
    let total = cfg.games;
    let summary = tengen::matchplay::run(&cfg, &|r, s| {
        let done = s.games;
        let eta = start.elapsed().as_secs_f64() / done as f64 * (total - done) as f64;
        eprintln!(
            "game {}/{} (#{}, engine {}): {} by {} in {} moves [{:.0} s / {:.0} s]; {:.0}% so far, ETA {:.0} min",
            done,
            total,
            r.index + 1,
            r.engine_color,
            r.result(),
            r.reason_name(),
            r.moves,
            r.seconds[0],
            r.seconds[1],
            100.0 * s.rate(),
            eta / 60.0
        );
    })?;
    println!("{}", summary.line());
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

/// Opens the table of `--table` for inspection (read-only, never created).
fn open_for_reading(cli: &Cli) -> Result<std::sync::Arc<tengen::table::Table>> {
    use tengen::table::{OpenMode, Table};
    let path = cli.engine.table_path();
    anyhow::ensure!(
        path.exists(),
        "no table at {} (the engine creates it on first use; `book build` and `book import` create one too)",
        path.display()
    );
    Ok(Table::open(
        &path,
        OpenMode {
            create: None,
            read_only_if_busy: true,
            read_only: true,
        },
    )?)
}

fn histogram(title: &str, counts: &[u64], label: impl Fn(usize) -> String) {
    let max = counts.iter().copied().max().unwrap_or(0).max(1);
    println!("{title}");
    for (i, &n) in counts.iter().enumerate().filter(|(_, n)| **n > 0) {
        let bar = "#".repeat(((n as f64 / max as f64) * 40.0).ceil() as usize);
        println!("  {:>14} {:>10} {bar}", label(i), n);
    }
}

fn run_table(cli: &Cli, args: &TableArgs) -> Result<ExitCode> {
    use tengen::table::{self, OpenMode, Scope, Table};
    match &args.action {
        TableAction::Info => {
            let t = open_for_reading(cli)?;
            let h = t.header();
            let (writes, replacements) = t.lifetime_counts();
            let v = t.verify(false);
            println!("file          {}", t.path().display());
            println!(
                "format        version {}, {}-byte entries, buckets of {}",
                h.version,
                h.entry_bytes,
                table::BUCKET
            );
            println!(
                "size          {} entries, {} bytes",
                h.entries,
                table::file_bytes(h.entries)
            );
            println!("games         {}", h.scope.describe());
            println!("zobrist       {:016x} (matches this program)", h.zobrist);
            println!(
                "closed        {}",
                if t.was_dirty() {
                    "not cleanly, or still open for writing"
                } else {
                    "cleanly"
                }
            );
            println!("lifetime      {writes} writes, {replacements} replacements");
            println!(
                "used          {} ({:.3}%), {} torn (ignored)",
                v.used,
                100.0 * v.used as f64 / v.entries as f64,
                v.stale
            );
            histogram(
                "quality (2 x log2 of the best move's visits)",
                &v.quality,
                |q| format!("{q:>2} (~{:.0})", 2f64.powf(q as f64 / 2.0)),
            );
            histogram(
                "depth (log2 of the distance from the search root + 1)",
                &v.depth,
                |d| {
                    let lo = (1u64 << d) - 1;
                    let hi = (1u64 << (d + 1)) - 2;
                    format!("{d:>2} ({lo}-{hi})")
                },
            );
            Ok(ExitCode::SUCCESS)
        }
        TableAction::Verify { fix } => {
            let t = if *fix {
                Table::open(
                    &cli.engine.table_path(),
                    OpenMode {
                        create: None,
                        read_only_if_busy: false,
                        read_only: false,
                    },
                )?
            } else {
                open_for_reading(cli)?
            };
            let v = t.verify(*fix);
            println!(
                "{}: header ok; {} entries: {} used, {} empty, {} torn, {} misplaced, {} off the board{}",
                t.path().display(),
                v.entries,
                v.used,
                v.empty,
                v.stale,
                v.misplaced,
                v.off_board,
                if *fix {
                    format!("; {} cleared", v.fixed)
                } else {
                    String::new()
                }
            );
            let corrupt = v.misplaced + v.off_board;
            if corrupt > 0 && !*fix {
                eprintln!(
                    "tengen: {corrupt} corrupt entries; `tengen table verify --fix` clears them"
                );
                return Ok(ExitCode::from(1));
            }
            Ok(ExitCode::SUCCESS)
        }
        TableAction::Clear { pin } => {
            let path = cli.engine.table_path();
            let mut entries = cli.engine.table_entries;
            // Hold the lock of the old file (refusing if another process
            // uses it) while the new one replaces it.
            let old = if path.exists() {
                match Table::open(
                    &path,
                    OpenMode {
                        create: None,
                        read_only_if_busy: false,
                        read_only: false,
                    },
                ) {
                    Ok(t) => {
                        entries = entries.or(Some(t.entries()));
                        Some(t)
                    }
                    Err(e @ table::TableError::Busy { .. }) => return Err(e.into()),
                    // A damaged file is what `clear` is for.
                    Err(_) => None,
                }
            } else {
                None
            };
            let scope = if *pin {
                Scope::of(
                    cli.engine.size as usize,
                    cli.engine.komi,
                    cli.engine.rules(),
                )
            } else {
                Scope::default()
            };
            let n = entries.unwrap_or(table::DEFAULT_ENTRIES);
            Table::create(&path, n, scope, true)?;
            drop(old);
            println!(
                "{}: new empty table, {n} entries ({} bytes), {}",
                path.display(),
                table::file_bytes(n),
                scope.describe()
            );
            Ok(ExitCode::SUCCESS)
        }
        TableAction::Bench { seconds } => {
            let threads = cli.engine.threads.map_or(2, usize::from).max(1);
            let (path, scratch) = match &cli.engine.table {
                Some(p) => (p.clone(), false),
                None => (
                    std::env::temp_dir().join(format!("tengen-bench-{}.table", std::process::id())),
                    true,
                ),
            };
            let t = Table::open(
                &path,
                OpenMode {
                    create: Some((
                        cli.engine.table_entries.unwrap_or(table::DEFAULT_ENTRIES),
                        Scope::default(),
                    )),
                    read_only_if_busy: false,
                    read_only: false,
                },
            )?;
            println!(
                "random probe+store on {} ({} entries), {seconds} s per run",
                path.display(),
                t.entries()
            );
            let secs = std::time::Duration::from_secs_f64(*seconds);
            let one = tengen::bench::table_ops(&t, 1, secs, cli.engine.seed);
            println!("{:>8} {:>14} {:>10}", "threads", "ops/s", "scaling");
            println!("{:>8} {:>14.0} {:>10}", 1, one, "1.00");
            if threads > 1 {
                let many = tengen::bench::table_ops(&t, threads, secs, cli.engine.seed + 1);
                println!("{:>8} {:>14.0} {:>10.2}", threads, many, many / one);
            }
            drop(t);
            if scratch {
                let _ = std::fs::remove_file(&path);
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn run_book(cli: &Cli, args: &BookArgs) -> Result<ExitCode> {
    use std::sync::atomic::{AtomicBool, Ordering};
    use tengen::book::{self, BookGame, BuildConfig, Builder};
    use tengen::table::{OpenMode, Scope, Table};
    let game = BookGame {
        size: cli.engine.size as usize,
        komi: cli.engine.komi,
        rules: cli.engine.rules(),
    };
    let path = cli.engine.table_path();
    let open_rw = || -> Result<std::sync::Arc<Table>> {
        Ok(Table::open(
            &path,
            OpenMode {
                create: Some((
                    cli.engine
                        .table_entries
                        .unwrap_or(tengen::table::DEFAULT_ENTRIES),
                    Scope::of(game.size, game.komi, game.rules),
                )),
                read_only_if_busy: false,
                read_only: false,
            },
        )?)
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
            let t = open_rw()?;
            let config = BuildConfig {
                playouts: position_playouts.or(cli.engine.playouts).unwrap_or(20_000),
                depth: *depth,
                explore: *explore,
                explore_playouts: 500,
                threads: cli.engine.config()?.search.threads,
                seed: cli.engine.seed,
                positions: *positions,
                time: *time,
            };
            let weights = cli.engine.load_weights()?;
            let mut builder = Builder::new(
                t.clone(),
                game.clone(),
                config.clone(),
                &weights,
                (cli.engine.max_tree_mb as usize) << 20,
            )?;
            static STOP: AtomicBool = AtomicBool::new(false);
            let _ = ctrlc::set_handler(|| {
                if STOP.swap(true, Ordering::Relaxed) {
                    // A second Ctrl-C: flush and leave at once.
                    tengen::table::flush_all();
                    std::process::exit(130);
                }
            });
            eprintln!(
                "book build: {} ({}), {} playouts per position, depth {}, explore {}; Ctrl-C stops cleanly",
                path.display(),
                t.scope().describe(),
                config.playouts,
                config.depth,
                config.explore
            );
            let (len, unit) = match (positions, time) {
                (Some(n), _) => (*n, "positions"),
                (None, Some(t)) => (t.as_secs().max(1), "s"),
                _ => unreachable!("checked above"),
            };
            let bar = solve_cmd::bar(len, cli.engine.quiet, unit);
            let (units, searched) = builder.run(&STOP, &mut |units, searched, elapsed, u| {
                let line = if u.line.is_empty() {
                    "(empty board)".to_string()
                } else {
                    u.line
                        .iter()
                        .map(|m| m.to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                let what = match u.searched {
                    Some((m, w, p)) => format!(
                        "searched {line}: {m} {:.1}% in {p} playouts, {} stored",
                        100.0 * w,
                        u.counts.writes
                    ),
                    None => format!("walked {line}: already in the book"),
                };
                match &bar {
                    Some(b) => {
                        b.set_position(if positions.is_some() {
                            searched
                        } else {
                            elapsed.as_secs()
                        });
                        b.set_message(what);
                    }
                    None if !cli.engine.quiet => eprintln!(
                        "book: unit {units}, {searched} searched, {:.0} s: {what}",
                        elapsed.as_secs_f64()
                    ),
                    None => {}
                }
            });
            if let Some(b) = bar {
                b.finish_and_clear();
            }
            t.flush()?;
            let v = t.verify(false);
            println!(
                "book build: {units} units, {searched} positions searched{}; {} holds {} entries ({:.3}% full)",
                if STOP.load(Ordering::Relaxed) {
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
        BookAction::Show {
            moves,
            lines,
            depth,
        } => {
            let t = open_for_reading(cli)?;
            book::check_scope(&t, &game)?;
            let start = moves
                .split_whitespace()
                .map(|w| {
                    w.parse::<tengen::rules::Move>()
                        .with_context(|| format!("--moves: '{w}' is not a move"))
                })
                .collect::<Result<Vec<_>>>()?;
            let (g, found) = book::show(&t, &game, &start, *lines, *depth)
                .map_err(|e| anyhow::anyhow!("--moves: {e}"))?;
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
        BookAction::Import { file, quality } => {
            let text = std::fs::read_to_string(file)
                .with_context(|| format!("cannot read {}", file.display()))?;
            let t = open_rw()?;
            book::check_table(&t, &game)?;
            let weights = cli.engine.load_weights()?;
            let r = book::import(
                &t,
                &game,
                &text,
                &file.display().to_string(),
                *quality,
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
    }
}
