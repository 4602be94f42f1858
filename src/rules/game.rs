//! The rules-aware game: move history, undo, superko, passes, handicap and
//! area scoring on top of the lean [`Board`].

use ahash::AHashMap;
use thiserror::Error;

use super::board::{Board, BoardError, Point};
use super::handicap::{self, HandicapError};
use super::point::{Color, Coord, MAX_SIZE, MIN_SIZE, Move};
use super::zobrist;

/// Which repetitions are forbidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum KoRule {
    /// Only the immediate recapture of a single stone is forbidden.
    Simple,
    /// No move may recreate an earlier board position (CGOS, Chinese rules).
    #[default]
    Positional,
    /// No move may recreate an earlier position with the same side to move.
    Situational,
}

impl std::str::FromStr for KoRule {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "simple" => Ok(KoRule::Simple),
            "positional" => Ok(KoRule::Positional),
            "situational" => Ok(KoRule::Situational),
            _ => Err(format!(
                "unknown ko rule '{s}': expected positional, situational or simple"
            )),
        }
    }
}

impl std::fmt::Display for KoRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            KoRule::Simple => "simple",
            KoRule::Positional => "positional",
            KoRule::Situational => "situational",
        })
    }
}

/// The rule set of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Rules {
    pub ko: KoRule,
    pub allow_suicide: bool,
}

/// Why a move cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum PlayError {
    #[error("vertex {0} is off the board")]
    OffBoard(Coord),
    #[error("{0} is occupied")]
    Occupied(Coord),
    #[error("{0} retakes a ko")]
    Ko(Coord),
    #[error("{0} repeats an earlier position (superko)")]
    Superko(Coord),
    #[error("{0} is suicide")]
    Suicide(Coord),
}

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GameError {
    #[error("unacceptable size {0}: board sizes from {MIN_SIZE} to {MAX_SIZE} are supported")]
    BadSize(usize),
    #[error("cannot undo")]
    CannotUndo,
    #[error(transparent)]
    Handicap(#[from] HandicapError),
}

/// One move of the history with the board as it was before it.
#[derive(Clone)]
struct Played {
    color: Color,
    /// `to_move` before the move (GTP lets either colour play).
    to_move_before: Color,
    mv: Move,
    before: Box<Board>,
}

/// A game in progress.
#[derive(Clone)]
pub struct Game {
    board: Board,
    komi: f64,
    rules: Rules,
    to_move: Color,
    history: Vec<Played>,
    /// Setup and handicap stones placed before the first move.
    setup: Vec<(Color, Coord)>,
    handicap: usize,
    /// Superko keys of every position so far, with multiplicity.
    seen: AHashMap<u64, u32>,
}

/// The key superko remembers under `rule` for a position whose board has
/// the Zobrist `hash` ([`Board::hash`]) with `next` to move: the board
/// alone (positional), the board and the side to move (situational), or
/// nothing (simple ko).
pub fn superko_key(rule: KoRule, hash: u64, next: Color) -> Option<u64> {
    match rule {
        KoRule::Simple => None,
        KoRule::Positional => Some(hash),
        KoRule::Situational => Some(hash ^ zobrist::side_key(next)),
    }
}

impl Game {
    /// A new game on an empty board. Fails for sizes outside 2..=25.
    pub fn new(size: usize, komi: f64, rules: Rules) -> Result<Game, GameError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(GameError::BadSize(size));
        }
        let mut board = Board::new(size);
        board.set_allow_suicide(rules.allow_suicide);
        let mut g = Game {
            board,
            komi,
            rules,
            to_move: Color::Black,
            history: Vec::new(),
            setup: Vec::new(),
            handicap: 0,
            seen: AHashMap::new(),
        };
        g.remember();
        Ok(g)
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn size(&self) -> usize {
        self.board.size()
    }

    pub fn komi(&self) -> f64 {
        self.komi
    }

    pub fn set_komi(&mut self, komi: f64) {
        self.komi = komi;
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The player expected to move next (by alternation; GTP may override).
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    pub fn set_to_move(&mut self, c: Color) {
        self.to_move = c;
    }

    /// Number of handicap stones placed.
    pub fn handicap(&self) -> usize {
        self.handicap
    }

    /// Records the handicap of a loaded game (the stones come as setup).
    pub fn set_handicap_count(&mut self, n: usize) {
        self.handicap = n;
    }

    /// Setup and handicap stones placed before the first move.
    pub fn setup(&self) -> &[(Color, Coord)] {
        &self.setup
    }

    /// The moves played, in order.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = (Color, Move)> + '_ {
        self.history.iter().map(|p| (p.color, p.mv))
    }

    pub fn move_count(&self) -> usize {
        self.history.len()
    }

    pub fn last_move(&self) -> Option<(Color, Move)> {
        self.history.last().map(|p| (p.color, p.mv))
    }

    /// True when the last two moves were passes.
    pub fn is_over(&self) -> bool {
        let n = self.history.len();
        n >= 2 && self.history[n - 1].mv == Move::Pass && self.history[n - 2].mv == Move::Pass
    }

    /// True if no stone is on the board.
    pub fn board_is_empty(&self) -> bool {
        self.board.num_empty() == self.size() * self.size()
    }

    /// The key superko remembers for a position with this hash and side to
    /// move (`None` under simple ko).
    fn superko_key(&self, hash: u64, next: Color) -> Option<u64> {
        superko_key(self.rules.ko, hash, next)
    }

    /// The superko keys of every position of the game so far, the current
    /// one included (none under simple ko); see [`superko_key`].
    pub fn superko_seen(&self) -> impl Iterator<Item = u64> + '_ {
        self.seen.keys().copied()
    }

    fn remember(&mut self) {
        if let Some(k) = self.superko_key(self.board.hash(), self.to_move) {
            *self.seen.entry(k).or_insert(0) += 1;
        }
    }

    fn forget(&mut self) {
        if let Some(k) = self.superko_key(self.board.hash(), self.to_move)
            && let Some(n) = self.seen.get_mut(&k)
        {
            *n -= 1;
            if *n == 0 {
                self.seen.remove(&k);
            }
        }
    }

    /// The lean-board point of `c`, or an error if `c` is off the board.
    pub fn point(&self, c: Coord) -> Result<Point, PlayError> {
        if c.on_board(self.size()) {
            Ok(self.board.point(c))
        } else {
            Err(PlayError::OffBoard(c))
        }
    }

    /// Checks a stone move under the full rules without playing it.
    fn check_stone(&self, color: Color, c: Coord) -> Result<Point, PlayError> {
        let p = self.point(c)?;
        self.board.check(p, color).map_err(|e| match e {
            BoardError::Occupied => PlayError::Occupied(c),
            BoardError::OffBoard => PlayError::OffBoard(c),
            BoardError::Ko => PlayError::Ko(c),
            BoardError::Suicide => PlayError::Suicide(c),
        })?;
        let key = self.superko_key(self.board.hash_after(p, color), color.opponent());
        if key.is_some_and(|k| self.seen.contains_key(&k)) {
            return Err(PlayError::Superko(c));
        }
        Ok(p)
    }

    /// For a move that superko forbids: the number of the earlier move after
    /// which the same position stood (0 = before the first move).
    pub fn repeated_position(&self, color: Color, c: Coord) -> Option<usize> {
        let p = self.point(c).ok()?;
        self.board.check(p, color).ok()?;
        let target = self.superko_key(self.board.hash_after(p, color), color.opponent())?;
        // history[i].before is the position after move i, stored in `seen`
        // with the side to move of that time.
        self.history.iter().position(|played| {
            self.superko_key(played.before.hash(), played.to_move_before) == Some(target)
        })
    }

    /// Checks a move under the full rules (including superko).
    pub fn check(&self, color: Color, mv: Move) -> Result<(), PlayError> {
        match mv {
            Move::Pass => Ok(()),
            Move::Play(c) => self.check_stone(color, c).map(|_| ()),
        }
    }

    pub fn is_legal(&self, color: Color, mv: Move) -> bool {
        self.check(color, mv).is_ok()
    }

    /// Plays a move (either colour may move at any time, as GTP allows).
    pub fn play(&mut self, color: Color, mv: Move) -> Result<(), PlayError> {
        let after = match mv {
            Move::Pass => {
                let mut b = self.board.clone();
                b.pass();
                b
            }
            Move::Play(c) => {
                let p = self.check_stone(color, c)?;
                let mut b = self.board.clone();
                b.play_unchecked(p, color);
                debug_assert_eq!(Some(b.hash()), Some(self.board.hash_after(p, color)));
                b
            }
        };
        let before = std::mem::replace(&mut self.board, after);
        self.history.push(Played {
            color,
            to_move_before: self.to_move,
            mv,
            before: Box::new(before),
        });
        self.to_move = color.opponent();
        self.remember();
        Ok(())
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Result<(), GameError> {
        let last = self.history.pop().ok_or(GameError::CannotUndo)?;
        self.forget();
        self.board = *last.before;
        self.to_move = last.to_move_before;
        Ok(())
    }

    /// Every point where `color` may legally play now (full rules).
    pub fn legal_points(&self, color: Color) -> Vec<Coord> {
        let b = &self.board;
        b.points()
            .iter()
            .map(|&p| b.coord(p))
            .filter(|&c| self.check_stone(color, c).is_ok())
            .collect()
    }

    /// The legal points that do not fill one of `color`'s own true eyes:
    /// the moves a random player chooses from.
    pub fn non_eye_legal_points(&self, color: Color) -> Vec<Coord> {
        let b = &self.board;
        self.legal_points(color)
            .into_iter()
            .filter(|&c| !b.is_true_eye(b.point(c), color))
            .collect()
    }

    /// Puts setup stones on the board before any move (SGF AB/AW/AE, or
    /// handicap). `None` clears a point.
    pub fn setup_stones(&mut self, stones: &[(Coord, Option<Color>)]) -> Result<(), PlayError> {
        for &(c, _) in stones {
            self.point(c)?;
        }
        self.forget();
        for &(c, color) in stones {
            self.board.set_stone(c, color);
            self.setup.retain(|&(_, s)| s != c);
            if let Some(col) = color {
                self.setup.push((col, c));
            }
        }
        self.remember();
        Ok(())
    }

    fn place_handicap(&mut self, stones: Vec<Coord>) -> Result<Vec<Coord>, GameError> {
        if !self.board_is_empty() || !self.history.is_empty() {
            return Err(HandicapError::BoardNotEmpty.into());
        }
        let setup: Vec<_> = stones.iter().map(|&c| (c, Some(Color::Black))).collect();
        self.setup_stones(&setup)
            .map_err(|_| HandicapError::BadVertexList)?;
        self.handicap = stones.len();
        self.forget();
        self.to_move = Color::White;
        self.remember();
        Ok(stones)
    }

    /// GTP `fixed_handicap`: the standard layout.
    pub fn fixed_handicap(&mut self, n: usize) -> Result<Vec<Coord>, GameError> {
        if !self.board_is_empty() || !self.history.is_empty() {
            return Err(HandicapError::BoardNotEmpty.into());
        }
        let stones = handicap::fixed_points(self.size(), n)?;
        self.place_handicap(stones)
    }

    /// GTP `place_free_handicap`: the engine's own choice.
    pub fn free_handicap(&mut self, n: usize) -> Result<Vec<Coord>, GameError> {
        if !self.board_is_empty() || !self.history.is_empty() {
            return Err(HandicapError::BoardNotEmpty.into());
        }
        let stones = handicap::free_points(self.size(), n)?;
        self.place_handicap(stones)
    }

    /// GTP `set_free_handicap`: stones chosen by the controller.
    pub fn set_handicap(&mut self, stones: &[Move]) -> Result<Vec<Coord>, GameError> {
        if !self.board_is_empty() || !self.history.is_empty() {
            return Err(HandicapError::BoardNotEmpty.into());
        }
        if stones.len() < 2 || stones.len() > handicap::max_free(self.size()) {
            return Err(HandicapError::BadVertexList.into());
        }
        let mut coords = Vec::with_capacity(stones.len());
        for mv in stones {
            match *mv {
                Move::Play(c) if c.on_board(self.size()) && !coords.contains(&c) => coords.push(c),
                _ => return Err(HandicapError::BadVertexList.into()),
            }
        }
        self.place_handicap(coords)
    }

    /// Tromp-Taylor area score of the current board: Black's area minus
    /// White's area minus komi (positive: Black wins).
    pub fn area_score(&self) -> f64 {
        let (b, w) = self.board.area();
        b as f64 - w as f64 - self.komi
    }

    /// Area score after removing the given dead stones.
    pub fn score_without(&self, dead: &[Coord]) -> f64 {
        let mut b = self.board.clone();
        for &c in dead {
            b.set_stone(c, None);
        }
        let (black, white) = b.area();
        black as f64 - white as f64 - self.komi
    }
}

/// Formats a score the GTP way: `B+2.5`, `W+0.5` or `0`.
pub fn format_score(score: f64) -> String {
    if score.abs() < 1e-9 {
        "0".to_string()
    } else if score > 0.0 {
        format!("B+{}", score)
    } else {
        format!("W+{}", -score)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    #[test]
    fn sizes() {
        assert!(Game::new(1, 0.0, Rules::default()).is_err());
        assert!(Game::new(26, 0.0, Rules::default()).is_err());
        assert!(Game::new(2, 0.0, Rules::default()).is_ok());
        assert!(Game::new(25, 0.0, Rules::default()).is_ok());
    }

    #[test]
    fn undo_restores_everything() {
        let mut g = Game::new(9, 7.5, Rules::default()).unwrap();
        let h0 = g.board().hash();
        g.play(Color::Black, mv("E5")).unwrap();
        g.play(Color::White, mv("pass")).unwrap();
        assert_eq!(g.to_move(), Color::Black);
        g.undo().unwrap();
        g.undo().unwrap();
        assert_eq!(g.board().hash(), h0);
        assert_eq!(g.to_move(), Color::Black);
        assert_eq!(g.undo(), Err(GameError::CannotUndo));
    }

    /// A 2x2 board: Black A1 recaptures three stones and would recreate the
    /// position after move 1. Simple ko allows it, positional superko not.
    #[test]
    fn positional_superko() {
        let seq = [
            (Color::Black, "A1"),
            (Color::White, "B2"),
            (Color::Black, "B1"),
            (Color::White, "A2"), // captures A1 B1
            (Color::Black, "A1"),
            (Color::White, "B1"), // captures A1
        ];
        let mut g = Game::new(2, 0.0, Rules::default()).unwrap();
        let simple_rules = Rules {
            ko: KoRule::Simple,
            allow_suicide: false,
        };
        let mut simple = Game::new(2, 0.0, simple_rules).unwrap();
        for (c, m) in seq {
            g.play(c, mv(m)).unwrap();
            simple.play(c, mv(m)).unwrap();
        }
        assert_eq!(g.board().stone_count(Color::White), 3);
        assert_eq!(
            g.check(Color::Black, mv("A1")),
            Err(PlayError::Superko(Coord::new(0, 0)))
        );
        assert!(simple.is_legal(Color::Black, mv("A1")));
        let situational = Rules {
            ko: KoRule::Situational,
            allow_suicide: false,
        };
        let mut sit = Game::new(2, 0.0, situational).unwrap();
        for (c, m) in seq {
            sit.play(c, mv(m)).unwrap();
        }
        // After move 1 White was to move; after Black A1 now, White again.
        assert!(!sit.is_legal(Color::Black, mv("A1")));
    }

    #[test]
    fn handicap_rules() {
        let mut g = Game::new(19, 0.5, Rules::default()).unwrap();
        let v = g.fixed_handicap(4).unwrap();
        assert_eq!(v.len(), 4);
        assert_eq!(g.to_move(), Color::White);
        assert_eq!(g.board().stone_count(Color::Black), 4);
        assert_eq!(
            g.fixed_handicap(2),
            Err(GameError::Handicap(HandicapError::BoardNotEmpty))
        );
        let mut g = Game::new(9, 0.5, Rules::default()).unwrap();
        assert_eq!(
            g.set_handicap(&[mv("A1"), mv("A1")]),
            Err(GameError::Handicap(HandicapError::BadVertexList))
        );
        assert_eq!(
            g.set_handicap(&[mv("A1"), mv("pass")]),
            Err(GameError::Handicap(HandicapError::BadVertexList))
        );
        assert_eq!(
            g.set_handicap(&[mv("A1")]),
            Err(GameError::Handicap(HandicapError::BadVertexList))
        );
        assert!(g.board_is_empty());
        g.set_handicap(&[mv("A1"), mv("J9")]).unwrap();
        assert_eq!(g.handicap(), 2);
    }

    #[test]
    fn scores() {
        let mut g = Game::new(5, 0.5, Rules::default()).unwrap();
        for y in 1..=5 {
            g.play(Color::Black, mv(&format!("B{y}"))).unwrap();
            g.play(Color::White, mv(&format!("D{y}"))).unwrap();
        }
        // Black: A+B columns = 10, White: D+E = 10, C dame.
        assert_eq!(g.area_score(), -0.5);
        assert_eq!(format_score(g.area_score()), "W+0.5");
        assert_eq!(format_score(0.0), "0");
        assert_eq!(format_score(3.0), "B+3");
    }
}
