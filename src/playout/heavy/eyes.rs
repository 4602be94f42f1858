//! Rules 7 and 8 of the heavy policy: fix an own eye one step from false,
//! and play the vital point of a nakade shape next to the last move.

use super::Cands;
use crate::rules::{Board, Cell, Color, Point};

/// Eye fixes: for each empty point diagonal to `last` that is an eye of
/// `color` away from the edge, with `last` now its one opponent diagonal,
/// the eye's one remaining diagonal where the opponent could play (legal,
/// not a self-atari) and so make it false. With two or more such
/// diagonals one move does not fix the eye, and an eye on the edge is
/// false as soon as one diagonal is the opponent's: no candidate.
pub(super) fn eye_fix_cands(board: &Board, color: Color, last: Point, c: &mut Cands) {
    let opp = Cell::stone(color.opponent());
    if board.cell(last) != opp {
        return;
    }
    let them = color.opponent();
    for e in board.diagonals(last) {
        if board.cell(e) != Cell::Empty || !board.is_eyelike(e, color) {
            continue;
        }
        let diag = board.diagonals(e);
        let mut bad = 0;
        let mut edge = false;
        for &d in &diag {
            match board.cell(d) {
                Cell::Border => edge = true,
                x if x == opp => bad += 1,
                _ => {}
            }
        }
        if edge || bad != 1 {
            continue;
        }
        let mut threats = diag.iter().filter(|&&d| {
            board.cell(d) == Cell::Empty && board.is_legal(d, them) && !board.is_self_atari(d, them)
        });
        if let (Some(&d), None) = (threats.next(), threats.next())
            && board.is_playout_candidate(d, color)
            && !board.is_self_atari(d, color)
        {
            c.push(d);
        }
    }
}

/// The vital point of a small enclosed empty region (3 to 6 points)
/// containing `start`: the unique point with the most neighbours inside
/// the region, if it has at least two.
pub fn nakade_point(board: &Board, start: Point) -> Option<Point> {
    nakade_region(board, start, &mut [Point(0); 7]).1
}

/// [`nakade_point`], with the empty points the fill visited (the first of
/// the returned count) in `region`: all of them lie in `start`'s connected
/// empty region, so every start among them has the same answer.
pub(super) fn nakade_region(
    board: &Board,
    start: Point,
    region: &mut [Point; 7],
) -> (usize, Option<Point>) {
    if board.cell(start) != Cell::Empty {
        return (0, None);
    }
    let mut n = 1;
    region[0] = start;
    let mut i = 0;
    let mut border_color: Option<Cell> = None;
    while i < n {
        let p = region[i];
        i += 1;
        for q in board.neighbors(p) {
            match board.cell(q) {
                Cell::Empty => {
                    if !region[..n].contains(&q) {
                        if n == 7 {
                            return (n, None);
                        }
                        region[n] = q;
                        n += 1;
                    }
                }
                Cell::Border => {}
                stone => match border_color {
                    None => border_color = Some(stone),
                    Some(c) if c != stone => return (n, None),
                    _ => {}
                },
            }
        }
    }
    if !(3..=6).contains(&n) {
        return (n, None);
    }
    (n, vital_point(board, &region[..n]))
}

/// The vital point of a small region of points: the unique one with the
/// most neighbours inside the region, if it has at least two.
pub(super) fn vital_point(board: &Board, region: &[Point]) -> Option<Point> {
    let degree = |p: Point| {
        board
            .neighbors(p)
            .iter()
            .filter(|q| region.contains(q))
            .count()
    };
    let mut best = None;
    let mut best_deg = 0;
    let mut unique = false;
    for &p in region {
        let d = degree(p);
        if d > best_deg {
            (best, best_deg, unique) = (Some(p), d, true);
        } else if d == best_deg {
            unique = false;
        }
    }
    best.filter(|_| unique && best_deg >= 2)
}

/// The vital points of the regions next to `last`. Neighbours in a region
/// already filled from another neighbour are skipped: in open play all
/// four usually share one large region, and the fill was an eighth of a
/// 19x19 playout's time when each ran its own.
pub(super) fn nakade_cands(board: &Board, color: Color, last: Point, c: &mut Cands) {
    let mut filled = [[Point(0); 7]; 4];
    let mut sizes = [0usize; 4];
    for (k, q) in board.neighbors(last).into_iter().enumerate() {
        if (0..k).any(|j| filled[j][..sizes[j]].contains(&q)) {
            continue;
        }
        let (n, v) = nakade_region(board, q, &mut filled[k]);
        sizes[k] = n;
        if let Some(v) = v
            && board.is_playout_candidate(v, color)
        {
            c.push(v);
        }
    }
}
