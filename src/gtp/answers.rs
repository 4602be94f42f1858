//! The text of answers: GNU Go's owl codes and `dragon_status`, the
//! tsumego line, table statistics, the board, Leela Zero `info` lines and
//! engine errors as controllers expect them.

use super::*;

pub(super) fn join<T: ToString>(items: impl IntoIterator<Item = T>) -> String {
    items
        .into_iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The error text GTP uses for each engine error. Where the spec names a
/// message, that message is used verbatim (controllers match on it).
pub(super) fn error_text(e: &EngineError) -> String {
    match e {
        EngineError::Play(_) => "illegal move".into(),
        EngineError::Game(GameError::CannotUndo) => "cannot undo".into(),
        EngineError::Game(GameError::BadSize(_)) => "unacceptable size".into(),
        EngineError::Game(GameError::Handicap(h)) => h.to_string(),
        EngineError::Sgf(_)
        | EngineError::IllegalRecordMove { .. }
        | EngineError::BadSetup { .. } => format!("cannot load file: {e}"),
        other => other.to_string(),
    }
}
/// GNU Go's owl code of a result: 0 fails, 1 succeeds, 2 and 3 succeed
/// through a ko (KO_A: taken first; KO_B: with threats).
pub fn owl_code(r: crate::tsumego::OwlResult) -> u8 {
    r.code()
}

/// `owl_attack`/`owl_defend`: `code [vertex]`, or `unknown` at a limit.
pub(super) fn owl_text(a: &crate::tsumego::OwlAnswer) -> String {
    match (a.result.map(owl_code), a.mv) {
        (None, _) => "unknown".into(),
        (Some(0), _) => "0".into(),
        (Some(c), Some(m)) => format!("{c} {m}"),
        (Some(c), None) => c.to_string(),
    }
}

/// `attack`/`defend`: `0`, or `code vertex` (`PASS` when a string needs
/// no defence), as GNU Go answers.
pub(super) fn tactic_text(b: &crate::rules::Board, r: &crate::tactics::reading::Reading) -> String {
    match (r.outcome.code(), r.mv) {
        (0, _) => "0".into(),
        (c, Some(p)) => format!("{c} {}", b.coord(p)),
        (c, None) => format!("{c} PASS"),
    }
}

/// `dragon_status`: `alive`, `dead`, `critical ATTACK DEFEND` or `unknown`.
pub(super) fn dragon_text(d: crate::tsumego::DragonStatus) -> String {
    use crate::tsumego::DragonStatus;
    let mv = |m: Option<crate::rules::Move>| m.map_or("PASS".to_string(), |m| m.to_string());
    match d {
        DragonStatus::Alive => "alive".into(),
        DragonStatus::Dead => "dead".into(),
        DragonStatus::Critical { attack, defend } => {
            format!("critical {} {}", mv(attack), mv(defend))
        }
        DragonStatus::Unknown => "unknown".into(),
    }
}

/// `tsumego_solve`: one line of `key value` pairs, the main line last.
pub(super) fn solve_text(prob: &crate::tsumego::Problem, a: &crate::tsumego::SideAnswer) -> String {
    let first = if a.first == prob.defender {
        "defender"
    } else {
        "attacker"
    };
    format!(
        "status {} code {} ko {} first {first} move {} leaves {} nodes {} tt {} ms {:.1} region {} line {}",
        a.status.name(),
        a.owl
            .result
            .map_or("-".to_string(), |r| owl_code(r).to_string()),
        match (a.owl.ko, a.owl.ko_open, a.owl.superko) {
            (Some(k), ..) => k.letters(),
            (None, Some(k), _) => k.open_letters(),
            (None, None, true) => "superko".to_string(),
            (None, None, false) => "-".to_string(),
        },
        match (a.owl.result, a.owl.mv) {
            (Some(r), Some(m)) if r.succeeds() => m.to_string(),
            _ => "-".to_string(),
        },
        a.counters.leaves,
        a.counters.nodes,
        a.counters.tt_hits,
        a.elapsed.as_secs_f64() * 1e3,
        prob.region.len(),
        crate::tsumego::format_line(&a.owl.line)
    )
}

/// The answer of `tengen-table_stats`.
pub(super) fn table_stats(t: &crate::table::Table) -> String {
    let v = t.verify(false);
    let s = t.session_counts();
    let (writes, replacements) = t.lifetime_counts();
    let probes = s.hits + s.misses;
    format!(
        "file {} ({})\nscope {}\nentries {} used {} ({:.3}%) stale {}\nsince start: hits {} misses {} (hit rate {:.1}%) writes {} replacements {}\nfile lifetime: writes {} replacements {}",
        t.path().display(),
        t.read_only()
            .map_or("read-write".to_string(), |why| format!("read-only: {why}")),
        t.scope().describe(),
        v.entries,
        v.used,
        100.0 * v.used as f64 / v.entries as f64,
        v.stale,
        s.hits,
        s.misses,
        if probes == 0 {
            0.0
        } else {
            100.0 * s.hits as f64 / probes as f64
        },
        s.writes,
        s.replacements,
        writes,
        replacements
    )
}
pub(super) fn showboard(e: &Engine) -> String {
    let g = e.game();
    let b = g.board();
    let mut out = String::from("\n");
    out += &b.render();
    out += &format!(
        "\nBlack (X) has captured {} stones, White (O) has captured {} stones",
        b.captures(Color::Black),
        b.captures(Color::White)
    );
    out += &format!(
        "\nkomi {}, {} to move, move {}{}",
        g.komi(),
        g.to_move(),
        g.move_count(),
        match g.last_move() {
            Some((c, m)) => format!(", last {c} {m}"),
            None => String::new(),
        }
    );
    out
}

/// Formats `=id body` / `?id message` followed by the blank line. A body
/// never contains an empty line (that would end the response early).
/// A report callback that writes each snapshot's `info` line to `out`.
pub(super) fn lz_writer(out: Output) -> impl FnMut(&Snapshot) + Send + 'static {
    move |s| {
        let line = lz_info(s);
        if !line.is_empty() {
            let mut o = out.lock().unwrap_or_else(|e| e.into_inner());
            let _ = writeln!(o, "{line}").and_then(|_| o.flush());
        }
    }
}

/// One Leela Zero `info` line for a snapshot: every candidate with its
/// visits, win rate and prior (in 1/10000, for the side to move), lower
/// confidence bound, order and principal variation.
pub fn lz_info(s: &Snapshot) -> String {
    s.candidates
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let n = c.visits.max(1) as f64;
            let lcb = (c.winrate - 1.96 * (c.winrate * (1.0 - c.winrate) / n).sqrt()).max(0.0);
            format!(
                "info move {} visits {} winrate {} prior {} lcb {} order {} pv {}",
                c.mv,
                c.visits,
                (c.winrate * 10000.0).round() as i64,
                (c.prior * 10000.0).round() as i64,
                (lcb * 10000.0).round() as i64,
                i,
                c.pv.iter()
                    .map(|m| m.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}
