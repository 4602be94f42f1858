//! 3x3 patterns for the playout policy and the priors.
//!
//! The shapes are the classic ones published with MoGo (hane, cut, edge
//! moves), written here in our own notation. A pattern is nine characters,
//! rows from north to south, the centre being the empty point to play:
//!
//! - `X` a stone of colour A, `O` a stone of colour B;
//! - `x` not A (empty or B), `o` not B (empty or A);
//! - `.` empty, `#` off the board, `?` anything.
//!
//! Every pattern is matched in all eight orientations and with both colour
//! assignments, so a match marks a point that matters to either player.
//! The matcher is a 65,536-entry table indexed by [`Board::pattern3`],
//! built once.

use std::sync::OnceLock;

use crate::rules::{Board, PATTERN3_OFFSETS, Point, symmetry};

const PATTERNS: &[&str] = &[
    // hane: enclosing, non-cutting, magari, thin
    "XOX...???",
    "XO....?.?",
    "XO?X..x.?",
    "XOO...?.?",
    // diagonal attachment
    ".O.X.....",
    // cut: unprotected, peeped, de
    "XO?O.o?o?",
    "XO?O.X???",
    "?X?O.Oooo",
    // edge: chase, block the cut, block the connection, sagari, cut
    "X.?O.?##?",
    "OX?X.O###",
    "?X?x.O###",
    "?XO?.x###",
    "?OX?.O###",
];

/// The pattern-string index of an offset: row 0 is north.
fn string_index(dx: i8, dy: i8) -> usize {
    ((1 - dy) * 3 + (dx + 1)) as usize
}

fn cell_matches(want: u8, cell: u16, a: u16, b: u16) -> bool {
    const EMPTY: u16 = 0;
    const BORDER: u16 = 3;
    match want {
        b'?' => true,
        b'.' => cell == EMPTY,
        b'#' => cell == BORDER,
        b'X' => cell == a,
        b'O' => cell == b,
        b'x' => cell == EMPTY || cell == b,
        b'o' => cell == EMPTY || cell == a,
        _ => unreachable!("bad pattern character"),
    }
}

fn build() -> Box<[bool; 65536]> {
    let mut table = Box::new([false; 65536]);
    for code in 0..=u16::MAX {
        let cell = |i: usize| (code >> (2 * i)) & 3;
        'found: for pat in PATTERNS {
            let pat = pat.as_bytes();
            debug_assert_eq!(pat[4], b'.');
            for t in 0..8 {
                for (a, b) in [(1, 2), (2, 1)] {
                    let ok = PATTERN3_OFFSETS.iter().enumerate().all(|(i, &(dx, dy))| {
                        let (tx, ty) = symmetry(t, (dx, dy));
                        cell_matches(pat[string_index(tx, ty)], cell(i), a, b)
                    });
                    if ok {
                        table[code as usize] = true;
                        break 'found;
                    }
                }
            }
        }
    }
    table
}

static TABLE: OnceLock<Box<[bool; 65536]>> = OnceLock::new();

/// Builds the match table now (about 0.1 s, once per process), so that
/// no search pays for it inside its time.
pub fn init() {
    TABLE.get_or_init(build);
}

/// True if the empty point `p` matches one of the patterns.
#[inline]
pub fn matches(board: &Board, p: Point) -> bool {
    TABLE.get_or_init(build)[board.pattern3(p) as usize]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Color, Coord};

    fn board(stones: &[(u8, u8, Color)]) -> Board {
        let mut b = Board::new(9);
        for &(x, y, c) in stones {
            b.set_stone(Coord::new(x, y), Some(c));
        }
        b
    }

    #[test]
    fn hane_and_cut_match_in_every_orientation() {
        use Color::*;
        // Enclosing hane: X O X above the centre E5, with the row below empty.
        for (stones, centre) in [
            (vec![(3, 5, Black), (4, 5, White), (5, 5, Black)], (4, 4)),
            (vec![(3, 3, Black), (4, 3, White), (5, 3, Black)], (4, 4)),
            (vec![(5, 3, White), (5, 4, Black), (5, 5, White)], (4, 4)),
        ] {
            let b = board(&stones);
            assert!(matches(&b, b.point(Coord::new(centre.0, centre.1))));
        }
        // An unprotected cut: X at NW, O at N and W.
        let b = board(&[(3, 5, Black), (4, 5, White), (3, 4, White)]);
        assert!(matches(&b, b.point(Coord::new(4, 4))));
        // An empty neighbourhood matches nothing.
        let b = Board::new(9);
        assert!(!matches(&b, b.point(Coord::new(4, 4))));
        // Edge: chase on the first line.
        let b = board(&[(4, 1, Black), (4, 0, White)]);
        assert!(matches(&b, b.point(Coord::new(3, 0))));
    }
}
