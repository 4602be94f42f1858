//! Monte-Carlo tree search: UCT with RAVE, priors, heavy playouts, one tree
//! shared by all threads with virtual loss, a memory cap and tree reuse.
//!
//! The search knows the lean board and the weights; it knows nothing of
//! GTP, clocks or output formats. The caller gives limits (playouts, time,
//! a stop flag) and gets snapshots and a result with typed moves.

mod descend;
mod iterate;
pub mod priors;
mod report;
mod result;
mod store;
pub mod tree;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::*};
use std::time::{Duration, Instant};

use rand::{SeedableRng, rngs::SmallRng};

use crate::learned::{Model, features};
use crate::playout::heavy::{Policy, heavy_playout};
use crate::rules::board::SLOTS;
use crate::rules::game::superko_key;
use crate::rules::{Board, Cell, Color, Game, KoRule, Move, Point};
use crate::table::{self, Counts, Entry, Table};
use crate::tactics::MoveTactics;
use crate::weights::{Resolved, Weights, phase};
pub use result::{BookPlay, Candidate, Iteration, Mark, SearchResult, Snapshot};
use tree::{Arena, EXPANDED, EXPANDING, LEAF, Node, PASS, Stats};

/// Fixed settings of a searcher.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    pub threads: usize,
    /// Memory cap of the tree in bytes.
    pub max_tree_bytes: usize,
    pub seed: u64,
    /// Keep the relevant subtree between searches.
    pub reuse: bool,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            threads: 1,
            max_tree_bytes: 512 << 20,
            seed: 0,
            reuse: true,
        }
    }
}

/// When a search stops. The first limit reached wins; with none, the
/// search runs until the stop flag is set.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Playouts in this search (not counting reused ones).
    pub playouts: Option<u64>,
    pub time: Option<Duration>,
    /// Stop when the most visited move can no longer be overtaken in the
    /// time left (time limit only).
    pub early_stop: bool,
    /// Think past `time`, up to this, while the choice at the root is
    /// unsettled: a move with at least half the visits of the most visited
    /// one has a better win rate (time limit only).
    pub extend_to: Option<Duration>,
    /// How often the report callback is called.
    pub report_every: Option<Duration>,
}

/// The virtual playouts of the learned prior on a board of `size`:
/// `prior_learned_9` up to 9x9, `prior_learned_19` from 19x19, linear in
/// between.
pub fn learned_prior(w: &Resolved, size: usize) -> f64 {
    let t = ((size as f64 - 9.0) / 10.0).clamp(0.0, 1.0);
    w.prior_learned_9 * (1.0 - t) + w.prior_learned_19 * t
}

/// Receives each finished iteration.
pub type IterationLog = Box<dyn FnMut(&Iteration) + Send + Sync>;

/// The stored quality at which the table's best move gets exactly
/// `table_prior` virtual wins (20: about 1,000 visits, 2 x log2); better
/// entries get more, worse ones less.
pub const TABLE_PRIOR_QUALITY: f32 = 20.0;

/// Moves of a candidate's principal variation in a snapshot (GoGui and
/// lz-analyze show a few moves; longer lines cost time while searching).
pub const PV_LENGTH: usize = 12;

/// Candidates a snapshot lists (most visited first).
pub const MAX_CANDIDATES: usize = 24;

/// Iterative deepening (the `id_mode` weight: 0, 1, 2, 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdMode {
    /// One iteration per search.
    Off,
    /// A new iteration when expansions mostly miss the table.
    OnMisses,
    /// A new iteration at every doubling of the budget.
    Doubling,
    /// One tree until it reaches its memory cap; then a new iteration
    /// from the tree's most visited part, the table guiding the rest.
    OnFull,
}

impl IdMode {
    /// The mode a weight value names (rounded; values are checked against
    /// the weight's range when the file is read).
    pub fn from_weight(v: f64) -> IdMode {
        match v.round() as i64 {
            i64::MIN..=0 => IdMode::Off,
            1 => IdMode::OnMisses,
            2 => IdMode::Doubling,
            _ => IdMode::OnFull,
        }
    }
}

/// How RAVE's weight falls with visits (the `rave_schedule` weight: 0, 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RaveSchedule {
    /// Gelly and Silver's minimum-MSE schedule with an equivalence parameter.
    MinimumMse,
    /// The hand-selected schedule sqrt(k / (3n + k)).
    HandSelected,
}

impl RaveSchedule {
    pub fn from_weight(v: f64) -> RaveSchedule {
        if v >= 0.5 {
            RaveSchedule::HandSelected
        } else {
            RaveSchedule::MinimumMse
        }
    }
}

/// Weights the hot loop reads, as f32.
#[derive(Clone, Copy, Debug)]
struct Params {
    uct_c: f32,
    rave: RaveSchedule,
    equiv: f32,
    fpu: f32,
    expand_visits: u32,
    vl: u32,
    id_mode: IdMode,
    id_first: f64,
    id_growth: f64,
    id_miss_share: f64,
    id_window: u64,
    id_full_room: f64,
    id_full_keep: f64,
    table_prior: f32,
}

impl Params {
    fn new(w: &Resolved) -> Params {
        Params {
            uct_c: w.uct_c as f32,
            rave: RaveSchedule::from_weight(w.rave_schedule),
            equiv: w.rave_equiv as f32,
            fpu: w.fpu as f32,
            expand_visits: w.expand_visits as u32,
            vl: w.virtual_loss as u32,
            id_mode: IdMode::from_weight(w.id_mode),
            id_first: w.id_first_playouts,
            id_growth: w.id_growth,
            id_miss_share: w.id_miss_share,
            id_window: w.id_window as u64,
            id_full_room: w.id_full_room,
            id_full_keep: w.id_full_keep,
            table_prior: w.table_prior as f32,
        }
    }
}

/// Per-thread scratch state.
struct Worker {
    board: Board,
    rng: SmallRng,
    path: Vec<u32>,
    /// Superko keys of the positions of this descent below the root.
    keys: Vec<u64>,
    moves: Vec<(Point, Color)>,
    amaf: Vec<u32>,
    generation: u32,
    /// Sum over playouts of +1 (Black) / -1 (White) per point.
    own: Vec<i32>,
    own_n: u32,
    scratch: Scratch,
}

/// Scratch space of an expansion: the candidates with their priors and,
/// with a learned model, their strengths.
#[derive(Default)]
struct Scratch {
    cands: Vec<(u16, priors::Prior)>,
    strength: Vec<f32>,
}

/// A searcher: the tree and everything needed to grow it.
pub struct Searcher {
    config: SearchConfig,
    weights: Weights,
    arena: Arena,
    root: u32,
    /// Position at the root, and whether the tree is valid for it.
    root_board: Board,
    root_color: Color,
    root_key: Option<u64>,
    root_passes: u32,
    /// At least half the board's points have been played in the game at
    /// the root: nodes get a pass child from then on.
    late_game: bool,
    root_last: Option<Point>,
    /// The move before `root_last` (`None` if a pass or none).
    root_last2: Option<Point>,
    komi: f64,
    /// The game's own komi at the root: `komi` differs from it under
    /// dynamic komi. The tree is reused while it stays the same, and the
    /// table, keyed by it, takes no stores while the two differ.
    game_komi: f64,
    /// Learned move patterns for the priors (`None`: off).
    model: Option<Arc<Model>>,
    /// Virtual playouts of the learned prior at this board size.
    learned_prior: f32,
    /// Root children not to play, by point slot: those the full rules
    /// (superko) forbid, and extensions into a working ladder.
    banned: Vec<bool>,
    /// Superko below the root: the game's ko rule and the superko keys of
    /// every position of the game up to the root. A tree move that
    /// repeats one of them, or a position earlier in its own descent,
    /// loses for its mover.
    ko_rule: KoRule,
    seen: ahash::AHashSet<u64>,
    params: Params,
    policy: Policy,
    resolved: Resolved,
    /// Playouts finished in this search.
    playouts: AtomicU64,
    /// Playouts started in this search (for the playout limit).
    started: AtomicU64,
    stop_workers: AtomicBool,
    /// Ownership from the last search: (position key, per point of
    /// `points()`, +1 Black .. -1 White).
    ownership: Option<(u64, Vec<f32>)>,
    searches: u64,
    /// The best-move table, and whether it applies to this search (its
    /// scope admits the game).
    table: Option<Arc<Table>>,
    table_on: bool,
    /// Komi-and-rules part of table keys for this game.
    class_key: u64,
    /// Table hits and misses of expansions in this iteration.
    hits: AtomicU64,
    misses: AtomicU64,
    /// The search's playouts (earlier iterations included) when this
    /// iteration's tree was first seen full (at least 1); 0 while it is
    /// not.
    full_at: AtomicU64,
    /// Playouts of earlier iterations of this search.
    playouts_before: u64,
    /// Called after each iteration when iterative deepening is on.
    iteration_log: Option<IterationLog>,
}

/// Why an iteration ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum IterationEnd {
    /// A search limit or the stop flag.
    Done,
    /// Iterative deepening: drop the tree and start a larger iteration.
    Restart,
}

impl Searcher {
    pub fn new(config: SearchConfig, weights: Weights) -> Searcher {
        crate::playout::patterns::init();
        let resolved = weights.resolve(phase(0.0));
        Searcher {
            arena: Arena::new(config.max_tree_bytes),
            root: 0,
            root_board: Board::new(9),
            root_color: Color::Black,
            root_key: None,
            root_passes: 0,
            late_game: false,
            root_last: None,
            root_last2: None,
            komi: 0.0,
            game_komi: 0.0,
            model: Some(crate::learned::builtin_arc()),
            learned_prior: 0.0,
            banned: vec![false; SLOTS],
            ko_rule: KoRule::Simple,
            seen: ahash::AHashSet::new(),
            params: Params::new(&resolved),
            policy: Policy::new(&resolved, None),
            resolved,
            playouts: AtomicU64::new(0),
            started: AtomicU64::new(0),
            stop_workers: AtomicBool::new(false),
            ownership: None,
            searches: 0,
            table: None,
            table_on: false,
            class_key: 0,
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
            full_at: AtomicU64::new(0),
            playouts_before: 0,
            iteration_log: None,
            config,
            weights,
        }
    }

    pub fn threads(&self) -> usize {
        self.config.threads
    }

    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// Uses the learned pattern model `model` (or none) for the priors from
    /// the next search on; a new searcher uses the built-in one.
    pub fn set_patterns(&mut self, model: Option<Arc<Model>>) {
        self.model = model;
    }

    /// Uses `table` (or none) from the next search on.
    pub fn set_table(&mut self, table: Option<Arc<Table>>) {
        self.table = table;
    }

    pub fn table(&self) -> Option<&Arc<Table>> {
        self.table.as_ref()
    }

    /// The table's entry for `color` to move in `game` when it was stored
    /// by a search of this very position (depth 0: a root, as `book build`
    /// and every move's search store it) and its move, not a pass, is
    /// legal under the game's full rules (superko included). `None`
    /// without a table or for a table pinned to another game.
    pub fn root_entry(&self, game: &Game, color: Color) -> Option<(Move, Entry)> {
        let t = self.table.as_ref()?;
        let board = game.board();
        if t.scope()
            .mismatch(board.size(), game.komi(), game.rules())
            .is_some()
        {
            return None;
        }
        let e = t.probe(table::key(board, color, game.komi(), game.rules()))?;
        if e.depth != 0 || e.mv == PASS || !table::playable(board, color, e.mv) {
            return None;
        }
        let mv = table::code_to_move(board, e.mv);
        game.is_legal(color, mv).then_some((mv, e))
    }

    /// Sets the callback that receives each finished iteration.
    pub fn set_iteration_log(&mut self, log: Option<IterationLog>) {
        self.iteration_log = log;
    }

    /// Forgets the tree (new game, or on request); the table stays.
    pub fn clear(&mut self) {
        self.root_key = None;
        self.ownership = None;
    }

    /// Ownership of the last search if it was of the position `key`:
    /// per point of `board.points()`, +1 Black to -1 White.
    pub fn ownership(&self, key: u64) -> Option<&[f32]> {
        match &self.ownership {
            Some((k, v)) if *k == key => Some(v),
            _ => None,
        }
    }

    /// Finds the node for the position `board` with `color` to move in the
    /// current tree: the root, a child or a grandchild.
    /// `game_komi` is the game's own komi: a dynamic komi that moves
    /// from one search to the next keeps the tree.
    fn find_reuse(&self, board: &Board, color: Color, game_komi: f64) -> Option<u32> {
        let root_key = self.root_key?;
        if !self.config.reuse
            || game_komi != self.game_komi
            || board.size() != self.root_board.size()
        {
            return None;
        }
        let target = board.key(color);
        if root_key == target && color == self.root_color {
            return Some(self.root);
        }
        let mut b1 = self.root_board.clone();
        let mut b2 = self.root_board.clone();
        let (first, n) = self.arena.get(self.root).children()?;
        for k in 0..n as u32 {
            let child = first + k;
            b1.copy_from(&self.root_board);
            play_node_move(&mut b1, self.arena.get(child), self.root_color);
            if color == self.root_color.opponent() && b1.key(color) == target {
                return Some(child);
            }
            if color != self.root_color {
                continue;
            }
            let Some((f2, n2)) = self.arena.get(child).children() else {
                continue;
            };
            for k2 in 0..n2 as u32 {
                b2.copy_from(&b1);
                play_node_move(&mut b2, self.arena.get(f2 + k2), color.opponent());
                if b2.key(color) == target {
                    return Some(f2 + k2);
                }
            }
        }
        None
    }

    /// Prepares the root for `color` to move in `game`.
    fn set_root(&mut self, game: &Game, color: Color, komi: f64) {
        let board = game.board();
        let reuse = self.find_reuse(board, color, game.komi());
        match reuse {
            Some(n) if n == self.root => {}
            Some(n) => {
                let mut fresh = Arena::new(self.config.max_tree_bytes);
                self.root = fresh.copy_subtree(&self.arena, n);
                self.arena = fresh;
            }
            None => {
                self.root = self.arena.new_root();
            }
        }
        self.root_board = board.clone();
        self.root_color = color;
        self.root_key = Some(board.key(color));
        self.komi = komi;
        self.game_komi = game.komi();
        self.root_passes = match game.last_move() {
            Some((_, Move::Pass)) => 1,
            _ => 0,
        };
        self.late_game = 2 * game.move_count() >= board.points().len();
        self.root_last = match game.last_move() {
            Some((_, Move::Play(c))) => Some(board.point(c)),
            _ => None,
        };
        let n = game.move_count();
        self.root_last2 = match game.moves().nth(n.wrapping_sub(2)) {
            Some((_, Move::Play(c))) => Some(board.point(c)),
            _ => None,
        };
        let fill = 1.0 - board.num_empty() as f64 / board.points().len() as f64;
        self.resolved = self.weights.resolve(phase(fill));
        self.params = Params::new(&self.resolved);
        self.learned_prior = learned_prior(&self.resolved, board.size()) as f32;
        self.policy = Policy::new(&self.resolved, self.model.as_deref());
        self.table_on = self.table.as_ref().is_some_and(|t| {
            t.scope()
                .mismatch(board.size(), game.komi(), game.rules())
                .is_none()
        });
        self.class_key = table::class_key(game.komi(), game.rules());
        // Root legality under the full rules.
        self.banned.iter_mut().for_each(|b| *b = true);
        for c in game.legal_points(color) {
            self.banned[board.point(c).idx()] = false;
        }
        self.banned[PASS as usize] = false;
        // Never run a working ladder: the extension of an own chain in
        // atari that a ladder then captures, capturing nothing, is not
        // played. Below the root it keeps its soft prior (the opponent may
        // run one), but at the root that prior was not enough: playouts
        // seldom finish a long ladder, so the extension looked like a save,
        // and tengen ran working ladders 90 times in 32 of 52 19x19
        // games against GNU Go (after 8a63d22 took the shape bonuses away).
        let mut lib = [Point(0); 1];
        let mut read = Vec::new();
        for &p in board.points() {
            if board.cell(p) == Cell::stone(color) && board.liberties(p) == 1 {
                board.chain_liberties(p, &mut lib);
                let l = lib[0];
                if !self.banned[l.idx()] && !read.contains(&l) {
                    read.push(l);
                    self.banned[l.idx()] =
                        priors::futile_escape(&MoveTactics::read(board, color, l));
                }
            }
        }
        self.ko_rule = game.rules().ko;
        self.seen.clear();
        self.seen.extend(game.superko_seen());
    }

    fn new_worker(&self, tid: usize) -> Worker {
        let seed = self
            .config
            .seed
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(self.searches.wrapping_mul(0xD1B5_4A32_D192_ED03))
            .wrapping_add(tid as u64);
        Worker {
            board: self.root_board.clone(),
            rng: SmallRng::seed_from_u64(seed),
            path: Vec::with_capacity(64),
            keys: Vec::with_capacity(64),
            moves: Vec::with_capacity(SLOTS),
            amaf: vec![0; SLOTS],
            generation: 0,
            own: vec![0; self.root_board.points().len()],
            own_n: 0,
            scratch: Scratch::default(),
        }
    }
}

fn play_node_move(board: &mut Board, node: &Node, color: Color) {
    let mv = node.mv.load(Relaxed);
    if mv == PASS {
        board.pass();
    } else {
        board.play_unchecked(Point(mv), color);
    }
}

#[cfg(test)]
pub(crate) mod tests;
