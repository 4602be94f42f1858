//! The tuning report: the learning curve as CSV and SVG (plotters), DE's
//! scale factor, and for solver weights the test-set leaves by difficulty
//! and the profile (histogram of per-problem leaf ratios new/old).
//!
//! Charts are SVG: it needs no fonts on the machine, which a PNG backend
//! would.

use std::fmt::Write as _;
use std::io;
use std::path::Path;

use plotters::prelude::*;

use super::GenStats;

fn io_err(e: impl std::fmt::Display) -> io::Error {
    io::Error::other(e.to_string())
}

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

fn bounds(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    let pad = ((hi - lo) * 0.05).max(1e-9 + lo.abs() * 1e-6);
    (lo - pad, hi + pad)
}

/// Best and mean fitness per generation, as an SVG line chart.
pub fn plot_curve(path: &Path, history: &[GenStats], title: &str) -> io::Result<()> {
    let root = SVGBackend::new(path, (800, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(io_err)?;
    let last = history.last().map_or(1, |h| h.generation.max(1)) as f64;
    let (lo, hi) = bounds(history.iter().flat_map(|h| [h.best, h.mean]));
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(80)
        .build_cartesian_2d(0f64..last, lo..hi)
        .map_err(io_err)?;
    chart
        .configure_mesh()
        .x_desc("generation")
        .y_desc("fitness")
        .draw()
        .map_err(io_err)?;
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
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(io_err)?;
    root.present().map_err(io_err)
}

/// DE's scale factor F per generation, as an SVG line chart.
pub fn plot_f(path: &Path, history: &[GenStats]) -> io::Result<()> {
    let pts: Vec<(f64, f64)> = history
        .iter()
        .filter_map(|h| h.f.map(|f| (h.generation as f64, f)))
        .collect();
    let root = SVGBackend::new(path, (800, 400)).into_drawing_area();
    root.fill(&WHITE).map_err(io_err)?;
    let last = pts.last().map_or(1.0, |p| p.0.max(1.0));
    let hi = pts.iter().map(|p| p.1).fold(0.0, f64::max).max(0.1) * 1.1;
    let mut chart = ChartBuilder::on(&root)
        .caption("DE scale factor F", ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(0f64..last, 0f64..hi)
        .map_err(io_err)?;
    chart
        .configure_mesh()
        .x_desc("generation")
        .y_desc("F")
        .draw()
        .map_err(io_err)?;
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
        "| bin | problems | untrained (all-zero) | starting weights | tuned | tuned vs untrained | tuned vs starting | wrong or unsolved (untrained/starting/tuned) |\n|---|---:|---:|---:|---:|---:|---:|---:|\n",
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
        line(b.map_or("-".into(), |b| format!("lv{b}")), &rs);
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

/// The profile: a histogram of log2(tuned / untrained) per problem.
pub fn plot_profile(path: &Path, rows: &[TestRow]) -> io::Result<()> {
    const LO: f64 = -6.0;
    const HI: f64 = 6.0;
    const STEP: f64 = 0.5;
    let nb = ((HI - LO) / STEP) as usize;
    let mut counts = vec![0u32; nb];
    for r in rows {
        let x = (r.tuned.max(1) as f64 / r.reference.max(1) as f64).log2();
        let i = (((x - LO) / STEP).floor() as isize).clamp(0, nb as isize - 1) as usize;
        counts[i] += 1;
    }
    let top = counts.iter().copied().max().unwrap_or(1).max(1);
    let root = SVGBackend::new(path, (800, 450)).into_drawing_area();
    root.fill(&WHITE).map_err(io_err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "profile: log2(leaves tuned / leaves untrained) per test problem",
            ("sans-serif", 18),
        )
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(LO..HI, 0u32..top + top / 10 + 1)
        .map_err(io_err)?;
    chart
        .configure_mesh()
        .x_desc("log2 ratio (negative: fewer leaves)")
        .y_desc("problems")
        .draw()
        .map_err(io_err)?;
    chart
        .draw_series(counts.iter().enumerate().map(|(i, &c)| {
            let x0 = LO + i as f64 * STEP;
            let color = if x0 < 0.0 { BLUE } else { RED };
            Rectangle::new([(x0, 0), (x0 + STEP, c)], color.mix(0.6).filled())
        }))
        .map_err(io_err)?;
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
            t.contains("| lv3 | 2 | 200 | 200 | 150 | -25.0% | -25.0% | 1/0/0 |"),
            "{t}"
        );
        assert!(
            t.contains("| **all** | 3 | 210 | 210 | 170 | -19.0% | -19.0% | 1/1/1 |"),
            "{t}"
        );
        let dir = std::env::temp_dir().join(format!("tengen-report-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        plot_profile(&dir.join("p.svg"), &rows).unwrap();
        let svg = std::fs::read_to_string(dir.join("p.svg")).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("<rect"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
