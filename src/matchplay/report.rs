//! Finished matches as a report (`tengen results`): the score of each
//! match directory, or of each block of its games, with its 95% interval
//! and Elo, as a table and a chart (score or Elo against games played or
//! against a value given per match, such as a book's build time).

use std::fmt::Write as _;
use std::io;
use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{MatchGame, Summary};
use crate::chart::{both, bounds, builder, finish, io_err, mesh};

/// One point of a report: a series (a match), its x value and the games
/// summarised there.
#[derive(Clone, Debug)]
pub struct Point {
    pub series: String,
    pub x: f64,
    pub summary: Summary,
}

/// What the chart's y axis shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Axis {
    /// The score in per cent (draws count half).
    Score,
    /// The Elo difference.
    Elo,
}

fn summarise(games: &[MatchGame]) -> Summary {
    let mut s = Summary::default();
    for g in games {
        s.add(g);
    }
    s
}

/// One point per block of `per` games in the order they were played; x is
/// the number of games at the block's end. A last, shorter block is kept
/// when it holds at least half a block.
pub fn blocks(series: &str, games: &[MatchGame], per: usize) -> Vec<Point> {
    let per = per.max(1);
    games
        .chunks(per)
        .enumerate()
        .filter(|(_, c)| 2 * c.len() >= per)
        .map(|(i, c)| Point {
            series: series.to_string(),
            x: (i * per + c.len()) as f64,
            summary: summarise(c),
        })
        .collect()
}

/// One point for a whole match, at `x`.
pub fn whole(series: &str, games: &[MatchGame], x: f64) -> Point {
    Point {
        series: series.to_string(),
        x,
        summary: summarise(games),
    }
}

/// The points as tab-separated text with a header line.
pub fn table(points: &[Point], x_label: &str) -> String {
    let x = x_label.replace(char::is_whitespace, "_");
    let mut out = format!(
        "series\t{x}\tgames\twins\tlosses\tdraws\tscore\tscore_lo\tscore_hi\telo\telo_lo\telo_hi\n"
    );
    for p in points {
        let s = &p.summary;
        let (lo, hi) = s.rate_interval();
        let (e, elo_lo, elo_hi) = s.elo();
        let _ = writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}\t{}\t{:.1}\t{:.1}\t{:.1}\t{:.0}\t{:.0}\t{:.0}",
            p.series,
            p.x,
            s.games,
            s.wins,
            s.losses,
            s.draws,
            100.0 * s.rate(),
            100.0 * lo,
            100.0 * hi,
            e,
            elo_lo,
            elo_hi
        );
    }
    out
}

/// The y value and its interval of a point.
fn y_of(p: &Point, axis: Axis) -> (f64, f64, f64) {
    let s = &p.summary;
    match axis {
        Axis::Score => {
            let (lo, hi) = s.rate_interval();
            (100.0 * s.rate(), 100.0 * lo, 100.0 * hi)
        }
        Axis::Elo => s.elo(),
    }
}

/// The chart: one line per series, each point with its 95% interval as a
/// vertical bar; `<stem>.svg` and `<stem>.png`.
pub fn plot(
    stem: &Path,
    points: &[Point],
    x_label: &str,
    axis: Axis,
    title: &str,
) -> io::Result<()> {
    both(
        stem,
        (800, 500),
        |r, t| draw(r, points, x_label, axis, title, t),
        |r, t| draw(r, points, x_label, axis, title, t),
    )
}

/// Line colours, one per series in order.
pub(super) const COLOURS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(23, 190, 207),
];

fn draw<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    points: &[Point],
    x_label: &str,
    axis: Axis,
    title: &str,
    text: bool,
) -> io::Result<()> {
    root.fill(&WHITE).map_err(io_err)?;
    let (x_lo, x_hi) = bounds(points.iter().map(|p| p.x).chain([0.0]));
    let (y_lo, y_hi) = match axis {
        Axis::Score => (0.0, 100.0),
        Axis::Elo => bounds(points.iter().flat_map(|p| {
            let (y, lo, hi) = y_of(p, axis);
            [y, lo, hi, 0.0]
        })),
    };
    let mut chart = builder(&root, title, text)
        .build_cartesian_2d(x_lo..x_hi, y_lo..y_hi)
        .map_err(io_err)?;
    let y_desc = match axis {
        Axis::Score => "score (%)",
        Axis::Elo => "Elo",
    };
    mesh(&mut chart, text, x_label, y_desc)?;
    // The even line: 50% or 0 Elo.
    let even = match axis {
        Axis::Score => 50.0,
        Axis::Elo => 0.0,
    };
    chart
        .draw_series(LineSeries::new(
            [(x_lo, even), (x_hi, even)],
            BLACK.mix(0.3),
        ))
        .map_err(io_err)?;
    let mut names: Vec<&str> = Vec::new();
    for p in points {
        if !names.contains(&p.series.as_str()) {
            names.push(&p.series);
        }
    }
    // Series side by side: each a little to the right of the one before,
    // so that their bars do not hide each other.
    let step = 0.008 * (x_hi - x_lo);
    let centre = (names.len() as f64 - 1.0) / 2.0;
    for (i, name) in names.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let dx = (i as f64 - centre) * step;
        let mine: Vec<&Point> = points.iter().filter(|p| p.series == *name).collect();
        chart
            .draw_series(mine.iter().map(|p| {
                let (y, lo, hi) = y_of(p, axis);
                ErrorBar::new_vertical(p.x + dx, lo, y, hi, colour.filled(), 6)
            }))
            .map_err(io_err)?;
        chart
            .draw_series(LineSeries::new(
                mine.iter().map(|p| (p.x + dx, y_of(p, axis).0)),
                colour.stroke_width(2),
            ))
            .map_err(io_err)?
            .label(*name)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour));
    }
    finish(&mut chart, &root, text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matchplay::EndReason;
    use crate::rules::Color;

    fn game(index: usize, won: bool) -> MatchGame {
        let engine_color = if index.is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        };
        MatchGame {
            index,
            engine_color,
            winner: Some(if won {
                engine_color
            } else {
                engine_color.opponent()
            }),
            score: None,
            reason: EndReason::Resign,
            moves: 50,
            seconds: [1.0, 1.0],
            engine_score: None,
            referee_score: None,
            sgf: String::new(),
        }
    }

    #[test]
    fn blocks_count_their_own_games_and_drop_a_short_tail() {
        // 10 games: the first 4 all won, then 4 all lost, then 2 won.
        let games: Vec<MatchGame> = (0..10).map(|i| game(i, !(4..8).contains(&i))).collect();
        let b = blocks("a", &games, 4);
        assert_eq!(b.len(), 3, "a tail of 2 is half a block of 4: kept");
        assert_eq!(
            b.iter().map(|p| (p.x, p.summary.wins)).collect::<Vec<_>>(),
            vec![(4.0, 4), (8.0, 0), (10.0, 2)]
        );
        assert_eq!(
            blocks("a", &games, 6).len(),
            2,
            "10 = 6 + a tail of 4, kept"
        );
        assert_eq!(
            blocks("a", &games[..7], 6).len(),
            1,
            "a tail of 1 of 6 is dropped"
        );
        let w = whole("b", &games, 2.5);
        assert_eq!((w.x, w.summary.games, w.summary.wins), (2.5, 10, 6));
        let t = table(&b, "games");
        assert_eq!(t.lines().count(), 4);
        assert!(
            t.lines()
                .nth(1)
                .unwrap()
                .starts_with("a\t4\t4\t4\t0\t0\t100.0\t"),
            "{t}"
        );
    }

    #[test]
    fn the_chart_is_written_as_svg_and_png() {
        let dir = tempfile::tempdir().unwrap();
        let games: Vec<MatchGame> = (0..20).map(|i| game(i, i % 3 != 0)).collect();
        let mut points = blocks("table", &games, 5);
        points.extend(blocks("no table", &games[..10], 5));
        for axis in [Axis::Score, Axis::Elo] {
            let stem = dir.path().join(format!("{axis:?}"));
            plot(&stem, &points, "games", axis, "test").unwrap();
            for ext in ["svg", "png"] {
                let f = stem.with_extension(ext);
                assert!(
                    std::fs::metadata(&f).unwrap().len() > 1000,
                    "{}",
                    f.display()
                );
            }
        }
    }
}
