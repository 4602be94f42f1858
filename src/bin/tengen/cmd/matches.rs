//! `tengen match`: games against another GTP engine.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;

use crate::options::EngineArgs;

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The opponent's command line, e.g. "/usr/games/gnugo --mode gtp --level 10"; split
    /// like a shell's, so quote a path that has spaces.
    #[arg(long, value_name = "COMMAND")]
    pub opponent: String,
    /// The engine under test (default: this program in GTP mode with the
    /// engine options given before `match`; game i then uses seed
    /// --seed + i, so games with fixed playouts differ).
    #[arg(long, value_name = "COMMAND")]
    pub engine_cmd: Option<String>,
    /// A referee engine that scores games ended by passes or the move
    /// limit with `final_score` (default: Tromp-Taylor after dead-stone
    /// agreement). It must count by area, as tengen plays: GNU Go only
    /// with `--chinese-rules` (without it, it counts territory and
    /// captures).
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
    /// Directory for one SGF per game, results.tsv and match.json (the
    /// settings). A rerun with the same directory and settings goes on
    /// after the games already there (a larger --games extends the match);
    /// a directory of another match is refused, never overwritten.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

pub fn run(opts: &EngineArgs, args: &MatchArgs) -> Result<ExitCode> {
    use tengen::matchplay::{EngineCommand, Event, MatchConfig};
    let parse = |what: &str, line: &str| {
        EngineCommand::parse(line).map_err(|e| anyhow::anyhow!("{what}: {e}"))
    };
    let engine = match &args.engine_cmd {
        Some(line) => parse("--engine-cmd", line)?,
        None => {
            // Check the options here, so that a bad weights file fails now.
            opts.config()?;
            EngineCommand {
                program: std::env::current_exe().context("cannot find this program")?,
                args: opts.gtp_args(),
            }
        }
    };
    // The same reading as GTP `time_settings`.
    let time = match &args.time {
        None => tengen::engine::TimeSystem::Unlimited,
        Some(t) => {
            let n: Vec<u32> = t
                .split_whitespace()
                .map(str::parse)
                .collect::<Result<_, _>>()
                .unwrap_or_default();
            let [main, byo_time, byo_stones] = n[..] else {
                anyhow::bail!(
                    "--time '{t}': give three whole numbers, main byo-yomi-time byo-yomi-stones"
                );
            };
            tengen::gtp::time_settings(main, byo_time, byo_stones)
        }
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
    let played = std::sync::atomic::AtomicUsize::new(0);
    let summary = tengen::matchplay::run(&cfg, &|event| {
        let Event::Game(r, s) = event else {
            if let (Event::Start(s), Some(dir)) = (event, cfg.out_dir.as_deref())
                && s.resumed > 0
            {
                eprintln!(
                    "match: goes on after the {} games already in {} ({:.0}% so far)",
                    s.resumed,
                    dir.display(),
                    100.0 * s.rate()
                );
            }
            return;
        };
        let done = s.games;
        let new = played.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        let eta = start.elapsed().as_secs_f64() / new as f64 * total.saturating_sub(done) as f64;
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
