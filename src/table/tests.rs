use super::*;
use crate::rules::Coord;

/// A table path in a fresh scratch folder, removed when the guard drops
/// (also when the test fails).
fn temp(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::Builder::new()
        .prefix(&format!("tengen-table-{name}-"))
        .tempdir()
        .unwrap();
    let path = dir.path().join("t.table");
    (dir, path)
}

fn open_new(path: &Path, entries: u64) -> Arc<Table> {
    Table::open(
        path,
        OpenMode {
            create: Some((entries, Scope::default())),
            read_only_if_busy: false,
            read_only: false,
        },
    )
    .unwrap()
}

#[test]
fn entries_round_trip_and_are_checked() {
    for (mv, visits, depth) in [(0u16, 1u64, 0u32), (1023, 1 << 40, 400), (200, 777, 3)] {
        let e = Entry::new(0x1234_5678_9abc_def0 ^ mv as u64, mv, visits, depth);
        let d = e.pack();
        assert_eq!(Entry::unpack(e.key, d), Some(e));
        // Any single-bit change of the key or the data is caught.
        for bit in 0..32 {
            assert_eq!(Entry::unpack(e.key, d ^ (1 << bit)), None, "data bit {bit}");
        }
    }
    assert_eq!(quality_of(1), 0);
    assert_eq!(quality_of(2), 2);
    assert_eq!(quality_of(1000), 19);
    assert_eq!(depth_class(0), 0);
    assert_eq!(depth_class(1), 1);
    assert_eq!(depth_class(3), 2);
    assert_eq!(depth_class(u32::MAX), 15);
}

#[test]
fn header_round_trips_and_mismatches_are_named() {
    let h = Header::new(1 << 12, Scope::of(9, 7.0, Rules::default()));
    let b = h.encode();
    assert_eq!(Header::decode(&b).unwrap(), h);
    let mut v = b.clone();
    v[8] = 9;
    assert!(Header::decode(&v).unwrap_err().contains("version 9"));
    let mut m = b.clone();
    m[0] = b'X';
    assert!(Header::decode(&m).unwrap_err().contains("magic"));
    let mut c = b.clone();
    c[20] ^= 1;
    assert!(Header::decode(&c).unwrap_err().contains("checksum"));
    assert!(Header::decode(&b[..100]).unwrap_err().contains("truncated"));
}

#[test]
fn store_probe_and_replacement_rule() {
    let (_dir, path) = temp("store");
    let t = open_new(&path, 1 << 10);
    let key = 0xdead_beef_0000_0001u64;
    assert_eq!(t.probe(key), None);
    let shallow = Entry::new(key, 50, 4096, 0);
    assert_eq!(t.store(shallow, 2.0), StoreOutcome::Inserted);
    assert_eq!(t.probe(key), Some(shallow));
    // A weaker, deeper result does not overwrite it.
    let weak = Entry::new(key, 51, 64, 20);
    assert_eq!(t.store(weak, 2.0), StoreOutcome::Kept);
    assert_eq!(t.probe(key).unwrap().mv, 50);
    // A better one does.
    let strong = Entry::new(key, 52, 1 << 14, 0);
    assert_eq!(t.store(strong, 2.0), StoreOutcome::Updated);
    assert_eq!(t.probe(key).unwrap().mv, 52);
    // Fill the bucket with other keys of the same bucket (same top bits).
    for i in 2..=4u64 {
        let e = Entry::new(key ^ (i << 8), 60, 1 << 10, 1);
        assert_eq!(t.store(e, 2.0), StoreOutcome::Inserted);
    }
    // A fifth key of the bucket replaces the weakest only if better.
    let low = Entry::new(key ^ (9 << 8), 61, 2, 8);
    assert_eq!(t.store(low, 2.0), StoreOutcome::Kept);
    let high = Entry::new(key ^ (9 << 8), 61, 1 << 12, 0);
    assert_eq!(t.store(high, 2.0), StoreOutcome::Replaced);
    assert_eq!(t.probe(key ^ (9 << 8)), Some(high));
    assert_eq!(t.probe(key).unwrap().mv, 52, "the strongest entry survives");
}

#[test]
fn torn_entries_read_as_stale_and_verify_counts_them() {
    let (_dir, path) = temp("torn");
    let t = open_new(&path, 1 << 10);
    let a = Entry::new(0x0101_0101_0101_0101, 40, 100, 1);
    let b = Entry::new(0x0101_0101_0101_0101 ^ 0xff00_ff00, 41, 300, 2);
    t.store(a, 2.0);
    // Tear the slot: the data word of b with the key words of a.
    let slot = &t.bucket(a.key)[0];
    slot.data.store(b.pack(), Relaxed);
    assert_eq!(slot.read(), SlotState::Stale);
    assert_eq!(t.probe(a.key), None);
    assert_eq!(t.probe(b.key), None);
    let r = t.verify(false);
    assert_eq!((r.stale, r.used), (1, 0));
    let r = t.verify(true);
    assert_eq!(r.fixed, 1);
    assert_eq!(t.verify(false).bad(), 0);
}

#[test]
fn bad_files_give_clear_errors() {
    let (_dir, path) = temp("bad");
    let mode = OpenMode {
        create: None,
        read_only_if_busy: false,
        read_only: false,
    };
    std::fs::write(&path, b"random bytes, not a table").unwrap();
    let e = Table::open(&path, mode).err().unwrap().to_string();
    assert!(e.contains("t.table") && e.contains("header"), "{e}");
    std::fs::write(&path, vec![0x5au8; 9000]).unwrap();
    let e = Table::open(&path, mode).err().unwrap().to_string();
    assert!(e.contains("magic"), "{e}");
    Table::create(&path, 1 << 10, Scope::default(), true).unwrap();
    let f = OpenOptions::new().write(true).open(&path).unwrap();
    f.set_len(file_bytes(1 << 10) - 12).unwrap();
    let e = Table::open(&path, mode).err().unwrap().to_string();
    assert!(e.contains("truncated"), "{e}");
    assert!(Table::create(&path, 1 << 10, Scope::default(), false).is_err());
    assert!(matches!(
        Table::create(&path, 1000, Scope::default(), true),
        Err(TableError::Entries(1000))
    ));
}

#[test]
fn a_second_writer_gets_read_only_or_busy() {
    let (_dir, path) = temp("lock");
    let first = open_new(&path, 1 << 10);
    assert!(first.read_only().is_none());
    let ro = Table::open(
        &path,
        OpenMode {
            create: None,
            read_only_if_busy: true,
            read_only: false,
        },
    )
    .unwrap();
    assert!(ro.read_only().is_some());
    let e = Entry::new(77 << 40, 33, 500, 0);
    assert_eq!(ro.store(e, 2.0), StoreOutcome::ReadOnly);
    first.store(e, 2.0);
    assert_eq!(
        ro.probe(e.key),
        Some(e),
        "the reader sees the writer's entries"
    );
    let busy = Table::open(
        &path,
        OpenMode {
            create: None,
            read_only_if_busy: false,
            read_only: false,
        },
    );
    assert!(matches!(busy, Err(TableError::Busy { .. })));
    drop(ro);
    drop(first);
    let again = open_new(&path, 1 << 10);
    assert!(!again.was_dirty(), "closed cleanly");
    assert_eq!(again.probe(e.key), Some(e), "entries persist");
}

#[test]
fn keys_separate_komi_and_rules_and_moves_are_checked() {
    let b = Board::new(9);
    let r = Rules::default();
    let k = key(&b, Color::Black, 7.0, r);
    assert_ne!(k, key(&b, Color::White, 7.0, r));
    assert_ne!(k, key(&b, Color::Black, 6.5, r));
    let other = Rules {
        allow_suicide: true,
        ..r
    };
    assert_ne!(k, key(&b, Color::Black, 7.0, other));
    assert_ne!(k, key(&Board::new(13), Color::Black, 7.0, r));
    let e5 = b.point(Coord::new(4, 4));
    assert!(playable(&b, Color::Black, e5.0));
    assert!(playable(&b, Color::Black, PASS));
    assert!(!playable(&b, Color::Black, 1), "border point");
    assert!(!playable(&b, Color::Black, 1023), "outside the board");
    let s = Scope::of(9, 7.0, r);
    assert!(s.mismatch(9, 7.0, r).is_none());
    assert!(s.mismatch(19, 7.0, r).unwrap().contains("19x19"));
    assert!(s.mismatch(9, 6.5, r).unwrap().contains("6.5"));
}
