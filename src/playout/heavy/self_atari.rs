//! The self-atari kinds of rule 11 (the random move): which self-ataris
//! the policy plays, and which it rejects.

use super::eyes::vital_point;
use crate::rules::{Board, Cell, Color, Point};

/// What a self-atari move of the random rule does, as far as the policy
/// tells kinds apart. The first three are always played; the last three
/// are rejected, `SekiBreak` always and the others with a probability.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelfAtari {
    /// One stone whose capture leaves the capturing chain (two or more
    /// stones) with the stone's point as its only liberty: it is retaken
    /// with profit.
    Snapback,
    /// One stone that puts an opponent chain in atari on another point: a
    /// throw-in that shortens liberties or spoils an eye.
    ThrowIn,
    /// Two to five stones that, with their last liberty, fill a region
    /// the opponent encloses and that has the shape of a nakade (straight
    /// or bent three, pyramid four, bulky or crossed five, rabbity six),
    /// with the vital point among the stones: the opponent gets one eye.
    Nakade,
    /// Two or more stones whose last liberty is also the last liberty of
    /// an opponent chain it touches: the move fills a shared liberty of a
    /// seki, and the opponent captures first. Always rejected.
    SekiBreak,
    /// Any other single stone (rejected with `po_self_atari_reject`).
    Small,
    /// Any other chain of two or more stones (rejected with
    /// `po_self_atari_big`).
    Big,
}

/// The kind of the self-atari `color` would play at the empty point `p`
/// (the caller knows it is one: at most one liberty, nothing captured).
pub fn self_atari_kind(board: &Board, p: Point, color: Color) -> SelfAtari {
    let me = Cell::stone(color);
    let opp = Cell::stone(color.opponent());
    // The chain's last liberty, if any (none: suicide).
    let mut last_lib = None;
    let mut libs = [Point(0); 2];
    for q in board.neighbors(p) {
        let c = board.cell(q);
        if c == Cell::Empty {
            last_lib = Some(q);
        } else if c == me {
            let k = board.chain_liberties(q, &mut libs);
            if let Some(&l) = libs[..k].iter().find(|&&l| l != p) {
                last_lib = Some(l);
            }
        }
    }
    let n = board.chain_len_after(p, color);
    let Some(lib) = last_lib else {
        return if n == 1 {
            SelfAtari::Small
        } else {
            SelfAtari::Big
        };
    };
    // Opponent chains next to `p` that the move leaves with one liberty,
    // and whether that liberty is `lib` too.
    let mut atari_elsewhere = false;
    let mut atari_shared = false;
    for q in board.neighbors(p) {
        if board.cell(q) == opp && board.liberties(q) == 2 {
            board.chain_liberties(q, &mut libs);
            if libs.contains(&lib) {
                atari_shared = true;
            } else {
                atari_elsewhere = true;
            }
        }
    }
    if n == 1 {
        if is_snapback(board, p, lib, color) {
            SelfAtari::Snapback
        } else if atari_elsewhere {
            SelfAtari::ThrowIn
        } else {
            SelfAtari::Small
        }
    } else if atari_shared {
        SelfAtari::SekiBreak
    } else if is_nakade_fill(board, p, lib, color, n) {
        SelfAtari::Nakade
    } else {
        SelfAtari::Big
    }
}

/// True if a single `color` stone at `p`, whose only liberty is `lib`,
/// is a snapback: the opponent's capture at `lib` joins at least one of
/// its chains and leaves the result with `p` as its only liberty, and it
/// captures nothing else.
pub(super) fn is_snapback(board: &Board, p: Point, lib: Point, color: Color) -> bool {
    let opp = Cell::stone(color.opponent());
    let mut joins = false;
    let mut libs = [Point(0); 3];
    for r in board.neighbors(lib) {
        match board.cell(r) {
            Cell::Border => {}
            Cell::Empty => {
                if r != p {
                    return false;
                }
            }
            c if c == opp => {
                joins = true;
                let k = board.chain_liberties(r, &mut libs);
                if libs[..k].iter().any(|&l| l != lib && l != p) {
                    return false;
                }
            }
            // Another own chain whose last liberty is `lib` would be
            // captured with the stone, and free more liberties.
            _ => {
                if board.liberties(r) == 1 {
                    return false;
                }
            }
        }
    }
    joins
}

/// True if `color`'s chain of `n` stones made by playing `p`, with `lib`
/// its only liberty, fills a nakade: the stones and `lib` (at most six
/// points) are a region the opponent encloses, and its shape has a
/// [`vital_point`] which is not `lib`.
pub(super) fn is_nakade_fill(board: &Board, p: Point, lib: Point, color: Color, n: usize) -> bool {
    if n > 5 {
        return false;
    }
    let me = Cell::stone(color);
    let mut region = [Point(0); 6];
    region[0] = p;
    region[1] = lib;
    let mut k = 2;
    for q in board.neighbors(p) {
        if board.cell(q) == me {
            for s in board.chain_stones(q) {
                if !region[..k].contains(&s) {
                    region[k] = s;
                    k += 1;
                }
            }
        }
    }
    // `lib`'s other neighbours must be the opponent's or the edge (`p`
    // is still empty on the board).
    let inside = &region[..k];
    if board.neighbors(lib).iter().any(|&r| {
        r != p && (board.cell(r) == Cell::Empty || (board.cell(r) == me && !inside.contains(&r)))
    }) {
        return false;
    }
    vital_point(board, inside).is_some_and(|v| v != lib)
}
