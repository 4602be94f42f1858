//! `tengen tune`: the command line of the tuner. The run itself (setup,
//! generations, test set, report) is the library's `tune::run`; this file
//! turns the options into a `tune::config::Config` and shows progress.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use parking_lot::Mutex;

use tengen::tune::config::{CompareChoice, Config, FitnessChoice, Setup, list_of};
use tengen::tune::fitness::Formula;
use tengen::tune::run::{self, Observer, Outcome};
use tengen::tune::sample;
use tengen::tune::workers::ThreadWorkers;
use tengen::tune::{Algorithm, Evolution, Mutation, Selection};

use crate::cmd::{bar, stop_on_ctrl_c};
use crate::options::EngineArgs;

/// The static fitness's bonuses per rank (a clap value of its own, so that
/// a bad list is refused while parsing).
#[derive(Clone, Debug)]
pub struct Bonuses(pub Vec<f64>);

fn parse_percent(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.0..=100.0).contains(&x) => Ok(x),
        _ => Err(format!("'{s}' is not a per cent from 0 to 100")),
    }
}

fn parse_bonuses(s: &str) -> Result<Bonuses, String> {
    tengen::tune::config::parse_bonuses(s).map(Bonuses)
}

/// `tengen tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// ga (genetic algorithm), de (adaptive differential evolution) or spsa
    /// (simultaneous perturbation stochastic approximation; match fitness
    /// only: one point, moved by games between pairs of perturbations).
    #[arg(long, value_enum, default_value_t = Algorithm::De)]
    pub algorithm: Algorithm,
    /// Weight groups to tune: static, dynamic, pruning, playout, tree or
    /// all; join several with '+'.
    #[arg(long, default_value = "static+dynamic")]
    pub group: String,
    /// Tune only these weights of the groups, the others keep their
    /// starting values: names separated by commas, each a weight
    /// (`uct_c`), one stage of a staged weight (`prior_line1.opening`) or
    /// a prefix ending in '*' (`prior_*`). `tengen weights --describe`
    /// lists the weights.
    #[arg(long, value_name = "LIST")]
    pub genes: Option<String>,
    /// static (rank of the correct first move), dynamic (level-1 leaves;
    /// for the pruning group: errors and leaves at --level) or match (games).
    #[arg(long, value_enum, default_value_t = FitnessChoice::Dynamic)]
    pub fitness: FitnessChoice,
    /// Dynamic fitness: neg-sum (-sum new), old2-over-new (sum old^2/new),
    /// ratio (sum old/new) or inverse (sum 1/new).
    #[arg(long, value_enum, default_value_t = Formula::NegSum)]
    pub formula: Formula,
    /// Training problems: a folder (read recursively), a problem file, or
    /// a list (`.lst`, one '<file> <id>' a line, as the report writes).
    #[arg(long, value_name = "PATH")]
    pub train: Option<PathBuf>,
    /// Test problems for the report (never used for selection): a folder,
    /// a file or a list. Problems of the training set are left out, and so
    /// are those the untrained weights fail (listed in the report).
    #[arg(long, value_name = "PATH")]
    pub test: Option<PathBuf>,
    /// Train on at most N problems of --train, spread over the difficulty
    /// levels and drawn by --seed (the report lists them in train.lst).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub sample: Option<u64>,
    /// Test on at most N problems of --test, drawn like --sample.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub test_sample: Option<u64>,
    /// The folder of the problem files that a list names (default: the
    /// list's own folder).
    #[arg(long, value_name = "DIR")]
    pub problems: Option<PathBuf>,
    /// Print the training and test lists (after --sample and
    /// --test-sample) and exit without solving.
    #[arg(long)]
    pub list: bool,
    /// Generations after the initial population.
    #[arg(long, default_value_t = 20)]
    pub generations: usize,
    /// Population size (SPSA: pairs of perturbations per generation).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(4..=10000))]
    pub population: u64,
    /// GA: children per generation (default: the population size).
    #[arg(long)]
    pub children: Option<usize>,
    /// Evaluating workers (threads; under mpirun the ranks but rank 0).
    #[arg(long)]
    pub workers: Option<usize>,
    /// The tuned weights file (TOML with a provenance header).
    #[arg(long, default_value = "weights/tuned.toml", value_name = "FILE")]
    pub out: PathBuf,
    /// The checkpoint, written after every evaluation (default: the --out
    /// file with the extension .checkpoint.json).
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Continue from the checkpoint.
    #[arg(long)]
    pub resume: bool,
    /// Report directory: curve.csv, curve.svg, f.svg, test tables, profile
    /// (default: the --out file's name with -report).
    #[arg(long, value_name = "DIR")]
    pub report: Option<PathBuf>,
    /// GA parent selection: roulette or tournament.
    #[arg(long, value_enum, default_value_t = Selection::Tournament)]
    pub selection: Selection,
    /// GA tournament size.
    #[arg(long, default_value_t = 3)]
    pub tournament: usize,
    /// GA: probability that a child is a crossover of two parents.
    #[arg(long, default_value_t = 0.065)]
    pub crossover_rate: f64,
    /// GA: probability that a child is mutated.
    #[arg(long, default_value_t = 0.5)]
    pub mutation_rate: f64,
    /// GA mutation: reset (uniform in range) or gaussian (step of --sigma x range).
    #[arg(long, value_enum, default_value_t = Mutation::Gaussian)]
    pub mutation: Mutation,
    /// GA: the Gaussian step as a share of the range. SPSA: the first
    /// perturbation and step as a share of the range (both shrink with the
    /// generations).
    #[arg(long, default_value_t = 0.1)]
    pub sigma: f64,
    /// DE binomial crossover rate.
    #[arg(long, default_value_t = 0.9)]
    pub cr: f64,
    /// DE: stop when F falls below this (the population has converged).
    #[arg(long)]
    pub f_stop: Option<f64>,
    /// Put the starting weights into the initial population.
    #[arg(long)]
    pub seed_current: bool,
    /// Solver fitness: node limit per side moving first.
    #[arg(long, default_value_t = 300_000)]
    pub max_nodes: u64,
    /// Test set: node limit per side moving first (the solver's default,
    /// so that the test set is what a user's `tengen solve` solves).
    #[arg(long, default_value_t = tengen::tsumego::DEFAULT_MAX_NODES, value_name = "N")]
    pub test_max_nodes: u64,
    /// Pruning fitness: the speed level measured.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(2..=5))]
    pub level: u8,
    /// Pruning fitness: new errors (answers right at level 1, wrong at
    /// --level) allowed without cost, in per cent of the training problems;
    /// beyond it each costs ten times the level-1 leaves. Default by level:
    /// 2: 0.2, 3: 2, 4: 5, 5: 10.
    #[arg(long, value_name = "PERCENT", value_parser = parse_percent)]
    pub error_budget: Option<f64>,
    /// Static fitness: bonuses for the correct move at ranks 1, 2, ...
    #[arg(long, default_value = "20,13,7,3,1", value_parser = parse_bonuses)]
    pub bonuses: Bonuses,
    /// Largest problem region (points).
    #[arg(long, default_value_t = tengen::tsumego::region::DEFAULT_MAX_REGION)]
    pub max_region: usize,
    /// Match fitness: an external GTP engine as the fixed reference (GA;
    /// default: our engine with the starting weights, in process).
    #[arg(long, value_name = "COMMAND")]
    pub opponent: Option<String>,
    /// Match fitness: paired games (colours swapped) per comparison.
    #[arg(long, default_value_t = 2)]
    pub pairs: usize,
    /// Match fitness: DE trials play their parent (duel, the default for
    /// DE), everyone plays the fixed reference (reference, the GA's
    /// default), or members and candidates play a round robin each
    /// generation (round-robin: one point per win; GA or DE).
    #[arg(long, value_enum)]
    pub compare: Option<CompareChoice>,
    /// Match fitness: duels or round-robin pairings re-tested per
    /// generation with other game seeds, to measure how often selection
    /// is decided by noise.
    #[arg(long, default_value_t = 2)]
    pub retest: usize,
    #[arg(long, default_value_t = 9)]
    pub match_size: usize,
    #[arg(long, default_value_t = 7.0)]
    pub match_komi: f64,
    #[arg(long, default_value_t = 300)]
    pub match_playouts: u64,
    #[arg(long, default_value_t = 200)]
    pub match_move_limit: usize,
}

impl TuneArgs {
    /// The library's configuration: these options, the global seed and
    /// the starting weights.
    pub fn config(&self, engine: &EngineArgs) -> Result<Config> {
        Ok(Config {
            algorithm: self.algorithm,
            group: self.group.clone(),
            genes: self.genes.clone(),
            fitness: self.fitness,
            formula: self.formula,
            train: self.train.clone(),
            test: self.test.clone(),
            sample: self.sample,
            test_sample: self.test_sample,
            problems: self.problems.clone(),
            generations: self.generations,
            out: self.out.clone(),
            checkpoint: self.checkpoint.clone(),
            resume: self.resume,
            report: self.report.clone(),
            evolution: Evolution {
                population: self.population as usize,
                children: self.children.unwrap_or(self.population as usize),
                selection: self.selection,
                tournament: self.tournament,
                crossover_rate: self.crossover_rate,
                mutation_rate: self.mutation_rate,
                mutation: self.mutation,
                sigma: self.sigma,
                cr: self.cr,
                seed_current: self.seed_current,
            },
            f_stop: self.f_stop,
            max_nodes: self.max_nodes,
            test_max_nodes: self.test_max_nodes,
            level: self.level,
            error_budget: self.error_budget,
            bonuses: self.bonuses.0.clone(),
            max_region: self.max_region,
            opponent: self.opponent.clone(),
            pairs: self.pairs,
            compare: self.compare,
            retest: self.retest,
            match_size: self.match_size,
            match_komi: self.match_komi,
            match_playouts: self.match_playouts,
            match_move_limit: self.match_move_limit,
            seed: engine.seed,
            base: engine.load_weights()?,
        })
    }

    /// Evaluating workers: --workers, else the number of cores.
    pub fn workers(&self) -> usize {
        self.workers
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
    }
}

/// Progress on a terminal as a bar with ETA; otherwise log lines
/// (`tune: ...`), with a line at every tenth of a long phase.
pub struct Progress {
    quiet: bool,
    /// The log lines' prefix (`tune`).
    prefix: &'static str,
    phase: Mutex<Option<Phase>>,
}

struct Phase {
    what: String,
    len: u64,
    started: Instant,
    bar: Option<indicatif::ProgressBar>,
    logged: u64,
}

impl Progress {
    pub fn new(quiet: bool) -> Progress {
        Progress::with_prefix(quiet, "tune")
    }

    /// Log lines start `prefix: `.
    pub fn with_prefix(quiet: bool, prefix: &'static str) -> Progress {
        Progress {
            quiet,
            prefix,
            phase: Mutex::new(None),
        }
    }
}

impl Observer for Progress {
    fn line(&self, text: &str) {
        if self.quiet {
            return;
        }
        match self.phase.lock().as_ref().and_then(|p| p.bar.as_ref()) {
            Some(b) => b.println(format!("{}: {text}", self.prefix)),
            None => eprintln!("{}: {text}", self.prefix),
        }
    }

    fn phase(&self, what: &str, len: u64, pos: u64) {
        let unit = if what == "generations" {
            "generations"
        } else {
            "problems"
        };
        let b = bar(len, self.quiet, unit);
        if let Some(b) = &b {
            b.set_position(pos);
            b.set_message(what.to_string());
        }
        *self.phase.lock() = Some(Phase {
            what: what.to_string(),
            len,
            started: Instant::now(),
            bar: b,
            logged: pos,
        });
    }

    fn progress(&self, pos: u64, note: Option<String>) {
        let mut guard = self.phase.lock();
        let Some(p) = guard.as_mut() else { return };
        match &p.bar {
            Some(b) => {
                b.set_position(pos);
                if let Some(n) = note {
                    b.set_message(n);
                }
            }
            // Without a terminal: a line at every tenth of a problem pass
            // (generations have their own lines).
            None if !self.quiet && p.what != "generations" => {
                let step = p.len.div_ceil(10).max(1);
                if pos / step > p.logged / step && pos < p.len {
                    p.logged = pos;
                    eprintln!(
                        "{}: {}: {pos}/{} problems, {:.0} s",
                        self.prefix,
                        p.what,
                        p.len,
                        p.started.elapsed().as_secs_f64()
                    );
                }
            }
            None => {}
        }
    }

    fn end_phase(&self) {
        if let Some(p) = self.phase.lock().take()
            && let Some(b) = p.bar
        {
            b.finish_and_clear();
        }
    }
}

/// `--list`: the training and test lists, without solving.
fn print_lists(s: &Setup) -> Result<ExitCode> {
    anyhow::ensure!(
        s.config.fitness != FitnessChoice::Match,
        "--list names problems; match fitness plays games and has none"
    );
    print!("{}", sample::format_list("training", &list_of(&s.train)));
    if s.config.test.is_some() {
        print!(
            "{}",
            sample::format_list(
                "test candidates (the run keeps those the untrained weights solve)",
                &list_of(&s.test_candidates()?)
            )
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints how a run ended; the exit status.
pub fn report(outcome: Outcome) -> ExitCode {
    match outcome {
        Outcome::Stopped {
            checkpoint,
            generations,
            evaluations,
        } => {
            eprintln!(
                "tune: stopped; checkpoint '{}' holds {generations} finished generations and {evaluations} evaluations of the next; continue with --resume",
                checkpoint.display()
            );
            ExitCode::from(130)
        }
        Outcome::Finished {
            summary,
            weights,
            report,
        } => {
            print!("{summary}");
            println!(
                "\nweights: {}\nreport: {}",
                weights.display(),
                report.display()
            );
            ExitCode::SUCCESS
        }
    }
}

pub fn run(engine: &EngineArgs, a: &TuneArgs) -> Result<ExitCode> {
    let s = Setup::new(a.config(engine)?)?;
    if a.list {
        return print_lists(&s);
    }
    let n = a.workers();
    let progress = Progress::new(engine.quiet);
    let state = run::start_state(&s, n, &progress)?;
    let program = std::env::current_exe().context("cannot find the tengen binary")?;
    let mut workers = ThreadWorkers::new(
        s.evaluator(
            state.reference.clone(),
            state.reference_wrong.clone(),
            &program,
        )?,
        n,
    );
    let stop = stop_on_ctrl_c();
    Ok(report(run::drive(
        &s,
        &mut workers,
        state,
        stop,
        &progress,
    )?))
}
