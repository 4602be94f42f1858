//! `tengen tune`: evolves weights with a genetic algorithm or adaptive
//! differential evolution. Fitness comes from the tsumego solver (static
//! move ranks, level-1 leaves, pruning errors) or from games.
//!
//! The run is a sequence of generations. Everything random in generation
//! `g` is drawn from a generator seeded by (`--seed`, `g`), and every
//! evaluation is a pure function of its job, so a run gives the same
//! weights whatever the number of workers, and a resumed run the same as
//! an uninterrupted one. The checkpoint (serde_json) holds the settings,
//! the population with its fitness, the history, the reference leaves and
//! the finished evaluations of the generation in flight.

pub mod config;
pub mod fitness;
pub mod games;
pub mod genes;
#[cfg(feature = "mpi")]
pub mod mpi;
pub mod report;
pub mod run;
pub mod sample;
pub mod workers;

use std::path::Path;
use std::sync::atomic::AtomicBool;

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use rand_distr::{Distribution, StandardNormal};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use fitness::{Eval, Job};
use genes::{Gene, GeneSpace};
use workers::Workers;

/// Checkpoint format version.
pub const CHECKPOINT_FORMAT: u32 = 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
pub enum Algorithm {
    /// Genetic algorithm.
    Ga,
    /// Adaptive differential evolution.
    De,
}

/// GA parent selection.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
pub enum Selection {
    Roulette,
    Tournament,
}

/// GA mutation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
pub enum Mutation {
    /// A new value uniform in the range.
    Reset,
    /// A Gaussian step of `sigma` × range, reflected into the range.
    Gaussian,
}

/// How candidates are compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Compare {
    /// An absolute fitness per candidate (`Job::Score`).
    Score,
    /// DE with match fitness: the trial plays its parent (`Job::Duel`).
    Duel,
    /// Match fitness: every generation the members and the new candidates
    /// play a round robin (`Job::Duel` per pairing). A member's fitness is
    /// its share of the points of that tournament (one per win, a half per
    /// jigo); replacement then compares these shares.
    RoundRobin,
}

/// Everything that decides the course of a run (kept in the checkpoint;
/// a resume must match it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub algorithm: Algorithm,
    pub group: String,
    pub fitness: String,
    pub compare: Compare,
    pub population: usize,
    /// GA: children per generation.
    pub children: usize,
    pub seed: u64,
    /// GA.
    pub selection: Selection,
    pub tournament: usize,
    pub crossover_rate: f64,
    pub mutation_rate: f64,
    pub mutation: Mutation,
    pub sigma: f64,
    /// DE: binomial crossover rate.
    pub cr: f64,
    /// Include the starting weights in the initial population.
    pub seed_current: bool,
    /// Match fitness with duels: decisions re-tested per generation with
    /// other game seeds, to measure noise.
    pub retest: usize,
    /// A description of the training data (problem count and names, or
    /// the game settings) so that a resume on other data is refused.
    pub data: String,
}

/// One member of the population.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Member {
    pub genes: Vec<f64>,
    pub fitness: f64,
    pub cost: u64,
    pub errors: u64,
}

/// What one generation did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GenStats {
    /// 0 is the initial population.
    pub generation: usize,
    pub best: f64,
    pub mean: f64,
    pub worst: f64,
    /// DE: the scale factor used.
    pub f: Option<f64>,
    /// Evaluations run in this generation (copies cost none).
    pub evaluations: u64,
    /// Total evaluations so far.
    pub total_evaluations: u64,
    /// Trials or children that entered the population.
    pub replaced: usize,
    /// Duel decisions re-tested, and how many came out the other way.
    pub retests: usize,
    pub flips: usize,
    /// Solver: leaves of the best member.
    pub best_cost: u64,
    pub seconds: f64,
}

/// Finished evaluations of the generation in flight.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Partial {
    pub generation: usize,
    pub results: Vec<Option<Eval>>,
}

/// The checkpoint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub format: u32,
    pub settings: Settings,
    pub genes: Vec<Gene>,
    /// Generations finished; 0 before the initial population is scored.
    pub done: usize,
    pub population: Vec<Member>,
    pub history: Vec<GenStats>,
    pub evaluations: u64,
    /// Leaves per training problem of the untrained reference.
    pub reference: Vec<u64>,
    pub partial: Option<Partial>,
}

#[derive(Debug, Error)]
pub enum TuneError {
    #[error("cannot write checkpoint '{path}': {source}")]
    Write {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot read checkpoint '{path}': {source}")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("checkpoint '{path}' is damaged: {message}")]
    Damaged { path: String, message: String },
    #[error(
        "checkpoint '{path}' was made with other settings ({what}); rerun with the same options or start a new run without --resume"
    )]
    Mismatch { path: String, what: String },
    /// Options that contradict each other or name nothing to do.
    #[error("{0}")]
    Options(String),
    /// A problem set or list that cannot be read or is empty.
    #[error("{0}")]
    Problems(String),
    /// A report, weights or checkpoint folder that cannot be written.
    #[error("cannot write '{path}': {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Weights(#[from] crate::weights::WeightsError),
}

impl TuneError {
    pub fn io(path: &Path, source: std::io::Error) -> TuneError {
        TuneError::Io {
            path: path.display().to_string(),
            source,
        }
    }
}

impl State {
    pub fn new(settings: Settings, space: &GeneSpace, reference: Vec<u64>) -> State {
        State {
            format: CHECKPOINT_FORMAT,
            settings,
            genes: space.genes.clone(),
            done: 0,
            population: Vec::new(),
            history: Vec::new(),
            evaluations: 0,
            reference,
            partial: None,
        }
    }

    /// Writes the checkpoint atomically (a temporary file, synced, then
    /// renamed), so a kill at any moment leaves the old or the new one.
    pub fn save(&self, path: &Path) -> Result<(), TuneError> {
        let err = |source| TuneError::Write {
            path: path.display().to_string(),
            source,
        };
        let text = serde_json::to_string(self).expect("the state serialises");
        let tmp = path.with_extension("tmp");
        {
            use std::io::Write;
            let mut f = std::fs::File::create(&tmp).map_err(err)?;
            f.write_all(text.as_bytes()).map_err(err)?;
            f.sync_all().map_err(err)?;
        }
        std::fs::rename(&tmp, path).map_err(err)?;
        Ok(())
    }

    pub fn load(path: &Path) -> Result<State, TuneError> {
        let text = std::fs::read_to_string(path).map_err(|source| TuneError::Read {
            path: path.display().to_string(),
            source,
        })?;
        let s: State = serde_json::from_str(&text).map_err(|e| TuneError::Damaged {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        if s.format != CHECKPOINT_FORMAT {
            return Err(TuneError::Damaged {
                path: path.display().to_string(),
                message: format!(
                    "format {} (this tengen reads format {CHECKPOINT_FORMAT})",
                    s.format
                ),
            });
        }
        Ok(s)
    }

    /// Refuses a checkpoint made with other settings or genes.
    pub fn check(
        &self,
        settings: &Settings,
        space: &GeneSpace,
        path: &Path,
    ) -> Result<(), TuneError> {
        let mismatch = |what: String| TuneError::Mismatch {
            path: path.display().to_string(),
            what,
        };
        let a = serde_json::to_value(&self.settings).expect("serialises");
        let b = serde_json::to_value(settings).expect("serialises");
        if let (Some(a), Some(b)) = (a.as_object(), b.as_object()) {
            for (k, v) in a {
                if b.get(k) != Some(v) {
                    return Err(mismatch(format!(
                        "{k}: checkpoint {v}, now {}",
                        b.get(k).map_or("none".into(), |x| x.to_string())
                    )));
                }
            }
        }
        if self.genes != space.genes {
            return Err(mismatch("the tuned weights differ".into()));
        }
        Ok(())
    }

    /// The best member (highest fitness; the earliest on ties).
    pub fn best(&self) -> Option<&Member> {
        self.population
            .iter()
            .reduce(|a, b| if b.fitness > a.fitness { b } else { a })
    }
}

/// The random generator of generation `g`.
fn rng_for(seed: u64, g: usize) -> SmallRng {
    SmallRng::seed_from_u64(crate::rules::zobrist::mix64(
        seed ^ (g as u64 + 1).wrapping_mul(0xd1b5_4a32_d192_ed03),
    ))
}

/// DE's adaptive scale factor: 2 × the mean over genes of the coefficient
/// of variation σ_j / mean_j of the population. Genes are first mapped to
/// their place in the range (0 at the minimum, 1 at the maximum), so that
/// ranges centred on zero do not divide by a mean near zero. Genes whose
/// mean place is 0 are left out.
pub fn adaptive_f(pop: &[Vec<f64>], genes: &[Gene]) -> f64 {
    let n = pop.len() as f64;
    let mut sum = 0.0;
    let mut count = 0;
    for (j, g) in genes.iter().enumerate() {
        let span = g.max - g.min;
        if span <= 0.0 {
            continue;
        }
        let xs: Vec<f64> = pop.iter().map(|x| (x[j] - g.min) / span).collect();
        let mean = xs.iter().sum::<f64>() / n;
        if mean <= 1e-12 {
            continue;
        }
        let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n;
        sum += var.sqrt() / mean;
        count += 1;
    }
    if count == 0 {
        0.0
    } else {
        2.0 * sum / count as f64
    }
}

/// The random draws behind one DE trial.
pub struct DeDraw<'a> {
    /// Three distinct donors, none equal to the target.
    pub r: [usize; 3],
    /// The gene always taken from the mutant.
    pub jrand: usize,
    /// Per gene: `u[j] < cr` takes gene j from the mutant.
    pub u: &'a [f64],
}

/// DE rand/1 with binomial crossover: the trial vector of member `i`,
/// `V = X_r1 + F (X_r2 - X_r3)` reflected into range, crossed with `X_i`.
pub fn de_trial(
    pop: &[Vec<f64>],
    i: usize,
    d: &DeDraw<'_>,
    f: f64,
    cr: f64,
    genes: &[Gene],
) -> Vec<f64> {
    let x = &pop[i];
    let r = d.r;
    (0..x.len())
        .map(|j| {
            if j == d.jrand || d.u[j] < cr {
                let v = pop[r[0]][j] + f * (pop[r[1]][j] - pop[r[2]][j]);
                genes[j].reflect(v)
            } else {
                x[j]
            }
        })
        .collect()
}

/// Picks three distinct indices in 0..n, none equal to `i` (n >= 4).
fn three_donors(rng: &mut SmallRng, n: usize, i: usize) -> [usize; 3] {
    let mut r = [usize::MAX; 3];
    let mut k = 0;
    while k < 3 {
        let c = rng.random_range(0..n);
        if c != i && !r[..k].contains(&c) {
            r[k] = c;
            k += 1;
        }
    }
    r
}

/// Fitness shifted and scaled to [0, 1] (all 1 when equal).
pub fn scaled(fit: &[f64]) -> Vec<f64> {
    let lo = fit.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = fit.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if hi <= lo || !lo.is_finite() || !hi.is_finite() {
        return vec![1.0; fit.len()];
    }
    fit.iter().map(|f| (f - lo) / (hi - lo)).collect()
}

/// The work of one generation, drawn before anything is evaluated.
#[derive(Clone, Debug)]
pub struct Plan {
    pub generation: usize,
    /// Candidate gene vectors (initial members, children or trials).
    pub candidates: Vec<Vec<f64>>,
    /// Per candidate: a member whose genes it copies (no evaluation).
    pub copy_of: Vec<Option<usize>>,
    /// Jobs, by index: first one per evaluated candidate, then retests.
    pub jobs: Vec<Job>,
    /// Job index per candidate (`None` for copies).
    pub job_of: Vec<Option<usize>>,
    /// Round robin: (player a, player b, job index) per pairing. Players
    /// are numbered members first, then candidates (`members + i`).
    pub pairings: Vec<(usize, usize, usize)>,
    /// Retests: (job re-tested, retest job index).
    pub retests: Vec<(usize, usize)>,
    pub f: Option<f64>,
}

/// A generation ended.
pub enum Step {
    Done(GenStats),
    /// Stopped with jobs left; their finished results are in `partial`.
    Interrupted,
}

/// A tuning run: settings, genes and state.
pub struct Tuner {
    pub space: GeneSpace,
    pub state: State,
}

impl Tuner {
    /// Draws the candidates and jobs of the next generation.
    pub fn plan(&self) -> Plan {
        let s = &self.state.settings;
        let g = self.state.done;
        let mut rng = rng_for(s.seed, g);
        let n = self.space.len();
        let mut plan = Plan {
            generation: g,
            candidates: Vec::new(),
            copy_of: Vec::new(),
            jobs: Vec::new(),
            job_of: Vec::new(),
            pairings: Vec::new(),
            retests: Vec::new(),
            f: None,
        };
        if self.state.population.is_empty() {
            for i in 0..s.population {
                let x = if i == 0 && s.seed_current {
                    self.space.encode(&self.space.base)
                } else {
                    self.space
                        .genes
                        .iter()
                        .map(|g| g.uniform(&mut rng))
                        .collect()
                };
                plan.candidates.push(x);
                plan.copy_of.push(None);
            }
        } else {
            let pop: Vec<Vec<f64>> = self
                .state
                .population
                .iter()
                .map(|m| m.genes.clone())
                .collect();
            match s.algorithm {
                Algorithm::De => {
                    let f = adaptive_f(&pop, &self.space.genes).min(2.0);
                    plan.f = Some(f);
                    for i in 0..pop.len() {
                        let r = three_donors(&mut rng, pop.len(), i);
                        let jrand = rng.random_range(0..n);
                        let u: Vec<f64> = (0..n).map(|_| rng.random::<f64>()).collect();
                        let draw = DeDraw { r, jrand, u: &u };
                        let t = de_trial(&pop, i, &draw, f, s.cr, &self.space.genes);
                        plan.candidates.push(t);
                        plan.copy_of.push(None);
                    }
                }
                Algorithm::Ga => {
                    let fit: Vec<f64> = self.state.population.iter().map(|m| m.fitness).collect();
                    let sc = scaled(&fit);
                    for _ in 0..s.children {
                        let p1 = self.select(&mut rng, &sc, s);
                        let mut child = pop[p1].clone();
                        let mut p2 = None;
                        if rng.random::<f64>() < s.crossover_rate {
                            let q = self.select(&mut rng, &sc, s);
                            for (j, c) in child.iter_mut().enumerate() {
                                if rng.random::<f64>() < 0.5 {
                                    *c = pop[q][j];
                                }
                            }
                            p2 = Some(q);
                        }
                        if rng.random::<f64>() < s.mutation_rate && n > 0 {
                            let must = rng.random_range(0..n);
                            for (j, c) in child.iter_mut().enumerate() {
                                if j == must || rng.random::<f64>() < 1.0 / n as f64 {
                                    let g = &self.space.genes[j];
                                    *c = match s.mutation {
                                        Mutation::Reset => g.uniform(&mut rng),
                                        Mutation::Gaussian => {
                                            let z: f64 = StandardNormal.sample(&mut rng);
                                            g.reflect(*c + z * s.sigma * (g.max - g.min))
                                        }
                                    };
                                }
                            }
                        }
                        self.space.legalize(&mut child);
                        let copy = if child == pop[p1] {
                            Some(p1)
                        } else {
                            p2.filter(|&q| child == pop[q])
                        };
                        plan.candidates.push(child);
                        plan.copy_of.push(copy);
                    }
                }
            }
        }
        let mix = crate::rules::zobrist::mix64;
        let members = self.state.population.len();
        if s.compare == Compare::RoundRobin {
            // Everyone who is not a copy plays everyone else once
            // (`--pairs` paired games); copies take their original's share.
            let players: Vec<usize> = (0..members)
                .chain(
                    (0..plan.candidates.len())
                        .filter_map(|i| plan.copy_of[i].is_none().then_some(members + i)),
                )
                .collect();
            let genes = |p: usize| -> Vec<f64> {
                if p < members {
                    self.state.population[p].genes.clone()
                } else {
                    plan.candidates[p - members].clone()
                }
            };
            for (k, &a) in players.iter().enumerate() {
                for &b in &players[k + 1..] {
                    plan.pairings.push((a, b, plan.jobs.len()));
                    plan.jobs.push(Job::Duel {
                        a: genes(a),
                        b: genes(b),
                        seed: mix(s.seed ^ ((g as u64) << 40) ^ ((a as u64) << 20) ^ b as u64),
                    });
                }
            }
            plan.job_of = vec![None; plan.candidates.len()];
        } else {
            for (i, c) in plan.candidates.iter().enumerate() {
                if plan.copy_of[i].is_some() {
                    plan.job_of.push(None);
                    continue;
                }
                plan.job_of.push(Some(plan.jobs.len()));
                let job = if s.compare == Compare::Duel && members > 0 {
                    Job::Duel {
                        a: c.clone(),
                        b: self.state.population[i].genes.clone(),
                        seed: mix(s.seed ^ ((g as u64) << 32) ^ i as u64),
                    }
                } else {
                    Job::Score { genes: c.clone() }
                };
                plan.jobs.push(job);
            }
        }
        // Noise: re-test a sample of game decisions (duels or pairings)
        // with other game seeds.
        if s.retest > 0 {
            let mut idx: Vec<usize> = plan
                .jobs
                .iter()
                .enumerate()
                .filter(|(_, j)| matches!(j, Job::Duel { .. }))
                .map(|(k, _)| k)
                .collect();
            for k in 0..s.retest.min(idx.len()) {
                let j = rng.random_range(k..idx.len());
                idx.swap(k, j);
                let Job::Duel { a, b, .. } = plan.jobs[idx[k]].clone() else {
                    unreachable!("only duels are re-tested")
                };
                plan.retests.push((idx[k], plan.jobs.len()));
                plan.jobs.push(Job::Duel {
                    a,
                    b,
                    seed: mix(!s.seed ^ ((g as u64) << 32) ^ idx[k] as u64 ^ 0x5151),
                });
            }
        }
        plan
    }

    fn select(&self, rng: &mut SmallRng, sc: &[f64], s: &Settings) -> usize {
        match s.selection {
            Selection::Roulette => {
                let total: f64 = sc.iter().sum();
                if total <= 0.0 {
                    return rng.random_range(0..sc.len());
                }
                let mut x = rng.random::<f64>() * total;
                for (i, v) in sc.iter().enumerate() {
                    if x < *v {
                        return i;
                    }
                    x -= v;
                }
                sc.len() - 1
            }
            Selection::Tournament => {
                let mut best = rng.random_range(0..sc.len());
                for _ in 1..s.tournament.max(1) {
                    let c = rng.random_range(0..sc.len());
                    if sc[c] > sc[best] {
                        best = c;
                    }
                }
                best
            }
        }
    }

    /// Runs the next generation on `workers`, saving finished evaluations
    /// in `state.partial` as they come (the caller checkpoints). `progress`
    /// gets (jobs done, jobs total) after each result.
    pub fn step(
        &mut self,
        workers: &mut dyn Workers,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Step {
        let started = std::time::Instant::now();
        let plan = self.plan();
        let mut results: Vec<Option<Eval>> = match &self.state.partial {
            Some(p) if p.generation == plan.generation && p.results.len() == plan.jobs.len() => {
                p.results.clone()
            }
            _ => vec![None; plan.jobs.len()],
        };
        let todo: Vec<(usize, Job)> = plan
            .jobs
            .iter()
            .enumerate()
            .filter(|(i, _)| results[*i].is_none())
            .map(|(i, j)| (i, j.clone()))
            .collect();
        let total = plan.jobs.len();
        let mut finished = total - todo.len();
        progress(finished, total);
        workers.run(
            &todo,
            &mut |i, e| {
                results[i] = Some(e);
                finished += 1;
                progress(finished, total);
            },
            stop,
        );
        let ran = results.iter().filter(|r| r.is_some()).count();
        if ran < total {
            self.state.partial = Some(Partial {
                generation: plan.generation,
                results,
            });
            return Step::Interrupted;
        }
        let results: Vec<Eval> = results.into_iter().map(|r| r.expect("all done")).collect();
        let stats = self.apply(&plan, &results, started.elapsed().as_secs_f64());
        Step::Done(stats)
    }

    /// Folds the results of `plan` into the population.
    pub fn apply(&mut self, plan: &Plan, results: &[Eval], seconds: f64) -> GenStats {
        let s = self.state.settings.clone();
        let mut replaced = 0;
        let round = (s.compare == Compare::RoundRobin).then(|| {
            let shares = round_robin(plan, results, self.state.population.len());
            let (old, new) = shares.split_at(self.state.population.len());
            for (m, e) in self.state.population.iter_mut().zip(old) {
                (m.fitness, m.cost, m.errors) = (e.fitness, e.cost, e.errors);
            }
            new.to_vec()
        });
        let cand_eval = |i: usize| -> Option<Eval> {
            match &round {
                Some(r) => Some(r[i]),
                None => plan.job_of[i].map(|j| results[j]),
            }
        };
        if self.state.population.is_empty() {
            for (i, c) in plan.candidates.iter().enumerate() {
                let e = cand_eval(i).expect("initial members are evaluated");
                self.state.population.push(Member {
                    genes: c.clone(),
                    fitness: e.fitness,
                    cost: e.cost,
                    errors: e.errors,
                });
            }
        } else {
            match s.algorithm {
                Algorithm::De => {
                    for (i, c) in plan.candidates.iter().enumerate() {
                        let e = cand_eval(i).expect("trials are evaluated");
                        let better = match s.compare {
                            // Strictly better: a tie keeps the parent.
                            Compare::Score | Compare::RoundRobin => {
                                e.fitness > self.state.population[i].fitness
                            }
                            // The trial must win the duel.
                            Compare::Duel => e.fitness > 0.5,
                        };
                        if better {
                            self.state.population[i] = Member {
                                genes: c.clone(),
                                fitness: e.fitness,
                                cost: e.cost,
                                errors: e.errors,
                            };
                            replaced += 1;
                        }
                    }
                }
                Algorithm::Ga => {
                    let n = self.state.population.len();
                    let mut all: Vec<(Member, bool)> = self
                        .state
                        .population
                        .drain(..)
                        .map(|m| (m, false))
                        .collect();
                    for (i, c) in plan.candidates.iter().enumerate() {
                        let m = match plan.copy_of[i] {
                            Some(p) => Member {
                                genes: c.clone(),
                                ..all[p].0.clone()
                            },
                            None => {
                                let e = cand_eval(i).expect("children are evaluated");
                                Member {
                                    genes: c.clone(),
                                    fitness: e.fitness,
                                    cost: e.cost,
                                    errors: e.errors,
                                }
                            }
                        };
                        all.push((m, plan.copy_of[i].is_none()));
                    }
                    // The least fit make way; on ties the older member stays.
                    all.sort_by(|a, b| b.0.fitness.total_cmp(&a.0.fitness));
                    all.truncate(n);
                    replaced = all.iter().filter(|m| m.1).count();
                    self.state.population = all.into_iter().map(|m| m.0).collect();
                }
            }
        }
        let mut flips = 0;
        for &(k, j) in &plan.retests {
            flips += ((results[k].fitness > 0.5) != (results[j].fitness > 0.5)) as usize;
        }
        let fit: Vec<f64> = self.state.population.iter().map(|m| m.fitness).collect();
        let evaluations = results.len() as u64;
        self.state.evaluations += evaluations;
        let best = self.state.best().cloned().expect("a population");
        let stats = GenStats {
            generation: plan.generation,
            best: best.fitness,
            mean: fit.iter().sum::<f64>() / fit.len() as f64,
            worst: fit.iter().copied().fold(f64::INFINITY, f64::min),
            f: plan.f,
            evaluations,
            total_evaluations: self.state.evaluations,
            replaced,
            retests: plan.retests.len(),
            flips,
            best_cost: best.cost,
            seconds,
        };
        self.state.history.push(stats.clone());
        self.state.done += 1;
        self.state.partial = None;
        stats
    }
}

/// Round-robin shares: per player (members, then candidates), its share of
/// the points of its pairings, with the games played as `cost` and the
/// jigos as `errors`. A copy gets the share of the member it copies.
fn round_robin(plan: &Plan, results: &[Eval], members: usize) -> Vec<Eval> {
    let n = members + plan.candidates.len();
    let mut points = vec![0.0; n];
    let mut games = vec![0u64; n];
    let mut draws = vec![0u64; n];
    for &(a, b, j) in &plan.pairings {
        let e = results[j];
        points[a] += e.fitness * e.cost as f64;
        points[b] += (1.0 - e.fitness) * e.cost as f64;
        for p in [a, b] {
            games[p] += e.cost;
            draws[p] += e.errors;
        }
    }
    let mut out: Vec<Eval> = (0..n)
        .map(|p| Eval {
            fitness: if games[p] > 0 {
                points[p] / games[p] as f64
            } else {
                0.0
            },
            cost: games[p],
            errors: draws[p],
        })
        .collect();
    for (i, c) in plan.copy_of.iter().enumerate() {
        if let Some(p) = c {
            out[members + i] = out[*p];
        }
    }
    out
}

#[cfg(test)]
mod tests;
