//! A small set of distinct chains in a fixed array: the question "which
//! different chains touch this point (or this chain, or this list of
//! stones)?" that the board, the tactics, the playout policy and the
//! solver all ask. One type, so that what happens when the array is full
//! is the caller's explicit choice ([`ChainInsert::Full`]) and never a silent
//! drop.

use super::{Board, Cell, Point};

/// What [`ChainSet::insert`] did with a stone's chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChainInsert {
    /// The chain was not in the set and is now.
    New,
    /// The chain was already in the set (through this or another stone).
    Seen,
    /// The chain is not in the set and the set is full: it was not added.
    /// The caller decides whether to treat it as new (and risk handling a
    /// chain twice) or to skip it.
    Full,
}

/// Up to `N` distinct chains, in the order they were met. Each is kept as
/// the stone it was met through (what the caller reads liberties or
/// stones from, so that orders stay as the caller's loop made them) and
/// keyed by its head, which is valid while the board is unchanged.
#[derive(Clone, Copy, Debug)]
pub struct ChainSet<const N: usize> {
    heads: [Point; N],
    stones: [Point; N],
    len: usize,
}

impl<const N: usize> Default for ChainSet<N> {
    fn default() -> Self {
        ChainSet::new()
    }
}

impl<const N: usize> ChainSet<N> {
    /// The empty set.
    #[inline]
    pub const fn new() -> Self {
        ChainSet {
            heads: [Point(0); N],
            stones: [Point(0); N],
            len: 0,
        }
    }

    /// Adds the chain through the stone at `stone` (a stone of `board`).
    #[inline]
    pub fn insert(&mut self, board: &Board, stone: Point) -> ChainInsert {
        self.insert_head(board.chain_head(stone), stone)
    }

    #[inline]
    fn insert_head(&mut self, head: Point, stone: Point) -> ChainInsert {
        if self.heads[..self.len].contains(&head) {
            ChainInsert::Seen
        } else if self.len == N {
            ChainInsert::Full
        } else {
            self.heads[self.len] = head;
            self.stones[self.len] = stone;
            self.len += 1;
            ChainInsert::New
        }
    }

    /// Is the chain through `stone` in the set?
    #[inline]
    pub fn contains(&self, board: &Board, stone: Point) -> bool {
        self.heads[..self.len].contains(&board.chain_head(stone))
    }

    /// The stones the chains were met through, in insertion order.
    #[inline]
    pub fn stones(&self) -> &[Point] {
        &self.stones[..self.len]
    }

    /// The chains' heads, in insertion order.
    #[inline]
    pub fn heads(&self) -> &[Point] {
        &self.heads[..self.len]
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// No further chain can be added.
    #[inline]
    pub fn is_full(&self) -> bool {
        self.len == N
    }
}

impl Board {
    /// The distinct chains of `cell` next to `p`, in the order of
    /// [`Board::neighbors`]. A point has four neighbours, so the set
    /// is never [`ChainInsert::Full`].
    #[inline]
    pub fn neighbor_chains(&self, p: Point, cell: Cell) -> ChainSet<4> {
        self.neighbor_chains_where(p, |q| self.cell(q) == cell)
    }

    /// The distinct chains next to `p` through the neighbours (stones)
    /// for which `keep` holds.
    #[inline]
    pub fn neighbor_chains_where(&self, p: Point, keep: impl Fn(Point) -> bool) -> ChainSet<4> {
        let mut set = ChainSet::new();
        for q in self.neighbors(p) {
            if keep(q) {
                set.insert_head(self.chain_head(q), q);
            }
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Coord;

    fn board(rows: &[&str]) -> Board {
        Board::from_diagram(9, rows).unwrap()
    }

    #[test]
    fn neighbours_of_one_chain_count_once() {
        // Black's C-shaped chain touches B2 three times.
        let b = board(&["X X .", "X . .", "X X ."]);
        let p = b.point(Coord::new(1, 1));
        let set = b.neighbor_chains(p, Cell::Black);
        assert_eq!(set.len(), 1);
        assert!(!set.is_full());
        assert_eq!(set.stones(), &[b.neighbors(p)[0]]);
        assert!(b.neighbor_chains(p, Cell::White).is_empty());
    }

    #[test]
    fn four_distinct_neighbours_fill_the_set() {
        let b = board(&[". X .", "X . X", ". X ."]);
        let p = b.point(Coord::new(1, 1));
        let set = b.neighbor_chains(p, Cell::Black);
        assert_eq!(set.len(), 4);
        assert!(set.is_full());
        // Met in the order of `neighbors`, each through its own stone.
        assert_eq!(set.stones(), &b.neighbors(p));
        assert_eq!(set.heads(), &b.neighbors(p));
    }

    #[test]
    fn a_full_set_says_so_and_still_knows_its_chains() {
        // Three separate White stones and a two-stone chain.
        let b = board(&["O . O . O . O O"]);
        let at = |x: u8| b.point(Coord::new(x, 0));
        let mut set = ChainSet::<2>::new();
        assert_eq!(set.insert(&b, at(0)), ChainInsert::New);
        assert_eq!(set.insert(&b, at(0)), ChainInsert::Seen);
        assert_eq!(set.insert(&b, at(2)), ChainInsert::New);
        assert!(set.is_full());
        // A third chain does not fit and is reported, not dropped silently.
        assert_eq!(set.insert(&b, at(4)), ChainInsert::Full);
        assert_eq!(set.len(), 2);
        assert!(!set.contains(&b, at(4)));
        // A chain already in is still recognised when the set is full.
        assert_eq!(set.insert(&b, at(2)), ChainInsert::Seen);
        // Chains are keyed by head: either stone of a chain is the chain.
        let mut set = ChainSet::<2>::new();
        assert_eq!(set.insert(&b, at(7)), ChainInsert::New);
        assert_eq!(set.insert(&b, at(6)), ChainInsert::Seen);
        assert_eq!(set.stones(), &[at(7)]);
        assert_eq!(set.heads(), &[b.chain_head(at(6))]);
    }
}
