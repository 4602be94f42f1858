//! Fitness functions. Every evaluation is a pure function of the job (the
//! genes, and for games the seed), so results do not depend on which
//! worker computed them or in what order.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::genes::GeneSpace;
use crate::rules::Move;
use crate::tsumego::problems::{self, Expect, FileProblem};
use crate::tsumego::{self as ts, OrderWeights, Problem, SolveOptions};
use crate::weights::Weights;

/// What a worker is asked to do.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Job {
    /// The fitness of one gene vector (static, dynamic, pruning, or games
    /// against the fixed reference).
    Score { genes: Vec<f64> },
    /// Paired games of `a` against `b`, colours swapped; the result is
    /// `a`'s share of the points.
    Duel { a: Vec<f64>, b: Vec<f64>, seed: u64 },
}

/// The result of one job.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Eval {
    /// Higher is better.
    pub fitness: f64,
    /// Solver: total terminal leaves. Games: games played.
    pub cost: u64,
    /// Solver: problems whose status disagrees with the file's label or
    /// that hit the node limit. Games: draws.
    pub errors: u64,
}

/// Computes jobs. Implementations are deterministic.
pub trait Evaluator: Send + Sync {
    fn evaluate(&self, job: &Job) -> Eval;
}

/// How dynamic fitness turns leaves into a number (higher is better).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
pub enum Formula {
    /// −Σ tl_new (the default).
    NegSum,
    /// Σ tl_old² / tl_new.
    #[value(name = "old2-over-new")]
    OldSqOverNew,
    /// Σ tl_old / tl_new.
    Ratio,
    /// Σ 1 / tl_new.
    Inverse,
}

impl Formula {
    /// The name on the command line (`--formula`).
    pub fn name(self) -> &'static str {
        match self {
            Formula::NegSum => "neg-sum",
            Formula::OldSqOverNew => "old2-over-new",
            Formula::Ratio => "ratio",
            Formula::Inverse => "inverse",
        }
    }

    /// The raw fitness of leaf counts `new` against the reference `old`.
    pub fn apply(self, old: &[u64], new: &[u64]) -> f64 {
        let pairs = old
            .iter()
            .zip(new)
            .map(|(&o, &n)| (o.max(1) as f64, n.max(1) as f64));
        match self {
            Formula::NegSum => -new.iter().map(|&n| n as f64).sum::<f64>(),
            Formula::OldSqOverNew => pairs.map(|(o, n)| o * o / n).sum(),
            Formula::Ratio => pairs.map(|(o, n)| o / n).sum(),
            Formula::Inverse => new.iter().map(|&n| 1.0 / n.max(1) as f64).sum(),
        }
    }
}

/// One problem of a training or test set.
#[derive(Clone)]
pub struct SetProblem {
    pub name: String,
    /// The file it came from (for the difficulty level: `lvA.B` is level
    /// B of volume A, a generated `lvK` level K).
    pub file: PathBuf,
    pub problem: Problem,
    /// The file's answer per mover (defender first, attacker first).
    pub expect: [Option<Expect>; 2],
    /// The first moves the file lists as reaching the mover's goal, per
    /// mover (defender first, attacker first).
    pub keys: [Vec<Move>; 2],
    /// The movers solved (defender first, attacker first): those the file
    /// answers, as `tengen solve` does ([`FileProblem::movers`]).
    pub movers: [bool; 2],
}

impl SetProblem {
    /// The difficulty level from the file name: B of GoTools' `lvA.B`, K
    /// of a generated `lvK`.
    pub fn bin(&self) -> Option<u32> {
        let rest = self.file.file_name()?.to_str()?.strip_prefix("lv")?;
        let level = rest.split_once('.').map_or(rest, |(_, b)| b);
        level.parse().ok()
    }

    /// The file's name without its folder (how lists name it).
    pub fn file_name(&self) -> String {
        self.file
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
    }

    /// How lists name it.
    pub fn id(&self) -> super::sample::ProblemId {
        super::sample::ProblemId::new(&self.file_name(), &self.name)
    }
}

/// Why a problem set or list cannot be read. The text names the path and
/// what would fix it.
#[derive(Debug, thiserror::Error)]
pub enum SetError {
    #[error("cannot read problem set '{path}': {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Problem(#[from] problems::ProblemError),
    #[error(transparent)]
    List(#[from] super::sample::ListError),
    /// A list names a file that cannot be read where it is looked for.
    #[error(
        "{source} (the list '{list}' names problems of '{file}'; give the folder that holds it with --problems DIR)"
    )]
    ListedFile {
        list: PathBuf,
        file: String,
        #[source]
        source: problems::ProblemError,
    },
    #[error("the list '{list}' names problem {name} of '{file}', which that file does not hold")]
    ListedProblem {
        list: PathBuf,
        name: String,
        file: PathBuf,
    },
    #[error("'{0}' holds no problems")]
    Empty(PathBuf),
}

/// Reads every problem of a directory (recursively, files in name order)
/// or of a single file.
pub fn load_set(path: &Path, max_region: usize) -> Result<Vec<SetProblem>, SetError> {
    let mut files = Vec::new();
    collect(path, &mut files)?;
    let mut out = Vec::new();
    for f in files {
        for fp in problems::read(&f)? {
            out.push(set_problem(&f, &fp, max_region)?);
        }
    }
    if out.is_empty() {
        return Err(SetError::Empty(path.to_path_buf()));
    }
    Ok(out)
}

/// Reads the problems `list` names (a [`super::sample`] list), from the
/// files of the same names in `dir` (default: the list's own folder), in
/// the list's order.
pub fn load_listed(
    list: &Path,
    dir: Option<&Path>,
    max_region: usize,
) -> Result<Vec<SetProblem>, SetError> {
    let text = std::fs::read_to_string(list).map_err(|source| SetError::Io {
        path: list.to_path_buf(),
        source,
    })?;
    let ids = super::sample::parse_list(&text, &list.display().to_string())?;
    let dir = dir.map_or_else(
        || list.parent().unwrap_or(Path::new(".")).to_path_buf(),
        Path::to_path_buf,
    );
    let mut files: std::collections::HashMap<String, Vec<FileProblem>> = Default::default();
    let mut out = Vec::with_capacity(ids.len());
    for id in ids {
        let path = dir.join(&id.file);
        if !files.contains_key(&id.file) {
            let fps = problems::read(&path).map_err(|source| SetError::ListedFile {
                list: list.to_path_buf(),
                file: id.file.clone(),
                source,
            })?;
            files.insert(id.file.clone(), fps);
        }
        let fp = files[&id.file]
            .iter()
            .find(|fp| fp.name == id.name)
            .ok_or_else(|| SetError::ListedProblem {
                list: list.to_path_buf(),
                name: id.name.clone(),
                file: path.clone(),
            })?;
        out.push(set_problem(&path, fp, max_region)?);
    }
    if out.is_empty() {
        return Err(SetError::Empty(list.to_path_buf()));
    }
    Ok(out)
}

/// A problem set from a path: a list file (`.lst`, see
/// [`load_listed`]), a problem file or a folder ([`load_set`]).
pub fn load_any(
    path: &Path,
    dir: Option<&Path>,
    max_region: usize,
) -> Result<Vec<SetProblem>, SetError> {
    if path.extension().is_some_and(|e| e == "lst") {
        load_listed(path, dir, max_region)
    } else {
        load_set(path, max_region)
    }
}

fn collect(path: &Path, out: &mut Vec<PathBuf>) -> Result<(), SetError> {
    let io = |source| SetError::Io {
        path: path.to_path_buf(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if meta.is_file() {
        out.push(path.to_path_buf());
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
        .map_err(io)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| !n.starts_with('.'))
        })
        .collect();
    entries.sort();
    for e in entries {
        collect(&e, out)?;
    }
    Ok(())
}

fn set_problem(file: &Path, fp: &FileProblem, max_region: usize) -> Result<SetProblem, SetError> {
    let problem = fp.problem(max_region)?;
    let keys = |defender_first: bool| {
        fp.succeeding_moves(defender_first)
            .into_iter()
            .filter(|m| matches!(m, Move::Play(_)))
            .collect::<Vec<_>>()
    };
    Ok(SetProblem {
        name: fp.name.clone(),
        file: file.to_path_buf(),
        problem,
        expect: [fp.expect(true), fp.expect(false)],
        keys: [keys(true), keys(false)],
        movers: fp.movers(false),
    })
}

/// The solver's effort and correctness on one problem.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ProblemRun {
    pub leaves: u64,
    /// Status differs from the file's label, or the node limit was hit.
    pub wrong: bool,
}

/// Solves the movers of `p` the file answers ([`SetProblem::movers`]).
/// The leaves are GoTools' count per answer line
/// ([`ts::SideAnswer::line_leaves`]), summed over those movers; the
/// answer is wrong when a status disagrees in class with the file's or a
/// limit was hit.
pub fn run_problem(p: &SetProblem, w: &OrderWeights, opts: SolveOptions) -> ProblemRun {
    let mut run = ProblemRun::default();
    for (i, first) in [p.problem.defender, p.problem.attacker()]
        .into_iter()
        .enumerate()
    {
        if !p.movers[i] {
            continue;
        }
        let a = ts::solve_side(&p.problem, w, opts, first);
        run.leaves += a.line_leaves();
        run.wrong |= matches!(a.status, ts::Status::Unknown)
            || p.expect[i].is_some_and(|e| !e.agrees(a.status));
    }
    run
}

/// The leaves a run counts in the dynamic fitness: its own, or for a
/// wrong or unsolved answer at least `reference` (the reference's leaves
/// on that problem, or more: the node limit), so that no weights gain by
/// failing a problem.
pub fn charged(run: &ProblemRun, reference: u64) -> u64 {
    if run.wrong {
        run.leaves.max(reference)
    } else {
        run.leaves
    }
}

/// Rank bonuses of the static fitness, for ranks 1.. of the correct move.
pub const DEFAULT_BONUSES: [f64; 5] = [20.0, 13.0, 7.0, 3.0, 1.0];

/// The solver fitnesses over a training set.
pub struct SolverFitness {
    pub space: GeneSpace,
    pub set: Vec<SetProblem>,
    pub kind: SolverKind,
    pub max_nodes: u64,
}

#[derive(Clone, Debug)]
pub enum SolverKind {
    /// Rank, under the static order, of the first of the moves the file
    /// lists as succeeding.
    Static { bonuses: Vec<f64> },
    /// Level-1 leaves against the reference leaves; with `charge_limit` a
    /// wrong or unsettled answer costs at least the node limit.
    Dynamic {
        formula: Formula,
        charge_limit: bool,
        reference: Vec<u64>,
    },
    /// Errors and leaves at a speed level (pruning weights). Without a
    /// budget each wrong answer costs as much as all the reference leaves.
    /// With one (per cent of the problems) an error is a problem the
    /// starting weights get right at level 1 and these wrong at the level;
    /// errors up to the budget cost nothing, each beyond it ten times all
    /// the reference leaves.
    Pruning {
        level: u8,
        reference: Vec<u64>,
        budget: Option<f64>,
        /// Which problems the starting weights get wrong at level 1 (from
        /// the reference pass, kept in the checkpoint).
        level1_wrong: Vec<bool>,
    },
}

impl SolverFitness {
    /// Leaves (and wrong answers) per problem for weights `w` at `level`.
    /// One worker runs one evaluation, so the problems run on one thread.
    pub fn runs(&self, w: &Weights, level: u8) -> Vec<ProblemRun> {
        runs_parallel(&self.set, w, level, self.max_nodes, 1)
    }

    /// The static fitness of `w`: Σ over problems and sides with a known
    /// correct move of the bonus for that move's rank.
    pub fn static_score(&self, w: &Weights, bonuses: &[f64]) -> f64 {
        let ow = OrderWeights::new(w);
        let mut total = 0.0;
        for p in &self.set {
            for (side, keys) in p.keys.iter().enumerate() {
                if keys.is_empty() {
                    continue;
                }
                let first = if side == 0 {
                    p.problem.defender
                } else {
                    p.problem.attacker()
                };
                // The rank of the first move the file lists as succeeding.
                let order = ts::root_order(&p.problem, &ow, first);
                if let Some(rank) = order.iter().position(|m| keys.contains(m)) {
                    total += bonuses.get(rank).copied().unwrap_or(0.0);
                }
            }
        }
        total
    }
}

impl Evaluator for SolverFitness {
    fn evaluate(&self, job: &Job) -> Eval {
        let Job::Score { genes } = job else {
            // Solver fitness has no duels; a zero result is never better.
            return Eval {
                fitness: -1e300,
                cost: 0,
                errors: 0,
            };
        };
        let w = self.space.decode(genes);
        match &self.kind {
            SolverKind::Static { bonuses } => Eval {
                fitness: self.static_score(&w, bonuses),
                cost: 0,
                errors: 0,
            },
            SolverKind::Dynamic {
                formula,
                charge_limit,
                reference,
            } => {
                let runs = self.runs(&w, 1);
                let floor = if *charge_limit { self.max_nodes } else { 0 };
                let leaves: Vec<u64> = runs
                    .iter()
                    .zip(reference)
                    .map(|(r, &old)| charged(r, old.max(floor)))
                    .collect();
                Eval {
                    fitness: formula.apply(reference, &leaves),
                    cost: leaves.iter().sum(),
                    errors: runs.iter().filter(|r| r.wrong).count() as u64,
                }
            }
            SolverKind::Pruning {
                level,
                reference,
                budget,
                level1_wrong,
            } => {
                let runs = self.runs(&w, *level);
                let leaves: u64 = runs.iter().map(|r| r.leaves).sum();
                let scale = reference.iter().sum::<u64>().max(1) as f64;
                let Some(budget) = budget else {
                    let errors = runs.iter().filter(|r| r.wrong).count() as u64;
                    return Eval {
                        fitness: -(errors as f64) - leaves as f64 / scale,
                        cost: leaves,
                        errors,
                    };
                };
                let (fitness, errors) =
                    pruning_fitness(&runs, level1_wrong, *budget, leaves, scale);
                Eval {
                    fitness,
                    cost: leaves,
                    errors,
                }
            }
        }
    }
}

/// Pruning fitness with an error budget: the new errors (problems wrong
/// in `runs` and right at level 1, `wrong1`), and the fitness: the leaves
/// over `scale`, negated, less ten for each new error beyond `budget` per
/// cent of the problems level 1 gets right.
pub fn pruning_fitness(
    runs: &[ProblemRun],
    wrong1: &[bool],
    budget: f64,
    leaves: u64,
    scale: f64,
) -> (f64, u64) {
    let judged = wrong1.iter().filter(|w| !**w).count();
    let errors = runs
        .iter()
        .zip(wrong1)
        .filter(|(r, w1)| r.wrong && !**w1)
        .count() as u64;
    let allowed = (budget / 100.0 * judged as f64 + 1e-9).floor() as u64;
    let over = errors.saturating_sub(allowed);
    (-10.0 * over as f64 - leaves as f64 / scale, errors)
}

/// Solves every problem of `set` with `w` at `level`, problems spread
/// over `threads` threads (for references and test sets).
pub fn runs_parallel(
    set: &[SetProblem],
    w: &Weights,
    level: u8,
    max_nodes: u64,
    threads: usize,
) -> Vec<ProblemRun> {
    let mut out = vec![ProblemRun::default(); set.len()];
    let all: Vec<usize> = (0..set.len()).collect();
    runs_each(set, &all, w, level, max_nodes, threads, &mut |i, r| {
        out[i] = r
    });
    out
}

/// Solves the problems of `set` at the indices `todo` on `threads`
/// threads and hands each result, with its index in `set`, to `done` on
/// the calling thread as soon as it is finished.
pub fn runs_each(
    set: &[SetProblem],
    todo: &[usize],
    w: &Weights,
    level: u8,
    max_nodes: u64,
    threads: usize,
    done: &mut dyn FnMut(usize, ProblemRun),
) {
    let ow = OrderWeights::new(w);
    let opts = SolveOptions {
        level,
        max_nodes,
        time: None,
        ..SolveOptions::default()
    };
    let never = std::sync::atomic::AtomicBool::new(false);
    crate::pool::for_each(
        todo.len(),
        threads,
        &never,
        |k| run_problem(&set[todo[k]], &ow, opts),
        |k, r| done(todo[k], r),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_answer_is_charged_at_least_the_floor() {
        let failed = ProblemRun {
            leaves: 5,
            wrong: true,
        };
        assert_eq!(charged(&failed, 100), 100);
        assert_eq!(charged(&failed, 3), 5, "never below its own leaves");
        let right = ProblemRun {
            leaves: 5,
            wrong: false,
        };
        assert_eq!(charged(&right, 300_000), 5);
    }

    #[test]
    fn pruning_errors_within_the_budget_cost_nothing() {
        let run = |wrong| ProblemRun { leaves: 1, wrong };
        // 200 problems, 2 of them wrong at level 1 (never counted).
        let mut wrong1 = vec![false; 200];
        wrong1[0] = true;
        wrong1[1] = true;
        let with = |new_errors: usize| {
            let mut runs: Vec<ProblemRun> = wrong1.iter().map(|&w| run(w)).collect();
            for r in runs.iter_mut().skip(2).take(new_errors) {
                r.wrong = true;
            }
            runs
        };
        // 2% of the 198 judged: 3 allowed.
        let (f, e) = pruning_fitness(&with(3), &wrong1, 2.0, 500, 1000.0);
        assert_eq!(e, 3);
        assert!((f + 0.5).abs() < 1e-12, "{f}");
        let (f, e) = pruning_fitness(&with(5), &wrong1, 2.0, 400, 1000.0);
        assert_eq!(e, 5);
        assert!((f + 20.4).abs() < 1e-12, "two over the budget: {f}");
        // Over the budget loses to within it, whatever the leaves.
        let within = pruning_fitness(&with(3), &wrong1, 2.0, 5000, 1000.0).0;
        assert!(f < within);
        // 0.2% of 198 is 0.396: nothing allowed.
        let (f, _) = pruning_fitness(&with(1), &wrong1, 0.2, 0, 1000.0);
        assert!((f + 10.0).abs() < 1e-12, "{f}");
    }

    #[test]
    fn formulas_on_fixed_numbers() {
        let old = [100, 50];
        let new = [50, 100];
        assert_eq!(Formula::NegSum.apply(&old, &new), -150.0);
        assert_eq!(Formula::OldSqOverNew.apply(&old, &new), 200.0 + 25.0);
        assert_eq!(Formula::Ratio.apply(&old, &new), 2.0 + 0.5);
        assert_eq!(Formula::Inverse.apply(&old, &new), 0.02 + 0.01);
        // name() is the command line's value name.
        use clap::ValueEnum;
        for f in Formula::value_variants() {
            assert_eq!(f.to_possible_value().unwrap().get_name(), f.name());
        }
    }
}
