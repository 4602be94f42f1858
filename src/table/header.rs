//! The file header: magic, version, sizes, scope, Zobrist checksum and
//! the lifetime counters, with its codec and checks.

use super::*;

/// The fixed part of the header (the counters follow at offset 64).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    pub version: u32,
    pub entry_bytes: u32,
    pub entries: u64,
    pub scope: Scope,
    pub zobrist: u64,
}

// Header layout (little-endian):
//   0  magic [8]        8  version u32     12 entry bytes u32
//  16  entries u64     24  board size u32 (MAX = any)
//  28  rules u32 (MAX = any)               32 komi class i32 (MIN = any)
//  36  reserved u32    40  zobrist checksum u64
//  48  header checksum u64 (FNV-1a of bytes 0..48)
//  64  writes u64      72  replacements u64
//  80  dirty u64 (1 while a writer has the file open)
//  88.. zero up to 4096
pub(crate) const OFF_WRITES: usize = 64;
pub(crate) const OFF_REPLACEMENTS: usize = 72;
pub(crate) const OFF_DIRTY: usize = 80;

impl Header {
    pub(crate) fn new(entries: u64, scope: Scope) -> Header {
        Header {
            version: VERSION,
            entry_bytes: ENTRY_BYTES as u32,
            entries,
            scope,
            zobrist: zobrist_checksum(),
        }
    }

    pub(crate) fn encode(&self) -> Vec<u8> {
        let mut b = vec![0u8; HEADER_BYTES];
        b[0..8].copy_from_slice(&MAGIC);
        b[8..12].copy_from_slice(&self.version.to_le_bytes());
        b[12..16].copy_from_slice(&self.entry_bytes.to_le_bytes());
        b[16..24].copy_from_slice(&self.entries.to_le_bytes());
        let size = self.scope.size.map_or(ANY_U32, |s| s as u32);
        b[24..28].copy_from_slice(&size.to_le_bytes());
        let rules = self.scope.rules.unwrap_or(ANY_U32);
        b[28..32].copy_from_slice(&rules.to_le_bytes());
        b[32..36].copy_from_slice(&self.scope.komi2.unwrap_or(ANY_I32).to_le_bytes());
        b[40..48].copy_from_slice(&self.zobrist.to_le_bytes());
        let sum = fnv1a(FNV_OFFSET, &b[0..48]);
        b[48..56].copy_from_slice(&sum.to_le_bytes());
        b
    }

    /// Parses and checks a header; the error says what is wrong.
    pub(crate) fn decode(b: &[u8]) -> Result<Header, String> {
        if b.len() < HEADER_BYTES {
            return Err(format!(
                "file is {} bytes, shorter than the {HEADER_BYTES}-byte header (truncated, or not a table)",
                b.len()
            ));
        }
        if b[0..8] != MAGIC {
            return Err("not a tengen table (bad magic bytes)".into());
        }
        let u32_at = |o: usize| u32::from_le_bytes(b[o..o + 4].try_into().unwrap());
        let u64_at = |o: usize| u64::from_le_bytes(b[o..o + 8].try_into().unwrap());
        let version = u32_at(8);
        if version != VERSION {
            return Err(format!(
                "format version {version}, but this tengen reads version {VERSION}"
            ));
        }
        if u64_at(48) != fnv1a(FNV_OFFSET, &b[0..48]) {
            return Err("header checksum mismatch (the header is damaged)".into());
        }
        let entry_bytes = u32_at(12);
        if entry_bytes as usize != ENTRY_BYTES {
            return Err(format!(
                "entry size {entry_bytes} bytes, expected {ENTRY_BYTES}"
            ));
        }
        let entries = u64_at(16);
        if !valid_entries(entries) {
            return Err(format!("entry count {entries} is not a valid power of two"));
        }
        let zobrist = u64_at(40);
        if zobrist != zobrist_checksum() {
            return Err(format!(
                "Zobrist key-set checksum {zobrist:016x}, but this tengen uses {:016x}; the keys differ, so no entry can be trusted",
                zobrist_checksum()
            ));
        }
        let size = u32_at(24);
        let size = match size {
            ANY_U32 => None,
            s if (MIN_SIZE..=MAX_SIZE).contains(&(s as usize)) => Some(s as u8),
            s => return Err(format!("board size {s} in the header is out of range")),
        };
        let rules = match u32_at(28) {
            ANY_U32 => None,
            r if r < 8 && r & 3 != 3 => Some(r),
            r => return Err(format!("rules code {r} in the header is unknown")),
        };
        let komi2 = match u32_at(32) as i32 {
            ANY_I32 => None,
            k => Some(k),
        };
        Ok(Header {
            version,
            entry_bytes,
            entries,
            scope: Scope { size, komi2, rules },
            zobrist,
        })
    }
}

pub(crate) fn valid_entries(n: u64) -> bool {
    n.is_power_of_two() && (MIN_ENTRIES..=MAX_ENTRIES).contains(&n)
}

/// Bytes of a table file with `entries` entries.
pub fn file_bytes(entries: u64) -> u64 {
    HEADER_BYTES as u64 + entries * ENTRY_BYTES as u64
}
