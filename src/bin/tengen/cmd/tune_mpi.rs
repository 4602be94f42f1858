//! `tengen tune` under `mpirun` (`--features mpi`): rank 0 runs the master
//! loop, the other ranks evaluate. With one rank the tuner runs locally.

use std::process::ExitCode;

use anyhow::Result;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use tengen::tune::config::Setup;
use tengen::tune::mpi::{MpiWorkers, serve};
use tengen::tune::run;

use crate::cmd::stop_on_ctrl_c;
use crate::cmd::tune::{Progress, TuneArgs, report};
use crate::options::EngineArgs;

/// `Some(exit code)` if this process ran as part of a multi-rank job;
/// `None` to run locally.
pub fn run(engine: &EngineArgs, a: &TuneArgs) -> Result<Option<ExitCode>> {
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
    let s = a
        .config(engine)
        .and_then(|c| Ok(Setup::new(c)?))
        .unwrap_or_else(|e| fail(&world, e));
    if world.rank() == 0 {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let progress = Progress::new(engine.quiet);
        let state =
            run::start_state(&s, threads, &progress).unwrap_or_else(|e| fail(&world, e.into()));
        let mut workers = MpiWorkers::new(SimpleCommunicator::world());
        workers.send_setup(&state.reference, &state.reference_wrong);
        let stop = stop_on_ctrl_c();
        let outcome = run::drive(&s, &mut workers, state, stop, &progress)
            .unwrap_or_else(|e| fail(&world, e.into()));
        workers.shutdown();
        Ok(Some(report(outcome)))
    } else {
        // Ctrl-C reaches every rank; the master decides when to stop.
        let _ = ctrlc::set_handler(|| {});
        let program = std::env::current_exe().unwrap_or_else(|e| fail(&world, e.into()));
        serve(&world, |reference, reference_wrong| {
            s.evaluator(reference, reference_wrong, &program)
                .unwrap_or_else(|e| fail(&world, e.into()))
        });
        Ok(Some(ExitCode::SUCCESS))
    }
}
