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
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

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

/// Ctrl-C (or SIGTERM, SIGHUP) sets the returned flag: a long job stops
/// after its unit of work and saves what it has. A second one flushes any
/// open table and leaves at once (exit 130).
pub fn stop_on_ctrl_c() -> &'static AtomicBool {
    static STOP: AtomicBool = AtomicBool::new(false);
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            tengen::table::flush_all();
            std::process::exit(130);
        }
    });
    &STOP
}

/// The progress of a job bounded by a count of units or by a time: a bar
/// on a terminal that counts whichever bounds the job.
pub struct BudgetBar {
    bar: Option<indicatif::ProgressBar>,
    by_count: bool,
}

impl BudgetBar {
    /// `count` wins when both are given; `unit` names what it counts.
    pub fn new(count: Option<u64>, time: Option<Duration>, unit: &str, quiet: bool) -> BudgetBar {
        let (len, unit) = match (count, time) {
            (Some(n), _) => (n, unit),
            (None, Some(t)) => (t.as_secs().max(1), "s"),
            (None, None) => (0, unit),
        };
        BudgetBar {
            bar: bar(len, quiet, unit),
            by_count: count.is_some(),
        }
    }

    /// Moves the bar to `count` units or `elapsed` and shows `what`;
    /// false when there is no bar (the caller prints a log line instead).
    pub fn show(&self, count: u64, elapsed: Duration, what: String) -> bool {
        let Some(b) = &self.bar else {
            return false;
        };
        b.set_position(if self.by_count {
            count
        } else {
            elapsed.as_secs()
        });
        b.set_message(what);
        true
    }

    pub fn finish(self) {
        if let Some(b) = self.bar {
            b.finish_and_clear();
        }
    }
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
