//! gtp-scripts/book-elo.sh, the script that measures the book: on a tiny
//! board it builds a book in two stages, plays a match after each, and
//! writes the Elo report (table and chart) with `tengen results`.

use std::path::Path;
use std::process::Command;

#[test]
fn the_book_script_plays_every_stage_and_plots_elo_against_build_time() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("be");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("gtp-scripts/book-elo.sh");
    let run = || {
        Command::new("sh")
            .arg(&script)
            .arg(&out)
            .args(["3", "2"])
            .env("TENGEN", env!("CARGO_BIN_EXE_tengen"))
            .env("SIZE", "5")
            .env("KOMI", "3")
            .env("THREADS", "1")
            .env("BOOK_PLAYOUTS", "100")
            .env("GAMES", "2")
            .env("PLAYOUTS", "30")
            .env("ENTRIES", "1024")
            .output()
            .unwrap()
    };
    let o = run();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(said.contains("stage 2: book build --positions 2"), "{said}");
    let tsv = std::fs::read_to_string(out.join("elo.tsv")).unwrap();
    let rows: Vec<Vec<&str>> = tsv.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows[0][1], "book_build_(hours)", "{tsv}");
    assert_eq!(rows.len(), 3, "one row per stage: {tsv}");
    for r in &rows[1..] {
        assert_eq!(r[0], "book against no book");
        assert_eq!(r[2], "2", "two games a stage: {tsv}");
    }
    for ext in ["svg", "png"] {
        assert!(
            std::fs::metadata(out.join("elo").with_extension(ext))
                .unwrap()
                .len()
                > 1000
        );
    }
    // Each stage's book is kept as built, apart from the tables played with.
    let used = |name: &str| -> u64 {
        let o = Command::new(env!("CARGO_BIN_EXE_tengen"))
            .args(["table", "info"])
            .arg(out.join(name))
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&o.stdout).into_owned();
        let line = text
            .lines()
            .find(|l| l.starts_with("used"))
            .unwrap_or_else(|| panic!("{text}"));
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    };
    assert!(
        used("stage-2.table") > used("stage-1.table"),
        "the second stage adds to the book"
    );
    assert!(
        used("match-1.book.table") > used("stage-1.table"),
        "the book side learns as it plays"
    );
    assert!(
        used("match-1.opponent.table") > 0,
        "and so does the side without a book"
    );
    // A rerun builds nothing and plays nothing more: the same report.
    let o = run();
    assert!(o.status.success());
    let again = String::from_utf8_lossy(&o.stdout);
    assert!(!again.contains("book build"), "{again}");
    assert!(
        !String::from_utf8_lossy(&o.stderr).contains("game 1/2"),
        "no game played again"
    );
    assert_eq!(std::fs::read_to_string(out.join("elo.tsv")).unwrap(), tsv);
}

#[test]
fn the_book_script_learns_the_book_from_games_with_method_learn() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("bl");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("gtp-scripts/book-elo.sh");
    let o = Command::new("sh")
        .arg(&script)
        .arg(&out)
        .args(["3", "3"])
        .env("TENGEN", env!("CARGO_BIN_EXE_tengen"))
        .env("METHOD", "learn")
        .env("SIZE", "5")
        .env("KOMI", "3")
        .env("THREADS", "1")
        .env("GAMES", "2")
        .env("PLAYOUTS", "30")
        .env("ENTRIES", "1024")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(said.contains("stage 2: book learn --games 3"), "{said}");
    // The learning tree holds both stages' games.
    let tree = std::fs::read_to_string(out.join("book.table.learn.json")).unwrap();
    assert!(tree.contains("\"games\":6,"), "{tree}");
    let tsv = std::fs::read_to_string(out.join("elo.tsv")).unwrap();
    assert_eq!(tsv.lines().count(), 3, "one row per stage: {tsv}");

    let o = Command::new("sh")
        .arg(&script)
        .arg(dir.path().join("bad"))
        .arg("3")
        .env("TENGEN", env!("CARGO_BIN_EXE_tengen"))
        .env("METHOD", "search")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("METHOD is 'build' or 'learn'"));
}
