//! Handicap placement: the fixed GTP layout and a free-placement fallback.

use thiserror::Error;

use super::point::Coord;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum HandicapError {
    #[error("invalid number of stones")]
    InvalidNumber,
    #[error("board not empty")]
    BoardNotEmpty,
    #[error("bad vertex list")]
    BadVertexList,
}

/// The largest `fixed_handicap` count GTP defines for a board size: none
/// below 7x7, 4 on 7x7 and on even sizes, 9 on odd sizes from 9x9.
pub fn max_fixed(size: usize) -> usize {
    match size {
        0..=6 => 0,
        7 => 4,
        s if s % 2 == 0 => 4,
        _ => 9,
    }
}

/// The largest free handicap: every point but one.
pub fn max_free(size: usize) -> usize {
    size * size - 1
}

/// The GTP fixed placement of `n` stones, in board scan order (top row
/// first, left to right), as GNU Go prints them.
pub fn fixed_points(size: usize, n: usize) -> Result<Vec<Coord>, HandicapError> {
    if n < 2 || n > max_fixed(size) {
        return Err(HandicapError::InvalidNumber);
    }
    let edge = if size < 13 { 2 } else { 3 };
    let (lo, mid, hi) = (edge as u8, ((size - 1) / 2) as u8, (size - 1 - edge) as u8);
    let p = |x, y| Coord::new(x, y);
    // lower-left, upper-right, upper-left, lower-right, then the sides.
    let corners = [p(lo, lo), p(hi, hi), p(lo, hi), p(hi, lo)];
    let mut v: Vec<Coord> = match n {
        2..=4 => corners[..n].to_vec(),
        5 => [&corners[..], &[p(mid, mid)]].concat(),
        6 => [&corners[..], &[p(lo, mid), p(hi, mid)]].concat(),
        7 => [&corners[..], &[p(lo, mid), p(hi, mid), p(mid, mid)]].concat(),
        8 => [
            &corners[..],
            &[p(lo, mid), p(hi, mid), p(mid, lo), p(mid, hi)],
        ]
        .concat(),
        _ => [
            &corners[..],
            &[p(lo, mid), p(hi, mid), p(mid, lo), p(mid, hi), p(mid, mid)],
        ]
        .concat(),
    };
    sort_scan_order(&mut v);
    Ok(v)
}

/// Sorts coordinates top row first, then left to right.
pub fn sort_scan_order(v: &mut [Coord]) {
    v.sort_by_key(|c| (std::cmp::Reverse(c.y), c.x));
}

/// Free placement chosen by the engine: the fixed layout as far as it goes,
/// then each further stone on the free point farthest from all stones
/// placed so far, filling the third line and above before the second line
/// and the edge (ties go to the lowest point in row-major order from A1).
pub fn free_points(size: usize, n: usize) -> Result<Vec<Coord>, HandicapError> {
    if n < 2 || n > max_free(size) {
        return Err(HandicapError::InvalidNumber);
    }
    let fixed = max_fixed(size).min(n);
    let mut chosen = if fixed >= 2 {
        fixed_points(size, fixed)?
    } else {
        Vec::new()
    };
    let all: Vec<Coord> = (0..size as u8)
        .flat_map(|y| (0..size as u8).map(move |x| Coord::new(x, y)))
        .collect();
    let dist =
        |a: Coord, b: Coord| (a.x as i32 - b.x as i32).abs() + (a.y as i32 - b.y as i32).abs();
    // Points on the third line or higher come first, then the second line,
    // then the edge.
    let tier = |c: Coord| {
        let line =
            c.x.min(c.y)
                .min(size as u8 - 1 - c.x)
                .min(size as u8 - 1 - c.y);
        line.min(2)
    };
    let mut nearest: Vec<i32> = all
        .iter()
        .map(|&c| chosen.iter().map(|&s| dist(c, s)).min().unwrap_or(i32::MAX))
        .collect();
    while chosen.len() < n {
        let best = (0..all.len())
            .filter(|&i| nearest[i] > 0)
            .max_by_key(|&i| (tier(all[i]), nearest[i], std::cmp::Reverse(i)))
            .expect("a free point exists while n < size*size");
        let c = all[best];
        chosen.push(c);
        for (i, &q) in all.iter().enumerate() {
            nearest[i] = nearest[i].min(dist(q, c));
        }
    }
    sort_scan_order(&mut chosen);
    Ok(chosen)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[Coord]) -> String {
        v.iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Layouts checked against GNU Go 3.8's `fixed_handicap`.
    #[test]
    fn fixed_layout_matches_gnugo() {
        let cases = [
            (19, 2, "Q16 D4"),
            (19, 3, "D16 Q16 D4"),
            (19, 5, "D16 Q16 K10 D4 Q4"),
            (19, 6, "D16 Q16 D10 Q10 D4 Q4"),
            (19, 7, "D16 Q16 D10 K10 Q10 D4 Q4"),
            (19, 8, "D16 K16 Q16 D10 Q10 D4 K4 Q4"),
            (19, 9, "D16 K16 Q16 D10 K10 Q10 D4 K4 Q4"),
            (13, 5, "D10 K10 G7 D4 K4"),
            (9, 9, "C7 E7 G7 C5 E5 G5 C3 E3 G3"),
            (9, 2, "G7 C3"),
            (7, 4, "C5 E5 C3 E3"),
            (8, 4, "C6 F6 C3 F3"),
            (10, 2, "H8 C3"),
            (25, 4, "D22 W22 D4 W4"),
        ];
        for (size, n, want) in cases {
            assert_eq!(
                names(&fixed_points(size, n).unwrap()),
                want,
                "{size}x{size} h{n}"
            );
        }
    }

    #[test]
    fn fixed_limits() {
        assert_eq!(fixed_points(19, 1), Err(HandicapError::InvalidNumber));
        assert_eq!(fixed_points(19, 10), Err(HandicapError::InvalidNumber));
        assert_eq!(fixed_points(6, 2), Err(HandicapError::InvalidNumber));
        assert_eq!(fixed_points(10, 5), Err(HandicapError::InvalidNumber));
        assert_eq!(fixed_points(7, 5), Err(HandicapError::InvalidNumber));
    }

    #[test]
    fn free_placement_is_distinct_and_complete() {
        for size in [2, 3, 5, 9, 19] {
            for n in [2, 5, 12, size * size - 1] {
                if n > max_free(size) {
                    continue;
                }
                let v = free_points(size, n).unwrap();
                assert_eq!(v.len(), n);
                let mut d = v.clone();
                d.sort();
                d.dedup();
                assert_eq!(d.len(), n, "{size} {n}");
                assert!(v.iter().all(|c| c.on_board(size)));
            }
        }
        assert_eq!(free_points(9, 81), Err(HandicapError::InvalidNumber));
        assert_eq!(free_points(9, 1), Err(HandicapError::InvalidNumber));
    }
}
