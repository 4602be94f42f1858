//! Resuming a match: the settings of a match are kept beside its results
//! (`match.json` in the `--out` directory), and a run with the same
//! directory and settings goes on after the games `results.tsv` already
//! holds instead of writing over them.

use std::collections::BTreeMap;

use super::*;

/// The file beside `results.tsv` that holds the match's settings.
pub(super) const SETTINGS_FILE: &str = "match.json";
/// The file in the `--out` directory with one line per game.
pub(super) const RESULTS_FILE: &str = "results.tsv";
/// The results file's header line.
pub(super) const RESULTS_HEADER: &str = "game\tengine_color\tresult\treason\tmoves\tengine_secs\topponent_secs\tengine_score\treferee_score";

/// The settings that make two runs the same match (all but the number of
/// games, which a later run may raise to extend the match).
fn settings(cfg: &MatchConfig) -> BTreeMap<&'static str, String> {
    BTreeMap::from([
        ("engine", cfg.engine.display()),
        ("opponent", cfg.opponent.display()),
        (
            "referee",
            cfg.referee
                .as_ref()
                .map_or_else(|| "none".into(), EngineCommand::display),
        ),
        ("board_size", cfg.size.to_string()),
        ("komi", cfg.komi.to_string()),
        ("move_limit", cfg.move_limit.to_string()),
        ("time", cfg.time.to_string()),
        ("vary_seed", cfg.vary_seed.to_string()),
    ])
}

/// Prepares `dir` for the match: a new directory gets the settings file
/// and an empty results file; a directory of the same match keeps its
/// results, which are returned (games below `cfg.games` only), so that
/// the run goes on after them. A directory of another match, or results
/// without settings, is refused rather than overwritten.
pub(super) fn prepare(cfg: &MatchConfig, dir: &Path) -> Result<Vec<MatchGame>, MatchError> {
    let write_err = |path: &Path| {
        let path = path.to_path_buf();
        move |source| MatchError::Write { path, source }
    };
    std::fs::create_dir_all(dir).map_err(write_err(dir))?;
    let settings_path = dir.join(SETTINGS_FILE);
    let results_path = dir.join(RESULTS_FILE);
    let now = settings(cfg);
    let old = match std::fs::read_to_string(&settings_path) {
        Ok(text) => Some(
            serde_json::from_str::<BTreeMap<String, String>>(&text).map_err(|e| {
                MatchError::Resume {
                    dir: dir.to_path_buf(),
                    detail: format!("{SETTINGS_FILE} is not a match settings file ({e})"),
                }
            })?,
        ),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(source) => {
            return Err(MatchError::Read {
                path: settings_path,
                source,
            });
        }
    };
    let Some(old) = old else {
        if results_path.exists() {
            return Err(MatchError::Resume {
                dir: dir.to_path_buf(),
                detail: format!(
                    "it holds {RESULTS_FILE} but no {SETTINGS_FILE} (an earlier tengen's match), \
                     so it cannot tell whether this is the same match"
                ),
            });
        }
        let json = serde_json::to_string_pretty(&now).expect("a map of strings serializes");
        std::fs::write(&settings_path, json + "\n").map_err(write_err(&settings_path))?;
        std::fs::write(&results_path, format!("{RESULTS_HEADER}\n"))
            .map_err(write_err(&results_path))?;
        return Ok(Vec::new());
    };
    for (key, value) in &now {
        let was = old.get(*key).map_or("(missing)", String::as_str);
        if was != value {
            return Err(MatchError::Resume {
                dir: dir.to_path_buf(),
                detail: format!(
                    "it holds a match with other settings ({key} was '{was}', now '{value}')"
                ),
            });
        }
    }
    let text = match std::fs::read_to_string(&results_path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(source) => {
            return Err(MatchError::Read {
                path: results_path,
                source,
            });
        }
    };
    let (done, keep) = parse_results(&text).map_err(|(line, detail)| MatchError::Resume {
        dir: dir.to_path_buf(),
        detail: format!("{RESULTS_FILE} line {line}: {detail}"),
    })?;
    if keep == 0 || keep != text.len() {
        // A results file missing or without its header, or a last line cut
        // short by a kill: keep the complete lines only (the cut game is
        // played again).
        let mut fixed = if keep == 0 {
            format!("{RESULTS_HEADER}\n")
        } else {
            text[..keep].to_string()
        };
        if !fixed.ends_with('\n') {
            fixed.push('\n');
        }
        std::fs::write(&results_path, fixed).map_err(write_err(&results_path))?;
    }
    Ok(done.into_iter().filter(|r| r.index < cfg.games).collect())
}

/// The games recorded in a match directory (`match --out`), in the order
/// they were played; a last line cut short by a kill is left out.
pub fn read_results(dir: &Path) -> Result<Vec<MatchGame>, MatchError> {
    let path = dir.join(RESULTS_FILE);
    let text = std::fs::read_to_string(&path).map_err(|source| MatchError::Read {
        path: path.clone(),
        source,
    })?;
    let (mut games, _) = parse_results(&text).map_err(|(line, detail)| MatchError::Results {
        path,
        detail: format!("line {line}: {detail}"),
    })?;
    games.sort_by_key(|g| g.index);
    Ok(games)
}

/// The games of a results file, and the length of its complete part. A
/// last line without its newline is incomplete and left out; any other
/// line that does not parse is an error (line number, what is wrong).
fn parse_results(text: &str) -> Result<(Vec<MatchGame>, usize), (usize, String)> {
    let mut records: Vec<MatchGame> = Vec::new();
    let mut pos = 0;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        let complete = line.ends_with('\n');
        let line_no = n + 1;
        let body = line.trim_end_matches('\n');
        if n == 0 {
            if !complete {
                break;
            }
            if body != RESULTS_HEADER {
                return Err((line_no, format!("expected the header '{RESULTS_HEADER}'")));
            }
        } else {
            match parse_line(body) {
                Ok(r) => {
                    if !complete {
                        break;
                    }
                    if records.iter().any(|o| o.index == r.index) {
                        return Err((line_no, format!("game {} appears twice", r.index + 1)));
                    }
                    records.push(r);
                }
                Err(_) if !complete => break,
                Err(e) => return Err((line_no, e)),
            }
        }
        pos += line.len();
    }
    Ok((records, pos))
}

/// One line of the results file, back into the parts of a record the
/// summary reads.
fn parse_line(line: &str) -> Result<MatchGame, String> {
    let f: Vec<&str> = line.split('\t').collect();
    if f.len() != 9 {
        return Err(format!("{} fields, expected 9", f.len()));
    }
    let index = match f[0].parse::<usize>() {
        Ok(g) if g >= 1 => g - 1,
        _ => return Err(format!("game number '{}' is not a number from 1", f[0])),
    };
    let engine_color = f[1]
        .parse::<Color>()
        .map_err(|_| format!("engine colour '{}' is neither black nor white", f[1]))?;
    let reason = EndReason::ALL
        .into_iter()
        .find(|r| r.name() == f[3])
        .ok_or_else(|| format!("unknown end '{}'", f[3]))?;
    let (winner, score) = match f[2] {
        "0" => (None, Some(0.0)),
        r => {
            let (c, rest) = r
                .split_once('+')
                .ok_or_else(|| format!("result '{r}' is not like B+3.5, W+R or 0"))?;
            let winner = c
                .parse::<Color>()
                .map_err(|_| format!("result '{r}' names no winner"))?;
            let margin = rest.parse::<f64>().ok();
            let score = margin.map(|m| if winner == Color::Black { m } else { -m });
            (Some(winner), score)
        }
    };
    let num = |s: &str, what: &str| {
        s.parse::<f64>()
            .map_err(|_| format!("{what} '{s}' is not a number"))
    };
    let moves = f[4]
        .parse::<usize>()
        .map_err(|_| format!("moves '{}' is not a number", f[4]))?;
    let seconds = [num(f[5], "engine seconds")?, num(f[6], "opponent seconds")?];
    let text = |s: &str| (s != "-").then(|| s.to_string());
    Ok(MatchGame {
        index,
        engine_color,
        winner,
        score,
        reason,
        moves,
        seconds,
        engine_score: text(f[7]),
        referee_score: text(f[8]),
        sgf: String::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(dir: &Path, games: usize) -> MatchConfig {
        MatchConfig {
            engine: EngineCommand::parse("tengen --threads 1").unwrap(),
            opponent: EngineCommand::parse("gnugo --mode gtp").unwrap(),
            referee: None,
            games,
            size: 9,
            komi: 7.0,
            move_limit: 400,
            time: TimeSystem::Unlimited,
            concurrency: 1,
            out_dir: Some(dir.to_path_buf()),
            vary_seed: true,
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("tengen-resume-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    fn record(index: usize, engine_color: Color, winner: Option<Color>) -> MatchGame {
        MatchGame {
            index,
            engine_color,
            winner,
            score: Some(match winner {
                Some(Color::Black) => 2.0,
                Some(Color::White) => -2.0,
                None => 0.0,
            }),
            reason: EndReason::Passes,
            moves: 60,
            seconds: [3.0, 2.5],
            engine_score: Some("B+2".into()),
            referee_score: None,
            sgf: "(;)".into(),
        }
    }

    #[test]
    fn a_rerun_keeps_the_games_played_and_refuses_another_match() {
        let dir = scratch("same");
        let c = cfg(&dir, 4);
        assert!(prepare(&c, &dir).unwrap().is_empty());
        let results = dir.join(RESULTS_FILE);
        let put = |r: MatchGame| save(&c, Some(&results), &r).unwrap();
        put(record(0, Color::Black, Some(Color::Black)));
        put(record(2, Color::Black, None));
        put(record(1, Color::White, Some(Color::Black)));
        // The same match: the three games come back, as the summary saw them.
        let done = prepare(&c, &dir).unwrap();
        let mut s = Summary::default();
        for r in &done {
            s.add(r);
        }
        assert_eq!((s.games, s.wins, s.draws, s.losses), (3, 1, 1, 1));
        assert_eq!(
            done.iter().map(|r| r.index).collect::<Vec<_>>(),
            vec![0, 2, 1]
        );
        // The results file is unchanged by the check.
        assert_eq!(
            std::fs::read_to_string(&results).unwrap().lines().count(),
            4
        );
        // Fewer games asked: only those below the count are counted.
        assert_eq!(prepare(&cfg(&dir, 2), &dir).unwrap().len(), 2);
        // Another opponent: refused, and the results stay.
        let mut other = cfg(&dir, 4);
        other.opponent = EngineCommand::parse("pachi").unwrap();
        let e = prepare(&other, &dir).unwrap_err().to_string();
        assert!(
            e.contains("opponent was 'gnugo --mode gtp', now 'pachi'"),
            "{e}"
        );
        assert!(e.contains("another --out"), "{e}");
        assert_eq!(
            std::fs::read_to_string(&results).unwrap().lines().count(),
            4
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_line_cut_by_a_kill_is_dropped_and_bad_lines_are_named() {
        let dir = scratch("cut");
        let c = cfg(&dir, 10);
        prepare(&c, &dir).unwrap();
        let results = dir.join(RESULTS_FILE);
        save(
            &c,
            Some(&results),
            &record(0, Color::Black, Some(Color::White)),
        )
        .unwrap();
        let mut text = std::fs::read_to_string(&results).unwrap();
        text.push_str("2\tW\tB+");
        std::fs::write(&results, &text).unwrap();
        assert_eq!(prepare(&c, &dir).unwrap().len(), 1);
        let fixed = std::fs::read_to_string(&results).unwrap();
        assert_eq!(fixed.lines().count(), 2);
        assert!(fixed.ends_with('\n'));
        // A complete line that does not parse is an error with its number.
        std::fs::write(&results, fixed + "2\tW\tB+R\tresign\tmany\t1\t1\t-\t-\n").unwrap();
        let e = prepare(&c, &dir).unwrap_err().to_string();
        assert!(e.contains("results.tsv line 3: moves 'many'"), "{e}");
        // A results file removed by hand comes back with its header.
        std::fs::remove_file(&results).unwrap();
        assert!(prepare(&c, &dir).unwrap().is_empty());
        assert_eq!(
            std::fs::read_to_string(&results).unwrap(),
            format!("{RESULTS_HEADER}\n")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn results_without_settings_are_not_overwritten() {
        let dir = scratch("old");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(RESULTS_FILE), format!("{RESULTS_HEADER}\n")).unwrap();
        let e = prepare(&cfg(&dir, 2), &dir).unwrap_err().to_string();
        assert!(e.contains("no match.json"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn every_result_line_reads_back() {
        for (res, reason) in [
            ("B+R", "resign"),
            ("W+T", "time"),
            ("B+F", "illegal-move"),
            ("W+F", "engine-failure"),
            ("W+3.5", "passes"),
            ("0", "move-limit"),
        ] {
            let r =
                parse_line(&format!("7\tW\t{res}\t{reason}\t120\t10.0\t9.5\t-\tW+3.5")).unwrap();
            assert_eq!(r.index, 6);
            assert_eq!(r.result(), res);
            assert_eq!(r.reason.name(), reason);
            assert_eq!(r.referee_score.as_deref(), Some("W+3.5"));
        }
    }
}
