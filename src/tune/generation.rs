//! One generation: the plan (which candidates to evaluate, from the GA's
//! selection, crossover and mutation or DE's trials), running it on the
//! workers, and applying the results (replacement, round robins, history).

use super::*;
use crate::rules::zobrist::mix64;

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
    /// GA re-evaluations: (member, job index).
    pub reevals: Vec<(usize, usize)>,
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
        let mut plan = Plan {
            generation: g,
            candidates: Vec::new(),
            copy_of: Vec::new(),
            jobs: Vec::new(),
            job_of: Vec::new(),
            pairings: Vec::new(),
            retests: Vec::new(),
            reevals: Vec::new(),
            f: None,
        };
        self.draw_candidates(&mut plan, &mut rng);
        if s.compare == Compare::RoundRobin {
            self.round_robin_jobs(&mut plan);
        } else {
            self.candidate_jobs(&mut plan);
        }
        if s.reevaluate && s.algorithm == Algorithm::Ga {
            self.reevaluation_jobs(&mut plan);
        }
        if s.retest > 0 {
            self.retest_jobs(&mut plan, &mut rng);
        }
        plan
    }

    /// GA under match fitness against the starting weights: every member
    /// plays the starting weights again, with game seeds of its own for
    /// this generation, and its fitness becomes the mean of all its
    /// evaluations. A member that was lucky once (4 of 4) is then pulled
    /// back towards its true strength instead of staying best for ever.
    fn reevaluation_jobs(&self, plan: &mut Plan) {
        let s = &self.state.settings;
        let g = plan.generation as u64;
        let reference = self.space.encode(&self.space.base);
        for (m, member) in self.state.population.iter().enumerate() {
            plan.reevals.push((m, plan.jobs.len()));
            plan.jobs.push(Job::Duel {
                a: member.genes.clone(),
                b: reference.clone(),
                seed: mix64(s.seed ^ (g << 32) ^ ((m as u64) << 8) ^ 0x7265_6576),
            });
        }
    }

    /// The generation's candidates: the initial population, DE trials or
    /// GA children (with the member each child is a copy of).
    fn draw_candidates(&self, plan: &mut Plan, rng: &mut SmallRng) {
        let s = &self.state.settings;
        let n = self.space.len();
        if self.state.population.is_empty() && s.algorithm == Algorithm::Spsa {
            // The starting point: the current weights (no games).
            plan.candidates.push(self.space.encode(&self.space.base));
            plan.copy_of.push(None);
            return;
        }
        if self.state.population.is_empty() {
            for i in 0..s.evolution.population {
                let x = if i == 0 && s.evolution.seed_current {
                    self.space.encode(&self.space.base)
                } else {
                    self.space.genes.iter().map(|g| g.uniform(rng)).collect()
                };
                plan.candidates.push(x);
                plan.copy_of.push(None);
            }
            return;
        }
        let pop: Vec<Vec<f64>> = self
            .state
            .population
            .iter()
            .map(|m| m.genes.clone())
            .collect();
        match s.algorithm {
            Algorithm::Spsa => {
                // Pairs of perturbations θ ± c_t Δ of the one point θ.
                let (c, _) = spsa_gains(s.evolution.sigma, plan.generation);
                let theta = &pop[0];
                for _ in 0..s.evolution.population {
                    let mut plus = theta.clone();
                    let mut minus = theta.clone();
                    for (j, g) in self.space.genes.iter().enumerate() {
                        let d = if rng.random::<bool>() { 1.0 } else { -1.0 };
                        let step = d * c * (g.max - g.min);
                        plus[j] = g.reflect(theta[j] + step);
                        minus[j] = g.reflect(theta[j] - step);
                    }
                    self.space.legalize(&mut plus);
                    self.space.legalize(&mut minus);
                    plan.candidates.push(plus);
                    plan.candidates.push(minus);
                    plan.copy_of.extend([None, None]);
                }
            }
            Algorithm::De => {
                let f = adaptive_f(&pop, &self.space.genes).min(2.0);
                plan.f = Some(f);
                for i in 0..pop.len() {
                    let r = three_donors(rng, pop.len(), i);
                    let jrand = rng.random_range(0..n);
                    let u: Vec<f64> = (0..n).map(|_| rng.random::<f64>()).collect();
                    let draw = DeDraw { r, jrand, u: &u };
                    let t = de_trial(&pop, i, &draw, f, s.evolution.cr, &self.space.genes);
                    plan.candidates.push(t);
                    plan.copy_of.push(None);
                }
            }
            Algorithm::Ga => {
                let fit: Vec<f64> = self.state.population.iter().map(|m| m.fitness).collect();
                let sc = scaled(&fit);
                for _ in 0..s.evolution.children {
                    let (child, copy) = self.ga_child(rng, &pop, &sc);
                    plan.candidates.push(child);
                    plan.copy_of.push(copy);
                }
            }
        }
    }

    /// One GA child of the members `pop` (scaled fitness `sc`): selection,
    /// crossover and mutation. With it, the parent it equals, if any.
    fn ga_child(
        &self,
        rng: &mut SmallRng,
        pop: &[Vec<f64>],
        sc: &[f64],
    ) -> (Vec<f64>, Option<usize>) {
        let s = &self.state.settings;
        let e = &s.evolution;
        let n = self.space.len();
        let p1 = self.select(rng, sc, s);
        let mut child = pop[p1].clone();
        let mut p2 = None;
        if rng.random::<f64>() < e.crossover_rate {
            let q = self.select(rng, sc, s);
            for (j, c) in child.iter_mut().enumerate() {
                if rng.random::<f64>() < 0.5 {
                    *c = pop[q][j];
                }
            }
            p2 = Some(q);
        }
        if rng.random::<f64>() < e.mutation_rate && n > 0 {
            let must = rng.random_range(0..n);
            for (j, c) in child.iter_mut().enumerate() {
                if j == must || rng.random::<f64>() < 1.0 / n as f64 {
                    let g = &self.space.genes[j];
                    *c = match e.mutation {
                        Mutation::Reset => g.uniform(rng),
                        Mutation::Gaussian => {
                            let z: f64 = StandardNormal.sample(rng);
                            g.reflect(*c + z * e.sigma * (g.max - g.min))
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
        (child, copy)
    }

    /// Round robin: everyone who is not a copy plays everyone else once
    /// (`--pairs` paired games); copies take their original's share.
    fn round_robin_jobs(&self, plan: &mut Plan) {
        let s = &self.state.settings;
        let g = plan.generation;
        let members = self.state.population.len();
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
        let mut jobs = Vec::new();
        let mut pairings = Vec::new();
        for (k, &a) in players.iter().enumerate() {
            for &b in &players[k + 1..] {
                pairings.push((a, b, plan.jobs.len() + jobs.len()));
                jobs.push(Job::Duel {
                    a: genes(a),
                    b: genes(b),
                    seed: mix64(s.seed ^ ((g as u64) << 40) ^ ((a as u64) << 20) ^ b as u64),
                });
            }
        }
        plan.jobs.extend(jobs);
        plan.pairings.extend(pairings);
        plan.job_of = vec![None; plan.candidates.len()];
    }

    /// One job per candidate that is not a copy: its score, or (DE duels)
    /// its game against its parent.
    fn candidate_jobs(&self, plan: &mut Plan) {
        let s = &self.state.settings;
        let g = plan.generation;
        let members = self.state.population.len();
        if s.algorithm == Algorithm::Spsa {
            // One duel per pair, θ+ (even candidates) against θ-; none for
            // the starting point.
            for (i, c) in plan.candidates.iter().enumerate() {
                if members == 0 || i % 2 == 1 {
                    plan.job_of.push(None);
                    continue;
                }
                plan.job_of.push(Some(plan.jobs.len()));
                plan.jobs.push(Job::Duel {
                    a: c.clone(),
                    b: plan.candidates[i + 1].clone(),
                    seed: mix64(s.seed ^ ((g as u64) << 32) ^ i as u64 ^ 0x5b5a),
                });
            }
            return;
        }
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
                    seed: mix64(s.seed ^ ((g as u64) << 32) ^ i as u64),
                }
            } else {
                Job::Score { genes: c.clone() }
            };
            plan.jobs.push(job);
        }
    }

    /// Noise: re-tests a sample of game decisions (duels or pairings) with
    /// other game seeds.
    fn retest_jobs(&self, plan: &mut Plan, rng: &mut SmallRng) {
        let s = &self.state.settings;
        let g = plan.generation;
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
                seed: mix64(!s.seed ^ ((g as u64) << 32) ^ idx[k] as u64 ^ 0x5151),
            });
        }
    }

    fn select(&self, rng: &mut SmallRng, sc: &[f64], s: &Settings) -> usize {
        match s.evolution.selection {
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
                for _ in 1..s.evolution.tournament.max(1) {
                    let c = rng.random_range(0..sc.len());
                    if sc[c] > sc[best] {
                        best = c;
                    }
                }
                best
            }
        }
    }

    /// Runs the next generation on `workers`, keeping finished evaluations
    /// in `state.partial` as they come. `progress` gets (jobs done, jobs
    /// total, the state with them) after each result, so that the caller
    /// can checkpoint every evaluation.
    pub fn step(
        &mut self,
        workers: &mut dyn Workers,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(usize, usize, &State),
    ) -> Step {
        let started = std::time::Instant::now();
        let plan = self.plan();
        let results: Vec<Option<Eval>> = match &self.state.partial {
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
        self.state.partial = Some(Partial {
            generation: plan.generation,
            results,
        });
        progress(finished, total, &self.state);
        let state = &mut self.state;
        workers.run(
            &todo,
            &mut |i, e| {
                if let Some(p) = state.partial.as_mut() {
                    p.results[i] = Some(e);
                }
                finished += 1;
                progress(finished, total, state);
            },
            stop,
        );
        let results = self.state.partial.take().expect("set above").results;
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
        if s.algorithm == Algorithm::Spsa {
            replaced = self.spsa_step(plan, results);
        } else if self.state.population.is_empty() {
            for (i, c) in plan.candidates.iter().enumerate() {
                let e = cand_eval(i).expect("initial members are evaluated");
                self.state.population.push(Member {
                    genes: c.clone(),
                    fitness: e.fitness,
                    cost: e.cost,
                    errors: e.errors,
                    evals: 1,
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
                                evals: 1,
                            };
                            replaced += 1;
                        }
                    }
                }
                Algorithm::Spsa => unreachable!("SPSA is applied above"),
                Algorithm::Ga => {
                    for &(m, j) in &plan.reevals {
                        let member = &mut self.state.population[m];
                        let k = member.evals.max(1);
                        member.fitness =
                            (member.fitness * k as f64 + results[j].fitness) / (k + 1) as f64;
                        member.cost += results[j].cost;
                        member.evals = k + 1;
                    }
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
                                    evals: 1,
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

impl Tuner {
    /// SPSA: sets the starting point (generation 0), or moves θ by the
    /// pairs' results. θ's fitness is the mean share of θ+ over the pairs
    /// (about 0.5; the games say where to move, not how good θ is), its
    /// cost the games played. Returns 1 (θ replaced).
    fn spsa_step(&mut self, plan: &Plan, results: &[Eval]) -> usize {
        if self.state.population.is_empty() {
            self.state.population.push(Member {
                genes: plan.candidates[0].clone(),
                fitness: 0.5,
                cost: 0,
                errors: 0,
                evals: 1,
            });
            return 1;
        }
        let s = &self.state.settings;
        let (_, a) = spsa_gains(s.evolution.sigma, plan.generation);
        let pairs = plan.candidates.len() / 2;
        let mut theta = self.state.population[0].genes.clone();
        for (j, g) in self.space.genes.iter().enumerate() {
            let mut sum = 0.0;
            for (k, e) in results.iter().take(pairs).enumerate() {
                let r = 2.0 * e.fitness - 1.0;
                let d = plan.candidates[2 * k][j] - plan.candidates[2 * k + 1][j];
                sum += r * if d > 0.0 {
                    1.0
                } else if d < 0.0 {
                    -1.0
                } else {
                    0.0
                };
            }
            theta[j] = g.reflect(theta[j] + a * (g.max - g.min) * sum / pairs.max(1) as f64);
        }
        self.space.legalize(&mut theta);
        let n = results.len().max(1) as f64;
        self.state.population[0] = Member {
            genes: theta,
            fitness: results.iter().map(|e| e.fitness).sum::<f64>() / n,
            cost: results.iter().map(|e| e.cost).sum(),
            errors: results.iter().map(|e| e.errors).sum(),
            evals: 1,
        };
        1
    }
}

/// Round-robin shares: per player (members, then candidates), its share of
/// the points of its pairings, with the games played as `cost` and the
/// jigos as `errors`. A copy gets the share of the member it copies.
pub(super) fn round_robin(plan: &Plan, results: &[Eval], members: usize) -> Vec<Eval> {
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
