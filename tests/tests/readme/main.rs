//! Every ```rust block of the README, compiled and run by the test command.
//!
//! The guide lives in rustdoc (`dynakey/src/guide/`), where every example
//! is a doctest; the README is a landing page with one short example.
//! The README shows it without the setup around it, so rustdoc cannot
//! compile it as it stands, and hidden `# ` lines would show on GitHub.
//! Instead the snippet sits here verbatim inside the setup it needs, and
//! [`every_snippet_is_here`] fails when a README block is not found, line
//! for line, in these files: a snippet edited in the README without being
//! edited here fails the test command. A line here marked
//! `// not in the README` (setup that must run between two lines of a
//! snippet) is left out of the comparison.

mod intro;

/// The README's ```rust blocks: the line each starts at and its lines
/// (trimmed, blank lines dropped).
fn readme_blocks() -> Vec<(usize, Vec<String>)> {
    let mut blocks = Vec::new();
    let mut current: Option<(usize, bool, Vec<String>)> = None;
    for (n, line) in include_str!("../../../README.md").lines().enumerate() {
        let t = line.trim();
        if let Some(lang) = t.strip_prefix("```") {
            match current.take() {
                None => current = Some((n + 1, lang.starts_with("rust"), Vec::new())),
                Some((start, true, lines)) => blocks.push((start, lines)),
                Some(_) => {}
            }
        } else if let Some((_, _, lines)) = &mut current {
            if !t.is_empty() {
                lines.push(t.to_owned());
            }
        }
    }
    assert!(current.is_none(), "an unclosed code fence in the README");
    blocks
}

/// The trimmed, non-blank lines of the files that hold the snippets.
fn sources() -> Vec<String> {
    [include_str!("intro.rs")]
        .iter()
        .flat_map(|s| s.lines())
        .map(|l| l.trim().to_owned())
        .filter(|l| !l.is_empty() && !l.contains("// not in the README"))
        .collect()
}

#[test]
fn every_snippet_is_here() {
    let blocks = readme_blocks();
    assert!(!blocks.is_empty(), "README rust blocks: none");
    let src = sources();
    for (line, block) in blocks {
        let found = src.windows(block.len()).any(|w| w == block.as_slice());
        assert!(
            found,
            "the README's rust block at line {line} is not compiled by tests/tests/readme: \
             copy it, line for line, into the module of its section\n{}",
            block.join("\n")
        );
    }
}

/// The guide's pages, as `dynakey/src/guide/mod.rs` declares them: each
/// module's name and the Markdown file it includes.
fn guide_pages() -> Vec<(String, String)> {
    let src = include_str!("../../../dynakey/src/guide/mod.rs");
    let mut pages = Vec::new();
    let mut module = None;
    for line in src.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("pub mod ") {
            module = Some(rest.trim_end_matches(" {").to_owned());
        } else if let (Some(m), Some(rest)) =
            (&module, line.strip_prefix("#![doc = include_str!(\""))
        {
            pages.push((m.clone(), rest.trim_end_matches("\")]").to_owned()));
            module = None;
        }
    }
    pages
}

/// Every link of the README into the guide on docs.rs names a page the
/// guide has, every page is linked from the README, and every Markdown
/// file under `dynakey/src/guide/` is a page (or the guide's index).
#[test]
fn the_readme_links_every_guide_page() {
    let readme = include_str!("../../../README.md");
    let pages = guide_pages();
    assert!(pages.len() >= 14, "guide pages: {pages:?}");
    let prefix = "https://docs.rs/dynakey/latest/dynakey/_guide/";
    let linked: Vec<&str> = readme
        .match_indices(prefix)
        .map(|(i, _)| {
            let rest = &readme[i + prefix.len()..];
            &rest[..rest.find('/').expect("a page's path")]
        })
        .collect();
    for l in &linked {
        assert!(
            pages.iter().any(|(m, _)| m == l),
            "the README links {l}, which the guide lacks"
        );
    }
    for (m, _) in &pages {
        assert!(
            linked.contains(&m.as_str()),
            "the README does not link the guide's page {m}"
        );
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../dynakey/src/guide");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".md") && name != "index.md" {
            assert!(
                pages.iter().any(|(_, f)| *f == name),
                "{name} is in no guide module"
            );
        }
    }
}

/// docs.rs shows a code block about 92 characters wide before it scrolls
/// sideways: every visible line of the guide's code (hidden `# ` lines
/// aside) fits. Blocks of compiler output (`text`) are quoted as rustc
/// prints them, and are not held to it.
#[test]
fn the_guides_code_fits_the_page() {
    const WIDTH: usize = 92;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../dynakey/src/guide");
    let mut wide = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "md") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let mut block: Option<&str> = None;
        for (i, line) in text.lines().enumerate() {
            if let Some(fence) = line.trim_start().strip_prefix("```") {
                block = match block {
                    Some(_) => None,
                    None => Some(fence.trim()),
                };
                continue;
            }
            let Some(lang) = block.filter(|b| *b != "text") else {
                continue;
            };
            // In Rust, rustdoc hides `# ` lines; elsewhere they are comments.
            let rust = lang.is_empty()
                || lang.split(',').any(|t| {
                    matches!(
                        t.trim(),
                        "rust" | "no_run" | "ignore" | "compile_fail" | "should_panic"
                    )
                });
            let hidden = rust && (line.trim_start().starts_with("# ") || line.trim() == "#");
            if !hidden && line.chars().count() > WIDTH {
                wide.push(format!("{}:{}", path.display(), i + 1));
            }
        }
    }
    assert!(wide.is_empty(), "code lines wider than {WIDTH}: {wide:?}");
}
