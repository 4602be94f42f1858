//! One playout: selection (UCT with RAVE and priors), expansion with the
//! priors and the table's bonus, the heavy playout and the backup.

use super::iterate::Deepening;
use super::*;
use crate::tactics::MoveTactics;
use rand::Rng;

impl Searcher {
    pub(super) fn work(&self, w: &mut Worker, limit: Option<u64>, id: Option<&Deepening>) {
        while !self.stop_workers.load(Relaxed) {
            if let Some(max) = limit
                && self.started.fetch_add(1, Relaxed) >= max
            {
                break;
            }
            self.playout(w);
            let done = self.playouts.fetch_add(1, Relaxed) + 1;
            if self.arena.is_full() && self.full_at.load(Relaxed) == 0 {
                self.full_at.store(self.playouts_before + done, Relaxed);
            }
            if let Some(id) = id
                && self.deepening_restart(id)
            {
                break;
            }
        }
    }

    #[inline]
    pub(super) fn value(&self, c: &Node, ln_parent: f32) -> f32 {
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
            let beta = if p.rave == RaveSchedule::HandSelected {
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

    /// The child with the highest value; ties are broken at random (one
    /// of k tied children replaces the best so far with chance 1/k). The
    /// first visits below a new node are ties among equal priors, and a
    /// fixed order sent them all to the lowest point of the board.
    pub(super) fn select(
        &self,
        parent: &Node,
        first: u32,
        n: usize,
        at_root: bool,
        rng: &mut SmallRng,
    ) -> u32 {
        let ln = ((parent.visits.load(Relaxed) + 1) as f32).ln();
        let mut best = first;
        let mut best_v = f32::NEG_INFINITY;
        let mut ties = 1u64;
        for k in 0..n as u32 {
            let c = self.arena.get(first + k);
            if at_root && self.banned[c.mv.load(Relaxed) as usize] {
                continue;
            }
            let v = self.value(c, ln);
            if v > best_v {
                best_v = v;
                best = first + k;
                ties = 1;
            } else if v == best_v {
                ties += 1;
                if (rng.next_u32() as u64 * ties) >> 32 == 0 {
                    best = first + k;
                }
            }
        }
        best
    }

    /// Visits a leaf needs before it is expanded: `expand_visits` while
    /// the arena is less than half full, then twice that for every further
    /// eighth of it used (×16 in the last eighth). A long search (analysis,
    /// long thinking on 19x19) thus keeps growing the tree where the
    /// playouts go instead of filling it with first expansions and
    /// stopping.
    #[inline]
    pub(super) fn expand_threshold(&self) -> u32 {
        let eighths = self.arena.used() * 8 / self.arena.capacity().max(1);
        self.params.expand_visits << eighths.saturating_sub(3).min(4)
    }

    /// Expands `node` (position `board`, `color` to move), if no other
    /// thread does and the arena has room.
    pub(super) fn expand(
        &self,
        node: &Node,
        board: &Board,
        color: Color,
        (last, last2): (Option<Point>, Option<Point>),
        scratch: &mut Scratch,
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
        self.collect_candidates(board, color, (last, last2), scratch, at_root);
        let cands = &mut scratch.cands;
        // A pass only where it can matter: after a pass (at the root: after
        // the opponent's, not at the start of the game), once half the
        // board is filled or half its points have been played in the game,
        // or when nothing else is left. Earlier it only takes visits (with
        // the even prior it starts at a 50% win rate), and at the root it
        // was even chosen: tengen as White, safe under Tromp-Taylor by komi
        // alone, passed at moves 16 and 22 of a 19x19 game against GNU Go.
        let after_pass = if at_root {
            self.root_passes > 0
        } else {
            last.is_none()
        };
        if after_pass
            || self.late_game
            || cands.is_empty()
            || board.num_empty() * 2 < board.points().len()
        {
            cands.push((PASS, priors::pass_prior(&self.resolved)));
        }
        let Some(first) = self.arena.alloc(cands.len()) else {
            node.state.store(LEAF, Release);
            return;
        };
        // The table's best move for this position, if any, gets a bonus.
        let bonus = self.table_bonus(board, color, cands);
        for (k, (mv, pr)) in cands.iter().enumerate() {
            let b = match bonus {
                Some((i, b)) if i == k => b,
                _ => 0.0,
            };
            self.arena
                .get(first + k as u32)
                .reset(*mv, pr.visits + b, pr.wins + b);
        }
        node.first_child.store(first, Relaxed);
        node.num_children.store(cands.len() as u16, Relaxed);
        node.state.store(EXPANDED, Release);
    }

    /// Fills `scratch.cands` with the legal candidate moves of `board` for
    /// `color` and their priors, the learned prior included.
    #[inline]
    fn collect_candidates(
        &self,
        board: &Board,
        color: Color,
        (last, last2): (Option<Point>, Option<Point>),
        scratch: &mut Scratch,
        at_root: bool,
    ) {
        let Scratch { cands, strength } = scratch;
        cands.clear();
        strength.clear();
        let model = self.model.as_deref().filter(|_| self.learned_prior > 0.0);
        for &p in board.points() {
            if board.cell(p) == Cell::Empty
                && board.is_legal(p, color)
                && !board.is_true_eye(p, color)
                && !(at_root && self.banned[p.idx()])
            {
                let t = MoveTactics::read(board, color, p);
                cands.push((
                    p.0,
                    priors::prior_with(board, color, p, last, &self.resolved, &t),
                ));
                if let Some(m) = model {
                    // A futile ladder escape gets the learned prior's
                    // virtual playouts and no wins: the model's other
                    // features (next to the last move, a common shape)
                    // outweighed its escape-into-a-ladder gamma.
                    strength.push(if priors::futile_escape(&t) {
                        0.0
                    } else {
                        let f = features::extract_with(board, color, p, last, last2, &t);
                        m.strength(&f)
                    });
                }
            }
        }
        // The learned prior: the strongest candidate gets `learned_prior`
        // virtual wins, the others wins in proportion to their strength.
        // A product of extreme gammas from a hand-made file can underflow
        // to 0 or overflow to infinity in f32: the node then goes without.
        if let Some(top) = strength
            .iter()
            .copied()
            .reduce(f32::max)
            .filter(|t| *t > 0.0 && t.is_finite())
        {
            let n = self.learned_prior;
            for ((_, pr), s) in cands.iter_mut().zip(strength.iter()) {
                pr.visits += n;
                pr.wins += n * s / top;
            }
        }
    }

    /// The table's bonus for `cands`: the index of the table's best move
    /// for this position and its virtual wins, if any.
    #[inline]
    fn table_bonus(
        &self,
        board: &Board,
        color: Color,
        cands: &[(u16, priors::Prior)],
    ) -> Option<(usize, f32)> {
        let mut bonus = None;
        if self.table_on
            && let Some(t) = &self.table
        {
            match t.probe(board.key(color) ^ self.class_key) {
                Some(e) => match cands.iter().position(|(mv, _)| *mv == e.mv) {
                    Some(k) => {
                        self.hits.fetch_add(1, Relaxed);
                        bonus = Some((
                            k,
                            self.params.table_prior * e.quality as f32 / TABLE_PRIOR_QUALITY,
                        ));
                    }
                    // A collision or a move this position forbids.
                    None => {
                        self.misses.fetch_add(1, Relaxed);
                    }
                },
                None => {
                    self.misses.fetch_add(1, Relaxed);
                }
            }
        }
        bonus
    }

    /// One descent, playout and backup.
    pub(super) fn playout(&self, w: &mut Worker) {
        let p = self.params;
        w.board.copy_from(&self.root_board);
        w.path.clear();
        w.moves.clear();
        let mut color = self.root_color;
        let mut passes = self.root_passes;
        let mut last = self.root_last;
        let mut last2 = self.root_last2;
        let mut ix = self.root;
        let mut terminal = false;
        // The mover of a tree move that broke superko: it loses.
        let mut repeated: Option<Color> = None;
        w.keys.clear();
        loop {
            let node = self.arena.get(ix);
            w.path.push(ix);
            node.visits.fetch_add(p.vl, Relaxed);
            if passes >= 2 || repeated.is_some() {
                terminal = true;
                break;
            }
            match node.children() {
                Some((first, n)) => {
                    let child = self.select(node, first, n, w.path.len() == 1, &mut w.rng);
                    let mv = self.arena.get(child).mv.load(Relaxed);
                    if mv == PASS {
                        w.board.pass();
                        passes += 1;
                        last2 = last;
                        last = None;
                    } else {
                        let pt = Point(mv);
                        debug_assert!(w.board.is_legal(pt, color));
                        w.board.play_unchecked(pt, color);
                        w.moves.push((pt, color));
                        passes = 0;
                        last2 = last;
                        last = Some(pt);
                    }
                    if let Some(k) = superko_key(self.ko_rule, w.board.hash(), color.opponent()) {
                        // A pass never breaks superko, but the position
                        // after it counts for later moves.
                        if mv != PASS && (self.seen.contains(&k) || w.keys.contains(&k)) {
                            repeated = Some(color);
                        }
                        w.keys.push(k);
                    }
                    color = color.opponent();
                    ix = child;
                }
                None => {
                    if node.visits.load(Relaxed) >= self.expand_threshold() + p.vl
                        && node.state.load(Relaxed) == LEAF
                    {
                        self.expand(node, &w.board, color, (last, last2), &mut w.scratch, false);
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
        let score = self.playout_score(w, repeated, terminal);
        self.backup(w, tree_moves, score);
    }

    /// The playout's score for Black, komi taken off; the final position's
    /// ownership goes into the worker's map when it was played out.
    #[inline]
    fn playout_score(&self, w: &mut Worker, repeated: Option<Color>, terminal: bool) -> f64 {
        (if let Some(loser) = repeated {
            // A score of the right sign once komi is taken off: the
            // repetition loses.
            let sign = match loser {
                Color::Black => -1.0,
                Color::White => 1.0,
            };
            sign + self.komi
        } else if terminal {
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
        }) - self.komi
    }

    /// Backs `score` up along `w.path`, with the AMAF statistics of the
    /// moves from `tree_moves` on.
    #[inline]
    fn backup(&self, w: &mut Worker, tree_moves: usize, score: f64) {
        let p = self.params;
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
}
