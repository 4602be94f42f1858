//! Rules 1 to 6 of the heavy policy, about liberties: capture or save a
//! chain in atari, retake a ko, chase a ladder, defend or atari a
//! two-liberty chain, and the three-liberty capturing race.

use super::{Cands, KO_RECAPTURES, Memory};
use crate::rules::{Board, Cell, ChainInsert, ChainSet, Color, Point};
use crate::tactics;

/// Moves that capture the chain through `last` if it is in atari, and
/// moves that save `color`'s chains next to `last` that are in atari; with
/// `ladder`, an extension that a ladder then captures is no save.
pub(super) fn atari_cands(board: &Board, color: Color, last: Point, ladder: bool, c: &mut Cands) {
    let me = Cell::stone(color);
    let opp = Cell::stone(color.opponent());
    let mut lib = [Point(0); 1];
    if board.cell(last) == opp && board.liberties(last) == 1 {
        board.chain_liberties(last, &mut lib);
        if board.is_playout_candidate(lib[0], color) {
            c.push(lib[0]);
        }
    }
    for q in board.neighbors(last) {
        if board.cell(q) != me || board.liberties(q) != 1 {
            continue;
        }
        // Capture a neighbour of the chain in atari.
        capture_neighbours(board, color, q, c);
        // Extend, if that gains liberties and no ladder then captures.
        board.chain_liberties(q, &mut lib);
        if board.is_playout_candidate(lib[0], color)
            && !board.is_self_atari(lib[0], color)
            && !(ladder && tactics::escape_fails(board, color, lib[0]))
        {
            c.push(lib[0]);
        }
    }
}

/// The atari that captures the chain through `last` (the opponent's, two
/// or more stones) in a ladder, if it has two liberties and a ladder works.
/// Left to the two-liberty atari rule's coin, a long ladder was almost
/// never chased to its end, so an extension into a working ladder looked
/// like a save in playouts, and the search ran such ladders (90 extensions
/// in 32 of 52 19x19 games against GNU Go, chains of up to 13 stones; none
/// in 36 games since).
pub(super) fn ladder_chase(board: &Board, color: Color, last: Point) -> Option<Point> {
    if board.cell(last) != Cell::stone(color.opponent())
        || board.liberties(last) != 2
        || board.chain_len(last) < 2
    {
        return None;
    }
    tactics::ladder_atari(board, last).filter(|&p| board.is_playout_candidate(p, color))
}

/// Defences of `color`'s chains that `last` left with two liberties and
/// that an atari would not let out at once: the liberties that extend the
/// chain to three or more, and the captures of neighbours in atari. A
/// chain that answers every atari by extending needs no move yet, and one
/// with neither kind of move is not helped by any.
pub(super) fn two_lib_defend_cands(board: &Board, color: Color, last: Point, c: &mut Cands) {
    let mut libs = [Point(0); 2];
    for &q in chains_next_to(board, color, last, 2).stones() {
        board.chain_liberties(q, &mut libs);
        if libs.iter().all(|&a| tactics::escapes_atari(board, q, a)) {
            continue;
        }
        for &l in &libs {
            if board.is_playout_candidate(l, color) && board.liberties_after(l, color, 3) >= 3 {
                c.push(l);
            }
        }
        capture_neighbours(board, color, q, c);
    }
}

/// The distinct chains of `color` next to `last` with exactly `libs`
/// liberties, each by the first stone of it met.
pub(super) fn chains_next_to(board: &Board, color: Color, last: Point, libs: usize) -> ChainSet<4> {
    let me = Cell::stone(color);
    board.neighbor_chains_where(last, |q| board.cell(q) == me && board.liberties(q) == libs)
}

/// The captures of the opponent's chains in atari next to `color`'s chain
/// through `chain`.
pub(super) fn capture_neighbours(board: &Board, color: Color, chain: Point, c: &mut Cands) {
    let opp = Cell::stone(color.opponent());
    let mut lib = [Point(0); 1];
    for s in board.chain_stones(chain) {
        for r in board.neighbors(s) {
            if board.cell(r) == opp && board.liberties(r) == 1 {
                board.chain_liberties(r, &mut lib);
                if board.is_playout_candidate(lib[0], color) {
                    c.push(lib[0]);
                }
            }
        }
    }
}

/// Ataris on two-liberty chains next to `last`, except pointless ones:
/// those the chain answers by extending to three liberties. So a ladder is
/// chased from the side that keeps it a ladder.
pub(super) fn two_lib_cands(board: &Board, color: Color, last: Point, c: &mut Cands) {
    let opp = Cell::stone(color.opponent());
    let mut libs = [Point(0); 2];
    let mut consider = |q: Point, c: &mut Cands| {
        if board.cell(q) == opp && board.liberties(q) == 2 {
            board.chain_liberties(q, &mut libs);
            for &l in &libs {
                if board.is_playout_candidate(l, color)
                    && !board.is_self_atari(l, color)
                    && !tactics::escapes_atari(board, q, l)
                {
                    c.push(l);
                }
            }
        }
    };
    consider(last, c);
    for q in board.neighbors(last) {
        if q != last && board.chain_head(q) != board.chain_head(last) {
            consider(q, c);
        }
    }
}

/// The ko point `color` was barred from two moves ago, if it can retake
/// it now: the point is empty and playing it captures one single stone.
pub(super) fn ko_recapture(board: &Board, color: Color, mem: &Memory) -> Option<Point> {
    let (k, at) = mem.ko_ban[color as usize]?;
    if mem.ply != at + 2 || mem.recaptures >= KO_RECAPTURES || board.cell(k) != Cell::Empty {
        return None;
    }
    let opp = Cell::stone(color.opponent());
    let captures_one = board
        .neighbors(k)
        .iter()
        .any(|&q| board.cell(q) == opp && board.liberties(q) == 1 && board.chain_len(q) == 1);
    (captures_one && board.is_playout_candidate(k, color)).then_some(k)
}

/// Capturing races of three liberties: for each own chain of two or more
/// stones that the last move left with three liberties and that touches
/// an opponent chain with three or fewer, the liberties of that opponent
/// chain (not self-ataris) and the liberties that extend the own chain to
/// four or more.
pub(super) fn three_lib_cands(board: &Board, color: Color, last: Point, c: &mut Cands) {
    let opp = Cell::stone(color.opponent());
    let mut libs = [Point(0); 3];
    let chains = chains_next_to(board, color, last, 3);
    for &q in chains.stones().iter().filter(|&&q| board.chain_len(q) >= 2) {
        let mut race = false;
        let mut opps = ChainSet::<8>::new();
        for s in board.chain_stones(q) {
            for r in board.neighbors(s) {
                if board.cell(r) != opp || board.liberties(r) > 3 {
                    continue;
                }
                // Past eight chains, a chain may be read twice: its
                // candidates are then pushed twice, which changes nothing.
                if opps.insert(board, r) == ChainInsert::Seen {
                    continue;
                }
                race = true;
                let k = board.chain_liberties(r, &mut libs);
                for &l in &libs[..k] {
                    if board.is_playout_candidate(l, color) && !board.is_self_atari(l, color) {
                        c.push(l);
                    }
                }
            }
        }
        if race {
            board.chain_liberties(q, &mut libs);
            for &l in &libs {
                if board.is_playout_candidate(l, color) && board.liberties_after(l, color, 4) >= 4 {
                    c.push(l);
                }
            }
        }
    }
}
