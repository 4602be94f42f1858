//! Problem files: GoTools text and SGF, read into [`FileProblem`]s and
//! turned into closed-boundary [`Problem`]s.
//!
//! SGF: the setup stones (AB/AW) of the root, the side to move from PL or
//! the first move, and the correct first moves from the root's variations
//! whose comments say "correct" or "right" (case-insensitive). The
//! defender is the colour whose stones are enclosed; the crucial chain is
//! its largest chain.

use std::path::Path;

use sgf_parse::go::{self, Prop};

use super::region::{DEFAULT_MAX_REGION, Problem};
use super::{OrderWeights, Role, Solution, SolveOptions, Status, owl};
use crate::rules::{Board, Color, Coord, Move};

/// An expected answer from a problem file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    Lives,
    Dies,
    Ko,
}

impl Expect {
    pub fn name(self) -> &'static str {
        match self {
            Expect::Lives => "lives",
            Expect::Dies => "dies",
            Expect::Ko => "ko",
        }
    }

    /// Does a solver status agree?
    pub fn agrees(self, s: Status) -> bool {
        match self {
            Expect::Lives => s.lives(),
            Expect::Dies => s == Status::Dead,
            Expect::Ko => matches!(s, Status::Ko(_)),
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
    /// Points of chains marked safe (the wall).
    pub safe: Vec<Coord>,
    pub defender: Option<Color>,
    /// SGF: the side to move.
    pub to_play: Option<Color>,
    pub expect_defender_first: Option<Expect>,
    pub expect_attacker_first: Option<Expect>,
    pub line_defender_first: Vec<(Color, Move)>,
    pub line_attacker_first: Vec<(Color, Move)>,
    /// SGF: first moves marked correct.
    pub correct: Vec<Move>,
}

impl FileProblem {
    pub fn board(&self) -> Board {
        let mut b = Board::new(self.size);
        for &(c, col) in &self.stones {
            b.set_stone(c, Some(col));
        }
        b
    }

    /// The closed-boundary problem: defender, region, crucial chain.
    pub fn problem(&self, max_region: usize) -> Result<Problem, String> {
        let b = self.board();
        let safe: Vec<_> = self.safe.iter().map(|&c| b.point(c)).collect();
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
                match Problem::detect(&b, p, &safe, max_region) {
                    Ok(prob) => {
                        // The crucial chain is the region's largest.
                        let at =
                            Problem::largest_defender_chain(&b, &prob.region, def).unwrap_or(p);
                        let prob = Problem::detect(&b, at, &safe, max_region)
                            .map_err(|e| format!("{}: {e}", self.source))?;
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
        s: &Solution,
        w: &OrderWeights,
        opts: SolveOptions,
    ) -> Vec<(Move, Option<bool>)> {
        let Some(me) = self.to_play else {
            return Vec::new();
        };
        let (mine, theirs) = if me == prob.defender {
            (&s.defender_first, Role::Attacker)
        } else {
            (&s.attacker_first, Role::Defender)
        };
        let at = prob.crucial[0];
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
            if board.cell(at).color() != Some(prob.defender) {
                // The first move captured the crucial chain.
                return Some(me != prob.defender);
            }
            let after = Problem::from_region(&board, &prob.region, at).ok()?;
            let reply = owl(&after, w, opts, theirs).code?;
            Some(match mine.owl.code {
                Some(2 | 3) => reply != 1,
                _ => reply == 0,
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
        s: &Solution,
        listed: &[(Move, Option<bool>)],
    ) -> Option<bool> {
        let mut any = false;
        let mut ok = true;
        if let Some(e) = self.expect_defender_first {
            any = true;
            ok &= e.agrees(s.defender_first.status);
        }
        if let Some(e) = self.expect_attacker_first {
            any = true;
            ok &= e.agrees(s.attacker_first.status);
        }
        if let Some(to_play) = self.to_play
            && !self.correct.is_empty()
        {
            any = true;
            let side = if to_play == prob.defender {
                &s.defender_first
            } else {
                &s.attacker_first
            };
            // The side to move must succeed, with every listed move.
            ok &= side.owl.code.is_some_and(|c| c > 0);
            ok &= listed.iter().all(|(_, good)| *good == Some(true));
        }
        any.then_some(ok)
    }
}

/// Reads one problem file: `.sgf` as SGF, anything else as GoTools text.
pub fn read(path: &Path) -> Result<Vec<FileProblem>, String> {
    let text = std::fs::read(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
    let text = String::from_utf8_lossy(&text);
    let source = path.display().to_string();
    let is_sgf = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("sgf"))
        || text.trim_start().starts_with("(;");
    if is_sgf {
        parse_sgf(&text, &source).map(|p| vec![p])
    } else {
        super::gotools::parse(&text, &source)
    }
}

/// Reads an SGF problem.
pub fn parse_sgf(text: &str, source: &str) -> Result<FileProblem, String> {
    let rec = crate::sgf::parse(text).map_err(|e| format!("{source}: {e:?}"))?;
    let mut stones = Vec::new();
    for &(c, col) in &rec.setup {
        stones.retain(|&(d, _)| d != c);
        if let Some(col) = col {
            stones.push((c, col));
        }
    }
    if stones.is_empty() {
        return Err(format!("{source}: the problem has no setup stones (AB/AW)"));
    }
    let trees = go::parse(text).map_err(|e| format!("{source}: {e}"))?;
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
        if variation_says_correct(child) {
            correct.push(mv);
        }
    }
    Ok(FileProblem {
        name: Path::new(source)
            .file_stem()
            .map_or(source.to_string(), |s| s.to_string_lossy().into_owned()),
        source: source.to_string(),
        size,
        stones,
        safe: Vec::new(),
        defender: None,
        to_play: rec.to_play.or(first_mover),
        expect_defender_first: None,
        expect_attacker_first: None,
        line_defender_first: Vec::new(),
        line_attacker_first: Vec::new(),
        correct,
    })
}

/// True if a comment on the variation's main line says correct or right.
fn variation_says_correct(node: &sgf_parse::SgfNode<Prop>) -> bool {
    node.main_variation().any(|n| match n.get_property("C") {
        Some(Prop::C(t)) => {
            let s = t.text.to_lowercase();
            s.contains("correct") || s.contains("right")
        }
        _ => false,
    })
}

/// The default region limit for problem files.
pub const FILE_MAX_REGION: usize = DEFAULT_MAX_REGION;
