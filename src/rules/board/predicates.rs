//! Questions the playout policy and the priors ask about a point: self-
//! atari, the chain a move would make, the 3x3 pattern, eyes, and whether
//! a random move there is worth playing.

use super::*;

/// Offsets (dx, dy) of the neighbours in [`Board::pattern3`] order: N, E,
/// S, W, NE, SE, SW, NW (dy > 0 is north).
pub const PATTERN3_OFFSETS: [(i8, i8); 8] = [
    (0, 1),
    (1, 0),
    (0, -1),
    (-1, 0),
    (1, 1),
    (1, -1),
    (-1, -1),
    (-1, 1),
];

/// Symmetry `s` (0..8) of the square applied to the offset (x, y): bit 2
/// swaps the axes, then bit 0 mirrors x and bit 1 mirrors y.
pub fn symmetry(s: usize, (x, y): (i8, i8)) -> (i8, i8) {
    let (x, y) = if s & 4 != 0 { (y, x) } else { (x, y) };
    let x = if s & 1 != 0 { -x } else { x };
    let y = if s & 2 != 0 { -y } else { y };
    (x, y)
}

/// Where each symmetry of the square sends each offset of `offsets`:
/// `perm[s][i]` is the index in `offsets` of [`symmetry`] `s` of
/// `offsets[i]`. The offsets must be closed under the symmetries (a ring
/// or a diamond around the point); an offset whose image is missing
/// panics.
pub fn symmetry_perms<const N: usize>(offsets: &[(i8, i8); N]) -> [[u8; N]; 8] {
    let mut p = [[0u8; N]; 8];
    for (s, row) in p.iter_mut().enumerate() {
        for (slot, &o) in row.iter_mut().zip(offsets) {
            let img = symmetry(s, o);
            *slot = offsets
                .iter()
                .position(|&q| q == img)
                .expect("offsets closed under the symmetries") as u8;
        }
    }
    p
}

impl Board {
    /// True if `color` playing on the empty point `p` would leave its chain
    /// with at most one liberty without capturing anything (a self-atari,
    /// or suicide).
    pub fn is_self_atari(&self, p: Point, color: Color) -> bool {
        let packed = self.nbr[p.idx()];
        packed & NBR_MASK < 2 && self.liberties_after(p, color, 2) <= 1
    }

    /// Liberties, counted up to `cap` (at most 4), of the chain `color`
    /// would form by playing the empty point `p`, without playing it. A
    /// move that captures counts as `cap`: the captured stones give
    /// liberties. The ladder reader (`crate::tactics`) uses it to skip
    /// lines it need not play out.
    pub fn liberties_after(&self, p: Point, color: Color, cap: usize) -> usize {
        let cap = cap.min(4);
        let me = Cell::stone(color);
        let mut found = [Point(0); 4];
        let mut n = 0;
        let mut add = |q: Point, n: &mut usize| {
            if q != p && !found[..*n].contains(&q) {
                found[*n] = q;
                *n += 1;
            }
            *n >= cap
        };
        for q in self.neighbors(p) {
            match self.cells[q.idx()] {
                Cell::Empty => {
                    if add(q, &mut n) {
                        return cap;
                    }
                }
                Cell::Border => {}
                c if c == me => {
                    if self.liberties(q) > cap {
                        return cap;
                    }
                    let mut libs = [Point(0); 4];
                    let k = self.chain_liberties(q, &mut libs);
                    for &l in &libs[..k] {
                        if add(l, &mut n) {
                            return cap;
                        }
                    }
                }
                _ => {
                    if self.liberties(q) == 1 {
                        return cap;
                    }
                }
            }
        }
        n
    }

    /// Stones of the chain `color` would form by playing at `p`.
    pub fn chain_len_after(&self, p: Point, color: Color) -> usize {
        1 + self
            .neighbor_chains(p, Cell::stone(color))
            .heads()
            .iter()
            .map(|&h| self.count[h.idx()] as usize)
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

    /// Number of `color` stones among the orthogonal neighbours of `p`.
    #[inline]
    pub fn stone_neighbors(&self, p: Point, color: Color) -> usize {
        nbr_count(self.nbr[p.idx()], color) as usize
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
    pub(super) fn eye_diagonals_ok(&self, p: Point, color: Color) -> bool {
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
}
