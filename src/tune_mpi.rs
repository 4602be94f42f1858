//! `tengen tune` under `mpirun` (`--features mpi`): rank 0 runs the master
//! loop, the other ranks evaluate. With one rank the tuner runs locally.

use std::process::ExitCode;

use anyhow::Result;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use tengen::tune::mpi::{MpiWorkers, serve};

use crate::cli::{Cli, TuneArgs};
use crate::tune_cmd::{drive, evaluator, setup, start_state};

/// `Some(exit code)` if this process ran as part of a multi-rank job;
/// `None` to run locally.
pub fn run(cli: &Cli, a: &TuneArgs) -> Result<Option<ExitCode>> {
    let Some(universe) = mpi::initialize() else {
        return Ok(None);
    };
    let world = universe.world();
    if world.size() <= 1 {
        return Ok(None);
    }
    // A panic on any rank aborts the whole job instead of hanging it.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        default_hook(info);
        SimpleCommunicator::world().abort(101);
    }));
    let fail = |world: &SimpleCommunicator, e: anyhow::Error| -> ! {
        eprintln!("tengen: error (rank {}): {e:#}", world.rank());
        world.abort(2);
    };
    let s = setup(cli, a).unwrap_or_else(|e| fail(&world, e));
    if world.rank() == 0 {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let state = start_state(cli, a, &s, threads).unwrap_or_else(|e| fail(&world, e));
        let mut workers = MpiWorkers::new(SimpleCommunicator::world());
        workers.send_setup(&state.reference);
        let code = drive(cli, a, &s, &mut workers, state).unwrap_or_else(|e| fail(&world, e));
        workers.shutdown();
        Ok(Some(code))
    } else {
        // Ctrl-C reaches every rank; the master decides when to stop.
        let _ = ctrlc::set_handler(|| {});
        serve(&world, |reference| {
            evaluator(a, &s, reference).unwrap_or_else(|e| fail(&world, e))
        });
        Ok(Some(ExitCode::SUCCESS))
    }
}
