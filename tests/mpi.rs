//! An MPI tuning run with 3 ranks (master + 2 workers) ends with the same
//! weights as a local run with the same seed: `gtp-scripts/mpi-check.sh`
//! builds the binary with `--features mpi` (in `target/mpi`), makes a small
//! problem set and runs both. It needs OpenMPI and libclang, which `.ci/run`
//! installs; without `mpirun` (seen when the crate is built) `cargo test`
//! lists this test as ignored, and under CI (`CI` set) it runs and fails,
//! so CI cannot silently skip it.

use std::path::Path;
use std::process::Command;

mod common;

fn have(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
#[cfg_attr(
    not(tengen_has_mpirun),
    ignore = "needs mpirun: apt-get install openmpi-bin libopenmpi-dev libclang-dev, then touch build.rs (CI installs them)"
)]
fn three_mpi_ranks_end_with_the_weights_of_a_local_run() {
    if !common::tool_present(
        have("mpirun"),
        "mpirun",
        "apt-get install openmpi-bin libopenmpi-dev libclang-dev",
    ) {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("sh")
        .arg(root.join("gtp-scripts/mpi-check.sh"))
        .current_dir(root)
        .env("TARGET", root.join("target/mpi"))
        .output()
        .expect("sh runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stdout.contains("mpi-check: identical weights"),
        "mpi-check failed:\n{stdout}\n{stderr}"
    );
}
