//! The `random` engine: a uniformly random legal move (full rules,
//! superko included) that never fills the mover's own true eye; a pass when
//! nothing else is left. It never resigns.

use rand::{RngExt, SeedableRng, rngs::SmallRng};

use super::{Genmove, GenmoveRequest, Player};
use crate::rules::Move;

pub struct RandomPlayer {
    rng: SmallRng,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: SmallRng::seed_from_u64(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> &'static str {
        "random"
    }

    fn genmove(&mut self, req: &mut GenmoveRequest<'_>) -> Genmove {
        let candidates = req.game.non_eye_legal_points(req.color);
        if candidates.is_empty() {
            return Genmove::Move(Move::Pass);
        }
        let i = self.rng.random_range(0..candidates.len());
        Genmove::Move(Move::Play(candidates[i]))
    }
}
