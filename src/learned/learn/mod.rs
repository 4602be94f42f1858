//! `tengen patterns learn`: rate the features of [`crate::learned::features`] from
//! game records by minorization-maximization (Coulom 2007).
//!
//! Every move of a record is a competition among the legal moves of its
//! position (own true eyes excepted, as in the search); the move played
//! wins. A move's strength is the product of its features' gammas, and MM
//! raises the likelihood of the played moves one feature group at a time:
//!
//! gamma_i <- (W_i + 1) / (sum_j C_ij / E_j + 2 / (1 + gamma_i))
//!
//! with W_i the wins of feature i, E_j the total strength of position j,
//! C_ij the strength of i's teammates summed over the moves of j that
//! have i, and one virtual win and one virtual loss against a gamma-1
//! opponent as a prior. Shapes (diamonds, 3x3) enter the model only when
//! the played moves show them `min_count` times or more.
//!
//! Reproducible: files are read in path order, positions are sampled by a
//! hash of (seed, game, move), and every sum runs in a fixed order, so the
//! same records and seed give the same file, byte for byte.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use thiserror::Error;

mod mm;
pub mod playout;
mod records;

pub use records::find_records;
use records::splitmix;
pub(crate) use records::{Position, replay};

use crate::learned::model::{self, Model};

/// What to learn from and how.
#[derive(Clone, Debug)]
pub struct LearnConfig {
    /// SGF files or directories (searched recursively for `*.sgf`).
    pub records: Vec<PathBuf>,
    pub seed: u64,
    /// About this many training positions are sampled for MM.
    pub positions: usize,
    pub iterations: usize,
    /// A shape needs this many played moves to enter the model.
    pub min_count: u32,
    /// Only records of this board size.
    pub size: usize,
    /// Every `holdout`-th game (in path order) is kept out of training and
    /// measures the model; 0 keeps none out.
    pub holdout: usize,
}

impl Default for LearnConfig {
    fn default() -> Self {
        LearnConfig {
            records: Vec::new(),
            seed: 1,
            positions: 20_000,
            iterations: 12,
            min_count: 8,
            size: 19,
            holdout: 10,
        }
    }
}

#[derive(Debug, Error)]
pub enum LearnError {
    #[error("cannot read '{path}': {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{0}")]
    NoData(String),
}

/// Progress of a learning run, for the caller's bar or log.
#[derive(Clone, Copy, Debug)]
pub enum Stage {
    /// Records read so far, of the total.
    Reading(usize, usize),
    /// Games scanned for shapes and samples.
    Scanning(usize, usize),
    /// MM iteration done, of the total, with the training log-likelihood
    /// per position.
    Iteration(usize, usize, f64),
    /// Held-out games measured.
    Measuring(usize, usize),
    /// MM iteration of the playout patterns done, of the total, with the
    /// training log-likelihood per position.
    PlayoutIteration(usize, usize, f64),
}

/// What the run saw and how well the model predicts.
#[derive(Clone, Debug, Default)]
pub struct LearnReport {
    pub files: usize,
    /// Files that failed to parse, with the first error of each.
    pub unreadable: Vec<String>,
    /// Records of another board size.
    pub other_size: usize,
    pub train_games: usize,
    pub test_games: usize,
    pub train_moves: usize,
    pub sampled: usize,
    pub features: usize,
    pub shapes: [usize; 3],
    /// Mean log-likelihood of the played move per training position after
    /// each iteration.
    pub log_likelihood: Vec<f64>,
    /// Held-out positions measured.
    pub test_positions: usize,
    /// Share of held-out positions where the played move is the strongest.
    pub top1: f64,
    /// ... among the five strongest.
    pub top5: f64,
    /// Mean log-likelihood of the played move on held-out positions, and
    /// the same for uniform choice among the candidates.
    pub test_ll: f64,
    pub uniform_ll: f64,
    /// The run was stopped before all iterations (Ctrl-C).
    pub stopped_after: Option<usize>,
    /// The playout patterns, unless the run was stopped before them.
    pub playout: Option<playout::PlayReport>,
}

/// Learns a model. `stop` ends the MM iterations early (the model learned
/// so far is returned); `progress` hears about every stage.
pub fn learn(
    cfg: &LearnConfig,
    stop: &AtomicBool,
    mut progress: impl FnMut(Stage),
) -> Result<(Model, LearnReport), LearnError> {
    let mut report = LearnReport::default();
    let files = find_records(&cfg.records)?;
    report.files = files.len();
    if files.is_empty() {
        return Err(LearnError::NoData(format!(
            "no .sgf files found in {}",
            cfg.records
                .iter()
                .map(|p| format!("'{}'", p.display()))
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let games = records::read_games(cfg, &files, &mut report, &mut progress);
    let is_test = |g: usize| cfg.holdout > 0 && g % cfg.holdout == cfg.holdout - 1;
    let train: Vec<usize> = (0..games.len()).filter(|&g| !is_test(g)).collect();
    let test: Vec<usize> = (0..games.len()).filter(|&g| is_test(g)).collect();
    report.train_games = train.len();
    report.test_games = test.len();
    let train_moves: usize = train.iter().map(|&g| games[g].moves.len()).sum();
    if train_moves == 0 {
        return Err(LearnError::NoData(format!(
            "no moves to learn from: {} records of size {} ({} of other sizes, {} unreadable)",
            games.len(),
            cfg.size,
            report.other_size,
            report.unreadable.len()
        )));
    }
    // Sampling: a position is taken when its hash falls below `cut`.
    let share = (cfg.positions as f64 / train_moves as f64).min(1.0);
    let cut = (share * u64::MAX as f64) as u64;
    let sampled =
        |g: usize, i: usize| splitmix(cfg.seed ^ splitmix(((g as u64) << 32) | i as u64)) <= cut;

    let keys = mm::feature_keys(&games, &train, cfg, &mut report, &mut progress);
    let id: BTreeMap<u64, u32> = keys
        .iter()
        .enumerate()
        .map(|(i, &k)| (k, i as u32))
        .collect();
    report.features = keys.len();
    let data = mm::teams(&games, &train, &sampled, &id, &mut progress);
    report.sampled = data.positions();
    if report.sampled == 0 {
        return Err(LearnError::NoData(
            "no position was sampled: raise --positions or give more records".into(),
        ));
    }
    let gamma = mm::fit(&data, &keys, cfg, stop, &mut report, &mut progress);
    let gammas: BTreeMap<u64, f32> = keys
        .iter()
        .zip(&gamma)
        .map(|(&k, &g)| {
            (
                k,
                (g as f32).clamp(model::GAMMA_RANGE.0, model::GAMMA_RANGE.1),
            )
        })
        .collect();
    let mut m = Model::new(gammas, Vec::new());
    mm::measure(&m, &games, &test, &sampled, &mut report, &mut progress);
    if report.stopped_after.is_none() {
        let (gammas, r) = playout::learn(&games, &train, &test, &sampled, cfg, stop, &mut progress);
        // Stopped before a playout iteration ended, the gammas are all 1:
        // the file then has none, and the playouts use the fixed shapes.
        if r.stopped_after != Some(0) {
            for (k, g) in gammas {
                m.insert(k, g);
            }
        }
        report.playout = Some(r);
    }
    m.header = provenance(cfg, &report);
    Ok((m, report))
}

fn provenance(cfg: &LearnConfig, r: &LearnReport) -> Vec<(String, String)> {
    let records: Vec<String> = cfg
        .records
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let mut h = vec![
        (
            "source".to_string(),
            format!(
                "tengen {} patterns learn: {} records of size {} from {} ({} files, {} unreadable, {} other sizes)",
                env!("CARGO_PKG_VERSION"),
                r.train_games + r.test_games,
                cfg.size,
                records.join(" "),
                r.files,
                r.unreadable.len(),
                r.other_size
            ),
        ),
        (
            "learn".to_string(),
            format!(
                "seed {} positions {} iterations {} min-count {} holdout {}",
                cfg.seed, cfg.positions, cfg.iterations, cfg.min_count, cfg.holdout
            ),
        ),
        (
            "data".to_string(),
            format!(
                "{} training games, {} moves, {} sampled positions, {} features ({} diamond3, {} diamond2, {} nbr3)",
                r.train_games,
                r.train_moves,
                r.sampled,
                r.features,
                r.shapes[0],
                r.shapes[1],
                r.shapes[2]
            ),
        ),
    ];
    if let Some(ll) = r.log_likelihood.last() {
        h.push(("train-log-likelihood".into(), format!("{ll:.4}")));
    }
    if r.test_positions > 0 {
        h.push((
            "held-out".into(),
            format!(
                "{} games, {} positions: top-1 {:.1}%, top-5 {:.1}%, log-likelihood {:.3} (uniform {:.3})",
                r.test_games,
                r.test_positions,
                100.0 * r.top1,
                100.0 * r.top5,
                r.test_ll,
                r.uniform_ll
            ),
        ));
    }
    if let Some(p) = &r.playout {
        h.extend(p.provenance());
    }
    if let Some(n) = r.stopped_after {
        h.push((
            "stopped".into(),
            format!("after {n} iterations (interrupted)"),
        ));
    }
    h
}

#[cfg(test)]
mod tests;
