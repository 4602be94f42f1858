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

mod chain_set;
mod consistency;
mod diagram;
mod geometry;
mod play;
mod predicates;
mod score;

pub use chain_set::{ChainInsert, ChainSet};
pub use diagram::DiagramError;
pub use geometry::{Geometry, MAX_POINTS, Point};
pub use geometry::{PASS_CODE, SLOTS};
pub(crate) use geometry::{PointSet, ix};
pub use predicates::{PATTERN3_OFFSETS, symmetry, symmetry_perms};

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
        self.copy_list_and_scalars(other);
    }

    /// Every array slot, the empty-point list and the scalars equal
    /// (tests of [`Board::copy_window_from`]'s callers).
    #[cfg(test)]
    pub(crate) fn same_state(&self, o: &Board) -> bool {
        let n = self.geo.num_points;
        std::ptr::eq(self.geo, o.geo)
            && self.cells[..n] == o.cells[..n]
            && self.head[..n] == o.head[..n]
            && self.next[..n] == o.next[..n]
            && self.libs[..n] == o.libs[..n]
            && self.count[..n] == o.count[..n]
            && self.nbr[..n] == o.nbr[..n]
            && self.empty_pos[..n] == o.empty_pos[..n]
            && self.num_empty == o.num_empty
            && self.empty[..self.num_empty] == o.empty[..o.num_empty]
            && self.ko == o.ko
            && self.hash == o.hash
            && self.captures == o.captures
    }

    /// Makes `self` equal to `other` when the two boards may differ only
    /// in the slots of `window` and in the empty-point list from place
    /// `list_from` on: the board arrays (the list's index too) are copied
    /// inside `window` only, the list from `list_from`. A search that
    /// plays only on points whose changes stay inside a window, with those
    /// points last in the list ([`Board::empties_last`]), copies a corner
    /// problem of a 19x19 board for a fraction of the cost of
    /// [`Board::copy_from`] (see `tsumego::dfpn`). The caller guarantees
    /// the precondition; the result is then equal to `copy_from`'s.
    pub fn copy_window_from(
        &mut self,
        other: &Board,
        window: std::ops::Range<usize>,
        list_from: usize,
    ) {
        debug_assert!(std::ptr::eq(self.geo, other.geo));
        debug_assert!(list_from <= other.num_empty && list_from <= self.num_empty);
        let w = window;
        self.cells[w.clone()].copy_from_slice(&other.cells[w.clone()]);
        self.head[w.clone()].copy_from_slice(&other.head[w.clone()]);
        self.next[w.clone()].copy_from_slice(&other.next[w.clone()]);
        self.libs[w.clone()].copy_from_slice(&other.libs[w.clone()]);
        self.count[w.clone()].copy_from_slice(&other.count[w.clone()]);
        self.nbr[w.clone()].copy_from_slice(&other.nbr[w.clone()]);
        self.empty_pos[w.clone()].copy_from_slice(&other.empty_pos[w]);
        let e = other.num_empty;
        self.empty[list_from..e].copy_from_slice(&other.empty[list_from..e]);
        self.copy_scalars(other);
    }

    /// Reorders the empty-point list so that the empty points for which
    /// `late` holds come after all the others, and returns how many others
    /// there are. While stones are placed and removed only on `late`
    /// points, the list's first places and the index of every other point
    /// stay as they are ([`Board::copy_window_from`]).
    pub fn empties_last(&mut self, late: impl Fn(Point) -> bool) -> usize {
        let mut list = self.empty[..self.num_empty].to_vec();
        list.sort_by_key(|&p| late(p));
        for (i, &p) in list.iter().enumerate() {
            self.empty[i] = p;
            self.empty_pos[p.idx()] = i as u16;
        }
        list.iter().take_while(|&&p| !late(p)).count()
    }

    /// The empty-point list and the scalars of `other` (the end of
    /// [`Board::copy_from`]).
    fn copy_list_and_scalars(&mut self, other: &Board) {
        let e = other.num_empty;
        self.empty[..e].copy_from_slice(&other.empty[..e]);
        self.copy_scalars(other);
    }

    /// The scalars of `other`: the list's length, the ko, the hash, the
    /// captures and the suicide rule.
    fn copy_scalars(&mut self, other: &Board) {
        self.num_empty = other.num_empty;
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
mod tests;
