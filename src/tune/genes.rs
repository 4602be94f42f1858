//! The chromosome: the weights of the tuned groups as a flat vector of
//! genes. A staged weight gives three genes (opening, middle game,
//! endgame); the others one. Every gene keeps its weight's range, and
//! integer weights stay integers.

use serde::{Deserialize, Serialize};

use crate::weights::{Group, SPECS, Weights};

/// One gene: a weight (by its index in [`SPECS`]) at one stage.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gene {
    pub name: String,
    /// Index in [`SPECS`].
    pub spec: usize,
    /// Stage 0..3 for staged weights; 0 otherwise (written to all stages).
    pub stage: usize,
    pub min: f64,
    pub max: f64,
    pub integer: bool,
}

/// The genes of the tuned groups and the weights they are written into.
#[derive(Clone, Debug)]
pub struct GeneSpace {
    pub genes: Vec<Gene>,
    /// The weights that the genes overwrite (the untuned weights stay).
    pub base: Weights,
}

impl GeneSpace {
    pub fn new(groups: &[Group], base: Weights) -> GeneSpace {
        let mut genes = Vec::new();
        for (i, s) in SPECS.iter().enumerate() {
            if !groups.contains(&s.group) {
                continue;
            }
            // Tuning a range of one value is pointless.
            if s.min == s.max {
                continue;
            }
            let stages = if s.staged { 3 } else { 1 };
            for stage in 0..stages {
                let name = if s.staged {
                    format!("{}.{}", s.name, crate::weights::STAGES[stage])
                } else {
                    s.name.to_string()
                };
                genes.push(Gene {
                    name,
                    spec: i,
                    stage,
                    min: s.min,
                    max: s.max,
                    integer: s.integer,
                });
            }
        }
        GeneSpace { genes, base }
    }

    /// Keeps only the genes that `list` names (`--genes`): entries
    /// separated by commas, each a weight's name (all its stages), a
    /// stage's gene (`prior_line1.opening`) or a prefix ending in `*`
    /// (`prior_*`). An entry that names no gene of the tuned groups is an
    /// error that lists the genes there are.
    pub fn select(&mut self, list: &str) -> Result<(), String> {
        let entries: Vec<&str> = list
            .split(',')
            .map(str::trim)
            .filter(|e| !e.is_empty())
            .collect();
        if entries.is_empty() {
            return Err("--genes: the list is empty (e.g. uct_c,prior_*)".into());
        }
        let matches = |e: &str, g: &Gene| match e.strip_suffix('*') {
            Some(prefix) => g.name.starts_with(prefix),
            None => g.name == e || g.name.split('.').next() == Some(e),
        };
        for e in &entries {
            if !self.genes.iter().any(|g| matches(e, g)) {
                let names: Vec<&str> = self.genes.iter().map(|g| g.name.as_str()).collect();
                return Err(format!(
                    "--genes: '{e}' is not a weight of the tuned groups; they are: {}",
                    names.join(", ")
                ));
            }
        }
        self.genes.retain(|g| entries.iter().any(|e| matches(e, g)));
        Ok(())
    }

    pub fn len(&self) -> usize {
        self.genes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.genes.is_empty()
    }

    /// The genes of `w`.
    pub fn encode(&self, w: &Weights) -> Vec<f64> {
        let slots = w.slots();
        self.genes.iter().map(|g| slots[g.spec][g.stage]).collect()
    }

    /// The base weights with the genes written in (legalised first).
    pub fn decode(&self, x: &[f64]) -> Weights {
        let mut w = self.base.clone();
        {
            let mut slots = w.slots_mut();
            for (g, &v) in self.genes.iter().zip(x) {
                let v = g.legal(v);
                if SPECS[g.spec].staged {
                    slots[g.spec][g.stage] = v;
                } else {
                    *slots[g.spec] = [v; 3];
                }
            }
        }
        w
    }

    /// The untrained reference: every tuned gene at zero (or the value of
    /// its range nearest to zero).
    pub fn zero(&self) -> Vec<f64> {
        self.genes.iter().map(|g| g.legal(0.0)).collect()
    }

    /// Rounds integer genes and clamps every gene into its range.
    pub fn legalize(&self, x: &mut [f64]) {
        for (g, v) in self.genes.iter().zip(x.iter_mut()) {
            *v = g.legal(*v);
        }
    }
}

impl Gene {
    /// `v` clamped into the range, rounded if the weight is an integer.
    pub fn legal(&self, v: f64) -> f64 {
        let v = if v.is_finite() { v } else { self.min };
        let v = v.clamp(self.min, self.max);
        if self.integer {
            v.round().clamp(self.min, self.max)
        } else {
            v
        }
    }

    /// `v` reflected back into the range (`min - d` becomes `min + d`),
    /// then legalised; far-off values fold repeatedly.
    pub fn reflect(&self, v: f64) -> f64 {
        let (lo, hi) = (self.min, self.max);
        let span = hi - lo;
        if !v.is_finite() || span <= 0.0 {
            return self.legal(v);
        }
        let mut t = (v - lo).rem_euclid(2.0 * span);
        if t > span {
            t = 2.0 * span - t;
        }
        self.legal(lo + t)
    }

    /// A uniform value in range (integers uniform over the integers).
    pub fn uniform(&self, rng: &mut impl rand::Rng) -> f64 {
        use rand::RngExt;
        if self.integer {
            rng.random_range(self.min as i64..=self.max as i64) as f64
        } else {
            rng.random_range(self.min..=self.max)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn staged_weights_give_three_genes_and_round_trip() {
        let space = GeneSpace::new(&[Group::Tree], Weights::default());
        let staged: Vec<_> = space
            .genes
            .iter()
            .filter(|g| g.name.starts_with("prior_line1."))
            .collect();
        assert_eq!(staged.len(), 3);
        let x = space.encode(&Weights::default());
        assert_eq!(space.decode(&x), Weights::default());
    }

    #[test]
    fn select_keeps_named_weights_stages_and_prefixes() {
        let mut space = GeneSpace::new(&[Group::Tree], Weights::default());
        space
            .select("uct_c, prior_line1.endgame,prior_eye*,prior_near_last")
            .unwrap();
        let names: Vec<&str> = space.genes.iter().map(|g| g.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "uct_c",
                "prior_near_last.opening",
                "prior_near_last.middle",
                "prior_near_last.endgame",
                "prior_line1.endgame",
                "prior_eye_fill"
            ]
        );
        // Decoding writes only the kept genes; the rest keep the base.
        let x = space.encode(&Weights::default());
        assert_eq!(space.decode(&x), Weights::default());
        let mut space = GeneSpace::new(&[Group::Tree], Weights::default());
        let e = space.select("uct_c,po_atari").unwrap_err();
        assert!(e.contains("'po_atari'") && e.contains("uct_c"), "{e}");
        assert!(space.select(" , ").unwrap_err().contains("empty"));
        // `uct` is no weight's name; only a prefix with `*` matches part.
        assert!(space.select("uct").is_err());
    }

    #[test]
    fn reflection_and_integers_stay_in_range() {
        let g = Gene {
            name: "x".into(),
            spec: 0,
            stage: 0,
            min: 0.0,
            max: 10.0,
            integer: false,
        };
        assert_eq!(g.reflect(-3.0), 3.0);
        assert_eq!(g.reflect(12.5), 7.5);
        assert_eq!(g.reflect(4.0), 4.0);
        assert_eq!(g.reflect(25.0), 5.0);
        let i = Gene {
            integer: true,
            ..g.clone()
        };
        assert_eq!(i.reflect(-2.4), 2.0);
        assert_eq!(i.legal(3.5), 4.0);
        assert_eq!(i.legal(f64::NAN), 0.0);
    }

    #[test]
    fn zero_is_the_nearest_legal_value_to_zero() {
        let space = GeneSpace::new(&[Group::Pruning], Weights::default());
        let z = space.zero();
        for (g, v) in space.genes.iter().zip(&z) {
            assert_eq!(*v, g.min.max(0.0).min(g.max), "{}", g.name);
        }
    }
}
