//! One file per subcommand; each has its clap arguments and a `run`.

pub mod bench;
pub mod book;
pub mod crosscheck;
pub mod gtp;
pub mod matches;
pub mod solve;
pub mod table;
pub mod tsumego;
pub mod tune;
#[cfg(feature = "mpi")]
pub mod tune_mpi;
pub mod weights;

use std::io::{self, IsTerminal};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use anyhow::Result;

use crate::cli::Cli;

fn threads(cli: &Cli) -> usize {
    cli.engine.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n as usize,
    )
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

/// Runs `job(i)` for i in 0..n on `threads` threads with deep stacks and
/// hands the results to `done` in index order, as they become available.
pub fn parallel<T: Send>(
    n: usize,
    threads: usize,
    job: impl Fn(usize) -> T + Sync,
    mut done: impl FnMut(usize, T),
    stop: &AtomicBool,
) {
    let next = AtomicUsize::new(0);
    let running = AtomicUsize::new(0);
    let slots: Mutex<Vec<Option<T>>> = Mutex::new((0..n).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..threads.max(1).min(n.max(1)) {
            std::thread::Builder::new()
                .stack_size(256 << 20)
                .spawn_scoped(s, || {
                    loop {
                        running.fetch_add(1, Ordering::SeqCst);
                        let i = next.fetch_add(1, Ordering::SeqCst);
                        if i >= n || stop.load(Ordering::SeqCst) {
                            running.fetch_sub(1, Ordering::SeqCst);
                            break;
                        }
                        let r = job(i);
                        slots.lock().expect("no poisoned lock")[i] = Some(r);
                        running.fetch_sub(1, Ordering::SeqCst);
                    }
                })
                .expect("cannot start a solver thread");
        }
        let mut emitted = 0;
        while emitted < n {
            let ready = slots.lock().expect("no poisoned lock")[emitted].take();
            match ready {
                Some(r) => {
                    done(emitted, r);
                    emitted += 1;
                }
                None => {
                    if stop.load(Ordering::SeqCst) && running.load(Ordering::SeqCst) == 0 {
                        // Stopped: deliver what finished in order, drop the rest.
                        let mut slots = slots.lock().expect("no poisoned lock");
                        if slots[emitted].is_none() {
                            break;
                        }
                        let r = slots[emitted].take().expect("checked");
                        drop(slots);
                        done(emitted, r);
                        emitted += 1;
                        continue;
                    }
                    std::thread::sleep(Duration::from_millis(2));
                }
            }
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
