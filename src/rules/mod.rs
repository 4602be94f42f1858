//! The rules of Go: coordinates, Zobrist keys, the lean board, the
//! rules-aware game, handicap placement and area scoring.
//!
//! Nothing here knows about search or protocols.

pub mod board;
pub mod game;
pub mod handicap;
pub mod point;
pub mod zobrist;

pub use board::{
    Board, BoardError, Cell, ChainInsert, ChainSet, DiagramError, PATTERN3_OFFSETS, Point,
    symmetry, symmetry_perms,
};
pub use game::{Game, GameError, KoRule, PlayError, Rules, format_score};
pub use handicap::HandicapError;
pub use point::{Color, Coord, MAX_SIZE, MIN_SIZE, Move, ParseError};
