//! Priors: cheap knowledge about a move, expressed as virtual playouts
//! (visits) and virtual wins given to a child when it is created.

use crate::playout::patterns;
use crate::rules::{Board, Cell, Color, Coord, Point};
use crate::tactics::MoveTactics;
use crate::weights::Resolved;

/// The prior of one candidate move.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Prior {
    pub visits: f32,
    pub wins: f32,
}

impl Prior {
    fn good(&mut self, n: f64) {
        self.visits += n as f32;
        self.wins += n as f32;
    }

    fn bad(&mut self, n: f64) {
        self.visits += n as f32;
    }
}

/// Line height of `p`: 1 on the edge.
fn height(board: &Board, p: Point) -> usize {
    let c = board.coord(p);
    let n = board.size();
    let (x, y) = (c.x as usize, c.y as usize);
    1 + x.min(y).min(n - 1 - x).min(n - 1 - y)
}

/// True if no stone lies within Manhattan distance 2 of `p`.
fn nothing_near(board: &Board, p: Point) -> bool {
    let c = board.coord(p);
    let n = board.size() as i32;
    for dy in -2i32..=2 {
        for dx in -2i32..=2 {
            if dx.abs() + dy.abs() > 2 {
                continue;
            }
            let (x, y) = (c.x as i32 + dx, c.y as i32 + dy);
            if x < 0 || y < 0 || x >= n || y >= n {
                continue;
            }
            let q = board.point(Coord::new(x as u8, y as u8));
            if board.cell(q) != Cell::Empty {
                return false;
            }
        }
    }
    true
}

/// True on boards of 13x13 and larger if `p` is a 3-3, 3-4 or 4-4 point
/// of a corner whose 6x6 square holds no stone. Shapes up to distance 3
/// (the learned patterns) and the line priors see one edge at most, so
/// they rate every third-line point alike: tengen opened on the side
/// (C10, C11, R10) as often as in a corner.
fn empty_corner(board: &Board, p: Point) -> bool {
    let n = board.size();
    if n < 13 {
        return false;
    }
    let c = board.coord(p);
    let line = |v: usize| (v + 1).min(n - v);
    let (x, y) = (c.x as usize, c.y as usize);
    if !(3..=4).contains(&line(x)) || !(3..=4).contains(&line(y)) {
        return false;
    }
    let span = |v: usize| if v < n / 2 { 0..6 } else { n - 6..n };
    span(y).all(|yy| {
        span(x).all(|xx| {
            let q = board.point(Coord::new(xx as u8, yy as u8));
            board.cell(q) == Cell::Empty
        })
    })
}

/// The prior of `color` playing the legal move `p` on `board`; `last` is
/// the previous move, if it was a stone.
pub fn prior(board: &Board, color: Color, p: Point, last: Option<Point>, w: &Resolved) -> Prior {
    prior_with(
        board,
        color,
        p,
        last,
        w,
        &MoveTactics::read(board, color, p),
    )
}

/// [`prior`] with the move's tactics already read.
pub fn prior_with(
    board: &Board,
    color: Color,
    p: Point,
    last: Option<Point>,
    w: &Resolved,
    t: &MoveTactics,
) -> Prior {
    let mut pr = Prior::default();
    pr.visits += w.prior_even as f32;
    pr.wins += (w.prior_even / 2.0) as f32;

    let captures = t.captured > 0;
    let self_atari = t.self_atari;
    // Extending into a working ladder only feeds the chain to the ladder:
    // none of the shape bonuses below (pattern, near the last move) apply.
    let futile = futile_escape(t);
    if captures {
        pr.good(w.prior_capture);
    }
    if t.escapes && !self_atari {
        if t.escape_fails {
            pr.bad(w.prior_ladder_escape);
        } else {
            pr.good(w.prior_atari_escape);
        }
    }
    if t.atari_captures {
        pr.good(w.prior_ladder_atari);
    }
    if self_atari && !captures && board.chain_len_after(p, color) >= 2 {
        pr.bad(w.prior_self_atari);
    }
    if board.is_eyelike(p, color) {
        pr.bad(w.prior_eye_fill);
    }
    if patterns::matches(board, p) && !self_atari && !futile {
        pr.good(w.prior_pattern);
    }
    if let Some(l) = last {
        let (a, b) = (board.coord(p), board.coord(l));
        let d = (a.x as i32 - b.x as i32)
            .abs()
            .max((a.y as i32 - b.y as i32).abs());
        if d <= 2 && !futile {
            pr.good(w.prior_near_last);
        }
    }
    if board.size() >= 9 && nothing_near(board, p) {
        match height(board, p) {
            1 => pr.bad(w.prior_line1),
            2 => pr.bad(w.prior_line2),
            3 | 4 => pr.good(w.prior_line3),
            _ => {}
        }
    }
    if w.prior_empty_corner > 0.0 && empty_corner(board, p) {
        pr.good(w.prior_empty_corner);
    }
    pr
}

/// True if the move extends an own chain out of atari into a working
/// ladder and captures nothing: tengen's 19x19 games against GNU Go held
/// 104 such moves in 53 games, ladders run across the board.
pub fn futile_escape(t: &MoveTactics) -> bool {
    t.escapes && t.escape_fails && t.captured == 0
}

/// The prior of a pass: the even prior only.
pub fn pass_prior(w: &Resolved) -> Prior {
    Prior {
        visits: w.prior_even as f32,
        wins: (w.prior_even / 2.0) as f32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::weights::{Weights, phase};

    #[test]
    fn priors_favour_captures_and_punish_the_edge() {
        let w = Weights::default().resolve(phase(0.0));
        let mut b = Board::new(9);
        b.set_stone(Coord::new(4, 4), Some(Color::White));
        for (x, y) in [(3, 4), (5, 4), (4, 5)] {
            b.set_stone(Coord::new(x, y), Some(Color::Black));
        }
        let capture = prior(&b, Color::Black, b.point(Coord::new(4, 3)), None, &w);
        let edge = prior(&b, Color::Black, b.point(Coord::new(0, 0)), None, &w);
        let third = prior(&b, Color::Black, b.point(Coord::new(2, 8 - 2)), None, &w);
        let rate = |p: Prior| p.wins / p.visits;
        assert!(rate(capture) > rate(third) && rate(third) > rate(edge));
        assert!(rate(edge) < 0.5);
    }

    #[test]
    fn empty_corners_come_before_the_side() {
        // The shipped weight is 0 (no gain measured); the test gives it 10.
        let w = Weights {
            prior_empty_corner: [10.0, 0.0, 0.0],
            ..Weights::default()
        }
        .resolve(phase(0.0));
        let mut b = Board::new(19);
        let at = |b: &Board, x, y| prior(b, Color::Black, b.point(Coord::new(x, y)), None, &w);
        let rate = |p: Prior| p.wins / p.visits;
        let side = at(&b, 2, 9);
        for (x, y) in [(2, 2), (2, 3), (3, 3), (15, 16), (16, 15), (15, 15)] {
            assert!(empty_corner(&b, b.point(Coord::new(x, y))), "{x},{y}");
            assert!(rate(at(&b, x, y)) > rate(side), "{x},{y}");
        }
        for (x, y) in [(2, 9), (4, 4), (1, 2), (2, 5)] {
            assert!(!empty_corner(&b, b.point(Coord::new(x, y))), "{x},{y}");
        }
        // A stone in the corner's 6x6 square: no longer empty.
        b.set_stone(Coord::new(5, 5), Some(Color::White));
        assert!(!empty_corner(&b, b.point(Coord::new(2, 2))));
        assert!(empty_corner(&b, b.point(Coord::new(16, 2))));
        // Not on small boards.
        let nine = Board::new(9);
        assert!(!empty_corner(&nine, nine.point(Coord::new(2, 2))));
    }
}
