//! The schema snapshot of a table: a text file in the user's crate, written
//! from the code on request and compared with the code at compile time.
//!
//! ```text
//! # dynakey schema snapshot of table `Shop` …
//! table Shop
//!
//! entity Order
//!   discriminator "ORDER" in "_type"
//!   key pk "CUSTOMER#<customer>"
//!   key sk "ORDER#<n:d6>"
//!   index GSI1 global sparse
//!     key gsi1pk "STATUS#<status>"
//!     key gsi1sk "<placed>"
//!   field customer "customer" String
//!   field note "note" Option<String> optional
//! ```
//!
//! One fact per line, so a change is one line of a diff. The derive of
//! `DynamoTable` reads it to find drift at expansion.

use std::fmt::Write as _;

use crate::entity::{EntityMeta, IndexKind, KeyMeta};

fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

fn key(out: &mut String, indent: &str, k: &KeyMeta) {
    let _ = writeln!(out, "{indent}key {} {}", k.attr, quote(k.template));
}

/// The snapshot text of table `table` with these entities (in the order
/// given).
///
/// ```
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE")]
/// # #[pk("USER#<user>")]
/// # #[sk("NOTE#<id:d6>")]
/// # struct Note { user: String, id: u32, text: Option<String> }
/// use dynakey_runtime::Entity;
/// let text = dynakey_runtime::schema::render("Notes", &[Note::META]);
/// assert!(text.contains("entity Note\n  discriminator \"NOTE\" in \"_type\"\n  key pk \"USER#<user>\""));
/// assert!(text.contains("  field text \"text\" Option<String> optional\n"));
/// ```
pub fn render(table: &str, entities: &[&EntityMeta]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# dynakey schema snapshot of table `{table}`: compared with the code at compile\n\
         # time (a change that strands stored items is DYNA501-DYNA506 unless a migration\n\
         # covers it). Rewrite it with `DYNAKEY_SCHEMA=overwrite cargo test` and review the diff."
    );
    let _ = writeln!(out, "table {table}");
    for e in entities {
        let _ = writeln!(out, "\nentity {}", e.type_name);
        let _ = writeln!(
            out,
            "  discriminator {} in {}",
            quote(e.discriminator),
            quote(e.discriminator_attr)
        );
        key(&mut out, "  ", &e.pk);
        if let Some(sk) = &e.sk {
            key(&mut out, "  ", sk);
        }
        for ix in e.indexes {
            let kind = match ix.kind {
                IndexKind::Global => "global",
                IndexKind::Local => "local",
            };
            let sparse = if ix.sparse { " sparse" } else { "" };
            let _ = writeln!(out, "  index {} {kind}{sparse}", ix.name);
            if ix.kind == IndexKind::Global {
                key(&mut out, "    ", &ix.pk);
            }
            if let Some(sk) = &ix.sk {
                key(&mut out, "    ", sk);
            }
        }
        for f in e.fields {
            let _ = write!(out, "  field {} {} {}", f.name, quote(f.attr), f.ty);
            if f.optional {
                out.push_str(" optional");
            }
            if f.default {
                out.push_str(" default");
            }
            out.push('\n');
        }
    }
    out
}

/// Compares the committed snapshot at `path` with `rendered` (what the
/// code says now): `Ok` when equal. With `DYNAKEY_SCHEMA=overwrite` in the
/// environment it writes `rendered` to `path` instead (review the diff):
/// the explicit command that updates the snapshot, never done silently.
pub fn check_file(path: &std::path::Path, rendered: &str) -> Result<(), String> {
    if std::env::var("DYNAKEY_SCHEMA").is_ok_and(|v| v == "overwrite") {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        return std::fs::write(path, rendered).map_err(|e| format!("{}: {e}", path.display()));
    }
    match std::fs::read_to_string(path) {
        Ok(committed) if committed == rendered => Ok(()),
        Ok(committed) => {
            let first = committed
                .lines()
                .zip(rendered.lines())
                .position(|(a, b)| a != b)
                .unwrap_or_else(|| committed.lines().count().min(rendered.lines().count()));
            Err(format!(
                "the schema snapshot {} is stale: line {} reads {:?}, the code says {:?}.\n\
                 If the change strands no stored item (a new entity, a new optional or defaulted \
                 field, a new index with a backfill), rewrite it with \
                 `DYNAKEY_SCHEMA=overwrite cargo test` and review the diff.",
                path.display(),
                first + 1,
                committed.lines().nth(first).unwrap_or(""),
                rendered.lines().nth(first).unwrap_or(""),
            ))
        }
        Err(_) => Err(format!(
            "no schema snapshot at {}: write it with `DYNAKEY_SCHEMA=overwrite cargo test` and commit it",
            path.display()
        )),
    }
}
