//! A problem as a file gives it: [`FileProblem`], its answer lines
//! ([`FileLine`], [`Expect`]), the answers solved for it ([`Sides`]) and
//! the errors of reading one ([`ProblemError`]).
//!
//! Dependencies: the lowest layer of the problem files. The readers,
//! [`super::sgf`] and [`crate::tsumego::gotools`], build these; nothing
//! here reads a file.

use std::path::Path;

use crate::rules::{Board, Color, Coord, Move};
use crate::tsumego::region::{DEFAULT_MAX_REGION, Problem};
use crate::tsumego::{
    Counters, KoType, OrderWeights, OwlResult, Role, SideAnswer, Solution, SolveOptions, Status,
    owl, solve_side,
};

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
            Status::Alive | Status::Seki | Status::Lives => Some(Expect::Lives),
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
    /// An open problem (book JSON): always framed ([`crate::tsumego::frame`]).
    /// Other files are framed only when no closed region is found.
    pub open: bool,
}

impl FileProblem {
    /// A problem given as stones, a side to play and its correct first
    /// moves (SGF, book JSON), named after its file.
    pub(super) fn with_first_moves(
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
            return crate::tsumego::frame::frame_stones(&b).map_err(|e| e.to_string());
        }
        let closed = self.closed_problem(&b, max_region);
        match closed {
            // An SGF problem with no closed region: an open one, framed.
            Err(e) if self.answers.is_empty() && self.crucial.is_empty() => {
                crate::tsumego::frame::frame_stones(&b).map_err(|f| format!("{e}; framing it: {f}"))
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

/// The default region limit for problem files.
pub const FILE_MAX_REGION: usize = DEFAULT_MAX_REGION;
