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

/// The clock of a game: the system and each player's remaining time, as
/// the controller last reported it (`time_left`) and as the engine books
/// its own moves since, on the one clock model ([`ClockState`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Clock {
    pub system: TimeSystem,
    pub left: [Option<TimeLeft>; 2],
    state: [Option<ClockState>; 2],
}

impl Clock {
    /// New settings reset what is known of the remaining time.
    pub fn set_system(&mut self, system: TimeSystem) {
        self.system = system;
        self.left = [None, None];
        self.state = [None, None];
    }

    /// The controller's report (`time_left`): it replaces the estimate.
    pub fn set_left(&mut self, color: crate::rules::Color, seconds: f64, stones: u32) {
        self.left[color.index()] = Some(TimeLeft { seconds, stones });
        self.state[color.index()] = Some(ClockState::from_left(self.system, seconds, stones));
    }

    /// Books `secs` of thinking by `color` on its own estimate of the
    /// clock. The controller's next `time_left` replaces the estimate.
    pub fn spend(&mut self, color: crate::rules::Color, secs: f64) {
        if self.system == TimeSystem::Unlimited {
            return;
        }
        let system = self.system;
        let st = self.state[color.index()].get_or_insert_with(|| ClockState::new(system));
        let (seconds, stones) = if st.spend(system, secs) {
            st.time_left()
        } else {
            // The flag fell on our own estimate: nothing left.
            (0.0, st.time_left().1)
        };
        self.left[color.index()] = Some(TimeLeft {
            seconds: seconds.max(0.0),
            stones,
        });
    }
}

/// One player's clock: main time, then overtime (Canadian stones in a
/// period, or byo-yomi periods of one move each). The one model of a clock:
/// the referee keeps one per player, and the engine keeps its own estimate
/// with it between the controller's `time_left` reports.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClockState {
    main: f64,
    /// Seconds left in the current overtime period, if in overtime.
    period_left: f64,
    stones_left: u32,
    periods_left: u32,
    in_overtime: bool,
}

impl ClockState {
    pub fn new(t: TimeSystem) -> ClockState {
        let (main, periods) = match t {
            TimeSystem::Unlimited => (f64::INFINITY, 0),
            TimeSystem::Absolute { main } => (main, 0),
            TimeSystem::Canadian { main, .. } => (main, 1),
            TimeSystem::ByoYomi { main, periods, .. } => (main, periods),
        };
        let mut c = ClockState {
            main,
            period_left: 0.0,
            stones_left: 0,
            periods_left: periods,
            in_overtime: false,
        };
        if main <= 0.0 {
            c.enter_overtime(t);
        }
        c
    }

    pub fn enter_overtime(&mut self, t: TimeSystem) {
        self.in_overtime = true;
        match t {
            TimeSystem::Canadian { period, stones, .. } => {
                self.period_left = period;
                self.stones_left = stones;
            }
            TimeSystem::ByoYomi { period, .. } => {
                self.period_left = period;
                self.stones_left = 1;
            }
            _ => {}
        }
    }

    /// Books a move that took `secs`; false if the flag fell.
    pub fn spend(&mut self, t: TimeSystem, secs: f64) -> bool {
        let mut secs = secs;
        if !self.in_overtime {
            if secs <= self.main {
                self.main -= secs;
                return true;
            }
            secs -= self.main;
            self.main = 0.0;
            if matches!(t, TimeSystem::Absolute { .. } | TimeSystem::Unlimited) {
                return false;
            }
            self.enter_overtime(t);
        }
        match t {
            TimeSystem::Canadian { period, stones, .. } => {
                if secs > self.period_left {
                    return false;
                }
                self.period_left -= secs;
                self.stones_left -= 1;
                if self.stones_left == 0 {
                    self.period_left = period;
                    self.stones_left = stones;
                }
                true
            }
            TimeSystem::ByoYomi { period, .. } => {
                while secs > period {
                    if self.periods_left <= 1 {
                        return false;
                    }
                    self.periods_left -= 1;
                    secs -= period;
                }
                self.period_left = period;
                true
            }
            _ => true,
        }
    }

    /// The state a controller's `time_left` reports: `stones` 0 is main
    /// time; otherwise overtime with `seconds` in the period and `stones`
    /// moves to play in it (Canadian) or periods left (byo-yomi, as KGS
    /// reports them).
    pub fn from_left(t: TimeSystem, seconds: f64, stones: u32) -> ClockState {
        let mut c = ClockState::new(t);
        if stones == 0 {
            c.main = seconds;
            c.in_overtime = false;
            return c;
        }
        c.enter_overtime(t);
        c.period_left = seconds;
        match t {
            TimeSystem::ByoYomi { .. } => c.periods_left = stones,
            _ => c.stones_left = stones,
        }
        c
    }

    /// The `time_left` arguments: seconds and stones (periods for
    /// byo-yomi), 0 stones in main time.
    pub fn time_left(&self) -> (f64, u32) {
        if self.in_overtime {
            let stones = if self.stones_left > 0 && self.periods_left > 1 {
                self.periods_left
            } else {
                self.stones_left
            };
            (self.period_left, stones)
        } else {
            (self.main, 0)
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
    let main_share = |main_left: f64| main_share(main_left, empty, points);
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

/// The share of `main_left` seconds of main time planned for one move
/// (see [`move_budget`]).
fn main_share(main_left: f64, empty: usize, points: usize) -> f64 {
    let expected = (empty as f64 * 0.5).max(12.0);
    let fill = 1.0 - empty as f64 / points.max(1) as f64;
    let boost = if fill < 0.4 { 1.4 } else { 1.0 };
    let usable = (main_left - LAG_RESERVE).max(0.0);
    (usable / expected * boost).min(usable * MAX_SHARE)
}

/// The longest a move may think while its choice is unsettled: its
/// `budget` (from [`move_budget`]) plus up to `factor - 1` times its share
/// of main time, never past [`MAX_SHARE`] of the main time left. In
/// overtime, or with no main time, it is the budget itself: a period is
/// never stretched. `None` means no time limit.
pub fn move_budget_max(
    clock: &Clock,
    color: crate::rules::Color,
    empty: usize,
    points: usize,
    budget: f64,
    factor: f64,
) -> Option<f64> {
    let left = clock.left[color.index()];
    let main_left = match clock.system {
        TimeSystem::Absolute { main } => left.map_or(main, |l| l.seconds),
        TimeSystem::Canadian { main, .. } | TimeSystem::ByoYomi { main, .. } => match left {
            Some(l) if l.stones > 0 => 0.0,
            Some(l) => l.seconds,
            None => main,
        },
        TimeSystem::Unlimited => return None,
    };
    let share = main_share(main_left, empty, points);
    let usable = (main_left - LAG_RESERVE).max(0.0);
    let extra = (share * (factor - 1.0)).min(usable * MAX_SHARE - share);
    Some(budget + extra.max(0.0))
}

#[cfg(test)]
mod budget_tests {
    use super::*;
    use crate::rules::Color;

    /// The engine's estimate follows the same model as the referee's:
    /// byo-yomi periods are counted, Canadian stones too, and a
    /// controller's report replaces the estimate.
    #[test]
    fn the_estimate_counts_periods_and_stones() {
        let mut c = Clock::default();
        c.set_system(TimeSystem::ByoYomi {
            main: 0.0,
            period: 5.0,
            periods: 3,
        });
        c.spend(Color::Black, 4.0);
        assert_eq!(
            c.left[0],
            Some(TimeLeft {
                seconds: 5.0,
                stones: 3
            })
        );
        c.spend(Color::Black, 7.0); // one period lost
        assert_eq!(
            c.left[0],
            Some(TimeLeft {
                seconds: 5.0,
                stones: 2
            })
        );
        c.set_system(TimeSystem::Canadian {
            main: 10.0,
            period: 30.0,
            stones: 2,
        });
        c.spend(Color::White, 12.0); // main time over, 2 s into the period
        assert_eq!(
            c.left[1],
            Some(TimeLeft {
                seconds: 28.0,
                stones: 1
            })
        );
        c.spend(Color::White, 8.0); // the period's stones played: a new period
        assert_eq!(
            c.left[1],
            Some(TimeLeft {
                seconds: 30.0,
                stones: 2
            })
        );
        c.set_left(Color::White, 3.0, 1);
        c.spend(Color::White, 1.0);
        assert_eq!(
            c.left[1],
            Some(TimeLeft {
                seconds: 30.0,
                stones: 2
            })
        );
        c.set_system(TimeSystem::Absolute { main: 5.0 });
        c.spend(Color::Black, 9.0);
        assert_eq!(
            c.left[0],
            Some(TimeLeft {
                seconds: 0.0,
                stones: 0
            })
        );
    }

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

    /// The extension stretches main time only, by at most the factor and
    /// never past a quarter of what is left; overtime is never stretched.
    #[test]
    fn extensions_stay_in_main_time() {
        let mut c = Clock::default();
        assert_eq!(move_budget_max(&c, Color::Black, 361, 361, 1.0, 2.0), None);
        c.set_system(TimeSystem::Absolute { main: 600.0 });
        let b = move_budget(&c, Color::Black, 361, 361).unwrap();
        let m = move_budget_max(&c, Color::Black, 361, 361, b, 2.0).unwrap();
        assert!((m - 2.0 * b).abs() < 1e-9, "{b} {m}");
        assert_eq!(move_budget_max(&c, Color::Black, 361, 361, b, 1.0), Some(b));
        // Little time left: the quarter cap binds.
        c.left[0] = Some(TimeLeft {
            seconds: 10.0,
            stones: 0,
        });
        let b = move_budget(&c, Color::Black, 20, 361).unwrap();
        let m = move_budget_max(&c, Color::Black, 20, 361, b, 4.0).unwrap();
        assert!(m <= (10.0 - LAG_RESERVE) * MAX_SHARE + 1e-9, "{m}");
        // Byo-yomi: main time is stretched, a period is not.
        c.set_system(TimeSystem::ByoYomi {
            main: 300.0,
            period: 30.0,
            periods: 3,
        });
        let b = move_budget(&c, Color::White, 361, 361).unwrap();
        let m = move_budget_max(&c, Color::White, 361, 361, b, 2.0).unwrap();
        assert!(m > b + 1.0, "{b} {m}");
        c.left[1] = Some(TimeLeft {
            seconds: 30.0,
            stones: 1,
        });
        let b = move_budget(&c, Color::White, 200, 361).unwrap();
        assert_eq!(move_budget_max(&c, Color::White, 200, 361, b, 2.0), Some(b));
    }
}
