//! The eye table and the local games checked: every entry solved again,
//! and eye spaces set on a board ([`realize`]) solved by the df-pn search.
//!
//! Dependencies: the one file of [`super`] that uses [`crate::tsumego::dfpn`]
//! (which itself uses [`super::statics`]); nothing in `eyes` uses this one.

use super::area::{area_game, solve_area};
use super::keys::{all_area_keys, decode, key_text};
use super::table::EyeTable;
use super::*;
use crate::rules::{Board, Color};
use crate::tsumego::region::Problem;

/// An eye space set on a 19x19 board as a closed problem, for checking
/// its local games against the solver: the area, the defender's chain
/// around it (White, every point next to the area or diagonal to it, with
/// no liberty outside), Black's wall around that. With `sure_eye`, the
/// chain also surrounds one empty point two lines away from the area (the
/// sure eye of the `one` game). `None` when that chain is not one chain,
/// has no liberty, or no point for the sure eye fits.
pub fn realize(key: &Key, sure_eye: bool) -> Option<Problem> {
    use crate::rules::Coord;
    let (pts, flags) = decode(key);
    let n: i16 = 19;
    let w = pts.iter().map(|p| p.0).max()? as i16 + 1;
    let h = pts.iter().map(|p| p.1).max()? as i16 + 1;
    let ox = if flags & 1 != 0 {
        0
    } else if flags & 4 != 0 {
        n - w
    } else {
        4
    };
    let oy = if flags & 2 != 0 {
        0
    } else if flags & 8 != 0 {
        n - h
    } else {
        4
    };
    let mut cells: Vec<(i16, i16, u8)> = pts
        .iter()
        .map(|&(x, y, t)| (x as i16 + ox, y as i16 + oy, t))
        .collect();
    let dist = |cells: &[(i16, i16, u8)], x: i16, y: i16| {
        cells
            .iter()
            .map(|&(a, b, _)| (a - x).abs().max((b - y).abs()))
            .min()
            .unwrap_or(i16::MAX)
    };
    if sure_eye {
        // The eye's own ring must stay on the board, away from the edges
        // the area does not touch.
        let eye = (2..n - 2)
            .flat_map(|x| (2..n - 2).map(move |y| (x, y)))
            .find(|&(x, y)| dist(&cells, x, y) == 2)?;
        cells.push((eye.0, eye.1, EMPTY));
    }
    let mut b = Board::new(n as usize);
    let mut region = Vec::new();
    let mut chain = None;
    for x in 0..n {
        for y in 0..n {
            let c = Coord::new(x as u8, y as u8);
            match dist(&cells, x, y) {
                0 => {
                    let t = cells
                        .iter()
                        .find(|p| p.0 == x && p.1 == y)
                        .map_or(EMPTY, |p| p.2);
                    match t {
                        ATT => b.set_stone(c, Some(Color::Black)),
                        DEF => b.set_stone(c, Some(Color::White)),
                        _ => {}
                    }
                    region.push(b.point(c));
                }
                1 => {
                    b.set_stone(c, Some(Color::White));
                    region.push(b.point(c));
                    chain.get_or_insert(b.point(c));
                }
                2 => b.set_stone(c, Some(Color::Black)),
                _ => {}
            }
        }
    }
    let chain = chain?;
    let ring = region
        .iter()
        .filter(|&&p| dist(&cells, b.coord(p).x as i16, b.coord(p).y as i16) == 1)
        .count();
    if b.chain_len(chain) != ring || b.liberties(chain) == 0 {
        return None;
    }
    Problem::from_region(&b, &region, chain).ok()
}

/// Checks eye-space games against the solver's own search: each key set
/// on a board ([`realize`]) and solved by df-pn without the static
/// evaluation, the attacker first, in the three games of [`solve_area`]
/// (plain, strict, plain with a sure eye), wherever the local verdict is
/// clean. Returns the games compared and the disagreements (each printed
/// on stderr).
pub fn check_against_search(
    keys: &[&Key],
    w: &crate::tsumego::order::OrderWeights,
) -> (usize, usize) {
    use crate::tsumego::dfpn::{Dfpn, Limits, Regime};
    let (mut compared, mut disagree) = (0, 0);
    for &key in keys {
        for (sure_eye, strict) in [(false, false), (false, true), (true, false)] {
            let Some(prob) = realize(key, sure_eye) else {
                continue;
            };
            let (Some(v), _) = area_game(key, sure_eye, strict) else {
                continue;
            };
            if !v.clean {
                continue;
            }
            let regime = if strict {
                Regime::STRICT
            } else {
                Regime::PLAIN
            };
            let limits = Limits::nodes(1_000_000);
            let mut d = Dfpn::new(&prob, w, 1, regime, limits).without_statics();
            let Some(att_wins) = d.solve(prob.attacker()).win else {
                continue;
            };
            compared += 1;
            if att_wins == v.defender_wins {
                disagree += 1;
                eprintln!(
                    "{} (strict {strict}, sure eye {sure_eye}): local game {}, search {}\n{}",
                    key_text(key),
                    if v.defender_wins { "lives" } else { "dies" },
                    if att_wins { "dies" } else { "lives" },
                    prob.render()
                );
            }
        }
    }
    (compared, disagree)
}

/// What [`verify_table`] found.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct TableCheck {
    /// Entries whose value differs from a fresh solve.
    pub wrong: Vec<String>,
    /// Eye spaces of the table's size that it lacks.
    pub missing: usize,
    /// Entries that are no eye space of the table's size (or repeat one).
    pub extra: usize,
    /// Games compared with the search, and the disagreements.
    pub searched: usize,
    pub disagree: usize,
}

impl TableCheck {
    pub fn ok(&self) -> bool {
        self.wrong.is_empty() && self.missing == 0 && self.extra == 0 && self.disagree == 0
    }
}

/// Checks a table: every entry solved again, the table complete for its
/// size, and `search` entries (spread evenly over it) compared with the
/// solver's search ([`check_against_search`]).
pub fn verify_table(
    t: &EyeTable,
    search: usize,
    w: &crate::tsumego::order::OrderWeights,
) -> TableCheck {
    let mut c = TableCheck::default();
    for (k, v) in &t.entries {
        let (fresh, _) = solve_area(k);
        if fresh != *v {
            c.wrong.push(format!(
                "{}: table {v:?}, solved now {fresh:?}",
                key_text(k)
            ));
        }
    }
    let all: std::collections::BTreeSet<Key> = all_area_keys(t.max_points).into_iter().collect();
    let mut have = std::collections::BTreeSet::new();
    for (k, _) in &t.entries {
        if !all.contains(k) || !have.insert(k.clone()) {
            c.extra += 1;
        }
    }
    c.missing = all.len() - have.len();
    if search > 0 && !t.entries.is_empty() {
        let step = (t.entries.len() / search).max(1);
        let sample: Vec<&Key> = t
            .entries
            .iter()
            .step_by(step)
            .take(search)
            .map(|e| &e.0)
            .collect();
        (c.searched, c.disagree) = check_against_search(&sample, w);
    }
    c
}
