//! Property tests: the incrementally kept state of the lean board (hash,
//! chains, liberties, empty points) always equals a recomputation from
//! scratch, after any sequence of legal moves, passes and setup stones; and
//! the Zobrist hash of a position does not depend on the path to it.

use proptest::prelude::*;
use tengen::rules::{Board, Color, Coord, Game, Move, Rules};

fn color_of(b: bool) -> Color {
    if b { Color::Black } else { Color::White }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Random (colour, point) attempts; illegal ones are skipped.
    #[test]
    fn incremental_state_matches_recomputation(
        size in 2usize..=13,
        suicide in any::<bool>(),
        moves in prop::collection::vec((any::<bool>(), 0u8..13, 0u8..13, 0u8..20), 0..400),
    ) {
        let mut b = Board::new(size);
        b.set_allow_suicide(suicide);
        for (black, x, y, kind) in moves {
            let color = color_of(black);
            let c = Coord::new(x % size as u8, y % size as u8);
            let p = b.point(c);
            if kind == 0 {
                b.pass();
            } else if kind == 1 {
                // A setup edit now and then, kept only if every chain still
                // has a liberty (a position that play could reach).
                let mut t = b.clone();
                t.set_stone(c, if black { Some(color) } else { None });
                if t.points().iter().all(|&q| t.cell(q).color().is_none() || t.liberties(q) > 0) {
                    b = t;
                }
            } else if b.is_legal(p, color) {
                let predicted = b.hash_after(p, color);
                b.play_unchecked(p, color);
                prop_assert_eq!(predicted, b.hash());
            } else {
                continue;
            }
            prop_assert_eq!(b.check_consistency(), Ok(()));
        }
    }

    /// The same final position reached by different move orders (no
    /// captures involved) has the same hash, equal to a board built by
    /// setup stones.
    #[test]
    fn hash_is_path_independent(
        points in prop::collection::btree_set((0u8..9, 0u8..9), 0..30),
        seed in any::<u64>(),
    ) {
        let pts: Vec<_> = points.into_iter().collect();
        let mut setup = Board::new(9);
        for (i, &(x, y)) in pts.iter().enumerate() {
            setup.set_stone(Coord::new(x, y), Some(color_of(i % 2 == 0)));
        }
        // Only positions where every chain keeps a liberty: then no order
        // of play captures or commits suicide (every part of a chain that
        // is on the board touches a liberty of the final chain or a point
        // still empty), so play must rebuild the setup exactly.
        prop_assume!(
            setup
                .points()
                .iter()
                .all(|&q| setup.cell(q).color().is_none() || setup.liberties(q) > 0)
        );
        let mut played = Board::new(9);
        // Colours alternate by position in the list; play order shuffled.
        let mut order: Vec<usize> = (0..pts.len()).collect();
        let mut s = seed;
        for i in (1..order.len()).rev() {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            order.swap(i, (s >> 33) as usize % (i + 1));
        }
        for &i in &order {
            let (x, y) = pts[i];
            let c = Coord::new(x, y);
            let color = color_of(i % 2 == 0);
            let p = played.point(c);
            prop_assert!(played.is_legal(p, color), "{} at {:?} is legal", color, (x, y));
            played.play_unchecked(p, color);
        }
        prop_assert_eq!(played.check_consistency(), Ok(()));
        prop_assert!(setup.points().iter().all(|&p| setup.cell(p) == played.cell(p)));
        prop_assert_eq!(setup.hash(), played.hash());
    }

    /// Game-level undo returns exactly to the earlier state.
    #[test]
    fn undo_is_exact(moves in prop::collection::vec((any::<bool>(), 0u8..9, 0u8..9), 1..120)) {
        let mut g = Game::new(9, 7.5, Rules::default()).unwrap();
        let mut states = vec![(g.board().hash(), g.board().render(), g.to_move())];
        for (black, x, y) in moves {
            let mv = Move::Play(Coord::new(x, y));
            if g.play(color_of(black), mv).is_ok() {
                states.push((g.board().hash(), g.board().render(), g.to_move()));
            }
        }
        states.pop();
        while let Some(state) = states.pop() {
            g.undo().unwrap();
            prop_assert_eq!((g.board().hash(), g.board().render(), g.to_move()), state);
            prop_assert_eq!(g.board().check_consistency(), Ok(()));
        }
        prop_assert!(g.undo().is_err());
    }
}
