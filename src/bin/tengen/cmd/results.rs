//! `tengen results`: finished matches as a report (table and chart).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};

use tengen::matchplay::read_results;
use tengen::matchplay::report::{self, Axis};

#[derive(Args, Debug)]
pub struct ResultsArgs {
    /// Match directories (`match --out`). With --per, each directory is a
    /// series of blocks of games. Without it, each directory is one point;
    /// DIR=X places it at x = X (for example a book's build hours), else
    /// directories are numbered 1, 2, ...
    #[arg(required = true, value_name = "DIR[=X]")]
    pub dirs: Vec<String>,
    /// Score per block of this many games, in the order they were played.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub per: Option<u64>,
    /// Also write the table to STEM.tsv and the chart to STEM.svg and
    /// STEM.png.
    #[arg(long, value_name = "STEM")]
    pub plot: Option<PathBuf>,
    /// What the chart's y axis shows.
    #[arg(long, value_enum, default_value = "score")]
    pub y: YAxis,
    /// The x axis's label [default: "games played" with --per, else "x"].
    #[arg(long, value_name = "TEXT")]
    pub x_label: Option<String>,
    /// The series name of one-point-per-directory reports.
    #[arg(long, default_value = "matches")]
    pub series: String,
    /// The chart's title.
    #[arg(long, default_value = "tengen match results")]
    pub title: String,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum YAxis {
    /// Score in per cent (draws count half), with its 95% interval.
    Score,
    /// Elo difference, with its 95% interval.
    Elo,
}

/// A directory argument: the directory and its x value, if given.
fn split(arg: &str) -> Result<(&Path, Option<f64>)> {
    match arg.rsplit_once('=') {
        Some((dir, x)) => {
            let x: f64 = x
                .trim()
                .parse()
                .ok()
                .filter(|x: &f64| x.is_finite())
                .with_context(|| {
                    format!("'{arg}': the value after '=' must be a number, e.g. {dir}=2")
                })?;
            Ok((Path::new(dir), Some(x)))
        }
        None => Ok((Path::new(arg), None)),
    }
}

pub fn run(args: &ResultsArgs) -> Result<ExitCode> {
    let mut points = Vec::new();
    for (i, arg) in args.dirs.iter().enumerate() {
        let (dir, x) = split(arg)?;
        let games = read_results(dir)?;
        if games.is_empty() {
            bail!("'{}' holds no finished game yet", dir.display());
        }
        match args.per {
            Some(per) => {
                if x.is_some() {
                    bail!("'{arg}': --per makes each directory a series; give it without '=X'");
                }
                let name = dir
                    .file_name()
                    .map_or_else(|| dir.display().to_string(), |n| n.to_string_lossy().into());
                points.extend(report::blocks(&name, &games, per as usize));
            }
            None => points.push(report::whole(
                &args.series,
                &games,
                x.unwrap_or((i + 1) as f64),
            )),
        }
    }
    let x_label = args.x_label.clone().unwrap_or_else(|| {
        if args.per.is_some() {
            "games played"
        } else {
            "x"
        }
        .to_string()
    });
    let table = report::table(&points, &x_label);
    print!("{table}");
    if let Some(stem) = &args.plot {
        let tsv = stem.with_extension("tsv");
        std::fs::write(&tsv, &table)
            .with_context(|| format!("cannot write '{}'", tsv.display()))?;
        let axis = match args.y {
            YAxis::Score => Axis::Score,
            YAxis::Elo => Axis::Elo,
        };
        report::plot(stem, &points, &x_label, axis, &args.title)
            .with_context(|| format!("cannot write the chart '{}'", stem.display()))?;
        eprintln!(
            "results: wrote {}, {} and {}",
            tsv.display(),
            stem.with_extension("svg").display(),
            stem.with_extension("png").display()
        );
    }
    Ok(ExitCode::SUCCESS)
}
