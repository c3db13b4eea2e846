//! No import cycle between the top-level modules of any crate of the
//! workspace: each module (a file or folder of `src/`) names others as
//! `crate::<module>` only downward, so a module can be read, and changed,
//! knowing only what it imports.
//!
//! An edge A → B is `crate::B` written anywhere in A's files (outside
//! comments and a trailing `#[cfg(test)] mod tests`), or B inside a
//! `use crate::{..}` group. The crates' module graphs are checked one by
//! one; a cycle is reported with every module on it.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The workspace's crates with a `src/`.
const CRATES: &[&str] = &[
    "dynakey",
    "dynakey-core",
    "dynakey-derive",
    "dynakey-runtime",
    "examples",
    "tests",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Each top-level module of `src` with the files it holds.
fn modules(src: &Path) -> BTreeMap<String, Vec<PathBuf>> {
    let mut mods: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for entry in fs::read_dir(src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name == "lib.rs" || name == "main.rs" {
            continue;
        }
        if let Some(stem) = name.strip_suffix(".rs") {
            mods.entry(stem.to_owned()).or_default().push(path);
        } else if path.is_dir() {
            rust_files(&path, mods.entry(name).or_default());
        }
    }
    mods
}

/// The identifiers `text` names as `crate::<ident>`, and inside
/// `use crate::{..}` groups.
fn named(text: &str) -> BTreeSet<String> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = BTreeSet::new();
    for (i, _) in text.match_indices("crate::") {
        let rest = &text[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // The group's own entries (depth 0): the first segment of each.
            let mut depth = 0;
            let mut entry_start = true;
            for (j, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => entry_start = true,
                    c if entry_start && !c.is_whitespace() => {
                        entry_start = false;
                        let first = ident(&group[j..]);
                        if !first.is_empty() {
                            out.insert(first);
                        }
                    }
                    _ => {}
                }
            }
        } else {
            out.insert(ident(rest));
        }
    }
    out
}

/// The module graph of one crate's `src`.
fn graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mods = modules(src);
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (m, files) in &mods {
        let to = edges.entry(m.clone()).or_default();
        for f in files {
            let text = fs::read_to_string(f).unwrap();
            let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or("");
            let code: String = text
                .lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .collect::<Vec<_>>()
                .join("\n");
            for n in named(&code) {
                if n != *m && mods.contains_key(&n) {
                    to.insert(n);
                }
            }
        }
    }
    edges
}

/// A cycle through `start`, if one exists: the modules on it in order.
fn cycle_from(edges: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
    let mut stack = vec![(start.to_owned(), vec![start.to_owned()])];
    let mut seen = BTreeSet::new();
    while let Some((at, path)) = stack.pop() {
        for next in &edges[&at] {
            if next == start {
                return Some(path);
            }
            if seen.insert(next.clone()) {
                let mut p = path.clone();
                p.push(next.clone());
                stack.push((next.clone(), p));
            }
        }
    }
    None
}

#[test]
fn no_crate_has_an_import_cycle_between_its_top_level_modules() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut cycles = Vec::new();
    for krate in CRATES {
        let edges = graph(&root.join(krate).join("src"));
        let mut reported: BTreeSet<String> = BTreeSet::new();
        for m in edges.keys() {
            if reported.contains(m) {
                continue;
            }
            if let Some(c) = cycle_from(&edges, m) {
                reported.extend(c.iter().cloned());
                cycles.push(format!("{krate}: {} -> {m}", c.join(" -> ")));
            }
        }
    }
    assert!(cycles.is_empty(), "import cycles: {cycles:#?}");
}

/// The reader of `crate::` paths sees what the test needs to see.
#[test]
fn paths_and_groups_are_read() {
    let text = "use crate::key::{a, b};\nuse crate::{codec::Item, error::{Error, X}, obs};\nlet x = crate::send::send(y);";
    let n = named(text);
    for m in ["key", "codec", "error", "obs", "send"] {
        assert!(n.contains(m), "{m}: {n:?}");
    }
    assert!(!n.contains("Error") && !n.contains("X"), "{n:?}");
}
