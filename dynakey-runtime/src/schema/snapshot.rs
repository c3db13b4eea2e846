//! The schema snapshot of a table, from the code: its facts
//! ([`EntityMeta`] → [`format::Snapshot`]) written in the snapshot format
//! of [`format`] (`dynakey-core`, which the derive reads it with), and the
//! committed file compared with them.
//!
//! A field's stored form and the lines its type adds (a unit enum's stored
//! names, a nested struct's members: see [`Shape`](crate::codec::Shape))
//! come from other types' derives, which the table's derive cannot see, so
//! [`check_file`] refuses a snapshot whose stored names or members the code
//! no longer reads. A snapshot in an earlier format is read too: what it did
//! not record is unknown, and [`check_file`] says to rewrite it.

use super::format::{self, Snapshot, VERSION};
use crate::entity::{
    EntityMeta, IndexKey, IndexKind, IndexProjection, KeyMeta, NativeAttr, VectorIndexMeta,
};

fn key(k: &KeyMeta) -> format::Key {
    format::Key {
        attr: k.attr.to_owned(),
        template: k.template.to_owned(),
    }
}

/// A vector index as the snapshot records it: attributes by their stored
/// names (what stored items hold), as DynamoDB's search schema names them.
fn vector(v: &VectorIndexMeta) -> format::Vector {
    let attrs = |a: &[NativeAttr]| a.iter().map(|a| a.attr.to_owned()).collect();
    format::Vector {
        name: v.name.to_owned(),
        attr: v.vector_attr.to_owned(),
        dimensions: v.dimensions,
        distance: v.distance.as_str().to_owned(),
        scope: attrs(v.scope),
        filters: attrs(v.filters),
        projection: match v.projection {
            IndexProjection::All => format::Projection::All,
            IndexProjection::KeysOnly => format::Projection::KeysOnly,
            IndexProjection::Include(names) => {
                format::Projection::Include(names.iter().map(|n| (*n).to_owned()).collect())
            }
        },
    }
}

/// The snapshot's facts of table `table` with these entities (in the order
/// given), in the current format.
pub fn snapshot(table: &str, entities: &[&EntityMeta]) -> Snapshot {
    let entity = |e: &EntityMeta| format::Entity {
        type_name: e.type_name.to_owned(),
        discriminator: e.discriminator.to_owned(),
        discriminator_attr: e.discriminator_attr.to_owned(),
        pk: key(&e.pk),
        sk: e.sk.as_ref().map(key),
        indexes: e
            .indexes
            .iter()
            .map(|ix| format::Index {
                name: ix.name.to_owned(),
                global: ix.kind == IndexKind::Global,
                sparse: ix.sparse,
                keys: match &ix.key {
                    IndexKey::Template { pk, sk } => format::IndexKeys::Template {
                        // A local index's partition key is the table's.
                        pk: (ix.kind == IndexKind::Global).then(|| key(pk)),
                        sk: sk.as_ref().map(key),
                    },
                    IndexKey::Native(n) => {
                        let fields =
                            |a: &[NativeAttr]| a.iter().map(|a| a.field.to_owned()).collect();
                        format::IndexKeys::Native {
                            pk: fields(n.pk),
                            sk: fields(n.sk),
                        }
                    }
                },
            })
            .collect(),
        vectors: Some(e.vectors.iter().map(vector).collect()),
        fields: e
            .fields
            .iter()
            .map(|f| format::Field {
                name: f.name.to_owned(),
                attr: f.attr.to_owned(),
                ty: f.ty.to_owned(),
                optional: f.optional,
                default: f.default,
                form: Some(f.form.snapshot_form()),
                shape: Some((f.__shape)()),
            })
            .collect(),
    };
    Snapshot {
        version: VERSION,
        table: table.to_owned(),
        entities: entities.iter().map(|e| entity(e)).collect(),
    }
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
/// assert!(text.starts_with("dynakey-schema 3\n"));
/// assert!(text.contains("entity Note\n  discriminator \"NOTE\" in \"_type\"\n  key pk \"USER#<user>\""));
/// assert!(text.contains("  field text \"text\" Option<String> optional\n"));
/// ```
pub fn render(table: &str, entities: &[&EntityMeta]) -> String {
    format::write(&snapshot(table, entities))
}

const REWRITE: &str = "`DYNAKEY_SCHEMA=overwrite cargo test`";

/// Compares the committed snapshot at `path` with `rendered` (what the
/// code says now): `Ok` when equal. With `DYNAKEY_SCHEMA=overwrite` in the
/// environment it writes `rendered` to `path` instead (review the diff):
/// the explicit command that updates the snapshot, never done silently.
///
/// A snapshot in an earlier format is `Err` with one sentence that says
/// so and how to rewrite it, when what it recorded agrees with the code
/// (what it did not record is unknown, not a change); a newer format's is
/// `Err` saying a newer dynakey wrote it.
pub fn check_file(path: &std::path::Path, rendered: &str) -> Result<(), String> {
    use crate::table::golden::{committed, Committed};
    let overwrite = std::env::var("DYNAKEY_SCHEMA").is_ok_and(|v| v == "overwrite");
    if let (false, Ok(old)) = (overwrite, std::fs::read_to_string(path)) {
        let unreadable = |e: String| {
            format!(
                "the schema snapshot {} could not be read: {e}; rewrite it with {REWRITE} and \
                 review the diff",
                path.display()
            )
        };
        let was = format::parse(&old).map_err(unreadable)?;
        if was.version != VERSION {
            let now = format::parse(rendered).map_err(unreadable)?;
            return Err(older(path, &was, &now));
        }
    }
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

/// What to say of the committed snapshot `was`, in an earlier format than
/// the code's `now`: that it is one, and how to rewrite it; and when the
/// facts it recorded differ from the code's, the first line that differs,
/// as of a stale snapshot.
fn older(path: &std::path::Path, was: &Snapshot, now: &Snapshot) -> String {
    let notice = format!(
        "the schema snapshot {} is in format {} of an earlier dynakey, which did not record \
         every fact this one checks (format {VERSION}): rewrite it with {REWRITE} and commit the \
         diff, which adds what it lacked.",
        path.display(),
        was.version
    );
    if let Some(why) = stranding(was, now) {
        return format!("{notice}\nIt also {why}");
    }
    let (old, new) = (format::write(was), format::write(&now.as_known_by(was)));
    match old.lines().zip(new.lines()).position(|(a, b)| a != b) {
        None if old == new => notice,
        first => {
            let first = first.unwrap_or_else(|| old.lines().count().min(new.lines().count()));
            format!(
                "{notice}\nWhat it recorded differs from the code, though: line {} reads {:?}, \
                 the code says {:?}. Rewrite it only if the change strands no stored item.",
                first + 1,
                old.lines().nth(first).unwrap_or(""),
                new.lines().nth(first).unwrap_or(""),
            )
        }
    }
}

/// Why replacing the snapshot `old` by `new` strands stored items, if it
/// does: see [`format::stranded`].
fn strands(old: &str, new: &str) -> Option<String> {
    stranding(&format::parse(old).ok()?, &format::parse(new).ok()?)
}

fn stranding(old: &Snapshot, new: &Snapshot) -> Option<String> {
    let lost = format::stranded(old, new);
    (!lost.is_empty()).then(|| {
        let lost: Vec<String> = lost.iter().map(ToString::to_string).collect();
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
