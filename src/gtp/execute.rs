//! Running a typed command on the engine and turning the result into the
//! answer's text.

use super::*;

impl Session {
    pub(super) fn execute(&mut self, cmd: Command) -> Answer {
        use Command as C;
        let e = &mut self.engine;
        let fail = |err: EngineError| error_text(&err);
        match cmd {
            C::ProtocolVersion => Ok("2".into()),
            C::Name => Ok("tengen".into()),
            C::Version => Ok(env!("CARGO_PKG_VERSION").into()),
            C::KnownCommand(name) => Ok(COMMANDS.contains(&name.as_str()).to_string()),
            C::ListCommands => Ok(COMMANDS.join("\n")),
            C::Quit => {
                self.quit = true;
                Ok(String::new())
            }
            C::BoardSize(n) => e.set_board_size(n).map(|_| String::new()).map_err(fail),
            C::ClearBoard => {
                e.clear_board();
                Ok(String::new())
            }
            C::Komi(k) => {
                e.set_komi(k);
                Ok(String::new())
            }
            C::Play(color, mv) => e.play(color, mv).map(|_| String::new()).map_err(fail),
            C::Genmove(color) => genmove(e, self.reporting, color, true, false),
            C::RegGenmove(color) => genmove(e, self.reporting, color, false, false),
            C::GenmoveCleanup(color) => genmove(e, self.reporting, color, true, true),
            C::Undo => e.undo().map(|_| String::new()).map_err(fail),
            C::FixedHandicap(n) => e.fixed_handicap(n).map(join).map_err(fail),
            C::PlaceFreeHandicap(n) => e.place_free_handicap(n).map(join).map_err(fail),
            C::SetFreeHandicap(stones) => e
                .set_free_handicap(&stones)
                .map(|_| String::new())
                .map_err(fail),
            C::TimeSettings(system) => {
                e.set_time_system(system);
                Ok(String::new())
            }
            C::TimeLeft {
                color,
                seconds,
                stones,
            } => {
                e.set_time_left(color, seconds, stones);
                Ok(String::new())
            }
            C::FinalScore => Ok(format_score(e.final_score())),
            C::FinalStatusList(status) => Ok(e
                .final_status_list(status)
                .into_iter()
                .map(join)
                .collect::<Vec<_>>()
                .join("\n")),
            C::LoadSgf { path, before } => e
                .load_sgf(&resolve(&self.file_root, &path)?, before)
                .map(|_| String::new())
                .map_err(fail),
            C::PrintSgf(None) => Ok(e.sgf()),
            C::PrintSgf(Some(path)) => e
                .save_sgf(&resolve(&self.file_root, &path)?)
                .map(|_| String::new())
                .map_err(fail),
            C::ShowBoard => Ok(showboard(e)),
            C::CgosGameOver => Ok(String::new()),
            C::ShowWeights => e
                .weights()
                .map(|w| w.describe())
                .ok_or_else(|| "this engine has no weights (use --engine mcts)".to_string()),
            C::BestMoves => e
                .analysis()
                .map(|s| gfx_best_moves(&s, false))
                .map_err(fail),
            C::PrincipalVariation => e
                .analysis()
                .map(|s| match (s.best(), s.color) {
                    (Some(b), Some(c)) => var_moves(c, &b.pv),
                    _ => String::new(),
                })
                .map_err(fail),
            C::Ownership => {
                let own = e.ownership();
                Ok(format!(
                    "INFLUENCE {}",
                    own.iter()
                        .map(|(c, o)| format!("{c} {o:.2}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                ))
            }
            C::LzAnalyze { .. } | C::LzGenmoveAnalyze { .. } => {
                unreachable!("streamed commands are handled before execute")
            }
            C::TableStats => match e.table() {
                Some(t) => Ok(table_stats(t)),
                None => Err("no best-move table in use (the engine was started with --no-table or without a search)".into()),
            },
            C::ClearTree => {
                e.clear_tree();
                Ok(String::new())
            }
            C::TablePv { gfx } => e
                .marked_pv()
                .map(|pv| {
                    let text = marked_line(&pv);
                    if gfx {
                        let color = e.game().to_move();
                        let moves: Vec<Move> = pv.iter().map(|(m, _)| *m).collect();
                        format!("VAR {}\nTEXT {text}", var_moves(color, &moves))
                    } else {
                        text
                    }
                })
                .map_err(fail),
            C::OwlAttack(mv) | C::OwlDefend(mv) => {
                let at = on_board(e, mv)?;
                let role = if matches!(cmd, C::OwlAttack(_)) {
                    crate::tsumego::Role::Attacker
                } else {
                    crate::tsumego::Role::Defender
                };
                let a = e.owl(&self.tsumego, &[at], role).map_err(fail)?;
                Ok(owl_text(&a))
            }
            C::OwlAttackChains {
                ref at,
                ref captured,
            }
            | C::OwlDefendChains {
                ref at,
                ref captured,
            } => {
                let at = all_on_board(e, at)?;
                let mut settings = self.tsumego.clone();
                settings.captured = all_on_board(e, captured)?;
                let role = if matches!(cmd, C::OwlAttackChains { .. }) {
                    crate::tsumego::Role::Attacker
                } else {
                    crate::tsumego::Role::Defender
                };
                let a = e.owl(&settings, &at, role).map_err(fail)?;
                Ok(owl_text(&a))
            }
            C::Attack(mv) | C::Defend(mv) => {
                let at = on_board(e, mv)?;
                let role = if matches!(cmd, C::Attack(_)) {
                    crate::tsumego::Role::Attacker
                } else {
                    crate::tsumego::Role::Defender
                };
                let r = e.string_tactics(at, role).map_err(fail)?;
                Ok(tactic_text(e.game().board(), &r))
            }
            C::OwlDoesAttack(mv, group) | C::OwlDoesDefend(mv, group) => {
                let (mv, at) = (on_board(e, mv)?, on_board(e, group)?);
                let role = if matches!(cmd, C::OwlDoesAttack(..)) {
                    crate::tsumego::Role::Attacker
                } else {
                    crate::tsumego::Role::Defender
                };
                let r = e.owl_does(&self.tsumego, mv, at, role).map_err(fail)?;
                Ok(r.map_or("unknown".to_string(), |r| owl_code(r).to_string()))
            }
            C::DragonStatus(mv) => {
                let at = on_board(e, mv)?;
                e.dragon_status(&self.tsumego, at).map(dragon_text).map_err(fail)
            }
            C::TsumegoSolve {
                ref at,
                first,
                level,
            } => {
                let at = all_on_board(e, at)?;
                let (prob, a) = e.tsumego_solve(&self.tsumego, &at, first, level).map_err(fail)?;
                Ok(solve_text(&prob, &a))
            }
            C::TsumegoGenmove(color) => {
                let (prob, a) = e.tsumego_genmove(&self.tsumego, color).map_err(fail)?;
                if self.reporting.verbose {
                    eprintln!("tsumego_genmove: {}", solve_text(&prob, &a));
                }
                Ok(match (a.owl.result, a.owl.mv) {
                    (Some(r), Some(m)) if r.succeeds() => m.to_string(),
                    _ => "pass".to_string(),
                })
            }
            C::TsumegoVar { at, first } => {
                let at = on_board(e, at)?;
                let (_, a) = e.tsumego_solve(&self.tsumego, &[at], Some(first), None).map_err(fail)?;
                Ok(join(a.owl.line.iter().map(|(_, m)| *m)))
            }
            C::TsumegoGfx(at) => {
                let at = on_board(e, at)?;
                let (prob, a) = e.tsumego_solve(&self.tsumego, &[at], None, None).map_err(fail)?;
                let moves: Vec<Move> = a.owl.line.iter().map(|(_, m)| *m).collect();
                let mut out = String::new();
                if !moves.is_empty() {
                    out.push_str(&format!("VAR {}\n", var_moves(a.first, &moves)));
                }
                out.push_str(&format!("TEXT {}", solve_text(&prob, &a)));
                Ok(out)
            }
            C::TsumegoRegion(ref pts) | C::TsumegoSafe(ref pts) => {
                let mut v = Vec::new();
                for &m in pts {
                    v.push(on_board(e, m)?);
                }
                let s = &mut self.tsumego;
                if matches!(cmd, C::TsumegoRegion(_)) {
                    s.region = v;
                } else {
                    s.safe = v;
                }
                Ok(String::new())
            }
            C::TsumegoLimit {
                nodes,
                secs,
                level,
                repetition,
                threats,
            } => {
                let s = &mut self.tsumego;
                if let Some(n) = nodes {
                    s.opts.max_nodes = n;
                }
                if let Some(t) = secs {
                    s.opts.time = (t > 0.0).then(|| std::time::Duration::from_secs_f64(t));
                }
                if let Some(l) = level {
                    s.opts.level = l;
                }
                if let Some(r) = repetition {
                    s.opts.repetition = r;
                }
                if let Some(t) = threats {
                    s.opts.threats = t;
                }
                Ok(format!(
                    "nodes {} time {} level {} region {} safe {} repetition {} threats {}",
                    s.opts.max_nodes,
                    s.opts.time.map_or(0.0, |t| t.as_secs_f64()),
                    s.opts.level,
                    if s.region.is_empty() {
                        "detect".to_string()
                    } else {
                        format!("{} points", s.region.len())
                    },
                    s.safe.len(),
                    clap::ValueEnum::to_possible_value(&s.opts.repetition)
                        .map_or(String::new(), |v| v.get_name().to_string()),
                    s.opts
                        .threats
                        .map_or("auto".to_string(), |[b, w]| format!("{b},{w}"))
                ))
            }
            C::AnalyzeCommands => Ok(ANALYZE_COMMANDS.into()),
            C::IsLegal(color, mv) => {
                on_board(e, mv)?;
                Ok(if e.game().is_legal(color, mv) {
                    "1"
                } else {
                    "0"
                }
                .into())
            }
            C::AllLegal(color) => Ok(join(scan_order(e.game().legal_points(color)))),
            C::ListStones(color) => Ok(join(scan_order(e.game().board().stones(color).collect()))),
            C::CountLib(mv) => {
                let c = on_board(e, mv)?;
                let b = e.game().board();
                let p = b.point(c);
                if b.cell(p).color().is_none() {
                    return Err(format!("vertex {c} must not be empty"));
                }
                Ok(b.liberties(p).to_string())
            }
            C::Captures(color) => Ok(e.game().board().captures(color).to_string()),
        }
    }
}

pub(super) fn scan_order(mut v: Vec<Coord>) -> Vec<Coord> {
    crate::rules::handicap::sort_scan_order(&mut v);
    v
}

/// The coordinate of a stone-vertex on the current board, or an error for
/// `pass` and for vertices off the board.
pub(super) fn all_on_board(e: &Engine, mvs: &[Move]) -> Result<Vec<Coord>, String> {
    mvs.iter().map(|&m| on_board(e, m)).collect()
}

pub(super) fn on_board(e: &Engine, mv: Move) -> Result<Coord, String> {
    let size = e.game().size();
    match mv {
        Move::Play(c) if c.on_board(size) => Ok(c),
        Move::Play(c) => Err(format!(
            "invalid coordinate: {c} is off the {size}x{size} board"
        )),
        Move::Pass => Err("invalid coordinate: pass is not a point".into()),
    }
}

/// The file a `loadsgf`/`printsgf` path names: below `root` when one is
/// set, and then only relative paths without `..`.
pub(super) fn resolve(root: &Option<PathBuf>, path: &Path) -> Result<PathBuf, String> {
    match root {
        None => Ok(path.to_path_buf()),
        Some(root) => {
            let ok = path
                .components()
                .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
            if ok {
                Ok(root.join(path))
            } else {
                Err(format!(
                    "cannot load file: '{}' is outside the allowed directory: use a relative path without '..'",
                    path.display()
                ))
            }
        }
    }
}

pub(super) fn genmove(
    e: &mut Engine,
    reporting: Reporting,
    color: Color,
    commit: bool,
    cleanup: bool,
) -> Answer {
    let started = std::time::Instant::now();
    let answer = e.genmove_with(color, commit, cleanup, None, &mut |s| reporting.snapshot(s));
    if let (Ok(choice), Some(r)) = (&answer, e.last_search()) {
        reporting.genmove(color, *choice, r, started.elapsed(), e.has_table());
    }
    match answer {
        Ok(Genmove::Move(mv)) => Ok(mv.to_string()),
        Ok(Genmove::Resign) => Ok("resign".into()),
        Err(err) => Err(error_text(&err)),
    }
}
