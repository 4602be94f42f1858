//! Learned 3x3 patterns for the playouts: the strength (gamma) of playing
//! each empty point next to the last move (the eight around it), from its
//! 3x3 neighbourhood seen from the mover with atari marks on the four
//! orthogonal neighbours, against the strength of playing anywhere else.
//!
//! The gammas are learned by minorization-maximization from the same
//! records as the prior's model (`tengen patterns learn`,
//! [`super::learn::playout`]) and
//! stored in the same file as groups `play3` (a shape) and `playrest`
//! (1: a shape the model does not know, 2: a move elsewhere). In a
//! playout, the pattern rule draws a neighbour with probability gamma /
//! (sum of the neighbours' gammas + the elsewhere gamma times the weight
//! `po_pattern_elsewhere`), and otherwise
//! leaves the move to the later rules; a dense table of every code
//! ([`PlayTable`]) makes that a lookup per neighbour.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use super::features::{self, FeatureGroup};
use crate::rules::{Board, Cell, Color, PATTERN3_OFFSETS, Point, symmetry_perms};

/// Codes are 20 bits: the board's 16-bit [`Board::pattern3`] code with
/// the colours seen from the mover (1 mine, 2 theirs; 0 empty, 3 off the
/// board), in the order N, E, S, W, NE, SE, SW, NW, and above it one bit
/// per orthogonal neighbour (N, E, S, W) that is a stone in atari.
pub const CODES: usize = 1 << 20;

/// The `playrest` value of a neighbour whose shape the model does not know.
pub const REST_UNKNOWN: u64 = 1;
/// The `playrest` value of a move that is not next to the last move.
pub const REST_ELSEWHERE: u64 = 2;

/// The 20-bit code of `color` playing the empty point `p`.
#[inline]
pub fn code(board: &Board, p: Point, color: Color) -> u32 {
    let raw = board.pattern3(p) as u32;
    let mut c = match color {
        Color::Black => raw,
        // Swap 1 and 2 in every 2-bit field (0 and 3 stay).
        Color::White => ((raw & 0x5555) << 1) | ((raw & 0xAAAA) >> 1),
    };
    let s = board.geometry().stride as u16;
    let orth = [
        Point(p.0 + s),
        Point(p.0 + 1),
        Point(p.0 - s),
        Point(p.0 - 1),
    ];
    for (i, q) in orth.into_iter().enumerate() {
        if matches!(board.cell(q), Cell::Black | Cell::White) && board.liberties(q) == 1 {
            c |= 1 << (16 + i);
        }
    }
    c
}

/// `PERM[s][i]`: where symmetry `s` of the square sends neighbour `i`.
/// Orthogonal neighbours go to orthogonal ones, so the atari bits follow.
fn perms() -> &'static [[u8; 8]; 8] {
    static P: OnceLock<[[u8; 8]; 8]> = OnceLock::new();
    P.get_or_init(|| symmetry_perms(&PATTERN3_OFFSETS))
}

/// The smallest code over the eight symmetries of the square: a shape and
/// its rotations and mirror images are one feature.
pub fn canonical(code: u32) -> u32 {
    let mut best = u32::MAX;
    for row in perms() {
        let mut c = 0u32;
        for (i, &j) in row.iter().enumerate() {
            let j = u32::from(j);
            c |= ((code >> (2 * i)) & 3) << (2 * j);
            if i < 4 {
                c |= ((code >> (16 + i)) & 1) << (16 + j);
            }
        }
        best = best.min(c);
    }
    best
}

/// True if `code` can occur: atari marks only on stones.
pub fn is_valid(code: u32) -> bool {
    (0..4).all(|i| (code >> (16 + i)) & 1 == 0 || matches!((code >> (2 * i)) & 3, 1 | 2))
}

/// The playout table of a model: a gamma for every code, and the gamma of
/// a move elsewhere.
#[derive(Clone)]
pub struct PlayTable {
    gamma: Box<[f32]>,
    elsewhere: f32,
}

impl std::fmt::Debug for PlayTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PlayTable(elsewhere {})", self.elsewhere)
    }
}

impl PlayTable {
    /// The table of a model's `play3` and `playrest` gammas; `None` when
    /// the model has no elsewhere gamma (a file learned before the playout
    /// patterns, or a hand-made one): the playouts then use the fixed 3x3
    /// patterns.
    pub fn new(gamma_of: impl Fn(u64) -> Option<f32>) -> Option<PlayTable> {
        let elsewhere = gamma_of(features::key(FeatureGroup::PlayRest, REST_ELSEWHERE))?;
        let unknown = gamma_of(features::key(FeatureGroup::PlayRest, REST_UNKNOWN)).unwrap_or(1.0);
        let mut canon: BTreeMap<u32, f32> = BTreeMap::new();
        let mut gamma = vec![0.0f32; CODES].into_boxed_slice();
        for (c, g) in gamma.iter_mut().enumerate() {
            let c = c as u32;
            if !is_valid(c) {
                continue;
            }
            let k = canonical(c);
            *g = *canon.entry(k).or_insert_with(|| {
                gamma_of(features::key(FeatureGroup::Play3, k as u64)).unwrap_or(unknown)
            });
        }
        Some(PlayTable { gamma, elsewhere })
    }

    /// The gamma of a code.
    #[inline]
    pub fn gamma(&self, code: u32) -> f32 {
        self.gamma[code as usize]
    }

    /// The gamma of a move elsewhere.
    pub fn elsewhere(&self) -> f32 {
        self.elsewhere
    }
}

/// The candidates of the playout rule after `last`: the empty points
/// around it that `color` may play (legal, not an own true eye) and that
/// are not self-ataris, with their codes; `n` of them are valid.
pub fn candidates(board: &Board, color: Color, last: Point, out: &mut [(Point, u32); 8]) -> usize {
    let mut n = 0;
    for q in board
        .neighbors(last)
        .into_iter()
        .chain(board.diagonals(last))
    {
        if board.cell(q) == Cell::Empty
            && board.is_playout_candidate(q, color)
            && !board.is_self_atari(q, color)
        {
            out[n] = (q, code(board, q, color));
            n += 1;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Coord;

    #[test]
    fn codes_see_the_mover_and_ataris() {
        // White C3 in atari (Black B3, C4, C2); Black to play D3 sees
        // "theirs in atari" to the west.
        let mut b = Board::new(9);
        for (x, y) in [(1, 2), (2, 3), (2, 1)] {
            b.set_stone(Coord::new(x, y), Some(Color::Black));
        }
        b.set_stone(Coord::new(2, 2), Some(Color::White));
        let d3 = b.point(Coord::new(3, 2));
        let c = code(&b, d3, Color::Black);
        // W is index 3: theirs (2) with the atari bit; NW and SW mine.
        assert_eq!((c >> 6) & 3, 2);
        assert_eq!(c >> 16, 1 << 3);
        assert_eq!((c >> 14) & 3, 1, "NW is Black's");
        assert_eq!((c >> 12) & 3, 1, "SW is Black's");
        // White to play there sees the same stones as mine / theirs.
        let w = code(&b, d3, Color::White);
        assert_eq!((w >> 6) & 3, 1);
        assert_eq!((w >> 14) & 3, 2);
        assert_eq!(w >> 16, 1 << 3);
        // The corner: off-board neighbours are 3.
        let a1 = b.point(Coord::new(0, 0));
        let c = code(&b, a1, Color::Black);
        for i in [2, 3, 5, 6, 7] {
            assert_eq!((c >> (2 * i)) & 3, 3, "neighbour {i} off the board");
        }
    }

    #[test]
    fn symmetric_shapes_have_one_canonical_code() {
        // The same shape in the four corners, and its mirror image.
        // (Black stone, White stone), the point to play.
        type Shape = ([(u8, u8); 2], (u8, u8));
        let shapes: [Shape; 4] = [
            ([(1, 0), (0, 1)], (0, 0)),
            ([(7, 0), (8, 1)], (8, 0)),
            ([(0, 7), (1, 8)], (0, 8)),
            ([(8, 7), (7, 8)], (8, 8)),
        ];
        let mut codes = Vec::new();
        for (stones, at) in shapes {
            let mut b = Board::new(9);
            b.set_stone(Coord::new(stones[0].0, stones[0].1), Some(Color::Black));
            b.set_stone(Coord::new(stones[1].0, stones[1].1), Some(Color::White));
            let mut mirrored = Board::new(9);
            mirrored.set_stone(Coord::new(stones[0].0, stones[0].1), Some(Color::White));
            mirrored.set_stone(Coord::new(stones[1].0, stones[1].1), Some(Color::Black));
            let p = b.point(Coord::new(at.0, at.1));
            codes.push(canonical(code(&b, p, Color::Black)));
            // Colours swapped and White to move: the same shape.
            codes.push(canonical(code(&mirrored, p, Color::White)));
        }
        assert!(codes.iter().all(|&c| c == codes[0]), "{codes:x?}");
        // Canonical codes are fixed points, and valid codes stay valid.
        for c in [0u32, 0x1_0001, 0x3_0f0f, 0xf_5a5a] {
            if is_valid(c) {
                let k = canonical(c);
                assert_eq!(canonical(k), k);
                assert!(is_valid(k));
            }
        }
    }

    #[test]
    fn the_table_maps_every_symmetry_to_its_gamma() {
        let mut b = Board::new(9);
        b.set_stone(Coord::new(4, 5), Some(Color::Black));
        b.set_stone(Coord::new(5, 5), Some(Color::White));
        let p = b.point(Coord::new(4, 4));
        let k = canonical(code(&b, p, Color::Black));
        let gammas = |key: u64| {
            if key == features::key(FeatureGroup::Play3, k as u64) {
                Some(4.0)
            } else if key == features::key(FeatureGroup::PlayRest, REST_ELSEWHERE) {
                Some(2.0)
            } else if key == features::key(FeatureGroup::PlayRest, REST_UNKNOWN) {
                Some(0.5)
            } else {
                None
            }
        };
        let t = PlayTable::new(gammas).unwrap();
        assert_eq!(t.elsewhere(), 2.0);
        // The same shape rotated a quarter turn: Black west, White north-west.
        let mut r = Board::new(9);
        r.set_stone(Coord::new(3, 4), Some(Color::Black));
        r.set_stone(Coord::new(3, 5), Some(Color::White));
        assert_eq!(t.gamma(code(&r, p, Color::Black)), 4.0);
        // An unknown shape gets the unknown gamma.
        assert_eq!(t.gamma(code(&Board::new(9), p, Color::Black)), 0.5);
        // No elsewhere gamma: no table.
        assert!(PlayTable::new(|_| None).is_none());
    }
}
