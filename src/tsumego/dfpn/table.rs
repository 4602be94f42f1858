//! The transposition table of a solve, shared by its searches: proven
//! results keyed by position, side to move, pass state and threat counts.

use super::*;

/// What an entry stored by another regime of the same answer tells a
/// child that has none of its own.
pub(super) enum FromOther {
    /// A proof or disproof that holds here: φ, δ and whether it is
    /// ko-free.
    Carries((u64, u64, bool)),
    /// A result that does not carry over (the plain search's win of the
    /// defender that may rest on two passes, read by the seki test):
    /// whether the side to move won there. The seki test starts such a
    /// child with the number that favours the same winner at 1, so it
    /// tries that line first; where the line is a seki the search finds
    /// it all the same.
    Hint(bool),
}

/// The transposition table of one problem (not the best-move
/// [`crate::table::Table`]): kept across the searches of
/// one side moving first (plain, ko-threat screens, seki test), whose keys
/// tell the regimes apart, so a re-search starts from what the previous
/// ones proved. Path-dependent results are never stored.
#[derive(Default)]
pub struct TransTable {
    pub(super) map: AHashMap<u64, Entry>,
    /// The threat counts of the entries stored so far (plain regimes).
    pub(super) seen: Vec<[u8; 2]>,
    /// Keys, less their threat component, of the positions proven or
    /// disproven with some threat counts: [`TransTable::dominated`] looks
    /// further only for these (one probe for the rest).
    pub(super) proven: ahash::AHashSet<u64>,
}

impl TransTable {
    /// A proof or disproof for the position `key` (stored with `threats`,
    /// `to_move` to play) read from an entry stored with other threat
    /// counts: an external threat is an option, never an obligation, so a
    /// side that wins with fewer threats of its own and more of its
    /// opponent's wins here too, and one that loses with more of its own
    /// and fewer of its opponent's loses here too. A result that met no
    /// ko ban ([`Entry::ko_free`]) holds with any counts. The third value
    /// says whether the result read is itself ko-free.
    pub(super) fn dominated(
        &self,
        key: u64,
        threats: [u8; 2],
        to_move: Color,
    ) -> Option<(u64, u64, bool)> {
        // The first search of an answer has nothing to read from.
        if self.seen.len() < 2 {
            return None;
        }
        let base = key ^ threat_key(threats);
        if !self.proven.contains(&base) {
            return None;
        }
        let (x, y) = (to_move.index(), to_move.opponent().index());
        for &a in &self.seen {
            if a == threats {
                continue;
            }
            let worse = a[x] <= threats[x] && a[y] >= threats[y];
            let better = a[x] >= threats[x] && a[y] <= threats[y];
            if let Some(e) = self.map.get(&(base ^ threat_key(a))) {
                if (worse || e.ko_free) && e.phi == 0 {
                    return Some((0, INF, e.ko_free));
                }
                if (better || e.ko_free) && e.delta == 0 {
                    return Some((INF, 0, e.ko_free));
                }
            }
        }
        None
    }

    /// What the plain search's entry for a position of the seki test (key
    /// `key`, with `STRICT_KEY`) tells it, in one probe. The seki test only
    /// takes wins away from the defender (two passes no longer save it),
    /// so what the attacker wins in the plain search, it wins in the seki
    /// test too; and a win of the defender whose proof never rested on two
    /// passes (the entry's `passes`: no line of it ended in two passes or
    /// in a static life that may be a seki) is unconditional life, a win
    /// in the seki test as well: both carry over. A win of the defender
    /// that may rest on two passes does not; it is only a hint
    /// ([`FromOther::Hint`]).
    pub(super) fn plain_result_for_strict(
        &self,
        key: u64,
        to_move: Color,
        attacker: Color,
    ) -> Option<FromOther> {
        let e = self.map.get(&(key ^ STRICT_KEY))?;
        let mover_wins = e.phi == 0;
        let mover_loses = e.delta == 0;
        if !(mover_wins || mover_loses) {
            return None;
        }
        // The defender's win that may rest on two passes.
        let defender_wins = mover_wins == (to_move != attacker);
        if defender_wins && e.passes {
            return Some(FromOther::Hint(mover_wins));
        }
        Some(FromOther::Carries(if mover_wins {
            (0, INF, false)
        } else {
            (INF, 0, false)
        }))
    }

    /// Records that a search with `threats` at its root stores entries
    /// with any counts up to those.
    pub(super) fn note_regime(&mut self, threats: [u8; 2]) {
        for i in 0..=threats[0] {
            for j in 0..=threats[1] {
                if !self.seen.contains(&[i, j]) {
                    self.seen.push([i, j]);
                }
            }
        }
    }

    /// Makes room when the table is full: drops the entries that cost the
    /// least to recompute (work below a rising threshold; a proof or
    /// disproof counts four times its work) until half the capacity is
    /// free.
    pub(super) fn make_room(&mut self) {
        let mut t = 1u64;
        while self.map.len() > TT_CAP / 2 {
            self.map.retain(|_, e| {
                let proven = e.phi == 0 || e.delta == 0;
                (e.work as u64) * if proven { 4 } else { 1 } > t
            });
            t *= 2;
        }
    }
}
