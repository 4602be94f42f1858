use std::path::Path;
use std::sync::atomic::AtomicBool;

use super::*;
use crate::learned::features::{self, FeatureGroup};
use crate::rules::Move;
use crate::rules::{Coord, Game, Rules};
use rand::{RngExt, SeedableRng, rngs::SmallRng};

/// Writes `n` 9x9 games whose moves go next to the last move 70% of the
/// time when they can (else anywhere legal), as SGF files in a fresh
/// directory.
fn write_games(dir: &Path, n: usize) {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let mut rng = SmallRng::seed_from_u64(5);
    for i in 0..n {
        let mut g = Game::new(9, 7.0, Rules::default()).unwrap();
        let mut last: Option<Coord> = None;
        for _ in 0..50 {
            let color = g.to_move();
            let legal = g.non_eye_legal_points(color);
            if legal.is_empty() {
                break;
            }
            let near: Vec<Coord> = legal
                .iter()
                .copied()
                .filter(|c| last.is_some_and(|l| features::distance(*c, l) == 2))
                .collect();
            let c = if !near.is_empty() && rng.random_bool(0.7) {
                near[rng.random_range(0..near.len())]
            } else {
                legal[rng.random_range(0..legal.len())]
            };
            g.play(color, Move::Play(c)).unwrap();
            last = Some(c);
        }
        let sub = if i % 3 == 0 { "sub/" } else { "" };
        std::fs::write(dir.join(format!("{sub}g{i:03}.sgf")), crate::sgf::write(&g)).unwrap();
    }
    std::fs::write(dir.join("broken.sgf"), "(;GM[1]SZ[9];B[ee").unwrap();
    std::fs::write(dir.join("notes.txt"), "not a record").unwrap();
}

fn cfg(dir: &Path, seed: u64) -> LearnConfig {
    LearnConfig {
        records: vec![dir.to_path_buf()],
        seed,
        positions: 600,
        iterations: 4,
        min_count: 2,
        size: 9,
        holdout: 5,
    }
}

#[test]
fn learning_is_reproducible_and_finds_the_signal() {
    let dir = std::env::temp_dir().join(format!("tengen-learn-{}", std::process::id()));
    write_games(&dir, 30);
    let stop = AtomicBool::new(false);
    let (a, ra) = learn(&cfg(&dir, 3), &stop, |_| {}).unwrap();
    let (b, _) = learn(&cfg(&dir, 3), &stop, |_| {}).unwrap();
    let (c, _) = learn(&cfg(&dir, 4), &stop, |_| {}).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(a.to_text(), b.to_text(), "same records and seed, same file");
    assert_ne!(
        a.to_text(),
        c.to_text(),
        "another seed samples other positions"
    );
    assert_eq!(ra.files, 31, "30 games and the broken file, not the .txt");
    assert_eq!(ra.unreadable.len(), 1);
    assert_eq!((ra.train_games, ra.test_games), (24, 6));
    // The likelihood rises, and moves next to the last one are rated
    // above every other distance.
    assert!(
        ra.log_likelihood.windows(2).all(|w| w[1] >= w[0] - 1e-9),
        "{:?}",
        ra.log_likelihood
    );
    let last = |d: u64| a.get(features::key(FeatureGroup::Last, d)).unwrap();
    for d in 3..=MAX {
        assert!(
            last(2) > 2.0 * last(d),
            "last 2: {}, last {d}: {}",
            last(2),
            last(d)
        );
    }
    assert!(
        ra.test_ll > ra.uniform_ll,
        "{} vs uniform {}",
        ra.test_ll,
        ra.uniform_ll
    );
    // The playout patterns: most moves went next to the last one, and
    // the gammas predict that better than a uniform choice among the
    // neighbours and elsewhere.
    let p = ra.playout.as_ref().expect("playout patterns learned");
    assert!(
        p.local * 2 > p.positions,
        "{} of {} next to the last move",
        p.local,
        p.positions
    );
    assert!(
        p.test_ll > p.test_uniform_ll,
        "{} vs uniform {}",
        p.test_ll,
        p.test_uniform_ll
    );
    assert!(a.playout_table().is_some());
    // The written text reads back.
    let back = Model::parse(&a.to_text(), Path::new("a.pat")).unwrap();
    assert_eq!(back.to_text(), a.to_text());
}

const MAX: u64 = features::MAX_DISTANCE as u64;

#[test]
fn no_records_is_an_error_that_names_the_path() {
    let dir = std::env::temp_dir().join(format!("tengen-learn-empty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let stop = AtomicBool::new(false);
    let e = learn(&cfg(&dir, 1), &stop, |_| {}).unwrap_err().to_string();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        e.contains("no .sgf files") && e.contains("tengen-learn-empty"),
        "{e}"
    );
    let e = learn(&cfg(Path::new("/nonexistent/records"), 1), &stop, |_| {})
        .unwrap_err()
        .to_string();
    assert!(e.contains("/nonexistent/records"), "{e}");
}
