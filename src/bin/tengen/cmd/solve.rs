//! `tengen solve`: life-and-death problems from SGF or GoTools files.

use std::collections::HashMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};

use clap::Args;
use serde::{Deserialize, Serialize};
use tengen::rules::{Coord, Move};
use tengen::tsumego::problems::{self, FileProblem, ProblemError, Sides};
use tengen::tsumego::report::{self, Listed, Summary};
use tengen::tsumego::{self as ts, OrderWeights, SolveOptions};

use crate::cmd::{bar, parallel_staged, threads};
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
    /// Time limit per side moving first, in seconds. With it the local
    /// games of the static evaluation run when the search visits a
    /// position, not on every child at expansion: more answers within the
    /// time, with more nodes (docs/tsumego.md)
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
    /// without it: a verdict of the static evaluation with a search
    /// without the static evaluation, a kill of the walled-in test with
    /// two searches without the walled-in test (each side moving first).
    /// The summary counts the checks and the contradictions; each
    /// contradiction is printed on stderr with its position, and the exit
    /// code is 1 if there is any.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub check_statics: Option<u64>,
    /// Node limit of each check search of --check-statics (beyond it the
    /// check is counted as unsettled).
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    pub check_nodes: u64,
    /// The repetition rule. `superko` (positional superko, our rules): a
    /// move that recreates an earlier position is illegal, so a ko cannot
    /// be retaken after a pass. `simple-ko` (as GoTools' files read): only
    /// the immediate recapture of a ko is banned, and a move of either side
    /// that recreates a whole state of the line (stones, side to move, ko
    /// ban, a pass just made) is the defender's win (the attacker has not
    /// killed). Under simple-ko the static kills (walled-in, no room, the
    /// local games' kills) and the forced-move rule are off, so the search
    /// is slower; JSON `superko` then marks results that rest on a cycle.
    /// Solving a problem both ways tells results that depend on the rule
    /// apart.
    #[arg(long, value_enum, default_value_t = ts::Repetition::Superko)]
    pub repetition: ts::Repetition,
    /// Record every answer in FILE (JSON lines, each with its tallies) as
    /// soon as it is found, and resume from it: problems FILE already
    /// holds are not solved again, and the summary counts them. FILE's
    /// first line records the options; resuming with other options is an
    /// error. A run stopped by Ctrl-C or kill loses only the problems
    /// being solved at the time.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// The options that shape the answers, as the first line of an `--out`
/// file: a run resumes only with the same ones.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct RunOptions {
    level: u8,
    max_nodes: u64,
    time: Option<f64>,
    max_region: usize,
    both: bool,
    statics: bool,
    check_statics: Option<u64>,
    check_nodes: u64,
    /// Absent from files written before the option: superko.
    #[serde(default)]
    repetition: ts::Repetition,
    crucial: Vec<String>,
    /// The `--weights` file (null: the built-in defaults).
    weights: Option<String>,
}

/// The options that differ between a file's run and this one, as
/// `key FILE's value, now this one`.
fn differences(file: &RunOptions, now: &RunOptions) -> String {
    let (a, b) = (serde_json::json!(file), serde_json::json!(now));
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        return String::new();
    };
    a.iter()
        .filter(|(k, v)| b.get(*k) != Some(*v))
        .map(|(k, v)| {
            format!(
                "{k} {v} in the file, now {}",
                b.get(k).unwrap_or(&serde_json::Value::Null)
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

impl RunOptions {
    fn new(engine: &EngineArgs, args: &SolveArgs) -> RunOptions {
        RunOptions {
            level: args.level,
            max_nodes: args.max_nodes,
            time: args.time,
            max_region: args.max_region,
            both: args.both,
            statics: !args.no_statics,
            check_statics: args.check_statics,
            check_nodes: args.check_nodes,
            repetition: args.repetition,
            crucial: args.crucial.clone(),
            weights: engine.weights.as_ref().map(|w| w.display().to_string()),
        }
    }
}

/// An `--out` file: appended to, one flushed line per problem.
struct OutFile {
    path: PathBuf,
    file: std::fs::File,
    /// The tallies of the problems it held when the run started, by
    /// source.
    done: HashMap<String, Summary>,
}

impl OutFile {
    /// Opens `path` for this run: a new file gets the options line; an
    /// existing one must have been written with the same options, and a
    /// last line cut short by a kill is dropped.
    fn open(path: &Path, run: &RunOptions) -> Result<OutFile> {
        use std::fs::OpenOptions;
        let name = path.display();
        let text = match std::fs::read(path) {
            Ok(bytes) => String::from_utf8(bytes)
                .map_err(|_| anyhow::anyhow!("--out {name}: not a text file"))?,
            Err(e) if e.kind() == io::ErrorKind::NotFound => String::new(),
            Err(e) => bail!("--out {name}: cannot read it: {e}"),
        };
        let mut done = HashMap::new();
        // The complete lines; a tail without its newline was cut short.
        let complete = text.rfind('\n').map_or(0, |i| i + 1);
        if complete < text.len() {
            eprintln!(
                "tengen: {name}: dropped an unfinished last line (the run that wrote it was stopped while writing)"
            );
        }
        let mut lines = text[..complete].lines();
        match lines.next() {
            None => {}
            Some(first) => {
                let found = serde_json::from_str::<serde_json::Value>(first)
                    .ok()
                    .and_then(|v| v.get("run").cloned())
                    .and_then(|r| serde_json::from_value::<RunOptions>(r).ok());
                match found {
                    None => bail!(
                        "--out {name}: its first line is not the options line of `tengen solve --out`; give a new file or one that run wrote"
                    ),
                    Some(r) if r != *run => bail!(
                        "--out {name} was written with other options ({}); resume with the same options, or give another file",
                        differences(&r, run)
                    ),
                    Some(_) => {}
                }
            }
        }
        for (i, line) in lines.enumerate() {
            let bad = || {
                anyhow::anyhow!(
                    "--out {name}, line {}: not a problem record of `tengen solve --out`",
                    i + 2
                )
            };
            let v: serde_json::Value = serde_json::from_str(line).map_err(|_| bad())?;
            let source = v.get("source").and_then(|s| s.as_str()).ok_or_else(bad)?;
            let tally: Summary = v
                .get("tally")
                .cloned()
                .and_then(|t| serde_json::from_value(t).ok())
                .ok_or_else(bad)?;
            done.insert(source.to_string(), tally);
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| anyhow::anyhow!("--out {name}: cannot write it: {e}"))?;
        file.set_len(complete as u64)
            .map_err(|e| anyhow::anyhow!("--out {name}: cannot write it: {e}"))?;
        let mut out = OutFile {
            path: path.to_path_buf(),
            file,
            done,
        };
        if complete == 0 {
            let head = serde_json::json!({ "run": run });
            out.write(&head.to_string())?;
        }
        Ok(out)
    }

    /// Appends one line and flushes it to the disk.
    fn write(&mut self, line: &str) -> Result<()> {
        let r = writeln!(self.file, "{line}").and_then(|()| self.file.sync_data());
        r.map_err(|e| anyhow::anyhow!("--out {}: cannot write it: {e}", self.path.display()))
    }
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
    let mut outfile = match &args.out {
        Some(path) => Some(OutFile::open(path, &RunOptions::new(engine, args))?),
        None => None,
    };
    // The problems the --out file already answers are counted, not solved.
    let mut sum = Summary::new(args.level);
    let mut todo = Vec::new();
    for (i, fp) in list.iter().enumerate() {
        match outfile.as_mut().and_then(|o| o.done.remove(&fp.source)) {
            Some(tally) => sum.merge(&tally),
            None => todo.push(i),
        }
    }
    if let Some(o) = &outfile {
        let name = o.path.display();
        if sum.problems > 0 {
            eprintln!(
                "tengen: {name} answers {} of the {n} problems; solving the other {}",
                sum.problems,
                todo.len()
            );
        }
        if !o.done.is_empty() {
            eprintln!(
                "tengen: {name}: {} of its problems are not among the ones given; the summary leaves them out",
                o.done.len()
            );
        }
    }
    let m = todo.len();
    let resumed = sum.clone();
    let start = Instant::now();
    let progress = bar(m as u64, engine.quiet, "problems");
    let note = |msg: String| match &progress {
        Some(b) => b.println(&msg),
        None => eprintln!("{msg}"),
    };
    let stop = AtomicBool::new(false);
    let out = io::stdout();
    // Each answer is tallied, rendered and recorded (--out) as soon as it
    // is found, and printed in the order of the files.
    let mut completed = 0;
    let mut write_error = None;
    let mut last_log = Instant::now();
    parallel_staged(
        m,
        threads(engine),
        |k| solve_one(&list[todo[k]], &w, opts, args),
        |k, r: Result<Solved, ProblemError>| {
            let f = finish(&list[todo[k]], r, args, outfile.is_some());
            if let (Some(o), Some(record)) = (outfile.as_mut(), &f.record)
                && write_error.is_none()
                && let Err(e) = o.write(record)
            {
                write_error = Some(e);
                stop.store(true, std::sync::atomic::Ordering::SeqCst);
            }
            sum.merge(&f.tally);
            completed += 1;
            if let Some(b) = &progress {
                b.set_position(completed as u64);
            } else if !engine.quiet && last_log.elapsed() >= LOG_EVERY && completed < m {
                last_log = Instant::now();
                eprintln!(
                    "{}",
                    log_line(completed, m, &sum, &resumed, start.elapsed())
                );
            }
            f
        },
        |_, f| {
            for msg in f.notes {
                note(msg);
            }
            if let Some(text) = f.text {
                let _ = writeln!(out.lock(), "{text}");
            }
        },
        &stop,
    );
    if let Some(e) = write_error {
        return Err(e);
    }
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

/// How often a run without a progress bar logs its progress on stderr.
const LOG_EVERY: Duration = Duration::from_secs(60);

/// A plain progress line for a log: this run's problems done, its unknown
/// answers and errors so far (`resumed`: the tallies read from `--out`),
/// elapsed time and the time left at this pace.
fn log_line(done: usize, of: usize, sum: &Summary, resumed: &Summary, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    let left = secs / done.max(1) as f64 * (of - done) as f64;
    let hms = |t: f64| {
        let t = t.round() as u64;
        format!("{}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60)
    };
    format!(
        "tengen solve: {done}/{of} problems, {} unknown, {} errors, {} elapsed, ETA {}",
        sum.unknown - resumed.unknown,
        sum.errors - resumed.errors,
        hms(secs),
        hms(left)
    )
}

/// One problem's outcome, ready to print: its report (text or JSON), the
/// messages for stderr, its tallies and, for `--out`, its record.
struct Finished {
    text: Option<String>,
    notes: Vec<String>,
    tally: Summary,
    record: Option<String>,
}

fn finish(
    fp: &FileProblem,
    r: Result<Solved, ProblemError>,
    args: &SolveArgs,
    record: bool,
) -> Finished {
    let mut tally = Summary::new(args.level);
    match r {
        Err(e) => {
            tally.add_error();
            let record = record.then(|| report::error_record(fp, &e.to_string(), &tally));
            Finished {
                text: None,
                notes: vec![format!("{}: error: {e}", fp.name)],
                tally,
                record,
            }
        }
        Ok((prob, sol, listed, contradictions)) => {
            let agrees = tally.add(fp, &prob, &sol, &listed);
            let mut text = String::new();
            if args.show {
                text = format!(
                    "{} ({} defends)\n{}\n",
                    fp.name,
                    prob.defender,
                    prob.render()
                );
            }
            text += &if args.json {
                report::problem_json(fp, &prob, &sol, &listed, agrees)
            } else {
                report::problem_line(fp, &prob, &sol, &listed, agrees)
            };
            let record =
                record.then(|| report::problem_record(fp, &prob, &sol, &listed, agrees, &tally));
            Finished {
                text: Some(text),
                notes: contradictions
                    .into_iter()
                    .map(|c| format!("{}: CONTRADICTION: {c}", fp.name))
                    .collect(),
                tally,
                record,
            }
        }
    }
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
        repetition: args.repetition,
        threats: None,
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
