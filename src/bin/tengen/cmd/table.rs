//! `tengen table`: inspect, check, clear or benchmark the best-move table.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use clap::{Args, Subcommand};

use tengen::table::{self, OpenMode, Scope, Table};

use crate::cmd::open_for_reading;
use crate::options::EngineArgs;

#[derive(Args, Debug)]
pub struct TableArgs {
    #[command(subcommand)]
    pub action: TableAction,
}

#[derive(Subcommand, Debug)]
pub enum TableAction {
    /// Header, fill ratio and histograms of quality and depth (read-only).
    Info {
        /// The table file (default: the global --table, else the default
        /// table).
        #[arg(value_name = "FILE")]
        file: Option<PathBuf>,
    },
    /// Scan every entry and report bad ones. Exit status 2 if the header
    /// is bad, 1 if entries are misplaced or off the board; torn entries
    /// (an interrupted write) are reported but tolerated.
    Verify {
        /// The table file (default: the global --table, else the default
        /// table).
        #[arg(value_name = "FILE")]
        file: Option<PathBuf>,
        /// Clear the bad entries (needs write access).
        #[arg(long)]
        fix: bool,
    },
    /// Recreate the file empty: every entry is lost. With --pin, the new
    /// file holds only games of the global --size, --komi and rules.
    Clear {
        /// The table file (default: the global --table, else the default
        /// table).
        #[arg(value_name = "FILE")]
        file: Option<PathBuf>,
        #[arg(long)]
        pin: bool,
    },
    /// Probe+store throughput with random keys on a scratch table (or the
    /// --table given), on 1 thread and on --threads threads.
    Bench {
        /// Seconds per measurement.
        #[arg(long, default_value_t = 3.0)]
        seconds: f64,
    },
}

fn histogram(title: &str, counts: &[u64], label: impl Fn(usize) -> String) {
    let max = counts.iter().copied().max().unwrap_or(0).max(1);
    println!("{title}");
    for (i, &n) in counts.iter().enumerate().filter(|(_, n)| **n > 0) {
        let bar = "#".repeat(((n as f64 / max as f64) * 40.0).ceil() as usize);
        println!("  {:>14} {:>10} {bar}", label(i), n);
    }
}

/// The table a subcommand works on: FILE, else --table, else the
/// default; FILE and a different --table contradict each other.
fn table_file(engine: &EngineArgs, file: &Option<PathBuf>) -> Result<PathBuf> {
    match (file, &engine.table) {
        (Some(f), Some(t)) if !same_file(f, t) => anyhow::bail!(
            "two tables named: {} and --table {}; give one",
            f.display(),
            t.display()
        ),
        (Some(f), _) => Ok(f.clone()),
        (None, _) => Ok(engine.table_path()),
    }
}

fn same_file(a: &Path, b: &Path) -> bool {
    a == b
        || matches!(
            (a.canonicalize(), b.canonicalize()),
            (Ok(x), Ok(y)) if x == y
        )
}

pub fn run(engine: &EngineArgs, args: &TableArgs) -> Result<ExitCode> {
    match &args.action {
        TableAction::Info { file } => info(engine, file),
        TableAction::Verify { file, fix } => verify(engine, file, *fix),
        TableAction::Clear { file, pin } => clear(engine, file, *pin),
        TableAction::Bench { seconds } => bench(engine, *seconds),
    }
}

/// `table info`: header, fill ratio and histograms.
fn info(engine: &EngineArgs, file: &Option<PathBuf>) -> Result<ExitCode> {
    let t = open_for_reading(&table_file(engine, file)?)?;
    let h = t.header();
    let (writes, replacements) = t.lifetime_counts();
    let v = t.verify(false);
    println!("file          {}", t.path().display());
    println!(
        "format        version {}, {}-byte entries, buckets of {}",
        h.version,
        h.entry_bytes,
        table::BUCKET
    );
    println!(
        "size          {} entries, {} bytes",
        h.entries,
        table::file_bytes(h.entries)
    );
    println!("games         {}", h.scope.describe());
    println!("zobrist       {:016x} (matches this program)", h.zobrist);
    println!(
        "closed        {}",
        if t.was_dirty() {
            "not cleanly, or still open for writing"
        } else {
            "cleanly"
        }
    );
    println!("lifetime      {writes} writes, {replacements} replacements");
    println!(
        "used          {} ({:.3}%), {} torn (ignored)",
        v.used,
        100.0 * v.used as f64 / v.entries as f64,
        v.stale
    );
    histogram(
        "quality (2 x log2 of the best move's visits)",
        &v.quality,
        |q| format!("{q:>2} (~{:.0})", 2f64.powf(q as f64 / 2.0)),
    );
    histogram(
        "depth (log2 of the distance from the search root + 1)",
        &v.depth,
        |d| {
            let lo = (1u64 << d) - 1;
            let hi = (1u64 << (d + 1)) - 2;
            format!("{d:>2} ({lo}-{hi})")
        },
    );
    Ok(ExitCode::SUCCESS)
}

/// `table verify`: scans the entries (and clears bad ones with `fix`).
fn verify(engine: &EngineArgs, file: &Option<PathBuf>, fix: bool) -> Result<ExitCode> {
    let path = table_file(engine, file)?;
    let t = if fix {
        Table::open(
            &path,
            OpenMode {
                create: None,
                read_only_if_busy: false,
                read_only: false,
            },
        )?
    } else {
        open_for_reading(&path)?
    };
    let v = t.verify(fix);
    println!(
        "{}: header ok; {} entries: {} used, {} empty, {} torn, {} misplaced, {} off the board{}",
        t.path().display(),
        v.entries,
        v.used,
        v.empty,
        v.stale,
        v.misplaced,
        v.off_board,
        if fix {
            format!("; {} cleared", v.fixed)
        } else {
            String::new()
        }
    );
    let corrupt = v.misplaced + v.off_board;
    if corrupt > 0 && !fix {
        eprintln!(
            "tengen: {corrupt} corrupt entries; `tengen table verify --fix {}` clears them",
            path.display()
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// `table clear`: recreates the file empty.
fn clear(engine: &EngineArgs, file: &Option<PathBuf>, pin: bool) -> Result<ExitCode> {
    let path = table_file(engine, file)?;
    let mut entries = engine.table_entries;
    // Hold the lock of the old file (refusing if another process
    // uses it) while the new one replaces it.
    let old = if path.exists() {
        match Table::open(
            &path,
            OpenMode {
                create: None,
                read_only_if_busy: false,
                read_only: false,
            },
        ) {
            Ok(t) => {
                entries = entries.or(Some(t.entries()));
                Some(t)
            }
            Err(e @ table::TableError::Busy { .. }) => return Err(e.into()),
            // A damaged file is what `clear` is for.
            Err(_) => None,
        }
    } else {
        None
    };
    let scope = if pin {
        Scope::of(engine.size as usize, engine.komi, engine.rules())
    } else {
        Scope::default()
    };
    let n = entries.unwrap_or(table::DEFAULT_ENTRIES);
    Table::create(&path, n, scope, true)?;
    drop(old);
    println!(
        "{}: new empty table, {n} entries ({} bytes), {}",
        path.display(),
        table::file_bytes(n),
        scope.describe()
    );
    Ok(ExitCode::SUCCESS)
}

/// `table bench`: probe+store throughput on 1 and --threads threads.
fn bench(engine: &EngineArgs, seconds: f64) -> Result<ExitCode> {
    let threads = engine.threads.map_or(2, usize::from).max(1);
    let (path, scratch) = match &engine.table {
        Some(p) => (p.clone(), false),
        None => (
            std::env::temp_dir().join(format!("tengen-bench-{}.table", std::process::id())),
            true,
        ),
    };
    let t = Table::open(
        &path,
        OpenMode {
            create: Some((
                engine.table_entries.unwrap_or(table::DEFAULT_ENTRIES),
                Scope::default(),
            )),
            read_only_if_busy: false,
            read_only: false,
        },
    )?;
    println!(
        "random probe+store on {} ({} entries), {seconds} s per run",
        path.display(),
        t.entries()
    );
    let secs = std::time::Duration::from_secs_f64(seconds);
    let one = tengen::bench::table_ops(&t, 1, secs, engine.seed);
    println!("{:>8} {:>14} {:>10}", "threads", "ops/s", "scaling");
    println!("{:>8} {:>14.0} {:>10}", 1, one, "1.00");
    if threads > 1 {
        let many = tengen::bench::table_ops(&t, threads, secs, engine.seed + 1);
        println!("{:>8} {:>14.0} {:>10.2}", threads, many, many / one);
    }
    drop(t);
    if scratch {
        let _ = std::fs::remove_file(&path);
    }
    Ok(ExitCode::SUCCESS)
}
