//! The phases' boundaries as the module docs state them, read from the
//! sources: `check/` exports only `check_*` functions (and the lists that
//! run them), and `gen/` writes no message (no code, no `Message`: the
//! text of a trait message comes from `diag`).

use std::fs;
use std::path::{Path, PathBuf};

fn sources(dir: &str) -> Vec<(PathBuf, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(dir);
    let mut out: Vec<(PathBuf, String)> = fs::read_dir(&dir)
        .expect("a phase's folder")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .map(|p| {
            let text = fs::read_to_string(&p).expect("a source");
            (p, text)
        })
        .collect();
    out.sort();
    out
}

#[test]
fn check_holds_only_checks() {
    for (path, text) in sources("check") {
        if path.ends_with("mod.rs") {
            continue;
        }
        for line in text.lines().filter(|l| l.starts_with("pub ")) {
            assert!(
                line.starts_with("pub fn check_"),
                "{}: `{line}`: check/ exports check_* functions only; a model is built in model/",
                path.display()
            );
        }
    }
}

#[test]
fn gen_writes_no_message() {
    for (path, text) in sources("gen") {
        for needle in ["Code::", "diag::Code", "diag::Message", ".msg(", ".help("] {
            assert!(
                !text.contains(needle),
                "{} writes a message (`{needle}`): its text belongs in diag/",
                path.display()
            );
        }
    }
}
