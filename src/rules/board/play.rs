//! Making a move on the lean board: placing the stone, merging chains,
//! captures with their liberty and neighbour updates, the ko point and the
//! hash; setup stones; the hash a move would give.

use super::*;

impl Board {
    /// The position hash after `color` plays the legal move `p`, computed
    /// without playing it (for superko checks of many candidates).
    pub fn hash_after(&self, p: Point, color: Color) -> u64 {
        let keys = &self.geo.stone_key;
        let mut h = self.hash ^ keys[color.index()][p.idx()];
        let enemies = self.neighbor_chains(p, Cell::stone(color.opponent()));
        let mut captures = false;
        for &e in enemies.heads() {
            if self.libs[e.idx()] == 1 {
                captures = true;
                for s in self.chain_stones(e) {
                    h ^= keys[color.opponent().index()][s.idx()];
                }
            }
        }
        if !captures && self.allow_suicide && self.is_suicide(p, color) {
            // The new stone and the friendly chains it joins disappear.
            h ^= keys[color.index()][p.idx()];
            let friends = self.neighbor_chains(p, Cell::stone(color));
            for &f in friends.heads() {
                for s in self.chain_stones(f) {
                    h ^= keys[color.index()][s.idx()];
                }
            }
        }
        h
    }

    /// Plays `color` at `p` after checking legality (simple ko, suicide).
    pub fn play(&mut self, p: Point, color: Color) -> Result<(), BoardError> {
        self.check(p, color)?;
        self.play_unchecked(p, color);
        Ok(())
    }

    /// A pass: clears the ko restriction.
    #[inline]
    pub fn pass(&mut self) {
        self.ko = None;
    }

    /// Plays a legal move (the caller checked it). Places the stone, captures,
    /// merges chains and sets the ko restriction.
    pub fn play_unchecked(&mut self, p: Point, color: Color) {
        debug_assert!(self.cells[p.idx()] == Cell::Empty);
        let me = Cell::stone(color);
        let opp = Cell::stone(color.opponent());
        self.ko = None;

        // The new stone as a chain of its own.
        let nbrs = self.neighbors(p);
        let stone = nbr_unit(color).wrapping_sub(NBR_EMPTY);
        for n in nbrs {
            self.nbr[n.idx()] = self.nbr[n.idx()].wrapping_add(stone);
        }
        self.cells[p.idx()] = me;
        self.hash ^= self.geo.stone_key[color.index()][p.idx()];
        self.remove_empty(p);
        self.head[p.idx()] = p.0;
        self.next[p.idx()] = p.0;
        self.count[p.idx()] = 1;
        self.libs[p.idx()] = self.nbr[p.idx()] & NBR_MASK;

        // Enemy chains lose the liberty `p`; those left without any die.
        let mut captured = 0u32;
        let mut last_captured = p;
        let enemies = self.neighbor_chains(p, opp);
        for &h in enemies.heads() {
            self.libs[h.idx()] -= 1;
            if self.libs[h.idx()] == 0 {
                captured += self.count[h.idx()] as u32;
                last_captured = h;
                self.remove_chain(h, color);
            }
        }
        self.captures[color.index()] += captured;

        // Merge with friendly neighbours.
        let friends = self.neighbor_chains(p, me);
        let my_head = match friends.len() {
            0 => p,
            1 => {
                let h = friends.heads()[0];
                // p's own liberties that h did not already have.
                let mut fresh = 0;
                for n in nbrs {
                    // An empty point whose only friendly neighbour is `p`
                    // cannot touch `h`; otherwise look.
                    if self.cells[n.idx()] == Cell::Empty
                        && (nbr_count(self.nbr[n.idx()], color) == 1
                            || !self
                                .neighbors(n)
                                .iter()
                                .any(|m| self.cells[m.idx()] == me && self.head[m.idx()] == h.0))
                    {
                        fresh += 1;
                    }
                }
                let libs = self.libs[h.idx()] - 1 + fresh;
                self.join(h, p);
                self.libs[h.idx()] = libs;
                h
            }
            _ => self.merge_several(p, color, friends.heads()),
        };

        if self.libs[my_head.idx()] == 0 {
            // Suicide (only reached when the rules allow it).
            let n = self.count[my_head.idx()] as u32;
            self.remove_chain(my_head, color.opponent());
            self.captures[color.opponent().index()] += n;
            return;
        }

        if captured == 1 && self.count[my_head.idx()] == 1 && self.libs[my_head.idx()] == 1 {
            self.ko = Some(Ko {
                point: last_captured,
                color: color.opponent(),
            });
        }
    }

    /// Merges the new stone `p` of `color` with its friendly neighbouring
    /// chains `friends` (two or more distinct heads): the biggest one
    /// absorbs the others. Returns the head of the merged chain.
    #[inline]
    fn merge_several(&mut self, p: Point, color: Color, friends: &[Point]) -> Point {
        let me = Cell::stone(color);
        let mut big = friends[0];
        for &f in &friends[1..] {
            if self.count[f.idx()] > self.count[big.idx()] {
                big = f;
            }
        }
        // Liberties of the merged chain: those of the biggest chain
        // (minus `p`), plus those of the smaller chains and of `p`
        // that the biggest chain does not already have. Only the
        // smaller chains are walked.
        let mut seen = PointSet::new();
        let mut extra = 0u16;
        let mut count_new = |b: &Board, s: Point| {
            for n in b.neighbors(s) {
                if b.cells[n.idx()] == Cell::Empty
                    && seen.insert(n)
                    && (nbr_count(b.nbr[n.idx()], color) == 1
                        || !b
                            .neighbors(n)
                            .iter()
                            .any(|m| b.cells[m.idx()] == me && b.head[m.idx()] == big.0))
                {
                    extra += 1;
                }
            }
        };
        count_new(self, p);
        for &f in friends {
            if f != big {
                for s in self.chain_stones(f) {
                    count_new(self, s);
                }
            }
        }
        let libs = self.libs[big.idx()] - 1 + extra;
        for &f in friends {
            if f != big {
                self.join(big, f);
            }
        }
        self.join(big, p);
        self.libs[big.idx()] = libs;
        big
    }

    /// Links chain `other` into chain `head` (relabels `other`'s stones).
    pub(super) fn join(&mut self, head: Point, other: Point) {
        let mut s = other.0;
        loop {
            self.head[ix(s)] = head.0;
            s = self.next[ix(s)];
            if s == other.0 {
                break;
            }
        }
        self.next.swap(head.idx(), other.idx());
        self.count[head.idx()] += self.count[other.idx()];
    }

    /// Removes the chain at `head`; neighbouring chains of `capturer` gain
    /// the freed points as liberties.
    pub(super) fn remove_chain(&mut self, head: Point, capturer: Color) {
        let mine = Cell::stone(capturer);
        let victim = self.cells[head.idx()].color().expect("a stone");
        let mut s = head.0;
        loop {
            let sp = Point(s);
            self.cells[ix(s)] = Cell::Empty;
            self.hash ^= self.geo.stone_key[victim.index()][ix(s)];
            self.add_empty(sp);
            let nbrs = self.neighbors(sp);
            let freed = NBR_EMPTY.wrapping_sub(nbr_unit(victim));
            for n in nbrs {
                self.nbr[n.idx()] = self.nbr[n.idx()].wrapping_add(freed);
            }
            for &h in self.neighbor_chains(sp, mine).heads() {
                self.libs[h.idx()] += 1;
            }
            s = self.next[ix(s)];
            if s == head.0 {
                break;
            }
        }
    }

    #[inline]
    pub(super) fn remove_empty(&mut self, p: Point) {
        let i = self.empty_pos[p.idx()] as usize;
        self.num_empty -= 1;
        let last = self.empty[self.num_empty];
        self.empty[i] = last;
        self.empty_pos[last.idx()] = i as u16;
    }

    #[inline]
    pub(super) fn add_empty(&mut self, p: Point) {
        self.empty_pos[p.idx()] = self.num_empty as u16;
        self.empty[self.num_empty] = p;
        self.num_empty += 1;
    }

    /// Puts a stone without any rule check and without captures (setup
    /// stones, SGF AB/AW). Chains and liberties are rebuilt from scratch.
    pub fn set_stone(&mut self, c: Coord, color: Option<Color>) {
        let p = self.point(c);
        if let Some(old) = self.cells[p.idx()].color() {
            self.hash ^= self.geo.stone_key[old.index()][p.idx()];
            self.cells[p.idx()] = Cell::Empty;
        }
        if let Some(col) = color {
            self.cells[p.idx()] = Cell::stone(col);
            self.hash ^= self.geo.stone_key[col.index()][p.idx()];
        }
        self.ko = None;
        self.rebuild();
    }
}
