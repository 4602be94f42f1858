//! The closed-boundary problem: a defender's group in a region enclosed by
//! the attacker's safe wall. Built from an ordinary board by region
//! detection, or from an explicit list of points.
//!
//! Dependencies: this file is below [`super::frame`] (which frames open
//! problems into a [`Problem`]); the frame's error type, [`FrameError`],
//! lives here so that region never depends on frame.

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
/// - The crucial chains are defender chains named by the problem (GoTools'
///   `[XY]` marks, or a GTP vertex). The attacker wins when it has
///   captured every one of them; the defender wins when one of them is
///   unconditionally alive (Benson) or when both sides pass in a row with
///   one of them still on the board (seki or life the attacker cannot
///   challenge).
#[derive(Clone)]
pub struct Problem {
    pub board: Board,
    pub defender: Color,
    /// The region's points, row-major from A1.
    pub region: Vec<Point>,
    /// `mask[p.idx()]` is true for the points of the region.
    pub mask: Vec<bool>,
    /// The crucial chains: the stones of each at the start. A chain counts
    /// as captured once any of its stones is gone (a chain loses its stones
    /// only all together).
    pub crucial: Vec<Vec<Point>>,
    /// A framed open problem ([`super::frame`]): `escape[p.idx()]` is true
    /// for its exits, the points just outside the attacker's enclosure; a
    /// crucial chain on one with two liberties or more has escaped (the
    /// defender wins). Empty for a closed problem.
    pub escape: Vec<bool>,
    /// The region as bit sets, `None` past 64 points or when a defender
    /// stone outside the region touches it: Benson's test and the
    /// eye-space rule's floods run on them.
    pub bits: Option<RegionBits>,
}

/// A region of at most 64 points as bit sets: bit `i` stands for
/// `region[i]`. Built once per problem; a region never changes.
#[derive(Clone, Debug)]
pub struct RegionBits {
    /// `index[p.idx()]`: the bit of the region point `p`, or
    /// [`RegionBits::NONE`] for a point outside the region.
    pub index: Vec<u8>,
    /// `nbrs[i]`: the bits of `region[i]`'s neighbours in the region.
    pub nbrs: Vec<u64>,
    /// The region points with a neighbour outside the region that is not
    /// the edge.
    pub touches_out: u64,
    /// Every point of the region.
    pub all: u64,
}

impl RegionBits {
    /// The index of a point outside the region.
    pub const NONE: u8 = u8::MAX;

    /// The bit sets of `region` on `board`, or `None` past 64 points or
    /// when a `defender` stone outside the region touches it (then a
    /// defender chain may reach outside the region, which the sets do not
    /// see). The points outside the region never change in a search.
    fn new(board: &Board, defender: Color, region: &[Point], mask: &[bool]) -> Option<RegionBits> {
        if region.len() > 64 {
            return None;
        }
        let def = Cell::stone(defender);
        if region.iter().any(|&p| {
            board
                .neighbors(p)
                .iter()
                .any(|&q| !mask[q.idx()] && board.cell(q) == def)
        }) {
            return None;
        }
        let mut index = vec![Self::NONE; MAX_POINTS];
        for (i, p) in region.iter().enumerate() {
            index[p.idx()] = i as u8;
        }
        let mut nbrs = vec![0u64; region.len()];
        let mut touches_out = 0u64;
        for (i, &p) in region.iter().enumerate() {
            for q in board.neighbors(p) {
                if mask[q.idx()] {
                    nbrs[i] |= 1 << index[q.idx()];
                } else if board.cell(q) != Cell::Border {
                    touches_out |= 1 << i;
                }
            }
        }
        let all = if region.len() == 64 {
            u64::MAX
        } else {
            (1u64 << region.len()) - 1
        };
        Some(RegionBits {
            index,
            nbrs,
            touches_out,
            all,
        })
    }

    /// The bit of `p`, if it is in the region.
    #[inline]
    pub fn bit(&self, p: Point) -> Option<u64> {
        let i = self.index[p.idx()];
        (i != Self::NONE).then(|| 1u64 << i)
    }

    /// The region points next to a point of `m`.
    #[inline]
    pub fn dilate(&self, m: u64) -> u64 {
        let mut out = 0u64;
        let mut r = m;
        while r != 0 {
            out |= self.nbrs[r.trailing_zeros() as usize];
            r &= r - 1;
        }
        out
    }

    /// The points of `within` connected to `start` through `within`
    /// (`start` a subset of it).
    #[inline]
    pub fn flood(&self, start: u64, within: u64) -> u64 {
        let mut area = start;
        let mut ring = start;
        while ring != 0 {
            ring = self.dilate(ring) & within & !area;
            area |= ring;
        }
        area
    }

    /// The region points next to a stone of `color` outside the region
    /// on `board`.
    pub fn next_to_outside(&self, region: &[Point], board: &Board, color: Color) -> u64 {
        let c = Cell::stone(color);
        let mut out = 0u64;
        for (i, &p) in region.iter().enumerate() {
            if board
                .neighbors(p)
                .iter()
                .any(|&q| self.index[q.idx()] == Self::NONE && board.cell(q) == c)
            {
                out |= 1 << i;
            }
        }
        out
    }

    /// The stones in the region of the chain through `p`.
    #[inline]
    pub fn chain(&self, board: &Board, p: Point) -> u64 {
        board
            .chain_stones(p)
            .filter_map(|s| self.bit(s))
            .fold(0, |m, x| m | x)
    }
}

/// The empty points and each side's stones of a region on one board, as
/// bit sets of its [`RegionBits`] ([`Problem::masks`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RegionMasks {
    pub empty: u64,
    pub defender: u64,
    pub attacker: u64,
}

/// Why an open problem cannot be framed ([`super::frame`]).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum FrameError {
    #[error("the board has no stones: set up the problem first")]
    NoStones,
    #[error("the board has only {0} stones: a problem needs stones of both colours")]
    OneColour(Color),
    #[error("every {0} chain stands on an open side of the problem: no {0} group is enclosed")]
    NotEnclosed(Color),
    #[error(
        "the framed region has {empty} empty points, more than the solver takes ({limit}): \
         set up a corner or side problem, or give the region with tengen-tsumego_region"
    )]
    TooLarge { empty: usize, limit: usize },
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
    #[error("the crucial stones {0} and {1} are of different colours: name stones of one group")]
    Mixed(Coord, Coord),
    #[error("the group at {at} is not enclosed, and it cannot be framed: {source}")]
    Unframed { at: Coord, source: FrameError },
    #[error("{0}")]
    Frame(#[from] FrameError),
    #[error("captured point {0} holds a stone: name the empty points of captured crucial chains")]
    CapturedStone(Coord),
    #[error(
        "captured point {0} lies outside the group's region \
         (give the region with tengen-tsumego_region)"
    )]
    CapturedOutside(Coord),
}

impl Problem {
    pub fn attacker(&self) -> Color {
        self.defender.opponent()
    }

    #[inline]
    pub fn in_region(&self, p: Point) -> bool {
        self.mask[p.idx()]
    }

    /// One stone of each crucial chain (the first named).
    pub fn crucial_points(&self) -> Vec<Point> {
        self.crucial.iter().map(|c| c[0]).collect()
    }

    /// True if the crucial chain `i` is still on `b` (none of its stones
    /// was captured).
    #[inline]
    pub fn chain_on_board(&self, b: &Board, i: usize) -> bool {
        let d = Cell::stone(self.defender);
        self.crucial[i].iter().all(|&p| b.cell(p) == d)
    }

    /// True if one crucial chain at least is still on `b`.
    pub fn any_chain_on_board(&self, b: &Board) -> bool {
        (0..self.crucial.len()).any(|i| self.chain_on_board(b, i))
    }

    /// The region's empty points and each side's stones on `board` as bit
    /// sets of [`Problem::bits`] (all empty for a problem without them).
    #[inline]
    pub fn masks(&self, board: &Board) -> RegionMasks {
        let mut m = RegionMasks::default();
        if self.bits.is_none() {
            return m;
        }
        let def = Cell::stone(self.defender);
        for (i, &p) in self.region.iter().enumerate() {
            let bit = 1u64 << i;
            match board.cell(p) {
                Cell::Empty => m.empty |= bit,
                c if c == def => m.defender |= bit,
                _ => m.attacker |= bit,
            }
        }
        m
    }

    /// A framed problem with exits: the defender escapes by reaching one.
    pub fn is_open(&self) -> bool {
        !self.escape.is_empty()
    }

    /// A crucial chain standing on `b` has a stone on an exit and two
    /// liberties or more ([`Problem::escape`]).
    pub fn escaped(&self, b: &Board) -> bool {
        if self.escape.is_empty() {
            return false;
        }
        (0..self.crucial.len()).any(|i| {
            let p = self.crucial[i][0];
            self.chain_on_board(b, i)
                && b.liberties(p) >= 2
                && b.chain_stones(p).any(|s| self.escape[s.idx()])
        })
    }

    /// The attacker chain through `p` on `b` is safe: it has a stone or an
    /// empty neighbour outside the region (nobody ever fills that point,
    /// so the chain is never captured, and it stays safe as it grows).
    pub fn safe_chain(&self, b: &Board, p: Point) -> bool {
        b.chain_stones(p).any(|s| {
            !self.in_region(s)
                || b.neighbors(s)
                    .iter()
                    .any(|&l| b.cell(l) == Cell::Empty && !self.in_region(l))
        })
    }

    /// The crucial chains through `at`, without repeats.
    fn chains_at(board: &Board, at: &[Point]) -> Vec<Vec<Point>> {
        let mut out: Vec<Vec<Point>> = Vec::new();
        for &p in at {
            if out.iter().any(|c| c.contains(&p)) {
                continue;
            }
            let mut stones: Vec<Point> = board.chain_stones(p).collect();
            stones.sort();
            // Keep the named stone first.
            stones.retain(|&s| s != p);
            stones.insert(0, p);
            out.push(stones);
        }
        out
    }

    fn assemble(
        board: &Board,
        defender: Color,
        at: &[Point],
        mut pts: Vec<Point>,
        mask: Vec<bool>,
    ) -> Problem {
        pts.sort();
        let bits = RegionBits::new(board, defender, &pts, &mask);
        Problem {
            board: board.clone(),
            defender,
            crucial: Problem::chains_at(board, at),
            region: pts,
            mask,
            escape: Vec::new(),
            bits,
        }
    }

    /// The problem with the points `captured` added as crucial chains of
    /// one point each: points of crucial chains captured earlier, which
    /// the attacker must keep from standing again (a chain stands while
    /// every point of it holds a defender stone). Each must be empty and
    /// in the region.
    pub fn with_captured(mut self, captured: &[Point]) -> Result<Problem, RegionError> {
        for &p in captured {
            let c = self.board.coord(p);
            if !self.in_region(p) {
                return Err(RegionError::CapturedOutside(c));
            }
            if self.board.cell(p) != Cell::Empty {
                return Err(RegionError::CapturedStone(c));
            }
            if !self.crucial.iter().any(|ch| ch.contains(&p)) {
                self.crucial.push(vec![p]);
            }
        }
        Ok(self)
    }

    /// The colour of the stones at `at`, all of one colour.
    fn defender_of(board: &Board, at: &[Point]) -> Result<Color, RegionError> {
        let first = at.first().copied().expect("at least one crucial stone");
        let Some(defender) = board.cell(first).color() else {
            return Err(RegionError::Empty(board.coord(first)));
        };
        for &p in at {
            match board.cell(p).color() {
                None => return Err(RegionError::Empty(board.coord(p))),
                Some(c) if c != defender => {
                    return Err(RegionError::Mixed(board.coord(first), board.coord(p)));
                }
                _ => {}
            }
        }
        Ok(defender)
    }

    /// Builds a problem from an explicit region. The crucial chain is the
    /// chain at `at` (a defender stone in the region). Stones of the region
    /// are playable; everything outside is safe.
    pub fn from_region(board: &Board, region: &[Point], at: Point) -> Result<Problem, RegionError> {
        Problem::from_region_chains(board, region, &[at])
    }

    /// [`Problem::from_region`] with several crucial chains.
    pub fn from_region_chains(
        board: &Board,
        region: &[Point],
        at: &[Point],
    ) -> Result<Problem, RegionError> {
        Problem::on_points(board, region, at, true)
    }

    /// A problem on exactly the points of `region`: a chain with stones
    /// outside it is safe (the frame of [`super::frame`] joins the wall it
    /// touches this way). The crucial stones must be in the region.
    pub fn exact_region(
        board: &Board,
        region: &[Point],
        at: &[Point],
    ) -> Result<Problem, RegionError> {
        Problem::on_points(board, region, at, false)
    }

    /// The problem on `region`, with the whole chains on its stones added
    /// (`whole_chains`) or not.
    fn on_points(
        board: &Board,
        region: &[Point],
        at: &[Point],
        whole_chains: bool,
    ) -> Result<Problem, RegionError> {
        let defender = Problem::defender_of(board, at)?;
        let mut mask = vec![false; MAX_POINTS];
        let mut pts = Vec::new();
        for &p in region {
            if board.cell(p) != Cell::Border && !mask[p.idx()] {
                mask[p.idx()] = true;
                pts.push(p);
            }
        }
        // A chain is in the region as a whole or not at all.
        if whole_chains {
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
        }
        if let Some(&p) = at.iter().find(|p| !mask[p.idx()]) {
            return Err(RegionError::NotInRegion(board.coord(p)));
        }
        Ok(Problem::assemble(board, defender, at, pts, mask))
    }

    /// Region detection for the defender's group at `at`.
    pub fn detect(
        board: &Board,
        at: Point,
        safe: &[Point],
        limit: usize,
    ) -> Result<Problem, RegionError> {
        Problem::detect_chains(board, &[at], safe, limit)
    }

    /// Region detection with several crucial chains (all of one colour).
    ///
    /// The outside is every empty area (points joined orthogonally through
    /// empty points) larger than `limit`, or, on a board too small for one,
    /// the largest empty area that touches no crucial chain. The wall is the
    /// attacker's chains that touch the outside, and those `safe` names. The
    /// region is everything enclosed by the wall: the points reached from
    /// the crucial chains without crossing a wall stone or an outside point
    /// (empty points, defender stones, and attacker stones not connected to
    /// the outside). When that finds no closed region (a crucial chain
    /// touches an outside area, or the region is larger than `limit`), the
    /// older local rule is tried: flood over empty points and defender
    /// stones, adding attacker chains whose liberties all lie inside.
    pub fn detect_chains(
        board: &Board,
        at: &[Point],
        safe: &[Point],
        limit: usize,
    ) -> Result<Problem, RegionError> {
        Problem::detect_with_captured(board, at, &[], safe, limit)
    }

    /// [`Problem::detect_chains`] whose region also floods from the empty
    /// points `captured`, added as crucial ([`Problem::with_captured`]).
    pub fn detect_with_captured(
        board: &Board,
        at: &[Point],
        captured: &[Point],
        safe: &[Point],
        limit: usize,
    ) -> Result<Problem, RegionError> {
        let defender = Problem::defender_of(board, at)?;
        let mut starts = at.to_vec();
        for &p in captured {
            if board.cell(p) != Cell::Empty {
                return Err(RegionError::CapturedStone(board.coord(p)));
            }
            starts.push(p);
        }
        match Problem::detect_enclosed(board, defender, at, &starts, safe, limit) {
            Some(p) => Ok(p),
            None => Problem::detect_local(board, defender, at, &starts, safe, limit),
        }?
        .with_captured(captured)
    }

    fn safe_mask(board: &Board, attacker: Color, safe: &[Point]) -> Vec<bool> {
        let mut safe_mask = vec![false; MAX_POINTS];
        for &p in safe {
            if board.cell(p) == Cell::stone(attacker) {
                for s in board.chain_stones(p) {
                    safe_mask[s.idx()] = true;
                }
            }
        }
        safe_mask
    }

    /// The region enclosed by the wall (see [`Problem::detect_chains`]),
    /// or `None` if there is none.
    fn detect_enclosed(
        board: &Board,
        defender: Color,
        at: &[Point],
        starts: &[Point],
        safe: &[Point],
        limit: usize,
    ) -> Option<Problem> {
        let attacker = defender.opponent();
        let att = Cell::stone(attacker);
        let def = Cell::stone(defender);
        // Empty areas.
        let mut area = vec![u32::MAX; MAX_POINTS];
        let mut areas: Vec<(usize, bool)> = Vec::new(); // (size, touches a crucial chain)
        let crucial: Vec<Point> = at.iter().flat_map(|&p| board.chain_stones(p)).collect();
        let mut stack = Vec::new();
        for &p in board.points() {
            if board.cell(p) != Cell::Empty || area[p.idx()] != u32::MAX {
                continue;
            }
            let id = areas.len() as u32;
            let (mut n, mut touches) = (0, false);
            area[p.idx()] = id;
            stack.push(p);
            while let Some(q) = stack.pop() {
                n += 1;
                for r in board.neighbors(q) {
                    match board.cell(r) {
                        Cell::Empty if area[r.idx()] == u32::MAX => {
                            area[r.idx()] = id;
                            stack.push(r);
                        }
                        c if c == def && crucial.contains(&r) => touches = true,
                        _ => {}
                    }
                }
            }
            areas.push((n, touches));
        }
        let mut outside: Vec<bool> = areas.iter().map(|&(n, _)| n > limit).collect();
        if !outside.iter().any(|&o| o) {
            let largest = areas
                .iter()
                .enumerate()
                .filter(|(_, a)| !a.1)
                .max_by_key(|(i, a)| (a.0, std::cmp::Reverse(*i)))
                .map(|(i, _)| i)?;
            outside[largest] = true;
        }
        let is_out = |p: Point| board.cell(p) == Cell::Empty && outside[area[p.idx()] as usize];
        // The wall.
        let mut wall = Problem::safe_mask(board, attacker, safe);
        for &p in board.points() {
            if board.cell(p) == att
                && !wall[p.idx()]
                && board.neighbors(p).iter().any(|&q| is_out(q))
            {
                for s in board.chain_stones(p) {
                    wall[s.idx()] = true;
                }
            }
        }
        // The region.
        let mut mask = vec![false; MAX_POINTS];
        let mut pts = Vec::new();
        for &p in starts {
            if is_out(p) {
                return None; // a captured point on the open board
            }
            if !mask[p.idx()] {
                mask[p.idx()] = true;
                stack.push(p);
            }
        }
        while let Some(p) = stack.pop() {
            pts.push(p);
            if pts.len() > limit {
                return None;
            }
            for q in board.neighbors(p) {
                let c = board.cell(q);
                if c == Cell::Border || mask[q.idx()] || wall[q.idx()] {
                    continue;
                }
                if is_out(q) {
                    if c == Cell::Empty && board.cell(p) == def {
                        return None; // a defender stone touches the open board
                    }
                    continue;
                }
                mask[q.idx()] = true;
                stack.push(q);
            }
        }
        Some(Problem::assemble(board, defender, at, pts, mask))
    }

    /// The local rule: flood over empty points and defender stones from the
    /// crucial chains; attacker chains whose liberties all lie inside are
    /// inner stones, added with their neighbours.
    fn detect_local(
        board: &Board,
        defender: Color,
        at: &[Point],
        starts: &[Point],
        safe: &[Point],
        limit: usize,
    ) -> Result<Problem, RegionError> {
        let coord = board.coord(at[0]);
        let attacker = defender.opponent();
        let safe_mask = Problem::safe_mask(board, attacker, safe);
        let mut mask = vec![false; MAX_POINTS];
        let mut pts = Vec::new();
        let mut stack = Vec::new();
        for &p in starts {
            if !mask[p.idx()] {
                mask[p.idx()] = true;
                stack.push(p);
            }
        }
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

    /// The problem drawn as text (region points in lower case, escape
    /// points of a framed problem as `,`).
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
                    None if inside && self.escape.get(p.idx()).copied().unwrap_or(false) => ',',
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
