//! `tengen weights`: check and print a weights file, or the defaults.

use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

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
}

pub fn run(engine: &EngineArgs, args: &WeightsArgs) -> Result<ExitCode> {
    let w = if args.defaults {
        tengen::weights::Weights::default()
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
