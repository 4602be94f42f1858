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
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use thiserror::Error;

pub mod playout;

use crate::learned::features::{self, Group, PRIOR_GROUPS, Raw};
use crate::learned::model::{self, Model};
use crate::rules::{Board, Cell, Color, Move, Point};
use crate::sgf::{self, GameRecord};

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

/// The `.sgf` files under `paths`, sorted.
pub fn find_records(paths: &[PathBuf]) -> Result<Vec<PathBuf>, LearnError> {
    fn walk(p: &Path, out: &mut Vec<PathBuf>) -> Result<(), LearnError> {
        let io = |source| LearnError::Io {
            path: p.to_path_buf(),
            source,
        };
        let meta = std::fs::metadata(p).map_err(io)?;
        if meta.is_dir() {
            for e in std::fs::read_dir(p).map_err(io)? {
                let e = e.map_err(io)?;
                let q = e.path();
                let is_sgf = q.extension().is_some_and(|x| x.eq_ignore_ascii_case("sgf"));
                if q.is_dir() || is_sgf {
                    walk(&q, out)?;
                }
            }
        } else {
            out.push(p.to_path_buf());
        }
        Ok(())
    }
    let mut out = Vec::new();
    for p in paths {
        walk(p, &mut out)?;
    }
    out.sort();
    out.dedup();
    Ok(out)
}

fn splitmix(x: u64) -> u64 {
    let mut s = x;
    crate::rules::zobrist::splitmix(&mut s)
}

/// A position of a record: the board before the move, and the move.
pub(crate) struct Position<'a> {
    pub board: &'a Board,
    pub color: Color,
    pub played: Point,
    pub last: Option<Point>,
    pub last2: Option<Point>,
    pub index: usize,
}

/// Replays `rec` and calls `f` for every stone move that the search could
/// have chosen (legal, not an own true eye). Stops at an illegal move.
pub(crate) fn replay(rec: &GameRecord, mut f: impl FnMut(&Position)) {
    let mut board = Board::new(rec.size);
    for &(c, color) in &rec.setup {
        board.set_stone(c, color);
    }
    let (mut last, mut last2) = (None, None);
    for (index, &(color, mv)) in rec.moves.iter().enumerate() {
        match mv {
            Move::Pass => {
                board.pass();
                last2 = last;
                last = None;
            }
            Move::Play(c) => {
                if (c.x as usize) >= rec.size || (c.y as usize) >= rec.size {
                    return;
                }
                let p = board.point(c);
                if !board.is_legal(p, color) {
                    return;
                }
                if !board.is_true_eye(p, color) {
                    f(&Position {
                        board: &board,
                        color,
                        played: p,
                        last,
                        last2,
                        index,
                    });
                }
                board.play_unchecked(p, color);
                last2 = last;
                last = Some(p);
            }
        }
    }
}

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
struct Data {
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
    fn team(&self, t: usize) -> &[u32] {
        &self.feats[self.team_start[t] as usize..self.team_start[t + 1] as usize]
    }
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
    let mut games = Vec::new();
    for (i, f) in files.iter().enumerate() {
        match sgf::read_file(f) {
            Ok(r) if r.size == cfg.size => games.push(r),
            Ok(_) => report.other_size += 1,
            Err(e) => report.unreadable.push(e.to_string()),
        }
        if i % 64 == 63 || i + 1 == files.len() {
            progress(Stage::Reading(i + 1, files.len()));
        }
    }
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

    // Pass 1: shapes of the played moves, over all training positions.
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
    for (i, g) in [Group::Diamond3, Group::Diamond2, Group::Nbr3]
        .iter()
        .enumerate()
    {
        report.shapes[i] = keys
            .iter()
            .filter(|&&k| features::key_group(k) == Some(*g))
            .count();
    }
    for g in PRIOR_GROUPS.iter().filter(|g| !g.is_shape()) {
        let lo = if matches!(g, Group::Last | Group::Last2) {
            2
        } else {
            1
        };
        for v in lo..=g.max_value() {
            keys.push(features::key(*g, v));
        }
    }
    keys.sort_unstable();
    let id: BTreeMap<u64, u32> = keys
        .iter()
        .enumerate()
        .map(|(i, &k)| (k, i as u32))
        .collect();
    report.features = keys.len();

    // Pass 2: the sampled training positions as teams.
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
    let npos = data.winner.len();
    report.sampled = npos;
    if npos == 0 {
        return Err(LearnError::NoData(
            "no position was sampled: raise --positions or give more records".into(),
        ));
    }

    // MM.
    let nf = keys.len();
    let mut gamma = vec![1.0f64; nf];
    let mut wins = vec![0.0f64; nf];
    for &w in &data.winner {
        for &f in data.team(w as usize) {
            wins[f as usize] += 1.0;
        }
    }
    let group_of: Vec<Group> = keys
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

    // Held-out measure, on the same share of positions.
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
mod tests {
    use super::*;
    use crate::rules::{Coord, Game, Rules};
    use rand::{RngExt, SeedableRng, rngs::SmallRng};

    /// Writes `n` 9x9 games whose moves go next to the last move 70% of the
    /// time when they can (else anywhere legal), as SGF files in a fresh
    /// directory.
    fn write_games(dir: &Path, n: usize) {
        let _ = std::fs::remove_dir_all(dir);
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        let mut rng = SmallRng::seed_from_u64(5);
        for i in 0..n {
            let mut g = Game::new(9, 7.0, Rules::default()).unwrap();
            let mut last: Option<Coord> = None;
            for _ in 0..50 {
                let color = g.to_move();
                let legal = g.non_eye_legal_points(color);
                if legal.is_empty() {
                    break;
                }
                let near: Vec<Coord> = legal
                    .iter()
                    .copied()
                    .filter(|c| last.is_some_and(|l| features::distance(*c, l) == 2))
                    .collect();
                let c = if !near.is_empty() && rng.random_bool(0.7) {
                    near[rng.random_range(0..near.len())]
                } else {
                    legal[rng.random_range(0..legal.len())]
                };
                g.play(color, Move::Play(c)).unwrap();
                last = Some(c);
            }
            let sub = if i % 3 == 0 { "sub/" } else { "" };
            std::fs::write(dir.join(format!("{sub}g{i:03}.sgf")), crate::sgf::write(&g)).unwrap();
        }
        std::fs::write(dir.join("broken.sgf"), "(;GM[1]SZ[9];B[ee").unwrap();
        std::fs::write(dir.join("notes.txt"), "not a record").unwrap();
    }

    fn cfg(dir: &Path, seed: u64) -> LearnConfig {
        LearnConfig {
            records: vec![dir.to_path_buf()],
            seed,
            positions: 600,
            iterations: 4,
            min_count: 2,
            size: 9,
            holdout: 5,
        }
    }

    #[test]
    fn learning_is_reproducible_and_finds_the_signal() {
        let dir = std::env::temp_dir().join(format!("tengen-learn-{}", std::process::id()));
        write_games(&dir, 30);
        let stop = AtomicBool::new(false);
        let (a, ra) = learn(&cfg(&dir, 3), &stop, |_| {}).unwrap();
        let (b, _) = learn(&cfg(&dir, 3), &stop, |_| {}).unwrap();
        let (c, _) = learn(&cfg(&dir, 4), &stop, |_| {}).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(a.to_text(), b.to_text(), "same records and seed, same file");
        assert_ne!(
            a.to_text(),
            c.to_text(),
            "another seed samples other positions"
        );
        assert_eq!(ra.files, 31, "30 games and the broken file, not the .txt");
        assert_eq!(ra.unreadable.len(), 1);
        assert_eq!((ra.train_games, ra.test_games), (24, 6));
        // The likelihood rises, and moves next to the last one are rated
        // above every other distance.
        assert!(
            ra.log_likelihood.windows(2).all(|w| w[1] >= w[0] - 1e-9),
            "{:?}",
            ra.log_likelihood
        );
        let last = |d: u64| a.get(features::key(Group::Last, d)).unwrap();
        for d in 3..=MAX {
            assert!(
                last(2) > 2.0 * last(d),
                "last 2: {}, last {d}: {}",
                last(2),
                last(d)
            );
        }
        assert!(
            ra.test_ll > ra.uniform_ll,
            "{} vs uniform {}",
            ra.test_ll,
            ra.uniform_ll
        );
        // The playout patterns: most moves went next to the last one, and
        // the gammas predict that better than a uniform choice among the
        // neighbours and elsewhere.
        let p = ra.playout.as_ref().expect("playout patterns learned");
        assert!(
            p.local * 2 > p.positions,
            "{} of {} next to the last move",
            p.local,
            p.positions
        );
        assert!(
            p.test_ll > p.test_uniform_ll,
            "{} vs uniform {}",
            p.test_ll,
            p.test_uniform_ll
        );
        assert!(a.playout_table().is_some());
        // The written text reads back.
        let back = Model::parse(&a.to_text(), Path::new("a.pat")).unwrap();
        assert_eq!(back.to_text(), a.to_text());
    }

    const MAX: u64 = features::MAX_DISTANCE as u64;

    #[test]
    fn no_records_is_an_error_that_names_the_path() {
        let dir = std::env::temp_dir().join(format!("tengen-learn-empty-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let stop = AtomicBool::new(false);
        let e = learn(&cfg(&dir, 1), &stop, |_| {}).unwrap_err().to_string();
        let _ = std::fs::remove_dir_all(&dir);
        assert!(
            e.contains("no .sgf files") && e.contains("tengen-learn-empty"),
            "{e}"
        );
        let e = learn(&cfg(Path::new("/nonexistent/records"), 1), &stop, |_| {})
            .unwrap_err()
            .to_string();
        assert!(e.contains("/nonexistent/records"), "{e}");
    }
}
