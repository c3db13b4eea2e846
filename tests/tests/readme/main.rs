//! Every ```rust block of the README, compiled and run by the test command.
//!
//! The README shows snippets without the setup around them, so rustdoc
//! cannot compile it as it stands, and hidden `# ` lines would show on
//! GitHub. Instead each snippet sits here verbatim inside the setup it
//! needs (one module per README section), and [`every_snippet_is_here`]
//! fails when a README block is not found, line for line, in these files:
//! a snippet edited in the README without being edited here fails the
//! test command. A line here marked `// not in the README` (setup that
//! must run between two lines of a snippet) is left out of the comparison.

mod changes;
mod evolution;
mod infra;
mod intro;
mod native;
mod rules;
mod updates;
mod whole_api;

/// A table of its own on the backend (`DYNAKEY_ENDPOINT`, or the embedded
/// engine) for these entities; none when `metas` is empty (the snippet
/// creates it). Keep the backend alive for the test.
async fn fresh(metas: &[&'static dynakey::EntityMeta]) -> (dynakey::local::Backend, dynakey::Db) {
    let backend = dynakey::local::from_env().unwrap();
    let db = backend.db(format!("readme_{}", uuid::Uuid::new_v4().simple()));
    if !metas.is_empty() {
        db.create_table(metas).await.unwrap();
    }
    (backend, db)
}

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
    [
        include_str!("intro.rs"),
        include_str!("whole_api.rs"),
        include_str!("updates.rs"),
        include_str!("evolution.rs"),
        include_str!("infra.rs"),
        include_str!("changes.rs"),
        include_str!("rules.rs"),
        include_str!("native.rs"),
        // The Observability and Cost sections, run in the production tests.
        include_str!("../production/readme.rs"),
    ]
    .iter()
    .flat_map(|s| s.lines())
    .map(|l| l.trim().to_owned())
    .filter(|l| !l.is_empty() && !l.contains("// not in the README"))
    .collect()
}

#[test]
fn every_snippet_is_here() {
    let blocks = readme_blocks();
    assert!(blocks.len() >= 8, "README rust blocks: {}", blocks.len());
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
