//! tengen: a Go engine. See the README for the module map.
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod rules;
