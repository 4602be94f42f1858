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

/// The solver benchmark's problems (GoTools syntax; where they come from
/// is in the file's header).
pub const SOLVER_PROBLEMS: &str = include_str!("../tests/data/solver-bench.gt");

/// The result of the solver benchmark: both movers of every problem,
/// level 1, one thread.
#[derive(Clone, Debug, Default)]
pub struct SolverBench {
    pub problems: usize,
    pub answers: usize,
    /// Answers that hit the node limit.
    pub unsettled: usize,
    pub leaves: u64,
    pub nodes: u64,
    /// Positions the static evaluation decided, and the positions its
    /// local games searched.
    pub statics: u64,
    pub static_work: u64,
    pub seconds: f64,
    /// Per answer: time in seconds, sorted.
    pub times: Vec<f64>,
    /// FNV-1a of every answer's status, key move, leaves and nodes: the
    /// same on every run of the same build, so it changes only when the
    /// search does.
    pub signature: u64,
}

impl SolverBench {
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.seconds.max(1e-9)
    }

    /// The time of the answer at quantile `q` (0 to 1).
    pub fn time_quantile(&self, q: f64) -> f64 {
        if self.times.is_empty() {
            return 0.0;
        }
        let i = ((self.times.len() - 1) as f64 * q).round() as usize;
        self.times[i]
    }
}

/// Solves every problem of `text` (GoTools syntax) for both movers, one
/// thread, with or without the static evaluation.
pub fn solver(
    text: &str,
    weights: &crate::tsumego::OrderWeights,
    statics: bool,
    max_nodes: u64,
) -> Result<SolverBench, crate::tsumego::problems::ProblemError> {
    use crate::tsumego::{SolveOptions, gotools, solve_both};
    let file = gotools::parse(text, "solver-bench")?;
    let probs = file
        .iter()
        .map(|fp| fp.problem(crate::tsumego::region::DEFAULT_MAX_REGION))
        .collect::<Result<Vec<_>, _>>()?;
    let opts = SolveOptions {
        max_nodes,
        statics,
        ..SolveOptions::default()
    };
    let mut r = SolverBench {
        problems: probs.len(),
        signature: FNV_OFFSET,
        ..SolverBench::default()
    };
    let clock = Instant::now();
    crate::pool::with_stack(|| {
        for prob in &probs {
            let s = solve_both(prob, weights, opts);
            for a in [&s.defender_first, &s.attacker_first] {
                r.answers += 1;
                r.unsettled += (a.status == crate::tsumego::Status::Unknown) as usize;
                r.leaves += a.counters.leaves;
                r.nodes += a.counters.nodes;
                r.statics += a.counters.statics;
                r.static_work += a.counters.static_work;
                r.times.push(a.elapsed.as_secs_f64());
                let text = format!(
                    "{:?} {:?} {} {}",
                    a.status, a.owl.mv, a.counters.leaves, a.counters.nodes
                );
                r.signature = fnv1a(r.signature, text.as_bytes());
            }
        }
    });
    r.seconds = clock.elapsed().as_secs_f64();
    r.times.sort_by(f64::total_cmp);
    Ok(r)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_solver_bench_problems_read_and_are_closed() {
        let file = crate::tsumego::gotools::parse(super::SOLVER_PROBLEMS, "solver-bench").unwrap();
        assert!(file.len() >= 20, "{} problems", file.len());
        for fp in &file {
            fp.problem(crate::tsumego::region::DEFAULT_MAX_REGION)
                .unwrap_or_else(|e| panic!("{}: {e}", fp.source));
        }
    }
}
