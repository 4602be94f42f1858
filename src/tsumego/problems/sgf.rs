//! SGF and book-JSON problems, read into [`FileProblem`]s.
//!
//! SGF: the setup stones (AB/AW) of the root, the side to move from PL or
//! the first move, and the correct first moves from the root's variations
//! whose comments say "correct" or "right" (case-insensitive). The
//! defender is the colour whose stones are enclosed; the crucial chain is
//! its largest chain.
//!
//! Dependencies: builds on [`super::file`] only.

use sgf_parse::go::{self, Prop};

use super::file::{FileProblem, ProblemError};
use crate::rules::{Color, Coord, Move};

/// Reads an SGF problem.
pub fn parse_sgf(text: &str, source: &str) -> Result<FileProblem, ProblemError> {
    let syntax = |message: String| ProblemError::Syntax {
        at: source.to_string(),
        message,
    };
    let rec = crate::sgf::parse(text).map_err(|e| syntax(format!("{e:?}")))?;
    let mut stones = Vec::new();
    for &(c, col) in &rec.setup {
        stones.retain(|&(d, _)| d != c);
        if let Some(col) = col {
            stones.push((c, col));
        }
    }
    if stones.is_empty() {
        return Err(ProblemError::Setup {
            at: source.to_string(),
            message: "the problem has no setup stones (AB/AW)".into(),
        });
    }
    let trees = go::parse(text).map_err(|e| syntax(e.to_string()))?;
    let root = &trees[0];
    let size = rec.size;
    let mut correct = Vec::new();
    let mut first_mover = None;
    // The problem position is the last node with setup on the main line;
    // its children are the tried first moves.
    let mut node = root;
    while node.get_move().is_none() {
        match node.children().next() {
            Some(c) if c.get_move().is_none() => node = c,
            _ => break,
        }
    }
    for child in node.children() {
        let Some(m) = child.get_move() else { continue };
        let (color, mv) = match m {
            Prop::B(mv) => (Color::Black, mv),
            Prop::W(mv) => (Color::White, mv),
            _ => continue,
        };
        first_mover.get_or_insert(color);
        let mv = match mv {
            go::Move::Pass => Move::Pass,
            go::Move::Move(p) if (p.x as usize) < size && (p.y as usize) < size => {
                Move::Play(Coord::new(p.x, (size - 1 - p.y as usize) as u8))
            }
            go::Move::Move(_) => Move::Pass,
        };
        if variation_says_correct(child, color) {
            correct.push(mv);
        }
    }
    Ok(FileProblem::with_first_moves(
        source,
        size,
        stones,
        rec.to_play.or(first_mover),
        correct,
        false,
    ))
}

/// One book problem in the JSON form of public tsumego collections:
/// `AB`/`AW` (SGF points), `SZ` (size, default 19), `C` ("Black to play"
/// or "White to play") and `SOL` (the correct first moves, each
/// `[colour, point, ...]`). Book problems are open: they are framed.
#[derive(serde::Deserialize)]
#[allow(non_snake_case)]
struct BookJson {
    #[serde(default)]
    AB: Vec<String>,
    #[serde(default)]
    AW: Vec<String>,
    SZ: Option<serde_json::Value>,
    #[serde(default)]
    C: String,
    #[serde(default)]
    SOL: Vec<Vec<String>>,
}

/// Reads a book problem in JSON (the `BookJson` fields).
pub fn parse_book_json(text: &str, source: &str) -> Result<FileProblem, ProblemError> {
    let syntax = |message: String| ProblemError::Syntax {
        at: source.to_string(),
        message,
    };
    let j: BookJson = serde_json::from_str(text).map_err(|e| syntax(e.to_string()))?;
    let size = match &j.SZ {
        None => 19,
        Some(serde_json::Value::Number(n)) => n.as_u64().unwrap_or(0) as usize,
        Some(serde_json::Value::String(s)) => s.trim().parse().unwrap_or(0),
        Some(v) => return Err(syntax(format!("SZ {v}: expected a board size"))),
    };
    if !(crate::rules::point::MIN_SIZE..=crate::rules::point::MAX_SIZE).contains(&size) {
        return Err(syntax(format!(
            "SZ {size}: the board size must be {} to {}",
            crate::rules::point::MIN_SIZE,
            crate::rules::point::MAX_SIZE
        )));
    }
    let point = |t: &str| -> Result<Coord, ProblemError> {
        let b = t.as_bytes();
        let ok = |c: u8| c.is_ascii_lowercase() && ((c - b'a') as usize) < size;
        if b.len() != 2 || !ok(b[0]) || !ok(b[1]) {
            return Err(syntax(format!(
                "'{t}' is not a point of a {size}x{size} board (two letters a-{})",
                (b'a' + size as u8 - 1) as char
            )));
        }
        Ok(Coord::new(
            b[0] - b'a',
            (size - 1 - (b[1] - b'a') as usize) as u8,
        ))
    };
    let mut stones = Vec::new();
    for (list, col) in [(&j.AB, Color::Black), (&j.AW, Color::White)] {
        for t in list {
            let c = point(t)?;
            stones.retain(|&(d, _)| d != c);
            stones.push((c, col));
        }
    }
    if stones.is_empty() {
        return Err(ProblemError::Setup {
            at: source.to_string(),
            message: "the problem has no stones (AB/AW)".into(),
        });
    }
    let colour = |t: &str| match t.trim().to_ascii_uppercase().as_str() {
        "B" => Some(Color::Black),
        "W" => Some(Color::White),
        _ => None,
    };
    let c = j.C.to_lowercase();
    let mut to_play = if c.contains("black to play") {
        Some(Color::Black)
    } else if c.contains("white to play") {
        Some(Color::White)
    } else {
        None
    };
    let mut correct = Vec::new();
    for s in &j.SOL {
        let (Some(col), Some(at)) = (s.first().and_then(|t| colour(t)), s.get(1)) else {
            return Err(syntax(format!(
                "SOL entry {s:?}: expected [\"B\"|\"W\", point, ...]"
            )));
        };
        to_play.get_or_insert(col);
        correct.push(if at.is_empty() || at == "tt" {
            Move::Pass
        } else {
            Move::Play(point(at)?)
        });
    }
    Ok(FileProblem::with_first_moves(
        source, size, stones, to_play, correct, true,
    ))
}

/// True if the variation starting with `first` (a move by `mover`) is
/// marked correct, in the ways problem collections mark solution trees: a
/// correct mark on any node below it (a comment that says correct or
/// right, as goproblems.com marks its solved leaves, or "good for" the
/// mover, `GB`/`GW`), or a tesuji mark (`TE`) on the first move. A wrong
/// mark on the first move itself wins: bad move (`BM`), "good for" the
/// other side, or a comment that says wrong or incorrect.
fn variation_says_correct(first: &sgf_parse::SgfNode<Prop>, mover: Color) -> bool {
    match node_verdict(first, mover, true) {
        Some(v) => v,
        None => first.children().any(|c| subtree_says_correct(c, mover)),
    }
}

/// A correct mark on `node` or below it.
fn subtree_says_correct(node: &sgf_parse::SgfNode<Prop>, mover: Color) -> bool {
    node_verdict(node, mover, false) == Some(true)
        || node.children().any(|c| subtree_says_correct(c, mover))
}

/// What the marks of one node say of the line through it, wrong marks
/// first: `GB`/`GW` and comments always; the move marks `TE` and `BM` only
/// on the `first` move (elsewhere they judge the other side's moves too).
fn node_verdict(node: &sgf_parse::SgfNode<Prop>, mover: Color, first: bool) -> Option<bool> {
    let mut verdict = None;
    for p in node.properties() {
        let v = match p {
            Prop::TE(_) if first => Some(true),
            Prop::BM(_) if first => Some(false),
            Prop::GB(_) => Some(mover == Color::Black),
            Prop::GW(_) => Some(mover == Color::White),
            Prop::C(t) => comment_verdict(&t.text),
            _ => None,
        };
        match v {
            Some(false) => return Some(false),
            Some(true) => verdict = Some(true),
            None => {}
        }
    }
    verdict
}

/// What a solution comment says of its line: `Some(false)` for "wrong",
/// "incorrect", "not correct" or "failure"; `Some(true)` for the word
/// "correct", or "right" as the comment's first word or in capitals
/// anywhere (goproblems.com's `RIGHT`, `sekiRIGHT`); `None` otherwise
/// ("the upper right" is no verdict).
fn comment_verdict(text: &str) -> Option<bool> {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let has = |w: &str| words.contains(&w);
    let not_correct = words.windows(2).any(|p| p == ["not", "correct"]);
    if has("wrong") || has("incorrect") || has("failure") || not_correct {
        return Some(false);
    }
    // goproblems.com writes RIGHT in capitals, often run on ("sekiRIGHT").
    let right = words.first() == Some(&"right") || text.contains("RIGHT");
    (has("correct") || right).then_some(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first moves `parse_sgf` reads as correct from a 9x9 problem with
    /// the given variations.
    fn correct(variations: &str) -> Vec<String> {
        let text = format!("(;GM[1]FF[4]SZ[9]PL[W]AB[ag][bg]AW[ah][bh]{variations})");
        let fp = parse_sgf(&text, "t.sgf").expect("a problem");
        fp.correct.iter().map(|m| m.to_string()).collect()
    }

    #[test]
    fn solution_marks_decide_which_first_moves_are_correct() {
        // Comments, as most collections write them.
        assert_eq!(correct("(;W[bi]C[Correct])(;W[ai]C[Wrong])"), ["B1"]);
        assert_eq!(correct("(;W[bi];B[ai]C[RIGHT])(;W[ai])"), ["B1"]);
        assert_eq!(correct("(;W[bi];B[ai]C[sekiRIGHT])(;W[ai])"), ["B1"]);
        // goproblems.com marks solved leaves, in any branch below.
        assert_eq!(
            correct("(;W[bi](;B[ci];W[di]C[Wrong])(;B[ai];W[ci]C[RIGHT]))(;W[ai])"),
            ["B1"]
        );
        assert_eq!(correct("(;W[bi]C[Right: two eyes])(;W[ai])"), ["B1"]);
        // "Incorrect" and "not correct" say wrong; a direction is no mark.
        assert!(correct("(;W[bi]C[Incorrect])(;W[ai]C[This is not correct])").is_empty());
        assert!(correct("(;W[bi]C[Black plays in the upper right])").is_empty());
        // SGF's move and position marks: TE on the first move, good for
        // the mover anywhere on the line; BM and good for the other side
        // say wrong, and win over a comment.
        assert_eq!(correct("(;W[bi]TE[1])(;W[ai]BM[1])"), ["B1"]);
        assert_eq!(
            correct("(;W[bi];B[ai];W[ci]GW[1])(;W[ai];B[bi]GB[1])"),
            ["B1"]
        );
        assert!(correct("(;W[bi]BM[1]C[Correct])").is_empty());
        assert!(correct("(;W[bi]C[Wrong];B[ai]C[RIGHT])").is_empty());
    }
}
