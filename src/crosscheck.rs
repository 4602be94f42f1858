//! Rules cross-check against GNU Go: the same random legal moves go to both
//! engines; after every move the legal points of both colours (`all_legal`)
//! and the stones of both colours (`list_stones`) are compared.
//!
//! GNU Go uses simple ko. Our default is positional superko, so points that
//! only superko forbids are expected differences: they are counted and
//! logged separately, and compared against our simple-ko legality instead.

use std::collections::BTreeSet;
use std::path::Path;

use rand::{RngExt, SeedableRng, rngs::SmallRng};

use crate::gtpclient::{ClientError, GtpClient};
use crate::rules::{Color, Coord, Game, Move, Rules};

/// Totals of a cross-check run.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub games: usize,
    pub moves: usize,
    pub positions: usize,
    /// Positions where the legal points (simple-ko view) differ.
    pub legality_disagreements: usize,
    /// Positions where the stones differ.
    pub stone_disagreements: usize,
    /// Moves GNU Go refused although we found them legal.
    pub refused_moves: usize,
    /// (position, colour) pairs where superko forbids a point simple ko allows.
    pub superko_positions: usize,
    /// Descriptions of every disagreement and superko case.
    pub log: Vec<String>,
}

impl Report {
    pub fn disagreements(&self) -> usize {
        self.legality_disagreements + self.stone_disagreements + self.refused_moves
    }
}

fn parse_vertices(s: &str) -> BTreeSet<Coord> {
    s.split_whitespace()
        .filter_map(|v| match v.parse::<Move>() {
            Ok(Move::Play(c)) => Some(c),
            _ => None,
        })
        .collect()
}

fn names(set: &BTreeSet<Coord>) -> String {
    set.iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Plays `games` random games of size `size` against GNU Go at `gnugo`.
/// `progress` is called after every game.
pub fn run(
    gnugo: &Path,
    size: usize,
    games: usize,
    seed: u64,
    mut progress: impl FnMut(&Report),
) -> Result<Report, ClientError> {
    let mut gg = GtpClient::spawn(gnugo, &["--mode", "gtp", "--chinese-rules"])?;
    gg.expect(&format!("boardsize {size}"))?;
    gg.expect("komi 0")?;
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut report = Report::default();
    for game_no in 1..=games {
        gg.expect("clear_board")?;
        let mut game = Game::new(size, 0.0, Rules::default()).expect("valid size");
        let mut color = Color::Black;
        let cap = 4 * size * size;
        while !game.is_over() && game.move_count() < cap {
            report.positions += 1;
            compare(&mut gg, &game, game_no, &mut report)?;
            let choices = game.non_eye_legal_points(color);
            let mv = if choices.is_empty() {
                Move::Pass
            } else {
                Move::Play(choices[rng.random_range(0..choices.len())])
            };
            game.play(color, mv).expect("chosen among legal moves");
            if let Err(msg) = gg.send(&format!("play {color} {mv}"))? {
                report.refused_moves += 1;
                report.log.push(format!(
                    "game {game_no} move {}: GNU Go refused {color} {mv}: {msg}",
                    game.move_count()
                ));
                break;
            }
            report.moves += 1;
            color = color.opponent();
        }
        report.games += 1;
        progress(&report);
    }
    Ok(report)
}

fn compare(
    gg: &mut GtpClient,
    game: &Game,
    game_no: usize,
    report: &mut Report,
) -> Result<(), ClientError> {
    let board = game.board();
    let at = format!("game {game_no} after move {}", game.move_count());
    for color in Color::BOTH {
        let theirs = parse_vertices(&gg.expect(&format!("all_legal {color}"))?);
        let simple: BTreeSet<Coord> = board
            .points()
            .iter()
            .filter(|&&p| board.is_legal(p, color))
            .map(|&p| board.coord(p))
            .collect();
        let full: BTreeSet<Coord> = game.legal_points(color).into_iter().collect();
        if theirs != simple {
            report.legality_disagreements += 1;
            let only_theirs: BTreeSet<_> = theirs.difference(&simple).copied().collect();
            let only_ours: BTreeSet<_> = simple.difference(&theirs).copied().collect();
            report.log.push(format!(
                "{at}: {color} legal only for GNU Go: [{}], only for tengen: [{}]\n{}",
                names(&only_theirs),
                names(&only_ours),
                board.render()
            ));
        }
        let superko: BTreeSet<_> = simple.difference(&full).copied().collect();
        if !superko.is_empty() {
            report.superko_positions += 1;
            let why: Vec<String> = superko
                .iter()
                .map(|&c| match game.repeated_position(color, c) {
                    Some(0) => format!("{c} would recreate the starting position"),
                    Some(k) => format!("{c} would recreate the position after move {k}"),
                    None => format!("{c} repeats an earlier position"),
                })
                .collect();
            report.log.push(format!(
                "{at}: positional superko forbids {color} {} (GNU Go, with simple ko, allows it): {}",
                names(&superko),
                why.join("; ")
            ));
        }
        let stones = parse_vertices(&gg.expect(&format!("list_stones {color}"))?);
        let ours: BTreeSet<Coord> = board.stones(color).collect();
        if stones != ours {
            report.stone_disagreements += 1;
            report.log.push(format!(
                "{at}: {color} stones differ: GNU Go [{}], tengen [{}]",
                names(&stones),
                names(&ours)
            ));
        }
    }
    Ok(())
}
