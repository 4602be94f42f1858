//! `tengen tune`: the command-line edge of the tuner (src/tune/). It reads
//! the problem sets, builds the fitness, runs generations on workers with
//! a checkpoint after each, and writes the weights file and the report.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::{Context, Result, bail};

use tengen::matchplay::EngineCommand;
use tengen::tune::fitness::{
    self, Evaluator, Formula, SetProblem, SolverFitness, SolverKind, runs_parallel,
};
use tengen::tune::games::{GameFitness, Reference};
use tengen::tune::genes::{GeneSpace, parse_groups};
use tengen::tune::report::{self, TestRow};
use tengen::tune::sample;
use tengen::tune::workers::{ThreadWorkers, Workers};
use tengen::tune::{Algorithm, Compare, Mutation, Selection, Settings, State, Step, Tuner};
use tengen::weights::{Group, Weights};

use crate::cli::{Cli, TuneArgs};
use crate::solve_cmd::bar;

static STOP: AtomicBool = AtomicBool::new(false);

/// What the fitness needs, built the same way on every MPI rank.
pub(crate) struct Setup {
    pub space: GeneSpace,
    pub settings: Settings,
    pub train: Vec<SetProblem>,
    pub kind: Kind,
    pub formula: Formula,
    pub bonuses: Vec<f64>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Static,
    Dynamic,
    Pruning,
    Match,
}

fn workers_default(a: &TuneArgs) -> usize {
    a.workers
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

pub(crate) fn setup(cli: &Cli, a: &TuneArgs) -> Result<Setup> {
    let groups = parse_groups(&a.group).map_err(anyhow::Error::msg)?;
    let base = cli.engine.load_weights()?;
    let space = GeneSpace::new(&groups, base);
    if space.is_empty() {
        bail!("--group {}: no weights to tune", a.group);
    }
    let solver_groups = groups
        .iter()
        .all(|g| matches!(g, Group::Static | Group::Dynamic | Group::Pruning));
    let kind = match a.fitness.as_str() {
        "static" => Kind::Static,
        "match" => Kind::Match,
        _ if groups == [Group::Pruning] => Kind::Pruning,
        _ => Kind::Dynamic,
    };
    if kind != Kind::Match && !solver_groups {
        bail!(
            "--group {}: playout and tree weights are tuned by games; use --fitness match",
            a.group
        );
    }
    if kind == Kind::Dynamic && groups.contains(&Group::Pruning) {
        bail!(
            "--group {}: pruning weights do not change level-1 leaves; tune them alone (--group pruning)",
            a.group
        );
    }
    let algorithm = if a.algorithm == "ga" {
        Algorithm::Ga
    } else {
        Algorithm::De
    };
    let compare = match (kind, a.compare.as_deref(), algorithm) {
        (Kind::Match, Some("duel"), Algorithm::Ga) => {
            bail!(
                "--compare duel is DE's trial-against-parent duel; for the GA use --compare reference or round-robin"
            )
        }
        (Kind::Match, Some("duel"), _) | (Kind::Match, None, Algorithm::De) => Compare::Duel,
        (Kind::Match, Some("round-robin"), _) => Compare::RoundRobin,
        (Kind::Match, _, _) => Compare::Score,
        (_, Some(c), _) => {
            bail!("--compare {c} is for --fitness match; solver fitness is an absolute score")
        }
        (_, None, _) => Compare::Score,
    };
    if kind == Kind::Match && compare != Compare::Score && a.opponent.is_some() {
        bail!(
            "--opponent is the fixed reference of --compare reference; duels and round robins are between candidates"
        );
    }
    if !(0.0..=1.0).contains(&a.crossover_rate) || !(0.0..=1.0).contains(&a.mutation_rate) {
        bail!("--crossover-rate and --mutation-rate are probabilities (0 to 1)");
    }
    if !(0.0..=1.0).contains(&a.cr) {
        bail!("--cr is a probability (0 to 1)");
    }
    let formula = Formula::parse(&a.formula).map_err(anyhow::Error::msg)?;
    let bonuses = bonuses(a)?;
    let mut train = Vec::new();
    let data = if kind == Kind::Match {
        format!(
            "games {}x{} komi {} playouts {} pairs {} move limit {} opponent {}",
            a.match_size,
            a.match_size,
            a.match_komi,
            a.match_playouts,
            a.pairs,
            a.match_move_limit,
            match compare {
                Compare::RoundRobin => "none (round robin)",
                _ => a.opponent.as_deref().unwrap_or("starting weights"),
            }
        )
    } else {
        let Some(dir) = &a.train else {
            bail!("--train PATH is required for --fitness {}", a.fitness);
        };
        train = fitness::load_any(dir, a.problems.as_deref(), a.max_region)
            .map_err(anyhow::Error::msg)?;
        if let Some(n) = a.sample {
            train = draw(train, n as usize, cli.engine.seed);
        }
        let names: String = train
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>()
            .join(",");
        format!(
            "{} problems from {}{} (names hash {:016x}), max nodes {}, level {}",
            train.len(),
            dir.display(),
            a.sample.map_or(String::new(), |n| format!(
                " (sample of at most {n}, seed {})",
                cli.engine.seed
            )),
            tengen::rules::zobrist::mix64(
                names
                    .bytes()
                    .fold(0u64, |h, b| { h.rotate_left(5) ^ b as u64 })
            ),
            a.max_nodes,
            if kind == Kind::Pruning { a.level } else { 1 }
        )
    };
    let settings = Settings {
        algorithm,
        group: a.group.clone(),
        fitness: match kind {
            Kind::Static => format!("static (bonuses {})", a.bonuses),
            Kind::Dynamic => format!("dynamic ({})", a.formula),
            Kind::Pruning => format!("pruning (errors + leaves at level {})", a.level),
            Kind::Match => "match".to_string(),
        },
        compare,
        population: a.population as usize,
        children: a.children.unwrap_or(a.population as usize).max(1),
        seed: cli.engine.seed,
        selection: if a.selection == "roulette" {
            Selection::Roulette
        } else {
            Selection::Tournament
        },
        tournament: a.tournament.max(1),
        crossover_rate: a.crossover_rate,
        mutation_rate: a.mutation_rate,
        mutation: if a.mutation == "reset" {
            Mutation::Reset
        } else {
            Mutation::Gaussian
        },
        sigma: a.sigma,
        cr: a.cr,
        seed_current: a.seed_current,
        retest: if matches!(compare, Compare::Duel | Compare::RoundRobin) {
            a.retest
        } else {
            0
        },
        data,
    };
    Ok(Setup {
        space,
        settings,
        train,
        kind,
        formula,
        bonuses,
    })
}

/// At most `n` problems of `set`, spread over its difficulty levels and
/// drawn by `seed` ([`sample::stratified`]), in the set's order.
fn draw(set: Vec<SetProblem>, n: usize, seed: u64) -> Vec<SetProblem> {
    let ids: Vec<_> = set.iter().map(SetProblem::id).collect();
    let levels: Vec<_> = set.iter().map(SetProblem::bin).collect();
    let keep: HashSet<usize> = sample::stratified(&ids, &levels, n, seed)
        .into_iter()
        .collect();
    set.into_iter()
        .enumerate()
        .filter(|(i, _)| keep.contains(i))
        .map(|(_, p)| p)
        .collect()
}

/// The test set before the untrained weights' filter: --test without the
/// training problems, sampled by --test-sample.
pub(crate) fn test_candidates(cli: &Cli, a: &TuneArgs, s: &Setup) -> Result<Vec<SetProblem>> {
    let Some(test) = &a.test else {
        return Ok(Vec::new());
    };
    let train: HashSet<_> = s.train.iter().map(SetProblem::id).collect();
    let set: Vec<SetProblem> = fitness::load_any(test, a.problems.as_deref(), a.max_region)
        .map_err(anyhow::Error::msg)?
        .into_iter()
        .filter(|p| !train.contains(&p.id()))
        .collect();
    if set.is_empty() {
        bail!(
            "--test {}: no problems left once the training problems are taken out",
            test.display()
        );
    }
    // Another stream of the seed than the training sample's.
    Ok(match a.test_sample {
        Some(n) => draw(set, n as usize, cli.engine.seed ^ 0x7e57),
        None => set,
    })
}

fn list_of(set: &[SetProblem]) -> Vec<sample::ProblemId> {
    set.iter().map(SetProblem::id).collect()
}

fn bonuses(a: &TuneArgs) -> Result<Vec<f64>> {
    a.bonuses
        .split(',')
        .map(|s| {
            s.trim()
                .parse::<f64>()
                .map_err(|_| anyhow::anyhow!("--bonuses: '{s}' is not a number (e.g. 20,13,7,3,1)"))
        })
        .collect()
}

/// The fitness of a run. `reference` is the per-problem leaves of the
/// untrained (dynamic) or starting (pruning) weights.
pub(crate) fn evaluator(
    a: &TuneArgs,
    s: &Setup,
    reference: Vec<u64>,
) -> Result<Arc<dyn Evaluator>> {
    Ok(match s.kind {
        Kind::Match => Arc::new(GameFitness {
            space: s.space.clone(),
            reference: match &a.opponent {
                Some(cmd) => Reference::External(
                    EngineCommand::parse(cmd).context("--opponent: the command line is empty")?,
                ),
                None => Reference::Weights(Box::new(s.space.base.clone())),
            },
            size: a.match_size,
            komi: a.match_komi,
            playouts: a.match_playouts,
            pairs: a.pairs.max(1),
            move_limit: a.match_move_limit,
            seed: s.settings.seed,
            program: std::env::current_exe().context("cannot find the tengen binary")?,
            tmp: std::env::temp_dir(),
        }),
        kind => Arc::new(SolverFitness {
            space: s.space.clone(),
            set: s.train.clone(),
            kind: match kind {
                Kind::Static => SolverKind::Static {
                    bonuses: s.bonuses.clone(),
                },
                Kind::Pruning => SolverKind::Pruning {
                    level: a.level,
                    reference,
                },
                _ => SolverKind::Dynamic {
                    formula: s.formula,
                    reference,
                },
            },
            max_nodes: a.max_nodes,
        }),
    })
}

/// The checkpoint file: `--checkpoint`, or `--out` with the extension
/// `.checkpoint.json`.
fn checkpoint_path(a: &TuneArgs) -> PathBuf {
    a.checkpoint
        .clone()
        .unwrap_or_else(|| a.out.with_extension("checkpoint.json"))
}

fn default_report(out: &Path) -> PathBuf {
    let stem = out
        .file_stem()
        .map_or("tuned".into(), |s| s.to_string_lossy().to_string());
    out.with_file_name(format!("{stem}-report"))
}

/// `--list`: the training and test lists, without solving.
fn print_lists(cli: &Cli, a: &TuneArgs) -> Result<ExitCode> {
    if a.fitness == "match" {
        bail!("--list names problems; match fitness plays games and has none");
    }
    let s = setup(cli, a)?;
    print!("{}", sample::format_list("training", &list_of(&s.train)));
    if a.test.is_some() {
        let test = test_candidates(cli, a, &s)?;
        print!(
            "{}",
            sample::format_list(
                "test candidates (the run keeps those the untrained weights solve)",
                &list_of(&test)
            )
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn now() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

pub fn run_tune(cli: &Cli, a: &TuneArgs) -> Result<ExitCode> {
    if a.list {
        return print_lists(cli, a);
    }
    #[cfg(feature = "mpi")]
    {
        if let Some(code) = crate::tune_mpi::run(cli, a)? {
            return Ok(code);
        }
    }
    let n = workers_default(a);
    let s = setup(cli, a)?;
    let state = start_state(cli, a, &s, n)?;
    let mut workers = ThreadWorkers::new(evaluator(a, &s, state.reference.clone())?, n);
    drive(cli, a, &s, &mut workers, state)
}

/// The run's state: the checkpoint when resuming (checked against the
/// settings), else a new state with the reference leaves solved on
/// `threads` threads (untrained weights for dynamic fitness, the starting
/// weights for pruning fitness).
pub(crate) fn start_state(cli: &Cli, a: &TuneArgs, s: &Setup, threads: usize) -> Result<State> {
    let ck = checkpoint_path(a);
    if a.resume {
        if !ck.exists() {
            bail!(
                "--resume: checkpoint '{}' does not exist (start without --resume)",
                ck.display()
            );
        }
        let st = State::load(&ck)?;
        st.check(&s.settings, &s.space, &ck)?;
        log(
            cli,
            &format!(
                "resuming '{}' after generation {} ({} evaluations)",
                ck.display(),
                st.done.saturating_sub(1),
                st.evaluations
            ),
        );
        return Ok(st);
    }
    if ck.exists() {
        bail!(
            "checkpoint '{}' exists: continue it with --resume, or remove it to start afresh",
            ck.display()
        );
    }
    let reference_weights = match s.kind {
        Kind::Dynamic => Some(("untrained (all-zero)", s.space.decode(&s.space.zero()))),
        Kind::Pruning => Some(("starting", s.space.base.clone())),
        Kind::Static | Kind::Match => None,
    };
    let mut reference = Vec::new();
    if let Some((what, w)) = reference_weights {
        let t = Instant::now();
        log(
            cli,
            &format!(
                "reference: solving {} training problems with the {what} weights",
                s.train.len()
            ),
        );
        reference = runs_parallel(&s.train, &w, 1, a.max_nodes, threads)
            .iter()
            .map(|r| r.leaves)
            .collect();
        log(
            cli,
            &format!(
                "reference: {} leaves in {:.1} s",
                reference.iter().sum::<u64>(),
                t.elapsed().as_secs_f64()
            ),
        );
    }
    Ok(State::new(s.settings.clone(), &s.space, reference))
}

fn log(cli: &Cli, line: &str) {
    if !cli.engine.quiet {
        eprintln!("tune: {line}");
    }
}

/// The master loop: generations, checkpoints, output and report.
pub(crate) fn drive(
    cli: &Cli,
    a: &TuneArgs,
    s: &Setup,
    workers: &mut dyn Workers,
    state: State,
) -> Result<ExitCode> {
    let ck = checkpoint_path(a);
    if let Some(dir) = ck.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| {
            format!("cannot create the checkpoint directory '{}'", dir.display())
        })?;
    }
    let mut tuner = Tuner {
        space: s.space.clone(),
        state,
    };
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    let total = a.generations + 1;
    let progress = bar(total as u64, cli.engine.quiet, "generations");
    if let Some(b) = &progress {
        b.set_position(tuner.state.done.min(total) as u64);
    }
    let started = Instant::now();
    let mut stopped = false;
    while tuner.state.done < total {
        let g = tuner.state.done;
        let res = tuner.step(workers, &STOP, &mut |done, jobs| {
            if let Some(b) = &progress {
                b.set_message(format!("generation {g}: {done}/{jobs} evaluations"));
            }
        });
        match res {
            Step::Done(h) => {
                tuner.state.save(&ck)?;
                let line = format!(
                    "generation {:>3}: best {:.6} mean {:.6}{} evaluations {} replaced {}{} ({:.1} s)",
                    h.generation,
                    h.best,
                    h.mean,
                    h.f.map_or(String::new(), |f| format!(" F {f:.4}")),
                    h.evaluations,
                    h.replaced,
                    if h.retests > 0 {
                        format!(" retests {} flips {}", h.retests, h.flips)
                    } else {
                        String::new()
                    },
                    h.seconds
                );
                match &progress {
                    Some(b) => {
                        b.set_position(tuner.state.done as u64);
                        b.println(line);
                    }
                    None => log(cli, &line),
                }
                if let (Some(stop), Some(f)) = (a.f_stop, h.f)
                    && f < stop
                {
                    log(
                        cli,
                        &format!("F {f:.4} < --f-stop {stop}: the population has converged"),
                    );
                    break;
                }
            }
            Step::Interrupted => {
                tuner.state.save(&ck)?;
                stopped = true;
                break;
            }
        }
        if STOP.load(Ordering::SeqCst) {
            stopped = true;
            break;
        }
    }
    if let Some(b) = &progress {
        b.finish_and_clear();
    }
    if stopped {
        let kept = tuner
            .state
            .partial
            .as_ref()
            .map_or(0, |p| p.results.iter().filter(|r| r.is_some()).count());
        eprintln!(
            "tune: stopped; checkpoint '{}' holds {} finished generations and {kept} evaluations of the next; continue with --resume",
            ck.display(),
            tuner.state.done
        );
        return Ok(ExitCode::from(130));
    }
    finish(
        cli,
        a,
        s,
        &tuner,
        workers.count(),
        started.elapsed().as_secs_f64(),
    )
}

/// How match candidates were compared, for the report and provenance.
fn compare_note(c: Compare) -> &'static str {
    match c {
        Compare::Score => "",
        Compare::Duel => " (duels: trial against parent)",
        Compare::RoundRobin => " (round robin each generation; fitness is the share of its points)",
    }
}

fn finish(
    cli: &Cli,
    a: &TuneArgs,
    s: &Setup,
    tuner: &Tuner,
    threads: usize,
    seconds: f64,
) -> Result<ExitCode> {
    let st = &tuner.state;
    let best = st.best().context("the population is empty")?;
    let tuned = s.space.decode(&best.genes);
    let report_dir = a.report.clone().unwrap_or_else(|| default_report(&a.out));
    std::fs::create_dir_all(&report_dir).with_context(|| {
        format!(
            "cannot create the report directory '{}'",
            report_dir.display()
        )
    })?;
    let mut summary = String::new();
    let _ = writeln!(summary, "# tengen tune report\n");
    let _ = writeln!(
        summary,
        "- algorithm: {:?}; group: {}; fitness: {}{}\n- population {}, generations finished {} (including the initial one), evaluations {}\n- data: {}\n- seed {}; {}; tengen {} (git {})\n- best fitness {:.6}",
        st.settings.algorithm,
        st.settings.group,
        st.settings.fitness,
        compare_note(st.settings.compare),
        st.settings.population,
        st.done,
        st.evaluations,
        st.settings.data,
        st.settings.seed,
        now(),
        env!("CARGO_PKG_VERSION"),
        env!("TENGEN_GIT_REV"),
        best.fitness
    );
    if let Some(last) = st.history.last().and_then(|h| h.f) {
        let verdict = if last < 0.05 {
            "the population converged"
        } else if last > 0.5 {
            "F is still large: no good region was found; run longer or narrow the group"
        } else {
            "the population is still spread"
        };
        let _ = writeln!(summary, "- final DE scale factor F {last:.4}: {verdict}");
    }
    if st.settings.retest > 0 {
        let r: usize = st.history.iter().map(|h| h.retests).sum();
        let f: usize = st.history.iter().map(|h| h.flips).sum();
        let _ = writeln!(
            summary,
            "- noise: {f} of {r} re-tested game decisions (duels or pairings) came out the other way ({:.0}%)",
            if r > 0 {
                100.0 * f as f64 / r as f64
            } else {
                0.0
            }
        );
    }
    if s.kind == Kind::Static {
        let _ = writeln!(
            summary,
            "- static fitness ranks moves by the board alone; it is known to generalise badly, so judge the weights by their test-set leaves (--test)"
        );
    }
    std::fs::write(report_dir.join("curve.csv"), report::curve_csv(&st.history))?;
    report::plot_curve(
        &report_dir.join("curve"),
        &st.history,
        &format!(
            "{:?} on {} ({})",
            st.settings.algorithm, st.settings.group, st.settings.fitness
        ),
    )?;
    if st.settings.algorithm == Algorithm::De {
        report::plot_f(&report_dir.join("f"), &st.history)?;
    }
    std::fs::write(
        report_dir.join("train.lst"),
        sample::format_list("training", &list_of(&s.train)),
    )?;
    let mut headline = String::new();
    if let (Some(test), true) = (&a.test, s.kind != Kind::Match) {
        let candidates = test_candidates(cli, a, s)?;
        let level = if s.kind == Kind::Pruning { a.level } else { 1 };
        let zero = s.space.decode(&s.space.zero());
        log(
            cli,
            &format!(
                "test set: {} problems from {} (training problems left out)",
                candidates.len(),
                test.display()
            ),
        );
        let runs = |set: &[SetProblem], w: &Weights, what: &str| {
            let bar = bar(set.len() as u64, cli.engine.quiet, "problems");
            if let Some(b) = &bar {
                b.set_message(format!("test set, {what} weights"));
            }
            let t = Instant::now();
            // Without a terminal: a log line at every tenth of the set.
            let done = std::sync::atomic::AtomicUsize::new(0);
            let step = set.len().div_ceil(10).max(1);
            let r = fitness::runs_parallel_with(set, w, level, a.test_max_nodes, threads, &|| {
                let n = done.fetch_add(1, Ordering::SeqCst) + 1;
                match &bar {
                    Some(b) => b.inc(1),
                    None if n.is_multiple_of(step) && n < set.len() => log(
                        cli,
                        &format!(
                            "test set, {what} weights: {n}/{} problems, {:.0} s",
                            set.len(),
                            t.elapsed().as_secs_f64()
                        ),
                    ),
                    None => {}
                }
            });
            if let Some(b) = bar {
                b.finish_and_clear();
            }
            log(
                cli,
                &format!(
                    "test set, {what} weights: {} leaves, {} wrong or unsolved, {:.1} s",
                    r.iter().map(|x| x.leaves).sum::<u64>(),
                    r.iter().filter(|x| x.wrong).count(),
                    t.elapsed().as_secs_f64()
                ),
            );
            r
        };
        // The test set is what the untrained weights solve: the others
        // measure the node limit, not the ordering.
        let all0 = runs(&candidates, &zero, "untrained");
        let (mut set, mut r0, mut failed) = (Vec::new(), Vec::new(), Vec::new());
        for (p, r) in candidates.into_iter().zip(all0) {
            if r.wrong {
                failed.push(p.id());
            } else {
                set.push(p);
                r0.push(r);
            }
        }
        std::fs::write(
            report_dir.join("test.lst"),
            sample::format_list("test (solved by the untrained weights)", &list_of(&set)),
        )?;
        std::fs::write(
            report_dir.join("test-failed-untrained.lst"),
            sample::format_list(
                "test candidates the untrained weights fail (left out)",
                &failed,
            ),
        )?;
        if set.is_empty() {
            bail!(
                "--test {}: the untrained weights solve none of its problems within --test-max-nodes {}",
                test.display(),
                a.test_max_nodes
            );
        }
        let r1 = runs(&set, &s.space.base, "starting");
        let r2 = runs(&set, &tuned, "tuned");
        let rows: Vec<TestRow> = set
            .iter()
            .enumerate()
            .map(|(i, p)| TestRow {
                name: p.name.clone(),
                bin: p.bin(),
                reference: r0[i].leaves,
                start: r1[i].leaves,
                tuned: r2[i].leaves,
                wrong: [r0[i].wrong, r1[i].wrong, r2[i].wrong],
            })
            .collect();
        let sum = |r: &[fitness::ProblemRun]| r.iter().map(|x| x.leaves).sum::<u64>();
        let wrong = |r: &[fitness::ProblemRun]| r.iter().filter(|x| x.wrong).count();
        let (l0, l1, l2) = (sum(&r0), sum(&r1), sum(&r2));
        headline = format!(
            "test set ({} problems solved by the untrained weights, {} left out; level {level}, max nodes {}): leaves (GoTools' count per answer line) untrained {l0}, starting {l1}, tuned {l2}: {:+.1}% vs untrained, {:+.1}% vs starting; wrong or unsolved: {}, {}, {}",
            set.len(),
            failed.len(),
            a.test_max_nodes,
            (l2 as f64 / l0.max(1) as f64 - 1.0) * 100.0,
            (l2 as f64 / l1.max(1) as f64 - 1.0) * 100.0,
            wrong(&r0),
            wrong(&r1),
            wrong(&r2)
        );
        let _ = writeln!(
            summary,
            "\n## Test set\n\n{headline}\n\nLists: train.lst, test.lst, test-failed-untrained.lst (rebuild a run with `--train train.lst --test test.lst --problems DIR`).\n\n{}",
            report::difficulty_table(&rows)
        );
        std::fs::write(report_dir.join("test.csv"), report::test_csv(&rows))?;
        report::plot_profile(&report_dir.join("profile"), &rows)?;
    }
    std::fs::write(report_dir.join("summary.md"), &summary)?;
    // The weights file with its provenance.
    let mut text = String::new();
    let _ = writeln!(text, "# Tuned by `tengen tune` ({}).", now());
    let _ = writeln!(
        text,
        "# algorithm {:?}, group {}, fitness {}{}, population {}, generations {} (+ initial), evaluations {}, seed {}",
        st.settings.algorithm,
        st.settings.group,
        st.settings.fitness,
        compare_note(st.settings.compare),
        st.settings.population,
        st.done.saturating_sub(1),
        st.evaluations,
        st.settings.seed
    );
    let _ = writeln!(text, "# training: {}", st.settings.data);
    if let Some(t) = &a.test {
        let _ = writeln!(text, "# test: {}", t.display());
    }
    if !headline.is_empty() {
        let _ = writeln!(text, "# {headline}");
    }
    let _ = writeln!(
        text,
        "# best fitness {:.6}; tengen {} git {}; {:.0} s",
        best.fitness,
        env!("CARGO_PKG_VERSION"),
        env!("TENGEN_GIT_REV"),
        seconds
    );
    text.push_str(&tuned.to_toml());
    if let Some(dir) = a.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create '{}'", dir.display()))?;
    }
    let tmp = a.out.with_extension("toml.tmp");
    std::fs::write(&tmp, &text).with_context(|| format!("cannot write '{}'", tmp.display()))?;
    std::fs::rename(&tmp, &a.out).with_context(|| format!("cannot write '{}'", a.out.display()))?;
    // Check that the engine reads it.
    Weights::load(&a.out)?;
    print!("{summary}");
    println!(
        "\nweights: {}\nreport: {}",
        a.out.display(),
        report_dir.display()
    );
    Ok(ExitCode::SUCCESS)
}
