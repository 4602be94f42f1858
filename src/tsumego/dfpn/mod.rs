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

mod expand;
mod mid;
mod statics;
mod table;

pub use table::TransTable;

use ahash::AHashMap;
use std::time::Instant;

use super::benson::Benson;
use super::eyes::statics::{Known, Statics};
use super::order::{self, NF, OrderWeights, PASS_FEATURE};
use super::region::{Problem, RegionMasks};
use crate::rules::board::Ko;
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
/// Salt of [`Dfpn::held_key`].
const HELD_KEY: u64 = 0x3c6e_f372_fe94_f82b;

/// What a move that recreates a position of the current line (stones and
/// side to move) does. The simple-ko ban (no immediate recapture of one
/// stone) holds in both.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    serde::Serialize,
    serde::Deserialize,
    clap::ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum Repetition {
    /// Positional superko: the move is illegal for either side (our rules,
    /// the default).
    #[default]
    Superko,
    /// Simple ko only, as GoTools' files and the brute force of
    /// `gotools-check.py` read: only the immediate recapture of a ko is
    /// banned (so a ko may be retaken after a pass), and a move of either
    /// side that recreates a whole state of the line (stones, side to move,
    /// ko ban, a pass just made) ends the problem in the defender's favour:
    /// the cycle could go on for ever, so the attacker has not killed (an
    /// attacker that can win has a way without cycles). The seki test
    /// keeps superko (a life that rests on a cycle is not unconditional).
    SimpleKo,
}

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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
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
    /// Positions decided by the static evaluation (`eyes`).
    pub statics: u64,
    /// Positions searched by the static evaluation's local games (not
    /// cached yet when met).
    pub static_work: u64,
    /// Static verdicts checked against a search without them
    /// ([`StaticCheck`]), those the search left unsettled, and those it
    /// contradicted.
    pub checked: u64,
    pub check_unknown: u64,
    pub contradictions: u64,
    /// Of the checked verdicts, those of the region game (`eyes`).
    pub checked_region: u64,
    /// Of the checked verdicts, those of the walled-in test (each
    /// checked with both sides moving first).
    pub checked_walled_in: u64,
    /// Expansions whose child was found in the transposition table.
    pub tt_hits: u64,
    /// Defender moves dropped as fills of a dead liberty (the pass does
    /// at least as well).
    pub dead_fills: u64,
    /// Static verdicts of the local games found when a position was
    /// visited ([`Dfpn::with_lazy_games`]).
    pub visit_verdicts: u64,
    /// Children of the seki test started from the plain search's result
    /// as a hint: a life there that may be a seki, tried first.
    pub strict_hints: u64,
}

impl std::ops::AddAssign for Counters {
    fn add_assign(&mut self, o: Counters) {
        self.leaves += o.leaves;
        self.terminals += o.terminals;
        self.nodes += o.nodes;
        self.statics += o.statics;
        self.static_work += o.static_work;
        self.checked += o.checked;
        self.check_unknown += o.check_unknown;
        self.contradictions += o.contradictions;
        self.checked_region += o.checked_region;
        self.checked_walled_in += o.checked_walled_in;
        self.tt_hits += o.tt_hits;
        self.dead_fills += o.dead_fills;
        self.visit_verdicts += o.visit_verdicts;
        self.strict_hints += o.strict_hints;
    }
}

/// The check mode of the static verdicts: every verdict of the static
/// evaluation or the walled-in test whose position key is a multiple of
/// `every` is compared with a search without that test, limited to
/// `max_nodes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StaticCheck {
    pub every: u64,
    pub max_nodes: u64,
}

/// Node and time budget of one solve.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_nodes: u64,
    pub deadline: Option<Instant>,
}

impl Limits {
    /// A node limit and no deadline.
    pub fn nodes(max_nodes: u64) -> Limits {
        Limits {
            max_nodes,
            deadline: None,
        }
    }
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
    /// The proof or disproof holds whatever the threat counts: no ko ban
    /// met below it could have been lifted or imposed by a threat.
    ko_free: bool,
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
    /// See [`Entry::ko_free`].
    ko_free: bool,
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
    /// See [`Entry::ko_free`] (a terminal child is).
    ko_free: bool,
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
            ko_free: winner.is_some(),
        }
    }
}

/// A scored move of an expansion: (score, child, self-atari of 2+
/// stones capturing nothing, fills own eye, region index).
type Scored = (f64, Child, bool, bool, usize);

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
    tt: TransTable,
    path: Vec<u64>,
    /// Start of the part of `path` that a move may not repeat: a ko
    /// recapture paid for with an external threat puts the threat and its
    /// answer on the board, so no earlier position can recur after it.
    floor: usize,
    boards: Vec<Board>,
    /// The region's empty points and stones on `boards[d]` as bit sets
    /// (when the problem has them, [`Problem::bits`]; otherwise unused),
    /// kept up to date by [`Dfpn::play_into`].
    masks: Vec<RegionMasks>,
    /// The region points next to an attacker stone outside the region
    /// (with [`Problem::bits`]; the outside never changes in a search).
    attacker_out: u64,
    /// The board slots a line of the search can change ([`play_window`]):
    /// a child's board is copied from its parent's in this window only.
    window: std::ops::Range<usize>,
    /// The problem's position with the region's empty points last in the
    /// board's empty-point list ([`Board::empties_last`]): every board of
    /// the path derives from it, so the list's first `list_from` places
    /// are the same on all of them and a child's copy skips them.
    root: Board,
    list_from: usize,
    /// Set while the terminal test and the static evaluation look at a
    /// child made by an attacker stone that captured nothing.
    fill_hint: Option<Fill>,
    benson: Benson,
    counters: Counters,
    aborted: bool,
    ko_seen: bool,
    counting: bool,
    /// One stone of each crucial chain.
    crucial: Vec<Point>,
    heads: Vec<Point>,
    /// The last expansion's scored moves (cleared when taken again): its
    /// capacity serves the next expansion.
    scored: Vec<Scored>,
    /// Child lists of nodes that have returned (cleared when taken
    /// again): an expansion takes one and its node gives it back on
    /// return, so the stack holds about one list per depth reached and
    /// expansions do not allocate.
    kid_pool: Vec<Vec<Child>>,
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
    /// [`Dfpn::walled_in`] applies. For a framed problem with exits, this
    /// holds of a position only once it is sealed ([`Dfpn::closed_at`]).
    closed: bool,
    /// A framed problem with exits whose frame closes the region: a
    /// position in which the defender can no longer reach an exit is
    /// closed ([`Dfpn::sealed`]).
    framed: bool,
    /// Scratch of [`Dfpn::sealed`]: visit marks by point, and the stack.
    seal_mark: Vec<u32>,
    seal_gen: u32,
    seal_stack: Vec<Point>,
    /// Use [`Dfpn::walled_in`] as a terminal test (tests turn it off to
    /// check it against the search).
    static_death: bool,
    /// Count attacker chains connected to a safe chain by miai as safe
    /// in the walled-in test.
    virtual_safety: bool,
    /// Drop the defender's fills of a dead liberty
    /// ([`Dfpn::fills_dead_liberty`]; tests turn it off to check it).
    dead_fills: bool,
    /// Run the static evaluation's local games on a position when it is
    /// first visited, not when its parent is expanded
    /// ([`Dfpn::with_lazy_games`]).
    lazy_games: bool,
    /// Let the walled-in test's Q hold one lone attacker stone next to
    /// every other point of Q (a nakade on its vital point).
    nakade: bool,
    /// Benson's answer, the terminal test's, the static evaluation's and
    /// the heuristic distances, by position hash (direct-mapped, a power
    /// of two of slots, grown by [`Dfpn::grow_pos_cache`]).
    pos_cache: Vec<PosEntry>,
    /// Positions that took a slot of `pos_cache` since it last grew.
    pos_taken: usize,
    /// The static evaluation of `eyes` (tests turn it off to check it
    /// against the search).
    use_statics: bool,
    statics: Statics,
    check: Option<StaticCheck>,
    repetition: Repetition,
    /// By depth: the ko recapture that positional superko still bans
    /// because only passes followed the capture (the simple-ko ban lapses
    /// with a pass, but retaking would recreate the position before the
    /// capture). Part of the key, so that lines with and without the ban
    /// never share an entry (see [`Dfpn::held_key`]); a result that rests
    /// on the ban still stays the path's.
    held: Vec<Option<Ko>>,
}

/// A child made by an attacker stone that captured nothing, and what was
/// known of its parent: the tests that gave nothing there may skip the
/// work the stone cannot change ([`Benson::fill_keeps_dead`],
/// `Statics::fill_keeps_no_area_verdict`).
#[derive(Clone, Copy)]
pub(super) struct Fill {
    /// The child's depth.
    pub(super) depth: usize,
    /// The stone.
    pub(super) p: Point,
    /// Benson's test kept no crucial chain alive in the parent.
    pub(super) benson_dead: bool,
    /// The eye-space rule gave no verdict in the parent.
    pub(super) no_area_verdict: bool,
}

/// What the terminal tests found for one position (stones only): one
/// cache line holds them all, so a lookup costs one memory access.
#[derive(Clone, Copy, Default)]
struct PosEntry {
    key: u64,
    /// Benson: 0 not known yet, 1 no crucial chain alive, 2 one is.
    benson: u8,
    /// The static evaluation by side to move (`Color::index`): 0 not known
    /// yet, 1 defender (may be seki), 2 defender (unconditional), 3
    /// attacker, 4 no verdict, 5 no verdict without the local games (not
    /// run yet: [`Dfpn::with_lazy_games`]).
    statics: [u8; 2],
    /// [`Dfpn::closed_at`]: 0 not known yet, 1 open, 2 closed.
    closed: u8,
    /// [`Dfpn::terminal`] without two passes: 0 not known yet, 1 not
    /// terminal, 2 the attacker wins, 3 the defender wins.
    terminal: u8,
    /// [`Dfpn::distances`] plus one (0: not known yet), attacker's and
    /// defender's.
    distances: [u8; 2],
}

/// What one search's terminal tests and static evaluation found, handed
/// to the next search of the same problem ([`Dfpn::take_static_cache`]).
pub struct StaticCache {
    made_for: StaticRules,
    pos_cache: Vec<PosEntry>,
    pos_taken: usize,
    statics: Statics,
}

/// See [`Dfpn::static_rules`].
#[derive(Clone, Copy, PartialEq, Eq)]
struct StaticRules {
    /// The problem: its stones' hash, its region's size and its crucial
    /// points.
    prob: (u64, usize, u64),
    level: u8,
    strict: bool,
    repetition: Repetition,
    switches: [bool; 6],
    region: crate::tsumego::eyes::RegionCaps,
}

thread_local! {
    /// The largest position cache a search on this thread has dropped,
    /// for the next search to reuse ([`pooled_pos_cache`]).
    static POS_POOL: std::cell::RefCell<Vec<PosEntry>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// An empty position cache of [`POS_CACHE_MIN`] slots, in the memory of
/// the largest one dropped on this thread if there is one: a long search
/// grows its cache to 32 MiB, and memory fresh from the system costs a
/// page fault a page when first written (3% of a 4-second search's time,
/// in the kernel zeroing pages, before this), where reused memory costs
/// only the clearing of the slots taken into use.
fn pooled_pos_cache() -> Vec<PosEntry> {
    let mut v = POS_POOL.with(|p| std::mem::take(&mut *p.borrow_mut()));
    v.clear();
    v.resize(POS_CACHE_MIN, PosEntry::default());
    v
}

/// Keeps `v`'s memory for the next search on this thread if it is the
/// largest dropped so far.
fn pool_pos_cache(v: Vec<PosEntry>) {
    // A panic unwinding through a drop may find the thread's storage gone.
    let _ = POS_POOL.try_with(|p| {
        if let Ok(mut p) = p.try_borrow_mut()
            && v.capacity() > p.capacity()
        {
            *p = v;
        }
    });
}

impl Drop for Dfpn<'_> {
    fn drop(&mut self) {
        pool_pos_cache(std::mem::take(&mut self.pos_cache));
    }
}

impl Drop for StaticCache {
    fn drop(&mut self) {
        pool_pos_cache(std::mem::take(&mut self.pos_cache));
    }
}

/// Slots of the position cache at the start of a search (1 MiB).
const POS_CACHE_MIN: usize = 1 << 16;
/// The most slots the position cache grows to (32 MiB).
const POS_CACHE_MAX: usize = 1 << 21;
/// Keeps an empty board's hash (0) from matching the cache's empty slots.
const BENSON_SALT: u64 = 0x6a09_e667_f3bc_c909;

/// Table entries kept before the table is cleared (about 32 MiB).
const TT_CAP: usize = 1 << 20;

/// The board slots that moves inside the problem's region can change:
/// the region's points (stones are placed and captured there only: a move
/// that would capture outside it is never played), their neighbours
/// (whose neighbour counts follow), and every stone of a chain in or next
/// to the region (a merge may rename any of its stones' heads, and a
/// chain's liberties and size live at its head). Chains farther away are
/// never touched. As a range of slot indices, from the lowest to the
/// highest of those.
fn play_window(prob: &Problem) -> std::ops::Range<usize> {
    let b = &prob.board;
    let (mut lo, mut hi) = (usize::MAX, 0);
    let mut take = |p: Point| {
        lo = lo.min(p.idx());
        hi = hi.max(p.idx());
    };
    for &p in &prob.region {
        take(p);
        for q in std::iter::once(p).chain(b.neighbors(p)) {
            take(q);
            if b.cell(q).color().is_some() {
                b.chain_stones(q).for_each(&mut take);
            }
        }
    }
    if lo > hi { 0..0 } else { lo..hi + 1 }
}

impl<'a> Dfpn<'a> {
    pub fn new(
        prob: &'a Problem,
        w: &'a OrderWeights,
        level: u8,
        regime: Regime,
        limits: Limits,
    ) -> Dfpn<'a> {
        let walled = Self::is_closed(prob);
        let mut root = prob.board.clone();
        let list_from = root.empties_last(|p| prob.in_region(p));
        Dfpn {
            prob,
            w,
            level: level.clamp(1, 5),
            regime,
            limits,
            tt: TransTable::default(),
            path: Vec::new(),
            floor: 0,
            masks: vec![prob.masks(&root)],
            attacker_out: prob.bits.as_ref().map_or(0, |bits| {
                bits.next_to_outside(&prob.region, &root, prob.attacker())
            }),
            boards: vec![root.clone()],
            window: play_window(prob),
            root,
            list_from,
            fill_hint: None,
            benson: Benson::default(),
            counters: Counters::default(),
            aborted: false,
            ko_seen: false,
            counting: true,
            crucial: prob.crucial_points(),
            heads: Vec::new(),
            scored: Vec::new(),
            kid_pool: Vec::new(),
            per_move: Vec::new(),
            wins: vec![[0; 2]; MAX_POINTS],
            history: vec![[0; 2]; MAX_POINTS],
            killers: Vec::new(),
            root_best: None,
            feat: [0.0; NF],
            // A framed problem's region is closed by the frame, but its
            // defender may escape: the tests for closed regions wait until
            // it no longer can.
            closed: walled && !prob.is_open(),
            framed: walled && prob.is_open(),
            seal_mark: vec![0; MAX_POINTS],
            seal_gen: 0,
            seal_stack: Vec::new(),
            static_death: true,
            virtual_safety: true,
            dead_fills: true,
            lazy_games: false,
            nakade: true,
            pos_cache: pooled_pos_cache(),
            pos_taken: 0,
            use_statics: true,
            statics: Statics::with_region_caps(w.region),
            check: None,
            repetition: Repetition::Superko,
            held: vec![None],
        }
    }

    /// The repetition rule ([`Repetition`]; superko by default).
    pub fn with_repetition(mut self, repetition: Repetition) -> Self {
        self.repetition = repetition;
        self
    }

    /// Simple ko, outside the seki test: a move that recreates a state of
    /// the line wins for the defender ([`Repetition::SimpleKo`]).
    fn cycles_win(&self) -> bool {
        self.repetition == Repetition::SimpleKo && !self.regime.strict
    }

    /// What the path holds for a position: under superko the stones and
    /// the side to move; under simple ko the whole state (the key with the
    /// ko ban, and whether a pass was just made).
    fn rep_of(&self, b: &Board, to_move: Color, last_pass: bool) -> u64 {
        if self.cycles_win() {
            b.key(to_move) ^ if last_pass { PASS_KEY } else { 0 }
        } else {
            Self::rep_key(b, to_move)
        }
    }

    /// Checks a sample of the static verdicts against a search without
    /// them ([`StaticCheck`]).
    pub fn with_check(mut self, check: Option<StaticCheck>) -> Self {
        self.check = check;
        self
    }

    /// Turns the static evaluation of `eyes` off (tests check it against
    /// the search).
    pub fn without_statics(mut self) -> Self {
        self.use_statics = false;
        self
    }

    /// Starts from the table of earlier searches of the same problem.
    pub fn with_table(mut self, tt: TransTable) -> Self {
        self.tt = tt;
        self
    }

    /// The table, for the next search of the same problem.
    pub fn take_table(&mut self) -> TransTable {
        std::mem::take(&mut self.tt)
    }

    /// Starts from the position cache and the local games' memos of an
    /// earlier search of the same problem ([`Dfpn::take_static_cache`]),
    /// so that this search does not evaluate again the positions that one
    /// met. What they hold depends on the position alone under the rules
    /// and switches they were made with, so a cache made under others
    /// (another regime's strictness, level, weights or test switch) is
    /// dropped: the search then starts afresh.
    pub fn with_static_cache(mut self, mut cache: StaticCache) -> Self {
        if cache.made_for == self.static_rules() {
            // This search's own (fresh) cache goes back to the pool.
            std::mem::swap(&mut self.pos_cache, &mut cache.pos_cache);
            self.pos_taken = cache.pos_taken;
            self.statics = std::mem::take(&mut cache.statics);
        }
        self
    }

    /// The position cache and the local games' memos, for the next search
    /// of the same problem ([`Dfpn::with_static_cache`]).
    pub fn take_static_cache(&mut self) -> StaticCache {
        StaticCache {
            made_for: self.static_rules(),
            // A search that goes on after this keeps a cache of one slot.
            pos_cache: std::mem::replace(&mut self.pos_cache, vec![PosEntry::default(); 1]),
            pos_taken: std::mem::take(&mut self.pos_taken),
            statics: std::mem::take(&mut self.statics),
        }
    }

    /// Everything besides the position that the position cache's and the
    /// static evaluation's values depend on.
    fn static_rules(&self) -> StaticRules {
        StaticRules {
            prob: (
                self.prob.board.hash(),
                self.prob.region.len(),
                self.crucial
                    .iter()
                    .fold(0, |h, p| h.rotate_left(9) ^ p.idx() as u64),
            ),
            level: self.level,
            strict: self.regime.strict,
            repetition: self.repetition,
            switches: [
                self.use_statics,
                self.static_death,
                self.virtual_safety,
                self.dead_fills,
                self.lazy_games,
                self.nakade,
            ],
            region: self.statics.region_caps,
        }
    }

    /// Turns the walled-in terminal test off (tests check it against the
    /// plain search).
    pub fn without_static_death(mut self) -> Self {
        self.static_death = false;
        self
    }

    /// Runs the local games of the static evaluation (the one-chain and
    /// the region game) on a position when the search first visits it,
    /// instead of on every child when its parent is expanded (the
    /// eye-space rule still runs then). A position they end is a terminal
    /// position, not a node. Fewer positions are evaluated, so a second
    /// of search goes further, but a parent no longer sees a child's
    /// local verdict before choosing, so more nodes are searched: the
    /// solver uses it when a time limit is set (docs/tsumego.md, *Local
    /// games when a position is visited*).
    pub fn with_lazy_games(mut self, on: bool) -> Self {
        self.lazy_games = on;
        self
    }

    /// Keeps the defender's fills of a dead liberty among its moves
    /// (tests check the rule against the search without it).
    pub fn without_dead_fills(mut self) -> Self {
        self.dead_fills = false;
        self
    }

    /// The walled-in test without its miai connections (only chains with
    /// a liberty outside the region count as safe), for tests.
    pub fn without_miai_safety(mut self) -> Self {
        self.virtual_safety = false;
        self
    }

    /// The walled-in test without the nakade case (Q only as small as one
    /// point or two adjacent points, with no attacker stone), for tests.
    pub fn without_nakade(mut self) -> Self {
        self.nakade = false;
        self
    }

    /// The walled-in test (`Dfpn::walled_in`) on the problem's position.
    pub fn walled_in_at_root(&mut self) -> bool {
        self.walled_in_q_at_root().is_some()
    }

    /// The size of Q when the walled-in test holds on the problem's
    /// position (tests).
    pub fn walled_in_q_at_root(&mut self) -> Option<usize> {
        self.reset_root();
        if self.closed_at(0) {
            self.walled_in_q(0)
        } else {
            None
        }
    }

    /// The problem's position at depth 0.
    fn reset_root(&mut self) {
        self.boards[0].copy_from(&self.root);
        self.masks[0] = self.prob.masks(&self.root);
    }

    /// The key component of the ko recapture held banned at `depth` when
    /// the simple-ko ban no longer shows on the board (whoever is to move:
    /// it binds the banned side's next move).
    fn held_key(&self, depth: usize) -> u64 {
        match self.held[depth] {
            Some(k) if self.boards[depth].ko() != Some(k) => {
                zobrist::mix64(self.boards[depth].geometry().ko_key[k.point.idx()] ^ HELD_KEY)
            }
            _ => 0,
        }
    }

    fn rep_key(b: &Board, to_move: Color) -> u64 {
        b.hash() ^ zobrist::side_key(to_move)
    }

    fn tt_key(&self, b: &Board, to_move: Color, last_pass: bool, threats: [u8; 2]) -> u64 {
        let strict = if self.regime.strict { STRICT_KEY } else { 0 };
        b.key(to_move) ^ if last_pass { PASS_KEY } else { 0 } ^ threat_key(threats) ^ strict
    }

    /// Solves with `to_move` to play from the problem's position.
    /// The moves of `to_move` at the root in the order the solver tries
    /// them first: the static scores alone, since nothing is learned yet
    /// (the tuner's static fitness). Pruning applies at levels 2-5.
    pub fn root_order(&mut self, to_move: Color) -> Vec<Move> {
        let (kids, ..) = self.expand(0, to_move, false, None, self.regime.threats);
        kids.iter()
            .map(|k| {
                k.mv.map_or(Move::Pass, |p| Move::Play(self.prob.board.coord(p)))
            })
            .collect()
    }

    pub fn solve(&mut self, to_move: Color) -> Proof {
        self.reset_root();
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
        self.path.push(self.rep_of(&self.boards[0], to_move, false));
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
            ..
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
        // Every child's verdict is needed to read the line back.
        let lazy = std::mem::replace(&mut self.lazy_games, false);
        let mut line = Vec::new();
        let mut c = to_move;
        let mut last_pass = false;
        let mut threats = self.regime.threats;
        self.path.clear();
        self.floor = 0;
        self.path.push(self.rep_of(&self.boards[0], to_move, false));
        let mut depth = 0;
        while line.len() < max_len {
            if depth > 0 && self.terminal(depth, false).is_some() {
                break;
            }
            let (kids, ..) = self.expand(depth, c, last_pass, None, threats);
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
        self.lazy_games = lazy;
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

#[cfg(test)]
mod tests;
