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

mod entry;
mod header;
mod scope;
mod verify;

pub use entry::{Entry, Slot, SlotState, depth_class, quality_of};
use header::*;
pub use header::{Header, file_bytes};
use scope::*;
pub use scope::{Scope, class_key, code_to_move, key, komi_class, playable, rules_code};
pub use verify::VerifyReport;

use crate::rules::board::SLOTS;
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
pub const PASS: u16 = crate::rules::board::PASS_CODE;

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
