//! Area scoring and the text rendering of a board.

use super::*;

impl Board {
    /// Tromp-Taylor area on this board: (black points, white points). A
    /// point counts for a colour if it holds that colour's stone, or if it is
    /// empty and reaches stones of that colour only.
    pub fn area(&self) -> (usize, usize) {
        let owner = self.area_owner();
        let b = owner.iter().filter(|o| **o == Some(Color::Black)).count();
        let w = owner.iter().filter(|o| **o == Some(Color::White)).count();
        (b, w)
    }

    /// Owner of every playable point (in [`Board::points`] order) under
    /// Tromp-Taylor area rules; `None` for dame.
    pub fn area_owner(&self) -> Vec<Option<Color>> {
        let mut region_owner = vec![None; self.geo.num_points];
        let mut done = PointSet::new();
        for &p in self.points() {
            match self.cells[p.idx()] {
                Cell::Black => region_owner[p.idx()] = Some(Color::Black),
                Cell::White => region_owner[p.idx()] = Some(Color::White),
                _ => {
                    if done.contains(p) {
                        continue;
                    }
                    let mut region = Vec::new();
                    let mut stack = vec![p];
                    done.insert(p);
                    let (mut black, mut white) = (false, false);
                    while let Some(s) = stack.pop() {
                        region.push(s);
                        for n in self.neighbors(s) {
                            match self.cells[n.idx()] {
                                Cell::Empty => {
                                    if done.insert(n) {
                                        stack.push(n);
                                    }
                                }
                                Cell::Black => black = true,
                                Cell::White => white = true,
                                Cell::Border => {}
                            }
                        }
                    }
                    let owner = match (black, white) {
                        (true, false) => Some(Color::Black),
                        (false, true) => Some(Color::White),
                        _ => None,
                    };
                    for s in region {
                        region_owner[s.idx()] = owner;
                    }
                }
            }
        }
        self.points()
            .iter()
            .map(|p| region_owner[p.idx()])
            .collect()
    }

    /// A plain-text diagram, White `O`, Black `X`, A1 bottom left.
    pub fn render(&self) -> String {
        let n = self.size();
        let letters: String = (0..n as u8)
            .map(|x| format!(" {}", Coord::column_letter(x)))
            .collect();
        let mut out = format!("   {letters}\n");
        for y in (0..n).rev() {
            out += &format!("{:>2} ", y + 1);
            for x in 0..n {
                let c = match self.stone_at(Coord::new(x as u8, y as u8)) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                };
                out.push(' ');
                out.push(c);
            }
            out += &format!(" {:>2}\n", y + 1);
        }
        out += &format!("   {letters}");
        out
    }
}
