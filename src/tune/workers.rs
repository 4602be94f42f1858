//! Master/worker evaluation with dynamic dispatch: a free worker takes the
//! next job at once. The master loop does not know whether a worker is a
//! thread or an MPI rank (`--features mpi`, see `mpi.rs`).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use super::fitness::{Eval, Evaluator, Job};

/// Evaluates batches of jobs.
pub trait Workers {
    /// Workers evaluating at once.
    fn count(&self) -> usize;
    /// Evaluates `jobs` (index, job), handing each result to `done` as it
    /// arrives, in any order. Returns early, with jobs left undone, once
    /// `stop` is set (jobs already running finish first).
    fn run(&mut self, jobs: &[(usize, Job)], done: &mut dyn FnMut(usize, Eval), stop: &AtomicBool);
}

/// Worker threads in this process.
pub struct ThreadWorkers {
    evaluator: Arc<dyn Evaluator>,
    n: usize,
}

impl ThreadWorkers {
    pub fn new(evaluator: Arc<dyn Evaluator>, n: usize) -> ThreadWorkers {
        ThreadWorkers {
            evaluator,
            n: n.max(1),
        }
    }
}

impl Workers for ThreadWorkers {
    fn count(&self) -> usize {
        self.n
    }

    fn run(&mut self, jobs: &[(usize, Job)], done: &mut dyn FnMut(usize, Eval), stop: &AtomicBool) {
        let next = AtomicUsize::new(0);
        let (tx, rx) = mpsc::channel::<(usize, Eval)>();
        std::thread::scope(|s| {
            for _ in 0..self.n.min(jobs.len()) {
                let tx = tx.clone();
                let next = &next;
                let ev = &self.evaluator;
                std::thread::Builder::new()
                    .name("tune-worker".into())
                    .stack_size(256 << 20)
                    .spawn_scoped(s, move || {
                        loop {
                            if stop.load(Ordering::SeqCst) {
                                break;
                            }
                            let i = next.fetch_add(1, Ordering::SeqCst);
                            let Some((idx, job)) = jobs.get(i) else { break };
                            let e = ev.evaluate(job);
                            if tx.send((*idx, e)).is_err() {
                                break;
                            }
                        }
                    })
                    .expect("cannot start a tuning worker thread");
            }
            drop(tx);
            for (i, e) in rx {
                done(i, e);
            }
        });
    }
}
