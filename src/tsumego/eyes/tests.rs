//! Tests of the static evaluation: keys, the eye table, the local games
//! against the solver, the verdicts.

use super::area::area_graph;
use super::*;
use crate::tsumego::region::Problem;

fn corner_key(pts: &[(u8, u8, u8)]) -> Key {
    canonical(KIND_AREA, pts, 19, true)
}

#[test]
fn a_corner_stone_in_atari_is_no_two_eyes() {
    // Top-left corner of the board: A19 the defender's stone, B19
    // empty, A18 the attacker's.
    let key = canonical(
        KIND_AREA,
        &[(0, 18, DEF), (1, 18, EMPTY), (0, 17, ATT)],
        19,
        true,
    );
    let (g, att, def) = area_graph(&key, false);
    eprintln!(
        "{key:?} {:?} {att:b} {def:b}",
        (0..g.n).map(|v| g.adj(v)).collect::<Vec<_>>()
    );
    let (v, _) = solve_area(&key);
    assert!(!v.two, "{v:?}");
}

#[test]
fn the_enumeration_counts_each_shape_once() {
    // Shapes up to the 8 symmetries, in the open, on an edge and in a
    // corner, with every content a position can hold.
    let counts: Vec<usize> = (1..=4).map(|n| all_area_keys(n).len()).collect();
    assert_eq!(counts, vec![3, 13, 74, 438]);
}

/// The local games of the eye table against the solver itself: every
/// eye space up to 4 points and every 7th of 5, set on a board
/// ([`realize`]), solved by df-pn without the static evaluation, the
/// attacker moving first, in the plain and the strict game.
#[test]
fn eye_space_games_agree_with_the_solver() {
    let w = crate::tsumego::order::OrderWeights::new(&crate::weights::Weights::default());
    let keys: Vec<Key> = all_area_keys(4)
        .into_iter()
        .chain(
            all_area_keys(5)
                .into_iter()
                .filter(|k| k.len() == 2 + 15)
                .step_by(7),
        )
        .collect();
    let refs: Vec<&Key> = keys.iter().collect();
    let (compared, disagree) = crate::pool::with_stack(|| check_against_search(&refs, &w));
    assert_eq!(disagree, 0);
    assert!(compared > 1000, "compared {compared}");
}

/// An eye space drawn top row first ('.' empty, 'x' the attacker's
/// stone, 'o' the defender's, anything else not in it), its lower
/// left point at (x0, y0) of a 19x19 board.
fn shape(rows: &[&str], x0: u8, y0: u8) -> Key {
    let h = rows.len();
    let mut pts = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        let y = y0 + (h - 1 - r) as u8;
        for (i, ch) in row.chars().enumerate() {
            let t = match ch {
                '.' => EMPTY,
                'x' => ATT,
                'o' => DEF,
                _ => continue,
            };
            pts.push((x0 + i as u8, y, t));
        }
    }
    canonical(KIND_AREA, &pts, 19, true)
}

/// The value of an eye space in the middle of the board.
fn open(rows: &[&str]) -> AreaValue {
    solve_area(&shape(rows, 8, 8)).0
}

const ONE_EYE: AreaValue = AreaValue {
    two: false,
    two_strict: false,
    one: true,
};
const TWO_EYES: AreaValue = AreaValue {
    two: true,
    two_strict: true,
    one: true,
};

#[test]
fn the_nakade_shapes_make_one_eye_and_the_others_two() {
    let dead: [(&str, &[&str]); 9] = [
        ("one point", &["."]),
        ("two points", &[".."]),
        ("straight three", &["..."]),
        ("bent three", &["..", ".#"]),
        ("square four", &["..", ".."]),
        ("pyramid four", &["...", "#.#"]),
        ("bulky five", &["...", "..#"]),
        ("crossed five", &["#.#", "...", "#.#"]),
        ("rabbity six", &["#.#", "...", "..#"]),
    ];
    for (name, rows) in dead {
        assert_eq!(open(rows), ONE_EYE, "{name}");
    }
    let alive: [(&str, &[&str]); 5] = [
        ("straight four", &["...."]),
        ("bent four", &["...", ".##"]),
        ("zigzag four", &["..#", "#.."]),
        ("straight five", &["....."]),
        ("rectangular six", &["...", "..."]),
    ];
    for (name, rows) in alive {
        assert_eq!(open(rows), TWO_EYES, "{name}");
    }
}

#[test]
fn a_filled_vital_point_is_still_dead() {
    let filled: [(&str, &[&str]); 5] = [
        ("straight three", &[".x."]),
        ("pyramid four", &[".x.", "#.#"]),
        ("bulky five", &[".x.", "..#"]),
        ("crossed five", &["#.#", ".x.", "#.#"]),
        ("rabbity six", &["#.#", ".x.", "..#"]),
    ];
    for (name, rows) in filled {
        assert_eq!(open(rows), ONE_EYE, "{name} with the vital point filled");
    }
    // A stone away from the vital point: the attacker, moving first,
    // takes the vital point as well.
    assert_eq!(
        open(&["...", "x.#"]),
        ONE_EYE,
        "bulky five, stone in a corner"
    );
}

#[test]
fn inner_stones_and_seki() {
    // Three inner stones and two shared liberties: seki (the chain
    // lives, the stones too); two stones: the attacker sacrifices a
    // third and leaves a straight three (see the whole-board tests
    // `seki_with_two_shared_liberties_and_three_inner_stones` and
    // `two_inner_stones_are_no_seki`).
    let seki = AreaValue {
        two: true,
        two_strict: false,
        one: true,
    };
    assert_eq!(solve_area(&shape(&[".xxx."], 0, 0)).0, seki);
    assert!(!solve_area(&shape(&[".xx."], 0, 0)).0.two);
}

#[test]
fn corner_shapes_that_live_in_the_open_do_not_live_in_the_corner() {
    // With no liberty outside the area: the bent four in the corner is
    // a ko (no clean value), and so is the rectangular six.
    for (name, rows) in [
        ("bent four", &[".#", ".#", ".."][..]),
        ("rectangular six", &["...", "..."][..]),
    ] {
        assert!(
            !solve_area(&shape(rows, 0, 0)).0.two,
            "{name} in the corner"
        );
    }
    assert!(open(&["...", "..."]).two_strict);
    assert!(
        solve_area(&shape(&["...."], 0, 0)).0.two_strict,
        "straight four on the edge"
    );
}

#[test]
fn keys_are_the_same_under_the_eight_symmetries() {
    let rows = ["x..", "..#", "o##"];
    let mut pts = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        for (i, ch) in row.chars().enumerate() {
            let t = match ch {
                '.' => EMPTY,
                'x' => ATT,
                'o' => DEF,
                _ => continue,
            };
            pts.push((i as i16, (2 - r) as i16, t));
        }
    }
    let place = |f: &dyn Fn(i16, i16) -> (i16, i16), dx: i16, dy: i16| -> Key {
        let p: Vec<(u8, u8, u8)> = pts
            .iter()
            .map(|&(x, y, t)| {
                let (a, b) = f(x, y);
                ((a + dx) as u8, (b + dy) as u8, t)
            })
            .collect();
        canonical(KIND_AREA, &p, 19, true)
    };
    let id = |x: i16, y: i16| (x, y);
    let base = place(&id, 7, 7);
    let images: [&dyn Fn(i16, i16) -> (i16, i16); 8] = [
        &|x, y| (x, y),
        &|x, y| (-x, y),
        &|x, y| (x, -y),
        &|x, y| (-x, -y),
        &|x, y| (y, x),
        &|x, y| (-y, x),
        &|x, y| (y, -x),
        &|x, y| (-y, -x),
    ];
    for (i, f) in images.iter().enumerate() {
        for (dx, dy) in [(5, 5), (9, 12), (12, 6)] {
            assert_eq!(place(f, dx, dy), base, "image {i} at +{dx}+{dy}");
        }
    }
    // On the edge or in a corner, the shape is another key.
    let edge = place(&id, 0, 7);
    let corner = place(&id, 0, 0);
    assert_ne!(edge, base);
    assert_ne!(corner, base);
    assert_ne!(corner, edge);
    // ... and the same key in each of the four corners, turned to fit.
    assert_eq!(place(&|x, y| (-x, y), 18, 0), corner);
    assert_eq!(place(&|x, y| (-x, -y), 18, 18), corner);
    assert_eq!(place(&|x, y| (x, -y), 0, 18), corner);
}

#[test]
fn the_table_text_reads_back() {
    let keys = all_area_keys(4);
    let values: Vec<AreaValue> = keys.iter().map(|k| solve_area(k).0).collect();
    let text = table_text(4, &keys, &values);
    let t = parse_table(&text).unwrap();
    assert_eq!(t.max_points, 4);
    assert_eq!(t.entries.len(), keys.len());
    for ((k, v), (k2, v2)) in keys.iter().zip(&values).zip(&t.entries) {
        assert_eq!((k, v), (k2, v2), "{}", key_text(k));
    }
    let w = crate::tsumego::order::OrderWeights::new(&crate::weights::Weights::default());
    assert!(verify_table(&t, 0, &w).ok());
    // A wrong value, a missing entry, a line that is no entry.
    let mut lines: Vec<&str> = text.lines().collect();
    let flipped = lines[6].replace(" 0 0 1", " 1 1 1");
    lines[6] = &flipped;
    let bad = parse_table(&lines.join("\n")).unwrap();
    let c = verify_table(&bad, 0, &w);
    assert_eq!((c.wrong.len(), c.missing, c.extra), (1, 0, 0), "{c:?}");
    let short = parse_table(&lines[..lines.len() - 1].join("\n")).unwrap();
    assert_eq!(verify_table(&short, 0, &w).missing, 1);
    lines.push("- 2x2 .?|.. 0 0 1");
    let err = parse_table(&lines.join("\n")).unwrap_err();
    assert!(matches!(err, TableError::Entry { .. }), "{err}");
    assert!(err.to_string().contains(".?|.."), "{err}");
    assert!(
        parse_table("hello")
            .unwrap_err()
            .to_string()
            .contains("line 1")
    );
    assert!(matches!(
        parse_table("# nothing\n"),
        Err(TableError::NoHeader)
    ));
    let huge = text.replacen("of 1 to 4 points", "of 1 to 40 points", 1);
    assert!(matches!(
        parse_table(&huge),
        Err(TableError::Header { line: 1 })
    ));
    let v2 = text.replacen("eye table 1:", "eye table 2:", 1);
    assert!(matches!(parse_table(&v2), Err(TableError::Version { .. })));
}

/// A crossed five and a one-point eye: Benson's test does not see the
/// life (the crossed five's centre is no liberty of the chain), the
/// eye-space rule does (two areas that each make one eye).
#[test]
fn two_one_eye_areas_live_where_benson_does_not() {
    use crate::tsumego::tests::eye_shape;
    let (b, at) = eye_shape(9, &["D4", "C4", "E4", "D3", "D5", "G4"]);
    let prob = Problem::detect(&b, at, &[], 64).unwrap();
    let mut be = crate::tsumego::benson::Benson::default();
    assert!(!be.alive(&prob, &b, at), "{}", prob.render());
    let mut st = Statics::default();
    assert_eq!(st.lives(&prob, &b, false), Some(false), "alive, maybe seki");
    assert_eq!(
        st.lives(&prob, &b, true),
        None,
        "no strict rule for two ones"
    );
    // Without the one-point eye: the crossed five alone is dead.
    let (b, at) = eye_shape(9, &["D4", "C4", "E4", "D3", "D5"]);
    let prob = Problem::detect(&b, at, &[], 64).unwrap();
    assert_eq!(st.lives(&prob, &b, false), None);
    let v = st.verdict(&prob, &b, prob.attacker(), false, true, Known::default());
    assert_eq!(
        v.map(|v| v.winner),
        Some(prob.attacker()),
        "one-chain game: dead"
    );
    let v = st.verdict(&prob, &b, prob.defender, false, true, Known::default());
    assert_eq!(
        v.map(|v| v.winner),
        Some(prob.defender),
        "the defender takes the centre"
    );
}

/// An eye space larger than the rule reads, met from several of the
/// chain's liberties: the flood from the first stops at the size limit,
/// and a later flood from another liberty must not take the unvisited
/// rest for a small area of its own (it meets the first flood's points
/// and stops): no verdict.
#[test]
fn a_large_eye_space_seen_from_several_liberties_gives_no_verdict() {
    use crate::tsumego::tests::eye_shape;
    let strips: [&[&str]; 3] = [
        &[
            "A1", "B1", "C1", "D1", "E1", "F1", "A2", "B2", "C2", "D2", "E2", "F2",
        ],
        &[
            "B1", "C1", "D1", "E1", "F1", "G1", "H1", "J1", "K1", "L1", "M1", "N1", "O1", "P1",
        ],
        &[
            "A1", "B1", "C1", "D1", "E1", "F1", "G1", "H1", "J1", "K1", "A2", "B2", "C2", "D2",
            "E2", "F2", "G2", "H2", "J2", "K2",
        ],
    ];
    for strip in strips {
        let (b, at) = eye_shape(19, strip);
        let prob = Problem::detect(&b, at, &[], 64).unwrap();
        let mut st = Statics::default();
        assert_eq!(st.lives(&prob, &b, false), None, "{}", prob.render());
        assert_eq!(st.lives(&prob, &b, true), None, "{}", prob.render());
    }
}

#[test]
fn square_four_in_the_corner_is_no_two_eyes() {
    let key = corner_key(&[(0, 0, EMPTY), (1, 0, EMPTY), (0, 1, EMPTY), (1, 1, EMPTY)]);
    let (g, att, def) = area_graph(&key, false);
    eprintln!("{key:?} {g:?} {att:b} {def:b}");
    let (v, _) = solve_area(&key);
    assert!(!v.two, "{v:?}");
}

/// The winner by df-pn without the static evaluation, `first` to move.
fn searched_winner(prob: &Problem, first: crate::rules::Color) -> crate::rules::Color {
    use crate::tsumego::{Limits, Regime, dfpn::Dfpn};
    let w = crate::tsumego::order::OrderWeights::new(&crate::weights::Weights::default());
    let limits = Limits::nodes(1_000_000);
    let win = crate::pool::with_stack(|| {
        Dfpn::new(prob, &w, 1, Regime::PLAIN, limits)
            .without_statics()
            .solve(first)
            .win
    })
    .expect("small problems settle");
    if win { first } else { first.opponent() }
}

/// The region game's verdict with `first` to move, checked against the
/// search without the static evaluation. A game adds at most
/// [`REGION_LIMIT`] positions to the memo of its search, so the verdict
/// is asked again as a search would ask it at other positions, at most 30
/// times.
fn region_verdict(prob: &Problem, first: crate::rules::Color) -> crate::rules::Color {
    let mut st = Statics::default();
    let v = (0..30)
        .find_map(|_| st.verdict(prob, &prob.board, first, false, true, Known::default()))
        .unwrap_or_else(|| panic!("no verdict, {first:?} first\n{}", prob.render()));
    assert!(
        st.by_region_game(),
        "decided by {}, not the region game\n{}",
        st.why(),
        prob.render()
    );
    assert_eq!(
        v.winner,
        searched_winner(prob, first),
        "{first:?} first\n{}",
        prob.render()
    );
    v.winner
}

fn diagram_problem(rows: &[&str], crucial: &[&str]) -> Problem {
    let b = crate::rules::Board::from_diagram(9, rows).unwrap();
    let at: Vec<_> = crucial
        .iter()
        .map(|s| match s.parse::<crate::rules::Move>().unwrap() {
            crate::rules::Move::Play(c) => b.point(c),
            crate::rules::Move::Pass => unreachable!(),
        })
        .collect();
    Problem::detect_chains(&b, &at, &[], 40).unwrap()
}

/// The region game keeps to the bounds its weights give: below the
/// game's vertices, or at 0, the position that the default bounds decide
/// (the miai below) gets no verdict. The built-in bounds are the weights'
/// defaults, so the tests that build `Statics::default()` test what the
/// solver runs.
#[test]
fn the_region_game_keeps_to_its_weights() {
    let w = crate::tsumego::order::OrderWeights::new(&crate::weights::Weights::default());
    assert_eq!(w.region, RegionCaps::default());
    let prob = diagram_problem(
        &[
            "X X X X X X X X X",
            "O O O . O O O O X",
            ". . O . O . . O X",
        ],
        &["A2"],
    );
    for vertices in [0, 5] {
        let mut st = Statics::with_region_caps(RegionCaps {
            vertices,
            positions: REGION_LIMIT,
        });
        for _ in 0..30 {
            let v = st.verdict(
                &prob,
                &prob.board,
                prob.attacker(),
                false,
                true,
                Known::default(),
            );
            assert_eq!(v, None, "cap {vertices}");
        }
    }
    assert_eq!(region_verdict(&prob, prob.attacker()), prob.defender);
}

/// Two White chains, each with one eye, joined at D1 or D2 (miai): no
/// eye-space or one-chain rule applies, the region game sees the life.
#[test]
fn two_chains_that_connect_by_miai_live() {
    let prob = diagram_problem(
        &[
            "X X X X X X X X X",
            "O O O . O O O O X",
            ". . O . O . . O X",
        ],
        &["A2"],
    );
    let mut st = Statics::default();
    assert_eq!(st.lives(&prob, &prob.board, false), None);
    for first in [prob.attacker(), prob.defender] {
        assert_eq!(region_verdict(&prob, first), prob.defender, "{first:?}");
    }
}

/// The same with no eye on the right: White lives only by playing D2
/// first (D1 becomes the second eye); Black D2 kills.
#[test]
fn two_chains_with_one_eye_between_them_live_or_die_by_the_move() {
    let prob = diagram_problem(
        &[
            "X X X X X X X . .",
            "O O O . O X . . .",
            ". . O . O X . . .",
        ],
        &["A2"],
    );
    assert_eq!(region_verdict(&prob, prob.attacker()), prob.attacker());
    assert_eq!(region_verdict(&prob, prob.defender), prob.defender);
}

/// A captured chain leaves its points empty for either side: White's
/// E1-E2 chain has one liberty, D1. Black D1 takes it (the stone joins
/// the wall through D2) and White keeps one eye; White D1 joins it to
/// the left chain, which Black then kills in the corner.
#[test]
fn a_capture_reopens_its_points() {
    let prob = diagram_problem(
        &[
            "X X X X X X X . .",
            "O O O X O X . . .",
            ". . O . O X . . .",
        ],
        &["A2"],
    );
    for first in [prob.attacker(), prob.defender] {
        assert_eq!(region_verdict(&prob, first), prob.attacker(), "{first:?}");
    }
}

/// A crucial chain with a point under a safe attacker stone can never
/// stand again: the region game leaves it out and plays for the others,
/// and when none is left the attacker has won.
#[test]
fn a_crucial_chain_under_a_safe_stone_is_left_out() {
    let rows = [
        "X X X X X X X X X",
        "O O O . O O O O X",
        ". . O . O . . O X",
    ];
    let mut prob = diagram_problem(&rows, &["A2", "E2"]);
    // Black has taken the right chain and filled E1, E2-H2 and H1, joined
    // to the wall; a White stone stands at G1. The left chain has one eye
    // (D1 and D2 touch the wall) and dies whoever moves first.
    let after = [
        "X X X X X X X X X",
        "O O O . X X X X X",
        ". . O . X . O X X",
    ];
    prob.board = crate::rules::Board::from_diagram(9, &after).unwrap();
    for first in [prob.attacker(), prob.defender] {
        assert_eq!(region_verdict(&prob, first), prob.attacker(), "{first:?}");
    }
    // With only the lost chain crucial, nothing is left to save.
    let mut lost = diagram_problem(&rows, &["E2"]);
    lost.board = prob.board.clone();
    let mut st = Statics::default();
    let v = st.verdict(
        &lost,
        &lost.board,
        lost.defender,
        false,
        true,
        Known::default(),
    );
    assert_eq!(v.map(|v| v.winner), Some(lost.attacker()));
    assert!(st.by_region_game());
}

/// Below a position where the eye-space rule gives no verdict, a stone of
/// either side that captures nothing leaves it without one unless the
/// stone lies in an area the rule values, or is a defender stone that
/// joined a crucial chain (`fill_keeps_no_area_verdict`, which lets the
/// solver skip the rule): checked against the rule itself after every
/// such move in random-play positions.
#[test]
fn a_fill_outside_valued_areas_gives_no_eye_space_verdict() {
    use crate::tsumego::tests::{legal_in_region, random_play};
    let mut st = Statics::default();
    // Per side (attacker, defender): skipped, looked at, with a verdict.
    let mut counts = [[0usize; 3]; 2];
    random_play(2028, 1000, |prob, b| {
        for strict in [false, true] {
            if st.lives(prob, b, strict).is_some() {
                continue;
            }
            for (side, color) in [prob.attacker(), prob.defender].into_iter().enumerate() {
                for p in legal_in_region(prob, b, color) {
                    let mut child = b.clone();
                    if child.play(p, color).is_err() || child.num_empty() + 1 != b.num_empty() {
                        continue;
                    }
                    let verdict = st.lives(prob, &child, strict);
                    if st.fill_keeps_no_area_verdict(prob, &child, p) {
                        assert_eq!(verdict, None, "after {color:?} {p:?}:\n{}", child.render());
                        counts[side][0] += 1;
                    } else {
                        counts[side][1] += 1;
                        counts[side][2] += verdict.is_some() as usize;
                    }
                }
            }
        }
    });
    // A few fills do give the rule a verdict (the last count): the check
    // must see them.
    for [skipped, looked, gained] in counts {
        assert!(
            skipped >= 5000 && looked >= 100 && gained >= 1,
            "too few cases: {counts:?} (skipped, looked at, with a verdict; attacker, defender)"
        );
    }
}

/// The region games keep the memos of the last graphs of a search: in
/// random play, where attacker stones join the wall and leave it as
/// positions change, one long-lived `Statics` gets its region-game
/// verdicts from several graphs, and each agrees with the search without
/// the static evaluation.
#[test]
fn region_games_on_several_graphs_agree_with_the_search() {
    use crate::tsumego::tests::random_play;
    let mut st = Statics::default();
    // One `Statics` per problem, as one serves one search.
    let mut problem = None;
    let (mut checked, mut most_graphs) = (0, 0);
    random_play(2029, 300, |prob, b| {
        if problem != Some(prob.board.hash()) {
            problem = Some(prob.board.hash());
            st = Statics::default();
        }
        if b.ko().is_some() {
            return;
        }
        for to_move in [prob.attacker(), prob.defender] {
            let Some(v) = st.verdict(prob, b, to_move, false, true, Known::default()) else {
                continue;
            };
            most_graphs = most_graphs.max(st.region_graphs());
            if !st.by_region_game() {
                continue;
            }
            let mut sub = prob.clone();
            sub.board = b.clone();
            assert_eq!(
                v.winner,
                searched_winner(&sub, to_move),
                "{to_move:?} to move\n{}",
                sub.render()
            );
            checked += 1;
        }
    });
    assert!(
        checked >= 50 && most_graphs >= 2,
        "too few cases: {checked} region verdicts, at most {most_graphs} graphs kept"
    );
}

/// The eye-space rule floods its areas on the region's bit sets
/// (`RegionBits`); on positions reached by random play it must answer as
/// the floods on the board do (the same problem without bit sets), in
/// both regimes, and so must the skip after a stone.
#[test]
fn area_floods_on_bit_sets_agree_with_floods_on_the_board() {
    use crate::tsumego::tests::random_play_in;
    let (mut fast, mut slow) = (Statics::default(), Statics::default());
    let (mut verdicts, mut skips, mut floods) = (0, 0, 0);
    // Regions of up to 20 points, so that some areas reach the size limit.
    random_play_in(2027, 600, 8, 20, |prob, b| {
        assert!(prob.bits.is_some(), "{}", prob.render());
        let mut plain = prob.clone();
        plain.bits = None;
        for strict in [false, true] {
            let v = fast.lives(prob, b, strict);
            assert_eq!(v, slow.lives(&plain, b, strict), "{}", b.render());
            verdicts += v.is_some() as usize;
        }
        for &p in &prob.region {
            if b.cell(p) != crate::rules::Cell::Empty {
                let k = fast.fill_keeps_no_area_verdict(prob, b, p);
                assert_eq!(
                    k,
                    slow.fill_keeps_no_area_verdict(&plain, b, p),
                    "the skip after {}:\n{}",
                    b.coord(p),
                    b.render()
                );
                floods += 1;
                skips += k as usize;
            }
        }
    });
    assert!(
        verdicts >= 100 && skips >= 1000 && floods - skips >= 1000,
        "too few cases: {verdicts} verdicts, {skips} skips of {floods}"
    );
}
