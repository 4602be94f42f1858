//! The persistent best-move table: a memory-mapped file of fixed-size
//! entries, each holding one position's best move with its quality (log2
//! of the visits) and the depth at which it was found (log2 of the
//! distance from the search root). The format is documented in
//! `docs/table.md`; bump [`VERSION`] on any change.
//!
//! * **Lockless.** An entry is three 32-bit words: the two halves of the
//!   key, each XORed with the data word, and the data word. Search threads
//!   probe and store without a lock; a torn or colliding entry fails the
//!   key comparison or the 11-bit check inside the data and reads as a
//!   miss. Probes return a copy, never a reference into the mapping, and
//!   callers check every move they read for legality.
//! * **One writer process.** The file is locked with an advisory exclusive
//!   lock. A second process opens it read-only (probes only) and says so.
//! * **Durability.** Stores go to the shared mapping, so a killed process
//!   loses nothing the kernel has; `flush` (msync) runs periodically, on
//!   clean close and from the SIGINT/SIGTERM handler ([`flush_all`]).

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use memmap2::{Mmap, MmapMut};
use parking_lot::Mutex;
use thiserror::Error;

use crate::rules::zobrist::{FNV_OFFSET, fnv1a, mix64 as mix, zobrist_checksum};
use crate::rules::{Board, Cell, Color, KoRule, MAX_SIZE, MIN_SIZE, Point, Rules};

#[cfg(not(target_endian = "little"))]
compile_error!("the table file is little-endian and is mapped as is");

/// First bytes of every table file.
pub const MAGIC: [u8; 8] = *b"TENGENBT";
/// Format version; bump on any change of header, entry or key.
pub const VERSION: u32 = 1;
/// Bytes before the first entry (one page, so entries are aligned).
pub const HEADER_BYTES: usize = 4096;
/// Bytes of one entry.
pub const ENTRY_BYTES: usize = 12;
/// Entries probed for one key (a bucket of consecutive entries).
pub const BUCKET: usize = 4;
/// Entries of a default table: 2^22.
pub const DEFAULT_ENTRIES: u64 = 1 << 22;
/// Smallest and largest entry counts accepted.
pub const MIN_ENTRIES: u64 = 1 << 10;
pub const MAX_ENTRIES: u64 = 1 << 32;
/// Move code of a pass.
pub const PASS: u16 = 0;

/// One entry as stored: `lo = key_lo ^ data`, `hi = key_hi ^ data`, and
/// the data word (see [`Entry::pack`]).
#[repr(C)]
pub struct Slot {
    lo: AtomicU32,
    hi: AtomicU32,
    data: AtomicU32,
}

const _: () = assert!(std::mem::size_of::<Slot>() == ENTRY_BYTES);
const _: () = assert!(std::mem::align_of::<Slot>() == 4);
const _: () = assert!(HEADER_BYTES.is_multiple_of(std::mem::align_of::<AtomicU64>()));

/// A decoded entry (a copy).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub key: u64,
    /// Padded point index of the best move ([`PASS`] for a pass).
    pub mv: u16,
    /// 2 × log2(visits of the best move), rounded down, 0..=63.
    pub quality: u8,
    /// log2(distance from the search root + 1), rounded down, 0..=15.
    pub depth: u8,
}

const VALID: u32 = 1 << 31;

impl Entry {
    pub fn new(key: u64, mv: u16, visits: u64, depth: u32) -> Entry {
        Entry {
            key,
            mv: mv & 0x3ff,
            quality: quality_of(visits),
            depth: depth_class(depth),
        }
    }

    /// Data word: move (10 bits), quality (6), depth (4), check (11),
    /// valid (1), lowest bits first.
    fn pack(&self) -> u32 {
        let low = (self.mv as u32 & 0x3ff)
            | ((self.quality as u32 & 0x3f) << 10)
            | ((self.depth as u32 & 0xf) << 16);
        low | (check(self.key, low) << 20) | VALID
    }

    fn unpack(key: u64, data: u32) -> Option<Entry> {
        let low = data & 0xf_ffff;
        if data & VALID == 0 || (data >> 20) & 0x7ff != check(key, low) {
            return None;
        }
        Some(Entry {
            key,
            mv: (low & 0x3ff) as u16,
            quality: ((low >> 10) & 0x3f) as u8,
            depth: ((low >> 16) & 0xf) as u8,
        })
    }

    /// Visits the quality stands for (2^(quality/2)).
    pub fn visits(&self) -> f64 {
        2f64.powf(self.quality as f64 / 2.0)
    }
}

fn check(key: u64, low: u32) -> u32 {
    (mix(key ^ ((low as u64) << 7) ^ 0x7465_6e67_656e) >> 53) as u32
}

/// 2 × log2(visits), rounded down, capped at 63.
pub fn quality_of(visits: u64) -> u8 {
    if visits == 0 {
        return 0;
    }
    ((2.0 * (visits as f64).log2()).floor() as u64).min(63) as u8
}

/// log2(depth + 1), rounded down, capped at 15.
pub fn depth_class(depth: u32) -> u8 {
    (31 - (depth.saturating_add(1)).leading_zeros()).min(15) as u8
}

/// What a slot holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotState {
    Empty,
    Valid(Entry),
    /// Torn by a racing write or an interrupted one: ignored by probes.
    Stale,
}

impl Slot {
    fn read(&self) -> SlotState {
        let data = self.data.load(Relaxed);
        let lo = self.lo.load(Relaxed);
        let hi = self.hi.load(Relaxed);
        if data == 0 && lo == 0 && hi == 0 {
            return SlotState::Empty;
        }
        let key = ((hi ^ data) as u64) << 32 | (lo ^ data) as u64;
        match Entry::unpack(key, data) {
            Some(e) => SlotState::Valid(e),
            None => SlotState::Stale,
        }
    }

    fn write(&self, e: &Entry) {
        let data = e.pack();
        self.data.store(data, Relaxed);
        self.lo.store(e.key as u32 ^ data, Relaxed);
        self.hi.store((e.key >> 32) as u32 ^ data, Relaxed);
    }

    fn clear(&self) {
        self.data.store(0, Relaxed);
        self.lo.store(0, Relaxed);
        self.hi.store(0, Relaxed);
    }
}

/// Which games a table file may hold. `None` means any.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Scope {
    pub size: Option<u8>,
    /// Komi in half points (komi × 2).
    pub komi2: Option<i32>,
    pub rules: Option<u32>,
}

const ANY_U32: u32 = u32::MAX;
const ANY_I32: i32 = i32::MIN;

/// Komi class: komi in half points.
pub fn komi_class(komi: f64) -> i32 {
    (komi * 2.0).round() as i32
}

/// Rules code: ko rule (0 simple, 1 positional, 2 situational) plus 4 when
/// suicide is allowed.
pub fn rules_code(rules: Rules) -> u32 {
    let ko = match rules.ko {
        KoRule::Simple => 0,
        KoRule::Positional => 1,
        KoRule::Situational => 2,
    };
    ko | if rules.allow_suicide { 4 } else { 0 }
}

fn rules_name(code: u32) -> String {
    let ko = match code & 3 {
        0 => "simple ko",
        1 => "positional superko",
        2 => "situational superko",
        _ => "unknown ko rule",
    };
    if code & 4 != 0 {
        format!("{ko}, suicide allowed")
    } else {
        ko.to_string()
    }
}

impl Scope {
    /// The scope of one kind of game.
    pub fn of(size: usize, komi: f64, rules: Rules) -> Scope {
        Scope {
            size: Some(size as u8),
            komi2: Some(komi_class(komi)),
            rules: Some(rules_code(rules)),
        }
    }

    /// Why a game of this size, komi and rules may not use the file, if
    /// it may not.
    pub fn mismatch(&self, size: usize, komi: f64, rules: Rules) -> Option<String> {
        if let Some(s) = self.size
            && s as usize != size
        {
            return Some(format!(
                "it holds {s}x{s} positions only, not {size}x{size}"
            ));
        }
        if let Some(k) = self.komi2
            && k != komi_class(komi)
        {
            return Some(format!(
                "it holds komi {} only, not komi {komi}",
                k as f64 / 2.0
            ));
        }
        if let Some(r) = self.rules
            && r != rules_code(rules)
        {
            return Some(format!(
                "it holds {} games only, not {}",
                rules_name(r),
                rules_name(rules_code(rules))
            ));
        }
        None
    }

    pub fn describe(&self) -> String {
        let size = self
            .size
            .map_or("any size".to_string(), |s| format!("{s}x{s}"));
        let komi = self.komi2.map_or("any komi".to_string(), |k| {
            format!("komi {}", k as f64 / 2.0)
        });
        let rules = self.rules.map_or("any rules".to_string(), rules_name);
        format!("{size}, {komi}, {rules}")
    }
}

/// The key of a position in the table: the board's position key (stones,
/// board size, side to move, ko point) XORed with a key of the komi class
/// and the rules, so that games which must not mix never share entries.
pub fn key(board: &Board, color: Color, komi: f64, rules: Rules) -> u64 {
    board.key(color) ^ class_key(komi, rules)
}

/// The komi-and-rules part of [`key`].
pub fn class_key(komi: f64, rules: Rules) -> u64 {
    mix(0x6b6f_6d69_0000_0000
        ^ (komi_class(komi) as u32 as u64)
        ^ ((rules_code(rules) as u64) << 40))
}

/// Whether `mv` (a move code read from the table) can be played by `color`
/// on `board`. Pass is always playable.
pub fn playable(board: &Board, color: Color, mv: u16) -> bool {
    mv == PASS || {
        let p = Point(mv);
        (mv as usize) < 1024 && board.cell(p) == Cell::Empty && board.is_legal(p, color)
    }
}

/// Errors of opening or creating a table file.
#[derive(Debug, Error)]
pub enum TableError {
    #[error("table {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("table {path}: {what}")]
    Bad { path: PathBuf, what: String },
    #[error(
        "table {path} is in use by another process (advisory lock held); stop it first, or use another --table"
    )]
    Busy { path: PathBuf },
    #[error("table entries must be a power of two from {MIN_ENTRIES} to {MAX_ENTRIES}, not {0}")]
    Entries(u64),
}

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
const OFF_WRITES: usize = 64;
const OFF_REPLACEMENTS: usize = 72;
const OFF_DIRTY: usize = 80;

impl Header {
    fn new(entries: u64, scope: Scope) -> Header {
        Header {
            version: VERSION,
            entry_bytes: ENTRY_BYTES as u32,
            entries,
            scope,
            zobrist: zobrist_checksum(),
        }
    }

    fn encode(&self) -> Vec<u8> {
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
    fn decode(b: &[u8]) -> Result<Header, String> {
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

fn valid_entries(n: u64) -> bool {
    n.is_power_of_two() && (MIN_ENTRIES..=MAX_ENTRIES).contains(&n)
}

/// Bytes of a table file with `entries` entries.
pub fn file_bytes(entries: u64) -> u64 {
    HEADER_BYTES as u64 + entries * ENTRY_BYTES as u64
}

enum Map {
    Rw(MmapMut),
    Ro(Mmap),
}

impl Map {
    fn bytes(&self) -> &[u8] {
        match self {
            Map::Rw(m) => m,
            Map::Ro(m) => m,
        }
    }
}

/// How [`Table::open`] behaves.
#[derive(Clone, Copy, Debug)]
pub struct OpenMode {
    /// Create the file when it does not exist (with these entries and
    /// scope).
    pub create: Option<(u64, Scope)>,
    /// When another process holds the lock: open read-only (true) or fail
    /// with [`TableError::Busy`] (false).
    pub read_only_if_busy: bool,
    /// Open read-only from the start (no lock taken).
    pub read_only: bool,
}

/// Result of one store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoreOutcome {
    /// An empty or stale slot was filled.
    Inserted,
    /// The key's own entry was updated.
    Updated,
    /// Another position's entry was replaced.
    Replaced,
    /// The stored entries are better: nothing written.
    Kept,
    /// The table is read-only.
    ReadOnly,
}

/// Counts a caller accumulates and hands back with [`Table::record`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub hits: u64,
    pub misses: u64,
    pub writes: u64,
    pub replacements: u64,
}

impl Counts {
    pub fn add_store(&mut self, o: StoreOutcome) {
        match o {
            StoreOutcome::Inserted | StoreOutcome::Updated => self.writes += 1,
            StoreOutcome::Replaced => {
                self.writes += 1;
                self.replacements += 1;
            }
            StoreOutcome::Kept | StoreOutcome::ReadOnly => {}
        }
    }
}

/// An open table.
pub struct Table {
    path: PathBuf,
    map: Map,
    header: Header,
    /// log2 of the number of buckets.
    bucket_bits: u32,
    /// Why the table is read-only, if it is.
    read_only: Option<String>,
    /// Whether the file was open for writing when we opened it (not
    /// closed cleanly).
    was_dirty: bool,
    /// Counts since this process opened the file.
    session: Mutex<Counts>,
    last_flush: Mutex<Instant>,
    /// Holds the advisory lock while the table is open.
    _file: File,
}

static OPEN: Mutex<Vec<Weak<Table>>> = Mutex::new(Vec::new());

/// Flushes every open writable table (for signal handlers and exits).
pub fn flush_all() {
    let open = OPEN.lock();
    for t in open.iter().filter_map(Weak::upgrade) {
        t.close_flush();
    }
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> TableError + '_ {
    move |source| TableError::Io {
        path: path.to_path_buf(),
        source,
    }
}

impl Table {
    /// Creates a new, empty table file at `path` (parent directories
    /// included). The file is written to a temporary name, synced and
    /// renamed, so a crash never leaves a half-written header. Refuses to
    /// overwrite an existing file unless `overwrite`.
    pub fn create(
        path: &Path,
        entries: u64,
        scope: Scope,
        overwrite: bool,
    ) -> Result<(), TableError> {
        if !valid_entries(entries) {
            return Err(TableError::Entries(entries));
        }
        if !overwrite && path.exists() {
            return Err(TableError::Bad {
                path: path.into(),
                what: "already exists (use `tengen table clear` to recreate it)".into(),
            });
        }
        if let Some(dir) = path.parent()
            && !dir.as_os_str().is_empty()
        {
            std::fs::create_dir_all(dir).map_err(io_err(dir))?;
        }
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(format!(".tmp.{}", std::process::id()));
        let tmp = PathBuf::from(tmp);
        let result = (|| {
            let mut f = File::create(&tmp)?;
            f.write_all(&Header::new(entries, scope).encode())?;
            f.set_len(file_bytes(entries))?;
            f.sync_all()?;
            if overwrite {
                std::fs::rename(&tmp, path)
            } else {
                // A hard link never replaces an existing file: when two
                // processes create the table at once, one file wins and
                // both open it.
                match std::fs::hard_link(&tmp, path) {
                    Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(()),
                    other => other,
                }
            }
        })();
        let _ = std::fs::remove_file(&tmp);
        result.map_err(io_err(path))
    }

    /// Opens (and, by `mode`, creates) the table at `path`, checking the
    /// header and the file size.
    pub fn open(path: &Path, mode: OpenMode) -> Result<Arc<Table>, TableError> {
        if !path.exists()
            && let Some((entries, scope)) = mode.create
        {
            Table::create(path, entries, scope, false)?;
        }
        let mut read_only = mode
            .read_only
            .then(|| "opened read-only on request".to_string());
        let file = if read_only.is_some() {
            File::open(path).map_err(io_err(path))?
        } else {
            match OpenOptions::new().read(true).write(true).open(path) {
                Ok(f) => match f.try_lock() {
                    Ok(()) => f,
                    Err(std::fs::TryLockError::WouldBlock) => {
                        if !mode.read_only_if_busy {
                            return Err(TableError::Busy { path: path.into() });
                        }
                        read_only = Some(
                            "another process has it open for writing; this one only reads it"
                                .into(),
                        );
                        File::open(path).map_err(io_err(path))?
                    }
                    Err(std::fs::TryLockError::Error(e)) => return Err(io_err(path)(e)),
                },
                Err(e) if e.kind() == io::ErrorKind::PermissionDenied => {
                    read_only = Some("the file is not writable; this process only reads it".into());
                    File::open(path).map_err(io_err(path))?
                }
                Err(e) => return Err(io_err(path)(e)),
            }
        };
        let len = file.metadata().map_err(io_err(path))?.len();
        let bad = |what: String| TableError::Bad {
            path: path.into(),
            what,
        };
        // Check the header with plain reads before mapping anything.
        let mut head = vec![0u8; HEADER_BYTES.min(len as usize)];
        {
            use std::io::Read;
            (&file).read_exact(&mut head).map_err(io_err(path))?;
        }
        let header = Header::decode(&head).map_err(|w| {
            bad(format!(
                "{w}; recreate it with `tengen table clear --table {}` (its entries are lost) or pass another --table",
                path.display()
            ))
        })?;
        let want = file_bytes(header.entries);
        if len != want {
            return Err(bad(format!(
                "file is {len} bytes, but a table of {} entries is {want} bytes (truncated or padded); recreate it with `tengen table clear --table {}`",
                header.entries,
                path.display()
            )));
        }
        if usize::try_from(want).is_err() {
            return Err(bad("too large for this machine's address space".into()));
        }
        let map = if read_only.is_some() {
            // SAFETY: the mapping is only read through atomics (`Slot`,
            // the counters), which tolerate the writer process changing
            // the bytes underneath. The length was checked above; a
            // foreign program truncating the file while it is mapped
            // would fault, which the advisory lock keeps tengen itself
            // from doing.
            Map::Ro(unsafe { Mmap::map(&file) }.map_err(io_err(path))?)
        } else {
            // SAFETY: as above; we hold the exclusive advisory lock, so no
            // other tengen process writes or resizes the file, and all
            // shared access inside this process goes through atomics.
            Map::Rw(unsafe { MmapMut::map_mut(&file) }.map_err(io_err(path))?)
        };
        if map.bytes().len() as u64 != want {
            return Err(bad("the mapping has the wrong length".into()));
        }
        let buckets = header.entries / BUCKET as u64;
        let was_dirty = u64::from_le_bytes(head[OFF_DIRTY..OFF_DIRTY + 8].try_into().unwrap()) != 0;
        let table = Arc::new(Table {
            path: path.into(),
            map,
            header,
            bucket_bits: buckets.trailing_zeros(),
            read_only,
            was_dirty,
            session: Mutex::new(Counts::default()),
            last_flush: Mutex::new(Instant::now()),
            _file: file,
        });
        if table.read_only.is_none() {
            table.counter(OFF_DIRTY).store(1, Relaxed);
            let mut open = OPEN.lock();
            open.retain(|w| w.strong_count() > 0);
            open.push(Arc::downgrade(&table));
        }
        Ok(table)
    }

    /// Opens with the engine's defaults: create when missing (any game
    /// kind), read-only when another process writes.
    pub fn open_default(path: &Path, entries: Option<u64>) -> Result<Arc<Table>, TableError> {
        let n = entries.unwrap_or(DEFAULT_ENTRIES);
        if !valid_entries(n) {
            return Err(TableError::Entries(n));
        }
        let t = Table::open(
            path,
            OpenMode {
                create: Some((n, Scope::default())),
                read_only_if_busy: true,
                read_only: false,
            },
        )?;
        if let Some(n) = entries
            && n != t.header.entries
        {
            return Err(TableError::Bad {
                path: path.into(),
                what: format!(
                    "it has {} entries but --table-entries asks for {n}; recreate it with `tengen table clear --table {} --table-entries {n}` or drop the option",
                    t.header.entries,
                    path.display()
                ),
            });
        }
        Ok(t)
    }

    fn counter(&self, off: usize) -> &AtomicU64 {
        let bytes = self.map.bytes();
        assert!(off + 8 <= HEADER_BYTES && bytes.len() >= HEADER_BYTES);
        // SAFETY: `off` is 8-aligned and inside the header, the mapping
        // starts page-aligned and outlives `self`; AtomicU64 has the
        // layout of u64, and every access to these bytes goes through
        // atomics.
        unsafe { &*(bytes.as_ptr().add(off) as *const AtomicU64) }
    }

    fn slots(&self) -> &[Slot] {
        let bytes = self.map.bytes();
        let n = self.header.entries as usize;
        assert!(bytes.len() == HEADER_BYTES + n * ENTRY_BYTES);
        // SAFETY: the length was checked just above; the entries start at
        // a page boundary + 4096, so they are 4-aligned as `Slot` needs;
        // `Slot` is three atomics and all access to entry bytes is atomic.
        // The slice lives no longer than `self`, which owns the mapping.
        unsafe { std::slice::from_raw_parts(bytes.as_ptr().add(HEADER_BYTES) as *const Slot, n) }
    }

    /// The bucket a key lives in: its top bits.
    fn bucket_index(&self, key: u64) -> usize {
        if self.bucket_bits == 0 {
            0
        } else {
            (key >> (64 - self.bucket_bits)) as usize
        }
    }

    fn bucket(&self, key: u64) -> &[Slot] {
        let b = self.bucket_index(key);
        &self.slots()[b * BUCKET..(b + 1) * BUCKET]
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    pub fn entries(&self) -> u64 {
        self.header.entries
    }

    pub fn scope(&self) -> Scope {
        self.header.scope
    }

    /// Why the table is read-only, if it is.
    pub fn read_only(&self) -> Option<&str> {
        self.read_only.as_deref()
    }

    /// Whether the file had not been closed cleanly before this open.
    pub fn was_dirty(&self) -> bool {
        self.was_dirty
    }

    /// Writes and replacements over the file's life (header counters).
    pub fn lifetime_counts(&self) -> (u64, u64) {
        (
            self.counter(OFF_WRITES).load(Relaxed),
            self.counter(OFF_REPLACEMENTS).load(Relaxed),
        )
    }

    /// Counts since this process opened the file.
    pub fn session_counts(&self) -> Counts {
        *self.session.lock()
    }

    /// Adds a caller's counts to the session and file counters.
    pub fn record(&self, c: Counts) {
        {
            let mut s = self.session.lock();
            s.hits += c.hits;
            s.misses += c.misses;
            s.writes += c.writes;
            s.replacements += c.replacements;
        }
        if self.read_only.is_none() {
            self.counter(OFF_WRITES).fetch_add(c.writes, Relaxed);
            self.counter(OFF_REPLACEMENTS)
                .fetch_add(c.replacements, Relaxed);
        }
    }

    /// The entry of `key`, if the table holds a valid one (a copy).
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.bucket(key).iter().find_map(|s| match s.read() {
            SlotState::Valid(e) if e.key == key => Some(e),
            _ => None,
        })
    }

    /// Stores `e` under the replacement rule: an entry gives way when
    /// `new.quality + depth_exchange × (old.depth − new.depth) ≥
    /// old.quality`, i.e. when the stored one is of worse quality or was
    /// found deeper. A key's own entry is updated under the same rule;
    /// otherwise an empty or stale slot of the bucket is filled, or the
    /// bucket's weakest entry (lowest `quality − depth_exchange × depth`)
    /// is the candidate for replacement.
    pub fn store(&self, e: Entry, depth_exchange: f64) -> StoreOutcome {
        if self.read_only.is_some() {
            return StoreOutcome::ReadOnly;
        }
        let x = depth_exchange as f32;
        let gives_way = |old: &Entry| {
            e.quality as f32 + x * (old.depth as f32 - e.depth as f32) >= old.quality as f32
        };
        let bucket = self.bucket(e.key);
        let mut free = None;
        let mut weakest: Option<(usize, f32, Entry)> = None;
        for (i, s) in bucket.iter().enumerate() {
            match s.read() {
                SlotState::Valid(old) if old.key == e.key => {
                    if old == e {
                        return StoreOutcome::Kept;
                    }
                    return if gives_way(&old) {
                        s.write(&e);
                        StoreOutcome::Updated
                    } else {
                        StoreOutcome::Kept
                    };
                }
                SlotState::Valid(old) => {
                    let score = old.quality as f32 - x * old.depth as f32;
                    if weakest.is_none_or(|(_, w, _)| score < w) {
                        weakest = Some((i, score, old));
                    }
                }
                SlotState::Empty | SlotState::Stale => {
                    free.get_or_insert(i);
                }
            }
        }
        if let Some(i) = free {
            bucket[i].write(&e);
            return StoreOutcome::Inserted;
        }
        match weakest {
            Some((i, _, old)) if gives_way(&old) => {
                bucket[i].write(&e);
                StoreOutcome::Replaced
            }
            _ => StoreOutcome::Kept,
        }
    }

    /// Flushes (msync) if `every` has passed since the last flush; the
    /// flush is asynchronous.
    pub fn maybe_flush(&self, every: Duration) {
        let mut last = self.last_flush.lock();
        if last.elapsed() >= every {
            *last = Instant::now();
            if let Map::Rw(m) = &self.map {
                let _ = m.flush_async();
            }
        }
    }

    /// Flushes synchronously.
    pub fn flush(&self) -> Result<(), TableError> {
        *self.last_flush.lock() = Instant::now();
        if let Map::Rw(m) = &self.map {
            m.flush().map_err(io_err(&self.path))?;
        }
        Ok(())
    }

    /// Marks the file clean and flushes it (clean close). Safe to call
    /// more than once; the table stays usable (the next open for writing
    /// marks it dirty again only if it is reopened, so a later crash of
    /// this process is reported by `verify` through stale entries only).
    fn close_flush(&self) {
        if self.read_only.is_none() {
            self.counter(OFF_DIRTY).store(0, Relaxed);
            let _ = self.flush();
        }
    }

    /// Scans every entry.
    pub fn verify(&self, fix: bool) -> VerifyReport {
        let mut r = VerifyReport {
            entries: self.header.entries,
            quality: vec![0; 64],
            depth: vec![0; 16],
            ..VerifyReport::default()
        };
        let size = self.header.scope.size.map(|s| Board::new(s as usize));
        for (b, bucket) in self.slots().chunks(BUCKET).enumerate() {
            for s in bucket {
                let bad = match s.read() {
                    SlotState::Empty => {
                        r.empty += 1;
                        false
                    }
                    SlotState::Stale => {
                        r.stale += 1;
                        true
                    }
                    SlotState::Valid(e) => {
                        let home = self.bucket_index(e.key);
                        let off_board = e.mv != PASS
                            && size
                                .as_ref()
                                .is_some_and(|bd| bd.cell(Point(e.mv)) != Cell::Empty);
                        if home != b {
                            r.misplaced += 1;
                            true
                        } else if off_board {
                            r.off_board += 1;
                            true
                        } else {
                            r.used += 1;
                            r.quality[e.quality as usize] += 1;
                            r.depth[e.depth as usize] += 1;
                            false
                        }
                    }
                };
                if bad && fix && self.read_only.is_none() {
                    s.clear();
                    r.fixed += 1;
                }
            }
        }
        r
    }
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("path", &self.path)
            .field("entries", &self.header.entries)
            .field("read_only", &self.read_only)
            .finish()
    }
}

impl Drop for Table {
    fn drop(&mut self) {
        self.close_flush();
    }
}

/// What [`Table::verify`] found.
#[derive(Clone, Debug, Default)]
pub struct VerifyReport {
    pub entries: u64,
    pub used: u64,
    pub empty: u64,
    /// Torn entries (an interrupted or racing write): ignored by probes.
    pub stale: u64,
    /// Valid-looking entries in a bucket their key does not map to.
    pub misplaced: u64,
    /// Entries whose move is off the board of the file's board size.
    pub off_board: u64,
    /// Bad entries cleared (with `fix`).
    pub fixed: u64,
    /// Used entries by quality and by depth class.
    pub quality: Vec<u64>,
    pub depth: Vec<u64>,
}

impl VerifyReport {
    pub fn bad(&self) -> u64 {
        self.stale + self.misplaced + self.off_board
    }
}

/// The default table file: `$TENGEN_TABLE` if set; else `book/tengen.table`
/// when a `book/` directory is in the current directory (a checkout);
/// else `$XDG_DATA_HOME/tengen/tengen.table` (or
/// `~/.local/share/tengen/tengen.table`).
pub fn default_path() -> PathBuf {
    if let Some(p) = std::env::var_os("TENGEN_TABLE") {
        return p.into();
    }
    if Path::new("book").is_dir() {
        return PathBuf::from("book/tengen.table");
    }
    let data = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")));
    match data {
        Some(d) => d.join("tengen").join("tengen.table"),
        None => PathBuf::from("book/tengen.table"),
    }
}

#[cfg(test)]
mod tests;
