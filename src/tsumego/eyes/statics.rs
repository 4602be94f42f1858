//! The static verdicts on a search position: the eye-space rule and the
//! one-chain rule of [`super`], with reusable buffers ([`Statics`]).

use super::area::{area_value, solve_live};
use super::keys::canonical_into;
use super::*;
use crate::rules::{Board, Cell, ChainInsert, ChainSet, Color, Point};
use crate::tsumego::local::{self, Graph, Solver, State};
use crate::tsumego::region::{Problem, RegionBits, RegionMasks};

/// A static verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub winner: Color,
    /// For a defender win: unconditional life (no seki), so the seki test
    /// has nothing to look for.
    pub unconditional: bool,
}

/// One vertex of the region game: its point, whether it touches the
/// attacker's safe wall, and its crucial chain (index + 1, or 0).
type RegionVertex = (Point, bool, u16);

/// The region games of one search on one graph ([`Statics::region_game`]):
/// the graph of a vertex list and the memo its games share.
struct RegionGames {
    sig: Vec<RegionVertex>,
    strict: bool,
    graph: Graph,
    memo: AHashMap<State, local::Verdict>,
    history: local::History,
    /// When a game last used it ([`Statics::region_clock`]).
    used: u64,
}

impl RegionGames {
    fn new(b: &Board, sig: Vec<RegionVertex>, strict: bool) -> RegionGames {
        let mut graph = Graph::new(sig.len());
        let mut crucial: Vec<(u16, u32)> = Vec::new();
        for (v, &(p, walled, k)) in sig.iter().enumerate() {
            if walled {
                graph.wall |= 1 << v;
            }
            if k > 0 {
                match crucial.iter_mut().find(|c| c.0 == k) {
                    Some(c) => c.1 |= 1 << v,
                    None => crucial.push((k, 1 << v)),
                }
            }
            for q in b.neighbors(p) {
                if let Some(u) = sig.iter().position(|e| e.0 == q) {
                    graph.connect(v, u);
                }
            }
        }
        graph.crucial = crucial.into_iter().map(|c| c.1).collect();
        RegionGames {
            sig,
            strict,
            graph,
            memo: AHashMap::new(),
            history: local::NO_HISTORY,
            used: 0,
        }
    }
}

/// The heads of the standing crucial chains, each once (past eight
/// chains one may come twice, which only repeats work).
fn standing_heads<'a>(prob: &'a Problem, b: &'a Board) -> impl Iterator<Item = Point> + 'a {
    let mut done = ChainSet::<8>::new();
    (0..prob.crucial.len())
        .filter(move |&i| {
            prob.chain_on_board(b, i) && done.insert(b, prob.crucial[i][0]) != ChainInsert::Seen
        })
        .map(move |i| b.chain_head(prob.crucial[i][0]))
}

/// Whether the defender has a chain in the region, and more than one.
fn defender_chains(prob: &Problem, b: &Board) -> (bool, bool) {
    let def = Cell::stone(prob.defender);
    let mut head: Option<Point> = None;
    for &p in &prob.region {
        if b.cell(p) == def {
            let h = b.chain_head(p);
            match head {
                None => head = Some(h),
                Some(x) if x != h => return (true, true),
                _ => {}
            }
        }
    }
    (head.is_some(), false)
}

/// The empty points of the region.
fn empty_points(prob: &Problem, b: &Board) -> usize {
    prob.region
        .iter()
        .filter(|&&p| b.cell(p) == Cell::Empty)
        .count()
}

/// The attacker's chains found safe or not so far ([`Problem::safe_chain`]),
/// by chain head, for one position.
struct SafeChains<'a> {
    prob: &'a Problem,
    b: &'a Board,
    att: Cell,
    known: [(Point, bool); 32],
    n: usize,
}

impl<'a> SafeChains<'a> {
    fn new(prob: &'a Problem, b: &'a Board) -> SafeChains<'a> {
        SafeChains {
            prob,
            b,
            att: Cell::stone(prob.attacker()),
            known: [(Point(0), false); 32],
            n: 0,
        }
    }

    /// The chain at `q` is safe (callers ask for attacker stones).
    fn is_safe(&mut self, q: Point) -> bool {
        let h = self.b.chain_head(q);
        if let Some(&(_, s)) = self.known[..self.n].iter().find(|e| e.0 == h) {
            return s;
        }
        let s = self.prob.safe_chain(self.b, h);
        if self.n < self.known.len() {
            self.known[self.n] = (h, s);
            self.n += 1;
        }
        s
    }

    /// `p` touches the attacker's safe wall: a neighbour is a safe
    /// attacker stone, or a point outside the region that is not the edge.
    fn walled(&mut self, p: Point) -> bool {
        let b = self.b;
        b.neighbors(p).iter().any(|&q| {
            let cq = b.cell(q);
            (cq == self.att && self.is_safe(q)) || (!self.prob.in_region(q) && cq != Cell::Border)
        })
    }
}

/// What the caller of [`Statics::verdict`] knows of the position already;
/// the default knows nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Known {
    /// The region's bit sets of the board ([`Problem::masks`]), for a
    /// problem that has them (computed by the verdict otherwise).
    pub masks: Option<RegionMasks>,
    /// The position follows a stone at this point (either side's) that
    /// captured nothing, and the eye-space rule gave no verdict before it
    /// (`Statics::fill_keeps_no_area_verdict`).
    pub fill: Option<Point>,
    /// Leave the local games out (the eye-space rule only).
    pub no_games: bool,
    /// The eye-space rule is known to give no verdict here (an earlier
    /// call with `no_games` found none): only the local games run.
    pub games_only: bool,
}

/// Reusable buffers and the work done (local-game positions searched).
#[derive(Default)]
pub struct Statics {
    /// The region games of this search (one [`Statics`] serves one).
    region: Vec<RegionGames>,
    /// Counts region games, to find the graph used longest ago.
    region_clock: u64,
    /// The crucial chain (index + 1, or 0) of each point of the problem,
    /// filled by the first region game.
    crucial_at: Vec<u16>,
    /// The vertex list of the current region game (a reused buffer).
    region_sig: Vec<RegionVertex>,
    mark: Vec<u32>,
    stamp: u32,
    stack: Vec<Point>,
    area: Vec<Point>,
    pts: Vec<(u8, u8, u8)>,
    img: Vec<(u8, u8, u8)>,
    key: Vec<u8>,
    /// Positions searched by local games solved here.
    pub work: u64,
    /// The region game's bounds.
    pub region_caps: RegionCaps,
    /// The key of the last local game that gave a verdict (for the check
    /// mode's reports: [`Statics::why`]).
    why_key: Vec<u8>,
    /// The stones of the standing crucial chains, as the region's bit sets
    /// ([`Statics::standing_masks`]; a reused buffer).
    chains: Vec<u64>,
}

impl Statics {
    /// Statics whose region games keep to `caps`.
    pub fn with_region_caps(region_caps: RegionCaps) -> Statics {
        Statics {
            region_caps,
            ..Statics::default()
        }
    }

    fn next_stamp(&mut self) -> u32 {
        if self.mark.is_empty() {
            self.mark = vec![0; crate::rules::board::MAX_POINTS];
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.iter_mut().for_each(|m| *m = 0);
            self.stamp = 1;
        }
        self.stamp
    }

    /// The winner of the position with `to_move` to play, if a rule of the
    /// module doc decides it. `strict`: the seki test's rules; `closed`:
    /// every neighbour of the region outside it is an attacker stone or
    /// the edge (the one-chain rule needs it); `known`: what the caller
    /// knows of the position already ([`Known`]). The position must have
    /// no ko ban and follow a move, not a pass.
    pub fn verdict(
        &mut self,
        prob: &Problem,
        b: &Board,
        to_move: Color,
        strict: bool,
        closed: bool,
        known: Known,
    ) -> Option<Verdict> {
        self.why_key.clear();
        let fill = known.fill;
        let masks = prob.bits.as_ref().map(|bits| {
            let m = known.masks.unwrap_or_else(|| prob.masks(b));
            (bits, m)
        });
        // The defender's chains in the region: none, one, or more.
        let (any, several) = match &masks {
            Some((bits, m)) => {
                let d = m.defender;
                (d != 0, d != 0 && bits.flood(d & d.wrapping_neg(), d) != d)
            }
            None => defender_chains(prob, b),
        };
        let empties = match &masks {
            Some((_, m)) => m.empty.count_ones() as usize,
            None => empty_points(prob, b),
        };
        if any
            && !several
            && closed
            && !known.no_games
            && let Some(v) = self.one_chain(prob, b, to_move, strict, empties)
        {
            return Some(v);
        }
        // The region game's vertices: at least the empty points and the
        // defender's stones (the attacker's safe stones are left out).
        let at_least = empties
            + masks
                .as_ref()
                .map_or(0, |(_, m)| m.defender.count_ones() as usize);
        if several
            && closed
            && !prob.is_open()
            && !known.no_games
            && let Some(v) = self.region_game(prob, b, to_move, strict, empties, at_least)
        {
            return Some(v);
        }
        if known.games_only {
            return None;
        }
        let lives = match masks {
            Some((bits, _)) => {
                self.standing_masks(prob, bits, b);
                if fill.is_some_and(|p| self.fill_keeps_bits(bits, p)) {
                    return None;
                }
                self.lives_bits(prob, bits, b, strict)
            }
            None => {
                if fill.is_some_and(|p| self.fill_keeps_no_area_verdict(prob, b, p)) {
                    return None;
                }
                self.lives(prob, b, strict)
            }
        };
        lives.map(|unconditional| Verdict {
            winner: prob.defender,
            unconditional,
        })
    }

    /// The eye-space rule for every standing crucial chain: `Some(true)`
    /// for unconditional life (of any chain), `Some(false)` for life that
    /// may be seki.
    pub(super) fn lives(&mut self, prob: &Problem, b: &Board, strict: bool) -> Option<bool> {
        if let Some(bits) = &prob.bits {
            self.standing_masks(prob, bits, b);
            return self.lives_bits(prob, bits, b, strict);
        }
        let mut found = Decided::default();
        for h in standing_heads(prob, b) {
            let v = self.chain_lives(prob, b, h, strict);
            if found.take(v, &self.why_key) {
                return Some(true);
            }
        }
        found.finish(&mut self.why_key)
    }

    /// [`Statics::lives`] on the region's bit sets, the chains in
    /// `self.chains` ([`Statics::standing_masks`]).
    fn lives_bits(
        &mut self,
        prob: &Problem,
        bits: &RegionBits,
        b: &Board,
        strict: bool,
    ) -> Option<bool> {
        let mut found = Decided::default();
        for i in 0..self.chains.len() {
            let v = self.chain_lives_bits(prob, bits, b, self.chains[i], strict);
            if found.take(v, &self.why_key) {
                return Some(true);
            }
        }
        found.finish(&mut self.why_key)
    }

    /// The stones of every standing crucial chain, each chain once, into
    /// `self.chains` (in the order of the crucial chains).
    fn standing_masks(&mut self, prob: &Problem, bits: &RegionBits, b: &Board) {
        self.chains.clear();
        let mut covered = 0u64;
        for (i, c) in prob.crucial.iter().enumerate() {
            if !prob.chain_on_board(b, i) {
                continue;
            }
            let Some(cb) = bits.bit(c[0]) else { continue };
            if covered & cb != 0 {
                continue;
            }
            let chain = bits.chain(b, c[0]);
            covered |= chain;
            self.chains.push(chain);
        }
    }

    /// [`Statics::fill_keeps_no_area_verdict`] on the region's bit sets,
    /// the chains in `self.chains`.
    fn fill_keeps_bits(&self, bits: &RegionBits, p: Point) -> bool {
        // A point outside the region is no chain's stone and in no area.
        let Some(pb) = bits.bit(p) else { return true };
        self.chains.iter().all(|&chain| {
            // A defender stone that joined the chain changes its areas.
            pb & chain == 0 && !flood_bits(bits, pb, bits.all & !chain, bits.touches_out).0
        })
    }

    /// After a stone at `p` (either side's) that captured nothing, on a
    /// board where [`Statics::lives`] gave no verdict before it: true if
    /// it still gives none. Unless the stone is a defender stone that
    /// joined a standing crucial chain, it is not that chain's stone, so
    /// every chain's areas are the same sets of points as before, enclosed
    /// or not as before; only the content of the area holding `p` changed.
    /// Unless that area is one the rule values (enclosed, at most
    /// [`MAX_AREA`] points) for some standing crucial chain, every value
    /// the rule reads is what it was.
    pub(super) fn fill_keeps_no_area_verdict(
        &mut self,
        prob: &Problem,
        b: &Board,
        p: Point,
    ) -> bool {
        if let Some(bits) = &prob.bits {
            self.standing_masks(prob, bits, b);
            return self.fill_keeps_bits(bits, p);
        }
        let def = Cell::stone(prob.defender);
        for head in standing_heads(prob, b) {
            // A defender stone that joined the chain changes its areas.
            if b.cell(p) == def && b.chain_head(p) == head {
                return false;
            }
            // No point carries `unused`: the flood stops only at the
            // outside or past the size limit.
            let unused = self.next_stamp();
            let stamp = self.next_stamp();
            if self.flood_area(prob, b, head, p, stamp, unused) {
                return false;
            }
        }
        true
    }

    /// The areas of the chain `head` (see the module doc), each flooded
    /// from a point next to the chain through everything that is not the
    /// chain's stone, as far as [`MAX_AREA`] points: `Some(true)` if one
    /// area gives unconditional life, else `Some(false)` if the areas give
    /// life that may be seki (the answer does not depend on the order in
    /// which the areas are found).
    fn chain_lives(
        &mut self,
        prob: &Problem,
        b: &Board,
        head: Point,
        strict: bool,
    ) -> Option<bool> {
        // Points of areas already looked at (enclosed or not) carry `seen`;
        // each flood marks with a stamp of its own, since a flood that
        // stops early leaves part of its area unmarked. A flood that meets
        // a `seen` point is in an area looked at before, which was not
        // enclosed (an enclosed area is marked whole, so no unmarked point
        // touches it): it stops there.
        let seen = self.next_stamp();
        let mut ones = 0;
        let mut found = Decided::default();
        let def = Cell::stone(prob.defender);
        for s in b.chain_stones(head) {
            for q in b.neighbors(s) {
                let c = b.cell(q);
                if c == Cell::Border || c == def || self.mark[q.idx()] == seen {
                    continue;
                }
                // Most points next to the chain touch the wall: no flood.
                if !prob.in_region(q)
                    || b.neighbors(q)
                        .iter()
                        .any(|&r| !prob.in_region(r) && b.cell(r) != Cell::Border)
                {
                    continue;
                }
                let stamp = self.next_stamp();
                let enclosed = self.flood_area(prob, b, head, q, stamp, seen);
                for i in 0..self.area.len() {
                    let p = self.area[i];
                    self.mark[p.idx()] = seen;
                }
                if !enclosed {
                    continue;
                }
                let v = self.judge_area(prob, b, strict, &mut ones);
                if found.take(v, &self.why_key) {
                    return Some(true);
                }
            }
        }
        found.finish(&mut self.why_key)
    }

    /// [`Statics::chain_lives`] on the region's bit sets, for the chain
    /// whose stones are `chain`: the same areas, found in the order of
    /// their points' bits. A flood that stops early leaves a part of a
    /// component that is not a valued area in `seen`, and a later flood
    /// that meets it is in that component.
    fn chain_lives_bits(
        &mut self,
        prob: &Problem,
        bits: &RegionBits,
        b: &Board,
        chain: u64,
        strict: bool,
    ) -> Option<bool> {
        let allowed = bits.all & !chain;
        // The points next to the chain; those touching the wall start no
        // flood.
        let mut starts = bits.dilate(chain) & allowed & !bits.touches_out;
        let mut seen = 0u64;
        let mut ones = 0;
        let mut found = Decided::default();
        while starts != 0 {
            let qb = starts & starts.wrapping_neg();
            let (enclosed, area) = flood_bits(bits, qb, allowed, bits.touches_out | seen);
            seen |= area;
            starts &= !seen;
            if !enclosed {
                continue;
            }
            self.area.clear();
            let mut a = area;
            while a != 0 {
                self.area.push(prob.region[a.trailing_zeros() as usize]);
                a &= a - 1;
            }
            let v = self.judge_area(prob, b, strict, &mut ones);
            if found.take(v, &self.why_key) {
                return Some(true);
            }
        }
        found.finish(&mut self.why_key)
    }

    /// Values the enclosed area in `self.area` and says whether the chain
    /// lives by it, with `ones` the areas worth one eye seen before.
    fn judge_area(
        &mut self,
        prob: &Problem,
        b: &Board,
        strict: bool,
        ones: &mut u32,
    ) -> Option<bool> {
        let v = if self.area.len() == 1 {
            // A single point enclosed by the chain is empty (a stone there
            // would have no liberty, or be the chain's): one eye, never two.
            AreaValue {
                one: true,
                ..AreaValue::default()
            }
        } else {
            self.key_of_area(prob, b);
            self.why_key.clone_from(&self.key);
            area_value(&self.key, &mut self.work)
        };
        if v.two_strict {
            return Some(true);
        }
        if !strict && v.two {
            return Some(false);
        }
        if !strict && v.one {
            *ones += 1;
            if *ones == 2 {
                return Some(false);
            }
        }
        None
    }

    /// Floods the area of chain `head` through `start` into `self.area`,
    /// marking it with `stamp`: false if it is not enclosed by the chain
    /// and the edge, has more than [`MAX_AREA`] points, or reaches a point
    /// marked `seen` (an area looked at before and not enclosed); then it
    /// stops early, and `self.area` holds the part reached.
    fn flood_area(
        &mut self,
        prob: &Problem,
        b: &Board,
        head: Point,
        start: Point,
        stamp: u32,
        seen: u32,
    ) -> bool {
        self.area.clear();
        self.stack.clear();
        if !prob.in_region(start) {
            return false;
        }
        self.mark[start.idx()] = stamp;
        self.stack.push(start);
        while let Some(p) = self.stack.pop() {
            self.area.push(p);
            if self.area.len() > MAX_AREA {
                return false;
            }
            for q in b.neighbors(p) {
                let c = b.cell(q);
                if c == Cell::Border || (c.color().is_some() && b.chain_head(q) == head) {
                    continue;
                }
                if !prob.in_region(q) || self.mark[q.idx()] == seen {
                    return false;
                }
                if self.mark[q.idx()] != stamp {
                    self.mark[q.idx()] = stamp;
                    self.stack.push(q);
                }
            }
        }
        true
    }

    /// The canonical key of `self.area`, left in `self.key`.
    fn key_of_area(&mut self, prob: &Problem, b: &Board) {
        let def = Cell::stone(prob.defender);
        self.pts.clear();
        for &p in &self.area {
            let c = b.coord(p);
            let t = match b.cell(p) {
                Cell::Empty => EMPTY,
                x if x == def => DEF,
                _ => ATT,
            };
            self.pts.push((c.x, c.y, t));
        }
        canonical_into(
            KIND_AREA,
            &self.pts,
            b.size() as u8,
            true,
            &mut self.key,
            &mut self.img,
        );
    }

    /// The graphs whose region games this search keeps.
    #[cfg(test)]
    pub(super) fn region_graphs(&self) -> usize {
        self.region.len()
    }

    /// The last verdict came from the region game.
    pub fn by_region_game(&self) -> bool {
        self.why_key.first() == Some(&KIND_REGION)
    }

    /// What decided the last verdict: the local game's key, decoded.
    pub fn why(&self) -> String {
        match self.why_key.first() {
            Some(&KIND_AREA) => format!(
                "eye space {:?}, edges {:#b}",
                decode(&self.why_key).0,
                decode(&self.why_key).1
            ),
            Some(&KIND_REGION) => "region game".into(),
            Some(_) => format!(
                "one-chain game {:?}",
                decode(&self.why_key[..self.why_key.len() - 1].to_vec()).0
            ),
            None => "two one-point eyes".into(),
        }
    }

    /// The one-chain rule: the defender has a single chain in the region.
    fn one_chain(
        &mut self,
        prob: &Problem,
        b: &Board,
        to_move: Color,
        strict: bool,
        empties: usize,
    ) -> Option<Verdict> {
        let att = Cell::stone(prob.attacker());
        // Every empty point is a vertex: a cheap bound first.
        if empties + 1 > MAX_LIVE {
            return None;
        }
        // The live part: region points that are not safe attacker stones.
        let mut safe = SafeChains::new(prob, b);
        self.pts.clear();
        let mut others = 0;
        for &p in &prob.region {
            let c = b.cell(p);
            let t = if c == att {
                if safe.is_safe(p) {
                    continue;
                }
                ATT
            } else if c == Cell::Empty {
                if safe.walled(p) { EMPTY_WALL } else { EMPTY }
            } else {
                CHAIN
            };
            if t != CHAIN {
                others += 1;
                if others + 1 > MAX_LIVE {
                    return None;
                }
            }
            let c = b.coord(p);
            self.pts.push((c.x, c.y, t));
        }
        canonical_into(
            KIND_LIVE,
            &self.pts,
            b.size() as u8,
            false,
            &mut self.key,
            &mut self.img,
        );
        self.key
            .push((to_move == prob.defender) as u8 | (strict as u8) << 1);
        let bits = match cached(&self.key) {
            Some(v) => v,
            None => {
                let (v, nodes) = solve_live(&self.key);
                self.work += nodes;
                remember(self.key.clone(), v);
                v
            }
        };
        if bits & LIVE_KNOWN == 0 {
            return None;
        }
        self.why_key.clone_from(&self.key);
        let winner = if bits & LIVE_DEF != 0 {
            prob.defender
        } else {
            prob.attacker()
        };
        Some(Verdict {
            winner,
            unconditional: strict,
        })
    }

    /// The region rule: the defender has several chains in a closed
    /// region with at most [`MAX_REGION_EMPTY`] empty points. Every region
    /// point that is not a safe attacker stone is a vertex, each stone its
    /// own (a captured chain leaves its points empty, as on the board); a
    /// vertex next to a safe attacker chain or outside the region touches
    /// the wall; the crucial chains are their original points (one with a
    /// point under a safe attacker stone can never stand again and is
    /// left out). The graph depends on the safe chains only, so the games
    /// of one search on a graph share it and a memo ([`RegionGames`]); the
    /// last [`REGION_GRAPHS`] graphs are kept with their memos, since the
    /// search's lines alternate between graphs as safe chains grow in one
    /// and not in another.
    fn region_game(
        &mut self,
        prob: &Problem,
        b: &Board,
        to_move: Color,
        strict: bool,
        empties: usize,
        at_least: usize,
    ) -> Option<Verdict> {
        // `ts_region_vertices = 0`: no region game.
        if self.region_caps.vertices == 0 {
            return None;
        }
        let att = Cell::stone(prob.attacker());
        let def = Cell::stone(prob.defender);
        let most = self.region_caps.vertices.min(local::MAX_V);
        // Too many vertices, known before the safe chains are found (the
        // count below gives no verdict either).
        if empties > MAX_REGION_EMPTY || at_least > most {
            return None;
        }
        let mut safe = SafeChains::new(prob, b);
        if self.crucial_at.is_empty() {
            self.crucial_at = vec![0; crate::rules::board::MAX_POINTS];
            for (i, c) in prob.crucial.iter().enumerate() {
                for &p in c {
                    self.crucial_at[p.idx()] = i as u16 + 1;
                }
            }
        }
        // Crucial chains with a point under a safe attacker stone.
        let mut dead = 0u64;
        for (i, c) in prob.crucial.iter().enumerate() {
            if i >= 64 {
                // More chains than the mask holds: no verdict.
                return None;
            }
            if c.iter().any(|&p| b.cell(p) == att && safe.is_safe(p)) {
                dead |= 1 << i;
            }
        }
        let sig = &mut self.region_sig;
        sig.clear();
        let (mut att_mask, mut def_mask) = (0u32, 0u32);
        for &p in &prob.region {
            let c = b.cell(p);
            if c == att && safe.is_safe(p) {
                continue;
            }
            if sig.len() >= most {
                return None;
            }
            let walled = safe.walled(p);
            let k = match self.crucial_at[p.idx()] {
                k if k > 0 && dead & (1 << (k - 1)) != 0 => 0,
                k => k,
            };
            let bit = 1u32 << sig.len();
            if c == att {
                att_mask |= bit;
            } else if c == def {
                def_mask |= bit;
            }
            sig.push((p, walled, k));
        }
        // The graphs of the search alternate as safe chains grow in one
        // line and not in another: the last few are kept with their memos.
        let i = match self
            .region
            .iter()
            .position(|g| g.strict == strict && g.sig == *sig)
        {
            Some(i) => i,
            None if self.region.len() < REGION_GRAPHS => {
                self.region.push(RegionGames::new(b, sig.clone(), strict));
                self.region.len() - 1
            }
            None => {
                let i = (0..self.region.len())
                    .min_by_key(|&i| self.region[i].used)
                    .expect("a graph is kept");
                self.region[i] = RegionGames::new(b, sig.clone(), strict);
                i
            }
        };
        self.region_clock += 1;
        let games = &mut self.region[i];
        games.used = self.region_clock;
        // With no crucial chain that can stand again the attacker has won.
        let defender_wins = !games.graph.crucial.is_empty() && {
            if games.memo.len() > REGION_MEMO_CAP / REGION_GRAPHS {
                games.memo.clear();
            }
            let memo = std::mem::take(&mut games.memo);
            let mut solver =
                Solver::with_memo(&games.graph, strict, self.region_caps.positions, memo);
            solver.set_history(games.history);
            let v = solver.solve(State::new(att_mask, def_mask, to_move == prob.defender));
            self.work += solver.nodes;
            games.history = solver.history();
            games.memo = solver.into_memo();
            v.filter(|v| v.clean)?.defender_wins
        };
        self.why_key.clear();
        self.why_key.push(KIND_REGION);
        Some(Verdict {
            winner: if defender_wins {
                prob.defender
            } else {
                prob.attacker()
            },
            unconditional: strict,
        })
    }
}

/// The area through the point `start` (a bit) within `allowed`, flooded
/// a ring at a time: `(true, area)` if it has at most [`MAX_AREA`] points
/// and none in `stop`; otherwise `(false, part)`, with the part reached
/// when the flood stopped.
#[inline]
fn flood_bits(bits: &RegionBits, start: u64, allowed: u64, stop: u64) -> (bool, u64) {
    let mut area = start;
    let mut ring = start;
    loop {
        if area & stop != 0 || area.count_ones() as usize > MAX_AREA {
            return (false, area);
        }
        let next = bits.dilate(ring) & allowed & !area;
        if next == 0 {
            return (true, area);
        }
        area |= next;
        ring = next;
    }
}

/// The best of the eye-space rule's answers met so far: unconditional life
/// ends the scan; life that may be seki is kept (with the key of the local
/// game that gave it, for [`Statics::why`]) while later areas or chains may
/// still give unconditional life.
#[derive(Default)]
struct Decided {
    seki: Option<Vec<u8>>,
}

impl Decided {
    /// Takes one answer: true if it is unconditional life (the scan ends).
    fn take(&mut self, v: Option<bool>, why: &[u8]) -> bool {
        match v {
            Some(true) => {
                self.seki = None;
                true
            }
            Some(false) if self.seki.is_none() => {
                self.seki = Some(why.to_vec());
                false
            }
            _ => false,
        }
    }

    /// The answer when the scan ended without unconditional life.
    fn finish(self, why: &mut Vec<u8>) -> Option<bool> {
        let key = self.seki?;
        *why = key;
        Some(false)
    }
}
