//! Canonical keys of tagged points (the 8 symmetries, translation), their
//! text form (`LB 3x2 ...|x.#`) and every eye-space key of a size.

use super::*;

/// The canonical key of tagged points `(x, y, tag)` on a board of `size`.
/// With `edges`, where the board's edges run beside the points is part of
/// the key.
pub fn canonical(kind: u8, points: &[(u8, u8, u8)], size: u8, edges: bool) -> Key {
    let mut out = Vec::new();
    canonical_into(kind, points, size, edges, &mut out, &mut Vec::new());
    out
}

/// [`canonical`] into `out`, with `img` as scratch.
pub(super) fn canonical_into(
    kind: u8,
    points: &[(u8, u8, u8)],
    size: u8,
    edges: bool,
    out: &mut Vec<u8>,
    img: &mut Vec<(u8, u8, u8)>,
) {
    let n = size as i16 - 1;
    out.clear();
    let mut cand: Vec<u8> = Vec::with_capacity(2 + 3 * points.len());
    for s in 0..8 {
        img.clear();
        for &(x, y, t) in points {
            // The board's symmetry about its centre, in doubled
            // coordinates (exact for odd and even sizes).
            let centred = ((2 * x as i16 - n) as i8, (2 * y as i16 - n) as i8);
            let (a, b) = crate::rules::symmetry(s, centred);
            let back = |v: i8| ((v as i16 + n) / 2) as u8;
            img.push((back(b), back(a), t));
        }
        let minx = img.iter().map(|p| p.1).min().unwrap_or(0);
        let miny = img.iter().map(|p| p.0).min().unwrap_or(0);
        let maxx = img.iter().map(|p| p.1).max().unwrap_or(0);
        let maxy = img.iter().map(|p| p.0).max().unwrap_or(0);
        cand.clear();
        cand.push(kind);
        if edges {
            let flags = (minx == 0) as u8
                | ((miny == 0) as u8) << 1
                | ((maxx as i16 == n) as u8) << 2
                | ((maxy as i16 == n) as u8) << 3;
            cand.push(flags);
        }
        for p in img.iter_mut() {
            p.0 -= miny;
            p.1 -= minx;
        }
        img.sort_unstable();
        for &(y, x, t) in img.iter() {
            cand.extend_from_slice(&[x, y, t]);
        }
        if out.is_empty() || cand < *out {
            std::mem::swap(out, &mut cand);
        }
    }
}

/// The points of a key: `(x, y, tag)`, and the edge flags (left, bottom,
/// right, top) for an eye-space key.
pub fn decode(key: &Key) -> (Vec<(u8, u8, u8)>, u8) {
    let (flags, rest) = if key.first() == Some(&KIND_AREA) {
        (key.get(1).copied().unwrap_or(0), &key[2.min(key.len())..])
    } else {
        (0, &key[1.min(key.len())..])
    };
    let pts = rest.chunks_exact(3).map(|c| (c[0], c[1], c[2])).collect();
    (pts, flags)
}

/// Every eye-space key up to `max_points` points: every shape (fixed
/// polyomino) in the open, along an edge or in a corner, with every
/// content a real position can hold (stones with a liberty in the area;
/// the defender's own stones only on points not next to the chain).
pub fn all_area_keys(max_points: usize) -> Vec<Key> {
    use std::collections::BTreeSet;
    // Fixed polyominoes, grown cell by cell, normalised to the origin.
    let mut shapes: BTreeSet<Vec<(u8, u8)>> = BTreeSet::new();
    let mut layer: BTreeSet<Vec<(u8, u8)>> = BTreeSet::new();
    layer.insert(vec![(0, 0)]);
    for _ in 1..=max_points {
        let mut next = BTreeSet::new();
        for shape in &layer {
            shapes.insert(shape.clone());
            if shape.len() == max_points {
                continue;
            }
            for &(x, y) in shape {
                for (dx, dy) in [(-1i16, 0i16), (1, 0), (0, -1), (0, 1)] {
                    let (nx, ny) = (x as i16 + dx, y as i16 + dy);
                    let mut cells: Vec<(i16, i16)> =
                        shape.iter().map(|&(a, b)| (a as i16, b as i16)).collect();
                    if cells.contains(&(nx, ny)) {
                        continue;
                    }
                    cells.push((nx, ny));
                    let mx = cells.iter().map(|c| c.0).min().unwrap_or(0);
                    let my = cells.iter().map(|c| c.1).min().unwrap_or(0);
                    let mut norm: Vec<(u8, u8)> = cells
                        .iter()
                        .map(|&(a, b)| ((a - mx) as u8, (b - my) as u8))
                        .collect();
                    norm.sort_unstable();
                    next.insert(norm);
                }
            }
        }
        layer = next;
    }
    let size: u8 = 19;
    let mut keys: BTreeSet<Key> = BTreeSet::new();
    let mut img = Vec::new();
    let mut key = Vec::new();
    for shape in &shapes {
        let w = shape.iter().map(|c| c.0).max().unwrap_or(0);
        let h = shape.iter().map(|c| c.1).max().unwrap_or(0);
        // Placements: in the open, along the left or bottom edge, in the
        // corner (the symmetries give the other edges).
        for (ox, oy) in [(3u8, 3u8), (0, 3), (3, 0), (0, 0)] {
            let cells: Vec<(u8, u8)> = shape.iter().map(|&(x, y)| (x + ox, y + oy)).collect();
            let inside =
                |x: i16, y: i16| cells.iter().any(|&(a, b)| a as i16 == x && b as i16 == y);
            let on_board =
                |x: i16, y: i16| (0..size as i16).contains(&x) && (0..size as i16).contains(&y);
            let _ = (w, h);
            let nbrs = |&(x, y): &(u8, u8)| {
                [(-1i16, 0i16), (1, 0), (0, -1), (0, 1)]
                    .map(|(dx, dy)| (x as i16 + dx, y as i16 + dy))
            };
            // Next to the chain: a neighbour on the board outside the area.
            let touches_chain: Vec<bool> = cells
                .iter()
                .map(|c| {
                    nbrs(c)
                        .iter()
                        .any(|&(x, y)| on_board(x, y) && !inside(x, y))
                })
                .collect();
            let n = cells.len();
            let total = 3usize.pow(n as u32);
            'content: for code in 0..total {
                let mut tags = vec![EMPTY; n];
                let mut c = code;
                for t in tags.iter_mut() {
                    *t = (c % 3) as u8;
                    c /= 3;
                }
                for i in 0..n {
                    if tags[i] == DEF && touches_chain[i] {
                        continue 'content;
                    }
                }
                // Every stone's chain has an empty neighbour in the area.
                for i in 0..n {
                    if tags[i] == EMPTY {
                        continue;
                    }
                    let mut chain = vec![i];
                    let mut k = 0;
                    let mut libs = false;
                    while k < chain.len() {
                        let ci = chain[k];
                        k += 1;
                        for (x, y) in nbrs(&cells[ci]) {
                            if let Some(j) = cells
                                .iter()
                                .position(|&(a, b)| a as i16 == x && b as i16 == y)
                            {
                                if tags[j] == EMPTY {
                                    libs = true;
                                } else if tags[j] == tags[i] && !chain.contains(&j) {
                                    chain.push(j);
                                }
                            }
                        }
                    }
                    if !libs {
                        continue 'content;
                    }
                }
                let pts: Vec<(u8, u8, u8)> = cells
                    .iter()
                    .zip(&tags)
                    .map(|(&(x, y), &t)| (x, y, t))
                    .collect();
                canonical_into(KIND_AREA, &pts, size, true, &mut key, &mut img);
                keys.insert(key.clone());
            }
        }
    }
    keys.into_iter().collect()
}

/// An eye-space key as text: `LB 3x2 ...|x.#` (see [`table_text`]).
pub fn key_text(key: &Key) -> String {
    let (pts, flags) = decode(key);
    let w = pts.iter().map(|p| p.0).max().map_or(0, |m| m + 1);
    let h = pts.iter().map(|p| p.1).max().map_or(0, |m| m + 1);
    let mut edges: String = [(1, 'L'), (2, 'B'), (4, 'R'), (8, 'T')]
        .iter()
        .filter(|(b, _)| flags & b != 0)
        .map(|&(_, c)| c)
        .collect();
    if edges.is_empty() {
        edges.push('-');
    }
    let rows: Vec<String> = (0..h)
        .map(|y| {
            (0..w)
                .map(|x| match pts.iter().find(|p| p.0 == x && p.1 == y) {
                    Some(p) if p.2 == ATT => 'x',
                    Some(p) if p.2 == DEF => 'o',
                    Some(_) => '.',
                    None => '#',
                })
                .collect()
        })
        .collect();
    format!("{edges} {w}x{h} {}", rows.join("|"))
}

/// Reads a key written by [`key_text`].
pub fn parse_key(edges: &str, dims: &str, rows: &str) -> Option<Key> {
    let mut flags = 0u8;
    for c in edges.chars() {
        flags |= match c {
            'L' => 1,
            'B' => 2,
            'R' => 4,
            'T' => 8,
            '-' => 0,
            _ => return None,
        };
    }
    let (w, h) = dims.split_once('x')?;
    let (w, h): (u8, u8) = (w.parse().ok()?, h.parse().ok()?);
    let rows: Vec<&str> = rows.split('|').collect();
    if rows.len() != h as usize {
        return None;
    }
    let mut key = vec![KIND_AREA, flags];
    let mut pts = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        if row.len() != w as usize {
            return None;
        }
        for (x, c) in row.chars().enumerate() {
            let t = match c {
                '.' => EMPTY,
                'x' => ATT,
                'o' => DEF,
                '#' => continue,
                _ => return None,
            };
            pts.push((y as u8, x as u8, t));
        }
    }
    pts.sort_unstable();
    for (y, x, t) in pts {
        key.extend_from_slice(&[x, y, t]);
    }
    Some(key)
}
