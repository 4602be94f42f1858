//! Static evaluation inside the search: closed regions, the walled-in
//! test, terminal positions (captures, Benson life, static death) and the
//! heuristic distances that seed proof numbers.

use super::*;
use crate::rules::{ChainInsert, ChainSet};

impl Dfpn<'_> {
    pub(super) fn is_closed(prob: &Problem) -> bool {
        let b = &prob.board;
        let att = Cell::stone(prob.attacker());
        prob.region.iter().all(|&p| {
            b.neighbors(p).iter().all(|&q| {
                prob.in_region(q) || matches!(b.cell(q), Cell::Border) || b.cell(q) == att
            })
        })
    }

    /// The attacker has won, though crucial chains still stand, when the
    /// defender has no room left for two eyes or a seki. *Safe* attacker
    /// chains are those with a liberty outside the region (nobody ever
    /// fills it, so they are never captured, and a stone played next to
    /// one joins it: never suicide, never a ko capture), and the chains
    /// connected to a safe chain by miai ([`Dfpn::miai_safety`]: the
    /// attacker answers the defender's move on one point of the pair at
    /// the other at once, so they too are never captured). Let Q be the
    /// region points neither in a safe chain nor next to one. The test
    /// holds when Q has no attacker stone and is at most one point or two
    /// adjacent points. Then every attacker stone of the region is safe,
    /// so the defender captures nothing while the attacker fills, one by
    /// one, every empty point outside Q (permanent moves); the defender's
    /// chains are left with liberties in Q only, at most one eye's worth:
    /// one point is filled with a capture of everything; of two adjacent
    /// points the attacker takes one, and if the defender captures that
    /// stone by playing the other (its stone joins a chain, so no ko), the
    /// retake captures everything. No position repeats, so neither ko
    /// threats nor repetition bans change this.
    ///
    /// The test also holds when Q's only attacker stone is a lone stone m
    /// next to every other point of Q (at most five points: the three in a
    /// row or bent, the pyramid four and the cross five, each with the
    /// attacker on its vital point; a nakade, though a defender stone in an
    /// inner corner of a bent shape is in Q as well unless it touches a
    /// safe chain, and then the test does not hold). While m stands, every
    /// point of Q touches it, so none is an eye. The attacker fills the
    /// points outside Q as before; Q only shrinks (a filled point is safe,
    /// and a point next to it leaves Q), and a fill next to m makes m safe,
    /// after which Q is empty. To capture m the defender must fill every
    /// empty point of Q but m, which leaves one eye's worth; its capturing
    /// stone joins one of its chains (its other neighbours are defender
    /// stones or empty points outside Q), so it is no ko. Once the points
    /// outside Q are filled, m and the defender's chains share Q's empty
    /// points as their only liberties: the attacker plays them next to m,
    /// and a capture of the attacker's stones leaves a smaller shape of the
    /// same kind around m (or one point), where the attacker plays m again.
    /// Pinned against the search in
    /// `the_nakade_in_the_walled_in_test_agrees_with_the_search`.
    ///
    /// Callers check [`Dfpn::closed_at`] first.
    pub(super) fn walled_in(&self, depth: usize) -> bool {
        self.walled_in_q(depth).is_some()
    }

    /// [`Dfpn::walled_in`], with the number of points of Q when it holds.
    pub(super) fn walled_in_q(&self, depth: usize) -> Option<usize> {
        let prob = self.prob;
        let b = &self.boards[depth];
        let att = Cell::stone(prob.attacker());
        // Quick rejection: points that neither hold nor touch an attacker
        // stone are in Q whatever the chains.
        if let Some(bits) = &prob.bits {
            let a = self.masks[depth].attacker;
            let far = bits.all & !a & !(bits.dilate(a) | self.attacker_out);
            if far.count_ones() > 2 {
                return None;
            }
        } else {
            let mut far = 0;
            for &p in &prob.region {
                if b.cell(p) != att && b.stone_neighbors(p, prob.attacker()) == 0 {
                    far += 1;
                    if far > 2 {
                        return None;
                    }
                }
            }
        }
        // The attacker chains in or next to the region, by chain head, and
        // whether they are safe.
        let mut chains: [(Point, bool); 32] = [(Point(0), false); 32];
        let mut n = 0;
        for &p in &prob.region {
            for q in std::iter::once(p).chain(b.neighbors(p)) {
                if b.cell(q) != att {
                    continue;
                }
                let h = b.chain_head(q);
                if chains[..n].iter().any(|e| e.0 == h) {
                    continue;
                }
                if n == chains.len() {
                    return None;
                }
                chains[n] = (h, Self::outside_liberty(b, prob, h));
                n += 1;
            }
        }
        let chains = &mut chains[..n];
        self.q_walled_in(b, att, chains).or_else(|| {
            (self.virtual_safety && Self::miai_safety(b, att, chains))
                .then(|| self.q_walled_in(b, att, chains))
                .flatten()
        })
    }

    /// Whether the chain at `h` has a liberty outside the region.
    fn outside_liberty(b: &Board, prob: &Problem, h: Point) -> bool {
        b.chain_stones(h).any(|s| {
            b.neighbors(s)
                .iter()
                .any(|&l| b.cell(l) == Cell::Empty && !prob.in_region(l))
        })
    }

    /// The walled-in test's condition on Q, given the attacker chains
    /// next to the region (head, safe), with Q's size when it holds: at
    /// most one point or two adjacent points and no attacker stone, or
    /// (`nakade`) one lone attacker stone next to every other point. With
    /// one attacker stone in Q, that stone is a chain of its own: every
    /// stone of a chain that is not safe lies in Q.
    fn q_walled_in(&self, b: &Board, att: Cell, chains: &[(Point, bool)]) -> Option<usize> {
        let prob = self.prob;
        let safe =
            |q: Point| b.cell(q) == att && chains.iter().any(|e| e.1 && e.0 == b.chain_head(q));
        let mut open = [Point(0); 5];
        let mut n_open = 0;
        let mut stone = None;
        for &p in &prob.region {
            if std::iter::once(p).chain(b.neighbors(p)).any(safe) {
                continue;
            }
            if n_open == 5 {
                return None;
            }
            if b.cell(p) == att {
                if !self.nakade || stone.is_some() {
                    return None;
                }
                stone = Some(p);
            }
            open[n_open] = p;
            n_open += 1;
        }
        let holds = match stone {
            None => n_open < 2 || (n_open == 2 && b.neighbors(open[0]).contains(&open[1])),
            Some(m) => open[..n_open]
                .iter()
                .all(|&q| q == m || b.neighbors(m).contains(&q)),
        };
        holds.then_some(n_open)
    }

    /// Marks as safe the attacker chains of `chains` that are connected to
    /// a safe chain by miai: two empty points, each next to the chain and
    /// to a safe chain, claimed by no other chain. When the defender plays
    /// one, the attacker connects at the other; no defender move takes two
    /// claimed points at once, so every such chain stays connected or
    /// becomes part of a safe chain, and a stone played next to it never
    /// fills its last liberty. Chains connected this way count as safe in
    /// turn, so the marking repeats until nothing changes.
    /// Returns whether it marked any.
    fn miai_safety(b: &Board, att: Cell, chains: &mut [(Point, bool)]) -> bool {
        let mut any = false;
        let mut claimed = [Point(0); 64];
        let mut n_claimed = 0;
        loop {
            let mut changed = false;
            for i in 0..chains.len() {
                if chains[i].1 {
                    continue;
                }
                let h = chains[i].0;
                let mut pair = [Point(0); 2];
                let mut n_pair = 0;
                'stones: for s in b.chain_stones(h) {
                    for p in b.neighbors(s) {
                        if b.cell(p) != Cell::Empty
                            || pair[..n_pair].contains(&p)
                            || claimed[..n_claimed].contains(&p)
                        {
                            continue;
                        }
                        let joins_safe = b.neighbors(p).iter().any(|&q| {
                            b.cell(q) == att && {
                                let g = b.chain_head(q);
                                g != h && chains.iter().any(|e| e.1 && e.0 == g)
                            }
                        });
                        if joins_safe {
                            pair[n_pair] = p;
                            n_pair += 1;
                            if n_pair == 2 {
                                break 'stones;
                            }
                        }
                    }
                }
                if n_pair == 2 && n_claimed + 2 <= claimed.len() {
                    claimed[n_claimed] = pair[0];
                    claimed[n_claimed + 1] = pair[1];
                    n_claimed += 2;
                    chains[i].1 = true;
                    changed = true;
                    any = true;
                }
            }
            if !changed {
                return any;
            }
        }
    }

    /// Asks the processor to bring the position cache's slot for the
    /// position at `depth` into its cache, so that the lookups of the
    /// terminal tests a little later do not wait for memory.
    #[inline]
    pub(super) fn prefetch_slot(&self, depth: usize) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let (_, slot) = self.pos_key(depth);
            let p = &self.pos_cache[slot] as *const PosEntry as *const i8;
            // SAFETY: SSE is part of the x86_64 baseline, and a prefetch
            // is a hint that reads nothing and never faults (the address
            // is a live element of `pos_cache` anyway).
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = depth;
    }

    /// The position cache's key for the position at `depth`, and the slot
    /// it maps to.
    #[inline]
    fn pos_key(&self, depth: usize) -> (u64, usize) {
        let key = self.boards[depth].hash() ^ BENSON_SALT;
        (key, (key as usize) & (self.pos_cache.len() - 1))
    }

    /// Doubles the position cache, keeping every entry, once new
    /// positions have taken a quarter of its slots since it last grew (up
    /// to [`POS_CACHE_MAX`]): a long search meets more positions than a
    /// short one, and each it finds again saves the terminal tests and the
    /// static evaluation, while a short search keeps a small cache.
    /// Called where no slot is held (at the start of an expansion). An
    /// entry in slot `i` of `n` moves to slot `i` or `i + n` of `2n`, so
    /// no two collide.
    pub(super) fn grow_pos_cache(&mut self) {
        let n = self.pos_cache.len();
        if self.pos_taken < n / 4 || n >= POS_CACHE_MAX {
            return;
        }
        // In place: the upper half is new, empty slots (key 0, no
        // position's: see `BENSON_SALT`), in memory an earlier search on
        // this thread may have touched already ([`pooled_pos_cache`]), and
        // an entry of slot `i` whose key has bit `n` set moves up by `n`.
        self.pos_cache.resize(2 * n, PosEntry::default());
        let (low, high) = self.pos_cache.split_at_mut(n);
        for (lo, hi) in low.iter_mut().zip(high) {
            if lo.key & n as u64 != 0 {
                *hi = std::mem::take(lo);
            }
        }
        self.pos_taken = 0;
    }

    /// What the position cache knows of the position at `depth`: that
    /// Benson's test keeps no crucial chain alive there, and that the
    /// static evaluation gave no verdict (for either side to move), so
    /// neither did the eye-space rule, its last rule.
    pub(super) fn known_nothing(&self, depth: usize) -> (bool, bool) {
        let (key, slot) = self.pos_key(depth);
        let e = &self.pos_cache[slot];
        if e.key != key {
            return (false, false);
        }
        (e.benson == 1, e.statics.iter().any(|&v| v >= 4))
    }

    /// The position cache's slot for the position at `depth`, cleared for
    /// it if another position held it.
    fn pos_slot(&mut self, depth: usize) -> usize {
        let (key, slot) = self.pos_key(depth);
        if self.pos_cache[slot].key != key {
            self.pos_cache[slot] = PosEntry {
                key,
                ..PosEntry::default()
            };
            self.pos_taken += 1;
        }
        slot
    }

    /// The tests for closed regions apply to the position at `depth`: the
    /// problem is closed, or it is framed and the position is sealed
    /// ([`Dfpn::sealed`]). Cached by position key.
    pub(super) fn closed_at(&mut self, depth: usize) -> bool {
        if self.closed {
            return true;
        }
        if !self.framed {
            return false;
        }
        let slot = self.pos_slot(depth);
        match self.pos_cache[slot].closed {
            0 => {
                let v = self.sealed(depth);
                self.pos_cache[slot].closed = 1 + v as u8;
                v
            }
            v => v == 2,
        }
    }

    /// In a framed problem, the defender can no longer reach an exit: no
    /// exit is reached from a standing crucial chain through region points
    /// that are empty, defender stones or attacker stones that are not
    /// safe ([`Problem::safe_chain`]: never captured, and safe as it
    /// grows), so a sealed position stays sealed in every
    /// line after it: from it on the problem is a closed one, and the
    /// tests for closed regions hold.
    pub(super) fn sealed(&mut self, depth: usize) -> bool {
        let prob = self.prob;
        let b = &self.boards[depth];
        let att = Cell::stone(prob.attacker());
        self.seal_gen = self.seal_gen.wrapping_add(1);
        if self.seal_gen == 0 {
            self.seal_mark.fill(0);
            self.seal_gen = 1;
        }
        let g = self.seal_gen;
        let mark = &mut self.seal_mark;
        let stack = &mut self.seal_stack;
        stack.clear();
        for (i, c) in prob.crucial.iter().enumerate() {
            if prob.chain_on_board(b, i) && mark[c[0].idx()] != g {
                mark[c[0].idx()] = g;
                stack.push(c[0]);
            }
        }
        // Safety of the attacker chains met, by chain head.
        let mut known: [(Point, bool); 32] = [(Point(0), false); 32];
        let mut n_known = 0;
        while let Some(p) = stack.pop() {
            if prob.escape[p.idx()] {
                return false;
            }
            for &q in b.neighbors(p).iter() {
                if mark[q.idx()] == g || !prob.in_region(q) {
                    continue;
                }
                let c = b.cell(q);
                if c == att {
                    let h = b.chain_head(q);
                    let safe = match known[..n_known].iter().find(|e| e.0 == h) {
                        Some(&(_, s)) => s,
                        None => {
                            let s = prob.safe_chain(b, h);
                            if n_known < known.len() {
                                known[n_known] = (h, s);
                                n_known += 1;
                            }
                            s
                        }
                    };
                    if safe {
                        continue;
                    }
                }
                mark[q.idx()] = g;
                stack.push(q);
            }
        }
        true
    }

    /// The winner if the position (with `to_move` to play) is terminal;
    /// `pass_pass`: two passes have just been made. Benson's test and,
    /// without two passes, the whole answer depend on the stones only and
    /// are cached by position key (a position is met again whenever df-pn
    /// re-enters its parent, and through transpositions).
    pub(super) fn terminal(&mut self, depth: usize, pass_pass: bool) -> Option<Color> {
        let prob = self.prob;
        let b = &self.boards[depth];
        if !prob.any_chain_on_board(b) {
            return Some(prob.attacker());
        }
        if prob.escaped(b) {
            return Some(prob.defender);
        }
        if pass_pass && !self.regime.strict {
            return Some(prob.defender);
        }
        let slot = self.pos_slot(depth);
        if !pass_pass {
            match self.pos_cache[slot].terminal {
                0 => {}
                1 => return None,
                2 => return Some(prob.attacker()),
                _ => return Some(prob.defender),
            }
        }
        let v = self.terminal_in(depth, pass_pass, slot);
        if !pass_pass {
            // The tests look the position up by the same key, so the slot
            // still holds it.
            self.pos_cache[slot].terminal = match v {
                None => 1,
                Some(c) if c == prob.defender => 3,
                Some(_) => 2,
            };
        }
        v
    }

    /// [`Dfpn::terminal`] from Benson's test on, the position's cache slot
    /// found.
    fn terminal_in(&mut self, depth: usize, pass_pass: bool, slot: usize) -> Option<Color> {
        let prob = self.prob;
        // Benson's test depends on the stones only: positions met again
        // (transpositions, the same child under another parent) reuse it.
        let alive = match self.pos_cache[slot].benson {
            0 => {
                let b = &self.boards[depth];
                let fill = self
                    .fill_hint
                    .filter(|h| h.depth == depth && h.benson_dead)
                    .map(|h| h.p);
                let v = if fill.is_some_and(|p| self.benson.fill_keeps_dead(prob, b, p)) {
                    false
                } else {
                    let crucial = &self.crucial;
                    let standing = (0..prob.crucial.len())
                        .filter(|&i| prob.chain_on_board(b, i))
                        .map(|i| crucial[i]);
                    self.benson
                        .any_alive_in(prob, b, &self.masks[depth], standing)
                };
                self.pos_cache[slot].benson = 1 + v as u8;
                v
            }
            v => v == 2,
        };
        if alive {
            return Some(prob.defender);
        }
        if pass_pass {
            return Some(prob.attacker());
        }
        let closed = self.closed_at(depth);
        // The static deaths below assume superko: under simple ko the
        // defender might still force a cycle, which is its win.
        if self.cycles_win() {
            return None;
        }
        if self.static_death && closed && self.walled_in(depth) {
            if let Some(check) = self.check
                && self.pos_cache[slot].key.is_multiple_of(check.every)
            {
                self.check_walled_in(depth, check.max_nodes);
            }
            return Some(prob.attacker());
        }
        if prob.is_open() && !closed {
            return None;
        }
        // No attacker stone in the region, and room for no more than
        // `NO_ROOM` points.
        let room = prob.region.len();
        if room > NO_ROOM {
            return None;
        }
        let b = &self.boards[depth];
        let att = Cell::stone(prob.attacker());
        if prob.region.iter().all(|&p| b.cell(p) != att) {
            return Some(prob.attacker());
        }
        None
    }

    /// The static evaluation of `eyes` for the position at `depth` with
    /// `to_move` to play, reached by a move (not a pass): the winner, and
    /// for a defender win whether it is unconditional life. Cached by
    /// position key.
    pub(super) fn static_verdict(&mut self, depth: usize, to_move: Color) -> Option<(Color, bool)> {
        self.static_verdict_with(depth, to_move, false)
    }

    /// [`Self::static_verdict`], without the local games when `no_games`
    /// (cached apart: a later call with them evaluates again).
    pub(super) fn static_verdict_with(
        &mut self,
        depth: usize,
        to_move: Color,
        no_games: bool,
    ) -> Option<(Color, bool)> {
        if !self.use_statics {
            return None;
        }
        let prob = self.prob;
        let b = &self.boards[depth];
        if b.ko().is_some() {
            return None;
        }
        let slot = self.pos_slot(depth);
        let side = to_move.index();
        let cached = self.pos_cache[slot].statics[side];
        let v = match cached {
            5 if no_games => 5,
            0 | 5 => {
                let before = self.statics.work;
                let closed = self.closed_at(depth);
                let b = &self.boards[depth];
                let fill = self
                    .fill_hint
                    .filter(|h| h.depth == depth && h.no_area_verdict)
                    .map(|h| h.p);
                let known = Known {
                    masks: prob.bits.as_ref().map(|_| self.masks[depth]),
                    fill,
                    no_games,
                    // Value 5: the rule found nothing here before.
                    games_only: cached == 5,
                };
                let w = self
                    .statics
                    .verdict(prob, b, to_move, self.regime.strict, closed, known);
                if self.counting {
                    self.counters.static_work += self.statics.work - before;
                }
                let v = match w {
                    None if no_games => 5,
                    None => 4,
                    Some(v) if v.winner == prob.defender => 1 + v.unconditional as u8,
                    Some(_) => 3,
                };
                self.pos_cache[slot].statics[side] = v;
                if let (Some(w), Some(check)) = (w, self.check)
                    && self.pos_cache[slot].key.is_multiple_of(check.every)
                {
                    self.check_verdict(depth, to_move, w.winner, check.max_nodes);
                }
                v
            }
            v => v,
        };
        match v {
            1 => Some((prob.defender, false)),
            2 => Some((prob.defender, true)),
            // The local games' kills assume superko (as in `terminal`).
            3 if !self.cycles_win() => Some((prob.attacker(), false)),
            _ => None,
        }
    }

    /// Checks a static verdict against a search without the static
    /// evaluation (from the same position, history aside, in this
    /// search's regime).
    fn check_verdict(&mut self, depth: usize, to_move: Color, winner: Color, max_nodes: u64) {
        let sub = self.position_at(depth);
        let full = self.check_search(&sub, to_move, max_nodes, |d| d.without_statics());
        self.counters.checked += 1;
        self.counters.checked_region += self.statics.by_region_game() as u64;
        match full {
            None => self.counters.check_unknown += 1,
            Some(f) if f != winner => {
                self.counters.contradictions += 1;
                crate::tsumego::eyes::report_contradiction(format!(
                    "static verdict {} wins ({}), search {} wins; {} to move, threats {:?}, strict {}\n{}",
                    winner.name(),
                    self.statics.why(),
                    f.name(),
                    to_move.name(),
                    self.regime.threats,
                    self.regime.strict,
                    sub.render()
                ));
            }
            Some(_) => {}
        }
    }

    /// The position at `depth` as a problem of its own (history aside),
    /// for the check mode's searches.
    fn position_at(&self, depth: usize) -> Problem {
        let mut sub = self.prob.clone();
        sub.board = self.boards[depth].clone();
        sub
    }

    /// The winner of a check search of `sub` with `first` to move, in
    /// this search's regime and repetition rule, limited to `max_nodes`
    /// (`None`: unsettled); `without` turns off the test being checked.
    fn check_search(
        &self,
        sub: &Problem,
        first: Color,
        max_nodes: u64,
        without: impl for<'s> FnOnce(Dfpn<'s>) -> Dfpn<'s>,
    ) -> Option<Color> {
        let d = Dfpn::new(sub, self.w, 1, self.regime, Limits::nodes(max_nodes))
            .with_repetition(self.repetition);
        without(d)
            .solve(first)
            .win
            .map(|w| if w { first } else { first.opponent() })
    }

    /// Checks the walled-in test's verdict (the attacker wins, whoever
    /// moves) against searches without that test
    /// ([`Dfpn::without_static_death`]) from the same position, history
    /// aside, in this search's regime, one with each side moving first.
    /// The static evaluation stays on in them (its verdicts have their
    /// own check). A check counts as unsettled if either search is.
    fn check_walled_in(&mut self, depth: usize, max_nodes: u64) {
        let prob = self.prob;
        let sub = self.position_at(depth);
        self.counters.checked += 1;
        self.counters.checked_walled_in += 1;
        let mut unknown = false;
        for first in [prob.attacker(), prob.defender] {
            match self.check_search(&sub, first, max_nodes, |d| d.without_static_death()) {
                None => unknown = true,
                Some(w) if w == prob.attacker() => {}
                Some(_) => {
                    self.counters.contradictions += 1;
                    crate::tsumego::eyes::report_contradiction(format!(
                        "walled-in verdict {} wins, search {} wins; {} to move, threats {:?}, strict {}\n{}",
                        prob.attacker().name(),
                        prob.defender.name(),
                        first.name(),
                        self.regime.threats,
                        self.regime.strict,
                        sub.render()
                    ));
                    return;
                }
            }
        }
        self.counters.check_unknown += unknown as u64;
    }

    /// Heuristic distances of the position at `depth`, for df-pn's
    /// initial proof and disproof numbers (Kishimoto and Müller's
    /// heuristic initialisation): the attacker's is the liberties of the
    /// standing crucial chains (each at most 8), the moves it needs to
    /// capture them all if the defender does nothing; the defender's is
    /// 2 per missing eye-like point (of two) plus half the shortfall, below
    /// 4, of its room (empty points touching no attacker stone). They only
    /// steer where the search looks first, never what it proves. Cached
    /// by position key.
    pub(super) fn distances(&mut self, depth: usize) -> (u64, u64) {
        // Only a slot that already holds the position is used: taking one
        // over would drop another position's static verdict, and a
        // verdict found again later may differ (the region game's memo
        // grows), so the cache would change the search.
        let (key, slot) = self.pos_key(depth);
        let held = self.pos_cache[slot].key == key;
        if held {
            let [a, d] = self.pos_cache[slot].distances;
            if a != 0 {
                return (a as u64 - 1, d as u64 - 1);
            }
        }
        let (att, def) = self.distances_of(depth);
        if held && att < 255 && def < 255 {
            self.pos_cache[slot].distances = [att as u8 + 1, def as u8 + 1];
        }
        (att, def)
    }

    /// [`Dfpn::distances`], uncached.
    pub(super) fn distances_of(&self, depth: usize) -> (u64, u64) {
        let prob = self.prob;
        let b = &self.boards[depth];
        // Past sixteen chains a chain may count twice; the figure only
        // steers the search.
        let mut chains = ChainSet::<16>::new();
        let mut att = 0u64;
        for (i, &p) in self.crucial.iter().enumerate() {
            if !prob.chain_on_board(b, i) || chains.insert(b, p) == ChainInsert::Seen {
                continue;
            }
            att += b.liberties(p).min(8) as u64;
        }
        let attacker = prob.attacker();
        let mut eyes = 0u64;
        let mut room = 0u64;
        if let Some(bits) = &prob.bits {
            // Eye-like: every neighbour a defender stone or the edge (no
            // defender stone outside the region touches it).
            let m = &self.masks[depth];
            let near_attacker = bits.dilate(m.attacker) | self.attacker_out;
            let mut e = m.empty;
            while e != 0 {
                let i = e.trailing_zeros() as usize;
                let pb = e & e.wrapping_neg();
                if bits.nbrs[i] & !m.defender == 0 && bits.touches_out & pb == 0 {
                    eyes += 1;
                } else if near_attacker & pb == 0 {
                    room += 1;
                }
                e &= e - 1;
            }
        } else {
            for &p in &prob.region {
                if b.cell(p) != Cell::Empty {
                    continue;
                }
                if b.is_eyelike(p, prob.defender) {
                    eyes += 1;
                } else if b.stone_neighbors(p, attacker) == 0 {
                    room += 1;
                }
            }
        }
        let def = 2u64.saturating_sub(eyes) * 2 + 4u64.saturating_sub(room.min(4)) / 2;
        (att, def)
    }
}
