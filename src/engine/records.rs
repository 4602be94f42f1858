//! Game records: loading a position from an SGF file and writing the game.

use super::*;

impl Engine {
    /// Loads an SGF file and sets up the position before move `before`
    /// (1-based; `None` replays the whole main line). Board size and komi
    /// come from the file (komi is kept if the file has no KM). On error
    /// the current game is left unchanged.
    pub fn load_sgf(&mut self, path: &Path, before: Option<usize>) -> Result<(), EngineError> {
        let rec = sgf::read_file(path)?;
        let komi = rec.komi.unwrap_or(self.game.komi());
        let mut game = Game::new(rec.size, komi, self.config.rules)?;
        game.setup_stones(&rec.setup).map_err(|e| match e {
            PlayError::OffBoard(coord) => EngineError::BadSetup {
                path: path.to_path_buf(),
                coord,
            },
            other => other.into(),
        })?;
        game.set_handicap_count(rec.handicap);
        if let Some(c) = rec.to_play {
            game.set_to_move(c);
        } else if rec.handicap > 0 && rec.moves.is_empty() {
            game.set_to_move(Color::White);
        }
        let limit = before.map_or(rec.moves.len(), |n| n.saturating_sub(1));
        for (i, &(color, mv)) in rec.moves.iter().enumerate() {
            if i >= limit {
                // The side to move is the colour of move `before`.
                game.set_to_move(color);
                break;
            }
            game.play(color, mv)
                .map_err(|why| EngineError::IllegalRecordMove {
                    path: path.to_path_buf(),
                    number: i + 1,
                    color,
                    mv,
                    why,
                })?;
        }
        self.game = game;
        self.player().new_game();
        Ok(())
    }

    /// The game as SGF text.
    pub fn sgf(&self) -> String {
        sgf::write(&self.game)
    }

    /// Writes the game as an SGF file.
    pub fn save_sgf(&self, path: &Path) -> Result<(), EngineError> {
        std::fs::write(path, self.sgf() + "\n").map_err(|source| EngineError::Write {
            path: path.to_path_buf(),
            source,
        })
    }
}
