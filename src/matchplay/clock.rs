//! The referee's clock: the time settings sent to both engines and the
//! time each side has left (main time, byo-yomi periods, Canadian stones).

use super::*;

pub(super) fn time_settings_command(t: TimeSystem) -> Option<String> {
    match t {
        TimeSystem::Unlimited => None,
        TimeSystem::Absolute { main } => Some(format!("time_settings {} 0 0", main as u64)),
        TimeSystem::Canadian {
            main,
            period,
            stones,
        } => Some(format!(
            "time_settings {} {} {}",
            main as u64, period as u64, stones
        )),
        TimeSystem::ByoYomi {
            main,
            period,
            periods,
        } => Some(format!(
            "kgs-time_settings byoyomi {} {} {}",
            main as u64, period as u64, periods
        )),
    }
}

/// A player's clock in a match, kept by the referee side.
#[derive(Clone, Copy, Debug)]
pub(super) struct MatchClock {
    main: f64,
    /// Seconds left in the current overtime period, if in overtime.
    period_left: f64,
    stones_left: u32,
    periods_left: u32,
    in_overtime: bool,
}

impl MatchClock {
    pub(super) fn new(t: TimeSystem) -> MatchClock {
        let (main, periods) = match t {
            TimeSystem::Unlimited => (f64::INFINITY, 0),
            TimeSystem::Absolute { main } => (main, 0),
            TimeSystem::Canadian { main, .. } => (main, 1),
            TimeSystem::ByoYomi { main, periods, .. } => (main, periods),
        };
        let mut c = MatchClock {
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

    pub(super) fn enter_overtime(&mut self, t: TimeSystem) {
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
    pub(super) fn spend(&mut self, t: TimeSystem, secs: f64) -> bool {
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

    /// The `time_left` arguments: seconds and stones (periods for
    /// byo-yomi), 0 stones in main time.
    pub(super) fn time_left(&self) -> (f64, u32) {
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
