//! Random closed-boundary problems, in the corner and on the edge, each
//! verified and labelled by the exact solver and binned by difficulty.
//!
//! A candidate is made from its own seed (`seed` mixed with its index), so
//! a set is the same whatever the number of threads.
//!
//! 1. The region: a staircase of columns in the top-left corner, or on the
//!    top edge away from the corners, of `min..=max` points.
//! 2. The attacker's (Black's) wall: every point next to the region,
//!    orthogonally or diagonally; it touches the empty board outside, so
//!    it is safe.
//! 3. The defender (White, as in GoTools' files): most region points that
//!    touch the wall, a few inner points; the attacker gets a few inner
//!    points too. Chains left without liberties are removed. Every White
//!    chain of two or more stones is marked crucial (`[XY]`), or the
//!    largest if none has two.
//! 4. The solver answers both sides moving first at level 1; candidates it
//!    cannot settle within the node limit, or whose answers take fewer
//!    than four terminal leaves, are dropped, and so are three in four of
//!    the settled ones (the same status whoever moves first).

use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use super::gotools::{self, WriteLine};
use super::order::OrderWeights;
use super::problems::{Expect, FileProblem};
use super::region::DEFAULT_MAX_REGION;
use super::{KoWin, OwlResult, SideAnswer, Solution, SolveOptions, Status, solve_both};
use crate::rules::Color;
use crate::rules::zobrist::mix64;

/// Side of the square the generator draws on.
const GRID: usize = 19;

/// A labelled problem.
#[derive(Clone, Debug)]
pub struct Generated {
    pub index: u64,
    /// floor(log2(leaves)) over both sides moving first, at level 1.
    pub difficulty: u32,
    pub leaves: u64,
    /// The problem in GoTools text.
    pub text: String,
}

/// A grid of points `[x][y]`, `y` from the top edge.
type Grid<T> = Vec<[T; GRID]>;

/// The four steps to a point's neighbours.
const STEPS: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// The random position of candidate `index`, as GoTools text without
/// answers, or `None` if this candidate is unusable.
pub fn candidate(seed: u64, index: u64, min: usize, max: usize) -> Option<String> {
    let mut rng = SmallRng::seed_from_u64(mix64(seed ^ mix64(index.wrapping_add(1))));
    let region = draw_region(&mut rng, min, max)?;
    let defender = Color::White;
    // The draw that once chose the defender's colour, kept so that the
    // rest of each candidate is drawn as before.
    let _ = rng.random_bool(0.5);
    let mut cells = draw_stones(&mut rng, &region, defender);
    remove_captured(&region, &mut cells);
    let def_stones = (0..GRID)
        .flat_map(|x| (0..GRID).map(move |y| (x, y)))
        .filter(|&(x, y)| region[x][y] && cells[x][y] == Some(defender))
        .count();
    if def_stones < 3 {
        return None;
    }
    let marks = crucial_marks(&cells, defender);
    // GoTools text (the one writer): stones, then the crucial marks.
    let at = |x: usize, y: usize| gotools::coord(x as u8, y as u8);
    let mut stones = Vec::new();
    for (x, column) in cells.iter().enumerate() {
        for (y, cell) in column.iter().enumerate() {
            if let Some(c) = *cell {
                stones.push((at(x, y), c));
            }
        }
    }
    let crucial: Vec<_> = marks.iter().map(|&(x, y)| at(x, y)).collect();
    Some(gotools::write_problem(
        &format!("P{index}"),
        &stones,
        &crucial,
        &[],
    ))
}

/// The region: in a corner (65%) or on the top edge, columns of random
/// heights; `None` if 200 draws give no size in `min..=max`.
#[allow(clippy::needless_range_loop)] // grid code reads best with indices
fn draw_region(rng: &mut SmallRng, min: usize, max: usize) -> Option<Grid<bool>> {
    let corner = rng.random_bool(0.65);
    let mut region = vec![[false; GRID]; GRID];
    let mut size = 0;
    for _ in 0..200 {
        region.iter_mut().for_each(|c| c.fill(false));
        let w = rng.random_range(2..=9usize);
        let x0 = if corner {
            0
        } else {
            rng.random_range(3..=6usize)
        };
        let mut h: i32 = rng.random_range(2..=4);
        size = 0;
        for x in x0..x0 + w {
            h = (h + rng.random_range(-1..=1)).clamp(1, 5);
            if x == x0 && corner {
                h = h.max(2);
            }
            for y in 0..h as usize {
                region[x][y] = true;
                size += 1;
            }
        }
        if (min..=max).contains(&size) {
            break;
        }
    }
    (min..=max).contains(&size).then_some(region)
}

/// The stones: the attacker's wall on every point outside the region next
/// to it (diagonals too), the defender's ring inside along the wall
/// (mostly), and a few random stones of both colours.
fn draw_stones(rng: &mut SmallRng, region: &Grid<bool>, defender: Color) -> Grid<Option<Color>> {
    let inside = |x: i32, y: i32| {
        x >= 0
            && y >= 0
            && (x as usize) < GRID
            && (y as usize) < GRID
            && region[x as usize][y as usize]
    };
    let mut cells = vec![[None::<Color>; GRID]; GRID];
    let mut wall = Vec::new();
    for x in 0..GRID as i32 {
        for y in 0..GRID as i32 {
            if inside(x, y) {
                continue;
            }
            let near = (-1..=1).any(|dx| (-1..=1).any(|dy| inside(x + dx, y + dy)));
            if near {
                cells[x as usize][y as usize] = Some(defender.opponent());
                wall.push((x as usize, y as usize));
            }
        }
    }
    let p_ring = rng.random_range(0.7..1.0);
    let p_def = rng.random_range(0.0..0.2);
    let p_att = rng.random_range(0.0..0.12);
    for x in 0..GRID as i32 {
        for y in 0..GRID as i32 {
            if !inside(x, y) {
                continue;
            }
            let ring = STEPS
                .iter()
                .any(|&(dx, dy)| wall.contains(&((x + dx) as usize, (y + dy) as usize)));
            let r: f64 = rng.random();
            let c = if ring {
                (r < p_ring).then_some(defender)
            } else if r < p_def {
                Some(defender)
            } else if r < p_def + p_att {
                Some(defender.opponent())
            } else {
                None
            };
            cells[x as usize][y as usize] = c;
        }
    }
    cells
}

/// The neighbours of `(x, y)` on the grid.
fn neighbours(x: usize, y: usize) -> impl Iterator<Item = (usize, usize)> {
    STEPS.iter().filter_map(move |&(dx, dy)| {
        let (nx, ny) = (x as i32 + dx, y as i32 + dy);
        (nx >= 0 && ny >= 0 && nx < GRID as i32 && ny < GRID as i32)
            .then_some((nx as usize, ny as usize))
    })
}

/// Removes region chains without liberties until none is left.
#[allow(clippy::needless_range_loop)] // grid code reads best with indices
fn remove_captured(region: &Grid<bool>, cells: &mut Grid<Option<Color>>) {
    loop {
        let mut removed = false;
        let mut seen = vec![[false; GRID]; GRID];
        for x in 0..GRID {
            for y in 0..GRID {
                if !region[x][y] || seen[x][y] || cells[x][y].is_none() {
                    continue;
                }
                let col = cells[x][y];
                let mut stack = vec![(x, y)];
                let mut chain = Vec::new();
                let mut libs = false;
                seen[x][y] = true;
                while let Some((a, b)) = stack.pop() {
                    chain.push((a, b));
                    for (nx, ny) in neighbours(a, b) {
                        match cells[nx][ny] {
                            None => libs = true,
                            c if c == col && region[nx][ny] && !seen[nx][ny] => {
                                seen[nx][ny] = true;
                                stack.push((nx, ny));
                            }
                            _ => {}
                        }
                    }
                }
                if !libs {
                    for (a, b) in chain {
                        cells[a][b] = None;
                    }
                    removed = true;
                }
            }
        }
        if !removed {
            break;
        }
    }
}

/// The crucial chains: one stone of each defender chain of 2+ stones, or
/// of the largest chain.
#[allow(clippy::needless_range_loop)] // grid code reads best with indices
fn crucial_marks(cells: &Grid<Option<Color>>, defender: Color) -> Vec<(usize, usize)> {
    let mut chains: Vec<(usize, (usize, usize))> = Vec::new();
    let mut seen = vec![[false; GRID]; GRID];
    for x in 0..GRID {
        for y in 0..GRID {
            if seen[x][y] || cells[x][y] != Some(defender) {
                continue;
            }
            let mut stack = vec![(x, y)];
            seen[x][y] = true;
            let mut n = 0;
            while let Some((a, b)) = stack.pop() {
                n += 1;
                for (nx, ny) in neighbours(a, b) {
                    if !seen[nx][ny] && cells[nx][ny] == Some(defender) {
                        seen[nx][ny] = true;
                        stack.push((nx, ny));
                    }
                }
            }
            chains.push((n, (x, y)));
        }
    }
    let mut marks: Vec<(usize, usize)> = chains.iter().filter(|c| c.0 >= 2).map(|c| c.1).collect();
    if marks.is_empty() {
        marks.extend(chains.iter().max_by_key(|c| c.0).map(|c| c.1));
    }
    marks
}

/// GoTools' status letters of an answer (about the defender), or `None`
/// for an unknown answer.
pub fn status_letters(a: &SideAnswer) -> Option<String> {
    Expect::of(a).map(|e| e.letters())
}

/// Solves candidate `index` and labels it, or drops it.
pub fn label(
    seed: u64,
    index: u64,
    min: usize,
    max: usize,
    w: &OrderWeights,
    max_nodes: u64,
) -> Option<Generated> {
    let text = candidate(seed, index, min, max)?;
    let fp = gotools::parse(&text, "generated").ok()?.pop()?;
    let prob = fp.problem(DEFAULT_MAX_REGION.max(max + 8)).ok()?;
    let opts = SolveOptions {
        level: 1,
        max_nodes,
        time: None,
        ..SolveOptions::default()
    };
    let sol: Solution = solve_both(&prob, w, opts);
    if sol.defender_first.status == Status::Unknown
        || sol.attacker_first.status == Status::Unknown
        || status_letters(&sol.defender_first).is_none()
        || status_letters(&sol.attacker_first).is_none()
    {
        return None;
    }
    let leaves = sol.counters().leaves;
    if leaves < 4 {
        return None;
    }
    // Settled problems (the same status whoever starts) teach the tuner
    // little: keep one in four.
    let settled = sol.defender_first.status == sol.attacker_first.status;
    if settled && !mix64(seed ^ index.rotate_left(17)).is_multiple_of(4) {
        return None;
    }
    Some(Generated {
        index,
        difficulty: 63 - leaves.leading_zeros(),
        leaves,
        text: labelled_text(&fp, &prob, &sol),
    })
}

/// A file problem with our answers as GoTools text: one line per mover,
/// White first, each with GoTools' sign (`+` when the mover reaches its
/// goal without external ko threats) and our leaves as `#`.
pub fn labelled_text(fp: &FileProblem, prob: &super::Problem, sol: &Solution) -> String {
    let crucial: Vec<_> = prob
        .crucial_points()
        .iter()
        .map(|&p| prob.board.coord(p))
        .collect();
    // GoTools' convention: White defends.
    let swap = prob.defender != Color::White;
    let recolor = |c: Color| if swap { c.opponent() } else { c };
    let stones: Vec<_> = fp.stones.iter().map(|&(p, c)| (p, recolor(c))).collect();
    let lines: Vec<Vec<_>> = [&sol.defender_first, &sol.attacker_first]
        .iter()
        .map(|a| a.owl.line.iter().map(|&(c, m)| (recolor(c), m)).collect())
        .collect();
    let write: Vec<WriteLine> = [&sol.defender_first, &sol.attacker_first]
        .iter()
        .zip(&lines)
        .filter_map(|(a, line)| {
            Some(WriteLine {
                mover: recolor(a.first),
                success: matches!(
                    a.owl.result,
                    Some(OwlResult::Succeeds | OwlResult::Ko(KoWin::TakenFirst))
                ),
                status: status_letters(a)?,
                effort: a.counters.leaves,
                line,
            })
        })
        .collect();
    gotools::write_problem(&fp.name, &stones, &crucial, &write)
}
