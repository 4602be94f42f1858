//! The GoTools text format, read and written.
//!
//! ```text
//! any header or copyright line
//! $ P12
//! ?ABAAB?BB[AB] \
//! ?CA ACB
//! ?+l#5 3 1 40.00 4 ?? 0 255 :CCBC:
//! A+d#9 :BBCC:
//! ```
//!
//! As the 84 files of GoTools' collection show it (every main line
//! replays legally under this reading):
//!
//! - A problem starts with a line `$ P<number>` (any name after `$`).
//! - Stone lines hold triples: `?XY` is White, `AXY` is Black; `X` and `Y`
//!   are letters counted from `A` at a corner of the 19x19 board (column,
//!   then row). A `\` at the end of a line continues it, stone lines and
//!   answer lines alike (the continuation is joined without a space).
//! - **White is always the defender**, the enclosed side.
//! - `[XY]` marks sit on White chains: the **crucial chains**. The
//!   attacker wins when it has captured all of them; the defender wins
//!   when one of them lives.
//! - Answer lines `<c><+|-><status>#<n> <fields…> :<main line>:`:
//!   - `c` is the colour that **moves first** (`?` White, `A` Black);
//!   - `+` means the line reaches the mover's goal, `-` that it fails;
//!   - the status describes White: `l` lives, `d` dies; `lNd` lives unless
//!     Black has N external ko threats, `dNl` dies unless White has N;
//!   - `#<n>` is GoTools' effort: the terminal leaves of that line's
//!     search; the other fields are not used;
//!   - the main line is two letters a move, `@@` a pass (ko lines leave
//!     out the threats).
//!   - A mover has one line per tried first move, best first. A mover
//!     without lines has no answer in the file.
//!
//! Coordinates become board points with `A` at the top-left corner, like
//! SGF, on a 19x19 board.
//!
//! Dependencies: builds on [`super::problems::file`]; [`super::problems::read`]
//! calls this reader, never the other way round.

use crate::rules::{Color, Coord, Move};

use super::KoType;
use super::problems::file::{Expect, FileLine, FileProblem, ProblemError};

/// GoTools' board size.
pub const BOARD: usize = 19;

/// Reads every problem of a GoTools text. Errors name the line.
pub fn parse(text: &str, source: &str) -> Result<Vec<FileProblem>, ProblemError> {
    // Join continuation lines, keeping the number of the first.
    let mut lines: Vec<(usize, String)> = Vec::new();
    let mut pending: Option<(usize, String)> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end();
        let (body, cont) = match line.strip_suffix('\\') {
            Some(b) => (b, true),
            None => (line, false),
        };
        let entry = match pending.take() {
            Some((n, mut acc)) => {
                acc.push_str(body.trim_start());
                (n, acc)
            }
            None => (i + 1, body.trim_end().to_string()),
        };
        if cont {
            pending = Some(entry);
        } else {
            lines.push(entry);
        }
    }
    if let Some(e) = pending {
        lines.push(e);
    }

    let mut out = Vec::new();
    let mut cur: Option<Raw> = None;
    for (n, line) in lines {
        let t = line.trim();
        if let Some(name) = t.strip_prefix('$') {
            if let Some(r) = cur.take() {
                out.push(r.finish(source)?);
            }
            cur = Some(Raw {
                name: name.trim().to_string(),
                line: n,
                ..Raw::default()
            });
            continue;
        }
        let Some(r) = cur.as_mut() else {
            continue; // header lines before the first problem
        };
        if t.is_empty() {
            continue;
        }
        let b = t.as_bytes();
        if b.len() >= 2 && (b[0] == b'?' || b[0] == b'A') && (b[1] == b'+' || b[1] == b'-') {
            r.answers
                .push(parse_answer(t).map_err(|message| ProblemError::Syntax {
                    at: format!("{source}:{n}"),
                    message,
                })?);
        } else {
            parse_stones(t, r).map_err(|message| ProblemError::Syntax {
                at: format!("{source}:{n}"),
                message,
            })?;
        }
    }
    if let Some(r) = cur.take() {
        out.push(r.finish(source)?);
    }
    Ok(out)
}

#[derive(Default)]
struct Raw {
    name: String,
    line: usize,
    stones: Vec<(Color, u8, u8)>,
    marks: Vec<(u8, u8)>,
    answers: Vec<Answer>,
}

struct Answer {
    mover: Color,
    success: bool,
    expect: Expect,
    effort: u64,
    line: Vec<Option<(u8, u8)>>,
}

fn letter(c: u8) -> Result<u8, String> {
    if c.is_ascii_uppercase() && c <= b'S' {
        Ok(c - b'A')
    } else {
        Err(format!(
            "'{}' is not a coordinate letter (A-S)",
            c.escape_ascii()
        ))
    }
}

fn parse_stones(t: &str, r: &mut Raw) -> Result<(), String> {
    let b = t.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            c if c.is_ascii_whitespace() => i += 1,
            b'[' => {
                if i + 3 >= b.len() || b[i + 3] != b']' {
                    return Err(format!(
                        "unterminated crucial-chain mark at column {}",
                        i + 1
                    ));
                }
                r.marks.push((letter(b[i + 1])?, letter(b[i + 2])?));
                i += 4;
            }
            c @ (b'?' | b'A') => {
                if i + 2 >= b.len() {
                    return Err(format!("incomplete stone at column {}", i + 1));
                }
                let color = if c == b'?' {
                    Color::White
                } else {
                    Color::Black
                };
                r.stones.push((color, letter(b[i + 1])?, letter(b[i + 2])?));
                i += 3;
            }
            c => {
                return Err(format!(
                    "unexpected '{}' at column {} (stones are ?XY or AXY, crucial chains [XY])",
                    c.escape_ascii(),
                    i + 1
                ));
            }
        }
    }
    Ok(())
}

fn parse_answer(t: &str) -> Result<Answer, String> {
    let b = t.as_bytes();
    let mover = if b[0] == b'?' {
        Color::White
    } else {
        Color::Black
    };
    let success = b[1] == b'+';
    let rest = &t[2..];
    let status: String = rest
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != '#' && *c != ':')
        .collect();
    let expect = match status.as_str() {
        "l" => Expect::Lives,
        "d" => Expect::Dies,
        s => Expect::Ko(KoType::parse(s).ok_or_else(|| {
            format!("unknown status '{s}' (expected l, d, lNd or dNl with N from 1 to 9)")
        })?),
    };
    let effort = match rest[status.len()..].strip_prefix('#') {
        Some(r) => {
            let digits: String = r.chars().take_while(|c| c.is_ascii_digit()).collect();
            digits
                .parse()
                .map_err(|_| format!("'#' after status '{status}' is not followed by a number"))?
        }
        None => 0,
    };
    let mut line = Vec::new();
    let colons: Vec<usize> = t.match_indices(':').map(|(i, _)| i).collect();
    if colons.len() >= 2 {
        let body = &t[colons[colons.len() - 2] + 1..colons[colons.len() - 1]];
        let mv = body.as_bytes();
        if !mv.len().is_multiple_of(2) {
            return Err(format!("main line '{body}' has an odd number of letters"));
        }
        for pair in mv.chunks(2) {
            if pair == b"@@" {
                line.push(None);
            } else {
                line.push(Some((letter(pair[0])?, letter(pair[1])?)));
            }
        }
    }
    Ok(Answer {
        mover,
        success,
        expect,
        effort,
        line,
    })
}

/// GoTools letters to a board coordinate (`A` at the top-left corner).
pub(crate) fn coord(x: u8, y: u8) -> Coord {
    Coord::new(x, (BOARD - 1 - y as usize) as u8)
}

impl Raw {
    fn finish(self, source: &str) -> Result<FileProblem, ProblemError> {
        let at = format!("{source}:{} ({})", self.line, self.name);
        self.finish_in(source)
            .map_err(|message| ProblemError::Setup { at, message })
    }

    fn finish_in(self, source: &str) -> Result<FileProblem, String> {
        let at = format!("{source}:{} ({})", self.line, self.name);
        if self.stones.is_empty() {
            return Err("the problem has no stones".to_string());
        }
        let mut stones = Vec::new();
        for &(c, x, y) in &self.stones {
            let p = coord(x, y);
            if stones.iter().any(|&(q, _)| q == p) {
                return Err(format!(
                    "two stones on {}{}",
                    (b'A' + x) as char,
                    (b'A' + y) as char
                ));
            }
            stones.push((p, c));
        }
        let mut crucial = Vec::new();
        for &(x, y) in &self.marks {
            let p = coord(x, y);
            match stones.iter().find(|&&(q, _)| q == p) {
                Some((_, Color::White)) => crucial.push(p),
                found => {
                    return Err(format!(
                        "the mark [{}{}] is on {}: marks name the White (defender) chains \
                         whose fate the answers give",
                        (b'A' + x) as char,
                        (b'A' + y) as char,
                        if found.is_some() {
                            "a Black stone"
                        } else {
                            "an empty point"
                        }
                    ));
                }
            }
        }
        let answers = self
            .answers
            .iter()
            .map(|a| {
                let mut c = a.mover;
                FileLine {
                    mover: a.mover,
                    success: a.success,
                    expect: a.expect,
                    effort: a.effort,
                    line: a
                        .line
                        .iter()
                        .map(|m| {
                            let mv = m.map_or(Move::Pass, |(x, y)| Move::Play(coord(x, y)));
                            let r = (c, mv);
                            c = c.opponent();
                            r
                        })
                        .collect(),
                }
            })
            .collect();
        Ok(FileProblem {
            name: self.name,
            source: at,
            size: BOARD,
            stones,
            safe: Vec::new(),
            crucial,
            defender: Some(Color::White),
            to_play: None,
            answers,
            correct: Vec::new(),
            open: false,
        })
    }
}

/// GoTools letters of a board coordinate (`A` at the top-left corner of
/// the 19x19 board).
pub fn letters(c: Coord) -> String {
    let x = (b'A' + c.x) as char;
    let y = (b'A' + (BOARD - 1 - c.y as usize) as u8) as char;
    format!("{x}{y}")
}

/// One answer line to write.
pub struct WriteLine<'a> {
    pub mover: Color,
    /// The line reaches the mover's goal.
    pub success: bool,
    /// GoTools' status letters, about White (`l`, `d`, `l1d`, `d2l`, ...).
    pub status: String,
    /// Terminal leaves.
    pub effort: u64,
    pub line: &'a [(Color, Move)],
}

/// Writes one problem in GoTools' conventions: White defends (the caller
/// swaps colours first if needed), stones on a 19x19 board, `[XY]` on each
/// crucial chain, then the answer lines in the order given (best first for
/// each mover).
pub fn write_problem(
    name: &str,
    stones: &[(Coord, Color)],
    crucial: &[Coord],
    lines: &[WriteLine],
) -> String {
    let mut s = format!("$ {name}\n");
    let mut row = String::new();
    for (i, (c, col)) in stones.iter().enumerate() {
        if i > 0 && i % 16 == 0 {
            s.push_str(&row);
            s.push_str("\\\n");
            row.clear();
        }
        row.push(if *col == Color::White { '?' } else { 'A' });
        row.push_str(&letters(*c));
    }
    for c in crucial {
        row.push_str(&format!("[{}]", letters(*c)));
    }
    s.push_str(&row);
    s.push('\n');
    for l in lines {
        let moves: String = l
            .line
            .iter()
            .map(|(_, m)| match m {
                Move::Pass => "@@".to_string(),
                Move::Play(c) => letters(*c),
            })
            .collect();
        s.push_str(&format!(
            "{}{}{}#{} :{moves}:\n",
            if l.mover == Color::White { '?' } else { 'A' },
            if l.success { '+' } else { '-' },
            l.status,
            l.effort,
        ));
    }
    s
}
