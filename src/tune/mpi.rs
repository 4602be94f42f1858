//! MPI workers (`--features mpi`): rank 0 is the master and runs the same
//! loop as with threads; ranks 1.. evaluate jobs. Dispatch is dynamic: a
//! rank that returns a result gets the next job at once. Messages are JSON
//! (serde_json) byte vectors.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

use super::fitness::{Eval, Evaluator, Job};
use super::workers::Workers;

const TAG_JOB: i32 = 1;
const TAG_RESULT: i32 = 2;
const TAG_STOP: i32 = 3;
const TAG_SETUP: i32 = 4;
/// How long an idle rank sleeps between polls.
const IDLE: std::time::Duration = std::time::Duration::from_millis(2);

/// The master's view of the worker ranks.
pub struct MpiWorkers {
    world: SimpleCommunicator,
}

impl MpiWorkers {
    pub fn new(world: SimpleCommunicator) -> MpiWorkers {
        MpiWorkers { world }
    }

    /// Sends every worker the reference its fitness needs: the leaves, and
    /// for pruning fitness which problems level 1 gets wrong.
    pub fn send_setup(&self, reference: &[u64], reference_wrong: &[bool]) {
        let msg = serde_json::to_vec(&(reference, reference_wrong)).expect("serialises");
        for r in 1..self.world.size() {
            self.world
                .process_at_rank(r)
                .send_with_tag(&msg[..], TAG_SETUP);
        }
    }

    /// Tells every worker to exit.
    pub fn shutdown(&self) {
        let none: [u8; 0] = [];
        for r in 1..self.world.size() {
            self.world
                .process_at_rank(r)
                .send_with_tag(&none[..], TAG_STOP);
        }
    }

    fn send_job(&self, rank: i32, i: usize, job: &Job) {
        let msg = serde_json::to_vec(&(i, job)).expect("serialises");
        self.world
            .process_at_rank(rank)
            .send_with_tag(&msg[..], TAG_JOB);
    }
}

impl Workers for MpiWorkers {
    fn count(&self) -> usize {
        (self.world.size() - 1).max(1) as usize
    }

    fn run(&mut self, jobs: &[(usize, Job)], done: &mut dyn FnMut(usize, Eval), stop: &AtomicBool) {
        let mut next = 0;
        let mut busy = 0;
        for r in 1..self.world.size() {
            if next < jobs.len() && !stop.load(Ordering::SeqCst) {
                self.send_job(r, jobs[next].0, &jobs[next].1);
                next += 1;
                busy += 1;
            }
        }
        while busy > 0 {
            // Poll gently: a blocking receive spins a core that the worker
            // ranks on the same machine need.
            let from = loop {
                match self
                    .world
                    .any_process()
                    .immediate_probe_with_tag(TAG_RESULT)
                {
                    Some(st) => break st.source_rank(),
                    None => std::thread::sleep(IDLE),
                }
            };
            let (msg, status) = self
                .world
                .process_at_rank(from)
                .receive_vec_with_tag::<u8>(TAG_RESULT);
            busy -= 1;
            let (i, e): (usize, Eval) =
                serde_json::from_slice(&msg).expect("a worker sent a malformed result");
            done(i, e);
            if next < jobs.len() && !stop.load(Ordering::SeqCst) {
                self.send_job(status.source_rank(), jobs[next].0, &jobs[next].1);
                next += 1;
                busy += 1;
            }
        }
    }
}

/// A worker rank's loop: receive the setup, build the fitness, then
/// evaluate jobs until told to stop.
pub fn serve(
    world: &SimpleCommunicator,
    build: impl FnOnce(Vec<u64>, Vec<bool>) -> Arc<dyn Evaluator>,
) {
    let master = world.process_at_rank(0);
    let wait = || {
        while master.immediate_probe().is_none() {
            std::thread::sleep(IDLE);
        }
        master.receive_vec::<u8>()
    };
    let (msg, status) = wait();
    if status.tag() != TAG_SETUP {
        return;
    }
    let (reference, reference_wrong): (Vec<u64>, Vec<bool>) =
        serde_json::from_slice(&msg).expect("a malformed setup message");
    let ev = build(reference, reference_wrong);
    loop {
        let (msg, status) = wait();
        if status.tag() != TAG_JOB {
            break;
        }
        let (i, job): (usize, Job) = serde_json::from_slice(&msg).expect("a malformed job");
        let e = ev.evaluate(&job);
        let out = serde_json::to_vec(&(i, e)).expect("serialises");
        master.send_with_tag(&out[..], TAG_RESULT);
    }
}
