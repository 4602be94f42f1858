//! Points and the per-size geometry: padded point numbers, their slots,
//! the lookup tables every board of a size shares (coordinates, Zobrist
//! keys) and a bit set over points.

use super::*;

/// Number of padded points on the largest board.
pub const MAX_POINTS: usize = (MAX_SIZE + 2) * (MAX_SIZE + 1) + 1;

/// Array slots per board array: a power of two above [`MAX_POINTS`], so
/// that masking an index with `SLOTS - 1` lets the compiler drop bounds
/// checks in the hot paths without any `unsafe`.
pub const SLOTS: usize = 1024;
const _: () = assert!(SLOTS >= MAX_POINTS && SLOTS.is_power_of_two());

/// The move code of a pass wherever moves are stored as point numbers (the
/// search tree, the best-move table): point 0 is a border point, never a
/// playable one.
pub const PASS_CODE: u16 = 0;

/// Slot of a raw point number (see [`SLOTS`]).
#[inline(always)]
pub(crate) fn ix(p: u16) -> usize {
    p as usize & (SLOTS - 1)
}
/// A padded board index. Only meaningful together with the board size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Point(pub u16);

impl Point {
    /// The array slot of this point (always below the arrays' length).
    #[inline(always)]
    pub fn idx(self) -> usize {
        ix(self.0)
    }
}
/// Per-size lookup tables shared by every board of that size.
pub struct Geometry {
    pub size: usize,
    pub stride: usize,
    pub num_points: usize,
    /// Playable points in row-major order from A1.
    pub points: Vec<Point>,
    pub(crate) coord: Vec<Coord>,
    pub(crate) stone_key: Box<[[u64; SLOTS]; 2]>,
    pub(crate) ko_key: Box<[u64; SLOTS]>,
}

impl Geometry {
    fn new(size: usize) -> Geometry {
        let stride = size + 1;
        let num_points = (size + 2) * stride + 1;
        let mut coord = vec![Coord::new(0, 0); num_points];
        let mut stone_key = Box::new([[0u64; SLOTS]; 2]);
        let mut ko_key = Box::new([0u64; SLOTS]);
        let mut points = Vec::with_capacity(size * size);
        for y in 0..size {
            for x in 0..size {
                let p = (y + 1) * stride + x + 1;
                let c = Coord::new(x as u8, y as u8);
                coord[p] = c;
                stone_key[0][p] = zobrist::stone_key(Color::Black, c);
                stone_key[1][p] = zobrist::stone_key(Color::White, c);
                ko_key[p] = zobrist::ko_key(c);
                points.push(Point(p as u16));
            }
        }
        Geometry {
            size,
            stride,
            num_points,
            points,
            coord,
            stone_key,
            ko_key,
        }
    }

    /// The shared tables for one board size (built once, on first use).
    pub fn get(size: usize) -> &'static Geometry {
        static TABLES: [OnceLock<Geometry>; MAX_SIZE + 1] =
            [const { OnceLock::new() }; MAX_SIZE + 1];
        assert!((MIN_SIZE..=MAX_SIZE).contains(&size), "board size {size}");
        TABLES[size].get_or_init(|| Geometry::new(size))
    }

    #[inline]
    pub fn point(&self, c: Coord) -> Point {
        Point(((c.y as usize + 1) * self.stride + c.x as usize + 1) as u16)
    }

    #[inline]
    pub fn coord(&self, p: Point) -> Coord {
        self.coord[p.idx()]
    }
}

/// Fixed-size bit set over padded points (scratch marks without allocation).
#[derive(Clone)]
pub(crate) struct PointSet([u64; SLOTS / 64]);

impl PointSet {
    pub(crate) fn new() -> Self {
        PointSet([0; SLOTS / 64])
    }

    /// Inserts `p`; returns true if it was not present.
    #[inline]
    pub(crate) fn insert(&mut self, p: Point) -> bool {
        let (w, b) = (p.idx() / 64, p.idx() % 64);
        let fresh = self.0[w] & (1 << b) == 0;
        self.0[w] |= 1 << b;
        fresh
    }

    #[inline]
    pub(crate) fn contains(&self, p: Point) -> bool {
        self.0[p.idx() / 64] & (1 << (p.idx() % 64)) != 0
    }
}
