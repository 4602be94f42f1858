//! The engine's global options (`--size`, `--threads`, `--weights`, ...):
//! every subcommand receives them, not the whole command line.

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;

use tengen::engine::{EngineConfig, EngineKind, PlayOptions};
use tengen::rules::{KoRule, Rules};
use tengen::search::SearchConfig;
use tengen::table::Table;

/// Options of the engine; they apply to every subcommand that plays.
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Global options (the engine's, for every subcommand)")]
pub struct EngineArgs {
    /// Move generator: `mcts` (the tree search) or `random` (uniform legal
    /// moves that never fill an own eye).
    #[arg(long, global = true, default_value = "mcts", value_name = "NAME")]
    pub engine: EngineKind,
    /// Search threads (default: the number of cores).
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// Fixed playouts per move; overrides the clock (reproducible with
    /// --threads 1 --seed S and --no-table or the same table contents).
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub playouts: Option<u64>,
    /// Seconds per move when the controller sets no time limit.
    #[arg(long, global = true, default_value_t = 5.0, value_name = "SECS")]
    pub move_secs: f64,
    /// Memory cap of the search tree in MiB (fractions allowed, e.g. 0.5;
    /// at least 1,024 nodes). When reached, the search keeps the tree's
    /// most visited part and grows the rest again, guided by the table
    /// (`id_mode = 3`, the default; docs/table.md); with another `id_mode`,
    /// or without a writable table, the tree stops growing and the search
    /// goes on with what it has.
    #[arg(long, global = true, default_value_t = 1024.0, value_name = "MIB", value_parser = parse_tree_mb)]
    pub max_tree_mb: f64,
    /// Search on the opponent's time; any new command stops it.
    #[arg(long, global = true)]
    pub ponder: bool,
    /// Dynamic komi in handicap games (see docs/gtp.md).
    #[arg(long, global = true)]
    pub dynamic_komi: bool,
    /// GoGui live graphics (gogui-gfx:) on stderr while searching.
    #[arg(long, global = true)]
    pub live_gfx: bool,
    /// No progress lines and move summaries on stderr.
    #[arg(long, global = true)]
    pub quiet: bool,
    /// Random seed; the same seed reproduces the same moves.
    #[arg(long, global = true, default_value_t = 0)]
    pub seed: u64,
    /// Board size at start-up (GTP `boardsize` changes it), 2 to 25.
    #[arg(long, global = true, default_value_t = 19, value_parser = clap::value_parser!(u8).range(2..=25))]
    pub size: u8,
    /// Komi at start-up (GTP `komi` changes it).
    #[arg(
        long,
        global = true,
        default_value_t = 7.5,
        allow_negative_numbers = true
    )]
    pub komi: f64,
    /// Repetition rule: positional (CGOS), situational or simple.
    #[arg(long, global = true, default_value = "positional", value_name = "RULE")]
    pub ko: KoRule,
    /// Weights file (TOML); the built-in defaults equal weights/default.toml.
    #[arg(long, global = true, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// Allow suicide (multi-stone and single-stone).
    #[arg(long, global = true)]
    pub allow_suicide: bool,
    /// Restrict `loadsgf`/`printsgf` to relative paths below DIR.
    #[arg(long, global = true, value_name = "DIR")]
    pub files_under: Option<PathBuf>,
    /// Best-move table file, created on first use (default: $TENGEN_TABLE;
    /// else book/tengen.table when ./book exists; else
    /// ~/.local/share/tengen/tengen.table). See docs/table.md.
    #[arg(long, global = true, value_name = "FILE")]
    pub table: Option<PathBuf>,
    /// Entries of a new table: a power of two from 1024 to 2^32 [default:
    /// 4194304, a 48 MiB file]. An existing file must have this many.
    #[arg(long, global = true, value_name = "N")]
    pub table_entries: Option<u64>,
    /// Search without the best-move table (no probes, no stores).
    #[arg(long, global = true)]
    pub no_table: bool,
    /// Learned move-pattern file for the priors and, with the weight
    /// po_pattern_learned = 1, the playouts' 3x3 patterns (`tengen patterns
    /// learn`); the built-in model equals weights/patterns.txt.
    #[arg(long, global = true, value_name = "FILE")]
    pub patterns: Option<PathBuf>,
    /// Search without learned move patterns (priors and playouts).
    #[arg(long, global = true)]
    pub no_patterns: bool,
}

/// `--max-tree-mb`: a number of MiB, more than 0 and at most 1 TiB.
fn parse_tree_mb(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a number of MiB (e.g. 1024 or 0.5)"))?;
    if v.is_finite() && v > 0.0 && v <= 1_048_576.0 {
        Ok(v)
    } else {
        Err(format!(
            "'{s}' is out of range: give more than 0 and at most 1048576 MiB"
        ))
    }
}

impl EngineArgs {
    /// The tree's memory cap in bytes (`--max-tree-mb`).
    pub fn max_tree_bytes(&self) -> usize {
        (self.max_tree_mb * (1u64 << 20) as f64) as usize
    }

    /// The weights: the file of `--weights`, or the built-in defaults. A
    /// file that lacks keys loads with their defaults and one warning on
    /// stderr that names them.
    pub fn load_weights(&self) -> anyhow::Result<tengen::weights::Weights> {
        match &self.weights {
            Some(path) => {
                let loaded = tengen::weights::Weights::read(path)?;
                if let Some(w) = loaded.warning(path) {
                    eprintln!("tengen: warning: {w}");
                }
                Ok(loaded.weights)
            }
            None => Ok(tengen::weights::Weights::default()),
        }
    }

    /// The learned pattern model: `--patterns FILE`, none with
    /// `--no-patterns`, else the built-in one.
    pub fn load_patterns(&self) -> anyhow::Result<Option<Arc<tengen::learned::Model>>> {
        anyhow::ensure!(
            !(self.no_patterns && self.patterns.is_some()),
            "--patterns and --no-patterns contradict each other"
        );
        if self.no_patterns {
            return Ok(None);
        }
        Ok(Some(match &self.patterns {
            Some(p) => Arc::new(tengen::learned::Model::read(p)?),
            None => tengen::learned::builtin_arc(),
        }))
    }

    /// The arguments that start this program as a GTP engine with the
    /// same engine options (for `match`).
    pub fn gtp_args(&self) -> Vec<String> {
        let mut a = vec![
            "--engine".to_string(),
            match self.engine {
                EngineKind::Mcts => "mcts".into(),
                EngineKind::Random => "random".into(),
            },
            "--seed".into(),
            self.seed.to_string(),
            "--move-secs".into(),
            self.move_secs.to_string(),
            "--max-tree-mb".into(),
            self.max_tree_mb.to_string(),
            "--ko".into(),
            self.ko.to_string(),
            "--quiet".into(),
        ];
        if let Some(t) = self.threads {
            a.extend(["--threads".into(), t.to_string()]);
        }
        if let Some(p) = self.playouts {
            a.extend(["--playouts".into(), p.to_string()]);
        }
        if let Some(w) = &self.weights {
            a.extend(["--weights".into(), w.display().to_string()]);
        }
        if self.dynamic_komi {
            a.push("--dynamic-komi".into());
        }
        if self.allow_suicide {
            a.push("--allow-suicide".into());
        }
        if self.no_table {
            a.push("--no-table".into());
        }
        if self.no_patterns {
            a.push("--no-patterns".into());
        }
        if let Some(p) = &self.patterns {
            a.extend(["--patterns".into(), p.display().to_string()]);
        }
        if let Some(t) = &self.table {
            a.extend(["--table".into(), t.display().to_string()]);
        }
        if let Some(n) = self.table_entries {
            a.extend(["--table-entries".into(), n.to_string()]);
        }
        a.push("gtp".into());
        a
    }

    /// Search threads: `--threads`, else the number of cores.
    pub fn threads(&self) -> usize {
        self.threads.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            |n| n as usize,
        )
    }

    pub fn rules(&self) -> Rules {
        Rules {
            ko: self.ko,
            allow_suicide: self.allow_suicide,
        }
    }

    /// The table file these options name.
    pub fn table_path(&self) -> PathBuf {
        self.table
            .clone()
            .unwrap_or_else(tengen::table::default_path)
    }

    /// Opens (creating on first use) the best-move table for play, unless
    /// `--no-table` or an engine without a search. Warnings go to stderr.
    pub fn open_table(&self) -> anyhow::Result<Option<Arc<Table>>> {
        if self.no_table || self.engine != EngineKind::Mcts {
            anyhow::ensure!(
                self.table.is_none() || !self.no_table,
                "--table and --no-table contradict each other"
            );
            return Ok(None);
        }
        let path = self.table_path();
        let t = Table::open_default(&path, self.table_entries)?;
        if let Some(why) = t.read_only() {
            eprintln!("tengen: warning: table {}: {why}", path.display());
        }
        if t.was_dirty() && t.read_only().is_none() {
            eprintln!(
                "tengen: note: table {} was not closed cleanly; torn entries are ignored (`tengen table verify` counts them)",
                path.display()
            );
        }
        Ok(Some(t))
    }

    pub fn config(&self) -> anyhow::Result<EngineConfig> {
        anyhow::ensure!(
            self.move_secs.is_finite() && self.move_secs > 0.0,
            "--move-secs must be a positive number of seconds, not {}",
            self.move_secs
        );
        let threads = self.threads();
        Ok(EngineConfig {
            kind: self.engine,
            seed: self.seed,
            rules: Rules {
                ko: self.ko,
                allow_suicide: self.allow_suicide,
            },
            size: self.size as usize,
            komi: self.komi,
            weights: self.load_weights()?,
            search: SearchConfig {
                threads,
                max_tree_bytes: self.max_tree_bytes(),
                seed: self.seed,
                reuse: true,
            },
            play: PlayOptions {
                playouts: self.playouts,
                default_move_secs: self.move_secs,
                dynamic_komi: self.dynamic_komi,
                ..PlayOptions::default()
            },
            ponder: self.ponder,
            patterns: self.load_patterns()?,
            ..EngineConfig::default()
        })
    }
}
