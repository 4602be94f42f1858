//! Master/worker evaluation with dynamic dispatch: a free worker takes the
//! next job at once. The master loop does not know whether a worker is a
//! thread or an MPI rank (`--features mpi`, see `mpi.rs`).

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

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
        let ev = &self.evaluator;
        crate::pool::for_each(
            jobs.len(),
            self.n,
            stop,
            |i| ev.evaluate(&jobs[i].1),
            |i, e| done(jobs[i].0, e),
        );
    }
}
