//! The reports of `tengen solve`: one problem's answers as a JSON object
//! ([`problem_json`]) or a text line ([`problem_line`]), and their
//! agreement with the file's answers (GoTools lines, SGF marks) tallied
//! over a run ([`Summary`]).
//!
//! Dependencies: builds on [`super::problems`] and the solver's answers;
//! nothing in the solver uses it.

use serde::{Deserialize, Serialize};

use super::problems::{Expect, FileProblem, Sides};
use super::{Counters, KoType, OwlResult, Problem, SideAnswer, Status, format_line};
use crate::rules::Move;

/// The file's correct first moves, each with the solver's verdict
/// ([`FileProblem::check_listed`]).
pub type Listed = Vec<(Move, Option<bool>)>;

#[derive(Serialize)]
struct SideJson {
    /// The colour that moves first.
    mover: &'static str,
    status: &'static str,
    code: Option<u8>,
    /// GoTools' status letters about the defender (`l`, `d`, `l1d`, ...).
    gotools: Option<String>,
    /// The result rests on a superko ban.
    superko: bool,
    #[serde(rename = "move")]
    mv: Option<String>,
    line: String,
    /// Leaves counted as GoTools counts them, over every search of the
    /// answer (ko and seki searches included).
    leaves: u64,
    /// GoTools-style leaves under the key move in the search without ko
    /// threats (one answer line's `#`); for a failing mover, under every
    /// first move tried.
    line_leaves: u64,
    /// Every terminal test at expansion (the older count).
    terminals: u64,
    /// Positions ended by the static evaluation.
    statics: u64,
    /// Positions searched by the static evaluation's local games.
    static_work: u64,
    nodes: u64,
    tt_hits: u64,
    ms: f64,
    /// The file's answer for this mover: its best line.
    expected: Option<ExpectedJson>,
    /// Status class (lives, dies, ko) equal to the file's.
    agrees: Option<bool>,
    /// Class and ko type equal to the file's.
    agrees_exactly: Option<bool>,
    /// Our key move is one the file lists as reaching the mover's goal.
    move_listed: Option<bool>,
}

#[derive(Serialize)]
struct ExpectedJson {
    status: String,
    class: &'static str,
    /// GoTools' `#` of its best line.
    effort: u64,
    /// The first moves the file lists as reaching the mover's goal.
    succeeding: Vec<String>,
}

fn side_json(fp: &FileProblem, a: &SideAnswer, defender_first: bool) -> SideJson {
    let expect = fp.expect(defender_first);
    let succeeding = fp.succeeding_moves(defender_first);
    let moves_named = !succeeding.is_empty();
    SideJson {
        mover: a.first.name(),
        status: a.status.name(),
        code: a.owl.result.map(OwlResult::code),
        gotools: Expect::of(a)
            .map(|e| e.letters())
            .or_else(|| a.owl.ko_open.map(KoType::open_letters)),
        superko: a.owl.superko,
        mv: a.owl.mv.map(|m| m.to_string()),
        line: format_line(&a.owl.line),
        leaves: a.counters.leaves,
        line_leaves: a.line_leaves(),
        terminals: a.counters.terminals,
        statics: a.counters.statics,
        static_work: a.counters.static_work,
        nodes: a.counters.nodes,
        tt_hits: a.counters.tt_hits,
        ms: a.elapsed.as_secs_f64() * 1e3,
        expected: expect.map(|e| ExpectedJson {
            status: e.letters(),
            class: e.name(),
            effort: fp.effort(defender_first).unwrap_or(0),
            succeeding: succeeding.iter().map(|m| m.to_string()).collect(),
        }),
        agrees: expect.map(|e| e.agrees(a.status)),
        agrees_exactly: expect.map(|e| e.agrees_exactly(a)),
        move_listed: (moves_named && a.owl.result.is_some_and(OwlResult::succeeds))
            .then(|| a.owl.mv.is_some_and(|m| succeeding.contains(&m))),
    }
}

#[derive(Serialize)]
struct ProblemJson {
    source: String,
    name: String,
    defender: String,
    region: usize,
    /// One stone of each crucial chain, as GoTools letters (column, row
    /// from the top-left corner of the 19x19 board), for placing the
    /// problem on another board.
    crucial: Vec<String>,
    /// Null for a mover not solved (the file gives no answer for it).
    defender_first: Option<SideJson>,
    attacker_first: Option<SideJson>,
    /// SGF: the first moves the file marks correct, and whether each
    /// succeeds (null: could not be judged).
    listed_moves: Vec<ListedJson>,
    agrees: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tally: Option<Summary>,
}

#[derive(Serialize)]
struct ListedJson {
    #[serde(rename = "move")]
    mv: String,
    succeeds: Option<bool>,
}

/// One problem's answers as a JSON object on one line (no newline):
/// `agrees` is what [`Summary::add`] returned for it.
pub fn problem_json(
    fp: &FileProblem,
    prob: &Problem,
    sol: &Sides,
    listed: &Listed,
    agrees: Option<bool>,
) -> String {
    problem_object(fp, prob, sol, listed, agrees, None)
}

/// The JSON object of [`problem_json`] with the problem's own tallies
/// (`"tally"`: a [`Summary`] of this problem alone), as `solve --out`
/// records it so that a resumed run can count it without solving it
/// again.
pub fn problem_record(
    fp: &FileProblem,
    prob: &Problem,
    sol: &Sides,
    listed: &Listed,
    agrees: Option<bool>,
    tally: &Summary,
) -> String {
    problem_object(fp, prob, sol, listed, agrees, Some(tally.clone()))
}

/// The record of a problem that could not be set up (`solve --out`).
pub fn error_record(fp: &FileProblem, error: &str, tally: &Summary) -> String {
    serde_json::to_string(&serde_json::json!({
        "source": fp.source,
        "name": fp.name,
        "error": error,
        "tally": tally,
    }))
    .expect("serialisable")
}

fn problem_object(
    fp: &FileProblem,
    prob: &Problem,
    sol: &Sides,
    listed: &Listed,
    agrees: Option<bool>,
    tally: Option<Summary>,
) -> String {
    let n = prob.board.size() as u8;
    let j = ProblemJson {
        source: fp.source.clone(),
        name: fp.name.clone(),
        defender: prob.defender.name().to_string(),
        region: prob.region.len(),
        crucial: prob
            .crucial_points()
            .iter()
            .map(|&p| {
                let c = prob.board.coord(p);
                format!("{}{}", (b'A' + c.x) as char, (b'A' + (n - 1 - c.y)) as char)
            })
            .collect(),
        defender_first: sol.defender_first.as_ref().map(|a| side_json(fp, a, true)),
        attacker_first: sol.attacker_first.as_ref().map(|a| side_json(fp, a, false)),
        listed_moves: listed
            .iter()
            .map(|&(mv, succeeds)| ListedJson {
                mv: mv.to_string(),
                succeeds,
            })
            .collect(),
        agrees,
        tally,
    };
    serde_json::to_string(&j).expect("serialisable")
}

/// One answer in the text report: the status (GoTools' ko letters for a
/// ko) and, when the mover succeeds, the key move.
pub fn describe(a: &SideAnswer) -> String {
    let status = match (a.status, a.owl.ko, a.owl.ko_open) {
        (Status::Ko(_), Some(k), _) => k.letters(),
        (Status::Ko(_), None, Some(k)) => k.open_letters(),
        (Status::Ko(k), None, None) => format!("ko{}", OwlResult::Ko(k).code()),
        (s, ..) => s.name().to_string(),
    };
    match a.owl.mv {
        Some(m) if a.owl.result.is_some_and(OwlResult::succeeds) => format!("{status} {m}"),
        _ => status,
    }
}

/// The file's correct first moves and the verdict on each, as the tail of
/// a text line (empty when the file marks none).
pub fn listed_text(listed: &Listed) -> String {
    if listed.is_empty() {
        return String::new();
    }
    let each: Vec<String> = listed
        .iter()
        .map(|(m, ok)| {
            format!(
                "{m} {}",
                match ok {
                    Some(true) => "succeeds",
                    Some(false) => "FAILS",
                    None => "unjudged",
                }
            )
        })
        .collect();
    format!(" (listed correct: {})", each.join(", "))
}

/// Solver time of a problem's answers, in milliseconds.
fn solver_ms(sol: &Sides) -> f64 {
    [sol.defender_first.as_ref(), sol.attacker_first.as_ref()]
        .iter()
        .flatten()
        .map(|a| a.elapsed.as_secs_f64() * 1e3)
        .sum()
}

/// One problem's answers as a text line (no newline).
pub fn problem_line(
    fp: &FileProblem,
    prob: &Problem,
    sol: &Sides,
    listed: &Listed,
    agrees: Option<bool>,
) -> String {
    let c = sol.counters();
    format!(
        "{:<10} {} defends. defender first: {:<12} attacker first: {:<12} leaves {:>8} nodes {:>8} tt {:>7} {:>8.1} ms{}{}",
        fp.name,
        prob.defender,
        sol.defender_first.as_ref().map_or("-".into(), describe),
        sol.attacker_first.as_ref().map_or("-".into(), describe),
        c.leaves,
        c.nodes,
        c.tt_hits,
        solver_ms(sol),
        match agrees {
            Some(true) => "  agrees",
            Some(false) => "  DISAGREES",
            None => "",
        },
        listed_text(listed)
    )
}

/// The `--parse-only` line of one file.
pub fn parse_line(file: &str, ps: &[FileProblem]) -> String {
    let lines: usize = ps.iter().map(|p| p.answers.len()).sum();
    let one_mover = ps
        .iter()
        .filter(|p| p.expect(true).is_some() != p.expect(false).is_some())
        .count();
    let marks: usize = ps.iter().map(|p| p.crucial.len()).sum();
    let illegal: usize = ps.iter().map(|p| p.illegal_main_lines().len()).sum();
    format!(
        "{file}: {} problems, {lines} answer lines, {one_mover} answered for one mover only, {marks} crucial marks, {illegal} main lines with an illegal move",
        ps.len()
    )
}

/// The tallies of a run (the JSON summary object: its field names are the
/// keys).
#[derive(Serialize, Deserialize, Default, Debug, Clone, PartialEq)]
#[serde(default)]
pub struct Summary {
    pub problems: usize,
    pub errors: usize,
    pub solved: usize,
    pub unknown: usize,
    pub with_answer: usize,
    pub agreeing: usize,
    /// Answers (one per mover) the file gives.
    pub answers: usize,
    /// ... whose status class we match.
    pub class_agree: usize,
    /// ... whose exact status (with the ko type) we match.
    pub exact_agree: usize,
    /// Answers where we succeed and the file lists succeeding first moves.
    pub moves_judged: usize,
    /// ... where our key move is one of them.
    pub moves_listed: usize,
    /// The solver's effort over every answer (leaves, nodes, static
    /// verdicts, the check mode's tallies), as flat keys.
    #[serde(flatten)]
    pub effort: Counters,
    pub solver_ms: f64,
    pub wall_ms: f64,
    pub level: u8,
}

impl Summary {
    pub fn new(level: u8) -> Summary {
        Summary {
            level,
            ..Summary::default()
        }
    }

    /// Adds the tallies of `o` (another part of the same run): every
    /// count and time; the level stays.
    pub fn merge(&mut self, o: &Summary) {
        self.problems += o.problems;
        self.errors += o.errors;
        self.solved += o.solved;
        self.unknown += o.unknown;
        self.with_answer += o.with_answer;
        self.agreeing += o.agreeing;
        self.answers += o.answers;
        self.class_agree += o.class_agree;
        self.exact_agree += o.exact_agree;
        self.moves_judged += o.moves_judged;
        self.moves_listed += o.moves_listed;
        self.effort += o.effort;
        self.solver_ms += o.solver_ms;
        self.wall_ms += o.wall_ms;
    }

    /// Counts a problem that could not be set up.
    pub fn add_error(&mut self) {
        self.problems += 1;
        self.errors += 1;
    }

    /// Counts a solved problem: its effort, each mover's answer against
    /// the file's, and the problem's agreement, which it returns (`None`:
    /// the file gives no answer; `Some(false)` too when an answer is
    /// unknown).
    pub fn add(
        &mut self,
        fp: &FileProblem,
        prob: &Problem,
        sol: &Sides,
        listed: &Listed,
    ) -> Option<bool> {
        self.problems += 1;
        self.effort += sol.counters();
        for def_first in [true, false] {
            if let (Some(e), Some(a)) = (fp.expect(def_first), sol.get(def_first)) {
                self.add_answer(fp, e, a, def_first);
            }
        }
        self.solver_ms += solver_ms(sol);
        let known = sol.known();
        if known {
            self.solved += 1;
        } else {
            self.unknown += 1;
        }
        let agrees = fp.agrees(prob, sol, listed).map(|a| a && known);
        if let Some(a) = agrees {
            self.with_answer += 1;
            self.agreeing += a as usize;
        }
        agrees
    }

    /// Counts one mover's answer against the file's.
    fn add_answer(&mut self, fp: &FileProblem, e: Expect, a: &SideAnswer, def_first: bool) {
        self.answers += 1;
        self.class_agree += e.agrees(a.status) as usize;
        self.exact_agree += e.agrees_exactly(a) as usize;
        let listed = fp.succeeding_moves(def_first);
        if !listed.is_empty() && a.owl.result.is_some_and(OwlResult::succeeds) {
            self.moves_judged += 1;
            self.moves_listed += a.owl.mv.is_some_and(|m| listed.contains(&m)) as usize;
        }
    }

    /// The JSON summary line: `{"summary":{...}}` (no newline).
    pub fn json(&self) -> String {
        serde_json::to_string(&serde_json::json!({ "summary": self })).expect("serialisable")
    }

    /// The check mode's line (no newline).
    pub fn check_line(&self) -> String {
        format!(
            "check: {} static verdicts checked ({} by the region game, {} by the walled-in test), {} unsettled by the check search, {} contradictions",
            self.effort.checked,
            self.effort.checked_region,
            self.effort.checked_walled_in,
            self.effort.check_unknown,
            self.effort.contradictions
        )
    }

    /// The text summary line (no newline).
    pub fn line(&self) -> String {
        format!(
            "summary: {} problems, {} solved, {} unknown, {} errors; {} with an answer in the file, {} agree; {} answers per mover: class {} agree, exactly (ko type) {}, key move listed {} of {}; leaves {} (terminal tests {}), nodes {}, solver time {:.1} s, wall {:.1} s (level {})",
            self.problems,
            self.solved,
            self.unknown,
            self.errors,
            self.with_answer,
            self.agreeing,
            self.answers,
            self.class_agree,
            self.exact_agree,
            self.moves_listed,
            self.moves_judged,
            self.effort.leaves,
            self.effort.terminals,
            self.effort.nodes,
            self.solver_ms / 1e3,
            self.wall_ms / 1e3,
            self.level
        )
    }
}

#[cfg(test)]
mod tests;
