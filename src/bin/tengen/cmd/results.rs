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
    /// Thinking time instead of the score: per side the mean and longest
    /// move and game and the games lost on time, from the move times
    /// `match` writes into each game's SGF; with --plot, STEM.tsv holds
    /// the seconds per move number and STEM.svg/.png draw them (one
    /// directory only).
    #[arg(long)]
    pub times: bool,
    /// With --times: one game (its number, as in game-NNNN.sgf) instead
    /// of the mean over the games.
    #[arg(long, value_name = "N", requires = "times", value_parser = clap::value_parser!(u64).range(1..))]
    pub game: Option<u64>,
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
    if args.times {
        return times(args);
    }
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
        say_wrote(&tsv, stem);
    }
    Ok(ExitCode::SUCCESS)
}

/// `results --times`: thinking time per move of one match.
fn times(args: &ResultsArgs) -> Result<ExitCode> {
    use tengen::matchplay::times;
    let [arg] = &args.dirs[..] else {
        bail!("--times reads one match directory, not {}", args.dirs.len());
    };
    let (dir, x) = split(arg)?;
    if x.is_some() || args.per.is_some() {
        bail!("--times takes a directory without '=X' and without --per");
    }
    let mut games = read_results(dir)?;
    if let Some(n) = args.game {
        let n = n as usize;
        games.retain(|g| g.index + 1 == n);
        if games.is_empty() {
            bail!(
                "'{}' holds no finished game {n} (see its results.tsv)",
                dir.display()
            );
        }
    }
    if games.is_empty() {
        bail!("'{}' holds no finished game yet", dir.display());
    }
    let t = times::read(dir, &games)?;
    print!("{}", times::summary_table(&t, &games));
    // Mean curves leave out the moves that fewer than a tenth of the
    // games reached: a few long games would make them jump.
    let min_games = if args.game.is_some() {
        1
    } else {
        t.len().div_ceil(10)
    };
    let engine = times::curve(&t, true, min_games);
    let opponent = times::curve(&t, false, min_games);
    if let Some(stem) = &args.plot {
        let tsv = stem.with_extension("tsv");
        std::fs::write(&tsv, times::curve_table(&engine, &opponent))
            .with_context(|| format!("cannot write '{}'", tsv.display()))?;
        let title = if args.title == "tengen match results" {
            match args.game {
                Some(n) => format!("seconds per move, game {n}"),
                None => format!("mean seconds per move over {} games", t.len()),
            }
        } else {
            args.title.clone()
        };
        times::plot(stem, &engine, &opponent, ["engine", "opponent"], &title)
            .with_context(|| format!("cannot write the chart '{}'", stem.display()))?;
        say_wrote(&tsv, stem);
    }
    Ok(ExitCode::SUCCESS)
}

/// Tells which files a report wrote: the table and the chart's two.
fn say_wrote(tsv: &Path, stem: &Path) {
    eprintln!(
        "results: wrote {}, {} and {}",
        tsv.display(),
        stem.with_extension("svg").display(),
        stem.with_extension("png").display()
    );
}
