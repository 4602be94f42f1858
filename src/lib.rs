//! tengen: a Go engine. See the README for the module map.
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod bench;
pub mod book;
pub mod chart;
pub mod crosscheck;
pub mod engine;
pub mod gtp;
pub mod gtpclient;
pub mod learned;
pub mod matchplay;
pub mod playout;
pub mod pool;
pub mod rules;
pub mod search;
pub mod sgf;
pub mod table;
pub mod tactics;
pub mod tsumego;
pub mod tune;
pub mod weights;
