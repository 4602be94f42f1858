//! Scoring a finished game: the referee's `final_score`, or both engines'
//! dead-stone agreement with a Tromp-Taylor count.

use super::*;

/// Parses `B+3.5`, `W+12`, `0` into Black's margin.
pub fn parse_score(s: &str) -> Option<f64> {
    let s = s.trim();
    if s == "0" {
        return Some(0.0);
    }
    let (sign, rest) = if let Some(r) = s.strip_prefix("B+") {
        (1.0, r)
    } else if let Some(r) = s.strip_prefix("W+") {
        (-1.0, r)
    } else {
        return None;
    };
    rest.parse::<f64>().ok().map(|v| sign * v)
}

pub(super) fn referee_score_of(
    r: &EngineCommand,
    cfg: &MatchConfig,
    game: &Game,
) -> Result<String, MatchError> {
    let mut referee = r.spawn()?;
    for c in [
        format!("boardsize {}", cfg.size),
        "clear_board".into(),
        format!("komi {}", cfg.komi),
    ] {
        referee.expect(&c)?;
    }
    for (color, mv) in game.moves() {
        referee.expect(&format!("play {color} {mv}"))?;
    }
    Ok(referee.expect("final_score")?)
}

/// Tromp-Taylor after dead-stone agreement: the stones both engines call
/// dead are removed; if they disagree, the board is scored as it stands.
pub(super) fn agreed_score(
    a: &mut GtpClient,
    b: &mut GtpClient,
    game: &Game,
) -> Result<f64, MatchError> {
    let dead = |c: &mut GtpClient| -> Option<Vec<Coord>> {
        let body = c.send("final_status_list dead").ok()?.ok()?;
        let mut v: Vec<Coord> = body
            .split_whitespace()
            .filter_map(|w| match w.parse::<Move>() {
                Ok(Move::Play(c)) => Some(c),
                _ => None,
            })
            .collect();
        v.sort_by_key(|c| (c.y, c.x));
        Some(v)
    };
    let (da, db) = (dead(a), dead(b));
    Ok(match (da, db) {
        (Some(x), Some(y)) if x == y => game.score_without(&x),
        _ => game.area_score(),
    })
}
