//! The one `Weights` struct: every tunable constant of the priors, the
//! playout policy and the tree policy, with its name, group, range, default
//! and meaning. The engine reads it; the tuner (issue 6) writes it.
//!
//! A weight may be *staged* by game phase: it then has three values, for
//! the opening, the middle game and the endgame, and the value used is
//! interpolated by the fraction of the board filled (see [`phase`]).
//!
//! On disk a weights file is TOML (see `docs/weights.md`): one key per
//! weight, a number, or for a staged weight either a number (the same in
//! every phase) or `{ opening = a, middle = b, endgame = c }`. Unknown keys,
//! non-integers for integer weights and values out of range are errors that
//! name the key and the file. A key the file lacks (a weight added after the
//! file was written) takes its default, and [`Loaded::missing`] names it so
//! that the program can warn.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use thiserror::Error;

/// The tuning group of a weight (`tengen tune --group`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// Priors and tree policy.
    Tree,
    /// Playout policy.
    Playout,
    /// Tsumego solver: static move ordering (the board alone).
    Static,
    /// Tsumego solver: dynamic move ordering (what the search learned).
    Dynamic,
    /// Tsumego solver: forward pruning at speed levels 2-5.
    Pruning,
    /// Tsumego solver: the effort of the static evaluation. More effort
    /// settles more answers within the node limit at more time per node;
    /// the solver's fitness counts leaves, not time, so the tuner leaves
    /// this group alone (set by hand, docs/tsumego.md).
    Effort,
}

impl Group {
    pub fn name(self) -> &'static str {
        match self {
            Group::Tree => "tree",
            Group::Playout => "playout",
            Group::Static => "static",
            Group::Dynamic => "dynamic",
            Group::Pruning => "pruning",
            Group::Effort => "effort",
        }
    }
}

/// The description of one weight.
#[derive(Clone, Copy, Debug)]
pub struct WeightSpec {
    pub name: &'static str,
    pub group: Group,
    /// Integer weights only take integral values.
    pub integer: bool,
    pub min: f64,
    pub max: f64,
    /// Opening, middle game, endgame (all equal unless staged).
    pub default: [f64; 3],
    pub staged: bool,
    pub meaning: &'static str,
}

/// Phase names, in the order of the stage arrays.
pub const STAGES: [&str; 3] = ["opening", "middle", "endgame"];

/// Fill fraction at which the middle-game value applies fully.
pub const PHASE_MIDDLE_FILL: f64 = 0.25;
/// Fill fraction from which the endgame value applies fully.
pub const PHASE_END_FILL: f64 = 0.55;

/// The interpolation weights of the three stages for a board whose
/// fraction `fill` (stones / points) is filled: piecewise linear from the
/// opening (empty board) to the middle game (`PHASE_MIDDLE_FILL`) to the
/// endgame (`PHASE_END_FILL` and beyond).
pub fn phase(fill: f64) -> [f64; 3] {
    let f = fill.clamp(0.0, 1.0);
    if f <= PHASE_MIDDLE_FILL {
        let t = f / PHASE_MIDDLE_FILL;
        [1.0 - t, t, 0.0]
    } else if f < PHASE_END_FILL {
        let t = (f - PHASE_MIDDLE_FILL) / (PHASE_END_FILL - PHASE_MIDDLE_FILL);
        [0.0, 1.0 - t, t]
    } else {
        [0.0, 0.0, 1.0]
    }
}

macro_rules! stage_default {
    (($a:expr, $b:expr, $c:expr)) => {
        ([$a as f64, $b as f64, $c as f64], true)
    };
    ($x:expr) => {
        ([$x as f64, $x as f64, $x as f64], false)
    };
}

macro_rules! weights {
    ($( $name:ident : $group:ident $kind:ident [$min:expr, $max:expr] = $default:tt, $meaning:literal; )*) => {
        /// Every tunable constant, each as [opening, middle, endgame].
        #[derive(Clone, Debug, PartialEq)]
        pub struct Weights {
            $( #[doc = $meaning] pub $name: [f64; 3], )*
        }

        /// The weights at one game phase, as the hot code reads them.
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct Resolved {
            $( #[doc = $meaning] pub $name: f64, )*
        }

        /// The specification of every weight, in file order.
        pub static SPECS: &[WeightSpec] = &[
            $( WeightSpec {
                name: stringify!($name),
                group: Group::$group,
                integer: weights!(@int $kind),
                min: $min as f64,
                max: $max as f64,
                default: stage_default!($default).0,
                staged: stage_default!($default).1,
                meaning: $meaning,
            }, )*
        ];

        impl Default for Weights {
            fn default() -> Weights {
                Weights { $( $name: stage_default!($default).0, )* }
            }
        }

        impl Weights {
            /// The value slots in the order of [`SPECS`].
            pub fn slots(&self) -> Vec<&[f64; 3]> {
                vec![ $( &self.$name, )* ]
            }

            /// The value slots in the order of [`SPECS`], mutable.
            pub fn slots_mut(&mut self) -> Vec<&mut [f64; 3]> {
                vec![ $( &mut self.$name, )* ]
            }

            /// The weights at a phase given by [`phase`].
            pub fn resolve(&self, phase: [f64; 3]) -> Resolved {
                let at = |v: &[f64; 3]| v[0] * phase[0] + v[1] * phase[1] + v[2] * phase[2];
                Resolved { $( $name: at(&self.$name), )* }
            }
        }
    };
    (@int int) => { true };
    (@int real) => { false };
}

weights! {
    // ---- tree policy ----
    uct_c: Tree real [0.0, 2.0] = 0.05,
        "exploration coefficient of the UCB term sqrt(ln N / n)";
    rave_schedule: Tree int [0, 1] = 0,
        "RAVE weight schedule: 0 = Gelly-Silver minimum-MSE, 1 = hand-selected sqrt(k/(3n+k))";
    rave_equiv: Tree real [10.0, 100000.0] = 2000.0,
        "RAVE equivalence parameter (playouts at which tree and AMAF values weigh equally)";
    fpu: Tree real [0.0, 1.5] = 1.1,
        "first-play urgency: the value of a child never visited";
    expand_visits: Tree int [1, 64] = 2,
        "visits a leaf needs before it is expanded";
    virtual_loss: Tree int [0, 16] = 1,
        "virtual losses added to a node while a thread searches below it";
    resign_threshold: Tree real [0.0, 0.5] = 0.08,
        "resign when the root win rate is below this";
    resign_min_visits: Tree int [100, 1000000] = 3000,
        "the root needs this many visits before resigning";
    time_extend: Tree real [1.0, 4.0] = 2.0,
        "under a clock, in main time: think up to this multiple of a move's planned time while its choice is unsettled (a move with half the visits of the most visited one has a better win rate); 1 is off";
    // ---- best-move table and iterative deepening (docs/table.md) ----
    table_prior: Tree real [0.0, 200.0] = 20.0,
        "virtual wins for the table's best move at quality 20 (about 1,000 visits), scaled by the stored quality";
    table_store_visits: Tree int [1, 1000000] = 16,
        "visits a node's best child needs before the node's best move is stored in the table";
    book_move_ratio: Tree real [0.0, 1000.0] = 0.0,
        "play the table's move without searching when the table holds the position as a search root (depth 0) with at least this many times the visits of that move as this move's search would make playouts (0: never)";
    table_depth_exchange: Tree real [0.0, 8.0] = 2.0,
        "replacement rule: quality steps (half powers of two of visits) that one log2 step of depth is worth";
    id_mode: Tree int [0, 3] = 3,
        "iterative deepening: 0 off (one tree per search; the table still gives priors and takes stores), 1 restart when table misses grow, 2 fixed doubling schedule, 3 when the tree reaches its memory cap (--max-tree-mb), keep its most visited part (id_full_keep) and go on, the table guiding the rest";
    id_first_playouts: Tree int [100, 10000000] = 1000,
        "playout budget of the first iteration";
    id_growth: Tree real [1.1, 8.0] = 2.0,
        "factor by which each iteration's budget grows";
    id_miss_share: Tree real [0.0, 1.0] = 0.6,
        "an iteration past its budget ends when this share of recent expansions misses the table";
    id_window: Tree int [16, 100000] = 100,
        "expansions over which the miss share is measured";
    id_full_room: Tree real [0.0, 8.0] = 1.0,
        "id_mode 3: a full tree restarts only if the limits leave this multiple of the playouts the full iteration ran (0: always)";
    id_full_keep: Tree real [0.0, 0.9] = 0.5,
        "id_mode 3: share of the memory cap a restart keeps, the most visited part of the tree (0: an empty tree)";
    // ---- priors (virtual playouts added when a node is created) ----
    prior_even: Tree real [0.0, 100.0] = 10.0,
        "virtual playouts at a 50% win rate given to every child";
    prior_capture: Tree real [0.0, 100.0] = 30.0,
        "virtual wins for a move that captures";
    prior_atari_escape: Tree real [0.0, 100.0] = 20.0,
        "virtual wins for a move that saves an own chain in atari (not given when a ladder then captures it)";
    prior_ladder_escape: Tree real [0.0, 100.0] = 20.0,
        "virtual losses, below the root, for extending an own chain in atari into a ladder that captures it (the root never plays such a move)";
    prior_ladder_atari: Tree real [0.0, 100.0] = 20.0,
        "virtual wins for an atari whose chain cannot escape the ladder";
    prior_self_atari: Tree real [0.0, 100.0] = 20.0,
        "virtual losses for a self-atari of two or more stones";
    prior_pattern: Tree real [0.0, 100.0] = 10.0,
        "virtual wins for a move that matches a good 3x3 pattern";
    prior_near_last: Tree real [0.0, 100.0] = (4.0, 6.0, 6.0),
        "virtual wins for a move within distance 2 of the last move";
    prior_line1: Tree real [0.0, 100.0] = (30.0, 15.0, 0.0),
        "virtual losses for a first-line move with nothing near it";
    prior_line2: Tree real [0.0, 100.0] = (10.0, 3.0, 0.0),
        "virtual losses for a second-line move with nothing near it";
    prior_line3: Tree real [0.0, 100.0] = (10.0, 3.0, 0.0),
        "virtual wins for a third- or fourth-line move with nothing near it";
    prior_empty_corner: Tree real [0.0, 100.0] = (0.0, 0.0, 0.0),
        "virtual wins, on 13x13 and larger, for a 3-3, 3-4 or 4-4 point of a corner whose 6x6 square is empty";
    prior_eye_fill: Tree real [0.0, 200.0] = 50.0,
        "virtual losses for filling an own eye";
    prior_learned_9: Tree real [0.0, 200.0] = 10.0,
        "virtual playouts of the learned-pattern prior on 9x9 and smaller: the strongest candidate wins them all, the others in proportion to their strength (0: off)";
    prior_learned_19: Tree real [0.0, 200.0] = 45.0,
        "the same on 19x19 and larger; sizes between interpolate linearly";
    // ---- playout policy ----
    po_atari: Playout real [0.0, 1.0] = 0.95,
        "probability of capturing the last move's chain or saving an own chain it put in atari";
    po_ladder: Playout real [0.0, 1.0] = 1.0,
        "probability that a playout reads ladders: it does not extend a chain in atari into a working ladder, and it chases a working ladder the last move ran into";
    po_two_lib: Playout real [0.0, 1.0] = 0.5,
        "probability of an atari on a two-liberty chain next to the last move";
    po_two_lib_defend: Playout real [0.0, 1.0] = 0.0,
        "probability of defending an own chain the last move left with two liberties, when an atari on it would not be escaped at once (extend to three or more liberties, or capture a neighbour in atari)";
    po_three_lib: Playout real [0.0, 1.0] = 0.0,
        "probability of playing a capturing race of three liberties: when the last move left an own chain of two or more stones with three liberties beside an opponent chain with three or fewer, shorten that chain's liberties or extend to four or more";
    po_eye_fix: Playout real [0.0, 1.0] = 0.0,
        "probability of fixing an own eye the last move made one step from false (an opponent stone on a diagonal): play the eye's last empty diagonal that the opponent could take";
    po_ko_recapture: Playout real [0.0, 1.0] = 0.0,
        "probability of retaking a ko two moves after the opponent took it (after a threat and its answer), at most four times in a playout";
    po_pattern: Playout real [0.0, 1.0] = 0.9,
        "probability of a 3x3 pattern move next to the last move";
    po_pattern_learned: Playout int [0, 1] = 0,
        "3x3 patterns of the playouts: 0 the fixed shapes (a matching point next to the last move, drawn evenly), 1 the learned gammas of the pattern file (a point next to the last move drawn by its gamma, against the gamma of a move elsewhere; the fixed shapes when the file has none)";
    po_pattern_elsewhere: Playout real [0.0, 10.0] = 1.0,
        "with po_pattern_learned = 1: the factor on the learned gamma of a move elsewhere, against which the neighbours of the last move are drawn (below 1 the rule plays next to the last move more often than the records did)";
    po_nakade: Playout real [0.0, 1.0] = 0.9,
        "probability of playing the vital point of a nakade shape next to the last move";
    po_self_atari_reject: Playout real [0.0, 1.0] = 0.9,
        "probability that a random self-atari of one stone is rejected, unless it is a snapback or a throw-in that puts an opponent chain in atari";
    po_self_atari_big: Playout real [0.0, 1.0] = 1.0,
        "probability that a random self-atari of two or more stones is rejected, unless it fills a nakade; one that fills a shared liberty of a seki is always rejected";
    po_fill_board: Playout int [0, 10] = 3,
        "random tries for a point with all eight neighbours empty before the plain random move";
    // ---- tsumego solver: static ordering (attacker, then defender) ----
    ts_att_capture: Static real [-50.0, 50.0] = 8.0,
        "attacker: stones the move captures (at most 4)";
    ts_att_atari: Static real [-50.0, 50.0] = 3.0,
        "attacker: opponent chains the move puts in atari";
    ts_att_escape: Static real [-50.0, 50.0] = 6.0,
        "attacker: own chains in atari that the move gives two or more liberties";
    ts_att_self_atari: Static real [-50.0, 50.0] = (-8.0),
        "attacker: the move leaves its own chain in atari without capturing";
    ts_att_libs: Static real [-50.0, 50.0] = 1.0,
        "attacker: liberties of the move's chain after the move (at most 4)";
    ts_att_empty_nbrs: Static real [-50.0, 50.0] = 1.0,
        "attacker: empty points of the region next to the move";
    ts_att_eye_center: Static real [-50.0, 50.0] = 4.0,
        "attacker: the move is at distance 2 or more from the eye space's edge (a potential vital point)";
    ts_att_makes_eye: Static real [-50.0, 50.0] = 1.0,
        "attacker: neighbouring empty points that become eye-like for the mover";
    ts_att_fills_eye: Static real [-50.0, 50.0] = (-6.0),
        "attacker: the move fills an eye-like point of the mover";
    ts_att_in_opp_eye: Static real [-50.0, 50.0] = 2.0,
        "attacker: the move is on an eye-like point of the opponent (a throw-in)";
    ts_att_kills_eye: Static real [-50.0, 50.0] = 6.0,
        "attacker: neighbouring empty points that were eye-like for the opponent";
    ts_att_split_weak: Static real [-50.0, 50.0] = 4.0,
        "attacker: the move touches two or more opponent chains with at most two liberties";
    ts_att_cut: Static real [-50.0, 50.0] = 2.0,
        "attacker: the move touches two or more opponent chains";
    ts_att_connect: Static real [-50.0, 50.0] = 1.0,
        "attacker: the move joins two or more own chains";
    ts_att_one_two: Static real [-50.0, 50.0] = 2.0,
        "attacker: the move is on a 1-2 point (first line, next to the corner)";
    ts_att_corner: Static real [-50.0, 50.0] = 0.0,
        "attacker: the move is on a 1-1 point";
    ts_att_first_line: Static real [-50.0, 50.0] = (-1.0),
        "attacker: the move is on the first line";
    ts_att_crucial_lib: Static real [-50.0, 50.0] = 3.0,
        "attacker: the move is a liberty of the crucial chain";
    ts_att_touches_wall: Static real [-50.0, 50.0] = 2.0,
        "attacker: the move touches a safe (wall) stone";
    ts_att_diag_own: Static real [-50.0, 50.0] = 0.0,
        "attacker: own stones diagonal to the move";
    ts_att_opp_nbrs: Static real [-50.0, 50.0] = 1.0,
        "attacker: opponent stones next to the move";
    ts_att_pass: Static real [-50.0, 50.0] = (-20.0),
        "attacker: score of passing (ordered with the moves)";
    ts_def_capture: Static real [-50.0, 50.0] = 10.0,
        "defender: stones the move captures (at most 4)";
    ts_def_atari: Static real [-50.0, 50.0] = 3.0,
        "defender: opponent chains the move puts in atari";
    ts_def_escape: Static real [-50.0, 50.0] = 8.0,
        "defender: own chains in atari that the move gives two or more liberties";
    ts_def_self_atari: Static real [-50.0, 50.0] = (-8.0),
        "defender: the move leaves its own chain in atari without capturing";
    ts_def_libs: Static real [-50.0, 50.0] = 1.0,
        "defender: liberties of the move's chain after the move (at most 4)";
    ts_def_empty_nbrs: Static real [-50.0, 50.0] = 2.0,
        "defender: empty points of the region next to the move";
    ts_def_eye_center: Static real [-50.0, 50.0] = 5.0,
        "defender: the move is at distance 2 or more from the eye space's edge (a potential vital point)";
    ts_def_makes_eye: Static real [-50.0, 50.0] = 6.0,
        "defender: neighbouring empty points that become eye-like for the mover";
    ts_def_fills_eye: Static real [-50.0, 50.0] = (-10.0),
        "defender: the move fills an eye-like point of the mover";
    ts_def_in_opp_eye: Static real [-50.0, 50.0] = 0.0,
        "defender: the move is on an eye-like point of the opponent (a throw-in)";
    ts_def_kills_eye: Static real [-50.0, 50.0] = 2.0,
        "defender: neighbouring empty points that were eye-like for the opponent";
    ts_def_split_weak: Static real [-50.0, 50.0] = 4.0,
        "defender: the move touches two or more opponent chains with at most two liberties";
    ts_def_cut: Static real [-50.0, 50.0] = 2.0,
        "defender: the move touches two or more opponent chains";
    ts_def_connect: Static real [-50.0, 50.0] = 3.0,
        "defender: the move joins two or more own chains";
    ts_def_one_two: Static real [-50.0, 50.0] = 2.0,
        "defender: the move is on a 1-2 point (first line, next to the corner)";
    ts_def_corner: Static real [-50.0, 50.0] = (-1.0),
        "defender: the move is on a 1-1 point";
    ts_def_first_line: Static real [-50.0, 50.0] = (-1.0),
        "defender: the move is on the first line";
    ts_def_crucial_lib: Static real [-50.0, 50.0] = 2.0,
        "defender: the move is a liberty of the crucial chain";
    ts_def_touches_wall: Static real [-50.0, 50.0] = 0.0,
        "defender: the move touches a safe (wall) stone";
    ts_def_diag_own: Static real [-50.0, 50.0] = 1.0,
        "defender: own stones diagonal to the move";
    ts_def_opp_nbrs: Static real [-50.0, 50.0] = 1.0,
        "defender: opponent stones next to the move";
    ts_def_pass: Static real [-50.0, 50.0] = (-20.0),
        "defender: score of passing (ordered with the moves)";
    // ---- tsumego solver: dynamic ordering ----
    ts_dyn_wins: Dynamic real [0.0, 50.0] = 2.0,
        "per log2(1 + n): n = times the move was proved a winning move for the mover earlier in the solve";
    ts_dyn_history: Dynamic real [0.0, 50.0] = 1.0,
        "per log2(1 + n): n = times the move was the mover's most promising move (history heuristic)";
    ts_dyn_killer: Dynamic real [0.0, 50.0] = 4.0,
        "the move refuted a sibling at the same depth (killer)";
    ts_dyn_opp_best: Dynamic real [0.0, 50.0] = 3.0,
        "the move is the opponent's most promising move in the previous position";
    ts_dyn_useless: Dynamic real [0.0, 50.0] = 2.0,
        "penalty: the point is forbidden for the opponent (suicide or ko), so it may not matter to either side";
    ts_dyn_rank_cost: Dynamic real [0.0, 8.0] = 1.0,
        "initial disproof cost added per place in the move order (df-pn+ style; 0 = order only breaks ties)";
    ts_dyn_distance: Dynamic real [0.0, 8.0] = 1.0,
        "initial proof and disproof cost per unit of heuristic distance: the liberties of the standing crucial chains (attacker) and the distance to two eyes (defender); 0 = off";
    ts_dyn_deep: Dynamic int [0, 40] = 10,
        "deep df-pn depth D: a new child at depth d < D below the search's root starts with D - d added to its proof and disproof numbers, so the search finishes a line before it turns to a shallower sibling (against df-pn's seesaw between siblings); 0 = off";
    ts_dyn_deep_after: Dynamic int [0, 2000000] = 50000,
        "interior nodes a search spends before the deep df-pn term applies (small problems stay best-first)";
    // ---- tsumego solver: forward pruning (speed levels 2-5) ----
    ts_prune_eye_fill_level: Pruning int [2, 6] = 2,
        "from this level on, a side does not fill its own eye-like points (unless the move saves an own chain from atari, as when a ko is closed) while it has another move (6 = never)";
    ts_prune_keep_3: Pruning real [0.05, 1.0] = 0.7,
        "level 3: share of the ordered moves searched";
    ts_prune_keep_4: Pruning real [0.05, 1.0] = 0.5,
        "level 4: share of the ordered moves searched";
    ts_prune_keep_5: Pruning real [0.05, 1.0] = 0.35,
        "level 5: share of the ordered moves searched";
    ts_prune_min_moves: Pruning int [1, 20] = 3,
        "levels 3-5 always search at least this many moves";
    ts_prune_self_atari_level: Pruning int [2, 6] = 2,
        "from this level on, self-ataris of two or more stones that capture nothing are not searched (6 = never)";
    ts_prune_pass_level: Pruning int [2, 6] = 6,
        "from this level on, a side passes only when it has no other move (6 = never)";
    // ---- tsumego solver: effort of the static evaluation (not tuned) ----
    ts_region_vertices: Effort int [0, 32] = 16,
        "most vertices of the region game (the static rule for several defender chains in a small closed region): larger games settle more answers within the node limit at a higher cost per node (docs/tsumego.md); 0 = off";
    ts_region_positions: Effort int [1, 100000] = 100,
        "local positions a region game may add before it gives no verdict (more: more verdicts, each dearer)";
}

/// What can go wrong with a weights file.
#[derive(Debug, Error)]
pub enum WeightsError {
    #[error("cannot read weights file '{path}': {source}")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("weights file '{path}' is not valid TOML: {message}")]
    Syntax { path: PathBuf, message: String },
    #[error("weights file '{path}': unknown key '{key}'{hint}")]
    Unknown {
        path: PathBuf,
        key: String,
        hint: String,
    },
    #[error("weights file '{path}': key '{key}': {problem}")]
    Value {
        path: PathBuf,
        key: String,
        problem: String,
    },
}

/// A weights file as read: the weights, and the keys it lacked (they took
/// their defaults).
#[derive(Clone, Debug, PartialEq)]
pub struct Loaded {
    pub weights: Weights,
    /// The weights the file has no key for, in the order of the table.
    pub missing: Vec<&'static str>,
}

impl Loaded {
    /// A warning for a file that lacked keys (`None` if it had them all):
    /// names the file and every missing key with the default it took, and
    /// says how to write them in.
    pub fn warning(&self, path: &Path) -> Option<String> {
        if self.missing.is_empty() {
            return None;
        }
        let keys: Vec<String> = self
            .missing
            .iter()
            .filter_map(|name| SPECS.iter().find(|s| s.name == *name))
            .map(|s| format!("{} = {}", s.name, format_value(s, &s.default)))
            .collect();
        let n = keys.len();
        Some(format!(
            "weights file '{}' lacks {n} key{}, which take{} the default{}: {} \
             (weights added after the file was written?); \
             `tengen weights --upgrade {}` writes {} in",
            path.display(),
            if n == 1 { "" } else { "s" },
            if n == 1 { "s" } else { "" },
            if n == 1 { "" } else { "s" },
            keys.join(", "),
            path.display(),
            if n == 1 { "it" } else { "them" },
        ))
    }
}

impl Weights {
    /// Loads and validates a weights file; keys it lacks take their
    /// defaults (see [`Weights::read`] for which).
    pub fn load(path: &Path) -> Result<Weights, WeightsError> {
        Ok(Weights::read(path)?.weights)
    }

    /// Loads and validates a weights file, and names the keys it lacked.
    pub fn read(path: &Path) -> Result<Loaded, WeightsError> {
        let text = std::fs::read_to_string(path).map_err(|source| WeightsError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Weights::parse_text(&text, path)
    }

    /// Parses and validates weights text; `path` names it in errors. Keys
    /// it lacks take their defaults.
    pub fn parse(text: &str, path: &Path) -> Result<Weights, WeightsError> {
        Ok(Weights::parse_text(text, path)?.weights)
    }

    /// Parses and validates weights text, and names the keys it lacked.
    pub fn parse_text(text: &str, path: &Path) -> Result<Loaded, WeightsError> {
        let table: toml::Table = toml::from_str(text).map_err(|e| WeightsError::Syntax {
            path: path.to_path_buf(),
            message: e.to_string().trim_end().replace('\n', " "),
        })?;
        for key in table.keys() {
            if !SPECS.iter().any(|s| s.name == key) {
                let hint = SPECS
                    .iter()
                    .map(|s| (edit_distance(s.name, key), s.name))
                    .min()
                    .filter(|&(d, _)| d <= (key.len() / 3).max(1))
                    .map(|(_, n)| format!(" (did you mean '{n}'?)"))
                    .unwrap_or_default();
                return Err(WeightsError::Unknown {
                    path: path.to_path_buf(),
                    key: key.clone(),
                    hint,
                });
            }
        }
        let mut w = Weights::default();
        let mut missing = Vec::new();
        for (spec, slot) in SPECS.iter().zip(w.slots_mut()) {
            let value_err = |problem: String| WeightsError::Value {
                path: path.to_path_buf(),
                key: spec.name.to_string(),
                problem,
            };
            let Some(v) = table.get(spec.name) else {
                missing.push(spec.name);
                continue;
            };
            *slot = match v {
                toml::Value::Table(t) if spec.staged => {
                    let mut out = [0.0; 3];
                    for k in t.keys() {
                        if !STAGES.contains(&k.as_str()) {
                            return Err(value_err(format!(
                                "unknown stage '{k}': the stages are opening, middle and endgame"
                            )));
                        }
                    }
                    for (i, stage) in STAGES.iter().enumerate() {
                        let x = t.get(*stage).ok_or_else(|| {
                            value_err(format!(
                                "stage '{stage}' is missing: give opening, middle and endgame"
                            ))
                        })?;
                        out[i] = number(spec, x).map_err(|p| value_err(format!("{stage}: {p}")))?;
                    }
                    out
                }
                toml::Value::Table(_) => {
                    return Err(value_err(
                        "this weight is not staged: give a single number".into(),
                    ));
                }
                x => {
                    let n = number(spec, x).map_err(value_err)?;
                    [n, n, n]
                }
            };
        }
        Ok(Loaded {
            weights: w,
            missing,
        })
    }

    /// The weights as a commented TOML file that [`Weights::parse`] reads
    /// back exactly.
    pub fn to_toml(&self) -> String {
        let mut out = String::from(
            "# tengen weights; see docs/weights.md. A key left out takes its default (with a warning).\n\
             # Staged weights take { opening = a, middle = b, endgame = c } or one number.\n",
        );
        let mut group = None;
        for (spec, v) in SPECS.iter().zip(self.slots()) {
            if group != Some(spec.group) {
                group = Some(spec.group);
                let _ = write!(out, "\n# ---- group: {} ----\n", spec.group.name());
            }
            let kind = if spec.integer { "integer" } else { "real" };
            let staged = if spec.staged { ", staged" } else { "" };
            let _ = writeln!(
                out,
                "# {} ({kind} in [{}, {}]{staged})",
                spec.meaning,
                fmt_num(spec.min),
                fmt_num(spec.max)
            );
            let _ = writeln!(out, "{} = {}", spec.name, format_value(spec, v));
        }
        out
    }

    /// One line per weight, for GTP and the CLI: `name value [min max] meaning`.
    pub fn describe(&self) -> String {
        let mut out = String::new();
        for (spec, v) in SPECS.iter().zip(self.slots()) {
            let _ = writeln!(
                out,
                "{} = {}  [{}, {}]  {}",
                spec.name,
                format_value(spec, v),
                fmt_num(spec.min),
                fmt_num(spec.max),
                spec.meaning
            );
        }
        out.trim_end().to_string()
    }
}

fn number(spec: &WeightSpec, v: &toml::Value) -> Result<f64, String> {
    let x = match v {
        toml::Value::Integer(i) => *i as f64,
        toml::Value::Float(f) => *f,
        other => return Err(format!("expected a number, found {}", other.type_str())),
    };
    if !x.is_finite() {
        return Err(format!("{x} is not a finite number"));
    }
    if spec.integer && x.fract() != 0.0 {
        return Err(format!("{x} is not an integer (this weight is an integer)"));
    }
    if x < spec.min || x > spec.max {
        return Err(format!(
            "{} is out of range: allowed {} to {}",
            fmt_num(x),
            fmt_num(spec.min),
            fmt_num(spec.max)
        ));
    }
    Ok(x)
}

fn fmt_num(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

fn format_value(spec: &WeightSpec, v: &[f64; 3]) -> String {
    let one = |x: f64| {
        if spec.integer {
            format!("{}", x as i64)
        } else if x.fract() == 0.0 {
            format!("{x:.1}")
        } else {
            format!("{x}")
        }
    };
    if spec.staged {
        format!(
            "{{ opening = {}, middle = {}, endgame = {} }}",
            one(v[0]),
            one(v[1]),
            one(v[2])
        )
    } else {
        one(v[0])
    }
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, &cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + (ca != cb) as usize)
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests;
