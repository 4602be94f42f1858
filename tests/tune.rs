//! `tengen tune` end to end on a tiny generated problem set: a short run
//! writes loadable weights with provenance, a report and a checkpoint; a
//! run stopped (by exit after fewer generations, or by kill -9) and
//! resumed ends with the same weights as an uninterrupted one; bad options
//! get errors that say what to do.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_tengen")
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tengen-tune-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run(args: &[&str]) -> Output {
    Command::new(bin())
        .args(args)
        .output()
        .expect("tengen runs")
}

/// A small labelled problem set (a few seconds to make).
fn problems(d: &Path) -> PathBuf {
    let out = d.join("set");
    let o = run(&[
        "--threads",
        "2",
        "--quiet",
        "tsumego",
        "generate",
        "--count",
        "10",
        "--size-range",
        "8..11",
        "--seed",
        "4",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    out
}

/// The weights of a tuned file, without the provenance header.
fn body(path: &Path) -> String {
    let body = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .skip_while(|l| !l.starts_with("# tengen weights"))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        body.contains("uct_c = "),
        "no weights in {}",
        path.display()
    );
    body
}

/// The arguments of a small, fast tuning run.
fn tune_args(set: &Path, out: &Path, extra: &[&str]) -> Vec<String> {
    let mut args = vec![
        "--quiet",
        "--seed",
        "9",
        "tune",
        "--train",
        set.to_str().unwrap(),
        "--population",
        "4",
        "--workers",
        "2",
        "--max-nodes",
        "20000",
        "--test-max-nodes",
        "20000",
        // Six of the ten for training: the others are the test set.
        "--sample",
        "6",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    args.into_iter().map(String::from).collect()
}

/// Every one of `names` exists in the report folder `report`.
fn assert_files(report: &Path, names: &[&str]) {
    for f in names {
        assert!(
            report.join(f).exists(),
            "{f} missing in {}",
            report.display()
        );
    }
}

fn tune(set: &Path, out: &Path, extra: &[&str]) -> Output {
    Command::new(bin())
        .args(tune_args(set, out, extra))
        .output()
        .expect("tengen runs")
}

#[test]
fn a_tiny_run_writes_weights_report_and_checkpoint_and_resumes_exactly() {
    let d = dir("e2e");
    let set = problems(&d);
    for alg in ["de", "ga"] {
        // Uninterrupted: 3 generations.
        let full = d.join(format!("{alg}-full.toml"));
        let o = tune(
            &set,
            &full,
            &[
                "--algorithm",
                alg,
                "--generations",
                "3",
                "--test",
                set.to_str().unwrap(),
            ],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let text = std::fs::read_to_string(&full).unwrap();
        assert!(text.starts_with("# Tuned by `tengen tune`"), "{text}");
        assert!(
            text.contains("# training: ") && text.contains("git "),
            "{text}"
        );
        // The engine loads it.
        let o = run(&["--weights", full.to_str().unwrap(), "weights"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let report = d.join(format!("{alg}-full-report"));
        assert_files(
            &report,
            &[
                "curve.csv",
                "curve.svg",
                "curve.png",
                "summary.md",
                "test.csv",
                "profile.svg",
                "profile.png",
                "train.lst",
                "test.lst",
            ],
        );
        let csv = std::fs::read_to_string(report.join("curve.csv")).unwrap();
        assert_eq!(csv.lines().count(), 1 + 4, "{csv}");
        assert_eq!(alg == "de", report.join("f.svg").exists());
        assert_eq!(alg == "de", report.join("f.png").exists());
        assert!(d.join(format!("{alg}-full.checkpoint.json")).exists());

        // Stopped after 1 generation, then resumed to 3.
        let part = d.join(format!("{alg}-part.toml"));
        let o = tune(&set, &part, &["--algorithm", alg, "--generations", "1"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let o = tune(
            &set,
            &part,
            &["--algorithm", alg, "--generations", "3", "--resume"],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(body(&part), body(&full), "{alg}: resumed != uninterrupted");
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn kill_9_loses_at_most_the_evaluations_in_flight() {
    let d = dir("kill");
    let set = problems(&d);
    let full = d.join("full.toml");
    let o = tune(&set, &full, &["--generations", "40"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = d.join("killed.toml");
    let ck = d.join("killed.checkpoint.json");
    let mut args = tune_args(&set, &out, &["--generations", "40"]);
    let mut child = Command::new(bin()).args(&args).spawn().unwrap();
    // Kill it as soon as the first checkpoint exists (written after the
    // first evaluation, so most often in the middle of generation 0).
    let start = Instant::now();
    while !ck.exists() && start.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(ck.exists(), "no checkpoint within 60 s");
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&ck).unwrap()).unwrap();
    let done = state["done"].as_u64().unwrap();
    assert!(done < 41, "the run finished before the kill: {done}");
    // The checkpoint is whole (written by rename) and resumes.
    args.push("--resume".into());
    let o = Command::new(bin()).args(&args).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(body(&out), body(&full));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn bad_options_get_errors_that_say_what_to_do() {
    let d = dir("errors");
    let out = d.join("w.toml");
    let o = run(&["tune", "--out", out.to_str().unwrap()]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2));
    assert!(e.contains("--train PATH is required"), "{e}");
    let o = run(&["tune", "--group", "statik", "--train", "x"]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("unknown group 'statik'"), "{e}");
    // The solver's effort weights trade time for leaves: never tuned.
    let o = run(&["tune", "--group", "effort", "--train", "x"]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("unknown group 'effort'") && e.contains("set by hand"),
        "{e}"
    );
    let o = run(&["tune", "--group", "playout", "--train", "x"]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("--fitness match"), "{e}");
    let o = run(&["tune", "--train", d.join("none").to_str().unwrap()]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("none") && e.contains("cannot read"), "{e}");
    let o = run(&[
        "tune",
        "--resume",
        "--train",
        d.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("holds no problem") || e.contains("does not exist"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// `tune` with round-robin match fitness on the playout weights.
const ROUND_ROBIN: [&str; 7] = [
    "tune",
    "--fitness",
    "match",
    "--group",
    "playout",
    "--compare",
    "round-robin",
];

/// Match tuning by round robin, tiny (5×5, 8 playouts): the run finishes,
/// says how it compared, and gives the same weights on 1 and 2 workers.
#[test]
fn a_round_robin_match_run_is_reported_and_does_not_depend_on_workers() {
    let d = dir("rr");
    let mut bodies = Vec::new();
    for workers in ["1", "2"] {
        let out = d.join(format!("rr{workers}.toml"));
        let mut args = vec!["--quiet", "--seed", "3"];
        args.extend_from_slice(&ROUND_ROBIN);
        args.extend_from_slice(&[
            "--algorithm",
            "ga",
            "--population",
            "4",
            "--children",
            "2",
            "--generations",
            "1",
            "--match-size",
            "5",
            "--match-komi",
            "0.5",
            "--match-playouts",
            "8",
            "--match-move-limit",
            "40",
            "--pairs",
            "1",
            "--retest",
            "1",
            "--workers",
            workers,
            "--out",
            out.to_str().unwrap(),
        ]);
        let o = run(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(text.contains("round robin each generation"), "{text}");
        // Generation 0: 4 players, 6 pairings + 1 retest. Generation 1:
        // the 4 members and the children that are not copies (0 to 2).
        let ck: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(out.with_extension("checkpoint.json")).unwrap(),
        )
        .unwrap();
        let evals: Vec<u64> = ck["history"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["evaluations"].as_u64().unwrap())
            .collect();
        assert_eq!(evals[0], 7, "{evals:?}");
        assert!([6 + 1, 10 + 1, 15 + 1].contains(&evals[1]), "{evals:?}");
        bodies.push(body(&out));
    }
    assert_eq!(bodies[0], bodies[1]);
    let o = run(&[&ROUND_ROBIN[..], &["--opponent", "gnugo --mode gtp"]].concat());
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("--opponent") && e.contains("round robin"), "{e}");
    let o = run(&["tune", "--compare", "round-robin", "--train", "x"]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("is for --fitness match"), "{e}");
    let _ = std::fs::remove_dir_all(&d);
}

/// The hand-made problems of tests/data/handmade (GoTools syntax, three
/// levels, seven problems).
fn handmade() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/handmade")
}

/// The `<file> <id>` lines of one list in `--list` output.
fn list_lines(text: &str, which: usize) -> Vec<String> {
    text.split("# tengen problem list")
        .nth(which + 1)
        .unwrap_or_else(|| panic!("list {which} missing in {text}"))
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(String::from)
        .collect()
}

#[test]
fn samples_are_fixed_by_the_seed_and_lists_rebuild_the_sets() {
    let data = handmade();
    let data = data.to_str().unwrap();
    let list = |seed: &str| {
        let o = run(&[
            "--seed", seed, "tune", "--train", data, "--sample", "3", "--test", data, "--list",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap()
    };
    let a = list("1");
    assert_eq!(a, list("1"), "the same seed draws the same sets");
    let train = list_lines(&a, 0);
    let test = list_lines(&a, 1);
    // One problem from each of the three levels; the test set is the rest.
    assert_eq!(train.len(), 3, "{a}");
    for level in ["lv1.1 ", "lv1.2 ", "lv1.3 "] {
        assert_eq!(
            train.iter().filter(|l| l.starts_with(level)).count(),
            1,
            "{a}"
        );
    }
    assert_eq!(test.len(), 4, "{a}");
    assert!(test.iter().all(|l| !train.contains(l)), "{a}");
    assert!(
        (2..12).any(|s| list(&s.to_string()) != a),
        "some other seed draws other problems"
    );

    // A tiny run records the lists; they rebuild the same sets.
    let d = dir("lists");
    let out = d.join("w.toml");
    let o = run(&[
        "--quiet",
        "--seed",
        "1",
        "tune",
        "--train",
        data,
        "--sample",
        "3",
        "--test",
        data,
        "--population",
        "4",
        "--generations",
        "1",
        "--workers",
        "2",
        "--max-nodes",
        "20000",
        "--test-max-nodes",
        "20000",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report = d.join("w-report");
    assert_files(
        &report,
        &[
            "train.lst",
            "test.lst",
            "profile.svg",
            "profile.png",
            "curve.png",
            "f.png",
        ],
    );
    let summary = std::fs::read_to_string(report.join("summary.md")).unwrap();
    assert!(summary.contains("| level 1 |"), "{summary}");
    let train_lst = std::fs::read_to_string(report.join("train.lst")).unwrap();
    let test_lst = std::fs::read_to_string(report.join("test.lst")).unwrap();
    let o = run(&[
        "tune",
        "--train",
        report.join("train.lst").to_str().unwrap(),
        "--test",
        report.join("test.lst").to_str().unwrap(),
        "--problems",
        data,
        "--list",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let again = String::from_utf8(o.stdout).unwrap();
    assert_eq!(list_lines(&again, 0), train, "{train_lst}");
    assert_eq!(
        list_lines(&again, 1),
        list_lines(&test_lst, 0),
        "{test_lst}"
    );

    // A list that names a problem its file does not hold.
    let bad = d.join("bad.lst");
    std::fs::write(&bad, "lv1.1 S3\nlv1.1 NOPE\n").unwrap();
    let o = run(&[
        "tune",
        "--train",
        bad.to_str().unwrap(),
        "--problems",
        data,
        "--list",
    ]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("NOPE") && err.contains("lv1.1"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

/// `weights --gate`: the current weights against themselves tie on
/// leaves, so the gate fails (fewer leaves are required) at every level,
/// with exit status 1, the figures per level, and no promoted file; a test
/// set that shares a problem with the training list is refused.
#[test]
fn the_gate_reports_per_level_and_refuses_training_problems() {
    let d = dir("gate");
    let set = problems(&d);
    let cand = d.join("cand.toml");
    let o = run(&["weights", "--defaults"]);
    std::fs::write(&cand, &o.stdout).unwrap();
    let promoted = d.join("promoted.toml");
    let json = d.join("gate.json");
    let o = run(&[
        "--threads",
        "2",
        "--quiet",
        "weights",
        "--gate",
        cand.to_str().unwrap(),
        "--test",
        set.to_str().unwrap(),
        "--levels",
        "1,3",
        "--max-nodes",
        "100000",
        "--promote",
        promoted.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{text}");
    assert!(
        text.contains("against the built-in defaults on 10 test problems"),
        "{text}"
    );
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| l.trim_start().starts_with(['1', '3']))
        .collect();
    assert_eq!(rows.len(), 2, "{text}");
    for r in rows {
        assert!(r.contains("+0.0%") && r.contains("NO"), "{r}");
    }
    assert!(text.contains("gate: FAILED: level 1:"), "{text}");
    assert!(!promoted.exists(), "a failed gate promotes nothing");
    let report = std::fs::read_to_string(&json).unwrap();
    assert!(report.contains("\"level\": 3"), "{report}");

    // A training list naming a problem of the test set.
    let first = std::fs::read_dir(&set)
        .unwrap()
        .map(|e| e.unwrap().path())
        .min()
        .unwrap();
    let name = std::fs::read_to_string(&first)
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("$ ").map(|n| n.trim().to_string()))
        .unwrap();
    let train = d.join("train.lst");
    let file = first.file_name().unwrap().to_str().unwrap();
    std::fs::write(&train, format!("{file} {name}\n")).unwrap();
    let o = run(&[
        "weights",
        "--gate",
        cand.to_str().unwrap(),
        "--test",
        set.to_str().unwrap(),
        "--train",
        train.to_str().unwrap(),
    ]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.contains("shares 1 problems with the training list") && e.contains(&name),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// A weights file from before the latest weights loads with one warning
/// that names them; `weights --upgrade` writes them in and keeps the old
/// file, after which it loads without a warning.
#[test]
fn an_old_weights_file_loads_and_upgrades() {
    let d = dir("upgrade");
    let old = d.join("old.toml");
    let data = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/weights-before-deep.toml"
    );
    std::fs::copy(data, &old).unwrap();
    let o = run(&["--weights", old.to_str().unwrap(), "weights"]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{e}");
    assert_eq!(e.matches("warning").count(), 1, "{e}");
    assert!(
        e.contains("ts_dyn_deep = 10, ts_dyn_deep_after = 50000") && e.contains("--upgrade"),
        "{e}"
    );
    let o = run(&["weights", "--upgrade", old.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(d.join("old.toml.bak").exists());
    let o = run(&["--weights", old.to_str().unwrap(), "weights"]);
    assert!(o.status.success());
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // The old file held the defaults of its day: id_mode was 0 then.
    let defaults = String::from_utf8(run(&["weights", "--defaults"]).stdout).unwrap();
    assert!(defaults.contains("\nid_mode = 3\n"));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        defaults.replace("\nid_mode = 3\n", "\nid_mode = 0\n"),
        "the old file held the defaults of its day"
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// gtp-scripts/nightly-tune.sh end to end on tiny sets: tune, then the
/// gate on the run's test list, a dated summary with the gate's report,
/// and a staging file only if the gate passed.
#[test]
fn the_nightly_script_tunes_gates_and_summarises() {
    let d = dir("nightly");
    for (name, seed) in [("tr", "23"), ("te", "11")] {
        let o = run(&[
            "--quiet",
            "tsumego",
            "generate",
            "--count",
            "12",
            "--size-range",
            "8..12",
            "--seed",
            seed,
            "--out",
            d.join(name).to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/gtp-scripts/nightly-tune.sh");
    let o = Command::new("sh")
        .args([script, "2", "tr", "te"])
        .current_dir(&d)
        .env("TENGEN", bin())
        .env("POPULATION", "4")
        .env("WORKERS", "1")
        .env("HOURS", "0.2")
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let passed = out.contains("== gate passed");
    assert!(passed || out.contains("== gate failed"), "{out}");
    assert_eq!(d.join("weights/staging.toml").exists(), passed, "{out}");
    let summaries: Vec<_> = std::fs::read_dir(d.join("weights"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("nightly-20") && n.ends_with(".md"))
        .collect();
    assert_eq!(summaries.len(), 1, "{summaries:?}");
    let text = std::fs::read_to_string(d.join("weights").join(&summaries[0])).unwrap();
    assert!(
        text.contains("# tengen tune report") && text.contains("## Gate") && text.contains("level"),
        "{text}"
    );
    assert!(d.join("weights/nightly-report/gate.json").exists());
    let _ = std::fs::remove_dir_all(&d);
}

/// Pruning fitness states its error budget (the level's default, or
/// --error-budget) in the weights file (the checkpoint's settings hold the
/// same text: a resume with another budget is refused); a budget outside
/// 0-100 is an error.
#[test]
fn pruning_runs_state_their_error_budget() {
    let d = dir("pruning");
    let set = problems(&d);
    for (level, budget, want) in [("4", None, "5%"), ("2", Some("1.5"), "1.5%")] {
        let out = d.join(format!("p{level}.toml"));
        let mut extra = vec!["--group", "pruning", "--level", level, "--generations", "1"];
        if let Some(b) = budget {
            extra.extend(["--error-budget", b]);
        }
        let o = tune(&set, &out, &extra);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let text = std::fs::read_to_string(&out).unwrap();
        let spec = format!("fitness pruning (errors over {want} + leaves at level {level})");
        assert!(text.contains(&spec), "{text}");
        // The level-1 answers the budget is judged against are kept, one
        // per training problem (6 of the 10: --sample 6).
        let ck: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(out.with_extension("checkpoint.json")).unwrap(),
        )
        .unwrap();
        assert_eq!(ck["reference_wrong"].as_array().map(Vec::len), Some(6));
    }
    let o = tune(
        &set,
        &d.join("bad.toml"),
        &["--group", "pruning", "--error-budget", "120"],
    );
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("not a per cent from 0 to 100"), "{e}");
    let _ = std::fs::remove_dir_all(&d);
}

/// SPSA by games, tiny (7x7, 16 playouts; on 5x5 the colour decides
/// every pair of games, so nothing moves): the run finishes, says how it
/// compared, moves the weights, gives the same weights on 1 and 2
/// workers, and refuses solver fitness and --compare.
#[test]
fn an_spsa_run_moves_the_weights_and_does_not_depend_on_workers() {
    let d = dir("spsa");
    let mut bodies = Vec::new();
    for workers in ["1", "2"] {
        let out = d.join(format!("sp{workers}.toml"));
        let o = run(&[
            "--quiet",
            "--seed",
            "3",
            "tune",
            "--fitness",
            "match",
            "--group",
            "playout",
            "--algorithm",
            "spsa",
            "--population",
            "4",
            "--generations",
            "2",
            "--match-size",
            "7",
            "--match-komi",
            "4.5",
            "--match-playouts",
            "16",
            "--match-move-limit",
            "60",
            "--pairs",
            "1",
            "--workers",
            workers,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(text.contains("SPSA: pairs of perturbations"), "{text}");
        bodies.push(body(&out));
    }
    assert_eq!(bodies[0], bodies[1]);
    let defaults = String::from_utf8(run(&["weights", "--defaults"]).stdout).unwrap();
    assert_ne!(bodies[0], defaults.trim_end(), "two steps moved nothing");
    let o = run(&["tune", "--algorithm", "spsa", "--train", "x"]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("--fitness match"), "{e}");
    let o = run(&[
        "tune",
        "--algorithm",
        "spsa",
        "--fitness",
        "match",
        "--group",
        "playout",
        "--compare",
        "round-robin",
    ]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("--compare and --opponent do not apply"), "{e}");
    let _ = std::fs::remove_dir_all(&d);
}

/// `--genes` narrows a group to the weights it names: after an SPSA run
/// on the tree group with `--genes uct_c,prior_line*`, every other weight
/// keeps its default, at least one named one moved, the file's header
/// says which genes were tuned, and a name outside the group is refused
/// with the group's weights listed.
#[test]
fn genes_restrict_a_run_to_the_named_weights() {
    let d = dir("genes");
    let out = d.join("g.toml");
    let o = run(&[
        "--quiet",
        "--seed",
        "5",
        "tune",
        "--fitness",
        "match",
        "--group",
        "tree",
        "--genes",
        "uct_c,prior_line*",
        "--algorithm",
        "spsa",
        "--population",
        "4",
        "--generations",
        "2",
        "--match-size",
        "7",
        "--match-komi",
        "4.5",
        "--match-playouts",
        "16",
        "--match-move-limit",
        "60",
        "--pairs",
        "1",
        "--workers",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.contains("group tree (genes uct_c,prior_line*)"),
        "{text}"
    );
    let defaults = String::from_utf8(run(&["weights", "--defaults"]).stdout).unwrap();
    let pairs = |t: &str| -> Vec<(String, String)> {
        t.lines()
            .filter(|l| !l.starts_with('#') && l.contains(" = "))
            .map(|l| {
                let (k, v) = l.split_once(" = ").unwrap();
                (k.to_string(), v.to_string())
            })
            .collect()
    };
    let (tuned, base) = (pairs(&body(&out)), pairs(&defaults));
    assert_eq!(tuned.len(), base.len());
    let mut moved = 0;
    for ((k, v), (k0, v0)) in tuned.iter().zip(&base) {
        assert_eq!(k, k0);
        let named = k == "uct_c" || k.starts_with("prior_line");
        assert!(named || v == v0, "{k} moved: {v0} -> {v}");
        moved += (named && v != v0) as usize;
    }
    assert!(moved > 0, "no named weight moved");
    let o = run(&[
        "tune",
        "--fitness",
        "match",
        "--group",
        "tree",
        "--genes",
        "uct_c,po_atari",
        "--algorithm",
        "spsa",
    ]);
    assert!(!o.status.success());
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("'po_atari'") && e.contains("prior_line1.opening"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&d);
}
