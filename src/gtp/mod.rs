//! The GTP v2 front-end: preprocessing, parsing into typed commands, and
//! translating engine results into responses. No game logic lives here.

mod answers;
pub mod command;
mod execute;
pub mod gfx;
mod wire;

use answers::*;
pub use answers::{lz_info, owl_code};
pub use wire::{
    MAX_LINE, Output, SharedBuffer, format_response, preprocess, read_capped_line, run,
};

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
string/Tsumego Move/tsumego_genmove %m
varp/Tsumego Defender First/tengen-tsumego_var %p defender
varpo/Tsumego Attacker First/tengen-tsumego_var %p attacker
string/Dragon Status/dragon_status %p
string/Attack String/attack %p
string/Defend String/defend %p
string/Owl Attack/owl_attack %p
string/Owl Defend/owl_defend %p
string/Tsumego Limits/tengen-tsumego_limit";

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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::EngineConfig;
    use execute::resolve;

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
