//! Colours, board coordinates and moves, independent of any board size.
//!
//! `Coord` is what people and protocols see (column/row, A1 in the lower
//! left corner as in GTP). The lean [`Board`](super::Board) works on padded
//! one-dimensional [`Point`](super::Point) indices instead; it converts between the two.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// Smallest supported board size.
pub const MIN_SIZE: usize = 2;
/// Largest supported board size (the GTP maximum: 25 letters without I).
pub const MAX_SIZE: usize = 25;

/// The two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    Black = 0,
    White = 1,
}

impl Color {
    /// Both colours, Black first.
    pub const BOTH: [Color; 2] = [Color::Black, Color::White];

    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// Lower-case English name, as GTP prints it ("black"/"white").
    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    /// One upper-case letter, "B" or "W" (SGF and score strings).
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error for a colour or vertex that does not parse.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseError {
    #[error("invalid color '{0}': expected b, w, black or white")]
    Color(String),
    #[error("invalid vertex '{0}': expected a letter A-Z without I and a number 1-25, or pass")]
    Vertex(String),
}

impl FromStr for Color {
    type Err = ParseError;

    /// Accepts `b`, `w`, `black`, `white` in any letter case (GTP 2.9).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "b" | "black" => Ok(Color::Black),
            "w" | "white" => Ok(Color::White),
            _ => Err(ParseError::Color(s.to_string())),
        }
    }
}

/// A board intersection: `x` is the column counted from the left, `y` the
/// row counted from the bottom, both from 0. `Coord { x: 0, y: 0 }` is A1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Coord {
    pub x: u8,
    pub y: u8,
}

impl Coord {
    pub const fn new(x: u8, y: u8) -> Coord {
        Coord { x, y }
    }

    /// True if the coordinate lies on a board of the given size.
    pub fn on_board(self, size: usize) -> bool {
        (self.x as usize) < size && (self.y as usize) < size
    }

    /// The GTP column letter (A..Z without I).
    pub fn column_letter(x: u8) -> char {
        let c = b'A' + x;
        (if c >= b'I' { c + 1 } else { c }) as char
    }
}

impl fmt::Display for Coord {
    /// Upper-case GTP vertex, for example `D4` or `T19`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", Coord::column_letter(self.x), self.y as u32 + 1)
    }
}

/// A move at the game level: a stone on a coordinate or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Pass,
    Play(Coord),
}

impl fmt::Display for Move {
    /// `PASS` or an upper-case vertex: gogui-regress compares case-sensitively.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Pass => f.write_str("PASS"),
            Move::Play(c) => c.fmt(f),
        }
    }
}

impl FromStr for Move {
    type Err = ParseError;

    /// Parses a GTP vertex (`A1`..`Z25`, no `I`, any case) or `pass`.
    /// Whether the vertex fits the current board is checked by the caller.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || ParseError::Vertex(s.to_string());
        if s.eq_ignore_ascii_case("pass") {
            return Ok(Move::Pass);
        }
        let bytes = s.as_bytes();
        if bytes.len() < 2 || bytes.len() > 3 {
            return Err(err());
        }
        let letter = bytes[0].to_ascii_uppercase();
        if !letter.is_ascii_uppercase() || letter == b'I' {
            return Err(err());
        }
        let x = if letter > b'I' {
            letter - b'A' - 1
        } else {
            letter - b'A'
        };
        let digits = &s[1..];
        if !digits.bytes().all(|b| b.is_ascii_digit()) || digits.starts_with('0') {
            return Err(err());
        }
        let row: usize = digits.parse().map_err(|_| err())?;
        if !(1..=MAX_SIZE).contains(&row) {
            return Err(err());
        }
        Ok(Move::Play(Coord::new(x, (row - 1) as u8)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertex_round_trip() {
        for x in 0..25u8 {
            for y in 0..25u8 {
                let c = Coord::new(x, y);
                let text = c.to_string();
                assert!(!text.contains('I'));
                assert_eq!(text.parse::<Move>().unwrap(), Move::Play(c));
                assert_eq!(text.to_lowercase().parse::<Move>().unwrap(), Move::Play(c));
            }
        }
    }

    #[test]
    fn vertex_rejects_garbage() {
        for bad in [
            "", "I5", "A0", "A26", "A", "5A", "AA1", "A01", "A-1", "Ä1", "pas",
        ] {
            assert!(bad.parse::<Move>().is_err(), "{bad} should not parse");
        }
        assert_eq!("PASS".parse::<Move>().unwrap(), Move::Pass);
        assert_eq!("Pass".parse::<Move>().unwrap(), Move::Pass);
        assert_eq!(Move::Pass.to_string(), "PASS");
        assert_eq!("j1".parse::<Move>().unwrap(), Move::Play(Coord::new(8, 0)));
        assert_eq!(
            "Z25".parse::<Move>().unwrap(),
            Move::Play(Coord::new(24, 24))
        );
    }

    #[test]
    fn colors_parse() {
        assert_eq!("B".parse::<Color>().unwrap(), Color::Black);
        assert_eq!("White".parse::<Color>().unwrap(), Color::White);
        assert!("x".parse::<Color>().is_err());
        assert!("blackk".parse::<Color>().is_err());
        assert_eq!(Color::Black.opponent(), Color::White);
    }
}
