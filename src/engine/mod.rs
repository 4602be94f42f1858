//! The engine API: the game, the move generator and the clock, as plain
//! Rust calls with typed results. It knows nothing of GTP; the GTP module
//! (and later `match` and `tune`) only translate to and from these calls.

pub mod random;
pub mod time;

use std::path::{Component, Path, PathBuf};
use std::str::FromStr;

use thiserror::Error;

use crate::playout;
use crate::rules::{Color, Coord, Game, GameError, Move, PlayError, Rules};
use crate::sgf::{self, SgfError};
pub use time::{Clock, TimeLeft, TimeSystem};

/// The move generators that can be selected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EngineKind {
    /// Uniformly random legal moves that never fill an own true eye.
    #[default]
    Random,
}

impl FromStr for EngineKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "random" => Ok(EngineKind::Random),
            _ => Err(format!(
                "unknown engine '{s}': the available engine is 'random'"
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
    /// If set, `loadsgf`/`printsgf` only touch relative paths below it.
    pub file_root: Option<PathBuf>,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            kind: EngineKind::Random,
            seed: 0,
            rules: Rules::default(),
            size: 19,
            komi: 7.5,
            status_playouts: 256,
            file_root: None,
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
}

/// A move generator. The MCTS player of the next issue implements this too,
/// so the front-ends do not change when the search arrives.
pub trait Player: Send {
    fn name(&self) -> &'static str;
    /// Chooses a move. The engine checks it and plays it.
    fn genmove(&mut self, req: &GenmoveRequest<'_>) -> Genmove;
    /// A new game starts (board cleared or loaded).
    fn new_game(&mut self) {}
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
    #[error("'{0}' is outside the allowed directory: use a relative path without '..'")]
    OutsideRoot(PathBuf),
    #[error("cannot write '{path}': {source}")]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("the player proposed an illegal move {0}")]
    PlayerBug(Move),
}

/// The engine: one game, one move generator, one clock.
pub struct Engine {
    config: EngineConfig,
    game: Game,
    player: Box<dyn Player>,
    clock: Clock,
    /// Cached dead-stone estimate: (position key, dead chains).
    status_cache: Option<(u64, Vec<Vec<Coord>>)>,
}

impl Engine {
    pub fn new(config: EngineConfig) -> Result<Engine, EngineError> {
        let game = Game::new(config.size, config.komi, config.rules)?;
        let player: Box<dyn Player> = match config.kind {
            EngineKind::Random => Box::new(random::RandomPlayer::new(config.seed)),
        };
        Ok(Engine {
            config,
            game,
            player,
            clock: Clock::default(),
            status_cache: None,
        })
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn player_name(&self) -> &'static str {
        self.player.name()
    }

    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// New board size; clears the board. Komi and time settings are kept.
    pub fn set_board_size(&mut self, size: usize) -> Result<(), EngineError> {
        self.game = Game::new(size, self.game.komi(), self.config.rules)?;
        self.player.new_game();
        Ok(())
    }

    /// Clears the board. Komi and time settings are kept.
    pub fn clear_board(&mut self) {
        self.game = Game::new(self.game.size(), self.game.komi(), self.config.rules)
            .expect("the current size is valid");
        self.player.new_game();
    }

    pub fn set_komi(&mut self, komi: f64) {
        self.game.set_komi(komi);
    }

    pub fn play(&mut self, color: Color, mv: Move) -> Result<(), EngineError> {
        Ok(self.game.play(color, mv)?)
    }

    pub fn undo(&mut self) -> Result<(), EngineError> {
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
        let req = GenmoveRequest {
            game: &self.game,
            color,
            clock: &self.clock,
            cleanup,
        };
        let answer = self.player.genmove(&req);
        if let Genmove::Move(mv) = answer {
            if !self.game.is_legal(color, mv) {
                return Err(EngineError::PlayerBug(mv));
            }
            if commit {
                self.game.play(color, mv)?;
            }
        }
        Ok(answer)
    }

    pub fn fixed_handicap(&mut self, n: usize) -> Result<Vec<Coord>, EngineError> {
        Ok(self.game.fixed_handicap(n)?)
    }

    pub fn place_free_handicap(&mut self, n: usize) -> Result<Vec<Coord>, EngineError> {
        Ok(self.game.free_handicap(n)?)
    }

    pub fn set_free_handicap(&mut self, stones: &[Move]) -> Result<Vec<Coord>, EngineError> {
        Ok(self.game.set_handicap(stones)?)
    }

    pub fn set_time_system(&mut self, system: TimeSystem) {
        self.clock.set_system(system);
    }

    pub fn set_time_left(&mut self, color: Color, seconds: f64, stones: u32) {
        self.clock.left[color.index()] = Some(TimeLeft { seconds, stones });
    }

    /// Every chain on the board, each in scan order; chains ordered by
    /// their first stone in scan order.
    fn chains(&self) -> Vec<Vec<Coord>> {
        let board = self.game.board();
        let mut done = std::collections::HashSet::new();
        let mut out = Vec::new();
        for y in (0..board.size() as u8).rev() {
            for x in 0..board.size() as u8 {
                let p = board.point(Coord::new(x, y));
                if board.cell(p).color().is_some() && done.insert(board.chain_head(p)) {
                    let mut chain: Vec<Coord> =
                        board.chain_stones(p).map(|s| board.coord(s)).collect();
                    crate::rules::handicap::sort_scan_order(&mut chain);
                    out.push(chain);
                }
            }
        }
        out
    }

    /// Dead chains by Monte-Carlo ownership: a chain is dead when the
    /// opponent owns its points in most playouts. Seki is not recognised
    /// yet (such chains are reported alive). Cached per position.
    fn dead_chains(&mut self) -> Vec<Vec<Coord>> {
        let key = self.game.board().key(self.game.to_move());
        if let Some((k, dead)) = &self.status_cache
            && *k == key
        {
            return dead.clone();
        }
        let board = self.game.board();
        let size = board.size();
        // Indexed like `points()`: row-major from A1.
        let own = playout::ownership(
            board,
            self.game.to_move(),
            self.config.status_playouts,
            key ^ self.config.seed,
        );
        let dead: Vec<Vec<Coord>> = self
            .chains()
            .into_iter()
            .filter(|chain| {
                let sign = match board.stone_at(chain[0]) {
                    Some(Color::Black) => 1.0,
                    _ => -1.0,
                };
                let mine: f32 = chain
                    .iter()
                    .map(|c| sign * own[c.y as usize * size + c.x as usize])
                    .sum();
                mine < 0.0
            })
            .collect();
        self.status_cache = Some((key, dead.clone()));
        dead
    }

    /// The stones judged dead, in scan order.
    pub fn dead_stones(&mut self) -> Vec<Coord> {
        let mut dead: Vec<Coord> = self.dead_chains().into_iter().flatten().collect();
        crate::rules::handicap::sort_scan_order(&mut dead);
        dead
    }

    /// The final score with dead stones removed: positive when Black wins.
    pub fn final_score(&mut self) -> f64 {
        let dead = self.dead_stones();
        self.game.score_without(&dead)
    }

    /// The chains with the given status, each in scan order.
    pub fn final_status_list(&mut self, status: StoneStatus) -> Vec<Vec<Coord>> {
        match status {
            StoneStatus::Dead => self.dead_chains(),
            StoneStatus::Alive => {
                let dead = self.dead_chains();
                self.chains()
                    .into_iter()
                    .filter(|c| !dead.contains(c))
                    .collect()
            }
            StoneStatus::Seki => Vec::new(),
        }
    }

    fn resolve(&self, path: &Path) -> Result<PathBuf, EngineError> {
        match &self.config.file_root {
            None => Ok(path.to_path_buf()),
            Some(root) => {
                let ok = path
                    .components()
                    .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
                if ok {
                    Ok(root.join(path))
                } else {
                    Err(EngineError::OutsideRoot(path.to_path_buf()))
                }
            }
        }
    }

    /// Loads an SGF file and sets up the position before move `before`
    /// (1-based; `None` replays the whole main line). Board size and komi
    /// come from the file (komi is kept if the file has no KM). On error
    /// the current game is left unchanged.
    pub fn load_sgf(&mut self, path: &Path, before: Option<usize>) -> Result<(), EngineError> {
        let full = self.resolve(path)?;
        let rec = sgf::read_file(&full)?;
        let komi = rec.komi.unwrap_or(self.game.komi());
        let mut game = Game::new(rec.size, komi, self.config.rules)?;
        game.setup_stones(&rec.setup).map_err(|e| match e {
            PlayError::OffBoard(coord) => EngineError::BadSetup {
                path: path.to_path_buf(),
                coord,
            },
            other => other.into(),
        })?;
        game.set_handicap_count(rec.handicap);
        if let Some(c) = rec.to_play {
            game.set_to_move(c);
        } else if rec.handicap > 0 && rec.moves.is_empty() {
            game.set_to_move(Color::White);
        }
        let limit = before.map_or(rec.moves.len(), |n| n.saturating_sub(1));
        for (i, &(color, mv)) in rec.moves.iter().enumerate() {
            if i >= limit {
                // The side to move is the colour of move `before`.
                game.set_to_move(color);
                break;
            }
            game.play(color, mv)
                .map_err(|why| EngineError::IllegalRecordMove {
                    path: path.to_path_buf(),
                    number: i + 1,
                    color,
                    mv,
                    why,
                })?;
        }
        self.game = game;
        self.player.new_game();
        Ok(())
    }

    /// The game as SGF text.
    pub fn sgf(&self) -> String {
        sgf::write(&self.game)
    }

    /// Writes the game as an SGF file.
    pub fn save_sgf(&self, path: &Path) -> Result<(), EngineError> {
        let full = self.resolve(path)?;
        std::fs::write(&full, self.sgf() + "\n").map_err(|source| EngineError::Write {
            path: path.to_path_buf(),
            source,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine() -> Engine {
        Engine::new(EngineConfig {
            size: 9,
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

    #[test]
    fn file_root_rejects_escapes() {
        let e = Engine::new(EngineConfig {
            file_root: Some(PathBuf::from("/tmp")),
            ..EngineConfig::default()
        })
        .unwrap();
        assert!(e.resolve(Path::new("../x.sgf")).is_err());
        assert!(e.resolve(Path::new("/etc/passwd")).is_err());
        assert_eq!(
            e.resolve(Path::new("a/b.sgf")).unwrap(),
            PathBuf::from("/tmp/a/b.sgf")
        );
    }
}
