//! `tengen patterns`: learn the move-pattern model from game records, or
//! check and describe a pattern file.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Args, Subcommand};

use tengen::learned::Model;
use tengen::learned::learn::{self, LearnConfig, Stage};

use super::bar;
use crate::options::EngineArgs;

#[derive(Args, Debug)]
pub struct PatternsArgs {
    #[command(subcommand)]
    pub action: PatternsAction,
}

#[derive(Subcommand, Debug)]
pub enum PatternsAction {
    /// Learn move-pattern strengths from SGF game records by
    /// minorization-maximization and write a pattern file (docs/patterns.md).
    /// The same records and --seed give the same file.
    Learn {
        /// SGF files or directories (searched recursively for *.sgf).
        #[arg(required = true, value_name = "RECORDS")]
        records: Vec<PathBuf>,
        /// The pattern file to write (written whole, then renamed into place).
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Training positions sampled for MM (memory and time grow with it).
        #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
        positions: u64,
        /// MM iterations (one pass over every feature group each).
        #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u64).range(1..=1000))]
        iterations: u64,
        /// Played moves a shape needs to enter the model.
        #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..))]
        min_count: u32,
        /// Board size of the records to learn from; others are skipped.
        #[arg(long = "records-size", default_value_t = 19, value_parser = clap::value_parser!(u8).range(5..=25))]
        records_size: u8,
        /// Every N-th game is held out to measure the model (0: none).
        #[arg(long, default_value_t = 10)]
        holdout: usize,
        /// Free text added to the file's provenance (where the records came
        /// from, their licence).
        #[arg(long, value_name = "TEXT")]
        note: Option<String>,
    },
    /// Check a pattern file (magic, feature set, checksum, every line) and
    /// print its provenance; without FILE, the built-in model.
    Info {
        #[arg(value_name = "FILE")]
        file: Option<PathBuf>,
    },
}

pub fn run(engine: &EngineArgs, args: &PatternsArgs) -> Result<ExitCode> {
    match &args.action {
        PatternsAction::Info { file } => info(file),
        PatternsAction::Learn {
            records,
            out,
            positions,
            iterations,
            min_count,
            records_size,
            holdout,
            note,
        } => {
            let cfg = LearnConfig {
                records: records.clone(),
                seed: engine.seed,
                positions: *positions as usize,
                iterations: *iterations as usize,
                min_count: *min_count,
                size: *records_size as usize,
                holdout: *holdout,
            };
            learn_model(&cfg, out, note.as_deref(), engine.quiet)
        }
    }
}

/// `patterns info`: the model's size and header.
fn info(file: &Option<PathBuf>) -> Result<ExitCode> {
    let m = match file {
        Some(f) => Model::read(f)?,
        None => tengen::learned::builtin().clone(),
    };
    println!(
        "{}: {} gammas, feature set {}",
        file.as_ref()
            .map_or("built-in model".to_string(), |f| f.display().to_string()),
        m.len(),
        tengen::learned::features::FEATURE_SET
    );
    for (k, v) in &m.header {
        println!("{k}: {v}");
    }
    Ok(ExitCode::SUCCESS)
}

/// `patterns learn`: learns the model (Ctrl-C stops after the current
/// iteration) and writes it to `out`.
fn learn_model(cfg: &LearnConfig, out: &Path, note: Option<&str>, quiet: bool) -> Result<ExitCode> {
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        anyhow::ensure!(
            dir.is_dir(),
            "the directory of --out '{}' does not exist",
            out.display()
        );
    }
    static STOP: AtomicBool = AtomicBool::new(false);
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::Relaxed) {
            std::process::exit(130);
        }
        eprintln!("tengen: stopping after this MM iteration; the model so far is written");
    });
    let start = Instant::now();
    let (mut model, report) = learn::learn(cfg, &STOP, progress(quiet, start))?;
    anyhow::ensure!(
        report.stopped_after != Some(0),
        "stopped before the first MM iteration ended; '{}' was not written",
        out.display()
    );
    if let Some(n) = note {
        model.header.push(("note".into(), n.replace('\n', " ")));
    }
    let text = model.to_text();
    let tmp = out.with_extension("tmp");
    std::fs::write(&tmp, &text).with_context(|| format!("cannot write '{}'", tmp.display()))?;
    std::fs::rename(&tmp, out)
        .with_context(|| format!("cannot rename '{}' to '{}'", tmp.display(), out.display()))?;
    for e in report.unreadable.iter().take(5) {
        eprintln!("tengen: skipped: {e}");
    }
    if report.unreadable.len() > 5 {
        eprintln!(
            "tengen: ... {} unreadable records in all",
            report.unreadable.len()
        );
    }
    println!(
        "wrote {}: {} gammas in {:.0} s",
        out.display(),
        model.len(),
        start.elapsed().as_secs_f64()
    );
    for (k, v) in &model.header {
        println!("{k}: {v}");
    }
    let playout_stopped = report
        .playout
        .as_ref()
        .is_some_and(|p| p.stopped_after.is_some());
    Ok(if report.stopped_after.is_some() || playout_stopped {
        ExitCode::from(130)
    } else {
        ExitCode::SUCCESS
    })
}

/// The learner's progress: a bar per stage on a terminal, else log lines
/// (every iteration, the end of a stage, and at most every 10 s).
fn progress(quiet: bool, start: Instant) -> impl FnMut(Stage) {
    let mut pb: Option<(&'static str, indicatif::ProgressBar)> = None;
    let mut last_log = Instant::now();
    move |s: Stage| {
        let (name, done, total, msg) = match s {
            Stage::Reading(d, t) => ("reading records", d, t, String::new()),
            Stage::Scanning(d, t) => ("scanning games", d, t, String::new()),
            Stage::Iteration(d, t, ll) => {
                ("MM iterations", d, t, format!("log-likelihood {ll:.4}"))
            }
            Stage::Measuring(d, t) => ("held-out games", d, t, String::new()),
            Stage::PlayoutIteration(d, t, ll) => (
                "playout MM iterations",
                d,
                t,
                format!("log-likelihood {ll:.4}"),
            ),
        };
        if let Some((n, b)) = &pb
            && *n != name
        {
            b.finish();
            pb = None;
        }
        if pb.is_none()
            && let Some(b) = bar(total as u64, quiet, name)
        {
            pb = Some((name, b));
        }
        match &pb {
            Some((_, b)) => {
                b.set_position(done as u64);
                b.set_message(msg);
            }
            None => {
                let iteration = matches!(s, Stage::Iteration(..) | Stage::PlayoutIteration(..));
                if !quiet
                    && (iteration || done == total || last_log.elapsed().as_secs_f64() >= 10.0)
                {
                    last_log = Instant::now();
                    eprintln!(
                        "tengen: {name} {done}/{total} {msg} [{:.0} s]",
                        start.elapsed().as_secs_f64()
                    );
                }
            }
        }
    }
}
