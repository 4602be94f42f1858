//! `lz-analyze` and `lz-genmove_analyze` output parses as Leela Zero's
//! format and follows its termination rules: `=` at once, `info` lines
//! while thinking, an empty line when the next command arrives (or after
//! `play` for the genmove form), before that command's answer.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use regex::Regex;
use tengen::engine::{Engine, EngineConfig, PlayOptions};
use tengen::gtp::{Session, SharedBuffer};
use tengen::search::SearchConfig;

fn session() -> (Session, SharedBuffer) {
    let out = SharedBuffer::default();
    let engine = Engine::new(EngineConfig {
        size: 9,
        komi: 7.0,
        search: SearchConfig {
            threads: 1,
            max_tree_bytes: 64 << 20,
            ..SearchConfig::default()
        },
        play: PlayOptions {
            playouts: Some(3000),
            ..PlayOptions::default()
        },
        ..EngineConfig::default()
    })
    .unwrap();
    let s = Session::with_output(engine, Arc::new(Mutex::new(Box::new(out.clone()))));
    (s, out)
}

fn info_line() -> Regex {
    let group = r"info move ([A-HJ-T][0-9]{1,2}|PASS) visits \d+ winrate \d+ prior \d+ lcb \d+ order \d+ pv( ([A-HJ-T][0-9]{1,2}|PASS))+";
    Regex::new(&format!("^{group}( {group})*$")).unwrap()
}

#[test]
fn lz_analyze_streams_and_ends_with_an_empty_line() {
    let (mut s, out) = session();
    assert_eq!(s.handle_line(b"play b e5").unwrap(), "= \n\n");
    assert_eq!(s.handle_line(b"7 lz-analyze 5").unwrap(), "");
    // Wait (at most 30 s, not a fixed time) until an info line has come:
    // the analysis writes every 5 centiseconds while it thinks.
    let start = Instant::now();
    while !out.text().contains("\ninfo ") {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no info line in 30 s at 5 cs: {:?}",
            out.text()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    // The next command stops the analysis before it is answered.
    let answer = s.handle_line(b"8 name").unwrap();
    assert_eq!(answer, "=8 tengen\n\n");
    let text = out.text();
    assert!(text.starts_with("=7\n"), "{text:?}");
    assert!(
        text.ends_with("\n\n"),
        "the response ends with an empty line"
    );
    let body = &text["=7\n".len()..text.len() - 1];
    let lines: Vec<&str> = body.lines().collect();
    assert!(
        !lines.is_empty(),
        "the info lines seen above are in the answer"
    );
    let re = info_line();
    for l in &lines {
        assert!(re.is_match(l), "not Leela Zero format: {l}");
    }
    // Moves are for White (to move) and the order field counts up.
    assert!(lines[0].contains(" order 0 "));
}

#[test]
fn lz_genmove_analyze_ends_with_play_and_an_empty_line() {
    let (mut s, out) = session();
    assert_eq!(s.handle_line(b"3 lz-genmove_analyze b 1").unwrap(), "");
    let text = out.text();
    assert!(text.starts_with("=3\n"), "{text:?}");
    let play = Regex::new(r"\nplay ([A-HJ-T][0-9]|PASS|resign)\n\n$").unwrap();
    assert!(play.is_match(&text), "{text:?}");
    let re = info_line();
    for l in text.lines().skip(1).filter(|l| l.starts_with("info")) {
        assert!(re.is_match(l), "{l}");
    }
    // The move was played.
    assert_eq!(s.handle_line(b"list_stones b").unwrap().lines().count(), 2);
    // The random engine has no search to analyse with.
    let mut r = Session::new(
        Engine::new(EngineConfig {
            kind: tengen::engine::EngineKind::Random,
            ..EngineConfig::default()
        })
        .unwrap(),
    );
    assert!(r.handle_line(b"lz-analyze").unwrap().starts_with("? "));
}
