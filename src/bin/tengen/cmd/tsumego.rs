//! `tengen tsumego generate`: labelled problem sets made by the solver;
//! `tengen tsumego eyes build|verify`: the eye table of the static
//! evaluation.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::Instant;

use anyhow::{Context, Result, bail};

use clap::{Args, Subcommand};
use tengen::tsumego::OrderWeights;
use tengen::tsumego::generate;

use crate::cmd::{bar, parallel, stop_on_ctrl_c, threads};
use crate::options::EngineArgs;

#[derive(Args, Debug)]
pub struct TsumegoArgs {
    #[command(subcommand)]
    pub action: TsumegoAction,
}

#[derive(Subcommand, Debug)]
pub enum TsumegoAction {
    /// Make random closed corner and edge problems, solve them exactly and
    /// write them, labelled, to DIR/lv<difficulty> in GoTools text
    /// (difficulty = floor(log2(level-1 leaves, both sides moving first))).
    /// The global --threads sets the solver threads.
    Generate {
        /// Problems to keep.
        #[arg(long, default_value_t = 100)]
        count: usize,
        /// Region size in points, e.g. 8..20.
        #[arg(long, default_value = "8..20", value_name = "A..B")]
        size_range: String,
        /// Seed of the random positions.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Output directory (created); existing lv files are appended to.
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// Node limit per side; harder candidates are dropped.
        #[arg(long, default_value_t = 300_000, value_name = "N")]
        max_nodes: u64,
        /// Index of the first candidate (to extend a set without repeats).
        #[arg(long, default_value_t = 0)]
        first: u64,
    },
    /// The eye table of the static evaluation: every eye space of one
    /// defender chain up to N points, solved exactly by the local-game
    /// solver (docs/tsumego.md, "Static evaluation"). The solver computes
    /// the same values itself when it meets an eye space; the table is
    /// for inspection and checking.
    Eyes {
        #[command(subcommand)]
        action: EyesAction,
    },
}

#[derive(Subcommand, Debug)]
pub enum EyesAction {
    /// Write the table as text.
    Build {
        /// Largest eye space, in points (1 to 7; 7 takes about 10 s).
        #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u8).range(1..=tengen::tsumego::eyes::MAX_TABLE_POINTS as i64))]
        max_points: u8,
        /// Output file (`-`: standard output).
        #[arg(long, default_value = "-", value_name = "FILE")]
        out: PathBuf,
    },
    /// Check a table written by `build`: every entry solved again, the
    /// table complete for its size, and, with --search N, N entries set on
    /// a board and solved by the solver's own search (df-pn without the
    /// static evaluation).
    Verify {
        /// The table file.
        file: PathBuf,
        /// Entries to check against the search (spread over the table).
        #[arg(long, default_value_t = 500, value_name = "N")]
        search: usize,
    },
}

fn parse_range(s: &str) -> Result<(usize, usize)> {
    let (a, b) = s
        .split_once("..")
        .with_context(|| format!("--size-range '{s}': write it as A..B, e.g. 8..20"))?;
    let a: usize = a
        .trim()
        .parse()
        .with_context(|| format!("--size-range '{s}': '{a}' is not a number"))?;
    let b: usize = b
        .trim()
        .trim_start_matches('=')
        .parse()
        .with_context(|| format!("--size-range '{s}': '{b}' is not a number"))?;
    if !(3..=40).contains(&a) || b < a || b > 40 {
        bail!("--size-range '{s}': sizes must satisfy 3 <= A <= B <= 40");
    }
    Ok((a, b))
}

pub fn run(engine: &EngineArgs, args: &TsumegoArgs) -> Result<ExitCode> {
    match &args.action {
        TsumegoAction::Eyes { action } => eyes(engine, action),
        TsumegoAction::Generate {
            count,
            size_range,
            seed,
            out,
            max_nodes,
            first,
        } => {
            let (min, max) = parse_range(size_range)?;
            std::fs::create_dir_all(out).with_context(|| {
                format!("cannot create the output directory '{}'", out.display())
            })?;
            let weights = engine.load_weights()?;
            let w = OrderWeights::new(&weights);
            let stop = stop_on_ctrl_c();
            let progress = bar(*count as u64, engine.quiet, "problems");
            let start = Instant::now();
            let mut kept = 0usize;
            let mut tried = 0u64;
            let mut bins = std::collections::BTreeMap::<u32, usize>::new();
            let mut next = *first;
            let threads = threads(engine);
            // Batches of candidates, appended in index order: a stopped or
            // killed run keeps every batch it finished.
            while kept < *count && !stop.load(Ordering::Relaxed) {
                let batch = (threads * 8) as u64;
                let base = next;
                let mut got: Vec<generate::Generated> = Vec::new();
                parallel(
                    batch as usize,
                    threads,
                    |i| generate::label(*seed, base + i as u64, min, max, &w, *max_nodes),
                    |_, g| {
                        if let Some(g) = g {
                            got.push(g);
                        }
                    },
                    stop,
                );
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                tried += batch;
                next += batch;
                for g in got {
                    if kept >= *count {
                        break;
                    }
                    append(out, g.difficulty, &g.text)?;
                    *bins.entry(g.difficulty).or_default() += 1;
                    kept += 1;
                }
                match &progress {
                    Some(b) => {
                        b.set_position(kept as u64);
                        b.set_message(format!("{tried} candidates"));
                    }
                    None if !engine.quiet => eprintln!(
                        "generate: {kept}/{count} problems from {tried} candidates, {:.0} s",
                        start.elapsed().as_secs_f64()
                    ),
                    None => {}
                }
            }
            if let Some(b) = progress {
                b.finish_and_clear();
            }
            let bins: Vec<String> = bins.iter().map(|(d, n)| format!("lv{d}: {n}")).collect();
            let _ = writeln!(
                io::stdout().lock(),
                "generate: {kept} problems from {tried} candidates (candidates {first}..{next}; next run: --first {next}) in {:.1} s into {}{}; {}",
                start.elapsed().as_secs_f64(),
                out.display(),
                if stop.load(Ordering::Relaxed) {
                    " (stopped by Ctrl-C)"
                } else {
                    ""
                },
                bins.join(", ")
            );
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn append(dir: &Path, difficulty: u32, text: &str) -> Result<()> {
    let path = dir.join(format!("lv{difficulty}"));
    let fresh = !path.exists();
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .with_context(|| format!("cannot write '{}'", path.display()))?;
    if fresh {
        writeln!(
            f,
            "tengen generated problems, difficulty {difficulty} (floor log2 of level-1 leaves)"
        )?;
    }
    f.write_all(text.as_bytes())?;
    f.sync_data()
        .with_context(|| format!("cannot write '{}'", path.display()))?;
    Ok(())
}

fn eyes(engine: &EngineArgs, action: &EyesAction) -> Result<ExitCode> {
    use tengen::tsumego::eyes;
    match action {
        EyesAction::Build { max_points, out } => {
            let start = Instant::now();
            let keys = eyes::all_area_keys(*max_points as usize);
            let values: Vec<eyes::AreaValue> = keys.iter().map(|k| eyes::solve_area(k).0).collect();
            let text = eyes::table_text(*max_points as usize, &keys, &values);
            if out.as_os_str() == "-" {
                io::stdout().lock().write_all(text.as_bytes())?;
            } else {
                std::fs::write(out, &text)
                    .with_context(|| format!("cannot write '{}'", out.display()))?;
            }
            if !engine.quiet {
                eprintln!(
                    "eyes build: {} eye spaces of 1 to {max_points} points in {:.1} s",
                    keys.len(),
                    start.elapsed().as_secs_f64()
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        EyesAction::Verify { file, search } => {
            let text = std::fs::read_to_string(file)
                .with_context(|| format!("cannot read '{}'", file.display()))?;
            let table = eyes::parse_table(&text).with_context(|| format!("{}", file.display()))?;
            let weights = engine.load_weights()?;
            let w = OrderWeights::new(&weights);
            let start = Instant::now();
            let c = tengen::tsumego::with_stack(|| eyes::verify_table(&table, *search, &w));
            for line in &c.wrong {
                eprintln!("{line}");
            }
            let _ = writeln!(
                io::stdout().lock(),
                "eyes verify: {} entries of 1 to {} points; {} differ from a fresh solve, {} missing, {} not eye spaces of that size or repeated; {} games checked against the search, {} disagree ({:.1} s): {}",
                table.entries.len(),
                table.max_points,
                c.wrong.len(),
                c.missing,
                c.extra,
                c.searched,
                c.disagree,
                start.elapsed().as_secs_f64(),
                if c.ok() { "ok" } else { "FAILED" }
            );
            Ok(if c.ok() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
    }
}
