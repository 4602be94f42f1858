//! The real binary over real pipes: the cases a controller or a careless
//! user produces that a script file cannot express (CRLF, NUL bytes, huge
//! lines, end of input without quit).

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs the binary without the best-move table (which would carry what
/// one run learned into the next).
fn run(input: &[u8], args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .arg("--no-table")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start tengen");
    let mut stdin = child.stdin.take().unwrap();
    let data = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn answers(out: &Output) -> Vec<String> {
    let text = String::from_utf8_lossy(&out.stdout);
    text.split("\n\n")
        .filter(|a| !a.is_empty())
        .map(|a| a.to_string())
        .collect()
}

/// A fresh scratch directory for one test, and the shipped default weights
/// as text (to change one value in a copy).
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tengen-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn default_weights() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/weights/default.toml")).unwrap()
}

/// `tengen [extra] bench --sizes 9 --playouts 1500`: its whole output and
/// the 9x9 signature (a hash of the tree sizes, equal when the search is).
fn bench9(extra: &[&str]) -> (String, String) {
    let mut args: Vec<&str> = extra.to_vec();
    args.extend(["bench", "--sizes", "9", "--playouts", "1500"]);
    let out = run(b"", &args);
    assert!(out.status.success(), "{:?}", out);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let sig = text
        .lines()
        .find(|l| l.trim_start().starts_with("9x9"))
        .and_then(|l| l.split_whitespace().nth(4))
        .unwrap_or_else(|| panic!("no 9x9 line in the bench output:\n{text}"))
        .to_string();
    (text, sig)
}

#[test]
fn end_of_input_exits_cleanly() {
    let out = run(b"1 name\n2 boardsize 9\n", &[]);
    assert!(out.status.success(), "{:?}", out.status);
    assert_eq!(answers(&out), ["=1 tengen", "=2 "]);
    // Without a final newline the last command is still answered.
    let out = run(b"name", &["gtp"]);
    assert!(out.status.success());
    assert_eq!(answers(&out), ["= tengen"]);
    let out = run(b"", &[]);
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
}

#[test]
fn quit_answers_then_exits() {
    let out = run(b"3 quit\n4 name\n", &[]);
    assert!(out.status.success());
    assert_eq!(answers(&out), ["=3 "]);
}

#[test]
fn crlf_nul_and_control_bytes_are_tolerated() {
    let out = run(b"1 name\r\n2 na\x00me\r\n\x1b[3 ver\x07sion\n", &[]);
    assert!(out.status.success());
    assert_eq!(
        answers(&out),
        ["=1 tengen", "=2 tengen", "? unknown command"]
    );
}

#[test]
fn huge_and_garbage_lines_get_an_error_and_the_engine_goes_on() {
    let mut input = Vec::new();
    input.extend_from_slice(b"7 play b ");
    input.extend(std::iter::repeat_n(b'x', 100_000));
    input.push(b'\n');
    input.extend(
        (0..2000u32)
            .map(|i| (i * 7919 % 256) as u8)
            .filter(|&b| b != b'\n'),
    );
    input.push(b'\n');
    input.extend(std::iter::repeat_n(b'A', 1_000_000));
    input.push(b'\n');
    input.extend_from_slice(b"8 name\n");
    let out = run(&input, &[]);
    assert!(out.status.success());
    let a = answers(&out);
    assert_eq!(a.len(), 4, "{a:?}");
    assert!(a[0].starts_with("?7 line too long"), "{}", a[0]);
    assert!(a[1].starts_with('?'), "{}", a[1]);
    assert!(a[2].starts_with("? line too long"), "{}", a[2]);
    assert_eq!(a[3], "=8 tengen");
}

#[test]
fn bad_command_line_options_are_explained() {
    let out = run(b"", &["--size", "30"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--size"), "{err}");
    let out = run(b"", &["--engine", "mcts-of-the-future"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("random"));
}

#[test]
fn same_seed_same_game() {
    // The determinism promise: --threads 1 --seed S --playouts N
    // gives identical moves run to run (twelve moves of a 9x9 game, with
    // tree reuse between them).
    let script = "boardsize 9\n".to_string() + &"genmove b\ngenmove w\n".repeat(6);
    let mcts = |seed: &str| {
        run(
            script.as_bytes(),
            &[
                "--seed",
                seed,
                "--threads",
                "1",
                "--playouts",
                "1500",
                "--quiet",
            ],
        )
    };
    let (a, b, c) = (mcts("42"), mcts("42"), mcts("43"));
    assert!(a.status.success());
    assert_eq!(String::from_utf8_lossy(&a.stdout).matches("= ").count(), 13);
    assert_eq!(a.stdout, b.stdout);
    assert_ne!(a.stdout, c.stdout);
    let random = |seed: &str| run(script.as_bytes(), &["--engine", "random", "--seed", seed]);
    assert_eq!(random("42").stdout, random("42").stdout);
    assert_ne!(random("42").stdout, random("43").stdout);
}

#[test]
fn weights_file_changes_behaviour_and_bad_files_stop_before_gtp() {
    let dir = scratch("weights");
    let default = default_weights();
    let changed = dir.join("changed.toml");
    std::fs::write(&changed, default.replace("uct_c = 0.05", "uct_c = 0.8")).unwrap();
    let a = bench9(&[]).1;
    let b = bench9(&["--weights", changed.to_str().unwrap()]).1;
    assert_eq!(a, bench9(&[]).1, "the bench signature is reproducible");
    assert_ne!(a, b, "a changed weight changes the search");

    let bad = dir.join("bad.toml");
    for (text, needle) in [
        (default.replace("fpu = 1.1", "fpu = 7.0"), "'fpu'"),
        (default.replace("fpu = 1.1", "fpu_typo = 1.1"), "'fpu_typo'"),
        ("this is = = not toml".to_string(), "not valid TOML"),
    ] {
        std::fs::write(&bad, text).unwrap();
        let out = run(b"name\n", &["--weights", bad.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2));
        assert!(out.stdout.is_empty(), "GTP must not start");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("bad.toml") && err.contains(needle), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn pattern_files_are_checked_before_gtp_and_change_the_search() {
    let dir = scratch("patterns");
    let shipped =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/weights/patterns.txt"))
            .unwrap();
    let signature = |extra: &[&str]| {
        let (text, sig) = bench9(extra);
        assert!(
            extra.contains(&"--no-patterns") || text.contains("learned patterns"),
            "bench reports the cost of the patterns:\n{text}"
        );
        sig
    };
    // The shipped file given by path is the built-in model.
    let copy = dir.join("copy.txt");
    std::fs::write(&copy, &shipped).unwrap();
    let builtin = signature(&[]);
    assert_eq!(builtin, signature(&["--patterns", copy.to_str().unwrap()]));
    assert_ne!(
        builtin,
        signature(&["--no-patterns"]),
        "the patterns change the search"
    );

    let bad = dir.join("bad.txt");
    let first_gamma = shipped
        .lines()
        .find(|l| l.starts_with("diamond3 "))
        .unwrap();
    let (k, _) = first_gamma.rsplit_once(' ').unwrap();
    for (text, needle) in [
        (
            shipped.replace(first_gamma, &format!("{k} 99")),
            "checksum mismatch",
        ),
        ("0.05 2 (3)\n".to_string(), "not a tengen pattern file"),
        (
            shipped.replacen("features d3-", "features d4-", 1),
            "feature set",
        ),
        (shipped[..shipped.len() / 2].to_string(), "pattern file"),
    ] {
        std::fs::write(&bad, text).unwrap();
        let out = run(b"name\n", &["--patterns", bad.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2));
        assert!(out.stdout.is_empty(), "GTP must not start");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("bad.txt") && err.contains(needle), "{err}");
    }
    let out = run(b"name\n", &["--patterns", "/nonexistent/p.txt"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/p.txt"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A 7x7 match of two random engines into `dir` (emptied first), with
/// `extra` match options; the games are quick, and the machinery is the
/// one the MCTS matches use.
fn random_match(dir: &std::path::Path, extra: &[&str]) -> std::process::Output {
    let _ = std::fs::remove_dir_all(dir);
    let me = env!("CARGO_BIN_EXE_tengen");
    let opponent = format!("{me} --engine random --seed 9 --quiet");
    let mut args = vec!["--engine", "random", "match", "--opponent", &opponent];
    args.extend(["--board-size", "7", "--out", dir.to_str().unwrap()]);
    args.extend(extra);
    run(b"", &args)
}

#[test]
fn match_plays_concurrent_games_and_writes_records() {
    let dir = std::env::temp_dir().join(format!("tengen-match-{}", std::process::id()));
    let out = random_match(&dir, &["--games", "4", "--concurrency", "2"]);
    assert!(out.status.success(), "{out:?}");
    let summary = String::from_utf8_lossy(&out.stdout);
    assert!(summary.starts_with("4 games: "), "{summary}");
    assert!(summary.contains("Elo"), "{summary}");
    let results = std::fs::read_to_string(dir.join("results.tsv")).unwrap();
    assert_eq!(results.lines().count(), 5, "{results}");
    for i in 1..=4 {
        let sgf = std::fs::read_to_string(dir.join(format!("game-{i:04}.sgf"))).unwrap();
        assert!(sgf.starts_with("(;FF[4]") && sgf.contains("RE[") && sgf.contains("SZ[7]"));
        // Every move carries its thinking time; no clock, no time left.
        assert_eq!(
            sgf.matches(" s]").count(),
            sgf.matches(";B[").count() + sgf.matches(";W[").count(),
            "{sgf}"
        );
        assert!(!sgf.contains("BL[") && !sgf.contains("WL["), "{sgf}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Under a clock, each move's SGF node holds the mover's time left, and
/// `results --times` reads the thinking times back: the table per side,
/// and the curves as a TSV and a chart, of all games or of one.
#[test]
fn match_records_move_times_and_results_report_them() {
    let dir = std::env::temp_dir().join(format!("tengen-times-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    let out = random_match(&dir, &["--games", "2", "--time", "60 0 0"]);
    assert!(out.status.success(), "{out:?}");
    let sgf = std::fs::read_to_string(dir.join("game-0001.sgf")).unwrap();
    let moves = sgf.matches(";B[").count() + sgf.matches(";W[").count();
    assert!(moves > 10, "{sgf}");
    assert_eq!(sgf.matches(" s]").count(), moves, "{sgf}");
    assert_eq!(
        sgf.matches("BL[").count() + sgf.matches("WL[").count(),
        moves,
        "{sgf}"
    );
    let stem = dir.join("times");
    let out = run(
        b"",
        &["results", d, "--times", "--plot", stem.to_str().unwrap()],
    );
    assert!(out.status.success(), "{out:?}");
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.starts_with("2 games: seconds of thinking"), "{table}");
    assert!(
        table.contains("\nengine\t") && table.contains("\nopponent\t"),
        "{table}"
    );
    let tsv = std::fs::read_to_string(stem.with_extension("tsv")).unwrap();
    assert!(tsv.starts_with("move\tengine_secs"), "{tsv}");
    assert!(tsv.lines().count() > 10, "{tsv}");
    for ext in ["svg", "png"] {
        assert!(std::fs::metadata(stem.with_extension(ext)).unwrap().len() > 1000);
    }
    let one = run(b"", &["results", d, "--times", "--game", "2"]);
    assert!(one.status.success(), "{one:?}");
    assert!(String::from_utf8_lossy(&one.stdout).starts_with("1 games:"));
    // Errors name what is wrong.
    let none = run(b"", &["results", d, "--times", "--game", "3"]);
    assert!(!none.status.success());
    assert!(String::from_utf8_lossy(&none.stderr).contains("no finished game 3"));
    let plain = std::fs::read_to_string(dir.join("game-0002.sgf")).unwrap();
    std::fs::write(dir.join("game-0002.sgf"), plain.replace(" s]", "]")).unwrap();
    let old = run(b"", &["results", d, "--times"]);
    assert!(!old.status.success());
    let err = String::from_utf8_lossy(&old.stderr);
    assert!(
        err.contains("game-0002.sgf") && err.contains("has no thinking time"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// With weights that resign below 50% after 100 visits, White resigns a
/// hopeless even game at once but plays on at the start of a 5-stone
/// handicap game on 9x9, where it is just as far behind.
#[test]
fn the_handicap_giver_plays_on_in_the_opening() {
    let dir = scratch("resign");
    let default = default_weights();
    let eager = dir.join("eager.toml");
    let text = default
        .replace("resign_threshold = 0.08", "resign_threshold = 0.5")
        .replace("resign_min_visits = 3000", "resign_min_visits = 100");
    assert_ne!(
        text, default,
        "weights/default.toml names both resign weights"
    );
    std::fs::write(&eager, text).unwrap();
    let args = [
        "--weights",
        eager.to_str().unwrap(),
        "--threads",
        "1",
        "--seed",
        "1",
        "--playouts",
        "2000",
    ];
    let even = run(
        b"boardsize 9\nclear_board\nkomi -40\ngenmove w\nquit\n",
        &args,
    );
    let a = answers(&even);
    assert_eq!(a.get(3).map(|s| s.trim()), Some("= resign"), "{a:?}");
    let handicap = run(
        b"boardsize 9\nclear_board\nkomi 0.5\nfixed_handicap 5\ngenmove w\nquit\n",
        &args,
    );
    let a = answers(&handicap);
    let answer = a.get(4).map(|s| s.trim().to_string()).unwrap_or_default();
    assert!(
        answer.starts_with("= ") && answer != "= resign" && answer != "= PASS",
        "White must play a move at the start of a handicap game: {a:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A reader that closes the pipe early (`tengen weights --defaults |
/// head -1`) ends the program quietly with status 141, as SIGPIPE would,
/// not with a panic and a backtrace.
#[test]
fn a_closed_stdout_ends_quietly() {
    // The read end is closed before the program starts, so its first write
    // fails whatever the scheduling (closing it after `spawn` raced with
    // the program, which could fill the pipe's buffer first and exit 0).
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["weights", "--defaults"])
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .expect("start tengen");
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(out.status.code(), Some(141), "{err}");
}
