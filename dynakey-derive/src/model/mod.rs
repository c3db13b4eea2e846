//! The model of one derive input, built from the parsed attributes (as
//! serde_derive's `Container::from_ast`), read by every check and generated
//! from.
//!
//! Building reports only what keeps a part of the model from being built:
//! a shape the model cannot hold (DYNA109: not a struct with named fields,
//! generic parameters, no discriminator or partition key, an index without
//! its keys), a template's grammar, scanned here (DYNA100), a name that
//! resolves to nothing (DYNA101, DYNA118), an index named twice or alike
//! (DYNA108), a native key where DynamoDB has none or of a size it cannot
//! have (DYNA122, DYNA120), options of which the model holds one or has no
//! place for (two roles of a field, `sparse` or `pk_attr` on a native
//! index, an `overlap` that is not a pair: DYNA112; both timestamps:
//! DYNA114), and a stream view that is none (DYNA307). What cannot be
//! built is left out, or stands in as a synthetic field, and every rule
//! over what was built is a `check`.
//!
//! The model is built even when the input has mistakes; then, after the
//! checks, `stub` is set ([`Checked`]) and the generators emit the whole
//! API with bodies that never run, so the mistake is the only error.

mod containers;
mod entity;
mod fields;
mod indexes;
mod keys;
mod native;
mod projection;
mod update;

pub use crate::attr::TemplateLit;
pub use containers::{projection, table, union, value};
pub use entity::entity;

use std::ops::Range;

use proc_macro2::Span;
use syn::{Path, Type};

use crate::template::Format;
use crate::types::TypeKind;
use crate::unraw::Name;

mod vector;
pub mod vectors;
pub use vector::{VectorIndex, VectorLen};

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

impl FieldRole {
    /// The role as its option is written (`plain` for none).
    pub fn word(self) -> &'static str {
        match self {
            FieldRole::Plain => "plain",
            FieldRole::OmitEmpty => "omit_empty",
            FieldRole::Skip => "skip",
            FieldRole::Serde => "serde",
            FieldRole::Ttl => "ttl",
            FieldRole::Version => "version",
        }
    }
}

/// What an item without the attribute reads as (`#[dynamo(default)]`).
#[derive(Clone)]
pub enum DefaultValue {
    /// The type's `Default`.
    Trait,
    /// A function returning the value.
    Path(Path),
}

/// A timestamp the runtime writes (`created_at`, `updated_at`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Stamp {
    Created,
    Updated,
}

pub struct Field {
    pub name: Name,
    pub ty: Type,
    /// The type inside `Option`, or the type itself.
    pub inner: Type,
    /// The spans of `ty` and `inner`, and `ty` as text without spaces (as
    /// the schema snapshot records it), computed once: each costs the
    /// derive a round trip to the compiler, and the generators use them for
    /// every key and method that names the field.
    pub ty_span: Span,
    pub inner_span: Span,
    pub ty_text: String,
    pub optional: bool,
    pub kind: TypeKind,
    pub role: FieldRole,
    /// Read for a missing attribute (fields added after items were stored).
    pub default: Option<DefaultValue>,
    /// Where `default` and `rename` are written, for the checks.
    pub default_span: Option<Span>,
    pub rename_span: Option<Span>,
    /// The attribute name.
    pub attr: String,
    /// `#[dynamo(validate = path)]`.
    pub validate: Option<Path>,
    /// `#[dynamo(created_at)]` / `#[dynamo(updated_at)]`.
    pub stamp: Option<Stamp>,
    /// `#[dynamo(unique)]`.
    pub unique: bool,
    /// `#[dynamo(unique(scope = field))]`: the field named (checked by
    /// DYNA123).
    pub unique_scope: Option<syn::Path>,
    pub span: Span,
    /// A placeholder naming no field (a failed derive's stubs only).
    pub synthetic: bool,
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
    /// A real, stored field of the struct.
    pub fn stored(&self) -> bool {
        !self.synthetic && !self.skip()
    }
    /// How the value is stored where the field's attributes decide it, as
    /// the schema snapshot writes it (`FieldForm` in the runtime): `ttl`,
    /// `serde`, or `own` (the type's own form, written as no word).
    pub fn form_word(&self) -> &'static str {
        if self.ttl() {
            "ttl"
        } else if self.serde() {
            "serde"
        } else {
            "own"
        }
    }
    /// The type as text without spaces, as the schema snapshot records it.
    pub fn type_text(ty: &Type) -> String {
        quote::quote!(#ty).to_string().replace(' ', "")
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum KeyKind {
    Table,
    Global,
    Local,
}

/// Which key of the item a template fills.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum KeyRole {
    /// A partition key (the table's or an index's): typed by `pk(..)`.
    Partition,
    /// A sort key: queried through a condition chain.
    Sort,
}

#[derive(Clone)]
pub enum Part {
    Lit {
        text: String,
        /// Where it is in the template text.
        range: Range<usize>,
    },
    Field {
        field: usize,
        format: Format,
        /// The whole `<..>` in the template text.
        range: Range<usize>,
        /// The format after `:`, when written.
        format_range: Option<Range<usize>>,
    },
}

#[derive(Clone)]
pub struct KeyModel {
    /// The attribute it fills.
    pub attr: String,
    pub tpl: TemplateLit,
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
    /// The fields of the template, in order (a field may repeat).
    pub fn fields(&self) -> impl Iterator<Item = usize> + '_ {
        self.parts.iter().filter_map(|p| match p {
            Part::Field { field, .. } => Some(*field),
            Part::Lit { .. } => None,
        })
    }

    /// Distinct fields, in template order.
    pub fn distinct_fields(&self) -> Vec<usize> {
        dedup(self.fields())
    }

    /// `(field, format)` of each placeholder, in order.
    pub fn placeholders(&self) -> impl Iterator<Item = (usize, Format)> + '_ {
        self.parts.iter().filter_map(|p| match p {
            Part::Field { field, format, .. } => Some((*field, *format)),
            Part::Lit { .. } => None,
        })
    }

    /// The number of parts (literals and placeholders).
    pub fn len(&self) -> usize {
        self.parts.len()
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
    pub name_span: Span,
    pub kind: KeyKind,
    pub pk: KeyModel,
    pub sk: Option<KeyModel>,
    pub sparse: bool,
    /// The snake-case part of generated names (`gsi1`).
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

    /// Every key of the index, the partition key first.
    pub fn keys(&self) -> impl Iterator<Item = &KeyModel> {
        std::iter::once(&self.pk).chain(self.sk.iter())
    }
}

/// A global index whose keys DynamoDB builds itself from up to four
/// attributes each: the fields' own stored attributes (`#[gsi("ByRegion",
/// pk(tenant, region), sk(status, created_at))]`). No key text is written
/// and no update rekeys it; an item lacking an attribute is out of it.
pub struct NativeIndex {
    pub name: String,
    /// `Local` only for a native key on a local index, reported (DYNA122).
    pub kind: KeyKind,
    /// The snake-case part of generated names (`by_region`).
    pub snake: String,
    /// The partition key's fields, in order.
    pub pk: Vec<usize>,
    /// The sort key's fields, in order.
    pub sk: Vec<usize>,
    /// Every field of both keys as written, for the checks' redraw.
    pub attrs: Vec<NativeAttr>,
    pub projection: Projection,
}

/// A field of a native key, where it is written.
pub struct NativeAttr {
    pub field: usize,
    /// The field's name in the attribute.
    pub span: Span,
    /// The key as written (`pk(tenant, region)`) and the name's place in it.
    pub written: String,
    pub range: Range<usize>,
}

impl NativeIndex {
    /// Sparse by absence: some key field may be missing from an item.
    pub fn sparse(&self, fields: &[Field]) -> bool {
        self.pk
            .iter()
            .chain(&self.sk)
            .any(|&f| fields[f].may_be_absent())
    }

    /// Reads through it cannot decode whole items (DYNA402).
    pub fn partial(&self) -> bool {
        self.projection != Projection::All
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

/// Index keys whose inputs are shared, set together by one setter so that
/// a conditional update stays complete (see `UpdateModel::groups`).
pub struct KeyGroup {
    /// The keys, in `UpdateModel::keys`.
    pub keys: Vec<usize>,
    /// Their open inputs, in template order of the first key.
    pub fields: Vec<usize>,
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
    /// Fields with a typestate parameter, in field order: the open inputs
    /// of keys with two or more of them (DYNA226), and the required fields
    /// (DYNA228).
    pub tracked: Vec<usize>,
    /// Fields a new item needs (decoding fails without them).
    pub required: Vec<usize>,
    /// The keys with two or more open inputs, grouped by shared inputs:
    /// each group gets one setter of all its inputs that keeps the
    /// builder's type in a patch.
    pub groups: Vec<KeyGroup>,
}

impl UpdateModel {
    /// An update without typestate (a failed derive's stubs).
    pub fn empty() -> Self {
        UpdateModel {
            table_key: Vec::new(),
            keys: Vec::new(),
            kept: Vec::new(),
            slots: Vec::new(),
            tracked: Vec::new(),
            required: Vec::new(),
            groups: Vec::new(),
        }
    }
}

pub struct Entity {
    pub ident: syn::Ident,
    pub vis: syn::Visibility,
    pub discriminator: String,
    pub disc_attr: String,
    pub pk: KeyModel,
    pub sk: Option<KeyModel>,
    pub indexes: Vec<IndexModel>,
    /// The indexes with native keys (not in `indexes`: they have no
    /// templates).
    pub natives: Vec<NativeIndex>,
    /// The vector indexes (`#[vector_index(..)]`).
    pub vectors: Vec<VectorIndex>,
    pub fields: Vec<Field>,
    pub update: UpdateModel,
    /// The entity's `#[dynamo(validate = path)]`.
    pub validate: Option<Path>,
    /// The input has mistakes: generate the API with bodies that never run.
    pub stub: bool,
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

    /// Every key: the table's, then each index's (a local index's
    /// partition key is the table's under the index's name).
    pub fn all_keys(&self) -> Vec<&KeyModel> {
        let mut all: Vec<&KeyModel> = vec![&self.pk];
        all.extend(self.sk.iter());
        for ix in &self.indexes {
            all.extend(ix.keys());
        }
        all
    }

    /// Every template as written, once: what the checks read.
    pub fn templates(&self) -> Vec<&KeyModel> {
        let mut all: Vec<&KeyModel> = vec![&self.pk];
        all.extend(self.sk.iter());
        for ix in &self.indexes {
            all.extend(ix.written_keys());
        }
        all
    }

    /// The struct's real fields (not a stub's synthetic ones).
    pub fn struct_fields(&self) -> impl Iterator<Item = (usize, &Field)> {
        self.fields.iter().enumerate().filter(|(_, f)| !f.synthetic)
    }
}

/// A `DynamoValue`.
pub enum Value {
    /// A unit enum stored by name.
    Enum {
        ident: syn::Ident,
        /// (variant, stored name)
        variants: Vec<(syn::Ident, String)>,
    },
    /// A struct stored as a map.
    Struct {
        ident: syn::Ident,
        fields: Vec<Field>,
    },
}

/// A `DynamoUnion`.
pub struct Union {
    pub ident: syn::Ident,
    /// (variant, entity type)
    pub variants: Vec<(syn::Ident, Type)>,
}

/// A `DynamoProjection`: (field, type to check against the entity's
/// handle, declared type) per field.
pub struct ProjectionModel {
    pub ident: syn::Ident,
    pub of: Path,
    pub fields: Vec<(syn::Ident, Type, Type)>,
}

/// A `DynamoTable`.
pub struct Table {
    pub ident: syn::Ident,
    pub entities: Vec<Path>,
    /// Pairs allowed to overlap (DYNA305 opted out).
    pub overlaps: Vec<(Path, Path)>,
    /// Where the snapshot is (absolute), to write or compare it.
    pub schema_path: String,
    /// `schema = ".."` as written, when given.
    pub schema_lit: Option<syn::LitStr>,
    /// The migrations that cover drift.
    pub migrations: Option<Path>,
    /// The stream view the code consumes (`KeysOnly`, `NewImage`, ...),
    /// as the variant of `StreamView`.
    pub stream: Option<&'static str>,
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

/// The last step of building a model, once its checks have run: an entity
/// with mistakes is generated as stubs, and one without gets the facts
/// behind its typed updates (which assume a model without mistakes).
pub trait Checked {
    fn checked(&mut self, _mistakes: bool) {}
}

impl Checked for Entity {
    fn checked(&mut self, mistakes: bool) {
        self.stub = mistakes;
        if !mistakes {
            self.update = update::model(self);
        }
    }
}

impl Checked for Value {}
impl Checked for Union {}
impl Checked for ProjectionModel {}
impl Checked for Table {}

/// The help of a name that is no stored field of `fields`: the stored
/// field it is likely a misspelling of, or the list of them.
pub fn stored_field_help(name: &str, fields: &[Field]) -> String {
    let names = fields
        .iter()
        .filter(|f| f.stored())
        .map(|f| f.name.text.as_str());
    crate::diag::render::field_help(name, names)
}
