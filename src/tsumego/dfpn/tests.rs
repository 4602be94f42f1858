//! The children a node gets at expansion (forced moves, passes that the
//! opponent's pass decides at once) and results read across threat counts.

use super::*;
use crate::tsumego::tests::{eye_shape, legal_in_region};
use crate::weights::Weights;

impl Dfpn<'_> {
    /// The root's children with `to_move` to play: each move (`None` for
    /// the pass) and its winner when the position after it is decided.
    fn root_children(&mut self, to_move: Color) -> Vec<(Option<Point>, Option<Color>)> {
        let (kids, ..) = self.expand(0, to_move, false, None, self.regime.threats);
        kids.iter().map(|k| (k.mv, k.winner)).collect()
    }

    /// Puts `board` at `depth` of the path, with its region bit sets.
    fn set_board(&mut self, depth: usize, board: &Board) {
        self.boards[depth] = board.clone();
        self.masks[depth] = self.prob.masks(board);
    }
}

fn children(prob: &Problem, regime: Regime, to_move: Color) -> Vec<(Option<Point>, Option<Color>)> {
    let w = OrderWeights::new(&Weights::default());
    let limits = Limits::nodes(1_000);
    Dfpn::new(prob, &w, 1, regime, limits).root_children(to_move)
}

fn pt(b: &Board, s: &str) -> Point {
    match s.parse::<Move>() {
        Ok(Move::Play(c)) => b.point(c),
        other => panic!("{s}: {other:?}"),
    }
}

fn pass_of(kids: &[(Option<Point>, Option<Color>)]) -> Option<Color> {
    let passes: Vec<_> = kids.iter().filter(|k| k.0.is_none()).collect();
    assert_eq!(passes.len(), 1, "one pass among {kids:?}");
    passes[0].1
}

/// White (the defender) around a straight three, Black's wall outside: no
/// side has won yet.
fn straight_three() -> Problem {
    let (b, at) = eye_shape(9, &["C3", "D3", "E3"]);
    Problem::detect(&b, at, &[], 64).expect("closed problem")
}

#[test]
fn the_attackers_pass_loses_to_the_defenders_pass_in_the_plain_game() {
    let prob = straight_three();
    let (att, def) = (prob.attacker(), prob.defender);
    // Plain game: two passes leave the defender's chain standing, a win
    // for it, so the attacker's pass is decided; the defender's is not
    // (the attacker must then play, it may not pass back).
    assert_eq!(pass_of(&children(&prob, Regime::PLAIN, att)), Some(def));
    assert_eq!(pass_of(&children(&prob, Regime::PLAIN, def)), None);
    // The seki test: two passes are the attacker's win, so there it is the
    // defender's pass that is decided.
    assert_eq!(pass_of(&children(&prob, Regime::STRICT, def)), Some(att));
    assert_eq!(pass_of(&children(&prob, Regime::STRICT, att)), None);
    // The placements themselves are searched (the vital point decides).
    let moves = children(&prob, Regime::PLAIN, att);
    assert!(
        moves.iter().filter(|k| k.0.is_some()).count() >= 3,
        "{moves:?}"
    );
}

#[test]
fn a_crucial_chain_in_atari_leaves_its_liberty_and_the_pass() {
    // White's chain B4-C4-D4-D3-D2-D1 has one liberty, B3; Black's inner
    // chain C1-C3 has three. Any White move but B3 lets Black capture.
    let b = Board::from_diagram(
        9,
        &[
            "XXXXX....",
            "XOOOX....",
            "X.XOX....",
            "X.XOX....",
            "X.XOX....",
        ],
    )
    .unwrap();
    let at = pt(&b, "B4");
    let prob = Problem::detect(&b, at, &[], 64).expect("closed problem");
    assert_eq!(prob.defender, Color::White);
    let kids = children(&prob, Regime::PLAIN, Color::White);
    let moves: Vec<_> = kids.iter().map(|k| k.0).collect();
    let b3 = pt(&b, "B3");
    assert_eq!(moves.len(), 2, "{kids:?}");
    assert!(
        moves.contains(&Some(b3)) && moves.contains(&None),
        "{kids:?}"
    );
    // Black is not forced: it may play B1, B2 or B3 (B3 captures).
    let black = children(&prob, Regime::PLAIN, Color::Black);
    assert_eq!(
        black.iter().filter(|k| k.0.is_some()).count(),
        3,
        "{black:?}"
    );
}

#[test]
fn a_move_that_makes_another_crucial_chain_stand_is_not_forced_away() {
    // Two crucial chains: B4-C4 and the stone E2. Black has captured E2;
    // B4-C4 is in atari at B3. White's E2 makes the stone's chain stand
    // again, so Black's capture at B3 no longer ends the game: E2 must
    // stay among White's moves beside B3 and the pass (P2045090 of
    // GoTools' lv3.13 met such a position in the search).
    let start = Board::from_diagram(
        9,
        &[
            "XXXXXX...",
            "XOOX.X...",
            "X.X..X...",
            "X...OX...",
            "XXXXXX...",
        ],
    )
    .unwrap();
    let (b4, e2) = (pt(&start, "B4"), pt(&start, "E2"));
    let mut prob = Problem::detect_chains(&start, &[b4, e2], &[], 64).expect("closed problem");
    assert_eq!(prob.crucial.len(), 2);
    let captured = Board::from_diagram(
        9,
        &[
            "XXXXXX...",
            "XOOX.X...",
            "X.X..X...",
            "X....X...",
            "XXXXXX...",
        ],
    )
    .unwrap();
    prob.board = captured;
    let kids = children(&prob, Regime::PLAIN, Color::White);
    let moves: Vec<_> = kids.iter().map(|k| k.0).collect();
    let b3 = pt(&prob.board, "B3");
    assert_eq!(moves.len(), 3, "{kids:?}");
    for m in [Some(b3), Some(e2), None] {
        assert!(moves.contains(&m), "{m:?} missing from {kids:?}");
    }
}

#[test]
fn a_result_that_met_no_ko_settles_every_threat_count() {
    // The straight three has no ko: what the plain search proved holds
    // when the loser has five threats, read from the table at once.
    // (Without the static evaluation and the walled-in test, whose nakade
    // case ends the line at the vital point: either would see the kill at
    // once.)
    let prob = straight_three();
    let w = OrderWeights::new(&Weights::default());
    let limits = Limits::nodes(100_000);
    let run = |regime: Regime, table: TransTable| {
        let mut s = Dfpn::new(&prob, &w, 1, regime, limits)
            .with_table(table)
            .without_statics()
            .without_static_death();
        let p = s.solve(prob.attacker());
        (p.win, p.counters.nodes, s.take_table())
    };
    let (plain, plain_nodes, table) = run(Regime::PLAIN, TransTable::default());
    assert_eq!(plain, Some(true), "the attacker kills at the vital point");
    let five = Regime::threats_for(prob.defender, 5);
    let (fresh, fresh_nodes, _) = run(five, TransTable::default());
    let (kept, kept_nodes, _) = run(five, table);
    assert_eq!(fresh, Some(true));
    assert_eq!(kept, Some(true));
    assert!(
        plain_nodes > 1 && fresh_nodes > 1,
        "{plain_nodes} {fresh_nodes}"
    );
    assert_eq!(
        kept_nodes, 1,
        "the root's winning child is read from the table"
    );
}

/// The terminal test and the heuristic distances are cached by position
/// key: on positions reached by random play in generated problems, each
/// met twice (the second time from the cache) by a solver whose cache
/// holds the other positions of its problem's lines, the answers are those
/// of a fresh solver that never saw them. The terminal test, the
/// walled-in test and the distances on the region's bit sets (kept along
/// the path) also answer as they do on the board alone.
#[test]
fn the_cached_terminal_test_and_distances_match_a_fresh_computation() {
    use crate::tsumego::tests::generated;
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};
    let w = OrderWeights::new(&Weights::default());
    let limits = Limits::nodes(1_000);
    let mut rng = SmallRng::seed_from_u64(4242);
    let (mut compared, mut terminal, mut walled) = (0, 0, 0);
    for prob in generated(11, 40, 6, 14) {
        assert!(prob.bits.is_some(), "{}", prob.render());
        let mut plain = prob.clone();
        plain.bits = None;
        let mut long = Dfpn::new(&prob, &w, 1, Regime::PLAIN, limits);
        long.ensure_depth(1);
        // Two rounds over the same lines: the second reads the cache.
        let seed = rng.random_range(0..u64::MAX);
        for _round in 0..2 {
            let mut line = SmallRng::seed_from_u64(seed);
            let mut board = prob.board.clone();
            for ply in 0..24 {
                let color = if ply % 2 == 0 {
                    prob.attacker()
                } else {
                    prob.defender
                };
                let legal = legal_in_region(&prob, &board, color);
                if legal.is_empty() {
                    break;
                }
                let p = legal[line.random_range(0..legal.len())];
                if board.play(p, color).is_err() {
                    continue;
                }
                let mut fresh = Dfpn::new(&prob, &w, 1, Regime::PLAIN, limits);
                fresh.ensure_depth(1);
                fresh.set_board(1, &board);
                long.set_board(1, &board);
                // The same tests on the board alone, without bit sets.
                let mut walk = Dfpn::new(&plain, &w, 1, Regime::PLAIN, limits);
                walk.ensure_depth(1);
                walk.set_board(1, &board);
                let pass_first = line.random_range(0..2) == 0;
                if pass_first {
                    // The answer after two passes is never cached and
                    // must not leak into the one without.
                    assert_eq!(long.terminal(1, true), fresh.terminal(1, true));
                }
                let want = fresh.terminal(1, false);
                assert_eq!(walk.terminal(1, false), want, "bit sets");
                assert_eq!(walk.distances_of(1), fresh.distances_of(1), "bit sets");
                if fresh.closed_at(1) {
                    assert_eq!(walk.walled_in(1), fresh.walled_in(1), "bit sets");
                    walled += fresh.walled_in(1) as usize;
                }
                assert_eq!(long.terminal(1, false), want, "{}", {
                    let mut shown = prob.clone();
                    shown.board = board.clone();
                    shown.render()
                });
                assert_eq!(long.distances(1), fresh.distances_of(1));
                assert_eq!(long.terminal(1, true), fresh.terminal(1, true));
                compared += 1;
                terminal += want.is_some() as usize;
                if !prob.any_chain_on_board(&board) {
                    break;
                }
            }
        }
    }
    assert!(
        compared >= 300 && terminal >= 20 && walled >= 5,
        "{compared} positions compared, {terminal} terminal, {walled} walled in"
    );
}

/// The position cache grows by doubling without losing or moving apart
/// an entry (each lands in the slot its key maps to in the larger cache,
/// empty slots overwrite nothing), only once a quarter of its slots have
/// been taken since it last grew, and never past its cap.
#[test]
fn the_position_cache_keeps_every_entry_when_it_grows() {
    let prob = straight_three();
    let w = OrderWeights::new(&Weights::default());
    let mut d = Dfpn::new(&prob, &w, 1, Regime::PLAIN, Limits::nodes(1_000));
    let n = d.pos_cache.len();
    assert_eq!(n, POS_CACHE_MIN);
    // Every third slot stays empty; the others hold keys that map to
    // them, half of which move to the upper half of the grown cache.
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let mut want = Vec::new();
    for slot in 0..n {
        rng = zobrist::mix64(rng);
        if slot % 3 == 1 {
            continue;
        }
        let upper = if slot % 2 == 0 { 0 } else { n as u64 };
        let key = (rng & !(2 * n as u64 - 1)) | upper | slot as u64;
        let e = PosEntry {
            key,
            benson: 1 + (slot % 2) as u8,
            statics: [(slot % 5) as u8, 4],
            closed: 2,
            terminal: 1 + (slot % 3) as u8,
            distances: [(slot % 7) as u8 + 1, 3],
        };
        d.pos_cache[slot] = e;
        want.push(e);
    }
    d.pos_taken = n / 4 - 1;
    d.grow_pos_cache();
    assert_eq!(d.pos_cache.len(), n, "grown too early");
    d.pos_taken = n / 4;
    d.grow_pos_cache();
    assert_eq!(d.pos_cache.len(), 2 * n);
    assert_eq!(d.pos_taken, 0);
    let fields = |e: &PosEntry| {
        (
            e.key,
            e.benson,
            e.statics,
            e.closed,
            e.terminal,
            e.distances,
        )
    };
    for e in &want {
        let got = &d.pos_cache[(e.key as usize) & (2 * n - 1)];
        assert_eq!(fields(got), fields(e));
    }
    assert_eq!(
        d.pos_cache.iter().filter(|e| e.key != 0).count(),
        want.len()
    );
    // It stops at its cap.
    for _ in 0..8 {
        d.pos_taken = d.pos_cache.len();
        d.grow_pos_cache();
    }
    assert_eq!(d.pos_cache.len(), POS_CACHE_MAX);
    // The next search on this thread starts empty, at the smallest size,
    // in the memory this one leaves.
    d.pos_cache.iter_mut().for_each(|e| e.key |= 1);
    drop(d);
    let e = Dfpn::new(&prob, &w, 1, Regime::PLAIN, Limits::nodes(1_000));
    assert_eq!(e.pos_cache.len(), POS_CACHE_MIN);
    assert!(e.pos_cache.capacity() >= POS_CACHE_MAX);
    assert!(e.pos_cache.iter().all(|e| e.key == 0 && e.benson == 0));
}

#[test]
fn the_logarithm_table_gives_the_same_bits_as_computing_it() {
    for n in (0..5000).chain([u32::MAX - 1, u32::MAX]) {
        let direct = (f64::from(n) + 1.0).log2();
        assert_eq!(
            expand::log2_1p(n).to_bits(),
            direct.to_bits(),
            "log2(1 + {n})"
        );
    }
    // The table's edge, where it hands over to the computation.
    assert_eq!(expand::log2_1p(4095), 12.0);
}

/// The seki test reads the plain search's results from the shared table:
/// the attacker's wins, and the defender's wins whose proofs never rested
/// on two passes. On positions reached by random play in generated
/// problems of 8 to 16 points (592 comparisons, 58 of them seki, 246
/// steered by hints; reading the defender's wins that did rest on two
/// passes fails the test), wherever the plain search finds a life that
/// may be a seki, the seki test after it answers as a seki test with an
/// empty table (with and without the static evaluation, whose lives that
/// may be seki also count as resting on two passes), though the plain
/// search's lives that may be seki steer it as hints.
#[test]
fn the_seki_test_reading_the_plain_search_answers_as_a_fresh_one() {
    use crate::tsumego::tests::random_play_in;
    let w = OrderWeights::new(&Weights::default());
    let limits = Limits::nodes(20_000);
    // Compared, of them seki (the attacker wins the seki test), those
    // where the shared table saved nodes, and those where the plain
    // search's results steered the seki test as hints.
    let (mut compared, mut seki, mut saved, mut hinted) = (0, 0, 0, 0);
    random_play_in(2030, 400, 8, 16, |prob, b| {
        let mut at = prob.clone();
        at.board = b.clone();
        for statics in [true, false] {
            let search = |regime: Regime| {
                let s = Dfpn::new(&at, &w, 1, regime, limits);
                if statics { s } else { s.without_statics() }
            };
            for mover in [prob.attacker(), prob.defender] {
                let mut plain = search(Regime::PLAIN);
                let p = plain.solve(mover);
                let defender_lives = p.win.map(|win| win == (mover == prob.defender));
                if defender_lives != Some(true) || !p.passes {
                    continue;
                }
                let mut kept = search(Regime::STRICT).with_table(plain.take_table());
                let k = kept.solve(mover);
                let f = search(Regime::STRICT).solve(mover);
                let (Some(kw), Some(fw)) = (k.win, f.win) else {
                    continue;
                };
                assert_eq!(
                    kw,
                    fw,
                    "{mover:?} first, statics {statics}:\n{}",
                    b.render()
                );
                compared += 1;
                seki += (fw != (mover == prob.defender)) as usize;
                saved += (k.counters.nodes < f.counters.nodes) as usize;
                hinted += (k.counters.strict_hints > 0) as usize;
                assert_eq!(f.counters.strict_hints, 0);
            }
        }
    });
    assert!(
        compared >= 400 && seki >= 30 && saved >= 150 && hinted >= 100,
        "too few cases: {compared} compared, {seki} seki, {saved} with nodes saved, \
         {hinted} steered by hints"
    );
}

/// A search that starts from an earlier search's position cache and
/// local games' memos ([`Dfpn::with_static_cache`]) answers as a fresh
/// one, and evaluates fewer positions; a seki test does not take the
/// cache of a plain search (its rules differ) and runs as a fresh one.
/// (The eye spaces' verdicts are also cached for the whole process, so
/// the fresh searches run last, with that cache at least as full, and
/// the work they do is not compared where the cache is dropped.)
#[test]
fn a_search_that_takes_an_earlier_static_cache_answers_as_a_fresh_one() {
    use crate::tsumego::tests::random_play_in;
    let w = OrderWeights::new(&Weights::default());
    let limits = Limits::nodes(20_000);
    let (mut compared, mut saved) = (0, 0);
    random_play_in(2031, 300, 8, 16, |prob, b| {
        let mut at = prob.clone();
        at.board = b.clone();
        let search = |regime: Regime| Dfpn::new(&at, &w, 1, regime, limits);
        for mover in [prob.attacker(), prob.defender] {
            // The plain search is deterministic: each run leaves the same
            // cache.
            let plain_cache = || {
                let mut plain = search(Regime::PLAIN);
                plain.solve(mover);
                plain.take_static_cache()
            };
            for threats in [
                Regime::threats_for(mover, 1),
                Regime::threats_for(mover.opponent(), 2),
            ] {
                let k = search(threats)
                    .with_static_cache(plain_cache())
                    .solve(mover);
                let fresh = search(threats).solve(mover);
                if let (Some(kw), Some(fw)) = (k.win, fresh.win) {
                    assert_eq!(kw, fw, "{mover:?} first, {threats:?}:\n{}", b.render());
                    compared += 1;
                    saved += (k.counters.static_work < fresh.counters.static_work) as usize;
                }
            }
            // Another strictness: the cache is dropped.
            let dropped = search(Regime::STRICT)
                .with_static_cache(plain_cache())
                .solve(mover);
            let fresh = search(Regime::STRICT).solve(mover);
            let but_work = |c: Counters| Counters {
                static_work: 0,
                ..c
            };
            assert_eq!(
                but_work(dropped.counters),
                but_work(fresh.counters),
                "{mover:?} first:\n{}",
                b.render()
            );
            assert_eq!(dropped.win, fresh.win);
        }
    });
    assert!(
        compared >= 5_000 && saved >= 1_000,
        "too few cases: {compared} compared, {saved} with work saved"
    );
}
