//! The engine API: the game, the move generator and the clock, as plain
//! Rust calls with typed results. It knows nothing of GTP; the GTP module
//! (and later `match` and `tune`) only translate to and from these calls.

mod lifedeath;
pub mod mcts;
pub mod random;
mod records;
pub mod selfplay;
mod status;
pub mod time;

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use thiserror::Error;

use crate::playout;
use crate::rules::{Cell, Color, Coord, Game, GameError, Move, PlayError, Point, Rules};
use crate::search::{Mark, SearchConfig, Snapshot};
use crate::sgf::{self, SgfError};
use crate::table::Table;
use crate::weights::Weights;
pub use mcts::PlayOptions;
pub use time::{Clock, TimeLeft, TimeSystem};

/// The move generators that can be selected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EngineKind {
    /// Monte-Carlo tree search (the default).
    #[default]
    Mcts,
    /// Uniformly random legal moves that never fill an own true eye.
    Random,
}

impl FromStr for EngineKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "mcts" => Ok(EngineKind::Mcts),
            "random" => Ok(EngineKind::Random),
            _ => Err(format!(
                "unknown engine '{s}': the engines are 'mcts' and 'random'"
            )),
        }
    }
}

/// Start-up configuration of an [`Engine`].
#[derive(Clone, Debug)]
pub struct EngineConfig {
    pub kind: EngineKind,
    pub seed: u64,
    pub rules: Rules,
    pub size: usize,
    pub komi: f64,
    /// Playouts behind `final_score` / `final_status_list`.
    pub status_playouts: usize,
    pub weights: Weights,
    /// Threads, tree memory cap, tree reuse (the seed is `seed`).
    pub search: SearchConfig,
    pub play: PlayOptions,
    /// Search on the opponent's time until the next command arrives.
    pub ponder: bool,
    /// The persistent best-move table (`None`: search without one).
    pub table: Option<Arc<Table>>,
    /// Learned move patterns for the priors (`None`: without).
    pub patterns: Option<Arc<crate::learned::Model>>,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            kind: EngineKind::Mcts,
            seed: 0,
            rules: Rules::default(),
            size: 19,
            komi: 7.5,
            status_playouts: 256,
            weights: Weights::default(),
            search: SearchConfig::default(),
            play: PlayOptions::default(),
            ponder: false,
            patterns: Some(crate::learned::builtin_arc()),
            table: None,
        }
    }
}

/// What `genmove` answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Genmove {
    Move(Move),
    Resign,
}

/// The status of a stone at the end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoneStatus {
    Alive,
    Dead,
    Seki,
}

/// What a move generator is asked for.
pub struct GenmoveRequest<'a> {
    pub game: &'a Game,
    pub color: Color,
    pub clock: &'a Clock,
    /// `kgs-genmove_cleanup`: capture every dead stone before passing.
    pub cleanup: bool,
    /// How often to call `report` while thinking (`None`: the player's
    /// own default).
    pub report_every: Option<Duration>,
    pub report: &'a mut dyn FnMut(&Snapshot),
}

/// A move generator behind the engine: `random` or `mcts`.
pub trait Player: Send {
    fn name(&self) -> &'static str;
    /// Chooses a move. The engine checks it and plays it.
    fn genmove(&mut self, req: &mut GenmoveRequest<'_>) -> Genmove;
    /// A new game starts (board cleared or loaded).
    fn new_game(&mut self) {}
    /// The weights the player reads, if it has any.
    fn weights(&self) -> Option<&Weights> {
        None
    }
    /// The player's last search, if it searches.
    fn last_search(&self) -> Option<&crate::search::SearchResult> {
        None
    }
    /// Whether the player reads a best-move table.
    fn has_table(&self) -> bool {
        false
    }
    /// Analyses `game` for `color` until `stop` is set, calling `report`
    /// every `every`. Players without a search just wait.
    fn analyze(
        &mut self,
        _game: &Game,
        _color: Color,
        stop: &AtomicBool,
        _every: Duration,
        _report: &mut dyn FnMut(&Snapshot),
    ) {
        while !stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    /// Ownership of every point of `game.board().points()` (+1 Black to -1
    /// White), if the player can estimate it.
    fn ownership(&mut self, _game: &Game) -> Option<Vec<f32>> {
        None
    }
    /// The state of a search of the current position (searching briefly
    /// if there is none), if the player searches.
    fn snapshot(&mut self, _game: &Game) -> Option<Snapshot> {
        None
    }
    /// Drops the search tree (the table, if any, is kept).
    fn clear_tree(&mut self) {}
    /// The principal variation of the current position with table marks,
    /// if the player searches.
    fn marked_pv(&mut self, _game: &Game) -> Option<Vec<(Move, Mark)>> {
        None
    }
}

/// A search running in the background (analysis or pondering).
struct Background {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<Box<dyn Player>>,
}

#[derive(Debug, Error)]
pub enum EngineError {
    #[error(transparent)]
    Game(#[from] GameError),
    #[error(transparent)]
    Play(#[from] PlayError),
    #[error(transparent)]
    Sgf(#[from] SgfError),
    #[error("'{path}': move {number} ({color} {mv}) is illegal: {why}")]
    IllegalRecordMove {
        path: PathBuf,
        number: usize,
        color: Color,
        mv: Move,
        why: PlayError,
    },
    #[error("'{path}': setup stone at {coord} is off the board")]
    BadSetup { path: PathBuf, coord: Coord },
    #[error(transparent)]
    Region(#[from] crate::tsumego::RegionError),
    #[error("cannot write '{path}': {source}")]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("the player proposed an illegal move {0}")]
    PlayerBug(Move),
    #[error("this engine has no search to analyse with (use --engine mcts)")]
    NoSearch,
}

/// Cached status estimate: (position key, dead chains, seki chains).
type StatusCache = (u64, Vec<Vec<Coord>>, Vec<Vec<Coord>>);

/// A fresh move generator of the configured kind.
fn make_player(config: &EngineConfig) -> Box<dyn Player> {
    match config.kind {
        EngineKind::Random => Box::new(random::RandomPlayer::new(config.seed)),
        EngineKind::Mcts => Box::new(mcts::MctsPlayer::new(
            SearchConfig {
                seed: config.seed,
                ..config.search.clone()
            },
            config.weights.clone(),
            config.play.clone(),
            config.table.clone(),
            config.patterns.clone(),
        )),
    }
}

/// The engine: one game, one move generator, one clock.
pub struct Engine {
    config: EngineConfig,
    game: Game,
    /// `None` only while a background search holds the player.
    player: Option<Box<dyn Player>>,
    /// The search of the last generated move (for the front end's report).
    last_genmove: Option<crate::search::SearchResult>,
    player_name: &'static str,
    background: Option<Background>,
    clock: Clock,
    /// Cached status estimate: (position key, dead chains, seki chains).
    status_cache: Option<StatusCache>,
}

impl Engine {
    pub fn new(config: EngineConfig) -> Result<Engine, EngineError> {
        let game = Game::new(config.size, config.komi, config.rules)?;
        let player = make_player(&config);
        Ok(Engine {
            player_name: player.name(),
            config,
            game,
            player: Some(player),
            last_genmove: None,
            background: None,
            clock: Clock::default(),
            status_cache: None,
        })
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The search behind the last generated move, if the player searches.
    pub fn last_search(&self) -> Option<&crate::search::SearchResult> {
        self.last_genmove.as_ref()
    }

    /// Whether the player reads a best-move table.
    pub fn has_table(&self) -> bool {
        self.player.as_ref().is_some_and(|p| p.has_table())
    }

    pub fn player_name(&self) -> &'static str {
        self.player_name
    }

    /// The player, after stopping any background search.
    fn player(&mut self) -> &mut Box<dyn Player> {
        self.stop_background();
        self.player
            .as_mut()
            .expect("the player is back after stopping")
    }

    /// Stops a background search (analysis or pondering) and waits for it.
    pub fn stop_background(&mut self) {
        if let Some(bg) = self.background.take() {
            bg.stop.store(true, Ordering::Relaxed);
            match bg.handle.join() {
                Ok(p) => self.player = Some(p),
                // The search panicked: start a fresh player.
                Err(_) => self.player = Some(make_player(&self.config)),
            }
        }
    }

    /// Starts analysing the current position for `color` in the
    /// background: `report` gets a snapshot every `every`, and `done` runs
    /// when the analysis is stopped by [`Engine::stop_background`]. Every
    /// engine call that uses the player or changes the position calls it
    /// first, and the GTP session calls it before every command.
    pub fn start_analysis(
        &mut self,
        color: Color,
        every: Duration,
        mut report: Box<dyn FnMut(&Snapshot) + Send>,
        done: Box<dyn FnOnce() + Send>,
    ) {
        self.stop_background();
        let mut player = self.player.take().expect("the player is here");
        let game = self.game.clone();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let handle = std::thread::spawn(move || {
            player.analyze(&game, color, &flag, every, &mut *report);
            done();
            player
        });
        self.background = Some(Background { stop, handle });
    }

    /// The weights of the player, if it has any.
    pub fn weights(&mut self) -> Option<Weights> {
        self.player().weights().cloned()
    }

    /// The best-move table in use, if any.
    pub fn table(&self) -> Option<&Arc<Table>> {
        self.config.table.as_ref()
    }

    /// Drops the search tree; the table keeps what it learned.
    pub fn clear_tree(&mut self) {
        self.player().clear_tree();
        self.status_cache = None;
    }

    /// The principal variation of the current position, each move marked
    /// against the table.
    pub fn marked_pv(&mut self) -> Result<Vec<(Move, Mark)>, EngineError> {
        self.stop_background();
        let player = self.player.as_mut().expect("the player is here");
        player.marked_pv(&self.game).ok_or(EngineError::NoSearch)
    }

    /// The state of the search of the current position.
    pub fn analysis(&mut self) -> Result<Snapshot, EngineError> {
        self.stop_background();
        let player = self.player.as_mut().expect("the player is here");
        player.snapshot(&self.game).ok_or(EngineError::NoSearch)
    }

    /// Ownership of every point in `board.points()` order (row-major from
    /// A1, so point (x, y) is entry y·size + x), +1 Black to −1 White.
    fn ownership_values(&mut self) -> Vec<f32> {
        self.stop_background();
        let player = self.player.as_mut().expect("the player is here");
        let game = &self.game;
        player.ownership(game).unwrap_or_else(|| {
            let to_move = game.to_move();
            playout::ownership(
                game.board(),
                to_move,
                self.config.status_playouts,
                game.board().key(to_move) ^ self.config.seed,
            )
        })
    }

    /// Ownership of every point, +1 Black to −1 White.
    pub fn ownership(&mut self) -> Vec<(Coord, f32)> {
        let own = self.ownership_values();
        let board = self.game.board();
        board
            .points()
            .iter()
            .map(|&p| board.coord(p))
            .zip(own)
            .collect()
    }

    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// New board size; clears the board. Komi and time settings are kept.
    pub fn set_board_size(&mut self, size: usize) -> Result<(), EngineError> {
        let game = Game::new(size, self.game.komi(), self.config.rules)?;
        self.player().new_game();
        self.game = game;
        Ok(())
    }

    /// Clears the board. Komi and time settings are kept.
    pub fn clear_board(&mut self) {
        self.game = Game::new(self.game.size(), self.game.komi(), self.config.rules)
            .expect("the current size is valid");
        self.player().new_game();
    }

    pub fn set_komi(&mut self, komi: f64) {
        self.stop_background();
        self.game.set_komi(komi);
    }

    pub fn play(&mut self, color: Color, mv: Move) -> Result<(), EngineError> {
        self.stop_background();
        Ok(self.game.play(color, mv)?)
    }

    pub fn undo(&mut self) -> Result<(), EngineError> {
        self.stop_background();
        Ok(self.game.undo()?)
    }

    /// Generates a move for `color`; plays it unless `commit` is false
    /// (`reg_genmove`).
    pub fn genmove(
        &mut self,
        color: Color,
        commit: bool,
        cleanup: bool,
    ) -> Result<Genmove, EngineError> {
        self.genmove_with(color, commit, cleanup, None, &mut |_| {})
    }

    /// [`Engine::genmove`] with a progress callback (`lz-genmove_analyze`).
    pub fn genmove_with(
        &mut self,
        color: Color,
        commit: bool,
        cleanup: bool,
        report_every: Option<Duration>,
        report: &mut dyn FnMut(&Snapshot),
    ) -> Result<Genmove, EngineError> {
        self.stop_background();
        let started = Instant::now();
        let mut req = GenmoveRequest {
            game: &self.game,
            color,
            clock: &self.clock,
            cleanup,
            report_every,
            report,
        };
        let player = self.player.as_mut().expect("the player is here");
        let answer = player.genmove(&mut req);
        self.last_genmove = player.last_search().cloned();
        if let Genmove::Move(mv) = answer {
            if !self.game.is_legal(color, mv) {
                return Err(EngineError::PlayerBug(mv));
            }
            if commit {
                self.game.play(color, mv)?;
            }
        }
        if commit {
            self.clock.spend(color, started.elapsed().as_secs_f64());
            if self.config.ponder && answer != Genmove::Resign && !self.game.is_over() {
                let opp = color.opponent();
                self.start_analysis(
                    opp,
                    Duration::from_secs(3600),
                    Box::new(|_| {}),
                    Box::new(|| {}),
                );
            }
        }
        Ok(answer)
    }

    pub fn fixed_handicap(&mut self, n: usize) -> Result<Vec<Coord>, EngineError> {
        self.stop_background();
        Ok(self.game.fixed_handicap(n)?)
    }

    pub fn place_free_handicap(&mut self, n: usize) -> Result<Vec<Coord>, EngineError> {
        self.stop_background();
        Ok(self.game.free_handicap(n)?)
    }

    pub fn set_free_handicap(&mut self, stones: &[Move]) -> Result<Vec<Coord>, EngineError> {
        self.stop_background();
        Ok(self.game.set_handicap(stones)?)
    }

    pub fn set_time_system(&mut self, system: TimeSystem) {
        self.clock.set_system(system);
    }

    pub fn set_time_left(&mut self, color: Color, seconds: f64, stones: u32) {
        self.clock.set_left(color, seconds, stones);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine() -> Engine {
        Engine::new(EngineConfig {
            size: 9,
            kind: EngineKind::Random,
            ..EngineConfig::default()
        })
        .unwrap()
    }

    #[test]
    fn random_games_end_with_two_passes() {
        let mut e = engine();
        let mut color = Color::Black;
        for _ in 0..1000 {
            if e.game().is_over() {
                break;
            }
            e.genmove(color, true, false).unwrap();
            color = color.opponent();
        }
        assert!(e.game().is_over());
        let dead = e.dead_stones();
        assert!(
            dead.is_empty(),
            "random play to the end leaves no dead stones: {dead:?}"
        );
        assert_eq!(e.final_score(), e.game().area_score());
    }

    #[test]
    fn settings_survive_clear_and_resize() {
        let mut e = engine();
        e.set_komi(0.5);
        e.set_time_system(TimeSystem::Absolute { main: 60.0 });
        e.clear_board();
        e.set_board_size(13).unwrap();
        assert_eq!(e.game().komi(), 0.5);
        assert_eq!(e.clock().system, TimeSystem::Absolute { main: 60.0 });
        assert!(e.set_board_size(26).is_err());
        assert_eq!(e.game().size(), 13);
    }
}
