//! `tengen weights`: check and print a weights file, or the defaults;
//! upgrade an old file in place; gate a tuned solver set against the
//! current weights on a test set.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use tengen::weights::Weights;

use crate::options::EngineArgs;

#[derive(Args, Debug)]
pub struct WeightsArgs {
    /// Print the built-in defaults as a complete weights file
    /// (this is how weights/default.toml is made).
    #[arg(long)]
    pub defaults: bool,
    /// Print one line per weight (value, range, meaning) instead of TOML.
    #[arg(long)]
    pub describe: bool,
    /// Rewrite FILE in full, in canonical form: keys it lacks (weights
    /// added after it was written) are written in with their defaults, its
    /// values are kept, and so are the comment lines that open it (a
    /// provenance, up to the first blank line). The old file is kept as
    /// FILE.bak.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["defaults", "describe", "gate"])]
    pub upgrade: Option<PathBuf>,
    /// The promotion gate: solve the --test set at every level of --levels
    /// with the weights in FILE (the candidate) and with the current ones
    /// (`--weights`, else the built-in defaults), and pass only if at every
    /// level the candidate has no more errors (wrong or unsettled answers)
    /// and fewer leaves. Exit status 0 when it passes, 1 when it fails.
    #[arg(long, value_name = "FILE", requires = "test", conflicts_with_all = ["defaults", "describe"])]
    pub gate: Option<PathBuf>,
    /// The gate's test set: a list (`.lst`, as `tengen tune` writes them),
    /// a GoTools file or a folder of them. Never the training set.
    #[arg(long, value_name = "PATH")]
    pub test: Option<PathBuf>,
    /// The training list the candidate was tuned on: the gate refuses a
    /// test set that shares a problem with it.
    #[arg(long, value_name = "LIST")]
    pub train: Option<PathBuf>,
    /// The folder of the problem files a list names (default: the list's
    /// own folder).
    #[arg(long, value_name = "DIR")]
    pub problems: Option<PathBuf>,
    /// The speed levels the gate compares, e.g. `1,3,5`.
    #[arg(long, value_delimiter = ',', default_value = "1,2,3,4,5",
          value_parser = clap::value_parser!(u8).range(1..=5))]
    pub levels: Vec<u8>,
    /// Node limit per answer in the gate (beyond it the answer counts as an
    /// error).
    #[arg(long, default_value_t = tengen::tsumego::DEFAULT_MAX_NODES, value_name = "N")]
    pub max_nodes: u64,
    /// Largest region (points) accepted for a problem.
    #[arg(long, default_value_t = tengen::tsumego::region::DEFAULT_MAX_REGION)]
    pub max_region: usize,
    /// When the gate passes, write the candidate to FILE with its
    /// provenance on top (the command, the hashes of the candidate and of
    /// the lists, the figures per level). Nothing is written when it fails.
    #[arg(long, value_name = "FILE", requires = "gate")]
    pub promote: Option<PathBuf>,
    /// Write the gate's report as JSON to FILE as well.
    #[arg(long, value_name = "FILE", requires = "gate")]
    pub json: Option<PathBuf>,
    /// The gate's state file: every finished problem of every pass (a
    /// level, one side) is saved there, so that a gate stopped by Ctrl-C
    /// or kill -9 and run again with the same weights, set and limits goes
    /// on where it was, losing at most the problems it was solving.
    /// Removed when the gate ends. Default: the candidate's path with
    /// `.gate-state.json` added.
    #[arg(long, value_name = "FILE", requires = "gate")]
    pub state: Option<PathBuf>,
}

pub fn run(engine: &EngineArgs, args: &WeightsArgs) -> Result<ExitCode> {
    if let Some(path) = &args.upgrade {
        return upgrade(path);
    }
    if let Some(path) = &args.gate {
        return gate(engine, args, path);
    }
    let w = if args.defaults {
        Weights::default()
    } else {
        engine.load_weights()?
    };
    if args.describe {
        println!("{}", w.describe());
    } else {
        print!("{}", w.to_toml());
    }
    Ok(ExitCode::SUCCESS)
}

/// `--gate FILE`: the candidate against the current weights.
fn gate(engine: &EngineArgs, args: &WeightsArgs, cand_path: &Path) -> Result<ExitCode> {
    use tengen::tune::{fitness, gate, sample::ProblemId};
    let test = args.test.as_deref().expect("clap requires --test");
    let cand_text = std::fs::read_to_string(cand_path)
        .with_context(|| format!("cannot read weights file '{}'", cand_path.display()))?;
    let cand = Weights::parse_text(&cand_text, cand_path)?;
    if let Some(w) = cand.warning(cand_path) {
        eprintln!("tengen: warning: {w}");
    }
    let base = engine.load_weights()?;
    let base_name = engine.weights.as_ref().map_or_else(
        || "the built-in defaults".to_string(),
        |p| format!("'{}'", p.display()),
    );
    let set = fitness::load_any(test, args.problems.as_deref(), args.max_region)?;
    if let Some(train) = &args.train {
        let text = std::fs::read_to_string(train)
            .with_context(|| format!("cannot read training list '{}'", train.display()))?;
        let ids = tengen::tune::sample::parse_list(&text, &train.display().to_string())?;
        let ids: std::collections::HashSet<ProblemId> = ids.into_iter().collect();
        let shared: Vec<String> = set
            .iter()
            .map(|p| p.id())
            .filter(|id| ids.contains(id))
            .map(|id| format!("{} {}", id.file, id.name))
            .collect();
        anyhow::ensure!(
            shared.is_empty(),
            "the test set '{}' shares {} problems with the training list '{}' (first: {}): \
             the gate measures on problems the candidate was not tuned on",
            test.display(),
            shared.len(),
            train.display(),
            shared[0]
        );
    }
    let mut levels = args.levels.clone();
    levels.sort_unstable();
    levels.dedup();
    let progress = super::tune::Progress::with_prefix(engine.quiet, "gate");
    let state_path = args
        .state
        .clone()
        .unwrap_or_else(|| with_suffix(cand_path, ".gate-state.json"));
    let ids: Vec<String> = set
        .iter()
        .map(|p| format!("{} {}", p.id().file, p.id().name))
        .collect();
    let key = format!(
        "tengen {} git {}; baseline {:016x}; candidate {:016x}; set {:016x} ({} problems); max nodes {}; max region {}",
        env!("CARGO_PKG_VERSION"),
        env!("TENGEN_GIT_REV"),
        fnv(base.to_toml().as_bytes()),
        fnv(cand.weights.to_toml().as_bytes()),
        fnv(ids.join("\n").as_bytes()),
        set.len(),
        args.max_nodes,
        args.max_region
    );
    let mut state = match std::fs::read_to_string(&state_path) {
        Ok(text) => match serde_json::from_str::<gate::GateState>(&text) {
            Ok(s) if s.key == key => {
                if !engine.quiet {
                    eprintln!(
                        "gate: going on from '{}' ({} passes done{})",
                        state_path.display(),
                        s.passes.len(),
                        s.partial.as_ref().map_or(String::new(), |p| format!(
                            ", {} problems of the next",
                            p.runs.len()
                        ))
                    );
                }
                s
            }
            _ => {
                eprintln!(
                    "gate: '{}' is the state of another gate (other weights, set, limits or program); starting afresh",
                    state_path.display()
                );
                gate::GateState::default()
            }
        },
        Err(_) => gate::GateState::default(),
    };
    state.key = key;
    let mut save_error = None;
    let mut save = |s: &gate::GateState| {
        let text = serde_json::to_string(s).expect("the state serialises");
        if let Err(e) = write_replacing(&state_path, &text) {
            save_error.get_or_insert(format!("the gate's state file: {e:#}"));
        }
    };
    let report = gate::gate(
        &set,
        &base,
        &cand.weights,
        &levels,
        args.max_nodes,
        engine.threads(),
        &progress,
        &mut state,
        &mut save,
    );
    if let Some(e) = save_error {
        eprintln!("tengen: warning: {e}");
    }
    let cand_name = format!("'{}'", cand_path.display());
    print!("{}", report.render(&base_name, &cand_name));
    if let Some(j) = &args.json {
        let text = serde_json::to_string_pretty(&report)? + "\n";
        std::fs::write(j, text).with_context(|| format!("cannot write '{}'", j.display()))?;
    }
    // The report is out: the passes are no longer needed.
    let _ = std::fs::remove_file(&state_path);
    if !report.promoted() {
        return Ok(ExitCode::from(1));
    }
    if let Some(out) = &args.promote {
        let mut text = String::new();
        let file_hash = |p: &Path| {
            std::fs::read(p).map_or_else(
                |e| format!("unreadable: {e}"),
                |b| format!("{:016x}", fnv(&b)),
            )
        };
        let command: Vec<String> = std::env::args().collect();
        text.push_str(&format!(
            "# promoted by the gate (tengen {} git {}): {}\n",
            env!("CARGO_PKG_VERSION"),
            env!("TENGEN_GIT_REV"),
            command.join(" ")
        ));
        text.push_str(&format!(
            "# candidate {} (fnv1a {:016x}); baseline {}\n",
            cand_path.display(),
            fnv(cand_text.as_bytes()),
            base_name
        ));
        text.push_str(&format!(
            "# test {} ({} problems, fnv1a {})",
            test.display(),
            report.problems,
            if test.is_file() {
                file_hash(test)
            } else {
                "of a folder: none".into()
            }
        ));
        if let Some(train) = &args.train {
            text.push_str(&format!(
                "; train {} (fnv1a {})",
                train.display(),
                file_hash(train)
            ));
        }
        text.push('\n');
        for l in &report.levels {
            text.push_str(&format!(
                "# level {}: errors {} -> {}, leaves {} -> {} ({:+.1}%), {} nodes per answer\n",
                l.level,
                l.baseline.errors,
                l.candidate.errors,
                l.baseline.leaves,
                l.candidate.leaves,
                l.leaves_change(),
                report.max_nodes
            ));
        }
        text.push_str(&upgraded_text(&cand_text, &cand.weights));
        write_replacing(out, &text)?;
        println!("gate: promoted into '{}'", out.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// `--upgrade FILE`: the file read leniently, written back complete.
fn upgrade(path: &Path) -> Result<ExitCode> {
    let old = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read weights file '{}'", path.display()))?;
    let loaded = Weights::parse_text(&old, path)?;
    let new = upgraded_text(&old, &loaded.weights);
    if new == old {
        println!("{}: complete and canonical; left as it is", path.display());
        return Ok(ExitCode::SUCCESS);
    }
    let bak = with_suffix(path, ".bak");
    std::fs::copy(path, &bak)
        .with_context(|| format!("cannot keep the old file as '{}'", bak.display()))?;
    write_replacing(path, &new)?;
    if loaded.missing.is_empty() {
        println!(
            "{}: rewritten in canonical form (no key was missing); the old file is '{}'",
            path.display(),
            bak.display()
        );
    } else {
        println!(
            "{}: {} key{} added with the default{} ({}); the old file is '{}'",
            path.display(),
            loaded.missing.len(),
            if loaded.missing.len() == 1 { "" } else { "s" },
            if loaded.missing.len() == 1 { "" } else { "s" },
            loaded.missing.join(", "),
            bak.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The canonical text of `w`, below the comment lines that open `old` (up
/// to its first blank or non-comment line), except those of our own header
/// in any version (`# tengen weights...`) and those the canonical text has.
fn upgraded_text(old: &str, w: &Weights) -> String {
    let canonical = w.to_toml();
    let ours: std::collections::HashSet<&str> = canonical.lines().collect();
    let mut out = String::new();
    for line in old.lines() {
        if !line.trim_start().starts_with('#') {
            break;
        }
        if !line.starts_with("# tengen weights") && !ours.contains(line) {
            out.push_str(line);
            out.push('\n');
        }
    }
    out + &canonical
}

/// FNV-1a of `bytes` (the digests in a gate's key and provenance).
fn fnv(bytes: &[u8]) -> u64 {
    tengen::rules::zobrist::fnv1a(tengen::rules::zobrist::FNV_OFFSET, bytes)
}

/// Writes `text` to `path` through `path.tmp` and a rename, so that a
/// kill leaves the old file or the new one, never half of one.
fn write_replacing(path: &Path, text: &str) -> Result<()> {
    let tmp = with_suffix(path, ".tmp");
    std::fs::write(&tmp, text).with_context(|| format!("cannot write '{}'", tmp.display()))?;
    std::fs::rename(&tmp, path)
        .with_context(|| format!("cannot replace '{}' by '{}'", path.display(), tmp.display()))
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_os_string();
    s.push(suffix);
    PathBuf::from(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upgrading_keeps_values_and_the_opening_comments() {
        let w = Weights {
            uct_c: [0.5; 3],
            ..Weights::default()
        };
        let full = w.to_toml();
        let old = format!(
            "# tuned 2026-11-20, seed 7\n{}",
            full.replace("ts_dyn_deep = 10\n", "")
        );
        let loaded = Weights::parse_text(&old, Path::new("w.toml")).unwrap();
        assert_eq!(loaded.missing, vec!["ts_dyn_deep"]);
        let new = upgraded_text(&old, &loaded.weights);
        assert!(new.starts_with("# tuned 2026-11-20, seed 7\n# tengen weights"));
        let back = Weights::parse_text(&new, Path::new("w.toml")).unwrap();
        assert!(back.missing.is_empty());
        assert_eq!(back.weights, w);
        // Upgrading again changes nothing, and an old header goes.
        assert_eq!(upgraded_text(&new, &back.weights), new);
        let older = format!("# tengen weights. Every key is required.\n{full}");
        assert_eq!(upgraded_text(&older, &w), full);
    }
}
