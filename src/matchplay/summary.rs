//! The match summary: wins, losses and jigo with the win rate, its
//! confidence interval and the Elo difference.

use super::*;

/// The summary of a set of games.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub games: usize,
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    pub time_losses: usize,
    /// Games where the engine's final_score and the referee's agreed on
    /// the winner, out of games where both were asked.
    pub score_agreement: (usize, usize),
    /// Games read back from an earlier run's results (counted above too).
    pub resumed: usize,
}

impl Summary {
    pub fn add(&mut self, r: &MatchGame) {
        self.games += 1;
        let p = r.points();
        if p >= 1.0 {
            self.wins += 1;
        } else if p <= 0.0 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
        if r.reason == EndReason::Time && r.points() == 0.0 {
            self.time_losses += 1;
        }
        if let (Some(e), Some(f)) = (&r.engine_score, &r.referee_score) {
            self.score_agreement.1 += 1;
            let sign = |s: &str| parse_score(s).map(|v| v.signum() as i32);
            if sign(e) == sign(f) {
                self.score_agreement.0 += 1;
            }
        }
    }

    /// The score rate (draws count half).
    pub fn rate(&self) -> f64 {
        if self.games == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games as f64
    }

    /// The 95% confidence interval of the rate (normal approximation,
    /// clamped to [0, 1]).
    pub fn rate_interval(&self) -> (f64, f64) {
        let p = self.rate();
        let n = self.games.max(1) as f64;
        let half = 1.96 * (p * (1.0 - p) / n).sqrt();
        ((p - half).max(0.0), (p + half).min(1.0))
    }

    /// Elo difference and its 95% interval.
    pub fn elo(&self) -> (f64, f64, f64) {
        let (lo, hi) = self.rate_interval();
        (elo_of(self.rate()), elo_of(lo), elo_of(hi))
    }

    pub fn line(&self) -> String {
        let (lo, hi) = self.rate_interval();
        let (e, elo_lo, elo_hi) = self.elo();
        let mut s = format!(
            "{} games: {} wins, {} losses, {} draws; win rate {:.1}% (95% CI {:.1}-{:.1}%); \
             Elo {:+.0} (95% CI {:+.0} to {:+.0}); time losses {}",
            self.games,
            self.wins,
            self.losses,
            self.draws,
            100.0 * self.rate(),
            100.0 * lo,
            100.0 * hi,
            e,
            elo_lo,
            elo_hi,
            self.time_losses
        );
        if self.score_agreement.1 > 0 {
            let _ = write!(
                s,
                "; final_score agrees with the referee on the winner in {}/{} games",
                self.score_agreement.0, self.score_agreement.1
            );
        }
        s
    }
}

/// The Elo difference of a score rate (clamped so that 0% and 100% give
/// finite numbers).
pub fn elo_of(p: f64) -> f64 {
    let p = p.clamp(0.001, 0.999);
    // + 0.0 turns an even score's -0 into 0.
    -400.0 * (1.0 / p - 1.0).log10() + 0.0
}
