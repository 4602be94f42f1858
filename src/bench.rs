//! `tengen bench`: speed measurements with a reproducible signature.

use std::time::Instant;

use rand::{SeedableRng, rngs::SmallRng};

use crate::playout::light_playout;
use crate::rules::{Board, Color};

/// The result of a light-playout benchmark on one board size.
#[derive(Clone, Debug)]
pub struct PlayoutBench {
    pub size: usize,
    pub playouts: usize,
    pub moves: usize,
    pub seconds: f64,
    /// XOR of the final position hashes: identical on every run of the same
    /// build and seed, so it changes only when behaviour changes.
    pub signature: u64,
}

impl PlayoutBench {
    pub fn playouts_per_second(&self) -> f64 {
        self.playouts as f64 / self.seconds
    }

    pub fn micros_per_playout(&self) -> f64 {
        self.seconds * 1e6 / self.playouts as f64
    }
}

/// Runs `playouts` light random playouts from the empty board, one thread,
/// seed 1.
pub fn light_playouts(size: usize, playouts: usize) -> PlayoutBench {
    let empty = Board::new(size);
    let mut board = empty.clone();
    let mut rng = SmallRng::seed_from_u64(1);
    let mut moves = 0;
    let mut signature = 0u64;
    let start = Instant::now();
    for _ in 0..playouts {
        board.copy_from(&empty);
        moves += light_playout(&mut board, Color::Black, &mut rng).moves;
        signature ^= board.hash().rotate_left((moves % 64) as u32);
    }
    PlayoutBench {
        size,
        playouts,
        moves,
        seconds: start.elapsed().as_secs_f64().max(1e-9),
        signature,
    }
}
