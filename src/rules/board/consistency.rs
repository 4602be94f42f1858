//! The from-scratch recomputation of a board and the consistency check
//! that compares the incremental state with it (tests and property tests).

use super::*;

impl Board {
    /// Recomputes chains, liberties, the empty list and the hash from the
    /// cells alone.
    pub(super) fn rebuild(&mut self) {
        let fresh = self.recomputed();
        self.head = fresh.head;
        self.next = fresh.next;
        self.libs = fresh.libs;
        self.count = fresh.count;
        self.empty = fresh.empty;
        self.empty_pos = fresh.empty_pos;
        self.nbr = fresh.nbr;
        self.num_empty = fresh.num_empty;
        self.hash = fresh.hash;
    }

    /// A board with the same stones whose derived state is computed from
    /// scratch (flood fill), with no incremental bookkeeping involved.
    pub(super) fn recomputed(&self) -> Board {
        let mut b = Board::new(self.size());
        b.cells = self.cells;
        b.ko = self.ko;
        b.captures = self.captures;
        b.allow_suicide = self.allow_suicide;
        b.num_empty = 0;
        b.hash = zobrist::size_key(self.size());
        let mut done = PointSet::new();
        for &p in self.points() {
            match b.cells[p.idx()].color() {
                None => b.add_empty(p),
                Some(col) => {
                    b.hash ^= zobrist::stone_key(col, self.coord(p));
                    if done.contains(p) {
                        continue;
                    }
                    // flood fill the chain
                    let mut stack = vec![p];
                    let mut stones = Vec::new();
                    done.insert(p);
                    while let Some(s) = stack.pop() {
                        stones.push(s);
                        for n in b.neighbors(s) {
                            if b.cells[n.idx()] == b.cells[p.idx()] && done.insert(n) {
                                stack.push(n);
                            }
                        }
                    }
                    let mut libs = PointSet::new();
                    let mut nlibs = 0;
                    for (i, &s) in stones.iter().enumerate() {
                        b.head[s.idx()] = p.0;
                        b.next[s.idx()] = stones[(i + 1) % stones.len()].0;
                        for n in b.neighbors(s) {
                            if b.cells[n.idx()] == Cell::Empty && libs.insert(n) {
                                nlibs += 1;
                            }
                        }
                    }
                    b.count[p.idx()] = stones.len() as u16;
                    b.libs[p.idx()] = nlibs;
                }
            }
        }
        for &p in self.points() {
            b.nbr[p.idx()] = b.count_neighbors(p);
        }
        b
    }

    /// Compares every piece of incremental state with a from-scratch
    /// recomputation. Returns a description of the first difference.
    pub fn check_consistency(&self) -> Result<(), String> {
        let fresh = self.recomputed();
        if fresh.hash != self.hash {
            return Err(format!(
                "hash {:016x} != recomputed {:016x}",
                self.hash, fresh.hash
            ));
        }
        if fresh.num_empty != self.num_empty {
            return Err(format!(
                "{} empty points listed, {} on the board",
                self.num_empty, fresh.num_empty
            ));
        }
        for i in 0..self.num_empty {
            let p = self.empty[i];
            if self.cells[p.idx()] != Cell::Empty || self.empty_pos[p.idx()] as usize != i {
                return Err(format!("empty list broken at {}", self.coord(p)));
            }
        }
        for &p in self.points() {
            if self.nbr[p.idx()] != fresh.nbr[p.idx()] {
                return Err(format!(
                    "neighbour counts of {} are {:03x}, recomputed {:03x}",
                    self.coord(p),
                    self.nbr[p.idx()],
                    fresh.nbr[p.idx()]
                ));
            }
            if self.cells[p.idx()].color().is_none() {
                continue;
            }
            let c = self.coord(p);
            // same chain membership: heads may differ, so compare sets
            let mine: Vec<Point> = {
                let mut v: Vec<Point> = self.chain_stones(p).collect();
                v.sort();
                v
            };
            let theirs: Vec<Point> = {
                let mut v: Vec<Point> = fresh.chain_stones(p).collect();
                v.sort();
                v
            };
            if mine != theirs {
                return Err(format!("chain through {c} differs from flood fill"));
            }
            if mine
                .iter()
                .any(|s| self.head[s.idx()] != self.head[p.idx()])
            {
                return Err(format!("chain through {c} has several heads"));
            }
            if self.chain_len(p) != fresh.chain_len(p) {
                return Err(format!(
                    "chain through {c}: {} stones counted, {} real",
                    self.chain_len(p),
                    fresh.chain_len(p)
                ));
            }
            if self.liberties(p) != fresh.liberties(p) {
                return Err(format!(
                    "chain through {c}: {} liberties counted, {} real",
                    self.liberties(p),
                    fresh.liberties(p)
                ));
            }
            if self.liberties(p) == 0 {
                return Err(format!("chain through {c} has no liberties"));
            }
        }
        Ok(())
    }
}
