//! The dependency order of docs/architecture.md ("Layers") holds in the
//! code: a library module uses only the modules listed above it, every
//! module of `src/lib.rs` is listed once, and the README's module map
//! lists the modules in the same order.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The modules of the ```layers block, top (lowest layer) first.
fn layers() -> Vec<String> {
    let doc = std::fs::read_to_string(root().join("docs/architecture.md")).unwrap();
    let start = doc
        .find("```layers\n")
        .expect("docs/architecture.md has a ```layers block");
    let body = &doc[start + "```layers\n".len()..];
    let end = body.find("```").expect("the ```layers block is closed");
    body[..end]
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

/// Source text without comments (line, doc and block comments), so that
/// prose naming a module is not counted as a use.
fn strip_comments(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let b = src.as_bytes();
    let (mut i, mut depth, mut in_str) = (0, 0usize, false);
    while i < b.len() {
        if depth == 0 && !in_str && b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if !in_str && b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            depth += 1;
            i += 2;
            continue;
        }
        if depth > 0 {
            if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                depth -= 1;
                i += 2;
            } else {
                i += 1;
            }
            continue;
        }
        if b[i] == b'"' && (i == 0 || b[i - 1] != b'\\' && b[i - 1] != b'\'') {
            in_str = !in_str;
        }
        out.push(b[i] as char);
        i += 1;
    }
    out
}

/// The top-level modules a source text names through `crate::`.
fn uses(src: &str) -> Vec<String> {
    let text = strip_comments(src);
    let mut found = Vec::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let name: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    found.push(name);
                }
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                found.push(name);
            }
        }
    }
    found
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn library_modules_use_only_the_layers_above_them() {
    let order = layers();
    let rank: BTreeMap<&str, usize> = order
        .iter()
        .enumerate()
        .map(|(i, m)| (m.as_str(), i))
        .collect();
    assert_eq!(rank.len(), order.len(), "a module is listed twice");
    let src = root().join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut wrong = Vec::new();
    for f in files {
        let rel = f.strip_prefix(&src).unwrap();
        let first = rel.components().next().unwrap().as_os_str();
        let top = first.to_str().unwrap().trim_end_matches(".rs");
        if top == "bin" || top == "lib" {
            continue;
        }
        let own = *rank.get(top).unwrap_or_else(|| {
            panic!("src/{top} is not in docs/architecture.md's layers: add it in its place")
        });
        for m in uses(&std::fs::read_to_string(&f).unwrap()) {
            match rank.get(m.as_str()) {
                Some(&r) if r <= own => {}
                Some(_) => wrong.push(format!(
                    "{} uses crate::{m}, which docs/architecture.md lists below `{top}`",
                    rel.display()
                )),
                None => {} // a crate-root item (a macro or re-export), not a module
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "uses against the layer order:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn every_library_module_is_in_the_layers() {
    let order = layers();
    let lib = std::fs::read_to_string(root().join("src/lib.rs")).unwrap();
    let mods: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .map(|l| l.trim_end_matches(';'))
        .collect();
    for m in &mods {
        assert!(
            order.iter().any(|o| o == m),
            "src/lib.rs declares `{m}`, missing from docs/architecture.md's layers"
        );
    }
    for o in &order {
        assert!(
            mods.contains(&o.as_str()),
            "docs/architecture.md lists `{o}`, which src/lib.rs does not declare"
        );
    }
}

#[test]
fn the_readme_module_map_follows_the_layers() {
    let order = layers();
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme
        .find("## Module map")
        .expect("README.md has a module map");
    let map = &readme[start..];
    let map = &map[..map[3..].find("\n## ").map_or(map.len(), |e| e + 3)];
    let mut listed = Vec::new();
    for row in map.lines().filter(|l| l.starts_with("| `")) {
        let first = row[1..].split('|').next().unwrap();
        for name in first.split(',') {
            let name = name.trim().trim_matches('`');
            if order.iter().any(|o| o == name) {
                listed.push(name.to_string());
            }
        }
    }
    assert_eq!(
        listed, order,
        "README.md's module map must list the modules of docs/architecture.md's layers, in that order"
    );
}

#[test]
fn comments_and_groups_are_read_as_intended() {
    let src = "// crate::engine in a comment\n/* crate::gtp */ use crate::{rules::Board, weights};\nlet x = crate::tactics::f();";
    assert_eq!(uses(src), ["rules", "weights", "tactics"]);
}

/// Module path of a library file: `src/a/b.rs` and `src/a/b/mod.rs` are
/// `a::b`.
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_str().unwrap().to_string())
        .collect();
    if parts
        .last()
        .is_some_and(|l| l == "mod" || l == "lib" || l == "main")
    {
        parts.pop();
    }
    parts
}

/// The paths a source text names, made absolute from its module `at`:
/// `crate::x::y`, `super::x` and `self::x`, with `{a, b::c}` groups read
/// one level deep.
fn paths(src: &str, at: &[String]) -> Vec<Vec<String>> {
    let text = strip_comments(src);
    let word = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if !text.is_char_boundary(i) {
            i += 1;
            continue;
        }
        let start_ok =
            i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b':');
        let rest = &text[i..];
        let head = ["crate::", "super::", "self::"]
            .into_iter()
            .find(|h| rest.starts_with(h));
        let (Some(head), true) = (head, start_ok) else {
            i += 1;
            continue;
        };
        let mut base: Vec<String> = match head {
            "crate::" => Vec::new(),
            "self::" => at.to_vec(),
            _ => at[..at.len().saturating_sub(1)].to_vec(),
        };
        let mut r = &rest[head.len()..];
        while let Some(t) = r.strip_prefix("super::") {
            base.pop();
            r = t;
        }
        // Segments up to a group or the end of the path.
        loop {
            let w = word(r);
            if w.is_empty() {
                break;
            }
            base.push(w.clone());
            r = &r[w.len()..];
            match r.strip_prefix("::") {
                Some(t) => r = t,
                None => break,
            }
        }
        if let Some(g) = r.strip_prefix('{') {
            let end = g.find('}').unwrap_or(g.len());
            for item in g[..end].split(',') {
                let mut p = base.clone();
                for seg in item.trim().split("::") {
                    let w = word(seg.trim());
                    if w.is_empty() || w == "self" {
                        break;
                    }
                    p.push(w);
                }
                out.push(p);
            }
        }
        out.push(base);
        i += head.len();
    }
    out
}

#[test]
fn library_files_form_no_cycles() {
    let src = root().join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.retain(|f| !f.starts_with(src.join("bin")));
    assert_no_cycles(&src, &files);
}

#[test]
fn binary_files_form_no_cycles() {
    let src = root().join("src/bin/tengen");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert_no_cycles(&src, &files);
}

/// No file of `files` (one crate rooted at `src`) reaches itself through
/// the paths it names.
fn assert_no_cycles(src: &Path, files: &[PathBuf]) {
    let mods: Vec<Vec<String>> = files.iter().map(|f| module_of(src, f)).collect();
    // The file a path lands in: its longest prefix that is a module.
    let file_of = |p: &[String]| -> Option<usize> {
        (0..=p.len())
            .rev()
            .find_map(|k| mods.iter().position(|m| m.as_slice() == &p[..k]))
    };
    let n = files.len();
    let mut edges = vec![Vec::new(); n];
    for (i, f) in files.iter().enumerate() {
        let text = std::fs::read_to_string(f).unwrap();
        // A file's own unit tests may use anything.
        let text = match text.find("#[cfg(test)]\nmod tests {") {
            Some(k) => &text[..k],
            None => &text[..],
        };
        for p in paths(text, &mods[i]) {
            if let Some(j) = file_of(&p) {
                // A module and its ancestors (`mod.rs` declaring it, the
                // child using `super::*`) are one unit, not a cycle.
                let (a, b) = (&mods[i], &mods[j]);
                let related = a.starts_with(b) || b.starts_with(a);
                if !related && !edges[i].contains(&j) {
                    edges[i].push(j);
                }
            }
        }
    }
    // A file in a cycle reaches itself.
    let mut cycles = Vec::new();
    for s in 0..n {
        let mut seen = vec![false; n];
        let mut stack = edges[s].clone();
        while let Some(v) = stack.pop() {
            if v == s {
                cycles.push(mods[s].join("::"));
                break;
            }
            if !seen[v] {
                seen[v] = true;
                stack.extend(edges[v].iter().copied());
            }
        }
    }
    assert!(
        cycles.is_empty(),
        "files of {} in a dependency cycle (a file uses another that, directly or not, uses it back): {}",
        src.display(),
        cycles.join(", ")
    );
}

#[test]
fn paths_are_resolved_from_the_module() {
    let at: Vec<String> = vec!["tsumego".into(), "dfpn".into(), "mid".into()];
    let p = paths(
        "use super::{table::Table, statics};\nlet x = crate::rules::Board::new();",
        &at,
    );
    let s: Vec<String> = p.iter().map(|p| p.join("::")).collect();
    assert!(
        s.contains(&"tsumego::dfpn::table::Table".to_string()),
        "{s:?}"
    );
    assert!(s.contains(&"tsumego::dfpn::statics".to_string()), "{s:?}");
    assert!(s.contains(&"rules::Board::new".to_string()), "{s:?}");
}
