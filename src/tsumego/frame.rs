//! The tsumego frame: an open problem (a corner or side position from a
//! book, a group in a game) turned into a closed one the exact solver
//! takes.
//!
//! - **The problem's stones.** A book problem is every stone on the board
//!   ([`frame_stones`]). A group in a game is its chains, the chains that
//!   touch them or one of their liberties, and once more the chains near
//!   those ([`frame_group`]): the group and the stones that fight it.
//! - **The box.** The bounding box of those stones. A side of the box
//!   within [`EDGE_GAP`] empty lines of the board's edge is pushed to the
//!   edge (the lines between are part of the problem); the other sides are
//!   *open*.
//! - **The defender's side.** The box less the space beyond the
//!   attacker's wall (`defender_side`): what the defender reaches, the
//!   wall and its gaps next to it, and the liberties of a weak wall chain
//!   are kept; what an open side reaches around them is the frame's. A
//!   one-point gap where the wall runs into the edge closes it (the
//!   outside does not creep along the edge behind the wall), and a pocket
//!   behind the wall that touches only the wall is the frame's.
//! - **Exits.** The points just outside an open side next to an empty
//!   point or a defender stone the region keeps: the ways out the attacker
//!   has not closed. The region is the kept points and the exits.
//! - **The frame.** Every other point next to the region gets an attacker
//!   stone; everything else outside is cleared. Stones outside the region
//!   are safe, as in every problem (a move that would capture one is
//!   illegal), and an attacker chain of the box that touches the frame
//!   joins it: the attacker's outer wall is safe, as a book diagram means
//!   it.
//! - **Escape.** Getting out is life: a crucial chain with a stone on an
//!   exit and two liberties or more has broken out (on the open board it
//!   would have more). The solver's tests for closed regions (static
//!   death, walled-in, no room) wait until a position is sealed: no exit
//!   is left within the defender's reach (`Dfpn::sealed`).
//! - **Who defends.** For a group, its colour. For a book problem, the
//!   colour with fewer stones on the open sides' lines (the other colour's
//!   stones there are its wall); on a tie, the colour whose stones lie
//!   deeper inside the box; its largest chain not on an open side is
//!   crucial. [`solve_open`] tries
//!   the other way round when the side to play provably fails in the
//!   first framing (a "Black to play" problem asks Black to live or to
//!   kill).
//!
//! What the frame may get wrong: an escape that needs more than one step
//! out (a ladder or a net outside decides) or goes through a gap the frame
//! closes, a liberty that a point outside the box or beyond the wall's
//! margin gave a chain (the frame fills it, unless the chain is a weak
//! attacker chain), a weakness of the attacker's outer wall (the frame
//! makes it safe), and a life that rests on friendly stones outside the
//! box (cleared). The tests and docs/tsumego.md ("Open problems") show
//! each.
//!
//! Dependencies: this file builds on [`super::region`] (the [`Problem`]
//! and [`FrameError`] live there); region never reaches back here.

pub use super::region::FrameError;
use super::region::Problem;
use crate::rules::board::MAX_POINTS;
use crate::rules::{Board, Cell, Color, Coord, Point};

/// A side of the stones' box this close to the board's edge (in empty
/// lines between) is taken to the edge rather than framed.
pub const EDGE_GAP: u8 = 2;

/// An attacker chain next to the defender's side with at most this many
/// liberties is weak: the frame keeps its stones and liberties in the
/// region.
pub const WEAK_LIBERTIES: usize = 3;

/// Most empty points a framed region may hold.
pub const MAX_FRAMED_EMPTY: usize = 64;

/// The problem's box: inclusive bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rect {
    x0: u8,
    x1: u8,
    y0: u8,
    y1: u8,
}

impl Rect {
    fn of(board: &Board, pts: impl IntoIterator<Item = Point>) -> Option<Rect> {
        let mut b: Option<Rect> = None;
        for p in pts {
            let c = board.coord(p);
            b = Some(match b {
                None => Rect {
                    x0: c.x,
                    x1: c.x,
                    y0: c.y,
                    y1: c.y,
                },
                Some(b) => Rect {
                    x0: b.x0.min(c.x),
                    x1: b.x1.max(c.x),
                    y0: b.y0.min(c.y),
                    y1: b.y1.max(c.y),
                },
            });
        }
        b
    }

    fn contains(&self, c: Coord) -> bool {
        (self.x0..=self.x1).contains(&c.x) && (self.y0..=self.y1).contains(&c.y)
    }

    /// Sides near the edge pushed to it; the open sides (left, right,
    /// bottom, top).
    fn to_edges(self, n: u8) -> (Rect, [bool; 4]) {
        let last = n - 1;
        let open = [
            self.x0 > EDGE_GAP,
            last - self.x1 > EDGE_GAP,
            self.y0 > EDGE_GAP,
            last - self.y1 > EDGE_GAP,
        ];
        let b = Rect {
            x0: if open[0] { self.x0 } else { 0 },
            x1: if open[1] { self.x1 } else { last },
            y0: if open[2] { self.y0 } else { 0 },
            y1: if open[3] { self.y1 } else { last },
        };
        (b, open)
    }

    /// Distance of `c` to the nearest open side (lines), or `None` with no
    /// open side.
    fn depth(&self, open: [bool; 4], c: Coord) -> Option<u8> {
        [
            (open[0], c.x - self.x0),
            (open[1], self.x1 - c.x),
            (open[2], c.y - self.y0),
            (open[3], self.y1 - c.y),
        ]
        .iter()
        .filter(|s| s.0)
        .map(|s| s.1)
        .min()
    }
}

/// Frames a book problem: every stone on the board is part of it. The
/// defender is the colour enclosed (`enclosed_colour`).
pub fn frame_stones(board: &Board) -> Result<Problem, FrameError> {
    let stones = all_stones(board)?;
    let raw = Rect::of(board, stones.iter().copied()).expect("stones");
    let (inner, open) = raw.to_edges(board.size() as u8);
    frame_stones_as(board, enclosed_colour(board, &stones, &inner, open))
}

/// Every stone on the board, if both colours have some.
fn all_stones(board: &Board) -> Result<Vec<Point>, FrameError> {
    if board.stone_count(Color::Black) + board.stone_count(Color::White) == 0 {
        return Err(FrameError::NoStones);
    }
    for c in [Color::Black, Color::White] {
        if board.stone_count(c.opponent()) == 0 {
            return Err(FrameError::OneColour(c));
        }
    }
    Ok(board
        .points()
        .iter()
        .copied()
        .filter(|&p| board.cell(p).color().is_some())
        .collect())
}

/// [`frame_stones`] with the defender given. The crucial chain is the
/// defender's largest chain that does not stand on an open side (a chain
/// there is not enclosed).
pub fn frame_stones_as(board: &Board, defender: Color) -> Result<Problem, FrameError> {
    let stones = all_stones(board)?;
    let raw = Rect::of(board, stones.iter().copied()).expect("stones");
    let (outer, open) = raw.to_edges(board.size() as u8);
    let on_open_side = |p: Point| {
        let c = board.coord(p);
        let edge = [
            c.x == outer.x0,
            c.x == outer.x1,
            c.y == outer.y0,
            c.y == outer.y1,
        ];
        (0..4).any(|i| open[i] && edge[i])
    };
    let inner: Vec<Point> = stones
        .iter()
        .copied()
        .filter(|&p| !board.chain_stones(p).any(on_open_side))
        .collect();
    let Some(at) = largest_chain(board, &inner, defender) else {
        return Err(FrameError::NotEnclosed(defender));
    };
    build(board, outer, defender, &[at])
}

/// Solves a book problem (every stone on `board`) with `first` to play,
/// who either lives or kills: first framed with the defender
/// [`frame_stones`] chooses; if `first` provably fails there, framed the
/// other way round. The second framing's answer counts only if `first`
/// succeeds in it; otherwise (and when the first answer is a success or
/// unknown) the first framing's answer stands. Each framing has the
/// budget of `opts`.
pub fn solve_open(
    board: &Board,
    first: Color,
    w: &super::OrderWeights,
    opts: super::SolveOptions,
) -> Result<(Problem, super::SideAnswer), FrameError> {
    let prob = frame_stones(board)?;
    let a = super::solve_side(&prob, w, opts, first);
    // Unknown: no second framing (a framing the wrong way round is often
    // easy to "win", by joining the outer wall and walking out).
    if a.owl.result != Some(super::OwlResult::Fails) {
        return Ok((prob, a));
    }
    if let Ok(other) = frame_stones_as(board, prob.attacker()) {
        let b = super::solve_side(&other, w, opts, first);
        if b.owl.result.is_some_and(super::OwlResult::succeeds) {
            return Ok((other, b));
        }
    }
    Ok((prob, a))
}

/// Frames the group through `at` (stones of one colour, the defender) in a
/// game: its chains and the chains that fight them.
pub fn frame_group(board: &Board, at: &[Point]) -> Result<Problem, FrameError> {
    let Some(defender) = at.first().and_then(|&p| board.cell(p).color()) else {
        return Err(FrameError::NoStones);
    };
    let stones = fighting_stones(board, at);
    let raw = Rect::of(board, stones.iter().copied()).expect("the group has stones");
    let (outer, _) = raw.to_edges(board.size() as u8);
    build(board, outer, defender, at)
}

/// The colour enclosed: the other colour has more stones on the open
/// sides' lines (its wall); on a tie, the colour whose stones lie deeper
/// inside the box (mean distance to the open sides); then the colour with
/// fewer stones; then White.
fn enclosed_colour(board: &Board, stones: &[Point], inner: &Rect, open: [bool; 4]) -> Color {
    let tally = |c: Color| {
        let (mut on_side, mut sum, mut n) = (0u32, 0u32, 0u32);
        for &p in stones {
            if board.cell(p) == Cell::stone(c) {
                let d = inner.depth(open, board.coord(p)).unwrap_or(0) as u32;
                on_side += (d == 0) as u32;
                sum += d;
                n += 1;
            }
        }
        (on_side, sum as f64 / n.max(1) as f64, n)
    };
    let (sb, db, nb) = tally(Color::Black);
    let (sw, dw, nw) = tally(Color::White);
    let black = if sb != sw {
        sb < sw
    } else if db != dw {
        db > dw
    } else {
        nb < nw
    };
    if black { Color::Black } else { Color::White }
}

/// The largest chain of `color` among `stones` (ties: the lowest point).
fn largest_chain(board: &Board, stones: &[Point], color: Color) -> Option<Point> {
    let mut best: Option<(usize, Point)> = None;
    for &p in stones {
        if board.cell(p) == Cell::stone(color) {
            let n = board.chain_len(p);
            if best.is_none_or(|(m, q)| n > m || (n == m && p < q)) {
                best = Some((n, p));
            }
        }
    }
    best.map(|(_, p)| p)
}

/// The group's chains, every chain within two steps of them through empty
/// points (touching them or a liberty), and every chain touching a
/// liberty of those.
fn fighting_stones(board: &Board, at: &[Point]) -> Vec<Point> {
    let mut chain_in = vec![false; MAX_POINTS];
    let mut out: Vec<Point> = Vec::new();
    let add = |p: Point, chain_in: &mut Vec<bool>, out: &mut Vec<Point>| {
        if board.cell(p).color().is_some() && !chain_in[p.idx()] {
            for s in board.chain_stones(p) {
                chain_in[s.idx()] = true;
                out.push(s);
            }
        }
    };
    for &p in at {
        add(p, &mut chain_in, &mut out);
    }
    // Two rounds: the chains near the group, then those near them.
    for _ in 0..2 {
        let current = out.clone();
        for &s in &current {
            for q in board.neighbors(s) {
                match board.cell(q) {
                    Cell::Empty => {
                        for r in board.neighbors(q) {
                            add(r, &mut chain_in, &mut out);
                        }
                    }
                    Cell::Border => {}
                    _ => add(q, &mut chain_in, &mut out),
                }
            }
        }
    }
    out
}

/// The framed problem on the box `outer` (sides pushed to the edges):
/// the box trimmed to the defender's side of the attacker's wall
/// ([`defender_side`]), the exits just outside it, the frame around both.
fn build(board: &Board, outer: Rect, defender: Color, at: &[Point]) -> Result<Problem, FrameError> {
    let attacker = defender.opponent();
    let in_box = |p: Point| board.cell(p) != Cell::Border && outer.contains(board.coord(p));
    let kept = defender_side(board, &outer, defender);
    let def = Cell::stone(defender);
    // An exit: a point just outside the box, not kept, next to an empty
    // point or a defender stone the box keeps (the way out the attacker
    // has not closed).
    let is_exit = |p: Point| {
        board.cell(p) != Cell::Border
            && !in_box(p)
            && !kept[p.idx()]
            && board.neighbors(p).iter().any(|&q| {
                in_box(q)
                    && kept[q.idx()]
                    && matches!(board.cell(q), c if c == Cell::Empty || c == def)
            })
    };
    let mut in_region = vec![false; MAX_POINTS];
    let mut escape = vec![false; MAX_POINTS];
    let mut region = Vec::new();
    let mut empty = 0;
    for &p in board.points() {
        if kept[p.idx()] {
            empty += (board.cell(p) == Cell::Empty) as usize;
        } else if is_exit(p) {
            escape[p.idx()] = true;
            empty += 1;
        } else {
            continue;
        }
        in_region[p.idx()] = true;
        region.push(p);
    }
    if empty > MAX_FRAMED_EMPTY {
        return Err(FrameError::TooLarge {
            empty,
            limit: MAX_FRAMED_EMPTY,
        });
    }
    let mut framed = board.clone();
    for &p in board.points() {
        let want = if in_region[p.idx()] {
            if escape[p.idx()] { None } else { continue }
        } else if board.neighbors(p).iter().any(|&q| in_region[q.idx()]) {
            Some(attacker)
        } else {
            None
        };
        if board.cell(p).color() != want {
            framed.set_stone(board.coord(p), want);
        }
    }
    let mut prob =
        Problem::exact_region(&framed, &region, at).expect("the crucial stones are in the box");
    if escape.iter().any(|&e| e) {
        prob.escape = escape;
    }
    Ok(prob)
}

/// The points of the framed region on the defender's side of the
/// attacker's wall, by point (`kept`).
///
/// - *Inside*: what the defender reaches. From its stones in the box,
///   through its stones and the empty points that touch one of its stones
///   or no attacker stone: an empty point next to an attacker stone and
///   none of the defender's is the attacker's (a one- or two-point gap in
///   a wall closes it, as a book diagram means it).
/// - *Near*: inside, the points next to it (the attacker's wall and the
///   points where it may be breached), and every stone and liberty of a
///   weak attacker chain among them (at most [`WEAK_LIBERTIES`]; the
///   defender may capture it, so the frame must not fill its liberties,
///   even outside the box).
/// - *Wall*: every stone in the box of an attacker chain among the near
///   points that is not weak, and the *gaps* it leaves: an empty point,
///   not near, on the third line or higher, where two wall stones in a
///   line run into the edge or into another wall stone (the outside must
///   not creep round behind a chain the defender touches; the gap is the
///   frame's, as a diagram means it).
/// - *Kept*: in the box, the near points and the points the defender's
///   side reaches without crossing the wall or a gap, but neither the
///   outside (the points an open side of the box reaches without passing
///   through a near point or a gap: the space beyond the wall is the
///   frame's) nor the gaps; outside the box, the near points.
fn defender_side(board: &Board, outer: &Rect, defender: Color) -> Vec<bool> {
    let def = Cell::stone(defender);
    let att = Cell::stone(defender.opponent());
    let in_box = |p: Point| board.cell(p) != Cell::Border && outer.contains(board.coord(p));
    let mut inside = vec![false; MAX_POINTS];
    let mut stack: Vec<Point> = board
        .points()
        .iter()
        .copied()
        .filter(|&p| in_box(p) && board.cell(p) == def)
        .collect();
    for &p in &stack {
        inside[p.idx()] = true;
    }
    while let Some(p) = stack.pop() {
        for &q in board.neighbors(p).iter() {
            if !in_box(q) || inside[q.idx()] {
                continue;
            }
            let c = board.cell(q);
            let near = |cell: Cell| board.neighbors(q).iter().any(|&r| board.cell(r) == cell);
            if c == def || (c == Cell::Empty && (near(def) || !near(att))) {
                inside[q.idx()] = true;
                stack.push(q);
            }
        }
    }
    // The margin: the points next to the defender's side; and every stone
    // and liberty of a weak attacker chain there (one the defender may
    // capture: the frame must not fill its liberties).
    let mut near = inside.clone();
    for &p in board.points() {
        if in_box(p) && !inside[p.idx()] && board.neighbors(p).iter().any(|&q| inside[q.idx()]) {
            near[p.idx()] = true;
        }
    }
    for &p in board.points() {
        if near[p.idx()] && board.cell(p) == att && board.liberties(p) <= WEAK_LIBERTIES {
            for s in board.chain_stones(p) {
                near[s.idx()] = true;
                for &l in board.neighbors(s).iter() {
                    if board.cell(l) == Cell::Empty {
                        near[l.idx()] = true;
                    }
                }
            }
        }
    }
    // The wall: every stone in the box of an attacker chain on the margin
    // (the outside must not creep round behind a chain the defender
    // touches), and the one-point gaps it leaves.
    let mut wall = vec![false; MAX_POINTS];
    for &p in board.points() {
        if near[p.idx()]
            && !wall[p.idx()]
            && board.cell(p) == att
            && board.liberties(p) > WEAK_LIBERTIES
        {
            for s in board.chain_stones(p) {
                wall[s.idx()] = in_box(s);
            }
        }
    }
    // The point at (x, y), or None beyond the edge (the board has at
    // most 25 lines, so both fit in a u8).
    let n = board.size() as i32;
    let at = |x: i32, y: i32| {
        ((0..n).contains(&x) && (0..n).contains(&y))
            .then(|| board.point(Coord::new(x as u8, y as u8)))
    };
    let is_wall = |q: Option<Point>| q.is_some_and(|q| wall[q.idx()]);
    let mut gap = vec![false; MAX_POINTS];
    // The wall runs straight into the gap from one side (two wall stones in
    // a line) and meets the edge or another wall stone on the other; the
    // gap is on the third line or higher across that line (a wall on the
    // first two lines that runs into the edge only cuts off the edge's
    // points beyond it, which were never the defender's).
    let third = |v: i32| (2..n - 2).contains(&v);
    let closes = |x: i32, y: i32, dx: i32, dy: i32| {
        let beyond = at(x + dx, y + dy);
        third(if dx == 0 { x } else { y })
            && is_wall(at(x - dx, y - dy))
            && is_wall(at(x - 2 * dx, y - 2 * dy))
            && (beyond.is_none() || is_wall(beyond))
    };
    for &p in board.points() {
        if !in_box(p) || near[p.idx()] || board.cell(p) != Cell::Empty {
            continue;
        }
        let c = board.coord(p);
        let (x, y) = (c.x as i32, c.y as i32);
        if [(1, 0), (-1, 0), (0, 1), (0, -1)]
            .iter()
            .any(|&(dx, dy)| closes(x, y, dx, dy))
        {
            gap[p.idx()] = true;
            near[p.idx()] = true;
        }
    }
    // The outside: from the open sides, around the defender's side and its
    // margin.
    let mut outside = vec![false; MAX_POINTS];
    let mut stack: Vec<Point> = board
        .points()
        .iter()
        .copied()
        .filter(|&p| {
            in_box(p)
                && !near[p.idx()]
                && !wall[p.idx()]
                && board
                    .neighbors(p)
                    .iter()
                    .any(|&q| board.cell(q) != Cell::Border && !in_box(q))
        })
        .collect();
    for &p in &stack {
        outside[p.idx()] = true;
    }
    while let Some(p) = stack.pop() {
        for &q in board.neighbors(p).iter() {
            if in_box(q) && !outside[q.idx()] && !near[q.idx()] && !wall[q.idx()] {
                outside[q.idx()] = true;
                stack.push(q);
            }
        }
    }
    // What the defender's side reaches behind the margin without crossing
    // the wall (a pocket between the wall and the edge that touches only
    // the wall is the frame's).
    let mut reached = vec![false; MAX_POINTS];
    let mut stack: Vec<Point> = board
        .points()
        .iter()
        .copied()
        .filter(|&p| in_box(p) && near[p.idx()] && !gap[p.idx()] && !wall[p.idx()])
        .collect();
    for &p in &stack {
        reached[p.idx()] = true;
    }
    while let Some(p) = stack.pop() {
        for &q in board.neighbors(p).iter() {
            if in_box(q)
                && !reached[q.idx()]
                && !outside[q.idx()]
                && !gap[q.idx()]
                && !wall[q.idx()]
            {
                reached[q.idx()] = true;
                stack.push(q);
            }
        }
    }
    board
        .points()
        .iter()
        .fold(vec![false; MAX_POINTS], |mut kept, &p| {
            kept[p.idx()] = if in_box(p) {
                !outside[p.idx()] && !gap[p.idx()] && (near[p.idx()] || reached[p.idx()])
            } else {
                near[p.idx()]
            };
            kept
        })
}

#[cfg(test)]
mod tests;
