//! Games of the engine against itself in process, at fixed playouts a
//! move: the tuner's match fitness and the book learner play them. No text
//! passes between the two engines; each keeps its own tree.

use std::sync::atomic::{AtomicBool, Ordering};

use super::{Engine, EngineConfig, Genmove, PlayOptions};
use crate::rules::{Color, Move, Rules};
use crate::search::SearchConfig;
use crate::weights::Weights;

/// Playouts behind the final score of an in-process game.
const STATUS_PLAYOUTS: usize = 64;

impl EngineConfig {
    /// An engine for in-process games: one thread, `playouts` a move, a
    /// 64 MiB tree kept between moves, no table.
    pub fn fixed_playouts(
        size: usize,
        komi: f64,
        rules: Rules,
        weights: Weights,
        playouts: u64,
        seed: u64,
    ) -> EngineConfig {
        EngineConfig {
            seed,
            size,
            komi,
            rules,
            status_playouts: STATUS_PLAYOUTS,
            weights,
            search: SearchConfig {
                threads: 1,
                max_tree_bytes: 64 << 20,
                seed,
                reuse: true,
            },
            play: PlayOptions {
                playouts: Some(playouts),
                status_playouts: STATUS_PLAYOUTS as u64,
                ..PlayOptions::default()
            },
            table: None,
            ..EngineConfig::default()
        }
    }
}

/// How an in-process game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// `None`: jigo.
    pub winner: Option<Color>,
    /// Moves of the whole game, passes included.
    pub moves: usize,
}

/// Plays on from the position both `players` hold (`players[0]` Black,
/// `players[1]` White), `to_move` to play, `moves` played so far, until
/// two passes in a row, a resignation or `limit` moves in all; the winner
/// of a game that ends on the board is the sign of `players[0]`'s final
/// score. An engine that cannot answer `genmove` loses, and so does the
/// mover whose move the other engine refuses. `None` when `stop` was set
/// before the game ended.
pub fn play_out(
    players: &mut [Engine; 2],
    mut to_move: Color,
    mut moves: usize,
    limit: usize,
    stop: &AtomicBool,
) -> Option<Played> {
    let mut passes = 0;
    while moves < limit {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let me = (to_move == Color::White) as usize;
        let mv = match players[me].genmove(to_move, true, false) {
            Ok(Genmove::Move(m)) => m,
            Ok(Genmove::Resign) | Err(_) => {
                return Some(Played {
                    winner: Some(to_move.opponent()),
                    moves,
                });
            }
        };
        moves += 1;
        if players[1 - me].play(to_move, mv).is_err() {
            return Some(Played {
                winner: Some(to_move),
                moves,
            });
        }
        passes = if mv == Move::Pass { passes + 1 } else { 0 };
        if passes >= 2 {
            break;
        }
        to_move = to_move.opponent();
    }
    let score = players[0].final_score();
    let winner = (score != 0.0).then_some(if score > 0.0 {
        Color::Black
    } else {
        Color::White
    });
    Some(Played { winner, moves })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn players(seed: u64) -> [Engine; 2] {
        let cfg =
            |s| EngineConfig::fixed_playouts(5, 0.5, Rules::default(), Weights::default(), 40, s);
        [
            Engine::new(cfg(seed)).unwrap(),
            Engine::new(cfg(seed ^ 1)).unwrap(),
        ]
    }

    #[test]
    fn a_game_ends_and_repeats_with_its_seed() {
        let go = AtomicBool::new(false);
        let a = play_out(&mut players(3), Color::Black, 0, 75, &go).unwrap();
        let b = play_out(&mut players(3), Color::Black, 0, 75, &go).unwrap();
        assert_eq!(a, b);
        assert!(a.moves > 0 && a.moves <= 75);
    }

    #[test]
    fn the_move_limit_counts_the_moves_already_played() {
        let go = AtomicBool::new(false);
        let p = play_out(&mut players(5), Color::Black, 70, 73, &go).unwrap();
        assert!(p.moves <= 73 && p.moves > 70, "{p:?}");
    }

    #[test]
    fn a_set_stop_ends_the_game_without_a_result() {
        let stop = AtomicBool::new(true);
        assert_eq!(play_out(&mut players(1), Color::Black, 0, 75, &stop), None);
    }
}
