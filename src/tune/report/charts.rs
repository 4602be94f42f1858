//! The report's tables and charts: the learning curve as CSV and charts
//! (plotters), DE's scale factor, and for solver weights the test-set
//! leaves by difficulty and the profile (histograms of per-problem leaf
//! ratios tuned/untrained, one per difficulty band).
//!
//! Every chart is written twice, as SVG and as PNG. Text needs a TrueType
//! font: `$TENGEN_FONT`, else a common system font (DejaVu Sans, Liberation
//! Sans, ...). Without one the charts are drawn without their text, and the
//! numbers stay in the CSV and Markdown files.

use std::fmt::Write as _;
use std::io;
use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

pub use crate::chart::has_font;
use crate::chart::{both, bounds, builder, finish, io_err, mesh};

use crate::tune::GenStats;

/// The learning curve as CSV, one row per generation.
pub fn curve_csv(history: &[GenStats]) -> String {
    let mut out = String::from(
        "generation,best,mean,worst,f,evaluations,total_evaluations,replaced,retests,flips,best_leaves,seconds\n",
    );
    for h in history {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{:.2}",
            h.generation,
            h.best,
            h.mean,
            h.worst,
            h.f.map_or(String::new(), |f| format!("{f:.5}")),
            h.evaluations,
            h.total_evaluations,
            h.replaced,
            h.retests,
            h.flips,
            h.best_cost,
            h.seconds
        );
    }
    out
}

/// Best and mean fitness per generation: `<stem>.svg` and `<stem>.png`.
pub fn plot_curve(stem: &Path, history: &[GenStats], title: &str) -> io::Result<()> {
    both(
        stem,
        (800, 500),
        |r, t| draw_curve(r, history, title, t),
        |r, t| draw_curve(r, history, title, t),
    )
}

fn draw_curve<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    history: &[GenStats],
    title: &str,
    text: bool,
) -> io::Result<()> {
    root.fill(&WHITE).map_err(io_err)?;
    let last = history.last().map_or(1, |h| h.generation.max(1)) as f64;
    let (lo, hi) = bounds(history.iter().flat_map(|h| [h.best, h.mean]));
    let mut chart = builder(&root, title, text)
        .build_cartesian_2d(0f64..last, lo..hi)
        .map_err(io_err)?;
    mesh(&mut chart, text, "generation", "fitness")?;
    for (name, color, pick) in [
        (
            "best",
            &BLUE,
            (|h: &GenStats| h.best) as fn(&GenStats) -> f64,
        ),
        ("mean", &RED, |h: &GenStats| h.mean),
    ] {
        chart
            .draw_series(LineSeries::new(
                history.iter().map(|h| (h.generation as f64, pick(h))),
                color,
            ))
            .map_err(io_err)?
            .label(name)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
    }
    finish(&mut chart, &root, text)
}

/// DE's scale factor F per generation: `<stem>.svg` and `<stem>.png`.
pub fn plot_f(stem: &Path, history: &[GenStats]) -> io::Result<()> {
    both(
        stem,
        (800, 400),
        |r, t| draw_f(r, history, t),
        |r, t| draw_f(r, history, t),
    )
}

fn draw_f<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    history: &[GenStats],
    text: bool,
) -> io::Result<()> {
    let pts: Vec<(f64, f64)> = history
        .iter()
        .filter_map(|h| h.f.map(|f| (h.generation as f64, f)))
        .collect();
    root.fill(&WHITE).map_err(io_err)?;
    let last = pts.last().map_or(1.0, |p| p.0.max(1.0));
    let hi = pts.iter().map(|p| p.1).fold(0.0, f64::max).max(0.1) * 1.1;
    let mut builder = ChartBuilder::on(&root);
    builder.margin(15);
    if text {
        builder
            .caption("DE scale factor F", ("sans-serif", 20))
            .x_label_area_size(40)
            .y_label_area_size(60);
    }
    let mut chart = builder
        .build_cartesian_2d(0f64..last, 0f64..hi)
        .map_err(io_err)?;
    mesh(&mut chart, text, "generation", "F")?;
    chart
        .draw_series(LineSeries::new(pts, &BLUE))
        .map_err(io_err)?;
    root.present().map_err(io_err)
}

/// One test-set problem: leaves under the reference, the starting weights
/// and the tuned weights.
#[derive(Clone, Debug)]
pub struct TestRow {
    pub name: String,
    pub bin: Option<u32>,
    pub reference: u64,
    pub start: u64,
    pub tuned: u64,
    /// Wrong or unsolved with the untrained, starting and tuned weights.
    pub wrong: [bool; 3],
}

fn pct(new: u64, old: u64) -> String {
    if old == 0 {
        return "-".into();
    }
    format!("{:+.1}%", (new as f64 / old as f64 - 1.0) * 100.0)
}

/// Test-set leaves by difficulty bin, as a Markdown table.
pub fn difficulty_table(rows: &[TestRow]) -> String {
    let mut bins: Vec<Option<u32>> = rows.iter().map(|r| r.bin).collect();
    bins.sort();
    bins.dedup();
    let mut out = String::from(
        "| level | problems | untrained (all-zero) | starting weights | tuned | tuned vs untrained | tuned vs starting | wrong or unsolved (untrained/starting/tuned) |\n|---|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let mut line = |label: String, rs: &[&TestRow]| {
        let r: u64 = rs.iter().map(|x| x.reference).sum();
        let s: u64 = rs.iter().map(|x| x.start).sum();
        let t: u64 = rs.iter().map(|x| x.tuned).sum();
        let w = |k: usize| rs.iter().filter(|x| x.wrong[k]).count();
        let _ = writeln!(
            out,
            "| {label} | {} | {r} | {s} | {t} | {} | {} | {}/{}/{} |",
            rs.len(),
            pct(t, r),
            pct(t, s),
            w(0),
            w(1),
            w(2)
        );
    };
    for b in &bins {
        let rs: Vec<&TestRow> = rows.iter().filter(|r| r.bin == *b).collect();
        line(b.map_or("-".into(), |b| format!("level {b}")), &rs);
    }
    let all: Vec<&TestRow> = rows.iter().collect();
    line("**all**".into(), &all);
    out
}

/// Per-problem rows as CSV.
pub fn test_csv(rows: &[TestRow]) -> String {
    let mut out =
        String::from("problem,bin,untrained,start,tuned,wrong_untrained,wrong_start,wrong_tuned\n");
    for r in rows {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{}",
            r.name,
            r.bin.map_or(String::new(), |b| b.to_string()),
            r.reference,
            r.start,
            r.tuned,
            r.wrong[0] as u8,
            r.wrong[1] as u8,
            r.wrong[2] as u8
        );
    }
    out
}

/// Difficulty bands of the profile: levels 1-5, 6-10 and 11 up (GoTools
/// has 14), and problems without a level.
const BANDS: [(&str, u32, u32); 3] = [
    ("levels 1-5", 1, 5),
    ("levels 6-10", 6, 10),
    ("levels 11+", 11, u32::MAX),
];

/// The profile: histograms of log2(tuned / untrained leaves) per test
/// problem, one for every difficulty band with problems and one for all,
/// as `<stem>.svg` and `<stem>.png`.
pub fn plot_profile(stem: &Path, rows: &[TestRow]) -> io::Result<()> {
    let mut panels: Vec<(String, Vec<&TestRow>)> = Vec::new();
    for (name, lo, hi) in BANDS {
        let rs: Vec<&TestRow> = rows
            .iter()
            .filter(|r| r.bin.is_some_and(|b| (lo..=hi).contains(&b)))
            .collect();
        if !rs.is_empty() {
            panels.push((name.to_string(), rs));
        }
    }
    panels.push(("all".to_string(), rows.iter().collect()));
    let height = 300 * panels.len() as u32;
    both(
        stem,
        (800, height),
        |r, t| draw_profile(r, &panels, t),
        |r, t| draw_profile(r, &panels, t),
    )
}

/// Histogram bins of log2 ratios, from `LO` to `HI` in steps of `STEP`.
const LO: f64 = -6.0;
const HI: f64 = 6.0;
const STEP: f64 = 0.5;

fn histogram(rows: &[&TestRow]) -> Vec<u32> {
    let nb = ((HI - LO) / STEP) as usize;
    let mut counts = vec![0u32; nb];
    for r in rows {
        let x = (r.tuned.max(1) as f64 / r.reference.max(1) as f64).log2();
        let i = (((x - LO) / STEP).floor() as isize).clamp(0, nb as isize - 1) as usize;
        counts[i] += 1;
    }
    counts
}

fn draw_profile<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    panels: &[(String, Vec<&TestRow>)],
    text: bool,
) -> io::Result<()> {
    root.fill(&WHITE).map_err(io_err)?;
    for (area, (name, rows)) in root.split_evenly((panels.len(), 1)).iter().zip(panels) {
        let counts = histogram(rows);
        let top = counts.iter().copied().max().unwrap_or(1).max(1);
        let mut builder = ChartBuilder::on(area);
        builder.margin(12);
        if text {
            let faster = rows.iter().filter(|r| r.tuned < r.reference).count();
            let slower = rows.iter().filter(|r| r.tuned > r.reference).count();
            builder
                .caption(
                    format!(
                        "{name}: log2(leaves tuned / untrained), {} problems ({faster} fewer, {slower} more)",
                        rows.len()
                    ),
                    ("sans-serif", 16),
                )
                .x_label_area_size(35)
                .y_label_area_size(50);
        }
        let mut chart = builder
            .build_cartesian_2d(LO..HI, 0u32..top + top / 10 + 1)
            .map_err(io_err)?;
        mesh(
            &mut chart,
            text,
            "log2 ratio (negative: fewer leaves)",
            "problems",
        )?;
        chart
            .draw_series(counts.iter().enumerate().map(|(i, &c)| {
                let x0 = LO + i as f64 * STEP;
                let color = if x0 < 0.0 { BLUE } else { RED };
                Rectangle::new([(x0, 0), (x0 + STEP, c)], color.mix(0.6).filled())
            }))
            .map_err(io_err)?;
    }
    root.present().map_err(io_err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_sum_by_bin() {
        let rows = vec![
            TestRow {
                name: "a".into(),
                bin: Some(3),
                reference: 100,
                start: 80,
                tuned: 50,
                wrong: [false; 3],
            },
            TestRow {
                name: "b".into(),
                bin: Some(3),
                reference: 100,
                start: 120,
                tuned: 100,
                wrong: [true, false, false],
            },
            TestRow {
                name: "c".into(),
                bin: Some(5),
                reference: 10,
                start: 10,
                tuned: 20,
                wrong: [false, true, true],
            },
        ];
        let t = difficulty_table(&rows);
        assert!(
            t.contains("| level 3 | 2 | 200 | 200 | 150 | -25.0% | -25.0% | 1/0/0 |"),
            "{t}"
        );
        assert!(
            t.contains("| **all** | 3 | 210 | 210 | 170 | -19.0% | -19.0% | 1/1/1 |"),
            "{t}"
        );
        let dir = std::env::temp_dir().join(format!("tengen-report-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        plot_profile(&dir.join("p"), &rows).unwrap();
        let svg = std::fs::read_to_string(dir.join("p.svg")).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("<rect"));
        let png = std::fs::read(dir.join("p.png")).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "a PNG file");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Without a font (no text) the charts are still drawn, and hold no
    /// text that would need one.
    #[test]
    fn charts_without_a_font_draw_no_text() {
        let rows = [TestRow {
            name: "a".into(),
            bin: Some(2),
            reference: 100,
            start: 80,
            tuned: 50,
            wrong: [false; 3],
        }];
        let dir = std::env::temp_dir().join(format!("tengen-nofont-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("p.svg");
        let panels = vec![("all".to_string(), rows.iter().collect::<Vec<_>>())];
        draw_profile(
            SVGBackend::new(&path, (400, 300)).into_drawing_area(),
            &panels,
            false,
        )
        .unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        assert!(svg.contains("<rect") && !svg.contains("<text"), "{svg}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
