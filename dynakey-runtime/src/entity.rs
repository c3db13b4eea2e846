//! The trait every `#[derive(DynamoEntity)]` type implements, and the
//! metadata a runtime or a tool reads from it.

use crate::codec::{DecodeError, Item};
use crate::error::{EncodeError, KeyFormatError};
use crate::key::Key;

/// A type stored as DynamoDB items, implemented by `#[derive(DynamoEntity)]`.
///
/// `#[derive(DynamoEntity)]` writes this impl; the `dynakey` crate's
/// documentation has more of the generated code.
///
/// ```
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
/// # #[pk("USER#<user>")]
/// # #[sk("NOTE#<id:d6>")]
/// # #[gsi("GSI1", pk = "TAG#<tag>", sk = "NOTE#<id:d6>", sparse)]
/// # struct Note { user: String, id: u32, tag: Option<String>, text: String }
/// use dynakey_runtime::Entity;
/// let n = Note { user: "ann".into(), id: 7, tag: Some("red".into()), text: "hi".into() };
/// let item = n.to_item().unwrap();
/// assert_eq!(item["sk"].as_s().unwrap(), "NOTE#000007");
/// assert_eq!(item["gsi1pk"].as_s().unwrap(), "TAG#red");
/// assert_eq!(Note::from_item(&item).unwrap(), n);
/// assert_eq!(n.item_key().unwrap(), Note::key("ann", 7).unwrap());
/// ```
pub trait Entity: Sized + Send + Sync + 'static {
    /// What the derive knows about the entity.
    const META: &'static EntityMeta;

    /// The item: attributes, the discriminator, and every key attribute
    /// (table and indexes; none of a sparse index while an input is absent).
    fn to_item(&self) -> Result<Item, EncodeError>;

    /// Reads an item back. Fails with the attribute path at fault, or when
    /// the item's discriminator names another entity.
    fn from_item(item: &Item) -> Result<Self, DecodeError>;

    /// The table key of this item.
    fn item_key(&self) -> Result<Key<Self>, KeyFormatError>;

    /// Runs the `#[dynamo(validate = ..)]` functions of the fields and of
    /// the entity: [`Error::Invalid`](crate::Error::Invalid) names the
    /// first that refuses. Every put runs it before anything is sent (a
    /// put, a batch, a transaction, a move); nothing to check by default.
    fn validate(&self) -> Result<(), crate::Error> {
        Ok(())
    }
}

/// Static description of an entity, from the derive: what a tool (or
/// `create_table`) reads about its keys, indexes and fields.
///
/// ```
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity, Debug, Clone, PartialEq)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "NOTE", discriminator_attr = "entity")]
/// # #[pk("USER#<user>")]
/// # #[sk("NOTE#<id:d6>")]
/// # #[gsi("GSI1", pk = "TAG#<tag>", sk = "NOTE#<id:d6>", sparse)]
/// # struct Note { user: String, id: u32, tag: Option<String>, text: String }
/// use dynakey_runtime::{Entity, IndexKind};
/// let m = Note::META;
/// assert_eq!((m.type_name, m.discriminator, m.discriminator_attr), ("Note", "NOTE", "entity"));
/// assert_eq!(m.pk.attr, "pk");
/// assert_eq!(m.sk.as_ref().unwrap().template, "NOTE#<id:d6>");
/// let ix = m.index("GSI1").unwrap();
/// assert_eq!((ix.kind, ix.sparse, ix.pk.attr), (IndexKind::Global, true, "gsi1pk"));
/// assert_eq!(ix.pk.prefix, "TAG#");
/// assert_eq!(ix.pk.fields, ["tag"]);
/// assert!(m.fields.iter().any(|f| f.name == "tag" && f.optional));
/// assert_eq!((m.ttl_attr, m.version_attr), (None, None));
/// assert_eq!((m.created_at, m.updated_at, m.unique.len()), (None, None, 0));
/// ```
#[derive(Debug)]
pub struct EntityMeta {
    /// The Rust type's name.
    pub type_name: &'static str,
    /// The discriminator value, e.g. `MEMBER`.
    pub discriminator: &'static str,
    /// The attribute holding the discriminator.
    pub discriminator_attr: &'static str,
    /// The table's partition key.
    pub pk: KeyMeta,
    /// The table's sort key, if the table has one.
    pub sk: Option<KeyMeta>,
    /// Every global and local index the entity writes.
    pub indexes: &'static [IndexMeta],
    /// The stored fields.
    pub fields: &'static [FieldMeta],
    /// The TTL attribute (epoch seconds), if any.
    pub ttl_attr: Option<&'static str>,
    /// The optimistic-lock version attribute (`#[dynamo(version)]`), if any:
    /// a put writes the next version on condition that the stored one is
    /// the item's, and a typed update bumps it.
    pub version_attr: Option<&'static str>,
    /// The `#[dynamo(created_at)]` attribute, if any: written once, when the
    /// item is created (see [`crate::rules`]).
    pub created_at: Option<&'static str>,
    /// The `#[dynamo(updated_at)]` attribute, if any: written by every put
    /// and typed update.
    pub updated_at: Option<&'static str>,
    /// The `#[dynamo(unique)]` fields' attributes: each value is held by a
    /// guard item (see [`crate::rules`]).
    pub unique: &'static [&'static str],
}

impl EntityMeta {
    /// What the derive writes: the entity's type, discriminator (and its
    /// attribute), keys, indexes and fields; the rest is set by the
    /// `__with_*` calls that follow when the entity has them.
    #[doc(hidden)]
    #[allow(clippy::too_many_arguments)]
    pub const fn __new(
        type_name: &'static str,
        discriminator: &'static str,
        discriminator_attr: &'static str,
        pk: KeyMeta,
        sk: Option<KeyMeta>,
        indexes: &'static [IndexMeta],
        fields: &'static [FieldMeta],
    ) -> Self {
        EntityMeta {
            type_name,
            discriminator,
            discriminator_attr,
            pk,
            sk,
            indexes,
            fields,
            ttl_attr: None,
            version_attr: None,
            created_at: None,
            updated_at: None,
            unique: &[],
        }
    }

    /// The metadata of a failed derive (the crate does not compile).
    #[doc(hidden)]
    pub const fn __stub(type_name: &'static str) -> Self {
        const EMPTY: crate::key::KeyTemplate = crate::key::KeyTemplate::new("", "", &[]);
        Self::__new(
            type_name,
            "",
            "",
            KeyMeta::__of(&EMPTY, &[]),
            None,
            &[],
            &[],
        )
    }

    /// The TTL attribute.
    #[doc(hidden)]
    pub const fn __with_ttl(mut self, attr: &'static str) -> Self {
        self.ttl_attr = Some(attr);
        self
    }

    /// The version attribute.
    #[doc(hidden)]
    pub const fn __with_version(mut self, attr: &'static str) -> Self {
        self.version_attr = Some(attr);
        self
    }

    /// The `created_at` attribute.
    #[doc(hidden)]
    pub const fn __with_created_at(mut self, attr: &'static str) -> Self {
        self.created_at = Some(attr);
        self
    }

    /// The `updated_at` attribute.
    #[doc(hidden)]
    pub const fn __with_updated_at(mut self, attr: &'static str) -> Self {
        self.updated_at = Some(attr);
        self
    }

    /// The unique attributes.
    #[doc(hidden)]
    pub const fn __with_unique(mut self, attrs: &'static [&'static str]) -> Self {
        self.unique = attrs;
        self
    }

    /// The index named `name`.
    pub fn index(&self, name: &str) -> Option<&IndexMeta> {
        self.indexes.iter().find(|i| i.name == name)
    }
}

/// One key attribute and the template that fills it (see the example on [`EntityMeta`]).
#[derive(Debug)]
pub struct KeyMeta {
    /// The attribute name, e.g. `pk`, `gsi1sk`.
    pub attr: &'static str,
    /// The template, e.g. `SITE#<country>#<city>#EMP#<number:d6>`.
    pub template: &'static str,
    /// The literal text before the first placeholder (`SITE#`).
    pub prefix: &'static str,
    /// The fields the template reads, in order.
    pub fields: &'static [&'static str],
    /// The template's parts and formats, as the runtime writes and reads it.
    pub key: &'static crate::key::KeyTemplate,
}

impl KeyMeta {
    /// The metadata of the key `key` fills (its attribute, text and prefix
    /// come from the template), reading `fields`: what the derive writes.
    #[doc(hidden)]
    pub const fn __of(
        key: &'static crate::key::KeyTemplate,
        fields: &'static [&'static str],
    ) -> Self {
        Self::__new(key.attr(), fields, key)
    }

    /// The metadata of attribute `attr` filled by `key`, reading `fields`
    /// (what the derive writes; the template text and prefix come from
    /// `key`).
    #[doc(hidden)]
    pub const fn __new(
        attr: &'static str,
        fields: &'static [&'static str],
        key: &'static crate::key::KeyTemplate,
    ) -> Self {
        KeyMeta {
            attr,
            template: key.text(),
            prefix: key.prefix(),
            fields,
            key,
        }
    }
}

/// Global or local (see the example on [`EntityMeta`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexKind {
    /// A global secondary index.
    Global,
    /// A local secondary index (the table's partition key).
    Local,
}

/// A secondary index (see the example on [`EntityMeta`]).
#[derive(Debug)]
pub struct IndexMeta {
    /// The index name, e.g. `GSI1`.
    pub name: &'static str,
    /// Global or local.
    pub kind: IndexKind,
    /// The partition key (for a local index, the table's).
    pub pk: KeyMeta,
    /// The sort key.
    pub sk: Option<KeyMeta>,
    /// Whether an item with an absent input stays out of the index.
    pub sparse: bool,
    /// What the index holds of each item (`projection = ".."` on the index).
    pub projection: IndexProjection,
}

impl IndexMeta {
    /// What the derive writes: the index's name comes from its partition
    /// key's template.
    #[doc(hidden)]
    pub const fn __new(
        kind: IndexKind,
        pk: KeyMeta,
        sk: Option<KeyMeta>,
        sparse: bool,
        projection: IndexProjection,
    ) -> Self {
        let name = match pk.key.index() {
            Some(n) => n,
            None => "",
        };
        IndexMeta {
            name,
            kind,
            pk,
            sk,
            sparse,
            projection,
        }
    }
}

/// What an index holds of each item: `#[gsi(.., projection = "KEYS_ONLY")]`,
/// `projection = "INCLUDE(title, status)"`, or every attribute (`ALL`, the
/// default). `create_table` creates the index so; with several entities on
/// one index, `ALL` wins, else the included attributes add up. A
/// `KEYS_ONLY` or `INCLUDE` index also holds the discriminator, so a read
/// of it knows each item's type.
///
/// ```
/// # use dynakey_derive::DynamoEntity;
/// # #[derive(DynamoEntity)]
/// # #[dynamo(crate = "dynakey_runtime", entity = "TASK")]
/// # #[pk("TASK#<id>")]
/// # #[gsi("GSI1", pk = "OWNER#<owner>", sk = "TASK#<id>", projection = "INCLUDE(title)")]
/// # #[gsi("GSI2", pk = "STATUS#<status>", sk = "TASK#<id>", projection = "KEYS_ONLY")]
/// # struct Task { id: String, owner: String, status: String, title: String, body: String }
/// use dynakey_runtime::{entity::IndexProjection, Entity};
/// let m = Task::META;
/// assert_eq!(m.index("GSI1").unwrap().projection, IndexProjection::Include(&["title"]));
/// assert_eq!(m.index("GSI2").unwrap().projection, IndexProjection::KeysOnly);
/// assert!(!m.index("GSI2").unwrap().projection.holds_all());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexProjection {
    /// Every attribute.
    All,
    /// The table and index key attributes (and the discriminator).
    KeysOnly,
    /// The keys, the discriminator and these attributes.
    Include(&'static [&'static str]),
}

impl IndexProjection {
    /// Whether the index holds whole items.
    pub fn holds_all(self) -> bool {
        self == IndexProjection::All
    }
}

/// A stored field (see the example on [`EntityMeta`]).
#[derive(Debug)]
pub struct FieldMeta {
    /// The Rust field name.
    pub name: &'static str,
    /// The attribute name.
    pub attr: &'static str,
    /// Whether the field may be absent (`Option` or `omit_empty`).
    pub optional: bool,
    /// The field's type as written, without spaces (`Option<String>`).
    pub ty: &'static str,
    /// Whether a missing attribute reads as a default (`#[dynamo(default)]`).
    pub default: bool,
}

impl FieldMeta {
    /// What the derive writes, positionally.
    #[doc(hidden)]
    pub const fn __new(
        name: &'static str,
        attr: &'static str,
        optional: bool,
        ty: &'static str,
        default: bool,
    ) -> Self {
        FieldMeta {
            name,
            attr,
            optional,
            ty,
            default,
        }
    }
}
