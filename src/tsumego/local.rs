//! An exact solver of small local games on a graph, for the static
//! evaluation of the tsumego solver (`eyes`).
//!
//! A local game is Go on at most 32 vertices: each vertex is a point, or
//! a whole defender chain collapsed into one vertex (its stones are never
//! separated: it is captured as a whole, and then the game is over). The
//! attacker's safe wall is outside the graph: a vertex in [`Graph::wall`]
//! touches it, so an attacker stone there joins the wall (never captured,
//! never a ko) and an area holding such a vertex is never an eye.
//!
//! The rules are the solver's (`dfpn`): suicide is illegal, simple ko, a
//! move that repeats a position of the current line is illegal, two passes
//! in a row end the game except after a pass made under a ko ban, the
//! attacker wins when every crucial chain has lost a stone, and the
//! defender wins when a crucial chain is unconditionally alive (Benson) or
//! when the game ends by passes with one standing. In the strict game (the
//! seki test) passes end it as a loss for the defender. A line also ends
//! as the attacker's win when the defender is walled in with at most one
//! eye's worth of room ([`Solver::walled_in`], the solver's walled-in
//! test restated on the graph).
//!
//! A verdict is *clean* when it holds whatever ko threats either side has
//! and whatever positions came before: no ko ban and no repetition ban met
//! the losing side anywhere in the proof, and the winner's line met none
//! either. Only clean verdicts may end a line of the main search.

use ahash::AHashMap;

/// Most vertices of a local game.
pub const MAX_V: usize = 32;

/// How often each move won a position, by mover (attacker, defender).
pub type History = [[u32; MAX_V]; 2];

/// The scores of a game that has learnt nothing yet.
pub const NO_HISTORY: History = [[0; MAX_V]; 2];

/// No ko ban.
const NO_KO: u8 = u8::MAX;

/// The cap of a history score (a move's order key holds it between the
/// bit for the points next to the crucial chains and five bits of vertex).
const HISTORY_MAX: u32 = 1 << 24;

/// The board of a local game.
#[derive(Clone, Debug)]
pub struct Graph {
    pub n: usize,
    /// Neighbours of each vertex.
    adj: [u32; MAX_V],
    /// The neighbours of sets of vertices by byte ([`ByteNbrs`]), for
    /// graphs of at most [`BY_BYTE_MAX`] vertices; made at the first game
    /// after the last edge was added.
    by_byte: std::cell::OnceCell<ByteNbrs>,
    /// Vertices next to the attacker's safe wall.
    pub wall: u32,
    /// The crucial chains (a vertex set each): the attacker wins when
    /// every one has lost a vertex.
    pub crucial: Vec<u32>,
}

/// Graphs are equal when their vertices, edges, wall and crucial chains
/// are (whether the neighbour tables were made yet or not).
impl PartialEq for Graph {
    fn eq(&self, o: &Graph) -> bool {
        self.n == o.n && self.adj == o.adj && self.wall == o.wall && self.crucial == o.crucial
    }
}

impl Eq for Graph {}

/// Graphs of at most this many vertices find the neighbours of a set of
/// vertices in two lookups ([`ByteNbrs`]): the region game's default cap,
/// the eye spaces and the one-chain games.
const BY_TWO_BYTES_MAX: usize = 16;

/// Graphs of at most this many vertices (a region game with a larger
/// `ts_region_vertices`) find them in three lookups; larger ones vertex
/// by vertex.
const BY_BYTE_MAX: usize = 24;

/// For each byte `k` of a vertex set (of a graph of at most
/// [`BY_BYTE_MAX`] vertices) and each value `i` of it, the union of the
/// neighbours of the vertices `8k + j` for the bits `j` of `i`: the
/// neighbours of any set in two or three lookups, however many vertices
/// it holds (3 KiB a graph). Graphs of at most [`BY_TWO_BYTES_MAX`]
/// vertices skip the third lookup, which cost them a little time; tables
/// for all four bytes, 4 KiB, saved more instructions but took more time
/// on small problems (docs/tsumego.md, *Neighbours by byte*).
#[derive(Clone)]
struct ByteNbrs([[u32; 256]; BY_BYTE_MAX / 8]);

impl std::fmt::Debug for ByteNbrs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("(the neighbours by byte)")
    }
}

impl Graph {
    pub fn new(n: usize) -> Graph {
        assert!(n <= MAX_V, "a local game has at most {MAX_V} vertices");
        Graph {
            n,
            adj: [0; MAX_V],
            by_byte: std::cell::OnceCell::new(),
            wall: 0,
            crucial: Vec::new(),
        }
    }

    pub fn connect(&mut self, a: usize, b: usize) {
        if a != b {
            self.adj[a] |= 1 << b;
            self.adj[b] |= 1 << a;
            // Made again from the new edges when next used.
            self.by_byte.take();
        }
    }

    /// The neighbours of vertex `v`.
    pub fn adj(&self, v: usize) -> u32 {
        self.adj[v]
    }

    fn full(&self) -> u32 {
        if self.n == 32 {
            u32::MAX
        } else {
            (1u32 << self.n) - 1
        }
    }

    /// The neighbour tables of the graph as it stands ([`Edges`]), made
    /// at the first call after the last edge was added.
    fn edges(&self) -> Edges<'_> {
        Edges {
            adj: &self.adj,
            by_byte: (self.n <= BY_BYTE_MAX)
                .then(|| &self.by_byte.get_or_init(|| self.neighbours_by_byte()).0),
            wide: self.n > BY_TWO_BYTES_MAX,
        }
    }

    /// The tables of [`ByteNbrs`]: each entry is a smaller one (its value
    /// less its lowest bit) and the lowest bit's vertex's neighbours.
    fn neighbours_by_byte(&self) -> ByteNbrs {
        let mut t = [[0u32; 256]; BY_BYTE_MAX / 8];
        for (k, row) in t.iter_mut().enumerate().take(self.n.div_ceil(8)) {
            for i in 1..256usize {
                let v = 8 * k + i.trailing_zeros() as usize;
                row[i] = row[i & (i - 1)] | self.adj[v];
            }
        }
        ByteNbrs(t)
    }
}

/// A graph's neighbours, for the solver of one game: each vertex's, and
/// any set's by [`ByteNbrs`].
#[derive(Clone, Copy)]
struct Edges<'g> {
    adj: &'g [u32; MAX_V],
    /// For graphs of at most [`BY_BYTE_MAX`] vertices.
    by_byte: Option<&'g [[u32; 256]; BY_BYTE_MAX / 8]>,
    /// More than [`BY_TWO_BYTES_MAX`] vertices: the third byte counts.
    wide: bool,
}

impl Edges<'_> {
    /// Union of the neighbours of `set`.
    #[inline]
    fn nbrs(&self, mut set: u32) -> u32 {
        if let Some(t) = self.by_byte {
            let low = t[0][(set & 0xff) as usize] | t[1][(set >> 8 & 0xff) as usize];
            return if self.wide {
                low | t[2][(set >> 16 & 0xff) as usize]
            } else {
                low
            };
        }
        let mut out = 0;
        while set != 0 {
            let v = set.trailing_zeros() as usize;
            set &= set - 1;
            out |= self.adj[v];
        }
        out
    }

    /// The vertices of `within` reachable from `seeds` (a subset of
    /// `within`) through `within`.
    #[inline]
    fn flood(&self, within: u32, seeds: u32) -> u32 {
        self.grow(within, seeds, seeds)
    }

    /// The component of `v` within `within`.
    #[inline]
    fn component(&self, within: u32, v: usize) -> u32 {
        let bit = 1u32 << v;
        // The first ring from `v`'s own neighbours (most floods are of
        // one or two vertices).
        let ring = self.adj[v] & within & !bit;
        self.grow(within, bit | ring, ring)
    }

    /// `reached` grown through `within` ring by ring from `frontier`, its
    /// newest vertices, until nothing new is reached.
    #[inline]
    fn grow(&self, within: u32, mut reached: u32, mut frontier: u32) -> u32 {
        while frontier != 0 {
            let next = self.nbrs(frontier) & within & !reached;
            reached |= next;
            frontier = next;
        }
        reached
    }
}

/// A position of a local game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    pub att: u32,
    pub def: u32,
    /// The vertex the side to move may not take back (simple ko), or none.
    pub ko: u8,
    pub def_to_move: bool,
    /// The previous move was a pass that a pass now ends the game with.
    pub pass_ends: bool,
}

/// One word for the hasher (the memos hash a position at every position
/// searched): equal states hash alike, and the fields that are not the
/// stones are mixed in by an odd multiplier.
impl std::hash::Hash for State {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        let small = self.ko as u64 | (self.def_to_move as u64) << 8 | (self.pass_ends as u64) << 9;
        h.write_u64(
            (self.att as u64 | (self.def as u64) << 32) ^ small.wrapping_mul(0x9e37_79b9_7f4a_7c15),
        );
    }
}

impl State {
    pub fn new(att: u32, def: u32, def_to_move: bool) -> State {
        State {
            att,
            def,
            ko: NO_KO,
            def_to_move,
            pass_ends: false,
        }
    }
}

/// The result of a local game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub defender_wins: bool,
    /// See the module doc.
    pub clean: bool,
}

/// What the children of a position searched so far say.
struct Children {
    /// A clean win for the mover.
    result: Option<Verdict>,
    /// A win for the mover that rests on a ban.
    unclean_win: bool,
    /// Every loss so far is clean (and no ban cut a move off).
    all_clean: bool,
}

impl Children {
    fn add(&mut self, r: Verdict, mover_is_def: bool) {
        if r.defender_wins == mover_is_def {
            if r.clean {
                self.result = Some(r);
            } else {
                self.unclean_win = true;
            }
        } else if !r.clean {
            self.all_clean = false;
        }
    }
}

thread_local! {
    /// The memo of the last game solved on this thread, emptied: its
    /// capacity serves the next game.
    static MEMO: std::cell::RefCell<AHashMap<State, Verdict>> = std::cell::RefCell::new(AHashMap::new());
    /// The line and child buffers of the last game solved on this thread,
    /// emptied: their capacity serves the next game.
    static BUFS: std::cell::RefCell<Bufs> = std::cell::RefCell::new(Bufs::default());
}

/// A game's line and child buffers ([`Solver::stack`], [`Solver::kids`]).
#[derive(Default)]
struct Bufs {
    stack: [Vec<(u32, u32)>; 2],
    kids: Vec<(u32, State)>,
}

impl Drop for Solver<'_> {
    fn drop(&mut self) {
        let mut memo = std::mem::take(&mut self.memo);
        // A memo handed back by `into_memo` leaves nothing to keep.
        if memo.capacity() > 0 && memo.capacity() <= 1 << 16 {
            memo.clear();
            MEMO.with(|m| *m.borrow_mut() = memo);
        }
        let mut bufs = Bufs {
            stack: std::mem::take(&mut self.stack),
            kids: std::mem::take(&mut self.kids),
        };
        bufs.stack.iter_mut().for_each(Vec::clear);
        bufs.kids.clear();
        BUFS.with(|b| *b.borrow_mut() = bufs);
    }
}

/// Solves local games; one memo per game.
pub struct Solver<'g> {
    g: &'g Graph,
    /// `g`'s neighbour tables.
    e: Edges<'g>,
    strict: bool,
    memo: AHashMap<State, Verdict>,
    /// The stones of the current line's positions, by side to move
    /// (index 1: the defender's).
    stack: [Vec<(u32, u32)>; 2],
    pub nodes: u64,
    limit: u64,
    aborted: bool,
    /// How often each move won a position in this game (and, in the
    /// region game, in the earlier games on the same graph), by mover
    /// (attacker, defender): it orders the children the memo does not
    /// decide.
    history: History,
    /// The children of the positions on the current line still to be
    /// searched, with their order keys, a segment per position.
    kids: Vec<(u32, State)>,
    /// Ends lines on [`Solver::walled_in`] (off only to check it).
    walled: bool,
    /// [`Solver::walled_in`] knows its nakade case (off only to check it).
    nakade: bool,
    /// Drops the defender's fills of a dead liberty
    /// ([`Solver::dead_liberties`]; off only to check it).
    dead: bool,
    /// Positions where that dropped a move.
    dropped: u64,
}

impl<'g> Solver<'g> {
    /// `strict`: the seki test's rules (passes lose for the defender).
    /// `limit`: positions searched before giving up.
    pub fn new(g: &'g Graph, strict: bool, limit: u64) -> Solver<'g> {
        let memo = MEMO.with(|m| std::mem::take(&mut *m.borrow_mut()));
        Solver::with_memo(g, strict, limit, memo)
    }

    /// A solver that starts from `memo`: the positions solved by earlier
    /// games on the same graph under the same rules (`strict`). A clean
    /// value holds whatever the line before it (see the module doc), and a
    /// value that is not clean never makes a clean one, so the memo
    /// carries over; [`Solver::into_memo`] hands it back. `limit` counts
    /// the positions this solver adds.
    pub fn with_memo(
        g: &'g Graph,
        strict: bool,
        limit: u64,
        memo: AHashMap<State, Verdict>,
    ) -> Solver<'g> {
        let bufs = BUFS.with(|b| std::mem::take(&mut *b.borrow_mut()));
        Solver {
            g,
            e: g.edges(),
            strict,
            memo,
            stack: bufs.stack,
            nodes: 0,
            limit,
            aborted: false,
            history: NO_HISTORY,
            kids: bufs.kids,
            walled: true,
            nakade: true,
            dead: true,
            dropped: 0,
        }
    }

    /// The history scores, for the next game on the same graph and rules.
    pub fn history(&self) -> History {
        self.history
    }

    /// Starts from the history scores of an earlier game on the same
    /// graph (they order moves only).
    pub fn set_history(&mut self, h: History) {
        self.history = h;
    }

    /// The memo, for the next game on the same graph and rules.
    pub fn into_memo(mut self) -> AHashMap<State, Verdict> {
        std::mem::take(&mut self.memo)
    }

    /// The verdict from `s`, or `None` if the limit was hit.
    pub fn solve(&mut self, s: State) -> Option<Verdict> {
        if self.crucial_gone(s.def) || self.crucial_without_liberty(&s) {
            return Some(Verdict {
                defender_wins: false,
                clean: true,
            });
        }
        self.stack.iter_mut().for_each(Vec::clear);
        self.stack[s.def_to_move as usize].push((s.att, s.def));
        let v = self.search(s);
        (!self.aborted).then_some(v)
    }

    /// A crucial chain with no liberty in the graph: the attacker takes it
    /// by filling the liberties it has outside (an eye-space game gives the
    /// chain none there), so the attacker has won. Moves never make one
    /// (a move that takes the last liberty captures), so only a starting
    /// position can hold one.
    fn crucial_without_liberty(&self, s: &State) -> bool {
        let empty = self.g.full() & !(s.att | s.def);
        self.g.crucial.iter().any(|&c| {
            c & s.def == c && {
                let chain = self.e.component(s.def, c.trailing_zeros() as usize);
                self.e.nbrs(chain) & empty == 0
            }
        })
    }

    fn crucial_gone(&self, def: u32) -> bool {
        !self.g.crucial.is_empty() && self.g.crucial.iter().all(|&c| c & !def != 0)
    }

    /// Plays `v` for the side to move: the position after it, or `None`
    /// if it is occupied, the ko point, or suicide.
    pub fn play(&self, s: &State, v: usize) -> Option<State> {
        let (g, e) = (self.g, self.e);
        let bit = 1u32 << v;
        if (s.att | s.def) & bit != 0 || s.ko as usize == v {
            return None;
        }
        let attacker = !s.def_to_move;
        let (mut me, mut opp) = if attacker {
            (s.att, s.def)
        } else {
            (s.def, s.att)
        };
        me |= bit;
        let mut captured = 0u32;
        let mut around = g.adj[v] & opp;
        while around != 0 {
            let u = around.trailing_zeros() as usize;
            let chain = e.component(opp, u);
            around &= !chain;
            // Attacker stones next to the wall are never captured.
            if !attacker && chain & g.wall != 0 {
                continue;
            }
            let empty = g.full() & !(me | opp);
            if e.nbrs(chain) & empty == 0 {
                opp &= !chain;
                captured |= chain;
            }
        }
        let own = e.component(me, v);
        let empty = g.full() & !(me | opp);
        let own_libs = e.nbrs(own) & empty;
        let safe = attacker && own & g.wall != 0;
        if own_libs == 0 && !safe {
            return None;
        }
        let ko = if captured.count_ones() == 1 && own == bit && own_libs == captured && !safe {
            captured.trailing_zeros() as u8
        } else {
            NO_KO
        };
        let (att, def) = if attacker { (me, opp) } else { (opp, me) };
        Some(State {
            att,
            def,
            ko,
            def_to_move: attacker,
            pass_ends: false,
        })
    }

    /// The empty vertices (of `empty`, the empty vertices of `s`) next to
    /// the crucial chains that hold a stone: the local search tries them
    /// first (most kills and most defences are there).
    fn near(&self, s: &State, empty: u32) -> u32 {
        self.g.crucial.iter().fold(0, |m, &c| {
            if c & s.def == 0 {
                m
            } else {
                m | self
                    .e
                    .nbrs(self.e.component(s.def, c.trailing_zeros() as usize))
            }
        }) & empty
    }

    /// False if Benson's test cannot find a crucial chain alive, from the
    /// chains' empty neighbours (`near`, [`Solver::near`]): a living chain
    /// has two vital regions, each closed (no wall vertex in it) with an
    /// empty vertex next to the chain, so two such vertices off the wall.
    fn may_be_benson_alive(&self, near: u32) -> bool {
        (near & !self.g.wall).count_ones() >= 2
    }

    /// Benson's test on the graph: is some crucial chain unconditionally
    /// alive? Areas holding a wall vertex are open, as in `benson`.
    pub fn benson(&self, s: &State) -> bool {
        let (g, e) = (self.g, self.e);
        let full = g.full();
        let def = s.def;
        if def == 0 {
            return false;
        }
        let empty = full & !(s.att | s.def);
        // The regions that touch the wall are open: one flood from the
        // wall finds them all, and most positions have no other region
        // (or one), so the test ends here.
        let within = full & !def;
        let open = e.flood(within, g.wall & within);
        let closed = within & !open;
        if closed == 0 {
            return false;
        }
        // At most 32 chains and 32 regions: fixed arrays, no allocation
        // (this runs at every position of a local search).
        let mut regions = [0u32; MAX_V];
        let mut n_regions = 0;
        let mut rest = closed;
        while rest != 0 {
            let r = e.component(closed, rest.trailing_zeros() as usize);
            rest &= !r;
            regions[n_regions] = r;
            n_regions += 1;
        }
        if n_regions < 2 {
            return false;
        }
        let mut chains = [0u32; MAX_V];
        let mut n_chains = 0;
        let mut rest = def;
        while rest != 0 {
            let c = e.component(def, rest.trailing_zeros() as usize);
            rest &= !c;
            chains[n_chains] = c;
            n_chains += 1;
        }
        // A vital region gives the chain a liberty: it holds an empty
        // vertex, and each of its empty vertices is next to the chain.
        // The vital pairs and the regions' neighbours do not change while
        // chains and regions are struck off, so they are found once.
        let mut vital = [0u32; MAX_V];
        for (ci, &c) in chains.iter().enumerate().take(n_chains) {
            let n = e.nbrs(c);
            for (ri, &r) in regions.iter().enumerate().take(n_regions) {
                if r & empty != 0 && n & r != 0 && (r & empty) & !n == 0 {
                    vital[ci] |= 1 << ri;
                }
            }
        }
        let mut region_nbrs = [0u32; MAX_V];
        for (ri, &r) in regions.iter().enumerate().take(n_regions) {
            region_nbrs[ri] = e.nbrs(r);
        }
        let mut alive: u32 = (1u64 << n_chains).wrapping_sub(1) as u32;
        let mut live: u32 = (1u64 << n_regions).wrapping_sub(1) as u32;
        loop {
            let mut changed = false;
            for (ci, &v) in vital.iter().enumerate().take(n_chains) {
                if alive & (1 << ci) != 0 && (v & live).count_ones() < 2 {
                    alive &= !(1 << ci);
                    changed = true;
                }
            }
            let dead: u32 = (0..n_chains)
                .filter(|&ci| alive & (1 << ci) == 0)
                .fold(0, |m, ci| m | chains[ci]);
            for (ri, &n) in region_nbrs.iter().enumerate().take(n_regions) {
                if live & (1 << ri) != 0 && n & dead != 0 {
                    live &= !(1 << ri);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let living: u32 = (0..n_chains)
            .filter(|&ci| alive & (1 << ci) != 0)
            .fold(0, |m, ci| m | chains[ci]);
        g.crucial.iter().any(|&c| c & def == c && c & living != 0)
    }

    /// The walled-in kill on the graph (the solver's walled-in test,
    /// `Dfpn::walled_in`, restated): the attacker stones in chains that
    /// touch the wall are *safe* (never captured), and Q is the vertices
    /// neither on the wall nor in or next to a safe chain. It holds, with
    /// no ko ban, in two cases.
    ///
    /// Every attacker stone is safe, and Q is at most one vertex or two
    /// adjacent ones. The attacker fills every empty vertex outside Q
    /// (safe, so always legal, and the defender captures nothing); the
    /// defender's chains are left with liberties in Q only: one point is
    /// filled with a capture of everything, and of two adjacent points the
    /// attacker takes one, a defender stone that captures it from the
    /// other joins a chain (no ko), and the retake captures everything.
    ///
    /// Or (nakade) one attacker stone m is not safe, and every other
    /// vertex of Q is next to it (the three in a row or bent, the pyramid
    /// four and the cross five with the attacker on the vital point). m is
    /// a lone stone in Q (a stone next to a safe one would be safe). While
    /// m stands, every vertex of Q touches it, so none is an eye; the
    /// attacker fills the vertices outside Q as before (a fill next to m
    /// makes it safe, and then Q is empty). To capture m the defender must
    /// fill every empty vertex of Q but m, which leaves one eye's worth,
    /// and the capturing stone joins one of its chains (no ko). Once the
    /// vertices outside Q are filled, m and the defender share Q's empty
    /// vertices as their only liberties: the attacker plays them next to
    /// m, and a capture of its stones leaves a smaller shape of the same
    /// kind around m (or one vertex), where the attacker plays m again.
    ///
    /// In both, stones are only added until a capture that shrinks the
    /// defender's room, so the line repeats no position of its own.
    pub fn walled_in(&self, s: &State) -> bool {
        let (g, e) = (self.g, self.e);
        if s.ko != NO_KO {
            return false;
        }
        let safe = e.flood(s.att, s.att & g.wall);
        let q = g.full() & !(g.wall | safe | e.nbrs(safe));
        let loose = s.att & !safe;
        if loose != 0 {
            // One loose stone (always in Q) next to every other vertex.
            return self.nakade && loose & (loose - 1) == 0 && q & !(loose | e.nbrs(loose)) == 0;
        }
        match q.count_ones() {
            0 | 1 => true,
            2 => e.nbrs(q & q.wrapping_neg()) & q != 0,
            _ => false,
        }
    }

    /// The defender's fills of a dead liberty (the main search's rule,
    /// `Dfpn::fills_dead_liberty`, on the graph): empty vertices of
    /// `empty` with no empty neighbour, whose neighbours are stones of one
    /// defender chain and attacker stones in chains that touch the wall,
    /// at least one defender stone among them, and no vertex of a crucial
    /// chain. The pass, always searched, does at least as well.
    fn dead_liberties(&self, s: &State, empty: u32) -> u32 {
        let (g, e) = (self.g, self.e);
        let mut cand = empty & !e.nbrs(empty) & e.nbrs(s.def);
        if cand == 0 {
            return 0;
        }
        for &c in &g.crucial {
            cand &= !c;
        }
        let safe = e.flood(s.att, s.att & g.wall);
        let mut dead = 0;
        while cand != 0 {
            let v = cand.trailing_zeros() as usize;
            cand &= cand - 1;
            let nb = g.adj[v];
            if nb & s.att & !safe != 0 {
                continue;
            }
            let own = nb & s.def;
            let chain = e.component(s.def, own.trailing_zeros() as usize);
            if own & !chain == 0 {
                dead |= 1 << v;
            }
        }
        dead
    }

    fn search(&mut self, s: State) -> Verdict {
        if let Some(&v) = self.memo.get(&s) {
            return v;
        }
        self.nodes += 1;
        if self.nodes > self.limit {
            self.aborted = true;
        }
        if self.aborted {
            return Verdict {
                defender_wins: false,
                clean: false,
            };
        }
        let empty_all = self.g.full() & !(s.att | s.def);
        let near = self.near(&s, empty_all);
        if self.may_be_benson_alive(near) && self.benson(&s) {
            let v = Verdict {
                defender_wins: true,
                clean: true,
            };
            self.memo.insert(s, v);
            return v;
        }
        if self.walled && self.walled_in(&s) {
            let v = Verdict {
                defender_wins: false,
                clean: true,
            };
            self.memo.insert(s, v);
            return v;
        }
        let mover_is_def = s.def_to_move;
        let mut acc = Children {
            result: None,
            unclean_win: false,
            all_clean: s.ko == NO_KO,
        };
        // First every legal move's child is looked up in the memo (a clean
        // win found there ends the search without descending: enhanced
        // transposition cutoffs), then the children the memo does not hold
        // are searched: the points next to the crucial chains before the
        // others, and within each group the moves that won most often
        // before (the history heuristic), then the lower vertex.
        let base = self.kids.len();
        let dead = if self.dead && mover_is_def && !self.strict && s.ko == NO_KO {
            self.dead_liberties(&s, empty_all)
        } else {
            0
        };
        self.dropped += (dead != 0) as u64;
        let mut order = [near & !dead, empty_all & !near & !dead];
        for (k, moves) in order.iter_mut().enumerate() {
            while acc.result.is_none() && *moves != 0 {
                let v = moves.trailing_zeros() as usize;
                *moves &= *moves - 1;
                let Some(child) = self.play(&s, v) else {
                    continue;
                };
                // A repeated position has the same side to move: only
                // the line's positions with it are looked at.
                if self.stack[child.def_to_move as usize].contains(&(child.att, child.def)) {
                    // Banned by the repetition rule: the result now
                    // depends on the line.
                    acc.all_clean = false;
                    continue;
                }
                if self.crucial_gone(child.def) {
                    let r = Verdict {
                        defender_wins: false,
                        clean: true,
                    };
                    acc.add(r, mover_is_def);
                } else if let Some(&r) = self.memo.get(&child) {
                    acc.add(r, mover_is_def);
                } else {
                    // The order key, sorted from the largest: the bit
                    // for the points next to the crucial chains, the
                    // history score, and 31 - v, so that of equal scores
                    // the lower vertex comes first.
                    let score = ((k == 0) as u32) << 25 | self.history[mover_is_def as usize][v];
                    self.kids.push((score << 5 | (31 - v) as u32, child));
                }
            }
        }
        if acc.result.is_none() {
            self.kids[base..].sort_unstable_by_key(|k| std::cmp::Reverse(k.0));
        }
        for i in base..self.kids.len() {
            let (key, child) = self.kids[i];
            // Out of positions: the verdict is thrown away, so the moves
            // left need not be tried.
            if acc.result.is_some() || self.aborted {
                break;
            }
            let side = child.def_to_move as usize;
            self.stack[side].push((child.att, child.def));
            let r = self.search(child);
            self.stack[side].pop();
            acc.add(r, mover_is_def);
            if acc.result.is_some() {
                let h = &mut self.history[mover_is_def as usize][31 - (key & 31) as usize];
                *h = (*h + 1).min(HISTORY_MAX);
            }
        }
        self.kids.truncate(base);
        if acc.result.is_none() && !self.aborted {
            // The pass.
            let r = if s.pass_ends {
                Verdict {
                    defender_wins: !self.strict,
                    clean: true,
                }
            } else {
                let child = State {
                    att: s.att,
                    def: s.def,
                    ko: NO_KO,
                    def_to_move: !s.def_to_move,
                    pass_ends: s.ko == NO_KO,
                };
                self.search(child)
            };
            acc.add(r, mover_is_def);
        }
        let v = match acc.result {
            Some(v) => v,
            None if acc.unclean_win => Verdict {
                defender_wins: mover_is_def,
                clean: false,
            },
            None => Verdict {
                defender_wins: !mover_is_def,
                clean: acc.all_clean,
            },
        };
        if !self.aborted {
            self.memo.insert(s, v);
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    /// The neighbours of a set and the component of a vertex, vertex by
    /// vertex as the definition says.
    fn plain_nbrs(g: &Graph, set: u32) -> u32 {
        (0..g.n)
            .filter(|&v| set >> v & 1 == 1)
            .fold(0, |m, v| m | g.adj(v))
    }

    fn plain_component(g: &Graph, within: u32, v: usize) -> u32 {
        let mut comp = 1u32 << v;
        loop {
            let grown = comp | plain_nbrs(g, comp) & within;
            if grown == comp {
                return comp;
            }
            comp = grown;
        }
    }

    #[test]
    fn the_neighbour_tables_agree_with_the_edges() {
        let mut rng = SmallRng::seed_from_u64(7);
        let mut tables = 0;
        for n in 1..=MAX_V {
            let mut g = Graph::new(n);
            for round in 0..3 {
                // Edges added after a game was set up make new tables.
                for _ in 0..n + round * 4 {
                    g.connect(rng.random_range(0..n), rng.random_range(0..n));
                }
                let e = g.edges();
                tables += e.by_byte.is_some() as usize;
                assert_eq!(e.by_byte.is_some(), n <= BY_BYTE_MAX);
                assert_eq!(e.wide, n > BY_TWO_BYTES_MAX);
                let full = g.full();
                for _ in 0..200 {
                    let set = rng.random::<u32>() & full;
                    assert_eq!(e.nbrs(set), plain_nbrs(&g, set), "n {n} set {set:b}");
                    let within = rng.random::<u32>() & full;
                    let v = rng.random_range(0..n);
                    assert_eq!(
                        e.component(within, v),
                        plain_component(&g, within, v),
                        "n {n} within {within:b} v {v}"
                    );
                }
            }
        }
        assert_eq!(tables, 3 * BY_BYTE_MAX);
    }

    /// A chain `b` (vertex 0) around an eye space of `eye` vertices in a
    /// line (1..=eye, each next to the chain) and `libs` outside
    /// liberties next to the wall.
    fn eye_line(eye: usize, libs: usize) -> Graph {
        let mut g = Graph::new(1 + eye + libs);
        for i in 1..=eye {
            g.connect(0, i);
            if i > 1 {
                g.connect(i - 1, i);
            }
        }
        for j in 0..libs {
            let v = 1 + eye + j;
            g.connect(0, v);
            g.wall |= 1 << v;
        }
        g.crucial = vec![1];
        g
    }

    fn verdict(g: &Graph, att: u32, def_to_move: bool, strict: bool) -> Verdict {
        Solver::new(g, strict, 1_000_000)
            .solve(State::new(att, 1, def_to_move))
            .expect("small games finish")
    }

    /// The cheap test before Benson's never hides a life Benson's test
    /// finds: random positions on a 5x4 grid whose bottom row touches the
    /// wall, with one or two crucial chains.
    #[test]
    fn the_precheck_never_hides_a_benson_life() {
        use rand::{RngExt, SeedableRng};
        let (w, h) = (5, 4);
        let mut g = Graph::new(w * h);
        for y in 0..h {
            for x in 0..w {
                let v = y * w + x;
                if x + 1 < w {
                    g.connect(v, v + 1);
                }
                if y + 1 < h {
                    g.connect(v, v + w);
                }
                if y == 0 {
                    g.wall |= 1 << v;
                }
            }
        }
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        let (mut alive, mut cut) = (0, 0);
        for i in 0..20_000 {
            g.crucial = if i % 2 == 0 {
                vec![1 << 12]
            } else {
                vec![1 << 11, 1 << 18]
            };
            let (mut att, mut def) = (0u32, 0u32);
            for v in 0..w * h {
                match rng.random_range(0..10) {
                    0..=1 => att |= 1 << v,
                    2..=6 => def |= 1 << v,
                    _ => {}
                }
            }
            let s = State::new(att, def, false);
            let solver = Solver::new(&g, false, 1);
            let near = solver.near(&s, g.full() & !(att | def));
            if solver.benson(&s) {
                alive += 1;
                assert!(solver.may_be_benson_alive(near), "{s:?}");
            } else if !solver.may_be_benson_alive(near) {
                cut += 1;
            }
        }
        // Both cases occur, so the test can fail.
        assert!(alive > 100 && cut > 100, "alive {alive}, cut {cut}");
    }

    #[test]
    fn straight_three_lives_with_the_first_move_and_dies_without() {
        let g = eye_line(3, 2);
        let d = verdict(&g, 0, true, false);
        assert!(d.defender_wins && d.clean);
        let a = verdict(&g, 0, false, false);
        assert!(!a.defender_wins && a.clean);
        // The vital point taken by the attacker: dead either way.
        let a = verdict(&g, 1 << 2, true, false);
        assert!(!a.defender_wins && a.clean);
    }

    #[test]
    fn straight_four_lives_whoever_moves() {
        let g = eye_line(4, 0);
        for def_first in [true, false] {
            let v = verdict(&g, 0, def_first, false);
            assert!(v.defender_wins && v.clean, "defender first {def_first}");
            let v = verdict(&g, 0, def_first, true);
            assert!(
                v.defender_wins && v.clean,
                "strict, defender first {def_first}"
            );
        }
    }

    /// A memo carried from game to game on one graph changes no clean
    /// verdict: every position of a small game, solved in turn with one
    /// memo, against a fresh solver each.
    #[test]
    fn a_shared_memo_changes_no_clean_verdict() {
        let g = eye_line(4, 2);
        for strict in [false, true] {
            let mut memo = AHashMap::new();
            let mut compared = 0;
            for att in 0u32..1 << 6 {
                let att = att << 1;
                for def_to_move in [false, true] {
                    let s = State::new(att, 1, def_to_move);
                    let fresh = Solver::new(&g, strict, 1_000_000).solve(s);
                    let mut shared = Solver::with_memo(&g, strict, 1_000_000, memo);
                    let carried = shared.solve(s);
                    memo = shared.into_memo();
                    let (Some(f), Some(c)) = (fresh, carried) else {
                        panic!("small games finish");
                    };
                    if f.clean && c.clean {
                        assert_eq!(f, c, "stones {att:b}, defender first {def_to_move}");
                        compared += 1;
                    }
                }
            }
            assert!(compared > 50, "compared {compared}");
        }
    }

    /// A 3 x 5 grid whose top row (vertices 0-4) touches the wall, with
    /// the crucial chain at vertex 12 (bottom row, middle).
    fn grid_3x5() -> Graph {
        let mut g = Graph::new(15);
        for v in 0..15 {
            if v % 5 != 4 {
                g.connect(v, v + 1);
            }
            if v + 5 < 15 {
                g.connect(v, v + 5);
            }
        }
        g.wall = 0b11111;
        g.crucial = vec![1 << 12];
        g
    }

    /// A position of random play on `g` (captures, kos and repetitions
    /// come up) with at most `target` empty vertices (or after 200 tries),
    /// the crucial vertex 12 standing, the defender playing a share
    /// `def_share` of the moves, either side to move and no ko ban.
    fn random_position(
        g: &Graph,
        rng: &mut SmallRng,
        strict: bool,
        target: u32,
        def_share: f64,
    ) -> State {
        let mut s = State::new(0, 1 << 12, false);
        for _ in 0..200 {
            let empty = g.full() & !(s.att | s.def);
            if empty.count_ones() <= target {
                break;
            }
            s.def_to_move = rng.random_bool(def_share);
            let v = rng.random_range(0..15);
            if let Some(next) = Solver::new(g, strict, 1).play(&s, v)
                && next.def & 1 << 12 != 0
            {
                s = State {
                    ko: NO_KO,
                    def_to_move: rng.random_bool(0.5),
                    ..next
                };
            }
        }
        s
    }

    /// The history scores order the moves only: games started from
    /// arbitrary scores (and carrying them on, with the memo, from game to
    /// game, as the region game does) give every clean verdict a game
    /// from scratch gives. Positions from random play on a 3 x 5 grid
    /// whose top row touches the wall (captures, kos and repetitions
    /// come up), with 5 to 7 empty vertices and either side to move.
    /// It also needs the repetition rule: without it a game here cycles
    /// until the stack overflows (checked).
    #[test]
    fn a_carried_history_changes_no_clean_verdict() {
        let mut rng = SmallRng::seed_from_u64(7);
        let g = grid_3x5();
        let mut compared = [0; 2];
        for strict in [false, true] {
            let mut memo = AHashMap::new();
            let mut history = NO_HISTORY;
            for _ in 0..300 {
                let target = rng.random_range(5..=7);
                // The defender plays two moves in three, so that it lives
                // in a fair share of the positions.
                let s = random_position(&g, &mut rng, strict, target, 2.0 / 3.0);
                let fresh = Solver::new(&g, strict, 1_000_000).solve(s);
                let mut random = Solver::new(&g, strict, 1_000_000);
                let mut scores = NO_HISTORY;
                for h in scores.iter_mut().flatten() {
                    *h = rng.random_range(0..HISTORY_MAX);
                }
                random.set_history(scores);
                let shuffled = random.solve(s);
                let mut shared = Solver::with_memo(&g, strict, 1_000_000, memo);
                shared.set_history(history);
                let carried = shared.solve(s);
                history = shared.history();
                memo = shared.into_memo();
                let (Some(f), Some(r), Some(c)) = (fresh, shuffled, carried) else {
                    panic!("small games finish");
                };
                for other in [r, c] {
                    if f.clean && other.clean {
                        assert_eq!(f, other, "{s:?}, strict {strict}");
                        compared[f.defender_wins as usize] += 1;
                    }
                }
            }
            assert!(history.iter().flatten().any(|&h| h > 0), "no move scored");
        }
        assert!(compared.iter().all(|&c| c > 100), "compared {compared:?}");
    }

    /// A game on `g` that does not use the walled-in kill finds the
    /// attacker's clean win from `s`.
    fn assert_attacker_wins_without_the_rule(g: &Graph, strict: bool, s: State) {
        let mut plain = Solver::new(g, strict, 1_000_000);
        plain.walled = false;
        let v = plain.solve(s).expect("small games finish");
        assert!(!v.defender_wins && v.clean, "{s:?}, strict {strict}: {v:?}");
    }

    /// The walled-in kill agrees with the search without it: positions
    /// from random play on a 3 x 5 grid whose top row touches the wall
    /// (as in the test above), either side to move, each one the rule
    /// calls dead solved by a game that does not use the rule, which must
    /// find the attacker's win, and clean. It fails if two vertices that
    /// are not adjacent count as one eye's worth (checked).
    #[test]
    fn the_walled_in_kill_agrees_with_the_search() {
        let mut rng = SmallRng::seed_from_u64(11);
        let g = grid_3x5();
        let (mut held, mut not_held) = (0, 0);
        for strict in [false, true] {
            for _ in 0..3000 {
                let target = rng.random_range(2..=7);
                let s = random_position(&g, &mut rng, strict, target, 0.5);
                let rule = Solver::new(&g, strict, 1_000_000);
                if !rule.walled_in(&s) {
                    not_held += 1;
                    continue;
                }
                held += 1;
                assert_attacker_wins_without_the_rule(&g, strict, s);
            }
        }
        assert!(held > 200 && not_held > 200, "held {held}, not {not_held}");
    }

    /// Dropping the defender's fills of a dead liberty changes no
    /// clean verdict: positions from random play on the 3 x 5 grid (as
    /// above), either side to move, solved with the rule and without it:
    /// a clean verdict with the rule has the winner of the verdict
    /// without it, and a verdict clean without the rule is the same with
    /// it. (Verdicts that are not clean may differ: a repetition ban can
    /// fall on a line after the pass and not after the fill.) It fails if
    /// the rule also drops a fill next to an attacker stone that is not
    /// safe (checked).
    #[test]
    fn dropping_dead_liberty_fills_changes_no_verdict() {
        let mut rng = SmallRng::seed_from_u64(13);
        let g = grid_3x5();
        let (mut fired, mut compared) = (0, 0);
        for i in 0..6000 {
            let target = rng.random_range(1..=7);
            let s = random_position(&g, &mut rng, false, target, [0.4, 0.6, 0.8][i % 3]);
            let mut rule = Solver::new(&g, false, 1_000_000);
            let v = rule.solve(s).expect("small games finish");
            if rule.dropped == 0 {
                continue;
            }
            fired += 1;
            let mut plain = Solver::new(&g, false, 1_000_000);
            plain.dead = false;
            let p = plain.solve(s).expect("small games finish");
            if v.clean {
                assert_eq!(v.defender_wins, p.defender_wins, "{s:?}: {v:?} {p:?}");
                compared += 1;
            }
            if p.clean {
                assert_eq!(v, p, "{s:?}");
            }
        }
        assert!(
            fired > 300 && compared > 300,
            "fired {fired}, compared {compared}"
        );
    }

    /// The nakade case of the walled-in kill agrees with the search
    /// without the rule: positions from random play on the 3 x 5 grid
    /// (as above) that the rule calls dead only through the nakade case,
    /// either side to move, each solved by a game without the rule, which
    /// must find the attacker's clean win. It fails if the loose stone
    /// need not touch every other vertex of Q (checked).
    #[test]
    fn the_walled_in_nakade_agrees_with_the_search() {
        let mut rng = SmallRng::seed_from_u64(12);
        let g = grid_3x5();
        let mut held = 0;
        for strict in [false, true] {
            for _ in 0..20000 {
                let target = rng.random_range(2..=8);
                let def_share = rng.random_range(0.4..0.8);
                let s = random_position(&g, &mut rng, strict, target, def_share);
                let rule = Solver::new(&g, strict, 1_000_000);
                let mut first_case = Solver::new(&g, strict, 1_000_000);
                first_case.nakade = false;
                if !rule.walled_in(&s) || first_case.walled_in(&s) {
                    continue;
                }
                held += 1;
                assert_attacker_wins_without_the_rule(&g, strict, s);
            }
        }
        assert!(held > 200, "held {held}");
    }
}
