//! Tests of the GTP command parser.

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
        "tengen-tsumego_limit nodes 1000 time 2.5 level 3 repetition simple-ko threats 2,0",
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
        Ok(Command::OwlAttackChains {
            at: vec![c3, d4],
            captured: vec![]
        })
    );
    assert_eq!(
        parse_line("tengen-owl_defend C3 CAPTURED d4").command,
        Ok(Command::OwlDefendChains {
            at: vec![c3],
            captured: vec![d4]
        })
    );
    assert!(parse_line("tengen-owl_attack captured C3").command.is_err());
    assert!(parse_line("tengen-owl_attack C3 captured").command.is_err());
    assert!(parse_line("tengen-owl_defend").command.is_err());
    assert!(parse_line("tsumego_solve attacker").command.is_err());
}
