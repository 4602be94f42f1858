//! `tengen book learn` from the command line: a budget is required, games
//! go into the tree file and the table, a rerun goes on, and a tree of
//! another game is refused with what to do.

use std::process::{Command, Output};

fn tengen(dir: &std::path::Path, komi: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tengen"))
        .current_dir(dir)
        .args([
            "--size",
            "5",
            "--komi",
            komi,
            "--seed",
            "3",
            "--table-entries",
            "1024",
        ])
        .args(["--table", "b.table"])
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn book_learn_plays_games_into_its_tree_and_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let o = tengen(d, "3", &["book", "learn"]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--time") && err.contains("--games"), "{err}");

    let o = tengen(
        d,
        "3",
        &["book", "learn", "--games", "1", "--game-playouts", "0"],
    );
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--game-playouts"), "{err}");

    let learn = [
        "book",
        "learn",
        "--games",
        "4",
        "--game-playouts",
        "30",
        "--candidate-playouts",
        "60",
        "--depth",
        "2",
        "--min-games",
        "1",
        "--workers",
        "1",
    ];
    let o = tengen(d, "3", &learn);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("book learn: game 4"), "a line per game: {err}");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("4 games; b.table.learn.json holds 4 games"),
        "{out}"
    );
    assert!(d.join("b.table.learn.json").exists());

    let o = tengen(d, "3", &learn);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("holds 8 games"), "a rerun goes on: {out}");

    // The root's most played move is the book's.
    let o = tengen(d, "3", &["book", "show", "--lines", "1"]);
    let shown = String::from_utf8_lossy(&o.stdout);
    assert!(shown.contains(" 1. ") && shown.contains("d0)"), "{shown}");

    // Another komi: a fresh table is fine, the old tree is not.
    std::fs::rename(d.join("b.table"), d.join("old.table")).unwrap();
    let o = tengen(d, "2", &learn);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("b.table.learn.json") && err.contains("--tree"),
        "{err}"
    );
}
