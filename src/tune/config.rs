//! A tuning run's configuration, typed (the command line's enums are
//! these), and the setup built from it: the gene space, the checkpointed
//! settings, the training set and the fitness. Every MPI rank builds the
//! same setup from the same configuration.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::ValueEnum;

use super::fitness::{self, Evaluator, Formula, SetProblem, SolverFitness, SolverKind};
use super::games::{GameFitness, Reference};
use super::genes::GeneSpace;
use super::sample;
use super::{Algorithm, Compare, Evolution, FitnessSpec, GroupSet, Settings, TuneError};
use crate::matchplay::EngineCommand;
use crate::weights::{Group, Weights};

/// What a candidate is scored by, as the user chooses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FitnessChoice {
    /// The rank of the correct first move.
    Static,
    /// Level-1 leaves (for the pruning group: errors and leaves at the level).
    Dynamic,
    /// Games.
    Match,
}

/// How match candidates meet, as the user chooses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CompareChoice {
    /// DE: the trial plays its parent.
    Duel,
    /// Everyone plays the fixed reference.
    Reference,
    /// Members and candidates play a round robin each generation.
    RoundRobin,
}

/// The fitness actually run (the choice and the groups decide it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Static,
    Dynamic,
    Pruning,
    Match,
}

/// Everything a run reads, typed.
#[derive(Clone, Debug)]
pub struct Config {
    pub algorithm: Algorithm,
    /// Weight groups, as given (`static+dynamic`).
    pub group: String,
    /// `--genes`: only these weights of the groups (see
    /// [`GeneSpace::select`]).
    pub genes: Option<String>,
    pub fitness: FitnessChoice,
    pub formula: Formula,
    pub train: Option<PathBuf>,
    pub test: Option<PathBuf>,
    pub sample: Option<u64>,
    pub test_sample: Option<u64>,
    /// The folder of the problem files a list names.
    pub problems: Option<PathBuf>,
    pub generations: usize,
    pub out: PathBuf,
    pub checkpoint: Option<PathBuf>,
    pub resume: bool,
    pub report: Option<PathBuf>,
    /// The GA/DE options, as given (`children` and `tournament` are
    /// raised to 1 in the settings).
    pub evolution: Evolution,
    pub f_stop: Option<f64>,
    pub max_nodes: u64,
    pub test_max_nodes: u64,
    pub level: u8,
    /// Pruning fitness: the error budget in per cent of the problems
    /// (default [`default_error_budget`] of the level).
    pub error_budget: Option<f64>,
    pub bonuses: Vec<f64>,
    pub max_region: usize,
    pub opponent: Option<String>,
    pub pairs: usize,
    pub compare: Option<CompareChoice>,
    pub retest: usize,
    pub match_size: usize,
    pub match_komi: f64,
    pub match_playouts: u64,
    pub match_move_limit: usize,
    /// The run's seed (the global `--seed`).
    pub seed: u64,
    /// The starting weights (the global `--weights`).
    pub base: Weights,
}

/// The error budget of pruning fitness per speed level, in per cent of
/// the problems: new errors (answers right at level 1 and wrong at the
/// level) up to it cost nothing; the fitness is then the leaves alone.
/// Level 2 0.2%, level 3 2%, level 4 5%, level 5 10% (issue 43's curve).
pub fn default_error_budget(level: u8) -> f64 {
    match level {
        0..=2 => 0.2,
        3 => 2.0,
        4 => 5.0,
        _ => 10.0,
    }
}

impl Config {
    /// The checkpoint file: `checkpoint`, or `out` with the extension
    /// `.checkpoint.json`.
    pub fn checkpoint_path(&self) -> PathBuf {
        self.checkpoint
            .clone()
            .unwrap_or_else(|| self.out.with_extension("checkpoint.json"))
    }

    /// The report folder: `report`, or `out`'s name with `-report`.
    pub fn report_dir(&self) -> PathBuf {
        self.report.clone().unwrap_or_else(|| {
            let stem = self
                .out
                .file_stem()
                .map_or("tuned".into(), |s| s.to_string_lossy().to_string());
            self.out.with_file_name(format!("{stem}-report"))
        })
    }

    /// The speed level the solver runs at.
    pub fn level_of(&self, kind: Kind) -> u8 {
        if kind == Kind::Pruning { self.level } else { 1 }
    }
}

/// Parses `--bonuses` (`20,13,7,3,1`).
pub fn parse_bonuses(s: &str) -> Result<Vec<f64>, String> {
    s.split(',')
        .map(|x| {
            x.trim()
                .parse::<f64>()
                .map_err(|_| format!("--bonuses: '{x}' is not a number (e.g. 20,13,7,3,1)"))
        })
        .collect()
}

/// What the fitness needs, built the same way on every MPI rank.
pub struct Setup {
    pub config: Config,
    pub space: GeneSpace,
    pub settings: Settings,
    pub train: Vec<SetProblem>,
    pub kind: Kind,
}

fn usage(m: impl Into<String>) -> TuneError {
    TuneError::Options(m.into())
}

impl Setup {
    /// Checks the options against each other and reads the training set.
    pub fn new(config: Config) -> Result<Setup, TuneError> {
        let c = &config;
        let group: GroupSet = c
            .group
            .parse()
            .map_err(|e: super::UnknownGroup| usage(e.to_string()))?;
        let mut space = GeneSpace::new(&group.0, c.base.clone());
        if let Some(list) = &c.genes {
            space.select(list).map_err(usage)?;
        }
        if space.is_empty() {
            return Err(usage(format!("--group {}: no weights to tune", c.group)));
        }
        let kind = c.kind(&group.0)?;
        let compare = c.compare(kind)?;
        c.check_rates()?;
        let (train, data) = if kind == Kind::Match {
            (Vec::new(), c.match_data(compare))
        } else {
            c.training_set(kind)?
        };
        let settings = c.settings(group, kind, compare, data);
        Ok(Setup {
            config,
            space,
            settings,
            train,
            kind,
        })
    }

    /// The test set before the untrained weights' filter: `test` without
    /// the training problems, sampled by `test_sample`.
    pub fn test_candidates(&self) -> Result<Vec<SetProblem>, TuneError> {
        let c = &self.config;
        let Some(test) = &c.test else {
            return Ok(Vec::new());
        };
        let train: HashSet<_> = self.train.iter().map(SetProblem::id).collect();
        let set: Vec<SetProblem> = fitness::load_any(test, c.problems.as_deref(), c.max_region)?
            .into_iter()
            .filter(|p| !train.contains(&p.id()))
            .collect();
        if set.is_empty() {
            return Err(TuneError::Problems(format!(
                "--test {}: no problems left once the training problems are taken out",
                test.display()
            )));
        }
        // Another stream of the seed than the training sample's.
        Ok(match c.test_sample {
            Some(n) => draw(set, n as usize, c.seed ^ 0x7e57),
            None => set,
        })
    }

    /// The fitness of a run. `reference` is the per-problem leaves of the
    /// untrained (dynamic) or starting (pruning) weights, `reference_wrong`
    /// which problems the starting weights get wrong at level 1 (pruning
    /// fitness with a budget; the state's). `program` is the tengen binary
    /// that match fitness launches.
    pub fn evaluator(
        &self,
        reference: Vec<u64>,
        reference_wrong: Vec<bool>,
        program: &Path,
    ) -> Result<Arc<dyn Evaluator>, TuneError> {
        let c = &self.config;
        Ok(match self.kind {
            Kind::Match => Arc::new(GameFitness {
                space: self.space.clone(),
                reference: match &c.opponent {
                    Some(cmd) => Reference::External(
                        EngineCommand::parse(cmd).map_err(|e| usage(format!("--opponent: {e}")))?,
                    ),
                    None => Reference::Weights(Box::new(self.space.base.clone())),
                },
                size: c.match_size,
                komi: c.match_komi,
                playouts: c.match_playouts,
                pairs: c.pairs.max(1),
                move_limit: c.match_move_limit,
                seed: self.settings.seed,
                program: program.to_path_buf(),
                tmp: std::env::temp_dir(),
            }),
            kind => Arc::new(SolverFitness {
                space: self.space.clone(),
                set: self.train.clone(),
                kind: match kind {
                    Kind::Static => SolverKind::Static {
                        bonuses: c.bonuses.clone(),
                    },
                    Kind::Pruning => SolverKind::Pruning {
                        level: c.level,
                        reference,
                        budget: self.settings.pruning_budget(),
                        level1_wrong: reference_wrong,
                    },
                    _ => SolverKind::Dynamic {
                        formula: c.formula,
                        charge_limit: matches!(
                            self.settings.fitness,
                            FitnessSpec::Dynamic { limit: true, .. }
                        ),
                        reference,
                    },
                },
                max_nodes: c.max_nodes,
            }),
        })
    }
}

fn fitness_name(f: FitnessChoice) -> String {
    f.to_possible_value()
        .map_or(String::new(), |v| v.get_name().to_string())
}

/// At most `n` problems of `set`, spread over its difficulty levels and
/// drawn by `seed` ([`sample::stratified`]), in the set's order.
pub fn draw(set: Vec<SetProblem>, n: usize, seed: u64) -> Vec<SetProblem> {
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

/// The problem ids of a set, for lists.
pub fn list_of(set: &[SetProblem]) -> Vec<sample::ProblemId> {
    set.iter().map(SetProblem::id).collect()
}

impl Config {
    /// The fitness run for the tuned `groups`, refusing groups that the
    /// chosen fitness cannot tune.
    fn kind(&self, groups: &[Group]) -> Result<Kind, TuneError> {
        let c = self;
        let solver_groups = groups
            .iter()
            .all(|g| matches!(g, Group::Static | Group::Dynamic | Group::Pruning));
        let kind = match c.fitness {
            FitnessChoice::Static => Kind::Static,
            FitnessChoice::Match => Kind::Match,
            FitnessChoice::Dynamic if *groups == [Group::Pruning] => Kind::Pruning,
            FitnessChoice::Dynamic => Kind::Dynamic,
        };
        if kind != Kind::Match && !solver_groups {
            return Err(usage(format!(
                "--group {}: playout and tree weights are tuned by games; use --fitness match",
                c.group
            )));
        }
        if kind == Kind::Dynamic && groups.contains(&Group::Pruning) {
            return Err(usage(format!(
                "--group {}: pruning weights do not change level-1 leaves; tune them alone (--group pruning)",
                c.group
            )));
        }
        Ok(kind)
    }

    /// How candidates are compared, refusing a --compare or --opponent
    /// that does not fit the fitness and the algorithm.
    fn compare(&self, kind: Kind) -> Result<Compare, TuneError> {
        let c = self;
        if c.algorithm == Algorithm::Spsa {
            if kind != Kind::Match {
                return Err(usage(
                    "--algorithm spsa tunes by games: use it with --fitness match (the playout or tree group)",
                ));
            }
            if !matches!(c.compare, None | Some(CompareChoice::Duel)) || c.opponent.is_some() {
                return Err(usage(
                    "--algorithm spsa plays its own pairs of perturbations (duels): --compare and --opponent do not apply",
                ));
            }
            return Ok(Compare::Duel);
        }
        let compare = match (kind, c.compare, c.algorithm) {
            (Kind::Match, Some(CompareChoice::Duel), Algorithm::Ga) => {
                return Err(usage(
                    "--compare duel is DE's trial-against-parent duel; for the GA use --compare reference or round-robin",
                ));
            }
            (Kind::Match, Some(CompareChoice::Duel), _) | (Kind::Match, None, Algorithm::De) => {
                Compare::Duel
            }
            (Kind::Match, Some(CompareChoice::RoundRobin), _) => Compare::RoundRobin,
            (Kind::Match, _, _) => Compare::Score,
            (_, Some(choice), _) => {
                return Err(usage(format!(
                    "--compare {}: it is for --fitness match; solver fitness is an absolute score",
                    choice
                        .to_possible_value()
                        .map_or(String::new(), |v| v.get_name().to_string())
                )));
            }
            (_, None, _) => Compare::Score,
        };
        if kind == Kind::Match && compare != Compare::Score && c.opponent.is_some() {
            return Err(usage(
                "--opponent is the fixed reference of --compare reference; duels and round robins are between candidates",
            ));
        }
        Ok(compare)
    }

    /// Refuses probabilities outside 0 to 1.
    fn check_rates(&self) -> Result<(), TuneError> {
        let e = &self.evolution;
        if !(0.0..=1.0).contains(&e.crossover_rate) || !(0.0..=1.0).contains(&e.mutation_rate) {
            return Err(usage(
                "--crossover-rate and --mutation-rate are probabilities (0 to 1)",
            ));
        }
        if !(0.0..=1.0).contains(&e.cr) {
            return Err(usage("--cr is a probability (0 to 1)"));
        }
        Ok(())
    }

    /// The description of the match fitness's games (kept in the
    /// checkpoint).
    fn match_data(&self, compare: Compare) -> String {
        let c = self;
        format!(
            "games {}x{} komi {} playouts {} pairs {} move limit {} opponent {}",
            c.match_size,
            c.match_size,
            c.match_komi,
            c.match_playouts,
            c.pairs,
            c.match_move_limit,
            match compare {
                Compare::RoundRobin => "none (round robin)",
                _ => c.opponent.as_deref().unwrap_or("starting weights"),
            }
        )
    }

    /// The training set (read and sampled) and its description (kept in
    /// the checkpoint).
    fn training_set(&self, kind: Kind) -> Result<(Vec<SetProblem>, String), TuneError> {
        let c = self;
        let Some(dir) = &c.train else {
            return Err(usage(format!(
                "--train PATH is required for --fitness {}",
                fitness_name(c.fitness)
            )));
        };
        let mut train = fitness::load_any(dir, c.problems.as_deref(), c.max_region)?;
        if let Some(n) = c.sample {
            train = draw(train, n as usize, c.seed);
        }
        let names: String = train
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>()
            .join(",");
        let data = format!(
            "{} problems from {}{} (names hash {:016x}), max nodes {}, level {}",
            train.len(),
            dir.display(),
            c.sample.map_or(String::new(), |n| format!(
                " (sample of at most {n}, seed {})",
                c.seed
            )),
            crate::rules::zobrist::mix64(
                names
                    .bytes()
                    .fold(0u64, |h, b| { h.rotate_left(5) ^ b as u64 })
            ),
            c.max_nodes,
            c.level_of(kind)
        );
        Ok((train, data))
    }

    /// The settings kept in the checkpoint.
    fn settings(&self, group: GroupSet, kind: Kind, compare: Compare, data: String) -> Settings {
        let c = self;
        let e = &self.evolution;
        Settings {
            algorithm: c.algorithm,
            group,
            genes: c.genes.clone(),
            fitness: match kind {
                Kind::Static => FitnessSpec::Static {
                    bonuses: c.bonuses.clone(),
                },
                Kind::Dynamic => FitnessSpec::Dynamic {
                    formula: c.formula,
                    limit: true,
                },
                Kind::Pruning => FitnessSpec::Pruning {
                    level: c.level,
                    budget: Some(c.error_budget.unwrap_or(default_error_budget(c.level))),
                },
                Kind::Match => FitnessSpec::Match,
            },
            compare,
            evolution: Evolution {
                children: e.children.max(1),
                tournament: e.tournament.max(1),
                ..e.clone()
            },
            seed: c.seed,
            retest: if matches!(compare, Compare::Duel | Compare::RoundRobin) {
                c.retest
            } else {
                0
            },
            data,
            reevaluate: c.algorithm == Algorithm::Ga
                && kind == Kind::Match
                && compare == Compare::Score
                && c.opponent.is_none(),
        }
    }
}
