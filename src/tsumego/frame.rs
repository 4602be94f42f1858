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
//!   are kept; what an open side reaches around them is the frame's.
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
//! out (a ladder or a net outside decides), a liberty that a point
//! outside the box or beyond the wall's margin gave a chain (the frame
//! fills it, unless the chain is a weak attacker chain), a weakness of the
//! attacker's outer wall (the frame makes it safe), and a
//! life that rests on friendly stones outside the box (cleared). The
//! tests and docs/tsumego.md ("Open problems") show each.
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
/// - *Kept*: in the box, every point but the outside, the points an open
///   side of the box reaches without passing through a near point (the
///   space beyond the wall is the frame's; in a box with no open side the
///   whole box is kept); outside the box, the near points.
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
            if in_box(q) && !outside[q.idx()] && !near[q.idx()] {
                outside[q.idx()] = true;
                stack.push(q);
            }
        }
    }
    board
        .points()
        .iter()
        .fold(vec![false; MAX_POINTS], |mut kept, &p| {
            kept[p.idx()] = if in_box(p) {
                !outside[p.idx()]
            } else {
                near[p.idx()]
            };
            kept
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tsumego::{OrderWeights, OwlResult, SideAnswer, SolveOptions, Status};

    /// A 19x19 board with `rows` in its bottom-left corner, shifted `dx`
    /// columns right (top row first; `X` black, `O` white).
    fn board(rows: &[&str], dx: u8) -> Board {
        let mut b = Board::new(19);
        for (i, row) in rows.iter().enumerate() {
            let y = (rows.len() - 1 - i) as u8;
            for (x, ch) in row.chars().enumerate() {
                let c = match ch {
                    'X' => Some(Color::Black),
                    'O' => Some(Color::White),
                    _ => None,
                };
                if c.is_some() {
                    b.set_stone(Coord::new(x as u8 + dx, y), c);
                }
            }
        }
        b
    }

    fn solve(b: &Board, first: Color) -> (Problem, SideAnswer) {
        let w = OrderWeights::new(&crate::weights::Weights::default());
        let opts = SolveOptions {
            max_nodes: 200_000,
            ..SolveOptions::default()
        };
        solve_open(b, first, &w, opts).expect("framed")
    }

    fn key(a: &SideAnswer) -> Option<crate::rules::Move> {
        a.owl.result.filter(|r| r.succeeds()).and(a.owl.mv)
    }

    fn play(c: Coord) -> Option<crate::rules::Move> {
        Some(crate::rules::Move::Play(c))
    }

    /// White's corner group has one eye; two open points on its right
    /// are its way out.
    const ESCAPE: [&str; 4] = ["XX..", "OO..", ".OX.", ".OX."];

    #[test]
    fn a_corner_group_lives_by_escaping_and_the_frame_lets_it() {
        let b = board(&ESCAPE, 0);
        let (prob, a) = solve(&b, Color::White);
        assert_eq!(prob.defender, Color::White);
        assert!(prob.is_open());
        // The exits: right of C3 and C4, above C4.
        for c in [Coord::new(3, 3), Coord::new(3, 2), Coord::new(2, 4)] {
            assert!(prob.escape[b.point(c).idx()], "{c}");
        }
        assert!(!prob.escape[b.point(Coord::new(3, 1)).idx()]);
        assert_eq!(a.status, Status::Alive, "{:?}", a.owl);
        assert_eq!(key(&a), play(Coord::new(2, 2)));
        // Black to play closes the way out and kills.
        let (_, a) = solve(&b, Color::Black);
        assert_eq!(a.owl.result, Some(OwlResult::Succeeds));
        assert_eq!(a.status, Status::Dead);
    }

    #[test]
    fn a_closed_way_out_leaves_the_group_dead() {
        let mut rows = ESCAPE;
        rows[0] = "XXX.";
        rows[1] = "OOX.";
        let b = board(&rows, 0);
        let (prob, a) = solve(&b, Color::White);
        assert_eq!(prob.defender, Color::White);
        // No exit: the frame closes the problem.
        assert!(!prob.is_open());
        assert_eq!(a.status, Status::Dead);
        assert_eq!(key(&a), None);
    }

    /// A straight three on the side: whoever plays its middle first wins.
    const SIDE: [&str; 3] = ["XXXXXXX", "XOOOOOX", "XO...OX"];

    #[test]
    fn a_side_problem_for_either_side_to_play() {
        let b = board(&SIDE, 6);
        let (prob, a) = solve(&b, Color::White);
        assert_eq!(prob.defender, Color::White);
        assert_eq!(a.status, Status::Alive);
        assert_eq!(key(&a), play(Coord::new(9, 0)));
        let (_, a) = solve(&b, Color::Black);
        assert_eq!(a.status, Status::Dead);
        assert_eq!(key(&a), play(Coord::new(9, 0)));
    }

    #[test]
    fn a_ko_problem_answers_ko() {
        // The rectangular six in the corner with one outside liberty (E1):
        // White lives by playing first; Black's attack makes a ko that
        // Black takes first.
        let rows = ["XXXXXX", "OOOOXX", "...OXX", "...O.X"];
        let b = board(&rows, 0);
        let (prob, a) = solve(&b, Color::White);
        assert_eq!(prob.defender, Color::White);
        assert_eq!(a.status, Status::Alive);
        let (_, a) = solve(&b, Color::Black);
        assert_eq!(
            a.status,
            Status::Ko(crate::tsumego::KoWin::TakenFirst),
            "{:?}",
            a.owl
        );
    }

    #[test]
    fn a_group_in_a_game_is_framed_around_its_fight() {
        // The escaping corner group, with stones of a game elsewhere.
        let mut b = board(&ESCAPE, 0);
        for (x, y, c) in [
            (15, 15, Color::Black),
            (3, 15, Color::White),
            (15, 3, Color::Black),
        ] {
            b.set_stone(Coord::new(x, y), Some(c));
        }
        let at = b.point(Coord::new(1, 2));
        let prob = frame_group(&b, &[at]).unwrap();
        assert_eq!(prob.defender, Color::White);
        assert_eq!(prob.board.stone_at(Coord::new(15, 15)), None);
        assert_eq!(prob.board.stone_at(Coord::new(3, 15)), None);
        let w = OrderWeights::new(&crate::weights::Weights::default());
        let opts = SolveOptions::default();
        let defend = crate::tsumego::owl(&prob, &w, opts, crate::tsumego::Role::Defender);
        assert_eq!(defend.result, Some(OwlResult::Succeeds));
        assert_eq!(defend.mv, play(Coord::new(2, 2)));
        // Through the settings GTP uses: detection finds no closed region,
        // the frame takes over.
        let s = crate::tsumego::Settings::default();
        let via = s.problem(&b, &[Coord::new(1, 2)]).unwrap();
        assert_eq!(via.region, prob.region);
    }

    #[test]
    fn the_frame_clears_the_outside_and_walls_the_open_sides() {
        let b = board(&SIDE, 6);
        let prob = frame_stones(&b).unwrap();
        // Rect x 6..12, y 0..2, less its top corners (wall stones that
        // touch nothing White reaches); the frame on x = 5 and 13 (y 0..1)
        // and on y = 3 (x 7..11); the corners stay, outside the region.
        assert_eq!(prob.region.len(), 7 * 3 - 2);
        assert!(!prob.is_open());
        for c in [Coord::new(6, 2), Coord::new(12, 2)] {
            assert!(!prob.in_region(b.point(c)), "{c}");
            assert_eq!(prob.board.stone_at(c), Some(Color::Black), "{c}");
        }
        for y in 0..2 {
            assert_eq!(prob.board.stone_at(Coord::new(5, y)), Some(Color::Black));
            assert_eq!(prob.board.stone_at(Coord::new(13, y)), Some(Color::Black));
        }
        for x in 7..12 {
            assert_eq!(prob.board.stone_at(Coord::new(x, 3)), Some(Color::Black));
        }
        for c in [Coord::new(5, 2), Coord::new(6, 3), Coord::new(5, 3)] {
            assert_eq!(prob.board.stone_at(c), None, "{c}");
        }
    }

    /// White's side group behind a loose black wall (one-point gaps at
    /// H3, K3 and M3), with stones and empty space outside the wall.
    const LOOSE: [&str; 5] = ["..X..X.", ".......", "X.X.X.X", "X.....X", "XOOOOOX"];

    #[test]
    fn the_space_beyond_a_loose_wall_is_the_frames() {
        let b = board(&LOOSE, 6);
        let prob = frame_stones(&b).unwrap();
        assert_eq!(prob.defender, Color::White);
        // The gaps in the wall are kept (White may push into them), the
        // points beyond are not, and no way out is left: a closed problem.
        let kept = |x, y| prob.in_region(b.point(Coord::new(x, y)));
        assert!(kept(7, 2) && kept(9, 2) && kept(11, 2));
        assert!(!kept(7, 3) && !kept(9, 3) && !kept(10, 4));
        assert!(!prob.is_open());
    }

    #[test]
    fn a_weak_wall_chain_keeps_its_liberties() {
        // Black's B4 stone (three liberties) walls White in at the top;
        // its liberties A4, C4 and B5 lie beyond the wall, and the frame
        // keeps them empty (White may capture the stone).
        let rows = [".X...", "OOX..", ".OX..", ".OX.."];
        let b = board(&rows, 0);
        let prob = frame_stones_as(&b, Color::White).unwrap();
        let at = |x, y| b.point(Coord::new(x, y));
        assert_eq!(b.liberties(at(1, 3)), 3);
        for p in [at(0, 3), at(2, 3), at(1, 4)] {
            assert!(prob.in_region(p));
            assert_eq!(prob.board.cell(p), Cell::Empty);
        }
    }

    #[test]
    fn a_sealed_framed_problem_uses_the_closed_region_tests() {
        // A framed problem with a way out (the escape group) is open; once
        // Black has closed it, the position is a closed problem and the
        // walled-in test applies.
        let b = board(&ESCAPE, 0);
        let prob = frame_stones_as(&b, Color::White).unwrap();
        assert!(prob.is_open());
        let w = OrderWeights::new(&crate::weights::Weights::default());
        let limits = crate::tsumego::Limits {
            max_nodes: 1000,
            deadline: None,
        };
        let regime = crate::tsumego::Regime::PLAIN;
        let mut d = crate::tsumego::dfpn::Dfpn::new(&prob, &w, 1, regime, limits);
        assert!(!d.walled_in_at_root());
        // Black closes C3 and C4 and joins its wall to the frame at D4:
        // White's group is left with A1 and A2, sealed in, and walled in.
        let mut sealed = prob.clone();
        for c in [Coord::new(2, 2), Coord::new(2, 3), Coord::new(3, 3)] {
            sealed.board.set_stone(c, Some(Color::Black));
        }
        let mut d = crate::tsumego::dfpn::Dfpn::new(&sealed, &w, 1, regime, limits);
        assert!(d.walled_in_at_root());
    }

    #[test]
    fn boards_that_cannot_be_framed_say_why() {
        assert_eq!(
            frame_stones(&Board::new(19)).err(),
            Some(FrameError::NoStones)
        );
        let b = board(&["X"], 0);
        assert_eq!(
            frame_stones(&b).err(),
            Some(FrameError::OneColour(Color::Black))
        );
        let mut b = Board::new(19);
        b.set_stone(Coord::new(0, 0), Some(Color::Black));
        b.set_stone(Coord::new(18, 18), Some(Color::White));
        assert!(matches!(frame_stones(&b), Err(FrameError::TooLarge { .. })));
    }
}
