//! Rule 9 of the heavy policy: a point next to the last move that matches
//! a fixed 3x3 pattern, or one drawn by its learned gamma.

use rand::Rng;

use super::Cands;
use crate::learned::play3::{self, PlayTable};
use crate::playout::patterns;
use crate::rules::{Board, Cell, Color, Point};

/// The points next to `last` (the eight around it) that match a 3x3
/// pattern and are not self-atari.
pub(super) fn pattern_cands(board: &Board, color: Color, last: Point, c: &mut Cands) {
    for q in board
        .neighbors(last)
        .into_iter()
        .chain(board.diagonals(last))
    {
        if board.cell(q) == Cell::Empty
            && patterns::matches(board, q)
            && board.is_playout_candidate(q, color)
            && !board.is_self_atari(q, color)
        {
            c.push(q);
        }
    }
}

/// A point next to `last` drawn by its learned gamma, against the gamma of
/// a move elsewhere times `scale` (then `None`: the later rules choose).
pub(super) fn learned_pattern<R: Rng>(
    board: &Board,
    color: Color,
    last: Point,
    t: &PlayTable,
    scale: f32,
    rng: &mut R,
) -> Option<Point> {
    let mut cands = [(Point(0), 0u32); 8];
    let n = play3::candidates(board, color, last, &mut cands);
    let mut upto = [0.0f32; 8];
    let mut sum = 0.0f32;
    for (u, &(_, code)) in upto.iter_mut().zip(&cands[..n]) {
        sum += t.gamma(code);
        *u = sum;
    }
    let r = (rng.next_u32() as f32 / 4_294_967_296.0) * (sum + scale * t.elsewhere());
    (0..n).find(|&i| r < upto[i]).map(|i| cands[i].0)
}
