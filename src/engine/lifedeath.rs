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
    /// must capture every one of their chains. GNU Go's answer: the code
    /// and the move, without a ko's threat count
    /// ([`crate::tsumego::owl_code`]).
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
            crate::tsumego::owl_code(&prob, &w, opts, role)
        }))
    }

    /// GNU Go's `owl_does_attack`/`owl_does_defend`: does `role`'s move at
    /// `mv` kill (attacker) or save (defender) the group at `at`? The move
    /// is played on a copy of the game (it must be legal), then the other
    /// side moves first on the group's problem (framed if it is not
    /// enclosed); the answer is that reading's result seen from `role`
    /// (`None` when a limit was hit). A move that captures the group
    /// attacks it outright.
    pub fn owl_does(
        &mut self,
        settings: &crate::tsumego::Settings,
        mv: Coord,
        at: Coord,
        role: crate::tsumego::Role,
    ) -> Result<Option<crate::tsumego::OwlResult>, EngineError> {
        use crate::tsumego::{OwlResult, Role};
        self.stop_background();
        let size = self.game.board().size();
        let group = match at.on_board(size) {
            true => self.game.board().stone_at(at),
            false => None,
        };
        let Some(group) = group else {
            return Err(EngineError::Region(crate::tsumego::RegionError::Empty(at)));
        };
        let mover = match role {
            Role::Attacker => group.opponent(),
            Role::Defender => group,
        };
        let mut game = self.game.clone();
        game.play(mover, Move::Play(mv))?;
        let after = game.board();
        if after.stone_at(at) != Some(group) {
            return Ok(Some(match role {
                Role::Attacker => OwlResult::Succeeds,
                Role::Defender => OwlResult::Fails,
            }));
        }
        let prob = settings.problem(after, &[at])?;
        let w = self.order_weights();
        let opts = settings.opts;
        let reply =
            crate::tsumego::with_stack(|| crate::tsumego::owl_code(&prob, &w, opts, role.other()));
        Ok(reply.result.map(OwlResult::reversed))
    }

    /// GNU Go's `attack`/`defend`: string tactics on the game's board. Can
    /// `role` (moving first) capture (attacker) or save (defender) the
    /// chain on `at`? See [`crate::tactics::reading`].
    pub fn string_tactics(
        &self,
        at: Coord,
        role: crate::tsumego::Role,
    ) -> Result<crate::tactics::reading::Reading, EngineError> {
        use crate::tactics::reading;
        let b = self.game.board();
        let p = b.point(at);
        let read = match role {
            crate::tsumego::Role::Attacker => reading::attack(b, p),
            crate::tsumego::Role::Defender => reading::defend(b, p),
        };
        read.ok_or(EngineError::Region(crate::tsumego::RegionError::Empty(at)))
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
