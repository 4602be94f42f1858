//! Fuzzing the GTP front-end in-process: random byte lines and mutated
//! valid command lines. Every line must be answered with `=` or `?` (or,
//! if preprocessing leaves nothing, not at all), the answer must be well
//! formed, and nothing may panic (an "internal error" answer, which is how
//! a caught panic shows up, fails the test too).
//!
//! `cargo test` runs 40,000 lines. Set `TENGEN_FUZZ_LINES` for more, e.g.
//! `TENGEN_FUZZ_LINES=1000000 cargo test --release --test gtp_fuzz`.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use tengen::engine::{Engine, EngineConfig, PlayOptions};
use tengen::gtp::Session;
use tengen::search::SearchConfig;

const CORPUS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command play",
    "list_commands",
    "boardsize 9",
    "boardsize 19",
    "boardsize 2",
    "boardsize 25",
    "clear_board",
    "komi 6.5",
    "play black D4",
    "play w pass",
    "play b Q16",
    "genmove black",
    "genmove w",
    "undo",
    "fixed_handicap 9",
    "place_free_handicap 5",
    "set_free_handicap A1 B2 C3",
    "time_settings 300 30 5",
    "time_left white 120 3",
    "final_score",
    "final_status_list dead",
    "final_status_list alive",
    "loadsgf sgf/game9.sgf 4",
    "loadsgf missing.sgf",
    "reg_genmove b",
    "showboard",
    "kgs-genmove_cleanup white",
    "kgs-time_settings byoyomi 60 10 3",
    "printsgf",
    "printsgf out.sgf",
    "cgos-gameover W+R",
    "gogui-analyze_commands",
    "is_legal b E5",
    "all_legal white",
    "list_stones black",
    "countlib D4",
    "captures w",
    "12 play b c3",
    "7 genmove w # comment",
    "\tname\t",
    "quit",
];

/// The test's own, independent idea of "preprocessing leaves nothing".
fn blank_after_preprocessing(line: &[u8]) -> bool {
    let cut = line.split(|&b| b == b'#').next().unwrap();
    cut.iter()
        .all(|&b| b == b' ' || b == b'\t' || b < 32 || b == 127)
}

fn check_answer(line: &[u8], answer: Option<String>) -> Result<(), TestCaseError> {
    match answer {
        None => prop_assert!(blank_after_preprocessing(line), "no answer to {:?}", line),
        Some(a) => {
            prop_assert!(
                !blank_after_preprocessing(line),
                "answer to a blank line {:?}",
                line
            );
            prop_assert!(
                a.starts_with('=') || a.starts_with('?'),
                "bad answer {:?}",
                a
            );
            prop_assert!(a.ends_with("\n\n"), "answer not terminated {:?}", a);
            prop_assert!(
                !a[..a.len() - 2].contains("\n\n"),
                "empty line inside {:?}",
                a
            );
            prop_assert!(!a.contains("internal error"), "caught panic on {:?}", line);
        }
    }
    Ok(())
}

fn line_strategy() -> impl Strategy<Value = Vec<u8>> {
    let random = prop::collection::vec(any::<u8>(), 0..80);
    let mutated = (
        0..CORPUS.len(),
        prop::collection::vec((0u8..4, any::<u16>(), any::<u8>()), 0..4),
    )
        .prop_map(|(i, edits)| {
            let mut l = CORPUS[i].as_bytes().to_vec();
            for (op, pos, byte) in edits {
                let at = if l.is_empty() {
                    0
                } else {
                    pos as usize % (l.len() + 1)
                };
                match op {
                    0 => l.insert(at, byte),
                    1 if at < l.len() => {
                        l.remove(at);
                    }
                    2 if at < l.len() => l[at] = byte,
                    _ => {
                        // duplicate a token
                        let s = String::from_utf8_lossy(&l).to_string();
                        if let Some(tok) = s.split(' ').nth(pos as usize % 3) {
                            l.extend_from_slice(b" ");
                            l.extend_from_slice(tok.as_bytes());
                        }
                    }
                }
            }
            l
        });
    prop_oneof![1 => random, 3 => mutated]
}

#[test]
fn random_and_mutated_lines_never_break_the_front_end() {
    let total: usize = std::env::var("TENGEN_FUZZ_LINES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40_000);
    let per_case = 200;
    let cases = total.div_ceil(per_case) as u32;
    let dir = std::env::temp_dir().join(format!("tengen-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sgf")).unwrap();
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/gtp-scripts/sgf/game9.sgf"),
        dir.join("sgf/game9.sgf"),
    )
    .unwrap();
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let counts = std::cell::Cell::new([0usize; 3]);
    let result = runner.run(&prop::collection::vec(line_strategy(), per_case), |lines| {
        let config = EngineConfig {
            size: 9,
            status_playouts: 8,
            search: SearchConfig {
                threads: 1,
                max_tree_bytes: 8 << 20,
                ..SearchConfig::default()
            },
            play: PlayOptions {
                playouts: Some(16),
                status_playouts: 16,
                ..PlayOptions::default()
            },
            ..EngineConfig::default()
        };
        let mut session = Session::new(Engine::new(config).unwrap());
        session.set_file_root(Some(dir.clone()));
        for line in &lines {
            let answer = session.handle_line(line);
            let kind = match &answer {
                None => 2,
                Some(a) if a.starts_with('=') => 0,
                Some(_) => 1,
            };
            check_answer(line, answer)?;
            let mut c = counts.get();
            c[kind] += 1;
            counts.set(c);
        }
        Ok(())
    });
    let _ = std::fs::remove_dir_all(&dir);
    result.unwrap();
    let [ok, errors, silent] = counts.get();
    let run = ok + errors + silent;
    eprintln!("fuzzed {run} GTP lines: {ok} answered '=', {errors} '?', {silent} blank");
    assert!(run >= total, "{run} of {total} lines run");
    // The fuzz reaches both sides of the front end: commands that run (a
    // quarter of the mutated lines are unmutated corpus commands) and
    // errors. A front end that refused everything, or accepted garbage,
    // fails here.
    assert!(ok * 10 >= run, "only {ok} of {run} lines were accepted");
    assert!(
        errors * 4 >= run,
        "only {errors} of {run} lines were refused"
    );
}
