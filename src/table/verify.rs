//! `table verify`: a scan of every entry.

use super::*;

/// What [`Table::verify`] found.
#[derive(Clone, Debug, Default)]
pub struct VerifyReport {
    pub entries: u64,
    pub used: u64,
    pub empty: u64,
    /// Torn entries (an interrupted or racing write): ignored by probes.
    pub stale: u64,
    /// Valid-looking entries in a bucket their key does not map to.
    pub misplaced: u64,
    /// Entries whose move is off the board of the file's board size.
    pub off_board: u64,
    /// Bad entries cleared (with `fix`).
    pub fixed: u64,
    /// Used entries by quality and by depth class.
    pub quality: Vec<u64>,
    pub depth: Vec<u64>,
}

impl VerifyReport {
    pub fn bad(&self) -> u64 {
        self.stale + self.misplaced + self.off_board
    }
}

impl Table {
    /// Scans every entry.
    pub fn verify(&self, fix: bool) -> VerifyReport {
        let mut r = VerifyReport {
            entries: self.header.entries,
            quality: vec![0; 64],
            depth: vec![0; 16],
            ..VerifyReport::default()
        };
        let size = self.header.scope.size.map(|s| Board::new(s as usize));
        for (b, bucket) in self.slots().chunks(BUCKET).enumerate() {
            for s in bucket {
                let bad = match s.read() {
                    SlotState::Empty => {
                        r.empty += 1;
                        false
                    }
                    SlotState::Stale => {
                        r.stale += 1;
                        true
                    }
                    SlotState::Valid(e) => {
                        let home = self.bucket_index(e.key);
                        let off_board = e.mv != PASS
                            && size
                                .as_ref()
                                .is_some_and(|bd| bd.cell(Point(e.mv)) != Cell::Empty);
                        if home != b {
                            r.misplaced += 1;
                            true
                        } else if off_board {
                            r.off_board += 1;
                            true
                        } else {
                            r.used += 1;
                            r.quality[e.quality as usize] += 1;
                            r.depth[e.depth as usize] += 1;
                            false
                        }
                    }
                };
                if bad && fix && self.read_only.is_none() {
                    s.clear();
                    r.fixed += 1;
                }
            }
        }
        r
    }
}
