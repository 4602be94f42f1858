//! The tuning report: `summary.md`, the learning curve and DE's F, the
//! training and test lists, for solver weights the test table and the
//! profile, and the weights file with its provenance header.

mod charts;

pub use charts::*;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::config::{Kind, Setup, list_of};
use super::fitness::{ProblemRun, SetProblem};
use super::sample::{self, ProblemId};
use super::{Algorithm, Compare, State, TuneError};
use crate::weights::Weights;

/// The test set's results: the problems the untrained weights solve, and
/// per problem the runs of the untrained, starting and tuned weights.
pub struct TestResult {
    pub rows: Vec<TestRow>,
    pub kept: Vec<SetProblem>,
    pub failed: Vec<ProblemId>,
    pub runs: [Vec<ProblemRun>; 3],
}

/// What [`write()`] wrote.
pub struct Written {
    pub summary: String,
    pub dir: PathBuf,
}

fn now() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

/// How match candidates were compared, for the report and provenance.
fn compare_note(s: &super::Settings) -> &'static str {
    if s.algorithm == super::Algorithm::Spsa {
        return " (SPSA: pairs of perturbations of one point play each other; fitness is the mean share of the + side)";
    }
    match s.compare {
        Compare::Score if s.reevaluate => {
            " (every member plays the starting weights again each generation; fitness is the mean of its evaluations)"
        }
        Compare::Score => "",
        Compare::Duel => " (duels: trial against parent)",
        Compare::RoundRobin => " (round robin each generation; fitness is the share of its points)",
    }
}

fn put(path: &Path, text: &str) -> Result<(), TuneError> {
    std::fs::write(path, text).map_err(|e| TuneError::io(path, e))
}

fn create_dir(dir: &Path) -> Result<(), TuneError> {
    std::fs::create_dir_all(dir).map_err(|e| TuneError::io(dir, e))
}

/// `test.lst` and `test-failed-untrained.lst`, written as soon as the
/// untrained pass has sorted the candidates.
pub fn write_test_lists(
    dir: &Path,
    kept: &[SetProblem],
    failed: &[ProblemId],
) -> Result<(), TuneError> {
    create_dir(dir)?;
    put(
        &dir.join("test.lst"),
        &sample::format_list("test (solved by the untrained weights)", &list_of(kept)),
    )?;
    put(
        &dir.join("test-failed-untrained.lst"),
        &sample::format_list(
            "test candidates the untrained weights fail (left out)",
            failed,
        ),
    )
}

/// The test-set headline: leaves and misses of the three weight sets.
fn headline(s: &Setup, t: &TestResult) -> String {
    let sum = |r: &[ProblemRun]| r.iter().map(|x| x.leaves).sum::<u64>();
    let wrong = |r: &[ProblemRun]| r.iter().filter(|x| x.wrong).count();
    let [r0, r1, r2] = &t.runs;
    let (l0, l1, l2) = (sum(r0), sum(r1), sum(r2));
    format!(
        "test set ({} problems solved by the untrained weights, {} left out; level {}, max nodes {}): leaves (GoTools' count per answer line) untrained {l0}, starting {l1}, tuned {l2}: {:+.1}% vs untrained, {:+.1}% vs starting; wrong or unsolved: {}, {}, {}",
        t.kept.len(),
        t.failed.len(),
        s.config.level_of(s.kind),
        s.config.test_max_nodes,
        (l2 as f64 / l0.max(1) as f64 - 1.0) * 100.0,
        (l2 as f64 / l1.max(1) as f64 - 1.0) * 100.0,
        wrong(r0),
        wrong(r1),
        wrong(r2)
    )
}

/// Writes the report folder and the weights file (atomically, then read
/// back as the engine reads it).
pub fn write(
    s: &Setup,
    st: &State,
    tuned: &Weights,
    test: Option<&TestResult>,
    seconds: f64,
) -> Result<Written, TuneError> {
    let c = &s.config;
    let best = st
        .best()
        .ok_or_else(|| TuneError::Options("the population is empty".into()))?;
    let dir = c.report_dir();
    create_dir(&dir)?;
    let mut summary = String::new();
    let _ = writeln!(summary, "# tengen tune report\n");
    let _ = writeln!(
        summary,
        "- algorithm: {:?}; group: {}; fitness: {}{}\n- population {}, generations finished {} (including the initial one), evaluations {}\n- data: {}\n- seed {}; {}; tengen {} (git {})\n- best fitness {:.6}",
        st.settings.algorithm,
        st.settings.tuned(),
        st.settings.fitness,
        compare_note(&st.settings),
        st.settings.evolution.population,
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
    let curve = dir.join("curve.csv");
    put(&curve, &curve_csv(&st.history))?;
    let chart_err = |stem: &Path| {
        let stem = stem.to_path_buf();
        move |e| TuneError::io(&stem, e)
    };
    let stem = dir.join("curve");
    plot_curve(
        &stem,
        &st.history,
        &format!(
            "{:?} on {} ({})",
            st.settings.algorithm,
            st.settings.tuned(),
            st.settings.fitness
        ),
    )
    .map_err(chart_err(&stem))?;
    if st.settings.algorithm == Algorithm::De {
        let stem = dir.join("f");
        plot_f(&stem, &st.history).map_err(chart_err(&stem))?;
    }
    put(
        &dir.join("train.lst"),
        &sample::format_list("training", &list_of(&s.train)),
    )?;
    let mut line = String::new();
    if let Some(t) = test {
        line = headline(s, t);
        let _ = writeln!(
            summary,
            "\n## Test set\n\n{line}\n\nLists: train.lst, test.lst, test-failed-untrained.lst (rebuild a run with `--train train.lst --test test.lst --problems DIR`).\n\n{}",
            difficulty_table(&t.rows)
        );
        put(&dir.join("test.csv"), &test_csv(&t.rows))?;
        let stem = dir.join("profile");
        plot_profile(&stem, &t.rows).map_err(chart_err(&stem))?;
    }
    put(&dir.join("summary.md"), &summary)?;
    write_weights(s, st, tuned, best.fitness, &line, seconds)?;
    Ok(Written { summary, dir })
}

/// The weights file with its provenance header.
fn write_weights(
    s: &Setup,
    st: &State,
    tuned: &Weights,
    fitness: f64,
    headline: &str,
    seconds: f64,
) -> Result<(), TuneError> {
    let c = &s.config;
    let mut text = String::new();
    let _ = writeln!(text, "# Tuned by `tengen tune` ({}).", now());
    let _ = writeln!(
        text,
        "# algorithm {:?}, group {}, fitness {}{}, population {}, generations {} (+ initial), evaluations {}, seed {}",
        st.settings.algorithm,
        st.settings.tuned(),
        st.settings.fitness,
        compare_note(&st.settings),
        st.settings.evolution.population,
        st.done.saturating_sub(1),
        st.evaluations,
        st.settings.seed
    );
    let _ = writeln!(text, "# training: {}", st.settings.data);
    if let Some(t) = &c.test {
        let _ = writeln!(text, "# test: {}", t.display());
    }
    if !headline.is_empty() {
        let _ = writeln!(text, "# {headline}");
    }
    let _ = writeln!(
        text,
        "# best fitness {fitness:.6}; tengen {} git {}; {seconds:.0} s",
        env!("CARGO_PKG_VERSION"),
        env!("TENGEN_GIT_REV"),
    );
    text.push_str(&tuned.to_toml());
    if let Some(dir) = c.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        create_dir(dir)?;
    }
    let tmp = c.out.with_extension("toml.tmp");
    put(&tmp, &text)?;
    std::fs::rename(&tmp, &c.out).map_err(|e| TuneError::io(&c.out, e))?;
    // Check that the engine reads it.
    Weights::load(&c.out)?;
    Ok(())
}
