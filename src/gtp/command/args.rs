//! Argument parsers of the GTP commands: colours, vertices, numbers,
//! arities and the Leela Zero style analysis arguments.

use super::ParseError;
use crate::rules::{Color, Move};

pub(super) fn syntax<T>(msg: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError::Syntax(msg.into()))
}

pub(super) fn arity(name: &str, args: &[&str], usage: &str, n: usize) -> Result<(), ParseError> {
    if args.len() == n {
        Ok(())
    } else {
        syntax(format!("usage: {name} {usage}").trim_end().to_string())
    }
}

pub(super) fn color(s: &str) -> Result<Color, ParseError> {
    s.parse()
        .or_else(|_| syntax(format!("'{s}' is not a color (black or white)")))
}

pub(super) fn vertex(s: &str) -> Result<Move, ParseError> {
    s.parse()
        .or_else(|_| syntax(format!("'{s}' is not a vertex")))
}

pub(super) fn vertices(args: &[&str]) -> Result<Vec<Move>, ParseError> {
    args.iter().map(|a| vertex(a)).collect()
}

pub(super) fn uint(s: &str, what: &str) -> Result<u32, ParseError> {
    s.parse::<u32>()
        .or_else(|_| syntax(format!("{what} '{s}' is not a non-negative integer")))
}

pub(super) fn float(s: &str, what: &str) -> Result<f64, ParseError> {
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

/// The arguments of `lz-analyze`/`lz-genmove_analyze`, as Leela Zero
/// takes them: an optional colour, then an optional interval in
/// centiseconds, bare or after the word `interval`. Other `key value`
/// pairs that Leela Zero and KataGo know (`minmoves`, `maxmoves`,
/// `avoid`, `allow`, `ownership`...) are refused.
pub(super) fn lz_args(name: &str, args: &[&str]) -> Result<(Option<Color>, u32), ParseError> {
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
