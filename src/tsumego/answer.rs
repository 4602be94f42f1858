//! The solver's answers: the side asked about ([`Role`]), GNU Go's owl
//! result ([`OwlResult`], [`OwlAnswer`]), the defender's [`Status`],
//! GoTools' ko types ([`KoType`]) and one mover's answer ([`SideAnswer`]).
//! Plain data: the searches of [`super`] fill them in.

use std::time::Duration;

use super::dfpn::Counters;
use crate::rules::{Color, Move};

/// The side asked about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Attacker,
    Defender,
}

impl Role {
    pub fn other(self) -> Role {
        match self {
            Role::Attacker => Role::Defender,
            Role::Defender => Role::Attacker,
        }
    }
}

/// Most external ko threats tried when GoTools' ko type is worked out.
pub const MAX_KO_THREATS: u8 = 5;

/// A ko result the way GoTools writes it (`l2d`, `d1l`): whether the
/// defender lives when neither side has an external ko threat, and how many
/// external ko threats the other side then needs to turn the result (the
/// solver reports a result that needs more than [`MAX_KO_THREATS`] as no
/// ko).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KoType {
    pub defender_lives: bool,
    /// 1 to 9 (the solver: 1 to [`MAX_KO_THREATS`]).
    pub threats: u8,
}

impl KoType {
    /// GoTools' status letters: `l2d` (lives unless the attacker has two
    /// threats), `d1l` (dies unless the defender has one).
    pub fn letters(self) -> String {
        self.letters_with(self.threats.to_string())
    }

    /// The letters of a ko type bounded from below only (see
    /// [`OwlAnswer::ko_open`]): `l2+d`, the defender lives against fewer
    /// than two attacker threats and dies against [`MAX_KO_THREATS`], the
    /// count between is open; `d1+l` the same the other way round.
    pub fn open_letters(self) -> String {
        self.letters_with(format!("{}+", self.threats))
    }

    fn letters_with(self, count: String) -> String {
        let (first, last) = if self.defender_lives {
            ('l', 'd')
        } else {
            ('d', 'l')
        };
        format!("{first}{count}{last}")
    }

    /// Reads `l2d`/`d1l` (a digit 1-9 between the letters).
    pub fn parse(s: &str) -> Option<KoType> {
        let b = s.as_bytes();
        if b.len() != 3 || !b[1].is_ascii_digit() || b[1] == b'0' {
            return None;
        }
        let defender_lives = match (b[0], b[2]) {
            (b'l', b'd') => true,
            (b'd', b'l') => false,
            _ => return None,
        };
        Some(KoType {
            defender_lives,
            threats: b[1] - b'0',
        })
    }
}

/// Which side of a ko the mover is on when its result depends on one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KoWin {
    /// The mover wins the ko by taking it first; the opponent needs ko
    /// threats to turn it (GNU Go's KO_A).
    TakenFirst,
    /// The mover wins only with ko threats of its own (GNU Go's KO_B).
    NeedsThreat,
}

/// What the side to move achieves: GNU Go's owl result, typed (the GTP
/// layer writes it as GNU Go's codes 0-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OwlResult {
    /// The mover cannot reach its goal.
    Fails,
    /// The mover reaches its goal unconditionally.
    Succeeds,
    /// The mover reaches its goal through a ko.
    Ko(KoWin),
}

impl OwlResult {
    /// The same result seen from the other side: the side that just moved,
    /// when `self` is its opponent's answer (a ko the opponent takes
    /// first is one the mover needs a threat for, and the other way round).
    pub fn reversed(self) -> OwlResult {
        match self {
            OwlResult::Fails => OwlResult::Succeeds,
            OwlResult::Succeeds => OwlResult::Fails,
            OwlResult::Ko(KoWin::TakenFirst) => OwlResult::Ko(KoWin::NeedsThreat),
            OwlResult::Ko(KoWin::NeedsThreat) => OwlResult::Ko(KoWin::TakenFirst),
        }
    }

    /// Succeeds, outright or through a ko.
    pub fn succeeds(self) -> bool {
        self != OwlResult::Fails
    }

    /// GNU Go's owl code: 0 fails, 1 succeeds, 2 a ko the mover takes
    /// first, 3 a ko it needs a threat for (as `gtp::owl_code` writes it).
    pub fn code(self) -> u8 {
        match self {
            OwlResult::Fails => 0,
            OwlResult::Succeeds => 1,
            OwlResult::Ko(KoWin::TakenFirst) => 2,
            OwlResult::Ko(KoWin::NeedsThreat) => 3,
        }
    }
}

/// One owl-style answer: can the side to move reach its goal?
#[derive(Clone, Debug)]
pub struct OwlAnswer {
    /// `None` when a limit was hit.
    pub result: Option<OwlResult>,
    /// For a ko result from a simple ko: GoTools' ko type.
    pub ko: Option<KoType>,
    /// For a ko result whose ko type a limit left open (`ko` is then
    /// `None`): the type with the least number of threats not ruled out.
    /// The loser of the search without threats turns the result with
    /// [`MAX_KO_THREATS`], not with fewer than `threats`; the search with
    /// `threats` ran out. The result (the owl code) is exact.
    pub ko_open: Option<KoType>,
    /// The proof found (for a ko, one of the searches that placed its ko
    /// type) used a repetition ban other than simple ko (double ko,
    /// send-two-return-one, ...). Another move order may find a proof
    /// without one, so this is a hint, not a property of the position; the
    /// code is not changed by it.
    pub superko: bool,
    /// Leaves (GoTools' count) under each first move of the side to move
    /// in the search without ko threats, in the order first tried.
    pub per_move: Vec<(Move, u64)>,
    /// The key move (when the mover succeeds).
    pub mv: Option<Move>,
    /// The main line of the deciding search.
    pub line: Vec<(Color, Move)>,
    pub counters: Counters,
    pub elapsed: Duration,
}

/// The status of the defender's group with one side moving first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Alive,
    Seki,
    /// The defender lives, but the strict search that tells seki from
    /// unconditional life ran out of its limit.
    Lives,
    Dead,
    /// The result depends on a ko, seen from the side to move.
    Ko(KoWin),
    Unknown,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Alive => "alive",
            Status::Seki => "seki",
            Status::Lives => "lives",
            Status::Dead => "dead",
            Status::Ko(_) => "ko",
            Status::Unknown => "unknown",
        }
    }

    /// The defender lives (alive or seki).
    pub fn lives(self) -> bool {
        matches!(self, Status::Alive | Status::Seki | Status::Lives)
    }
}

/// The status with one side moving first, the key move and the effort.
#[derive(Clone, Debug)]
pub struct SideAnswer {
    pub first: Color,
    pub status: Status,
    pub owl: OwlAnswer,
    /// Effort including the seki test.
    pub counters: Counters,
    pub elapsed: Duration,
}

impl SideAnswer {
    /// Leaves of the answer line, GoTools' `#`: under the key move when
    /// the mover succeeds, under all first moves when it fails (from the
    /// search without ko threats, [`OwlAnswer::per_move`]).
    pub fn line_leaves(&self) -> u64 {
        match self.owl.mv {
            Some(m) if self.owl.result.is_some_and(OwlResult::succeeds) => self
                .owl
                .per_move
                .iter()
                .find(|e| e.0 == m)
                .map_or(0, |e| e.1),
            _ => self.owl.per_move.iter().map(|e| e.1).sum(),
        }
    }
}
