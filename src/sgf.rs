//! SGF FF\[4\] game records: reading through the `sgf-parse` crate, writing
//! as plain text.
//!
//! Read: SZ, KM, HA, AB/AW/AE, PL and the B/W moves of the main line (the
//! first variation at every branch). Setup properties after the first move
//! are refused rather than silently dropped.

use std::fmt::Write as _;
use std::io::Read;
use std::path::{Path, PathBuf};

use sgf_parse::go::{self, Prop};
use thiserror::Error;

use crate::rules::{Color, Coord, Game, MAX_SIZE, MIN_SIZE, Move};

/// Files larger than this are refused (a game record is a few KiB).
pub const MAX_FILE_BYTES: u64 = 16 << 20;

#[derive(Debug, Error)]
pub enum SgfError {
    #[error("cannot read '{path}': {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot read '{path}': {why}")]
    NotAFile { path: PathBuf, why: String },
    #[error("'{path}' is not a valid SGF file: {why}")]
    Syntax { path: PathBuf, why: String },
    #[error("'{path}': {why}")]
    Content { path: PathBuf, why: String },
}

/// The parts of a game record the engine uses.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub size: usize,
    /// `None` if the file has no KM.
    pub komi: Option<f64>,
    pub handicap: usize,
    /// Stones set up before the first move; `None` clears a point (AE).
    pub setup: Vec<(Coord, Option<Color>)>,
    /// The PL property, if any.
    pub to_play: Option<Color>,
    pub moves: Vec<(Color, Move)>,
}

/// Reads and parses an SGF file. Errors name the file and what is wrong.
pub fn read_file(path: &Path) -> Result<GameRecord, SgfError> {
    let io = |source| SgfError::Io {
        path: path.to_path_buf(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(SgfError::NotAFile {
            path: path.to_path_buf(),
            why: "not a regular file".into(),
        });
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(SgfError::NotAFile {
            path: path.to_path_buf(),
            why: format!(
                "{} bytes is larger than the {MAX_FILE_BYTES}-byte limit",
                meta.len()
            ),
        });
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .map_err(io)?
        .take(MAX_FILE_BYTES)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    let text = String::from_utf8_lossy(&bytes);
    parse(&text).map_err(|e| match e {
        ParseFailure::Syntax(why) => SgfError::Syntax {
            path: path.to_path_buf(),
            why,
        },
        ParseFailure::Content(why) => SgfError::Content {
            path: path.to_path_buf(),
            why,
        },
    })
}

/// Why text could not be turned into a [`GameRecord`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseFailure {
    Syntax(String),
    Content(String),
}

/// Parses SGF text (the first game of a collection).
pub fn parse(text: &str) -> Result<GameRecord, ParseFailure> {
    let trees = go::parse(text).map_err(|e| ParseFailure::Syntax(e.to_string()))?;
    let root = trees
        .first()
        .ok_or_else(|| ParseFailure::Syntax("no game in the file".into()))?;
    let content = |s: String| ParseFailure::Content(s);

    let size = match root.get_property("SZ") {
        Some(Prop::SZ((w, h))) if w == h => *w as usize,
        Some(Prop::SZ((w, h))) => {
            return Err(content(format!(
                "rectangular board SZ[{w}:{h}] is not supported"
            )));
        }
        Some(_) => return Err(content("SZ is not a number".into())),
        None => 19,
    };
    if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
        return Err(content(format!(
            "board size {size} is not supported (sizes {MIN_SIZE} to {MAX_SIZE})"
        )));
    }
    let komi = match root.get_property("KM") {
        Some(Prop::KM(k)) if k.is_finite() => Some(*k),
        Some(_) => return Err(content("KM is not a number".into())),
        None => None,
    };
    let handicap = match root.get_property("HA") {
        Some(Prop::HA(h)) => *h as usize,
        _ => 0,
    };

    let mut rec = GameRecord {
        size,
        komi,
        handicap,
        setup: Vec::new(),
        to_play: None,
        moves: Vec::new(),
    };
    let coord = |p: go::Point, what: &str| -> Result<Option<Coord>, ParseFailure> {
        let (x, y) = (p.x as usize, p.y as usize);
        if x < size && y < size {
            Ok(Some(Coord::new(x as u8, (size - 1 - y) as u8)))
        } else if size <= 19 && x == 19 && y == 19 {
            Ok(None) // FF[3] pass "tt"
        } else {
            Err(ParseFailure::Content(format!(
                "{what} is off the {size}x{size} board"
            )))
        }
    };
    for (i, node) in root.main_variation().enumerate() {
        let mut setup = Vec::new();
        for prop in node.properties() {
            let (points, color) = match prop {
                Prop::AB(s) => (s, Some(Color::Black)),
                Prop::AW(s) => (s, Some(Color::White)),
                Prop::AE(s) => (s, None),
                Prop::PL(c) => {
                    rec.to_play = Some(match c {
                        sgf_parse::Color::Black => Color::Black,
                        sgf_parse::Color::White => Color::White,
                    });
                    continue;
                }
                Prop::Invalid(id, values)
                    if ["B", "W", "AB", "AW", "AE"].contains(&id.as_str()) =>
                {
                    return Err(content(format!(
                        "node {}: invalid value {id}[{}]",
                        i + 1,
                        values.join("][")
                    )));
                }
                _ => continue,
            };
            let mut sorted: Vec<_> = points.iter().copied().collect();
            sorted.sort_by_key(|p| (p.y, p.x));
            for p in sorted {
                match coord(p, &format!("setup point in node {}", i + 1))? {
                    Some(c) => setup.push((c, color)),
                    None => return Err(content(format!("node {}: setup point 'tt'", i + 1))),
                }
            }
        }
        if !setup.is_empty() {
            if !rec.moves.is_empty() {
                return Err(content(format!(
                    "node {}: setup stones after move {} are not supported",
                    i + 1,
                    rec.moves.len()
                )));
            }
            rec.setup.extend(setup);
        }
        if let Some(m) = node.get_move() {
            let (color, mv) = match m {
                Prop::B(mv) => (Color::Black, mv),
                Prop::W(mv) => (Color::White, mv),
                _ => continue,
            };
            let n = rec.moves.len() + 1;
            let mv = match mv {
                go::Move::Pass => Move::Pass,
                go::Move::Move(p) => match coord(*p, &format!("move {n}"))? {
                    Some(c) => Move::Play(c),
                    None => Move::Pass,
                },
            };
            rec.moves.push((color, mv));
        }
    }
    Ok(rec)
}

fn sgf_point(size: usize, c: Coord) -> String {
    let x = (b'a' + c.x) as char;
    let y = (b'a' + (size as u8 - 1 - c.y)) as char;
    format!("{x}{y}")
}

/// Writes the game as an SGF FF\[4\] record: root properties, setup and
/// handicap stones, then the moves on one line.
pub fn write(game: &Game) -> String {
    write_annotated(game, &[])
}

/// [`write()`], with `notes[i]` (SGF properties, for example `BL[12.5]`)
/// written after the i-th move's property; moves without a note get
/// none.
pub fn write_annotated(game: &Game, notes: &[String]) -> String {
    let size = game.size();
    let mut s = String::new();
    let _ = write!(
        s,
        "(;FF[4]GM[1]CA[UTF-8]AP[tengen:{}]RU[Chinese]SZ[{size}]KM[{}]",
        env!("CARGO_PKG_VERSION"),
        game.komi()
    );
    if game.handicap() > 0 {
        let _ = write!(s, "HA[{}]", game.handicap());
    }
    for color in Color::BOTH {
        let mut pts: Vec<Coord> = game
            .setup()
            .iter()
            .filter(|(c, _)| *c == color)
            .map(|&(_, p)| p)
            .collect();
        if pts.is_empty() {
            continue;
        }
        pts.sort_by_key(|c| (std::cmp::Reverse(c.y), c.x));
        s.push_str(if color == Color::Black { "AB" } else { "AW" });
        for p in pts {
            let _ = write!(s, "[{}]", sgf_point(size, p));
        }
    }
    if game.move_count() == 0 && (game.handicap() > 0 || !game.setup().is_empty()) {
        let _ = write!(s, "PL[{}]", game.to_move().letter());
    }
    for (i, (color, mv)) in game.moves().enumerate() {
        let v = match mv {
            Move::Pass => String::new(),
            Move::Play(c) => sgf_point(size, c),
        };
        let note = notes.get(i).map_or("", String::as_str);
        let _ = write!(s, ";{}[{v}]{note}", color.letter());
    }
    s.push(')');
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn reads_main_line_and_setup() {
        let rec =
            parse("(;FF[4]GM[1]SZ[9]KM[6.5]HA[2]AB[gc][cg]PL[W];W[ee](;B[dd];W[tt])(;B[aa]))")
                .unwrap();
        assert_eq!(rec.size, 9);
        assert_eq!(rec.komi, Some(6.5));
        assert_eq!(rec.handicap, 2);
        assert_eq!(rec.setup.len(), 2);
        assert_eq!(rec.to_play, Some(Color::White));
        let moves: Vec<String> = rec.moves.iter().map(|(c, m)| format!("{c} {m}")).collect();
        assert_eq!(moves, ["white E5", "black D6", "white PASS"]);
        assert!(rec.setup.contains(&(Coord::new(2, 2), Some(Color::Black))));
    }

    #[test]
    fn errors_say_what_is_wrong() {
        assert!(matches!(parse("not sgf"), Err(ParseFailure::Syntax(_))));
        assert!(matches!(parse("(;SZ[30])"), Err(ParseFailure::Content(_))));
        assert!(matches!(
            parse("(;SZ[9:13])"),
            Err(ParseFailure::Content(_))
        ));
        let e = parse("(;SZ[9];B[zz])").unwrap_err();
        assert_eq!(
            e,
            ParseFailure::Content("move 1 is off the 9x9 board".into())
        );
        assert!(matches!(
            parse("(;SZ[9];B[aa];AB[bb])"),
            Err(ParseFailure::Content(_))
        ));
        assert!(matches!(parse("(;GM[3])"), Err(ParseFailure::Syntax(_))));
    }

    #[test]
    fn write_then_read_round_trips() {
        let mut g = Game::new(9, 7.5, Rules::default()).unwrap();
        g.fixed_handicap(3).unwrap();
        for (c, m) in [
            (Color::White, "E5"),
            (Color::Black, "pass"),
            (Color::White, "A9"),
        ] {
            g.play(c, m.parse().unwrap()).unwrap();
        }
        let text = write(&g);
        let rec = parse(&text).unwrap();
        assert_eq!(rec.size, 9);
        assert_eq!(rec.komi, Some(7.5));
        assert_eq!(rec.handicap, 3);
        assert_eq!(rec.setup.len(), 3);
        let moves: Vec<(Color, Move)> = g.moves().collect();
        assert_eq!(rec.moves, moves);
        assert_eq!(write(&g), text, "output is deterministic");
    }
}
