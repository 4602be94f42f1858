//! Monte-Carlo tree search: UCT with RAVE, priors, heavy playouts, one tree
//! shared by all threads with virtual loss, a memory cap and tree reuse.
//!
//! The search knows the lean board and the weights; it knows nothing of
//! GTP, clocks or output formats. The caller gives limits (playouts, time,
//! a stop flag) and gets snapshots and a result with typed moves.

pub mod priors;
pub mod tree;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::*};
use std::time::{Duration, Instant};

use rand::{SeedableRng, rngs::SmallRng};

use crate::playout::heavy::{Policy, heavy_playout};
use crate::rules::{Board, Cell, Color, Game, Move, Point};
use crate::weights::{Resolved, Weights, phase};
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
    /// How often the report callback is called.
    pub report_every: Option<Duration>,
}

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
    /// Candidates by decreasing visits, at most [`MAX_CANDIDATES`].
    pub candidates: Vec<Candidate>,
    pub tree_nodes: usize,
    pub tree_full: bool,
}

impl Snapshot {
    pub fn playouts_per_second(&self) -> f64 {
        self.playouts as f64 / self.elapsed.as_secs_f64().max(1e-6)
    }

    pub fn best(&self) -> Option<&Candidate> {
        self.candidates.first()
    }
}

/// Candidates a snapshot lists (most visited first).
pub const MAX_CANDIDATES: usize = 24;

/// Weights the hot loop reads, as f32.
#[derive(Clone, Copy, Debug)]
struct Params {
    uct_c: f32,
    hand_rave: bool,
    equiv: f32,
    fpu: f32,
    expand_visits: u32,
    vl: u32,
}

impl Params {
    fn new(w: &Resolved) -> Params {
        Params {
            uct_c: w.uct_c as f32,
            hand_rave: w.rave_schedule >= 0.5,
            equiv: w.rave_equiv as f32,
            fpu: w.fpu as f32,
            expand_visits: w.expand_visits as u32,
            vl: w.virtual_loss as u32,
        }
    }
}

/// Per-thread scratch state.
struct Worker {
    board: Board,
    rng: SmallRng,
    path: Vec<u32>,
    moves: Vec<(Point, Color)>,
    amaf: Vec<u32>,
    generation: u32,
    /// Sum over playouts of +1 (Black) / -1 (White) per point.
    own: Vec<i32>,
    own_n: u32,
    cands: Vec<(u16, priors::Prior)>,
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
    root_last: Option<Point>,
    komi: f64,
    /// Root children that the full rules (superko) forbid, by point slot.
    banned: Vec<bool>,
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
}

/// What a search returns.
#[derive(Clone, Debug)]
pub struct SearchResult {
    pub snapshot: Snapshot,
    /// The most visited legal move (pass if nothing else).
    pub best: Move,
    /// Win rate of `best` for the side to move.
    pub winrate: f64,
}

impl Searcher {
    pub fn new(config: SearchConfig, weights: Weights) -> Searcher {
        let resolved = weights.resolve(phase(0.0));
        Searcher {
            arena: Arena::new(config.max_tree_bytes),
            root: 0,
            root_board: Board::new(9),
            root_color: Color::Black,
            root_key: None,
            root_passes: 0,
            root_last: None,
            komi: 0.0,
            banned: vec![false; 1024],
            params: Params::new(&resolved),
            policy: Policy::new(&resolved),
            resolved,
            playouts: AtomicU64::new(0),
            started: AtomicU64::new(0),
            stop_workers: AtomicBool::new(false),
            ownership: None,
            searches: 0,
            config,
            weights,
        }
    }

    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// Forgets the tree (new game).
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
    fn find_reuse(&self, board: &Board, color: Color, komi: f64) -> Option<u32> {
        let root_key = self.root_key?;
        if !self.config.reuse || komi != self.komi || board.size() != self.root_board.size() {
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
        let reuse = self.find_reuse(board, color, komi);
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
        self.root_passes = match game.last_move() {
            Some((_, Move::Pass)) => 1,
            _ => 0,
        };
        self.root_last = match game.last_move() {
            Some((_, Move::Play(c))) => Some(board.point(c)),
            _ => None,
        };
        let fill = 1.0 - board.num_empty() as f64 / board.points().len() as f64;
        self.resolved = self.weights.resolve(phase(fill));
        self.params = Params::new(&self.resolved);
        self.policy = Policy::new(&self.resolved);
        // Root legality under the full rules.
        self.banned.iter_mut().for_each(|b| *b = true);
        for c in game.legal_points(color) {
            self.banned[board.point(c).idx()] = false;
        }
        self.banned[PASS as usize] = false;
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
            moves: Vec::with_capacity(1024),
            amaf: vec![0; 1024],
            generation: 0,
            own: vec![0; self.root_board.points().len()],
            own_n: 0,
            cands: Vec::with_capacity(400),
        }
    }

    /// Runs a search for `color` in `game` with playout komi `komi`
    /// (Black's view; dynamic komi included by the caller). `report` is
    /// called every `limits.report_every` from the calling thread.
    pub fn search(
        &mut self,
        game: &Game,
        color: Color,
        komi: f64,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Snapshot),
    ) -> SearchResult {
        let start = Instant::now();
        self.set_root(game, color, komi);
        self.searches += 1;
        self.playouts.store(0, Relaxed);
        self.started.store(0, Relaxed);
        self.stop_workers.store(false, Relaxed);
        {
            // Expand the root at once, so that every thread starts below it.
            let mut cands = Vec::new();
            let root = self.arena.get(self.root);
            if root.state.load(Acquire) == LEAF {
                self.expand(
                    root,
                    &self.root_board,
                    color,
                    self.root_last,
                    &mut cands,
                    true,
                );
            }
        }
        let threads = self.config.threads.max(1);
        let mut workers: Vec<Worker> = (0..threads).map(|t| self.new_worker(t)).collect();
        let this = &*self;
        std::thread::scope(|s| {
            for w in workers.iter_mut() {
                s.spawn(move || this.work(w, limits.playouts));
            }
            let mut last_report = Instant::now();
            loop {
                std::thread::sleep(Duration::from_millis(2));
                let elapsed = start.elapsed();
                let done = this.playouts.load(Relaxed);
                let mut stop_now = stop.load(Relaxed)
                    || limits.playouts.is_some_and(|n| done >= n)
                    || limits.time.is_some_and(|t| elapsed >= t);
                if !stop_now
                    && limits.early_stop
                    && let Some(t) = limits.time
                    && elapsed > t / 10
                {
                    let rate = done as f64 / elapsed.as_secs_f64().max(1e-6);
                    let remaining = rate * (t - elapsed).as_secs_f64();
                    let (a, b) = this.top_two_visits();
                    stop_now = (a - b) as f64 > remaining;
                }
                if stop_now {
                    this.stop_workers.store(true, Relaxed);
                    break;
                }
                if let Some(every) = limits.report_every
                    && last_report.elapsed() >= every
                {
                    last_report = Instant::now();
                    report(&this.snapshot(start.elapsed()));
                }
            }
        });
        // Ownership of this search.
        let n = self.root_board.points().len();
        let mut sum = vec![0i64; n];
        let mut count = 0i64;
        for w in &workers {
            for (s, o) in sum.iter_mut().zip(&w.own) {
                *s += *o as i64;
            }
            count += w.own_n as i64;
        }
        if count > 0 {
            let own = sum
                .iter()
                .map(|&s| (s as f64 / count as f64) as f32)
                .collect();
            self.ownership = Some((self.root_board.key(color), own));
        }
        let snapshot = self.snapshot(start.elapsed());
        let (best, winrate) = match snapshot.best() {
            Some(c) => (c.mv, c.winrate),
            None => (Move::Pass, 0.5),
        };
        SearchResult {
            snapshot,
            best,
            winrate,
        }
    }

    fn top_two_visits(&self) -> (u32, u32) {
        let Some((first, n)) = self.arena.get(self.root).children() else {
            return (0, 0);
        };
        let (mut a, mut b) = (0, 0);
        for k in 0..n as u32 {
            let v = self.arena.get(first + k).visits.load(Relaxed);
            if v > a {
                b = a;
                a = v;
            } else if v > b {
                b = v;
            }
        }
        (a, b)
    }

    fn work(&self, w: &mut Worker, limit: Option<u64>) {
        while !self.stop_workers.load(Relaxed) {
            if let Some(max) = limit
                && self.started.fetch_add(1, Relaxed) >= max
            {
                break;
            }
            self.playout(w);
            self.playouts.fetch_add(1, Relaxed);
        }
    }

    #[inline]
    fn value(&self, c: &Node, ln_parent: f32) -> f32 {
        let p = &self.params;
        let visits = c.visits.load(Relaxed) as f32;
        let wins = c.wins.load(Relaxed) as f32 * 0.5;
        let pv = f32::from_bits(c.prior_visits.load(Relaxed));
        let pw = f32::from_bits(c.prior_wins.load(Relaxed));
        let an = c.amaf_visits.load(Relaxed) as f32;
        let aw = c.amaf_wins.load(Relaxed) as f32 * 0.5;
        let n = visits + pv;
        let mut v = if n <= 0.0 && an <= 0.0 {
            p.fpu
        } else if an <= 0.0 {
            (wins + pw) / n
        } else if n <= 0.0 {
            aw / an
        } else {
            let beta = if p.hand_rave {
                (p.equiv / (3.0 * n + p.equiv)).sqrt()
            } else {
                an / (n + an + n * an / p.equiv)
            };
            (1.0 - beta) * (wins + pw) / n + beta * aw / an
        };
        if p.uct_c > 0.0 {
            v += p.uct_c * (ln_parent / (visits + 1.0)).sqrt();
        }
        v
    }

    fn select(&self, parent: &Node, first: u32, n: usize, at_root: bool) -> u32 {
        let ln = ((parent.visits.load(Relaxed) + 1) as f32).ln();
        let mut best = first;
        let mut best_v = f32::NEG_INFINITY;
        for k in 0..n as u32 {
            let c = self.arena.get(first + k);
            if at_root && self.banned[c.mv.load(Relaxed) as usize] {
                continue;
            }
            let v = self.value(c, ln);
            if v > best_v {
                best_v = v;
                best = first + k;
            }
        }
        best
    }

    /// Expands `node` (position `board`, `color` to move), if no other
    /// thread does and the arena has room.
    fn expand(
        &self,
        node: &Node,
        board: &Board,
        color: Color,
        last: Option<Point>,
        cands: &mut Vec<(u16, priors::Prior)>,
        at_root: bool,
    ) {
        if self.arena.is_full()
            || node
                .state
                .compare_exchange(LEAF, EXPANDING, Acquire, Relaxed)
                .is_err()
        {
            return;
        }
        cands.clear();
        for &p in board.points() {
            if board.cell(p) == Cell::Empty
                && board.is_legal(p, color)
                && !board.is_true_eye(p, color)
                && !(at_root && self.banned[p.idx()])
            {
                cands.push((p.0, priors::prior(board, color, p, last, &self.resolved)));
            }
        }
        cands.push((PASS, priors::pass_prior(&self.resolved)));
        let Some(first) = self.arena.alloc(cands.len()) else {
            node.state.store(LEAF, Release);
            return;
        };
        for (k, (mv, pr)) in cands.iter().enumerate() {
            self.arena
                .get(first + k as u32)
                .reset(*mv, pr.visits, pr.wins);
        }
        node.first_child.store(first, Relaxed);
        node.num_children.store(cands.len() as u16, Relaxed);
        node.state.store(EXPANDED, Release);
    }

    /// One descent, playout and backup.
    fn playout(&self, w: &mut Worker) {
        let p = self.params;
        w.board.copy_from(&self.root_board);
        w.path.clear();
        w.moves.clear();
        let mut color = self.root_color;
        let mut passes = self.root_passes;
        let mut last = self.root_last;
        let mut ix = self.root;
        let mut terminal = false;
        loop {
            let node = self.arena.get(ix);
            w.path.push(ix);
            node.visits.fetch_add(p.vl, Relaxed);
            if passes >= 2 {
                terminal = true;
                break;
            }
            match node.children() {
                Some((first, n)) => {
                    let child = self.select(node, first, n, w.path.len() == 1);
                    let mv = self.arena.get(child).mv.load(Relaxed);
                    if mv == PASS {
                        w.board.pass();
                        passes += 1;
                        last = None;
                    } else {
                        let pt = Point(mv);
                        debug_assert!(w.board.is_legal(pt, color));
                        w.board.play_unchecked(pt, color);
                        w.moves.push((pt, color));
                        passes = 0;
                        last = Some(pt);
                    }
                    color = color.opponent();
                    ix = child;
                }
                None => {
                    if node.visits.load(Relaxed) >= p.expand_visits + p.vl
                        && node.state.load(Relaxed) == LEAF
                    {
                        self.expand(node, &w.board, color, last, &mut w.cands, false);
                    }
                    break;
                }
            }
        }
        let tree_moves = w.moves.len();
        if !terminal {
            heavy_playout(
                &mut w.board,
                color,
                last,
                &self.policy,
                &mut w.rng,
                &mut w.moves,
            );
        }
        // Score and ownership.
        let score = if terminal {
            let (b, wh) = w.board.area();
            b as f64 - wh as f64
        } else {
            let mut s = 0i32;
            for (o, &pt) in w.own.iter_mut().zip(w.board.points()) {
                match w.board.fast_owner(pt) {
                    Some(Color::Black) => {
                        s += 1;
                        *o += 1;
                    }
                    Some(Color::White) => {
                        s -= 1;
                        *o -= 1;
                    }
                    None => {}
                }
            }
            w.own_n += 1;
            s as f64
        } - self.komi;
        let black_half = if score > 0.0 {
            2
        } else if score < 0.0 {
            0
        } else {
            1
        };
        let half = |c: Color| match c {
            Color::Black => black_half,
            Color::White => 2 - black_half,
        };
        // AMAF map: first mover at each point from each depth on.
        w.generation = w.generation.wrapping_add(1);
        if w.generation >= (1 << 30) {
            w.generation = 1;
            w.amaf.iter_mut().for_each(|x| *x = 0);
        }
        let stamp = |g: u32, c: Color| (g << 1) | c.index() as u32;
        for &(pt, c) in w.moves[tree_moves..].iter().rev() {
            w.amaf[pt.idx()] = stamp(w.generation, c);
        }
        // Backup from the deepest node. The mover into path[i] is the root
        // colour for odd i.
        for i in (0..w.path.len()).rev() {
            let node = self.arena.get(w.path[i]);
            let mover = if i % 2 == 1 {
                self.root_color
            } else {
                self.root_color.opponent()
            };
            node.visits.fetch_add(1, Relaxed);
            if p.vl > 0 {
                node.visits.fetch_sub(p.vl, Relaxed);
            }
            node.wins.fetch_add(half(mover), Relaxed);
            // AMAF for the children of path[i]: the side to move there is
            // the opponent of the mover.
            let to_move = mover.opponent();
            if let Some((first, n)) = node.children() {
                let want = stamp(w.generation, to_move);
                let h = half(to_move);
                for k in 0..n as u32 {
                    let c = self.arena.get(first + k);
                    let mv = c.mv.load(Relaxed);
                    if mv != PASS && w.amaf[mv as usize & 1023] == want {
                        c.amaf_visits.fetch_add(1, Relaxed);
                        c.amaf_wins.fetch_add(h, Relaxed);
                    }
                }
            }
            let mv = node.mv.load(Relaxed);
            if i > 0 && mv != PASS {
                w.amaf[mv as usize & 1023] = stamp(w.generation, mover);
            }
        }
    }

    fn to_move(&self, mv: u16) -> Move {
        if mv == PASS {
            Move::Pass
        } else {
            Move::Play(self.root_board.coord(Point(mv)))
        }
    }

    /// The principal variation from `ix` (included): most visited
    /// children while they have visits.
    fn pv(&self, mut ix: u32, max_len: usize) -> Vec<Move> {
        let mut out = vec![self.to_move(self.arena.get(ix).mv.load(Relaxed))];
        while out.len() < max_len {
            let Some((first, n)) = self.arena.get(ix).children() else {
                break;
            };
            let mut best = None;
            let mut best_v = 0;
            for k in 0..n as u32 {
                let v = self.arena.get(first + k).visits.load(Relaxed);
                if v > best_v {
                    best_v = v;
                    best = Some(first + k);
                }
            }
            match best {
                Some(b) if best_v >= 2 => {
                    ix = b;
                    out.push(self.to_move(self.arena.get(b).mv.load(Relaxed)));
                }
                _ => break,
            }
        }
        out
    }

    /// The current state of the root.
    pub fn snapshot(&self, elapsed: Duration) -> Snapshot {
        let root = self.arena.get(self.root);
        let mut candidates = Vec::new();
        if let Some((first, n)) = root.children() {
            for k in 0..n as u32 {
                let c = self.arena.get(first + k);
                let mv = c.mv.load(Relaxed);
                if self.banned[mv as usize] {
                    continue;
                }
                let s: Stats = c.stats();
                if s.visits == 0 {
                    continue;
                }
                candidates.push((first + k, s));
            }
        }
        candidates.sort_by(|a, b| {
            b.1.visits
                .cmp(&a.1.visits)
                .then(b.1.winrate().total_cmp(&a.1.winrate()))
        });
        // Snapshots are taken while the threads search (every report
        // interval): principal variations only for the leading moves.
        candidates.truncate(MAX_CANDIDATES);
        let candidates = candidates
            .into_iter()
            .map(|(ix, s)| Candidate {
                mv: self.to_move(self.arena.get(ix).mv.load(Relaxed)),
                visits: s.visits,
                winrate: s.winrate(),
                prior: s.prior_rate(),
                pv: self.pv(ix, 12),
            })
            .collect();
        Snapshot {
            color: Some(self.root_color),
            playouts: self.playouts.load(Relaxed),
            root_visits: root.visits.load(Relaxed),
            elapsed,
            candidates,
            tree_nodes: self.arena.used(),
            tree_full: self.arena.is_full(),
        }
    }

    /// Nodes of the tree (for the bench signature).
    pub fn tree_nodes(&self) -> usize {
        self.arena.used()
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
mod tests {
    use super::*;
    use crate::rules::Rules;

    fn game(size: usize) -> Game {
        Game::new(size, 7.0, Rules::default()).unwrap()
    }

    fn run(s: &mut Searcher, g: &Game, playouts: u64) -> SearchResult {
        let stop = AtomicBool::new(false);
        s.search(
            g,
            g.to_move(),
            g.komi(),
            &Limits {
                playouts: Some(playouts),
                ..Limits::default()
            },
            &stop,
            &mut |_| {},
        )
    }

    #[test]
    fn one_thread_is_deterministic() {
        let g = game(9);
        let mut a = Searcher::new(
            SearchConfig {
                seed: 5,
                ..SearchConfig::default()
            },
            Weights::default(),
        );
        let mut b = Searcher::new(
            SearchConfig {
                seed: 5,
                ..SearchConfig::default()
            },
            Weights::default(),
        );
        let ra = run(&mut a, &g, 2000);
        let rb = run(&mut b, &g, 2000);
        assert_eq!(ra.snapshot.candidates, rb.snapshot.candidates);
        assert_eq!(a.tree_nodes(), b.tree_nodes());
        assert_eq!(ra.snapshot.playouts, 2000);
    }

    #[test]
    fn reuses_the_tree_after_two_moves() {
        let mut g = game(9);
        let mut s = Searcher::new(SearchConfig::default(), Weights::default());
        let r = run(&mut s, &g, 3000);
        g.play(Color::Black, r.best).unwrap();
        let reply = r.snapshot.best().unwrap().pv.get(1).copied();
        let reply = reply.unwrap_or(Move::Pass);
        g.play(Color::White, reply).unwrap();
        let reused = s.find_reuse(g.board(), Color::Black, g.komi());
        assert!(reused.is_some(), "the grandchild is in the tree");
        let before = s.arena.get(reused.unwrap()).visits.load(Relaxed);
        let r2 = run(&mut s, &g, 100);
        assert!(r2.snapshot.root_visits as u64 >= before as u64 + 100);
    }

    #[test]
    fn a_full_arena_stops_growing_gracefully() {
        let g = game(19);
        let mut s = Searcher::new(
            SearchConfig {
                max_tree_bytes: 1, // one chunk
                ..SearchConfig::default()
            },
            Weights::default(),
        );
        let r = run(&mut s, &g, 3000);
        assert!(r.snapshot.tree_full);
        assert_eq!(r.snapshot.playouts, 3000);
        assert!(g.is_legal(Color::Black, r.best));
    }
}
