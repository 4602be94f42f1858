//! Static life and death: positions the search may end because a small
//! local game, solved exactly once ([`local`](super::local)), decides them.
//!
//! Three rules, each a proof under the solver's rules (see docs/tsumego.md,
//! "Static evaluation"):
//!
//! - **Eye spaces.** An *area* of a defender chain B is a connected set of
//!   region points that are not B's stones (empty points, attacker
//!   stones, other defender stones) whose every neighbour outside it is a
//!   stone of B or the board's edge. The area's local game is B (one
//!   vertex, no liberty outside the area) and the area, with the attacker
//!   moving first: `two` if the defender keeps B alive (the area alone
//!   makes two eyes, or a seki in the plain game), `one` if it keeps B
//!   alive when B has one sure eye elsewhere (a vertex next to B alone).
//!   A chain holding a crucial chain lives if one area is `two`, or if two
//!   areas are `one` (the defender answers in the area the attacker played
//!   in; B then never runs out of liberties). Liberties of B outside its
//!   areas only help it: the attacker's moves there are passes of the
//!   local games, and no local line ever captures B.
//! - **One chain left.** When the defender has a single chain in the
//!   region, the whole problem is a local game: every point of the region
//!   that is not a safe attacker stone is a vertex, B is one vertex, and
//!   the attacker's safe chains are the wall. Its value, solved from the
//!   position with the side to move, is the problem's.
//! - **Small region.** When the defender has several chains and the
//!   closed region at most [`MAX_REGION_EMPTY`] empty points, the whole
//!   problem is a local game with every stone its own vertex (a captured
//!   chain leaves its points empty, as on the board), the crucial chains
//!   as the problem names them (one stands while each of its original
//!   points holds a defender stone) and the safe attacker chains as the
//!   wall. The games of one search on one graph (the graph changes when
//!   a safe chain grows) share a memo, the last [`REGION_GRAPHS`] graphs
//!   are kept with theirs, and each game may add at most
//!   [`RegionCaps::positions`] positions to its memo before it counts as
//!   undecided (the graph has at most [`RegionCaps::vertices`] vertices).
//!
//! Only *clean* values count: no ko ban and no repetition ban met the
//! losing side, so they hold under every ko-threat regime and history.
//! Values are cached by a canonical key (the 8 symmetries of the board,
//! translation) for the whole process; a value is a pure function of its
//! key, so the cache changes speed, never an answer.
//!
//! Files, lowest first:
//!
//! - this file: the key tags, [`AreaValue`], the process-wide cache and the
//!   contradictions of the check mode;
//! - [`keys`]: canonical keys, their text, every eye space of a size;
//! - [`area`]: the local games of an eye space and of the one-chain game;
//! - [`statics`]: the verdicts on a position ([`Statics`]), which the
//!   df-pn search ([`super::dfpn`]) calls;
//! - [`table`]: the eye table's text format;
//! - [`verify`]: the local games checked against the df-pn search. It is
//!   the only file here above [`super::dfpn`]; the others never use it.

pub mod area;
pub mod keys;
pub mod statics;
pub mod table;
pub mod verify;

#[cfg(test)]
mod tests;

use std::sync::LazyLock;

use ahash::AHashMap;
use parking_lot::RwLock;

pub use area::{area_game, area_value, solve_area};
pub use keys::{all_area_keys, canonical, decode, key_text, parse_key};
pub use statics::{Known, Statics, Verdict};
pub use table::{EyeTable, MAX_TABLE_POINTS, TABLE_VERSION, TableError, parse_table, table_text};
pub use verify::{TableCheck, check_against_search, realize, verify_table};

/// Most points of an eye space the first rule looks at.
pub const MAX_AREA: usize = 8;
/// Most vertices of the one-chain game (the chain's own vertex included).
pub const MAX_LIVE: usize = 9;
/// Positions searched in one local game before it counts as undecided.
pub const LOCAL_LIMIT: u64 = 5_000;
/// Most empty points of the region game.
pub const MAX_REGION_EMPTY: usize = 8;
/// Most vertices of the region game by default: the default of the
/// weight `ts_region_vertices` ([`RegionCaps`] carries the weight's value).
pub const MAX_REGION_V: usize = 16;
/// New positions one region game may search by default (its memo keeps
/// them for the next game of the same search): the default of the weight
/// `ts_region_positions`.
pub const REGION_LIMIT: u64 = 100;

/// The region game's bounds, from the solver's weights
/// (`ts_region_vertices`, `ts_region_positions`); the defaults
/// are [`MAX_REGION_V`] and [`REGION_LIMIT`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegionCaps {
    /// Most vertices (at most [`crate::tsumego::local::MAX_V`]; 0: no
    /// region game).
    pub vertices: usize,
    /// Positions a game may add to its memo before it gives no verdict.
    pub positions: u64,
}

impl Default for RegionCaps {
    fn default() -> RegionCaps {
        RegionCaps {
            vertices: MAX_REGION_V,
            positions: REGION_LIMIT,
        }
    }
}

/// Graphs whose region games (and memos) a search keeps: the search's
/// lines alternate between graphs as safe chains grow in one and not in
/// another, and a memo thrown away is work lost (one graph kept: a new
/// graph at more than half of the games).
pub const REGION_GRAPHS: usize = 64;
/// Memo entries the region games of a search keep, over all its graphs
/// (a graph's memo is emptied past its share).
const REGION_MEMO_CAP: usize = 1 << 20;
/// Cached values kept before the cache is emptied.
const CACHE_CAP: usize = 1 << 20;

/// Point tags in keys.
const EMPTY: u8 = 0;
const ATT: u8 = 1;
const DEF: u8 = 2;
/// An empty point next to a safe attacker chain (one-chain game).
const EMPTY_WALL: u8 = 3;
/// A stone of the defender's chain (one-chain game).
const CHAIN: u8 = 4;

/// A canonical key: the kind byte, then for the smallest of the 8
/// symmetric images (translated to the origin) the edge flags (eye spaces
/// only) and the tagged points, sorted.
pub type Key = Vec<u8>;

/// Key kinds.
const KIND_AREA: u8 = 0;
const KIND_LIVE: u8 = 1;
/// Not a key: marks the region game in [`Statics::why`].
const KIND_REGION: u8 = 2;

/// What an eye space gives its chain (see the module doc).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AreaValue {
    /// Two eyes (or seki) alone, attacker first, plain game.
    pub two: bool,
    /// Two eyes alone, attacker first, strict game (unconditional life).
    pub two_strict: bool,
    /// At least one eye beside a sure eye elsewhere, plain game.
    pub one: bool,
}

impl AreaValue {
    fn bits(self) -> u8 {
        self.two as u8 | (self.two_strict as u8) << 1 | (self.one as u8) << 2
    }

    fn from_bits(b: u8) -> AreaValue {
        AreaValue {
            two: b & 1 != 0,
            two_strict: b & 2 != 0,
            one: b & 4 != 0,
        }
    }
}

static CACHE: LazyLock<RwLock<AHashMap<Key, u8>>> = LazyLock::new(|| RwLock::new(AHashMap::new()));

thread_local! {
    /// Contradictions found by the check mode (`dfpn::StaticCheck`) on
    /// this thread, for the caller to report.
    static CONTRADICTIONS: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Records a contradiction of the check mode.
pub fn report_contradiction(s: String) {
    CONTRADICTIONS.with(|c| c.borrow_mut().push(s));
}

/// The contradictions recorded on this thread so far, emptied.
pub fn take_contradictions() -> Vec<String> {
    CONTRADICTIONS.with(|c| std::mem::take(&mut *c.borrow_mut()))
}

/// Value bits of the one-chain game.
const LIVE_KNOWN: u8 = 1;
const LIVE_DEF: u8 = 2;

pub(super) fn cached(key: &[u8]) -> Option<u8> {
    CACHE.read().get(key).copied()
}

pub(super) fn remember(key: Key, v: u8) {
    let mut c = CACHE.write();
    if c.len() >= CACHE_CAP {
        c.clear();
    }
    c.insert(key, v);
}
