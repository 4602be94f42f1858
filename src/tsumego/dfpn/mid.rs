//! The df-pn recursion (multiple iterative deepening at a node), the
//! budget, and the leaf counts per first move.

use super::*;

/// ε = 1 / EPSILON_DIVISOR in the 1+ε threshold of the best child: 1/4 is
/// large enough to stop thrashing between siblings and small enough to
/// keep the search close to best-first.
const EPSILON_DIVISOR: u64 = 4;

impl Dfpn<'_> {
    pub(super) fn out_of_budget(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        let over_time = || self.limits.deadline.is_some_and(|d| Instant::now() >= d);
        if self.counters.nodes >= self.limits.max_nodes
            || (self.counters.nodes.is_multiple_of(256) && over_time())
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// The df-pn recursion for the node at `depth` with `c` to move.
    pub(super) fn mid(&mut self, node: Node, th_phi: u64, th_delta: u64) -> Outcome {
        let Node {
            depth,
            c,
            last_pass,
            key,
            prev_alt,
            threats,
        } = node;
        let nodes_before = self.counters.nodes;
        self.counters.nodes += 1;
        if self.out_of_budget() {
            return Outcome {
                phi: 1,
                delta: 1,
                pathdep: false,
                passes: false,
                ko_free: false,
            };
        }
        let (mut kids, banned, ko_here) = self.expand(depth, c, last_pass, prev_alt, threats);
        let (mut phi, mut delta);
        loop {
            self.refresh_from_table(&mut kids);
            let best;
            let second;
            (phi, delta, best, second) = select(&kids);
            if phi == 0 || delta == 0 || phi >= th_phi || delta >= th_delta || self.aborted {
                break;
            }
            let k = kids[best];
            let child_th_phi = th_delta.saturating_sub(delta - k.phi).min(INF);
            // Pawlewicz's 1+ε trick: the child may run until its proof
            // number exceeds the second best's by a share, not by one, so
            // that the search does not thrash between siblings.
            let eps = second
                .saturating_add(second / EPSILON_DIVISOR)
                .max(second.saturating_add(1));
            let child_th_delta = th_phi.min(eps).min(INF);
            self.search_child(&node, &mut kids, best, child_th_phi, child_th_delta);
        }
        if self.aborted {
            self.kid_pool.push(kids);
            return Outcome {
                phi,
                delta,
                pathdep: false,
                passes: false,
                ko_free: false,
            };
        }
        self.count_leaves(depth, &kids, phi == 0, delta == 0);
        let (pathdep, passes) = self.resolve(depth, c, &kids, phi, delta, banned);
        // A proof through a move that no threat paid for, or a disproof
        // of a node where no ko ban was met, holds with any threat counts
        // when the children's results do.
        let ko_free = if phi == 0 {
            kids.iter()
                .find(|k| k.delta == 0)
                .is_some_and(|k| k.ko_free && !k.ko_exempt)
        } else {
            delta == 0 && !ko_here && kids.iter().all(|k| k.ko_free)
        };
        if !(pathdep && (phi == 0 || delta == 0)) {
            let spent = (self.counters.nodes - nodes_before).min(u32::MAX as u64) as u32;
            self.store(
                key ^ threat_key(threats),
                key,
                phi,
                delta,
                passes,
                ko_free,
                spent,
            );
        }
        self.kid_pool.push(kids);
        Outcome {
            phi,
            delta,
            pathdep,
            passes,
            ko_free,
        }
    }

    /// Takes the children's current numbers from the table (except
    /// terminal and pinned children, whose own numbers stand).
    #[inline]
    fn refresh_from_table(&self, kids: &mut [Child]) {
        for k in kids.iter_mut() {
            if !k.terminal
                && !k.pinned
                && let Some(e) = self.tt.map.get(&k.key)
            {
                k.phi = e.phi;
                k.delta = e.delta;
                k.passes = e.passes;
                k.ko_free = e.ko_free;
            }
        }
    }

    /// Plays the child `best` of `node`, searches it to the thresholds and
    /// records its new numbers in `kids`.
    #[inline]
    fn search_child(
        &mut self,
        node: &Node,
        kids: &mut [Child],
        best: usize,
        th_phi: u64,
        th_delta: u64,
    ) {
        let (depth, c) = (node.depth, node.c);
        let k = kids[best];
        if let Some(p) = k.mv {
            self.history[p.idx()][c.index()] += 1;
        }
        let alt = kids
            .iter()
            .enumerate()
            .find(|&(i, k)| i != best && k.mv.is_some())
            .and_then(|(_, k)| k.mv);
        self.play_into(depth, k.mv, c, k.ko_exempt);
        // Lazy local games ([`Self::with_lazy_games`]): the verdict the
        // expansion left to the visit, for a child reached by a move (the
        // expansion evaluates only those). A position it ends is terminal,
        // as if the expansion had found it: a leaf, not a node.
        if self.lazy_games
            && k.mv.is_some()
            && let Some((w, unconditional)) = self.static_verdict(depth + 1, c.opponent())
        {
            if self.counting {
                self.counters.statics += 1;
                self.counters.terminals += 1;
                self.counters.visit_verdicts += 1;
            }
            let kk = &mut kids[best];
            // Values for the child's side to move (the opponent).
            (kk.phi, kk.delta) = if w == c { (INF, 0) } else { (0, INF) };
            kk.terminal = true;
            kk.winner = Some(w);
            kk.passes = w == self.prob.defender && !unconditional && !self.regime.strict;
            kk.ko_free = true;
            return;
        }
        self.path.push(k.rep);
        let floor = self.floor;
        if k.ko_exempt {
            self.floor = self.path.len() - 1;
        }
        let child = Node {
            depth: depth + 1,
            c: c.opponent(),
            last_pass: k.mv.is_none() && k.pass_ends,
            key: k.key,
            prev_alt: alt,
            threats: if k.ko_exempt {
                spend(node.threats, c)
            } else {
                node.threats
            },
        };
        let before = self.counters.leaves;
        let out = self.mid(child, th_phi, th_delta);
        let (cp, cd) = (out.phi, out.delta);
        if depth == 0 {
            self.add_root_leaves(k.mv, self.counters.leaves - before);
        }
        self.path.pop();
        self.floor = floor;
        let kk = &mut kids[best];
        kk.phi = cp;
        kk.delta = cd;
        kk.pinned = out.pathdep && (cp == 0 || cd == 0);
        kk.passes = out.passes;
        kk.ko_free = out.ko_free;
    }

    /// A resolved node's path dependence and passes (and, for a proof, the
    /// winning move's history, killer and root move).
    #[inline]
    fn resolve(
        &mut self,
        depth: usize,
        c: Color,
        kids: &[Child],
        phi: u64,
        delta: u64,
        banned: bool,
    ) -> (bool, bool) {
        let mut pathdep = false;
        let mut passes = false;
        if phi == 0 {
            if let Some(k) = kids.iter().find(|k| k.delta == 0) {
                pathdep = k.pinned;
                passes = k.passes;
                if let Some(p) = k.mv {
                    self.wins[p.idx()][c.index()] += 1;
                    self.killers[depth] = Some(p);
                }
                if depth == 0 {
                    self.root_best =
                        Some(k.mv.map_or(Move::Pass, |p| Move::Play(self.prob.board.coord(p))));
                }
            }
        } else if delta == 0 {
            pathdep = banned || kids.iter().any(|k| k.pinned);
            passes = kids.iter().any(|k| k.passes);
        }
        (pathdep, passes)
    }

    /// Stores a node's numbers in the table (a proof or disproof also as
    /// `proven_key`, the key with the threats, outside the strict game).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn store(
        &mut self,
        proven_key: u64,
        key: u64,
        phi: u64,
        delta: u64,
        passes: bool,
        ko_free: bool,
        spent: u32,
    ) {
        if self.tt.map.len() >= TT_CAP {
            self.tt.make_room();
        }
        if (phi == 0 || delta == 0) && !self.regime.strict {
            if self.tt.proven.len() >= TT_CAP {
                self.tt.proven.clear();
            }
            self.tt.proven.insert(proven_key);
        }
        let e = self.tt.map.entry(key).or_insert(Entry {
            phi,
            delta,
            work: 0,
            passes,
            ko_free,
        });
        (e.phi, e.delta, e.passes, e.ko_free) = (phi, delta, passes, ko_free);
        e.work = e.work.saturating_add(spent);
    }

    /// Counts the terminal children whose values decide a resolved node:
    /// for a proof, the winning child if terminal and the terminal children
    /// ordered before the first winning child (an ordered search tries
    /// them first); for a disproof, every terminal child.
    pub(super) fn count_leaves(
        &mut self,
        depth: usize,
        kids: &[Child],
        proved: bool,
        disproved: bool,
    ) {
        if !self.counting || !(proved || disproved) {
            return;
        }
        let upto = if proved {
            kids.iter().position(|k| k.delta == 0).map_or(0, |i| i + 1)
        } else {
            kids.len()
        };
        for k in &kids[..upto] {
            if k.terminal {
                self.counters.leaves += 1;
                if depth == 0 {
                    self.add_root_leaves(k.mv, 1);
                }
            }
        }
    }

    pub(super) fn add_root_leaves(&mut self, mv: Option<Point>, n: u64) {
        match self.per_move.iter_mut().find(|e| e.0 == mv) {
            Some(e) => e.1 += n,
            None => self.per_move.push((mv, n)),
        }
    }
}

/// The best child (least disproof number `delta`, which is the node's
/// proof number `phi`), the second least, and the node's `delta`: the sum
/// of the children's proof numbers. Returns `(phi, delta, best, second)`.
#[inline]
fn select(kids: &[Child]) -> (u64, u64, usize, u64) {
    let mut phi = INF;
    let mut delta = 0u64;
    let mut best = 0;
    let mut second = INF;
    for (i, k) in kids.iter().enumerate() {
        if k.delta < phi {
            second = phi;
            phi = k.delta;
            best = i;
        } else if k.delta < second {
            second = k.delta;
        }
        // Only a true disproof is infinite: a large sum stops
        // one short, or a saturated sum would end the search at
        // the root (threshold INF) with nothing proven.
        delta = if delta >= INF || k.phi >= INF {
            INF
        } else {
            (delta + k.phi).min(INF - 1)
        };
    }
    (phi, delta, best, second)
}
