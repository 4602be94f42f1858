//! Tests of the tsumego frame: open problems framed and solved.

use super::*;
use crate::tsumego::{OrderWeights, OwlResult, SideAnswer, SolveOptions, Status};

/// A 19x19 board with `rows` in its bottom-left corner, shifted `dx`
/// columns right (top row first; `X` black, `O` white).
fn board(rows: &[&str], dx: u8) -> Board {
    let mut b = Board::new(19);
    for (i, row) in rows.iter().enumerate() {
        let y = (rows.len() - 1 - i) as u8;
        for (x, ch) in row.chars().enumerate() {
            let c = match ch {
                'X' => Some(Color::Black),
                'O' => Some(Color::White),
                _ => None,
            };
            if c.is_some() {
                b.set_stone(Coord::new(x as u8 + dx, y), c);
            }
        }
    }
    b
}

fn solve(b: &Board, first: Color) -> (Problem, SideAnswer) {
    let w = OrderWeights::new(&crate::weights::Weights::default());
    let opts = SolveOptions {
        max_nodes: 200_000,
        ..SolveOptions::default()
    };
    solve_open(b, first, &w, opts).expect("framed")
}

fn key(a: &SideAnswer) -> Option<crate::rules::Move> {
    a.owl.result.filter(|r| r.succeeds()).and(a.owl.mv)
}

fn play(c: Coord) -> Option<crate::rules::Move> {
    Some(crate::rules::Move::Play(c))
}

/// White's corner group has one eye; two open points on its right
/// are its way out.
const ESCAPE: [&str; 4] = ["XX..", "OO..", ".OX.", ".OX."];

#[test]
fn a_corner_group_lives_by_escaping_and_the_frame_lets_it() {
    let b = board(&ESCAPE, 0);
    let (prob, a) = solve(&b, Color::White);
    assert_eq!(prob.defender, Color::White);
    assert!(prob.is_open());
    // The exits: right of C3 and C4, above C4.
    for c in [Coord::new(3, 3), Coord::new(3, 2), Coord::new(2, 4)] {
        assert!(prob.escape[b.point(c).idx()], "{c}");
    }
    assert!(!prob.escape[b.point(Coord::new(3, 1)).idx()]);
    assert_eq!(a.status, Status::Alive, "{:?}", a.owl);
    assert_eq!(key(&a), play(Coord::new(2, 2)));
    // Black to play closes the way out and kills.
    let (_, a) = solve(&b, Color::Black);
    assert_eq!(a.owl.result, Some(OwlResult::Succeeds));
    assert_eq!(a.status, Status::Dead);
}

#[test]
fn a_closed_way_out_leaves_the_group_dead() {
    let mut rows = ESCAPE;
    rows[0] = "XXX.";
    rows[1] = "OOX.";
    let b = board(&rows, 0);
    let (prob, a) = solve(&b, Color::White);
    assert_eq!(prob.defender, Color::White);
    // No exit: the frame closes the problem.
    assert!(!prob.is_open());
    assert_eq!(a.status, Status::Dead);
    assert_eq!(key(&a), None);
}

/// A straight three on the side: whoever plays its middle first wins.
const SIDE: [&str; 3] = ["XXXXXXX", "XOOOOOX", "XO...OX"];

#[test]
fn a_side_problem_for_either_side_to_play() {
    let b = board(&SIDE, 6);
    let (prob, a) = solve(&b, Color::White);
    assert_eq!(prob.defender, Color::White);
    assert_eq!(a.status, Status::Alive);
    assert_eq!(key(&a), play(Coord::new(9, 0)));
    let (_, a) = solve(&b, Color::Black);
    assert_eq!(a.status, Status::Dead);
    assert_eq!(key(&a), play(Coord::new(9, 0)));
}

#[test]
fn a_ko_problem_answers_ko() {
    // The rectangular six in the corner with one outside liberty (E1):
    // White lives by playing first; Black's attack makes a ko that
    // Black takes first.
    let rows = ["XXXXXX", "OOOOXX", "...OXX", "...O.X"];
    let b = board(&rows, 0);
    let (prob, a) = solve(&b, Color::White);
    assert_eq!(prob.defender, Color::White);
    assert_eq!(a.status, Status::Alive);
    let (_, a) = solve(&b, Color::Black);
    assert_eq!(
        a.status,
        Status::Ko(crate::tsumego::KoWin::TakenFirst),
        "{:?}",
        a.owl
    );
}

#[test]
fn a_group_in_a_game_is_framed_around_its_fight() {
    // The escaping corner group, with stones of a game elsewhere.
    let mut b = board(&ESCAPE, 0);
    for (x, y, c) in [
        (15, 15, Color::Black),
        (3, 15, Color::White),
        (15, 3, Color::Black),
    ] {
        b.set_stone(Coord::new(x, y), Some(c));
    }
    let at = b.point(Coord::new(1, 2));
    let prob = frame_group(&b, &[at]).unwrap();
    assert_eq!(prob.defender, Color::White);
    assert_eq!(prob.board.stone_at(Coord::new(15, 15)), None);
    assert_eq!(prob.board.stone_at(Coord::new(3, 15)), None);
    let w = OrderWeights::new(&crate::weights::Weights::default());
    let opts = SolveOptions::default();
    let defend = crate::tsumego::owl(&prob, &w, opts, crate::tsumego::Role::Defender);
    assert_eq!(defend.result, Some(OwlResult::Succeeds));
    assert_eq!(defend.mv, play(Coord::new(2, 2)));
    // Through the settings GTP uses: detection finds no closed region,
    // the frame takes over.
    let s = crate::tsumego::Settings::default();
    let via = s.problem(&b, &[Coord::new(1, 2)]).unwrap();
    assert_eq!(via.region, prob.region);
}

#[test]
fn the_frame_clears_the_outside_and_walls_the_open_sides() {
    let b = board(&SIDE, 6);
    let prob = frame_stones(&b).unwrap();
    // Rect x 6..12, y 0..2, less its top corners (wall stones that
    // touch nothing White reaches); the frame on x = 5 and 13 (y 0..1)
    // and on y = 3 (x 7..11); the corners stay, outside the region.
    assert_eq!(prob.region.len(), 7 * 3 - 2);
    assert!(!prob.is_open());
    for c in [Coord::new(6, 2), Coord::new(12, 2)] {
        assert!(!prob.in_region(b.point(c)), "{c}");
        assert_eq!(prob.board.stone_at(c), Some(Color::Black), "{c}");
    }
    for y in 0..2 {
        assert_eq!(prob.board.stone_at(Coord::new(5, y)), Some(Color::Black));
        assert_eq!(prob.board.stone_at(Coord::new(13, y)), Some(Color::Black));
    }
    for x in 7..12 {
        assert_eq!(prob.board.stone_at(Coord::new(x, 3)), Some(Color::Black));
    }
    for c in [Coord::new(5, 2), Coord::new(6, 3), Coord::new(5, 3)] {
        assert_eq!(prob.board.stone_at(c), None, "{c}");
    }
}

/// White's side group behind a loose black wall (one-point gaps at
/// H3, K3 and M3), with stones and empty space outside the wall.
const LOOSE: [&str; 5] = ["..X..X.", ".......", "X.X.X.X", "X.....X", "XOOOOOX"];

#[test]
fn the_space_beyond_a_loose_wall_is_the_frames() {
    let b = board(&LOOSE, 6);
    let prob = frame_stones(&b).unwrap();
    assert_eq!(prob.defender, Color::White);
    // The gaps in the wall are kept (White may push into them), the
    // points beyond are not, and no way out is left: a closed problem.
    let kept = |x, y| prob.in_region(b.point(Coord::new(x, y)));
    assert!(kept(7, 2) && kept(9, 2) && kept(11, 2));
    assert!(!kept(7, 3) && !kept(9, 3) && !kept(10, 4));
    assert!(!prob.is_open());
}

#[test]
fn a_weak_wall_chain_keeps_its_liberties() {
    // Black's B4 stone (three liberties) walls White in at the top;
    // its liberties A4, C4 and B5 lie beyond the wall, and the frame
    // keeps them empty (White may capture the stone).
    let rows = [".X...", "OOX..", ".OX..", ".OX.."];
    let b = board(&rows, 0);
    let prob = frame_stones_as(&b, Color::White).unwrap();
    let at = |x, y| b.point(Coord::new(x, y));
    assert_eq!(b.liberties(at(1, 3)), 3);
    for p in [at(0, 3), at(2, 3), at(1, 4)] {
        assert!(prob.in_region(p));
        assert_eq!(prob.board.cell(p), Cell::Empty);
    }
}

#[test]
fn a_sealed_framed_problem_uses_the_closed_region_tests() {
    // A framed problem with a way out (the escape group) is open; once
    // Black has closed it, the position is a closed problem and the
    // walled-in test applies.
    let b = board(&ESCAPE, 0);
    let prob = frame_stones_as(&b, Color::White).unwrap();
    assert!(prob.is_open());
    let w = OrderWeights::new(&crate::weights::Weights::default());
    let limits = crate::tsumego::Limits::nodes(1000);
    let regime = crate::tsumego::Regime::PLAIN;
    let mut d = crate::tsumego::dfpn::Dfpn::new(&prob, &w, 1, regime, limits);
    assert!(!d.walled_in_at_root());
    // Black closes C3 and C4 and joins its wall to the frame at D4:
    // White's group is left with A1 and A2, sealed in, and walled in.
    let mut sealed = prob.clone();
    for c in [Coord::new(2, 2), Coord::new(2, 3), Coord::new(3, 3)] {
        sealed.board.set_stone(c, Some(Color::Black));
    }
    let mut d = crate::tsumego::dfpn::Dfpn::new(&sealed, &w, 1, regime, limits);
    assert!(d.walled_in_at_root());
}

#[test]
fn boards_that_cannot_be_framed_say_why() {
    assert_eq!(
        frame_stones(&Board::new(19)).err(),
        Some(FrameError::NoStones)
    );
    let b = board(&["X"], 0);
    assert_eq!(
        frame_stones(&b).err(),
        Some(FrameError::OneColour(Color::Black))
    );
    let mut b = Board::new(19);
    b.set_stone(Coord::new(0, 0), Some(Color::Black));
    b.set_stone(Coord::new(18, 18), Some(Color::White));
    assert!(matches!(frame_stones(&b), Err(FrameError::TooLarge { .. })));
}

/// White's corner group inside Black's wall, which runs down the B column
/// and along the fifth line to a one-point gap at A5 on the edge. The
/// pocket A1-A4 touches the wall and White's side (A1, next to B1).
const POCKET: [&str; 6] = [
    "...X...", //
    ".XXXXXX", //
    ".XOOOOX", //
    ".XO.O.X", //
    ".XOOOOX", //
    "..O.O.X",
];

#[test]
fn the_outside_does_not_creep_round_a_wall_along_the_edge() {
    let b = board(&POCKET, 0);
    let prob = frame_stones(&b).unwrap();
    assert_eq!(prob.defender, Color::White);
    let at = |x, y| b.point(Coord::new(x, y));
    // The gap closes the wall: it is the frame's, and the pocket behind
    // it is kept, empty, as the diagram has it.
    assert!(!prob.in_region(at(0, 4)));
    assert_eq!(prob.board.cell(at(0, 4)), Cell::Black);
    for y in 0..4 {
        let p = at(0, y);
        assert!(prob.in_region(p), "{}", b.coord(p));
        assert_eq!(prob.board.cell(p), Cell::Empty, "{}", b.coord(p));
    }
    assert!(!prob.is_open());
}

#[test]
fn a_pocket_that_touches_only_the_wall_is_the_frames() {
    // Black's wall on the B column runs down to the edge; the A column
    // behind it touches nothing of White's side.
    let rows = [".XXXXX.", ".XOOOX.", ".XO.OX.", ".XOOOX.", ".X...X."];
    let b = board(&rows, 0);
    let prob = frame_stones(&b).unwrap();
    assert_eq!(prob.defender, Color::White);
    for y in 0..5 {
        let p = b.point(Coord::new(0, y));
        assert!(!prob.in_region(p), "{}", b.coord(p));
    }
    assert!(prob.in_region(b.point(Coord::new(3, 2))));
}
