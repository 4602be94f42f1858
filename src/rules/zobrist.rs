//! Zobrist keys: fixed, documented and stable.
//!
//! These keys will key a persistent file (the best-move table), so they are a
//! file format: **never change the seed, the generator or the order below**.
//! `zobrist_checksum()` summarises the whole key set; files written with these
//! keys store it in their header and refuse to open under a different set.
//!
//! Generation: SplitMix64 seeded with [`SEED`]; the keys are drawn in this
//! order, one `next()` each:
//! 1. Black stones at every coordinate of a 25x25 grid, index `y * 25 + x`;
//! 2. White stones, same order;
//! 3. the side-to-move key (XORed in when White is to move);
//! 4. the simple-ko key of every coordinate, same order;
//! 5. the board-size key for sizes 0..=25 (only 2..=25 are used).
//!
//! Conventions (see `docs/rules.md`):
//! * the *position hash* covers the stones and the board size only; the game
//!   uses it for positional superko;
//! * the *position key* adds the side to move and the ko point forbidden to
//!   that side; the best-move table uses it.

use super::point::{Color, Coord, MAX_SIZE};

/// The generator's seed: the bytes of "TENGEN" followed by 0x0001.
pub const SEED: u64 = 0x5445_4e47_454e_0001;

const GRID: usize = MAX_SIZE * MAX_SIZE;

/// The complete key set.
pub struct Keys {
    pub stone: [[u64; GRID]; 2],
    pub side: u64,
    pub ko: [u64; GRID],
    pub size: [u64; MAX_SIZE + 1],
}

/// The SplitMix64 finaliser: a bijective mix of 64 bits.
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One step of SplitMix64.
pub const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    mix64(*state)
}

const fn generate() -> Keys {
    let mut state = SEED;
    let mut keys = Keys {
        stone: [[0; GRID]; 2],
        side: 0,
        ko: [0; GRID],
        size: [0; MAX_SIZE + 1],
    };
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < GRID {
            keys.stone[c][i] = splitmix(&mut state);
            i += 1;
        }
        c += 1;
    }
    keys.side = splitmix(&mut state);
    let mut i = 0;
    while i < GRID {
        keys.ko[i] = splitmix(&mut state);
        i += 1;
    }
    let mut s = 0;
    while s <= MAX_SIZE {
        keys.size[s] = splitmix(&mut state);
        s += 1;
    }
    keys
}

/// The key set, computed at compile time.
pub static KEYS: Keys = generate();

const fn grid_index(c: Coord) -> usize {
    c.y as usize * MAX_SIZE + c.x as usize
}

/// Key of a stone of `color` at `c`.
#[inline]
pub fn stone_key(color: Color, c: Coord) -> u64 {
    KEYS.stone[color as usize][grid_index(c)]
}

/// Key of a ko point at `c` (forbidden to the side to move).
#[inline]
pub fn ko_key(c: Coord) -> u64 {
    KEYS.ko[grid_index(c)]
}

/// Key XORed in when White is to move.
#[inline]
pub fn side_key(to_move: Color) -> u64 {
    match to_move {
        Color::Black => 0,
        Color::White => KEYS.side,
    }
}

/// Key of the board size (part of every position hash).
#[inline]
pub fn size_key(size: usize) -> u64 {
    KEYS.size[size]
}

/// The FNV-1a offset basis: the hash of no bytes.
pub const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a: continues hash `h` over `bytes`.
pub fn fnv1a(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// FNV-1a over the little-endian bytes of every key, in generation order.
/// Persistent files store this value and compare it on open.
pub fn zobrist_checksum() -> u64 {
    let mut h = FNV_OFFSET;
    let mut feed = |k: u64| h = fnv1a(h, &k.to_le_bytes());
    for c in 0..2 {
        KEYS.stone[c].iter().for_each(|&k| feed(k));
    }
    feed(KEYS.side);
    KEYS.ko.iter().for_each(|&k| feed(k));
    KEYS.size.iter().for_each(|&k| feed(k));
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pinned reference values. If this test fails, the key set changed, and
    /// every persistent table would silently be garbage: do not "fix" the
    /// numbers, restore the generator.
    #[test]
    fn keys_are_pinned() {
        let pinned = include_str!("../../tests/data/zobrist_pinned.txt");
        let mut seen = 0;
        for line in pinned
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let (name, value) = line.split_once('=').expect("name=value");
            let value = u64::from_str_radix(value.trim().trim_start_matches("0x"), 16).unwrap();
            let actual = match name.trim() {
                "black_a1" => stone_key(Color::Black, Coord::new(0, 0)),
                "white_a1" => stone_key(Color::White, Coord::new(0, 0)),
                "black_t19" => stone_key(Color::Black, Coord::new(18, 18)),
                "white_z25" => stone_key(Color::White, Coord::new(24, 24)),
                "side" => KEYS.side,
                "ko_e5" => ko_key(Coord::new(4, 4)),
                "size_9" => size_key(9),
                "size_19" => size_key(19),
                "checksum" => zobrist_checksum(),
                other => panic!("unknown pinned key {other}"),
            };
            assert_eq!(actual, value, "zobrist key {name} changed");
            seen += 1;
        }
        assert_eq!(seen, 9);
    }

    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> = KEYS.stone.iter().flatten().copied().collect();
        all.push(KEYS.side);
        all.extend(KEYS.ko);
        all.extend(KEYS.size);
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
        assert!(all.iter().all(|&k| k != 0));
    }
}
