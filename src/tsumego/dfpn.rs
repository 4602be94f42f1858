//! Depth-first proof-number search (df-pn) over a closed-boundary problem.
//!
//! Values are relative to the side to move: `phi` is the proof number of
//! "the side to move wins", `delta` its disproof number. A node's phi is
//! the least delta of its children, its delta the sum of their phis. The
//! children's thresholds follow Nagai's df-pn with Pawlewicz's 1+ε trick.
//! Unexpanded children start at phi = 1 and delta = 1 + rank × cost, where
//! rank is the child's place in the move order (df-pn+ style), so the
//! ordering weights steer the search without touching its correctness.
//!
//! **Repetition and ko (the GHI problem).** A move that recreates a
//! position (stones and side to move) already on the current path is
//! illegal, except a favoured side's immediate ko recapture (see
//! [`Regime`]). A proof or disproof that relied on such a ban depends on
//! the path; it is passed up to the parent for the current path only and
//! never stored as proven in the transposition table, so a position met
//! again along another path is searched again rather than given an answer
//! that was only true on the first path.

use ahash::AHashMap;
use std::time::Instant;

use super::benson::Benson;
use super::order::{self, NF, OrderWeights, PASS_FEATURE};
use super::region::Problem;
use crate::rules::board::MAX_POINTS;
use crate::rules::zobrist;
use crate::rules::{Board, Cell, Color, Move, Point};

/// Infinite proof or disproof number.
pub const INF: u64 = 1 << 40;

/// A region of at most this many points holding the defender's stones and
/// empty points, with no attacker stone inside, has no room for two eyes
/// nor for seki: the attacker wins.
pub const NO_ROOM: usize = 4;

/// Key component for "the previous move was a pass".
const PASS_KEY: u64 = 0x9e37_79b9_7f4a_7c15;
/// Key component of the seki test's positions (another game than the
/// plain search's, in the same table).
const STRICT_KEY: u64 = 0xbb67_ae85_84ca_a73b;

/// How ko is settled in one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Regime {
    /// External ko threats of each colour (by `Color::index`): each lets
    /// that side retake a ko at once, ignoring the simple-ko ban, as if it
    /// had played a threat the opponent answered.
    pub threats: [u8; 2],
    /// Seki test: the defender only wins by unconditional life (Benson);
    /// two passes in a row are a win for the attacker.
    pub strict: bool,
}

impl Regime {
    /// Simple ko for both sides, no threats.
    pub const PLAIN: Regime = Regime {
        threats: [0, 0],
        strict: false,
    };

    /// `c` has `n` external ko threats, its opponent none.
    pub fn threats_for(c: Color, n: u8) -> Regime {
        let mut threats = [0, 0];
        threats[c.index()] = n;
        Regime {
            threats,
            strict: false,
        }
    }

    /// The seki test.
    pub const STRICT: Regime = Regime {
        threats: [0, 0],
        strict: true,
    };
}

/// Per-solve effort.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Terminal leaves counted as GoTools counts them: a terminal position
    /// (capture, Benson life, no room, two passes) counts when the search
    /// uses its value, that is when it decides its parent: the winning
    /// terminal move of a proved node and the terminal moves ordered before
    /// it, or every terminal move of a disproved node.
    pub leaves: u64,
    /// Every terminal test that found a terminal position at expansion
    /// (the older, larger count).
    pub terminals: u64,
    /// Interior nodes searched (df-pn calls).
    pub nodes: u64,
    /// Expansions whose child was found in the transposition table.
    pub tt_hits: u64,
}

impl std::ops::AddAssign for Counters {
    fn add_assign(&mut self, o: Counters) {
        self.leaves += o.leaves;
        self.terminals += o.terminals;
        self.nodes += o.nodes;
        self.tt_hits += o.tt_hits;
    }
}

/// Node and time budget of one solve.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_nodes: u64,
    pub deadline: Option<Instant>,
}

/// The result of one search.
#[derive(Clone, Debug)]
pub struct Proof {
    /// `Some(true)` if the side to move wins, `None` if a limit was hit.
    pub win: Option<bool>,
    /// The winning first move (for a win), or the first move of the main
    /// line.
    pub best: Option<Move>,
    /// The main line, from the side to move.
    pub line: Vec<(Color, Move)>,
    /// A ko ban was met somewhere (so the answer may depend on ko threats).
    pub ko_seen: bool,
    /// The result at the root rests on a repetition ban other than simple
    /// ko (superko: double ko, send-two-return-one, ...).
    pub superko: bool,
    /// The result may rest on the defender winning by two passes: only
    /// then can a life be a seki (false: every defender win in the proof
    /// is unconditional life, and the seki test would prove it again).
    pub passes: bool,
    /// Leaves spent under each first move tried at the root (GoTools' `#`
    /// per answer line), in the order the moves were first tried.
    pub per_move: Vec<(Move, u64)>,
    pub counters: Counters,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    phi: u64,
    delta: u64,
    /// Nodes searched below this position so far (what replacement keeps).
    work: u32,
    /// The proof or disproof may rest on the defender winning by two
    /// passes (a seki, or life that only the seki test tells apart).
    passes: bool,
}

/// What one call of the recursion returns.
#[derive(Clone, Copy)]
struct Outcome {
    phi: u64,
    delta: u64,
    /// Proven with a path-dependent result (a repetition ban).
    pathdep: bool,
    /// See [`Entry::passes`].
    passes: bool,
}

/// The transposition table of one problem: kept across the searches of
/// one side moving first (plain, ko-threat screens, seki test), whose keys
/// tell the regimes apart, so a re-search starts from what the previous
/// ones proved. Path-dependent results are never stored.
#[derive(Default)]
pub struct Table {
    map: AHashMap<u64, Entry>,
    /// The threat counts of the entries stored so far (plain regimes).
    seen: Vec<[u8; 2]>,
    /// Keys, less their threat component, of the positions proven or
    /// disproven with some threat counts: [`Table::dominated`] looks
    /// further only for these (one probe for the rest).
    proven: ahash::AHashSet<u64>,
}

impl Table {
    /// A proof or disproof for the position `key` (stored with `threats`,
    /// `to_move` to play) read from an entry stored with other threat
    /// counts: an external threat is an option, never an obligation, so a
    /// side that wins with fewer threats of its own and more of its
    /// opponent's wins here too, and one that loses with more of its own
    /// and fewer of its opponent's loses here too.
    fn dominated(&self, key: u64, threats: [u8; 2], to_move: Color) -> Option<(u64, u64)> {
        // The first search of an answer has nothing to read from.
        if self.seen.len() < 2 {
            return None;
        }
        let base = key ^ threat_key(threats);
        if !self.proven.contains(&base) {
            return None;
        }
        let (x, y) = (to_move.index(), to_move.opponent().index());
        for &a in &self.seen {
            if a == threats {
                continue;
            }
            let worse = a[x] <= threats[x] && a[y] >= threats[y];
            let better = a[x] >= threats[x] && a[y] <= threats[y];
            if !(worse || better) {
                continue;
            }
            if let Some(e) = self.map.get(&(base ^ threat_key(a))) {
                if worse && e.phi == 0 {
                    return Some((0, INF));
                }
                if better && e.delta == 0 {
                    return Some((INF, 0));
                }
            }
        }
        None
    }

    /// A win of the attacker read from the plain search's entry for a
    /// position of the seki test (key `key`, with `STRICT_KEY`): the seki
    /// test only takes wins away from the defender (two passes no longer
    /// save it), so what the attacker wins in the plain search, it wins
    /// in the seki test too.
    fn attacker_wins_plain(&self, key: u64, to_move: Color, attacker: Color) -> Option<(u64, u64)> {
        let e = self.map.get(&(key ^ STRICT_KEY))?;
        if to_move == attacker && e.phi == 0 {
            Some((0, INF))
        } else if to_move != attacker && e.delta == 0 {
            Some((INF, 0))
        } else {
            None
        }
    }

    /// Records that a search with `threats` at its root stores entries
    /// with any counts up to those.
    fn note_regime(&mut self, threats: [u8; 2]) {
        for i in 0..=threats[0] {
            for j in 0..=threats[1] {
                if !self.seen.contains(&[i, j]) {
                    self.seen.push([i, j]);
                }
            }
        }
    }

    /// Makes room when the table is full: drops the entries that cost the
    /// least to recompute (work below a rising threshold; a proof or
    /// disproof counts four times its work) until half the capacity is
    /// free.
    fn make_room(&mut self) {
        let mut t = 1u64;
        while self.map.len() > TT_CAP / 2 {
            self.map.retain(|_, e| {
                let proven = e.phi == 0 || e.delta == 0;
                (e.work as u64) * if proven { 4 } else { 1 } > t
            });
            t *= 2;
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Child {
    /// `None` for a pass.
    mv: Option<Point>,
    key: u64,
    rep: u64,
    phi: u64,
    delta: u64,
    /// Proven with a path-dependent result (not in the table).
    pinned: bool,
    terminal: bool,
    /// Ignores a ko ban (spends one of the mover's external threats).
    ko_exempt: bool,
    /// The winner if the position after the move is terminal.
    winner: Option<Color>,
    /// A pass that a second pass would answer by ending the game: not a
    /// pass made under a ko ban (that one only waits for the ban to lapse).
    pass_ends: bool,
    /// Heuristic cost for the parent's mover to win after this move.
    h_mine: u64,
    /// External ko threats left after the move.
    threats: [u8; 2],
    /// See [`Entry::passes`].
    passes: bool,
}

impl Child {
    fn new(mv: Option<Point>, key: u64, rep: u64, ko_exempt: bool, winner: Option<Color>) -> Child {
        Child {
            mv,
            key,
            rep,
            phi: 1,
            delta: 1,
            pinned: false,
            terminal: false,
            ko_exempt,
            winner,
            pass_ends: false,
            h_mine: 0,
            threats: [0, 0],
            passes: false,
        }
    }
}

/// A node of the recursion: where its board is and what keys it.
#[derive(Clone, Copy)]
struct Node {
    depth: usize,
    /// Side to move.
    c: Color,
    last_pass: bool,
    key: u64,
    /// The parent's best alternative to the move played (the opponent's
    /// favoured point).
    prev_alt: Option<Point>,
    /// External ko threats left, by colour.
    threats: [u8; 2],
}

pub struct Dfpn<'a> {
    prob: &'a Problem,
    w: &'a OrderWeights,
    level: u8,
    regime: Regime,
    limits: Limits,
    tt: Table,
    path: Vec<u64>,
    /// Start of the part of `path` that a move may not repeat: a ko
    /// recapture paid for with an external threat puts the threat and its
    /// answer on the board, so no earlier position can recur after it.
    floor: usize,
    boards: Vec<Board>,
    benson: Benson,
    counters: Counters,
    aborted: bool,
    ko_seen: bool,
    counting: bool,
    /// One stone of each crucial chain.
    crucial: Vec<Point>,
    heads: Vec<Point>,
    /// Leaves under each root child, by the child's move.
    per_move: Vec<(Option<Point>, u64)>,
    /// Per point and colour: proved winning moves.
    wins: Vec<[u32; 2]>,
    /// Per point and colour: times chosen as most promising.
    history: Vec<[u32; 2]>,
    killers: Vec<Option<Point>>,
    root_best: Option<Move>,
    feat: [f64; NF],
    /// Every neighbour of the region outside it is an attacker stone or the
    /// border (no defender liberty or stone outside): the walled-in test of
    /// [`Dfpn::walled_in`] applies.
    closed: bool,
    /// Use [`Dfpn::walled_in`] as a terminal test (tests turn it off to
    /// check it against the search).
    static_death: bool,
    /// Benson's answer (some crucial chain alive) by position hash.
    benson_cache: Vec<(u64, bool)>,
}

/// Entries of the direct-mapped cache of Benson's test (1 MiB).
const BENSON_CACHE: usize = 1 << 16;
/// Keeps an empty board's hash (0) from matching the cache's empty slots.
const BENSON_SALT: u64 = 0x6a09_e667_f3bc_c909;

/// Table entries kept before the table is cleared (about 32 MiB).
const TT_CAP: usize = 1 << 20;

impl<'a> Dfpn<'a> {
    pub fn new(
        prob: &'a Problem,
        w: &'a OrderWeights,
        level: u8,
        regime: Regime,
        limits: Limits,
    ) -> Dfpn<'a> {
        Dfpn {
            prob,
            w,
            level: level.clamp(1, 5),
            regime,
            limits,
            tt: Table::default(),
            path: Vec::new(),
            floor: 0,
            boards: vec![prob.board.clone()],
            benson: Benson::default(),
            counters: Counters::default(),
            aborted: false,
            ko_seen: false,
            counting: true,
            crucial: prob.crucial_points(),
            heads: Vec::new(),
            per_move: Vec::new(),
            wins: vec![[0; 2]; MAX_POINTS],
            history: vec![[0; 2]; MAX_POINTS],
            killers: Vec::new(),
            root_best: None,
            feat: [0.0; NF],
            closed: Self::is_closed(prob),
            static_death: true,
            benson_cache: vec![(0, false); BENSON_CACHE],
        }
    }

    fn is_closed(prob: &Problem) -> bool {
        let b = &prob.board;
        let att = Cell::stone(prob.attacker());
        prob.region.iter().all(|&p| {
            b.neighbors(p).iter().all(|&q| {
                prob.in_region(q) || matches!(b.cell(q), Cell::Border) || b.cell(q) == att
            })
        })
    }

    /// The attacker has won, though crucial chains still stand, when the
    /// defender has no room left for two eyes or a seki. *Safe* attacker
    /// chains are those with a liberty outside the region (nobody ever
    /// fills it, so they are never captured, and a stone played next to
    /// one joins it: never suicide, never a ko capture). Let Q be the
    /// region points neither in a safe chain nor next to one. The test
    /// holds when Q has no attacker stone and is at most one point or two
    /// adjacent points. Then every attacker stone of the region is safe,
    /// so the defender captures nothing while the attacker fills, one by
    /// one, every empty point outside Q (permanent moves); the defender's
    /// chains are left with liberties in Q only, at most one eye's worth:
    /// one point is filled with a capture of everything; of two adjacent
    /// points the attacker takes one, and if the defender captures that
    /// stone by playing the other (its stone joins a chain, so no ko), the
    /// retake captures everything. No position repeats, so neither ko
    /// threats nor repetition bans change this.
    fn walled_in(&self, depth: usize) -> bool {
        if !self.closed {
            return false;
        }
        let prob = self.prob;
        let b = &self.boards[depth];
        let att = Cell::stone(prob.attacker());
        // Quick rejection: points that neither hold nor touch an attacker
        // stone are in Q whatever the chains.
        let mut far = 0;
        for &p in &prob.region {
            if b.cell(p) != att && !b.neighbors(p).iter().any(|&q| b.cell(q) == att) {
                far += 1;
                if far > 2 {
                    return false;
                }
            }
        }
        // Safety of the attacker chains met so far, by chain head.
        let mut known: [(Point, bool); 32] = [(Point(0), false); 32];
        let mut n_known = 0;
        let mut open = [Point(0); 2];
        let mut n_open = 0;
        for &p in &prob.region {
            let touches_safe = std::iter::once(p).chain(b.neighbors(p)).any(|q| {
                if b.cell(q) != att {
                    return false;
                }
                let h = b.chain_head(q);
                if let Some(&(_, safe)) = known[..n_known].iter().find(|e| e.0 == h) {
                    return safe;
                }
                let safe = b.chain_stones(h).any(|s| {
                    b.neighbors(s)
                        .iter()
                        .any(|&l| b.cell(l) == Cell::Empty && !prob.in_region(l))
                });
                if n_known < known.len() {
                    known[n_known] = (h, safe);
                    n_known += 1;
                }
                safe
            });
            if touches_safe {
                continue;
            }
            if n_open == 2 || b.cell(p) == att {
                return false;
            }
            open[n_open] = p;
            n_open += 1;
        }
        n_open < 2 || b.neighbors(open[0]).contains(&open[1])
    }

    /// Starts from the table of earlier searches of the same problem.
    pub fn with_table(mut self, tt: Table) -> Self {
        self.tt = tt;
        self
    }

    /// The table, for the next search of the same problem.
    pub fn take_table(&mut self) -> Table {
        std::mem::take(&mut self.tt)
    }

    /// Turns the walled-in terminal test off (tests check it against the
    /// plain search).
    pub fn without_static_death(mut self) -> Self {
        self.static_death = false;
        self
    }

    /// The walled-in test ([`Dfpn::walled_in`]) on the problem's position.
    pub fn walled_in_at_root(&mut self) -> bool {
        self.boards[0].copy_from(&self.prob.board);
        self.walled_in(0)
    }

    fn rep_key(b: &Board, to_move: Color) -> u64 {
        b.hash() ^ zobrist::side_key(to_move)
    }

    fn tt_key(&self, b: &Board, to_move: Color, last_pass: bool, threats: [u8; 2]) -> u64 {
        let strict = if self.regime.strict { STRICT_KEY } else { 0 };
        b.key(to_move) ^ if last_pass { PASS_KEY } else { 0 } ^ threat_key(threats) ^ strict
    }

    /// The winner if the position (with `to_move` to play) is terminal.
    fn terminal(&mut self, depth: usize, pass_pass: bool) -> Option<Color> {
        let prob = self.prob;
        let b = &self.boards[depth];
        if !prob.any_chain_on_board(b) {
            return Some(prob.attacker());
        }
        if pass_pass && !self.regime.strict {
            return Some(prob.defender);
        }
        // Benson's test depends on the stones only: positions met again
        // (transpositions, the same child under another parent) reuse it.
        let key = b.hash() ^ BENSON_SALT;
        let slot = (key as usize) & (BENSON_CACHE - 1);
        let alive = match self.benson_cache[slot] {
            (k, v) if k == key => v,
            _ => {
                let benson = &mut self.benson;
                let v = (0..prob.crucial.len())
                    .any(|i| prob.chain_on_board(b, i) && benson.alive(prob, b, self.crucial[i]));
                self.benson_cache[slot] = (key, v);
                v
            }
        };
        if alive {
            return Some(prob.defender);
        }
        if pass_pass {
            return Some(prob.attacker());
        }
        if self.static_death && self.walled_in(depth) {
            return Some(prob.attacker());
        }
        let b = &self.boards[depth];
        let att = Cell::stone(prob.attacker());
        let mut room = 0;
        for &p in &prob.region {
            let c = b.cell(p);
            if c == att {
                return None;
            }
            room += 1;
        }
        if room <= NO_ROOM {
            return Some(prob.attacker());
        }
        None
    }

    /// Heuristic distances of the position at `depth`, for df-pn's
    /// initial proof and disproof numbers (Kishimoto and Müller's
    /// heuristic initialisation): the attacker's is the liberties of the
    /// standing crucial chains (each at most 8), the moves it needs to
    /// capture them all if the defender does nothing; the defender's is
    /// 2 per missing eye-like point (of two) plus half the shortfall, below
    /// 4, of its room (empty points touching no attacker stone). They only
    /// steer where the search looks first, never what it proves.
    fn distances(&self, depth: usize) -> (u64, u64) {
        let prob = self.prob;
        let b = &self.boards[depth];
        let mut heads = [Point(0); 16];
        let mut n = 0;
        let mut att = 0u64;
        for (i, &p) in self.crucial.iter().enumerate() {
            if !prob.chain_on_board(b, i) {
                continue;
            }
            let h = b.chain_head(p);
            if heads[..n].contains(&h) {
                continue;
            }
            if n < heads.len() {
                heads[n] = h;
                n += 1;
            }
            att += b.liberties(h).min(8) as u64;
        }
        let attacker = Cell::stone(prob.attacker());
        let mut eyes = 0u64;
        let mut room = 0u64;
        for &p in &prob.region {
            if b.cell(p) != Cell::Empty {
                continue;
            }
            if b.is_eyelike(p, prob.defender) {
                eyes += 1;
            } else if !b.neighbors(p).iter().any(|&q| b.cell(q) == attacker) {
                room += 1;
            }
        }
        let def = 2u64.saturating_sub(eyes) * 2 + 4u64.saturating_sub(room.min(4)) / 2;
        (att, def)
    }

    fn ensure_depth(&mut self, d: usize) {
        while self.boards.len() <= d {
            let b = self.boards[0].clone();
            self.boards.push(b);
        }
        while self.killers.len() <= d {
            self.killers.push(None);
        }
    }

    /// Plays `mv` from the position at `depth` into `depth + 1`.
    fn play_into(&mut self, depth: usize, mv: Option<Point>, color: Color, ko_exempt: bool) {
        self.ensure_depth(depth + 1);
        let (lo, hi) = self.boards.split_at_mut(depth + 1);
        let child = &mut hi[0];
        child.copy_from(&lo[depth]);
        match mv {
            None => child.pass(),
            Some(p) => {
                if ko_exempt {
                    child.pass();
                }
                child.play_unchecked(p, color);
            }
        }
    }

    /// True if `color` playing the empty point `p` would capture a stone
    /// outside the region (forbidden: those stones are safe).
    fn captures_outside(&self, b: &Board, p: Point, color: Color) -> bool {
        let opp = Cell::stone(color.opponent());
        b.neighbors(p).iter().any(|&q| {
            b.cell(q) == opp
                && b.liberties(q) == 1
                && b.chain_stones(q).any(|s| !self.prob.in_region(s))
        })
    }

    /// The ordered, pruned children of the node at `depth`, and whether a
    /// move was banned by the repetition rule.
    fn expand(
        &mut self,
        depth: usize,
        c: Color,
        last_pass: bool,
        prev_alt: Option<Point>,
        threats: [u8; 2],
    ) -> (Vec<Child>, bool) {
        self.ensure_depth(depth + 1);
        let prob = self.prob;
        let role = (c == prob.defender) as usize;
        let mut heads = std::mem::take(&mut self.heads);
        heads.clear();
        {
            let b = &self.boards[depth];
            for (i, &p) in self.crucial.iter().enumerate() {
                if prob.chain_on_board(b, i) {
                    heads.push(b.chain_head(p));
                }
            }
        }
        let spent = spend(threats, c);
        let mut banned = false;
        // (score, child, self-atari of 2+ stones capturing nothing,
        // fills own eye, region index)
        let mut scored: Vec<(f64, Child, bool, bool, usize)> = Vec::new();
        for i in 0..prob.region.len() {
            let p = prob.region[i];
            let b = &self.boards[depth];
            if b.cell(p) != Cell::Empty {
                continue;
            }
            let ko_banned = b.ko().is_some_and(|k| k.point == p && k.color == c);
            let mut ko_exempt = false;
            if ko_banned {
                self.ko_seen = true;
                if threats[c.index()] > 0 {
                    ko_exempt = true;
                } else {
                    continue;
                }
            } else if b.is_suicide(p, c) {
                continue;
            }
            if self.captures_outside(b, p, c) {
                continue;
            }
            let useless = !b.is_legal(p, c.opponent());
            self.play_into(depth, Some(p), c, ko_exempt);
            let child = &self.boards[depth + 1];
            let rep = Self::rep_key(child, c.opponent());
            if !ko_exempt && self.path[self.floor..].contains(&rep) {
                banned = true;
                continue;
            }
            order::features(
                prob,
                &self.boards[depth],
                &self.boards[depth + 1],
                p,
                c,
                &heads,
                &mut self.feat,
            );
            let w = self.w;
            let mut s = order::score(w, role, &self.feat);
            let ci = c.index();
            s += w.wins * ((1 + self.wins[p.idx()][ci]) as f64).log2();
            s += w.history * ((1 + self.history[p.idx()][ci]) as f64).log2();
            if self.killers[depth] == Some(p) {
                s += w.killer;
            }
            if prev_alt == Some(p) {
                s += w.opp_best;
            }
            if useless {
                s -= w.useless;
            }
            let self_atari = order::is_self_atari(&self.feat)
                && self.boards[depth + 1].chain_len(p) >= 2
                && self.feat[0] == 0.0;
            let key = self.tt_key(
                &self.boards[depth + 1],
                c.opponent(),
                false,
                if ko_exempt { spent } else { threats },
            );
            let winner = self.terminal(depth + 1, false);
            let mut kid = Child::new(Some(p), key, rep, ko_exempt, winner);
            kid.threats = if ko_exempt { spent } else { threats };
            if winner.is_none() && self.w.distance > 0.0 {
                let (att, def) = self.distances(depth + 1);
                let (mine, theirs) = if c == prob.attacker() {
                    (att, def)
                } else {
                    (def, att)
                };
                kid.h_mine = (mine as f64 * self.w.distance) as u64;
                kid.phi = 1 + (theirs as f64 * self.w.distance) as u64;
            }
            let eye_fill = order::fills_own_eye(&self.feat);
            scored.push((s, kid, self_atari, eye_fill, i));
        }
        // The pass. Two passes in a row end the game, unless the first was
        // made under a ko ban: then the ban lapses and play goes on (a side
        // cannot win a ko by passing after its opponent was banned).
        {
            let under_ko = self.boards[depth].ko().is_some_and(|k| k.color == c);
            self.play_into(depth, None, c, false);
            let key = self.tt_key(&self.boards[depth + 1], c.opponent(), !under_ko, threats);
            let rep = Self::rep_key(&self.boards[depth + 1], c.opponent());
            let winner = self.terminal(depth + 1, last_pass);
            let mut kid = Child::new(None, key, rep, false, winner);
            kid.threats = threats;
            kid.passes = last_pass && winner == Some(prob.defender);
            kid.pass_ends = !under_ko;
            let mut f = [0.0; NF];
            f[PASS_FEATURE] = 1.0;
            scored.push((
                order::score(self.w, role, &f),
                kid,
                false,
                false,
                usize::MAX,
            ));
        }
        self.heads = heads;
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.4.cmp(&b.4)));

        // Forward pruning. Level 2 drops moves by fixed rules only, so its
        // answer does not depend on the ordering weights; levels 3-5 also
        // keep only the best share of the ordered moves.
        if self.level >= 2 {
            let w = self.w;
            let n_moves = scored.len();
            let plays = |v: &Vec<(f64, Child, bool, bool, usize)>| {
                v.iter().filter(|s| s.1.mv.is_some()).count()
            };
            if self.level >= w.self_atari_level && scored.iter().any(|s| s.1.mv.is_some() && !s.2) {
                scored.retain(|s| !s.2);
            }
            if self.level >= w.eye_fill_level && scored.iter().any(|s| s.1.mv.is_some() && !s.3) {
                scored.retain(|s| !s.3);
            }
            if self.level >= w.pass_level && plays(&scored) > 0 {
                scored.retain(|s| s.1.mv.is_some());
            }
            if self.level >= 3 {
                let frac = w.keep[(self.level - 3) as usize];
                let keep = ((n_moves as f64 * frac).ceil() as usize).max(w.min_moves);
                scored.truncate(keep.max(1));
            }
        }

        let mut kids: Vec<Child> = Vec::with_capacity(scored.len());
        for (rank, (_, mut kid, _, _, _)) in scored.into_iter().enumerate() {
            kid.delta = (1 + kid.h_mine + (rank as f64 * self.w.rank_cost) as u64).min(INF - 1);
            // Terminal positions were found when the move was played;
            // they count as leaves when their value decides the node
            // (`count_leaves`), and as terminal tests here.
            if let Some(winner) = kid.winner {
                if self.counting {
                    self.counters.terminals += 1;
                }
                kid.terminal = true;
                // Values for the child's side to move (the opponent).
                if winner == c {
                    (kid.phi, kid.delta) = (INF, 0);
                } else {
                    (kid.phi, kid.delta) = (0, INF);
                }
            } else if let Some(e) = self.tt.map.get(&kid.key) {
                if self.counting {
                    self.counters.tt_hits += 1;
                }
                kid.phi = e.phi;
                kid.delta = e.delta;
                kid.passes = e.passes;
            } else if let Some((phi, delta)) = if self.regime.strict {
                self.tt
                    .attacker_wins_plain(kid.key, c.opponent(), prob.attacker())
            } else {
                self.tt.dominated(kid.key, kid.threats, c.opponent())
            } {
                if self.counting {
                    self.counters.tt_hits += 1;
                }
                kid.phi = phi;
                kid.delta = delta;
                // The other regime's proof may have used two passes.
                kid.passes = true;
            }
            kids.push(kid);
        }
        (kids, banned)
    }

    fn out_of_budget(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        let over_time = || self.limits.deadline.is_some_and(|d| Instant::now() >= d);
        if self.counters.nodes >= self.limits.max_nodes
            || (self.counters.nodes.is_multiple_of(256) && over_time())
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// The df-pn recursion for the node at `depth` with `c` to move.
    fn mid(&mut self, node: Node, th_phi: u64, th_delta: u64) -> Outcome {
        let Node {
            depth,
            c,
            last_pass,
            key,
            prev_alt,
            threats,
        } = node;
        let nodes_before = self.counters.nodes;
        self.counters.nodes += 1;
        if self.out_of_budget() {
            return Outcome {
                phi: 1,
                delta: 1,
                pathdep: false,
                passes: false,
            };
        }
        let (mut kids, banned) = self.expand(depth, c, last_pass, prev_alt, threats);
        let (mut phi, mut delta);
        loop {
            for k in kids.iter_mut() {
                if !k.terminal
                    && !k.pinned
                    && let Some(e) = self.tt.map.get(&k.key)
                {
                    k.phi = e.phi;
                    k.delta = e.delta;
                    k.passes = e.passes;
                }
            }
            phi = INF;
            delta = 0u64;
            let mut best = 0;
            let mut second = INF;
            for (i, k) in kids.iter().enumerate() {
                if k.delta < phi {
                    second = phi;
                    phi = k.delta;
                    best = i;
                } else if k.delta < second {
                    second = k.delta;
                }
                // Only a true disproof is infinite: a large sum stops
                // one short, or a saturated sum would end the search at
                // the root (threshold INF) with nothing proven.
                delta = if delta >= INF || k.phi >= INF {
                    INF
                } else {
                    (delta + k.phi).min(INF - 1)
                };
            }
            if phi == 0 || delta == 0 || phi >= th_phi || delta >= th_delta || self.aborted {
                break;
            }
            let k = kids[best];
            let child_th_phi = th_delta.saturating_sub(delta - k.phi).min(INF);
            let eps = second
                .saturating_add(second / 4)
                .max(second.saturating_add(1));
            let child_th_delta = th_phi.min(eps).min(INF);
            if let Some(p) = k.mv {
                self.history[p.idx()][c.index()] += 1;
            }
            let alt = kids
                .iter()
                .enumerate()
                .find(|&(i, k)| i != best && k.mv.is_some())
                .and_then(|(_, k)| k.mv);
            self.play_into(depth, k.mv, c, k.ko_exempt);
            self.path.push(k.rep);
            let floor = self.floor;
            if k.ko_exempt {
                self.floor = self.path.len() - 1;
            }
            let child = Node {
                depth: depth + 1,
                c: c.opponent(),
                last_pass: k.mv.is_none() && k.pass_ends,
                key: k.key,
                prev_alt: alt,
                threats: if k.ko_exempt {
                    spend(threats, c)
                } else {
                    threats
                },
            };
            let before = self.counters.leaves;
            let out = self.mid(child, child_th_phi, child_th_delta);
            let (cp, cd) = (out.phi, out.delta);
            if depth == 0 {
                self.add_root_leaves(k.mv, self.counters.leaves - before);
            }
            self.path.pop();
            self.floor = floor;
            let kk = &mut kids[best];
            kk.phi = cp;
            kk.delta = cd;
            kk.pinned = out.pathdep && (cp == 0 || cd == 0);
            kk.passes = out.passes;
        }
        if self.aborted {
            return Outcome {
                phi,
                delta,
                pathdep: false,
                passes: false,
            };
        }
        self.count_leaves(depth, &kids, phi == 0, delta == 0);
        let mut pathdep = false;
        let mut passes = false;
        if phi == 0 {
            if let Some(k) = kids.iter().find(|k| k.delta == 0) {
                pathdep = k.pinned;
                passes = k.passes;
                if let Some(p) = k.mv {
                    self.wins[p.idx()][c.index()] += 1;
                    self.killers[depth] = Some(p);
                }
                if depth == 0 {
                    self.root_best =
                        Some(k.mv.map_or(Move::Pass, |p| Move::Play(self.prob.board.coord(p))));
                }
            }
        } else if delta == 0 {
            pathdep = banned || kids.iter().any(|k| k.pinned);
            passes = kids.iter().any(|k| k.passes);
        }
        if !(pathdep && (phi == 0 || delta == 0)) {
            if self.tt.map.len() >= TT_CAP {
                self.tt.make_room();
            }
            let spent = (self.counters.nodes - nodes_before).min(u32::MAX as u64) as u32;
            if (phi == 0 || delta == 0) && !self.regime.strict {
                if self.tt.proven.len() >= TT_CAP {
                    self.tt.proven.clear();
                }
                self.tt.proven.insert(key ^ threat_key(threats));
            }
            let e = self.tt.map.entry(key).or_insert(Entry {
                phi,
                delta,
                work: 0,
                passes,
            });
            (e.phi, e.delta, e.passes) = (phi, delta, passes);
            e.work = e.work.saturating_add(spent);
        }
        Outcome {
            phi,
            delta,
            pathdep,
            passes,
        }
    }

    /// Counts the terminal children whose values decide a resolved node:
    /// for a proof, the winning child if terminal and the terminal children
    /// ordered before the first winning child (an ordered search tries
    /// them first); for a disproof, every terminal child.
    fn count_leaves(&mut self, depth: usize, kids: &[Child], proved: bool, disproved: bool) {
        if !self.counting || !(proved || disproved) {
            return;
        }
        let upto = if proved {
            kids.iter().position(|k| k.delta == 0).map_or(0, |i| i + 1)
        } else {
            kids.len()
        };
        for k in &kids[..upto] {
            if k.terminal {
                self.counters.leaves += 1;
                if depth == 0 {
                    self.add_root_leaves(k.mv, 1);
                }
            }
        }
    }

    fn add_root_leaves(&mut self, mv: Option<Point>, n: u64) {
        match self.per_move.iter_mut().find(|e| e.0 == mv) {
            Some(e) => e.1 += n,
            None => self.per_move.push((mv, n)),
        }
    }

    /// Solves with `to_move` to play from the problem's position.
    /// The moves of `to_move` at the root in the order the solver tries
    /// them first: the static scores alone, since nothing is learned yet
    /// (the tuner's static fitness). Pruning applies at levels 2-5.
    pub fn root_order(&mut self, to_move: Color) -> Vec<Move> {
        let (kids, _) = self.expand(0, to_move, false, None, self.regime.threats);
        kids.iter()
            .map(|k| {
                k.mv.map_or(Move::Pass, |p| Move::Play(self.prob.board.coord(p)))
            })
            .collect()
    }

    pub fn solve(&mut self, to_move: Color) -> Proof {
        let root = self.prob.board.clone();
        self.boards[0] = root;
        self.ensure_depth(1);
        self.path.clear();
        self.floor = 0;
        if !self.regime.strict {
            self.tt.note_regime(self.regime.threats);
        }
        let key = self.tt_key(&self.boards[0], to_move, false, self.regime.threats);
        // With no room for two eyes the attacker has won, but it still
        // searches for its key move while the crucial chains stand.
        let standing = self.prob.any_chain_on_board(&self.boards[0]);
        if let Some(winner) = self.terminal(0, false)
            && !(winner == to_move && to_move == self.prob.attacker() && standing)
        {
            self.counters.leaves += 1;
            self.counters.terminals += 1;
            return Proof {
                win: Some(winner == to_move),
                best: None,
                line: Vec::new(),
                ko_seen: false,
                superko: false,
                passes: false,
                per_move: Vec::new(),
                counters: self.counters,
            };
        }
        self.path.push(Self::rep_key(&self.boards[0], to_move));
        let root = Node {
            depth: 0,
            c: to_move,
            last_pass: false,
            key,
            prev_alt: None,
            threats: self.regime.threats,
        };
        let Outcome {
            phi,
            delta,
            pathdep,
            passes,
        } = self.mid(root, INF, INF);
        let win = if self.aborted {
            None
        } else if phi == 0 {
            Some(true)
        } else if delta == 0 {
            Some(false)
        } else {
            None
        };
        let counters = self.counters;
        let mut line = Vec::new();
        if win.is_some() {
            line = self.main_line(to_move, 60);
        }
        let best = if win == Some(true) {
            self.root_best.or_else(|| line.first().map(|m| m.1))
        } else {
            line.first().map(|m| m.1)
        };
        if win == Some(true)
            && let Some(b) = best
            && line.first().is_none_or(|first| first.1 != b)
        {
            line.clear();
            line.push((to_move, b));
        }
        let coord = |p: Point| self.prob.board.coord(p);
        let per_move = self
            .per_move
            .iter()
            .map(|&(m, n)| (m.map_or(Move::Pass, |p| Move::Play(coord(p))), n))
            .collect();
        Proof {
            win,
            best,
            line,
            ko_seen: self.ko_seen,
            superko: win.is_some() && pathdep,
            passes: win.is_none() || passes,
            per_move,
            counters,
        }
    }

    /// The main line read back from the table: the winner's proven move,
    /// the loser's first proven reply, until a terminal position.
    fn main_line(&mut self, to_move: Color, max_len: usize) -> Vec<(Color, Move)> {
        self.counting = false;
        let mut line = Vec::new();
        let mut c = to_move;
        let mut last_pass = false;
        let mut threats = self.regime.threats;
        self.path.clear();
        self.floor = 0;
        self.path.push(Self::rep_key(&self.boards[0], to_move));
        let mut depth = 0;
        while line.len() < max_len {
            if depth > 0 && self.terminal(depth, false).is_some() {
                break;
            }
            let (kids, _) = self.expand(depth, c, last_pass, None, threats);
            // The winner's first proven move; for the loser, its first
            // refuted move other than a pass, else the pass.
            let pick = kids
                .iter()
                .find(|k| k.delta == 0)
                .or_else(|| kids.iter().find(|k| k.phi == 0 && k.mv.is_some()))
                .or_else(|| kids.iter().find(|k| k.phi == 0))
                .copied();
            let Some(k) = pick else { break };
            let mv =
                k.mv.map_or(Move::Pass, |p| Move::Play(self.prob.board.coord(p)));
            line.push((c, mv));
            if k.terminal {
                break;
            }
            self.play_into(depth, k.mv, c, k.ko_exempt);
            self.path.push(k.rep);
            if k.ko_exempt {
                self.floor = self.path.len() - 1;
                threats = spend(threats, c);
            }
            depth += 1;
            last_pass = k.mv.is_none() && k.pass_ends;
            c = c.opponent();
        }
        self.counting = true;
        line
    }
}

/// Key component of the external ko threats left.
fn threat_key(threats: [u8; 2]) -> u64 {
    if threats == [0, 0] {
        0
    } else {
        zobrist::mix64(PASS_KEY ^ ((threats[0] as u64) << 8 | threats[1] as u64))
    }
}

/// The threats left after `c` spends one.
fn spend(mut threats: [u8; 2], c: Color) -> [u8; 2] {
    threats[c.index()] = threats[c.index()].saturating_sub(1);
    threats
}
