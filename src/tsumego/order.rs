//! Move ordering: static features of a candidate move, scored by the
//! `ts_att_*` / `ts_def_*` weights, plus the dynamic terms (`ts_dyn_*`) that
//! the search feeds. Ordering changes which move the solver tries first,
//! never which answer it proves.

pub use super::eyes::RegionCaps;
use super::region::Problem;
use crate::rules::{Board, Cell, ChainInsert, ChainSet, Color, Point};
use crate::weights::Weights;

/// Declares the static features once: the enum that indexes the feature
/// array, their names, and the attacker's and defender's weight of each
/// (a weight missing from `Weights` is a compile error, not a panic).
macro_rules! features {
    ($( $variant:ident => $name:literal, $att:ident, $def:ident; )*) => {
        /// A static feature of a candidate move; its index in the array.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Feature {
            $( $variant, )*
        }

        impl Feature {
            /// Every feature, in index order.
            pub const ALL: [Feature; NF] = [$( Feature::$variant, )*];

            /// The name in the weights (`ts_att_<name>`, `ts_def_<name>`).
            pub fn name(self) -> &'static str {
                match self {
                    $( Feature::$variant => $name, )*
                }
            }
        }

        /// The static weight rows `[attacker, defender]` (middle stage).
        fn static_rows(w: &Weights) -> [[f64; NF]; 2] {
            [[$( w.$att[1], )*], [$( w.$def[1], )*]]
        }
    };
}

features! {
    Capture => "capture", ts_att_capture, ts_def_capture;
    Atari => "atari", ts_att_atari, ts_def_atari;
    Escape => "escape", ts_att_escape, ts_def_escape;
    SelfAtari => "self_atari", ts_att_self_atari, ts_def_self_atari;
    Libs => "libs", ts_att_libs, ts_def_libs;
    EmptyNbrs => "empty_nbrs", ts_att_empty_nbrs, ts_def_empty_nbrs;
    EyeCenter => "eye_center", ts_att_eye_center, ts_def_eye_center;
    MakesEye => "makes_eye", ts_att_makes_eye, ts_def_makes_eye;
    FillsEye => "fills_eye", ts_att_fills_eye, ts_def_fills_eye;
    InOppEye => "in_opp_eye", ts_att_in_opp_eye, ts_def_in_opp_eye;
    KillsEye => "kills_eye", ts_att_kills_eye, ts_def_kills_eye;
    SplitWeak => "split_weak", ts_att_split_weak, ts_def_split_weak;
    Cut => "cut", ts_att_cut, ts_def_cut;
    Connect => "connect", ts_att_connect, ts_def_connect;
    OneTwo => "one_two", ts_att_one_two, ts_def_one_two;
    Corner => "corner", ts_att_corner, ts_def_corner;
    FirstLine => "first_line", ts_att_first_line, ts_def_first_line;
    CrucialLib => "crucial_lib", ts_att_crucial_lib, ts_def_crucial_lib;
    TouchesWall => "touches_wall", ts_att_touches_wall, ts_def_touches_wall;
    DiagOwn => "diag_own", ts_att_diag_own, ts_def_diag_own;
    OppNbrs => "opp_nbrs", ts_att_opp_nbrs, ts_def_opp_nbrs;
    Pass => "pass", ts_att_pass, ts_def_pass;
}

/// Number of static features.
pub const NF: usize = 22;
/// Index of the pass feature (set only for a pass).
pub const PASS_FEATURE: usize = Feature::Pass as usize;

/// The solver's weights, read once per solve.
#[derive(Clone, Debug)]
pub struct OrderWeights {
    /// Static weights: `[attacker, defender]`, indexed by [`Feature`].
    pub stat: [[f64; NF]; 2],
    pub wins: f64,
    pub history: f64,
    pub killer: f64,
    pub opp_best: f64,
    pub useless: f64,
    pub rank_cost: f64,
    /// Initial proof/disproof cost per unit of heuristic distance.
    pub distance: f64,
    /// Deep df-pn depth (0 = off) and the nodes a search spends before
    /// it applies.
    pub deep: u64,
    pub deep_after: u64,
    /// The region game's vertex cap and position limit.
    pub region: RegionCaps,
    /// Share of the ordered moves kept at levels 3..=5.
    pub keep: [f64; 3],
    pub eye_fill_level: u8,
    pub min_moves: usize,
    pub self_atari_level: u8,
    pub pass_level: u8,
}

impl OrderWeights {
    /// The solver reads the middle stage of every weight.
    pub fn new(w: &Weights) -> OrderWeights {
        OrderWeights {
            stat: static_rows(w),
            wins: w.ts_dyn_wins[1],
            history: w.ts_dyn_history[1],
            killer: w.ts_dyn_killer[1],
            opp_best: w.ts_dyn_opp_best[1],
            useless: w.ts_dyn_useless[1],
            rank_cost: w.ts_dyn_rank_cost[1],
            distance: w.ts_dyn_distance[1],
            deep: w.ts_dyn_deep[1] as u64,
            deep_after: w.ts_dyn_deep_after[1] as u64,
            region: RegionCaps {
                vertices: w.ts_region_vertices[1] as usize,
                positions: w.ts_region_positions[1] as u64,
            },
            keep: [
                w.ts_prune_keep_3[1],
                w.ts_prune_keep_4[1],
                w.ts_prune_keep_5[1],
            ],
            eye_fill_level: w.ts_prune_eye_fill_level[1] as u8,
            min_moves: w.ts_prune_min_moves[1] as usize,
            self_atari_level: w.ts_prune_self_atari_level[1] as u8,
            pass_level: w.ts_prune_pass_level[1] as u8,
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
    use Feature as F;
    *out = [0.0; NF];
    let me = Cell::stone(color);
    let opp = Cell::stone(color.opponent());
    let mut own_chains = ChainSet::<4>::new();
    let mut opp_chains = ChainSet::<4>::new();
    let mut weak_opp = 0;
    let mut saved = 0;
    for q in before.neighbors(p) {
        let c = before.cell(q);
        if c == Cell::Empty && prob.in_region(q) {
            out[F::EmptyNbrs as usize] += 1.0;
            if before.is_eyelike(q, color.opponent()) {
                out[F::KillsEye as usize] += 1.0;
            }
            if after.is_eyelike(q, color) && !before.is_eyelike(q, color) {
                out[F::MakesEye as usize] += 1.0;
            }
        } else if c == me {
            if own_chains.insert(before, q) == ChainInsert::New && before.liberties(q) == 1 {
                saved += 1;
            }
        } else if c == opp {
            out[F::OppNbrs as usize] += 1.0;
            if !prob.in_region(q) {
                out[F::TouchesWall as usize] += 1.0;
            }
            if opp_chains.insert(before, q) == ChainInsert::New {
                let libs = before.liberties(q);
                if libs <= 2 {
                    weak_opp += 1;
                }
                if libs == 2 {
                    out[F::Atari as usize] += 1.0;
                }
            }
            if crucial_heads.contains(&before.chain_head(q)) {
                out[F::CrucialLib as usize] = 1.0;
            }
        }
        if c == me && crucial_heads.contains(&before.chain_head(q)) {
            out[F::CrucialLib as usize] = 1.0;
        }
    }
    let captured = after.num_empty() + 1 - before.num_empty();
    out[F::Capture as usize] = captured.min(4) as f64;
    let libs = after.liberties(p);
    out[F::Libs as usize] = libs.min(4) as f64;
    if saved > 0 && libs >= 2 {
        out[F::Escape as usize] = saved as f64;
    }
    if libs == 1 && captured == 0 {
        out[F::SelfAtari as usize] = 1.0;
    }
    out[F::EyeCenter as usize] = before
        .neighbors(p)
        .iter()
        .all(|&q| before.cell(q) == Cell::Empty && prob.in_region(q))
        as u8 as f64;
    out[F::FillsEye as usize] = before.is_eyelike(p, color) as u8 as f64;
    out[F::InOppEye as usize] = before.is_eyelike(p, color.opponent()) as u8 as f64;
    out[F::SplitWeak as usize] = (weak_opp >= 2) as u8 as f64;
    out[F::Cut as usize] = (opp_chains.len() >= 2) as u8 as f64;
    out[F::Connect as usize] = (own_chains.len() >= 2) as u8 as f64;
    let c = before.coord(p);
    let n = before.size() as u8 - 1;
    let ex = c.x.min(n - c.x);
    let ey = c.y.min(n - c.y);
    out[F::OneTwo as usize] = ((ex == 0 && ey == 1) || (ex == 1 && ey == 0)) as u8 as f64;
    out[F::Corner as usize] = (ex == 0 && ey == 0) as u8 as f64;
    out[F::FirstLine as usize] = (ex == 0 || ey == 0) as u8 as f64;
    out[F::DiagOwn as usize] = before
        .diagonals(p)
        .iter()
        .filter(|&&d| before.cell(d) == me)
        .count() as f64;
}

/// True if the move fills an eye-like point of the mover without saving
/// one of its chains from atari (a move that does is how a ko is closed,
/// which the level-2 rule must not prune).
pub fn fills_own_eye(f: &[f64; NF]) -> bool {
    f[Feature::FillsEye as usize] > 0.0 && f[Feature::Escape as usize] == 0.0
}

/// True if the feature vector says self-atari.
pub fn is_self_atari(f: &[f64; NF]) -> bool {
    f[Feature::SelfAtari as usize] > 0.0
}

/// The static score of a feature vector for a role (0 attacker, 1 defender).
pub fn score(w: &OrderWeights, role: usize, f: &[f64; NF]) -> f64 {
    w.stat[role].iter().zip(f).map(|(a, b)| a * b).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::weights::SPECS;

    /// Each feature reads the weights named after it, in index order, and
    /// every static weight is some feature's.
    #[test]
    fn features_read_the_weights_named_after_them() {
        let mut w = Weights::default();
        // Distinct values, so that a swapped field shows.
        for (i, slot) in w.slots_mut().into_iter().enumerate() {
            *slot = [0.0, i as f64 + 0.5, 0.0];
        }
        let rows = static_rows(&w);
        for (k, f) in Feature::ALL.iter().enumerate() {
            assert_eq!(*f as usize, k);
            for (r, role) in ["att", "def"].iter().enumerate() {
                let name = format!("ts_{role}_{}", f.name());
                let i = SPECS.iter().position(|s| s.name == name).unwrap();
                assert_eq!(rows[r][k], i as f64 + 0.5, "{name}");
            }
        }
        let statics = SPECS
            .iter()
            .filter(|s| s.name.starts_with("ts_att_") || s.name.starts_with("ts_def_"))
            .count();
        assert_eq!(statics, 2 * NF);
    }
}
