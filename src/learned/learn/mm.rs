//! The minorization-maximization fit of the prior's features: the shapes
//! worth a feature, the sampled positions as teams, the MM iterations, and
//! the held-out measure.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};

use super::records::{Position, replay};
use super::{LearnConfig, LearnReport, Stage};
use crate::learned::features::{self, FeatureGroup, PRIOR_GROUPS, Raw};
use crate::learned::model::{self, Model};
use crate::rules::{Cell, Point};
use crate::sgf::GameRecord;

/// The candidates of a position: every empty point the search would
/// consider, with its raw features; the played move is among them.
fn candidates(pos: &Position, out: &mut Vec<(Point, Raw)>) {
    out.clear();
    let b = pos.board;
    for &p in b.points() {
        if b.cell(p) == Cell::Empty && b.is_legal(p, pos.color) && !b.is_true_eye(p, pos.color) {
            out.push((p, features::extract(b, pos.color, p, pos.last, pos.last2)));
        }
    }
}

/// The training data of MM: positions as multisets of teams.
#[derive(Default)]
pub(super) struct Data {
    /// Feature ids of every team, concatenated.
    feats: Vec<u32>,
    /// Team t is `feats[team_start[t]..team_start[t + 1]]`.
    team_start: Vec<u32>,
    team_mult: Vec<u32>,
    /// Position j has teams `pos_start[j]..pos_start[j + 1]`.
    pos_start: Vec<u32>,
    winner: Vec<u32>,
}

impl Data {
    /// The number of positions.
    pub(super) fn positions(&self) -> usize {
        self.winner.len()
    }

    fn team(&self, t: usize) -> &[u32] {
        &self.feats[self.team_start[t] as usize..self.team_start[t + 1] as usize]
    }
}

/// Pass 1: the features of the model, sorted: the shapes of the played
/// moves of the training games seen `min_count` times or more, and every
/// value of the other prior groups.
pub(super) fn feature_keys(
    games: &[GameRecord],
    train: &[usize],
    cfg: &LearnConfig,
    report: &mut LearnReport,
    progress: &mut dyn FnMut(Stage),
) -> Vec<u64> {
    let mut counts: BTreeMap<u64, u32> = BTreeMap::new();
    for (n, &g) in train.iter().enumerate() {
        replay(&games[g], |pos| {
            report.train_moves += 1;
            let r = features::extract(pos.board, pos.color, pos.played, pos.last, pos.last2);
            for k in [r.diamond3, r.diamond2, r.nbr3] {
                *counts.entry(k).or_default() += 1;
            }
        });
        if n % 16 == 15 || n + 1 == train.len() {
            progress(Stage::Scanning(n + 1, train.len() * 2));
        }
    }
    let mut keys: Vec<u64> = counts
        .iter()
        .filter(|&(_, &c)| c >= cfg.min_count)
        .map(|(&k, _)| k)
        .collect();
    for (i, g) in [
        FeatureGroup::Diamond3,
        FeatureGroup::Diamond2,
        FeatureGroup::Nbr3,
    ]
    .iter()
    .enumerate()
    {
        report.shapes[i] = keys
            .iter()
            .filter(|&&k| features::key_group(k) == Some(*g))
            .count();
    }
    for g in PRIOR_GROUPS.iter().filter(|g| !g.is_shape()) {
        let lo = if matches!(g, FeatureGroup::Last | FeatureGroup::Last2) {
            2
        } else {
            1
        };
        for v in lo..=g.max_value() {
            keys.push(features::key(*g, v));
        }
    }
    keys.sort_unstable();
    keys
}

/// Pass 2: the sampled training positions as teams of feature ids.
pub(super) fn teams(
    games: &[GameRecord],
    train: &[usize],
    sampled: &dyn Fn(usize, usize) -> bool,
    id: &BTreeMap<u64, u32>,
    progress: &mut dyn FnMut(Stage),
) -> Data {
    let mut data = Data::default();
    data.team_start.push(0);
    data.pos_start.push(0);
    let mut cands = Vec::new();
    for (n, &g) in train.iter().enumerate() {
        replay(&games[g], |pos| {
            if !sampled(g, pos.index) {
                return;
            }
            candidates(pos, &mut cands);
            let mut teams: BTreeMap<Vec<u32>, u32> = BTreeMap::new();
            let mut win = Vec::new();
            for (p, raw) in &cands {
                let mut t: Vec<u32> = model::team(raw, |k| id.contains_key(&k))
                    .map(|k| id[&k])
                    .collect();
                t.sort_unstable();
                if *p == pos.played {
                    win = t.clone();
                }
                *teams.entry(t).or_default() += 1;
            }
            for (t, m) in teams {
                if t == win {
                    data.winner.push((data.team_mult.len()) as u32);
                }
                data.feats.extend_from_slice(&t);
                data.team_start.push(data.feats.len() as u32);
                data.team_mult.push(m);
            }
            data.pos_start.push(data.team_mult.len() as u32);
        });
        if n % 16 == 15 || n + 1 == train.len() {
            progress(Stage::Scanning(train.len() + n + 1, train.len() * 2));
        }
    }
    data
}

/// The MM iterations over `data`, one prior group at a time: the gamma of
/// every key of `keys`. `stop` ends them early.
pub(super) fn fit(
    data: &Data,
    keys: &[u64],
    cfg: &LearnConfig,
    stop: &AtomicBool,
    report: &mut LearnReport,
    progress: &mut dyn FnMut(Stage),
) -> Vec<f64> {
    let npos = data.winner.len();
    let nf = keys.len();
    let mut gamma = vec![1.0f64; nf];
    let mut wins = vec![0.0f64; nf];
    for &w in &data.winner {
        for &f in data.team(w as usize) {
            wins[f as usize] += 1.0;
        }
    }
    let group_of: Vec<FeatureGroup> = keys
        .iter()
        .map(|&k| features::key_group(k).expect("valid key"))
        .collect();
    let nteams = data.team_mult.len();
    let mut strength = vec![0.0f64; nteams];
    let mut c = vec![0.0f64; nf];
    for it in 0..cfg.iterations {
        if stop.load(Ordering::Relaxed) {
            report.stopped_after = Some(it);
            break;
        }
        for &g in PRIOR_GROUPS {
            if !group_of.contains(&g) {
                continue;
            }
            for (t, s) in strength.iter_mut().enumerate() {
                *s = data.team(t).iter().map(|&f| gamma[f as usize]).product();
            }
            c.iter_mut().for_each(|x| *x = 0.0);
            for j in 0..npos {
                let (a, b) = (data.pos_start[j] as usize, data.pos_start[j + 1] as usize);
                let e: f64 = (a..b).map(|t| data.team_mult[t] as f64 * strength[t]).sum();
                for (t, &s) in strength.iter().enumerate().take(b).skip(a) {
                    let share = data.team_mult[t] as f64 * s / e;
                    for &f in data.team(t) {
                        if group_of[f as usize] == g {
                            c[f as usize] += share / gamma[f as usize];
                        }
                    }
                }
            }
            for f in 0..nf {
                if group_of[f] == g {
                    gamma[f] = (wins[f] + 1.0) / (c[f] + 2.0 / (1.0 + gamma[f]));
                }
            }
        }
        // Log-likelihood of the played moves.
        let mut ll = 0.0;
        for j in 0..npos {
            let (a, b) = (data.pos_start[j] as usize, data.pos_start[j + 1] as usize);
            let s = |t: usize| -> f64 { data.team(t).iter().map(|&f| gamma[f as usize]).product() };
            let e: f64 = (a..b).map(|t| data.team_mult[t] as f64 * s(t)).sum();
            ll += (s(data.winner[j] as usize) / e).ln();
        }
        report.log_likelihood.push(ll / npos as f64);
        progress(Stage::Iteration(it + 1, cfg.iterations, ll / npos as f64));
    }
    gamma
}

/// The held-out measure of `m`, on the same share of positions of the
/// test games.
pub(super) fn measure(
    m: &Model,
    games: &[GameRecord],
    test: &[usize],
    sampled: &dyn Fn(usize, usize) -> bool,
    report: &mut LearnReport,
    progress: &mut dyn FnMut(Stage),
) {
    let mut cands = Vec::new();
    let mut strengths: Vec<f32> = Vec::new();
    let (mut top1, mut top5, mut tll, mut ull) = (0usize, 0usize, 0.0f64, 0.0f64);
    for (n, &g) in test.iter().enumerate() {
        replay(&games[g], |pos| {
            if !sampled(g, pos.index) {
                return;
            }
            candidates(pos, &mut cands);
            strengths.clear();
            let mut mine = 0.0f32;
            for (p, raw) in &cands {
                let s = m.strength(raw);
                if *p == pos.played {
                    mine = s;
                }
                strengths.push(s);
            }
            let better = strengths.iter().filter(|&&s| s > mine).count();
            if better == 0 {
                top1 += 1;
            }
            if better < 5 {
                top5 += 1;
            }
            let total: f64 = strengths.iter().map(|&s| s as f64).sum();
            tll += (mine as f64 / total).ln();
            ull += -(strengths.len() as f64).ln();
            report.test_positions += 1;
        });
        progress(Stage::Measuring(n + 1, test.len()));
    }
    if report.test_positions > 0 {
        let n = report.test_positions as f64;
        report.top1 = top1 as f64 / n;
        report.top5 = top5 as f64 / n;
        report.test_ll = tll / n;
        report.uniform_ll = ull / n;
    }
}
