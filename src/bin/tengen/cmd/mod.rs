//! One file per subcommand; each has its clap arguments and a `run`.

pub mod bench;
pub mod book;
pub mod crosscheck;
pub mod gtp;
pub mod matches;
pub mod patterns;
pub mod results;
pub mod solve;
pub mod table;
pub mod tsumego;
pub mod tune;
#[cfg(feature = "mpi")]
pub mod tune_mpi;
pub mod weights;

use std::io::{self, IsTerminal};
use std::path::Path;
use std::sync::atomic::AtomicBool;

use anyhow::Result;

use crate::options::EngineArgs;

/// The search threads of the engine options: `--threads`, else the
/// number of cores.
fn threads(engine: &EngineArgs) -> usize {
    engine.threads()
}

/// A progress bar with ETA on a terminal; `None` when quiet or when stderr
/// is not a terminal (callers then print log lines).
pub fn bar(len: u64, quiet: bool, unit: &str) -> Option<indicatif::ProgressBar> {
    if quiet || !io::stderr().is_terminal() {
        return None;
    }
    let b = indicatif::ProgressBar::new(len);
    b.set_style(
        indicatif::ProgressStyle::with_template(&format!(
            "{{bar:40}} {{pos}}/{{len}} {unit} [{{elapsed_precise}}, ETA {{eta_precise}}] {{msg}}"
        ))
        .expect("a valid template"),
    );
    Some(b)
}

/// Runs `job(i)` for i in 0..n on `threads` threads with deep stacks (the
/// library's one pool) and hands the results to `done` in index order, as
/// they become available. Once `stop` is set, the results that finished
/// are still handed over in order up to the first gap.
pub fn parallel<T: Send>(
    n: usize,
    threads: usize,
    job: impl Fn(usize) -> T + Sync,
    done: impl FnMut(usize, T),
    stop: &AtomicBool,
) {
    parallel_staged(n, threads, job, |_, r| r, done, stop);
}

/// [`parallel`] with a first stage: `first(i, result)` runs as soon as job
/// i finishes (in completion order: for work that must not wait, such as
/// recording it), and what it returns goes to `done` in index order.
pub fn parallel_staged<T: Send, U>(
    n: usize,
    threads: usize,
    job: impl Fn(usize) -> T + Sync,
    mut first: impl FnMut(usize, T) -> U,
    mut done: impl FnMut(usize, U),
    stop: &AtomicBool,
) {
    let mut slots: Vec<Option<U>> = (0..n).map(|_| None).collect();
    let mut emitted = 0;
    tengen::pool::for_each(n, threads, stop, job, |i, r| {
        slots[i] = Some(first(i, r));
        while let Some(r) = slots.get_mut(emitted).and_then(Option::take) {
            done(emitted, r);
            emitted += 1;
        }
    });
}

/// Opens the table at `path` for inspection (read-only, never created).
pub fn open_for_reading(path: &Path) -> Result<std::sync::Arc<tengen::table::Table>> {
    use tengen::table::{OpenMode, Table};
    anyhow::ensure!(
        path.exists(),
        "no table at {} (the engine creates it on first use; `book build` and `book import` create one too)",
        path.display()
    );
    Ok(Table::open(
        path,
        OpenMode {
            create: None,
            read_only_if_busy: true,
            read_only: true,
        },
    )?)
}
