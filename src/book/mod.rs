//! The opening book: the best-move table, deepened by `book build`, read
//! by `book show`, seeded by `book import` (Fuego's `book.dat` text
//! format), or learned from the results of games by `book learn`
//! ([`games`], whose tree of game results lives in a file of its own).
//! The table *is* the book the engine reads.

pub mod games;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng, rngs::SmallRng};
use thiserror::Error;

use crate::rules::{Coord, Game, Move, Rules};
use crate::search::{Limits, SearchConfig, Searcher};
use crate::table::{self, Counts, Entry, Table, code_to_move};
use crate::weights::Weights;

/// What a book job works on.
#[derive(Clone, Debug)]
pub struct BookGame {
    pub size: usize,
    pub komi: f64,
    pub rules: Rules,
}

impl BookGame {
    fn new_game(&self) -> Game {
        Game::new(self.size, self.komi, self.rules).expect("size checked by the caller")
    }

    fn key(&self, game: &Game) -> u64 {
        table::key(game.board(), game.to_move(), self.komi, self.rules)
    }
}

/// Settings of `book build`.
#[derive(Clone, Debug)]
pub struct BuildConfig {
    /// Playouts of the deep search of one book position.
    pub playouts: u64,
    /// Moves from the empty board beyond which no position is searched.
    pub depth: usize,
    /// Probability, at each move of a line, of leaving the book's best
    /// move for another good candidate (from a short search).
    pub explore: f64,
    /// Playouts of that short search.
    pub explore_playouts: u64,
    pub threads: usize,
    pub seed: u64,
    /// Stop after this many searched positions / this much time.
    pub positions: Option<u64>,
    pub time: Option<Duration>,
}

/// One unit of `book build`: the line walked and what was searched.
#[derive(Clone, Debug)]
pub struct Unit {
    pub line: Vec<Move>,
    /// The search of the last position of `line`, if it was not yet in the
    /// book: best move, win rate, playouts.
    pub searched: Option<(Move, f64, u64)>,
    pub counts: Counts,
}

#[derive(Debug, Error)]
pub enum BookError {
    #[error(
        "{path}: {why}; book jobs need a table of this game (pass another --table or matching --size/--komi)"
    )]
    Scope { path: String, why: String },
    #[error("{path} is open read-only ({why}); a book job must write it")]
    ReadOnly { path: String, why: String },
    #[error("{file}:{line}: {why}")]
    Import {
        file: String,
        line: usize,
        why: String,
    },
}

/// Checks that `t` may hold games of `g`.
pub fn check_scope(t: &Table, g: &BookGame) -> Result<(), BookError> {
    match t.scope().mismatch(g.size, g.komi, g.rules) {
        Some(why) => Err(BookError::Scope {
            path: t.path().display().to_string(),
            why,
        }),
        None => Ok(()),
    }
}

/// Checks that `t` may hold games of `g` and can be written.
pub fn check_table(t: &Table, g: &BookGame) -> Result<(), BookError> {
    check_scope(t, g)?;
    if let Some(why) = t.read_only() {
        return Err(BookError::ReadOnly {
            path: t.path().display().to_string(),
            why: why.into(),
        });
    }
    Ok(())
}

/// Grows the book: each unit walks from the empty board along the book's
/// best moves (leaving them with probability `explore`) and deeply
/// searches the first position of the line that was not yet searched as a
/// root; the search stores its tree into the table. Since everything
/// lives in the table, a stopped build resumes where it left off.
pub struct Builder {
    table: Arc<Table>,
    game: BookGame,
    config: BuildConfig,
    deep: Searcher,
    quick: Searcher,
    rng: SmallRng,
    /// Units in a row that found nothing to search (book complete to the
    /// depth along the lines walked).
    idle: u32,
}

impl Builder {
    pub fn new(
        table: Arc<Table>,
        game: BookGame,
        config: BuildConfig,
        weights: &Weights,
        max_tree_bytes: usize,
    ) -> Result<Builder, BookError> {
        check_table(&table, &game)?;
        let search = |seed| SearchConfig {
            threads: config.threads.max(1),
            max_tree_bytes,
            seed,
            reuse: false,
        };
        let mut deep = Searcher::new(search(config.seed), weights.clone());
        deep.set_table(Some(table.clone()));
        let mut quick = Searcher::new(search(config.seed ^ 0x5eed), weights.clone());
        quick.set_table(Some(table.clone()));
        Ok(Builder {
            rng: SmallRng::seed_from_u64(config.seed),
            table,
            game,
            config,
            deep,
            quick,
            idle: 0,
        })
    }

    /// Whether a position's entry shows it was searched as a book root.
    fn searched(&self, e: Option<Entry>) -> bool {
        e.is_some_and(|e| e.depth == 0 && e.quality >= table::quality_of(self.config.playouts / 32))
    }

    /// Runs one unit; `stop` cuts its search short (what was found is
    /// still stored). `None` when the book is complete to the depth along
    /// every line tried in 64 units in a row.
    pub fn unit(&mut self, stop: &AtomicBool) -> Option<Unit> {
        let mut game = self.game.new_game();
        let mut line = Vec::new();
        let none = &AtomicBool::new(false);
        loop {
            let color = game.to_move();
            let entry = self.table.probe(self.game.key(&game));
            if !self.searched(entry) {
                let limits = Limits {
                    playouts: Some(self.config.playouts),
                    ..Limits::default()
                };
                let before = self.table.session_counts();
                let r = self
                    .deep
                    .search(&game, color, self.game.komi, &limits, stop, &mut |_| {});
                let after = self.table.session_counts();
                self.idle = 0;
                return Some(Unit {
                    line,
                    searched: Some((r.best, r.winrate, r.snapshot.playouts)),
                    counts: Counts {
                        hits: after.hits - before.hits,
                        misses: after.misses - before.misses,
                        writes: after.writes - before.writes,
                        replacements: after.replacements - before.replacements,
                    },
                });
            }
            let book_move = entry
                .filter(|e| table::playable(game.board(), color, e.mv))
                .map(|e| code_to_move(game.board(), e.mv));
            if line.len() >= self.config.depth || game.is_over() {
                self.idle += 1;
                return (self.idle < 64).then_some(Unit {
                    line,
                    searched: None,
                    counts: Counts::default(),
                });
            }
            let mut mv = book_move.unwrap_or(Move::Pass);
            if self.rng.random_bool(self.config.explore.clamp(0.0, 1.0)) {
                let limits = Limits {
                    playouts: Some(self.config.explore_playouts),
                    ..Limits::default()
                };
                let r = self
                    .quick
                    .search(&game, color, self.game.komi, &limits, none, &mut |_| {});
                let best = r.snapshot.best().map_or(0, |c| c.visits);
                let others: Vec<Move> = r
                    .snapshot
                    .candidates
                    .iter()
                    .filter(|c| Some(c.mv) != book_move && c.mv != Move::Pass)
                    .filter(|c| c.visits * 4 >= best)
                    .map(|c| c.mv)
                    .take(3)
                    .collect();
                if !others.is_empty() {
                    mv = others[self.rng.random_range(0..others.len())];
                }
            }
            if game.play(color, mv).is_err() {
                // A stale book move the full rules forbid (superko).
                self.idle += 1;
                return (self.idle < 64).then_some(Unit {
                    line,
                    searched: None,
                    counts: Counts::default(),
                });
            }
            line.push(mv);
        }
    }

    /// Runs units until the limits, `stop`, or a complete book; calls
    /// `progress(units done, searched positions, elapsed, unit)`.
    pub fn run(
        &mut self,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(u64, u64, Duration, &Unit),
    ) -> (u64, u64) {
        let start = Instant::now();
        let (mut units, mut searched) = (0u64, 0u64);
        while !stop.load(std::sync::atomic::Ordering::Relaxed)
            && self.config.positions.is_none_or(|n| searched < n)
            && self.config.time.is_none_or(|t| start.elapsed() < t)
        {
            let Some(u) = self.unit(stop) else { break };
            units += 1;
            if u.searched.is_some() {
                searched += 1;
            }
            progress(units, searched, start.elapsed(), &u);
            self.table.maybe_flush(Duration::from_secs(60));
        }
        (units, searched)
    }
}

/// One line of `book show`: moves from the position, each with the
/// quality and depth of the entry that chose it (`None` for a first move
/// that is not the book's choice).
pub type BookLine = Vec<(Move, Option<Entry>)>;

/// The book's lines from `start` (moves from the empty board): first the
/// line of the book's own best move, then lines of other moves whose
/// resulting positions the book holds, best quality first; at most
/// `lines` lines of at most `depth` moves.
pub fn show(
    table: &Table,
    g: &BookGame,
    start: &[Move],
    lines: usize,
    depth: usize,
) -> Result<(Game, Vec<BookLine>), String> {
    let mut game = g.new_game();
    for (i, &m) in start.iter().enumerate() {
        let c = game.to_move();
        game.play(c, m)
            .map_err(|e| format!("move {} ({c} {m}) is illegal: {e}", i + 1))?;
    }
    let follow = |mut game: Game, mut line: BookLine| {
        while line.len() < depth {
            let c = game.to_move();
            let Some(e) = table.probe(g.key(&game)) else {
                break;
            };
            if !table::playable(game.board(), c, e.mv) {
                break;
            }
            let m = code_to_move(game.board(), e.mv);
            if game.play(c, m).is_err() {
                break;
            }
            line.push((m, Some(e)));
            if m == Move::Pass {
                break;
            }
        }
        line
    };
    let mut out = Vec::new();
    let color = game.to_move();
    let own = table
        .probe(g.key(&game))
        .filter(|e| table::playable(game.board(), color, e.mv));
    if own.is_some() {
        out.push(follow(game.clone(), Vec::new()));
    }
    // Other moves whose positions the book holds.
    let mut others: Vec<(Entry, Coord)> = Vec::new();
    for c in game.legal_points(color) {
        let m = Move::Play(c);
        if own.is_some_and(|e| code_to_move(game.board(), e.mv) == m) {
            continue;
        }
        let mut next = game.clone();
        if next.play(color, m).is_ok()
            && let Some(e) = table.probe(g.key(&next))
        {
            others.push((e, c));
        }
    }
    others.sort_by(|a, b| b.0.quality.cmp(&a.0.quality).then(a.1.cmp(&b.1)));
    for (_, c) in others {
        if out.len() >= lines {
            break;
        }
        let mut next = game.clone();
        next.play(color, Move::Play(c)).expect("checked above");
        out.push(follow(next, vec![(Move::Play(c), None)]));
    }
    out.truncate(lines);
    Ok((game, out))
}

/// The eight symmetries of the square board.
fn transform(c: Coord, size: usize, sym: usize) -> Coord {
    let m = (size - 1) as u8;
    let (x, y) = (c.x, c.y);
    let (x, y) = match sym {
        0 => (x, y),
        1 => (m - x, y),
        2 => (x, m - y),
        3 => (m - x, m - y),
        4 => (y, x),
        5 => (m - y, x),
        6 => (y, m - x),
        _ => (m - y, m - x),
    };
    Coord::new(x, y)
}

/// Result of an import.
#[derive(Clone, Copy, Debug, Default)]
pub struct ImportReport {
    pub lines: usize,
    /// Lines for another board size, skipped.
    pub other_size: usize,
    pub counts: Counts,
}

/// Imports a Fuego `book.dat` text book: each line is `<size> <moves> |
/// <replies>`, moves in GTP notation from the empty board with Black
/// first; `#` starts a comment. The first reply of each line becomes the
/// position's best move, with quality `quality` at depth 0, in all eight
/// symmetric orientations. Lines for other board sizes are skipped.
pub fn import(
    table: &Table,
    g: &BookGame,
    text: &str,
    file: &str,
    quality: u8,
    depth_exchange: f64,
) -> Result<ImportReport, BookError> {
    let mut r = ImportReport::default();
    for (n, raw) in text.lines().enumerate() {
        let err = |why: String| BookError::Import {
            file: file.into(),
            line: n + 1,
            why,
        };
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (left, right) = line
            .split_once('|')
            .ok_or_else(|| err("expected '<size> <moves> | <replies>'".into()))?;
        let mut words = left.split_whitespace();
        let size: usize = words
            .next()
            .and_then(|w| w.parse().ok())
            .ok_or_else(|| err("the line must start with the board size".into()))?;
        if size != g.size {
            r.other_size += 1;
            continue;
        }
        let parse = |w: &str| -> Result<Coord, BookError> {
            match w.parse::<Move>() {
                Ok(Move::Play(c)) if c.on_board(size) => Ok(c),
                _ => Err(err(format!(
                    "'{w}' is not a point of a {size}x{size} board"
                ))),
            }
        };
        let moves = words.map(parse).collect::<Result<Vec<_>, _>>()?;
        let reply = match right.split_whitespace().next() {
            Some(w) => parse(w)?,
            None => return Err(err("no reply after '|'".into())),
        };
        // Symmetric orientations of a symmetric position are one
        // position: the file's own orientation (the first) is kept.
        let mut keys = Vec::with_capacity(8);
        for sym in 0..8 {
            let mut game = g.new_game();
            for (i, &c) in moves.iter().enumerate() {
                let color = game.to_move();
                game.play(color, Move::Play(transform(c, size, sym)))
                    .map_err(|e| err(format!("move {} ({c}) is illegal: {e}", i + 1)))?;
            }
            let color = game.to_move();
            let p = game.board().point(transform(reply, size, sym));
            if !table::playable(game.board(), color, p.0) {
                return Err(err(format!("the reply {reply} is illegal")));
            }
            let key = g.key(&game);
            if keys.contains(&key) {
                continue;
            }
            keys.push(key);
            let e = Entry {
                key,
                mv: p.0,
                quality: quality.min(63),
                depth: 0,
            };
            r.counts.add_store(table.store(e, depth_exchange));
        }
        r.lines += 1;
    }
    table.record(r.counts);
    Ok(r)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::table::{OpenMode, Scope};

    /// A fresh table in a scratch folder, removed when the guard drops.
    pub(crate) fn table(name: &str, g: &BookGame) -> (tempfile::TempDir, Arc<Table>) {
        let dir = tempfile::Builder::new()
            .prefix(&format!("tengen-book-{name}-"))
            .tempdir()
            .unwrap();
        let t = Table::open(
            &dir.path().join("b.table"),
            OpenMode {
                create: Some((1 << 14, Scope::of(g.size, g.komi, g.rules))),
                read_only_if_busy: false,
                read_only: false,
            },
        )
        .unwrap();
        (dir, t)
    }

    fn nine() -> BookGame {
        BookGame {
            size: 9,
            komi: 7.0,
            rules: Rules::default(),
        }
    }

    #[test]
    fn import_then_show_follows_the_book() {
        let g = nine();
        let (_dir, t) = table("import", &g);
        let text = "# a tiny book\n9 | E5\n9 E5 | C5 D5\n9 E5 C5 | C4\n19 | Q16\n";
        let r = import(&t, &g, text, "book.dat", 24, 2.0).unwrap();
        assert_eq!((r.lines, r.other_size), (3, 1));
        let (_, lines) = show(&t, &g, &[], 3, 10).unwrap();
        let main: Vec<String> = lines[0].iter().map(|(m, _)| m.to_string()).collect();
        assert_eq!(main, ["E5", "C5", "C4"]);
        // A symmetric opening is in the book too (mirror of E5 C5: E5 G5).
        let e5: Move = "E5".parse().unwrap();
        let g5: Move = "G5".parse().unwrap();
        let (_, lines) = show(&t, &g, &[e5, g5], 1, 10).unwrap();
        assert_eq!(lines[0][0].0.to_string(), "G4");
        let bad = import(&t, &g, "9 E5 E5 | C3", "x.dat", 24, 2.0);
        assert!(bad.unwrap_err().to_string().contains("x.dat:1"));
        let bad = import(&t, &g, "9 E5 C3", "x.dat", 24, 2.0);
        assert!(bad.unwrap_err().to_string().contains("expected"));
    }

    #[test]
    fn build_searches_new_positions_and_resumes() {
        let g = nine();
        let (_dir, t) = table("build", &g);
        let cfg = BuildConfig {
            playouts: 600,
            depth: 3,
            explore: 0.0,
            explore_playouts: 100,
            threads: 1,
            seed: 3,
            positions: Some(3),
            time: None,
        };
        let stop = AtomicBool::new(false);
        let mut b = Builder::new(
            t.clone(),
            g.clone(),
            cfg.clone(),
            &Weights::default(),
            64 << 20,
        )
        .unwrap();
        let mut lines = Vec::new();
        let (_, searched) = b.run(&stop, &mut |_, _, _, u| lines.push(u.line.len()));
        assert_eq!(searched, 3);
        // Without exploring, each unit goes one move deeper along the book.
        assert_eq!(lines, [0, 1, 2]);
        // A new builder resumes from the table: the next position is at
        // depth 3.
        let mut b = Builder::new(t.clone(), g.clone(), cfg, &Weights::default(), 64 << 20).unwrap();
        let u = b.unit(&stop).unwrap();
        assert_eq!(u.line.len(), 3);
        assert!(u.searched.is_some());
    }

    #[test]
    fn a_table_of_another_game_is_refused() {
        let g = nine();
        let (_dir, t) = table("scope", &g);
        let other = BookGame { size: 13, ..g };
        let e = check_table(&t, &other).unwrap_err().to_string();
        assert!(e.contains("13x13"), "{e}");
    }
}
