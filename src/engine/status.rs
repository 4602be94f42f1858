//! Dead stones and the final score: chains judged by the search's
//! ownership, the status lists and the area score after removing the dead.

use super::*;

/// Seki heuristic: living chains with at most this many liberties that
/// share a liberty with an opposing such chain may be in seki...
const SEKI_MAX_LIBERTIES: usize = 4;
/// ...if the shared liberty belongs to neither side in the playouts
/// (|ownership| below this: the point stays empty in most of them).
const SEKI_MAX_OWNERSHIP: f32 = 0.4;

impl Engine {
    /// Every chain on the board, each in scan order; chains ordered by
    /// their first stone in scan order.
    pub(super) fn chains(&self) -> Vec<Vec<Coord>> {
        let board = self.game.board();
        let mut done = std::collections::HashSet::new();
        let mut out = Vec::new();
        for y in (0..board.size() as u8).rev() {
            for x in 0..board.size() as u8 {
                let p = board.point(Coord::new(x, y));
                if board.cell(p).color().is_some() && done.insert(board.chain_head(p)) {
                    let mut chain: Vec<Coord> =
                        board.chain_stones(p).map(|s| board.coord(s)).collect();
                    crate::rules::handicap::sort_scan_order(&mut chain);
                    out.push(chain);
                }
            }
        }
        out
    }

    /// Dead chains by ownership (the search's playouts, or light playouts
    /// for the random engine): a chain is dead when the opponent owns its
    /// points on average. Cached per position.
    pub(super) fn dead_chains(&mut self) -> Vec<Vec<Coord>> {
        let key = self.game.board().key(self.game.to_move());
        if let Some((k, dead, _)) = &self.status_cache
            && *k == key
        {
            return dead.clone();
        }
        let own = self.ownership_values();
        let board = self.game.board();
        let own_at = |p: Point| {
            let c = board.coord(p);
            own[c.y as usize * board.size() + c.x as usize]
        };
        let chains = self.chains();
        let dead: Vec<Vec<Coord>> = chains
            .iter()
            .filter(|chain| {
                let mine: f32 = chain
                    .iter()
                    .map(|&c| {
                        let p = board.point(c);
                        let sign = if board.cell(p) == Cell::Black {
                            1.0
                        } else {
                            -1.0
                        };
                        sign * own_at(p)
                    })
                    .sum();
                mine < 0.0
            })
            .cloned()
            .collect();
        // Seki: a living chain with at most four liberties, one of which
        // neither side owns and is shared with a living chain of the other
        // colour that also has at most four liberties. (Dame between two
        // safe groups is not seki: such groups have many liberties.)
        let mut is_dead = vec![false; board.geometry().num_points];
        for c in dead.iter().flatten() {
            is_dead[board.point(*c).idx()] = true;
        }
        let short_living = |p: Point| {
            board.cell(p).color().is_some()
                && !is_dead[p.idx()]
                && board.liberties(p) <= SEKI_MAX_LIBERTIES
        };
        let seki: Vec<Vec<Coord>> = chains
            .iter()
            .filter(|chain| {
                let first = board.point(chain[0]);
                short_living(first)
                    && chain.iter().any(|&c| {
                        let s = board.point(c);
                        board.neighbors(s).into_iter().any(|l| {
                            board.cell(l) == Cell::Empty
                                && own_at(l).abs() < SEKI_MAX_OWNERSHIP
                                && board
                                    .neighbors(l)
                                    .into_iter()
                                    .any(|q| short_living(q) && board.cell(q) != board.cell(s))
                        })
                    })
            })
            .cloned()
            .collect();
        self.status_cache = Some((key, dead.clone(), seki));
        dead
    }

    /// The stones judged dead, in scan order.
    pub fn dead_stones(&mut self) -> Vec<Coord> {
        let mut dead: Vec<Coord> = self.dead_chains().into_iter().flatten().collect();
        crate::rules::handicap::sort_scan_order(&mut dead);
        dead
    }

    /// The final score with dead stones removed: positive when Black wins.
    pub fn final_score(&mut self) -> f64 {
        let dead = self.dead_stones();
        self.game.score_without(&dead)
    }

    /// The chains with the given status, each in scan order.
    pub fn final_status_list(&mut self, status: StoneStatus) -> Vec<Vec<Coord>> {
        match status {
            StoneStatus::Dead => self.dead_chains(),
            StoneStatus::Alive => {
                let dead = self.dead_chains();
                self.chains()
                    .into_iter()
                    .filter(|c| !dead.contains(c))
                    .collect()
            }
            StoneStatus::Seki => {
                self.dead_chains();
                self.status_cache
                    .as_ref()
                    .map(|c| c.2.clone())
                    .unwrap_or_default()
            }
        }
    }
}
