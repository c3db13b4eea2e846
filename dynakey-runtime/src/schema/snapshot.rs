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
//!   index ByRegion global native sparse
//!     native pk tenant region
//!     native sk status total
//!   field customer "customer" String
//!   field note "note" Option<String> optional
//!   field expires "expires" OffsetDateTime ttl
//! ```
//!
//! A native index (`native` after its kind) names the fields of its
//! partition key, then of its sort key (when it has one), in key order; each
//! field's attribute and type are on its `field` line. A field's line ends
//! with `optional` (it may be absent), `default` (a missing attribute reads
//! as the default) and the stored form when the field's attributes decide
//! it (`ttl`, `serde`: see [`FieldForm`](crate::entity::FieldForm)); below
//! it come the lines its type adds ([`Shape`](crate::codec::Shape)): a unit
//! enum's stored names and a nested struct's members. The derive cannot see
//! those (another type's derive writes them), so [`check_file`] refuses a
//! snapshot whose stored names or members the code no longer reads.
//!
//! One fact per line, so a change is one line of a diff. The derive of
//! `DynamoTable` reads it to find drift at expansion.

use std::fmt::Write as _;

use crate::codec::quote;
use crate::entity::{EntityMeta, IndexKey, IndexKind, KeyMeta};

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
            let native = if ix.is_native() { " native" } else { "" };
            let sparse = if ix.sparse { " sparse" } else { "" };
            let _ = writeln!(out, "  index {} {kind}{native}{sparse}", ix.name);
            match &ix.key {
                IndexKey::Template { pk, sk } => {
                    if ix.kind == IndexKind::Global {
                        key(&mut out, "    ", pk);
                    }
                    if let Some(sk) = sk {
                        key(&mut out, "    ", sk);
                    }
                }
                IndexKey::Native(n) => {
                    for (role, attrs) in [("pk", n.pk), ("sk", n.sk)] {
                        if !attrs.is_empty() {
                            let fields: Vec<&str> = attrs.iter().map(|a| a.field).collect();
                            let _ = writeln!(out, "    native {role} {}", fields.join(" "));
                        }
                    }
                }
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
            if let Some(w) = f.form.snapshot_word() {
                out.push(' ');
                out.push_str(w);
            }
            out.push('\n');
            out.push_str(&(f.__shape)());
        }
    }
    out
}

/// Compares the committed snapshot at `path` with `rendered` (what the
/// code says now): `Ok` when equal. With `DYNAKEY_SCHEMA=overwrite` in the
/// environment it writes `rendered` to `path` instead (review the diff):
/// the explicit command that updates the snapshot, never done silently.
pub fn check_file(path: &std::path::Path, rendered: &str) -> Result<(), String> {
    use crate::table::export::golden::{committed, Committed};
    committed(
        path,
        rendered,
        &Committed {
            var: "DYNAKEY_SCHEMA",
            what: "schema snapshot",
            says: "the code says",
            stale:
                "If the change strands no stored item (a new entity, a new optional or defaulted \
                    field, a new index with a backfill), rewrite it with \
                    `DYNAKEY_SCHEMA=overwrite cargo test` and review the diff.",
            refuse: strands,
        },
    )
}

/// Why replacing the snapshot `old` by `new` strands stored items, if it
/// does: see [`stranded`].
fn strands(old: &str, new: &str) -> Option<String> {
    let lost = stranded(old, new);
    (!lost.is_empty()).then(|| {
        format!(
            "says stored items hold what the code no longer reads:\n{}\n\
             The table's derive cannot see another type's derive, so this is found here, \
             not at compile time. Keep the stored names (`#[dynamo(rename = \"..\")]` on \
             the variant or member), make a new member optional or defaulted, or move the \
             items with a migration (Migration::rekey); then rewrite the snapshot with \
             `DYNAKEY_SCHEMA=overwrite cargo test`.",
            lost.join("\n")
        )
    })
}

/// A `value` or `member` line (what a field's type adds below it), with
/// where it is (`entity.field[.member]`) and its line number.
struct ShapeLine<'a> {
    at: String,
    line: &'a str,
    n: usize,
}

impl ShapeLine<'_> {
    /// A member's Rust name (`None` for a value).
    fn member(&self) -> Option<&str> {
        self.line.strip_prefix("member ")?.split(' ').next()
    }
}

fn shape_lines(text: &str) -> Vec<ShapeLine<'_>> {
    let mut out = Vec::new();
    // The entity, field and members above the line, by indentation.
    let mut above: Vec<(usize, &str)> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let indent = line.len() - line.trim_start().len();
        let mut words = line.split_whitespace();
        let (Some(kind), Some(name)) = (words.next(), words.next()) else {
            continue;
        };
        above.retain(|(i, _)| *i < indent);
        if matches!(kind, "value" | "member") {
            let at: Vec<&str> = above.iter().map(|(_, a)| *a).collect();
            out.push(ShapeLine {
                at: at.join("."),
                line: line.trim(),
                n: n + 1,
            });
        }
        if matches!(kind, "entity" | "field" | "member") {
            above.push((indent, name));
        }
    }
    out
}

/// The `value` and `member` lines whose change from `old` to `new` strands
/// stored items: a stored name gone (a variant renamed or removed), a
/// member gone or changed (renamed, retyped, removed; made optional is
/// fine), and a new required member of a field `old` knew, which stored
/// items lack. Each is said with where it is and its line.
fn stranded(old: &str, new: &str) -> Vec<String> {
    let (was, now) = (shape_lines(old), shape_lines(new));
    // `member n "a" T` read as `member n "a" Option<T> optional`.
    let made_optional = |w: &str, l: &str| {
        w.rsplit_once(' ')
            .is_some_and(|(head, ty)| l == format!("{head} Option<{ty}> optional"))
    };
    let mut lost = Vec::new();
    for w in &was {
        let kept = now
            .iter()
            .any(|s| s.at == w.at && (s.line == w.line || made_optional(w.line, s.line)));
        if !kept {
            let what = match w.member() {
                None => "a stored name the code no longer reads",
                Some(_) => {
                    "a member the code no longer reads as stored (renamed, retyped or removed)"
                }
            };
            lost.push(format!(
                "  {}: `{}` (line {} of the snapshot): {what}",
                w.at, w.line, w.n
            ));
        }
    }
    for s in &now {
        let new_required = s.member().is_some()
            && !s.line.ends_with(" optional")
            && was.iter().any(|w| w.at == s.at)
            && !was.iter().any(|w| w.at == s.at && w.member() == s.member());
        if new_required {
            lost.push(format!(
                "  {}: `{}`: a new required member that stored items lack",
                s.at, s.line
            ));
        }
    }
    lost
}

#[cfg(test)]
mod tests {
    use super::stranded;

    const OLD: &str = "table T\n\nentity Book\n  discriminator \"BOOK\" in \"_type\"\n  key pk \"BOOK#<id>\"\n  field id \"id\" String\n  field genre \"genre\" Genre\n    value \"kids\"\n    value \"adult\"\n  field at \"at\" Option<Address> optional\n    member street \"street\" String\n    member zip \"zip\" Option<String> optional\n";

    #[test]
    fn a_new_value_or_optional_member_strands_nothing() {
        let new = OLD
            .replace(
                "    value \"adult\"\n",
                "    value \"adult\"\n    value \"teen\"\n",
            )
            .replace(
                "Option<String> optional\n",
                "Option<String> optional\n    member floor \"floor\" Option<u8> optional\n",
            );
        assert!(stranded(OLD, &new).is_empty(), "{:?}", stranded(OLD, &new));
        assert!(stranded(OLD, OLD).is_empty());
        let optional = OLD.replace(
            "member street \"street\" String",
            "member street \"street\" Option<String> optional",
        );
        assert!(
            stranded(OLD, &optional).is_empty(),
            "{:?}",
            stranded(OLD, &optional)
        );
    }

    #[test]
    fn a_renamed_value_a_retyped_member_and_a_new_required_member_strand_items() {
        let new = OLD
            .replace("value \"kids\"", "value \"children\"")
            .replace(
                "member street \"street\" String",
                "member street \"street\" u32",
            )
            .replace(
                "Option<String> optional\n",
                "Option<String> optional\n    member floor \"floor\" u8\n",
            );
        let lost = stranded(OLD, &new);
        assert_eq!(lost.len(), 3, "{lost:?}");
        assert!(
            lost[0].contains("Book.genre: `value \"kids\"` (line 8 of the snapshot)"),
            "{lost:?}"
        );
        assert!(
            lost[1].contains("Book.at: `member street \"street\" String`"),
            "{lost:?}"
        );
        assert!(
            lost[2].contains("Book.at: `member floor \"floor\" u8`: a new required member"),
            "{lost:?}"
        );
    }
}
