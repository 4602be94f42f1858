//! Records the git revision for the provenance header of tuned weights,
//! and whether the outside tools of some tests are here: without GNU Go or
//! mpirun those tests are ignored (`cargo test` reports them as ignored,
//! not passed), except under CI (`CI` set), where `.ci/run` installs the
//! tools and a missing one must fail.

use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=.git/HEAD");
    println!("cargo:rerun-if-changed=.git/refs/heads");
    let rev = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=TENGEN_GIT_REV={rev}");

    println!("cargo:rerun-if-env-changed=CI");
    println!("cargo:rerun-if-env-changed=PATH");
    println!("cargo:rustc-check-cfg=cfg(tengen_has_gnugo)");
    println!("cargo:rustc-check-cfg=cfg(tengen_has_mpirun)");
    let ci = std::env::var_os("CI").is_some();
    if ci || std::path::Path::new("/usr/games/gnugo").exists() {
        println!("cargo:rustc-cfg=tengen_has_gnugo");
    }
    let on_path = |program: &str| {
        std::env::var_os("PATH")
            .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(program).is_file()))
    };
    if ci || on_path("mpirun") {
        println!("cargo:rustc-cfg=tengen_has_mpirun");
    }
}
