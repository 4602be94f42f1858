//! Stress test: thousands of random games played to the end through the
//! rules-aware `Game`, checking every invariant after every move:
//! incremental chains, liberties, empty list and hash against a
//! from-scratch recomputation, undo restoring the exact previous state,
//! superko never repeating a position, and the area score adding up.

use std::collections::HashSet;

use rand::{RngExt, SeedableRng, rngs::SmallRng};
use tengen::rules::{Color, Game, KoRule, Move, Rules};

/// Plays one random game; returns the number of moves.
fn random_game(size: usize, rules: Rules, rng: &mut SmallRng) -> usize {
    let mut game = Game::new(size, 7.5, rules).unwrap();
    let mut color = Color::Black;
    let mut seen = HashSet::new();
    seen.insert(game.board().hash());
    let cap = 4 * size * size;
    while !game.is_over() && game.move_count() < cap {
        let choices = game.non_eye_legal_points(color);
        // Occasionally pass even when moves are left.
        let mv = if choices.is_empty() || rng.random_range(0..50) == 0 {
            Move::Pass
        } else {
            Move::Play(choices[rng.random_range(0..choices.len())])
        };
        let before_hash = game.board().hash();
        let before_render = game.board().render();
        game.play(color, mv).unwrap();
        game.board().check_consistency().unwrap_or_else(|e| {
            panic!(
                "after {color} {mv} (move {}):\n{e}\n{before_render}",
                game.move_count()
            )
        });
        if rules.ko == KoRule::Positional && mv != Move::Pass {
            assert!(
                seen.insert(game.board().hash()),
                "positional superko repeated a position"
            );
        }
        // Undo and redo every few moves.
        if rng.random_range(0..8) == 0 {
            game.undo().unwrap();
            assert_eq!(game.board().hash(), before_hash);
            assert_eq!(game.board().render(), before_render);
            game.board().check_consistency().unwrap();
            game.play(color, mv).unwrap();
        }
        let (b, w) = game.board().area();
        assert!(b + w <= size * size);
        color = color.opponent();
    }
    game.move_count()
}

#[test]
fn thousands_of_random_games_keep_every_invariant() {
    let mut rng = SmallRng::seed_from_u64(2026);
    let rules = Rules::default();
    let mut moves = 0;
    let mut games = 0;
    for _ in 0..3000 {
        moves += random_game(9, rules, &mut rng);
        games += 1;
    }
    for size in [2, 3, 4, 5, 7] {
        for _ in 0..300 {
            moves += random_game(size, rules, &mut rng);
            games += 1;
        }
    }
    for _ in 0..60 {
        moves += random_game(19, rules, &mut rng);
        games += 1;
    }
    for _ in 0..5 {
        moves += random_game(25, rules, &mut rng);
        games += 1;
    }
    eprintln!("{games} random games, {moves} moves checked");
    assert!(games >= 4500);
}

#[test]
fn other_rule_sets_keep_every_invariant() {
    let mut rng = SmallRng::seed_from_u64(7);
    for ko in [KoRule::Simple, KoRule::Situational] {
        for allow_suicide in [false, true] {
            let rules = Rules { ko, allow_suicide };
            for _ in 0..300 {
                random_game(9, rules, &mut rng);
            }
            for _ in 0..300 {
                random_game(4, rules, &mut rng);
            }
        }
    }
}
