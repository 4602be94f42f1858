//! `tengen tune`: evolves weights with a genetic algorithm or adaptive
//! differential evolution. Fitness comes from the tsumego solver (static
//! move ranks, level-1 leaves, pruning errors) or from games.
//!
//! The run is a sequence of generations. Everything random in generation
//! `g` is drawn from a generator seeded by (`--seed`, `g`), and every
//! evaluation is a pure function of its job, so a run gives the same
//! weights whatever the number of workers, and a resumed run the same as
//! an uninterrupted one. The checkpoint (serde_json) holds the settings,
//! the population with its fitness, the history, the reference leaves and
//! the finished evaluations of the generation in flight.

mod checkpoint;
pub mod config;
pub mod fitness;
pub mod games;
pub mod gate;
mod generation;
pub mod genes;
#[cfg(feature = "mpi")]
pub mod mpi;
mod operators;
pub mod report;
pub mod run;
pub mod sample;
mod settings;
pub mod workers;

pub use checkpoint::{GenStats, Member, Partial, State};
#[cfg(test)]
use generation::round_robin;
pub use generation::{Plan, Step, Tuner};
pub use operators::{DeDraw, adaptive_f, de_trial, scaled};
use operators::{rng_for, three_donors};
pub use settings::{Evolution, FitnessSpec, GroupSet, Settings, UnknownFitness, UnknownGroup};

use std::path::Path;
use std::sync::atomic::AtomicBool;

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use rand_distr::{Distribution, StandardNormal};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use fitness::{Eval, Job};
use genes::{Gene, GeneSpace};
use workers::Workers;

/// Checkpoint format version.
pub const CHECKPOINT_FORMAT: u32 = 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
pub enum Algorithm {
    /// Genetic algorithm.
    Ga,
    /// Adaptive differential evolution.
    De,
    /// Simultaneous perturbation stochastic approximation (Spall), for
    /// match fitness: one point, moved each generation by paired games
    /// between two perturbations of it (see `spsa_gains`).
    Spsa,
}

/// SPSA's gains at generation `t` (1 for the first step, after the
/// generation that sets the starting point), as fractions of each gene's
/// range: the perturbation c_t = σ / t^0.101 and the step
/// a_t = σ (10 / (t + 9))^0.602 (Spall's exponents, A = 9), where σ is
/// `--sigma`. A step moves each gene by a_t × the mean over the pairs of
/// (result of θ+ in [-1, 1]) × (the sign of its perturbation).
pub fn spsa_gains(sigma: f64, t: usize) -> (f64, f64) {
    let t = t.max(1) as f64;
    (
        sigma / t.powf(0.101),
        sigma * (10.0 / (t + 9.0)).powf(0.602),
    )
}

/// GA parent selection.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
pub enum Selection {
    Roulette,
    Tournament,
}

/// GA mutation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
pub enum Mutation {
    /// A new value uniform in the range.
    Reset,
    /// A Gaussian step of `sigma` × range, reflected into the range.
    Gaussian,
}

/// How candidates are compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Compare {
    /// An absolute fitness per candidate (`Job::Score`).
    Score,
    /// DE with match fitness: the trial plays its parent (`Job::Duel`).
    Duel,
    /// Match fitness: every generation the members and the new candidates
    /// play a round robin (`Job::Duel` per pairing). A member's fitness is
    /// its share of the points of that tournament (one per win, a half per
    /// jigo); replacement then compares these shares.
    RoundRobin,
}

#[derive(Debug, Error)]
pub enum TuneError {
    #[error("cannot write checkpoint '{path}': {source}")]
    Write {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot read checkpoint '{path}': {source}")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("checkpoint '{path}' is damaged: {message}")]
    Damaged { path: String, message: String },
    #[error(
        "checkpoint '{path}' was made with other settings ({what}); rerun with the same options or start a new run without --resume"
    )]
    Mismatch { path: String, what: String },
    /// Options that contradict each other or name nothing to do.
    #[error("{0}")]
    Options(String),
    /// A problem set or list that cannot be read or is empty.
    #[error("{0}")]
    Problems(String),
    /// A report, weights or checkpoint folder that cannot be written.
    #[error("cannot write '{path}': {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Weights(#[from] crate::weights::WeightsError),
    #[error(transparent)]
    Set(#[from] fitness::SetError),
}

impl TuneError {
    pub fn io(path: &Path, source: std::io::Error) -> TuneError {
        TuneError::Io {
            path: path.display().to_string(),
            source,
        }
    }
}

#[cfg(test)]
mod tests;
