//! The learned model: a strength (gamma) per feature, read from a pattern
//! file, and the strength of a move as the product of the gammas of its
//! features (the generalized Bradley-Terry model of Coulom's "Computing
//! Elo Ratings of Move Patterns in the Game of Go").
//!
//! # File format (text, `docs/patterns.md`)
//!
//! ```text
//! tengen-patterns 1
//! features d3-d2-n3a-...         the feature set it was learned for
//! source <free text>             provenance: records, counts, command
//! ... more `key value` lines (seed, positions, iterations, accuracy)
//! checksum <16 hex digits>       FNV-1a 64 of the gamma lines below
//! gammas <N>
//! <group> <value, hex> <gamma>   N lines, keys in increasing order
//! ```
//!
//! A file that does not start with the magic line, was made for another
//! feature set, fails its checksum or has a malformed line is refused with
//! the file, the line and what was expected.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use ahash::AHashMap;
use thiserror::Error;

use super::features::{self, FEATURE_SET, FeatureGroup, Raw};
use super::play3::PlayTable;
use crate::rules::zobrist::{FNV_OFFSET, fnv1a};

/// The first line of every pattern file.
pub const MAGIC: &str = "tengen-patterns 1";

/// Files larger than this are refused.
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// Gammas outside this range are refused (a learned gamma is far inside).
pub const GAMMA_RANGE: (f32, f32) = (1e-9, 1e9);

#[derive(Debug, Error)]
pub enum ModelError {
    #[error("cannot read pattern file '{path}': {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("pattern file '{path}' line {line}: {why}")]
    Format {
        path: PathBuf,
        line: usize,
        why: String,
    },
    #[error("'{path}' is not a tengen pattern file: {why}")]
    Foreign { path: PathBuf, why: String },
}

/// A learned model.
#[derive(Clone, Default)]
pub struct Model {
    gammas: AHashMap<u64, f32>,
    /// Header lines other than the magic, `checksum` and `gammas`, in file
    /// order (provenance).
    pub header: Vec<(String, String)>,
    /// The playout table of the gammas, built on first use.
    play: OnceLock<Option<Arc<PlayTable>>>,
}

impl std::fmt::Debug for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Model({} gammas)", self.gammas.len())
    }
}

/// The file checksum: FNV-1a 64 over the gamma lines (stable across
/// versions and platforms, unlike a hasher seeded per process).
fn checksum_add(h: u64, line: &str) -> u64 {
    fnv1a(fnv1a(h, line.as_bytes()), b"\n")
}

fn gamma_line(k: u64, g: f32) -> String {
    let group = features::key_group(k).expect("valid key");
    format!("{} {:x} {}", group.name(), features::key_value(k), g)
}

impl Model {
    /// A model from gammas and provenance lines.
    pub fn new(gammas: BTreeMap<u64, f32>, header: Vec<(String, String)>) -> Model {
        Model {
            gammas: gammas.into_iter().collect(),
            header,
            play: OnceLock::new(),
        }
    }

    /// Adds or replaces one gamma.
    pub fn insert(&mut self, k: u64, gamma: f32) {
        self.gammas.insert(k, gamma);
        self.play = OnceLock::new();
    }

    /// The playout table of the model's `play3` gammas (built once, about
    /// 0.05 s and 4 MiB), or `None` if it has none ([`PlayTable::new`]).
    pub fn playout_table(&self) -> Option<Arc<PlayTable>> {
        self.play
            .get_or_init(|| PlayTable::new(|k| self.get(k)).map(Arc::new))
            .clone()
    }

    pub fn len(&self) -> usize {
        self.gammas.len()
    }

    pub fn is_empty(&self) -> bool {
        self.gammas.is_empty()
    }

    /// The gamma of a feature key, if the model has it.
    pub fn get(&self, k: u64) -> Option<f32> {
        self.gammas.get(&k).copied()
    }

    /// A header value.
    pub fn header_value(&self, key: &str) -> Option<&str> {
        self.header
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The strength of a move with these features: the product of the
    /// gammas of the features the model knows (unknown ones count 1).
    pub fn strength(&self, raw: &Raw) -> f32 {
        // The same features, in the same order, as `team`, with one lookup
        // each (this runs for every candidate of every expansion).
        let g = |k: u64| self.gammas.get(&k).copied();
        let mut s = 1.0f32;
        if let Some(x) = g(raw.diamond3).or_else(|| g(raw.diamond2)) {
            s *= x;
        }
        if let Some(x) = g(raw.nbr3) {
            s *= x;
        }
        for &k in raw.tactical() {
            if let Some(x) = g(k) {
                s *= x;
            }
        }
        s
    }

    /// The file text.
    pub fn to_text(&self) -> String {
        let mut keys: Vec<u64> = self.gammas.keys().copied().collect();
        keys.sort_unstable();
        let lines: Vec<String> = keys
            .iter()
            .map(|&k| gamma_line(k, self.gammas[&k]))
            .collect();
        let sum = lines.iter().fold(FNV_OFFSET, |h, l| checksum_add(h, l));
        let mut out = String::new();
        let _ = writeln!(out, "{MAGIC}");
        let _ = writeln!(out, "features {FEATURE_SET}");
        for (k, v) in &self.header {
            if k != "features" {
                let _ = writeln!(out, "{k} {v}");
            }
        }
        let _ = writeln!(out, "checksum {sum:016x}");
        let _ = writeln!(out, "gammas {}", lines.len());
        for l in lines {
            out.push_str(&l);
            out.push('\n');
        }
        out
    }

    /// Reads a pattern file.
    pub fn read(path: &Path) -> Result<Model, ModelError> {
        let io = |source| ModelError::Io {
            path: path.to_path_buf(),
            source,
        };
        let meta = std::fs::metadata(path).map_err(io)?;
        if meta.len() > MAX_FILE_BYTES {
            return Err(ModelError::Foreign {
                path: path.to_path_buf(),
                why: format!(
                    "{} bytes, more than the {} a pattern file may have",
                    meta.len(),
                    MAX_FILE_BYTES
                ),
            });
        }
        let bytes = std::fs::read(path).map_err(io)?;
        let text = String::from_utf8(bytes).map_err(|_| ModelError::Foreign {
            path: path.to_path_buf(),
            why: "it is not UTF-8 text".into(),
        })?;
        Model::parse(&text, path)
    }

    /// Parses pattern-file text; `path` names it in errors.
    pub fn parse(text: &str, path: &Path) -> Result<Model, ModelError> {
        let fmt = |line: usize, why: String| ModelError::Format {
            path: path.to_path_buf(),
            line,
            why,
        };
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
        let first = lines.next().map(|(_, l)| l).unwrap_or("");
        if first.trim_end() != MAGIC {
            let shown: String = first.chars().take(60).collect();
            return Err(ModelError::Foreign {
                path: path.to_path_buf(),
                why: format!(
                    "its first line is '{shown}', a tengen pattern file starts with '{MAGIC}' \
                     (make one with `tengen patterns learn`)"
                ),
            });
        }
        let mut header = Vec::new();
        let mut checksum = None;
        let mut count = None;
        let mut features_seen = false;
        for (n, line) in lines.by_ref() {
            let line = line.trim_end();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (k, v) = line
                .split_once(' ')
                .ok_or_else(|| fmt(n, format!("expected 'key value', found '{line}'")))?;
            match k {
                "features" => {
                    if v != FEATURE_SET {
                        return Err(ModelError::Foreign {
                            path: path.to_path_buf(),
                            why: format!(
                                "it was learned for the feature set '{v}', this tengen computes \
                                 '{FEATURE_SET}'; learn it again with `tengen patterns learn`"
                            ),
                        });
                    }
                    features_seen = true;
                }
                "checksum" => {
                    checksum = Some(
                        u64::from_str_radix(v, 16)
                            .map_err(|_| fmt(n, format!("checksum '{v}' is not 16 hex digits")))?,
                    );
                }
                "gammas" => {
                    count = Some(v.parse::<usize>().map_err(|_| {
                        fmt(n, format!("'gammas' needs a count of lines, found '{v}'"))
                    })?);
                    if !features_seen {
                        return Err(fmt(n, "no 'features' line before the gammas".into()));
                    }
                    if checksum.is_none() {
                        return Err(fmt(n, "no 'checksum' line before the gammas".into()));
                    }
                    break;
                }
                _ => header.push((k.to_string(), v.to_string())),
            }
        }
        let Some(count) = count else {
            return Err(fmt(text.lines().count(), "no 'gammas N' line".into()));
        };
        let want_sum = checksum.expect("checked above");
        let mut sum = FNV_OFFSET;
        let mut gammas = AHashMap::with_capacity(count);
        let mut prev: Option<u64> = None;
        let mut read = 0;
        for (n, line) in lines {
            let line = line.trim_end();
            if read == count {
                if line.is_empty() {
                    continue;
                }
                return Err(fmt(
                    n,
                    format!("more than the {count} gamma lines announced"),
                ));
            }
            sum = checksum_add(sum, line);
            let (k, gamma) = parse_gamma_line(line, n, path)?;
            if prev.is_some_and(|p| p >= k) {
                return Err(fmt(n, "keys are not in increasing order".into()));
            }
            prev = Some(k);
            gammas.insert(k, gamma);
            read += 1;
        }
        if read < count {
            return Err(fmt(
                text.lines().count(),
                format!("{read} gamma lines, {count} announced (is the file cut short?)"),
            ));
        }
        if sum != want_sum {
            return Err(ModelError::Format {
                path: path.to_path_buf(),
                line: 0,
                why: format!(
                    "checksum mismatch (file says {want_sum:016x}, the gamma lines give \
                     {sum:016x}): the file was changed or damaged; learn it again"
                ),
            });
        }
        Ok(Model {
            gammas,
            header,
            play: OnceLock::new(),
        })
    }
}

/// One gamma line, `<group> <hex value> <gamma>`, as its key and gamma;
/// `n` and `path` name it in errors.
fn parse_gamma_line(line: &str, n: usize, path: &Path) -> Result<(u64, f32), ModelError> {
    let fmt = |line: usize, why: String| ModelError::Format {
        path: path.to_path_buf(),
        line,
        why,
    };
    let mut parts = line.split(' ');
    let (Some(g), Some(v), Some(x), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(fmt(
            n,
            format!("expected '<group> <hex value> <gamma>', found '{line}'"),
        ));
    };
    let group = FeatureGroup::from_name(g).ok_or_else(|| {
        let names: Vec<&str> = features::GROUPS.iter().map(|g| g.name()).collect();
        fmt(
            n,
            format!("unknown group '{g}' (known: {})", names.join(", ")),
        )
    })?;
    let value = u64::from_str_radix(v, 16)
        .ok()
        .filter(|&v| v <= group.max_value())
        .ok_or_else(|| fmt(n, format!("value '{v}' is not a valid {g} value")))?;
    let gamma: f32 = x
        .parse()
        .ok()
        .filter(|x: &f32| x.is_finite() && (GAMMA_RANGE.0..=GAMMA_RANGE.1).contains(x))
        .ok_or_else(|| {
            fmt(
                n,
                format!(
                    "gamma '{x}' is not a number in {:e}..{:e}",
                    GAMMA_RANGE.0, GAMMA_RANGE.1
                ),
            )
        })?;
    Ok((features::key(group, value), gamma))
}

/// The features of `raw` that count in a model whose known keys pass
/// `known`: the largest known diamond (radius 3, else 2), the 3x3 shape if
/// known, and every known tactical feature.
pub fn team(raw: &Raw, known: impl Fn(u64) -> bool) -> impl Iterator<Item = u64> {
    let spatial = if known(raw.diamond3) {
        Some(raw.diamond3)
    } else if known(raw.diamond2) {
        Some(raw.diamond2)
    } else {
        None
    };
    let nbr = known(raw.nbr3).then_some(raw.nbr3);
    let mut tac = [0u64; 7];
    let mut n = 0;
    for &k in raw.tactical() {
        if known(k) {
            tac[n] = k;
            n += 1;
        }
    }
    spatial
        .into_iter()
        .chain(nbr)
        .chain((0..n).map(move |i| tac[i]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learned::features::key;

    fn sample() -> Model {
        let mut g = BTreeMap::new();
        g.insert(key(FeatureGroup::Capture, 1), 30.5f32);
        g.insert(key(FeatureGroup::Diamond3, 0x1234), 2.25);
        g.insert(key(FeatureGroup::Line, 1), 0.125);
        Model::new(g, vec![("source".into(), "unit test".into())])
    }

    #[test]
    fn round_trip() {
        let m = sample();
        let text = m.to_text();
        let back = Model::parse(&text, Path::new("t.pat")).unwrap();
        assert_eq!(back.len(), 3);
        assert_eq!(back.get(key(FeatureGroup::Capture, 1)), Some(30.5));
        assert_eq!(back.header_value("source"), Some("unit test"));
        assert_eq!(back.to_text(), text);
    }

    #[test]
    fn refuses_foreign_and_damaged_files() {
        let p = Path::new("x.pat");
        let text = sample().to_text();
        let err = |t: &str| Model::parse(t, p).unwrap_err().to_string();
        // A Pachi gamma file, or anything else.
        let e = err("0.048 1\n");
        assert!(e.contains("not a tengen pattern file"), "{e}");
        // Another feature set.
        let e = err(&text.replace(FEATURE_SET, "d4-other"));
        assert!(e.contains("feature set 'd4-other'"), "{e}");
        // A changed gamma.
        let e = err(&text.replace("capture 1 30.5", "capture 1 31.5"));
        assert!(e.contains("checksum mismatch"), "{e}");
        // Malformed lines.
        let e = err(&text.replace("capture 1 30.5", "capture 1"));
        assert!(e.contains("line") && e.contains("expected '<group>"), "{e}");
        let e = err(&text.replace("capture 1 30.5", "capture 9 30.5"));
        assert!(e.contains("not a valid capture value"), "{e}");
        let e = err(&text.replace("capture 1 30.5", "bogus 1 30.5"));
        assert!(e.contains("unknown group 'bogus'"), "{e}");
        let e = err(&text.replace("capture 1 30.5", "capture 1 inf"));
        assert!(e.contains("gamma 'inf'"), "{e}");
        // Cut short.
        let cut: String = text
            .lines()
            .take(text.lines().count() - 1)
            .collect::<Vec<_>>()
            .join("\n");
        let e = err(&cut);
        assert!(e.contains("cut short"), "{e}");
        assert!(
            Model::read(Path::new("/nonexistent/p.pat"))
                .unwrap_err()
                .to_string()
                .contains("/nonexistent/p.pat")
        );
    }

    #[test]
    fn team_prefers_the_larger_diamond() {
        let raw = Raw {
            diamond3: key(FeatureGroup::Diamond3, 5),
            diamond2: key(FeatureGroup::Diamond2, 6),
            nbr3: key(FeatureGroup::Nbr3, 7),
            ..Raw::default()
        };
        let all: Vec<u64> = team(&raw, |_| true).collect();
        assert_eq!(all, vec![raw.diamond3, raw.nbr3]);
        let no3: Vec<u64> = team(&raw, |k| k != raw.diamond3).collect();
        assert_eq!(no3, vec![raw.diamond2, raw.nbr3]);
    }
}
