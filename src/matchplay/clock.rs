//! The time settings the referee sends to both engines. The clocks it
//! keeps are the engine's own model ([`crate::engine::time::ClockState`]).

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
