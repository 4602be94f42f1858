//! The heavy playout policy, in the spirit of the published MoGo/Pachi
//! policies. Each rule fires with its own probability (a weight), in
//! order, and the first that yields a move wins:
//!
//! 1. capture the last move's chain if it is in atari, or save an own
//!    chain the last move put in atari (by capturing, or by extending
//!    unless a ladder then captures it);
//! 2. retake a ko: the opponent took a ko two moves ago, we answered
//!    elsewhere (a threat) and so did the opponent; the ko stone can be
//!    captured again (at most [`KO_RECAPTURES`] times a playout);
//! 3. chase a ladder: if the last move left its chain (two or more
//!    stones) with two liberties and a ladder captures it, play the atari
//!    that does (with the ladder-reading probability);
//! 4. defend an own chain the last move left with two liberties, if the
//!    opponent has an atari on it that it does not escape at once: extend
//!    to three or more liberties, or capture a neighbour in atari (no
//!    candidate when neither is possible: the chain is left to its fate);
//! 5. atari a two-liberty chain next to the last move, unless it escapes
//!    at once by extending to three liberties;
//! 6. a capturing race of three liberties: the last move left an own chain
//!    of two or more stones with three liberties beside an opponent chain
//!    with no more; shorten the opponent's liberties, or extend to four;
//! 7. fix an own eye that the last move, on one of its diagonals, left one
//!    step from false: take the eye's last empty diagonal;
//! 8. play the vital point of a nakade shape next to the last move;
//! 9. play a point next to the last move that matches a 3x3 pattern:
//!    with `po_pattern_learned`, one drawn by its learned gamma against
//!    the gamma of a move elsewhere ([`crate::learned::play3`]);
//! 10. try a few random points with eight empty neighbours (fill the
//!     board);
//! 11. a random move that does not fill an own eye. A self-atari of two or
//!     more stones is rejected (with `po_self_atari_big`) unless it fills a
//!     nakade, and always when it fills a shared liberty of a seki; one of
//!     a single stone is rejected (with `po_self_atari_reject`) unless it
//!     is a snapback or a throw-in that puts an opponent chain in atari.
//!
//! Moves of rules 5, 6, 7, 9 and 10 that are self-atari are skipped.
//!
//! The rules live by family: 1 to 6 in `heavy/liberties.rs`, 7 and 8 in
//! `heavy/eyes.rs`, 9 in `heavy/pattern.rs`, the self-atari kinds of 11
//! in `heavy/self_atari.rs`; this file holds the policy, the order of the rules
//! (10 and 11 included) and the playout loop.
//! Playouts use simple ko only and are cut off after `3 * size * size`
//! moves.

use std::sync::Arc;

use rand::Rng;

mod eyes;
mod liberties;
mod pattern;
mod self_atari;

pub use eyes::nakade_point;
use eyes::{eye_fix_cands, nakade_cands};
use liberties::{
    atari_cands, ko_recapture, ladder_chase, three_lib_cands, two_lib_cands, two_lib_defend_cands,
};
use pattern::{learned_pattern, pattern_cands};
pub use self_atari::{SelfAtari, self_atari_kind};

use super::{PlayoutResult, run_playout};
use crate::learned::Model;
use crate::learned::play3::PlayTable;
use crate::rules::{Board, Color, Point};
use crate::weights::Resolved;

/// The policy's probabilities as 32-bit thresholds, and the learned 3x3
/// patterns if it uses them.
#[derive(Clone, Debug)]
pub struct Policy {
    atari: u32,
    ladder: u32,
    two_lib: u32,
    two_lib_defend: u32,
    three_lib: u32,
    eye_fix: u32,
    ko_recapture: u32,
    nakade: u32,
    pattern: u32,
    self_atari_reject: u32,
    self_atari_big: u32,
    fill_board: u32,
    learned: Option<Arc<PlayTable>>,
    elsewhere_scale: f32,
}

fn threshold(p: f64) -> u32 {
    (p.clamp(0.0, 1.0) * u32::MAX as f64) as u32
}

impl Policy {
    /// The policy of the weights `w`; with `po_pattern_learned` = 1, the
    /// 3x3 rule uses the playout gammas of `model` when it has them.
    pub fn new(w: &Resolved, model: Option<&Model>) -> Policy {
        Policy {
            atari: threshold(w.po_atari),
            ladder: threshold(w.po_ladder),
            two_lib: threshold(w.po_two_lib),
            two_lib_defend: threshold(w.po_two_lib_defend),
            three_lib: threshold(w.po_three_lib),
            eye_fix: threshold(w.po_eye_fix),
            ko_recapture: threshold(w.po_ko_recapture),
            nakade: threshold(w.po_nakade),
            pattern: threshold(w.po_pattern),
            self_atari_reject: threshold(w.po_self_atari_reject),
            self_atari_big: threshold(w.po_self_atari_big),
            fill_board: w.po_fill_board as u32,
            elsewhere_scale: w.po_pattern_elsewhere as f32,
            learned: if w.po_pattern_learned >= 1.0 {
                model.and_then(Model::playout_table)
            } else {
                None
            },
        }
    }
}

/// Ko recaptures a playout makes at most: without a limit, two sides that
/// always retake would fight one ko to the move cap.
pub const KO_RECAPTURES: u32 = 4;

/// What a playout remembers from one of its moves to the next.
#[derive(Clone, Copy, Debug, Default)]
pub struct Memory {
    /// Moves chosen so far (passes included).
    ply: u32,
    /// For each colour, the last ko point it was barred from, and the ply.
    ko_ban: [Option<(Point, u32)>; 2],
    /// Ko recaptures made so far.
    recaptures: u32,
}

#[inline]
fn chance<R: Rng>(rng: &mut R, t: u32) -> bool {
    t > 0 && rng.next_u32() <= t
}

/// A policy rule: adds its candidate moves for a colour after a last move.
type Rule = fn(&Board, Color, Point, &mut Cands);

/// A small set of candidate moves.
struct Cands {
    pts: [Point; 32],
    n: usize,
}

impl Cands {
    fn new() -> Cands {
        Cands {
            pts: [Point(0); 32],
            n: 0,
        }
    }

    fn push(&mut self, p: Point) {
        if self.n < self.pts.len() && !self.pts[..self.n].contains(&p) {
            self.pts[self.n] = p;
            self.n += 1;
        }
    }

    fn pick<R: Rng>(&self, rng: &mut R) -> Option<Point> {
        (self.n > 0).then(|| self.pts[((rng.next_u32() as u64 * self.n as u64) >> 32) as usize])
    }
}

/// One move of the heavy policy for `color`; `last` is the previous move
/// (`None` after a pass or at the start). `None` means pass.
pub fn heavy_move<R: Rng>(
    board: &Board,
    color: Color,
    last: Option<Point>,
    policy: &Policy,
    rng: &mut R,
    mem: &mut Memory,
) -> Option<Point> {
    let p = heavy_move_at(board, color, last, policy, rng, mem);
    mem.ply += 1;
    p
}

/// [`heavy_move`] before the ply count moves on.
fn heavy_move_at<R: Rng>(
    board: &Board,
    color: Color,
    last: Option<Point>,
    policy: &Policy,
    rng: &mut R,
    mem: &mut Memory,
) -> Option<Point> {
    if let Some(ko) = board.ko()
        && ko.color == color
    {
        mem.ko_ban[color as usize] = Some((ko.point, mem.ply));
    }
    if let Some(last) = last
        && chance(rng, policy.atari)
    {
        let mut c = Cands::new();
        atari_cands(board, color, last, chance(rng, policy.ladder), &mut c);
        if let Some(p) = c.pick(rng) {
            return Some(p);
        }
    }
    if chance(rng, policy.ko_recapture)
        && let Some(p) = ko_recapture(board, color, mem)
    {
        mem.recaptures += 1;
        return Some(p);
    }
    if let Some(last) = last {
        if chance(rng, policy.ladder)
            && let Some(p) = ladder_chase(board, color, last)
        {
            return Some(p);
        }
        let rules: [(u32, Rule); 5] = [
            (policy.two_lib_defend, two_lib_defend_cands),
            (policy.two_lib, two_lib_cands),
            (policy.three_lib, three_lib_cands),
            (policy.eye_fix, eye_fix_cands),
            (policy.nakade, nakade_cands),
        ];
        for (t, rule) in rules {
            if chance(rng, t) {
                let mut c = Cands::new();
                rule(board, color, last, &mut c);
                if let Some(p) = c.pick(rng) {
                    return Some(p);
                }
            }
        }
        if chance(rng, policy.pattern) {
            let p = match &policy.learned {
                Some(t) => learned_pattern(board, color, last, t, policy.elsewhere_scale, rng),
                None => {
                    let mut c = Cands::new();
                    pattern_cands(board, color, last, &mut c);
                    c.pick(rng)
                }
            };
            if p.is_some() {
                return p;
            }
        }
    }
    let n = board.num_empty();
    if n == 0 {
        return None;
    }
    let empties = board.empty_slice();
    for _ in 0..policy.fill_board {
        let p = empties[((rng.next_u32() as u64 * n as u64) >> 32) as usize];
        if board.pattern3(p) == 0 {
            return Some(p);
        }
    }
    // Random move from a random start, rejecting self-atari with a
    // probability. A rejected point is skipped, not retried.
    let start = ((rng.next_u32() as u64 * n as u64) >> 32) as usize;
    let mut fallback = None;
    for &p in empties[start..].iter().chain(&empties[..start]) {
        if !board.is_playout_candidate(p, color) {
            continue;
        }
        if board.empty_neighbors(p) < 2 && board.is_self_atari(p, color) {
            let reject = match self_atari_kind(board, p, color) {
                SelfAtari::Snapback | SelfAtari::ThrowIn | SelfAtari::Nakade => false,
                SelfAtari::Small => chance(rng, policy.self_atari_reject),
                SelfAtari::Big => chance(rng, policy.self_atari_big),
                SelfAtari::SekiBreak => true,
            };
            if reject {
                fallback.get_or_insert(p);
                continue;
            }
        }
        return Some(p);
    }
    // Only self-ataris are left: play one only if it is a single stone
    // (a throw-in can matter); otherwise pass.
    fallback.filter(|&p| board.chain_len_after(p, color) == 1)
}

/// Plays a heavy playout to the end (two passes or the move cap). Every
/// stone played is appended to `moves` (for AMAF).
pub fn heavy_playout<R: Rng>(
    board: &mut Board,
    to_move: Color,
    last: Option<Point>,
    policy: &Policy,
    rng: &mut R,
    moves: &mut Vec<(Point, Color)>,
) -> PlayoutResult {
    let mut mem = Memory::default();
    run_playout(
        board,
        to_move,
        last,
        |b, c, l| heavy_move(b, c, l, policy, rng, &mut mem),
        |p, c| moves.push((p, c)),
    )
}

#[cfg(test)]
mod tests;
