//! `tengen match`: games between two GTP engines, with colours
//! alternating, a move limit, clocks, scoring (Tromp-Taylor after
//! dead-stone agreement, or a referee engine), one SGF per game, a results
//! file and a summary with the Elo difference and its 95% interval.
//!
//! The tuner reuses [`play_game`] and [`Summary`].

mod clock;
pub mod report;
mod resume;
mod score;
mod summary;
pub mod times;

use crate::engine::time::ClockState;
use clock::*;
pub use resume::read_results;
pub use score::parse_score;
use score::*;
pub use summary::{Summary, elo_of};

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use thiserror::Error;

use crate::engine::TimeSystem;
use crate::gtpclient::{ClientError, GtpClient};
use crate::rules::{Color, Coord, Game, Move, Rules};

/// An engine command line that names no program to run.
#[derive(Debug, Error, PartialEq)]
pub enum CommandLineError {
    #[error("the command line is empty")]
    Empty,
    /// An unbalanced quote or a trailing backslash.
    #[error("the command line cannot be split into words ({0})")]
    Quoting(String),
}

/// A GTP engine to launch: the program and its arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineCommand {
    pub program: PathBuf,
    pub args: Vec<String>,
}

impl EngineCommand {
    /// Splits a command line as a POSIX shell does (quotes and
    /// backslashes keep a path with spaces in one word); nothing is
    /// expanded.
    pub fn parse(line: &str) -> Result<EngineCommand, CommandLineError> {
        let words =
            shell_words::split(line).map_err(|e| CommandLineError::Quoting(e.to_string()))?;
        let mut words = words.into_iter();
        let program = PathBuf::from(words.next().ok_or(CommandLineError::Empty)?);
        Ok(EngineCommand {
            program,
            args: words.collect(),
        })
    }

    fn spawn(&self) -> Result<GtpClient, ClientError> {
        let args: Vec<&str> = self.args.iter().map(String::as_str).collect();
        GtpClient::spawn(&self.program, &args)
    }

    /// The command as one line, for logs.
    pub fn display(&self) -> String {
        std::iter::once(self.program.display().to_string())
            .chain(self.args.iter().cloned())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The settings of a match.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The engine under test.
    pub engine: EngineCommand,
    pub opponent: EngineCommand,
    /// A referee engine that scores finished games (`final_score`).
    pub referee: Option<EngineCommand>,
    pub games: usize,
    pub size: usize,
    pub komi: f64,
    /// Stones played by both sides before the game is stopped and scored.
    pub move_limit: usize,
    pub time: TimeSystem,
    /// Games played at once.
    pub concurrency: usize,
    /// Where SGF files and the results file go (`None`: nowhere).
    pub out_dir: Option<PathBuf>,
    /// Add the game index to the value after `--seed` in the engine's
    /// arguments, so that games with fixed playouts differ.
    pub vary_seed: bool,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    Passes,
    Resign,
    MoveLimit,
    Time,
    IllegalMove,
    EngineFailure,
}

impl EndReason {
    /// Every end, for reading names back (`name` is the inverse).
    const ALL: [EndReason; 6] = [
        EndReason::Passes,
        EndReason::Resign,
        EndReason::MoveLimit,
        EndReason::Time,
        EndReason::IllegalMove,
        EndReason::EngineFailure,
    ];

    fn name(self) -> &'static str {
        match self {
            EndReason::Passes => "passes",
            EndReason::Resign => "resign",
            EndReason::MoveLimit => "move-limit",
            EndReason::Time => "time",
            EndReason::IllegalMove => "illegal-move",
            EndReason::EngineFailure => "engine-failure",
        }
    }
}

/// One finished game of a match: who won and why, the times, the scores
/// and the SGF (a line of `results.tsv`; not an `sgf::GameRecord`).
#[derive(Clone, Debug)]
pub struct MatchGame {
    pub index: usize,
    /// The colour of the engine under test.
    pub engine_color: Color,
    /// The winner; `None` for a draw (jigo).
    pub winner: Option<Color>,
    /// Black's margin when the game was scored (positive: Black ahead).
    pub score: Option<f64>,
    pub reason: EndReason,
    pub moves: usize,
    /// Seconds of thinking, engine and opponent.
    pub seconds: [f64; 2],
    /// The engine's own `final_score` and the referee's, when both exist.
    pub engine_score: Option<String>,
    pub referee_score: Option<String>,
    pub sgf: String,
}

impl MatchGame {
    pub fn reason_name(&self) -> &'static str {
        self.reason.name()
    }

    /// 1 for a win of the engine under test, 0.5 for a draw, 0 for a loss.
    pub fn points(&self) -> f64 {
        match self.winner {
            None => 0.5,
            Some(c) if c == self.engine_color => 1.0,
            Some(_) => 0.0,
        }
    }

    /// The SGF result string (`B+3.5`, `W+R`, `B+T`, `0`).
    pub fn result(&self) -> String {
        match (self.winner, self.reason, self.score) {
            (None, _, _) => "0".into(),
            (Some(c), EndReason::Resign, _) => format!("{}+R", c.letter()),
            (Some(c), EndReason::Time, _) => format!("{}+T", c.letter()),
            (Some(c), EndReason::IllegalMove | EndReason::EngineFailure, _) => {
                format!("{}+F", c.letter())
            }
            (Some(c), _, Some(s)) => format!("{}+{}", c.letter(), s.abs()),
            (Some(c), _, None) => format!("{}+", c.letter()),
        }
    }
}

#[derive(Debug, Error)]
pub enum MatchError {
    #[error(transparent)]
    Client(#[from] ClientError),
    #[error("'{engine}' refused '{command}': {message}")]
    Refused {
        engine: String,
        command: String,
        message: String,
    },
    #[error("cannot read '{path}': {source}")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "cannot go on with the match in '{dir}': {detail}; use another --out directory, or remove this one to start again"
    )]
    Resume { dir: PathBuf, detail: String },
    #[error("'{path}' is not a match's results file: {detail}")]
    Results { path: PathBuf, detail: String },
    #[error("cannot read the move times of '{path}': {detail}")]
    Times { path: PathBuf, detail: String },
    #[error("cannot write '{path}': {source}")]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

fn setup(client: &mut GtpClient, who: &EngineCommand, cfg: &MatchConfig) -> Result<(), MatchError> {
    let mut cmds = vec![
        format!("boardsize {}", cfg.size),
        "clear_board".to_string(),
        format!("komi {}", cfg.komi),
    ];
    if let Some(t) = time_settings_command(cfg.time) {
        cmds.push(t);
    }
    for c in cmds {
        if let Err(message) = client.send(&c)? {
            return Err(MatchError::Refused {
                engine: who.display(),
                command: c,
                message,
            });
        }
    }
    Ok(())
}

/// Plays one game; `engine_color` is the colour of the engine under test.
pub fn play_game(
    cfg: &MatchConfig,
    index: usize,
    engine_color: Color,
) -> Result<MatchGame, MatchError> {
    let mut engine = engine_command(cfg, index).spawn()?;
    let mut opponent = cfg.opponent.spawn()?;
    setup(&mut engine, &cfg.engine, cfg)?;
    setup(&mut opponent, &cfg.opponent, cfg)?;
    let mut game =
        Game::new(cfg.size, cfg.komi, Rules::default()).map_err(|e| MatchError::Refused {
            engine: "match".into(),
            command: format!("boardsize {}", cfg.size),
            message: e.to_string(),
        })?;
    let end = play_moves(cfg, &mut game, engine_color, &mut engine, &mut opponent)?;
    let (mut winner, mut score) = (end.winner, None);
    let mut engine_score = None;
    let mut referee_score = None;
    if matches!(end.reason, EndReason::Passes | EndReason::MoveLimit) {
        engine_score = engine.send("final_score").ok().and_then(|r| r.ok());
        score = match &cfg.referee {
            Some(r) => {
                let rs = referee_score_of(r, cfg, &game)?;
                referee_score = Some(rs.clone());
                parse_score(&rs)
            }
            None => Some(agreed_score(&mut engine, &mut opponent, &game)?),
        };
        winner = match score {
            Some(v) if v > 0.0 => Some(Color::Black),
            Some(v) if v < 0.0 => Some(Color::White),
            _ => None,
        };
    }
    let mut rec = MatchGame {
        index,
        engine_color,
        winner,
        score,
        reason: end.reason,
        moves: game.move_count(),
        seconds: end.seconds,
        engine_score,
        referee_score,
        sgf: String::new(),
    };
    rec.sgf = game_sgf(cfg, &game, &rec, &end.notes);
    Ok(rec)
}

/// The engine's command for game `index`: with `vary_seed`, its `--seed`
/// value plus the index.
fn engine_command(cfg: &MatchConfig, index: usize) -> EngineCommand {
    let mut engine_cmd = cfg.engine.clone();
    if cfg.vary_seed
        && let Some(i) = engine_cmd.args.iter().position(|a| a == "--seed")
        && let Some(v) = engine_cmd
            .args
            .get(i + 1)
            .and_then(|v| v.parse::<u64>().ok())
    {
        engine_cmd.args[i + 1] = v.wrapping_add(index as u64).to_string();
    }
    engine_cmd
}

/// How the moves of a game ended: the winner unless the game is to be
/// scored, why it ended and each side's thinking time (engine first).
struct MovesEnd {
    winner: Option<Color>,
    reason: EndReason,
    seconds: [f64; 2],
    /// Per move played: its SGF note (thinking time, and time left under
    /// a clock).
    notes: Vec<String>,
}

/// A move's SGF note: its thinking time as a comment (`C[1.23 s]`, read
/// back by [`times`]) and, under a clock, the mover's time left after it
/// (`BL`/`WL`, with `OB`/`OW` for the stones or periods left in
/// overtime), as SGF FF\[4\] records them.
fn move_note(color: Color, took: f64, left: Option<(f64, u32)>) -> String {
    let mut note = format!("C[{took:.2} s]");
    if let Some((secs, stones)) = left {
        let (l, o) = if color == Color::Black {
            ("BL", "OB")
        } else {
            ("WL", "OW")
        };
        note += &format!("{l}[{:.1}]", secs.max(0.0));
        if stones > 0 {
            note += &format!("{o}[{stones}]");
        }
    }
    note
}

/// Plays the moves of a game until two passes, the move limit, or a
/// side resigns, fails, runs out of time or plays an illegal move.
fn play_moves(
    cfg: &MatchConfig,
    game: &mut Game,
    engine_color: Color,
    engine: &mut GtpClient,
    opponent: &mut GtpClient,
) -> Result<MovesEnd, MatchError> {
    let mut clocks = [ClockState::new(cfg.time); 2];
    let mut seconds = [0.0f64; 2];
    let mut notes = Vec::new();
    let mut color = Color::Black;
    let mut passes = 0;
    let mut stones = 0;
    let (winner, reason) = loop {
        if stones >= cfg.move_limit {
            break (None, EndReason::MoveLimit);
        }
        let mover_is_engine = color == engine_color;
        let (me, other) = if mover_is_engine {
            (&mut *engine, &mut *opponent)
        } else {
            (&mut *opponent, &mut *engine)
        };
        let side = if mover_is_engine { 0 } else { 1 };
        if cfg.time != TimeSystem::Unlimited {
            let (secs, st) = clocks[color.index()].time_left();
            // Whole seconds, rounded down, as servers do.
            let _ = me.send(&format!(
                "time_left {} {} {}",
                color,
                secs.floor() as u64,
                st
            ))?;
        }
        let start = Instant::now();
        let answer = me.send(&format!("genmove {color}"));
        let took = start.elapsed().as_secs_f64();
        seconds[side] += took;
        let answer = match answer {
            Ok(Ok(a)) => a,
            Ok(Err(_)) | Err(_) => {
                break (Some(color.opponent()), EndReason::EngineFailure);
            }
        };
        if !clocks[color.index()].spend(cfg.time, took) {
            break (Some(color.opponent()), EndReason::Time);
        }
        if answer.eq_ignore_ascii_case("resign") {
            break (Some(color.opponent()), EndReason::Resign);
        }
        let Ok(mv) = answer.parse::<Move>() else {
            break (Some(color.opponent()), EndReason::IllegalMove);
        };
        if game.play(color, mv).is_err() {
            break (Some(color.opponent()), EndReason::IllegalMove);
        }
        let left = (cfg.time != TimeSystem::Unlimited).then(|| clocks[color.index()].time_left());
        notes.push(move_note(color, took, left));
        if let Ok(Err(_)) | Err(_) = other.send(&format!("play {color} {mv}")) {
            break (Some(color), EndReason::EngineFailure);
        }
        if mv == Move::Pass {
            passes += 1;
        } else {
            passes = 0;
            stones += 1;
        }
        color = color.opponent();
        if passes >= 2 {
            break (None, EndReason::Passes);
        }
    };
    Ok(MovesEnd {
        winner,
        reason,
        seconds,
        notes,
    })
}

/// The game's SGF with the players' names and the result.
fn game_sgf(cfg: &MatchConfig, game: &Game, rec: &MatchGame, notes: &[String]) -> String {
    let mut sgf = crate::sgf::write_annotated(game, notes);
    let names = |c: Color| {
        if c == rec.engine_color {
            cfg.engine.display()
        } else {
            cfg.opponent.display()
        }
    };
    let extra = format!(
        "PB[{}]PW[{}]RE[{}]",
        sgf_escape(&names(Color::Black)),
        sgf_escape(&names(Color::White)),
        rec.result()
    );
    if let Some(i) = sgf.find("SZ[") {
        sgf.insert_str(i, &extra);
    }
    sgf
}

fn sgf_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

/// Plays the match. `progress` hears of the start (after any earlier
/// results were read back) and of every game played, with the summary
/// so far. Games run `concurrency` at a time; colours alternate (the
/// engine is Black in even-numbered games).
///
/// With an output directory that already holds this match (same
/// settings in `match.json`), the games in its `results.tsv` count in the
/// summary and are not played again: a stopped or killed match goes on
/// where it stopped, and a larger `games` extends it. A directory of
/// another match is refused, never overwritten.
pub fn run(
    cfg: &MatchConfig,
    progress: &(dyn Fn(Event<'_>) + Sync),
) -> Result<Summary, MatchError> {
    let done = match &cfg.out_dir {
        Some(dir) => resume::prepare(cfg, dir)?,
        None => Vec::new(),
    };
    let results_path = cfg.out_dir.as_ref().map(|d| d.join(resume::RESULTS_FILE));
    let mut summary = Summary::default();
    for r in &done {
        summary.add(r);
    }
    summary.resumed = done.len();
    progress(Event::Start(&summary));
    let todo: Vec<usize> = (0..cfg.games)
        .filter(|i| !done.iter().any(|r| r.index == *i))
        .collect();
    let next = AtomicUsize::new(0);
    let state = Mutex::new((summary, None::<MatchError>));
    std::thread::scope(|s| {
        for _ in 0..cfg.concurrency.max(1) {
            s.spawn(|| {
                while let Some(&i) = todo.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let color = if i.is_multiple_of(2) {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let result = play_game(cfg, i, color).and_then(|r| {
                        save(cfg, results_path.as_deref(), &r)?;
                        Ok(r)
                    });
                    let mut st = state.lock().unwrap_or_else(|e| e.into_inner());
                    match result {
                        Ok(r) => {
                            st.0.add(&r);
                            progress(Event::Game(&r, &st.0));
                        }
                        Err(e) => {
                            st.1.get_or_insert(e);
                            next.store(todo.len(), Ordering::Relaxed);
                            break;
                        }
                    }
                }
            });
        }
    });
    let (summary, err) = state.into_inner().unwrap_or_else(|e| e.into_inner());
    match err {
        Some(e) => Err(e),
        None => Ok(summary),
    }
}

/// What [`run`] reports while a match goes on.
#[derive(Debug, Clone, Copy)]
pub enum Event<'a> {
    /// Before the first game: the summary holds the games read back from
    /// an earlier run of the same match (`resumed`), if any.
    Start(&'a Summary),
    /// A game ended; the summary counts it.
    Game(&'a MatchGame, &'a Summary),
}

fn save(cfg: &MatchConfig, results: Option<&Path>, r: &MatchGame) -> Result<(), MatchError> {
    let Some(dir) = &cfg.out_dir else {
        return Ok(());
    };
    let write = |path: PathBuf, text: &str, append: bool| -> Result<(), MatchError> {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(append)
            .write(true)
            .truncate(!append)
            .open(&path)
            .map_err(|source| MatchError::Write {
                path: path.clone(),
                source,
            })?;
        f.write_all(text.as_bytes())
            .map_err(|source| MatchError::Write { path, source })
    };
    write(
        dir.join(format!("game-{:04}.sgf", r.index + 1)),
        &(r.sgf.clone() + "\n"),
        false,
    )?;
    if let Some(p) = results {
        let line = format!(
            "{}\t{}\t{}\t{}\t{}\t{:.1}\t{:.1}\t{}\t{}\n",
            r.index + 1,
            r.engine_color,
            r.result(),
            r.reason.name(),
            r.moves,
            r.seconds[0],
            r.seconds[1],
            r.engine_score.as_deref().unwrap_or("-"),
            r.referee_score.as_deref().unwrap_or("-")
        );
        write(p.to_path_buf(), &line, true)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_commands_split_like_a_shell() {
        let c = EngineCommand::parse(r#"'/opt/my engines/gnugo' --mode gtp --komi "7.5""#).unwrap();
        assert_eq!(c.program, PathBuf::from("/opt/my engines/gnugo"));
        assert_eq!(c.args, ["--mode", "gtp", "--komi", "7.5"]);
        let c = EngineCommand::parse(r"/opt/my\ engines/pachi -t 2").unwrap();
        assert_eq!(c.program, PathBuf::from("/opt/my engines/pachi"));
        assert_eq!(c.args, ["-t", "2"]);
        assert_eq!(EngineCommand::parse("  "), Err(CommandLineError::Empty));
        let e = EngineCommand::parse(r#"gnugo --mode "gtp"#).unwrap_err();
        assert!(matches!(e, CommandLineError::Quoting(_)), "{e:?}");
        assert!(e.to_string().contains("cannot be split"), "{e}");
    }

    #[test]
    fn elo_and_interval() {
        let mut s = Summary::default();
        for i in 0..100 {
            s.wins += (i < 76) as usize;
            s.losses += (i >= 76) as usize;
            s.games += 1;
        }
        let (e, lo, hi) = s.elo();
        assert!((e - 200.0).abs() < 1.0, "{e}");
        assert!(lo < e && e < hi);
        assert_eq!(elo_of(0.5), 0.0);
        assert_eq!(parse_score("W+7.5"), Some(-7.5));
        assert_eq!(parse_score("B+1"), Some(1.0));
        assert_eq!(parse_score("0"), Some(0.0));
        assert_eq!(parse_score("?"), None);
    }

    #[test]
    fn clocks_flag_only_on_real_overruns() {
        let t = TimeSystem::Absolute { main: 10.0 };
        let mut c = ClockState::new(t);
        assert!(c.spend(t, 9.0));
        assert!(!c.spend(t, 1.5));
        let t = TimeSystem::Canadian {
            main: 0.0,
            period: 5.0,
            stones: 1,
        };
        let mut c = ClockState::new(t);
        assert!(c.spend(t, 4.9));
        assert!(c.spend(t, 4.9));
        assert!(!c.spend(t, 5.1));
        assert_eq!(c.time_left().1, 1);
    }
}
