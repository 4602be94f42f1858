use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::fitness::{Eval, Evaluator, Job};
use super::genes::{Gene, GeneSpace};
use super::workers::ThreadWorkers;
use super::*;
use crate::weights::{Group, Weights};

fn gene(min: f64, max: f64, integer: bool) -> Gene {
    Gene {
        name: "g".into(),
        spec: 0,
        stage: 0,
        min,
        max,
        integer,
    }
}

#[test]
fn adaptive_f_is_twice_the_mean_coefficient_of_variation() {
    // Places in [0, 10]: gene 0 takes 2 and 6 (mean 0.4, sd 0.2, cv 0.5),
    // gene 1 takes 5 and 5 (cv 0).
    let genes = vec![gene(0.0, 10.0, false), gene(0.0, 10.0, false)];
    let pop = vec![vec![2.0, 5.0], vec![6.0, 5.0]];
    assert!((adaptive_f(&pop, &genes) - 2.0 * (0.5 + 0.0) / 2.0).abs() < 1e-12);
    // A converged population has F = 0.
    assert_eq!(adaptive_f(&[vec![3.0, 3.0], vec![3.0, 3.0]], &genes), 0.0);
}

#[test]
fn de_trial_is_rand1_with_binomial_crossover_and_reflection() {
    let genes = vec![gene(0.0, 10.0, false); 3];
    let pop = vec![
        vec![1.0, 1.0, 1.0],
        vec![5.0, 5.0, 9.0],
        vec![4.0, 2.0, 8.0],
        vec![2.0, 1.0, 0.0],
    ];
    // V = X1 + 0.5 (X2 - X3) = [6, 5.5, 13] -> 13 reflects to 7.
    // u = [0.95, 0.1, 0.95], CR 0.9: gene 1 from V; jrand = 2 from V.
    let draw = DeDraw {
        r: [1, 2, 3],
        jrand: 2,
        u: &[0.95, 0.1, 0.95],
    };
    let t = de_trial(&pop, 0, &draw, 0.5, 0.9, &genes);
    assert_eq!(t, vec![1.0, 5.5, 7.0]);
    // CR 0 still takes the jrand gene.
    let draw = DeDraw {
        r: [1, 2, 3],
        jrand: 0,
        u: &[0.5, 0.5, 0.5],
    };
    let t = de_trial(&pop, 0, &draw, 0.5, 0.0, &genes);
    assert_eq!(t, vec![6.0, 1.0, 1.0]);
}

#[test]
fn donors_are_distinct_and_not_the_target() {
    let mut rng = rng_for(7, 3);
    for i in 0..4 {
        for _ in 0..200 {
            let r = three_donors(&mut rng, 4, i);
            assert!(!r.contains(&i) && r[0] != r[1] && r[1] != r[2] && r[0] != r[2]);
        }
    }
}

#[test]
fn scaling_maps_to_unit_interval() {
    assert_eq!(scaled(&[-300.0, -100.0, -200.0]), vec![0.0, 1.0, 0.5]);
    assert_eq!(scaled(&[4.0, 4.0]), vec![1.0, 1.0]);
}

/// A cheap, deterministic test fitness: closeness to a target point.
struct Target {
    space: GeneSpace,
    target: Vec<f64>,
    calls: AtomicUsize,
    /// Milliseconds per evaluation (to stop a generation half-way).
    slow: AtomicUsize,
}

impl Evaluator for Target {
    fn evaluate(&self, job: &Job) -> Eval {
        self.calls.fetch_add(1, Ordering::SeqCst);
        let ms = self.slow.load(Ordering::SeqCst);
        if ms > 0 {
            std::thread::sleep(std::time::Duration::from_millis(ms as u64));
        }
        let score = |g: &[f64]| -> f64 {
            -g.iter()
                .zip(&self.target)
                .zip(&self.space.genes)
                .map(|((x, t), s)| ((x - t) / (s.max - s.min)).powi(2))
                .sum::<f64>()
        };
        let fitness = match job {
            Job::Score { genes } => score(genes),
            Job::Duel { a, b, .. } => {
                let (x, y) = (score(a), score(b));
                if x > y {
                    1.0
                } else if x < y {
                    0.0
                } else {
                    0.5
                }
            }
        };
        Eval {
            fitness,
            cost: 1,
            errors: 0,
        }
    }
}

fn settings(algorithm: Algorithm) -> Settings {
    Settings {
        genes: None,
        algorithm,
        group: GroupSet(vec![Group::Pruning, Group::Playout]),
        fitness: FitnessSpec::Dynamic {
            formula: fitness::Formula::NegSum,
            limit: false,
        },
        compare: Compare::Score,
        evolution: Evolution {
            population: 8,
            children: 8,
            selection: Selection::Tournament,
            tournament: 3,
            crossover_rate: 0.065,
            mutation_rate: 0.5,
            mutation: Mutation::Gaussian,
            sigma: 0.1,
            cr: 0.9,
            seed_current: true,
        },
        seed: 5,
        retest: 0,
        data: "target".into(),
        reevaluate: false,
    }
}

/// The settings as the builds before typed groups and fitness wrote them
/// (flat, the groups and the fitness as strings).
const OLD_SETTINGS: &str = r#"{"algorithm":"De","group":"pruning+playout","fitness":"dynamic (neg-sum)","compare":"Score","population":8,"children":8,"seed":5,"selection":"Tournament","tournament":3,"crossover_rate":0.065,"mutation_rate":0.5,"mutation":"Gaussian","sigma":0.1,"cr":0.9,"seed_current":true,"retest":0,"data":"target"}"#;

#[test]
fn settings_of_older_checkpoints_load_and_are_written_the_same() {
    let old: Settings = serde_json::from_str(OLD_SETTINGS).unwrap();
    assert_eq!(old, settings(Algorithm::De));
    let written = serde_json::to_value(&old).unwrap();
    let expected: serde_json::Value = serde_json::from_str(OLD_SETTINGS).unwrap();
    assert_eq!(written, expected);
    for (fitness, spec) in [
        (
            "static (bonuses 20,13,7,3,1)",
            FitnessSpec::Static {
                bonuses: vec![20.0, 13.0, 7.0, 3.0, 1.0],
            },
        ),
        (
            "dynamic (old2-over-new)",
            FitnessSpec::Dynamic {
                formula: fitness::Formula::OldSqOverNew,
                limit: false,
            },
        ),
        (
            "dynamic (neg-sum, failures at the limit)",
            FitnessSpec::Dynamic {
                formula: fitness::Formula::NegSum,
                limit: true,
            },
        ),
        (
            "pruning (errors + leaves at level 3)",
            FitnessSpec::Pruning {
                level: 3,
                budget: None,
            },
        ),
        (
            "pruning (errors over 5% + leaves at level 4)",
            FitnessSpec::Pruning {
                level: 4,
                budget: Some(5.0),
            },
        ),
        (
            "pruning (errors over 0.2% + leaves at level 2)",
            FitnessSpec::Pruning {
                level: 2,
                budget: Some(0.2),
            },
        ),
        ("match", FitnessSpec::Match),
    ] {
        assert_eq!(fitness.parse::<FitnessSpec>().unwrap(), spec);
        assert_eq!(spec.to_string(), fitness);
    }
    assert!("dynamic (nope)".parse::<FitnessSpec>().is_err());
    let all: GroupSet = "all".parse().unwrap();
    assert_eq!(all.to_string(), "all");
    assert_eq!(all.0.len(), 5);
    let damaged = OLD_SETTINGS.replace("pruning+playout", "pruning+plaout");
    let e = serde_json::from_str::<Settings>(&damaged)
        .unwrap_err()
        .to_string();
    assert!(e.contains("'plaout'"), "{e}");
}

fn space() -> GeneSpace {
    GeneSpace::new(&[Group::Pruning, Group::Playout], Weights::default())
}

fn evaluator(space: &GeneSpace) -> Arc<Target> {
    let target = space
        .genes
        .iter()
        .map(|g| g.legal(g.min + 0.3 * (g.max - g.min)))
        .collect();
    Arc::new(Target {
        space: space.clone(),
        target,
        calls: AtomicUsize::new(0),
        slow: AtomicUsize::new(0),
    })
}

fn run(s: Settings, workers: usize, generations: usize) -> State {
    let space = space();
    let ev = evaluator(&space);
    let mut w = ThreadWorkers::new(ev, workers);
    let mut t = Tuner {
        state: State::new(s, &space, Vec::new()),
        space,
    };
    let stop = AtomicBool::new(false);
    while t.state.done <= generations {
        match t.step(&mut w, &stop, &mut |_, _, _| {}) {
            Step::Done(_) => {}
            Step::Interrupted => unreachable!("not stopped"),
        }
    }
    t.state
}

/// The state without wall-clock times.
fn timeless(s: &State) -> State {
    let mut s = s.clone();
    for h in &mut s.history {
        h.seconds = 0.0;
    }
    s
}

#[test]
fn ga_children_stay_in_range_and_integers_stay_integers() {
    let space = space();
    assert!(space.genes.iter().any(|g| g.integer));
    let mut s = settings(Algorithm::Ga);
    s.evolution.mutation = Mutation::Reset;
    s.evolution.crossover_rate = 0.5;
    s.evolution.mutation_rate = 1.0;
    for mutation in [Mutation::Reset, Mutation::Gaussian] {
        s.evolution.mutation = mutation;
        let st = run(s.clone(), 2, 6);
        for m in &st.population {
            for (g, v) in space.genes.iter().zip(&m.genes) {
                assert!(g.min <= *v && *v <= g.max, "{} = {v}", g.name);
                assert!(!g.integer || v.fract() == 0.0, "{} = {v}", g.name);
            }
        }
    }
}

/// GA re-evaluation (noisy match fitness against the starting weights):
/// each generation every member plays the starting weights again with
/// seeds of its own, and its fitness becomes the mean of its
/// evaluations, so a member that was lucky once loses its place to a
/// child that scores better than its mean.
#[test]
fn ga_re_evaluation_averages_and_unseats_a_lucky_member() {
    let space = space();
    let ev = evaluator(&space);
    let mut s = settings(Algorithm::Ga);
    s.reevaluate = true;
    s.evolution.population = 4;
    s.evolution.children = 4;
    let mut t = Tuner {
        state: State::new(s, &space, Vec::new()),
        space: space.clone(),
    };
    let mut w = ThreadWorkers::new(ev, 1);
    let stop = AtomicBool::new(false);
    let _ = t.step(&mut w, &stop, &mut |_, _, _| {});
    assert!(t.state.population.iter().all(|m| m.evals == 1));
    // Member 0 was lucky: 1.0 once.
    t.state.population[0].fitness = 1.0;
    let plan = t.plan();
    assert_eq!(plan.reevals.len(), 4);
    let reference = space.encode(&space.base);
    let mut seeds = Vec::new();
    for &(m, j) in &plan.reevals {
        let Job::Duel { a, b, seed } = &plan.jobs[j] else {
            panic!("a re-evaluation is a duel against the starting weights")
        };
        assert_eq!((a, b), (&t.state.population[m].genes, &reference));
        seeds.push(*seed);
    }
    seeds.dedup();
    assert_eq!(seeds.len(), 4, "seeds of its own per member");
    // The re-evaluation loses every game; every child scores 0.6.
    let results: Vec<Eval> = (0..plan.jobs.len())
        .map(|j| Eval {
            fitness: if plan.reevals.iter().any(|r| r.1 == j) {
                0.0
            } else {
                0.6
            },
            cost: 4,
            errors: 0,
        })
        .collect();
    let lucky = t.state.population[0].genes.clone();
    let _ = t.apply(&plan, &results, 0.0);
    let best = t.state.best().unwrap();
    assert_ne!(best.genes, lucky, "the lucky member stays best");
    if let Some(m) = t.state.population.iter().find(|m| m.genes == lucky) {
        assert_eq!((m.fitness, m.evals, m.cost), (0.5, 2, 5));
    }
    // Without re-evaluation the lucky member keeps 1.0 and its place.
    let mut t2 = Tuner {
        state: State::new(settings(Algorithm::Ga), &space, Vec::new()),
        space: space.clone(),
    };
    t2.state.population = t.state.population.clone();
    t2.state.population[0].fitness = 1.0;
    assert!(t2.plan().reevals.is_empty());
}

#[test]
fn de_keeps_the_parent_on_a_tie() {
    let space = space();
    let ev = evaluator(&space);
    let mut t = Tuner {
        state: State::new(settings(Algorithm::De), &space, Vec::new()),
        space: space.clone(),
    };
    let mut w = ThreadWorkers::new(ev, 1);
    let stop = AtomicBool::new(false);
    let _ = t.step(&mut w, &stop, &mut |_, _, _| {});
    let before = t.state.population.clone();
    let plan = t.plan();
    // Every trial scores exactly its parent's fitness: nothing changes.
    let results: Vec<Eval> = (0..plan.jobs.len())
        .map(|i| Eval {
            fitness: before[i].fitness,
            cost: 0,
            errors: 0,
        })
        .collect();
    let stats = t.apply(&plan, &results, 0.0);
    assert_eq!(stats.replaced, 0);
    assert_eq!(t.state.population, before);
}

#[test]
fn both_algorithms_improve_and_the_result_does_not_depend_on_workers() {
    for alg in [Algorithm::Ga, Algorithm::De] {
        let one = run(settings(alg), 1, 12);
        let two = run(settings(alg), 2, 12);
        let three = run(settings(alg), 3, 12);
        assert_eq!(timeless(&one), timeless(&two), "{alg:?}");
        assert_eq!(timeless(&one), timeless(&three), "{alg:?}");
        let h = &one.history;
        assert!(h.last().unwrap().best > h[0].best, "{alg:?}: {h:?}");
        if alg == Algorithm::De {
            assert!(h.iter().skip(1).all(|g| g.f.is_some()));
        }
    }
}

/// What `progress` hands over after each evaluation is a checkpoint a
/// kill -9 may leave: saved in the middle of a generation (after its
/// second evaluation), reloaded and resumed, the run keeps those two
/// evaluations and ends as an uninterrupted one.
#[test]
fn a_checkpoint_after_any_evaluation_resumes_to_the_same_end() {
    for alg in [Algorithm::Ga, Algorithm::De] {
        let full = run(settings(alg), 2, 6);
        let space = space();
        let ev = evaluator(&space);
        let mut t = Tuner {
            state: State::new(settings(alg), &space, Vec::new()),
            space: space.clone(),
        };
        let mut w = ThreadWorkers::new(ev.clone(), 1);
        let stop = AtomicBool::new(false);
        let mut snapshot = None;
        while t.state.done < 4 {
            let g = t.state.done;
            let _ = t.step(&mut w, &stop, &mut |done, _, st| {
                if g == 3 && done == 2 {
                    snapshot = Some(st.clone());
                }
            });
        }
        let snap = snapshot.expect("a snapshot in generation 3");
        let partial = snap.partial.as_ref().expect("the evaluations so far");
        assert_eq!(partial.generation, 3);
        assert_eq!(partial.results.iter().filter(|r| r.is_some()).count(), 2);
        assert_eq!(snap.done, 3);
        let calls_before = ev.calls.load(Ordering::SeqCst);
        let mut t2 = Tuner {
            state: snap,
            space: space.clone(),
        };
        let _ = t2.step(&mut w, &stop, &mut |_, _, _| {});
        let planned = t2.state.history.last().unwrap().evaluations as usize;
        assert_eq!(ev.calls.load(Ordering::SeqCst) - calls_before, planned - 2);
        while t2.state.done <= 6 {
            let _ = t2.step(&mut w, &stop, &mut |_, _, _| {});
        }
        assert_eq!(timeless(&t2.state), timeless(&full), "{alg:?}");
    }
}

#[test]
fn checkpoint_round_trips_and_a_resumed_run_ends_the_same() {
    let dir = std::env::temp_dir().join(format!("tengen-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("ck.json");
    for alg in [Algorithm::Ga, Algorithm::De] {
        let full = run(settings(alg), 2, 8);
        // Run 3 generations, then stop in the middle of the 4th, save,
        // reload and finish.
        let space = space();
        let ev = evaluator(&space);
        let mut t = Tuner {
            state: State::new(settings(alg), &space, Vec::new()),
            space: space.clone(),
        };
        let mut w = ThreadWorkers::new(ev.clone(), 1);
        let stop = AtomicBool::new(false);
        while t.state.done < 4 {
            let _ = t.step(&mut w, &stop, &mut |_, _, _| {});
            t.state.save(&path).unwrap();
        }
        let stop_now = AtomicBool::new(false);
        ev.slow.store(5, Ordering::SeqCst);
        let res = t.step(&mut w, &stop_now, &mut |done, _, _| {
            if done >= 1 {
                stop_now.store(true, Ordering::SeqCst);
            }
        });
        assert!(matches!(res, Step::Interrupted));
        ev.slow.store(0, Ordering::SeqCst);
        t.state.save(&path).unwrap();
        let loaded = State::load(&path).unwrap();
        assert_eq!(loaded, t.state);
        assert!(loaded.partial.is_some());
        loaded.check(&settings(alg), &space, &path).unwrap();
        let mut other = settings(alg);
        other.seed = 6;
        let e = loaded.check(&other, &space, &path).unwrap_err().to_string();
        assert!(e.contains("seed") && e.contains("ck.json"), "{e}");
        let calls_before = ev.calls.load(Ordering::SeqCst);
        let mut t2 = Tuner {
            state: loaded,
            space: space.clone(),
        };
        let _ = t2.step(&mut w, &stop, &mut |_, _, _| {});
        // The finished evaluations of the interrupted generation were kept.
        let planned = t2.state.history.last().unwrap().evaluations as usize;
        assert!(ev.calls.load(Ordering::SeqCst) - calls_before < planned);
        while t2.state.done <= 8 {
            let _ = t2.step(&mut w, &stop, &mut |_, _, _| {});
        }
        assert_eq!(timeless(&t2.state), timeless(&full), "{alg:?}");
        assert_eq!(t2.state.done, full.done);
    }
    let e = State::load(&dir.join("missing.json"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("missing.json"), "{e}");
    std::fs::write(dir.join("bad.json"), "{").unwrap();
    let e = State::load(&dir.join("bad.json")).unwrap_err().to_string();
    assert!(e.contains("bad.json") && e.contains("damaged"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn duel_selection_retests_decisions() {
    let mut s = settings(Algorithm::De);
    s.compare = Compare::Duel;
    s.retest = 3;
    let st = run(s, 2, 3);
    for h in st.history.iter().skip(1) {
        assert_eq!(h.retests, 3);
        // The test fitness is exact: a retest never flips.
        assert_eq!(h.flips, 0);
    }
}

#[test]
fn round_robin_gives_one_point_per_win_and_selects_by_it() {
    let space = space();
    let ev = evaluator(&space);
    let score = |g: &[f64]| ev.evaluate(&Job::Score { genes: g.to_vec() }).fitness;
    for alg in [Algorithm::Ga, Algorithm::De] {
        let mut s = settings(alg);
        s.compare = Compare::RoundRobin;
        s.retest = 2;
        let one = run(s.clone(), 1, 10);
        let two = run(s.clone(), 2, 10);
        assert_eq!(timeless(&one), timeless(&two), "{alg:?}");
        // Initial round robin: 8 players, 28 pairings and 2 retests; later
        // ones add the candidates that are not copies.
        assert_eq!(one.history[0].evaluations, 28 + 2, "{alg:?}");
        for h in &one.history {
            assert_eq!(h.retests, 2);
            // The test fitness is exact: a retest never flips.
            assert_eq!(h.flips, 0);
        }
        // Each member's fitness is its share of the last tournament: mean
        // 0.5 over players, and within the population the order of shares
        // is the order of the underlying scores.
        for a in &one.population {
            for b in &one.population {
                if score(&a.genes) > score(&b.genes) {
                    assert!(a.fitness > b.fitness, "{alg:?}");
                }
            }
        }
        let best0 = run(s.clone(), 1, 0)
            .population
            .iter()
            .map(|m| score(&m.genes))
            .fold(f64::NEG_INFINITY, f64::max);
        let best = score(&one.best().unwrap().genes);
        assert!(best > best0, "{alg:?}: {best} <= {best0}");
    }
}

#[test]
fn round_robin_shares_count_games_and_jigos() {
    // Three players: 0 beats 1 (3 of 4 points), 0 and 2 split with two
    // jigos, 1 beats 2 outright.
    let plan = Plan {
        generation: 0,
        candidates: vec![vec![0.0]; 3],
        copy_of: vec![None; 3],
        jobs: Vec::new(),
        job_of: vec![None; 3],
        pairings: vec![(0, 1, 0), (0, 2, 1), (1, 2, 2)],
        retests: Vec::new(),
        reevals: Vec::new(),
        f: None,
    };
    let e = |fitness, errors| Eval {
        fitness,
        cost: 4,
        errors,
    };
    let r = round_robin(&plan, &[e(0.75, 0), e(0.5, 2), e(1.0, 0)], 0);
    let got: Vec<(f64, u64, u64)> = r.iter().map(|e| (e.fitness, e.cost, e.errors)).collect();
    assert_eq!(
        got,
        vec![(5.0 / 8.0, 8, 2), (5.0 / 8.0, 8, 0), (2.0 / 8.0, 8, 2)]
    );
}

/// SPSA on duels decided by closeness to a target: θ starts at the
/// current weights and moves toward the target; the result does not
/// depend on the workers; genes stay in range and integers integral.
#[test]
fn spsa_moves_toward_what_wins_and_does_not_depend_on_workers() {
    let space = space();
    let ev = evaluator(&space);
    let dist = |g: &[f64]| -> f64 {
        g.iter()
            .zip(&ev.target)
            .zip(&space.genes)
            .map(|((x, t), s)| ((x - t) / (s.max - s.min)).powi(2))
            .sum()
    };
    let mut s = settings(Algorithm::Spsa);
    s.evolution.population = 4;
    s.evolution.sigma = 0.1;
    let one = run(s.clone(), 1, 30);
    let two = run(s, 2, 30);
    assert_eq!(timeless(&one), timeless(&two));
    assert_eq!(one.population.len(), 1);
    let start = space.encode(&space.base);
    let end = &one.population[0].genes;
    assert!(
        dist(end) < 0.5 * dist(&start),
        "{} -> {}",
        dist(&start),
        dist(end)
    );
    for (g, v) in space.genes.iter().zip(end) {
        assert!(g.min <= *v && *v <= g.max, "{} = {v}", g.name);
        assert!(!g.integer || v.fract() == 0.0, "{} = {v}", g.name);
    }
    // Generation 0 sets the starting point without games; each later one
    // plays one duel per pair.
    assert_eq!(one.history[0].evaluations, 0);
    assert!(one.history[1..].iter().all(|h| h.evaluations == 4));
}

#[test]
fn spsa_gains_follow_spall() {
    let (c1, a1) = spsa_gains(0.1, 1);
    assert!((c1 - 0.1).abs() < 1e-12 && (a1 - 0.1).abs() < 1e-12);
    let (c, a) = spsa_gains(0.1, 91);
    assert!((c - 0.1 / 91f64.powf(0.101)).abs() < 1e-12);
    assert!((a - 0.1 * 0.1f64.powf(0.602)).abs() < 1e-12);
}
