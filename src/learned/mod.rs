//! Learned move knowledge: features of a candidate move
//! ([`features`]), their strengths read from a pattern file ([`model`]),
//! and the minorization-maximization job that learns them from game
//! records ([`learn`], `tengen patterns learn`). The search uses a move's
//! strength, relative to the best candidate's, as a prior.

pub mod features;
pub mod learn;
pub mod model;
pub mod play3;

pub use model::{Model, ModelError};

use std::sync::OnceLock;

/// The model shipped in `weights/patterns.txt`, built into the binary.
pub fn builtin() -> &'static Model {
    static M: OnceLock<Model> = OnceLock::new();
    M.get_or_init(|| {
        Model::parse(
            include_str!("../../weights/patterns.txt"),
            std::path::Path::new("weights/patterns.txt"),
        )
        .expect("weights/patterns.txt is valid (a unit test checks it)")
    })
}

/// The built-in model, shared.
pub fn builtin_arc() -> std::sync::Arc<Model> {
    static M: OnceLock<std::sync::Arc<Model>> = OnceLock::new();
    M.get_or_init(|| std::sync::Arc::new(builtin().clone()))
        .clone()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_shipped_model_is_valid_and_knows_the_tactics() {
        use super::features::{FeatureGroup, key};
        let m = super::builtin();
        assert!(m.len() > 1000, "{} gammas", m.len());
        assert!(m.header_value("source").is_some());
        // Captures and escapes are good, self-ataris and ladder escapes bad.
        let g = |grp, v| m.get(key(grp, v)).unwrap();
        assert!(g(FeatureGroup::Capture, 1) > 1.0);
        assert!(g(FeatureGroup::SelfAtari, 2) < 1.0);
        assert!(g(FeatureGroup::Escape, 1) < g(FeatureGroup::Escape, 3));
    }
}
