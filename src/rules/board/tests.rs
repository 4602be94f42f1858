use super::*;

fn at(b: &Board, s: &str) -> Point {
    match s.parse::<super::super::Move>().unwrap() {
        super::super::Move::Play(c) => b.point(c),
        _ => panic!(),
    }
}

fn play(b: &mut Board, color: Color, s: &str) {
    let p = at(b, s);
    b.play(p, color).unwrap();
    b.check_consistency().unwrap();
}

#[test]
fn capture_in_the_corner() {
    let mut b = Board::new(9);
    play(&mut b, Color::White, "A1");
    play(&mut b, Color::Black, "A2");
    assert_eq!(b.liberties(at(&b, "A1")), 1);
    play(&mut b, Color::Black, "B1");
    assert_eq!(b.stone_at(Coord::new(0, 0)), None);
    assert_eq!(b.captures(Color::Black), 1);
    assert_eq!(b.num_empty(), 79);
}

#[test]
fn simple_ko_is_forbidden_for_the_opponent_only() {
    let mut b = Board::new(9);
    // Black: B1 A2 C2 B3? Build a ko around B2/C2.
    for s in ["B1", "A2", "B3"] {
        play(&mut b, Color::Black, s);
    }
    for s in ["C1", "D2", "C3"] {
        play(&mut b, Color::White, s);
    }
    play(&mut b, Color::White, "B2");
    play(&mut b, Color::Black, "C2"); // captures B2
    assert_eq!(b.stone_at(Coord::new(1, 1)), None);
    let ko = b.ko().expect("ko");
    assert_eq!(ko.point, at(&b, "B2"));
    assert_eq!(b.check(at(&b, "B2"), Color::White), Err(BoardError::Ko));
    assert!(b.is_legal(at(&b, "B2"), Color::Black));
    b.pass();
    assert!(b.is_legal(at(&b, "B2"), Color::White));
}

#[test]
fn suicide_is_illegal_unless_allowed() {
    let mut b = Board::new(5);
    play(&mut b, Color::Black, "A2");
    play(&mut b, Color::Black, "B1");
    assert_eq!(
        b.check(at(&b, "A1"), Color::White),
        Err(BoardError::Suicide)
    );
    // own single-stone "suicide" filling an own eye is fine: it has libs
    assert!(b.is_legal(at(&b, "A1"), Color::Black));
    b.set_allow_suicide(true);
    play(&mut b, Color::White, "A1");
    assert_eq!(b.stone_at(Coord::new(0, 0)), None);
    assert_eq!(b.captures(Color::Black), 1);
}

#[test]
fn merges_count_shared_liberties_once() {
    let mut b = Board::new(9);
    play(&mut b, Color::Black, "D4");
    play(&mut b, Color::Black, "F4");
    play(&mut b, Color::Black, "E5");
    play(&mut b, Color::Black, "E4");
    assert_eq!(b.chain_len(at(&b, "E4")), 4);
    assert_eq!(b.liberties(at(&b, "E4")), 8);
    play(&mut b, Color::White, "E3");
    assert_eq!(b.liberties(at(&b, "E4")), 7);
}

#[test]
fn eyes() {
    let mut b = Board::new(9);
    for s in ["A2", "B1", "B2"] {
        play(&mut b, Color::Black, s);
    }
    assert!(b.is_true_eye(at(&b, "A1"), Color::Black));
    play(&mut b, Color::Black, "E4");
    play(&mut b, Color::Black, "D5");
    play(&mut b, Color::Black, "F5");
    play(&mut b, Color::Black, "E6");
    let e5 = at(&b, "E5");
    assert!(b.is_true_eye(e5, Color::Black));
    play(&mut b, Color::White, "D4");
    assert!(b.is_true_eye(e5, Color::Black));
    play(&mut b, Color::White, "F6");
    assert!(!b.is_true_eye(e5, Color::Black));
}

#[test]
fn area_counts_regions() {
    let mut b = Board::new(3);
    play(&mut b, Color::Black, "B1");
    play(&mut b, Color::Black, "B2");
    play(&mut b, Color::Black, "B3");
    assert_eq!(b.area(), (9, 0));
    play(&mut b, Color::White, "C2");
    assert_eq!(b.area(), (6, 1));
}

#[test]
fn copy_from_equals_clone() {
    let mut big = Board::new(19);
    play(&mut big, Color::Black, "Q16");
    let mut b = Board::new(9);
    play(&mut b, Color::Black, "E5");
    play(&mut b, Color::White, "E6");
    big.copy_from(&b);
    assert_eq!(big.size(), 9);
    assert_eq!(big.hash(), b.hash());
    big.check_consistency().unwrap();
    assert_eq!(big.render(), b.render());
}

/// With the points of a corner last in the empty-point list, moves and
/// captures in the corner leave the list's first places alone, and a copy
/// of the corner's window and of the list's tail equals a full copy.
#[test]
fn a_window_copy_with_the_corner_last_in_the_list_equals_a_full_copy() {
    let mut root = Board::new(9);
    for (c, s) in [
        (Color::Black, "E5"),
        (Color::White, "D4"),
        (Color::Black, "C4"),
    ] {
        play(&mut root, c, s);
    }
    let corner = |b: &Board, p: Point| {
        let c = b.coord(p);
        c.x < 3 && c.y < 3
    };
    let probe = root.clone();
    let list_from = root.empties_last(|p| corner(&probe, p));
    root.check_consistency().unwrap();
    assert_eq!(list_from, root.num_empty() - 9);
    let head: Vec<Point> = root.empty_slice()[..list_from].to_vec();
    // Slots 0 to the highest corner point's neighbour hold the window.
    let window = 0..at(&root, "D4").idx() + 1;
    let (mut parent, mut child) = (root.clone(), root.clone());
    // The last move captures White's two stones at A1 and B1.
    for (c, s) in [
        (Color::White, "A1"),
        (Color::Black, "C1"),
        (Color::White, "B1"),
        (Color::Black, "B2"),
        (Color::White, "A3"),
        (Color::Black, "A2"),
    ] {
        let p = at(&parent, s);
        child.copy_window_from(&parent, window.clone(), list_from);
        child.play(p, c).unwrap();
        let mut full = parent.clone();
        full.play(p, c).unwrap();
        assert!(child.same_state(&full), "after {s}");
        child.check_consistency().unwrap();
        assert_eq!(child.empty_slice()[..list_from], head[..]);
        parent = child.clone();
    }
    assert_eq!(parent.stone_at(Coord::new(0, 0)), None);
}
