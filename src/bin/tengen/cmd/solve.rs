//! `tengen solve`: life-and-death problems from SGF or GoTools files.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use serde::Serialize;

use clap::Args;
use tengen::gtp::owl_code;
use tengen::tsumego::problems::Sides;
use tengen::tsumego::problems::{self, Expect, FileProblem};
use tengen::tsumego::{self as ts, OrderWeights, SideAnswer, SolveOptions};

use crate::cli::Cli;
use crate::cmd::{bar, parallel, threads};

/// `tengen solve`: every problem of every file, both sides moving first.
/// The global --threads sets how many problems run at once and --weights
/// the move-ordering weights.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// Problem files: `.sgf` (setup stones, PL, variations marked
    /// Correct/RIGHT) or GoTools text (`$ P1` problems).
    #[arg(required = true, value_name = "FILES")]
    pub files: Vec<PathBuf>,
    /// Speed level: 1 exact, 2-5 faster with forward pruning.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=5))]
    pub level: u8,
    /// Node limit per side moving first; beyond it the answer is unknown.
    #[arg(long, default_value_t = tengen::tsumego::DEFAULT_MAX_NODES, value_name = "N")]
    pub max_nodes: u64,
    /// Time limit per side moving first, in seconds.
    #[arg(long, value_name = "SECS")]
    pub time: Option<f64>,
    /// Largest region (points) accepted for a problem.
    #[arg(long, default_value_t = tengen::tsumego::region::DEFAULT_MAX_REGION)]
    pub max_region: usize,
    /// One JSON object per problem and one for the summary, instead of text.
    #[arg(long)]
    pub json: bool,
    /// Crucial stones for every problem read, as board vertices (C3,D4):
    /// the attacker must capture all of their chains, the defender wins
    /// when one lives. Replaces GoTools' [XY] marks and, for SGF, the
    /// default (the defender's largest chain).
    #[arg(long, value_delimiter = ',', value_name = "VERTICES")]
    pub crucial: Vec<String>,
    /// Read the files and report the problems and answer lines of each,
    /// without solving (a check that every file parses).
    #[arg(long)]
    pub parse_only: bool,
    /// Print each problem as the solver sees it before its answer: the
    /// region in lower case (x black, o white, . empty), outside stones in
    /// upper case (for a framed open problem, the frame), and the exits of
    /// a framed problem as `,`.
    #[arg(long)]
    pub show: bool,
    /// Only the first N problems of each file (a sample across a set).
    #[arg(long, value_name = "N")]
    pub per_file: Option<usize>,
    /// Solve both movers of every problem. By default a problem whose file
    /// answers only one mover (GoTools lists many with White-first lines
    /// only) is solved for that mover alone.
    #[arg(long)]
    pub both: bool,
    /// Solve without the static evaluation (eye spaces and one-chain local
    /// games; Benson's test and the walled-in test stay): for measuring
    /// what it gains.
    #[arg(long)]
    pub no_statics: bool,
    /// Check mode: compare every static verdict whose position key is a
    /// multiple of N (1: all of them) with a search from that position
    /// without the static evaluation. The summary counts the checks and
    /// the contradictions; each contradiction is printed on stderr with
    /// its position, and the exit code is 1 if there is any.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub check_statics: Option<u64>,
    /// Node limit of each check search of --check-statics (beyond it the
    /// check is counted as unsettled).
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    pub check_nodes: u64,
}

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
        code: a.owl.result.map(owl_code),
        gotools: Expect::of(a).map(|e| e.letters()),
        superko: a.owl.superko,
        mv: a.owl.mv.map(|m| m.to_string()),
        line: ts::format_line(&a.owl.line),
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
        move_listed: (moves_named && a.owl.result.is_some_and(ts::OwlResult::succeeds))
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
}

#[derive(Serialize)]
struct ListedJson {
    #[serde(rename = "move")]
    mv: String,
    succeeds: Option<bool>,
}

/// The file's correct first moves, each with our verdict.
type Listed = Vec<(tengen::rules::Move, Option<bool>)>;

fn listed_text(listed: &Listed) -> String {
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

#[derive(Serialize, Default)]
struct SummaryJson {
    problems: usize,
    errors: usize,
    solved: usize,
    unknown: usize,
    with_answer: usize,
    agreeing: usize,
    /// Answers (one per mover) the file gives.
    answers: usize,
    /// ... whose status class we match.
    class_agree: usize,
    /// ... whose exact status (with the ko type) we match.
    exact_agree: usize,
    /// Answers where we succeed and the file lists succeeding first moves.
    moves_judged: usize,
    /// ... where our key move is one of them.
    moves_listed: usize,
    leaves: u64,
    terminals: u64,
    nodes: u64,
    statics: u64,
    static_work: u64,
    /// Check mode: static verdicts checked, left unsettled by the check
    /// search, and contradicted.
    checked: u64,
    check_unknown: u64,
    contradictions: u64,
    solver_ms: f64,
    wall_ms: f64,
    level: u8,
}

fn describe(a: &SideAnswer) -> String {
    let status = match (a.status, a.owl.ko) {
        (ts::Status::Ko(_), Some(k)) => k.letters(),
        (ts::Status::Ko(k), None) => format!("ko{}", owl_code(ts::OwlResult::Ko(k))),
        (s, _) => s.name().to_string(),
    };
    match a.owl.mv {
        Some(m) if a.owl.result.is_some_and(ts::OwlResult::succeeds) => format!("{status} {m}"),
        _ => status,
    }
}

pub fn run(cli: &Cli, args: &SolveArgs) -> Result<ExitCode> {
    let weights = cli.engine.load_weights()?;
    let w = OrderWeights::new(&weights);
    let mut crucial = Vec::new();
    for v in &args.crucial {
        match v.parse::<tengen::rules::Move>() {
            Ok(tengen::rules::Move::Play(c)) => crucial.push(c),
            _ => bail!("--crucial '{v}': expected board vertices such as C3,D4"),
        }
    }
    let mut list: Vec<FileProblem> = Vec::new();
    for f in &args.files {
        let mut ps = problems::read(f)?;
        if args.parse_only {
            let lines: usize = ps.iter().map(|p| p.answers.len()).sum();
            let one_mover = ps
                .iter()
                .filter(|p| p.expect(true).is_some() != p.expect(false).is_some())
                .count();
            let marks: usize = ps.iter().map(|p| p.crucial.len()).sum();
            let illegal: usize = ps.iter().map(|p| p.illegal_main_lines().len()).sum();
            let _ = writeln!(
                io::stdout().lock(),
                "{}: {} problems, {lines} answer lines, {one_mover} answered for one mover only, {marks} crucial marks, {illegal} main lines with an illegal move",
                f.display(),
                ps.len()
            );
        }
        if let Some(n) = args.per_file {
            ps.truncate(n);
        }
        if ps.is_empty() {
            eprintln!("tengen: warning: {}: no problems", f.display());
        }
        list.extend(ps);
    }
    if args.parse_only {
        let _ = writeln!(
            io::stdout().lock(),
            "parsed {} problems in {} files",
            list.len(),
            args.files.len()
        );
        return Ok(ExitCode::SUCCESS);
    }
    if !crucial.is_empty() {
        for fp in &mut list {
            if let Some(c) = crucial.iter().find(|c| !c.on_board(fp.size)) {
                bail!(
                    "--crucial {c} is off the {0}x{0} board of {1}",
                    fp.size,
                    fp.source
                );
            }
            fp.crucial = crucial.clone();
        }
    }
    if let Some(t) = args.time {
        anyhow::ensure!(
            t.is_finite() && t > 0.0,
            "--time must be a positive number of seconds"
        );
    }
    let opts = SolveOptions {
        level: args.level,
        max_nodes: args.max_nodes,
        time: args.time.map(Duration::from_secs_f64),
        statics: !args.no_statics,
        check: args.check_statics.map(|every| ts::StaticCheck {
            every,
            max_nodes: args.check_nodes,
        }),
    };
    let n = list.len();
    let start = Instant::now();
    let progress = bar(n as u64, cli.engine.quiet, "problems");
    let mut sum = SummaryJson {
        level: args.level,
        ..SummaryJson::default()
    };
    let stop = AtomicBool::new(false);
    let max_region = args.max_region;
    let out = io::stdout();
    parallel(
        n,
        threads(cli),
        |i| {
            let fp = &list[i];
            fp.problem(max_region).map(|prob| {
                let (prob, sol) = match fp.to_play {
                    // An open problem: framed for the side to play, either
                    // way round (it lives or kills).
                    Some(c) if (fp.open || prob.is_open()) && !args.both => {
                        match ts::frame::solve_open(&fp.board(), c, &w, opts) {
                            Ok((prob, a)) => {
                                let d = c == prob.defender;
                                let sides = Sides {
                                    defender_first: d.then(|| a.clone()),
                                    attacker_first: (!d).then_some(a),
                                };
                                (prob, sides)
                            }
                            Err(_) => {
                                let sol = fp.solve(&prob, &w, opts, args.both);
                                (prob, sol)
                            }
                        }
                    }
                    _ => {
                        let sol = fp.solve(&prob, &w, opts, args.both);
                        (prob, sol)
                    }
                };
                let listed = fp.check_listed(&prob, &sol, &w, opts);
                // The check mode's findings, made on this thread.
                let contradictions = ts::eyes::take_contradictions();
                (prob, sol, listed, contradictions)
            })
        },
        |i, r: Result<(ts::Problem, Sides, Listed, Vec<String>), problems::ProblemError>| {
            let fp = &list[i];
            sum.problems += 1;
            let mut lock = out.lock();
            match r {
                Err(e) => {
                    sum.errors += 1;
                    let msg = format!("{}: error: {e}", fp.name);
                    match &progress {
                        Some(b) => b.println(&msg),
                        None => eprintln!("{msg}"),
                    }
                }
                Ok((prob, sol, listed, contradictions)) => {
                    if args.show {
                        let _ = writeln!(
                            lock,
                            "{} ({} defends)\n{}",
                            fp.name,
                            prob.defender,
                            prob.render()
                        );
                    }
                    let c = sol.counters();
                    let sides = [sol.defender_first.as_ref(), sol.attacker_first.as_ref()];
                    let ms: f64 = sides
                        .iter()
                        .flatten()
                        .map(|a| a.elapsed.as_secs_f64() * 1e3)
                        .sum();
                    sum.leaves += c.leaves;
                    sum.terminals += c.terminals;
                    sum.nodes += c.nodes;
                    sum.statics += c.statics;
                    sum.static_work += c.static_work;
                    sum.checked += c.checked;
                    sum.check_unknown += c.check_unknown;
                    sum.contradictions += c.contradictions;
                    for contradiction in contradictions {
                        let msg = format!("{}: CONTRADICTION: {contradiction}", fp.name);
                        match &progress {
                            Some(b) => b.println(&msg),
                            None => eprintln!("{msg}"),
                        }
                    }
                    for (a, def_first) in [(sides[0], true), (sides[1], false)] {
                        let (Some(e), Some(a)) = (fp.expect(def_first), a) else {
                            continue;
                        };
                        sum.answers += 1;
                        sum.class_agree += e.agrees(a.status) as usize;
                        sum.exact_agree += e.agrees_exactly(a) as usize;
                        let listed = fp.succeeding_moves(def_first);
                        if !listed.is_empty() && a.owl.result.is_some_and(ts::OwlResult::succeeds) {
                            sum.moves_judged += 1;
                            sum.moves_listed +=
                                a.owl.mv.is_some_and(|m| listed.contains(&m)) as usize;
                        }
                    }
                    sum.solver_ms += ms;
                    let known = sol.known();
                    if known {
                        sum.solved += 1;
                    } else {
                        sum.unknown += 1;
                    }
                    let agrees = if known {
                        fp.agrees(&prob, &sol, &listed)
                    } else {
                        fp.agrees(&prob, &sol, &listed).map(|_| false)
                    };
                    if let Some(a) = agrees {
                        sum.with_answer += 1;
                        sum.agreeing += a as usize;
                    }
                    if args.json {
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
                                    let n = prob.board.size() as u8;
                                    format!(
                                        "{}{}",
                                        (b'A' + c.x) as char,
                                        (b'A' + (n - 1 - c.y)) as char
                                    )
                                })
                                .collect(),
                            defender_first: sides[0].map(|a| side_json(fp, a, true)),
                            attacker_first: sides[1].map(|a| side_json(fp, a, false)),
                            listed_moves: listed
                                .iter()
                                .map(|&(mv, succeeds)| ListedJson {
                                    mv: mv.to_string(),
                                    succeeds,
                                })
                                .collect(),
                            agrees,
                        };
                        let _ =
                            writeln!(lock, "{}", serde_json::to_string(&j).expect("serialisable"));
                    } else {
                        let _ = writeln!(
                            lock,
                            "{:<10} {} defends. defender first: {:<12} attacker first: {:<12} leaves {:>8} nodes {:>8} tt {:>7} {:>8.1} ms{}{}",
                            fp.name,
                            prob.defender,
                            sides[0].map_or("-".into(), describe),
                            sides[1].map_or("-".into(), describe),
                            c.leaves,
                            c.nodes,
                            c.tt_hits,
                            ms,
                            match agrees {
                                Some(true) => "  agrees",
                                Some(false) => "  DISAGREES",
                                None => "",
                            },
                            listed_text(&listed)
                        );
                    }
                }
            }
            if let Some(b) = &progress {
                b.set_position(sum.problems as u64);
            }
        },
        &stop,
    );
    if let Some(b) = progress {
        b.finish_and_clear();
    }
    sum.wall_ms = start.elapsed().as_secs_f64() * 1e3;
    if args.json {
        let _ = writeln!(
            io::stdout().lock(),
            "{}",
            serde_json::to_string(&serde_json::json!({ "summary": sum })).expect("serialisable")
        );
    } else {
        if args.check_statics.is_some() {
            let _ = writeln!(
                io::stdout().lock(),
                "check: {} static verdicts checked, {} unsettled by the check search, {} contradictions",
                sum.checked,
                sum.check_unknown,
                sum.contradictions
            );
        }
        let _ = writeln!(
            io::stdout().lock(),
            "summary: {} problems, {} solved, {} unknown, {} errors; {} with an answer in the file, {} agree; {} answers per mover: class {} agree, exactly (ko type) {}, key move listed {} of {}; leaves {} (terminal tests {}), nodes {}, solver time {:.1} s, wall {:.1} s (level {})",
            sum.problems,
            sum.solved,
            sum.unknown,
            sum.errors,
            sum.with_answer,
            sum.agreeing,
            sum.answers,
            sum.class_agree,
            sum.exact_agree,
            sum.moves_listed,
            sum.moves_judged,
            sum.leaves,
            sum.terminals,
            sum.nodes,
            sum.solver_ms / 1e3,
            sum.wall_ms / 1e3,
            sum.level
        );
    }
    if sum.contradictions > 0 {
        eprintln!(
            "tengen: the check mode found {} contradictions (printed above): the static evaluation is wrong on them",
            sum.contradictions
        );
    }
    Ok(if sum.errors > 0 || sum.contradictions > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
