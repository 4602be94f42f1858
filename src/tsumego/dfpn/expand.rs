//! Expansion: the children of a node in move order with their initial
//! proof numbers, and the boards of the path.

use super::table::FromOther;
use super::*;

impl Dfpn<'_> {
    pub(super) fn ensure_depth(&mut self, d: usize) {
        while self.boards.len() <= d {
            let b = self.boards[0].clone();
            self.boards.push(b);
            self.masks.push(self.masks[0]);
        }
        while self.killers.len() <= d {
            self.killers.push(None);
        }
        while self.held.len() <= d {
            self.held.push(None);
        }
    }

    /// Plays `mv` from the position at `depth` into `depth + 1`.
    pub(super) fn play_into(
        &mut self,
        depth: usize,
        mv: Option<Point>,
        color: Color,
        ko_exempt: bool,
    ) {
        self.ensure_depth(depth + 1);
        let (lo, hi) = self.boards.split_at_mut(depth + 1);
        let child = &mut hi[0];
        child.copy_window_from(&lo[depth], self.window.clone(), self.list_from);
        let apply = |b: &mut Board| match mv {
            None => b.pass(),
            Some(p) => {
                if ko_exempt {
                    b.pass();
                }
                b.play_unchecked(p, color);
            }
        };
        apply(child);
        // The region's bit sets follow the move: a stone that captured
        // nothing leaves one empty point fewer on the board (a capture
        // leaves as many or more), and only its own bit changes.
        if let Some(bits) = &self.prob.bits {
            let before = self.masks[depth];
            self.masks[depth + 1] = match mv.and_then(|p| bits.bit(p)) {
                None if mv.is_none() => before,
                Some(pb) if child.num_empty() + 1 == lo[depth].num_empty() => {
                    let mut m = before;
                    m.empty &= !pb;
                    if color == self.prob.defender {
                        m.defender |= pb;
                    } else {
                        m.attacker |= pb;
                    }
                    m
                }
                _ => self.prob.masks(child),
            };
            #[cfg(test)]
            assert_eq!(
                self.masks[depth + 1],
                self.prob.masks(child),
                "the region's bit sets after a move differ from a recount"
            );
        }
        // Every board of the path must equal what a full copy gives: the
        // window holds every slot a move can change.
        #[cfg(test)]
        {
            let mut full = lo[depth].clone();
            apply(&mut full);
            assert!(
                hi[0].same_state(&full),
                "a windowed copy differs from a full one"
            );
        }
        // A pass keeps the held recapture ban; a move replaces it with
        // its own ko, unless a threat paid for it (the position before it
        // lies below the floor, so retaking later repeats nothing).
        self.held[depth + 1] = match mv {
            _ if self.cycles_win() => None,
            None => self.held[depth],
            Some(_) if ko_exempt => None,
            Some(_) => self.boards[depth + 1].ko(),
        };
    }

    /// True if `color` playing the empty point `p` would capture a stone
    /// outside the region (forbidden: those stones are safe).
    pub(super) fn captures_outside(&self, b: &Board, p: Point, color: Color) -> bool {
        let opp = Cell::stone(color.opponent());
        b.neighbors(p).iter().any(|&q| {
            b.cell(q) == opp
                && b.liberties(q) == 1
                && b.chain_stones(q).any(|s| !self.prob.in_region(s))
        })
    }

    /// Forced moves (Kishimoto and Müller): when the defender's only
    /// standing crucial chain, of two stones or more, is in atari, a
    /// placement that neither fills its liberty, nor captures an attacker
    /// chain next to it, nor makes another crucial chain stand again (by
    /// filling the last of its points) loses to the capture at once
    /// (capturing every crucial chain is the attacker's goal, and no other
    /// move can give the chain a liberty). The moves that may save it, or
    /// `None` when nothing is forced. The pass is never pruned (two passes
    /// may end the game), nor a move after which the capture would repeat
    /// a position of the path ([`Self::capture_repeats`]).
    pub(super) fn forced_defences(&self, depth: usize, heads: &[Point]) -> Option<Forced> {
        let b = &self.boards[depth];
        let chain = *heads.first()?;
        if heads.iter().any(|&h| h != chain) || b.liberties(chain) != 1 || b.chain_len(chain) < 2 {
            return None;
        }
        let mut lib = [Point(0); 1];
        b.chain_liberties(chain, &mut lib);
        // The attacker plays only inside the region and never captures
        // stones outside it.
        if !self.prob.in_region(lib[0]) || b.chain_stones(chain).any(|s| !self.prob.in_region(s)) {
            return None;
        }
        let mut moves = vec![lib[0]];
        let att = Cell::stone(self.prob.attacker());
        let def = Cell::stone(self.prob.defender);
        let stones = &b.geometry().stone_key[self.prob.defender.index()];
        let mut chain_hash = 0;
        for s in b.chain_stones(chain) {
            chain_hash ^= stones[s.idx()];
            for q in b.neighbors(s) {
                if b.cell(q) == att && b.liberties(q) == 1 {
                    b.chain_liberties(q, &mut lib);
                    if !moves.contains(&lib[0]) {
                        moves.push(lib[0]);
                    }
                }
            }
        }
        // A move that makes another crucial chain stand again (it fills
        // the last of its points) is no loss to the capture: that chain
        // still stands after it.
        for c in &self.prob.crucial {
            let mut missing = c.iter().filter(|&&q| b.cell(q) != def);
            if let (Some(&q), None) = (missing.next(), missing.next())
                && b.cell(q) == Cell::Empty
                && !moves.contains(&q)
            {
                moves.push(q);
            }
        }
        Some(Forced {
            liberty: moves[0],
            moves,
            chain_hash,
        })
    }

    /// A defender move at `p` that only takes a liberty from its own
    /// chain: every neighbour of `p` is the edge, a stone of one defender
    /// chain C, or a stone of a safe attacker chain ([`Problem::safe_chain`]:
    /// never captured), and `p` is no point of a crucial chain (filling it
    /// could make a captured crucial chain stand again). Such a stone adds
    /// no liberty, joins nothing and touches no point that could become an
    /// eye or be captured; it leaves C one liberty short and p closed to the
    /// attacker, who could only have filled it as well, joining a safe
    /// chain, and lost a tempo. So the pass, in a closed region with no ko
    /// ban, is never worse for the defender, and the search drops the move
    /// (`the_dead_liberty_rule_changes_no_answer` checks this against the
    /// search without it). But for repetition: after the fill no later
    /// position repeats one before it, after the pass one may, so where a
    /// repetition ban decides a line the rule may cost the defender a
    /// result (docs/tsumego.md, *Dead liberties*).
    fn fills_dead_liberty(&self, b: &Board, p: Point) -> bool {
        let prob = self.prob;
        let def = Cell::stone(prob.defender);
        let att = Cell::stone(prob.attacker());
        // The cheap tests first: an empty neighbour, a crucial point.
        if b.neighbors(p).iter().any(|&q| b.cell(q) == Cell::Empty)
            || prob.crucial.iter().any(|c| c.contains(&p))
        {
            return false;
        }
        let mut own = None;
        for &q in b.neighbors(p).iter() {
            let cell = b.cell(q);
            if cell == def {
                let h = b.chain_head(q);
                if own.is_some_and(|o| o != h) {
                    return false;
                }
                own = Some(h);
            } else if cell == att && !prob.safe_chain(b, q) {
                return false;
            }
        }
        own.is_some()
    }

    /// True if, after the defender's `p` on `b`, the attacker's capture of
    /// the forced chain would repeat a position of the path (so the
    /// capture may be banned and `p` must be searched).
    fn capture_repeats(&self, b: &Board, p: Point, c: Color, f: &Forced) -> bool {
        let keys = &b.geometry().stone_key;
        let h = b.hash_after(p, c)
            ^ f.chain_hash
            ^ keys[self.prob.attacker().index()][f.liberty.idx()]
            ^ zobrist::side_key(c);
        self.path[self.floor..].contains(&h)
    }

    /// The ordered, pruned children of the node at `depth`, whether a
    /// move was banned by the repetition rule, and whether one was banned
    /// (or let through by a threat) by the simple-ko rule.
    pub(super) fn expand(
        &mut self,
        depth: usize,
        c: Color,
        last_pass: bool,
        prev_alt: Option<Point>,
        threats: [u8; 2],
    ) -> (Vec<Child>, bool, bool) {
        self.ensure_depth(depth + 1);
        self.grow_pos_cache();
        let prob = self.prob;
        let role = (c == prob.defender) as usize;
        let mut heads = std::mem::take(&mut self.heads);
        heads.clear();
        {
            let b = &self.boards[depth];
            for (i, &p) in self.crucial.iter().enumerate() {
                if prob.chain_on_board(b, i) {
                    heads.push(b.chain_head(p));
                }
            }
        }
        // Forced moves compare positions by stones; under simple ko the
        // path holds whole states, so the rule stays off.
        let forced = if c == prob.defender && !self.cycles_win() {
            self.forced_defences(depth, &heads)
        } else {
            None
        };
        let spent = spend(threats, c);
        // Below a position where Benson's test keeps no crucial chain
        // alive, or the eye-space rule gives no verdict, an attacker stone
        // that captures nothing rarely changes that (the tests check the
        // ways it can); for the eye-space rule, a defender stone that
        // captures nothing and joins no crucial chain neither.
        let (benson_dead, no_area_verdict) = if c == prob.attacker() {
            self.known_nothing(depth)
        } else {
            (false, self.known_nothing(depth).1)
        };
        // Dead liberties ([`Self::fills_dead_liberty`]): the pass, always
        // a child, does at least as well for the defender. Not under simple
        // ko (the pass changes which states repeat), nor in the seki test
        // (two passes end it on Benson's test), nor where a ko ban stands
        // (the pass lifts it) or levels drop the pass.
        let dead_fills = self.dead_fills
            && c == prob.defender
            && self.closed
            && !self.regime.strict
            && !self.cycles_win()
            && self.level < self.w.pass_level
            && self.boards[depth].ko().is_none();
        let mut banned = false;
        let mut ko_here = false;
        let mut scored = std::mem::take(&mut self.scored);
        scored.clear();
        for i in 0..prob.region.len() {
            let p = prob.region[i];
            let b = &self.boards[depth];
            if b.cell(p) != Cell::Empty {
                continue;
            }
            if let Some(f) = &forced
                && !f.moves.contains(&p)
                && !self.capture_repeats(b, p, c, f)
            {
                continue;
            }
            let ko_banned = b.ko().is_some_and(|k| k.point == p && k.color == c);
            let mut ko_exempt = false;
            if ko_banned {
                self.ko_seen = true;
                ko_here = true;
                if threats[c.index()] > 0 {
                    ko_exempt = true;
                } else {
                    continue;
                }
            } else if b.is_suicide(p, c) {
                continue;
            }
            if self.captures_outside(b, p, c) {
                continue;
            }
            if dead_fills && self.fills_dead_liberty(b, p) {
                if self.counting {
                    self.counters.dead_fills += 1;
                }
                continue;
            }
            let useless = !b.is_legal(p, c.opponent());
            self.play_into(depth, Some(p), c, ko_exempt);
            self.prefetch_slot(depth + 1);
            let child = &self.boards[depth + 1];
            let rep = self.rep_of(child, c.opponent(), false);
            if !ko_exempt && self.path[self.floor..].contains(&rep) {
                // The held recapture is told apart by the key too, but a
                // result that rests on it stays the path's: stored as
                // proven, it changed ko types on GoTools' problems
                // (lv3.13 P2005088: `d5l` with the static evaluation,
                // `d2l` without), a cause not found yet.
                banned = true;
                if self.cycles_win() {
                    // Simple ko: the cycle is the defender's win, on this
                    // path only (pinned: never stored as proven). First in
                    // the order for the defender, last for the attacker.
                    let key = self.tt_key(&self.boards[depth + 1], c.opponent(), false, threats);
                    let mut kid = Child::new(Some(p), key, rep, false, Some(prob.defender));
                    kid.pinned = true;
                    kid.ko_free = false;
                    kid.threats = threats;
                    let s = if c == prob.defender {
                        f64::INFINITY
                    } else {
                        f64::NEG_INFINITY
                    };
                    scored.push((s, kid, false, false, i));
                }
                continue;
            }
            order::features(
                prob,
                &self.boards[depth],
                &self.boards[depth + 1],
                p,
                c,
                &heads,
                &mut self.feat,
            );
            let w = self.w;
            let mut s = order::score(w, role, &self.feat);
            let ci = c.index();
            s += w.wins * log2_1p(self.wins[p.idx()][ci]);
            s += w.history * log2_1p(self.history[p.idx()][ci]);
            if self.killers[depth] == Some(p) {
                s += w.killer;
            }
            if prev_alt == Some(p) {
                s += w.opp_best;
            }
            if useless {
                s -= w.useless;
            }
            let self_atari = order::is_self_atari(&self.feat)
                && self.boards[depth + 1].chain_len(p) >= 2
                && self.feat[0] == 0.0;
            let key = self.tt_key(
                &self.boards[depth + 1],
                c.opponent(),
                false,
                if ko_exempt { spent } else { threats },
            );
            let no_capture =
                self.boards[depth + 1].num_empty() + 1 == self.boards[depth].num_empty();
            self.fill_hint = (no_capture && (benson_dead || no_area_verdict)).then_some(Fill {
                depth: depth + 1,
                p,
                benson_dead,
                no_area_verdict,
            });
            let mut winner = self.terminal(depth + 1, false);
            // A static life in the plain game may be a seki: the seki test
            // must still look.
            let mut static_life = false;
            if winner.is_none()
                && let Some((w, unconditional)) =
                    self.static_verdict_with(depth + 1, c.opponent(), self.lazy_games)
            {
                winner = Some(w);
                if self.counting {
                    self.counters.statics += 1;
                }
                static_life = w == prob.defender && !unconditional && !self.regime.strict;
            }
            self.fill_hint = None;
            let mut kid = Child::new(Some(p), key, rep, ko_exempt, winner);
            kid.passes = static_life;
            kid.threats = if ko_exempt { spent } else { threats };
            if winner.is_none() && self.w.distance > 0.0 {
                let (att, def) = self.distances(depth + 1);
                let (mine, theirs) = if c == prob.attacker() {
                    (att, def)
                } else {
                    (def, att)
                };
                kid.h_mine = (mine as f64 * self.w.distance) as u64;
                kid.phi = 1 + (theirs as f64 * self.w.distance) as u64;
            }
            let eye_fill = order::fills_own_eye(&self.feat);
            scored.push((s, kid, self_atari, eye_fill, i));
        }
        // The pass. Two passes in a row end the game, unless the first was
        // made under a ko ban: then the ban lapses and play goes on (a side
        // cannot win a ko by passing after its opponent was banned).
        {
            let under_ko = self.boards[depth].ko().is_some_and(|k| k.color == c);
            self.play_into(depth, None, c, false);
            let key = self.tt_key(&self.boards[depth + 1], c.opponent(), !under_ko, threats)
                ^ self.held_key(depth + 1);
            let rep = self.rep_of(&self.boards[depth + 1], c.opponent(), !under_ko);
            let mut winner = self.terminal(depth + 1, last_pass);
            // A pass the opponent may answer with a pass that ends the
            // game in its favour loses at once: the attacker's in the
            // plain game (the defender's chains stand), the defender's in
            // the seki test. Deciding it here saves the opponent's node.
            let mut ended = last_pass;
            if winner.is_none() && !under_ko {
                let end = self.terminal(depth + 1, true);
                if end == Some(c.opponent()) {
                    winner = end;
                    ended = true;
                }
            }
            let mut kid = Child::new(None, key, rep, false, winner);
            kid.threats = threats;
            kid.passes = ended && winner == Some(prob.defender);
            kid.pass_ends = !under_ko;
            let mut f = [0.0; NF];
            f[PASS_FEATURE] = 1.0;
            scored.push((
                order::score(self.w, role, &f),
                kid,
                false,
                false,
                usize::MAX,
            ));
        }
        self.heads = heads;
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.4.cmp(&b.4)));

        // Forward pruning. Level 2 drops moves by fixed rules only, so its
        // answer does not depend on the ordering weights; levels 3-5 also
        // keep only the best share of the ordered moves.
        if self.level >= 2 {
            let w = self.w;
            let n_moves = scored.len();
            let plays = |v: &Vec<Scored>| v.iter().filter(|s| s.1.mv.is_some()).count();
            if self.level >= w.self_atari_level && scored.iter().any(|s| s.1.mv.is_some() && !s.2) {
                scored.retain(|s| !s.2);
            }
            if self.level >= w.eye_fill_level && scored.iter().any(|s| s.1.mv.is_some() && !s.3) {
                scored.retain(|s| !s.3);
            }
            if self.level >= w.pass_level && plays(&scored) > 0 {
                scored.retain(|s| s.1.mv.is_some());
            }
            if self.level >= 3 {
                let frac = w.keep[(self.level - 3) as usize];
                let keep = ((n_moves as f64 * frac).ceil() as usize).max(w.min_moves);
                scored.truncate(keep.max(1));
            }
        }

        // Deep df-pn (Zhang, Iida and van den Herik): once the search has
        // spent `deep_after` nodes, a new child at depth d < D starts D - d
        // dearer, so the search finishes the line it is in before it turns
        // to a shallower sibling. Like the other initial values it only
        // steers the search.
        let deep = if self.counters.nodes >= self.w.deep_after {
            self.w.deep.saturating_sub(depth as u64 + 1)
        } else {
            0
        };
        let mut kids = self.kid_pool.pop().unwrap_or_default();
        kids.clear();
        for (rank, &(_, mut kid, _, _, _)) in scored.iter().enumerate() {
            kid.delta = (1 + kid.h_mine + (rank as f64 * self.w.rank_cost) as u64).min(INF - 1);
            // Terminal positions were found when the move was played;
            // they count as leaves when their value decides the node
            // (`count_leaves`), and as terminal tests here.
            if let Some(winner) = kid.winner {
                if self.counting {
                    self.counters.terminals += 1;
                }
                kid.terminal = true;
                // Values for the child's side to move (the opponent).
                if winner == c {
                    (kid.phi, kid.delta) = (INF, 0);
                } else {
                    (kid.phi, kid.delta) = (0, INF);
                }
            } else if let Some(e) = self.tt.map.get(&kid.key) {
                if self.counting {
                    self.counters.tt_hits += 1;
                }
                kid.phi = e.phi;
                kid.delta = e.delta;
                kid.passes = e.passes;
                kid.ko_free = e.ko_free;
            } else {
                let other = if self.regime.strict {
                    self.tt
                        .plain_result_for_strict(kid.key, c.opponent(), prob.attacker())
                } else {
                    self.tt
                        .dominated(kid.key, kid.threats, c.opponent())
                        .map(FromOther::Carries)
                };
                match other {
                    Some(FromOther::Carries((phi, delta, ko_free))) => {
                        if self.counting {
                            self.counters.tt_hits += 1;
                        }
                        kid.phi = phi;
                        kid.delta = delta;
                        kid.ko_free = ko_free;
                        // The other regime's proof may have used two passes.
                        kid.passes = true;
                    }
                    hint => {
                        if deep > 0 {
                            kid.phi = (kid.phi + deep).min(INF - 1);
                            kid.delta = (kid.delta + deep).min(INF - 1);
                        }
                        // The seki test tries the plain search's line first
                        // where that result does not carry over (a life
                        // that may be a seki). Threat counts get no such
                        // hint: the answers of a ko flip with them, and
                        // hints there cost answers.
                        if let Some(FromOther::Hint(won)) = hint {
                            if self.counting {
                                self.counters.strict_hints += 1;
                            }
                            if won {
                                kid.phi = 1;
                            } else {
                                kid.delta = 1;
                            }
                        }
                    }
                }
            }
            kids.push(kid);
        }
        self.scored = scored;
        (kids, banned, ko_here)
    }
}

/// The defender's forced moves at a node ([`Dfpn::forced_defences`]).
pub(super) struct Forced {
    /// The chain's liberty, then the liberties of the attacker chains in
    /// atari next to it.
    moves: Vec<Point>,
    /// The chain's liberty, where the attacker captures.
    liberty: Point,
    /// The hash of the chain's stones.
    chain_hash: u64,
}

/// Counts below this take their logarithm from a table.
const LOG_TABLE: usize = 4096;

/// log2(1 + n), the weight of a move's win and history counts. Small
/// counts read a table of the values `f64::log2` gives, so the scores
/// are the same bits either way; computed, the two calls per child took
/// 1.6% of the solver's instructions.
pub(super) fn log2_1p(n: u32) -> f64 {
    static TABLE: std::sync::LazyLock<Vec<f64>> =
        std::sync::LazyLock::new(|| (0..LOG_TABLE).map(|i| (i as f64 + 1.0).log2()).collect());
    match TABLE.get(n as usize) {
        Some(&v) => v,
        None => (f64::from(n) + 1.0).log2(),
    }
}
