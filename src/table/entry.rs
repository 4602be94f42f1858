//! One table entry: the packed data word, its check bits, and the three
//! lockless 32-bit words of a slot.

use super::*;

/// One entry as stored: `lo = key_lo ^ data`, `hi = key_hi ^ data`, and
/// the data word (see `Entry::pack`).
#[repr(C)]
pub struct Slot {
    pub(crate) lo: AtomicU32,
    pub(crate) hi: AtomicU32,
    pub(crate) data: AtomicU32,
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

pub(crate) const VALID: u32 = 1 << 31;

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
    pub(crate) fn pack(&self) -> u32 {
        let low = (self.mv as u32 & 0x3ff)
            | ((self.quality as u32 & 0x3f) << 10)
            | ((self.depth as u32 & 0xf) << 16);
        low | (check(self.key, low) << 20) | VALID
    }

    pub(crate) fn unpack(key: u64, data: u32) -> Option<Entry> {
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

pub(crate) fn check(key: u64, low: u32) -> u32 {
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
    pub(crate) fn read(&self) -> SlotState {
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

    pub(crate) fn write(&self, e: &Entry) {
        let data = e.pack();
        self.data.store(data, Relaxed);
        self.lo.store(e.key as u32 ^ data, Relaxed);
        self.hi.store((e.key >> 32) as u32 ^ data, Relaxed);
    }

    pub(crate) fn clear(&self) {
        self.data.store(0, Relaxed);
        self.lo.store(0, Relaxed);
        self.hi.store(0, Relaxed);
    }
}
