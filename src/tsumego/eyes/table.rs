//! The eye table's text format: written by [`table_text`], read back by
//! [`parse_table`].

use super::keys::{key_text, parse_key};
use super::*;

/// The eye table as text: a header, then one line per eye space, `key
/// two two_strict one` (see [`key_text`]).
pub fn table_text(max_points: usize, keys: &[Key], values: &[AreaValue]) -> String {
    let mut out = format!(
        "# tengen eye table {TABLE_VERSION}: every eye space of 1 to {max_points} points of one defender chain\n\
         # (tengen tsumego eyes build --max-points {max_points}; docs/tsumego.md, \"Static evaluation\").\n\
         # key: edges (L left, B bottom, R right, T top: the board's edge runs along that side, '-' none),\n\
         # then width x height, then the rows from the bottom: '.' empty, 'x' attacker, 'o' defender, '#' not in it;\n\
         # every other neighbour is the chain. Values, attacker moving first: two (the chain lives with this area alone),\n\
         # strict (and without seki), one (it lives when it has one sure eye elsewhere). {} entries.\n",
        keys.len()
    );
    for (k, v) in keys.iter().zip(values) {
        out += &format!(
            "{} {} {} {}\n",
            key_text(k),
            v.two as u8,
            v.two_strict as u8,
            v.one as u8
        );
    }
    out
}

/// Version of the table's text format.
pub const TABLE_VERSION: u32 = 1;

/// Largest eye space a table may hold (`tengen tsumego eyes build`; 7
/// points are 135,152 shapes).
pub const MAX_TABLE_POINTS: usize = 7;

/// A table read back ([`parse_table`]).
#[derive(Debug, Default)]
pub struct EyeTable {
    /// The largest eye space the header says the table holds.
    pub max_points: usize,
    pub entries: Vec<(Key, AreaValue)>,
}

/// A line of an eye table that cannot be read.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum TableError {
    #[error(
        "line {line}: table version '{found}', this build reads version {TABLE_VERSION} (rebuild it with `tengen tsumego eyes build`)"
    )]
    Version { line: usize, found: String },
    #[error(
        "line {line}: no size of 1 to {MAX_TABLE_POINTS} points in the header (expected `# tengen eye table {TABLE_VERSION}: every eye space of 1 to N points ...`)"
    )]
    Header { line: usize },
    #[error(
        "line {line}: expected `EDGES WxH ROWS two strict one` (for example `LB 2x2 ..|.# 0 0 1`), got '{text}'"
    )]
    Entry { line: usize, text: String },
    #[error(
        "not an eye table: no `# tengen eye table` header (write one with `tengen tsumego eyes build`)"
    )]
    NoHeader,
}

/// Reads a table written by [`table_text`].
pub fn parse_table(text: &str) -> Result<EyeTable, TableError> {
    let mut t = EyeTable::default();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if let Some(rest) = line.strip_prefix("# tengen eye table ") {
            let version = rest.split(':').next().unwrap_or("").trim();
            if version != TABLE_VERSION.to_string() {
                return Err(TableError::Version {
                    line: line_no,
                    found: version.to_string(),
                });
            }
            t.max_points = rest
                .split("of 1 to ")
                .nth(1)
                .and_then(|r| r.split_whitespace().next())
                .and_then(|n| n.parse().ok())
                .filter(|n| (1..=MAX_TABLE_POINTS).contains(n))
                .ok_or(TableError::Header { line: line_no })?;
            continue;
        }
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        let bit = |s: &str| match s {
            "0" => Some(false),
            "1" => Some(true),
            _ => None,
        };
        let entry = (f.len() == 6)
            .then(|| {
                let key = parse_key(f[0], f[1], f[2])?;
                let v = AreaValue {
                    two: bit(f[3])?,
                    two_strict: bit(f[4])?,
                    one: bit(f[5])?,
                };
                Some((key, v))
            })
            .flatten()
            .ok_or_else(|| TableError::Entry {
                line: line_no,
                text: line.to_string(),
            })?;
        t.entries.push(entry);
    }
    if t.max_points == 0 {
        return Err(TableError::NoHeader);
    }
    Ok(t)
}
