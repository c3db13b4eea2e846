//! The runtime and the derive are built in layers: no top-level module
//! names (`crate::<module>`) a module that names it back, directly or
//! through others. Errors and plain values at the bottom, then the pure
//! layers (keys, codec, expressions), the requests, and the tools on top.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each top-level module of `src` (a file or a folder) and the modules it
/// names, from everything outside its `#[cfg(test)] mod tests` and comments.
fn edges(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for entry in std::fs::read_dir(src).unwrap() {
        let p = entry.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if name == "lib.rs" {
            continue;
        }
        if let Some(m) = name.strip_suffix(".rs") {
            files.entry(m.to_owned()).or_default().push(p);
        } else if p.is_dir() {
            files.entry(name).or_default().extend(rust_files(&p));
        }
    }
    let mut out = BTreeMap::new();
    for (m, fs) in &files {
        let mut to = BTreeSet::new();
        for f in fs {
            let text = std::fs::read_to_string(f).unwrap();
            let text = text.split("#[cfg(test)]\nmod tests").next().unwrap();
            for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
                for (i, _) in line.match_indices("crate::") {
                    let rest = &line[i + "crate::".len()..];
                    let name: String = rest
                        .chars()
                        .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
                        .collect();
                    if files.contains_key(&name) && name != *m {
                        to.insert(name);
                    }
                }
                // `use crate::{a::X, b}`: the modules of a group.
                if let Some(group) = line.split("use crate::{").nth(1) {
                    for part in group.split([',', '{', '}', ' ']) {
                        let name = part.split("::").next().unwrap_or("");
                        if files.contains_key(name) && name != m {
                            to.insert(name.to_owned());
                        }
                    }
                }
            }
        }
        out.insert(m.clone(), to);
    }
    out
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            out.extend(rust_files(&p));
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
    out
}

/// A cycle through `edges`, if there is one (depth-first search).
fn cycle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        m: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|p| p == m) {
            let mut c = path[at..].to_vec();
            c.push(m.to_owned());
            return Some(c);
        }
        if done.contains(m) {
            return None;
        }
        path.push(m.to_owned());
        for to in edges.get(m).into_iter().flatten() {
            if let Some(c) = visit(to, edges, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(m.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    edges
        .keys()
        .find_map(|m| visit(m, edges, &mut Vec::new(), &mut done))
}

#[test]
fn runtime_modules_form_no_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let e = edges(&src);
    assert!(e.len() > 20, "read only {} modules", e.len());
    // The bottom names only plain values: the codec, numbers, the cursor
    // key, and how a value is shown in a message.
    let bottom = |m: &str, below: &[&str]| {
        assert!(
            e[m].iter().all(|n| below.contains(&n.as_str())),
            "{m} names {:?}",
            e[m]
        );
    };
    bottom("number", &[]);
    bottom("shown", &[]);
    bottom("cursor_key", &[]);
    bottom("codec", &["number", "shown"]);
    bottom("error", &["codec", "cursor_key", "shown"]);
    bottom("key", &["codec", "error", "number"]);
    bottom("entity", &["codec", "error", "key"]);
    assert_eq!(cycle(&e), None);
}

#[test]
fn derive_modules_form_no_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../dynakey-derive/src");
    let e = edges(&src);
    assert!(e.len() > 5, "read only {} modules", e.len());
    assert_eq!(cycle(&e), None);
}

#[test]
fn a_cycle_is_found() {
    let e: BTreeMap<String, BTreeSet<String>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a"]),
        ("d", vec![]),
    ]
    .into_iter()
    .map(|(m, to)| (m.to_owned(), to.into_iter().map(str::to_owned).collect()))
    .collect();
    assert_eq!(cycle(&e).unwrap().len(), 4);
}
