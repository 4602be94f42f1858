//! Runs every `gtp-scripts/*.tst` file against the built binary, in the
//! GNU Go regression format:
//!
//! ```text
//! # a comment
//! boardsize 9            (a setup command: run, answer not checked)
//! 10 play black E5       (a numbered command...)
//! #? [^$]                (...and the regular expression its answer must match)
//! ```
//!
//! The pattern must match the whole answer. A successful answer is compared
//! without its `=id ` prefix and trimmed (as gogui-regress does); a failed one as `?` followed by a space and
//! the message, so `#? [\? illegal move]` expects that error. `[!pat]`
//! expects an answer that does *not* match. Each script runs in a fresh
//! engine whose working directory is `gtp-scripts/`, as gogui-regress does.
//!
//! GoGui's gogui-regress counts every `?` answer as a failure. So every
//! command of a script must succeed, except in files named `*-errors.tst`
//! (our dialect: checks of error answers, run only here); every other file
//! passes unchanged under gogui-regress.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use regex::Regex;

mod common;

struct Check {
    line_no: usize,
    command: String,
    pattern: String,
    negate: bool,
}

/// Sends the script, collects one answer per command line, and returns the
/// failures as text.
fn run_script(path: &Path) -> Vec<String> {
    run_script_with(
        path,
        env!("CARGO_BIN_EXE_tengen"),
        &[
            "--seed",
            "1",
            "--threads",
            "1",
            "--playouts",
            "400",
            "--quiet",
            "--no-table",
        ],
    )
}

/// `run_script` with another GTP program (GNU Go for the shared scripts).
fn run_script_with(path: &Path, program: &str, args: &[&str]) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("readable script");
    let dir = path.parent().unwrap();
    let mut child = Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());

    let mut failures = Vec::new();
    let errors_allowed = path
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.ends_with("-errors.tst"));
    let mut last_numbered: Option<(usize, String, String)> = None; // (line, command, answer)
    let mut checks = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let trimmed = raw.trim();
        if let Some(rest) = trimmed.strip_prefix("#?") {
            let spec = rest.trim();
            let Some(inner) = spec.strip_prefix('[').and_then(|s| s.strip_suffix(']')) else {
                failures.push(format!(
                    "{}:{line_no}: malformed check '{spec}'",
                    path.display()
                ));
                continue;
            };
            let (negate, pattern) = match inner.strip_prefix('!') {
                Some(p) => (true, p.to_string()),
                None => (false, inner.to_string()),
            };
            match &last_numbered {
                Some((cmd_line, command, answer)) => {
                    checks.push(Check {
                        line_no: *cmd_line,
                        command: command.clone(),
                        pattern,
                        negate,
                    });
                    let check = checks.last().unwrap();
                    if let Some(f) = verify(check, answer) {
                        failures.push(format!("{}:{}", path.display(), f));
                    }
                }
                None => failures.push(format!(
                    "{}:{line_no}: check without a numbered command before it",
                    path.display()
                )),
            }
            continue;
        }
        let command = trimmed.split('#').next().unwrap().trim();
        if command.is_empty() {
            continue;
        }
        writeln!(stdin, "{raw}").unwrap();
        stdin.flush().unwrap();
        let answer = read_answer(&mut stdout)
            .unwrap_or_else(|| panic!("{}:{line_no}: no answer to '{command}'", path.display()));
        if !errors_allowed && (answer.starts_with("? ") || answer.starts_with("<not GTP")) {
            failures.push(format!(
                "{}:{line_no}: '{command}' answered {answer:?}; gogui-regress counts that as a failure (error checks belong in a *-errors.tst file)",
                path.display()
            ));
        }
        let numbered = command
            .split_whitespace()
            .next()
            .unwrap()
            .bytes()
            .all(|b| b.is_ascii_digit());
        last_numbered = numbered.then(|| (line_no, command.to_string(), answer));
    }
    drop(stdin);
    let status = child.wait().unwrap();
    if !status.success() {
        failures.push(format!("{}: engine exited with {status}", path.display()));
    }
    assert!(!checks.is_empty(), "{} has no checks", path.display());
    failures
}

/// Reads one GTP answer; returns the text to match (see the module docs).
fn read_answer(stdout: &mut impl BufRead) -> Option<String> {
    let mut lines = Vec::new();
    loop {
        let mut line = String::new();
        if stdout.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end_matches('\n').to_string();
        if line.is_empty() {
            break;
        }
        lines.push(line);
    }
    let first = lines.first()?.clone();
    let status = first.chars().next()?;
    let rest = first[1..].trim_start_matches(|c: char| c.is_ascii_digit());
    let rest = rest.strip_prefix(' ').unwrap_or(rest);
    lines[0] = rest.to_string();
    // Trimmed, as gogui-regress compares it.
    let body = lines.join("\n").trim().to_string();
    match status {
        '=' => Some(body),
        '?' => Some(format!("? {body}")),
        _ => Some(format!("<not GTP: {first}>")),
    }
}

fn verify(check: &Check, answer: &str) -> Option<String> {
    let re = match Regex::new(&format!("(?s)^(?:{})$", check.pattern)) {
        Ok(re) => re,
        Err(e) => return Some(format!("{}: bad pattern: {e}", check.line_no)),
    };
    if re.is_match(answer) != check.negate {
        None
    } else {
        Some(format!(
            "{}: '{}' answered {:?}, expected {}[{}]",
            check.line_no,
            check.command,
            answer,
            if check.negate { "not " } else { "" },
            check.pattern
        ))
    }
}

fn scripts() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("gtp-scripts");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("gtp-scripts/")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "tst"))
        .collect();
    v.sort();
    v
}

#[test]
fn gtp_regression_scripts() {
    let scripts = scripts();
    assert!(
        scripts.len() >= 5,
        "expected the .tst scripts in gtp-scripts/"
    );
    let mut failures = Vec::new();
    for s in &scripts {
        failures.extend(run_script(s));
    }
    assert!(
        failures.is_empty(),
        "GTP script failures:\n{}",
        failures.join("\n")
    );
}

/// The classic shapes are classic: GNU Go 3.8's owl reading gives the same
/// answer codes on the same script. `.ci/run` installs GNU Go; without it
/// (seen when the crate is built) the test is listed as ignored, and under
/// CI it runs and fails.
#[test]
#[cfg_attr(
    not(tengen_has_gnugo),
    ignore = "needs GNU Go: apt-get install gnugo, then touch build.rs (CI installs it)"
)]
fn classic_shapes_agree_with_gnugo() {
    let gnugo = "/usr/games/gnugo";
    if !common::tool_present(Path::new(gnugo).exists(), gnugo, "apt-get install gnugo") {
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("gtp-scripts/classic-shapes.tst");
    let failures = run_script_with(&script, gnugo, &["--mode", "gtp", "--chinese-rules"]);
    assert!(
        failures.is_empty(),
        "GNU Go disagrees:\n{}",
        failures.join("\n")
    );
}

/// The runner itself must be able to fail.
#[test]
fn a_wrong_expectation_fails() {
    let check = Check {
        line_no: 1,
        command: "1 name".into(),
        pattern: "gnugo".into(),
        negate: false,
    };
    assert!(verify(&check, "tengen").is_some());
    assert!(
        verify(
            &Check {
                negate: true,
                ..check
            },
            "tengen"
        )
        .is_none()
    );
}
