//! The `tengen` binary: parse the command line, run one job, map errors to
//! exit codes.

mod cli;

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Parser;

use cli::{BenchArgs, Cli, Commands, CrosscheckArgs, MatchArgs, WeightsArgs};
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
    let engine = Engine::new(cli.engine.config()?).context("cannot start the engine")?;
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
