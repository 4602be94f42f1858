//! Rules agree with GNU Go 3.8 on random games (legal points of both
//! colours and stones of both colours after every move). GNU Go is not a
//! build dependency: `.ci/run` installs it. Without it (seen when the crate
//! is built) `cargo test` lists this test as ignored; under CI (`CI` set)
//! it runs and fails, so CI cannot silently skip it. The full-size run is `tengen crosscheck`.

use std::path::Path;

mod common;

#[test]
#[cfg_attr(
    not(tengen_has_gnugo),
    ignore = "needs GNU Go: apt-get install gnugo, then touch build.rs (CI installs it)"
)]
fn rules_agree_with_gnugo_on_random_games() {
    let gnugo = Path::new("/usr/games/gnugo");
    if !common::tool_present(gnugo.exists(), "/usr/games/gnugo", "apt-get install gnugo") {
        return;
    }
    for (size, games) in [(9, 40), (13, 4), (19, 2)] {
        let report = tengen::crosscheck::run(gnugo, size, games, 99, |_| {}).unwrap();
        assert_eq!(
            report.disagreements(),
            0,
            "{size}x{size} disagreements:\n{}",
            report.log.join("\n")
        );
        assert_eq!(report.games, games);
        assert!(report.moves > games * size * size / 2);
    }
}
