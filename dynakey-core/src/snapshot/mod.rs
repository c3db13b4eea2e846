//! The schema snapshot of a table: a text file in the user's crate, written
//! from the code on request (`DYNAKEY_SCHEMA=overwrite cargo test`) and
//! compared with the code at compile time and by `check_schema()`.
//!
//! ```text
//! dynakey-schema 3
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
//!   vector BySimilar "embedding" 4 COSINE scope "tenant" filter "status" projection INCLUDE "title"
//!   field customer "customer" String
//!   field note "note" Option<String> optional
//!   field expires "expires" OffsetDateTime ttl
//!   field status "status" Status
//!     value "open"
//!     value "shipped"
//! ```
//!
//! One fact per line, so a change is one line of a diff. A native index
//! (`native` after its kind) names the fields of its partition key, then of
//! its sort key, in key order. A vector index (`#[vector_index(..)]`) is
//! one line: its name, the attribute holding the vector, the dimensions,
//! the distance function, then its scope, filter and projection, the
//! attribute names quoted (see [`Vector`]). A field's line ends with `optional` (it may
//! be absent), `default` (a missing attribute reads as the default) and the
//! stored form when the field's attributes decide it (`ttl`, `serde`; none
//! is the type's own). Below it come the lines its type adds: a unit enum's
//! stored names (`value`), a nested struct's members (`member`, with their
//! own lines below), and `recursive` where a type holds itself.
//!
//! # Versions
//!
//! The first line names the format's version ([`VERSION`] is the one this
//! crate writes); [`parse`] reads every earlier one, and a fact an earlier
//! format did not record is unknown ([`None`]), never a change.
//!
//! - **1** (dynakey before the format was versioned): no version line;
//!   fields without their stored form and without the lines their type
//!   adds, and no native indexes. An unversioned file written between the
//!   two releases may hold some of them: what it holds is read, what it
//!   lacks is unknown.
//! - **2**: the `dynakey-schema 2` line; a field's stored form (`ttl`,
//!   `serde`, none for the type's own), the `value`/`member`/`recursive`
//!   lines below it, and native indexes.
//! - **3**: the `dynakey-schema 3` line and a `vector` line per vector
//!   index. An earlier file records nothing of vector indexes: read, an
//!   entity's [`Entity::vectors`] is `None` (unknown), so no vector index
//!   is a change against it; it is not an entity without any.
//!
//! Adding or removing a vector index strands no stored item (the items
//! keep their attributes; `db.sync_table(..)` adds or removes the index).
//! Changing one's dimensions, distance or vector attribute is drift: the
//! table's index keeps its definition, and the stored vectors are of the
//! old one (DYNA507).
//!
//! ```
//! use dynakey_core::snapshot::{self, Form};
//! let v1 = "table Desk\n\nentity Ticket\n  discriminator \"TICKET\" in \"_type\"\n  key pk \"T#<id>\"\n  field id \"id\" String\n";
//! let read = snapshot::parse(v1).unwrap();
//! assert_eq!(read.version, 1);
//! assert_eq!(read.entities[0].fields[0].form, None); // not recorded
//! let now = snapshot::parse(&snapshot::write(&read.upgraded())).unwrap();
//! assert_eq!(now.version, snapshot::VERSION);
//! assert_eq!(now.entities[0].fields[0].form, Some(Form::Own));
//! ```

mod parse;
mod strand;
mod text;
mod vector;
mod write;

pub use parse::parse;
pub use strand::{stranded, Stranded};
pub use text::{quote, words};
pub use vector::{Projection, Vector};
pub use write::write;

/// The version of the format [`write()`] writes.
pub const VERSION: u32 = 3;

/// The word that starts a versioned snapshot's first line
/// (`dynakey-schema 3`).
pub const MAGIC: &str = "dynakey-schema";

/// A table's schema as a snapshot records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// The format's version the text was written in ([`VERSION`] for one
    /// built from the code).
    pub version: u32,
    /// The table's name (its Rust type).
    pub table: String,
    /// The entities, in the order the table lists them.
    pub entities: Vec<Entity>,
}

/// An entity of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entity {
    /// The Rust type name.
    pub type_name: String,
    /// The discriminator value.
    pub discriminator: String,
    /// The discriminator's attribute.
    pub discriminator_attr: String,
    /// The table's partition key.
    pub pk: Key,
    /// The table's sort key.
    pub sk: Option<Key>,
    /// The indexes, in the entity's order.
    pub indexes: Vec<Index>,
    /// The vector indexes, in the entity's order; `None` when the
    /// snapshot's format did not record them (versions 1 and 2).
    pub vectors: Option<Vec<Vector>>,
    /// The stored fields, in the struct's order.
    pub fields: Vec<Field>,
}

/// A key attribute and its template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key {
    /// The attribute.
    pub attr: String,
    /// The template as written (`ORDER#<n:d6>`).
    pub template: String,
}

/// An index of an entity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Index {
    /// The index name.
    pub name: String,
    /// Global (else local).
    pub global: bool,
    /// Sparse: an item without every input holds no index key.
    pub sparse: bool,
    /// Its keys.
    pub keys: IndexKeys,
}

/// How an index's keys are made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IndexKeys {
    /// Written from templates; a local index has no partition key of its
    /// own (the table's).
    Template {
        /// The partition key (global indexes).
        pk: Option<Key>,
        /// The sort key.
        sk: Option<Key>,
    },
    /// The fields' own attributes (a multi-attribute key), by field name,
    /// in key order.
    Native {
        /// The partition key's fields.
        pk: Vec<String>,
        /// The sort key's fields (none when it has no sort key).
        sk: Vec<String>,
    },
}

impl Index {
    /// The partition and sort key as keys to compare: a native key's text
    /// is `pk(a, b)` of its field names under the attribute `native`.
    pub fn key_pair(&self) -> (Option<Key>, Option<Key>) {
        match &self.keys {
            IndexKeys::Template { pk, sk } => (pk.clone(), sk.clone()),
            IndexKeys::Native { pk, sk } => {
                let key = |which: &str, fields: &[String]| {
                    (!fields.is_empty()).then(|| Key {
                        attr: "native".into(),
                        template: native_text(which, fields),
                    })
                };
                (key("pk", pk), key("sk", sk))
            }
        }
    }
}

/// The key text of a native key as [`Index::key_pair`] says it
/// (`native pk tenant region` is `pk(tenant, region)`).
pub fn native_text<S: AsRef<str>>(which: &str, fields: &[S]) -> String {
    let names: Vec<&str> = fields.iter().map(AsRef::as_ref).collect();
    format!("{which}({})", names.join(", "))
}

/// A stored field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// The Rust field name.
    pub name: String,
    /// The attribute name.
    pub attr: String,
    /// The type as written, without spaces (`Option<String>`).
    pub ty: String,
    /// May be absent from a stored item.
    pub optional: bool,
    /// A missing attribute reads as the default.
    pub default: bool,
    /// How the value is stored, `None` when the snapshot's format did not
    /// record it (version 1).
    pub form: Option<Form>,
    /// The lines the field's type adds, `None` when the snapshot's format
    /// did not record them (version 1).
    pub shape: Option<Vec<Below>>,
}

/// How a field's value is stored where its attributes, not its type,
/// decide it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// The type's own form.
    Own,
    /// Epoch seconds in an `N` (`#[dynamo(ttl)]`).
    Ttl,
    /// serde's form (`#[dynamo(serde)]`).
    Serde,
}

impl Form {
    /// The word the snapshot writes after the field's type (none for
    /// [`Form::Own`]).
    pub fn word(self) -> Option<&'static str> {
        match self {
            Form::Own => None,
            Form::Ttl => Some("ttl"),
            Form::Serde => Some("serde"),
        }
    }

    /// The form a field-line word names.
    pub fn from_word(word: &str) -> Option<Self> {
        match word {
            "ttl" => Some(Form::Ttl),
            "serde" => Some(Form::Serde),
            _ => None,
        }
    }
}

/// A line a field's type adds below the field's line, and the lines below
/// it (a member's own type's).
///
/// Equality ignores [`Below::line`] (where a parsed line was), so a
/// snapshot parsed from a file equals the one built from the same code.
#[derive(Debug, Clone, Eq)]
pub struct Below {
    /// What the line says.
    pub what: What,
    /// The lines of a member's type (none for a value).
    pub under: Vec<Below>,
    /// Its line in the parsed text (1-based), 0 when built from code.
    pub line: usize,
}

impl PartialEq for Below {
    fn eq(&self, other: &Self) -> bool {
        self.what == other.what && self.under == other.under
    }
}

impl Below {
    /// A line of what the code says (no line in a file).
    pub fn new(what: What, under: Vec<Below>) -> Self {
        Below {
            what,
            under,
            line: 0,
        }
    }
}

/// What a line below a field says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum What {
    /// A unit enum variant's stored name.
    Value(String),
    /// A nested struct's member.
    Member {
        /// The Rust name.
        name: String,
        /// The attribute.
        attr: String,
        /// The type as written, without spaces.
        ty: String,
        /// May be absent.
        optional: bool,
    },
    /// A type that holds itself: its lines are above already.
    Recursive,
}

impl Snapshot {
    /// The same facts in the current format ([`VERSION`]), for writing:
    /// what the older one did not record reads as the type's own form, no
    /// lines below a field and no vector index. Only for a snapshot whose
    /// unknown facts are known to be those (the code's own).
    pub fn upgraded(&self) -> Snapshot {
        let mut s = self.clone();
        s.version = VERSION;
        for e in &mut s.entities {
            e.vectors.get_or_insert_with(Vec::new);
        }
        for f in s.entities.iter_mut().flat_map(|e| e.fields.iter_mut()) {
            f.form.get_or_insert(Form::Own);
            f.shape.get_or_insert_with(Vec::new);
        }
        s
    }

    /// These facts (the code's) as `older` could record them: each entity
    /// `older` has forgets its vector indexes where `older`'s left them
    /// unknown, each of its fields the facts `older`'s field left unknown,
    /// and the version is `older`'s. Compared with `older`, what
    /// differs is drift, not a difference of format.
    pub fn as_known_by(&self, older: &Snapshot) -> Snapshot {
        let mut s = self.clone();
        s.version = older.version;
        for e in &mut s.entities {
            let Some(was) = older.entities.iter().find(|w| w.type_name == e.type_name) else {
                continue;
            };
            if was.vectors.is_none() {
                e.vectors = None;
            }
            for f in &mut e.fields {
                let Some(w) = was.fields.iter().find(|w| w.name == f.name) else {
                    continue;
                };
                if w.form.is_none() {
                    f.form = None;
                }
                if w.shape.is_none() {
                    f.shape = None;
                }
            }
        }
        s
    }
}

#[cfg(test)]
mod tests;
