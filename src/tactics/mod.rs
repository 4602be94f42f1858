//! Tactical reading on the lean board: ladders.
//!
//! A ladder read answers one question: with the attacker to move, can a
//! chain with two liberties be captured by ataris alone? The attacker tries
//! both liberties; the defender answers each atari by extending or by
//! capturing an attacking chain in atari. A chain that reaches three
//! liberties escapes. Reading stops after [`LADDER_BUDGET`] plays, and an
//! unfinished read counts as an escape, so the reader never calls a chain
//! dead that it has not read out.
//!
//! Priors and playouts use it: extending a chain into a working ladder is
//! worthless, and an atari that starts a working ladder captures.
//!
//! [`reading`] answers the wider question GNU Go's `attack` and `defend`
//! ask (nets, snapbacks, counter-captures, kos), for GTP.

use std::cell::RefCell;

pub mod reading;

use crate::rules::{Board, Cell, ChainInsert, ChainSet, Color, Point};

/// Plays one ladder read may make before it gives up (and calls the chain
/// safe). A plain ladder across a 19x19 board takes about 40.
pub const LADDER_BUDGET: u32 = 200;

thread_local! {
    /// Scratch boards, one per ply, reused by every read on this thread.
    static STACK: RefCell<Vec<Board>> = const { RefCell::new(Vec::new()) };
}

/// The boards of one read: ply 0 is the board read from (borrowed, never
/// copied), deeper plies are the thread's scratch boards.
struct Plies<'a> {
    root: &'a Board,
    deeper: &'a mut Vec<Board>,
}

impl Plies<'_> {
    /// The board at `depth`.
    fn at(&self, depth: usize) -> &Board {
        match depth {
            0 => self.root,
            d => &self.deeper[d - 1],
        }
    }

    /// Copies ply `depth` to ply `depth + 1` (growing the scratch stack)
    /// and returns the copy. Copies are the bulk of a read's cost, so the
    /// board read from is not copied to ply 0 first.
    fn next(&mut self, depth: usize) -> &mut Board {
        if self.deeper.len() <= depth {
            let b = self.at(depth).clone();
            self.deeper.push(b);
        } else if depth == 0 {
            self.deeper[0].copy_from(self.root);
        } else {
            let (lo, hi) = self.deeper.split_at_mut(depth);
            hi[0].copy_from(&lo[depth - 1]);
        }
        &mut self.deeper[depth]
    }
}

/// Runs `f` on the plies of a read from `board`, with the thread's scratch
/// stack.
fn with_stack<T>(board: &Board, f: impl FnOnce(&mut Plies) -> T) -> T {
    STACK.with(|s| {
        let mut s = s.borrow_mut();
        f(&mut Plies {
            root: board,
            deeper: &mut s,
        })
    })
}

/// The tactical facts of one candidate move, read once per candidate and
/// shared by the priors and the learned features (the ladder reads are the
/// costly part).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveTactics {
    /// Stones captured (0 if none).
    pub captured: usize,
    /// The move touches an own chain in atari.
    pub escapes: bool,
    /// The move touches an opponent chain with two liberties.
    pub ataris: bool,
    /// The move leaves its own chain with one liberty.
    pub self_atari: bool,
    /// An escape that captures nothing runs into a working ladder
    /// ([`escape_fails`]); false when not read (no escape, or a capture).
    pub escape_fails: bool,
    /// An atari that is not a self-atari captures in a ladder
    /// ([`atari_captures`]); false when not read.
    pub atari_captures: bool,
}

impl MoveTactics {
    /// Reads the facts of `color` playing the legal move `p`.
    pub fn read(board: &Board, color: Color, p: Point) -> MoveTactics {
        let me = Cell::stone(color);
        let opp = Cell::stone(color.opponent());
        let mut t = MoveTactics::default();
        let mut seen = ChainSet::<4>::new();
        for q in board.neighbors(p) {
            let k = board.cell(q);
            if k == opp {
                match board.liberties(q) {
                    1 if seen.insert(board, q) == ChainInsert::New => {
                        t.captured += board.chain_len(q);
                    }
                    2 => t.ataris = true,
                    _ => {}
                }
            } else if k == me && board.liberties(q) == 1 {
                t.escapes = true;
            }
        }
        t.self_atari = board.is_self_atari(p, color);
        t.escape_fails = t.escapes && t.captured == 0 && escape_fails(board, color, p);
        t.atari_captures = t.ataris && !t.self_atari && atari_captures(board, color, p);
        t
    }
}

/// True if the chain through `chain` (two liberties, `atari` one of them)
/// escapes an atari at `atari` at once: extending at its other liberty
/// would give it three or more liberties (or capture). Such an atari is
/// pointless as a ladder. Counts without playing.
pub fn escapes_atari(board: &Board, chain: Point, atari: Point) -> bool {
    let Some(defender) = board.cell(chain).color() else {
        return true;
    };
    let mut libs = [Point(0); 2];
    if board.chain_liberties(chain, &mut libs) != 2 {
        return true;
    }
    let other = if libs[0] == atari { libs[1] } else { libs[0] };
    // `atari` is still empty here and counts as one of the four.
    board.liberties_after(other, defender, 4) >= 4
}

/// True if the opponent of the chain through `chain` (which has exactly two
/// liberties), moving next, captures it in a ladder.
pub fn captured_by_ladder(board: &Board, chain: Point) -> bool {
    ladder_atari(board, chain).is_some()
}

/// The atari with which the opponent of the chain through `chain` (which
/// has exactly two liberties), moving next, captures it in a ladder, if
/// one does.
pub fn ladder_atari(board: &Board, chain: Point) -> Option<Point> {
    board.cell(chain).color()?;
    if board.liberties(chain) != 2 {
        return None;
    }
    let mut budget = LADDER_BUDGET;
    with_stack(board, |s| attack(s, 0, chain, &mut budget))
}

/// True if `color` extending at `lib` (a liberty of an own chain in atari)
/// leads into a working ladder: the extended chain has two liberties and is
/// captured anyway, or it has at most one.
pub fn escape_fails(board: &Board, color: Color, lib: Point) -> bool {
    if !board.is_legal(lib, color) {
        return false;
    }
    match board.liberties_after(lib, color, 3) {
        0 | 1 => return true,
        2 => {}
        _ => return false,
    }
    let mut budget = LADDER_BUDGET;
    with_stack(board, |s| {
        let b = s.next(0);
        b.play_unchecked(lib, color);
        match b.liberties(lib) {
            0 | 1 => true,
            2 => attack(s, 1, lib, &mut budget).is_some(),
            _ => false,
        }
    })
}

/// True if `color` playing `p` puts an opponent chain with two liberties in
/// atari and that chain cannot escape the ladder.
pub fn atari_captures(board: &Board, color: Color, p: Point) -> bool {
    let opp = Cell::stone(color.opponent());
    let targets = board.neighbor_chains_where(p, |q| {
        board.cell(q) == opp && board.liberties(q) == 2 && !escapes_atari(board, q, p)
    });
    if targets.is_empty() || !board.is_legal(p, color) {
        return false;
    }
    let mut budget = LADDER_BUDGET;
    with_stack(board, |s| {
        s.next(0).play_unchecked(p, color);
        targets
            .stones()
            .iter()
            .any(|&t| s.at(1).liberties(t) == 1 && !defend(s, 1, t, &mut budget))
    })
}

/// Attacker to move on ply `depth`; the chain through `chain` has two
/// liberties. The atari that captures it, if one does.
fn attack(stack: &mut Plies, depth: usize, chain: Point, budget: &mut u32) -> Option<Point> {
    let board = stack.at(depth);
    let defender = board.cell(chain).color()?;
    let attacker = defender.opponent();
    let mut libs = [Point(0); 2];
    if board.chain_liberties(chain, &mut libs) != 2 {
        return None;
    }
    for lib in libs {
        if *budget == 0 {
            return None;
        }
        let board = stack.at(depth);
        if escapes_atari(board, chain, lib) || !board.is_legal(lib, attacker) {
            continue;
        }
        *budget -= 1;
        let b = stack.next(depth);
        b.play_unchecked(lib, attacker);
        if b.liberties(chain) == 1 && !defend(stack, depth + 1, chain, budget) {
            return Some(lib);
        }
    }
    None
}

/// Defender to move on ply `depth`; the chain through `chain` is in
/// atari. True if it escapes: by extending or by capturing an attacking
/// chain in atari, to three liberties, or to two from which no ladder
/// follows.
fn defend(stack: &mut Plies, depth: usize, chain: Point, budget: &mut u32) -> bool {
    let board = stack.at(depth);
    let Some(defender) = board.cell(chain).color() else {
        return false;
    };
    let attacker = Cell::stone(defender.opponent());
    // The extension, then captures of adjacent attacking chains in atari.
    let mut moves = [Point(0); 9];
    let mut n = 0;
    let mut lib = [Point(0); 1];
    board.chain_liberties(chain, &mut lib);
    moves[0] = lib[0];
    n += 1;
    for s in board.chain_stones(chain) {
        for q in board.neighbors(s) {
            if board.cell(q) == attacker && board.liberties(q) == 1 {
                board.chain_liberties(q, &mut lib);
                if !moves[..n].contains(&lib[0]) {
                    if n == moves.len() {
                        // More captures than the reader holds: as when
                        // the budget runs out, count it an escape.
                        return true;
                    }
                    moves[n] = lib[0];
                    n += 1;
                }
            }
        }
    }
    for (i, &m) in moves[..n].iter().enumerate() {
        if *budget == 0 {
            return true;
        }
        // The extension (the first move) to three liberties escapes at once.
        let board = stack.at(depth);
        if i == 0 && board.liberties_after(m, defender, 3) >= 3 && board.is_legal(m, defender) {
            return true;
        }
        if !board.is_legal(m, defender) {
            continue;
        }
        *budget -= 1;
        let b = stack.next(depth);
        b.play_unchecked(m, defender);
        match b.liberties(chain) {
            0 | 1 => continue,
            2 => {
                if attack(stack, depth + 1, chain, budget).is_none() {
                    return true;
                }
            }
            _ => return true,
        }
    }
    false
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::rules::Coord;

    /// A board from rows, top row first: `X` black, `O` white.
    pub(crate) fn board(rows: &[&str]) -> Board {
        let n = rows.len();
        let mut b = Board::new(n);
        for (i, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().filter(|c| !c.is_whitespace()).enumerate() {
                let c = Coord::new(x as u8, (n - 1 - i) as u8);
                match ch {
                    'X' => b.set_stone(c, Some(Color::Black)),
                    'O' => b.set_stone(c, Some(Color::White)),
                    _ => {}
                }
            }
        }
        b
    }

    fn at(b: &Board, x: u8, y_from_top: u8) -> Point {
        b.point(Coord::new(x, (b.size() - 1) as u8 - y_from_top))
    }

    /// White D5 with two liberties (E5, D4) against black C5, D6 and E4:
    /// the textbook ladder, running towards the lower left.
    const LADDER: [&str; 9] = [
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . X . . . . .",
        ". . X O . . . . .",
        ". . . . X . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
    ];

    fn with_row(row: usize, text: &'static str) -> [&'static str; 9] {
        let mut r = LADDER;
        r[row] = text;
        r
    }

    #[test]
    fn a_ladder_on_an_empty_board_works() {
        let b = board(&LADDER);
        let w = at(&b, 3, 4);
        assert_eq!(b.liberties(w), 2);
        assert!(captured_by_ladder(&b, w));
        // Black's atari from the right starts it; after it, White's
        // extension is worthless.
        let e5 = at(&b, 4, 4);
        assert!(atari_captures(&b, Color::Black, e5));
        let mut b2 = b.clone();
        b2.play(e5, Color::Black).unwrap();
        assert!(escape_fails(&b2, Color::White, at(&b, 3, 5)));
        // White to move instead extends to three liberties.
        assert!(!escape_fails(&b, Color::White, e5));
    }

    #[test]
    fn a_ladder_breaker_saves_the_chain() {
        // A white stone at B3 breaks the ladder towards the lower left, the
        // one Black's atari at E5 starts; Black still has the ladder towards
        // the upper right (atari at D4), until H8 breaks that one too.
        let b = board(&with_row(6, ". O . . . . . . ."));
        let w = at(&b, 3, 4);
        let e5 = at(&b, 4, 4);
        assert!(!atari_captures(&b, Color::Black, e5));
        let mut b2 = b.clone();
        b2.play(e5, Color::Black).unwrap();
        assert!(!escape_fails(&b2, Color::White, at(&b, 3, 5)));
        assert!(
            captured_by_ladder(&b, w),
            "the ladder towards the upper right works"
        );
        assert!(atari_captures(&b, Color::Black, at(&b, 3, 5)));
        let mut rows = with_row(6, ". O . . . . . . .");
        rows[1] = ". . . . . . . O .";
        let both = board(&rows);
        assert!(!captured_by_ladder(&both, w));
    }

    #[test]
    fn capturing_an_attacker_breaks_the_ladder() {
        // Black C5 is itself in atari (white B5 and C6): White answers an
        // atari by capturing it.
        let mut rows = LADDER;
        rows[3] = ". . O X . . . . .";
        rows[4] = ". O X O . . . . .";
        let b = board(&rows);
        let w = at(&b, 3, 4);
        assert_eq!(b.liberties(at(&b, 2, 4)), 1);
        assert!(!captured_by_ladder(&b, w));
    }

    #[test]
    fn non_chains_and_other_liberty_counts_are_not_ladders() {
        let b = board(&LADDER);
        assert!(!captured_by_ladder(&b, at(&b, 0, 0)));
        assert!(
            !captured_by_ladder(&b, at(&b, 3, 3)),
            "black D6 has four liberties"
        );
        assert!(!atari_captures(&b, Color::Black, at(&b, 8, 8)));
    }
}
