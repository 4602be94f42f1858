//! Problem files: GoTools text and SGF, read into [`FileProblem`]s and
//! turned into closed-boundary [`Problem`]s.
//!
//! SGF: the setup stones (AB/AW) of the root, the side to move from PL or
//! the first move, and the correct first moves from the root's variations
//! whose comments say "correct" or "right" (case-insensitive). The
//! defender is the colour whose stones are enclosed; the crucial chain is
//! its largest chain.

/// Why a problem file, or one of its problems, cannot be used. The text
/// names the file (and for GoTools text the line) and what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum ProblemError {
    #[error("cannot read '{path}': {source}")]
    Read {
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A GoTools line or an SGF record that does not parse.
    #[error("{at}: {message}")]
    Syntax { at: String, message: String },
    /// A problem that parses but cannot be set up: no stones, a mark on
    /// the wrong colour, no closed region.
    #[error("{at}: {message}")]
    Setup { at: String, message: String },
}

use std::path::Path;

use sgf_parse::go::{self, Prop};

use super::region::{DEFAULT_MAX_REGION, Problem};
use super::{
    Counters, KoType, OrderWeights, OwlResult, Role, SideAnswer, Solution, SolveOptions, Status,
    owl, solve_side,
};
use crate::rules::{Board, Color, Coord, Move};

/// An expected answer from a problem file, about the defender.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    Lives,
    Dies,
    Ko(KoType),
}

impl Expect {
    /// The class: `lives`, `dies` or `ko`.
    pub fn name(self) -> &'static str {
        match self {
            Expect::Lives => "lives",
            Expect::Dies => "dies",
            Expect::Ko(_) => "ko",
        }
    }

    /// GoTools' letters: `l`, `d`, `l1d`, `d2l`, ...
    pub fn letters(self) -> String {
        match self {
            Expect::Lives => "l".into(),
            Expect::Dies => "d".into(),
            Expect::Ko(k) => k.letters(),
        }
    }

    /// Does a solver status agree in class (lives, dies, ko)?
    pub fn agrees(self, s: Status) -> bool {
        match self {
            Expect::Lives => s.lives(),
            Expect::Dies => s == Status::Dead,
            Expect::Ko(_) => matches!(s, Status::Ko(_)),
        }
    }

    /// Does a solver answer agree exactly (class, and the ko type for a
    /// ko)?
    pub fn agrees_exactly(self, a: &SideAnswer) -> bool {
        match self {
            Expect::Ko(k) => a.owl.ko == Some(k),
            e => e.agrees(a.status),
        }
    }

    /// The expectation that matches a solver answer (`None` for unknown).
    pub fn of(a: &SideAnswer) -> Option<Expect> {
        match a.status {
            Status::Alive | Status::Seki => Some(Expect::Lives),
            Status::Dead => Some(Expect::Dies),
            Status::Ko(_) => a.owl.ko.map(Expect::Ko),
            Status::Unknown => None,
        }
    }
}

/// One answer line of a GoTools problem.
#[derive(Clone, Debug)]
pub struct FileLine {
    /// The colour that moves first.
    pub mover: Color,
    /// The line reaches the mover's goal (`+`).
    pub success: bool,
    /// The status of the defender (White) at the end of the line.
    pub expect: Expect,
    /// GoTools' effort `#`: terminal leaves of this line's search.
    pub effort: u64,
    /// The main line, from the mover.
    pub line: Vec<(Color, Move)>,
}

/// The answers solved for one problem; a mover may be left out.
#[derive(Clone, Debug)]
pub struct Sides {
    pub defender_first: Option<SideAnswer>,
    pub attacker_first: Option<SideAnswer>,
}

impl Sides {
    pub fn get(&self, defender_first: bool) -> Option<&SideAnswer> {
        if defender_first {
            self.defender_first.as_ref()
        } else {
            self.attacker_first.as_ref()
        }
    }

    /// Effort over the movers solved.
    pub fn counters(&self) -> Counters {
        let mut c = Counters::default();
        for a in [&self.defender_first, &self.attacker_first]
            .into_iter()
            .flatten()
        {
            c += a.counters;
        }
        c
    }

    /// Every mover solved got an answer.
    pub fn known(&self) -> bool {
        [&self.defender_first, &self.attacker_first]
            .into_iter()
            .flatten()
            .all(|a| a.status != Status::Unknown)
    }
}

impl From<Solution> for Sides {
    fn from(s: Solution) -> Sides {
        Sides {
            defender_first: Some(s.defender_first),
            attacker_first: Some(s.attacker_first),
        }
    }
}

/// A problem as read from a file.
#[derive(Clone, Debug)]
pub struct FileProblem {
    pub name: String,
    /// File, line and name, for messages.
    pub source: String,
    pub size: usize,
    pub stones: Vec<(Coord, Color)>,
    /// Points of attacker chains that are wall whatever their liberties.
    pub safe: Vec<Coord>,
    /// One stone of each crucial chain (GoTools' `[XY]` marks). Empty: the
    /// defender's largest chain is crucial.
    pub crucial: Vec<Coord>,
    pub defender: Option<Color>,
    /// SGF: the side to move.
    pub to_play: Option<Color>,
    /// GoTools: the answer lines, in file order (best first per mover).
    pub answers: Vec<FileLine>,
    /// SGF and book JSON: first moves marked correct.
    pub correct: Vec<Move>,
    /// An open problem (book JSON): always framed ([`super::frame`]).
    /// Other files are framed only when no closed region is found.
    pub open: bool,
}

impl FileProblem {
    /// A problem given as stones, a side to play and its correct first
    /// moves (SGF, book JSON), named after its file.
    fn with_first_moves(
        source: &str,
        size: usize,
        stones: Vec<(Coord, Color)>,
        to_play: Option<Color>,
        correct: Vec<Move>,
        open: bool,
    ) -> FileProblem {
        FileProblem {
            name: Path::new(source)
                .file_stem()
                .map_or(source.to_string(), |s| s.to_string_lossy().into_owned()),
            source: source.to_string(),
            size,
            stones,
            safe: Vec::new(),
            crucial: Vec::new(),
            defender: None,
            to_play,
            answers: Vec::new(),
            correct,
            open,
        }
    }

    /// The colour that moves first when the defender does (or not).
    fn mover(&self, defender_first: bool) -> Option<Color> {
        self.defender
            .map(|d| if defender_first { d } else { d.opponent() })
    }

    /// The answer lines of one mover, best first.
    pub fn lines_for(&self, defender_first: bool) -> impl Iterator<Item = &FileLine> {
        let m = self.mover(defender_first);
        self.answers.iter().filter(move |a| Some(a.mover) == m)
    }

    /// The file's answer with the defender (or the attacker) moving first:
    /// its best line's status. `None` when the file has no line for it.
    pub fn expect(&self, defender_first: bool) -> Option<Expect> {
        self.lines_for(defender_first).next().map(|l| l.expect)
    }

    /// The first moves the file lists as reaching the mover's goal.
    pub fn succeeding_moves(&self, defender_first: bool) -> Vec<Move> {
        self.lines_for(defender_first)
            .filter(|l| l.success)
            .filter_map(|l| l.line.first().map(|m| m.1))
            .collect()
    }

    /// The movers to solve: `[defender first, attacker first]`. With
    /// `all`, or when the file answers neither, both; otherwise those the
    /// file answers (an answer the file does not give is not invented).
    pub fn movers(&self, all: bool) -> [bool; 2] {
        let has = [self.expect(true).is_some(), self.expect(false).is_some()];
        if all || has == [false, false] {
            [true, true]
        } else {
            has
        }
    }

    /// Solves the movers [`FileProblem::movers`] names.
    pub fn solve(&self, prob: &Problem, w: &OrderWeights, opts: SolveOptions, all: bool) -> Sides {
        let [d, a] = self.movers(all);
        Sides {
            defender_first: d.then(|| solve_side(prob, w, opts, prob.defender)),
            attacker_first: a.then(|| solve_side(prob, w, opts, prob.attacker())),
        }
    }

    /// The answer lines whose main line does not replay legally from the
    /// problem's position (by index into `answers`). Ko lines leave out
    /// the threats, so a recapture right after a capture is let through.
    pub fn illegal_main_lines(&self) -> Vec<usize> {
        let mut bad = Vec::new();
        for (i, l) in self.answers.iter().enumerate() {
            let mut b = self.board();
            for &(c, m) in &l.line {
                match m {
                    Move::Pass => b.pass(),
                    Move::Play(at) => {
                        let p = b.point(at);
                        if b.play(p, c).is_err() {
                            // A ko recapture whose threats the line omits.
                            let mut t = b.clone();
                            t.pass();
                            if t.play(p, c).is_err() {
                                bad.push(i);
                                break;
                            }
                            b = t;
                        }
                    }
                }
            }
        }
        bad
    }

    /// GoTools' effort `#` of the mover's best line.
    pub fn effort(&self, defender_first: bool) -> Option<u64> {
        self.lines_for(defender_first).next().map(|l| l.effort)
    }

    pub fn board(&self) -> Board {
        let mut b = Board::new(self.size);
        for &(c, col) in &self.stones {
            b.set_stone(c, Some(col));
        }
        b
    }

    /// The closed-boundary problem: defender, region, crucial chain.
    pub fn problem(&self, max_region: usize) -> Result<Problem, ProblemError> {
        self.problem_in(max_region)
            .map_err(|message| ProblemError::Setup {
                at: self.source.clone(),
                message,
            })
    }

    fn problem_in(&self, max_region: usize) -> Result<Problem, String> {
        let b = self.board();
        if self.open {
            return super::frame::frame_stones(&b).map_err(|e| e.to_string());
        }
        let closed = self.closed_problem(&b, max_region);
        match closed {
            // An SGF problem with no closed region: an open one, framed.
            Err(e) if self.answers.is_empty() && self.crucial.is_empty() => {
                super::frame::frame_stones(&b).map_err(|f| format!("{e}; framing it: {f}"))
            }
            r => r,
        }
    }

    fn closed_problem(&self, b: &Board, max_region: usize) -> Result<Problem, String> {
        let safe: Vec<_> = self.safe.iter().map(|&c| b.point(c)).collect();
        if !self.crucial.is_empty() {
            let at: Vec<_> = self.crucial.iter().map(|&c| b.point(c)).collect();
            return Problem::detect_chains(b, &at, &safe, max_region).map_err(|e| e.to_string());
        }
        let candidates: Vec<Color> = match self.defender {
            Some(c) => vec![c],
            None => Color::BOTH.to_vec(),
        };
        let mut best: Option<Problem> = None;
        let mut last_err = String::new();
        for def in candidates {
            // Try the defender's chains, largest first.
            let mut chains: Vec<(usize, crate::rules::Point)> = Vec::new();
            for &(c, col) in &self.stones {
                let p = b.point(c);
                if col == def
                    && !chains
                        .iter()
                        .any(|&(_, q)| b.chain_head(q) == b.chain_head(p))
                {
                    chains.push((b.chain_len(p), p));
                }
            }
            chains.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            for (_, p) in chains {
                match Problem::detect(b, p, &safe, max_region) {
                    Ok(prob) => {
                        // The crucial chain is the region's largest.
                        let at = Problem::largest_defender_chain(b, &prob.region, def).unwrap_or(p);
                        let prob =
                            Problem::detect(b, at, &safe, max_region).map_err(|e| e.to_string())?;
                        if best
                            .as_ref()
                            .is_none_or(|q| prob.region.len() < q.region.len())
                        {
                            best = Some(prob);
                        }
                        break;
                    }
                    Err(e) => last_err = e.to_string(),
                }
            }
        }
        best.ok_or_else(|| {
            if last_err.is_empty() {
                format!("{}: no defender stones", self.source)
            } else {
                format!("{}: {last_err}", self.source)
            }
        })
    }

    /// SGF: does each first move the file marks correct succeed? The move
    /// is played, then the opponent moves first; the move succeeds when
    /// the opponent then fails (or, where our own answer for the side to
    /// move is a ko, when the opponent cannot do better than a ko).
    /// `None` for a move that cannot be judged (outside the region, or
    /// unknown at the node limit).
    pub fn check_listed(
        &self,
        prob: &Problem,
        s: &Sides,
        w: &OrderWeights,
        opts: SolveOptions,
    ) -> Vec<(Move, Option<bool>)> {
        let Some(me) = self.to_play else {
            return Vec::new();
        };
        let theirs = if me == prob.defender {
            Role::Attacker
        } else {
            Role::Defender
        };
        let Some(mine) = s.get(me == prob.defender) else {
            return Vec::new();
        };
        let at = prob.crucial_points();
        let judge = |mv: Move| -> Option<bool> {
            let mut board = prob.board.clone();
            match mv {
                Move::Pass => board.pass(),
                Move::Play(c) => {
                    let p = board.point(c);
                    if !prob.in_region(p) {
                        return None;
                    }
                    if board.play(p, me).is_err() {
                        return Some(false);
                    }
                }
            }
            let left: Vec<_> = (0..prob.crucial.len())
                .filter(|&i| prob.chain_on_board(&board, i))
                .map(|i| at[i])
                .collect();
            if left.is_empty() {
                // The first move captured every crucial chain.
                return Some(me != prob.defender);
            }
            let mut after = if prob.is_open() {
                Problem::exact_region(&board, &prob.region, &left).ok()?
            } else {
                Problem::from_region_chains(&board, &prob.region, &left).ok()?
            };
            after.escape = prob.escape.clone();
            let reply = owl(&after, w, opts, theirs).result?;
            Some(match mine.owl.result {
                // Our result was a ko: the reply may not win outright.
                Some(OwlResult::Ko(_)) => reply != OwlResult::Succeeds,
                _ => reply == OwlResult::Fails,
            })
        };
        self.correct.iter().map(|&m| (m, judge(m))).collect()
    }

    /// Does our solution agree with the file's answers? `None` when the
    /// file gives none. `listed` is [`FileProblem::check_listed`]: every
    /// move the file marks correct must succeed too.
    pub fn agrees(
        &self,
        prob: &Problem,
        s: &Sides,
        listed: &[(Move, Option<bool>)],
    ) -> Option<bool> {
        let mut any = false;
        let mut ok = true;
        for defender_first in [true, false] {
            if let Some(e) = self.expect(defender_first) {
                any = true;
                ok &= s.get(defender_first).is_some_and(|a| e.agrees(a.status));
            }
        }
        if let Some(to_play) = self.to_play
            && !self.correct.is_empty()
        {
            any = true;
            // The side to move must succeed, with every listed move.
            ok &= s
                .get(to_play == prob.defender)
                .is_some_and(|a| a.owl.result.is_some_and(OwlResult::succeeds));
            ok &= listed.iter().all(|(_, good)| *good == Some(true));
        }
        any.then_some(ok)
    }
}

/// Reads one problem file: `.sgf` as SGF, anything else as GoTools text.
pub fn read(path: &Path) -> Result<Vec<FileProblem>, ProblemError> {
    let text = std::fs::read(path).map_err(|source| ProblemError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let text = String::from_utf8_lossy(&text);
    let source = path.display().to_string();
    let is_sgf = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("sgf"))
        || text.trim_start().starts_with("(;");
    let is_json = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    if is_json {
        parse_book_json(&text, &source).map(|p| vec![p])
    } else if is_sgf {
        parse_sgf(&text, &source).map(|p| vec![p])
    } else {
        super::gotools::parse(&text, &source)
    }
}

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

/// The default region limit for problem files.
pub const FILE_MAX_REGION: usize = DEFAULT_MAX_REGION;

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
