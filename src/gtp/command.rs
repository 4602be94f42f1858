//! GTP command lines → typed [`Command`]s, before anything is executed.

use std::path::PathBuf;

use crate::engine::{StoneStatus, TimeSystem};
use crate::rules::{Color, Move};
use crate::tsumego::Role;

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
    /// `tengen-owl_attack <vertex>...`: every chain named is crucial.
    OwlAttackChains(Vec<Move>),
    /// `tengen-owl_defend <vertex>...`.
    OwlDefendChains(Vec<Move>),
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
    /// `tengen-tsumego_limit [nodes N] [time SECS] [level N]`.
    TsumegoLimit {
        nodes: Option<u64>,
        secs: Option<f64>,
        level: Option<u8>,
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

fn syntax<T>(msg: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError::Syntax(msg.into()))
}

fn arity(name: &str, args: &[&str], usage: &str, n: usize) -> Result<(), ParseError> {
    if args.len() == n {
        Ok(())
    } else {
        syntax(format!("usage: {name} {usage}").trim_end().to_string())
    }
}

fn color(s: &str) -> Result<Color, ParseError> {
    s.parse()
        .or_else(|_| syntax(format!("'{s}' is not a color (black or white)")))
}

fn vertex(s: &str) -> Result<Move, ParseError> {
    s.parse()
        .or_else(|_| syntax(format!("'{s}' is not a vertex")))
}

fn vertices(args: &[&str]) -> Result<Vec<Move>, ParseError> {
    args.iter().map(|a| vertex(a)).collect()
}

fn uint(s: &str, what: &str) -> Result<u32, ParseError> {
    s.parse::<u32>()
        .or_else(|_| syntax(format!("{what} '{s}' is not a non-negative integer")))
}

fn float(s: &str, what: &str) -> Result<f64, ParseError> {
    match s.parse::<f64>() {
        Ok(v)
            if v.is_finite()
                && s.bytes()
                    .all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b)) =>
        {
            Ok(v)
        }
        _ => syntax(format!("{what} '{s}' is not a number")),
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
            if args.is_empty() {
                return syntax(format!("expected: {name} <vertex> [<vertex>...]"));
            }
            let v = vertices(args)?;
            Ok(if name == "tengen-owl_attack" {
                C::OwlAttackChains(v)
            } else {
                C::OwlDefendChains(v)
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
            let usage =
                "expected: tengen-tsumego_limit [nodes N] [time SECS] [level N] (time 0 = none)";
            if !args.len().is_multiple_of(2) {
                return syntax(usage);
            }
            let (mut nodes, mut secs, mut level) = (None, None, None);
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
                    _ => return syntax(usage),
                }
            }
            Ok(C::TsumegoLimit { nodes, secs, level })
        }
        _ => Err(ParseError::Unknown),
    }
}

/// The arguments of `lz-analyze`/`lz-genmove_analyze`, as Leela Zero
/// takes them: an optional colour, then an optional interval in
/// centiseconds, bare or after the word `interval`. Other `key value`
/// pairs that Leela Zero and KataGo know (`minmoves`, `maxmoves`,
/// `avoid`, `allow`, `ownership`...) are refused.
fn lz_args(name: &str, args: &[&str]) -> Result<(Option<Color>, u32), ParseError> {
    let usage = || syntax::<(Option<Color>, u32)>(format!("usage: {name} [color] [interval]"));
    let mut rest = args;
    let mut color = None;
    if let Some(first) = rest.first()
        && let Ok(c) = first.parse::<Color>()
    {
        color = Some(c);
        rest = &rest[1..];
    }
    let interval = match rest {
        [] => 100,
        [n] => match n.parse::<u32>() {
            Ok(n) => n,
            Err(_) => return usage(),
        },
        ["interval", n] => match n.parse::<u32>() {
            Ok(n) => n,
            Err(_) => return usage(),
        },
        _ => return usage(),
    };
    Ok((color, interval))
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
mod tests {
    use super::*;

    #[test]
    fn gtp_time_settings() {
        assert_eq!(
            time_settings(300, 0, 0),
            TimeSystem::Absolute { main: 300.0 }
        );
        assert_eq!(time_settings(0, 30, 0), TimeSystem::Unlimited);
        assert_eq!(
            time_settings(600, 30, 5),
            TimeSystem::Canadian {
                main: 600.0,
                period: 30.0,
                stones: 5
            }
        );
    }

    #[test]
    fn ids_and_names() {
        let r = parse_line("12 play b D4");
        assert_eq!(r.id.as_deref(), Some("12"));
        assert_eq!(
            r.command,
            Ok(Command::Play(Color::Black, "D4".parse().unwrap()))
        );
        let r = parse_line("name");
        assert_eq!(r.id, None);
        assert_eq!(r.command, Ok(Command::Name));
        assert_eq!(
            parse_line("7").command.unwrap_err(),
            ParseError::Syntax("a command name is missing after the id".into())
        );
        assert_eq!(parse_line("foo").command, Err(ParseError::Unknown));
        assert_eq!(parse_line("PLAY b a1").command, Err(ParseError::Unknown));
        // huge ids are echoed, not overflowed
        let r = parse_line("123456789012345678901234567890 name");
        assert_eq!(r.id.as_deref(), Some("123456789012345678901234567890"));
        // "-5" and "1.5" are not ids
        assert_eq!(parse_line("-5 name").command, Err(ParseError::Unknown));
    }

    #[test]
    fn argument_errors() {
        let syntax = |l: &str| matches!(parse_line(l).command, Err(ParseError::Syntax(_)));
        for l in [
            "play",
            "play b",
            "play x a1",
            "play b a0",
            "play b a1 extra",
            "boardsize",
            "boardsize x",
            "boardsize 1.5",
            "komi",
            "komi x",
            "komi nan",
            "komi inf",
            "genmove",
            "genmove x",
            "fixed_handicap -2",
            "fixed_handicap x",
            "time_settings 1 2",
            "time_settings -1 0 0",
            "time_left b x 0",
            "time_left b -1 0",
            "loadsgf",
            "loadsgf f 0",
            "loadsgf f x",
            "final_status_list foo",
            "kgs-time_settings",
            "lz-analyze b x",
            "lz-analyze 1 2 3",
            "lz-genmove_analyze interval",
            "tengen-pv 3",
            "kgs-time_settings byoyomi 1 2",
            "set_free_handicap",
            "set_free_handicap a1 zz",
            "name extra",
        ] {
            assert!(
                syntax(l),
                "{l} should be a syntax error, got {:?}",
                parse_line(l).command
            );
        }
        for l in [
            "boardsize 1",
            "boardsize 26",
            "boardsize 0",
            "boardsize -3",
            "boardsize 99999999999999999999999",
        ] {
            assert_eq!(
                parse_line(l).command,
                Err(ParseError::UnacceptableSize),
                "{l}"
            );
        }
    }

    #[test]
    fn every_listed_command_parses() {
        let examples = [
            "protocol_version",
            "name",
            "version",
            "known_command play",
            "list_commands",
            "quit",
            "boardsize 9",
            "clear_board",
            "komi 6.5",
            "play w pass",
            "genmove b",
            "undo",
            "fixed_handicap 2",
            "place_free_handicap 3",
            "set_free_handicap a1 b2",
            "time_settings 300 30 5",
            "time_left w 100 0",
            "final_score",
            "final_status_list dead",
            "loadsgf x.sgf 3",
            "reg_genmove w",
            "showboard",
            "kgs-genmove_cleanup b",
            "kgs-time_settings canadian 60 30 5",
            "printsgf",
            "cgos-gameover B+R",
            "gogui-analyze_commands",
            "is_legal b c3",
            "all_legal w",
            "list_stones b",
            "countlib c3",
            "captures b",
            "lz-analyze b interval 50",
            "lz-genmove_analyze w 10",
            "tengen-weights",
            "tengen-best_moves",
            "tengen-pv",
            "tengen-ownership",
            "tengen-table_stats",
            "tengen-table_pv gfx",
            "tengen-clear_tree",
            "attack C3",
            "defend C3",
            "owl_attack C3",
            "owl_defend C3",
            "owl_does_attack B1 C3",
            "owl_does_defend B1 C3",
            "tengen-owl_attack C3 D4",
            "tengen-owl_defend C3",
            "dragon_status C3",
            "tsumego_solve C3 D4 attacker level 2",
            "tsumego_genmove b",
            "tengen-tsumego_var C3 defender",
            "tengen-tsumego_gfx C3",
            "tengen-tsumego_region A1 B1",
            "tengen-tsumego_safe",
            "tengen-tsumego_limit nodes 1000 time 2.5 level 3",
        ];
        assert_eq!(examples.len(), COMMANDS.len());
        for (ex, name) in examples.iter().zip(COMMANDS) {
            let r = parse_line(ex);
            assert_eq!(&r.name, name);
            assert!(r.command.is_ok(), "{ex}: {:?}", r.command);
        }
    }

    #[test]
    fn several_crucial_stones_parse() {
        use crate::rules::Coord;
        let c3 = Move::Play(Coord::new(2, 2));
        let d4 = Move::Play(Coord::new(3, 3));
        assert_eq!(
            parse_line("tsumego_solve C3 d4 defender level 3").command,
            Ok(Command::TsumegoSolve {
                at: vec![c3, d4],
                first: Some(Role::Defender),
                level: Some(3),
            })
        );
        assert_eq!(
            parse_line("tengen-owl_attack C3 D4").command,
            Ok(Command::OwlAttackChains(vec![c3, d4]))
        );
        assert!(parse_line("tengen-owl_defend").command.is_err());
        assert!(parse_line("tsumego_solve attacker").command.is_err());
    }
}
