//! The search tree: nodes in a chunked arena shared by all search threads.
//!
//! Statistics are atomics updated without locks. A node's children are one
//! contiguous block, allocated by the one thread that wins the right to
//! expand the node (a compare-and-swap on its state) and published with a
//! release store; other threads keep running playouts through the node in
//! the meantime. The arena grows in chunks up to a memory cap (counted in
//! nodes, so a cap need not be a whole number of chunks); when it is full,
//! expansion stops and the search goes on with the tree it has (or, with
//! `id_mode = 3`, a new iteration starts).

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU32, AtomicU64, Ordering::*};

/// Nodes per arena chunk.
const CHUNK_BITS: u32 = 16;
const CHUNK: usize = 1 << CHUNK_BITS;

/// The fewest nodes an arena holds, whatever its cap: a root and the
/// children of two expansions on 19x19.
pub const MIN_NODES: usize = 1024;

/// Node states.
pub const LEAF: u8 = 0;
pub const EXPANDING: u8 = 1;
pub const EXPANDED: u8 = 2;

/// The move of a pass child (point 0 is never on the board).
pub const PASS: u16 = crate::rules::board::PASS_CODE;

/// One node: the move that leads to it and the statistics of that move,
/// seen by the player who made it.
#[derive(Default)]
pub struct Node {
    /// The move's point ([`PASS`] for a pass).
    pub mv: AtomicU16,
    pub state: AtomicU8,
    pub num_children: AtomicU16,
    pub first_child: AtomicU32,
    /// Playouts through the node, plus virtual losses in flight.
    pub visits: AtomicU32,
    /// Results in half points: 2 per win, 1 per draw.
    pub wins: AtomicU32,
    pub amaf_visits: AtomicU32,
    pub amaf_wins: AtomicU32,
    /// Prior virtual playouts and wins (f32 bits), set before publication.
    pub prior_visits: AtomicU32,
    pub prior_wins: AtomicU32,
}

/// A copy of a node's numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    pub visits: u32,
    /// Wins (draws count half).
    pub wins: f64,
    pub prior_visits: f32,
    pub prior_wins: f32,
}

impl Stats {
    /// The win rate of the real playouts (0.5 with none).
    pub fn winrate(&self) -> f64 {
        if self.visits == 0 {
            0.5
        } else {
            self.wins / self.visits as f64
        }
    }

    /// The prior's win rate (0.5 with no prior).
    pub fn prior_rate(&self) -> f64 {
        if self.prior_visits <= 0.0 {
            0.5
        } else {
            (self.prior_wins / self.prior_visits) as f64
        }
    }
}

impl Node {
    pub fn reset(&self, mv: u16, prior_visits: f32, prior_wins: f32) {
        self.mv.store(mv, Relaxed);
        self.state.store(LEAF, Relaxed);
        self.num_children.store(0, Relaxed);
        self.first_child.store(0, Relaxed);
        self.visits.store(0, Relaxed);
        self.wins.store(0, Relaxed);
        self.amaf_visits.store(0, Relaxed);
        self.amaf_wins.store(0, Relaxed);
        self.prior_visits.store(prior_visits.to_bits(), Relaxed);
        self.prior_wins.store(prior_wins.to_bits(), Relaxed);
    }

    pub fn stats(&self) -> Stats {
        Stats {
            visits: self.visits.load(Relaxed),
            wins: self.wins.load(Relaxed) as f64 / 2.0,
            prior_visits: f32::from_bits(self.prior_visits.load(Relaxed)),
            prior_wins: f32::from_bits(self.prior_wins.load(Relaxed)),
        }
    }

    /// The children block, if the node is expanded.
    #[inline]
    pub fn children(&self) -> Option<(u32, usize)> {
        if self.state.load(Acquire) == EXPANDED {
            Some((
                self.first_child.load(Relaxed),
                self.num_children.load(Relaxed) as usize,
            ))
        } else {
            None
        }
    }

    fn copy_stats_from(&self, o: &Node) {
        self.mv.store(o.mv.load(Relaxed), Relaxed);
        self.visits.store(o.visits.load(Relaxed), Relaxed);
        self.wins.store(o.wins.load(Relaxed), Relaxed);
        self.amaf_visits.store(o.amaf_visits.load(Relaxed), Relaxed);
        self.amaf_wins.store(o.amaf_wins.load(Relaxed), Relaxed);
        self.prior_visits
            .store(o.prior_visits.load(Relaxed), Relaxed);
        self.prior_wins.store(o.prior_wins.load(Relaxed), Relaxed);
        self.state.store(LEAF, Relaxed);
        self.num_children.store(0, Relaxed);
    }
}

/// The arena. Index 0 is the root once [`Arena::new_root`] ran.
pub struct Arena {
    chunks: Box<[OnceLock<Box<[Node]>>]>,
    /// Nodes the cap allows (at most the chunks' room).
    limit: usize,
    /// The next free index.
    next: AtomicU64,
    /// Set once an allocation failed for lack of room.
    full: std::sync::atomic::AtomicBool,
}

impl Arena {
    /// An arena of at most `max_bytes` of nodes (at least [`MIN_NODES`]).
    /// Chunks are allocated as the tree reaches them.
    pub fn new(max_bytes: usize) -> Arena {
        let limit = (max_bytes / std::mem::size_of::<Node>()).max(MIN_NODES);
        let n = limit.div_ceil(CHUNK);
        Arena {
            chunks: (0..n).map(|_| OnceLock::new()).collect(),
            limit,
            next: AtomicU64::new(0),
            full: false.into(),
        }
    }

    /// Bytes of node memory one chunk takes.
    pub fn chunk_bytes() -> usize {
        CHUNK * std::mem::size_of::<Node>()
    }

    /// Nodes the arena may hold.
    pub fn capacity(&self) -> usize {
        self.limit
    }

    /// Nodes handed out so far (including chunk tails skipped).
    pub fn used(&self) -> usize {
        self.next.load(Relaxed) as usize
    }

    pub fn is_full(&self) -> bool {
        self.full.load(Relaxed)
    }

    #[inline]
    pub fn get(&self, i: u32) -> &Node {
        let chunk = self.chunks[(i >> CHUNK_BITS) as usize]
            .get()
            .expect("node index in an allocated chunk");
        &chunk[i as usize & (CHUNK - 1)]
    }

    /// Allocates `n` consecutive nodes (uninitialised: the caller resets
    /// them). `None` when the arena is full.
    pub fn alloc(&self, n: usize) -> Option<u32> {
        assert!(n > 0 && n <= CHUNK);
        let mut cur = self.next.load(Relaxed);
        loop {
            let chunk = (cur >> CHUNK_BITS) as usize;
            let off = cur as usize & (CHUNK - 1);
            let (start, end) = if off + n > CHUNK {
                let s = ((chunk + 1) << CHUNK_BITS) as u64;
                (s, s + n as u64)
            } else {
                (cur, cur + n as u64)
            };
            if end as usize > self.limit {
                self.full.store(true, Relaxed);
                return None;
            }
            match self.next.compare_exchange_weak(cur, end, AcqRel, Relaxed) {
                Ok(_) => {
                    self.chunks[(start >> CHUNK_BITS) as usize]
                        .get_or_init(|| (0..CHUNK).map(|_| Node::default()).collect());
                    return Some(start as u32);
                }
                Err(actual) => cur = actual,
            }
        }
    }

    /// Empties the arena and allocates a fresh root (index 0).
    pub fn new_root(&mut self) -> u32 {
        self.next.store(0, Relaxed);
        self.full.store(false, Relaxed);
        let r = self.alloc(1).expect("an arena holds at least one chunk");
        self.get(r).reset(PASS, 0.0, 0.0);
        r
    }

    /// Copies the subtree under `root` of `src` into `self` (emptied
    /// first); the copy's root is index 0. Stops copying children when
    /// `self` is full (those nodes become leaves). No search may run on
    /// either arena meanwhile.
    pub fn copy_subtree(&mut self, src: &Arena, root: u32) -> u32 {
        let new_root = self.new_root();
        self.get(new_root).copy_stats_from(src.get(root));
        let mut queue = std::collections::VecDeque::from([(root, new_root)]);
        while let Some((from, to)) = queue.pop_front() {
            if let Some((first, dst, n)) = self.copy_children(src, from, to, usize::MAX) {
                queue.extend((0..n).map(|k| (first + k, dst + k)));
            }
        }
        new_root
    }

    /// Copies the most visited part of the subtree under `root` of `src`
    /// into `self` (emptied first), at most `max_nodes` nodes: children
    /// blocks are copied in order of their parent's visits, most first, so
    /// what is kept is the part of the tree the search used most. The
    /// copy's root is index 0; nodes whose children were not copied become
    /// leaves. No search may run on either arena meanwhile.
    pub fn copy_top(&mut self, src: &Arena, root: u32, max_nodes: usize) -> u32 {
        let new_root = self.new_root();
        self.get(new_root).copy_stats_from(src.get(root));
        let visits = |i: u32| src.get(i).visits.load(Relaxed);
        let mut heap = std::collections::BinaryHeap::from([(visits(root), root, new_root)]);
        while let Some((_, from, to)) = heap.pop() {
            if let Some((first, dst, n)) = self.copy_children(src, from, to, max_nodes) {
                // Only expanded children have blocks to copy (most are
                // leaves: keeping them out keeps the heap small).
                let expanded = (0..n).filter(|&k| src.get(first + k).children().is_some());
                heap.extend(expanded.map(|k| (visits(first + k), first + k, dst + k)));
            }
        }
        new_root
    }

    /// Copies the children of `from` (in `src`) under `to` (in `self`), if
    /// it has any and they fit within `max_nodes` nodes and the arena;
    /// returns the two first indices and the number of children.
    fn copy_children(
        &self,
        src: &Arena,
        from: u32,
        to: u32,
        max_nodes: usize,
    ) -> Option<(u32, u32, u32)> {
        let (first, n) = src.get(from).children()?;
        if self.used().saturating_add(n) > max_nodes {
            return None;
        }
        let dst = self.alloc(n)?;
        for k in 0..n as u32 {
            self.get(dst + k).copy_stats_from(src.get(first + k));
        }
        let t = self.get(to);
        t.first_child.store(dst, Relaxed);
        t.num_children.store(n as u16, Relaxed);
        t.state.store(EXPANDED, Release);
        Some((first, dst, n as u32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alloc_never_straddles_chunks_and_stops_when_full() {
        let a = Arena::new(2 * Arena::chunk_bytes());
        let first = a.alloc(CHUNK - 10).unwrap();
        assert_eq!(first, 0);
        let second = a.alloc(20).unwrap();
        assert_eq!(second as usize, CHUNK, "a block never straddles chunks");
        assert!(a.alloc(CHUNK).is_none());
        assert!(a.is_full());
        assert!(a.alloc(100).is_some());
    }

    /// A root with `n` children, child k having `visits[k]` visits and
    /// 3 children of its own; returns the children's first index.
    fn two_levels(a: &mut Arena, visits: &[u32]) -> u32 {
        let root = a.new_root();
        let n = visits.len();
        let kids = a.alloc(n).unwrap();
        for (k, &v) in visits.iter().enumerate() {
            let c = a.get(kids + k as u32);
            c.reset(10 + k as u16, 0.0, 0.0);
            c.visits.store(v, Relaxed);
            let g = a.alloc(3).unwrap();
            for j in 0..3 {
                a.get(g + j).reset(100 + j as u16, 0.0, 0.0);
            }
            c.first_child.store(g, Relaxed);
            c.num_children.store(3, Relaxed);
            c.state.store(EXPANDED, Release);
        }
        let r = a.get(root);
        r.visits.store(visits.iter().sum(), Relaxed);
        r.first_child.store(kids, Relaxed);
        r.num_children.store(n as u16, Relaxed);
        r.state.store(EXPANDED, Release);
        kids
    }

    #[test]
    fn copy_top_keeps_the_most_visited_children_blocks() {
        let mut a = Arena::new(Arena::chunk_bytes());
        two_levels(&mut a, &[5, 50, 1, 20]);
        let mut b = Arena::new(Arena::chunk_bytes());
        // Root + 4 children + two blocks of 3: the children of the 50- and
        // 20-visit nodes, not those of the others.
        let r = b.copy_top(&a, 0, 11);
        assert_eq!(b.used(), 11);
        assert_eq!(b.get(r).visits.load(Relaxed), 76);
        let (f, n) = b.get(r).children().unwrap();
        assert_eq!(n, 4);
        let expanded: Vec<u16> = (0..4)
            .filter(|&k| b.get(f + k).children().is_some())
            .map(|k| b.get(f + k).mv.load(Relaxed))
            .collect();
        assert_eq!(expanded, [11, 13]);
        // With room for everything it is the whole tree, as copy_subtree.
        let mut c = Arena::new(Arena::chunk_bytes());
        c.copy_top(&a, 0, usize::MAX);
        assert_eq!(c.used(), a.used());
    }

    #[test]
    fn a_cap_below_a_chunk_counts_nodes() {
        let per_node = std::mem::size_of::<Node>();
        let a = Arena::new(10_000 * per_node);
        assert_eq!(a.capacity(), 10_000);
        assert!(a.alloc(9_990).is_some());
        assert!(a.alloc(20).is_none(), "past the cap, inside the chunk");
        assert!(a.is_full());
        assert!(a.alloc(10).is_some(), "the last 10 nodes still fit");
        assert_eq!(a.used(), 10_000);
        assert_eq!(Arena::new(1).capacity(), MIN_NODES);
    }

    #[test]
    fn copy_keeps_the_subtree() {
        let mut a = Arena::new(Arena::chunk_bytes());
        let root = a.new_root();
        let kids = a.alloc(3).unwrap();
        for k in 0..3 {
            a.get(kids + k).reset(10 + k as u16, 1.0, 0.5);
            a.get(kids + k).visits.store(k + 1, Relaxed);
        }
        let r = a.get(root);
        r.first_child.store(kids, Relaxed);
        r.num_children.store(3, Relaxed);
        r.state.store(EXPANDED, Release);
        let grand = a.alloc(2).unwrap();
        for k in 0..2 {
            a.get(grand + k).reset(20 + k as u16, 0.0, 0.0);
        }
        let c = a.get(kids + 1);
        c.first_child.store(grand, Relaxed);
        c.num_children.store(2, Relaxed);
        c.state.store(EXPANDED, Release);

        let mut b = Arena::new(Arena::chunk_bytes());
        let nr = b.copy_subtree(&a, kids + 1);
        assert_eq!(b.get(nr).mv.load(Relaxed), 11);
        assert_eq!(b.get(nr).visits.load(Relaxed), 2);
        let (f, n) = b.get(nr).children().unwrap();
        assert_eq!(n, 2);
        assert_eq!(b.get(f + 1).mv.load(Relaxed), 21);
        assert_eq!(b.used(), 3);
    }
}
