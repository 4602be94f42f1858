//! What the GTP front end shows of a search: GoGui's gfx commands (LABEL,
//! SQUARE, VAR, TEXT) and the progress lines on stderr. The engine hands
//! over typed snapshots and results; the text is made here.

use std::time::Duration;

use crate::engine::Genmove;
use crate::rules::{Color, Move};
use crate::search::{Mark, SearchResult, Snapshot};

/// A one-line progress report.
pub fn progress_line(s: &Snapshot) -> String {
    match s.best() {
        Some(b) => format!(
            "{:>8} playouts {:>6.0}/s  {} {} {:.1}% ({} visits)  pv {}",
            s.playouts,
            s.playouts_per_second(),
            s.color.map_or("?".into(), |c| c.to_string()),
            b.mv,
            100.0 * b.winrate,
            b.visits,
            join_moves(&b.pv)
        ),
        None => format!("{:>8} playouts", s.playouts),
    }
}

fn join_moves(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// GoGui gfx for the best moves: a label with the win rate (or visits)
/// on each candidate, the best marked, and the principal variation.
pub fn gfx_best_moves(s: &Snapshot, with_var: bool) -> String {
    let mut out = Vec::new();
    let top: Vec<_> = s
        .candidates
        .iter()
        .filter(|c| c.mv != Move::Pass)
        .take(10)
        .collect();
    if !top.is_empty() {
        let labels: Vec<String> = top
            .iter()
            .map(|c| format!("{} {:.0}", c.mv, 100.0 * c.winrate))
            .collect();
        out.push(format!("LABEL {}", labels.join(" ")));
        out.push(format!("SQUARE {}", top[0].mv));
    }
    if with_var && let (Some(b), Some(color)) = (s.best(), s.color) {
        out.push(format!("VAR {}", var_moves(color, &b.pv)));
    }
    if let Some(b) = s.best() {
        out.push(format!(
            "TEXT {} playouts, best {} {:.1}%",
            s.playouts,
            b.mv,
            100.0 * b.winrate
        ));
    }
    out.join("\n")
}

/// A variation as GoGui's `var` type wants it: `b D4 w C3 ...`.
pub fn var_moves(first: Color, moves: &[Move]) -> String {
    let mut c = first;
    let mut out = Vec::new();
    for m in moves {
        out.push(format!(
            "{} {}",
            if c == Color::Black { "b" } else { "w" },
            m
        ));
        c = c.opponent();
    }
    out.join(" ")
}

/// A marked principal variation as text: `E5> D4! C3- F6`.
pub fn marked_line(pv: &[(Move, Mark)]) -> String {
    pv.iter()
        .map(|(m, k)| format!("{m}{}", k.symbol()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// What a session prints on stderr while the engine thinks.
#[derive(Clone, Copy, Debug, Default)]
pub struct Reporting {
    /// Progress lines, iterations and a summary per generated move.
    pub verbose: bool,
    /// GoGui live graphics (`gogui-gfx:`) while searching.
    pub live_gfx: bool,
}

impl Reporting {
    /// Shows one snapshot of a search in progress.
    pub fn snapshot(&self, s: &Snapshot) {
        if self.verbose {
            eprintln!("{}", progress_line(s));
        }
        if self.live_gfx {
            eprint!("gogui-gfx:\n{}\n\n", gfx_best_moves(s, true));
        }
    }

    /// After a generated move: the iterations of the search and a summary.
    pub fn genmove(
        &self,
        color: Color,
        choice: Genmove,
        r: &SearchResult,
        elapsed: Duration,
        table: bool,
    ) {
        if !self.verbose {
            return;
        }
        if let (Some(b), Genmove::Move(m)) = (r.book, choice) {
            eprintln!(
                "{color} {m}: book move from the table in {:.2} s (quality {}: about {:.0} visits of the move; this search would have made about {} playouts)",
                elapsed.as_secs_f64(),
                b.entry.quality,
                b.entry.visits(),
                b.instead_of
            );
            return;
        }
        if r.iterations.len() > 1 {
            for it in &r.iterations {
                eprintln!("{it}");
            }
        }
        let s = &r.snapshot;
        eprintln!(
            "{} {}: {} playouts in {:.2} s ({:.0}/s), win rate {:.1}%, tree {} nodes, root {} visits{}{}",
            color,
            match choice {
                Genmove::Move(m) => m.to_string(),
                Genmove::Resign => "resign".into(),
            },
            s.playouts,
            elapsed.as_secs_f64(),
            s.playouts_per_second(),
            100.0 * r.winrate,
            s.tree_nodes,
            s.root_visits,
            match (s.tree_full, s.tree_full_after) {
                (true, Some(n)) =>
                    format!(" (memory cap reached after {n} playouts: the tree stopped growing)"),
                (true, None) => " (memory cap reached: the tree stopped growing)".into(),
                _ => String::new(),
            },
            s.best()
                .map_or(String::new(), |b| format!(", pv {}", join_moves(&b.pv)))
        );
        if table && !r.marked_pv.is_empty() {
            eprintln!("table pv: {}", marked_line(&r.marked_pv));
        }
    }
}
