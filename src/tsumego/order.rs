//! Move ordering: static features of a candidate move, scored by the
//! `ts_att_*` / `ts_def_*` weights, plus the dynamic terms (`ts_dyn_*`) that
//! the search feeds. Ordering changes which move the solver tries first,
//! never which answer it proves.

use super::region::Problem;
use crate::rules::{Board, Cell, Color, Point};
use crate::weights::{SPECS, Weights};

/// The static features, in weight order. `pass` is only set for a pass.
pub const FEATURES: [&str; NF] = [
    "capture",
    "atari",
    "escape",
    "self_atari",
    "libs",
    "empty_nbrs",
    "eye_center",
    "makes_eye",
    "fills_eye",
    "in_opp_eye",
    "kills_eye",
    "split_weak",
    "cut",
    "connect",
    "one_two",
    "corner",
    "first_line",
    "crucial_lib",
    "touches_wall",
    "diag_own",
    "opp_nbrs",
    "pass",
];
pub const NF: usize = 22;
pub const PASS_FEATURE: usize = NF - 1;
const SELF_ATARI: usize = 3;

/// The solver's weights, read once per solve.
#[derive(Clone, Debug)]
pub struct OrderWeights {
    /// Static weights: `[attacker, defender]`.
    pub stat: [[f64; NF]; 2],
    pub wins: f64,
    pub history: f64,
    pub killer: f64,
    pub opp_best: f64,
    pub useless: f64,
    pub rank_cost: f64,
    /// Initial proof/disproof cost per unit of heuristic distance.
    pub distance: f64,
    /// Share of the ordered moves kept at levels 3..=5.
    pub keep: [f64; 3],
    pub eye_fill_level: u8,
    pub min_moves: usize,
    pub self_atari_level: u8,
    pub pass_level: u8,
}

fn value(w: &Weights, name: &str) -> f64 {
    let i = SPECS
        .iter()
        .position(|s| s.name == name)
        .unwrap_or_else(|| panic!("weight {name} is not declared"));
    w.slots()[i][1]
}

impl OrderWeights {
    pub fn new(w: &Weights) -> OrderWeights {
        let mut stat = [[0.0; NF]; 2];
        for (r, role) in ["att", "def"].iter().enumerate() {
            for (f, name) in FEATURES.iter().enumerate() {
                stat[r][f] = value(w, &format!("ts_{role}_{name}"));
            }
        }
        OrderWeights {
            stat,
            wins: value(w, "ts_dyn_wins"),
            history: value(w, "ts_dyn_history"),
            killer: value(w, "ts_dyn_killer"),
            opp_best: value(w, "ts_dyn_opp_best"),
            useless: value(w, "ts_dyn_useless"),
            rank_cost: value(w, "ts_dyn_rank_cost"),
            distance: value(w, "ts_dyn_distance"),
            keep: [3, 4, 5].map(|l| value(w, &format!("ts_prune_keep_{l}"))),
            eye_fill_level: value(w, "ts_prune_eye_fill_level") as u8,
            min_moves: value(w, "ts_prune_min_moves") as usize,
            self_atari_level: value(w, "ts_prune_self_atari_level") as u8,
            pass_level: value(w, "ts_prune_pass_level") as u8,
        }
    }
}

/// The features of `color` playing `p`: `before` is the position, `after`
/// the position once the move is played.
pub fn features(
    prob: &Problem,
    before: &Board,
    after: &Board,
    p: Point,
    color: Color,
    crucial_heads: &[Point],
    out: &mut [f64; NF],
) {
    *out = [0.0; NF];
    let me = Cell::stone(color);
    let opp = Cell::stone(color.opponent());
    let mut own_chains = [0u16; 4];
    let mut n_own = 0;
    let mut opp_chains = [0u16; 4];
    let mut n_opp = 0;
    let mut weak_opp = 0;
    let mut saved = 0;
    for q in before.neighbors(p) {
        let c = before.cell(q);
        if c == Cell::Empty && prob.in_region(q) {
            out[5] += 1.0;
            if before.is_eyelike(q, color.opponent()) {
                out[10] += 1.0;
            }
            if after.is_eyelike(q, color) && !before.is_eyelike(q, color) {
                out[7] += 1.0;
            }
        } else if c == me {
            let h = before.chain_head(q).0;
            if !own_chains[..n_own].contains(&h) {
                own_chains[n_own] = h;
                n_own += 1;
                if before.liberties(q) == 1 {
                    saved += 1;
                }
            }
        } else if c == opp {
            out[20] += 1.0;
            if !prob.in_region(q) {
                out[18] += 1.0;
            }
            let h = before.chain_head(q).0;
            if !opp_chains[..n_opp].contains(&h) {
                opp_chains[n_opp] = h;
                n_opp += 1;
                let libs = before.liberties(q);
                if libs <= 2 {
                    weak_opp += 1;
                }
                if libs == 2 {
                    out[1] += 1.0;
                }
            }
            if crucial_heads.contains(&before.chain_head(q)) {
                out[17] = 1.0;
            }
        }
        if c == me && crucial_heads.contains(&before.chain_head(q)) {
            out[17] = 1.0;
        }
    }
    let captured = after.num_empty() + 1 - before.num_empty();
    out[0] = captured.min(4) as f64;
    let libs = after.liberties(p);
    out[4] = libs.min(4) as f64;
    if saved > 0 && libs >= 2 {
        out[2] = saved as f64;
    }
    if libs == 1 && captured == 0 {
        out[SELF_ATARI] = 1.0;
    }
    out[6] = before
        .neighbors(p)
        .iter()
        .all(|&q| before.cell(q) == Cell::Empty && prob.in_region(q)) as u8 as f64;
    out[8] = before.is_eyelike(p, color) as u8 as f64;
    out[9] = before.is_eyelike(p, color.opponent()) as u8 as f64;
    out[11] = (weak_opp >= 2) as u8 as f64;
    out[12] = (n_opp >= 2) as u8 as f64;
    out[13] = (n_own >= 2) as u8 as f64;
    let c = before.coord(p);
    let n = before.size() as u8 - 1;
    let ex = c.x.min(n - c.x);
    let ey = c.y.min(n - c.y);
    out[14] = ((ex == 0 && ey == 1) || (ex == 1 && ey == 0)) as u8 as f64;
    out[15] = (ex == 0 && ey == 0) as u8 as f64;
    out[16] = (ex == 0 || ey == 0) as u8 as f64;
    out[19] = before
        .diagonals(p)
        .iter()
        .filter(|&&d| before.cell(d) == me)
        .count() as f64;
}

/// True if the move fills an eye-like point of the mover without saving
/// one of its chains from atari (a move that does is how a ko is closed,
/// which the level-2 rule must not prune).
pub fn fills_own_eye(f: &[f64; NF]) -> bool {
    f[8] > 0.0 && f[2] == 0.0
}

/// True if the feature vector says self-atari.
pub fn is_self_atari(f: &[f64; NF]) -> bool {
    f[SELF_ATARI] > 0.0
}

/// The static score of a feature vector for a role (0 attacker, 1 defender).
pub fn score(w: &OrderWeights, role: usize, f: &[f64; NF]) -> f64 {
    w.stat[role].iter().zip(f).map(|(a, b)| a * b).sum()
}
