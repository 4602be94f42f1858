//! The tree and the best-move table: storing the best move of every well
//! visited node, and the principal variation marked against the table.

use super::*;

impl Searcher {
    /// Stores the best move of every node whose best child has at least
    /// `table_store_visits` visits.
    pub(super) fn store_tree(&self, counts: &mut Counts) {
        // Under dynamic komi the values belong to another komi than the
        // one the table keys by.
        let Some(t) = self
            .table
            .as_ref()
            .filter(|_| self.table_on && self.komi == self.game_komi)
        else {
            return;
        };
        if t.read_only().is_some() {
            return;
        }
        let min = (self.resolved.table_store_visits as u32).max(1);
        let x = self.resolved.table_depth_exchange;
        self.store_node(
            t,
            self.root,
            &self.root_board,
            self.root_color,
            0,
            min,
            x,
            counts,
        );
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn store_node(
        &self,
        t: &Table,
        ix: u32,
        board: &Board,
        color: Color,
        depth: u32,
        min: u32,
        x: f64,
        counts: &mut Counts,
    ) {
        let Some((b, best_v)) = self.most_visited(ix) else {
            return;
        };
        if best_v < min {
            return;
        }
        let key = board.key(color) ^ self.class_key;
        let e = Entry::new(
            key,
            self.arena.get(b).mv.load(Relaxed),
            best_v as u64,
            depth,
        );
        counts.add_store(t.store(e, x));
        let (first, n) = self.arena.get(ix).children().expect("it has a child");
        let mut next = board.clone();
        for k in 0..n as u32 {
            let c = self.arena.get(first + k);
            if c.visits.load(Relaxed) >= min
                && !(depth == 0 && self.banned[c.mv.load(Relaxed) as usize])
            {
                next.copy_from(board);
                play_node_move(&mut next, c, color);
                self.store_node(
                    t,
                    first + k,
                    &next,
                    color.opponent(),
                    depth + 1,
                    min,
                    x,
                    counts,
                );
            }
        }
    }

    /// The principal variation from the root (most visited children with
    /// at least two visits), each move marked against the table.
    pub fn marked_pv(&self, max_len: usize) -> Vec<(Move, Mark)> {
        let mut out = Vec::new();
        let mut board = self.root_board.clone();
        let mut color = self.root_color;
        let mut ix = self.root;
        let table = self.table.as_ref().filter(|_| self.table_on);
        while out.len() < max_len {
            let Some((b, v)) = self.most_visited(ix) else {
                break;
            };
            if v < 2 {
                break;
            }
            let (first, n) = self.arena.get(ix).children().expect("it has a child");
            let bs = self.arena.get(b).stats();
            let mv = self.arena.get(b).mv.load(Relaxed);
            let mark = match table.and_then(|t| t.probe(board.key(color) ^ self.class_key)) {
                None => Mark::None,
                Some(e) if e.mv == mv => Mark::Confirmed,
                Some(e) => {
                    let rival = (0..n as u32)
                        .map(|k| self.arena.get(first + k))
                        .find(|c| c.mv.load(Relaxed) == e.mv)
                        .map(|c| c.stats());
                    match rival {
                        Some(r) if r.visits > 0 && r.winrate() > bs.winrate() => Mark::Doubtful,
                        _ => Mark::Better,
                    }
                }
            };
            out.push((self.to_move(mv), mark));
            play_node_move(&mut board, self.arena.get(b), color);
            color = color.opponent();
            ix = b;
        }
        out
    }
}
