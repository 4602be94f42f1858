//! `tengen` and `tengen gtp`: GTP v2 on stdin/stdout.

use std::io;
use std::process::ExitCode;

use anyhow::{Context, Result};
use tengen::engine::Engine;
use tengen::gtp::{self, Session};

use crate::options::EngineArgs;

pub fn run(opts: &EngineArgs) -> Result<ExitCode> {
    let mut config = opts.config()?;
    config.table = opts.open_table()?;
    // SIGINT/SIGTERM/SIGHUP: flush the table, then exit.
    let _ = ctrlc::set_handler(|| {
        tengen::table::flush_all();
        std::process::exit(130);
    });
    if let Some(t) = &config.table {
        eprintln!(
            "tengen: table {} ({} entries, {}{})",
            t.path().display(),
            t.entries(),
            t.scope().describe(),
            if t.read_only().is_some() {
                ", read-only"
            } else {
                ""
            }
        );
    }
    let engine = Engine::new(config).context("cannot start the engine")?;
    eprintln!(
        "tengen {}: engine '{}', {}x{} board, komi {}, {} ko; speaking GTP on stdin/stdout",
        env!("CARGO_PKG_VERSION"),
        engine.player_name(),
        engine.game().size(),
        engine.game().size(),
        engine.game().komi(),
        opts.ko
    );
    let mut session = Session::new(engine);
    session.set_file_root(opts.files_under.clone());
    session.set_reporting(gtp::gfx::Reporting {
        verbose: !opts.quiet,
        live_gfx: opts.live_gfx,
    });
    let stdin = io::stdin();
    gtp::run(&mut session, stdin.lock(), io::stdout()).context("reading GTP commands")?;
    Ok(ExitCode::SUCCESS)
}
