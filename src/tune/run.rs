//! A tuning run from start to report: the starting state (a checkpoint, or
//! the reference leaves), the generations with a checkpoint after each,
//! the test-set pass and the weights file. What it has to say goes to an
//! [`Observer`]; the caller decides how to show it (bars or log lines).

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::config::{Kind, Setup};
use super::fitness::{self, SetProblem, runs_parallel};
use super::report::{self, TestResult, TestRow};
use super::workers::Workers;
use super::{State, Step, TuneError, Tuner};
use crate::weights::Weights;

/// Where a run reports. A phase is a span of counted steps (generations,
/// test problems); `line` is a line of log text.
pub trait Observer: Sync {
    fn line(&self, text: &str);
    /// A phase of `len` steps starts at `pos`, described by `what`.
    fn phase(&self, what: &str, len: u64, pos: u64);
    /// The phase's position, and an optional note on the work in flight.
    fn progress(&self, pos: u64, note: Option<String>);
    fn end_phase(&self);
}

/// The run's state: the checkpoint when resuming (checked against the
/// settings), else a new state with the reference leaves solved on
/// `threads` threads (untrained weights for dynamic fitness, the starting
/// weights for pruning fitness).
pub fn start_state(s: &Setup, threads: usize, obs: &dyn Observer) -> Result<State, TuneError> {
    let ck = s.config.checkpoint_path();
    if s.config.resume {
        if !ck.exists() {
            return Err(TuneError::Options(format!(
                "--resume: checkpoint '{}' does not exist (start without --resume)",
                ck.display()
            )));
        }
        let mut st = State::load(&ck)?;
        st.check(&s.settings, &s.space, &ck)?;
        if s.settings.pruning_budget().is_some() && st.reference_wrong.len() != s.train.len() {
            // A budget needs to know what level 1 gets wrong.
            st.reference_wrong =
                runs_parallel(&s.train, &s.space.base, 1, s.config.max_nodes, threads)
                    .iter()
                    .map(|r| r.wrong)
                    .collect();
        }
        obs.line(&format!(
            "resuming '{}' after generation {} ({} evaluations)",
            ck.display(),
            st.done.saturating_sub(1),
            st.evaluations
        ));
        return Ok(st);
    }
    if ck.exists() {
        return Err(TuneError::Options(format!(
            "checkpoint '{}' exists: continue it with --resume, or remove it to start afresh",
            ck.display()
        )));
    }
    let reference_weights = match s.kind {
        Kind::Dynamic => Some(("untrained (all-zero)", s.space.decode(&s.space.zero()))),
        Kind::Pruning => Some(("starting", s.space.base.clone())),
        Kind::Static | Kind::Match => None,
    };
    let mut runs = Vec::new();
    if let Some((what, w)) = reference_weights {
        let t = Instant::now();
        obs.line(&format!(
            "reference: solving {} training problems with the {what} weights",
            s.train.len()
        ));
        runs = runs_parallel(&s.train, &w, 1, s.config.max_nodes, threads);
        obs.line(&format!(
            "reference: {} leaves in {:.1} s",
            runs.iter().map(|r| r.leaves).sum::<u64>(),
            t.elapsed().as_secs_f64()
        ));
    }
    let mut st = State::new(
        s.settings.clone(),
        &s.space,
        runs.iter().map(|r| r.leaves).collect(),
    );
    if s.kind == Kind::Pruning {
        st.reference_wrong = runs.iter().map(|r| r.wrong).collect();
    }
    Ok(st)
}

/// How a run ended.
pub enum Outcome {
    /// Stopped (`stop` was set): the checkpoint holds `generations`
    /// finished generations and `evaluations` of the next.
    Stopped {
        checkpoint: PathBuf,
        generations: usize,
        evaluations: usize,
    },
    /// Finished: the weights file and the report are written.
    Finished {
        summary: String,
        weights: PathBuf,
        report: PathBuf,
    },
}

/// The master loop: generations with a checkpoint after each, then the
/// test set, the report and the weights file. `stop` ends it early with
/// the checkpoint saved.
pub fn drive(
    s: &Setup,
    workers: &mut dyn Workers,
    state: State,
    stop: &AtomicBool,
    obs: &dyn Observer,
) -> Result<Outcome, TuneError> {
    let c = &s.config;
    let ck = c.checkpoint_path();
    if let Some(dir) = ck.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| TuneError::io(dir, e))?;
    }
    let mut tuner = Tuner {
        space: s.space.clone(),
        state,
    };
    let total = c.generations + 1;
    obs.phase(
        "generations",
        total as u64,
        tuner.state.done.min(total) as u64,
    );
    let started = Instant::now();
    let mut stopped = false;
    while tuner.state.done < total {
        let g = tuner.state.done;
        let pos = g as u64;
        // The checkpoint is written after every evaluation, so that a
        // kill -9 loses at most the evaluations in flight.
        let mut save_error = None;
        let res = tuner.step(workers, stop, &mut |done, jobs, st| {
            obs.progress(
                pos,
                Some(format!("generation {g}: {done}/{jobs} evaluations")),
            );
            if done > 0
                && save_error.is_none()
                && let Err(e) = st.save(&ck)
            {
                save_error = Some(e);
            }
        });
        if let Some(e) = save_error {
            return Err(e);
        }
        match res {
            Step::Done(h) => {
                tuner.state.save(&ck)?;
                obs.progress(tuner.state.done as u64, None);
                obs.line(&format!(
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
                ));
                if let (Some(limit), Some(f)) = (c.f_stop, h.f)
                    && f < limit
                {
                    obs.line(&format!(
                        "F {f:.4} < --f-stop {limit}: the population has converged"
                    ));
                    break;
                }
            }
            Step::Interrupted => {
                tuner.state.save(&ck)?;
                stopped = true;
                break;
            }
        }
        if stop.load(Ordering::SeqCst) {
            stopped = true;
            break;
        }
    }
    obs.end_phase();
    if stopped {
        let evaluations = tuner
            .state
            .partial
            .as_ref()
            .map_or(0, |p| p.results.iter().filter(|r| r.is_some()).count());
        return Ok(Outcome::Stopped {
            checkpoint: ck,
            generations: tuner.state.done,
            evaluations,
        });
    }
    let seconds = started.elapsed().as_secs_f64();
    let best = tuner
        .state
        .best()
        .ok_or_else(|| TuneError::Options("the population is empty".into()))?;
    let tuned = s.space.decode(&best.genes);
    let test = match (&c.test, s.kind) {
        (Some(_), kind) if kind != Kind::Match => Some(test_pass(s, &tuned, workers.count(), obs)?),
        _ => None,
    };
    let written = report::write(s, &tuner.state, &tuned, test.as_ref(), seconds)?;
    Ok(Outcome::Finished {
        summary: written.summary,
        weights: c.out.clone(),
        report: written.dir,
    })
}

/// Solves `set` with `w` at `level` on `threads` threads as one phase of
/// `obs` called `label`, then logs its leaves, wrong or unsolved answers
/// and time. Returns the runs and the seconds.
pub fn observed_runs(
    set: &[SetProblem],
    w: &Weights,
    level: u8,
    max_nodes: u64,
    threads: usize,
    obs: &dyn Observer,
    label: &str,
) -> (Vec<fitness::ProblemRun>, f64) {
    let known = vec![None; set.len()];
    observed_runs_from(
        set,
        w,
        level,
        max_nodes,
        threads,
        obs,
        label,
        &known,
        0.0,
        &mut |_, _| {},
    )
}

/// [`observed_runs`] that takes the runs already `known` (by index; from
/// a state file) and solves the others, handing each new run to `each`
/// as it finishes (to be saved). `secs_before`: the time the known runs
/// took, added to the pass's time.
#[allow(clippy::too_many_arguments)]
pub fn observed_runs_from(
    set: &[SetProblem],
    w: &Weights,
    level: u8,
    max_nodes: u64,
    threads: usize,
    obs: &dyn Observer,
    label: &str,
    known: &[Option<fitness::ProblemRun>],
    secs_before: f64,
    each: &mut dyn FnMut(usize, fitness::ProblemRun),
) -> (Vec<fitness::ProblemRun>, f64) {
    let t = Instant::now();
    let todo: Vec<usize> = (0..set.len()).filter(|&i| known[i].is_none()).collect();
    let mut pos = (set.len() - todo.len()) as u64;
    obs.phase(label, set.len() as u64, pos);
    let mut r: Vec<fitness::ProblemRun> = known.iter().map(|k| k.unwrap_or_default()).collect();
    fitness::runs_each(set, &todo, w, level, max_nodes, threads, &mut |i, run| {
        r[i] = run;
        each(i, run);
        pos += 1;
        obs.progress(pos, None);
    });
    obs.end_phase();
    let secs = secs_before + t.elapsed().as_secs_f64();
    obs.line(&format!(
        "{label}: {} leaves, {} wrong or unsolved, {secs:.1} s",
        r.iter().map(|x| x.leaves).sum::<u64>(),
        r.iter().filter(|x| x.wrong).count(),
    ));
    (r, secs)
}

fn test_pass(
    s: &Setup,
    tuned: &Weights,
    threads: usize,
    obs: &dyn Observer,
) -> Result<TestResult, TuneError> {
    let c = &s.config;
    let candidates = s.test_candidates()?;
    let level = c.level_of(s.kind);
    let zero = s.space.decode(&s.space.zero());
    let test = c.test.as_deref().unwrap_or(std::path::Path::new(""));
    obs.line(&format!(
        "test set: {} problems from {} (training problems left out)",
        candidates.len(),
        test.display()
    ));
    let runs = |set: &[SetProblem], w: &Weights, what: &str| {
        let label = format!("test set, {what} weights");
        observed_runs(set, w, level, c.test_max_nodes, threads, obs, &label).0
    };
    // The test set is what the untrained weights solve: the others
    // measure the node limit, not the ordering.
    let all0 = runs(&candidates, &zero, "untrained");
    let (mut kept, mut r0, mut failed) = (Vec::new(), Vec::new(), Vec::new());
    for (p, r) in candidates.into_iter().zip(all0) {
        if r.wrong {
            failed.push(p.id());
        } else {
            kept.push(p);
            r0.push(r);
        }
    }
    report::write_test_lists(&c.report_dir(), &kept, &failed)?;
    if kept.is_empty() {
        return Err(TuneError::Problems(format!(
            "--test {}: the untrained weights solve none of its problems within --test-max-nodes {}",
            test.display(),
            c.test_max_nodes
        )));
    }
    let r1 = runs(&kept, &s.space.base, "starting");
    let r2 = runs(&kept, tuned, "tuned");
    let rows = kept
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
    Ok(TestResult {
        rows,
        kept,
        failed,
        runs: [r0, r1, r2],
    })
}
