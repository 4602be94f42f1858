//! The promotion gate of solver weights: a candidate set replaces a
//! baseline (today's defaults) only when, on a test set the candidate was
//! not trained on, it has at every speed level asked (1-5 by default) no
//! more errors and fewer leaves than the baseline.
//!
//! An error is a problem whose status disagrees in class with the file's
//! label, or that hit the node limit ([`super::fitness::run_problem`]). Leaves are
//! GoTools' count per answer line, summed over the problems both sets get
//! right (a problem that runs to the node limit has as many leaves as the
//! limit allows, and a few of them would outweigh every saving); the
//! total over the set is reported beside it. The report gives both
//! conditions per level with the figures, so a failed gate says why.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::fitness::{ProblemRun, SetProblem};
use super::run::{Observer, observed_runs_from};
use super::sample::ProblemId;
use crate::weights::Weights;

/// One side's figures at one level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Figures {
    /// Problems wrong or unsettled.
    pub errors: u64,
    /// Line leaves, summed over the problems both sets get right.
    pub leaves: u64,
    /// Line leaves, summed over the whole set.
    pub all_leaves: u64,
    /// Wall time of the pass, seconds.
    pub secs: f64,
}

impl Figures {
    fn of(runs: &[ProblemRun], secs: f64) -> Figures {
        Figures {
            errors: runs.iter().filter(|r| r.wrong).count() as u64,
            leaves: 0,
            all_leaves: runs.iter().map(|r| r.leaves).sum(),
            secs,
        }
    }
}

/// The gate at one level.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LevelGate {
    pub level: u8,
    pub baseline: Figures,
    pub candidate: Figures,
    /// The problems the candidate gets wrong and the baseline right, and
    /// the other way round.
    pub newly_wrong: Vec<ProblemId>,
    pub newly_right: Vec<ProblemId>,
}

impl LevelGate {
    /// No more errors than the baseline.
    pub fn errors_pass(&self) -> bool {
        self.candidate.errors <= self.baseline.errors
    }

    /// Fewer leaves than the baseline on the problems both get right.
    pub fn leaves_pass(&self) -> bool {
        self.candidate.leaves < self.baseline.leaves
    }

    pub fn passes(&self) -> bool {
        self.errors_pass() && self.leaves_pass()
    }

    /// The candidate's leaves against the baseline's, in per cent (-25.0:
    /// a quarter fewer).
    pub fn leaves_change(&self) -> f64 {
        change(self.baseline.leaves, self.candidate.leaves)
    }
}

fn change(base: u64, new: u64) -> f64 {
    if base == 0 {
        0.0
    } else {
        100.0 * (new as f64 - base as f64) / base as f64
    }
}

/// The gate over every level asked.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GateReport {
    pub problems: usize,
    pub max_nodes: u64,
    pub levels: Vec<LevelGate>,
}

impl GateReport {
    /// Promoted: every level passes both conditions.
    pub fn promoted(&self) -> bool {
        !self.levels.is_empty() && self.levels.iter().all(LevelGate::passes)
    }

    /// A table, one row per level, and the verdict with its reasons.
    pub fn render(&self, baseline: &str, candidate: &str) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "gate: {candidate} against {baseline} on {} test problems, {} nodes per answer",
            self.problems, self.max_nodes
        );
        let _ = writeln!(
            out,
            "level  errors base  cand  pass   leaves base      cand   change  pass   time base  cand   all leaves base      cand"
        );
        for l in &self.levels {
            let _ = writeln!(
                out,
                "{:>5}  {:>11}  {:>4}  {:<5}  {:>11}  {:>8}  {:>+6.1}%  {:<5}  {:>8.1}s {:>5.1}s  {:>15}  {:>8}",
                l.level,
                l.baseline.errors,
                l.candidate.errors,
                yes(l.errors_pass()),
                l.baseline.leaves,
                l.candidate.leaves,
                l.leaves_change(),
                yes(l.leaves_pass()),
                l.baseline.secs,
                l.candidate.secs,
                l.baseline.all_leaves,
                l.candidate.all_leaves
            );
            if !l.newly_wrong.is_empty() {
                let _ = writeln!(
                    out,
                    "       level {}: wrong or unsettled with {candidate} only: {}",
                    l.level,
                    names(&l.newly_wrong)
                );
            }
            if !l.newly_right.is_empty() {
                let _ = writeln!(
                    out,
                    "       level {}: right with {candidate} only: {}",
                    l.level,
                    names(&l.newly_right)
                );
            }
        }
        let failed: Vec<String> = self
            .levels
            .iter()
            .filter(|l| !l.passes())
            .map(|l| {
                let mut why = Vec::new();
                if !l.errors_pass() {
                    why.push(format!(
                        "{} errors against {}",
                        l.candidate.errors, l.baseline.errors
                    ));
                }
                if !l.leaves_pass() {
                    why.push(format!(
                        "{} leaves against {} on the problems both get right",
                        l.candidate.leaves, l.baseline.leaves
                    ));
                }
                format!("level {}: {}", l.level, why.join(", "))
            })
            .collect();
        if self.promoted() {
            let _ = writeln!(
                out,
                "gate: PASSED: at every level no more errors and fewer leaves"
            );
        } else {
            let _ = writeln!(out, "gate: FAILED: {}", failed.join("; "));
        }
        out
    }
}

fn yes(b: bool) -> &'static str {
    if b { "yes" } else { "NO" }
}

fn names(ids: &[ProblemId]) -> String {
    ids.iter()
        .map(|id| format!("{} {}", id.file, id.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The passes a gate has finished (one per level and side) and the
/// problems of the pass in flight, so that a gate stopped by Ctrl-C or
/// kill -9 goes on where it was and loses at most the problems being
/// solved when it stopped (one per thread).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GateState {
    /// What the passes were computed for (the caller's digest of the
    /// weights, the set, the limits and the program); the passes of a
    /// state with another key are not used.
    pub key: String,
    pub passes: Vec<Pass>,
    /// The pass in flight: its finished problems.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partial: Option<Partial>,
}

/// The finished problems of a pass in flight.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Partial {
    pub level: u8,
    pub candidate: bool,
    /// (index in the set, run), in the order they finished.
    pub runs: Vec<(usize, ProblemRun)>,
    /// Seconds the pass had run at the last save.
    pub secs: f64,
}

/// One finished pass: a side's runs at a level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pass {
    pub level: u8,
    pub candidate: bool,
    pub runs: Vec<ProblemRun>,
    pub secs: f64,
}

/// Solves `set` with `baseline` and `candidate` at every level of
/// `levels`, problems spread over `threads` threads, and compares them.
/// Passes found in `state` are not solved again, nor are the finished
/// problems of its pass in flight; `state` is handed to `save` after
/// every problem solved.
#[allow(clippy::too_many_arguments)]
pub fn gate(
    set: &[SetProblem],
    baseline: &Weights,
    candidate: &Weights,
    levels: &[u8],
    max_nodes: u64,
    threads: usize,
    obs: &dyn Observer,
    state: &mut GateState,
    save: &mut dyn FnMut(&GateState),
) -> GateReport {
    let mut pass = |level: u8, is_candidate: bool| {
        let w = if is_candidate { candidate } else { baseline };
        let job = PassJob {
            set,
            w,
            level,
            is_candidate,
            max_nodes,
            threads,
        };
        job.run(obs, state, save)
    };
    let levels = levels
        .iter()
        .map(|&level| {
            let (rb, fb) = pass(level, false);
            let (rc, fc) = pass(level, true);
            compare_runs(set, level, &rb, fb, &rc, fc)
        })
        .collect();
    GateReport {
        problems: set.len(),
        max_nodes,
        levels,
    }
}

/// One pass of the gate: a side's weights at a level.
struct PassJob<'a> {
    set: &'a [SetProblem],
    w: &'a Weights,
    level: u8,
    is_candidate: bool,
    max_nodes: u64,
    threads: usize,
}

impl PassJob<'_> {
    /// The pass's runs and figures: from `state` when it holds the whole
    /// pass; else solved, taking the problems its pass in flight holds
    /// and saving `state` after each new one and at the end.
    fn run(
        &self,
        obs: &dyn Observer,
        state: &mut GateState,
        save: &mut dyn FnMut(&GateState),
    ) -> (Vec<ProblemRun>, Figures) {
        let (level, cand, n) = (self.level, self.is_candidate, self.set.len());
        let what = if cand { "candidate" } else { "baseline" };
        let label = format!("level {level}, {what} weights");
        if let Some(p) = state
            .passes
            .iter()
            .find(|p| p.level == level && p.candidate == cand && p.runs.len() == n)
        {
            let f = Figures::of(&p.runs, p.secs);
            obs.line(&format!(
                "{label}: {} leaves, {} wrong or unsolved, {:.1} s (from the state file)",
                f.all_leaves, f.errors, f.secs
            ));
            return (p.runs.clone(), f);
        }
        // The pass in flight, if the state holds this one (a partial of
        // another pass cannot come from a stopped gate: passes run in a
        // fixed order).
        let mut partial = match state.partial.take() {
            Some(mut p) if p.level == level && p.candidate == cand => {
                let mut seen = vec![false; n];
                p.runs
                    .retain(|&(i, _)| i < n && !std::mem::replace(&mut seen[i], true));
                obs.line(&format!(
                    "{label}: {} of {n} problems from the state file",
                    p.runs.len()
                ));
                p
            }
            _ => Partial {
                level,
                candidate: cand,
                runs: Vec::new(),
                secs: 0.0,
            },
        };
        let mut known = vec![None; n];
        for &(i, r) in &partial.runs {
            known[i] = Some(r);
        }
        let before = partial.secs;
        partial.runs.reserve(n);
        state.partial = Some(partial);
        let t = std::time::Instant::now();
        let (runs, secs) = observed_runs_from(
            self.set,
            self.w,
            level,
            self.max_nodes,
            self.threads,
            obs,
            &label,
            &known,
            before,
            &mut |i, r| {
                if let Some(p) = state.partial.as_mut() {
                    p.runs.push((i, r));
                    p.secs = before + t.elapsed().as_secs_f64();
                }
                save(state);
            },
        );
        state.partial = None;
        state.passes.push(Pass {
            level,
            candidate: cand,
            runs: runs.clone(),
            secs,
        });
        save(state);
        let f = Figures::of(&runs, secs);
        (runs, f)
    }
}

fn compare_runs(
    set: &[SetProblem],
    level: u8,
    rb: &[ProblemRun],
    mut baseline: Figures,
    rc: &[ProblemRun],
    mut candidate: Figures,
) -> LevelGate {
    for (b, c) in rb.iter().zip(rc) {
        if !b.wrong && !c.wrong {
            baseline.leaves += b.leaves;
            candidate.leaves += c.leaves;
        }
    }
    let pick = |f: fn(bool, bool) -> bool| {
        set.iter()
            .zip(rb.iter().zip(rc))
            .filter(|(_, (b, c))| f(b.wrong, c.wrong))
            .map(|(p, _)| p.id())
            .collect()
    };
    LevelGate {
        level,
        baseline,
        candidate,
        newly_wrong: pick(|b, c| !b && c),
        newly_right: pick(|b, c| b && !c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(level: u8, base: (u64, u64), cand: (u64, u64)) -> LevelGate {
        let f = |(errors, leaves)| Figures {
            errors,
            leaves,
            all_leaves: leaves + 1000,
            secs: 1.0,
        };
        LevelGate {
            level,
            baseline: f(base),
            candidate: f(cand),
            newly_wrong: vec![],
            newly_right: vec![],
        }
    }

    #[test]
    fn the_gate_wants_both_conditions_at_every_level() {
        let report = |levels| GateReport {
            problems: 10,
            max_nodes: 1000,
            levels,
        };
        let good = report(vec![
            level(1, (1, 100), (1, 70)),
            level(2, (2, 80), (0, 79)),
        ]);
        assert!(good.promoted());
        assert!(good.render("defaults", "c.toml").contains("PASSED"));
        // Equal leaves are not fewer.
        let tie = report(vec![
            level(1, (1, 100), (1, 70)),
            level(2, (2, 80), (2, 80)),
        ]);
        assert!(!tie.promoted());
        let text = tie.render("defaults", "c.toml");
        assert!(
            text.contains("FAILED: level 2: 80 leaves against 80 on the problems both get right"),
            "{text}"
        );
        // One more error at one level fails, whatever the leaves.
        let err = report(vec![
            level(1, (1, 100), (2, 10)),
            level(3, (5, 80), (5, 60)),
        ]);
        assert!(!err.promoted());
        assert!(
            err.render("d", "c")
                .contains("FAILED: level 1: 2 errors against 1"),
        );
        assert!(!report(vec![]).promoted(), "no level, no promotion");
        assert!((good.levels[0].leaves_change() + 30.0).abs() < 1e-9);
    }

    struct Quiet;

    impl Observer for Quiet {
        fn line(&self, _: &str) {}
        fn phase(&self, _: &str, _: u64, _: u64) {}
        fn progress(&self, _: u64, _: Option<String>) {}
        fn end_phase(&self) {}
    }

    /// The gate at level 1 with the defaults on both sides.
    fn level_1(
        set: &[SetProblem],
        state: &mut GateState,
        save: &mut dyn FnMut(&GateState),
    ) -> GateReport {
        let w = Weights::default();
        gate(set, &w, &w, &[1], 20_000, 1, &Quiet, state, save)
    }

    /// A gate goes on from its state: a finished pass is not solved again
    /// (its runs are taken as saved), the others are solved and saved.
    #[test]
    fn a_gate_goes_on_from_its_state() {
        let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/solver-bench.gt");
        let mut set = crate::tune::fitness::load_set(std::path::Path::new(file), 48).unwrap();
        set.truncate(6);
        let mut fresh = GateState::default();
        let mut saves = 0;
        let full = level_1(&set, &mut fresh, &mut |_| saves += 1);
        // A save after each problem and after each pass.
        assert_eq!((saves, fresh.passes.len()), (14, 2));
        assert_eq!(fresh.partial, None);
        assert_eq!(
            full.levels[0].baseline.leaves,
            full.levels[0].candidate.leaves
        );
        // A state holding the baseline's pass with other (saved) figures.
        let mut state = GateState {
            key: "k".into(),
            passes: vec![Pass {
                level: 1,
                candidate: false,
                runs: vec![
                    ProblemRun {
                        leaves: 1_000_000,
                        wrong: false
                    };
                    set.len()
                ],
                secs: 9.0,
            }],
            partial: None,
        };
        let mut saved = Vec::new();
        let r = level_1(&set, &mut state, &mut |s| saved.push(s.passes.len()));
        assert_eq!(
            saved,
            vec![1, 1, 1, 1, 1, 1, 2],
            "only the candidate's pass was solved"
        );
        assert_eq!(state.passes.len(), 2);
        assert_eq!(r.levels[0].baseline.leaves, 6_000_000);
        let (c, f) = (r.levels[0].candidate, full.levels[0].candidate);
        assert_eq!((c.errors, c.all_leaves), (f.errors, f.all_leaves));
        assert!(r.promoted(), "the saved baseline is worse on leaves");

        // A pass stopped in flight: the baseline's problems 4 and 1 were
        // saved (with other figures); only the other four are solved.
        let fake = ProblemRun {
            leaves: 1_000_000,
            wrong: false,
        };
        let mut state = GateState {
            key: "k".into(),
            passes: Vec::new(),
            partial: Some(Partial {
                level: 1,
                candidate: false,
                runs: vec![(4, fake), (1, fake)],
                secs: 5.0,
            }),
        };
        let mut solved = Vec::new();
        let r = level_1(&set, &mut state, &mut |s| {
            if let Some(p) = &s.partial {
                solved.push(p.runs.last().unwrap().0);
            }
        });
        let (mut base_solved, cand_solved) = (solved[..4].to_vec(), &solved[4..]);
        base_solved.sort();
        assert_eq!(base_solved, vec![0, 2, 3, 5]);
        assert_eq!(cand_solved.len(), 6);
        let runs = &state.passes[0].runs;
        assert_eq!((runs[1], runs[4]), (fake, fake));
        let b = r.levels[0].baseline;
        assert!(b.secs >= 5.0, "the saved seconds count: {}", b.secs);
        let own: u64 = state.passes[1].runs.iter().map(|x| x.leaves).sum();
        let others = own - state.passes[1].runs[1].leaves - state.passes[1].runs[4].leaves;
        assert_eq!(b.all_leaves, 2_000_000 + others);
        assert_eq!(state.partial, None);
    }

    #[test]
    fn leaves_are_compared_on_the_problems_both_get_right() {
        let run = |leaves, wrong| ProblemRun { leaves, wrong };
        let f = |runs: &[ProblemRun]| Figures::of(runs, 0.0);
        let base = [run(10, false), run(500, true), run(20, false)];
        let cand = [run(8, false), run(100, false), run(30, true)];
        let l = compare_runs(&[], 1, &base, f(&base), &cand, f(&cand));
        assert_eq!((l.baseline.leaves, l.candidate.leaves), (10, 8));
        assert_eq!((l.baseline.all_leaves, l.candidate.all_leaves), (530, 138));
        assert_eq!((l.baseline.errors, l.candidate.errors), (1, 1));
        assert!(l.passes());
    }
}
