//! Time settings and the clock, as the controller reports them.
//!
//! The settings survive `clear_board`, `boardsize` and `loadsgf` (the CGOS
//! client sends `time_settings` before `clear_board`), and `time_left` is
//! accepted without any prior `time_settings`.

use std::fmt;

/// A time system.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub enum TimeSystem {
    /// No time limit (the default).
    #[default]
    Unlimited,
    /// Sudden death: `main` seconds for the whole game.
    Absolute { main: f64 },
    /// Japanese byo-yomi: main time, then `periods` periods of `period` s.
    ByoYomi {
        main: f64,
        period: f64,
        periods: u32,
    },
    /// Canadian: main time, then `stones` moves in every `period` s.
    Canadian { main: f64, period: f64, stones: u32 },
}

impl TimeSystem {
    /// The meaning of GTP `time_settings main byo_yomi_time byo_yomi_stones`:
    /// stones 0 with byo-yomi time 0 is absolute time, stones 0 with a
    /// positive byo-yomi time means no limit, otherwise Canadian.
    pub fn from_gtp(main: u32, byo_time: u32, byo_stones: u32) -> TimeSystem {
        match (byo_time, byo_stones) {
            (0, 0) => TimeSystem::Absolute { main: main as f64 },
            (_, 0) => TimeSystem::Unlimited,
            (t, s) => TimeSystem::Canadian {
                main: main as f64,
                period: t as f64,
                stones: s,
            },
        }
    }
}

impl fmt::Display for TimeSystem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeSystem::Unlimited => write!(f, "no time limit"),
            TimeSystem::Absolute { main } => write!(f, "absolute {main} s"),
            TimeSystem::ByoYomi {
                main,
                period,
                periods,
            } => write!(f, "{main} s + {periods} x {period} s byo-yomi"),
            TimeSystem::Canadian {
                main,
                period,
                stones,
            } => write!(f, "{main} s + {stones} stones in {period} s"),
        }
    }
}

/// What the controller last said about one player's clock.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeLeft {
    pub seconds: f64,
    /// Stones left in the current byo-yomi period; 0 in main time.
    pub stones: u32,
}

/// The clock of a game: the system and each player's remaining time.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Clock {
    pub system: TimeSystem,
    pub left: [Option<TimeLeft>; 2],
}

impl Clock {
    /// New settings reset what is known of the remaining time.
    pub fn set_system(&mut self, system: TimeSystem) {
        self.system = system;
        self.left = [None, None];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gtp_time_settings() {
        assert_eq!(
            TimeSystem::from_gtp(300, 0, 0),
            TimeSystem::Absolute { main: 300.0 }
        );
        assert_eq!(TimeSystem::from_gtp(0, 30, 0), TimeSystem::Unlimited);
        assert_eq!(
            TimeSystem::from_gtp(600, 30, 5),
            TimeSystem::Canadian {
                main: 600.0,
                period: 30.0,
                stones: 5
            }
        );
    }
}
