//! Playouts on the lean board.
//!
//! This policy is the light one: uniformly random legal moves that
//! never fill the mover's own true eye. The heavy policy of the search will
//! live beside it. Playouts use simple ko only (no history), and are cut
//! off after `3 * size * size` moves so a long cycle cannot loop forever.

pub mod heavy;
pub mod patterns;

use rand::{Rng, SeedableRng, rngs::SmallRng};

use crate::rules::{Board, Color, Point};

/// A random legal move for `color` that does not fill its own true eye, by
/// scanning the empty points from a random start. `None` means pass.
#[inline]
pub fn light_move<R: Rng>(board: &Board, color: Color, rng: &mut R) -> Option<Point> {
    let n = board.num_empty();
    if n == 0 {
        return None;
    }
    // Multiply-shift maps 32 random bits onto 0..n; the bias (below
    // n / 2^32) does not matter for playouts and it is much cheaper than an
    // exact uniform draw.
    let start = ((rng.next_u32() as u64 * n as u64) >> 32) as usize;
    let empties = board.empty_slice();
    let pick = |&p: &Point| board.is_playout_candidate(p, color);
    empties[start..]
        .iter()
        .find(|p| pick(p))
        .or_else(|| empties[..start].iter().find(|p| pick(p)))
        .copied()
}

/// What a finished playout reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayoutResult {
    /// Stones played (passes excluded).
    pub moves: usize,
    /// True if the playout hit the move cap instead of two passes.
    pub cut_off: bool,
}

/// Plays moves chosen by `pick(board, to_move, last_move)` until two
/// consecutive passes (`None`) or the move cap, starting with `to_move`.
/// `played` sees every stone played. The one playout loop of the light and
/// heavy policies.
#[inline]
pub fn run_playout(
    board: &mut Board,
    mut to_move: Color,
    mut last: Option<Point>,
    mut pick: impl FnMut(&Board, Color, Option<Point>) -> Option<Point>,
    mut played: impl FnMut(Point, Color),
) -> PlayoutResult {
    let cap = 3 * board.size() * board.size();
    let mut moves = 0;
    let mut passes = 0;
    while passes < 2 {
        if moves >= cap {
            return PlayoutResult {
                moves,
                cut_off: true,
            };
        }
        match pick(board, to_move, last) {
            Some(p) => {
                board.play_unchecked(p, to_move);
                played(p, to_move);
                moves += 1;
                passes = 0;
                last = Some(p);
            }
            None => {
                board.pass();
                passes += 1;
                last = None;
            }
        }
        to_move = to_move.opponent();
    }
    PlayoutResult {
        moves,
        cut_off: false,
    }
}

/// Plays a light random playout on `board` until two consecutive passes
/// (or the move cap), starting with `to_move`.
pub fn light_playout<R: Rng>(board: &mut Board, to_move: Color, rng: &mut R) -> PlayoutResult {
    run_playout(
        board,
        to_move,
        None,
        |b, c, _| light_move(b, c, rng),
        |_, _| {},
    )
}

/// Monte-Carlo ownership: for each point of `board.points()`, the mean of
/// +1 (Black's area) / -1 (White's) / 0 over `playouts` light playouts.
/// Deterministic for a given `seed`.
pub fn ownership(board: &Board, to_move: Color, playouts: usize, seed: u64) -> Vec<f32> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut sum = vec![0i32; board.points().len()];
    let mut scratch = board.clone();
    for _ in 0..playouts {
        scratch.copy_from(board);
        light_playout(&mut scratch, to_move, &mut rng);
        for (s, owner) in sum.iter_mut().zip(scratch.area_owner()) {
            *s += match owner {
                Some(Color::Black) => 1,
                Some(Color::White) => -1,
                None => 0,
            };
        }
    }
    let n = playouts.max(1) as f32;
    sum.into_iter().map(|s| s as f32 / n).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Coord;

    #[test]
    fn playouts_end_and_stay_consistent() {
        let mut rng = SmallRng::seed_from_u64(7);
        for size in [2, 3, 5, 9, 13] {
            for _ in 0..20 {
                let mut b = Board::new(size);
                let r = light_playout(&mut b, Color::Black, &mut rng);
                b.check_consistency().unwrap();
                assert!(r.moves > 0);
                // At the end, no move is left for either side except own eyes.
                if !r.cut_off {
                    for c in Color::BOTH {
                        assert!(light_move(&b, c, &mut rng).is_none());
                    }
                }
            }
        }
    }

    #[test]
    fn ownership_sees_a_dead_stone() {
        // 5x5: Black owns rows 2-5 with two eyes (A5, C5); a white stone sits
        // on the first line, where it can never live.
        let mut b = Board::new(5);
        for y in 1..5u8 {
            for x in 0..5u8 {
                if !(y == 4 && (x == 0 || x == 2)) {
                    b.set_stone(Coord::new(x, y), Some(Color::Black));
                }
            }
        }
        b.set_stone(Coord::new(0, 0), Some(Color::White));
        let own = ownership(&b, Color::White, 200, 1);
        let idx = b
            .points()
            .iter()
            .position(|&p| b.coord(p) == Coord::new(0, 0))
            .unwrap();
        assert!(own[idx] > 0.9, "lone white stone owned by {}", own[idx]);
        assert!(own.iter().all(|&o| o > 0.9));
    }
}
