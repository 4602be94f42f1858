//! A board from a text diagram, for tests and data files: the rows drawn
//! top first, `X` Black, `O` White, `.` or `+` empty, spaces ignored. The
//! drawing sits in the lower-left corner of the board: its last row is
//! row 1 and its first column is column A, so a corner problem drawn as a
//! few rows needs no padding.

use thiserror::Error;

use super::Board;
use crate::rules::point::{Color, Coord, MAX_SIZE, MIN_SIZE};

/// Why a diagram is not a board.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum DiagramError {
    #[error("board size {0} is outside {MIN_SIZE}..={MAX_SIZE}")]
    Size(usize),
    #[error("the diagram has {rows} rows; a {size}x{size} board has at most {size}")]
    TooManyRows { rows: usize, size: usize },
    #[error("row {row} of the diagram has {cols} points; a {size}x{size} board has at most {size}")]
    RowTooLong {
        row: usize,
        cols: usize,
        size: usize,
    },
    #[error(
        "row {row} of the diagram has '{ch}' at {coord}; use X (Black), O (White), . or + (empty)"
    )]
    BadChar { row: usize, ch: char, coord: Coord },
    #[error("the chain at {0} has no liberty")]
    NoLiberty(Coord),
}

impl Board {
    /// The `size` board drawn by `rows` (see the module doc). Row numbers
    /// in errors count from 1 at the top of the drawing.
    pub fn from_diagram(size: usize, rows: &[&str]) -> Result<Board, DiagramError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(DiagramError::Size(size));
        }
        if rows.len() > size {
            return Err(DiagramError::TooManyRows {
                rows: rows.len(),
                size,
            });
        }
        let mut stones = Vec::new();
        for (r, row) in rows.iter().enumerate() {
            let y = (rows.len() - 1 - r) as u8;
            let points: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
            if points.len() > size {
                return Err(DiagramError::RowTooLong {
                    row: r + 1,
                    cols: points.len(),
                    size,
                });
            }
            for (x, &ch) in points.iter().enumerate() {
                let coord = Coord::new(x as u8, y);
                match ch {
                    'X' => stones.push((coord, Color::Black)),
                    'O' => stones.push((coord, Color::White)),
                    '.' | '+' => {}
                    _ => {
                        return Err(DiagramError::BadChar {
                            row: r + 1,
                            ch,
                            coord,
                        });
                    }
                }
            }
        }
        let mut b = Board::new(size);
        for (c, color) in stones {
            b.set_stone(c, Some(color));
        }
        if let Some(&p) = b
            .points()
            .iter()
            .find(|&&p| b.cell(p).color().is_some() && b.liberties(p) == 0)
        {
            return Err(DiagramError::NoLiberty(b.coord(p)));
        }
        Ok(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_drawn_top_first_in_the_lower_left_corner() {
        let b = Board::from_diagram(9, &["X . O", "+ X ."]).unwrap();
        assert_eq!(b.stone_at(Coord::new(0, 1)), Some(Color::Black));
        assert_eq!(b.stone_at(Coord::new(2, 1)), Some(Color::White));
        assert_eq!(b.stone_at(Coord::new(1, 0)), Some(Color::Black));
        assert_eq!(b.stone_at(Coord::new(0, 0)), None);
        b.check_consistency().unwrap();
        // Spaces are optional.
        let c = Board::from_diagram(9, &["X.O", "+X."]).unwrap();
        assert_eq!(b.hash(), c.hash());
    }

    #[test]
    fn bad_diagrams_say_what_is_wrong() {
        let e = Board::from_diagram(5, &["X x"]).unwrap_err();
        assert_eq!(
            e,
            DiagramError::BadChar {
                row: 1,
                ch: 'x',
                coord: Coord::new(1, 0)
            }
        );
        assert!(e.to_string().contains("'x' at B1"), "{e}");
        assert!(matches!(
            Board::from_diagram(3, &["....", "..."]),
            Err(DiagramError::RowTooLong {
                row: 1,
                cols: 4,
                size: 3
            })
        ));
        assert!(matches!(
            Board::from_diagram(2, &[".", ".", "."]),
            Err(DiagramError::TooManyRows { .. })
        ));
        assert_eq!(
            Board::from_diagram(1, &[]).unwrap_err(),
            DiagramError::Size(1)
        );
        // A White stone in the corner with Black on both sides is captured.
        assert_eq!(
            Board::from_diagram(9, &["X .", "O X"]).unwrap_err(),
            DiagramError::NoLiberty(Coord::new(0, 0))
        );
    }
}
