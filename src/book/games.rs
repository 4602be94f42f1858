//! `book learn`: the book chosen by the results of games (a Monte-Carlo
//! tree search whose simulations are whole games of the engine against
//! itself, after Chaslot et al., "Meta Monte-Carlo Tree Search for
//! automatic opening book generation", 2009).
//!
//! Each game walks the learning tree from the empty board, choosing at
//! each position one of a few candidate moves (the best of a short
//! search) by UCB1 on the games' results, adds the first position it
//! reaches that the tree does not hold, and then plays on as the engine
//! plays, both sides at the same fixed playouts, to the end. The result
//! counts for every move of the walk. A position's most played move goes
//! into the table, as a book move at depth 0, once it has `min_games`
//! games.
//!
//! The tree lives in a JSON file beside the table, saved after every
//! game: a stopped run goes on where it stopped, and a kill loses at most
//! the games in flight.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use parking_lot::Mutex;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::{BookError, BookGame, check_table};
use crate::engine::selfplay::{Played, play_out};
use crate::engine::{Engine, EngineConfig};
use crate::rules::zobrist::mix64;
use crate::rules::{Color, Game, Move};
use crate::search::{Limits, SearchConfig, Searcher};
use crate::table::{self, Entry, Table, quality_of, rules_code};
use crate::weights::Weights;

/// Version of the learning tree's file.
const VERSION: u32 = 1;

/// Settings of `book learn`.
#[derive(Clone, Debug)]
pub struct LearnConfig {
    /// Playouts per move in the games (both sides).
    pub game_playouts: u64,
    /// Moves from the empty board that the tree chooses; the engine
    /// plays the rest of each game.
    pub depth: usize,
    /// Candidate moves of a position: the most visited moves of a short
    /// search, each with at least a tenth of the best one's visits.
    pub candidates: usize,
    /// Playouts of that short search.
    pub candidate_playouts: u64,
    /// UCB1's exploration constant (win rates in 0..1).
    pub exploration: f64,
    /// Games a move needs before it goes into the table.
    pub min_games: u64,
    /// Games played at once (one thread each).
    pub workers: usize,
    pub seed: u64,
    /// Stop after this many games in this run / this much time.
    pub games: Option<u64>,
    pub time: Option<Duration>,
}

#[derive(Debug, Error)]
pub enum LearnError {
    #[error(transparent)]
    Book(#[from] BookError),
    #[error("{path}: {why}")]
    File { path: String, why: String },
}

/// One candidate move of a position and its games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Arm {
    /// GTP notation.
    pub mv: String,
    pub games: u64,
    /// Points of the side that played `mv` (a jigo is half a point).
    pub points: f64,
}

impl Arm {
    pub fn mean(&self) -> f64 {
        if self.games == 0 {
            0.5
        } else {
            self.points / self.games as f64
        }
    }
}

/// A position of the tree: its candidate moves in the short search's
/// order.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Node {
    pub arms: Vec<Arm>,
}

impl Node {
    /// The book's move: the most played, a better mean breaking ties.
    pub fn best(&self) -> Option<&Arm> {
        self.arms.iter().max_by(|a, b| {
            (a.games, a.mean())
                .partial_cmp(&(b.games, b.mean()))
                .unwrap_or(std::cmp::Ordering::Equal)
        })
    }
}

/// The learning tree as saved: the game it belongs to, the games played,
/// and the positions by table key.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LearnTree {
    pub version: u32,
    pub size: usize,
    pub komi: f64,
    pub rules: u32,
    pub games: u64,
    /// Games that began but were cut short (Ctrl-C), not counted.
    #[serde(default)]
    pub abandoned: u64,
    pub nodes: BTreeMap<u64, Node>,
}

impl LearnTree {
    fn new(g: &BookGame) -> LearnTree {
        LearnTree {
            version: VERSION,
            size: g.size,
            komi: g.komi,
            rules: rules_code(g.rules),
            games: 0,
            abandoned: 0,
            nodes: BTreeMap::new(),
        }
    }

    /// Loads `path`, or a new tree when it does not exist. A file of
    /// another game or version is refused.
    pub fn load(path: &Path, g: &BookGame) -> Result<LearnTree, LearnError> {
        let err = |why: String| LearnError::File {
            path: path.display().to_string(),
            why,
        };
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(LearnTree::new(g)),
            Err(e) => return Err(err(e.to_string())),
        };
        let t: LearnTree = serde_json::from_str(&text).map_err(|e| {
            err(format!(
                "not a book learning file ({e}); move it away to start afresh"
            ))
        })?;
        if t.version != VERSION {
            return Err(err(format!(
                "version {} where this build reads {VERSION}",
                t.version
            )));
        }
        if t.size != g.size || t.komi != g.komi || t.rules != rules_code(g.rules) {
            return Err(err(format!(
                "learned for {}x{} komi {} (rules code {}), not for this game ({}x{} komi {}); pass the matching --size/--komi or another --tree",
                t.size, t.size, t.komi, t.rules, g.size, g.size, g.komi
            )));
        }
        Ok(t)
    }

    /// Writes the tree to a temporary file, syncs it and renames it over
    /// `path`, so a kill at any moment leaves the old or the new file.
    pub fn save(&self, path: &Path) -> Result<(), LearnError> {
        let err = |e: std::io::Error| LearnError::File {
            path: path.display().to_string(),
            why: e.to_string(),
        };
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        {
            use std::io::Write;
            let mut f = std::fs::File::create(&tmp).map_err(err)?;
            let text = serde_json::to_string(self).expect("the tree serialises");
            f.write_all(text.as_bytes()).map_err(err)?;
            f.sync_all().map_err(err)?;
        }
        std::fs::rename(&tmp, path).map_err(err)
    }

    /// The root's candidates, most played first.
    pub fn root_arms(&self, g: &BookGame) -> Vec<Arm> {
        let key = g.key(&g.new_game());
        let mut arms = self
            .nodes
            .get(&key)
            .map(|n| n.arms.clone())
            .unwrap_or_default();
        arms.sort_by_key(|a| std::cmp::Reverse(a.games));
        arms
    }
}

/// What one finished game did.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// The moves the tree chose.
    pub line: Vec<Move>,
    pub winner: Option<Color>,
    /// Moves of the whole game.
    pub moves: usize,
}

/// Plays games into a learning tree and the table.
pub struct Learner {
    table: Arc<Table>,
    game: BookGame,
    config: LearnConfig,
    weights: Weights,
    path: PathBuf,
    tree: Mutex<LearnTree>,
}

/// The arm of `node` that UCB1 picks when the node has `total` games.
/// Arms without games come first, in the candidates' order.
fn pick(node: &Node, exploration: f64) -> usize {
    let total: u64 = node.arms.iter().map(|a| a.games).sum();
    if let Some(i) = node.arms.iter().position(|a| a.games == 0) {
        return i;
    }
    let ln = (total.max(1) as f64).ln();
    let mut best = (0, f64::NEG_INFINITY);
    for (i, a) in node.arms.iter().enumerate() {
        let u = a.mean() + exploration * (ln / a.games as f64).sqrt();
        if u > best.1 {
            best = (i, u);
        }
    }
    best.0
}

impl Learner {
    /// Opens the learning tree at `path` (new if missing) for the table
    /// `table` of game `game`.
    pub fn new(
        table: Arc<Table>,
        game: BookGame,
        config: LearnConfig,
        weights: &Weights,
        path: PathBuf,
    ) -> Result<Learner, LearnError> {
        check_table(&table, &game)?;
        let tree = LearnTree::load(&path, &game)?;
        let learner = Learner {
            table,
            game,
            config,
            weights: weights.clone(),
            path,
            tree: Mutex::new(tree),
        };
        // The table may have lost its last stores to a kill (it is flushed
        // once a minute, the tree after every game), or be a new file:
        // every position's book move goes in again.
        for (&key, node) in &learner.tree.lock().nodes {
            learner.store(key, node);
        }
        Ok(learner)
    }

    /// A copy of the tree as it stands.
    pub fn tree(&self) -> LearnTree {
        self.tree.lock().clone()
    }

    fn engine(&self, seed: u64) -> Engine {
        let cfg = EngineConfig::fixed_playouts(
            self.game.size,
            self.game.komi,
            self.game.rules,
            self.weights.clone(),
            self.config.game_playouts,
            seed,
        );
        Engine::new(cfg).expect("the book's size and komi are valid")
    }

    /// The candidates of a position new to the tree: a short search's most
    /// visited moves (never a pass).
    fn candidates(&self, game: &Game, seed: u64) -> Node {
        let mut s = Searcher::new(
            SearchConfig {
                threads: 1,
                max_tree_bytes: 64 << 20,
                seed,
                reuse: false,
            },
            self.weights.clone(),
        );
        let limits = Limits {
            playouts: Some(self.config.candidate_playouts),
            ..Limits::default()
        };
        let color = game.to_move();
        let none = AtomicBool::new(false);
        let r = s.search(game, color, self.game.komi, &limits, &none, &mut |_| {});
        let top = r.snapshot.best().map_or(0, |c| c.visits);
        let arms = r
            .snapshot
            .candidates
            .iter()
            .filter(|c| c.mv != Move::Pass && c.visits * 10 >= top)
            .take(self.config.candidates.max(1))
            .map(|c| Arm {
                mv: c.mv.to_string(),
                games: 0,
                points: 0.0,
            })
            .collect();
        Node { arms }
    }

    /// Walks the tree from the empty board, adding one position and
    /// counting each chosen move as played (a game in flight is a loss
    /// until it ends, so that parallel games spread out). Returns the
    /// path (key, arm) and the moves.
    fn walk(&self, seed: u64) -> (Vec<(u64, usize)>, Vec<Move>) {
        let mut game = self.game.new_game();
        let mut path = Vec::new();
        let mut line = Vec::new();
        while line.len() < self.config.depth && !game.is_over() {
            let key = self.game.key(&game);
            let known = self.tree.lock().nodes.contains_key(&key);
            if !known {
                let node = self.candidates(&game, mix64(seed ^ key));
                let mut t = self.tree.lock();
                t.nodes.entry(key).or_insert(node);
            }
            let mut t = self.tree.lock();
            let node = t.nodes.get_mut(&key).expect("inserted above");
            if node.arms.is_empty() {
                break;
            }
            let i = pick(node, self.config.exploration);
            let mv: Move = node.arms[i].mv.parse().expect("saved in GTP notation");
            let color = game.to_move();
            if game.play(color, mv).is_err() {
                // Superko after a transposition: the line ends here.
                break;
            }
            node.arms[i].games += 1;
            path.push((key, i));
            line.push(mv);
            if !known {
                break;
            }
        }
        (path, line)
    }

    /// Plays game number `index` of this run: a walk, then the engine to
    /// the end. `None` when `stop` cut it short (its walk is undone).
    fn play(&self, index: u64, stop: &AtomicBool) -> Option<GameReport> {
        let seed = mix64(self.config.seed ^ index.wrapping_mul(0x2545_f491_4f6c_dd1d));
        let (path, line) = self.walk(seed);
        let mut players = [self.engine(seed), self.engine(mix64(seed ^ 1))];
        let mut to_move = Color::Black;
        for &mv in &line {
            for p in &mut players {
                p.play(to_move, mv).expect("a move the walk played");
            }
            to_move = to_move.opponent();
        }
        let limit = 3 * self.game.size * self.game.size;
        let Some(Played { winner, moves }) =
            play_out(&mut players, to_move, line.len(), limit, stop)
        else {
            let mut t = self.tree.lock();
            for &(key, i) in &path {
                t.nodes.get_mut(&key).expect("walked").arms[i].games -= 1;
            }
            t.abandoned += 1;
            return None;
        };
        self.record(&path, winner);
        Some(GameReport {
            line,
            winner,
            moves,
        })
    }

    /// Counts a game's result for every move of its walk and puts the
    /// walk's positions' best moves into the table.
    fn record(&self, path: &[(u64, usize)], winner: Option<Color>) {
        let mut t = self.tree.lock();
        t.games += 1;
        for (ply, &(key, i)) in path.iter().enumerate() {
            let mover = if ply % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let node = t.nodes.get_mut(&key).expect("walked");
            node.arms[i].points += match winner {
                Some(c) if c == mover => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            self.store(key, node);
        }
        if let Err(e) = t.save(&self.path) {
            eprintln!("book learn: {e}");
        }
    }

    /// Puts `node`'s best move into the table when it has enough games:
    /// depth 0, quality from its games times the games' playouts.
    fn store(&self, key: u64, node: &Node) {
        let Some(best) = node.best() else { return };
        if best.games < self.config.min_games.max(1) {
            return;
        }
        let Ok(Move::Play(c)) = best.mv.parse::<Move>() else {
            return;
        };
        let code = crate::rules::Board::new(self.game.size).point(c).0;
        let e = Entry {
            key,
            mv: code,
            quality: quality_of(best.games.saturating_mul(self.config.game_playouts)),
            depth: 0,
        };
        let mut counts = table::Counts::default();
        counts.add_store(self.table.store(e, self.weights.table_depth_exchange[0]));
        self.table.record(counts);
    }

    /// Plays games on `workers` threads until the limits or `stop`;
    /// calls `progress(games of this run, elapsed, report)` after each.
    pub fn run(
        &self,
        stop: &AtomicBool,
        progress: &(dyn Fn(u64, Duration, &GameReport) + Sync),
    ) -> u64 {
        let start = Instant::now();
        let first = {
            let t = self.tree.lock();
            t.games + t.abandoned
        };
        let next = std::sync::atomic::AtomicU64::new(0);
        let done = std::sync::atomic::AtomicU64::new(0);
        std::thread::scope(|s| {
            for _ in 0..self.config.workers.max(1) {
                let worker = std::thread::Builder::new().stack_size(64 << 20);
                let spawned = worker.spawn_scoped(s, || {
                    loop {
                        if stop.load(Ordering::Relaxed)
                            || self.config.time.is_some_and(|t| start.elapsed() >= t)
                        {
                            return;
                        }
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if self.config.games.is_some_and(|n| i >= n) {
                            return;
                        }
                        if let Some(r) = self.play(first + i, stop) {
                            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                            progress(n, start.elapsed(), &r);
                            self.table.maybe_flush(Duration::from_secs(60));
                        }
                    }
                });
                spawned.expect("a worker thread starts");
            }
        });
        let _ = self.tree.lock().save(&self.path);
        done.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::tests::table;
    use crate::rules::Rules;

    fn five() -> BookGame {
        BookGame {
            size: 5,
            komi: 0.5,
            rules: Rules::default(),
        }
    }

    fn config(games: u64, workers: usize) -> LearnConfig {
        LearnConfig {
            game_playouts: 40,
            depth: 3,
            candidates: 3,
            candidate_playouts: 100,
            exploration: 0.5,
            min_games: 4,
            workers,
            seed: 5,
            games: Some(games),
            time: None,
        }
    }

    fn arm(mv: &str, games: u64, points: f64) -> Arm {
        Arm {
            mv: mv.into(),
            games,
            points,
        }
    }

    #[test]
    fn ucb_tries_every_arm_then_prefers_the_better_one() {
        let n = Node {
            arms: vec![arm("C3", 10, 5.0), arm("B2", 0, 0.0), arm("B3", 0, 0.0)],
        };
        assert_eq!(pick(&n, 0.5), 1, "the first arm without games");
        let n = Node {
            arms: vec![arm("C3", 50, 20.0), arm("B2", 50, 30.0)],
        };
        assert_eq!(pick(&n, 0.5), 1, "equal games: the higher mean");
        // A rarely played arm gets its turn although its mean is lower.
        let n = Node {
            arms: vec![arm("C3", 200, 110.0), arm("B2", 2, 0.8)],
        };
        assert_eq!(pick(&n, 0.5), 1);
        assert_eq!(pick(&n, 0.0), 0, "no exploration: the best mean");
        // The book's move is the most played, not the best mean.
        let n = Node {
            arms: vec![arm("C3", 20, 12.0), arm("B2", 3, 3.0)],
        };
        assert_eq!(n.best().unwrap().mv, "C3");
    }

    #[test]
    fn games_count_along_their_walks_and_reach_the_table() {
        let g = five();
        let (dir, t) = table("learn", &g);
        let path = dir.path().join("b.learn.json");
        let stop = AtomicBool::new(false);
        let l = Learner::new(
            t.clone(),
            g.clone(),
            config(12, 1),
            &Weights::default(),
            path.clone(),
        )
        .unwrap();
        let mut lines = Vec::new();
        let report = Mutex::new(Vec::new());
        let played = l.run(&stop, &|n, _, r| report.lock().push((n, r.line.len())));
        assert_eq!(played, 12);
        lines.extend(report.into_inner());
        assert_eq!(
            lines.iter().map(|x| x.0).collect::<Vec<_>>(),
            (1..=12).collect::<Vec<_>>()
        );
        assert!(lines.iter().all(|&(_, len)| (1..=3).contains(&len)));
        let tree = LearnTree::load(&path, &g).unwrap();
        assert_eq!(tree.games, 12);
        // Every game began at the root; each move a walk chose has its games.
        let root = tree.root_arms(&g);
        assert_eq!(root.iter().map(|a| a.games).sum::<u64>(), 12);
        assert!(
            root.iter()
                .all(|a| a.points >= 0.0 && a.points <= a.games as f64)
        );
        let below: u64 = tree
            .nodes
            .values()
            .map(|n| n.arms.iter().map(|a| a.games).sum::<u64>())
            .sum();
        assert_eq!(below, lines.iter().map(|x| x.1 as u64).sum::<u64>());
        // The root's most played move is the table's book move at depth 0.
        let best = &root[0];
        assert!(best.games >= 4);
        let key = g.key(&g.new_game());
        let e = t.probe(key).expect("the root is in the table");
        assert_eq!(e.depth, 0);
        let board = crate::rules::Board::new(5);
        assert_eq!(table::code_to_move(&board, e.mv).to_string(), best.mv);
        assert_eq!(e.quality, quality_of(best.games * 40));

        // A new table gets the book from the tree alone.
        let (_dir2, fresh) = table("learn-fresh", &g);
        Learner::new(
            fresh.clone(),
            g.clone(),
            config(0, 1),
            &Weights::default(),
            path.clone(),
        )
        .unwrap();
        assert_eq!(fresh.probe(key), Some(e));

        // A new learner goes on from the file.
        let l = Learner::new(
            t.clone(),
            g.clone(),
            config(3, 2),
            &Weights::default(),
            path.clone(),
        )
        .unwrap();
        assert_eq!(l.run(&stop, &|_, _, _| {}), 3);
        assert_eq!(LearnTree::load(&path, &g).unwrap().games, 15);

        // A game cut short gives back the moves its walk counted.
        let stopped = AtomicBool::new(true);
        let before = l.tree();
        assert!(l.play(99, &stopped).is_none());
        let mut cut = l.tree();
        assert_eq!(cut.abandoned, 1);
        cut.abandoned = 0;
        let unchanged = before.nodes.iter().all(|(k, n)| cut.nodes[k] == *n);
        assert!(unchanged && cut.games == before.games);
        l.tree.lock().abandoned = 0;

        // Stopped before it starts: nothing played, nothing lost.
        stop.store(true, Ordering::Relaxed);
        assert_eq!(l.run(&stop, &|_, _, _| {}), 0);
        let after = LearnTree::load(&path, &g).unwrap();
        assert_eq!((after.games, after.abandoned), (15, 0));

        // The file of another game is refused with what to do.
        let other = BookGame { komi: 7.5, ..g };
        let e = LearnTree::load(&path, &other).unwrap_err().to_string();
        assert!(e.contains("b.learn.json") && e.contains("--komi"), "{e}");
        std::fs::write(&path, "{").unwrap();
        let e = LearnTree::load(&path, &g).unwrap_err().to_string();
        assert!(e.contains("not a book learning file"), "{e}");
    }

    #[test]
    fn one_worker_and_a_seed_give_the_same_tree() {
        let g = five();
        let run = |name: &str| {
            let (dir, t) = table(name, &g);
            let path = dir.path().join("b.learn.json");
            let l = Learner::new(t, g.clone(), config(6, 1), &Weights::default(), path).unwrap();
            l.run(&AtomicBool::new(false), &|_, _, _| {});
            l.tree()
        };
        assert_eq!(run("same-a"), run("same-b"));
    }
}
