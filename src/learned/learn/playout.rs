//! Learning the playout patterns of [`crate::learned::play3`]: the
//! sampled positions after a move, as the canonical 3x3 codes of the
//! neighbours the playout rule would choose from, and the MM fit of their
//! gammas against the gamma of a move elsewhere.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};

use super::{LearnConfig, Position, Stage, replay};
use crate::learned::features::{self, FeatureGroup};
use crate::learned::model::GAMMA_RANGE;
use crate::learned::play3::{REST_ELSEWHERE, REST_UNKNOWN, candidates, canonical};
use crate::rules::Point;
use crate::sgf::GameRecord;

/// What learning the playout patterns saw, and how well they predict.
#[derive(Clone, Debug, Default)]
pub struct PlayReport {
    /// Sampled training positions with a last move (not a pass).
    pub positions: usize,
    /// ... of which the move played was a candidate next to the last move.
    pub local: usize,
    /// Shapes in the model.
    pub shapes: usize,
    /// Mean log-likelihood of the outcome per training position after
    /// each iteration.
    pub log_likelihood: Vec<f64>,
    /// Held-out positions measured.
    pub test_positions: usize,
    /// Share of them where the move was next to the last move.
    pub test_local: f64,
    /// Mean log-likelihood of the outcome (which neighbour, or elsewhere),
    /// and that of a uniform choice among the neighbours and elsewhere.
    pub test_ll: f64,
    pub test_uniform_ll: f64,
    /// Among held-out local moves: the share where the played point had
    /// the largest gamma of the neighbours.
    pub test_top1: f64,
    /// The iterations were stopped after this many (Ctrl-C).
    pub stopped_after: Option<usize>,
}

impl PlayReport {
    /// The provenance lines of a pattern file.
    pub fn provenance(&self) -> Vec<(String, String)> {
        let mut h = vec![(
            "playout".to_string(),
            format!(
                "{} sampled positions after a move, {} with the move next to it, {} play3 shapes, \
                 train-log-likelihood {:.4}",
                self.positions,
                self.local,
                self.shapes,
                self.log_likelihood.last().copied().unwrap_or(f64::NAN)
            ),
        )];
        if let Some(n) = self.stopped_after {
            h.push((
                "playout-stopped".into(),
                format!("after {n} iterations (interrupted)"),
            ));
        }
        if self.test_positions > 0 {
            h.push((
                "playout-held-out".into(),
                format!(
                    "{} positions, {:.1}% next to the last move: log-likelihood {:.3} (uniform {:.3}), \
                     top-1 among the neighbours {:.1}%",
                    self.test_positions,
                    100.0 * self.test_local,
                    self.test_ll,
                    self.test_uniform_ll,
                    100.0 * self.test_top1
                ),
            ));
        }
        h
    }
}

/// The sampled positions of some games that follow a move, as the
/// canonical codes of their candidates and the index of the one played
/// (`None`: the move was elsewhere).
#[derive(Default)]
struct Positions {
    codes: Vec<u32>,
    start: Vec<u32>,
    played: Vec<Option<u8>>,
}

impl Positions {
    fn collect(
        games: &[GameRecord],
        which: &[usize],
        sampled: &dyn Fn(usize, usize) -> bool,
    ) -> Positions {
        let mut ps = Positions {
            start: vec![0],
            ..Positions::default()
        };
        let mut cands = [(Point(0), 0u32); 8];
        for &g in which {
            replay(&games[g], |pos: &Position| {
                let Some(last) = pos.last else { return };
                if !sampled(g, pos.index) {
                    return;
                }
                let n = candidates(pos.board, pos.color, last, &mut cands);
                let mut played = None;
                for (i, &(q, c)) in cands[..n].iter().enumerate() {
                    ps.codes.push(canonical(c));
                    if q == pos.played {
                        played = Some(i as u8);
                    }
                }
                ps.start.push(ps.codes.len() as u32);
                ps.played.push(played);
            });
        }
        ps
    }

    fn len(&self) -> usize {
        self.played.len()
    }

    fn codes(&self, j: usize) -> &[u32] {
        &self.codes[self.start[j] as usize..self.start[j + 1] as usize]
    }
}

/// Learns the playout gammas from the sampled positions of the training
/// games (the shapes played `min_count` times or more, the unknown shape
/// and elsewhere) and measures them on the test games. Single-feature
/// teams make every MM update exact and independent, so all gammas move
/// at once in an iteration.
pub(super) fn learn(
    games: &[GameRecord],
    train: &[usize],
    test: &[usize],
    sampled: &dyn Fn(usize, usize) -> bool,
    cfg: &LearnConfig,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(Stage),
) -> (BTreeMap<u64, f32>, PlayReport) {
    let mut report = PlayReport::default();
    let data = Positions::collect(games, train, sampled);
    report.positions = data.len();
    let mut wins: BTreeMap<u32, u32> = BTreeMap::new();
    for j in 0..data.len() {
        if let Some(i) = data.played[j] {
            *wins.entry(data.codes(j)[i as usize]).or_default() += 1;
            report.local += 1;
        }
    }
    let known: Vec<u32> = wins
        .iter()
        .filter(|&(_, &n)| n >= cfg.min_count)
        .map(|(&c, _)| c)
        .collect();
    report.shapes = known.len();
    let unknown = known.len();
    let elsewhere = unknown + 1;
    let id = |c: u32| known.binary_search(&c).unwrap_or(unknown);
    let feats: Vec<u32> = data.codes.iter().map(|&c| id(c) as u32).collect();
    let team = |j: usize| &feats[data.start[j] as usize..data.start[j + 1] as usize];
    let winner = |j: usize| data.played[j].map_or(elsewhere, |i| team(j)[i as usize] as usize);
    let nf = elsewhere + 1;
    let mut w = vec![0.0f64; nf];
    for j in 0..data.len() {
        w[winner(j)] += 1.0;
    }
    let mut gamma = vec![1.0f64; nf];
    let mut c = vec![0.0f64; nf];
    let total = |gamma: &[f64], j: usize| -> f64 {
        team(j).iter().map(|&f| gamma[f as usize]).sum::<f64>() + gamma[elsewhere]
    };
    for it in 0..cfg.iterations {
        if stop.load(Ordering::Relaxed) {
            report.stopped_after = Some(it);
            break;
        }
        c.iter_mut().for_each(|x| *x = 0.0);
        for j in 0..data.len() {
            let inv = 1.0 / total(&gamma, j);
            for &f in team(j) {
                c[f as usize] += inv;
            }
            c[elsewhere] += inv;
        }
        for f in 0..nf {
            gamma[f] = (w[f] + 1.0) / (c[f] + 2.0 / (1.0 + gamma[f]));
        }
        let ll: f64 = (0..data.len())
            .map(|j| (gamma[winner(j)] / total(&gamma, j)).ln())
            .sum::<f64>()
            / data.len().max(1) as f64;
        report.log_likelihood.push(ll);
        progress(Stage::PlayoutIteration(it + 1, cfg.iterations, ll));
    }
    let clamp = |g: f64| (g as f32).clamp(GAMMA_RANGE.0, GAMMA_RANGE.1);
    let mut out = BTreeMap::new();
    for (i, &k) in known.iter().enumerate() {
        out.insert(
            features::key(FeatureGroup::Play3, k as u64),
            clamp(gamma[i]),
        );
    }
    out.insert(
        features::key(FeatureGroup::PlayRest, REST_UNKNOWN),
        clamp(gamma[unknown]),
    );
    out.insert(
        features::key(FeatureGroup::PlayRest, REST_ELSEWHERE),
        clamp(gamma[elsewhere]),
    );

    // Held out.
    let held = Positions::collect(games, test, sampled);
    let tf: Vec<usize> = held.codes.iter().map(|&c| id(c)).collect();
    let (mut ll, mut ull, mut local, mut top1) = (0.0f64, 0.0f64, 0usize, 0usize);
    for j in 0..held.len() {
        let t = &tf[held.start[j] as usize..held.start[j + 1] as usize];
        let e: f64 = t.iter().map(|&f| gamma[f]).sum::<f64>() + gamma[elsewhere];
        let won = held.played[j].map_or(elsewhere, |i| t[i as usize]);
        ll += (gamma[won] / e).ln();
        ull -= ((t.len() + 1) as f64).ln();
        if held.played[j].is_some() {
            local += 1;
            if t.iter().all(|&f| gamma[f] <= gamma[won]) {
                top1 += 1;
            }
        }
    }
    report.test_positions = held.len();
    if held.len() > 0 {
        let n = held.len() as f64;
        report.test_ll = ll / n;
        report.test_uniform_ll = ull / n;
        report.test_local = local as f64 / n;
        report.test_top1 = top1 as f64 / local.max(1) as f64;
    }
    (out, report)
}
