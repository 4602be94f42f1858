//! The reports on hand-made answers to a GoTools problem.

use std::time::Duration;

use super::*;
use crate::rules::Color;
use crate::tsumego::{Counters, KoWin, OwlAnswer, gotools};

/// A GoTools problem: White lives moving first (key move BA, effort 5),
/// dies when Black moves first (key move BA). Its two marks are on one
/// chain.
const P1: &str = "\
$ P1
?DAAEA?AB?BB?CB?DBAEBAACABCACCADCAEC[AB][DB]
?+l#5 3 1 40.00 4 ?? 0 255 :BA:
?-d#7 :AA@@:
A+d#9 3 1 0.00 2 ?? 0 255 :BAAA:
";

fn problem() -> (FileProblem, Problem) {
    let fp = gotools::parse(P1, "sample").unwrap().remove(0);
    let prob = fp.problem(48).unwrap();
    (fp, prob)
}

/// An answer of `first` with `status`, succeeding with `mv` or failing.
fn answer(first: Color, status: Status, mv: Option<Move>, nodes: u64) -> SideAnswer {
    let result = Some(match (status, mv) {
        (Status::Ko(k), _) => OwlResult::Ko(k),
        (_, Some(_)) => OwlResult::Succeeds,
        (_, None) => OwlResult::Fails,
    });
    let counters = Counters {
        leaves: nodes / 2,
        nodes,
        ..Counters::default()
    };
    SideAnswer {
        first,
        status,
        owl: OwlAnswer {
            result,
            ko: None,
            ko_open: None,
            superko: false,
            per_move: mv.map(|m| (m, 3)).into_iter().collect(),
            mv,
            line: mv.map(|m| (first, m)).into_iter().collect(),
            counters,
            elapsed: Duration::from_millis(250),
        },
        counters,
        elapsed: Duration::from_millis(250),
    }
}

/// The file's answers, solved as the file says.
fn agreeing(fp: &FileProblem) -> Sides {
    let key = fp.succeeding_moves(true)[0];
    Sides {
        defender_first: Some(answer(Color::White, Status::Alive, Some(key), 10)),
        attacker_first: Some(answer(Color::Black, Status::Dead, Some(key), 20)),
    }
}

#[test]
fn one_answer_as_json() {
    let (fp, prob) = problem();
    let key = fp.succeeding_moves(true)[0];
    let sol = Sides {
        defender_first: Some(answer(Color::White, Status::Alive, Some(key), 10)),
        attacker_first: None,
    };
    let listed = vec![(key, Some(true))];
    let text = problem_json(&fp, &prob, &sol, &listed, Some(true));
    assert!(
        text.starts_with(r#"{"source":"sample:1 (P1)","name":"P1","defender":"white","region":"#),
        "{text}"
    );
    let j: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(j["crucial"], serde_json::json!(["AB"]));
    let d = &j["defender_first"];
    assert_eq!(d["mover"], "white");
    assert_eq!(d["status"], "alive");
    assert_eq!(d["code"], 1);
    assert_eq!(d["gotools"], "l");
    assert_eq!(d["move"], key.to_string());
    assert_eq!(d["line"], format_line(&[(Color::White, key)]));
    assert_eq!(
        (d["leaves"].clone(), d["line_leaves"].clone()),
        (5.into(), 3.into())
    );
    assert_eq!(d["ms"], 250.0);
    assert_eq!(d["expected"]["status"], "l");
    assert_eq!(d["expected"]["class"], "lives");
    assert_eq!(d["expected"]["effort"], 5);
    assert_eq!(
        d["expected"]["succeeding"],
        serde_json::json!([key.to_string()])
    );
    assert_eq!(
        (&d["agrees"], &d["agrees_exactly"], &d["move_listed"]),
        (&true.into(), &true.into(), &true.into())
    );
    assert!(j["attacker_first"].is_null());
    assert_eq!(
        j["listed_moves"],
        serde_json::json!([{ "move": key.to_string(), "succeeds": true }])
    );
    assert_eq!(j["agrees"], true);
}

#[test]
fn the_agreement_is_tallied_over_answers() {
    let (fp, prob) = problem();
    let key = fp.succeeding_moves(true)[0];
    let mut sum = Summary::new(1);
    // Both movers as the file says.
    assert_eq!(sum.add(&fp, &prob, &agreeing(&fp), &Vec::new()), Some(true));
    // White first found dead: the class disagrees, no key move to judge.
    let wrong = Sides {
        defender_first: Some(answer(Color::White, Status::Dead, None, 4)),
        attacker_first: Some(answer(Color::Black, Status::Dead, Some(key), 6)),
    };
    assert_eq!(sum.add(&fp, &prob, &wrong, &Vec::new()), Some(false));
    // Black first unknown: the problem counts as not agreeing.
    let unknown = Sides {
        defender_first: Some(answer(Color::White, Status::Alive, Some(key), 2)),
        attacker_first: Some(SideAnswer {
            status: Status::Unknown,
            owl: OwlAnswer {
                result: None,
                ..answer(Color::Black, Status::Dead, None, 0).owl
            },
            ..answer(Color::Black, Status::Dead, None, 0)
        }),
    };
    assert_eq!(sum.add(&fp, &prob, &unknown, &Vec::new()), Some(false));
    sum.add_error();
    let expect = Summary {
        problems: 4,
        errors: 1,
        solved: 2,
        unknown: 1,
        with_answer: 3,
        agreeing: 1,
        answers: 6,
        class_agree: 4,
        exact_agree: 4,
        moves_judged: 4,
        moves_listed: 4,
        effort: Counters {
            leaves: 5 + 10 + 2 + 3 + 1,
            nodes: 10 + 20 + 4 + 6 + 2,
            ..Counters::default()
        },
        solver_ms: 6.0 * 250.0,
        level: 1,
        ..Summary::default()
    };
    assert_eq!(sum, expect);
}

#[test]
fn the_summary_and_answer_texts() {
    let sum = Summary {
        problems: 3,
        errors: 1,
        solved: 2,
        with_answer: 2,
        agreeing: 1,
        answers: 3,
        class_agree: 2,
        exact_agree: 1,
        moves_judged: 2,
        moves_listed: 1,
        effort: Counters {
            leaves: 40,
            terminals: 90,
            nodes: 120,
            checked: 7,
            check_unknown: 1,
            checked_region: 2,
            checked_walled_in: 3,
            ..Counters::default()
        },
        solver_ms: 1234.0,
        wall_ms: 2500.0,
        level: 2,
        ..Summary::default()
    };
    assert_eq!(
        sum.line(),
        "summary: 3 problems, 2 solved, 0 unknown, 1 errors; 2 with an answer in the file, 1 agree; \
         3 answers per mover: class 2 agree, exactly (ko type) 1, key move listed 1 of 2; \
         leaves 40 (terminal tests 90), nodes 120, solver time 1.2 s, wall 2.5 s (level 2)"
    );
    assert_eq!(
        sum.check_line(),
        "check: 7 static verdicts checked (2 by the region game, 3 by the walled-in test), 1 unsettled by the check search, 0 contradictions"
    );
    assert!(
        sum.json()
            .starts_with(r#"{"summary":{"agreeing":1,"answers":3,"check_unknown":1,"#),
        "{}",
        sum.json()
    );

    let (fp, prob) = problem();
    let key = fp.succeeding_moves(true)[0];
    let sol = agreeing(&fp);
    let listed = vec![(key, Some(false)), (Move::Pass, None)];
    assert_eq!(
        problem_line(&fp, &prob, &sol, &listed, Some(true)),
        format!(
            "P1         white defends. defender first: {:<12} attacker first: {:<12} leaves       15 nodes       30 tt       0    500.0 ms  agrees (listed correct: {key} FAILS, PASS unjudged)",
            format!("alive {key}"),
            format!("dead {key}"),
        )
    );
    let ko = answer(Color::Black, Status::Ko(KoWin::TakenFirst), Some(key), 1);
    assert_eq!(describe(&ko), format!("ko2 {key}"));
    // A ko whose type a limit left open: the class agrees, the type
    // cannot, and the letters say what is known.
    let d2 = KoType {
        defender_lives: false,
        threats: 2,
    };
    let open = SideAnswer {
        owl: OwlAnswer {
            ko_open: Some(d2),
            ..ko.owl.clone()
        },
        ..ko.clone()
    };
    assert_eq!(describe(&open), format!("d2+l {key}"));
    assert!(Expect::Ko(d2).agrees(open.status));
    assert!(!Expect::Ko(d2).agrees_exactly(&open));
    assert_eq!(Expect::of(&open), None);
    assert_eq!(listed_text(&Vec::new()), "");
}
