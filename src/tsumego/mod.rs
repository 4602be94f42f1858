//! The tsumego (life-and-death) solver: closed-boundary problems, solved
//! exactly by df-pn with a transposition table, with move ordering from
//! the `Weights` (static, dynamic) and forward pruning at speed levels 2-5.
//!
//! - [`answer`]: the answers: owl results, statuses, ko types.
//! - [`region`]: the problem framing and region detection.
//! - [`benson`]: unconditional life, the defender's terminal test.
//! - [`order`]: static features and their weights.
//! - [`dfpn`]: the proof search, repetition and ko.
//! - [`gotools`], [`problems`]: problem files (GoTools text, SGF).
//! - [`generate`]: random closed problems, labelled by the solver.
//! - [`report`]: `tengen solve`'s JSON and text reports, agreement tallies.
//!
//! Answers follow GNU Go's owl codes: 0 the side to move fails, 1 it
//! succeeds, 2 it succeeds through a ko in which the opponent must find
//! the first ko threat, 3 it succeeds only if it finds the first threat
//! itself. They come from a search with simple ko for both; if a ko ban was
//! met, one in which its loser has five external ko threats; if that turns
//! the result, searches with 1 to 4 threats for GoTools' ko type (one
//! cut short by a limit leaves the type open, [`OwlAnswer::ko_open`], and
//! the code known); and, when the defender lives and the proof may rest on
//! two passes, a strict search that tells seki from life. The searches of
//! one answer share one table.

pub mod answer;
pub mod benson;
pub mod dfpn;
pub mod eyes;
pub mod frame;
pub mod generate;
pub mod gotools;
pub mod local;
pub mod order;
pub mod problems;
pub mod region;
pub mod report;

use std::time::{Duration, Instant};

pub use answer::{KoType, KoWin, MAX_KO_THREATS, OwlAnswer, OwlResult, Role, SideAnswer, Status};
pub use dfpn::{Counters, Limits, Regime, Repetition, StaticCheck};
pub use frame::{FrameError, frame_group, frame_stones};
pub use order::OrderWeights;
pub use region::{Problem, RegionError};

use crate::rules::{Color, Move};

/// Default node limit of one solve (GTP and CLI).
pub const DEFAULT_MAX_NODES: u64 = 2_000_000;

/// How hard to try.
#[derive(Clone, Copy, Debug)]
pub struct SolveOptions {
    /// 1 (exact) to 5 (fastest, forward pruning).
    pub level: u8,
    /// Interior nodes, summed over the searches of one answer.
    pub max_nodes: u64,
    /// Time for one answer. With a time limit the local games of the
    /// static evaluation run when a position is visited
    /// ([`dfpn::Dfpn::with_lazy_games`]), which searches faster but
    /// with more nodes.
    pub time: Option<Duration>,
    /// End lines early with the static evaluation of [`eyes`] (the
    /// default; off only to measure it).
    pub statics: bool,
    /// Check a sample of the static verdicts against searches without
    /// them (`solve --check-statics`).
    pub check: Option<StaticCheck>,
    /// The repetition rule: positional superko (the default) or simple ko
    /// as GoTools' files read (`solve --repetition`).
    pub repetition: Repetition,
    /// Fixed external ko threats, by `Color::index` (GTP's
    /// `tengen-tsumego_limit threats B,W`): an answer is then one search
    /// with these threats, plain (succeeds or fails), where `None` (the
    /// default) gives GNU Go's ko codes and GoTools' ko type.
    pub threats: Option<[u8; 2]>,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            level: 1,
            max_nodes: DEFAULT_MAX_NODES,
            time: None,
            statics: true,
            check: None,
            repetition: Repetition::Superko,
            threats: None,
        }
    }
}

/// Runs `f` on a thread with a stack deep enough for long proofs.
pub use crate::pool::with_stack;

struct Budget {
    start: Instant,
    opts: SolveOptions,
    used: Counters,
    /// The transposition table, handed from one search to the next.
    table: dfpn::TransTable,
    /// A search run so far used a repetition ban other than simple ko.
    /// Every search of an answer helps decide it (the screen confirms a
    /// plain result, the threat searches place the ko type), so the answer
    /// carries the hint if any did ([`OwlAnswer::superko`]).
    superko: bool,
    /// The position caches and local games' memos of the searches run so
    /// far, by the seki test's strictness (the static values differ
    /// between the two): each search starts from what the earlier ones of
    /// its kind evaluated.
    caches: [Option<dfpn::StaticCache>; 2],
}

impl Budget {
    fn new(opts: SolveOptions) -> Budget {
        Budget {
            start: Instant::now(),
            opts,
            used: Counters::default(),
            table: dfpn::TransTable::default(),
            superko: false,
            caches: [None, None],
        }
    }

    fn limits(&self) -> Limits {
        Limits {
            max_nodes: self.opts.max_nodes.saturating_sub(self.used.nodes),
            deadline: self.opts.time.map(|t| self.start + t),
        }
    }

    fn run(
        &mut self,
        prob: &Problem,
        w: &OrderWeights,
        to_move: Color,
        regime: Regime,
    ) -> dfpn::Proof {
        let table = std::mem::take(&mut self.table);
        let mut s = dfpn::Dfpn::new(prob, w, self.opts.level, regime, self.limits())
            .with_table(table)
            .with_check(self.opts.check)
            .with_repetition(self.opts.repetition)
            // Under a time limit a second of search matters more than a
            // node (docs/tsumego.md, *Local games when a position is
            // visited*).
            .with_lazy_games(self.opts.time.is_some());
        if !self.opts.statics {
            s = s.without_statics();
        }
        if let Some(c) = self.caches[regime.strict as usize].take() {
            s = s.with_static_cache(c);
        }
        let proof = s.solve(to_move);
        self.table = s.take_table();
        self.caches[regime.strict as usize] = Some(s.take_static_cache());
        self.used += proof.counters;
        self.superko |= proof.superko;
        proof
    }
}

/// Can `role`, moving first, reach its goal? With GoTools' ko type: a ko
/// result also gets the least number of threats that turns it (the
/// searches with 1 to N threats after the five-threat screen).
pub fn owl(prob: &Problem, w: &OrderWeights, opts: SolveOptions, role: Role) -> OwlAnswer {
    owl_with(prob, w, opts, role, KoCount::Searched)
}

/// GNU Go's owl answer (owl_attack / owl_defend): the result and the key
/// move, without the searches that count a ko's threats, which GNU Go's
/// codes do not give. The result is [`owl`]'s; `ko` and `ko_open` stay
/// `None`. For a ko the mover needs threats for (code 3) the move is one
/// that wins it with five threats, where [`owl`]'s wins it with the
/// fewest.
pub fn owl_code(prob: &Problem, w: &OrderWeights, opts: SolveOptions, role: Role) -> OwlAnswer {
    owl_with(prob, w, opts, role, KoCount::Skipped)
}

/// Whether an owl answer searches for its ko's threat count.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum KoCount {
    Searched,
    Skipped,
}

fn owl_with(
    prob: &Problem,
    w: &OrderWeights,
    opts: SolveOptions,
    role: Role,
    count: KoCount,
) -> OwlAnswer {
    let mut budget = Budget::new(opts);
    let (ans, _) = owl_in(prob, w, &mut budget, role, count);
    OwlAnswer {
        elapsed: budget.start.elapsed(),
        counters: budget.used,
        ..ans
    }
}

fn mover(prob: &Problem, role: Role) -> Color {
    match role {
        Role::Attacker => prob.attacker(),
        Role::Defender => prob.defender,
    }
}

/// The answer, and whether a life in it may be a seki (its proof used the
/// defender's win by two passes).
///
/// The searches share one table, so each reads what the earlier ones
/// proved where the threat counts allow (see `dfpn::TransTable`).
fn owl_in(
    prob: &Problem,
    w: &OrderWeights,
    budget: &mut Budget,
    role: Role,
    count: KoCount,
) -> (OwlAnswer, bool) {
    let me = mover(prob, role);
    let unknown = |p: &dfpn::Proof| OwlAnswer {
        result: None,
        ko: None,
        ko_open: None,
        superko: false,
        per_move: p.per_move.clone(),
        mv: None,
        line: p.line.clone(),
        counters: Counters::default(),
        elapsed: Duration::ZERO,
    };
    let fixed = budget.opts.threats.map(|threats| Regime {
        threats,
        strict: false,
    });
    let base = budget.run(prob, w, me, fixed.unwrap_or(Regime::PLAIN));
    let answer = |r: OwlResult, p: &dfpn::Proof, ko: Option<KoType>, superko: bool| OwlAnswer {
        result: Some(r),
        ko,
        ko_open: None,
        superko,
        per_move: base.per_move.clone(),
        mv: if r.succeeds() { p.best } else { None },
        line: p.line.clone(),
        counters: Counters::default(),
        elapsed: Duration::ZERO,
    };
    // The proof found may have used a superko ban: reported, but the code
    // stays plain, because whether a proof uses the ban depends on the
    // move order, not on the position alone.
    let plain = |win: bool, p: &dfpn::Proof, superko: bool| {
        let r = if win {
            OwlResult::Succeeds
        } else {
            OwlResult::Fails
        };
        answer(r, p, None, superko)
    };
    let defender_lives = |mover_wins: bool| mover_wins == (me == prob.defender);
    let Some(win) = base.win else {
        return (unknown(&base), true);
    };
    if !base.ko_seen || fixed.is_some() {
        return (plain(win, &base, budget.superko), base.passes);
    }
    // The loser of the search without threats gets MAX_KO_THREATS external
    // threats: if it still loses, the result is plain (like GoTools, whose
    // files never go past N = 5, a ko that the loser turns only with more
    // threats than that is no ko). If it wins, the result is a ko, and the
    // least number of threats that turns it is GoTools' ko type. (An
    // unlimited number of threats, tried first before, made the search
    // endless on some problems: with threats that never run out, ko cycles
    // only end through the repetition ban.)
    let loser = if win { me.opponent() } else { me };
    let screen = budget.run(prob, w, me, Regime::threats_for(loser, MAX_KO_THREATS));
    let Some(win_screen) = screen.win else {
        return (unknown(&base), true);
    };
    if win_screen == win {
        // The key move and line come from the screen: the plain search's
        // winning move may win only a ko that the loser's threats turn.
        return (plain(win, &screen, budget.superko), base.passes);
    }
    // The result is a ko whatever the count: the owl code is known. A
    // search that runs out leaves the count open from its `n` up.
    let mut threats = MAX_KO_THREATS;
    let mut open = false;
    let mut p = screen;
    // The searches for the count, none when it is skipped.
    let upto = match count {
        KoCount::Searched => MAX_KO_THREATS,
        KoCount::Skipped => 1,
    };
    for n in 1..upto {
        let q = budget.run(prob, w, me, Regime::threats_for(loser, n));
        match q.win {
            None => {
                threats = n;
                open = true;
                break;
            }
            Some(x) if x != win => {
                threats = n;
                p = q;
                break;
            }
            Some(_) => {}
        }
    }
    let ko = (count == KoCount::Searched).then_some(KoType {
        defender_lives: defender_lives(win),
        threats,
    });
    let (known, ko_open) = if open { (None, ko) } else { (ko, None) };
    let (r, proof) = if win {
        (OwlResult::Ko(KoWin::TakenFirst), &base)
    } else {
        (OwlResult::Ko(KoWin::NeedsThreat), &p)
    };
    let a = OwlAnswer {
        ko_open,
        ..answer(r, proof, known, budget.superko)
    };
    (a, true)
}

/// The status of the problem with `first` moving first, seki told apart
/// from life by a second, strict search (the defender must reach
/// unconditional life; two passes are a loss for it).
pub fn solve_side(
    prob: &Problem,
    w: &OrderWeights,
    opts: SolveOptions,
    first: Color,
) -> SideAnswer {
    let mut budget = Budget::new(opts);
    let role = if first == prob.defender {
        Role::Defender
    } else {
        Role::Attacker
    };
    let (owl_ans, passes) = owl_in(prob, w, &mut budget, role, KoCount::Searched);
    let owl_counters = budget.used;
    let lives =
        match (role, owl_ans.result) {
            (Role::Attacker, Some(OwlResult::Fails))
            | (Role::Defender, Some(OwlResult::Succeeds)) => Some(true),
            (Role::Attacker, Some(OwlResult::Succeeds))
            | (Role::Defender, Some(OwlResult::Fails)) => Some(false),
            _ => None,
        };
    let status = match (owl_ans.result, lives) {
        (None, _) => Status::Unknown,
        (Some(OwlResult::Ko(k)), _) => Status::Ko(k),
        (_, Some(false)) => Status::Dead,
        // A proof of life that never used two passes is unconditional.
        (_, Some(true)) if !passes => Status::Alive,
        (_, Some(true)) => {
            let strict = Regime {
                threats: budget.opts.threats.unwrap_or([0, 0]),
                ..Regime::STRICT
            };
            let p = budget.run(prob, w, first, strict);
            let defender_wins = p.win.map(|w| w == (first == prob.defender));
            match defender_wins {
                Some(false) => Status::Seki,
                Some(true) => Status::Alive,
                None => Status::Lives,
            }
        }
        _ => Status::Unknown,
    };
    SideAnswer {
        first,
        status,
        owl: OwlAnswer {
            counters: owl_counters,
            elapsed: budget.start.elapsed(),
            ..owl_ans
        },
        counters: budget.used,
        elapsed: budget.start.elapsed(),
    }
}

/// How a reading of a group is set up: an explicit region or detection,
/// safe attacker stones, the limits. (The GTP session keeps one between
/// commands.)
#[derive(Clone, Debug)]
pub struct Settings {
    /// Explicit region (empty: detect it).
    pub region: Vec<crate::rules::Coord>,
    /// Points of attacker chains that count as safe wall.
    pub safe: Vec<crate::rules::Coord>,
    pub opts: SolveOptions,
    pub max_region: usize,
    /// Empty points of crucial chains captured earlier, crucial again if
    /// the defender refills them ([`Problem::with_captured`]; set per
    /// command).
    pub captured: Vec<crate::rules::Coord>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            region: Vec::new(),
            safe: Vec::new(),
            opts: SolveOptions::default(),
            max_region: region::DEFAULT_MAX_REGION,
            captured: Vec::new(),
        }
    }
}

impl Settings {
    /// The problem on `board` whose crucial chains are those through `at`
    /// (at least one point): the explicit region, else the region detected,
    /// else, for a group that is not enclosed, the framed problem
    /// ([`frame::frame_group`]); with the points of `captured` added as
    /// crucial ([`Problem::with_captured`]).
    pub fn problem(
        &self,
        board: &crate::rules::Board,
        at: &[crate::rules::Coord],
    ) -> Result<Problem, RegionError> {
        let p: Vec<_> = at.iter().map(|&c| board.point(c)).collect();
        let captured: Vec<_> = self.captured.iter().map(|&c| board.point(c)).collect();
        if self.region.is_empty() {
            let safe: Vec<_> = self.safe.iter().map(|&c| board.point(c)).collect();
            match Problem::detect_with_captured(board, &p, &captured, &safe, self.max_region) {
                // Not enclosed: framed (see `frame`).
                Err(RegionError::Open { at, .. }) => frame::frame_group(board, &p)
                    .map_err(|source| RegionError::Unframed { at, source })?
                    .with_captured(&captured),
                r => r,
            }
        } else {
            let pts: Vec<_> = self.region.iter().map(|&c| board.point(c)).collect();
            Problem::from_region_chains(board, &pts, &p)?.with_captured(&captured)
        }
    }
}

/// Both sides moving first.
#[derive(Clone, Debug)]
pub struct Solution {
    pub defender_first: SideAnswer,
    pub attacker_first: SideAnswer,
}

impl Solution {
    pub fn counters(&self) -> Counters {
        let mut c = self.defender_first.counters;
        c += self.attacker_first.counters;
        c
    }
}

pub fn solve_both(prob: &Problem, w: &OrderWeights, opts: SolveOptions) -> Solution {
    Solution {
        defender_first: solve_side(prob, w, opts, prob.defender),
        attacker_first: solve_side(prob, w, opts, prob.attacker()),
    }
}

/// The first moves of `first` in the solver's initial order (level 1).
pub fn root_order(prob: &Problem, w: &OrderWeights, first: Color) -> Vec<Move> {
    let regime = Regime::PLAIN;
    let limits = Limits::nodes(u64::MAX);
    let mut s = dfpn::Dfpn::new(prob, w, 1, regime, limits);
    s.root_order(first)
}

/// The `dragon_status` of a group from its two owl answers.
pub fn dragon_status(attack: &OwlAnswer, defend: &OwlAnswer) -> DragonStatus {
    match (attack.result, defend.result) {
        (Some(OwlResult::Fails), _) => DragonStatus::Alive,
        (_, Some(OwlResult::Fails)) => DragonStatus::Dead,
        (Some(_), Some(_)) => DragonStatus::Critical {
            attack: attack.mv,
            defend: defend.mv,
        },
        _ => DragonStatus::Unknown,
    }
}

/// A group's status as GNU Go's `dragon_status` gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DragonStatus {
    /// It cannot be killed, even with the attacker moving first.
    Alive,
    /// It cannot be saved, even with the defender moving first.
    Dead,
    /// Whoever moves first wins: the attacker's and the defender's key
    /// moves.
    Critical {
        attack: Option<Move>,
        defend: Option<Move>,
    },
    /// A limit was hit.
    Unknown,
}

/// Formats a line of moves as `B C3 W D4 ...`.
pub fn format_line(line: &[(Color, Move)]) -> String {
    line.iter()
        .map(|(c, m)| format!("{} {}", c.letter(), m))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests;
