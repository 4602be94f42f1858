//! The settings a run is kept to (stored in the checkpoint; a resume must
//! match them): the GA/DE options, the tuned groups and the fitness, typed.
//! The groups and the fitness are stored as the strings earlier builds
//! wrote (`static+dynamic`, `dynamic (neg-sum)`), so their checkpoints
//! still load.

use std::fmt;
use std::str::FromStr;

use clap::ValueEnum;
use serde::{Deserialize, Serialize};

use super::fitness::Formula;
use super::{Algorithm, Compare, Mutation, Selection};
use crate::weights::Group;

/// Everything that decides the course of a run (kept in the checkpoint;
/// a resume must match it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub algorithm: Algorithm,
    pub group: GroupSet,
    /// `--genes`: the weights kept within the groups, as given (none: all
    /// of them). Absent from checkpoints of earlier builds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub genes: Option<String>,
    pub fitness: FitnessSpec,
    pub compare: Compare,
    /// The GA/DE options (stored flat, beside the others).
    #[serde(flatten)]
    pub evolution: Evolution,
    pub seed: u64,
    /// Match fitness with duels: decisions re-tested per generation with
    /// other game seeds, to measure noise.
    pub retest: usize,
    /// A description of the training data (problem count and names, or
    /// the game settings) so that a resume on other data is refused.
    pub data: String,
    /// GA under match fitness against the starting weights (in process):
    /// members are re-evaluated every generation and keep the mean
    /// (`Tuner::plan`). Absent (false) in checkpoints from before it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reevaluate: bool,
}

impl Settings {
    /// The tuned groups, with `--genes` when given (`tree (genes uct_c,prior_*)`).
    pub fn tuned(&self) -> String {
        match &self.genes {
            Some(g) => format!("{} (genes {g})", self.group),
            None => self.group.to_string(),
        }
    }

    /// The error budget of pruning fitness (per cent of the problems), if
    /// the fitness is pruning with a budget.
    pub fn pruning_budget(&self) -> Option<f64> {
        match self.fitness {
            FitnessSpec::Pruning { budget, .. } => budget,
            _ => None,
        }
    }
}

/// The options of the genetic algorithm and of differential evolution.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Evolution {
    pub population: usize,
    /// GA: children per generation.
    pub children: usize,
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
}

/// The tuned weight groups, in the order given (`--group`: names joined
/// by `+`, `all` for every group). Stored as that string.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct GroupSet(pub Vec<Group>);

/// A `--group` name that is not a group.
#[derive(Debug, thiserror::Error)]
#[error("unknown group '{0}': the groups the tuner tunes are {names} (join several with '+'; the weights' `effort` group is set by hand, docs/weights.md)", names = GroupSet::names().collect::<Vec<_>>().join(", "))]
pub struct UnknownGroup(pub String);

/// The groups `--group` can name, each once.
const GROUPS: [Group; 5] = [
    Group::Static,
    Group::Dynamic,
    Group::Pruning,
    Group::Playout,
    Group::Tree,
];

/// The groups of `all`, in their order.
const ALL: [Group; 5] = [
    Group::Tree,
    Group::Playout,
    Group::Static,
    Group::Dynamic,
    Group::Pruning,
];

impl GroupSet {
    /// The groups' names `--group` accepts (`all` last).
    pub fn names() -> impl Iterator<Item = &'static str> {
        GROUPS.iter().map(|g| g.name()).chain(["all"])
    }
}

impl FromStr for GroupSet {
    type Err = UnknownGroup;

    /// One name or several joined by `+` (`static+dynamic`); a group
    /// named twice counts once.
    fn from_str(s: &str) -> Result<GroupSet, UnknownGroup> {
        let mut out = Vec::new();
        for part in s.split('+') {
            let part = part.trim();
            let named: &[Group] = match GROUPS.iter().find(|g| g.name() == part) {
                Some(g) => std::slice::from_ref(g),
                None if part == "all" => &ALL,
                None => return Err(UnknownGroup(part.to_string())),
            };
            for g in named {
                if !out.contains(g) {
                    out.push(*g);
                }
            }
        }
        Ok(GroupSet(out))
    }
}

impl fmt::Display for GroupSet {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.0 == ALL {
            return f.write_str("all");
        }
        let names: Vec<&str> = self.0.iter().map(|g| g.name()).collect();
        f.write_str(&names.join("+"))
    }
}

impl From<GroupSet> for String {
    fn from(g: GroupSet) -> String {
        g.to_string()
    }
}

impl TryFrom<String> for GroupSet {
    type Error = UnknownGroup;

    fn try_from(s: String) -> Result<GroupSet, UnknownGroup> {
        s.parse()
    }
}

/// What the fitness measures, with what decides it. Stored as its
/// description (`static (bonuses 20,13,7,3,1)`, `dynamic (neg-sum)`,
/// `pruning (errors over 2% + leaves at level 3)`, `match`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum FitnessSpec {
    /// The rank of the correct first move, with these bonuses per rank.
    Static { bonuses: Vec<f64> },
    /// Level-1 leaves, scored by `formula`. A wrong or unsettled answer is
    /// charged at least its reference leaves, and with `limit` at least
    /// the node limit (checkpoints from before `limit` charge the
    /// reference alone).
    Dynamic { formula: Formula, limit: bool },
    /// Errors and leaves at a speed level. With a budget (per cent of the
    /// problems), only new errors beyond it cost; without one (checkpoints
    /// from before the budget), every error does.
    Pruning { level: u8, budget: Option<f64> },
    /// Games.
    Match,
}

/// A fitness description that names no fitness.
#[derive(Debug, thiserror::Error)]
#[error("unknown fitness '{0}'")]
pub struct UnknownFitness(pub String);

impl fmt::Display for FitnessSpec {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            FitnessSpec::Static { bonuses } => {
                let b: Vec<String> = bonuses.iter().map(|b| b.to_string()).collect();
                write!(f, "static (bonuses {})", b.join(","))
            }
            FitnessSpec::Dynamic {
                formula,
                limit: false,
            } => write!(f, "dynamic ({})", formula.name()),
            FitnessSpec::Dynamic {
                formula,
                limit: true,
            } => write!(f, "dynamic ({}, failures at the limit)", formula.name()),
            FitnessSpec::Pruning {
                level,
                budget: None,
            } => {
                write!(f, "pruning (errors + leaves at level {level})")
            }
            FitnessSpec::Pruning {
                level,
                budget: Some(b),
            } => {
                write!(f, "pruning (errors over {b}% + leaves at level {level})")
            }
            FitnessSpec::Match => f.write_str("match"),
        }
    }
}

impl FromStr for FitnessSpec {
    type Err = UnknownFitness;

    fn from_str(s: &str) -> Result<FitnessSpec, UnknownFitness> {
        let unknown = || UnknownFitness(s.to_string());
        if s == "match" {
            return Ok(FitnessSpec::Match);
        }
        let inner = |prefix: &str| {
            s.strip_prefix(prefix)
                .and_then(|rest| rest.strip_suffix(')'))
        };
        if let Some(list) = inner("static (bonuses ") {
            let bonuses = super::config::parse_bonuses(list).map_err(|_| unknown())?;
            return Ok(FitnessSpec::Static { bonuses });
        }
        if let Some(name) = inner("dynamic (") {
            let (name, limit) = match name.strip_suffix(", failures at the limit") {
                Some(n) => (n, true),
                None => (name, false),
            };
            let formula = <Formula as ValueEnum>::from_str(name, false).map_err(|_| unknown())?;
            return Ok(FitnessSpec::Dynamic { formula, limit });
        }
        if let Some(level) = inner("pruning (errors + leaves at level ") {
            let level = level.parse().map_err(|_| unknown())?;
            return Ok(FitnessSpec::Pruning {
                level,
                budget: None,
            });
        }
        if let Some(rest) = inner("pruning (errors over ") {
            let (budget, level) = rest
                .split_once("% + leaves at level ")
                .ok_or_else(unknown)?;
            return Ok(FitnessSpec::Pruning {
                level: level.parse().map_err(|_| unknown())?,
                budget: Some(budget.parse().map_err(|_| unknown())?),
            });
        }
        Err(unknown())
    }
}

impl From<FitnessSpec> for String {
    fn from(f: FitnessSpec) -> String {
        f.to_string()
    }
}

impl TryFrom<String> for FitnessSpec {
    type Error = UnknownFitness;

    fn try_from(s: String) -> Result<FitnessSpec, UnknownFitness> {
        s.parse()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_parse_and_errors_name_the_choices() {
        assert_eq!(
            "static+dynamic".parse::<GroupSet>().unwrap().0,
            vec![Group::Static, Group::Dynamic]
        );
        assert_eq!("all".parse::<GroupSet>().unwrap().0.len(), 5);
        let e = "statik".parse::<GroupSet>().unwrap_err().to_string();
        assert!(e.contains("'statik'") && e.contains("pruning"), "{e}");
    }
}
