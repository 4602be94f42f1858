//! Static life and death: positions the search may end because a small
//! local game, solved exactly once ([`local`]), decides them.
//!
//! Two rules, each a proof under the solver's rules (see docs/tsumego.md,
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
//!
//! Only *clean* values count: no ko ban and no repetition ban met the
//! losing side, so they hold under every ko-threat regime and history.
//! Values are cached by a canonical key (the 8 symmetries of the board,
//! translation) for the whole process; a value is a pure function of its
//! key, so the cache changes speed, never an answer.

use std::sync::LazyLock;

use ahash::AHashMap;
use parking_lot::RwLock;

use super::local::{Graph, Solver, State};
use super::region::Problem;
use crate::rules::{Board, Cell, Color, Point};

/// Most points of an eye space the first rule looks at.
pub const MAX_AREA: usize = 8;
/// Most vertices of the one-chain game (the chain's own vertex included).
pub const MAX_LIVE: usize = 9;
/// Positions searched in one local game before it counts as undecided.
pub const LOCAL_LIMIT: u64 = 5_000;
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

fn cached(key: &[u8]) -> Option<u8> {
    CACHE.read().get(key).copied()
}

fn remember(key: Key, v: u8) {
    let mut c = CACHE.write();
    if c.len() >= CACHE_CAP {
        c.clear();
    }
    c.insert(key, v);
}

/// The canonical key of tagged points `(x, y, tag)` on a board of `size`.
/// With `edges`, where the board's edges run beside the points is part of
/// the key.
pub fn canonical(kind: u8, points: &[(u8, u8, u8)], size: u8, edges: bool) -> Key {
    let mut out = Vec::new();
    canonical_into(kind, points, size, edges, &mut out, &mut Vec::new());
    out
}

/// [`canonical`] into `out`, with `img` as scratch.
fn canonical_into(
    kind: u8,
    points: &[(u8, u8, u8)],
    size: u8,
    edges: bool,
    out: &mut Vec<u8>,
    img: &mut Vec<(u8, u8, u8)>,
) {
    let n = size as i16 - 1;
    out.clear();
    let mut cand: Vec<u8> = Vec::with_capacity(2 + 3 * points.len());
    for s in 0..8 {
        img.clear();
        for &(x, y, t) in points {
            // The board's symmetry about its centre, in doubled
            // coordinates (exact for odd and even sizes).
            let centred = ((2 * x as i16 - n) as i8, (2 * y as i16 - n) as i8);
            let (a, b) = crate::rules::symmetry(s, centred);
            let back = |v: i8| ((v as i16 + n) / 2) as u8;
            img.push((back(b), back(a), t));
        }
        let minx = img.iter().map(|p| p.1).min().unwrap_or(0);
        let miny = img.iter().map(|p| p.0).min().unwrap_or(0);
        let maxx = img.iter().map(|p| p.1).max().unwrap_or(0);
        let maxy = img.iter().map(|p| p.0).max().unwrap_or(0);
        cand.clear();
        cand.push(kind);
        if edges {
            let flags = (minx == 0) as u8
                | ((miny == 0) as u8) << 1
                | ((maxx as i16 == n) as u8) << 2
                | ((maxy as i16 == n) as u8) << 3;
            cand.push(flags);
        }
        for p in img.iter_mut() {
            p.0 -= miny;
            p.1 -= minx;
        }
        img.sort_unstable();
        for &(y, x, t) in img.iter() {
            cand.extend_from_slice(&[x, y, t]);
        }
        if out.is_empty() || cand < *out {
            std::mem::swap(out, &mut cand);
        }
    }
}

/// The points of a key: `(x, y, tag)`, and the edge flags (left, bottom,
/// right, top) for an eye-space key.
pub fn decode(key: &Key) -> (Vec<(u8, u8, u8)>, u8) {
    let (flags, rest) = if key.first() == Some(&KIND_AREA) {
        (key.get(1).copied().unwrap_or(0), &key[2.min(key.len())..])
    } else {
        (0, &key[1.min(key.len())..])
    };
    let pts = rest.chunks_exact(3).map(|c| (c[0], c[1], c[2])).collect();
    (pts, flags)
}

/// Every eye-space key up to `max_points` points: every shape (fixed
/// polyomino) in the open, along an edge or in a corner, with every
/// content a real position can hold (stones with a liberty in the area;
/// the defender's own stones only on points not next to the chain).
pub fn all_area_keys(max_points: usize) -> Vec<Key> {
    use std::collections::BTreeSet;
    // Fixed polyominoes, grown cell by cell, normalised to the origin.
    let mut shapes: BTreeSet<Vec<(u8, u8)>> = BTreeSet::new();
    let mut layer: BTreeSet<Vec<(u8, u8)>> = BTreeSet::new();
    layer.insert(vec![(0, 0)]);
    for _ in 1..=max_points {
        let mut next = BTreeSet::new();
        for shape in &layer {
            shapes.insert(shape.clone());
            if shape.len() == max_points {
                continue;
            }
            for &(x, y) in shape {
                for (dx, dy) in [(-1i16, 0i16), (1, 0), (0, -1), (0, 1)] {
                    let (nx, ny) = (x as i16 + dx, y as i16 + dy);
                    let mut cells: Vec<(i16, i16)> =
                        shape.iter().map(|&(a, b)| (a as i16, b as i16)).collect();
                    if cells.contains(&(nx, ny)) {
                        continue;
                    }
                    cells.push((nx, ny));
                    let mx = cells.iter().map(|c| c.0).min().unwrap_or(0);
                    let my = cells.iter().map(|c| c.1).min().unwrap_or(0);
                    let mut norm: Vec<(u8, u8)> = cells
                        .iter()
                        .map(|&(a, b)| ((a - mx) as u8, (b - my) as u8))
                        .collect();
                    norm.sort_unstable();
                    next.insert(norm);
                }
            }
        }
        layer = next;
    }
    let size: u8 = 19;
    let mut keys: BTreeSet<Key> = BTreeSet::new();
    let mut img = Vec::new();
    let mut key = Vec::new();
    for shape in &shapes {
        let w = shape.iter().map(|c| c.0).max().unwrap_or(0);
        let h = shape.iter().map(|c| c.1).max().unwrap_or(0);
        // Placements: in the open, along the left or bottom edge, in the
        // corner (the symmetries give the other edges).
        for (ox, oy) in [(3u8, 3u8), (0, 3), (3, 0), (0, 0)] {
            let cells: Vec<(u8, u8)> = shape.iter().map(|&(x, y)| (x + ox, y + oy)).collect();
            let inside =
                |x: i16, y: i16| cells.iter().any(|&(a, b)| a as i16 == x && b as i16 == y);
            let on_board =
                |x: i16, y: i16| (0..size as i16).contains(&x) && (0..size as i16).contains(&y);
            let _ = (w, h);
            let nbrs = |&(x, y): &(u8, u8)| {
                [(-1i16, 0i16), (1, 0), (0, -1), (0, 1)]
                    .map(|(dx, dy)| (x as i16 + dx, y as i16 + dy))
            };
            // Next to the chain: a neighbour on the board outside the area.
            let touches_chain: Vec<bool> = cells
                .iter()
                .map(|c| {
                    nbrs(c)
                        .iter()
                        .any(|&(x, y)| on_board(x, y) && !inside(x, y))
                })
                .collect();
            let n = cells.len();
            let total = 3usize.pow(n as u32);
            'content: for code in 0..total {
                let mut tags = vec![EMPTY; n];
                let mut c = code;
                for t in tags.iter_mut() {
                    *t = (c % 3) as u8;
                    c /= 3;
                }
                for i in 0..n {
                    if tags[i] == DEF && touches_chain[i] {
                        continue 'content;
                    }
                }
                // Every stone's chain has an empty neighbour in the area.
                for i in 0..n {
                    if tags[i] == EMPTY {
                        continue;
                    }
                    let mut chain = vec![i];
                    let mut k = 0;
                    let mut libs = false;
                    while k < chain.len() {
                        let ci = chain[k];
                        k += 1;
                        for (x, y) in nbrs(&cells[ci]) {
                            if let Some(j) = cells
                                .iter()
                                .position(|&(a, b)| a as i16 == x && b as i16 == y)
                            {
                                if tags[j] == EMPTY {
                                    libs = true;
                                } else if tags[j] == tags[i] && !chain.contains(&j) {
                                    chain.push(j);
                                }
                            }
                        }
                    }
                    if !libs {
                        continue 'content;
                    }
                }
                let pts: Vec<(u8, u8, u8)> = cells
                    .iter()
                    .zip(&tags)
                    .map(|(&(x, y), &t)| (x, y, t))
                    .collect();
                canonical_into(KIND_AREA, &pts, size, true, &mut key, &mut img);
                keys.insert(key.clone());
            }
        }
    }
    keys.into_iter().collect()
}

/// The eye table as text: a header, then one line per eye space, `key
/// two two_strict one` (see [`key_text`]).
pub fn table_text(max_points: usize, keys: &[Key], values: &[AreaValue]) -> String {
    let mut out = format!(
        "# tengen eye table {TABLE_VERSION}: every eye space of 1 to {max_points} points of one defender chain\n\
         # (tengen tsumego eyes build --max-points {max_points}; docs/tsumego.md, \"Static evaluation\").\n\
         # key: edges (L left, B bottom, R right, T top: the board's edge runs along that side, '-' none),\n\
         # then width x height, then the rows from the bottom: '.' empty, 'x' attacker, 'o' defender, '#' not in it;\n\
         # every other neighbour is the chain. Values, attacker moving first: two (the chain lives with this area alone),\n\
         # strict (and without seki), one (it lives when it has one sure eye elsewhere). {} entries.\n",
        keys.len()
    );
    for (k, v) in keys.iter().zip(values) {
        out += &format!(
            "{} {} {} {}\n",
            key_text(k),
            v.two as u8,
            v.two_strict as u8,
            v.one as u8
        );
    }
    out
}

/// Version of the table's text format.
pub const TABLE_VERSION: u32 = 1;

/// Largest eye space a table may hold (`tengen tsumego eyes build`; 7
/// points are 135,152 shapes).
pub const MAX_TABLE_POINTS: usize = 7;

/// An eye-space key as text: `LB 3x2 ...|x.#` (see [`table_text`]).
pub fn key_text(key: &Key) -> String {
    let (pts, flags) = decode(key);
    let w = pts.iter().map(|p| p.0).max().map_or(0, |m| m + 1);
    let h = pts.iter().map(|p| p.1).max().map_or(0, |m| m + 1);
    let mut edges: String = [(1, 'L'), (2, 'B'), (4, 'R'), (8, 'T')]
        .iter()
        .filter(|(b, _)| flags & b != 0)
        .map(|&(_, c)| c)
        .collect();
    if edges.is_empty() {
        edges.push('-');
    }
    let rows: Vec<String> = (0..h)
        .map(|y| {
            (0..w)
                .map(|x| match pts.iter().find(|p| p.0 == x && p.1 == y) {
                    Some(p) if p.2 == ATT => 'x',
                    Some(p) if p.2 == DEF => 'o',
                    Some(_) => '.',
                    None => '#',
                })
                .collect()
        })
        .collect();
    format!("{edges} {w}x{h} {}", rows.join("|"))
}

/// Reads a key written by [`key_text`].
pub fn parse_key(edges: &str, dims: &str, rows: &str) -> Option<Key> {
    let mut flags = 0u8;
    for c in edges.chars() {
        flags |= match c {
            'L' => 1,
            'B' => 2,
            'R' => 4,
            'T' => 8,
            '-' => 0,
            _ => return None,
        };
    }
    let (w, h) = dims.split_once('x')?;
    let (w, h): (u8, u8) = (w.parse().ok()?, h.parse().ok()?);
    let rows: Vec<&str> = rows.split('|').collect();
    if rows.len() != h as usize {
        return None;
    }
    let mut key = vec![KIND_AREA, flags];
    let mut pts = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        if row.len() != w as usize {
            return None;
        }
        for (x, c) in row.chars().enumerate() {
            let t = match c {
                '.' => EMPTY,
                'x' => ATT,
                'o' => DEF,
                '#' => continue,
                _ => return None,
            };
            pts.push((y as u8, x as u8, t));
        }
    }
    pts.sort_unstable();
    for (y, x, t) in pts {
        key.extend_from_slice(&[x, y, t]);
    }
    Some(key)
}

/// The local game of an eye space: vertex 0 is the chain, 1.. the area's
/// points; with `sure_eye`, a last vertex next to the chain alone.
fn area_graph(key: &Key, sure_eye: bool) -> (Graph, u32, u32) {
    let (pts, flags) = decode(key);
    let n = pts.len();
    let mut g = Graph::new(1 + n + sure_eye as usize);
    let (left, bottom) = (flags & 1 != 0, flags & 2 != 0);
    let (right, top) = (flags & 4 != 0, flags & 8 != 0);
    let maxx = pts.iter().map(|p| p.0).max().unwrap_or(0);
    let maxy = pts.iter().map(|p| p.1).max().unwrap_or(0);
    let (mut att, mut def) = (0u32, 1u32);
    for (i, &(x, y, t)) in pts.iter().enumerate() {
        let v = 1 + i;
        match t {
            ATT => att |= 1 << v,
            DEF => def |= 1 << v,
            _ => {}
        }
        let steps: [(i16, i16, bool); 4] = [
            (-1, 0, x == 0 && left),
            (1, 0, x == maxx && right),
            (0, -1, y == 0 && bottom),
            (0, 1, y == maxy && top),
        ];
        for (dx, dy, off_board) in steps {
            let (qx, qy) = (x as i16 + dx, y as i16 + dy);
            match pts
                .iter()
                .position(|p| p.0 as i16 == qx && p.1 as i16 == qy)
            {
                Some(j) => g.connect(v, 1 + j),
                None if !off_board => g.connect(0, v),
                None => {}
            }
        }
    }
    if sure_eye {
        g.connect(0, 1 + n);
    }
    g.crucial = vec![1];
    (g, att, def)
}

/// One game of an eye space with the attacker moving first (see
/// [`AreaValue`]): the verdict, clean or not (`None`: over the limit),
/// and the positions searched.
pub fn area_game(key: &Key, sure_eye: bool, strict: bool) -> (Option<super::local::Verdict>, u64) {
    let (g, att, def) = area_graph(key, sure_eye);
    let mut s = Solver::new(&g, strict, LOCAL_LIMIT);
    let v = s.solve(State::new(att, def, false));
    (v, s.nodes)
}

/// Solves an eye space's three games (see [`AreaValue`]); a game over the
/// limit counts as lost for the defender.
pub fn solve_area(key: &Key) -> (AreaValue, u64) {
    let mut nodes = 0;
    let mut run = |sure_eye: bool, strict: bool| {
        let (v, n) = area_game(key, sure_eye, strict);
        nodes += n;
        v.is_some_and(|v| v.defender_wins && v.clean)
    };
    let two = run(false, false);
    let two_strict = two && run(false, true);
    let one = two || run(true, false);
    (
        AreaValue {
            two,
            two_strict,
            one,
        },
        nodes,
    )
}

/// The value of an eye space by key, from the cache or solved now; the
/// positions searched are added to `work`.
pub fn area_value(key: &[u8], work: &mut u64) -> AreaValue {
    if let Some(b) = cached(key) {
        return AreaValue::from_bits(b);
    }
    let key = key.to_vec();
    let (v, nodes) = solve_area(&key);
    *work += nodes;
    remember(key, v.bits());
    v
}

/// A static verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub winner: Color,
    /// For a defender win: unconditional life (no seki), so the seki test
    /// has nothing to look for.
    pub unconditional: bool,
}

/// An eye space set on a 19x19 board as a closed problem, for checking
/// its local games against the solver: the area, the defender's chain
/// around it (White, every point next to the area or diagonal to it, with
/// no liberty outside), Black's wall around that. With `sure_eye`, the
/// chain also surrounds one empty point two lines away from the area (the
/// sure eye of the `one` game). `None` when that chain is not one chain,
/// has no liberty, or no point for the sure eye fits.
pub fn realize(key: &Key, sure_eye: bool) -> Option<Problem> {
    use crate::rules::Coord;
    let (pts, flags) = decode(key);
    let n: i16 = 19;
    let w = pts.iter().map(|p| p.0).max()? as i16 + 1;
    let h = pts.iter().map(|p| p.1).max()? as i16 + 1;
    let ox = if flags & 1 != 0 {
        0
    } else if flags & 4 != 0 {
        n - w
    } else {
        4
    };
    let oy = if flags & 2 != 0 {
        0
    } else if flags & 8 != 0 {
        n - h
    } else {
        4
    };
    let mut cells: Vec<(i16, i16, u8)> = pts
        .iter()
        .map(|&(x, y, t)| (x as i16 + ox, y as i16 + oy, t))
        .collect();
    let dist = |cells: &[(i16, i16, u8)], x: i16, y: i16| {
        cells
            .iter()
            .map(|&(a, b, _)| (a - x).abs().max((b - y).abs()))
            .min()
            .unwrap_or(i16::MAX)
    };
    if sure_eye {
        // The eye's own ring must stay on the board, away from the edges
        // the area does not touch.
        let eye = (2..n - 2)
            .flat_map(|x| (2..n - 2).map(move |y| (x, y)))
            .find(|&(x, y)| dist(&cells, x, y) == 2)?;
        cells.push((eye.0, eye.1, EMPTY));
    }
    let mut b = Board::new(n as usize);
    let mut region = Vec::new();
    let mut chain = None;
    for x in 0..n {
        for y in 0..n {
            let c = Coord::new(x as u8, y as u8);
            match dist(&cells, x, y) {
                0 => {
                    let t = cells
                        .iter()
                        .find(|p| p.0 == x && p.1 == y)
                        .map_or(EMPTY, |p| p.2);
                    match t {
                        ATT => b.set_stone(c, Some(Color::Black)),
                        DEF => b.set_stone(c, Some(Color::White)),
                        _ => {}
                    }
                    region.push(b.point(c));
                }
                1 => {
                    b.set_stone(c, Some(Color::White));
                    region.push(b.point(c));
                    chain.get_or_insert(b.point(c));
                }
                2 => b.set_stone(c, Some(Color::Black)),
                _ => {}
            }
        }
    }
    let chain = chain?;
    let ring = region
        .iter()
        .filter(|&&p| dist(&cells, b.coord(p).x as i16, b.coord(p).y as i16) == 1)
        .count();
    if b.chain_len(chain) != ring || b.liberties(chain) == 0 {
        return None;
    }
    Problem::from_region(&b, &region, chain).ok()
}

/// Checks eye-space games against the solver's own search: each key set
/// on a board ([`realize`]) and solved by df-pn without the static
/// evaluation, the attacker first, in the three games of [`solve_area`]
/// (plain, strict, plain with a sure eye), wherever the local verdict is
/// clean. Returns the games compared and the disagreements (each printed
/// on stderr).
pub fn check_against_search(keys: &[&Key], w: &super::order::OrderWeights) -> (usize, usize) {
    use super::dfpn::{Dfpn, Limits, Regime};
    let (mut compared, mut disagree) = (0, 0);
    for &key in keys {
        for (sure_eye, strict) in [(false, false), (false, true), (true, false)] {
            let Some(prob) = realize(key, sure_eye) else {
                continue;
            };
            let (Some(v), _) = area_game(key, sure_eye, strict) else {
                continue;
            };
            if !v.clean {
                continue;
            }
            let regime = if strict {
                Regime::STRICT
            } else {
                Regime::PLAIN
            };
            let limits = Limits {
                max_nodes: 1_000_000,
                deadline: None,
            };
            let mut d = Dfpn::new(&prob, w, 1, regime, limits).without_statics();
            let Some(att_wins) = d.solve(prob.attacker()).win else {
                continue;
            };
            compared += 1;
            if att_wins == v.defender_wins {
                disagree += 1;
                eprintln!(
                    "{} (strict {strict}, sure eye {sure_eye}): local game {}, search {}\n{}",
                    key_text(key),
                    if v.defender_wins { "lives" } else { "dies" },
                    if att_wins { "dies" } else { "lives" },
                    prob.render()
                );
            }
        }
    }
    (compared, disagree)
}

/// A table read back ([`parse_table`]).
#[derive(Debug, Default)]
pub struct EyeTable {
    /// The largest eye space the header says the table holds.
    pub max_points: usize,
    pub entries: Vec<(Key, AreaValue)>,
}

/// A line of an eye table that cannot be read.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum TableError {
    #[error(
        "line {line}: table version '{found}', this build reads version {TABLE_VERSION} (rebuild it with `tengen tsumego eyes build`)"
    )]
    Version { line: usize, found: String },
    #[error(
        "line {line}: no size of 1 to {MAX_TABLE_POINTS} points in the header (expected `# tengen eye table {TABLE_VERSION}: every eye space of 1 to N points ...`)"
    )]
    Header { line: usize },
    #[error(
        "line {line}: expected `EDGES WxH ROWS two strict one` (for example `LB 2x2 ..|.# 0 0 1`), got '{text}'"
    )]
    Entry { line: usize, text: String },
    #[error(
        "not an eye table: no `# tengen eye table` header (write one with `tengen tsumego eyes build`)"
    )]
    NoHeader,
}

/// Reads a table written by [`table_text`].
pub fn parse_table(text: &str) -> Result<EyeTable, TableError> {
    let mut t = EyeTable::default();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if let Some(rest) = line.strip_prefix("# tengen eye table ") {
            let version = rest.split(':').next().unwrap_or("").trim();
            if version != TABLE_VERSION.to_string() {
                return Err(TableError::Version {
                    line: line_no,
                    found: version.to_string(),
                });
            }
            t.max_points = rest
                .split("of 1 to ")
                .nth(1)
                .and_then(|r| r.split_whitespace().next())
                .and_then(|n| n.parse().ok())
                .filter(|n| (1..=MAX_TABLE_POINTS).contains(n))
                .ok_or(TableError::Header { line: line_no })?;
            continue;
        }
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        let bit = |s: &str| match s {
            "0" => Some(false),
            "1" => Some(true),
            _ => None,
        };
        let entry = (f.len() == 6)
            .then(|| {
                let key = parse_key(f[0], f[1], f[2])?;
                let v = AreaValue {
                    two: bit(f[3])?,
                    two_strict: bit(f[4])?,
                    one: bit(f[5])?,
                };
                Some((key, v))
            })
            .flatten()
            .ok_or_else(|| TableError::Entry {
                line: line_no,
                text: line.to_string(),
            })?;
        t.entries.push(entry);
    }
    if t.max_points == 0 {
        return Err(TableError::NoHeader);
    }
    Ok(t)
}

/// What [`verify_table`] found.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct TableCheck {
    /// Entries whose value differs from a fresh solve.
    pub wrong: Vec<String>,
    /// Eye spaces of the table's size that it lacks.
    pub missing: usize,
    /// Entries that are no eye space of the table's size (or repeat one).
    pub extra: usize,
    /// Games compared with the search, and the disagreements.
    pub searched: usize,
    pub disagree: usize,
}

impl TableCheck {
    pub fn ok(&self) -> bool {
        self.wrong.is_empty() && self.missing == 0 && self.extra == 0 && self.disagree == 0
    }
}

/// Checks a table: every entry solved again, the table complete for its
/// size, and `search` entries (spread evenly over it) compared with the
/// solver's search ([`check_against_search`]).
pub fn verify_table(t: &EyeTable, search: usize, w: &super::order::OrderWeights) -> TableCheck {
    let mut c = TableCheck::default();
    for (k, v) in &t.entries {
        let (fresh, _) = solve_area(k);
        if fresh != *v {
            c.wrong.push(format!(
                "{}: table {v:?}, solved now {fresh:?}",
                key_text(k)
            ));
        }
    }
    let all: std::collections::BTreeSet<Key> = all_area_keys(t.max_points).into_iter().collect();
    let mut have = std::collections::BTreeSet::new();
    for (k, _) in &t.entries {
        if !all.contains(k) || !have.insert(k.clone()) {
            c.extra += 1;
        }
    }
    c.missing = all.len() - have.len();
    if search > 0 && !t.entries.is_empty() {
        let step = (t.entries.len() / search).max(1);
        let sample: Vec<&Key> = t
            .entries
            .iter()
            .step_by(step)
            .take(search)
            .map(|e| &e.0)
            .collect();
        (c.searched, c.disagree) = check_against_search(&sample, w);
    }
    c
}

/// Reusable buffers and the work done (local-game positions searched).
#[derive(Default)]
pub struct Statics {
    mark: Vec<u32>,
    stamp: u32,
    stack: Vec<Point>,
    area: Vec<Point>,
    pts: Vec<(u8, u8, u8)>,
    img: Vec<(u8, u8, u8)>,
    key: Vec<u8>,
    /// Positions searched by local games solved here.
    pub work: u64,
    /// The key of the last local game that gave a verdict (for the check
    /// mode's reports: [`Statics::why`]).
    why_key: Vec<u8>,
}

impl Statics {
    fn next_stamp(&mut self) -> u32 {
        if self.mark.is_empty() {
            self.mark = vec![0; crate::rules::board::MAX_POINTS];
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.iter_mut().for_each(|m| *m = 0);
            self.stamp = 1;
        }
        self.stamp
    }

    /// The winner of the position with `to_move` to play, if a rule of the
    /// module doc decides it. `strict`: the seki test's rules; `closed`:
    /// every neighbour of the region outside it is an attacker stone or
    /// the edge (the one-chain rule needs it). The position must have no
    /// ko ban and follow a move, not a pass.
    pub fn verdict(
        &mut self,
        prob: &Problem,
        b: &Board,
        to_move: Color,
        strict: bool,
        closed: bool,
    ) -> Option<Verdict> {
        let def = Cell::stone(prob.defender);
        // The defender's chains in the region: one, or more.
        let mut head: Option<Point> = None;
        let mut several = false;
        for &p in &prob.region {
            if b.cell(p) == def {
                let h = b.chain_head(p);
                match head {
                    None => head = Some(h),
                    Some(x) if x != h => {
                        several = true;
                        break;
                    }
                    _ => {}
                }
            }
        }
        if head.is_some()
            && !several
            && closed
            && let Some(v) = self.one_chain(prob, b, to_move, strict)
        {
            return Some(v);
        }
        self.lives(prob, b, strict).map(|unconditional| Verdict {
            winner: prob.defender,
            unconditional,
        })
    }

    /// The eye-space rule for every standing crucial chain: `Some(true)`
    /// for unconditional life, `Some(false)` for life that may be seki.
    fn lives(&mut self, prob: &Problem, b: &Board, strict: bool) -> Option<bool> {
        let mut done = [Point(0); 8];
        let mut n_done = 0;
        for i in 0..prob.crucial.len() {
            if !prob.chain_on_board(b, i) {
                continue;
            }
            let h = b.chain_head(prob.crucial[i][0]);
            if done[..n_done].contains(&h) {
                continue;
            }
            if n_done < done.len() {
                done[n_done] = h;
                n_done += 1;
            }
            if let Some(u) = self.chain_lives(prob, b, h, strict) {
                return Some(u);
            }
        }
        None
    }

    /// The areas of the chain `head` (see the module doc), each flooded
    /// from a point next to the chain through everything that is not the
    /// chain's stone, as far as [`MAX_AREA`] points.
    fn chain_lives(
        &mut self,
        prob: &Problem,
        b: &Board,
        head: Point,
        strict: bool,
    ) -> Option<bool> {
        // Points of areas already looked at (enclosed or not) carry `seen`;
        // each flood marks with a stamp of its own, since a flood that
        // stops early leaves part of its area unmarked.
        let seen = self.next_stamp();
        let mut ones = 0;
        let def = Cell::stone(prob.defender);
        for s in b.chain_stones(head) {
            for q in b.neighbors(s) {
                let c = b.cell(q);
                if c == Cell::Border || c == def || self.mark[q.idx()] == seen {
                    continue;
                }
                // Most points next to the chain touch the wall: no flood.
                if !prob.in_region(q)
                    || b.neighbors(q)
                        .iter()
                        .any(|&r| !prob.in_region(r) && b.cell(r) != Cell::Border)
                {
                    continue;
                }
                let stamp = self.next_stamp();
                let enclosed = self.flood_area(prob, b, head, q, stamp);
                for i in 0..self.area.len() {
                    let p = self.area[i];
                    self.mark[p.idx()] = seen;
                }
                if !enclosed {
                    continue;
                }
                let v = if self.area.len() == 1 {
                    // A single point enclosed by the chain is empty (a
                    // stone there would have no liberty, or be the
                    // chain's): one eye, never two.
                    AreaValue {
                        one: true,
                        ..AreaValue::default()
                    }
                } else {
                    self.key_of_area(prob, b);
                    self.why_key.clone_from(&self.key);
                    area_value(&self.key, &mut self.work)
                };
                if v.two_strict {
                    return Some(true);
                }
                if !strict && v.two {
                    return Some(false);
                }
                if !strict && v.one {
                    ones += 1;
                    if ones == 2 {
                        return Some(false);
                    }
                }
            }
        }
        None
    }

    /// Floods the area of chain `head` through `start` into `self.area`,
    /// marking it with `stamp`: false if it is not enclosed by the chain
    /// and the edge, or has more than [`MAX_AREA`] points (then it stops
    /// early, and `self.area` holds the part reached).
    fn flood_area(
        &mut self,
        prob: &Problem,
        b: &Board,
        head: Point,
        start: Point,
        stamp: u32,
    ) -> bool {
        self.area.clear();
        self.stack.clear();
        if !prob.in_region(start) {
            return false;
        }
        self.mark[start.idx()] = stamp;
        self.stack.push(start);
        while let Some(p) = self.stack.pop() {
            self.area.push(p);
            if self.area.len() > MAX_AREA {
                return false;
            }
            for q in b.neighbors(p) {
                let c = b.cell(q);
                if c == Cell::Border || (c.color().is_some() && b.chain_head(q) == head) {
                    continue;
                }
                if !prob.in_region(q) {
                    return false;
                }
                if self.mark[q.idx()] != stamp {
                    self.mark[q.idx()] = stamp;
                    self.stack.push(q);
                }
            }
        }
        true
    }

    /// The canonical key of `self.area`, left in `self.key`.
    fn key_of_area(&mut self, prob: &Problem, b: &Board) {
        let def = Cell::stone(prob.defender);
        self.pts.clear();
        for &p in &self.area {
            let c = b.coord(p);
            let t = match b.cell(p) {
                Cell::Empty => EMPTY,
                x if x == def => DEF,
                _ => ATT,
            };
            self.pts.push((c.x, c.y, t));
        }
        canonical_into(
            KIND_AREA,
            &self.pts,
            b.size() as u8,
            true,
            &mut self.key,
            &mut self.img,
        );
    }

    /// What decided the last verdict: the local game's key, decoded.
    pub fn why(&self) -> String {
        match self.why_key.first() {
            Some(&KIND_AREA) => format!(
                "eye space {:?}, edges {:#b}",
                decode(&self.why_key).0,
                decode(&self.why_key).1
            ),
            Some(_) => format!(
                "one-chain game {:?}",
                decode(&self.why_key[..self.why_key.len() - 1].to_vec()).0
            ),
            None => "?".into(),
        }
    }

    /// The one-chain rule: the defender has a single chain in the region.
    fn one_chain(
        &mut self,
        prob: &Problem,
        b: &Board,
        to_move: Color,
        strict: bool,
    ) -> Option<Verdict> {
        let att = Cell::stone(prob.attacker());
        // Every empty point is a vertex: a cheap bound first.
        let empties = prob
            .region
            .iter()
            .filter(|&&p| b.cell(p) == Cell::Empty)
            .count();
        if empties + 1 > MAX_LIVE {
            return None;
        }
        // The live part: region points that are not safe attacker stones.
        let mut known: [(Point, bool); 32] = [(Point(0), false); 32];
        let mut n_known = 0;
        let mut is_safe = |q: Point| -> bool {
            let h = b.chain_head(q);
            if let Some(&(_, s)) = known[..n_known].iter().find(|e| e.0 == h) {
                return s;
            }
            let s = prob.safe_chain(b, h);
            if n_known < known.len() {
                known[n_known] = (h, s);
                n_known += 1;
            }
            s
        };
        self.pts.clear();
        let mut others = 0;
        for &p in &prob.region {
            let c = b.cell(p);
            let t = if c == att {
                if is_safe(p) {
                    continue;
                }
                ATT
            } else if c == Cell::Empty {
                let walled = b.neighbors(p).iter().any(|&q| {
                    let cq = b.cell(q);
                    (cq == att && is_safe(q)) || (!prob.in_region(q) && cq != Cell::Border)
                });
                if walled { EMPTY_WALL } else { EMPTY }
            } else {
                CHAIN
            };
            if t != CHAIN {
                others += 1;
                if others + 1 > MAX_LIVE {
                    return None;
                }
            }
            let c = b.coord(p);
            self.pts.push((c.x, c.y, t));
        }
        canonical_into(
            KIND_LIVE,
            &self.pts,
            b.size() as u8,
            false,
            &mut self.key,
            &mut self.img,
        );
        self.key
            .push((to_move == prob.defender) as u8 | (strict as u8) << 1);
        let bits = match cached(&self.key) {
            Some(v) => v,
            None => {
                let (v, nodes) = solve_live(&self.key);
                self.work += nodes;
                remember(self.key.clone(), v);
                v
            }
        };
        if bits & LIVE_KNOWN == 0 {
            return None;
        }
        self.why_key.clone_from(&self.key);
        let winner = if bits & LIVE_DEF != 0 {
            prob.defender
        } else {
            prob.attacker()
        };
        Some(Verdict {
            winner,
            unconditional: strict,
        })
    }
}

/// Solves a one-chain game by key (the last byte: defender to move, strict).
fn solve_live(key: &Key) -> (u8, u64) {
    let flags = *key.last().unwrap_or(&0);
    let body: Key = key[..key.len() - 1].to_vec();
    let (pts, _) = decode(&body);
    let others: Vec<&(u8, u8, u8)> = pts.iter().filter(|p| p.2 != CHAIN).collect();
    let mut g = Graph::new(1 + others.len());
    let at = |x: i16, y: i16| -> Option<usize> {
        let p = pts.iter().find(|p| p.0 as i16 == x && p.1 as i16 == y)?;
        if p.2 == CHAIN {
            Some(0)
        } else {
            others
                .iter()
                .position(|o| o.0 == p.0 && o.1 == p.1)
                .map(|i| i + 1)
        }
    };
    let (mut att, def) = (0u32, 1u32);
    for (i, &&(x, y, t)) in others.iter().enumerate() {
        let v = i + 1;
        match t {
            ATT => att |= 1 << v,
            EMPTY_WALL => g.wall |= 1 << v,
            _ => {}
        }
        for (dx, dy) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
            if let Some(u) = at(x as i16 + dx, y as i16 + dy) {
                g.connect(v, u);
            }
        }
    }
    g.crucial = vec![1];
    let mut s = Solver::new(&g, flags & 2 != 0, LOCAL_LIMIT);
    let v = s.solve(State::new(att, def, flags & 1 != 0));
    let bits = match v {
        Some(v) if v.clean => LIVE_KNOWN | if v.defender_wins { LIVE_DEF } else { 0 },
        _ => 0,
    };
    (bits, s.nodes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corner_key(pts: &[(u8, u8, u8)]) -> Key {
        canonical(KIND_AREA, pts, 19, true)
    }

    #[test]
    fn a_corner_stone_in_atari_is_no_two_eyes() {
        // Top-left corner of the board: A19 the defender's stone, B19
        // empty, A18 the attacker's.
        let key = canonical(
            KIND_AREA,
            &[(0, 18, DEF), (1, 18, EMPTY), (0, 17, ATT)],
            19,
            true,
        );
        let (g, att, def) = area_graph(&key, false);
        eprintln!("{key:?} {:?} {att:b} {def:b}", &g.adj[..g.n]);
        let (v, _) = solve_area(&key);
        assert!(!v.two, "{v:?}");
    }

    #[test]
    fn the_enumeration_counts_each_shape_once() {
        // Shapes up to the 8 symmetries, in the open, on an edge and in a
        // corner, with every content a position can hold.
        let counts: Vec<usize> = (1..=4).map(|n| all_area_keys(n).len()).collect();
        assert_eq!(counts, vec![3, 13, 74, 438]);
    }

    /// The local games of the eye table against the solver itself: every
    /// eye space up to 4 points and every 7th of 5, set on a board
    /// ([`realize`]), solved by df-pn without the static evaluation, the
    /// attacker moving first, in the plain and the strict game.
    #[test]
    fn eye_space_games_agree_with_the_solver() {
        let w = crate::tsumego::order::OrderWeights::new(&crate::weights::Weights::default());
        let keys: Vec<Key> = all_area_keys(4)
            .into_iter()
            .chain(
                all_area_keys(5)
                    .into_iter()
                    .filter(|k| k.len() == 2 + 15)
                    .step_by(7),
            )
            .collect();
        let refs: Vec<&Key> = keys.iter().collect();
        let (compared, disagree) = crate::pool::with_stack(|| check_against_search(&refs, &w));
        assert_eq!(disagree, 0);
        assert!(compared > 1000, "compared {compared}");
    }

    /// An eye space drawn top row first ('.' empty, 'x' the attacker's
    /// stone, 'o' the defender's, anything else not in it), its lower
    /// left point at (x0, y0) of a 19x19 board.
    fn shape(rows: &[&str], x0: u8, y0: u8) -> Key {
        let h = rows.len();
        let mut pts = Vec::new();
        for (r, row) in rows.iter().enumerate() {
            let y = y0 + (h - 1 - r) as u8;
            for (i, ch) in row.chars().enumerate() {
                let t = match ch {
                    '.' => EMPTY,
                    'x' => ATT,
                    'o' => DEF,
                    _ => continue,
                };
                pts.push((x0 + i as u8, y, t));
            }
        }
        canonical(KIND_AREA, &pts, 19, true)
    }

    /// The value of an eye space in the middle of the board.
    fn open(rows: &[&str]) -> AreaValue {
        solve_area(&shape(rows, 8, 8)).0
    }

    const ONE_EYE: AreaValue = AreaValue {
        two: false,
        two_strict: false,
        one: true,
    };
    const TWO_EYES: AreaValue = AreaValue {
        two: true,
        two_strict: true,
        one: true,
    };

    #[test]
    fn the_nakade_shapes_make_one_eye_and_the_others_two() {
        let dead: [(&str, &[&str]); 9] = [
            ("one point", &["."]),
            ("two points", &[".."]),
            ("straight three", &["..."]),
            ("bent three", &["..", ".#"]),
            ("square four", &["..", ".."]),
            ("pyramid four", &["...", "#.#"]),
            ("bulky five", &["...", "..#"]),
            ("crossed five", &["#.#", "...", "#.#"]),
            ("rabbity six", &["#.#", "...", "..#"]),
        ];
        for (name, rows) in dead {
            assert_eq!(open(rows), ONE_EYE, "{name}");
        }
        let alive: [(&str, &[&str]); 5] = [
            ("straight four", &["...."]),
            ("bent four", &["...", ".##"]),
            ("zigzag four", &["..#", "#.."]),
            ("straight five", &["....."]),
            ("rectangular six", &["...", "..."]),
        ];
        for (name, rows) in alive {
            assert_eq!(open(rows), TWO_EYES, "{name}");
        }
    }

    #[test]
    fn a_filled_vital_point_is_still_dead() {
        let filled: [(&str, &[&str]); 5] = [
            ("straight three", &[".x."]),
            ("pyramid four", &[".x.", "#.#"]),
            ("bulky five", &[".x.", "..#"]),
            ("crossed five", &["#.#", ".x.", "#.#"]),
            ("rabbity six", &["#.#", ".x.", "..#"]),
        ];
        for (name, rows) in filled {
            assert_eq!(open(rows), ONE_EYE, "{name} with the vital point filled");
        }
        // A stone away from the vital point: the attacker, moving first,
        // takes the vital point as well.
        assert_eq!(
            open(&["...", "x.#"]),
            ONE_EYE,
            "bulky five, stone in a corner"
        );
    }

    #[test]
    fn inner_stones_and_seki() {
        // Three inner stones and two shared liberties: seki (the chain
        // lives, the stones too); two stones: the attacker sacrifices a
        // third and leaves a straight three (see the whole-board tests
        // `seki_with_two_shared_liberties_and_three_inner_stones` and
        // `two_inner_stones_are_no_seki`).
        let seki = AreaValue {
            two: true,
            two_strict: false,
            one: true,
        };
        assert_eq!(solve_area(&shape(&[".xxx."], 0, 0)).0, seki);
        assert!(!solve_area(&shape(&[".xx."], 0, 0)).0.two);
    }

    #[test]
    fn corner_shapes_that_live_in_the_open_do_not_live_in_the_corner() {
        // With no liberty outside the area: the bent four in the corner is
        // a ko (no clean value), and so is the rectangular six.
        for (name, rows) in [
            ("bent four", &[".#", ".#", ".."][..]),
            ("rectangular six", &["...", "..."][..]),
        ] {
            assert!(
                !solve_area(&shape(rows, 0, 0)).0.two,
                "{name} in the corner"
            );
        }
        assert!(open(&["...", "..."]).two_strict);
        assert!(
            solve_area(&shape(&["...."], 0, 0)).0.two_strict,
            "straight four on the edge"
        );
    }

    #[test]
    fn keys_are_the_same_under_the_eight_symmetries() {
        let rows = ["x..", "..#", "o##"];
        let mut pts = Vec::new();
        for (r, row) in rows.iter().enumerate() {
            for (i, ch) in row.chars().enumerate() {
                let t = match ch {
                    '.' => EMPTY,
                    'x' => ATT,
                    'o' => DEF,
                    _ => continue,
                };
                pts.push((i as i16, (2 - r) as i16, t));
            }
        }
        let place = |f: &dyn Fn(i16, i16) -> (i16, i16), dx: i16, dy: i16| -> Key {
            let p: Vec<(u8, u8, u8)> = pts
                .iter()
                .map(|&(x, y, t)| {
                    let (a, b) = f(x, y);
                    ((a + dx) as u8, (b + dy) as u8, t)
                })
                .collect();
            canonical(KIND_AREA, &p, 19, true)
        };
        let id = |x: i16, y: i16| (x, y);
        let base = place(&id, 7, 7);
        let images: [&dyn Fn(i16, i16) -> (i16, i16); 8] = [
            &|x, y| (x, y),
            &|x, y| (-x, y),
            &|x, y| (x, -y),
            &|x, y| (-x, -y),
            &|x, y| (y, x),
            &|x, y| (-y, x),
            &|x, y| (y, -x),
            &|x, y| (-y, -x),
        ];
        for (i, f) in images.iter().enumerate() {
            for (dx, dy) in [(5, 5), (9, 12), (12, 6)] {
                assert_eq!(place(f, dx, dy), base, "image {i} at +{dx}+{dy}");
            }
        }
        // On the edge or in a corner, the shape is another key.
        let edge = place(&id, 0, 7);
        let corner = place(&id, 0, 0);
        assert_ne!(edge, base);
        assert_ne!(corner, base);
        assert_ne!(corner, edge);
        // ... and the same key in each of the four corners, turned to fit.
        assert_eq!(place(&|x, y| (-x, y), 18, 0), corner);
        assert_eq!(place(&|x, y| (-x, -y), 18, 18), corner);
        assert_eq!(place(&|x, y| (x, -y), 0, 18), corner);
    }

    #[test]
    fn the_table_text_reads_back() {
        let keys = all_area_keys(4);
        let values: Vec<AreaValue> = keys.iter().map(|k| solve_area(k).0).collect();
        let text = table_text(4, &keys, &values);
        let t = parse_table(&text).unwrap();
        assert_eq!(t.max_points, 4);
        assert_eq!(t.entries.len(), keys.len());
        for ((k, v), (k2, v2)) in keys.iter().zip(&values).zip(&t.entries) {
            assert_eq!((k, v), (k2, v2), "{}", key_text(k));
        }
        let w = crate::tsumego::order::OrderWeights::new(&crate::weights::Weights::default());
        assert!(verify_table(&t, 0, &w).ok());
        // A wrong value, a missing entry, a line that is no entry.
        let mut lines: Vec<&str> = text.lines().collect();
        let flipped = lines[6].replace(" 0 0 1", " 1 1 1");
        lines[6] = &flipped;
        let bad = parse_table(&lines.join("\n")).unwrap();
        let c = verify_table(&bad, 0, &w);
        assert_eq!((c.wrong.len(), c.missing, c.extra), (1, 0, 0), "{c:?}");
        let short = parse_table(&lines[..lines.len() - 1].join("\n")).unwrap();
        assert_eq!(verify_table(&short, 0, &w).missing, 1);
        lines.push("- 2x2 .?|.. 0 0 1");
        let err = parse_table(&lines.join("\n")).unwrap_err();
        assert!(matches!(err, TableError::Entry { .. }), "{err}");
        assert!(err.to_string().contains(".?|.."), "{err}");
        assert!(
            parse_table("hello")
                .unwrap_err()
                .to_string()
                .contains("line 1")
        );
        assert!(matches!(
            parse_table("# nothing\n"),
            Err(TableError::NoHeader)
        ));
        let huge = text.replacen("of 1 to 4 points", "of 1 to 40 points", 1);
        assert!(matches!(
            parse_table(&huge),
            Err(TableError::Header { line: 1 })
        ));
        let v2 = text.replacen("eye table 1:", "eye table 2:", 1);
        assert!(matches!(parse_table(&v2), Err(TableError::Version { .. })));
    }

    /// A crossed five and a one-point eye: Benson's test does not see the
    /// life (the crossed five's centre is no liberty of the chain), the
    /// eye-space rule does (two areas that each make one eye).
    #[test]
    fn two_one_eye_areas_live_where_benson_does_not() {
        use crate::tsumego::tests::eye_shape;
        let (b, at) = eye_shape(9, &["D4", "C4", "E4", "D3", "D5", "G4"]);
        let prob = Problem::detect(&b, at, &[], 64).unwrap();
        let mut be = crate::tsumego::benson::Benson::default();
        assert!(!be.alive(&prob, &b, at), "{}", prob.render());
        let mut st = Statics::default();
        assert_eq!(st.lives(&prob, &b, false), Some(false), "alive, maybe seki");
        assert_eq!(
            st.lives(&prob, &b, true),
            None,
            "no strict rule for two ones"
        );
        // Without the one-point eye: the crossed five alone is dead.
        let (b, at) = eye_shape(9, &["D4", "C4", "E4", "D3", "D5"]);
        let prob = Problem::detect(&b, at, &[], 64).unwrap();
        assert_eq!(st.lives(&prob, &b, false), None);
        let v = st.verdict(&prob, &b, prob.attacker(), false, true);
        assert_eq!(
            v.map(|v| v.winner),
            Some(prob.attacker()),
            "one-chain game: dead"
        );
        let v = st.verdict(&prob, &b, prob.defender, false, true);
        assert_eq!(
            v.map(|v| v.winner),
            Some(prob.defender),
            "the defender takes the centre"
        );
    }

    #[test]
    fn square_four_in_the_corner_is_no_two_eyes() {
        let key = corner_key(&[(0, 0, EMPTY), (1, 0, EMPTY), (0, 1, EMPTY), (1, 1, EMPTY)]);
        let (g, att, def) = area_graph(&key, false);
        eprintln!("{key:?} {g:?} {att:b} {def:b}");
        let (v, _) = solve_area(&key);
        assert!(!v.two, "{v:?}");
    }
}
