use tengen::rules::{Color, Coord, zobrist::*};
fn main() {
    println!(
        "black_a1 = {:#018x}",
        stone_key(Color::Black, Coord::new(0, 0))
    );
    println!(
        "white_a1 = {:#018x}",
        stone_key(Color::White, Coord::new(0, 0))
    );
    println!(
        "black_t19 = {:#018x}",
        stone_key(Color::Black, Coord::new(18, 18))
    );
    println!(
        "white_z25 = {:#018x}",
        stone_key(Color::White, Coord::new(24, 24))
    );
    println!("side = {:#018x}", KEYS.side);
    println!("ko_e5 = {:#018x}", ko_key(Coord::new(4, 4)));
    println!("size_9 = {:#018x}", size_key(9));
    println!("size_19 = {:#018x}", size_key(19));
    println!("checksum = {:#018x}", zobrist_checksum());
}
