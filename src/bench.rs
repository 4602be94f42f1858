//! `tengen bench`: speed measurements with a reproducible signature.

use std::time::Instant;

use rand::{SeedableRng, rngs::SmallRng};

use crate::playout::light_playout;
use crate::rules::zobrist::{FNV_OFFSET, fnv1a};
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

/// Times `playouts` playouts, one thread, seed 1: playout `i` starts from
/// `starts[i % starts.len()]` and `one` plays it, returning its moves.
fn time_playouts(
    size: usize,
    playouts: usize,
    starts: &[(Board, Color)],
    mut one: impl FnMut(&mut Board, Color, &mut SmallRng) -> usize,
) -> PlayoutBench {
    let mut rng = SmallRng::seed_from_u64(1);
    let mut board = Board::new(size);
    let mut moves = 0;
    let mut signature = 0u64;
    let clock = Instant::now();
    for i in 0..playouts {
        let (from, color) = &starts[i % starts.len()];
        board.copy_from(from);
        moves += one(&mut board, *color, &mut rng);
        signature ^= board.hash().rotate_left((moves % 64) as u32);
    }
    PlayoutBench {
        size,
        playouts,
        moves,
        seconds: clock.elapsed().as_secs_f64().max(1e-9),
        signature,
    }
}

/// Runs `playouts` light random playouts from the empty board, one thread,
/// seed 1.
pub fn light_playouts(size: usize, playouts: usize) -> PlayoutBench {
    time_playouts(
        size,
        playouts,
        &[(Board::new(size), Color::Black)],
        |b, c, rng| light_playout(b, c, rng).moves,
    )
}

/// Runs `playouts` heavy playouts with `policy`, one thread, seed 1, from
/// the fixed positions of `size` in turn (the search's playout policy
/// alone, without the tree).
pub fn heavy_playouts(
    size: usize,
    playouts: usize,
    policy: &crate::playout::heavy::Policy,
) -> PlayoutBench {
    use crate::playout::heavy::heavy_playout;
    let starts: Vec<(Board, Color)> = bench_positions(size)
        .iter()
        .map(|(_, g)| (g.board().clone(), g.to_move()))
        .collect();
    let mut played = Vec::new();
    time_playouts(size, playouts, &starts, |b, c, rng| {
        played.clear();
        heavy_playout(b, c, None, policy, rng, &mut played).moves
    })
}

/// The fixed positions of the search benchmark: the empty board and two
/// positions from short opening sequences, per board size.
pub fn bench_positions(size: usize) -> Vec<(String, crate::rules::Game)> {
    use crate::rules::{Game, Rules};
    let lines: &[&str] = match size {
        9 => &["", "E5 C4 D3 F4 C3", "E5 E3 C4 G4 F3 F2 D3 E2 G3 H3"],
        19 => &[
            "",
            "Q16 D4 Q4 D16 C14",
            "D4 Q16 Q4 D16 R6 C14 K3 F17 C6 R14",
        ],
        _ => &[""],
    };
    lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let komi = if size >= 19 { 7.5 } else { 7.0 };
            let mut g = Game::new(size, komi, Rules::default()).expect("valid size");
            for (k, v) in line.split_whitespace().enumerate() {
                let color = if k % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                let mv = v.parse().expect("bench moves are valid vertices");
                g.play(color, mv).expect("bench moves are legal");
            }
            (format!("{size}x{size} #{i}"), g)
        })
        .collect()
}

/// The result of a search benchmark over the fixed positions.
#[derive(Clone, Debug)]
pub struct SearchBench {
    pub positions: usize,
    pub playouts: u64,
    pub seconds: f64,
    /// Sum of tree nodes over the positions, mixed with the chosen moves:
    /// changes only when the search behaves differently.
    pub signature: u64,
}

/// Searches each fixed position of `size` with `playouts` playouts on
/// `threads` threads, seed 1, default weights.
pub fn search(
    size: usize,
    playouts: u64,
    threads: usize,
    weights: &crate::weights::Weights,
    patterns: Option<std::sync::Arc<crate::learned::Model>>,
) -> SearchBench {
    use crate::search::{Limits, SearchConfig, Searcher};
    use std::sync::atomic::AtomicBool;
    let positions = bench_positions(size);
    let mut total = 0;
    let mut signature = 0u64;
    let mut seconds = 0.0;
    for (_, g) in &positions {
        let mut s = Searcher::new(
            SearchConfig {
                threads,
                seed: 1,
                ..SearchConfig::default()
            },
            weights.clone(),
        );
        s.set_patterns(patterns.clone());
        let stop = AtomicBool::new(false);
        let limits = Limits {
            playouts: Some(playouts),
            ..Limits::default()
        };
        let start = Instant::now();
        let r = s.search(g, g.to_move(), g.komi(), &limits, &stop, &mut |_| {});
        seconds += start.elapsed().as_secs_f64();
        total += r.snapshot.playouts;
        signature = signature
            .rotate_left(17)
            .wrapping_add(s.tree_nodes() as u64)
            ^ fnv1a(FNV_OFFSET, r.best.to_string().as_bytes());
    }
    SearchBench {
        positions: positions.len(),
        playouts: total,
        seconds: seconds.max(1e-9),
        signature,
    }
}

/// Microseconds to rate one candidate move with the learned model
/// (features and gamma product), over every empty point of the fixed
/// positions of `size`, repeated for at least 0.2 s.
pub fn rate_moves(size: usize, model: &crate::learned::Model) -> f64 {
    use crate::learned::features;
    use crate::rules::Cell;
    let positions = bench_positions(size);
    let start = Instant::now();
    let mut rated = 0u64;
    let mut sink = 0.0f32;
    while rated == 0 || start.elapsed().as_secs_f64() < 0.2 {
        for (_, g) in &positions {
            let b = g.board();
            let color = g.to_move();
            for &p in b.points() {
                if b.cell(p) == Cell::Empty && b.is_legal(p, color) {
                    sink += model.strength(&features::extract(b, color, p, None, None));
                    rated += 1;
                }
            }
        }
    }
    std::hint::black_box(sink);
    start.elapsed().as_secs_f64() * 1e6 / rated as f64
}

/// Random probe+store operations per second on `table` with `threads`
/// threads for `time` (keys from SplitMix64; each operation probes a key
/// and stores an entry for it).
pub fn table_ops(
    table: &crate::table::Table,
    threads: usize,
    time: std::time::Duration,
    seed: u64,
) -> f64 {
    use crate::table::Entry;
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
    let stop = AtomicBool::new(false);
    let ops = AtomicU64::new(0);
    let start = std::time::Instant::now();
    std::thread::scope(|s| {
        for t in 0..threads {
            let (stop, ops) = (&stop, &ops);
            s.spawn(move || {
                let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (t as u64 + 1);
                let mut next = || crate::rules::zobrist::splitmix(&mut x);
                let mut n = 0u64;
                let mut found = 0u64;
                while !stop.load(Relaxed) {
                    for _ in 0..1024 {
                        let key = next();
                        found += table.probe(key).is_some() as u64;
                        let e = Entry::new(
                            key,
                            (key & 0x3ff) as u16,
                            key >> 44,
                            (key >> 40) as u32 & 31,
                        );
                        table.store(e, 2.0);
                    }
                    n += 1024;
                }
                std::hint::black_box(found);
                ops.fetch_add(n, Relaxed);
            });
        }
        std::thread::sleep(time);
        stop.store(true, Relaxed);
    });
    ops.load(Relaxed) as f64 / start.elapsed().as_secs_f64()
}
