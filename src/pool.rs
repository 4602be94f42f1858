//! The one pool of deep-stack worker threads. The solver's df-pn recursion
//! and the tuner's evaluations go deep, so every thread that may solve runs
//! with [`STACK_BYTES`] of stack: the CLI's problem sets, the tuner's test
//! sets and workers, and a single solve from the engine.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// Stack of a solving thread: enough for the longest proofs met on
/// GoTools' sets (a few thousand plies of recursion).
pub const STACK_BYTES: usize = 256 << 20;

/// Runs `job(i)` for every `i` in `0..n` on `threads` deep-stack threads
/// and hands each result to `done` on the calling thread, in the order
/// the jobs finish. Once `stop` is set no new job starts; the running ones
/// finish and are handed over.
pub fn for_each<T: Send>(
    n: usize,
    threads: usize,
    stop: &AtomicBool,
    job: impl Fn(usize) -> T + Sync,
    mut done: impl FnMut(usize, T),
) {
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, T)>();
    std::thread::scope(|s| {
        for _ in 0..threads.max(1).min(n.max(1)) {
            let tx = tx.clone();
            let (next, job) = (&next, &job);
            std::thread::Builder::new()
                .name("tengen-solver".into())
                .stack_size(STACK_BYTES)
                .spawn_scoped(s, move || {
                    while !stop.load(Ordering::SeqCst) {
                        let i = next.fetch_add(1, Ordering::SeqCst);
                        if i >= n {
                            break;
                        }
                        if tx.send((i, job(i))).is_err() {
                            break;
                        }
                    }
                })
                .expect("cannot start a solver thread");
        }
        drop(tx);
        for (i, r) in rx {
            done(i, r);
        }
    });
}

/// Runs `f` on one deep-stack thread and returns its result (a panic in
/// `f` goes on in the caller).
pub fn with_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("tengen-solver".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(s, f)
            .expect("cannot start a solver thread")
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_job_runs_once_and_stop_ends_early() {
        let mut seen = vec![0; 100];
        for_each(
            100,
            3,
            &AtomicBool::new(false),
            |i| i * 2,
            |i, r| {
                assert_eq!(r, i * 2);
                seen[i] += 1;
            },
        );
        assert!(seen.iter().all(|&k| k == 1));
        let stop = AtomicBool::new(false);
        let mut got = 0;
        for_each(
            1000,
            2,
            &stop,
            |i| {
                if i == 10 {
                    stop.store(true, Ordering::SeqCst);
                }
                i
            },
            |_, _| got += 1,
        );
        assert!((11..1000).contains(&got), "{got}");
        // Deep recursion fits.
        fn depth(n: u64) -> u64 {
            let pad = [n; 64];
            if n == 0 {
                0
            } else {
                1 + depth(n - 1) + pad[63] - n
            }
        }
        assert_eq!(with_stack(|| depth(200_000)), 200_000);
    }
}
