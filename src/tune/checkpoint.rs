//! The run's state and its checkpoint: the population with its fitness,
//! the history, the reference leaves and the evaluations of the generation
//! in flight; saved after every evaluation and checked on resume.

use super::*;

/// One member of the population.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Member {
    pub genes: Vec<f64>,
    pub fitness: f64,
    pub cost: u64,
    pub errors: u64,
    /// Evaluations averaged into `fitness` (the GA's re-evaluation under
    /// noisy match fitness); 0 in checkpoints from before it, read as 1.
    #[serde(default)]
    pub evals: u64,
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
    /// Pruning fitness: which training problems the reference (the
    /// starting weights at level 1) gets wrong or leaves unsettled.
    /// Empty for other fitnesses and in checkpoints from before it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reference_wrong: Vec<bool>,
    pub partial: Option<Partial>,
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
            reference_wrong: Vec::new(),
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
