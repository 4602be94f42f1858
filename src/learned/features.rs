//! The features of a candidate move that the learned model rates: a
//! spatial pattern (the diamond of radius 3 or 2 around the point), the
//! 3x3 neighbourhood with atari marks, and tactical features (capture,
//! atari escape, atari, self-atari, distance to the last two moves, line).
//!
//! Every feature is one `u64` key: the group in the top byte, the value
//! below. Patterns are seen from the player to move (mine / theirs) and
//! reduced to the smallest code over the eight symmetries of the square,
//! so a shape and its rotations and reflections are one feature.

use std::sync::OnceLock;

use crate::rules::{Board, Cell, Color, Coord, Point, symmetry_perms};
use crate::tactics::MoveTactics;

/// A feature group: a candidate has at most one feature of each group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum FeatureGroup {
    /// The diamond of radius 3 (24 points), 2 bits a point.
    Diamond3 = 0,
    /// The diamond of radius 2 (12 points), used where the radius-3 shape
    /// is not in the model.
    Diamond2 = 1,
    /// The 3x3 neighbourhood, 3 bits a point: empty, mine, theirs, off the
    /// board, mine in atari, theirs in atari.
    Nbr3 = 2,
    /// Captures: 1 one stone, 2 more stones, 3 a capture next to an own
    /// chain in atari.
    Capture = 3,
    /// Extends an own chain out of atari: 1 into a working ladder (or to
    /// at most one liberty), 2 to two liberties, 3 to three or more.
    Escape = 4,
    /// Ataris an opponent chain: 1 one that is captured in a ladder, 2
    /// any other.
    Atari = 5,
    /// Self-atari: 1 of one stone, 2 of more.
    SelfAtari = 6,
    /// Distance to the last move (see [`distance`]), 2..=[`MAX_DISTANCE`].
    Last = 7,
    /// Distance to the move before the last one.
    Last2 = 8,
    /// Line height: 1 on the edge, .. [`MAX_LINE`] and beyond.
    Line = 9,
    /// Playouts: the 3x3 shape of a point next to the last move, with
    /// atari marks on the orthogonal neighbours ([`super::play3`]).
    Play3 = 10,
    /// Playouts: 1 a point next to the last move whose shape the model
    /// does not know, 2 a move elsewhere.
    PlayRest = 11,
}

/// Every group a pattern file may hold, in key order: the prior's, then
/// the playouts' ([`super::play3`]), learned apart from them.
pub const GROUPS: [FeatureGroup; 12] = [
    FeatureGroup::Diamond3,
    FeatureGroup::Diamond2,
    FeatureGroup::Nbr3,
    FeatureGroup::Capture,
    FeatureGroup::Escape,
    FeatureGroup::Atari,
    FeatureGroup::SelfAtari,
    FeatureGroup::Last,
    FeatureGroup::Last2,
    FeatureGroup::Line,
    FeatureGroup::Play3,
    FeatureGroup::PlayRest,
];

/// The groups of the prior's model: a candidate of the search has at most
/// one feature of each.
pub const PRIOR_GROUPS: &[FeatureGroup] = GROUPS.split_at(FeatureGroup::Play3 as usize).0;

impl FeatureGroup {
    pub fn name(self) -> &'static str {
        match self {
            FeatureGroup::Diamond3 => "diamond3",
            FeatureGroup::Diamond2 => "diamond2",
            FeatureGroup::Nbr3 => "nbr3",
            FeatureGroup::Capture => "capture",
            FeatureGroup::Escape => "escape",
            FeatureGroup::Atari => "atari",
            FeatureGroup::SelfAtari => "selfatari",
            FeatureGroup::Last => "last",
            FeatureGroup::Last2 => "last2",
            FeatureGroup::Line => "line",
            FeatureGroup::Play3 => "play3",
            FeatureGroup::PlayRest => "playrest",
        }
    }

    pub fn from_name(name: &str) -> Option<FeatureGroup> {
        GROUPS.iter().copied().find(|g| g.name() == name)
    }

    /// True for the spatial groups whose values are not a small fixed set.
    pub fn is_shape(self) -> bool {
        matches!(
            self,
            FeatureGroup::Diamond3
                | FeatureGroup::Diamond2
                | FeatureGroup::Nbr3
                | FeatureGroup::Play3
        )
    }

    /// Largest value the group can take.
    pub fn max_value(self) -> u64 {
        match self {
            FeatureGroup::Diamond3 => (1 << 48) - 1,
            FeatureGroup::Diamond2 => (1 << 24) - 1,
            FeatureGroup::Nbr3 => (1 << 24) - 1,
            FeatureGroup::Capture | FeatureGroup::Escape => 3,
            FeatureGroup::Atari | FeatureGroup::SelfAtari => 2,
            FeatureGroup::Last | FeatureGroup::Last2 => MAX_DISTANCE as u64,
            FeatureGroup::Line => MAX_LINE as u64,
            FeatureGroup::Play3 => (1 << 20) - 1,
            FeatureGroup::PlayRest => 2,
        }
    }
}

/// The name of the feature set this code computes. A pattern file made
/// for another set is refused: change it whenever a feature's meaning
/// changes.
pub const FEATURE_SET: &str = "d3-d2-n3a-cap3-esc3-atari2-sa2-last12-last2x12-line6";

/// Distances at or beyond this are one value.
pub const MAX_DISTANCE: u32 = 12;
/// Line heights at or beyond this are one value.
pub const MAX_LINE: u32 = 6;

/// A feature key: the group in the top byte.
pub fn key(g: FeatureGroup, value: u64) -> u64 {
    ((g as u64) << 56) | value
}

/// The group of a key, if valid.
pub fn key_group(k: u64) -> Option<FeatureGroup> {
    GROUPS.get((k >> 56) as usize).copied()
}

/// The value of a key.
pub fn key_value(k: u64) -> u64 {
    k & ((1 << 56) - 1)
}

/// Coulom's move distance: |dx| + |dy| + max(|dx|, |dy|), so 2 next to,
/// 3 diagonal, 4 a one-point jump; capped at [`MAX_DISTANCE`].
pub fn distance(a: Coord, b: Coord) -> u32 {
    let dx = (a.x as i32 - b.x as i32).unsigned_abs();
    let dy = (a.y as i32 - b.y as i32).unsigned_abs();
    (dx + dy + dx.max(dy)).min(MAX_DISTANCE)
}

/// Offsets of the diamond of radius 3, nearest first: the four
/// neighbours, the four diagonals (the 3x3 ring), the four two-point
/// jumps (the radius-2 diamond ends here, at 12), then the 12 points at
/// distance 3.
const OFFSETS: [(i8, i8); 24] = [
    (0, 1),
    (1, 0),
    (0, -1),
    (-1, 0),
    (1, 1),
    (1, -1),
    (-1, -1),
    (-1, 1),
    (0, 2),
    (2, 0),
    (0, -2),
    (-2, 0),
    (0, 3),
    (3, 0),
    (0, -3),
    (-3, 0),
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// For each of the 8 symmetries, `PERM[s][i]` is the offset index that
/// symmetry `s` sends offset `i` to.
fn perms() -> &'static [[u8; 24]; 8] {
    static P: OnceLock<[[u8; 24]; 8]> = OnceLock::new();
    P.get_or_init(|| symmetry_perms(&OFFSETS))
}

const EMPTY: u8 = 0;
const MINE: u8 = 1;
const THEIRS: u8 = 2;
const OFF: u8 = 3;

/// The raw features of one candidate, before the model picks which
/// spatial shape it knows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Raw {
    pub diamond3: u64,
    pub diamond2: u64,
    pub nbr3: u64,
    /// Tactical features as keys; `n` of them are valid.
    pub tactical: [u64; 7],
    pub n: usize,
}

impl Raw {
    pub fn tactical(&self) -> &[u64] {
        &self.tactical[..self.n]
    }

    fn push(&mut self, g: FeatureGroup, v: u64) {
        self.tactical[self.n] = key(g, v);
        self.n += 1;
    }
}

/// The features of `color` playing the empty, legal point `p`; `last` and
/// `last2` are the last two moves (`None` for a pass or no move).
pub fn extract(
    board: &Board,
    color: Color,
    p: Point,
    last: Option<Point>,
    last2: Option<Point>,
) -> Raw {
    extract_with(
        board,
        color,
        p,
        last,
        last2,
        &MoveTactics::read(board, color, p),
    )
}

/// [`extract`] with the move's tactics already read.
pub fn extract_with(
    board: &Board,
    color: Color,
    p: Point,
    last: Option<Point>,
    last2: Option<Point>,
    t: &MoveTactics,
) -> Raw {
    let mut raw = Raw::default();
    let me = Cell::stone(color);
    let c = board.coord(p);
    let n = board.size() as i32;

    // Spatial: read the 24 cells once, then code them under each symmetry.
    let mut cells = [EMPTY; 24];
    let mut atari = [false; 8];
    for (i, &(dx, dy)) in OFFSETS.iter().enumerate() {
        let (x, y) = (c.x as i32 + dx as i32, c.y as i32 + dy as i32);
        cells[i] = if x < 0 || y < 0 || x >= n || y >= n {
            OFF
        } else {
            let q = board.point(Coord::new(x as u8, y as u8));
            match board.cell(q) {
                Cell::Empty => EMPTY,
                k => {
                    if i < 8 {
                        atari[i] = board.liberties(q) == 1;
                    }
                    if k == me { MINE } else { THEIRS }
                }
            }
        };
    }
    let perm = perms();
    let (mut d3, mut d2, mut n3) = (u64::MAX, u64::MAX, u64::MAX);
    for row in perm {
        let (mut a, mut b, mut m) = (0u64, 0u64, 0u64);
        for (i, &j) in row.iter().enumerate() {
            let j = j as usize;
            a |= (cells[j] as u64) << (2 * i);
            if i < 12 {
                b |= (cells[j] as u64) << (2 * i);
            }
            if i < 8 {
                let v = cells[j] as u64 + if atari[j] { 3 } else { 0 };
                m |= v << (3 * i);
            }
        }
        d3 = d3.min(a);
        d2 = d2.min(b);
        n3 = n3.min(m);
    }
    raw.diamond3 = key(FeatureGroup::Diamond3, d3);
    raw.diamond2 = key(FeatureGroup::Diamond2, d2);
    raw.nbr3 = key(FeatureGroup::Nbr3, n3);

    // Tactics.
    let captures = t.captured;
    let own_atari = t.escapes;
    let escapes = t.escapes;
    let self_atari = t.self_atari;
    if captures > 0 {
        let v = if own_atari {
            3
        } else if captures >= 2 {
            2
        } else {
            1
        };
        raw.push(FeatureGroup::Capture, v);
    } else if escapes {
        let v = if t.escape_fails {
            1
        } else if board.liberties_after(p, color, 3) >= 3 {
            3
        } else {
            2
        };
        raw.push(FeatureGroup::Escape, v);
    }
    if t.ataris && !self_atari {
        let v = if t.atari_captures { 1 } else { 2 };
        raw.push(FeatureGroup::Atari, v);
    }
    if self_atari && captures == 0 {
        let v = if board.chain_len_after(p, color) >= 2 {
            2
        } else {
            1
        };
        raw.push(FeatureGroup::SelfAtari, v);
    }
    if let Some(l) = last {
        raw.push(FeatureGroup::Last, distance(c, board.coord(l)) as u64);
    }
    if let Some(l) = last2 {
        raw.push(FeatureGroup::Last2, distance(c, board.coord(l)) as u64);
    }
    let line = 1
        + (c.x as u32)
            .min(c.y as u32)
            .min(n as u32 - 1 - c.x as u32)
            .min(n as u32 - 1 - c.y as u32);
    raw.push(FeatureGroup::Line, line.min(MAX_LINE) as u64);
    raw
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board_with(size: usize, stones: &[(u8, u8, Color)]) -> Board {
        let mut b = Board::new(size);
        for &(x, y, c) in stones {
            b.set_stone(Coord::new(x, y), Some(c));
        }
        b
    }

    #[test]
    fn symmetric_shapes_are_one_feature() {
        // A hane-like shape and its mirror images in the four corners.
        let shapes = [
            [(3, 3, Color::Black), (4, 3, Color::White)],
            [(15, 3, Color::Black), (14, 3, Color::White)],
            [(3, 15, Color::Black), (3, 14, Color::White)],
            [(15, 15, Color::Black), (15, 14, Color::White)],
        ];
        let moves = [(4, 4), (14, 4), (4, 14), (14, 14)];
        let mut keys = Vec::new();
        for (s, (x, y)) in shapes.iter().zip(moves) {
            let b = board_with(19, s);
            let r = extract(&b, Color::Black, b.point(Coord::new(x, y)), None, None);
            keys.push((r.diamond3, r.diamond2, r.nbr3));
        }
        assert!(keys.iter().all(|k| *k == keys[0]), "{keys:?}");
        // Colours are seen from the mover: White playing the colour-swapped
        // position has the same shape.
        let b = board_with(19, &[(3, 3, Color::White), (4, 3, Color::Black)]);
        let r = extract(&b, Color::White, b.point(Coord::new(4, 4)), None, None);
        assert_eq!((r.diamond3, r.diamond2, r.nbr3), keys[0]);
        // Black's view of it differs.
        let r = extract(&b, Color::Black, b.point(Coord::new(4, 4)), None, None);
        assert_ne!(r.diamond3, keys[0].0);
    }

    #[test]
    fn tactical_features() {
        // White stone at (1,1) in atari from three black stones.
        let b = board_with(
            9,
            &[
                (1, 1, Color::White),
                (0, 1, Color::Black),
                (1, 0, Color::Black),
                (2, 1, Color::Black),
            ],
        );
        let p = b.point(Coord::new(1, 2));
        let last = Some(b.point(Coord::new(2, 1)));
        let r = extract(&b, Color::Black, p, last, None);
        assert!(r.tactical().contains(&key(FeatureGroup::Capture, 1)));
        assert!(r.tactical().contains(&key(FeatureGroup::Last, 3)));
        assert!(r.tactical().contains(&key(FeatureGroup::Line, 2)));
        // White extending there escapes to three liberties.
        let r = extract(&b, Color::White, p, None, None);
        assert!(
            r.tactical().contains(&key(FeatureGroup::Escape, 3)),
            "{r:?}"
        );
        assert_eq!(distance(Coord::new(0, 0), Coord::new(0, 2)), 4);
        assert_eq!(distance(Coord::new(0, 0), Coord::new(9, 9)), MAX_DISTANCE);
    }

    #[test]
    fn edges_are_off_board_cells() {
        let b = Board::new(19);
        let corner = extract(&b, Color::Black, b.point(Coord::new(0, 0)), None, None);
        let centre = extract(&b, Color::Black, b.point(Coord::new(9, 9)), None, None);
        assert_eq!(key_value(centre.diamond3), 0);
        assert_ne!(corner.diamond3, centre.diamond3);
        assert_eq!(key_group(corner.nbr3), Some(FeatureGroup::Nbr3));
    }
}
