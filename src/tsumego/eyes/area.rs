//! The local games ([`crate::tsumego::local`]) of an eye space
//! ([`AreaValue`]) and of the one-chain game, solved from their keys.

use super::keys::decode;
use super::*;
use crate::tsumego::local::{Graph, Solver, State};

/// The local game of an eye space: vertex 0 is the chain, 1.. the area's
/// points; with `sure_eye`, a last vertex next to the chain alone.
pub(super) fn area_graph(key: &Key, sure_eye: bool) -> (Graph, u32, u32) {
    let (pts, flags) = decode(key);
    let n = pts.len();
    let mut g = Graph::new(1 + n + sure_eye as usize);
    let (left, bottom) = (flags & 1 != 0, flags & 2 != 0);
    let (right, top) = (flags & 4 != 0, flags & 8 != 0);
    let maxx = pts.iter().map(|p| p.0).max().unwrap_or(0);
    let maxy = pts.iter().map(|p| p.1).max().unwrap_or(0);
    let (mut att, mut def) = (0u32, 1u32);
    for (i, &(x, y, t)) in pts.iter().enumerate() {
        let v = 1 + i;
        match t {
            ATT => att |= 1 << v,
            DEF => def |= 1 << v,
            _ => {}
        }
        let steps: [(i16, i16, bool); 4] = [
            (-1, 0, x == 0 && left),
            (1, 0, x == maxx && right),
            (0, -1, y == 0 && bottom),
            (0, 1, y == maxy && top),
        ];
        for (dx, dy, off_board) in steps {
            let (qx, qy) = (x as i16 + dx, y as i16 + dy);
            match pts
                .iter()
                .position(|p| p.0 as i16 == qx && p.1 as i16 == qy)
            {
                Some(j) => g.connect(v, 1 + j),
                None if !off_board => g.connect(0, v),
                None => {}
            }
        }
    }
    if sure_eye {
        g.connect(0, 1 + n);
    }
    g.crucial = vec![1];
    (g, att, def)
}

/// One game of an eye space with the attacker moving first (see
/// [`AreaValue`]): the verdict, clean or not (`None`: over the limit),
/// and the positions searched.
pub fn area_game(
    key: &Key,
    sure_eye: bool,
    strict: bool,
) -> (Option<crate::tsumego::local::Verdict>, u64) {
    let (g, att, def) = area_graph(key, sure_eye);
    let mut s = Solver::new(&g, strict, LOCAL_LIMIT);
    let v = s.solve(State::new(att, def, false));
    (v, s.nodes)
}

/// Solves an eye space's three games (see [`AreaValue`]); a game over the
/// limit counts as lost for the defender.
pub fn solve_area(key: &Key) -> (AreaValue, u64) {
    let mut nodes = 0;
    let mut run = |sure_eye: bool, strict: bool| {
        let (v, n) = area_game(key, sure_eye, strict);
        nodes += n;
        v.is_some_and(|v| v.defender_wins && v.clean)
    };
    let two = run(false, false);
    let two_strict = two && run(false, true);
    let one = two || run(true, false);
    (
        AreaValue {
            two,
            two_strict,
            one,
        },
        nodes,
    )
}

/// The value of an eye space by key, from the cache or solved now; the
/// positions searched are added to `work`.
pub fn area_value(key: &[u8], work: &mut u64) -> AreaValue {
    if let Some(b) = cached(key) {
        return AreaValue::from_bits(b);
    }
    let key = key.to_vec();
    let (v, nodes) = solve_area(&key);
    *work += nodes;
    remember(key, v.bits());
    v
}

/// Solves a one-chain game by key (the last byte: defender to move, strict).
pub(super) fn solve_live(key: &Key) -> (u8, u64) {
    let flags = *key.last().unwrap_or(&0);
    let body: Key = key[..key.len() - 1].to_vec();
    let (pts, _) = decode(&body);
    let others: Vec<&(u8, u8, u8)> = pts.iter().filter(|p| p.2 != CHAIN).collect();
    let mut g = Graph::new(1 + others.len());
    let at = |x: i16, y: i16| -> Option<usize> {
        let p = pts.iter().find(|p| p.0 as i16 == x && p.1 as i16 == y)?;
        if p.2 == CHAIN {
            Some(0)
        } else {
            others
                .iter()
                .position(|o| o.0 == p.0 && o.1 == p.1)
                .map(|i| i + 1)
        }
    };
    let (mut att, def) = (0u32, 1u32);
    for (i, &&(x, y, t)) in others.iter().enumerate() {
        let v = i + 1;
        match t {
            ATT => att |= 1 << v,
            EMPTY_WALL => g.wall |= 1 << v,
            _ => {}
        }
        for (dx, dy) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
            if let Some(u) = at(x as i16 + dx, y as i16 + dy) {
                g.connect(v, u);
            }
        }
    }
    g.crucial = vec![1];
    let mut s = Solver::new(&g, flags & 2 != 0, LOCAL_LIMIT);
    let v = s.solve(State::new(att, def, flags & 1 != 0));
    let bits = match v {
        Some(v) if v.clean => LIVE_KNOWN | if v.defender_wins { LIVE_DEF } else { 0 },
        _ => 0,
    };
    (bits, s.nodes)
}
