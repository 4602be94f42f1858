//! GTP command lines → typed [`Command`]s, before anything is executed.

use std::path::PathBuf;

use crate::engine::{StoneStatus, TimeSystem};
use crate::rules::{Color, Move};
use crate::tsumego::{Repetition, Role};

mod args;
use args::{arity, color, float, lz_args, syntax, uint, vertex, vertices};

/// Every command the engine knows, in the order `list_commands` prints them.
/// `docs/gtp.md` documents each one (a test checks that).
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "time_settings",
    "time_left",
    "final_score",
    "final_status_list",
    "loadsgf",
    "reg_genmove",
    "showboard",
    "kgs-genmove_cleanup",
    "kgs-time_settings",
    "printsgf",
    "cgos-gameover",
    "gogui-analyze_commands",
    "is_legal",
    "all_legal",
    "list_stones",
    "countlib",
    "captures",
    "lz-analyze",
    "lz-genmove_analyze",
    "tengen-weights",
    "tengen-best_moves",
    "tengen-pv",
    "tengen-ownership",
    "tengen-table_stats",
    "tengen-table_pv",
    "tengen-clear_tree",
    "attack",
    "defend",
    "owl_attack",
    "owl_defend",
    "owl_does_attack",
    "owl_does_defend",
    "tengen-owl_attack",
    "tengen-owl_defend",
    "dragon_status",
    "tsumego_solve",
    "tsumego_genmove",
    "tengen-tsumego_var",
    "tengen-tsumego_gfx",
    "tengen-tsumego_region",
    "tengen-tsumego_safe",
    "tengen-tsumego_limit",
];

/// A parsed command with typed arguments.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    ProtocolVersion,
    Name,
    Version,
    KnownCommand(String),
    ListCommands,
    Quit,
    BoardSize(usize),
    ClearBoard,
    Komi(f64),
    Play(Color, Move),
    Genmove(Color),
    RegGenmove(Color),
    GenmoveCleanup(Color),
    Undo,
    FixedHandicap(usize),
    PlaceFreeHandicap(usize),
    SetFreeHandicap(Vec<Move>),
    TimeSettings(TimeSystem),
    TimeLeft {
        color: Color,
        seconds: f64,
        stones: u32,
    },
    FinalScore,
    FinalStatusList(StoneStatus),
    LoadSgf {
        path: PathBuf,
        before: Option<usize>,
    },
    PrintSgf(Option<PathBuf>),
    ShowBoard,
    CgosGameOver,
    AnalyzeCommands,
    IsLegal(Color, Move),
    AllLegal(Color),
    ListStones(Color),
    CountLib(Move),
    Captures(Color),
    /// `lz-analyze [color] [interval]`: interval in centiseconds.
    LzAnalyze {
        color: Option<Color>,
        interval_cs: u32,
    },
    LzGenmoveAnalyze {
        color: Option<Color>,
        interval_cs: u32,
    },
    ShowWeights,
    BestMoves,
    PrincipalVariation,
    Ownership,
    TableStats,
    /// `tengen-table_pv [gfx]`.
    TablePv {
        gfx: bool,
    },
    ClearTree,
    OwlAttack(Move),
    OwlDefend(Move),
    /// `attack <vertex>`: can the string be captured (string tactics)?
    Attack(Move),
    /// `defend <vertex>`: can the string be saved (string tactics)?
    Defend(Move),
    /// `owl_does_attack <move> <group>`: does the attacker's move kill?
    OwlDoesAttack(Move, Move),
    /// `owl_does_defend <move> <group>`: does the defender's move save?
    OwlDoesDefend(Move, Move),
    /// `tengen-owl_attack <vertex>... [captured <vertex>...]`: every chain
    /// named is crucial, and so is each empty point after `captured` (a
    /// crucial stone captured earlier, crucial again if refilled).
    OwlAttackChains {
        at: Vec<Move>,
        captured: Vec<Move>,
    },
    /// `tengen-owl_defend <vertex>... [captured <vertex>...]`.
    OwlDefendChains {
        at: Vec<Move>,
        captured: Vec<Move>,
    },
    DragonStatus(Move),
    /// `tsumego_solve <vertex>... [attacker|defender] [level N]`.
    TsumegoSolve {
        at: Vec<Move>,
        first: Option<Role>,
        level: Option<u8>,
    },
    /// `tsumego_genmove <color>`: the stones on the board as a problem,
    /// framed, `color` to play; the key move or `pass`.
    TsumegoGenmove(Color),
    /// `tengen-tsumego_var <vertex> attacker|defender`.
    TsumegoVar {
        at: Move,
        first: Role,
    },
    TsumegoGfx(Move),
    /// Explicit region; empty clears it.
    TsumegoRegion(Vec<Move>),
    /// Safe attacker stones; empty clears them.
    TsumegoSafe(Vec<Move>),
    /// `tengen-tsumego_limit [nodes N] [time SECS] [level N]
    /// [repetition superko|simple-ko] [threats auto|B,W]`.
    TsumegoLimit {
        nodes: Option<u64>,
        secs: Option<f64>,
        level: Option<u8>,
        repetition: Option<Repetition>,
        /// `threats auto` (`Some(None)`) or `threats B,W`: Black's and
        /// White's external ko threats, fixed.
        threats: Option<Option<[u8; 2]>>,
    },
}

/// Why a command line could not become a [`Command`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The name is not one of [`COMMANDS`].
    Unknown,
    /// Wrong number or form of arguments. The text says what was expected;
    /// the GTP answer is the spec's "syntax error" followed by it.
    Syntax(String),
    /// The board size argument is an integer, but not one we support.
    UnacceptableSize,
}

/// One command line after preprocessing: the optional id, the name and
/// the parse result.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// The id digits exactly as sent (echoed back verbatim).
    pub id: Option<String>,
    pub name: String,
    pub command: Result<Command, ParseError>,
}

/// Splits a preprocessed, non-empty line into id, name and arguments, and
/// parses the arguments.
pub fn parse_line(line: &str) -> Request {
    let mut words = line.split(' ').filter(|w| !w.is_empty());
    let first = words.next().unwrap_or("");
    let (id, name) = if !first.is_empty() && first.bytes().all(|b| b.is_ascii_digit()) {
        (Some(first.to_string()), words.next().unwrap_or(""))
    } else {
        (None, first)
    };
    let args: Vec<&str> = words.collect();
    let command = if name.is_empty() {
        Err(ParseError::Syntax(
            "a command name is missing after the id".into(),
        ))
    } else {
        parse_command(name, &args)
    };
    Request {
        id,
        name: name.to_string(),
        command,
    }
}

/// Parses the arguments of the named command.
pub fn parse_command(name: &str, args: &[&str]) -> Result<Command, ParseError> {
    use Command as C;
    let none = |c: Command| arity(name, args, "", 0).map(|_| c);
    let one_color = |f: fn(Color) -> Command| {
        arity(name, args, "<color>", 1)?;
        Ok(f(color(args[0])?))
    };
    match name {
        "protocol_version" => none(C::ProtocolVersion),
        "name" => none(C::Name),
        "version" => none(C::Version),
        "known_command" => {
            arity(name, args, "<command_name>", 1)?;
            Ok(C::KnownCommand(args[0].to_string()))
        }
        "list_commands" => none(C::ListCommands),
        "quit" => none(C::Quit),
        "boardsize" => {
            arity(name, args, "<size>", 1)?;
            // An integer out of range is "unacceptable size", anything else
            // is a syntax error.
            let a = args[0];
            let digits = a.strip_prefix('-').unwrap_or(a);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return syntax(format!("board size '{a}' is not an integer"));
            }
            match a.parse::<usize>() {
                Ok(n) if (crate::rules::MIN_SIZE..=crate::rules::MAX_SIZE).contains(&n) => {
                    Ok(C::BoardSize(n))
                }
                _ => Err(ParseError::UnacceptableSize),
            }
        }
        "clear_board" => none(C::ClearBoard),
        "komi" => {
            arity(name, args, "<komi>", 1)?;
            Ok(C::Komi(float(args[0], "komi")?))
        }
        "play" | "is_legal" => {
            arity(name, args, "<color> <vertex>", 2)?;
            let (c, v) = (color(args[0])?, vertex(args[1])?);
            Ok(if name == "play" {
                C::Play(c, v)
            } else {
                C::IsLegal(c, v)
            })
        }
        "genmove" => one_color(C::Genmove),
        "reg_genmove" => one_color(C::RegGenmove),
        "kgs-genmove_cleanup" => one_color(C::GenmoveCleanup),
        "tsumego_genmove" => one_color(C::TsumegoGenmove),
        "all_legal" => one_color(C::AllLegal),
        "list_stones" => one_color(C::ListStones),
        "captures" => one_color(C::Captures),
        "undo" => none(C::Undo),
        "fixed_handicap" | "place_free_handicap" => {
            arity(name, args, "<number_of_stones>", 1)?;
            let n = uint(args[0], "number of stones")? as usize;
            Ok(if name == "fixed_handicap" {
                C::FixedHandicap(n)
            } else {
                C::PlaceFreeHandicap(n)
            })
        }
        "set_free_handicap" => {
            if args.is_empty() {
                return syntax("usage: set_free_handicap <vertex> <vertex> ...");
            }
            Ok(C::SetFreeHandicap(
                args.iter().map(|a| vertex(a)).collect::<Result<_, _>>()?,
            ))
        }
        "time_settings" => {
            arity(
                name,
                args,
                "<main_time> <byo_yomi_time> <byo_yomi_stones>",
                3,
            )?;
            Ok(C::TimeSettings(time_settings(
                uint(args[0], "main time")?,
                uint(args[1], "byo-yomi time")?,
                uint(args[2], "byo-yomi stones")?,
            )))
        }
        "kgs-time_settings" => {
            let usage = "usage: kgs-time_settings none | absolute <main> | byoyomi <main> <period_time> <periods> | canadian <main> <period_time> <stones>";
            let kind = args.first().map(|s| s.to_ascii_lowercase());
            let n = |i: usize, what| uint(args[i], what).map(|v| v as f64);
            let system = match (kind.as_deref(), args.len()) {
                (Some("none"), 1) => TimeSystem::Unlimited,
                (Some("absolute"), 2) => TimeSystem::Absolute {
                    main: n(1, "main time")?,
                },
                (Some("byoyomi"), 4) => TimeSystem::ByoYomi {
                    main: n(1, "main time")?,
                    period: n(2, "period time")?,
                    periods: uint(args[3], "periods")?,
                },
                (Some("canadian"), 4) => {
                    let stones = uint(args[3], "stones")?;
                    if stones == 0 {
                        return syntax("canadian byo-yomi needs at least 1 stone");
                    }
                    TimeSystem::Canadian {
                        main: n(1, "main time")?,
                        period: n(2, "period time")?,
                        stones,
                    }
                }
                _ => return syntax(usage),
            };
            Ok(C::TimeSettings(system))
        }
        "time_left" => {
            arity(name, args, "<color> <time> <stones>", 3)?;
            let seconds = float(args[1], "time")?;
            if seconds < 0.0 {
                return syntax(format!("time '{}' is negative", args[1]));
            }
            Ok(C::TimeLeft {
                color: color(args[0])?,
                seconds,
                stones: uint(args[2], "stones")?,
            })
        }
        "final_score" => none(C::FinalScore),
        "final_status_list" => {
            arity(name, args, "alive|dead|seki", 1)?;
            match args[0].to_ascii_lowercase().as_str() {
                "alive" => Ok(C::FinalStatusList(StoneStatus::Alive)),
                "dead" => Ok(C::FinalStatusList(StoneStatus::Dead)),
                "seki" => Ok(C::FinalStatusList(StoneStatus::Seki)),
                s => syntax(format!("status '{s}' is not alive, dead or seki")),
            }
        }
        "loadsgf" => {
            if args.is_empty() || args.len() > 2 {
                return syntax("usage: loadsgf <filename> [<move_number>]");
            }
            let before = match args.get(1) {
                None => None,
                Some(a) => match a.parse::<usize>() {
                    Ok(n) if n >= 1 => Some(n),
                    _ => return syntax(format!("move number '{a}' is not a positive integer")),
                },
            };
            Ok(C::LoadSgf {
                path: PathBuf::from(args[0]),
                before,
            })
        }
        "printsgf" => match args.len() {
            0 => Ok(C::PrintSgf(None)),
            1 => Ok(C::PrintSgf(Some(PathBuf::from(args[0])))),
            _ => syntax("usage: printsgf [<filename>]"),
        },
        "showboard" => none(C::ShowBoard),
        // The argument (the result) is informational; accept anything.
        "cgos-gameover" => Ok(C::CgosGameOver),
        "gogui-analyze_commands" => none(C::AnalyzeCommands),
        "countlib" => {
            arity(name, args, "<vertex>", 1)?;
            Ok(C::CountLib(vertex(args[0])?))
        }
        "lz-analyze" | "lz-genmove_analyze" => {
            let (color, interval_cs) = lz_args(name, args)?;
            Ok(if name == "lz-analyze" {
                C::LzAnalyze { color, interval_cs }
            } else {
                C::LzGenmoveAnalyze { color, interval_cs }
            })
        }
        "tengen-weights" => none(C::ShowWeights),
        "tengen-best_moves" => none(C::BestMoves),
        "tengen-pv" => none(C::PrincipalVariation),
        "tengen-ownership" => none(C::Ownership),
        "tengen-table_stats" => none(C::TableStats),
        "tengen-clear_tree" => none(C::ClearTree),
        "tengen-table_pv" => match args {
            [] => Ok(C::TablePv { gfx: false }),
            ["gfx"] => Ok(C::TablePv { gfx: true }),
            _ => Err(ParseError::Syntax("expected: tengen-table_pv [gfx]".into())),
        },
        "attack" | "defend" | "owl_attack" | "owl_defend" | "dragon_status"
        | "tengen-tsumego_gfx" => {
            arity(name, args, "<vertex>", 1)?;
            let v = vertex(args[0])?;
            Ok(match name {
                "attack" => C::Attack(v),
                "defend" => C::Defend(v),
                "owl_attack" => C::OwlAttack(v),
                "owl_defend" => C::OwlDefend(v),
                "dragon_status" => C::DragonStatus(v),
                _ => C::TsumegoGfx(v),
            })
        }
        "owl_does_attack" | "owl_does_defend" => {
            arity(name, args, "<move vertex> <group vertex>", 2)?;
            let (m, g) = (vertex(args[0])?, vertex(args[1])?);
            Ok(if name == "owl_does_attack" {
                C::OwlDoesAttack(m, g)
            } else {
                C::OwlDoesDefend(m, g)
            })
        }
        "tengen-owl_attack" | "tengen-owl_defend" => {
            let usage = format!("expected: {name} <vertex> [<vertex>...] [captured <vertex>...]");
            let n = args
                .iter()
                .position(|a| a.eq_ignore_ascii_case("captured"))
                .unwrap_or(args.len());
            if n == 0 || (n < args.len() && n + 1 == args.len()) {
                return syntax(usage);
            }
            let at = vertices(&args[..n])?;
            let captured = vertices(args.get(n + 1..).unwrap_or(&[]))?;
            Ok(if name == "tengen-owl_attack" {
                C::OwlAttackChains { at, captured }
            } else {
                C::OwlDefendChains { at, captured }
            })
        }
        "tsumego_solve" => {
            let usage =
                "expected: tsumego_solve <vertex> [<vertex>...] [attacker|defender] [level N]";
            let n = args
                .iter()
                .take_while(|a| {
                    !matches!(
                        a.to_ascii_lowercase().as_str(),
                        "attacker" | "defender" | "level"
                    )
                })
                .count();
            if n == 0 {
                return syntax(usage);
            }
            let mut at = Vec::new();
            for (i, a) in args[..n].iter().enumerate() {
                match vertex(a) {
                    Ok(v) => at.push(v),
                    Err(_) if i > 0 => return syntax(usage),
                    Err(e) => return Err(e),
                }
            }
            let rest = &args[n..];
            let mut first = None;
            let mut level = None;
            let mut i = 0;
            while i < rest.len() {
                match rest[i].to_ascii_lowercase().as_str() {
                    "attacker" if first.is_none() => first = Some(Role::Attacker),
                    "defender" if first.is_none() => first = Some(Role::Defender),
                    "level" if level.is_none() && i + 1 < rest.len() => {
                        let l = uint(rest[i + 1], "level")?;
                        if !(1..=5).contains(&l) {
                            return syntax("level must be 1 (exact) to 5 (fastest)");
                        }
                        level = Some(l as u8);
                        i += 1;
                    }
                    _ => return syntax(usage),
                }
                i += 1;
            }
            Ok(C::TsumegoSolve { at, first, level })
        }
        "tengen-tsumego_var" => {
            arity(name, args, "<vertex> attacker|defender", 2)?;
            let at = vertex(args[0])?;
            let first = match args[1].to_ascii_lowercase().as_str() {
                "attacker" => Role::Attacker,
                "defender" => Role::Defender,
                _ => return syntax("expected: tengen-tsumego_var <vertex> attacker|defender"),
            };
            Ok(C::TsumegoVar { at, first })
        }
        "tengen-tsumego_region" | "tengen-tsumego_safe" => {
            let v = vertices(args)?;
            Ok(if name == "tengen-tsumego_region" {
                C::TsumegoRegion(v)
            } else {
                C::TsumegoSafe(v)
            })
        }
        "tengen-tsumego_limit" => {
            let usage = "expected: tengen-tsumego_limit [nodes N] [time SECS] [level N] \
                 [repetition superko|simple-ko] [threats auto|B,W] (time 0 = none)";
            if !args.len().is_multiple_of(2) {
                return syntax(usage);
            }
            let (mut nodes, mut secs, mut level, mut repetition, mut threats) =
                (None, None, None, None, None);
            for pair in args.chunks(2) {
                match pair[0] {
                    "nodes" => {
                        let n: u64 = pair[1].parse().ok().filter(|&n| n > 0).ok_or_else(|| {
                            ParseError::Syntax("nodes must be a positive integer".into())
                        })?;
                        nodes = Some(n);
                    }
                    "time" => {
                        let t = float(pair[1], "time")?;
                        if !(t.is_finite() && t >= 0.0) {
                            return syntax("time must be a number of seconds, 0 for no limit");
                        }
                        secs = Some(t);
                    }
                    "level" => {
                        let l = uint(pair[1], "level")?;
                        if !(1..=5).contains(&l) {
                            return syntax("level must be 1 (exact) to 5 (fastest)");
                        }
                        level = Some(l as u8);
                    }
                    "repetition" => {
                        // The names `tengen solve --repetition` takes.
                        let r = <Repetition as clap::ValueEnum>::from_str(pair[1], false);
                        let Ok(r) = r else {
                            return syntax("repetition must be superko or simple-ko");
                        };
                        repetition = Some(r);
                    }
                    "threats" => {
                        let bad = || {
                            ParseError::Syntax(
                                "threats must be auto or B,W: Black's and White's external \
                                 ko threats, 0 to 5 each (e.g. 2,0)"
                                    .into(),
                            )
                        };
                        threats = Some(if pair[1] == "auto" {
                            None
                        } else {
                            let (b, w) = pair[1].split_once(',').ok_or_else(bad)?;
                            let n = |t: &str| t.parse::<u8>().ok().filter(|&n| n <= 5);
                            Some([n(b).ok_or_else(bad)?, n(w).ok_or_else(bad)?])
                        });
                    }
                    _ => return syntax(usage),
                }
            }
            Ok(C::TsumegoLimit {
                nodes,
                secs,
                level,
                repetition,
                threats,
            })
        }
        _ => Err(ParseError::Unknown),
    }
}

/// The meaning of GTP `time_settings main byo_yomi_time byo_yomi_stones`:
/// stones 0 with byo-yomi time 0 is absolute time, stones 0 with a
/// positive byo-yomi time means no limit, otherwise Canadian.
pub fn time_settings(main: u32, byo_time: u32, byo_stones: u32) -> TimeSystem {
    match (byo_time, byo_stones) {
        (0, 0) => TimeSystem::Absolute { main: main as f64 },
        (_, 0) => TimeSystem::Unlimited,
        (t, s) => TimeSystem::Canadian {
            main: main as f64,
            period: t as f64,
            stones: s,
        },
    }
}

#[cfg(test)]
mod tests;
