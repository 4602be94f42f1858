//! The `mcts` player: the tree search of [`crate::search`] with time
//! management, resign and pass rules and dynamic komi. It prints nothing:
//! progress goes to the caller's report callback, and the last search is
//! there to read ([`Player::last_search`]).

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::time::{move_budget, move_budget_max};
use super::{Genmove, GenmoveRequest, Player};
use crate::rules::{Color, Game, Move};
use crate::search::{BookPlay, Limits, Mark, SearchConfig, SearchResult, Searcher, Snapshot};
use crate::table::Table;
use crate::weights::Weights;

/// How the player spends its effort.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// Fixed playouts per move (overrides the clock: for tests and
    /// reproducible games).
    pub playouts: Option<u64>,
    /// Seconds per move when the controller sets no time limit and no
    /// playout count is given.
    pub default_move_secs: f64,
    /// Dynamic komi in handicap games (see docs/gtp.md).
    pub dynamic_komi: bool,
    /// Playouts for status and score estimates when no search of the
    /// position exists.
    pub status_playouts: u64,
}

impl Default for PlayOptions {
    fn default() -> Self {
        PlayOptions {
            playouts: None,
            default_move_secs: 5.0,
            dynamic_komi: false,
            status_playouts: 3000,
        }
    }
}

pub struct MctsPlayer {
    searcher: Searcher,
    options: PlayOptions,
    last: Option<(u64, SearchResult)>,
    /// Playouts per second of the last timed move search.
    rate: Option<f64>,
}

/// Playouts per second and thread assumed for a book move's comparison
/// before a timed search has measured the rate: high (about an empty 9x9
/// board's rate), so that the guess errs toward searching.
pub const BOOK_RATE_GUESS: f64 = 25_000.0;

/// Dynamic komi: points per handicap stone on 19x19, about what a stone
/// is worth in area scoring (two points of territory and one of area,
/// doubled by tempo), so the search sees an even game at the start.
pub const DYNAMIC_KOMI_PER_STONE: f64 = 7.0;
/// The least share of the 19x19 value a stone keeps on small boards (on
/// 9x9 the area ratio alone, 0.22, would make a handicap stone worthless).
pub const DYNAMIC_KOMI_MIN_SCALE: f64 = 0.3;
/// The extra komi is gone by move `points / DYNAMIC_KOMI_HORIZON`: by then
/// the game's balance has shown in the position.
pub const DYNAMIC_KOMI_HORIZON: f64 = 3.0;

/// The extra komi of dynamic komi: [`DYNAMIC_KOMI_PER_STONE`] per handicap
/// stone on 19x19 (scaled by board area), falling linearly to zero by move
/// size² / [`DYNAMIC_KOMI_HORIZON`].
pub fn dynamic_komi_extra(game: &Game) -> f64 {
    let h = game.handicap() as f64;
    if h == 0.0 {
        return 0.0;
    }
    let area = (game.size() * game.size()) as f64;
    let horizon = area / DYNAMIC_KOMI_HORIZON;
    let left = (1.0 - game.move_count() as f64 / horizon).max(0.0);
    h * DYNAMIC_KOMI_PER_STONE * (area / 361.0).clamp(DYNAMIC_KOMI_MIN_SCALE, 1.0) * left
}

/// May `color` resign now? Not the side that gave a handicap (White)
/// before move size² / [`DYNAMIC_KOMI_HORIZON`]. Without dynamic komi its
/// win rate starts low, because the search assumes an opponent as strong
/// as itself, who would keep the stones' advantage; it would then resign
/// in the opening of a large handicap game against the weaker player the
/// handicap was given to. The guard ends at the move by which dynamic
/// komi's extra komi is gone.
pub fn resign_allowed(game: &Game, color: Color) -> bool {
    if game.handicap() == 0 || color != Color::White {
        return true;
    }
    let area = (game.size() * game.size()) as f64;
    game.move_count() as f64 >= area / DYNAMIC_KOMI_HORIZON
}

impl MctsPlayer {
    pub fn new(
        config: SearchConfig,
        weights: Weights,
        options: PlayOptions,
        table: Option<Arc<Table>>,
        patterns: Option<Arc<crate::learned::Model>>,
    ) -> MctsPlayer {
        let mut searcher = Searcher::new(config, weights);
        searcher.set_table(table);
        searcher.set_patterns(patterns);
        MctsPlayer {
            searcher,
            options,
            last: None,
            rate: None,
        }
    }

    /// The table's move for this position when the weight
    /// `book_move_ratio` allows playing it without a search: the position
    /// was searched as a root (by `book build` or an earlier game) and its
    /// move had at least `book_move_ratio` times the visits this search
    /// would make playouts. Not under dynamic komi (the table holds the
    /// game's komi) or in cleanup.
    fn book_move(&self, game: &Game, color: Color, limits: &Limits) -> Option<SearchResult> {
        let ratio = self.searcher.weights().book_move_ratio[0];
        if ratio <= 0.0 || self.komi(game) != game.komi() {
            return None;
        }
        let (mv, e) = self.searcher.root_entry(game, color)?;
        let expected = match (limits.playouts, limits.time) {
            (Some(n), _) => n as f64,
            (None, Some(t)) => {
                let guess = BOOK_RATE_GUESS * self.searcher.threads() as f64;
                t.as_secs_f64() * self.rate.unwrap_or(guess)
            }
            (None, None) => return None,
        };
        (e.visits() >= ratio * expected).then(|| SearchResult {
            snapshot: Snapshot {
                color: Some(color),
                ..Snapshot::default()
            },
            best: mv,
            winrate: 0.5,
            marked_pv: Vec::new(),
            iterations: Vec::new(),
            book: Some(BookPlay {
                entry: e,
                instead_of: expected.round() as u64,
            }),
        })
    }

    fn komi(&self, game: &Game) -> f64 {
        let mut k = game.komi();
        if self.options.dynamic_komi {
            k += dynamic_komi_extra(game);
        }
        k
    }

    fn run(
        &mut self,
        game: &Game,
        color: Color,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Snapshot),
    ) -> SearchResult {
        let komi = self.komi(game);
        let r = self
            .searcher
            .search(game, color, komi, limits, stop, report);
        self.last = Some((game.board().key(color), r.clone()));
        r
    }

    /// The result of the last search if it was of this position (with
    /// the side to move), else of a new search of `status_playouts`.
    fn status_search(&mut self, game: &Game) -> &SearchResult {
        let color = game.to_move();
        let key = game.board().key(color);
        if !matches!(&self.last, Some((k, r)) if *k == key && r.book.is_none()) {
            let limits = Limits {
                playouts: Some(self.options.status_playouts),
                ..Limits::default()
            };
            self.run(game, color, &limits, &AtomicBool::new(false), &mut |_| {});
        }
        &self.last.as_ref().expect("a search just ran").1
    }
}

impl Player for MctsPlayer {
    fn name(&self) -> &'static str {
        "mcts"
    }

    fn new_game(&mut self) {
        self.searcher.clear();
        self.last = None;
    }

    fn weights(&self) -> Option<&Weights> {
        Some(self.searcher.weights())
    }

    fn genmove(&mut self, req: &mut GenmoveRequest<'_>) -> Genmove {
        let game = req.game;
        let color = req.color;
        let board = game.board();
        let limits = match self.options.playouts {
            Some(n) => Limits {
                playouts: Some(n),
                time: None,
                early_stop: false,
                extend_to: None,
                report_every: req.report_every.or(Some(Duration::from_secs(1))),
            },
            None => {
                let (empty, points) = (board.num_empty(), board.points().len());
                let budget = move_budget(req.clock, color, empty, points);
                let secs = budget.unwrap_or(self.options.default_move_secs);
                // Only a clock is stretched: `--move-secs` is a fixed time.
                let factor = self.searcher.weights().time_extend[0];
                let extend_to = budget
                    .and_then(|b| move_budget_max(req.clock, color, empty, points, b, factor))
                    .filter(|&m| m > secs)
                    .map(Duration::from_secs_f64);
                Limits {
                    playouts: None,
                    time: Some(Duration::from_secs_f64(secs)),
                    early_stop: true,
                    extend_to,
                    report_every: req.report_every.or(Some(Duration::from_secs(1))),
                }
            }
        };
        if !req.cleanup
            && let Some(r) = self.book_move(game, color, &limits)
        {
            let mv = r.best;
            self.last = Some((board.key(color), r));
            return Genmove::Move(mv);
        }
        let stop = AtomicBool::new(false);
        let report = &mut req.report;
        let r = self.run(game, color, &limits, &stop, &mut |s| report(s));
        if limits.playouts.is_none() && r.snapshot.elapsed >= Duration::from_millis(50) {
            self.rate = Some(r.snapshot.playouts_per_second());
        }
        let snapshot = &r.snapshot;
        // Resign weights are not staged.
        let w = self.searcher.weights();
        let (resign_threshold, resign_min_visits) = (w.resign_threshold[0], w.resign_min_visits[0]);

        // Tromp-Taylor score of the board as it stands, for `color`.
        let tt = game.area_score();
        let tt_wins = match color {
            Color::Black => tt > 0.0,
            Color::White => tt < 0.0,
        };
        let opponent_passed = matches!(game.last_move(), Some((c, Move::Pass)) if c != color);

        let mut choice = Genmove::Move(r.best);
        if !req.cleanup
            && resign_allowed(game, color)
            && r.winrate < resign_threshold
            && snapshot.root_visits as f64 >= resign_min_visits
        {
            choice = Genmove::Resign;
        } else if r.best == Move::Pass || (opponent_passed && tt_wins && r.winrate > 0.5) {
            // Pass only when passing does not lose: under area rules the
            // game may be scored as it stands after two passes.
            let dead_left = req.cleanup && self.dead_opponent_stones(game, color);
            if tt_wins && !dead_left {
                choice = Genmove::Move(Move::Pass);
            } else if let Some(c) = snapshot
                .candidates
                .iter()
                .filter(|c| c.mv != Move::Pass)
                .max_by(|a, b| {
                    (a.visits.min(50), a.winrate)
                        .partial_cmp(&(b.visits.min(50), b.winrate))
                        .unwrap_or(std::cmp::Ordering::Equal)
                })
            {
                choice = Genmove::Move(c.mv);
            } else {
                choice = Genmove::Move(Move::Pass);
            }
        }
        choice
    }

    fn analyze(
        &mut self,
        game: &Game,
        color: Color,
        stop: &AtomicBool,
        every: Duration,
        report: &mut dyn FnMut(&Snapshot),
    ) {
        let limits = Limits {
            report_every: Some(every),
            ..Limits::default()
        };
        self.run(game, color, &limits, stop, report);
    }

    fn ownership(&mut self, game: &Game) -> Option<Vec<f32>> {
        self.status_search(game);
        self.searcher
            .ownership(game.board().key(game.to_move()))
            .map(|o| o.to_vec())
    }

    fn snapshot(&mut self, game: &Game) -> Option<Snapshot> {
        Some(self.status_search(game).snapshot.clone())
    }

    fn clear_tree(&mut self) {
        self.searcher.clear();
        self.last = None;
    }

    fn marked_pv(&mut self, game: &Game) -> Option<Vec<(Move, Mark)>> {
        Some(self.status_search(game).marked_pv.clone())
    }

    fn last_search(&self) -> Option<&SearchResult> {
        self.last.as_ref().map(|(_, r)| r)
    }

    fn has_table(&self) -> bool {
        self.searcher.table().is_some()
    }
}

impl MctsPlayer {
    /// True if the last search's ownership says some opponent stone is dead.
    fn dead_opponent_stones(&mut self, game: &Game, color: Color) -> bool {
        let board = game.board();
        let key = board.key(color);
        let Some(own) = self.searcher.ownership(key) else {
            return false;
        };
        let opp = color.opponent();
        board.points().iter().zip(own).any(|(&p, &o)| {
            board.cell(p).color() == Some(opp)
                && match opp {
                    Color::Black => o < -0.5,
                    Color::White => o > 0.5,
                }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn handicap_giver_does_not_resign_in_the_opening() {
        let mut g = Game::new(9, 0.5, Rules::default()).unwrap();
        assert!(resign_allowed(&g, Color::White), "an even game");
        g.fixed_handicap(5).unwrap();
        assert!(
            !resign_allowed(&g, Color::White),
            "move 0 of a handicap game"
        );
        assert!(
            resign_allowed(&g, Color::Black),
            "the side given the stones"
        );
        // 81 / 3 = 27 moves: passes count as moves.
        for i in 0..27 {
            assert!(!resign_allowed(&g, Color::White), "move {i}");
            let c = if i % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            g.play(c, Move::Pass).unwrap();
        }
        assert!(resign_allowed(&g, Color::White), "move 27");
    }
}

#[cfg(test)]
mod book_tests {
    use super::*;
    use crate::engine::Clock;
    use crate::rules::{Coord, Rules};
    use crate::table::{self, Entry};

    fn player(ratio: f64, playouts: Option<u64>, t: &Arc<Table>) -> MctsPlayer {
        let w = Weights {
            book_move_ratio: [ratio; 3],
            ..Weights::default()
        };
        let options = PlayOptions {
            playouts,
            default_move_secs: 0.01,
            ..PlayOptions::default()
        };
        MctsPlayer::new(SearchConfig::default(), w, options, Some(t.clone()), None)
    }

    fn genmove(p: &mut MctsPlayer, g: &Game, cleanup: bool) -> Move {
        let clock = Clock::default();
        let mut req = GenmoveRequest {
            game: g,
            color: g.to_move(),
            clock: &clock,
            cleanup,
            report_every: None,
            report: &mut |_| {},
        };
        match p.genmove(&mut req) {
            Genmove::Move(m) => m,
            Genmove::Resign => panic!("resigned"),
        }
    }

    /// Stores `mv` as the best move of `g`'s position, with `visits`, at
    /// distance `depth` from a search root.
    fn store(t: &Table, g: &Game, mv: Move, visits: u64, depth: u32) {
        let b = g.board();
        let Move::Play(c) = mv else { panic!() };
        let key = table::key(b, g.to_move(), g.komi(), g.rules());
        t.store(Entry::new(key, b.point(c).0, visits, depth), 2.0);
    }

    #[test]
    fn a_deep_root_entry_is_played_without_a_search() {
        let (_dir, t) = crate::search::tests::scratch_table("book");
        let g = Game::new(9, 7.0, Rules::default()).unwrap();
        // A first move no search of 1,000 playouts plays.
        let a1 = Move::Play(Coord::new(0, 0));
        store(&t, &g, a1, 4096, 0);
        // 4,096 visits against 2 x 1,000 playouts: played, no search.
        let mut p = player(2.0, Some(1000), &t);
        assert_eq!(genmove(&mut p, &g, false), a1);
        let r = p.last_search().unwrap();
        let book = r
            .book
            .map(|b| (b.entry.quality, b.entry.depth, b.instead_of));
        assert_eq!(book, Some((24, 0, 1000)));
        assert_eq!(r.snapshot.playouts, 0);
        // A timed move compares with the guessed rate: 0.01 s x 25,000/s.
        let mut p = player(2.0, None, &t);
        assert_eq!(genmove(&mut p, &g, false), a1);
        let r = p.last_search().unwrap();
        assert_eq!(r.book.map(|b| b.instead_of), Some(250));
        // Cleanup always searches.
        let mut p = player(2.0, Some(1000), &t);
        assert_ne!(genmove(&mut p, &g, true), a1);
        // Too few visits for the ratio (4,096 < 5 x 1,000), or the ratio
        // off (the default): a search of 1,000 playouts.
        for ratio in [5.0, 0.0] {
            let mut p = player(ratio, Some(1000), &t);
            assert_ne!(genmove(&mut p, &g, false), a1, "ratio {ratio}");
            let r = p.last_search().unwrap();
            assert_eq!((r.book, r.snapshot.playouts), (None, 1000));
        }
    }

    #[test]
    fn only_a_legal_move_stored_by_a_root_search_is_a_book_move() {
        let (_dir, t) = crate::search::tests::scratch_table("book-legal");
        let mut g = Game::new(9, 7.0, Rules::default()).unwrap();
        let a1 = Move::Play(Coord::new(0, 0));
        // Stored below a search root (distance 1): not a book move.
        store(&t, &g, a1, 1 << 20, 1);
        let mut p = player(2.0, Some(500), &t);
        assert_ne!(genmove(&mut p, &g, false), a1);
        assert_eq!(p.last_search().unwrap().book, None);
        // An occupied point (a stale or colliding entry) is never played.
        let d4 = Move::Play(Coord::new(3, 3));
        g.play(Color::Black, d4).unwrap();
        store(&t, &g, d4, 1 << 20, 0);
        let mut p = player(2.0, Some(500), &t);
        let m = genmove(&mut p, &g, false);
        assert!(m != d4 && g.is_legal(Color::White, m));
        assert_eq!(p.last_search().unwrap().book, None);
    }
}
