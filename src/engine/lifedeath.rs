//! Life and death on the game's board: the problem around a group, owl
//! reading, the dragon status and the solver's status with one side first.

use super::*;

impl Engine {
    /// The closed-boundary problem around the stone at `at`: the explicit
    /// region of `settings` if one is set, else region detection.
    /// Every chain through `at` is crucial.
    pub fn tsumego_problem(
        &self,
        settings: &crate::tsumego::Settings,
        at: &[Coord],
    ) -> Result<crate::tsumego::Problem, EngineError> {
        let b = self.game.board();
        if let Some(&c) = at.iter().find(|c| !c.on_board(b.size())) {
            return Err(EngineError::Region(crate::tsumego::RegionError::Empty(c)));
        }
        Ok(settings.problem(b, at)?)
    }

    pub(super) fn order_weights(&self) -> crate::tsumego::OrderWeights {
        crate::tsumego::OrderWeights::new(&self.config.weights)
    }

    /// Owl-style reading: can `role`, moving first, kill (attacker) or
    /// save (defender) the group at `at`? With several stones, the attacker
    /// must capture every one of their chains.
    pub fn owl(
        &mut self,
        settings: &crate::tsumego::Settings,
        at: &[Coord],
        role: crate::tsumego::Role,
    ) -> Result<crate::tsumego::OwlAnswer, EngineError> {
        self.stop_background();
        let prob = self.tsumego_problem(settings, at)?;
        let w = self.order_weights();
        let opts = settings.opts;
        Ok(crate::tsumego::with_stack(|| {
            crate::tsumego::owl(&prob, &w, opts, role)
        }))
    }

    /// The group's status as GNU Go's `dragon_status` gives it.
    pub fn dragon_status(
        &mut self,
        settings: &crate::tsumego::Settings,
        at: Coord,
    ) -> Result<crate::tsumego::DragonStatus, EngineError> {
        let attack = self.owl(settings, &[at], crate::tsumego::Role::Attacker)?;
        let defend = self.owl(settings, &[at], crate::tsumego::Role::Defender)?;
        Ok(crate::tsumego::dragon_status(&attack, &defend))
    }

    /// The stones on the board as a book problem, framed
    /// ([`crate::tsumego::frame::solve_open`]) and solved with `color` to
    /// play: the framed problem and the answer (its key move when `color`
    /// reaches its goal).
    pub fn tsumego_genmove(
        &mut self,
        settings: &crate::tsumego::Settings,
        color: Color,
    ) -> Result<(crate::tsumego::Problem, crate::tsumego::SideAnswer), EngineError> {
        self.stop_background();
        let w = self.order_weights();
        let opts = settings.opts;
        let board = self.game.board().clone();
        crate::tsumego::with_stack(|| crate::tsumego::frame::solve_open(&board, color, &w, opts))
            .map_err(|e| EngineError::Region(e.into()))
    }

    /// The status of the group at `at` with `first` moving first (default:
    /// the side to move in the game), seki told apart from life.
    pub fn tsumego_solve(
        &mut self,
        settings: &crate::tsumego::Settings,
        at: &[Coord],
        first: Option<crate::tsumego::Role>,
        level: Option<u8>,
    ) -> Result<(crate::tsumego::Problem, crate::tsumego::SideAnswer), EngineError> {
        self.stop_background();
        let prob = self.tsumego_problem(settings, at)?;
        let w = self.order_weights();
        let mut opts = settings.opts;
        if let Some(l) = level {
            opts.level = l;
        }
        let mover = match first {
            Some(crate::tsumego::Role::Attacker) => prob.attacker(),
            Some(crate::tsumego::Role::Defender) => prob.defender,
            None => self.game.to_move(),
        };
        let ans = crate::tsumego::with_stack(|| crate::tsumego::solve_side(&prob, &w, opts, mover));
        Ok((prob, ans))
    }
}
