//! The diagnostics catalogue against the one list of codes
//! (`dynakey-derive/src/diag/codes.rs`, which the derive builds its `Code`
//! enum from): every code has a UI case whose `.stderr` shows it, no
//! `.stderr` shows a code the list lacks, the runtime's trait messages
//! carry exactly the codes the list says the runtime reports, and the
//! guide's page `dynakey/src/guide/diagnostics.md` is the one generated
//! from the list (`DYNAKEY_BLESS=1 cargo test -p dynakey-ui-tests --test
//! catalogue` rewrites it).

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

struct Entry {
    number: u16,
    name: &'static str,
    runtime: bool,
    title: &'static str,
    checks: &'static str,
    fix: &'static str,
    example: &'static str,
}

macro_rules! runtime {
    (runtime) => {
        true
    };
    (derive) => {
        false
    };
}

/// The list as a table (the derive reads the same file as its enum).
macro_rules! codes {
    ($($name:ident = $number:literal, $where:ident {
        title: $title:literal,
        checks: $checks:literal,
        fix: $fix:literal,
        example: $example:literal,
    })*) => {
        const LIST: &[Entry] = &[$(Entry {
            number: $number,
            name: stringify!($name),
            runtime: runtime!($where),
            title: $title,
            checks: $checks,
            fix: $fix,
            example: $example,
        },)*];
    };
}

include!("../../dynakey-derive/src/diag/codes.rs");

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace")
        .to_owned()
}

/// Every `DYNAnnn` in `text`.
fn codes_in(text: &str) -> Vec<u16> {
    let b = text.as_bytes();
    text.match_indices("DYNA")
        .filter_map(|(i, _)| {
            let digits = b.get(i + 4..i + 7)?;
            let next = b.get(i + 7).copied().unwrap_or(b' ');
            (digits.iter().all(u8::is_ascii_digit) && !next.is_ascii_digit())
                .then(|| std::str::from_utf8(digits).ok()?.parse().ok())
                .flatten()
        })
        .collect()
}

fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("readable directory") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            files(&path, ext, out);
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
}

/// The `.stderr` snapshots of the compile-fail cases, with their text.
fn snapshots() -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    files(&root().join("ui-tests/ui/fail"), "stderr", &mut out);
    out.sort();
    out.into_iter()
        .map(|p| {
            let text = fs::read_to_string(&p).expect("readable snapshot");
            (p, text)
        })
        .collect()
}

fn known() -> BTreeSet<u16> {
    LIST.iter().map(|e| e.number).collect()
}

#[test]
fn the_list_is_in_order_with_each_code_once() {
    for w in LIST.windows(2) {
        assert!(
            w[0].number < w[1].number,
            "DYNA{} ({}) is listed before DYNA{} ({})",
            w[0].number,
            w[0].name,
            w[1].number,
            w[1].name
        );
    }
    for e in LIST {
        assert!(
            !e.title.is_empty()
                && !e.checks.is_empty()
                && !e.fix.is_empty()
                && !e.example.is_empty(),
            "DYNA{} has an empty title, check, fix or example",
            e.number
        );
    }
}

#[test]
fn every_code_has_a_ui_case() {
    let snaps = snapshots();
    let missing: Vec<String> = LIST
        .iter()
        .filter(|e| !snaps.iter().any(|(_, t)| codes_in(t).contains(&e.number)))
        .map(|e| format!("DYNA{} ({})", e.number, e.name))
        .collect();
    assert!(
        missing.is_empty(),
        "no ui/fail/*.stderr shows {}",
        missing.join(", ")
    );
}

#[test]
fn no_case_names_a_code_the_list_lacks() {
    let known = known();
    for (path, text) in snapshots() {
        for code in codes_in(&text) {
            assert!(
                known.contains(&code),
                "{} shows DYNA{code}, which dynakey-derive/src/diag/codes.rs does not list",
                path.display()
            );
        }
    }
}

/// The codes in `message = "DYNAnnn: ..."` of the runtime's
/// `#[diagnostic::on_unimplemented]` attributes.
fn runtime_codes() -> BTreeSet<u16> {
    let mut srcs = Vec::new();
    files(&root().join("dynakey-runtime/src"), "rs", &mut srcs);
    let mut out = BTreeSet::new();
    for p in srcs {
        let text = fs::read_to_string(&p).expect("readable source");
        for (i, _) in text.match_indices("message = \"DYNA") {
            let at = i + "message = \"".len();
            let code = codes_in(&text[at..at + 7]);
            assert_eq!(
                code.len(),
                1,
                "{}: a message that does not start with its code",
                p.display()
            );
            out.insert(code[0]);
        }
    }
    out
}

#[test]
fn the_runtime_messages_carry_the_listed_codes() {
    let found = runtime_codes();
    let known = known();
    for code in &found {
        assert!(
            known.contains(code),
            "the runtime reports DYNA{code}, which the list lacks"
        );
    }
    let listed: BTreeSet<u16> = LIST
        .iter()
        .filter(|e| e.runtime)
        .map(|e| e.number)
        .collect();
    assert_eq!(
        found, listed,
        "the codes of the runtime's on_unimplemented messages (left) are not those the list marks `runtime` (right)"
    );
}

/// The catalogue page, from the list.
fn page() -> String {
    let mut out = String::from(
        "<!-- Generated from dynakey-derive/src/diag/codes.rs by ui-tests/tests/catalogue.rs: \
         edit the list, then run `DYNAKEY_BLESS=1 cargo test -p dynakey-ui-tests --test catalogue`. -->\n\n\
         Every mistake dynakey can see at compile time is an error with a code: `DYNA1xx` for one \
         entity's attributes, `DYNA2xx` for typed updates and writes, `DYNA3xx` for the entities of \
         one table or union against each other, `DYNA4xx` for reads, `DYNA5xx` for drift from the \
         table's committed schema snapshot, and `DYNA6xx` for vector indexes (`DYNA610` and above \
         across a table's entities). A message names the code, says what is wrong in one \
         line, redraws the template with a caret under the culprit where a template is involved, and \
         ends with a help line. The codes the runtime's traits report (an unmet bound) say so below.\n\n\
         | code | what it means |\n|---|---|\n",
    );
    for e in LIST {
        out.push_str(&format!("| DYNA{} | {} |\n", e.number, e.title));
    }
    for e in LIST {
        out.push_str(&format!("\n## DYNA{}: {}\n\n", e.number, e.title));
        out.push_str(&format!("**Checks.** {}", e.checks));
        if e.runtime {
            out.push_str(" Reported through a bound of the runtime's traits: rustc shows this message where the bound is not met.");
        }
        out.push_str(&format!("\n\n**Fix.** {}.\n\n", capitalized(e.fix)));
        out.push_str(&format!("```text\n{}\n```\n", e.example));
    }
    out
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

#[test]
fn the_catalogue_page_is_generated_from_the_list() {
    let path = root().join("dynakey/src/guide/diagnostics.md");
    let want = page();
    if std::env::var_os("DYNAKEY_BLESS").is_some_and(|v| v == "1") {
        fs::create_dir_all(path.parent().expect("folder")).expect("guide folder");
        fs::write(&path, &want).expect("written page");
        return;
    }
    let have = fs::read_to_string(&path).unwrap_or_default();
    if have != want {
        let first = have
            .lines()
            .zip(want.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| have.lines().count().min(want.lines().count()));
        panic!(
            "{} is not the page the list gives, from line {}:\n  committed: {:?}\n  from list: {:?}\nrewrite it with DYNAKEY_BLESS=1 cargo test -p dynakey-ui-tests --test catalogue",
            path.display(),
            first + 1,
            have.lines().nth(first).unwrap_or("<end of file>"),
            want.lines().nth(first).unwrap_or("<end of file>"),
        );
    }
}

#[test]
fn the_derive_takes_every_code_from_the_list() {
    let derive = root().join("dynakey-derive/src");
    let mut srcs = Vec::new();
    files(&derive, "rs", &mut srcs);
    for p in srcs.iter().filter(|p| !p.starts_with(derive.join("diag"))) {
        let text = fs::read_to_string(p).expect("readable source");
        // A code in a string literal, `"DYNA1..`; other words starting so
        // (the `DYNAKEY_BLESS` variable a snapshot test reads) are no code.
        let code_literal = text
            .match_indices("\"DYNA")
            .any(|(i, _)| text.as_bytes().get(i + 5).is_some_and(u8::is_ascii_digit));
        assert!(
            !code_literal,
            "{} writes `\"DYNA..` by hand; take the code and help from crate::diag",
            p.display()
        );
        // darling's wording is no interface: the derive finds unknown and
        // repeated options itself (attr::screen) instead of matching it.
        for needle in ["= help:", "Unknown field", "Duplicate field"] {
            assert!(
                !text.contains(needle),
                "{} writes `{needle}` by hand; take the code and help from crate::diag",
                p.display()
            );
        }
    }
}
