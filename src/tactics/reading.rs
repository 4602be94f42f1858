//! String tactics: can the chain on a point be captured, or saved, by
//! local reading? The questions GNU Go's `attack` and `defend` answer.
//!
//! The reader is a depth-first search on the lean board. The attacker tries
//! the chain's liberties, the points next to them (nets) and the liberties
//! of its own chains next to the target that are in atari; the defender
//! tries captures of attacking chains in atari, its liberties, ataris on
//! attacking chains with two liberties and the points next to its
//! liberties. Self-ataris stay in (throw-ins and snapbacks need them),
//! except a defender move that leaves the chain in atari without a ko
//! capture. Near the root the move lists are wide; deeper they narrow to
//! ladders (see [`WIDE_PLIES`]).
//!
//! A chain escapes when it has more liberties than the attacker reads at
//! that ply: five within [`FOUR_LIBERTY_PLIES`], four within
//! [`WIDE_PLIES`], three deeper (GNU Go's reading has limits of this
//! kind). The attacker reads a chain of three or more liberties only
//! while the defender's move lists are wide, so that a narrow list never
//! loses a fight the defender would win. A line that runs out of plays
//! ([`READ_BUDGET`]) or plies ([`MAX_PLIES`]) counts for the defender, so
//! a capture the reader reports is read to the end against every defence
//! its lists hold (a defence outside them, such as a counter-atari away
//! from the chain, can still be missed), and a defence it gives may, in a
//! very long fight, be one the budget did not refute.
//!
//! Kos: simple ko holds on every line (the board's rule). A read runs in
//! regimes: first the side asking may not make a ko capture (the answer
//! needs no ko: GNU Go's code 1); then its opponent may not (the asker
//! wins the ko it takes first: code 2); then, when the board's ko forbids
//! the asker's move now, with that ban lifted (the asker needs one ko
//! threat first: code 3). Capturing the target by a ko capture is a ko
//! too, as GNU Go counts it: the defender may take back; a capture into a
//! snapback (the capturing stones left in atari, retaken at once) is no
//! capture at all.

use crate::rules::{Board, Cell, Color, Point};

/// Plays one regime of a read may make before it stops.
pub const READ_BUDGET: u32 = 50_000;

/// The deepest line read (a ladder across a 19x19 board takes about 40
/// plies).
pub const MAX_PLIES: usize = 100;

/// Plies within which a chain of four liberties is still attacked.
pub const FOUR_LIBERTY_PLIES: usize = 4;

/// Plies (from the position asked about) with the wide move lists (nets,
/// counter-ataris) and within which a chain of three liberties is still
/// attacked; deeper, only ladders (two liberties) are read, where
/// extending and capturing are all the defender needs.
pub const WIDE_PLIES: usize = 8;

/// The answer to one question, from the side asking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side asking cannot reach its goal.
    Fails,
    /// It reaches it without a ko.
    Succeeds,
    /// It reaches it by winning a ko it takes first.
    KoTakenFirst,
    /// It reaches it through a ko in which it needs a threat first.
    KoNeedsThreat,
}

impl Outcome {
    /// GNU Go's result code: 0 fails, 1 succeeds, 2 ko taken first, 3 ko
    /// needing a threat.
    pub fn code(self) -> u8 {
        match self {
            Outcome::Fails => 0,
            Outcome::Succeeds => 1,
            Outcome::KoTakenFirst => 2,
            Outcome::KoNeedsThreat => 3,
        }
    }
}

/// A read: the outcome and the move that reaches it (`None` when the
/// outcome is [`Outcome::Fails`], or when a defence needs no move because
/// the chain cannot be attacked).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    pub outcome: Outcome,
    pub mv: Option<Point>,
    /// Plays made over every regime.
    pub plays: u32,
}

/// Can the chain on `at` be captured, with its opponent to move? `None`
/// when `at` is empty.
pub fn attack(board: &Board, at: Point) -> Option<Reading> {
    let defender = board.cell(at).color()?;
    Some(in_regimes(board, at, defender.opponent(), 0, |r| {
        r.attack(0)
    }))
}

/// Can the chain on `at` be saved, with its own colour to move? A chain
/// that no attack captures, even one allowed every ko, needs no move: it
/// succeeds with `mv` `None` (GNU Go answers `PASS` for chains of five
/// liberties or more). `None` when `at` is empty.
pub fn defend(board: &Board, at: Point) -> Option<Reading> {
    let defender = board.cell(at).color()?;
    // Needs it a defence at all, against every attack, kos included?
    let threat = attack(board, at)?;
    if threat.outcome == Outcome::Fails {
        return Some(Reading {
            outcome: Outcome::Succeeds,
            mv: None,
            plays: threat.plays,
        });
    }
    Some(in_regimes(board, at, defender, threat.plays, |r| {
        r.defence_at_root()
    }))
}

/// Runs `read` for `asker` (the side to move) in the ko regimes of the
/// module's documentation, and names the first that reaches the goal.
/// `plays` is carried in from earlier reads.
fn in_regimes(
    board: &Board,
    at: Point,
    asker: Color,
    mut plays: u32,
    mut read: impl FnMut(&mut Reader) -> Option<Point>,
) -> Reading {
    let other = asker.opponent();
    let mut run = |b: &Board, banned: Color| {
        let mut r = Reader::new(b, at, banned);
        let mv = read(&mut r);
        plays += READ_BUDGET - r.budget;
        mv
    };
    let found = if let Some(m) = run(board, asker) {
        Some((Outcome::Succeeds, m))
    } else if let Some(m) = run(board, other) {
        Some((Outcome::KoTakenFirst, m))
    } else if board.ko().is_some_and(|k| k.color == asker) {
        let mut lifted = board.clone();
        lifted.pass();
        run(&lifted, other).map(|m| (Outcome::KoNeedsThreat, m))
    } else {
        None
    };
    match found {
        Some((outcome, m)) => Reading {
            outcome,
            mv: Some(m),
            plays,
        },
        None => Reading {
            outcome: Outcome::Fails,
            mv: None,
            plays,
        },
    }
}

/// One regime of one read: the boards of the line, the target, and the
/// colour barred from ko captures.
struct Reader {
    plies: Vec<Board>,
    target: Point,
    defender: Color,
    banned: Color,
    budget: u32,
}

impl Reader {
    fn new(board: &Board, target: Point, banned: Color) -> Reader {
        let defender = board.cell(target).color().expect("a stone at the target");
        Reader {
            plies: vec![board.clone()],
            target,
            defender,
            banned,
            budget: READ_BUDGET,
        }
    }

    fn attacker(&self) -> Color {
        self.defender.opponent()
    }

    /// Plays `color` at `p` on a copy of ply `d` into ply `d + 1`. False
    /// (and nothing counted) when the move is illegal, or a ko capture by
    /// the barred colour (even one that captures the target: the defender
    /// could take it back).
    fn child(&mut self, d: usize, p: Point, color: Color) -> bool {
        if self.budget == 0 || !self.plies[d].is_legal(p, color) {
            return false;
        }
        if self.plies.len() <= d + 1 {
            let b = self.plies[d].clone();
            self.plies.push(b);
        } else {
            let (lo, hi) = self.plies.split_at_mut(d + 1);
            hi[0].copy_from(&lo[d]);
        }
        let b = &mut self.plies[d + 1];
        b.play_unchecked(p, color);
        if color == self.banned && b.ko().is_some() {
            return false;
        }
        self.budget -= 1;
        true
    }

    /// The most liberties the attacker still reads at ply `d`.
    fn readable(d: usize) -> usize {
        match d {
            d if d < FOUR_LIBERTY_PLIES => 4,
            d if d < WIDE_PLIES => 3,
            _ => 2,
        }
    }

    /// Attacker to move at ply `d`: the move that captures the target or
    /// leaves it without a defence, if one does.
    fn attack(&mut self, d: usize) -> Option<Point> {
        let b = &self.plies[d];
        let libs = b.liberties(self.target);
        if d >= MAX_PLIES || self.budget == 0 || libs > Self::readable(d) {
            return None;
        }
        for m in attack_moves(b, self.target, d < WIDE_PLIES) {
            if !self.child(d, m, self.attacker()) {
                continue;
            }
            let b = &self.plies[d + 1];
            if b.cell(self.target) == Cell::Empty {
                // A capture into a snapback (the capturing chain left in
                // atari, the retake no ko) does not hold: not an attack,
                // as GNU Go counts it.
                if b.liberties(m) == 1 && b.ko().is_none() {
                    continue;
                }
                return Some(m);
            }
            if !self.defend(d + 1) {
                return Some(m);
            }
        }
        None
    }

    /// Defender to move at ply `d` (the target stands): true if it
    /// survives.
    fn defend(&mut self, d: usize) -> bool {
        let b = &self.plies[d];
        if d >= MAX_PLIES || self.budget == 0 || b.liberties(self.target) > Self::readable(d + 1) {
            return true;
        }
        // The defender answering the attacker's last wide move is wide too.
        for m in defence_moves(b, self.target, d <= WIDE_PLIES) {
            if self.defence_holds(d, m) {
                return true;
            }
        }
        // A read cut short by the budget counts for the defender.
        self.budget == 0
    }

    /// The defender's move at `m` on ply `d` leaves no attack.
    fn defence_holds(&mut self, d: usize, m: Point) -> bool {
        if !self.child(d, m, self.defender) {
            return false;
        }
        let b = &self.plies[d + 1];
        if b.liberties(self.target) == 1 && b.ko().is_none() {
            return false;
        }
        self.attack(d + 1).is_none()
    }

    /// Defender to move at the root: the move that saves the target.
    fn defence_at_root(&mut self) -> Option<Point> {
        let moves = defence_moves(&self.plies[0], self.target, true);
        moves.into_iter().find(|&m| self.defence_holds(0, m))
    }
}

/// Adds `p` to `v` unless it is there.
fn push(v: &mut Vec<Point>, p: Point) {
    if !v.contains(&p) {
        v.push(p);
    }
}

/// The liberties of the chain on `p`.
fn libs_of(b: &Board, p: Point) -> Vec<Point> {
    let mut out = vec![Point(0); b.liberties(p)];
    let n = b.chain_liberties(p, &mut out);
    out.truncate(n);
    out
}

/// The heads of the opposing chains next to the chain on `p`, once each.
fn opposing_chains(b: &Board, p: Point) -> Vec<Point> {
    let Some(color) = b.cell(p).color() else {
        return Vec::new();
    };
    let opp = Cell::stone(color.opponent());
    let mut heads = Vec::new();
    for s in b.chain_stones(p) {
        for q in b.neighbors(s) {
            if b.cell(q) == opp {
                push(&mut heads, b.chain_head(q));
            }
        }
    }
    heads
}

/// The empty points next to the liberties `libs` that are not liberties
/// themselves.
fn second_liberties(b: &Board, libs: &[Point]) -> Vec<Point> {
    let mut out = Vec::new();
    for &l in libs {
        for q in b.neighbors(l) {
            if b.cell(q) == Cell::Empty && !libs.contains(&q) {
                push(&mut out, q);
            }
        }
    }
    out
}

/// The attacker's candidates against the chain on `target`: its
/// liberties (the one the defender would gain most from first), then the
/// liberties of attacking chains in atari next to it, then, when `wide`,
/// the points next to its liberties.
fn attack_moves(b: &Board, target: Point, wide: bool) -> Vec<Point> {
    let defender = b.cell(target).color().expect("a stone at the target");
    let mut libs = libs_of(b, target);
    libs.sort_by_key(|&l| std::cmp::Reverse(b.liberties_after(l, defender, 4)));
    let mut moves = libs.clone();
    for h in opposing_chains(b, target) {
        if b.liberties(h) == 1 {
            for l in libs_of(b, h) {
                push(&mut moves, l);
            }
        }
    }
    if wide && libs.len() <= 3 {
        for q in second_liberties(b, &libs) {
            push(&mut moves, q);
        }
    }
    moves
}

/// The defender's candidates for the chain on `target`: captures of
/// attacking chains in atari, its liberties (the one giving most liberties
/// first), then, when `wide`, ataris on attacking chains with two
/// liberties and the points next to its liberties.
fn defence_moves(b: &Board, target: Point, wide: bool) -> Vec<Point> {
    let defender = b.cell(target).color().expect("a stone at the target");
    let mut moves = Vec::new();
    let chains = opposing_chains(b, target);
    for &h in &chains {
        if b.liberties(h) == 1 {
            for l in libs_of(b, h) {
                push(&mut moves, l);
            }
        }
    }
    let mut libs = libs_of(b, target);
    libs.sort_by_key(|&l| std::cmp::Reverse(b.liberties_after(l, defender, 4)));
    for &l in &libs {
        push(&mut moves, l);
    }
    if wide {
        for &h in &chains {
            if b.liberties(h) == 2 {
                for l in libs_of(b, h) {
                    push(&mut moves, l);
                }
            }
        }
        if libs.len() <= 2 {
            for q in second_liberties(b, &libs) {
                push(&mut moves, q);
            }
        }
    }
    moves
}

#[cfg(test)]
mod tests {
    //! Every position here was put to GNU Go 3.8 (`attack`/`defend`, by
    //! GTP): its codes are the ones asserted; where its move differs, both
    //! are named.
    use super::*;
    use crate::rules::Move;
    use crate::tactics::tests::board;

    /// A `size` board with the stones named as GTP names them.
    fn stones(size: usize, black: &[&str], white: &[&str]) -> Board {
        let mut b = Board::new(size);
        for (list, color) in [(black, Color::Black), (white, Color::White)] {
            for v in list {
                let p = pt(&b, v);
                b.set_stone(b.coord(p), Some(color));
            }
        }
        b
    }

    /// The point named as GTP names it (`"D5"`).
    fn pt(b: &Board, name: &str) -> Point {
        match name.parse::<Move>() {
            Ok(Move::Play(c)) => b.point(c),
            _ => panic!("{name} is not a vertex"),
        }
    }

    /// `code vertex` as GTP prints it.
    fn text(b: &Board, r: Reading) -> String {
        match (r.outcome.code(), r.mv) {
            (0, _) => "0".into(),
            (c, Some(p)) => format!("{c} {}", b.coord(p)),
            (c, None) => format!("{c} PASS"),
        }
    }

    fn ask(b: &Board, at: &str) -> (String, String) {
        let p = pt(b, at);
        (
            text(b, attack(b, p).expect("a stone")),
            text(b, defend(b, p).expect("a stone")),
        )
    }

    #[test]
    fn a_ladder_is_read_out_both_ways() {
        // White D5 against black C5, D6, E4: GNU Go answers `1 D4` twice.
        let b = stones(9, &["C5", "D6", "E4"], &["D5"]);
        assert_eq!(ask(&b, "D5"), ("1 D4".into(), "1 D4".into()));
    }

    #[test]
    fn ladder_breakers_save_the_chain() {
        // White K10 against K11, J10, L9: a ladder either way until white
        // D4 and Q16 break both. GNU Go: `1 K9`/`1 K9`, then `0`/`1 K9`
        // (it names a move even for a chain that needs none).
        let mut b = stones(19, &["K11", "J10", "L9"], &["K10"]);
        assert_eq!(ask(&b, "K10"), ("1 K9".into(), "1 K9".into()));
        for v in ["D4", "Q16"] {
            b.set_stone(b.coord(pt(&b, v)), Some(Color::White));
        }
        assert_eq!(ask(&b, "K10"), ("0".into(), "1 PASS".into()));
    }

    #[test]
    fn a_net_captures_off_the_liberties() {
        // White G7 (liberties G8, H7) against F7, G6, F9, J6: the net at
        // H8, as GNU Go answers; it defends at G8, we at H7.
        let b = stones(13, &["F7", "G6", "F9", "J6"], &["G7"]);
        let (a, d) = ask(&b, "G7");
        assert_eq!(a, "1 H8");
        assert!(d == "1 H7" || d == "1 G8", "{d}");
        // Without F9 the net fails and nothing else works (GNU Go: 0).
        let b = stones(13, &["F7", "G6", "J6"], &["G7"]);
        assert_eq!(ask(&b, "G7").0, "0");
    }

    #[test]
    fn capturing_a_cutting_stone_defends() {
        // White G7 in atari at G8, where it would have one liberty; it
        // lives by capturing H7 at H8 (GNU Go: `1 G8`, `1 H8`).
        let b = board(&[
            ". . . . . . . . . . . . .",
            ". . . . . . . . . . . . .",
            ". . . . . . . . . . . . .",
            ". . . . . . . . . . . . .",
            ". . . . . . X . . . . . .",
            ". . . . . X . . . . . . .",
            ". . . . . X O X O . . . .",
            ". . . . . . X O . . . . .",
            ". . . . . . . . . . . . .",
            ". . . . . . . . . . . . .",
            ". . . . . . . . . . . . .",
            ". . . . . . . . . . . . .",
            ". . . . . . . . . . . . .",
        ]);
        assert_eq!(ask(&b, "G7"), ("1 G8".into(), "1 H8".into()));
    }

    #[test]
    fn a_chain_on_the_edge_dies_in_the_first_line_ladder() {
        // White C2 in atari: capture at C1; extending there leaves two
        // liberties on the edge and no way out (GNU Go: `1 C1`, `0`).
        let e = ". . . . . . . . .";
        let b = board(&[
            e,
            e,
            e,
            e,
            e,
            e,
            ". . X . . . . . .",
            ". X O X . . . . .",
            e,
        ]);
        assert_eq!(ask(&b, "C2"), ("1 C1".into(), "0".into()));
    }

    #[test]
    fn a_snapback_captures() {
        // White A2-B2-C2-C1 (liberties A1, B1): black A1 (or B1) is taken
        // and retakes the lot (GNU Go: `1 A1`, `0`).
        let e = ". . . . . . . . .";
        let b = board(&[
            e,
            e,
            e,
            e,
            e,
            e,
            "X X X . . . . . .",
            "O O O X . . . . .",
            ". . O X . . . . .",
        ]);
        assert_eq!(ask(&b, "A2"), ("1 A1".into(), "0".into()));
    }

    #[test]
    fn a_capture_into_a_snapback_is_no_attack() {
        // Black D8 (one liberty, E8) taken at E8 leaves white's D7-E7-E8
        // chain with one liberty, D8, and black retakes four stones: no
        // attack (GNU Go: 0, position from a 9x9 game).
        let b = board(&[
            ". . O O X . . . .",
            ". . O X . X . . .",
            ". X X O O X X . .",
            "X O X O X O O . .",
            "X O X O X . X O .",
            ". O X X X O X O .",
            ". X O O . X . X O",
            ". O . O X . X . X",
            ". . . O O . O X .",
        ]);
        assert_eq!(b.liberties(pt(&b, "D8")), 1);
        assert_eq!(ask(&b, "D8").0, "0");
    }

    #[test]
    fn a_ko_capture_is_a_ko() {
        // Black C2 takes white B2 by a ko capture: GNU Go's `2 C2`. White
        // saves it by connecting at C2 (GNU Go captures at A1 instead).
        // After a ko capture the chain still needs a defence.
        let e = ". . . . . . . . .";
        let b = board(&[
            e,
            e,
            e,
            e,
            e,
            e,
            ". X O . . . . . .",
            "X O . O . . . . .",
            ". X O . . . . . .",
        ]);
        let (a, d) = ask(&b, "B2");
        assert_eq!(a, "2 C2");
        assert!(d == "1 C2" || d == "1 A1", "{d}");
        // When white has just taken the ko at B2, black may not take back
        // at once and needs a threat first: code 3.
        let mut b2 = b.clone();
        b2.set_stone(b.coord(pt(&b, "B2")), None);
        b2.set_stone(b.coord(pt(&b, "C2")), Some(Color::Black));
        b2.play(pt(&b, "B2"), Color::White).unwrap();
        assert_eq!(b2.ko().map(|k| k.color), Some(Color::Black));
        let (a, d) = ask(&b2, "B2");
        assert_eq!(a, "3 C2");
        // GNU Go captures at A1; filling the ko at C2 saves it too.
        assert!(d == "1 C2" || d == "1 A1", "{d}");
    }

    #[test]
    fn empty_points_give_none() {
        let b = stones(9, &["C5"], &["D5"]);
        assert_eq!(attack(&b, pt(&b, "A1")), None);
        assert_eq!(defend(&b, pt(&b, "A1")), None);
    }
}
