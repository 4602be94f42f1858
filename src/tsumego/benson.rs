//! Benson's unconditional life, restricted to a problem's region.
//!
//! A region here is a maximal connected set of region points that are not
//! defender stones. A region that touches a point outside the problem's
//! region (the attacker's wall, or anything else outside) is open and can
//! never be an eye. A closed region R is *vital* to a defender chain C if
//! every empty point of R is a liberty of C. Benson's iteration removes
//! chains with fewer than two vital regions, then regions that touch a
//! removed chain, until nothing changes; the chains left are alive whatever
//! the attacker does, even if the defender always passes.

use super::region::{Problem, RegionBits, RegionMasks};
use crate::rules::board::MAX_POINTS;
use crate::rules::{Board, Cell, ChainInsert, ChainSet, Point};

/// Reusable buffers, so that the solver's terminal test allocates nothing.
pub struct Benson {
    mark: Vec<u32>,
    stamp: u32,
    stack: Vec<Point>,
    /// Per region: start/end in `members`, open flag.
    regions: Vec<(usize, usize, bool)>,
    members: Vec<Point>,
    chains: Vec<u16>,
    /// [`Benson::any_alive`] on bit sets: the regions, and the defender
    /// chains with the points next to them.
    region_bits: Vec<u64>,
    chain_bits: Vec<(u64, u64)>,
    chain_alive: Vec<bool>,
}

impl Default for Benson {
    fn default() -> Self {
        Benson {
            mark: vec![0; MAX_POINTS],
            stamp: 0,
            stack: Vec::new(),
            regions: Vec::new(),
            members: Vec::new(),
            chains: Vec::new(),
            region_bits: Vec::new(),
            chain_bits: Vec::new(),
            chain_alive: Vec::new(),
        }
    }
}

impl Benson {
    fn next_stamp(&mut self) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.iter_mut().for_each(|m| *m = 0);
            self.stamp = 1;
        }
        self.stamp
    }

    /// True if the defender chain through `chain` is unconditionally alive
    /// in `board` under the problem's region.
    pub fn alive(&mut self, prob: &Problem, board: &Board, chain: Point) -> bool {
        self.alive_with(prob, board, chain, true)
    }

    /// [`Benson::alive`] without the flood from the chain's neighbours
    /// ([`Benson::two_vital_regions`]): the reference its tests compare
    /// with.
    #[cfg(test)]
    pub(crate) fn alive_without_prefilter(
        &mut self,
        prob: &Problem,
        board: &Board,
        chain: Point,
    ) -> bool {
        self.alive_with(prob, board, chain, false)
    }

    /// True if one of the defender chains through `chains` is
    /// unconditionally alive: [`Benson::alive`] for each, with each chain
    /// tested once (crucial chains merge) and the iteration over the
    /// whole region, which does not depend on the chain asked about, run
    /// at most once.
    pub fn any_alive(
        &mut self,
        prob: &Problem,
        board: &Board,
        chains: impl IntoIterator<Item = Point>,
    ) -> bool {
        let masks = prob.masks(board);
        self.any_alive_in(prob, board, &masks, chains)
    }

    /// [`Benson::any_alive`] with the region's bit sets of `board` known
    /// (`masks`, read only when the problem has bit sets).
    pub fn any_alive_in(
        &mut self,
        prob: &Problem,
        board: &Board,
        masks: &RegionMasks,
        chains: impl IntoIterator<Item = Point>,
    ) -> bool {
        if let Some(bits) = &prob.bits {
            return self.any_alive_bits(prob, bits, board, masks, chains);
        }
        let def = Cell::stone(prob.defender);
        // Past eight chains a chain may be tested twice, to the same end.
        let mut tested = ChainSet::<8>::new();
        let mut alive = None;
        for chain in chains {
            if board.cell(chain) != def
                || board.liberties(chain) < 2
                || tested.insert(board, chain) == ChainInsert::Seen
            {
                continue;
            }
            let target = board.chain_head(chain).0;
            if !two_closed_neighbours(prob, board, chain, def)
                || !self.two_vital_regions(prob, board, def, target)
            {
                continue;
            }
            // The chain borders two closed regions vital to it (the count
            // `alive_with` makes from the full list): only the iteration
            // can still take them away.
            let survivors = match alive.take() {
                Some(v) => v,
                None => {
                    self.find_regions(prob, board, def);
                    self.iterate_all(prob, board, def)
                }
            };
            if self.survives(&survivors, target) {
                return true;
            }
            alive = Some(survivors);
        }
        false
    }

    /// [`Benson::any_alive`] on the region's bit sets, with the same
    /// filters: a chain is looked at only if it has two liberties or
    /// more, two points next to it that touch nothing outside the region
    /// and two closed regions vital to it; the iteration over every chain
    /// and region runs at most once.
    fn any_alive_bits(
        &mut self,
        prob: &Problem,
        bits: &RegionBits,
        board: &Board,
        masks: &RegionMasks,
        chains: impl IntoIterator<Item = Point>,
    ) -> bool {
        let def = Cell::stone(prob.defender);
        let (defender, empty) = (masks.defender, masks.empty);
        let others = bits.all & !defender;
        let mut regions_found = false;
        let mut iterated = false;
        for chain in chains {
            if board.cell(chain) != def || board.liberties(chain) < 2 {
                continue;
            }
            let Some(cb) = bits.bit(chain) else { continue };
            if iterated {
                // The iteration ran: the chain's survival is known.
                if self.survives_bits(cb) {
                    return true;
                }
                continue;
            }
            let stones = bits.chain(board, chain);
            let near = bits.dilate(stones) & others;
            if (near & !bits.touches_out).count_ones() < 2 {
                continue;
            }
            if !regions_found {
                self.regions_of(bits, others);
                regions_found = true;
            }
            let vital = self
                .region_bits
                .iter()
                .filter(|&&r| r & bits.touches_out == 0 && vital_bits(r, empty, near))
                .take(2)
                .count();
            if vital < 2 {
                continue;
            }
            self.iterate_bits(prob, bits, board, defender, empty);
            iterated = true;
            if self.survives_bits(cb) {
                return true;
            }
        }
        false
    }

    /// The connected sets of `others` (the region points that are not
    /// defender stones) into `region_bits`.
    fn regions_of(&mut self, bits: &RegionBits, others: u64) {
        self.region_bits.clear();
        let mut left = others;
        while left != 0 {
            let r = bits.flood(left & left.wrapping_neg(), others);
            self.region_bits.push(r);
            left &= !r;
        }
    }

    /// The chain holding the stone `cb` (a bit) survived
    /// [`Benson::iterate_bits`].
    fn survives_bits(&self, cb: u64) -> bool {
        self.chain_bits
            .iter()
            .zip(&self.chain_alive)
            .any(|(&(m, _), &a)| a && m & cb != 0)
    }

    /// Benson's iteration on bit sets, over the regions of
    /// [`Benson::regions_of`]: leaves every defender chain of the region
    /// in `chain_bits` (its stones, the points next to it) and whether it
    /// survives in `chain_alive`.
    fn iterate_bits(
        &mut self,
        prob: &Problem,
        bits: &RegionBits,
        board: &Board,
        defender: u64,
        empty: u64,
    ) {
        self.chain_bits.clear();
        let mut left = defender;
        while left != 0 {
            let p = prob.region[left.trailing_zeros() as usize];
            let m = bits.chain(board, p);
            self.chain_bits.push((m, bits.dilate(m)));
            left &= !m;
        }
        let mut alive = std::mem::take(&mut self.chain_alive);
        alive.clear();
        alive.resize(self.chain_bits.len(), true);
        // The live regions, by index in `region_bits` (at most 64: each
        // holds a point of the region).
        let mut live = self
            .region_bits
            .iter()
            .enumerate()
            .filter(|&(_, &r)| r & bits.touches_out == 0)
            .fold(0u64, |m, (i, _)| m | 1 << i);
        loop {
            let mut changed = false;
            for (ci, &(_, near)) in self.chain_bits.iter().enumerate() {
                if !alive[ci] {
                    continue;
                }
                let vital = self
                    .region_bits
                    .iter()
                    .enumerate()
                    .filter(|&(ri, &r)| live & 1 << ri != 0 && vital_bits(r, empty, near))
                    .take(2)
                    .count();
                if vital < 2 {
                    alive[ci] = false;
                    changed = true;
                }
            }
            let dead_near = self
                .chain_bits
                .iter()
                .zip(&alive)
                .filter(|&(_, &a)| !a)
                .fold(0u64, |m, (&(_, near), _)| m | near);
            for (ri, &r) in self.region_bits.iter().enumerate() {
                if live & 1 << ri != 0 && r & dead_near != 0 {
                    live &= !(1 << ri);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        self.chain_alive = alive;
    }

    /// After an attacker stone at `p` that captured nothing, on a board
    /// where Benson's iteration kept no crucial chain alive before it:
    /// true if it still keeps none, so the test need not run. The stone
    /// leaves every region the same set of points (it is not a defender
    /// stone) and every other point's liberty status as it was; it only
    /// takes `p` out of its region's empty points, so the only relation
    /// that can change is its region becoming vital to a chain `p` was
    /// not a liberty of. Without a change the iteration gives what it
    /// gave before. False (run the test) when `p`'s region is closed and
    /// borders a defender chain that `p` does not touch.
    pub fn fill_keeps_dead(&mut self, prob: &Problem, board: &Board, p: Point) -> bool {
        let def = Cell::stone(prob.defender);
        let mut touched = ChainSet::<4>::new();
        for n in board.neighbors(p) {
            if board.cell(n) == def {
                touched.insert(board, n);
            }
        }
        let stamp = self.next_stamp();
        let mut other_chain = false;
        self.stack.clear();
        self.mark[p.idx()] = stamp;
        self.stack.push(p);
        while let Some(q) = self.stack.pop() {
            for n in board.neighbors(q) {
                let c = board.cell(n);
                if c == Cell::Border {
                    continue;
                }
                if c == def {
                    other_chain |= !touched.contains(board, n);
                    continue;
                }
                if !prob.in_region(n) {
                    // An open region is never vital.
                    return true;
                }
                if self.mark[n.idx()] != stamp {
                    self.mark[n.idx()] = stamp;
                    self.stack.push(n);
                }
            }
        }
        !other_chain
    }

    fn alive_with(&mut self, prob: &Problem, board: &Board, chain: Point, prefilter: bool) -> bool {
        let def = Cell::stone(prob.defender);
        if board.cell(chain) != def || board.liberties(chain) < 2 {
            return false;
        }
        if !two_closed_neighbours(prob, board, chain, def) {
            return false;
        }
        let target = board.chain_head(chain).0;
        if prefilter && !self.two_vital_regions(prob, board, def, target) {
            return false;
        }
        self.find_regions(prob, board, def);
        // The chain needs two closed regions vital to it, and the iteration
        // below only takes regions away: most positions stop here.
        let candidates = self
            .regions
            .iter()
            .filter(|&&(s, e, open)| !open && vital_to(board, &self.members[s..e], target))
            .take(2)
            .count();
        if candidates < 2 {
            return false;
        }
        self.iterate(prob, board, def, target)
    }

    /// True if the chain with head `target` borders two closed regions
    /// vital to it, found by flooding from its neighbours only: a flood
    /// stops as soon as its region is open (it reaches a point outside
    /// the problem's region), holds an empty point that is not a liberty
    /// of the chain, or meets a point of a region that failed before
    /// (the same region). Most regions of a search position fail within a
    /// few points, where [`Benson::find_regions`] floods the whole
    /// problem; the count is the one `alive` makes from the full list.
    fn two_vital_regions(&mut self, prob: &Problem, board: &Board, def: Cell, target: u16) -> bool {
        // Stamps are compared by order below, so they must not wrap
        // within the call (it floods at most once per neighbour).
        if self.stamp > u32::MAX - 4 * MAX_POINTS as u32 {
            self.mark.iter_mut().for_each(|m| *m = 0);
            self.stamp = 0;
        }
        let failed = self.next_stamp();
        let mut found = 0;
        for s in board.chain_stones(Point(target)) {
            for q in board.neighbors(s) {
                let c = board.cell(q);
                if c == def
                    || c == Cell::Border
                    || !prob.in_region(q)
                    || self.mark[q.idx()] >= failed
                {
                    continue;
                }
                // Each flood has its own stamp, above `failed`: points of a
                // failed flood are set back to `failed`, points of a vital
                // region keep theirs (so no flood starts there again).
                let stamp = self.next_stamp();
                let vital = self.flood_vital(prob, board, def, target, q, stamp, failed);
                if vital {
                    found += 1;
                    if found == 2 {
                        return true;
                    }
                } else {
                    for i in 0..self.members.len() {
                        let m = self.members[i];
                        self.mark[m.idx()] = failed;
                    }
                }
            }
        }
        false
    }

    /// Floods from `start` for [`Benson::two_vital_regions`], the points
    /// reached left in `members`: true if the region is closed and every
    /// empty point of it is a liberty of `target`.
    #[allow(clippy::too_many_arguments)]
    fn flood_vital(
        &mut self,
        prob: &Problem,
        board: &Board,
        def: Cell,
        target: u16,
        start: Point,
        stamp: u32,
        failed: u32,
    ) -> bool {
        self.members.clear();
        self.stack.clear();
        self.mark[start.idx()] = stamp;
        self.stack.push(start);
        while let Some(q) = self.stack.pop() {
            self.members.push(q);
            let mut liberty = false;
            for n in board.neighbors(q) {
                let c = board.cell(n);
                if c == Cell::Border {
                    continue;
                }
                if c == def {
                    liberty |= board.chain_head(n).0 == target;
                    continue;
                }
                if !prob.in_region(n) || self.mark[n.idx()] == failed {
                    return false;
                }
                if self.mark[n.idx()] != stamp {
                    self.mark[n.idx()] = stamp;
                    self.stack.push(n);
                }
            }
            if !liberty && board.cell(q) == Cell::Empty {
                return false;
            }
        }
        true
    }

    /// The regions of the problem (`regions`, `members`): maximal
    /// connected sets of region points that are not defender stones, each
    /// open if it touches a point outside the problem's region.
    #[inline]
    fn find_regions(&mut self, prob: &Problem, board: &Board, def: Cell) {
        self.regions.clear();
        self.members.clear();
        let stamp = self.next_stamp();
        for &p in &prob.region {
            if board.cell(p) == def || self.mark[p.idx()] == stamp {
                continue;
            }
            let start = self.members.len();
            let mut open = false;
            self.mark[p.idx()] = stamp;
            self.stack.push(p);
            while let Some(q) = self.stack.pop() {
                self.members.push(q);
                for n in board.neighbors(q) {
                    let c = board.cell(n);
                    if c == Cell::Border || c == def {
                        continue;
                    }
                    if !prob.in_region(n) {
                        open = true;
                    } else if self.mark[n.idx()] != stamp {
                        self.mark[n.idx()] = stamp;
                        self.stack.push(n);
                    }
                }
            }
            self.regions.push((start, self.members.len(), open));
        }
    }

    /// Benson's iteration over the defender chains of the region and the
    /// regions found: true if the chain with head `target` survives it.
    #[inline]
    fn iterate(&mut self, prob: &Problem, board: &Board, def: Cell, target: u16) -> bool {
        let alive_chains = self.iterate_all(prob, board, def);
        self.survives(&alive_chains, target)
    }

    /// The chain with head `target` is among the survivors `alive` of
    /// [`Benson::iterate_all`].
    fn survives(&self, alive: &[bool], target: u16) -> bool {
        self.chains
            .iter()
            .position(|&h| h == target)
            .is_some_and(|ci| alive[ci])
    }

    /// Benson's iteration: which of the defender chains of the region
    /// (`chains`, by head) survive it.
    #[inline]
    fn iterate_all(&mut self, prob: &Problem, board: &Board, def: Cell) -> Vec<bool> {
        self.chains.clear();
        for &p in &prob.region {
            if board.cell(p) == def {
                let h = board.chain_head(p).0;
                if !self.chains.contains(&h) {
                    self.chains.push(h);
                }
            }
        }
        let mut alive_chains: Vec<bool> = vec![true; self.chains.len()];
        let mut live_regions: Vec<bool> = self.regions.iter().map(|r| !r.2).collect();
        loop {
            let chains_died = self.drop_chains(board, &mut alive_chains, &live_regions);
            let regions_died = self.drop_regions(board, def, &alive_chains, &mut live_regions);
            if !chains_died && !regions_died {
                break;
            }
        }
        alive_chains
    }

    /// Chains with fewer than two vital live regions die; true if one did.
    #[inline]
    fn drop_chains(&self, board: &Board, alive_chains: &mut [bool], live_regions: &[bool]) -> bool {
        let mut changed = false;
        for (ci, &h) in self.chains.iter().enumerate() {
            if !alive_chains[ci] {
                continue;
            }
            let mut vital = 0;
            for (ri, &(s, e, _)) in self.regions.iter().enumerate() {
                if live_regions[ri] && vital_to(board, &self.members[s..e], h) {
                    vital += 1;
                    if vital == 2 {
                        break;
                    }
                }
            }
            if vital < 2 {
                alive_chains[ci] = false;
                changed = true;
            }
        }
        changed
    }

    /// Regions touching a dead chain are no longer eyes; true if one
    /// was dropped.
    #[inline]
    fn drop_regions(
        &self,
        board: &Board,
        def: Cell,
        alive_chains: &[bool],
        live_regions: &mut [bool],
    ) -> bool {
        let mut changed = false;
        for (ri, &(s, e, _)) in self.regions.iter().enumerate() {
            if !live_regions[ri] {
                continue;
            }
            let touches_dead = self.members[s..e].iter().any(|&q| {
                board.neighbors(q).iter().any(|&n| {
                    board.cell(n) == def
                        && self
                            .chains
                            .iter()
                            .position(|&h| h == board.chain_head(n).0)
                            .is_some_and(|ci| !alive_chains[ci])
                })
            });
            if touches_dead {
                live_regions[ri] = false;
                changed = true;
            }
        }
        changed
    }
}

/// A vital region is closed and borders the chain, so it holds a point
/// next to the chain that touches nothing outside the problem's region:
/// true if the chain through `chain` has two such points (without them,
/// no need to look further).
#[inline]
fn two_closed_neighbours(prob: &Problem, board: &Board, chain: Point, def: Cell) -> bool {
    let mut near = [Point(0); 2];
    let mut n_near = 0;
    for s in board.chain_stones(chain) {
        for q in board.neighbors(s) {
            let c = board.cell(q);
            if c == def || c == Cell::Border || !prob.in_region(q) || near[..n_near].contains(&q) {
                continue;
            }
            let closed = board.neighbors(q).iter().all(|&n| {
                matches!(board.cell(n), Cell::Border) || board.cell(n) == def || prob.in_region(n)
            });
            if closed {
                near[n_near] = q;
                n_near += 1;
                if n_near == 2 {
                    return true;
                }
            }
        }
    }
    false
}

/// The region `r` is vital to the chain whose neighbouring points are
/// `near`: it borders the chain and every empty point of it is a
/// liberty of the chain.
#[inline]
fn vital_bits(r: u64, empty: u64, near: u64) -> bool {
    r & near != 0 && r & empty & !near == 0
}

/// True if every empty point of the region is a liberty of chain `head`.
fn vital_to(board: &Board, members: &[Point], head: u16) -> bool {
    let mut borders = false;
    for &q in members {
        let adjacent = board
            .neighbors(q)
            .iter()
            .any(|&n| board.cell(n).color().is_some() && board.chain_head(n).0 == head);
        if adjacent {
            borders = true;
        } else if board.cell(q) == Cell::Empty {
            return false;
        }
    }
    borders
}
