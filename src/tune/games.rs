//! Match fitness: games between weight sets, in process (two engines, no
//! text in between), or against an external GTP engine through the
//! `match` machinery.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::fitness::{Eval, Evaluator, Job};
use super::genes::GeneSpace;
use crate::engine::selfplay::play_out;
use crate::engine::{Engine, EngineConfig};
use crate::matchplay::{self, EngineCommand, MatchConfig};
use crate::rules::{Color, Rules};
use crate::weights::Weights;

/// Who a `Score` job plays against.
#[derive(Clone, Debug)]
pub enum Reference {
    /// Our engine with these weights, in process.
    Weights(Box<Weights>),
    /// An external GTP engine (a fresh process per game).
    External(EngineCommand),
}

/// Game settings of match fitness.
#[derive(Clone, Debug)]
pub struct GameFitness {
    pub space: GeneSpace,
    pub reference: Reference,
    pub size: usize,
    pub komi: f64,
    /// Playouts per move of our engine.
    pub playouts: u64,
    /// Paired games (colours swapped) per comparison.
    pub pairs: usize,
    pub move_limit: usize,
    /// Seed of the games of `Score` jobs (the same games for everyone).
    pub seed: u64,
    /// Our binary, for games against an external engine.
    pub program: PathBuf,
    /// Where temporary weights files go.
    pub tmp: PathBuf,
}

fn engine(w: &Weights, g: &GameFitness, seed: u64) -> Engine {
    let cfg = EngineConfig::fixed_playouts(
        g.size,
        g.komi,
        Rules::default(),
        w.clone(),
        g.playouts,
        seed,
    );
    Engine::new(cfg).expect("the tuner's board size and komi are valid")
}

/// Plays one game in process; returns the winner (`None`: jigo).
pub fn play_in_process(
    black: &Weights,
    white: &Weights,
    g: &GameFitness,
    seed: u64,
) -> Option<Color> {
    let mut players = [
        engine(black, g, seed),
        engine(white, g, seed ^ 0x9e37_79b9_7f4a_7c15),
    ];
    let go = AtomicBool::new(false);
    play_out(&mut players, Color::Black, 0, g.move_limit, &go)
        .expect("never stopped")
        .winner
}

/// A game seed for pair `i` of a comparison seeded `seed`.
fn game_seed(seed: u64, i: usize) -> u64 {
    crate::rules::zobrist::mix64(seed ^ (i as u64).wrapping_mul(0x2545_f491_4f6c_dd1d))
}

impl GameFitness {
    /// `a`'s share of the points in `pairs` paired games against `b`.
    fn duel(&self, a: &Weights, b: &Weights, seed: u64) -> Eval {
        let mut points = 0.0;
        let mut draws = 0;
        for i in 0..self.pairs {
            let s = game_seed(seed, i);
            for (black, white, a_color) in [(a, b, Color::Black), (b, a, Color::White)] {
                match play_in_process(black, white, self, s) {
                    Some(c) if c == a_color => points += 1.0,
                    Some(_) => {}
                    None => {
                        points += 0.5;
                        draws += 1;
                    }
                }
            }
        }
        let games = 2 * self.pairs as u64;
        Eval {
            fitness: points / games as f64,
            cost: games,
            errors: draws,
        }
    }

    /// `w`'s share of the points against an external engine.
    fn against_external(&self, w: &Weights, opponent: &EngineCommand, seed: u64) -> Eval {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let file = self.tmp.join(format!(
            "tune-{}-{}.toml",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::create_dir_all(&self.tmp);
        if std::fs::write(&file, w.to_toml()).is_err() {
            return Eval {
                fitness: 0.0,
                cost: 0,
                errors: 0,
            };
        }
        let engine = EngineCommand {
            program: self.program.clone(),
            args: [
                "--quiet",
                "--no-table",
                "--threads",
                "1",
                "--playouts",
                &self.playouts.to_string(),
                "--seed",
                &seed.to_string(),
                "--weights",
                &file.display().to_string(),
            ]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        };
        let cfg = MatchConfig {
            engine,
            opponent: opponent.clone(),
            referee: None,
            games: 2 * self.pairs,
            size: self.size,
            komi: self.komi,
            move_limit: self.move_limit,
            time: crate::engine::TimeSystem::Unlimited,
            concurrency: 1,
            out_dir: None,
            vary_seed: true,
        };
        let mut points = 0.0;
        let mut draws = 0;
        let mut games = 0;
        for i in 0..2 * self.pairs {
            let color = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            // An engine that fails to start or answer scores nothing.
            if let Ok(r) = matchplay::play_game(&cfg, i, color) {
                points += r.points();
                draws += r.winner.is_none() as u64;
            }
            games += 1;
        }
        let _ = std::fs::remove_file(&file);
        Eval {
            fitness: points / games.max(1) as f64,
            cost: games,
            errors: draws,
        }
    }
}

impl Evaluator for GameFitness {
    fn evaluate(&self, job: &Job) -> Eval {
        match job {
            Job::Score { genes } => {
                let w = self.space.decode(genes);
                match &self.reference {
                    Reference::Weights(r) => self.duel(&w, r, self.seed),
                    Reference::External(cmd) => self.against_external(&w, cmd, self.seed),
                }
            }
            Job::Duel { a, b, seed } => {
                self.duel(&self.space.decode(a), &self.space.decode(b), *seed)
            }
        }
    }
}
