//! The GTP v2 front-end: preprocessing, parsing into typed commands, and
//! translating engine results into responses. No game logic lives here.

pub mod command;
pub mod gfx;

use std::io::{self, BufRead, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub use command::{COMMANDS, Command, ParseError, Request, parse_line, time_settings};

use crate::engine::{Engine, EngineError, Genmove};
use crate::rules::{Color, Coord, GameError, Move, format_score};
use crate::search::Snapshot;
use gfx::{Reporting, gfx_best_moves, marked_line, var_moves};

/// An in-memory output that can be read while a session writes to it
/// (tests, embedding).
#[derive(Clone, Default)]
pub struct SharedBuffer(pub Arc<Mutex<Vec<u8>>>);

impl SharedBuffer {
    /// Everything written so far, as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap_or_else(|e| e.into_inner())).into_owned()
    }
}

impl Write for SharedBuffer {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Where responses and streamed analysis go; shared with background
/// analysis so that lines never interleave.
pub type Output = Arc<Mutex<Box<dyn Write + Send>>>;

/// Lines longer than this (in bytes, before preprocessing) are answered
/// with an error and otherwise ignored. The longest legitimate line, a
/// `set_free_handicap` with 624 vertices, is under 3 KB.
pub const MAX_LINE: usize = 16 * 1024;

/// GTP preprocessing (spec 3.1): drop control characters except HT and LF,
/// turn HT into a space, cut `#` comments, trim. Non-ASCII bytes are kept
/// (as U+FFFD) so that garbage is answered, not silently dropped.
/// Returns `None` for a line that is empty afterwards.
pub fn preprocess(raw: &[u8]) -> Option<String> {
    // Work on bytes: GTP control characters are ASCII 0-31 and 127 only;
    // bytes of 128 and above are ordinary (if meaningless) characters.
    let mut bytes = Vec::with_capacity(raw.len());
    for &b in raw {
        match b {
            b'#' => break,
            b'\t' => bytes.push(b' '),
            0..=31 | 127 => {}
            b => bytes.push(b),
        }
    }
    let text = String::from_utf8_lossy(&bytes);
    let trimmed = text.trim_matches(' ');
    (!trimmed.is_empty()).then(|| trimmed.to_string())
}

/// A GTP session over one engine.
pub struct Session {
    engine: Engine,
    quit: bool,
    out: Output,
    reporting: Reporting,
    /// If set, `loadsgf`/`printsgf` only touch relative paths below it.
    file_root: Option<PathBuf>,
    /// The life-and-death setup kept between commands (`tengen-tsumego_region`,
    /// `_safe`, `_limit`).
    tsumego: crate::tsumego::Settings,
}

/// Default time limit of one life-and-death answer, in seconds.
pub const DEFAULT_TSUMEGO_SECS: u64 = 30;

/// A successful response body, or a failure message.
type Answer = Result<String, String>;

fn join<T: ToString>(items: impl IntoIterator<Item = T>) -> String {
    items
        .into_iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The error text GTP uses for each engine error. Where the spec names a
/// message, that message is used verbatim (controllers match on it).
fn error_text(e: &EngineError) -> String {
    match e {
        EngineError::Play(_) => "illegal move".into(),
        EngineError::Game(GameError::CannotUndo) => "cannot undo".into(),
        EngineError::Game(GameError::BadSize(_)) => "unacceptable size".into(),
        EngineError::Game(GameError::Handicap(h)) => h.to_string(),
        EngineError::Sgf(_)
        | EngineError::IllegalRecordMove { .. }
        | EngineError::BadSetup { .. } => format!("cannot load file: {e}"),
        other => other.to_string(),
    }
}

const ANALYZE_COMMANDS: &str = "\
string/Final Score/final_score
plist/Dead Stones/final_status_list dead
plist/Legal Moves/all_legal %c
plist/Stones/list_stones %c
string/Liberties/countlib %p
string/Captures/captures %c
string/Board/showboard
gfx/Best Moves/tengen-best_moves
var/Principal Variation/tengen-pv
gfx/Ownership/tengen-ownership
string/Weights/tengen-weights
gfx/Table PV/tengen-table_pv gfx
string/Table Statistics/tengen-table_stats
none/Clear Tree/tengen-clear_tree
gfx/Tsumego Solution/tengen-tsumego_gfx %p
varp/Tsumego Defender First/tengen-tsumego_var %p defender
varpo/Tsumego Attacker First/tengen-tsumego_var %p attacker
string/Dragon Status/dragon_status %p
string/Owl Attack/owl_attack %p
string/Owl Defend/owl_defend %p
string/Tsumego Limits/tengen-tsumego_limit";

/// GNU Go's owl code of a result: 0 fails, 1 succeeds, 2 and 3 succeed
/// through a ko (KO_A: taken first; KO_B: with threats).
pub fn owl_code(r: crate::tsumego::OwlResult) -> u8 {
    use crate::tsumego::{KoWin, OwlResult};
    match r {
        OwlResult::Fails => 0,
        OwlResult::Succeeds => 1,
        OwlResult::Ko(KoWin::TakenFirst) => 2,
        OwlResult::Ko(KoWin::NeedsThreat) => 3,
    }
}

/// `owl_attack`/`owl_defend`: `code [vertex]`, or `unknown` at a limit.
fn owl_text(a: &crate::tsumego::OwlAnswer) -> String {
    match (a.result.map(owl_code), a.mv) {
        (None, _) => "unknown".into(),
        (Some(0), _) => "0".into(),
        (Some(c), Some(m)) => format!("{c} {m}"),
        (Some(c), None) => c.to_string(),
    }
}

/// `dragon_status`: `alive`, `dead`, `critical ATTACK DEFEND` or `unknown`.
fn dragon_text(d: crate::tsumego::DragonStatus) -> String {
    use crate::tsumego::DragonStatus;
    let mv = |m: Option<crate::rules::Move>| m.map_or("PASS".to_string(), |m| m.to_string());
    match d {
        DragonStatus::Alive => "alive".into(),
        DragonStatus::Dead => "dead".into(),
        DragonStatus::Critical { attack, defend } => {
            format!("critical {} {}", mv(attack), mv(defend))
        }
        DragonStatus::Unknown => "unknown".into(),
    }
}

/// `tsumego_solve`: one line of `key value` pairs, the main line last.
fn solve_text(prob: &crate::tsumego::Problem, a: &crate::tsumego::SideAnswer) -> String {
    let first = if a.first == prob.defender {
        "defender"
    } else {
        "attacker"
    };
    format!(
        "status {} code {} ko {} first {first} move {} leaves {} nodes {} tt {} ms {:.1} region {} line {}",
        a.status.name(),
        a.owl
            .result
            .map_or("-".to_string(), |r| owl_code(r).to_string()),
        match (a.owl.ko, a.owl.superko) {
            (Some(k), _) => k.letters(),
            (None, true) => "superko".to_string(),
            (None, false) => "-".to_string(),
        },
        match (a.owl.result, a.owl.mv) {
            (Some(r), Some(m)) if r.succeeds() => m.to_string(),
            _ => "-".to_string(),
        },
        a.counters.leaves,
        a.counters.nodes,
        a.counters.tt_hits,
        a.elapsed.as_secs_f64() * 1e3,
        prob.region.len(),
        crate::tsumego::format_line(&a.owl.line)
    )
}

/// The answer of `tengen-table_stats`.
fn table_stats(t: &crate::table::Table) -> String {
    let v = t.verify(false);
    let s = t.session_counts();
    let (writes, replacements) = t.lifetime_counts();
    let probes = s.hits + s.misses;
    format!(
        "file {} ({})\nscope {}\nentries {} used {} ({:.3}%) stale {}\nsince start: hits {} misses {} (hit rate {:.1}%) writes {} replacements {}\nfile lifetime: writes {} replacements {}",
        t.path().display(),
        t.read_only()
            .map_or("read-write".to_string(), |why| format!("read-only: {why}")),
        t.scope().describe(),
        v.entries,
        v.used,
        100.0 * v.used as f64 / v.entries as f64,
        v.stale,
        s.hits,
        s.misses,
        if probes == 0 {
            0.0
        } else {
            100.0 * s.hits as f64 / probes as f64
        },
        s.writes,
        s.replacements,
        writes,
        replacements
    )
}

impl Session {
    /// A session whose streamed output (`lz-analyze`) is discarded; use
    /// [`Session::with_output`] or [`run`] to keep it.
    pub fn new(engine: Engine) -> Session {
        Session::with_output(engine, Arc::new(Mutex::new(Box::new(io::sink()))))
    }

    /// A session that streams analysis to `out`. Responses are returned by
    /// [`Session::handle_line`]; streamed commands write their whole
    /// response to `out` themselves and return an empty string.
    pub fn with_output(engine: Engine, out: Output) -> Session {
        Session {
            engine,
            quit: false,
            out,
            reporting: Reporting::default(),
            file_root: None,
            tsumego: crate::tsumego::Settings {
                opts: crate::tsumego::SolveOptions {
                    time: Some(Duration::from_secs(DEFAULT_TSUMEGO_SECS)),
                    ..crate::tsumego::SolveOptions::default()
                },
                ..crate::tsumego::Settings::default()
            },
        }
    }

    /// Confines `loadsgf` and `printsgf` to relative paths below `root`
    /// (`None`: any path).
    pub fn set_file_root(&mut self, root: Option<PathBuf>) {
        self.file_root = root;
    }

    /// What the session prints on stderr while the engine thinks
    /// (nothing by default).
    pub fn set_reporting(&mut self, reporting: Reporting) {
        self.reporting = reporting;
    }

    fn write_out(&self, text: &str) {
        let mut o = self.out.lock().unwrap_or_else(|e| e.into_inner());
        let _ = o.write_all(text.as_bytes()).and_then(|_| o.flush());
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// True after `quit`.
    pub fn quit_requested(&self) -> bool {
        self.quit
    }

    /// Handles one raw input line (without its newline). Returns the full
    /// response text (`=`/`?`, id, body, blank line), or `None` for lines
    /// that preprocessing empties.
    pub fn handle_line(&mut self, raw: &[u8]) -> Option<String> {
        let line = preprocess(raw)?;
        // Any command stops background analysis or pondering (which ends
        // a streamed response with its empty line).
        self.engine.stop_background();
        let req = parse_line(&line);
        if let Ok(cmd @ (Command::LzAnalyze { .. } | Command::LzGenmoveAnalyze { .. })) =
            &req.command
        {
            let cmd = cmd.clone();
            let id = req.id.clone();
            return match catch_unwind(AssertUnwindSafe(|| self.stream(id.as_deref(), cmd))) {
                Ok(Ok(())) => Some(String::new()),
                Ok(Err(msg)) => Some(format_response(id.as_deref(), Err(msg))),
                Err(_) => Some(format_response(
                    id.as_deref(),
                    Err("internal error: please report this command".into()),
                )),
            };
        }
        let answer = match req.command {
            Err(ParseError::Unknown) => Err("unknown command".to_string()),
            Err(ParseError::UnacceptableSize) => Err("unacceptable size".to_string()),
            Err(ParseError::Syntax(why)) => Err(format!("syntax error: {why}")),
            Ok(cmd) => {
                // Last line of defence: a bug must cost one answer, never the
                // session.
                match catch_unwind(AssertUnwindSafe(|| self.execute(cmd))) {
                    Ok(a) => a,
                    Err(_) => Err("internal error: please report this command".into()),
                }
            }
        };
        Some(format_response(req.id.as_deref(), answer))
    }

    /// Answers a line that was too long to read in full.
    pub fn too_long(&self, prefix: &[u8], len: usize) -> String {
        let id = preprocess(prefix).and_then(|l| parse_line(&l).id);
        format_response(
            id.as_deref(),
            Err(format!(
                "line too long: {len} bytes or more, the limit is {MAX_LINE}"
            )),
        )
    }

    /// The streamed commands: `lz-analyze` runs in the background until
    /// the next command; `lz-genmove_analyze` streams while it thinks and
    /// ends with `play <move>`. Both end with an empty line. `Err` means
    /// nothing was written yet.
    fn stream(&mut self, id: Option<&str>, cmd: Command) -> Result<(), String> {
        if self.engine.player_name() != "mcts" {
            return Err(error_text(&EngineError::NoSearch));
        }
        let (color, interval_cs, genmove) = match cmd {
            Command::LzAnalyze { color, interval_cs } => (color, interval_cs, false),
            Command::LzGenmoveAnalyze { color, interval_cs } => (color, interval_cs, true),
            _ => unreachable!("only streamed commands come here"),
        };
        let color = color.unwrap_or(self.engine.game().to_move());
        let every = Duration::from_millis(10 * interval_cs.max(1) as u64);
        self.write_out(&format!("={}\n", id.unwrap_or("")));
        if genmove {
            let mut info = lz_writer(self.out.clone());
            let reporting = self.reporting;
            let started = std::time::Instant::now();
            let answer = self
                .engine
                .genmove_with(color, true, false, Some(every), &mut |s| {
                    reporting.snapshot(s);
                    info(s);
                });
            if let (Ok(choice), Some(r)) = (&answer, self.engine.last_search()) {
                let table = self.engine.has_table();
                reporting.genmove(color, *choice, r, started.elapsed(), table);
            }
            let mv = match answer {
                Ok(Genmove::Move(m)) => m.to_string(),
                Ok(Genmove::Resign) => "resign".into(),
                // The response has begun; end it cleanly.
                Err(_) => "pass".into(),
            };
            self.write_out(&format!("play {mv}\n\n"));
        } else {
            let end = self.out.clone();
            self.engine.start_analysis(
                color,
                every,
                Box::new(lz_writer(self.out.clone())),
                Box::new(move || {
                    let mut o = end.lock().unwrap_or_else(|e| e.into_inner());
                    let _ = o.write_all(b"\n").and_then(|_| o.flush());
                }),
            );
        }
        Ok(())
    }

    fn execute(&mut self, cmd: Command) -> Answer {
        use Command as C;
        let e = &mut self.engine;
        let fail = |err: EngineError| error_text(&err);
        match cmd {
            C::ProtocolVersion => Ok("2".into()),
            C::Name => Ok("tengen".into()),
            C::Version => Ok(env!("CARGO_PKG_VERSION").into()),
            C::KnownCommand(name) => Ok(COMMANDS.contains(&name.as_str()).to_string()),
            C::ListCommands => Ok(COMMANDS.join("\n")),
            C::Quit => {
                self.quit = true;
                Ok(String::new())
            }
            C::BoardSize(n) => e.set_board_size(n).map(|_| String::new()).map_err(fail),
            C::ClearBoard => {
                e.clear_board();
                Ok(String::new())
            }
            C::Komi(k) => {
                e.set_komi(k);
                Ok(String::new())
            }
            C::Play(color, mv) => e.play(color, mv).map(|_| String::new()).map_err(fail),
            C::Genmove(color) => genmove(e, self.reporting, color, true, false),
            C::RegGenmove(color) => genmove(e, self.reporting, color, false, false),
            C::GenmoveCleanup(color) => genmove(e, self.reporting, color, true, true),
            C::Undo => e.undo().map(|_| String::new()).map_err(fail),
            C::FixedHandicap(n) => e.fixed_handicap(n).map(join).map_err(fail),
            C::PlaceFreeHandicap(n) => e.place_free_handicap(n).map(join).map_err(fail),
            C::SetFreeHandicap(stones) => e
                .set_free_handicap(&stones)
                .map(|_| String::new())
                .map_err(fail),
            C::TimeSettings(system) => {
                e.set_time_system(system);
                Ok(String::new())
            }
            C::TimeLeft {
                color,
                seconds,
                stones,
            } => {
                e.set_time_left(color, seconds, stones);
                Ok(String::new())
            }
            C::FinalScore => Ok(format_score(e.final_score())),
            C::FinalStatusList(status) => Ok(e
                .final_status_list(status)
                .into_iter()
                .map(join)
                .collect::<Vec<_>>()
                .join("\n")),
            C::LoadSgf { path, before } => e
                .load_sgf(&resolve(&self.file_root, &path)?, before)
                .map(|_| String::new())
                .map_err(fail),
            C::PrintSgf(None) => Ok(e.sgf()),
            C::PrintSgf(Some(path)) => e
                .save_sgf(&resolve(&self.file_root, &path)?)
                .map(|_| String::new())
                .map_err(fail),
            C::ShowBoard => Ok(showboard(e)),
            C::CgosGameOver => Ok(String::new()),
            C::ShowWeights => e
                .weights()
                .map(|w| w.describe())
                .ok_or_else(|| "this engine has no weights (use --engine mcts)".to_string()),
            C::BestMoves => e
                .analysis()
                .map(|s| gfx_best_moves(&s, false))
                .map_err(fail),
            C::PrincipalVariation => e
                .analysis()
                .map(|s| match (s.best(), s.color) {
                    (Some(b), Some(c)) => var_moves(c, &b.pv),
                    _ => String::new(),
                })
                .map_err(fail),
            C::Ownership => {
                let own = e.ownership();
                Ok(format!(
                    "INFLUENCE {}",
                    own.iter()
                        .map(|(c, o)| format!("{c} {o:.2}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                ))
            }
            C::LzAnalyze { .. } | C::LzGenmoveAnalyze { .. } => {
                unreachable!("streamed commands are handled before execute")
            }
            C::TableStats => match e.table() {
                Some(t) => Ok(table_stats(t)),
                None => Err("no best-move table in use (the engine was started with --no-table or without a search)".into()),
            },
            C::ClearTree => {
                e.clear_tree();
                Ok(String::new())
            }
            C::TablePv { gfx } => e
                .marked_pv()
                .map(|pv| {
                    let text = marked_line(&pv);
                    if gfx {
                        let color = e.game().to_move();
                        let moves: Vec<Move> = pv.iter().map(|(m, _)| *m).collect();
                        format!("VAR {}\nTEXT {text}", var_moves(color, &moves))
                    } else {
                        text
                    }
                })
                .map_err(fail),
            C::OwlAttack(mv) | C::OwlDefend(mv) => {
                let at = on_board(e, mv)?;
                let role = if matches!(cmd, C::OwlAttack(_)) {
                    crate::tsumego::Role::Attacker
                } else {
                    crate::tsumego::Role::Defender
                };
                let a = e.owl(&self.tsumego, &[at], role).map_err(fail)?;
                Ok(owl_text(&a))
            }
            C::OwlAttackChains(ref mvs) | C::OwlDefendChains(ref mvs) => {
                let at = all_on_board(e, mvs)?;
                let role = if matches!(cmd, C::OwlAttackChains(_)) {
                    crate::tsumego::Role::Attacker
                } else {
                    crate::tsumego::Role::Defender
                };
                let a = e.owl(&self.tsumego, &at, role).map_err(fail)?;
                Ok(owl_text(&a))
            }
            C::DragonStatus(mv) => {
                let at = on_board(e, mv)?;
                e.dragon_status(&self.tsumego, at).map(dragon_text).map_err(fail)
            }
            C::TsumegoSolve {
                ref at,
                first,
                level,
            } => {
                let at = all_on_board(e, at)?;
                let (prob, a) = e.tsumego_solve(&self.tsumego, &at, first, level).map_err(fail)?;
                Ok(solve_text(&prob, &a))
            }
            C::TsumegoVar { at, first } => {
                let at = on_board(e, at)?;
                let (_, a) = e.tsumego_solve(&self.tsumego, &[at], Some(first), None).map_err(fail)?;
                Ok(join(a.owl.line.iter().map(|(_, m)| *m)))
            }
            C::TsumegoGfx(at) => {
                let at = on_board(e, at)?;
                let (prob, a) = e.tsumego_solve(&self.tsumego, &[at], None, None).map_err(fail)?;
                let moves: Vec<Move> = a.owl.line.iter().map(|(_, m)| *m).collect();
                let mut out = String::new();
                if !moves.is_empty() {
                    out.push_str(&format!("VAR {}\n", var_moves(a.first, &moves)));
                }
                out.push_str(&format!("TEXT {}", solve_text(&prob, &a)));
                Ok(out)
            }
            C::TsumegoRegion(ref pts) | C::TsumegoSafe(ref pts) => {
                let mut v = Vec::new();
                for &m in pts {
                    v.push(on_board(e, m)?);
                }
                let s = &mut self.tsumego;
                if matches!(cmd, C::TsumegoRegion(_)) {
                    s.region = v;
                } else {
                    s.safe = v;
                }
                Ok(String::new())
            }
            C::TsumegoLimit { nodes, secs, level } => {
                let s = &mut self.tsumego;
                if let Some(n) = nodes {
                    s.opts.max_nodes = n;
                }
                if let Some(t) = secs {
                    s.opts.time = (t > 0.0).then(|| std::time::Duration::from_secs_f64(t));
                }
                if let Some(l) = level {
                    s.opts.level = l;
                }
                Ok(format!(
                    "nodes {} time {} level {} region {} safe {}",
                    s.opts.max_nodes,
                    s.opts.time.map_or(0.0, |t| t.as_secs_f64()),
                    s.opts.level,
                    if s.region.is_empty() {
                        "detect".to_string()
                    } else {
                        format!("{} points", s.region.len())
                    },
                    s.safe.len()
                ))
            }
            C::AnalyzeCommands => Ok(ANALYZE_COMMANDS.into()),
            C::IsLegal(color, mv) => {
                on_board(e, mv)?;
                Ok(if e.game().is_legal(color, mv) {
                    "1"
                } else {
                    "0"
                }
                .into())
            }
            C::AllLegal(color) => Ok(join(scan_order(e.game().legal_points(color)))),
            C::ListStones(color) => Ok(join(scan_order(e.game().board().stones(color).collect()))),
            C::CountLib(mv) => {
                let c = on_board(e, mv)?;
                let b = e.game().board();
                let p = b.point(c);
                if b.cell(p).color().is_none() {
                    return Err(format!("vertex {c} must not be empty"));
                }
                Ok(b.liberties(p).to_string())
            }
            C::Captures(color) => Ok(e.game().board().captures(color).to_string()),
        }
    }
}

fn scan_order(mut v: Vec<Coord>) -> Vec<Coord> {
    crate::rules::handicap::sort_scan_order(&mut v);
    v
}

/// The coordinate of a stone-vertex on the current board, or an error for
/// `pass` and for vertices off the board.
fn all_on_board(e: &Engine, mvs: &[Move]) -> Result<Vec<Coord>, String> {
    mvs.iter().map(|&m| on_board(e, m)).collect()
}

fn on_board(e: &Engine, mv: Move) -> Result<Coord, String> {
    let size = e.game().size();
    match mv {
        Move::Play(c) if c.on_board(size) => Ok(c),
        Move::Play(c) => Err(format!(
            "invalid coordinate: {c} is off the {size}x{size} board"
        )),
        Move::Pass => Err("invalid coordinate: pass is not a point".into()),
    }
}

/// The file a `loadsgf`/`printsgf` path names: below `root` when one is
/// set, and then only relative paths without `..`.
fn resolve(root: &Option<PathBuf>, path: &Path) -> Result<PathBuf, String> {
    match root {
        None => Ok(path.to_path_buf()),
        Some(root) => {
            let ok = path
                .components()
                .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
            if ok {
                Ok(root.join(path))
            } else {
                Err(format!(
                    "cannot load file: '{}' is outside the allowed directory: use a relative path without '..'",
                    path.display()
                ))
            }
        }
    }
}

fn genmove(
    e: &mut Engine,
    reporting: Reporting,
    color: Color,
    commit: bool,
    cleanup: bool,
) -> Answer {
    let started = std::time::Instant::now();
    let answer = e.genmove_with(color, commit, cleanup, None, &mut |s| reporting.snapshot(s));
    if let (Ok(choice), Some(r)) = (&answer, e.last_search()) {
        reporting.genmove(color, *choice, r, started.elapsed(), e.has_table());
    }
    match answer {
        Ok(Genmove::Move(mv)) => Ok(mv.to_string()),
        Ok(Genmove::Resign) => Ok("resign".into()),
        Err(err) => Err(error_text(&err)),
    }
}

fn showboard(e: &Engine) -> String {
    let g = e.game();
    let b = g.board();
    let mut out = String::from("\n");
    out += &b.render();
    out += &format!(
        "\nBlack (X) has captured {} stones, White (O) has captured {} stones",
        b.captures(Color::Black),
        b.captures(Color::White)
    );
    out += &format!(
        "\nkomi {}, {} to move, move {}{}",
        g.komi(),
        g.to_move(),
        g.move_count(),
        match g.last_move() {
            Some((c, m)) => format!(", last {c} {m}"),
            None => String::new(),
        }
    );
    out
}

/// Formats `=id body` / `?id message` followed by the blank line. A body
/// never contains an empty line (that would end the response early).
/// A report callback that writes each snapshot's `info` line to `out`.
fn lz_writer(out: Output) -> impl FnMut(&Snapshot) + Send + 'static {
    move |s| {
        let line = lz_info(s);
        if !line.is_empty() {
            let mut o = out.lock().unwrap_or_else(|e| e.into_inner());
            let _ = writeln!(o, "{line}").and_then(|_| o.flush());
        }
    }
}

/// One Leela Zero `info` line for a snapshot: every candidate with its
/// visits, win rate and prior (in 1/10000, for the side to move), lower
/// confidence bound, order and principal variation.
pub fn lz_info(s: &Snapshot) -> String {
    s.candidates
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let n = c.visits.max(1) as f64;
            let lcb = (c.winrate - 1.96 * (c.winrate * (1.0 - c.winrate) / n).sqrt()).max(0.0);
            format!(
                "info move {} visits {} winrate {} prior {} lcb {} order {} pv {}",
                c.mv,
                c.visits,
                (c.winrate * 10000.0).round() as i64,
                (c.prior * 10000.0).round() as i64,
                (lcb * 10000.0).round() as i64,
                i,
                c.pv.iter()
                    .map(|m| m.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

pub fn format_response(id: Option<&str>, answer: Answer) -> String {
    let (mark, body) = match answer {
        Ok(b) => ('=', b),
        Err(m) => ('?', m),
    };
    let mut body = body.replace('\r', "");
    while body.contains("\n\n") {
        body = body.replace("\n\n", "\n");
    }
    let body = body.trim_end_matches('\n');
    format!("{mark}{} {body}\n\n", id.unwrap_or(""))
}

/// Reads one line of at most `max` bytes into `buf` (without the newline).
/// Returns `Ok(None)` at end of input, otherwise the full length of the
/// line; when that is larger than `max`, only the first `max` bytes are in
/// `buf` and the rest was discarded.
pub fn read_capped_line<R: BufRead>(
    reader: &mut R,
    buf: &mut Vec<u8>,
    max: usize,
) -> io::Result<Option<usize>> {
    buf.clear();
    let mut total = 0usize;
    let mut any = false;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(any.then_some(total));
        }
        any = true;
        let (used, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (chunk.len(), false),
        };
        let room = max.saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..used.min(room)]);
        total = total.saturating_add(used);
        reader.consume(if done { used + 1 } else { used });
        if done {
            return Ok(Some(total));
        }
    }
}

/// Runs a session until `quit` or end of input. Write errors (the
/// controller went away) end the session quietly.
pub fn run<R: BufRead, W: Write + Send + 'static>(
    session: &mut Session,
    mut input: R,
    output: W,
) -> io::Result<()> {
    let out: Output = Arc::new(Mutex::new(Box::new(output)));
    session.out = out.clone();
    let mut buf = Vec::with_capacity(256);
    while let Some(len) = read_capped_line(&mut input, &mut buf, MAX_LINE)? {
        let response = if len > MAX_LINE {
            Some(session.too_long(&buf, len))
        } else {
            session.handle_line(&buf)
        };
        if let Some(r) = response {
            let mut o = out.lock().unwrap_or_else(|e| e.into_inner());
            if o.write_all(r.as_bytes()).and_then(|_| o.flush()).is_err() {
                drop(o);
                session.engine.stop_background();
                return Ok(());
            }
        }
        if session.quit_requested() {
            break;
        }
    }
    // End of input or quit: a running analysis ends its response.
    session.engine.stop_background();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::EngineConfig;

    fn session() -> Session {
        Session::new(Engine::new(EngineConfig::default()).unwrap())
    }

    #[test]
    fn file_root_rejects_escapes() {
        let root = Some(PathBuf::from("/tmp"));
        assert!(resolve(&root, Path::new("../x.sgf")).is_err());
        assert!(resolve(&root, Path::new("/etc/passwd")).is_err());
        assert_eq!(
            resolve(&root, Path::new("a/b.sgf")).unwrap(),
            PathBuf::from("/tmp/a/b.sgf")
        );
        assert_eq!(
            resolve(&None, Path::new("../x.sgf")).unwrap(),
            PathBuf::from("../x.sgf")
        );
    }

    #[test]
    fn preprocessing() {
        assert_eq!(preprocess(b"  # only a comment"), None);
        assert_eq!(preprocess(b"   \t "), None);
        assert_eq!(preprocess(b"na\x01me\r"), Some("name".into()));
        assert_eq!(preprocess(b"1\tplay\tb a1 # x"), Some("1 play b a1".into()));
        assert_eq!(preprocess(b"\x7f"), None);
        // U+0080 is a control character in Unicode, but not in GTP.
        assert_eq!(preprocess("\u{80}".as_bytes()), Some("\u{80}".into()));
    }

    #[test]
    fn responses() {
        let mut s = session();
        assert_eq!(s.handle_line(b"1 name").unwrap(), "=1 tengen\n\n");
        assert_eq!(s.handle_line(b"name").unwrap(), "= tengen\n\n");
        assert_eq!(s.handle_line(b"2 foo").unwrap(), "?2 unknown command\n\n");
        assert_eq!(s.handle_line(b"# x"), None);
        assert_eq!(
            s.handle_line(b"boardsize 1").unwrap(),
            "? unacceptable size\n\n"
        );
        assert!(
            s.handle_line(b"play b")
                .unwrap()
                .starts_with("? syntax error")
        );
        assert_eq!(s.handle_line(b"undo").unwrap(), "? cannot undo\n\n");
        assert_eq!(s.handle_line(b"play b d4").unwrap(), "= \n\n");
        assert_eq!(s.handle_line(b"play w d4").unwrap(), "? illegal move\n\n");
        assert!(
            s.handle_line(b"play w z99")
                .unwrap()
                .starts_with("? syntax error")
        );
        assert_eq!(s.handle_line(b"play w Z25").unwrap(), "? illegal move\n\n");
        assert_eq!(
            s.handle_line(b"fixed_handicap 2").unwrap(),
            "? board not empty\n\n"
        );
        assert_eq!(s.handle_line(b"list_stones b").unwrap(), "= D4\n\n");
        assert_eq!(s.handle_line(b"countlib D4").unwrap(), "= 4\n\n");
        assert!(s.handle_line(b"countlib D5").unwrap().starts_with("? "));
        assert_eq!(s.handle_line(b"known_command play").unwrap(), "= true\n\n");
        assert_eq!(s.handle_line(b"known_command nope").unwrap(), "= false\n\n");
        let sb = s.handle_line(b"showboard").unwrap();
        assert!(sb.starts_with("= \n"));
        assert!(sb.ends_with("\n\n") && !sb[..sb.len() - 2].contains("\n\n"));
    }

    #[test]
    fn capped_reader() {
        let data = b"short\nthis line is long\nlast".to_vec();
        let mut r = io::Cursor::new(data);
        let mut buf = Vec::new();
        assert_eq!(read_capped_line(&mut r, &mut buf, 8).unwrap(), Some(5));
        assert_eq!(buf, b"short");
        assert_eq!(read_capped_line(&mut r, &mut buf, 8).unwrap(), Some(17));
        assert_eq!(buf, b"this lin");
        assert_eq!(read_capped_line(&mut r, &mut buf, 8).unwrap(), Some(4));
        assert_eq!(buf, b"last");
        assert_eq!(read_capped_line(&mut r, &mut buf, 8).unwrap(), None);
    }

    #[test]
    fn run_stops_at_quit_and_eof() {
        let mut s = session();
        let out = SharedBuffer::default();
        run(&mut s, &b"1 name\n2 quit\n3 name\n"[..], out.clone()).unwrap();
        assert_eq!(out.text(), "=1 tengen\n\n=2 \n\n");
        let mut s = session();
        let out = SharedBuffer::default();
        let long = format!("5 name {}\nname", "x".repeat(MAX_LINE * 2));
        run(&mut s, long.as_bytes(), out.clone()).unwrap();
        let text = out.text();
        assert!(text.starts_with("?5 line too long"), "{text}");
        assert!(text.ends_with("= tengen\n\n"));
    }
}
