//! Every operation builder has one shape: `Clone + Debug`, sent by
//! `.await` (`IntoFuture`), explained and converted by `&self`; and every
//! public method that takes `self` and returns `Self` is `#[must_use]`
//! (on the method or on its type), so a dropped step warns.

use std::fmt::Debug;
use std::future::IntoFuture;

use dynakey_derive::{DynamoEntity, DynamoProjection};
use dynakey_runtime::changes::{ChangeDecoder, ChangeFeed};
use dynakey_runtime::query::Projected;
use dynakey_runtime::{
    BatchGet, BatchWrite, Condition, Delete, FanOut, Get, GetProjected, Global, Put, Query,
    RawExpr, Scan, TransactGet, TransactWrite, Typed, Update, UpdateItem,
};

#[derive(DynamoEntity, Debug, Clone, PartialEq)]
#[dynamo(crate = "dynakey_runtime", entity = "NOTE")]
#[pk("USER#<user>")]
#[sk("NOTE#<id:d6>")]
struct Note {
    user: String,
    id: u32,
    text: String,
}

#[derive(DynamoProjection, Debug, Clone, PartialEq)]
#[dynamo(crate = "dynakey_runtime", of = Note)]
struct NoteText {
    text: String,
}

fn builder<T: Clone + Debug + IntoFuture>() {}
fn value<T: Clone + Debug>() {}

#[test]
fn every_builder_is_clone_debug_and_awaitable() {
    builder::<Put<Note>>();
    builder::<Get<Note>>();
    builder::<GetProjected<Note, NoteText>>();
    builder::<Delete<Note>>();
    builder::<UpdateItem<Note>>();
    builder::<TransactWrite>();
    builder::<TransactGet>();
    builder::<BatchWrite>();
    builder::<BatchGet<Note>>();
    // Reads are sent by `.await` (every item up to the limit) or by a
    // reading call (all, stream, page, count).
    builder::<Query<Note, Global, Typed<Note>>>();
    builder::<Query<Note, Global, Projected<NoteText>>>();
    builder::<Scan<Note, Typed<Note>>>();
    builder::<FanOut<Note, Global, Typed<Note>>>();
    value::<Condition>();
    value::<Update>();
    value::<RawExpr>();
    // The change feed holds a position in a stream: Debug, not Clone.
    fn debug<T: Debug>() {}
    debug::<ChangeFeed<Note>>();
    debug::<ChangeDecoder<Note>>();
}

/// `explain` and `to_input` borrow: the same builder is explained, then sent.
#[test]
fn explain_and_to_input_borrow() {
    let backend = dynakey_runtime::local::memory().unwrap();
    let db = backend.db("notes");
    let n = Note {
        user: "ann".into(),
        id: 1,
        text: "hi".into(),
    };
    let put = db.put(&n).if_not_exists();
    assert_eq!(put.explain().unwrap().operation, "PutItem");
    assert!(put.to_input().unwrap().condition_expression().is_some());
    let update = db.update_raw(
        Note::key("ann", 1).unwrap(),
        Update::new().set("text", "v2"),
    );
    assert_eq!(update.explain().unwrap().operation, "UpdateItem");
    assert_eq!(
        update.to_input().unwrap().update_expression(),
        Some("SET #n0 = :v0")
    );
    let tx = db.transact_write().put(&n);
    assert_eq!(tx.explain().unwrap().actions.len(), 1);
    assert_eq!(tx.to_input().unwrap().transact_items().len(), 1);
    let batch = db.batch_write().put(&n);
    assert_eq!(batch.to_input().unwrap().len(), 1);
    assert_eq!(batch.explain().unwrap().actions.len(), 1);
    // A clone of a builder that failed to build reports the same error.
    let bad = db.update_raw(Note::key("ann", 1).unwrap(), Update::new());
    let (a, b) = (
        bad.to_input().unwrap_err(),
        bad.clone().to_input().unwrap_err(),
    );
    assert_eq!(a.to_string(), b.to_string());
}

/// A public `fn name(self, ..) -> Self` without `#[must_use]` on it or on
/// its type: the step's result could be dropped without a warning.
#[test]
fn self_returning_methods_are_must_use() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = rust_files(&src);
    let sources: Vec<(String, String)> = files
        .iter()
        .map(|p| (p.display().to_string(), std::fs::read_to_string(p).unwrap()))
        .collect();
    let must_use_types = must_use_types(&sources);
    let mut missing = Vec::new();
    let mut checked = 0;
    for (path, text) in &sources {
        let lines: Vec<&str> = text.lines().collect();
        let mut ty: Option<String> = None;
        for (i, line) in lines.iter().enumerate() {
            if let Some(t) = impl_type(line) {
                ty = Some(t);
            }
            let trimmed = line.trim_start();
            if !(trimmed.starts_with("pub fn ") || trimmed.starts_with("pub const fn ")) {
                continue;
            }
            // The whole signature, which may span lines, up to its body.
            let sig: String = lines[i..]
                .iter()
                .take_while(|l| !l.trim_end().ends_with('{') && !l.trim_end().ends_with(';'))
                .chain(
                    lines[i..]
                        .iter()
                        .find(|l| l.trim_end().ends_with('{') || l.trim_end().ends_with(';')),
                )
                .map(|l| l.trim())
                .collect::<Vec<_>>()
                .join(" ");
            if !takes_self_returns_self(&sig) {
                continue;
            }
            checked += 1;
            let on_fn = lines[..i]
                .iter()
                .rev()
                .take_while(|l| {
                    let t = l.trim_start();
                    t.starts_with("#[") || t.starts_with("///") || t.starts_with("//")
                })
                .any(|l| l.contains("#[must_use"));
            let on_type = ty.as_deref().is_some_and(|t| must_use_types.contains(t));
            if !on_fn && !on_type {
                missing.push(format!(
                    "{path}:{}: {} ({})",
                    i + 1,
                    line.trim(),
                    ty.as_deref().unwrap_or("?")
                ));
            }
        }
    }
    assert!(
        checked > 100,
        "the scan found only {checked} methods: is it reading src?"
    );
    assert!(
        missing.is_empty(),
        "methods returning a new value without #[must_use]:\n{}",
        missing.join("\n")
    );
}

fn rust_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            out.extend(rust_files(&p));
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// The type an `impl` line (at the start of a line) is for.
fn impl_type(line: &str) -> Option<String> {
    let rest = line.strip_prefix("impl")?;
    if !(rest.starts_with(' ') || rest.starts_with('<')) {
        return None;
    }
    // Skip the impl's generics (which may nest `<>`).
    let mut rest = rest;
    if rest.starts_with('<') {
        let mut depth = 0;
        for (i, c) in rest.char_indices() {
            match c {
                '<' => depth += 1,
                '>' => depth -= 1,
                _ => {}
            }
            if depth == 0 {
                rest = &rest[i + 1..];
                break;
            }
        }
    }
    let rest = rest.split(" for ").last().unwrap_or(rest).trim_start();
    let name: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
        .collect();
    let name = name.rsplit("::").next().unwrap_or(&name).to_owned();
    (!name.is_empty()).then_some(name)
}

fn takes_self_returns_self(sig: &str) -> bool {
    let Some(open) = sig.find('(') else {
        return false;
    };
    let params = sig[open + 1..].trim_start();
    let by_value = params.starts_with("self") || params.starts_with("mut self");
    let by_value = by_value
        && params
            .trim_start_matches("mut ")
            .trim_start_matches("self")
            .starts_with([',', ')', ' ', ':']);
    let returns_self = sig
        .split("->")
        .nth(1)
        .map(|r| r.trim_start())
        .is_some_and(|r| r.starts_with("Self") && !r.starts_with("Self::"));
    by_value && returns_self
}

/// The structs and enums declared with `#[must_use]` among their attributes.
fn must_use_types(sources: &[(String, String)]) -> std::collections::HashSet<String> {
    let mut out = std::collections::HashSet::new();
    for (_, text) in sources {
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let t = line.trim_start();
            let decl = t
                .strip_prefix("pub struct ")
                .or_else(|| t.strip_prefix("pub enum "));
            let Some(decl) = decl else { continue };
            let name: String = decl
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let marked = lines[..i]
                .iter()
                .rev()
                .take_while(|l| {
                    let t = l.trim_start();
                    t.starts_with("#[") || t.starts_with("///") || t.starts_with(")]")
                })
                .any(|l| l.contains("#[must_use"));
            if marked {
                out.insert(name);
            }
        }
    }
    out
}
