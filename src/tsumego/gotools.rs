//! The GoTools text format, read and written.
//!
//! ```text
//! any header or copyright line
//! $ P12
//! ?ABAAB?BB[AB] \
//! ?CA ACB
//! ?+l#5 3 1 40.00 4 ?? 0 255 :CCBC:
//! ?-d#9 :BBCC:
//! ```
//!
//! - A problem starts with a line `$ P<number>` (any name after `$`).
//! - Stone lines hold triples: `?XY` is White, `AXY` is Black; `X` and `Y`
//!   are letters counted from `A` at the corner (column, then row). A `\`
//!   at the end of a line continues it. `[XY]` marks the chain through XY
//!   as alive: the attacker's wall.
//! - Answer lines: the defender's colour (`?` White, `A` Black), `+` if
//!   the defender moves first or `-` if the attacker does, the status (`l`
//!   lives, `d` dies; forms with a digit such as `l1d` or `d1l` are ko
//!   results), then `#` and the original effort count, any further fields,
//!   and the main line between colons, two letters a move, `@@` a pass.
//!   A side may have several answer lines, one per tried first move; the
//!   best one for the side to move is its answer.
//!
//! Coordinates become board points with `A` at the top-left corner, like
//! SGF; the board is sized to hold the problem with room around it.

use crate::rules::{Color, Coord, Move};

use super::problems::{Expect, FileProblem};

/// Reads every problem of a GoTools text. Errors name the line.
pub fn parse(text: &str, source: &str) -> Result<Vec<FileProblem>, String> {
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
                acc.push(' ');
                acc.push_str(body);
                (n, acc)
            }
            None => (i + 1, body.to_string()),
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
                .push(parse_answer(t).map_err(|e| format!("{source}:{n}: {e}"))?);
        } else {
            parse_stones(t, r).map_err(|e| format!("{source}:{n}: {e}"))?;
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
    safe: Vec<(u8, u8)>,
    answers: Vec<Answer>,
}

struct Answer {
    defender: Color,
    defender_first: bool,
    expect: Option<Expect>,
    line: Vec<Option<(u8, u8)>>,
}

fn letter(c: u8) -> Result<u8, String> {
    if c.is_ascii_uppercase() && c <= b'Y' {
        Ok(c - b'A')
    } else {
        Err(format!("'{}' is not a coordinate letter (A-Y)", c as char))
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
                    return Err(format!("unterminated safe-chain mark at column {}", i + 1));
                }
                r.safe.push((letter(b[i + 1])?, letter(b[i + 2])?));
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
                    "unexpected '{}' at column {} (stones are ?XY or AXY, safe chains [XY])",
                    c as char,
                    i + 1
                ));
            }
        }
    }
    Ok(())
}

fn parse_answer(t: &str) -> Result<Answer, String> {
    let b = t.as_bytes();
    let defender = if b[0] == b'?' {
        Color::White
    } else {
        Color::Black
    };
    let rest = &t[2..];
    let status: String = rest
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != '#' && *c != ':')
        .collect();
    let expect = if status.chars().any(|c| c.is_ascii_digit()) {
        Some(Expect::Ko)
    } else if status.starts_with('l') {
        Some(Expect::Lives)
    } else if status.starts_with('d') {
        Some(Expect::Dies)
    } else {
        None
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
        defender,
        defender_first: b[1] == b'+',
        expect,
        line,
    })
}

impl Raw {
    fn finish(self, source: &str) -> Result<FileProblem, String> {
        let at = format!("{source}:{} ({})", self.line, self.name);
        if self.stones.is_empty() {
            return Err(format!("{at}: the problem has no stones"));
        }
        let max = self
            .stones
            .iter()
            .map(|s| s.1.max(s.2))
            .chain(self.safe.iter().map(|s| s.0.max(s.1)))
            .max()
            .unwrap_or(0) as usize;
        let size = (max + 4).clamp(7, 19);
        if max >= size {
            return Err(format!(
                "{at}: coordinates beyond S do not fit a 19x19 board"
            ));
        }
        let coord = |x: u8, y: u8| Coord::new(x, (size - 1 - y as usize) as u8);
        let mut stones = Vec::new();
        for &(c, x, y) in &self.stones {
            stones.push((coord(x, y), c));
        }
        let safe = self.safe.iter().map(|&(x, y)| coord(x, y)).collect();
        let defender = self.answers.first().map(|a| a.defender);
        let mut exp_def = None;
        let mut exp_att = None;
        let mut lines = [Vec::new(), Vec::new()];
        for a in &self.answers {
            let Some(e) = a.expect else { continue };
            let slot = if a.defender_first {
                &mut exp_def
            } else {
                &mut exp_att
            };
            // The best answer for the side to move.
            let rank = |e: Expect| match (a.defender_first, e) {
                (true, Expect::Lives) | (false, Expect::Dies) => 2,
                (_, Expect::Ko) => 1,
                _ => 0,
            };
            if slot.is_none_or(|old| rank(e) > rank(old)) {
                *slot = Some(e);
                let mover = if a.defender_first {
                    a.defender
                } else {
                    a.defender.opponent()
                };
                let mut c = mover;
                lines[!a.defender_first as usize] = a
                    .line
                    .iter()
                    .map(|m| {
                        let mv = m.map_or(Move::Pass, |(x, y)| Move::Play(coord(x, y)));
                        let r = (c, mv);
                        c = c.opponent();
                        r
                    })
                    .collect();
            }
        }
        let [line_def, line_att] = lines;
        Ok(FileProblem {
            name: self.name,
            source: at,
            size,
            stones,
            safe,
            defender,
            to_play: None,
            expect_defender_first: exp_def,
            expect_attacker_first: exp_att,
            line_defender_first: line_def,
            line_attacker_first: line_att,
            correct: Vec::new(),
        })
    }
}

/// Letters of a board coordinate, `A` at the top-left corner.
fn letters(size: usize, c: Coord) -> String {
    let x = (b'A' + c.x) as char;
    let y = (b'A' + (size - 1 - c.y as usize) as u8) as char;
    format!("{x}{y}")
}

/// Writes one problem in GoTools text: stones, safe marks, and one answer
/// line per side moving first (`status`: `l`, `d`, or `l1d`/`d1l` for a
/// ko the defender / the attacker is favoured in; `#` the level-1 leaves).
#[allow(clippy::type_complexity)]
pub fn write_problem(
    name: &str,
    size: usize,
    stones: &[(Coord, Color)],
    safe: &[Coord],
    defender: Color,
    answers: &[(bool, &str, u64, &[(Color, Move)])],
) -> String {
    let mut s = format!("$ {name}\n");
    let mut row = String::new();
    for (i, (c, col)) in stones.iter().enumerate() {
        if i > 0 && i % 16 == 0 {
            s.push_str(&row);
            s.push_str(" \\\n");
            row.clear();
        }
        row.push(if *col == Color::White { '?' } else { 'A' });
        row.push_str(&letters(size, *c));
    }
    for c in safe {
        row.push_str(&format!("[{}]", letters(size, *c)));
    }
    s.push_str(&row);
    s.push('\n');
    let dc = if defender == Color::White { '?' } else { 'A' };
    for (defender_first, status, leaves, line) in answers {
        let moves: String = line
            .iter()
            .map(|(_, m)| match m {
                Move::Pass => "@@".to_string(),
                Move::Play(c) => letters(size, *c),
            })
            .collect();
        s.push_str(&format!(
            "{dc}{}{status}#{leaves} :{moves}:\n",
            if *defender_first { '+' } else { '-' }
        ));
    }
    s
}
