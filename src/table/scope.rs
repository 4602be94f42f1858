//! Which games a table holds (board size, komi class, rules), and the keys
//! that tell positions of different games apart.

use super::*;
use crate::rules::Move;

/// Which games a table file may hold. `None` means any.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Scope {
    pub size: Option<u8>,
    /// Komi in half points (komi × 2).
    pub komi2: Option<i32>,
    pub rules: Option<u32>,
}

pub(crate) const ANY_U32: u32 = u32::MAX;
pub(crate) const ANY_I32: i32 = i32::MIN;

/// Komi class: komi in half points.
pub fn komi_class(komi: f64) -> i32 {
    (komi * 2.0).round() as i32
}

/// Rules code: ko rule (0 simple, 1 positional, 2 situational) plus 4 when
/// suicide is allowed.
pub fn rules_code(rules: Rules) -> u32 {
    let ko = match rules.ko {
        KoRule::Simple => 0,
        KoRule::Positional => 1,
        KoRule::Situational => 2,
    };
    ko | if rules.allow_suicide { 4 } else { 0 }
}

pub(crate) fn rules_name(code: u32) -> String {
    let ko = match code & 3 {
        0 => "simple ko",
        1 => "positional superko",
        2 => "situational superko",
        _ => "unknown ko rule",
    };
    if code & 4 != 0 {
        format!("{ko}, suicide allowed")
    } else {
        ko.to_string()
    }
}

impl Scope {
    /// The scope of one kind of game.
    pub fn of(size: usize, komi: f64, rules: Rules) -> Scope {
        Scope {
            size: Some(size as u8),
            komi2: Some(komi_class(komi)),
            rules: Some(rules_code(rules)),
        }
    }

    /// Why a game of this size, komi and rules may not use the file, if
    /// it may not.
    pub fn mismatch(&self, size: usize, komi: f64, rules: Rules) -> Option<String> {
        if let Some(s) = self.size
            && s as usize != size
        {
            return Some(format!(
                "it holds {s}x{s} positions only, not {size}x{size}"
            ));
        }
        if let Some(k) = self.komi2
            && k != komi_class(komi)
        {
            return Some(format!(
                "it holds komi {} only, not komi {komi}",
                k as f64 / 2.0
            ));
        }
        if let Some(r) = self.rules
            && r != rules_code(rules)
        {
            return Some(format!(
                "it holds {} games only, not {}",
                rules_name(r),
                rules_name(rules_code(rules))
            ));
        }
        None
    }

    pub fn describe(&self) -> String {
        let size = self
            .size
            .map_or("any size".to_string(), |s| format!("{s}x{s}"));
        let komi = self.komi2.map_or("any komi".to_string(), |k| {
            format!("komi {}", k as f64 / 2.0)
        });
        let rules = self.rules.map_or("any rules".to_string(), rules_name);
        format!("{size}, {komi}, {rules}")
    }
}

/// The key of a position in the table: the board's position key (stones,
/// board size, side to move, ko point) XORed with a key of the komi class
/// and the rules, so that games which must not mix never share entries.
pub fn key(board: &Board, color: Color, komi: f64, rules: Rules) -> u64 {
    board.key(color) ^ class_key(komi, rules)
}

/// The komi-and-rules part of [`key`].
pub fn class_key(komi: f64, rules: Rules) -> u64 {
    mix(0x6b6f_6d69_0000_0000
        ^ (komi_class(komi) as u32 as u64)
        ^ ((rules_code(rules) as u64) << 40))
}

/// The move a table move code stands for on `board`.
pub fn code_to_move(board: &Board, mv: u16) -> Move {
    if mv == PASS {
        Move::Pass
    } else {
        Move::Play(board.coord(Point(mv)))
    }
}

/// Whether `mv` (a move code read from the table) can be played by `color`
/// on `board`. Pass is always playable.
pub fn playable(board: &Board, color: Color, mv: u16) -> bool {
    mv == PASS || {
        let p = Point(mv);
        (mv as usize) < SLOTS && board.cell(p) == Cell::Empty && board.is_legal(p, color)
    }
}
