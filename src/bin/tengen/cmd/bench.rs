//! `tengen bench`: playout and search speed with fixed signatures.

use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Result;
use clap::Args;

use tengen::learned::Model;
use tengen::weights::Weights;

use crate::options::EngineArgs;

#[derive(Args, Debug)]
/// Speed measurements. The global `--playouts N` sets the playouts per
/// position (default 100000 with --random, else 20000); the global
/// `--threads N` (N > 1) adds a run on N threads and the scaling ratio.
pub struct BenchArgs {
    /// Light random playouts from the empty board instead of the search.
    #[arg(long)]
    pub random: bool,
    /// Board sizes to measure.
    #[arg(long, value_delimiter = ',', default_values_t = [9u8, 19])]
    pub sizes: Vec<u8>,
    /// The tsumego solver instead of the search: the fixed problems of
    /// tests/data/solver-bench.gt (or --problems), both movers, level 1,
    /// one thread, with and without the static evaluation.
    #[arg(long)]
    pub solver: bool,
    /// GoTools-syntax problem file for --solver instead of the built-in set.
    #[arg(long, value_name = "FILE", requires = "solver")]
    pub problems: Option<std::path::PathBuf>,
    // Playouts per position: the global --playouts (default 100000 with
    // --random, else 20000). Threads: with the global --threads N above 1,
    // the search also runs on N threads and the scaling ratio is reported.
}

pub fn run(engine: &EngineArgs, args: &BenchArgs) -> Result<ExitCode> {
    if args.solver {
        return solver(engine, args);
    }
    for &size in &args.sizes {
        anyhow::ensure!(
            (2..=25).contains(&size),
            "board size {size} is not supported (2 to 25)"
        );
    }
    if args.random {
        random_playouts(engine, &args.sizes);
        return Ok(ExitCode::SUCCESS);
    }
    let weights = engine.load_weights()?;
    let patterns = engine.load_patterns()?;
    let playouts = engine.playouts.unwrap_or(20_000);
    search(engine, &args.sizes, playouts, &weights, &patterns);
    // The cost of the learned patterns: the same search without them, and
    // the time to rate one candidate move.
    if let Some(m) = &patterns {
        pattern_cost(&args.sizes, playouts, &weights, &patterns, m);
        // The learned 3x3 playout patterns against the fixed shapes, in
        // the playouts alone.
        if m.playout_table().is_some() {
            playout_pattern_cost(&args.sizes, playouts, &weights, m);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `bench --random`: light random playouts from the empty board.
fn random_playouts(engine: &EngineArgs, sizes: &[u8]) {
    let playouts = engine.playouts.unwrap_or(100_000) as usize;
    println!("light random playouts from the empty board, 1 thread, seed 1");
    println!(
        "{:>5} {:>10} {:>12} {:>12} {:>10} {:>18}",
        "size", "playouts", "playouts/s", "us/playout", "moves/po", "signature"
    );
    for &size in sizes {
        let r = tengen::bench::light_playouts(size as usize, playouts);
        println!(
            "{:>5} {:>10} {:>12.0} {:>12.2} {:>10.1} {:>18}",
            format!("{0}x{0}", size),
            r.playouts,
            r.playouts_per_second(),
            r.micros_per_playout(),
            r.moves as f64 / r.playouts as f64,
            format!("{:016x}", r.signature)
        );
    }
}

/// The search on the fixed bench positions, on 1 thread and (with
/// --threads above 1) on --threads threads.
fn search(
    engine: &EngineArgs,
    sizes: &[u8],
    playouts: u64,
    weights: &Weights,
    patterns: &Option<Arc<Model>>,
) {
    println!(
        "search (tree, priors, heavy playouts) on the fixed bench positions, {playouts} playouts each, seed 1"
    );
    println!(
        "{:>5} {:>8} {:>10} {:>12} {:>18} {:>10}",
        "size", "threads", "playouts", "playouts/s", "signature", "scaling"
    );
    for &size in sizes {
        let one = tengen::bench::search(size as usize, playouts, 1, weights, patterns.clone());
        println!(
            "{:>5} {:>8} {:>10} {:>12.0} {:>18} {:>10}",
            format!("{0}x{0}", size),
            1,
            one.playouts,
            one.playouts as f64 / one.seconds,
            format!("{:016x}", one.signature),
            "1.00"
        );
        if let Some(n) = engine.threads.map(usize::from).filter(|&n| n > 1) {
            let many = tengen::bench::search(size as usize, playouts, n, weights, patterns.clone());
            let ratio = (many.playouts as f64 / many.seconds) / (one.playouts as f64 / one.seconds);
            println!(
                "{:>5} {:>8} {:>10} {:>12.0} {:>18} {:>10.2}",
                format!("{0}x{0}", size),
                n,
                many.playouts,
                many.playouts as f64 / many.seconds,
                "(not fixed)",
                ratio
            );
        }
    }
}

/// The learned patterns' cost per playout and per rated move.
fn pattern_cost(
    sizes: &[u8],
    playouts: u64,
    weights: &Weights,
    patterns: &Option<Arc<Model>>,
    m: &Model,
) {
    println!();
    println!(
        "learned patterns ({} gammas): cost per playout, 1 thread",
        m.len()
    );
    println!(
        "{:>5} {:>14} {:>14} {:>12} {:>14}",
        "size", "us/po with", "us/po without", "cost/po", "us/rated move"
    );
    for &size in sizes {
        let with = tengen::bench::search(size as usize, playouts, 1, weights, patterns.clone());
        let without = tengen::bench::search(size as usize, playouts, 1, weights, None);
        let us = |b: &tengen::bench::SearchBench| b.seconds * 1e6 / b.playouts as f64;
        let rate = tengen::bench::rate_moves(size as usize, m);
        println!(
            "{:>5} {:>14.1} {:>14.1} {:>11.0}% {:>14.3}",
            format!("{0}x{0}", size),
            us(&with),
            us(&without),
            100.0 * (us(&with) / us(&without) - 1.0),
            rate
        );
    }
}

/// Heavy playouts alone with the fixed 3x3 shapes and with the learned
/// gammas.
fn playout_pattern_cost(sizes: &[u8], playouts: u64, weights: &Weights, m: &Model) {
    println!();
    println!(
        "playout 3x3 patterns: heavy playouts alone from the same positions, 1 thread, \
         fixed shapes (po_pattern_learned = 0) against learned gammas (1)"
    );
    println!(
        "{:>5} {:>10} {:>14} {:>16} {:>10}",
        "size", "playouts", "us/po fixed", "us/po learned", "cost/po"
    );
    let n = (playouts as usize).max(1);
    for &size in sizes {
        let policy = |learned: f64| {
            let mut w = weights.resolve(tengen::weights::phase(0.0));
            w.po_pattern_learned = learned;
            tengen::playout::heavy::Policy::new(&w, Some(m))
        };
        let fixed = tengen::bench::heavy_playouts(size as usize, n, &policy(0.0));
        let learned = tengen::bench::heavy_playouts(size as usize, n, &policy(1.0));
        println!(
            "{:>5} {:>10} {:>14.1} {:>16.1} {:>9.0}%",
            format!("{0}x{0}", size),
            n,
            fixed.micros_per_playout(),
            learned.micros_per_playout(),
            100.0 * (learned.micros_per_playout() / fixed.micros_per_playout() - 1.0)
        );
    }
}

fn solver(engine: &EngineArgs, args: &BenchArgs) -> Result<ExitCode> {
    use anyhow::Context;
    let (text, name) = match &args.problems {
        Some(path) => (
            std::fs::read_to_string(path)
                .with_context(|| format!("cannot read '{}'", path.display()))?,
            path.display().to_string(),
        ),
        None => (
            tengen::bench::SOLVER_PROBLEMS.to_string(),
            "tests/data/solver-bench.gt (built in)".to_string(),
        ),
    };
    let weights = engine.load_weights()?;
    let w = tengen::tsumego::OrderWeights::new(&weights);
    let max_nodes = tengen::tsumego::DEFAULT_MAX_NODES;
    println!(
        "tsumego solver on {name}: both movers, level 1, one thread, {max_nodes} nodes per answer"
    );
    println!(
        "{:>9} {:>8} {:>9} {:>10} {:>11} {:>8} {:>10} {:>9} {:>9} {:>8} {:>18}",
        "statics",
        "answers",
        "unsettled",
        "leaves",
        "nodes",
        "time s",
        "nodes/s",
        "median ms",
        "p90 ms",
        "max ms",
        "signature"
    );
    for statics in [false, true] {
        let r = tengen::bench::solver(&text, &w, statics, max_nodes)
            .with_context(|| format!("problems of {name}"))?;
        println!(
            "{:>9} {:>8} {:>9} {:>10} {:>11} {:>8.2} {:>10.0} {:>9.1} {:>9.1} {:>8.1} {:>18}",
            if statics { "on" } else { "off" },
            r.answers,
            r.unsettled,
            r.leaves,
            r.nodes,
            r.seconds,
            r.nodes_per_second(),
            1e3 * r.time_quantile(0.5),
            1e3 * r.time_quantile(0.9),
            1e3 * r.time_quantile(1.0),
            format!("{:016x}", r.signature)
        );
    }
    Ok(ExitCode::SUCCESS)
}
