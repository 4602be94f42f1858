//! The table file through the real binary: kill -9 during heavy writes,
//! damaged files, and two processes on one file.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

fn tengen() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tengen"))
}

/// A table path in a fresh scratch folder, removed when the guard drops
/// (also when the test fails).
fn scratch(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::Builder::new()
        .prefix(&format!("tengen-tf-{name}-"))
        .tempdir()
        .unwrap();
    let path = dir.path().join("t.table");
    (dir, path)
}

fn verify(path: &Path) -> std::process::Output {
    tengen()
        .args(["--table", path.to_str().unwrap(), "table", "verify"])
        .output()
        .unwrap()
}

#[test]
fn kill_9_during_heavy_writes_never_breaks_the_file() {
    let (_dir, path) = scratch("kill");
    let p = path.to_str().unwrap();
    let mut x = 12345u64;
    const TRIALS: usize = 50;
    for trial in 0..TRIALS {
        let mut child = tengen()
            .args(["--table", p, "--table-entries", "1048576", "--threads", "2"])
            .args(["table", "bench", "--seconds", "30"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        std::thread::sleep(Duration::from_millis(20 + (x >> 33) % 200));
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        // A new table is written under a temporary name and renamed into
        // place, so a run killed before that (a slow start on a loaded
        // machine) leaves no table: nothing to break. Once made, the file
        // stays for the later trials.
        if trial + 1 < TRIALS && !path.exists() {
            continue;
        }
        let out = verify(&path);
        assert!(
            out.status.success(),
            "trial {trial}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let info = tengen()
        .args(["--table", p, "table", "info"])
        .output()
        .unwrap();
    assert!(info.status.success());
    let text = String::from_utf8_lossy(&info.stdout);
    // Fifty runs of random writes leave entries behind, and info counts them.
    let used: u64 = text
        .lines()
        .find_map(|l| l.strip_prefix("used"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no 'used N' line in: {text}"));
    assert!(used > 0, "{text}");
}

#[test]
fn the_table_file_can_be_named_after_the_action() {
    let (_dir, path) = scratch("positional");
    let p = path.to_str().unwrap();
    let run = |args: &[&str]| tengen().args(args).output().unwrap();
    let made = run(&["--table-entries", "1024", "table", "clear", p]);
    assert!(made.status.success(), "{made:?}");
    assert!(String::from_utf8_lossy(&made.stdout).contains(p));
    for action in ["info", "verify"] {
        let out = run(&["table", action, p]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{action}: {out:?}");
        assert!(text.contains(p), "{action} names its file: {text}");
    }
    // The same file through --table is no contradiction; another one is.
    assert!(run(&["--table", p, "table", "verify", p]).status.success());
    let (_other_dir, other) = scratch("positional-other");
    let out = run(&["--table", other.to_str().unwrap(), "table", "verify", p]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("two tables named"), "{err}");
    // A missing file is named, not created.
    let missing = path.with_file_name("missing.table");
    let out = run(&["table", "info", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.table"));
    assert!(!missing.exists());
}

#[test]
fn damaged_files_give_clear_errors_and_no_gtp() {
    let (_dir, path) = scratch("bad");
    let p = path.to_str().unwrap();
    let made = tengen()
        .args(["--table", p, "--table-entries", "1024", "table", "clear"])
        .output()
        .unwrap();
    assert!(made.status.success(), "{made:?}");
    let good = std::fs::read(&path).unwrap();
    let mut other_version = good.clone();
    other_version[8] = 99;
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("truncated", good[..good.len() - 100].to_vec(), "truncated"),
        ("version", other_version, "version 99"),
        (
            "random",
            (0..5000u32).map(|i| (i * 7919 % 251) as u8).collect(),
            "not a tengen table",
        ),
        ("short", b"hello".to_vec(), "shorter than"),
    ];
    for (name, bytes, expect) in cases {
        std::fs::write(&path, &bytes).unwrap();
        for args in [
            &["table", "info"][..],
            &["table", "verify"][..],
            &["gtp"][..],
        ] {
            let out = tengen()
                .args(["--table", p])
                .args(args)
                .stdin(Stdio::null())
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{name} {args:?}: {err}");
            assert!(
                err.contains(p) && err.contains(expect),
                "{name} {args:?}: {err}"
            );
            assert!(out.stdout.is_empty(), "{name} {args:?}: no GTP output");
        }
    }
    // `table clear` recreates a damaged file.
    let out = tengen()
        .args(["--table", p, "table", "clear"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(verify(&path).status.success());
}

#[test]
fn two_engines_on_one_file_the_second_only_reads() {
    let (_dir, path) = scratch("two");
    let p = path.to_str().unwrap();
    let start = || {
        tengen()
            .args(["--table", p, "--table-entries", "65536", "--threads", "1"])
            .args(["--playouts", "2000", "--size", "9", "--quiet"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let ask = |child: &mut std::process::Child,
               out: &mut BufReader<std::process::ChildStdout>,
               cmd: &str| {
        writeln!(child.stdin.as_mut().unwrap(), "{cmd}").unwrap();
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            out.read_line(&mut line).unwrap();
            if line.trim().is_empty() {
                break;
            }
            answer.push_str(&line);
        }
        answer
    };
    let mut a = start();
    let mut a_out = BufReader::new(a.stdout.take().unwrap());
    assert!(ask(&mut a, &mut a_out, "name").starts_with('='));
    let mut b = start();
    let mut b_out = BufReader::new(b.stdout.take().unwrap());
    assert!(ask(&mut b, &mut b_out, "name").starts_with('='));
    for _ in 0..3 {
        assert!(ask(&mut a, &mut a_out, "genmove b").starts_with("= "));
        assert!(ask(&mut b, &mut b_out, "genmove w").starts_with("= "));
    }
    let stats = ask(&mut b, &mut b_out, "tengen-table_stats");
    assert!(stats.contains("read-only"), "{stats}");
    let stats = ask(&mut a, &mut a_out, "tengen-table_stats");
    assert!(stats.contains("read-write"), "{stats}");
    ask(&mut a, &mut a_out, "quit");
    ask(&mut b, &mut b_out, "quit");
    let a = a.wait_with_output().unwrap();
    let b = b.wait_with_output().unwrap();
    assert!(a.status.success() && b.status.success());
    let warning = String::from_utf8_lossy(&b.stderr);
    assert!(
        warning.contains("another process has it open for writing"),
        "{warning}"
    );
    let out = verify(&path);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        !text.contains(" 0 used"),
        "the writer stored entries: {text}"
    );
}
