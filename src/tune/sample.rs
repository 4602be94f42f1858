//! Training and test sets drawn from problem files, and the lists that
//! record them.
//!
//! A problem is named by its file's name (without the folder, so a list
//! holds wherever the files were fetched) and its id (`P1005073`). The
//! sample is spread over the difficulty levels: the levels take turns,
//! each giving its next problem in an order fixed by the seed and the
//! problem's name alone, so the same seed draws the same problems whatever
//! the order or folder the files are read in.

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;

use thiserror::Error;

use crate::rules::zobrist::mix64;

/// A problem's name in a list: its file's name and its id.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct ProblemId {
    pub file: String,
    pub name: String,
}

impl ProblemId {
    pub fn new(file: &str, name: &str) -> ProblemId {
        ProblemId {
            file: file.to_string(),
            name: name.to_string(),
        }
    }

    /// The draw order of this problem under `seed`.
    fn key(&self, seed: u64) -> u64 {
        let mut h = mix64(seed ^ 0x243f_6a88_85a3_08d3);
        for b in self.file.bytes().chain([0]).chain(self.name.bytes()) {
            h = mix64(h ^ b as u64);
        }
        h
    }
}

#[derive(Debug, Error, PartialEq, Eq)]
pub enum ListError {
    #[error("{source_name} line {line}: expected '<file> <problem id>', found '{text}'")]
    Syntax {
        source_name: String,
        line: usize,
        text: String,
    },
    #[error("{source_name} line {line}: {file} {name} is listed twice")]
    Twice {
        source_name: String,
        line: usize,
        file: String,
        name: String,
    },
}

/// At most `n` of the problems `ids` (indices into it, ascending), spread
/// over the difficulty levels `levels` (parallel to `ids`; `None` is a
/// level of its own).
pub fn stratified(ids: &[ProblemId], levels: &[Option<u32>], n: usize, seed: u64) -> Vec<usize> {
    let mut by_level: BTreeMap<Option<u32>, Vec<usize>> = BTreeMap::new();
    for (i, l) in levels.iter().enumerate().take(ids.len()) {
        by_level.entry(*l).or_default().push(i);
    }
    let mut queues: Vec<Vec<usize>> = by_level
        .into_values()
        .map(|mut v| {
            // Reversed, so that pop() gives the first in draw order.
            v.sort_by_key(|&i| (std::cmp::Reverse(ids[i].key(seed)), std::cmp::Reverse(i)));
            v
        })
        .collect();
    let mut out = Vec::with_capacity(n.min(ids.len()));
    while out.len() < n && queues.iter().any(|q| !q.is_empty()) {
        for q in &mut queues {
            if out.len() == n {
                break;
            }
            if let Some(i) = q.pop() {
                out.push(i);
            }
        }
    }
    out.sort_unstable();
    out
}

/// The text of a list: a comment line, then `<file> <id>` per problem.
pub fn format_list(what: &str, ids: &[ProblemId]) -> String {
    let mut out = format!(
        "# tengen problem list: {what}; {} problems, one '<file> <id>' a line\n",
        ids.len()
    );
    for id in ids {
        let _ = writeln!(out, "{} {}", id.file, id.name);
    }
    out
}

/// Reads a list (`#` starts a comment; blank lines are skipped).
pub fn parse_list(text: &str, source_name: &str) -> Result<Vec<ProblemId>, ListError> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for (k, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut parts = line.split_whitespace();
        let (Some(file), Some(name), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(ListError::Syntax {
                source_name: source_name.to_string(),
                line: k + 1,
                text: raw.to_string(),
            });
        };
        let id = ProblemId::new(file, name);
        if !seen.insert(id.clone()) {
            return Err(ListError::Twice {
                source_name: source_name.to_string(),
                line: k + 1,
                file: id.file,
                name: id.name,
            });
        }
        out.push(id);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set() -> (Vec<ProblemId>, Vec<Option<u32>>) {
        let mut ids = Vec::new();
        let mut levels = Vec::new();
        for level in 1..=4u32 {
            for k in 0..(10 * level) {
                ids.push(ProblemId::new(&format!("lv1.{level}"), &format!("P{k}")));
                levels.push(Some(level));
            }
        }
        (ids, levels)
    }

    #[test]
    fn a_sample_is_fixed_by_the_seed_and_spread_over_levels() {
        let (ids, levels) = set();
        let a = stratified(&ids, &levels, 12, 7);
        assert_eq!(a, stratified(&ids, &levels, 12, 7));
        assert_ne!(a, stratified(&ids, &levels, 12, 8));
        // Three from each of the four levels.
        for level in 1..=4 {
            let n = a.iter().filter(|&&i| levels[i] == Some(level)).count();
            assert_eq!(n, 3, "level {level} in {a:?}");
        }
        // The same problems when the files are read in another order.
        let mut rev: Vec<usize> = (0..ids.len()).rev().collect();
        rev.rotate_left(5);
        let ids2: Vec<ProblemId> = rev.iter().map(|&i| ids[i].clone()).collect();
        let levels2: Vec<Option<u32>> = rev.iter().map(|&i| levels[i]).collect();
        let mut b: Vec<ProblemId> = stratified(&ids2, &levels2, 12, 7)
            .into_iter()
            .map(|i| ids2[i].clone())
            .collect();
        let mut a_ids: Vec<ProblemId> = a.iter().map(|&i| ids[i].clone()).collect();
        a_ids.sort();
        b.sort();
        assert_eq!(a_ids, b);
    }

    #[test]
    fn a_small_level_gives_all_it_has_and_the_others_fill_in() {
        let ids: Vec<ProblemId> = (0..8)
            .map(|k| ProblemId::new(if k < 2 { "lv1.1" } else { "lv1.2" }, &format!("P{k}")))
            .collect();
        let levels: Vec<Option<u32>> = (0..8).map(|k| Some(if k < 2 { 1 } else { 2 })).collect();
        let s = stratified(&ids, &levels, 6, 1);
        assert_eq!(s.len(), 6);
        assert!(s.contains(&0) && s.contains(&1));
        assert_eq!(
            stratified(&ids, &levels, 100, 1),
            (0..8).collect::<Vec<_>>()
        );
    }

    #[test]
    fn lists_round_trip_and_name_their_faults() {
        let ids = vec![
            ProblemId::new("lv1.10", "P1005073"),
            ProblemId::new("lv2.3", "P7"),
        ];
        let text = format_list("training", &ids);
        assert_eq!(parse_list(&text, "t.lst").unwrap(), ids);
        let e = parse_list("lv1.1 P1\nlv1.1\n", "t.lst").unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.lst line 2: expected '<file> <problem id>', found 'lv1.1'"
        );
        let e = parse_list("lv1.1 P1 # a comment\n\nlv1.1 P1\n", "t.lst").unwrap_err();
        assert!(
            e.to_string().contains("line 3: lv1.1 P1 is listed twice"),
            "{e}"
        );
    }
}
