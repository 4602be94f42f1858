//! What a search shows of itself: snapshots with candidates and principal
//! variations, visit counts.

use super::*;

impl Searcher {
    /// The most visited child of `ix` with its visits (at the root,
    /// moves the full rules forbid are skipped).
    pub(super) fn most_visited(&self, ix: u32) -> Option<(u32, u32)> {
        let (first, n) = self.arena.get(ix).children()?;
        let at_root = ix == self.root;
        let mut best = None;
        let mut best_v = 0;
        for k in 0..n as u32 {
            let c = self.arena.get(first + k);
            if at_root && self.banned[c.mv.load(Relaxed) as usize] {
                continue;
            }
            let v = c.visits.load(Relaxed);
            if v > best_v {
                best_v = v;
                best = Some(first + k);
            }
        }
        best.map(|b| (b, best_v))
    }

    /// True while the choice at the root is unsettled: a child with at
    /// least half the visits of the most visited one has a better win
    /// rate, so more playouts may change the move played.
    pub(super) fn choice_unsettled(&self) -> bool {
        let Some((first, n)) = self.arena.get(self.root).children() else {
            return false;
        };
        let Some((best, best_visits)) = self.most_visited(self.root) else {
            return false;
        };
        let best_rate = self.arena.get(best).stats().winrate();
        (0..n as u32).map(|k| first + k).any(|ix| {
            let s = self.arena.get(ix).stats();
            ix != best
                && !self.banned[self.arena.get(ix).mv.load(Relaxed) as usize]
                && s.visits >= best_visits.div_ceil(2)
                && s.winrate() > best_rate
        })
    }

    pub(super) fn top_two_visits(&self) -> (u32, u32) {
        let Some((first, n)) = self.arena.get(self.root).children() else {
            return (0, 0);
        };
        let (mut a, mut b) = (0, 0);
        for k in 0..n as u32 {
            let v = self.arena.get(first + k).visits.load(Relaxed);
            if v > a {
                b = a;
                a = v;
            } else if v > b {
                b = v;
            }
        }
        (a, b)
    }

    pub(super) fn to_move(&self, mv: u16) -> Move {
        if mv == PASS {
            Move::Pass
        } else {
            Move::Play(self.root_board.coord(Point(mv)))
        }
    }

    /// The principal variation from `ix` (included): most visited
    /// children while they have visits.
    pub(super) fn pv(&self, mut ix: u32, max_len: usize) -> Vec<Move> {
        let mut out = vec![self.to_move(self.arena.get(ix).mv.load(Relaxed))];
        while out.len() < max_len {
            match self.most_visited(ix) {
                Some((b, v)) if v >= 2 => {
                    ix = b;
                    out.push(self.to_move(self.arena.get(b).mv.load(Relaxed)));
                }
                _ => break,
            }
        }
        out
    }

    /// The current state of the root.
    pub fn snapshot(&self, elapsed: Duration) -> Snapshot {
        let root = self.arena.get(self.root);
        let mut candidates = Vec::new();
        if let Some((first, n)) = root.children() {
            for k in 0..n as u32 {
                let c = self.arena.get(first + k);
                let mv = c.mv.load(Relaxed);
                if self.banned[mv as usize] {
                    continue;
                }
                let s: Stats = c.stats();
                if s.visits == 0 {
                    continue;
                }
                candidates.push((first + k, s));
            }
        }
        candidates.sort_by(|a, b| {
            b.1.visits
                .cmp(&a.1.visits)
                .then(b.1.winrate().total_cmp(&a.1.winrate()))
        });
        // Snapshots are taken while the threads search (every report
        // interval): principal variations only for the leading moves.
        candidates.truncate(MAX_CANDIDATES);
        let candidates = candidates
            .into_iter()
            .map(|(ix, s)| Candidate {
                mv: self.to_move(self.arena.get(ix).mv.load(Relaxed)),
                visits: s.visits,
                winrate: s.winrate(),
                prior: s.prior_rate(),
                pv: self.pv(ix, PV_LENGTH),
            })
            .collect();
        Snapshot {
            color: Some(self.root_color),
            playouts: self.playouts_before + self.playouts.load(Relaxed),
            root_visits: root.visits.load(Relaxed),
            elapsed,
            candidates,
            tree_nodes: self.arena.used(),
            tree_full: self.arena.is_full(),
            tree_full_after: Some(self.full_at.load(Relaxed)).filter(|&n| n > 0),
        }
    }

    /// Nodes of the tree (for the bench signature).
    pub fn tree_nodes(&self) -> usize {
        self.arena.used()
    }
}
