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

    /// Books `secs` of thinking by `color` on its own estimate of the
    /// clock. The controller's next `time_left` replaces the estimate.
    pub fn spend(&mut self, color: crate::rules::Color, secs: f64) {
        let (main, period, stones) = match self.system {
            TimeSystem::Unlimited => return,
            TimeSystem::Absolute { main } => (main, 0.0, 0),
            TimeSystem::ByoYomi { main, period, .. } => (main, period, 1),
            TimeSystem::Canadian {
                main,
                period,
                stones,
            } => (main, period, stones),
        };
        let left = self.left[color.index()].get_or_insert(TimeLeft {
            seconds: main,
            stones: 0,
        });
        left.seconds -= secs;
        if left.stones > 0 {
            left.stones -= 1;
            if left.stones == 0 && stones > 0 {
                // A new overtime period.
                *left = TimeLeft {
                    seconds: period,
                    stones,
                };
            }
        } else if left.seconds <= 0.0 && stones > 0 {
            *left = TimeLeft {
                seconds: period + left.seconds.min(0.0),
                stones,
            };
        }
        if left.seconds < 0.0 {
            left.seconds = 0.0;
        }
    }
}

/// Seconds kept back on every move for network and process lag.
pub const LAG_RESERVE: f64 = 0.4;
/// Never plan to use more than this share of the main time left on one
/// move.
pub const MAX_SHARE: f64 = 0.25;

/// How long to think on one move: the time left is spread over the moves
/// still expected (about half the empty points for each side, at least
/// 12), with 1.4 times the share in the opening and middle game (less
/// than 40% of the board filled). Byo-yomi or Canadian overtime adds a
/// safe share of the period. `None` means no time limit.
pub fn move_budget(
    clock: &Clock,
    color: crate::rules::Color,
    empty: usize,
    points: usize,
) -> Option<f64> {
    let left = clock.left[color.index()];
    let expected = (empty as f64 * 0.5).max(12.0);
    let fill = 1.0 - empty as f64 / points.max(1) as f64;
    let boost = if fill < 0.4 { 1.4 } else { 1.0 };
    let main_share = |main_left: f64| {
        let usable = (main_left - LAG_RESERVE).max(0.0);
        (usable / expected * boost).min(usable * MAX_SHARE)
    };
    let overtime = |seconds: f64, stones: u32| {
        // In overtime: the period's time for the stones still to play.
        ((seconds - LAG_RESERVE) / stones.max(1) as f64 * 0.9).max(0.05)
    };
    let budget = match clock.system {
        TimeSystem::Unlimited => return None,
        TimeSystem::Absolute { main } => {
            let l = left.map_or(main, |l| l.seconds);
            main_share(l)
        }
        TimeSystem::Canadian {
            main,
            period,
            stones,
        } => match left {
            Some(l) if l.stones > 0 => overtime(l.seconds, l.stones),
            Some(l) => main_share(l.seconds) + overtime(period, stones),
            None if main > 0.0 => main_share(main) + overtime(period, stones),
            None => overtime(period, stones),
        },
        TimeSystem::ByoYomi {
            main,
            period,
            periods: _,
        } => match left {
            // KGS reports the time of the current period and the periods
            // left once main time is over.
            Some(l) if l.stones > 0 => overtime(l.seconds.min(period), 1),
            Some(l) => main_share(l.seconds) + overtime(period, 1),
            None => main_share(main) + overtime(period, 1),
        },
    };
    Some(budget.max(0.05))
}

#[cfg(test)]
mod budget_tests {
    use super::*;
    use crate::rules::Color;

    #[test]
    fn budgets_are_safe() {
        let mut c = Clock::default();
        assert_eq!(move_budget(&c, Color::Black, 81, 81), None);
        c.set_system(TimeSystem::Absolute { main: 60.0 });
        let b = move_budget(&c, Color::Black, 81, 81).unwrap();
        assert!(b > 1.0 && b < 5.0, "{b}");
        c.left[0] = Some(TimeLeft {
            seconds: 1.0,
            stones: 0,
        });
        let b = move_budget(&c, Color::Black, 40, 81).unwrap();
        assert!(b < 0.2, "{b}");
        c.set_system(TimeSystem::Canadian {
            main: 0.0,
            period: 5.0,
            stones: 1,
        });
        let b = move_budget(&c, Color::Black, 81, 81).unwrap();
        assert!(b > 3.0 && b < 5.0 - LAG_RESERVE, "{b}");
        c.left[1] = Some(TimeLeft {
            seconds: 2.0,
            stones: 1,
        });
        let b = move_budget(&c, Color::White, 81, 81).unwrap();
        assert!(b < 1.6, "{b}");
    }
}
