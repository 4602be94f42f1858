//! `tengen solve`: life-and-death problems from SGF or GoTools files.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};

use clap::Args;
use tengen::rules::{Coord, Move};
use tengen::tsumego::problems::{self, FileProblem, ProblemError, Sides};
use tengen::tsumego::report::{self, Listed, Summary};
use tengen::tsumego::{self as ts, OrderWeights, SolveOptions};

use crate::cmd::{bar, parallel, threads};
use crate::options::EngineArgs;

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
    /// Solve without the static evaluation (eye spaces, the one-chain and
    /// the small-region local games; Benson's test and the walled-in test
    /// stay): for measuring what it gains.
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

/// One problem solved: the problem as the solver saw it, the answers, the
/// file's correct first moves judged, and the check mode's contradictions.
type Solved = (ts::Problem, Sides, Listed, Vec<String>);

pub fn run(engine: &EngineArgs, args: &SolveArgs) -> Result<ExitCode> {
    let weights = engine.load_weights()?;
    let w = OrderWeights::new(&weights);
    let crucial = crucial_vertices(&args.crucial)?;
    let mut list = read_problems(args)?;
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
    let opts = options(args)?;
    let n = list.len();
    let start = Instant::now();
    let progress = bar(n as u64, engine.quiet, "problems");
    let note = |msg: String| match &progress {
        Some(b) => b.println(&msg),
        None => eprintln!("{msg}"),
    };
    let mut sum = Summary::new(args.level);
    let stop = AtomicBool::new(false);
    let out = io::stdout();
    parallel(
        n,
        threads(engine),
        |i| solve_one(&list[i], &w, opts, args),
        |i, r: Result<Solved, ProblemError>| {
            let fp = &list[i];
            let mut lock = out.lock();
            match r {
                Err(e) => {
                    sum.add_error();
                    note(format!("{}: error: {e}", fp.name));
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
                    for contradiction in contradictions {
                        note(format!("{}: CONTRADICTION: {contradiction}", fp.name));
                    }
                    let agrees = sum.add(fp, &prob, &sol, &listed);
                    let line = if args.json {
                        report::problem_json(fp, &prob, &sol, &listed, agrees)
                    } else {
                        report::problem_line(fp, &prob, &sol, &listed, agrees)
                    };
                    let _ = writeln!(lock, "{line}");
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
    let mut lock = io::stdout().lock();
    if args.json {
        let _ = writeln!(lock, "{}", sum.json());
    } else {
        if args.check_statics.is_some() {
            let _ = writeln!(lock, "{}", sum.check_line());
        }
        let _ = writeln!(lock, "{}", sum.line());
    }
    drop(lock);
    if sum.effort.contradictions > 0 {
        eprintln!(
            "tengen: the check mode found {} contradictions (printed above): the static evaluation is wrong on them",
            sum.effort.contradictions
        );
    }
    Ok(if sum.errors > 0 || sum.effort.contradictions > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// `--crucial`: board vertices.
fn crucial_vertices(vertices: &[String]) -> Result<Vec<Coord>> {
    let mut crucial = Vec::new();
    for v in vertices {
        match v.parse::<Move>() {
            Ok(Move::Play(c)) => crucial.push(c),
            _ => bail!("--crucial '{v}': expected board vertices such as C3,D4"),
        }
    }
    Ok(crucial)
}

/// Every problem of the files (the first `--per-file` of each); with
/// `--parse-only`, a line on each file.
fn read_problems(args: &SolveArgs) -> Result<Vec<FileProblem>> {
    let mut list: Vec<FileProblem> = Vec::new();
    for f in &args.files {
        let mut ps = problems::read(f)?;
        if args.parse_only {
            let line = report::parse_line(&f.display().to_string(), &ps);
            let _ = writeln!(io::stdout().lock(), "{line}");
        }
        if let Some(n) = args.per_file {
            ps.truncate(n);
        }
        if ps.is_empty() {
            eprintln!("tengen: warning: {}: no problems", f.display());
        }
        list.extend(ps);
    }
    Ok(list)
}

/// The solver's options from the arguments.
fn options(args: &SolveArgs) -> Result<SolveOptions> {
    if let Some(t) = args.time {
        anyhow::ensure!(
            t.is_finite() && t > 0.0,
            "--time must be a positive number of seconds"
        );
    }
    Ok(SolveOptions {
        level: args.level,
        max_nodes: args.max_nodes,
        time: args.time.map(Duration::from_secs_f64),
        statics: !args.no_statics,
        check: args.check_statics.map(|every| ts::StaticCheck {
            every,
            max_nodes: args.check_nodes,
        }),
    })
}

/// Solves one problem: an open problem with a side to play framed for it,
/// either way round (it lives or kills); otherwise the movers the file
/// answers (or both).
fn solve_one(
    fp: &FileProblem,
    w: &OrderWeights,
    opts: SolveOptions,
    args: &SolveArgs,
) -> Result<Solved, ProblemError> {
    let prob = fp.problem(args.max_region)?;
    let (prob, sol) = match fp.to_play {
        Some(c) if (fp.open || prob.is_open()) && !args.both => {
            match ts::frame::solve_open(&fp.board(), c, w, opts) {
                Ok((prob, a)) => {
                    let d = c == prob.defender;
                    let sides = Sides {
                        defender_first: d.then(|| a.clone()),
                        attacker_first: (!d).then_some(a),
                    };
                    (prob, sides)
                }
                Err(_) => {
                    let sol = fp.solve(&prob, w, opts, args.both);
                    (prob, sol)
                }
            }
        }
        _ => {
            let sol = fp.solve(&prob, w, opts, args.both);
            (prob, sol)
        }
    };
    let listed = fp.check_listed(&prob, &sol, w, opts);
    // The check mode's findings, made on this thread.
    let contradictions = ts::eyes::take_contradictions();
    Ok((prob, sol, listed, contradictions))
}
