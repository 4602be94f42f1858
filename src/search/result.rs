//! What a search shows and returns: the root's candidates, snapshots,
//! the table marks of the principal variation and the iterations.

use std::time::Duration;

use crate::rules::{Color, Move};

/// One candidate move at the root.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub mv: Move,
    pub visits: u32,
    /// Win rate for the side to move at the root.
    pub winrate: f64,
    pub prior: f64,
    /// Principal variation starting with `mv`.
    pub pv: Vec<Move>,
}

/// The state of a search at one moment.
#[derive(Clone, Debug, Default)]
pub struct Snapshot {
    pub color: Option<Color>,
    /// Playouts of this search.
    pub playouts: u64,
    /// Visits of the root (reused ones included).
    pub root_visits: u32,
    pub elapsed: Duration,
    /// Candidates by decreasing visits, at most [`MAX_CANDIDATES`](super::MAX_CANDIDATES).
    pub candidates: Vec<Candidate>,
    pub tree_nodes: usize,
    pub tree_full: bool,
    /// The search's playouts (earlier iterations included) when the
    /// current tree was first seen full.
    pub tree_full_after: Option<u64>,
}

impl Snapshot {
    pub fn playouts_per_second(&self) -> f64 {
        self.playouts as f64 / self.elapsed.as_secs_f64().max(1e-6)
    }

    pub fn best(&self) -> Option<&Candidate> {
        self.candidates.first()
    }
}

/// How a move of the principal variation relates to the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// Not in the table.
    None,
    /// `>`: the table's move, and still the best.
    Confirmed,
    /// `!`: a move better than the table's was found.
    Better,
    /// `-`: the table's move has the higher win rate but fewer visits than
    /// this move, so it may still be better.
    Doubtful,
}

impl Mark {
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::None => "",
            Mark::Confirmed => ">",
            Mark::Better => "!",
            Mark::Doubtful => "-",
        }
    }
}

/// One finished iteration of iterative deepening.
#[derive(Clone, Debug, PartialEq)]
pub struct Iteration {
    pub number: u32,
    /// Most visited root move, its win rate and visits.
    pub best: Move,
    pub winrate: f64,
    pub visits: u32,
    /// Expanded nodes whose position the table held / did not hold.
    pub hits: u64,
    pub misses: u64,
    pub playouts: u64,
    /// Playouts of all iterations so far.
    pub cumulative: u64,
    /// Whether the tree was dropped after it for a new iteration.
    pub restarted: bool,
}

impl std::fmt::Display for Iteration {
    /// `..7.. <E6/456/671038> Hits: 49457 1375474/2734817 Misses: 606451`:
    /// iteration, best move / win rate in per mille / visits, table hits,
    /// playouts of the iteration / cumulative, misses.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "..{}.. <{}/{:.0}/{}> Hits: {} {}/{} Misses: {}",
            self.number,
            self.best,
            self.winrate * 1000.0,
            self.visits,
            self.hits,
            self.playouts,
            self.cumulative,
            self.misses
        )
    }
}

/// What a search returns.
#[derive(Clone, Debug)]
pub struct SearchResult {
    pub snapshot: Snapshot,
    /// The most visited legal move (pass if nothing else).
    pub best: Move,
    /// Win rate of `best` for the side to move.
    pub winrate: f64,
    /// Principal variation of `best`, each move marked against the table
    /// as it was before this search's last store.
    pub marked_pv: Vec<(Move, Mark)>,
    /// Iterations (one when iterative deepening is off).
    pub iterations: Vec<Iteration>,
    /// Set when the move came from the table without a search (weight
    /// `book_move_ratio`); the snapshot is then empty.
    pub book: Option<BookPlay>,
}

/// A move played from the table without a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookPlay {
    /// The table's entry that chose the move.
    pub entry: crate::table::Entry,
    /// The playouts this move's search would have made, as estimated.
    pub instead_of: u64,
}
