//! The closed-boundary problem: a defender's group in a region enclosed by
//! the attacker's safe wall. Built from an ordinary board by flood fill
//! (region detection), or from an explicit list of points.

use thiserror::Error;

use crate::rules::board::MAX_POINTS;
use crate::rules::{Board, Cell, Color, Coord, Point};

/// Default limit on the points of a detected region.
pub const DEFAULT_MAX_REGION: usize = 48;

/// A life-and-death problem in the closed-boundary framing.
///
/// - Play is restricted to `region`: its empty points may be played, its
///   stones may be captured.
/// - Every stone outside the region is safe: a move that would capture one
///   is illegal.
/// - The attacker wins when the crucial chain (the defender chain through
///   `crucial`) is captured; the defender wins when that chain is
///   unconditionally alive (Benson) or when both sides pass in a row with
///   the chain still on the board (seki or life the attacker cannot
///   challenge).
#[derive(Clone)]
pub struct Problem {
    pub board: Board,
    pub defender: Color,
    /// The region's points, row-major from A1.
    pub region: Vec<Point>,
    /// `mask[p.idx()]` is true for the points of the region.
    pub mask: Vec<bool>,
    /// The stones of the crucial chain at the start.
    pub crucial: Vec<Point>,
}

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum RegionError {
    #[error("{0} is empty: name a stone of the group to attack or defend")]
    Empty(Coord),
    #[error(
        "the group at {at} is not enclosed: its region reaches more than {limit} points \
         (solve closed problems, or give the region with tengen-tsumego_region)"
    )]
    Open { at: Coord, limit: usize },
    #[error("{0} is not in the region")]
    NotInRegion(Coord),
    #[error("the region has no {0} stones to defend")]
    NoDefender(Color),
}

impl Problem {
    pub fn attacker(&self) -> Color {
        self.defender.opponent()
    }

    #[inline]
    pub fn in_region(&self, p: Point) -> bool {
        self.mask[p.idx()]
    }

    fn assemble(
        board: &Board,
        defender: Color,
        at: Point,
        mut pts: Vec<Point>,
        mask: Vec<bool>,
    ) -> Problem {
        pts.sort();
        Problem {
            board: board.clone(),
            defender,
            crucial: board.chain_stones(at).collect(),
            region: pts,
            mask,
        }
    }

    /// Builds a problem from an explicit region. The crucial chain is the
    /// chain at `at` (a defender stone in the region). Stones of the region
    /// are playable; everything outside is safe.
    pub fn from_region(board: &Board, region: &[Point], at: Point) -> Result<Problem, RegionError> {
        let coord = board.coord(at);
        let Some(defender) = board.cell(at).color() else {
            return Err(RegionError::Empty(coord));
        };
        let mut mask = vec![false; MAX_POINTS];
        let mut pts = Vec::new();
        for &p in region {
            if board.cell(p) != Cell::Border && !mask[p.idx()] {
                mask[p.idx()] = true;
                pts.push(p);
            }
        }
        // A chain is in the region as a whole or not at all.
        for p in pts.clone() {
            if board.cell(p).color().is_some() {
                for s in board.chain_stones(p) {
                    if !mask[s.idx()] {
                        mask[s.idx()] = true;
                        pts.push(s);
                    }
                }
            }
        }
        if !mask[at.idx()] {
            return Err(RegionError::NotInRegion(coord));
        }
        Ok(Problem::assemble(board, defender, at, pts, mask))
    }

    /// Region detection: the defender's group at `at`, the attacker chains
    /// it encloses and the empty points it encloses. Attacker chains with a
    /// liberty outside the enclosed area are the safe wall; `safe` names
    /// further points whose chains are wall whatever their liberties.
    pub fn detect(
        board: &Board,
        at: Point,
        safe: &[Point],
        limit: usize,
    ) -> Result<Problem, RegionError> {
        let coord = board.coord(at);
        let Some(defender) = board.cell(at).color() else {
            return Err(RegionError::Empty(coord));
        };
        let attacker = defender.opponent();
        let mut safe_mask = vec![false; MAX_POINTS];
        for &p in safe {
            if board.cell(p) == Cell::stone(attacker) {
                for s in board.chain_stones(p) {
                    safe_mask[s.idx()] = true;
                }
            }
        }
        let mut mask = vec![false; MAX_POINTS];
        let mut pts = Vec::new();
        let mut stack = vec![at];
        mask[at.idx()] = true;
        let att = Cell::stone(attacker);
        loop {
            // Flood over empty points and defender stones.
            while let Some(p) = stack.pop() {
                pts.push(p);
                if pts.len() > limit {
                    return Err(RegionError::Open { at: coord, limit });
                }
                for q in board.neighbors(p) {
                    let c = board.cell(q);
                    if c != Cell::Border && c != att && !mask[q.idx()] {
                        mask[q.idx()] = true;
                        stack.push(q);
                    }
                }
            }
            // Attacker chains whose liberties all lie inside are inner
            // stones: add them and flood on from their neighbours.
            let mut grew = false;
            for p in pts.clone() {
                for q in board.neighbors(p) {
                    if board.cell(q) != att || mask[q.idx()] || safe_mask[q.idx()] {
                        continue;
                    }
                    let enclosed = board.chain_stones(q).all(|s| {
                        board
                            .neighbors(s)
                            .iter()
                            .all(|&n| board.cell(n) != Cell::Empty || mask[n.idx()])
                    });
                    if enclosed {
                        for s in board.chain_stones(q) {
                            mask[s.idx()] = true;
                            pts.push(s);
                            for n in board.neighbors(s) {
                                let c = board.cell(n);
                                if c != Cell::Border && c != att && !mask[n.idx()] {
                                    mask[n.idx()] = true;
                                    stack.push(n);
                                }
                            }
                        }
                        grew = true;
                    }
                }
            }
            if pts.len() > limit {
                return Err(RegionError::Open { at: coord, limit });
            }
            if !grew {
                break;
            }
        }
        Ok(Problem::assemble(board, defender, at, pts, mask))
    }

    /// The largest defender chain of the region (ties: the lowest point).
    pub fn largest_defender_chain(
        board: &Board,
        region: &[Point],
        defender: Color,
    ) -> Option<Point> {
        let mut best: Option<(usize, Point)> = None;
        for &p in region {
            if board.cell(p) == Cell::stone(defender) {
                let n = board.chain_len(p);
                if best.is_none_or(|(m, _)| n > m) {
                    best = Some((n, p));
                }
            }
        }
        best.map(|(_, p)| p)
    }

    /// The problem drawn as text (region points in lower case).
    pub fn render(&self) -> String {
        let b = &self.board;
        let n = b.size();
        let mut out = String::new();
        for y in (0..n).rev() {
            for x in 0..n {
                let p = b.point(Coord::new(x as u8, y as u8));
                let inside = self.in_region(p);
                let ch = match b.cell(p).color() {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None if inside => '.',
                    None => ' ',
                };
                out.push(if inside && ch != '.' {
                    ch.to_ascii_lowercase()
                } else {
                    ch
                });
            }
            out.push('\n');
        }
        out
    }
}
