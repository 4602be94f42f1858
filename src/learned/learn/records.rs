//! The records a run learns from: finding the files, reading the games
//! of the board size, and replaying their positions.

use std::path::{Path, PathBuf};

use super::{LearnConfig, LearnError, LearnReport, Stage};
use crate::rules::{Board, Color, Move, Point};
use crate::sgf::{self, GameRecord};

/// The `.sgf` files under `paths`, sorted.
pub fn find_records(paths: &[PathBuf]) -> Result<Vec<PathBuf>, LearnError> {
    fn walk(p: &Path, out: &mut Vec<PathBuf>) -> Result<(), LearnError> {
        let io = |source| LearnError::Io {
            path: p.to_path_buf(),
            source,
        };
        let meta = std::fs::metadata(p).map_err(io)?;
        if meta.is_dir() {
            for e in std::fs::read_dir(p).map_err(io)? {
                let e = e.map_err(io)?;
                let q = e.path();
                let is_sgf = q.extension().is_some_and(|x| x.eq_ignore_ascii_case("sgf"));
                if q.is_dir() || is_sgf {
                    walk(&q, out)?;
                }
            }
        } else {
            out.push(p.to_path_buf());
        }
        Ok(())
    }
    let mut out = Vec::new();
    for p in paths {
        walk(p, &mut out)?;
    }
    out.sort();
    out.dedup();
    Ok(out)
}

pub(super) fn splitmix(x: u64) -> u64 {
    let mut s = x;
    crate::rules::zobrist::splitmix(&mut s)
}

/// A position of a record: the board before the move, and the move.
pub(crate) struct Position<'a> {
    pub board: &'a Board,
    pub color: Color,
    pub played: Point,
    pub last: Option<Point>,
    pub last2: Option<Point>,
    pub index: usize,
}

/// Replays `rec` and calls `f` for every stone move that the search could
/// have chosen (legal, not an own true eye). Stops at an illegal move.
pub(crate) fn replay(rec: &GameRecord, mut f: impl FnMut(&Position)) {
    let mut board = Board::new(rec.size);
    for &(c, color) in &rec.setup {
        board.set_stone(c, color);
    }
    let (mut last, mut last2) = (None, None);
    for (index, &(color, mv)) in rec.moves.iter().enumerate() {
        match mv {
            Move::Pass => {
                board.pass();
                last2 = last;
                last = None;
            }
            Move::Play(c) => {
                if (c.x as usize) >= rec.size || (c.y as usize) >= rec.size {
                    return;
                }
                let p = board.point(c);
                if !board.is_legal(p, color) {
                    return;
                }
                if !board.is_true_eye(p, color) {
                    f(&Position {
                        board: &board,
                        color,
                        played: p,
                        last,
                        last2,
                        index,
                    });
                }
                board.play_unchecked(p, color);
                last2 = last;
                last = Some(p);
            }
        }
    }
}

/// Reads the records of `files` that have the configured board size,
/// counting the others in `report`.
pub(super) fn read_games(
    cfg: &LearnConfig,
    files: &[PathBuf],
    report: &mut LearnReport,
    progress: &mut dyn FnMut(Stage),
) -> Vec<GameRecord> {
    let mut games = Vec::new();
    for (i, f) in files.iter().enumerate() {
        match sgf::read_file(f) {
            Ok(r) if r.size == cfg.size => games.push(r),
            Ok(_) => report.other_size += 1,
            Err(e) => report.unreadable.push(e.to_string()),
        }
        if i % 64 == 63 || i + 1 == files.len() {
            progress(Stage::Reading(i + 1, files.len()));
        }
    }
    games
}
