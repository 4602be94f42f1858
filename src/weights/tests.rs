//! Tests of the weights: table, TOML load and save, phases.

use super::*;

fn parse(text: &str) -> Result<Weights, WeightsError> {
    Weights::parse(text, Path::new("w.toml"))
}

#[test]
fn defaults_round_trip_and_are_in_range() {
    let w = Weights::default();
    assert_eq!(parse(&w.to_toml()).unwrap(), w);
    for (s, v) in SPECS.iter().zip(w.slots()) {
        for x in v {
            assert!(
                s.min <= *x && *x <= s.max,
                "{} default out of range",
                s.name
            );
            assert!(!s.integer || x.fract() == 0.0, "{}", s.name);
        }
        assert!(s.staged || v[0] == v[1] && v[1] == v[2]);
    }
}

#[test]
fn the_shipped_file_is_the_defaults() {
    let text = include_str!("../../weights/default.toml");
    assert_eq!(
        text,
        Weights::default().to_toml(),
        "weights/default.toml is stale: regenerate it with `tengen weights --defaults > weights/default.toml`"
    );
}

#[test]
fn errors_name_the_key_and_file() {
    let good = Weights::default().to_toml();
    let err = |text: &str| parse(text).unwrap_err().to_string();
    let e = err(&format!("{good}uct_cc = 1\n"));
    assert!(
        e.contains("w.toml") && e.contains("'uct_cc'") && e.contains("uct_c"),
        "{e}"
    );
    let e = err(&good.replace("fpu = 1.1", "fpu = 9.0"));
    assert!(e.contains("'fpu'") && e.contains("out of range"), "{e}");
    let e = err(&good.replace("expand_visits = 2", "expand_visits = 2.5"));
    assert!(e.contains("not an integer"), "{e}");
    let e = err(&good.replace("fpu = 1.1", "fpu = \"high\""));
    assert!(e.contains("expected a number"), "{e}");
    let e = err("fpu = = 1");
    assert!(e.contains("not valid TOML"), "{e}");
    let e = err(&good.replace("fpu = 1.1", "fpu = { opening = 1.0 }"));
    assert!(e.contains("not staged"), "{e}");
}

#[test]
fn a_missing_key_takes_its_default_and_is_named() {
    let w = Weights {
        uct_c: [0.7; 3],
        ..Weights::default()
    };
    let text = w.to_toml().replace("fpu = 1.1\n", "");
    let l = Weights::parse_text(&text, Path::new("w.toml")).unwrap();
    assert_eq!(
        l.weights, w,
        "the other values are read, fpu is the default"
    );
    assert_eq!(l.missing, vec!["fpu"]);
    let warn = l.warning(Path::new("w.toml")).unwrap();
    assert!(
        warn.contains("'w.toml'") && warn.contains("fpu = 1.1") && warn.contains("--upgrade"),
        "{warn}"
    );
    let full = Weights::parse_text(&w.to_toml(), Path::new("w.toml")).unwrap();
    assert!(full.missing.is_empty() && full.warning(Path::new("w.toml")).is_none());
}

/// A real file from before the latest added weights (`ts_dyn_deep` and
/// `ts_dyn_deep_after`, commit 19f38ab; `id_full_room` and
/// `id_full_keep`, later; `book_move_ratio`, later still;
/// `ts_region_vertices` and `ts_region_positions`, last):
/// weights/default.toml as it was.
#[test]
fn a_file_from_before_the_latest_weight_loads() {
    let text = include_str!("../../tests/data/weights-before-deep.toml");
    let l = Weights::parse_text(text, Path::new("old.toml")).unwrap();
    assert_eq!(
        l.missing,
        vec![
            "book_move_ratio",
            "id_full_room",
            "id_full_keep",
            "ts_dyn_deep",
            "ts_dyn_deep_after",
            "ts_region_vertices",
            "ts_region_positions"
        ]
    );
    // That file set id_mode = 0, the default then.
    let then = Weights {
        id_mode: [0.0; 3],
        ..Weights::default()
    };
    assert_eq!(l.weights, then);
}

#[test]
fn staged_weights_accept_one_number_and_interpolate() {
    let good = Weights::default().to_toml();
    let line = good
        .lines()
        .find(|l| l.starts_with("prior_line1 ="))
        .unwrap();
    let w = parse(&good.replace(line, "prior_line1 = 12")).unwrap();
    assert_eq!(w.prior_line1, [12.0; 3]);
    let d = Weights::default();
    assert_eq!(d.resolve(phase(0.0)).prior_line1, d.prior_line1[0]);
    assert_eq!(d.resolve(phase(0.9)).prior_line1, d.prior_line1[2]);
    let mid = d.resolve(phase(PHASE_MIDDLE_FILL / 2.0)).prior_line1;
    assert!((mid - (d.prior_line1[0] + d.prior_line1[1]) / 2.0).abs() < 1e-9);
    let e = parse(&good.replace(line, "prior_line1 = { opening = 1, middle = 2 }"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("'endgame' is missing"), "{e}");
}
