//! Problem files: GoTools text, SGF and book JSON, read into
//! [`FileProblem`]s and turned into closed-boundary [`Problem`]s.
//!
//! - [`file`](mod@file): the problem as a file gives it, its answer lines and the
//!   errors (the lowest layer: the readers build these).
//! - [`sgf`]: SGF and book-JSON problems.
//! - [`crate::tsumego::gotools`]: GoTools text.
//! - [`read`] (here) picks the reader by the file's name and text.
//!
//! Dependencies go one way: `file` <- `sgf`, `gotools` <- this file.
//!
//! [`Problem`]: super::Problem

pub mod file;
pub mod sgf;

use std::path::Path;

pub use file::{Expect, FILE_MAX_REGION, FileLine, FileProblem, ProblemError, Sides};
pub use sgf::{parse_book_json, parse_sgf};

/// Reads one problem file: `.sgf` as SGF, anything else as GoTools text.
pub fn read(path: &Path) -> Result<Vec<FileProblem>, ProblemError> {
    let text = std::fs::read(path).map_err(|source| ProblemError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let text = String::from_utf8_lossy(&text);
    let source = path.display().to_string();
    let is_sgf = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("sgf"))
        || text.trim_start().starts_with("(;");
    let is_json = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    if is_json {
        parse_book_json(&text, &source).map(|p| vec![p])
    } else if is_sgf {
        parse_sgf(&text, &source).map(|p| vec![p])
    } else {
        super::gotools::parse(&text, &source)
    }
}
