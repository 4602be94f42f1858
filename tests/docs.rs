//! The documentation names the same commands as the code.

use tengen::gtp::COMMANDS;

#[test]
fn gtp_doc_lists_every_command_in_order() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/gtp.md")).unwrap();
    let documented: Vec<&str> = doc
        .lines()
        .filter_map(|l| l.strip_prefix("### "))
        .map(str::trim)
        .collect();
    assert_eq!(
        documented, COMMANDS,
        "docs/gtp.md headings must match list_commands"
    );
}

#[test]
fn readme_gives_the_run_and_test_commands() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let first_screen: String = readme.lines().take(40).collect::<Vec<_>>().join("\n");
    assert!(
        first_screen.contains("cargo run --release"),
        "run command on the first screen"
    );
    assert!(
        first_screen.contains("cargo test"),
        "test command on the first screen"
    );
    let ci = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/.ci/run")).unwrap();
    assert!(
        ci.contains("cargo test"),
        ".ci/run runs the README's test command"
    );
}

#[test]
fn help_names_every_subcommand() {
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_tengen"))
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "tengen {args:?} failed");
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let help = run(&["--help"]);
    // The names in the "Commands:" section, not words anywhere in the text.
    let listed: Vec<String> = help
        .lines()
        .skip_while(|l| l.trim() != "Commands:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect();
    let expected = [
        "gtp",
        "bench",
        "crosscheck",
        "weights",
        "match",
        "results",
        "table",
        "book",
        "solve",
        "tsumego",
        "tune",
        "patterns",
        "help",
    ];
    assert_eq!(listed, expected, "--help's Commands section:\n{help}");
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    for sub in &expected[..expected.len() - 1] {
        let own = run(&[sub, "--help"]);
        assert!(
            own.contains("Usage: tengen") && own.contains(sub),
            "tengen {sub} --help:\n{own}"
        );
        assert!(
            readme.contains(&format!(" {sub} ")) || readme.contains(&format!(" {sub}\n")),
            "README.md never shows `tengen ... {sub}`"
        );
    }
}

#[test]
fn tuning_doc_covers_every_tune_option() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/tuning.md"))
        .expect("docs/tuning.md");
    let help = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_tengen"))
            .args(args)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        text.split_whitespace()
            .map(|w| w.trim_end_matches([',', '.', ')', ';', ':']).to_string())
            .filter(|o| o.starts_with("--") && o.len() > 2 && !o.contains(['=', '[', '<', '\'']))
            .collect::<std::collections::BTreeSet<String>>()
    };
    // The global options are documented in the README; the tune options here.
    let global = help(&["--help"]);
    let tune = help(&["tune", "--help"]);
    for opt in tune.difference(&global) {
        assert!(
            doc.contains(opt.as_str()),
            "docs/tuning.md does not mention {opt}"
        );
    }
}

#[test]
fn patterns_doc_covers_every_learn_option() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/patterns.md"))
        .expect("docs/patterns.md");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["patterns", "learn", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout).to_string();
    let global = String::from_utf8_lossy(
        &std::process::Command::new(env!("CARGO_BIN_EXE_tengen"))
            .arg("--help")
            .output()
            .unwrap()
            .stdout,
    )
    .to_string();
    let opts = |t: &str| {
        t.split_whitespace()
            .map(|w| w.trim_end_matches([',', '.', ')', ';', ':']).to_string())
            .filter(|o| o.starts_with("--") && o.len() > 2 && !o.contains(['=', '[', '<', '\'']))
            .collect::<std::collections::BTreeSet<String>>()
    };
    let own = opts(&help);
    assert!(own.contains("--positions"), "{help}");
    for opt in own.difference(&opts(&global)) {
        assert!(
            doc.contains(opt.as_str()),
            "docs/patterns.md does not mention {opt}"
        );
    }
}

#[test]
fn subcommand_options_parse_without_clashes() {
    // Global options given after a subcommand must not clash with the
    // subcommand's own (clap panics at run time if they do).
    for args in [
        &[
            "bench",
            "--threads",
            "2",
            "--playouts",
            "200",
            "--sizes",
            "9",
        ][..],
        &["bench", "--random", "--playouts", "1000", "--sizes", "9"][..],
        &["weights", "--describe"][..],
        &["patterns", "info"][..],
        &["patterns", "learn", "--help"][..],
        &["match", "--help"][..],
        &["tune", "--help"][..],
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_tengen"))
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {out:?}");
    }
}
