//! The checked models codegen works from. Everything here is valid: codegen
//! never reports user errors.

use proc_macro2::Span;
use syn::{Ident, Path, Type};

use crate::template::Format;
use crate::types::TypeKind;

/// What a field is stored as: one role, the options being exclusive.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FieldRole {
    /// An attribute of its own name (or `rename`).
    Plain,
    /// Left out of the item when empty (`omit_empty`).
    OmitEmpty,
    /// Not stored (`skip`): `Default` when read.
    Skip,
    /// Stored through serde (`serde`).
    Serde,
    /// The TTL attribute, as epoch seconds (`ttl`).
    Ttl,
    /// The optimistic-lock version (`version`).
    Version,
}

/// What an item without the attribute reads as (`#[dynamo(default)]`).
#[derive(Clone)]
pub enum DefaultValue {
    /// The type's `Default`.
    Trait,
    /// A function returning the value.
    Path(syn::Path),
}

/// A timestamp the runtime writes (`created_at`, `updated_at`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Stamp {
    Created,
    Updated,
}

pub struct Field {
    pub ident: Ident,
    /// `#[dynamo(validate = path)]`.
    pub validate: Option<syn::Path>,
    /// `#[dynamo(created_at)]` / `#[dynamo(updated_at)]`.
    pub stamp: Option<Stamp>,
    /// `#[dynamo(unique)]`.
    pub unique: bool,
    pub ty: Type,
    /// The type inside `Option`, or the type itself.
    pub inner: Type,
    pub optional: bool,
    pub kind: TypeKind,
    pub role: FieldRole,
    /// Read for a missing attribute (fields added after items were stored).
    pub default: Option<DefaultValue>,
    /// The attribute name.
    pub attr: String,
    pub span: Span,
}

impl Field {
    pub fn skip(&self) -> bool {
        self.role == FieldRole::Skip
    }
    pub fn serde(&self) -> bool {
        self.role == FieldRole::Serde
    }
    pub fn ttl(&self) -> bool {
        self.role == FieldRole::Ttl
    }
    pub fn version(&self) -> bool {
        self.role == FieldRole::Version
    }
    pub fn omit_empty(&self) -> bool {
        self.role == FieldRole::OmitEmpty
    }
    /// May be absent: `Option`, or an `omit_empty` value.
    pub fn may_be_absent(&self) -> bool {
        self.optional || self.omit_empty()
    }
    /// The type as text without spaces, as the schema snapshot records it.
    pub fn ty_text(&self) -> String {
        let ty = &self.ty;
        quote::quote!(#ty).to_string().replace(' ', "")
    }

    /// The name without a raw identifier's `r#`.
    pub fn name(&self) -> String {
        let n = self.ident.to_string();
        n.strip_prefix("r#").unwrap_or(&n).to_owned()
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum KeyKind {
    Table,
    Global,
    Local,
}

#[derive(Clone)]
pub enum Part {
    Lit(String),
    Field { field: usize, format: Format },
}

/// Which key of the item a template fills.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum KeyRole {
    /// A partition key (the table's or an index's): typed by `pk(..)`.
    Partition,
    /// A sort key: queried through a condition chain.
    Sort,
}

#[derive(Clone)]
pub struct KeyModel {
    pub attr: String,
    pub template: String,
    pub parts: Vec<Part>,
    /// `pk`, `sk`, `gsi1_pk`, …: the name of the generated functions.
    pub fn_name: String,
    pub kind: KeyKind,
    pub role: KeyRole,
    pub index: Option<String>,
    /// A key of an index that does not hold whole items (its projection
    /// is not `ALL`): reads through it cannot decode the entity (DYNA402).
    pub partial: bool,
}

impl KeyModel {
    /// The runtime's marker type of this key's kind.
    pub fn kind_name(&self) -> &'static str {
        match (self.kind, self.partial) {
            (KeyKind::Table, _) => "Table",
            (KeyKind::Global, false) => "Global",
            (KeyKind::Global, true) => "GlobalPartial",
            (KeyKind::Local, false) => "Local",
            (KeyKind::Local, true) => "LocalPartial",
        }
    }

    pub fn fields(&self) -> impl Iterator<Item = usize> + '_ {
        self.parts.iter().filter_map(|p| match p {
            Part::Field { field, .. } => Some(*field),
            Part::Lit(_) => None,
        })
    }

    /// Distinct fields, in template order.
    pub fn distinct_fields(&self) -> Vec<usize> {
        dedup(self.fields())
    }
}

/// What an index holds of each item.
#[derive(Clone, PartialEq, Eq)]
pub enum Projection {
    All,
    KeysOnly,
    /// The keys and these fields.
    Include(Vec<usize>),
}

pub struct IndexModel {
    pub name: String,
    pub kind: KeyKind,
    pub pk: KeyModel,
    pub sk: Option<KeyModel>,
    pub sparse: bool,
    pub snake: String,
    pub projection: Projection,
}

impl IndexModel {
    /// The key attributes an item writes for this index (a local index's
    /// partition key is the table's own).
    pub fn written_keys(&self) -> Vec<&KeyModel> {
        let mut keys = Vec::new();
        if self.kind != KeyKind::Local {
            keys.push(&self.pk);
        }
        keys.extend(self.sk.iter());
        keys
    }
}

/// One index key attribute a typed update maintains.
pub struct MaintainedKey {
    /// The index, in `Entity::indexes`.
    pub index: usize,
    /// Its sort key (else its partition key).
    pub sort: bool,
    pub sparse: bool,
    /// Its inputs outside the table key: the ones an update can change.
    pub open: Vec<usize>,
}

/// The facts behind typed updates, DYNA226 and DYNA228.
pub struct UpdateModel {
    /// The table key's fields (they come with the update's key).
    pub table_key: Vec<usize>,
    pub keys: Vec<MaintainedKey>,
    /// Table-key fields an index key reads: kept from the key.
    pub kept: Vec<usize>,
    /// Fields whose value an index key needs: stored when set.
    pub slots: Vec<usize>,
    /// Fields with a typestate parameter: the open inputs of keys with two
    /// or more of them (DYNA226), and the required fields (DYNA228).
    pub tracked: Vec<usize>,
    /// Fields a new item needs (decoding fails without them).
    pub required: Vec<usize>,
}

pub struct Entity {
    pub ident: Ident,
    pub discriminator: String,
    pub disc_attr: String,
    pub pk: KeyModel,
    pub sk: Option<KeyModel>,
    pub indexes: Vec<IndexModel>,
    pub fields: Vec<Field>,
    pub ttl_attr: Option<String>,
    pub update: UpdateModel,
    /// The entity's `#[dynamo(validate = path)]`.
    pub validate: Option<syn::Path>,
}

impl Entity {
    pub fn key_of(&self, k: &MaintainedKey) -> &KeyModel {
        let ix = &self.indexes[k.index];
        if k.sort {
            ix.sk.as_ref().unwrap_or(&ix.pk)
        } else {
            &ix.pk
        }
    }
}

/// A `DynamoValue`.
pub enum Value {
    /// A unit enum stored by name.
    Enum {
        ident: Ident,
        /// (variant, stored name)
        variants: Vec<(Ident, String)>,
    },
    /// A struct stored as a map.
    Struct { ident: Ident, fields: Vec<Field> },
}

/// A `DynamoUnion`.
pub struct Union {
    pub ident: Ident,
    /// (variant, entity type)
    pub variants: Vec<(Ident, Type)>,
}

/// A `DynamoProjection`: (field, type to check against the entity's
/// handle, declared type) per field.
pub struct ProjectionModel {
    pub ident: Ident,
    pub of: Path,
    pub fields: Vec<(Ident, Type, Type)>,
}

/// A `DynamoTable`.
pub struct Table {
    pub ident: Ident,
    pub entities: Vec<Path>,
    /// Pairs allowed to overlap (DYNA305 opted out).
    pub overlaps: Vec<(Path, Path)>,
    /// The snapshot file (absolute) and what it recorded, when it exists.
    pub snapshot: Option<(String, Vec<crate::attr::snapshot::SnapEntity>)>,
    /// Where the snapshot is (absolute), to write or compare it.
    pub schema_path: String,
    /// The migrations that cover drift.
    pub migrations: Option<Path>,
}

/// Distinct indexes, in order.
pub fn dedup(v: impl IntoIterator<Item = usize>) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::new();
    for i in v {
        if !out.contains(&i) {
            out.push(i);
        }
    }
    out
}
