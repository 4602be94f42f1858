//! Thinking time per move of a finished match (`tengen results --times`):
//! read back from the comment `tengen match` writes on every move of a
//! game's SGF (`C[1.23 s]`), summarised per side and drawn as seconds
//! against the move number, averaged over the games or for one game.

use std::fmt::Write as _;
use std::io;
use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::Color as _;
use sgf_parse::go::{self, Prop};

use super::report::COLOURS;
use super::{EndReason, MatchError, MatchGame};
use crate::chart::{both, bounds, builder, finish, io_err, mesh};
use crate::rules::Color;

/// The thinking time of each move of one game.
#[derive(Clone, Debug)]
pub struct GameTimes {
    /// The game's index (0-based, as in [`MatchGame`]).
    pub index: usize,
    pub engine_color: Color,
    /// Per move in order: the mover and its thinking time in seconds.
    pub moves: Vec<(Color, f64)>,
}

impl GameTimes {
    /// Seconds per move of the engine (`engine` true) or the opponent, by
    /// move number (1-based; the other side's moves are `None`).
    fn side(&self, engine: bool) -> impl Iterator<Item = (usize, f64)> + '_ {
        self.moves
            .iter()
            .enumerate()
            .filter(move |(_, (c, _))| (*c == self.engine_color) == engine)
            .map(|(i, (_, s))| (i + 1, *s))
    }
}

/// The move times of `games` (finished games of the match in `dir`), from
/// their SGF files. A game without them (a match played before tengen
/// recorded them) is an error that names the file.
pub fn read(dir: &Path, games: &[MatchGame]) -> Result<Vec<GameTimes>, MatchError> {
    games
        .iter()
        .map(|g| {
            let path = dir.join(format!("game-{:04}.sgf", g.index + 1));
            let text = std::fs::read_to_string(&path).map_err(|source| MatchError::Read {
                path: path.clone(),
                source,
            })?;
            let moves = parse(&text).map_err(|detail| MatchError::Times {
                path: path.clone(),
                detail,
            })?;
            Ok(GameTimes {
                index: g.index,
                engine_color: g.engine_color,
                moves,
            })
        })
        .collect()
}

/// The movers and thinking times of a game's main line.
fn parse(text: &str) -> Result<Vec<(Color, f64)>, String> {
    let trees = go::parse(text).map_err(|e| format!("not SGF ({e})"))?;
    let root = trees.first().ok_or("no game in the file")?;
    let mut out = Vec::new();
    for node in root.main_variation() {
        let color = match node.get_move() {
            Some(Prop::B(_)) => Color::Black,
            Some(Prop::W(_)) => Color::White,
            _ => continue,
        };
        let secs = match node.get_property("C") {
            Some(Prop::C(t)) => t
                .text
                .strip_suffix(" s")
                .and_then(|v| v.parse::<f64>().ok())
                .filter(|v| v.is_finite() && *v >= 0.0),
            _ => None,
        };
        let Some(secs) = secs else {
            return Err(format!(
                "move {} has no thinking time (a comment like C[1.23 s], which tengen match \
                 writes on every move; games of an older tengen lack it)",
                out.len() + 1
            ));
        };
        out.push((color, secs));
    }
    Ok(out)
}

/// Per side: moves, mean and longest move, mean and longest game total,
/// and games lost on time.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SideTimes {
    pub moves: usize,
    pub mean_move: f64,
    pub max_move: f64,
    pub mean_game: f64,
    pub max_game: f64,
    pub lost_on_time: usize,
}

/// [`SideTimes`] of the engine (`engine` true) or the opponent.
pub fn side_times(times: &[GameTimes], games: &[MatchGame], engine: bool) -> SideTimes {
    let mut s = SideTimes::default();
    let mut total = 0.0;
    for t in times {
        let game: f64 = t.side(engine).map(|(_, v)| v).sum();
        total += game;
        s.max_game = s.max_game.max(game);
        for (_, v) in t.side(engine) {
            s.moves += 1;
            s.max_move = s.max_move.max(v);
        }
    }
    s.mean_move = total / s.moves.max(1) as f64;
    s.mean_game = total / times.len().max(1) as f64;
    s.lost_on_time = games
        .iter()
        .filter(|g| {
            g.reason == EndReason::Time && g.winner.is_some_and(|w| (w == g.engine_color) != engine)
        })
        .count();
    s
}

/// One point of a side's curve: the move number, the mean seconds of
/// that move over the games where the side played it, and their number.
pub type CurvePoint = (usize, f64, usize);

/// The mean seconds per move number of one side, over the games in which
/// at least `min_games` of them reached that move.
pub fn curve(times: &[GameTimes], engine: bool, min_games: usize) -> Vec<CurvePoint> {
    let mut sum: Vec<(f64, usize)> = Vec::new();
    for t in times {
        for (m, v) in t.side(engine) {
            if sum.len() < m {
                sum.resize(m, (0.0, 0));
            }
            sum[m - 1].0 += v;
            sum[m - 1].1 += 1;
        }
    }
    sum.iter()
        .enumerate()
        .filter(|(_, (_, n))| *n >= min_games.max(1))
        .map(|(i, (s, n))| (i + 1, s / *n as f64, *n))
        .collect()
}

/// The per-side summary, as text.
pub fn summary_table(times: &[GameTimes], games: &[MatchGame]) -> String {
    let mut out = format!(
        "{} games: seconds of thinking per move and per game\n\
         side\tmoves\tmean_move\tmax_move\tmean_game\tmax_game\tlost_on_time\n",
        times.len()
    );
    for (name, engine) in [("engine", true), ("opponent", false)] {
        let s = side_times(times, games, engine);
        let _ = writeln!(
            out,
            "{name}\t{}\t{:.2}\t{:.2}\t{:.1}\t{:.1}\t{}",
            s.moves, s.mean_move, s.max_move, s.mean_game, s.max_game, s.lost_on_time
        );
    }
    out
}

/// The curves as tab-separated text: move number, then per side the
/// mean seconds and the number of games (empty where the side has no
/// point).
pub fn curve_table(engine: &[CurvePoint], opponent: &[CurvePoint]) -> String {
    let last = engine
        .iter()
        .chain(opponent)
        .map(|p| p.0)
        .max()
        .unwrap_or(0);
    let mut out = "move\tengine_secs\tengine_games\topponent_secs\topponent_games\n".to_string();
    let cell = |c: &[CurvePoint], m: usize| {
        c.iter()
            .find(|p| p.0 == m)
            .map_or_else(|| "\t".to_string(), |p| format!("{:.2}\t{}", p.1, p.2))
    };
    for m in 1..=last {
        if engine.iter().chain(opponent).any(|p| p.0 == m) {
            let _ = writeln!(out, "{m}\t{}\t{}", cell(engine, m), cell(opponent, m));
        }
    }
    out
}

/// The chart: seconds against the move number, one line per side;
/// `<stem>.svg` and `<stem>.png`.
pub fn plot(
    stem: &Path,
    engine: &[CurvePoint],
    opponent: &[CurvePoint],
    names: [&str; 2],
    title: &str,
) -> io::Result<()> {
    both(
        stem,
        (900, 500),
        |r, t| draw(r, engine, opponent, names, title, t),
        |r, t| draw(r, engine, opponent, names, title, t),
    )
}

fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    engine: &[CurvePoint],
    opponent: &[CurvePoint],
    names: [&str; 2],
    title: &str,
    text: bool,
) -> io::Result<()> {
    root.fill(&WHITE).map_err(io_err)?;
    let all = || engine.iter().chain(opponent);
    let (x_lo, x_hi) = bounds(all().map(|p| p.0 as f64).chain([0.0]));
    let (_, y_hi) = bounds(all().map(|p| p.1).chain([0.0]));
    let mut chart = builder(&root, title, text)
        .build_cartesian_2d(x_lo..x_hi, 0.0..y_hi)
        .map_err(io_err)?;
    mesh(&mut chart, text, "move number", "seconds of thinking")?;
    for ((curve, name), colour) in [engine, opponent].into_iter().zip(names).zip(COLOURS) {
        chart
            .draw_series(LineSeries::new(
                curve.iter().map(|p| (p.0 as f64, p.1)),
                colour.stroke_width(2),
            ))
            .map_err(io_err)?
            .label(name)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour));
    }
    finish(&mut chart, &root, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(index: usize, engine_color: Color, reason: EndReason, winner: Color) -> MatchGame {
        MatchGame {
            index,
            engine_color,
            winner: Some(winner),
            score: None,
            reason,
            moves: 3,
            seconds: [0.0, 0.0],
            engine_score: None,
            referee_score: None,
            sgf: String::new(),
        }
    }

    #[test]
    fn move_times_are_read_from_the_comments() {
        let sgf = "(;FF[4]SZ[9];B[ee]C[1.50 s]BL[58.5];W[cc]C[0.25 s]WL[59.7];B[]C[2 s])";
        let m = parse(sgf).unwrap();
        assert_eq!(
            m,
            vec![
                (Color::Black, 1.5),
                (Color::White, 0.25),
                (Color::Black, 2.0)
            ]
        );
        let e = parse("(;FF[4]SZ[9];B[ee]C[1.50 s];W[cc])").unwrap_err();
        assert!(e.contains("move 2 has no thinking time"), "{e}");
        assert!(parse("(;FF[4]SZ[9];B[ee]C[fast])").is_err());
        assert!(parse("not sgf").is_err());
    }

    #[test]
    fn sides_curves_and_time_losses() {
        // Game 0: the engine is Black; game 1: White, and it lost on time.
        let times = vec![
            GameTimes {
                index: 0,
                engine_color: Color::Black,
                moves: vec![
                    (Color::Black, 1.0),
                    (Color::White, 4.0),
                    (Color::Black, 3.0),
                ],
            },
            GameTimes {
                index: 1,
                engine_color: Color::White,
                moves: vec![(Color::Black, 2.0), (Color::White, 5.0)],
            },
        ];
        let games = [
            game(0, Color::Black, EndReason::Resign, Color::Black),
            game(1, Color::White, EndReason::Time, Color::Black),
        ];
        let e = side_times(&times, &games, true);
        assert_eq!((e.moves, e.max_move, e.max_game), (3, 5.0, 5.0));
        assert!((e.mean_move - 3.0).abs() < 1e-9 && (e.mean_game - 4.5).abs() < 1e-9);
        assert_eq!(e.lost_on_time, 1);
        let o = side_times(&times, &games, false);
        assert_eq!((o.moves, o.lost_on_time), (2, 0));
        // Move 1: the engine in game 0 (1 s); the opponent in game 1 (2 s).
        assert_eq!(
            curve(&times, true, 1),
            vec![(1, 1.0, 1), (2, 5.0, 1), (3, 3.0, 1)]
        );
        assert_eq!(curve(&times, false, 1), vec![(1, 2.0, 1), (2, 4.0, 1)]);
        assert!(curve(&times, true, 2).is_empty());
        let t = curve_table(&curve(&times, true, 1), &curve(&times, false, 1));
        assert_eq!(t.lines().nth(3), Some("3\t3.00\t1\t\t"), "{t}");
        let s = summary_table(&times, &games);
        assert!(s.contains("engine\t3\t3.00\t5.00\t4.5\t5.0\t1"), "{s}");
    }

    #[test]
    fn the_chart_is_written_as_svg_and_png() {
        let dir = tempfile::tempdir().unwrap();
        let stem = dir.path().join("times");
        let e = vec![(1, 1.0, 2), (3, 2.5, 2), (5, 0.5, 1)];
        let o = vec![(2, 1.5, 2), (4, 0.7, 2)];
        plot(&stem, &e, &o, ["engine", "opponent"], "test").unwrap();
        for ext in ["svg", "png"] {
            assert!(std::fs::metadata(stem.with_extension(ext)).unwrap().len() > 1000);
        }
    }
}
