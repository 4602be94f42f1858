//! The lean board: stones, chains, exact liberty counts, simple ko and the
//! Zobrist position hash, all kept incrementally. No history and no superko:
//! this is what playouts and the solver copy and play on ("copy-make").
//!
//! Layout: a padded one-dimensional array with stride `size + 1`. Row 0 and
//! row `size + 1` are border rows; column 0 of every row is the border column
//! shared by the left and the right edge. `Point(0)` is therefore a border
//! point and never a playable one.
//!
//! Chains are circular linked lists (`next`) with a representative (`head`)
//! that holds the stone and liberty counts. Liberty counts are exact: they
//! are updated on every placement, merge and capture, and
//! [`Board::check_consistency`] recomputes everything from scratch to test
//! that.

use std::fmt;
use std::sync::OnceLock;

use thiserror::Error;

use super::point::{Color, Coord, MAX_SIZE, MIN_SIZE};
use super::zobrist;

/// Number of padded points on the largest board.
pub const MAX_POINTS: usize = (MAX_SIZE + 2) * (MAX_SIZE + 1) + 1;

/// Array slots per board array: a power of two above [`MAX_POINTS`], so
/// that masking an index with `SLOTS - 1` lets the compiler drop bounds
/// checks in the hot paths without any `unsafe`.
const SLOTS: usize = 1024;
const _: () = assert!(SLOTS >= MAX_POINTS && SLOTS.is_power_of_two());

/// Slot of a raw point number (see [`SLOTS`]).
#[inline(always)]
fn ix(p: u16) -> usize {
    p as usize & (SLOTS - 1)
}

/// Packed neighbour counts of a point: empty neighbours in bits 0-2, Black
/// in bits 4-6, White in bits 8-10. Border neighbours are the rest of 4.
const NBR_EMPTY: u16 = 1;
const NBR_MASK: u16 = 7;

#[inline(always)]
fn nbr_unit(color: Color) -> u16 {
    1 << (4 + 4 * color as u16)
}

#[inline(always)]
fn nbr_count(packed: u16, color: Color) -> u16 {
    (packed >> (4 + 4 * color as u16)) & NBR_MASK
}

/// A padded board index. Only meaningful together with the board size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Point(pub u16);

impl Point {
    /// The array slot of this point (always below the arrays' length).
    #[inline(always)]
    pub fn idx(self) -> usize {
        ix(self.0)
    }
}

/// Contents of one padded point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Cell {
    Empty = 0,
    Black = 1,
    White = 2,
    Border = 3,
}

impl Cell {
    #[inline]
    pub fn stone(color: Color) -> Cell {
        match color {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }

    #[inline]
    pub fn color(self) -> Option<Color> {
        match self {
            Cell::Black => Some(Color::Black),
            Cell::White => Some(Color::White),
            _ => None,
        }
    }
}

/// Why a move is illegal on the lean board (simple ko only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum BoardError {
    #[error("the point is occupied")]
    Occupied,
    #[error("the point is off the board")]
    OffBoard,
    #[error("the move retakes a ko")]
    Ko,
    #[error("the move is suicide")]
    Suicide,
}

/// Per-size lookup tables shared by every board of that size.
pub struct Geometry {
    pub size: usize,
    pub stride: usize,
    pub num_points: usize,
    /// Playable points in row-major order from A1.
    pub points: Vec<Point>,
    coord: Vec<Coord>,
    stone_key: Box<[[u64; SLOTS]; 2]>,
    ko_key: Box<[u64; SLOTS]>,
}

impl Geometry {
    fn new(size: usize) -> Geometry {
        let stride = size + 1;
        let num_points = (size + 2) * stride + 1;
        let mut coord = vec![Coord::new(0, 0); num_points];
        let mut stone_key = Box::new([[0u64; SLOTS]; 2]);
        let mut ko_key = Box::new([0u64; SLOTS]);
        let mut points = Vec::with_capacity(size * size);
        for y in 0..size {
            for x in 0..size {
                let p = (y + 1) * stride + x + 1;
                let c = Coord::new(x as u8, y as u8);
                coord[p] = c;
                stone_key[0][p] = zobrist::stone_key(Color::Black, c);
                stone_key[1][p] = zobrist::stone_key(Color::White, c);
                ko_key[p] = zobrist::ko_key(c);
                points.push(Point(p as u16));
            }
        }
        Geometry {
            size,
            stride,
            num_points,
            points,
            coord,
            stone_key,
            ko_key,
        }
    }

    /// The shared tables for one board size (built once, on first use).
    pub fn get(size: usize) -> &'static Geometry {
        static TABLES: [OnceLock<Geometry>; MAX_SIZE + 1] =
            [const { OnceLock::new() }; MAX_SIZE + 1];
        assert!((MIN_SIZE..=MAX_SIZE).contains(&size), "board size {size}");
        TABLES[size].get_or_init(|| Geometry::new(size))
    }

    #[inline]
    pub fn point(&self, c: Coord) -> Point {
        Point(((c.y as usize + 1) * self.stride + c.x as usize + 1) as u16)
    }

    #[inline]
    pub fn coord(&self, p: Point) -> Coord {
        self.coord[p.idx()]
    }
}

/// Fixed-size bit set over padded points (scratch marks without allocation).
#[derive(Clone)]
pub(crate) struct PointSet([u64; SLOTS / 64]);

impl PointSet {
    pub(crate) fn new() -> Self {
        PointSet([0; SLOTS / 64])
    }

    /// Inserts `p`; returns true if it was not present.
    #[inline]
    pub(crate) fn insert(&mut self, p: Point) -> bool {
        let (w, b) = (p.idx() / 64, p.idx() % 64);
        let fresh = self.0[w] & (1 << b) == 0;
        self.0[w] |= 1 << b;
        fresh
    }

    #[inline]
    pub(crate) fn contains(&self, p: Point) -> bool {
        self.0[p.idx() / 64] & (1 << (p.idx() % 64)) != 0
    }
}

/// The simple-ko restriction left by the last move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ko {
    /// The point that may not be played.
    pub point: Point,
    /// The colour that may not play it (the opponent of the capturer).
    pub color: Color,
}

/// The lean board. Cloning it is a flat copy; [`Board::copy_from`] copies
/// only the part a small board uses.
#[derive(Clone)]
pub struct Board {
    geo: &'static Geometry,
    /// `geo.stride`, kept here so the hot neighbour arithmetic needs no
    /// pointer chase.
    stride: u16,
    cells: [Cell; SLOTS],
    head: [u16; SLOTS],
    next: [u16; SLOTS],
    libs: [u16; SLOTS],
    count: [u16; SLOTS],
    empty: [Point; MAX_SIZE * MAX_SIZE],
    empty_pos: [u16; SLOTS],
    /// Packed neighbour counts (see `NBR_EMPTY`), kept for playable points.
    nbr: [u16; SLOTS],
    num_empty: usize,
    ko: Option<Ko>,
    hash: u64,
    captures: [u32; 2],
    allow_suicide: bool,
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.render())
    }
}

impl Board {
    /// An empty board. Panics if `size` is outside 2..=25: callers validate
    /// user input first (see [`Game::new`](super::Game::new)).
    pub fn new(size: usize) -> Board {
        let geo = Geometry::get(size);
        let mut b = Board {
            geo,
            stride: geo.stride as u16,
            cells: [Cell::Border; SLOTS],
            head: [0; SLOTS],
            next: [0; SLOTS],
            libs: [0; SLOTS],
            count: [0; SLOTS],
            empty: [Point(0); MAX_SIZE * MAX_SIZE],
            empty_pos: [0; SLOTS],
            nbr: [0; SLOTS],
            num_empty: 0,
            ko: None,
            hash: zobrist::size_key(size),
            captures: [0; 2],
            allow_suicide: false,
        };
        for &p in &geo.points {
            b.cells[p.idx()] = Cell::Empty;
            b.empty_pos[p.idx()] = b.num_empty as u16;
            b.empty[b.num_empty] = p;
            b.num_empty += 1;
        }
        for &p in &geo.points {
            b.nbr[p.idx()] = b.count_neighbors(p);
        }
        b
    }

    /// Allows or forbids suicide (default: forbidden).
    pub fn set_allow_suicide(&mut self, allow: bool) {
        self.allow_suicide = allow;
    }

    pub fn allow_suicide(&self) -> bool {
        self.allow_suicide
    }

    /// Makes `self` equal to `other`, copying only the used prefix of each
    /// array. Much cheaper than `clone()` for small boards.
    pub fn copy_from(&mut self, other: &Board) {
        let n = other.geo.num_points;
        self.geo = other.geo;
        self.stride = other.stride;
        self.cells[..n].copy_from_slice(&other.cells[..n]);
        self.head[..n].copy_from_slice(&other.head[..n]);
        self.next[..n].copy_from_slice(&other.next[..n]);
        self.libs[..n].copy_from_slice(&other.libs[..n]);
        self.count[..n].copy_from_slice(&other.count[..n]);
        self.empty_pos[..n].copy_from_slice(&other.empty_pos[..n]);
        self.nbr[..n].copy_from_slice(&other.nbr[..n]);
        let e = other.num_empty;
        self.empty[..e].copy_from_slice(&other.empty[..e]);
        self.num_empty = e;
        self.ko = other.ko;
        self.hash = other.hash;
        self.captures = other.captures;
        self.allow_suicide = other.allow_suicide;
    }

    #[inline]
    pub fn size(&self) -> usize {
        self.geo.size
    }

    #[inline]
    pub fn geometry(&self) -> &'static Geometry {
        self.geo
    }

    #[inline]
    pub fn point(&self, c: Coord) -> Point {
        self.geo.point(c)
    }

    #[inline]
    pub fn coord(&self, p: Point) -> Coord {
        self.geo.coord(p)
    }

    /// Every playable point, row-major from A1.
    #[inline]
    pub fn points(&self) -> &'static [Point] {
        &self.geo.points
    }

    #[inline]
    pub fn cell(&self, p: Point) -> Cell {
        self.cells[p.idx()]
    }

    /// The colour of the stone at `c`, if any.
    pub fn stone_at(&self, c: Coord) -> Option<Color> {
        if !c.on_board(self.size()) {
            return None;
        }
        self.cell(self.point(c)).color()
    }

    /// The four orthogonal neighbours (some may be border points).
    #[inline]
    pub fn neighbors(&self, p: Point) -> [Point; 4] {
        let s = self.stride;
        [
            Point(p.0 - s),
            Point(p.0 - 1),
            Point(p.0 + 1),
            Point(p.0 + s),
        ]
    }

    /// The four diagonal neighbours (some may be border points or, at the
    /// lower-left corner, index 0).
    #[inline]
    pub fn diagonals(&self, p: Point) -> [Point; 4] {
        let s = self.stride;
        [
            Point(p.0 - s - 1),
            Point(p.0 - s + 1),
            Point(p.0 + s - 1),
            Point(p.0 + s + 1),
        ]
    }

    /// The representative of the chain through the stone at `p`.
    #[inline]
    pub fn chain_head(&self, p: Point) -> Point {
        Point(self.head[p.idx()])
    }

    /// Exact liberty count of the chain through the stone at `p`.
    #[inline]
    pub fn liberties(&self, p: Point) -> usize {
        self.libs[ix(self.head[p.idx()])] as usize
    }

    /// Number of stones of the chain through the stone at `p`.
    #[inline]
    pub fn chain_len(&self, p: Point) -> usize {
        self.count[ix(self.head[p.idx()])] as usize
    }

    /// The stones of the chain through `p`.
    pub fn chain_stones(&self, p: Point) -> ChainIter<'_> {
        ChainIter {
            board: self,
            start: p,
            cur: Some(p),
        }
    }

    /// Up to `out.len()` distinct liberties of the chain through the stone
    /// at `p`, written to `out`; returns how many were found.
    pub fn chain_liberties(&self, p: Point, out: &mut [Point]) -> usize {
        let want = out.len().min(self.liberties(p));
        let mut n = 0;
        if want == 0 {
            return 0;
        }
        for s in self.chain_stones(p) {
            for q in self.neighbors(s) {
                if self.cells[q.idx()] == Cell::Empty && !out[..n].contains(&q) {
                    out[n] = q;
                    n += 1;
                    if n == want {
                        return n;
                    }
                }
            }
        }
        n
    }

    /// True if `color` playing on the empty point `p` would leave its chain
    /// with at most one liberty without capturing anything (a self-atari,
    /// or suicide).
    pub fn is_self_atari(&self, p: Point, color: Color) -> bool {
        let packed = self.nbr[p.idx()];
        if packed & NBR_MASK >= 2 {
            return false;
        }
        let me = Cell::stone(color);
        let mut found = [Point(0); 2];
        let mut n = 0;
        for q in self.neighbors(p) {
            match self.cells[q.idx()] {
                Cell::Empty => {
                    found[n] = q;
                    n += 1;
                }
                Cell::Border => {}
                c if c == me => {}
                _ => {
                    if self.liberties(q) == 1 {
                        return false;
                    }
                }
            }
        }
        for q in self.neighbors(p) {
            if self.cells[q.idx()] != me {
                continue;
            }
            if self.liberties(q) >= 3 {
                return false;
            }
            let mut libs = [Point(0); 2];
            let k = self.chain_liberties(q, &mut libs);
            for &l in &libs[..k] {
                if l != p && !found[..n].contains(&l) {
                    if n == 1 {
                        return false;
                    }
                    found[n] = l;
                    n += 1;
                }
            }
        }
        n <= 1
    }

    /// Stones of the chain `color` would form by playing at `p`.
    pub fn chain_len_after(&self, p: Point, color: Color) -> usize {
        let (friends, nf) = self.adjacent_chains(p, Cell::stone(color));
        1 + friends[..nf]
            .iter()
            .map(|&h| self.count[ix(h)] as usize)
            .sum::<usize>()
    }

    /// The 3x3 neighbourhood of `p` as 16 bits: two bits per neighbour
    /// (0 empty, 1 Black, 2 White, 3 border) in the order N, E, S, W, NE,
    /// SE, SW, NW, lowest bits first. "North" is towards larger y.
    #[inline]
    pub fn pattern3(&self, p: Point) -> u16 {
        let s = self.stride;
        let q = p.0;
        let order = [
            q + s,
            q + 1,
            q - s,
            q - 1,
            q + s + 1,
            q - s + 1,
            q - s - 1,
            q + s - 1,
        ];
        let mut code = 0u16;
        for (i, &o) in order.iter().enumerate() {
            code |= (self.cells[ix(o)] as u16) << (2 * i);
        }
        code
    }

    /// The colour owning `p` for fast playout scoring: the stone's colour,
    /// or for an empty point the one colour among its neighbours (`None` if
    /// both or neither colour touch it).
    #[inline]
    pub fn fast_owner(&self, p: Point) -> Option<Color> {
        match self.cells[p.idx()] {
            Cell::Black => Some(Color::Black),
            Cell::White => Some(Color::White),
            Cell::Border => None,
            Cell::Empty => {
                let packed = self.nbr[p.idx()];
                let b = nbr_count(packed, Color::Black) > 0;
                let w = nbr_count(packed, Color::White) > 0;
                match (b, w) {
                    (true, false) => Some(Color::Black),
                    (false, true) => Some(Color::White),
                    _ => None,
                }
            }
        }
    }

    /// Number of empty orthogonal neighbours of `p`.
    #[inline]
    pub fn empty_neighbors(&self, p: Point) -> usize {
        (self.nbr[p.idx()] & NBR_MASK) as usize
    }

    /// The position hash: stones and board size (see [`zobrist`]).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The position key: hash, side to move, and the ko point if it binds
    /// the side to move.
    pub fn key(&self, to_move: Color) -> u64 {
        let mut k = self.hash ^ zobrist::side_key(to_move);
        if let Some(ko) = self.ko
            && ko.color == to_move
        {
            k ^= self.geo.ko_key[ko.point.idx()];
        }
        k
    }

    #[inline]
    pub fn ko(&self) -> Option<Ko> {
        self.ko
    }

    /// Stones captured so far *by* `color`.
    #[inline]
    pub fn captures(&self, color: Color) -> u32 {
        self.captures[color.index()]
    }

    #[inline]
    pub fn num_empty(&self) -> usize {
        self.num_empty
    }

    /// The empty points as a slice, in no fixed order.
    #[inline]
    pub fn empty_slice(&self) -> &[Point] {
        &self.empty[..self.num_empty]
    }

    /// Number of stones of `color` on the board.
    pub fn stone_count(&self, color: Color) -> usize {
        self.stones(color).count()
    }

    /// The coordinates of `color`'s stones, row-major from A1.
    pub fn stones(&self, color: Color) -> impl Iterator<Item = Coord> + '_ {
        let cell = Cell::stone(color);
        self.points()
            .iter()
            .filter(move |p| self.cell(**p) == cell)
            .map(|&p| self.coord(p))
    }

    /// Legality under simple ko and the suicide rule.
    pub fn check(&self, p: Point, color: Color) -> Result<(), BoardError> {
        match self.cells[p.idx()] {
            Cell::Empty => {}
            Cell::Border => return Err(BoardError::OffBoard),
            _ => return Err(BoardError::Occupied),
        }
        if self.ko == Some(Ko { point: p, color }) {
            return Err(BoardError::Ko);
        }
        if !self.allow_suicide && self.is_suicide(p, color) {
            return Err(BoardError::Suicide);
        }
        Ok(())
    }

    #[inline]
    pub fn is_legal(&self, p: Point, color: Color) -> bool {
        self.check(p, color).is_ok()
    }

    /// The distinct chains (by head) next to `p` whose stones are `cell`.
    #[inline]
    fn adjacent_chains(&self, p: Point, cell: Cell) -> ([u16; 4], usize) {
        let mut heads = [0u16; 4];
        let mut n = 0;
        for q in self.neighbors(p) {
            if self.cells[q.idx()] == cell {
                let h = self.head[q.idx()];
                if !heads[..n].contains(&h) {
                    heads[n] = h;
                    n += 1;
                }
            }
        }
        (heads, n)
    }

    /// The packed neighbour counts of `p`, computed from the cells.
    fn count_neighbors(&self, p: Point) -> u16 {
        self.neighbors(p)
            .iter()
            .map(|n| match self.cells[n.idx()].color() {
                Some(c) => nbr_unit(c),
                None if self.cells[n.idx()] == Cell::Empty => NBR_EMPTY,
                None => 0,
            })
            .sum()
    }

    /// True if playing on the empty point `p` would leave the new chain
    /// without liberties and capture nothing.
    pub fn is_suicide(&self, p: Point, color: Color) -> bool {
        if self.nbr[p.idx()] & NBR_MASK != 0 {
            return false;
        }
        let me = Cell::stone(color);
        for n in self.neighbors(p) {
            let c = self.cells[n.idx()];
            if c == Cell::Border {
                continue;
            }
            let libs = self.libs[ix(self.head[n.idx()])];
            if (c == me) == (libs > 1) {
                // own chain with a spare liberty, or enemy chain in atari
                return false;
            }
        }
        true
    }

    /// True if `p` is an empty point whose four neighbours are all `color`
    /// stones or border.
    #[inline]
    pub fn is_eyelike(&self, p: Point, color: Color) -> bool {
        let packed = self.nbr[p.idx()];
        // no empty neighbour and no opponent neighbour
        packed & NBR_MASK == 0 && nbr_count(packed, color.opponent()) == 0
    }

    /// The usual "true eye" test: eye-like, and at most one diagonal held by
    /// the opponent (none on the edge).
    pub fn is_true_eye(&self, p: Point, color: Color) -> bool {
        self.is_eyelike(p, color) && self.eye_diagonals_ok(p, color)
    }

    /// The diagonal half of [`Board::is_true_eye`], for a point already
    /// known to be eye-like.
    #[inline]
    fn eye_diagonals_ok(&self, p: Point, color: Color) -> bool {
        let opp = Cell::stone(color.opponent());
        let mut bad = 0;
        let mut edge = 0;
        for d in self.diagonals(p) {
            let c = self.cells[d.idx()];
            bad += (c == opp) as u32;
            edge |= (c == Cell::Border) as u32;
        }
        bad + edge < 2 && (edge == 0 || bad == 0)
    }

    /// The light playout's test for a candidate `p` (an empty point): legal
    /// under simple ko and the suicide rule, and not a true eye of `color`.
    /// Reads the neighbours once; most points have an empty neighbour and
    /// are accepted right away.
    #[inline]
    pub fn is_playout_candidate(&self, p: Point, color: Color) -> bool {
        let packed = self.nbr[p.idx()];
        if self.ko == Some(Ko { point: p, color }) {
            return false;
        }
        if packed & NBR_MASK != 0 {
            return true;
        }
        if nbr_count(packed, color.opponent()) == 0 && self.eye_diagonals_ok(p, color) {
            return false;
        }
        self.allow_suicide || !self.is_suicide(p, color)
    }

    /// The position hash after `color` plays the legal move `p`, computed
    /// without playing it (for superko checks of many candidates).
    pub fn hash_after(&self, p: Point, color: Color) -> u64 {
        let keys = &self.geo.stone_key;
        let mut h = self.hash ^ keys[color.index()][p.idx()];
        let (enemies, ne) = self.adjacent_chains(p, Cell::stone(color.opponent()));
        let mut captures = false;
        for &e in &enemies[..ne] {
            if self.libs[ix(e)] == 1 {
                captures = true;
                for s in self.chain_stones(Point(e)) {
                    h ^= keys[color.opponent().index()][s.idx()];
                }
            }
        }
        if !captures && self.allow_suicide && self.is_suicide(p, color) {
            // The new stone and the friendly chains it joins disappear.
            h ^= keys[color.index()][p.idx()];
            let (friends, nf) = self.adjacent_chains(p, Cell::stone(color));
            for &f in &friends[..nf] {
                for s in self.chain_stones(Point(f)) {
                    h ^= keys[color.index()][s.idx()];
                }
            }
        }
        h
    }

    /// Plays `color` at `p` after checking legality (simple ko, suicide).
    pub fn play(&mut self, p: Point, color: Color) -> Result<(), BoardError> {
        self.check(p, color)?;
        self.play_unchecked(p, color);
        Ok(())
    }

    /// A pass: clears the ko restriction.
    #[inline]
    pub fn pass(&mut self) {
        self.ko = None;
    }

    /// Plays a legal move (the caller checked it). Places the stone, captures,
    /// merges chains and sets the ko restriction.
    pub fn play_unchecked(&mut self, p: Point, color: Color) {
        debug_assert!(self.cells[p.idx()] == Cell::Empty);
        let me = Cell::stone(color);
        let opp = Cell::stone(color.opponent());
        self.ko = None;

        // The new stone as a chain of its own.
        let nbrs = self.neighbors(p);
        let stone = nbr_unit(color).wrapping_sub(NBR_EMPTY);
        for n in nbrs {
            self.nbr[n.idx()] = self.nbr[n.idx()].wrapping_add(stone);
        }
        self.cells[p.idx()] = me;
        self.hash ^= self.geo.stone_key[color.index()][p.idx()];
        self.remove_empty(p);
        self.head[p.idx()] = p.0;
        self.next[p.idx()] = p.0;
        self.count[p.idx()] = 1;
        self.libs[p.idx()] = self.nbr[p.idx()] & NBR_MASK;

        // Enemy chains lose the liberty `p`; those left without any die.
        let mut captured = 0u32;
        let mut last_captured = p;
        let (enemies, ne) = self.adjacent_chains(p, opp);
        for &h in &enemies[..ne] {
            self.libs[ix(h)] -= 1;
            if self.libs[ix(h)] == 0 {
                captured += self.count[ix(h)] as u32;
                last_captured = Point(h);
                self.remove_chain(Point(h), color);
            }
        }
        self.captures[color.index()] += captured;

        // Merge with friendly neighbours.
        let (friends, nf) = self.adjacent_chains(p, me);
        let my_head =
            match nf {
                0 => p,
                1 => {
                    let h = Point(friends[0]);
                    // p's own liberties that h did not already have.
                    let mut fresh = 0;
                    for n in nbrs {
                        // An empty point whose only friendly neighbour is `p`
                        // cannot touch `h`; otherwise look.
                        if self.cells[n.idx()] == Cell::Empty
                            && (nbr_count(self.nbr[n.idx()], color) == 1
                                || !self.neighbors(n).iter().any(|m| {
                                    self.cells[m.idx()] == me && self.head[m.idx()] == h.0
                                }))
                        {
                            fresh += 1;
                        }
                    }
                    let libs = self.libs[h.idx()] - 1 + fresh;
                    self.join(h, p);
                    self.libs[h.idx()] = libs;
                    h
                }
                _ => {
                    let mut big = Point(friends[0]);
                    for &f in &friends[1..nf] {
                        if self.count[ix(f)] > self.count[big.idx()] {
                            big = Point(f);
                        }
                    }
                    // Liberties of the merged chain: those of the biggest chain
                    // (minus `p`), plus those of the smaller chains and of `p`
                    // that the biggest chain does not already have. Only the
                    // smaller chains are walked.
                    let mut seen = PointSet::new();
                    let mut extra = 0u16;
                    let mut count_new = |b: &Board, s: Point| {
                        for n in b.neighbors(s) {
                            if b.cells[n.idx()] == Cell::Empty
                                && seen.insert(n)
                                && (nbr_count(b.nbr[n.idx()], color) == 1
                                    || !b.neighbors(n).iter().any(|m| {
                                        b.cells[m.idx()] == me && b.head[m.idx()] == big.0
                                    }))
                            {
                                extra += 1;
                            }
                        }
                    };
                    count_new(self, p);
                    for &f in &friends[..nf] {
                        if f != big.0 {
                            for s in self.chain_stones(Point(f)) {
                                count_new(self, s);
                            }
                        }
                    }
                    let libs = self.libs[big.idx()] - 1 + extra;
                    for &f in &friends[..nf] {
                        if f != big.0 {
                            self.join(big, Point(f));
                        }
                    }
                    self.join(big, p);
                    self.libs[big.idx()] = libs;
                    big
                }
            };

        if self.libs[my_head.idx()] == 0 {
            // Suicide (only reached when the rules allow it).
            let n = self.count[my_head.idx()] as u32;
            self.remove_chain(my_head, color.opponent());
            self.captures[color.opponent().index()] += n;
            return;
        }

        if captured == 1 && self.count[my_head.idx()] == 1 && self.libs[my_head.idx()] == 1 {
            self.ko = Some(Ko {
                point: last_captured,
                color: color.opponent(),
            });
        }
    }

    /// Links chain `other` into chain `head` (relabels `other`'s stones).
    fn join(&mut self, head: Point, other: Point) {
        let mut s = other.0;
        loop {
            self.head[ix(s)] = head.0;
            s = self.next[ix(s)];
            if s == other.0 {
                break;
            }
        }
        self.next.swap(head.idx(), other.idx());
        self.count[head.idx()] += self.count[other.idx()];
    }

    /// Removes the chain at `head`; neighbouring chains of `capturer` gain
    /// the freed points as liberties.
    fn remove_chain(&mut self, head: Point, capturer: Color) {
        let mine = Cell::stone(capturer);
        let victim = self.cells[head.idx()].color().expect("a stone");
        let mut s = head.0;
        loop {
            let sp = Point(s);
            self.cells[ix(s)] = Cell::Empty;
            self.hash ^= self.geo.stone_key[victim.index()][ix(s)];
            self.add_empty(sp);
            let nbrs = self.neighbors(sp);
            let freed = NBR_EMPTY.wrapping_sub(nbr_unit(victim));
            for n in nbrs {
                self.nbr[n.idx()] = self.nbr[n.idx()].wrapping_add(freed);
            }
            let (chains, n) = self.adjacent_chains(sp, mine);
            for &h in &chains[..n] {
                self.libs[ix(h)] += 1;
            }
            s = self.next[ix(s)];
            if s == head.0 {
                break;
            }
        }
    }

    #[inline]
    fn remove_empty(&mut self, p: Point) {
        let i = self.empty_pos[p.idx()] as usize;
        self.num_empty -= 1;
        let last = self.empty[self.num_empty];
        self.empty[i] = last;
        self.empty_pos[last.idx()] = i as u16;
    }

    #[inline]
    fn add_empty(&mut self, p: Point) {
        self.empty_pos[p.idx()] = self.num_empty as u16;
        self.empty[self.num_empty] = p;
        self.num_empty += 1;
    }

    /// Puts a stone without any rule check and without captures (setup
    /// stones, SGF AB/AW). Chains and liberties are rebuilt from scratch.
    pub fn set_stone(&mut self, c: Coord, color: Option<Color>) {
        let p = self.point(c);
        if let Some(old) = self.cells[p.idx()].color() {
            self.hash ^= self.geo.stone_key[old.index()][p.idx()];
            self.cells[p.idx()] = Cell::Empty;
        }
        if let Some(col) = color {
            self.cells[p.idx()] = Cell::stone(col);
            self.hash ^= self.geo.stone_key[col.index()][p.idx()];
        }
        self.ko = None;
        self.rebuild();
    }

    /// Recomputes chains, liberties, the empty list and the hash from the
    /// cells alone.
    fn rebuild(&mut self) {
        let fresh = self.recomputed();
        self.head = fresh.head;
        self.next = fresh.next;
        self.libs = fresh.libs;
        self.count = fresh.count;
        self.empty = fresh.empty;
        self.empty_pos = fresh.empty_pos;
        self.nbr = fresh.nbr;
        self.num_empty = fresh.num_empty;
        self.hash = fresh.hash;
    }

    /// A board with the same stones whose derived state is computed from
    /// scratch (flood fill), with no incremental bookkeeping involved.
    fn recomputed(&self) -> Board {
        let mut b = Board::new(self.size());
        b.cells = self.cells;
        b.ko = self.ko;
        b.captures = self.captures;
        b.allow_suicide = self.allow_suicide;
        b.num_empty = 0;
        b.hash = zobrist::size_key(self.size());
        let mut done = PointSet::new();
        for &p in self.points() {
            match b.cells[p.idx()].color() {
                None => b.add_empty(p),
                Some(col) => {
                    b.hash ^= zobrist::stone_key(col, self.coord(p));
                    if done.contains(p) {
                        continue;
                    }
                    // flood fill the chain
                    let mut stack = vec![p];
                    let mut stones = Vec::new();
                    done.insert(p);
                    while let Some(s) = stack.pop() {
                        stones.push(s);
                        for n in b.neighbors(s) {
                            if b.cells[n.idx()] == b.cells[p.idx()] && done.insert(n) {
                                stack.push(n);
                            }
                        }
                    }
                    let mut libs = PointSet::new();
                    let mut nlibs = 0;
                    for (i, &s) in stones.iter().enumerate() {
                        b.head[s.idx()] = p.0;
                        b.next[s.idx()] = stones[(i + 1) % stones.len()].0;
                        for n in b.neighbors(s) {
                            if b.cells[n.idx()] == Cell::Empty && libs.insert(n) {
                                nlibs += 1;
                            }
                        }
                    }
                    b.count[p.idx()] = stones.len() as u16;
                    b.libs[p.idx()] = nlibs;
                }
            }
        }
        for &p in self.points() {
            b.nbr[p.idx()] = b.count_neighbors(p);
        }
        b
    }

    /// Compares every piece of incremental state with a from-scratch
    /// recomputation. Returns a description of the first difference.
    pub fn check_consistency(&self) -> Result<(), String> {
        let fresh = self.recomputed();
        if fresh.hash != self.hash {
            return Err(format!(
                "hash {:016x} != recomputed {:016x}",
                self.hash, fresh.hash
            ));
        }
        if fresh.num_empty != self.num_empty {
            return Err(format!(
                "{} empty points listed, {} on the board",
                self.num_empty, fresh.num_empty
            ));
        }
        for i in 0..self.num_empty {
            let p = self.empty[i];
            if self.cells[p.idx()] != Cell::Empty || self.empty_pos[p.idx()] as usize != i {
                return Err(format!("empty list broken at {}", self.coord(p)));
            }
        }
        for &p in self.points() {
            if self.nbr[p.idx()] != fresh.nbr[p.idx()] {
                return Err(format!(
                    "neighbour counts of {} are {:03x}, recomputed {:03x}",
                    self.coord(p),
                    self.nbr[p.idx()],
                    fresh.nbr[p.idx()]
                ));
            }
            if self.cells[p.idx()].color().is_none() {
                continue;
            }
            let c = self.coord(p);
            // same chain membership: heads may differ, so compare sets
            let mine: Vec<Point> = {
                let mut v: Vec<Point> = self.chain_stones(p).collect();
                v.sort();
                v
            };
            let theirs: Vec<Point> = {
                let mut v: Vec<Point> = fresh.chain_stones(p).collect();
                v.sort();
                v
            };
            if mine != theirs {
                return Err(format!("chain through {c} differs from flood fill"));
            }
            if mine
                .iter()
                .any(|s| self.head[s.idx()] != self.head[p.idx()])
            {
                return Err(format!("chain through {c} has several heads"));
            }
            if self.chain_len(p) != fresh.chain_len(p) {
                return Err(format!(
                    "chain through {c}: {} stones counted, {} real",
                    self.chain_len(p),
                    fresh.chain_len(p)
                ));
            }
            if self.liberties(p) != fresh.liberties(p) {
                return Err(format!(
                    "chain through {c}: {} liberties counted, {} real",
                    self.liberties(p),
                    fresh.liberties(p)
                ));
            }
            if self.liberties(p) == 0 {
                return Err(format!("chain through {c} has no liberties"));
            }
        }
        Ok(())
    }

    /// Tromp-Taylor area on this board: (black points, white points). A
    /// point counts for a colour if it holds that colour's stone, or if it is
    /// empty and reaches stones of that colour only.
    pub fn area(&self) -> (usize, usize) {
        let owner = self.area_owner();
        let b = owner.iter().filter(|o| **o == Some(Color::Black)).count();
        let w = owner.iter().filter(|o| **o == Some(Color::White)).count();
        (b, w)
    }

    /// Owner of every playable point (in [`Board::points`] order) under
    /// Tromp-Taylor area rules; `None` for dame.
    pub fn area_owner(&self) -> Vec<Option<Color>> {
        let mut region_owner = vec![None; self.geo.num_points];
        let mut done = PointSet::new();
        for &p in self.points() {
            match self.cells[p.idx()] {
                Cell::Black => region_owner[p.idx()] = Some(Color::Black),
                Cell::White => region_owner[p.idx()] = Some(Color::White),
                _ => {
                    if done.contains(p) {
                        continue;
                    }
                    let mut region = Vec::new();
                    let mut stack = vec![p];
                    done.insert(p);
                    let (mut black, mut white) = (false, false);
                    while let Some(s) = stack.pop() {
                        region.push(s);
                        for n in self.neighbors(s) {
                            match self.cells[n.idx()] {
                                Cell::Empty => {
                                    if done.insert(n) {
                                        stack.push(n);
                                    }
                                }
                                Cell::Black => black = true,
                                Cell::White => white = true,
                                Cell::Border => {}
                            }
                        }
                    }
                    let owner = match (black, white) {
                        (true, false) => Some(Color::Black),
                        (false, true) => Some(Color::White),
                        _ => None,
                    };
                    for s in region {
                        region_owner[s.idx()] = owner;
                    }
                }
            }
        }
        self.points()
            .iter()
            .map(|p| region_owner[p.idx()])
            .collect()
    }

    /// A plain-text diagram, White `O`, Black `X`, A1 bottom left.
    pub fn render(&self) -> String {
        let n = self.size();
        let letters: String = (0..n as u8)
            .map(|x| format!(" {}", Coord::column_letter(x)))
            .collect();
        let mut out = format!("   {letters}\n");
        for y in (0..n).rev() {
            out += &format!("{:>2} ", y + 1);
            for x in 0..n {
                let c = match self.stone_at(Coord::new(x as u8, y as u8)) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                };
                out.push(' ');
                out.push(c);
            }
            out += &format!(" {:>2}\n", y + 1);
        }
        out += &format!("   {letters}");
        out
    }
}

/// Iterator over the stones of one chain.
pub struct ChainIter<'a> {
    board: &'a Board,
    start: Point,
    cur: Option<Point>,
}

impl Iterator for ChainIter<'_> {
    type Item = Point;

    #[inline]
    fn next(&mut self) -> Option<Point> {
        let p = self.cur?;
        let n = Point(self.board.next[p.idx()]);
        self.cur = (n != self.start).then_some(n);
        Some(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(b: &Board, s: &str) -> Point {
        match s.parse::<super::super::Move>().unwrap() {
            super::super::Move::Play(c) => b.point(c),
            _ => panic!(),
        }
    }

    fn play(b: &mut Board, color: Color, s: &str) {
        let p = at(b, s);
        b.play(p, color).unwrap();
        b.check_consistency().unwrap();
    }

    #[test]
    fn capture_in_the_corner() {
        let mut b = Board::new(9);
        play(&mut b, Color::White, "A1");
        play(&mut b, Color::Black, "A2");
        assert_eq!(b.liberties(at(&b, "A1")), 1);
        play(&mut b, Color::Black, "B1");
        assert_eq!(b.stone_at(Coord::new(0, 0)), None);
        assert_eq!(b.captures(Color::Black), 1);
        assert_eq!(b.num_empty(), 79);
    }

    #[test]
    fn simple_ko_is_forbidden_for_the_opponent_only() {
        let mut b = Board::new(9);
        // Black: B1 A2 C2 B3? Build a ko around B2/C2.
        for s in ["B1", "A2", "B3"] {
            play(&mut b, Color::Black, s);
        }
        for s in ["C1", "D2", "C3"] {
            play(&mut b, Color::White, s);
        }
        play(&mut b, Color::White, "B2");
        play(&mut b, Color::Black, "C2"); // captures B2
        assert_eq!(b.stone_at(Coord::new(1, 1)), None);
        let ko = b.ko().expect("ko");
        assert_eq!(ko.point, at(&b, "B2"));
        assert_eq!(b.check(at(&b, "B2"), Color::White), Err(BoardError::Ko));
        assert!(b.is_legal(at(&b, "B2"), Color::Black));
        b.pass();
        assert!(b.is_legal(at(&b, "B2"), Color::White));
    }

    #[test]
    fn suicide_is_illegal_unless_allowed() {
        let mut b = Board::new(5);
        play(&mut b, Color::Black, "A2");
        play(&mut b, Color::Black, "B1");
        assert_eq!(
            b.check(at(&b, "A1"), Color::White),
            Err(BoardError::Suicide)
        );
        // own single-stone "suicide" filling an own eye is fine: it has libs
        assert!(b.is_legal(at(&b, "A1"), Color::Black));
        b.set_allow_suicide(true);
        play(&mut b, Color::White, "A1");
        assert_eq!(b.stone_at(Coord::new(0, 0)), None);
        assert_eq!(b.captures(Color::Black), 1);
    }

    #[test]
    fn merges_count_shared_liberties_once() {
        let mut b = Board::new(9);
        play(&mut b, Color::Black, "D4");
        play(&mut b, Color::Black, "F4");
        play(&mut b, Color::Black, "E5");
        play(&mut b, Color::Black, "E4");
        assert_eq!(b.chain_len(at(&b, "E4")), 4);
        assert_eq!(b.liberties(at(&b, "E4")), 8);
        play(&mut b, Color::White, "E3");
        assert_eq!(b.liberties(at(&b, "E4")), 7);
    }

    #[test]
    fn eyes() {
        let mut b = Board::new(9);
        for s in ["A2", "B1", "B2"] {
            play(&mut b, Color::Black, s);
        }
        assert!(b.is_true_eye(at(&b, "A1"), Color::Black));
        play(&mut b, Color::Black, "E4");
        play(&mut b, Color::Black, "D5");
        play(&mut b, Color::Black, "F5");
        play(&mut b, Color::Black, "E6");
        let e5 = at(&b, "E5");
        assert!(b.is_true_eye(e5, Color::Black));
        play(&mut b, Color::White, "D4");
        assert!(b.is_true_eye(e5, Color::Black));
        play(&mut b, Color::White, "F6");
        assert!(!b.is_true_eye(e5, Color::Black));
    }

    #[test]
    fn area_counts_regions() {
        let mut b = Board::new(3);
        play(&mut b, Color::Black, "B1");
        play(&mut b, Color::Black, "B2");
        play(&mut b, Color::Black, "B3");
        assert_eq!(b.area(), (9, 0));
        play(&mut b, Color::White, "C2");
        assert_eq!(b.area(), (6, 1));
    }

    #[test]
    fn copy_from_equals_clone() {
        let mut big = Board::new(19);
        play(&mut big, Color::Black, "Q16");
        let mut b = Board::new(9);
        play(&mut b, Color::Black, "E5");
        play(&mut b, Color::White, "E6");
        big.copy_from(&b);
        assert_eq!(big.size(), 9);
        assert_eq!(big.hash(), b.hash());
        big.check_consistency().unwrap();
        assert_eq!(big.render(), b.render());
    }
}
